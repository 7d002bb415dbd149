/* GoogleTest's command line, console lines and XML report over CUnit 2.1-3.
 *
 * Tests are CUnit tests; this file only speaks GoogleTest's dialect so that
 * tools built for it (ctest's gtest_discover_tests, IDE runners, JUnit XML
 * readers in CI) work unchanged.  Selection is done with CUnit's own active
 * flags; per-test output comes from CUnit's run handlers; CUnit's own "Run
 * Summary" is still printed at the end because CI greps for it. */
#include "gtest_cunit.h"

#include <CUnit/TestDB.h>
#include <CUnit/TestRun.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- --gtest_filter ---------------------------------------------------- */

/* Glob match of [p, pe) against s: '*' any run, '?' one char.  Iterative with
 * one backtrack point (the last '*'), which is enough for glob patterns. */
static int glob_match(const char *p, const char *pe, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (p < pe && (*p == '?' || *p == *s)) {
            p++;
            s++;
        } else if (p < pe && *p == '*') {
            star = p++;
            resume = s;
        } else if (star) {
            p = star + 1;
            s = ++resume;
        } else {
            return 0;
        }
    }
    while (p < pe && *p == '*')
        p++;
    return p == pe;
}

/* Any of the ':'-separated patterns in [list, end) matches name. */
static int list_match(const char *list, const char *end, const char *name)
{
    for (const char *p = list;;) {
        const char *q = p;
        while (q < end && *q != ':')
            q++;
        if (glob_match(p, q, name))
            return 1;
        if (q >= end)
            return 0;
        p = q + 1;
    }
}

int gtest_cunit_match(const char *filter, const char *name)
{
    const char *dash = strchr(filter, '-');
    const char *pos_end = dash ? dash : filter + strlen(filter);
    int pos = pos_end == filter ? 1 : list_match(filter, pos_end, name);
    if (!pos || !dash)
        return pos;
    return !list_match(dash + 1, dash + 1 + strlen(dash + 1), name);
}

/* ---- XML text ---------------------------------------------------------- */

char *gtest_cunit_xml_escape(const char *s)
{
    size_t n = 1;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += 6; /* the longest replacement, "&quot;" or "&#x0A;" */
    char *out = malloc(n), *o = out;
    if (!out)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *rep = NULL;
        switch (*p) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&apos;"; break;
        case '\t': rep = "&#x09;"; break;
        case '\n': rep = "&#x0A;"; break;
        case '\r': rep = "&#x0D;"; break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                continue; /* not allowed in XML 1.0 (0x7f is allowed but is noise) */
            *o++ = (char)*p;
            continue;
        }
        size_t l = strlen(rep);
        memcpy(o, rep, l);
        o += l;
    }
    *o = '\0';
    return out;
}

/* ---- run state ---------------------------------------------------------- */

/* One line of the report: a test that ran, a test of a suite whose
 * initialization failed (not run, reported failed), or a failed suite
 * cleanup (reported as a pseudo test so CI shows it). */
enum result_kind { RES_TEST, RES_SUITE_INIT, RES_SUITE_CLEANUP };

typedef struct result {
    CU_pSuite suite;
    CU_pTest test; /* NULL for RES_SUITE_CLEANUP */
    enum result_kind kind;
    int failed;
    double sec;
} result;

static struct {
    result *res;
    size_t n, cap;
    int oom;
    double test_t0, suite_t0, all_t0;
    unsigned suite_tests; /* active tests of the running suite */
} run;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long ms(double sec)
{
    return (long)(sec * 1000.0);
}

static void add_result(CU_pSuite s, CU_pTest t, enum result_kind kind, int failed, double sec)
{
    if (run.n == run.cap) {
        size_t cap = run.cap ? run.cap * 2 : 64;
        result *r = realloc(run.res, cap * sizeof *r);
        if (!r) {
            run.oom = 1;
            return;
        }
        run.res = r;
        run.cap = cap;
    }
    run.res[run.n++] = (result){s, t, kind, failed, sec};
}

static unsigned active_tests(CU_pSuite s)
{
    unsigned n = 0;
    for (CU_pTest t = s->pTest; t; t = t->pNext)
        n += t->fActive ? 1 : 0;
    return n;
}

