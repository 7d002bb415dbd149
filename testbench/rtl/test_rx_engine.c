/* RTL regression tests of the 82546 receive engine, driven directly through
 * the cycle harness (no bus model, no driver): frames go in at the MAC, and
 * the tests read descriptors and buffers back from host memory as a driver
 * would. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../unit/gtest_cunit.h"
#include "rtl_harness.h"
#include "../../driver/e1000/e1000_regs.h"

#define MAX_CYC 4000000L
#define RCTL_BASE (E1000_RCTL_EN | E1000_RCTL_BAM)

/* ---- a receive ring as a driver keeps it -------------------------------- */

typedef struct rxq {
    rtl_harness *h;
    int func;
    unsigned n;              /* descriptors */
    uint32_t bsize;          /* buffer bytes (RCTL.BSIZE/BSEX) */
    uint8_t *ring;
    uint64_t bus;
    uint8_t *bufs;           /* n buffers of bsize bytes */
    uint64_t bufs_bus;
    unsigned next;           /* next descriptor the driver looks at */
    unsigned tail;           /* RDT as last written */
} rxq;

/* RCTL bits for a buffer size */
static uint32_t rctl_bsize(uint32_t bsize)
{
    switch (bsize) {
    case 256: return E1000_RCTL_SZ_256;
    case 512: return E1000_RCTL_SZ_512;
    case 1024: return E1000_RCTL_SZ_1024;
    case 2048: return E1000_RCTL_SZ_2048;
    case 4096: return E1000_RCTL_BSEX | E1000_RCTL_SZ_4096;
    case 8192: return E1000_RCTL_BSEX | E1000_RCTL_SZ_8192;
    case 16384: return E1000_RCTL_BSEX | E1000_RCTL_SZ_16384;
    }
    abort();
}

static const uint8_t UNICAST[6] = { 0x02, 0x00, 0x5E, 0x10, 0x20, 0x30 };   /* the station's address */
static const uint8_t OTHER[6] = { 0x02, 0x00, 0x5E, 0x10, 0x20, 0x31 };     /* somebody else's */
static const uint8_t BCAST[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
static const uint8_t MCAST[6] = { 0x01, 0x00, 0x5E, 0x00, 0x00, 0x01 };

/* Receive address n := addr, with RAH's other bits (AV, ASEL) as given. */
static void rar_set(rtl_harness *h, int func, unsigned n, const uint8_t *addr, uint32_t rah_bits)
{
    rh_write(h, func, E1000_RAL(n), (uint32_t)addr[0] | (uint32_t)addr[1] << 8 | (uint32_t)addr[2] << 16 |
                                    (uint32_t)addr[3] << 24);
    rh_write(h, func, E1000_RAH(n), (uint32_t)addr[4] | (uint32_t)addr[5] << 8 | rah_bits);
}

static void desc_set(rxq *q, unsigned i)
{
    uint8_t *d = q->ring + 16 * (size_t)i;
    uint64_t a = q->bufs_bus + (uint64_t)i * q->bsize;
    memset(d, 0, 16);
    memcpy(d, &a, 8);
}

/* A ring of n descriptors with buffers of bsize bytes; the receiver is
 * enabled with RCTL_BASE | rctl_extra and RDT is left at 0 (no descriptor
 * given yet). */
static void rxq_setup(rxq *q, rtl_harness *h, int func, unsigned n, uint32_t bsize, uint32_t rctl_extra,
                      uint32_t rxdctl)
{
    memset(q, 0, sizeof *q);
    q->h = h;
    q->func = func;
    q->n = n;
    q->bsize = bsize;
    q->ring = host_mem_alloc(h->mem, (size_t)n * 16, 128, &q->bus);
    q->bufs = host_mem_alloc(h->mem, (size_t)n * bsize, 64, &q->bufs_bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q->ring);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q->bufs);
    for (unsigned i = 0; i < n; i++)
        desc_set(q, i);
    rh_write(h, func, E1000_RDBAL, (uint32_t)q->bus);
    rh_write(h, func, E1000_RDBAH, (uint32_t)(q->bus >> 32));
    rh_write(h, func, E1000_RDLEN, n * 16);
    rh_write(h, func, E1000_RDH, 0);
    rh_write(h, func, E1000_RDT, 0);
    rh_write(h, func, E1000_RXDCTL, rxdctl);
    rar_set(h, func, 0, UNICAST, E1000_RAH_AV);          /* the driver's station address */
    rh_write(h, func, E1000_RCTL, RCTL_BASE | rctl_bsize(bsize) | rctl_extra);
}

/* Give the hardware every descriptor but one (as Linux does: RDT = next - 1). */
static void rxq_fill(rxq *q)
{
    q->tail = (q->next + q->n - 1) % q->n;
    rh_write(q->h, q->func, E1000_RDT, q->tail);
}

static uint64_t desc_wb(const rxq *q, unsigned i)
{
    uint64_t w;
    memcpy(&w, q->ring + 16 * (size_t)i + 8, 8);
    return w;
}
static uint16_t wb_len(uint64_t w) { return (uint16_t)w; }
static uint16_t wb_csum(uint64_t w) { return (uint16_t)(w >> 16); }
static uint8_t wb_status(uint64_t w) { return (uint8_t)(w >> 32); }
static uint8_t wb_errors(uint64_t w) { return (uint8_t)(w >> 40); }

/* ---- frames -------------------------------------------------------------- */

static uint8_t pat(uint32_t seq, uint32_t i)
{
    return (uint8_t)(seq * 31 + i * 7 + 1 + (i >> 8));
}

/* A wire frame of len bytes (FCS included) to da; its bytes after the DA
 * encode (seq, offset). */
static uint8_t *make_frame(uint32_t seq, uint32_t len, const uint8_t *da)
{
    uint8_t *f = malloc(len);
    if (!f)
        abort();
    for (uint32_t i = 0; i < len; i++)
        f[i] = pat(seq, i);
    memcpy(f, da, len < 6 ? len : 6);
    return f;
}

static void inject(rtl_harness *h, int port, uint32_t seq, uint32_t len, const uint8_t *da, int crc_ok)
{
    uint8_t *f = make_frame(seq, len, da);
    rh_rx_frame(h, port, f, len, crc_ok);
    free(f);
}

static void inject_at(rtl_harness *h, int port, uint64_t at, uint32_t seq, uint32_t len)
{
    uint8_t *f = make_frame(seq, len, UNICAST);
    rh_rx_frame_at(h, port, at, f, len, 1);
    free(f);
}

/* RFC 1071 sum of bytes, byte 2k high, folded (not complemented) */
static uint16_t csum16(const uint8_t *p, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += (i & 1) ? p[i] : (uint32_t)p[i] << 8;
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)s;
}

/* The driver's side: take the next packet (descriptors from q->next with
 * DD, up to EOP) into out; returns its length, or -1 when the next
 * descriptor is not done.  Checks status bits and the per-descriptor rules
 * (full buffers before EOP, checksum only on EOP) as it goes. */
static int take_packet(rxq *q, uint8_t *out, uint32_t cap, uint8_t *errors, unsigned *ndesc)
{
    uint32_t len = 0;
    unsigned k = 0;
    for (;;) {
        unsigned i = (q->next + k) % q->n;
        uint64_t w = desc_wb(q, i);
        uint8_t st = wb_status(w);
        if (!(st & E1000_RXD_STAT_DD))
            return -1;
        CU_ASSERT(st & E1000_RXD_STAT_IXSM);
        uint32_t l = wb_len(w);
        CU_ASSERT_FATAL(len + l <= cap);
        memcpy(out + len, q->bufs + (size_t)i * q->bsize, l);
        len += l;
        k++;
        if (st & E1000_RXD_STAT_EOP) {
            CU_ASSERT_EQUAL(wb_csum(w), csum16(out, len));
            if (errors)
                *errors = wb_errors(w);
            break;
        }
        CU_ASSERT_EQUAL(l, q->bsize);
        CU_ASSERT_EQUAL(wb_csum(w), 0);
        CU_ASSERT_EQUAL(wb_errors(w), 0);
    }
    /* hand the descriptors back cleared, as a driver re-arms them */
    for (unsigned j = 0; j < k; j++)
        desc_set(q, (q->next + j) % q->n);
    q->next = (q->next + k) % q->n;
    if (ndesc)
        *ndesc = k;
    return (int)len;
}

/* Is buf the frame (seq, len) as DMA'd: with the FCS unless stripped? */
static int frame_is(const uint8_t *buf, int got, uint32_t seq, uint32_t len, int stripped)
{
    uint32_t want = stripped ? len - 4 : len;
    if (got != (int)want)
        return 0;
    uint8_t *f = make_frame(seq, len, UNICAST);
    int ok = memcmp(buf + 6, f + 6, want - 6) == 0;
    free(f);
    return ok;
}

