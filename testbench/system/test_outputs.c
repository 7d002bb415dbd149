/* System tests of what nicsim writes (issue 19, classes 1, 2, 3 and 7):
 * outputs never destroy what they did not create, a run that fails leaves
 * earlier outputs as they were, and an interrupted command or sweep leaves
 * no temporary file and no child running.
 *
 * Suites:
 *   Outputs       a FIFO written in place; a failed run and a failed capture
 *                 keep the earlier pcap and JSON (ENOSPC named); the same
 *                 file for two outputs, or the scenario as an output,
 *                 refused before running; stdout on /dev/full fails; SIGTERM
 *                 leaves no temporary file
 *   SweepOutputs  capture.pcap per point ({point}) or refused; the same key
 *                 twice, a --plot that is not .svg/.png and a --results that
 *                 is a file refused before any point runs
 *   RunLimits     a link that never comes up: bring-up ends at
 *                 system.max_sim_us and says so
 *   SweepSignals  SIGINT and SIGTERM stop the children, remove every
 *                 temporary file (in $TMPDIR), keep the points done in
 *                 --results and say so; exit 128 + the signal
 */
#include "../unit/gtest_cunit.h"
#include "sys_harness.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCENARIO "testbench/scenarios/e1000-pktgen.ini"

static char *kv(const char *key, const char *value)
{
    static char bufs[8][4200];
    static int next;
    char *b = bufs[next++ % 8];
    snprintf(b, sizeof bufs[0], "%s=%s", key, value);
    return b;
}

static void expect_status(const sys_proc *p, int status)
{
    CHECK(p->status == status, "%s: exit status %d, expected %d\nstderr:\n%s", p->cmd, p->status, status, p->err);
}

static void expect_says(const sys_proc *p, const char *what)
{
    CHECK(strstr(p->err, what) != NULL, "%s: stderr does not say '%s':\n%s", p->cmd, what, p->err);
}

static void expect_entries(const char *dir, const char *want, const char *after)
{
    const char *got = sys_entries(dir);
    CHECK(!strcmp(got, want), "after %s, %s holds '%s', expected '%s'", after, dir, got, want);
}

/* ---- Outputs ------------------------------------------------------------ */

/* A FIFO at the --json path stays a FIFO: the JSON goes through it to the
 * reader (the shell's `>` does the same), it is not replaced by a file. */
static void test_fifo_in_place(void)
{
    const char *dir = sys_tmpdir();
    char *fifo = sys_path(dir, "fifo"), *got = sys_path(dir, "got.json");
    REQUIRE(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
    fflush(NULL);
    pid_t reader = fork();
    REQUIRE(reader >= 0, "fork: %s", strerror(errno));
    if (reader == 0) {
        int in = open(fifo, O_RDONLY), out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        char buf[4096];
        ssize_t n;
        while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
            if (write(out, buf, (size_t)n) != n)
                _exit(1);
        _exit(in < 0 || out < 0);
    }
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo(SCENARIO), "pktgen.count=200", "--json", fifo);
    /* a reader whose FIFO no one opened for writing (nicsim failed, or
     * replaced the FIFO by a file) would wait for ever: 5 s, then it goes */
    int st;
    for (int i = 0; i < 500 && waitpid(reader, &st, WNOHANG) == 0; i++)
        usleep(10000);
    if (kill(reader, SIGKILL) == 0)
        waitpid(reader, &st, 0);
    expect_status(&p, 0);
    struct stat sb;
    CHECK(lstat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode), "%s: the FIFO at the --json path is no longer a FIFO",
          p.cmd);
    char *json = sys_slurp(got, NULL);
    CHECK(json && strstr(json, "\"ports\""), "%s: the reader of the FIFO did not get the JSON: '%s'", p.cmd,
          json ? json : "(nothing)");
    free(json);
    expect_entries(dir, "fifo got.json", p.cmd);
    sys_proc_free(&p);
}

/* Run the scenario with capture and JSON into dir (good.pcap, r.json). */
static void good_run(const char *dir)
{
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo(SCENARIO), "pktgen.count=200", kv("capture.pcap", sys_path(dir, "good.pcap")),
            "--json", sys_path(dir, "r.json"));
    REQUIRE(p.status == 0, "%s: exit status %d\nstderr:\n%s", p.cmd, p.status, p.err);
    sys_proc_free(&p);
}

