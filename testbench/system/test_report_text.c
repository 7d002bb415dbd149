/* System tests of what the text report tells without arithmetic by hand
 * (issue 22, item 4): the rate the link partners offered, next to what was
 * received, and where each capture went with its frame count.
 *
 * Suites:
 *   ReportText  the router with two captures: an "Offered by the link
 *               partners" line naming each input port's kpps and frames,
 *               a "Captured" line naming each file; neither line for
 *               pktgen without a capture; the CPU's per-packet cycles over
 *               the traffic window (82599 pktgen, 20,000 and 100,000
 *               packets: the same figures, the ~10 ms bring-up apart);
 *               the trust line of a CPU-limited run (estimated costs, or
 *               the profile's calibration), none when the wire limits;
 *               a run of a reference row the model does not reproduce
 *               names the row, and so does a sweep's table; a tx-ring
 *               limit sets the ring's wire time beside the reclaim interval
 */
#include "../unit/gtest_cunit.h"
#include "sys_harness.h"

#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
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

/* A run's JSON report, parsed (free with cJSON_Delete). */
static cJSON *load_json(const char *path)
{
    size_t len;
    char *text = sys_slurp(path, &len);
    REQUIRE(text, "%s: no JSON", path);
    cJSON *j = cJSON_Parse(text);
    free(text);
    REQUIRE(j, "%s: not JSON", path);
    return j;
}

/* CPU 0's traffic object of a run's JSON: its figure k1 (or k1.k2). */
static double traffic(const char *json_path, const char *k1, const char *k2)
{
    cJSON *j = load_json(json_path);
    const cJSON *t = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "cpus"), 0), "traffic");
    const cJSON *v = k2 ? cJSON_GetObjectItem(cJSON_GetObjectItem(t, k1), k2) : cJSON_GetObjectItem(t, k1);
    REQUIRE(cJSON_IsNumber(v), "%s: no cpus[0].traffic.%s%s%s", json_path, k1, k2 ? "." : "", k2 ? k2 : "");
    double d = v->valuedouble;
    cJSON_Delete(j);
    return d;
}

/* The 82599's bring-up (ixy's 10 ms reset settle and the link) spread over
 * 20,000 packets once made "idle" 1,500 cycles a packet; over the traffic
 * window the short and the long run give the same figures, and the
 * bring-up is timed apart. */
static void test_traffic_window(void)
{
    const char *dir = sys_tmpdir();
    static const char *const counts[] = { "pktgen.count=20000", "pktgen.count=100000" };
    double busy[2], idle[2];
    for (int i = 0; i < 2; i++) {
        char *json = sys_path(dir, i ? "b.json" : "a.json");
        sys_proc p;
        SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/ixgbe-pktgen.ini"), (char *)counts[i], "--json",
                json);
        CHECK(p.status == 0, "%s: exit status %d\n%s", p.cmd, p.status, p.err);
        CHECK(strstr(p.out, "ms of traffic\n") && strstr(p.out, "  not counted: bring-up 10."),
              "%s: no traffic window or bring-up line:\n%s", p.cmd, p.out);
        sys_proc_free(&p);
        busy[i] = traffic(json, "cycles_per_packet", "busy");
        idle[i] = traffic(json, "cycles_per_packet", "idle");
        double up = traffic(json, "bring_up_ns", NULL);
        CHECK(up > 10e6 && up < 11e6, "%s: bring-up %.0f ns, expected ixy's 10 ms settle and a little", json, up);
        CHECK(traffic(json, "packets", NULL) == (i ? 100000 : 20000), "%s: packets in the window", json);
    }
    CHECK(idle[0] < 50 && idle[1] < 50, "idle per packet %.1f and %.1f: bring-up counted in", idle[0], idle[1]);
    CHECK(busy[0] > 0.95 * busy[1] && busy[0] < 1.05 * busy[1], "busy per packet %.1f (20,000) vs %.1f (100,000)",
          busy[0], busy[1]);
}

