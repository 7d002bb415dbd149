/* The CPUs of a system: one per instance of the scenario's app, each a
 * coroutine that brings its ports up (sim/apps' want, the personality's
 * driver core), brings the instance up, starts the link partners of its
 * ports and steps the app until it is done. */
#include "system_parts.h"
#include "link_partner.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Plenty for the driver core, the apps and the device simulation that runs
 * on a CPU's stack while it waits (AddressSanitizer's frames are larger). */
#define CPU_STACK_BYTES (4u << 20)

/* The CPU profile of [cpu]: clock, costs and the named costs. */
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
        "fib_lookup", "ip_forward", "l3fwd_loop", "l3fwd_pkt", "l3fwd_rx_burst", "l3fwd_tx_burst", "l3fwd_group",
        "fwd_rx_batch", "fwd_rx_pkt", "fwd_tx_batch", "fwd_tx_pkt",
    };
    for (unsigned i = 0; i < sizeof named / sizeof named[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "cost_%s", named[i]);
        p->named[p->n_named].name = named[i];
        p->named[p->n_named].cycles = scenario_double(sc, "cpu", key);
        p->n_named++;
    }
}

/* Every CPU's L1D and L2 (and the shared L3) of [cpu]; the core's window
 * over missed loads goes into *prof. */
static int caches_build(nicsim_system *sys, cpu_profile *prof, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    cache_profile cp;
    if (cache_profile_by_name(scenario_str(sc, "cpu", "cache"), &cp) != 0) {
        snprintf(err, errlen, "cpu.cache: unknown profile '%s'", scenario_str(sc, "cpu", "cache"));
        return -1;
    }
    if (!strcmp(scenario_str(sc, "cpu", "mlp"), "off")) {
        cp.lfb = 0;
        cp.window_cycles = 0;
    }
    prof->window_cycles = cp.window_cycles;
    prof->stores_wait = cp.stores_wait;
    cp.mem_ns = scenario_double(sc, "cpu", "mem_ns");
    cp.ddio = scenario_bool(sc, "cpu", "ddio");
    if (cp.ddio && !cp.l3_size) {
        snprintf(err, errlen, "cpu.ddio: DDIO needs a cache profile with an L3; cpu.cache '%s' has none",
                 scenario_str(sc, "cpu", "cache"));
        return -1;
    }
    sys->caches = cache_hier_new(&cp, SYS_MAX_CPUS, prof->mhz);
    if (!sys->caches) {
        snprintf(err, errlen, "cpu: bad cache profile (%s)", cache_profile_check(&cp));
        return -1;
    }
    return 0;
}

/* ---- a CPU's life ---- */

/* A receiving app's end: every link partner of c's ports has sent all its
 * frames, and c has run on c->drain past the later of the last arrival and
 * its own last work (whatever the NICs still held has been taken). */
static int drained(const sim_cpu *c)
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

/* The instance's ports as it gets them. */
static int app_ports(sim_cpu *c, app_port *ports)
{
    for (int i = 0; i < c->nports; i++)
        ports[i] = (app_port){ .index = c->ports[i]->index, .pd = &c->ports[i]->pd, .np = &c->ports[i]->np };
    return c->nports;
}

/* Bring port sp up as the app wants it, with the scenario's options for
 * the personality's core; 0, or -1 with sp->err set. */
static int port_up(nicsim_system *sys, sim_port *sp)
{
    const struct nic_port_core *core = sys->pers->port;
    struct nic_port_want w;
    sys->app->want(sys->sc, sp->index, &w);
    void *opts = calloc(1, core->opts_size);
    if (!opts) {
        snprintf(sp->err, sizeof sp->err, "eth%d: out of memory", sp->index);
        return -1;
    }
    sys->pers->port_options(sys->sc, opts);
    int rc = nic_port_up(&sp->np, core, &sp->pd, opts, &w);
    free(opts);
    if (rc != 0 && plat_stop_requested(&sp->pd)) {
        sys->stopped_early = 1;
        snprintf(sp->err, sizeof sp->err, "eth%d: bring-up had not finished when the CPU reached "
                 "system.max_sim_us = %llu (%s)", sp->index, (unsigned long long)(sys->max_sim / PS_PER_US),
                 sp->np.err);
        return -1;
    }
    if (rc != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: %s", sp->index, sp->np.err);
        return -1;
    }
    return 0;
}

/* Every port of c, then the app instance over them, then the link
 * partners of its ports start sending (an operator starts the traffic once
 * the receiver is up).  0, or -1 with the first port's err set. */
static int bring_up(nicsim_system *sys, sim_cpu *c)
{
    for (int i = 0; i < c->nports; i++)
        if (port_up(sys, c->ports[i]) != 0)
            return -1;
    app_port ports[SYS_MAX_PORTS];
    int n = app_ports(c, ports);
    sim_port *p0 = c->ports[0];
    if (sys->app->up(c->app_state, sys->sc, ports, n, p0->err, sizeof p0->err) != 0)
        return -1;
    for (int i = 0; i < c->nports; i++)
        if (c->ports[i]->gen)
            link_partner_go(c->ports[i], c->c.t);
    c->up = 1;
    system_cpu_tally(c, &c->at_up);
    c->at_last_work = c->at_up;
    if (++sys->cpus_up == sys->ncpus)
        system_mark_traffic(sys, c->c.t);
    return 0;
}

