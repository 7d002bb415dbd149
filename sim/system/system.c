#include "system.h"
#include "../apps/app_router.h"
#include "../apps/app_sink.h"
#include "../apps/app_l3fwd.h"
#include "port_ixgbe.h"
#include "../scenario/driver_options.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HOST_MEM_BASE 0x10000000ull

/* ---------------- the loop ---------------- */

/* Run events and RTL edges up to time t; stop early (returning 1) when
 * stop(ctx) becomes true after an edge or event. */
static int run_until(nicsim_system *sys, ps_t t, int (*stop)(nicsim_system *, void *), void *ctx)
{
    sched *s = &sys->s;
    for (;;) {
        if (stop && stop(sys, ctx))
            return 1;
        ps_t te = sched_next_time(s);
        /* the card whose next edge is earliest (the first on a tie) */
        ps_t tc = PS_NEVER;
        nic_adapter *edge = NULL;
        for (int i = 0; i < sys->ncards; i++) {
            ps_t e = nic_adapter_next_edge(&sys->card[i].nic);
            if (e < tc) {
                tc = e;
                edge = &sys->card[i].nic;
            }
        }
        if (te <= tc) {
            if (te > t)
                break;
            sched_run_one(s, t);
        } else {
            if (tc > t)
                break;
            nic_adapter_edge(edge);
        }
    }
    if (t != PS_NEVER && t > s->now)
        s->now = t;
    return stop && stop(sys, ctx);
}

/* When the devices next have something to do (an event or an edge). */
static ps_t next_activity(const nicsim_system *sys)
{
    ps_t m = sched_next_time(&sys->s);
    for (int i = 0; i < sys->ncards; i++) {
        ps_t e = nic_adapter_next_edge(&sys->card[i].nic);
        if (e < m)
            m = e;
    }
    return m;
}

int system_devices_run(nicsim_system *sys, ps_t t, int (*stop)(nicsim_system *, void *), void *ctx)
{
    return run_until(sys, t, stop, ctx);
}

ps_t system_devices_next(const nicsim_system *sys)
{
    return next_activity(sys);
}

/* Can CPU c act at the current device time?  A running CPU always; a
 * waiting one once what it waits for has happened or its deadline passed. */
static int cpu_ready(nicsim_system *sys, sim_cpu *c)
{
    return !c->blocked || c->cond(sys, c->cond_ctx) || sys->s.now >= c->deadline;
}

/* How far the devices may go for self before another CPU must act: the
 * clock of every other running CPU and the deadline of every waiting one. */
static ps_t others_bound(const nicsim_system *sys, const sim_cpu *self)
{
    ps_t m = PS_NEVER;
    for (int i = 0; i < sys->ncpus; i++) {
        const sim_cpu *c = &sys->cpu[i];
        if (c == self || !c->alive)
            continue;
        ps_t b = c->blocked ? c->deadline : c->c.t;
        if (b < m)
            m = b;
    }
    return m;
}

struct advance_ctx {
    sim_cpu *self;
    int (*stop)(nicsim_system *, void *);
    void *ctx;
};

/* Stop advancing the devices when self's condition holds or a waiting CPU
 * becomes ready. */
static int advance_stop(nicsim_system *sys, void *arg)
{
    struct advance_ctx *a = arg;
    if (a->stop && a->stop(sys, a->ctx))
        return 1;
    for (int i = 0; i < sys->ncpus; i++) {
        sim_cpu *c = &sys->cpu[i];
        if (c != a->self && c->alive && c->blocked && c->cond(sys, c->cond_ctx))
            return 1;
    }
    return 0;
}

/* Run the devices for CPU self up to time t, or (stop given) until stop()
 * holds, never past the moment another CPU must act: then self hands
 * control to the scheduler and carries on when resumed.  Returns 1 if
 * stop() held, 0 at time t. */
static int advance_for(nicsim_system *sys, sim_cpu *self, ps_t t,
                       int (*stop)(nicsim_system *, void *), void *ctx)
{
    struct advance_ctx a = { self, stop, ctx };
    if (self && stop) {
        self->blocked = 1;
        self->cond = stop;
        self->cond_ctx = ctx;
        self->deadline = t;
    }
    for (;;) {
        ps_t other = others_bound(sys, self);
        ps_t bound = other < t ? other : t;
        if (bound >= sys->s.now)
            run_until(sys, bound, advance_stop, &a);
        if (stop && stop(sys, ctx))
            break;
        if (sys->s.now >= t && bound >= t)
            break;
        /* another CPU must act first (self is NULL only after the run, when
         * no CPU is left, so this is never reached without one) */
        coroutine_yield(&self->co);
    }
    if (self)
        self->blocked = 0;
    return stop && stop(sys, ctx);
}

