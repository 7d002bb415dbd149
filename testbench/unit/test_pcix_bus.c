/* Unit tests of models/pcix_bus.c: exact transaction timing (times worked out
 * by hand in the comments), split reads, arbitration and accounting.
 *
 * Defaults used unless a test says otherwise: 133.33 MHz -> clock 7500 ps,
 * 64-bit, arbitration 2 clocks (15000 ps), target response 2, turnaround 1,
 * MMRBC 2048, 4 outstanding splits, host read latency 600 ns, MMIO one-way
 * latency 150 ns, device read wait 6 clocks.  Addresses below 4 GiB take one
 * address clock, so a transaction header (address + attribute + response)
 * is 4 clocks = 30000 ps. */
#include "gtest_cunit.h"
#include "../../models/pcix_bus.h"
#include <string.h>

#define A0 0x10000000ull

enum { CB_READ, CB_WRITE, CB_MMIO_W, CB_MMIO_R, CB_MMIO_DONE };

typedef struct rec_ev {
    int cb, func, last;
    uint32_t tag, len, val;
    uint64_t addr;
    ps_t t;
} rec_ev;

typedef struct rec {
    sched s;
    pcix_bus *b;
    rec_ev ev[512];
    int n;
    /* MMIO read answering: 0 = not in the callback, 1 = at once, 2 = at
     * presented + reply_delay (still from inside the callback). */
    int reply_mode;
    ps_t reply_delay;
    uint32_t reply_val;
} rec;

static void push(rec *r, rec_ev e)
{
    CU_ASSERT_FATAL(r->n < (int)(sizeof r->ev / sizeof r->ev[0]));
    r->ev[r->n++] = e;
}

static void cb_read(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len,
                    int last, ps_t t)
{
    rec *r = ctx;
    CU_ASSERT_EQUAL(t, r->s.now);
    push(r, (rec_ev){ .cb = CB_READ, .func = func, .tag = tag, .addr = addr,
                      .len = len, .last = last, .t = t });
}

static void cb_write(void *ctx, int func, uint32_t tag, ps_t t)
{
    rec *r = ctx;
    CU_ASSERT_EQUAL(t, r->s.now);
    push(r, (rec_ev){ .cb = CB_WRITE, .func = func, .tag = tag, .t = t });
}

static void cb_mmio_w(void *ctx, int func, uint32_t off, uint32_t val, ps_t t)
{
    rec *r = ctx;
    push(r, (rec_ev){ .cb = CB_MMIO_W, .func = func, .addr = off, .val = val, .t = t });
}

static void cb_mmio_r(void *ctx, int func, uint32_t off, ps_t t)
{
    rec *r = ctx;
    push(r, (rec_ev){ .cb = CB_MMIO_R, .func = func, .addr = off, .t = t });
    if (r->reply_mode == 1)
        pcix_mmio_read_reply(r->b, r->reply_val, t);
    else if (r->reply_mode == 2)
        pcix_mmio_read_reply(r->b, r->reply_val, t + r->reply_delay);
}

static void cb_mmio_done(void *ctx, int func, uint32_t val, ps_t t)
{
    rec *r = ctx;
    push(r, (rec_ev){ .cb = CB_MMIO_DONE, .func = func, .val = val, .t = t });
}

static pcix_params defaults(void)
{
    pcix_params p;
    pcix_params_default(&p);
    return p;
}

static void setup(rec *r, const pcix_params *p)
{
    memset(r, 0, sizeof *r);
    sched_init(&r->s);
    host_bus_callbacks ops = { .dev = r, .read_data = cb_read, .write_done = cb_write, .mmio_write = cb_mmio_w,
                               .mmio_read = cb_mmio_r, .cpu = r, .mmio_read_done = cb_mmio_done };
    r->b = pcix_new(&r->s, p, &ops);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->b);
}

static void run_all(rec *r)
{
    sched_run_until(&r->s, PS_NEVER);
}

static void teardown(rec *r)
{
    pcix_free(r->b);
    sched_free(&r->s);
}

static ps_t busy_total(const pcix_stats *st)
{
    ps_t sum = 0;
    for (int k = 0; k < PCIX_KINDS; k++)
        sum += st->busy[k];
    return sum;
}

/* ---- parameters and names ------------------------------------------------ */

static void test_default_params(void)
{
    pcix_params p = defaults();
    CU_ASSERT_DOUBLE_EQUAL(p.mhz, 133.0, 0.5);
    CU_ASSERT_EQUAL(p.bus64, 1);
    CU_ASSERT_EQUAL(p.arb_clocks, 2);
    CU_ASSERT_EQUAL(p.target_response_clocks, 2);
    CU_ASSERT_EQUAL(p.turnaround_clocks, 1);
    CU_ASSERT_EQUAL(p.mmrbc, 2048);
    CU_ASSERT_EQUAL(p.max_outstanding_splits, 4);
    CU_ASSERT_EQUAL(p.host_read_latency, 600000);
    CU_ASSERT_EQUAL(p.mmio_host_latency, 150000);
    CU_ASSERT_EQUAL(p.device_read_wait_clocks, 6);
}

