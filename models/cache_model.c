/* Host cache model (see cache_model.h and docs/models.md, "Host caches"). */
#include "cache_model.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    ST_STATE = 0x3,   /* cache_state */
    ST_PF = 0x4,      /* filled by a prefetch, no demand access yet */
    ST_EXCL = 0x8,    /* no other CPU holds the line: a write need not look */
    MAX_WAYS = 16,    /* the LRU order is 16 nibbles */
    MAX_CPUS = 64,
};

#define NO_TAG UINT64_MAX   /* line addresses are < 2^58: never a valid tag */

/* One level of one CPU: sets x ways.  A set is one contiguous block, so that
 * a lookup touches few host cache lines: the LRU order of its ways (a 64-bit
 * word of 4-bit way numbers, nibble 0 the most recently used; invalid ways
 * are kept at the end, so the victim is always the last one), the tags of
 * its ways, (L1 only) their fill completion times, and their states.
 * The L2 keeps no fill times: a line reaches the L2 only when the L1 lets it
 * go, and one whose fill was still in flight then counts as arrived (rare:
 * its L1 set must have taken two other fills within the fill time).  That
 * keeps an L2 set of 16 ways in 3 host cache lines, an L1 set of 2 in 1. */
typedef struct level {
    uint32_t ways;
    int has_ready;
    uint64_t set_mask;
    size_t stride;        /* bytes per set block, a multiple of 64 */
    unsigned char *mem;
} level;

typedef struct setv {
    uint64_t *ord;        /* LRU order */
    uint64_t *tag;        /* line address (addr >> 6), NO_TAG when invalid */
    ps_t *ready;          /* fill completion time; NULL in the L2 */
    uint8_t *st;          /* ST_* */
} setv;

/* Line fill buffers a profile may have (no core of the period had more). */
#define CACHE_MAX_LFB 32u

typedef struct ccpu {
    level l1, l2;
    ps_t l1_ps, l2_ps, l2_stream_ps, l3_ps;
    ps_t l2_pipe, l3_pipe, mem_pipe;   /* completion time of the last fill through each */
    ps_t lfb_free[CACHE_MAX_LFB];      /* when each line fill buffer frees */
    cache_cpu_stats st;
} ccpu;

struct cache_hier {
    cache_profile prof;
    int ncpu;
    ps_t mem_ps, mem_stream_ps, c2c_ps;
    ccpu *cpu;
    int has_l3;
    level l3;                  /* shared; no fill times, states unused */
    cache_l3_stats l3st;
};

/* ---- the profile ----------------------------------------------------------
 * AMD Opteron, K8 core (130 nm SledgeHammer, 90 nm), 2004-2005: the dual
 * 1.6 GHz Opteron of the 2004-2006 reference posts (seed 000: 2.6.14, e1000
 * 6.2.15, two 82546GB).  Sources, facts only:
 *  [AMD25112] AMD, Software Optimization Guide for AMD64 Processors, #25112
 *             (rev. 3.04 2004, 3.06 2005), appendix A: L1 data cache 64 KB
 *             2-way, 64-byte lines; the L2 is exclusive, holding L1 victims.
 *  [HP]       Hennessy & Patterson, Computer Architecture: A Quantitative
 *             Approach, 4th ed. (2006), section 5.6 "AMD Opteron Memory
 *             Hierarchy": L2 1 MB 16-way, 64-byte blocks, returned 8 bytes
 *             per clock; L2 replacement pseudo-LRU.
 *  [AT2139]   AnandTech #2139 (Dec. 2006, AMD's 65 nm Brisbane): the 130 nm
 *             and 90 nm K8 L2 latency is 12 cycles (CPU-Z and ScienceMark
 *             2.0; AMD's statement: 65 nm "up from 12 cycles" to 14).
 *  [THG-K10]  Tom's Hardware, AMD K10 architecture (2007): the L1 data cache
 *             is still 2-way with a 3-cycle latency, as on K8.
 *  [AT1098]   AnandTech #1098 (Opteron launch, 2003): memory latency of an
 *             Opteron 244 (1.8 GHz) 85 ns, 153 clocks.
 *  [McC2010]  J. McCalpin, "AMD Opteron Local Memory Latency Chart" (2010):
 *             K8 rev E/F, 2.4-3.0 GHz, 1 or 2 sockets: 60 ns open-page
 *             pointer chasing with prefetch defeated; latency is the longer
 *             of the DRAM access and the snoop responses of the other
 *             chips; the K8 memory controller runs at the core clock. */
