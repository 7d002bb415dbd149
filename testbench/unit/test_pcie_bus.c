/* Unit tests of models/pcie_bus.c and `nicsim buscalc` (sim/cli/buscalc.c): exact
 * TLP timing (times worked out by hand in the comments), splitting, tags,
 * DLLPs and SKPs, MMIO ordering, the stream calculator against its formula
 * and against pcie-bench's figures (nic-facts D1).
 *
 * Defaults unless a test says otherwise: Gen2 x8 -> 4 bytes per ns per
 * direction, one byte = 250 ps; MPS 256, MRRS 512, RCB 64, 64-bit DMA
 * addresses (MWr/MRd header 24 B, CplD 20 B), 32 tags, Ack and UpdateFC
 * every 158 B of the other direction's activity, SKP (4 B = 1000 ps) due
 * every 1538 B = 384500 ps, host read latency 500 ns, MMIO latency 150 ns.
 * MMIO TLPs: MWr 24 B (20 + 4 data), MRd 20 B, CplD 24 B. */
#include "gtest_cunit.h"
#include "../../models/pcie_bus.h"
#include "../../sim/cli/cli.h"
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define A0 0x100000000ull       /* 4 KiB aligned, above 4 GiB */
#define LOW 0x10000000ull       /* 4 KiB aligned, below 4 GiB */

enum { CB_READ, CB_WRITE, CB_MMIO_W, CB_MMIO_R, CB_MMIO_DONE };

typedef struct rec_ev {
    int cb, func, last;
    uint32_t tag, len, val;
    uint64_t addr;
    ps_t t;
} rec_ev;

typedef struct rec {
    sched s;
    pcie_bus *b;
    rec_ev ev[1024];
    int n;
    int reply_at_once;      /* answer MMIO reads inside the callback */
    uint32_t reply_val;
} rec;

static void push_ev(rec *r, rec_ev e)
{
    CU_ASSERT_FATAL(r->n < (int)(sizeof r->ev / sizeof r->ev[0]));
    r->ev[r->n++] = e;
}

static void cb_read(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len, int last, ps_t t)
{
    rec *r = ctx;
    CU_ASSERT_EQUAL(t, r->s.now);
    push_ev(r, (rec_ev){ .cb = CB_READ, .func = func, .tag = tag, .addr = addr, .len = len,
                         .last = last, .t = t });
}

static void cb_write(void *ctx, int func, uint32_t tag, ps_t t)
{
    rec *r = ctx;
    CU_ASSERT_EQUAL(t, r->s.now);
    push_ev(r, (rec_ev){ .cb = CB_WRITE, .func = func, .tag = tag, .t = t });
}

static void cb_mmio_w(void *ctx, int func, uint32_t off, uint32_t val, ps_t t)
{
    rec *r = ctx;
    push_ev(r, (rec_ev){ .cb = CB_MMIO_W, .func = func, .addr = off, .val = val, .t = t });
}

static void cb_mmio_r(void *ctx, int func, uint32_t off, ps_t t)
{
    rec *r = ctx;
    push_ev(r, (rec_ev){ .cb = CB_MMIO_R, .func = func, .addr = off, .t = t });
    if (r->reply_at_once)
        pcie_mmio_read_reply(r->b, r->reply_val, t);
}

static void cb_mmio_done(void *ctx, int func, uint32_t val, ps_t t)
{
    rec *r = ctx;
    push_ev(r, (rec_ev){ .cb = CB_MMIO_DONE, .func = func, .val = val, .t = t });
}

static pcie_params defaults(void)
{
    pcie_params p;
    pcie_params_default(&p);
    return p;
}

static void setup(rec *r, const pcie_params *p)
{
    memset(r, 0, sizeof *r);
    sched_init(&r->s);
    host_bus_callbacks ops = { .dev = r, .read_data = cb_read, .write_done = cb_write, .mmio_write = cb_mmio_w,
                               .mmio_read = cb_mmio_r, .cpu = r, .mmio_read_done = cb_mmio_done };
    r->b = pcie_new(&r->s, p, &ops);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->b);
}

static void run_all(rec *r)
{
    sched_run_until(&r->s, PS_NEVER);
}

static void teardown(rec *r)
{
    pcie_free(r->b);
    sched_free(&r->s);
}

static const pcie_stats *stats(const rec *r)
{
    return pcie_get_stats(r->b);
}

static int is_tlp(int k)
{
    return k != PCIE_ACK && k != PCIE_FC && k != PCIE_SKP;
}

static uint64_t tlp_bytes(const pcie_stats *st, int d)
{
    uint64_t n = 0;
    for (int k = 0; k < PCIE_KINDS; k++)
        if (is_tlp(k))
            n += st->wire_bytes[d][k];
    return n;
}

static int near_rel(double got, double want, double tol)
{
    return fabs(got - want) <= tol * fabs(want);
}

/* ---- parameters and link arithmetic -------------------------------------- */

static void test_default_params(void)
{
    pcie_params p = defaults();
    CU_ASSERT_EQUAL(p.gen, 2);
    CU_ASSERT_EQUAL(p.lanes, 8);
    CU_ASSERT_EQUAL(p.mps, 256);
    CU_ASSERT_EQUAL(p.mrrs, 512);
    CU_ASSERT_EQUAL(p.rcb, 64);
    CU_ASSERT_EQUAL(p.addr64, 1);
    CU_ASSERT_EQUAL(p.ecrc, 0);
    CU_ASSERT_EQUAL(p.tags, 32);
    CU_ASSERT_EQUAL(p.ack_interval, 0);
    CU_ASSERT_EQUAL(p.fc_interval, 0);
    CU_ASSERT_EQUAL(p.skp_interval, 1538);
    CU_ASSERT_EQUAL(p.dllp_always, 0);
    CU_ASSERT_EQUAL(p.host_read_latency, 500000);
    CU_ASSERT_EQUAL(p.mmio_host_latency, 150000);
    char err[160];
    CU_ASSERT_EQUAL(pcie_params_check(&p, err, sizeof err), 0);
}

static void test_kind_names(void)
{
    const char *want[PCIE_KINDS] = { "dma_write", "dma_read_req", "dma_read_cpl", "mmio_write",
                                     "mmio_read", "mmio_read_cpl", "ack", "update_fc", "skp" };
    for (int k = 0; k < PCIE_KINDS; k++)
        CU_ASSERT_STRING_EQUAL(pcie_kind_name((pcie_kind)k), want[k]);
    CU_ASSERT_STRING_EQUAL(pcie_kind_name(PCIE_KINDS), "?");
}

/* Every bad field is refused by pcie_new and named first in the message. */
static void test_rejects_bad_params(void)
{
    struct bad { const char *key; unsigned field; long long val; };
    enum { GEN, LANES, MPS, MRRS, RCB, ADDR64, ECRC, TAGS, ACK, FC, SKP, DALL };
    const struct bad bads[] = {
        { "gen:", GEN, 0 },        { "gen:", GEN, 4 },          { "lanes:", LANES, 0 },
        { "lanes:", LANES, 3 },    { "lanes:", LANES, 32 },     { "mps:", MPS, 64 },
        { "mps:", MPS, 384 },      { "mps:", MPS, 8192 },       { "mrrs:", MRRS, 100 },
        { "mrrs:", MRRS, 8192 },   { "rcb:", RCB, 32 },         { "rcb:", RCB, 1024 },
        { "rcb:", RCB, 512 },      /* above MPS 256 */
        { "addr64:", ADDR64, 2 },  { "ecrc:", ECRC, -1 },       { "tags:", TAGS, 0 },
        { "tags:", TAGS, 257 },    { "ack_interval:", ACK, 31 }, { "fc_interval:", FC, 8 },
        { "skp_interval:", SKP, 63 }, { "dllp_always:", DALL, 2 },
    };
    sched s;
    sched_init(&s);
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        pcie_params p = defaults();
        long long v = bads[i].val;
        switch (bads[i].field) {
        case GEN: p.gen = (unsigned)v; break;
        case LANES: p.lanes = (unsigned)v; break;
        case MPS: p.mps = (unsigned)v; break;
        case MRRS: p.mrrs = (unsigned)v; break;
        case RCB: p.rcb = (unsigned)v; break;
        case ADDR64: p.addr64 = (int)v; break;
        case ECRC: p.ecrc = (int)v; break;
        case TAGS: p.tags = (unsigned)v; break;
        case ACK: p.ack_interval = (unsigned)v; break;
        case FC: p.fc_interval = (unsigned)v; break;
        case SKP: p.skp_interval = (unsigned)v; break;
        case DALL: p.dllp_always = (int)v; break;
        }
        char err[160] = "";
        CU_ASSERT_EQUAL(pcie_params_check(&p, err, sizeof err), -1);
        CU_ASSERT_EQUAL(strncmp(err, bads[i].key, strlen(bads[i].key)), 0);
        CU_ASSERT_PTR_NULL(pcie_new(&s, &p, NULL));
    }
    /* The edges of the ranges are taken. */
    pcie_params p = defaults();
    p.gen = 3;
    p.lanes = 16;
    p.mps = p.rcb = 128;
    p.mrrs = 4096;
    p.tags = 256;
    p.ack_interval = p.fc_interval = 32;
    p.skp_interval = 64;
    char err[160];
    CU_ASSERT_EQUAL(pcie_params_check(&p, err, sizeof err), 0);
    p.gen = 1;
    p.lanes = 1;
    p.tags = 1;
    CU_ASSERT_EQUAL(pcie_params_check(&p, err, sizeof err), 0);
    sched_free(&s);
}

