/* The ixy forwarding experiment as an app: two 82599 ports, both flooded by
 * their link partners ([gen]), and one instance forwarding every frame
 * received on one to the other with the forwarder of driver/apps/fwd.h
 * (no interrupts).  fwd.cards = 1: both functions of one dual-port card
 * behind one PCIe link (eth0, eth1); fwd.cards = 2: port 0 of two cards,
 * each on its own link (eth0, eth2). */
#include "app_fwd.h"
#include "../../driver/port/port_ixgbe.h"
#include <string.h>

struct fwd_app {
    struct fwd fwd;
    struct fwd_port_report rep[FWD_PORTS];   /* kept when the instance goes down */
    int up;
};

/* The two ports: eth0 and eth1 on one card, eth0 and eth2 on two. */
static int port_of(const scenario *sc, int i)
{
    return i == 0 ? 0 : scenario_uint(sc, "fwd", "cards") == 1 ? 1 : 2;
}

static int instance_of(const scenario *sc, int p, int nports)
{
    (void)nports;
    return p == port_of(sc, 0) || p == port_of(sc, 1) ? 0 : -1;
}

/* fwd.cards says how the two ports sit; system.cards must build exactly
 * those cards (an idle card would be simulated for nothing).  The message
 * names where both keys were set. */
static int check(const scenario *sc, int nports, char *err, size_t n)
{
    uint64_t cards = scenario_uint(sc, "fwd", "cards");
    if ((uint64_t)nports / 2 != cards) {
        char wf[300], ws[300];
        scenario_where(sc, "fwd", "cards", wf, sizeof wf);
        scenario_where(sc, "system", "cards", ws, sizeof ws);
        snprintf(err, n, "%s: system.cards: expected %llu for fwd.cards = %llu (%s: %s), got %d", ws,
                 (unsigned long long)cards, (unsigned long long)cards, wf,
                 cards == 1 ? "both ports on one dual-port card" : "one port on each of two cards", nports / 2);
        return -1;
    }
    return 0;
}

/* Polled: RX and TX queue 0, no interrupt; promiscuous as ixy sets it (the
 * partners' frames are not addressed to the port). */
static void want(const scenario *sc, int p, struct nic_port_want *w)
{
    (void)sc;
    (void)p;
    *w = (struct nic_port_want){ .rx = 1, .tx = 1, .promisc = 1 };
}

static int transmits(const scenario *sc, int p, int nports)
{
    return instance_of(sc, p, nports) == 0;
}

/* Both ports are offered [gen]'s traffic as it is (gen.kpps = 0: line rate). */
static int partner(const scenario *sc, int p, int nports, link_gen_cfg *cfg)
{
    (void)cfg;
    return instance_of(sc, p, nports) == 0;
}

static int up(void *st, const scenario *sc, const app_port *ports, int n, char *err, size_t errlen)
{
    struct fwd_app *a = st;
    if (n != FWD_PORTS) {
        snprintf(err, errlen, "fwd: needs %d ports, got %d", FWD_PORTS, n);
        return APP_ERR_PARAM;
    }
    struct fwd_port fp[FWD_PORTS];
    for (int i = 0; i < FWD_PORTS; i++) {
        struct ixgbe_port *x = port_ixgbe(ports[i].np);
        fp[i] = (struct fwd_port){ .pd = ports[i].pd, .rxq = &x->rxq, .txq = &x->txq };
    }
    struct fwd_opts o;
    fwd_default_opts(&o);
    o.batch = (unsigned)scenario_uint(sc, "fwd", "batch");
    if (fwd_init(&a->fwd, fp, &o) != 0) {
        snprintf(err, errlen, "fwd: bad options (fwd.batch must be 1..%u)", FWD_MAX_BATCH);
        return APP_ERR_PARAM;
    }
    a->up = 1;
    return 0;
}

static int step(void *st)
{
    return fwd_step(&((struct fwd_app *)st)->fwd) != 0;
}

/* The queues go with the ports: their counters are kept first. */
static void down(void *st)
{
    struct fwd_app *a = st;
    if (!a->up)
        return;
    for (int i = 0; i < FWD_PORTS; i++)
        fwd_report(&a->fwd, i, &a->rep[i]);
    a->up = 0;
}

