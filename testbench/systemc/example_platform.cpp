// The smallest platform around the nicsim_nic module, as docs/systemc.md
// shows it: the NIC, a RAM, something on the wire, and a CPU that programs
// the 82546 by hand with a tlm_quantumkeeper (no nicsim driver code): it
// resets the card, brings the link up, puts one 60-byte frame on an
// 8-descriptor TX ring in the RAM and waits for the descriptor's DD.
// Usage: nicsim-systemc-example SCENARIO.ini (an 82546 scenario, e.g.
// testbench/scenarios/e1000-pktgen.ini); exit status 0 when the frame left.
#include "../../sim/systemc/nicsim_nic.h"
#include <tlm_utils/tlm_quantumkeeper.h>
#include "../../driver/e1000/e1000_regs.h"
#include <cstdio>
#include <cstring>
#include <vector>

using namespace sc_core;

// RAM at 0x80000000: where the CPU puts the ring and the frame, and where
// the NIC's DMA reads them and writes the descriptor back.
struct ram : sc_module {
    tlm_utils::simple_target_socket<ram> socket;
    static constexpr uint64_t base = 0x80000000ull;
    std::vector<uint8_t> bytes = std::vector<uint8_t>(65536);

    explicit ram(sc_module_name n) : sc_module(n), socket("socket")
    {
        socket.register_b_transport(this, &ram::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &tr, sc_time &)
    {
        uint64_t a = tr.get_address();
        if (a < base || a - base + tr.get_data_length() > bytes.size()) {
            tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);    // a master abort
            return;
        }
        if (tr.is_read())
            memcpy(tr.get_data_ptr(), &bytes[a - base], tr.get_data_length());
        else
            memcpy(&bytes[a - base], tr.get_data_ptr(), tr.get_data_length());
        tr.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// The far end of port 0's cable: prints what arrives.
struct wire_end : sc_module {
    tlm_utils::simple_target_socket<wire_end> socket;
    int frames = 0;

    explicit wire_end(sc_module_name n) : sc_module(n), socket("socket")
    {
        socket.register_b_transport(this, &wire_end::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &tr, sc_time &delay)
    {
        frames++;
        printf("%s: a %u-byte frame, preamble at %s\n", name(), tr.get_data_length(),
               (sc_time_stamp() + delay).to_string().c_str());
        tr.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct host_cpu : sc_module {
    tlm_utils::simple_initiator_socket<host_cpu> bar0;
    sc_in<bool> irq;
    ram *mem = nullptr;
    tlm_utils::tlm_quantumkeeper qk;
    bool sent = false;

    SC_HAS_PROCESS(host_cpu);
    explicit host_cpu(sc_module_name n) : sc_module(n), bar0("bar0"), irq("irq")
    {
        SC_THREAD(run);
    }

    uint32_t access(bool write, uint32_t reg, uint32_t val)
    {
        tlm::tlm_generic_payload tr;
        tr.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        tr.set_address(reg);
        tr.set_data_ptr(reinterpret_cast<unsigned char *>(&val));
        tr.set_data_length(4);
        tr.set_streaming_width(4);
        sc_time delay = qk.get_local_time();
        bar0->b_transport(tr, delay);           // a read comes back with its latency added
        qk.set(delay);
        if (qk.need_sync())
            qk.sync();
        return val;
    }
    uint32_t rd(uint32_t reg) { return access(false, reg, 0); }
    void wr(uint32_t reg, uint32_t val) { access(true, reg, val); }
    // let time pass (the NIC works meanwhile), then look again
    void pause(double us)
    {
        qk.inc(sc_time(us, SC_US));
        qk.sync();
    }

    void run()
    {
        qk.reset();
        wr(E1000_CTRL, rd(E1000_CTRL) | E1000_CTRL_RST);
        while (rd(E1000_CTRL) & E1000_CTRL_RST)
            pause(1);
        wr(E1000_CTRL, E1000_CTRL_SLU);
        while (!(rd(E1000_STATUS) & E1000_STATUS_LU))
            pause(10);
        // one frame at +0x1000, an 8-descriptor ring at +0
        uint64_t ring = ram::base, buf = ram::base + 0x1000;
        uint8_t frame[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 0x01, 0x88, 0xb5 };
        memcpy(&mem->bytes[buf - ram::base], frame, sizeof frame);
        uint8_t *d = &mem->bytes[0];
        memcpy(d, &buf, 8);                                 // buffer address
        d[8] = sizeof frame;                                // length
        d[11] = E1000_TXD_CMD_EOP | E1000_TXD_CMD_IFCS | E1000_TXD_CMD_RS;
        wr(E1000_TIPG, 8 | 8 << 10 | 6 << 20);
        wr(E1000_TDBAL, (uint32_t)ring);
        wr(E1000_TDBAH, (uint32_t)(ring >> 32));
        wr(E1000_TDLEN, 8 * 16);
        wr(E1000_TDH, 0);
        wr(E1000_TDT, 0);
        wr(E1000_TCTL, E1000_TCTL_EN | E1000_TCTL_PSP);
        wr(E1000_TDT, 1);                                   // hand the descriptor over
        for (int i = 0; i < 1000 && !(d[12] & 1); i++)      // DD, written back by the NIC
            pause(1);
        sent = d[12] & 1;
        printf("%s: descriptor 0 %s at %s; TDH %u\n", name(), sent ? "done (DD)" : "NOT done",
               sc_time_stamp().to_string().c_str(), rd(E1000_TDH));
        sc_stop();
    }
};

int sc_main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: nicsim-systemc-example SCENARIO.ini (an 82546 scenario)\n");
        return 2;
    }
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);    // "Simulation stopped by user"
    tlm::tlm_global_quantum::instance().set(sc_time(1, SC_US));
    int rc;
    try {
        nicsim_nic nic("nic", argv[1]);             // card 0 of the scenario
        ram mem("ram");
        wire_end eth0("eth0_far_end");
        host_cpu host("cpu");
        sc_signal<bool> irq0("irq0"), irq1("irq1");
        host.mem = &mem;
        host.bar0.bind(nic.bar0[0]);                // function 0's BAR0
        nic.dma.bind(mem.socket);                   // the NIC's DMA into the RAM
        nic.irq[0].bind(irq0);
        nic.irq[1].bind(irq1);
        host.irq.bind(irq0);
        nic.eth_tx[0].bind(eth0.socket);            // what leaves port 0's wire
        // (function 1's BAR0, eth_tx[1] and both eth_rx: left unbound)
        sc_start();
        rc = host.sent && eth0.frames == 1 ? 0 : 1;
    } catch (const std::exception &e) {
        fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return rc;
}

int main(int argc, char **argv)
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
