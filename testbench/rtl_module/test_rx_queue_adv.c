/* Module-level tests of rtl/rx_queue.v as the 82599's RX queue (FMT 1,
 * advanced one-buffer descriptors), through the C ABI of
 * testbench/rtl_module/rx_queue_adv_shim.h.
 *
 * The environment is modelled here: host memory holding the ring and the
 * buffers, a DMA port that takes every request at once, answers descriptor
 * reads LAT cycles later (two descriptors per 32-byte beat) and puts DMA
 * writes into memory, and the MAC's side of the packet buffer (a frame's
 * rows on consecutive cycles, committed with its last one). */
#include "gtest_cunit.h"
#include "rx_queue_adv_shim.h"
#include <stdlib.h>
#include <string.h>

#define RING     16u
#define RDBA     0x10000ull
#define BUF0     0x100000ull       /* buffer i at BUF0 + i * BUFSTRIDE */
#define BUFSTRIDE 0x1000ull
#define LAT      20u

/* advanced RX write-back (nic-facts B2): QW1 = status/error dword, PKT_LEN, VLAN */
#define WB_DD    (1u << 0)
#define WB_EOP   (1u << 1)
#define WB_RXE   (1u << 29)

static struct env {
    rxq_model *m;
    rxq_in in;
    rxq_out out;
    uint8_t ring[RING * 16];
    uint8_t bufs[RING][4096];
    int dfetch;
    uint64_t daddr;
    uint32_t dleft, dwait;
    uint64_t waddr;               /* write whose beats are streaming */
    uint32_t wlen, wgot;
    int wactive;
    unsigned nwrites, desc_writes;
    uint32_t cycle;
} e;

static void env_up(uint8_t wthresh, uint16_t buf_bytes)
{
    memset(&e, 0, sizeof e);
    e.m = rxq_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.m);
    /* read format: packet buffer address, header buffer address 0 */
    for (unsigned i = 0; i < RING; i++) {
        uint64_t a = BUF0 + i * BUFSTRIDE;
        memcpy(e.ring + i * 16, &a, 8);
    }
    e.in = (rxq_in){ .prst = 1, .rst = 1, .gran = 1, .req_ready = 1, .secrc = 1,
                     .wthresh = wthresh, .buf_bytes = buf_bytes, .ring_size = RING,
                     .size_rows = 2048, .rdba = RDBA };
    for (int k = 0; k < 3; k++)
        rxq_cycle(e.m, &e.in, &e.out);
    e.in.prst = e.in.rst = 0;
    e.in.en = 1;
    e.in.rdt = RING - 1;
    e.in.wake = 1;
}

static void env_down(void)
{
    rxq_free(e.m);
    e.m = NULL;
}

static void mem_write(uint64_t addr, const uint8_t *p, uint32_t n)
{
    if (addr >= RDBA && addr + n <= RDBA + sizeof e.ring) {
        memcpy(e.ring + (addr - RDBA), p, n);
        return;
    }
    uint64_t i = (addr - BUF0) / BUFSTRIDE, off = (addr - BUF0) % BUFSTRIDE;
    CU_ASSERT_FATAL(addr >= BUF0 && i < RING && off + n <= sizeof e.bufs[0]);
    memcpy(e.bufs[i] + off, p, n);
}

/* One cycle with the MAC inputs already set in e.in. */
static void step(void)
{
    rxq_in *in = &e.in;
    in->dcpl_valid = 0;
    if (e.dfetch && e.dwait == 0) {
        in->dcpl_valid = 1;
        memset(in->dcpl_data, 0, 32);
        uint32_t n = e.dleft >= 2 ? 2 : e.dleft;
        memcpy(in->dcpl_data, e.ring + (e.daddr - RDBA), n * 16);
    }
    rxq_cycle(e.m, in, &e.out);
    const rxq_out *o = &e.out;
    in->wake = 0;
    if (in->dcpl_valid) {
        uint32_t n = e.dleft >= 2 ? 2 : e.dleft;
        e.daddr += n * 16;
        e.dleft -= n;
        e.dfetch = e.dleft != 0;
    } else if (e.dfetch) {
        e.dwait--;
    }
    if (o->req_valid && in->req_ready) {
        if (o->req_write) {
            CU_ASSERT_FATAL(!e.wactive);
            e.wactive = 1;
            e.waddr = o->req_addr;
            e.wlen = o->req_len;
            e.wgot = 0;
            e.nwrites++;
            e.desc_writes += o->req_addr >= RDBA && o->req_addr < RDBA + sizeof e.ring;
        } else {
            CU_ASSERT_FATAL(!e.dfetch);
            e.dfetch = 1;
            e.daddr = o->req_addr;
            e.dleft = o->req_len / 16u;
            e.dwait = LAT;
        }
    }
    if (o->wvalid) {
        CU_ASSERT_FATAL(e.wactive);
        uint32_t n = e.wlen - e.wgot < 32u ? e.wlen - e.wgot : 32u;
        mem_write(e.waddr + e.wgot, o->wdata, n);
        e.wgot += n;
        if (o->wlast) {
            CU_ASSERT_EQUAL(e.wgot, e.wlen);
            e.wactive = 0;
        }
    }
    e.cycle++;
}

