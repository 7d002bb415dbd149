/* The e1000 receive queue; see e1000_rx.h. */
#include "e1000_rx.h"
#include <stddef.h>

void e1000_rx_default_opts(struct e1000_rx_opts *o)
{
    *o = (struct e1000_rx_opts){
        .ring_size = E1000_DEFAULT_RXD,
        .copybreak = 256,                   /* Linux's module parameter default */
        .rdt_batch = E1000_RX_BUFFER_WRITE,
        .set_rxdctl = 0,
        .gran = 1,
        .rdtr = 0, .radv = 8,               /* RxIntDelay 0, RxAbsIntDelay 8 */
        .rdmts = E1000_RCTL_RDMTS_HALF,
        .secrc = 0,
    };
}

static int opts_valid(const struct e1000_rx_opts *o)
{
    return o->ring_size >= E1000_MIN_RXD && o->ring_size <= E1000_MAX_RXD &&
           o->ring_size % E1000_RING_MULTIPLE == 0 &&
           o->copybreak <= PKTBUF_SIZE && o->meta_alloc_touch <= PKTBUF_META_BYTES &&
           o->meta_free_touch <= PKTBUF_META_BYTES &&
           /* liveness: when the NIC owns nothing, count - 2 re-posted
            * descriptors wait behind RDT; a batch larger would never go out */
           o->rdt_batch >= 1 && o->rdt_batch <= o->ring_size - 2 &&
           o->pthresh <= 63 && o->hthresh <= 63 && o->wthresh <= 63 && o->gran <= 1 &&
           (o->rdmts == E1000_RCTL_RDMTS_HALF || o->rdmts == E1000_RCTL_RDMTS_QUAT ||
            o->rdmts == E1000_RCTL_RDMTS_EIGTH);
}

/* The legacy descriptor's write-back (length, status, errors, special in
 * QW1) and Linux's e1000 handling of it. */
static const struct rx_ring_fmt e1000_rx_fmt = {
    .dd = E1000_RXD_QW1_DD,
    .eop = (uint64_t)E1000_RXD_STAT_EOP << E1000_RXD_STATUS_SHIFT,
    .frame_err = (uint64_t)E1000_RXD_ERR_FRAME_ERR_MASK << E1000_RXD_ERRORS_SHIFT,
    .len_shift = E1000_RXD_LEN_SHIFT,
    .post_zero_qw1 = 0,         /* the read format has only the address */
    .clean_zero_qw1 = 1,        /* Linux: rx_desc->status = 0 */
    .tail_lag = 1,              /* Linux: RDT = next_to_use - 1 */
    .info_bytes = E1000_BUFFER_INFO_BYTES,
};
_Static_assert(sizeof(struct e1000_rx_desc) == sizeof(struct rx_ring_desc) &&
               offsetof(struct e1000_rx_desc, wb) == offsetof(struct rx_ring_desc, qw1),
               "the engine reads the write-back as QW1");

unsigned e1000_rx_refill(struct e1000_rxq *q)
{
    return rx_ring_refill(&q->rx);
}

unsigned e1000_rx_nic_owned(const struct e1000_rxq *q)
{
    return rx_ring_nic_owned(&q->rx);
}

int e1000_rxq_setup(struct e1000_rxq *q, struct e1000_dev *dev, const struct e1000_rx_opts *o,
                    struct pktbuf_pool *pool)
{
    struct e1000_rx_opts def;
    if (!o) {
        e1000_rx_default_opts(&def);
        o = &def;
    }
    if (!q || !dev || !opts_valid(o))
        return E1000_ERR_PARAM;
    struct plat_dev *pd = dev->pd;
    *q = (struct e1000_rxq){ .dev = dev, .pd = pd, .opts = *o };
    const struct rx_ring_cfg cfg = {
        .count = o->ring_size, .tail_reg = E1000_RDT, .fcs = o->secrc ? 0 : E1000_RX_FCS_LEN,
        .copybreak = o->copybreak, .rdt_batch = o->rdt_batch,
        .tail_per_poll = o->tail_per_poll, .skip_rmb = o->skip_rmb,
        .prefetch_next_desc = o->prefetch_next_desc, .prefetch_cur_hdr = o->prefetch_cur_hdr,
        .prefetch_next_hdr = o->prefetch_next_hdr, .pool_max = o->pool_max,
        .meta_alloc_touch = o->meta_alloc_touch, .meta_free_touch = o->meta_free_touch,
    };
    if (rx_ring_init(&q->rx, pd, &e1000_rx_fmt, &cfg, pool) != 0)
        return E1000_ERR_PARAM;
    q->ring = e1000_ring_alloc(pd, o->ring_size, "RX", &q->ring_bytes, &q->ring_bus);
    if (rx_ring_alloc(&q->rx, q->ring) != 0) {
        rx_ring_fini(&q->rx);
        return E1000_ERR_NOMEM;
    }

