#include "../device/nic_reg_names.h"
#include "report.h"
#include "run_limit.h"
#include "../../models/out_file.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static double sim_seconds(const nicsim_system *sys)
{
    return (double)sys->end_time / 1e12;
}

/* Cycles per counted packet that d picoseconds of this CPU's time amount to. */
static double per_packet(const cpu *c, ps_t d)
{
    return (double)d * (c->prof.mhz / 1e6) / (double)(c->packets ? c->packets : 1);
}

/* Frames the NIC received (GPRC) per second of the link partner's sending
 * time (or of the run when it did not send). */
static double port_rx_pps(const nicsim_system *sys, const sim_port *sp)
{
    if (!sp->gen || !sp->cnt.gprc)
        return 0;
    ps_t span = sp->gen_last > sp->gen_first ? sp->gen_last - sp->gen_first : sys->end_time;
    return (double)sp->cnt.gprc * 1e12 / (double)span;
}

static double port_mbps(const sim_port *sp)
{
    /* frame bits incl. FCS over the time the frames occupied the wire */
    if (!sp->wire.frames)
        return 0;
    return link_wire_pps(&sp->wire) * ((double)sp->wire.frame_bytes / (double)sp->wire.frames) * 8 / 1e6;
}

/* The frames a port's RX queue (if it has one) dropped, by reason. */
static struct nic_port_rx_drops rx_drops_of(const sim_port *sp)
{
    struct nic_port_rx_drops d = { 0, 0, 0 };
    if (sp->np.state)
        sp->np.core->rx_drops(&sp->np, &d);
    return d;
}

/* Tail writes of the port's TX queue as the JSON reports them. */
static uint64_t port_tdt_writes(const sim_port *sp)
{
    return sp->np.state && sp->np.core->tdt_writes ? sp->np.core->tdt_writes(&sp->np) : 0;
}

/* A port's TX descriptor fetches: count, descriptors per fetch, mean time
 * from request to last descriptor, mean time between fetches (over the
 * time its frames occupied the wire). */
typedef struct txd_view {
    uint64_t fetches;
    double per_fetch, fetch_ns, every_ns;
} txd_view;

static txd_view txd_of(const sim_port *sp)
{
    const nic_adapter_stats *st = &sp->card->nic.st;
    txd_view v = { st->txd_fetches[sp->func], 0, 0, 0 };
    if (v.fetches) {
        v.per_fetch = (double)st->txd_descs[sp->func] / (double)v.fetches;
        v.fetch_ns = (double)st->txd_fetch_ps[sp->func] / 1e3 / (double)v.fetches;
        v.every_ns = (double)link_wire_span_ps(&sp->wire) / 1e3 / (double)v.fetches;
    }
    return v;
}

/* Does port p count in the run's transmit rate (app->tx_rate: pktgen's
 * ports, the l3fwd forwarder's; the router's rates are its own tables)? */
static int tx_counted(const sim_port *sp)
{
    return sp->tx_counted;
}

int report_tx_ports(const nicsim_system *sys)
{
    int n = 0;
    for (int p = 0; p < sys->nports; p++)
        n += tx_counted(&sys->port[p]);
    return n;
}

double report_tx_pps(const nicsim_system *sys)
{
    double s = 0;
    for (int p = 0; p < sys->nports; p++)
        if (tx_counted(&sys->port[p]))
            s += link_wire_pps(&sys->port[p].wire);
    return s;
}

double report_tx_mbps(const nicsim_system *sys)
{
    double s = 0;
    for (int p = 0; p < sys->nports; p++)
        if (tx_counted(&sys->port[p]))
            s += port_mbps(&sys->port[p]);
    return s;
}

void report_rx_counters_json(cJSON *o, const sim_port *sp)
{
    cJSON_AddNumberToObject(o, "rx_missed", (double)sp->cnt.mpc);
    cJSON_AddNumberToObject(o, "rx_no_buffers", (double)sp->cnt.rnbc);
    cJSON_AddNumberToObject(o, "rx_errors", (double)(sp->cnt.crcerrs + sp->cnt.ruc + sp->cnt.roc));
}

void report_tx_counters_json(cJSON *o, const sim_port *sp)
{
    cJSON_AddNumberToObject(o, "gptc", (double)sp->cnt.gptc);
    cJSON_AddNumberToObject(o, "gotc", (double)sp->cnt.gotc);
    cJSON_AddNumberToObject(o, "tpt", (double)sp->cnt.tpt);
    cJSON_AddNumberToObject(o, "pktgen_sent", (double)sp->app.sent);
    cJSON_AddNumberToObject(o, "pktgen_reclaimed", (double)sp->app.reclaimed);
    cJSON_AddNumberToObject(o, "sink_packets", (double)sp->app.consumed);
}

