/* A fake platform for unit tests of the driver core: every function of
 * driver/plat.h over plain malloc'ed memory, with no simulator behind it.
 *
 *   - DMA memory: one calloc'ed arena; bus address = FAKE_BUS_BASE + offset
 *     (above 4 GB, so TDBAH/RDBAH are exercised).
 *   - BAR0: a 128 KB register array with the few e1000 semantics the driver
 *     relies on (ICR clears on read, ICS sets causes, IMS/IMC set/clear the
 *     mask, CTRL.RST clears itself after a programmable number of reads).
 *   - An ordered log of MMIO reads/writes, barriers and shared-memory
 *     accesses, so tests can check what was written when.
 *   - Read hooks, a programmable clock and named-cost table.
 *   - A tiny e1000 TX engine (fake_nic_tx_run) that walks descriptors from
 *     TDH to TDT, captures the frames and writes DD back on RS descriptors;
 *     it can run on each TDT write, on each plat_irq_wait, or only when a
 *     test calls it.
 *   - A tiny e1000 RX engine (fake_nic_rx, fake_nic_rx_desc) that writes
 *     frames into the descriptors from RDH towards RDT and sets DD.
 *   - Sibling devices (fake_create_sibling): several ports of one host that
 *     share one DMA arena, so a buffer received on one can be sent on
 *     another. */
/* An 82599 personality (fake_ix_enable, see "the 82599 fake" below): the
 * registers behave as the ixgbe core expects (ixgbe_regs.h), with a TX
 * engine over advanced descriptors and an RX engine writing advanced
 * write-backs.  Off unless a test turns it on; then the e1000 semantics
 * above are not applied. */
#ifndef NICSIM_PLAT_FAKE_H
#define NICSIM_PLAT_FAKE_H
#include <stdint.h>
#include <stddef.h>
#include "../../driver/plat.h"

#define FAKE_BUS_BASE   0x100000000ull
#define FAKE_REGS_BYTES 0x20000u
#define FAKE_MAX_COSTS  32

enum fake_kind { FAKE_W32, FAKE_R32, FAKE_WMB, FAKE_RMB, FAKE_MB, FAKE_MEMW, FAKE_MEMR,
                 FAKE_PREFETCH, FAKE_TOUCH, FAKE_COPY_TO, FAKE_COPY_FROM, FAKE_WAIT };

/* One logged access.  For FAKE_MEMW/FAKE_MEMR, addr is the host pointer as
 * an integer and val the low 32 bits of the qword.  For FAKE_PREFETCH, addr
 * is the address prefetched.  For FAKE_TOUCH, addr/val are the range and its
 * length and reg is the write flag.  For FAKE_COPY_TO/FAKE_COPY_FROM, addr is
 * the DMA-memory side of the copy and val its length. */
struct fake_access {
    uint64_t order;     /* position in the log, from 0 */
    enum fake_kind kind;
    uint32_t reg;
    uint32_t val;
    uintptr_t addr;
    uint64_t val64;
};

/* A frame the fake NIC sent. */
struct fake_frame {
    uint8_t *data;
    uint32_t len;
    uint64_t bus_first;     /* buffer address of the first descriptor */
    unsigned ndesc;
    uint8_t cmd_last;       /* CMD byte of the EOP descriptor */
};

enum fake_nic_mode {
    FAKE_NIC_MANUAL,        /* only fake_nic_tx_run() moves descriptors */
    FAKE_NIC_ON_TDT,        /* every TDT write completes everything up to it */
    FAKE_NIC_ON_IRQ_WAIT,   /* plat_irq_wait completes everything, then interrupts */
};

/* ---- the 82599 fake ------------------------------------------------------
 * State and knobs of the 82599 personality.  Counts are register reads, as
 * the e1000 fake's rst_reads_set: N means N reads still see the old value
 * and the next one sees the new; -1 means never.  "After the reset" means
 * after the reset bits of a CTRL write with RST|LNK_RST have read back clear:
 * ARD, DMAIDONE and LINK_UP are clear from the reset request until then. */
