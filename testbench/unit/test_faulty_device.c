/* A faulty device against the driver cores (issue 5, "faulty-device mode"):
 * over the fake platform, the device writes back bogus lengths and status,
 * sets DD on descriptors it never fetched (unposted ones included), repeats
 * a stale status, and overwrites the write-back words with garbage, mixed
 * with good traffic and with buffers the stack returns late.  The driver
 * must never touch memory outside its buffers (the sanitizer build checks
 * every access), must count what it drops, must keep its own accounting
 * within the ring, and must carry good traffic again after a queue
 * teardown and setup.  Every run is seeded: a failure names the seed and
 * step.  Suites: FaultyE1000Rx, FaultyIxgbeRx, FaultyE1000Tx, FaultyIxgbeTx. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/e1000/e1000_rx.h"
#include "../../driver/e1000/e1000_tx.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include "../../driver/ixgbe/ixgbe_dev.h"
#include "../../driver/ixgbe/ixgbe_rx.h"
#include "../../driver/ixgbe/ixgbe_tx.h"

#define STATUS_UP (E1000_STATUS_LU | E1000_STATUS_FD | E1000_STATUS_SPEED_1000)
#define STEPS     20000u
#define MAX_HELD  64u

static uint64_t rng;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}
static uint64_t rnd64(void)
{
    return (uint64_t)rnd() << 32 | rnd();
}

static struct plat_dev *d;
static unsigned step;

/* ---- what the stack sees ----------------------------------------------- */

static void *held[MAX_HELD];
static unsigned nheld;
static uint64_t delivered;
static void (*pkt_free)(struct plat_dev *, void *);

/* A delivered frame must lie inside the fake's DMA memory and inside one
 * receive buffer; the stack keeps some for a while (buffers returned late). */
static void check_frame(const void *data, uint64_t bus, uint32_t len, void *cookie)
{
    delivered++;
    if (len == 0 || len > PKTBUF_SIZE || !fake_bus_to_host(d, bus, len) ||
        fake_bus_to_host(d, bus, len) != data) {
        CU_FAIL("a delivered frame lies outside its buffer");
        fprintf(stderr, "step %u: len %u bus 0x%llx\n", step, len, (unsigned long long)bus);
    }
    if (nheld < MAX_HELD && rnd() % 4 == 0)
        held[nheld++] = cookie;
    else
        pkt_free(d, cookie);
}

static void free_some_held(int all)
{
    unsigned k = 0;
    for (unsigned i = 0; i < nheld; i++)
        if (all || rnd() % 3 == 0)
            pkt_free(d, held[i]);
        else
            held[k++] = held[i];
    nheld = k;
}

static void e_deliver(void *arg, struct e1000_rx_pkt *p)
{
    (void)arg;
    check_frame(p->data, p->bus, p->len, p->cookie);
}

static void x_deliver(void *arg, struct ixgbe_rx_pkt *p)
{
    (void)arg;
    check_frame(p->data, p->bus, p->len, p->cookie);
}

static uint8_t frame[2048];
static const uint8_t *make_frame(uint32_t len)
{
    for (uint32_t i = 0; i < len; i++)
        frame[i] = (uint8_t)(i * 31u + step);
    return frame;
}

/* ---- e1000 RX ---------------------------------------------------------- */

static struct e1000_dev edev;
static struct e1000_rxq erx;

