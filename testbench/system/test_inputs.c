/* System tests of what nicsim takes in (issue 19, classes 4, 5 and 6):
 * every value the schema accepts runs or is refused at load time with
 * file:line, the scenario reader refuses what it cannot read whole, and
 * nicsim-hw refuses a malformed device before it looks at any.
 *
 * Suites:
 *   SchemaAtLoad    rings per NIC model, the reclaim threshold, route-cache
 *                   buckets and microsecond overflow refused at load time
 *                   (exit 2) naming both keys and where each was set; the
 *                   app's and system's rules name where each of their keys
 *                   was set; a run that put nothing on the wire is not
 *                   complete; a datapath clock faster than the bus runs
 *   ScenarioReader  text after a section header, CR-only line ends, a NUL
 *                   byte: refused with file:line; /dev/zero and an oversized
 *                   file refused at once
 *   HwRefusals      malformed --pci devices: usage errors (exit 2); an app
 *                   the core does not run refused before the devices
 */
#include "../unit/gtest_cunit.h"
#include "sys_harness.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E1000 "testbench/scenarios/e1000-pktgen.ini"
#define IXGBE "testbench/scenarios/ixgbe-pktgen.ini"

static void expect(const sys_proc *p, int status, const char *starts, const char *says)
{
    CHECK(p->status == status, "%s: exit status %d, expected %d\nstderr:\n%s", p->cmd, p->status, status, p->err);
    CHECK(!starts || !strncmp(p->err, starts, strlen(starts)), "%s: stderr does not start with '%s':\n%s", p->cmd,
          starts, p->err);
    CHECK(!says || strstr(p->err, says), "%s: stderr does not say '%s':\n%s", p->cmd, says, p->err);
}

/* A scenario file of text in a fresh folder: its path. */
static char *scenario_file(const char *text, size_t len)
{
    char *path = sys_path(sys_tmpdir(), "s.ini");
    sys_write(path, text, len);
    return path;
}

/* ---- SchemaAtLoad -------------------------------------------------------- */

/* Values the schema's ranges let through but the NIC model's driver core
 * does not take: refused before anything is built, at the line that set
 * the value, naming the other key and where it was set. */
static void test_rings_per_model(void)
{
    static const char text[] = "[nic]\nmodel = 82599\n[driver]\ntx_ring = 100\n";
    char *f = scenario_file(text, sizeof text - 1);
    char starts[4200], says[4200];
    snprintf(starts, sizeof starts, "%s:4: driver.tx_ring: expected a multiple of 8 in [64, 4096], got '100'", f);
    snprintf(says, sizeof says, "(with nic.model = 82599, set at %s:2)", f);
    sys_proc p;
    SYS_RUN(&p, "run", f, "pktgen.count=100");
    expect(&p, 2, starts, says);
    sys_proc_free(&p);

    SYS_RUN(&p, "run", (char *)sys_repo(E1000), "driver.rx_ring=52", "system.app=sink");
    expect(&p, 2, "command line: 'driver.rx_ring=52': driver.rx_ring: expected a multiple of 8 in [48, 4096]",
           "nic.model = 82546, set at ");
    sys_proc_free(&p);

    SYS_RUN(&p, "run", (char *)sys_repo(IXGBE), "driver.rx_ring=48", "system.app=sink");
    expect(&p, 2, "command line: 'driver.rx_ring=48': driver.rx_ring: expected a power of 2", NULL);
    sys_proc_free(&p);

    /* the 82599's RX ring is a power of 2, its TX ring any multiple of 8 */
    SYS_RUN(&p, "run", (char *)sys_repo(IXGBE), "driver.rx_ring=96", "system.app=sink");
    expect(&p, 2, "command line: 'driver.rx_ring=96': driver.rx_ring: expected a power of 2 in [64, 4096]", NULL);
    sys_proc_free(&p);
}

