/* Unit tests of the ixgbe (82599) TX queue over the 82599 fake of
 * plat_fake.h: queue set-up and its ENABLE read-back (and timeout), the
 * TXDCTL thresholds and the prefetch switch, advanced data descriptors bit
 * by bit, tail batching with `more` and the caller's own tail write,
 * ring-full behaviour, RS placement, in-order reclaim by DD, reclaim by
 * head write-back, teardown, and wrap-around against the fake NIC's TX
 * engine. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include "../../driver/ixgbe/ixgbe_tx.h"

#define BUF_BUS 0x2000000000ull   /* any address: the fake NIC is not run on it */

static struct plat_dev *d;
static struct ixgbe_dev dev;
static struct ixgbe_txq q;

static uintptr_t done_log[40000];
static unsigned done_n;
static void done_cb(void *arg, void *cookie)
{
    (void)arg;
    if (done_n < sizeof done_log / sizeof done_log[0])
        done_log[done_n] = (uintptr_t)cookie;
    done_n++;
}

static void *cookie(unsigned k) { return (void *)(uintptr_t)(k + 1); }

static struct plat_dev *new_dev(void)
{
    struct plat_dev *p = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    fake_ix_enable(p);
    return p;
}

/* A device up, and queue n with options o (NULL = defaults). */
static int bring_up_n(const struct ixgbe_tx_opts *o, unsigned n)
{
    d = new_dev();
    done_n = 0;
    struct ixgbe_dev_opts dopts;
    ixgbe_dev_default_opts(&dopts);
    dopts.reset_settle_ns = 0;
    if (ixgbe_dev_init(&dev, d, &dopts) != 0)
        return -100;
    fake_log_clear(d);
    int rc = ixgbe_txq_setup(&q, &dev, n, o);
    fake_log_clear(d);
    return rc;
}

static int bring_up(const struct ixgbe_tx_opts *o)
{
    return bring_up_n(o, 0);
}

static void take_down(void)
{
    if (q.slot)
        ixgbe_txq_teardown(&q, NULL, NULL);
    fake_destroy(d);
    d = NULL;
}

static size_t count_all(enum fake_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < d->log_n; i++)
        n += d->log[i].kind == kind;
    return n;
}

static uint64_t qw1_of(unsigned i) { return q.ring[i].cmd_type_len; }
static uint8_t cmd_of(unsigned i) { return (uint8_t)(qw1_of(i) >> 24); }
static uint32_t dtalen_of(unsigned i) { return (uint32_t)(qw1_of(i) & 0xFFFF); }
static uint32_t paylen_of(unsigned i) { return (uint32_t)(qw1_of(i) >> 46); }

/* ---- set-up -------------------------------------------------------------- */

static void setup_sequence_on(unsigned n)
{
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, NULL), 0);
    fake_log_clear(d);
    d->ix.qen_reads = 3;
    CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&q, &dev, n, NULL), 0);
    /* Linux's thresholds: PTHRESH 32, HTHRESH 1, WTHRESH 1, and ENABLE */
    const uint32_t txdctl = 32u | 1u << 8 | 1u << 16 | 1u << 25;
    CU_ASSERT_EQUAL(txdctl, 0x02010120u);
    struct { uint32_t reg, val; } want[] = {
        { 0x6000u + 0x40u * n, (uint32_t)q.ring_bus },          /* TDBAL */
        { 0x6004u + 0x40u * n, (uint32_t)(q.ring_bus >> 32) },  /* TDBAH */
        { 0x6008u + 0x40u * n, 512 * 16 },                      /* TDLEN */
        { 0x6010u + 0x40u * n, 0 }, { 0x6018u + 0x40u * n, 0 }, /* TDH, TDT */
        { 0x603Cu + 0x40u * n, 0 }, { 0x6038u + 0x40u * n, 0 }, /* no head write-back */
        { 0x6028u + 0x40u * n, txdctl },                        /* TXDCTL */
    };
    size_t nw = 0;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_W32)
            continue;
        CU_ASSERT_FATAL(nw < sizeof want / sizeof want[0]);
        CU_ASSERT_EQUAL(d->log[i].reg, want[nw].reg);
        CU_ASSERT_EQUAL(d->log[i].val, want[nw].val);
        nw++;
    }
    CU_ASSERT_EQUAL(nw, sizeof want / sizeof want[0]);
    /* ENABLE polled until it reads back: 3 reads without, one with, each
     * after a delay; nothing else read */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_TXDCTL(n)), 4);
    CU_ASSERT_EQUAL(count_all(FAKE_R32), 4);
    CU_ASSERT_EQUAL(d->delays, (2 + 1 + 1 + 1 + 3) + 4);  /* bring-up's, then these 4 */
    long en = fake_find(d, FAKE_W32, IXGBE_TXDCTL(n), 0);
    for (size_t i = 0; i < d->log_n; i++)           /* reads only after the enable */
        if (d->log[i].kind == FAKE_R32)
            CU_ASSERT((long)i > en);
    CU_ASSERT_EQUAL(q.ring_bus % 4096, 0);
    CU_ASSERT_EQUAL(q.ring_bus >> 32, 1);
    CU_ASSERT_EQUAL(q.ring_bytes, 8192);
    CU_ASSERT_EQUAL(q.count, 512);
    CU_ASSERT_EQUAL(q.stop_descs, 3);
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 511);
    CU_ASSERT_PTR_NULL(q.head_wb);
    take_down();
}

