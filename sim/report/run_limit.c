/* What limited a run; see run_limit.h. */
#include "run_limit.h"
#include "report_tables.h"
#include <string.h>

#define SATURATED 0.95          /* a wire or bus this busy sets the rate */
#define CPU_SATURATED 0.90      /* a CPU this busy has no time to spare */
#define POLL_BACKLOG 0.90       /* a CPU that cannot keep up finds its rings backlogged:
                                   whole batches on (almost) every poll */
#define LOSS_MIN 0.005          /* input lost beyond measurement noise */

static const char *const names[] = {
    [LIMIT_WIRE] = "wire", [LIMIT_BUS] = "bus", [LIMIT_CPU] = "cpu", [LIMIT_RX_RING] = "rx-ring", [LIMIT_NIC] = "nic",
    [LIMIT_OFFERED] = "offered", [LIMIT_TX_RING] = "tx-ring", [LIMIT_NONE] = "none",
};

const char *run_limit_name(run_limit_kind k)
{
    return names[k];
}

/* CPU i's busy share after its app was up, and its two largest categories. */
static double cpu_share(const sim_cpu *sc, int top[2], double top_share[2])
{
    top[0] = top[1] = -1;
    top_share[0] = top_share[1] = 0;
    ps_t span = sc->up && sc->c.t > sc->at_up.t ? sc->c.t - sc->at_up.t : 0;
    if (!span)
        return 0;
    ps_t busy = 0;
    for (int k = 0; k < CPU_CATS; k++) {
        if (k == CPU_CAT_IDLE)
            continue;
        ps_t d = sc->c.cat_ps[k] - sc->at_up.cat_ps[k];
        busy += d;
        double s = (double)d / (double)span;
        if (s > top_share[0]) {
            top[1] = top[0];
            top_share[1] = top_share[0];
            top[0] = k;
            top_share[0] = s;
        } else if (s > top_share[1]) {
            top[1] = k;
            top_share[1] = s;
        }
    }
    return (double)busy / (double)span;
}

/* The end of the run's steady part: the last frame on a wire or from a
 * link partner (the end of the run when there was none). */
static ps_t traffic_end(const nicsim_system *sys)
{
    ps_t end = 0;
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        if (sp->wire.frames && sp->wire.last_end > end)
            end = sp->wire.last_end;
        if (sp->gen && sp->gen_last > end)
            end = sp->gen_last;
    }
    return end > sys->traffic_t ? end : sys->end_time;
}

static void busiest_bus(const nicsim_system *sys, run_limit *l)
{
    ps_t end = traffic_end(sys);
    if (end <= sys->traffic_t)
        return;
    for (int i = 0; i < sys->ncards; i++) {
        ps_t busy[2];
        system_bus_busy(sys, i, busy);
        for (int d = 0; d < 2; d++) {
            double s = (double)(busy[d] - sys->bus_busy_at_traffic[i][d]) / (double)(end - sys->traffic_t);
            if (s > l->bus_busy) {
                l->bus_busy = s;
                l->bus_card = i;
                l->bus_dir = d;
                l->bus_pcie = sys->card[i].pcie != NULL;
            }
        }
    }
}

static void busiest_wire(const nicsim_system *sys, run_limit *l)
{
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        double b = link_wire_busy(&sp->wire);
        if (sp->wire.frames && (l->wire_port < 0 || b > l->wire_busy)) {
            l->wire_port = p;
            l->wire_busy = b;
        }
    }
    if (l->wire_port < 0)
        return;
    const sim_port *sp = &sys->port[l->wire_port];
    const nic_adapter_stats *st = &sp->card->nic.st;
    uint64_t n = st->txd_fetches[sp->func];
    if (n) {
        l->txd_fetch_ns = (double)st->txd_fetch_ps[sp->func] / 1e3 / (double)n;
        l->txd_every_ns = (double)link_wire_span_ps(&sp->wire) / 1e3 / (double)n;
    }
}

