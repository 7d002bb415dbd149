/* Loading a scenario for any front end (the nicsim commands, the SystemC
 * testbench): the INI file and overrides against the key schema, then the
 * checks that span keys. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nicsim_scenario.h"
#include "personality.h"
#include "scenario_keys.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/ixgbe/ixgbe_regs.h"

/* driver.tx_clean = napi is Linux 3.18 ixgbe under pktgen: it needs both,
 * and it decides EITR(0) and WTHRESH itself (from driver.rx_usecs), so the
 * keys that set them otherwise are refused with it, and rx_usecs without it. */
static int check_napi(const scenario *sc, char *err, size_t n)
{
    char w[600];
    int napi = !strcmp(scenario_str(sc, "driver", "tx_clean"), "napi");
    if (!napi) {
        if (!scenario_is_set(sc, "driver", "rx_usecs"))
            return 0;
        scenario_where(sc, "driver", "rx_usecs", w, sizeof w);
        snprintf(err, n, "%s: driver.rx_usecs: only used with driver.tx_clean = napi (else driver.eitr_us "
                 "sets the 82599's interval)", w);
        return -1;
    }
    if (strcmp(scenario_str(sc, "nic", "model"), "82599") || strcmp(scenario_str(sc, "system", "app"), "pktgen")) {
        scenario_where(sc, "driver", "tx_clean", w, sizeof w);
        snprintf(err, n, "%s: driver.tx_clean: napi is Linux ixgbe's poll under pktgen: it needs nic.model = "
                 "82599 and system.app = pktgen", w);
        return -1;
    }
    static const char *const derived[] = { "eitr_us", "tx_wthresh" };
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
        if (scenario_is_set(sc, "driver", derived[i])) {
            scenario_where(sc, "driver", derived[i], w, sizeof w);
            snprintf(err, n, "%s: driver.%s: not used with driver.tx_clean = napi: driver.rx_usecs sets the "
                     "interrupt interval and WTHRESH follows from it as in ixgbe", w, derived[i]);
            return -1;
        }
    return 0;
}

/* A rule between two keys: "WHERE1: s1.k1: RULE, got 'V1' (with s2.k2 =
 * V2, set at WHERE2)"
 * names both keys and where each got its value. */
/* The scenario's NIC runs the ixgbe core (the 82599), not the e1000's. */
static int is_82599(const scenario *sc)
{
    return !strcmp(nic_personality_of(sc)->port->name, "ixgbe");
}

static void two_keys(const scenario *sc, const char *s1, const char *k1, const char *s2,
                     const char *k2, const char *rule, char *err, size_t n)
{
    char w1[600], w2[600];
    scenario_where(sc, s1, k1, w1, sizeof w1);
    scenario_where(sc, s2, k2, w2, sizeof w2);
    snprintf(err, n, "%s: %s.%s: %s, got '%s' (with %s.%s = %s, set at %s)", w1, s1, k1, rule, scenario_text(sc, s1, k1),
             s2, k2, scenario_text(sc, s2, k2), w2);
}

/* The rings and reclaim threshold the NIC model's driver core takes (the
 * schema's ranges are the union of the cores'): the 8254x's rings are
 * multiples of 8 descriptors (128-byte TDLEN/RDLEN) from 48, the 82599's
 * powers of 2 from 64 (ixy's and Linux's index masks). */
static int check_rings(const scenario *sc, char *err, size_t n)
{
    int ixgbe = is_82599(sc);
    static const char *const rings[] = { "tx_ring", "rx_ring" };
    for (int i = 0; i < 2; i++) {
        uint64_t r = scenario_uint(sc, "driver", rings[i]);
        /* the 82599's TX ring: any multiple of 8 (ixgbe_set_ringparam's
         * IXGBE_REQ_TX_DESCRIPTOR_MULTIPLE); its RX ring: a power of 2 (the
         * RX engine's index mask) */
        int pow2 = ixgbe && i == 1;
        int ok = ixgbe ? r >= IXGBE_MIN_TXD && r <= IXGBE_MAX_TXD &&
                             (pow2 ? (r & (r - 1)) == 0 : r % IXGBE_TXD_MULTIPLE == 0)
                       : r >= E1000_MIN_TXD && r <= E1000_MAX_RXD && r % E1000_RING_MULTIPLE == 0;
        if (!ok) {
            char rule[160];
            if (pow2)
                snprintf(rule, sizeof rule, "expected a power of 2 in [%u, %u]", IXGBE_MIN_RXD, IXGBE_MAX_RXD);
            else if (ixgbe)
                snprintf(rule, sizeof rule, "expected a multiple of %u in [%u, %u]", IXGBE_TXD_MULTIPLE,
                         IXGBE_MIN_TXD, IXGBE_MAX_TXD);
            else
                snprintf(rule, sizeof rule, "expected a multiple of %u in [%u, %u]", E1000_RING_MULTIPLE,
                         E1000_MIN_TXD, E1000_MAX_RXD);
            two_keys(sc, "driver", rings[i], "nic", "model", rule, err, n);
            return -1;
        }
    }
    if (scenario_uint(sc, "driver", "tx_clean_thresh") >= scenario_uint(sc, "driver", "tx_ring")) {
        two_keys(sc, "driver", "tx_clean_thresh", "driver", "tx_ring",
                 "expected fewer than driver.tx_ring descriptors (reclaim starts when fewer are free)", err, n);
        return -1;
    }
    uint64_t b = scenario_uint(sc, "router", "rt_buckets");
    if (b & (b - 1)) {
        char w[600];
        scenario_where(sc, "router", "rt_buckets", w, sizeof w);
        snprintf(err, n, "%s: router.rt_buckets: expected a power of 2 (the hash is masked), got '%llu'", w,
                 (unsigned long long)b);
        return -1;
    }
    return 0;
}

