/* Unit tests of models/cache_model.c: hit/miss latencies, LRU, the exclusive
 * L1/L2 pair, DMA invalidation and snooping, prefetch timing, coherence
 * between CPUs, multi-line accesses, statistics and determinism.
 *
 * Most tests use a tiny hierarchy at 1000 MHz (1 cycle = 1 ns) so that
 * evictions happen at accesses one can count: L1 256 B 2-way (2 sets), L2
 * 1 KiB 4-way (4 sets).  Line k is at BASE + 64 k, so it falls in L1 set
 * k % 2 and L2 set k % 4. */
#include "gtest_cunit.h"
#include "../../models/cache_model.h"
#include <stdint.h>
#include <string.h>

#define BASE 0x10000000ull
#define LN(k) (BASE + (uint64_t)(k) * 64u)
#define US 1000000ull    /* ps */

/* latencies of the tiny profile, ps */
#define L1 3000ull
#define L2 12000ull
#define L2S 8000ull
#define MEM 100000ull
#define MEMS 10000ull
#define C2C 150000ull

static cache_profile tiny(void)
{
    cache_profile p;
    memset(&p, 0, sizeof p);
    p.name = "tiny";
    p.l1_size = 256;
    p.l1_ways = 2;
    p.l1_cycles = 3;
    p.l2_size = 1024;
    p.l2_ways = 4;
    p.l2_cycles = 12;
    p.l2_stream_cycles = 8;
    p.mem_ns = 100;
    p.mem_stream_ns = 10;
    p.c2c_ns = 150;
    return p;
}

static cache_hier *tiny_hier(int ncpu)
{
    cache_profile p = tiny();
    cache_hier *h = cache_hier_new(&p, ncpu, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    return h;
}

static int level_of(cache_hier *h, int cpu, uint64_t addr)
{
    int lv = -1;
    cache_lookup(h, cpu, addr, &lv, NULL);
    return lv;
}

/* ---- latencies and LRU --------------------------------------------------- */

static void test_miss_then_hit(void)
{
    cache_hier *h = tiny_hier(1);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 0), MEM);
    ps_t ready = 1;
    int lv = 0;
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0) + 40, &lv, &ready), CACHE_CLEAN);
    CU_ASSERT_EQUAL(lv, 1);
    CU_ASSERT_EQUAL(ready, MEM);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0) + 56, 8, 0, 1 * US), L1);
    /* a neighbouring line is a different line */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(1), 8, 0, 2 * US), MEM);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(2), &lv, NULL), CACHE_INVALID);
    CU_ASSERT_EQUAL(lv, 0);
    cache_hier_free(h);
}

static void test_lru_eviction(void)
{
    cache_hier *h = tiny_hier(1);
    /* lines 0, 2, 4 share L1 set 0 (2 ways) */
    cache_access(h, 0, LN(0), 8, 0, 0);
    cache_access(h, 0, LN(2), 8, 0, 1 * US);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 2 * US), L1);   /* 2 is now LRU */
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.evictions, 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(4), 8, 0, 3 * US), MEM);  /* evicts 2, not 0 */
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.evictions, 1);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(0)), 1);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(2)), 2);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(4)), 1);
    /* line 2 comes back from the L2 and pushes out 0 (LRU since 4 came in) */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(2), 8, 0, 4 * US), L2);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(2)), 1);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(0)), 2);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(4)), 1);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.evictions, 2);
    /* the other L1 set was never touched */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(1), 8, 0, 5 * US), MEM);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.evictions, 2);
    cache_hier_free(h);
}

/* The L2 is exclusive: a set of lines that share L1 set 0 and L2 set 0 holds
 * 2 + 4 = 6 lines; an inclusive pair would hold 4. */
static void test_exclusive_capacity(void)
{
    cache_hier *h = tiny_hier(1);
    ps_t t = 0;
    for (int k = 0; k < 6; k++, t += US)
        CU_ASSERT_EQUAL(cache_access(h, 0, LN(4 * k), 8, 0, t), MEM);
    for (int k = 0; k < 6; k++, t += US)
        CU_ASSERT_EQUAL(cache_access(h, 0, LN(4 * k), 8, 0, t), L2);
    const cache_cpu_stats *s = cache_stats(h, 0);
    CU_ASSERT_EQUAL(s->mem_fills, 6);
    CU_ASSERT_EQUAL(s->l2.hits, 6);
    CU_ASSERT_EQUAL(s->l2.evictions, 0);
    cache_hier_free(h);
}

/* A seventh line of the class evicts the L2's LRU line to memory, exactly at
 * the seventh access. */
static void test_l2_eviction_to_memory(void)
{
    for (int write = 0; write <= 1; write++) {
        cache_hier *h = tiny_hier(1);
        ps_t t = 0;
        for (int k = 0; k < 6; k++, t += US)
            cache_access(h, 0, LN(4 * k), 8, write, t);
        CU_ASSERT_EQUAL(cache_stats(h, 0)->l2.evictions, 0);
        cache_access(h, 0, LN(24), 8, write, t);
        t += US;
        CU_ASSERT_EQUAL(cache_stats(h, 0)->l2.evictions, 1);
        CU_ASSERT_EQUAL(cache_stats(h, 0)->l2.writebacks, (uint64_t)write);
        CU_ASSERT_EQUAL(level_of(h, 0, LN(0)), 0);
        for (int k = 1; k <= 4; k++)
            CU_ASSERT_EQUAL(level_of(h, 0, LN(4 * k)), 2);
        CU_ASSERT_EQUAL(level_of(h, 0, LN(20)), 1);
        CU_ASSERT_EQUAL(level_of(h, 0, LN(24)), 1);
        CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(4), NULL, NULL),
                        write ? CACHE_DIRTY : CACHE_CLEAN);   /* the state moves with the line */
        CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, t), MEM);
        cache_hier_free(h);
    }
}