/* Byte time per lane: Gen1 10 bits at 2.5 GT/s = 4000 ps, Gen2 2000 ps,
 * Gen3 130/128 x 8 bits at 8 GT/s = 1015.625 ps (nic-facts D1: Gen2 x8 32
 * Gb/s, Gen3 x8 63.0 Gb/s). */
static void test_link_rates(void)
{
    const struct { unsigned gen, lanes; double byte_ps, gbps; } cases[] = {
        { 1, 1, 4000, 2 },          { 1, 16, 250, 32 },     { 2, 1, 2000, 4 },
        { 2, 8, 250, 32 },          { 2, 16, 125, 64 },     { 3, 1, 1015.625, 7.876923 },
        { 3, 8, 126.953125, 63.015385 }, { 3, 16, 63.4765625, 126.030769 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pcie_params p = defaults();
        p.gen = cases[i].gen;
        p.lanes = cases[i].lanes;
        CU_ASSERT_EQUAL(pcie_byte_ps(&p), cases[i].byte_ps);
        CU_ASSERT_DOUBLE_EQUAL(pcie_raw_gbps(&p), cases[i].gbps, 1e-5);
    }
}

/* The spec's Ack/UpdateFC intervals as pcie-bench counts them (nic-facts
 * D1: Gen2 x8 118 at MPS 128, 158 at MPS 256). */
static void test_spec_dllp_intervals(void)
{
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(2, 8, 128), 118);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(2, 8, 256), 158);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(2, 8, 512), 137);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(1, 1, 4096), 4143);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(1, 16, 128), 48);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(3, 16, 128), 144);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(3, 4, 1024), 378);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(4, 8, 256), 0);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(2, 32, 256), 0);
    CU_ASSERT_EQUAL(pcie_spec_dllp_interval(2, 8, 200), 0);
    pcie_params p = defaults();
    CU_ASSERT_EQUAL(pcie_ack_interval(&p), 158);
    CU_ASSERT_EQUAL(pcie_fc_interval(&p), 158);
    p.mps = 128;
    CU_ASSERT_EQUAL(pcie_ack_interval(&p), 118);
    p.ack_interval = 200;
    CU_ASSERT_EQUAL(pcie_ack_interval(&p), 200);
    CU_ASSERT_EQUAL(pcie_fc_interval(&p), 118);
}

/* TLP sizes of nic-facts D1 (pcie-bench): framing + DLL 8, header DW0 4,
 * 64-bit address +12 / 32-bit +8, completion +8, ECRC +4. */
static void test_tlp_wire_bytes(void)
{
    pcie_params p = defaults();
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_WRITE, LOW, 64), 88);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_READ_REQ, LOW, 64), 24);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_READ_CPL, LOW, 64), 84);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_MMIO_WRITE, 0x10, 4), 24);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_MMIO_READ, 0x10, 4), 20);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_MMIO_READ_CPL, 0x10, 4), 24);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_ACK, 0, 0), 0);
    /* 32-bit addressing: 3DW headers below 4 GiB, 4DW at or above. */
    p.addr64 = 0;
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_WRITE, LOW, 64), 84);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_READ_REQ, LOW, 64), 20);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_WRITE, A0, 64), 88);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_READ_REQ, A0 - 1, 0), 20);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_READ_CPL, LOW, 64), 84);
    p.ecrc = 1;
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_WRITE, LOW, 64), 88);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_DMA_READ_CPL, LOW, 64), 88);
    CU_ASSERT_EQUAL(pcie_tlp_wire_bytes(&p, PCIE_MMIO_READ, 0x10, 4), 24);
}

/* The same sizes as the model sends them: one 64-byte write and one 64-byte
 * read, each alone, per configuration. */
static void test_overhead_per_kind_on_the_wire(void)
{
    const struct { int addr64, ecrc; uint64_t addr; uint32_t mwr, mrd, cpld; } cases[] = {
        { 1, 0, LOW, 88, 24, 84 }, { 0, 0, LOW, 84, 20, 84 }, { 0, 0, A0, 88, 24, 84 },
        { 1, 1, A0, 92, 28, 88 },  { 0, 1, LOW, 88, 24, 88 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcie_params p = defaults();
        p.addr64 = cases[i].addr64;
        p.ecrc = cases[i].ecrc;
        setup(&r, &p);
        pcie_dma_write(r.b, 0, 0, cases[i].addr, 64, 0);
        pcie_dma_read(r.b, 1, 0, cases[i].addr + 0x1000, 64, 0);
        run_all(&r);
        const pcie_stats *st = stats(&r);
        CU_ASSERT_EQUAL(st->wire_bytes[PCIE_UP][PCIE_DMA_WRITE], cases[i].mwr);
        CU_ASSERT_EQUAL(st->wire_bytes[PCIE_UP][PCIE_DMA_READ_REQ], cases[i].mrd);
        CU_ASSERT_EQUAL(st->wire_bytes[PCIE_DOWN][PCIE_DMA_READ_CPL], cases[i].cpld);
        CU_ASSERT_EQUAL(st->payload[PCIE_UP][PCIE_DMA_WRITE], 64);
        CU_ASSERT_EQUAL(st->payload[PCIE_UP][PCIE_DMA_READ_REQ], 0);
        CU_ASSERT_EQUAL(st->payload[PCIE_DOWN][PCIE_DMA_READ_CPL], 64);
        teardown(&r);
    }
}

/* ---- single transfers ----------------------------------------------------- */

/* 64-byte write at t=0: MWr 24 + 64 = 88 B = 22000 ps, write_done at the
 * end.  88 B of activity upstream owe no DLLP yet (158). */
static void test_single_write_64(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    CU_ASSERT_FALSE(pcie_busy(r.b));
    pcie_dma_write(r.b, 0, 42, A0, 64, 0);
    CU_ASSERT_TRUE(pcie_busy(r.b));
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_WRITE);
    CU_ASSERT_EQUAL(r.ev[0].tag, 42);
    CU_ASSERT_EQUAL(r.ev[0].t, 22000);
    const pcie_stats *st = stats(&r);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_DMA_WRITE], 1);
    CU_ASSERT_EQUAL(st->busy[PCIE_UP][PCIE_DMA_WRITE], 22000);
    CU_ASSERT_EQUAL(st->dir_busy[PCIE_UP], 22000);
    CU_ASSERT_EQUAL(st->dir_busy[PCIE_DOWN], 0);
    CU_ASSERT_EQUAL(st->count[PCIE_DOWN][PCIE_ACK], 0);
    CU_ASSERT_FALSE(pcie_busy(r.b));
    teardown(&r);
}

/* 64-byte read at t=0: MRd 24 B 0..6000; the root complex answers at
 * 6000 + 500000; CplD 20 + 64 = 84 B 506000..527000 -> read_data. */
static void test_read_64_latency(void)
{
    const struct { ps_t lat, done; } cases[] = { { 500000, 527000 }, { 1000000, 1027000 }, { 0, 27000 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcie_params p = defaults();
        p.host_read_latency = cases[i].lat;
        setup(&r, &p);
        pcie_dma_read(r.b, 0, 9, A0 + 0x40, 64, 0);
        sched_run_until(&r.s, cases[i].done - 1);
        CU_ASSERT_EQUAL(r.n, 0);
        CU_ASSERT_TRUE(pcie_busy(r.b));
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 1);
        CU_ASSERT_EQUAL(r.ev[0].cb, CB_READ);
        CU_ASSERT_EQUAL(r.ev[0].tag, 9);
        CU_ASSERT_EQUAL(r.ev[0].addr, A0 + 0x40);
        CU_ASSERT_EQUAL(r.ev[0].len, 64);
        CU_ASSERT_EQUAL(r.ev[0].last, 1);
        CU_ASSERT_EQUAL(r.ev[0].t, cases[i].done);
        const pcie_stats *st = stats(&r);
        CU_ASSERT_EQUAL(st->busy[PCIE_UP][PCIE_DMA_READ_REQ], 6000);
        CU_ASSERT_EQUAL(st->busy[PCIE_DOWN][PCIE_DMA_READ_CPL], 21000);
        CU_ASSERT_FALSE(pcie_busy(r.b));
        teardown(&r);
    }
}