void system_sync(nicsim_system *sys, sim_cpu *self, ps_t t)
{
    if (sys->ext) {
        sys->ext->sync(sys->ext->ctx, self, t);
        return;
    }
    /* the devices must never be ahead of a CPU that looks at them */
    if (sys->s.now > t)
        sys->late_observations++;
    if (t > sys->s.now || next_activity(sys) <= t || others_bound(sys, self) < t)
        advance_for(sys, self, t, NULL, NULL);
}

/* ---------------- a CPU's life ---------------- */

void system_cpu_run(sim_cpu *c, nicsim_system *sys, int (*bring_up)(sim_cpu *),
                    int (*step)(sim_cpu *), unsigned steps_per_turn)
{
    unsigned steps = 0;
    if (bring_up(c) == 0) {
        for (;;) {
            if (c->c.t >= sys->max_sim) {
                sys->stopped_early = 1;
                break;
            }
            if (!step(c))
                break;
            if (++steps % steps_per_turn == 0) {
                if (sys->ext)
                    sys->ext->turn(sys->ext->ctx, c);
                else
                    coroutine_yield(&c->co);
            }
        }
    }
    c->alive = 0;
}

/* The 82599's port: the ixgbe core's bring-up and TX queue 0, its TX
 * cause (EICR bit 0, rtl/ixgbe_intr.v's fixed mapping) unmasked. */
static int bring_up_ixgbe(sim_port *sp, struct pktgen_txops *tx)
{
    if (port_ixgbe_dev_up(sp) != 0 || port_ixgbe_txq_up(sp) != 0 || port_ixgbe_irq_up(sp) != 0)
        return -1;
    pktgen_bind_ixgbe(tx, &sp->ixtxq);
    return 0;
}

/* Bring the port's driver up as its CPU would; 0 ok, else a message in sp->err. */
static int bring_up(sim_port *sp)
{
    int p = sp->index;
    struct pktgen_txops tx;
    if (sp->card->model == NIC_RTL_82599) {
        if (bring_up_ixgbe(sp, &tx) != 0)
            return -1;
    } else {
        int rc = e1000_dev_init(&sp->dev, &sp->pd, &sp->dopt);
        if (rc != 0) {
            snprintf(sp->err, sizeof sp->err, "port %d: e1000 bring-up failed (%d%s)", p, rc,
                     e1000_dev_init_why(rc));
            return -1;
        }
        rc = e1000_txq_setup(&sp->txq, &sp->dev, &sp->topt);
        sp->txq_up = rc == 0;
        if (rc != 0) {
            snprintf(sp->err, sizeof sp->err, "port %d: TX ring setup failed (%d)", p, rc);
            return -1;
        }
        pktgen_bind_e1000(&tx, &sp->txq);
    }
    if (pktgen_init(&sp->pg, &sp->pd, &tx, &sp->po) != 0) {
        snprintf(sp->err, sizeof sp->err, "port %d: pktgen setup failed", p);
        return -1;
    }
    sp->pg_up = 1;
    return 0;
}

/* A pktgen CPU: one port, its driver and pktgen. */
static int pktgen_cpu_bring_up(sim_cpu *c)
{
    return bring_up(c->ports[0]);
}

static int pktgen_cpu_step(sim_cpu *c)
{
    return pktgen_step(&c->ports[0]->pg);
}

static void cpu_app(void *arg)
{
    sim_cpu *c = arg;
    system_cpu_run(c, c->ports[0]->pd.sys, pktgen_cpu_bring_up, pktgen_cpu_step, 256);
}

/* ---------------- bus callbacks that end at a CPU ---------------- */

static void on_mmio_read_done(void *ctx, int func, uint32_t val, ps_t t)
{
    sim_card *card = ctx;
    card->rd_val[func] = val;
    card->rd_done[func] = t;
    card->rd_waiting[func] = 0;
}

struct read_wait {
    sim_card *card;
    int func;
};

static int read_done(nicsim_system *sys, void *ctx)
{
    (void)sys;
    const struct read_wait *w = ctx;
    return !w->card->rd_waiting[w->func];
}

uint32_t system_mmio_read(nicsim_system *sys, sim_cpu *self, sim_card *card, int func, uint32_t off,
                          ps_t t_issue, ps_t *t_done)
{
    if (sys->ext)
        return sys->ext->mmio_read(sys->ext->ctx, self, card->index, func, off, t_issue, t_done);
    struct read_wait w = { card, func };
    system_sync(sys, self, t_issue);
    card->rd_waiting[func] = 1;
    host_bus_mmio_read(&card->hbus, func, off, t_issue);
    if (!advance_for(sys, self, PS_NEVER, read_done, &w)) {
        fprintf(stderr, "nicsim: MMIO read of 0x%05x on card %d function %d never completed\n", off,
                card->index, func);
        abort();
    }
    *t_done = card->rd_done[func];
    return card->rd_val[func];
}