static void test_write_allocates_dirty(void)
{
    cache_hier *h = tiny_hier(1);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(3), 4, 1, 0), MEM);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(3), NULL, NULL), CACHE_DIRTY);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(5), 4, 0, US), MEM);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(5), 4, 1, 2 * US), L1);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(5), NULL, NULL), CACHE_DIRTY);
    cache_hier_free(h);
}

/* ---- multi-line accesses ------------------------------------------------- */

static void test_access_spanning_lines(void)
{
    cache_hier *h = tiny_hier(1);
    /* 8 bytes across the boundary of lines 0 and 1: two misses, the second
     * one a streaming interval behind the first */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0) + 60, 8, 0, 0), MEM + MEMS);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(0)), 1);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(1)), 1);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.accesses, 2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 128, 0, US), L1);
    /* exactly one line: [LN(2), LN(3)) */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(2), 64, 0, 2 * US), MEM);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(3)), 0);
    /* one line hits, the other misses: the miss decides */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(2) + 32, 64, 0, 3 * US), MEM);
    /* four misses: 100 + 3 x 10 ns */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(8), 256, 0, 4 * US), MEM + 3 * MEMS);
    cache_hier_free(h);
}

static void test_two_l2_hits_stream(void)
{
    cache_hier *h = tiny_hier(1);
    ps_t t = 0;
    const int lines[] = { 4, 5, 8, 12, 9, 13 };   /* 4 and 5 end up in the L2 */
    for (int i = 0; i < 6; i++, t += US)
        cache_access(h, 0, LN(lines[i]), 8, 0, t);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(4)), 2);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(5)), 2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(4), 128, 0, t), L2 + L2S);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(4)), 1);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(5)), 1);
    cache_hier_free(h);
}

/* ---- DMA ------------------------------------------------------------------ */

static void test_dma_write_invalidates(void)
{
    cache_hier *h = tiny_hier(1);
    cache_access(h, 0, LN(0), 16, 0, 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 16, 0, US), L1);
    cache_dma_write(h, LN(0) + 8, 4);    /* a partial write kills the whole line */
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0), NULL, NULL), CACHE_INVALID);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.dma_inval, 1);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 16, 0, 2 * US), MEM);
    /* a line in the L2 too */
    cache_access(h, 0, LN(2), 8, 0, 3 * US);
    cache_access(h, 0, LN(4), 8, 0, 4 * US);   /* 0 to the L2 */
    CU_ASSERT_EQUAL(level_of(h, 0, LN(0)), 2);
    cache_dma_write(h, LN(0), 64);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l2.dma_inval, 1);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 5 * US), MEM);
    /* a write to lines nobody holds changes nothing */
    cache_dma_write(h, LN(100), 64);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.dma_inval, 1);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l2.dma_inval, 1);
    cache_hier_free(h);
}

static void test_dma_write_span_and_cpus(void)
{
    cache_hier *h = tiny_hier(2);
    for (int cpu = 0; cpu < 2; cpu++)
        for (int k = 0; k < 3; k++)
            cache_access(h, cpu, LN(k), 8, 0, (ps_t)(cpu * 3 + k) * US);
    cache_dma_write(h, LN(0) + 60, 8);   /* lines 0 and 1 */
    for (int cpu = 0; cpu < 2; cpu++) {
        CU_ASSERT_EQUAL(level_of(h, cpu, LN(0)), 0);
        CU_ASSERT_EQUAL(level_of(h, cpu, LN(1)), 0);
        CU_ASSERT_EQUAL(level_of(h, cpu, LN(2)), 1);
        CU_ASSERT_EQUAL(cache_stats(h, cpu)->l1.dma_inval, 2);
    }
    cache_hier_free(h);
}

static void test_dma_read_snoops_dirty(void)
{
    cache_hier *h = tiny_hier(1);
    cache_access(h, 0, LN(0), 16, 1, 0);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0), NULL, NULL), CACHE_DIRTY);
    cache_dma_read(h, LN(0), 16);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->dma_snoops, 1);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0), NULL, NULL), CACHE_CLEAN);
    cache_dma_read(h, LN(0), 16);                       /* clean now: no snoop */
    CU_ASSERT_EQUAL(cache_stats(h, 0)->dma_snoops, 1);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, US), L1);   /* still cached */
    /* a dirty line in the L2 */
    cache_access(h, 0, LN(2), 8, 1, 2 * US);
    cache_access(h, 0, LN(4), 8, 0, 3 * US);
    cache_access(h, 0, LN(6), 8, 0, 4 * US);            /* 2 to the L2 */
    CU_ASSERT_EQUAL(level_of(h, 0, LN(2)), 2);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(2), NULL, NULL), CACHE_DIRTY);
    cache_dma_read(h, LN(0), 3 * 64);                   /* lines 0, 1, 2 */
    CU_ASSERT_EQUAL(cache_stats(h, 0)->dma_snoops, 2);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(2), NULL, NULL), CACHE_CLEAN);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l2.dma_inval, 0);
    cache_hier_free(h);
}