static const char *plural(unsigned n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* CUnit announces inactive (filtered-out) suites too; GoogleTest does not. */
static void on_suite_start(const CU_pSuite s)
{
    if (!s->fActive)
        return;
    run.suite_tests = active_tests(s);
    run.suite_t0 = now_s();
    printf("[----------] %u %s from %s\n", run.suite_tests,
           plural(run.suite_tests, "test", "tests"), s->pName);
    fflush(stdout);
}

static void on_test_start(const CU_pTest t, const CU_pSuite s)
{
    printf("[ RUN      ] %s.%s\n", s->pName, t->pName);
    fflush(stdout);
    run.test_t0 = now_s();
}

/* f is the first failure record of this test (NULL if none); the records
 * that follow it in CUnit's list belong to the same test. */
static void on_test_complete(const CU_pTest t, const CU_pSuite s, const CU_pFailureRecord f)
{
    double sec = now_s() - run.test_t0;
    int failed = 0;
    for (CU_pFailureRecord r = f; r; r = r->pNext) {
        if (r->pTest != t || r->type != CUF_AssertFailed)
            continue;
        printf("%s:%u: Failure\n  %s\n", r->strFileName ? r->strFileName : "?",
               r->uiLineNumber, r->strCondition ? r->strCondition : "");
        failed = 1;
    }
    printf("[%s] %s.%s (%ld ms)\n", failed ? "  FAILED  " : "       OK ", s->pName,
           t->pName, ms(sec));
    fflush(stdout);
    add_result(s, t, RES_TEST, failed, sec);
}

static void on_suite_complete(const CU_pSuite s, const CU_pFailureRecord f)
{
    (void)f;
    if (!s->fActive)
        return;
    printf("[----------] %u %s from %s (%ld ms total)\n\n", run.suite_tests,
           plural(run.suite_tests, "test", "tests"), s->pName, ms(now_s() - run.suite_t0));
    fflush(stdout);
}

/* CUnit skips the suite's tests; report each as failed so nothing silently
 * disappears from the counts. */
static void on_suite_init_failure(const CU_pSuite s)
{
    printf("%s: Failure\n  suite initialization failed\n", s->pName);
    for (CU_pTest t = s->pTest; t; t = t->pNext) {
        if (!t->fActive)
            continue;
        printf("[  FAILED  ] %s.%s (0 ms)\n", s->pName, t->pName);
        add_result(s, t, RES_SUITE_INIT, 1, 0.0);
    }
    fflush(stdout);
}

static void on_suite_cleanup_failure(const CU_pSuite s)
{
    printf("%s: Failure\n  suite cleanup failed\n[  FAILED  ] %s (suite cleanup)\n",
           s->pName, s->pName);
    fflush(stdout);
    add_result(s, NULL, RES_SUITE_CLEANUP, 1, 0.0);
}

/* ---- XML report --------------------------------------------------------- */

static void xml_attr(FILE *f, const char *name, const char *value)
{
    char *e = gtest_cunit_xml_escape(value);
    fprintf(f, " %s=\"%s\"", name, e ? e : "");
    free(e);
}

static void xml_failures(FILE *f, const result *r)
{
    char msg[64];
    if (r->kind != RES_TEST) {
        snprintf(msg, sizeof msg, "suite %s failed",
                 r->kind == RES_SUITE_INIT ? "initialization" : "cleanup");
        fputs("      <failure", f);
        xml_attr(f, "message", msg);
        fputs(" type=\"\"/>\n", f);
        return;
    }
    for (CU_pFailureRecord fr = CU_get_failure_list(); fr; fr = fr->pNext) {
        if (fr->pTest != r->test || fr->type != CUF_AssertFailed)
            continue;
        const char *file = fr->strFileName ? fr->strFileName : "?";
        const char *cond = fr->strCondition ? fr->strCondition : "";
        size_t l = strlen(file) + strlen(cond) + 32;
        char *m = malloc(l);
        if (!m)
            continue;
        snprintf(m, l, "%s:%u: %s", file, fr->uiLineNumber, cond);
        fputs("      <failure", f);
        xml_attr(f, "message", m);
        fputs(" type=\"\"/>\n", f);
        free(m);
    }
}

static void xml_write(FILE *f, double total_sec)
{
    unsigned tests = 0, failures = 0;
    for (size_t i = 0; i < run.n; i++) {
        tests++;
        failures += run.res[i].failed ? 1 : 0;
    }
    char stamp[32];
    time_t wall = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", localtime_r(&wall, &tm));
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites tests=\"%u\" failures=\"%u\" disabled=\"0\" errors=\"0\" "
               "time=\"%.3f\" timestamp=\"%s\" name=\"AllTests\">\n",
            tests, failures, total_sec, stamp);
    /* Results are in run order, so one suite's results are contiguous. */
    for (size_t i = 0; i < run.n;) {
        size_t j = i;
        unsigned st = 0, sf = 0;
        double ssec = 0;
        for (; j < run.n && run.res[j].suite == run.res[i].suite; j++) {
            st++;
            sf += run.res[j].failed ? 1 : 0;
            ssec += run.res[j].sec;
        }
        fputs("  <testsuite", f);
        xml_attr(f, "name", run.res[i].suite->pName);
        fprintf(f, " tests=\"%u\" failures=\"%u\" disabled=\"0\" errors=\"0\" time=\"%.3f\">\n",
                st, sf, ssec);
        for (; i < j; i++) {
            const result *r = &run.res[i];
            fputs("    <testcase", f);
            xml_attr(f, "name", r->test ? r->test->pName : "SuiteCleanup");
            xml_attr(f, "classname", r->suite->pName);
            /* "run" even for tests skipped by a failed suite init: readers
             * take "notrun" as disabled and might hide the failure. */
            fprintf(f, " status=\"run\" time=\"%.3f\"", r->sec);
            if (!r->failed) {
                fputs("/>\n", f);
                continue;
            }
            fputs(">\n", f);
            xml_failures(f, r);
            fputs("    </testcase>\n", f);
        }
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
}

/* Write to a temporary file next to path and rename it into place, so a
 * reader never sees a half-written report. */
static int xml_report(const char *path, double total_sec)
{
    size_t l = strlen(path);
    char *tmp = malloc(l + sizeof ".XXXXXX");
    if (!tmp)
        return -1;
    memcpy(tmp, path, l);
    memcpy(tmp + l, ".XXXXXX", sizeof ".XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file 0600; a report should have the usual mode. */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um) != 0) {
        /* harmless: the report is still complete, only less readable */
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    xml_write(f, total_sec);
    int bad = ferror(f) | fflush(f);
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(e));
        unlink(tmp);
    }
    free(tmp);
    return bad ? -1 : 0;
}