#define FAKE_IX_QUEUES  16          /* queues with engines and read-back rules */
#define FAKE_IX_RSS     0x5A5A5A5Au /* DW1 of every RX write-back (an RSS hash) */
struct fake_ix {
    int on;                 /* 1 = the 82599 register semantics (fake_ix_enable) */
    int rst_reads;          /* CTRL reads that still see RST|LNK_RST (default 1) */
    int ard_reads;          /* EEC reads after the reset without ARD (default 0) */
    int dmaidone_reads;     /* RDRXCTL reads after the reset without DMAIDONE (default 0) */
    int link_reads;         /* LINKS reads after the reset without LINK_UP (default 2) */
    uint32_t link_speed;    /* LINKS speed bits shown with LINK_UP (default 10G) */
    int qen_reads;          /* TXDCTL/RXDCTL reads after ENABLE was set that still
                               miss it (default 1) */
    /* state */
    int in_reset;           /* reset requested, bits not read back clear yet */
    uint64_t resets;        /* reset requests */
    int rst_seen, ard_seen, dma_seen, link_seen;
    int txq_seen[FAKE_IX_QUEUES], rxq_seen[FAKE_IX_QUEUES];
    uint32_t tdh[FAKE_IX_QUEUES], rdh[FAKE_IX_QUEUES];
    uint32_t frame_paylen;  /* PAYLEN of the first descriptor of the frame being sent */
    uint64_t tx_wb;         /* TX descriptors written back with DD */
    uint64_t head_wbs;      /* head write-backs to host memory */
    uint64_t stale_rx;      /* RX descriptors fetched with a non-zero header address
                               (a DD the driver did not clear): counted in nic_errors */
};

struct plat_dev {
    uint32_t regs[FAKE_REGS_BYTES / 4];

    /* DMA arena */
    uint8_t *arena;             /* 64 KB aligned, inside arena_raw */
    void *arena_raw;            /* NULL on a sibling (the arena is its owner's) */
    size_t arena_size, arena_used;
    struct plat_dev *arena_owner;   /* a sibling allocates from its owner */

    /* ordered access log */
    struct fake_access *log;
    size_t log_n, log_cap;

    /* CTRL.RST: reads that still see RST after a reset request; -1 = never clears */
    int rst_reads_set;
    int rst_reads_seen;
    /* extra hook on every register read: may replace the value */
    uint32_t (*read_hook)(struct plat_dev *d, uint32_t reg, uint32_t val, void *arg);
    void *read_hook_arg;

    /* counters */
    uint64_t mem_writes, mem_reads, wmbs, rmbs, mbs, prefetches;
    uint64_t copy_to_bytes, copy_from_bytes, packets_counted;
    uint64_t bad_accesses;  /* accesses outside the arena */
    uint64_t delays, irq_waits;
    uint64_t touches;                  /* plat_mem_touch calls */
    uint64_t touch_bytes;              /* bytes they covered */
    uint64_t mem_waits;                /* plat_mem_wait calls (addr: the pointer waited for) */

    /* called at the start of every plat_irq_wait / plat_irq_wait_any on
     * this device (e.g. to make frames arrive while the CPU waits) */
    void (*irq_wait_hook)(struct plat_dev *d, void *arg);
    void *irq_wait_hook_arg;

    /* time */
    uint64_t now_ns;
    uint64_t stop_at_ns;        /* plat_stop_requested from this time on; 0 = never */
    uint64_t irq_latency_ns;    /* time an irq_wait that sees the interrupt takes */
    int irq_msg;                /* plat_irq_msg was called: an 82599 interrupt taken
                                   clears the EIAC causes and the EIAM mask bits */

    /* named costs */
    struct { char name[32]; uint64_t ns; uint64_t count; } cost[FAKE_MAX_COSTS];
    int ncost;

    /* plat_log */
    char last_log[256];
    unsigned log_msgs;
    int verbose;

