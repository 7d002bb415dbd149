/* A scenario's app on physical NICs; see hw_run.h. */
#include "hw_run.h"
#include "../scenario/driver_options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hw_run_plan(struct hw_run *r, struct hw_error *e)
{
    const scenario *sc = r->sc;
    r->app = scenario_str(sc, "system", "app");
    r->family = strcmp(scenario_str(sc, "nic", "model"), "82599") ? HW_FAMILY_E1000 : HW_FAMILY_IXGBE;
    int want[HW_MAX_PORTS] = { 0 };
    if (!strcmp(r->app, "pktgen")) {
        /* "all" means every port given on the command line */
        int all = !strcmp(scenario_str(sc, "pktgen", "ports"), "all");
        for (int p = 0; p < HW_MAX_PORTS; p++)
            want[p] = driver_options_pktgen_port(sc, p) && (!all || p < r->nspecs);
    } else if (!strcmp(r->app, "sink")) {
        want[scenario_uint(sc, "sink", "port")] = 1;
    } else {
        if (r->family != HW_FAMILY_E1000)
            return hw_fail(e, HW_BAD_INPUT, "system.app=router runs on the e1000 core only (nic.model=82546)");
        /* eth0 -> eth1, and eth2 -> eth3 when four NICs are given */
        want[0] = want[1] = 1;
        want[2] = want[3] = r->nspecs >= 4;
    }
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        r->port[p].used = want[p];
        if (want[p] && p >= r->nspecs)
            return hw_fail(e, HW_BAD_INPUT, "system.app=%s uses eth%d, but --pci names %d device%s (one per "
                           "port, eth0 first)", r->app, p, r->nspecs, r->nspecs == 1 ? "" : "s");
    }
    return 0;
}

/* ---- bring-up, as the simulator's apps do it (sim/system.c, app_sink.c,
 * app_router.c) with the same scenario keys ---- */

static int e1000_up(struct hw_run *r, struct hw_port *hp, int p, int rx, int tx, struct hw_error *e)
{
    struct e1000_dev_opts dopt;
    driver_options_dev(r->sc, &dopt);
    /* a real copper PHY needs seconds to autonegotiate 1000BASE-T; the
     * simulator's link is up at once (the ixgbe core waits 10 s already) */
    dopt.link_timeout_ns = 10000000000ull;
    if (!strcmp(r->app, "router") && !strcmp(scenario_str(r->sc, "driver", "tx_clean"), "xmit"))
        dopt.ims &= ~E1000_IMS_TXDW;
    int rc = e1000_dev_init(&hp->dev, &hp->pd, &dopt);
    if (rc == E1000_ERR_LINK)
        return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): no link after %.1f s: check the cable and the link partner",
                       p, hp->pd.bdf, (double)dopt.link_timeout_ns / 1e9);
    if (rc != 0)
        return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): e1000 bring-up failed (%d%s)", p, hp->pd.bdf, rc,
                       e1000_dev_init_why(rc));
    if (rx) {
        struct e1000_rx_opts ropt;
        driver_options_rx(r->sc, &ropt);
        /* the RTL does not filter by address; a physical NIC must be told
         * to take every frame for the sink and router to see the same */
        ropt.promisc = 1;
        rc = e1000_rxq_setup(&hp->rxq, &hp->dev, &ropt, NULL);
        if (rc != 0)
            return hw_fail(e, HW_RUN_FAILED, "eth%d: RX ring setup failed (%d)", p, rc);
        hp->rxq_up = 1;
    }
    if (tx) {
        struct e1000_tx_opts topt;
        driver_options_tx(r->sc, &topt);
        rc = e1000_txq_setup(&hp->txq, &hp->dev, &topt);
        if (rc != 0)
            return hw_fail(e, HW_RUN_FAILED, "eth%d: TX ring setup failed (%d)", p, rc);
        hp->txq_up = 1;
    }
    return 0;
}

