/* The router of the 82546 reference posts as an app: eth0 -> eth1 (and,
 * with two cards, eth2 -> eth3), link partners flooding the input ports,
 * the forwarded frames leaving on the output ports, and one instance (CPU)
 * per pair (router.cpus = 2) or one for all (1) running the e1000 core's
 * NAPI loop and driver/apps/router.c. */
#include "app_router.h"
#include "../../driver/apps/router.h"
#include "../../driver/port/port_e1000.h"
#include <string.h>

struct router_app {
    struct router r;
    int up;                     /* router_init succeeded */
    int nports;
};

/* Every port of the whole pairs there are (an odd last port has no pair). */
static int instance_of(const scenario *sc, int p, int nports)
{
    int pairs = nports / 2;
    if (p >= 2 * pairs)
        return -1;
    int ncpu = (int)scenario_uint(sc, "router", "cpus");
    return ncpu > 1 ? (p / 2) % ncpu : 0;
}

static int is_input(int p)
{
    return p % 2 == 0;
}

/* Inputs receive, outputs transmit.  Reclaimed in the transmit path
 * (driver.tx_clean = xmit), TX completions need no interrupt: the
 * 4096-descriptor patch's TX ports took 693 interrupts in seed 002's
 * /proc/interrupts, against 58,638 with the NAPI-poll reclaim. */
static void want(const scenario *sc, int p, struct nic_port_want *w)
{
    *w = (struct nic_port_want){ .rx = (uint8_t)is_input(p), .tx = (uint8_t)!is_input(p), .irq = 1,
                                 .no_tx_irq = strcmp(scenario_str(sc, "driver", "tx_clean"), "xmit") == 0 };
}

static int transmits(const scenario *sc, int p, int nports)
{
    return !is_input(p) && instance_of(sc, p, nports) >= 0;
}

static int partner(const scenario *sc, int p, int nports, link_gen_cfg *cfg)
{
    (void)cfg;
    return is_input(p) && instance_of(sc, p, nports) >= 0;
}

/* [router] and driver.tx_clean: NAPI weight, TX reclaim, route cache. */
static void options(const scenario *sc, struct router_opts *o)
{
    router_default_opts(o);
    o->napi.weight = (uint32_t)scenario_uint(sc, "router", "napi_weight");
    o->napi.tx_clean = strcmp(scenario_str(sc, "driver", "tx_clean"), "poll") == 0;
    o->rt.buckets = (uint32_t)scenario_uint(sc, "router", "rt_buckets");
    o->rt.max_entries = (uint32_t)scenario_uint(sc, "router", "rt_max_entries");
}

/* Frames leave port p from 02:00:00:00:00:(0x20 + p) to the next hop
 * 02:00:00:00:00:(0x30 + p). */
static void macs(int p, struct router_port *rp)
{
    rp->mac[5] = (uint8_t)(0x20 + p);
    rp->next_hop_mac[5] = (uint8_t)(0x30 + p);
}

static int up(void *st, const scenario *sc, const app_port *ports, int n, char *err, size_t errlen)
{
    struct router_app *a = st;
    struct router_port rp[ROUTER_MAX_PORTS];
    struct router_pair pairs[ROUTER_MAX_PORTS];
    int npairs = 0;
    memset(rp, 0, sizeof rp);
    for (int i = 0; i < n; i++) {
        struct e1000_port *e = port_e1000(ports[i].np);
        rp[i].dev = &e->dev;
        rp[i].rxq = e->rxq_up ? &e->rxq : NULL;
        rp[i].txq = e->txq_up ? &e->txq : NULL;
        macs(ports[i].index, &rp[i]);
    }
    /* input port p forwards to p + 1 (eth0 -> eth1, eth2 -> eth3) */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (is_input(ports[i].index) && ports[j].index == ports[i].index + 1)
                pairs[npairs++] = (struct router_pair){ (unsigned)i, (unsigned)j };
    struct router_opts ro;
    options(sc, &ro);
    int rc = router_init(&a->r, rp, n, pairs, npairs, &ro, NULL);
    if (rc != 0) {
        snprintf(err, errlen, "router setup failed (%s)",
                 rc == E1000_ERR_NOMEM ? "out of DMA memory for the route cache" : "a [router] option out of range");
        return rc == E1000_ERR_NOMEM ? APP_ERR_NOMEM : APP_ERR_PARAM;
    }
    a->up = 1;
    a->nports = n;
    return 0;
}

static int step(void *st)
{
    return router_step(&((struct router_app *)st)->r);
}

static void down(void *st)
{
    struct router_app *a = st;
    if (a->up)
        router_fini(&a->r);
    a->up = 0;
}

/* Interrupts per port, as Linux counts them: the NAPI loop's. */
static void port_stats(const void *st, int i, app_port_stats *s)
{
    const struct router_app *a = st;
    *s = (app_port_stats){ 0 };
    if (!a->up)
        return;
    struct router_port_stats rs;
    router_port_stats(&a->r, (unsigned)i, &rs);
    s->received = rs.rx;
    s->irqs = a->r.napi.port_stats[i].irqs;
    s->tx_full = rs.drop_ring_full;
}

static void summary(FILE *f, const void *st, const int *port_index, int n, double run_s)
{
    const struct router_app *a = st;
    (void)run_s;
    fprintf(f, "\nrouter\nIface          rx  forwarded  drop-hdr  drop-ttl  no-route  ring-full  rx-errors\n");
    for (int i = 0; a->up && i < n; i++) {
        struct router_port_stats s;
        router_port_stats(&a->r, (unsigned)i, &s);
        fprintf(f, "eth%-3d %12llu %10llu %9llu %9llu %9llu %10llu %10llu\n", port_index[i],
                (unsigned long long)s.rx, (unsigned long long)s.forwarded, (unsigned long long)s.drop_header,
                (unsigned long long)s.drop_ttl, (unsigned long long)s.drop_no_route,
                (unsigned long long)s.drop_ring_full, (unsigned long long)s.rx_errors);
    }
}

const app app_router = {
    .name = "router",
    .section = "router",
    .frames = "gen",
    .core = &port_e1000_core,
    .receiver = 1,
    .steps_per_turn = 64,
    .instance_of = instance_of,
    .want = want,
    .transmits = transmits,
    .partner = partner,
    .state_size = sizeof(struct router_app),
    .up = up,
    .step = step,
    .down = down,
    .port_stats = port_stats,
    .summary = summary,
};