void cache_profile_opteron_1600(cache_profile *p)
{
    memset(p, 0, sizeof *p);
    p->name = "opteron-1.6ghz";
    /* [AMD25112] 64 KB, 2-way, 64-byte lines. */
    p->l1_size = 64u * 1024u;
    p->l1_ways = 2;
    /* [THG-K10] 3-cycle load-to-use latency (K8 and K10 alike). */
    p->l1_cycles = 3;
    /* [HP] 1 MB, 16-way (the Opteron 2xx parts; some Athlon 64 have 512 KB).
     * Modelled as exclusive of the L1 [AMD25112]. */
    p->l2_size = 1024u * 1024u;
    p->l2_ways = 16;
    /* [AT2139] 12 cycles on the 130 nm and 90 nm K8. */
    p->l2_cycles = 12;
    /* [HP] the L2 returns a block 8 bytes per clock: a 64-byte line occupies
     * the L2->L1 path 8 cycles, the interval between lines of a burst. */
    p->l2_stream_cycles = 8;
    /* Estimate, 80 ns: between [McC2010]'s 60 ns (best case, later and faster
     * K8 parts with faster DRAM) and [AT1098]'s 85 ns (a 1.8 GHz Opteron of
     * 2003 on registered DDR333, a benchmark whose strides also miss the
     * DTLB); a 1.6 GHz part's on-die controller runs at 1.6 GHz, slower than
     * [McC2010]'s.  Kernel data sits in the large-page direct mapping, so a
     * driver's miss pays no page walk. */
    p->mem_ns = 80;
    /* Estimate, 15 ns: 64 bytes at about 4.3 GB/s, ~80 % of the 5.3 GB/s
     * peak of the dual-channel registered DDR333 (PC2700) per Opteron. */
    p->mem_stream_ns = 15;
    /* Estimate, 100 ns: on a 2-socket K8 a miss is broadcast as a probe over
     * HyperTransport [McC2010]; a line dirty in the other socket comes back
     * from that cache over the link (probe hop + the owner's lookup + data
     * hop), not faster than local memory, about one link round trip more. */
    p->c2c_ns = 100;
    /* 8 L1 data misses in flight: the count of K8's miss address buffers
     * commonly quoted (not found in a primary source; [AMD25112] A.15 gives
     * the 32-entry LS2 queue that holds L1 misses, an upper bound).
     * [AMD25112] App. A:
     * a 72-entry reorder buffer (24 lines of 3 macro-ops) dispatching 3 per
     * cycle: the core runs at least 72 / 3 = 24 cycles past a missing load
     * before the buffer is full (the shortest time it fills; slower code
     * runs longer: the model does not credit that). */
    p->lfb = 8;
    p->window_cycles = 24;
    /* Stores wait for their line at once on this profile: the behaviour the
     * 2004 tables were calibrated with.  With K8's stores buffered, the
     * model puts the router with 4096 TX descriptors (seed 002) 19 % above
     * the seed's rate: the loss on that machine then has no mechanism in
     * the model (docs/models.md, "Memory-level parallelism", says so); no
     * K8 store-buffer figure was found to replace it. */
    p->stores_wait = 1;
}

/* ---- Intel Xeon E5-2680 v2 (Ivy Bridge-EP, 2013), 2.8 GHz ------------------
 * The 2014 dual-socket server of the l3fwd experiment (one core used).
 * Sources, facts only (several from sibling parts of the same die):
 *  [7cpu]    7-cpu.com, "Intel Ivy Bridge" (i7-3770): L1 load-to-use "4"
 *            cycles for 32 K; L2 "12" cycles; L3 "26".."35" cycles by slice,
 *            "30" typical.
 *  [kc]      RRZE-HPC/kerncraft, examples/machine-files/IvyBridgeEP_E5-2690v2.yml
 *            and _E5-2660v2.yml: L1 64 sets x 8 ways, L2 512 sets x 8 ways,
 *            64-byte lines; L2->L1 "32 B/cy"; one core's memory load
 *            bandwidth 15.68 GB/s (E5-2690 v2, 3.0 GHz) and 9.48 GB/s
 *            (E5-2660 v2, 2.2 GHz).
 *  [g5]      baz21/g5 configs/common/Intel_E5_2643_v2_O3.py (a 25 MB
 *            Ivy Bridge-EP): "--l3_size=25mB 20way".
 *  [TR21987] The Tech Report, Sandy Bridge-E (2011): "L3 latency at 30 cycles".
 *  [7cpuWsm] 7-cpu.com, "Westmere" (Xeon X5650, 2-socket): "RAM Latency =
 *            40 cycles + 67 ns (RAM connected to this CPU)".
 *  [Intel]   Intel Data Direct I/O: "makes the processor cache the primary
 *            destination and source of I/O data rather than main memory",
 *            from the Xeon E5 family on.
 *  [IDF10]   Intel IDF 2010 table of Sandy Bridge's core (as printed by
 *            ExtremeTech, "Sandy Bridge: Intel's next-generation
 *            microarchitecture revealed", p. 2): reorder buffer 168 entries
 *            (Nehalem 128), load / store buffers 64 / 36, 4 micro-ops a
 *            cycle; Ivy Bridge is its die shrink.
 *  [LFB]     10 L1D line fill buffers on Intel cores from Nehalem to Ivy
 *            Bridge (7-cpu.com "Westmere": "10 LFB"; the same count for
 *            Sandy and Ivy Bridge in secondary sources; Intel's manual text
 *            was not retrieved). */
