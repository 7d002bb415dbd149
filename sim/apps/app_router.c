/* The router of the 82546 reference posts, as a system: eth0 -> eth1 (and,
 * with two cards, eth2 -> eth3), link-partner generators feeding the input
 * ports, the forwarded frames leaving on the output ports' links, and one
 * CPU per pair (router.cpus = 2) or one for all (1) running the driver core's
 * NAPI loop and router app. */
#include "app_router.h"
#include "../scenario/driver_options.h"
#include "../system/link_partner.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------- the CPUs ---------------- */

static void router_port_options(const scenario *sc, sim_port *sp)
{
    driver_options_dev(sc, &sp->dopt);
    /* Reclaimed in the transmit path, TX completions need no interrupt: the
     * 4096-descriptor patch's TX ports took 693 interrupts in seed 002's
     * /proc/interrupts, against 58,638 with the NAPI-poll reclaim. */
    if (strcmp(scenario_str(sc, "driver", "tx_clean"), "xmit") == 0)
        sp->dopt.ims &= ~E1000_IMS_TXDW;
    driver_options_rx(sc, &sp->ropt);
    driver_options_tx(sc, &sp->topt);
}

/* Bring up every port the CPU serves, as its driver would, then the router. */
static int router_bring_up(sim_cpu *c)
{
    struct router_port rp[SYS_MAX_PORTS];
    struct router_pair pairs[SYS_MAX_PORTS];
    int npairs = 0;
    memset(rp, 0, sizeof rp);
    for (int i = 0; i < c->nports; i++) {
        sim_port *sp = c->ports[i];
        int rc = e1000_dev_init(&sp->dev, &sp->pd, &sp->dopt);
        if (rc != 0) {
            snprintf(sp->err, sizeof sp->err, "eth%d: e1000 bring-up failed (%d)", sp->index, rc);
            return -1;
        }
        rp[i].dev = &sp->dev;
        driver_options_router_macs(sp->index, &rp[i]);
        if (sp->router_in) {
            rc = e1000_rxq_setup(&sp->rxq, &sp->dev, &sp->ropt, NULL);
            sp->rxq_up = rc == 0;
            if (rc != 0) {
                snprintf(sp->err, sizeof sp->err, "eth%d: RX ring setup failed (%d)", sp->index, rc);
                return -1;
            }
            rp[i].rxq = &sp->rxq;
        }
        if (sp->router_out) {
            rc = e1000_txq_setup(&sp->txq, &sp->dev, &sp->topt);
            sp->txq_up = rc == 0;
            if (rc != 0) {
                snprintf(sp->err, sizeof sp->err, "eth%d: TX ring setup failed (%d)", sp->index, rc);
                return -1;
            }
            rp[i].txq = &sp->txq;
        }
    }
    /* input port p forwards to p + 1 (eth0 -> eth1, eth2 -> eth3) */
    for (int i = 0; i < c->nports; i++)
        for (int j = 0; j < c->nports; j++)
            if (c->ports[i]->router_in && c->ports[j]->index == c->ports[i]->index + 1)
                pairs[npairs++] = (struct router_pair){ (unsigned)i, (unsigned)j };
    struct router_opts ro;
    driver_options_router(c->ports[0]->pd.sys->sc, &ro);
    if (router_init(c->router, rp, c->nports, pairs, npairs, &ro, NULL) != 0) {
        snprintf(c->ports[0]->err, sizeof c->ports[0]->err, "router setup failed");
        return -1;
    }
    for (int i = 0; i < c->nports; i++)
        if (c->ports[i]->router_in)
            link_partner_go(c->ports[i], c->c.t);
    return 0;
}

/* Done when every input the CPU serves has delivered its last frame and the
 * CPU has spent router.drain_us without work since then: whatever the NICs
 * still held has been forwarded. */
static int router_cpu_step(sim_cpu *c)
{
    if (system_cpu_drained(c))
        return 0;
    if (router_step(c->router))
        c->last_work = c->c.t;
    return 1;
}

static void router_cpu(void *arg)
{
    sim_cpu *c = arg;
    system_cpu_run(c, c->ports[0]->pd.sys, router_bring_up, router_cpu_step, 64);
}

int app_router_build(nicsim_system *sys, const cpu_profile *prof, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    if (strcmp(scenario_str(sc, "nic", "model"), "82546") != 0) {
        snprintf(err, errlen, "system.app = router runs on nic.model = 82546 only (the router "
                 "uses the e1000 core)");
        return -1;
    }
    int ncpu = (int)scenario_uint(sc, "router", "cpus");
    int npairs = sys->ncards;            /* eth0 -> eth1, eth2 -> eth3 */
    if (ncpu > npairs)
        ncpu = npairs;
    for (int k = 0; k < ncpu; k++) {
        sim_cpu *c = system_cpu_new(sys, prof);
        c->drain = scenario_uint(sc, "router", "drain_us") * PS_PER_US;
        c->router = calloc(1, sizeof *c->router);
        if (!c->router) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        sp->router_in = p % 2 == 0;
        sp->router_out = p % 2 == 1;
        sim_cpu *c = &sys->cpu[ncpu == 1 ? 0 : p / 2];
        system_port_attach(c, sp);
        router_port_options(sc, sp);
        if (sp->router_in && link_partner_create(sys, sp, err, errlen) != 0)
            return -1;
    }
    for (int k = 0; k < ncpu; k++)
        if (system_cpu_start(&sys->cpu[k], router_cpu, err, errlen) != 0)
            return -1;
    return 0;
}

void app_router_free(nicsim_system *sys)
{
    for (int i = 0; i < sys->ncpus; i++) {
        sim_cpu *c = &sys->cpu[i];
        if (c->router) {
            if (c->router->nports)
                router_fini(c->router);
            free(c->router);
            c->router = NULL;
        }
    }
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        if (sp->rxq_up)
            e1000_rxq_teardown(&sp->rxq);
        if (sp->gen)
            link_gen_free(sp->gen);
        sp->gen = NULL;
    }
}
