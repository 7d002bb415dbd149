#include "nic_adapter.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK_PS 256000ull   /* the RTL's timers count 256 ns ticks */

int nic_adapter_init(nic_adapter *a, sched *s, nic_mem_port mem, double core_mhz,
                     const nic_rtl_straps *straps, link_wire *links[NIC_RTL_PORTS])
{
    memset(a, 0, sizeof *a);
    a->s = s;
    a->mem = mem;
    for (int p = 0; p < NIC_RTL_PORTS; p++)
        a->links[p] = links ? links[p] : NULL;
    a->period = (ps_t)llround(1e6 / core_mhz);
    a->rtl = nic_rtl_new(straps);
    a->cq = calloc(NIC_CPL_Q, sizeof *a->cq);
    for (int p = 0; p < NIC_RTL_PORTS; p++) {
        a->frame[p] = malloc(NIC_FRAME_MAX);
        /* (pages of the byte ring are touched only by received frames) */
        a->rx[p].q = malloc(NIC_RX_FRAMES * sizeof *a->rx[p].q);
        a->rx[p].bytes = malloc(NIC_RX_BYTES);
    }
    if (!a->rtl || !a->cq || !a->frame[0] || !a->frame[1] || !a->rx[0].q || !a->rx[1].q ||
        !a->rx[0].bytes || !a->rx[1].bytes)
        return -1;
    a->wr_collect = -1;
    for (int f = 0; f < NIC_RTL_PORTS; f++)
        a->fn_timer_wake[f] = PS_NEVER;
    nic_misuse_init(&a->misuse, straps->model == NIC_RTL_82599);
    nic_rtl_reset(a->rtl, &a->out);
    return 0;
}

void nic_adapter_fini(nic_adapter *a)
{
    nic_rtl_free(a->rtl);
    free(a->cq);
    a->rtl = NULL;
    a->cq = NULL;
    for (int p = 0; p < NIC_RTL_PORTS; p++) {
        free(a->frame[p]);
        a->frame[p] = NULL;
        free(a->rx[p].q);
        free(a->rx[p].bytes);
        a->rx[p].q = NULL;
        a->rx[p].bytes = NULL;
    }
}

void nic_adapter_wake(nic_adapter *a, ps_t t, int f)
{
    a->fn_active[f] = 1;
    if (a->active)
        return;
    if (t < a->s->now)
        t = a->s->now;
    /* edges fall on multiples of the period */
    ps_t e = (t + a->period - 1) / a->period * a->period;
    a->next_edge = e;
    a->active = 1;
    a->st.wakeups++;
}

/* Timer wake-ups fall on multiples of TICK_PS (even), so the function
 * number rides in the low bit of the event argument. */
static void timer_wake_ev(void *ctx, uint64_t arg)
{
    nic_adapter *a = ctx;
    int f = (int)(arg & 1);
    ps_t when = arg & ~1ull;
    if (a->fn_timer_wake[f] == when)
        a->fn_timer_wake[f] = PS_NEVER;
    nic_adapter_wake(a, when, f);
}

/* The link's staging slot has freed: the port's MAC may start a frame. */
static void link_ready_ev(void *ctx, uint64_t arg)
{
    nic_adapter *a = ctx;
    nic_adapter_wake(a, a->s->now, (int)arg);
}

/* A received frame is due on port arg: make sure the port is clocked. */
static void rx_wake_ev(void *ctx, uint64_t arg)
{
    nic_adapter *a = ctx;
    nic_adapter_wake(a, a->s->now, (int)arg);
}

void nic_adapter_rx_frame(nic_adapter *a, int port, ps_t t, const uint8_t *frame, uint32_t len, int crc_ok)
{
    if (port < 0 || port >= NIC_RTL_PORTS)
        return;
    nic_rx_port *r = &a->rx[port];
    if (len == 0 || len > NIC_RX_FRAME_MAX || r->len == NIC_RX_FRAMES || len > NIC_RX_BYTES - r->b_len) {
        a->st.rx_dropped[port]++;
        return;
    }
    if (t < a->s->now)
        t = a->s->now;
    /* arrival order: never before the frame queued ahead of it */
    if (r->len) {
        ps_t prev = r->q[(r->head + r->len - 1) % NIC_RX_FRAMES].t;
        if (t < prev)
            t = prev;
    }
    uint32_t at = (r->b_head + r->b_len) % NIC_RX_BYTES;
    uint32_t n1 = len < NIC_RX_BYTES - at ? len : NIC_RX_BYTES - at;
    memcpy(r->bytes + at, frame, n1);
    memcpy(r->bytes, frame + n1, len - n1);
    r->b_len += len;
    nic_rx_frame *f = &r->q[(r->head + r->len++) % NIC_RX_FRAMES];
    a->rx_queued++;
    f->t = t;
    f->len = len;
    f->crc_ok = crc_ok != 0;
    if (t <= a->s->now)
        nic_adapter_wake(a, t, port);
    else
        sched_at(a->s, t, rx_wake_ev, a, (uint64_t)port);
}