/* ---- command line -------------------------------------------------------- */

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--gtest_list_tests] [--gtest_filter=POS[-NEG]] "
            "[--gtest_output=xml[:FILE|:DIR/]]\n"
            "  --gtest_list_tests        list the tests (after the filter), run nothing\n"
            "  --gtest_filter=PATTERNS   run tests whose Suite.Test matches one of the\n"
            "                            ':'-separated positive patterns and none of the\n"
            "                            negative ones after '-'; '*' and '?' wildcards\n"
            "  --gtest_output=xml:FILE   write a JUnit XML report (default test_detail.xml;\n"
            "                            a DIR/ gets DIR/<program>.xml)\n"
            "  --help                    this text\n"
            "GTEST_FILTER and GTEST_OUTPUT in the environment act as the flags.\n"
            "Other --gtest_* flags are ignored with a warning.\n"
            "Exit status: 0 all tests that ran passed, 1 a test failed, 2 usage or CUnit error.\n",
            argv0);
}

/* The report path of a --gtest_output value, malloc'd; NULL (message
 * printed) for a format other than xml. */
static char *output_path(const char *v, const char *argv0)
{
    if (!strcmp(v, "xml"))
        return strdup("test_detail.xml");
    if (strncmp(v, "xml:", 4) || !v[4]) {
        fprintf(stderr, "error: --gtest_output=%s: only xml or xml:PATH is supported\n", v);
        return NULL;
    }
    v += 4;
    size_t l = strlen(v);
    if (v[l - 1] != '/')
        return strdup(v);
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    char *p = malloc(l + strlen(base) + sizeof ".xml");
    if (p)
        sprintf(p, "%s%s.xml", v, base);
    return p;
}

/* Activate exactly the tests that pass the filter and the suites that hold
 * one; returns the number of tests selected. */
static unsigned select_tests(const char *filter, unsigned *n_suites)
{
    unsigned n = 0;
    *n_suites = 0;
    for (CU_pSuite s = CU_get_registry()->pSuite; s; s = s->pNext) {
        unsigned in_suite = 0;
        for (CU_pTest t = s->pTest; t; t = t->pNext) {
            size_t l = strlen(s->pName) + strlen(t->pName) + 2;
            char *name = malloc(l);
            int on = 0;
            if (name) {
                snprintf(name, l, "%s.%s", s->pName, t->pName);
                on = gtest_cunit_match(filter, name);
                free(name);
            }
            CU_set_test_active(t, on ? CU_TRUE : CU_FALSE);
            in_suite += on ? 1 : 0;
        }
        CU_set_suite_active(s, in_suite ? CU_TRUE : CU_FALSE);
        n += in_suite;
        *n_suites += in_suite ? 1 : 0;
    }
    return n;
}

static void list_tests(void)
{
    for (CU_pSuite s = CU_get_registry()->pSuite; s; s = s->pNext) {
        if (!s->fActive)
            continue;
        printf("%s.\n", s->pName);
        for (CU_pTest t = s->pTest; t; t = t->pNext)
            if (t->fActive)
                printf("  %s\n", t->pName);
    }
}

static int cunit_error(const char *what)
{
    fprintf(stderr, "error: CUnit %s: %s\n", what, CU_get_error_msg());
    return 2;
}