    /* the fake NIC's TX engine */
    enum fake_nic_mode nic_mode;
    uint32_t nic_tdh;
    struct fake_frame *frames;
    size_t nframes, frames_cap;
    uint8_t *cur, *cur_alloc;   /* frame being assembled */
    uint32_t cur_len;
    uint64_t cur_bus_first;
    unsigned cur_ndesc;
    uint64_t nic_descs, nic_errors;

    /* the fake NIC's RX engine */
    uint32_t nic_rdh;
    uint64_t rx_frames;         /* frames written into descriptors */
    uint64_t rx_descs;          /* descriptors written back */
    uint64_t rx_missed;         /* frames refused: too few descriptors (MPC) */

    /* the 82599 personality (all zero = off) */
    struct fake_ix ix;
};

struct plat_dev *fake_create(void);
/* Another port of the same host: its own registers, log, clock and NIC
 * engines, but DMA memory from owner's arena (same bus addresses).  Destroy
 * siblings before their owner. */
struct plat_dev *fake_create_sibling(struct plat_dev *owner);
void fake_destroy(struct plat_dev *d);

/* Registers as the device would hold them. */
void fake_reg_set(struct plat_dev *d, uint32_t reg, uint32_t val);
uint32_t fake_reg_get(const struct plat_dev *d, uint32_t reg);

/* Host pointer for a bus range inside the arena, NULL (and bad_accesses++)
 * outside. */
void *fake_bus_to_host(struct plat_dev *d, uint64_t bus, size_t len);
/* Skip arena space so the next allocation starts at offset off (test setup). */
void fake_arena_seek(struct plat_dev *d, size_t off);

/* Log queries. */
void fake_log_clear(struct plat_dev *d);
size_t fake_count(const struct plat_dev *d, enum fake_kind kind, uint32_t reg);
/* Index of the n-th (from 0) entry of kind/reg, or -1. */
long fake_find(const struct plat_dev *d, enum fake_kind kind, uint32_t reg, size_t n);

/* Named costs: nanoseconds added to the clock per plat_charge; count seen. */
void fake_cost_set(struct plat_dev *d, const char *name, uint64_t ns);
uint64_t fake_cost_count(const struct plat_dev *d, const char *name);

/* Set DD in the status of the descriptor at host pointer desc (16 bytes). */
void fake_set_dd(struct plat_dev *d, void *desc);

/* Run the fake TX engine over at most max descriptors between TDH and TDT
 * (only while TCTL.EN is set).  Frames are captured; descriptors with RS get
 * DD; ICR gets TXDW when one was written back and TXQE when TDH reaches TDT.
 * Returns descriptors processed. */
unsigned fake_nic_tx_run(struct plat_dev *d, unsigned max);

/* The RX engine.  Writes one frame of len bytes (without FCS) into the
 * descriptors from RDH on, as the 8254x does (only while RCTL.EN is set):
 * the buffer gets the frame plus a 4-byte FCS (unless RCTL.SECRC), split
 * over as many descriptors as RCTL.BSIZE needs; each descriptor's write-back
 * qword gets its length and DD, the last one EOP and errors.  ICR gets RXT0.
 * Returns the descriptors used, or 0 when the NIC owns too few (between RDH
 * and RDT): nothing is written and rx_missed counts it. */
unsigned fake_nic_rx(struct plat_dev *d, const void *frame, uint32_t len, uint8_t errors);
/* Write back one descriptor at RDH with exactly this length, status (DD is
 * added) and errors, without touching its buffer.  Returns 1, or 0 when the
 * NIC owns no descriptor. */
unsigned fake_nic_rx_desc(struct plat_dev *d, uint16_t len, uint8_t status, uint8_t errors);
/* Descriptors the fake NIC owns: RDT - RDH modulo the ring size. */
uint32_t fake_nic_rx_avail(const struct plat_dev *d);

