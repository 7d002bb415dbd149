/* RTL regression tests of the 82546 transmit engine, driven directly through
 * the cycle harness (no bus model, no driver). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>
#include "../unit/gtest_cunit.h"
#include "rtl_harness.h"
#include "../../driver/e1000/e1000_regs.h"

#define CMD_EOP  E1000_TXD_CMD_EOP
#define CMD_IFCS E1000_TXD_CMD_IFCS
#define CMD_RS   E1000_TXD_CMD_RS
#define CMD_IDE  E1000_TXD_CMD_IDE
#define TXDCTL_GRAN (1u << 24)
#define MAX_CYC 2000000L

typedef struct txq {
    rtl_harness *h;
    int func;
    unsigned n;
    uint8_t *ring;
    uint64_t bus;
    unsigned tail;
} txq;

/* Program a ring of n descriptors at ring/bus and enable the transmitter. */
static void txq_setup_at(txq *q, rtl_harness *h, int func, unsigned n, uint8_t *ring, uint64_t bus,
                         uint32_t txdctl, uint32_t tctl_extra)
{
    q->h = h;
    q->func = func;
    q->n = n;
    q->ring = ring;
    q->bus = bus;
    q->tail = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(q->ring);
    rh_write(h, func, E1000_TDBAL, (uint32_t)q->bus);
    rh_write(h, func, E1000_TDBAH, (uint32_t)(q->bus >> 32));
    rh_write(h, func, E1000_TDLEN, n * 16);
    rh_write(h, func, E1000_TDH, 0);
    rh_write(h, func, E1000_TDT, 0);
    rh_write(h, func, E1000_TXDCTL, txdctl);
    rh_write(h, func, E1000_TCTL, E1000_TCTL_EN | tctl_extra);
}

static void txq_setup(txq *q, rtl_harness *h, int func, unsigned n, uint32_t txdctl, uint32_t tctl_extra)
{
    uint64_t bus;
    uint8_t *ring = rh_tx_ring(h, func, n, &bus);
    txq_setup_at(q, h, func, n, ring, bus, txdctl, tctl_extra);
}

/* A frame of len bytes whose bytes encode (seq, offset), in host memory. */
static uint64_t make_frame(rtl_harness *h, uint32_t seq, uint32_t len, unsigned misalign)
{
    uint64_t bus;
    uint8_t *p = host_mem_alloc(h->mem, len + 16, 64, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (uint32_t i = 0; i < len; i++)
        p[misalign + i] = (uint8_t)(seq * 31 + i * 7 + 1);
    return bus + misalign;
}

static int frame_ok(const rh_frame *f, uint32_t seq, uint32_t len)
{
    if (f->len != len)
        return 0;
    for (uint32_t i = 0; i < len; i++)
        if (f->data[i] != (uint8_t)(seq * 31 + i * 7 + 1))
            return 0;
    return 1;
}

/* Queue one single-descriptor packet (no tail write). */
static void put(txq *q, uint32_t seq, uint32_t len, uint8_t cmd)
{
    rh_tx_desc(q->ring, q->tail, make_frame(q->h, seq, len, seq % 8), (uint16_t)len, cmd);
    q->tail = (q->tail + 1) % q->n;
}

static void kick(txq *q)
{
    rh_write(q->h, q->func, E1000_TDT, q->tail);
}

static void test_status_reflects_straps(void)
{
    rtl_harness *h = rh_new();
    for (int f = 0; f < 2; f++) {
        uint32_t s = rh_read32(h, f, E1000_STATUS);
        CU_ASSERT_EQUAL(s & 1, 1);                    /* FD */
        CU_ASSERT_EQUAL((s >> 1) & 1, 1);             /* LU */
        CU_ASSERT_EQUAL((s >> 2) & 3, (uint32_t)f);   /* function ID */
        CU_ASSERT_EQUAL((s >> 6) & 3, 2);             /* 1000 Mb/s */
        CU_ASSERT_EQUAL((s >> 12) & 1, 1);            /* BUS64 */
        CU_ASSERT_EQUAL((s >> 13) & 1, 1);            /* PCIX_MODE */
        CU_ASSERT_EQUAL((s >> 14) & 3, 2);            /* PCIX_SPEED 100-133 */
    }
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PBA), 0x00100030u);
    rh_free(h);
}

/* An access to an offset no register of the model answers to is reported
 * (function, direction, offset) once; implemented ones, counters the
 * statistics blocks keep among them, are not.  Both personalities. */