int gtest_cunit_main(int argc, char **argv, void (*register_suites)(void))
{
    const char *argv0 = argc > 0 ? argv[0] : "test";
    const char *filter = getenv("GTEST_FILTER");
    const char *output = getenv("GTEST_OUTPUT");
    int list = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "-?")) {
            usage(stdout, argv0);
            return 0;
        } else if (!strcmp(a, "--gtest_list_tests")) {
            list = 1;
        } else if (!strncmp(a, "--gtest_filter=", 15)) {
            filter = a + 15;
        } else if (!strncmp(a, "--gtest_output=", 15)) {
            output = a + 15;
        } else if (!strncmp(a, "--gtest_", 8)) {
            fprintf(stderr, "warning: ignoring unsupported flag %s\n", a);
        } else {
            fprintf(stderr, "error: unknown argument '%s'\n", a);
            usage(stderr, argv0);
            return 2;
        }
    }
    if (!filter)
        filter = "*";
    char *xml_path = NULL;
    if (output && *output && !(xml_path = output_path(output, argv0)))
        return 2;

    if (CU_initialize_registry() != CUE_SUCCESS) {
        free(xml_path);
        return cunit_error("initialization");
    }
    register_suites();
    if (CU_get_error() != CUE_SUCCESS) {
        int rc = cunit_error("registration");
        CU_cleanup_registry();
        free(xml_path);
        return rc;
    }
    unsigned n_suites;
    unsigned n_tests = select_tests(filter, &n_suites);
    if (list) {
        list_tests();
        CU_cleanup_registry();
        free(xml_path);
        return 0;
    }

    /* Filtered-out tests are not failures. */
    CU_set_fail_on_inactive(CU_FALSE);
    CU_set_suite_start_handler(on_suite_start);
    CU_set_test_start_handler(on_test_start);
    CU_set_test_complete_handler(on_test_complete);
    CU_set_suite_complete_handler(on_suite_complete);
    CU_set_suite_init_failure_handler(on_suite_init_failure);
    CU_set_suite_cleanup_failure_handler(on_suite_cleanup_failure);

    if (strcmp(filter, "*"))
        printf("Note: Google Test filter = %s\n", filter);
    printf("[==========] Running %u %s from %u test %s.\n", n_tests,
           plural(n_tests, "test", "tests"), n_suites, plural(n_suites, "suite", "suites"));
    fflush(stdout);
    run.all_t0 = now_s();
    CU_ErrorCode rc = CU_run_all_tests();
    double total = now_s() - run.all_t0;
    /* Failed suite init/cleanup is a test failure, reported above; anything
     * else means CUnit itself could not run the tests. */
    if (rc != CUE_SUCCESS && rc != CUE_SINIT_FAILED && rc != CUE_SCLEAN_FAILED) {
        int r = cunit_error("run");
        CU_cleanup_registry();
        free(run.res);
        free(xml_path);
        return r;
    }

    unsigned passed = 0, failed = 0, broken_suites = 0;
    for (size_t i = 0; i < run.n; i++) {
        if (run.res[i].kind == RES_SUITE_CLEANUP)
            broken_suites++;
        else if (run.res[i].failed)
            failed++;
        else
            passed++;
    }
    printf("[==========] %u %s from %u test %s ran. (%ld ms total)\n", n_tests,
           plural(n_tests, "test", "tests"), n_suites, plural(n_suites, "suite", "suites"),
           ms(total));
    printf("[  PASSED  ] %u %s.\n", passed, plural(passed, "test", "tests"));
    if (failed) {
        printf("[  FAILED  ] %u %s, listed below:\n", failed, plural(failed, "test", "tests"));
        for (size_t i = 0; i < run.n; i++)
            if (run.res[i].failed && run.res[i].test)
                printf("[  FAILED  ] %s.%s\n", run.res[i].suite->pName, run.res[i].test->pName);
        printf("\n %u FAILED %s\n", failed, plural(failed, "TEST", "TESTS"));
    }
    if (n_tests == 0)
        printf("Note: no test matches the filter '%s'; nothing ran.\n", filter);
    printf("\n");
    CU_print_run_results(stdout);
    printf("\n");
    if (broken_suites)
        printf("%u %s failed in cleanup\n", broken_suites, plural(broken_suites, "suite", "suites"));
    printf("%u passed, %u failed\n", passed, failed);
    fflush(stdout);

    int status = (failed || broken_suites) ? 1 : 0;
    if (run.oom) {
        fprintf(stderr, "error: out of memory while recording results\n");
        status = 2;
    }
    if (xml_path && status != 2 && xml_report(xml_path, total) != 0)
        status = 2;
    CU_cleanup_registry();
    free(run.res);
    free(xml_path);
    return status;
}