static void test_other_setup_values(void)
{
    struct {
        const char *scn, *key, *starts, *says;
    } cases[] = {
        { E1000, "driver.tx_clean_thresh=4096", "command line: 'driver.tx_clean_thresh=4096': driver.tx_clean_thresh: "
                                         "expected fewer than driver.tx_ring", "driver.tx_ring = 256, set at " },
        { E1000, "router.rt_buckets=1000", "command line: 'router.rt_buckets=1000': router.rt_buckets: expected a power of 2",
          NULL },
        { E1000, "system.max_sim_us=18446744073710", "command line: 'system.max_sim_us=18446744073710': system.max_sim_us: "
                                              "expected an integer in [1, 1000000000000]", NULL },
        { E1000, "gen.start_us=18446744073710", "command line: 'gen.start_us=18446744073710': gen.start_us: expected an "
                                         "integer in [0, 1000000000000]", NULL },
        { E1000, "sink.drain_us=18446744073710", "command line: 'sink.drain_us=18446744073710': sink.drain_us: expected an "
                                          "integer in [0, 1000000000000]", NULL },
        { E1000, "pktgen.count=0", "command line: 'pktgen.count=0': pktgen.count: expected a packet count",
          "(with pktgen.duration_us = 0, set at " },
        /* the 82599's own: its 40-descriptor TX cache, a reclaim batch
         * within the ring, RCB within MPS */
        { IXGBE, "driver.tx_wthresh=63", "command line: 'driver.tx_wthresh=63': driver.tx_wthresh: expected tx_pthresh + "
                                  "tx_wthresh at most 40", "(with driver.tx_pthresh = 32, set at " },
        { IXGBE, "driver.tx_clean_batch=4096", "command line: 'driver.tx_clean_batch=4096': driver.tx_clean_batch: expected "
                                        "fewer descriptors than the TX ring", "(with driver.tx_ring = 512, set at " },
        { IXGBE, "pcie.rcb=512", "command line: 'pcie.rcb=512': pcie.rcb: expected at most pcie.mps",
          "(with pcie.mps = 256, set at " },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sys_proc p;
        SYS_RUN(&p, "run", (char *)sys_repo(cases[i].scn), (char *)cases[i].key);
        expect(&p, 2, cases[i].starts, cases[i].says);
        sys_proc_free(&p);
    }
}

/* Rules the app or the system checks once the scenario is loaded: the
 * message names every key involved and where each got its value. */
static void test_two_key_rules_located(void)
{
    char l3fwd_line[4200];
    snprintf(l3fwd_line, sizeof l3fwd_line, "system.app: %s:", sys_repo("testbench/scenarios/l3fwd.ini"));
    struct {
        const char *scn, *key, *says[2];
    } cases[] = {
        { E1000, "pktgen.ports=2", { "pktgen.ports: command line: 'pktgen.ports=2'", "system.cards: " } },
        { E1000, "cpu.ddio=true", { "cpu.ddio: command line: 'cpu.ddio=true'", "cpu.cache: " } },
        { "testbench/scenarios/l3fwd.ini", "nic.model=82546", { "nic.model: command line: 'nic.model=82546'",
                                                                l3fwd_line } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sys_proc p;
        SYS_RUN(&p, "run", (char *)sys_repo(cases[i].scn), (char *)cases[i].key);
        expect(&p, 2, NULL, cases[i].says[0]);
        expect(&p, 2, NULL, cases[i].says[1]);
        sys_proc_free(&p);
    }
    /* the same from the commands that build systems of their own: a
     * sweep's point and the l3fwd table */
    sys_proc p;
    SYS_RUN(&p, "sweep", (char *)sys_repo(E1000), "pktgen.ports=0,2", "pktgen.count=100");
    expect(&p, 1, NULL, "point 2 failed (exit status 2): pktgen.ports: '2' names no port");
    expect(&p, 1, NULL, "pktgen.ports: command line: 'pktgen.ports=2'");
    sys_proc_free(&p);
    SYS_RUN(&p, "l3fwd", (char *)sys_repo("testbench/scenarios/l3fwd.ini"), "nic.model=82546");
    expect(&p, 2, NULL, cases[2].says[0]);
    expect(&p, 2, NULL, cases[2].says[1]);
    sys_proc_free(&p);
}

/* All of the packet memory to RX: the NIC reports every descriptor done
 * and sends nothing.  The run did not do what was asked. */
static void test_complete_means_on_the_wire(void)
{
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo(E1000), "nic.pba_rx_kb=64", "pktgen.count=2000");
    expect(&p, 1, NULL, "incomplete run: eth0: 2000 packets handed to the NIC, 0 of them on the wire");
    sys_proc_free(&p);
}

/* A datapath clock faster than the bus can drain (the one-card forwarder
 * at nic.core_mhz = 250, which once aborted on the device adapter's
 * posted-write slots): the RTL waits for room and the run completes. */
static void test_fast_core_waits_for_bus(void)
{
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/ixy-fwd.ini"), "system.cards=1", "fwd.cards=1",
            "nic.core_mhz=250", "gen.count=20000");
    expect(&p, 0, NULL, NULL);
    CHECK(strstr(p.out, "cycles with a DMA write held back: 64 writes were outstanding on the bus") != NULL,
          "%s: the report does not say the RTL waited for the bus:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
}

/* ---- ScenarioReader ------------------------------------------------------ */

static void bad_text(const char *text, size_t len, const char *rest)
{
    char *f = scenario_file(text, len);
    char starts[4200];
    snprintf(starts, sizeof starts, "%s%s", f, rest);
    sys_proc p;
    SYS_RUN(&p, "run", f);
    expect(&p, 2, starts, NULL);
    sys_proc_free(&p);
}

static void test_text_after_header(void)
{
    static const char t[] = "[system]\nmax_sim_us = 1000\n[pktgen] count = 7\n";
    bad_text(t, sizeof t - 1, ":3: text after the section header [pktgen]: 'count = 7'");
}

