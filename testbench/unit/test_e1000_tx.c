/* Unit tests of the e1000 device bring-up and TX queue over the fake
 * platform (plat_fake.h): register sequences, descriptor contents, tail
 * batching, RS placement, ring-full behaviour, in-order reclaim, wrap-around. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/e1000/e1000_regs.h"
#include "../../driver/e1000/e1000_dev.h"
#include "../../driver/e1000/e1000_tx.h"

#define STATUS_UP (E1000_STATUS_LU | E1000_STATUS_FD | E1000_STATUS_SPEED_1000)
#define STATUS_PCIX (E1000_STATUS_PCIX_MODE | E1000_STATUS_PCIX_SPEED_133 | E1000_STATUS_BUS64)
#define BUF_BUS 0x2000000000ull   /* any address: the fake NIC is not run on it */

static struct plat_dev *d;
static struct e1000_dev dev;
static struct e1000_txq q;

/* cookies handed back by clean/teardown */
static uintptr_t done_log[20000];
static unsigned done_n;
static void done_cb(void *arg, void *cookie)
{
    (void)arg;
    if (done_n < sizeof done_log / sizeof done_log[0])
        done_log[done_n] = (uintptr_t)cookie;
    done_n++;
}

static void *cookie(unsigned k) { return (void *)(uintptr_t)(k + 1); }

/* A device up with status s, and a queue with options o (NULL = defaults). */
static int bring_up(uint32_t status, const struct e1000_tx_opts *o)
{
    d = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    fake_reg_set(d, E1000_STATUS, status);
    d->rst_reads_set = 1;
    done_n = 0;
    if (e1000_dev_init(&dev, d, NULL) != 0)
        return -100;
    int rc = e1000_txq_setup(&q, &dev, o);
    fake_log_clear(d);
    return rc;
}

static void take_down(void)
{
    if (q.slot)
        e1000_txq_teardown(&q, NULL, NULL);
    fake_destroy(d);
    d = NULL;
}

static uint64_t qw1_of(unsigned i) { return q.ring[i].cmd_sta; }
static uint8_t cmd_of(unsigned i) { return (uint8_t)(qw1_of(i) >> E1000_TXD_CMD_SHIFT); }
static uint32_t len_of(unsigned i) { return (uint32_t)(qw1_of(i) & 0xFFFF); }

/* ---- bring-up ---------------------------------------------------------- */

static void test_init_sequence(void)
{
    d = fake_create();
    fake_reg_set(d, E1000_STATUS, STATUS_UP | STATUS_PCIX | E1000_STATUS_FUNC_1);
    d->rst_reads_set = 3;
    CU_ASSERT_EQUAL(e1000_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL(dev.pcix, 1);
    CU_ASSERT_EQUAL(dev.func, 1);
    char buf[64];
    CU_ASSERT_STRING_EQUAL(e1000_dev_bus_str(&dev, buf, sizeof buf), "PCI-X:133MHz:64-bit");
    CU_ASSERT_EQUAL(e1000_txq_setup(&q, &dev, NULL), 0);

    const uint32_t tctl = E1000_TCTL_PSP | E1000_TCTL_RTLC | (15u << 4) | (63u << 12);
    CU_ASSERT_EQUAL(tctl, 0x0103F0F8u);
    struct { uint32_t reg, val; } want[] = {
        { E1000_CTRL, E1000_CTRL_RST }, { E1000_CTRL, E1000_CTRL_SLU },
        { E1000_IMC, 0xFFFFFFFFu }, { E1000_ITR, 195 }, { E1000_IMS, 0x9D },
        { E1000_TIPG, 0x00602008u }, { E1000_PBA, 48 }, { E1000_TCTL, tctl },
        { E1000_TDBAL, (uint32_t)q.ring_bus }, { E1000_TDBAH, (uint32_t)(q.ring_bus >> 32) },
        { E1000_TDLEN, 256 * 16 }, { E1000_TDH, 0 }, { E1000_TDT, 0 },
        { E1000_TXDCTL, 0x01010000u }, { E1000_TIDV, 8 }, { E1000_TADV, 32 },
        { E1000_TCTL, tctl | E1000_TCTL_EN },
    };
    size_t nw = 0;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_W32)
            continue;
        CU_ASSERT_FATAL(nw < sizeof want / sizeof want[0]);
        CU_ASSERT_EQUAL(d->log[i].reg, want[nw].reg);
        uint32_t got = d->log[i].val;
        if (want[nw].reg == E1000_CTRL)     /* other CTRL bits are the device's */
            got &= E1000_CTRL_RST | E1000_CTRL_SLU;
        CU_ASSERT_EQUAL(got, want[nw].val);
        nw++;
    }
    CU_ASSERT_EQUAL(nw, sizeof want / sizeof want[0]);
    CU_ASSERT_EQUAL(q.ring_bus % 4096, 0);
    CU_ASSERT_EQUAL(q.ring_bus >> 32, 1);          /* TDBAH carries the high half */
    /* one read for read-modify-write, 3 that still see RST, one that does not */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_CTRL), 5);
    CU_ASSERT_EQUAL(d->delays, 4 + 1);             /* a delay before every poll */
    /* ICR is read after everything is masked and before causes are enabled */
    long imc = fake_find(d, FAKE_W32, E1000_IMC, 0), icr = fake_find(d, FAKE_R32, E1000_ICR, 0);
    long ims = fake_find(d, FAKE_W32, E1000_IMS, 0);
    CU_ASSERT(imc >= 0 && imc < icr && icr < ims);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_IMS), E1000_IMS_ENABLE_MASK);
    take_down();
}