/* A CPU-limited run says what its CPU profile rests on: the estimated
 * named costs it charged when the scenario names no calibration (the
 * fitted [cpu] defaults apart),
 * the calibration when it is; a run the wire limits says nothing of it. */
static void test_trust_marker(void)
{
    const char *dir = sys_tmpdir();
    char *json = sys_path(dir, "t.json");
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/e1000-pktgen.ini"), "driver.tx_prefetch=false",
            "pktgen.burst=1", "pktgen.count=20000", "--json", json);
    CHECK(strstr(p.out, "\nLimit: cpu (CPU0)\n") && strstr(p.out, "\n  trust     the scenario names no "
          "calibration (cpu.calibration = none): the rate rests on estimated costs: pktgen_pkt 600.0, napi_poll "),
          "%s: no trust line naming pktgen_pkt:\n%s", p.cmd, p.out);
    CHECK(!strstr(p.out, "the defaults fitted"), "%s: pktgen charged a fitted default?\n%s", p.cmd, p.out);
    sys_proc_free(&p);
    cJSON *j = load_json(json);
    const cJSON *tr = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "limit"), "trust");
    const cJSON *cal = cJSON_GetObjectItem(tr, "calibration");
    const cJSON *pk = cJSON_GetObjectItem(cJSON_GetObjectItem(tr, "estimated_costs"), "pktgen_pkt");
    CHECK(cJSON_IsString(cal) && !strcmp(cal->valuestring, "none") && cJSON_IsNumber(pk) && pk->valuedouble > 599.9 &&
          pk->valuedouble < 600.1, "%s: limit.trust is not calibration none with pktgen_pkt 600", json);
    cJSON_Delete(j);

    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/ixgbe-pktgen-2014.ini"), "pktgen.burst=1",
            "pktgen.count=20000");
    CHECK(strstr(p.out, "\n  trust     the CPU profile is calibrated: mmio_write_ns and cost_pktgen_pkt fitted to "
                        "seed 001's burst=1 and burst=2 rows"), "%s: no calibrated trust line:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
    /* a router written from scratch on the default CPU charges the two
     * fitted defaults: named apart from the estimates */
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/e1000-router.ini"), "cpu.calibration=none",
            "system.cards=1", "gen.count=20000");
    CHECK(strstr(p.out, "\nLimit: cpu") && strstr(p.out, " cycles a packet; stack_rx, ip_forward: the defaults "
                                                         "fitted to seed 000's first router row\n") &&
          !strstr(p.out, "estimated costs: stack_rx"), "%s: the fitted defaults not named apart:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/e1000-router.ini"), "cpu.calibration=none",
            "cpu.cost_ip_forward=600", "system.cards=1", "gen.count=20000");
    CHECK(strstr(p.out, "; stack_rx: the defaults fitted"), "%s: a changed cost still called fitted:\n%s", p.cmd,
          p.out);
    sys_proc_free(&p);
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/e1000-pktgen.ini"), "pktgen.count=20000");
    CHECK(strstr(p.out, "\nLimit: wire") && !strstr(p.out, "trust"), "%s: a trust line on a wire-limited run:\n%s",
          p.cmd, p.out);
    sys_proc_free(&p);
}

/* A run whose configuration is a reference row the model does not
 * reproduce (sim/report/not_reproduced.c: seed 002's pktgen with 256
 * descriptors) names the row in its text and JSON, whatever limits it and
 * however a value is written ("yes" for true); the same box with 4096
 * descriptors reclaimed in the transmit path, a row the model reproduces,
 * says nothing of it. */
