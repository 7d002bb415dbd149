// The thin C++ layer around the Verilated NIC models (82546 and 82599, which
// share one interface): C ABI in sim/device/nic_rtl.h.  The per-cycle code is a
// template over the model's class, so each model's calls are direct.
#include "nic_rtl.h"
#include "Vnic82546.h"
#include "Vnic82546___024root.h"
#include "Vnic82546x1.h"
#include "Vnic82546x1___024root.h"
#include "Vnic82599.h"
#include "Vnic82599___024root.h"
#include "Vnic82599x1.h"
#include "Vnic82599x1___024root.h"
#include "verilated.h"
#ifdef NICSIM_TRACE
#include "verilated_fst_c.h"
#endif
#include <cstring>
#include <new>

struct nic_rtl {
    VerilatedContext ctx;
    Vnic82546 *t46;             // exactly one of the four
    Vnic82546x1 *t46x1;         // the 82546 with port 0 only (straps.ports == 1)
    Vnic82599 *t99;
    Vnic82599x1 *t99x1;         // the 82599 with port 0 only (straps.ports == 1)
    uint64_t cycles;
#ifdef NICSIM_TRACE
    VerilatedFstC *fst;         // nic_rtl_trace_fst: open from trace_from to trace_to
    uint64_t trace_from, trace_to;
#endif
};

// Verilator calls these on $finish/$stop; the RTL has none, but the runtime needs them linked.
double sc_time_stamp() { return 0; }

// The ports a model's build has (the one-port builds' port 1 is a stub).
template <class T> constexpr int model_ports() { return NIC_RTL_PORTS; }
template <> constexpr int model_ports<Vnic82546x1>() { return 1; }
template <> constexpr int model_ports<Vnic82599x1>() { return 1; }

// inlined into the per-cycle call (GCC would otherwise leave it out of line);
// once: at reset, every field (later calls skip what cannot change)
template <class T>
[[gnu::always_inline]] static inline void read_outputs(const T *t, nic_rtl_out *o, bool once = false)
{
    // a read's data and a request's fields mean something only with their
    // valid (the header says so), and are copied only then
    o->mmio_rvalid = t->mmio_rvalid;
    if (o->mmio_rvalid || once)
        o->mmio_rdata = t->mmio_rdata;
    o->req_valid = t->dma_req_valid;
    if (o->req_valid || once) {
        o->req_write = t->dma_req_write;
        o->req_func = t->dma_req_func;
        o->req_tag = t->dma_req_tag;
        o->req_addr = t->dma_req_addr;
        o->req_len = t->dma_req_len;
    }
    o->wvalid = t->dma_wvalid;
    // wide signals are little-endian arrays of 32-bit words: bit 0 is byte 0
    // (data is copied only when valid: the copies are a visible part of a cycle)
    if (o->wvalid)
        memcpy(o->wdata, t->dma_wdata.data(), NIC_RTL_BEAT);
    // a one-port build's port 1 outputs are constants, read once at reset
    for (int p = 0; p < (once ? NIC_RTL_PORTS : model_ports<T>()); p++) {
        o->tx_valid[p] = (t->mac_tx_valid >> p) & 1;
        // a beat's fields mean something only with valid (the adapter reads
        // them only then)
        if (o->tx_valid[p] || once) {
            o->tx_nbytes[p] = (t->mac_tx_nbytes >> (6 * p)) & 0x3F;
            o->tx_last[p] = (t->mac_tx_last >> p) & 1;
            o->tx_fcs[p] = (t->mac_tx_fcs >> p) & 1;
            o->tx_ipg[p] = (t->mac_tx_ipg >> (11 * p)) & 0x7FF;
            memcpy(o->tx_data[p], t->mac_tx_data.data() + 8 * p, NIC_RTL_BEAT);
        }
    }
    o->irq = t->irq;
    for (int f = 0; f < (once ? NIC_RTL_PORTS : model_ports<T>()); f++)
        o->next_timer[f] = (uint32_t)(t->func_next_timer >> (18 * f)) & NIC_RTL_NO_TIMER;
    o->func_idle = t->func_idle;
    o->idle = t->idle;
    o->unmodelled = t->mmio_unmodelled;
    if (o->unmodelled) {
        o->unmodelled_func = t->mmio_unmodelled_func;
        o->unmodelled_write = t->mmio_unmodelled_write;
        o->unmodelled_off = (uint32_t)t->mmio_unmodelled_addr << 2;
    }
}