static void test_setup_sequence(void)
{
    setup_sequence_on(0);
    setup_sequence_on(3);
}

static void test_thresholds_and_prefetch_switch(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    CU_ASSERT_EQUAL(o.ring_size, 512);
    CU_ASSERT_EQUAL(o.pthresh, 32);
    CU_ASSERT_EQUAL(o.hthresh, 1);
    CU_ASSERT_EQUAL(o.wthresh, 1);
    CU_ASSERT_EQUAL(o.prefetch, 1);
    CU_ASSERT_EQUAL(o.head_wb, 0);
    o.prefetch = 0;                                /* PTHRESH 0, HTHRESH 0 */
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TXDCTL(0)), 0x02010000u);
    take_down();
    ixgbe_tx_default_opts(&o);
    o.pthresh = 36;                                /* ixy's "from DPDK" values (B3) */
    o.hthresh = 8;
    o.wthresh = 4;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TXDCTL(0)), 0x02040824u);
    take_down();
    o.prefetch = 0;                                /* the switch wins over the fields */
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TXDCTL(0)), 0x02040000u);
    take_down();
    ixgbe_tx_default_opts(&o);
    o.pthresh = 32;
    o.wthresh = 8;                                 /* 40: the whole descriptor cache */
    o.hthresh = 127;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TXDCTL(0)), 0x02087F20u);
    take_down();
}

static void test_enable_timeout(void)
{
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, NULL), 0);
    d->ix.qen_reads = -1;                          /* ENABLE never reads back */
    uint64_t t0 = d->now_ns;
    fake_log_clear(d);
    CU_ASSERT_EQUAL(ixgbe_txq_setup(&q, &dev, 0, NULL), IXGBE_ERR_QUEUE);
    CU_ASSERT(d->now_ns - t0 >= 10000000ull && d->now_ns - t0 <= 10000000ull + 1000);
    CU_ASSERT(fake_count(d, FAKE_R32, IXGBE_TXDCTL(0)) < 64);
    /* the request is withdrawn, the software state gone */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TXDCTL(0)), 2);
    long last = fake_find(d, FAKE_W32, IXGBE_TXDCTL(0), 1);
    CU_ASSERT_FATAL(last >= 0);
    CU_ASSERT_EQUAL(d->log[last].val, 0);
    CU_ASSERT_PTR_NULL(q.slot);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    fake_destroy(d);
}

static void test_params(void)
{
    struct ixgbe_tx_opts o;
    /* Linux accepts any multiple of 8 (IXGBE_REQ_TX_DESCRIPTOR_MULTIPLE) */
    static const uint32_t bad_rings[] = { 0, 32, 100, 772, 8192 };
    for (unsigned i = 0; i < sizeof bad_rings / sizeof bad_rings[0]; i++) {
        ixgbe_tx_default_opts(&o);
        o.ring_size = bad_rings[i];
        CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
        CU_ASSERT_EQUAL(d->log_n, 0);
        take_down();
    }
    static const uint32_t good_rings[] = { 64, 128, 768, 4096 };
    for (unsigned i = 0; i < sizeof good_rings / sizeof good_rings[0]; i++) {
        ixgbe_tx_default_opts(&o);
        o.ring_size = good_rings[i];
        CU_ASSERT_EQUAL(bring_up(&o), 0);
        take_down();
    }
    ixgbe_tx_default_opts(&o);
    o.pthresh = 33;
    o.wthresh = 8;                                 /* 41 > the 40-entry cache */
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    ixgbe_tx_default_opts(&o);
    o.hthresh = 128;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    ixgbe_tx_default_opts(&o);
    o.rs_every = 0;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    ixgbe_tx_default_opts(&o);
    o.max_desc_bytes = 65536;                      /* DTALEN is 16 bits */
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    ixgbe_tx_default_opts(&o);
    o.ring_size = 64;
    o.max_desc_bytes = 64;
    o.max_frame_len = 9000;                        /* 141 descriptors: never fits */
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
    CU_ASSERT_EQUAL(bring_up_n(NULL, 64), IXGBE_ERR_PARAM);
    take_down();
    CU_ASSERT_EQUAL(bring_up_n(NULL, 63), 0);
    CU_ASSERT_EQUAL(q.n, 63);
    take_down();

    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 0, NULL, 0), IXGBE_ERR_PARAM);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1515, NULL, 0), IXGBE_ERR_PARAM);
    CU_ASSERT_EQUAL(d->log_n, 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1514, NULL, 0), 0);
    take_down();
}

/* ---- descriptors --------------------------------------------------------- */

/* Expected QW1 of an advanced data descriptor, bit by bit from the table
 * of nic-facts B2 rather than from the driver's macros. */
static void check_qw1_bits(uint64_t w, uint32_t dtalen, int eop, int rs, uint32_t paylen)
{
    for (unsigned b = 0; b < 64; b++) {
        int got = (int)((w >> b) & 1), want;
        if (b < 16)
            want = (int)((dtalen >> b) & 1);       /* DTALEN 15:0 */
        else if (b < 20)
            want = 0;                              /* reserved, LINKSEC, 1588 */
        else if (b < 24)
            want = b == 20 || b == 21;             /* DTYP 0011 = data */
        else if (b == 24)
            want = eop;                            /* EOP */
        else if (b == 25)
            want = 1;                              /* IFCS */
        else if (b == 27)
            want = rs;                             /* RS */
        else if (b == 29)
            want = 1;                              /* DEXT */
        else if (b < 46)
            want = 0;                              /* 26, 28, VLE, TSE, STA, IDX, CC, POPTS */
        else
            want = (int)((paylen >> (b - 46)) & 1);  /* PAYLEN 63:46 */
        if (got != want)
            fprintf(stderr, "QW1 bit %u: %d, want %d\n", b, got, want);
        CU_ASSERT_EQUAL(got, want);
    }
}

