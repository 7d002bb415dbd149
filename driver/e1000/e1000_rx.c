/* The e1000 receive queue; see e1000_rx.h. */
#include "e1000_rx.h"
#include "../ring/buffer_info.h"
#include <stdlib.h>

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

static uint32_t ring_next(const struct e1000_rxq *q, uint32_t i)
{
    return i + 1 == q->count ? 0 : i + 1;
}

static void rdt_write(struct e1000_rxq *q)
{
    /* Linux: RDT = next_to_use - 1, after the descriptor stores are ordered. */
    uint32_t t = q->next_to_use ? q->next_to_use - 1 : q->count - 1;
    plat_wmb(q->pd);
    plat_write32(q->pd, E1000_RDT, t);
    q->rdt = t;
    q->since_rdt = 0;
    q->stats.rdt_writes++;
}

/* Re-post slots from next_to_use while fewer than count - 1 are posted
 * (one slot always stays empty, as Linux's E1000_DESC_UNUSED).  With
 * batch_writes, RDT goes out after every rdt_batch re-posted descriptors;
 * without, the caller writes it. */
static unsigned refill(struct e1000_rxq *q, int batch_writes)
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
        buffer_info_touch(q->pd, q->info, E1000_BUFFER_INFO_BYTES, i, 1);  /* skb, dma */
        plat_mem_write64(q->pd, &q->ring[i].buffer_addr, b->bus);
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

unsigned e1000_rx_refill(struct e1000_rxq *q)
{
    return refill(q, 1);
}

unsigned e1000_rx_nic_owned(const struct e1000_rxq *q)
{
    return (q->rdt + q->count - q->next_to_clean) % q->count;
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
    if (pool && o->copybreak > pool->small_size)
        return E1000_ERR_PARAM;
    struct plat_dev *pd = dev->pd;
    *q = (struct e1000_rxq){ .dev = dev, .pd = pd, .opts = *o, .count = o->ring_size,
                             .fcs = o->secrc ? 0 : E1000_RX_FCS_LEN };
    if (pool) {
        q->pool = pool;
    } else {
        if (pktbuf_pool_init(&q->own_pool, pd, o->copybreak, o->pool_max) != 0)
            return E1000_ERR_PARAM;
        q->pool = &q->own_pool;
        if (o->meta_alloc_touch)
            q->own_pool.alloc_touch = o->meta_alloc_touch;
        if (o->meta_free_touch)
            q->own_pool.free_touch = o->meta_free_touch;
    }

    q->ring = e1000_ring_alloc(pd, q->count, "RX", &q->ring_bytes, &q->ring_bus);
    q->info = buffer_info_alloc(pd, q->count, E1000_BUFFER_INFO_BYTES);
    q->slot = calloc(q->count, sizeof *q->slot);
    if (!q->ring || !q->info || !q->slot) {
        free(q->slot);
        q->slot = NULL;
        if (q->pool == &q->own_pool)
            pktbuf_pool_fini(&q->own_pool);
        return E1000_ERR_NOMEM;
    }

    /* Receiver still off (RCTL is 0 after reset): ring, thresholds, timers. */
    plat_write32(pd, E1000_RDTR, o->rdtr);
    plat_write32(pd, E1000_RADV, o->radv);
    plat_write32(pd, E1000_RDBAL, (uint32_t)q->ring_bus);
    plat_write32(pd, E1000_RDBAH, (uint32_t)(q->ring_bus >> 32));
    plat_write32(pd, E1000_RDLEN, q->count * E1000_DESC_BYTES);
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
    refill(q, 0);
    if (q->posted == 0) {
        plat_log(pd, "e1000: no RX buffers could be allocated");
        e1000_rxq_teardown(q);
        return E1000_ERR_NOMEM;
    }
    rdt_write(q);

    q->rctl = E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_LBM_NO | o->rdmts |
              E1000_RCTL_SZ_2048 | (o->secrc ? E1000_RCTL_SECRC : 0) |
              (o->promisc ? E1000_RCTL_UPE | E1000_RCTL_MPE : 0);
    plat_write32(pd, E1000_RCTL, q->rctl);
    return 0;
}

