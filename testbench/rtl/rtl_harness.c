#include "rtl_harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rtl_harness *rh_new(void)
{
    nic_rtl_straps s = { .link_up = 3, .pcix_mode = 1, .pcix_speed = 2, .bus64 = 1, .pci66 = 1 };
    return rh_new_straps(&s);
}

rtl_harness *rh_new_straps(const nic_rtl_straps *s)
{
    rtl_harness *h = calloc(1, sizeof *h);
    if (!h)
        abort();
    h->n = nic_rtl_new(s);
    if (!h->n)
        abort();
    h->mem = host_mem_new(0x10000000ull);
    h->read_latency = 20;
    h->tick_period = 32;
    h->mac_ready = 3;
    h->fn_active = 3;
    h->fn_wake[0] = h->fn_wake[1] = UINT64_MAX;
    nic_rtl_reset(h->n, &h->out);
    return h;
}

void rh_free(rtl_harness *h)
{
    nic_rtl_free(h->n);
    host_mem_free(h->mem);
    for (int p = 0; p < NIC_RTL_PORTS; p++) {
        free(h->frames[p]);
        for (size_t i = h->rx_head[p]; i < h->rx_n[p]; i++)
            free(h->rx[p][i].data);
        free(h->rx[p]);
    }
    free(h->wlog);
    free(h);
}

/* The RTL broke the interface's contract: abort, or (soft) note the first
 * breach in h->error and carry on, so that a checker can report it. */
static void breach(rtl_harness *h, const char *what)
{
    if (!h->soft) {
        fprintf(stderr, "rtl_harness: %s\n", what);
        abort();
    }
    if (!h->error[0]) {
        snprintf(h->error, sizeof h->error, "cycle %llu: %s", (unsigned long long)h->cycle, what);
        h->error_cycle = h->cycle;
    }
}

static void take_outputs(rtl_harness *h, uint8_t clocked)
{
    nic_rtl_out *o = &h->out;
    if (o->req_valid && o->req_len == 0)
        breach(h, "a DMA request of length 0");
    if (o->req_valid) {
        if (o->req_write) {
            if (h->wr_open)
                breach(h, "a DMA write request while another write is collecting");
            if (h->nwlog == h->wlog_cap) {
                h->wlog_cap = h->wlog_cap ? 2 * h->wlog_cap : 256;
                h->wlog = realloc(h->wlog, h->wlog_cap * sizeof *h->wlog);
                if (!h->wlog)
                    abort();
            }
            h->wlog[h->nwlog++] = (rh_wr){ h->cycle, 0, o->req_func, o->req_addr, o->req_len };
            h->wr_open = 1;
            h->wr_func = o->req_func;
            h->wr_addr = o->req_addr;
            h->wr_len = o->req_len;
            h->wr_got = 0;
        } else {
            /* pieces: the whole read, or cut at every 4 KiB boundary */
            uint32_t off = 0;
            while (off < o->req_len) {
                uint32_t n = o->req_len - off;
                uint64_t a = o->req_addr + off;
                if (h->split_pages && (a & 4095u) + n > 4096u)
                    n = 4096u - (uint32_t)(a & 4095u);
                if (h->nreads == sizeof h->reads / sizeof h->reads[0]) {
                    breach(h, "too many DMA read pieces outstanding");
                    break;
                }
                rh_read *r = &h->reads[h->nreads++];
                r->due = h->cycle + h->read_latency;
                r->func = o->req_func;
                r->tag = o->req_tag;
                r->addr = a;
                r->len = n;
                off += n;
                r->last = off >= o->req_len;
                h->read_pieces++;
                if (off < o->req_len && off % NIC_RTL_BEAT)
                    h->odd_splits++;
            }
            h->dma_reads++;
            h->dma_read_bytes += o->req_len;
        }
    }
    if (o->wvalid) {
        if (!h->wr_open || h->wr_got >= h->wr_len || h->wr_len > sizeof h->wr_buf) {
            breach(h, "a DMA write beat without a write to carry it");
            return;
        }
        uint32_t n = h->wr_len - h->wr_got < NIC_RTL_BEAT ? h->wr_len - h->wr_got : NIC_RTL_BEAT;
        memcpy(h->wr_buf + h->wr_got, o->wdata, n);
        h->wr_got += n;
        if (h->wr_got == h->wr_len) {
            if (host_mem_write(h->mem, h->wr_addr, h->wr_buf, h->wr_len) != 0)
                h->faults++;
            h->wlog[h->nwlog - 1].done = h->cycle;
            h->dma_writes++;
            h->wr_open = 0;
        }
    }
    for (int p = 0; p < NIC_RTL_PORTS; p++) {
        /* a gated function's registered outputs are stale */
        if (!(clocked >> p & 1) || !o->tx_valid[p])
            continue;
        rh_frame *f = &h->cur[p];
        if (f->len + o->tx_nbytes[p] <= sizeof f->data)
            memcpy(f->data + f->len, o->tx_data[p], o->tx_nbytes[p]);
        f->len += o->tx_nbytes[p];
        if (o->tx_last[p]) {
            f->fcs = o->tx_fcs[p];
            f->ipg = o->tx_ipg[p];
            f->cycle = h->cycle;
            if (h->nframes[p] == h->frames_cap[p]) {
                h->frames_cap[p] = h->frames_cap[p] ? 2 * h->frames_cap[p] : 16;
                h->frames[p] = realloc(h->frames[p], h->frames_cap[p] * sizeof(rh_frame));
                if (!h->frames[p])
                    abort();
            }
            h->frames[p][h->nframes[p]++] = *f;
            memset(f, 0, sizeof *f);
        }
    }
    for (int p = 0; p < NIC_RTL_PORTS; p++)
        if ((o->irq >> p & 1) && !(h->irq_prev >> p & 1)) {
            h->irq_rises[p]++;
            h->irq_rise_cycle[p] = h->cycle;
        }
    h->irq_prev = o->irq;
}