static void test_e1000_rx(void)
{
    rng = 0x9E3779B97F4A7C15ull;
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_reg_set(d, E1000_STATUS, STATUS_UP);
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&edev, d, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(e1000_rxq_setup(&erx, &edev, NULL, NULL), 0);
    pkt_free = e1000_rx_pkt_free;
    nheld = 0;
    delivered = 0;
    uint64_t stale = 0;
    for (step = 0; step < STEPS; step++) {
        uint32_t r = rnd() % 100;
        unsigned i = rnd() % erx.rx.count;
        if (r < 40) {                           /* a good frame, if the NIC owns a descriptor */
            uint32_t len = 14 + rnd() % 1501;
            fake_nic_rx(d, make_frame(len), len, 0);
        } else if (r < 55) {                    /* a bogus write-back: any length, status, errors */
            erx.ring[i].wb = rnd64() | E1000_RXD_QW1_DD;
        } else if (r < 62) {                    /* DD on a descriptor the NIC never fetched */
            erx.ring[(erx.rx.next_to_use + rnd() % 8) % erx.rx.count].wb =
                E1000_RXD_QW1_DD | ((uint64_t)E1000_RXD_STAT_EOP << E1000_RXD_STATUS_SHIFT) | (rnd() % 4096);
        } else if (r < 70) {                    /* a stale status repeated on the last cleaned one */
            unsigned j = (erx.rx.next_to_clean + erx.rx.count - 1) % erx.rx.count;
            if (stale)
                erx.ring[j].wb = stale;
        } else {
            uint64_t before = delivered;
            e1000_rx_poll(&erx, 1 + rnd() % 64, e_deliver, NULL);
            if (delivered > before)
                stale = erx.ring[(erx.rx.next_to_clean + erx.rx.count - 1) % erx.rx.count].wb;
            free_some_held(0);
        }
        const struct rx_ring_stats *s = &erx.rx.stats;
        const struct rx_ring *ring = &erx.rx;
        if (ring->posted > ring->count || ring->next_to_clean >= ring->count ||
            ring->next_to_use >= ring->count || s->packets + s->errors + s->length_errors > s->descs) {
            CU_FAIL("the driver's ring accounting left the ring");
            fprintf(stderr, "seed 0x9E3779B97F4A7C15, step %u: posted %u count %u\n", step, ring->posted,
                    ring->count);
            break;
        }
    }
    CU_ASSERT(erx.rx.stats.length_errors > 0);  /* bogus lengths were counted, not used */
    CU_ASSERT(delivered > 0);
    free_some_held(1);
    /* after a queue reset, good traffic flows again, byte for byte */
    e1000_rxq_teardown(&erx);
    CU_ASSERT_EQUAL_FATAL(e1000_rxq_setup(&erx, &edev, NULL, NULL), 0);
    uint64_t before = delivered, good = 0;
    for (unsigned k = 0; k < 100; k++) {
        uint32_t len = 60 + k * 7;
        if (fake_nic_rx(d, make_frame(len), len, 0))
            good++;
        e1000_rx_poll(&erx, 64, e_deliver, NULL);
        free_some_held(1);
    }
    CU_ASSERT_EQUAL(delivered - before, good);
    CU_ASSERT(good >= 100);
    e1000_rxq_teardown(&erx);
    fake_destroy(d);
}

/* ---- ixgbe RX ---------------------------------------------------------- */

static struct ixgbe_dev xdev;
static struct ixgbe_rxq xrx;

static int ix_dev_up(void)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_ix_enable(d);
    struct ixgbe_dev_opts o;
    ixgbe_dev_default_opts(&o);
    o.reset_settle_ns = 0;
    return ixgbe_dev_init(&xdev, d, &o);
}

