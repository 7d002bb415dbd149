/* The ixgbe transmit queue; see ixgbe_tx.h. */
#include "ixgbe_tx.h"
#include "../ring/reg_poll.h"
#include "../ring/buffer_info.h"
#include <stdlib.h>
#include <string.h>

/* count + 2 free descriptors per packet, as the e1000 core: one slot always
 * stays empty (TDH == TDT means "empty" to the NIC) and one is slack. */
#define TX_SLACK 2u

/* The head write-back target gets a cache line of its own, so the NIC's
 * writes to it never invalidate a line holding anything else. */
#define HEAD_WB_BYTES 64u

void ixgbe_tx_default_opts(struct ixgbe_tx_opts *o)
{
    *o = (struct ixgbe_tx_opts){
        .ring_size = IXGBE_DEFAULT_TXD,
        .prefetch = 1,
        .pthresh = 32, .hthresh = 1, .wthresh = 1,     /* Linux (B3) */
        .head_wb = 0,
        .rs_every = 1,
        .clean_thresh = 32,
        .max_desc_bytes = 16384,
        .max_frame_len = 1514,
        .enable_timeout_ns = 10000000ull,
    };
}

static unsigned descs_for(uint32_t max_desc, uint32_t len)
{
    return (len + max_desc - 1) / max_desc;
}

unsigned ixgbe_tx_descs_for(const struct ixgbe_txq *q, uint32_t len)
{
    return descs_for(q->opts.max_desc_bytes, len);
}

unsigned ixgbe_tx_free_descs(const struct ixgbe_txq *q)
{
    return q->count - 1 - q->used;
}

int ixgbe_tx_room(const struct ixgbe_txq *q, uint32_t len)
{
    return ixgbe_tx_free_descs(q) >= ixgbe_tx_descs_for(q, len) + TX_SLACK;
}

unsigned ixgbe_tx_in_use(const struct ixgbe_txq *q)
{
    return q->used;
}

/* Index arithmetic modulo the ring size, which need not be a power of 2:
 * Linux's ixgbe_set_ringparam accepts any multiple of 8 (it aligns the
 * request to IXGBE_REQ_TX_DESCRIPTOR_MULTIPLE), as TDLEN counts 128-byte
 * units. */
static uint32_t ring_add(const struct ixgbe_txq *q, uint32_t i, uint32_t n)
{
    return (i + n) % q->count;
}

static uint32_t ring_dist(const struct ixgbe_txq *q, uint32_t from, uint32_t to)
{
    return (to + q->count - from) % q->count;
}

static int opts_valid(const struct ixgbe_tx_opts *o)
{
    uint32_t r = o->ring_size;
    return r >= IXGBE_MIN_TXD && r <= IXGBE_MAX_TXD && r % IXGBE_TXD_MULTIPLE == 0 &&
           o->prefetch <= 1 && o->head_wb <= 1 &&
           o->hthresh <= IXGBE_TXDCTL_THRESH_MAX &&
           (uint32_t)o->pthresh + o->wthresh <= IXGBE_TX_DESC_CACHE &&
           o->rs_every >= 1 && o->clean_thresh < r && o->rs_by_index <= 1 &&
           (!o->rs_by_index || (o->rs_every <= r && r % o->rs_every == 0)) &&
           (!o->clean_batch || (o->clean_batch < r && o->rs_every == 1 && !o->rs_by_index)) &&
           o->max_desc_bytes >= 16 && o->max_desc_bytes <= IXGBE_ADVTXD_MAX_DTALEN &&
           o->max_frame_len >= 1 && o->max_frame_len <= IXGBE_ADVTXD_PAYLEN_MAX &&
           o->info_bytes <= IXGBE_INFO_BYTES_MAX;
}

static void free_soft(struct ixgbe_txq *q)
{
    free(q->slot);
    free(q->rs_fifo);
    q->slot = NULL;
    q->rs_fifo = NULL;
}

