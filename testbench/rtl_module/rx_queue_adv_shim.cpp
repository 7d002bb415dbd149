// The thin C++ layer around rtl/rx_queue.v Verilated alone with FMT 1 (the
// 82599's advanced one-buffer descriptors): C ABI in rx_queue_adv_shim.h.
#include "rx_queue_adv_shim.h"
#include "Vrx_queue_adv.h"
#include "verilated.h"
#include <cstring>
#include <new>

struct rxq_model {
    VerilatedContext ctx;
    Vrx_queue_adv *top;
};

double sc_time_stamp() { return 0; }

extern "C" rxq_model *rxq_new(void)
{
    rxq_model *m = new (std::nothrow) rxq_model;
    if (!m)
        return nullptr;
    m->top = new Vrx_queue_adv(&m->ctx);
    m->top->clk = 0;
    m->top->eval();
    return m;
}

extern "C" void rxq_free(rxq_model *m)
{
    if (!m)
        return;
    m->top->final();
    delete m->top;
    delete m;
}

extern "C" void rxq_cycle(rxq_model *m, const rxq_in *in, rxq_out *o)
{
    Vrx_queue_adv *t = m->top;
    t->prst = in->prst; t->rst = in->rst; t->en = in->en; t->secrc = in->secrc;
    t->rdmts = in->rdmts & 3; t->rdh_wr = in->rdh_wr; t->gran = in->gran; t->fpd = in->fpd;
    t->wake = in->wake; t->wr_en = in->wr_en; t->commit = in->commit; t->frame_abort = in->frame_abort;
    t->commit_ce = in->commit_ce; t->dcpl_valid = in->dcpl_valid; t->req_ready = in->req_ready;
    t->pthresh = in->pthresh & 0x7F; t->hthresh = in->hthresh & 0x7F; t->wthresh = in->wthresh & 0x7F;
    t->buf_bytes = in->buf_bytes; t->ring_size = in->ring_size; t->rdt = in->rdt;
    t->rdh_val = in->rdh_val; t->rdtr = in->rdtr; t->radv = in->radv; t->commit_len = in->commit_len;
    t->size_rows = in->size_rows & 0xFFF; t->tick = in->tick & 0x3FFFF; t->rdba = in->rdba;
    // wide signals are little-endian arrays of 32-bit words: bit 0 is byte 0
    memcpy(t->wr_data.data(), in->wr_data, 32);
    memcpy(t->dcpl_data.data(), in->dcpl_data, 32);
    t->eval();
    o->nodesc = t->nodesc; o->room = t->room; o->req_valid = t->req_valid;
    o->req_write = t->req_write; o->req_tag = t->req_tag; o->wvalid = t->wvalid; o->wlast = t->wlast;
    o->rxt0_set = t->rxt0_set; o->rxdmt0_set = t->rxdmt0_set; o->busy = t->busy;
    o->rdh = t->rdh; o->req_len = t->req_len; o->next_timer = t->next_timer; o->req_addr = t->req_addr;
    memcpy(o->wdata, t->wdata.data(), 32);
    t->clk = 1;
    t->eval();
    t->clk = 0;
    t->eval();
}