void cache_profile_ivybridge_ep_2800(cache_profile *p)
{
    memset(p, 0, sizeof *p);
    p->name = "ivybridge-ep-2.8ghz";
    /* [kc] [7cpu] 32 KB 8-way, 4 cycles. */
    p->l1_size = 32u * 1024u;
    p->l1_ways = 8;
    p->l1_cycles = 4;
    /* [kc] [7cpu] 256 KB 8-way, 12 cycles; 32 bytes per cycle to the L1: a
     * line every 2 cycles.  (Modelled exclusive of the L1, as the K8's; the
     * real one is non-inclusive.) */
    p->l2_size = 256u * 1024u;
    p->l2_ways = 8;
    p->l2_cycles = 12;
    p->l2_stream_cycles = 2;
    /* [g5] 25 MB 20-way; modelled as 16 MB 16-way (the model's sets are a
     * power of two and its LRU at most 16 ways); the experiment's working
     * set (rings, buffers, route entries) is a few MB.  30 cycles: [7cpu]
     * and [TR21987] on 4- and 6-slice parts; a 10-slice ring is somewhat
     * slower, so this is the low end. */
    p->l3_size = 16u * 1024u * 1024u;
    p->l3_ways = 16;
    p->l3_cycles = 30;
    /* [7cpuWsm] 40 cycles + 67 ns on the previous 2-socket generation: 81 ns
     * at 2.8 GHz (no Ivy Bridge-EP figure found). */
    p->mem_ns = 81;
    /* 64 bytes at about 14 GB/s, one core [kc] (between the 2.2 and 3.0 GHz
     * parts' 9.5 and 15.7 GB/s). */
    p->mem_stream_ns = 4.6;
    /* Estimate: a line dirty in another core of the socket comes through the
     * L3 and a snoop, taken as 40 cycles (14 ns).  One core in the l3fwd
     * experiment: unused there. */
    p->c2c_ns = 14;
    /* DDIO is a scenario choice (cpu.ddio): off here. */
    p->ddio = 0;
    /* [LFB] 10; [IDF10] 168 / 4: the core runs at least 42 cycles past a
     * missing load before its reorder buffer is full. */
    p->lfb = 10;
    p->window_cycles = 42;
    /* [IDF10] a 36-entry store buffer: stores that miss wait there */
    p->stores_wait = 0;
}

/* ---- Intel Xeon E3-1230 V2 (Ivy Bridge, client die, 2012), 3.3 GHz --------
 * The machine of the ixy forwarding experiment: 4 cores, 8 MB L3, dual-
 * channel DDR3-1600, no DDIO.  Sources as above, and:
 *  [7cpuIvb] 7-cpu.com "Intel Ivy Bridge" (i7-3770, the same die, 3.4 GHz,
 *            turbo off): L1 4 cycles, L2 12, L3 26..35 by slice (29-30 from
 *            a core to the slices in turn; 29 at a 4 MB working set).
 *  [TR18581] The Tech Report, Core i7-980X review p. 5: client Westmere
 *            with DDR3, memory latency "about 51 ns" at a 32 MB block.
 *  [DDIOfam] Intel's DDIO pages name the Xeon E5 and E7 v2 families; the
 *            E3-1200 v2's PCIe root is the client die's: no DDIO. */
void cache_profile_ivybridge_e3_3300(cache_profile *p)
{
    cache_profile_ivybridge_ep_2800(p);
    p->name = "ivybridge-e3-3.3ghz";
    /* [7cpuIvb] 8 MB, 16-way (the client L3); 29 cycles, the core's
     * typical figure (the ring runs at the core's clock on the client die,
     * so it stays 29 cycles at any core clock). */
    p->l3_size = 8u * 1024u * 1024u;
    p->l3_ways = 16;
    p->l3_cycles = 29;
    /* Estimate, 55 ns: one socket, unbuffered dual-channel DDR3-1600, no
     * remote snoop; a little above [TR18581]'s 51 ns for client Westmere,
     * well below the 2-socket server's 81 ns [7cpuWsm]. */
    p->mem_ns = 55;
    /* Estimate: 64 bytes at about 13 GB/s for one core (dual-channel
     * DDR3-1600 peaks at 25.6 GB/s; [kc]'s one-core figures for the server
     * die are 9.5..15.7 GB/s). */
    p->mem_stream_ns = 4.9;
    p->ddio = 0;                /* [DDIOfam] */
}

/* ---- Intel Xeon E5-2630 (Sandy Bridge-EP, 2012), 2.3 GHz -------------------
 * The single-CPU server of the Linux pktgen experiment: 6 cores, 15 MB L3,
 * DDIO.  Sources as above, and [TR21987]: Sandy Bridge-E's L1 4, L2 12, L3
 * 30 cycles. */
void cache_profile_sandybridge_ep_2300(cache_profile *p)
{
    cache_profile_ivybridge_ep_2800(p);
    p->name = "sandybridge-ep-2.3ghz";
    /* [TR21987] 30 cycles; 15 MB 20-way modelled as 16 MB 16-way (the
     * model's sets are a power of two). */
    p->l3_size = 16u * 1024u * 1024u;
    p->l3_ways = 16;
    p->l3_cycles = 30;
    /* [7cpuWsm] 40 cycles + 67 ns on the previous server generation: 84 ns
     * at 2.3 GHz (no Sandy Bridge-EP figure found). */
    p->mem_ns = 84;
    /* 64 bytes at about 10 GB/s for one core ([kc]: 9.5 GB/s at 2.2 GHz). */
    p->mem_stream_ns = 6.4;
}

