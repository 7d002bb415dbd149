/* The ixgbe receive queue; see ixgbe_rx.h. */
#include "ixgbe_rx.h"
#include "../ring/reg_poll.h"
#include <stddef.h>

/* The 2048-byte pool buffers are what SRRCTL.BSIZEPKT = 2 (1 KB units)
 * tells the NIC, and their bus addresses (PKTBUF_HEADROOM = 18 into an
 * aligned object, or PKTBUF_IXY_HEADER into an ixy entry) are even, as bit
 * 0 of a packet address must be (it lies under DD, nic-facts F9).  An ixy
 * entry holds 64 bytes less than BSIZEPKT says, as in ixy (its comment:
 * fine for frames up to 1518 bytes); the poll drops a longer frame as a
 * length error rather than let it run into the next entry's header. */
_Static_assert(IXGBE_RX_BUF_SIZE % 1024u == 0, "BSIZEPKT counts whole KB");
_Static_assert(PKTBUF_HEADROOM % 2u == 0 && PKTBUF_IXY_HEADER % 2u == 0, "packet buffer addresses must be even");

void ixgbe_rx_default_opts(struct ixgbe_rx_opts *o)
{
    *o = (struct ixgbe_rx_opts){
        .ring_size = IXGBE_DEFAULT_RXD,
        .copybreak = 256,
        .rdt_batch = IXGBE_RX_BUFFER_WRITE,
        .drop_en = 1,
        .enable_timeout_ns = 10000000ull,
    };
}

static int opts_valid(const struct ixgbe_rx_opts *o)
{
    uint32_t r = o->ring_size;
    return r >= IXGBE_MIN_RXD && r <= IXGBE_MAX_RXD && (r & (r - 1)) == 0 &&
           o->copybreak <= IXGBE_RX_BUF_SIZE && o->meta_alloc_touch <= PKTBUF_META_BYTES &&
           o->meta_free_touch <= PKTBUF_META_BYTES &&
           /* liveness: when the NIC owns nothing, up to count - 1 re-posted
            * descriptors wait behind RDT; a larger batch would never go out */
           o->rdt_batch >= 1 && o->rdt_batch <= r - 1 &&
           o->prefetch_next_desc <= 1 && o->prefetch_cur_hdr <= 1 &&
           o->prefetch_next_hdr <= 1 && o->drop_en <= 1 && o->pthresh <= IXGBE_TXDCTL_THRESH_MAX &&
           o->hthresh <= IXGBE_TXDCTL_THRESH_MAX && o->wthresh <= IXGBE_TXDCTL_THRESH_MAX &&
           o->info_bytes <= IXGBE_INFO_BYTES_MAX && o->buf_layout <= PKTBUF_LAYOUT_IXY &&
           (o->buf_layout != PKTBUF_LAYOUT_IXY ||
            (o->meta_alloc_touch <= PKTBUF_IXY_HEADER && o->meta_free_touch <= PKTBUF_IXY_HEADER));
}

/* The advanced one-buffer descriptor (B2) as ixy and Linux's ixgbe use it. */
static const struct rx_ring_fmt ixgbe_rx_fmt = {
    .dd = IXGBE_RXDADV_QW1_DD,
    .eop = IXGBE_RXDADV_QW1_EOP,
    .frame_err = IXGBE_RXDADV_ERR_FRAME_ERR_MASK_82599,
    .len_shift = IXGBE_RXDADV_LEN_SHIFT,
    /* Both qwords on every post, even for a buffer the slot kept: the
     * write-back put RSS and packet-type fields where the address was, and
     * the header address 0 clears DD (B2); so nothing is cleared after use. */
    .post_zero_qw1 = 1,
    .clean_zero_qw1 = 0,
    .tail_lag = 0,              /* the 82599 owns [RDH, RDT): RDT = next_to_use */
    .info_bytes = IXGBE_RX_BUFFER_INFO_BYTES,
};
_Static_assert(sizeof(struct ixgbe_adv_rx_desc) == sizeof(struct rx_ring_desc) &&
               offsetof(struct ixgbe_adv_rx_desc, pkt_addr) == offsetof(struct rx_ring_desc, qw0) &&
               offsetof(struct ixgbe_adv_rx_desc, hdr_addr) == offsetof(struct rx_ring_desc, qw1),
               "the engine posts QW0 (and QW1) and reads the write-back as QW1");