static void test_cr_only_line_ends(void)
{
    static const char t[] = "[pktgen]\rcount = 7\r";
    bad_text(t, sizeof t - 1, ":1: a carriage return inside the line");
}

static void test_nul_byte(void)
{
    static const char t[] = "[pktgen]\ncount = 7\nsize = 64\0size = 1518\n";
    bad_text(t, sizeof t - 1, ":3: a NUL byte at column 10");
}

/* CR LF line ends are text like any other. */
static void test_crlf_accepted(void)
{
    static const char t[] = "[system]\r\nmax_sim_us = 100000\r\n[pktgen]\r\ncount = 7\r\n";
    char *f = scenario_file(t, sizeof t - 1);
    sys_proc p;
    SYS_RUN(&p, "run", f);
    expect(&p, 0, NULL, NULL);
    CHECK(strstr(p.out, "sent 7,") != NULL, "%s: did not send the 7 packets of the file:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
}

/* Inputs that never end or are not text: refused at once, not read. */
static void test_no_endless_input(void)
{
    sys_proc p;
    sys_opts o = { .timeout = 20 };
    SYS_RUN_OPTS(&p, &o, "run", "/dev/zero");
    expect(&p, 2, "/dev/zero: not a regular file (a character device)", NULL);
    sys_proc_free(&p);

    size_t len = 2u << 20;
    char *big = malloc(len);
    REQUIRE(big != NULL, "out of memory");
    for (size_t i = 0; i < len; i++)
        big[i] = i % 100 == 99 ? '\n' : ';';
    char *f = scenario_file(big, len);
    free(big);
    char starts[4200];
    snprintf(starts, sizeof starts, "%s:", f);
    SYS_RUN_OPTS(&p, &o, "run", f);
    expect(&p, 2, starts, "the file is larger than 1048576 bytes");
    sys_proc_free(&p);
}

/* ---- HwRefusals ---------------------------------------------------------- */

/* sscanf took a sign, 0x and spaces: each is a usage error (exit 2), said
 * before root or any device is looked at. */
/* An app the e1000 core does not run, with one device or with as many as
 * it would use: refused for the scenario (naming where system.app and
 * nic.model were set) before any device count or device is looked at. */
static void test_hw_app_refused_first(void)
{
    static const char *const pci[] = { "0000:00:01.0", "0000:00:01.0,0000:00:02.0,0000:00:03.0,0000:00:04.0" };
    for (size_t i = 0; i < sizeof pci / sizeof pci[0]; i++) {
        char *args[] = { (char *)sys_repo(E1000), "--pci", (char *)pci[i], "system.app=l3fwd", NULL };
        sys_proc p;
        sys_run(&p, sys_sibling("nicsim-hw"), args, NULL);
        expect(&p, 2, NULL, "nic.model: l3fwd runs on the ixgbe core");
        expect(&p, 2, NULL, "(system.app: command line: 'system.app=l3fwd'; nic.model: ");
        sys_proc_free(&p);
    }
}

static void test_hw_bad_pci(void)
{
    static const char *const bad[] = { "-1:00:00.0", "8086:100f@-1", "0x8086:100f", " 00:04.0", "00:20.0",
                                       "00:04.8", "8086:100f@", "0000:00:04.0,-1:00:00.0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *args[] = { (char *)sys_repo(E1000), "--pci", (char *)bad[i], NULL };
        sys_proc p;
        sys_run(&p, sys_sibling("nicsim-hw"), args, NULL);
        expect(&p, 2, "nicsim-hw: --pci: '", "expected a PCI address");
        sys_proc_free(&p);
    }
}

/* ---- registration -------------------------------------------------------- */

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("SchemaAtLoad", NULL, sys_cleanup);
    CU_add_test(s, "RingsPerNicModel", test_rings_per_model);
    CU_add_test(s, "OtherSetupValues", test_other_setup_values);
    CU_add_test(s, "TwoKeyRulesNameBothKeys", test_two_key_rules_located);
    CU_add_test(s, "CompleteMeansOnTheWire", test_complete_means_on_the_wire);
    CU_add_test(s, "FastCoreWaitsForBus", test_fast_core_waits_for_bus);
    s = CU_add_suite("ScenarioReader", NULL, sys_cleanup);
    CU_add_test(s, "TextAfterSectionHeader", test_text_after_header);
    CU_add_test(s, "CrOnlyLineEnds", test_cr_only_line_ends);
    CU_add_test(s, "NulByte", test_nul_byte);
    CU_add_test(s, "CrLfAccepted", test_crlf_accepted);
    CU_add_test(s, "NoEndlessInput", test_no_endless_input);
    s = CU_add_suite("HwRefusals", NULL, sys_cleanup);
    CU_add_test(s, "MalformedPciIsUsageError", test_hw_bad_pci);
    CU_add_test(s, "AppRefusedBeforeDevices", test_hw_app_refused_first);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
