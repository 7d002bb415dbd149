/* Unit tests of the ixgbe (82599) device bring-up over the 82599 fake of
 * plat_fake.h: the register sequence of nic-facts B1a in order and with
 * read-modify-writes, every bounded poll (reset, EEPROM auto-read, DMA
 * init, link) ending in an error rather than a hang, options, statistics
 * cleared on read, the interrupt helpers, and the register formulas. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include "gtest_cunit.h"
#include "plat_fake.h"
#include "../../driver/ixgbe/ixgbe_regs.h"
#include "../../driver/ixgbe/ixgbe_dev.h"

static struct plat_dev *d;
static struct ixgbe_dev dev;

/* Register values an EEPROM and a previous user could have left: bits the
 * driver does not own, to show that read-modify-writes keep them. */
#define AUTOC_OTHER   0x00000001u          /* a bit outside LMS / PMA_PMD / AN_RESTART */
#define HLREG0_OTHER  0x00002000u
#define RTTDCS_OTHER  0x00000001u

static struct plat_dev *new_dev(void)
{
    struct plat_dev *p = fake_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    fake_ix_enable(p);
    fake_reg_set(p, IXGBE_RAL(0), 0x01211b00u);    /* 00:1b:21:01:02:03 */
    fake_reg_set(p, IXGBE_RAH(0), 0x00000302u);
    return p;
}

struct wr { uint32_t reg, val; };

/* The register writes of the log, in order, must be exactly want[]. */
static void expect_writes(const struct wr *want, size_t n)
{
    size_t nw = 0;
    for (size_t i = 0; i < d->log_n; i++) {
        if (d->log[i].kind != FAKE_W32)
            continue;
        CU_ASSERT_FATAL(nw < n);
        if (d->log[i].reg != want[nw].reg || d->log[i].val != want[nw].val)
            fprintf(stderr, "write %zu: reg 0x%05x val 0x%08x, want 0x%05x 0x%08x\n", nw,
                    d->log[i].reg, d->log[i].val, want[nw].reg, want[nw].val);
        CU_ASSERT_EQUAL(d->log[i].reg, want[nw].reg);
        CU_ASSERT_EQUAL(d->log[i].val, want[nw].val);
        nw++;
    }
    CU_ASSERT_EQUAL(nw, n);
}

static long last_of(enum fake_kind kind, uint32_t reg)
{
    long r = -1;
    for (size_t i = 0; i < d->log_n; i++)
        if (d->log[i].kind == kind && d->log[i].reg == reg)
            r = (long)i;
    return r;
}

/* ---- the sequence -------------------------------------------------------- */