/* ---- prefetch ------------------------------------------------------------- */

static void test_prefetch_early_hides_all(void)
{
    cache_hier *h = tiny_hier(1);
    cache_prefetch(h, 0, LN(7) + 3, 5 * US);
    ps_t ready = 0;
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(7), NULL, &ready), CACHE_CLEAN);
    CU_ASSERT_EQUAL(ready, 5 * US + MEM);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(7), 8, 0, 5 * US + MEM), L1);
    const cache_cpu_stats *s = cache_stats(h, 0);
    CU_ASSERT_EQUAL(s->prefetches, 1);
    CU_ASSERT_EQUAL(s->prefetch_hits, 1);
    CU_ASSERT_EQUAL(s->prefetch_late, 0);
    CU_ASSERT_EQUAL(s->l1.hits, 1);
    CU_ASSERT_EQUAL(s->mem_fills, 1);
    /* only the first demand access counts as a prefetch hit */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(7), 8, 0, 6 * US), L1);
    CU_ASSERT_EQUAL(s->prefetch_hits, 1);
    cache_hier_free(h);
}

static void test_prefetch_late_hides_part(void)
{
    cache_hier *h = tiny_hier(1);
    cache_prefetch(h, 0, LN(0), 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 40000), MEM - 40000);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_hits, 1);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_late, 1);
    /* 1 ns before the fill completes: the access still costs an L1 hit */
    cache_prefetch(h, 0, LN(1), US);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(1), 8, 0, US + MEM - 1000), L1);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_hits, 2);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_late, 1);
    cache_hier_free(h);
}

static void test_prefetch_from_l2(void)
{
    cache_hier *h = tiny_hier(1);
    cache_access(h, 0, LN(0), 8, 0, 0);
    cache_access(h, 0, LN(2), 8, 0, US);
    cache_access(h, 0, LN(4), 8, 0, 2 * US);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(0)), 2);
    cache_prefetch(h, 0, LN(0), 3 * US);
    ps_t ready = 0;
    int lv = 0;
    cache_lookup(h, 0, LN(0), &lv, &ready);
    CU_ASSERT_EQUAL(lv, 1);
    CU_ASSERT_EQUAL(ready, 3 * US + L2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 3 * US + 5000), L2 - 5000);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_hits, 1);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->mem_fills, 3);
    cache_hier_free(h);
}

static void test_prefetch_present_dropped(void)
{
    cache_hier *h = tiny_hier(1);
    cache_access(h, 0, LN(0), 8, 0, 0);
    cache_prefetch(h, 0, LN(0), US);
    ps_t ready = 0;
    cache_lookup(h, 0, LN(0), NULL, &ready);
    CU_ASSERT_EQUAL(ready, MEM);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_dropped, 1);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 2 * US), L1);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_hits, 0);
    /* a second prefetch of a line in flight leaves it in flight */
    cache_prefetch(h, 0, LN(1), 3 * US);
    cache_prefetch(h, 0, LN(1), 3 * US + 50000);
    cache_lookup(h, 0, LN(1), NULL, &ready);
    CU_ASSERT_EQUAL(ready, 3 * US + MEM);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_dropped, 2);
    cache_hier_free(h);
}

/* Prefetching a descriptor before the device has written it back is lost:
 * the DMA write invalidates the line and the read pays the full miss. */
static void test_prefetch_then_dma_write(void)
{
    cache_hier *h = tiny_hier(1);
    cache_prefetch(h, 0, LN(0), 0);
    cache_dma_write(h, LN(0), 16);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 16, 0, 200000), MEM);
    const cache_cpu_stats *s = cache_stats(h, 0);
    CU_ASSERT_EQUAL(s->prefetch_unused, 1);
    CU_ASSERT_EQUAL(s->prefetch_hits, 0);
    CU_ASSERT_EQUAL(s->l1.dma_inval, 1);
    cache_hier_free(h);
}

static void test_prefetch_unused_on_eviction(void)
{
    cache_hier *h = tiny_hier(1);
    cache_prefetch(h, 0, LN(0), 0);
    cache_access(h, 0, LN(2), 8, 0, US);
    cache_access(h, 0, LN(4), 8, 0, 2 * US);   /* evicts the prefetched line */
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_unused, 1);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 3 * US), L2);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetch_hits, 0);
    cache_hier_free(h);
}

/* Fills of one CPU share its memory pipe: two prefetches issued together
 * complete a streaming interval apart. */