unsigned ixgbe_rx_refill(struct ixgbe_rxq *q)
{
    return rx_ring_refill(&q->rx);
}

unsigned ixgbe_rx_nic_owned(const struct ixgbe_rxq *q)
{
    return rx_ring_nic_owned(&q->rx);
}

int ixgbe_rxq_setup(struct ixgbe_rxq *q, struct ixgbe_dev *dev, unsigned n,
                    const struct ixgbe_rx_opts *o, struct pktbuf_pool *pool)
{
    struct ixgbe_rx_opts def;
    if (!o) {
        ixgbe_rx_default_opts(&def);
        o = &def;
    }
    if (!q || !dev || n >= IXGBE_SRRCTL_QUEUES || !opts_valid(o))
        return IXGBE_ERR_PARAM;
    struct plat_dev *pd = dev->pd;
    *q = (struct ixgbe_rxq){ .dev = dev, .pd = pd, .opts = *o, .n = n };
    const struct rx_ring_cfg cfg = {
        .count = o->ring_size, .tail_reg = IXGBE_RDT(n),
        .fcs = dev->opts.crc_strip ? 0 : IXGBE_RX_FCS_LEN,
        .copybreak = o->copybreak, .rdt_batch = o->rdt_batch,
        .tail_per_poll = o->tail_per_poll, .skip_rmb = o->skip_rmb,
        .prefetch_next_desc = o->prefetch_next_desc, .prefetch_cur_hdr = o->prefetch_cur_hdr,
        .prefetch_next_hdr = o->prefetch_next_hdr, .pool_max = o->pool_max,
        .meta_alloc_touch = o->meta_alloc_touch, .meta_free_touch = o->meta_free_touch,
        .buf_layout = o->buf_layout, .info_bytes = o->info_bytes,
    };
    if (rx_ring_init(&q->rx, pd, &ixgbe_rx_fmt, &cfg, pool) != 0)
        return IXGBE_ERR_PARAM;
    q->ring = ixgbe_ring_alloc(pd, o->ring_size, &q->ring_bytes, &q->ring_bus);
    if (rx_ring_alloc(&q->rx, q->ring) != 0) {
        rx_ring_fini(&q->rx);
        return IXGBE_ERR_NOMEM;
    }

    /* Queue still disabled (RXDCTL is 0 after reset): buffer size and
     * descriptor type, then the ring (B1a step 9). */
    q->srrctl = (IXGBE_RX_BUF_SIZE >> IXGBE_SRRCTL_BSIZEPKT_SHIFT) |
                IXGBE_SRRCTL_DESCTYPE_ADV_ONEBUF | (o->drop_en ? IXGBE_SRRCTL_DROP_EN : 0);
    plat_write32(pd, IXGBE_SRRCTL(n), q->srrctl);
    uint32_t dca = plat_read32(pd, IXGBE_DCA_RXCTRL(n));
    plat_write32(pd, IXGBE_DCA_RXCTRL(n), dca & ~IXGBE_DCA_RXCTRL_RSVD12);
    plat_write32(pd, IXGBE_RDBAL(n), (uint32_t)q->ring_bus);
    plat_write32(pd, IXGBE_RDBAH(n), (uint32_t)(q->ring_bus >> 32));
    plat_write32(pd, IXGBE_RDLEN(n), o->ring_size * IXGBE_DESC_BYTES);
    plat_write32(pd, IXGBE_RDH(n), 0);
    plat_write32(pd, IXGBE_RDT(n), 0);

    /* count - 1 buffers (B1a step 11 writes every descriptor's packet
     * address with header address 0 before the enable). */
    if (rx_ring_fill(&q->rx) == 0) {
        rx_ring_fini(&q->rx);
        return IXGBE_ERR_NOMEM;     /* no buffer at all: the queue cannot start */
    }

    /* RXDCTL's thresholds sit where TXDCTL's do (B3) */
    q->rxdctl = (uint32_t)o->pthresh << IXGBE_TXDCTL_PTHRESH_SHIFT |
                (uint32_t)o->hthresh << IXGBE_TXDCTL_HTHRESH_SHIFT |
                (uint32_t)o->wthresh << IXGBE_TXDCTL_WTHRESH_SHIFT | IXGBE_RXDCTL_ENABLE;
    plat_write32(pd, IXGBE_RXDCTL(n), q->rxdctl);
    uint32_t v = 0;
    uint64_t waited;
    if (!reg_poll(pd, IXGBE_RXDCTL(n), IXGBE_RXDCTL_ENABLE, IXGBE_RXDCTL_ENABLE, o->enable_timeout_ns, &v,
                  &waited)) {
        plat_log(pd, "ixgbe: RX queue %u not enabled after %llu ns (RXDCTL 0x%08x)", n,
                 (unsigned long long)waited, v);
        /* withdraw the request before the buffers go back to the pool */
        plat_write32(pd, IXGBE_RXDCTL(n), 0);
        rx_ring_fini(&q->rx);
        return IXGBE_ERR_QUEUE;
    }
    /* Only now the buffers are handed over: RDT = next_to_use = count - 1. */
    rx_ring_write_tail(&q->rx);
    return 0;
}

