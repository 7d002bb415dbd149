/* The device adapter of the 82546: connects the Verilated RTL's pins to the
 * PCI-X bus model, host memory and the links, and decides when the RTL is
 * clocked.  The RTL is clocked only while it has work: it reports `idle`, and
 * then only an input (an MMIO access, read data, a link that becomes ready,
 * a received frame) or one of its timers wakes it.  Timing lives here and in the bus model, not
 * in the RTL (SimBricks' rule: RTL keeps the datapath, adapters the time). */
#ifndef NICSIM_NIC_ADAPTER_H
#define NICSIM_NIC_ADAPTER_H
#include <stdint.h>
#include "../../models/kernel/sched.h"
#include "nic_rtl.h"
#include "../../models/host_mem.h"
#include "../../models/host_bus.h"
#include "../../models/link_wire.h"
#include "nic_mem_port.h"
#include "nic_faults.h"
#include "nic_misuse.h"

/* NIC_WR_MAX: the RTL's longest DMA write (the RX engine cuts packet data
 * into writes of at most 2048 bytes, whatever the buffer size). */
/* NIC_RD_PIECE_MAX: the longest piece a bus delivers a DMA read in (a 4 KiB
 * page; PCI-X MMRBC and PCIe MRRS are at most 4096). */
enum { NIC_RD_PIECE_MAX = 4096 };
enum { NIC_MMIO_Q = 64, NIC_CPL_Q = 8192, NIC_WR_SLOTS = 64, NIC_WR_MAX = 2048 };
/* Received frames waiting for the MAC, per port: at most NIC_RX_FRAMES
 * frames holding at most NIC_RX_BYTES bytes; a frame is at most
 * NIC_RX_FRAME_MAX bytes (FCS included; the RTL keeps at most 16384, longer
 * ones reach it to be counted in ROC/RJC). */
enum { NIC_RX_FRAMES = 4096, NIC_RX_BYTES = 1 << 20, NIC_RX_FRAME_MAX = 65535 };
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

/* A received frame waiting for (or in) delivery to the MAC. */
typedef struct nic_rx_frame {
    ps_t t;                     /* it has fully arrived: its first beat goes at the first edge >= t */
    uint32_t len;               /* bytes, FCS included */
    uint8_t crc_ok;
} nic_rx_frame;

/* One port's received frames, in arrival order: a ring of records and a
 * ring of their bytes (the head frame's bytes start at b_head). */
typedef struct nic_rx_port {
    nic_rx_frame *q;            /* NIC_RX_FRAMES */
    unsigned head, len;
    uint8_t *bytes;             /* NIC_RX_BYTES */
    uint32_t b_head, b_len;
    uint32_t sent;              /* bytes of the head frame already given to the MAC */
} nic_rx_port;

typedef struct nic_adapter_stats {
    uint64_t cycles;            /* RTL clock cycles evaluated */
    uint64_t fn_cycles[NIC_RTL_PORTS]; /* of which function f was clocked */
    uint64_t wakeups;           /* idle -> active transitions */
    uint64_t master_aborts;     /* DMA outside host memory (read pieces, writes) */
    uint64_t dma_reads, dma_writes, dma_read_bytes, dma_write_bytes;
    uint64_t wfull_cycles;      /* cycles the RTL was told dma_wfull (NIC_WR_SLOTS writes
                                   outstanding on the bus) */
    uint64_t irq_asserts[NIC_RTL_PORTS];
    uint64_t rx_frames[NIC_RTL_PORTS];  /* received frames handed to the MAC */
    uint64_t rx_dropped[NIC_RTL_PORTS]; /* received frames the adapter could not queue */
    /* TX descriptor fetches (DMA reads with tag NIC_TAG_TX_DESC): how many,
     * how many descriptors, and the summed time from the request to its
     * last data (what a fetch costs the queue: docs/rtl.md, "82599 TX
     * descriptor residency") */
    uint64_t txd_fetches[NIC_RTL_PORTS], txd_descs[NIC_RTL_PORTS];
    ps_t txd_fetch_ps[NIC_RTL_PORTS];
    uint64_t unmodelled;        /* MMIO accesses to addresses no implemented register answers to */
} nic_adapter_stats;

/* The distinct unmodelled accesses (function, direction, offset) the RTL
 * reported, with their counts, in the order first seen; past
 * NIC_UNMODELLED_MAX distinct ones only the total counts. */
enum { NIC_UNMODELLED_MAX = 4096 };   /* DPDK's ixgbe PMD touches over 1,000 distinct ones */
typedef struct nic_unmodelled {
    uint8_t func, write;
    uint32_t off;
    uint64_t count;
} nic_unmodelled;

