/* Link partner generator: synthetic IPv4/UDP flows and pcap replay, timed to
 * the picosecond on the wire into a NIC port (see link_gen.h). */
#include "link_gen.h"
#include "splitmix64.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CRC-32 (IEEE 802.3, reflected) ------------------------------------- */

/* crc_table[n] = the CRC register after shifting byte n through polynomial
 * 0xEDB88320 (0x04C11DB7 reflected), eight bits at a time. */
static const uint32_t crc_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu,
    0xe963a535u, 0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u,
    0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u,
    0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u,
    0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u,
    0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u,
    0xcfba9599u, 0xb8bda50fu, 0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u,
    0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du, 0x76dc4190u, 0x01db7106u,
    0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du,
    0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u,
    0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u,
    0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u,
    0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u, 0x5005713cu, 0x270241aau,
    0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au,
    0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u,
    0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu,
    0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu,
    0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u, 0xa1d1937eu,
    0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u,
    0x316e8eefu, 0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u,
    0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u,
    0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu,
    0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u,
    0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u,
    0x616bffd3u, 0x166ccf45u, 0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u,
    0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu,
    0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u,
    0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
};

uint32_t link_gen_crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xffu] ^ (c >> 8);
    return ~c;
}

/* ---- the generator ---------------------------------------------------------- */

enum timing { T_LINE, T_RATE, T_PCAP };

typedef struct pcap_rec {
    size_t off;   /* into buf */
    uint32_t len; /* incl. the FCS, stored after the (padded) frame */
    ps_t rel;     /* timestamp - first timestamp, ps (0 when earlier) */
} pcap_rec;

struct link_gen {
    /* timing */
    enum timing timing;
    ps_t byte_ps;
    ps_t start;
    ps_t end;             /* frames start before this; PS_NEVER: no duration */
    uint64_t rate;        /* T_RATE */
    uint64_t count;       /* 0: no limit */
    uint32_t bad_fcs_every;
    ps_t wire_free;       /* end of the previous frame's gap */
    uint64_t k;           /* frames returned */
    uint64_t bytes, crc_errors;
    int ended;
    /* synthetic */
    uint32_t size, flows, ppf, stride;
    uint32_t size_min, size_span;  /* size_max: frame k is size_min + (k * 997) % size_span */
    uint32_t dst_net, dst_host_mask, dst_base;
    uint8_t ip_version;
    uint8_t dst6[16];
    uint32_t *perm;       /* flow order when shuffled, else NULL */
    uint8_t frame[LINK_GEN_MAX_SIZE];
    uint8_t frame6[LINK_GEN_MAX_SIZE]; /* the IPv6 template */
    /* pcap */
    uint8_t *buf;
    pcap_rec *rec;
    size_t nrec, idx;
    uint32_t loops;
    uint64_t loop;
    ps_t loop_base;       /* nominal time of the current loop's first frame */
    uint8_t *scratch;     /* a frame whose FCS is corrupted */
};

void link_gen_cfg_default(link_gen_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->gbps = 1.0;
    c->rate_pps = 0;
    c->start = 0;
    c->count = 10000000;
    c->duration = 0;
    c->bad_fcs_every = 0;
    c->size = 64;
    static const uint8_t dst[6] = {0x02, 0, 0, 0, 0, 0x01}, src[6] = {0x02, 0, 0, 0, 0, 0x02};
    memcpy(c->dst_mac, dst, 6);
    memcpy(c->src_mac, src, 6);
    c->src_ip = 0xc0a80002u;      /* 192.168.0.2 */
    c->dst_ip_base = 0x0a000001u; /* 10.0.0.1 */
    c->dst_prefix = 8;
    c->src_port = 9;
    c->dst_port = 9;
    c->flows = 1;
    c->flow_stride = 1;
    c->ip_version = 4;
    static const uint8_t src6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0xff, 0xff, [15] = 2 };
    static const uint8_t dst6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
    memcpy(c->src_ip6, src6, 16);
    memcpy(c->dst_ip6_base, dst6, 16);
    c->pkts_per_flow = 10;
    c->flow_shuffle = 0;
    c->seed = 1;
    c->loops = 1;
}