int ixgbe_txq_setup(struct ixgbe_txq *q, struct ixgbe_dev *dev, unsigned n,
                    const struct ixgbe_tx_opts *o)
{
    struct ixgbe_tx_opts def;
    if (!o) {
        ixgbe_tx_default_opts(&def);
        o = &def;
    }
    if (!q || !dev || n >= IXGBE_TX_QUEUES || !opts_valid(o))
        return IXGBE_ERR_PARAM;
    struct plat_dev *pd = dev->pd;
    *q = (struct ixgbe_txq){ .dev = dev, .pd = pd, .opts = *o, .n = n, .count = o->ring_size };
    q->stop_descs = descs_for(o->max_desc_bytes, o->max_frame_len) + TX_SLACK;
    if (q->stop_descs > q->count - 1)
        return IXGBE_ERR_PARAM;         /* a maximal frame could never be queued */

    q->ring = ixgbe_ring_alloc(pd, q->count, &q->ring_bytes, &q->ring_bus);
    q->info_bytes = o->info_bytes ? o->info_bytes : IXGBE_TX_BUFFER_INFO_BYTES;
    q->info = buffer_info_alloc(pd, q->count, q->info_bytes);
    if (o->head_wb)
        q->head_wb = plat_dma_alloc(pd, HEAD_WB_BYTES, HEAD_WB_BYTES, &q->head_wb_bus);
    q->slot = calloc(q->count, sizeof *q->slot);
    q->rs_fifo = calloc(q->count, sizeof *q->rs_fifo);
    if (!q->ring || !q->info || (o->head_wb && !q->head_wb) || !q->slot || !q->rs_fifo) {
        free_soft(q);
        return IXGBE_ERR_NOMEM;
    }

    plat_write32(pd, IXGBE_TDBAL(n), (uint32_t)q->ring_bus);
    plat_write32(pd, IXGBE_TDBAH(n), (uint32_t)(q->ring_bus >> 32));
    plat_write32(pd, IXGBE_TDLEN(n), q->count * IXGBE_DESC_BYTES);
    plat_write32(pd, IXGBE_TDH(n), 0);
    plat_write32(pd, IXGBE_TDT(n), 0);
    /* The high half first: the enable bit goes out with a complete address.
     * Without head write-back both are written 0, so a queue set up again
     * without a device reset does not keep an old target. */
    plat_write32(pd, IXGBE_TDWBAH(n), o->head_wb ? (uint32_t)(q->head_wb_bus >> 32) : 0);
    plat_write32(pd, IXGBE_TDWBAL(n),
                 o->head_wb ? (uint32_t)q->head_wb_bus | IXGBE_TDWBAL_HEAD_WB_ENABLE : 0);
    uint32_t pth = o->prefetch ? o->pthresh : 0, hth = o->prefetch ? o->hthresh : 0;
    q->txdctl = pth << IXGBE_TXDCTL_PTHRESH_SHIFT | hth << IXGBE_TXDCTL_HTHRESH_SHIFT |
                (uint32_t)o->wthresh << IXGBE_TXDCTL_WTHRESH_SHIFT | IXGBE_TXDCTL_ENABLE;
    /* Thresholds and ENABLE in one write, then wait until the queue reports
     * itself enabled (B1a step 12) before anything is handed to it. */
    plat_write32(pd, IXGBE_TXDCTL(n), q->txdctl);
    uint32_t v = 0;
    uint64_t waited;
    if (!reg_poll(pd, IXGBE_TXDCTL(n), IXGBE_TXDCTL_ENABLE, IXGBE_TXDCTL_ENABLE, o->enable_timeout_ns, &v,
                  &waited)) {
        plat_log(pd, "ixgbe: TX queue %u not enabled after %llu ns (TXDCTL 0x%08x)", n,
                 (unsigned long long)waited, v);
        /* withdraw the request: a queue that comes up later must not fetch
         * from a ring the driver has given up */
        plat_write32(pd, IXGBE_TXDCTL(n), 0);
        free_soft(q);
        return IXGBE_ERR_QUEUE;
    }
    return 0;
}

static void tail_write(struct ixgbe_txq *q)
{
    /* Descriptor stores must reach memory before the NIC can see the tail. */
    plat_wmb(q->pd);
    plat_write32(q->pd, IXGBE_TDT(q->n), q->next_to_use);
    q->tail = q->next_to_use;
    q->stats.tdt_writes++;
}

/* QW1 of an advanced data descriptor (B2). */
static uint64_t qw1(uint32_t dtalen, uint8_t cmd, uint32_t paylen)
{
    return (uint64_t)dtalen | IXGBE_ADVTXD_DTYP_DATA | IXGBE_ADVTXD_DCMD(cmd) |
           (uint64_t)paylen << IXGBE_ADVTXD_PAYLEN_SHIFT;
}

