/* The ixgbe receive queue; see ixgbe_rx.h. */
#include "ixgbe_rx.h"
#include "../ring/buffer_info.h"
#include <stdlib.h>

/* The 2048-byte pool buffers are what SRRCTL.BSIZEPKT = 2 (1 KB units)
 * tells the NIC, and their bus addresses (PKTBUF_HEADROOM = 18 into an
 * aligned object) are even, as bit 0 of a packet address must be (it lies
 * under DD, nic-facts F9). */
_Static_assert(IXGBE_RX_BUF_SIZE % 1024u == 0, "BSIZEPKT counts whole KB");
_Static_assert(PKTBUF_HEADROOM % 2u == 0, "packet buffer addresses must be even");

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
           o->prefetch_next_hdr <= 1 && o->drop_en <= 1;
}

static uint32_t ring_next(const struct ixgbe_rxq *q, uint32_t i)
{
    return (i + 1) & (q->count - 1);
}

static void rdt_write(struct ixgbe_rxq *q)
{
    /* The 82599 owns [RDH, RDT): the tail is next_to_use itself.  Stores to
     * the descriptors first. */
    plat_wmb(q->pd);
    plat_write32(q->pd, IXGBE_RDT(q->n), q->next_to_use);
    q->rdt = q->next_to_use;
    q->since_rdt = 0;
    q->stats.rdt_writes++;
}

/* Re-post slots from next_to_use while fewer than count - 1 are posted
 * (one slot always stays empty, so a full ring never has RDT == RDH).
 * With batch_writes, RDT goes out after every rdt_batch re-posted
 * descriptors; without, the caller writes it. */
static unsigned refill(struct ixgbe_rxq *q, int batch_writes)
{
    unsigned n = 0;
    while (q->posted < q->count - 1) {
        uint32_t i = q->next_to_use;
        struct pktbuf *b = q->slot[i];
        if (b) {
            q->stats.reused++;          /* the buffer it held (copybreak, drop) */
        } else {
            b = pktbuf_alloc(q->pool);
            if (!b) {
                q->stats.alloc_fails++;
                break;                  /* retried at the next refill */
            }
            q->slot[i] = b;
        }
        buffer_info_touch(q->pd, q->info, IXGBE_RX_BUFFER_INFO_BYTES, i, 1);
        /* Both qwords, even for a buffer the slot kept: the write-back put
         * RSS and packet-type fields where the address was, and the header
         * address 0 clears DD (B2). */
        plat_mem_write64(q->pd, &q->ring[i].pkt_addr, b->bus);
        plat_mem_write64(q->pd, &q->ring[i].hdr_addr, 0);
        q->next_to_use = ring_next(q, i);
        q->posted++;
        q->since_rdt++;
        q->stats.refills++;
        n++;
        if (batch_writes && q->since_rdt >= q->opts.rdt_batch)
            rdt_write(q);
    }
    return n;
}

unsigned ixgbe_rx_refill(struct ixgbe_rxq *q)
{
    return refill(q, 1);
}

unsigned ixgbe_rx_nic_owned(const struct ixgbe_rxq *q)
{
    return (q->rdt + q->count - q->next_to_clean) & (q->count - 1);
}

