/* Unit tests of driver/apps/fwd.c (the ixy-style forwarder) on two fake
 * 82599 ports of one host, with the queues set up as ixy's rules say
 * (RDT once per poll, no rmb after DD, RS on every descriptor, reclaim in
 * whole batches of 32, ixy's buffer layout): one RDT write per rx batch that received anything
 * and none for an empty one; one TDT write per tx batch, also when the
 * ring took nothing; RS on every descriptor; reclaim of whole batches of
 * 32 by one DD read; frames received on one port leave the other, both
 * ways; frames that do not fit are freed; no byte of packet data is read;
 * the batch bounds the rx loop. */
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/apps/fwd.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include <CUnit/CUnit.h>
#include <string.h>

#define RING 64u

static struct plat_dev *d[2];
static struct ixgbe_dev dev[2];
static struct ixgbe_rxq rxq[2];
static struct ixgbe_txq txq[2];
static struct fwd fwd;

/* Both ports up with ixy's queue rules, the forwarder over them with the
 * given batch, the TX engines run as mode says. */
static void up(unsigned batch, unsigned ring, enum fake_nic_mode mode)
{
    d[0] = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d[0]);
    d[1] = fake_create_sibling(d[0]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d[1]);
    struct fwd_port ports[2];
    for (int p = 0; p < 2; p++) {
        fake_ix_enable(d[p]);
        struct ixgbe_dev_opts o;
        ixgbe_dev_default_opts(&o);
        o.reset_settle_ns = 0;
        CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev[p], d[p], &o), 0);
        struct ixgbe_rx_opts ro;
        ixgbe_rx_default_opts(&ro);
        ro.ring_size = ring;
        ro.copybreak = 0;
        ro.tail_per_poll = 1;
        ro.skip_rmb = 1;
        ro.buf_layout = PKTBUF_LAYOUT_IXY;      /* headers right in front of the data */
        ro.info_bytes = 8;                      /* a pointer per descriptor */
        CU_ASSERT_EQUAL_FATAL(ixgbe_rxq_setup(&rxq[p], &dev[p], 0, &ro, NULL), 0);
        struct ixgbe_tx_opts to;
        ixgbe_tx_default_opts(&to);
        to.ring_size = ring;
        to.pthresh = 36;
        to.hthresh = 8;
        to.wthresh = 4;
        to.rs_every = 1;
        to.clean_batch = 32;
        to.skip_rmb = 1;
        to.info_bytes = 8;
        CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&txq[p], &dev[p], 0, &to), 0);
        d[p]->nic_mode = mode;
        ports[p] = (struct fwd_port){ .pd = d[p], .rxq = &rxq[p], .txq = &txq[p] };
    }
    struct fwd_opts fo;
    fwd_default_opts(&fo);
    fo.batch = batch;
    CU_ASSERT_EQUAL_FATAL(fwd_init(&fwd, ports, &fo), 0);
    for (int p = 0; p < 2; p++)
        fake_log_clear(d[p]);
}

static void down(void)
{
    for (int p = 1; p >= 0; p--) {
        ixgbe_txq_teardown(&txq[p], NULL, NULL);
        ixgbe_rxq_teardown(&rxq[p]);
        fake_destroy(d[p]);
    }
}

/* A 60-byte frame on port p whose bytes say where it came from and its number. */
static void inject(int p, unsigned k)
{
    uint8_t f[60];
    memset(f, 0, sizeof f);
    f[0] = 0x02;
    f[12] = 0x08;
    f[20] = (uint8_t)p;
    f[21] = (uint8_t)k;
    f[22] = (uint8_t)(k >> 8);
    CU_ASSERT_FATAL(fake_ix_rx(d[p], 0, f, sizeof f, 0) > 0);
}

static size_t writes(int p, uint32_t reg)
{
    return fake_count(d[p], FAKE_W32, reg);
}

/* One RDT write after an rx batch that received anything, none after an
 * empty one (and no tx batch then: no TDT write on the other port). */
static void test_rdt_once_per_nonempty_batch(void)
{
    up(32, RING, FAKE_NIC_ON_TDT);
    for (unsigned k = 0; k < 5; k++)
        inject(0, k);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 5);
    CU_ASSERT_EQUAL(writes(0, IXGBE_RDT(0)), 1);
    CU_ASSERT_EQUAL(rxq[0].rx.stats.dd_reads, 6);       /* five, and the first without DD */
    CU_ASSERT_EQUAL(fake_cost_count(d[0], "fwd_rx_pkt"), 5);
    CU_ASSERT_EQUAL(fake_cost_count(d[0], "fwd_rx_batch"), 1);
    CU_ASSERT_EQUAL(fake_cost_count(d[1], "fwd_tx_batch"), 1);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 0);        /* nothing there */
    CU_ASSERT_EQUAL(writes(0, IXGBE_RDT(0)), 1);
    CU_ASSERT_EQUAL(writes(1, IXGBE_TDT(0)), 1);
    CU_ASSERT_EQUAL(fwd.stats[0].rx_polls, 2);
    CU_ASSERT_EQUAL(fwd.stats[0].rx_empty, 1);
    CU_ASSERT_EQUAL(fwd.stats[1].tx_calls, 1);
    CU_ASSERT_EQUAL(fake_cost_count(d[1], "fwd_tx_batch"), 1);
    /* batch 4: ten frames take three batches, one RDT write each */
    down();
    up(4, RING, FAKE_NIC_ON_TDT);
    for (unsigned k = 0; k < 10; k++)
        inject(0, k);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 4);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 4);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 2);
    CU_ASSERT_EQUAL(writes(0, IXGBE_RDT(0)), 3);
    CU_ASSERT_EQUAL(writes(1, IXGBE_TDT(0)), 3);
    CU_ASSERT_EQUAL(rxq[0].rx.stats.dd_reads, 4 + 4 + 3);   /* a full batch reads no further */
    CU_ASSERT_EQUAL(d[1]->nframes, 10);
    down();
}

