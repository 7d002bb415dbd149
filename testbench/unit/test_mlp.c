/* Unit tests of memory-level parallelism: the cache model's line fill
 * buffers (models/cache_model.c) and the core's window over the loads in
 * flight (models/cpu_model.c), used together as the simulator platform
 * does (an access is timed by the cache at the core's clock; the core pays
 * the L1 hit at once and the rest as its window allows).
 *
 * A tiny hierarchy at 1000 MHz (1 cycle = 1 ns): L1 hit 3 ns, memory 100 ns,
 * a further line from memory every 10 ns (its bandwidth), every line cold:
 * line k is at BASE + 64 k. */
#include "gtest_cunit.h"
#include "../../models/cache_model.h"
#include "../../models/cpu_model.h"
#include <string.h>

#define BASE 0x10000000ull
#define LN(k) (BASE + (uint64_t)(k) * 64u)
#define NS 1000ull      /* ps */

static cache_hier *hier(uint32_t lfb)
{
    cache_profile p;
    memset(&p, 0, sizeof p);
    p.name = "tiny";
    p.l1_size = 4096;
    p.l1_ways = 4;
    p.l1_cycles = 3;
    p.l2_size = 16384;
    p.l2_ways = 4;
    p.l2_cycles = 12;
    p.l2_stream_cycles = 8;
    p.mem_ns = 100;
    p.mem_stream_ns = 10;
    p.c2c_ns = 150;
    p.lfb = lfb;
    cache_hier *h = cache_hier_new(&p, 1, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    return h;
}

static cpu core(double window_cycles)
{
    cpu_profile p;
    memset(&p, 0, sizeof p);
    p.mhz = 1000;
    p.window_cycles = window_cycles;
    cpu c;
    cpu_init(&c, 0, &p, 0);
    return c;
}

/* A load of line k by core c, as plat_mem_read64 does; returns when its
 * data is there. */
static ps_t load(cache_hier *h, cpu *c, int k)
{
    ps_t ready = cache_access_ready(h, 0, LN(k), 8, 0, c->t);
    cpu_load(c, ready, cache_l1_ps(h, 0));
    return ready;
}

/* Four independent misses are in flight together: the core waits about one
 * memory latency (plus the memory's streaming of the other three lines);
 * four dependent ones (each address from the previous load's data) wait
 * four latencies. */
static void test_independent_against_dependent(void)
{
    cache_hier *h = hier(0);
    cpu c = core(1000);
    for (int k = 0; k < 4; k++)
        load(h, &c, k);
    CU_ASSERT_EQUAL(c.t, 4 * 3 * NS);        /* only the issues so far */
    cpu_drain_loads(&c);
    CU_ASSERT_EQUAL(c.t, 130 * NS);           /* 9 + 100 issue and latency, 3 x 10 streaming */
    cache_hier_free(h);

    h = hier(0);
    c = core(1000);
    for (int k = 0; k < 4; k++)
        cpu_wait_until(&c, load(h, &c, k));   /* the next address needs this data */
    CU_ASSERT_EQUAL(c.t, 400 * NS);
    CU_ASSERT_EQUAL(c.cat_ps[CPU_CAT_MEM], 400 * NS);
    cache_hier_free(h);
}

/* Without a window (window_cycles 0) every miss stalls at once: the model
 * before memory-level parallelism, four latencies for four loads. */
static void test_no_window_is_in_order(void)
{
    cache_hier *h = hier(0);
    cpu c = core(0);
    for (int k = 0; k < 4; k++)
        load(h, &c, k);
    CU_ASSERT_EQUAL(c.t, 400 * NS);
    cache_hier_free(h);
}

/* Two line fill buffers: the third and fourth misses wait for the first two
 * to complete, so four misses take two latencies; the waits are counted. */
static void test_fill_buffer_limit(void)
{
    cache_hier *h = hier(2);
    cpu c = core(1000);
    ps_t r[4];
    for (int k = 0; k < 4; k++)
        r[k] = load(h, &c, k);
    CU_ASSERT_EQUAL(r[0], 100 * NS);
    CU_ASSERT_EQUAL(r[1], 110 * NS);          /* 3 + 100, after the streaming of line 0 */
    CU_ASSERT_EQUAL(r[2], 200 * NS);          /* starts when buffer 0 frees at 100 */
    CU_ASSERT_EQUAL(r[3], 210 * NS);          /* buffer 1 frees at 110 */
    cpu_drain_loads(&c);
    CU_ASSERT_EQUAL(c.t, 210 * NS);
    const cache_cpu_stats *st = cache_stats(h, 0);
    CU_ASSERT_EQUAL(st->lfb_waits, 2);
    CU_ASSERT_EQUAL(st->lfb_wait_ps, (100 - 6 + 110 - 9) * NS);
    cache_hier_free(h);
}

/* Software prefetches take the same buffers: with two, two prefetches in
 * flight hold a demand miss back until the first of them has its line. */
static void test_prefetch_shares_buffers(void)
{
    cache_hier *h = hier(2);
    cpu c = core(1000);
    cache_prefetch(h, 0, LN(0), 0);
    cache_prefetch(h, 0, LN(1), 0);
    CU_ASSERT_EQUAL(load(h, &c, 2), 200 * NS);
    CU_ASSERT_EQUAL(cache_stats(h, 0)->lfb_waits, 1);
    /* the prefetched lines are there when read later */
    cpu_wait_until(&c, 300 * NS);
    ps_t t0 = c.t;
    load(h, &c, 0);
    CU_ASSERT_EQUAL(c.t, t0 + 3 * NS);
    cache_hier_free(h);
}

/* The window: the core runs 20 cycles of its program past a missing load,
 * then waits for it.  Four loads issued at program positions 3, 6, 9, 12
 * (ready 100, 110, 120, 130), then 100 ns of work that does not need them:
 * the work stops at position 23 until 100, goes on 3 ns to position 26 and
 * waits for 110, and so on; after the last load (130, at position 32) the
 * remaining 80 ns of work run: the end is 210 ns, against 500 in order. */
static void test_window_bounds_run_ahead(void)
{
    cache_hier *h = hier(0);
    cpu c = core(20);
    for (int k = 0; k < 4; k++)
        load(h, &c, k);
    cpu_charge(&c, CPU_CAT_WORK, 100 * NS);
    CU_ASSERT_EQUAL(c.t, 210 * NS);
    CU_ASSERT_EQUAL(c.cat_ps[CPU_CAT_WORK], 100 * NS);
    CU_ASSERT_EQUAL(c.cat_ps[CPU_CAT_MEM], 110 * NS);   /* 4 x 3 issue + 98 waiting */
    /* the same work with the window wide enough for all four: no wait */
    cache_hier_free(h);
    h = hier(0);
    c = core(200);
    for (int k = 0; k < 4; k++)
        load(h, &c, k);
    cpu_charge(&c, CPU_CAT_WORK, 100 * NS);
    CU_ASSERT_EQUAL(c.t, 112 * NS);            /* the loads are still in flight */
    cpu_charge(&c, CPU_CAT_WORK, 150 * NS);    /* past the first window's end at 203: the
                                                  data came at 100..130 meanwhile */
    CU_ASSERT_EQUAL(c.t, 262 * NS);
    CU_ASSERT_EQUAL(c.cat_ps[CPU_CAT_MEM], 12 * NS);
    cache_hier_free(h);
}

/* Idle time waits for nothing: a load in flight completes while the core
 * waits for an interrupt. */
static void test_idle_hides_misses(void)
{
    cache_hier *h = hier(0);
    cpu c = core(20);
    load(h, &c, 0);
    cpu_charge(&c, CPU_CAT_IDLE, 200 * NS);
    cpu_charge(&c, CPU_CAT_WORK, 10 * NS);
    CU_ASSERT_EQUAL(c.t, 213 * NS);
    CU_ASSERT_EQUAL(c.cat_ps[CPU_CAT_MEM], 3 * NS);
    cache_hier_free(h);
}

/* A store miss waits in the store buffer: the core goes on until a store
 * fence, which waits for the line. */
static void test_store_waits_for_fence(void)
{
    cache_hier *h = hier(0);
    cpu c = core(20);
    ps_t ready = cache_access_ready(h, 0, LN(5), 8, 1, c.t);
    cpu_store(&c, ready, cache_l1_ps(h, 0));
    cpu_charge(&c, CPU_CAT_WORK, 50 * NS);
    CU_ASSERT_EQUAL(c.t, 53 * NS);
    cpu_drain_stores(&c);
    CU_ASSERT_EQUAL(c.t, 100 * NS);
    cache_hier_free(h);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("MemoryLevelParallelism", NULL, NULL);
    CU_add_test(s, "IndependentAgainstDependent", test_independent_against_dependent);
    CU_add_test(s, "NoWindowIsInOrder", test_no_window_is_in_order);
    CU_add_test(s, "FillBufferLimit", test_fill_buffer_limit);
    CU_add_test(s, "PrefetchSharesBuffers", test_prefetch_shares_buffers);
    CU_add_test(s, "WindowBoundsRunAhead", test_window_bounds_run_ahead);
    CU_add_test(s, "IdleHidesMisses", test_idle_hides_misses);
    CU_add_test(s, "StoreWaitsForFence", test_store_waits_for_fence);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
