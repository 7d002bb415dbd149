// The nicsim NIC as a SystemC TLM-2.0 module: the cycle-accurate 82546
// (PCI-X) or 82599 (PCIe) engine of one card of a scenario, Verilated as
// plain C++ and stepped with the same bus timing models as the C harness.
//
// Sockets and ports (loosely timed, blocking transport, timing annotation):
//   bar0[f]   target: function f's BAR0, 32-bit register reads and writes.
//             A write is posted at sc_time_stamp() + delay; a read runs the
//             device until its data is back and returns with delay advanced
//             to that time.
//   dma       initiator: the card's DMA into host memory, one transaction per
//             bus transaction (a read piece as the bus delivers it, a write
//             as it completes), annotated with that time.  A response other
//             than TLM_OK_RESPONSE is a master abort.
//   irq[f]    function f's interrupt line, driven at the time it changes.
//   eth_tx[p] initiator: each frame (without FCS) port p's MAC sends, as a
//             write annotated with the time its preamble starts on the wire.
//   eth_rx[p] target: frames arriving at port p (FCS included, checked
//             here), as writes annotated with the time their last bit
//             arrives.  They must come before the device has reached that
//             time (a link partner sends them ahead; late() counts those that
//             did not).
// dma and irq must be bound; bar0, eth_tx and eth_rx may be left unbound
// (a frame for an unbound eth_tx is dropped).
//
// Time: the device runs in the caller's thread when an access reaches it
// (up to the access's annotated time), and in its own thread while time
// passes, never past the next moment another process of the simulation may
// act (sc_time_to_pending_activity), stopping where an interrupt line
// changes.  So an initiator that keeps its local time at or ahead of
// sc_time_stamp() never observes the device in its own past.  sync_to(t)
// brings the device up to t in the caller's thread: what an initiator calls
// before it reads memory the device may have written (the testbench does, so
// its runs equal the C harness's to the picosecond).  The time resolution
// must be 1 ps (the SystemC default).
#ifndef NICSIM_SYSTEMC_NICSIM_NIC_H
#define NICSIM_SYSTEMC_NICSIM_NIC_H
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <deque>
#include <string>
#include <vector>
#include "../engine/nic_engine.h"

class nicsim_nic : public sc_core::sc_module {
public:
    sc_core::sc_vector<tlm_utils::simple_target_socket_tagged_optional<nicsim_nic>> bar0;
    tlm_utils::simple_initiator_socket<nicsim_nic> dma;
    sc_core::sc_vector<sc_core::sc_out<bool>> irq;
    sc_core::sc_vector<tlm_utils::simple_initiator_socket_optional<nicsim_nic>> eth_tx;
    sc_core::sc_vector<tlm_utils::simple_target_socket_tagged_optional<nicsim_nic>> eth_rx;

    // Card 0 of the scenario (its [nic], [bus]/[pcie], [link] keys).  The
    // scenario must outlive the module.  Throws std::runtime_error with the
    // reason when the card cannot be built.
    SC_HAS_PROCESS(nicsim_nic);
    nicsim_nic(sc_core::sc_module_name name, const struct scenario *sc);
    // The same from a scenario file and overrides ("section.key=value"),
    // which the module loads and keeps; std::runtime_error says what is
    // wrong with them ("file:line: ...").
    nicsim_nic(sc_core::sc_module_name name, const std::string &scenario_path,
               const std::vector<std::string> &overrides = {});
    ~nicsim_nic() override;

    // Bring the device up to time t >= sc_time_stamp() in the caller's thread.
    void sync_to(const sc_core::sc_time &t);
    // Nothing left to do (no event, no clocked edge pending).
    bool idle() const;
    // Accesses and frames that reached the device after its own time.
    uint64_t late() const;
    uint64_t wire_frames(int port) const;
    sc_core::sc_time wire_end(int port) const;

private:
    struct irq_change {
        ps_t t;
        int port;
        bool level;
    };
    nic_engine *engine_ = nullptr;
    struct scenario *own_scenario_ = nullptr;   // loaded by the module
    void build(const struct scenario *sc);
    std::deque<irq_change> changes_;    // recorded by the device, not yet driven
    sc_core::sc_event work_;            // the device got work outside its thread
    // one payload per kind of transaction the device starts, reused (a
    // payload's construction allocates its extension array)
    tlm::tlm_generic_payload dma_tr_, tx_tr_;

    void engine_thread();
    void bar0_b_transport(int f, tlm::tlm_generic_payload &tr, sc_core::sc_time &delay);
    void eth_rx_b_transport(int p, tlm::tlm_generic_payload &tr, sc_core::sc_time &delay);
    static ps_t now_ps();

    static int io_dma_read(void *ctx, uint64_t addr, void *dst, uint32_t n, ps_t t);
    static int io_dma_write(void *ctx, uint64_t addr, const void *src, uint32_t n, ps_t t);
    static void io_frame_out(void *ctx, int port, ps_t t, const uint8_t *data, uint32_t len);
    static void io_irq(void *ctx, int port, int level, ps_t t);
    static int changes_pending(void *ctx);
    int dma_access(tlm::tlm_command cmd, uint64_t addr, void *data, uint32_t n, ps_t t);
};

#endif