static void test_unmodelled_access_reported(void)
{
    rtl_harness *h = rh_new();
    rh_read32(h, 1, E1000_STATUS);
    rh_write(h, 0, E1000_TDT, 0);
    rh_read32(h, 0, 0x04074);                         /* GPRC: kept by e1000_rx_stats */
    rh_steps(h, 4);
    CU_ASSERT_EQUAL(h->unmodelled, 0);
    rh_write(h, 1, 0x05000, 0x300);                   /* RXCSUM: not modelled */
    rh_steps(h, 4);
    CU_ASSERT_EQUAL(h->unmodelled, 1);
    CU_ASSERT(h->um_func == 1 && h->um_write == 1 && h->um_off == 0x05000);
    CU_ASSERT_EQUAL(rh_read32(h, 0, 0x04004), 0);     /* ALGNERRC: in the window, not kept */
    rh_steps(h, 4);
    CU_ASSERT_EQUAL(h->unmodelled, 2);
    CU_ASSERT(h->um_func == 0 && h->um_write == 0 && h->um_off == 0x04004);
    rh_free(h);

    nic_rtl_straps s = { .model = NIC_RTL_82599, .ports = 2, .link_up = 3 };
    h = rh_new_straps(&s);
    rh_read32(h, 0, 0x042A4);                         /* LINKS */
    rh_read32(h, 1, 0x03FBC);                         /* MPC(7): packet buffer 7, reads 0 */
    rh_read32(h, 0, 0x01030);                         /* QPRC(0) */
    rh_read32(h, 0, 0x06030);                         /* QPTC(0) */
    rh_read32(h, 0, 0x08700);                         /* QBTC_L(0) */
    rh_read32(h, 0, 0x01070);                         /* QPRC(1): queue 1 has no engine, reads 0 */
    rh_write(h, 1, 0x10014, 1);                       /* EERD: the EEPROM model answers */
    rh_steps(h, 4);
    CU_ASSERT_EQUAL(h->unmodelled, 0);
    rh_read32(h, 0, 0x06034);                         /* the 82598's QBTC: none on the 82599 */
    rh_write(h, 1, 0x05000, 0x300);                   /* RXCSUM: not modelled */
    rh_steps(h, 4);
    CU_ASSERT_EQUAL(h->unmodelled, 2);
    CU_ASSERT(h->um_func == 1 && h->um_write == 1 && h->um_off == 0x05000);
    rh_free(h);
}

/* TDLEN rewritten to 0 while sent descriptors wait for a burst write-back
 * (WTHRESH 8, four done): the write-back still carries the batch, never a
 * request of 0 bytes (the bounded fuzz run found one: the write-back length
 * was cut at the end of a ring of 0 descriptors). */
static void test_ring_shrunk_under_write_back(void)
{
    rtl_harness *h = rh_new();
    h->soft = 1;
    txq q;
    txq_setup(&q, h, 0, 16, (8u << 16) | (1u << 24), 0);   /* WTHRESH 8, GRAN */
    rh_write(h, 0, E1000_TIDV, 100);                   /* the batch flushes after 102.4 us */
    for (uint32_t i = 0; i < 4; i++)
        put(&q, i, 60, CMD_EOP | CMD_IFCS | CMD_RS | CMD_IDE);
    kick(&q);
    rh_steps(h, 3000);                                 /* sent, the batch armed, not written back */
    CU_ASSERT_EQUAL(h->nframes[0], 4);
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 0) & E1000_TXD_STAT_DD, 0);
    rh_write(h, 0, E1000_TDLEN, 0);
    rh_steps(h, 20000);                                /* TIDV expires: the flush */
    CU_ASSERT_STRING_EQUAL(h->error, "");
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 0) & E1000_TXD_STAT_DD, E1000_TXD_STAT_DD);
    rh_free(h);
}

static void test_single_packet_and_stats(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 8, 0, 0);
    put(&q, 1, 60, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 1);
    CU_ASSERT(frame_ok(&h->frames[0][0], 1, 60));
    CU_ASSERT_EQUAL(h->frames[0][0].fcs, 1);
    CU_ASSERT_EQUAL(h->frames[0][0].ipg, 12);         /* IPGT 8 + 4 */
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 0) & E1000_TXD_STAT_DD, E1000_TXD_STAT_DD);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), 0);  /* clear on read */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GOTCL), 64);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GOTCH), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GOTCL), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PTC64), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPT), 1);
    CU_ASSERT_EQUAL(h->nframes[1], 0);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* Send `total` packets through a ring of n descriptors, moving the tail by
 * `step` at a time (waiting for idle in between), and check order and DD. */
