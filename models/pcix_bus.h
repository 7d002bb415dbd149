/* PCI-X bus timing model: one shared, half-duplex 64-bit (or 32-bit) segment
 * per card, with the card's functions (0 and 1 of a dual-port 82546) and the
 * host bridge as masters.  The model owns all timing between the device's DMA
 * and MMIO ports and host memory; it moves no data itself: it tells its owner
 * (through its host_bus_callbacks) when each transfer takes effect, and the owner copies the
 * bytes then.  All times are picoseconds on the scheduler's clock.
 *
 * Transaction shapes, in bus clocks (parameters in pcix_params):
 *   every transaction:  [arbitration, only if the bus was idle]
 *                       address (1, or 2 with a dual address cycle for
 *                       addresses >= 4 GiB) + attribute (1) +
 *                       target response (decode) + data phases + turnaround
 *   DMA memory write (posted):  data phases = bytes on 8-byte lanes
 *   DMA memory read:  request = address + attribute + response + 1 split-response
 *                     phase + turnaround; after host_read_latency the bridge
 *                     arbitrates and sends a split completion (address +
 *                     attribute + response + data + turnaround).  Requests longer
 *                     than MMRBC, or crossing a 4 KiB boundary, are split into
 *                     several sequences; at most max_outstanding_splits
 *                     sequences per function wait for completions, the rest
 *                     queue in the device.
 *   CPU MMIO write (posted): reaches the bridge mmio_host_latency after the CPU
 *                     issues it, then address + attribute + response + 1 data +
 *                     turnaround; the device sees it at the end of the data phase.
 *   CPU MMIO read (non-posted): like the write, but the device must answer
 *                     (pcix_mmio_read_reply) while the bus waits in wait states;
 *                     the data reaches the CPU mmio_host_latency after the data
 *                     phase.
 * Arbitration: round robin between host bridge, function 0, function 1. */
#ifndef NICSIM_PCIX_BUS_H
#define NICSIM_PCIX_BUS_H
#include <stdint.h>
#include "kernel/sched.h"
#include "host_bus.h"

enum { PCIX_MAX_FUNCS = 2 };

typedef struct pcix_params {
    double mhz;                    /* 66, 100 or 133 (133.33 is used for "133") */
    int bus64;                     /* 1 = 64-bit (8 bytes per data phase), 0 = 32-bit */
    unsigned arb_clocks;           /* REQ#->GNT# when the bus is idle; hidden when busy */
    unsigned target_response_clocks; /* decode: clocks from attribute to DEVSEL# */
    unsigned turnaround_clocks;    /* idle clocks after every transaction */
    unsigned mmrbc;                /* max memory read byte count: 512, 1024, 2048, 4096 */
    unsigned max_outstanding_splits; /* per function: 1,2,3,4,8,12,16,32 */
    ps_t host_read_latency;        /* bridge: split response -> completion ready to arbitrate */
    ps_t mmio_host_latency;        /* CPU <-> bridge, one way */
    unsigned device_read_wait_clocks; /* device's initial wait states answering a CPU read,
                                         counted from the moment it is presented */
} pcix_params;

/* Defaults for a 64-bit PCI-X 133 MHz segment (documented in docs/models.md). */
void pcix_params_default(pcix_params *p);

typedef enum pcix_kind {
    PCIX_DMA_READ_REQ,     /* read request + split response */
    PCIX_DMA_READ_CPL,     /* split completion carrying read data */
    PCIX_DMA_WRITE,
    PCIX_MMIO_WRITE,
    PCIX_MMIO_READ,
    PCIX_KINDS
} pcix_kind;

const char *pcix_kind_name(pcix_kind k);

typedef struct pcix_stats {
    uint64_t count[PCIX_KINDS];    /* transactions (sequences for reads) */
    ps_t busy[PCIX_KINDS];         /* bus time incl. arbitration and turnaround */
    uint64_t bytes[PCIX_KINDS];    /* payload bytes */
    uint64_t queued_for_splits;    /* sequences that had to wait for a free split slot */
} pcix_stats;

typedef struct pcix_bus pcix_bus;

pcix_bus *pcix_new(sched *s, const pcix_params *p, const host_bus_callbacks *cb);
void pcix_free(pcix_bus *b);
ps_t pcix_clock_ps(const pcix_bus *b);
/* The configured clock in MHz (as given: 133 for 133.33). */
double pcix_mhz(const pcix_bus *b);

/* Device-initiated DMA, issued at time t (>= scheduler now). */
void pcix_dma_read(pcix_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t);
void pcix_dma_write(pcix_bus *b, int func, uint32_t tag, uint64_t addr, uint32_t len, ps_t t);
/* CPU-initiated MMIO, issued at the CPU's local time t_cpu (>= scheduler now). */
void pcix_mmio_write(pcix_bus *b, int func, uint32_t off, uint32_t val, ps_t t_cpu);
void pcix_mmio_read(pcix_bus *b, int func, uint32_t off, ps_t t_cpu);
/* The device's answer to the read presented by ops->mmio_read, at time t. */
void pcix_mmio_read_reply(pcix_bus *b, uint32_t val, ps_t t);

const pcix_stats *pcix_get_stats(const pcix_bus *b);
/* The bus behind the generic host_bus interface (valid while b lives). */
host_bus pcix_host_bus(pcix_bus *b);
/* 1 while any transaction is queued, in flight or awaiting a completion. */
int pcix_busy(const pcix_bus *b);

#endif
