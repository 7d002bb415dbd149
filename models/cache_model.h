/* Host cache model: per CPU an L1 data cache and an L2, memory behind them,
 * devices that write and read memory by DMA, and software prefetch.
 *
 * Addresses are physical: the host bus addresses of models/host_mem.h
 * (host_mem_bus_addr() maps a host pointer to one) or any 64-bit address the
 * caller chooses.  Lines are 64 bytes.  Time is picoseconds (ps_t); every
 * call takes the calling CPU's local time, so CPUs with separate clocks share
 * one hierarchy.
 *
 * Organisation (documented in docs/models.md, "Host caches"):
 *  - L1D and L2 per CPU, set-associative, true LRU, set index = the low bits
 *    of the line address.  The L2 is exclusive of the L1 as on AMD K8: a line
 *    fetched from memory goes into the L1 only; the L1's victim moves to the
 *    L2; an L2 hit moves the line back to the L1 (swapping with the L1's
 *    victim); a dirty L2 victim is written back to memory.
 *  - A line is invalid, clean or dirty; in the L1 it has ready_at: the time
 *    its fill completes (a prefetch in flight, or a demand fill).  A line
 *    that leaves the L1 before its fill completed counts as arrived.
 *  - Coherence between CPUs (MESI-lite): a write invalidates the line in every
 *    other CPU (a write hit on a shared line costs an L1 hit: the upgrade is
 *    not charged); a miss on a line dirty in another CPU is a cache-to-cache
 *    transfer, which leaves both copies clean after a read.
 *  - DMA writes invalidate the line in every CPU; DMA reads snoop dirty lines
 *    (counted; the line stays valid and becomes clean).
 *  - Optionally (l3_size > 0) a last-level cache shared by all CPUs behind
 *    their L2s, as on Intel's Sandy/Ivy Bridge: a line fetched from memory
 *    is also put into it (most recently used); an L2 miss that finds the
 *    line there (and in no other CPU dirty) is served after the L3 latency,
 *    through a pipe of its own with the L2's streaming interval.  It keeps
 *    data copies only (the CPUs' states stay in their L1/L2s).  A DMA write
 *    drops the line from it, or with DDIO (ddio = 1: Intel Data Direct I/O)
 *    puts the written line into it (most recently used) instead, so that
 *    the CPU's next read of a received descriptor or packet hits the L3
 *    rather than memory.
 *
 * Latency of cache_access(): each line of the access is requested at `now`
 * (an L1 miss waits for a free line fill buffer when the profile limits
 * them: the fill starts when the earliest one frees); the access's data is
 * there when its last line has arrived (cache_access_ready; cache_access
 * returns the difference, the stall of a core that waits for it).  A line that hits the L1
 * arrives after the L1 latency (or when its fill completes, if later); an L2
 * hit after the L2 latency; a miss after the memory latency; a line dirty in
 * another CPU after the cache-to-cache latency.  L2-to-L1 transfers and
 * memory fills of one CPU go through a pipe each: a fill cannot complete
 * earlier than one streaming interval after that CPU's previous fill of the
 * same kind, so the first miss of an access pays the full latency and each
 * further one the streaming cost per line.
 *
 * Cost: an access is O(lines x ways) (plus the other CPUs' sets on a miss or
 * on a write to a line another CPU may hold), with no allocation after
 * cache_hier_new(); LRU updates are word operations (hence at most 16
 * ways).  Measured once (-O2, 2 Opteron CPUs, a throw-away benchmark): an
 * L1 hit ~6 ns; a router-like mix of 15 calls per packet (3-3.6 memory
 * fills) 300-355 ns per packet, 20-24 ns per call. */
#ifndef NICSIM_CACHE_MODEL_H
#define NICSIM_CACHE_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include "kernel/sched.h"

#define CACHE_LINE_SHIFT 6
#define CACHE_LINE_BYTES (1u << CACHE_LINE_SHIFT)

/* The hierarchy of one CPU type.  Cycle counts are CPU clock cycles (turned
 * into time with each CPU's MHz); ns values are absolute. */
