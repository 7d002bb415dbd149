/* What the scenario asks for that a run does not do as written (see
 * system.h): a key nothing read, more CPUs than there is work for, a link
 * partner's rate above what its line carries.  A warning starts with where
 * the key was set, as an error message does, so an editor can jump to it. */
#include "system_parts.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void system_warn(nicsim_system *sys, const char *fmt, ...)
{
    int i = sys->nwarnings++;
    if (i >= SYS_MAX_WARNINGS) {
        snprintf(sys->warning[SYS_MAX_WARNINGS - 1], SYS_WARNING_LEN, "... and %d more warnings",
                 sys->nwarnings - SYS_MAX_WARNINGS + 1);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sys->warning[i], SYS_WARNING_LEN, fmt, ap);
    va_end(ap);
}

void system_warn_cpus(nicsim_system *sys)
{
    const scenario *sc = sys->sc;
    char w[600];
    if (!strcmp(sys->app->name, "router")) {
        uint64_t cpus = scenario_uint(sc, "router", "cpus");
        int pairs = sys->nports / 2;
        if (cpus > (uint64_t)pairs) {
            scenario_where(sc, "router", "cpus", w, sizeof w);
            system_warn(sys, "%s: router.cpus = %llu, but system.cards = %d gives %d port pair%s: %d CPU%s run%s",
                        w, (unsigned long long)cpus, sys->ncards, pairs, pairs == 1 ? "" : "s", sys->ncpus,
                        sys->ncpus == 1 ? "" : "s", sys->ncpus == 1 ? "s" : "");
        }
    }
}

void system_warn_rate(nicsim_system *sys, int p, const link_gen_cfg *cfg)
{
    const scenario *sc = sys->sc;
    double line = link_wire_line_pps(cfg->gbps, cfg->size);
    if (!cfg->rate_pps || (double)cfg->rate_pps <= line)
        return;
    char w[600];
    int eth2 = p == 2 && scenario_double(sc, "gen", "eth2_kpps") > 0;
    const char *key = eth2 ? "eth2_kpps" : "kpps";
    if (sys->rate_warned & (1u << eth2))
        return;                 /* one warning per key, not per port */
    sys->rate_warned |= (uint8_t)(1u << eth2);
    scenario_where(sc, "gen", key, w, sizeof w);
    system_warn(sys, "%s: gen.%s = %s is above the line rate (%.1f kpps of %u-byte frames at %g Gb/s): the link "
                "partner sends at line rate", w, key, scenario_text(sc, "gen", key), line / 1000.0, cfg->size,
                cfg->gbps);
}

/* Why a section's keys can go unread: the app, the NIC's bus, or the two. */
static void why_unread(const nicsim_system *sys, const char *section, char *out, size_t n)
{
    const char *app = sys->app->name, *model = scenario_str(sys->sc, "nic", "model");
    static const char *const app_sections[] = { "pktgen", "router", "sink", "l3fwd", "fwd" };
    for (size_t i = 0; i < sizeof app_sections / sizeof app_sections[0]; i++)
        if (!strcmp(section, app_sections[i]) && strcmp(section, sys->app->section)) {
            snprintf(out, n, "system.app = %s", app);
            return;
        }
    if (!strcmp(section, "gen") && !sys->app->partner)
        snprintf(out, n, "system.app = %s has no link partner", app);
    else if (!strcmp(section, "bus") || !strcmp(section, "pcie"))
        snprintf(out, n, "nic.model = %s sits on %s", model, sys->pers->bus == NIC_BUS_PCIE ? "PCIe ([pcie])" : "PCI-X ([bus])");
    else
        snprintf(out, n, "nic.model = %s, system.app = %s", model, app);
}

void system_warn_unused_keys(nicsim_system *sys)
{
    const scenario *sc = sys->sc;
    size_t i = 0;
    const scenario_key *k;
    while ((k = scenario_next_unread(sc, &i))) {
        /* prefetch thresholds a scenario keeps for its runs with
         * driver.tx_prefetch on: a sweep of tx_prefetch=true,false is the
         * common case, and its off runs ignore them as asked */
        if (!strcmp(k->section, "driver") && (!strcmp(k->key, "tx_pthresh") || !strcmp(k->key, "tx_hthresh")) &&
            !scenario_bool(sc, "driver", "tx_prefetch"))
            continue;
        char w[600], why[160];
        scenario_where(sc, k->section, k->key, w, sizeof w);
        why_unread(sys, k->section, why, sizeof why);
        system_warn(sys, "%s: %s.%s is not used by this run (%s)", w, k->section, k->key, why);
    }
}
