/* The RX ring engine both driver cores run: a ring of 16-byte descriptors,
 * each holding a 2048-byte packet buffer (pktbuf.h); a NAPI-style poll with
 * the prefetch points and copybreak of the 2.6.14-era reference runs; and
 * refill with batched tail writes.  The e1000 queue (e1000_rx.h, the
 * 82546's legacy descriptors) and the ixgbe queue (ixgbe_rx.h, the 82599's
 * advanced one-buffer descriptors) are this engine plus their register
 * programming, their packet struct and a table of what differs between the
 * two formats (struct rx_ring_fmt).
 *
 * Shape (Linux e1000_clean_rx_irq / e1000_alloc_rx_buffers; ixgbe's the same):
 *   - rx_ring_poll() processes descriptors in ring order while DD is set and
 *     the budget lasts: one plat_mem_read64 of the write-back's upper qword,
 *     then plat_rmb (unless skip_rmb); frames that are not single-descriptor (EOP), carry a
 *     frame error or a length of nothing after the FCS / beyond the buffer
 *     are dropped and counted, their buffers reused; a good frame is either
 *     copied into a new small buffer (length without FCS <= copybreak; the
 *     DMA buffer stays in the ring) or handed over with its DMA buffer (the
 *     slot is refilled with a new buffer); the stack gets it through
 *     deliver() and owns it until pktbuf_free();
 *   - refill re-posts cleaned slots (a reused buffer, else a new one) and
 *     writes the tail (after plat_wmb) once per rdt_batch re-posted
 *     descriptors; the poll refills whenever rdt_batch slots are waiting and
 *     tops up at its end.  Up to rdt_batch - 1 re-posted descriptors may
 *     wait behind the tail; the NIC still owns the rest of the ring, so no
 *     frame waits on them.  With tail_per_poll the poll instead re-posts
 *     as it goes and writes the tail once at its end (ixy's rx_batch).
 *     One slot always stays empty (Linux's
 *     E1000_DESC_UNUSED), so a full ring never has tail == head.
 *
 * Prefetch points (numbered as in the reference posts), issued for
 * descriptor i right after its DD was seen, in this order (Linux's order for
 * #2 and #1):
 *   #2 prefetch_cur_hdr   the data of slot i's buffer (the header the stack reads)
 *   #1 prefetch_next_desc descriptor i + 1
 *   #5 prefetch_next_hdr  the data of slot i + 1's buffer (when one is posted)
 *
 * Packet data: the engine reads none of it except for the copybreak copy
 * (pktbuf_copy_small); at hand-over it writes the first
 * RX_RING_HANDOVER_TOUCH bytes of the buffer's metadata (the skb fields set
 * before netif_receive_skb).  The per-descriptor bookkeeping
 * (buffer_info.h) is read by the poll before the prefetch points and
 * written by refill. */
#ifndef NICSIM_RX_RING_H
#define NICSIM_RX_RING_H
#include <stdint.h>
#include <stddef.h>
#include "../plat.h"
#include "pktbuf.h"

#define RX_RING_HANDOVER_TOUCH 64u   /* metadata bytes written at hand-over */

/* Both formats' descriptors are two qwords: the buffer's address in QW0 of
 * the read format, the write-back's status, errors and length in QW1. */
struct rx_ring_desc {
    uint64_t qw0;
    uint64_t qw1;
};

/* What differs between the cores' descriptor formats: one constant table
 * per core. */
struct rx_ring_fmt {
    /* Write-back bits, as masks on QW1 (the one qword the poll reads). */
    uint64_t dd;               /* descriptor done */
    uint64_t eop;              /* end of packet */
    uint64_t frame_err;        /* errors that drop the frame (valid with DD and EOP) */
    unsigned len_shift;        /* the 16-bit length field starts here */
    /* 1 = a post writes QW1 = 0 after the address (82599: the header
     * address 0, which also clears the write-back's DD). */
    uint8_t post_zero_qw1;
    /* 1 = the poll writes QW1 = 0 after a descriptor's use (Linux e1000's
     * rx_desc->status = 0), so a stale DD is never seen after a wrap. */
    uint8_t clean_zero_qw1;
    /* The tail register gets next_to_use - tail_lag: 1 where the NIC owns
     * up to and including the tail (8254x, as Linux's e1000 writes it),
     * 0 where it owns [head, tail) (82599, as ixy writes it). */
    uint8_t tail_lag;
    uint32_t info_bytes;       /* bytes of a bookkeeping entry (buffer_info.h) */
};

