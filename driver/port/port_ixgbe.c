/* The ixgbe core as a port; see port_ixgbe.h.  The queue tables' functions
 * are plain forwards: the ixgbe queues have the e1000's shape
 * (ixgbe_tx.h, ixgbe_rx.h), so an app drives them exactly as it drives an
 * e1000 queue. */
#include "port_ixgbe.h"
#include <stdio.h>

_Static_assert((int)IXGBE_ERR_BUSY == NIC_TXQ_BUSY, "ixgbe BUSY differs from the queue table's");

/* Device IDs (Linux's ixgbe_type.h): the 82599 functions. */
static const uint16_t ixgbe_ids[] = {
    0x10F7, 0x10F8, 0x10F9, 0x10FB, 0x10FC, 0x1514, 0x1517, 0x151C, 0x1529,
    0x152A, 0x1557, 0x154D, 0x154F, 0x1558, 0x10D8,
};

/* MPC and RNBC of packet buffer 0: the only one the bring-up gives memory
 * (RXPBSIZE(1..7) = 0), so the others stay 0. */
static const struct nic_port_stat_regs ixgbe_stat_regs = {
    .gptc = IXGBE_GPTC, .tpt = IXGBE_TPT, .gotcl = IXGBE_GOTCL, .gotch = IXGBE_GOTCH,
    .gprc = IXGBE_GPRC, .gorcl = IXGBE_GORCL, .gorch = IXGBE_GORCH, .mpc = IXGBE_MPC(0),
    .rnbc = IXGBE_RNBC(0), .crcerrs = IXGBE_CRCERRS, .ruc = IXGBE_RUC, .roc = IXGBE_ROC,
};

struct ixgbe_port *port_ixgbe(struct nic_port *p)
{
    return p && p->core == &port_ixgbe_core ? p->state : NULL;
}

static void default_opts(void *opts)
{
    struct ixgbe_port_opts *o = opts;
    ixgbe_dev_default_opts(&o->dev);
    ixgbe_rx_default_opts(&o->rx);
    ixgbe_tx_default_opts(&o->tx);
    o->eitr_us = 0;
    o->napi = 0;
    ixgbe_napi_default_opts(&o->napi_opts);
}

static int dev_error(int rc)
{
    return rc == IXGBE_ERR_LINK ? NIC_PORT_ERR_LINK : rc == IXGBE_ERR_PARAM ? NIC_PORT_ERR_PARAM : NIC_PORT_ERR_DEV;
}

/* The ring sizes the schema lets through that the 82599 refuses. */
static const char *ring_hint(int rc, const char *rule)
{
    return rc == IXGBE_ERR_PARAM ? rule : "";
}

static int up(struct nic_port *p, const void *opts, const struct nic_port_want *w)
{
    const struct ixgbe_port_opts *o = opts;
    struct ixgbe_port *s = p->state;
    struct ixgbe_dev_opts dopt = o->dev;
    if (w->promisc)
        dopt.promisc = 1;
    if (w->link_timeout_ns)
        dopt.link_timeout_ns = w->link_timeout_ns;
    int rc = ixgbe_dev_init(&s->dev, p->pd, &dopt);
    if (rc != 0) {
        snprintf(p->err, sizeof p->err, "ixgbe bring-up failed (%d%s)", rc, ixgbe_dev_init_why(rc));
        return dev_error(rc);
    }
    if (w->rx) {
        rc = ixgbe_rxq_setup(&s->rxq, &s->dev, 0, &o->rx, NULL);
        s->rxq_up = rc == 0;
        if (rc != 0) {
            snprintf(p->err, sizeof p->err, "RX ring setup failed (%d%s)", rc,
                     ring_hint(rc, ": driver.rx_ring must be a power of 2, 64..4096"));
            return NIC_PORT_ERR_RX;
        }
    }
    struct ixgbe_tx_opts topt = o->tx;
    if (o->napi && ixgbe_napi_wthresh(&o->napi_opts, &topt.wthresh) != 0) {
        snprintf(p->err, sizeof p->err, "driver.rx_usecs %u out of range (0..%u)", o->napi_opts.rx_usecs,
                 IXGBE_ITR_MAX_USECS);
        return NIC_PORT_ERR_PARAM;
    }
    if (w->tx) {
        rc = ixgbe_txq_setup(&s->txq, &s->dev, 0, &topt);
        s->txq_up = rc == 0;
        if (rc != 0) {
            snprintf(p->err, sizeof p->err, "TX ring setup failed (%d%s)", rc,
                     ring_hint(rc, ": driver.tx_ring must be a multiple of 8, 64..4096"));
            return NIC_PORT_ERR_TX;
        }
    }
    /* Queue 0's cause is EICR bit 0 (rtl/ixgbe_intr.v's fixed mapping, the
     * 82599's default IVAR-less routing), throttled by EITR(0): the interval
     * before the mask, so no interrupt comes unthrottled. */
    if (w->irq && o->napi) {
        /* the vector programs EITR(0), EIAC, EIAM and EIMS itself */
        if (!s->txq_up || ixgbe_napi_init(&s->napi, &s->dev, &s->txq, &o->napi_opts) != 0) {
            snprintf(p->err, sizeof p->err, "the NAPI vector needs the TX queue with RS on every packet "
                     "and DD reclaim");
            return NIC_PORT_ERR_IRQ;
        }
        s->napi_up = 1;
    } else if (w->irq) {
        if (ixgbe_set_eitr(&s->dev, 0, o->eitr_us) != 0) {
            snprintf(p->err, sizeof p->err, "driver.eitr_us %u out of range", o->eitr_us);
            return NIC_PORT_ERR_IRQ;
        }
        ixgbe_irq_enable(&s->dev, 1u << 0);
    }
    return 0;
}

