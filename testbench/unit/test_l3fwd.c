/* Unit tests of driver/apps/l3fwd.c on two fake 82599 ports of one host:
 * frames received on port 0 are routed by their destination (IPv4 /24s and
 * IPv6 /48s: next hop = port) and come out of the fake TX engines rewritten
 * (addresses of the output port, IPv4 TTL down by one and checksum still
 * right, IPv6 unchanged past the MACs).  Both paths buffer per output port
 * and send a full buffer (32) with one tx burst, and send what waits when
 * the drain interval has passed; multi sends a run of 16 or more directly
 * when its port's buffer is empty, looks up four IPv4 keys at once, and a
 * group with a non-IPv4 frame one key at a time; drops free their buffers. */
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/apps/l3fwd.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include <CUnit/CUnit.h>
#include <string.h>

static struct plat_dev *d[2];
static struct ixgbe_dev dev[2];
static struct ixgbe_rxq rxq[2];
static struct ixgbe_txq txq[2];
static struct lpm l4, l6;
static struct l3fwd fwd;

static const uint8_t MAC[2][6] = { { 2, 0, 0, 0, 0, 0x10 }, { 2, 0, 0, 0, 0, 0x11 } };
static const uint8_t PEER[2][6] = { { 2, 0, 0, 0, 0, 0x20 }, { 2, 0, 0, 0, 0, 0x21 } };

static void up(enum l3fwd_path path)
{
    d[0] = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d[0]);
    d[1] = fake_create_sibling(d[0]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d[1]);
    struct l3fwd_port ports[2];
    for (int p = 0; p < 2; p++) {
        fake_ix_enable(d[p]);
        struct ixgbe_dev_opts o;
        ixgbe_dev_default_opts(&o);
        o.reset_settle_ns = 0;
        CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev[p], d[p], &o), 0);
        struct ixgbe_rx_opts ro;
        ixgbe_rx_default_opts(&ro);
        ro.copybreak = 0;
        ro.ring_size = 64;
        CU_ASSERT_EQUAL_FATAL(ixgbe_rxq_setup(&rxq[p], &dev[p], 0, &ro, NULL), 0);
        CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&txq[p], &dev[p], 0, NULL), 0);
        d[p]->nic_mode = FAKE_NIC_ON_TDT;
        ports[p] = (struct l3fwd_port){ .pd = d[p], .rxq = &rxq[p], .txq = &txq[p] };
        memcpy(ports[p].mac, MAC[p], 6);
        memcpy(ports[p].peer_mac, PEER[p], 6);
    }
    CU_ASSERT_EQUAL_FATAL(lpm_init(&l4, d[0], 4, 16), 0);
    CU_ASSERT_EQUAL_FATAL(lpm_init(&l6, d[0], 16, 64), 0);
    for (uint8_t p = 0; p < 2; p++) {
        uint8_t k4[4] = { 198, 18, p, 0 };
        uint8_t k6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, p };
        CU_ASSERT_EQUAL_FATAL(lpm_add(&l4, k4, 24, p), 0);
        CU_ASSERT_EQUAL_FATAL(lpm_add(&l6, k6, 48, p), 0);
    }
    struct l3fwd_opts fo;
    l3fwd_default_opts(&fo);
    fo.path = path;
    CU_ASSERT_EQUAL_FATAL(l3fwd_init(&fwd, ports, 2, &l4, &l6, &fo), 0);
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

static uint16_t csum(const uint8_t *h, unsigned n)
{
    uint32_t s = 0;
    for (unsigned i = 0; i < n; i += 2)
        s += (uint32_t)h[i] << 8 | h[i + 1];
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)s;
}

/* A 60-byte IPv4 frame to 198.18.<net>.5 (net 9: no route), or a 62-byte
 * IPv6 one to 2001:db8:0:<net>::5; type 0x0806 (not IP) with v = 0 and net 255. */