static ps_t sat_add(ps_t a, ps_t b)
{
    return a > PS_NEVER - b ? PS_NEVER : a + b;
}

/* k = q*rate + r, and r * 10^12 / rate is taken in two steps of 10^6, each
 * product below rate * 10^6 <= 10^18. */
ps_t link_gen_rate_offset(uint64_t k, uint64_t rate)
{
    uint64_t q = k / rate, r = k % rate;
    uint64_t a = r * 1000000u; /* < rate * 10^6 <= 10^18 */
    uint64_t q1 = a / rate, r1 = a % rate;
    return q * PS_PER_S + q1 * 1000000u + r1 * 1000000u / rate;
}

/* The timing fields of cfg, common to both sources. */
static int timing_init(link_gen *g, const link_gen_cfg *c, int pcap, char *err, size_t errlen)
{
    if (!(c->gbps >= 0.001 && c->gbps <= 1600.0)) {
        snprintf(err, errlen, "link gen: line rate %g Gb/s not in 0.001..1600", c->gbps);
        return -1;
    }
    if (c->count == 0 && c->duration == 0 && (!pcap || c->loops == 0)) {
        snprintf(err, errlen, pcap ? "link gen: loops, count and duration are all 0 (no end)"
                                   : "link gen: count and duration are both 0 (no end)");
        return -1;
    }
    /* as link_wire_init: 8000 / gbps rounded to the nearest ps */
    g->byte_ps = (ps_t)(8000.0 / c->gbps + 0.5);
    g->start = c->start;
    g->end = c->duration ? sat_add(c->start, c->duration) : PS_NEVER;
    g->count = c->count;
    g->bad_fcs_every = c->bad_fcs_every;
    g->wire_free = c->start;
    /* Above 10^12 pps every frame is clamped by the wire anyway. */
    if (c->rate_pps == 0)
        g->timing = pcap ? T_PCAP : T_LINE;
    else if (c->rate_pps > PS_PER_S)
        g->timing = T_LINE;
    else {
        g->timing = T_RATE;
        g->rate = c->rate_pps;
    }
    return 0;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)(v >> 16));
    put16(p + 2, (uint16_t)v);
}

static void put_fcs(uint8_t *frame, uint32_t len)
{
    uint32_t fcs = link_gen_crc32(frame, len - 4);
    for (int i = 0; i < 4; i++)
        frame[len - 4 + (uint32_t)i] = (uint8_t)(fcs >> (8 * i)); /* LSB first, as sent */
}

/* Uniform in [0, n), n >= 1, by rejection. */
static uint64_t below(uint64_t *s, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = splitmix64(s);
    while (x >= lim);
    return x % n;
}

/* Frame layout (offsets): Ethernet 0, IPv4 14, UDP 34, payload 42; IPv6 14,
 * then UDP at 54 and payload at 62, or (a frame too short for UDP: 64 or 65
 * bytes) the payload at 54 with next header 59. */
enum { ETH_HLEN = 14, IP_OFF = 14, IP_HLEN = 20, UDP_OFF = 34, UDP_HLEN = 8, PAY_OFF = 42,
       IP6_HLEN = 40, UDP6_OFF = 54 };

/* Where frame bytes after the IPv6 header start carrying the sequence number. */
static uint32_t pay6_off(uint32_t size)
{
    return size - 4 >= UDP6_OFF + UDP_HLEN ? UDP6_OFF + UDP_HLEN : UDP6_OFF;
}
#define LINK_GEN_SHUFFLE_MAX (1u << 24)

