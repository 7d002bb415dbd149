/* The RX ring engine of both driver cores; see rx_ring.h. */
#include "rx_ring.h"
#include "buffer_info.h"
#include <stdlib.h>

_Static_assert(sizeof(struct rx_ring_desc) == 16, "both formats' descriptors are 16 bytes");

int rx_ring_init(struct rx_ring *r, struct plat_dev *pd, const struct rx_ring_fmt *fmt,
                 const struct rx_ring_cfg *cfg, struct pktbuf_pool *pool)
{
    if (pool && cfg->copybreak > pool->small_size)
        return -1;
    *r = (struct rx_ring){
        .pd = pd, .fmt = fmt, .count = cfg->count, .tail_reg = cfg->tail_reg, .fcs = cfg->fcs,
        .copybreak = cfg->copybreak, .rdt_batch = cfg->rdt_batch,
        .tail_per_poll = cfg->tail_per_poll, .skip_rmb = cfg->skip_rmb,
        .prefetch_next_desc = cfg->prefetch_next_desc, .prefetch_cur_hdr = cfg->prefetch_cur_hdr,
        .prefetch_next_hdr = cfg->prefetch_next_hdr,
        .info_bytes = cfg->info_bytes ? cfg->info_bytes : fmt->info_bytes,
    };
    if (pool) {
        r->pool = pool;
        return 0;
    }
    int ixy = cfg->buf_layout == PKTBUF_LAYOUT_IXY;
    /* ixy's metadata is the 64-byte header: a touch beyond it would be data */
    if (cfg->buf_layout > PKTBUF_LAYOUT_IXY ||
        (ixy && (cfg->meta_alloc_touch > PKTBUF_IXY_HEADER || cfg->meta_free_touch > PKTBUF_IXY_HEADER)))
        return -1;
    if (pktbuf_pool_init(&r->own_pool, pd, cfg->copybreak, cfg->pool_max) != 0)
        return -1;
    r->pool = &r->own_pool;
    r->own_pool.layout = cfg->buf_layout;
    if (ixy)
        r->own_pool.alloc_touch = r->own_pool.free_touch = PKTBUF_IXY_HEADER;
    if (cfg->meta_alloc_touch)
        r->own_pool.alloc_touch = cfg->meta_alloc_touch;
    if (cfg->meta_free_touch)
        r->own_pool.free_touch = cfg->meta_free_touch;
    return 0;
}

int rx_ring_alloc(struct rx_ring *r, void *desc)
{
    r->desc = desc;
    r->info = buffer_info_alloc(r->pd, r->count, r->info_bytes);
    r->slot = calloc(r->count, sizeof *r->slot);
    return desc && r->info && r->slot ? 0 : -1;
}

/* A wrap by compare, not by mask: the 8254x's rings are multiples of 8, not
 * powers of 2 (on the 82599's powers of 2 both give the same index). */
static uint32_t ring_next(const struct rx_ring *r, uint32_t i)
{
    return i + 1 == r->count ? 0 : i + 1;
}

void rx_ring_write_tail(struct rx_ring *r)
{
    /* Descriptor stores first: the NIC may fetch as soon as it sees the tail. */
    uint32_t t = (r->next_to_use + r->count - r->fmt->tail_lag) % r->count;
    plat_wmb(r->pd);
    plat_write32(r->pd, r->tail_reg, t);
    r->rdt = t;
    r->since_rdt = 0;
    r->stats.rdt_writes++;
}

/* Re-post slots from next_to_use while fewer than count - 1 are posted.
 * With batch_writes, the tail goes out after every rdt_batch re-posted
 * descriptors; without, the caller writes it. */
static unsigned refill(struct rx_ring *r, int batch_writes)
{
    unsigned n = 0;
    while (r->posted < r->count - 1) {
        uint32_t i = r->next_to_use;
        struct pktbuf *b = r->slot[i];
        if (b) {
            r->stats.reused++;          /* the buffer it held (copybreak, drop) */
        } else {
            b = pktbuf_alloc(r->pool);
            if (!b) {
                r->stats.alloc_fails++;
                break;                  /* retried at the next refill */
            }
            r->slot[i] = b;
        }
        buffer_info_touch(r->pd, r->info, r->info_bytes, i, 1);     /* skb, dma */
        /* The address even for a buffer the slot kept: a write-back may
         * have overwritten it (82599). */
        plat_mem_write64(r->pd, &r->desc[i].qw0, b->bus);
        if (r->fmt->post_zero_qw1)
            plat_mem_write64(r->pd, &r->desc[i].qw1, 0);
        r->next_to_use = ring_next(r, i);
        r->posted++;
        r->since_rdt++;
        r->stats.refills++;
        n++;
        /* Counted from the last tail write, not from ring position 0 as
         * Linux 2.6.1x's e1000_alloc_rx_buffers (RDT = i whenever i is a
         * multiple of 16): both write the tail once per rdt_batch buffers. */
        if (batch_writes && !r->tail_per_poll && r->since_rdt >= r->rdt_batch)
            rx_ring_write_tail(r);
    }
    return n;
}

unsigned rx_ring_fill(struct rx_ring *r)
{
    return refill(r, 0);
}