static void test_init_sequence(void)
{
    d = new_dev();
    fake_reg_set(d, IXGBE_AUTOC, AUTOC_OTHER | IXGBE_AUTOC_LMS_KX4_KX_KR | (1u << 7));
    fake_reg_set(d, IXGBE_HLREG0, HLREG0_OTHER);
    fake_reg_set(d, IXGBE_RTTDCS, RTTDCS_OTHER | IXGBE_RTTDCS_ARBDIS);
    fake_reg_set(d, IXGBE_RXCTRL, IXGBE_RXCTRL_RXEN);
    d->ix.rst_reads = 2;
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, NULL), 0);

    const struct wr want[] = {
        { IXGBE_EIMC, 0xFFFFFFFFu },                              /* 1 mask */
        { IXGBE_CTRL, 0x04000008u },                              /* 2 RST | LNK_RST */
        { IXGBE_EIMC, 0xFFFFFFFFu },                              /* 3 mask again */
        /* 7 AUTOC: LMS 011 (10G serial), PMA_PMD 00 (XAUI), AN_RESTART */
        { IXGBE_AUTOC, AUTOC_OTHER | (3u << 13) | (1u << 12) },
        { IXGBE_RXCTRL, 0 },                                      /* 9 receiver off */
        { IXGBE_RXPBSIZE(0), 128u << 10 }, { IXGBE_RXPBSIZE(1), 0 }, { IXGBE_RXPBSIZE(2), 0 },
        { IXGBE_RXPBSIZE(3), 0 }, { IXGBE_RXPBSIZE(4), 0 }, { IXGBE_RXPBSIZE(5), 0 },
        { IXGBE_RXPBSIZE(6), 0 }, { IXGBE_RXPBSIZE(7), 0 },
        { IXGBE_HLREG0, HLREG0_OTHER | 0x2u },                    /* RXCRCSTRP */
        { IXGBE_RDRXCTL, 0x8u | 0x2u },                           /* DMAIDONE stays, CRCSTRIP */
        { IXGBE_FCTRL, 0x400u },                                  /* BAM */
        { IXGBE_CTRL_EXT, 0x10000u },                             /* NS_DIS */
        { IXGBE_RXCTRL, 0x1u },                                   /* RXEN */
        { IXGBE_HLREG0, HLREG0_OTHER | 0x2u | 0x1u | 0x400u },    /* 10 TXCRCEN | TXPADEN */
        { IXGBE_TXPBSIZE(0), 0xA000u },                           /* 40 KB, ixy's value */
        { IXGBE_TXPBSIZE(1), 0 }, { IXGBE_TXPBSIZE(2), 0 }, { IXGBE_TXPBSIZE(3), 0 },
        { IXGBE_TXPBSIZE(4), 0 }, { IXGBE_TXPBSIZE(5), 0 }, { IXGBE_TXPBSIZE(6), 0 },
        { IXGBE_TXPBSIZE(7), 0 },
        { IXGBE_DTXMXSZRQ, 0xFFFFu },
        { IXGBE_RTTDCS, RTTDCS_OTHER },                           /* ARBDIS cleared */
        { IXGBE_DMATXCTL, 0x1u },                                 /* TE */
    };
    expect_writes(want, sizeof want / sizeof want[0]);

    /* EICR read between the first mask and the reset request */
    long eimc = fake_find(d, FAKE_W32, IXGBE_EIMC, 0), eicr = fake_find(d, FAKE_R32, IXGBE_EICR, 0);
    long ctrl_w = fake_find(d, FAKE_W32, IXGBE_CTRL, 0);
    CU_ASSERT(eimc >= 0 && eimc < eicr && eicr < ctrl_w);
    /* CTRL: one read for the read-modify-write, 2 that still see the reset
     * bits, one that does not */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_CTRL), 1 + 3);
    CU_ASSERT_EQUAL(d->ix.resets, 1);
    /* EEC is polled only after the reset has read back clear, DMAIDONE
     * after ARD, the MAC between the two */
    long ctrl_done = last_of(FAKE_R32, IXGBE_CTRL), ral = fake_find(d, FAKE_R32, IXGBE_RAL(0), 0);
    long eec = fake_find(d, FAKE_R32, IXGBE_EEC, 0), dma = fake_find(d, FAKE_R32, IXGBE_RDRXCTL, 0);
    long mask2 = fake_find(d, FAKE_W32, IXGBE_EIMC, 1);
    CU_ASSERT(ctrl_done < mask2 && mask2 < ral && ral < eec && eec < dma);
    CU_ASSERT_EQUAL(d->log[eec].val & IXGBE_EEC_ARD, IXGBE_EEC_ARD);
    CU_ASSERT_EQUAL(d->log[dma].val & IXGBE_RDRXCTL_DMAIDONE, IXGBE_RDRXCTL_DMAIDONE);
    /* the statistics are read after the link set-up and before the receive
     * path: every counter once */
    long autoc = fake_find(d, FAKE_W32, IXGBE_AUTOC, 0), gprc = fake_find(d, FAKE_R32, IXGBE_GPRC, 0);
    long rxctrl = fake_find(d, FAKE_R32, IXGBE_RXCTRL, 0);
    CU_ASSERT(dma < autoc && autoc < gprc && gprc < rxctrl);
    static const uint32_t stats[] = { IXGBE_CRCERRS, IXGBE_GPRC, IXGBE_BPRC, IXGBE_MPRC, IXGBE_GPTC,
                                      IXGBE_GORCL, IXGBE_GORCH, IXGBE_GOTCL, IXGBE_GOTCH, IXGBE_RUC,
                                      IXGBE_RFC, IXGBE_ROC, IXGBE_RJC, IXGBE_TORL, IXGBE_TORH,
                                      IXGBE_TPR, IXGBE_TPT, IXGBE_MPC(0), IXGBE_MPC(7),
                                      IXGBE_RNBC(0), IXGBE_RNBC(7) };
    for (unsigned i = 0; i < sizeof stats / sizeof stats[0]; i++)
        CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, stats[i]), 1);
    /* the link is waited for last: 2 reads without LINK_UP, one with */
    long links = fake_find(d, FAKE_R32, IXGBE_LINKS, 0);
    CU_ASSERT(links > last_of(FAKE_W32, IXGBE_DMATXCTL));
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_LINKS), 3);
    /* a delay before every poll read, and the 10 ms after the reset */
    CU_ASSERT_EQUAL(d->delays, 3 + 1 + 1 + 1 + 3);
    CU_ASSERT_EQUAL(d->now_ns, (1000 + 2000 + 4000) + 10000000ull + 1000 + 1000 +
                               (1000 + 2000 + 4000));
    CU_ASSERT(dev.links & IXGBE_LINKS_UP);
    CU_ASSERT_EQUAL(dev.speed_mbps, 10000);
    CU_ASSERT(memcmp(dev.mac, "\x00\x1b\x21\x01\x02\x03", 6) == 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIMS), 0);     /* interrupts stay masked */
    CU_ASSERT_EQUAL(d->log_msgs, 0);
    fake_destroy(d);
}

