/* The sink as an app: one instance on port sink.port, which a link partner
 * floods ([gen]); driver/apps/sink.c takes the frames in NAPI cycles from
 * RX queue 0 of either core, until the partner is done and the port has
 * been quiet for sink.drain_us. */
#include "app_sink.h"
#include "../../driver/apps/sink.h"

struct sink_app {
    struct sink sink;
    int up;
};

static int instance_of(const scenario *sc, int p, int nports)
{
    (void)nports;
    return (uint64_t)p == scenario_uint(sc, "sink", "port") ? 0 : -1;
}

static int check(const scenario *sc, int nports, char *err, size_t n)
{
    int p = (int)scenario_uint(sc, "sink", "port");
    if (p >= nports) {
        snprintf(err, n, "sink.port: %d names no port of the %d there are", p, nports);
        return -1;
    }
    return 0;
}

/* RX queue 0 and its interrupt (on an 82599 EICR bit 0, throttled by
 * EITR(0) = driver.eitr_us). */
static void want(const scenario *sc, int p, struct nic_port_want *w)
{
    (void)sc;
    (void)p;
    *w = (struct nic_port_want){ .rx = 1, .irq = 1 };
}

static int transmits(const scenario *sc, int p, int nports)
{
    (void)sc;
    (void)p;
    (void)nports;
    return 0;
}

static int partner(const scenario *sc, int p, int nports, link_gen_cfg *cfg)
{
    (void)cfg;
    return instance_of(sc, p, nports) == 0;
}

static int up(void *st, const scenario *sc, const app_port *ports, int n, char *err, size_t errlen)
{
    struct sink_app *a = st;
    (void)n;
    struct sink_opts o;
    sink_default_opts(&o);
    o.budget = (uint32_t)scenario_uint(sc, "sink", "napi_weight");
    o.touch = (uint8_t)scenario_bool(sc, "sink", "touch");
    struct nic_rxq_ops rx;
    ports[0].np->core->rxq_ops(ports[0].np, &rx);
    if (sink_init(&a->sink, ports[0].pd, &rx, &o) != 0) {
        snprintf(err, errlen, "eth%d: sink setup failed", ports[0].index);
        return APP_ERR_PARAM;
    }
    a->up = 1;
    return 0;
}

static int step(void *st)
{
    return sink_step(&((struct sink_app *)st)->sink) != 0;
}

static void down(void *st)
{
    ((struct sink_app *)st)->up = 0;
}

static void port_stats(const void *st, int i, app_port_stats *s)
{
    const struct sink_stats *ss = &((const struct sink_app *)st)->sink.stats;
    (void)i;
    *s = (app_port_stats){ .received = ss->packets, .consumed = ss->packets, .irqs = ss->irqs };
}

static void summary(FILE *f, const void *st, const int *port_index, int n, double run_s)
{
    const struct sink_stats *s = &((const struct sink_app *)st)->sink.stats;
    (void)n;
    (void)run_s;
    fprintf(f, "\nsink on eth%d: %llu frames, %llu bytes (without FCS), %llu polls\n", port_index[0],
            (unsigned long long)s->packets, (unsigned long long)s->bytes, (unsigned long long)s->polls);
}

const app app_sink = {
    .name = "sink",
    .section = "sink",
    .frames = "gen",
    .receiver = 1,
    .steps_per_turn = 64,
    .instance_of = instance_of,
    .check = check,
    .want = want,
    .transmits = transmits,
    .partner = partner,
    .state_size = sizeof(struct sink_app),
    .up = up,
    .step = step,
    .down = down,
    .port_stats = port_stats,
    .summary = summary,
};