/* Pack due read pieces into the next completion beat, as the adapter does:
 * bytes of a (function, tag) accumulate across its pieces until they fill a
 * beat, and the piece marked last flushes a short final beat.  Returns 1 with
 * the beat in h->in when one is ready this cycle. */
static int next_beat(rtl_harness *h)
{
    while (h->nreads && h->reads[0].due <= h->cycle) {
        rh_read *r = &h->reads[0];
        uint8_t *part = h->part[r->func][r->tag % 32];
        uint8_t *plen = &h->part_len[r->func][r->tag % 32];
        uint32_t n = NIC_RTL_BEAT - *plen;
        if (n > r->len - h->cur_off)
            n = r->len - h->cur_off;
        if (host_mem_read(h->mem, r->addr + h->cur_off, part + *plen, n) != 0)
            h->faults++;   /* master abort: the data is all ones on real buses; zeros here */
        *plen = (uint8_t)(*plen + n);
        h->cur_off += n;
        uint8_t func = r->func, tag = r->tag;
        int flush = h->cur_off >= r->len && r->last;
        if (h->cur_off >= r->len) {
            memmove(&h->reads[0], &h->reads[1], (h->nreads - 1) * sizeof h->reads[0]);
            h->nreads--;
            h->cur_off = 0;
        }
        if (*plen == NIC_RTL_BEAT || (flush && *plen)) {
            memset(h->in.cpl_data, 0, sizeof h->in.cpl_data);
            memcpy(h->in.cpl_data, part, *plen);
            h->in.cpl_func = func;
            h->in.cpl_tag = tag;
            *plen = 0;
            return 1;
        }
    }
    return 0;
}

