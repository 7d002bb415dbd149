// nicsim-systemc: the SystemC testbench of the nicsim_nic TLM-2.0 module.
// A host memory target, a CPU initiator that runs the driver core and its app
// (any app with one instance: pktgen, the sink, the router) through a
// SystemC platform backend, a link partner per
// receiving port and a pcap tap per transmitting port, around one nicsim_nic.
// For the same scenario its pcaps and NIC counters equal the C harness's
// (build/nicsim run); testbench/systemc/compare.sh checks that.
#include "../../sim/systemc/nicsim_nic.h"
#include "tb_cpus.h"
extern "C" {
#include "../../sim/scenario/nicsim_scenario.h"
#include "../../sim/cli/cli.h"
#include "../../models/link_gen.h"
#include "../../models/link_sink.h"
}
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace sc_core;

static sc_time ps_time(ps_t ps)
{
    return sc_time::from_value(ps);
}

static ps_t now_ps()
{
    return sc_time_stamp().value();
}

// Host memory: the CPU side's memory, kept coherent with its caches.
struct host_memory : sc_module {
    tlm_utils::simple_target_socket<host_memory> socket;
    tb_cpus *cpus = nullptr;

    explicit host_memory(sc_module_name n) : sc_module(n), socket("socket")
    {
        socket.register_b_transport(this, &host_memory::b_transport);
    }