/* Receive `count` frames through q and check each against (seq0 + i, len(i)). */
static uint8_t pkt[65536];

/* ---- tests -------------------------------------------------------------- */

static void test_registers(void)
{
    rtl_harness *h = rh_new();
    rh_write(h, 0, E1000_RDBAL, 0x12345678);
    rh_write(h, 0, E1000_RDBAH, 0x9);
    rh_write(h, 0, E1000_RDLEN, 4096 + 100);
    rh_write(h, 0, E1000_RDT, 17);
    rh_write(h, 0, E1000_RDTR, E1000_RDTR_FPD | 33);
    rh_write(h, 0, E1000_RADV, 44);
    rh_write(h, 0, E1000_RXDCTL, 0xFFFFFFFFu);
    rh_write(h, 0, E1000_RCTL, 0x0602803Eu);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDBAL), 0x12345670u);     /* low 4 bits ignored */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDBAH), 0x9u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDLEN), 4096u);           /* bits 6:0 ignored */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDT), 17u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 0u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDTR), 33u);              /* FPD reads 0 */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RADV), 44u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RXDCTL), 0x013F3F3Fu);    /* reserved bits read 0 */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RCTL), 0x0602803Eu);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PBA), 0x00100030u);
    rh_write(h, 0, E1000_PBA, 20);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PBA), (44u << 16) | 20u);
    /* the other function is untouched */
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_RDLEN), 0u);
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_RCTL), 0u);
    rh_free(h);
}

static void test_single_frame(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 8, 2048, 0, 0);
    rxq_fill(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    inject(h, 0, 1, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    uint64_t w = desc_wb(&q, 0);
    CU_ASSERT_EQUAL(wb_len(w), 64);                                 /* SECRC = 0: FCS included */
    CU_ASSERT_EQUAL(wb_status(w), E1000_RXD_STAT_DD | E1000_RXD_STAT_EOP | E1000_RXD_STAT_IXSM);
    CU_ASSERT_EQUAL(wb_errors(w), 0);
    uint8_t err = 0xFF;
    int got = take_packet(&q, pkt, sizeof pkt, &err, NULL);
    CU_ASSERT(frame_is(pkt, got, 1, 64, 0));
    CU_ASSERT_EQUAL(memcmp(pkt, UNICAST, 6), 0);
    CU_ASSERT_EQUAL(err, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 1);
    /* one data write of 64 bytes and one 8-byte status write at bytes 8..15 */
    CU_ASSERT_EQUAL_FATAL(h->nwlog, 2);
    CU_ASSERT_EQUAL(h->wlog[0].addr, q.bufs_bus);
    CU_ASSERT_EQUAL(h->wlog[0].len, 64);
    CU_ASSERT_EQUAL(h->wlog[1].addr, q.bus + 8);
    CU_ASSERT_EQUAL(h->wlog[1].len, 8);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 0);                /* clear on read */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), 64);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCH), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TORL), 64);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PRC64), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PRC127), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_BPRC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPRC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RNBC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPTC), 0);                /* TX counters untouched */
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* ---- a driver loop -------------------------------------------------------- */

typedef uint32_t (*len_fn)(unsigned seq);

/* Take every done packet, check it is frame (*seq) of len_of(*seq), and
 * count it; returns the packets taken. */
static unsigned drain(rxq *q, unsigned *seq, len_fn len_of, int stripped, unsigned *bad)
{
    unsigned k = 0;
    int got;
    while ((got = take_packet(q, pkt, sizeof pkt, NULL, NULL)) >= 0) {
        if (!frame_is(pkt, got, *seq, len_of(*seq), stripped)) {
            if (*bad == 0)
                fprintf(stderr, "packet %u: got %d bytes, want %u\n", *seq, got, len_of(*seq));
            (*bad)++;
        }
        (*seq)++;
        k++;
    }
    return k;
}

/* Receive `total` frames through q, `burst` at a time, as a driver: after
 * each burst take what is done, re-arm and write RDT = next - 1. */
static void run_rx(rxq *q, unsigned total, unsigned burst, len_fn len_of, int stripped)
{
    rtl_harness *h = q->h;
    unsigned sent = 0, seq = 0, bad = 0, rounds = 0;
    while (seq < total && rounds++ < 100000) {
        unsigned k = burst < total - sent ? burst : total - sent;
        for (unsigned i = 0; i < k; i++)
            inject(h, q->func, sent + i, len_of(sent + i), UNICAST, 1);
        sent += k;
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        drain(q, &seq, len_of, stripped, &bad);
        rxq_fill(q);
    }
    CU_ASSERT_EQUAL(seq, total);
    CU_ASSERT_EQUAL(bad, 0);
}

static uint32_t len_mixed(unsigned seq) { return 64 + (seq * 37) % 1455; }
static uint32_t len_64(unsigned seq) { (void)seq; return 64; }

static void ring_wrap(unsigned n, unsigned burst, unsigned total)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, n, 2048, 0, 0);
    rxq_fill(&q);
    run_rx(&q, total, burst, len_mixed, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), q.next);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), total);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RNBC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 0);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

static void test_ring_wrap(void)
{
    static const unsigned sizes[] = { 8, 16, 80, 256 };
    for (unsigned i = 0; i < 4; i++)
        ring_wrap(sizes[i], sizes[i] / 2 + 1, 3 * sizes[i] + 5);
    ring_wrap(8, 1, 20);           /* one frame at a time: RDT moves by one */
    ring_wrap(16, 15, 15 * 4);     /* every free descriptor each time */
}

/* RDT == RDH: the hardware owns no descriptor.  Frames are kept in the
 * packet buffer (each one counted in RNBC) and delivered once RDT moves. */
static void test_rdt_equals_rdh(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 16, 2048, 0, 0);
    for (unsigned i = 0; i < 5; i++)
        inject(h, 0, i, 100 + i, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->dma_reads, 0);                   /* nothing to fetch */
    CU_ASSERT_EQUAL(h->nwlog, 0);                       /* nothing written */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RNBC), 5);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 5);    /* received, waiting in the buffer */
    rxq_fill(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    unsigned bad = 0;
    for (unsigned i = 0; i < 5; i++) {
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        bad += !frame_is(pkt, got, i, 100 + i, 0);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 5);
    /* RDT written equal to RDH again (15 -> 5 is not allowed; the driver gives
     * exactly the 10 up to 15 and they are used): after 10 frames RDH = RDT */
    for (unsigned i = 5; i < 15; i++)
        inject(h, 0, i, 100 + i, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 15);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDT), 15);
    size_t w0 = h->nwlog;
    for (unsigned i = 15; i < 18; i++)
        inject(h, 0, i, 100 + i, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->nwlog, w0);                      /* no free descriptor: nothing written */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RNBC), 3);
    for (unsigned i = 5; i < 15; i++) {
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        bad += !frame_is(pkt, got, i, 100 + i, 0);
    }
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    rxq_fill(&q);                                       /* RDT = 14 */
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    for (unsigned i = 15; i < 18; i++) {
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        bad += !frame_is(pkt, got, i, 100 + i, 0);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 2);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* A full packet buffer: the frames that do not fit are missed (MPC once
 * per frame however many beats did not fit, RXO); every frame that arrives
 * without a free descriptor counts in RNBC, stored or not. */