void app_fwd_report_of(const void *st, int i, struct fwd_port_report *r)
{
    const struct fwd_app *a = st;
    if (a->up)
        fwd_report(&a->fwd, i, r);
    else
        *r = a->rep[i];
}

/* Port i: frames received there, sent there (the other port's), reclaimed
 * by its TX clean, and the received ones that went no further (the other
 * port's TX ring was full). */
static void port_stats(const void *st, int i, app_port_stats *s)
{
    struct fwd_port_report r;
    app_fwd_report_of(st, i, &r);
    *s = (app_port_stats){ .sent = r.app.tx, .reclaimed = r.tx_reclaimed, .received = r.app.rx,
                           .consumed = r.app.tx_full, .tx_full = r.app.tx_full,
                           .rx_polls_nonempty = r.app.rx_polls - r.app.rx_empty,
                           .rx_batch = ((const struct fwd_app *)st)->fwd.opts.batch };
}

static double per(uint64_t n, uint64_t pkts)
{
    return pkts ? (double)n / (double)pkts : 0;
}

/* Per port what came in and went out and the driver's work (RX polls, tail
 * writes, DD reads; a port's TX columns are the frames it sent), then all
 * of it per frame forwarded. */
static void summary(FILE *f, const void *st, const int *port_index, int n, double run_s)
{
    const struct fwd_app *a = st;
    fprintf(f, "\nfwd (batch %u): eth%d <-> eth%d\n", a->fwd.opts.batch, port_index[0],
            n > 1 ? port_index[1] : port_index[0]);
    fprintf(f, "%-6s %11s %11s %10s %11s %11s %10s %10s %10s %11s %11s\n", "Iface", "received", "sent",
            "ring-full", "rx-polls", "empty-polls", "tx-calls", "RDT-writes", "TDT-writes", "RX-DD-reads",
            "TX-DD-reads");
    struct fwd_port_report t = { { 0 }, 0, 0, 0, 0, 0 };
    for (int i = 0; i < n && i < FWD_PORTS; i++) {
        struct fwd_port_report r;
        app_fwd_report_of(st, i, &r);
        fprintf(f, "eth%-3d %11llu %11llu %10llu %11llu %11llu %10llu %10llu %10llu %11llu %11llu\n", port_index[i],
                (unsigned long long)r.app.rx, (unsigned long long)r.app.tx, (unsigned long long)r.app.tx_full,
                (unsigned long long)r.app.rx_polls, (unsigned long long)r.app.rx_empty,
                (unsigned long long)r.app.tx_calls, (unsigned long long)r.rdt_writes,
                (unsigned long long)r.tdt_writes, (unsigned long long)r.rx_dd_reads,
                (unsigned long long)r.tx_dd_reads);
        t.app.rx += r.app.rx;
        t.app.tx += r.app.tx;
        t.app.rx_polls += r.app.rx_polls;
        t.app.rx_empty += r.app.rx_empty;
        t.rdt_writes += r.rdt_writes;
        t.tdt_writes += r.tdt_writes;
        t.rx_dd_reads += r.rx_dd_reads;
        t.tx_dd_reads += r.tx_dd_reads;
    }
    uint64_t fw = t.app.tx;
    fprintf(f, "per frame forwarded: %.4f rx polls (%.4f empty), %.4f RDT writes, %.4f TDT writes, "
               "%.4f RX DD reads, %.4f TX DD reads\n",
            per(t.app.rx_polls, fw), per(t.app.rx_empty, fw), per(t.rdt_writes, fw), per(t.tdt_writes, fw),
            per(t.rx_dd_reads, fw), per(t.tx_dd_reads, fw));
    fprintf(f, "fwd: %llu received, %llu sent, %.0f pps sent\n", (unsigned long long)t.app.rx,
            (unsigned long long)fw, run_s > 0 ? (double)fw / run_s : 0);
}

const app app_fwd = {
    .name = "fwd",
    .section = "fwd",
    .frames = "gen",
    .core = &port_ixgbe_core,
    .receiver = 1,
    .tx_rate = 1,
    .steps_per_turn = 64,
    .instance_of = instance_of,
    .check = check,
    .want = want,
    .transmits = transmits,
    .partner = partner,
    .state_size = sizeof(struct fwd_app),
    .up = up,
    .step = step,
    .down = down,
    .port_stats = port_stats,
    .summary = summary,
};