uint64_t report_tx_packets(const nicsim_system *sys)
{
    uint64_t n = 0;
    for (int p = 0; p < sys->nports; p++)
        n += sys->port[p].wire.frames;
    return n;
}

/* Share of the run's time card i's PCIe link spent in direction d (on kind
 * k; k < 0: everything). */
static double pcie_util(const nicsim_system *sys, int i, int d, int k)
{
    const pcie_stats *st = pcie_get_stats(sys->card[i].pcie);
    if (!sys->end_time)
        return 0;
    ps_t b = k < 0 ? st->dir_busy[d] : st->busy[d][k];
    return (double)b / (double)sys->end_time;
}

static void pcie_report_text(FILE *f, const nicsim_system *sys, int i)
{
    const sim_card *c = &sys->card[i];
    const pcie_stats *st = pcie_get_stats(c->pcie);
    fprintf(f, "\nPCIe link of card %d (%s, Gen%u x%u, MPS %u, MRRS %u): upstream %.1f%% busy, "
            "downstream %.1f%% busy\n", i, i ? "eth2/eth3" : "eth0/eth1", c->pcie_p.gen, c->pcie_p.lanes,
            c->pcie_p.mps, c->pcie_p.mrrs, 100 * pcie_util(sys, i, PCIE_UP, -1),
            100 * pcie_util(sys, i, PCIE_DOWN, -1));
    fprintf(f, "  %-10s %12s %12s %14s %14s\n", "packet", "count up", "count down", "wire bytes up",
            "wire bytes down");
    for (int k = 0; k < PCIE_KINDS; k++)
        fprintf(f, "  %-10s %12llu %12llu %14llu %14llu\n", pcie_kind_name(k),
                (unsigned long long)st->count[PCIE_UP][k], (unsigned long long)st->count[PCIE_DOWN][k],
                (unsigned long long)st->wire_bytes[PCIE_UP][k], (unsigned long long)st->wire_bytes[PCIE_DOWN][k]);
}

static cJSON *pcie_report_json(const nicsim_system *sys, int i)
{
    const sim_card *c = &sys->card[i];
    const pcie_stats *st = pcie_get_stats(c->pcie);
    cJSON *bus = cJSON_CreateObject();
    cJSON_AddStringToObject(bus, "type", "pcie");
    cJSON_AddNumberToObject(bus, "card", i);
    cJSON_AddNumberToObject(bus, "gen", c->pcie_p.gen);
    cJSON_AddNumberToObject(bus, "lanes", c->pcie_p.lanes);
    cJSON_AddNumberToObject(bus, "mps", c->pcie_p.mps);
    cJSON_AddNumberToObject(bus, "mrrs", c->pcie_p.mrrs);
    cJSON_AddNumberToObject(bus, "utilization_up", pcie_util(sys, i, PCIE_UP, -1));
    cJSON_AddNumberToObject(bus, "utilization_down", pcie_util(sys, i, PCIE_DOWN, -1));
    cJSON_AddNumberToObject(bus, "tag_waits", (double)st->tag_waits);
    cJSON *kinds = cJSON_AddObjectToObject(bus, "packets");
    for (int k = 0; k < PCIE_KINDS; k++) {
        cJSON *o = cJSON_AddObjectToObject(kinds, pcie_kind_name(k));
        cJSON_AddNumberToObject(o, "count_up", (double)st->count[PCIE_UP][k]);
        cJSON_AddNumberToObject(o, "count_down", (double)st->count[PCIE_DOWN][k]);
        cJSON_AddNumberToObject(o, "wire_bytes_up", (double)st->wire_bytes[PCIE_UP][k]);
        cJSON_AddNumberToObject(o, "wire_bytes_down", (double)st->wire_bytes[PCIE_DOWN][k]);
        cJSON_AddNumberToObject(o, "payload_up", (double)st->payload[PCIE_UP][k]);
        cJSON_AddNumberToObject(o, "payload_down", (double)st->payload[PCIE_DOWN][k]);
    }
    return bus;
}

/* Share of the run's time card i's bus spent on kind k (k < 0: all kinds). */
static double pcix_util(const nicsim_system *sys, int i, int k)
{
    const pcix_stats *st = pcix_get_stats(sys->card[i].bus);
    if (!sys->end_time)
        return 0;
    if (k < 0) {
        ps_t b = 0;
        for (int i = 0; i < PCIX_KINDS; i++)
            b += st->busy[i];
        return (double)b / (double)sys->end_time;
    }
    return (double)st->busy[k] / (double)sys->end_time;
}

