/* The ixgbe transmit queue: one 82599 TX queue n with advanced data
 * descriptors, xmit with tail-pointer batching, and reclaim of completed
 * packets by DD or by head write-back.  Same shape as the e1000 core's
 * e1000_tx.h, so an app can drive either:
 *   - ixgbe_xmit() writes one packet's advanced data descriptors (nic-facts
 *     B2: DTYP data, DEXT, IFCS on every one, EOP on the last, RS on the
 *     last of every rs_every-th packet, DTALEN = the descriptor's bytes,
 *     PAYLEN = the packet's length on its first descriptor) and writes TDT
 *     (after plat_wmb) only
 *     when the caller says no more packets follow (more == 0) or when after
 *     this packet a maximal frame would no longer fit, so queued
 *     descriptors never strand behind the tail while the caller waits; or
 *     never, when the caller writes the tail itself after its batch
 *     (IXGBE_XMIT_CALLER_TAIL, then ixgbe_tx_tail: ixy's tx_batch, one TDT
 *     write per call whether or not it queued anything);
 *   - RS also goes on the newest packet before every tail write: a packet
 *     is reclaimed only when a later-or-same RS descriptor is reported, so
 *     every packet handed to the NIC is followed by an RS;
 *   - ixgbe_tx_clean() reads DD only on RS descriptors, oldest first (a
 *     later RS cannot overtake an earlier one), or, with head write-back,
 *     the head index the NIC writes to host memory, and reclaims whole
 *     packets up to it;
 *   - two other drivers' rules as options: RS by descriptor index
 *     (rs_by_index: DPDK's simple TX puts RS on every tx_rs_thresh-th
 *     descriptor and nowhere else) and reclaim in whole batches checked by
 *     their last descriptor (clean_batch: ixy).
 * Ownership: descriptors between the last written tail and next_to_use are
 * still the driver's; the NIC owns [tail - in flight, tail). */
#ifndef NICSIM_IXGBE_TX_H
#define NICSIM_IXGBE_TX_H
#include <stdint.h>
#include "../plat.h"
#include "ixgbe_regs.h"
#include "ixgbe_dev.h"

struct ixgbe_tx_opts {
    uint32_t ring_size;       /* descriptors, a multiple of 8, 64..4096; default 512
                                 (B3: Linux's default and limits; Linux's
                                 ixgbe_set_ringparam aligns to 8, not to a power of
                                 2: ixgbe_regs.h IXGBE_TXD_MULTIPLE) */
    uint8_t prefetch;         /* 1 = TXDCTL PTHRESH/HTHRESH from the two fields below;
                                 0 = PTHRESH 0, HTHRESH 0 (descriptor prefetch off).
                                 Default 1 */
    uint8_t pthresh;          /* TXDCTL.PTHRESH; default 32 (Linux, B3) */
    uint8_t hthresh;          /* TXDCTL.HTHRESH 0..127; default 1 (Linux, B3) */
    uint8_t wthresh;          /* TXDCTL.WTHRESH; default 1 (Linux at high interrupt
                                 rates or without a vector, B3).  PTHRESH + WTHRESH
                                 <= 40, the on-chip TX descriptor cache (B3) */
    uint8_t head_wb;          /* 1 = head write-back (TDWBAL/TDWBAH, B1) and clean by
                                 the head index; default 0 (Linux turns it off, B3) */
    uint32_t rs_every;        /* RS on the last descriptor of every Nth packet; default
                                 1 (Linux and ixy set RS on every packet, B1a) */
    uint32_t clean_thresh;    /* callers reclaim when fewer descriptors are free;
                                 default 32 (ixy's TX_CLEAN_BATCH, B1a) */
    uint8_t rs_by_index;      /* 1: RS on the packet whose descriptors include one whose
                                 index + 1 is a multiple of rs_every, and nowhere else
                                 (DPDK's simple TX, tx_rs_thresh; rs_every must divide
                                 ring_size); 0: by packet count, and on the newest packet
                                 before every tail write (default) */
    uint8_t skip_rmb;         /* 1: no rmb between a DD (or head) read and the reclaim
                                 (DPDK's 2014 PMD, ixy); default 0 (Linux) */
    uint32_t clean_batch;     /* N > 0: clean reclaims whole batches of N descriptors,
                                 reading only the DD of each batch's last (ixy,
                                 TX_CLEAN_BATCH 32; needs RS on every packet: rs_every 1,
                                 rs_by_index 0; single-descriptor packets, else the last
                                 RS descriptor of the batch counts); 0: each RS
                                 descriptor in turn (default) */
    uint32_t max_desc_bytes;  /* bytes per data descriptor, 16..65535 (DTALEN is 16
                                 bits, B2); default 16384 (Linux ixgbe.h's
                                 IXGBE_MAX_DATA_PER_TXD, not in nic-facts) */
    uint32_t info_bytes;      /* bytes of the per-descriptor bookkeeping entry, 0..256;
                                 0 = IXGBE_TX_BUFFER_INFO_BYTES (Linux's struct); ixy keeps
                                 an 8-byte pointer (virtual_addresses) */
    uint32_t max_frame_len;   /* largest frame xmit accepts (without FCS); sizes the
                                 "nearly full" tail-write threshold; default 1514 */
    uint64_t enable_timeout_ns; /* bound on the TXDCTL.ENABLE read-back poll (and the
                                   disable at teardown); default 10 ms */
};