static void test_kind_names(void)
{
    CU_ASSERT_STRING_EQUAL(pcix_kind_name(PCIX_DMA_READ_REQ), "dma_read_req");
    CU_ASSERT_STRING_EQUAL(pcix_kind_name(PCIX_DMA_READ_CPL), "dma_read_cpl");
    CU_ASSERT_STRING_EQUAL(pcix_kind_name(PCIX_DMA_WRITE), "dma_write");
    CU_ASSERT_STRING_EQUAL(pcix_kind_name(PCIX_MMIO_WRITE), "mmio_write");
    CU_ASSERT_STRING_EQUAL(pcix_kind_name(PCIX_MMIO_READ), "mmio_read");
}

static void test_rejects_bad_params(void)
{
    sched s;
    sched_init(&s);
    pcix_params p = defaults();
    p.mhz = 0;
    CU_ASSERT_PTR_NULL(pcix_new(&s, &p, NULL));
    p = defaults();
    p.mmrbc = 0;
    CU_ASSERT_PTR_NULL(pcix_new(&s, &p, NULL));
    p = defaults();
    p.max_outstanding_splits = 0;
    CU_ASSERT_PTR_NULL(pcix_new(&s, &p, NULL));
    sched_free(&s);
}

/* round(1e6 / MHz) ps, with "133" and "66" meaning 133.33 and 66.67 MHz. */
static void test_clock_periods(void)
{
    const struct { double mhz; ps_t clk; } cases[] = {
        { 133, 7500 }, { 133.33, 7500 }, { 400.0 / 3.0, 7500 },
        { 100, 10000 }, { 66, 15000 }, { 66.67, 15000 }, { 50, 20000 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcix_params p = defaults();
        p.mhz = cases[i].mhz;
        setup(&r, &p);
        CU_ASSERT_EQUAL(pcix_clock_ps(r.b), cases[i].clk);
        teardown(&r);
    }
}

/* The same 64-byte write as SingleWriteIdleBus at other clocks: 2 arbitration
 * + 4 header + 8 data clocks = 14 clocks to the end of the data.
 * 100 MHz: 14 * 10000 = 140000.  66 MHz: 14 * 15000 = 210000. */
static void test_write_at_100_and_66_mhz(void)
{
    const struct { double mhz; ps_t done; } cases[] = { { 100, 140000 }, { 66, 210000 } };
    for (size_t i = 0; i < 2; i++) {
        rec r;
        pcix_params p = defaults();
        p.mhz = cases[i].mhz;
        setup(&r, &p);
        pcix_dma_write(r.b, 0, 1, A0, 64, 0);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 1);
        CU_ASSERT_EQUAL(r.ev[0].t, cases[i].done);
        teardown(&r);
    }
}

/* ---- DMA writes ---------------------------------------------------------- */

/* 64-byte write at t=0 on an idle bus:
 *   arbitration 2 clocks            0 ..  15000
 *   address+attribute+response 4   15000 ..  45000
 *   data 64/8 = 8 phases           45000 .. 105000   -> write_done at 105000
 *   turnaround 1                  105000 .. 112500   -> busy = 112500 */
static void test_single_write_idle_bus(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    CU_ASSERT_FALSE(pcix_busy(r.b));
    pcix_dma_write(r.b, 0, 42, A0, 64, 0);
    CU_ASSERT_TRUE(pcix_busy(r.b));
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_WRITE);
    CU_ASSERT_EQUAL(r.ev[0].func, 0);
    CU_ASSERT_EQUAL(r.ev[0].tag, 42);
    CU_ASSERT_EQUAL(r.ev[0].t, 105000);
    CU_ASSERT_EQUAL(r.s.now, 112500);   /* the bus-free event */
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->count[PCIX_DMA_WRITE], 1);
    CU_ASSERT_EQUAL(st->bytes[PCIX_DMA_WRITE], 64);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_WRITE], 112500);
    CU_ASSERT_EQUAL(busy_total(st), 112500);
    CU_ASSERT_FALSE(pcix_busy(r.b));
    teardown(&r);
}

/* Issued between edges at t=1000: the request waits for the edge at 7500,
 * arbitration to 22500, 12 clocks of header and data to 112500. */