    /* Receiver still off (RCTL is 0 after reset): ring, thresholds, timers. */
    plat_write32(pd, E1000_RDTR, o->rdtr);
    plat_write32(pd, E1000_RADV, o->radv);
    plat_write32(pd, E1000_RDBAL, (uint32_t)q->ring_bus);
    plat_write32(pd, E1000_RDBAH, (uint32_t)(q->ring_bus >> 32));
    plat_write32(pd, E1000_RDLEN, o->ring_size * E1000_DESC_BYTES);
    plat_write32(pd, E1000_RDH, 0);
    plat_write32(pd, E1000_RDT, 0);
    if (o->set_rxdctl)
        plat_write32(pd, E1000_RXDCTL,
                     ((uint32_t)o->pthresh << E1000_DCTL_PTHRESH_SHIFT) |
                     ((uint32_t)o->hthresh << E1000_DCTL_HTHRESH_SHIFT) |
                     ((uint32_t)o->wthresh << E1000_DCTL_WTHRESH_SHIFT) |
                     (o->gran ? E1000_DCTL_GRAN : 0));
    if (o->set_mac) {
        const uint8_t *m = o->mac;
        plat_write32(pd, E1000_RAL(0), (uint32_t)m[0] | (uint32_t)m[1] << 8 |
                                       (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24);
        plat_write32(pd, E1000_RAH(0), (uint32_t)m[4] | (uint32_t)m[5] << 8 | E1000_RAH_AV);
    }

    /* Post count - 1 buffers and hand them over with one tail write. */
    if (rx_ring_fill(&q->rx) == 0) {
        plat_log(pd, "e1000: no RX buffers could be allocated");
        e1000_rxq_teardown(q);
        return E1000_ERR_NOMEM;
    }
    rx_ring_write_tail(&q->rx);

    /* The receiver last (Linux enables RCTL before it posts the buffers), so
     * the NIC never sees an enabled ring without buffers. */
    q->rctl = E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_LBM_NO | o->rdmts |
              E1000_RCTL_SZ_2048 | (o->secrc ? E1000_RCTL_SECRC : 0) |
              (o->promisc ? E1000_RCTL_UPE | E1000_RCTL_MPE : 0);
    plat_write32(pd, E1000_RCTL, q->rctl);
    return 0;
}

void e1000_rxq_teardown(struct e1000_rxq *q)
{
    if (!q->rx.slot)
        return;
    plat_write32(q->pd, E1000_RCTL, q->rctl & ~E1000_RCTL_EN);
    rx_ring_fini(&q->rx);
    q->ring = NULL;
}

void e1000_rx_pkt_free(struct plat_dev *pd, void *cookie)
{
    pktbuf_free(pd, cookie);
}

/* The engine's frame as Linux's e1000 hands it up: the write-back's
 * status, errors (TCPE, IPE: a frame error never gets here) and special
 * fields beside the buffer. */
struct deliver_to {
    void (*fn)(void *arg, struct e1000_rx_pkt *pkt);
    void *arg;
};

static void deliver_pkt(void *arg, const struct rx_ring_pkt *p, uint64_t wb)
{
    const struct deliver_to *to = arg;
    struct e1000_rx_pkt pkt = {
        .data = p->data,
        .bus = p->bus,
        .len = p->len,
        .status = (uint8_t)(wb >> E1000_RXD_STATUS_SHIFT),
        .errors = (uint8_t)(wb >> E1000_RXD_ERRORS_SHIFT),
        .special = (uint16_t)(wb >> E1000_RXD_SPECIAL_SHIFT),
        .copied = p->copied,
        .cookie = p->buf,
    };
    to->fn(to->arg, &pkt);
}

unsigned e1000_rx_poll(struct e1000_rxq *q, unsigned budget,
                       void (*deliver)(void *arg, struct e1000_rx_pkt *pkt), void *arg)
{
    struct deliver_to to = { deliver, arg };
    return rx_ring_poll(&q->rx, budget, deliver ? deliver_pkt : NULL, &to);
}