void system_mmio_write(nicsim_system *sys, sim_card *card, int func, uint32_t off, uint32_t val, ps_t t)
{
    if (sys->ext)
        sys->ext->mmio_write(sys->ext->ctx, card->index, func, off, val, t);
    else
        host_bus_mmio_write(&card->hbus, func, off, val, t);
}

struct irq_set {
    struct plat_dev *const *d;
    int n;
};

static int irq_any(nicsim_system *sys, void *ctx)
{
    (void)sys;
    const struct irq_set *set = ctx;
    for (int i = 0; i < set->n; i++)
        if (nic_adapter_irq(&set->d[i]->card->nic, set->d[i]->func))
            return 1;
    return 0;
}

ps_t system_irq_wait_any(nicsim_system *sys, sim_cpu *self, struct plat_dev *const *d, int n, ps_t from,
                         ps_t deadline, int *which)
{
    if (sys->ext)
        return sys->ext->irq_wait_any(sys->ext->ctx, self, d, n, from, deadline, which);
    struct irq_set set = { d, n };
    system_sync(sys, self, from);
    int seen = irq_any(sys, &set) || advance_for(sys, self, deadline, irq_any, &set);
    *which = -1;
    for (int i = 0; seen && i < n; i++)
        if (nic_adapter_irq(&d[i]->card->nic, d[i]->func)) {
            *which = i;
            break;
        }
    return !seen ? deadline : sys->s.now > from ? sys->s.now : from;
}

/* ---------------- the bus: device-side callbacks go to the adapter, the
 * CPU-side one (a read's data reaching the CPU) to the system ---------------- */

/* The cards' DMA in the built-in harness: host memory, coherent with the
 * CPUs' caches.  A device read sees the CPUs' dirty lines (they are
 * snooped); a device write invalidates every CPU's copy of the lines it
 * covers, so the next CPU read of a descriptor or a packet misses: that is
 * what makes them costly. */
int system_dma_read(nicsim_system *sys, uint64_t addr, void *dst, uint32_t n)
{
    cache_dma_read(sys->caches, addr, n);
    return host_mem_read(sys->mem, addr, dst, n);
}

int system_dma_write(nicsim_system *sys, uint64_t addr, const void *src, uint32_t n)
{
    cache_dma_write(sys->caches, addr, n);
    return host_mem_write(sys->mem, addr, src, n);
}

static int snooped_read(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t)
{
    (void)t;
    return system_dma_read(ctx, addr, dst, n);
}

static int snooped_write(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t)
{
    (void)t;
    return system_dma_write(ctx, addr, src, n);
}

static void cb_read_data(void *ctx, int f, uint32_t tag, uint64_t a, uint32_t l, int last, ps_t t)
{
    nic_adapter_read_data(&((sim_card *)ctx)->nic, f, tag, a, l, last, t);
}
static void cb_write_done(void *ctx, int f, uint32_t tag, ps_t t)
{
    nic_adapter_write_done(&((sim_card *)ctx)->nic, f, tag, t);
}
static void cb_mmio_write(void *ctx, int f, uint32_t off, uint32_t val, ps_t t)
{
    nic_adapter_mmio_write(&((sim_card *)ctx)->nic, f, off, val, t);
}
static void cb_mmio_read(void *ctx, int f, uint32_t off, ps_t t)
{
    nic_adapter_mmio_read(&((sim_card *)ctx)->nic, f, off, t);
}

static pcix_bus *new_bus(nicsim_system *sys, sim_card *card, const pcix_params *bp)
{
    pcix_ops ops = {
        .ctx = card,
        .read_data = cb_read_data,
        .write_done = cb_write_done,
        .mmio_write = cb_mmio_write,
        .mmio_read = cb_mmio_read,
        .mmio_read_done = on_mmio_read_done,
    };
    return pcix_new(&sys->s, bp, &ops);
}

static pcie_bus *new_pcie(nicsim_system *sys, sim_card *card, const pcie_params *pp)
{
    pcie_ops ops = {
        .ctx = card,
        .read_data = cb_read_data,
        .write_done = cb_write_done,
        .mmio_write = cb_mmio_write,
        .mmio_read = cb_mmio_read,
        .mmio_read_done = on_mmio_read_done,
    };
    return pcie_new(&sys->s, pp, &ops);
}

/* ---------------- building ---------------- */

