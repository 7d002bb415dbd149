/* The ixgbe receive queue: one 82599 RX queue n with advanced one-buffer
 * descriptors over 2048-byte buffers, run by the RX ring engine both cores
 * share (../ring/rx_ring.h: poll with the prefetch points and copybreak,
 * refill with batched tail writes; the buffers from ../ring/pktbuf.h).
 * Same shape as the e1000 core's e1000_rx.h, so an app can drive either.
 *
 *   - setup programs SRRCTL(n) (advanced one-buffer, BSIZEPKT 2 KB, DROP_EN
 *     when asked), clears DCA_RXCTRL(n) bit 12 (ixy), RDBAL/RDBAH/RDLEN,
 *     RDH = RDT = 0, posts count - 1 buffers (read format: QW0 the buffer,
 *     QW1 the header address 0), sets RXDCTL(n).ENABLE and polls until it
 *     reads back set, then writes RDT = count - 1 (nic-facts B1a steps 9
 *     and 11).  The receive path itself (RXCTRL.RXEN) is ixgbe_dev_init's;
 *   - ixgbe_rx_poll() is the engine's poll over the write-back's upper
 *     qword (extended status 19:0, errors 31:20, PKT_LEN 47:32, VLAN
 *     63:48): RXE is the 82599's only frame error (B2); the other error
 *     bits, the status and the VLAN field reach the stack in the packet;
 *   - refill writes both qwords on every re-post: the write-back overwrote
 *     QW0 (the buffer address) with RSS/packet-type fields, and QW1 = 0
 *     clears DD (B2: ixy writes 0 there "to reset the flags"); so the poll
 *     leaves the write-back as it is.
 *
 * RDT semantics differ from the e1000 core's: the 82599 owns [RDH, RDT),
 * and the driver writes next_to_use itself (RDT = count - 1 at setup, as
 * ixy), one slot always staying empty, where the e1000 core writes
 * next_to_use - 1 as Linux's e1000 does. */
#ifndef NICSIM_IXGBE_RX_H
#define NICSIM_IXGBE_RX_H
#include <stdint.h>
#include "../plat.h"
#include "../ring/pktbuf.h"
#include "../ring/rx_ring.h"
#include "ixgbe_regs.h"
#include "ixgbe_dev.h"

#define IXGBE_RX_FCS_LEN        4u    /* in PKT_LEN unless the NIC strips it */
#define IXGBE_RX_BUF_SIZE       PKTBUF_SIZE   /* SRRCTL.BSIZEPKT = 2 (KB) */
#define IXGBE_RX_BUFFER_WRITE   16u   /* RDT every 16 buffers: the e1000 value
                                         (nic-facts A5); nic-facts records no ixgbe
                                         value (Linux ixgbe.h also has 16) */

struct ixgbe_rx_opts {
    uint32_t ring_size;        /* descriptors, power of 2, 64..4096; default 512
                                  (Linux's default and limits, B3) */
    uint32_t copybreak;        /* copy frames of at most this many bytes into a new
                                  small buffer; 0 = off; <= 2048; default 256 (the
                                  e1000 default, nic-facts A5) */
    uint32_t rdt_batch;        /* re-posted descriptors per RDT write, 1..ring_size - 1
                                  (more could leave the NIC with none while they wait);
                                  default 16 (IXGBE_RX_BUFFER_WRITE) */
    uint8_t tail_per_poll;     /* 1: RDT once at the end of each poll that re-posted
                                  anything (ixy's rx_batch), not per rdt_batch; default 0 */
    uint8_t skip_rmb;          /* 1: no rmb after the DD read (DPDK's 2014 PMD, ixy);
                                  default 0 (Linux) */
    uint8_t prefetch_next_desc; /* #1: prefetch descriptor i + 1; default 0 */
    uint8_t prefetch_cur_hdr;   /* #2: prefetch slot i's buffer data; default 0 */
    uint8_t prefetch_next_hdr;  /* #5: prefetch slot i + 1's buffer data; default 0 */
    uint8_t pthresh, hthresh, wthresh; /* RXDCTL thresholds, 0..127 each; default 0 (Linux
                                  programs none on the 82599; DPDK's samples of 2014:
                                  8, 8, 4) */
    uint8_t drop_en;           /* SRRCTL.DROP_EN: drop frames when the queue has no
                                  descriptor instead of holding the packet buffer;
                                  default 1 (ixy, B1a step 9) */
    uint32_t pool_max;         /* own pool only: buffers at most (0 = no limit) */
    uint32_t meta_alloc_touch; /* own pool only: metadata bytes an allocation writes and */
    uint32_t meta_free_touch;  /* a free touches, <= PKTBUF_META_BYTES; 0 = the pool's
                                  skb-sized defaults (pktbuf.h) */
    uint32_t info_bytes;       /* bytes of the per-descriptor bookkeeping entry, 0..256;
                                  0 = IXGBE_RX_BUFFER_INFO_BYTES (Linux's struct); ixy
                                  keeps an 8-byte pointer (virtual_addresses) */
    uint8_t buf_layout;        /* own pool only: enum pktbuf_layout; PKTBUF_LAYOUT_IXY
                                  (ixy's pkt_buf entries) needs touches <= 64, the header;
                                  default PKTBUF_LAYOUT_SKB */
    uint64_t enable_timeout_ns; /* bound on the RXDCTL.ENABLE read-back poll (and the
                                   disable at teardown); default 10 ms */
};

