/* A scenario's app on physical NICs; see hw_run.h. */
#include "hw_run.h"
#include "../scenario/nicsim_scenario.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A real copper PHY needs seconds to autonegotiate 1000BASE-T (the
 * simulator's link is up at once; the ixgbe core waits this long already). */
#define HW_LINK_TIMEOUT_NS 10000000000ull

/* The app's rules for nports ports: 0, or refused (exit 2) with where each
 * key they name was set. */
static int app_rules(struct hw_run *r, int nports, struct hw_error *e)
{
    char err[1024];
    if (app_check(r->app, r->sc, r->pers->port, nports, err, sizeof err) == 0)
        return 0;
    nicsim_scenario_locate(r->sc, err, sizeof err);
    return hw_fail(e, HW_BAD_INPUT, "%s", err);
}

int hw_run_plan(struct hw_run *r, struct hw_error *e)
{
    const scenario *sc = r->sc;
    r->app = app_of(sc);
    r->pers = nic_personality_of(sc);
    if (!r->app || !r->pers)
        return hw_fail(e, HW_BAD_INPUT, "system.app '%s' or nic.model '%s' is unknown",
                       scenario_str(sc, "system", "app"), scenario_str(sc, "nic", "model"));
    /* the scenario's own rules (the app on this core, its keys) before the
     * devices, as if every port were there: a scenario nicsim-hw cannot
     * run is refused as it is; then the ports it uses against --pci, then
     * the app's rules for the ports given */
    if (app_rules(r, HW_MAX_PORTS, e) != 0)
        return -1;
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        r->port[p].used = r->app->instance_of(sc, p, r->nspecs) >= 0;
        if (r->port[p].used && p >= r->nspecs)
            return hw_fail(e, HW_BAD_INPUT, "system.app=%s uses eth%d, but --pci names %d device%s (one per "
                           "port, eth0 first)", r->app->name, p, r->nspecs, r->nspecs == 1 ? "" : "s");
    }
    if (app_rules(r, r->nspecs, e) != 0)
        return -1;
    r->ninst = app_instances(r->app, sc, r->nspecs);
    return 0;
}

/* ---- bring-up ---- */

static int open_ports(struct hw_run *r, struct hw_error *e)
{
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        struct hw_port *hp = &r->port[p];
        if (!hp->used)
            continue;
        char ifname[16];
        snprintf(ifname, sizeof ifname, "eth%d", p);
        struct hw_nic_opts o = r->nic;
        o.spec = r->specs[p];
        o.core = r->pers->port;
        o.stop = r->stop;
        int rc = hw_nic_open(&hp->pd, ifname, &o, e);
        hp->open = 1;
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Port p as the app wants it, with the scenario's options for the core;
 * a physical NIC filters by address, so a receiving port takes everything
 * (the RTL does not filter: the sink and the router see the same). */
static int port_up(struct hw_run *r, int p, struct hw_error *e)
{
    struct hw_port *hp = &r->port[p];
    const struct nic_port_core *core = r->pers->port;
    struct nic_port_want w;
    r->app->want(r->sc, p, &w);
    w.promisc = w.rx;
    w.link_timeout_ns = HW_LINK_TIMEOUT_NS;
    void *opts = calloc(1, core->opts_size);
    if (!opts)
        return hw_fail(e, HW_NOT_READY, "out of memory");
    r->pers->port_options(r->sc, opts);
    int rc = nic_port_up(&hp->np, core, &hp->pd, opts, &w);
    free(opts);
    if (rc == 0)
        return 0;
    if (plat_stop_requested(&hp->pd))
        return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): interrupted during bring-up (%s)", p, hp->pd.bdf,
                       hp->np.err);
    if (rc == NIC_PORT_ERR_LINK)
        return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): %s, waited %.1f s: check the cable and the link partner", p,
                       hp->pd.bdf, hp->np.err, (double)HW_LINK_TIMEOUT_NS / 1e9);
    return hw_fail(e, rc == NIC_PORT_ERR_PARAM || rc == NIC_PORT_ERR_IRQ ? HW_BAD_INPUT : HW_RUN_FAILED,
                   "eth%d (%s): %s", p, hp->pd.bdf, hp->np.err);
}