/* The next beat of port p's head frame into the RTL's inputs, if the frame
 * is due at the edge at time t; returns 1 when a beat was given. */
static int rx_beat(nic_adapter *a, int p, ps_t t)
{
    nic_rx_port *r = &a->rx[p];
    if (!r->len)
        return 0;
    nic_rx_frame *f = &r->q[r->head];
    if (r->sent == 0 && f->t > t)
        return 0;
    nic_rtl_in *in = &a->in;
    uint32_t n = f->len - r->sent < NIC_RTL_BEAT ? f->len - r->sent : NIC_RTL_BEAT;
    uint32_t at = (r->b_head + r->sent) % NIC_RX_BYTES;
    uint32_t n1 = n < NIC_RX_BYTES - at ? n : NIC_RX_BYTES - at;
    memcpy(in->mac_rx_data[p], r->bytes + at, n1);
    memcpy(in->mac_rx_data[p] + n1, r->bytes, n - n1);
    if (n < NIC_RTL_BEAT)   /* a short last beat: zeros past its bytes */
        memset(in->mac_rx_data[p] + n, 0, NIC_RTL_BEAT - n);
    in->mac_rx_nbytes[p] = (uint8_t)n;
    in->mac_rx_valid |= (uint8_t)(1u << p);
    r->sent += n;
    if (r->sent == f->len) {
        in->mac_rx_last |= (uint8_t)(1u << p);
        if (f->crc_ok)
            in->mac_rx_crc_ok |= (uint8_t)(1u << p);
        r->b_head = (r->b_head + f->len) % NIC_RX_BYTES;
        r->b_len -= f->len;
        r->head = (r->head + 1) % NIC_RX_FRAMES;
        r->len--;
        a->rx_queued--;
        r->sent = 0;
        a->st.rx_frames[p]++;
    }
    return 1;
}

/* Port p has a frame in delivery or one due by the edge at time t. */
static int rx_due(const nic_adapter *a, int p, ps_t t)
{
    const nic_rx_port *r = &a->rx[p];
    return r->len && (r->sent || r->q[r->head].t <= t);
}

/* Queue one 32-byte completion beat for the RTL; the caller fills its data. */
static nic_cpl_beat *push_beat(nic_adapter *a, int func, uint32_t tag)
{
    if (a->cq_len == NIC_CPL_Q) {
        fprintf(stderr, "nicsim: completion queue overflow\n");
        abort();
    }
    nic_cpl_beat *b = &a->cq[(a->cq_head + a->cq_len++) % NIC_CPL_Q];
    b->func = (uint8_t)func;
    b->tag = (uint8_t)tag;
    a->fn_inputs[func]++;
    return b;
}

/* One piece of a DMA read (the bus cuts reads at 4 KiB pages and MMRBC),
 * read from memory as one transaction (all ones on a master abort).  Beats
 * are packed continuously across the pieces of a (function, tag): bytes
 * that do not fill a beat wait for the next piece, and the piece with
 * `last` set flushes them, so only a request's final beat may be short. */
