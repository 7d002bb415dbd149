/* The e1000 transmit queue; see e1000_tx.h. */
#include "e1000_tx.h"
#include "../ring/buffer_info.h"
#include <stdlib.h>
#include <string.h>

/* Linux needs count + 2 free descriptors per packet: one slot always stays
 * empty (TDH == TDT means "empty" to the NIC) and one is kept as slack. */
#define TX_SLACK 2u

void e1000_tx_default_opts(struct e1000_tx_opts *o)
{
    *o = (struct e1000_tx_opts){
        .ring_size = E1000_DEFAULT_TXD,
        .pthresh = 0, .hthresh = 0, .wthresh = 1, .gran = 1,  /* 0x01010000 */
        .rs_every = 1,
        .clean_thresh = 32,
        .tidv = 8, .tadv = 32,
        .ide = 1,
        .max_desc_bytes = E1000_MAX_DATA_PER_TXD,
        .max_frame_len = 1514,
    };
}

static unsigned descs_for(uint32_t first_max, uint32_t max_desc, uint32_t len)
{
    if (len <= first_max)
        return 1;
    return 1 + (len - first_max + max_desc - 1) / max_desc;
}

unsigned e1000_tx_descs_for(const struct e1000_txq *q, uint32_t len)
{
    return descs_for(q->first_max, q->opts.max_desc_bytes, len);
}

unsigned e1000_tx_free_descs(const struct e1000_txq *q)
{
    return q->count - 1 - q->used;
}

unsigned e1000_tx_in_use(const struct e1000_txq *q)
{
    return q->used;
}

static uint32_t ring_dist(const struct e1000_txq *q, uint32_t from, uint32_t to)
{
    return (to + q->count - from) % q->count;
}

static int opts_valid(const struct e1000_tx_opts *o)
{
    return o->ring_size >= E1000_MIN_TXD && o->ring_size <= E1000_MAX_TXD &&
           o->ring_size % E1000_RING_MULTIPLE == 0 &&
           o->pthresh <= 63 && o->hthresh <= 63 && o->wthresh <= 63 && o->gran <= 1 &&
           o->rs_every >= 1 && o->clean_thresh < o->ring_size &&
           o->max_desc_bytes >= 16 && o->max_desc_bytes <= 0xFFFF &&
           o->max_frame_len >= 1;
}

int e1000_txq_setup(struct e1000_txq *q, struct e1000_dev *dev,
                    const struct e1000_tx_opts *o)
{
    struct e1000_tx_opts def;
    if (!o) {
        e1000_tx_default_opts(&def);
        o = &def;
    }
    if (!q || !dev || !opts_valid(o))
        return E1000_ERR_PARAM;
    struct plat_dev *pd = dev->pd;
    *q = (struct e1000_txq){ .dev = dev, .pd = pd, .opts = *o, .count = o->ring_size };

    /* Erratum 10 (all controllers in PCI-X mode): the first descriptor of a
     * packet stays below 2016 bytes, costing one extra descriptor. */
    q->first_max = o->max_desc_bytes;
    if (dev->pcix && q->first_max > E1000_PCIX_ERRATUM10_FIRST_MAX)
        q->first_max = E1000_PCIX_ERRATUM10_FIRST_MAX;
    q->stop_descs = descs_for(q->first_max, o->max_desc_bytes, o->max_frame_len) + TX_SLACK;
    if (q->stop_descs > q->count - 1)
        return E1000_ERR_PARAM;         /* a maximal frame could never be queued */
    q->ide_cmd = (o->ide && o->tidv != 0) ? E1000_TXD_CMD_IDE : 0;

    q->ring = e1000_ring_alloc(pd, q->count, "TX", &q->ring_bytes, &q->ring_bus);
    q->info = buffer_info_alloc(pd, q->count, E1000_BUFFER_INFO_BYTES);
    q->slot = calloc(q->count, sizeof *q->slot);
    q->rs_fifo = calloc(q->count, sizeof *q->rs_fifo);
    if (!q->ring || !q->info || !q->slot || !q->rs_fifo) {
        free(q->slot);
        free(q->rs_fifo);
        q->slot = NULL;
        q->rs_fifo = NULL;
        return E1000_ERR_NOMEM;
    }

    plat_write32(pd, E1000_TDBAL, (uint32_t)q->ring_bus);
    plat_write32(pd, E1000_TDBAH, (uint32_t)(q->ring_bus >> 32));
    plat_write32(pd, E1000_TDLEN, q->count * E1000_DESC_BYTES);
    plat_write32(pd, E1000_TDH, 0);
    plat_write32(pd, E1000_TDT, 0);
    plat_write32(pd, E1000_TXDCTL,
                 ((uint32_t)o->pthresh << E1000_DCTL_PTHRESH_SHIFT) |
                 ((uint32_t)o->hthresh << E1000_DCTL_HTHRESH_SHIFT) |
                 ((uint32_t)o->wthresh << E1000_DCTL_WTHRESH_SHIFT) |
                 (o->gran ? E1000_DCTL_GRAN : 0));
    plat_write32(pd, E1000_TIDV, o->tidv);
    plat_write32(pd, E1000_TADV, o->tadv);
    plat_write32(pd, E1000_TCTL, dev->tctl | E1000_TCTL_EN);
    return 0;
}

static void tail_write(struct e1000_txq *q)
{
    /* Descriptor stores must reach memory before the NIC can see the tail. */
    plat_wmb(q->pd);
    plat_write32(q->pd, E1000_TDT, q->next_to_use);
    q->tail = q->next_to_use;
    q->stats.tdt_writes++;
}

static uint64_t qw1(uint32_t len, uint8_t cmd)
{
    return ((uint64_t)len << E1000_TXD_LEN_SHIFT) | E1000_TXD_QW1_CMD(cmd);
}