/* Gen3 x8: one byte is 126.953125 ps, kept exactly (1/128 ps units):
 * a 64-byte write is 88 B = 11171.875 ps, so write_done fires on the next
 * whole picosecond, 11172; ten writes back to back end at 111718.75 ->
 * 111719 (no rounding drift from piece to piece). */
static void test_gen3_exact_byte_time(void)
{
    rec r;
    pcie_params p = defaults();
    p.gen = 3;
    setup(&r, &p);
    for (int k = 0; k < 10; k++)
        pcie_dma_write(r.b, 0, (uint32_t)k, A0 + 0x1000u * (unsigned)k, 64, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 10);
    CU_ASSERT_EQUAL(r.ev[0].t, 11172);
    CU_ASSERT_EQUAL(r.ev[9].t, 111719);
    teardown(&r);
}

/* ---- splitting ------------------------------------------------------------ */

/* 1518 bytes, 4 KiB aligned:
 *   MPS 256: 5 x 256 + 238 in 6 MWr, 1518 + 6 x 24 = 1662 B = 415500 ps;
 *     the SKP due at 384500 falls in the last MWr (350000..415500) and goes
 *     after it;
 *   MPS 128: 11 x 128 + 110 in 12 MWr of 38000 ps (the last 33500); the SKP
 *     falls in the 11th (380000..418000) and delays the 12th by 1000 ps:
 *     1806 B = 451500 ps + 1000 = 452500;
 *   MPS 2048: one MWr of 1542 B, 385500 ps, the SKP after it.
 * One write_done, at the end of the last. */
static void test_write_split_mps(void)
{
    const struct { unsigned mps; uint64_t tlps; ps_t done; } cases[] = {
        { 256, 6, 415500 }, { 128, 12, 452500 }, { 2048, 1, 385500 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcie_params p = defaults();
        p.mps = cases[i].mps;
        setup(&r, &p);
        pcie_dma_write(r.b, 1, 7, A0, 1518, 0);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 1);
        CU_ASSERT_EQUAL(r.ev[0].func, 1);
        CU_ASSERT_EQUAL(r.ev[0].t, cases[i].done);
        const pcie_stats *st = stats(&r);
        CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_DMA_WRITE], cases[i].tlps);
        CU_ASSERT_EQUAL(st->payload[PCIE_UP][PCIE_DMA_WRITE], 1518);
        CU_ASSERT_EQUAL(st->wire_bytes[PCIE_UP][PCIE_DMA_WRITE], 1518 + 24 * cases[i].tlps);
        teardown(&r);
    }
}

/* 256 bytes at 0x...f80 fit one MPS but cross 4 KiB: 128 + 128 in two MWr,
 * 2 x 24 + 256 = 304 B = 76000 ps. */
static void test_write_split_at_4k(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    pcie_dma_write(r.b, 0, 3, A0 + 0xf80, 256, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 76000);
    CU_ASSERT_EQUAL(stats(&r)->count[PCIE_UP][PCIE_DMA_WRITE], 2);
    teardown(&r);
}

/* 1518-byte read: MRds of 512, 512, 494 back to back (0..6000, ..12000,
 * ..18000); each answered by CplDs of 256 (the last 238) 500 ns after it
 * arrived.  CplD 276 B = 69000 ps:
 *   ready 506000: 506000..575000, ..644000; ready 512000: ..713000, ..782000
 *   the SKP due at 769000 goes after the CplD then on the wire: ..783000
 *   ready 518000: 783000..852000, then 258 B ..916500. */
static void test_read_split_mrrs(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    pcie_dma_read(r.b, 0, 1, A0, 1518, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 6);
    const ps_t t[6] = { 575000, 644000, 713000, 782000, 852000, 916500 };
    for (int k = 0; k < 6; k++) {
        CU_ASSERT_EQUAL(r.ev[k].cb, CB_READ);
        CU_ASSERT_EQUAL(r.ev[k].addr, A0 + 256u * (unsigned)k);
        CU_ASSERT_EQUAL(r.ev[k].len, k < 5 ? 256 : 238);
        CU_ASSERT_EQUAL(r.ev[k].last, k == 5);
        CU_ASSERT_EQUAL(r.ev[k].t, t[k]);
    }
    const pcie_stats *st = stats(&r);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_DMA_READ_REQ], 3);
    CU_ASSERT_EQUAL(st->count[PCIE_DOWN][PCIE_DMA_READ_CPL], 6);
    CU_ASSERT_EQUAL(st->wire_bytes[PCIE_DOWN][PCIE_DMA_READ_CPL], 1518 + 6 * 20);
    teardown(&r);
}

/* Completions end on RCB boundaries (all but the last) and carry at most
 * MPS: 512 bytes from offset 0x50 (one MRd):
 *   RCB 64:  0x50..0x140 (240), ..0x240 (256), ..0x250 (16)
 *   RCB 128: 0x50..0x100 (176), ..0x200 (256), ..0x250 (80)
 *   RCB 256: 0x50..0x100 (176), ..0x200 (256), ..0x250 (80)
 *   MPS 128, RCB 64: 0x50..0xc0 (112), then 128 x 3, then 16 */
static void test_completions_split_at_rcb(void)
{
    const struct { unsigned mps, rcb; int n; uint32_t len[6]; } cases[] = {
        { 256, 64, 3, { 240, 256, 16 } },
        { 256, 128, 3, { 176, 256, 80 } },
        { 256, 256, 3, { 176, 256, 80 } },
        { 128, 64, 5, { 112, 128, 128, 128, 16 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcie_params p = defaults();
        p.mps = cases[i].mps;
        p.rcb = cases[i].rcb;
        setup(&r, &p);
        pcie_dma_read(r.b, 0, 2, A0 + 0x50, 512, 0);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, cases[i].n);
        uint64_t a = A0 + 0x50;
        for (int k = 0; k < cases[i].n; k++) {
            CU_ASSERT_EQUAL(r.ev[k].addr, a);
            CU_ASSERT_EQUAL(r.ev[k].len, cases[i].len[k]);
            if (k < cases[i].n - 1)
                CU_ASSERT_EQUAL((a + r.ev[k].len) % cases[i].rcb, 0);
            a += r.ev[k].len;
        }
        CU_ASSERT_EQUAL(a, A0 + 0x250);
        CU_ASSERT_EQUAL(stats(&r)->count[PCIE_UP][PCIE_DMA_READ_REQ], 1);
        teardown(&r);
    }
}

/* MRds never cross 4 KiB: 512 bytes at 0x...f00 -> two MRds of 256; 4096
 * bytes at 0x...800 with MRRS 4096 -> two MRds of 2048 (8 CplDs each). */
static void test_read_split_at_4k(void)
{
    const struct { unsigned mrrs; uint64_t off; uint32_t len; uint64_t mrds, cpls; } cases[] = {
        { 512, 0xf00, 512, 2, 2 }, { 4096, 0x800, 4096, 2, 16 }, { 4096, 0, 4096, 1, 16 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcie_params p = defaults();
        p.mrrs = cases[i].mrrs;
        setup(&r, &p);
        pcie_dma_read(r.b, 0, 0, A0 + cases[i].off, cases[i].len, 0);
        run_all(&r);
        const pcie_stats *st = stats(&r);
        CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_DMA_READ_REQ], cases[i].mrds);
        CU_ASSERT_EQUAL(st->count[PCIE_DOWN][PCIE_DMA_READ_CPL], cases[i].cpls);
        CU_ASSERT_EQUAL_FATAL(r.n, (int)cases[i].cpls);
        for (int k = 0; k < r.n; k++)
            CU_ASSERT_EQUAL(r.ev[k].addr / 4096, (r.ev[k].addr + r.ev[k].len - 1) / 4096);
        teardown(&r);
    }
}

/* ---- tags ----------------------------------------------------------------- */

/* 33 reads of 4 B at t=0 with 32 tags: MRds 0..31 go back to back
 * (0..192000); the 33rd waits for a tag.  CplDs are 24 B (6000 ps), ready
 * 500 ns after their MRd arrived, so they also go back to back from 506000.
 * The first, 506000..512000, frees tag 0 and the 33rd MRd goes at once,
 * 512000..518000 (ahead of the DLLPs that CplD owes); its CplD is ready at
 * 1018000 on an idle link: 1018000..1024000.
 * With 33 tags the 33rd MRd goes at 192000..198000, its CplD is ready at
 * 698000 just as the 32nd ends (512000 + 31 x 6000): 698000..704000. */