static void pcix_report_text(FILE *f, const nicsim_system *sys, int i)
{
    const pcix_stats *st = pcix_get_stats(sys->card[i].bus);
    fprintf(f, "\nPCI-X bus of card %d (%s, %g MHz): %.1f%% busy\n", i, i ? "eth2/eth3" : "eth0/eth1",
            pcix_mhz(sys->card[i].bus), 100 * pcix_util(sys, i, -1));
    fprintf(f, "  %-14s %10s %8s %12s\n", "transaction", "count", "busy", "bytes");
    for (int k = 0; k < PCIX_KINDS; k++)
        fprintf(f, "  %-14s %10llu %7.1f%% %12llu\n", pcix_kind_name(k),
                (unsigned long long)st->count[k], 100 * pcix_util(sys, i, k),
                (unsigned long long)st->bytes[k]);
}

static cJSON *pcix_report_json(const nicsim_system *sys, int i)
{
    const pcix_stats *st = pcix_get_stats(sys->card[i].bus);
    cJSON *bus = cJSON_CreateObject();
    cJSON_AddStringToObject(bus, "type", "pcix");
    cJSON_AddNumberToObject(bus, "card", i);
    cJSON_AddNumberToObject(bus, "mhz", pcix_mhz(sys->card[i].bus));
    cJSON_AddNumberToObject(bus, "utilization", pcix_util(sys, i, -1));
    cJSON *kinds = cJSON_AddObjectToObject(bus, "transactions");
    for (int k = 0; k < PCIX_KINDS; k++) {
        cJSON *o = cJSON_AddObjectToObject(kinds, pcix_kind_name(k));
        cJSON_AddNumberToObject(o, "count", (double)st->count[k]);
        cJSON_AddNumberToObject(o, "busy_ps", (double)st->busy[k]);
        cJSON_AddNumberToObject(o, "utilization", pcix_util(sys, i, k));
        cJSON_AddNumberToObject(o, "bytes", (double)st->bytes[k]);
    }
    return bus;
}

/* ---- the text report, a section per step: report_print ---- */

/* What ran and for how long; an incomplete run says why before any number. */
static void print_header(FILE *f, const nicsim_system *sys, const char *scenario_path)
{
    const scenario *sc = sys->sc;
    double secs = sim_seconds(sys);
    fprintf(f, "nicsim run: %s\n", scenario_path);
    fprintf(f, "%d x NIC %s, link %g Gb/s; simulated %.3f ms in %.2f s wall\n", sys->ncards, sys->pers->title,
            scenario_double(sc, "link", "gbps"), secs * 1e3, sys->wall_seconds);
    char why[256];
    if (!system_complete(sys, why, sizeof why))
        fprintf(f, "warning: incomplete run: %s\n", why);
}

/* Per-interface TX/RX kpps and Mbit/s, the seeds' first table. */
static void print_rates(FILE *f, const nicsim_system *sys)
{
    report_rates_header(f);
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        report_rates_row(f, p, sp->wire.frames, link_wire_pps(&sp->wire), port_mbps(sp), sp->cnt.gprc,
                         port_rx_pps(sys, sp));
    }
}

/* What the link partners offered (frames over the span of their arrivals,
 * the span RX-kpps uses) and where each capture went: a line each, only
 * when there is any. */
static void print_offered_and_captures(FILE *f, const nicsim_system *sys)
{
    const char *sep = "";
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        if (!sp->gen)
            continue;
        uint64_t n = link_gen_frames(sp->gen);
        ps_t span = sp->gen_last > sp->gen_first ? sp->gen_last - sp->gen_first : sys->end_time;
        fprintf(f, "%s%s %.3f kpps (%llu frames)", *sep ? sep : "Offered by the link partners: ", report_ifname(p),
                span ? (double)n * 1e9 / (double)span : 0.0, (unsigned long long)n);
        sep = ", ";
    }
    if (*sep)
        fputc('\n', f);
    sep = "";
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        if (!sp->pcap_path[0])
            continue;
        fprintf(f, "%s%s -> %s (%llu frames)", *sep ? sep : "Captured: ", report_ifname(p), sp->pcap_path,
                (unsigned long long)sp->wire.frames);
        sep = ", ";
    }
    if (*sep)
        fputc('\n', f);
}

/* The `netstat -i` Kernel Interface table, from the NIC's counters. */
static void print_kernel_iface(FILE *f, const nicsim_system *sys)
{
    report_kernel_iface_header(f);
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        report_kernel_iface_row(f, p, sp->cnt.gprc, sp->cnt.crcerrs + sp->cnt.ruc + sp->cnt.roc, sp->cnt.mpc,
                                sp->cnt.gptc);
    }
}

/* Interrupts per interface: what the NIC asserted beside what the CPU handled. */
static void print_interrupts(FILE *f, const nicsim_system *sys)
{
    fprintf(f, "\nInterrupts\n%-6s %12s %12s\n", "Iface", "NIC-asserts", "CPU-handled");
    for (int p = 0; p < sys->nports; p++)
        fprintf(f, "%-6s %12llu %12llu\n", report_ifname(p),
                (unsigned long long)sys->port[p].card->nic.st.irq_asserts[sys->port[p].func],
                (unsigned long long)sys->port[p].app.irqs);
}