static void test_write_starts_on_clock_edge(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_write(r.b, 1, 0, A0, 64, 1000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].func, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 112500);
    /* Busy counts arbitration, phases and turnaround (22500 - 15000 ..
     * 120000), not the wait for the edge. */
    CU_ASSERT_EQUAL(pcix_get_stats(r.b)->busy[PCIX_DMA_WRITE], 112500);
    teardown(&r);
}

/* Above 4 GiB the address phase is a dual address cycle: one clock more,
 * 105000 + 7500 = 112500. */
static void test_dual_address_cycle(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_write(r.b, 0, 0, 0x100000000ull, 64, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 112500);
    teardown(&r);
}

/* A write over a 4 KiB boundary goes as two transactions with one
 * write_done.  0x...FF8 + 16: 8 bytes (1 phase), then 8 bytes (1 phase).
 * First: 15000 + 5 clocks = 52500, turnaround to 60000; second: 60000 +
 * 5 clocks = 97500 (arbitration hidden). */
static void test_write_split_at_4k(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_write(r.b, 0, 3, A0 + 0xff8, 16, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].tag, 3);
    CU_ASSERT_EQUAL(r.ev[0].t, 97500);
    CU_ASSERT_EQUAL(pcix_get_stats(r.b)->count[PCIX_DMA_WRITE], 2);
    CU_ASSERT_EQUAL(pcix_get_stats(r.b)->bytes[PCIX_DMA_WRITE], 16);
    teardown(&r);
}

/* 32-bit bus: 4-byte lanes, so data phases double.
 *   aligned 64 bytes: 16 phases; 15000 + (4 + 16) * 7500 = 165000
 *     (64-bit: 8 phases, 105000; data time 60000 -> 120000)
 *   64 bytes at offset 2: 64-bit ceil((2+64)/8) = 9 -> 15000 + 13*7500 = 112500
 *                         32-bit ceil((2+64)/4) = 17 -> 15000 + 21*7500 = 172500
 *   64-byte read completion: 667500 + (4 + 16) * 7500 = 817500 */
static void test_bus32_doubles_data_phases(void)
{
    const struct { int bus64; uint64_t addr; ps_t done; } cases[] = {
        { 1, A0, 105000 }, { 0, A0, 165000 }, { 1, A0 + 2, 112500 }, { 0, A0 + 2, 172500 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcix_params p = defaults();
        p.bus64 = cases[i].bus64;
        setup(&r, &p);
        pcix_dma_write(r.b, 0, 0, cases[i].addr, 64, 0);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 1);
        CU_ASSERT_EQUAL(r.ev[0].t, cases[i].done);
        teardown(&r);
    }
    rec r;
    pcix_params p = defaults();
    p.bus64 = 0;
    setup(&r, &p);
    pcix_dma_read(r.b, 0, 0, A0, 64, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 817500);
    teardown(&r);
}

/* ---- DMA reads ----------------------------------------------------------- */

/* 64-byte read at t=0:
 *   request: arbitration 0..15000, header 4 + split response 1 clocks
 *            15000..52500, turnaround to 60000          (busy 60000)
 *   bridge latency: 52500 + 600000 = 652500 (a clock edge: 87 * 7500)
 *   completion on the idle bus: arbitration 652500..667500, header 4 +
 *            data 8 clocks 667500..757500 -> read_data at 757500,
 *            turnaround to 765000                        (busy 112500) */
static void test_read_64(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_read(r.b, 0, 9, A0 + 0x40, 64, 0);
    sched_run_until(&r.s, 700000);
    CU_ASSERT_EQUAL(r.n, 0);
    CU_ASSERT_TRUE(pcix_busy(r.b));     /* awaiting its completion */
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_READ);
    CU_ASSERT_EQUAL(r.ev[0].tag, 9);
    CU_ASSERT_EQUAL(r.ev[0].addr, A0 + 0x40);
    CU_ASSERT_EQUAL(r.ev[0].len, 64);
    CU_ASSERT_EQUAL(r.ev[0].last, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 757500);
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->count[PCIX_DMA_READ_REQ], 1);
    CU_ASSERT_EQUAL(st->count[PCIX_DMA_READ_CPL], 1);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_READ_REQ], 60000);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_READ_CPL], 112500);
    CU_ASSERT_EQUAL(st->bytes[PCIX_DMA_READ_REQ], 0);    /* a request carries no payload */
    CU_ASSERT_EQUAL(st->bytes[PCIX_DMA_READ_CPL], 64);
    CU_ASSERT_EQUAL(busy_total(st), 60000 + 112500);
    CU_ASSERT_FALSE(pcix_busy(r.b));
    teardown(&r);
}