static void test_reset_timeout(void)
{
    d = fake_create();
    fake_reg_set(d, E1000_STATUS, STATUS_UP);
    d->rst_reads_set = -1;                         /* RST never clears */
    CU_ASSERT_EQUAL(e1000_dev_init(&dev, d, NULL), E1000_ERR_RESET);
    CU_ASSERT(d->now_ns >= 10000000ull && d->now_ns <= 10000000ull + 1000);
    CU_ASSERT(fake_count(d, FAKE_R32, E1000_CTRL) < 64);   /* polls back off */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_IMS), 0);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    fake_destroy(d);
}

static void test_link_timeout(void)
{
    d = fake_create();
    fake_reg_set(d, E1000_STATUS, E1000_STATUS_FD);
    CU_ASSERT_EQUAL(e1000_dev_init(&dev, d, NULL), E1000_ERR_LINK);
    CU_ASSERT(d->now_ns >= 2000000000ull && d->now_ns <= 2000000000ull + 1000);
    CU_ASSERT(fake_count(d, FAKE_R32, E1000_STATUS) < 5000);
    /* configured anyway: the caller may wait for the link itself */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TCTL), 1);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    fake_destroy(d);
}

static uint32_t late_link_hook(struct plat_dev *pd, uint32_t reg, uint32_t val, void *arg)
{
    (void)pd;
    int *reads = arg;
    if (reg == E1000_STATUS && ++*reads < 6)
        return val & ~E1000_STATUS_LU;
    return val;
}

static void test_link_late(void)
{
    int reads = 0;
    d = fake_create();
    fake_reg_set(d, E1000_STATUS, STATUS_UP);
    d->read_hook = late_link_hook;
    d->read_hook_arg = &reads;
    CU_ASSERT_EQUAL(e1000_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, E1000_STATUS), 6);
    CU_ASSERT(dev.status & E1000_STATUS_LU);
    fake_destroy(d);
}

static void test_irq_handle(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, NULL), 0);
    fake_reg_set(d, E1000_ICR, E1000_ICR_TXDW | E1000_ICR_TXQE);
    CU_ASSERT_EQUAL(e1000_irq_handle(&dev), E1000_ICR_TXDW | E1000_ICR_TXQE);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_ICR), 0);
    CU_ASSERT_EQUAL(dev.irqs, 1);
    CU_ASSERT_EQUAL(e1000_irq_handle(&dev), 0);
    CU_ASSERT_EQUAL(dev.irqs, 1);
    take_down();
}

