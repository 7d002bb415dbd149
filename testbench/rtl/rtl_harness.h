/* A cycle-level harness that drives the RTL (82546 by default, or any model
 * rh_new_straps names) directly, without the bus
 * model or the driver: MMIO accesses one per cycle, DMA reads answered from
 * host memory after a fixed number of cycles (one beat per cycle), DMA writes
 * applied when their last beat arrives, and every frame the MACs send
 * captured.  RTL regression tests are written against it.
 *
 * Read data is packed into beats as the device adapter (sim/device/nic_adapter.c)
 * packs it: a read may arrive in pieces (split_pages: cut at 4 KiB
 * boundaries, as the PCI-X model cuts them), and the bytes of a (function,
 * tag) are packed into 32-byte beats continuously across its pieces, so only
 * the last beat of a request may be short.
 *
 * Received frames (rh_rx_frame) go to the MACs as the adapter delivers them:
 * the bytes of a frame, FCS included, in 32-byte beats on consecutive cycles,
 * each port's frames in the order they were queued, a frame not before the
 * cycle it was queued for.  Every DMA write is applied to host memory when its
 * last beat arrives and logged (rh_wr).
 *
 * Time: by default every function gets one 256 ns tick every 32 cycles (an
 * 8 ns clock).  tick_period = 0 turns that off; rh_advance_ticks() then gives
 * any number of ticks in one cycle, as the adapter does after a function
 * slept (tick counts saturate at NIC_RTL_TICK_MAX).
 *
 * Clocking: every function every cycle by default.  With `gated` set the
 * harness gates each function's clock as the adapter does: a function is
 * clocked while it reports busy (func_idle low), at the edge after an input
 * for it entered the input flops, and from the tick its reported timer
 * expires; it is then given all the ticks it slept through.  A design whose
 * busy outputs are exact behaves identically, cycle for cycle, either way. */
#ifndef NICSIM_RTL_HARNESS_H
#define NICSIM_RTL_HARNESS_H
#include <stdint.h>
#include <stddef.h>
#include "../../sim/device/nic_rtl.h"
#include "../../models/host_mem.h"

typedef struct rh_frame {
    uint32_t len;            /* bytes sent (without the FCS the MAC appends) */
    uint8_t  fcs;            /* 1: the MAC appends an FCS */
    uint16_t ipg;            /* gap requested after the frame, bytes */
    uint64_t cycle;          /* cycle of the last beat */
    uint8_t  data[16384];
} rh_frame;

/* One piece of a DMA read, answered from `due` on. */
typedef struct rh_read {
    uint64_t due;
    uint8_t func, tag;
    uint8_t last;            /* the final piece of its request */
    uint64_t addr;
    uint32_t len;
} rh_read;

/* A frame waiting to be received. */
typedef struct rh_rx {
    uint64_t at;             /* not before this cycle */
    uint32_t len;            /* bytes, FCS included */
    uint8_t crc_ok;
    uint8_t *data;
} rh_rx;

/* One DMA write as the RTL made it (applied when its last beat arrived). */
typedef struct rh_wr {
    uint64_t cycle;          /* cycle of the request */
    uint64_t done;           /* cycle of the last beat */
    uint8_t func;
    uint64_t addr;
    uint32_t len;
} rh_wr;