/* 4096 bytes with MMRBC 512 (8 outstanding splits allowed, so none waits):
 *   requests back to back, 6 clocks (45000) each, the first after
 *   arbitration: request k starts 15000 + 45000k, its split response ends
 *   at 52500 + 45000k, its completion is ready 600 ns later at
 *   652500 + 45000k.
 *   completion 0 finds the bus idle (free since 375000): arbitration to
 *   667500, 4 + 64 clocks -> data end 1177500, turnaround to 1185000.
 *   completions 1..7 are already waiting: 69 clocks (517500) each, so
 *   completion k delivers at 1177500 + 517500k (k = 7: 4800000). */
static void test_read_4096_mmrbc_512(void)
{
    rec r;
    pcix_params p = defaults();
    p.mmrbc = 512;
    p.max_outstanding_splits = 8;
    setup(&r, &p);
    pcix_dma_read(r.b, 1, 77, A0, 4096, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 8);
    for (int k = 0; k < 8; k++) {
        CU_ASSERT_EQUAL(r.ev[k].cb, CB_READ);
        CU_ASSERT_EQUAL(r.ev[k].func, 1);
        CU_ASSERT_EQUAL(r.ev[k].tag, 77);
        CU_ASSERT_EQUAL(r.ev[k].addr, A0 + 512u * (unsigned)k);
        CU_ASSERT_EQUAL(r.ev[k].len, 512);
        CU_ASSERT_EQUAL(r.ev[k].last, k == 7);
        CU_ASSERT_EQUAL(r.ev[k].t, 1177500 + 517500 * (ps_t)k);
    }
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->count[PCIX_DMA_READ_REQ], 8);
    CU_ASSERT_EQUAL(st->count[PCIX_DMA_READ_CPL], 8);
    CU_ASSERT_EQUAL(st->bytes[PCIX_DMA_READ_CPL], 4096);
    CU_ASSERT_EQUAL(st->queued_for_splits, 0);
    /* Busy: requests 15000 + 8 * 45000; completions 15000 + 8 * 517500. */
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_READ_REQ], 375000);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_READ_CPL], 4155000);
    teardown(&r);
}

/* A read above 4 GiB: the request has a dual address cycle, 6 clocks
 * 15000..60000; the completion addresses the requester (ID, tag), not
 * memory, so it keeps a single address clock.
 *   completion ready 60000 + 600000 = 660000 (88 * 7500), arbitration to
 *   675000, 4 + 8 clocks -> 765000. */
static void test_read_above_4g(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_read(r.b, 0, 0, 0x100000000ull, 64, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 765000);
    CU_ASSERT_EQUAL(pcix_get_stats(r.b)->busy[PCIX_DMA_READ_REQ], 15000 + 52500);
    teardown(&r);
}

/* A read over a 4 KiB boundary: 0x...F00 + 512 -> 256 + 256 bytes.
 * Requests at 15000 (resp. end 52500) and 60000 (resp. end 97500).
 * Completion 0: ready 652500, arbitration to 667500, 4 + 32 clocks -> 937500,
 * free 945000.  Completion 1 (ready 697500) follows: 945000 + 36 clocks
 * -> 1215000. */
static void test_read_split_at_4k(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_read(r.b, 0, 5, A0 + 0xf00, 512, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[0].addr, A0 + 0xf00);
    CU_ASSERT_EQUAL(r.ev[0].len, 256);
    CU_ASSERT_EQUAL(r.ev[0].last, 0);
    CU_ASSERT_EQUAL(r.ev[0].t, 937500);
    CU_ASSERT_EQUAL(r.ev[1].addr, A0 + 0x1000);
    CU_ASSERT_EQUAL(r.ev[1].len, 256);
    CU_ASSERT_EQUAL(r.ev[1].last, 1);
    CU_ASSERT_EQUAL(r.ev[1].t, 1215000);
    teardown(&r);
}

/* 1024 bytes, MMRBC 512, one outstanding split:
 *   request 0: 15000..52500, free 60000; request 1 must wait for the slot.
 *   completion 0: ready 652500, arbitration to 667500, 68 clocks -> 1177500
 *   (the slot frees and request 1 raises its request), free 1185000.
 *   request 1 at 1185000 (arbitration hidden in the turnaround): response
 *   ends 1222500; completion ready 1822500 (243 * 7500) on an idle bus:
 *   arbitration to 1837500, 68 clocks -> 2347500.
 * With two splits allowed the second completion would follow the first at
 * 1185000 + 510000 = 1695000 and nothing waits. */