link_gen *link_gen_new(const link_gen_cfg *c, char *err, size_t errlen)
{
    if (c->size < LINK_GEN_MIN_SIZE || c->size > LINK_GEN_MAX_SIZE) {
        snprintf(err, errlen, "link gen: frame size %u not in %d..%d", c->size,
                 LINK_GEN_MIN_SIZE, LINK_GEN_MAX_SIZE);
        return NULL;
    }
    if (c->size_max && (c->size_max <= c->size || c->size_max > LINK_GEN_MAX_SIZE)) {
        snprintf(err, errlen, "link gen: largest frame size %u not in %u..%d", c->size_max, c->size + 1,
                 LINK_GEN_MAX_SIZE);
        return NULL;
    }
    if (c->size_max && c->ip_version != 4) {
        snprintf(err, errlen, "link gen: a range of frame sizes is for IPv4 frames only");
        return NULL;
    }
    if (c->flows == 0 || c->pkts_per_flow == 0) {
        snprintf(err, errlen, "link gen: flows and packets per flow must be >= 1");
        return NULL;
    }
    if (c->dst_prefix > 32) {
        snprintf(err, errlen, "link gen: destination prefix /%u not in 0..32", c->dst_prefix);
        return NULL;
    }
    uint32_t host_mask = c->dst_prefix >= 32 ? 0u : 0xffffffffu >> c->dst_prefix;
    if (c->flow_stride == 0 || (uint64_t)(c->flows - 1) * c->flow_stride > (uint64_t)host_mask) {
        snprintf(err, errlen, "link gen: %u flows %u apart do not fit in a /%u (at most %llu addresses)",
                 c->flows, c->flow_stride, c->dst_prefix, (unsigned long long)host_mask + 1);
        return NULL;
    }
    if (c->ip_version != 4 && c->ip_version != 6 && c->ip_version != 46) {
        snprintf(err, errlen, "link gen: IP version %u not 4, 6 or 46 (both)", c->ip_version);
        return NULL;
    }
    if (c->ip_version != 4 && (uint64_t)(c->flows - 1) * c->flow_stride > 0xffffu) {
        snprintf(err, errlen, "link gen: %u IPv6 flows %u apart do not fit in 16 bits of the /48",
                 c->flows, c->flow_stride);
        return NULL;
    }
    if (c->flow_shuffle && c->flows > LINK_GEN_SHUFFLE_MAX) {
        snprintf(err, errlen, "link gen: flow shuffle takes at most %u flows", LINK_GEN_SHUFFLE_MAX);
        return NULL;
    }
    link_gen *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "link gen: out of memory");
        return NULL;
    }
    if (timing_init(g, c, 0, err, errlen) != 0) {
        free(g);
        return NULL;
    }
    g->size = c->size;
    g->size_min = c->size;
    g->size_span = c->size_max ? c->size_max - c->size + 1 : 0;
    g->flows = c->flows;
    g->ppf = c->pkts_per_flow;
    g->dst_host_mask = host_mask;
    g->dst_net = c->dst_ip_base & ~host_mask;
    g->dst_base = c->dst_ip_base;
    g->stride = c->flow_stride;
    g->ip_version = c->ip_version;
    memcpy(g->dst6, c->dst_ip6_base, 16);
    if (c->flow_shuffle) {
        g->perm = malloc((size_t)c->flows * sizeof *g->perm);
        if (!g->perm) {
            snprintf(err, errlen, "link gen: out of memory");
            free(g);
            return NULL;
        }
        for (uint32_t i = 0; i < c->flows; i++)
            g->perm[i] = i;
        uint64_t s = c->seed;
        for (uint32_t i = c->flows - 1; i > 0; i--) { /* Fisher-Yates */
            uint32_t j = (uint32_t)below(&s, (uint64_t)i + 1);
            uint32_t t = g->perm[i];
            g->perm[i] = g->perm[j];
            g->perm[j] = t;
        }
    }
    /* The template: everything but the IP ID, destination, checksum, sequence
     * number and FCS, which link_gen_next() writes. */
    uint8_t *f = g->frame;
    memcpy(f, c->dst_mac, 6);
    memcpy(f + 6, c->src_mac, 6);
    put16(f + 12, 0x0800);
    uint8_t *ip = f + IP_OFF;
    ip[0] = 0x45; /* version 4, 5 words */
    ip[1] = 0;
    put16(ip + 2, (uint16_t)(c->size - 4 - ETH_HLEN));
    put16(ip + 6, 0); /* no fragments, DF clear */
    ip[8] = 64;       /* TTL */
    ip[9] = 17;       /* UDP */
    put32(ip + 12, c->src_ip);
    uint8_t *udp = f + UDP_OFF;
    put16(udp, c->src_port);
    put16(udp + 2, c->dst_port);
    put16(udp + 4, (uint16_t)(c->size - 4 - ETH_HLEN - IP_HLEN));
    put16(udp + 6, 0); /* no checksum */
    /* the IPv6 template: flow label 0, hop limit 64 */
    uint8_t *f6 = g->frame6;
    memcpy(f6, c->dst_mac, 6);
    memcpy(f6 + 6, c->src_mac, 6);
    put16(f6 + 12, 0x86dd);
    uint8_t *ip6 = f6 + IP_OFF;
    ip6[0] = 0x60;
    put16(ip6 + 4, (uint16_t)(c->size - 4 - ETH_HLEN - IP6_HLEN));
    int udp6 = pay6_off(c->size) != UDP6_OFF;
    ip6[6] = udp6 ? 17 : 59;
    ip6[7] = 64;
    memcpy(ip6 + 8, c->src_ip6, 16);
    if (udp6) {
        put16(f6 + UDP6_OFF, c->src_port);
        put16(f6 + UDP6_OFF + 2, c->dst_port);
        put16(f6 + UDP6_OFF + 4, (uint16_t)(c->size - 4 - UDP6_OFF));
    }
    return g;
}