static void test_params(void)
{
    struct e1000_tx_opts o;
    static const uint32_t bad_rings[] = { 40, 52, 4104, 0 };
    for (unsigned i = 0; i < 4; i++) {
        e1000_tx_default_opts(&o);
        o.ring_size = bad_rings[i];
        CU_ASSERT_EQUAL(bring_up(STATUS_UP, &o), E1000_ERR_PARAM);
        take_down();
    }
    e1000_tx_default_opts(&o);
    o.rs_every = 0;
    CU_ASSERT_EQUAL(bring_up(STATUS_UP, &o), E1000_ERR_PARAM);
    take_down();
    e1000_tx_default_opts(&o);
    o.wthresh = 64;
    CU_ASSERT_EQUAL(bring_up(STATUS_UP, &o), E1000_ERR_PARAM);
    take_down();
    e1000_tx_default_opts(&o);
    o.ring_size = 48;
    o.max_desc_bytes = 64;
    o.max_frame_len = 9000;                        /* 141 descriptors: never fits */
    CU_ASSERT_EQUAL(bring_up(STATUS_UP, &o), E1000_ERR_PARAM);
    take_down();

    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, NULL), 0);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 0, NULL, 0), E1000_ERR_PARAM);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 1515, NULL, 0), E1000_ERR_PARAM);
    CU_ASSERT_EQUAL(d->log_n, 0);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 1514, NULL, 0), 0);
    take_down();
}

static void test_ring_64k_boundary(void)
{
    d = fake_create();
    fake_reg_set(d, E1000_STATUS, STATUS_UP);
    CU_ASSERT_EQUAL_FATAL(e1000_dev_init(&dev, d, NULL), 0);
    fake_arena_seek(d, 0xF000);                    /* an 8 KB ring here crosses 64 KB */
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.ring_size = 512;
    CU_ASSERT_EQUAL_FATAL(e1000_txq_setup(&q, &dev, &o), 0);
    CU_ASSERT_EQUAL(q.ring_bytes, 8192);
    CU_ASSERT_EQUAL(q.ring_bus % 65536, 0);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    long i = fake_find(d, FAKE_W32, E1000_TDBAL, 0);
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT_EQUAL(d->log[i].val, (uint32_t)q.ring_bus);
    take_down();
}

/* ---- descriptors --------------------------------------------------------- */

static void test_descriptor_contents(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, NULL), 0);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS + 0x40, 60, cookie(0), 0), 0);
    CU_ASSERT_EQUAL(q.ring[0].buffer_addr, BUF_BUS + 0x40);
    uint8_t want = E1000_TXD_CMD_EOP | E1000_TXD_CMD_IFCS | E1000_TXD_CMD_RS | E1000_TXD_CMD_IDE;
    CU_ASSERT_EQUAL(qw1_of(0), 60u | (uint64_t)want << 24);   /* CSO, STA, CSS, special 0 */
    CU_ASSERT_EQUAL(q.ring[1].buffer_addr, 0);
    CU_ASSERT_EQUAL(qw1_of(1), 0);
    CU_ASSERT_EQUAL(d->mem_writes, 2);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TDT), 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_TDT), 1);
    CU_ASSERT_EQUAL(q.stats.packets, 1);
    CU_ASSERT_EQUAL(q.stats.descs, 1);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 1);
    CU_ASSERT_EQUAL(e1000_tx_free_descs(&q), 254);
    take_down();

    /* IDE only when TIDV != 0 (Linux), and never when turned off */
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.tidv = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 100, NULL, 0), 0);
    CU_ASSERT_EQUAL(cmd_of(0), E1000_TXD_CMD_EOP | E1000_TXD_CMD_IFCS | E1000_TXD_CMD_RS);
    take_down();
    e1000_tx_default_opts(&o);
    o.ide = 0;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 100, NULL, 0), 0);
    CU_ASSERT_EQUAL(cmd_of(0), 0x0B);
    take_down();
}

static void test_multi_descriptor(void)
{
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.max_desc_bytes = 256;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    CU_ASSERT_EQUAL(e1000_tx_descs_for(&q, 1000), 4);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 1000, cookie(0), 0), 0);
    static const uint32_t lens[] = { 256, 256, 256, 232 };
    for (unsigned i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(q.ring[i].buffer_addr, BUF_BUS + 256u * i);
        CU_ASSERT_EQUAL(len_of(i), lens[i]);
        CU_ASSERT_EQUAL(cmd_of(i), i < 3 ? E1000_TXD_CMD_IFCS
                                         : (E1000_TXD_CMD_IFCS | E1000_TXD_CMD_EOP |
                                            E1000_TXD_CMD_RS | E1000_TXD_CMD_IDE));
    }
    CU_ASSERT_EQUAL(q.stats.descs, 4);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_TDT), 4);
    take_down();

    /* default 4096 bytes per descriptor, jumbo frame */
    e1000_tx_default_opts(&o);
    o.max_frame_len = 9014;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 9000, NULL, 0), 0);
    CU_ASSERT_EQUAL(len_of(0), 4096);
    CU_ASSERT_EQUAL(len_of(1), 4096);
    CU_ASSERT_EQUAL(len_of(2), 808);
    CU_ASSERT_EQUAL(q.ring[2].buffer_addr, BUF_BUS + 8192);
    CU_ASSERT_EQUAL(cmd_of(2) & E1000_TXD_CMD_EOP, E1000_TXD_CMD_EOP);
    take_down();
}