unsigned rx_ring_refill(struct rx_ring *r)
{
    return refill(r, 1);
}

unsigned rx_ring_nic_owned(const struct rx_ring *r)
{
    return (r->rdt + r->count - r->next_to_clean) % r->count;
}

void rx_ring_fini(struct rx_ring *r)
{
    for (uint32_t i = 0; r->slot && i < r->count; i++)
        if (r->slot[i])
            pktbuf_free(r->pd, r->slot[i]);
    free(r->slot);
    r->slot = NULL;
    r->desc = NULL;
    r->posted = 0;
    if (r->pool == &r->own_pool)
        pktbuf_pool_fini(&r->own_pool);
}

static void prefetch(struct rx_ring *r, const void *p)
{
    plat_prefetch(r->pd, p);
    r->stats.prefetches++;
}

/* Copybreak: the frame goes into a new small buffer; the DMA buffer stays
 * in its slot and is re-posted.  0 when no small buffer was available. */
static int copy_small(struct rx_ring *r, const struct pktbuf *b, struct rx_ring_pkt *pkt)
{
    struct pktbuf *s = pktbuf_copy_small(r->pool, r->pd, b, pkt->len);
    if (!s) {
        r->stats.copy_fails++;
        return 0;
    }
    pkt->data = s->data;
    pkt->bus = s->bus;
    pkt->copied = 1;
    pkt->buf = s;
    r->stats.copybreak++;
    return 1;
}

unsigned rx_ring_poll(struct rx_ring *r, unsigned budget, rx_ring_deliver_fn *deliver,
                      void *arg)
{
    struct plat_dev *pd = r->pd;
    const struct rx_ring_fmt *f = r->fmt;
    unsigned done = 0;
    int refill_failed = 0;
    r->stats.polls++;
    while (done < budget && r->posted) {
        uint32_t i = r->next_to_clean;
        struct pktbuf *b = r->slot[i];
        uint64_t wb = plat_mem_read64(pd, &r->desc[i].qw1);
        r->stats.dd_reads++;
        if (!(wb & f->dd))
            break;
        /* DD first, then whatever it vouches for (the frame's bytes). */
        if (!r->skip_rmb)
            plat_rmb(pd);
        uint32_t next = ring_next(r, i);
        r->next_to_clean = next;
        r->posted--;
        /* skb, dma to unmap; skb = NULL */
        buffer_info_touch(pd, r->info, r->info_bytes, i, 1);
        if (r->prefetch_cur_hdr)                        /* #2 */
            prefetch(r, b->data);
        if (r->prefetch_next_desc)                      /* #1 */
            prefetch(r, &r->desc[next]);
        if (r->prefetch_next_hdr && r->posted)          /* #5 */
            prefetch(r, r->slot[next]->data);
        done++;
        r->stats.descs++;

        uint32_t len = (uint32_t)(wb >> f->len_shift) & 0xFFFFu;
        int eop = (wb & f->eop) != 0;
        if (r->discarding || !eop) {
            /* All receives must fit into one buffer: drop every piece up to
             * and including the EOP descriptor; the buffers stay. */
            if (!r->discarding)
                r->stats.multi_desc++;
            r->discarding = !eop;
        } else if (wb & f->frame_err) {
            r->stats.errors++;                          /* errors valid with DD + EOP */
        } else if (len <= r->fcs || len > b->size) {
            r->stats.length_errors++;
        } else {
            struct rx_ring_pkt pkt = { .len = len - r->fcs };
            /* <= copybreak: a frame of exactly copybreak bytes is copied.
             * Linux's e1000 tests length < copybreak (after length -= 4), so
             * its copybreak N copies at most N - 1 bytes; the two agree for
             * the 64-byte frames of the reference runs. */
            if (!(r->copybreak && pkt.len <= r->copybreak && copy_small(r, b, &pkt))) {
                /* hand the DMA buffer over; the slot gets a new one at refill */
                pkt.data = b->data;
                pkt.bus = b->bus;
                pkt.buf = b;
                r->slot[i] = NULL;
            }
            /* skb_put, protocol, dev: the driver fills the skb's fields */
            plat_mem_touch(pd, pkt.buf->meta, RX_RING_HANDOVER_TOUCH, 1);
            r->stats.packets++;
            r->stats.bytes += pkt.len;
            if (deliver)
                deliver(arg, &pkt, wb);
            else
                pktbuf_free(pd, pkt.buf);
        }
        if (f->clean_zero_qw1)
            plat_mem_write64(pd, &r->desc[i].qw1, 0);

        /* Return buffers to the NIC in groups of rdt_batch (E1000_RX_BUFFER_WRITE),
         * or each at once when the tail goes out per poll. */
        if (!refill_failed && r->count - 1 - r->posted >= (r->tail_per_poll ? 1 : r->rdt_batch)) {
            uint64_t fails = r->stats.alloc_fails;
            refill(r, 1);
            refill_failed = r->stats.alloc_fails != fails;
        }
    }
    refill(r, 1);                                       /* top-up */
    if (r->tail_per_poll && r->since_rdt)
        rx_ring_write_tail(r);
    if (budget && done == budget)
        r->stats.budget_used_up++;
    return done;
}
