#include "nicsim_nic.h"
#include <stdexcept>
#include <string>

using namespace sc_core;

static sc_time ps_time(ps_t ps)
{
    return sc_time::from_value(ps);
}

ps_t nicsim_nic::now_ps()
{
    return sc_time_stamp().value();
}

nicsim_nic::nicsim_nic(sc_module_name name, const struct scenario *sc)
    : sc_module(name), bar0("bar0", 2), dma("dma"), irq("irq", 2), eth_tx("eth_tx", 2), eth_rx("eth_rx", 2)
{
    build(sc);
}

nicsim_nic::nicsim_nic(sc_module_name name, const std::string &scenario_path, const std::vector<std::string> &overrides)
    : sc_module(name), bar0("bar0", 2), dma("dma"), irq("irq", 2), eth_tx("eth_tx", 2), eth_rx("eth_rx", 2)
{
    std::vector<std::string> copies(overrides);
    std::vector<char *> ov;
    for (std::string &o : copies)
        ov.push_back(&o[0]);
    char err[1024];
    own_scenario_ = nic_engine_load_scenario(scenario_path.c_str(), (int)ov.size(), ov.data(), err, sizeof err);
    if (!own_scenario_)
        throw std::runtime_error(std::string(this->name()) + ": " + err);
    build(own_scenario_);
}

void nicsim_nic::build(const struct scenario *sc)
{
    if (sc_get_time_resolution() != sc_time(1, SC_PS))
        throw std::runtime_error(std::string(this->name()) + ": the time resolution must be 1 ps");
    nic_engine_io io = { this, io_dma_read, io_dma_write, io_frame_out, io_irq };
    char err[512];
    engine_ = nic_engine_new(sc, &io, err, sizeof err);
    if (!engine_)
        throw std::runtime_error(std::string(this->name()) + ": " + err);
    for (int f = 0; f < 2; f++) {
        bar0[f].register_b_transport(this, &nicsim_nic::bar0_b_transport, f);
        eth_rx[f].register_b_transport(this, &nicsim_nic::eth_rx_b_transport, f);
        irq[f].initialize(false);
    }
    SC_THREAD(engine_thread);
}

nicsim_nic::~nicsim_nic()
{
    nic_engine_free(engine_);
    if (own_scenario_)
        nic_engine_free_scenario(own_scenario_);
}

void nicsim_nic::sync_to(const sc_time &t)
{
    nic_engine_sync(engine_, t.value());
    work_.notify();
}

bool nicsim_nic::idle() const
{
    return nic_engine_next(engine_) == PS_NEVER && changes_.empty();
}

uint64_t nicsim_nic::late() const
{
    return nic_engine_late(engine_);
}

uint64_t nicsim_nic::wire_frames(int port) const
{
    return nic_engine_wire_frames(engine_, port);
}

sc_time nicsim_nic::wire_end(int port) const
{
    return ps_time(nic_engine_wire_end(engine_, port));
}

int nicsim_nic::changes_pending(void *ctx)
{
    return !static_cast<nicsim_nic *>(ctx)->changes_.empty();
}

// The device's own progress while time passes.  Interrupt changes are driven
// at their times; between them the device runs up to the next moment any
// other process may act, so that nothing can reach it from its past.
void nicsim_nic::engine_thread()
{
    for (;;) {
        ps_t now = now_ps();
        if (!changes_.empty()) {
            irq_change c = changes_.front();
            if (c.t > now) {
                wait(ps_time(c.t - now));
                continue;
            }
            irq[c.port].write(c.level);
            changes_.pop_front();
            continue;
        }
        sc_time ahead = sc_time_to_pending_activity();
        if (ahead == SC_ZERO_TIME) {
            wait(SC_ZERO_TIME);       // others act at this time first
            continue;
        }
        // nothing else pending: let time pass a quantum at a time
        bool none = ahead >= sc_max_time() - sc_time_stamp();
        sc_time q = tlm::tlm_global_quantum::instance().get();
        if (none)
            ahead = q > SC_ZERO_TIME ? q : ps_time(1000000);
        ps_t bound = now + ahead.value();
        ps_t next = nic_engine_next(engine_);
        if (next <= bound) {
            nic_engine_run(engine_, bound, changes_pending, this);
            continue;
        }
        if (none && next == PS_NEVER)
            wait(work_);
        else
            wait(ahead, work_);
    }
}