static void test_ixgbe_rx(void)
{
    rng = 0xD1B54A32D192ED03ull;
    CU_ASSERT_EQUAL_FATAL(ix_dev_up(), 0);
    CU_ASSERT_EQUAL_FATAL(ixgbe_rxq_setup(&xrx, &xdev, 0, NULL, NULL), 0);
    pkt_free = ixgbe_rx_pkt_free;
    nheld = 0;
    delivered = 0;
    struct ixgbe_adv_rx_desc stale = { 0, 0 };
    for (step = 0; step < STEPS; step++) {
        uint32_t r = rnd() % 100;
        unsigned i = rnd() % xrx.rx.count;
        if (r < 40) {
            uint32_t len = 14 + rnd() % 1501;
            fake_ix_rx(d, 0, make_frame(len), len, 0);
        } else if (r < 55) {                    /* garbage over the whole write-back */
            xrx.ring[i].pkt_addr = rnd64();
            xrx.ring[i].hdr_addr = rnd64() | IXGBE_RXDADV_STAT_DD;
        } else if (r < 62) {                    /* DD where the NIC never fetched */
            unsigned j = (xrx.rx.next_to_use + rnd() % 8) % xrx.rx.count;
            xrx.ring[j].hdr_addr = IXGBE_RXDADV_STAT_DD | IXGBE_RXDADV_STAT_EOP | (uint64_t)(rnd() % 65536) << 32;
        } else if (r < 70) {
            unsigned j = (xrx.rx.next_to_clean + xrx.rx.count - 1) % xrx.rx.count;
            if (stale.hdr_addr)
                xrx.ring[j] = stale;
        } else {
            uint64_t before = delivered;
            ixgbe_rx_poll(&xrx, 1 + rnd() % 64, x_deliver, NULL);
            if (delivered > before)
                stale = xrx.ring[(xrx.rx.next_to_clean + xrx.rx.count - 1) % xrx.rx.count];
            free_some_held(0);
        }
        const struct rx_ring_stats *s = &xrx.rx.stats;
        const struct rx_ring *ring = &xrx.rx;
        if (ring->posted > ring->count || ring->next_to_clean >= ring->count ||
            ring->next_to_use >= ring->count || s->packets + s->errors + s->length_errors > s->descs) {
            CU_FAIL("the driver's ring accounting left the ring");
            fprintf(stderr, "seed 0xD1B54A32D192ED03, step %u: posted %u count %u\n", step, ring->posted,
                    ring->count);
            break;
        }
    }
    CU_ASSERT(xrx.rx.stats.length_errors + xrx.rx.stats.multi_desc > 0);
    CU_ASSERT(delivered > 0);
    free_some_held(1);
    ixgbe_rxq_teardown(&xrx);
    CU_ASSERT_EQUAL_FATAL(ixgbe_rxq_setup(&xrx, &xdev, 0, NULL, NULL), 0);
    uint64_t before = delivered, good = 0;
    for (unsigned k = 0; k < 100; k++) {
        uint32_t len = 60 + k * 7;
        if (fake_ix_rx(d, 0, make_frame(len), len, 0))
            good++;
        ixgbe_rx_poll(&xrx, 64, x_deliver, NULL);
        free_some_held(1);
    }
    CU_ASSERT_EQUAL(delivered - before, good);
    CU_ASSERT(good >= 100);
    ixgbe_rxq_teardown(&xrx);
    fake_destroy(d);
}

/* ---- TX: DD where the device has not sent ------------------------------ */

/* Each packet's cookie is its number; a reclaim hands each back once at most. */
#define TX_PKTS 4096u
static uint8_t reclaimed[TX_PKTS];
static unsigned n_reclaimed, twice;

static void tx_done(void *arg, void *cookie)
{
    (void)arg;
    uintptr_t k = (uintptr_t)cookie - 1;
    if (k >= TX_PKTS || reclaimed[k]++)
        twice++;
    n_reclaimed++;
}

/* A TX queue of either core, as the test drives it. */
struct tx_side {
    void *q;
    void *ring;                 /* 16-byte descriptors; the status is in the second qword */
    uint32_t count;
    uint64_t dd;                /* DD in that qword */
    int (*xmit)(void *q, uint64_t bus, uint32_t len, void *cookie, int more);
    unsigned (*clean)(void *q, void (*done)(void *, void *), void *arg);
    unsigned (*free_descs)(const void *q);
    void (*teardown)(void *q, void (*done)(void *, void *), void *arg);
};

/* Packets sent while DD appears at random (on sent descriptors and on
 * unsent ones) and the status qword is scribbled over: nothing is handed
 * back twice, never more than was sent, and the teardown hands back every
 * packet exactly once. */