/* Checks that need more than one key or a rule the schema cannot say. */
/* The TX descriptor thresholds the NIC model's core takes: on the 8254x
 * batched write-backs (WTHRESH above one descriptor) need TIDV to flush a
 * partial batch; the 82599 has no TIDV (its EITR interrupt flushes, and a
 * polling driver such as ixy's runs WTHRESH 4 without one: the last
 * descriptors of a run may stay unreported, which the run says), and it
 * keeps PTHRESH + WTHRESH within its 40 on-chip descriptors. */
static int check_tx_thresholds(const scenario *sc, char *err, size_t n)
{
    char w[600];
    int ixgbe = is_82599(sc);
    uint64_t wthresh = scenario_uint(sc, "driver", "tx_wthresh");
    if (!ixgbe) {
        if (!scenario_bool(sc, "driver", "tx_gran"))
            wthresh *= 4;          /* GRAN = 0 counts 64-byte lines of 4 descriptors */
        if (scenario_uint(sc, "driver", "tidv") == 0 && wthresh > 1) {
            scenario_where(sc, "driver", "tidv", w, sizeof w);
            snprintf(err, n, "%s: driver.tidv: expected at least 1 when write-backs are batched "
                     "(driver.tx_wthresh above 1 descriptor), got '0': TIDV flushes a partial batch", w);
            return -1;
        }
        return 0;
    }
    uint64_t pthresh = scenario_bool(sc, "driver", "tx_prefetch") ? scenario_uint(sc, "driver", "tx_pthresh") : 0;
    if (pthresh + wthresh > IXGBE_TX_DESC_CACHE) {
        /* named first: the one set on the command line, else the one the
         * file set, the other as its context */
        int w_over = scenario_is_set(sc, "driver", "tx_wthresh") && !scenario_line(sc, "driver", "tx_wthresh");
        int p_over = scenario_is_set(sc, "driver", "tx_pthresh") && !scenario_line(sc, "driver", "tx_pthresh");
        int w_first = w_over != p_over ? w_over
                                       : scenario_is_set(sc, "driver", "tx_wthresh") &&
                                             !scenario_is_set(sc, "driver", "tx_pthresh");
        const char *k1 = w_first ? "tx_wthresh" : "tx_pthresh", *k2 = w_first ? "tx_pthresh" : "tx_wthresh";
        two_keys(sc, "driver", k1, "driver", k2,
                 "expected tx_pthresh + tx_wthresh at most 40 on the 82599 (its on-chip cache holds 40 TX "
                 "descriptors per queue)", err, n);
        return -1;
    }
    return 0;
}

/* The PCIe link's keys that depend on each other (the bus model checks
 * them again for buscalc): a completion carries at most MPS bytes and
 * breaks only on RCB boundaries, so RCB above MPS admits no split. */
static int check_pcie(const scenario *sc, char *err, size_t n)
{
    if (nic_personality_of(sc)->bus != NIC_BUS_PCIE)
        return 0;
    if (strtoul(scenario_str(sc, "pcie", "rcb"), NULL, 10) > strtoul(scenario_str(sc, "pcie", "mps"), NULL, 10)) {
        two_keys(sc, "pcie", "rcb", "pcie", "mps",
                 "expected at most pcie.mps (a completion carries at most MPS bytes and breaks only on RCB "
                 "boundaries)", err, n);
        return -1;
    }
    return 0;
}

/* A range of partner frame sizes runs from gen.size up (models/link_gen.h). */
static int check_gen_sizes(const scenario *sc, char *err, size_t n)
{
    uint64_t max = scenario_uint(sc, "gen", "size_max");
    if (max && max <= scenario_uint(sc, "gen", "size")) {
        two_keys(sc, "gen", "size_max", "gen", "size",
                 "expected 0 (one size) or more than gen.size (frames spread over gen.size..size_max)", err, n);
        return -1;
    }
    return 0;
}

