#include "tb_cpus.h"
#include "../../sim/system/system.h"
#include "../../sim/system/link_partner.h"
#include "../../sim/report/report.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tb_cpus {
    nicsim_system sys;
    sim_ext_devices ext;
    tb_bus bus;
};

/* ---- the CPU's device accesses, to the SystemC side ---- */

static sim_port *port_of(tb_cpus *tb, int card, int func)
{
    return &tb->sys.port[2 * card + func];
}

static void ext_sync(void *ctx, sim_cpu *self, ps_t t)
{
    (void)self;
    tb_cpus *tb = ctx;
    tb->bus.sync(tb->bus.ctx, t);
}

static uint32_t ext_mmio_read(void *ctx, sim_cpu *self, int card, int func, uint32_t off, ps_t t_issue,
                              ps_t *t_done)
{
    (void)self;
    tb_cpus *tb = ctx;
    return tb->bus.mmio_read(tb->bus.ctx, port_of(tb, card, func)->index, off, t_issue, t_done);
}

static void ext_mmio_write(void *ctx, int card, int func, uint32_t off, uint32_t val, ps_t t)
{
    tb_cpus *tb = ctx;
    tb->bus.mmio_write(tb->bus.ctx, port_of(tb, card, func)->index, off, val, t);
}

static ps_t ext_irq_wait_any(void *ctx, sim_cpu *self, struct plat_dev *const *d, int n, ps_t from,
                             ps_t deadline, int *which)
{
    (void)self;
    tb_cpus *tb = ctx;
    unsigned mask = 0;
    for (int i = 0; i < n; i++)
        mask |= 1u << (2 * d[i]->card->index + d[i]->func);
    int func;
    ps_t t = tb->bus.irq_wait(tb->bus.ctx, mask, from, deadline, &func);
    *which = -1;
    for (int i = 0; func >= 0 && i < n; i++)
        if (2 * d[i]->card->index + d[i]->func == func) {
            *which = i;
            break;
        }
    return t;
}

static void ext_partner_go(void *ctx, sim_port *sp, ps_t up)
{
    tb_cpus *tb = ctx;
    tb->bus.partner_go(tb->bus.ctx, sp->index, up);
}

static void ext_turn(void *ctx, sim_cpu *self)
{
    tb_cpus *tb = ctx;
    tb->bus.turn(tb->bus.ctx, self->c.t);
}

/* ---- building and running ---- */

tb_cpus *tb_cpus_new(const struct scenario *sc, const tb_bus *bus, char *err, size_t errlen)
{
    tb_cpus *tb = calloc(1, sizeof *tb);
    if (!tb) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    tb->bus = *bus;
    tb->ext = (sim_ext_devices){
        .ctx = tb,
        .sync = ext_sync,
        .mmio_read = ext_mmio_read,
        .mmio_write = ext_mmio_write,
        .irq_wait_any = ext_irq_wait_any,
        .partner_go = ext_partner_go,
        .turn = ext_turn,
    };
    if (system_build_cpus(&tb->sys, sc, &tb->ext, err, errlen) != 0) {
        tb_cpus_free(tb);
        return NULL;
    }
    if (tb->sys.ncpus != 1) {
        snprintf(err, errlen, "system.app = %s: the SystemC testbench runs one CPU, the scenario has %d",
                 tb->sys.app->name, tb->sys.ncpus);
        tb_cpus_free(tb);
        return NULL;
    }
    return tb;
}

void tb_cpus_free(tb_cpus *tb)
{
    if (!tb)
        return;
    char err[256];
    system_free(&tb->sys, err, sizeof err);
    free(tb);
}

int tb_cpus_run(tb_cpus *tb, char *err, size_t errlen)
{
    system_cpu_app(&tb->sys.cpu[0]);
    return system_app_error(&tb->sys, err, errlen);
}

ps_t tb_cpus_time(const tb_cpus *tb)
{
    return tb->sys.cpu[0].c.t;
}

ps_t tb_cpus_limit(const tb_cpus *tb)
{
    return tb->sys.max_sim;
}

int tb_cpus_ports(const tb_cpus *tb)
{
    return tb->sys.nports;
}