static void inject(int v, unsigned net)
{
    uint8_t f[62] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
    uint32_t len = v == 6 ? 62 : 60;
    if (v == 4) {
        f[12] = 0x08;
        uint8_t ip[20] = { 0x45, 0, 0, 46, 0, 1, 0, 0, 64, 17, 0, 0, 192, 168, 0, 2, 198, 18, (uint8_t)net, 5 };
        uint16_t c = (uint16_t)~csum(ip, 20);
        ip[10] = (uint8_t)(c >> 8);
        ip[11] = (uint8_t)c;
        memcpy(f + 14, ip, 20);
    } else if (v == 6) {
        f[12] = 0x86;
        f[13] = 0xdd;
        f[14] = 0x60;
        f[19] = 8;
        f[20] = 59;
        f[21] = 64;
        uint8_t dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, (uint8_t)net, [15] = 5 };
        memcpy(f + 38, dst, 16);
    } else {
        f[12] = 0x08;
        f[13] = 0x06;
    }
    CU_ASSERT_FATAL(fake_ix_rx(d[0], 0, f, len, 0) > 0);
}

static size_t tdt_writes(int p)
{
    return fake_count(d[p], FAKE_W32, IXGBE_TDT(0));
}

/* Let the drain interval pass on the forwarder's clock (port 0's). */
static void after_drain_interval(void)
{
    plat_delay_ns(d[0], fwd.opts.drain_ns + 1);
}

/* Scalar: frames wait in the output port's buffer; 32 go out with one tx
 * burst (one tail write); the rest when the drain interval has passed. */
static void test_scalar_buffers_and_drains(void)
{
    up(L3FWD_SCALAR);
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 0);              /* starts the drain clock */
    for (int k = 0; k < 40; k++)
        inject(4, 1);
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 32);             /* one rx burst of 32 */
    CU_ASSERT_EQUAL(tdt_writes(1), 1);
    CU_ASSERT_EQUAL(d[1]->nframes, 32);
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 8);
    CU_ASSERT_EQUAL(l3fwd_buffered(&fwd), 8);
    CU_ASSERT_EQUAL(tdt_writes(1), 1);
    after_drain_interval();
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 8);              /* the drain's 8 */
    CU_ASSERT_EQUAL(l3fwd_buffered(&fwd), 0);
    CU_ASSERT_EQUAL(tdt_writes(1), 2);
    CU_ASSERT_EQUAL_FATAL(d[1]->nframes, 40);
    for (int k = 0; k < 40; k++) {
        const uint8_t *f = d[1]->frames[k].data;
        CU_ASSERT(memcmp(f, PEER[1], 6) == 0);
        CU_ASSERT(memcmp(f + 6, MAC[1], 6) == 0);
        CU_ASSERT_EQUAL(f[22], 63);
        CU_ASSERT_EQUAL(csum(f + 14, 20), 0xffff);
    }
    CU_ASSERT_EQUAL(fwd.stats[1].tx_bursts, 2);
    CU_ASSERT_EQUAL(fwd.stats[1].tx_drained, 1);
    CU_ASSERT_EQUAL(fwd.stats[0].rx, 40);
    CU_ASSERT_EQUAL(fwd.lpm_stats.lookups, 40);
    CU_ASSERT_EQUAL(fwd.lookups_x4, 0);
    /* the scalar path prefetches the data of the frame 3 ahead */
    CU_ASSERT(fake_count(d[0], FAKE_PREFETCH, 0) >= 32);
    down();
}

/* Multi: a run of at least 16 for a port whose buffer is empty goes out
 * directly; shorter runs, or any run while the buffer holds frames, go
 * through the buffer. */
static void test_multi_runs(void)
{
    up(L3FWD_MULTI);
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 0);
    for (int k = 0; k < 20; k++)                    /* a run of 20 to port 1 */
        inject(4, 1);
    for (int k = 0; k < 8; k++)                     /* then 8 alternating */
        inject(4, k % 2);
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 28);
    CU_ASSERT_EQUAL(fwd.stats[1].tx_direct, 1);
    CU_ASSERT_EQUAL(tdt_writes(1), 1);
    CU_ASSERT_EQUAL(d[1]->nframes, 20);
    CU_ASSERT_EQUAL(fwd.txbuf[0].len, 4);
    CU_ASSERT_EQUAL(fwd.txbuf[1].len, 4);
    CU_ASSERT_EQUAL(fwd.groups, 7);
    CU_ASSERT_EQUAL(fwd.lookups_x4, 28);            /* every group all IPv4 */
    CU_ASSERT_EQUAL(fake_count(d[0], FAKE_PREFETCH, 0), 0);     /* no software prefetch */
    /* a long run while the port's buffer holds frames is buffered: 4 + 20 */
    for (int k = 0; k < 20; k++)
        inject(4, 1);
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 20);
    CU_ASSERT_EQUAL(fwd.stats[1].tx_direct, 1);
    CU_ASSERT_EQUAL(fwd.txbuf[1].len, 24);
    CU_ASSERT_EQUAL(tdt_writes(1), 1);
    after_drain_interval();
    l3fwd_step(&fwd);
    CU_ASSERT_EQUAL(d[1]->nframes, 44);
    CU_ASSERT_EQUAL(d[0]->nframes, 4);
    for (size_t k = 0; k < d[1]->nframes; k++)
        CU_ASSERT_EQUAL(csum(d[1]->frames[k].data + 14, 20), 0xffff);
    down();
}

