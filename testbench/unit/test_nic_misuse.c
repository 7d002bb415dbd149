/* The count of driver programming errors (sim/device/nic_misuse.c): each kind on
 * each register map, and nothing for a correct bring-up. */
#include <CUnit/CUnit.h>
#include "gtest_cunit.h"
#include "../../sim/device/nic_misuse.h"

static void w(nic_misuse *m, uint32_t off, uint32_t val) { nic_misuse_mmio(m, 0, off, val, 0); }

static uint64_t total(const nic_misuse *m)
{
    uint64_t n = 0;
    for (int k = 0; k < NIC_MISUSE_KINDS; k++)
        n += m->count[k];
    return n;
}

/* Linux's order on the 82546: rings, heads and tails, then TCTL/RCTL. */
static void test_correct_82546(void)
{
    nic_misuse m;
    nic_misuse_init(&m, 0);
    w(&m, 0x0000, 1u << 26);                                  /* CTRL.RST, idle */
    w(&m, 0x3808, 4096); w(&m, 0x3810, 0); w(&m, 0x3818, 0); w(&m, 0x0400, 0x2);
    w(&m, 0x2808, 4096); w(&m, 0x2810, 0); w(&m, 0x2818, 255); w(&m, 0x0100, 0x2);
    w(&m, 0x3818, 255);
    w(&m, 0x0100, 0x2 | 1u << 15);                            /* BAM changes, not BSIZE */
    CU_ASSERT_EQUAL(total(&m), 0);
}

static void test_each_kind_82546(void)
{
    nic_misuse m;
    nic_misuse_init(&m, 0);
    w(&m, 0x3808, 0);                                         /* TDLEN 0 */
    w(&m, 0x2808, 1000);                                      /* not a multiple of 128 */
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_RING_LEN], 2);
    w(&m, 0x3808, 1024);                                      /* 64 descriptors */
    w(&m, 0x3818, 63);
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_TAIL_BEYOND], 0);
    w(&m, 0x3818, 64);
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_TAIL_BEYOND], 1);
    w(&m, 0x0400, 0x2);                                       /* TCTL.EN */
    w(&m, 0x3810, 5);                                         /* TDH while enabled */
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_HEAD_ENABLED], 1);
    w(&m, 0x0100, 0x2);                                       /* RCTL.EN, 2048 */
    w(&m, 0x0100, 0x2 | 3u << 16);                            /* 256 while enabled */
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_BSIZE_ENABLED], 1);
    nic_misuse_mmio(&m, 0, 0x0000, 1u << 26, 1);              /* CTRL.RST with DMA in flight */
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_RESET_BUSY], 1);
    w(&m, 0x3810, 0);                                         /* after the reset: disabled again */
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_HEAD_ENABLED], 1);
}

static void test_each_kind_82599(void)
{
    nic_misuse m;
    nic_misuse_init(&m, 1);
    w(&m, 0x2100, 2);                                         /* SRRCTL 2 KB, RX disabled */
    w(&m, 0x1008, 512); w(&m, 0x1010, 0); w(&m, 0x1018, 0);
    w(&m, 0x1028, 1u << 25);                                  /* RXDCTL.ENABLE */
    w(&m, 0x1018, 31);
    CU_ASSERT_EQUAL(total(&m), 0);
    w(&m, 0x1018, 32);                                        /* RDT = ring size */
    w(&m, 0x2100, 1);                                         /* 1 KB while enabled */
    w(&m, 0x1010, 0);                                         /* RDH while enabled */
    w(&m, 0x6008, 0);                                         /* TDLEN 0 */
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_TAIL_BEYOND], 1);
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_BSIZE_ENABLED], 1);
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_HEAD_ENABLED], 1);
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_RING_LEN], 1);
    nic_misuse_mmio(&m, 1, 0x6008, 0, 0);                     /* the other function counts too */
    CU_ASSERT_EQUAL(m.count[NIC_MISUSE_RING_LEN], 2);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("NicMisuse", NULL, NULL);
    CU_add_test(s, "CorrectBringUp82546CountsNothing", test_correct_82546);
    CU_add_test(s, "EachKind82546", test_each_kind_82546);
    CU_add_test(s, "EachKind82599", test_each_kind_82599);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