static void test_erratum10_split(void)
{
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.max_frame_len = 9014;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP | STATUS_PCIX, &o), 0);
    CU_ASSERT_EQUAL(q.first_max, 2015);
    CU_ASSERT_EQUAL(e1000_tx_descs_for(&q, 1514), 1);
    CU_ASSERT_EQUAL(e1000_tx_descs_for(&q, 2015), 1);
    CU_ASSERT_EQUAL(e1000_tx_descs_for(&q, 2016), 2);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 3000, NULL, 0), 0);
    CU_ASSERT_EQUAL(len_of(0), 2015);
    CU_ASSERT_EQUAL(len_of(1), 985);
    CU_ASSERT_EQUAL(q.ring[1].buffer_addr, BUF_BUS + 2015);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 9000, NULL, 0), 0);
    CU_ASSERT_EQUAL(len_of(2), 2015);
    CU_ASSERT_EQUAL(len_of(3), 4096);
    CU_ASSERT_EQUAL(len_of(4), 2889);
    CU_ASSERT_EQUAL(cmd_of(2), E1000_TXD_CMD_IFCS);
    CU_ASSERT_EQUAL(cmd_of(4) & E1000_TXD_CMD_EOP, E1000_TXD_CMD_EOP);
    take_down();

    /* conventional PCI: no split */
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    CU_ASSERT_EQUAL(e1000_tx_descs_for(&q, 3000), 1);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 3000, NULL, 0), 0);
    CU_ASSERT_EQUAL(len_of(0), 3000);
    take_down();
}

/* ---- tail writes --------------------------------------------------------- */

static void test_tdt_only_when_more_zero(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, NULL), 0);
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS + 2048u * k, 60, cookie(k), 1), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TDT), 0);
    CU_ASSERT_EQUAL(d->wmbs, 0);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, cookie(10), 0), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TDT), 1);
    long t = fake_find(d, FAKE_W32, E1000_TDT, 0);
    CU_ASSERT_FATAL(t > 0);
    CU_ASSERT_EQUAL(d->log[t].val, 11);
    CU_ASSERT_EQUAL(d->log[t - 1].kind, FAKE_WMB);  /* stores ordered before the tail */
    for (size_t i = (size_t)t; i < d->log_n; i++)
        CU_ASSERT_NOT_EQUAL(d->log[i].kind, FAKE_MEMW);
    /* nothing pending: flush writes nothing */
    e1000_tx_flush(&q);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TDT), 1);
    /* pending packets: flush writes the tail once */
    for (unsigned k = 0; k < 3; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, NULL, 1), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TDT), 1);
    e1000_tx_flush(&q);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, E1000_TDT), 2);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_TDT), 14);
    CU_ASSERT_EQUAL(q.stats.tdt_writes, 2);
    take_down();
}

static void test_tdt_when_nearly_full(void)
{
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.ring_size = 48;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    CU_ASSERT_EQUAL(q.stop_descs, 3);              /* a 1514-byte frame + 2 */
    unsigned k = 0;
    while (fake_count(d, FAKE_W32, E1000_TDT) == 0 && k < 100) {
        CU_ASSERT_EQUAL_FATAL(e1000_xmit(&q, BUF_BUS, 60, NULL, 1), 0);
        k++;
    }
    /* 47 usable; the tail goes out when fewer than 3 remain */
    CU_ASSERT_EQUAL(k, 45);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_TDT), 45);
    CU_ASSERT_EQUAL(q.stats.tdt_forced, 1);
    CU_ASSERT(cmd_of(44) & E1000_TXD_CMD_RS);     /* and it will be reported */
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, NULL, 1), E1000_ERR_BUSY);
    take_down();
}