typedef struct cache_profile {
    const char *name;
    uint32_t l1_size;          /* bytes of L1 data cache */
    uint32_t l1_ways;
    double l1_cycles;          /* load-to-use latency of an L1 hit */
    uint32_t l2_size;          /* bytes of L2 */
    uint32_t l2_ways;
    double l2_cycles;          /* load-to-use latency of an L1 miss that hits the L2 */
    double l2_stream_cycles;   /* each further L2 line of a burst: L2->L1 transfer time */
    double mem_ns;             /* load-to-use latency of a miss served by memory */
    double mem_stream_ns;      /* each further memory line of a burst: bandwidth limit */
    double c2c_ns;             /* miss served by another CPU's cache holding the line dirty */
    uint32_t l3_size;          /* bytes of the shared last-level cache; 0: none */
    uint32_t l3_ways;
    double l3_cycles;          /* load-to-use latency of an L2 miss that hits the L3 */
    int ddio;                  /* 1: DMA writes allocate into the L3 (Data Direct I/O) */
    /* Memory-level parallelism of the core (docs/models.md, "Memory-level
     * parallelism"): */
    uint32_t lfb;              /* L1 misses in flight at once (line fill buffers, or miss
                                  address buffers): demand, store and prefetch fills
                                  share them; 0 = no limit */
    double window_cycles;      /* how far the core runs past a load that missed before
                                  it must have the data (its reorder buffer full);
                                  0 = it stalls at once (no overlap) */
    int stores_wait;           /* 1: a store that misses stalls the core until its line
                                  is there; 0: it waits in the store buffer */
} cache_profile;

/* AMD Opteron (K8, 130 nm SledgeHammer / 90 nm, 2004-2005), as in the dual
 * 1.6 GHz Opteron of the 2004-2006 reference posts.  Each number's basis is
 * in cache_model.c and docs/models.md. */
void cache_profile_opteron_1600(cache_profile *p);
/* Intel Xeon E5-2680 v2 (Ivy Bridge-EP, 2013), 2.8 GHz: the 2014 server of
 * the l3fwd experiment.  Each number's basis is in cache_model.c. */
void cache_profile_ivybridge_ep_2800(cache_profile *p);
/* Intel Xeon E3-1230 V2 (Ivy Bridge, client die, 2012), 3.3 GHz: the ixy
 * forwarding experiment's machine (8 MB L3, no DDIO). */
void cache_profile_ivybridge_e3_3300(cache_profile *p);
/* Intel Xeon E5-2630 (Sandy Bridge-EP, 2012), 2.3 GHz: the Linux pktgen
 * experiment's server (15 MB L3, DDIO). */
void cache_profile_sandybridge_ep_2300(cache_profile *p);
/* Fill *p with the profile called name ("opteron-1.6ghz",
 * "ivybridge-ep-2.8ghz", "ivybridge-e3-3.3ghz", "sandybridge-ep-2.3ghz");
 * 0, or -1 if unknown. */
int cache_profile_by_name(const char *name, cache_profile *p);
/* NULL when p describes a buildable hierarchy, else what is wrong with it
 * (each level: size a multiple of ways x 64 bytes, a power-of-two number of
 * sets, at most 16 ways; latencies 0..1e6 cycles or ns; L2 no faster
 * than L1). */
const char *cache_profile_check(const cache_profile *p);

typedef struct cache_level_stats {
    uint64_t accesses;     /* demand line accesses that looked in this level */
    uint64_t hits;         /* ... and found the line (ready or still being filled) */
    uint64_t misses;
    uint64_t evictions;    /* valid lines replaced (L1: moved to L2; L2: dropped) */
    uint64_t writebacks;   /* dirty lines written back to memory on eviction (L2) */
    uint64_t dma_inval;    /* lines of this level invalidated by a DMA write */
    uint64_t coh_inval;    /* lines of this level invalidated by another CPU's write */
} cache_level_stats;

typedef struct cache_cpu_stats {
    cache_level_stats l1, l2;
    cache_level_stats l3;      /* this CPU's lookups in the shared L3 (accesses,
                                  hits, misses); its evictions and DMA effects are
                                  the hierarchy's: cache_l3_stats */
    uint64_t mem_fills;        /* lines fetched from memory (demand and prefetch) */
    uint64_t c2c_fills;        /* lines supplied by another CPU's cache (demand and prefetch) */
    uint64_t prefetches;       /* cache_prefetch() calls */
    uint64_t prefetch_dropped; /* ... for a line already in the L1 (nothing done) */
    uint64_t prefetch_hits;    /* demand accesses that found a prefetched line (ready or in flight) */
    uint64_t prefetch_late;    /* ... still in flight: the access waited longer than an L1 hit */
    uint64_t prefetch_unused;  /* prefetched lines evicted or invalidated before any demand access */
    uint64_t dma_snoops;       /* dirty lines of this CPU read by a device */
    uint64_t lfb_waits;        /* L1 misses that found every line fill buffer busy */
    ps_t lfb_wait_ps;          /* ... and the time their fills started late */
    ps_t stall_ps;             /* sum of the latencies cache_access() returned */
} cache_cpu_stats;