static void test_reset_timeout(void)
{
    d = new_dev();
    d->ix.rst_reads = -1;                         /* the reset never ends */
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), IXGBE_ERR_RESET);
    CU_ASSERT(d->now_ns >= 10000000ull && d->now_ns <= 10000000ull + 1000);
    CU_ASSERT(fake_count(d, FAKE_R32, IXGBE_CTRL) < 64);  /* polls back off */
    /* nothing after the reset request */
    CU_ASSERT_EQUAL(last_of(FAKE_W32, IXGBE_CTRL), (long)fake_find(d, FAKE_W32, IXGBE_CTRL, 0));
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_EIMC), 1);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_EEC), 0);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    CU_ASSERT(strstr(d->last_log, "reset") != NULL);
    fake_destroy(d);
}

static uint32_t stuck_lnk_rst(struct plat_dev *pd, uint32_t reg, uint32_t val, void *arg)
{
    (void)pd;
    (void)arg;
    return reg == IXGBE_CTRL ? val | IXGBE_CTRL_LNK_RST : val;
}

static void test_reset_one_bit_stuck(void)
{
    struct ixgbe_dev_opts o;
    ixgbe_dev_default_opts(&o);
    o.reset_timeout_ns = 50000;
    d = new_dev();
    d->read_hook = stuck_lnk_rst;                /* RST clears, LNK_RST does not: both
                                                    bits are polled */
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, &o), IXGBE_ERR_RESET);
    CU_ASSERT(d->now_ns >= 50000 && d->now_ns <= 51000);
    fake_destroy(d);
}

