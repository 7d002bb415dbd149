/* The 82546 card's chips beside the controller, through its registers, as
 * DPDK's em PMD reaches them (issue 20): the Microwire EEPROM bit-banged
 * through EECD (e1000_read_nvm_microwire's sequence: CS, a start bit, the
 * READ opcode and 8 address bits shifted out on DI at rising SK, 16 data
 * bits shifted in from DO) and the M88 PHY through MDIC.  Both functions,
 * the link straps differing. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>
#include "../unit/gtest_cunit.h"
#include "rtl_harness.h"
#include "../../driver/e1000/e1000_regs.h"

/* EECD and MDIC bits (8254x; Linux's and DPDK's e1000 headers) */
#define EECD_SK   0x01u
#define EECD_CS   0x02u
#define EECD_DI   0x04u
#define EECD_DO   0x08u
#define EECD_REQ  0x40u
#define EECD_GNT  0x80u
#define EECD_PRES 0x100u
#define EECD_SIZE 0x200u
#define MDIC      0x00020u
#define MDIC_READY (1u << 28)
#define MDIC_ERROR (1u << 30)
#define MDIC_OP_WRITE (1u << 26)
#define MDIC_OP_READ  (2u << 26)

static const uint8_t MAC[6] = { 0x02, 0x00, 0x00, 0x00, 0x07, 0x00 };

static rtl_harness *new_82546(uint8_t link_up)
{
    nic_rtl_straps s = { .link_up = link_up, .pcix_mode = 1, .pcix_speed = 2, .bus64 = 1, .pci66 = 1 };
    memcpy(s.mac[0], MAC, 6);
    return rh_new_straps(&s);
}

static void eecd(rtl_harness *h, int f, uint32_t v)
{
    rh_write(h, f, E1000_EECD, v);
}

/* One word by Microwire: the bits go out MSB first, each set up on DI and
 * clocked by a rising SK; data comes in MSB first, read after each rising
 * SK. */
static uint16_t nvm_read(rtl_harness *h, int f, uint8_t addr)
{
    uint32_t base = EECD_REQ;
    eecd(h, f, base);
    CU_ASSERT(rh_read32(h, f, E1000_EECD) & EECD_GNT);
    eecd(h, f, base | EECD_CS);
    uint32_t cmd = 0x6u << 8 | addr;          /* start bit, READ (10), the address */
    for (int i = 10; i >= 0; i--) {
        uint32_t di = (cmd >> i & 1) ? EECD_DI : 0;
        eecd(h, f, base | EECD_CS | di);
        eecd(h, f, base | EECD_CS | di | EECD_SK);
        eecd(h, f, base | EECD_CS | di);
    }
    CU_ASSERT_EQUAL(rh_read32(h, f, E1000_EECD) & EECD_DO, 0);   /* the dummy 0 */
    uint16_t w = 0;
    for (int i = 0; i < 16; i++) {
        eecd(h, f, base | EECD_CS | EECD_SK);
        w = (uint16_t)(w << 1 | ((rh_read32(h, f, E1000_EECD) & EECD_DO) ? 1 : 0));
        eecd(h, f, base | EECD_CS);
    }
    eecd(h, f, 0);                               /* CS low, REQ released */
    return w;
}

/* EECD: present, 256 words; every word of the checksummed part through
 * both functions; words 0..2 the MAC strap, the 0x3F checksum making the
 * sum 0xBABA (e1000_validate_nvm_checksum_generic), erased beyond. */
static void test_eeprom_microwire(void)
{
    rtl_harness *h = new_82546(3);
    uint32_t v = rh_read32(h, 0, E1000_EECD);
    CU_ASSERT(v & EECD_PRES);
    CU_ASSERT(v & EECD_SIZE);
    CU_ASSERT_FALSE(v & EECD_GNT);
    for (int f = 0; f < 2; f++) {
        uint16_t sum = 0;
        for (unsigned a = 0; a <= 0x3F; a++) {
            uint16_t w = nvm_read(h, f, (uint8_t)a);
            sum = (uint16_t)(sum + w);
            if (a < 3)
                CU_ASSERT_EQUAL(w, MAC[2 * a] | MAC[2 * a + 1] << 8);
        }
        CU_ASSERT_EQUAL(sum, 0xBABA);
        CU_ASSERT_EQUAL(nvm_read(h, f, 0x40), 0xFFFF);
    }
    CU_ASSERT_EQUAL(h->unmodelled, 0);
    rh_free(h);
}