static void profile_from(const scenario *sc, cpu_profile *p)
{
    memset(p, 0, sizeof *p);
    p->mhz = scenario_double(sc, "cpu", "mhz");
    p->mmio_write_ns = scenario_double(sc, "cpu", "mmio_write_ns");
    p->copy_cycles_per_line = scenario_double(sc, "cpu", "copy_cycles_per_line");
    p->wmb_cycles = scenario_double(sc, "cpu", "wmb_cycles");
    p->rmb_cycles = scenario_double(sc, "cpu", "rmb_cycles");
    p->mb_cycles = scenario_double(sc, "cpu", "mb_cycles");
    p->prefetch_cycles = scenario_double(sc, "cpu", "prefetch_cycles");
    p->irq_entry_ns = scenario_double(sc, "cpu", "irq_entry_ns");
    p->irq_exit_ns = scenario_double(sc, "cpu", "irq_exit_ns");
    static const char *const named[] = {
        "pktgen_pkt", "pktgen_gettimeofday", "skb_alloc", "skb_free", "skb_alloc_small", "napi_poll", "stack_rx",
        "fib_lookup", "ip_forward", "l3fwd_pkt", "l3fwd_rx_burst", "l3fwd_tx_burst", "l3fwd_group",
    };
    for (unsigned i = 0; i < sizeof named / sizeof named[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "cost_%s", named[i]);
        p->named[p->n_named].name = named[i];
        p->named[p->n_named].cycles = scenario_double(sc, "cpu", key);
        p->n_named++;
    }
}

static int pcap_path_for(const char *pattern, int port, int nports, char *out, size_t n,
                         char *err, size_t errlen)
{
    const char *mark = strstr(pattern, "{port}");
    if (!mark) {
        if (nports > 1) {
            snprintf(err, errlen, "capture.pcap: '%s' has no {port} but %d ports transmit", pattern, nports);
            return -1;
        }
        snprintf(out, n, "%s", pattern);
        return 0;
    }
    snprintf(out, n, "%.*s%d%s", (int)(mark - pattern), pattern, port, mark + strlen("{port}"));
    return 0;
}

static void bus_params_from(const scenario *sc, int card, pcix_params *bp)
{
    pcix_params_default(bp);
    const char *mhz = scenario_str(sc, "bus", "mhz");
    if (card == 1 && strcmp(scenario_str(sc, "bus", "card1_mhz"), "same") != 0)
        mhz = scenario_str(sc, "bus", "card1_mhz");
    bp->mhz = atof(mhz);
    bp->bus64 = scenario_bool(sc, "bus", "bus64");
    bp->mmrbc = (unsigned)atoi(scenario_str(sc, "bus", "mmrbc"));
    bp->max_outstanding_splits = (unsigned)atoi(scenario_str(sc, "bus", "max_splits"));
    bp->host_read_latency = (ps_t)llround(scenario_double(sc, "bus", "host_read_latency_ns") * 1000);
    bp->mmio_host_latency = (ps_t)llround(scenario_double(sc, "bus", "mmio_host_latency_ns") * 1000);
    bp->arb_clocks = (unsigned)scenario_uint(sc, "bus", "arb_clocks");
    bp->target_response_clocks = (unsigned)scenario_uint(sc, "bus", "target_response_clocks");
    bp->turnaround_clocks = (unsigned)scenario_uint(sc, "bus", "turnaround_clocks");
    bp->device_read_wait_clocks = (unsigned)scenario_uint(sc, "bus", "device_read_wait_clocks");
}

static void pcie_params_from(const scenario *sc, pcie_params *pp)
{
    pcie_params_default(pp);
    pp->gen = (unsigned)atoi(scenario_str(sc, "pcie", "gen"));
    pp->lanes = (unsigned)atoi(scenario_str(sc, "pcie", "lanes"));
    pp->mps = (unsigned)atoi(scenario_str(sc, "pcie", "mps"));
    pp->mrrs = (unsigned)atoi(scenario_str(sc, "pcie", "mrrs"));
    pp->rcb = (unsigned)atoi(scenario_str(sc, "pcie", "rcb"));
    pp->tags = (unsigned)scenario_uint(sc, "pcie", "tags");
    pp->host_read_latency = (ps_t)llround(scenario_double(sc, "pcie", "read_latency_ns") * 1000);
    pp->mmio_host_latency = (ps_t)llround(scenario_double(sc, "pcie", "mmio_latency_ns") * 1000);
}

/* Does an app drive port p (its CPU brings it up and uses it)? */
static int port_driven(const nicsim_system *sys, int p)
{
    const char *app = scenario_str(sys->sc, "system", "app");
    if (!strcmp(app, "router"))
        return 1;
    if (!strcmp(app, "sink"))
        return (int)scenario_uint(sys->sc, "sink", "port") == p;
    if (!strcmp(app, "l3fwd"))
        return app_l3fwd_port(sys->sc, p);
    return sys->port[p].pktgen_on;
}

/* Card i's identity: what a system whose devices live elsewhere knows of it. */
static void card_name(nicsim_system *sys, int i)
{
    sim_card *card = &sys->card[i];
    card->sys = sys;
    card->index = i;
    card->model = strcmp(scenario_str(sys->sc, "nic", "model"), "82599") == 0 ? NIC_RTL_82599 : NIC_RTL_82546;
}