static void test_ring_full_writes_nothing(void)
{
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.ring_size = 48;
    o.max_desc_bytes = 256;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    /* stop threshold: 1514 B = 6 descriptors, + 2 */
    CU_ASSERT_EQUAL(q.stop_descs, 8);
    unsigned k = 0;
    while (e1000_tx_free_descs(&q) > 6)
        CU_ASSERT_EQUAL_FATAL(e1000_xmit(&q, BUF_BUS, 60, cookie(k++), 0), 0);
    CU_ASSERT_EQUAL(e1000_tx_free_descs(&q), 6);
    size_t log_n = d->log_n;
    uint64_t mw = d->mem_writes;
    uint32_t ntu = q.next_to_use;
    /* 1514 B needs 6 + 2: refused, nothing written anywhere */
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 1514, NULL, 0), E1000_ERR_BUSY);
    CU_ASSERT_EQUAL(d->log_n, log_n);
    CU_ASSERT_EQUAL(d->mem_writes, mw);
    CU_ASSERT_EQUAL(q.next_to_use, ntu);
    CU_ASSERT_EQUAL(q.stats.busy, 1);
    /* a 1000-byte frame (4 descriptors) still fits */
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 1000, NULL, 0), 0);
    CU_ASSERT_EQUAL(e1000_tx_free_descs(&q), 2);
    CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, NULL, 0), E1000_ERR_BUSY);
    CU_ASSERT_EQUAL(q.stats.busy, 2);
    take_down();
}

static unsigned tdt_writes_for_burst(unsigned packets, unsigned burst)
{
    if (bring_up(STATUS_UP, NULL) != 0)
        return ~0u;
    for (unsigned k = 0; k < packets; k++) {
        int more = !(k % burst == burst - 1 || k == packets - 1);
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, NULL, more), 0);
    }
    unsigned n = (unsigned)fake_count(d, FAKE_W32, E1000_TDT);
    CU_ASSERT_EQUAL(n, q.stats.tdt_writes);
    CU_ASSERT_EQUAL(fake_reg_get(d, E1000_TDT), packets);
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
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.rs_every = 4;
    /* packets 4 and 8 by count, 10 because the tail goes out after it */
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, NULL, k < 9), 0);
    for (unsigned k = 0; k < 10; k++) {
        int rs = k == 3 || k == 7 || k == 9;
        CU_ASSERT_EQUAL(!!(cmd_of(k) & E1000_TXD_CMD_RS), rs);
        CU_ASSERT_EQUAL(!!(cmd_of(k) & E1000_TXD_CMD_IDE), rs);
        CU_ASSERT(cmd_of(k) & E1000_TXD_CMD_EOP);
    }
    CU_ASSERT_EQUAL(q.stats.rs_set, 3);
    take_down();

    /* flush adds RS to the newest packet before handing it over */
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    for (unsigned k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, NULL, 1), 0);
    CU_ASSERT_EQUAL(cmd_of(9) & E1000_TXD_CMD_RS, 0);
    CU_ASSERT_EQUAL(q.stats.rs_set, 2);
    e1000_tx_flush(&q);
    CU_ASSERT(cmd_of(9) & E1000_TXD_CMD_RS);
    CU_ASSERT_EQUAL(len_of(9), 60);
    long t = fake_find(d, FAKE_W32, E1000_TDT, 0);
    CU_ASSERT_FATAL(t > 1);
    CU_ASSERT_EQUAL(d->log[t - 1].kind, FAKE_WMB);
    CU_ASSERT_EQUAL(d->log[t - 2].kind, FAKE_MEMW); /* the RS rewrite */
    CU_ASSERT_EQUAL(d->log[t].val, 10);
    take_down();

    /* rs_every = 1: every packet, as Linux */
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, NULL), 0);
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, NULL, 1), 0);
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT(cmd_of(k) & E1000_TXD_CMD_RS);
    take_down();
}

/* ---- clean ------------------------------------------------------------- */

static int is_status_of(uintptr_t addr, unsigned idx)
{
    return addr == (uintptr_t)&q.ring[idx].cmd_sta;
}