static void run_ring(unsigned n, unsigned step, unsigned total)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, n, 0, 0);
    unsigned sent = 0;
    while (sent < total) {
        unsigned k = step;
        if (k > total - sent)
            k = total - sent;
        for (unsigned i = 0; i < k; i++)
            put(&q, sent + i, 60 + (sent + i) % 50, CMD_EOP | CMD_IFCS | CMD_RS);
        kick(&q);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        sent += k;
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), q.tail);
    }
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], total);
    int bad = 0;
    for (unsigned i = 0; i < total; i++)
        bad += !frame_ok(&h->frames[0][i], i, 60 + i % 50);
    CU_ASSERT_EQUAL(bad, 0);
    for (unsigned i = 0; i < n; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), total);
    rh_free(h);
}

static void test_ring_wrap_sizes(void)
{
    static const unsigned sizes[] = { 8, 16, 80, 256 };
    for (unsigned i = 0; i < 4; i++)
        run_ring(sizes[i], sizes[i] / 2 + 1, 3 * sizes[i] + 5);
}

static void test_tail_by_one(void)
{
    run_ring(16, 1, 40);
}

static void test_tail_by_ring_minus_one(void)
{
    run_ring(8, 7, 7 * 5);
    run_ring(80, 79, 79 * 3);
}

static void test_multi_descriptor_packet(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 16, 0, 0);
    /* one 151-byte frame in three fragments at odd addresses */
    uint64_t bus;
    uint8_t *p = host_mem_alloc(h->mem, 512, 64, &bus);
    for (int i = 0; i < 151; i++)
        p[3 + i + (i >= 14 ? 5 : 0) + (i >= 114 ? 9 : 0)] = (uint8_t)(i * 7 + 1);
    rh_tx_desc(q.ring, 0, bus + 3, 14, CMD_IFCS);
    rh_tx_desc(q.ring, 1, bus + 3 + 14 + 5, 100, CMD_IFCS);
    rh_tx_desc(q.ring, 2, bus + 3 + 114 + 14, 37, CMD_IFCS | CMD_EOP | CMD_RS);
    q.tail = 3;
    put(&q, 9, 61, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 2);
    CU_ASSERT(frame_ok(&h->frames[0][0], 0, 151));
    CU_ASSERT(frame_ok(&h->frames[0][1], 9, 61));
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 0) & 1, 0);  /* no RS: not written back */
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 2) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), 2);
    rh_free(h);
}

static void test_rs_on_some_only(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 32, 0, 0);
    for (unsigned i = 0; i < 24; i++)
        put(&q, i, 64, CMD_EOP | CMD_IFCS | (i % 4 == 3 ? CMD_RS : 0));
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nframes[0], 24);
    for (unsigned i = 0; i < 24; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, i % 4 == 3);
    CU_ASSERT_EQUAL(h->dma_writes, 6);                /* one status write per RS descriptor */
    rh_free(h);
}

static void test_wthresh_batching(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 64, TXDCTL_GRAN | (4u << 16), 0);
    for (unsigned i = 0; i < 16; i++)
        put(&q, i, 64, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nframes[0], 16);
    CU_ASSERT_EQUAL(h->dma_writes, 4);                /* 16 descriptors in bursts of 4 */
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    /* 3 more: below WTHRESH, so nothing is written back until TIDV expires */
    rh_write(h, 0, E1000_TIDV, 2);                    /* 2 x 1.024 us */
    for (unsigned i = 16; i < 19; i++)
        put(&q, i, 64, CMD_EOP | CMD_IFCS | CMD_RS | CMD_IDE);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nframes[0], 19);
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 16) & 1, 0);
    rh_steps(h, 2 * 4 * 32 + 64);                     /* past the timer (32 cycles per tick) */
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->dma_writes, 5);
    for (unsigned i = 16; i < 19; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    CU_ASSERT(rh_read32(h, 0, E1000_ICR) & E1000_ICR_TXDW);
    rh_free(h);
}