static void rs_push(struct ixgbe_txq *q, uint32_t idx)
{
    q->rs_fifo[ring_add(q, q->rs_head, q->rs_count)] = idx;
    q->rs_count++;
    q->since_rs = 0;
    q->stats.rs_set++;
}

/* Whether the packet about to take n descriptors gets RS. */
static int rs_due(const struct ixgbe_txq *q, unsigned n, int write_tail)
{
    if (!q->opts.rs_by_index)
        return q->since_rs + 1 >= q->opts.rs_every || write_tail;
    uint32_t k = q->opts.rs_every, first = q->next_to_use;
    /* the next multiple of k minus one at or after first, within n */
    uint32_t to_boundary = (k - 1 - first % k) % k;
    return to_boundary < n;
}

int ixgbe_xmit(struct ixgbe_txq *q, uint64_t buf_bus_addr, uint32_t len, void *cookie,
               int more)
{
    if (len == 0 || len > q->opts.max_frame_len)
        return IXGBE_ERR_PARAM;
    if (!ixgbe_tx_room(q, len)) {
        q->stats.busy++;
        return IXGBE_ERR_BUSY;
    }
    unsigned n = ixgbe_tx_descs_for(q, len);
    unsigned free_descs = ixgbe_tx_free_descs(q);

    /* Tail now if nothing follows, or if after this packet a maximal one
     * would no longer fit: the caller then stops, so nothing may stay
     * behind TDT. */
    int nearly_full = free_descs - n < q->stop_descs;
    int write_tail = more != IXGBE_XMIT_CALLER_TAIL && (!more || nearly_full);
    int rs = rs_due(q, n, write_tail);

    uint32_t i = q->next_to_use, off = 0, left = len, max = q->opts.max_desc_bytes;
    for (unsigned k = 0; k < n; k++) {
        uint32_t chunk = left < max ? left : max;
        int last = k == n - 1;
        /* Every descriptor: advanced (DEXT), FCS appended by the MAC (IFCS).
         * PAYLEN = the whole packet on the first descriptor (ixy: PAYLEN =
         * length, B1a); the following ones carry 0 there, as Linux's
         * ixgbe_tx_map clears olinfo_status on them. */
        uint8_t cmd = IXGBE_TXD_CMD_DEXT | IXGBE_TXD_CMD_IFCS;
        uint32_t paylen = k == 0 ? len : 0;
        if (last)
            cmd |= IXGBE_TXD_CMD_EOP | (rs ? IXGBE_TXD_CMD_RS : 0);
        plat_mem_write64(q->pd, &q->ring[i].buffer_addr, buf_bus_addr + off);
        plat_mem_write64(q->pd, &q->ring[i].cmd_type_len, qw1(chunk, cmd, paylen));
        buffer_info_touch(q->pd, q->info, q->info_bytes, i, 1);
        q->slot[i] = (struct ixgbe_tx_slot){
            .cookie = last ? cookie : NULL,
            .len = (uint16_t)chunk,
            .paylen = paylen,
            .flags = IXGBE_TX_SLOT_USED |
                     (last ? IXGBE_TX_SLOT_EOP | (rs ? IXGBE_TX_SLOT_RS : 0) : 0),
        };
        off += chunk;
        left -= chunk;
        q->last_eop = i;
        i = ring_add(q, i, 1);
    }
    q->next_to_use = i;
    q->used += n;
    q->stats.packets++;
    q->stats.descs += n;
    if (rs)
        rs_push(q, q->last_eop);
    else
        q->since_rs++;

    if (write_tail) {
        if (more)                       /* only 1 gets here: nearly full */
            q->stats.tdt_forced++;
        tail_write(q);
    }
    return 0;
}

/* Before a tail write that hands over packets: the newest one, still ours
 * (beyond TDT), gets RS if it has none, so that it and the packets before
 * it will be reported. */
static void rs_on_newest(struct ixgbe_txq *q)
{
    if (q->next_to_use == q->tail)
        return;
    struct ixgbe_tx_slot *s = &q->slot[q->last_eop];
    if (!(s->flags & IXGBE_TX_SLOT_RS) && !q->opts.rs_by_index) {
        uint8_t cmd = IXGBE_TXD_CMD_DEXT | IXGBE_TXD_CMD_IFCS | IXGBE_TXD_CMD_EOP |
                      IXGBE_TXD_CMD_RS;
        plat_mem_write64(q->pd, &q->ring[q->last_eop].cmd_type_len,
                         qw1(s->len, cmd, s->paylen));
        s->flags |= IXGBE_TX_SLOT_RS;
        rs_push(q, q->last_eop);
    }
}

