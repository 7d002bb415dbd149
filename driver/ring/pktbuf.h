/* Packet buffers: the driver cores' model of the kernel's skb allocator,
 * shared by the e1000 and ixgbe cores (and by queues of both on one CPU).
 *
 * A buffer is a data area the NIC can DMA into or out of (RX buffers of
 * PKTBUF_SIZE = 2048 bytes: the 8254x's RCTL.BSIZE 2048, the 82599's
 * SRRCTL.BSIZEPKT 2 KB; or "small" buffers for
 * copybreak copies) plus a metadata area of PKTBUF_META_BYTES that stands
 * for the struct sk_buff and its shared info.  Both live in modelled memory
 * (plat_dma_alloc), so the simulator's cache model sees the CPU touch them.
 *
 * plat.h has no free: the pool grows in chunks of PKTBUF_CHUNK buffers
 * when its free list is empty (up to max_bufs, 0 = no limit) and recycles
 * freed buffers LIFO, as a slab's per-CPU cache hands back the most recently
 * freed (cache-warm) object first.
 *
 * Named costs (plat_cost_id), each with real memory touches:
 *   "skb_alloc"        pktbuf_alloc:       + the metadata written (256 B)
 *   "skb_alloc_small"  pktbuf_alloc_small: + the metadata written (256 B)
 *   "skb_free"         pktbuf_free:        + 192 B of metadata read and written
 * The host-side bookkeeping (struct pktbuf, the free list) is plain
 * memory and costs nothing.
 *
 * Layout, as 2.6-era Linux lays out an skb's data (dev_alloc_skb +
 * skb_reserve(NET_IP_ALIGN)): each data area is an object of a power-of-two
 * size (the kmalloc cache: 4096 bytes for a 2048-byte RX buffer, 512 for a
 * 256-byte copybreak buffer), aligned to its size, and the data starts
 * PKTBUF_HEADROOM bytes into it.  So a 64-byte frame covers bytes 18..81
 * of its object: two cache lines, of which the stack reads only the first.
 * Objects aligned to their size never cross a 64 KB boundary (82546 errata
 * 23 applies to RX buffers too).
 *
 * A pool may lay its 2048-byte buffers out as ixy's mempool does instead
 * (PKTBUF_LAYOUT_IXY, ixy's src/memory.h: struct pkt_buf): entries of
 * PKTBUF_IXY_ENTRY bytes back to back, each a 64-byte header (physical
 * address, pool, index, size: the buffer's metadata here) followed by the
 * data, 64-byte aligned.  A 64-byte frame then fills exactly one line, the
 * header is the line before it, and the headers of all buffers lie 2048
 * bytes apart (on few cache sets), as in ixy. */
#ifndef NICSIM_PKTBUF_H
#define NICSIM_PKTBUF_H
#include <stdint.h>
#include <stddef.h>
#include "../plat.h"

#define PKTBUF_SIZE         2048u  /* RX buffer: RCTL.BSIZE 2048 (BSEX 0), BSIZEPKT 2 */
#define PKTBUF_META_BYTES   256u   /* sk_buff + skb_shared_info stand-in (4 lines) */
#define PKTBUF_ALLOC_TOUCH  256u   /* metadata bytes written by an allocation */
#define PKTBUF_FREE_TOUCH   192u   /* metadata bytes read+written by a free: kfree_skb
                                      reads two sk_buff lines (dst, destructor, users,
                                      head/end) and the skb_shared_info line (dataref) */
#define PKTBUF_CHUNK        64u    /* buffers added per pool growth */
#define PKTBUF_NET_IP_ALIGN 2u     /* Linux: IP header 4-byte aligned after 14 bytes */
#define PKTBUF_HEADROOM     (16u + PKTBUF_NET_IP_ALIGN)  /* NET_SKB_PAD (2.6.14) + NET_IP_ALIGN */
#define PKTBUF_IXY_ENTRY    2048u  /* ixy: PKT_BUF_ENTRY_SIZE */
#define PKTBUF_IXY_HEADER   64u    /* ixy: sizeof(struct pkt_buf), the data's offset */

/* Where a pool's 2048-byte buffers and their metadata sit (small buffers
 * always as the skb layout). */
