/* System tests of the run's warnings (issue 22, item 3: no silent no-ops):
 * what a scenario asks for that the run does not do as written is said on
 * stderr ("nicsim: warning: WHERE: ...", WHERE the file:line or the
 * command-line override) and listed under "warnings" in the JSON; a run
 * without any says nothing and its JSON has no "warnings" key.
 *
 * Suites:
 *   Warnings  a key the run never reads (another app's section, the other
 *             bus's; not the prefetch thresholds of a run with prefetch
 *             off, kept for the runs with it on), from a file (its
 *             line) and from the command line; more router CPUs than port
 *             pairs; a link partner's rate above the line rate; none for
 *             every scenario of testbench/scenarios at its defaults
 */
#include "../unit/gtest_cunit.h"
#include "sys_harness.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E1000 "testbench/scenarios/e1000-pktgen.ini"
#define IXGBE "testbench/scenarios/ixgbe-pktgen.ini"
#define ROUTER "testbench/scenarios/e1000-router.ini"

/* Run nicsim run SCENARIO with the overrides and --json; its stderr must
 * carry every warning of want (NULL-terminated), and the JSON each of them
 * too (as JSON strings: the quotes of a command-line override escaped). */
static void expect_warnings(const char *scn, char **ov, const char *const *want)
{
    const char *dir = sys_tmpdir();
    char *json = sys_path(dir, "r.json");
    char *args[16] = { "run", (char *)scn };
    int n = 2;
    for (int i = 0; ov[i]; i++)
        args[n++] = ov[i];
    args[n++] = "--json";
    args[n++] = json;
    args[n] = NULL;
    sys_proc p;
    sys_run(&p, sys_nicsim(), args, NULL);
    CHECK(p.status == 0, "%s: exit status %d\nstderr:\n%s", p.cmd, p.status, p.err);
    size_t len;
    char *j = sys_slurp(json, &len);
    REQUIRE(j, "%s: no JSON", p.cmd);
    for (int i = 0; want[i]; i++) {
        char line[1024];
        snprintf(line, sizeof line, "nicsim: warning: %s\n", want[i]);
        CHECK(strstr(p.err, line) != NULL, "%s: stderr does not say\n  %s\nstderr:\n%s", p.cmd, line, p.err);
        /* the same text in the JSON, with ' left as it is and no " in it */
        CHECK(strstr(j, want[i]) != NULL, "%s: the JSON's warnings do not hold\n  %s", p.cmd, want[i]);
    }
    int count = 0;
    for (const char *s = p.err; (s = strstr(s, "nicsim: warning: ")); s++)
        count++;
    int nwant = 0;
    while (want[nwant])
        nwant++;
    CHECK(count == nwant, "%s: %d warnings, expected %d\nstderr:\n%s", p.cmd, count, nwant, p.err);
    CHECK((nwant > 0) == (strstr(j, "\"warnings\"") != NULL), "%s: the JSON %s a \"warnings\" key", p.cmd,
          nwant ? "lacks" : "has");
    free(j);
    sys_proc_free(&p);
}

/* Another app's section, set on the command line and in a file. */
static void test_other_apps_section(void)
{
    char *ov[] = { "pktgen.count=200", "router.cpus=2", NULL };
    const char *const want[] = {
        "command line: 'router.cpus=2': router.cpus is not used by this run (system.app = pktgen)", NULL };
    expect_warnings(sys_repo(E1000), ov, want);

    char text[4200];
    snprintf(text, sizeof text, "[system]\napp = pktgen\n[pktgen]\ncount = 200\n[router]\ndrain_us = 5\n");
    char *f = sys_path(sys_tmpdir(), "s.ini");
    sys_write(f, text, strlen(text));
    char *none[] = { NULL };
    char w[4200];
    snprintf(w, sizeof w, "%s:6: router.drain_us is not used by this run (system.app = pktgen)", f);
    const char *const want2[] = { w, NULL };
    expect_warnings(f, none, want2);
}

/* The other bus's keys; a link partner's keys where the app has none. */
static void test_unread_keys(void)
{
    char *ov[] = { "pktgen.count=200", "bus.mhz=66", "gen.count=5", NULL };
    const char *const want[] = {
        "command line: 'bus.mhz=66': bus.mhz is not used by this run (nic.model = 82599 sits on PCIe ([pcie]))",
        "command line: 'gen.count=5': gen.count is not used by this run (system.app = pktgen has no link partner)",
        NULL };
    expect_warnings(sys_repo(IXGBE), ov, want);
    /* prefetch thresholds with prefetch off are kept for the runs with it
     * on (a tx_prefetch=true,false sweep): no warning */
    char *ov2[] = { "pktgen.count=200", "pcie.gen=1", "driver.tx_prefetch=false", "driver.tx_hthresh=4", NULL };
    const char *const want2[] = {
        "command line: 'pcie.gen=1': pcie.gen is not used by this run (nic.model = 82546 sits on PCI-X ([bus]))",
        NULL };
    expect_warnings(sys_repo(E1000), ov2, want2);
}

/* More router CPUs than port pairs; a rate above the line's (once per key,
 * not per port). */
static void test_more_than_can_be(void)
{
    char *ov[] = { "gen.count=200", "system.cards=1", "router.cpus=2", NULL };
    const char *const want[] = {
        "command line: 'router.cpus=2': router.cpus = 2, but system.cards = 1 gives 1 port pair: 1 CPU runs", NULL };
    expect_warnings(sys_repo(ROUTER), ov, want);
    char *ov2[] = { "gen.count=200", "gen.kpps=2000", NULL };
    const char *const want2[] = {
        "command line: 'gen.kpps=2000': gen.kpps = 2000 is above the line rate (1488.1 kpps of 64-byte frames at "
        "1 Gb/s): the link partner sends at line rate", NULL };
    expect_warnings(sys_repo(ROUTER), ov2, want2);
}

/* The scenarios the project ships use every key they set. */
static void test_shipped_scenarios_clean(void)
{
    static const char *const scn[] = { E1000, IXGBE, ROUTER, "testbench/scenarios/e1000-pktgen-2004.ini",
                                       "testbench/scenarios/e1000-router-2004.ini",
                                       "testbench/scenarios/ixgbe-pktgen-2014.ini",
                                       "testbench/scenarios/ixgbe-pktgen-napi.ini",
                                       "testbench/scenarios/ixgbe-pktgen-barcelona.ini",
                                       "testbench/scenarios/ixgbe-pktgen-phenom.ini",
                                       "testbench/scenarios/ixgbe-sink.ini", "testbench/scenarios/ixy-fwd.ini",
                                       "testbench/scenarios/l3fwd.ini" };
    for (size_t i = 0; i < sizeof scn / sizeof scn[0]; i++) {
        /* a shorter run: the count of the scenario's own traffic section */
        const char *count = strstr(scn[i], "pktgen") ? "pktgen.count=200" : "gen.count=200";
        char *ov[] = { (char *)count, NULL };
        const char *const none[] = { NULL };
        expect_warnings(sys_repo(scn[i]), ov, none);
    }
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Warnings", NULL, sys_cleanup);
    CU_add_test(s, "OtherAppsSection", test_other_apps_section);
    CU_add_test(s, "UnreadKeys", test_unread_keys);
    CU_add_test(s, "MoreThanCanBe", test_more_than_can_be);
    CU_add_test(s, "ShippedScenariosClean", test_shipped_scenarios_clean);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
