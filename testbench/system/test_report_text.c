/* System tests of what the text report tells without arithmetic by hand
 * (issue 22, item 4): the rate the link partners offered, next to what was
 * received, and where each capture went with its frame count.
 *
 * Suites:
 *   ReportText  the router with two captures: an "Offered by the link
 *               partners" line naming each input port's kpps and frames,
 *               a "Captured" line naming each file; neither line for
 *               pktgen without a capture
 */
#include "../unit/gtest_cunit.h"
#include "sys_harness.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

/* gen.kpps = 500: 2000 frames over the span from the first arrival to the
 * last, as RX-kpps counts them (n / span: 500.250) */
static void test_offered_and_captured(void)
{
    const char *dir = sys_tmpdir();
    char cap[4200], want[8400];
    snprintf(cap, sizeof cap, "capture.pcap=%s", sys_path(dir, "r_{port}.pcap"));
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/e1000-router.ini"), "gen.count=2000", "gen.kpps=500",
            cap);
    CHECK(p.status == 0, "%s: exit status %d\n%s", p.cmd, p.status, p.err);
    CHECK(strstr(p.out, "\nOffered by the link partners: eth0 500.250 kpps (2000 frames), eth2 500.250 kpps "
                        "(2000 frames)\n") != NULL, "%s: no offered line:\n%s", p.cmd, p.out);
    snprintf(want, sizeof want, "\nCaptured: eth1 -> %s (2000 frames), eth3 -> %s (2000 frames)\n",
             sys_path(dir, "r_1.pcap"), sys_path(dir, "r_3.pcap"));
    CHECK(strstr(p.out, want) != NULL, "%s: no line\n  %s\nin:\n%s", p.cmd, want, p.out);
    CHECK(sys_exists(sys_path(dir, "r_1.pcap")) && sys_exists(sys_path(dir, "r_3.pcap")), "%s: the captures "
          "the report names are not there", p.cmd);
    sys_proc_free(&p);
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/e1000-pktgen.ini"), "pktgen.count=100");
    CHECK(p.status == 0 && !strstr(p.out, "Offered by") && !strstr(p.out, "Captured:"),
          "%s: an offered or captured line without partner or capture:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("ReportText", NULL, sys_cleanup);
    CU_add_test(s, "OfferedAndCaptured", test_offered_and_captured);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