typedef struct cache_hier cache_hier;

/* A hierarchy of ncpu CPUs (1..64), all at mhz (1..1e6); NULL if the
 * profile is bad (see cache_profile_check), ncpu or mhz is out of range, or
 * out of memory.  Every line starts invalid. */
cache_hier *cache_hier_new(const cache_profile *p, int ncpu, double mhz);
void cache_hier_free(cache_hier *h);
/* Give one CPU another clock (latencies in cycles scale with it); 0, or -1. */
int cache_hier_set_mhz(cache_hier *h, int cpu, double mhz);
int cache_hier_ncpu(const cache_hier *h);
const cache_profile *cache_hier_profile(const cache_hier *h);

/* CPU cpu reads (write == 0) or writes n bytes at addr at its time now:
 * returns when the data is there (the last line's arrival, at least now +
 * the L1 latency), and updates the caches (fills, LRU, dirty state, other
 * CPUs' copies).  n == 0 or a bad cpu: now, nothing changes.  Writes
 * allocate like reads (their fill is the store's ownership of the line);
 * what a core does meanwhile is the CPU model's (models/cpu_model.h). */
ps_t cache_access_ready(cache_hier *h, int cpu, uint64_t addr, size_t n, int write, ps_t now);
/* The same, returning the wait: cache_access_ready(...) - now. */
ps_t cache_access(cache_hier *h, int cpu, uint64_t addr, size_t n, int write, ps_t now);
/* The L1 hit latency of CPU cpu (0 for a bad cpu). */
ps_t cache_l1_ps(const cache_hier *h, int cpu);

/* CPU cpu issues a software prefetch of the line holding addr at now: if the
 * line is not in its L1, a fill into the L1 starts (clean, marked as
 * prefetched) and completes when its L2-to-L1 pipe delivers it (line in its
 * L2: now + the L2 latency when the pipe is idle), at now + the
 * cache-to-cache latency (dirty in another CPU), or when its memory pipe
 * delivers it (now + the memory latency when idle).  A demand access before
 * then waits only for the rest.  A line already in the L1 (ready or in
 * flight) is left alone.  Issuing the instruction is the caller's cost. */
void cache_prefetch(cache_hier *h, int cpu, uint64_t addr, ps_t now);

/* A device wrote [addr, addr+n): every line touching it is invalidated in
 * every CPU's caches (a dirty line's data is merged in memory; a fill in
 * flight is lost). */
void cache_dma_write(cache_hier *h, uint64_t addr, size_t n);
/* A device read [addr, addr+n): dirty lines are snooped (counted in the
 * owner's dma_snoops) and become clean; nothing else changes. */
void cache_dma_read(cache_hier *h, uint64_t addr, size_t n);

/* Invalidate everything (no write-backs counted); statistics are kept. */
void cache_hier_flush(cache_hier *h);

typedef enum cache_state { CACHE_INVALID = 0, CACHE_CLEAN = 1, CACHE_DIRTY = 2 } cache_state;

/* Where the line holding addr is in CPU cpu's caches, without changing
 * anything: *level = 1 or 2 (0 when absent), *ready_at = its fill
 * completion time (0 when absent or in the L2); either pointer may be NULL. */
cache_state cache_lookup(const cache_hier *h, int cpu, uint64_t addr, int *level, ps_t *ready_at);

/* The shared L3's own events: lines it dropped for room, lines DMA writes
 * removed from it, lines DDIO put into it. */
typedef struct cache_l3_stats {
    uint64_t evictions, dma_inval, ddio_fills;
} cache_l3_stats;
const cache_l3_stats *cache_l3_stats_of(const cache_hier *h);

/* Statistics of CPU cpu (NULL for a bad cpu); cache_stats_reset zeroes all. */
const cache_cpu_stats *cache_stats(const cache_hier *h, int cpu);
void cache_stats_reset(cache_hier *h);

#endif