/* A pktgen queue under its driver's NAPI vector (driver.tx_clean = napi):
 * interrupts, polls, queue stops and wakes, the ITR and tail writes per
 * packet (only the ports that have one; nothing when none does). */
static void print_napi(FILE *f, const nicsim_system *sys)
{
    int any = 0;
    for (int p = 0; p < sys->nports; p++)
        any |= sys->port[p].app.napi;
    if (!any)
        return;
    fprintf(f, "\nNAPI and queue stops (ITR in Linux's units: us x 4)\n"
               "%-6s %9s %9s %9s %8s %9s %9s %9s %12s %6s %18s %8s\n", "Iface", "irqs", "polls", "full-poll",
            "max-run", "q-stops", "q-wakes", "tx-busy", "stopped-ms", "WTHR", "ITR first/min/max", "TDT/pkt");
    for (int p = 0; p < sys->nports; p++) {
        const app_port_stats *a = &sys->port[p].app;
        if (!a->napi)
            continue;
        const struct nic_txq_napi_stats *n = &a->napi_stats;
        char itr[40];
        snprintf(itr, sizeof itr, "%u/%u/%u", n->itr_first, n->itr_min, n->itr_max);
        fprintf(f, "%-6s %9llu %9llu %9llu %8llu %9llu %9llu %9llu %12.3f %6u %18s %8.4f\n", report_ifname(p),
                (unsigned long long)n->irqs, (unsigned long long)n->polls, (unsigned long long)n->full_polls,
                (unsigned long long)n->max_run, (unsigned long long)n->stops, (unsigned long long)n->wakes,
                (unsigned long long)n->busy, (double)a->stopped_ns / 1e6, n->wthresh, itr,
                a->sent ? (double)a->tdt_writes / (double)a->sent : 0.0);
    }
}

/* Why a queue reaches line rate or not: how its descriptors come in (only
 * the ports that sent and fetched; nothing when none did). */
static void print_txd_fetches(FILE *f, const nicsim_system *sys)
{
    int any_txd = 0;
    for (int p = 0; p < sys->nports; p++)
        any_txd |= sys->port[p].wire.frames && txd_of(&sys->port[p]).fetches;
    if (!any_txd)
        return;
    fprintf(f, "\nTX descriptor fetches (fetch: request to last descriptor; every: wire time / fetches)\n"
               "%-6s %10s %11s %10s %10s %11s\n", "Iface", "fetches", "descs/fetch", "fetch-ns",
            "every-ns", "wire-busy%");
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        txd_view v = txd_of(sp);
        if (sp->wire.frames && v.fetches)
            fprintf(f, "%-6s %10llu %11.1f %10.0f %10.0f %11.1f\n", report_ifname(p),
                    (unsigned long long)v.fetches, v.per_fetch, v.fetch_ns, v.every_ns,
                    100 * link_wire_busy(&sp->wire));
    }
}

/* Each card's bus: a PCIe link or a PCI-X segment. */
static void print_buses(FILE *f, const nicsim_system *sys)
{
    for (int i = 0; i < sys->ncards; i++) {
        if (sys->card[i].pcie)
            pcie_report_text(f, sys, i);
        else
            pcix_report_text(f, sys, i);
    }
}

/* CPU i's cycles per packet by category over its traffic window, the named
 * work items under work, then busy and idle (idle is not a category of the
 * packet's cost), then the bring-up and drain it leaves out. */
static void print_cpu_cycles(FILE *f, const nicsim_system *sys, int i)
{
    const sim_cpu *sc = &sys->cpu[i];
    const cpu *c = &sc->c;
    char ports[SYS_MAX_PORTS * 8] = "";
    for (int k = 0, l = 0; k < sc->nports && l < (int)sizeof ports; k++)
        l += snprintf(ports + l, sizeof ports - (size_t)l, "%s%s", k ? ", " : "", report_ifname(sc->ports[k]->index));
    cpu_window w;
    system_cpu_window(sys, sc, &w);
    fprintf(f, "\nCPU%d (%g MHz, %s on %s): cycles per packet over %llu packets in %.3f ms of traffic\n", c->id,
            c->prof.mhz, sys->app->name, ports, (unsigned long long)w.packets, (double)(w.b.t - w.a.t) / 1e9);
    for (int k = 0; k < CPU_CATS; k++) {
        if (k == CPU_CAT_IDLE)
            continue;
        fprintf(f, "  %-12s %10.1f\n", cpu_cat_name(k), cpu_window_cycles(sc, &w, w.b.cat_ps[k] - w.a.cat_ps[k]));
        if (k == CPU_CAT_WORK)
            for (int n = 0; n < c->prof.n_named; n++)
                if (w.b.named_ps[n] - w.a.named_ps[n])
                    fprintf(f, "    %-10s %10.1f\n", c->prof.named[n].name,
                            cpu_window_cycles(sc, &w, w.b.named_ps[n] - w.a.named_ps[n]));
    }
    fprintf(f, "  %-12s %10.1f\n", "busy", cpu_window_cycles(sc, &w, cpu_window_busy(&w)));
    fprintf(f, "  %-12s %10.1f\n", "idle",
            cpu_window_cycles(sc, &w, w.b.cat_ps[CPU_CAT_IDLE] - w.a.cat_ps[CPU_CAT_IDLE]));
    fprintf(f, "  not counted: bring-up %.3f ms, drain %.3f ms after the last packet\n", (double)w.a.t / 1e9,
            (double)w.drain / 1e9);
}