static void down(struct nic_port *p)
{
    struct ixgbe_port *s = p->state;
    if (s->rxq_up)
        ixgbe_rxq_teardown(&s->rxq);
    if (s->txq_up)
        ixgbe_txq_teardown(&s->txq, NULL, NULL);
    s->rxq_up = s->txq_up = s->napi_up = 0;
}

/* ---- the queue tables ---- */

static int t_xmit(void *q, uint64_t bus, uint32_t len, void *cookie, int more)
{
    return ixgbe_xmit(q, bus, len, cookie, more);
}

static unsigned t_clean(void *q, void (*done)(void *arg, void *cookie), void *arg)
{
    return ixgbe_tx_clean(q, done, arg);
}

static void t_flush(void *q)
{
    ixgbe_tx_flush(q);
}

static unsigned t_free_descs(const void *q)
{
    return ixgbe_tx_free_descs(q);
}

static void t_irq_handle(void *q)
{
    ixgbe_irq_handle(((struct ixgbe_txq *)q)->dev);
}

static uint64_t t_tdt_writes(const void *q)
{
    return ((const struct ixgbe_txq *)q)->stats.tdt_writes;
}

void port_ixgbe_txq_ops(struct nic_txq_ops *ops, struct ixgbe_txq *q)
{
    *ops = (struct nic_txq_ops){
        .q = q,
        .xmit = t_xmit,
        .clean = t_clean,
        .flush = t_flush,
        .free_descs = t_free_descs,
        .irq_handle = t_irq_handle,
        .tdt_writes = t_tdt_writes,
        .clean_thresh = q ? q->opts.clean_thresh : 0,
        .ring_size = q ? q->count : 0,
        .max_frame_len = q ? q->opts.max_frame_len : 0,
    };
}

/* ---- the queue table of the NAPI vector ---- */

static int n_xmit(void *q, uint64_t bus, uint32_t len, void *cookie, int more)
{
    return ixgbe_napi_xmit(q, bus, len, cookie, more);
}

static unsigned n_clean(void *q, void (*done)(void *arg, void *cookie), void *arg)
{
    return ixgbe_tx_clean(((struct ixgbe_napi *)q)->txq, done, arg);
}

static void n_flush(void *q)
{
    ixgbe_tx_flush(((struct ixgbe_napi *)q)->txq);
}

static unsigned n_free_descs(const void *q)
{
    return ixgbe_tx_free_descs(((const struct ixgbe_napi *)q)->txq);
}

static void n_irq_handle(void *q)
{
    ixgbe_napi_irq(q);
}

static uint64_t n_tdt_writes(const void *q)
{
    return ((const struct ixgbe_napi *)q)->txq->stats.tdt_writes;
}

static int n_stopped(const void *q)
{
    return ixgbe_napi_stopped(q);
}

static int n_poll(void *q, void (*done)(void *arg, void *cookie), void *arg)
{
    return ixgbe_napi_poll(q, done, arg);
}