void ixgbe_tx_flush(struct ixgbe_txq *q)
{
    if (q->next_to_use == q->tail)
        return;
    rs_on_newest(q);
    tail_write(q);
}

void ixgbe_tx_tail(struct ixgbe_txq *q)
{
    rs_on_newest(q);
    tail_write(q);
}

/* Reclaim descriptor next_to_clean; 1 if it ended a packet.  The packet's
 * bytes (PAYLEN of its first descriptor) are added to *bytes. */
static int reclaim_one(struct ixgbe_txq *q, void (*done)(void *arg, void *cookie), void *arg,
                       uint64_t *bytes)
{
    uint32_t i = q->next_to_clean;
    struct ixgbe_tx_slot *s = &q->slot[i];
    int eop = (s->flags & IXGBE_TX_SLOT_EOP) != 0;
    /* ixgbe_clean_tx_irq: read skb and dma of the tx_buffer, clear it */
    buffer_info_touch(q->pd, q->info, q->info_bytes, i, 1);
    *bytes += s->paylen;
    if (eop && done)
        done(arg, s->cookie);
    memset(s, 0, sizeof *s);
    q->next_to_clean = ring_add(q, i, 1);
    q->used--;
    return eop;
}

/* By the DD bit of each RS descriptor in turn, oldest first; no more RS
 * groups once budget packets are reclaimed (with RS on every packet a group
 * is one packet, so the budget is exact, as ixgbe_clean_tx_irq's). */
static unsigned clean_dd(struct ixgbe_txq *q, unsigned budget,
                         void (*done)(void *arg, void *cookie), void *arg, uint64_t *bytes)
{
    unsigned cleaned = 0;
    while (q->rs_count && cleaned < budget) {
        uint32_t rs_idx = q->rs_fifo[q->rs_head];
        /* Only descriptors the NIC has been given can be done. */
        if (ring_dist(q, q->next_to_clean, rs_idx) >= ring_dist(q, q->next_to_clean, q->tail))
            break;
        uint64_t sta = plat_mem_read64(q->pd, &q->ring[rs_idx].cmd_type_len);
        q->stats.dd_reads++;
        if (!(sta & IXGBE_ADVTXD_STAT_DD))
            break;
        /* DD first, then whatever it vouches for. */
        if (!q->opts.skip_rmb)
            plat_rmb(q->pd);
        /* The NIC completes descriptors in order: DD here means every
         * descriptor up to and including rs_idx is done. */
        for (;;) {
            uint32_t i = q->next_to_clean;
            cleaned += (unsigned)reclaim_one(q, done, arg, bytes);
            if (i == rs_idx)
                break;
        }
        q->rs_head = ring_add(q, q->rs_head, 1);
        q->rs_count--;
    }
    return cleaned;
}

/* Drop the pending RS entries among the `passed` descriptors reclaimed from
 * `from` on. */
static void rs_forget(struct ixgbe_txq *q, uint32_t from, uint32_t passed)
{
    while (q->rs_count && ring_dist(q, from, q->rs_fifo[q->rs_head]) < passed) {
        q->rs_head = ring_add(q, q->rs_head, 1);
        q->rs_count--;
    }
}

/* ixy's clean: while a whole batch is outstanding, the DD of its last
 * descriptor says whether the batch is done; whole batches only. */
static unsigned clean_batches(struct ixgbe_txq *q, void (*done)(void *arg, void *cookie),
                              void *arg)
{
    uint32_t b = q->opts.clean_batch;
    unsigned cleaned = 0;
    uint64_t bytes = 0;             /* not reported by this path */
    while (q->used >= b) {
        uint32_t from = q->next_to_clean, last = ring_add(q, from, b - 1);
        if (ring_dist(q, from, last) >= ring_dist(q, from, q->tail))
            break;                      /* not all of it handed to the NIC */
        /* a multi-descriptor packet may end elsewhere: its RS counts */
        uint32_t k = b;
        while (k && !(q->slot[ring_add(q, from, k - 1)].flags & IXGBE_TX_SLOT_RS))
            k--;
        if (!k)
            break;
        uint64_t sta = plat_mem_read64(q->pd, &q->ring[ring_add(q, from, k - 1)].cmd_type_len);
        q->stats.dd_reads++;
        if (!(sta & IXGBE_ADVTXD_STAT_DD))
            break;
        if (!q->opts.skip_rmb)
            plat_rmb(q->pd);
        for (uint32_t j = 0; j < k; j++)
            cleaned += (unsigned)reclaim_one(q, done, arg, &bytes);
        rs_forget(q, from, k);
    }
    return cleaned;
}

