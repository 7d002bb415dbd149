/* Tests of the device adapter (sim/device/nic_adapter.c) with the real RTL behind it
 * and a small fake bus in front: beat packing of reads that arrive in pieces,
 * the MMIO queue limit, and frames longer than 16 KiB reaching the link. */
#include <CUnit/CUnit.h>
#include <pcap/pcap.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gtest_cunit.h"
#include "../../sim/device/nic_adapter.h"
#include "../../models/link_sink.h"
#include "../../models/link_wire.h"
#include "../../driver/e1000/e1000_regs.h"

#define MEM_BASE 0x10000000ull

/* ---- a fake bus: reads answered in pieces cut at 4 KiB and MMRBC ------- */

enum { FB_PIECES = 4096, FB_MMRBC = 2048 };

typedef struct fb_piece {
    int func;
    uint32_t tag, len;
    uint64_t addr;
    int last;
} fb_piece;

typedef struct fake_bus {
    sched *s;
    nic_adapter *a;
    ps_t latency;
    fb_piece pieces[FB_PIECES];
    unsigned next_piece;
    unsigned n_pieces, odd_splits;
    int replies;
    uint32_t reply;
    unsigned writes;
    ps_t first_write, last_write;   /* times of DMA write requests */
} fake_bus;

static void fb_piece_ev(void *ctx, uint64_t arg)
{
    fake_bus *b = ctx;
    fb_piece *p = &b->pieces[arg];
    nic_adapter_read_data(b->a, p->func, p->tag, p->addr, p->len, p->last, b->s->now);
}

static void fb_dma_read(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    fake_bus *b = impl;
    uint32_t off = 0;
    while (off < len) {
        uint64_t a = addr + off;
        uint32_t n = len - off;
        if (n > FB_MMRBC)
            n = FB_MMRBC;
        if ((a & 4095u) + n > 4096u)
            n = 4096u - (uint32_t)(a & 4095u);
        unsigned i = b->next_piece++ % FB_PIECES;
        b->pieces[i] = (fb_piece){ func, tag, n, a, off + n >= len };
        off += n;
        if (off < len && off % NIC_RTL_BEAT)
            b->odd_splits++;
        b->n_pieces++;
        /* pieces of one read arrive in address order, one bus slot apart */
        sched_at(b->s, t + b->latency + (ps_t)b->n_pieces * 10000, fb_piece_ev, b, i);
    }
}

static void fb_write_done_ev(void *ctx, uint64_t arg)
{
    fake_bus *b = ctx;
    nic_adapter_write_done(b->a, (int)(arg >> 32), (uint32_t)arg, b->s->now);
}

static void fb_dma_write(void *impl, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t)
{
    fake_bus *b = impl;
    (void)addr;
    (void)len;
    if (!b->writes++)
        b->first_write = t;
    b->last_write = t;
    sched_at(b->s, t + b->latency, fb_write_done_ev, b, (uint64_t)func << 32 | tag);
}

static void fb_mmio_read_reply(void *impl, uint32_t val, ps_t t)
{
    fake_bus *b = impl;
    (void)t;
    b->reply = val;
    b->replies++;
}

static void fb_unused_mmio_write(void *impl, int func, uint32_t off, uint32_t val, ps_t t)
{
    (void)impl, (void)func, (void)off, (void)val, (void)t;
}

static void fb_unused_mmio_read(void *impl, int func, uint32_t off, ps_t t)
{
    (void)impl, (void)func, (void)off, (void)t;
}

static const host_bus_ops fb_ops = { fb_dma_read, fb_dma_write, fb_mmio_read_reply, fb_unused_mmio_write,
                                     fb_unused_mmio_read };

/* ---- a test system: scheduler, memory, adapter, links ------------------ */

typedef struct tsys {
    sched s;
    host_mem *mem;
    nic_adapter a;
    fake_bus bus;
    link_wire wire[NIC_RTL_PORTS];
    link_sink *sink;
} tsys;