/* What deliver() gets.  The stack owns the buffer until it calls
 * ixgbe_rx_pkt_free(pd, cookie) (directly, or when TX reclaims it). */
struct ixgbe_rx_pkt {
    void *data;                /* first byte of the frame: modelled memory, plat_mem_* only */
    uint64_t bus;              /* its bus address (for a TX descriptor) */
    uint32_t len;              /* frame length without the FCS */
    uint32_t status;           /* extended status, DW2 19:0 (IXGBE_RXDADV_STAT_*) */
    uint32_t errors;           /* extended errors, DW2 31:20 in place (IXGBE_RXDADV_ERR_*;
                                  only non-frame errors such as TCPE, IPE reach here) */
    uint16_t vlan;             /* VLAN tag field of the write-back */
    uint8_t copied;            /* 1 = a copybreak copy in a small buffer */
    void *cookie;              /* the buffer (struct pktbuf *) */
};

struct ixgbe_rxq {
    struct ixgbe_dev *dev;
    struct plat_dev *pd;
    struct ixgbe_rx_opts opts;
    unsigned n;                   /* queue index: RDBAL(n) ... (SRRCTL: n <= 15) */
    struct ixgbe_adv_rx_desc *ring; /* DMA memory, touched only via plat_mem_* (rx.desc) */
    uint64_t ring_bus;
    size_t ring_bytes;
    uint32_t srrctl;              /* SRRCTL as programmed */
    uint32_t rxdctl;              /* RXDCTL as programmed (with ENABLE) */
    struct rx_ring rx;            /* the ring: slots, indices, pool, stats (rx.stats) */
};

/* Defaults as documented at each field. */
void ixgbe_rx_default_opts(struct ixgbe_rx_opts *o);

/* Allocate and program RX queue n (< 16, the SRRCTL bank) as described
 * above.  dev must have been brought up with ixgbe_dev_init.  o may be NULL
 * (defaults).  pool may be NULL (the queue makes its own, sized for
 * o->copybreak) or a pool shared with other queues of the same CPU (its
 * small_size must hold copybreak bytes).  Returns 0, IXGBE_ERR_PARAM,
 * IXGBE_ERR_NOMEM or IXGBE_ERR_QUEUE (ENABLE never read back: RXDCTL is
 * written 0 again, the buffers and software state freed). */
int ixgbe_rxq_setup(struct ixgbe_rxq *q, struct ixgbe_dev *dev, unsigned n,
                    const struct ixgbe_rx_opts *o, struct pktbuf_pool *pool);

/* Disable the queue (RXDCTL without ENABLE, polled until it reads back
 * clear, bounded), free the posted buffers and the software state (and the
 * own pool's bookkeeping: free every packet handed to the stack before
 * this).  The ring's DMA memory stays allocated. */
void ixgbe_rxq_teardown(struct ixgbe_rxq *q);

/* Process at most budget completed descriptors, calling deliver(arg, pkt)
 * for each good frame, refill, and top up.  Returns the descriptors
 * processed (dropped ones included); budget returned means there may be
 * more. */
unsigned ixgbe_rx_poll(struct ixgbe_rxq *q, unsigned budget,
                       void (*deliver)(void *arg, struct ixgbe_rx_pkt *pkt), void *arg);

/* Re-post every cleaned slot that can get a buffer; RDT is written per
 * rdt_batch re-posted descriptors.  Returns descriptors re-posted. */
unsigned ixgbe_rx_refill(struct ixgbe_rxq *q);

/* The stack is done with a packet ("skb_free" through pd, the freeing CPU;
 * NULL = the pool's). */
void ixgbe_rx_pkt_free(struct plat_dev *pd, void *cookie);

/* Descriptors the NIC has been given (between RDH and RDT) as far as the
 * driver knows: RDT - next_to_clean. */
unsigned ixgbe_rx_nic_owned(const struct ixgbe_rxq *q);

#endif