void nic_adapter_read_data(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len,
                           int last, ps_t t)
{
    nic_adapter *a = ctx;
    uint8_t *part = a->rd_part[func][tag % NIC_TAGS];
    uint8_t *plen = &a->rd_part_len[func][tag % NIC_TAGS];
    unsigned before = a->cq_len;
    uint8_t piece[NIC_RD_PIECE_MAX];
    if (len > sizeof piece) {
        fprintf(stderr, "nicsim: DMA read piece of %u bytes (at most %zu)\n", len, sizeof piece);
        abort();
    }
    if (a->mem.read(a->mem.ctx, addr, piece, len, t) != 0) {
        memset(piece, 0xFF, len);
        a->st.master_aborts++;
    }
    uint32_t off = 0;
    while (off < len) {
        uint32_t n = NIC_RTL_BEAT - *plen;
        if (n > len - off)
            n = len - off;
        if (*plen == 0 && n == NIC_RTL_BEAT) {
            memcpy(push_beat(a, func, tag)->data, piece + off, n);
        } else {
            memcpy(part + *plen, piece + off, n);
            *plen = (uint8_t)(*plen + n);
            if (*plen == NIC_RTL_BEAT) {
                memcpy(push_beat(a, func, tag)->data, part, NIC_RTL_BEAT);
                *plen = 0;
            }
        }
        off += n;
    }
    if (last && *plen) {
        /* the request's final, short beat: zeros past its bytes */
        memset(part + *plen, 0, NIC_RTL_BEAT - *plen);
        memcpy(push_beat(a, func, tag)->data, part, NIC_RTL_BEAT);
        *plen = 0;
    }
    if (last && tag == NIC_TAG_TX_DESC && a->txd_inflight[func]) {
        a->st.txd_fetch_ps[func] += t - a->txd_issue[func][0];
        a->txd_inflight[func]--;
        memmove(a->txd_issue[func], a->txd_issue[func] + 1, a->txd_inflight[func] * sizeof(ps_t));
    }
    if (a->cq_len != before)
        nic_adapter_wake(a, t, func);
}

void nic_adapter_write_done(void *ctx, int func, uint32_t tag, ps_t t)
{
    nic_adapter *a = ctx;
    (void)func;
    nic_dma_write *w = &a->wr[tag];     /* the tag is the slot */
    if (a->mem.write(a->mem.ctx, w->addr, w->data, w->len, t) != 0)
        a->st.master_aborts++;
    w->used = 0;
    a->wr_used--;
}

void nic_adapter_mmio_write(void *ctx, int func, uint32_t off, uint32_t val, ps_t t)
{
    nic_adapter *a = ctx;
    if (a->mq_len == NIC_MMIO_Q) {
        fprintf(stderr, "nicsim: MMIO queue overflow\n");
        abort();
    }
    nic_faults_mmio(&a->faults, func, off, val);
    nic_misuse_mmio(&a->misuse, func, off, val, !a->out.idle || a->wr_collect >= 0);
    nic_mmio_op *op = &a->mq[(a->mq_head + a->mq_len++) % NIC_MMIO_Q];
    op->write = 1;
    op->func = (uint8_t)func;
    op->off = off;
    op->val = val;
    a->fn_inputs[func]++;
    nic_adapter_wake(a, t, func);
}

void nic_adapter_mmio_read(void *ctx, int func, uint32_t off, ps_t t)
{
    nic_adapter *a = ctx;
    if (a->mq_len == NIC_MMIO_Q) {
        fprintf(stderr, "nicsim: MMIO queue overflow\n");
        abort();
    }
    nic_mmio_op *op = &a->mq[(a->mq_head + a->mq_len++) % NIC_MMIO_Q];
    op->write = 0;
    op->func = (uint8_t)func;
    op->off = off;
    op->val = 0;
    a->fn_inputs[func]++;
    nic_adapter_wake(a, t, func);
}

/* An access the RTL says no implemented register answers to. */
static void count_unmodelled(nic_adapter *a, const nic_rtl_out *o)
{
    a->st.unmodelled++;
    for (int i = 0; i < a->n_unmodelled; i++) {
        nic_unmodelled *u = &a->unmodelled[i];
        if (u->off == o->unmodelled_off && u->func == o->unmodelled_func && u->write == o->unmodelled_write) {
            u->count++;
            return;
        }
    }
    if (a->n_unmodelled < NIC_UNMODELLED_MAX)
        a->unmodelled[a->n_unmodelled++] = (nic_unmodelled){ o->unmodelled_func, o->unmodelled_write,
                                                             o->unmodelled_off, 1 };
}

