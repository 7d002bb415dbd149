/* The link partner's generator: the traffic source on the wire into one NIC
 * port's receive side.  It produces whole Ethernet frames, FCS included, each
 * with the picosecond times at which its preamble starts and its last bit
 * (the end of the FCS) arrives.  Two sources:
 *
 *  - synthetic: IPv4/UDP frames of one size (64..1518 bytes incl. the FCS),
 *    or IPv4 frames spread over a range of sizes (size_max), to
 *    N flows × M packets per flow (a flow is a destination address: M
 *    consecutive frames to flow 0, then M to flow 1, ..., cycling), at an
 *    offered rate or at line rate, for a count and/or a duration; or IPv6
 *    frames (UDP when the frame has room for its header, else "no next
 *    header" with the sequence number as payload), or both alternately;
 *  - pcap replay: the frames of a pcap (which holds frames without FCS),
 *    padded to 60 bytes and given an FCS, at the file's own timing or at an
 *    offered rate, looped.
 *
 * Timing (both sources): the wire carries 8 bytes of preamble+SFD, the frame
 * with its FCS, then a 12-byte gap, each byte 8000 / gbps ps (rounded to a
 * whole ps as link_wire does).  Frame k starts at
 *     t_start(k) = max(nominal(k), t_start(k-1) + (len(k-1) + 20) * byte_ps)
 * so the generator never exceeds line rate, and
 *     nominal(k) = start + floor(k * 10^12 / rate_pps)   (rate_pps > 0)
 *     nominal(k) = start                                 (rate_pps = 0: line rate)
 * computed exactly in integers: no drift however long the run.  With the
 * pcap's own timing, nominal = loop start + (timestamp - first timestamp).
 * t_end = t_start + (8 + len) * byte_ps.
 *
 * Deterministic: no wall clock, no global state; the only randomness (an
 * optional flow-order permutation) comes from a PRNG seeded by the config. */
#ifndef NICSIM_LINK_GEN_H
#define NICSIM_LINK_GEN_H
#include <stddef.h>
#include <stdint.h>
#include "kernel/sched.h"

enum {
    LINK_GEN_MIN_SIZE = 64,     /* synthetic frame sizes, incl. the FCS */
    LINK_GEN_MAX_SIZE = 1518,
    LINK_GEN_MIN_FRAME = 60,    /* pcap frames are padded to this, before the FCS */
    LINK_GEN_MAX_FRAME = 65535, /* longest replayed frame incl. the FCS */
    LINK_GEN_PREAMBLE_BYTES = 8, /* preamble + SFD */
    LINK_GEN_GAP_BYTES = 12,    /* inter-frame gap */
};

typedef struct link_gen_cfg {
    /* timing (both sources) */
    double gbps;            /* line rate, 0.001..1600; default 1 */
    uint64_t rate_pps;      /* offered rate; 0 = line rate (the default; for
                               pcap replay: the file's own timing); a rate above
                               line rate gives line rate */
    ps_t start;             /* nominal start of frame 0; default 0 */
    uint64_t count;         /* frames to send; 0 = no limit; default 10,000,000
                               (seed 000: 10 M packets offered per port) */
    ps_t duration;          /* send frames whose t_start < start + duration;
                               0 = no limit (default) */
    uint32_t bad_fcs_every; /* N > 0: frames N, 2N, 3N, ... (counting from 1)
                               carry a wrong FCS (inverted); 0 = none (default) */
    /* synthetic source */
    uint32_t size;          /* frame size incl. FCS, 64..1518; default 64 */
    uint32_t size_max;      /* 0 (default): every frame is size bytes; else
                               size < size_max <= 1518 and frame k is
                               size + (k * 997) mod (size_max - size + 1)
                               bytes (997 is prime: a range not a multiple
                               of it sees every size once in each run of
                               that many frames); IPv4 only */
    uint8_t dst_mac[6];     /* default 02:00:00:00:00:01 (pktgen's MAC on port 0) */
    uint8_t src_mac[6];     /* default 02:00:00:00:00:02 */
    uint32_t src_ip;        /* host order; default 192.168.0.2 */
    uint32_t dst_ip_base;   /* host order; flow i's address, see dst_prefix; default 10.0.0.1 */
    uint8_t dst_prefix;     /* 0..32: flows vary only the host bits below this
                               prefix of dst_ip_base; default 8 (10.0.0.0/8) */
    uint32_t flow_stride;   /* flow i's destination is dst_ip_base + i * flow_stride
                               (within the prefix's host bits); default 1 */
    uint16_t src_port, dst_port; /* UDP; default 9 and 9 */
    uint8_t ip_version;     /* 4 (default), 6, or 46: IPv4 and IPv6 frames
                               alternately, frame 0 IPv4 (flow order is the same) */
    uint8_t src_ip6[16];    /* IPv6 source; default 2001:db8:ffff::2 */
    uint8_t dst_ip6_base[16]; /* IPv6: flow i's destination adds i * flow_stride to
                               bytes 4..5 (big endian, the last 16 bits of a /48) of
                               this address; default 2001:db8::1 */
    uint32_t flows;         /* >= 1, at most 2^(32 - dst_prefix); default 1 */
    uint32_t pkts_per_flow; /* >= 1; default 10 (seed 000: "A flow is 10 pkts") */
    int flow_shuffle;       /* 1: visit the flows in a seeded random order (one
                               permutation, the same every cycle); default 0 */
    uint64_t seed;          /* seeds the permutation; default 1 */
    /* pcap source */
    uint32_t loops;         /* passes through the file; 0 = until count or
                               duration ends it; default 1 */
} link_gen_cfg;