static void test_mpc_and_rnbc(void)
{
    rtl_harness *h = rh_new();
    rh_write(h, 0, E1000_PBA, 8);                       /* RX 8 KiB = 256 rows */
    rxq q;
    rxq_setup(&q, h, 0, 32, 2048, 0, 0);
    /* 1518 bytes = 48 rows: 5 fit (240 rows), the other 5 do not */
    for (unsigned i = 0; i < 10; i++)
        inject(h, 0, i, 1518, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 5);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RNBC), 10);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 10);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 5);    /* missed frames are not good frames */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), 5 * 1518);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TORL), 10 * 1518);
    CU_ASSERT(rh_read32(h, 0, E1000_ICR) & E1000_ICR_RXO);
    rh_free(h);

    /* the same again, then descriptors: the five stored frames come out */
    h = rh_new();
    rh_write(h, 0, E1000_PBA, 8);
    rxq_setup(&q, h, 0, 32, 2048, 0, 0);
    for (unsigned i = 0; i < 10; i++)
        inject(h, 0, i, 1518, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    rxq_fill(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    unsigned bad = 0;
    for (unsigned i = 0; i < 5; i++) {
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        bad += !frame_is(pkt, got, i, 1518, 0);         /* the first five, in order */
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    /* with descriptors and room nothing is missed */
    rxq_fill(&q);
    for (unsigned i = 20; i < 23; i++)
        inject(h, 0, i, 1518, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    for (unsigned i = 20; i < 23; i++) {
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        bad += !frame_is(pkt, got, i, 1518, 0);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 5);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RNBC), 10);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 0);
    /* a frame larger than the whole RX share can never fit: missed at once */
    rh_write(h, 0, E1000_RCTL, RCTL_BASE | E1000_RCTL_LPE | rctl_bsize(2048));
    inject(h, 0, 30, 9000, UNICAST, 1);
    inject(h, 0, 31, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 1);
    int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT(frame_is(pkt, got, 31, 64, 0));
    /* PBA 0: no receive memory at all, every frame missed */
    rh_write(h, 0, E1000_PBA, 0);
    inject(h, 0, 32, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 1);
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* Every buffer size: a frame spreads over ceil(len / size) descriptors,
 * full buffers, EOP on the last only; DMA writes are at most 2048 bytes. */
static void test_buffer_sizes(void)
{
    static const uint32_t sizes[] = { 256, 512, 1024, 2048, 4096, 8192, 16384 };
    static const uint32_t lens[] = { 64, 65, 255, 256, 257, 1023, 1518, 1522, 3000, 9018, 16384 };
    for (unsigned s = 0; s < 7; s++) {
        rtl_harness *h = rh_new();
        rxq q;
        rxq_setup(&q, h, 0, 128, sizes[s], E1000_RCTL_LPE, 0);
        rxq_fill(&q);
        unsigned bad = 0;
        for (unsigned i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            size_t w0 = h->nwlog;
            inject(h, 0, i, lens[i], UNICAST, 1);
            CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
            unsigned nd = 0;
            int got = take_packet(&q, pkt, sizeof pkt, NULL, &nd);
            if (!frame_is(pkt, got, i, lens[i], 0) || nd != (lens[i] + sizes[s] - 1) / sizes[s]) {
                fprintf(stderr, "bsize %u len %u: got %d in %u descriptors\n", sizes[s], lens[i], got, nd);
                bad++;
            }
            uint32_t data = 0;
            for (size_t k = w0; k < h->nwlog; k++) {
                CU_ASSERT(h->wlog[k].len <= 2048);
                if (h->wlog[k].addr >= q.bufs_bus && h->wlog[k].addr < q.bufs_bus + (uint64_t)q.n * q.bsize)
                    data += h->wlog[k].len;
            }
            CU_ASSERT_EQUAL(data, lens[i]);
            rxq_fill(&q);
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), sizeof lens / sizeof lens[0]);
        CU_ASSERT_EQUAL(h->faults, 0);
        rh_free(h);
    }
}

/* Frames larger than one buffer in a stream, with the ring wrapping in the
 * middle of a frame. */
static uint32_t len_multi(unsigned seq) { return 200 + (seq * 389) % 1323; }

static void test_multi_descriptor_frames(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 24, 256, 0, 0);
    rxq_fill(&q);
    run_rx(&q, 60, 3, len_multi, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 60);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* SECRC: the FCS is not DMA'd and not in the length (also when it alone
 * would have needed another row or another descriptor); octet counters
 * still count it. */
static void test_secrc(void)
{
    static const uint32_t lens[] = { 64, 65, 66, 67, 68, 96, 100, 260, 516, 517, 1518 };
    const unsigned nl = sizeof lens / sizeof lens[0];
    for (int strip = 0; strip < 2; strip++) {
        rtl_harness *h = rh_new();
        rxq q;
        rxq_setup(&q, h, 0, 64, 256, strip ? E1000_RCTL_SECRC : 0, 0);
        rxq_fill(&q);
        uint32_t total = 0;
        for (unsigned i = 0; i < nl; i++) {
            inject(h, 0, i, lens[i], UNICAST, 1);
            total += lens[i];
        }
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        unsigned bad = 0;
        for (unsigned i = 0; i < nl; i++) {
            unsigned nd = 0;
            int got = take_packet(&q, pkt, sizeof pkt, NULL, &nd);
            uint32_t dlen = strip ? lens[i] - 4 : lens[i];
            if (!frame_is(pkt, got, i, lens[i], strip) || nd != (dlen + 255) / 256) {
                fprintf(stderr, "secrc %d len %u: got %d in %u descriptors\n", strip, lens[i], got, nd);
                bad++;
            }
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), total);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TORL), total);
        rh_free(h);
    }
}

/* CRC errors: counted in CRCERRS; dropped with SBP off; with SBP on stored,
 * CE set in the EOP descriptor only, not counted as good. */
static void test_crc_errors_sbp(void)
{
    for (int sbp = 0; sbp < 2; sbp++) {
        rtl_harness *h = rh_new();
        rxq q;
        rxq_setup(&q, h, 0, 32, 256, sbp ? E1000_RCTL_SBP : 0, 0);
        rxq_fill(&q);
        inject(h, 0, 0, 100, UNICAST, 1);
        inject(h, 0, 1, 100, UNICAST, 0);
        inject(h, 0, 2, 600, UNICAST, 0);               /* 3 descriptors */
        inject(h, 0, 3, 70, UNICAST, 1);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        uint8_t err = 0;
        int got = take_packet(&q, pkt, sizeof pkt, &err, NULL);
        CU_ASSERT(frame_is(pkt, got, 0, 100, 0));
        CU_ASSERT_EQUAL(err, 0);
        if (sbp) {
            got = take_packet(&q, pkt, sizeof pkt, &err, NULL);
            CU_ASSERT(frame_is(pkt, got, 1, 100, 0));
            CU_ASSERT_EQUAL(err, E1000_RXD_ERR_CE);
            unsigned nd = 0;
            got = take_packet(&q, pkt, sizeof pkt, &err, &nd);   /* errors 0 before EOP is checked inside */
            CU_ASSERT(frame_is(pkt, got, 2, 600, 0));
            CU_ASSERT_EQUAL(nd, 3);
            CU_ASSERT_EQUAL(err, E1000_RXD_ERR_CE);
        }
        got = take_packet(&q, pkt, sizeof pkt, &err, NULL);
        CU_ASSERT(frame_is(pkt, got, 3, 70, 0));
        CU_ASSERT_EQUAL(err, 0);
        CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_CRCERRS), 2);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 2);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), 170);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 4);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TORL), 870);
        rh_free(h);
    }
}

/* Length limits: < 64 bytes RUC (CRC good) or RFC (bad); > 1522 without LPE
 * ROC or RJC; with LPE up to 16384. */
static void test_length_limits(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, 0);
    rxq_fill(&q);
    inject(h, 0, 0, 60, UNICAST, 1);                    /* RUC */
    inject(h, 0, 1, 63, UNICAST, 0);                    /* RFC */
    inject(h, 0, 2, 1522, UNICAST, 1);                  /* kept: the VLAN maximum */
    inject(h, 0, 3, 1523, UNICAST, 1);                  /* ROC */
    inject(h, 0, 4, 2000, UNICAST, 0);                  /* RJC */
    inject(h, 0, 5, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT(frame_is(pkt, got, 2, 1522, 0));
    got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT(frame_is(pkt, got, 5, 64, 0));
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RUC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RFC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_ROC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RJC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_CRCERRS), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 2);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PRC1522), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PRC64), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 6);
    /* LPE: up to 16384 bytes */
    rh_write(h, 0, E1000_RCTL, RCTL_BASE | E1000_RCTL_LPE | rctl_bsize(2048));
    inject(h, 0, 6, 1523, UNICAST, 1);
    inject(h, 0, 7, 16384, UNICAST, 1);
    inject(h, 0, 8, 16385, UNICAST, 1);                 /* ROC */
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT(frame_is(pkt, got, 6, 1523, 0));
    got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT(frame_is(pkt, got, 7, 16384, 0));
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_ROC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 2);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_PRC1522), 0);  /* longer than 1522: no bucket */
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* Broadcast needs BAM (or MPE), other group addresses MPE (the multicast
 * table empty); unicast to the station address always. */
static void test_address_filter(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, 0);
    rxq_fill(&q);
    rh_write(h, 0, E1000_RCTL, E1000_RCTL_EN);          /* no BAM, no MPE */
    inject(h, 0, 0, 64, BCAST, 1);
    inject(h, 0, 1, 64, MCAST, 1);
    inject(h, 0, 2, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT(frame_is(pkt, got, 2, 64, 0));
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 3);     /* filtered frames count only here */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_BPRC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPRC), 0);
    rh_write(h, 0, E1000_RCTL, E1000_RCTL_EN | E1000_RCTL_BAM);
    inject(h, 0, 3, 64, BCAST, 1);
    inject(h, 0, 4, 64, MCAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT_EQUAL(got, 64);
    CU_ASSERT_EQUAL(memcmp(pkt, BCAST, 6), 0);
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_BPRC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPRC), 0);
    rh_write(h, 0, E1000_RCTL, E1000_RCTL_EN | E1000_RCTL_MPE);
    inject(h, 0, 5, 64, BCAST, 1);
    inject(h, 0, 6, 64, MCAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT_EQUAL(memcmp(pkt, BCAST, 6), 0);
    got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT_EQUAL(memcmp(pkt, MCAST, 6), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_BPRC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPRC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 3);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 4);
    /* the receiver off: frames are ignored and counted nowhere */
    rh_write(h, 0, E1000_RCTL, 0);
    inject(h, 0, 7, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 0);
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    rh_free(h);
}

