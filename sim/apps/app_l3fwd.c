/* The l3fwd experiment as an app: port 0 of each of the first l3fwd.ports
 * 82599s (eth0, eth2, eth4, eth6), each flooded by its link partner with
 * the traffic pattern of l3fwd.pattern, and one instance polling them all
 * with the forwarder of driver/apps/l3fwd.h (no interrupts), routing by the
 * destination: 198.18.<k>.0/24 and 2001:db8:<k>::/48 go to port k. */
#include "app_l3fwd.h"
#include "../../driver/apps/l3fwd.h"
#include "../../driver/port/port_ixgbe.h"
#include <stdlib.h>
#include <string.h>

struct l3fwd_app {
    struct l3fwd fwd;
    struct lpm lpm4, lpm6;
    int up;
};

/* Route table groups: IPv4 /24s need none, each IPv6 /48 three. */
#define L3FWD_LPM4_GROUPS 16u
#define L3FWD_LPM6_GROUPS 64u

static int instance_of(const scenario *sc, int p, int nports)
{
    (void)nports;
    return p % 2 == 0 && (uint64_t)p / 2 < scenario_uint(sc, "l3fwd", "ports") ? 0 : -1;
}

static int check(const scenario *sc, int nports, char *err, size_t n)
{
    int ports = (int)scenario_uint(sc, "l3fwd", "ports");
    if (ports > nports / 2) {
        snprintf(err, n, "system.cards: l3fwd.ports = %d needs %d cards (one port of each), got %d", ports, ports,
                 nports / 2);
        return -1;
    }
    return 0;
}

/* Polled: RX and TX queue 0, no interrupt. */
static void want(const scenario *sc, int p, struct nic_port_want *w)
{
    (void)sc;
    (void)p;
    *w = (struct nic_port_want){ .rx = 1, .tx = 1 };
}

static int transmits(const scenario *sc, int p, int nports)
{
    return instance_of(sc, p, nports) == 0;
}

/* What input port p's link partner sends (its rate, size and count come
 * from [gen]): the pattern's destinations, 198.18.<k>.1 or 2001:db8:<k>::1
 * for output port k. */
static int partner(const scenario *sc, int p, int nports, link_gen_cfg *cfg)
{
    if (instance_of(sc, p, nports) != 0)
        return 0;
    const char *pat = scenario_str(sc, "l3fwd", "pattern");
    int i = p / 2, n = (int)scenario_uint(sc, "l3fwd", "ports");
    int pair = (i ^ 1) < n ? i ^ 1 : i;     /* 0<->1, 2<->3; a lone port to itself */
    cfg->dst_prefix = 16;
    cfg->flow_stride = 256;
    cfg->ip_version = 4;
    if (!strncmp(pat, "ipv4-4streamsx", 14)) {
        cfg->dst_ip_base = 0xc6120001u;     /* 198.18.0.1 */
        cfg->flows = (uint32_t)n;
        cfg->pkts_per_flow = (uint32_t)atoi(pat + 14);
        return 1;
    }
    cfg->dst_ip_base = 0xc6120001u | (uint32_t)pair << 8;
    cfg->dst_ip6_base[5] = (uint8_t)pair;
    cfg->flows = 1;
    cfg->pkts_per_flow = 1;
    cfg->ip_version = !strcmp(pat, "ipv6-cont-burst") ? 6 : !strcmp(pat, "ipv4-ipv6-cont-burst") ? 46 : 4;
    return 1;
}

/* The routes: port k's IPv4 /24 and IPv6 /48. */
static int add_routes(struct l3fwd_app *a, int nports)
{
    for (int k = 0; k < nports; k++) {
        uint8_t k4[4] = { 198, 18, (uint8_t)k, 0 };
        uint8_t k6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, (uint8_t)k };
        if (lpm_add(&a->lpm4, k4, 24, (uint32_t)k) != 0 || lpm_add(&a->lpm6, k6, 48, (uint32_t)k) != 0)
            return -1;
    }
    return 0;
}