enum pktbuf_layout {
    PKTBUF_LAYOUT_SKB = 0,      /* Linux's: data PKTBUF_HEADROOM into a kmalloc object, the
                                   metadata (PKTBUF_META_BYTES) in an array of its own */
    PKTBUF_LAYOUT_IXY = 1,      /* ixy's mempool entries: the metadata is the 64-byte header
                                   in front of the data; PKTBUF_IXY_ENTRY - PKTBUF_IXY_HEADER
                                   bytes of data */
};

struct pktbuf_pool;

struct pktbuf {
    void *data;                 /* data area (modelled memory): PKTBUF_HEADROOM bytes
                                   into an object aligned to its power-of-two size */
    uint64_t bus;               /* its bus address */
    void *meta;                 /* metadata area (modelled memory): PKTBUF_META_BYTES, or
                                   PKTBUF_IXY_HEADER in front of data (PKTBUF_LAYOUT_IXY) */
    uint32_t size;              /* bytes in the data area */
    uint8_t small;              /* 1 = a small (copybreak) buffer */
    uint8_t in_use;             /* 1 = handed out by alloc, 0 = on the free list */
    struct pktbuf *next;        /* free list */
    struct pktbuf_pool *pool;   /* where pktbuf_free returns it */
};

struct pktbuf_pool_stats {
    uint64_t allocs;            /* pktbuf_alloc that returned a buffer */
    uint64_t small_allocs;      /* pktbuf_alloc_small that returned a buffer */
    uint64_t frees;             /* pktbuf_free calls */
    uint64_t fails;             /* allocations refused (max_bufs reached or no memory) */
    uint64_t grows;             /* chunks allocated */
};

struct pktbuf_chunk;

struct pktbuf_pool {
    struct plat_dev *pd;        /* memory is allocated, and costs charged, through it */
    uint32_t small_size;        /* data bytes of a small buffer; 0 = no small buffers */
    uint32_t max_bufs;          /* buffers of both kinds together; 0 = no limit */
    uint32_t nbufs;             /* buffers created so far */
    uint32_t in_use;            /* buffers handed out and not freed */
    struct pktbuf *free_big, *free_small;
    struct pktbuf_chunk *chunks;
    /* metadata bytes an allocation writes and a free reads and writes:
     * PKTBUF_ALLOC_TOUCH and PKTBUF_FREE_TOUCH (an skb's) unless the
     * owner sets others (a DPDK mbuf's: docs/l3fwd.md); at most
     * PKTBUF_META_BYTES */
    uint32_t alloc_touch, free_touch;
    /* enum pktbuf_layout of the 2048-byte buffers: PKTBUF_LAYOUT_SKB unless
     * the owner sets another before the first allocation; with
     * PKTBUF_LAYOUT_IXY the touches stay within the 64-byte header */
    uint8_t layout;
    plat_cost c_alloc, c_alloc_small, c_free;
    struct pktbuf_pool_stats stats;
};

/* An empty pool.  small_size (rounded up to 64) sizes the copybreak buffers;
 * 0 means the pool hands out none.  Returns 0, or -1 (p or pd NULL,
 * small_size beyond PKTBUF_SIZE): the pool knows no core's error codes. */
int pktbuf_pool_init(struct pktbuf_pool *p, struct plat_dev *pd, uint32_t small_size,
                     uint32_t max_bufs);

/* Free the host bookkeeping; the DMA memory stays (plat.h has no free).
 * Buffers still handed out become invalid. */
void pktbuf_pool_fini(struct pktbuf_pool *p);

/* A 2048-byte buffer ("skb_alloc"), or NULL (stats.fails). */
struct pktbuf *pktbuf_alloc(struct pktbuf_pool *p);

/* A small buffer ("skb_alloc_small"), or NULL (stats.fails; also when the
 * pool has no small buffers). */
struct pktbuf *pktbuf_alloc_small(struct pktbuf_pool *p);

/* Copybreak's copy, as Linux's RX paths do it: a small buffer, and len + 2
 * bytes copied into it from NET_IP_ALIGN bytes before b's frame (so the copy
 * reads every line the frame covers).  len <= the pool's small size.  NULL
 * (nothing copied) when no small buffer is available. */
struct pktbuf *pktbuf_copy_small(struct pktbuf_pool *p, struct plat_dev *pd,
                                 const struct pktbuf *b, uint32_t len);

/* Give a buffer back to its pool ("skb_free"), charged through pd (the CPU
 * that frees it; NULL = the pool's). */
void pktbuf_free(struct plat_dev *pd, struct pktbuf *b);

#endif