static void test_memory_pipe(void)
{
    cache_hier *h = tiny_hier(2);
    cache_prefetch(h, 0, LN(0), 0);
    cache_prefetch(h, 0, LN(1), 0);
    cache_prefetch(h, 1, LN(2), 0);   /* the other CPU has its own */
    ps_t r0 = 0, r1 = 0, r2 = 0;
    cache_lookup(h, 0, LN(0), NULL, &r0);
    cache_lookup(h, 0, LN(1), NULL, &r1);
    cache_lookup(h, 1, LN(2), NULL, &r2);
    CU_ASSERT_EQUAL(r0, MEM);
    CU_ASSERT_EQUAL(r1, MEM + MEMS);
    CU_ASSERT_EQUAL(r2, MEM);
    /* a demand miss right behind them queues too */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(3), 8, 0, 1000), MEM + 2 * MEMS - 1000);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(1), 8, 0, 105000), MEM + MEMS - 105000);
    cache_hier_free(h);
}

/* ---- coherence ------------------------------------------------------------ */

static void test_cross_cpu_write_invalidates(void)
{
    cache_hier *h = tiny_hier(2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 0), MEM);
    CU_ASSERT_EQUAL(cache_access(h, 1, LN(0), 8, 0, 0), MEM);   /* clean elsewhere: memory */
    CU_ASSERT_EQUAL(cache_access(h, 1, LN(0), 8, 1, US), L1);   /* write hit */
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0), NULL, NULL), CACHE_INVALID);
    CU_ASSERT_EQUAL(cache_lookup(h, 1, LN(0), NULL, NULL), CACHE_DIRTY);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.coh_inval, 1);
    /* cpu0 reads it back from cpu1's cache; both end clean */
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 2 * US), C2C);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->c2c_fills, 1);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0), NULL, NULL), CACHE_CLEAN);
    CU_ASSERT_EQUAL(cache_lookup(h, 1, LN(0), NULL, NULL), CACHE_CLEAN);
    /* cpu1 writes again: cpu0's shared copy goes */
    CU_ASSERT_EQUAL(cache_access(h, 1, LN(0), 8, 1, 3 * US), L1);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0), NULL, NULL), CACHE_INVALID);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.coh_inval, 2);
    cache_hier_free(h);
}

static void test_write_to_line_dirty_elsewhere(void)
{
    cache_hier *h = tiny_hier(2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 1, 0), MEM);
    CU_ASSERT_EQUAL(cache_access(h, 1, LN(0), 8, 1, US), C2C);
    CU_ASSERT_EQUAL(cache_lookup(h, 0, LN(0), NULL, NULL), CACHE_INVALID);
    CU_ASSERT_EQUAL(cache_lookup(h, 1, LN(0), NULL, NULL), CACHE_DIRTY);
    /* a line dirty in another CPU's L2 is found there too */
    cache_access(h, 1, LN(2), 8, 0, 2 * US);
    cache_access(h, 1, LN(4), 8, 0, 3 * US);   /* 0 to cpu1's L2, still dirty */
    CU_ASSERT_EQUAL(level_of(h, 1, LN(0)), 2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 4 * US), C2C);
    CU_ASSERT_EQUAL(cache_lookup(h, 1, LN(0), NULL, NULL), CACHE_CLEAN);
    /* a prefetch of a line dirty elsewhere is a cache-to-cache fill */
    cache_access(h, 1, LN(9), 8, 1, 5 * US);
    cache_prefetch(h, 0, LN(9), 6 * US);
    ps_t ready = 0;
    cache_lookup(h, 0, LN(9), NULL, &ready);
    CU_ASSERT_EQUAL(ready, 6 * US + C2C);
    CU_ASSERT_EQUAL(cache_lookup(h, 1, LN(9), NULL, NULL), CACHE_CLEAN);
    cache_hier_free(h);
}

static void test_per_cpu_clock(void)
{
    cache_hier *h = tiny_hier(2);
    CU_ASSERT_EQUAL(cache_hier_set_mhz(h, 1, 500), 0);
    cache_access(h, 0, LN(0), 8, 0, 0);
    cache_access(h, 1, LN(1), 8, 0, 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, US), L1);
    CU_ASSERT_EQUAL(cache_access(h, 1, LN(1), 8, 0, US), 2 * L1);   /* 3 cycles at 500 MHz */
    CU_ASSERT_EQUAL(cache_access(h, 1, LN(5), 8, 0, 2 * US), MEM);  /* ns do not scale */
    CU_ASSERT_EQUAL(cache_hier_set_mhz(h, 2, 500), -1);
    CU_ASSERT_EQUAL(cache_hier_set_mhz(h, 0, 0), -1);
    cache_hier_free(h);
}

/* ---- statistics, arguments, determinism ---------------------------------- */