/* The ports of instance k, in port order. */
static int instance_ports(struct hw_run *r, int k, app_port *ports, int *index)
{
    int n = 0;
    for (int p = 0; p < r->nspecs; p++)
        if (r->app->instance_of(r->sc, p, r->nspecs) == k) {
            index[n] = p;
            ports[n++] = (app_port){ .index = p, .pd = &r->port[p].pd, .np = &r->port[p].np };
        }
    return n;
}

static int bring_up(struct hw_run *r, struct hw_error *e)
{
    if (open_ports(r, e) != 0)
        return -1;
    for (int k = 0; k < r->ninst; k++) {
        app_port ports[HW_MAX_PORTS];
        int index[HW_MAX_PORTS];
        int n = instance_ports(r, k, ports, index);
        for (int i = 0; i < n; i++)
            if (port_up(r, index[i], e) != 0)
                return -1;
        if (!(r->inst[k] = calloc(1, r->app->state_size)))
            return hw_fail(e, HW_NOT_READY, "out of memory");
        char err[300];
        int rc = r->app->up(r->inst[k], r->sc, ports, n, err, sizeof err);
        if (rc != 0)
            return hw_fail(e, rc == APP_ERR_NOMEM ? HW_NOT_READY : HW_BAD_INPUT, "%s%s", err,
                           rc == APP_ERR_NOMEM ? ": more DMA memory with --dma-mib" : "");
    }
    return 0;
}

/* ---- the statistics registers: clear on read, summed over the run ---- */

static uint32_t read_reg(void *ctx, uint32_t reg)
{
    return plat_read32(ctx, reg);
}

static void counters_add(struct hw_run *r, struct hw_port *hp)
{
    struct nic_port_counters now, *c = &hp->cnt;
    nic_port_read_counters(r->pers->port, read_reg, &hp->pd, &now);
    c->gptc += now.gptc;
    c->gotc += now.gotc;
    c->tpt += now.tpt;
    c->gprc += now.gprc;
    c->gorc += now.gorc;
    c->mpc += now.mpc;
    c->rnbc += now.rnbc;
    c->crcerrs += now.crcerrs;
    c->ruc += now.ruc;
    c->roc += now.roc;
}

/* ---- the run loops ---- */

/* The app's figures of every port it drives. */
static void app_stats(struct hw_run *r)
{
    for (int k = 0; k < r->ninst; k++) {
        app_port ports[HW_MAX_PORTS];
        int index[HW_MAX_PORTS];
        int n = instance_ports(r, k, ports, index);
        for (int i = 0; i < n && r->inst[k]; i++)
            r->app->port_stats(r->inst[k], i, &r->port[index[i]].app);
    }
}

/* Until every instance is done (step returned 0) or the run is stopped. */
static void run_to_end(struct hw_run *r)
{
    int done[APP_MAX_INSTANCES] = { 0 }, active;
    do {
        active = 0;
        for (int k = 0; k < r->ninst; k++)
            if (!done[k]) {
                done[k] = !r->app->step(r->inst[k]);
                active |= !done[k];
            }
    } while (active && !*r->stop);
}

/* The handle of the first port the app uses (the clock of the run). */
static struct plat_dev *first_port(struct hw_run *r)
{
    for (int p = 0; p < HW_MAX_PORTS; p++)
        if (r->port[p].used)
            return &r->port[p].pd;
    return NULL;
}

/* A receiver: until its input has been quiet for drain_us after a frame,
 * or idle_timeout_s passed without any frame. */