int cache_profile_by_name(const char *name, cache_profile *p)
{
    if (name && strcmp(name, "opteron-1.6ghz") == 0) {
        cache_profile_opteron_1600(p);
        return 0;
    }
    if (name && strcmp(name, "ivybridge-ep-2.8ghz") == 0) {
        cache_profile_ivybridge_ep_2800(p);
        return 0;
    }
    if (name && strcmp(name, "ivybridge-e3-3.3ghz") == 0) {
        cache_profile_ivybridge_e3_3300(p);
        return 0;
    }
    if (name && strcmp(name, "sandybridge-ep-2.3ghz") == 0) {
        cache_profile_sandybridge_ep_2300(p);
        return 0;
    }
    return -1;
}

static int pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

static int bad_lat(double x)
{
    return !isfinite(x) || x < 0 || x > 1e6;   /* cycles or ns: up to 1 ms */
}

static const char *check_level(uint32_t size, uint32_t ways, const char *what)
{
    if (ways < 1 || ways > MAX_WAYS)
        return what;
    uint64_t per_set = (uint64_t)ways * CACHE_LINE_BYTES;
    if (size == 0 || size % per_set != 0 || !pow2(size / per_set))
        return what;
    return NULL;
}

const char *cache_profile_check(const cache_profile *p)
{
    const char *e;
    if (!p)
        return "no profile";
    if ((e = check_level(p->l1_size, p->l1_ways,
                         "L1: ways must be 1..16 and size / (ways x 64) a power of two")))
        return e;
    if ((e = check_level(p->l2_size, p->l2_ways,
                         "L2: ways must be 1..16 and size / (ways x 64) a power of two")))
        return e;
    if (bad_lat(p->l1_cycles) || bad_lat(p->l2_cycles) || bad_lat(p->l2_stream_cycles) ||
        bad_lat(p->mem_ns) || bad_lat(p->mem_stream_ns) || bad_lat(p->c2c_ns))
        return "latencies must be finite and >= 0";
    if (p->l2_cycles < p->l1_cycles)
        return "the L2 latency must not be below the L1 latency";
    if (p->l3_size) {
        if ((e = check_level(p->l3_size, p->l3_ways,
                             "L3: ways must be 1..16 and size / (ways x 64) a power of two")))
            return e;
        if (bad_lat(p->l3_cycles) || p->l3_cycles < p->l2_cycles)
            return "the L3 latency must be finite and not below the L2 latency";
    } else if (p->ddio) {
        return "DDIO needs an L3";
    }
    if (p->lfb > CACHE_MAX_LFB)
        return "line fill buffers: at most 32";
    if (bad_lat(p->window_cycles))
        return "the window must be finite and >= 0 cycles";
    return NULL;
}

/* ---- construction -------------------------------------------------------- */

/* Rounded to the nearest ps (x >= 0 and bounded: the profile and the clock
 * are checked).  No libm, so that the model links on its own. */
static ps_t round_ps(double x)
{
    return (ps_t)(x + 0.5);
}

static ps_t ns_ps(double ns)
{
    return round_ps(ns * 1000.0);
}

static ps_t cyc_ps(double cycles, double mhz)
{
    return round_ps(cycles * 1e6 / mhz);
}

static inline setv set_at(const level *L, uint64_t set)
{
    setv v;
    unsigned char *b = L->mem + (size_t)set * L->stride;
    v.ord = (uint64_t *)(void *)b;
    b += sizeof(uint64_t);
    v.tag = (uint64_t *)(void *)b;
    b += (size_t)L->ways * sizeof(uint64_t);
    v.ready = NULL;
    if (L->has_ready) {
        v.ready = (ps_t *)(void *)b;
        b += (size_t)L->ways * sizeof(ps_t);
    }
    v.st = b;
    return v;
}

static void level_clear(level *L)
{
    for (uint64_t set = 0; set <= L->set_mask; set++) {
        setv v = set_at(L, set);
        *v.ord = 0;
        for (uint32_t w = 0; w < L->ways; w++) {
            v.tag[w] = NO_TAG;
            if (v.ready)
                v.ready[w] = 0;
            v.st[w] = 0;
            *v.ord |= (uint64_t)w << (4 * w);
        }
    }
}

static int level_init(level *L, uint32_t size, uint32_t ways, int has_ready)
{
    size_t sets = size / CACHE_LINE_BYTES / ways;
    size_t bytes = sizeof(uint64_t) + (size_t)ways * (sizeof(uint64_t) + (has_ready ? sizeof(ps_t) : 0) + 1);
    L->ways = ways;
    L->has_ready = has_ready;
    L->set_mask = sets - 1;
    L->stride = (bytes + 63) & ~(size_t)63;
    L->mem = aligned_alloc(64, sets * L->stride);
    if (!L->mem)
        return -1;
    level_clear(L);
    return 0;
}

static void level_free(level *L)
{
    free(L->mem);
}