static void test_tag_limit_33rd_read_waits(void)
{
    for (unsigned tags = 32; tags <= 33; tags++) {
        rec r;
        pcie_params p = defaults();
        p.tags = tags;
        setup(&r, &p);
        for (int k = 0; k < 33; k++)
            pcie_dma_read(r.b, 0, (uint32_t)k, A0 + 0x1000u * (unsigned)k, 4, 0);
        ps_t sent = tags == 32 ? 512000 : 192000;
        sched_run_until(&r.s, sent - 1);
        CU_ASSERT_EQUAL(stats(&r)->count[PCIE_UP][PCIE_DMA_READ_REQ], 32);
        sched_run_until(&r.s, sent);
        CU_ASSERT_EQUAL(stats(&r)->count[PCIE_UP][PCIE_DMA_READ_REQ], 33);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 33);
        for (int k = 0; k < 33; k++)
            CU_ASSERT_EQUAL(r.ev[k].tag, (uint32_t)k);
        CU_ASSERT_EQUAL(r.ev[0].t, 512000);
        CU_ASSERT_EQUAL(r.ev[32].t, tags == 32 ? 1024000 : 704000);
        CU_ASSERT_EQUAL(stats(&r)->tag_waits, tags == 32 ? 1 : 0);
        teardown(&r);
    }
}

/* Stepping event by event: MRds sent minus MRds fully answered never
 * exceeds the tags, and reaches them; reads finish in issue order. */
static void test_outstanding_never_exceeds_tags(void)
{
    rec r;
    pcie_params p = defaults();
    p.tags = 3;
    setup(&r, &p);
    for (int k = 0; k < 4; k++)
        pcie_dma_read(r.b, 0, (uint32_t)k, A0 + 0x10000u * (unsigned)k, 1500, 0);   /* 3 MRds each */
    const pcie_stats *st = stats(&r);
    int max_open = 0;
    while (sched_run_one(&r.s, PS_NEVER)) {
        /* an MRd is answered when the CplD ending at a 512-byte boundary
         * of its request (or the request's end) has arrived */
        int answered = 0;
        for (int i = 0; i < r.n; i++) {
            uint64_t end = r.ev[i].addr + r.ev[i].len - (A0 + 0x10000u * r.ev[i].tag);
            answered += end % 512 == 0 || r.ev[i].last;
        }
        int open = (int)st->count[PCIE_UP][PCIE_DMA_READ_REQ] - answered;
        CU_ASSERT(open >= 0 && open <= 3);
        if (open > max_open)
            max_open = open;
    }
    CU_ASSERT_EQUAL(max_open, 3);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_DMA_READ_REQ], 12);
    CU_ASSERT(st->tag_waits > 0);
    uint32_t last_tag = 0;
    int finished = 0;
    for (int i = 0; i < r.n; i++)
        if (r.ev[i].last) {
            CU_ASSERT_EQUAL(r.ev[i].tag, last_tag);
            last_tag++;
            finished++;
        }
    CU_ASSERT_EQUAL(finished, 4);
    teardown(&r);
}

/* One tag.  Read A, read B (waits for the tag), then write W, all at t=0 on
 * function 0: W passes B (a posted write may pass a waiting read): MRd A
 * 0..6000, W 6000..28000.  Then the other way: writes W1 (64 B) and W2
 * (256 B) before read R, all queued while W1 is on the wire: R's MRd may
 * not pass W2: W1 0..22000, W2 22000..92000, MRd 92000..98000, CplD
 * 598000..619000. */
static void test_posted_write_passes_waiting_read(void)
{
    rec r;
    pcie_params p = defaults();
    p.tags = 1;
    setup(&r, &p);
    pcie_dma_read(r.b, 0, 1, A0, 64, 0);
    pcie_dma_read(r.b, 0, 2, A0 + 0x1000, 64, 0);
    pcie_dma_write(r.b, 0, 3, A0 + 0x2000, 64, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_WRITE);
    CU_ASSERT_EQUAL(r.ev[0].t, 28000);
    CU_ASSERT_EQUAL(r.ev[1].tag, 1);
    CU_ASSERT_EQUAL(r.ev[1].t, 527000);
    CU_ASSERT_EQUAL(r.ev[2].tag, 2);
    CU_ASSERT(r.ev[2].t > 527000 + 500000);
    teardown(&r);

    setup(&r, &p);
    pcie_dma_write(r.b, 0, 4, A0, 64, 0);
    pcie_dma_write(r.b, 0, 5, A0 + 0x1000, 256, 0);
    pcie_dma_read(r.b, 0, 6, A0 + 0x2000, 64, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_EQUAL(r.ev[0].t, 22000);
    CU_ASSERT_EQUAL(r.ev[1].tag, 5);
    CU_ASSERT_EQUAL(r.ev[1].t, 92000);
    CU_ASSERT_EQUAL(r.ev[2].tag, 6);
    CU_ASSERT_EQUAL(r.ev[2].t, 619000);
    teardown(&r);
}

/* The MRd a completion lets go leaves before the DLLPs that completion
 * owes (the receiver hands the data on, then schedules its Acks).  One tag,
 * two reads of 512 B: MRd A 0..6000; CplDs of 276 B 506000..575000 (owes
 * one Ack + one UpdateFC upstream, 118 B left over) and 575000..644000
 * (394 B: owes two of each) frees the tag: MRd B goes at 644000, the four
 * DLLPs after it.  B's CplDs: ready 1150000, 1150000..1219000, the SKP due
 * at 1153500 after that one, 1220000..1289000. */
static void test_freed_mrd_goes_before_owed_dllps(void)
{
    rec r;
    pcie_params p = defaults();
    p.tags = 1;
    setup(&r, &p);
    pcie_dma_read(r.b, 0, 1, A0, 512, 0);
    pcie_dma_read(r.b, 0, 2, A0 + 0x1000, 512, 0);
    sched_run_until(&r.s, 644000);
    const pcie_stats *st = stats(&r);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_DMA_READ_REQ], 2);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_ACK], 1);     /* the second pair waits */
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 4);
    CU_ASSERT_EQUAL(r.ev[1].t, 644000);
    CU_ASSERT_EQUAL(r.ev[3].tag, 2);
    CU_ASSERT_EQUAL(r.ev[3].t, 1289000);
    /* 4 x 276 B of CplDs + the SKP sent while B's second CplD waited =
     * 1108 B of downstream activity: 7 x 158 */
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_ACK], 7);
    teardown(&r);
}

/* ---- DLLPs and SKPs -------------------------------------------------------- */

/* A write stream alone: its Acks and UpdateFCs go downstream, one of each
 * per 158 B of upstream activity (its MWrs and the SKPs between them);
 * upstream carries no DLLP and downstream no TLP. */
static void test_dllps_go_the_other_way(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    for (int k = 0; k < 200; k++)
        pcie_dma_write(r.b, 0, (uint32_t)k, A0 + 0x1000u * (unsigned)k, 256, 0);
    run_all(&r);
    const pcie_stats *st = stats(&r);
    uint64_t mwr = st->wire_bytes[PCIE_UP][PCIE_DMA_WRITE];
    uint64_t skp = st->wire_bytes[PCIE_UP][PCIE_SKP];
    CU_ASSERT_EQUAL(mwr, 200 * 280);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_ACK], 0);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_FC], 0);
    CU_ASSERT_EQUAL(tlp_bytes(st, PCIE_DOWN), 0);
    CU_ASSERT(st->count[PCIE_DOWN][PCIE_ACK] >= mwr / 158);
    CU_ASSERT(st->count[PCIE_DOWN][PCIE_ACK] <= (mwr + skp) / 158);
    CU_ASSERT_EQUAL(st->count[PCIE_DOWN][PCIE_FC], st->count[PCIE_DOWN][PCIE_ACK]);
    /* the stream is back to back: 200 x 70000 ps plus one SKP per 384500 */
    CU_ASSERT_EQUAL_FATAL(r.n, 200);
    CU_ASSERT_EQUAL(r.ev[199].t, 200 * 70000 + 1000 * (ps_t)st->count[PCIE_UP][PCIE_SKP]);
    /* due at 384500 k up to the end, about 14036000: k = 1..36 */
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_SKP], 36);
    teardown(&r);
}

/* An SKP falls due every 384500 ps whatever the traffic: one due while the
 * link is idle costs nothing; one due (or on the wire) when a TLP wants to
 * go delays it by 1000 ps.  A 64-byte write issued at:
 *   t=0: 0..22000;  t=384500: SKP first, MWr 385500..407500;
 *   t=385000 (mid-SKP): the same;  t=385500: 385500..407500;
 *   t=1 ms: 2600 SKPs (floor(1e9 / 384500)) went by while idle, MWr at once. */
static void test_skp_timing(void)
{
    const struct { ps_t issue, done; uint64_t skps; } cases[] = {
        { 0, 22000, 0 }, { 384500, 407500, 1 }, { 385000, 407500, 1 }, { 385500, 407500, 1 },
        { 384000, 406000, 1 }, { 1000000000, 1000022000, 2600 },
    };
    /* issued at 384000 the MWr goes first (nothing due yet) and the SKP
     * waits for its end: 384000..406000, SKP 406000..407000 */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec r;
        pcie_params p = defaults();
        setup(&r, &p);
        pcie_dma_write(r.b, 0, 0, A0, 64, cases[i].issue);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 1);
        CU_ASSERT_EQUAL(r.ev[0].t, cases[i].done);
        CU_ASSERT_EQUAL(stats(&r)->count[PCIE_UP][PCIE_SKP], cases[i].skps);
        teardown(&r);
    }
}