void e1000_rxq_teardown(struct e1000_rxq *q)
{
    if (!q->slot)
        return;
    plat_write32(q->pd, E1000_RCTL, q->rctl & ~E1000_RCTL_EN);
    for (uint32_t i = 0; i < q->count; i++)
        if (q->slot[i])
            pktbuf_free(q->pd, q->slot[i]);
    free(q->slot);
    q->slot = NULL;
    q->ring = NULL;
    q->posted = 0;
    if (q->pool == &q->own_pool)
        pktbuf_pool_fini(&q->own_pool);
}

void e1000_rx_pkt_free(struct plat_dev *pd, void *cookie)
{
    pktbuf_free(pd, cookie);
}

static void prefetch(struct e1000_rxq *q, const void *p)
{
    plat_prefetch(q->pd, p);
    q->stats.prefetches++;
}

/* Copybreak: the frame goes into a new small buffer; the DMA buffer stays
 * in its slot and is re-posted.  0 when no small buffer was available. */
static int copy_small(struct e1000_rxq *q, const struct pktbuf *b, struct e1000_rx_pkt *pkt)
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

unsigned e1000_rx_poll(struct e1000_rxq *q, unsigned budget,
                       void (*deliver)(void *arg, struct e1000_rx_pkt *pkt), void *arg)
{
    struct plat_dev *pd = q->pd;
    const struct e1000_rx_opts *o = &q->opts;
    unsigned done = 0;
    int refill_failed = 0;
    q->stats.polls++;
    while (done < budget && q->posted) {
        uint32_t i = q->next_to_clean;
        struct pktbuf *b = q->slot[i];
        uint64_t wb = plat_mem_read64(pd, &q->ring[i].wb);
        q->stats.dd_reads++;
        if (!(wb & E1000_RXD_QW1_DD))
            break;
        /* DD first, then whatever it vouches for (the frame's bytes). */
        plat_rmb(pd);
        uint32_t next = ring_next(q, i);
        q->next_to_clean = next;
        q->posted--;
        /* skb, dma to unmap; skb = NULL */
        buffer_info_touch(pd, q->info, E1000_BUFFER_INFO_BYTES, i, 1);
        if (o->prefetch_cur_hdr)                        /* #2 */
            prefetch(q, b->data);
        if (o->prefetch_next_desc)                      /* #1 */
            prefetch(q, &q->ring[next]);
        if (o->prefetch_next_hdr && q->posted)          /* #5 */
            prefetch(q, q->slot[next]->data);
        done++;
        q->stats.descs++;

        uint32_t len = (uint32_t)(wb & E1000_RXD_LEN_MASK);
        uint8_t status = (uint8_t)(wb >> E1000_RXD_STATUS_SHIFT);
        uint8_t errors = (uint8_t)(wb >> E1000_RXD_ERRORS_SHIFT);
        if (q->discarding || !(status & E1000_RXD_STAT_EOP)) {
            /* All receives must fit into one buffer: drop every piece up to
             * and including the EOP descriptor; the buffers stay. */
            if (!q->discarding)
                q->stats.multi_desc++;
            q->discarding = !(status & E1000_RXD_STAT_EOP);
        } else if (errors & E1000_RXD_ERR_FRAME_ERR_MASK) {
            q->stats.errors++;                          /* errors valid with DD + EOP */
        } else if (len <= q->fcs || len > b->size) {
            q->stats.length_errors++;
        } else {
            struct e1000_rx_pkt pkt = {
                .len = len - q->fcs,
                .status = status,
                .errors = errors,
                .special = (uint16_t)(wb >> E1000_RXD_SPECIAL_SHIFT),
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
                           E1000_RX_HANDOVER_TOUCH, 1);
            q->stats.packets++;
            q->stats.bytes += pkt.len;
            if (deliver)
                deliver(arg, &pkt);
            else
                e1000_rx_pkt_free(pd, pkt.cookie);
        }
        /* Linux: rx_desc->status = 0, so a stale DD is never seen again */
        plat_mem_write64(pd, &q->ring[i].wb, 0);

        /* Return buffers to the NIC in groups, as E1000_RX_BUFFER_WRITE. */
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
