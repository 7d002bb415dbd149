/* PCIe link timing model: one link between the host (root complex + memory)
 * and one device of up to PCIE_MAX_FUNCS functions (the 82599's two ports are
 * functions 0 and 1).  Like pcix_bus it moves no data: it tells its owner,
 * through its host_bus_callbacks, the picosecond at which each transfer takes effect.  All
 * times are picoseconds on the scheduler's clock; docs/models.md ("PCIe bus
 * model") has the rules with their sources.
 *
 * The link is full duplex: "up" (device -> host) and "down" (host -> device)
 * are two independent serializers of (lanes x symbol rate x encoding) bytes
 * per second.  What each carries, with bytes on the wire (pcie-bench's
 * numbers, nic-facts D1):
 *   up:   MWr (DMA write)       8 framing/seq/LCRC + 4 + 12 (64-bit address)
 *                               or 8 (32-bit) + payload [+ 4 ECRC]
 *         MRd (DMA read)        the same without payload
 *         CplD (MMIO read data) 8 + 4 + 8 + 4 [+ 4]
 *   down: CplD (DMA read data)  8 + 4 + 8 + payload [+ 4]
 *         MWr / MRd (MMIO)      32-bit address (BAR0 below 4 GiB): 20 (+ 4 data)
 *   both: Ack and UpdateFC DLLPs (8 B) for the other direction's traffic, and
 *         SKP ordered sets (4 B every skp_interval bytes of time).
 *
 * Rules, in short (docs/models.md says why):
 * - DMA writes are cut into MWr of at most MPS bytes that do not cross 4 KiB;
 *   write_done comes once, when the last one has reached the root complex.
 * - DMA reads are cut into MRd of at most MRRS bytes that do not cross 4 KiB;
 *   each takes one of its function's `tags` tags from the moment it is sent
 *   until its last completion has arrived; an MRd with no free tag waits, and
 *   the function's later MRds wait behind it.  The root complex answers an
 *   MRd host_read_latency after it arrived with CplDs of at most MPS bytes,
 *   every one but the last ending on an RCB-aligned address.
 * - Ordering (PCIe's rules as they bear on one device): per function,
 *   posted writes and completions leave in issue order; an MRd never passes
 *   an earlier MWr or CplD of its function, while they may pass an MRd that
 *   waits for a tag.  Functions take turns round robin.  Downstream is one
 *   FIFO in the order TLPs become ready at the root complex.
 * - DLLPs: a direction's activity (its TLPs, and the DLLPs and SKPs it sends
 *   while TLPs wait) is paid for by one Ack per ack_interval bytes and one
 *   UpdateFC per fc_interval bytes sent on the other direction.  With
 *   dllp_always = 1 each direction instead sends them every ack_interval /
 *   fc_interval bytes of time whatever the traffic, as if the other
 *   direction were always busy (pcie-bench's assumption).  A pending SKP
 *   goes first, then DLLPs, then TLPs.
 * - MMIO: the CPU's accesses reach the root complex mmio_host_latency after
 *   the CPU issued them.  A write is posted (mmio_write when the device has
 *   it); a read is presented to the device (mmio_read), answered with
 *   pcie_mmio_read_reply, and its CplD reaches the CPU mmio_host_latency
 *   after it arrived at the root complex (mmio_read_done). */
#ifndef NICSIM_PCIE_BUS_H
#define NICSIM_PCIE_BUS_H
#include <stddef.h>
#include <stdint.h>
#include "kernel/sched.h"
#include "host_bus.h"

enum { PCIE_MAX_FUNCS = 8 };

typedef enum pcie_dir {
    PCIE_UP,        /* device -> host */
    PCIE_DOWN,      /* host -> device */
    PCIE_DIRS
} pcie_dir;

typedef struct pcie_params {
    unsigned gen;                  /* 1 (2.5 GT/s, 8b/10b), 2 (5 GT/s, 8b/10b), 3 (8 GT/s, 128b/130b) */
    unsigned lanes;                /* 1, 2, 4, 8 or 16 */
    unsigned mps;                  /* max payload size: 128, 256, ..., 4096 */
    unsigned mrrs;                 /* max read request size: 128, 256, ..., 4096 */
    unsigned rcb;                  /* read completion boundary: 64, 128, 256, 512 (<= mps) */
    int addr64;                    /* 1: every DMA MWr/MRd has a 64-bit address (4DW header);
                                      0: only those to addresses >= 4 GiB */
    int ecrc;                      /* 1: a 4-byte ECRC digest on every TLP */
    unsigned tags;                 /* outstanding MRds per function, 1..256 */
    unsigned ack_interval;         /* bytes of the other direction's activity per Ack DLLP;
                                      0 = the spec table for gen/lanes/mps */
    unsigned fc_interval;          /* the same per UpdateFC DLLP; 0 = the table */
    unsigned skp_interval;         /* bytes of link time per 4-byte SKP ordered set */
    int dllp_always;               /* 1: Acks and UpdateFCs at the busy-link rate on both
                                      directions whatever the traffic (pcie-bench) */
    ps_t host_read_latency;        /* MRd arrived at the root complex -> its CplDs ready */
    ps_t mmio_host_latency;        /* CPU <-> root complex, one way */
} pcie_params;

/* Gen2 x8, MPS 256, MRRS 512, RCB 64, 64-bit addresses, no ECRC, 32 tags,
 * DLLP intervals from the table and following the traffic, SKP every
 * 1538 B, host read latency 500 ns, MMIO latency 150 ns (documented in
 * docs/models.md). */