static void test_eeprom_timeout(void)
{
    d = new_dev();
    d->ix.ard_reads = -1;
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), IXGBE_ERR_EEPROM);
    /* reset polls, the 10 ms settle, then the 10 ms bound */
    uint64_t before = 1000 + 2000 + 10000000ull;
    CU_ASSERT(d->now_ns >= before + 10000000ull && d->now_ns <= before + 10000000ull + 1000);
    CU_ASSERT(fake_count(d, FAKE_R32, IXGBE_EEC) < 64);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_RDRXCTL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_AUTOC), 0);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    fake_destroy(d);

    /* late: 4 reads */
    d = new_dev();
    d->ix.ard_reads = 3;
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_EEC), 4);
    fake_destroy(d);

    /* ARD left over from before the reset does not count: the fake clears it
     * at the reset request, so the driver must poll after the reset */
    d = new_dev();
    fake_reg_set(d, IXGBE_EEC, IXGBE_EEC_ARD | IXGBE_EEC_PRES);
    d->ix.ard_reads = -1;
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), IXGBE_ERR_EEPROM);
    fake_destroy(d);
}

static void test_dma_init_timeout(void)
{
    d = new_dev();
    d->ix.dmaidone_reads = -1;
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), IXGBE_ERR_DMA_INIT);
    CU_ASSERT(fake_count(d, FAKE_R32, IXGBE_RDRXCTL) < 64);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_AUTOC), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_DMATXCTL), 0);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    fake_destroy(d);
}

static void test_link_timeout(void)
{
    d = new_dev();
    d->ix.link_reads = -1;                      /* no link partner */
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), IXGBE_ERR_LINK);
    uint64_t before = 1000 + 2000 + 10000000ull + 1000 + 1000;
    CU_ASSERT(d->now_ns >= before + 10000000000ull && d->now_ns <= before + 10000000000ull + 1000);
    CU_ASSERT(fake_count(d, FAKE_R32, IXGBE_LINKS) < 20000);
    /* configured anyway: the caller may wait for the link itself */
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_DMATXCTL), 1);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RXCTRL), IXGBE_RXCTRL_RXEN);
    CU_ASSERT_EQUAL(dev.speed_mbps, 0);
    CU_ASSERT_EQUAL(d->log_msgs, 1);
    CU_ASSERT(strstr(d->last_log, "link") != NULL);
    fake_destroy(d);
}

static void test_link_late(void)
{
    d = new_dev();
    d->ix.link_reads = 5;
    d->ix.link_speed = IXGBE_LINKS_SPEED_1G;
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_LINKS), 6);
    CU_ASSERT_EQUAL(dev.speed_mbps, 1000);
    fake_destroy(d);
}

/* ---- options ------------------------------------------------------------- */

static void test_options(void)
{
    struct ixgbe_dev_opts o;
    ixgbe_dev_default_opts(&o);
    CU_ASSERT_EQUAL(o.reset_timeout_ns, 10000000ull);
    CU_ASSERT_EQUAL(o.link_timeout_ns, 10000000000ull);
    CU_ASSERT_EQUAL(o.rxpb_kb, 128);
    CU_ASSERT_EQUAL(o.txpb_kb, 40);
    CU_ASSERT_EQUAL(o.crc_strip, 1);
    CU_ASSERT_EQUAL(o.promisc, 0);
    o.promisc = 1;
    o.crc_strip = 0;
    o.set_autoc = 0;
    o.rxpb_kb = 256;
    o.txpb_kb = 160;
    o.reset_settle_ns = 0;
    d = new_dev();
    fake_reg_set(d, IXGBE_HLREG0, IXGBE_HLREG0_RXCRCSTRP | HLREG0_OTHER);
    fake_reg_set(d, IXGBE_RDRXCTL, IXGBE_RDRXCTL_CRCSTRIP);
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, &o), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_FCTRL), IXGBE_FCTRL_BAM | IXGBE_FCTRL_UPE | IXGBE_FCTRL_MPE);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_HLREG0),
                    HLREG0_OTHER | IXGBE_HLREG0_TXCRCEN | IXGBE_HLREG0_TXPADEN);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RDRXCTL), IXGBE_RDRXCTL_DMAIDONE);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_AUTOC), 0);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_W32, IXGBE_AUTOC), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_RXPBSIZE(0)), 256u << 10);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_TXPBSIZE(0)), 160u << 10);
    CU_ASSERT_EQUAL(d->delays, 2 + 1 + 1 + 3);   /* no settle delay */
    fake_destroy(d);

    /* out of range: nothing touched */
    static const struct { int field; uint32_t val; } bad[] = {
        { 0, 1024 }, { 1, 1024 }, { 2, 2 }, { 3, 2 }, { 4, 2 },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ixgbe_dev_default_opts(&o);
        switch (bad[i].field) {
        case 0: o.rxpb_kb = bad[i].val; break;
        case 1: o.txpb_kb = bad[i].val; break;
        case 2: o.crc_strip = (uint8_t)bad[i].val; break;
        case 3: o.promisc = (uint8_t)bad[i].val; break;
        default: o.set_autoc = (uint8_t)bad[i].val; break;
        }
        d = new_dev();
        CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, &o), IXGBE_ERR_PARAM);
        CU_ASSERT_EQUAL(d->log_n, 0);
        fake_destroy(d);
    }
    ixgbe_dev_default_opts(&o);
    o.rxpb_kb = 1023;                            /* the largest the field holds */
    d = new_dev();
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, &o), 0);
    CU_ASSERT_EQUAL(ixgbe_dev_init(NULL, d, &o), IXGBE_ERR_PARAM);
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, NULL, &o), IXGBE_ERR_PARAM);
    fake_destroy(d);
}