static void name_bus(const run_limit *l, char *out, size_t n)
{
    if (l->bus_pcie)
        snprintf(out, n, "PCIe of card %d %s", l->bus_card, l->bus_dir ? "downstream" : "upstream");
    else
        snprintf(out, n, "PCI-X bus of card %d", l->bus_card);
}

/* The [cpu] defaults that are fitted, not estimated: cost_stack_rx and
 * cost_ip_forward, fitted to seed 000's first router row on the default CPU
 * (1.6 GHz Opteron; docs/validation.md, "Parameters the fit uses").  A
 * scenario that leaves one at its default on that CPU charges a fitted
 * cost, whether or not it names a cpu.calibration. */
static const char *const fitted_defaults[] = { "stack_rx", "ip_forward" };

static int fitted_default(const scenario *sc, const char *name)
{
    char key[48];
    snprintf(key, sizeof key, "cost_%s", name);
    for (size_t i = 0; i < sizeof fitted_defaults / sizeof fitted_defaults[0]; i++)
        if (!strcmp(name, fitted_defaults[i]))
            return !scenario_is_set(sc, "cpu", key) && scenario_holds(sc, "cpu", "mhz", "1600") &&
                   scenario_holds(sc, "cpu", "cache", "opteron-1.6ghz");
    return 0;
}

/* A CPU limit's trust: the profile's calibration, and when it has none the
 * named costs the limiting CPU charged over its traffic window, the
 * RUN_LIMIT_EST largest, largest first (the fitted defaults it charged
 * named apart). */
static void estimated_costs(const nicsim_system *sys, run_limit *l)
{
    l->calibration = sys->cpu_calibration ? sys->cpu_calibration : "none";
    l->nest = 0;
    if (strcmp(l->calibration, "none") || l->cpu < 0)
        return;
    const sim_cpu *sc = &sys->cpu[l->cpu];
    cpu_window w;
    system_cpu_window(sys, sc, &w);
    double cyc[CPU_MAX_NAMED];
    l->fitted[0] = '\0';
    for (int k = 0; k < sc->c.prof.n_named; k++) {
        cyc[k] = cpu_window_cycles(sc, &w, w.b.named_ps[k] - w.a.named_ps[k]);
        if (cyc[k] > 0 && sys->sc && fitted_default(sys->sc, sc->c.prof.named[k].name)) {
            size_t used = strlen(l->fitted);
            snprintf(l->fitted + used, sizeof l->fitted - used, "%s%s", used ? ", " : "", sc->c.prof.named[k].name);
            cyc[k] = 0;
        }
    }
    while (l->nest < RUN_LIMIT_EST) {
        int top = -1;
        for (int k = 0; k < sc->c.prof.n_named; k++)
            if (cyc[k] > 0 && (top < 0 || cyc[k] > cyc[top]))
                top = k;
        if (top < 0)
            break;
        l->est_cycles[l->nest] = cyc[top];
        snprintf(l->est_name[l->nest++], sizeof l->est_name[0], "%s", sc->c.prof.named[top].name);
        cyc[top] = 0;
    }
}