/* Card i's RTL: the cycles it evaluated, then the driver's programming
 * errors and the faults injected, each only when there were any. */
static void print_card_rtl(FILE *f, const nicsim_system *sys, int i)
{
    fprintf(f, "\nRTL of card %d: %llu cycles evaluated, %llu wake-ups, %llu master aborts\n", i,
            (unsigned long long)sys->card[i].nic.st.cycles, (unsigned long long)sys->card[i].nic.st.wakeups,
            (unsigned long long)sys->card[i].nic.st.master_aborts);
    if (sys->card[i].nic.st.wfull_cycles)
        fprintf(f, "  %llu cycles with a DMA write held back: %d writes were outstanding on the bus\n",
                (unsigned long long)sys->card[i].nic.st.wfull_cycles, NIC_WR_SLOTS);
    const nic_misuse *mu = &sys->card[i].nic.misuse;
    uint64_t nmu = 0;
    for (int k = 0; k < NIC_MISUSE_KINDS; k++)
        nmu += mu->count[k];
    if (nmu) {
        fprintf(f, "Driver programming errors seen by card %d:", i);
        for (int k = 0; k < NIC_MISUSE_KINDS; k++)
            fprintf(f, " %s %llu%s", nic_misuse_names[k], (unsigned long long)mu->count[k],
                    k + 1 < NIC_MISUSE_KINDS ? "," : "\n");
    }
    const nic_adapter *ad = &sys->card[i].nic;
    if (ad->st.unmodelled) {
        /* a driver touched what the RTL does not implement (the simulator's
         * own driver cores touch nothing of it: every line here is news) */
        fprintf(f, "Register accesses card %d does not implement: %llu (a read returned 0, a write was ignored):", i,
                (unsigned long long)ad->st.unmodelled);
        for (int k = 0; k < ad->n_unmodelled; k++) {
            char name[24];
            nic_reg_name(sys->pers->adv_descriptors, ad->unmodelled[k].off, name, sizeof name);
            fprintf(f, "%s eth%d %s %s x%llu", k ? "," : "", 2 * i + ad->unmodelled[k].func,
                    ad->unmodelled[k].write ? "write" : "read", name, (unsigned long long)ad->unmodelled[k].count);
        }
        fprintf(f, "\n");
    }
    const nic_faults *fl = &sys->card[i].nic.faults;
    if (fl->kinds)
        fprintf(f, "Faulty-device mode, card %d: RX write-backs corrupted: %llu bogus lengths, %llu DD on a "
                   "descriptor never written, %llu stale write-backs repeated\n", i,
                (unsigned long long)fl->injected[NIC_FAULT_BOGUS_LEN],
                (unsigned long long)fl->injected[NIC_FAULT_PHANTOM_DD],
                (unsigned long long)fl->injected[NIC_FAULT_STALE_STATUS]);
}

/* The frames the driver's RX path dropped, per port that dropped any. */
static void print_driver_rx_drops(FILE *f, const nicsim_system *sys)
{
    for (int p = 0; p < sys->nports; p++) {
        struct nic_port_rx_drops d = rx_drops_of(&sys->port[p]);
        if (d.length_errors + d.frame_errors + d.multi_desc)
            fprintf(f, "Driver RX drops on %s: %llu length errors, %llu frame errors, %llu spanning descriptors\n",
                    report_ifname(p), (unsigned long long)d.length_errors, (unsigned long long)d.frame_errors,
                    (unsigned long long)d.multi_desc);
    }
}

/* The app's own figures, per instance (what nicsim-hw prints too), over
 * the run's steady part. */
static void print_app_summaries(FILE *f, const nicsim_system *sys)
{
    if (!sys->app->summary)
        return;
    ps_t end = sys->end_time;
    for (int i = 0; i < sys->ncpus; i++) {
        const sim_cpu *sc = &sys->cpu[i];
        if (!sc->up || !sc->app_state)
            continue;
        int index[SYS_MAX_PORTS];
        for (int k = 0; k < sc->nports; k++)
            index[k] = sc->ports[k]->index;
        sys->app->summary(f, sc->app_state, index, sc->nports, end > sc->at_up.t ? (double)(end - sc->at_up.t) / 1e12 : 0);
    }
}