static void test_illegal_tdlen_tdt(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 8, 0, 0);
    /* TDLEN 0: no ring; a tail write must not start any DMA */
    rh_write(h, 0, E1000_TDLEN, 0);
    put(&q, 0, 64, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT(rh_run_idle(h, 10000) > 0);
    CU_ASSERT_EQUAL(h->dma_reads, 0);
    /* TDLEN 100: the low 7 bits are ignored, so this is 0 too */
    rh_write(h, 0, E1000_TDLEN, 100);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDLEN), 0);
    CU_ASSERT(rh_run_idle(h, 10000) > 0);
    CU_ASSERT_EQUAL(h->dma_reads, 0);
    /* TDLEN 200 = 128 bytes: an 8-descriptor ring; TDT beyond it is ignored */
    rh_write(h, 0, E1000_TDT, 9);
    rh_write(h, 0, E1000_TDLEN, 200);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDLEN), 128);
    CU_ASSERT(rh_run_idle(h, 10000) > 0);
    CU_ASSERT_EQUAL(h->dma_reads, 0);
    CU_ASSERT_EQUAL(h->nframes[0], 0);
    /* a legal tail afterwards transmits normally */
    rh_write(h, 0, E1000_TDT, 1);
    CU_ASSERT(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nframes[0], 1);
    rh_free(h);
}

static void test_pba_too_small(void)
{
    rtl_harness *h = rh_new();
    rh_write(h, 0, E1000_PBA, 63);                    /* RX 63 KiB: TX gets 1 KiB */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PBA), (1u << 16) | 63);
    txq q;
    txq_setup(&q, h, 0, 8, 0, 0);
    put(&q, 0, 1514, CMD_EOP | CMD_IFCS | CMD_RS);    /* larger than the buffer */
    put(&q, 1, 60, CMD_EOP | CMD_IFCS | CMD_RS);
    put(&q, 2, 1000, CMD_EOP | CMD_IFCS | CMD_RS);    /* fits */
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 2);           /* the oversized frame is dropped */
    CU_ASSERT(frame_ok(&h->frames[0][0], 1, 60));
    CU_ASSERT(frame_ok(&h->frames[0][1], 2, 1000));
    for (unsigned i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), 2);
    rh_free(h);
}

/* With the whole 64 KiB for TX, a packet of exactly 64 KiB fits the memory
 * but not the 16-bit frame length: it must be dropped, not wedge the buffer. */
static void test_64k_packet_dropped(void)
{
    rtl_harness *h = rh_new();
    rh_write(h, 0, E1000_PBA, 0);                     /* RX 0 KiB: TX gets 64 KiB */
    txq q;
    txq_setup(&q, h, 0, 32, 0, 0);
    uint64_t bus;
    uint8_t *big = host_mem_alloc(h->mem, 4096, 64, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    for (unsigned i = 0; i < 16; i++)                 /* 16 x 4096 = 65536 bytes */
        rh_tx_desc(q.ring, i, bus, 4096, CMD_IFCS | (i == 15 ? CMD_EOP | CMD_RS : 0));
    q.tail = 16;
    put(&q, 7, 100, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 1);
    CU_ASSERT(frame_ok(&h->frames[0][0], 7, 100));
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 15) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), 17);
    rh_free(h);
}

static void test_psp_padding(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 8, 0, E1000_TCTL_PSP);
    put(&q, 3, 42, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 1);
    const rh_frame *f = &h->frames[0][0];
    CU_ASSERT_EQUAL(f->len, 60);
    int zero = 1;
    for (int i = 42; i < 60; i++)
        zero &= f->data[i] == 0;
    CU_ASSERT(zero);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GOTCL), 64);
    /* without PSP the short frame goes out as it is */
    rh_write(h, 0, E1000_TCTL, E1000_TCTL_EN);
    put(&q, 4, 42, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 2);
    CU_ASSERT(frame_ok(&h->frames[0][1], 4, 42));
    rh_free(h);
}

/* Descriptor fetches: without prefetch a fetch starts only when nothing is
 * left on chip; with PTHRESH/HTHRESH the engine refills early. */
