/* The configurations validate finds out of tolerance (not_reproduced.h). */
#include "not_reproduced.h"
#include <stdlib.h>
#include <string.h>

/* Seed 002's pktgen (testbench/scenarios/e1000-pktgen-2004.ini) with 256
 * TX descriptors reclaimed by the poll: the posts measured 818 kpps without
 * and 1150 with TX descriptor prefetch, the model sends at wire speed both
 * ways (docs/validation.md, "Not reproduced: pktgen on the 2004 box"). */
#define PKTGEN_2004_KEYS                                                                                       \
    "nic.model=82546", "system.app=pktgen", "system.cards=1", "bus.mhz=133", "cpu.mhz=1600",                   \
        "driver.tx_ring=256", "driver.tx_clean=poll", "driver.tidv=64", "driver.tadv=64", "driver.itr=488",   \
        "pktgen.ports=0", "pktgen.size=64", "pktgen.burst=1", "pktgen.clone=true"

static const char *const pktgen_2004_vanilla[] = { PKTGEN_2004_KEYS, "driver.tx_prefetch=false", NULL };
static const char *const pktgen_2004_prefetch[] = { PKTGEN_2004_KEYS, "driver.tx_prefetch=true", NULL };

#define WHY_PKTGEN_2004 "docs/validation.md, \"Not reproduced: pktgen on the 2004 box\""

static const not_reproduced_row rows[] = {
    { "e1000-tx-prefetch-ringsize.csv", "variant=vanilla", "pktgen_tx_kpps", WHY_PKTGEN_2004, pktgen_2004_vanilla },
    { "e1000-tx-prefetch-ringsize.csv", "variant=tx_prefetch", "pktgen_tx_kpps", WHY_PKTGEN_2004,
      pktgen_2004_prefetch },
};

/* 1 when every "section.key=value" of keys holds in sc. */
static int holds_all(const scenario *sc, const char *const *keys)
{
    for (; *keys; keys++) {
        char sec[64], key[64];
        const char *eq = strchr(*keys, '=');
        const char *dot = eq ? memchr(*keys, '.', (size_t)(eq - *keys)) : NULL;
        if (!dot || (size_t)(dot - *keys) >= sizeof sec || (size_t)(eq - dot - 1) >= sizeof key)
            abort(); /* a bug in the table above */
        memcpy(sec, *keys, (size_t)(dot - *keys));
        sec[dot - *keys] = '\0';
        memcpy(key, dot + 1, (size_t)(eq - dot - 1));
        key[eq - dot - 1] = '\0';
        if (!scenario_holds(sc, sec, key, eq + 1))
            return 0;
    }
    return 1;
}

int not_reproduced_rows(const scenario *sc, const not_reproduced_row **out, int max)
{
    int n = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (holds_all(sc, rows[i].keys)) {
            if (n < max)
                out[n] = &rows[i];
            n++;
        }
    return n;
}
