/* NAPI poll loop for one CPU; see e1000_napi.h. */
#include "e1000_napi.h"

void e1000_napi_default_opts(struct e1000_napi_opts *o)
{
    *o = (struct e1000_napi_opts){
        .weight = E1000_NAPI_WEIGHT,
        .wait_ns = 1000000,
        .ims = 0,
        .flush = 0,
        .exit_rule = E1000_NAPI_EXIT_UNDER_BUDGET,
        .tx_clean = 1,
    };
}

int e1000_napi_init(struct e1000_napi *n, const struct e1000_napi_port *ports, int nports,
                    const struct e1000_napi_opts *o)
{
    struct e1000_napi_opts def;
    if (!o) {
        e1000_napi_default_opts(&def);
        o = &def;
    }
    if (!n || !ports || nports < 1 || nports > E1000_NAPI_MAX_PORTS || o->weight < 1 ||
        o->wait_ns == 0 || o->exit_rule > E1000_NAPI_EXIT_IDLE)
        return E1000_ERR_PARAM;
    *n = (struct e1000_napi){ .opts = *o, .nports = nports, .state = E1000_NAPI_WAIT };
    for (int i = 0; i < nports; i++) {
        if (!ports[i].dev || !ports[i].dev->pd)
            return E1000_ERR_PARAM;
        n->port[i] = ports[i];
        n->pd[i] = ports[i].dev->pd;
    }
    n->c_poll = plat_cost_id(n->pd[0], "napi_poll");
    return 0;
}

/* Posted MMIO write, then (with flush) a read that makes it reach the device. */
static void write_flush(struct e1000_napi *n, struct plat_dev *pd, uint32_t reg, uint32_t v)
{
    plat_write32(pd, reg, v);
    if (n->opts.flush)
        (void)plat_read32(pd, E1000_STATUS);
}

static unsigned wait_step(struct e1000_napi *n)
{
    int p = plat_irq_wait_any(n->pd, n->nports, n->opts.wait_ns);
    if (p < 0 || p >= n->nports) {
        n->stats.timeouts++;
        n->state = E1000_NAPI_POLL;
        return 0;
    }
    n->stats.irqs++;
    uint32_t icr = e1000_irq_handle(n->port[p].dev);
    n->stats.icr_seen |= icr;
    if (!icr) {                 /* not ours (shared line): keep waiting */
        n->stats.not_ours++;
        return 0;
    }
    /* Mask this port until its work is done (NAPI's irq-off polling). */
    write_flush(n, n->pd[p], E1000_IMC, 0xFFFFFFFFu);
    n->masked[p] = 1;
    n->stats.imc_writes++;
    n->state = E1000_NAPI_POLL;
    return 0;
}

static unsigned poll_round(struct e1000_napi *n)
{
    plat_charge(n->pd[0], n->c_poll);
    n->stats.rounds++;
    int again = 0;
    unsigned work = 0;
    for (int i = 0; i < n->nports; i++) {
        struct e1000_napi_port *pt = &n->port[i];
        unsigned tx = 0, rx = 0;
        if (pt->txq && n->opts.tx_clean)
            tx = e1000_tx_clean(pt->txq, pt->tx_done, pt->tx_done_arg);
        if (pt->rxq)
            rx = e1000_rx_poll(pt->rxq, n->opts.weight, pt->deliver, pt->deliver_arg);
        n->stats.tx_reclaimed += tx;
        n->stats.rx_descs += rx;
        work += tx + rx;
        if (rx >= n->opts.weight ||
            (n->opts.exit_rule == E1000_NAPI_EXIT_IDLE && (rx || tx)))
            again = 1;
    }
    if (again) {
        n->stats.full_rounds++;
        return work;
    }
    for (int i = 0; i < n->nports; i++) {
        if (!n->masked[i])
            continue;
        uint32_t ims = n->opts.ims ? n->opts.ims : n->port[i].dev->opts.ims;
        write_flush(n, n->pd[i], E1000_IMS, ims);
        n->masked[i] = 0;
        n->stats.ims_writes++;
    }
    n->state = E1000_NAPI_WAIT;
    return work;
}

unsigned e1000_napi_step(struct e1000_napi *n)
{
    return n->state == E1000_NAPI_WAIT ? wait_step(n) : poll_round(n);
}