static unsigned count_fetches(uint32_t txdctl)
{
    rtl_harness *h = rh_new();
    h->read_latency = 200;
    txq q;
    txq_setup(&q, h, 0, 256, txdctl, 0);
    unsigned fetches = 0;
    for (unsigned i = 0; i < 200; i++)
        put(&q, i, 60, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    /* record descriptor fetches: requests inside the ring */
    long n = 0;
    while (n++ < MAX_CYC) {
        rh_step(h);
        if (h->out.req_valid && !h->out.req_write && h->out.req_addr >= q.bus && h->out.req_addr < q.bus + 256 * 16)
            fetches++;
        if (h->out.idle && h->out.func_idle == 3 && !h->nreads && !h->wr_open && h->nframes[0] == 200)
            break;
    }
    CU_ASSERT_EQUAL(h->nframes[0], 200);
    rh_free(h);
    return fetches;
}

static void test_prefetch_thresholds(void)
{
    unsigned off = count_fetches(TXDCTL_GRAN);
    unsigned on = count_fetches(TXDCTL_GRAN | 16u | (1u << 8));
    /* 200 descriptors through a 64-entry cache: at least 4 fetches either way */
    CU_ASSERT(off >= 4);
    if (!(on > off)) fprintf(stderr, "fetches: prefetch off %u, on %u\n", off, on);
    CU_ASSERT(on > off);       /* prefetching refills in smaller, earlier pieces */
}

static void test_interrupts_and_itr(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 64, 0, 0);
    rh_write(h, 0, E1000_IMS, E1000_ICR_TXDW | E1000_ICR_TXQE);
    put(&q, 0, 60, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);
    CU_ASSERT_EQUAL(h->out.irq & 1, 1);
    uint32_t icr = rh_read32(h, 0, E1000_ICR);
    CU_ASSERT_EQUAL(icr & (E1000_ICR_TXDW | E1000_ICR_TXQE), E1000_ICR_TXDW | E1000_ICR_TXQE);
    rh_steps(h, 4);
    CU_ASSERT_EQUAL(h->out.irq & 1, 0);               /* reading ICR deasserts the line */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_ICR), 0);
    /* ITR = 100 x 256 ns = 25.6 us = 3200 cycles between assertions */
    rh_write(h, 0, E1000_ITR, 100);
    uint64_t rise[3] = { 0 };
    int k = 0;
    for (unsigned i = 1; i <= 3; i++) {
        put(&q, i, 60, CMD_EOP | CMD_IFCS | CMD_RS);
        kick(&q);
        uint64_t r0 = h->irq_rises[0];
        for (long c = 0; c < 20000 && h->irq_rises[0] == r0; c++)
            rh_step(h);
        CU_ASSERT_FATAL(h->irq_rises[0] == r0 + 1);
        rise[k++] = h->cycle;
        rh_read32(h, 0, E1000_ICR);
    }
    CU_ASSERT(rise[1] - rise[0] >= 3200 - 40);
    CU_ASSERT(rise[2] - rise[1] >= 3200 - 40);
    rh_free(h);
}

static void test_two_ports(void)
{
    rtl_harness *h = rh_new();
    txq a, b;
    txq_setup(&a, h, 0, 32, 0, 0);
    txq_setup(&b, h, 1, 32, 0, 0);
    for (unsigned i = 0; i < 20; i++) {
        put(&a, i, 64 + i, CMD_EOP | CMD_IFCS | CMD_RS);
        put(&b, 100 + i, 200 + i, CMD_EOP | CMD_IFCS | CMD_RS);
    }
    kick(&a);
    kick(&b);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 20);
    CU_ASSERT_EQUAL_FATAL(h->nframes[1], 20);
    int bad = 0;
    for (unsigned i = 0; i < 20; i++) {
        bad += !frame_ok(&h->frames[0][i], i, 64 + i);
        bad += !frame_ok(&h->frames[1][i], 100 + i, 200 + i);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), 20);
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_GPTC), 20);
    rh_free(h);
}

static void test_ctrl_rst(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 8, 0, 0);
    put(&q, 0, 60, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    rh_write(h, 0, E1000_CTRL, E1000_CTRL_RST);
    CU_ASSERT(rh_read32(h, 0, E1000_CTRL) & E1000_CTRL_RST);
    CU_ASSERT(rh_run_idle(h, 1000) > 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_CTRL) & E1000_CTRL_RST, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDLEN), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TCTL), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), 0);
    /* the other function is untouched */
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_PBA), 0x00100030u);
    rh_free(h);
}

/* ---- reads cut at 4 KiB pages (as the PCI-X model cuts them) ---------- */

/* The harness answers reads in pieces cut at 4 KiB boundaries and packs
 * beats continuously across them, as the adapter does.  A ring that starts
 * 48 bytes before a page makes descriptor fetches from even indices below 3
 * cross the page 16 or 48 bytes into the request: not at a beat boundary.
 * Every beat but a request's last must still be full (two descriptors). */