struct ixgbe_tx_stats {
    uint64_t packets;       /* packets queued */
    uint64_t descs;         /* descriptors written */
    uint64_t tdt_writes;    /* tail-pointer MMIO writes */
    uint64_t tdt_forced;    /* of which forced by a nearly full ring (more == 1) */
    uint64_t rs_set;        /* descriptors given RS */
    uint64_t busy;          /* xmit calls refused for lack of room */
    uint64_t dd_reads;      /* status qwords read by clean (DD mode) */
    uint64_t head_reads;    /* head write-back reads by clean (head mode) */
    uint64_t bad_head;      /* head values outside what the NIC was given: ignored */
    uint64_t reclaimed;     /* packets reclaimed by clean */
};

/* Software state of one descriptor. */
struct ixgbe_tx_slot {
    void *cookie;           /* caller's packet handle, on the EOP descriptor */
    uint16_t len;           /* DTALEN of this descriptor */
    uint32_t paylen;        /* PAYLEN as written here: the packet's length on its
                               first descriptor, 0 on the others (to rebuild QW1
                               when a late RS is added) */
    uint8_t flags;          /* IXGBE_TX_SLOT_* */
};
#define IXGBE_TX_SLOT_USED 0x01
#define IXGBE_TX_SLOT_EOP  0x02
#define IXGBE_TX_SLOT_RS   0x04

struct ixgbe_txq {
    struct ixgbe_dev *dev;
    struct plat_dev *pd;
    struct ixgbe_tx_opts opts;
    unsigned n;                       /* queue index: TDBAL(n) ... */
    struct ixgbe_adv_tx_desc *ring;   /* DMA memory, touched only via plat_mem_* */
    uint64_t ring_bus;
    size_t ring_bytes;                /* ring_size * 16 rounded up to 4 KB */
    void *head_wb;                    /* head write-back target (modelled memory, one
                                         cache line of its own), or NULL */
    uint64_t head_wb_bus;
    struct ixgbe_tx_slot *slot;       /* ring_size entries */
    void *info;                       /* struct ixgbe_tx_buffer stand-ins (modelled memory) */
    uint32_t info_bytes;              /* bytes of one */
    uint32_t *rs_fifo;                /* indices of RS descriptors not yet reclaimed */
    uint32_t rs_head, rs_count;
    uint32_t count;                   /* ring_size */
    uint32_t next_to_use;
    uint32_t next_to_clean;
    uint32_t tail;                    /* last value written to TDT */
    uint32_t used;                    /* descriptors between next_to_clean and next_to_use */
    uint32_t last_eop;                /* EOP descriptor of the newest packet */
    uint32_t since_rs;                /* packets queued since the last RS */
    uint32_t stop_descs;              /* free descriptors a maximal frame needs (+ 2) */
    uint32_t txdctl;                  /* TXDCTL as programmed (with ENABLE) */
    struct ixgbe_tx_stats stats;
};