static void tsys_init(tsys *t, const char *pcap0)
{
    memset(t, 0, sizeof *t);
    sched_init(&t->s);
    t->mem = host_mem_new(MEM_BASE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t->mem);
    char err[256] = "";
    if (pcap0) {
        t->sink = link_sink_new(pcap0, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t->sink);
    }
    link_wire *w[NIC_RTL_PORTS];
    for (int p = 0; p < NIC_RTL_PORTS; p++) {
        link_wire_init(&t->wire[p], 1.0, p == 0 ? link_wire_to_sink : NULL, t->sink);
        w[p] = &t->wire[p];
    }
    nic_rtl_straps st = { .link_up = 3, .pcix_mode = 1, .pcix_speed = 2, .bus64 = 1, .pci66 = 0 };
    CU_ASSERT_EQUAL_FATAL(nic_adapter_init(&t->a, &t->s, nic_mem_port_host(t->mem), 125.0, &st, w), 0);
    t->bus.s = &t->s;
    t->bus.a = &t->a;
    t->bus.latency = 600 * PS_PER_NS;
    t->a.bus.ops = &fb_ops;
    t->a.bus.impl = &t->bus;
}

static void tsys_free(tsys *t)
{
    char err[256] = "";
    nic_adapter_fini(&t->a);
    if (t->sink)
        CU_ASSERT_EQUAL(link_sink_close(t->sink, err, sizeof err), 0);
    host_mem_free(t->mem);
    sched_free(&t->s);
}

/* Events and RTL edges up to time limit (the loop of sim/system/timing.c). */
static void tsys_run(tsys *t, ps_t limit)
{
    for (;;) {
        ps_t te = sched_next_time(&t->s), tc = nic_adapter_next_edge(&t->a);
        if (te <= tc) {
            if (te > limit)
                break;
            sched_run_one(&t->s, limit);
        } else {
            if (tc > limit)
                break;
            nic_adapter_edge(&t->a);
        }
    }
    if (limit > t->s.now)
        t->s.now = limit;
}

static void tsys_write(tsys *t, int func, uint32_t off, uint32_t val)
{
    nic_adapter_mmio_write(&t->a, func, off, val, t->s.now);
    tsys_run(t, t->s.now + 100 * PS_PER_NS);
}

static uint32_t tsys_read(tsys *t, int func, uint32_t off)
{
    int before = t->bus.replies;
    nic_adapter_mmio_read(&t->a, func, off, t->s.now);
    tsys_run(t, t->s.now + 100 * PS_PER_NS);
    CU_ASSERT_FATAL(t->bus.replies == before + 1);
    return t->bus.reply;
}

/* ---- beat packing ------------------------------------------------------ */

/* The completion beats queued so far, as one byte string (and their count). */
static unsigned queued_beats(const nic_adapter *a, uint8_t *out, int func, uint32_t tag)
{
    unsigned n = 0;
    for (unsigned i = 0; i < a->cq_len; i++) {
        const nic_cpl_beat *b = &a->cq[(a->cq_head + i) % NIC_CPL_Q];
        CU_ASSERT_EQUAL(b->func, func);
        CU_ASSERT_EQUAL(b->tag, tag);
        memcpy(out + NIC_RTL_BEAT * n++, b->data, NIC_RTL_BEAT);
    }
    return n;
}

/* A 100-byte read that arrives as pieces of 16, 48 and 36 bytes (a cut 16
 * bytes before a page, as for a descriptor fetch) gives beats of 32, 32, 32
 * and a last one of 4 bytes: every beat but the last is full. */