static void test_clean_dd_rs_in_order(void)
{
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.rs_every = 2;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, cookie(k), k < 5), 0);
    /* RS on descriptors 1, 3, 5 */
    for (unsigned k = 0; k < 6; k++)
        CU_ASSERT_EQUAL(!!(cmd_of(k) & E1000_TXD_CMD_RS), k % 2 == 1);
    fake_log_clear(d);

    CU_ASSERT_EQUAL(e1000_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 1);
    CU_ASSERT(is_status_of(d->log[fake_find(d, FAKE_MEMR, 0, 0)].addr, 1));
    CU_ASSERT_EQUAL(d->rmbs, 0);

    fake_set_dd(d, &q.ring[0]);        /* DD without RS means nothing to clean */
    CU_ASSERT_EQUAL(e1000_tx_clean(&q, done_cb, NULL), 0);
    fake_set_dd(d, &q.ring[3]);        /* a later RS cannot overtake the oldest */
    CU_ASSERT_EQUAL(e1000_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(done_n, 0);

    fake_set_dd(d, &q.ring[1]);
    CU_ASSERT_EQUAL(e1000_tx_clean(&q, done_cb, NULL), 4);
    CU_ASSERT_EQUAL(done_n, 4);
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(done_log[k], (uintptr_t)cookie(k));
    CU_ASSERT_EQUAL(e1000_tx_free_descs(&q), 255 - 2);
    fake_set_dd(d, &q.ring[5]);
    CU_ASSERT_EQUAL(e1000_tx_clean(&q, done_cb, NULL), 2);
    CU_ASSERT_EQUAL(done_log[5], (uintptr_t)cookie(5));
    CU_ASSERT_EQUAL(e1000_tx_free_descs(&q), 255);
    CU_ASSERT_EQUAL(q.stats.reclaimed, 6);
    /* each reclaimed descriptor's buffer_info entry was read and cleared, in
     * ring order (the cache model sees the driver's bookkeeping) */
    unsigned nt = 0;
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == FAKE_TOUCH) {
            CU_ASSERT_EQUAL(d->log[i].addr, (uintptr_t)q.info + nt * E1000_BUFFER_INFO_BYTES);
            CU_ASSERT_EQUAL(d->log[i].reg, 1);
            nt++;
        }
    CU_ASSERT_EQUAL(nt, 6);

    /* every status read was of an RS descriptor, and each DD seen was
     * followed by a read barrier before anything else was read */
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_MEMR)
            continue;
        CU_ASSERT(is_status_of(d->log[i].addr, 1) || is_status_of(d->log[i].addr, 3) ||
                  is_status_of(d->log[i].addr, 5));
        if (d->log[i].val64 & E1000_TXD_QW1_DD) {
            CU_ASSERT_FATAL(i + 1 < d->log_n);
            CU_ASSERT_EQUAL(d->log[i + 1].kind, FAKE_RMB);
        }
    }
    CU_ASSERT_EQUAL(d->rmbs, 3);
    take_down();
}

static void test_clean_ignores_unsent(void)
{
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.rs_every = 2;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, &o), 0);
    for (unsigned k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, cookie(k), 1), 0);
    /* RS on 1 and 3, but the NIC has not been given them: no reads */
    CU_ASSERT_EQUAL(e1000_tx_clean(&q, done_cb, NULL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_MEMR, 0), 0);
    e1000_tx_flush(&q);
    fake_set_dd(d, &q.ring[3]);
    fake_set_dd(d, &q.ring[1]);
    CU_ASSERT_EQUAL(e1000_tx_clean(&q, done_cb, NULL), 4);
    take_down();
}

static void test_teardown_returns_cookies(void)
{
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP, NULL), 0);
    for (unsigned k = 0; k < 3; k++)
        CU_ASSERT_EQUAL(e1000_xmit(&q, BUF_BUS, 60, cookie(k), 0), 0);
    e1000_txq_teardown(&q, done_cb, NULL);
    CU_ASSERT_EQUAL(done_n, 3);
    CU_ASSERT_EQUAL(done_log[2], (uintptr_t)cookie(2));
    long t = fake_find(d, FAKE_W32, E1000_TCTL, 0);
    CU_ASSERT_FATAL(t >= 0);
    CU_ASSERT_EQUAL(d->log[t].val & E1000_TCTL_EN, 0);
    CU_ASSERT_PTR_NULL(q.slot);
    fake_destroy(d);
}

/* ---- wrap-around with a NIC that completes in pieces --------------------- */