static void test_descriptor_contents(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS + 0x40, 60, cookie(0), 0), 0);
    CU_ASSERT_EQUAL(q.ring[0].buffer_addr, BUF_BUS + 0x40);
    /* 60 | DTYP 3 << 20 | (EOP | IFCS | RS | DEXT) << 24 | 60 << 46 */
    CU_ASSERT_EQUAL(qw1_of(0), 0x000F00002B30003Cull);
    check_qw1_bits(qw1_of(0), 60, 1, 1, 60);
    CU_ASSERT_EQUAL(q.ring[1].buffer_addr, 0);
    CU_ASSERT_EQUAL(qw1_of(1), 0);
    CU_ASSERT_EQUAL(d->mem_writes, 2);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(0)), 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), 1);
    CU_ASSERT_EQUAL(q.stats.packets, 1);
    CU_ASSERT_EQUAL(q.stats.descs, 1);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 1);
    CU_ASSERT_EQUAL(q.stats.rs_set, 1);
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 510);
    /* the descriptor's tx_buffer entry was written (48 bytes) */
    long t = fake_find(d, FAKE_TOUCH, 0, 0);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].addr, (uintptr_t)q.info);
    CU_ASSERT_EQUAL(d->log[t].val, IXGBE_TX_BUFFER_INFO_BYTES);
    CU_ASSERT_EQUAL(d->log[t].reg, 1);
    take_down();

    /* ixy's bookkeeping: a pointer per descriptor */
    struct ixgbe_tx_opts io;
    ixgbe_tx_default_opts(&io);
    io.info_bytes = 8;
    CU_ASSERT_EQUAL_FATAL(bring_up(&io), 0);
    for (unsigned k = 0; k < 2; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, 0), 0);
    t = fake_find(d, FAKE_TOUCH, 0, 1);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].addr, (uintptr_t)q.info + 8);
    CU_ASSERT_EQUAL(d->log[t].val, 8);
    take_down();
    io.info_bytes = IXGBE_INFO_BYTES_MAX + 1;
    CU_ASSERT_EQUAL(bring_up(&io), IXGBE_ERR_PARAM);
    take_down();

    /* a full-size frame without RS (rs_every 2, more follows) */
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.rs_every = 2;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1514, NULL, 1), 0);
    check_qw1_bits(qw1_of(0), 1514, 1, 0, 1514);
    CU_ASSERT_EQUAL(qw1_of(0), 1514u | 0x300000ull | 0x23ull << 24 | 1514ull << 46);
    take_down();
}

static void test_multi_descriptor(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.max_desc_bytes = 256;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(ixgbe_tx_descs_for(&q, 1000), 4);
    CU_ASSERT_EQUAL(ixgbe_tx_descs_for(&q, 256), 1);
    CU_ASSERT_EQUAL(ixgbe_tx_descs_for(&q, 257), 2);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1000, cookie(0), 0), 0);
    static const uint32_t lens[] = { 256, 256, 256, 232 };
    for (unsigned i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(q.ring[i].buffer_addr, BUF_BUS + 256u * i);
        /* PAYLEN on the first only; EOP and RS on the last only */
        check_qw1_bits(qw1_of(i), lens[i], i == 3, i == 3, i == 0 ? 1000 : 0);
    }
    CU_ASSERT_EQUAL(q.stats.descs, 4);
    CU_ASSERT_EQUAL(q.stats.rs_set, 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), 4);
    CU_ASSERT_EQUAL(q.slot[3].cookie, cookie(0));
    CU_ASSERT_PTR_NULL(q.slot[0].cookie);
    take_down();

    /* default 16 KB per descriptor: a jumbo frame is one descriptor */
    ixgbe_tx_default_opts(&o);
    o.max_frame_len = 9014;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 9000, NULL, 0), 0);
    CU_ASSERT_EQUAL(dtalen_of(0), 9000);
    CU_ASSERT_EQUAL(paylen_of(0), 9000);
    CU_ASSERT(cmd_of(0) & IXGBE_TXD_CMD_EOP);
    CU_ASSERT_EQUAL(q.stats.descs, 1);
    take_down();
}

/* ---- tail writes --------------------------------------------------------- */

static void test_tdt_only_when_more_zero(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up_n(NULL, 2), 0);
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS + 2048u * k, 60, cookie(k), 1), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(2)), 0);
    CU_ASSERT_EQUAL(d->wmbs, 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(10), 0), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(2)), 1);
    long t = fake_find(d, FAKE_W32, IXGBE_TDT(2), 0);
    CU_ASSERT_FATAL(t > 0);
    CU_ASSERT_EQUAL(d->log[t].val, 11);
    CU_ASSERT_EQUAL(d->log[t - 1].kind, FAKE_WMB);  /* stores ordered before the tail */
    for (size_t i = (size_t)t; i < d->log_n; i++)
        CU_ASSERT_NOT_EQUAL(d->log[i].kind, FAKE_MEMW);
    /* queue 0's tail was never touched */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(0)), 0);
    ixgbe_tx_flush(&q);                            /* nothing pending: nothing written */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(2)), 1);
    for (unsigned k = 0; k < 3; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, 1), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(2)), 1);
    ixgbe_tx_flush(&q);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(2)), 2);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(2)), 14);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 2);
    take_down();
}