static int ixgbe_up(struct hw_run *r, struct hw_port *hp, int p, int rx, struct hw_error *e)
{
    struct ixgbe_dev_opts dopt;
    struct ixgbe_tx_opts topt;
    driver_options_ixgbe(r->sc, &dopt, &topt);
    dopt.promisc = (uint8_t)rx;
    int rc = ixgbe_dev_init(&hp->ixdev, &hp->pd, &dopt);
    if (rc == IXGBE_ERR_LINK)
        return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): no link: check the cable/SFP+ and the link partner", p,
                       hp->pd.bdf);
    if (rc != 0)
        return hw_fail(e, HW_RUN_FAILED, "eth%d (%s): ixgbe bring-up failed (%d%s)", p, hp->pd.bdf, rc,
                       ixgbe_dev_init_why(rc));
    if (rx) {
        struct ixgbe_rx_opts ropt;
        driver_options_ixgbe_rx(r->sc, &ropt);
        rc = ixgbe_rxq_setup(&hp->ixrxq, &hp->ixdev, 0, &ropt, NULL);
        if (rc != 0)
            return hw_fail(e, HW_RUN_FAILED, "eth%d: RX ring setup failed (%d)", p, rc);
        hp->ixrxq_up = 1;
    } else {
        rc = ixgbe_txq_setup(&hp->ixtxq, &hp->ixdev, 0, &topt);
        if (rc != 0)
            return hw_fail(e, HW_RUN_FAILED, "eth%d: TX ring setup failed (%d)", p, rc);
        hp->ixtxq_up = 1;
    }
    unsigned eitr = (unsigned)scenario_uint(r->sc, "driver", "eitr_us");
    if (ixgbe_set_eitr(&hp->ixdev, 0, eitr) != 0)
        return hw_fail(e, HW_BAD_INPUT, "driver.eitr_us %u out of range", eitr);
    ixgbe_irq_enable(&hp->ixdev, 1u << 0);
    return 0;
}

static int pktgen_up(struct hw_run *r, int p, struct hw_error *e)
{
    struct hw_port *hp = &r->port[p];
    struct pktgen_txops tx;
    if (r->family == HW_FAMILY_E1000) {
        if (e1000_up(r, hp, p, 0, 1, e) != 0)
            return -1;
        pktgen_bind_e1000(&tx, &hp->txq);
    } else {
        if (ixgbe_up(r, hp, p, 0, e) != 0)
            return -1;
        pktgen_bind_ixgbe(&tx, &hp->ixtxq);
    }
    struct pktgen_opts po;
    driver_options_pktgen(r->sc, p, &po);
    if (pktgen_init(&hp->pg, &hp->pd, &tx, &po) != 0)
        return hw_fail(e, HW_RUN_FAILED, "eth%d: pktgen setup failed (out of DMA memory? --dma-mib)", p);
    hp->pg_on = 1;
    return 0;
}

static int sink_up(struct hw_run *r, int p, struct hw_error *e)
{
    struct hw_port *hp = &r->port[p];
    struct sink_rxops rx;
    if (r->family == HW_FAMILY_E1000) {
        if (e1000_up(r, hp, p, 1, 0, e) != 0)
            return -1;
        sink_bind_e1000(&rx, &hp->rxq);
    } else {
        if (ixgbe_up(r, hp, p, 1, e) != 0)
            return -1;
        sink_bind_ixgbe(&rx, &hp->ixrxq);
    }
    struct sink_opts o;
    driver_options_sink(r->sc, &o);
    if (sink_init(&hp->sk, &hp->pd, &rx, &o) != 0)
        return hw_fail(e, HW_RUN_FAILED, "eth%d: sink setup failed", p);
    hp->sink_on = 1;
    return 0;
}

