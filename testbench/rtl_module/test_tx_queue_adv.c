/* Module-level tests of rtl/tx_queue.v as the 82599's TX queue (FMT 1,
 * advanced descriptors, a 40-entry cache, head write-back), through the C
 * ABI of testbench/rtl_module/tx_queue_adv_shim.h.
 *
 * The environment the queue sees in the 82599 is modelled here: host memory
 * holding the ring, a DMA port that takes every request at once and answers
 * descriptor reads LAT cycles later (two descriptors per 32-byte beat), and
 * the packet buffer's side of the issue interface (a fragment is done LAT
 * cycles after its data read was issued, at once without DMA, in issue
 * order, as tx_pkt_buffer retires them). */
#include "gtest_cunit.h"
#include "tx_queue_adv_shim.h"
#include <stdlib.h>
#include <string.h>

#define RING      64u
#define TDBA      0x10000ull
#define HWB_ADDR  0x20000ull
#define LAT       20u            /* cycles from a read request to its data */
#define MAXEV     512u

/* advanced data descriptor (nic-facts B2) */
#define DTYP_DATA  (0x3ull << 20)
#define DTYP_CTX   (0x2ull << 20)
#define DCMD_EOP   (1ull << 24)
#define DCMD_IFCS  (1ull << 25)
#define DCMD_RS    (1ull << 27)
#define DCMD_DEXT  (1ull << 29)
#define STA_DD     (1ull << 32)

typedef struct issue_ev { uint16_t len; uint8_t dma, eop, ifcs; } issue_ev;
typedef struct write_ev { uint64_t addr; uint16_t len; uint8_t data[RING * 16]; } write_ev;

static struct env {
    txq_model *m;
    txq_in in;
    txq_out out;
    uint8_t ring[RING * 16];
    uint32_t hwb;                 /* the head write-back dword in host memory */
    /* descriptor reads in flight, answered in request order */
    struct dread { uint64_t addr; uint32_t left, due; } dq[4];
    unsigned dq_head, dq_n, max_dq;
    /* fragments issued, retired in order */
    uint32_t frag_due[64];
    uint32_t frag_head, frag_n;
    uint32_t cycle;
    /* what the queue did */
    issue_ev issues[MAXEV];
    unsigned nissues;
    unsigned fetches, fetch_descs[MAXEV];
    write_ev *writes;
    unsigned nwrites;
    write_ev *wcur;               /* write whose beats are streaming */
    uint32_t wgot;
    unsigned data_reads;
    unsigned max_tags;            /* fragments in flight the buffer allows; 0 = no limit */
    uint32_t fetch_cycle[MAXEV];  /* when each descriptor read was requested */
} e;

static void put_desc(unsigned i, uint64_t addr, uint16_t len, uint64_t cmd)
{
    uint64_t qw1 = len | cmd | DCMD_DEXT;
    memcpy(e.ring + i * 16, &addr, 8);
    memcpy(e.ring + i * 16 + 8, &qw1, 8);
}

static uint64_t qw1_of(unsigned i)
{
    uint64_t v;
    memcpy(&v, e.ring + i * 16 + 8, 8);
    return v;
}

static void env_up(uint8_t pthresh, uint8_t hthresh, uint8_t wthresh, int hwb)
{
    memset(&e, 0, sizeof e);
    e.writes = calloc(MAXEV, sizeof *e.writes);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.writes);
    e.m = txq_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(e.m);
    e.in = (txq_in){ .prst = 1, .rst = 1, .gran = 1, .tag_free = 1, .buf_idle = 1,
                     .req_ready = 1, .pthresh = pthresh, .hthresh = hthresh, .wthresh = wthresh,
                     .ring_size = RING, .size_bytes = 40960, .free_bytes = 40960,
                     .tdba = TDBA, .hwb_en = (uint8_t)hwb, .hwb_addr = HWB_ADDR };
    for (int k = 0; k < 3; k++)
        txq_cycle(e.m, &e.in, &e.out);
    e.in.prst = e.in.rst = 0;
    e.in.en = 1;
}

static void env_down(void)
{
    txq_free(e.m);
    free(e.writes);
    e.m = NULL;
}