static void test_statistics(void)
{
    cache_hier *h = tiny_hier(1);
    cache_access(h, 0, LN(0), 8, 0, 0);        /* miss */
    cache_access(h, 0, LN(0), 8, 0, 1 * US);   /* L1 hit */
    cache_access(h, 0, LN(2), 8, 0, 2 * US);   /* miss */
    cache_access(h, 0, LN(4), 8, 1, 3 * US);   /* miss, 0 to the L2 */
    cache_access(h, 0, LN(0), 8, 0, 4 * US);   /* L2 hit, 2 to the L2 */
    cache_prefetch(h, 0, LN(6), 5 * US);       /* memory, 4 (dirty) to the L2 */
    cache_access(h, 0, LN(6), 8, 0, 5 * US + 30000);   /* late prefetch hit */
    const cache_cpu_stats *s = cache_stats(h, 0);
    CU_ASSERT_EQUAL(s->l1.accesses, 6);
    CU_ASSERT_EQUAL(s->l1.hits, 2);
    CU_ASSERT_EQUAL(s->l1.misses, 4);
    CU_ASSERT_EQUAL(s->l1.evictions, 3);
    CU_ASSERT_EQUAL(s->l2.accesses, 4);
    CU_ASSERT_EQUAL(s->l2.hits, 1);
    CU_ASSERT_EQUAL(s->l2.misses, 3);
    CU_ASSERT_EQUAL(s->l2.evictions, 0);
    CU_ASSERT_EQUAL(s->mem_fills, 4);
    CU_ASSERT_EQUAL(s->c2c_fills, 0);
    CU_ASSERT_EQUAL(s->prefetches, 1);
    CU_ASSERT_EQUAL(s->prefetch_hits, 1);
    CU_ASSERT_EQUAL(s->prefetch_late, 1);
    CU_ASSERT_EQUAL(s->stall_ps, 3 * MEM + L1 + L2 + (MEM - 30000));
    cache_stats_reset(h);
    CU_ASSERT_EQUAL(s->l1.accesses, 0);
    CU_ASSERT_EQUAL(s->stall_ps, 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(6), 8, 0, 6 * US), L1);   /* contents kept */
    cache_hier_flush(h);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(6), 8, 0, 7 * US), MEM);
    cache_hier_free(h);
}

static void test_bad_arguments(void)
{
    cache_profile p = tiny();
    CU_ASSERT_PTR_NULL(cache_hier_new(&p, 0, 1000));
    CU_ASSERT_PTR_NULL(cache_hier_new(&p, 65, 1000));
    CU_ASSERT_PTR_NULL(cache_hier_new(&p, 1, 0));
    CU_ASSERT_PTR_NULL(cache_hier_new(NULL, 1, 1000));
    p.l1_ways = 3;                       /* 256 / (3 x 64) is no integer */
    CU_ASSERT_PTR_NOT_NULL(cache_profile_check(&p));
    CU_ASSERT_PTR_NULL(cache_hier_new(&p, 1, 1000));
    p = tiny();
    p.l2_size = 768;                     /* 3 sets */
    CU_ASSERT_PTR_NULL(cache_hier_new(&p, 1, 1000));
    p = tiny();
    p.mem_ns = -1;
    CU_ASSERT_PTR_NULL(cache_hier_new(&p, 1, 1000));
    p = tiny();
    p.l2_cycles = 2;                     /* faster than the L1 */
    CU_ASSERT_PTR_NULL(cache_hier_new(&p, 1, 1000));
    p = tiny();
    CU_ASSERT_PTR_NULL(cache_profile_check(&p));

    cache_hier *h = tiny_hier(2);
    CU_ASSERT_EQUAL(cache_hier_ncpu(h), 2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 0, 0, 0), 0);
    CU_ASSERT_EQUAL(cache_access(h, -1, LN(0), 8, 0, 0), 0);
    CU_ASSERT_EQUAL(cache_access(h, 2, LN(0), 8, 0, 0), 0);
    cache_prefetch(h, 2, LN(0), 0);
    cache_dma_write(h, LN(0), 0);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.accesses, 0);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->prefetches, 0);
    CU_ASSERT_PTR_NULL(cache_stats(h, 2));
    /* the top of the address space: clamped, no wrap to line 0 */
    CU_ASSERT_EQUAL(cache_access(h, 0, UINT64_MAX - 10, 100, 0, 0), MEM);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l1.accesses, 1);
    CU_ASSERT_EQUAL(level_of(h, 0, 0), 0);
    cache_hier_free(h);
    cache_hier_free(NULL);
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* A mixed workload of two CPUs and a device; returns a digest of every
 * latency. */
static uint64_t run_mix(cache_hier *h, uint64_t seed, ps_t *lat, int nlat)
{
    uint64_t s = seed, digest = 0;
    ps_t t[2] = { 0, 0 };
    for (int i = 0; i < nlat; i++) {
        int cpu = (int)(lcg(&s) & 1);
        uint64_t addr = LN(lcg(&s) % 48) + lcg(&s) % 64;
        unsigned op = (unsigned)(lcg(&s) % 10);
        ps_t l = 0;
        if (op < 6)
            l = cache_access(h, cpu, addr, 1 + lcg(&s) % 200, op >= 4, t[cpu]);
        else if (op < 8)
            cache_prefetch(h, cpu, addr, t[cpu]);
        else if (op == 8)
            cache_dma_write(h, addr, 1 + lcg(&s) % 128);
        else
            cache_dma_read(h, addr, 1 + lcg(&s) % 128);
        t[cpu] += l + 1000 * (lcg(&s) % 200);
        lat[i] = l;
        digest = digest * 31 + l;
    }
    return digest;
}