/* Multi: a group of 4 with an IPv6 frame is looked up one key at a time;
 * the 2 frames past the last whole group too. */
static void test_multi_mixed_group_scalar_lookups(void)
{
    up(L3FWD_MULTI);
    inject(4, 1);
    inject(6, 1);
    inject(4, 1);
    inject(4, 1);
    inject(4, 1);
    inject(4, 1);
    inject(4, 1);
    inject(4, 1);
    inject(4, 1);
    inject(4, 1);
    CU_ASSERT_EQUAL(l3fwd_step(&fwd), 10);
    CU_ASSERT_EQUAL(fwd.groups, 2);
    CU_ASSERT_EQUAL(fwd.lookups_x4, 4);             /* the second group only */
    CU_ASSERT_EQUAL(fwd.lpm_stats.lookups, 10);
    down();
}

/* IPv6 is forwarded past its MACs unchanged (DPDK 1.6 and 1.7 leave the hop
 * limit); a frame without a route and one that is not IP are dropped and
 * their buffers freed; the same with both paths. */
static void test_ipv6_and_drops(void)
{
    for (int path = 0; path < 2; path++) {
        up(path ? L3FWD_MULTI : L3FWD_SCALAR);
        uint32_t in_use = rxq[0].rx.pool->in_use;
        CU_ASSERT_EQUAL(l3fwd_step(&fwd), 0);
        inject(6, 1);
        inject(4, 9);
        inject(0, 255);
        inject(6, 0);
        CU_ASSERT_EQUAL(l3fwd_step(&fwd), 4);
        after_drain_interval();
        l3fwd_step(&fwd);
        CU_ASSERT_EQUAL(fwd.stats[0].drop_no_route, 1);
        CU_ASSERT_EQUAL(fwd.stats[0].drop_bad, 1);
        CU_ASSERT_EQUAL_FATAL(d[1]->nframes, 1);
        CU_ASSERT_EQUAL_FATAL(d[0]->nframes, 1);
        CU_ASSERT_EQUAL(d[1]->frames[0].data[21], 64);
        CU_ASSERT(memcmp(d[0]->frames[0].data, PEER[0], 6) == 0);
        /* the two dropped buffers are back; the two sent ones come back at TX clean */
        CU_ASSERT_EQUAL(rxq[0].rx.pool->in_use, in_use + 2);
        CU_ASSERT_EQUAL(ixgbe_tx_clean(&txq[1], NULL, NULL) + ixgbe_tx_clean(&txq[0], NULL, NULL), 2);
        down();
    }
}

static void test_bad_options(void)
{
    struct l3fwd_port p = { 0 };
    struct l3fwd_opts o;
    l3fwd_default_opts(&o);
    CU_ASSERT_EQUAL(l3fwd_init(&fwd, &p, 1, NULL, NULL, &o), -1);     /* no queues */
    up(L3FWD_SCALAR);
    o.burst = 33;
    CU_ASSERT_EQUAL(l3fwd_init(&fwd, fwd.port, 2, &l4, &l6, &o), -1);
    o.burst = 32;
    o.tx_buf = 0;
    CU_ASSERT_EQUAL(l3fwd_init(&fwd, fwd.port, 2, &l4, &l6, &o), -1);
    o.tx_buf = 32;
    CU_ASSERT_EQUAL(l3fwd_init(&fwd, fwd.port, 2, &l6, &l4, &o), -1);  /* families swapped */
    down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("L3fwd", NULL, NULL);
    CU_add_test(s, "ScalarBuffersAndDrains", test_scalar_buffers_and_drains);
    CU_add_test(s, "MultiRuns", test_multi_runs);
    CU_add_test(s, "MultiMixedGroupScalarLookups", test_multi_mixed_group_scalar_lookups);
    CU_add_test(s, "Ipv6AndDrops", test_ipv6_and_drops);
    CU_add_test(s, "BadOptions", test_bad_options);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