/* The next beat of each port's received frame, when one is due. */
static void rx_beats(rtl_harness *h)
{
    h->in.mac_rx_valid = h->in.mac_rx_last = h->in.mac_rx_crc_ok = 0;
    for (int p = 0; p < NIC_RTL_PORTS; p++) {
        if (h->rx_head[p] == h->rx_n[p])
            continue;
        rh_rx *f = &h->rx[p][h->rx_head[p]];
        if (h->rx_off[p] == 0 && f->at > h->cycle)
            continue;
        uint32_t n = f->len - h->rx_off[p] < NIC_RTL_BEAT ? f->len - h->rx_off[p] : NIC_RTL_BEAT;
        memset(h->in.mac_rx_data[p], 0, NIC_RTL_BEAT);
        memcpy(h->in.mac_rx_data[p], f->data + h->rx_off[p], n);
        h->in.mac_rx_nbytes[p] = (uint8_t)n;
        h->in.mac_rx_valid |= (uint8_t)(1u << p);
        h->rx_off[p] += n;
        if (h->rx_off[p] == f->len) {
            h->in.mac_rx_last |= (uint8_t)(1u << p);
            if (f->crc_ok)
                h->in.mac_rx_crc_ok |= (uint8_t)(1u << p);
            free(f->data);
            f->data = NULL;
            h->rx_head[p]++;
            h->rx_off[p] = 0;
            h->rx_frames[p]++;
        }
    }
}

void rh_rx_frame_at(rtl_harness *h, int port, uint64_t at, const uint8_t *data, uint32_t len, int crc_ok)
{
    if (len == 0)
        abort();
    if (h->rx_n[port] == h->rx_cap[port]) {
        /* drop the delivered ones first */
        size_t k = h->rx_head[port];
        if (k)
            memmove(h->rx[port], h->rx[port] + k, (h->rx_n[port] - k) * sizeof(rh_rx));
        h->rx_n[port] -= k;
        h->rx_head[port] = 0;
        if (h->rx_n[port] == h->rx_cap[port]) {
            h->rx_cap[port] = h->rx_cap[port] ? 2 * h->rx_cap[port] : 64;
            h->rx[port] = realloc(h->rx[port], h->rx_cap[port] * sizeof(rh_rx));
            if (!h->rx[port])
                abort();
        }
    }
    rh_rx *f = &h->rx[port][h->rx_n[port]++];
    f->at = at;
    f->len = len;
    f->crc_ok = crc_ok != 0;
    f->data = malloc(len);
    if (!f->data)
        abort();
    memcpy(f->data, data, len);
}

void rh_rx_frame(rtl_harness *h, int port, const uint8_t *data, uint32_t len, int crc_ok)
{
    rh_rx_frame_at(h, port, 0, data, len, crc_ok);
}

size_t rh_rx_pending(const rtl_harness *h, int port)
{
    return h->rx_n[port] - h->rx_head[port];
}