static uint16_t ip_csum(const uint8_t *h)
{
    uint32_t s = 0;
    for (int i = 0; i < IP_HLEN; i += 2)
        s += (uint32_t)h[i] << 8 | h[i + 1];
    while (s >> 16)
        s = (s & 0xffffu) + (s >> 16);
    return (uint16_t)~s;
}

/* Frame k of the synthetic source, IPv6: into g->frame6. */
static void build_frame6(link_gen *g, uint64_t k, uint32_t flow)
{
    uint8_t *ip6 = g->frame6 + IP_OFF;
    memcpy(ip6 + 24, g->dst6, 16);
    uint32_t b45 = ((uint32_t)g->dst6[4] << 8 | g->dst6[5]) + flow * g->stride;
    put16(ip6 + 24 + 4, (uint16_t)b45);
    if (pay6_off(g->size) != UDP6_OFF)
        put16(g->frame6 + UDP6_OFF + 6, 0);  /* (a UDP checksum would be due; left 0) */
    put32(g->frame6 + pay6_off(g->size), (uint32_t)k);
    put_fcs(g->frame6, g->size);
}

/* Frame k of the synthetic source into g->frame (IPv4) or g->frame6; returns which. */
static uint8_t *build_frame(link_gen *g, uint64_t k, uint32_t *flow_out)
{
    uint32_t slot = (uint32_t)((k / g->ppf) % g->flows);
    uint32_t flow = g->perm ? g->perm[slot] : slot;
    *flow_out = flow;
    if (g->ip_version == 6 || (g->ip_version == 46 && k % 2)) {
        build_frame6(g, k, flow);
        return g->frame6;
    }
    uint32_t dst = g->dst_net | ((g->dst_base + flow * g->stride) & g->dst_host_mask);
    uint8_t *ip = g->frame + IP_OFF;
    if (g->size_span) {
        /* this frame's size: the previous one's FCS goes back to payload
         * zeros, the length fields follow */
        memset(g->frame + g->size - 4, 0, 4);
        g->size = g->size_min + (uint32_t)((k % g->size_span) * 997u % g->size_span);
        put16(ip + 2, (uint16_t)(g->size - 4 - ETH_HLEN));
        put16(g->frame + UDP_OFF + 4, (uint16_t)(g->size - 4 - ETH_HLEN - IP_HLEN));
    }
    put16(ip + 4, (uint16_t)k); /* IP ID: the sequence number's low 16 bits */
    put32(ip + 16, dst);
    put16(ip + 10, 0);
    put16(ip + 10, ip_csum(ip));
    put32(g->frame + PAY_OFF, (uint32_t)k); /* the rest of the payload stays 0 */
    put_fcs(g->frame, g->size);
    return g->frame;
}