static void test_tdt_when_nearly_full(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.ring_size = 64;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(q.stop_descs, 3);              /* a 1514-byte frame + 2 */
    unsigned k = 0;
    while (fake_count(d, FAKE_W32, IXGBE_TDT(0)) == 0 && k < 100) {
        CU_ASSERT_EQUAL_FATAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, 1), 0);
        k++;
    }
    /* 63 usable; the tail goes out when fewer than 3 would remain */
    CU_ASSERT_EQUAL(k, 61);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), 61);
    CU_ASSERT_EQUAL(q.stats.tdt_forced, 1);
    CU_ASSERT(cmd_of(60) & IXGBE_TXD_CMD_RS);     /* and it will be reported */
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, 1), IXGBE_ERR_BUSY);
    take_down();
}

/* The caller writes the tail (ixy): xmit writes none, not even when the
 * ring is nearly full; ixgbe_tx_tail writes it once per call, also when
 * nothing was queued since the last one (the same value again). */
static void test_caller_tail(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.ring_size = 64;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    unsigned k = 0;
    while (ixgbe_xmit(&q, BUF_BUS, 60, cookie(k), IXGBE_XMIT_CALLER_TAIL) == 0)
        k++;
    CU_ASSERT_EQUAL(k, 61);                        /* past the nearly-full point */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(0)), 0);
    CU_ASSERT_EQUAL(q.stats.tdt_forced, 0);
    ixgbe_tx_tail(&q);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(0)), 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), 61);
    long t = fake_find(d, FAKE_W32, IXGBE_TDT(0), 0);
    CU_ASSERT_FATAL(t > 0);
    CU_ASSERT_EQUAL(d->log[t - 1].kind, FAKE_WMB);
    ixgbe_tx_tail(&q);                             /* nothing new: written all the same */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_TDT(0)), 2);
    CU_ASSERT_EQUAL(d->log[fake_find(d, FAKE_W32, IXGBE_TDT(0), 1)].val, 61);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 2);
    take_down();

    /* with RS every 4th packet, the newest packet before the tail gets RS */
    ixgbe_tx_default_opts(&o);
    o.rs_every = 4;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (k = 0; k < 6; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(k), IXGBE_XMIT_CALLER_TAIL), 0);
    CU_ASSERT(cmd_of(3) & IXGBE_TXD_CMD_RS);
    CU_ASSERT_FALSE(cmd_of(5) & IXGBE_TXD_CMD_RS);
    ixgbe_tx_tail(&q);
    CU_ASSERT(cmd_of(5) & IXGBE_TXD_CMD_RS);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), 6);
    take_down();
}

static void test_ring_full_writes_nothing(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.ring_size = 64;
    o.max_desc_bytes = 256;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(q.stop_descs, 8);              /* 1514 B = 6 descriptors, + 2 */
    unsigned k = 0;
    while (ixgbe_tx_free_descs(&q) > 6)
        CU_ASSERT_EQUAL_FATAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(k++), 0), 0);
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 6);
    size_t log_n = d->log_n;
    uint64_t mw = d->mem_writes;
    uint32_t ntu = q.next_to_use;
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1514, NULL, 0), IXGBE_ERR_BUSY);
    CU_ASSERT_EQUAL(d->log_n, log_n);
    CU_ASSERT_EQUAL(d->mem_writes, mw);
    CU_ASSERT_EQUAL(q.next_to_use, ntu);
    CU_ASSERT_EQUAL(q.stats.busy, 1);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1000, NULL, 0), 0);   /* 4 + 2 fit */
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 2);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, 0), IXGBE_ERR_BUSY);
    CU_ASSERT_EQUAL(q.stats.busy, 2);
    take_down();
}

static unsigned tdt_writes_for_burst(unsigned packets, unsigned burst)
{
    if (bring_up(NULL) != 0)
        return ~0u;
    for (unsigned k = 0; k < packets; k++) {
        int more = !(k % burst == burst - 1 || k == packets - 1);
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, more), 0);
    }
    unsigned n = (unsigned)fake_count(d, FAKE_W32, IXGBE_TDT(0));
    CU_ASSERT_EQUAL(n, q.stats.tdt_writes);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TDT(0)), packets);
    take_down();
    return n;
}

static void test_burst_tdt_writes(void)
{
    static const unsigned bursts[] = { 1, 2, 3, 7, 8, 32, 100, 150 };
    for (unsigned i = 0; i < sizeof bursts / sizeof bursts[0]; i++) {
        unsigned n = bursts[i];
        CU_ASSERT_EQUAL(tdt_writes_for_burst(100, n), (100 + n - 1) / n);
    }
}