static void test_determinism(void)
{
    enum { N = 20000 };
    static ps_t a[N], b[N];
    cache_hier *h1 = tiny_hier(2), *h2 = tiny_hier(2);
    uint64_t d1 = run_mix(h1, 42, a, N);
    uint64_t d2 = run_mix(h2, 42, b, N);
    CU_ASSERT_EQUAL(d1, d2);
    CU_ASSERT_EQUAL(memcmp(a, b, sizeof a), 0);
    for (int cpu = 0; cpu < 2; cpu++)
        CU_ASSERT_EQUAL(memcmp(cache_stats(h1, cpu), cache_stats(h2, cpu), sizeof(cache_cpu_stats)), 0);
    for (int k = 0; k < 48; k++)
        for (int cpu = 0; cpu < 2; cpu++) {
            int l1 = 0, l2 = 0;
            ps_t r1 = 0, r2 = 0;
            CU_ASSERT_EQUAL(cache_lookup(h1, cpu, LN(k), &l1, &r1), cache_lookup(h2, cpu, LN(k), &l2, &r2));
            CU_ASSERT_EQUAL(l1, l2);
            CU_ASSERT_EQUAL(r1, r2);
        }
    /* the workload exercised every path */
    const cache_cpu_stats *s = cache_stats(h1, 0);
    CU_ASSERT(s->l1.hits > 0 && s->l2.hits > 0 && s->mem_fills > 0 && s->c2c_fills > 0);
    CU_ASSERT(s->prefetch_hits > 0 && s->prefetch_late > 0 && s->dma_snoops > 0);
    CU_ASSERT(s->l1.dma_inval > 0 && s->l1.coh_inval > 0 && s->l2.writebacks > 0);
    /* a flushed hierarchy with reset statistics repeats the run exactly */
    cache_hier_flush(h1);
    cache_stats_reset(h1);
    CU_ASSERT_EQUAL(run_mix(h1, 42, a, N), d1);
    CU_ASSERT_EQUAL(memcmp(a, b, sizeof a), 0);
    /* another seed gives another run */
    CU_ASSERT_NOT_EQUAL(run_mix(h2, 43, b, N), d1);
    cache_hier_free(h1);
    cache_hier_free(h2);
}

/* A straightforward reference of one CPU's exclusive L1/L2 pair with LRU
 * lists, against which random single-line reads and writes are checked. */
typedef struct ref_set {
    int n, cap;
    int64_t line[16];   /* [0] = most recently used */
    int dirty[16];
} ref_set;

static int ref_take(ref_set *s, int64_t line, int *dirty)
{
    for (int i = 0; i < s->n; i++)
        if (s->line[i] == line) {
            *dirty = s->dirty[i];
            memmove(&s->line[i], &s->line[i + 1], (size_t)(s->n - i - 1) * sizeof s->line[0]);
            memmove(&s->dirty[i], &s->dirty[i + 1], (size_t)(s->n - i - 1) * sizeof s->dirty[0]);
            s->n--;
            return 1;
        }
    return 0;
}

/* Insert as MRU; returns 1 and the victim if one was pushed out. */
static int ref_push(ref_set *s, int64_t line, int dirty, int64_t *vline, int *vdirty)
{
    int ev = 0;
    if (s->n == s->cap) {
        ev = 1;
        *vline = s->line[s->n - 1];
        *vdirty = s->dirty[s->n - 1];
        s->n--;
    }
    memmove(&s->line[1], &s->line[0], (size_t)s->n * sizeof s->line[0]);
    memmove(&s->dirty[1], &s->dirty[0], (size_t)s->n * sizeof s->dirty[0]);
    s->line[0] = line;
    s->dirty[0] = dirty;
    s->n++;
    return ev;
}

/* 100000 random single-line reads and writes over nlines lines: every
 * latency and the write-back count must match the reference. */