static void test_max_outstanding_splits_limits(void)
{
    const struct { unsigned splits; ps_t second; uint64_t queued; } cases[] = {
        { 1, 2347500, 1 }, { 2, 1695000, 0 },
    };
    for (size_t i = 0; i < 2; i++) {
        rec r;
        pcix_params p = defaults();
        p.mmrbc = 512;
        p.max_outstanding_splits = cases[i].splits;
        setup(&r, &p);
        pcix_dma_read(r.b, 0, 1, A0, 1024, 0);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 2);
        CU_ASSERT_EQUAL(r.ev[0].t, 1177500);
        CU_ASSERT_EQUAL(r.ev[1].t, cases[i].second);
        CU_ASSERT_EQUAL(r.ev[1].last, 1);
        CU_ASSERT_EQUAL(pcix_get_stats(r.b)->queued_for_splits, cases[i].queued);
        teardown(&r);
    }
}

/* A sequence that waited for a split slot raises its request when the slot
 * frees.  With no turnaround the bus is idle at that very moment, so the
 * arbitration is exposed.  1024 bytes, MMRBC 512, one split, turnaround 0:
 *   request 0: arbitration to 15000, 5 clocks -> 52500 (bus free)
 *   completion 0: ready 652500, arbitration to 667500, 68 clocks -> 1177500;
 *   request 1 raised at 1177500 as the bus frees: arbitration to 1192500,
 *   response end 1230000; completion ready 1830000 (244 * 7500),
 *   arbitration to 1845000, 68 clocks -> 2355000. */
static void test_slot_wait_exposes_arbitration(void)
{
    rec r;
    pcix_params p = defaults();
    p.mmrbc = 512;
    p.max_outstanding_splits = 1;
    p.turnaround_clocks = 0;
    setup(&r, &p);
    pcix_dma_read(r.b, 0, 1, A0, 1024, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[0].t, 1177500);
    CU_ASSERT_EQUAL(r.ev[1].t, 2355000);
    teardown(&r);
}

/* Under load, stepping event by event: requests granted minus completions
 * delivered never exceeds the limit, and the limit is reached. */
static void test_outstanding_never_exceeds_limit(void)
{
    rec r;
    pcix_params p = defaults();
    p.mmrbc = 512;
    p.max_outstanding_splits = 3;
    setup(&r, &p);
    for (int k = 0; k < 3; k++)
        pcix_dma_read(r.b, 0, (uint32_t)k, A0 + 0x10000u * (unsigned)k, 4096, 0);
    const pcix_stats *st = pcix_get_stats(r.b);
    int max_seen = 0;
    while (sched_run_one(&r.s, PS_NEVER)) {
        int delivered = 0;
        for (int i = 0; i < r.n; i++)
            delivered += r.ev[i].cb == CB_READ;
        int open = (int)st->count[PCIX_DMA_READ_REQ] - delivered;
        if (open > max_seen)
            max_seen = open;
    }
    CU_ASSERT_EQUAL(max_seen, 3);
    CU_ASSERT_EQUAL(r.n, 3 * 8);
    CU_ASSERT(st->queued_for_splits > 0);
    CU_ASSERT(st->queued_for_splits <= 3 * 8 - 3);
    teardown(&r);
}

/* Reads from two functions with several tags each, different sizes and
 * alignments: every tag's sequences arrive in address order, cover the
 * request exactly, and only the final one has last set. */
static void test_sequences_in_address_order(void)
{
    rec r;
    pcix_params p = defaults();
    p.mmrbc = 512;
    p.max_outstanding_splits = 2;
    setup(&r, &p);
    enum { NT = 6 };
    const uint32_t len[NT] = { 3000, 64, 5000, 1500, 4096, 700 };
    uint64_t base[NT], next[NT];
    int done[NT] = { 0 };
    for (int i = 0; i < NT; i++) {
        base[i] = next[i] = A0 + 0x10000u * (unsigned)i + 24u * (unsigned)i;
        pcix_dma_read(r.b, i % 2, (uint32_t)i, base[i], len[i], 1000u * (unsigned)i);
    }
    run_all(&r);
    for (int e = 0; e < r.n; e++) {
        const rec_ev *ev = &r.ev[e];
        CU_ASSERT_FATAL(ev->cb == CB_READ && ev->tag < NT);
        int i = (int)ev->tag;
        CU_ASSERT_EQUAL(ev->func, i % 2);
        CU_ASSERT_FALSE(done[i]);
        CU_ASSERT_EQUAL(ev->addr, next[i]);
        CU_ASSERT(ev->len <= 512);
        /* Never across a 4 KiB boundary. */
        CU_ASSERT_EQUAL(ev->addr / 4096, (ev->addr + ev->len - 1) / 4096);
        next[i] += ev->len;
        CU_ASSERT_EQUAL(ev->last, next[i] == base[i] + len[i]);
        done[i] = ev->last;
    }
    for (int i = 0; i < NT; i++)
        CU_ASSERT_TRUE(done[i]);
    CU_ASSERT_FALSE(pcix_busy(r.b));
    teardown(&r);
}

/* ---- MMIO ---------------------------------------------------------------- */