static void test_rs_every(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.rs_every = 4;
    /* packets 4 and 8 by count, 10 because the tail goes out after it */
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, k < 9), 0);
    for (unsigned k = 0; k < 10; k++) {
        int rs = k == 3 || k == 7 || k == 9;
        CU_ASSERT_EQUAL(!!(cmd_of(k) & IXGBE_TXD_CMD_RS), rs);
        CU_ASSERT(cmd_of(k) & IXGBE_TXD_CMD_EOP);
    }
    CU_ASSERT_EQUAL(q.stats.rs_set, 3);
    take_down();

    /* flush adds RS to the newest packet before handing it over, keeping
     * the rest of its QW1 */
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60 + k, NULL, 1), 0);
    CU_ASSERT_EQUAL(cmd_of(9) & IXGBE_TXD_CMD_RS, 0);
    CU_ASSERT_EQUAL(q.stats.rs_set, 2);
    ixgbe_tx_flush(&q);
    check_qw1_bits(qw1_of(9), 69, 1, 1, 69);
    long t = fake_find(d, FAKE_W32, IXGBE_TDT(0), 0);
    CU_ASSERT_FATAL(t > 1);
    CU_ASSERT_EQUAL(d->log[t - 1].kind, FAKE_WMB);
    CU_ASSERT_EQUAL(d->log[t - 2].kind, FAKE_MEMW); /* the RS rewrite */
    CU_ASSERT_EQUAL(d->log[t - 2].addr, (uintptr_t)&q.ring[9].cmd_type_len);
    CU_ASSERT_EQUAL(d->log[t].val, 10);
    take_down();

    /* a late RS on a multi-descriptor packet keeps PAYLEN 0 on its last */
    ixgbe_tx_default_opts(&o);
    o.rs_every = 8;
    o.max_desc_bytes = 512;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1200, NULL, 1), 0);
    ixgbe_tx_flush(&q);
    check_qw1_bits(qw1_of(0), 512, 0, 0, 1200);
    check_qw1_bits(qw1_of(2), 176, 1, 1, 0);
    take_down();

    /* rs_every = 1 (the default): every packet, as Linux and ixy */
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, NULL, 1), 0);
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT(cmd_of(k) & IXGBE_TXD_CMD_RS);
    take_down();
}

/* ---- clean by DD ----------------------------------------------------------- */

static int is_status_of(uintptr_t addr, unsigned idx)
{
    return addr == (uintptr_t)&q.ring[idx].cmd_type_len;
}

static void test_clean_dd_rs_in_order(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.rs_every = 2;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(k), k < 5), 0);
    for (unsigned k = 0; k < 6; k++)                /* RS on 1, 3, 5 */
        CU_ASSERT_EQUAL(!!(cmd_of(k) & IXGBE_TXD_CMD_RS), k % 2 == 1);
    fake_log_clear(d);

    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 1);
    CU_ASSERT(is_status_of(d->log[fake_find(d, FAKE_MEMR, 0, 0)].addr, 1));
    CU_ASSERT_EQUAL(d->rmbs, 0);

    fake_ix_tx_done(d, &q.ring[0]);     /* DD without RS means nothing to clean */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 0);
    fake_ix_tx_done(d, &q.ring[3]);     /* a later RS cannot overtake the oldest */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(done_n, 0);

    fake_ix_tx_done(d, &q.ring[1]);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 4);
    CU_ASSERT_EQUAL(done_n, 4);
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(done_log[k], (uintptr_t)cookie(k));
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 511 - 2);
    fake_ix_tx_done(d, &q.ring[5]);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 2);
    CU_ASSERT_EQUAL(done_log[5], (uintptr_t)cookie(5));
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 511);
    CU_ASSERT_EQUAL(q.stats.reclaimed, 6);
    CU_ASSERT_EQUAL(q.rs_count, 0);
    /* each reclaimed descriptor's tx_buffer entry read and cleared in ring
     * order, 48 bytes apart */
    unsigned nt = 0;
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == FAKE_TOUCH) {
            CU_ASSERT_EQUAL(d->log[i].addr, (uintptr_t)q.info + nt * IXGBE_TX_BUFFER_INFO_BYTES);
            CU_ASSERT_EQUAL(d->log[i].val, IXGBE_TX_BUFFER_INFO_BYTES);
            nt++;
        }
    CU_ASSERT_EQUAL(nt, 6);
    /* every status read was of an RS descriptor, and each DD seen was
     * followed by a read barrier before anything else */
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_MEMR)
            continue;
        CU_ASSERT(is_status_of(d->log[i].addr, 1) || is_status_of(d->log[i].addr, 3) ||
                  is_status_of(d->log[i].addr, 5));
        if (d->log[i].val64 & IXGBE_ADVTXD_STAT_DD) {
            CU_ASSERT_FATAL(i + 1 < d->log_n);
            CU_ASSERT_EQUAL(d->log[i + 1].kind, FAKE_RMB);
        }
    }
    CU_ASSERT_EQUAL(d->rmbs, 3);
    take_down();
}

static void test_clean_ignores_unsent(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.rs_every = 2;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(k), 1), 0);
    /* RS on 1 and 3, but the NIC has not been given them: no reads */
    fake_ix_tx_done(d, &q.ring[1]);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 0);
    ixgbe_tx_flush(&q);
    fake_ix_tx_done(d, &q.ring[3]);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 4);
    take_down();
}

/* DPDK's simple TX: RS on descriptors 31, 63, ... only, not before a tail
 * write (flush included), and the reclaim by those descriptors' DD. */
static void test_rs_by_index(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.rs_every = 32;
    o.rs_by_index = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned k = 0; k < 40; k++)        /* bursts of 8: a tail write after each */
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(k), k % 8 != 7), 0);
    ixgbe_tx_flush(&q);
    for (unsigned k = 0; k < 40; k++)
        CU_ASSERT_EQUAL(!!(cmd_of(k) & IXGBE_TXD_CMD_RS), k == 31);
    CU_ASSERT_EQUAL(q.stats.rs_set, 1);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 5);
    fake_ix_tx_done(d, &q.ring[31]);
    fake_ix_tx_done(d, &q.ring[39]);        /* no RS there: says nothing */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 32);
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&q), 8);
    take_down();

    /* the ring size must be a multiple of tx_rs_thresh */
    o.rs_every = 48;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
}