/* The RTL's tag of TX descriptor reads, in both personalities
 * (rtl/e1000_func.v and rtl/ixgbe_func.v: 0..15 packet data, 0x10 TX
 * descriptors, 0x11 RX descriptors). */
#define NIC_TAG_TX_DESC 0x10u
/* TX descriptor reads a function may have outstanding (tx_queue: one, or
 * two with FETCH2) */
#define NIC_TXD_INFLIGHT 2

typedef struct nic_adapter {
    sched *s;
    /* issue times of the TX descriptor reads in flight, oldest first
     * (their completions arrive in request order) */
    ps_t txd_issue[NIC_RTL_PORTS][NIC_TXD_INFLIGHT];
    unsigned txd_inflight[NIC_RTL_PORTS];
    host_bus bus;               /* the bus the card sits on */
    nic_mem_port mem;
    link_wire *links[NIC_RTL_PORTS];
    nic_rtl *rtl;
    nic_rtl_in in;
    nic_rtl_out out;
    nic_unmodelled unmodelled[NIC_UNMODELLED_MAX];
    int n_unmodelled;
    ps_t period;                /* RTL clock period */
    ps_t next_edge;
    int active;                 /* some part of the RTL is clocked at next_edge */
    int fn_active[NIC_RTL_PORTS];       /* function f's clock gate is open */
    uint64_t fn_ticks[NIC_RTL_PORTS];   /* 256 ns ticks already given to function f */
    ps_t fn_timer_wake[NIC_RTL_PORTS];  /* pending timer wake-up of f, PS_NEVER if none */
    unsigned fn_inputs[NIC_RTL_PORTS];  /* queued MMIO ops and completion beats for f */
    uint8_t fn_hold;                    /* bit f: an input for f sits in the RTL's input
                                           flops; f must be clocked at the next edge */
    nic_rx_port rx[NIC_RTL_PORTS];      /* received frames per port */
    unsigned rx_queued;                 /* frames queued on both ports (0: skip the RX work) */
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
    unsigned wr_used;           /* writes taken and not yet done on the bus: at
                                   NIC_WR_SLOTS the RTL is told dma_wfull */
    int wr_collect;             /* slot collecting beats, -1 none */
    uint8_t *frame[NIC_RTL_PORTS];      /* NIC_FRAME_MAX bytes each: the frame being sent */
    uint32_t frame_len[NIC_RTL_PORTS];
    nic_adapter_stats st;
    /* told of every change of an interrupt line, at the edge that makes it
     * (NULL: nobody; the C harness looks at the lines when a CPU waits) */
    void (*irq_changed)(void *ctx, int f, int level, ps_t t);
    void *irq_ctx;
    nic_faults faults;                  /* faulty-device mode (off unless set up) */
    nic_misuse misuse;                  /* the driver's programming errors, counted */
} nic_adapter;

/* core_mhz: the RTL clock.  The links may be NULL (frames are then dropped). */
int nic_adapter_init(nic_adapter *a, sched *s, nic_mem_port mem, double core_mhz,
                     const nic_rtl_straps *straps, link_wire *links[NIC_RTL_PORTS]);
void nic_adapter_fini(nic_adapter *a);
/* Bus callbacks (struct host_bus_callbacks' device half); ctx is the adapter.  The owner
 * installs them in the bus it creates and then sets a->bus. */
void nic_adapter_read_data(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len,
                           int last, ps_t t);
void nic_adapter_write_done(void *ctx, int func, uint32_t tag, ps_t t);
void nic_adapter_mmio_write(void *ctx, int func, uint32_t off, uint32_t val, ps_t t);
void nic_adapter_mmio_read(void *ctx, int func, uint32_t off, ps_t t);
/* A frame received on port `port`: len bytes including its 4-byte FCS,
 * crc_ok 0 when the FCS is wrong (the link model checks it; the RTL does
 * not).  t is when the whole frame has arrived (store-and-forward: the end
 * of its FCS on the wire); the frame goes to the MAC in 32-byte beats on
 * consecutive edges from the first edge at or after t, after the frames
 * queued before it (never earlier than they).  There is no backpressure: the
 * RTL drops what its packet buffer cannot hold (MPC).  A frame the adapter
 * cannot queue (its ring full, len 0 or above NIC_RX_FRAME_MAX) is counted
 * in st.rx_dropped. */
void nic_adapter_rx_frame(nic_adapter *a, int port, ps_t t, const uint8_t *frame, uint32_t len, int crc_ok);
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
