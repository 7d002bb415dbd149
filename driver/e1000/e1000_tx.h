/* The e1000 transmit queue: a legacy-descriptor ring, xmit with tail-pointer
 * batching (Linux's xmit_more), and reclaim of completed packets by DD.
 *
 * Shape (Linux e1000_xmit_frame / e1000_clean_tx_irq):
 *   - e1000_xmit() writes one packet's descriptors and writes TDT only when
 *     the caller says no more packets follow (more == 0) or when the ring is
 *     nearly full (the queue would stop), so queued descriptors never strand;
 *   - RS is requested on every rs_every-th packet and, in addition, on the
 *     last packet before every tail write: a packet is reclaimed only when a
 *     later-or-same RS descriptor shows DD, so every packet handed to the NIC
 *     must be followed by an RS within what the NIC has been given;
 *   - e1000_tx_clean() reads DD only on RS descriptors, in ring order.
 * Ownership: descriptors between the last written tail and next_to_use are
 * still the driver's; the NIC owns [tail - in flight, tail). */
#ifndef NICSIM_E1000_TX_H
#define NICSIM_E1000_TX_H
#include <stdint.h>
#include "../plat.h"
#include "e1000_regs.h"
#include "e1000_dev.h"

struct e1000_tx_opts {
    uint32_t ring_size;       /* descriptors, 48..4096, multiple of 8; default 256 */
    uint8_t pthresh;          /* TXDCTL.PTHRESH 0..63; default 0 (Linux) */
    uint8_t hthresh;          /* TXDCTL.HTHRESH 0..63; default 0 (Linux) */
    uint8_t wthresh;          /* TXDCTL.WTHRESH 0..63; default 1 (Linux) */
    uint8_t gran;             /* TXDCTL.GRAN: 1 = descriptors (Linux), 0 = cache lines */
    uint32_t rs_every;        /* RS on the last descriptor of every Nth packet; 1 = Linux */
    uint32_t clean_thresh;    /* callers reclaim when fewer descriptors are free;
                                 default 32 (Linux's TX_WAKE_THRESHOLD) */
    uint16_t tidv;            /* TIDV, 1.024 us units; default 8 (Linux) */
    uint16_t tadv;            /* TADV, 1.024 us units; default 32 (Linux) */
    uint8_t ide;              /* 1 = set IDE with RS when tidv != 0 (Linux); 0 = never */
    uint32_t max_desc_bytes;  /* bytes per data descriptor, 16..65535; default 4096 */
    uint32_t max_frame_len;   /* largest frame xmit accepts (without FCS); sizes the
                                 "nearly full" tail-write threshold; default 1514 */
};
/* "TX descriptor prefetch on" is a caller's choice of pthresh/hthresh
 * (e.g. pthresh 32, hthresh 1); the defaults are what Linux programs. */

struct e1000_tx_stats {
    uint64_t packets;       /* packets queued */
    uint64_t descs;         /* descriptors written */
    uint64_t tdt_writes;    /* tail-pointer MMIO writes */
    uint64_t tdt_forced;    /* of which forced by a nearly full ring (more == 1) */
    uint64_t rs_set;        /* descriptors given RS */
    uint64_t busy;          /* xmit calls refused for lack of room */
    uint64_t dd_reads;      /* status qwords read by clean */
    uint64_t reclaimed;     /* packets reclaimed by clean */
};

/* Software state of one descriptor (Linux's buffer_info). */
struct e1000_tx_slot {
    void *cookie;           /* caller's packet handle, on the EOP descriptor */
    uint16_t len;           /* bytes in this descriptor (to rebuild QW1) */
    uint8_t flags;          /* E1000_TX_SLOT_* */
};
#define E1000_TX_SLOT_USED 0x01
#define E1000_TX_SLOT_EOP  0x02
#define E1000_TX_SLOT_RS   0x04

struct e1000_txq {
    struct e1000_dev *dev;
    struct plat_dev *pd;
    struct e1000_tx_opts opts;
    struct e1000_tx_desc *ring;   /* DMA memory, touched only via plat_mem_* */
    uint64_t ring_bus;
    size_t ring_bytes;            /* allocated: ring_size * 16 rounded up to 4 KB */
    struct e1000_tx_slot *slot;   /* ring_size entries */
    void *info;                   /* ring_size struct e1000_buffer stand-ins (modelled memory) */
    uint32_t *rs_fifo;            /* indices of RS descriptors not yet reclaimed, in order */
    uint32_t rs_head, rs_count;
    uint32_t count;               /* ring_size */
    uint32_t next_to_use;         /* next descriptor xmit writes */
    uint32_t next_to_clean;       /* oldest descriptor not reclaimed */
    uint32_t tail;                /* last value written to TDT */
    uint32_t used;                /* descriptors between next_to_clean and next_to_use */
    uint32_t last_eop;            /* EOP descriptor of the newest packet */
    uint32_t since_rs;            /* packets queued since the last RS */
    uint32_t first_max;           /* bytes in a packet's first descriptor (erratum 10) */
    uint32_t stop_descs;          /* free descriptors a maximal frame needs (its descriptors + 2) */
    uint8_t ide_cmd;              /* E1000_TXD_CMD_IDE or 0 */
    struct e1000_tx_stats stats;
};

/* Linux-like defaults (see the field comments). */
void e1000_tx_default_opts(struct e1000_tx_opts *o);

/* Allocate and program the ring (TDBAL/TDBAH/TDLEN/TDH/TDT, TXDCTL, TIDV,
 * TADV), then enable the transmitter (TCTL = dev->tctl | EN).  dev must have
 * been brought up with e1000_dev_init.  o may be NULL (defaults).
 * Returns 0, E1000_ERR_PARAM or E1000_ERR_NOMEM. */
int e1000_txq_setup(struct e1000_txq *q, struct e1000_dev *dev,
                    const struct e1000_tx_opts *o);

/* Disable the transmitter (TCTL.EN cleared), hand every packet still queued
 * to done (may be NULL) and free the software state.  The ring's DMA memory
 * stays allocated: plat.h has no free. */
void e1000_txq_teardown(struct e1000_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg);

/* Queue one frame of len bytes (without FCS: IFCS makes the MAC append it)
 * at bus address buf_bus_addr.  more != 0 means another packet follows at
 * once, so the tail write may be deferred.  Returns 0 (queued),
 * E1000_ERR_BUSY (-1: fewer than descriptors + 2 free; nothing written) or
 * E1000_ERR_PARAM (len 0 or above max_frame_len). */
int e1000_xmit(struct e1000_txq *q, uint64_t buf_bus_addr, uint32_t len, void *cookie,
               int more);

/* Reclaim completed packets in order, calling done(arg, cookie) for each
 * (done may be NULL).  Returns the number of packets reclaimed. */
unsigned e1000_tx_clean(struct e1000_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg);

/* Write TDT if descriptors are queued beyond it (after setting RS on the
 * newest packet if it has none). */
void e1000_tx_flush(struct e1000_txq *q);

/* Descriptors free for xmit (one slot always stays empty: head == tail
 * means an empty ring to the NIC). */
unsigned e1000_tx_free_descs(const struct e1000_txq *q);

/* Descriptors a frame of len bytes takes (max_desc_bytes, erratum 10). */
unsigned e1000_tx_descs_for(const struct e1000_txq *q, uint32_t len);

/* Descriptors queued and not yet reclaimed. */
unsigned e1000_tx_in_use(const struct e1000_txq *q);

#endif
