/* A cycle-level harness that drives the 82546 RTL directly, without the bus
 * model or the driver: MMIO accesses one per cycle, DMA reads answered from
 * host memory after a fixed number of cycles (one beat per cycle), DMA writes
 * applied when their last beat arrives, and every frame the MACs send
 * captured.  RTL regression tests are written against it. */
#ifndef NICSIM_RTL_HARNESS_H
#define NICSIM_RTL_HARNESS_H
#include <stdint.h>
#include <stddef.h>
#include "../../sim/nic_rtl.h"
#include "../../models/host_mem.h"

typedef struct rh_frame {
    uint32_t len;            /* bytes sent (without the FCS the MAC appends) */
    uint8_t  fcs;            /* 1: the MAC appends an FCS */
    uint16_t ipg;            /* gap requested after the frame, bytes */
    uint64_t cycle;          /* cycle of the last beat */
    uint8_t  data[16384];
} rh_frame;

typedef struct rh_read {
    uint64_t due;
    uint8_t func, tag;
    uint64_t addr;
    uint32_t len;
} rh_read;

typedef struct rtl_harness {
    nic_rtl *n;
    nic_rtl_in in;
    nic_rtl_out out;
    host_mem *mem;
    uint64_t cycle;
    unsigned read_latency;       /* cycles from request to the first completion beat */
    uint8_t mac_ready;           /* bit p: the link takes frames on port p  */
    /* DMA reads waiting for their completion, in request order */
    rh_read reads[256];
    size_t nreads;
    uint32_t cur_off;            /* bytes of reads[0] already returned */
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
    uint64_t irq_rises[NIC_RTL_PORTS];
    uint8_t irq_prev;
} rtl_harness;

rtl_harness *rh_new(void);
void rh_free(rtl_harness *h);
/* One cycle with the current inputs. */
void rh_step(rtl_harness *h);
void rh_steps(rtl_harness *h, unsigned n);
void rh_write(rtl_harness *h, int func, uint32_t off, uint32_t val);
uint32_t rh_read32(rtl_harness *h, int func, uint32_t off);
/* Run until the RTL is idle and no DMA is outstanding; returns the cycles
 * run, or -1 if max_cycles passed first (a hang). */
long rh_run_idle(rtl_harness *h, long max_cycles);

/* Helpers for TX tests: a ring of n descriptors (returns its host pointer). */
uint8_t *rh_tx_ring(rtl_harness *h, int func, unsigned n, uint64_t *bus);
/* Fill descriptor i of a ring. */
void rh_tx_desc(uint8_t *ring, unsigned i, uint64_t addr, uint16_t len, uint8_t cmd);
uint8_t rh_tx_status(const uint8_t *ring, unsigned i);

#endif
