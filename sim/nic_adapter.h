/* The device adapter of the 82546: connects the Verilated RTL's pins to the
 * PCI-X bus model, host memory and the links, and decides when the RTL is
 * clocked.  The RTL is clocked only while it has work: it reports `idle`, and
 * then only an input (an MMIO access, read data, a link that becomes ready)
 * or one of its timers wakes it.  Timing lives here and in the bus model, not
 * in the RTL (SimBricks' rule: RTL keeps the datapath, adapters the time). */
#ifndef NICSIM_NIC_ADAPTER_H
#define NICSIM_NIC_ADAPTER_H
#include <stdint.h>
#include "sched.h"
#include "nic_rtl.h"
#include "../models/host_mem.h"
#include "../models/host_bus.h"
#include "../models/link_wire.h"

enum { NIC_MMIO_Q = 64, NIC_CPL_Q = 8192, NIC_WR_SLOTS = 64, NIC_WR_MAX = 2048 };
/* Read tags are 5 bits (rtl/nic82546.v dma_req_tag). */
enum { NIC_TAGS = 32 };
/* The largest frame the RTL can emit: its frame length is 16 bits. */
enum { NIC_FRAME_MAX = 65535 };

typedef struct nic_mmio_op {
    uint8_t write, func;
    uint32_t off, val;
} nic_mmio_op;

typedef struct nic_cpl_beat {
    uint8_t func, tag;
    uint8_t data[NIC_RTL_BEAT];
} nic_cpl_beat;

typedef struct nic_dma_write {
    uint8_t func, used;
    uint64_t addr;
    uint32_t len, got;
    uint8_t data[NIC_WR_MAX];
} nic_dma_write;

typedef struct nic_adapter_stats {
    uint64_t cycles;            /* RTL clock cycles evaluated */
    uint64_t fn_cycles[NIC_RTL_PORTS]; /* of which function f was clocked */
    uint64_t wakeups;           /* idle -> active transitions */
    uint64_t master_aborts;     /* DMA outside host memory (read pieces, writes) */
    uint64_t dma_reads, dma_writes, dma_read_bytes, dma_write_bytes;
    uint64_t irq_asserts[NIC_RTL_PORTS];
} nic_adapter_stats;

typedef struct nic_adapter {
    sched *s;
    host_bus bus;               /* the bus the card sits on */
    host_mem *mem;
    link_wire *links[NIC_RTL_PORTS];
    nic_rtl *rtl;
    nic_rtl_in in;
    nic_rtl_out out;
    ps_t period;                /* RTL clock period */
    ps_t next_edge;
    int active;                 /* some part of the RTL is clocked at next_edge */
    int fn_active[NIC_RTL_PORTS];       /* function f's clock gate is open */
    uint64_t fn_ticks[NIC_RTL_PORTS];   /* 256 ns ticks already given to function f */
    ps_t fn_timer_wake[NIC_RTL_PORTS];  /* pending timer wake-up of f, PS_NEVER if none */
    unsigned fn_inputs[NIC_RTL_PORTS];  /* queued MMIO ops and completion beats for f */
    uint8_t fn_hold;                    /* bit f: an input for f sits in the RTL's input
                                           flops; f must be clocked at the next edge */
    nic_mmio_op mq[NIC_MMIO_Q];
    unsigned mq_head, mq_len;
    int reads_in_rtl;           /* MMIO reads presented, not yet answered */
    nic_cpl_beat *cq;
    unsigned cq_head, cq_len;
    /* The bus delivers a read in pieces (cut at 4 KiB pages and MMRBC); the
     * RTL wants 32-byte beats packed from the request's first byte, every
     * beat but the last full.  Bytes of a (function, tag) that do not yet
     * fill a beat wait here for the next piece; the final piece (`last`)
     * flushes them. */
    uint8_t rd_part[NIC_RTL_PORTS][NIC_TAGS][NIC_RTL_BEAT];
    uint8_t rd_part_len[NIC_RTL_PORTS][NIC_TAGS];
    nic_dma_write wr[NIC_WR_SLOTS];
    uint32_t wr_next;           /* sequence number of the next DMA write */
    int wr_collect;             /* slot collecting beats, -1 none */
    uint8_t *frame[NIC_RTL_PORTS];      /* NIC_FRAME_MAX bytes each: the frame being sent */
    uint32_t frame_len[NIC_RTL_PORTS];
    nic_adapter_stats st;
} nic_adapter;

/* core_mhz: the RTL clock.  The links may be NULL (frames are then dropped). */
int nic_adapter_init(nic_adapter *a, sched *s, host_mem *mem, double core_mhz,
                     const nic_rtl_straps *straps, link_wire *links[NIC_RTL_PORTS]);
void nic_adapter_fini(nic_adapter *a);
/* Bus callbacks (the shape of pcix_ops); ctx is the adapter.  The owner
 * installs them in the bus it creates and then sets a->bus. */
void nic_adapter_read_data(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len,
                           int last, ps_t t);
void nic_adapter_write_done(void *ctx, int func, uint32_t tag, ps_t t);
void nic_adapter_mmio_write(void *ctx, int func, uint32_t off, uint32_t val, ps_t t);
void nic_adapter_mmio_read(void *ctx, int func, uint32_t off, ps_t t);
/* Make sure function f (and the shared interface) is clocked from time t on. */
void nic_adapter_wake(nic_adapter *a, ps_t t, int f);
/* Time of the next clock edge, PS_NEVER while idle. */
static inline ps_t nic_adapter_next_edge(const nic_adapter *a)
{
    return a->active ? a->next_edge : PS_NEVER;
}
/* Evaluate the edge at nic_adapter_next_edge(). */
void nic_adapter_edge(nic_adapter *a);
/* The interrupt line of function f as of the last edge. */
static inline int nic_adapter_irq(const nic_adapter *a, int f)
{
    return (a->out.irq >> f) & 1;
}

#endif