static void check_against_reference(int sets1, int ways1, int sets2, int ways2, int nlines, uint64_t seed)
{
    static ref_set r1[64], r2[64];
    for (int i = 0; i < sets1; i++)
        r1[i] = (ref_set){ .n = 0, .cap = ways1 };
    for (int i = 0; i < sets2; i++)
        r2[i] = (ref_set){ .n = 0, .cap = ways2 };
    cache_profile p = tiny();
    p.l1_size = (uint32_t)(sets1 * ways1 * 64);
    p.l1_ways = (uint32_t)ways1;
    p.l2_size = (uint32_t)(sets2 * ways2 * 64);
    p.l2_ways = (uint32_t)ways2;
    cache_hier *h = cache_hier_new(&p, 1, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    uint64_t writebacks = 0, mismatches = 0, s = seed;
    ps_t t = 0;
    for (int i = 0; i < 100000; i++, t += US) {
        int64_t line = (int64_t)(lcg(&s) % (uint64_t)nlines);
        int write = (lcg(&s) % 3) == 0;
        ps_t want;
        int d = 0;
        ref_set *a = &r1[line % sets1], *b = &r2[line % sets2];
        if (ref_take(a, line, &d))
            want = L1;
        else
            want = ref_take(b, line, &d) ? L2 : MEM;
        int64_t vl;
        int vd;
        if (ref_push(a, line, d || write, &vl, &vd)) {
            int64_t wl;
            int wd;
            if (ref_push(&r2[vl % sets2], vl, vd, &wl, &wd) && wd)
                writebacks++;
        }
        mismatches += cache_access(h, 0, LN(line), 8, write, t) != want;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->l2.writebacks, writebacks);
    CU_ASSERT(writebacks > 1000);
    cache_hier_free(h);
}

static void test_matches_reference_lru(void)
{
    check_against_reference(2, 2, 4, 4, 40, 7);     /* the tiny hierarchy */
    check_against_reference(4, 1, 2, 16, 60, 8);    /* direct-mapped L1, 16-way L2 */
    check_against_reference(1, 16, 1, 16, 48, 9);   /* fully associative, all 16 nibbles */
    check_against_reference(2, 3, 4, 5, 50, 10);    /* odd way counts */
}

/* ---- the Opteron profile ------------------------------------------------- */

static void test_opteron_profile(void)
{
    cache_profile p;
    cache_profile_opteron_1600(&p);
    CU_ASSERT_STRING_EQUAL(p.name, "opteron-1.6ghz");
    CU_ASSERT_EQUAL(p.l1_size, 65536);
    CU_ASSERT_EQUAL(p.l1_ways, 2);
    CU_ASSERT_DOUBLE_EQUAL(p.l1_cycles, 3, 0);
    CU_ASSERT_EQUAL(p.l2_size, 1048576);
    CU_ASSERT_EQUAL(p.l2_ways, 16);
    CU_ASSERT_DOUBLE_EQUAL(p.l2_cycles, 12, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.l2_stream_cycles, 8, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.mem_ns, 80, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.mem_stream_ns, 15, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.c2c_ns, 100, 0);
    CU_ASSERT_PTR_NULL(cache_profile_check(&p));
    cache_profile q;
    memset(&q, 0, sizeof q);
    CU_ASSERT_EQUAL(cache_profile_by_name("opteron-1.6ghz", &q), 0);
    CU_ASSERT_EQUAL(memcmp(&p, &q, sizeof p), 0);
    CU_ASSERT_EQUAL(cache_profile_by_name("opteron-2.0ghz", &q), -1);
    CU_ASSERT_EQUAL(cache_profile_by_name(NULL, &q), -1);

    /* at 1.6 GHz a cycle is 625 ps */
    cache_hier *h = cache_hier_new(&p, 2, 1600);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 16, 0, 0), 80000);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 16, 0, US), 1875);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(2), 128, 0, 2 * US), 80000 + 15000);
    /* lines 0, 1024, 2048 share an L1 set (512 sets of 2 ways) */
    cache_access(h, 0, LN(1024), 8, 0, 3 * US);
    cache_access(h, 0, LN(2048), 8, 0, 4 * US);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, 5 * US), 7500);
    cache_access(h, 1, LN(9), 8, 1, 6 * US);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(9), 8, 0, 7 * US), 100000);
    cache_hier_free(h);
}

/* 1 MiB + 32 KiB swept twice: more than the L2, less than L1 + L2.  With the
 * exclusive pair the second sweep finds every line in the L2. */
static void test_opteron_exclusive_sweep(void)
{
    cache_profile p;
    cache_profile_opteron_1600(&p);
    cache_hier *h = cache_hier_new(&p, 1, 1600);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    const int lines = (1024 * 1024 + 32 * 1024) / 64;
    ps_t t = 0;
    for (int pass = 0; pass < 2; pass++) {
        cache_stats_reset(h);
        for (int k = 0; k < lines; k++, t += 200000)
            cache_access(h, 0, LN(k), 8, 0, t);
        const cache_cpu_stats *s = cache_stats(h, 0);
        CU_ASSERT_EQUAL(s->mem_fills, pass == 0 ? (uint64_t)lines : 0);
        CU_ASSERT_EQUAL(s->l2.hits, pass == 0 ? 0 : (uint64_t)lines);
        CU_ASSERT_EQUAL(s->stall_ps, (uint64_t)lines * (pass == 0 ? 80000 : 7500));
    }
    cache_hier_free(h);
}

/* ---- the shared L3 and DDIO ------------------------------------------------ */

#define L3LAT 40000ull   /* 40 cycles at 1000 MHz */

/* The tiny hierarchy with a 4 KiB 4-way L3 (16 sets: lines 0, 4, 8, ... 60
 * fall in different L3 sets and all stay). */
static cache_hier *l3_hier(int ncpu, int ddio)
{
    cache_profile p = tiny();
    p.l3_size = 4096;
    p.l3_ways = 4;
    p.l3_cycles = 40;
    p.ddio = ddio;
    cache_hier *h = cache_hier_new(&p, ncpu, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    return h;
}

/* Line 0, then six more lines of its L1 and L2 sets: line 0 has left both
 * (2 + 4 ways), and comes back from the L3, not from memory. */
static void test_l3_serves_l2_victims(void)
{
    cache_hier *h = l3_hier(1, 0);
    ps_t t = 0;
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, t), MEM);
    for (int k = 1; k <= 6; k++)
        cache_access(h, 0, LN(4 * k), 8, 0, t += US);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(0)), 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, t += US), L3LAT);
    const cache_cpu_stats *st = cache_stats(h, 0);
    CU_ASSERT_EQUAL(st->l3.accesses, 8);
    CU_ASSERT_EQUAL(st->l3.hits, 1);
    CU_ASSERT_EQUAL(st->mem_fills, 7);
    /* without an L3 the same sequence goes to memory */
    cache_hier *n = tiny_hier(1);
    t = 0;
    cache_access(n, 0, LN(0), 8, 0, t);
    for (int k = 1; k <= 6; k++)
        cache_access(n, 0, LN(4 * k), 8, 0, t += US);
    CU_ASSERT_EQUAL(cache_access(n, 0, LN(0), 8, 0, t += US), MEM);
    cache_hier_free(n);
    cache_hier_free(h);
}