// The falling edge without an eval().  No block of either model is
// sensitive to it (every flop is posedge; no logic reads a clock's level),
// yet a second eval() per cycle re-runs all input-driven logic for nothing
// (10 % of a 64-byte 82599 run's instructions, measured with callgrind).
// So the clocks go low and Verilator's edge detector is told they did: its
// "previous value" variables are Verilator 5's generated names for these
// tops' clock nets, and a renamed net fails the build here, not silently.
// The same outputs, byte for byte: `make test` runs every model this way.
#define NICSIM_CLOCKS_LOW(r, top)                                                              \
    do {                                                                                        \
        (r)->__Vtrigrprev__TOP__clk = 0;                                                        \
        (r)->__Vtrigrprev__TOP__##top##__DOT____Vcellinp__g_func__BRA__0__KET____DOT__fn__clk = 0; \
        (r)->__Vtrigrprev__TOP__##top##__DOT____Vcellinp__g_func__BRA__1__KET____DOT__fn__clk = 0; \
    } while (0)

static inline void clocks_low(Vnic82546 *t)
{
    NICSIM_CLOCKS_LOW(t->rootp, nic82546);
}

static inline void clocks_low(Vnic82546x1 *t)
{
    t->rootp->__Vtrigrprev__TOP__clk = 0;
    t->rootp->__Vtrigrprev__TOP__nic82546__DOT____Vcellinp__g_func__BRA__0__KET____DOT__fn__clk = 0;
}

static inline void clocks_low(Vnic82599 *t)
{
    NICSIM_CLOCKS_LOW(t->rootp, nic82599);
}

static inline void clocks_low(Vnic82599x1 *t)
{
    t->rootp->__Vtrigrprev__TOP__clk = 0;
    t->rootp->__Vtrigrprev__TOP__nic82599__DOT____Vcellinp__g_func__BRA__0__KET____DOT__fn__clk = 0;
}

#ifdef NICSIM_TRACE
static void trace_close(nic_rtl *n)
{
    if (!n->fst)
        return;
    if (n->fst->isOpen())
        n->fst->close();
    delete n->fst;
    n->fst = nullptr;
}

// a window's dump: the posedge at 2c, the clocks low at 2c + 1
static void trace_dump(nic_rtl *n, uint64_t half)
{
    if (n->fst && n->cycles >= n->trace_from && n->cycles < n->trace_to)
        n->fst->dump(half);
    if (n->cycles + 1 >= n->trace_to && half & 1)
        trace_close(n);
}
#endif

template <class T>
static void edge(nic_rtl *n, T *t, uint8_t func_en)
{
    t->clk = 1;
    t->func_clk = func_en & 3;
    t->eval();
#ifdef NICSIM_TRACE
    trace_dump(n, 2 * n->cycles);
#endif
    t->clk = 0;
    t->func_clk = 0;
    clocks_low(t);
#ifdef NICSIM_TRACE
    trace_dump(n, 2 * n->cycles + 1);
#endif
    n->cycles++;
}

template <class T>
static void reset(nic_rtl *n, T *t, nic_rtl_out *out)
{
    t->rst_n = 0;
    t->mmio_valid = 0;
    t->dma_wfull = 0;
    t->dma_cvalid = 0;
    t->mac_tx_ready = 0;
    t->mac_rx_valid = 0;
    t->func_tick = 0;
    for (int i = 0; i < 4; i++)
        edge(n, t, 3);
    t->rst_n = 1;
    read_outputs(t, out, true);
}

template <class T>
[[gnu::always_inline]] static inline void cycle(nic_rtl *n, T *t, const nic_rtl_in *in, nic_rtl_out *out)
{
    uint64_t tk0 = in->func_tick[0] < NIC_RTL_TICK_MAX ? in->func_tick[0] : NIC_RTL_TICK_MAX;
    uint64_t tk1 = in->func_tick[1] < NIC_RTL_TICK_MAX ? in->func_tick[1] : NIC_RTL_TICK_MAX;
    t->func_tick = tk0 | (tk1 << 18);
    t->mmio_valid = in->mmio_valid;
    t->mmio_write = in->mmio_write;
    t->mmio_func = in->mmio_func;
    t->mmio_addr = in->mmio_addr & 0x1FFFF;
    t->mmio_wdata = in->mmio_wdata;
    t->dma_wfull = in->dma_wfull & 1;
    t->dma_cvalid = in->cpl_valid;
    t->dma_cfunc = in->cpl_func;
    t->dma_ctag = in->cpl_tag;
    if (in->cpl_valid)          // the RTL takes the data only with a beat
        memcpy(t->dma_cdata.data(), in->cpl_data, NIC_RTL_BEAT);
    t->mac_tx_ready = in->mac_tx_ready & 3;
    t->mac_rx_valid = in->mac_rx_valid & 3;
    if (in->mac_rx_valid & 3) {
        // the RTL's input flops take the other fields only with a beat
        t->mac_rx_last = in->mac_rx_last & 3;
        t->mac_rx_crc_ok = in->mac_rx_crc_ok & 3;
        t->mac_rx_nbytes = (uint16_t)((in->mac_rx_nbytes[0] & 0x3F) | (in->mac_rx_nbytes[1] & 0x3F) << 6);
        for (int p = 0; p < NIC_RTL_PORTS; p++)
            if (in->mac_rx_valid >> p & 1)
                memcpy(t->mac_rx_data.data() + 8 * p, in->mac_rx_data[p], NIC_RTL_BEAT);
    }
    edge(n, t, in->func_en);
    read_outputs(t, out);
}