/* MMIO write issued by the CPU at 1 us: reaches the bridge at 1150000,
 * next edge 1155000 (154 * 7500), arbitration to 1170000, header 4 + data 1
 * clocks -> the device sees it at 1207500; turnaround to 1215000. */
static void test_mmio_write_arrival(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_mmio_write(r.b, 1, 0x3818, 0x1234abcd, 1000000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_MMIO_W);
    CU_ASSERT_EQUAL(r.ev[0].func, 1);
    CU_ASSERT_EQUAL(r.ev[0].addr, 0x3818);
    CU_ASSERT_EQUAL(r.ev[0].val, 0x1234abcd);
    CU_ASSERT_EQUAL(r.ev[0].t, 1207500);
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->count[PCIX_MMIO_WRITE], 1);
    CU_ASSERT_EQUAL(st->bytes[PCIX_MMIO_WRITE], 4);
    CU_ASSERT_EQUAL(st->busy[PCIX_MMIO_WRITE], 1215000 - 1155000);
    teardown(&r);
}

/* MMIO read at t_cpu 0, answered inside the callback:
 *   bridge at 150000 (an edge), arbitration to 165000, header 4 clocks
 *   -> presented at 195000; data no earlier than 6 wait clocks later,
 *   240000; data phase to 247500; the CPU has it at 247500 + 150000 =
 *   397500.  Bus: 150000..255000 = 14 clocks = 105000 busy. */
static void test_mmio_read_reply_in_callback(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    r.reply_mode = 1;
    r.reply_val = 0x80080783;
    pcix_mmio_read(r.b, 0, 0x8, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_MMIO_R);
    CU_ASSERT_EQUAL(r.ev[0].addr, 0x8);
    CU_ASSERT_EQUAL(r.ev[0].t, 195000);
    CU_ASSERT_EQUAL(r.ev[1].cb, CB_MMIO_DONE);
    CU_ASSERT_EQUAL(r.ev[1].val, 0x80080783);
    CU_ASSERT_EQUAL(r.ev[1].t, 397500);
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->count[PCIX_MMIO_READ], 1);
    CU_ASSERT_EQUAL(st->busy[PCIX_MMIO_READ], 105000);
    CU_ASSERT_FALSE(pcix_busy(r.b));
    teardown(&r);
}

/* Answered from inside the callback but for a later time, 195000 + 100000
 * = 295000: the data phase waits for the next edge, 300000, ends 307500;
 * the CPU has it at 457500. */
static void test_mmio_read_reply_in_callback_later(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    r.reply_mode = 2;
    r.reply_delay = 100000;
    r.reply_val = 7;
    pcix_mmio_read(r.b, 0, 0xc0, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[1].t, 457500);
    CU_ASSERT_EQUAL(r.ev[1].val, 7);
    teardown(&r);
}

/* The owner answers after the callback returned, at 301000; meanwhile a DMA
 * write raised at 200000 waits behind the wait states.
 *   presented 195000 (as above); reply 301000 -> next edge 307500, data to
 *   315000, CPU at 465000; bus free at 322500 (busy 15000 + 21 clocks =
 *   172500).
 *   write: raised while the bus was busy, so no arbitration: 322500 +
 *   12 clocks -> 412500. */
static void test_mmio_read_delayed_reply(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_mmio_read(r.b, 1, 0x10, 0);
    pcix_dma_write(r.b, 0, 2, A0, 64, 200000);
    sched_run_until(&r.s, 301000);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_MMIO_R);
    CU_ASSERT_EQUAL(r.ev[0].func, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 195000);
    CU_ASSERT_TRUE(pcix_busy(r.b));
    pcix_mmio_read_reply(r.b, 0xdeadbeef, 301000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_EQUAL(r.ev[1].cb, CB_WRITE);
    CU_ASSERT_EQUAL(r.ev[1].t, 412500);
    CU_ASSERT_EQUAL(r.ev[2].cb, CB_MMIO_DONE);
    CU_ASSERT_EQUAL(r.ev[2].func, 1);
    CU_ASSERT_EQUAL(r.ev[2].val, 0xdeadbeef);
    CU_ASSERT_EQUAL(r.ev[2].t, 465000);
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->busy[PCIX_MMIO_READ], 172500);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_WRITE], 97500);
    teardown(&r);
}

/* A reply with no read presented changes nothing. */
static void test_spurious_reply_ignored(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_mmio_read_reply(r.b, 1, 0);
    run_all(&r);
    CU_ASSERT_EQUAL(r.n, 0);
    CU_ASSERT_FALSE(pcix_busy(r.b));
    CU_ASSERT_EQUAL(busy_total(pcix_get_stats(r.b)), 0);
    teardown(&r);
}