/* dllp_always (pcie-bench's assumption): each direction sends an Ack and an
 * UpdateFC every 158 B (39500 ps) of time, traffic or not.  A write at
 * 1 ms + 10 ns finds floor(1000010000 / 39500) = 25316 of each sent while
 * the link was idle and goes at once (..1000032000); the 25317th pair,
 * due at 1000021500, waits for it. */
static void test_dllp_always_timers(void)
{
    rec r;
    pcie_params p = defaults();
    p.dllp_always = 1;
    setup(&r, &p);
    pcie_dma_write(r.b, 0, 0, A0, 64, 1000010000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].t, 1000032000);
    const pcie_stats *st = stats(&r);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_ACK], 25317);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_FC], 25317);
    CU_ASSERT_EQUAL(st->count[PCIE_UP][PCIE_SKP], 2600);
    /* nothing is owed for traffic: downstream sent nothing */
    CU_ASSERT_EQUAL(st->dir_bytes[PCIE_DOWN], 0);
    teardown(&r);
}

/* ---- full duplex ------------------------------------------------------------ */

typedef struct duplex {
    uint32_t writes_in, reads_in;   /* finished inside the window */
    ps_t t0, t1;
} duplex;

static duplex *dx;

static void dx_write(void *ctx, int func, uint32_t tag, ps_t t)
{
    (void)ctx, (void)func, (void)tag;
    dx->writes_in += t > dx->t0 && t <= dx->t1;
}

static void dx_read(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len, int last, ps_t t)
{
    (void)ctx, (void)func, (void)tag, (void)addr, (void)len;
    dx->reads_in += last && t > dx->t0 && t <= dx->t1;
}

/* Function 0 writes 4096 x 256 B while function 1 reads 2048 x 512 B, all
 * issued at t=0; between 50 and 250 us both directions carry TLPs all the
 * time.  Measured there:
 * - each direction's TLP bandwidth is pcie-bench's usable TLP bandwidth,
 *   raw x (1 - 16/158 - 4/1538) = 28.676 Gb/s: the directions do not share
 *   time, only the DLLPs of the other's traffic;
 * - the reads' payload rate is that downstream bandwidth over 552 B of
 *   CplD per read: 28.676 x 512/552 = 26.598 Gb/s; the writes get the rest
 *   of upstream after the MRds (24 B per read): (28.676 - 26.598 x 24/512)
 *   x 256/280 = 25.079 Gb/s.  Together 51.7 Gb/s of payload on a link of
 *   32 Gb/s per direction. */
static void run_duplex(const pcie_params *p, double *up_tlp, double *down_tlp, double *w_gbps,
                       double *r_gbps)
{
    duplex d = { .t0 = 50 * PS_PER_US, .t1 = 250 * PS_PER_US };
    dx = &d;
    sched s;
    sched_init(&s);
    host_bus_callbacks ops = { .read_data = dx_read, .write_done = dx_write };
    pcie_bus *b = pcie_new(&s, p, &ops);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    for (uint32_t i = 0; i < 4096; i++)
        pcie_dma_write(b, 0, i, A0 + 0x1000ull * i, 256, 0);
    for (uint32_t i = 0; i < 2048; i++)
        pcie_dma_read(b, 1, i, A0 + 0x10000000ull + 0x1000ull * i, 512, 0);
    const pcie_stats *st = pcie_get_stats(b);
    sched_run_until(&s, d.t0);
    uint64_t up0 = tlp_bytes(st, PCIE_UP), down0 = tlp_bytes(st, PCIE_DOWN);
    sched_run_until(&s, d.t1);
    uint64_t up1 = tlp_bytes(st, PCIE_UP), down1 = tlp_bytes(st, PCIE_DOWN);
    CU_ASSERT(pcie_busy(b));          /* both streams still running */
    double span_ps = (double)(d.t1 - d.t0);
    *up_tlp = (double)(up1 - up0) * 8000.0 / span_ps;
    *down_tlp = (double)(down1 - down0) * 8000.0 / span_ps;
    *w_gbps = d.writes_in * 256.0 * 8000.0 / span_ps;
    *r_gbps = d.reads_in * 512.0 * 8000.0 / span_ps;
    sched_run_until(&s, PS_NEVER);
    pcie_free(b);
    sched_free(&s);
    dx = NULL;
}

static void test_full_duplex(void)
{
    pcie_params p = defaults();
    double up, down, w, rd;
    run_duplex(&p, &up, &down, &w, &rd);
    double tlp = 32.0 * (1.0 - 16.0 / 158 - 4.0 / 1538);
    CU_ASSERT(near_rel(up, tlp, 0.003));
    CU_ASSERT(near_rel(down, tlp, 0.003));
    double r_want = tlp * 512 / 552, w_want = (tlp - r_want * 24 / 512) * 256 / 280;
    CU_ASSERT(near_rel(rd, r_want, 0.005));
    CU_ASSERT(near_rel(w, w_want, 0.005));
    CU_ASSERT(w + rd > 50.0);
    /* Alone, each stream loses nothing to DLLPs in its own direction: the
     * same streams measured alone are faster by (about) those DLLPs. */
    double w_alone, r_alone;
    CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 0, 256, &w_alone), 0);
    CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 1, 512, &r_alone), 0);
    CU_ASSERT(near_rel(w_alone, 32.0 * (1 - 4.0 / 1538) * 256 / 280, 0.001));
    CU_ASSERT(near_rel(r_alone, 32.0 * (1 - 4.0 / 1538) * 512 / (552 + 24 * 16.0 / 158), 0.001));
    CU_ASSERT(rd < r_alone && rd > r_alone * (1 - 16.0 / 158 - 0.01));
}

/* nic-facts D1 (derived by running pcie-bench's model): usable TLP
 * bandwidth after Ack, UpdateFC and SKP on Gen2 x8 is 28.68 Gb/s at MPS 256
 * and 27.58 Gb/s at MPS 128.  The formula and the model with both
 * directions busy (as above) reproduce them within 1 %. */
static void test_usable_tlp_bandwidth_d1(void)
{
    const struct { unsigned mps; double d1; } cases[] = { { 256, 28.68 }, { 128, 27.58 } };
    for (size_t i = 0; i < 2; i++) {
        pcie_params p = defaults();
        p.mps = cases[i].mps;
        CU_ASSERT(near_rel(pcie_tlp_gbps(&p), cases[i].d1, 0.01));
        /* to the formula's own precision: 4 significant digits */
        CU_ASSERT(near_rel(pcie_tlp_gbps(&p), cases[i].d1, 0.0005));
        double up, down, w, rd;
        run_duplex(&p, &up, &down, &w, &rd);
        CU_ASSERT(near_rel(up, cases[i].d1, 0.01));
        CU_ASSERT(near_rel(down, cases[i].d1, 0.01));
    }
}

/* ---- MMIO ---------------------------------------------------------------- */

/* MMIO write issued by the CPU at 1 us: root complex at 1150000, MWr 24 B
 * -> the device has it at 1156000.  Posted: nothing comes back. */
static void test_mmio_write_posted(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    pcie_mmio_write(r.b, 1, 0x3818, 0x1234abcd, 1000000);
    CU_ASSERT_TRUE(pcie_busy(r.b));
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_MMIO_W);
    CU_ASSERT_EQUAL(r.ev[0].func, 1);
    CU_ASSERT_EQUAL(r.ev[0].addr, 0x3818);
    CU_ASSERT_EQUAL(r.ev[0].val, 0x1234abcd);
    CU_ASSERT_EQUAL(r.ev[0].t, 1156000);
    const pcie_stats *st = stats(&r);
    CU_ASSERT_EQUAL(st->wire_bytes[PCIE_DOWN][PCIE_MMIO_WRITE], 24);
    CU_ASSERT_EQUAL(st->payload[PCIE_DOWN][PCIE_MMIO_WRITE], 4);
    CU_ASSERT_EQUAL(tlp_bytes(st, PCIE_UP), 0);
    CU_ASSERT_FALSE(pcie_busy(r.b));
    teardown(&r);
}

/* MMIO read at t_cpu 0: root complex 150000, MRd 20 B -> presented at
 * 155000; answered at once, CplD 24 B 155000..161000, at the CPU 150 ns
 * later, 311000.  Answered later, at 200000: CplD 200000..206000, CPU
 * 356000. */