static int same_bytes(const char *path, const char *bytes, size_t len)
{
    size_t n;
    char *now = sys_slurp(path, &n);
    int same = now && n == len && !memcmp(now, bytes, len);
    free(now);
    return same;
}

/* A run that fails (an RX ring the 82599's driver cannot take, refused
 * once the model is known) after a good one at the same paths: both files
 * are still the good run's. */
static void test_failed_run_keeps_outputs(void)
{
    const char *dir = sys_tmpdir();
    good_run(dir);
    size_t np, nj;
    char *pcap = sys_slurp(sys_path(dir, "good.pcap"), &np), *json = sys_slurp(sys_path(dir, "r.json"), &nj);
    REQUIRE(pcap && json && np > 24, "the good run wrote no capture or no JSON");
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo(SCENARIO), "pktgen.count=200", "nic.model=82599", "driver.rx_ring=96",
            kv("capture.pcap", sys_path(dir, "good.pcap")), "--json", sys_path(dir, "r.json"));
    CHECK(p.status == 1 || p.status == 2, "%s: exit status %d, expected a failure\nstderr:\n%s", p.cmd, p.status,
          p.err);
    CHECK(same_bytes(sys_path(dir, "good.pcap"), pcap, np), "%s: replaced the earlier capture", p.cmd);
    CHECK(same_bytes(sys_path(dir, "r.json"), json, nj), "%s: replaced the earlier JSON", p.cmd);
    expect_entries(dir, "good.pcap r.json", p.cmd);
    sys_proc_free(&p);
    free(pcap);
    free(json);
}

/* A capture that cannot be written (a link to /dev/full: written in place,
 * every write fails with ENOSPC) fails the run with that reason, and the
 * JSON (which would name the capture) is not written. */
static void test_failed_capture_fails_run(void)
{
    const char *dir = sys_tmpdir();
    char *full = sys_path(dir, "full.pcap");
    REQUIRE(symlink("/dev/full", full) == 0, "symlink: %s", strerror(errno));
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo(SCENARIO), "pktgen.count=2000", kv("capture.pcap", full), "--json",
            sys_path(dir, "r.json"));
    expect_status(&p, 1);
    expect_says(&p, "No space left on device");
    struct stat sb;
    CHECK(lstat(full, &sb) == 0 && S_ISLNK(sb.st_mode), "%s: the link at the capture path was replaced", p.cmd);
    expect_entries(dir, "full.pcap", p.cmd);
    sys_proc_free(&p);
}

/* Two outputs on one file, named alike or through a link, and an output on
 * the scenario file: refused before running (exit 2), nothing written. */