void report_print(FILE *f, const nicsim_system *sys, const char *scenario_path)
{
    print_header(f, sys, scenario_path);
    /* the verdict first: what set the rates the table below shows */
    run_limit l;
    run_limit_of(sys, &l);
    run_limit_print(f, &l);
    print_rates(f, sys);
    print_offered_and_captures(f, sys);
    print_kernel_iface(f, sys);
    print_interrupts(f, sys);
    print_napi(f, sys);
    print_txd_fetches(f, sys);
    print_buses(f, sys);
    for (int i = 0; i < sys->ncpus; i++)
        print_cpu_cycles(f, sys, i);
    print_app_summaries(f, sys);
    for (int i = 0; i < sys->ncards; i++)
        print_card_rtl(f, sys, i);
    print_driver_rx_drops(f, sys);
}

/* ---- the JSON report, an object per step: report_json ---- */

/* What ran, for how long, and whether it finished what it was asked. */
static void json_run_fields(cJSON *j, const nicsim_system *sys, const char *scenario_path)
{
    double secs = sim_seconds(sys);
    cJSON_AddStringToObject(j, "scenario", scenario_path);
    cJSON_AddNumberToObject(j, "sim_time_ps", (double)sys->end_time);
    cJSON_AddNumberToObject(j, "wall_seconds", sys->wall_seconds);
    cJSON_AddNumberToObject(j, "slowdown", secs > 0 ? sys->wall_seconds / secs : 0);
    cJSON_AddBoolToObject(j, "stopped_early", sys->stopped_early);
    char why[256];
    cJSON_AddBoolToObject(j, "complete", system_complete(sys, why, sizeof why));
    cJSON_AddStringToObject(j, "incomplete_reason", why);
}

/* "napi": what print_napi shows, and the rest of the vector's counters. */
static void napi_json(cJSON *o, const app_port_stats *a)
{
    const struct nic_txq_napi_stats *n = &a->napi_stats;
    cJSON *j = cJSON_AddObjectToObject(o, "napi");
    cJSON_AddNumberToObject(j, "irqs", (double)n->irqs);
    cJSON_AddNumberToObject(j, "polls", (double)n->polls);
    cJSON_AddNumberToObject(j, "full_polls", (double)n->full_polls);
    cJSON_AddNumberToObject(j, "completes", (double)n->completes);
    cJSON_AddNumberToObject(j, "max_polls_per_irq", (double)n->max_run);
    cJSON_AddNumberToObject(j, "queue_stops", (double)n->stops);
    cJSON_AddNumberToObject(j, "queue_wakes", (double)n->wakes);
    cJSON_AddNumberToObject(j, "queue_restarts", (double)n->restarts);
    cJSON_AddNumberToObject(j, "tx_busy", (double)n->busy);
    cJSON_AddNumberToObject(j, "pktgen_stopped_waits", (double)a->stopped_waits);
    cJSON_AddNumberToObject(j, "pktgen_stopped_ns", (double)a->stopped_ns);
    cJSON_AddNumberToObject(j, "itr_first", n->itr_first);
    cJSON_AddNumberToObject(j, "itr_min", n->itr_min);
    cJSON_AddNumberToObject(j, "itr_max", n->itr_max);
    cJSON_AddNumberToObject(j, "itr_last", n->itr_last);
    cJSON_AddNumberToObject(j, "itr_writes", (double)n->itr_writes);
    cJSON_AddNumberToObject(j, "wthresh", n->wthresh);
    cJSON_AddNumberToObject(j, "tdt_writes", (double)a->tdt_writes);
    cJSON_AddNumberToObject(j, "tdt_writes_per_packet", a->sent ? (double)a->tdt_writes / (double)a->sent : 0.0);
}

/* Port p: rates, the NIC's counters, the driver's RX drops, interrupts,
 * its TX descriptor fetches and its capture. */