/* 1 when frame k (from 0) carries a corrupted FCS. */
static int bad_fcs(const link_gen *g, uint64_t k)
{
    return g->bad_fcs_every && (k + 1) % g->bad_fcs_every == 0;
}

int link_gen_next(link_gen *g, link_gen_frame *out)
{
    if (g->ended || (g->count && g->k >= g->count)) {
        g->ended = 1;
        return 0;
    }
    const pcap_rec *r = NULL;
    if (g->nrec) { /* pcap replay */
        if (g->idx == g->nrec) {
            if (g->loops && g->loop + 1 >= g->loops) {
                g->ended = 1;
                return 0;
            }
            g->loop++;
            g->idx = 0;
            g->loop_base = g->wire_free;
        }
        r = &g->rec[g->idx];
    }
    ps_t nominal;
    switch (g->timing) {
    case T_RATE: nominal = sat_add(g->start, link_gen_rate_offset(g->k, g->rate)); break;
    case T_PCAP: nominal = sat_add(g->loop_base, r->rel); break;
    default: nominal = g->start; break;
    }
    ps_t t = nominal > g->wire_free ? nominal : g->wire_free;
    if (t >= g->end) {
        g->ended = 1;
        return 0;
    }
    uint64_t k = g->k;
    int bad = bad_fcs(g, k);
    uint32_t len, flow = 0;
    uint8_t *data;
    if (r) {
        len = r->len;
        data = g->buf + r->off;
        if (bad) {
            memcpy(g->scratch, data, len);
            data = g->scratch;
        }
        g->idx++;
    } else {
        data = build_frame(g, k, &flow);
        len = g->size;
    }
    if (bad) {
        for (uint32_t i = len - 4; i < len; i++)
            data[i] = (uint8_t)~data[i];
        g->crc_errors++;
    }
    out->t_start = t;
    out->t_end = sat_add(t, (ps_t)(LINK_GEN_PREAMBLE_BYTES + len) * g->byte_ps);
    out->data = data;
    out->len = len;
    out->crc_ok = !bad;
    out->flow = flow;
    out->seq = k;
    g->wire_free = sat_add(t, (ps_t)(LINK_GEN_PREAMBLE_BYTES + len + LINK_GEN_GAP_BYTES) * g->byte_ps);
    g->k++;
    g->bytes += len;
    return 1;
}

uint64_t link_gen_frames(const link_gen *g)
{
    return g->k;
}

uint64_t link_gen_bytes(const link_gen *g)
{
    return g->bytes;
}

uint64_t link_gen_crc_errors(const link_gen *g)
{
    return g->crc_errors;
}

int link_gen_delay(link_gen *g, ps_t dt)
{
    if (g->k)
        return -1;
    g->start = sat_add(g->start, dt);
    if (g->end != PS_NEVER)
        g->end = sat_add(g->end, dt);
    g->wire_free = sat_add(g->wire_free, dt);
    g->loop_base = sat_add(g->loop_base, dt);
    return 0;
}

void link_gen_free(link_gen *g)
{
    if (!g)
        return;
    free(g->perm);
    free(g->buf);
    free(g->rec);
    free(g->scratch);
    free(g);
}

/* ---- pcap replay ------------------------------------------------------------ */

#define LINK_GEN_MAX_CAPLEN (LINK_GEN_MAX_FRAME - 4)

/* Append one frame (padded, with its FCS) to g's buffer; -1 out of memory. */
static int pcap_append(link_gen *g, size_t *buf_cap, size_t *rec_cap, size_t *used,
                       const uint8_t *data, uint32_t caplen, ps_t rel)
{
    uint32_t flen = caplen < LINK_GEN_MIN_FRAME ? LINK_GEN_MIN_FRAME : caplen;
    uint32_t len = flen + 4;
    if (*used + len > *buf_cap) {
        size_t cap = *buf_cap ? *buf_cap : 65536;
        while (*used + len > cap)
            cap *= 2;
        uint8_t *nb = realloc(g->buf, cap);
        if (!nb)
            return -1;
        g->buf = nb;
        *buf_cap = cap;
    }
    if (g->nrec == *rec_cap) {
        size_t cap = *rec_cap ? *rec_cap * 2 : 1024;
        pcap_rec *nr = realloc(g->rec, cap * sizeof *nr);
        if (!nr)
            return -1;
        g->rec = nr;
        *rec_cap = cap;
    }
    uint8_t *f = g->buf + *used;
    memcpy(f, data, caplen);
    memset(f + caplen, 0, flen - caplen);
    put_fcs(f, len);
    g->rec[g->nrec].off = *used;
    g->rec[g->nrec].len = len;
    g->rec[g->nrec].rel = rel;
    g->nrec++;
    *used += len;
    return 0;
}