static void rs_push(struct e1000_txq *q, uint32_t idx)
{
    q->rs_fifo[(q->rs_head + q->rs_count) % q->count] = idx;
    q->rs_count++;
    q->since_rs = 0;
    q->stats.rs_set++;
}

int e1000_xmit(struct e1000_txq *q, uint64_t buf_bus_addr, uint32_t len, void *cookie,
               int more)
{
    if (len == 0 || len > q->opts.max_frame_len)
        return E1000_ERR_PARAM;
    unsigned n = e1000_tx_descs_for(q, len);
    unsigned free_descs = e1000_tx_free_descs(q);
    if (free_descs < n + TX_SLACK) {
        q->stats.busy++;
        return E1000_ERR_BUSY;
    }

    /* Tail now if nothing follows, or if after this packet a maximal one
     * would no longer fit: the queue stops, so nothing may stay behind TDT. */
    int nearly_full = free_descs - n < q->stop_descs;
    int write_tail = !more || nearly_full;
    /* RS on every tail write as well: with bursts shorter than rs_every RS
     * then comes once per burst, not once per rs_every packets. */
    int rs = q->since_rs + 1 >= q->opts.rs_every || write_tail;

    uint32_t i = q->next_to_use, off = 0, left = len, max = q->first_max;
    for (unsigned k = 0; k < n; k++) {
        uint32_t chunk = left < max ? left : max;
        int last = k == n - 1;
        uint8_t cmd = E1000_TXD_CMD_IFCS;
        if (last)
            cmd |= E1000_TXD_CMD_EOP | (rs ? (uint8_t)(E1000_TXD_CMD_RS | q->ide_cmd) : 0);
        plat_mem_write64(q->pd, &q->ring[i].buffer_addr, buf_bus_addr + off);
        plat_mem_write64(q->pd, &q->ring[i].cmd_sta, qw1(chunk, cmd));
        buffer_info_touch(q->pd, q->info, E1000_BUFFER_INFO_BYTES, i, 1);
        q->slot[i] = (struct e1000_tx_slot){
            .cookie = last ? cookie : NULL,
            .len = (uint16_t)chunk,
            .flags = E1000_TX_SLOT_USED |
                     (last ? E1000_TX_SLOT_EOP | (rs ? E1000_TX_SLOT_RS : 0) : 0),
        };
        off += chunk;
        left -= chunk;
        max = q->opts.max_desc_bytes;
        q->last_eop = i;
        i = (i + 1) % q->count;
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
        if (more)
            q->stats.tdt_forced++;
        tail_write(q);
    }
    return 0;
}

void e1000_tx_flush(struct e1000_txq *q)
{
    if (q->next_to_use == q->tail)
        return;
    struct e1000_tx_slot *s = &q->slot[q->last_eop];
    if (!(s->flags & E1000_TX_SLOT_RS)) {
        /* The newest packet is still ours (beyond TDT): add RS so that it,
         * and the packets before it, will be reported. */
        uint8_t cmd = E1000_TXD_CMD_IFCS | E1000_TXD_CMD_EOP | E1000_TXD_CMD_RS | q->ide_cmd;
        plat_mem_write64(q->pd, &q->ring[q->last_eop].cmd_sta, qw1(s->len, cmd));
        s->flags |= E1000_TX_SLOT_RS;
        rs_push(q, q->last_eop);
    }
    tail_write(q);
}

unsigned e1000_tx_clean(struct e1000_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg)
{
    unsigned cleaned = 0;
    while (q->rs_count) {
        uint32_t rs_idx = q->rs_fifo[q->rs_head];
        /* Only descriptors the NIC has been given can be done. */
        if (ring_dist(q, q->next_to_clean, rs_idx) >= ring_dist(q, q->next_to_clean, q->tail))
            break;
        uint64_t sta = plat_mem_read64(q->pd, &q->ring[rs_idx].cmd_sta);
        q->stats.dd_reads++;
        if (!(sta & E1000_TXD_QW1_DD))
            break;
        /* DD first, then whatever it vouches for. */
        plat_rmb(q->pd);
        /* The NIC processes descriptors in order: DD here means every
         * descriptor up to and including rs_idx is done. */
        for (;;) {
            uint32_t i = q->next_to_clean;
            struct e1000_tx_slot *s = &q->slot[i];
            /* e1000_unmap_and_free_tx_resource: read skb and dma, clear */
            buffer_info_touch(q->pd, q->info, E1000_BUFFER_INFO_BYTES, i, 1);
            if (s->flags & E1000_TX_SLOT_EOP) {
                if (done)
                    done(arg, s->cookie);
                cleaned++;
            }
            memset(s, 0, sizeof *s);
            q->next_to_clean = (i + 1) % q->count;
            q->used--;
            if (i == rs_idx)
                break;
        }
        q->rs_head = (q->rs_head + 1) % q->count;
        q->rs_count--;
    }
    q->stats.reclaimed += cleaned;
    return cleaned;
}

void e1000_txq_teardown(struct e1000_txq *q, void (*done)(void *arg, void *cookie),
                        void *arg)
{
    if (!q->slot)
        return;
    plat_write32(q->pd, E1000_TCTL, q->dev->tctl);
    while (q->used) {
        struct e1000_tx_slot *s = &q->slot[q->next_to_clean];
        if ((s->flags & E1000_TX_SLOT_EOP) && done)
            done(arg, s->cookie);
        q->next_to_clean = (q->next_to_clean + 1) % q->count;
        q->used--;
    }
    free(q->slot);
    free(q->rs_fifo);
    q->slot = NULL;
    q->rs_fifo = NULL;
    q->ring = NULL;
}