static void wrap_around_one(uint32_t ring, int pcix)
{
    struct e1000_tx_opts o;
    e1000_tx_default_opts(&o);
    o.ring_size = ring;
    o.max_desc_bytes = 1024;
    o.max_frame_len = 3000;
    o.rs_every = 3;
    o.clean_thresh = 16;
    CU_ASSERT_EQUAL_FATAL(bring_up(STATUS_UP | (pcix ? STATUS_PCIX : 0), &o), 0);
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
        int rc = e1000_xmit(&q, bus + (uint64_t)(sent % NBUF) * STRIDE, len, cookie(sent), more);
        if (rc == E1000_ERR_BUSY) {
            fake_nic_tx_run(d, 1 + guard % 23);   /* partial progress, may stop mid-packet */
            e1000_tx_clean(&q, done_cb, NULL);
            continue;
        }
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        sent++;
        if (e1000_tx_free_descs(&q) < o.clean_thresh)
            e1000_tx_clean(&q, done_cb, NULL);
    }
    CU_ASSERT_EQUAL_FATAL(sent, total);
    e1000_tx_flush(&q);
    fake_nic_tx_run(d, ~0u);
    e1000_tx_clean(&q, done_cb, NULL);
    CU_ASSERT_EQUAL(e1000_tx_in_use(&q), 0);
    CU_ASSERT_EQUAL(e1000_tx_free_descs(&q), ring - 1);
    CU_ASSERT_EQUAL(done_n, total);
    CU_ASSERT_EQUAL(d->nframes, total);
    CU_ASSERT_EQUAL(d->nic_errors, 0);
    CU_ASSERT_EQUAL(d->bad_accesses, 0);
    CU_ASSERT(q.stats.descs > 2 * ring);           /* wrapped at least twice */
    for (unsigned k = 0; k < total && k < d->nframes; k++) {
        CU_ASSERT_EQUAL(done_log[k], (uintptr_t)cookie(k));
        const struct fake_frame *f = &d->frames[k];
        uint32_t len = lens[k % nlens];
        CU_ASSERT_EQUAL(f->len, len);
        CU_ASSERT_EQUAL(f->bus_first, bus + (uint64_t)(k % NBUF) * STRIDE);
        CU_ASSERT_EQUAL(f->ndesc, e1000_tx_descs_for(&q, len));
        CU_ASSERT(memcmp(f->data, bufs + (size_t)(k % NBUF) * STRIDE, len) == 0);
    }
    take_down();
}

static void test_wrap_around(void)
{
    static const uint32_t rings[] = { 48, 56, 64, 256, 1024, 4096 };
    for (unsigned i = 0; i < sizeof rings / sizeof rings[0]; i++) {
        wrap_around_one(rings[i], 0);
        wrap_around_one(rings[i], 1);
    }
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("E1000Tx", NULL, NULL);
    CU_add_test(s, "InitSequence", test_init_sequence);
    CU_add_test(s, "ResetTimeout", test_reset_timeout);
    CU_add_test(s, "LinkTimeout", test_link_timeout);
    CU_add_test(s, "LinkLate", test_link_late);
    CU_add_test(s, "IrqHandle", test_irq_handle);
    CU_add_test(s, "Params", test_params);
    CU_add_test(s, "Ring64kBoundary", test_ring_64k_boundary);
    CU_add_test(s, "DescriptorContents", test_descriptor_contents);
    CU_add_test(s, "MultiDescriptor", test_multi_descriptor);
    CU_add_test(s, "Erratum10Split", test_erratum10_split);
    CU_add_test(s, "TdtOnlyWhenMoreZero", test_tdt_only_when_more_zero);
    CU_add_test(s, "TdtWhenNearlyFull", test_tdt_when_nearly_full);
    CU_add_test(s, "RingFullWritesNothing", test_ring_full_writes_nothing);
    CU_add_test(s, "BurstTdtWrites", test_burst_tdt_writes);
    CU_add_test(s, "RsEvery", test_rs_every);
    CU_add_test(s, "CleanDdRsInOrder", test_clean_dd_rs_in_order);
    CU_add_test(s, "CleanIgnoresUnsent", test_clean_ignores_unsent);
    CU_add_test(s, "TeardownReturnsCookies", test_teardown_returns_cookies);
    CU_add_test(s, "WrapAround", test_wrap_around);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