static void set_clock(cache_hier *h, ccpu *c, double mhz)
{
    c->l1_ps = cyc_ps(h->prof.l1_cycles, mhz);
    c->l2_ps = cyc_ps(h->prof.l2_cycles, mhz);
    c->l2_stream_ps = cyc_ps(h->prof.l2_stream_cycles, mhz);
    c->l3_ps = cyc_ps(h->prof.l3_cycles, mhz);
}

static int good_mhz(double mhz)
{
    return isfinite(mhz) && mhz >= 1 && mhz <= 1e6;
}

cache_hier *cache_hier_new(const cache_profile *p, int ncpu, double mhz)
{
    if (cache_profile_check(p) || ncpu < 1 || ncpu > MAX_CPUS || !good_mhz(mhz))
        return NULL;
    cache_hier *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->prof = *p;
    h->ncpu = ncpu;
    h->mem_ps = ns_ps(p->mem_ns);
    h->mem_stream_ps = ns_ps(p->mem_stream_ns);
    h->c2c_ps = ns_ps(p->c2c_ns);
    h->cpu = calloc((size_t)ncpu, sizeof *h->cpu);
    if (!h->cpu) {
        free(h);
        return NULL;
    }
    if (p->l3_size) {
        if (level_init(&h->l3, p->l3_size, p->l3_ways, 0)) {
            free(h->cpu);
            free(h);
            return NULL;
        }
        h->has_l3 = 1;
    }
    for (int i = 0; i < ncpu; i++) {
        ccpu *c = &h->cpu[i];
        if (level_init(&c->l1, p->l1_size, p->l1_ways, 1) || level_init(&c->l2, p->l2_size, p->l2_ways, 0)) {
            cache_hier_free(h);
            return NULL;
        }
        set_clock(h, c, mhz);
    }
    return h;
}

void cache_hier_free(cache_hier *h)
{
    if (!h)
        return;
    if (h->cpu)
        for (int i = 0; i < h->ncpu; i++) {
            level_free(&h->cpu[i].l1);
            level_free(&h->cpu[i].l2);
        }
    free(h->cpu);
    if (h->has_l3)
        level_free(&h->l3);
    free(h);
}

int cache_hier_set_mhz(cache_hier *h, int cpu, double mhz)
{
    if (!h || cpu < 0 || cpu >= h->ncpu || !good_mhz(mhz))
        return -1;
    set_clock(h, &h->cpu[cpu], mhz);
    return 0;
}

int cache_hier_ncpu(const cache_hier *h)
{
    return h ? h->ncpu : 0;
}

const cache_profile *cache_hier_profile(const cache_hier *h)
{
    return h ? &h->prof : NULL;
}

void cache_hier_flush(cache_hier *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->ncpu; i++) {
        ccpu *c = &h->cpu[i];
        level_clear(&c->l1);
        level_clear(&c->l2);
        c->l2_pipe = c->l3_pipe = c->mem_pipe = 0;
        memset(c->lfb_free, 0, sizeof c->lfb_free);
    }
    if (h->has_l3)
        level_clear(&h->l3);
}

const cache_cpu_stats *cache_stats(const cache_hier *h, int cpu)
{
    if (!h || cpu < 0 || cpu >= h->ncpu)
        return NULL;
    return &h->cpu[cpu].st;
}

void cache_stats_reset(cache_hier *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->ncpu; i++)
        memset(&h->cpu[i].st, 0, sizeof h->cpu[i].st);
    memset(&h->l3st, 0, sizeof h->l3st);
}

const cache_l3_stats *cache_l3_stats_of(const cache_hier *h)
{
    return h ? &h->l3st : NULL;
}

/* ---- one level ------------------------------------------------------------ */

/* The set of line in L (*v) and the line's way in it, or -1.  The scan has
 * no early exit: a fixed loop is cheaper than a mispredicted one. */
static inline int lvl_find(const level *L, uint64_t line, setv *v)
{
    *v = set_at(L, line & L->set_mask);
    const uint64_t *tag = v->tag;
    int found = -1;
    for (uint32_t w = 0; w < L->ways; w++)
        found = tag[w] == line ? (int)w : found;
    return found;
}

/* The LRU order: nibble i of *ord is the way at age i (0 = most recently
 * used).  Every operation is a few word operations, whatever the ways. */
#define NIB1 0x1111111111111111ull

/* A mask of the low n nibbles, n = 0..16. */
static inline uint64_t nib_mask(uint32_t n)
{
    return n >= 16 ? ~0ull : (1ull << (4 * n)) - 1;
}

/* The age of way w (present in the low `ways` nibbles): the lowest zero
 * nibble of ord ^ (w x NIB1), exact for the lowest one. */
static inline uint32_t lru_pos(uint64_t ord, int w)
{
    uint64_t y = ord ^ (NIB1 * (uint64_t)w);
    uint64_t z = (y - NIB1) & ~y & (NIB1 << 3);
    return (uint32_t)__builtin_ctzll(z) / 4;
}

/* The least recently used way (or an invalid one). */
static inline int lru_victim(const setv *v, uint32_t ways)
{
    return (int)((*v->ord >> (4 * (ways - 1))) & 0xf);
}

/* Way w, at age p, becomes the most recently used. */
static inline void lru_front(const setv *v, uint32_t p, int w)
{
    uint64_t o = *v->ord;
    *v->ord = (o & ~nib_mask(p + 1)) | ((o & nib_mask(p)) << 4) | (uint64_t)w;
}

