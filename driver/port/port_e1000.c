/* The e1000 core as a port; see port_e1000.h.  The queue tables' functions
 * are plain forwards, so an app makes exactly the calls it would make
 * calling the core directly. */
#include "port_e1000.h"
#include <stdio.h>

/* xmit's result reaches the app unchanged: the busy code must mean the same.
 * (The cast: they are constants of different enums.) */
_Static_assert((int)E1000_ERR_BUSY == NIC_TXQ_BUSY, "e1000 BUSY differs from the queue table's");

/* Device IDs (Linux's e1000_hw.h): the 82540..82546 family with legacy
 * descriptors. */
static const uint16_t e1000_ids[] = {
    0x100E, 0x100F, 0x1011, 0x1010, 0x1012, 0x101D, 0x1026, 0x1027, 0x1028,
    0x1079, 0x107A, 0x107B, 0x108A, 0x1099, 0x10B5, 0x1015, 0x1016, 0x1017, 0x101E,
};

static const struct nic_port_stat_regs e1000_stat_regs = {
    .gptc = E1000_GPTC, .tpt = E1000_TPT, .gotcl = E1000_GOTCL, .gotch = E1000_GOTCH,
    .gprc = E1000_GPRC, .gorcl = E1000_GORCL, .gorch = E1000_GORCH, .mpc = E1000_MPC,
    .rnbc = E1000_RNBC, .crcerrs = E1000_CRCERRS, .ruc = E1000_RUC, .roc = E1000_ROC,
};

struct e1000_port *port_e1000(struct nic_port *p)
{
    return p && p->core == &port_e1000_core ? p->state : NULL;
}

static void default_opts(void *opts)
{
    struct e1000_port_opts *o = opts;
    e1000_dev_default_opts(&o->dev);
    e1000_rx_default_opts(&o->rx);
    e1000_tx_default_opts(&o->tx);
}

static int dev_error(int rc)
{
    return rc == E1000_ERR_LINK ? NIC_PORT_ERR_LINK : rc == E1000_ERR_PARAM ? NIC_PORT_ERR_PARAM : NIC_PORT_ERR_DEV;
}

/* The causes come from the device options' IMS (e1000_dev_init programs
 * it): want.irq needs no step of its own. */
static int up(struct nic_port *p, const void *opts, const struct nic_port_want *w)
{
    const struct e1000_port_opts *o = opts;
    struct e1000_port *s = p->state;
    struct e1000_dev_opts dopt = o->dev;
    if (w->no_tx_irq)
        dopt.ims &= ~E1000_IMS_TXDW;
    if (w->link_timeout_ns)
        dopt.link_timeout_ns = w->link_timeout_ns;
    int rc = e1000_dev_init(&s->dev, p->pd, &dopt);
    if (rc != 0) {
        snprintf(p->err, sizeof p->err, "e1000 bring-up failed (%d%s)", rc, e1000_dev_init_why(rc));
        return dev_error(rc);
    }
    if (w->rx) {
        struct e1000_rx_opts ropt = o->rx;
        if (w->promisc)
            ropt.promisc = 1;
        rc = e1000_rxq_setup(&s->rxq, &s->dev, &ropt, NULL);
        s->rxq_up = rc == 0;
        if (rc != 0) {
            snprintf(p->err, sizeof p->err, "RX ring setup failed (%d)", rc);
            return NIC_PORT_ERR_RX;
        }
    }
    if (w->tx) {
        rc = e1000_txq_setup(&s->txq, &s->dev, &o->tx);
        s->txq_up = rc == 0;
        if (rc != 0) {
            snprintf(p->err, sizeof p->err, "TX ring setup failed (%d)", rc);
            return NIC_PORT_ERR_TX;
        }
    }
    return 0;
}

static void down(struct nic_port *p)
{
    struct e1000_port *s = p->state;
    if (s->rxq_up)
        e1000_rxq_teardown(&s->rxq);
    if (s->txq_up)
        e1000_txq_teardown(&s->txq, NULL, NULL);
    s->rxq_up = s->txq_up = 0;
}

/* ---- the queue tables ---- */

static int t_xmit(void *q, uint64_t bus, uint32_t len, void *cookie, int more)
{
    return e1000_xmit(q, bus, len, cookie, more);
}

static unsigned t_clean(void *q, void (*done)(void *arg, void *cookie), void *arg)
{
    return e1000_tx_clean(q, done, arg);
}

static void t_flush(void *q)
{
    e1000_tx_flush(q);
}

static unsigned t_free_descs(const void *q)
{
    return e1000_tx_free_descs(q);
}

static void t_irq_handle(void *q)
{
    e1000_irq_handle(((struct e1000_txq *)q)->dev);
}

static uint64_t t_tdt_writes(const void *q)
{
    return ((const struct e1000_txq *)q)->stats.tdt_writes;
}

void port_e1000_txq_ops(struct nic_txq_ops *ops, struct e1000_txq *q)
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

/* The poll hands the ring's frames over as (data, len, cookie). */
static unsigned r_poll(void *q, unsigned budget, nic_rx_got_fn got, void *arg)
{
    return nic_port_rx_ring_poll(&((struct e1000_rxq *)q)->rx, budget, got, arg);
}

static void r_irq_handle(void *q)
{
    e1000_irq_handle(((struct e1000_rxq *)q)->dev);
}

void port_e1000_rxq_ops(struct nic_rxq_ops *ops, struct e1000_rxq *q)
{
    *ops = (struct nic_rxq_ops){ .q = q, .poll = r_poll, .pkt_free = e1000_rx_pkt_free,
                                 .irq_handle = r_irq_handle };
}

static void txq_ops(struct nic_port *p, struct nic_txq_ops *ops)
{
    port_e1000_txq_ops(ops, &port_e1000(p)->txq);
}

static void rxq_ops(struct nic_port *p, struct nic_rxq_ops *ops)
{
    port_e1000_rxq_ops(ops, &port_e1000(p)->rxq);
}

static void rx_drops(const struct nic_port *p, struct nic_port_rx_drops *d)
{
    const struct e1000_port *s = p->state;
    nic_port_rx_drops_of(s && s->rxq_up ? &s->rxq.rx.stats : NULL, d);
}

static uint64_t tdt_writes(const struct nic_port *p)
{
    const struct e1000_port *s = p->state;
    return s ? s->txq.stats.tdt_writes : 0;
}

static void quiesce(struct plat_dev *pd)
{
    plat_write32(pd, E1000_IMC, 0xFFFFFFFFu);
    (void)plat_read32(pd, E1000_ICR);
    plat_write32(pd, E1000_CTRL, plat_read32(pd, E1000_CTRL) | E1000_CTRL_RST);
}

const struct nic_port_core port_e1000_core = {
    .name = "e1000",
    .parts = "8254x/82546",
    .pci_ids = e1000_ids,
    .n_pci_ids = sizeof e1000_ids / sizeof e1000_ids[0],
    .opts_size = sizeof(struct e1000_port_opts),
    .state_size = sizeof(struct e1000_port),
    .default_opts = default_opts,
    .up = up,
    .down = down,
    .txq_ops = txq_ops,
    .rxq_ops = rxq_ops,
    .stat_regs = &e1000_stat_regs,
    .rx_drops = rx_drops,
    .tdt_writes = tdt_writes,
    .quiesce = quiesce,
};