static void test_same_file_refused(void)
{
    const char *dir = sys_tmpdir();
    char *scn = sys_path(dir, "s.ini");
    size_t len;
    char *text = sys_slurp(sys_repo(SCENARIO), &len);
    REQUIRE(text != NULL, "cannot read %s", SCENARIO);
    sys_write(scn, text, len);
    REQUIRE(symlink("o.pcap", sys_path(dir, "link.json")) == 0, "symlink: %s", strerror(errno));
    struct {
        char *capture, *json;
        const char *says;
    } cases[] = {
        { sys_path(dir, "o.out"), sys_path(dir, "o.out"), "the same file for two outputs" },
        { sys_path(dir, "o.pcap"), sys_path(dir, "link.json"), "the same file for two outputs" },
        { NULL, scn, "that is the scenario" },
        { scn, sys_path(dir, "r.json"), "that is the scenario" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sys_proc p;
        if (cases[i].capture)
            SYS_RUN(&p, "run", scn, "pktgen.count=200", kv("capture.pcap", cases[i].capture), "--json", cases[i].json);
        else
            SYS_RUN(&p, "run", scn, "pktgen.count=200", "--json", cases[i].json);
        expect_status(&p, 2);
        expect_says(&p, cases[i].says);
        CHECK(same_bytes(scn, text, len), "%s: changed the scenario file", p.cmd);
        expect_entries(dir, "link.json s.ini", p.cmd);
        sys_proc_free(&p);
    }
    free(text);
}

/* The report on a stdout that cannot take it is a failure, with the reason. */
static void test_stdout_write_error(void)
{
    sys_proc p;
    sys_opts o = { .stdout_to = "/dev/full" };
    SYS_RUN_OPTS(&p, &o, "run", (char *)sys_repo(SCENARIO), "pktgen.count=200");
    expect_status(&p, 1);
    expect_says(&p, "standard output: cannot write: No space left on device");
    sys_proc_free(&p);
    char *help[] = { "--help", NULL };
    sys_run(&p, sys_sibling("nicsim-hw"), help, &o);
    expect_status(&p, 1);
    expect_says(&p, "nicsim-hw: standard output: cannot write: No space left on device");
    sys_proc_free(&p);
}

/* SIGTERM in the middle of a run with a capture and a JSON: it dies of the
 * signal and leaves nothing (no temporary file of tens of MB). */
static void test_sigterm_leaves_nothing(void)
{
    const char *dir = sys_tmpdir();
    sys_proc p;
    sys_opts o = { .signal_after = 1.5, .signal = SIGTERM };
    SYS_RUN_OPTS(&p, &o, "run", (char *)sys_repo(SCENARIO), "pktgen.count=5000000",
                 kv("capture.pcap", sys_path(dir, "p.pcap")), "--json", sys_path(dir, "r.json"));
    expect_status(&p, 128 + SIGTERM);
    expect_entries(dir, "", p.cmd);
    sys_proc_free(&p);
}

/* ---- SweepOutputs ------------------------------------------------------- */

/* Several points and one capture.pcap without {point}: refused before any
 * point runs; with {point}, a capture per point. */
static void test_sweep_capture_per_point(void)
{
    const char *dir = sys_tmpdir();
    sys_proc p;
    SYS_RUN(&p, "sweep", (char *)sys_repo(SCENARIO), "pktgen.size=64,1518", "pktgen.count=100",
            kv("capture.pcap", sys_path(dir, "c.pcap")), "-j", "2");
    expect_status(&p, 2);
    expect_says(&p, "{point}");
    expect_entries(dir, "", p.cmd);
    sys_proc_free(&p);

    SYS_RUN(&p, "sweep", (char *)sys_repo(SCENARIO), "pktgen.size=64,1518", "pktgen.count=100",
            kv("capture.pcap", sys_path(dir, "c{point}.pcap")), "-j", "2");
    expect_status(&p, 0);
    expect_entries(dir, "c1.pcap c2.pcap", p.cmd);
    struct stat a, b;
    CHECK(stat(sys_path(dir, "c1.pcap"), &a) == 0 && stat(sys_path(dir, "c2.pcap"), &b) == 0 &&
          a.st_size == 24 + 100 * (16 + 60) && b.st_size == 24 + 100 * (16 + 1514),
          "%s: the points' captures are not the 64- and the 1518-byte frames", p.cmd);
    sys_proc_free(&p);

    /* a point that does not finish is named with a command that runs it
     * alone: its own capture, not {point} (which `nicsim run` refuses) */
    SYS_RUN(&p, "sweep", (char *)sys_repo(SCENARIO), "pktgen.size=64,1518", "pktgen.count=100",
            "system.max_sim_us=20", kv("capture.pcap", sys_path(dir, "c{point}.pcap")));
    expect_status(&p, 1);
    char says[4200];
    snprintf(says, sizeof says, " capture.pcap=%s\n", sys_path(dir, "c2.pcap"));
    expect_says(&p, says);
    sys_proc_free(&p);
}

/* Mistakes a sweep used to find only at its end, or never: refused at once
 * (exit 2) whatever the points would cost, nothing written. */
static void test_sweep_refused_first(void)
{
    const char *dir = sys_tmpdir();
    sys_write(sys_path(dir, "file"), "x", 1);
    struct {
        char *args[8];
        const char *says;
    } cases[] = {
        { { "pktgen.size=64,128", "pktgen.size=1518", NULL }, "pktgen.size: given twice" },
        { { "pktgen.size=64,128", "--plot", sys_path(dir, "x.txt"), NULL }, "expected a file name ending in .svg" },
        { { "pktgen.size=64,128", "--results", sys_path(dir, "file"), NULL }, "not a folder" },
        { { "pktgen.size=64,128", "--csv", sys_path(dir, "o"), "--json", sys_path(dir, "o"), NULL },
          "the same file for two outputs" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *args[16] = { "sweep", (char *)sys_repo(SCENARIO), "pktgen.count=20000000" };
        int n = 3;
        for (char **a = cases[i].args; *a; a++)
            args[n++] = *a;
        args[n] = NULL;
        sys_proc p;
        sys_opts o = { .timeout = 60 };    /* the points would take many minutes */
        sys_run(&p, sys_nicsim(), args, &o);
        expect_status(&p, 2);
        expect_says(&p, cases[i].says);
        CHECK(!strstr(p.err, "kpps"), "%s: ran points before refusing:\n%s", p.cmd, p.err);
        expect_entries(dir, "file", p.cmd);
        sys_proc_free(&p);
    }
}

/* ---- SweepSignals ------------------------------------------------------- */

/* A sweep of long points, -j 2, stopped by sig: it exits with 128 + sig and
 * says so; when it has returned no child is left writing (nothing changes
 * in the folder afterwards), no temporary file is left (neither captures
 * nor the scratch folder in $TMPDIR), and --results is kept. */
static void sweep_stopped_by(int sig)
{
    const char *dir = sys_tmpdir();
    char *tmp = sys_path(dir, "tmp");
    REQUIRE(mkdir(tmp, 0700) == 0, "mkdir: %s", strerror(errno));
    char env[4200];
    snprintf(env, sizeof env, "TMPDIR=%s", tmp);
    char *envs[] = { env, NULL };
    sys_opts o = { .env = envs, .signal_after = 2.0, .signal = sig };
    sys_proc p;
    SYS_RUN_OPTS(&p, &o, "sweep", (char *)sys_repo(SCENARIO), "pktgen.size=64,128,256,512", "pktgen.count=5000000",
                 kv("capture.pcap", sys_path(dir, "c{point}.pcap")), "-j", "2", "--results", sys_path(dir, "res"));
    expect_status(&p, 128 + sig);
    CHECK(!p.left_running, "%s: children still running after the sweep returned", p.cmd);
    char says[64];
    snprintf(says, sizeof says, "stopped by SIG%s", sigabbrev_np(sig));
    expect_says(&p, says);
    expect_says(&p, "kept in");
    char before[8192];
    snprintf(before, sizeof before, "%s", sys_entries(dir));
    CHECK(!strcmp(before, "res tmp"), "%s: left '%s' in %s (expected only res and tmp)", p.cmd, before, dir);
    expect_entries(tmp, "", p.cmd);
    sleep(2);   /* a child still running would write its capture or point by now */
    expect_entries(dir, before, "two seconds more");
    sys_proc_free(&p);
}

static void test_sweep_sigint(void)
{
    sweep_stopped_by(SIGINT);
}

static void test_sweep_sigterm(void)
{
    sweep_stopped_by(SIGTERM);
}

/* ---- merge: a results folder holds one grid ------------------------------ */

/* Run line `line` of a jobs file (or all of them: line 0) with /bin/sh, as
 * GNU parallel would run each. */
static void run_jobs(const char *jobs, int line)
{
    char script[4400];
    if (line)
        snprintf(script, sizeof script, "sed -n '%dp' '%s' | sh", line, jobs);
    else
        snprintf(script, sizeof script, "sh '%s'", jobs);
    char *args[] = { "-c", script, NULL };
    sys_proc p;
    sys_run(&p, "/bin/sh", args, NULL);
    CHECK(p.status == 0, "%s: exit status %d\n%s", script, p.status, p.err);
    sys_proc_free(&p);
}

/* A grid emitted over an earlier one into the same jobs file: merge does
 * not take the earlier grid's point files for the new grid's (it names
 * them, stale, with their files, and exits 1); a point file with a
 * non-numeric rate is called corrupt; a file that is not JSON too. */
static void test_merge_refuses_stale_and_corrupt(void)
{
    const char *dir = sys_tmpdir();
    char *jobs = sys_path(dir, "j.jobs"), results[4200];
    snprintf(results, sizeof results, "%s.results", jobs);
    sys_proc p;
    SYS_RUN(&p, "sweep", (char *)sys_repo(SCENARIO), "pktgen.size=64,128,256", "pktgen.count=200", "--emit-jobs",
            jobs);
    expect_status(&p, 0);
    sys_proc_free(&p);
    run_jobs(jobs, 0);
    SYS_RUN(&p, "merge", results);
    expect_status(&p, 0);
    sys_proc_free(&p);

    SYS_RUN(&p, "sweep", (char *)sys_repo(SCENARIO), "pktgen.size=1024,1280,1518", "pktgen.count=200",
            "--emit-jobs", jobs);
    expect_status(&p, 0);
    sys_proc_free(&p);
    run_jobs(jobs, 1);
    SYS_RUN(&p, "merge", results);
    expect_status(&p, 1);
    expect_says(&p, "point-00002.json: stale or foreign: it ran pktgen.size=128, the grid's point 2 has "
                    "pktgen.size=1280");
    expect_says(&p, "point-00003.json: stale or foreign: it ran pktgen.size=256");
    CHECK(strstr(p.out, "1024") && !strstr(p.out, "452."), "%s: the table shows another grid's rate:\n%s", p.cmd,
          p.out);
    sys_proc_free(&p);

    const char *bad = "{\"point\": 1, \"pktgen.size\": 1024, \"pktgen.count\": 200, \"tx_pps\": \"abc\"}";
    sys_write(sys_path(results, "point-00001.json"), bad, strlen(bad));
    SYS_RUN(&p, "merge", results);
    expect_status(&p, 1);
    expect_says(&p, "point-00001.json: corrupt: \"tx_pps\" is missing or not a number");
    sys_proc_free(&p);
    sys_write(sys_path(results, "point-00001.json"), "{\"point\": 1,", 13);
    SYS_RUN(&p, "merge", results);
    expect_status(&p, 1);
    expect_says(&p, "point-00001.json: corrupt: not JSON");
    sys_proc_free(&p);
}

/* ---- RunLimits ------------------------------------------------------------ */

/* A link that never comes up: the driver's bring-up waits (2 s on the
 * 82546, 10 s on the 82599) end when the CPU reaches system.max_sim_us,
 * and the failure says so; without the limit the wait is the driver's. */
static void test_bring_up_stops_at_max_sim(void)
{
    static const char *const models[] = { "82546", "82599" };
    for (int i = 0; i < 2; i++) {
        const char *dir = sys_tmpdir();
        sys_proc p;
        SYS_RUN(&p, "run", (char *)sys_repo(SCENARIO), kv("nic.model", models[i]), "nic.link_up=false",
                "system.max_sim_us=3000", "--json", sys_path(dir, "r.json"));
        expect_status(&p, 1);
        expect_says(&p, "eth0: bring-up had not finished when the CPU reached system.max_sim_us = 3000");
        expect_says(&p, "no link");
        /* the driver's own report names the time it waited, not its bound */
        CHECK(!strstr(p.err, "after 2000000000 ns") && !strstr(p.err, "after 10000000000 ns"),
              "%s: the link wait ran to the driver's bound:\n%s", p.cmd, p.err);
        expect_entries(dir, "", p.cmd);
        sys_proc_free(&p);
    }
    sys_proc p;
    SYS_RUN(&p, "run", (char *)sys_repo(SCENARIO), "nic.link_up=false");
    expect_status(&p, 1);
    expect_says(&p, "e1000: link down after 2000000000 ns");
    CHECK(!strstr(p.err, "max_sim_us"), "%s: blamed system.max_sim_us:\n%s", p.cmd, p.err);
    sys_proc_free(&p);
}

/* ---- registration ------------------------------------------------------- */

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Outputs", NULL, sys_cleanup);
    CU_add_test(s, "FifoWrittenInPlace", test_fifo_in_place);
    CU_add_test(s, "FailedRunKeepsEarlierOutputs", test_failed_run_keeps_outputs);
    CU_add_test(s, "FailedCaptureFailsRunNoJson", test_failed_capture_fails_run);
    CU_add_test(s, "SameFileTwiceRefused", test_same_file_refused);
    CU_add_test(s, "StdoutWriteErrorFails", test_stdout_write_error);
    CU_add_test(s, "SigtermLeavesNothing", test_sigterm_leaves_nothing);
    s = CU_add_suite("SweepOutputs", NULL, sys_cleanup);
    CU_add_test(s, "CapturePerPoint", test_sweep_capture_per_point);
    CU_add_test(s, "RefusedBeforeAnyPoint", test_sweep_refused_first);
    CU_add_test(s, "MergeRefusesStaleAndCorruptPoints", test_merge_refuses_stale_and_corrupt);
    s = CU_add_suite("RunLimits", NULL, sys_cleanup);
    CU_add_test(s, "BringUpStopsAtMaxSim", test_bring_up_stops_at_max_sim);
    s = CU_add_suite("SweepSignals", NULL, sys_cleanup);
    CU_add_test(s, "SigintStopsChildren", test_sweep_sigint);
    CU_add_test(s, "SigtermStopsChildren", test_sweep_sigterm);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