void run_limit_of(const nicsim_system *sys, run_limit *l)
{
    memset(l, 0, sizeof *l);
    l->cpu = -1;
    l->wire_port = -1;
    l->bus_card = -1;
    l->cpu_top[0] = l->cpu_top[1] = -1;
    for (int i = 0; i < sys->ncpus; i++) {
        int top[2];
        double share[2];
        double b = cpu_share(&sys->cpu[i], top, share);
        if (l->cpu < 0 || b > l->cpu_busy) {
            l->cpu = i;
            l->cpu_busy = b;
            memcpy(l->cpu_top, top, sizeof top);
            memcpy(l->cpu_top_share, share, sizeof share);
        }
    }
    busiest_wire(sys, l);
    busiest_bus(sys, l);
    double polled = 0, poll_room = 0;
    uint64_t most_full = 0;
    l->reclaim_port = -1;
    ps_t end = traffic_end(sys);
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        if (sp->app.rx_batch && sp->app.rx_polls_nonempty) {
            polled += (double)sp->app.received;
            poll_room += (double)sp->app.rx_polls_nonempty * sp->app.rx_batch;
        }
        if (sp->gen) {
            uint64_t off = link_gen_frames(sp->gen);
            l->offered += off;
            l->lost += off > sp->cnt.gprc ? off - sp->cnt.gprc : 0;
        }
        l->tx_full += sp->app.tx_full;
        uint64_t full = sp->app.tx_full + sp->app.stopped_waits;
        if (sp->app.generator && full > most_full && sp->wire.frames && sp->app.reclaim_rounds &&
            end > sys->traffic_t) {
            most_full = full;
            l->reclaim_port = p;
            l->ring = sp->app.tx_ring;
            /* a frame's bits, preamble and gap back to back, as many as the ring holds */
            l->ring_wire_us = (double)sp->wire.wire_bytes / (double)sp->wire.frames * (double)sp->wire.byte_ps / 1e6 *
                              sp->app.tx_ring;
            l->reclaim_rounds = sp->app.reclaim_rounds;
            l->reclaim_every_us = (double)(end - sys->traffic_t) / 1e6 / (double)sp->app.reclaim_rounds;
        }
        l->tx_stopped += sp->app.stopped_waits;
        if (end > sys->traffic_t) {
            double st = (double)sp->app.stopped_ns * 1e3 / (double)(end - sys->traffic_t);
            if (st > l->tx_stopped_share)
                l->tx_stopped_share = st;
        }
    }
    l->poll_fill = poll_room > 0 ? polled / poll_room : -1;
    int lossy = l->offered && (double)l->lost >= LOSS_MIN * (double)l->offered;
    if (l->wire_port >= 0 && l->wire_busy >= SATURATED) {
        l->kind = LIMIT_WIRE;
        snprintf(l->what, sizeof l->what, "%s TX wire", report_ifname(l->wire_port));
    } else if (l->bus_card >= 0 && l->bus_busy >= SATURATED) {
        l->kind = LIMIT_BUS;
        name_bus(l, l->what, sizeof l->what);
    } else if (lossy && l->cpu_busy >= CPU_SATURATED && l->poll_fill >= 0 && l->poll_fill < POLL_BACKLOG) {
        l->kind = LIMIT_NIC;
        snprintf(l->what, sizeof l->what, "the NICs' DMA: no RX backlog");
    } else if (lossy && l->cpu_busy >= CPU_SATURATED) {
        l->kind = LIMIT_CPU;
        snprintf(l->what, sizeof l->what, "CPU%d", l->cpu);
    } else if (lossy) {
        l->kind = LIMIT_RX_RING;
        snprintf(l->what, sizeof l->what, "RX descriptors");
    } else if (l->offered) {
        l->kind = LIMIT_OFFERED;
        snprintf(l->what, sizeof l->what, "the link partners' rate");
    } else if (l->tx_full || l->tx_stopped) {
        /* a sender that waits for descriptors the NIC has sent but the
         * driver has not yet reclaimed (pktgen's retries on a stopped queue
         * while the NAPI poll is not due) is held by its TX ring */
        l->kind = LIMIT_TX_RING;
        snprintf(l->what, sizeof l->what, "TX descriptors");
    } else if (l->cpu >= 0 && l->cpu_busy >= CPU_SATURATED) {
        l->kind = LIMIT_CPU;
        snprintf(l->what, sizeof l->what, "CPU%d", l->cpu);
    } else {
        l->kind = LIMIT_NONE;
        snprintf(l->what, sizeof l->what, "nothing saturated");
    }
    if (l->kind == LIMIT_CPU)
        estimated_costs(sys, l);
    l->nrows = sys->sc ? not_reproduced_rows(sys->sc, l->rows, RUN_LIMIT_ROWS) : 0;
    if (l->nrows > RUN_LIMIT_ROWS)
        l->nrows = RUN_LIMIT_ROWS;
}