static void test_init_twice(void)
{
    /* a second bring-up on the same device resets it again and succeeds */
    d = new_dev();
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL(ixgbe_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL(d->ix.resets, 2);
    CU_ASSERT_EQUAL(fake_count(d, FAKE_R32, IXGBE_LINKS), 6);
    fake_destroy(d);
}

/* ---- statistics ---------------------------------------------------------- */

static void test_stats_clear_on_read(void)
{
    d = new_dev();
    /* counts from before the bring-up are read away and not reported */
    fake_reg_set(d, IXGBE_GPRC, 5);
    fake_reg_set(d, IXGBE_GORCL, 0x100);
    fake_reg_set(d, IXGBE_GORCH, 2);
    fake_reg_set(d, IXGBE_MPC(3), 7);
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, NULL), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_GPRC), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_GORCH), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_MPC(3)), 0);
    CU_ASSERT_EQUAL(dev.stats.gprc, 0);
    CU_ASSERT_EQUAL(dev.stats.gorc, 0);
    CU_ASSERT_EQUAL(dev.stats.mpc, 0);

    fake_reg_set(d, IXGBE_GPRC, 10);
    fake_reg_set(d, IXGBE_GORCL, 0xFFFFFFFFu);
    fake_reg_set(d, IXGBE_GORCH, 1);
    fake_reg_set(d, IXGBE_GOTCL, 64);
    fake_reg_set(d, IXGBE_TORL, 3);
    fake_reg_set(d, IXGBE_TORH, 4);
    fake_reg_set(d, IXGBE_MPC(7), 2);
    fake_reg_set(d, IXGBE_MPC(0), 1);
    fake_reg_set(d, IXGBE_RNBC(4), 3);
    fake_reg_set(d, IXGBE_CRCERRS, 9);
    fake_reg_set(d, IXGBE_TPT, 11);
    ixgbe_dev_update_stats(&dev);
    CU_ASSERT_EQUAL(dev.stats.gprc, 10);
    CU_ASSERT_EQUAL(dev.stats.gorc, 0x1FFFFFFFFull);
    CU_ASSERT_EQUAL(dev.stats.gotc, 64);
    CU_ASSERT_EQUAL(dev.stats.tor, 0x400000003ull);
    CU_ASSERT_EQUAL(dev.stats.mpc, 3);
    CU_ASSERT_EQUAL(dev.stats.rnbc, 3);
    CU_ASSERT_EQUAL(dev.stats.crcerrs, 9);
    CU_ASSERT_EQUAL(dev.stats.tpt, 11);
    /* read again: the registers were cleared, the totals stay */
    ixgbe_dev_update_stats(&dev);
    CU_ASSERT_EQUAL(dev.stats.gprc, 10);
    CU_ASSERT_EQUAL(dev.stats.gorc, 0x1FFFFFFFFull);
    fake_reg_set(d, IXGBE_GPRC, 1);
    ixgbe_dev_update_stats(&dev);
    CU_ASSERT_EQUAL(dev.stats.gprc, 11);
    fake_destroy(d);
}