typedef struct rtl_harness {
    nic_rtl *n;
    nic_rtl_in in;
    nic_rtl_out out;
    host_mem *mem;
    uint64_t cycle;
    unsigned read_latency;       /* cycles from request to the first completion beat */
    int split_pages;             /* 1: answer reads in pieces cut at 4 KiB boundaries */
    unsigned tick_period;        /* cycles per automatic 256 ns tick (32); 0: none */
    uint8_t mac_ready;           /* bit p: the link takes frames on port p  */
    int gated;                   /* 1: clock functions only when they need it */
    uint8_t fn_active;           /* gated: bit f, function f is clocked at the next edge */
    uint64_t fn_ticks[NIC_RTL_PORTS];   /* gated: ticks given to function f */
    uint64_t fn_wake[NIC_RTL_PORTS];    /* gated: tick at which f's timer expires, UINT64_MAX none */
    uint64_t fn_edges[NIC_RTL_PORTS];   /* edges at which function f was clocked */
    /* pieces of DMA reads waiting for their completion, in request order */
    rh_read reads[1024];
    size_t nreads;
    uint32_t cur_off;            /* bytes of reads[0] already packed */
    /* per (function, tag): bytes packed into a beat not yet full */
    uint8_t part[NIC_RTL_PORTS][32][NIC_RTL_BEAT];
    uint8_t part_len[NIC_RTL_PORTS][32];
    uint64_t ticks;              /* 256 ns ticks given to the functions so far */
    uint32_t tick_extra;         /* ticks to add at the next cycle (rh_advance_ticks) */
    /* the DMA write being collected */
    int wr_open;
    uint8_t wr_func;
    uint64_t wr_addr;
    uint32_t wr_len, wr_got;
    uint8_t wr_buf[2048];
    /* frames captured per port */
    rh_frame *frames[NIC_RTL_PORTS];
    size_t nframes[NIC_RTL_PORTS], frames_cap[NIC_RTL_PORTS];
    rh_frame cur[NIC_RTL_PORTS];
    /* counters */
    uint64_t dma_reads, dma_writes, dma_read_bytes, faults;
    uint64_t read_pieces;        /* pieces reads were answered in */
    uint64_t odd_splits;         /* piece boundaries not at a multiple of 32 bytes into their request */
    uint64_t irq_rises[NIC_RTL_PORTS];
    /* MMIO accesses the RTL reported as to no implemented register, and
     * the latest one's function, direction and offset */
    uint64_t unmodelled;
    uint8_t um_func, um_write;
    uint32_t um_off;
    uint64_t irq_rise_cycle[NIC_RTL_PORTS];   /* cycle of the latest rise */
    uint8_t irq_prev;
    /* received frames per port: queued, the one being delivered at rx_head */
    rh_rx *rx[NIC_RTL_PORTS];
    size_t rx_head[NIC_RTL_PORTS], rx_n[NIC_RTL_PORTS], rx_cap[NIC_RTL_PORTS];
    uint32_t rx_off[NIC_RTL_PORTS];        /* bytes of the head frame delivered */
    uint64_t rx_frames[NIC_RTL_PORTS];     /* frames fully delivered to the MAC */
    /* a breach of the interface's contract (a stray write beat, an MMIO read
     * never answered, ...): abort() unless soft, then the first in error */
    int soft;
    char error[160];
    uint64_t error_cycle;
    /* every DMA write, in order */
    rh_wr *wlog;
    size_t nwlog, wlog_cap;
} rtl_harness;

rtl_harness *rh_new(void);                         /* the 82546 on PCI-X 133 */
rtl_harness *rh_new_straps(const nic_rtl_straps *s);  /* any model (nic_rtl.h) */
void rh_free(rtl_harness *h);
/* One cycle with the current inputs. */
void rh_step(rtl_harness *h);
void rh_steps(rtl_harness *h, unsigned n);
/* One cycle in which every function is given n more 256 ns ticks (saturating
 * at NIC_RTL_TICK_MAX), besides any automatic tick. */
void rh_advance_ticks(rtl_harness *h, uint32_t n);
void rh_write(rtl_harness *h, int func, uint32_t off, uint32_t val);
uint32_t rh_read32(rtl_harness *h, int func, uint32_t off);
/* Run until the RTL is idle and no DMA is outstanding; returns the cycles
 * run, or -1 if max_cycles passed first (a hang). */
long rh_run_idle(rtl_harness *h, long max_cycles);

/* Queue a received frame for port p (len bytes including the FCS; crc_ok 0
 * marks a bad FCS): delivered after the frames queued before it, not before
 * cycle `at` (0: as soon as possible). */
void rh_rx_frame_at(rtl_harness *h, int port, uint64_t at, const uint8_t *data, uint32_t len, int crc_ok);
void rh_rx_frame(rtl_harness *h, int port, const uint8_t *data, uint32_t len, int crc_ok);
/* Frames queued for port p and not yet fully delivered. */
size_t rh_rx_pending(const rtl_harness *h, int port);

/* Helpers for TX tests: a ring of n descriptors (returns its host pointer). */
uint8_t *rh_tx_ring(rtl_harness *h, int func, unsigned n, uint64_t *bus);
/* Fill descriptor i of a ring. */
void rh_tx_desc(uint8_t *ring, unsigned i, uint64_t addr, uint16_t len, uint8_t cmd);
uint8_t rh_tx_status(const uint8_t *ring, unsigned i);

#endif
