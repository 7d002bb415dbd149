// The thin C++ layer around rtl/nic82599.v Verilated alone: C ABI in
// nic82599_shim.h.
#include "nic82599_shim.h"
#include "Vnic82599.h"
#include "verilated.h"
#include <cstring>
#include <new>

struct n99_model {
    VerilatedContext ctx;
    Vnic82599 *top;
};

double sc_time_stamp() { return 0; }

extern "C" n99_model *n99_new(const n99_straps *s)
{
    n99_model *m = new (std::nothrow) n99_model;
    if (!m)
        return nullptr;
    m->top = new Vnic82599(&m->ctx);
    Vnic82599 *t = m->top;
    t->link_up = s->link_up & 3;
    // wide signals are little-endian arrays of 32-bit words: bit 0 first
    uint64_t a0 = s->mac[0] & 0xFFFFFFFFFFFFull, a1 = s->mac[1] & 0xFFFFFFFFFFFFull;
    t->mac_addr[0] = (uint32_t)a0;
    t->mac_addr[1] = (uint32_t)(a0 >> 32) | (uint32_t)(a1 << 16);
    t->mac_addr[2] = (uint32_t)(a1 >> 16);
    t->clk = 0;
    t->func_clk = 0;
    t->rst_n = 0;
    t->eval();
    return m;
}

extern "C" void n99_free(n99_model *m)
{
    if (!m)
        return;
    m->top->final();
    delete m->top;
    delete m;
}

extern "C" void n99_peek(n99_model *m, n99_out *o)
{
    const Vnic82599 *t = m->top;
    o->mmio_rvalid = t->mmio_rvalid;
    o->mmio_rdata = t->mmio_rdata;
    o->req_valid = t->dma_req_valid;
    o->req_write = t->dma_req_write;
    o->req_func = t->dma_req_func;
    o->req_tag = t->dma_req_tag;
    o->req_addr = t->dma_req_addr;
    o->req_len = t->dma_req_len;
    o->wvalid = t->dma_wvalid;
    memcpy(o->wdata, t->dma_wdata.data(), N99_BEAT);
    for (int p = 0; p < N99_PORTS; p++) {
        o->tx_valid[p] = (t->mac_tx_valid >> p) & 1;
        o->tx_nbytes[p] = (t->mac_tx_nbytes >> (6 * p)) & 0x3F;
        o->tx_last[p] = (t->mac_tx_last >> p) & 1;
        o->tx_fcs[p] = (t->mac_tx_fcs >> p) & 1;
        o->tx_ipg[p] = (t->mac_tx_ipg >> (11 * p)) & 0x7FF;
        memcpy(o->tx_data[p], t->mac_tx_data.data() + 8 * p, N99_BEAT);
        o->next_timer[p] = (uint32_t)(t->func_next_timer >> (18 * p)) & 0x3FFFF;
    }
    o->irq = t->irq;
    o->func_idle = t->func_idle;
    o->idle = t->idle;
}

extern "C" void n99_cycle(n99_model *m, const n99_in *in, n99_out *o)
{
    Vnic82599 *t = m->top;
    t->rst_n = in->rst_n & 1;
    uint64_t tk0 = in->func_tick[0] < 0x3FFFF ? in->func_tick[0] : 0x3FFFF;
    uint64_t tk1 = in->func_tick[1] < 0x3FFFF ? in->func_tick[1] : 0x3FFFF;
    t->func_tick = tk0 | (tk1 << 18);
    t->mmio_valid = in->mmio_valid & 1;
    t->mmio_write = in->mmio_write & 1;
    t->mmio_func = in->mmio_func & 1;
    t->mmio_addr = in->mmio_addr & 0x1FFFF;
    t->mmio_wdata = in->mmio_wdata;
    t->dma_wfull = in->dma_wfull & 1;
    t->dma_cvalid = in->cvalid & 1;
    t->dma_cfunc = in->cfunc & 1;
    t->dma_ctag = in->ctag & 31;
    memcpy(t->dma_cdata.data(), in->cdata, N99_BEAT);
    t->mac_tx_ready = in->mac_tx_ready & 3;
    t->mac_rx_valid = in->mac_rx_valid & 3;
    t->mac_rx_last = in->mac_rx_last & 3;
    t->mac_rx_crc_ok = in->mac_rx_crc_ok & 3;
    t->mac_rx_nbytes = (uint16_t)((in->mac_rx_nbytes[0] & 0x3F) | (in->mac_rx_nbytes[1] & 0x3F) << 6);
    for (int p = 0; p < N99_PORTS; p++)
        memcpy(t->mac_rx_data.data() + 8 * p, in->mac_rx_data[p], N99_BEAT);
    // the outputs as the edge samples them
    t->eval();
    n99_peek(m, o);
    t->clk = 1;
    t->func_clk = in->func_en & 3;
    t->eval();
    t->clk = 0;
    t->func_clk = 0;
    t->eval();
}