static void test_mmio_read_non_posted(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    r.reply_at_once = 1;
    r.reply_val = 0x80080783;
    pcie_mmio_read(r.b, 0, 0x8, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_MMIO_R);
    CU_ASSERT_EQUAL(r.ev[0].addr, 0x8);
    CU_ASSERT_EQUAL(r.ev[0].t, 155000);
    CU_ASSERT_EQUAL(r.ev[1].cb, CB_MMIO_DONE);
    CU_ASSERT_EQUAL(r.ev[1].val, 0x80080783);
    CU_ASSERT_EQUAL(r.ev[1].t, 311000);
    const pcie_stats *st = stats(&r);
    CU_ASSERT_EQUAL(st->wire_bytes[PCIE_DOWN][PCIE_MMIO_READ], 20);
    CU_ASSERT_EQUAL(st->wire_bytes[PCIE_UP][PCIE_MMIO_READ_CPL], 24);
    CU_ASSERT_FALSE(pcie_busy(r.b));
    teardown(&r);

    setup(&r, &p);
    pcie_mmio_read(r.b, 1, 0x10, 0);
    sched_run_until(&r.s, 200000);
    CU_ASSERT_EQUAL_FATAL(r.n, 1);
    CU_ASSERT_TRUE(pcie_busy(r.b));   /* the CPU is still waiting */
    pcie_mmio_read_reply(r.b, 0xdeadbeef, 200000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[1].func, 1);
    CU_ASSERT_EQUAL(r.ev[1].val, 0xdeadbeef);
    CU_ASSERT_EQUAL(r.ev[1].t, 356000);
    teardown(&r);
}

/* The CPU posts a write and then reads, both at t=0: the read does not pass
 * the write.  Write: 150000..156000 at the device; read MRd 156000..161000,
 * presented 161000; CplD 161000..167000; CPU 317000. */
static void test_mmio_read_after_write_in_order(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    r.reply_at_once = 1;
    r.reply_val = 5;
    pcie_mmio_write(r.b, 0, 0x100, 1, 0);
    pcie_mmio_read(r.b, 0, 0x8, 0);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_EQUAL(r.ev[0].cb, CB_MMIO_W);
    CU_ASSERT_EQUAL(r.ev[0].t, 156000);
    CU_ASSERT_EQUAL(r.ev[1].cb, CB_MMIO_R);
    CU_ASSERT_EQUAL(r.ev[1].t, 161000);
    CU_ASSERT_EQUAL(r.ev[2].cb, CB_MMIO_DONE);
    CU_ASSERT_EQUAL(r.ev[2].t, 317000);
    teardown(&r);
}

/* A register read pushes the function's earlier DMA writes to the host (a
 * completion may not pass posted writes).  Function 0 writes 1024 B from
 * 150000: 4 MWr of 280 B, 150000..430000 (write_done), the SKP due at
 * 384500 after the last, 430000..431000.  The CPU's read of function 0 is
 * presented at 155000 and answered at once, but its CplD waits behind the
 * writes: 431000..437000, CPU 587000.  A read of function 1 is not held up:
 * its CplD goes after the MWr on the wire at 155000 (functions alternate):
 * 220000..226000, CPU 376000; the writes end 6000 ps later, 436000. */
static void test_mmio_read_pushes_posted_writes(void)
{
    const struct { int func; ps_t cpu, write; } cases[] = { { 0, 587000, 430000 }, { 1, 376000, 436000 } };
    for (size_t i = 0; i < 2; i++) {
        rec r;
        pcie_params p = defaults();
        setup(&r, &p);
        r.reply_at_once = 1;
        r.reply_val = 9;
        pcie_dma_write(r.b, 0, 5, A0, 1024, 150000);
        pcie_mmio_read(r.b, cases[i].func, 0x8, 0);
        run_all(&r);
        CU_ASSERT_EQUAL_FATAL(r.n, 3);
        int w = -1, done = -1;
        for (int k = 0; k < 3; k++) {
            if (r.ev[k].cb == CB_WRITE)
                w = k;
            if (r.ev[k].cb == CB_MMIO_DONE)
                done = k;
        }
        CU_ASSERT_FATAL(w >= 0 && done >= 0);
        CU_ASSERT_EQUAL(r.ev[w].t, cases[i].write);
        CU_ASSERT_EQUAL(r.ev[done].t, cases[i].cpu);
        CU_ASSERT_EQUAL(r.ev[done].func, cases[i].func);
        teardown(&r);
    }
}

/* Two CPUs read at once; the owner answers later, in order: each answer
 * goes to the oldest read presented. */
static void test_mmio_reads_answered_in_order(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    pcie_mmio_read(r.b, 0, 0x8, 0);
    pcie_mmio_read(r.b, 1, 0xc0, 0);
    sched_run_until(&r.s, 300000);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[0].func, 0);
    CU_ASSERT_EQUAL(r.ev[0].t, 155000);
    CU_ASSERT_EQUAL(r.ev[1].func, 1);
    CU_ASSERT_EQUAL(r.ev[1].t, 160000);
    pcie_mmio_read_reply(r.b, 111, 300000);
    pcie_mmio_read_reply(r.b, 222, 300000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 4);
    /* CplDs 300000..306000 and ..312000, CPU 150 ns later */
    CU_ASSERT_EQUAL(r.ev[2].func, 0);
    CU_ASSERT_EQUAL(r.ev[2].val, 111);
    CU_ASSERT_EQUAL(r.ev[2].t, 456000);
    CU_ASSERT_EQUAL(r.ev[3].func, 1);
    CU_ASSERT_EQUAL(r.ev[3].val, 222);
    CU_ASSERT_EQUAL(r.ev[3].t, 462000);
    teardown(&r);
}

static void test_spurious_reply_ignored(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    pcie_mmio_read_reply(r.b, 1, 0);
    run_all(&r);
    CU_ASSERT_EQUAL(r.n, 0);
    CU_ASSERT_FALSE(pcie_busy(r.b));
    CU_ASSERT_EQUAL(r.s.events_run, 0);
    teardown(&r);
}

/* Zero-length DMA and unknown functions do nothing. */
static void test_ignored_requests(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    pcie_dma_read(r.b, 0, 0, A0, 0, 0);
    pcie_dma_write(r.b, 0, 0, A0, 0, 0);
    pcie_dma_write(r.b, PCIE_MAX_FUNCS, 0, A0, 64, 0);
    pcie_dma_read(r.b, -1, 0, A0, 64, 0);
    pcie_mmio_write(r.b, -1, 0, 0, 0);
    pcie_mmio_read(r.b, PCIE_MAX_FUNCS, 0, 0);
    CU_ASSERT_FALSE(pcie_busy(r.b));
    run_all(&r);
    CU_ASSERT_EQUAL(r.n, 0);
    CU_ASSERT_EQUAL(r.s.events_run, 0);
    teardown(&r);
}

/* Through the generic host_bus view: the same times as direct calls. */
static void test_host_bus_view(void)
{
    rec r;
    pcie_params p = defaults();
    setup(&r, &p);
    r.reply_at_once = 1;
    host_bus hb = pcie_host_bus(r.b);
    host_bus_dma_write(&hb, 0, 1, A0, 64, 0);
    host_bus_dma_read(&hb, 1, 2, A0 + 0x1000, 64, 1000000);
    host_bus_mmio_write(&hb, 0, 0x10, 3, 2000000);
    host_bus_mmio_read(&hb, 1, 0x8, 3000000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 5);
    CU_ASSERT_EQUAL(r.ev[0].t, 22000);
    CU_ASSERT_EQUAL(r.ev[1].t, 1527000);
    CU_ASSERT_EQUAL(r.ev[2].t, 2156000);
    CU_ASSERT_EQUAL(r.ev[3].t, 3155000);
    CU_ASSERT_EQUAL(r.ev[4].t, 3311000);
    teardown(&r);
    /* the reply through the view */
    setup(&r, &p);
    hb = pcie_host_bus(r.b);
    host_bus_mmio_read(&hb, 0, 0x8, 0);
    sched_run_until(&r.s, 155000);
    host_bus_mmio_read_reply(&hb, 77, 155000);
    run_all(&r);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT_EQUAL(r.ev[1].val, 77);
    CU_ASSERT_EQUAL(r.ev[1].t, 311000);
    teardown(&r);
}

/* Same load twice: identical callback logs and statistics. */
static void test_deterministic(void)
{
    static rec r1, r2;
    rec *rs[2] = { &r1, &r2 };
    pcie_params p = defaults();
    p.tags = 4;
    p.gen = 3;
    for (int i = 0; i < 2; i++) {
        rec *r = rs[i];
        setup(r, &p);
        r->reply_at_once = 1;
        pcie_dma_read(r->b, 0, 1, A0 + 0x30, 6000, 0);
        pcie_dma_read(r->b, 1, 2, A0 + 0x20000, 3000, 3333);
        pcie_dma_write(r->b, 1, 3, A0 + 0x40000, 1518, 12345);
        pcie_dma_write(r->b, 0, 4, A0 + 0x50f00, 9000, 777);
        pcie_mmio_read(r->b, 0, 0x8, 5000);
        pcie_mmio_write(r->b, 1, 0x3818, 9, 7000);
        run_all(r);
    }
    CU_ASSERT(r1.n > 20);
    CU_ASSERT_EQUAL(r1.n, r2.n);
    CU_ASSERT_EQUAL(memcmp(r1.ev, r2.ev, sizeof r1.ev[0] * (size_t)r1.n), 0);
    CU_ASSERT_EQUAL(memcmp(pcie_get_stats(r1.b), pcie_get_stats(r2.b), sizeof(pcie_stats)), 0);
    CU_ASSERT_EQUAL(r1.s.events_run, r2.s.events_run);
    teardown(&r1);
    teardown(&r2);
}