void run_limit_print(FILE *f, const run_limit *l)
{
    fprintf(f, "\nLimit: %s (%s)\n", run_limit_name(l->kind), l->what);
    if (l->cpu >= 0) {
        fprintf(f, "  %-9s CPU%d %.1f%% busy after bring-up", "cpu", l->cpu, 100 * l->cpu_busy);
        for (int k = 0; k < 2 && l->cpu_top[k] >= 0; k++)
            fprintf(f, "%s %s %.1f%%", k ? "," : ":", cpu_cat_name((cpu_cat)l->cpu_top[k]), 100 * l->cpu_top_share[k]);
        fprintf(f, "\n");
    }
    if (l->wire_port >= 0)
        fprintf(f, "  %-9s %s TX %.1f%% busy (the busiest)\n", "wire", report_ifname(l->wire_port), 100 * l->wire_busy);
    if (l->bus_card >= 0) {
        char b[64];
        name_bus(l, b, sizeof b);
        fprintf(f, "  %-9s %s %.1f%% busy (the busiest)\n", "bus", b, 100 * l->bus_busy);
    }
    if (l->offered)
        fprintf(f, "  %-9s %llu of %llu offered frames not received (%.1f%%)\n", "input", (unsigned long long)l->lost,
                (unsigned long long)l->offered, 100.0 * (double)l->lost / (double)l->offered);
    if (l->poll_fill >= 0)
        fprintf(f, "  %-9s the polls that returned frames returned %.1f%% of a batch on average\n", "rx polls",
                100 * l->poll_fill);
    fprintf(f, "  %-9s %llu transmit attempts found the TX ring full\n", "tx ring", (unsigned long long)l->tx_full);
    if (l->reclaim_port >= 0)
        fprintf(f, "  %-9s %s: its %u descriptors last %.1f us on the wire; reclaimed every %.1f us on average "
                "(%llu times)\n", "reclaim", report_ifname(l->reclaim_port), l->ring, l->ring_wire_us,
                l->reclaim_every_us, (unsigned long long)l->reclaim_rounds);
    if (l->tx_stopped)
        fprintf(f, "  %-9s queue found stopped %llu times, stopped %.1f%% of the traffic time\n", "tx queue",
                (unsigned long long)l->tx_stopped, 100 * l->tx_stopped_share);
    if (l->txd_every_ns > 0)
        fprintf(f, "  %-9s %s: a descriptor fetch every %.0f ns, %.0f ns each\n", "txd fetch",
                report_ifname(l->wire_port), l->txd_every_ns, l->txd_fetch_ns);
    if (l->kind == LIMIT_CPU && l->calibration) {
        if (strcmp(l->calibration, "none")) {
            fprintf(f, "  %-9s the CPU profile is calibrated: %s\n", "trust", l->calibration);
        } else {
            fprintf(f, "  %-9s the scenario names no calibration (cpu.calibration = none): the rate rests on "
                    "estimated costs", "trust");
            for (int e = 0; e < l->nest; e++)
                fprintf(f, "%s %s %.1f", e ? "," : ":", l->est_name[e], l->est_cycles[e]);
            fprintf(f, "%s", l->nest ? " cycles a packet" : "");
            if (l->fitted[0])
                fprintf(f, "; %s: the defaults fitted to seed 000's first router row", l->fitted);
            fprintf(f, "\n");
        }
    }
    for (int r = 0; r < l->nrows; r++)
        fprintf(f, "  %-9s the reference tables show the model does not reproduce this configuration:\n"
                "  %-9s %s row %s, %s (OUT in nicsim validate;\n  %-9s %s)\n", "trust", "",
                l->rows[r]->table, l->rows[r]->row, l->rows[r]->metric, "", l->rows[r]->why);
}

