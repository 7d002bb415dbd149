/* nicsim-hw's report; see hw_report.h. */
#include "hw_report.h"
#include "../report/report_tables.h"
#include <stdint.h>

static double seconds(uint64_t a, uint64_t b)
{
    return b > a ? (double)(b - a) / 1e9 : 0;
}

void hw_report_text(FILE *f, const struct hw_run *r, const char *scenario_path)
{
    int n = 0;
    for (int p = 0; p < HW_MAX_PORTS; p++)
        n += r->port[p].used;
    double run_s = seconds(r->t_start_ns, r->t_end_ns);
    fprintf(f, "nicsim-hw run: %s\n", scenario_path);
    fprintf(f, "%d x NIC on this host (%s core), app %s; ran %.3f s wall%s\n", n,
            r->pers->port->name, r->app->name, run_s,
            r->stopped ? " (interrupted)" : "");
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        const struct hw_port *hp = &r->port[p];
        if (hp->used)
            fprintf(f, "  eth%d: %04x:%04x at %s, %s, %s%s%s\n", p, hp->pd.vendor, hp->pd.device, hp->pd.bdf,
                    hw_mode_name(hp->pd.mode), hp->pd.poll ? "polling" : "interrupts",
                    hp->pd.prev_driver[0] ? ", taken from " : "", hp->pd.prev_driver);
    }

    /* a generator's rates are over its run; a receiver's (sink, router:
     * its TX is what it forwards) over the span from the first to the last
     * poll that received, not over the drain wait at the end */
    double tx_s = run_s;
    if (r->app->receiver) {
        uint64_t first = UINT64_MAX, last = 0;
        for (int p = 0; p < HW_MAX_PORTS; p++)
            if (r->port[p].used && r->port[p].rx_last_ns) {
                first = r->port[p].rx_first_ns < first ? r->port[p].rx_first_ns : first;
                last = r->port[p].rx_last_ns > last ? r->port[p].rx_last_ns : last;
            }
        tx_s = last ? seconds(first, last) : 0;
    }
    report_rates_header(f);
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        const struct hw_port *hp = &r->port[p];
        if (!hp->used)
            continue;
        const struct nic_port_counters *c = &hp->cnt;
        double rx_s = seconds(hp->rx_first_ns, hp->rx_last_ns);
        report_rates_row(f, p, c->gptc, tx_s > 0 ? (double)c->gptc / tx_s : 0,
                         tx_s > 0 ? (double)c->gotc * 8 / tx_s / 1e6 : 0, c->gprc,
                         rx_s > 0 ? (double)c->gprc / rx_s : 0);
    }

    report_kernel_iface_header(f);
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        const struct nic_port_counters *c = &r->port[p].cnt;
        if (r->port[p].used)
            report_kernel_iface_row(f, p, c->gprc, c->crcerrs + c->ruc + c->roc, c->mpc, c->gptc);
    }

    fprintf(f, "\nInterrupts\n%-6s %12s %12s\n", "Iface", "CPU-handled", "timeouts");
    for (int p = 0; p < HW_MAX_PORTS; p++)
        if (r->port[p].used)
            fprintf(f, "eth%-3d %12llu %12llu\n", p, (unsigned long long)r->port[p].pd.irqs,
                    (unsigned long long)r->port[p].pd.irq_timeouts);

    if (r->summary)
        fputs(r->summary, f);
}
