/* Packet buffers (the skb allocator model); see e1000_buf.h. */
#include "e1000_buf.h"
#include "e1000_dev.h"
#include <stdlib.h>

/* One growth step: n buffers of one kind, their data and metadata blocks. */
struct e1000_bufpool_chunk {
    struct e1000_bufpool_chunk *next;
    struct e1000_buf *bufs;
    uint32_t n;
};

int e1000_bufpool_init(struct e1000_bufpool *p, struct plat_dev *pd, uint32_t small_size,
                       uint32_t max_bufs)
{
    if (!p || !pd || small_size > E1000_BUF_SIZE)
        return E1000_ERR_PARAM;
    *p = (struct e1000_bufpool){
        .pd = pd,
        .small_size = (small_size + 63u) & ~63u,
        .max_bufs = max_bufs,
        .alloc_touch = E1000_BUF_ALLOC_TOUCH,
        .free_touch = E1000_BUF_FREE_TOUCH,
    };
    p->c_alloc = plat_cost_id(pd, "skb_alloc");
    p->c_alloc_small = plat_cost_id(pd, "skb_alloc_small");
    p->c_free = plat_cost_id(pd, "skb_free");
    return 0;
}

void e1000_bufpool_fini(struct e1000_bufpool *p)
{
    struct e1000_bufpool_chunk *c = p->chunks;
    while (c) {
        struct e1000_bufpool_chunk *next = c->next;
        free(c->bufs);
        free(c);
        c = next;
    }
    p->chunks = NULL;
    p->free_big = p->free_small = NULL;
}

/* Add up to E1000_BUF_CHUNK buffers of one kind to its free list. */
static int grow(struct e1000_bufpool *p, int small)
{
    uint32_t n = E1000_BUF_CHUNK;
    if (p->max_bufs) {
        if (p->nbufs >= p->max_bufs)
            return 0;
        if (n > p->max_bufs - p->nbufs)
            n = p->max_bufs - p->nbufs;
    }
    uint32_t size = small ? p->small_size : E1000_BUF_SIZE;
    uint32_t stride = 64;       /* the kmalloc object: a power of two, aligned to itself */
    while (stride < size + E1000_BUF_HEADROOM)
        stride <<= 1;
    uint64_t data_bus, meta_bus;
    uint8_t *data = plat_dma_alloc(p->pd, (size_t)n * stride, stride < 4096 ? 4096 : stride,
                                   &data_bus);
    uint8_t *meta = data ? plat_dma_alloc(p->pd, (size_t)n * E1000_BUF_META_BYTES, 64,
                                          &meta_bus) : NULL;
    struct e1000_bufpool_chunk *c = calloc(1, sizeof *c);
    struct e1000_buf *bufs = calloc(n, sizeof *bufs);
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
    struct e1000_buf **head = small ? &p->free_small : &p->free_big;
    /* Lowest addresses first off the free list. */
    for (uint32_t i = n; i-- > 0;) {
        struct e1000_buf *b = &bufs[i];
        b->data = data + (size_t)i * stride + E1000_BUF_HEADROOM;
        b->bus = data_bus + (uint64_t)i * stride + E1000_BUF_HEADROOM;
        b->meta = meta + (size_t)i * E1000_BUF_META_BYTES;
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

static struct e1000_buf *take(struct e1000_bufpool *p, int small)
{
    struct e1000_buf **head = small ? &p->free_small : &p->free_big;
    if (!*head && !grow(p, small)) {
        p->stats.fails++;
        return NULL;
    }
    struct e1000_buf *b = *head;
    *head = b->next;
    b->next = NULL;
    b->in_use = 1;
    p->in_use++;
    /* the allocator initialises the sk_buff: its lines are written */
    plat_charge(p->pd, small ? p->c_alloc_small : p->c_alloc);
    plat_mem_touch(p->pd, b->meta, p->alloc_touch, 1);
    return b;
}

struct e1000_buf *e1000_buf_alloc(struct e1000_bufpool *p)
{
    struct e1000_buf *b = take(p, 0);
    if (b)
        p->stats.allocs++;
    return b;
}

struct e1000_buf *e1000_buf_alloc_small(struct e1000_bufpool *p)
{
    if (!p->small_size) {
        p->stats.fails++;
        return NULL;
    }
    struct e1000_buf *b = take(p, 1);
    if (b)
        p->stats.small_allocs++;
    return b;
}

struct e1000_buf *e1000_buf_copy_small(struct e1000_bufpool *p, struct plat_dev *pd,
                                       const struct e1000_buf *b, uint32_t len)
{
    struct e1000_buf *s = e1000_buf_alloc_small(p);
    if (!s)
        return NULL;
    uint8_t tmp[E1000_BUF_SIZE + E1000_NET_IP_ALIGN];
    const uint8_t *src = (const uint8_t *)b->data - E1000_NET_IP_ALIGN;
    plat_mem_copy_from(pd, tmp, src, len + E1000_NET_IP_ALIGN);
    plat_mem_copy_to(pd, (uint8_t *)s->data - E1000_NET_IP_ALIGN, tmp, len + E1000_NET_IP_ALIGN);
    return s;
}

void e1000_buf_free(struct plat_dev *pd, struct e1000_buf *b)
{
    struct e1000_bufpool *p = b->pool;
    if (!pd)
        pd = p->pd;
    if (!b->in_use) {           /* a double free would corrupt the free list */
        plat_log(pd, "e1000: buffer at 0x%llx freed twice", (unsigned long long)b->bus);
        return;
    }
    /* kfree_skb: reference count, destructor, then back to the slab */
    plat_charge(pd, p->c_free);
    plat_mem_touch(pd, b->meta, b->pool->free_touch, 1);
    b->in_use = 0;
    p->in_use--;
    p->stats.frees++;
    struct e1000_buf **head = b->small ? &p->free_small : &p->free_big;
    b->next = *head;
    *head = b;
}