static int router_up(struct hw_run *r, struct hw_error *e)
{
    struct router_port rp[HW_MAX_PORTS];
    struct router_pair pairs[HW_MAX_PORTS];
    int n = 0, npairs = 0;
    memset(rp, 0, sizeof rp);
    for (int p = 0; p < HW_MAX_PORTS && r->port[p].used; p++, n++) {
        struct hw_port *hp = &r->port[p];
        int in = p % 2 == 0;
        if (e1000_up(r, hp, p, in, !in, e) != 0)
            return -1;
        rp[p].dev = &hp->dev;
        rp[p].rxq = in ? &hp->rxq : NULL;
        rp[p].txq = in ? NULL : &hp->txq;
        driver_options_router_macs(p, &rp[p]);
        if (!in)
            pairs[npairs++] = (struct router_pair){ (unsigned)p - 1, (unsigned)p };
    }
    struct router_opts ro;
    driver_options_router(r->sc, &ro);
    int rc = router_init(&r->router, rp, n, pairs, npairs, &ro, NULL);
    if (rc != 0)
        return hw_fail(e, rc == E1000_ERR_NOMEM ? HW_NOT_READY : HW_BAD_INPUT, "router setup failed (%s)",
                       rc == E1000_ERR_NOMEM ? "out of DMA memory for the route cache: --dma-mib"
                                             : "a [router] option out of range");
    r->router_on = 1;
    return 0;
}

/* ---- statistics registers: the same offsets on both families ---- */

static void counters_add(struct hw_run *r, struct hw_port *hp)
{
    struct plat_dev *d = &hp->pd;
    struct hw_counters *c = &hp->cnt;
    c->gprc += plat_read32(d, E1000_GPRC);
    c->gptc += plat_read32(d, E1000_GPTC);
    c->gorc += plat_read32(d, E1000_GORCL) | (uint64_t)plat_read32(d, E1000_GORCH) << 32;
    c->gotc += plat_read32(d, E1000_GOTCL) | (uint64_t)plat_read32(d, E1000_GOTCH) << 32;
    c->crcerrs += plat_read32(d, E1000_CRCERRS);
    c->ruc += plat_read32(d, E1000_RUC);
    c->roc += plat_read32(d, E1000_ROC);
    if (r->family == HW_FAMILY_E1000) {
        c->mpc += plat_read32(d, E1000_MPC);
    } else {
        for (unsigned i = 0; i < IXGBE_PB_COUNT; i++)
            c->mpc += plat_read32(d, IXGBE_MPC(i));
    }
}

/* ---- the run loops ---- */