static void tx_faults(const struct tx_side *t, uint64_t seed)
{
    rng = seed;
    memset(reclaimed, 0, sizeof reclaimed);
    n_reclaimed = twice = 0;
    uint64_t bus;
    uint8_t *buf = plat_dma_alloc(d, 2048, 64, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    unsigned sent = 0;
    for (step = 0; step < STEPS && sent < TX_PKTS; step++) {
        uint32_t r = rnd() % 100;
        uint64_t *qw1 = (uint64_t *)((uint8_t *)t->ring + 16u * (rnd() % t->count) + 8);
        if (r < 50) {
            if (t->xmit(t->q, bus, 60 + rnd() % 1455, (void *)(uintptr_t)(sent + 1), rnd() % 2) == 0)
                sent++;
        } else if (r < 65) {                    /* DD on any descriptor, sent or not */
            *qw1 |= t->dd;
        } else if (r < 70) {
            *qw1 = rnd64();
        } else {
            t->clean(t->q, tx_done, NULL);
        }
        if (n_reclaimed > sent || t->free_descs(t->q) > t->count) {
            CU_FAIL("TX reclaimed more than was sent, or its free count left the ring");
            fprintf(stderr, "seed 0x%016llx, step %u\n", (unsigned long long)seed, step);
            break;
        }
    }
    CU_ASSERT_EQUAL(twice, 0);
    t->teardown(t->q, tx_done, NULL);
    CU_ASSERT_EQUAL(twice, 0);
    CU_ASSERT_EQUAL(n_reclaimed, sent);          /* every packet back exactly once */
}

static struct e1000_txq etx;

static int e_xmit(void *q, uint64_t b, uint32_t len, void *c, int more) { return e1000_xmit(q, b, len, c, more); }
static unsigned e_clean(void *q, void (*f)(void *, void *), void *a) { return e1000_tx_clean(q, f, a); }
static unsigned e_free(const void *q) { return e1000_tx_free_descs(q); }
static void e_down(void *q, void (*f)(void *, void *), void *a) { e1000_txq_teardown(q, f, a); }

static void test_e1000_tx(void)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_reg_set(d, E1000_STATUS, STATUS_UP);
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&edev, d, NULL), 0);
    d->nic_mode = FAKE_NIC_ON_TDT;              /* good completions too, at every tail write */
    CU_ASSERT_EQUAL_FATAL(e1000_txq_setup(&etx, &edev, NULL), 0);
    struct tx_side t = { &etx, etx.ring, etx.count, E1000_TXD_QW1_DD, e_xmit, e_clean, e_free, e_down };
    tx_faults(&t, 0x243F6A8885A308D3ull);
    fake_destroy(d);
}

static struct ixgbe_txq xtx;

static int x_xmit(void *q, uint64_t b, uint32_t len, void *c, int more) { return ixgbe_xmit(q, b, len, c, more); }
static unsigned x_clean(void *q, void (*f)(void *, void *), void *a) { return ixgbe_tx_clean(q, f, a); }
static unsigned x_free(const void *q) { return ixgbe_tx_free_descs(q); }
static void x_down(void *q, void (*f)(void *, void *), void *a) { ixgbe_txq_teardown(q, f, a); }

static void test_ixgbe_tx(void)
{
    CU_ASSERT_EQUAL_FATAL(ix_dev_up(), 0);
    d->nic_mode = FAKE_NIC_ON_TDT;
    CU_ASSERT_EQUAL_FATAL(ixgbe_txq_setup(&xtx, &xdev, 0, NULL), 0);
    struct tx_side t = { &xtx, xtx.ring, xtx.count, IXGBE_ADVTXD_STAT_DD, x_xmit, x_clean, x_free, x_down };
    tx_faults(&t, 0x13198A2E03707344ull);
    fake_destroy(d);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("FaultyDevice", NULL, NULL);
    CU_add_test(s, "E1000Rx", test_e1000_rx);
    CU_add_test(s, "IxgbeRx", test_ixgbe_rx);
    CU_add_test(s, "E1000Tx", test_e1000_tx);
    CU_add_test(s, "IxgbeTx", test_ixgbe_tx);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