static void run(unsigned cycles)
{
    for (unsigned k = 0; k < cycles; k++)
        step();
}

/* A frame of len bytes (FCS included) with byte k = seed + k, rows on
 * consecutive cycles, committed with the last (ce: stored with a CRC error). */
static void frame(uint16_t len, uint8_t seed, int ce)
{
    rxq_in *in = &e.in;
    for (uint16_t at = 0; at < len; at += 32) {
        for (unsigned k = 0; k < 32; k++)
            in->wr_data[k] = (uint8_t)(at + k < len ? seed + at + k : 0);
        in->wr_en = 1;
        in->commit = at + 32 >= len;
        in->wake = in->commit;          /* as the function's top: a stored frame wakes the engine */
        in->commit_len = len;
        in->commit_ce = (uint8_t)ce;
        step();
    }
    in->wr_en = in->commit = in->commit_ce = 0;
    in->commit_len = 0;
}

static uint32_t wb_status(unsigned i)
{
    uint32_t v;
    memcpy(&v, e.ring + i * 16 + 8, 4);
    return v;
}

static uint16_t wb_len(unsigned i)
{
    return (uint16_t)(e.ring[i * 16 + 12] | e.ring[i * 16 + 13] << 8);
}

static uint64_t wb_qw0(unsigned i)
{
    uint64_t v;
    memcpy(&v, e.ring + i * 16, 8);
    return v;
}

/* One frame: its bytes in the buffer (FCS stripped), the advanced write-back
 * with DD and EOP, PKT_LEN, nothing in the VLAN field. */
static void test_single_frame(void)
{
    env_up(0, 2048);
    run(5);
    frame(64, 0x10, 0);
    run(200);
    for (unsigned k = 0; k < 60; k++)
        CU_ASSERT_EQUAL(e.bufs[0][k], (uint8_t)(0x10 + k));
    CU_ASSERT_EQUAL(e.bufs[0][60], 0);              /* the FCS was not written */
    CU_ASSERT_EQUAL(wb_status(0), WB_DD | WB_EOP);
    CU_ASSERT_EQUAL(wb_len(0), 60);
    CU_ASSERT_EQUAL(e.ring[14] | e.ring[15], 0);
    CU_ASSERT_EQUAL(wb_status(1), 0);               /* the next one untouched */
    CU_ASSERT_EQUAL(e.out.rdh, 1);
    env_down();
}

/* A frame over two 1 KB buffers: DD without EOP and PKT_LEN 1024 on the
 * first, DD|EOP and the rest on the second. */
static void test_two_buffers(void)
{
    env_up(0, 1024);
    run(5);
    frame(1518, 0x20, 0);
    run(400);
    CU_ASSERT_EQUAL(wb_status(0), WB_DD);
    CU_ASSERT_EQUAL(wb_len(0), 1024);
    CU_ASSERT_EQUAL(wb_status(1), WB_DD | WB_EOP);
    CU_ASSERT_EQUAL(wb_len(1), 1514 - 1024);
    CU_ASSERT_EQUAL(e.bufs[1][0], (uint8_t)(0x20 + 1024));
    CU_ASSERT_EQUAL(e.out.rdh, 2);
    env_down();
}

/* A frame stored with a CRC error (SBP): RXE on its EOP descriptor. */
static void test_crc_error(void)
{
    env_up(0, 2048);
    run(5);
    frame(64, 0x30, 1);
    run(200);
    CU_ASSERT_EQUAL(wb_status(0), WB_DD | WB_EOP | WB_RXE);
    env_down();
}

/* WTHRESH 4: whole descriptors written back four at a time, the first
 * quadword (packet type, RSS) as 0, not the buffer address read in. */
static void test_batched_write_back(void)
{
    env_up(4, 2048);
    run(5);
    for (unsigned k = 0; k < 4; k++) {
        frame(64, (uint8_t)(0x40 + k), 0);
        run(60);
    }
    run(200);
    CU_ASSERT_EQUAL(e.desc_writes, 1);
    for (unsigned i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(wb_status(i), WB_DD | WB_EOP);
        CU_ASSERT_EQUAL(wb_len(i), 60);
        CU_ASSERT(wb_qw0(i) == 0);
    }
    CU_ASSERT(wb_qw0(4) == BUF0 + 4 * BUFSTRIDE);  /* not written back */
    env_down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("RxQueueAdvanced", NULL, NULL);
    CU_add_test(s, "SingleFrame", test_single_frame);
    CU_add_test(s, "TwoBuffers", test_two_buffers);
    CU_add_test(s, "CrcError", test_crc_error);
    CU_add_test(s, "BatchedWriteBack", test_batched_write_back);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