static cJSON *port_json(const nicsim_system *sys, int p)
{
    const sim_port *sp = &sys->port[p];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", report_ifname(p));
    cJSON_AddBoolToObject(o, "pktgen", sp->app.generator);
    cJSON_AddNumberToObject(o, "tx_packets", (double)sp->wire.frames);
    cJSON_AddNumberToObject(o, "tx_pps", link_wire_pps(&sp->wire));
    cJSON_AddNumberToObject(o, "tx_mbps", port_mbps(sp));
    cJSON_AddNumberToObject(o, "rx_packets", (double)sp->cnt.gprc);
    cJSON_AddNumberToObject(o, "rx_pps", port_rx_pps(sys, sp));
    report_rx_counters_json(o, sp);
    cJSON_AddNumberToObject(o, "offered", sp->gen ? (double)link_gen_frames(sp->gen) : 0);
    report_tx_counters_json(o, sp);
    struct nic_port_rx_drops d = rx_drops_of(sp);
    cJSON *dj = cJSON_AddObjectToObject(o, "driver_rx_drops");
    cJSON_AddNumberToObject(dj, "length_errors", (double)d.length_errors);
    cJSON_AddNumberToObject(dj, "frame_errors", (double)d.frame_errors);
    cJSON_AddNumberToObject(dj, "multi_desc", (double)d.multi_desc);
    cJSON_AddNumberToObject(o, "tdt_writes", (double)port_tdt_writes(sp));
    cJSON_AddNumberToObject(o, "irq_asserts", (double)sp->card->nic.st.irq_asserts[sp->func]);
    cJSON_AddNumberToObject(o, "irqs_handled", (double)sp->app.irqs);
    if (sp->app.napi)
        napi_json(o, &sp->app);
    cJSON_AddNumberToObject(o, "wire_busy", link_wire_busy(&sp->wire));
    txd_view v = txd_of(sp);
    cJSON *txd = cJSON_AddObjectToObject(o, "tx_desc_fetches");
    cJSON_AddNumberToObject(txd, "count", (double)v.fetches);
    cJSON_AddNumberToObject(txd, "descs_per_fetch", v.per_fetch);
    cJSON_AddNumberToObject(txd, "fetch_ns", v.fetch_ns);
    cJSON_AddNumberToObject(txd, "every_ns", v.every_ns);
    cJSON_AddStringToObject(o, "pcap", sp->pcap_path);
    return o;
}

/* Every card's bus in "buses"; "bus" is card 0's again, for the readers
 * that know one segment only. */
static void buses_json(cJSON *j, const nicsim_system *sys)
{
    cJSON *buses = cJSON_AddArrayToObject(j, "buses");
    for (int i = 0; i < sys->ncards; i++) {
        cJSON *bus = sys->card[i].pcie ? pcie_report_json(sys, i) : pcix_report_json(sys, i);
        cJSON_AddItemToArray(buses, bus);
        if (i == 0)
            cJSON_AddItemToObject(j, "bus", cJSON_Duplicate(bus, 1));
    }
}

/* CPU i: what it ran on which ports, and its cycles per packet by category
 * and by named work item. */
static cJSON *cpu_json(const nicsim_system *sys, int i)
{
    const cpu *c = &sys->cpu[i].c;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", c->id);
    cJSON_AddNumberToObject(o, "mhz", c->prof.mhz);
    cJSON_AddStringToObject(o, "app", sys->app->name);
    cJSON *ports = cJSON_AddArrayToObject(o, "ports");
    for (int k = 0; k < sys->cpu[i].nports; k++)
        cJSON_AddItemToArray(ports, cJSON_CreateString(report_ifname(sys->cpu[i].ports[k]->index)));
    cJSON_AddNumberToObject(o, "packets", (double)c->packets);
    cJSON *cpp = cJSON_AddObjectToObject(o, "cycles_per_packet");
    for (int k = 0; k < CPU_CATS; k++)
        cJSON_AddNumberToObject(cpp, cpu_cat_name(k), per_packet(c, c->cat_ps[k]));
    cJSON_AddNumberToObject(cpp, "busy", per_packet(c, cpu_busy_ps(c)));
    cJSON *named = cJSON_AddObjectToObject(o, "named_cycles_per_packet");
    for (int n = 0; n < c->prof.n_named; n++)
        cJSON_AddNumberToObject(named, c->prof.named[n].name, per_packet(c, c->named_ps[n]));
    cJSON_AddNumberToObject(o, "irqs", (double)c->irqs);
    /* the same over the traffic window (the text report's figures):
     * bring-up and a receiver's drain left out and timed apart */
    const sim_cpu *sc = &sys->cpu[i];
    cpu_window w;
    system_cpu_window(sys, sc, &w);
    cJSON *t = cJSON_AddObjectToObject(o, "traffic");
    cJSON_AddNumberToObject(t, "packets", (double)w.packets);
    cJSON_AddNumberToObject(t, "window_ns", (double)(w.b.t - w.a.t) / 1e3);
    cJSON_AddNumberToObject(t, "bring_up_ns", (double)w.a.t / 1e3);
    cJSON_AddNumberToObject(t, "drain_ns", (double)w.drain / 1e3);
    cpp = cJSON_AddObjectToObject(t, "cycles_per_packet");
    for (int k = 0; k < CPU_CATS; k++)
        cJSON_AddNumberToObject(cpp, cpu_cat_name(k), cpu_window_cycles(sc, &w, w.b.cat_ps[k] - w.a.cat_ps[k]));
    cJSON_AddNumberToObject(cpp, "busy", cpu_window_cycles(sc, &w, cpu_window_busy(&w)));
    named = cJSON_AddObjectToObject(t, "named_cycles_per_packet");
    for (int n = 0; n < c->prof.n_named; n++)
        cJSON_AddNumberToObject(named, c->prof.named[n].name,
                                cpu_window_cycles(sc, &w, w.b.named_ps[n] - w.a.named_ps[n]));
    return o;
}

