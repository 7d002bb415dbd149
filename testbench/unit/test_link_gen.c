/* Link partner generator: wire timing at line rate and at an offered rate
 * (exact, no drift), flows × packets per flow, frame contents (IPv4 checksum,
 * FCS), corrupted FCS, count/duration termination, determinism, and pcap
 * replay of files written by the link sink. */
#include "gtest_cunit.h"
#include "../../models/link_gen.h"
#include "../../models/link_sink.h"

#include <CUnit/CUnit.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static char err[512];

static int suite_init(void)
{
    snprintf(dir, sizeof dir, "/tmp/nicsim_link_gen_XXXXXX");
    return mkdtemp(dir) ? 0 : 1;
}

/* Every file a test makes is named here, so the suite can remove it. */
static const char *const files[] = {"rt.pcap",  "us.pcap",    "missing.pcap", "garbage.pcap",
                                    "tr.pcap",  "trh.pcap",   "empty.pcap",   "snap.pcap",
                                    "null.pcap", "long.pcap", "max.pcap",   "zero.pcap"};

static const char *fpath(const char *name)
{
    static char p[8][128];
    static unsigned n;
    char *s = p[n++ % 8];
    snprintf(s, sizeof p[0], "%s/%s", dir, name);
    return s;
}

static int suite_cleanup(void)
{
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        unlink(fpath(files[i]));
    return rmdir(dir) ? 1 : 0;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) << 16 | rd16(p + 2); }
static uint32_t ip4(unsigned a, unsigned b, unsigned c, unsigned d)
{
    return (uint32_t)a << 24 | (uint32_t)b << 16 | (uint32_t)c << 8 | d;
}

/* One's-complement sum over the IPv4 header: 0xFFFF when the checksum is right. */
static uint16_t ip_sum(const uint8_t *h)
{
    uint32_t s = 0;
    for (int i = 0; i < 20; i += 2)
        s += rd16(h + i);
    while (s >> 16)
        s = (s & 0xffffu) + (s >> 16);
    return (uint16_t)s;
}