void system_cpu_tally(const sim_cpu *c, cpu_tally *out)
{
    out->t = c->c.t;
    memcpy(out->cat_ps, c->c.cat_ps, sizeof out->cat_ps);
    memcpy(out->named_ps, c->c.named_ps, sizeof out->named_ps);
    out->packets = c->c.packets;
}

void system_cpu_window(const nicsim_system *sys, const sim_cpu *c, cpu_window *w)
{
    w->a = c->at_up;
    if (sys->app->receiver)
        w->b = c->at_last_work;
    else
        system_cpu_tally(c, &w->b);
    w->packets = w->b.packets - w->a.packets;
    w->drain = c->c.t > w->b.t ? c->c.t - w->b.t : 0;
}

double cpu_window_cycles(const sim_cpu *c, const cpu_window *w, ps_t d)
{
    return (double)d * (c->c.prof.mhz / 1e6) / (double)(w->packets ? w->packets : 1);
}

ps_t cpu_window_busy(const cpu_window *w)
{
    ps_t s = 0;
    for (int k = 0; k < CPU_CATS; k++)
        if (k != CPU_CAT_IDLE)
            s += w->b.cat_ps[k] - w->a.cat_ps[k];
    return s;
}

/* One step of the app; 0 when the CPU is done.  A receiver is done once
 * its input is drained; any other app when its step says so. */
static int step(nicsim_system *sys, sim_cpu *c)
{
    if (!sys->app->receiver)
        return sys->app->step(c->app_state);
    if (drained(c))
        return 0;
    if (sys->app->step(c->app_state)) {
        c->last_work = c->c.t;
        system_cpu_tally(c, &c->at_last_work);
    }
    return 1;
}

/* The life of a CPU's app, inside its coroutine: bring it up, then step it
 * until it is done or the CPU passes system.max_sim_us; every
 * steps_per_turn steps it hands control to the scheduler even when it need
 * not wait, so that progress can be shown. */
static void cpu_life(void *arg)
{
    sim_cpu *c = arg;
    nicsim_system *sys = c->ports[0]->pd.sys;
    unsigned steps = 0;
    if (bring_up(sys, c) == 0) {
        for (;;) {
            if (c->c.t >= sys->max_sim) {
                sys->stopped_early = 1;
                break;
            }
            if (!step(sys, c))
                break;
            if (++steps % sys->app->steps_per_turn == 0) {
                if (sys->ext)
                    sys->ext->turn(sys->ext->ctx, c);
                else
                    coroutine_yield(&c->co);
            }
        }
    }
    c->alive = 0;
}

void system_cpu_app(sim_cpu *c)
{
    cpu_life(c);
}

/* ---- building ---- */

static void port_attach(sim_cpu *c, sim_port *sp)
{
    c->ports[c->nports++] = sp;
    sp->pd = (struct plat_dev){ .sys = sp->card->sys, .sc = c, .cpu = &c->c, .card = sp->card, .func = sp->func };
}

int cpus_build(nicsim_system *sys, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    cpu_profile prof;
    profile_from(sc, &prof);
    sys->cpu_calibration = scenario_str(sc, "cpu", "calibration");
    if (caches_build(sys, &prof, err, errlen) != 0)
        return -1;
    sys->ncpus = app_instances(sys->app, sc, sys->nports);
    if (sys->ncpus > SYS_MAX_CPUS) {            /* the app's check() bounds its instances */
        snprintf(err, errlen, "system.app = %s: %d CPUs, the simulator runs at most %d", sys->app->name,
                 sys->ncpus, SYS_MAX_CPUS);
        return -1;
    }
    for (int k = 0; k < sys->ncpus; k++) {
        sim_cpu *c = &sys->cpu[k];
        c->id = k;
        cpu_init(&c->c, k, &prof, 0);
        c->alive = 1;
        if (sys->app->receiver)
            c->drain = scenario_uint(sc, sys->app->section, "drain_us") * PS_PER_US;
        c->app_state = calloc(1, sys->app->state_size);
        if (!c->app_state) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    for (int p = 0; p < sys->nports; p++) {
        int k = sys->app->instance_of(sc, p, sys->nports);
        if (k >= 0)
            port_attach(&sys->cpu[k], &sys->port[p]);
    }
    for (int k = 0; k < sys->ncpus; k++) {
        sim_cpu *c = &sys->cpu[k];
        if (c->nports == 0) {       /* an app table entry's instance_of is not dense */
            snprintf(err, errlen, "system.app = %s: instance %d drives no port", sys->app->name, k);
            return -1;
        }
        if (sys->ext)
            continue;           /* its app runs in the caller's thread (system_cpu_app) */
        if (coroutine_init(&c->co, cpu_life, c, CPU_STACK_BYTES) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        c->co_up = 1;
    }
    return 0;
}

void cpus_down(nicsim_system *sys)
{
    for (int k = 0; k < sys->ncpus; k++) {
        sim_cpu *c = &sys->cpu[k];
        if (c->app_state)
            sys->app->down(c->app_state);
        for (int i = 0; i < c->nports; i++)
            nic_port_down(&c->ports[i]->np);
    }
}

void cpus_free(nicsim_system *sys)
{
    for (int k = 0; k < sys->ncpus; k++) {
        sim_cpu *c = &sys->cpu[k];
        if (c->co_up)
            coroutine_free(&c->co);
        c->co_up = 0;
        free(c->app_state);
        c->app_state = NULL;
    }
}