const char *tb_cpus_pcap_path(const tb_cpus *tb, int p)
{
    return tb->sys.port[p].pcap_path;
}

struct link_gen *tb_cpus_partner(const tb_cpus *tb, int p)
{
    return tb->sys.port[p].gen;
}

void tb_cpus_partner_sent(tb_cpus *tb, int p, ps_t t_end)
{
    link_partner_arrived(&tb->sys.port[p], t_end);
}

void tb_cpus_partner_done(tb_cpus *tb, int p)
{
    tb->sys.port[p].gen_done = 1;
}

int tb_cpus_dma_read(tb_cpus *tb, uint64_t addr, void *dst, uint32_t n)
{
    return system_dma_read(&tb->sys, addr, dst, n);
}

int tb_cpus_dma_write(tb_cpus *tb, uint64_t addr, const void *src, uint32_t n)
{
    return system_dma_write(&tb->sys, addr, src, n);
}

void tb_cpus_read_counters(tb_cpus *tb, ps_t t)
{
    system_read_counters(&tb->sys, t);
}

void tb_cpus_drivers_down(tb_cpus *tb, ps_t t)
{
    cpu *c = &tb->sys.cpu[0].c;
    if (c->t < t)
        c->t = t;
    system_drivers_down(&tb->sys);
}

int tb_cpus_complete(tb_cpus *tb, int stopped_early, char *why, size_t n)
{
    tb->sys.stopped_early |= stopped_early;
    return system_complete(&tb->sys, why, n);
}

/* ---- the report ---- */

uint64_t tb_cpus_packets(const tb_cpus *tb, const tb_result *r)
{
    uint64_t n = 0;
    for (int p = 0; p < tb->sys.nports; p++)
        n += tb->sys.port[p].app.consumed + r->wire_frames[p];   /* what the app took in, what left */
    return n;
}

int tb_cpus_report(const tb_cpus *tb, const tb_result *r, const char *json_path, char *err, size_t errlen)
{
    const nicsim_system *sys = &tb->sys;
    printf("nicsim-systemc: %s\n", scenario_path(sys->sc));
    printf("1 x NIC %s as a TLM-2.0 module, quantum %.0f ns; simulated %.3f ms in %.2f s wall\n",
           scenario_str(sys->sc, "nic", "model"), r->quantum_ns, (double)r->sim_time_ps / 1e9, r->wall_seconds);
    report_kernel_iface_header(stdout);
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        report_kernel_iface_row(stdout, p, sp->cnt.gprc, sp->cnt.crcerrs + sp->cnt.ruc + sp->cnt.roc, sp->cnt.mpc, sp->cnt.gptc);
    }
    printf("\nsimulated packets %llu (%.0f per wall-clock second); late observations %llu\n",
           (unsigned long long)tb_cpus_packets(tb, r),
           r->wall_seconds > 0 ? (double)tb_cpus_packets(tb, r) / r->wall_seconds : 0.0,
           (unsigned long long)r->late);
    if (!json_path)
        return 0;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "scenario", scenario_path(sys->sc));
    cJSON_AddNumberToObject(j, "quantum_ns", r->quantum_ns);
    cJSON_AddNumberToObject(j, "sim_time_ps", (double)r->sim_time_ps);
    cJSON_AddNumberToObject(j, "wall_seconds", r->wall_seconds);
    cJSON_AddNumberToObject(j, "sim_packets", (double)tb_cpus_packets(tb, r));
    cJSON_AddNumberToObject(j, "late_observations", (double)r->late);
    cJSON_AddBoolToObject(j, "stopped_early", r->stopped_early);
    cJSON *ports = cJSON_AddArrayToObject(j, "ports");
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", report_ifname(p));
        cJSON_AddNumberToObject(o, "tx_packets", (double)r->wire_frames[p]);
        cJSON_AddNumberToObject(o, "rx_packets", (double)sp->cnt.gprc);
        report_rx_counters_json(o, sp);
        report_tx_counters_json(o, sp);
        cJSON_AddNumberToObject(o, "irqs_handled", (double)sp->app.irqs);
        cJSON_AddItemToArray(ports, o);
    }
    int rc = report_write_json(json_path, j, err, errlen);
    cJSON_Delete(j);
    return rc;
}