/* ---- arbitration and accounting ------------------------------------------ */

/* Both functions queue three 64-byte writes at t=0, function 0 first.
 * Function 0 wins the idle bus (arbitration 15000); from then on the grant
 * alternates and each write takes 13 clocks (97500) with hidden
 * arbitration: write k ends its data at 105000 + 97500k. */
static void test_round_robin_two_functions(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    for (int k = 0; k < 3; k++)
        pcix_dma_write(r.b, 0, (uint32_t)k, A0 + 0x1000u * (unsigned)k, 64, 0);
    for (int k = 0; k < 3; k++)
        pcix_dma_write(r.b, 1, (uint32_t)k, A0 + 0x8000u + 0x1000u * (unsigned)k, 64, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 6);
    for (int k = 0; k < 6; k++) {
        CU_ASSERT_EQUAL(r.ev[k].func, k % 2);
        CU_ASSERT_EQUAL(r.ev[k].tag, (uint32_t)(k / 2));
        CU_ASSERT_EQUAL(r.ev[k].t, 105000 + 97500 * (ps_t)k);
    }
    teardown(&r);
}

/* Three masters.  t=0: function 0 and function 1 queue two writes each; the
 * CPU posts an MMIO write at 0 that reaches the bridge at 150000.
 *   f0 w0: arbitration, data end 105000, free 112500
 *   f1 w0: 112500 + 12 clocks -> 202500, free 210000
 *   host (next in turn, waiting since 150000): 210000 + 5 clocks -> 247500,
 *          free 255000
 *   f0 w1: 255000 -> 345000, free 352500
 *   f1 w1: 352500 -> 442500, free 450000
 * Busy adds up to the whole span, 450000 = 15000 + 4 * 97500 + 45000. */
static void test_round_robin_three_masters_and_busy_accounting(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_write(r.b, 0, 0, A0, 64, 0);
    pcix_dma_write(r.b, 0, 1, A0 + 0x100, 64, 0);
    pcix_dma_write(r.b, 1, 0, A0 + 0x200, 64, 0);
    pcix_dma_write(r.b, 1, 1, A0 + 0x300, 64, 0);
    pcix_mmio_write(r.b, 0, 0x2818, 5, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 5);
    const struct { int cb, func; ps_t t; } want[5] = {
        { CB_WRITE, 0, 105000 }, { CB_WRITE, 1, 202500 }, { CB_MMIO_W, 0, 247500 },
        { CB_WRITE, 0, 345000 }, { CB_WRITE, 1, 442500 },
    };
    for (int k = 0; k < 5; k++) {
        CU_ASSERT_EQUAL(r.ev[k].cb, want[k].cb);
        CU_ASSERT_EQUAL(r.ev[k].func, want[k].func);
        CU_ASSERT_EQUAL(r.ev[k].t, want[k].t);
    }
    CU_ASSERT_EQUAL(r.s.now, 450000);
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_WRITE], 15000 + 4 * 97500);
    CU_ASSERT_EQUAL(st->busy[PCIX_MMIO_WRITE], 45000);
    CU_ASSERT_EQUAL(busy_total(st), 450000);
    CU_ASSERT_EQUAL(st->count[PCIX_DMA_WRITE], 4);
    CU_ASSERT_EQUAL(st->count[PCIX_MMIO_WRITE], 1);
    CU_ASSERT_EQUAL(st->bytes[PCIX_DMA_WRITE], 256);
    teardown(&r);
}

/* Busy time of a mixed load equals the sum of the per-transaction times:
 *   read 64 (as Read64): request 60000 + completion 112500
 *   write 64 raised at 1 ms on an idle bus: 112500
 *   MMIO write at 2 ms on an idle bus: 15000 + 6 clocks = 60000
 *   MMIO read at 3 ms, answered at once (as above): 105000 */
static void test_busy_accounting_adds_up(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    r.reply_mode = 1;
    pcix_dma_read(r.b, 0, 0, A0, 64, 0);
    pcix_dma_write(r.b, 1, 0, A0, 64, 1000000000);
    pcix_mmio_write(r.b, 0, 0x100, 1, 2000000000);
    pcix_mmio_read(r.b, 0, 0x8, 3000000000);
    run_all(&r);
    CU_ASSERT_EQUAL(r.n, 5);
    const pcix_stats *st = pcix_get_stats(r.b);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_READ_REQ], 60000);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_READ_CPL], 112500);
    CU_ASSERT_EQUAL(st->busy[PCIX_DMA_WRITE], 112500);
    CU_ASSERT_EQUAL(st->busy[PCIX_MMIO_WRITE], 60000);
    CU_ASSERT_EQUAL(st->busy[PCIX_MMIO_READ], 105000);
    CU_ASSERT_EQUAL(busy_total(st), 60000 + 112500 + 112500 + 60000 + 105000);
    teardown(&r);
}