/* The receive addresses and the multicast table (issue 20): entry 0 holds
 * the EEPROM's address after reset (port 1's with the last bit inverted),
 * a unicast frame passes only for an entry with AV and ASEL 00 or with UPE,
 * a group address for its MTA bit at the hash RCTL.MO picks. */
static void test_receive_addresses(void)
{
    nic_rtl_straps st = { .link_up = 3, .pcix_mode = 1, .pcix_speed = 2, .bus64 = 1, .pci66 = 1,
                          .mac = { { 0x02, 0x00, 0x00, 0x00, 0x00, 0x20 } } };
    rtl_harness *h = rh_new_straps(&st);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RAL(0)), 0x00000002u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RAH(0)), E1000_RAH_AV | 0x2000u);
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_RAH(0)), E1000_RAH_AV | 0x2100u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RAH(15)), 0);
    /* every entry and table register reads back what was written (ASEL
     * 17:16 kept, the reserved bits 30:18 read 0), and none is unmodelled */
    rh_write(h, 0, E1000_RAL(15), 0xA1B2C3D4u);
    rh_write(h, 0, E1000_RAH(15), 0xFFFFFFFFu);
    rh_write(h, 0, E1000_MTA + 4 * 127, 0x80000001u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RAL(15)), 0xA1B2C3D4u);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RAH(15)), 0x8003FFFFu);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MTA + 4 * 127), 0x80000001u);
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_MTA + 4 * 127), 0);          /* each port its own */
    CU_ASSERT_EQUAL(h->unmodelled, 0);
    /* a CTRL.RST reloads entry 0 and drops AV and ASEL of the others */
    rh_write(h, 0, E1000_CTRL, E1000_CTRL_RST);
    rh_steps(h, 64);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RAH(15)), 0x0000FFFFu);

    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, 0);                 /* RAL/RAH(0) := UNICAST */
    rxq_fill(&q);
    for (unsigned i = 0; i < E1000_MTA_ENTRIES; i++)
        rh_write(h, 0, E1000_MTA + 4 * i, 0);
    inject(h, 0, 0, 64, OTHER, 1);                       /* nobody's: filtered */
    inject(h, 0, 1, 64, MCAST, 1);                       /* no MTA bit: filtered */
    inject(h, 0, 2, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT(frame_is(pkt, got, 2, 64, 0));
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 3);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 1);
    /* OTHER in entry 9: passes; as a source address (ASEL 01) it does not */
    rar_set(h, 0, 9, OTHER, E1000_RAH_AV);
    inject(h, 0, 3, 64, OTHER, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT(frame_is(pkt, take_packet(&q, pkt, sizeof pkt, NULL, NULL), 3, 64, 0));
    rar_set(h, 0, 9, OTHER, E1000_RAH_AV | 1u << 16);
    inject(h, 0, 4, 64, OTHER, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    /* UPE: every unicast address */
    rh_write(h, 0, E1000_RCTL, RCTL_BASE | rctl_bsize(2048) | E1000_RCTL_UPE);
    inject(h, 0, 5, 64, OTHER, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT(frame_is(pkt, take_packet(&q, pkt, sizeof pkt, NULL, NULL), 5, 64, 0));
    /* 01:00:5E:00:00:01 hashes (bytes 4, 5 = 0x00, 0x01) to 0x010 with MO 00
     * (bits 47:36): MTA(0) bit 16; with MO 01 (bits 46:35) to 0x020, MTA(1)
     * bit 0 */
    rh_write(h, 0, E1000_MTA, 1u << 16);
    inject(h, 0, 6, 64, MCAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
    CU_ASSERT_EQUAL(got, 64);
    CU_ASSERT_EQUAL(memcmp(pkt, MCAST, 6), 0);
    rh_write(h, 0, E1000_RCTL, RCTL_BASE | rctl_bsize(2048) | 1u << E1000_RCTL_MO_SHIFT);
    inject(h, 0, 7, 64, MCAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    rh_write(h, 0, E1000_MTA + 4, 1u);
    inject(h, 0, 8, 64, MCAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), 64);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPRC), 2);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* The VLAN filter (issue 20): with RCTL.VFE a frame whose type is VET
 * (0x8100 after reset) passes only when the VFTA bit of its VLAN ID is set
 * and, with CFIEN, its CFI bit equals RCTL.CFI; untagged frames pass. */
static void inject_tagged(rtl_harness *h, uint32_t seq, uint16_t tci)
{
    uint8_t *f = make_frame(seq, 64, UNICAST);
    f[12] = 0x81;
    f[13] = 0x00;
    f[14] = (uint8_t)(tci >> 8);
    f[15] = (uint8_t)tci;
    rh_rx_frame(h, 0, f, 64, 1);
    free(f);
}

static void test_vlan_filter(void)
{
    rtl_harness *h = rh_new();
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_VET), 0x8100u);
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, 0);
    rxq_fill(&q);
    for (unsigned i = 0; i < E1000_VFTA_ENTRIES; i++)
        rh_write(h, 0, E1000_VFTA + 4 * i, 0);
    rh_write(h, 0, E1000_VFTA + 4 * (100 >> 5), 1u << (100 & 31));    /* VLAN 100 */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_VFTA + 4 * (100 >> 5)), 1u << (100 & 31));
    CU_ASSERT_EQUAL(h->unmodelled, 0);
    const uint32_t base = RCTL_BASE | rctl_bsize(2048);
    rh_write(h, 0, E1000_RCTL, base | E1000_RCTL_VFE);
    inject_tagged(h, 0, 100);                            /* passes */
    inject_tagged(h, 1, 101);                            /* its bit is clear */
    inject(h, 0, 2, 64, UNICAST, 1);                     /* untagged: passes */
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    /* CFIEN with CFI 0: a tag with CFI 1 is filtered */
    rh_write(h, 0, E1000_RCTL, base | E1000_RCTL_VFE | E1000_RCTL_CFIEN);
    inject_tagged(h, 3, 0x1000 | 100);
    inject_tagged(h, 4, 100);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    /* VFE off: every tag passes */
    rh_write(h, 0, E1000_RCTL, base);
    inject_tagged(h, 5, 101);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    static const uint32_t passed[] = { 0, 2, 4, 5 };
    for (unsigned k = 0; k < 4; k++) {
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        CU_ASSERT_EQUAL(got, 64);
        CU_ASSERT_EQUAL(pkt[20], pat(passed[k], 20));
    }
    CU_ASSERT_EQUAL(take_packet(&q, pkt, sizeof pkt, NULL, NULL), -1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 6);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 4);
    rh_free(h);
}

/* ---- both ports, with transmit traffic at the same time ----------------- */

static void tx_put(rtl_harness *h, int func, uint8_t *ring, unsigned i, uint32_t seq, uint32_t len)
{
    uint64_t bus;
    uint8_t *p = host_mem_alloc(h->mem, len, 64, &bus);
    for (uint32_t k = 0; k < len; k++)
        p[k] = pat(seq, k);
    rh_tx_desc(ring, i, bus, (uint16_t)len, E1000_TXD_CMD_EOP | E1000_TXD_CMD_IFCS | E1000_TXD_CMD_RS);
    (void)func;
}