static unsigned clean_head(struct ixgbe_txq *q, void (*done)(void *arg, void *cookie),
                           void *arg)
{
    if (q->next_to_clean == q->tail)
        return 0;                       /* nothing handed over: no read */
    uint32_t head = (uint32_t)plat_mem_read64(q->pd, q->head_wb);
    q->stats.head_reads++;
    uint32_t given = ring_dist(q, q->next_to_clean, q->tail);
    if (head >= q->count || ring_dist(q, q->next_to_clean, head) > given) {
        /* not a position the NIC can have reached: never believed */
        q->stats.bad_head++;
        return 0;
    }
    uint32_t advance = ring_dist(q, q->next_to_clean, head);
    if (!advance)
        return 0;
    if (!q->opts.skip_rmb)
        plat_rmb(q->pd);
    /* Every descriptor before head is done, but head may stop inside a
     * packet: reclaim only up to the last EOP before it. */
    uint32_t whole = 0;
    for (uint32_t k = 0; k < advance; k++)
        if (q->slot[ring_add(q, q->next_to_clean, k)].flags & IXGBE_TX_SLOT_EOP)
            whole = k + 1;
    uint32_t from = q->next_to_clean;
    unsigned cleaned = 0;
    uint64_t bytes = 0;             /* not reported by this path */
    for (uint32_t k = 0; k < whole; k++)
        cleaned += (unsigned)reclaim_one(q, done, arg, &bytes);
    /* RS descriptors passed on the way are no longer pending. */
    rs_forget(q, from, whole);
    return cleaned;
}

unsigned ixgbe_tx_clean(struct ixgbe_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg)
{
    uint64_t bytes = 0;
    unsigned cleaned = q->opts.head_wb      ? clean_head(q, done, arg)
                       : q->opts.clean_batch ? clean_batches(q, done, arg)
                                             : clean_dd(q, UINT32_MAX, done, arg, &bytes);
    q->stats.reclaimed += cleaned;
    return cleaned;
}

int ixgbe_tx_clean_budget(struct ixgbe_txq *q, unsigned budget,
                          void (*done)(void *arg, void *cookie), void *arg, uint64_t *bytes)
{
    if (q->opts.head_wb || q->opts.clean_batch || q->opts.rs_by_index || q->opts.rs_every != 1)
        return IXGBE_ERR_PARAM;
    uint64_t b = 0;
    unsigned cleaned = clean_dd(q, budget, done, arg, &b);
    q->stats.reclaimed += cleaned;
    if (bytes)
        *bytes = b;
    return (int)cleaned;
}

void ixgbe_txq_teardown(struct ixgbe_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg)
{
    if (!q->slot)
        return;
    /* Queue off, and wait until the NIC says so before the buffers go back
     * to their owners: a queue still fetching could read a reused buffer. */
    plat_write32(q->pd, IXGBE_TXDCTL(q->n), q->txdctl & ~IXGBE_TXDCTL_ENABLE);
    uint32_t v = 0;
    if (!reg_poll_to_end(q->pd, IXGBE_TXDCTL(q->n), IXGBE_TXDCTL_ENABLE, 0, q->opts.enable_timeout_ns, &v, NULL))
        plat_log(q->pd, "ixgbe: TX queue %u still enabled after %llu ns (TXDCTL 0x%08x)",
                 q->n, (unsigned long long)q->opts.enable_timeout_ns, v);
    while (q->used) {
        struct ixgbe_tx_slot *s = &q->slot[q->next_to_clean];
        if ((s->flags & IXGBE_TX_SLOT_EOP) && done)
            done(arg, s->cookie);
        q->next_to_clean = ring_add(q, q->next_to_clean, 1);
        q->used--;
    }
    free_soft(q);
    q->ring = NULL;
    q->head_wb = NULL;
}