/* Zero-length DMA and an unknown function do nothing. */
static void test_ignored_requests(void)
{
    rec r;
    pcix_params p = defaults();
    setup(&r, &p);
    pcix_dma_read(r.b, 0, 0, A0, 0, 0);
    pcix_dma_write(r.b, 0, 0, A0, 0, 0);
    pcix_dma_write(r.b, 2, 0, A0, 64, 0);
    pcix_mmio_write(r.b, -1, 0, 0, 0);
    CU_ASSERT_FALSE(pcix_busy(r.b));
    run_all(&r);
    CU_ASSERT_EQUAL(r.n, 0);
    CU_ASSERT_EQUAL(r.s.events_run, 0);
    teardown(&r);
}

/* Same load twice: identical callback logs. */
static void test_deterministic(void)
{
    static rec r1, r2;
    rec *rs[2] = { &r1, &r2 };
    pcix_params p = defaults();
    p.mmrbc = 1024;
    p.max_outstanding_splits = 2;
    for (int i = 0; i < 2; i++) {
        rec *r = rs[i];
        setup(r, &p);
        r->reply_mode = 1;
        pcix_dma_read(r->b, 0, 1, A0, 6000, 0);
        pcix_dma_read(r->b, 1, 2, A0 + 0x20000, 3000, 3333);
        pcix_dma_write(r->b, 1, 3, A0 + 0x40000, 1518, 12345);
        pcix_mmio_read(r->b, 0, 0x8, 5000);
        pcix_mmio_write(r->b, 1, 0x3818, 9, 7000);
        run_all(r);
    }
    CU_ASSERT_EQUAL(r1.n, r2.n);
    CU_ASSERT_EQUAL(memcmp(r1.ev, r2.ev, sizeof r1.ev[0] * (size_t)r1.n), 0);
    CU_ASSERT_EQUAL(memcmp(pcix_get_stats(r1.b), pcix_get_stats(r2.b), sizeof(pcix_stats)), 0);
    teardown(&r1);
    teardown(&r2);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("PcixBus", NULL, NULL);
    CU_add_test(s, "DefaultParams", test_default_params);
    CU_add_test(s, "KindNames", test_kind_names);
    CU_add_test(s, "RejectsBadParams", test_rejects_bad_params);
    CU_add_test(s, "ClockPeriods", test_clock_periods);
    CU_add_test(s, "WriteAt100And66Mhz", test_write_at_100_and_66_mhz);
    CU_add_test(s, "SingleWriteIdleBus", test_single_write_idle_bus);
    CU_add_test(s, "WriteStartsOnClockEdge", test_write_starts_on_clock_edge);
    CU_add_test(s, "DualAddressCycle", test_dual_address_cycle);
    CU_add_test(s, "WriteSplitAt4k", test_write_split_at_4k);
    CU_add_test(s, "Bus32DoublesDataPhases", test_bus32_doubles_data_phases);
    CU_add_test(s, "Read64", test_read_64);
    CU_add_test(s, "Read4096Mmrbc512", test_read_4096_mmrbc_512);
    CU_add_test(s, "ReadAbove4g", test_read_above_4g);
    CU_add_test(s, "ReadSplitAt4k", test_read_split_at_4k);
    CU_add_test(s, "MaxOutstandingSplitsLimits", test_max_outstanding_splits_limits);
    CU_add_test(s, "SlotWaitExposesArbitration", test_slot_wait_exposes_arbitration);
    CU_add_test(s, "OutstandingNeverExceedsLimit", test_outstanding_never_exceeds_limit);
    CU_add_test(s, "SequencesInAddressOrder", test_sequences_in_address_order);
    CU_add_test(s, "MmioWriteArrival", test_mmio_write_arrival);
    CU_add_test(s, "MmioReadReplyInCallback", test_mmio_read_reply_in_callback);
    CU_add_test(s, "MmioReadReplyInCallbackLater", test_mmio_read_reply_in_callback_later);
    CU_add_test(s, "MmioReadDelayedReply", test_mmio_read_delayed_reply);
    CU_add_test(s, "SpuriousReplyIgnored", test_spurious_reply_ignored);
    CU_add_test(s, "RoundRobinTwoFunctions", test_round_robin_two_functions);
    CU_add_test(s, "RoundRobinThreeMastersAndBusyAccounting",
                test_round_robin_three_masters_and_busy_accounting);
    CU_add_test(s, "BusyAccountingAddsUp", test_busy_accounting_adds_up);
    CU_add_test(s, "IgnoredRequests", test_ignored_requests);
    CU_add_test(s, "Deterministic", test_deterministic);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