static void n_stats(const void *q, struct nic_txq_napi_stats *st)
{
    const struct ixgbe_napi *n = q;
    const struct ixgbe_napi_stats *s = &n->stats;
    *st = (struct nic_txq_napi_stats){
        .irqs = s->irqs, .polls = s->polls, .full_polls = s->full_polls, .completes = s->completes,
        .max_run = s->max_run, .stops = s->stops, .busy = s->busy, .restarts = s->restarts,
        .wakes = s->wakes, .itr_writes = s->eitr_writes, .itr_first = s->itr_first,
        .itr_min = s->itr_min, .itr_max = s->itr_max, .itr_last = n->itr,
        .wthresh = (n->txq->txdctl >> IXGBE_TXDCTL_WTHRESH_SHIFT) & 0x7F,
    };
}

void port_ixgbe_napi_txq_ops(struct nic_txq_ops *ops, struct ixgbe_napi *n)
{
    port_ixgbe_txq_ops(ops, n ? n->txq : NULL);
    if (!n)
        return;
    ops->q = n;
    ops->xmit = n_xmit;
    ops->clean = n_clean;
    ops->flush = n_flush;
    ops->free_descs = n_free_descs;
    ops->irq_handle = n_irq_handle;
    ops->tdt_writes = n_tdt_writes;
    ops->stopped = n_stopped;
    ops->napi_poll = n_poll;
    ops->napi_stats = n_stats;
}

/* The poll hands the ring's frames over as (data, len, cookie). */
static unsigned r_poll(void *q, unsigned budget, nic_rx_got_fn got, void *arg)
{
    return nic_port_rx_ring_poll(&((struct ixgbe_rxq *)q)->rx, budget, got, arg);
}

static void r_irq_handle(void *q)
{
    ixgbe_irq_handle(((struct ixgbe_rxq *)q)->dev);
}

void port_ixgbe_rxq_ops(struct nic_rxq_ops *ops, struct ixgbe_rxq *q)
{
    *ops = (struct nic_rxq_ops){ .q = q, .poll = r_poll, .pkt_free = ixgbe_rx_pkt_free,
                                 .irq_handle = r_irq_handle };
}

static void txq_ops(struct nic_port *p, struct nic_txq_ops *ops)
{
    struct ixgbe_port *s = port_ixgbe(p);
    if (s->napi_up)
        port_ixgbe_napi_txq_ops(ops, &s->napi);
    else
        port_ixgbe_txq_ops(ops, &s->txq);
}

static void rxq_ops(struct nic_port *p, struct nic_rxq_ops *ops)
{
    port_ixgbe_rxq_ops(ops, &port_ixgbe(p)->rxq);
}

static void rx_drops(const struct nic_port *p, struct nic_port_rx_drops *d)
{
    const struct ixgbe_port *s = p->state;
    nic_port_rx_drops_of(s && s->rxq_up ? &s->rxq.rx.stats : NULL, d);
}

static void quiesce(struct plat_dev *pd)
{
    plat_write32(pd, IXGBE_EIMC, IXGBE_EIMC_ALL);
    (void)plat_read32(pd, IXGBE_EICR);
    plat_write32(pd, IXGBE_CTRL, plat_read32(pd, IXGBE_CTRL) | IXGBE_CTRL_RST);
}

/* tdt_writes stays NULL: the run's JSON has reported the e1000 queue's tail
 * writes only, and 0 on an 82599 port (kept as it was while the layers were
 * drawn; issue 22 reports the ixgbe queue's). */
/* The TX queue's tail writes (pktgen's, the NAPI vector's and the
 * forwarders' all go through the port's one TX queue). */
static uint64_t tdt_writes(const struct nic_port *p)
{
    const struct ixgbe_port *s = p->state;
    return s ? s->txq.stats.tdt_writes : 0;
}

const struct nic_port_core port_ixgbe_core = {
    .name = "ixgbe",
    .parts = "82599",
    .pci_ids = ixgbe_ids,
    .n_pci_ids = sizeof ixgbe_ids / sizeof ixgbe_ids[0],
    .opts_size = sizeof(struct ixgbe_port_opts),
    .state_size = sizeof(struct ixgbe_port),
    .default_opts = default_opts,
    .up = up,
    .down = down,
    .txq_ops = txq_ops,
    .rxq_ops = rxq_ops,
    .stat_regs = &ixgbe_stat_regs,
    .rx_drops = rx_drops,
    .tdt_writes = tdt_writes,
    .quiesce = quiesce,
};