static uint32_t mdic(rtl_harness *h, int f, uint32_t op, unsigned phy, unsigned reg, uint16_t data)
{
    rh_write(h, f, MDIC, op | phy << 21 | reg << 16 | data);
    return rh_read32(h, f, MDIC);
}

/* MDIC: a command completes at once (READY) and echoes its fields; PHY
 * address 1 is the M88E1011 (DPDK's M88E1011_I_PHY_ID 0x01410C20), whose
 * link and speed follow the port's link strap; another address errs. */
static void test_phy_over_mdic(void)
{
    rtl_harness *h = new_82546(1);                /* port 1 without a partner */
    for (int f = 0; f < 2; f++) {
        uint32_t v = mdic(h, f, MDIC_OP_READ, 1, 2, 0);
        CU_ASSERT(v & MDIC_READY);
        CU_ASSERT_FALSE(v & MDIC_ERROR);
        CU_ASSERT_EQUAL((v >> 16) & 0x1F, 2);
        CU_ASSERT_EQUAL(v & 0xFFFF, 0x0141);
        CU_ASSERT_EQUAL(mdic(h, f, MDIC_OP_READ, 1, 3, 0) & 0xFFF0, 0x0C20);
        uint16_t st = (uint16_t)mdic(h, f, MDIC_OP_READ, 1, 1, 0);
        uint16_t pssr = (uint16_t)mdic(h, f, MDIC_OP_READ, 1, 17, 0);
        if (f == 0) {
            CU_ASSERT_EQUAL(st & 0x24, 0x24);     /* link, AN complete */
            CU_ASSERT_EQUAL(pssr, 0xAC00);        /* 1000 Mb/s, full duplex, resolved, link */
        } else {
            CU_ASSERT_EQUAL(st & 0x24, 0);
            CU_ASSERT_EQUAL(pssr, 0);
        }
        CU_ASSERT(mdic(h, f, MDIC_OP_READ, 2, 2, 0) & MDIC_ERROR);
    }
    /* registers: the advertisement reads back; RESTART_AN clears itself;
     * RESET brings the defaults back */
    CU_ASSERT_EQUAL(mdic(h, 0, MDIC_OP_READ, 1, 4, 0) & 0xFFFF, 0x01E1);
    CU_ASSERT(mdic(h, 0, MDIC_OP_WRITE, 1, 4, 0x0DE1) & MDIC_READY);
    CU_ASSERT_EQUAL(mdic(h, 0, MDIC_OP_READ, 1, 4, 0) & 0xFFFF, 0x0DE1);
    CU_ASSERT_EQUAL(mdic(h, 1, MDIC_OP_READ, 1, 4, 0) & 0xFFFF, 0x01E1);   /* its own PHY */
    mdic(h, 0, MDIC_OP_WRITE, 1, 0, 0x1340);
    CU_ASSERT_EQUAL(mdic(h, 0, MDIC_OP_READ, 1, 0, 0) & 0xFFFF, 0x1140);
    mdic(h, 0, MDIC_OP_WRITE, 1, 0, 0x9140);
    CU_ASSERT_EQUAL(mdic(h, 0, MDIC_OP_READ, 1, 4, 0) & 0xFFFF, 0x01E1);
    CU_ASSERT_EQUAL(h->unmodelled, 0);
    rh_free(h);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("RtlBoard", NULL, NULL);
    CU_add_test(s, "EepromMicrowire", test_eeprom_microwire);
    CU_add_test(s, "PhyOverMdic", test_phy_over_mdic);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