/* Frames received on each port leave the other one, unchanged, in order. */
static void test_frames_cross_ports(void)
{
    up(32, RING, FAKE_NIC_ON_TDT);
    for (unsigned k = 0; k < 7; k++)
        inject(0, k);
    for (unsigned k = 0; k < 3; k++)
        inject(1, 100 + k);
    CU_ASSERT_EQUAL(fwd_step(&fwd), 10);
    CU_ASSERT_EQUAL_FATAL(d[1]->nframes, 7);
    CU_ASSERT_EQUAL_FATAL(d[0]->nframes, 3);
    for (unsigned k = 0; k < 7; k++) {
        CU_ASSERT_EQUAL(d[1]->frames[k].len, 60);
        CU_ASSERT_EQUAL(d[1]->frames[k].data[20], 0);
        CU_ASSERT_EQUAL(d[1]->frames[k].data[21], k);
    }
    for (unsigned k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(d[0]->frames[k].data[20], 1);
        CU_ASSERT_EQUAL(d[0]->frames[k].data[21], 100 + k);
    }
    CU_ASSERT_EQUAL(fwd.stats[0].rx, 7);
    CU_ASSERT_EQUAL(fwd.stats[1].tx, 7);
    CU_ASSERT_EQUAL(fwd.stats[1].rx, 3);
    CU_ASSERT_EQUAL(fwd.stats[0].tx, 3);
    CU_ASSERT_EQUAL(d[0]->nic_errors + d[1]->nic_errors, 0);
    down();
}

/* Whether access a reaches into [lo, hi). */
static int overlaps(const struct fake_access *a, uintptr_t lo, uintptr_t hi)
{
    size_t n = a->kind == FAKE_TOUCH || a->kind == FAKE_COPY_FROM || a->kind == FAKE_COPY_TO ? a->val : 8;
    return a->addr < hi && a->addr + n > lo;
}

/* RS on every descriptor, one descriptor per frame, and no byte of the
 * forwarded frames touched by the CPU; its reads are descriptors. */
static void test_rs_everywhere_no_data_touched(void)
{
    up(32, RING, FAKE_NIC_MANUAL);
    for (unsigned k = 0; k < 9; k++)
        inject(0, k);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 9);
    CU_ASSERT_EQUAL(txq[1].stats.descs, 9);
    CU_ASSERT_EQUAL(txq[1].stats.rs_set, 9);
    for (unsigned k = 0; k < 9; k++)
        CU_ASSERT(txq[1].ring[k].cmd_type_len & ((uint64_t)IXGBE_TXD_CMD_RS << 24));
    for (unsigned k = 0; k < 9; k++) {
        uint8_t *h = fake_bus_to_host(d[1], txq[1].ring[k].buffer_addr, 60);
        CU_ASSERT_PTR_NOT_NULL_FATAL(h);
        CU_ASSERT_EQUAL(h[21], k);                        /* the frame is there... */
        for (int p = 0; p < 2; p++)                       /* ...and nobody looked at it */
            for (size_t i = 0; i < d[p]->log_n; i++)
                CU_ASSERT_FALSE(overlaps(&d[p]->log[i], (uintptr_t)h, (uintptr_t)h + 60));
    }
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < d[p]->log_n; i++) {
            const struct fake_access *a = &d[p]->log[i];
            if (a->kind != FAKE_MEMR)
                continue;
            uintptr_t rx0 = (uintptr_t)rxq[p].ring, tx0 = (uintptr_t)txq[p].ring;
            CU_ASSERT((a->addr >= rx0 && a->addr < rx0 + RING * 16) || (a->addr >= tx0 && a->addr < tx0 + RING * 16));
        }
    down();
}

/* Reclaim before queueing, in whole batches of 32, by the DD of each
 * batch's last descriptor: one DD read per batch (and one for the next,
 * incomplete batch), the buffers back in the pool they came from. */
