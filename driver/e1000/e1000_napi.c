/* Per-device NAPI for one CPU; see e1000_napi.h. */
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

/* Port p's interrupt, as e1000_intr handles it: the ICR read acknowledges
 * the causes; if there were any, every cause is masked until p's poll is
 * done and p goes to the end of the poll list. */
static void take_irq(struct e1000_napi *n, int p)
{
    n->stats.irqs++;
    n->port_stats[p].irqs++;
    uint32_t icr = e1000_irq_handle(n->port[p].dev);
    n->stats.icr_seen |= icr;
    if (!icr) {                 /* not ours (shared line): p stays off the list */
        n->stats.not_ours++;
        n->port_stats[p].not_ours++;
        return;
    }
    write_flush(n, n->pd[p], E1000_IMC, 0xFFFFFFFFu);
    n->stats.imc_writes++;
    n->polling[p] = 1;
    n->list[n->nlist++] = (uint8_t)p;
    n->state = E1000_NAPI_POLL;
}

static unsigned wait_step(struct e1000_napi *n)
{
    int p = plat_irq_wait_any(n->pd, n->nports, n->opts.wait_ns);
    if (p < 0 || p >= n->nports) {
        n->stats.timeouts++;
        n->sweep = 1;
        n->state = E1000_NAPI_POLL;
        return 0;
    }
    take_irq(n, p);
    return 0;
}

/* Interrupts that became pending on ports off the list while others were
 * polled: without waiting, each port at most once (so a line that stays up
 * with ICR reading 0 cannot hold the CPU here). */
static void take_pending(struct e1000_napi *n)
{
    uint8_t tried[E1000_NAPI_MAX_PORTS] = { 0 };
    for (;;) {
        struct plat_dev *pd[E1000_NAPI_MAX_PORTS];
        int idx[E1000_NAPI_MAX_PORTS], k = 0;
        for (int i = 0; i < n->nports; i++)
            if (!n->polling[i] && !tried[i]) {
                pd[k] = n->pd[i];
                idx[k++] = i;
            }
        if (k == 0)
            return;
        int w = plat_irq_wait_any(pd, k, 0);
        if (w < 0 || w >= k)
            return;
        tried[idx[w]] = 1;
        take_irq(n, idx[w]);
    }
}

/* One port's poll, as e1000_clean: its own TX ring, then its own RX ring.
 * Returns the work done; *stay says whether the exit rule keeps it polling. */
static unsigned poll_port(struct e1000_napi *n, int i, int *stay)
{
    struct e1000_napi_port *pt = &n->port[i];
    struct e1000_napi_port_stats *ps = &n->port_stats[i];
    unsigned tx = 0, rx = 0;
    if (pt->txq && n->opts.tx_clean)
        tx = e1000_tx_clean(pt->txq, pt->tx_done, pt->tx_done_arg);
    if (pt->rxq)
        rx = e1000_rx_poll(pt->rxq, n->opts.weight, pt->deliver, pt->deliver_arg);
    n->stats.tx_reclaimed += tx;
    n->stats.rx_descs += rx;
    ps->polls++;
    ps->tx_reclaimed += tx;
    ps->rx_descs += rx;
    *stay = rx >= n->opts.weight || (n->opts.exit_rule == E1000_NAPI_EXIT_IDLE && (rx || tx));
    return tx + rx;
}

/* Leaving polling (netif_rx_complete + e1000_irq_enable): on this port only. */
static void reenable(struct e1000_napi *n, int i)
{
    uint32_t ims = n->opts.ims ? n->opts.ims : n->port[i].dev->opts.ims;
    write_flush(n, n->pd[i], E1000_IMS, ims);
    n->polling[i] = 0;
    n->stats.ims_writes++;
    n->port_stats[i].ims_writes++;
}

/* After a wait timeout: every port once, none masked, none listed. */
static unsigned sweep_round(struct e1000_napi *n)
{
    unsigned work = 0;
    int stay;
    for (int i = 0; i < n->nports; i++)
        work += poll_port(n, i, &stay);
    n->sweep = 0;
    return work;
}

static unsigned poll_round(struct e1000_napi *n)
{
    unsigned work = 0;
    int kept = 0;
    /* The list is compacted in place: leavers drop out, the others keep
     * their order (Linux moves a device that stays to the tail; polling
     * each once per round keeps the same relative order). */
    for (int j = 0; j < n->nlist; j++) {
        int i = n->list[j], stay;
        work += poll_port(n, i, &stay);
        if (stay) {
            n->port_stats[i].stays++;
            n->list[kept++] = (uint8_t)i;
        } else {
            reenable(n, i);
        }
    }
    n->nlist = kept;
    if (kept)
        n->stats.full_rounds++;
    return work;
}

static unsigned round_step(struct e1000_napi *n)
{
    if (!n->sweep)
        take_pending(n);
    plat_charge(n->pd[0], n->c_poll);
    n->stats.rounds++;
    unsigned work = n->sweep ? sweep_round(n) : poll_round(n);
    n->state = n->nlist ? E1000_NAPI_POLL : E1000_NAPI_WAIT;
    return work;
}

unsigned e1000_napi_step(struct e1000_napi *n)
{
    return n->state == E1000_NAPI_WAIT ? wait_step(n) : round_step(n);
}