/* ---- interrupts ---------------------------------------------------------- */

static void test_irq_helpers(void)
{
    d = new_dev();
    CU_ASSERT_EQUAL_FATAL(ixgbe_dev_init(&dev, d, NULL), 0);
    fake_log_clear(d);
    ixgbe_irq_enable(&dev, IXGBE_EICR_LSC | 0x1u);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIMS), IXGBE_EICR_LSC | 0x1u);
    ixgbe_irq_disable(&dev, 0x1u);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EIMS), IXGBE_EICR_LSC);
    CU_ASSERT_EQUAL(d->log[0].reg, IXGBE_EIMS);
    CU_ASSERT_EQUAL(d->log[1].reg, IXGBE_EIMC);
    CU_ASSERT_EQUAL(d->log[1].val, 0x1u);

    /* a masked cause does not interrupt, an enabled one does */
    fake_reg_set(d, IXGBE_EICR, 0x1u);
    CU_ASSERT_EQUAL(plat_irq_wait(d, 1000), 0);
    fake_reg_set(d, IXGBE_EICR, 0x1u | IXGBE_EICR_LSC);
    CU_ASSERT_EQUAL(plat_irq_wait(d, 1000), 1);
    CU_ASSERT_EQUAL(ixgbe_irq_handle(&dev), 0x1u | IXGBE_EICR_LSC);
    CU_ASSERT_EQUAL(fake_reg_get(d, IXGBE_EICR), 0);    /* the read cleared it */
    CU_ASSERT_EQUAL(dev.irqs, 1);
    CU_ASSERT_EQUAL(ixgbe_irq_handle(&dev), 0);          /* not ours */
    CU_ASSERT_EQUAL(dev.irqs, 1);

    /* EITR: 2 us units in bits 11:3 (nic-facts B3's table) */
    CU_ASSERT_EQUAL(ixgbe_eitr_value(2), 0x008);
    CU_ASSERT_EQUAL(ixgbe_eitr_value(10), 0x028);
    CU_ASSERT_EQUAL(ixgbe_eitr_value(50), 0x0C8);
    CU_ASSERT_EQUAL(ixgbe_eitr_value(500), 0x7D0);
    CU_ASSERT_EQUAL(ixgbe_eitr_value(3), 0x008);         /* rounded down to 2 us */
    CU_ASSERT_EQUAL(ixgbe_eitr_value(1022), 0xFF8);
    fake_log_clear(d);
    CU_ASSERT_EQUAL(ixgbe_set_eitr(&dev, 0, 10), 0);
    CU_ASSERT_EQUAL(ixgbe_set_eitr(&dev, 23, 1022), 0);
    CU_ASSERT_EQUAL(fake_reg_get(d, 0x820), 0x028);
    CU_ASSERT_EQUAL(fake_reg_get(d, 0x87C), 0xFF8);
    CU_ASSERT_EQUAL(ixgbe_set_eitr(&dev, 24, 10), IXGBE_ERR_PARAM);
    CU_ASSERT_EQUAL(ixgbe_set_eitr(&dev, 0, 1023), IXGBE_ERR_PARAM);
    CU_ASSERT_EQUAL(d->log_n, 2);                        /* refused: nothing written */
    fake_destroy(d);
}

/* ---- register map -------------------------------------------------------- */