/* One card: its bus segment and its RTL on the links of its two ports, its
 * DMA to mem. */
static int card_build(nicsim_system *sys, int i, nic_mem_port mem, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    sim_card *card = &sys->card[i];
    card_name(sys, i);
    pcix_params bp;
    bus_params_from(sc, i, &bp);
    /* the 82546's STATUS reports the bus the card sits on; the 82599's EEPROM
     * holds the ports' MAC addresses (02:00:00:00:<card>:<port>) */
    nic_rtl_straps straps = {
        .model = (uint8_t)card->model,
        .link_up = scenario_bool(sc, "nic", "link_up") ? 3 : 0,
        .mac = { { 2, 0, 0, 0, (uint8_t)i, 0 }, { 2, 0, 0, 0, (uint8_t)i, 1 } },
        .pcix_mode = 1,
        .pcix_speed = bp.mhz > 100.5 ? 2 : bp.mhz > 66.9 ? 1 : 0,
        .bus64 = (uint8_t)bp.bus64,
        .pci66 = 1,
        /* an 82599 whose port 1 no app drives is built with port 0 only */
        .ports = card->model == NIC_RTL_82599 && !strcmp(scenario_str(sc, "nic", "rtl_ports"), "auto") &&
                         !port_driven(sys, 2 * i + 1) ? 1 : 2,
    };
    if (card->model == NIC_RTL_82599) {
        pcie_params_from(sc, &card->pcie_p);
        char e[200];
        if (pcie_params_check(&card->pcie_p, e, sizeof e) != 0) {
            snprintf(err, errlen, "[pcie] %s", e);
            return -1;
        }
    }
    link_wire *wires[NIC_RTL_PORTS] = { &sys->port[2 * i].wire, &sys->port[2 * i + 1].wire };
    if (nic_adapter_init(&card->nic, &sys->s, mem, scenario_double(sc, "nic", "core_mhz"),
                         &straps, wires)) {
        snprintf(err, errlen, "cannot create the RTL model");
        return -1;
    }
    card->nic_up = 1;
    const char *fk = scenario_str(sc, "fault", "kinds");
    unsigned kinds = !strcmp(fk, "all") ? (1u << NIC_FAULT_KINDS) - 1 : 0;
    for (int k = 0; k < NIC_FAULT_KINDS; k++)
        if (!strcmp(fk, nic_fault_names[k]))
            kinds = 1u << k;
    /* each card its own stream of faults */
    nic_faults_init(&card->nic.faults, kinds, (unsigned)scenario_uint(sc, "fault", "rate_pct"),
                    scenario_uint(sc, "fault", "seed") * 2654435761u + (uint64_t)i, card->model == NIC_RTL_82599);
    if (card->model == NIC_RTL_82599) {
        card->pcie = new_pcie(sys, card, &card->pcie_p);
        if (!card->pcie) {
            snprintf(err, errlen, "bad PCIe parameters");
            return -1;
        }
        card->hbus = pcie_host_bus(card->pcie);
    } else {
        card->bus = new_bus(sys, card, &bp);
        if (!card->bus) {
            snprintf(err, errlen, "bad PCI-X parameters");
            return -1;
        }
        card->hbus = pcix_host_bus(card->bus);
    }
    card->nic.bus = card->hbus;
    return 0;
}

/* The options a pktgen port's CPU applies when its app starts. */
static void pktgen_port_options(const scenario *sc, sim_port *sp)
{
    driver_options_dev(sc, &sp->dopt);
    driver_options_tx(sc, &sp->topt);
    driver_options_ixgbe(sc, &sp->ixdopt, &sp->ixtopt);
    sp->eitr_us = (unsigned)scenario_uint(sc, "driver", "eitr_us");
    driver_options_pktgen(sc, sp->index, &sp->po);
}

/* An interrupt line of a devices-only system's card changed. */
static void card_irq_changed(void *ctx, int f, int level, ps_t t)
{
    sim_card *card = ctx;
    card->sys->io.irq(card->sys->io.irq_ctx, 2 * card->index + f, level, t);
}

/* The halves of a system: the CPUs with host memory and the apps, and the
 * devices (cards, wires). */
enum { BUILD_CPUS = 1, BUILD_DEVICES = 2 };