/* One cycle: present this cycle's inputs, run the edge, record what it did. */
static void step(void)
{
    txq_in *in = &e.in;
    /* a descriptor beat is due */
    in->dcpl_valid = 0;
    struct dread *dr = &e.dq[e.dq_head % 4];
    if (e.dq_n && dr->due <= e.cycle) {
        in->dcpl_valid = 1;
        memset(in->dcpl_data, 0, 32);
        uint32_t n = dr->left >= 2 ? 2 : dr->left;
        memcpy(in->dcpl_data, e.ring + (dr->addr - TDBA), n * 16);
    }
    /* the oldest fragment is done */
    in->frag_done = e.frag_n && e.frag_due[e.frag_head % 64] <= e.cycle;
    in->next_tag = (uint8_t)((e.frag_head + e.frag_n) % 16);
    in->tag_free = !e.max_tags || e.frag_n < e.max_tags;
    in->buf_idle = e.frag_n == 0;
    in->tick = 0;

    txq_cycle(e.m, in, &e.out);
    const txq_out *o = &e.out;

    if (in->dcpl_valid) {
        uint32_t n = dr->left >= 2 ? 2 : dr->left;
        dr->addr += n * 16;
        dr->left -= n;
        if (dr->left == 0) {
            e.dq_head++;
            e.dq_n--;
        }
    }
    if (in->frag_done) {
        e.frag_head++;
        e.frag_n--;
    }
    if (o->issue_valid) {
        CU_ASSERT_FATAL(e.nissues < MAXEV);
        e.issues[e.nissues++] = (issue_ev){ o->issue_len, o->issue_dma, o->issue_eop, o->issue_ifcs };
        CU_ASSERT_FATAL(e.frag_n < 64);
        e.frag_due[(e.frag_head + e.frag_n) % 64] = e.cycle + (o->issue_dma ? LAT : 1);
        e.frag_n++;
    }
    if (o->req_valid && in->req_ready) {
        if (o->req_write) {
            CU_ASSERT_FATAL(e.nwrites < MAXEV);
            e.wcur = &e.writes[e.nwrites++];
            e.wcur->addr = o->req_addr;
            e.wcur->len = o->req_len;
            e.wgot = 0;
        } else if (o->req_tag == 0x10) {
            CU_ASSERT_FATAL(e.dq_n < 2);             /* at most two descriptor reads */
            CU_ASSERT_FATAL(e.fetches < MAXEV);
            e.dq[(e.dq_head + e.dq_n++) % 4] = (struct dread){ o->req_addr, o->req_len / 16u, e.cycle + LAT };
            if (e.dq_n > e.max_dq)
                e.max_dq = e.dq_n;
            e.fetch_cycle[e.fetches] = e.cycle;
            e.fetch_descs[e.fetches++] = o->req_len / 16u;
        } else {
            e.data_reads++;
        }
    }
    if (o->wvalid) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(e.wcur);
        uint32_t n = e.wcur->len - e.wgot < 32u ? e.wcur->len - e.wgot : 32u;
        memcpy(e.wcur->data + e.wgot, o->wdata, n);
        e.wgot += n;
        if (o->wlast) {
            CU_ASSERT_EQUAL(e.wgot, e.wcur->len);
            /* into host memory */
            if (e.wcur->addr == HWB_ADDR)
                memcpy(&e.hwb, e.wcur->data, 4);
            else if (e.wcur->addr >= TDBA && e.wcur->addr + e.wcur->len <= TDBA + sizeof e.ring)
                memcpy(e.ring + (e.wcur->addr - TDBA), e.wcur->data, e.wcur->len);
            else
                CU_FAIL("write outside the ring and the head write-back dword");
            e.wcur = NULL;
        }
    }
    e.cycle++;
}

static void run(unsigned cycles)
{
    for (unsigned k = 0; k < cycles; k++)
        step();
}

/* ---- tests --------------------------------------------------------------- */

/* Data descriptors: length, EOP and IFCS as the advanced DCMD sets them; the
 * RS descriptor alone gets DD back (WTHRESH 0: a status write at byte 12). */