void ixgbe_rxq_teardown(struct ixgbe_rxq *q)
{
    if (!q->rx.slot)
        return;
    /* Queue off, and wait until the NIC says so before the buffers go back
     * to the pool: an enabled queue could still write into them. */
    plat_write32(q->pd, IXGBE_RXDCTL(q->n), q->rxdctl & ~IXGBE_RXDCTL_ENABLE);
    uint32_t v = 0;
    if (!reg_poll_to_end(q->pd, IXGBE_RXDCTL(q->n), IXGBE_RXDCTL_ENABLE, 0, q->opts.enable_timeout_ns, &v, NULL))
        plat_log(q->pd, "ixgbe: RX queue %u still enabled after %llu ns (RXDCTL 0x%08x)",
                 q->n, (unsigned long long)q->opts.enable_timeout_ns, v);
    rx_ring_fini(&q->rx);
    q->ring = NULL;
}

void ixgbe_rx_pkt_free(struct plat_dev *pd, void *cookie)
{
    pktbuf_free(pd, cookie);
}

/* The engine's frame with what the advanced write-back says of it: the
 * extended status, the errors in place (TCPE, IPE, ...: RXE never gets
 * here) and the VLAN field. */
struct deliver_to {
    void (*fn)(void *arg, struct ixgbe_rx_pkt *pkt);
    void *arg;
};

static void deliver_pkt(void *arg, const struct rx_ring_pkt *p, uint64_t wb)
{
    const struct deliver_to *to = arg;
    uint32_t staterr = (uint32_t)wb;
    struct ixgbe_rx_pkt pkt = {
        .data = p->data,
        .bus = p->bus,
        .len = p->len,
        .status = staterr & IXGBE_RXDADV_STAT_MASK,
        .errors = staterr & IXGBE_RXDADV_ERR_MASK,
        .vlan = (uint16_t)(wb >> IXGBE_RXDADV_VLAN_SHIFT),
        .copied = p->copied,
        .cookie = p->buf,
    };
    to->fn(to->arg, &pkt);
}

unsigned ixgbe_rx_poll(struct ixgbe_rxq *q, unsigned budget,
                       void (*deliver)(void *arg, struct ixgbe_rx_pkt *pkt), void *arg)
{
    struct deliver_to to = { deliver, arg };
    return rx_ring_poll(&q->rx, budget, deliver ? deliver_pkt : NULL, &to);
}