static void test_two_ports_with_tx(void)
{
    rtl_harness *h = rh_new();
    rxq a, b;
    rxq_setup(&a, h, 0, 64, 2048, 0, 0);
    rxq_setup(&b, h, 1, 64, 256, E1000_RCTL_SECRC, 0);
    rxq_fill(&a);
    rxq_fill(&b);
    /* TX rings on both ports as well */
    uint8_t *tr[2];
    for (int f = 0; f < 2; f++) {
        uint64_t tb;
        tr[f] = rh_tx_ring(h, f, 64, &tb);
        rh_write(h, f, E1000_TDBAL, (uint32_t)tb);
        rh_write(h, f, E1000_TDBAH, (uint32_t)(tb >> 32));
        rh_write(h, f, E1000_TDLEN, 64 * 16);
        rh_write(h, f, E1000_TCTL, E1000_TCTL_EN);
        for (unsigned i = 0; i < 40; i++)
            tx_put(h, f, tr[f], i, 500 + i, 60 + i * 11);
    }
    for (unsigned i = 0; i < 40; i++) {
        inject(h, 0, i, len_mixed(i), UNICAST, 1);
        inject(h, 1, i, len_multi(i), UNICAST, 1);
    }
    rh_write(h, 0, E1000_TDT, 40);
    rh_write(h, 1, E1000_TDT, 40);
    unsigned sa = 0, sb = 0, bad = 0;
    for (int round = 0; round < 1000 && (sa < 40 || sb < 40); round++) {
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        drain(&a, &sa, len_mixed, 0, &bad);
        drain(&b, &sb, len_multi, 1, &bad);
        rxq_fill(&a);
        rxq_fill(&b);
    }
    CU_ASSERT_EQUAL(sa, 40);
    CU_ASSERT_EQUAL(sb, 40);
    CU_ASSERT_EQUAL(bad, 0);
    for (int f = 0; f < 2; f++) {
        CU_ASSERT_EQUAL_FATAL(h->nframes[f], 40);
        for (unsigned i = 0; i < 40; i++) {
            const rh_frame *fr = &h->frames[f][i];
            int ok = fr->len == 60 + i * 11;
            for (uint32_t k = 0; ok && k < fr->len; k++)
                ok = fr->data[k] == pat(500 + i, k);
            bad += !ok;
        }
        CU_ASSERT_EQUAL(rh_tx_status(tr[f], 39) & 1, 1);
        CU_ASSERT_EQUAL(rh_read32(h, f, E1000_GPRC), 40);
        CU_ASSERT_EQUAL(rh_read32(h, f, E1000_GPTC), 40);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* ---- interrupts ------------------------------------------------------------ */

static void test_interrupts(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    /* 16 descriptors, RDMTS 1/2: RXDMT0 when 8 are left */
    rxq_setup(&q, h, 0, 16, 2048, E1000_RCTL_RDMTS_HALF, 0);
    rh_write(h, 0, E1000_IMS, E1000_ICR_RXT0 | E1000_ICR_RXDMT0 | E1000_ICR_RXO);
    rxq_fill(&q);                                       /* 15 free */
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 0);
    for (unsigned i = 0; i < 6; i++)
        inject(h, 0, i, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT(h->irq_rises[0] >= 1);                    /* RXT0: RDTR = 0, at once */
    uint32_t icr = rh_read32(h, 0, E1000_ICR);
    CU_ASSERT_EQUAL(icr & (E1000_ICR_RXT0 | E1000_ICR_RXDMT0 | E1000_ICR_RXO), E1000_ICR_RXT0);  /* 9 left */
    inject(h, 0, 6, 64, UNICAST, 1);                    /* 8 left: the threshold */
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    icr = rh_read32(h, 0, E1000_ICR);
    CU_ASSERT_EQUAL(icr & (E1000_ICR_RXT0 | E1000_ICR_RXDMT0), E1000_ICR_RXT0 | E1000_ICR_RXDMT0);
    inject(h, 0, 7, 64, UNICAST, 1);                    /* 7 left: below, no new RXDMT0 */
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    icr = rh_read32(h, 0, E1000_ICR);
    CU_ASSERT_EQUAL(icr & E1000_ICR_RXDMT0, 0);
    /* RXO: a frame missed for lack of buffer space (port 1: no descriptor
     * given, 1 KiB of buffer: one 1000-byte frame fits) */
    rxq q1;
    rxq_setup(&q1, h, 1, 16, 2048, 0, 0);
    rh_write(h, 1, E1000_IMS, E1000_ICR_RXO);
    rh_write(h, 1, E1000_PBA, 1);
    inject(h, 1, 8, 1000, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[1], 0);
    inject(h, 1, 9, 1000, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[1], 1);
    icr = rh_read32(h, 1, E1000_ICR);
    CU_ASSERT_EQUAL(icr & (E1000_ICR_RXO | E1000_ICR_RXT0), E1000_ICR_RXO);
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_MPC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_RNBC), 2);
    /* ITR: 100 x 256 ns = 3200 cycles between assertions */
    rh_write(h, 0, E1000_ITR, 100);
    while (take_packet(&q, pkt, sizeof pkt, NULL, NULL) >= 0)
        ;
    rxq_fill(&q);
    uint64_t rise[3];
    for (unsigned k = 0; k < 3; k++) {
        uint64_t r0 = h->irq_rises[0];
        inject(h, 0, 20 + k, 64, UNICAST, 1);
        for (long c = 0; c < 20000 && h->irq_rises[0] == r0; c++)
            rh_step(h);
        CU_ASSERT_FATAL(h->irq_rises[0] == r0 + 1);
        rise[k] = h->irq_rise_cycle[0];
        rh_read32(h, 0, E1000_ICR);
    }
    CU_ASSERT(rise[1] - rise[0] >= 3200 - 40);
    CU_ASSERT(rise[2] - rise[1] >= 3200 - 40);
    rh_free(h);
}

/* RXT0 waits for the write-back: the descriptors are in memory before the
 * interrupt line rises. */
static int wb_before(const rtl_harness *h, const rxq *q, uint64_t cycle)
{
    uint64_t last = 0;
    for (size_t k = 0; k < h->nwlog; k++)
        if (h->wlog[k].addr >= q->bus && h->wlog[k].addr < q->bus + 16ull * q->n && h->wlog[k].done > last)
            last = h->wlog[k].done;
    return last != 0 && last < cycle;
}

/* RDTR restarts on each frame; RADV runs from the first and is not
 * restarted; either expiring raises RXT0 and stops both. */
static void test_rdtr_radv_timing(void)
{
    rtl_harness *h = rh_new();
    h->tick_period = 0;                                 /* time passes only by rh_advance_ticks */
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, 0);
    rh_write(h, 0, E1000_IMS, E1000_ICR_RXT0);
    rh_write(h, 0, E1000_RDTR, 10);                     /* 40 ticks */
    rxq_fill(&q);
    inject(h, 0, 0, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT((desc_wb(&q, 0) & E1000_RXD_QW1_DD) != 0); /* WTHRESH 0: written at once */
    CU_ASSERT_EQUAL(h->irq_rises[0], 0);
    CU_ASSERT_EQUAL(h->out.next_timer[0], 40);
    rh_advance_ticks(h, 39);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 0);
    CU_ASSERT_EQUAL(h->out.next_timer[0], 1);
    rh_advance_ticks(h, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);
    CU_ASSERT_EQUAL(h->out.next_timer[0], NIC_RTL_NO_TIMER);
    CU_ASSERT(rh_read32(h, 0, E1000_ICR) & E1000_ICR_RXT0);
    /* RADV = 20 (80 ticks) with a frame every 30 ticks: RDTR never expires */
    rh_write(h, 0, E1000_RADV, 20);
    for (unsigned k = 0; k < 3; k++) {
        inject(h, 0, 1 + k, 64, UNICAST, 1);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        if (k < 2)
            rh_advance_ticks(h, 30);
    }
    /* at tick 60 after the first: RADV has 20 left, RDTR 40 */
    CU_ASSERT_EQUAL(h->out.next_timer[0], 20);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);
    rh_advance_ticks(h, 19);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);
    rh_advance_ticks(h, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 2);
    CU_ASSERT_EQUAL(h->out.next_timer[0], NIC_RTL_NO_TIMER);   /* RADV cancels RDTR */
    CU_ASSERT(wb_before(h, &q, h->irq_rise_cycle[0]));
    /* the longest delay: 65535 x 1.024 us = 262140 ticks */
    rh_read32(h, 0, E1000_ICR);
    rh_write(h, 0, E1000_RADV, 0);
    rh_write(h, 0, E1000_RDTR, 65535);
    inject(h, 0, 4, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->out.next_timer[0], 262140);
    rh_advance_ticks(h, 262139);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 2);
    rh_advance_ticks(h, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->irq_rises[0], 3);
    rh_free(h);
}

/* WTHRESH > 0: whole descriptors written back in batches; the rest when the
 * timer expires or FPD is written, before RXT0; a waiting frame with no
 * descriptor left forces the batch out. */
