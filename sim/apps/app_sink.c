/* The sink as a system: a link partner's generator ([gen]) sends to port
 * sink.port, whose CPU brings the driver up (the e1000 core on an 82546,
 * the ixgbe core on an 82599) and runs the sink app (driver/apps/sink.c)
 * in NAPI cycles until the generator is done and the port has been quiet
 * for sink.drain_us. */
#include "app_sink.h"
#include "../scenario/driver_options.h"
#include "../system/link_partner.h"
#include "../system/port_ixgbe.h"
#include <stdio.h>
#include <string.h>

static int bring_up_e1000(sim_port *sp, struct sink_rxops *rx)
{
    int rc = e1000_dev_init(&sp->dev, &sp->pd, &sp->dopt);
    if (rc != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: e1000 bring-up failed (%d)", sp->index, rc);
        return -1;
    }
    rc = e1000_rxq_setup(&sp->rxq, &sp->dev, &sp->ropt, NULL);
    sp->rxq_up = rc == 0;
    if (rc != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: RX ring setup failed (%d)", sp->index, rc);
        return -1;
    }
    sink_bind_e1000(rx, &sp->rxq);
    return 0;
}

/* RX queue 0's cause is EICR bit 0 (rtl/ixgbe_intr.v's fixed mapping),
 * throttled by EITR(0) = driver.eitr_us. */
static int bring_up_ixgbe(sim_port *sp, struct sink_rxops *rx)
{
    if (port_ixgbe_dev_up(sp) != 0 || port_ixgbe_rxq_up(sp) != 0 || port_ixgbe_irq_up(sp) != 0)
        return -1;
    sink_bind_ixgbe(rx, &sp->ixrxq);
    return 0;
}

static int sink_bring_up(sim_cpu *c)
{
    sim_port *sp = c->sink_port;
    const scenario *sc = sp->pd.sys->sc;
    struct sink_rxops rx;
    int rc = sp->card->model == NIC_RTL_82599 ? bring_up_ixgbe(sp, &rx) : bring_up_e1000(sp, &rx);
    if (rc != 0)
        return -1;
    struct sink_opts o;
    driver_options_sink(sc, &o);
    if (sink_init(&sp->rx_sink, &sp->pd, &rx, &o) != 0) {
        snprintf(sp->err, sizeof sp->err, "eth%d: sink setup failed", sp->index);
        return -1;
    }
    sp->rx_sink_up = 1;
    link_partner_go(sp, c->c.t);
    return 0;
}

/* Done once the generator has sent everything and the CPU has spent
 * sink.drain_us without a frame since the later of its last frame and the
 * sink's last work. */
static int sink_cpu_step(sim_cpu *c)
{
    sim_port *sp = c->sink_port;
    if (system_cpu_drained(c))
        return 0;
    if (sink_step(&sp->rx_sink))
        c->last_work = c->c.t;
    return 1;
}

static void sink_cpu(void *arg)
{
    sim_cpu *c = arg;
    system_cpu_run(c, c->sink_port->pd.sys, sink_bring_up, sink_cpu_step, 64);
}

int app_sink_build(nicsim_system *sys, const cpu_profile *prof, char *err, size_t errlen)
{
    const scenario *sc = sys->sc;
    int p = (int)scenario_uint(sc, "sink", "port");
    if (p >= sys->nports) {
        snprintf(err, errlen, "sink.port: %d names no port of the %d card(s)", p, sys->ncards);
        return -1;
    }
    sim_port *sp = &sys->port[p];
    sim_cpu *c = system_cpu_new(sys, prof);
    c->drain = scenario_uint(sc, "sink", "drain_us") * PS_PER_US;
    c->sink_port = sp;
    system_port_attach(c, sp);
    if (sp->card->model == NIC_RTL_82599) {
        struct ixgbe_tx_opts unused;
        driver_options_ixgbe(sc, &sp->ixdopt, &unused);
        driver_options_ixgbe_rx(sc, &sp->ixropt);
        sp->eitr_us = (unsigned)scenario_uint(sc, "driver", "eitr_us");
    } else {
        driver_options_dev(sc, &sp->dopt);
        driver_options_rx(sc, &sp->ropt);
    }
    if (link_partner_create(sys, sp, err, errlen) != 0)
        return -1;
    return system_cpu_start(c, sink_cpu, err, errlen);
}

void app_sink_free(nicsim_system *sys)
{
    for (int p = 0; p < sys->nports; p++) {
        sim_port *sp = &sys->port[p];
        if (sp->ixrxq_up)
            ixgbe_rxq_teardown(&sp->ixrxq);
        sp->ixrxq_up = 0;
    }
}
