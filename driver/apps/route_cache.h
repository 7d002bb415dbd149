/* An IPv4 route cache shaped like Linux 2.6's rt_hash_table: a hash table
 * of buckets, each the head of a chain of route entries, living in modelled
 * memory (plat_dma_alloc) and touched only through plat_mem_read64 /
 * plat_mem_write64 / plat_mem_touch, so that the simulator's cache model
 * charges every bucket and entry access.  With many flows the entries
 * (256 bytes each, the size of a 2.6 struct rtable slab object) are far
 * larger than the CPU caches, which is the effect of the 32k-flow runs.
 *
 * Key: (destination, source, input port), hashed as rt_hash_code does
 * (a Jenkins-style mix of the three words); chains are walked from the
 * bucket head; a hit updates the entry's use count and last-use time
 * (dst_use); an insert goes at the chain head (rt_intern_hash).  Entry
 * memory grows in blocks of RT_CACHE_BLOCK entries up to max_entries; when
 * full, the oldest entry is unlinked and reused (a stand-in for Linux's
 * garbage collection, which this cache does not model).
 *
 * Entry layout (byte offsets; qwords):
 *     0  next entry (index + 1, 0 = end of chain)    line 0: chain and use
 *     8  use count
 *    16  last use (plat_now_ns)
 *    64  result: output port, or -1 (unreachable: negative entries are
 *        cached, as Linux caches unreachable routes)       line 1
 *   128  key: daddr << 32 | saddr                          line 2
 *   136  key: input port
 * The lookup reads line 2 (key) and line 0 (next) of every entry it walks:
 * rtable's flow key and its chain pointer are in different lines too. */
#ifndef NICSIM_ROUTE_CACHE_H
#define NICSIM_ROUTE_CACHE_H
#include <stdint.h>
#include <stddef.h>
#include "../plat.h"

#define RT_CACHE_ENTRY_BYTES 256u
#define RT_CACHE_BLOCK       1024u   /* entries per memory block */

struct rt_cache_opts {
    uint32_t buckets;           /* power of two, 1..2^24; default 65536 */
    uint32_t max_entries;       /* >= 1; default 65536 */
};

struct rt_cache_stats {
    uint64_t lookups;
    uint64_t hits;
    uint64_t misses;
    uint64_t inserts;
    uint64_t evictions;         /* entries reused because the cache was full */
    uint64_t walked;            /* entries examined by lookups */
};

struct rt_cache {
    struct plat_dev *pd;        /* memory is allocated through it */
    struct rt_cache_opts opts;
    uint64_t *bucket;           /* modelled memory: buckets qwords */
    uint64_t bucket_bus;
    uint8_t **block;            /* host array of entry blocks (modelled memory) */
    uint32_t nblocks;           /* blocks allocated */
    uint32_t mask;              /* buckets - 1 */
    uint32_t used;              /* entries ever handed out (<= max_entries) */
    uint32_t victim;            /* next entry to reuse when full (oldest first) */
    struct rt_cache_stats stats;
};

void rt_cache_default_opts(struct rt_cache_opts *o);

/* Allocate the bucket array (entries come on demand).  o may be NULL.
 * Returns 0, -2 (bad options) or -3 (no memory). */
int rt_cache_init(struct rt_cache *c, struct plat_dev *pd, const struct rt_cache_opts *o);

/* Free the host bookkeeping (modelled memory stays: plat.h has no free). */
void rt_cache_fini(struct rt_cache *c);

/* Look (daddr, saddr, iif) up, with the accesses charged through pd.
 * Returns 1 on a hit with the cached result in *out, 0 on a miss. */
int rt_cache_lookup(struct rt_cache *c, struct plat_dev *pd, uint32_t daddr, uint32_t saddr,
                    uint32_t iif, int *out);

/* Insert the result of a slow-path lookup (the caller checked it is not
 * cached).  Returns 0, or -3 when no entry memory could be allocated (the
 * result is then simply not cached). */
int rt_cache_insert(struct rt_cache *c, struct plat_dev *pd, uint32_t daddr, uint32_t saddr,
                    uint32_t iif, int out);

/* The bucket index of a key (for tests). */
uint32_t rt_cache_hash(const struct rt_cache *c, uint32_t daddr, uint32_t saddr, uint32_t iif);

#endif