/* Defaults as documented at each field. */
void ixgbe_tx_default_opts(struct ixgbe_tx_opts *o);

/* Allocate and program TX queue n (< 64): TDBAL/TDBAH/TDLEN, TDH = TDT = 0,
 * TDWBAH/TDWBAL (the head write-back address with HEAD_WB_ENABLE, or 0),
 * TXDCTL = thresholds | ENABLE, then poll until ENABLE reads back set.
 * dev must have been brought up (ixgbe_dev_init sets DMATXCTL.TE).  o may
 * be NULL (defaults).  Returns 0, IXGBE_ERR_PARAM, IXGBE_ERR_NOMEM or
 * IXGBE_ERR_QUEUE (ENABLE never read back: TXDCTL is written 0 again and
 * the software state freed). */
int ixgbe_txq_setup(struct ixgbe_txq *q, struct ixgbe_dev *dev, unsigned n,
                    const struct ixgbe_tx_opts *o);

/* Disable the queue (TXDCTL without ENABLE, polled until it reads back
 * clear, bounded), hand every packet still queued to done (may be NULL)
 * and free the software state.  DMA memory stays (plat.h has no free). */
void ixgbe_txq_teardown(struct ixgbe_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg);

/* `more` for ixgbe_xmit when the caller writes TDT itself once its batch
 * is queued (ixgbe_tx_tail): xmit then writes none, not even when the ring
 * is nearly full, as ixy's tx_batch queues its packets and writes the tail
 * once after the loop. */
#define IXGBE_XMIT_CALLER_TAIL 2

/* Queue one frame of len bytes (without FCS) at bus address buf_bus_addr.
 * more == 0: the tail is written now; more == 1: another packet follows at
 * once, the tail write may wait (but goes out when the ring is nearly
 * full); more == IXGBE_XMIT_CALLER_TAIL: the caller writes it.
 * Returns 0, IXGBE_ERR_BUSY (-1: fewer than descriptors + 2 free; nothing
 * written) or IXGBE_ERR_PARAM (len 0 or above max_frame_len). */
int ixgbe_xmit(struct ixgbe_txq *q, uint64_t buf_bus_addr, uint32_t len, void *cookie,
               int more);

/* Reclaim completed packets in order, calling done(arg, cookie) for each
 * (done may be NULL).  Returns the number of packets reclaimed. */
unsigned ixgbe_tx_clean(struct ixgbe_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg);

/* ixgbe_clean_tx_irq's loop: reclaim at most budget packets by DD, in
 * order, done(arg, cookie) for each; *bytes (may be NULL) gets their
 * length.  Only for RS on every packet by DD (rs_every 1, no head
 * write-back, no batches, RS by packet): else IXGBE_ERR_PARAM.  Returns the
 * number of packets reclaimed. */
int ixgbe_tx_clean_budget(struct ixgbe_txq *q, unsigned budget,
                          void (*done)(void *arg, void *cookie), void *arg, uint64_t *bytes);

/* Write TDT if descriptors are queued beyond it (after setting RS on the
 * newest packet if it has none). */
void ixgbe_tx_flush(struct ixgbe_txq *q);

/* Write TDT = next_to_use now, whether or not anything was queued since the
 * last write: ixy's tx_batch ends every call with one tail write, even one
 * that queued nothing (the NIC is handed nothing new by an unchanged
 * value).  RS goes on the newest packet beyond the old tail first if it
 * has none, as in ixgbe_tx_flush. */
void ixgbe_tx_tail(struct ixgbe_txq *q);

/* Descriptors free for xmit (one always stays empty: head == tail means an
 * empty ring to the NIC). */
unsigned ixgbe_tx_free_descs(const struct ixgbe_txq *q);

/* Descriptors a frame of len bytes takes. */
unsigned ixgbe_tx_descs_for(const struct ixgbe_txq *q, uint32_t len);

/* 1 when ixgbe_xmit would take a frame of len bytes now (not IXGBE_ERR_BUSY). */
int ixgbe_tx_room(const struct ixgbe_txq *q, uint32_t len);

/* Descriptors queued and not yet reclaimed. */
unsigned ixgbe_tx_in_use(const struct ixgbe_txq *q);

#endif
