// The thin C++ layer around rtl/tx_queue.v Verilated alone with FMT 1 and a
// 40-entry cache (the 82599's TX queue): C ABI in tx_queue_adv_shim.h.
#include "tx_queue_adv_shim.h"
#include "Vtx_queue_adv.h"
#include "verilated.h"
#include <cstring>
#include <new>

struct txq_model {
    VerilatedContext ctx;
    Vtx_queue_adv *top;
};

double sc_time_stamp() { return 0; }

extern "C" txq_model *txq_new(void)
{
    txq_model *m = new (std::nothrow) txq_model;
    if (!m)
        return nullptr;
    m->top = new Vtx_queue_adv(&m->ctx);
    m->top->clk = 0;
    m->top->eval();
    return m;
}

extern "C" void txq_free(txq_model *m)
{
    if (!m)
        return;
    m->top->final();
    delete m->top;
    delete m;
}

extern "C" void txq_cycle(txq_model *m, const txq_in *in, txq_out *o)
{
    Vtx_queue_adv *t = m->top;
    t->prst = in->prst; t->rst = in->rst; t->en = in->en; t->tdh_wr = in->tdh_wr;
    t->gran = in->gran; t->hwb_en = in->hwb_en; t->tag_free = in->tag_free;
    t->buf_idle = in->buf_idle; t->next_tag = in->next_tag & 15; t->frag_done = in->frag_done;
    t->dcpl_valid = in->dcpl_valid; t->req_ready = in->req_ready; t->swflsh = in->swflsh;
    t->pthresh = in->pthresh & 0x7F; t->hthresh = in->hthresh & 0x7F; t->wthresh = in->wthresh & 0x7F;
    t->ring_size = in->ring_size; t->tdt = in->tdt; t->tdh_val = in->tdh_val;
    t->tidv = in->tidv; t->tadv = in->tadv; t->tick = in->tick & 0x3FFFF;
    t->size_bytes = in->size_bytes & 0x1FFFF; t->free_bytes = in->free_bytes & 0x1FFFF;
    t->tdba = in->tdba; t->hwb_addr = in->hwb_addr;
    // wide signals are little-endian arrays of 32-bit words: bit 0 is byte 0
    memcpy(t->dcpl_data.data(), in->dcpl_data, 32);
    // the outputs as the edge samples them (settled with this cycle's inputs):
    // what they report is what this edge does
    t->eval();
    o->issue_valid = t->issue_valid; o->issue_dma = t->issue_dma; o->issue_eop = t->issue_eop;
    o->issue_ifcs = t->issue_ifcs; o->issue_drop = t->issue_drop;
    o->req_valid = t->req_valid; o->req_write = t->req_write; o->req_tag = t->req_tag;
    o->wvalid = t->wvalid; o->wlast = t->wlast; o->txdw_set = t->txdw_set; o->txqe_set = t->txqe_set;
    o->busy = t->busy; o->tdh = t->tdh; o->issue_len = t->issue_len; o->req_len = t->req_len;
    o->next_timer = t->next_timer; o->req_addr = t->req_addr;
    memcpy(o->wdata, t->wdata.data(), 32);
    t->clk = 1;
    t->eval();
    t->clk = 0;
    t->eval();
}