/* Card i's RTL: cycles, DMA, the faults injected and the driver's
 * programming errors (every kind, zeros too: the keys are stable). */
static cJSON *nic_json(const nicsim_system *sys, int i)
{
    const nic_adapter_stats *st = &sys->card[i].nic.st;
    cJSON *nic = cJSON_CreateObject();
    cJSON_AddNumberToObject(nic, "card", i);
    cJSON_AddNumberToObject(nic, "rtl_cycles", (double)st->cycles);
    cJSON_AddNumberToObject(nic, "wakeups", (double)st->wakeups);
    cJSON_AddNumberToObject(nic, "master_aborts", (double)st->master_aborts);
    cJSON_AddNumberToObject(nic, "dma_reads", (double)st->dma_reads);
    cJSON_AddNumberToObject(nic, "dma_writes", (double)st->dma_writes);
    const nic_faults *fl = &sys->card[i].nic.faults;
    cJSON *fj = cJSON_AddObjectToObject(nic, "faults_injected");
    for (int k = 0; k < NIC_FAULT_KINDS; k++)
        cJSON_AddNumberToObject(fj, nic_fault_names[k], (double)fl->injected[k]);
    cJSON *mj = cJSON_AddObjectToObject(nic, "programming_errors");
    for (int k = 0; k < NIC_MISUSE_KINDS; k++)
        cJSON_AddNumberToObject(mj, nic_misuse_names[k], (double)sys->card[i].nic.misuse.count[k]);
    /* only when there are any: a clean run's JSON is as it always was */
    const nic_adapter *ad = &sys->card[i].nic;
    if (ad->st.unmodelled) {
        cJSON *um = cJSON_AddArrayToObject(nic, "unmodelled_registers");
        for (int k = 0; k < ad->n_unmodelled; k++) {
            char name[24];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "port", report_ifname(2 * i + ad->unmodelled[k].func));
            cJSON_AddStringToObject(o, "access", ad->unmodelled[k].write ? "write" : "read");
            cJSON_AddNumberToObject(o, "offset", ad->unmodelled[k].off);
            cJSON_AddStringToObject(o, "register",
                                    nic_reg_name(sys->pers->adv_descriptors, ad->unmodelled[k].off, name, sizeof name));
            cJSON_AddNumberToObject(o, "count", (double)ad->unmodelled[k].count);
            cJSON_AddItemToArray(um, o);
        }
    }
    return nic;
}

cJSON *report_json(const nicsim_system *sys, const char *scenario_path)
{
    cJSON *j = cJSON_CreateObject();
    json_run_fields(j, sys, scenario_path);
    run_limit l;
    run_limit_of(sys, &l);
    cJSON_AddItemToObject(j, "limit", run_limit_json(&l));
    cJSON *ports = cJSON_AddArrayToObject(j, "ports");
    for (int p = 0; p < sys->nports; p++)
        cJSON_AddItemToArray(ports, port_json(sys, p));
    buses_json(j, sys);
    cJSON *cpus = cJSON_AddArrayToObject(j, "cpus");
    for (int i = 0; i < sys->ncpus; i++)
        cJSON_AddItemToArray(cpus, cpu_json(sys, i));
    cJSON *nics = cJSON_AddArrayToObject(j, "nics");
    for (int i = 0; i < sys->ncards; i++)
        cJSON_AddItemToArray(nics, nic_json(sys, i));
    cJSON_AddNumberToObject(j, "late_observations", (double)sys->late_observations);
    /* only when there are any: a clean run's JSON is as it always was */
    if (sys->nwarnings) {
        cJSON *w = cJSON_AddArrayToObject(j, "warnings");
        int n = sys->nwarnings < SYS_MAX_WARNINGS ? sys->nwarnings : SYS_MAX_WARNINGS;
        for (int i = 0; i < n; i++)
            cJSON_AddItemToArray(w, cJSON_CreateString(sys->warning[i]));
    }
    return j;
}

cJSON *report_read_json(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            } else {
                buf = nb;
            }
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[len] = 0;
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    return j;
}

int report_write_json(const char *path, const cJSON *j, char *err, size_t errlen)
{
    char *text = cJSON_Print(j);
    size_t len = text ? strlen(text) : 0;
    char *line = text ? realloc(text, len + 2) : NULL;
    if (!line) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    line[len] = '\n';
    line[len + 1] = 0;
    int rc = out_file_write_all(path, line, len + 1, err, errlen);
    free(line);
    return rc;
}