/* ---- the 82599 fake ----
 * fake_ix_enable turns the personality on (before the driver's first
 * access) with the defaults of struct fake_ix; tests change the knobs
 * afterwards.  Register semantics then:
 *   - CTRL: RST|LNK_RST clear themselves after ix.rst_reads reads; the
 *     request clears EEC.ARD, RDRXCTL.DMAIDONE, LINKS.LINK_UP, every
 *     TXDCTL/RXDCTL.ENABLE, EIMS and the engines' head pointers;
 *   - EEC.ARD / RDRXCTL.DMAIDONE / LINKS.LINK_UP (+ ix.link_speed) appear
 *     after the reset, after their read counts;
 *   - TXDCTL(n)/RXDCTL(n): a write that sets ENABLE is stored, but ENABLE
 *     reads back only after ix.qen_reads reads; clearing shows at once;
 *   - EICR clears on read; EIMS/EIMC set/clear the mask (EIMS reads it);
 *     EICS sets causes; the statistics (0x3FA0-0x3FDF, 0x4000-0x40FF)
 *     clear on read; TDH(n)/RDH(n) read the engines' head pointers;
 *   - TDT(n) runs the TX engine in FAKE_NIC_ON_TDT mode, plat_irq_wait runs
 *     every queue's in FAKE_NIC_ON_IRQ_WAIT mode; interrupts are pending
 *     when EICR & EIMS (queue n's engines set EICR bit n). */
void fake_ix_enable(struct plat_dev *d);

/* The TX engine of queue n (only while DMATXCTL.TE and the stored
 * TXDCTL(n).ENABLE are set): at most max descriptors from TDH towards TDT.
 * Frames are captured in d->frames as the e1000 engine does; a descriptor
 * that is not an advanced data descriptor with DEXT and IFCS, points
 * outside the arena, or a frame whose length differs from its first
 * descriptor's PAYLEN counts in nic_errors.  After a descriptor with RS:
 * with TDWBAL(n).HEAD_WB_ENABLE the new head is written (32 bits) to
 * TDWBAH:TDWBAL and the descriptor is left alone; otherwise the descriptor
 * gets the advanced write-back (QW0 = 0, QW1 = DD only).  Returns the
 * descriptors processed. */
unsigned fake_ix_tx_run(struct plat_dev *d, unsigned n, unsigned max);
/* Write the advanced TX write-back into the descriptor at host pointer
 * desc: QW0 = 0, QW1 = STA.DD (bit 32) and nothing else. */
void fake_ix_tx_done(struct plat_dev *d, void *desc);
/* Write head into queue n's head write-back location (as the NIC would). */
void fake_ix_write_head(struct plat_dev *d, unsigned n, uint32_t head);

/* The RX engine of queue n (only while RXCTRL.RXEN and the stored
 * RXDCTL(n).ENABLE are set).  Writes one frame of len bytes (without FCS)
 * into the packet buffers of the descriptors from RDH on: plus a 4-byte
 * FCS unless HLREG0.RXCRCSTRP, split by SRRCTL(n).BSIZEPKT.  Each
 * descriptor gets the advanced write-back: QW0 = packet type IPv4 |
 * FAKE_IX_RSS << 32 (so the buffer address is gone), QW1 = DD (+ EOP and
 * errs on the last; errs are DW2 error bits in place, e.g.
 * IXGBE_RXDADV_ERR_RXE) | the descriptor's length << 32.  EICR gets bit n.
 * Returns the descriptors used, or 0 when the NIC owns too few (rx_missed
 * counts it; nothing is written). */
unsigned fake_ix_rx(struct plat_dev *d, unsigned n, const void *frame, uint32_t len,
                    uint32_t errs);
/* Write back one descriptor at RDH(n) with exactly this length and DW2
 * (DD is added), without touching its buffer.  1, or 0 when the NIC owns
 * no descriptor. */
unsigned fake_ix_rx_desc(struct plat_dev *d, unsigned n, uint16_t len, uint32_t staterr);
/* Descriptors the fake 82599 owns on queue n: RDT - RDH modulo the ring. */
uint32_t fake_ix_rx_avail(const struct plat_dev *d, unsigned n);

#endif