void pcie_params_default(pcie_params *p);
/* 0 if p is usable; else -1 and "KEY: expected ..., got ..." in err, KEY
 * being the field's buscalc key (gen, lanes, mps, ...) or its name. */
int pcie_params_check(const pcie_params *p, char *err, size_t n);

typedef enum pcie_kind {
    PCIE_DMA_WRITE,      /* MWr, up */
    PCIE_DMA_READ_REQ,   /* MRd, up */
    PCIE_DMA_READ_CPL,   /* CplD, down */
    PCIE_MMIO_WRITE,     /* MWr, down */
    PCIE_MMIO_READ,      /* MRd, down */
    PCIE_MMIO_READ_CPL,  /* CplD, up */
    PCIE_ACK,            /* Ack DLLP, either direction */
    PCIE_FC,             /* UpdateFC DLLP, either direction */
    PCIE_SKP,            /* SKP ordered set, either direction */
    PCIE_KINDS
} pcie_kind;

const char *pcie_kind_name(pcie_kind k);

typedef struct pcie_stats {
    uint64_t count[PCIE_DIRS][PCIE_KINDS];      /* TLPs, DLLPs or SKPs sent */
    uint64_t wire_bytes[PCIE_DIRS][PCIE_KINDS]; /* on the link, all overheads included */
    uint64_t payload[PCIE_DIRS][PCIE_KINDS];    /* data bytes carried (MRd: 0, MMIO: 4) */
    ps_t busy[PCIE_DIRS][PCIE_KINDS];           /* link time of wire_bytes */
    uint64_t dir_bytes[PCIE_DIRS];              /* every kind */
    ps_t dir_busy[PCIE_DIRS];
    uint64_t tag_waits;                         /* MRds that found no free tag */
} pcie_stats;

typedef struct pcie_bus pcie_bus;

/* NULL if the parameters fail pcie_params_check (or out of memory). */
pcie_bus *pcie_new(sched *s, const pcie_params *p, const host_bus_callbacks *cb);
/* The scheduler must hold no more events of this bus when it is freed. */
void pcie_free(pcie_bus *b);

/* Device-initiated DMA, issued at time t (>= scheduler now). */
void pcie_dma_read(pcie_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t);
void pcie_dma_write(pcie_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t);
/* CPU-initiated MMIO, issued at the CPU's local time t_cpu (>= scheduler now). */
void pcie_mmio_write(pcie_bus *b, int func, uint32_t off, uint32_t val, ps_t t_cpu);
void pcie_mmio_read(pcie_bus *b, int func, uint32_t off, ps_t t_cpu);
/* The device's answer to the oldest read presented and not yet answered,
 * ready to send at time t; ignored when none is waiting. */
void pcie_mmio_read_reply(pcie_bus *b, uint32_t val, ps_t t);

const pcie_stats *pcie_get_stats(const pcie_bus *b);
/* The bus behind the generic host_bus interface (valid while b lives). */
host_bus pcie_host_bus(pcie_bus *b);
/* 1 while any request has not yet had its final callback. */
int pcie_busy(const pcie_bus *b);

/* ---- link arithmetic (valid parameters only) ---------------------------- */

/* Data rate of one direction after line encoding, Gb/s (Gen2 x8: 32). */
double pcie_raw_gbps(const pcie_params *p);
/* Time of one byte on the link, ps (Gen2 x8: 250). */
double pcie_byte_ps(const pcie_params *p);
/* The spec's Ack / UpdateFC interval for gen, lanes, mps as pcie-bench
 * counts it (bytes); 0 for a combination outside the table. */
unsigned pcie_spec_dllp_interval(unsigned gen, unsigned lanes, unsigned mps);
/* The intervals in force (the parameter, or the table when it is 0). */
unsigned pcie_ack_interval(const pcie_params *p);
unsigned pcie_fc_interval(const pcie_params *p);
/* Bandwidth left for TLPs on a direction while the other one is busy all the
 * time: raw x (1 - 8/ack - 8/fc - 4/skp), Gb/s (Gen2 x8 MPS 256: 28.68). */
double pcie_tlp_gbps(const pcie_params *p);
/* Bytes on the wire of one TLP of kind k (a TLP kind) to addr with payload
 * bytes of data (ignored for MRd). */
uint32_t pcie_tlp_wire_bytes(const pcie_params *p, pcie_kind k, uint64_t addr, uint32_t payload);

/* ---- streams of back-to-back transfers (nicsim buscalc) ----------------- */

/* Payload Gb/s of a stream of DMA writes (read = 0) or DMA reads (read = 1)
 * of `size` bytes each, every one 4 KiB aligned, all issued at once on
 * function 0: the measure pcie-bench's pcie_bw.py reports (with
 * p->dllp_always = 1, under pcie-bench's own assumption about DLLPs).
 * pcie_stream_measure runs the model and measures the steady state (from the
 * quarter of the stream to its end); 0 ok, -1 bad parameters or size.
 * pcie_stream_formula computes the same from the same rules (docs/models.md
 * says where it is exact). */
int pcie_stream_measure(const pcie_params *p, int read, uint32_t size, double *gbps);
double pcie_stream_formula(const pcie_params *p, int read, uint32_t size);
/* Largest size the stream functions take. */
#define PCIE_STREAM_MAX_SIZE (1u << 20)

#endif