static void test_page_split_descriptor_fetch(void)
{
    rtl_harness *h = rh_new();
    h->split_pages = 1;
    uint64_t bus;
    uint8_t *mem = host_mem_alloc(h->mem, 3 * 4096, 4096, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    const unsigned n = 64, off = 4096 - 48;
    txq q;
    txq_setup_at(&q, h, 0, n, mem + off, bus + off, 0, 0);
    /* tail steps of 1..7 start fetches at every index below the page (and
     * at index 0 after each wrap) */
    unsigned sent = 0, total = 4 * n + 11;
    for (unsigned step = 1; sent < total; step = step % 7 + 1) {
        unsigned k = step < total - sent ? step : total - sent;
        for (unsigned i = 0; i < k; i++)
            put(&q, sent + i, 60 + (sent + i) % 40, CMD_EOP | CMD_IFCS | CMD_RS);
        kick(&q);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        sent += k;
    }
    /* and one big fetch from index 0 across the page */
    rh_write(h, 0, E1000_TCTL, 0);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    rh_write(h, 0, E1000_TDH, 0);
    rh_write(h, 0, E1000_TDT, 0);
    q.tail = 0;
    rh_write(h, 0, E1000_TCTL, E1000_TCTL_EN);
    for (unsigned i = 0; i < 40; i++)
        put(&q, total + i, 60 + (total + i) % 40, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    total += 40;
    CU_ASSERT(h->odd_splits > 0);               /* the placement does what it is meant to */
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], total);
    int bad = 0;
    for (unsigned i = 0; i < total; i++)
        bad += !frame_ok(&h->frames[0][i], i, 60 + i % 40);
    CU_ASSERT_EQUAL(bad, 0);
    for (unsigned i = 0; i < n; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), q.tail);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), total);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* Packet data that crosses 4 KiB pages at offsets that are not multiples of
 * 32 bytes into the read: single buffers, a buffer over two boundaries, and
 * a multi-descriptor packet whose fragments cross pages. */
static void test_page_split_packet_data(void)
{
    rtl_harness *h = rh_new();
    h->split_pages = 1;
    txq q;
    txq_setup(&q, h, 0, 32, 0, 0);
    uint64_t bus;
    uint8_t *mem = host_mem_alloc(h->mem, 8 * 4096, 4096, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    /* (offset of the first byte in mem, length): page boundaries at 4096k */
    static const struct { unsigned off, len; } fr[] = {
        { 4096 - 20, 60 },        /* 20 + 40 */
        { 2 * 4096 - 40, 200 },   /* 40 + 160 */
        { 3 * 4096 - 1001, 1514 },/* 1001 + 513 */
        { 4 * 4096 - 77, 9000 },  /* 77 + 4096 + 4827: two boundaries */
        { 7 * 4096 - 3, 64 },     /* 3 + 61 */
    };
    const unsigned nf = sizeof fr / sizeof fr[0];
    for (unsigned k = 0; k < nf; k++) {
        for (unsigned i = 0; i < fr[k].len; i++)
            mem[fr[k].off + i] = (uint8_t)(k * 31 + i * 7 + 1);
        rh_tx_desc(q.ring, q.tail, bus + fr[k].off, (uint16_t)fr[k].len, CMD_EOP | CMD_IFCS | CMD_RS);
        q.tail++;
    }
    /* a 300-byte packet in three fragments, each crossing a page (50 + 50,
     * 10 + 100, 45 + 45 bytes) */
    uint64_t b2;
    uint8_t *m2 = host_mem_alloc(h->mem, 4 * 4096, 4096, &b2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m2);
    static const struct { unsigned off, len; } frag[] = {
        { 4096 - 50, 100 }, { 2 * 4096 - 10, 110 }, { 3 * 4096 - 45, 90 },
    };
    unsigned pos = 0;
    for (unsigned k = 0; k < 3; k++) {
        for (unsigned i = 0; i < frag[k].len; i++, pos++)
            m2[frag[k].off + i] = (uint8_t)(nf * 31 + pos * 7 + 1);
        rh_tx_desc(q.ring, q.tail, b2 + frag[k].off, (uint16_t)frag[k].len,
                   CMD_IFCS | (k == 2 ? CMD_EOP | CMD_RS : 0));
        q.tail++;
    }
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT(h->odd_splits >= nf + 3);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], nf + 1);
    for (unsigned k = 0; k < nf; k++)
        CU_ASSERT(frame_ok(&h->frames[0][k], k, fr[k].len));
    CU_ASSERT(frame_ok(&h->frames[0][nf], nf, 300));
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, nf + 2) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), nf + 1);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* ---- TDH writes --------------------------------------------------------- */

/* Queue `count` packets, kick, and let them get in flight. */
static void start_in_flight(txq *q, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        put(q, i, 60 + i % 30, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(q);
    rh_steps(q->h, 60);
}

static void check_sent_once(txq *q, unsigned count)
{
    rtl_harness *h = q->h;
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], count);
    int bad = 0;
    for (unsigned i = 0; i < count; i++)
        bad += !frame_ok(&h->frames[0][i], i, 60 + i % 30);
    CU_ASSERT_EQUAL(bad, 0);
    for (unsigned i = 0; i < count; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q->ring, i) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), q->tail);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDT), q->tail);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), count);
}

