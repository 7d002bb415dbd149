/* Packet buffers (the skb allocator model); see pktbuf.h. */
#include "pktbuf.h"
#include <stdlib.h>

/* One growth step: n buffers of one kind, their data and metadata blocks. */
struct pktbuf_chunk {
    struct pktbuf_chunk *next;
    struct pktbuf *bufs;
    uint32_t n;
};

int pktbuf_pool_init(struct pktbuf_pool *p, struct plat_dev *pd, uint32_t small_size,
                     uint32_t max_bufs)
{
    if (!p || !pd || small_size > PKTBUF_SIZE)
        return -1;
    *p = (struct pktbuf_pool){
        .pd = pd,
        .small_size = (small_size + 63u) & ~63u,
        .max_bufs = max_bufs,
        .alloc_touch = PKTBUF_ALLOC_TOUCH,
        .free_touch = PKTBUF_FREE_TOUCH,
    };
    p->c_alloc = plat_cost_id(pd, "skb_alloc");
    p->c_alloc_small = plat_cost_id(pd, "skb_alloc_small");
    p->c_free = plat_cost_id(pd, "skb_free");
    return 0;
}

void pktbuf_pool_fini(struct pktbuf_pool *p)
{
    struct pktbuf_chunk *c = p->chunks;
    while (c) {
        struct pktbuf_chunk *next = c->next;
        free(c->bufs);
        free(c);
        c = next;
    }
    p->chunks = NULL;
    p->free_big = p->free_small = NULL;
}

/* Add up to PKTBUF_CHUNK buffers of one kind to its free list. */
static int grow(struct pktbuf_pool *p, int small)
{
    uint32_t n = PKTBUF_CHUNK;
    if (p->max_bufs) {
        if (p->nbufs >= p->max_bufs)
            return 0;
        if (n > p->max_bufs - p->nbufs)
            n = p->max_bufs - p->nbufs;
    }
    int ixy = !small && p->layout == PKTBUF_LAYOUT_IXY;
    uint32_t size = small ? p->small_size : ixy ? PKTBUF_IXY_ENTRY - PKTBUF_IXY_HEADER : PKTBUF_SIZE;
    /* the kmalloc object: a power of two, aligned to itself; or ixy's entry */
    uint32_t stride = ixy ? PKTBUF_IXY_ENTRY : 64, headroom = ixy ? PKTBUF_IXY_HEADER : PKTBUF_HEADROOM;
    while (stride < size + headroom)
        stride <<= 1;
    uint64_t data_bus, meta_bus = 0;
    uint8_t *data = plat_dma_alloc(p->pd, (size_t)n * stride, stride < 4096 ? 4096 : stride,
                                   &data_bus);
    /* ixy's metadata is each entry's header: no array of its own */
    uint8_t *meta = !data || ixy ? data : plat_dma_alloc(p->pd, (size_t)n * PKTBUF_META_BYTES, 64, &meta_bus);
    struct pktbuf_chunk *c = calloc(1, sizeof *c);
    struct pktbuf *bufs = calloc(n, sizeof *bufs);
    if (!data || !meta || !c || !bufs) {
        free(c);
        free(bufs);
        return 0;
    }
    (void)meta_bus;
    c->bufs = bufs;
    c->n = n;
    c->next = p->chunks;
    p->chunks = c;
    struct pktbuf **head = small ? &p->free_small : &p->free_big;
    /* Lowest addresses first off the free list. */
    for (uint32_t i = n; i-- > 0;) {
        struct pktbuf *b = &bufs[i];
        b->data = data + (size_t)i * stride + headroom;
        b->bus = data_bus + (uint64_t)i * stride + headroom;
        b->meta = ixy ? data + (size_t)i * stride : meta + (size_t)i * PKTBUF_META_BYTES;
        b->size = size;
        b->small = (uint8_t)small;
        b->pool = p;
        b->next = *head;
        *head = b;
    }
    p->nbufs += n;
    p->stats.grows++;
    return 1;
}

static struct pktbuf *take(struct pktbuf_pool *p, int small)
{
    struct pktbuf **head = small ? &p->free_small : &p->free_big;
    if (!*head && !grow(p, small)) {
        p->stats.fails++;
        return NULL;
    }
    struct pktbuf *b = *head;
    *head = b->next;
    b->next = NULL;
    b->in_use = 1;
    p->in_use++;
    /* the allocator initialises the sk_buff: its lines are written */
    plat_charge(p->pd, small ? p->c_alloc_small : p->c_alloc);
    plat_mem_touch(p->pd, b->meta, p->alloc_touch, 1);
    return b;
}

struct pktbuf *pktbuf_alloc(struct pktbuf_pool *p)
{
    struct pktbuf *b = take(p, 0);
    if (b)
        p->stats.allocs++;
    return b;
}

struct pktbuf *pktbuf_alloc_small(struct pktbuf_pool *p)
{
    if (!p->small_size) {
        p->stats.fails++;
        return NULL;
    }
    struct pktbuf *b = take(p, 1);
    if (b)
        p->stats.small_allocs++;
    return b;
}

struct pktbuf *pktbuf_copy_small(struct pktbuf_pool *p, struct plat_dev *pd,
                                 const struct pktbuf *b, uint32_t len)
{
    struct pktbuf *s = pktbuf_alloc_small(p);
    if (!s)
        return NULL;
    /* From data - NET_IP_ALIGN, as Linux copies from skb->data - 2: so the
     * copy of a 64-byte frame also reads its second line, which the stack
     * never reads and the NIC's write has invalidated. */
    uint8_t tmp[PKTBUF_SIZE + PKTBUF_NET_IP_ALIGN];
    const uint8_t *src = (const uint8_t *)b->data - PKTBUF_NET_IP_ALIGN;
    plat_mem_copy_from(pd, tmp, src, len + PKTBUF_NET_IP_ALIGN);
    plat_mem_copy_to(pd, (uint8_t *)s->data - PKTBUF_NET_IP_ALIGN, tmp, len + PKTBUF_NET_IP_ALIGN);
    return s;
}

void pktbuf_free(struct plat_dev *pd, struct pktbuf *b)
{
    struct pktbuf_pool *p = b->pool;
    if (!pd)
        pd = p->pd;
    if (!b->in_use) {           /* a double free would corrupt the free list */
        /* "e1000:" as when the pool was the e1000 core's: the log stays as it was */
        plat_log(pd, "e1000: buffer at 0x%llx freed twice", (unsigned long long)b->bus);
        return;
    }
    /* kfree_skb: reference count, destructor, then back to the slab */
    plat_charge(pd, p->c_free);
    plat_mem_touch(pd, b->meta, b->pool->free_touch, 1);
    b->in_use = 0;
    p->in_use--;
    p->stats.frees++;
    struct pktbuf **head = b->small ? &p->free_small : &p->free_big;
    b->next = *head;
    *head = b;
}
