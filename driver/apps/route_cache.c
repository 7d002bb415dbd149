/* The route cache; see route_cache.h. */
#include "route_cache.h"
#include <stdlib.h>

#define OFF_NEXT   0u
#define OFF_USE    8u
#define OFF_LAST   16u
#define OFF_OUT    64u
#define OFF_KEY0   128u
#define OFF_KEY1   136u

#define RT_HASH_SEED 0x5bd1e995u   /* fixed: runs must be deterministic */

void rt_cache_default_opts(struct rt_cache_opts *o)
{
    *o = (struct rt_cache_opts){ .buckets = 65536, .max_entries = 65536 };
}

static uint32_t rol32(uint32_t x, unsigned k)
{
    return x << k | x >> (32u - k);
}

/* Bob Jenkins' lookup3 final mix of three words (public domain), the
 * family of Linux's jhash_3words. */
static uint32_t mix3(uint32_t a, uint32_t b, uint32_t c)
{
    a += 0x9e3779b9u;
    b += 0x9e3779b9u;
    c += RT_HASH_SEED;
    c ^= b; c -= rol32(b, 14);
    a ^= c; a -= rol32(c, 11);
    b ^= a; b -= rol32(a, 25);
    c ^= b; c -= rol32(b, 16);
    a ^= c; a -= rol32(c, 4);
    b ^= a; b -= rol32(a, 14);
    c ^= b; c -= rol32(b, 24);
    return c;
}

uint32_t rt_cache_hash(const struct rt_cache *c, uint32_t daddr, uint32_t saddr, uint32_t iif)
{
    return mix3(daddr, saddr, iif) & c->mask;
}

int rt_cache_init(struct rt_cache *c, struct plat_dev *pd, const struct rt_cache_opts *o)
{
    struct rt_cache_opts def;
    if (!o) {
        rt_cache_default_opts(&def);
        o = &def;
    }
    if (!c || !pd || o->buckets == 0 || o->buckets > (1u << 24) ||
        (o->buckets & (o->buckets - 1)) || o->max_entries == 0)
        return -2;
    *c = (struct rt_cache){ .pd = pd, .opts = *o, .mask = o->buckets - 1 };
    c->bucket = plat_dma_alloc(pd, (size_t)o->buckets * 8, 4096, &c->bucket_bus);
    c->block = calloc((o->max_entries + RT_CACHE_BLOCK - 1) / RT_CACHE_BLOCK, sizeof *c->block);
    if (!c->bucket || !c->block) {
        free(c->block);
        c->block = NULL;
        return -3;
    }
    return 0;
}

void rt_cache_fini(struct rt_cache *c)
{
    free(c->block);
    c->block = NULL;
}

static uint8_t *entry(const struct rt_cache *c, uint32_t idx)
{
    return c->block[idx / RT_CACHE_BLOCK] + (size_t)(idx % RT_CACHE_BLOCK) * RT_CACHE_ENTRY_BYTES;
}

static uint64_t key0(uint32_t daddr, uint32_t saddr)
{
    return (uint64_t)daddr << 32 | saddr;
}

int rt_cache_lookup(struct rt_cache *c, struct plat_dev *pd, uint32_t daddr, uint32_t saddr,
                    uint32_t iif, int *out)
{
    c->stats.lookups++;
    uint64_t k0 = key0(daddr, saddr);
    const void *from = &c->bucket[rt_cache_hash(c, daddr, saddr, iif)];
    uint64_t link = plat_mem_read64(pd, from);
    while (link) {
        plat_mem_wait(pd, from);        /* the chain is a pointer chase */
        uint8_t *e = entry(c, (uint32_t)(link - 1));
        c->stats.walked++;
        if (plat_mem_read64(pd, e + OFF_KEY0) == k0 && plat_mem_read64(pd, e + OFF_KEY1) == iif) {
            *out = (int)(int64_t)plat_mem_read64(pd, e + OFF_OUT);
            /* dst_use: use count and last-use time */
            plat_mem_write64(pd, e + OFF_USE, plat_mem_read64(pd, e + OFF_USE) + 1);
            plat_mem_write64(pd, e + OFF_LAST, plat_now_ns(pd));
            c->stats.hits++;
            return 1;
        }
        from = e + OFF_NEXT;
        link = plat_mem_read64(pd, from);
    }
    c->stats.misses++;
    return 0;
}

/* Unlink entry idx from its chain (it is in exactly one). */
static void unlink_entry(struct rt_cache *c, struct plat_dev *pd, uint32_t idx)
{
    uint8_t *e = entry(c, idx);
    uint64_t k0 = plat_mem_read64(pd, e + OFF_KEY0);
    uint32_t iif = (uint32_t)plat_mem_read64(pd, e + OFF_KEY1);
    void *prev = &c->bucket[rt_cache_hash(c, (uint32_t)(k0 >> 32), (uint32_t)k0, iif)];
    uint64_t link = plat_mem_read64(pd, prev);
    while (link) {
        plat_mem_wait(pd, prev);
        uint8_t *cur = entry(c, (uint32_t)(link - 1));
        if (link - 1 == idx) {
            plat_mem_write64(pd, prev, plat_mem_read64(pd, e + OFF_NEXT));
            return;
        }
        prev = cur + OFF_NEXT;
        link = plat_mem_read64(pd, prev);
    }
}

int rt_cache_insert(struct rt_cache *c, struct plat_dev *pd, uint32_t daddr, uint32_t saddr,
                    uint32_t iif, int out)
{
    uint32_t idx;
    if (c->used < c->opts.max_entries) {
        idx = c->used;
        if (idx / RT_CACHE_BLOCK >= c->nblocks) {
            uint32_t n = c->opts.max_entries - idx < RT_CACHE_BLOCK ? c->opts.max_entries - idx
                                                                    : RT_CACHE_BLOCK;
            uint64_t bus;
            uint8_t *b = plat_dma_alloc(c->pd, (size_t)n * RT_CACHE_ENTRY_BYTES, 64, &bus);
            if (!b)
                return -3;
            c->block[c->nblocks++] = b;
        }
        c->used++;
    } else {
        idx = c->victim;
        c->victim = (c->victim + 1) % c->opts.max_entries;
        unlink_entry(c, pd, idx);
        c->stats.evictions++;
    }
    uint8_t *e = entry(c, idx);
    /* dst_alloc: the object is initialised */
    plat_mem_touch(pd, e, RT_CACHE_ENTRY_BYTES, 1);
    plat_mem_write64(pd, e + OFF_KEY0, key0(daddr, saddr));
    plat_mem_write64(pd, e + OFF_KEY1, iif);
    plat_mem_write64(pd, e + OFF_OUT, (uint64_t)(int64_t)out);
    plat_mem_write64(pd, e + OFF_USE, 1);
    plat_mem_write64(pd, e + OFF_LAST, plat_now_ns(pd));
    uint64_t *head = &c->bucket[rt_cache_hash(c, daddr, saddr, iif)];
    plat_mem_write64(pd, e + OFF_NEXT, plat_mem_read64(pd, head));
    plat_mem_write64(pd, head, (uint64_t)idx + 1);
    c->stats.inserts++;
    return 0;
}