static void test_wthresh_batching(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, E1000_DCTL_GRAN | (4u << E1000_DCTL_WTHRESH_SHIFT));
    rh_write(h, 0, E1000_RDTR, 1000);
    rh_write(h, 0, E1000_IMS, E1000_ICR_RXT0);
    rxq_fill(&q);
    for (unsigned i = 0; i < 8; i++)
        inject(h, 0, i, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    unsigned wbs = 0;
    for (size_t k = 0; k < h->nwlog; k++)
        if (h->wlog[k].addr >= q.bus && h->wlog[k].addr < q.bus + 16ull * q.n) {
            wbs++;
            CU_ASSERT_EQUAL(h->wlog[k].len, 64);        /* 4 whole descriptors */
        }
    CU_ASSERT_EQUAL(wbs, 2);
    for (unsigned i = 0; i < 8; i++) {
        uint64_t a;
        memcpy(&a, q.ring + 16 * i, 8);
        CU_ASSERT_EQUAL(a, q.bufs_bus + (uint64_t)i * q.bsize);   /* address quadword kept */
    }
    unsigned seq = 0, bad = 0;
    CU_ASSERT_EQUAL(drain(&q, &seq, len_64, 0, &bad), 8);
    CU_ASSERT_EQUAL(h->irq_rises[0], 0);                /* RDTR still running */
    /* 3 more: below WTHRESH, nothing written until FPD */
    for (unsigned i = 8; i < 11; i++)
        inject(h, 0, i, 64, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(drain(&q, &seq, len_64, 0, &bad), 0);
    size_t w0 = h->nwlog;
    rh_write(h, 0, E1000_RDTR, E1000_RDTR_FPD | 1000);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL_FATAL(h->nwlog, w0 + 1);
    CU_ASSERT_EQUAL(h->wlog[w0].len, 48);
    CU_ASSERT_EQUAL(h->irq_rises[0], 1);
    CU_ASSERT(h->wlog[w0].done < h->irq_rise_cycle[0]);
    CU_ASSERT_EQUAL(drain(&q, &seq, len_64, 0, &bad), 3);
    CU_ASSERT_EQUAL(bad, 0);
    rh_free(h);

    /* a ring of 8 with WTHRESH 16: 7 frames fill every free descriptor; the
     * batch must go out so that software can return them */
    h = rh_new();
    rxq_setup(&q, h, 0, 8, 2048, 0, E1000_DCTL_GRAN | (16u << E1000_DCTL_WTHRESH_SHIFT));
    rh_write(h, 0, E1000_RDTR, 1000);
    rxq_fill(&q);
    seq = 0;
    bad = 0;
    run_rx(&q, 30, 10, len_64, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 30);
    rh_free(h);
}

/* ---- statistics ------------------------------------------------------------ */

static void test_stats_clear_on_read(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, E1000_RCTL_MPE, 0);
    rxq_fill(&q);
    static const uint32_t lens[] = { 64, 127, 128, 255, 256, 511, 512, 1023, 1024, 1522 };
    uint32_t total = 0;
    for (unsigned i = 0; i < 10; i++) {
        inject(h, 0, i, lens[i], i == 3 ? BCAST : i == 4 ? MCAST : UNICAST, 1);
        total += lens[i];
    }
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    static const uint32_t prc[] = { E1000_PRC64, E1000_PRC127, E1000_PRC255, E1000_PRC511, E1000_PRC1023,
                                    E1000_PRC1522 };
    static const uint32_t want[] = { 1, 1, 2, 2, 2, 2 };
    for (unsigned k = 0; k < 6; k++) {
        CU_ASSERT_EQUAL(rh_read32(h, 0, prc[k]), want[k]);
        CU_ASSERT_EQUAL(rh_read32(h, 0, prc[k]), 0);
    }
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_BPRC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_BPRC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPRC), 1);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPRC), 0);
    /* 64-bit octet counters: the low half reads without clearing; reading
     * the high half clears both */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), total);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), total);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCH), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GORCL), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TORL), total);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TORH), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TORL), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 10);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 10);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TPR), 0);
    /* error counters clear on read too */
    inject(h, 0, 20, 40, UNICAST, 1);
    inject(h, 0, 21, 40, UNICAST, 0);
    inject(h, 0, 22, 100, UNICAST, 0);
    inject(h, 0, 23, 1600, UNICAST, 1);
    inject(h, 0, 24, 1600, UNICAST, 0);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    static const uint32_t errs[] = { E1000_RUC, E1000_RFC, E1000_CRCERRS, E1000_ROC, E1000_RJC };
    for (unsigned k = 0; k < 5; k++) {
        CU_ASSERT_EQUAL(rh_read32(h, 0, errs[k]), 1);
        CU_ASSERT_EQUAL(rh_read32(h, 0, errs[k]), 0);
    }
    /* a read and a frame in the same cycle: the frame is not lost (port 1,
     * no descriptor given: every frame counts in RNBC) */
    rxq_setup(&q, h, 1, 64, 2048, 0, 0);
    unsigned counted = 0;
    for (unsigned k = 0; k < 200; k++) {
        inject(h, 1, 30 + k, 64, UNICAST, 1);
        counted += rh_read32(h, 1, E1000_RNBC);
    }
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    counted += rh_read32(h, 1, E1000_RNBC);
    CU_ASSERT_EQUAL(counted, 200);
    CU_ASSERT_EQUAL(rh_read32(h, 1, E1000_MPC), 0);     /* 400 rows of 1536 */
    rh_free(h);
}

/* ---- CTRL.RST in the middle of receive traffic --------------------------- */

static void test_ctrl_rst_mid_traffic(void)
{
    unsigned mid_write = 0;
    for (unsigned at = 50; at < 2000; at += 97) {
        rtl_harness *h = rh_new();
        rxq q;
        rxq_setup(&q, h, 0, 64, 1024, 0, 0);
        rxq_fill(&q);
        for (unsigned i = 0; i < 20; i++)
            inject(h, 0, i, 1518, UNICAST, 1);
        rh_steps(h, at);
        mid_write += h->wr_open;
        rh_write(h, 0, E1000_CTRL, E1000_CTRL_RST);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);   /* no hang */
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_CTRL) & E1000_CTRL_RST, 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RCTL), 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDLEN), 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 0);
        /* the port works again once programmed */
        rxq_setup(&q, h, 0, 32, 2048, 0, 0);
        rxq_fill(&q);
        for (unsigned i = 0; i < 5; i++)
            inject(h, 0, 100 + i, 300 + i, UNICAST, 1);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        unsigned bad = 0;
        for (unsigned i = 0; i < 5; i++) {
            int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
            bad += !frame_is(pkt, got, 100 + i, 300 + i, 0);
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 5);
        rh_free(h);
    }
    CU_ASSERT(mid_write > 0);                           /* some resets came during a DMA write */
}

/* CTRL.RST while a write-back burst streams (TX WTHRESH 64: one 1 KiB
 * write of 32 beats): the granted write still delivers its data, nothing
 * hangs, and both directions work after the reset. */
static void test_ctrl_rst_mid_tx_writeback(void)
{
    unsigned inside = 0;
    for (unsigned k = 0; k < 36; k++) {
        rtl_harness *h = rh_new();
        uint64_t tb;
        uint8_t *tr = rh_tx_ring(h, 0, 128, &tb);
        rh_write(h, 0, E1000_TDBAL, (uint32_t)tb);
        rh_write(h, 0, E1000_TDBAH, (uint32_t)(tb >> 32));
        rh_write(h, 0, E1000_TDLEN, 128 * 16);
        rh_write(h, 0, E1000_TXDCTL, 16u << E1000_DCTL_WTHRESH_SHIFT);   /* GRAN 0: 64 */
        rh_write(h, 0, E1000_TCTL, E1000_TCTL_EN);
        for (unsigned i = 0; i < 64; i++)
            tx_put(h, 0, tr, i, i, 60);
        rh_write(h, 0, E1000_TDT, 64);
        long n = 0;
        while (!(h->wr_open && h->wr_len == 64 * 16) && n++ < 100000)
            rh_step(h);
        CU_ASSERT_FATAL(h->wr_open);
        rh_steps(h, k);
        inside += h->wr_open;
        rh_write(h, 0, E1000_CTRL, E1000_CTRL_RST);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);   /* no hang */
        CU_ASSERT_EQUAL(h->wr_open, 0);
        CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_TDH), 0);
        /* both directions work again */
        rxq q;
        rxq_setup(&q, h, 0, 16, 2048, 0, 0);
        rxq_fill(&q);
        rh_write(h, 0, E1000_TDBAL, (uint32_t)tb);
        rh_write(h, 0, E1000_TDBAH, (uint32_t)(tb >> 32));
        rh_write(h, 0, E1000_TDLEN, 128 * 16);
        rh_write(h, 0, E1000_TCTL, E1000_TCTL_EN);
        size_t f0 = h->nframes[0];
        tx_put(h, 0, tr, 0, 77, 100);
        rh_write(h, 0, E1000_TDT, 1);
        inject(h, 0, 5, 200, UNICAST, 1);
        CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
        CU_ASSERT_EQUAL(h->nframes[0], f0 + 1);
        CU_ASSERT_EQUAL(rh_tx_status(tr, 0) & 1, 1);
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        CU_ASSERT(frame_is(pkt, got, 5, 200, 0));
        rh_free(h);
    }
    CU_ASSERT(inside > 20);                             /* most resets came inside the burst */
}