static void test_data_descriptors(void)
{
    env_up(0, 0, 0, 0);
    put_desc(0, 0x100000, 60, DTYP_DATA | DCMD_IFCS | DCMD_EOP);
    put_desc(1, 0x101000, 100, DTYP_DATA | DCMD_IFCS);
    put_desc(2, 0x102000, 1414, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 3;
    run(200);
    CU_ASSERT_EQUAL_FATAL(e.nissues, 3);
    static const issue_ev want[3] = { { 60, 1, 1, 1 }, { 100, 1, 0, 1 }, { 1414, 1, 1, 1 } };
    for (unsigned k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(e.issues[k].len, want[k].len);
        CU_ASSERT_EQUAL(e.issues[k].dma, want[k].dma);
        CU_ASSERT_EQUAL(e.issues[k].eop, want[k].eop);
        CU_ASSERT_EQUAL(e.issues[k].ifcs, want[k].ifcs);
    }
    CU_ASSERT_EQUAL(e.data_reads, 3);
    CU_ASSERT_EQUAL(e.nwrites, 1);
    CU_ASSERT_EQUAL(e.writes[0].addr, TDBA + 2 * 16 + 12);
    CU_ASSERT_EQUAL(e.writes[0].len, 4);
    CU_ASSERT((qw1_of(2) & STA_DD) != 0);
    CU_ASSERT((qw1_of(0) & STA_DD) == 0);
    CU_ASSERT((qw1_of(1) & STA_DD) == 0);
    CU_ASSERT_EQUAL(e.out.tdh, 3);
    env_down();
}

/* A context descriptor (DTYP 0010) carries no data and ends no packet: it
 * goes to the packet buffer as a zero-length fragment without a read. */
static void test_context_descriptor(void)
{
    env_up(0, 0, 0, 0);
    put_desc(0, 0, 0x1234, DTYP_CTX);
    put_desc(1, 0x100000, 60, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 2;
    run(200);
    CU_ASSERT_EQUAL_FATAL(e.nissues, 2);
    CU_ASSERT_EQUAL(e.issues[0].len, 0);
    CU_ASSERT_EQUAL(e.issues[0].dma, 0);
    CU_ASSERT_EQUAL(e.issues[0].eop, 0);
    CU_ASSERT_EQUAL(e.issues[1].len, 60);
    CU_ASSERT_EQUAL(e.issues[1].eop, 1);
    CU_ASSERT_EQUAL(e.data_reads, 1);
    CU_ASSERT((qw1_of(1) & STA_DD) != 0);
    env_down();
}

/* Head write-back: the head index goes to TDWBA; no descriptor gets DD. */
static void test_head_write_back(void)
{
    env_up(0, 0, 0, 1);
    for (unsigned k = 0; k < 5; k++)
        put_desc(k, 0x100000 + k * 0x800, 60, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 5;
    run(300);
    CU_ASSERT_EQUAL(e.nissues, 5);
    CU_ASSERT(e.nwrites >= 1);
    for (unsigned k = 0; k < e.nwrites; k++) {
        CU_ASSERT_EQUAL(e.writes[k].addr, HWB_ADDR);
        CU_ASSERT_EQUAL(e.writes[k].len, 4);
    }
    CU_ASSERT_EQUAL(e.hwb, 5);
    for (unsigned k = 0; k < 5; k++)
        CU_ASSERT((qw1_of(k) & STA_DD) == 0);
    env_down();
}

/* The on-chip cache holds 40 descriptors: with 60 waiting, a fetch into the
 * empty cache asks for 40, and all 60 are sent in the end. */
static void test_cache_of_40(void)
{
    env_up(0, 0, 0, 0);
    for (unsigned k = 0; k < 60; k++)
        put_desc(k, 0x100000 + k * 0x800, 60, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 60;
    run(1500);
    CU_ASSERT_FATAL(e.fetches >= 2);
    CU_ASSERT_EQUAL(e.fetch_descs[0], 40);
    unsigned total = 0;
    for (unsigned k = 0; k < e.fetches; k++) {
        CU_ASSERT(e.fetch_descs[k] <= 40);
        total += e.fetch_descs[k];
    }
    CU_ASSERT_EQUAL(total, 60);
    CU_ASSERT_EQUAL(e.nissues, 60);
    CU_ASSERT_EQUAL(e.out.tdh, 60);
    env_down();
}

/* PTHRESH: without it the next fetch waits until no unprocessed descriptor
 * is left on chip; with PTHRESH 32 and HTHRESH 1 it starts as soon as the
 * tail offers more while fewer than 32 wait on chip.  Data reads are slow
 * here (4 fragments in flight, LAT cycles each), so the 20 descriptors of the
 * first fetch take long to drain. */
static uint32_t second_fetch_delay(uint8_t pthresh)
{
    env_up(pthresh, pthresh ? 1 : 0, 0, 0);
    e.max_tags = 4;
    for (unsigned k = 0; k < RING - 1; k++)
        put_desc(k, 0x100000 + k * 0x800, 60, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 20;
    while (e.nissues < 2)               /* the first fetch is in, data is flowing */
        step();
    e.in.tdt = 50;
    uint32_t bump = e.cycle;
    while (e.fetches < 2 && e.cycle < 5000)
        step();
    CU_ASSERT_EQUAL(e.fetches, 2);
    CU_ASSERT_EQUAL(e.fetch_descs[0], 20);
    uint32_t d = e.fetch_cycle[1] - bump;
    env_down();
    return d;
}

static void test_prefetch_threshold(void)
{
    uint32_t without = second_fetch_delay(0), with = second_fetch_delay(32);
    /* with: as soon as the first fetch's last beat is in (8 cycles here);
     * without: only once the 20 have been processed (119 cycles here) */
    CU_ASSERT(with < LAT);
    CU_ASSERT(without > 3 * LAT);
}

/* The 82599 model (FETCH2): two descriptor reads may be outstanding.  With
 * PTHRESH 32 / HTHRESH 1, a tail bump while the first read is in flight
 * starts a second read at once; the descriptors of both arrive in ring
 * order and all 30 are sent. */
static void test_two_fetches_outstanding(void)
{
    env_up(32, 1, 0, 0);
    for (unsigned k = 0; k < 30; k++)
        put_desc(k, 0x100000 + k * 0x800, 60 + k, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 10;
    while (e.fetches < 1)
        step();
    e.in.tdt = 30;
    run(LAT / 2);
    CU_ASSERT_EQUAL(e.fetches, 2);
    CU_ASSERT_EQUAL(e.max_dq, 2);
    CU_ASSERT(e.fetch_cycle[1] < e.fetch_cycle[0] + LAT);
    CU_ASSERT_EQUAL(e.fetch_descs[0], 10);
    CU_ASSERT_EQUAL(e.fetch_descs[1], 20);
    run(1500);
    CU_ASSERT_EQUAL_FATAL(e.nissues, 30);
    for (unsigned k = 0; k < 30; k++)
        CU_ASSERT_EQUAL(e.issues[k].len, 60 + k);      /* ring order across both reads */
    CU_ASSERT_EQUAL(e.out.tdh, 30);
    env_down();
}

/* Without prefetch (PTHRESH 0) the 82599 model fetches into an empty cache
 * only: every descriptor done and written back, not merely handed to the
 * data engine.  Four descriptors are issued; a tail bump right then waits
 * until the last of them is done (LAT cycles after its issue) and its
 * status is written. */
static void test_fetch_waits_for_empty_cache(void)
{
    env_up(0, 0, 0, 0);
    for (unsigned k = 0; k < 8; k++)
        put_desc(k, 0x100000 + k * 0x800, 60, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 4;
    while (e.nissues < 4 && e.cycle < 1000)
        step();
    uint32_t last_issue = e.cycle - 1;
    e.in.tdt = 8;
    while (e.fetches < 2 && e.cycle < 2000)
        step();
    CU_ASSERT_EQUAL_FATAL(e.fetches, 2);
    CU_ASSERT(e.fetch_cycle[1] >= last_issue + LAT);
    CU_ASSERT(e.nwrites >= 4);                         /* the four status writes came first */
    run(500);
    CU_ASSERT_EQUAL(e.nissues, 8);
    CU_ASSERT_EQUAL(e.out.tdh, 8);
    env_down();
}

/* WTHRESH 8: three RS packets wait in the batch; TXDCTL.SWFLSH (a one-cycle
 * strobe) writes them back at once, in one write of whole descriptors. */
static void test_software_flush(void)
{
    env_up(0, 0, 8, 0);
    for (unsigned k = 0; k < 3; k++)
        put_desc(k, 0x100000 + k * 0x800, 60, DTYP_DATA | DCMD_IFCS | DCMD_EOP | DCMD_RS);
    e.in.tdt = 3;
    run(300);
    CU_ASSERT_EQUAL(e.nissues, 3);
    CU_ASSERT_EQUAL(e.nwrites, 0);              /* the batch is not full */
    for (unsigned k = 0; k < 3; k++)
        CU_ASSERT((qw1_of(k) & STA_DD) == 0);
    e.in.swflsh = 1;
    step();
    e.in.swflsh = 0;
    run(50);
    CU_ASSERT_EQUAL_FATAL(e.nwrites, 1);
    CU_ASSERT_EQUAL(e.writes[0].addr, TDBA);
    CU_ASSERT_EQUAL(e.writes[0].len, 3 * 16);
    for (unsigned k = 0; k < 3; k++)
        CU_ASSERT((qw1_of(k) & STA_DD) != 0);
    CU_ASSERT_EQUAL(e.out.tdh, 3);
    env_down();
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("TxQueueAdvanced", NULL, NULL);
    CU_add_test(s, "DataDescriptors", test_data_descriptors);
    CU_add_test(s, "ContextDescriptor", test_context_descriptor);
    CU_add_test(s, "HeadWriteBack", test_head_write_back);
    CU_add_test(s, "CacheOf40", test_cache_of_40);
    CU_add_test(s, "PrefetchThreshold", test_prefetch_threshold);
    CU_add_test(s, "SoftwareFlush", test_software_flush);
    CU_add_test(s, "TwoFetchesOutstanding", test_two_fetches_outstanding);
    CU_add_test(s, "FetchWaitsForEmptyCache", test_fetch_waits_for_empty_cache);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