/* A queue's settings, from the core's options. */
struct rx_ring_cfg {
    uint32_t count;            /* descriptors */
    uint32_t tail_reg;         /* the tail register (E1000_RDT, IXGBE_RDT(n)) */
    uint32_t fcs;              /* bytes of FCS in the write-back's length: 4, or 0
                                  when the NIC strips it */
    uint32_t copybreak;        /* copy frames of at most this many bytes (without
                                  FCS) into a new small buffer; 0 = off */
    uint32_t rdt_batch;        /* re-posted descriptors per tail write */
    uint8_t tail_per_poll;     /* 1: the tail once at the end of a poll that re-posted
                                  anything (ixy), not per rdt_batch */
    uint8_t skip_rmb;          /* 1: no read barrier between the DD read and the
                                  frame's reads (DPDK's 2014 PMD, ixy: x86 keeps
                                  loads in order) */
    uint8_t prefetch_next_desc; /* #1 */
    uint8_t prefetch_cur_hdr;   /* #2 */
    uint8_t prefetch_next_hdr;  /* #5 */
    uint32_t pool_max;         /* own pool only: buffers at most (0 = no limit) */
    uint32_t meta_alloc_touch; /* own pool only: metadata bytes an allocation writes and */
    uint32_t meta_free_touch;  /* a free touches; 0 = the pool's skb-sized defaults
                                  (ixy's 64-byte header with PKTBUF_LAYOUT_IXY) */
    uint8_t buf_layout;        /* own pool only: enum pktbuf_layout of its buffers */
    uint32_t info_bytes;       /* bytes of a bookkeeping entry; 0 = the format's (the
                                  Linux struct's); ixy keeps a pointer per descriptor */
};

struct rx_ring_stats {
    uint64_t packets;          /* frames handed to deliver() */
    uint64_t bytes;            /* their bytes (without FCS) */
    uint64_t copybreak;        /* of which copied into a small buffer */
    uint64_t copy_fails;       /* copybreak frames handed over because no small buffer */
    uint64_t descs;            /* descriptors processed (the budget's unit) */
    uint64_t dd_reads;         /* write-back qwords read */
    uint64_t errors;           /* frames dropped for a frame error (the format's
                                  frame_err bits) */
    uint64_t length_errors;    /* frames dropped: nothing left after the FCS, or a
                                  length beyond the buffer */
    uint64_t multi_desc;       /* frames dropped because they spanned descriptors */
    uint64_t refills;          /* descriptors re-posted */
    uint64_t reused;           /* of which with the buffer they held before */
    uint64_t alloc_fails;      /* refills that found no buffer (retried later) */
    uint64_t rdt_writes;       /* tail-pointer MMIO writes */
    uint64_t prefetches;       /* plat_prefetch calls */
    uint64_t polls;            /* rx_ring_poll calls */
    uint64_t budget_used_up;   /* polls that stopped because the budget was used up */
};

/* A good frame, as the engine hands it to the core's deliver. */
struct rx_ring_pkt {
    void *data;                /* first byte of the frame: modelled memory, plat_mem_* only */
    uint64_t bus;              /* its bus address (for a TX descriptor) */
    uint32_t len;              /* frame length without the FCS */
    uint8_t copied;            /* 1 = a copybreak copy in a small buffer */
    struct pktbuf *buf;        /* the buffer the frame is in */
};

/* deliver(arg, pkt, wb): the frame and its write-back qword (QW1), from
 * which the core decodes the fields its packet struct carries. */