cJSON *run_limit_json(const run_limit *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "resource", run_limit_name(l->kind));
    cJSON_AddStringToObject(o, "what", l->what);
    cJSON *c = cJSON_AddObjectToObject(o, "cpu");
    cJSON_AddNumberToObject(c, "id", l->cpu);
    cJSON_AddNumberToObject(c, "busy", l->cpu_busy);
    cJSON *top = cJSON_AddArrayToObject(c, "top");
    for (int k = 0; k < 2 && l->cpu_top[k] >= 0; k++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "category", cpu_cat_name((cpu_cat)l->cpu_top[k]));
        cJSON_AddNumberToObject(t, "share", l->cpu_top_share[k]);
        cJSON_AddItemToArray(top, t);
    }
    cJSON *w = cJSON_AddObjectToObject(o, "wire");
    cJSON_AddStringToObject(w, "port", l->wire_port >= 0 ? report_ifname(l->wire_port) : "");
    cJSON_AddNumberToObject(w, "busy", l->wire_busy);
    cJSON *b = cJSON_AddObjectToObject(o, "bus");
    char bn[64] = "";
    if (l->bus_card >= 0)
        name_bus(l, bn, sizeof bn);
    cJSON_AddStringToObject(b, "name", bn);
    cJSON_AddNumberToObject(b, "busy", l->bus_busy);
    cJSON_AddNumberToObject(o, "offered", (double)l->offered);
    cJSON_AddNumberToObject(o, "lost", (double)l->lost);
    cJSON_AddNumberToObject(o, "tx_full", (double)l->tx_full);
    if (l->poll_fill >= 0)
        cJSON_AddNumberToObject(o, "rx_poll_fill", l->poll_fill);
    cJSON_AddNumberToObject(o, "tx_stopped", (double)l->tx_stopped);
    cJSON_AddNumberToObject(o, "tx_stopped_share", l->tx_stopped_share);
    if (l->reclaim_port >= 0) {
        cJSON *rc = cJSON_AddObjectToObject(o, "tx_reclaim");
        cJSON_AddStringToObject(rc, "port", report_ifname(l->reclaim_port));
        cJSON_AddNumberToObject(rc, "ring", l->ring);
        cJSON_AddNumberToObject(rc, "ring_wire_us", l->ring_wire_us);
        cJSON_AddNumberToObject(rc, "every_us", l->reclaim_every_us);
        cJSON_AddNumberToObject(rc, "times", (double)l->reclaim_rounds);
    }
    cJSON *t = cJSON_AddObjectToObject(o, "txd_fetch");
    cJSON_AddNumberToObject(t, "every_ns", l->txd_every_ns);
    cJSON_AddNumberToObject(t, "fetch_ns", l->txd_fetch_ns);
    int cpu_trust = l->kind == LIMIT_CPU && l->calibration;
    if (cpu_trust || l->nrows) {
        cJSON *tr = cJSON_AddObjectToObject(o, "trust");
        if (cpu_trust) {
            cJSON_AddStringToObject(tr, "calibration", l->calibration);
            cJSON *est = cJSON_AddObjectToObject(tr, "estimated_costs");
            for (int e = 0; e < l->nest; e++)
                cJSON_AddNumberToObject(est, l->est_name[e], l->est_cycles[e]);
            cJSON_AddStringToObject(tr, "fitted_defaults", l->fitted);
        }
        if (l->nrows) {
            cJSON *nr = cJSON_AddArrayToObject(tr, "not_reproduced");
            for (int r = 0; r < l->nrows; r++) {
                cJSON *x = cJSON_CreateObject();
                cJSON_AddStringToObject(x, "table", l->rows[r]->table);
                cJSON_AddStringToObject(x, "row", l->rows[r]->row);
                cJSON_AddStringToObject(x, "metric", l->rows[r]->metric);
                cJSON_AddStringToObject(x, "why", l->rows[r]->why);
                cJSON_AddItemToArray(nr, x);
            }
        }
    }
    return o;
}