static inline void lru_touch(const setv *v, int w)
{
    if ((*v->ord & 0xf) != (uint64_t)w)
        lru_front(v, lru_pos(*v->ord, w), w);
}

/* Way w becomes invalid and goes to the end of the order. */
static inline void lru_drop(const setv *v, uint32_t ways, int w)
{
    v->tag[w] = NO_TAG;
    if (v->ready)
        v->ready[w] = 0;
    v->st[w] = 0;
    uint64_t o = *v->ord;
    uint32_t p = lru_pos(o, w);
    uint64_t keep = o & (nib_mask(p) | ~nib_mask(ways));
    uint64_t older = (o & nib_mask(ways) & ~nib_mask(p + 1)) >> 4;
    *v->ord = keep | older | ((uint64_t)w << (4 * (ways - 1)));
}

/* A fill through a pipe: it completes lat after now, but not earlier than
 * one streaming interval after the previous fill through the same pipe. */
static inline ps_t pipe_fill(ps_t *pipe, ps_t now, ps_t lat, ps_t stream)
{
    ps_t t = now + lat;
    if (*pipe + stream > t)
        t = *pipe + stream;
    *pipe = t;
    return t;
}

/* Put a line (not in the L2) into the L2 as most recently used; the LRU
 * victim is dropped, written back when dirty. */
static void l2_insert(ccpu *c, uint64_t line, uint8_t st)
{
    level *L = &c->l2;
    setv v = set_at(L, line & L->set_mask);
    int w = lru_victim(&v, L->ways);
    if (v.tag[w] != NO_TAG) {
        c->st.l2.evictions++;
        if ((v.st[w] & ST_STATE) == CACHE_DIRTY)
            c->st.l2.writebacks++;
    }
    v.tag[w] = line;
    v.st[w] = (uint8_t)(st & ~ST_PF);
    lru_front(&v, L->ways - 1, w);
}

/* Put a line (in neither level) into the L1 as most recently used; the L1's
 * victim moves to the L2 (exclusive hierarchy). */
static void l1_install(ccpu *c, uint64_t line, uint8_t st, ps_t ready)
{
    level *L = &c->l1;
    setv v = set_at(L, line & L->set_mask);
    int w = lru_victim(&v, L->ways);
    if (v.tag[w] != NO_TAG) {
        c->st.l1.evictions++;
        if (v.st[w] & ST_PF)
            c->st.prefetch_unused++;
        l2_insert(c, v.tag[w], v.st[w]);
    }
    v.tag[w] = line;
    v.st[w] = st;
    v.ready[w] = ready;
    lru_front(&v, L->ways - 1, w);
}

/* The shared L3 gets line as most recently used (a copy of memory's data:
 * its victim is simply dropped). */
static void l3_put(cache_hier *h, uint64_t line)
{
    level *L = &h->l3;
    setv v;
    int w = lvl_find(L, line, &v);
    if (w >= 0) {
        lru_touch(&v, w);
        return;
    }
    w = lru_victim(&v, L->ways);
    if (v.tag[w] != NO_TAG)
        h->l3st.evictions++;
    v.tag[w] = line;
    v.st[w] = CACHE_CLEAN;
    lru_front(&v, L->ways - 1, w);
}

/* ---- coherence ----------------------------------------------------------- */

/* Every CPU but self loses its copy of line (self is about to write it).
 * Returns 1 if one of them held it dirty. */
static int invalidate_others(cache_hier *h, int self, uint64_t line)
{
    int dirty = 0;
    for (int o = 0; o < h->ncpu; o++) {
        if (o == self)
            continue;
        ccpu *c = &h->cpu[o];
        setv v;
        int w = lvl_find(&c->l1, line, &v);
        if (w >= 0) {
            dirty |= (v.st[w] & ST_STATE) == CACHE_DIRTY;
            if (v.st[w] & ST_PF)
                c->st.prefetch_unused++;
            c->st.l1.coh_inval++;
            lru_drop(&v, c->l1.ways, w);
            continue;   /* exclusive: not in this CPU's L2 as well */
        }
        w = lvl_find(&c->l2, line, &v);
        if (w >= 0) {
            dirty |= (v.st[w] & ST_STATE) == CACHE_DIRTY;
            c->st.l2.coh_inval++;
            lru_drop(&v, c->l2.ways, w);
        }
    }
    return dirty;
}

/* The line in c's L1 or L2: its way (-1 if absent), *v its set. */
static inline int find_any(const ccpu *c, uint64_t line, setv *v)
{
    int w = lvl_find(&c->l1, line, v);
    return w >= 0 ? w : lvl_find(&c->l2, line, v);
}

/* self reads line: a dirty copy elsewhere is supplied and becomes clean;
 * every copy loses ST_EXCL.  Returns 1 if a copy was dirty, and sets *held
 * when any CPU but self holds the line. */