static void test_read_pieces_pack_continuously(void)
{
    tsys t;
    tsys_init(&t, NULL);
    uint64_t bus;
    uint8_t *m = host_mem_alloc(t.mem, 8192, 4096, &bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    for (unsigned i = 0; i < 8192; i++)
        m[i] = (uint8_t)(i * 13 + 5);
    uint64_t a0 = bus + 4096 - 16;
    nic_adapter_read_data(&t.a, 1, 0x10, a0, 16, 0, 0);
    CU_ASSERT_EQUAL(t.a.cq_len, 0);                    /* half a beat: it waits */
    nic_adapter_read_data(&t.a, 1, 0x10, a0 + 16, 48, 0, 0);
    CU_ASSERT_EQUAL(t.a.cq_len, 2);
    /* another tag in between does not disturb the first one's partial beat */
    nic_adapter_read_data(&t.a, 0, 3, bus, 8, 1, 0);
    CU_ASSERT_EQUAL(t.a.cq_len, 3);
    nic_cpl_beat other = t.a.cq[(t.a.cq_head + 2) % NIC_CPL_Q];
    t.a.cq_len = 2;
    t.a.fn_inputs[0]--;
    CU_ASSERT_EQUAL(other.func, 0);
    CU_ASSERT_EQUAL(other.tag, 3);
    CU_ASSERT_EQUAL(memcmp(other.data, m, 8), 0);
    nic_adapter_read_data(&t.a, 1, 0x10, a0 + 64, 36, 1, 0);
    uint8_t got[8 * NIC_RTL_BEAT];
    unsigned n = queued_beats(&t.a, got, 1, 0x10);
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(memcmp(got, m + 4096 - 16, 100), 0);
    for (unsigned i = 100; i < 128; i++)
        CU_ASSERT_EQUAL(got[i], 0);                    /* the short last beat is zero-padded */
    CU_ASSERT_EQUAL(t.a.fn_inputs[1], 4);
    /* nothing is left over for the next read of the tag */
    t.a.cq_len = 0;
    t.a.fn_inputs[1] = 0;
    nic_adapter_read_data(&t.a, 1, 0x10, bus, 32, 1, 0);
    CU_ASSERT_EQUAL(queued_beats(&t.a, got, 1, 0x10), 1);
    CU_ASSERT_EQUAL(memcmp(got, m, 32), 0);
    t.a.cq_len = 0;
    t.a.fn_inputs[1] = 0;
    /* a master abort gives all ones for its bytes */
    nic_adapter_read_data(&t.a, 1, 5, 0x100, 40, 1, 0);
    CU_ASSERT_EQUAL(queued_beats(&t.a, got, 1, 5), 2);
    for (unsigned i = 0; i < 40; i++)
        CU_ASSERT_EQUAL(got[i], 0xFF);
    CU_ASSERT_EQUAL(t.a.st.master_aborts, 1);
    t.a.cq_len = 0;
    t.a.fn_inputs[1] = 0;
    tsys_free(&t);
}

/* ---- the MMIO queue ---------------------------------------------------- */

/* More MMIO accesses than the queue holds end the run with a message, for
 * reads as for writes (instead of overwriting queued accesses). */
static int child_overflows(int reads)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        /* the expected "MMIO queue overflow" message is not test output */
        if (!freopen("/dev/null", "w", stderr))
            _exit(2);
        tsys t;
        tsys_init(&t, NULL);
        for (int i = 0; i <= NIC_MMIO_Q; i++) {
            if (reads)
                nic_adapter_mmio_read(&t.a, 0, E1000_STATUS, 0);
            else
                nic_adapter_mmio_write(&t.a, 0, E1000_TIDV, (uint32_t)i, 0);
        }
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void test_mmio_queue_full_aborts(void)
{
    CU_ASSERT_EQUAL(child_overflows(0), 1);
    CU_ASSERT_EQUAL(child_overflows(1), 1);
    /* a full queue of reads is fine and answered in order */
    tsys t;
    tsys_init(&t, NULL);
    for (int i = 0; i < NIC_MMIO_Q; i++)
        nic_adapter_mmio_read(&t.a, i & 1, E1000_STATUS, 0);
    tsys_run(&t, 10 * PS_PER_US);
    CU_ASSERT_EQUAL(t.bus.replies, NIC_MMIO_Q);
    tsys_free(&t);
}

/* ---- frames longer than 16 KiB ----------------------------------------- */

/* With the whole 64 KiB packet memory for TX (PBA = 0) the RTL sends frames
 * of up to 65535 bytes; the adapter must hand the link every byte.  The data
 * starts at an odd offset so that its reads are cut at pages and MMRBC
 * between beats. */
static void big_frames(uint32_t len1, uint32_t len2)
{
    char path[] = "/tmp/nicsim_adapter_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(path));
    char pcap[sizeof path + 16];
    snprintf(pcap, sizeof pcap, "%s/p.pcap", path);
    tsys t;
    tsys_init(&t, pcap);

    uint64_t ring_bus, buf_bus;
    uint8_t *ring = host_mem_alloc(t.mem, 8 * 16, 128, &ring_bus);
    uint8_t *buf = host_mem_alloc(t.mem, 2 * 65536 + 4096, 4096, &buf_bus);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ring);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    const uint32_t lens[2] = { len1, len2 };
    uint32_t at = 13;
    for (int k = 0; k < 2; k++) {
        for (uint32_t i = 0; i < lens[k]; i++)
            buf[at + i] = (uint8_t)(k * 101 + i * 7 + i / 251);
        /* two descriptors per frame: a 14-byte header and the rest */
        uint8_t *d = ring + 32 * k;
        uint64_t a0 = buf_bus + at, a1 = buf_bus + at + 14;
        uint16_t l0 = 14, l1 = (uint16_t)(lens[k] - 14);
        memcpy(d, &a0, 8);
        memcpy(d + 8, &l0, 2);
        d[11] = E1000_TXD_CMD_IFCS;
        memcpy(d + 16, &a1, 8);
        memcpy(d + 24, &l1, 2);
        d[27] = E1000_TXD_CMD_IFCS | E1000_TXD_CMD_EOP | E1000_TXD_CMD_RS;
        at += lens[k] + 3;
    }
    tsys_write(&t, 0, E1000_PBA, 0);                   /* RX 0 KiB: TX gets all 64 KiB */
    CU_ASSERT_EQUAL(tsys_read(&t, 0, E1000_PBA), 64u << 16);
    tsys_write(&t, 0, E1000_TDBAL, (uint32_t)ring_bus);
    tsys_write(&t, 0, E1000_TDBAH, (uint32_t)(ring_bus >> 32));
    tsys_write(&t, 0, E1000_TDLEN, 8 * 16);
    tsys_write(&t, 0, E1000_TDH, 0);
    tsys_write(&t, 0, E1000_TDT, 0);
    tsys_write(&t, 0, E1000_TCTL, E1000_TCTL_EN);
    tsys_write(&t, 0, E1000_TDT, 4);
    tsys_run(&t, 2000 * PS_PER_US);
    CU_ASSERT_EQUAL(t.bus.odd_splits > 0, 1);
    CU_ASSERT_EQUAL(t.a.st.master_aborts, 0);
    CU_ASSERT_EQUAL(t.wire[0].frames, 2);
    CU_ASSERT_EQUAL(tsys_read(&t, 0, E1000_GPTC), 2);
    CU_ASSERT_EQUAL(tsys_read(&t, 0, E1000_TDH), 4);
    tsys_free(&t);

    /* the capture holds both frames, every byte */
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t *pc = pcap_open_offline_with_tstamp_precision(pcap, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
    struct pcap_pkthdr *h;
    const u_char *d;
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL_FATAL(pcap_next_ex(pc, &h, &d), 1);
        CU_ASSERT_EQUAL(h->len, lens[k]);
        CU_ASSERT_EQUAL(h->caplen, lens[k]);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < h->caplen && i < lens[k]; i++)
            bad += d[i] != (uint8_t)(k * 101 + i * 7 + i / 251);
        CU_ASSERT_EQUAL(bad, 0);
    }
    pcap_close(pc);
    unlink(pcap);
    rmdir(path);
}