link_gen *link_gen_new_pcap(const char *path, const link_gen_cfg *c, char *err, size_t errlen)
{
    link_gen *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "link gen: out of memory");
        return NULL;
    }
    if (timing_init(g, c, 1, err, errlen) != 0) {
        free(g);
        return NULL;
    }
    g->loops = c->loops;
    g->loop_base = c->start;

    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        free(g);
        return NULL;
    }
    char perr[PCAP_ERRBUF_SIZE];
    perr[0] = '\0';
    /* Nanosecond precision: libpcap scales microsecond files up. */
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, perr);
    if (!p) {
        fclose(fp); /* not taken over on failure */
        snprintf(err, errlen, "%s: cannot open: %s", path, perr);
        free(g);
        return NULL;
    }
    int ok = 0;
    size_t buf_cap = 0, rec_cap = 0, used = 0;
    uint32_t max_len = 0;
    int64_t ts0 = 0;
    if (pcap_datalink(p) != DLT_EN10MB) {
        snprintf(err, errlen, "%s: link type %d, not Ethernet", path, pcap_datalink(p));
        goto out;
    }
    for (;;) {
        struct pcap_pkthdr *h;
        const u_char *data;
        int rc = pcap_next_ex(p, &h, &data);
        size_t n = g->nrec + 1; /* this frame's number, from 1 */
        if (rc == PCAP_ERROR_BREAK)
            break;
        if (rc != 1) {
            const char *m = pcap_geterr(p);
            if (strstr(m, "truncated"))
                snprintf(err, errlen, "%s: frame %zu: truncated", path, n);
            else
                snprintf(err, errlen, "%s: frame %zu: %s", path, n, m);
            goto out;
        }
        if (h->caplen == 0) {
            snprintf(err, errlen, "%s: frame %zu: empty", path, n);
            goto out;
        }
        if (h->caplen < h->len) {
            snprintf(err, errlen, "%s: frame %zu: only %u of %u bytes captured", path, n,
                     h->caplen, h->len);
            goto out;
        }
        if (h->caplen > LINK_GEN_MAX_CAPLEN) {
            snprintf(err, errlen, "%s: frame %zu: %u bytes, longer than %d", path, n, h->caplen,
                     LINK_GEN_MAX_CAPLEN);
            goto out;
        }
        /* With nanosecond precision tv_usec holds nanoseconds. */
        int64_t ts = (int64_t)h->ts.tv_sec * 1000000000 + (int64_t)h->ts.tv_usec;
        if (g->nrec == 0)
            ts0 = ts;
        ps_t rel = 0;
        if (ts > ts0) {
            uint64_t d = (uint64_t)ts - (uint64_t)ts0;
            rel = d > PS_NEVER / PS_PER_NS ? PS_NEVER : d * PS_PER_NS;
        }
        if (pcap_append(g, &buf_cap, &rec_cap, &used, data, h->caplen, rel) != 0) {
            snprintf(err, errlen, "%s: frame %zu: out of memory", path, n);
            goto out;
        }
        if (g->rec[g->nrec - 1].len > max_len)
            max_len = g->rec[g->nrec - 1].len;
    }
    if (g->nrec == 0) {
        snprintf(err, errlen, "%s: no frames", path);
        goto out;
    }
    g->scratch = malloc(max_len);
    if (!g->scratch) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    ok = 1;
out:
    pcap_close(p);
    if (!ok) {
        link_gen_free(g);
        return NULL;
    }
    return g;
}