static int share_others(cache_hier *h, int self, uint64_t line, int *held)
{
    int dirty = 0;
    *held = 0;
    for (int o = 0; o < h->ncpu; o++) {
        if (o == self)
            continue;
        setv v;
        int w = find_any(&h->cpu[o], line, &v);
        if (w < 0)
            continue;
        *held = 1;
        if ((v.st[w] & ST_STATE) == CACHE_DIRTY) {
            dirty = 1;
            v.st[w] = (uint8_t)((v.st[w] & ~ST_STATE) | CACHE_CLEAN);
        }
        v.st[w] &= (uint8_t)~ST_EXCL;
    }
    return dirty;
}

/* A line that self does not hold: where its data comes from and when it
 * arrives; counts the fill.  *st gets the new line's state. */
static ps_t fetch_line(cache_hier *h, int self, uint64_t line, int write, ps_t now, uint8_t *st)
{
    ccpu *c = &h->cpu[self];
    int dirty, held = 0;
    if (h->ncpu == 1)
        dirty = 0;
    else if (write)
        dirty = invalidate_others(h, self, line);
    else
        dirty = share_others(h, self, line, &held);
    if (write)
        *st = CACHE_DIRTY | ST_EXCL;
    else
        *st = (uint8_t)(CACHE_CLEAN | (held ? 0 : ST_EXCL));
    if (dirty) {
        c->st.c2c_fills++;
        return now + h->c2c_ps;
    }
    if (h->has_l3) {
        setv v;
        int w = lvl_find(&h->l3, line, &v);
        c->st.l3.accesses++;
        if (w >= 0) {
            c->st.l3.hits++;
            lru_touch(&v, w);
            return pipe_fill(&c->l3_pipe, now, c->l3_ps, c->l2_stream_ps);
        }
        c->st.l3.misses++;
        l3_put(h, line);
    }
    c->st.mem_fills++;
    return pipe_fill(&c->mem_pipe, now, h->mem_ps, h->mem_stream_ps);
}

/* self writes a line it holds with state *st. */
static inline void make_dirty(cache_hier *h, int self, uint64_t line, uint8_t *st)
{
    if ((*st & ST_STATE) == CACHE_DIRTY)
        return;
    if (!(*st & ST_EXCL) && h->ncpu > 1)
        invalidate_others(h, self, line);
    *st = (uint8_t)((*st & ~ST_STATE) | CACHE_DIRTY | ST_EXCL);
}

/* ---- the CPU side -------------------------------------------------------- */

/* Take line out of c's L2 for a move to the L1: its state and the time it
 * reaches the L1 (through the L2 pipe); -1 when the L2 does not hold it. */
static inline int l2_take(ccpu *c, uint64_t line, ps_t now, uint8_t *st, ps_t *t)
{
    setv v;
    int w = lvl_find(&c->l2, line, &v);
    if (w < 0)
        return -1;
    *st = v.st[w];
    lru_drop(&v, c->l2.ways, w);
    *t = pipe_fill(&c->l2_pipe, now, c->l2_ps, c->l2_stream_ps);
    return 0;
}

/* An L1 miss of c at now takes the line fill buffer that frees first
 * (*slot): its fill starts then (at the earliest now).  Without a limit
 * (lfb 0), now and no slot. */
static inline ps_t lfb_take(const cache_hier *h, ccpu *c, ps_t now, int *slot)
{
    *slot = -1;
    if (!h->prof.lfb)
        return now;
    int s = 0;
    for (uint32_t i = 1; i < h->prof.lfb; i++)
        if (c->lfb_free[i] < c->lfb_free[s])
            s = (int)i;
    *slot = s;
    if (c->lfb_free[s] <= now)
        return now;
    c->st.lfb_waits++;
    c->st.lfb_wait_ps += c->lfb_free[s] - now;
    return c->lfb_free[s];
}

/* The fill in slot is done at t: the buffer frees then. */
static inline void lfb_release(ccpu *c, int slot, ps_t t)
{
    if (slot >= 0)
        c->lfb_free[slot] = t;
}

/* One demand line access; returns the time the line's data is there. */
static ps_t access_line(cache_hier *h, int self, uint64_t line, int write, ps_t now)
{
    ccpu *c = &h->cpu[self];
    setv v;
    ps_t t;
    uint8_t st;

    c->st.l1.accesses++;
    int w = lvl_find(&c->l1, line, &v);
    if (w >= 0) {
        c->st.l1.hits++;
        t = now + c->l1_ps;
        if (v.ready[w] > t)
            t = v.ready[w];
        if (v.st[w] & ST_PF) {
            c->st.prefetch_hits++;
            if (v.ready[w] > now + c->l1_ps)
                c->st.prefetch_late++;
            v.st[w] &= (uint8_t)~ST_PF;
        }
        lru_touch(&v, w);
        if (write)
            make_dirty(h, self, line, &v.st[w]);
        return t;
    }
    c->st.l1.misses++;
    c->st.l2.accesses++;
    int slot;
    ps_t start = lfb_take(h, c, now, &slot);
    if (l2_take(c, line, start, &st, &t) == 0) {
        c->st.l2.hits++;
        if (write)
            make_dirty(h, self, line, &st);
    } else {
        c->st.l2.misses++;
        t = fetch_line(h, self, line, write, start, &st);
    }
    lfb_release(c, slot, t);
    l1_install(c, line, st, t);
    return t;
}