static void test_register_formulas(void)
{
    /* queue formulas of nic-facts B1, spelled out */
    CU_ASSERT_EQUAL(IXGBE_RDBAL(1), 0x01040u);
    CU_ASSERT_EQUAL(IXGBE_RDT(63), 0x01FD8u);
    CU_ASSERT_EQUAL(IXGBE_RXDCTL(2), 0x010A8u);
    CU_ASSERT_EQUAL(IXGBE_TDBAL(1), 0x06040u);
    CU_ASSERT_EQUAL(IXGBE_TDT(3), 0x060D8u);
    CU_ASSERT_EQUAL(IXGBE_TXDCTL(1), 0x06068u);
    CU_ASSERT_EQUAL(IXGBE_TDWBAL(2), 0x060B8u);
    CU_ASSERT_EQUAL(IXGBE_TDWBAH(2), 0x060BCu);
    CU_ASSERT_EQUAL(IXGBE_SRRCTL(15), 0x0213Cu);
    CU_ASSERT_EQUAL(IXGBE_DCA_RXCTRL(1), 0x02204u);
    CU_ASSERT_EQUAL(IXGBE_RXPBSIZE(7), 0x03C1Cu);
    CU_ASSERT_EQUAL(IXGBE_TXPBSIZE(7), 0x0CC1Cu);
    CU_ASSERT_EQUAL(IXGBE_MPC(7), 0x03FBCu);
    CU_ASSERT_EQUAL(IXGBE_RNBC(7), 0x03FDCu);
    CU_ASSERT_EQUAL(IXGBE_EITR(23), 0x0087Cu);
    CU_ASSERT_EQUAL(IXGBE_RAL(1), 0x05408u);
    CU_ASSERT_EQUAL(IXGBE_RAH(15), 0x0547Cu);
    /* bits the bring-up and queues depend on */
    CU_ASSERT_EQUAL(IXGBE_CTRL_RST_MASK, 0x04000008u);
    CU_ASSERT_EQUAL(IXGBE_EEC_ARD, 0x200u);
    CU_ASSERT_EQUAL(IXGBE_LINKS_UP, 0x40000000u);
    CU_ASSERT_EQUAL(IXGBE_TXDCTL_ENABLE, 0x02000000u);
    CU_ASSERT_EQUAL(IXGBE_RXDCTL_ENABLE, 0x02000000u);
    CU_ASSERT_EQUAL(IXGBE_SRRCTL_DESCTYPE_ADV_ONEBUF | IXGBE_SRRCTL_DROP_EN | 2u, 0x12000002u);
    CU_ASSERT_EQUAL(IXGBE_RXDADV_ERR_RXE, 0x20000000u);
    CU_ASSERT_EQUAL(IXGBE_ADVTXD_PAYLEN_SHIFT, 46);
    CU_ASSERT_EQUAL(sizeof(struct ixgbe_adv_tx_desc), 16);
    CU_ASSERT_EQUAL(sizeof(struct ixgbe_adv_rx_desc), 16);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("IxgbeDev", NULL, NULL);
    CU_add_test(s, "InitSequence", test_init_sequence);
    CU_add_test(s, "ResetTimeout", test_reset_timeout);
    CU_add_test(s, "ResetOneBitStuck", test_reset_one_bit_stuck);
    CU_add_test(s, "EepromTimeout", test_eeprom_timeout);
    CU_add_test(s, "DmaInitTimeout", test_dma_init_timeout);
    CU_add_test(s, "LinkTimeout", test_link_timeout);
    CU_add_test(s, "LinkLate", test_link_late);
    CU_add_test(s, "Options", test_options);
    CU_add_test(s, "InitTwice", test_init_twice);
    CU_add_test(s, "StatsClearOnRead", test_stats_clear_on_read);
    CU_add_test(s, "IrqHelpers", test_irq_helpers);
    CU_add_test(s, "RegisterFormulas", test_register_formulas);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
