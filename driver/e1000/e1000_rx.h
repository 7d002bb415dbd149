/* The e1000 receive queue: the RX ring engine (../ring/rx_ring.h: poll with
 * the prefetch points and copybreak, refill with batched tail writes) over
 * the 8254x's legacy descriptors, with Linux's e1000 register programming.
 *
 * Shape (Linux e1000_configure_rx / e1000_clean_rx_irq / e1000_alloc_rx_buffers):
 *   - setup programs RDBAL/RDBAH/RDLEN/RDH/RDT, RXDCTL (only when asked:
 *     Linux leaves it at reset), RDTR, RADV, posts count - 1 buffers, writes
 *     RDT once and enables the receiver (RCTL = EN | BAM | RDMTS | BSIZE 2048,
 *     SECRC when asked; Linux does not strip the CRC);
 *   - e1000_rx_poll() is the engine's poll over the write-back qword
 *     (length 15:0, status 39:32, errors 47:40, special 63:48): a frame
 *     error is CE, SE, SEQ, CXE or RXE; the other error bits (TCPE, IPE)
 *     and the status and special fields reach the stack in the packet;
 *     after use the write-back qword is cleared, as Linux's
 *     rx_desc->status = 0, so a stale DD is never seen after a wrap;
 *   - refill posts a buffer's address in QW0 and writes RDT =
 *     next_to_use - 1 (after plat_wmb), as Linux's e1000 does, once per
 *     rdt_batch (default 16, E1000_RX_BUFFER_WRITE) re-posted descriptors. */
#ifndef NICSIM_E1000_RX_H
#define NICSIM_E1000_RX_H
#include <stdint.h>
#include "../plat.h"
#include "e1000_regs.h"
#include "e1000_dev.h"
#include "../ring/pktbuf.h"
#include "../ring/rx_ring.h"

#define E1000_RX_FCS_LEN        4u    /* Ethernet CRC, in the length unless SECRC */
#define E1000_RX_BUFFER_WRITE   16u   /* Linux: RDT written once per 16 buffers */

struct e1000_rx_opts {
    uint32_t ring_size;        /* descriptors, 48..4096, multiple of 8; default 256 */
    uint32_t copybreak;        /* copy frames of at most this many bytes (without FCS)
                                  into a new small buffer; 0 = off; <= 2048; default 256 */
    uint32_t rdt_batch;        /* re-posted descriptors per RDT write, 1..ring_size - 2
                                  (more could strand the NIC with no descriptors);
                                  default 16 (E1000_RX_BUFFER_WRITE) */
    uint8_t tail_per_poll;     /* 1: RDT once at the end of each poll that re-posted
                                  anything, not per rdt_batch; default 0 */
    uint8_t skip_rmb;          /* 1: no rmb after the DD read; default 0 (Linux) */
    uint8_t prefetch_next_desc; /* #1: prefetch descriptor i + 1; default 0 */
    uint8_t prefetch_cur_hdr;   /* #2: prefetch slot i's buffer data; default 0 */
    uint8_t prefetch_next_hdr;  /* #5: prefetch slot i + 1's buffer data; default 0 */
    uint8_t set_rxdctl;        /* 1 = program RXDCTL from the fields below; default 0
                                  (Linux leaves RXDCTL at its reset value) */
    uint8_t pthresh;           /* RXDCTL.PTHRESH 0..63 */
    uint8_t hthresh;           /* RXDCTL.HTHRESH 0..63 */
    uint8_t wthresh;           /* RXDCTL.WTHRESH 0..63 */
    uint8_t gran;              /* RXDCTL.GRAN: 1 = descriptors, 0 = cache lines */
    uint16_t rdtr;             /* RDTR, 1.024 us units; default 0 (Linux) */
    uint16_t radv;             /* RADV, 1.024 us units; default 8 (Linux) */
    uint32_t rdmts;            /* RCTL.RDMTS field: E1000_RCTL_RDMTS_HALF (default),
                                  _QUAT or _EIGTH */
    uint8_t secrc;             /* 1 = RCTL.SECRC (NIC strips the CRC); default 0 (Linux) */
    uint8_t promisc;           /* 1 = RCTL.UPE | MPE; default 0 */
    uint8_t set_mac;           /* 1 = write mac into RAL(0)/RAH(0) with AV; default 0 */
    uint8_t mac[6];
    uint32_t pool_max;         /* own pool only: buffers at most (0 = no limit) */
    uint32_t meta_alloc_touch; /* own pool only: metadata bytes an allocation writes and */
    uint32_t meta_free_touch;  /* a free touches, <= PKTBUF_META_BYTES; 0 = the pool's
                                  skb-sized defaults (pktbuf.h) */
};