static void test_not_reproduced_marker(void)
{
    const char *dir = sys_tmpdir();
    char *json = sys_path(dir, "n.json");
    const char *scn = sys_repo("testbench/scenarios/e1000-pktgen-2004.ini");
    sys_proc p;
    SYS_RUN(&p, "run", (char *)scn, "pktgen.count=2000", "driver.tx_prefetch=yes", "--json", json);
    CHECK(p.status == 0, "%s: exit status %d\n%s", p.cmd, p.status, p.err);
    CHECK(strstr(p.out, "\n  trust     the reference tables show the model does not reproduce this configuration:\n"
                        "            e1000-tx-prefetch-ringsize.csv row variant=tx_prefetch, pktgen_tx_kpps (OUT"),
          "%s: no trust line naming the tx_prefetch row:\n%s", p.cmd, p.out);
    CHECK(!strstr(p.out, "variant=vanilla"), "%s: the vanilla row named too:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
    cJSON *j = load_json(json);
    const cJSON *nr = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "limit"), "trust"),
                                          "not_reproduced");
    const cJSON *row = cJSON_GetObjectItem(cJSON_GetArrayItem(nr, 0), "row");
    CHECK(cJSON_GetArraySize(nr) == 1 && cJSON_IsString(row) && !strcmp(row->valuestring, "variant=tx_prefetch"),
          "%s: limit.trust.not_reproduced is not the one tx_prefetch row", json);
    cJSON_Delete(j);
    SYS_RUN(&p, "run", (char *)scn, "pktgen.count=2000", "driver.tx_prefetch=true", "driver.tx_ring=4096",
            "driver.tx_clean=xmit");
    CHECK(p.status == 0 && !strstr(p.out, "not reproduce"), "%s: a reproduced row marked:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
    /* a sweep's table marks the point, and only it */
    SYS_RUN(&p, "sweep", (char *)scn, "pktgen.count=500", "driver.tx_ring=256,4096");
    const char *mark = strstr(p.out, "  NOT REPRODUCED: e1000-tx-prefetch-ringsize.csv variant=vanilla\n");
    CHECK(p.status == 0 && mark && !strstr(mark + strlen("  NOT"), "NOT REPRODUCED"), "%s: not one marked point:\n%s", p.cmd,
          p.out);
    sys_proc_free(&p);
}

/* A TX ring too small for the reclaim interval: 256 64-byte frames are
 * 17.2 us of 10 GbE (256 x 84 bytes x 0.8 ns), and pktgen reclaims after
 * each TX interrupt, which EITR paces at 30 us; the limit block sets the two
 * side by side, so the tx-ring verdict explains itself. */
static void test_reclaim_line(void)
{
    const char *dir = sys_tmpdir();
    char *json = sys_path(dir, "r.json");
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo("testbench/scenarios/ixgbe-pktgen-2014.ini"), "driver.tx_ring=256",
            "pktgen.burst=32", "pktgen.count=20000", "--json", json);
    CHECK(p.status == 0, "%s: exit status %d\n%s", p.cmd, p.status, p.err);
    CHECK(strstr(p.out, "\nLimit: tx-ring") && strstr(p.out, "\n  reclaim   eth0: its 256 descriptors last 17.2 us on "
                                                          "the wire; reclaimed every "),
          "%s: no tx-ring limit with its reclaim line:\n%s", p.cmd, p.out);
    sys_proc_free(&p);
    cJSON *j = load_json(json);
    const cJSON *rc = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "limit"), "tx_reclaim");
    const cJSON *every = cJSON_GetObjectItem(rc, "every_us"), *ring = cJSON_GetObjectItem(rc, "ring");
    CHECK(cJSON_IsNumber(every) && every->valuedouble > 25 && every->valuedouble < 40 && cJSON_IsNumber(ring) &&
          ring->valuedouble == 256, "%s: limit.tx_reclaim is not ring 256 reclaimed about every 30 us", json);
    cJSON_Delete(j);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("ReportText", NULL, sys_cleanup);
    CU_add_test(s, "OfferedAndCaptured", test_offered_and_captured);
    CU_add_test(s, "TrafficWindow", test_traffic_window);
    CU_add_test(s, "TrustMarker", test_trust_marker);
    CU_add_test(s, "NotReproducedMarker", test_not_reproduced_marker);
    CU_add_test(s, "ReclaimLine", test_reclaim_line);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