/* The SDM allows TDH writes only before the transmitter is enabled: one
 * while packets are in flight is ignored. */
static void test_tdh_write_while_enabled_ignored(void)
{
    static const uint32_t vals[] = { 0, 7, 39 };
    for (unsigned v = 0; v < 3; v++) {
        rtl_harness *h = rh_new();
        txq q;
        txq_setup(&q, h, 0, 64, 0, 0);
        start_in_flight(&q, 40);
        CU_ASSERT_FATAL(h->nreads > 0 && h->nframes[0] < 40);   /* DMA in flight */
        rh_write(h, 0, E1000_TDH, vals[v]);
        rh_steps(h, 3);
        rh_write(h, 0, E1000_TDH, vals[v]);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        check_sent_once(&q, 40);
        rh_free(h);
    }
}

/* With TCTL.EN = 0 the write is taken only once the engine is idle. */
static void test_tdh_write_only_when_disabled_and_idle(void)
{
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 64, 0, 0);
    start_in_flight(&q, 40);
    /* disabled, but descriptors are on chip and data in flight: ignored */
    rh_write(h, 0, E1000_TCTL, 0);
    CU_ASSERT_FATAL(h->nreads > 0);
    rh_write(h, 0, E1000_TDH, 3);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT(h->nframes[0] < 40);                      /* stopped, not finished */
    rh_write(h, 0, E1000_TDH, 3);                       /* still on chip: ignored */
    rh_write(h, 0, E1000_TCTL, E1000_TCTL_EN);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    check_sent_once(&q, 40);
    /* disabled and idle: the queue restarts at the index written */
    rh_write(h, 0, E1000_TCTL, 0);
    rh_write(h, 0, E1000_TDH, 50);
    rh_write(h, 0, E1000_TDT, 50);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), 50);
    rh_write(h, 0, E1000_TCTL, E1000_TCTL_EN);
    q.tail = 50;
    for (unsigned i = 0; i < 20; i++)                    /* 50..63, 0..5 */
        put(&q, 100 + i, 70, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nframes[0], 60);
    for (unsigned i = 0; i < 20; i++)
        CU_ASSERT(frame_ok(&h->frames[0][40 + i], 100 + i, 70));
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), 6);
    rh_free(h);
}

/* ---- timers longer than 16 bits of ticks ------------------------------- */

/* TIDV counts 1.024 us = 4 ticks of 256 ns, so TIDV >= 16384 needs more than
 * 16 bits of ticks.  With WTHRESH > 0 and IDE, a batch below WTHRESH is
 * written back (and TXDW raised) exactly 4 x TIDV ticks after it was armed;
 * the function reports the timer on next_timer so that a simulator can let
 * it sleep and give it all the ticks in one cycle. */
static void long_tidv(uint32_t tidv)
{
    rtl_harness *h = rh_new();
    h->tick_period = 0;                                 /* time passes only by rh_advance_ticks */
    txq q;
    txq_setup(&q, h, 0, 64, TXDCTL_GRAN | (8u << 16), 0);
    rh_write(h, 0, E1000_TIDV, tidv);
    for (unsigned i = 0; i < 3; i++)
        put(&q, i, 64, CMD_EOP | CMD_IFCS | CMD_RS | CMD_IDE);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nframes[0], 3);
    CU_ASSERT_EQUAL(h->dma_writes, 0);                  /* 3 < WTHRESH: waiting for TIDV */
    CU_ASSERT_EQUAL(h->ticks, 0);
    uint32_t want = 4 * tidv;
    CU_ASSERT_EQUAL(h->out.next_timer[0], want);
    CU_ASSERT_EQUAL(h->out.next_timer[1], NIC_RTL_NO_TIMER);
    /* one tick short: nothing yet */
    rh_advance_ticks(h, want - 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->dma_writes, 0);
    CU_ASSERT_EQUAL(rh_tx_status(q.ring, 0) & 1, 0);
    CU_ASSERT_EQUAL(h->out.next_timer[0], 1);
    /* the last tick: flushed, TXDW */
    rh_advance_ticks(h, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->ticks, want);
    CU_ASSERT_EQUAL(h->dma_writes, 1);
    for (unsigned i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    CU_ASSERT_EQUAL(h->out.next_timer[0], NIC_RTL_NO_TIMER);
    CU_ASSERT(rh_read32(h, 0, E1000_ICR) & E1000_ICR_TXDW);
    rh_free(h);
}

