#include "nic_adapter.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK_PS 256000ull   /* the RTL's timers count 256 ns ticks */

int nic_adapter_init(nic_adapter *a, sched *s, host_mem *mem, double core_mhz,
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
    for (int p = 0; p < NIC_RTL_PORTS; p++)
        a->frame[p] = malloc(NIC_FRAME_MAX);
    if (!a->rtl || !a->cq || !a->frame[0] || !a->frame[1])
        return -1;
    a->wr_collect = -1;
    for (int f = 0; f < NIC_RTL_PORTS; f++)
        a->fn_timer_wake[f] = PS_NEVER;
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

/* n bytes of host memory at addr into dst; all ones on a master abort. */
static void read_host(nic_adapter *a, uint64_t addr, uint8_t *dst, uint32_t n, int *abort_seen)
{
    if (host_mem_read(a->mem, addr, dst, n) != 0) {
        memset(dst, 0xFF, n);
        *abort_seen = 1;
    }
}

/* One piece of a DMA read (the bus cuts reads at 4 KiB pages and MMRBC).
 * Beats are packed continuously across the pieces of a (function, tag):
 * bytes that do not fill a beat wait for the next piece, and the piece with
 * `last` set flushes them, so only a request's final beat may be short. */
void nic_adapter_read_data(void *ctx, int func, uint32_t tag, uint64_t addr, uint32_t len,
                           int last, ps_t t)
{
    nic_adapter *a = ctx;
    uint8_t *part = a->rd_part[func][tag % NIC_TAGS];
    uint8_t *plen = &a->rd_part_len[func][tag % NIC_TAGS];
    unsigned before = a->cq_len;
    int aborted = 0;
    uint32_t off = 0;
    while (off < len) {
        uint32_t n = NIC_RTL_BEAT - *plen;
        if (n > len - off)
            n = len - off;
        if (*plen == 0 && n == NIC_RTL_BEAT) {
            /* a whole beat: straight from memory */
            read_host(a, addr + off, push_beat(a, func, tag)->data, n, &aborted);
        } else {
            read_host(a, addr + off, part + *plen, n, &aborted);
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
    if (aborted)
        a->st.master_aborts++;
    if (a->cq_len != before)
        nic_adapter_wake(a, t, func);
}

void nic_adapter_write_done(void *ctx, int func, uint32_t tag, ps_t t)
{
    nic_adapter *a = ctx;
    (void)func;
    (void)t;
    nic_dma_write *w = &a->wr[tag % NIC_WR_SLOTS];
    if (host_mem_write(a->mem, w->addr, w->data, w->len) != 0)
        a->st.master_aborts++;
    w->used = 0;
}

void nic_adapter_mmio_write(void *ctx, int func, uint32_t off, uint32_t val, ps_t t)
{
    nic_adapter *a = ctx;
    if (a->mq_len == NIC_MMIO_Q) {
        fprintf(stderr, "nicsim: MMIO queue overflow\n");
        abort();
    }
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

static void take_outputs(nic_adapter *a, ps_t t, uint8_t clocked)
{
    const nic_rtl_out *o = &a->out;
    if (o->mmio_rvalid && a->reads_in_rtl) {
        a->reads_in_rtl--;
        host_bus_mmio_read_reply(&a->bus, o->mmio_rdata, t);
    }
    if (o->req_valid) {
        if (o->req_write) {
            uint32_t id = a->wr_next++;
            nic_dma_write *w = &a->wr[id % NIC_WR_SLOTS];
            if (w->used || o->req_len > NIC_WR_MAX) {
                fprintf(stderr, "nicsim: DMA write slots exhausted\n");
                abort();
            }
            w->used = 1;
            w->func = o->req_func;
            w->addr = o->req_addr;
            w->len = o->req_len;
            w->got = 0;
            a->wr_collect = (int)(id % NIC_WR_SLOTS);
            a->st.dma_writes++;
            a->st.dma_write_bytes += o->req_len;
        } else {
            a->st.dma_reads++;
            a->st.dma_read_bytes += o->req_len;
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
            uint32_t id = a->wr_next - 1;
            host_bus_dma_write(&a->bus, w->func, id, w->addr, w->len, t);
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

    nic_rtl_cycle(a->rtl, in, &a->out);
    a->st.cycles++;
    take_outputs(a, t, in->func_en);

    int any = !a->out.idle || a->mq_len || a->cq_len || a->reads_in_rtl || a->wr_collect >= 0;
    for (int f = 0; f < NIC_RTL_PORTS; f++) {
        if ((a->out.irq >> f & 1) && !(irq_before >> f & 1))
            a->st.irq_asserts[f]++;
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