void rh_step(rtl_harness *h)
{
    /* one completion beat per cycle from the oldest due read */
    h->in.cpl_valid = (uint8_t)next_beat(h);
    rx_beats(h);
    h->in.mac_tx_ready = h->mac_ready;
    /* 8 ns cycles: one 256 ns tick every 32 */
    uint64_t tk = h->tick_extra;
    if (h->tick_period && h->cycle % h->tick_period == h->tick_period - 1)
        tk++;
    if (tk > NIC_RTL_TICK_MAX)
        tk = NIC_RTL_TICK_MAX;
    h->ticks += tk;
    h->tick_extra = 0;
    if (!h->gated) {
        /* every function clocked every cycle */
        h->in.func_en = 3;
        h->in.func_tick[0] = h->in.func_tick[1] = (uint32_t)tk;
    } else {
        h->in.func_en = 0;
        for (int f = 0; f < NIC_RTL_PORTS; f++) {
            if (h->ticks >= h->fn_wake[f]) {
                h->fn_active |= (uint8_t)(1u << f);
                h->fn_wake[f] = UINT64_MAX;
            }
            h->in.func_tick[f] = 0;
            if (!(h->fn_active >> f & 1))
                continue;
            h->in.func_en |= (uint8_t)(1u << f);
            uint64_t dt = h->ticks - h->fn_ticks[f];
            h->in.func_tick[f] = (uint32_t)(dt > NIC_RTL_TICK_MAX ? NIC_RTL_TICK_MAX : dt);
            h->fn_ticks[f] = h->ticks;
        }
    }
    for (int f = 0; f < NIC_RTL_PORTS; f++)
        if (h->in.func_en >> f & 1)
            h->fn_edges[f]++;
    nic_rtl_cycle(h->n, &h->in, &h->out);
    if (h->out.unmodelled) {
        h->unmodelled++;
        h->um_func = h->out.unmodelled_func;
        h->um_write = h->out.unmodelled_write;
        h->um_off = h->out.unmodelled_off;
    }
    /* inputs that entered the input flops at this edge: their function must
     * be clocked at the next one */
    uint8_t hold = h->in.mac_rx_valid;
    if (h->in.mmio_valid)
        hold |= (uint8_t)(1u << (h->in.mmio_func & 1));
    if (h->in.cpl_valid)
        hold |= (uint8_t)(1u << (h->in.cpl_func & 1));
    if (h->gated) {
        for (int f = 0; f < NIC_RTL_PORTS; f++) {
            if (hold >> f & 1) {
                h->fn_active |= (uint8_t)(1u << f);
            } else if ((h->in.func_en >> f & 1) && (h->out.func_idle >> f & 1)) {
                h->fn_active &= (uint8_t)~(1u << f);
                if (h->out.next_timer[f] != NIC_RTL_NO_TIMER)
                    h->fn_wake[f] = h->fn_ticks[f] + h->out.next_timer[f];
            }
        }
    }
    h->in.mmio_valid = 0;
    h->cycle++;
    take_outputs(h, h->in.func_en);
}

void rh_steps(rtl_harness *h, unsigned n)
{
    while (n--)
        rh_step(h);
}

void rh_advance_ticks(rtl_harness *h, uint32_t n)
{
    h->tick_extra = n;
    rh_step(h);
}

void rh_write(rtl_harness *h, int func, uint32_t off, uint32_t val)
{
    h->in.mmio_valid = 1;
    h->in.mmio_write = 1;
    h->in.mmio_func = func;
    h->in.mmio_addr = off;
    h->in.mmio_wdata = val;
    rh_step(h);
}

uint32_t rh_read32(rtl_harness *h, int func, uint32_t off)
{
    h->in.mmio_valid = 1;
    h->in.mmio_write = 0;
    h->in.mmio_func = func;
    h->in.mmio_addr = off;
    for (int i = 0; i < 16; i++) {
        rh_step(h);
        if (h->out.mmio_rvalid)
            return h->out.mmio_rdata;
    }
    char what[64];
    snprintf(what, sizeof what, "an MMIO read of 0x%x was never answered", off);
    breach(h, what);
    return 0xFFFFFFFFu;
}

long rh_run_idle(rtl_harness *h, long max_cycles)
{
    long n = 0;
    int quiet = 0;
    while (n < max_cycles) {
        rh_step(h);
        n++;
        if (h->out.idle && h->out.func_idle == 3 && !h->nreads && !h->wr_open &&
            !rh_rx_pending(h, 0) && !rh_rx_pending(h, 1) && !h->in.mac_rx_valid) {
            if (++quiet >= 4)
                return n;
        } else {
            quiet = 0;
        }
    }
    return -1;
}

uint8_t *rh_tx_ring(rtl_harness *h, int func, unsigned n, uint64_t *bus)
{
    (void)func;
    return host_mem_alloc(h->mem, (size_t)n * 16, 128, bus);
}

void rh_tx_desc(uint8_t *ring, unsigned i, uint64_t addr, uint16_t len, uint8_t cmd)
{
    uint8_t *d = ring + 16 * (size_t)i;
    memset(d, 0, 16);
    memcpy(d, &addr, 8);
    memcpy(d + 8, &len, 2);
    d[11] = cmd;
}

uint8_t rh_tx_status(const uint8_t *ring, unsigned i)
{
    return ring[16 * (size_t)i + 12];
}