    void b_transport(tlm::tlm_generic_payload &tr, sc_time &)
    {
        int rc = tr.is_read()    ? tb_cpus_dma_read(cpus, tr.get_address(), tr.get_data_ptr(), tr.get_data_length())
                 : tr.is_write() ? tb_cpus_dma_write(cpus, tr.get_address(), tr.get_data_ptr(), tr.get_data_length())
                                 : -1;
        tr.set_response_status(rc == 0 ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
};

// The link partner of one port: sends its generator's frames to the NIC,
// each `lookahead` before it has fully arrived (the module needs a frame
// before it reaches the frame's time).
struct link_partner : sc_module {
    tlm_utils::simple_initiator_socket<link_partner> socket;
    tb_cpus *cpus = nullptr;
    int port = 0;
    ps_t lookahead = 0;
    ps_t up = 0;
    bool started = false;       // told to go (perhaps before its thread first ran)
    tlm::tlm_generic_payload tr_;
    sc_event go;

    SC_HAS_PROCESS(link_partner);
    explicit link_partner(sc_module_name n) : sc_module(n), socket("socket")
    {
        SC_THREAD(run);
    }

    void run()
    {
        if (!started)
            wait(go);
        link_gen *gen = tb_cpus_partner(cpus, port);
        link_gen_delay(gen, up);
        link_gen_frame f;
        while (link_gen_next(gen, &f)) {
            ps_t send = f.t_end > lookahead ? f.t_end - lookahead : 0;
            if (send > now_ps())
                wait(ps_time(send - now_ps()));
            tlm::tlm_generic_payload &tr = tr_;
            tr.set_command(tlm::TLM_WRITE_COMMAND);
            tr.set_address(0);
            tr.set_data_ptr(const_cast<unsigned char *>(f.data));
            tr.set_data_length(f.len);
            tr.set_streaming_width(f.len);
            tr.set_byte_enable_ptr(nullptr);
            tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            sc_time delay = ps_time(f.t_end - now_ps());
            socket->b_transport(tr, delay);
            tb_cpus_partner_sent(cpus, port, f.t_end);
        }
        tb_cpus_partner_done(cpus, port);
    }
};

// What leaves a port's wire: into its pcap, stamped with the preamble's time.
struct pcap_tap : sc_module {
    tlm_utils::simple_target_socket<pcap_tap> socket;
    link_sink *sink = nullptr;

    explicit pcap_tap(sc_module_name n) : sc_module(n), socket("socket")
    {
        socket.register_b_transport(this, &pcap_tap::b_transport);
    }

    void b_transport(tlm::tlm_generic_payload &tr, sc_time &delay)
    {
        if (sink)
            link_sink_frame(sink, now_ps() + delay.value(), tr.get_data_ptr(), tr.get_data_length());
        tr.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// The CPU: the driver core and its app through the SystemC platform backend
// (tb_bus), with temporal decoupling: its clock runs ahead of sc_time_stamp()
// and it waits only when it must (an interrupt, a quantum used up).
struct cpu_initiator : sc_module {
    sc_vector<tlm_utils::simple_initiator_socket<cpu_initiator>> mmio;
    sc_vector<sc_in<bool>> irq;
    nicsim_nic *nic = nullptr;
    tb_cpus *cpus = nullptr;
    std::vector<link_partner *> partners;
    ps_t quantum = 0;
    tlm::tlm_generic_payload tr_;       // reused: construction allocates
    // after the simulation: the driver's teardown touches no device
    bool detached = false;
    // results
    int app_failed = 0, stopped_early = 0;
    std::string app_error;
    ps_t end = 0;
    uint64_t late = 0;          // the NIC's late observations up to the counters

    SC_HAS_PROCESS(cpu_initiator);
    explicit cpu_initiator(sc_module_name n) : sc_module(n), mmio("mmio", 2), irq("irq", 2)
    {
        SC_THREAD(run);
    }

    // the quantum keeper: a CPU at t may run on while t - sc_time_stamp() < quantum
    void keep(ps_t t)
    {
        ps_t now = now_ps();
        if (t > now && t - now >= quantum)
            wait(ps_time(t - now));
    }

    uint32_t access(int func, bool write, uint32_t off, uint32_t val, ps_t t, ps_t *t_done)
    {
        if (detached)
            return ~0u;
        keep(t);
        tlm::tlm_generic_payload &tr = tr_;
        tr.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        tr.set_address(off);
        tr.set_data_ptr(reinterpret_cast<unsigned char *>(&val));
        tr.set_data_length(4);
        tr.set_streaming_width(4);
        tr.set_byte_enable_ptr(nullptr);
        tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = ps_time(t - now_ps());
        mmio[func]->b_transport(tr, delay);
        if (tr.get_response_status() != tlm::TLM_OK_RESPONSE) {
            fprintf(stderr, "nicsim-systemc: BAR0 access at 0x%05x of function %d: %s\n", off, func,
                    tr.get_response_string().c_str());
            exit(1);
        }
        if (t_done)
            *t_done = now_ps() + delay.value();
        return val;
    }

    // one delta cycle: an interrupt line the module drives at this time
    // (from a timed wake-up or an immediate notification) reads as it is now
    void settle()
    {
        wait(SC_ZERO_TIME);
    }

    int line_up(unsigned mask)
    {
        for (int f = 0; f < 2; f++)
            if ((mask >> f & 1) && irq[f].read())
                return f;
        return -1;
    }

    ps_t irq_wait(unsigned mask, ps_t from, ps_t deadline, int *func)
    {
        if (from > now_ps())
            wait(ps_time(from - now_ps()));
        settle();
        for (;;) {
            *func = line_up(mask);
            if (*func >= 0 || now_ps() >= deadline)
                return *func >= 0 ? now_ps() : deadline;
            sc_event_or_list any;
            for (int f = 0; f < 2; f++)
                if (mask >> f & 1)
                    any |= irq[f].posedge_event();
            wait(ps_time(deadline - now_ps()), any);
            settle();
        }
    }

    // ---- tb_bus: the C side's device accesses ----
    static void b_sync(void *ctx, ps_t t)
    {
        auto *c = static_cast<cpu_initiator *>(ctx);
        if (c->detached)
            return;
        c->keep(t);
        c->nic->sync_to(ps_time(t));
    }
    static uint32_t b_mmio_read(void *ctx, int func, uint32_t off, ps_t t, ps_t *t_done)
    {
        return static_cast<cpu_initiator *>(ctx)->access(func, false, off, 0, t, t_done);
    }
    static void b_mmio_write(void *ctx, int func, uint32_t off, uint32_t val, ps_t t)
    {
        static_cast<cpu_initiator *>(ctx)->access(func, true, off, val, t, nullptr);
    }
    static ps_t b_irq_wait(void *ctx, unsigned mask, ps_t from, ps_t deadline, int *func)
    {
        return static_cast<cpu_initiator *>(ctx)->irq_wait(mask, from, deadline, func);
    }
    static void b_partner_go(void *ctx, int port, ps_t up)
    {
        auto *c = static_cast<cpu_initiator *>(ctx);
        c->partners[port]->up = up;
        c->partners[port]->started = true;
        c->partners[port]->go.notify();
    }
    static void b_turn(void *ctx, ps_t t)
    {
        static_cast<cpu_initiator *>(ctx)->keep(t);
    }

    void run()
    {
        char err[512];
        if (tb_cpus_run(cpus, err, sizeof err) != 0) {
            app_failed = 1;
            app_error = err;
            sc_stop();
            return;
        }
        // let the NIC and the wires finish what they hold, as the C harness
        // does: until nothing is left to happen, at most to system.max_sim_us
        end = tb_cpus_time(cpus) > now_ps() ? tb_cpus_time(cpus) : now_ps();
        if (end > now_ps())
            wait(ps_time(end - now_ps()));
        ps_t limit = tb_cpus_limit(cpus) > end ? tb_cpus_limit(cpus) : end;
        while (!nic->idle() && now_ps() < limit)
            wait(ps_time(quantum < limit - now_ps() ? quantum : limit - now_ps()));
        stopped_early = !nic->idle();
        for (int p = 0; p < tb_cpus_ports(cpus); p++)
            if (nic->wire_end(p).value() > end)
                end = nic->wire_end(p).value();
        tb_cpus_read_counters(cpus, now_ps());
        late = nic->late();
        tb_cpus_drivers_down(cpus, now_ps());
        sc_stop();
    }
};

static const char usage[] =
    "usage: nicsim-systemc SCENARIO.ini [section.key=value ...] [--quantum-ns N] [--json FILE]\n"
    "\n"
    "Run a scenario with one card and one CPU (pktgen, the sink, the router on\n"
    "one card) with the NIC as the nicsim_nic SystemC TLM-2.0 module: the driver\n"
    "core runs on an initiator\n"
    "thread through a SystemC platform backend, DMA goes to a host memory target,\n"
    "received frames come from a link partner module and sent ones go to a pcap\n"
    "tap (capture.pcap).  Prints the Kernel Interface table and the simulated\n"
    "packets per wall-clock second; --json writes the per-port counters.\n"
    "\n"
    "  --quantum-ns N   the global quantum of the temporal decoupling (default 1000)\n"
    "\n"
    "Exit status: 0 done; 1 the run failed or was incomplete (or saw a late\n"
    "observation); 2 usage or scenario error.\n";

static double wall_now()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// The command line: the scenario, its section.key=value overrides, --json
// and --quantum-ns.
struct tb_args {
    const char *path = nullptr, *json = nullptr;
    std::vector<char *> ov;
    double quantum_ns = 1000;
};

// The value of --json or --quantum-ns at argv[i] (i moves on to it): -1 to
// go on, else the exit status, after the message on stderr.
static int parse_option_value(int argc, char **argv, int &i, tb_args &a)
{
    if (i + 1 >= argc) {
        fprintf(stderr, "nicsim-systemc: %s needs a value\n%s", argv[i], usage);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[i], "--json")) {
        a.json = argv[++i];
        return -1;
    }
    char *e;
    a.quantum_ns = strtod(argv[++i], &e);
    if (*e || !(a.quantum_ns >= 1 && a.quantum_ns <= 1e9)) {
        fprintf(stderr, "nicsim-systemc: --quantum-ns: expected 1..1000000000 ns, got '%s'\n", argv[i]);
        return EXIT_USAGE;
    }
    return -1;
}

// The command line into a: -1 to go on, else the exit status (0 after
// --help's usage on stdout; a usage error's message goes to stderr).
static int parse_args(int argc, char **argv, tb_args &a)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--quantum-ns")) {
            int rc = parse_option_value(argc, argv, i, a);
            if (rc >= 0)
                return rc;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "nicsim-systemc: unknown option '%s'\n%s", argv[i], usage);
            return EXIT_USAGE;
        } else if (!a.path) {
            a.path = argv[i];
        } else {
            a.ov.push_back(argv[i]);
        }
    }
    if (!a.path) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    return -1;
}