/* ---- streams and buscalc ---------------------------------------------------- */

static const unsigned sizes[] = { 64, 128, 256, 512, 1024, 1518 };

/* The simulated stream and the formula agree (0.2 %) wherever the stream
 * is limited by bandwidth, at the defaults and elsewhere. */
static void test_stream_matches_formula(void)
{
    const struct { unsigned gen, lanes, mps, mrrs, rcb; int addr64, ecrc, always; } cfgs[] = {
        { 2, 8, 256, 512, 64, 1, 0, 0 },   { 2, 8, 256, 512, 64, 1, 0, 1 },
        { 2, 8, 128, 512, 64, 1, 0, 0 },   { 3, 16, 512, 4096, 128, 0, 1, 0 },
        { 1, 1, 128, 128, 64, 1, 0, 0 },   { 2, 4, 4096, 4096, 512, 1, 1, 0 },
        { 3, 8, 256, 256, 64, 0, 0, 1 },
    };
    const unsigned more[] = { 64, 100, 777, 1518, 4096, 9000 };
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        pcie_params p = defaults();
        p.gen = cfgs[c].gen;
        p.lanes = cfgs[c].lanes;
        p.mps = cfgs[c].mps;
        p.mrrs = cfgs[c].mrrs;
        p.rcb = cfgs[c].rcb;
        p.addr64 = cfgs[c].addr64;
        p.ecrc = cfgs[c].ecrc;
        p.dllp_always = cfgs[c].always;
        const unsigned *sz = c == 0 || c == 1 ? sizes : more;
        for (int i = 0; i < 6; i++)
            for (int read = 0; read < 2; read++) {
                double g;
                CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, read, sz[i], &g), 0);
                double f = pcie_stream_formula(&p, read, sz[i]);
                CU_ASSERT(near_rel(g, f, 0.002));
            }
    }
}

/* One tag: each read is a round trip, latency + MRd + CplDs (+ the SKPs
 * due meanwhile): 64 B -> 2000 + 108 x (1 + 4/1538) = 2108.28 byte times,
 * 64 x 32 / 2108.28 = 0.9714 Gb/s. */
static void test_stream_tag_bound(void)
{
    pcie_params p = defaults();
    p.tags = 1;
    double g;
    CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 1, 64, &g), 0);
    CU_ASSERT(near_rel(g, 64 * 32 / (2000 + 108 * (1 + 4.0 / 1538)), 0.001));
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 1, sizes[i], &g), 0);
        CU_ASSERT(near_rel(g, pcie_stream_formula(&p, 1, sizes[i]), 0.001));
    }
    /* and a longer latency with all 32 tags: bound by the tags too */
    p.tags = 32;
    p.host_read_latency = 5 * PS_PER_US;
    CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 1, 64, &g), 0);
    CU_ASSERT(near_rel(g, pcie_stream_formula(&p, 1, 64), 0.002));
    CU_ASSERT(near_rel(g, 32 * 64 * 32 / (20000 + 108 * (1 + 4.0 / 1538)), 0.002));
}

/* pcie-bench's pcie_bw.py figures: payload x TLP_bw / (payload + TLPs x
 * header), TLP_bw = 32 x (1 - 8/158 - 8/158 - 4/1538) Gb/s, MWr header 24
 * per ceil(size/MPS) TLPs, CplD header 20 per ceil(size/MPS).  The model
 * with dllp_always reproduces them (0.2 %); alone on the link a stream
 * is faster by the DLLPs it no longer pays for in its own direction. */
static void test_pcie_bench_figures(void)
{
    pcie_params p = defaults();
    pcie_params pb = p;
    pb.dllp_always = 1;
    double tlp_bw = 32.0 * (1 - 16.0 / 158 - 4.0 / 1538);
    for (int i = 0; i < 6; i++) {
        double n = ceil(sizes[i] / 256.0);
        double pm_w = sizes[i] * tlp_bw / (sizes[i] + 24 * n);
        double pm_r = sizes[i] * tlp_bw / (sizes[i] + 20 * n);
        double w, r, w_alone, r_alone;
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&pb, 0, sizes[i], &w), 0);
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&pb, 1, sizes[i], &r), 0);
        CU_ASSERT(near_rel(w, pm_w, 0.002));
        CU_ASSERT(near_rel(r, pm_r, 0.002));
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 0, sizes[i], &w_alone), 0);
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 1, sizes[i], &r_alone), 0);
        CU_ASSERT(near_rel(w_alone, pm_w * (1 - 4.0 / 1538) / (1 - 16.0 / 158 - 4.0 / 1538), 0.002));
        CU_ASSERT(r_alone > r);
    }
    /* 64 bytes, as pcie_bw.py prints them: 20.86 and 21.85 Gb/s */
    double w, r;
    CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&pb, 0, 64, &w), 0);
    CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&pb, 1, 64, &r), 0);
    CU_ASSERT(fabs(w - 20.86) < 0.01);
    CU_ASSERT(fabs(r - 21.85) < 0.01);
}

static void test_stream_rejects_bad_input(void)
{
    pcie_params p = defaults();
    double g = -1;
    CU_ASSERT_EQUAL(pcie_stream_measure(&p, 0, 0, &g), -1);
    CU_ASSERT_EQUAL(pcie_stream_measure(&p, 0, PCIE_STREAM_MAX_SIZE + 1, &g), -1);
    CU_ASSERT_EQUAL(pcie_stream_formula(&p, 1, 0), 0);
    p.mps = 100;
    CU_ASSERT_EQUAL(pcie_stream_measure(&p, 0, 64, &g), -1);
    CU_ASSERT_EQUAL(pcie_stream_formula(&p, 0, 64), 0);
    CU_ASSERT_EQUAL(g, -1);
}

/* ---- the command ------------------------------------------------------------ */

typedef struct captured {
    int rc;
    char out[8192], err[2048];
} captured;

static void slurp(FILE *f, char *buf, size_t n)
{
    rewind(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
}

/* Run cmd_buscalc as main() would for "nicsim buscalc KIND ARGS...", with
 * stdout and stderr captured. */
static void buscalc(captured *c, const char *kind, const char *json, const char *const *args, int n)
{
    char *ov[32];
    for (int i = 0; i < n; i++)
        ov[i] = (char *)args[i];
    cli cl = { .cmd = "buscalc", .scenario = kind, .overrides = ov, .n_overrides = n, .json = json };
    FILE *fo = tmpfile(), *fe = tmpfile();
    CU_ASSERT_FATAL(fo && fe);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    c->rc = cmd_buscalc(&cl);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    slurp(fo, c->out, sizeof c->out);
    slurp(fe, c->err, sizeof c->err);
    fclose(fo);
    fclose(fe);
}

/* The task's command: per size the four columns equal the model's streams,
 * and the JSON holds the same rows and the parameters. */
static void test_buscalc_command(void)
{
    const char *args[] = { "gen=2", "lanes=8", "mps=256", "mrrs=512", "size=64,128,256,512,1024,1518" };
    char path[] = "/tmp/nicsim-buscalc-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    captured c;
    buscalc(&c, "pcie", path, args, 5);
    CU_ASSERT_EQUAL(c.rc, 0);
    CU_ASSERT_STRING_EQUAL(c.err, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "PCIe Gen2 x8"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "28.68 Gb/s"));
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char text[8192];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    remove(path);
    cJSON *j = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    cJSON *rows = cJSON_GetObjectItem(j, "rows");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(rows), 6);
    pcie_params p = defaults(), pb = p;
    pb.dllp_always = 1;
    for (int i = 0; i < 6; i++) {
        cJSON *row = cJSON_GetArrayItem(rows, i);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(row, "size")->valuedouble, sizes[i]);
        double w, r, wb, rb;
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 0, sizes[i], &w), 0);
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 1, sizes[i], &r), 0);
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&pb, 0, sizes[i], &wb), 0);
        CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&pb, 1, sizes[i], &rb), 0);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(row, "write_gbps")->valuedouble, w, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(row, "read_gbps")->valuedouble, r, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(row, "write_pcie_bench_gbps")->valuedouble, wb, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(row, "read_pcie_bench_gbps")->valuedouble, rb, 1e-9);
        /* the text table shows the same numbers */
        char line[128];
        snprintf(line, sizeof line, "%8u  %11.2f %11.2f  %11.2f %11.2f\n", sizes[i], w, r, wb, rb);
        CU_ASSERT_PTR_NOT_NULL(strstr(c.out, line));
    }
    cJSON *par = cJSON_GetObjectItem(j, "params");
    CU_ASSERT_PTR_NOT_NULL_FATAL(par);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "gen")->valueint, 2);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "lanes")->valueint, 8);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "mps")->valueint, 256);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "mrrs")->valueint, 512);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "rcb")->valueint, 64);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "tags")->valueint, 32);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "addr64")->valueint, 1);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(par, "ecrc")->valueint, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(par, "lat_ns")->valuedouble, 500, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(par, "tlp_gbps")->valuedouble, pcie_tlp_gbps(&p), 1e-9);
    cJSON_Delete(j);
}