static int check_scenario(const scenario *sc, char *err, size_t n)
{
    char w[600];
    uint64_t ring = scenario_uint(sc, "driver", "tx_ring");
    if (check_rings(sc, err, n) != 0)
        return -1;
    if (check_tx_thresholds(sc, err, n) != 0 || check_pcie(sc, err, n) != 0 || check_gen_sizes(sc, err, n) != 0)
        return -1;
    uint64_t rx_ring = scenario_uint(sc, "driver", "rx_ring"), free_thresh = scenario_uint(sc, "driver", "rx_free_thresh");
    if (free_thresh + 1 >= rx_ring) {
        scenario_where(sc, "driver", "rx_free_thresh", w, sizeof w);
        snprintf(err, n, "%s: driver.rx_free_thresh: expected at most driver.rx_ring - 2 (%llu), got '%llu': "
                 "the NIC would run out of descriptors while they wait", w, (unsigned long long)(rx_ring - 2),
                 (unsigned long long)free_thresh);
        return -1;
    }
    uint64_t rs_every = scenario_uint(sc, "driver", "rs_every");
    if (!strcmp(scenario_str(sc, "driver", "tx_rs"), "index") && ring % rs_every) {
        scenario_where(sc, "driver", "rs_every", w, sizeof w);
        snprintf(err, n, "%s: driver.rs_every: expected a divisor of driver.tx_ring (%llu) with driver.tx_rs = index, got '%llu'",
                 w, (unsigned long long)ring, (unsigned long long)rs_every);
        return -1;
    }
    if (is_82599(sc) && scenario_uint(sc, "driver", "tx_clean_batch") >= ring) {
        two_keys(sc, "driver", "tx_clean_batch", "driver", "tx_ring", "expected fewer descriptors than the TX ring",
                 err, n);
        return -1;
    }
    if (scenario_uint(sc, "driver", "tx_clean_batch") && (rs_every != 1 || strcmp(scenario_str(sc, "driver", "tx_rs"), "packets"))) {
        two_keys(sc, "driver", "tx_clean_batch", "driver", rs_every != 1 ? "rs_every" : "tx_rs",
                 "expected 0 unless RS is on every packet (driver.rs_every = 1, driver.tx_rs = packets)", err, n);
        return -1;
    }
    if (!strcmp(scenario_str(sc, "driver", "buf_layout"), "ixy")) {
        /* ixy's metadata is the 64-byte header in front of the data */
        static const char *const touch[] = { "buf_alloc_touch", "buf_free_touch" };
        for (int i = 0; i < 2; i++)
            if (scenario_uint(sc, "driver", touch[i]) > 64) {
                two_keys(sc, "driver", touch[i], "driver", "buf_layout",
                         "expected at most 64 with ixy's buffers (their metadata is the 64-byte header in front of "
                         "the data)", err, n);
                return -1;
            }
    }
    if (check_napi(sc, err, n) != 0)
        return -1;
    if (scenario_uint(sc, "pktgen", "count") == 0 && scenario_uint(sc, "pktgen", "duration_us") == 0) {
        two_keys(sc, "pktgen", "count", "pktgen", "duration_us",
                 "expected a packet count when pktgen.duration_us is 0", err, n);
        return -1;
    }
    return 0;
}

void nicsim_scenario_locate(const scenario *sc, char *msg, size_t msglen)
{
    char out[1024];
    size_t l = 0, n = sizeof out;
    out[0] = 0;
    for (size_t i = 0; i < nicsim_n_keys && l < n; i++) {
        const scenario_key *k = &nicsim_keys[i];
        char name[128];
        snprintf(name, sizeof name, "%s.%s", k->section, k->key);
        /* the name as a whole word: not "pktgen.ports" inside "l3fwd.pktgen.ports_x" */
        const char *hit = msg;
        size_t nl = strlen(name);
        while ((hit = strstr(hit, name)) &&
               ((hit > msg && (hit[-1] == '.' || hit[-1] == '_' || isalnum((unsigned char)hit[-1]))) ||
                hit[nl] == '_' || isalnum((unsigned char)hit[nl])))
            hit += nl;
        if (!hit)
            continue;
        char w[600];
        scenario_where(sc, k->section, k->key, w, sizeof w);
        l += (size_t)snprintf(out + l, n - l, "%s%s: %s", l ? "; " : " (", name, w);
    }
    if (!l || l + 1 >= n)
        return;
    snprintf(out + l, n - l, ")");
    size_t m = strlen(msg);
    if (m + strlen(out) < msglen)
        memcpy(msg + m, out, strlen(out) + 1);
}

scenario *nicsim_scenario_load(const char *path, int n, char **ov, char *err, size_t errlen)
{
    scenario *sc = NULL;
    if (scenario_load(&sc, nicsim_keys, nicsim_n_keys, path, n, ov, err, errlen) != 0)
        return NULL;
    if (check_scenario(sc, err, errlen) != 0) {
        scenario_free(sc);
        return NULL;
    }
    /* the checks read keys a run may not use: what the run reads from here
     * on tells the keys it ignores (system_unused_keys) */
    scenario_reads_forget(sc);
    return sc;
}