static int build(nicsim_system *sys, const scenario *sc, int parts, const sim_device_io *io,
                 const sim_ext_devices *ext, char *err, size_t errlen)
{
    memset(sys, 0, sizeof *sys);
    sys->sc = sc;
    sys->ext = ext;
    sched_init(&sys->s);
    sys->max_sim = scenario_uint(sc, "system", "max_sim_us") * PS_PER_US;
    if (parts & BUILD_CPUS) {
        sys->mem = host_mem_new(HOST_MEM_BASE);
        if (!sys->mem) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    sys->ncards = (int)scenario_uint(sc, "system", "cards");
    sys->nports = 2 * sys->ncards;

    const char *ports = scenario_str(sc, "pktgen", "ports");
    int router = !strcmp(scenario_str(sc, "system", "app"), "router");
    int sink = !strcmp(scenario_str(sc, "system", "app"), "sink");
    int l3fwd = !strcmp(scenario_str(sc, "system", "app"), "l3fwd");
    int ntx = 0;
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        sp->index = p;
        sp->card = &sys->card[p / 2];
        sp->func = p % 2;
        sp->pktgen_on = !router && !sink && !l3fwd && driver_options_pktgen_port(sc, p);
        ntx += router ? p % 2 : l3fwd ? app_l3fwd_port(sc, p) : sp->pktgen_on;
    }
    if (!router && !sink && !l3fwd && ntx > SYS_MAX_CPUS) {
        snprintf(err, errlen, "pktgen.ports: '%s' names %d ports; pktgen runs one CPU per port, at most %d",
                 ports, ntx, SYS_MAX_CPUS);
        return -1;
    }
    if (ntx == 0 && !sink) {
        snprintf(err, errlen, "pktgen.ports: '%s' names no port of the %d card(s)", ports, sys->ncards);
        return -1;
    }

    /* links and captures */
    const char *pcap = scenario_str(sc, "capture", "pcap");
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        int transmits = router ? p % 2 == 1 : l3fwd ? app_l3fwd_port(sc, p) : sp->pktgen_on;
        if (transmits && pcap[0] && (parts & BUILD_CPUS)) {
            if (pcap_path_for(pcap, p, ntx, sp->pcap_path, sizeof sp->pcap_path, err, errlen))
                return -1;
            if (parts & BUILD_DEVICES) {
                sp->sink = link_sink_new(sp->pcap_path, err, errlen);
                if (!sp->sink)
                    return -1;
            }
        }
        double gbps = scenario_double(sc, "link", "gbps");
        if (!(parts & BUILD_CPUS))
            link_wire_init(&sp->wire, gbps, io->out, io->out_ctx[p]);
        else
            link_wire_init(&sp->wire, gbps, sp->sink ? link_wire_to_sink : NULL, sp->sink);
    }

    nic_mem_port snooped = { .ctx = sys, .read = snooped_read, .write = snooped_write };
    if (io)
        sys->io = *io;
    for (int i = 0; i < sys->ncards; i++) {
        if (!(parts & BUILD_DEVICES))
            card_name(sys, i);
        else if (card_build(sys, i, parts & BUILD_CPUS ? snooped : io->mem, err, errlen) != 0)
            return -1;
        if (io && io->irq) {
            sys->card[i].nic.irq_changed = card_irq_changed;
            sys->card[i].nic.irq_ctx = &sys->card[i];
        }
    }
    if (!(parts & BUILD_CPUS))
        return 0;

    cpu_profile prof;
    profile_from(sc, &prof);
    cache_profile cp;
    if (cache_profile_by_name(scenario_str(sc, "cpu", "cache"), &cp) != 0) {
        snprintf(err, errlen, "cpu.cache: unknown profile '%s'", scenario_str(sc, "cpu", "cache"));
        return -1;
    }
    cp.mem_ns = scenario_double(sc, "cpu", "mem_ns");
    cp.ddio = scenario_bool(sc, "cpu", "ddio");
    if (cp.ddio && !cp.l3_size) {
        snprintf(err, errlen, "cpu.ddio: DDIO needs a cache profile with an L3; cpu.cache '%s' has none",
                 scenario_str(sc, "cpu", "cache"));
        return -1;
    }
    sys->caches = cache_hier_new(&cp, SYS_MAX_CPUS, prof.mhz);
    if (!sys->caches) {
        snprintf(err, errlen, "cpu: bad cache profile (%s)", cache_profile_check(&cp));
        return -1;
    }
    if (router)
        return app_router_build(sys, &prof, err, errlen);
    if (sink)
        return app_sink_build(sys, &prof, err, errlen);
    if (l3fwd)
        return app_l3fwd_build(sys, &prof, err, errlen);
    /* pktgen: a CPU per transmitting port */
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        if (!sp->pktgen_on)
            continue;
        sim_cpu *c = system_cpu_new(sys, &prof);
        system_port_attach(c, sp);
        pktgen_port_options(sc, sp);
        if (system_cpu_start(c, cpu_app, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int system_build(nicsim_system *sys, const scenario *sc, char *err, size_t errlen)
{
    return build(sys, sc, BUILD_CPUS | BUILD_DEVICES, NULL, NULL, err, errlen);
}

int system_build_cpus(nicsim_system *sys, const scenario *sc, const sim_ext_devices *ext, char *err,
                      size_t errlen)
{
    return build(sys, sc, BUILD_CPUS, NULL, ext, err, errlen);
}

int system_build_devices(nicsim_system *sys, const scenario *sc, const sim_device_io *io, char *err,
                         size_t errlen)
{
    return build(sys, sc, BUILD_DEVICES, io, NULL, err, errlen);
}

sim_cpu *system_cpu_new(nicsim_system *sys, const cpu_profile *prof)
{
    sim_cpu *c = &sys->cpu[sys->ncpus];
    c->id = sys->ncpus++;
    cpu_init(&c->c, c->id, prof, 0);
    c->alive = 1;
    return c;
}

void system_port_attach(sim_cpu *c, sim_port *sp)
{
    c->ports[c->nports++] = sp;
    sp->pd = (struct plat_dev){ .sys = sp->card->sys, .sc = c, .cpu = &c->c, .card = sp->card, .func = sp->func };
}

int system_cpu_start(sim_cpu *c, void (*fn)(void *), char *err, size_t errlen)
{
    c->app = fn;
    if (c->nports && c->ports[0]->pd.sys->ext)
        return 0;           /* its app runs in the caller's thread (system_cpu_app) */
    if (coroutine_init(&c->co, fn, c, CPU_STACK_BYTES) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->co_up = 1;
    return 0;
}

int system_cpu_drained(const sim_cpu *c)
{
    ps_t last = c->last_work;
    for (int i = 0; i < c->nports; i++) {
        const sim_port *sp = c->ports[i];
        if (!sp->gen)
            continue;
        if (!sp->gen_done)
            return 0;
        if (sp->gen_last > last)
            last = sp->gen_last;
    }
    return c->c.t >= last + c->drain;
}

void system_cpu_app(sim_cpu *c)
{
    c->app(c);
}

/* ---------------- running ---------------- */

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t read_stat(nicsim_system *sys, sim_port *sp, uint32_t reg, ps_t *t)
{
    return system_mmio_read(sys, NULL, sp->card, sp->func, reg, *t, t);
}

static uint64_t read_stat64(nicsim_system *sys, sim_port *sp, uint32_t lo, uint32_t hi, ps_t *t)
{
    uint64_t v = read_stat(sys, sp, lo, t);
    return v | (uint64_t)read_stat(sys, sp, hi, t) << 32;
}

/* On a terminal, a long run shows how far it has got (stderr only: never
 * part of a result). */
static void progress(const nicsim_system *sys, double w0, double *last, int *shown)
{
    double now = wall_now();
    if (now - *last < 1.0 || !isatty(STDERR_FILENO))
        return;
    uint64_t sent = 0;
    for (int p = 0; p < sys->nports; p++)
        sent += sys->port[p].wire.frames;
    fprintf(stderr, "\rnicsim: %.3f ms simulated, %llu frames sent, %.0f s wall ",
            (double)sys->s.now / 1e9, (unsigned long long)sent, now - w0);
    *last = now;
    *shown = 1;
}

int system_run(nicsim_system *sys, char *err, size_t errlen)
{
    double w0 = wall_now(), last = w0;
    int shown = 0;
    /* Resume the running CPU with the earliest clock, or a waiting one whose
     * wait is over; when every CPU waits, the first one advances the devices
     * (for all of them). */
    for (;;) {
        sim_cpu *next = NULL, *waiting = NULL;
        for (int i = 0; i < sys->ncpus; i++) {
            sim_cpu *c = &sys->cpu[i];
            if (!c->alive)
                continue;
            if (cpu_ready(sys, c)) {
                ps_t tc = c->blocked ? sys->s.now : c->c.t;
                ps_t tn = next ? (next->blocked ? sys->s.now : next->c.t) : PS_NEVER;
                if (!next || tc < tn)
                    next = c;
            } else if (!waiting) {
                waiting = c;
            }
        }
        if (!next)
            next = waiting;
        if (!next)
            break;
        progress(sys, w0, &last, &shown);
        coroutine_resume(&next->co);
    }
    if (system_app_error(sys, err, errlen) != 0)
        return -1;
    /* let the NIC and the wire finish what they hold: run until nothing is
     * left to happen (bounded by max_sim_us) */
    ps_t end = sys->s.now;
    for (int i = 0; i < sys->ncpus; i++)
        if (sys->cpu[i].c.t > end)
            end = sys->cpu[i].c.t;
    run_until(sys, end, NULL, NULL);
    ps_t limit = sys->max_sim > end ? sys->max_sim : end;
    for (;;) {
        ps_t m = next_activity(sys);
        if (m == PS_NEVER || m > limit)
            break;
        run_until(sys, m, NULL, NULL);
    }
    if (next_activity(sys) != PS_NEVER)
        sys->stopped_early = 1;
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].wire.last_end > end)
            end = sys->port[p].wire.last_end;
    sys->end_time = end;
    sys->wall_seconds = wall_now() - w0;
    if (shown)
        fputc('\n', stderr);

    system_read_counters(sys, end);
    return 0;
}

int system_app_error(const nicsim_system *sys, char *err, size_t errlen)
{
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].err[0]) {
            snprintf(err, errlen, "%s", sys->port[p].err);
            return -1;
        }
    return 0;
}