/* ---- descriptor fetch ----------------------------------------------------- */

static unsigned count_fetches(uint32_t rxdctl)
{
    rtl_harness *h = rh_new();
    h->read_latency = 200;
    rxq q;
    rxq_setup(&q, h, 0, 256, 2048, 0, rxdctl);
    rxq_fill(&q);
    unsigned fetches = 0;
    for (unsigned i = 0; i < 200; i++)
        inject(h, 0, i, 64, UNICAST, 1);
    long n = 0;
    while (n++ < MAX_CYC) {
        rh_step(h);
        if (h->out.req_valid && !h->out.req_write && h->out.req_tag == 0x11)
            fetches++;
        if (h->out.idle && h->out.func_idle == 3 && !h->nreads && !h->wr_open && !rh_rx_pending(h, 0) &&
            !h->in.mac_rx_valid)
            break;
    }
    unsigned seq = 0, bad = 0;
    CU_ASSERT_EQUAL(drain(&q, &seq, len_64, 0, &bad), 200);
    CU_ASSERT_EQUAL(bad, 0);
    rh_free(h);
    return fetches;
}

static void test_prefetch_thresholds(void)
{
    unsigned off = count_fetches(E1000_DCTL_GRAN);
    unsigned on = count_fetches(E1000_DCTL_GRAN | 16u | (1u << E1000_DCTL_HTHRESH_SHIFT));
    CU_ASSERT(off >= 4);                                /* 255 descriptors through a 64-entry cache */
    if (!(on > off))
        fprintf(stderr, "fetches: prefetch off %u, on %u\n", off, on);
    CU_ASSERT(on > off);
}

/* A ring that starts 48 bytes before a page: fetches cut at the page. */
static void test_page_split_fetch(void)
{
    rtl_harness *h = rh_new();
    h->split_pages = 1;
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, 0);
    uint64_t bus;
    uint8_t *mem = host_mem_alloc(h->mem, 3 * 4096, 4096, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    q.ring = mem + 4096 - 48;
    q.bus = bus + 4096 - 48;
    for (unsigned i = 0; i < q.n; i++)
        desc_set(&q, i);
    rh_write(h, 0, E1000_RCTL, 0);
    rh_write(h, 0, E1000_RDBAL, (uint32_t)q.bus);
    rh_write(h, 0, E1000_RDBAH, (uint32_t)(q.bus >> 32));
    rh_write(h, 0, E1000_RCTL, RCTL_BASE);
    rxq_fill(&q);
    run_rx(&q, 4 * 64 + 9, 7, len_mixed, 0);
    CU_ASSERT(h->odd_splits > 0);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

/* RDH is taken only with the receiver off and nothing on chip. */
static void test_rdh_write(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 32, 2048, 0, 0);
    rxq_fill(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);       /* descriptors fetched */
    rh_write(h, 0, E1000_RDH, 5);                       /* enabled: ignored */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 0);
    rh_write(h, 0, E1000_RCTL, 0);
    rh_write(h, 0, E1000_RDH, 5);                       /* off, but descriptors on chip: ignored */
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 0);
    /* CTRL.RST empties the cache; then RDH is taken */
    rh_write(h, 0, E1000_CTRL, E1000_CTRL_RST);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    rxq_setup(&q, h, 0, 32, 2048, 0, 0);
    rh_write(h, 0, E1000_RCTL, 0);
    rh_write(h, 0, E1000_RDH, 20);
    rh_write(h, 0, E1000_RDT, 20);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 20);
    rh_write(h, 0, E1000_RCTL, RCTL_BASE);
    q.next = 20;
    rxq_fill(&q);                                       /* RDT = 19: 31 descriptors */
    for (unsigned i = 0; i < 15; i++)
        inject(h, 0, i, 64 + i, UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    unsigned bad = 0;
    for (unsigned i = 0; i < 15; i++) {
        int got = take_packet(&q, pkt, sizeof pkt, NULL, NULL);
        bad += !frame_is(pkt, got, i, 64 + i, 0);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_RDH), 3);     /* 20 + 15 - 32 */
    rh_free(h);
}

/* ---- load --------------------------------------------------------------- */

/* 64-byte frames at 1 Gb/s wire spacing (84 bytes = 84 cycles of 8 ns): all
 * received, nothing missed. */
static void test_wire_rate(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 1024, 2048, 0, 0);
    rxq_fill(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    uint64_t t0 = h->cycle + 10;
    for (unsigned i = 0; i < 1000; i++)
        inject_at(h, 0, t0 + 84ull * i, i, 64);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    unsigned seq = 0, bad = 0;
    CU_ASSERT_EQUAL(drain(&q, &seq, len_64, 0, &bad), 1000);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_MPC), 0);
    CU_ASSERT_EQUAL(rh_read32(h, 0, E1000_GPRC), 1000);
    rh_free(h);
}

/* Frames back to back at one beat per cycle (far above wire speed) with a
 * small buffer: every frame is either delivered intact, in order, or
 * counted in MPC. */
static void test_overload_conserves_frames(void)
{
    rtl_harness *h = rh_new();
    rh_write(h, 0, E1000_PBA, 4);
    rxq q;
    rxq_setup(&q, h, 0, 1024, 2048, 0, 0);
    rxq_fill(&q);
    for (unsigned i = 0; i < 600; i++)
        inject(h, 0, i, len_mixed(i), UNICAST, 1);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    uint32_t mpc = rh_read32(h, 0, E1000_MPC), gprc = rh_read32(h, 0, E1000_GPRC);
    CU_ASSERT(mpc > 0);
    CU_ASSERT_EQUAL(mpc + gprc, 600);
    /* delivered frames are whole and in order (some sequence numbers missing) */
    unsigned got_n = 0, bad = 0, seq = 0;
    int got;
    while ((got = take_packet(&q, pkt, sizeof pkt, NULL, NULL)) >= 0) {
        while (seq < 600 && !frame_is(pkt, got, seq, len_mixed(seq), 0))
            seq++;
        bad += seq == 600;
        seq++;
        got_n++;
    }
    CU_ASSERT_EQUAL(got_n, gprc);
    CU_ASSERT_EQUAL(bad, 0);
    rh_free(h);
}

/* With the receiver configured and no traffic the function is idle: no
 * clock needed, no timer. */
static void test_idle_when_no_frames(void)
{
    rtl_harness *h = rh_new();
    rxq q;
    rxq_setup(&q, h, 0, 64, 2048, 0, 0);
    rh_write(h, 0, E1000_RDTR, 100);
    rh_write(h, 0, E1000_RADV, 200);
    rxq_fill(&q);
    CU_ASSERT_FATAL(rh_run_idle(h, MAX_CYC) > 0);
    CU_ASSERT_EQUAL(h->out.func_idle, 3);
    CU_ASSERT_EQUAL(h->out.next_timer[0], NIC_RTL_NO_TIMER);
    inject(h, 0, 0, 64, UNICAST, 1);
    long n = rh_run_idle(h, MAX_CYC);
    CU_ASSERT_FATAL(n > 0);
    CU_ASSERT_EQUAL(h->out.func_idle, 3);               /* idle again, RDTR/RADV running */
    CU_ASSERT_EQUAL(h->out.next_timer[0], 400);
    rh_free(h);
}

/* ---- clock gating ---------------------------------------------------------- */

typedef struct run_digest {
    size_t nwlog;
    uint64_t wlog_hash, mem_hash, tx_hash;
    uint64_t irq_rises[2], irq_rise_cycle[2];
    uint32_t stats[2][8];
    uint64_t cycles, edges[2];
} run_digest;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* Receive and transmit on both ports with timers, batching, throttling,
 * errors and a CTRL.RST; digest everything observable. */