static void take_outputs(nic_adapter *a, ps_t t, uint8_t clocked)
{
    const nic_rtl_out *o = &a->out;
    if (o->unmodelled)
        count_unmodelled(a, o);
    if (o->mmio_rvalid && a->reads_in_rtl) {
        a->reads_in_rtl--;
        host_bus_mmio_read_reply(&a->bus, o->mmio_rdata, t);
    }
    if (o->req_valid) {
        if (o->req_write) {
            /* the next slot in turn, or (the two functions' writes finish
             * out of order on the bus) the first free one after it;
             * dma_wfull keeps the RTL from asking for more than there are */
            unsigned slot = a->wr_next++ % NIC_WR_SLOTS;
            for (unsigned k = 0; k < NIC_WR_SLOTS && a->wr[slot].used; k++)
                slot = (slot + 1) % NIC_WR_SLOTS;
            nic_dma_write *w = &a->wr[slot];
            if (w->used || o->req_len > NIC_WR_MAX) {
                fprintf(stderr, "nicsim: internal error: DMA write of %u bytes with %u of %d slots in use\n",
                        o->req_len, a->wr_used, NIC_WR_SLOTS);
                abort();
            }
            w->used = 1;
            a->wr_used++;
            w->func = o->req_func;
            w->addr = o->req_addr;
            w->len = o->req_len;
            w->got = 0;
            a->wr_collect = (int)slot;
            a->st.dma_writes++;
            a->st.dma_write_bytes += o->req_len;
        } else {
            a->st.dma_reads++;
            a->st.dma_read_bytes += o->req_len;
            if (o->req_tag == NIC_TAG_TX_DESC && a->txd_inflight[o->req_func] < NIC_TXD_INFLIGHT) {
                a->txd_issue[o->req_func][a->txd_inflight[o->req_func]++] = t;
                a->st.txd_fetches[o->req_func]++;
                a->st.txd_descs[o->req_func] += o->req_len / 16u;
            }
            host_bus_dma_read(&a->bus, o->req_func, o->req_tag, o->req_addr, o->req_len, t);
        }
    }
    if (o->wvalid && a->wr_collect >= 0) {
        nic_dma_write *w = &a->wr[a->wr_collect];
        uint32_t n = w->len - w->got < NIC_RTL_BEAT ? w->len - w->got : NIC_RTL_BEAT;
        memcpy(w->data + w->got, o->wdata, n);
        w->got += n;
        if (w->got >= w->len) {
            /* all data is here: the write can go on the bus */
            nic_faults_dma_write(&a->faults, w->func, w->addr, w->data, w->len, &a->mem, t);
            host_bus_dma_write(&a->bus, w->func, (uint32_t)a->wr_collect, w->addr, w->len, t);
            a->wr_collect = -1;
        }
    }
    for (int p = 0; p < NIC_RTL_PORTS; p++) {
        /* a gated function's registered outputs are stale: read them only
         * on edges where it was clocked */
        if (!(clocked >> p & 1) || !o->tx_valid[p])
            continue;
        uint32_t n = o->tx_nbytes[p];
        /* the buffer holds the longest frame the RTL can emit (16-bit
         * length); a frame never outgrows it */
        if (a->frame_len[p] + n > NIC_FRAME_MAX) {
            fprintf(stderr, "nicsim: port %d sent a frame longer than %d bytes\n", p, NIC_FRAME_MAX);
            abort();
        }
        memcpy(a->frame[p] + a->frame_len[p], o->tx_data[p], n);
        a->frame_len[p] += n;
        if (o->tx_last[p]) {
            if (a->links[p]) {
                ps_t slot_free = link_wire_frame(a->links[p], t, a->frame[p], a->frame_len[p],
                                                 o->tx_fcs[p], o->tx_ipg[p]);
                if (slot_free > t)
                    sched_at(a->s, slot_free, link_ready_ev, a, (uint64_t)p);
            }
            a->frame_len[p] = 0;
        }
    }
}