static void test_clean_in_batches_of_32(void)
{
    up(64, RING, FAKE_NIC_MANUAL);
    for (unsigned k = 0; k < 40; k++)
        inject(0, k);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 40);
    CU_ASSERT_EQUAL(txq[1].stats.dd_reads, 0);            /* under 32 outstanding before */
    CU_ASSERT_EQUAL(fake_ix_tx_run(d[1], 0, 100), 40);     /* all sent, DD on every one */
    uint32_t in_use = rxq[0].rx.pool->in_use;
    inject(0, 40);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 1);
    CU_ASSERT_EQUAL(txq[1].stats.dd_reads, 1);             /* descriptor 31's only */
    CU_ASSERT_EQUAL(txq[1].stats.reclaimed, 32);
    CU_ASSERT_EQUAL(ixgbe_tx_in_use(&txq[1]), 8 + 1);
    /* 32 freed into port 0's pool, one allocated there by the refill */
    CU_ASSERT_EQUAL(rxq[0].rx.pool->in_use, in_use - 32 + 1);
    CU_ASSERT_EQUAL(rxq[1].rx.pool->stats.frees, 0);
    down();
}

/* A tx batch that finds the ring full queues nothing, writes TDT all the
 * same, and the frames are freed at once. */
static void test_full_ring_tdt_and_free(void)
{
    up(32, RING, FAKE_NIC_MANUAL);
    unsigned k = 0, queued = 0;
    /* the NIC sends nothing: the ring fills (RING - 3 usable, see ixgbe_tx_room) */
    while (queued < RING - 3) {
        for (unsigned i = 0; i < 16; i++)
            inject(0, k++);
        queued += fwd_forward(&fwd, 0, 1);
    }
    CU_ASSERT_EQUAL(queued, RING - 3);
    CU_ASSERT(fwd.stats[0].tx_full > 0);                   /* the last batch did not all fit */
    uint64_t tdt = writes(1, IXGBE_TDT(0)), calls = fwd.stats[1].tx_calls;
    CU_ASSERT_EQUAL(tdt, calls);
    uint32_t in_use = rxq[0].rx.pool->in_use;
    uint64_t frees = rxq[0].rx.pool->stats.frees, full = fwd.stats[0].tx_full;
    for (unsigned i = 0; i < 5; i++)
        inject(0, k++);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 0, 1), 0);
    CU_ASSERT_EQUAL(writes(1, IXGBE_TDT(0)), tdt + 1);       /* written, nothing new */
    CU_ASSERT_EQUAL(fake_reg_get(d[1], IXGBE_TDT(0)), RING - 3);
    CU_ASSERT_EQUAL(fwd.stats[0].tx_full, full + 5);
    CU_ASSERT_EQUAL(rxq[0].rx.pool->stats.frees, frees + 5);
    /* five received and freed, five new ones posted: as many in use as before */
    CU_ASSERT_EQUAL(rxq[0].rx.pool->in_use, in_use);
    CU_ASSERT_EQUAL(fwd.stats[1].tx, RING - 3);
    down();
}

/* The batch bounds the rx loop: 256 at most, 300 frames need two polls. */
static void test_batch_256(void)
{
    up(256, 512, FAKE_NIC_ON_TDT);
    for (unsigned k = 0; k < 300; k++)
        inject(1, k);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 1, 0), 256);
    CU_ASSERT_EQUAL(fwd_forward(&fwd, 1, 0), 44);
    CU_ASSERT_EQUAL(writes(1, IXGBE_RDT(0)), 2);
    CU_ASSERT_EQUAL(d[0]->nframes, 300);
    CU_ASSERT_EQUAL(d[0]->frames[299].data[21], 299 & 0xff);
    down();
}

static void test_bad_options(void)
{
    struct fwd_port p[2] = { { 0 } };
    CU_ASSERT_EQUAL(fwd_init(&fwd, p, NULL), -1);          /* no queues */
    up(32, RING, FAKE_NIC_ON_TDT);
    struct fwd_port ok[2];
    memcpy(ok, fwd.port, sizeof ok);
    struct fwd_opts o;
    fwd_default_opts(&o);
    CU_ASSERT_EQUAL(o.batch, 32);
    o.batch = 0;
    CU_ASSERT_EQUAL(fwd_init(&fwd, ok, &o), -1);
    o.batch = FWD_MAX_BATCH + 1;
    CU_ASSERT_EQUAL(fwd_init(&fwd, ok, &o), -1);
    o.batch = FWD_MAX_BATCH;
    CU_ASSERT_EQUAL(fwd_init(&fwd, ok, &o), 0);
    down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Fwd", NULL, NULL);
    CU_add_test(s, "RdtOncePerNonEmptyBatch", test_rdt_once_per_nonempty_batch);
    CU_add_test(s, "FramesCrossPorts", test_frames_cross_ports);
    CU_add_test(s, "RsEverywhereNoDataTouched", test_rs_everywhere_no_data_touched);
    CU_add_test(s, "CleanInBatchesOf32", test_clean_in_batches_of_32);
    CU_add_test(s, "FullRingTdtAndFree", test_full_ring_tdt_and_free);
    CU_add_test(s, "Batch256", test_batch_256);
    CU_add_test(s, "BadOptions", test_bad_options);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