typedef void rx_ring_deliver_fn(void *arg, const struct rx_ring_pkt *pkt, uint64_t wb);

struct rx_ring {
    struct plat_dev *pd;
    const struct rx_ring_fmt *fmt;
    struct rx_ring_desc *desc;    /* the core's descriptor memory: plat_mem_* only */
    struct pktbuf **slot;         /* per descriptor: the buffer posted or kept, or NULL */
    void *info;                   /* per-descriptor bookkeeping (modelled memory) */
    uint32_t count;               /* descriptors */
    uint32_t info_bytes;          /* bytes of a bookkeeping entry */
    uint32_t tail_reg, fcs, copybreak, rdt_batch;       /* as in struct rx_ring_cfg */
    uint8_t tail_per_poll, skip_rmb;
    uint8_t prefetch_next_desc, prefetch_cur_hdr, prefetch_next_hdr;
    uint32_t next_to_clean;       /* next descriptor the poll looks at */
    uint32_t next_to_use;         /* next descriptor refill posts */
    uint32_t posted;              /* descriptors in [next_to_clean, next_to_use) */
    uint32_t since_rdt;           /* re-posted since the last tail write */
    uint32_t rdt;                 /* last value written to the tail */
    int discarding;               /* inside a frame that spans descriptors */
    struct pktbuf_pool own_pool;
    struct pktbuf_pool *pool;     /* own_pool or the caller's */
    struct rx_ring_stats stats;
};

/* The queue's settings and its buffer pool: pool may be NULL (the ring
 * makes its own, sized for cfg->copybreak) or a pool shared with other
 * queues of the same CPU (its small_size must hold copybreak bytes).
 * fmt must outlive the ring.  Returns 0, or -1 (the pool does not fit, or
 * a metadata touch beyond the 64-byte header of PKTBUF_LAYOUT_IXY). */
int rx_ring_init(struct rx_ring *r, struct plat_dev *pd, const struct rx_ring_fmt *fmt,
                 const struct rx_ring_cfg *cfg, struct pktbuf_pool *pool);

/* After rx_ring_init and the core's allocation of the descriptors (count
 * of them at desc, which may be NULL when that failed): allocate the
 * per-descriptor bookkeeping and the slots.  Returns 0, or -1 when desc is
 * NULL or memory ran out (then undo with rx_ring_fini). */
int rx_ring_alloc(struct rx_ring *r, void *desc);

/* Post a buffer in every free slot without writing the tail: setup's fill,
 * handed to the NIC with one rx_ring_write_tail once the queue may fetch.
 * Returns the descriptors posted. */
unsigned rx_ring_fill(struct rx_ring *r);

/* plat_wmb, then the tail register = next_to_use - fmt->tail_lag. */
void rx_ring_write_tail(struct rx_ring *r);

/* Re-post every cleaned slot that can get a buffer; the tail is written per
 * rdt_batch re-posted descriptors.  Returns descriptors re-posted. */
unsigned rx_ring_refill(struct rx_ring *r);

/* Process at most budget completed descriptors, calling deliver(arg, pkt,
 * wb) for each good frame (deliver NULL: the frame is freed), refill, and
 * top up.  Returns the descriptors processed (dropped ones included: they
 * count against the budget, as in Linux); budget returned means there may
 * be more. */
unsigned rx_ring_poll(struct rx_ring *r, unsigned budget, rx_ring_deliver_fn *deliver,
                      void *arg);

/* Descriptors the NIC has been given (between head and tail) as far as the
 * driver knows: posted minus the ones waiting behind the tail. */
unsigned rx_ring_nic_owned(const struct rx_ring *r);

/* Free every buffer the ring holds, the slots and the own pool's
 * bookkeeping (free every packet handed to the stack before this).  The
 * core disables the queue first: the NIC must write into none of them.
 * The descriptor and bookkeeping memory stay (plat.h has no free). */
void rx_ring_fini(struct rx_ring *r);

#endif