static void test_long_tidv(void)
{
    long_tidv(16384);
    long_tidv(65535);
}

/* ITR = 65535 holds an interrupt back 65535 ticks: a timer, not "none". */
static void test_long_itr(void)
{
    rtl_harness *h = rh_new();
    h->tick_period = 0;
    txq q;
    txq_setup(&q, h, 0, 64, 0, 0);
    rh_write(h, 0, E1000_IMS, E1000_ICR_TXDW);
    rh_write(h, 0, E1000_ITR, 65535);
    put(&q, 0, 60, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);                /* the first one at once */
    rh_read32(h, 0, E1000_ICR);
    put(&q, 1, 60, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);                /* held back by ITR */
    CU_ASSERT_EQUAL(h->out.next_timer[0], 65535);
    rh_advance_ticks(h, 65534);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);
    CU_ASSERT_EQUAL(h->out.next_timer[0], 1);
    rh_advance_ticks(h, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 2);
    rh_free(h);
}

/* ---- TXDCTL.GRAN = 0 scales WTHRESH too -------------------------------- */

static void test_wthresh_gran0(void)
{
    /* WTHRESH = 1 cache line = 4 descriptors per write-back */
    rtl_harness *h = rh_new();
    txq q;
    txq_setup(&q, h, 0, 64, 1u << 16, 0);
    for (unsigned i = 0; i < 16; i++)
        put(&q, i, 64, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nframes[0], 16);
    CU_ASSERT_EQUAL(h->dma_writes, 4);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    rh_free(h);
    /* WTHRESH = 16 lines = 64 descriptors: capped at the 64-entry cache,
     * so a cache full of done descriptors is written back in one burst */
    h = rh_new();
    txq_setup(&q, h, 0, 128, 16u << 16, 0);
    for (unsigned i = 0; i < 64; i++)
        put(&q, i, 64, CMD_EOP | CMD_IFCS | CMD_RS);
    kick(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nframes[0], 64);
    CU_ASSERT_EQUAL(h->dma_writes, 1);
    for (unsigned i = 0; i < 64; i++)
        CU_ASSERT_EQUAL(rh_tx_status(q.ring, i) & 1, 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), 64);
    rh_free(h);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("RtlTxEngine", NULL, NULL);
    CU_add_test(s, "StatusReflectsStraps", test_status_reflects_straps);
    CU_add_test(s, "SinglePacketAndStats", test_single_packet_and_stats);
    CU_add_test(s, "UnmodelledAccessReported", test_unmodelled_access_reported);
    CU_add_test(s, "RingShrunkUnderWriteBack", test_ring_shrunk_under_write_back);
    CU_add_test(s, "RingWrapSeveralSizes", test_ring_wrap_sizes);
    CU_add_test(s, "TailByOne", test_tail_by_one);
    CU_add_test(s, "TailByRingMinusOne", test_tail_by_ring_minus_one);
    CU_add_test(s, "MultiDescriptorPacket", test_multi_descriptor_packet);
    CU_add_test(s, "RsOnSomeOnly", test_rs_on_some_only);
    CU_add_test(s, "WthreshBatchingAndTidv", test_wthresh_batching);
    CU_add_test(s, "IllegalTdlenTdt", test_illegal_tdlen_tdt);
    CU_add_test(s, "PbaTooSmallDropsFrame", test_pba_too_small);
    CU_add_test(s, "Packet64KiBDropped", test_64k_packet_dropped);
    CU_add_test(s, "PspPadsShortFrames", test_psp_padding);
    CU_add_test(s, "PrefetchThresholds", test_prefetch_thresholds);
    CU_add_test(s, "InterruptsAndItr", test_interrupts_and_itr);
    CU_add_test(s, "TwoPortsIndependent", test_two_ports);
    CU_add_test(s, "CtrlRstResetsFunction", test_ctrl_rst);
    CU_add_test(s, "PageSplitDescriptorFetch", test_page_split_descriptor_fetch);
    CU_add_test(s, "PageSplitPacketData", test_page_split_packet_data);
    CU_add_test(s, "TdhWriteWhileEnabledIgnored", test_tdh_write_while_enabled_ignored);
    CU_add_test(s, "TdhWriteOnlyWhenDisabledAndIdle", test_tdh_write_only_when_disabled_and_idle);
    CU_add_test(s, "LongTidvFires", test_long_tidv);
    CU_add_test(s, "LongItrFires", test_long_itr);
    CU_add_test(s, "WthreshScaledByGran0", test_wthresh_gran0);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