/* ixy's reclaim: whole batches of 32, only the batch's last DD read. */
static void test_clean_batch(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.clean_batch = 32;
    o.skip_rmb = 1;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    for (unsigned k = 0; k < 70; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(k), k < 69), 0);
    for (unsigned k = 0; k < 70; k++)       /* RS on every one (ixy) */
        CU_ASSERT(cmd_of(k) & IXGBE_TXD_CMD_RS);
    for (unsigned k = 0; k < 40; k++)
        fake_ix_tx_done(d, &q.ring[k]);
    fake_log_clear(d);
    /* batch 0..31 done (31's DD), batch 32..63 not (63 has no DD yet) */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 32);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 2);
    CU_ASSERT(is_status_of(d->log[fake_find(d, FAKE_MEMR, 0, 0)].addr, 31));
    CU_ASSERT_EQUAL(d->rmbs, 0);
    for (unsigned k = 40; k < 70; k++)
        fake_ix_tx_done(d, &q.ring[k]);
    /* 32..63 now; 64..69 is not a whole batch and stays */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 32);
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&q), 6);
    CU_ASSERT_EQUAL(done_n, 64);
    CU_ASSERT_EQUAL(done_log[63], (uintptr_t)cookie(63));
    take_down();

    /* batches need RS on every packet */
    o.rs_every = 2;
    CU_ASSERT_EQUAL(bring_up(&o), IXGBE_ERR_PARAM);
    take_down();
}

static void test_clean_with_engine(void)
{
    /* the fake NIC writes back DD itself (QW0 and the command bits are gone
     * afterwards: the driver must not need them) */
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    uint64_t bus;
    uint8_t *buf = plat_dma_alloc(d, 4096, 4096, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    for (unsigned i = 0; i < 4096; i++)
        buf[i] = (uint8_t)(i * 13);
    d->nic_mode = FAKE_NIC_ON_TDT;
    for (unsigned k = 0; k < 5; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, bus + 64u * k, 60 + k, cookie(k), k < 4), 0);
    CU_ASSERT_EQUAL(d->nframes, 5);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    CU_ASSERT_EQUAL(d->ix.tx_wb, 5);
    CU_ASSERT_EQUAL(q.ring[4].buffer_addr, 0);
    CU_ASSERT_EQUAL(q.ring[4].cmd_type_len, IXGBE_ADVTXD_STAT_DD);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EICR) & 1u, 1u);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 5);
    for (unsigned k = 0; k < 5; k++) {
        CU_ASSERT_EQUAL(done_log[k], (uintptr_t)cookie(k));
        CU_ASSERT_EQUAL(d->frames[k].len, 60 + k);
        CU_ASSERT(memcmp(d->frames[k].data, buf + 64u * k, 60 + k) == 0);
    }
    take_down();
}

/* ---- clean by head write-back ---------------------------------------------- */

static void test_head_write_back(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.head_wb = 1;
    o.max_desc_bytes = 256;
    d = new_dev();
    done_n = 0;
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, NULL), 0);
    fake_log_clear(d);
    CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&q, &dev, 1, &o), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q.head_wb);
    CU_ASSERT_EQUAL(q.head_wb_bus % 64, 0);           /* a cache line of its own */
    long hi = fake_find(d, FAKE_W32, IXGBE_TDWBAH(1), 0), lo = fake_find(d, FAKE_W32, IXGBE_TDWBAL(1), 0);
    long en = fake_find(d, FAKE_W32, IXGBE_TXDCTL(1), 0);
    CU_ASSERT_FATAL(hi >= 0 && lo >= 0);
    CU_ASSERT(hi < lo && lo < en);                    /* the address complete before enable */
    CU_ASSERT_EQUAL(d->log[hi].val, (uint32_t)(q.head_wb_bus >> 32));
    CU_ASSERT_EQUAL(d->log[lo].val, (uint32_t)q.head_wb_bus | 1u);   /* HEAD_WB_ENABLE */
    fake_log_clear(d);

    /* 60 B (desc 0), 1000 B (descs 1-4), 60 B (desc 5) */
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(0), 1), 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 1000, cookie(1), 1), 0);
    CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(2), 0), 0);
    CU_ASSERT_EQUAL(q.tail, 6);
    size_t mr = fake_count(d, FAKE_MEMR, 0);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 0);   /* head still 0 */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), mr + 1);
    fake_ix_write_head(d, 1, 3);                       /* inside packet 1 */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 1);
    CU_ASSERT_EQUAL(done_n, 1);
    CU_ASSERT_EQUAL(q.next_to_clean, 1);
    fake_ix_write_head(d, 1, 5);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 1);
    CU_ASSERT_EQUAL(q.next_to_clean, 5);
    fake_ix_write_head(d, 1, 40);                      /* beyond the tail: not believed */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(q.stats.bad_head, 1);
    CU_ASSERT_EQUAL(q.next_to_clean, 5);
    fake_ix_write_head(d, 1, 6);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 1);
    CU_ASSERT_EQUAL(done_n, 3);
    for (unsigned k = 0; k < 3; k++)
        CU_ASSERT_EQUAL(done_log[k], (uintptr_t)cookie(k));
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&q), 0);
    CU_ASSERT_EQUAL(q.rs_count, 0);
    /* only the head location was read, never a descriptor; each head that
     * moved was followed by a read barrier */
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == FAKE_MEMR)
            CU_ASSERT_EQUAL(d->log[i].addr, (uintptr_t)q.head_wb);
    CU_ASSERT_EQUAL(q.stats.head_reads, 5);
    CU_ASSERT_EQUAL(q.stats.dd_reads, 0);
    CU_ASSERT_EQUAL(d->rmbs, 3);
    /* nothing handed over: no read at all */
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(q.stats.head_reads, 5);

    /* with the engine: it writes the head, not DD.  Descriptors 0..5 were
     * "sent" by the test above: the engine starts behind them. */
    d->ix.tdh[1] = q.tail;
    d->nic_mode = FAKE_NIC_ON_TDT;
    uint64_t bus;
    CU_ASSERT_PTR_NOT_NULL_FATAL(plat_dma_alloc(d, 4096, 4096, &bus));
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, bus, 100, cookie(10 + k), k < 3), 0);
    CU_ASSERT_EQUAL(d->ix.head_wbs, 4 + 4);
    CU_ASSERT_EQUAL(d->ix.tx_wb, 0);
    for (unsigned i = 6; i < 10; i++)
        CU_ASSERT_EQUAL(q.ring[i].cmd_type_len & IXGBE_ADVTXD_STAT_DD, 0);
    CU_ASSERT_EQUAL(ixgbe_tx_clean(&q, done_cb, NULL), 4);
    CU_ASSERT_EQUAL(done_log[6], (uintptr_t)cookie(13));
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    take_down();
}