void system_read_counters(nicsim_system *sys, ps_t t)
{
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        sp->gptc = read_stat(sys, sp, E1000_GPTC, &t);
        sp->tpt = read_stat(sys, sp, E1000_TPT, &t);
        sp->gotc = read_stat64(sys, sp, E1000_GOTCL, E1000_GOTCH, &t);
        sp->gprc = read_stat(sys, sp, E1000_GPRC, &t);
        sp->gorc = read_stat64(sys, sp, E1000_GORCL, E1000_GORCH, &t);
        int ix = sp->card->model == NIC_RTL_82599;     /* MPC/RNBC of packet buffer 0 */
        sp->mpc = read_stat(sys, sp, ix ? IXGBE_MPC(0) : E1000_MPC, &t);
        sp->rnbc = read_stat(sys, sp, ix ? IXGBE_RNBC(0) : E1000_RNBC, &t);
        sp->crcerrs = read_stat(sys, sp, E1000_CRCERRS, &t);
        sp->ruc = read_stat(sys, sp, E1000_RUC, &t);
        sp->roc = read_stat(sys, sp, E1000_ROC, &t);
        sp->irqs_handled = sp->pg.stats.irqs;
        const sim_cpu *sc = sp->pd.sc;
        if (sp->rx_sink_up)
            sp->irqs_handled = sp->rx_sink.stats.irqs;
        if (sc && sc->router)               /* the router's NAPI: per port, as Linux counts */
            for (int i = 0; i < sc->nports; i++)
                if (sc->ports[i] == sp)
                    sp->irqs_handled = sc->router->napi.port_stats[i].irqs;
    }
}