static void run_pktgen(struct hw_run *r)
{
    int active;
    do {
        active = 0;
        for (int p = 0; p < HW_MAX_PORTS; p++) {
            struct hw_port *hp = &r->port[p];
            if (hp->pg_on && hp->pg.state != PKTGEN_DONE)
                active |= pktgen_step(&hp->pg);
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

/* Frames the receiving app has taken so far. */
static uint64_t rx_frames(const struct hw_run *r, int p)
{
    if (r->router_on) {
        struct router_port_stats s;
        router_port_stats(&r->router, (unsigned)p, &s);
        return s.rx;
    }
    return r->port[p].sk.stats.packets;
}

/* Sink and router: until the input has been quiet for drain_us after a
 * frame, or idle_timeout_s passed without any frame. */
static void run_receiver(struct hw_run *r, uint64_t drain_ns)
{
    struct plat_dev *d0 = first_port(r);
    uint64_t start = plat_now_ns(d0), last = 0;
    uint64_t seen[HW_MAX_PORTS] = { 0 };
    while (!*r->stop) {
        if (r->router_on) {
            router_step(&r->router);
        } else {
            for (int p = 0; p < HW_MAX_PORTS; p++)
                if (r->port[p].sink_on)
                    sink_step(&r->port[p].sk);
        }
        uint64_t now = plat_now_ns(d0);
        for (int p = 0; p < HW_MAX_PORTS; p++) {
            uint64_t n = r->port[p].used ? rx_frames(r, p) : 0;
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

static void teardown(struct hw_run *r)
{
    if (r->router_on)
        router_fini(&r->router);
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        struct hw_port *hp = &r->port[p];
        if (hp->pg_on)
            pktgen_fini(&hp->pg);
        if (hp->txq_up)
            e1000_txq_teardown(&hp->txq, NULL, NULL);
        if (hp->rxq_up)
            e1000_rxq_teardown(&hp->rxq);
        if (hp->ixtxq_up)
            ixgbe_txq_teardown(&hp->ixtxq, NULL, NULL);
        if (hp->ixrxq_up)
            ixgbe_rxq_teardown(&hp->ixrxq);
        hp->pg_on = hp->txq_up = hp->rxq_up = hp->ixtxq_up = hp->ixrxq_up = 0;
    }
    r->router_on = 0;
}

static int bring_up(struct hw_run *r, struct hw_error *e)
{
    for (int p = 0; p < HW_MAX_PORTS; p++) {
        struct hw_port *hp = &r->port[p];
        if (!hp->used)
            continue;
        char ifname[16];
        snprintf(ifname, sizeof ifname, "eth%d", p);
        struct hw_nic_opts o = r->nic;
        o.spec = r->specs[p];
        o.family = r->family;
        int rc = hw_nic_open(&hp->pd, ifname, &o, e);
        hp->open = 1;
        if (rc != 0)
            return -1;
    }
    if (!strcmp(r->app, "router"))
        return router_up(r, e);
    for (int p = 0; p < HW_MAX_PORTS; p++)
        if (r->port[p].used && (!strcmp(r->app, "pktgen") ? pktgen_up(r, p, e) : sink_up(r, p, e)) != 0)
            return -1;
    return 0;
}

int hw_run(struct hw_run *r, struct hw_error *e)
{
    int rc = bring_up(r, e);
    if (rc == 0) {
        for (int p = 0; p < HW_MAX_PORTS; p++)
            if (r->port[p].used) {
                struct hw_counters zero = { 0 };
                counters_add(r, &r->port[p]);   /* clear on read: start from 0 */
                r->port[p].cnt = zero;
                fprintf(stderr, "nicsim-hw: eth%d: %04x:%04x at %s, %s, %s: %s up\n", p, r->port[p].pd.vendor,
                        r->port[p].pd.device, r->port[p].pd.bdf, hw_mode_name(r->port[p].pd.mode),
                        r->nic.poll ? "polling" : "interrupts", r->app);
            }
        struct plat_dev *d0 = first_port(r);
        r->t_start_ns = plat_now_ns(d0);
        if (!strcmp(r->app, "pktgen"))
            run_pktgen(r);
        else
            run_receiver(r, scenario_uint(r->sc, !strcmp(r->app, "sink") ? "sink" : "router", "drain_us") * 1000);
        r->t_end_ns = plat_now_ns(d0);
        r->stopped = *r->stop != 0;
        for (int p = 0; p < HW_MAX_PORTS; p++)
            if (r->port[p].used)
                counters_add(r, &r->port[p]);
        for (int p = 0; p < HW_MAX_PORTS && rc == 0; p++) {
            struct hw_port *hp = &r->port[p];
            char why[600];
            if (hp->used && hw_nic_dma_fault(&hp->pd, why, sizeof why))
                rc = hw_fail(e, HW_RUN_FAILED, "eth%d (%s): DMA fault: %s", p, hp->pd.bdf, why);
            else if (hp->pg_on && hp->pg.stats.drain_timeouts)
                rc = hw_fail(e, HW_RUN_FAILED, "eth%d (%s): TX hang: %llu of %llu packets never completed (DD not "
                             "written back: a DMA fault or a stopped transmitter)", p, hp->pd.bdf,
                             (unsigned long long)(hp->pg.stats.sent - hp->pg.stats.reclaimed),
                             (unsigned long long)hp->pg.stats.sent);
        }
    }
    teardown(r);
    for (int p = 0; p < HW_MAX_PORTS; p++)
        if (r->port[p].open) {
            hw_nic_close(&r->port[p].pd);
            r->port[p].open = 0;
        }
    return rc;
}