static void free_soft(struct ixgbe_rxq *q)
{
    for (uint32_t i = 0; q->slot && i < q->count; i++)
        if (q->slot[i])
            pktbuf_free(q->pd, q->slot[i]);
    free(q->slot);
    q->slot = NULL;
    q->posted = 0;
    if (q->pool == &q->own_pool)
        pktbuf_pool_fini(&q->own_pool);
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
    if (pool && o->copybreak > pool->small_size)
        return IXGBE_ERR_PARAM;
    struct plat_dev *pd = dev->pd;
    *q = (struct ixgbe_rxq){ .dev = dev, .pd = pd, .opts = *o, .n = n, .count = o->ring_size,
                             .fcs = dev->opts.crc_strip ? 0 : IXGBE_RX_FCS_LEN };
    if (pool) {
        q->pool = pool;
    } else {
        if (pktbuf_pool_init(&q->own_pool, pd, o->copybreak, o->pool_max) != 0)
            return IXGBE_ERR_PARAM;
        q->pool = &q->own_pool;
        if (o->meta_alloc_touch)
            q->own_pool.alloc_touch = o->meta_alloc_touch;
        if (o->meta_free_touch)
            q->own_pool.free_touch = o->meta_free_touch;
    }

    q->ring = ixgbe_ring_alloc(pd, q->count, &q->ring_bytes, &q->ring_bus);
    q->info = buffer_info_alloc(pd, q->count, IXGBE_RX_BUFFER_INFO_BYTES);
    q->slot = calloc(q->count, sizeof *q->slot);
    if (!q->ring || !q->info || !q->slot) {
        free_soft(q);
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
    plat_write32(pd, IXGBE_RDLEN(n), q->count * IXGBE_DESC_BYTES);
    plat_write32(pd, IXGBE_RDH(n), 0);
    plat_write32(pd, IXGBE_RDT(n), 0);

    /* count - 1 buffers (B1a step 11 writes every descriptor's packet
     * address with header address 0 before the enable). */
    refill(q, 0);
    if (q->posted == 0) {
        free_soft(q);
        return IXGBE_ERR_NOMEM;     /* no buffer at all: the queue cannot start */
    }

    q->rxdctl = IXGBE_RXDCTL_ENABLE;
    plat_write32(pd, IXGBE_RXDCTL(n), q->rxdctl);
    uint32_t v = 0;
    if (!ixgbe_poll_reg(pd, IXGBE_RXDCTL(n), IXGBE_RXDCTL_ENABLE, IXGBE_RXDCTL_ENABLE,
                        o->enable_timeout_ns, &v)) {
        plat_log(pd, "ixgbe: RX queue %u not enabled after %llu ns (RXDCTL 0x%08x)", n,
                 (unsigned long long)o->enable_timeout_ns, v);
        /* withdraw the request before the buffers go back to the pool */
        plat_write32(pd, IXGBE_RXDCTL(n), 0);
        free_soft(q);
        return IXGBE_ERR_QUEUE;
    }
    /* Only now the buffers are handed over: RDT = next_to_use = count - 1. */
    rdt_write(q);
    return 0;
}

void ixgbe_rxq_teardown(struct ixgbe_rxq *q)
{
    if (!q->slot)
        return;
    /* Queue off, and wait until the NIC says so before the buffers go back
     * to the pool: an enabled queue could still write into them. */
    plat_write32(q->pd, IXGBE_RXDCTL(q->n), q->rxdctl & ~IXGBE_RXDCTL_ENABLE);
    uint32_t v = 0;
    if (!ixgbe_poll_reg(q->pd, IXGBE_RXDCTL(q->n), IXGBE_RXDCTL_ENABLE, 0,
                        q->opts.enable_timeout_ns, &v))
        plat_log(q->pd, "ixgbe: RX queue %u still enabled after %llu ns (RXDCTL 0x%08x)",
                 q->n, (unsigned long long)q->opts.enable_timeout_ns, v);
    free_soft(q);
    q->ring = NULL;
}

void ixgbe_rx_pkt_free(struct plat_dev *pd, void *cookie)
{
    pktbuf_free(pd, cookie);
}

static void prefetch(struct ixgbe_rxq *q, const void *p)
{
    plat_prefetch(q->pd, p);
    q->stats.prefetches++;
}

/* Copybreak: the frame goes into a new small buffer; the DMA buffer stays
 * in its slot and is re-posted.  0 when no small buffer was available. */
static int copy_small(struct ixgbe_rxq *q, const struct pktbuf *b, struct ixgbe_rx_pkt *pkt)
{
    struct pktbuf *s = pktbuf_copy_small(q->pool, q->pd, b, pkt->len);
    if (!s) {
        q->stats.copy_fails++;
        return 0;
    }
    pkt->data = s->data;
    pkt->bus = s->bus;
    pkt->copied = 1;
    pkt->cookie = s;
    q->stats.copybreak++;
    return 1;
}

unsigned ixgbe_rx_poll(struct ixgbe_rxq *q, unsigned budget,
                       void (*deliver)(void *arg, struct ixgbe_rx_pkt *pkt), void *arg)
{
    struct plat_dev *pd = q->pd;
    const struct ixgbe_rx_opts *o = &q->opts;
    unsigned done = 0;
    int refill_failed = 0;
    q->stats.polls++;
    while (done < budget && q->posted) {
        uint32_t i = q->next_to_clean;
        struct pktbuf *b = q->slot[i];
        /* The upper qword holds everything the driver needs: status and
         * errors (DW2), PKT_LEN and the VLAN tag (B2). */
        uint64_t wb = plat_mem_read64(pd, &q->ring[i].hdr_addr);
        q->stats.dd_reads++;
        if (!(wb & IXGBE_RXDADV_QW1_DD))
            break;
        /* DD first, then whatever it vouches for (the frame's bytes). */
        plat_rmb(pd);
        uint32_t next = ring_next(q, i);
        q->next_to_clean = next;
        q->posted--;
        buffer_info_touch(pd, q->info, IXGBE_RX_BUFFER_INFO_BYTES, i, 1);
        if (o->prefetch_cur_hdr)                        /* #2 */
            prefetch(q, b->data);
        if (o->prefetch_next_desc)                      /* #1 */
            prefetch(q, &q->ring[next]);
        if (o->prefetch_next_hdr && q->posted)          /* #5 */
            prefetch(q, q->slot[next]->data);
        done++;
        q->stats.descs++;

        uint32_t staterr = (uint32_t)wb;
        uint32_t len = (uint32_t)(wb >> IXGBE_RXDADV_LEN_SHIFT) & 0xFFFFu;
        int eop = (staterr & IXGBE_RXDADV_STAT_EOP) != 0;
        if (q->discarding || !eop) {
            /* One buffer per frame: drop every piece up to and including
             * the EOP descriptor; the buffers stay in their slots. */
            if (!q->discarding)
                q->stats.multi_desc++;
            q->discarding = !eop;
        } else if (staterr & IXGBE_RXDADV_ERR_FRAME_ERR_MASK_82599) {
            q->stats.errors++;                          /* valid with DD + EOP */
        } else if (len <= q->fcs || len > b->size) {
            q->stats.length_errors++;
        } else {
            struct ixgbe_rx_pkt pkt = {
                .len = len - q->fcs,
                .status = staterr & IXGBE_RXDADV_STAT_MASK,
                .errors = staterr & IXGBE_RXDADV_ERR_MASK,
                .vlan = (uint16_t)(wb >> IXGBE_RXDADV_VLAN_SHIFT),
            };
            if (!(o->copybreak && pkt.len <= o->copybreak && copy_small(q, b, &pkt))) {
                /* hand the DMA buffer over; the slot gets a new one at refill */
                pkt.data = b->data;
                pkt.bus = b->bus;
                pkt.cookie = b;
                q->slot[i] = NULL;
            }
            /* skb_put, protocol, dev: the driver fills the skb's fields */
            plat_mem_touch(pd, ((struct pktbuf *)pkt.cookie)->meta,
                           IXGBE_RX_HANDOVER_TOUCH, 1);
            q->stats.packets++;
            q->stats.bytes += pkt.len;
            if (deliver)
                deliver(arg, &pkt);
            else
                ixgbe_rx_pkt_free(pd, pkt.cookie);
        }

        /* Return buffers to the NIC in groups of rdt_batch. */
        if (!refill_failed && q->count - 1 - q->posted >= o->rdt_batch) {
            uint64_t fails = q->stats.alloc_fails;
            refill(q, 1);
            refill_failed = q->stats.alloc_fails != fails;
        }
    }
    refill(q, 1);                                       /* top-up */
    if (budget && done == budget)
        q->stats.budget_used_up++;
    return done;
}