int system_complete(const nicsim_system *sys, char *why, size_t n)
{
    why[0] = 0;
    for (int p = 0; p < sys->nports; p++) {
        const sim_port *sp = &sys->port[p];
        if (!sp->pktgen_on || !sp->pg_up)
            continue;
        const struct pktgen_stats *st = &sp->pg.stats;
        if (sp->po.count && st->sent < sp->po.count) {
            snprintf(why, n, "eth%d: pktgen sent %llu of %llu packets%s", p,
                     (unsigned long long)st->sent, (unsigned long long)sp->po.count,
                     sys->stopped_early ? " before system.max_sim_us" : "");
            return 0;
        }
        if (st->drain_timeouts || st->reclaimed < st->sent) {
            snprintf(why, n, "eth%d: %llu of %llu packets never reclaimed (no DD write-back)", p,
                     (unsigned long long)(st->sent - st->reclaimed), (unsigned long long)st->sent);
            return 0;
        }
    }
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].gen && !sys->port[p].gen_done) {
            snprintf(why, n, "eth%d: the link partner had not sent all its frames", p);
            return 0;
        }
    if (sys->stopped_early) {
        snprintf(why, n, "stopped at system.max_sim_us before the apps finished");
        return 0;
    }
    return 1;
}

void system_drivers_down(nicsim_system *sys)
{
    if (sys->drivers_down)
        return;
    sys->drivers_down = 1;
    app_router_free(sys);
    app_sink_free(sys);
    app_l3fwd_free(sys);
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        if (sp->pg_up)
            pktgen_fini(&sp->pg);
        if (sp->txq_up)
            e1000_txq_teardown(&sp->txq, NULL, NULL);
        if (sp->ixtxq_up)
            ixgbe_txq_teardown(&sp->ixtxq, NULL, NULL);
    }
}

int system_free(nicsim_system *sys, char *err, size_t errlen)
{
    int rc = 0;
    for (int i = 0; i < sys->ncpus; i++)
        if (sys->cpu[i].co_up)
            coroutine_free(&sys->cpu[i].co);
    system_drivers_down(sys);
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        if (sp->sink) {
            if (link_sink_close(sp->sink) != 0 && rc == 0) {
                snprintf(err, errlen, "%s: cannot complete the capture: %s", sp->pcap_path, strerror(errno));
                rc = -1;
            }
            sp->sink = NULL;
        }
    }
    for (int i = 0; i < sys->ncards; i++) {
        if (sys->card[i].nic_up)
            nic_adapter_fini(&sys->card[i].nic);
        if (sys->card[i].bus)
            pcix_free(sys->card[i].bus);
        if (sys->card[i].pcie)
            pcie_free(sys->card[i].pcie);
    }
    host_mem_free(sys->mem);
    if (sys->caches)
        cache_hier_free(sys->caches);
    sched_free(&sys->s);
    return rc;
}