void nic_adapter_edge(nic_adapter *a)
{
    ps_t t = a->next_edge;
    if (t > a->s->now)
        a->s->now = t;
    nic_rtl_in *in = &a->in;
    uint8_t irq_before = a->out.irq;

    in->func_en = 0;
    for (int f = 0; f < NIC_RTL_PORTS; f++)
        if (a->fn_active[f])
            in->func_en |= (uint8_t)(1u << f);
    a->fn_hold = 0;

    in->mmio_valid = 0;
    if (a->mq_len) {
        nic_mmio_op *op = &a->mq[a->mq_head];
        a->mq_head = (a->mq_head + 1) % NIC_MMIO_Q;
        a->mq_len--;
        a->fn_inputs[op->func]--;
        a->fn_hold |= (uint8_t)(1u << op->func);
        in->mmio_valid = 1;
        in->mmio_write = op->write;
        in->mmio_func = op->func;
        in->mmio_addr = op->off;
        in->mmio_wdata = op->val;
        if (!op->write)
            a->reads_in_rtl++;
    }
    in->cpl_valid = 0;
    if (a->cq_len) {
        nic_cpl_beat *b = &a->cq[a->cq_head];
        a->cq_head = (a->cq_head + 1) % NIC_CPL_Q;
        a->cq_len--;
        a->fn_inputs[b->func]--;
        a->fn_hold |= (uint8_t)(1u << b->func);
        in->cpl_valid = 1;
        in->cpl_func = b->func;
        in->cpl_tag = b->tag;
        memcpy(in->cpl_data, b->data, NIC_RTL_BEAT);
    }
    in->mac_tx_ready = 0;
    for (int p = 0; p < NIC_RTL_PORTS; p++)
        if (!a->links[p] || link_wire_ready(a->links[p], t))
            in->mac_tx_ready |= (uint8_t)(1u << p);
    /* received frames: one beat per port per edge, a frame's beats on
     * consecutive edges */
    in->mac_rx_valid = in->mac_rx_last = in->mac_rx_crc_ok = 0;
    if (a->rx_queued)
        for (int p = 0; p < NIC_RTL_PORTS; p++)
            if (rx_beat(a, p, t))
                a->fn_hold |= (uint8_t)(1u << p);
    uint64_t ticks = t / TICK_PS;
    for (int f = 0; f < NIC_RTL_PORTS; f++) {
        in->func_tick[f] = 0;
        if (!(in->func_en >> f & 1))
            continue;
        a->st.fn_cycles[f]++;
        uint64_t dt = ticks - a->fn_ticks[f];
        /* saturating: no timer is as long as NIC_RTL_TICK_MAX ticks */
        in->func_tick[f] = (uint32_t)(dt > NIC_RTL_TICK_MAX ? NIC_RTL_TICK_MAX : dt);
        a->fn_ticks[f] = ticks;
    }

    /* the bus's queue of posted writes has no room: the RTL holds its
     * next write request (as a real device waits for flow-control credit) */
    in->dma_wfull = a->wr_used >= NIC_WR_SLOTS;
    a->st.wfull_cycles += in->dma_wfull;
    nic_rtl_cycle(a->rtl, in, &a->out);
    a->st.cycles++;
    take_outputs(a, t, in->func_en);

    int any = !a->out.idle || a->mq_len || a->cq_len || a->reads_in_rtl || a->wr_collect >= 0;
    for (int p = 0; a->rx_queued && p < NIC_RTL_PORTS; p++)
        if (rx_due(a, p, t + a->period)) {
            /* the next beat goes in at the next edge (its port is clocked
             * at the edge after, by fn_hold) */
            any = 1;
        }
    int irq_moved = a->out.irq != irq_before;   /* rarely: tested once */
    for (int f = 0; f < NIC_RTL_PORTS; f++) {
        int level = a->out.irq >> f & 1;
        if (irq_moved && level != (irq_before >> f & 1)) {
            if (level)
                a->st.irq_asserts[f]++;
            if (a->irq_changed)
                a->irq_changed(a->irq_ctx, f, level, t);
        }
        if (!(in->func_en >> f & 1))
            continue;
        if (!(a->out.func_idle >> f & 1) || a->fn_inputs[f] || (a->fn_hold >> f & 1)) {
            any = 1;
            continue;
        }
        a->fn_active[f] = 0;
        uint32_t nt = a->out.next_timer[f];
        if (nt != NIC_RTL_NO_TIMER) {
            ps_t when = (a->fn_ticks[f] + nt) * TICK_PS;
            if (a->fn_timer_wake[f] == PS_NEVER || when < a->fn_timer_wake[f] || a->fn_timer_wake[f] <= t) {
                a->fn_timer_wake[f] = when;
                sched_at(a->s, when, timer_wake_ev, a, when | (uint64_t)f);
            }
        }
    }
    if (any)
        a->next_edge = t + a->period;
    else
        a->active = 0;
}