static void test_frames_longer_than_16k(void)
{
    big_frames(20000, 16385);
    big_frames(65535, 60);
}

/* ---- received frames --------------------------------------------------- */

/* Frames queued with nic_adapter_rx_frame reach host memory through the RTL
 * in order, not before their time, on both ports; between frames the RTL
 * is not clocked; frames the adapter cannot queue are counted. */
static void test_rx_frames_reach_host_memory(void)
{
    tsys t;
    tsys_init(&t, NULL);
    uint64_t ring_bus[2], buf_bus[2];
    uint8_t *ring[2], *buf[2];
    for (int p = 0; p < 2; p++) {
        ring[p] = host_mem_alloc(t.mem, 64 * 16, 128, &ring_bus[p]);
        buf[p] = host_mem_alloc(t.mem, 64 * 2048, 64, &buf_bus[p]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ring[p]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(buf[p]);
        for (int i = 0; i < 64; i++) {
            uint64_t a = buf_bus[p] + 2048u * (unsigned)i;
            memcpy(ring[p] + 16 * i, &a, 8);
        }
        tsys_write(&t, p, E1000_RDBAL, (uint32_t)ring_bus[p]);
        tsys_write(&t, p, E1000_RDBAH, (uint32_t)(ring_bus[p] >> 32));
        tsys_write(&t, p, E1000_RDLEN, 64 * 16);
        /* UPE: the frames' destination addresses are byte patterns */
        tsys_write(&t, p, E1000_RCTL, E1000_RCTL_EN | E1000_RCTL_BAM | E1000_RCTL_UPE);
        tsys_write(&t, p, E1000_RDT, 63);
    }
    tsys_run(&t, t.s.now + 10 * PS_PER_US);
    CU_ASSERT_EQUAL(t.a.active, 0);                      /* descriptors fetched: nothing to do */
    uint64_t edges0 = t.a.st.cycles;
    /* port 0: 20 frames, one every 2 us from 100 us on; port 1: 20 frames
     * all due at once (delivered back to back) */
    ps_t t0 = 100 * PS_PER_US;
    uint8_t f[1600];
    for (unsigned k = 0; k < 20; k++) {
        uint32_t len = 64 + k * 70;
        for (uint32_t i = 0; i < len; i++)
            f[i] = (uint8_t)(k * 29 + i * 3 + 1);
        f[0] = 0x02;                                     /* unicast */
        nic_adapter_rx_frame(&t.a, 0, t0 + k * 2 * PS_PER_US, f, len, 1);
        f[0] = 0x04;
        nic_adapter_rx_frame(&t.a, 1, t0, f, len, k != 5);   /* frame 5: bad FCS, dropped */
    }
    /* a frame stamped earlier than the one ahead of it keeps its place */
    f[0] = 0x02;
    nic_adapter_rx_frame(&t.a, 0, t0 - PS_PER_US, f, 64, 1);
    tsys_run(&t, t0 - PS_PER_US);
    CU_ASSERT_EQUAL(t.a.st.cycles, edges0);              /* nothing before the first frame is due */
    CU_ASSERT_EQUAL(t.bus.writes, 0);
    tsys_run(&t, t0 + 60 * PS_PER_US);
    CU_ASSERT(t.bus.first_write >= t0);
    CU_ASSERT(t.bus.first_write < t0 + 200 * PS_PER_NS);
    CU_ASSERT_EQUAL(t.a.st.rx_frames[0], 21);
    CU_ASSERT_EQUAL(t.a.st.rx_frames[1], 20);
    /* the RTL slept between port 0's frames (2 us = 250 edges apart) */
    CU_ASSERT(t.a.st.cycles - edges0 < 21 * 120);
    for (int p = 0; p < 2; p++) {
        unsigned d = 0, bad = 0;
        for (unsigned k = 0; k < 20; k++) {
            if (p == 1 && k == 5)
                continue;
            uint32_t len = 64 + k * 70;
            uint16_t dl;
            memcpy(&dl, ring[p] + 16 * d + 8, 2);
            uint8_t st = ring[p][16 * d + 12];
            bad += dl != len || (st & 3) != 3;
            for (uint32_t i = 1; i < len; i++)
                bad += buf[p][2048 * d + i] != (uint8_t)(k * 29 + i * 3 + 1);
            d++;
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
    CU_ASSERT_EQUAL(tsys_read(&t, 0, E1000_GPRC), 21);
    CU_ASSERT_EQUAL(tsys_read(&t, 1, E1000_GPRC), 19);
    CU_ASSERT_EQUAL(tsys_read(&t, 1, E1000_CRCERRS), 1);
    CU_ASSERT_EQUAL(t.a.st.master_aborts, 0);
    /* a full queue: the adapter counts what it could not take */
    for (unsigned k = 0; k < NIC_RX_FRAMES + 5; k++)
        nic_adapter_rx_frame(&t.a, 1, t.s.now + PS_PER_S, f, 64, 1);
    CU_ASSERT_EQUAL(t.a.st.rx_dropped[1], 5);
    nic_adapter_rx_frame(&t.a, 0, t.s.now, f, NIC_RX_FRAME_MAX + 1, 1);
    CU_ASSERT_EQUAL(t.a.st.rx_dropped[0], 1);
    tsys_free(&t);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("NicAdapter", NULL, NULL);
    CU_add_test(s, "ReadPiecesPackContinuously", test_read_pieces_pack_continuously);
    CU_add_test(s, "MmioQueueFullAborts", test_mmio_queue_full_aborts);
    CU_add_test(s, "FramesLongerThan16KiB", test_frames_longer_than_16k);
    CU_add_test(s, "RxFramesReachHostMemory", test_rx_frames_reach_host_memory);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