/* ---- teardown ------------------------------------------------------------- */

static uint32_t stuck_enable(struct plat_dev *pd, uint32_t reg, uint32_t val, void *arg)
{
    (void)pd;
    (void)arg;
    return reg == IXGBE_TXDCTL(0) ? val | IXGBE_TXDCTL_ENABLE : val;
}

static void test_teardown(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    for (unsigned k = 0; k < 3; k++)
        CU_ASSERT_EQUAL(ixgbe_xmit(&q, BUF_BUS, 60, cookie(k), 0), 0);
    ixgbe_txq_teardown(&q, done_cb, NULL);
    CU_ASSERT_EQUAL(done_n, 3);
    CU_ASSERT_EQUAL(done_log[2], (uintptr_t)cookie(2));
    long t = fake_find(d, FAKE_W32, IXGBE_TXDCTL(0), 0);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].val, 0x00010120u);      /* thresholds kept, ENABLE off */
    /* the disable read back before the cookies went back */
    long r = fake_find(d, FAKE_R32, IXGBE_TXDCTL(0), 0);
    CU_ASSERT(r > t);
    CU_ASSERT_PTR_NULL(q.slot);
    ixgbe_txq_teardown(&q, done_cb, NULL);          /* twice: harmless */
    CU_ASSERT_EQUAL(done_n, 3);
    fake_destroy(d);

    /* a queue that never reports itself disabled: bounded, logged */
    CU_ASSERT_EQUAL_FATAL(bring_up(NULL), 0);
    d->read_hook = stuck_enable;
    uint64_t t0 = d->now_ns;
    ixgbe_txq_teardown(&q, NULL, NULL);
    CU_ASSERT(d->now_ns - t0 >= 10000000ull && d->now_ns - t0 <= 10000000ull + 1000);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    fake_destroy(d);
}

/* ---- wrap-around with a NIC that completes in pieces ----------------------- */

static void wrap_around_one(uint32_t ring, int head_wb, unsigned n)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.ring_size = ring;
    o.max_desc_bytes = 1024;
    o.max_frame_len = 3000;
    o.rs_every = 3;
    o.clean_thresh = 16;
    o.head_wb = (uint8_t)head_wb;
    CU_ASSERT_EQUAL_FATAL(bring_up_n(&o, n), 0);
    enum { NBUF = 16, STRIDE = 4096 };
    uint64_t bus;
    uint8_t *bufs = plat_dma_alloc(d, NBUF * STRIDE, 4096, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bufs);
    for (unsigned i = 0; i < NBUF * STRIDE; i++)
        bufs[i] = (uint8_t)(i * 7 + i / STRIDE);
    static const uint32_t lens[] = { 60, 1000, 3000, 1514, 200, 1025, 2048 };
    const unsigned nlens = sizeof lens / sizeof lens[0];
    const unsigned total = 3 * ring + 5;
    unsigned sent = 0, guard = 0;
    while (sent < total && guard++ < 100 * total) {
        uint32_t len = lens[sent % nlens];
        int more = sent % 5 != 4 && sent != total - 1;
        int rc = ixgbe_xmit(&q, bus + (uint64_t)(sent % NBUF) * STRIDE, len, cookie(sent), more);
        if (rc == IXGBE_ERR_BUSY) {
            fake_ix_tx_run(d, n, 1 + guard % 23);  /* partial progress, may stop mid-packet */
            ixgbe_tx_clean(&q, done_cb, NULL);
            continue;
        }
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        sent++;
        if (ixgbe_tx_free_descs(&q) < o.clean_thresh)
            ixgbe_tx_clean(&q, done_cb, NULL);
    }
    CU_ASSERT_EQUAL_FATAL(sent, total);
    ixgbe_tx_flush(&q);
    fake_ix_tx_run(d, n, ~0u);
    ixgbe_tx_clean(&q, done_cb, NULL);
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&q), 0);
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), ring - 1);
    CU_ASSERT_EQUAL(done_n, total);
    CU_ASSERT_EQUAL(d->nframes, total);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    CU_ASSERT_EQUAL(q.stats.bad_head, 0);
    CU_ASSERT(q.stats.descs > 2 * ring);           /* wrapped at least twice */
    if (head_wb) {
        CU_ASSERT(d->ix.head_wbs > 0 && d->ix.tx_wb == 0);
    } else {
        CU_ASSERT(d->ix.tx_wb > 0 && d->ix.head_wbs == 0);
    }
    for (unsigned k = 0; k < total && k < d->nframes; k++) {
        CU_ASSERT_EQUAL(done_log[k], (uintptr_t)cookie(k));
        const struct fake_frame *f = &d->frames[k];
        uint32_t len = lens[k % nlens];
        CU_ASSERT_EQUAL(f->len, len);
        CU_ASSERT_EQUAL(f->bus_first, bus + (uint64_t)(k % NBUF) * STRIDE);
        CU_ASSERT_EQUAL(f->ndesc, ixgbe_tx_descs_for(&q, len));
        CU_ASSERT(memcmp(f->data, bufs + (size_t)(k % NBUF) * STRIDE, len) == 0);
    }
    take_down();
}