/* What deliver() gets.  The stack owns the buffer until it calls
 * e1000_rx_pkt_free(pd, cookie) (directly, or when TX reclaims it). */
struct e1000_rx_pkt {
    void *data;                /* first byte of the frame: modelled memory, plat_mem_* only */
    uint64_t bus;              /* its bus address (for a TX descriptor) */
    uint32_t len;              /* frame length without the FCS */
    uint8_t status;            /* descriptor status byte (E1000_RXD_STAT_*) */
    uint8_t errors;            /* descriptor errors byte (only non-frame errors: TCPE, IPE) */
    uint16_t special;          /* descriptor special field (VLAN tag) */
    uint8_t copied;            /* 1 = a copybreak copy in a small buffer */
    void *cookie;              /* the buffer (struct pktbuf *) */
};

struct e1000_rxq {
    struct e1000_dev *dev;
    struct plat_dev *pd;
    struct e1000_rx_opts opts;
    struct e1000_rx_desc *ring;   /* DMA memory, touched only via plat_mem_* (rx.desc) */
    uint64_t ring_bus;
    size_t ring_bytes;
    uint32_t rctl;                /* RCTL as programmed (with EN) */
    struct rx_ring rx;            /* the ring: slots, indices, pool, stats (rx.stats) */
};

/* Linux-like defaults (see the field comments). */
void e1000_rx_default_opts(struct e1000_rx_opts *o);

/* Allocate the ring, program it, post ring_size - 1 buffers, write RDT
 * once (ring_size - 2, next_to_use - 1) and enable the receiver.  dev must
 * have been brought up with e1000_dev_init.  o may be NULL (defaults).
 * pool may be NULL (the queue makes its own, sized for o->copybreak) or a
 * pool shared with other queues of the same CPU (its small_size must hold
 * copybreak bytes).  Returns 0, E1000_ERR_PARAM or E1000_ERR_NOMEM. */
int e1000_rxq_setup(struct e1000_rxq *q, struct e1000_dev *dev, const struct e1000_rx_opts *o,
                    struct pktbuf_pool *pool);

/* Disable the receiver (RCTL.EN cleared), free the posted buffers and the
 * software state (and the own pool's bookkeeping: free every packet handed
 * to the stack before this).  The ring's DMA memory stays allocated. */
void e1000_rxq_teardown(struct e1000_rxq *q);

/* Process at most budget completed descriptors, calling deliver(arg, pkt)
 * for each good frame, refill, and top up.  Returns the descriptors
 * processed (dropped ones included: they count against the budget, as in
 * Linux); budget returned means there may be more. */
unsigned e1000_rx_poll(struct e1000_rxq *q, unsigned budget,
                       void (*deliver)(void *arg, struct e1000_rx_pkt *pkt), void *arg);

/* Re-post every cleaned slot that can get a buffer; RDT is written per
 * rdt_batch re-posted descriptors.  Returns descriptors re-posted. */
unsigned e1000_rx_refill(struct e1000_rxq *q);

/* The stack is done with a packet ("skb_free" through pd, the freeing CPU;
 * NULL = the pool's). */
void e1000_rx_pkt_free(struct plat_dev *pd, void *cookie);

/* Descriptors the NIC has been given (between RDH and RDT) as far as the
 * driver knows: posted minus the ones waiting behind RDT. */
unsigned e1000_rx_nic_owned(const struct e1000_rxq *q);

#endif