/* [first, last] line addresses of [addr, addr+n); 0 when n == 0. */
static inline int line_range(uint64_t addr, size_t n, uint64_t *first, uint64_t *last)
{
    if (n == 0)
        return 0;
    uint64_t end = (uint64_t)(n - 1) > UINT64_MAX - addr ? UINT64_MAX : addr + (uint64_t)(n - 1);
    *first = addr >> CACHE_LINE_SHIFT;
    *last = end >> CACHE_LINE_SHIFT;
    return 1;
}

ps_t cache_access_ready(cache_hier *h, int cpu, uint64_t addr, size_t n, int write, ps_t now)
{
    uint64_t first, last;
    if (!h || cpu < 0 || cpu >= h->ncpu || !line_range(addr, n, &first, &last))
        return now;
    ps_t done = now;
    for (uint64_t line = first;; line++) {
        ps_t t = access_line(h, cpu, line, write, now);
        if (t > done)
            done = t;
        if (line == last)
            break;
    }
    h->cpu[cpu].st.stall_ps += done - now;
    return done;
}

ps_t cache_access(cache_hier *h, int cpu, uint64_t addr, size_t n, int write, ps_t now)
{
    return cache_access_ready(h, cpu, addr, n, write, now) - now;
}

ps_t cache_l1_ps(const cache_hier *h, int cpu)
{
    return h && cpu >= 0 && cpu < h->ncpu ? h->cpu[cpu].l1_ps : 0;
}

void cache_prefetch(cache_hier *h, int cpu, uint64_t addr, ps_t now)
{
    if (!h || cpu < 0 || cpu >= h->ncpu)
        return;
    ccpu *c = &h->cpu[cpu];
    uint64_t line = addr >> CACHE_LINE_SHIFT;
    setv v;
    uint8_t st;
    ps_t t;
    c->st.prefetches++;
    if (lvl_find(&c->l1, line, &v) >= 0) {
        c->st.prefetch_dropped++;
        return;
    }
    int slot;
    ps_t start = lfb_take(h, c, now, &slot);
    if (l2_take(c, line, start, &st, &t) != 0)
        t = fetch_line(h, cpu, line, 0, start, &st);
    lfb_release(c, slot, t);
    l1_install(c, line, (uint8_t)(st | ST_PF), t);
}

/* ---- the device side ----------------------------------------------------- */

void cache_dma_write(cache_hier *h, uint64_t addr, size_t n)
{
    uint64_t first, last;
    if (!h || !line_range(addr, n, &first, &last))
        return;
    for (uint64_t line = first;; line++) {
        if (h->has_l3) {
            if (h->prof.ddio) {
                h->l3st.ddio_fills++;
                l3_put(h, line);
            } else {
                setv v;
                int w = lvl_find(&h->l3, line, &v);
                if (w >= 0) {
                    h->l3st.dma_inval++;
                    lru_drop(&v, h->l3.ways, w);
                }
            }
        }
        for (int o = 0; o < h->ncpu; o++) {
            ccpu *c = &h->cpu[o];
            setv v;
            int w = lvl_find(&c->l1, line, &v);
            if (w >= 0) {
                if (v.st[w] & ST_PF)
                    c->st.prefetch_unused++;
                c->st.l1.dma_inval++;
                lru_drop(&v, c->l1.ways, w);
                continue;
            }
            w = lvl_find(&c->l2, line, &v);
            if (w >= 0) {
                c->st.l2.dma_inval++;
                lru_drop(&v, c->l2.ways, w);
            }
        }
        if (line == last)
            break;
    }
}

void cache_dma_read(cache_hier *h, uint64_t addr, size_t n)
{
    uint64_t first, last;
    if (!h || !line_range(addr, n, &first, &last))
        return;
    for (uint64_t line = first;; line++) {
        for (int o = 0; o < h->ncpu; o++) {
            setv v;
            int w = find_any(&h->cpu[o], line, &v);
            if (w >= 0 && (v.st[w] & ST_STATE) == CACHE_DIRTY) {
                h->cpu[o].st.dma_snoops++;
                v.st[w] = (uint8_t)((v.st[w] & ~ST_STATE) | CACHE_CLEAN);
            }
        }
        if (line == last)
            break;
    }
}

cache_state cache_lookup(const cache_hier *h, int cpu, uint64_t addr, int *level_out, ps_t *ready_at)
{
    int lv = 0;
    ps_t r = 0;
    cache_state s = CACHE_INVALID;
    if (h && cpu >= 0 && cpu < h->ncpu) {
        const ccpu *c = &h->cpu[cpu];
        uint64_t line = addr >> CACHE_LINE_SHIFT;
        setv v;
        int w = lvl_find(&c->l1, line, &v);
        if (w >= 0)
            lv = 1;
        else if ((w = lvl_find(&c->l2, line, &v)) >= 0)
            lv = 2;
        if (w >= 0) {
            s = (cache_state)(v.st[w] & ST_STATE);
            r = v.ready ? v.ready[w] : 0;
        }
    }
    if (level_out)
        *level_out = lv;
    if (ready_at)
        *ready_at = r;
    return s;
}