/* Every key changes what it names: the JSON parameters follow the
 * arguments, and e.g. tags=1 makes reads slower. */
static void test_buscalc_keys(void)
{
    const char *args[] = { "gen=3", "lanes=4", "mps=128", "mrrs=1024", "rcb=128", "ecrc=1",
                           "addr64=0", "tags=1", "lat_ns=250.5", "size=100" };
    char path[] = "/tmp/nicsim-buscalc-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    captured c;
    buscalc(&c, "pcie", path, args, 10);
    CU_ASSERT_EQUAL_FATAL(c.rc, 0);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    remove(path);
    cJSON *j = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    cJSON *par = cJSON_GetObjectItem(j, "params");
    const struct { const char *k; double v; } want[] = {
        { "gen", 3 }, { "lanes", 4 }, { "mps", 128 }, { "mrrs", 1024 }, { "rcb", 128 },
        { "ecrc", 1 }, { "addr64", 0 }, { "tags", 1 }, { "lat_ns", 250.5 },
        { "ack_interval", 169 }, { "fc_interval", 169 }, { "skp_interval", 1538 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(par, want[i].k)->valuedouble, want[i].v, 1e-9);
    cJSON *rows = cJSON_GetObjectItem(j, "rows");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(rows), 1);
    pcie_params p = defaults();
    p.gen = 3;
    p.lanes = 4;
    p.mps = 128;
    p.mrrs = 1024;
    p.rcb = 128;
    p.ecrc = 1;
    p.addr64 = 0;
    p.tags = 1;
    p.host_read_latency = 250500;
    double r;
    CU_ASSERT_EQUAL_FATAL(pcie_stream_measure(&p, 1, 100, &r), 0);
    cJSON *row = cJSON_GetArrayItem(rows, 0);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(row, "size")->valueint, 100);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(row, "read_gbps")->valuedouble, r, 1e-9);
    CU_ASSERT(r < 3.0);     /* one tag, 250 ns: tag bound */
    cJSON_Delete(j);
    CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "PCIe Gen3 x4 (8.0 GT/s per lane, 128b/130b)"));
}

/* Bad input: exit status 2, one line naming the key and what was expected,
 * nothing on stdout. */
static void test_buscalc_bad_input(void)
{
    const struct { const char *kind, *arg, *msg; } cases[] = {
        { NULL, NULL, "missing the bus kind: expected 'pcie'" },
        { "pcix", NULL, "bus kind: expected 'pcie', got 'pcix'" },
        { "pcie", "gen=4", "gen: expected 1, 2 or 3, got 4" },
        { "pcie", "gen=two", "gen: expected a whole number, got 'two'" },
        { "pcie", "lanes=12", "lanes: expected 1, 2, 4, 8 or 16, got 12" },
        { "pcie", "mps=300", "mps: expected 128, 256, 512, 1024, 2048 or 4096, got 300" },
        { "pcie", "mrrs=", "mrrs: expected a whole number, got ''" },
        { "pcie", "rcb=512", "rcb: expected at most mps (256), got 512" },
        { "pcie", "ecrc=2", "ecrc: expected 0 or 1, got '2'" },
        { "pcie", "addr64=yes", "addr64: expected 0 or 1, got 'yes'" },
        { "pcie", "tags=0", "tags: expected 1 to 256 (8-bit extended tags), got 0" },
        { "pcie", "tags=-3", "tags: expected a whole number, got '-3'" },
        { "pcie", "lat_ns=-1", "lat_ns: expected a host read latency from 0 to 1000000 ns, got '-1'" },
        { "pcie", "size=64,,128", "size: expected a comma-separated list" },
        { "pcie", "size=0", "size: expected a comma-separated list" },
        { "pcie", "size=2000000", "size: expected a comma-separated list" },
        { "pcie", "speed=5", "unknown key 'speed' (expected one of gen, lanes," },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        captured c;
        const char *args[1] = { cases[i].arg };
        buscalc(&c, cases[i].kind, NULL, args, cases[i].arg ? 1 : 0);
        CU_ASSERT_EQUAL(c.rc, 2);
        CU_ASSERT_STRING_EQUAL(c.out, "");
        CU_ASSERT_EQUAL(strncmp(c.err, "nicsim buscalc: ", 16), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(c.err, cases[i].msg));
        /* one line */
        char *nl = strchr(c.err, '\n');
        CU_ASSERT(nl != NULL && nl[1] == 0);
    }
    /* --csv is not taken */
    captured c;
    char *ov[1] = { NULL };
    cli cl = { .cmd = "buscalc", .scenario = "pcie", .overrides = ov, .csv = "x.csv" };
    FILE *fe = tmpfile();
    fflush(stderr);
    int se = dup(2);
    dup2(fileno(fe), 2);
    c.rc = cmd_buscalc(&cl);
    fflush(stderr);
    dup2(se, 2);
    close(se);
    slurp(fe, c.err, sizeof c.err);
    fclose(fe);
    CU_ASSERT_EQUAL(c.rc, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(c.err, "--csv"));
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("PcieBus", NULL, NULL);
    CU_add_test(s, "DefaultParams", test_default_params);
    CU_add_test(s, "KindNames", test_kind_names);
    CU_add_test(s, "RejectsBadParams", test_rejects_bad_params);
    CU_add_test(s, "LinkRates", test_link_rates);
    CU_add_test(s, "SpecDllpIntervals", test_spec_dllp_intervals);
    CU_add_test(s, "TlpWireBytes", test_tlp_wire_bytes);
    CU_add_test(s, "OverheadPerKindOnTheWire", test_overhead_per_kind_on_the_wire);
    CU_add_test(s, "SingleWrite64", test_single_write_64);
    CU_add_test(s, "Read64Latency", test_read_64_latency);
    CU_add_test(s, "Gen3ExactByteTime", test_gen3_exact_byte_time);
    CU_add_test(s, "WriteSplitMps", test_write_split_mps);
    CU_add_test(s, "WriteSplitAt4k", test_write_split_at_4k);
    CU_add_test(s, "ReadSplitMrrs", test_read_split_mrrs);
    CU_add_test(s, "CompletionsSplitAtRcb", test_completions_split_at_rcb);
    CU_add_test(s, "ReadSplitAt4k", test_read_split_at_4k);
    CU_add_test(s, "TagLimit33rdReadWaits", test_tag_limit_33rd_read_waits);
    CU_add_test(s, "OutstandingNeverExceedsTags", test_outstanding_never_exceeds_tags);
    CU_add_test(s, "PostedWritePassesWaitingRead", test_posted_write_passes_waiting_read);
    CU_add_test(s, "FreedMrdGoesBeforeOwedDllps", test_freed_mrd_goes_before_owed_dllps);
    CU_add_test(s, "DllpsGoTheOtherWay", test_dllps_go_the_other_way);
    CU_add_test(s, "SkpTiming", test_skp_timing);
    CU_add_test(s, "DllpAlwaysTimers", test_dllp_always_timers);
    CU_add_test(s, "FullDuplex", test_full_duplex);
    CU_add_test(s, "UsableTlpBandwidthD1", test_usable_tlp_bandwidth_d1);
    CU_add_test(s, "MmioWritePosted", test_mmio_write_posted);
    CU_add_test(s, "MmioReadNonPosted", test_mmio_read_non_posted);
    CU_add_test(s, "MmioReadAfterWriteInOrder", test_mmio_read_after_write_in_order);
    CU_add_test(s, "MmioReadPushesPostedWrites", test_mmio_read_pushes_posted_writes);
    CU_add_test(s, "MmioReadsAnsweredInOrder", test_mmio_reads_answered_in_order);
    CU_add_test(s, "SpuriousReplyIgnored", test_spurious_reply_ignored);
    CU_add_test(s, "IgnoredRequests", test_ignored_requests);
    CU_add_test(s, "HostBusView", test_host_bus_view);
    CU_add_test(s, "Deterministic", test_deterministic);
    CU_add_test(s, "StreamMatchesFormula", test_stream_matches_formula);
    CU_add_test(s, "StreamTagBound", test_stream_tag_bound);
    CU_add_test(s, "PcieBenchFigures", test_pcie_bench_figures);
    CU_add_test(s, "StreamRejectsBadInput", test_stream_rejects_bad_input);
    CU_add_test(s, "BuscalcCommand", test_buscalc_command);
    CU_add_test(s, "BuscalcKeys", test_buscalc_keys);
    CU_add_test(s, "BuscalcBadInput", test_buscalc_bad_input);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