static void run_receiver(struct hw_run *r)
{
    uint64_t drain_ns = scenario_uint(r->sc, r->app->section, "drain_us") * 1000;
    struct plat_dev *d0 = first_port(r);
    uint64_t start = plat_now_ns(d0), last = 0;
    uint64_t seen[HW_MAX_PORTS] = { 0 };
    while (!*r->stop) {
        for (int k = 0; k < r->ninst; k++)
            r->app->step(r->inst[k]);
        uint64_t now = plat_now_ns(d0);
        app_stats(r);
        for (int p = 0; p < HW_MAX_PORTS; p++) {
            uint64_t n = r->port[p].used ? r->port[p].app.received : 0;
            if (n != seen[p]) {
                if (!seen[p])
                    r->port[p].rx_first_ns = now;
                r->port[p].rx_last_ns = now;
                seen[p] = n;
                last = now;
            }
        }
        if (last ? now - last > drain_ns : now - start > (uint64_t)(r->idle_timeout_s * 1e9))
            break;
    }
}

/* What the run found wrong: a DMA fault, a TX hang. */
static int run_errors(struct hw_run *r, struct hw_error *e)
{
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        struct hw_port *hp = &r->port[p];
        char why[600];
        if (hp->used && hw_nic_dma_fault(&hp->pd, why, sizeof why))
            return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): DMA fault: %s", p, hp->pd.bdf, why);
        if (hp->app.hung)
            return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): TX hang: %llu of %llu packets never completed (DD not "
                           "written back: a DMA fault or a stopped transmitter)", p, hp->pd.bdf,
                           (unsigned long long)hp->app.hung, (unsigned long long)hp->app.sent);
    }
    return 0;
}

static void run(struct hw_run *r)
{
    for (int p = 0; p < HW_MAX_PORTS; p++)
        if (r->port[p].used) {
            counters_add(r, &r->port[p]);   /* clear on read: start from 0 */
            r->port[p].cnt = (struct nic_port_counters){ 0 };
            fprintf(stderr, "nicsim-hw: eth%d: %04x:%04x at %s, %s, %s: %s up\n", p, r->port[p].pd.vendor,
                    r->port[p].pd.device, r->port[p].pd.bdf, hw_mode_name(r->port[p].pd.mode),
                    r->nic.poll ? "polling" : "interrupts", r->app->name);
        }
    struct plat_dev *d0 = first_port(r);
    r->t_start_ns = plat_now_ns(d0);
    if (r->app->receiver)
        run_receiver(r);
    else
        run_to_end(r);
    r->t_end_ns = plat_now_ns(d0);
    r->stopped = *r->stop != 0;
    for (int p = 0; p < HW_MAX_PORTS; p++)
        if (r->port[p].used)
            counters_add(r, &r->port[p]);
}

/* ---- the end ---- */

/* The instances' own report sections, while their ports are still up. */
static void write_summary(struct hw_run *r)
{
    size_t len;
    FILE *f = open_memstream(&r->summary, &len);
    if (!f)
        return;
    double run_s = r->t_end_ns > r->t_start_ns ? (double)(r->t_end_ns - r->t_start_ns) / 1e9 : 0;
    for (int k = 0; k < r->ninst && r->app->summary; k++) {
        app_port ports[HW_MAX_PORTS];
        int index[HW_MAX_PORTS];
        int n = instance_ports(r, k, ports, index);
        if (r->inst[k])
            r->app->summary(f, r->inst[k], index, n, run_s);
    }
    fclose(f);
}

static void teardown(struct hw_run *r)
{
    for (int k = 0; k < r->ninst; k++)
        if (r->inst[k])
            r->app->down(r->inst[k]);
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        nic_port_down(&r->port[p].np);
        if (r->port[p].open)
            hw_nic_close(&r->port[p].pd);
        r->port[p].open = 0;
    }
}

int hw_run(struct hw_run *r, struct hw_error *e)
{
    int rc = bring_up(r, e);
    if (rc == 0) {
        run(r);
        app_stats(r);
        rc = run_errors(r, e);
    }
    write_summary(r);
    teardown(r);
    return rc;
}

void hw_run_free(struct hw_run *r)
{
    for (int k = 0; k < r->ninst; k++) {
        free(r->inst[k]);
        r->inst[k] = NULL;
    }
    free(r->summary);
    r->summary = NULL;
}