void nicsim_nic::bar0_b_transport(int f, tlm::tlm_generic_payload &tr, sc_time &delay)
{
    uint64_t addr = tr.get_address();
    if (tr.get_data_length() != 4 || addr % 4 || addr > 0xFFFFFFFCull) {
        tr.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    if (tr.get_byte_enable_ptr()) {
        tr.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    ps_t t = now_ps() + delay.value();
    uint32_t *data = reinterpret_cast<uint32_t *>(tr.get_data_ptr());
    if (tr.is_write()) {
        nic_engine_mmio_write(engine_, f, (uint32_t)addr, *data, t);
    } else if (tr.is_read()) {
        ps_t done;
        *data = nic_engine_mmio_read(engine_, f, (uint32_t)addr, t, &done);
        delay = ps_time(done - now_ps());
    }
    work_.notify();
    tr.set_response_status(tlm::TLM_OK_RESPONSE);
}

void nicsim_nic::eth_rx_b_transport(int p, tlm::tlm_generic_payload &tr, sc_time &delay)
{
    if (!tr.is_write()) {
        tr.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    nic_engine_rx_frame(engine_, p, now_ps() + delay.value(), tr.get_data_ptr(), tr.get_data_length());
    work_.notify();
    tr.set_response_status(tlm::TLM_OK_RESPONSE);
}

// A transaction the device starts, on a reused payload.
static void prepare(tlm::tlm_generic_payload &tr, tlm::tlm_command cmd, uint64_t addr, void *data, uint32_t n)
{
    tr.set_command(cmd);
    tr.set_address(addr);
    tr.set_data_ptr(static_cast<unsigned char *>(data));
    tr.set_data_length(n);
    tr.set_streaming_width(n);
    tr.set_byte_enable_ptr(nullptr);
    tr.set_dmi_allowed(false);
    tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

int nicsim_nic::dma_access(tlm::tlm_command cmd, uint64_t addr, void *data, uint32_t n, ps_t t)
{
    prepare(dma_tr_, cmd, addr, data, n);
    sc_time delay = ps_time(t - now_ps());
    dma->b_transport(dma_tr_, delay);
    return dma_tr_.get_response_status() == tlm::TLM_OK_RESPONSE ? 0 : -1;
}

int nicsim_nic::io_dma_read(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t)
{
    return static_cast<nicsim_nic *>(ctx)->dma_access(tlm::TLM_READ_COMMAND, addr, dst, n, t);
}

int nicsim_nic::io_dma_write(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t)
{
    return static_cast<nicsim_nic *>(ctx)->dma_access(tlm::TLM_WRITE_COMMAND, addr, const_cast<void *>(src), n, t);
}

void nicsim_nic::io_frame_out(void *ctx, int port, ps_t t, const uint8_t *data, uint32_t len)
{
    nicsim_nic *m = static_cast<nicsim_nic *>(ctx);
    if (m->eth_tx[port].size() == 0)
        return;                 // nothing on the other end of this cable
    prepare(m->tx_tr_, tlm::TLM_WRITE_COMMAND, 0, const_cast<uint8_t *>(data), len);
    sc_time delay = ps_time(t - now_ps());
    m->eth_tx[port]->b_transport(m->tx_tr_, delay);
}

void nicsim_nic::io_irq(void *ctx, int port, int level, ps_t t)
{
    nicsim_nic *m = static_cast<nicsim_nic *>(ctx);
    m->changes_.push_back({ t, port, level != 0 });
    m->work_.notify();
}
