/* pktgen as an app: one instance (CPU) per port of pktgen.ports, each
 * running driver/apps/pktgen.c on TX queue 0 of its port, on either core. */
#include "app_pktgen.h"
#include "../../driver/apps/pktgen.h"
#include <stdlib.h>
#include <string.h>

struct pktgen_app {
    struct pktgen pg;
    int up;                     /* pktgen_init succeeded */
};

/* 1 when pktgen.ports ("0".."3", "both" = 0 and 1, "all" = every port
 * there is) names port p. */
static int names(const scenario *sc, int p, int nports)
{
    const char *ports = scenario_str(sc, "pktgen", "ports");
    if (!strcmp(ports, "all"))
        return p < nports;
    if (!strcmp(ports, "both"))
        return p < 2;
    return p == atoi(ports);
}

static int instance_of(const scenario *sc, int p, int nports)
{
    if (!names(sc, p, nports))
        return -1;
    int k = 0;
    for (int q = 0; q < p; q++)
        k += names(sc, q, nports);
    return k;
}

static int check(const scenario *sc, int nports, char *err, size_t n)
{
    int k = 0;
    for (int p = 0; p < nports; p++)
        k += names(sc, p, nports);
    const char *ports = scenario_str(sc, "pktgen", "ports");
    if (k == 0) {
        snprintf(err, n, "pktgen.ports: '%s' names no port of the %d there are (two per card of system.cards)", ports,
                 nports);
        return -1;
    }
    if (k > APP_MAX_INSTANCES) {
        snprintf(err, n, "pktgen.ports: '%s' names %d ports; pktgen runs one CPU per port, at most %d", ports, k,
                 APP_MAX_INSTANCES);
        return -1;
    }
    return 0;
}

/* TX queue 0 and its interrupt: pktgen waits for it on a full ring. */
static void want(const scenario *sc, int p, struct nic_port_want *w)
{
    (void)sc;
    (void)p;
    *w = (struct nic_port_want){ .tx = 1, .irq = 1 };
}

static int transmits(const scenario *sc, int p, int nports)
{
    return instance_of(sc, p, nports) >= 0;
}

/* [pktgen] and driver.tx_clean; the port's MAC addresses are
 * 02:00:00:00:00:(2p+1) -> 02:00:00:00:00:(2p+2). */
static void options(const scenario *sc, int port, struct pktgen_opts *po)
{
    pktgen_default_opts(po);
    po->count = scenario_uint(sc, "pktgen", "count");
    po->duration_ns = scenario_uint(sc, "pktgen", "duration_us") * 1000ull;
    po->size = (uint32_t)scenario_uint(sc, "pktgen", "size");
    po->burst = (uint32_t)scenario_uint(sc, "pktgen", "burst");
    po->clone = (uint8_t)scenario_bool(sc, "pktgen", "clone");
    po->old_clock = strcmp(scenario_str(sc, "pktgen", "clock"), "gettimeofday") == 0;
    /* driver.tx_clean = napi: the port's driver brings its own poll (the
     * queue table's napi_poll), pktgen needs no mode of its own for it */
    po->reclaim_in_poll = strcmp(scenario_str(sc, "driver", "tx_clean"), "poll") == 0;
    po->src_mac[5] = (uint8_t)(1 + 2 * port);
    po->dst_mac[5] = (uint8_t)(2 + 2 * port);
}

static int up(void *st, const scenario *sc, const app_port *ports, int n, char *err, size_t errlen)
{
    struct pktgen_app *a = st;
    (void)n;
    struct pktgen_opts po;
    options(sc, ports[0].index, &po);
    struct nic_txq_ops tx;
    ports[0].np->core->txq_ops(ports[0].np, &tx);
    int rc = pktgen_init(&a->pg, ports[0].pd, &tx, &po);
    if (rc != 0) {
        snprintf(err, errlen, "eth%d: pktgen setup failed%s", ports[0].index,
                 rc == PKTGEN_ERR_NOMEM ? " (out of DMA memory)" : "");
        return rc == PKTGEN_ERR_NOMEM ? APP_ERR_NOMEM : APP_ERR_PARAM;
    }
    a->up = 1;
    return 0;
}

static int step(void *st)
{
    return pktgen_step(&((struct pktgen_app *)st)->pg);
}

static void down(void *st)
{
    struct pktgen_app *a = st;
    if (a->up)
        pktgen_fini(&a->pg);
    a->up = 0;
}

static void port_stats(const void *st, int i, app_port_stats *s)
{
    const struct pktgen_stats *ps = &((const struct pktgen_app *)st)->pg.stats;
    (void)i;
    const struct pktgen *pg = &((const struct pktgen_app *)st)->pg;
    *s = (app_port_stats){ .generator = 1, .sent = ps->sent, .reclaimed = ps->reclaimed,
                           .reclaim_rounds = ps->reclaim_rounds, .tx_ring = pg->tx.ring_size,
                           .hung = ps->drain_timeouts ? ps->sent - ps->reclaimed : 0, .irqs = ps->irqs,
                           .tx_full = ps->ring_full,
                           .tdt_writes = ps->tdt_writes, .stopped_waits = ps->stopped_waits,
                           .stopped_ns = ps->stopped_ns };
    if (pg->tx.napi_stats) {
        s->napi = 1;
        pg->tx.napi_stats(pg->tx.q, &s->napi_stats);
    }
}

static int complete(const void *st, const int *port_index, int n, const char *cut, char *why, size_t len)
{
    const struct pktgen_app *a = st;
    (void)n;
    if (!a->up)
        return 1;
    const struct pktgen_stats *s = &a->pg.stats;
    if (a->pg.opts.count && s->sent < a->pg.opts.count) {
        snprintf(why, len, "eth%d: pktgen sent %llu of %llu packets%s", port_index[0], (unsigned long long)s->sent,
                 (unsigned long long)a->pg.opts.count, cut);
        return 0;
    }
    if (s->drain_timeouts || s->reclaimed < s->sent) {
        snprintf(why, len, "eth%d: %llu of %llu packets never reclaimed (no DD write-back)", port_index[0],
                 (unsigned long long)(s->sent - s->reclaimed), (unsigned long long)s->sent);
        return 0;
    }
    return 1;
}

static void summary(FILE *f, const void *st, const int *port_index, int n, double run_s)
{
    const struct pktgen_stats *s = &((const struct pktgen_app *)st)->pg.stats;
    (void)n;
    fprintf(f, "\npktgen on eth%d: sent %llu, reclaimed %llu, tail writes %llu, ring full %llu, %llu pps\n",
            port_index[0], (unsigned long long)s->sent, (unsigned long long)s->reclaimed,
            (unsigned long long)s->tdt_writes, (unsigned long long)s->ring_full,
            (unsigned long long)(run_s > 0 ? (double)s->sent / run_s : 0));
    if (s->stopped_waits)
        fprintf(f, "  queue found stopped %llu times\n", (unsigned long long)s->stopped_waits);
}

const app app_pktgen = {
    .name = "pktgen",
    .section = "pktgen",
    .frames = "pktgen",
    .tx_rate = 1,
    .steps_per_turn = 256,
    .instance_of = instance_of,
    .check = check,
    .want = want,
    .transmits = transmits,
    .state_size = sizeof(struct pktgen_app),
    .up = up,
    .step = step,
    .down = down,
    .port_stats = port_stats,
    .complete = complete,
    .summary = summary,
};