/* Without DDIO a device write takes the line out of the L3 too: the next
 * read goes to memory. */
static void test_l3_dma_without_ddio(void)
{
    cache_hier *h = l3_hier(1, 0);
    ps_t t = 0;
    cache_access(h, 0, LN(0), 8, 0, t);
    for (int k = 1; k <= 6; k++)
        cache_access(h, 0, LN(4 * k), 8, 0, t += US);
    cache_dma_write(h, LN(0), 16);
    CU_ASSERT_EQUAL(cache_l3_stats_of(h)->dma_inval, 1);
    CU_ASSERT_EQUAL(cache_l3_stats_of(h)->ddio_fills, 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(0), 8, 0, t += US), MEM);
    cache_hier_free(h);
}

/* With DDIO a device write puts its lines in the L3: a CPU that never read
 * them finds them there (a received packet's header), in every CPU. */
static void test_l3_ddio(void)
{
    cache_hier *h = l3_hier(2, 1);
    cache_dma_write(h, LN(10), 128);          /* lines 10 and 11 */
    CU_ASSERT_EQUAL(cache_l3_stats_of(h)->ddio_fills, 2);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(10), 128, 0, 0), L3LAT + L2S);   /* two lines through the L3 pipe */
    CU_ASSERT_EQUAL(cache_access(h, 1, LN(11), 8, 0, US), L3LAT);
    /* a line the CPU holds is invalidated in its L1 and refreshed in the L3 */
    cache_dma_write(h, LN(10), 8);
    CU_ASSERT_EQUAL(level_of(h, 0, LN(10)), 0);
    CU_ASSERT_EQUAL(cache_access(h, 0, LN(10), 8, 0, 2 * US), L3LAT);
    cache_hier_free(h);
}

static void test_l3_profile_checks(void)
{
    cache_profile p = tiny();
    p.ddio = 1;
    CU_ASSERT_STRING_EQUAL(cache_profile_check(&p), "DDIO needs an L3");
    p.l3_size = 4096;
    p.l3_ways = 4;
    p.l3_cycles = 10;       /* below the L2's 12 */
    CU_ASSERT_STRING_EQUAL(cache_profile_check(&p), "the L3 latency must be finite and not below the L2 latency");
    p.l3_cycles = 40;
    p.l3_ways = 3;
    CU_ASSERT_PTR_NOT_NULL(cache_profile_check(&p));
    p.l3_ways = 4;
    CU_ASSERT_PTR_NULL(cache_profile_check(&p));
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("CacheModel", NULL, NULL);
    CU_add_test(s, "MissThenHit", test_miss_then_hit);
    CU_add_test(s, "LruEviction", test_lru_eviction);
    CU_add_test(s, "ExclusiveCapacity", test_exclusive_capacity);
    CU_add_test(s, "L2EvictionToMemory", test_l2_eviction_to_memory);
    CU_add_test(s, "WriteAllocatesDirty", test_write_allocates_dirty);
    CU_add_test(s, "AccessSpanningLines", test_access_spanning_lines);
    CU_add_test(s, "TwoL2HitsStream", test_two_l2_hits_stream);
    CU_add_test(s, "DmaWriteInvalidates", test_dma_write_invalidates);
    CU_add_test(s, "DmaWriteSpanAndCpus", test_dma_write_span_and_cpus);
    CU_add_test(s, "DmaReadSnoopsDirty", test_dma_read_snoops_dirty);
    CU_add_test(s, "PrefetchEarlyHidesAll", test_prefetch_early_hides_all);
    CU_add_test(s, "PrefetchLateHidesPart", test_prefetch_late_hides_part);
    CU_add_test(s, "PrefetchFromL2", test_prefetch_from_l2);
    CU_add_test(s, "PrefetchPresentDropped", test_prefetch_present_dropped);
    CU_add_test(s, "PrefetchThenDmaWrite", test_prefetch_then_dma_write);
    CU_add_test(s, "PrefetchUnusedOnEviction", test_prefetch_unused_on_eviction);
    CU_add_test(s, "MemoryPipe", test_memory_pipe);
    CU_add_test(s, "CrossCpuWriteInvalidates", test_cross_cpu_write_invalidates);
    CU_add_test(s, "WriteToLineDirtyElsewhere", test_write_to_line_dirty_elsewhere);
    CU_add_test(s, "PerCpuClock", test_per_cpu_clock);
    CU_add_test(s, "Statistics", test_statistics);
    CU_add_test(s, "BadArguments", test_bad_arguments);
    CU_add_test(s, "Determinism", test_determinism);
    CU_add_test(s, "MatchesReferenceLru", test_matches_reference_lru);
    CU_add_test(s, "OpteronProfile", test_opteron_profile);
    CU_add_test(s, "OpteronExclusiveSweep", test_opteron_exclusive_sweep);
    CU_add_test(s, "L3ServesWhatTheL2Dropped", test_l3_serves_l2_victims);
    CU_add_test(s, "DmaWriteDropsL3LineWithoutDdio", test_l3_dma_without_ddio);
    CU_add_test(s, "DdioPutsDmaWritesInL3", test_l3_ddio);
    CU_add_test(s, "L3ProfileChecks", test_l3_profile_checks);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