static void mixed_scenario(int gated, run_digest *d)
{
    rtl_harness *h = rh_new();
    h->gated = gated;
    rxq a, b;
    rxq_setup(&a, h, 0, 64, 512, E1000_RCTL_SBP | E1000_RCTL_LPE, E1000_DCTL_GRAN | (3u << E1000_DCTL_WTHRESH_SHIFT));
    rxq_setup(&b, h, 1, 32, 2048, E1000_RCTL_SECRC, 8u | (2u << E1000_DCTL_HTHRESH_SHIFT));
    rh_write(h, 0, E1000_RDTR, 3);
    rh_write(h, 0, E1000_RADV, 5);
    rh_write(h, 1, E1000_RDTR, 0);
    rh_write(h, 0, E1000_IMS, E1000_ICR_RXT0 | E1000_ICR_RXDMT0 | E1000_ICR_TXDW);
    rh_write(h, 1, E1000_IMS, E1000_ICR_RXT0 | E1000_ICR_RXO);
    rh_write(h, 0, E1000_ITR, 40);
    rxq_fill(&a);
    rxq_fill(&b);
    uint64_t tb;
    uint8_t *tr = rh_tx_ring(h, 0, 64, &tb);
    rh_write(h, 0, E1000_TDBAL, (uint32_t)tb);
    rh_write(h, 0, E1000_TDBAH, (uint32_t)(tb >> 32));
    rh_write(h, 0, E1000_TDLEN, 64 * 16);
    rh_write(h, 0, E1000_TIDV, 2);
    rh_write(h, 0, E1000_TCTL, E1000_TCTL_EN);
    for (unsigned i = 0; i < 30; i++)
        tx_put(h, 0, tr, i, 900 + i, 60 + (i * 53) % 1400);
    uint64_t t0 = h->cycle;
    for (unsigned i = 0; i < 60; i++) {
        uint8_t *f = make_frame(i, len_multi(i), i % 9 == 4 ? BCAST : UNICAST);
        rh_rx_frame_at(h, 0, t0 + 150ull * i, f, len_multi(i), i % 7 != 3);
        free(f);
        f = make_frame(100 + i, len_mixed(i), UNICAST);
        rh_rx_frame_at(h, 1, t0 + 120ull * i, f, len_mixed(i), 1);
        free(f);
    }
    rh_write(h, 0, E1000_TDT, 30);
    rh_steps(h, 3000);
    rh_write(h, 1, E1000_CTRL, E1000_CTRL_RST);         /* in the middle of port 1's traffic */
    rh_steps(h, 500);
    rxq_setup(&b, h, 1, 32, 2048, 0, 0);
    rxq_fill(&b);
    for (unsigned round = 0; round < 200; round++) {
        rh_steps(h, 400);
        unsigned sa = 0, sb = 0;
        while (take_packet(&a, pkt, sizeof pkt, NULL, NULL) >= 0)
            sa++;
        while (take_packet(&b, pkt, sizeof pkt, NULL, NULL) >= 0)
            sb++;
        if (sa)
            rxq_fill(&a);
        if (sb)
            rxq_fill(&b);
        if (round % 5 == 0)
            rh_read32(h, 0, E1000_ICR);
        if (round == 20)
            rh_write(h, 0, E1000_RDTR, E1000_RDTR_FPD | 3);
    }
    CU_ASSERT(rh_run_idle(h, MAX_CYC) > 0);
    /* the digest */
    d->nwlog = h->nwlog;
    uint64_t w = 0xCBF29CE484222325ull;
    for (size_t k = 0; k < h->nwlog; k++) {
        const rh_wr *r = &h->wlog[k];
        w = fnv(w, &r->cycle, 8);
        w = fnv(w, &r->done, 8);
        w = fnv(w, &r->func, 1);
        w = fnv(w, &r->addr, 8);
        w = fnv(w, &r->len, 4);
    }
    d->wlog_hash = w;
    uint64_t m = 0xCBF29CE484222325ull;
    m = fnv(m, a.ring, 64 * 16);
    m = fnv(m, a.bufs, 64 * 512);
    m = fnv(m, b.ring, 32 * 16);
    m = fnv(m, b.bufs, 32 * 2048);
    d->mem_hash = m;
    uint64_t t = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < h->nframes[0]; i++) {
        t = fnv(t, &h->frames[0][i].cycle, 8);
        t = fnv(t, h->frames[0][i].data, h->frames[0][i].len);
    }
    d->tx_hash = t;
    static const uint32_t regs[8] = { E1000_GPRC, E1000_CRCERRS, E1000_MPC, E1000_RNBC, E1000_TPR, E1000_GPTC,
                                      E1000_RDH, E1000_ICR };
    for (int f = 0; f < 2; f++) {
        d->irq_rises[f] = h->irq_rises[f];
        d->irq_rise_cycle[f] = h->irq_rise_cycle[f];
        for (int k = 0; k < 8; k++)
            d->stats[f][k] = rh_read32(h, f, regs[k]);
        d->edges[f] = h->fn_edges[f];
    }
    d->cycles = h->cycle;
    CU_ASSERT(h->nframes[0] == 30);
    CU_ASSERT_EQUAL(h->faults, 0);
    rh_free(h);
}

static void test_gated_clock_identical(void)
{
    run_digest full, gated;
    memset(&full, 0, sizeof full);
    memset(&gated, 0, sizeof gated);
    mixed_scenario(0, &full);
    mixed_scenario(1, &gated);
    CU_ASSERT_EQUAL(full.cycles, gated.cycles);
    CU_ASSERT_EQUAL(full.nwlog, gated.nwlog);
    CU_ASSERT(full.wlog_hash == gated.wlog_hash);       /* every DMA write at the same cycle */
    CU_ASSERT(full.mem_hash == gated.mem_hash);
    CU_ASSERT(full.tx_hash == gated.tx_hash);
    for (int f = 0; f < 2; f++) {
        CU_ASSERT_EQUAL(full.irq_rises[f], gated.irq_rises[f]);
        CU_ASSERT_EQUAL(full.irq_rise_cycle[f], gated.irq_rise_cycle[f]);
        for (int k = 0; k < 8; k++)
            CU_ASSERT_EQUAL(full.stats[f][k], gated.stats[f][k]);
    }
    CU_ASSERT(full.stats[0][0] > 0 && full.stats[1][0] > 0);   /* traffic really flowed */
    CU_ASSERT(full.irq_rises[0] > 0 && full.irq_rises[1] > 0);
    /* and the gating saved most edges */
    CU_ASSERT(gated.edges[0] < full.edges[0] / 2);
    CU_ASSERT(gated.edges[1] < full.edges[1] / 2);
    fprintf(stderr, "edges: always %llu/%llu, gated %llu/%llu of %llu cycles\n",
            (unsigned long long)full.edges[0], (unsigned long long)full.edges[1],
            (unsigned long long)gated.edges[0], (unsigned long long)gated.edges[1],
            (unsigned long long)full.cycles);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("RtlRxEngine", NULL, NULL);
    CU_add_test(s, "RegistersReadBack", test_registers);
    CU_add_test(s, "SingleFrameDescriptorAndStats", test_single_frame);
    CU_add_test(s, "RingWrapSeveralSizes", test_ring_wrap);
    CU_add_test(s, "RdtEqualsRdhMeansNoDescriptors", test_rdt_equals_rdh);
    CU_add_test(s, "MpcOncePerPacketRnbcPerAttempt", test_mpc_and_rnbc);
    CU_add_test(s, "EachBufferSize", test_buffer_sizes);
    CU_add_test(s, "FramesSpreadOverDescriptors", test_multi_descriptor_frames);
    CU_add_test(s, "SecrcOnOff", test_secrc);
    CU_add_test(s, "CrcErrorsSbpOffOn", test_crc_errors_sbp);
    CU_add_test(s, "LengthLimitsRucRfcRocRjcLpe", test_length_limits);
    CU_add_test(s, "AddressFilterBamMpe", test_address_filter);
    CU_add_test(s, "ReceiveAddressesAndMulticastTable", test_receive_addresses);
    CU_add_test(s, "VlanFilter", test_vlan_filter);
    CU_add_test(s, "TwoPortsWithTransmit", test_two_ports_with_tx);
    CU_add_test(s, "InterruptsRxt0Rxdmt0RxoItr", test_interrupts);
    CU_add_test(s, "RdtrRadvTiming", test_rdtr_radv_timing);
    CU_add_test(s, "WthreshBatchingFpdStarved", test_wthresh_batching);
    CU_add_test(s, "StatisticsClearOnRead", test_stats_clear_on_read);
    CU_add_test(s, "CtrlRstMidTrafficNoHang", test_ctrl_rst_mid_traffic);
    CU_add_test(s, "CtrlRstMidTxWriteBackNoHang", test_ctrl_rst_mid_tx_writeback);
    CU_add_test(s, "PrefetchThresholds", test_prefetch_thresholds);
    CU_add_test(s, "PageSplitDescriptorFetch", test_page_split_fetch);
    CU_add_test(s, "RdhWriteOnlyWhenDisabledAndIdle", test_rdh_write);
    CU_add_test(s, "WireRate64Bytes", test_wire_rate);
    CU_add_test(s, "OverloadConservesFrames", test_overload_conserves_frames);
    CU_add_test(s, "IdleWhenNoFrames", test_idle_when_no_frames);
    CU_add_test(s, "GatedClockIdentical", test_gated_clock_identical);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