/* The FCS as it is on the wire: the CRC of the rest, least significant byte first. */
static uint32_t fcs_le(const uint8_t *f, uint32_t len)
{
    const uint8_t *p = f + len - 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A good Ethernet frame: its FCS is the CRC-32 of what precedes it, and the
 * CRC-32 over the whole frame is then the IEEE 802.3 residue 0x2144DF1C. */
static int fcs_good(const uint8_t *f, uint32_t len)
{
    return fcs_le(f, len) == link_gen_crc32(f, len - 4) && link_gen_crc32(f, len) == 0x2144DF1Cu;
}

static link_gen *gen(const link_gen_cfg *c)
{
    err[0] = '\0';
    link_gen *g = link_gen_new(c, err, sizeof err);
    if (!g)
        fprintf(stderr, "link_gen_new: %s\n", err);
    return g;
}

/* ---- CRC ------------------------------------------------------------------ */

static void test_crc32_check_value(void)
{
    CU_ASSERT_EQUAL(link_gen_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
    CU_ASSERT_EQUAL(link_gen_crc32((const uint8_t *)"", 0), 0u);
    const char *fox = "The quick brown fox jumps over the lazy dog";
    CU_ASSERT_EQUAL(link_gen_crc32((const uint8_t *)fox, strlen(fox)), 0x414FA339u);
}

/* ---- frame contents --------------------------------------------------------- */

/* 300 frames of size bytes, or (size_max > 0) of size..size_max bytes,
 * frame k being size + (k * 997) mod (size_max - size + 1) */
static void check_contents(uint32_t size0, uint32_t size_max)
{
    uint32_t size = size0;
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.size = size;
    c.size_max = size_max;
    c.count = 300;
    c.flows = 4;
    c.pkts_per_flow = 1;
    c.src_port = 1234;
    c.dst_port = 5678;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    static const uint8_t dmac[6] = {2, 0, 0, 0, 0, 1}, smac[6] = {2, 0, 0, 0, 0, 2};
    link_gen_frame f;
    for (uint64_t k = 0; k < 300; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        if (size_max)
            size = size0 + (uint32_t)(k * 997u % (size_max - size0 + 1));
        const uint8_t *d = f.data, *ip = d + 14, *udp = d + 34;
        CU_ASSERT_EQUAL(f.len, size);
        CU_ASSERT_EQUAL(f.seq, k);
        CU_ASSERT(f.crc_ok);
        CU_ASSERT_EQUAL(memcmp(d, dmac, 6), 0);
        CU_ASSERT_EQUAL(memcmp(d + 6, smac, 6), 0);
        CU_ASSERT_EQUAL(rd16(d + 12), 0x0800);
        CU_ASSERT_EQUAL(ip[0], 0x45);
        CU_ASSERT_EQUAL(rd16(ip + 2), size - 4 - 14);
        CU_ASSERT_EQUAL(rd16(ip + 4), (uint16_t)k);
        CU_ASSERT_EQUAL(rd16(ip + 6), 0);
        CU_ASSERT_EQUAL(ip[8], 64);
        CU_ASSERT_EQUAL(ip[9], 17);
        CU_ASSERT_EQUAL(ip_sum(ip), 0xffff);
        CU_ASSERT_EQUAL(rd32(ip + 12), ip4(192, 168, 0, 2));
        CU_ASSERT_EQUAL(rd32(ip + 16), ip4(10, 0, 0, 1) + k % 4);
        CU_ASSERT_EQUAL(rd16(udp), 1234);
        CU_ASSERT_EQUAL(rd16(udp + 2), 5678);
        CU_ASSERT_EQUAL(rd16(udp + 4), size - 4 - 34);
        CU_ASSERT_EQUAL(rd16(udp + 6), 0);
        CU_ASSERT_EQUAL(rd32(d + 42), (uint32_t)k);
        int zeros = 1;
        for (uint32_t i = 46; i < size - 4; i++)
            zeros &= d[i] == 0;
        CU_ASSERT(zeros);
        CU_ASSERT(fcs_good(d, f.len));
    }
    link_gen_free(g);
}

static void test_frame_contents(void)
{
    check_contents(64, 0);
    check_contents(65, 0);
    check_contents(1518, 0);
    /* a range: lengths, checksums and zero padding right whatever the
     * previous frame's size was (its FCS must not stay behind) */
    check_contents(64, 1518);
    check_contents(100, 101);
}

/* A 64-byte frame checked byte for byte: header and FCS against values
 * worked out independently (Python zlib.crc32 over the same 60 bytes). */
static void test_frame_bytes_known(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.count = 1;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
    static const uint8_t want[42] = {
        0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x08, 0x00,
        0x45, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x00, 0x00, 0x40, 0x11, 0xb0, 0x14, 0xc0, 0xa8,
        0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0x00, 0x09, 0x00, 0x09, 0x00, 0x1a, 0x00, 0x00};
    CU_ASSERT_EQUAL(memcmp(f.data, want, sizeof want), 0);
    CU_ASSERT_EQUAL(fcs_le(f.data, f.len), 0xCE8DF1D2u);
    link_gen_free(g);
}

/* ---- timing ------------------------------------------------------------------ */

/* n frames; every preamble start must be start + k * spacing. */
static void check_line_rate(double gbps, uint32_t size, ps_t start, ps_t spacing)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.gbps = gbps;
    c.size = size;
    c.start = start;
    c.count = 1000;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    ps_t byte_ps = (ps_t)(8000 / gbps + 0.5);
    uint64_t bad = 0;
    for (uint64_t k = 0; k < 1000; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        bad += f.t_start != start + k * spacing;
        bad += f.t_end != f.t_start + (8 + size) * byte_ps;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    link_gen_free(g);
}

static void test_line_rate_spacing(void)
{
    check_line_rate(1, 64, 0, 672000);       /* 84 bytes × 8 ns */
    check_line_rate(1, 1518, 0, 12304000);   /* 1538 × 8 ns */
    check_line_rate(1, 64, 123456, 672000);  /* from the start time */
    check_line_rate(10, 64, 0, 67200);
    check_line_rate(10, 1518, 0, 1230400);
}

static ps_t exact_offset(uint64_t k, uint64_t rate)
{
    return (ps_t)((unsigned __int128)k * 1000000000000u / rate);
}

/* 1173 kpps (seed 000's input rate): t_k = start + floor(k * 10^12 / rate),
 * so spacings are 852514 or 852515 ps and frame 10^6 is exactly
 * floor(10^18 / 1173000) = 852514919011 ps after the start. */
static void test_offered_rate_exact(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.rate_pps = 1173000;
    c.start = 1000;
    c.count = 1000001;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    ps_t prev = 0;
    uint64_t bad = 0, n514 = 0, n515 = 0;
    for (uint64_t k = 0; k <= 1000000; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        bad += f.t_start != 1000 + exact_offset(k, 1173000);
        if (k) {
            ps_t d = f.t_start - prev;
            n514 += d == 852514;
            n515 += d == 852515;
        }
        prev = f.t_start;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(n514 + n515, 1000000);
    CU_ASSERT_EQUAL(n515, 919011); /* 10^6 spacings add up to 10^6 × 852514 + n515 */
    CU_ASSERT_EQUAL(f.t_start, 1000 + 852514919011ull);
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    link_gen_free(g);
}

/* The offset function itself, far beyond where k * 10^12 overflows 64 bits. */
static void test_rate_offset_no_overflow(void)
{
    static const uint64_t rates[] = {1, 7, 1000, 1173000, 1488095, 148809523, 999999999989ull,
                                     1000000000000ull};
    static const uint64_t ks[] = {0, 1, 18446744, 18446745, 1000000000, 123456789012345ull,
                                  UINT64_MAX / 1000000000000ull, 0xffffffffffffull};
    uint64_t bad = 0, checked = 0;
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++)
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            unsigned __int128 want = (unsigned __int128)ks[i] * 1000000000000u / rates[r];
            if (want > UINT64_MAX)
                continue;
            bad += link_gen_rate_offset(ks[i], rates[r]) != (ps_t)want;
            checked++;
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(checked, 51); /* the pairs whose result fits in 64 bits */
    /* 10^8 frames at 1173 kpps: 85.25 s, to the ps */
    CU_ASSERT_EQUAL(link_gen_rate_offset(100000000, 1173000), 85251491901108ull);
}

/* At and above line rate the wire decides: spacing exactly (size + 20) bytes. */
static void test_rate_clamped_to_line_rate(void)
{
    static const struct {
        uint64_t rate;
        int clamped;
    } cases[] = {
        {1488095, 0}, /* 10^12 / rate = 672000.2 ps: just below line rate */
        {1488096, 1}, /* 671999.8 ps: above line rate */
        {2000000, 1},
        {UINT64_MAX, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        link_gen_cfg c;
        link_gen_cfg_default(&c);
        c.rate_pps = cases[i].rate;
        c.count = 10000;
        link_gen *g = gen(&c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        link_gen_frame f;
        uint64_t bad = 0;
        ps_t prev = 0;
        for (uint64_t k = 0; k < 10000; k++) {
            CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
            ps_t want = cases[i].clamped ? k * 672000 : exact_offset(k, cases[i].rate);
            bad += f.t_start != want;
            bad += k && f.t_start - prev < 672000;
            prev = f.t_start;
        }
        CU_ASSERT_EQUAL(bad, 0);
        link_gen_free(g);
    }
}

/* ---- flows ----------------------------------------------------------------- */

static void test_flows_packets_per_flow(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.flows = 3;
    c.pkts_per_flow = 10;
    c.count = 95;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    for (uint64_t k = 0; k < 95; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        uint32_t flow = (uint32_t)(k / 10 % 3); /* 10 to .1, 10 to .2, 10 to .3, again */
        CU_ASSERT_EQUAL(f.flow, flow);
        CU_ASSERT_EQUAL(rd32(f.data + 30), ip4(10, 0, 0, 1 + flow));
    }
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    link_gen_free(g);
}

/* Seed 000's "2*32k flows a 10 pkts": 32768 flows, each 10 frames in a row. */
static void test_32k_flows(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.flows = 32768;
    c.pkts_per_flow = 10;
    c.count = 327690;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    uint8_t *seen = calloc(32768, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen);
    link_gen_frame f;
    uint64_t bad = 0;
    for (uint64_t k = 0; k < 327690; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        uint32_t dst = rd32(f.data + 30);
        bad += f.flow != k / 10 % 32768;
        bad += dst != ip4(10, 0, 0, 1) + f.flow;
        if (k < 327680 && k % 10 == 0)
            seen[f.flow]++;
        if (k == 327679) {
            CU_ASSERT_EQUAL(f.flow, 32767);
            CU_ASSERT_EQUAL(dst, ip4(10, 0, 128, 0));
        }
        if (k == 327680) {
            CU_ASSERT_EQUAL(f.flow, 0);
            CU_ASSERT_EQUAL(dst, ip4(10, 0, 0, 1));
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    int once = 1;
    for (uint32_t i = 0; i < 32768; i++)
        once &= seen[i] == 1;
    CU_ASSERT(once);
    free(seen);
    link_gen_free(g);
}

static void check_addresses(uint32_t base, uint8_t prefix, const uint32_t *want, uint32_t n)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.dst_ip_base = base;
    c.dst_prefix = prefix;
    c.flows = n;
    c.pkts_per_flow = 1;
    c.count = 2 * n;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    for (uint32_t k = 0; k < 2 * n; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        CU_ASSERT_EQUAL(rd32(f.data + 30), want[k % n]);
        CU_ASSERT_EQUAL(ip_sum(f.data + 14), 0xffff);
    }
    link_gen_free(g);
}

/* Addresses wrap inside the prefix of the base address. */
static void test_flow_address_wrap(void)
{
    const uint32_t a[] = {ip4(10, 255, 255, 254), ip4(10, 255, 255, 255), ip4(10, 0, 0, 0),
                          ip4(10, 0, 0, 1)};
    check_addresses(ip4(10, 255, 255, 254), 8, a, 4);
    const uint32_t b[] = {ip4(192, 168, 1, 254), ip4(192, 168, 1, 255), ip4(192, 168, 1, 0)};
    check_addresses(ip4(192, 168, 1, 254), 24, b, 3);
    const uint32_t c[] = {ip4(255, 255, 255, 255), ip4(0, 0, 0, 0)};
    check_addresses(ip4(255, 255, 255, 255), 0, c, 2);
    const uint32_t d[] = {ip4(10, 1, 2, 3)};
    check_addresses(ip4(10, 1, 2, 3), 32, d, 1);
}

/* Each cycle visits a permutation of the flows (the same one every cycle);
 * another seed gives another order. */
static void shuffled_order(uint64_t seed, uint32_t *order)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.flows = 100;
    c.pkts_per_flow = 2;
    c.flow_shuffle = 1;
    c.seed = seed;
    c.count = 400;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    for (uint32_t k = 0; k < 400; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        CU_ASSERT_EQUAL(rd32(f.data + 30), ip4(10, 0, 0, 1) + f.flow);
        uint32_t slot = k / 2 % 100;
        if (k < 200 && k % 2 == 0)
            order[slot] = f.flow;
        else
            CU_ASSERT_EQUAL(f.flow, order[slot]); /* pair and second cycle repeat it */
    }
    link_gen_free(g);
}

static void test_flow_shuffle(void)
{
    uint32_t a[100], b[100], a2[100];
    shuffled_order(7, a);
    shuffled_order(7, a2);
    shuffled_order(8, b);
    uint8_t seen[100] = {0};
    int identity = 1;
    for (uint32_t i = 0; i < 100; i++) {
        CU_ASSERT_FATAL(a[i] < 100);
        seen[a[i]]++;
        identity &= a[i] == i;
    }
    int perm = 1;
    for (uint32_t i = 0; i < 100; i++)
        perm &= seen[i] == 1;
    CU_ASSERT(perm);
    CU_ASSERT(!identity);
    CU_ASSERT_EQUAL(memcmp(a, a2, sizeof a), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a, b, sizeof a), 0);
}

/* ---- FCS errors, termination, counters ------------------------------------- */

static void test_bad_fcs_every_n(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.count = 10;
    c.bad_fcs_every = 3;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    for (uint64_t k = 0; k < 10; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        int bad = k == 2 || k == 5 || k == 8; /* the 3rd, 6th and 9th frame */
        CU_ASSERT_EQUAL(f.crc_ok, !bad);
        CU_ASSERT_EQUAL(fcs_good(f.data, f.len), !bad);
        if (bad)
            CU_ASSERT_EQUAL(fcs_le(f.data, f.len), ~link_gen_crc32(f.data, f.len - 4));
    }
    CU_ASSERT_EQUAL(link_gen_crc_errors(g), 3);
    CU_ASSERT_EQUAL(link_gen_frames(g), 10);
    link_gen_free(g);
}

static uint64_t drain(link_gen *g, link_gen_frame *last)
{
    uint64_t n = 0;
    link_gen_frame f;
    while (n < 1000000 && link_gen_next(g, &f)) {
        *last = f;
        n++;
    }
    return n;
}

static void test_count_termination(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.count = 5;
    c.size = 100;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    CU_ASSERT_EQUAL(drain(g, &f), 5);
    CU_ASSERT_EQUAL(f.seq, 4);
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0); /* and stays ended */
    CU_ASSERT_EQUAL(link_gen_frames(g), 5);
    CU_ASSERT_EQUAL(link_gen_bytes(g), 500);
    CU_ASSERT_EQUAL(link_gen_crc_errors(g), 0);
    link_gen_free(g);
}

/* Frames whose preamble starts before start + duration. */
static void test_duration_termination(void)
{
    static const struct {
        uint64_t rate, count;
        ps_t start, duration;
        uint64_t frames;
        ps_t last;
    } cases[] = {
        {1000000, 0, 7, 1000000000, 1000, 7 + 999000000}, /* 1 ms at 1 Mpps */
        {0, 0, 0, 6720000, 10, 9 * 672000},              /* 10 line-rate slots exactly */
        {0, 0, 0, 6720001, 11, 10 * 672000},
        {0, 3, 0, 6720000, 3, 2 * 672000},               /* count ends it first */
        {0, 0, 0, 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        link_gen_cfg c;
        link_gen_cfg_default(&c);
        c.rate_pps = cases[i].rate;
        c.count = cases[i].count;
        c.start = cases[i].start;
        c.duration = cases[i].duration;
        link_gen *g = gen(&c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        link_gen_frame f;
        CU_ASSERT_EQUAL(drain(g, &f), cases[i].frames);
        CU_ASSERT_EQUAL(f.t_start, cases[i].last);
        CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
        link_gen_free(g);
    }
}

/* Two generators with one config give the same frames, byte for byte. */
static void test_determinism(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.size = 100;
    c.rate_pps = 1173000;
    c.flows = 5;
    c.pkts_per_flow = 3;
    c.flow_shuffle = 1;
    c.seed = 42;
    c.bad_fcs_every = 7;
    c.count = 10000;
    link_gen *a = gen(&c), *b = gen(&c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    link_gen_frame fa, fb;
    uint64_t diff = 0, n = 0;
    for (;;) {
        int ra = link_gen_next(a, &fa), rb = link_gen_next(b, &fb);
        CU_ASSERT_EQUAL_FATAL(ra, rb);
        if (!ra)
            break;
        n++;
        diff += fa.t_start != fb.t_start || fa.t_end != fb.t_end || fa.len != fb.len ||
                fa.crc_ok != fb.crc_ok || fa.flow != fb.flow || fa.seq != fb.seq ||
                memcmp(fa.data, fb.data, fa.len) != 0;
    }
    CU_ASSERT_EQUAL(n, 10000);
    CU_ASSERT_EQUAL(diff, 0);
    CU_ASSERT_EQUAL(link_gen_bytes(a), link_gen_bytes(b));
    CU_ASSERT_EQUAL(link_gen_crc_errors(a), 10000 / 7);
    link_gen_free(a);
    link_gen_free(b);
}

static void expect_cfg_error(const link_gen_cfg *c, const char *want)
{
    strcpy(err, "unchanged");
    CU_ASSERT_PTR_NULL(link_gen_new(c, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, want);
}

static void test_config_errors(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.size = 63;
    expect_cfg_error(&c, "link gen: frame size 63 not in 64..1518");
    c.size = 1519;
    expect_cfg_error(&c, "link gen: frame size 1519 not in 64..1518");
    link_gen_cfg_default(&c);
    c.size = 100;
    c.size_max = 100;
    expect_cfg_error(&c, "link gen: largest frame size 100 not in 101..1518");
    c.size_max = 1519;
    expect_cfg_error(&c, "link gen: largest frame size 1519 not in 101..1518");
    c.size_max = 200;
    c.ip_version = 6;
    expect_cfg_error(&c, "link gen: a range of frame sizes is for IPv4 frames only");
    link_gen_cfg_default(&c);
    c.flows = 0;
    expect_cfg_error(&c, "link gen: flows and packets per flow must be >= 1");
    link_gen_cfg_default(&c);
    c.pkts_per_flow = 0;
    expect_cfg_error(&c, "link gen: flows and packets per flow must be >= 1");
    link_gen_cfg_default(&c);
    c.dst_prefix = 24;
    c.flows = 257;
    expect_cfg_error(&c, "link gen: 257 flows 1 apart do not fit in a /24 (at most 256 addresses)");
    c.dst_prefix = 33;
    expect_cfg_error(&c, "link gen: destination prefix /33 not in 0..32");
    link_gen_cfg_default(&c);
    c.gbps = 0;
    expect_cfg_error(&c, "link gen: line rate 0 Gb/s not in 0.001..1600");
    link_gen_cfg_default(&c);
    c.count = 0;
    c.duration = 0;
    expect_cfg_error(&c, "link gen: count and duration are both 0 (no end)");
    link_gen_cfg_default(&c);
    c.dst_prefix = 0;
    c.flows = (1u << 24) + 1;
    c.flow_shuffle = 1;
    expect_cfg_error(&c, "link gen: flow shuffle takes at most 16777216 flows");
    /* the largest flow count of a /8 is accepted */
    link_gen_cfg_default(&c);
    c.flows = 1u << 24;
    link_gen *g = gen(&c);
    CU_ASSERT_PTR_NOT_NULL(g);
    link_gen_free(g);
}

/* IPv6 frames: too short for UDP at 64 bytes (next header 59, the
 * sequence number right after the header), UDP from 66; flow i adds
 * i * stride to bytes 4..5 of the destination; the FCS is right. */
static void test_ipv6_frames(void)
{
    static const unsigned sizes[2] = { 64, 128 };
    for (int z = 0; z < 2; z++) {
        link_gen_cfg c;
        link_gen_cfg_default(&c);
        c.ip_version = 6;
        c.size = sizes[z];
        c.flows = 3;
        c.flow_stride = 2;
        c.pkts_per_flow = 1;
        c.count = 3;
        link_gen *g = link_gen_new(&c, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        link_gen_frame f;
        for (uint32_t k = 0; k < 3; k++) {
            CU_ASSERT_FATAL(link_gen_next(g, &f));
            const uint8_t *d = f.data;
            CU_ASSERT_EQUAL(f.len, sizes[z]);
            CU_ASSERT_EQUAL(rd16(d + 12), 0x86dd);
            CU_ASSERT_EQUAL(d[14] >> 4, 6);
            CU_ASSERT_EQUAL(rd16(d + 18), sizes[z] - 4 - 54);        /* payload length */
            CU_ASSERT_EQUAL(d[20], sizes[z] == 64 ? 59 : 17);
            CU_ASSERT_EQUAL(d[21], 64);
            CU_ASSERT_EQUAL(rd32(d + 38), 0x20010db8u);             /* 2001:db8:<flow>::1 */
            CU_ASSERT_EQUAL(rd16(d + 42), 2 * k);
            CU_ASSERT_EQUAL(d[53], 1);
            CU_ASSERT_EQUAL(rd32(d + (sizes[z] == 64 ? 54 : 62)), k);
            if (sizes[z] != 64)
                CU_ASSERT_EQUAL(rd16(d + 56), 9);                   /* UDP destination port */
            CU_ASSERT(fcs_good(d, f.len));
        }
        link_gen_free(g);
    }
}

/* ip_version 46: IPv4 and IPv6 alternately, one flow schedule; IPv4 flows
 * flow_stride apart (198.18.<flow>.1 with a stride of 256). */
static void test_mixed_and_stride(void)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.ip_version = 46;
    c.dst_ip_base = ip4(198, 18, 0, 1);
    c.dst_prefix = 16;
    c.flows = 4;
    c.flow_stride = 256;
    c.pkts_per_flow = 1;
    c.count = 8;
    link_gen *g = link_gen_new(&c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    for (uint32_t k = 0; k < 8; k++) {
        CU_ASSERT_FATAL(link_gen_next(g, &f));
        CU_ASSERT_EQUAL(f.flow, k % 4);
        if (k % 2 == 0) {
            CU_ASSERT_EQUAL(rd16(f.data + 12), 0x0800);
            CU_ASSERT_EQUAL(rd32(f.data + 30), ip4(198, 18, k % 4, 1));
            CU_ASSERT_EQUAL(ip_sum(f.data + 14), 0xffff);
        } else {
            CU_ASSERT_EQUAL(rd16(f.data + 12), 0x86dd);
            CU_ASSERT_EQUAL(rd16(f.data + 42), 256 * (k % 4));
        }
    }
    link_gen_free(g);
    c.flows = 257;
    c.flow_stride = 256;
    c.dst_prefix = 8;
    expect_cfg_error(&c, "link gen: 257 IPv6 flows 256 apart do not fit in 16 bits of the /48");
    c.ip_version = 5;
    c.flows = 1;
    expect_cfg_error(&c, "link gen: IP version 5 not 4, 6 or 46 (both)");
}

/* ---- pcap replay ---------------------------------------------------------- */

static void fill(uint8_t *buf, uint32_t len, uint8_t seed)
{
    for (uint32_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(seed + 3 * i);
}

/* The round-trip file: frames at these capture times (ns), without FCS. */
static const struct {
    uint64_t t_ns;
    uint32_t caplen;
} rt[] = {
    {1000, 42},    /* padded to 60 */
    {2000, 60},
    {2100, 1514},  /* 100 ns later: the wire is still busy with frame 1 */
    {50000, 100},
};
#define NRT (sizeof rt / sizeof rt[0])

static void write_rt(const char *p)
{
    static uint8_t buf[1514];
    link_sink *s = link_sink_new(p, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    for (size_t i = 0; i < NRT; i++) {
        fill(buf, rt[i].caplen, (uint8_t)i);
        link_sink_frame(s, rt[i].t_ns * 1000, buf, rt[i].caplen);
    }
    CU_ASSERT_EQUAL_FATAL(link_sink_close(s, err, sizeof err), 0);
}

static link_gen *replay(const char *p, uint64_t rate, uint32_t loops, uint64_t count,
                        uint32_t bad_every, ps_t start)
{
    link_gen_cfg c;
    link_gen_cfg_default(&c);
    c.rate_pps = rate;
    c.loops = loops;
    c.count = count;
    c.bad_fcs_every = bad_every;
    c.start = start;
    err[0] = '\0';
    link_gen *g = link_gen_new_pcap(p, &c, err, sizeof err);
    if (!g)
        fprintf(stderr, "link_gen_new_pcap: %s\n", err);
    return g;
}

static void check_rt_frame(const link_gen_frame *f, size_t i)
{
    static uint8_t buf[1514];
    uint32_t cap = rt[i].caplen, flen = cap < 60 ? 60 : cap;
    fill(buf, cap, (uint8_t)i);
    CU_ASSERT_EQUAL(f->len, flen + 4);
    CU_ASSERT_EQUAL(memcmp(f->data, buf, cap), 0);
    int zeros = 1;
    for (uint32_t j = cap; j < flen; j++)
        zeros &= f->data[j] == 0;
    CU_ASSERT(zeros);
    CU_ASSERT_EQUAL(f->flow, 0);
}

static void test_pcap_round_trip(void)
{
    const char *p = fpath("rt.pcap");
    write_rt(p);
    const ps_t S = 5000000;
    /* The file's timing relative to its first frame, except where the wire is
     * busy: frame 2 starts when frame 1 (64 B) and its gap end, at 1000 ns +
     * 84 × 8 ns after the first.  The second loop starts when frame 3 (104 B)
     * and its gap end: 49000 ns + 124 × 8 ns = 49992 ns. */
    static const ps_t want[2 * NRT] = {0,        1000000,  1672000,  49000000,
                                       49992000, 50992000, 51664000, 98992000};
    link_gen *g = replay(p, 0, 2, 0, 0, S);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    uint64_t bytes = 0;
    for (size_t k = 0; k < 2 * NRT; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        check_rt_frame(&f, k % NRT);
        CU_ASSERT_EQUAL(f.t_start, S + want[k]);
        CU_ASSERT_EQUAL(f.t_end, f.t_start + (8 + f.len) * 8000);
        CU_ASSERT_EQUAL(f.seq, k);
        CU_ASSERT(f.crc_ok);
        CU_ASSERT(fcs_good(f.data, f.len));
        bytes += f.len;
    }
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    CU_ASSERT_EQUAL(link_gen_frames(g), 2 * NRT);
    CU_ASSERT_EQUAL(link_gen_bytes(g), bytes);
    CU_ASSERT_EQUAL(bytes, 2 * (64 + 64 + 1518 + 104));
    link_gen_free(g);

    /* At an offered rate: start + floor(k * 10^12 / rate), looping until count. */
    g = replay(p, 1000, 0, 10, 0, S);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    for (uint64_t k = 0; k < 10; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        check_rt_frame(&f, k % NRT);
        CU_ASSERT_EQUAL(f.t_start, S + k * 1000000000u);
    }
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    link_gen_free(g);

    /* Any rate at or above line rate: back to back, each frame's own length. */
    g = replay(p, UINT64_MAX, 1, 0, 0, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    static const ps_t b2b[NRT] = {0, 672000, 1344000, 1344000 + 1538 * 8000};
    for (size_t k = 0; k < NRT; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        CU_ASSERT_EQUAL(f.t_start, b2b[k]);
    }
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    link_gen_free(g);

    /* Corrupting an FCS leaves the stored frame intact for the next loop. */
    g = replay(p, 0, 3, 0, 2, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    for (uint64_t k = 0; k < 3 * NRT; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        check_rt_frame(&f, k % NRT);
        CU_ASSERT_EQUAL(f.crc_ok, k % 2 == 0);
        CU_ASSERT_EQUAL(fcs_good(f.data, f.len), k % 2 == 0);
    }
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    CU_ASSERT_EQUAL(link_gen_crc_errors(g), 3 * NRT / 2);
    link_gen_free(g);
}

/* Write a pcap by hand: any link type, precision and caplen/len. */
static void write_raw(const char *p, int linktype, int precision, int n, const long *sec,
                      const long *frac, const uint32_t *caplen, const uint32_t *len)
{
    static uint8_t buf[70000];
    pcap_t *d = pcap_open_dead_with_tstamp_precision(linktype, 262144, precision);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    pcap_dumper_t *w = pcap_dump_open(d, p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    for (int i = 0; i < n; i++) {
        struct pcap_pkthdr h;
        memset(&h, 0, sizeof h);
        h.ts.tv_sec = sec[i];
        h.ts.tv_usec = frac[i];
        h.caplen = caplen[i];
        h.len = len[i];
        fill(buf, caplen[i], (uint8_t)i);
        pcap_dump((u_char *)w, &h, buf);
    }
    pcap_dump_close(w);
    pcap_close(d);
}

/* A microsecond pcap keeps its timing, scaled to ps. */
static void test_pcap_microsecond_timestamps(void)
{
    const char *p = fpath("us.pcap");
    const long sec[] = {1700000000, 1700000000, 1700000001};
    const long us[] = {999990, 1000000 - 1, 5};
    const uint32_t cl[] = {60, 60, 60};
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_MICRO, 3, sec, us, cl, cl);
    link_gen *g = replay(p, 0, 1, 0, 0, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame f;
    static const ps_t want[] = {0, 9000000, 15000000};
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &f), 1);
        CU_ASSERT_EQUAL(f.t_start, want[k]);
        CU_ASSERT_EQUAL(f.len, 64);
    }
    CU_ASSERT_EQUAL(link_gen_next(g, &f), 0);
    link_gen_free(g);
}

static void expect_pcap_error(const char *p, uint32_t loops, uint64_t count, const char *fmt)
{
    char want[512];
    snprintf(want, sizeof want, fmt, p);
    strcpy(err, "unchanged");
    CU_ASSERT_PTR_NULL(replay(p, 0, loops, count, 0, 0));
    CU_ASSERT_STRING_EQUAL(err, want);
}

static void test_pcap_errors(void)
{
    expect_pcap_error(fpath("missing.pcap"), 1, 0, "%s: cannot open: No such file or directory");

    const char *p = fpath("garbage.pcap");
    FILE *f = fopen(p, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("this is not a capture file, only some text long enough\n", f);
    fclose(f);
    strcpy(err, "unchanged");
    CU_ASSERT_PTR_NULL(replay(p, 0, 1, 0, 0, 0));
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s: cannot open: ", p);
    CU_ASSERT_EQUAL(strncmp(err, prefix, strlen(prefix)), 0);
    CU_ASSERT(strlen(err) > strlen(prefix));

    /* 3 frames of 100 bytes: 24 + 3 × (16 + 100) = 372 bytes; cut into the
     * last frame's data, then into its record header. */
    const long sec[] = {1, 1, 1}, ns[] = {0, 1000, 2000};
    const uint32_t cl[] = {100, 100, 100};
    p = fpath("tr.pcap");
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_NANO, 3, sec, ns, cl, cl);
    CU_ASSERT_EQUAL_FATAL(truncate(p, 372 - 10), 0);
    expect_pcap_error(p, 1, 0, "%s: frame 3: truncated");
    p = fpath("trh.pcap");
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_NANO, 3, sec, ns, cl, cl);
    CU_ASSERT_EQUAL_FATAL(truncate(p, 24 + 2 * 116 + 5), 0);
    expect_pcap_error(p, 1, 0, "%s: frame 3: truncated");

    p = fpath("empty.pcap");
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_NANO, 0, sec, ns, cl, cl);
    expect_pcap_error(p, 1, 0, "%s: no frames");

    const uint32_t len2[] = {100, 1514};
    const uint32_t cl2[] = {100, 96};
    p = fpath("snap.pcap");
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_NANO, 2, sec, ns, cl2, len2);
    expect_pcap_error(p, 1, 0, "%s: frame 2: only 96 of 1514 bytes captured");

    p = fpath("null.pcap");
    write_raw(p, DLT_NULL, PCAP_TSTAMP_PRECISION_NANO, 1, sec, ns, cl, cl);
    expect_pcap_error(p, 1, 0, "%s: link type 0, not Ethernet");

    const uint32_t zero[] = {100, 0};
    p = fpath("zero.pcap");
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_NANO, 2, sec, ns, zero, zero);
    expect_pcap_error(p, 1, 0, "%s: frame 2: empty");

    const uint32_t big[] = {65532};
    p = fpath("long.pcap");
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_NANO, 1, sec, ns, big, big);
    expect_pcap_error(p, 1, 0, "%s: frame 1: 65532 bytes, longer than 65531");

    /* the longest frame that fits: 65531 + FCS = 65535 */
    const uint32_t max[] = {65531};
    p = fpath("max.pcap");
    write_raw(p, DLT_EN10MB, PCAP_TSTAMP_PRECISION_NANO, 1, sec, ns, max, max);
    link_gen *g = replay(p, 0, 1, 0, 0, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    link_gen_frame fr;
    CU_ASSERT_EQUAL_FATAL(link_gen_next(g, &fr), 1);
    CU_ASSERT_EQUAL(fr.len, 65535);
    CU_ASSERT(fcs_good(fr.data, fr.len));
    link_gen_free(g);

    /* no end: loops 0 with neither count nor duration */
    expect_pcap_error(p, 0, 0, "link gen: loops, count and duration are all 0 (no end)");
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("LinkGen", suite_init, suite_cleanup);
    CU_add_test(s, "Crc32CheckValue", test_crc32_check_value);
    CU_add_test(s, "FrameContents", test_frame_contents);
    CU_add_test(s, "FrameBytesKnown", test_frame_bytes_known);
    CU_add_test(s, "LineRateSpacing", test_line_rate_spacing);
    CU_add_test(s, "OfferedRateExact", test_offered_rate_exact);
    CU_add_test(s, "RateOffsetNoOverflow", test_rate_offset_no_overflow);
    CU_add_test(s, "RateClampedToLineRate", test_rate_clamped_to_line_rate);
    CU_add_test(s, "FlowsPacketsPerFlow", test_flows_packets_per_flow);
    CU_add_test(s, "ThirtyTwoKFlows", test_32k_flows);
    CU_add_test(s, "FlowAddressWrap", test_flow_address_wrap);
    CU_add_test(s, "FlowShuffle", test_flow_shuffle);
    CU_add_test(s, "BadFcsEveryN", test_bad_fcs_every_n);
    CU_add_test(s, "CountTermination", test_count_termination);
    CU_add_test(s, "DurationTermination", test_duration_termination);
    CU_add_test(s, "Determinism", test_determinism);
    CU_add_test(s, "ConfigErrors", test_config_errors);
    CU_add_test(s, "Ipv6Frames", test_ipv6_frames);
    CU_add_test(s, "MixedIpVersionsAndStride", test_mixed_and_stride);
    CU_add_test(s, "PcapRoundTrip", test_pcap_round_trip);
    CU_add_test(s, "PcapMicrosecondTimestamps", test_pcap_microsecond_timestamps);
    CU_add_test(s, "PcapErrors", test_pcap_errors);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