// The NIC module for the scenario; NULL, after the message on stderr, when
// it cannot be built (its engine refused the scenario, or the time
// resolution is not 1 ps).
static nicsim_nic *new_nic(const scenario *sc)
{
    try {
        return new nicsim_nic("nic", sc);
    } catch (const std::exception &e) {
        fprintf(stderr, "nicsim-systemc: %s\n", e.what());
        return nullptr;
    }
}

// Give each module its context and bind the sockets and interrupt lines:
// the CPU's BAR0 accesses and the link partners' frames into the NIC, its
// DMA into host memory, its transmitted frames into the taps.
static void connect_modules(cpu_initiator &cpu, nicsim_nic &nic, tb_cpus *cpus, host_memory &mem,
                            sc_vector<sc_signal<bool>> &irq, sc_vector<link_partner> &partners,
                            sc_vector<pcap_tap> &taps, ps_t quantum)
{
    mem.cpus = cpus;
    nic.dma.bind(mem.socket);
    cpu.nic = &nic;
    cpu.cpus = cpus;
    cpu.quantum = quantum;
    for (int f = 0; f < 2; f++) {
        cpu.mmio[f].bind(nic.bar0[f]);
        nic.irq[f].bind(irq[f]);
        cpu.irq[f].bind(irq[f]);
        partners[f].cpus = cpus;
        partners[f].port = f;
        partners[f].lookahead = 2 * quantum + 10 * PS_PER_US;
        partners[f].socket.bind(nic.eth_rx[f]);
        nic.eth_tx[f].bind(taps[f].socket);
        cpu.partners.push_back(&partners[f]);
    }
}