static void test_wrap_around(void)
{
    static const uint32_t rings[] = { 64, 128, 200, 768, 1024, 4096 };   /* 200, 768: no power of 2 */
    for (unsigned i = 0; i < sizeof rings / sizeof rings[0]; i++) {
        wrap_around_one(rings[i], 0, 0);
        wrap_around_one(rings[i], 1, 5);
    }
}

/* ixgbe_clean_tx_irq's budget: at most budget packets per call, oldest
 * first, with their bytes; the rest on the next call; refused for the
 * reclaim modes it does not cover. */
static void test_clean_budget(void)
{
    struct ixgbe_tx_opts o;
    ixgbe_tx_default_opts(&o);
    o.ring_size = 768;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    const unsigned total = 700;
    for (unsigned k = 0; k < total; k++)
        CU_ASSERT_EQUAL_FATAL(ixgbe_xmit(&q, BUF_BUS, 60 + k % 2, cookie(k), k + 1 < total), 0);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 1);
    fake_ix_tx_run(d, 0, ~0u);
    uint64_t bytes = 0;
    CU_ASSERT_EQUAL(ixgbe_tx_clean_budget(&q, 256, done_cb, NULL, &bytes), 256);
    CU_ASSERT_EQUAL(bytes, 128u * 60 + 128u * 61);
    CU_ASSERT_EQUAL(done_n, 256);
    CU_ASSERT_EQUAL(ixgbe_tx_free_descs(&q), 767 - 700 + 256);
    CU_ASSERT_EQUAL(ixgbe_tx_clean_budget(&q, 256, done_cb, NULL, &bytes), 256);
    CU_ASSERT_EQUAL(ixgbe_tx_clean_budget(&q, 256, done_cb, NULL, &bytes), 188);
    CU_ASSERT_EQUAL(bytes, 94u * 60 + 94u * 61);
    CU_ASSERT_EQUAL(ixgbe_tx_clean_budget(&q, 256, done_cb, NULL, NULL), 0);
    CU_ASSERT_EQUAL(done_n, total);
    for (unsigned k = 0; k < total; k++)
        CU_ASSERT_EQUAL(done_log[k], (uintptr_t)cookie(k));
    take_down();
    ixgbe_tx_default_opts(&o);
    o.rs_every = 4;
    CU_ASSERT_EQUAL_FATAL(bring_up(&o), 0);
    CU_ASSERT_EQUAL(ixgbe_tx_clean_budget(&q, 256, done_cb, NULL, NULL), IXGBE_ERR_PARAM);
    take_down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("IxgbeTx", NULL, NULL);
    CU_add_test(s, "SetupSequence", test_setup_sequence);
    CU_add_test(s, "ThresholdsAndPrefetchSwitch", test_thresholds_and_prefetch_switch);
    CU_add_test(s, "EnableTimeout", test_enable_timeout);
    CU_add_test(s, "Params", test_params);
    CU_add_test(s, "DescriptorContents", test_descriptor_contents);
    CU_add_test(s, "MultiDescriptor", test_multi_descriptor);
    CU_add_test(s, "TdtOnlyWhenMoreZero", test_tdt_only_when_more_zero);
    CU_add_test(s, "TdtWhenNearlyFull", test_tdt_when_nearly_full);
    CU_add_test(s, "CallerTail", test_caller_tail);
    CU_add_test(s, "RingFullWritesNothing", test_ring_full_writes_nothing);
    CU_add_test(s, "BurstTdtWrites", test_burst_tdt_writes);
    CU_add_test(s, "RsEvery", test_rs_every);
    CU_add_test(s, "RsByIndex", test_rs_by_index);
    CU_add_test(s, "CleanBatch", test_clean_batch);
    CU_add_test(s, "CleanDdRsInOrder", test_clean_dd_rs_in_order);
    CU_add_test(s, "CleanIgnoresUnsent", test_clean_ignores_unsent);
    CU_add_test(s, "CleanWithEngine", test_clean_with_engine);
    CU_add_test(s, "HeadWriteBack", test_head_write_back);
    CU_add_test(s, "Teardown", test_teardown);
    CU_add_test(s, "WrapAround", test_wrap_around);
    CU_add_test(s, "CleanBudget", test_clean_budget);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