// The 82546's straps (either build), then the model settles in reset.
template <class T>
static void straps_82546(T *t, const nic_rtl_straps *s)
{
    t->link_up = s->link_up & 3;
    t->pcix_mode = s->pcix_mode & 1;
    t->pcix_speed = s->pcix_speed & 3;
    t->bus64 = s->bus64 & 1;
    t->pci66 = s->pci66 & 1;
    // the EEPROM's address: port 0's (the second function flips its
    // last bit, as drivers of the 82546 do)
    uint64_t mac = 0;
    for (int i = 5; i >= 0; i--)
        mac = mac << 8 | s->mac[0][i];
    t->mac_addr = mac;
    t->clk = 0;
    t->rst_n = 0;
    t->eval();
}

// The 82599's straps (either build), then the model settles in reset.
template <class T>
static void straps_82599(T *t, const nic_rtl_straps *s)
{
    t->link_up = s->link_up & 3;
    // mac_addr: port p in bits 48p..48p+47, the address's first byte lowest
    // (as RAL(0) holds it)
    uint8_t m[12];
    memcpy(m, s->mac[0], 6);
    memcpy(m + 6, s->mac[1], 6);
    uint32_t w[3];
    memcpy(w, m, 12);
    t->mac_addr[0] = w[0];
    t->mac_addr[1] = w[1];
    t->mac_addr[2] = w[2];
    t->clk = 0;
    t->rst_n = 0;
    t->eval();
}

// Call f with whichever model n holds (f is generic over the model's class,
// so each call is direct; the per-cycle path inlines it).
template <class F>
[[gnu::always_inline]] static inline void with_model(nic_rtl *n, F &&f)
{
    if (n->t46)
        f(n->t46);
    else if (n->t46x1)
        f(n->t46x1);
    else if (n->t99x1)
        f(n->t99x1);
    else
        f(n->t99);
}

extern "C" nic_rtl *nic_rtl_new(const nic_rtl_straps *s)
{
    if (s->model != NIC_RTL_82546 && s->model != NIC_RTL_82599)
        return nullptr;
    nic_rtl *n = new (std::nothrow) nic_rtl;
    if (!n)
        return nullptr;
    n->t46 = nullptr;
    n->t46x1 = nullptr;
    n->t99 = nullptr;
    n->t99x1 = nullptr;
    n->cycles = 0;
#ifdef NICSIM_TRACE
    n->fst = nullptr;
    n->trace_from = n->trace_to = 0;
    n->ctx.traceEverOn(true);   // before the model is built: it then keeps its trace code live
#endif
    if (s->model == NIC_RTL_82546 && s->ports == 1) {
        straps_82546(n->t46x1 = new Vnic82546x1(&n->ctx), s);
    } else if (s->model == NIC_RTL_82546) {
        straps_82546(n->t46 = new Vnic82546(&n->ctx), s);
    } else if (s->ports == 1) {
        straps_82599(n->t99x1 = new Vnic82599x1(&n->ctx), s);
    } else {
        straps_82599(n->t99 = new Vnic82599(&n->ctx), s);
    }
    return n;
}

extern "C" void nic_rtl_free(nic_rtl *n)
{
    if (!n)
        return;
#ifdef NICSIM_TRACE
    trace_close(n);
#endif
    with_model(n, [](auto *t) {
        t->final();
        delete t;
    });
    delete n;
}

extern "C" void nic_rtl_reset(nic_rtl *n, nic_rtl_out *out)
{
    with_model(n, [&](auto *t) { reset(n, t, out); });
}

extern "C" void nic_rtl_cycle(nic_rtl *n, const nic_rtl_in *in, nic_rtl_out *out)
{
    with_model(n, [&](auto *t) { cycle(n, t, in, out); });
}

extern "C" uint64_t nic_rtl_cycles(const nic_rtl *n)
{
    return n->cycles;
}

extern "C" int nic_rtl_trace_fst(nic_rtl *n, const char *path, uint64_t from, uint64_t to)
{
#ifdef NICSIM_TRACE
    if (n->fst || from >= to)
        return -1;
    n->fst = new VerilatedFstC;
    with_model(n, [&](auto *t) { t->trace(n->fst, 99); });
    n->fst->open(path);
    if (!n->fst->isOpen()) {
        trace_close(n);
        return -1;
    }
    n->trace_from = from;
    n->trace_to = to;
    return 0;
#else
    (void)n;
    (void)path;
    (void)from;
    (void)to;
    return -1;
#endif
}