// A pcap per port that capture.pcap names, before the run: 0, or -1 after
// the message on stderr.
static int open_captures(sc_vector<pcap_tap> &taps, const tb_cpus *cpus)
{
    char err[1024];
    for (int f = 0; f < 2; f++) {
        const char *pcap = tb_cpus_pcap_path(cpus, f);
        if (pcap[0]) {
            taps[f].sink = link_sink_new(pcap, err, sizeof err);
            if (!taps[f].sink) {
                fprintf(stderr, "nicsim-systemc: %s\n", err);
                return -1;
            }
        }
    }
    return 0;
}

// What the SystemC side measured, for the report.
static tb_result run_result(const cpu_initiator &cpu, nicsim_nic &nic, double wall, double quantum_ns)
{
    tb_result r = {};
    r.sim_time_ps = cpu.end;
    r.wall_seconds = wall;
    r.late = cpu.late;
    r.quantum_ns = quantum_ns;
    r.stopped_early = cpu.stopped_early;
    for (int p = 0; p < 2; p++)
        r.wire_frames[p] = nic.wire_frames(p);
    return r;
}

// The report (stdout, and the JSON when asked), then whether the run did
// all it was asked, and exactly (no late observation): 0, or
// EXIT_RUN_FAILED after the messages on stderr.
static int report_run(tb_cpus *cpus, const tb_result &r, const char *json)
{
    char err[1024];
    int rc = 0;
    if (tb_cpus_report(cpus, &r, json, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim-systemc: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    char why[256];
    if (!tb_cpus_complete(cpus, r.stopped_early, why, sizeof why)) {
        fprintf(stderr, "nicsim-systemc: incomplete run: %s\n", why);
        rc = EXIT_RUN_FAILED;
    }
    if (r.late) {
        fprintf(stderr, "nicsim-systemc: %llu observations reached the NIC after its own time "
                        "(the run is not exact)\n", (unsigned long long)r.late);
        rc = EXIT_RUN_FAILED;
    }
    return rc;
}

// Complete the captures while the run has succeeded (rc 0); a failed run's
// are abandoned, so no pcap of it is left.  Returns rc, or EXIT_RUN_FAILED
// when a capture could not be completed.
static int close_captures(sc_vector<pcap_tap> &taps, int rc)
{
    for (int f = 0; f < 2; f++)
        if (taps[f].sink) {
            char err[1024];
            if (rc == 0 && link_sink_close(taps[f].sink, err, sizeof err) != 0) {
                fprintf(stderr, "nicsim-systemc: %s\n", err);
                rc = EXIT_RUN_FAILED;
            } else if (rc != 0) {
                link_sink_abort(taps[f].sink);
            }
            taps[f].sink = nullptr;
        }
    return rc;
}

int sc_main(int argc, char **argv)
{
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);    // "Simulation stopped by user"
    tb_args a;
    int status = parse_args(argc, argv, a);
    if (status >= 0)
        return status;
    char err[1024];
    std::unique_ptr<scenario, void (*)(scenario *)> sc(
        nicsim_scenario_load(a.path, (int)a.ov.size(), a.ov.data(), err, sizeof err), scenario_free);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    ps_t quantum = (ps_t)(a.quantum_ns * 1000.0 + 0.5);
    tlm::tlm_global_quantum::instance().set(ps_time(quantum));

    // the CPU first: its tb_bus is how the C side (tb_cpus, which checks the
    // scenario's app and CPUs) reaches the modules; then the NIC and its peers
    cpu_initiator cpu("cpu");
    tb_bus bus = { &cpu, cpu_initiator::b_sync, cpu_initiator::b_mmio_read, cpu_initiator::b_mmio_write,
                   cpu_initiator::b_irq_wait, cpu_initiator::b_partner_go, cpu_initiator::b_turn };
    std::unique_ptr<tb_cpus, void (*)(tb_cpus *)> cpus(tb_cpus_new(sc.get(), &bus, err, sizeof err), tb_cpus_free);
    if (!cpus) {
        fprintf(stderr, "nicsim-systemc: %s\n", err);
        return EXIT_USAGE;
    }
    std::unique_ptr<nicsim_nic> nic(new_nic(sc.get()));
    if (!nic)
        return EXIT_USAGE;
    host_memory mem("memory");
    sc_vector<sc_signal<bool>> irq("irq_line", 2);
    sc_vector<link_partner> partners("partner", 2);
    sc_vector<pcap_tap> taps("tap", 2);
    connect_modules(cpu, *nic, cpus.get(), mem, irq, partners, taps, quantum);
    if (open_captures(taps, cpus.get()) != 0)
        return EXIT_RUN_FAILED;

    double w0 = wall_now();
    sc_start();
    double wall = wall_now() - w0;
    cpu.detached = true;
    int rc = 0;
    if (cpu.app_failed) {
        fprintf(stderr, "nicsim-systemc: %s\n", cpu.app_error.c_str());
        rc = EXIT_RUN_FAILED;
    }
    tb_result r = run_result(cpu, *nic, wall, a.quantum_ns);
    if (rc == 0)
        rc = report_run(cpus.get(), r, a.json);
    return close_captures(taps, rc);
}

// Our own main: the SystemC banner is printed before sc_main, so it is
// switched off here (output users paste should hold results only).
int main(int argc, char **argv)
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