static int up(void *st, const scenario *sc, const app_port *ports, int n, char *err, size_t errlen)
{
    struct l3fwd_app *a = st;
    struct l3fwd_port lp[L3FWD_MAX_PORTS];
    for (int i = 0; i < n; i++) {
        struct ixgbe_port *x = port_ixgbe(ports[i].np);
        lp[i] = (struct l3fwd_port){ .pd = ports[i].pd, .rxq = &x->rxq, .txq = &x->txq,
                                     .mac = { 2, 0, 0, 0, (uint8_t)(ports[i].index / 2), 0 },
                                     .peer_mac = { 2, 0, 0, 0, 0xff, (uint8_t)ports[i].index } };
    }
    if (lpm_init(&a->lpm4, ports[0].pd, 4, L3FWD_LPM4_GROUPS) != 0 ||
        lpm_init(&a->lpm6, ports[0].pd, 16, L3FWD_LPM6_GROUPS) != 0 || add_routes(a, n) != 0) {
        snprintf(err, errlen, "l3fwd: cannot build the route tables (out of DMA memory)");
        return APP_ERR_NOMEM;
    }
    struct l3fwd_opts o;
    l3fwd_default_opts(&o);
    o.path = strcmp(scenario_str(sc, "l3fwd", "path"), "multi") == 0 ? L3FWD_MULTI : L3FWD_SCALAR;
    o.burst = (unsigned)scenario_uint(sc, "l3fwd", "burst");
    o.prefetch_ahead = (unsigned)scenario_uint(sc, "l3fwd", "prefetch_ahead");
    o.tx_buf = (unsigned)scenario_uint(sc, "l3fwd", "tx_buf");
    o.tx_direct = (unsigned)scenario_uint(sc, "l3fwd", "tx_direct");
    o.drain_ns = scenario_uint(sc, "l3fwd", "tx_drain_us") * 1000u;
    if (l3fwd_init(&a->fwd, lp, n, &a->lpm4, &a->lpm6, &o) != 0) {
        snprintf(err, errlen, "l3fwd: bad options");
        return APP_ERR_PARAM;
    }
    a->up = 1;
    return 0;
}

static int step(void *st)
{
    return l3fwd_step(&((struct l3fwd_app *)st)->fwd);
}

static void down(void *st)
{
    ((struct l3fwd_app *)st)->up = 0;
}

static void port_stats(const void *st, int i, app_port_stats *s)
{
    const struct l3fwd_app *a = st;
    const struct l3fwd_port_stats *ps = &a->fwd.stats[i];
    *s = (app_port_stats){ .received = a->up ? ps->rx : 0, .tx_full = a->up ? ps->drop_ring_full : 0,
                           .rx_polls_nonempty = a->up ? ps->rx_bursts - ps->rx_empty : 0,
                           .rx_batch = a->fwd.opts.burst };
}

void app_l3fwd_totals_of(const void *st, app_l3fwd_totals *t)
{
    const struct l3fwd *f = &((const struct l3fwd_app *)st)->fwd;
    memset(t, 0, sizeof *t);
    for (int p = 0; p < f->nports; p++) {
        const struct l3fwd_port_stats *s = &f->stats[p];
        t->rx += s->rx;
        t->tx += s->tx;
        t->tx_bursts += s->tx_bursts;
        t->rx_bursts += s->rx_bursts;
        t->rx_empty += s->rx_empty;
        t->tx_direct += s->tx_direct;
        t->tx_drained += s->tx_drained;
        t->drops += s->drop_bad + s->drop_no_route + s->drop_ring_full;
        t->tdt_writes += f->port[p].txq->stats.tdt_writes;
        t->rdt_writes += f->port[p].rxq->rx.stats.rdt_writes;
    }
    t->lookups = f->lpm_stats.lookups;
    t->lookups_x4 = f->lookups_x4;
    t->entry_reads = f->lpm_stats.entry_reads;
    t->groups = f->groups;
    t->iterations = f->iterations;
    t->drains = f->drains;
}

static void summary(FILE *f, const void *st, const int *port_index, int n, double run_s)
{
    app_l3fwd_totals t;
    (void)port_index;
    (void)n;
    app_l3fwd_totals_of(st, &t);
    double per = t.tx ? 1.0 / (double)t.tx : 0;
    fprintf(f, "\nl3fwd: %llu received, %llu sent, %llu dropped, %llu route lookups (%llu four at a time), %.0f pps\n",
            (unsigned long long)t.rx, (unsigned long long)t.tx, (unsigned long long)t.drops,
            (unsigned long long)t.lookups, (unsigned long long)t.lookups_x4, run_s > 0 ? (double)t.tx / run_s : 0);
    fprintf(f, "l3fwd per sent packet: %.3f tx bursts (%llu direct runs, %llu by the drain), %.3f TDT writes, "
            "%.3f RDT writes; %llu loop iterations, %llu drains\n",
            (double)t.tx_bursts * per, (unsigned long long)t.tx_direct, (unsigned long long)t.tx_drained,
            (double)t.tdt_writes * per, (double)t.rdt_writes * per, (unsigned long long)t.iterations,
            (unsigned long long)t.drains);
}

const app app_l3fwd = {
    .name = "l3fwd",
    .section = "l3fwd",
    .frames = "gen",
    .core = &port_ixgbe_core,
    .receiver = 1,
    .tx_rate = 1,
    .steps_per_turn = 16,
    .instance_of = instance_of,
    .check = check,
    .want = want,
    .transmits = transmits,
    .partner = partner,
    .state_size = sizeof(struct l3fwd_app),
    .up = up,
    .step = step,
    .down = down,
    .port_stats = port_stats,
    .summary = summary,
};