typedef struct link_gen_frame {
    ps_t t_start;           /* first bit of the preamble on the wire */
    ps_t t_end;             /* last bit of the FCS: when a store-and-forward MAC has the frame */
    const uint8_t *data;    /* len bytes incl. the FCS; valid until the next call */
    uint32_t len;
    int crc_ok;             /* 0 when the FCS was corrupted on purpose */
    uint32_t flow;          /* synthetic: the flow index (dst = base + flow); pcap: 0 */
    uint64_t seq;           /* frame number from 0 (pcap: across loops) */
} link_gen_frame;

typedef struct link_gen link_gen;

void link_gen_cfg_default(link_gen_cfg *cfg);

/* A synthetic generator.  NULL with "link gen: WHAT" in err on a bad config. */
link_gen *link_gen_new(const link_gen_cfg *cfg, char *err, size_t errlen);

/* Replay the pcap at path (any link-layer timestamp precision; Ethernet
 * link type), using cfg's timing fields (gbps, rate_pps: 0 = keep the pcap's
 * timestamps relative to its first frame, start, count, duration,
 * bad_fcs_every) and loops; the synthetic fields are ignored.  Frames shorter
 * than 60 bytes are padded with zeros to 60; the FCS is appended, so a frame's
 * len is max(caplen, 60) + 4.  Each loop after the first starts as soon as the
 * wire is free after the previous loop's last frame.  The whole file is read
 * here, so every error is reported now, as
 *   "PATH: cannot open: REASON", "PATH: frame N: truncated",
 *   "PATH: frame N: only C of L bytes captured", "PATH: frame N: empty",
 *   "PATH: frame N: C bytes, longer than 65531", "PATH: no frames",
 *   "PATH: link type N, not Ethernet", "PATH: frame N: REASON",
 *   or "link gen: WHAT" for a bad cfg (N counts frames from 1). */
link_gen *link_gen_new_pcap(const char *path, const link_gen_cfg *cfg, char *err, size_t errlen);

/* Move a generator that has not returned a frame yet dt later (its start,
 * duration window and loop base with it): a link partner started once the
 * device under test is up.  0, or -1 after the first frame. */
int link_gen_delay(link_gen *g, ps_t dt);

/* The next frame into *out: 1, or 0 when the source has ended (and on every
 * later call). */
int link_gen_next(link_gen *g, link_gen_frame *out);

uint64_t link_gen_frames(const link_gen *g);     /* frames returned so far */
uint64_t link_gen_bytes(const link_gen *g);      /* their len, incl. FCS */
uint64_t link_gen_crc_errors(const link_gen *g); /* of them with crc_ok = 0 */

void link_gen_free(link_gen *g);

/* floor(k * 10^12 / rate_pps), exact for every k and 1 <= rate_pps <= 10^12
 * (no 64-bit overflow of k * 10^12): frame k's nominal offset from the start. */
ps_t link_gen_rate_offset(uint64_t k, uint64_t rate_pps);

/* CRC-32 of IEEE 802.3 (reflected 0x04C11DB7, init and final xor ~0): the
 * value of the FCS, which goes on the wire least significant byte first.
 * link_gen_crc32("123456789", 9) = 0xCBF43926. */
uint32_t link_gen_crc32(const uint8_t *p, size_t n);

#endif
