/* The GoogleTest front end: the --gtest_filter matcher, XML escaping, and the
 * whole command line, by running this binary again on its two Probe tests
 * (one of which fails when the environment asks it to). */
#include "gtest_cunit.h"

#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define M(filter, name) gtest_cunit_match(filter, name)

static void test_match_literal(void)
{
    CU_ASSERT(M("Suite.Test", "Suite.Test"));
    CU_ASSERT(!M("Suite.Test", "Suite.Tes"));
    CU_ASSERT(!M("Suite.Test", "Suite.Test2"));
    CU_ASSERT(!M("Suite.Test", "suite.test")); /* case-sensitive */
    CU_ASSERT(!M("Suite.Test", "XSuite.Test"));
    CU_ASSERT(!M("Suite.Test", "Suite_Test")); /* '.' is not a wildcard */
}

static void test_match_star(void)
{
    CU_ASSERT(M("*", "A.b"));
    CU_ASSERT(M("*", ""));
    CU_ASSERT(M("**", "A.b"));
    CU_ASSERT(M("A.*", "A.b"));
    CU_ASSERT(M("A.*", "A."));
    CU_ASSERT(!M("A.*", "B.b"));
    CU_ASSERT(!M("A.*", "AA.b"));
    CU_ASSERT(M("*.Ok", "Alpha.Ok"));
    CU_ASSERT(!M("*.Ok", "Alpha.Ok2"));
    CU_ASSERT(M("*Ok*", "Alpha.NotOkay"));
    CU_ASSERT(M("A*b*c", "Abc"));
    CU_ASSERT(M("A*b*c", "AxxbyycZc"));
    CU_ASSERT(!M("A*b*c", "AxxbyycZ"));
    /* needs backtracking past a first partial match */
    CU_ASSERT(M("*ab", "aab"));
    CU_ASSERT(M("*aab", "aaab"));
    CU_ASSERT(M("a*a*a", "aaa"));
    CU_ASSERT(!M("a*a*a", "aa"));
    CU_ASSERT(M("*a*b*", "xxaxxbxx"));
    CU_ASSERT(!M("*a*b*", "xxbxxaxx"));
}

static void test_match_question(void)
{
    CU_ASSERT(M("A.?", "A.x"));
    CU_ASSERT(!M("A.?", "A."));
    CU_ASSERT(!M("A.?", "A.xy"));
    CU_ASSERT(M("A?b", "A.b")); /* '?' matches the dot too */
    CU_ASSERT(M("???", "abc"));
    CU_ASSERT(!M("???", "abcd"));
    CU_ASSERT(M("?*", "a"));
    CU_ASSERT(!M("?*", ""));
    CU_ASSERT(M("*?.T?st", "Suite.Test"));
}

static void test_match_lists(void)
{
    CU_ASSERT(M("A.x:B.*", "A.x"));
    CU_ASSERT(M("A.x:B.*", "B.y"));
    CU_ASSERT(!M("A.x:B.*", "A.y"));
    CU_ASSERT(M("A.x:B.y:C.z", "C.z"));
    /* an empty pattern matches only an empty name, never a test */
    CU_ASSERT(M("::A.x", "A.x"));
    CU_ASSERT(!M(":", "A.x"));
    CU_ASSERT(M("A.x:", "A.x"));
}

static void test_match_negative(void)
{
    CU_ASSERT(M("-B.*", "A.x"));
    CU_ASSERT(!M("-B.*", "B.x"));
    CU_ASSERT(M("*-A.x:A.y", "A.z"));
    CU_ASSERT(!M("*-A.x:A.y", "A.x"));
    CU_ASSERT(!M("*-A.x:A.y", "A.y"));
    CU_ASSERT(M("A.*-A.x", "A.y"));
    CU_ASSERT(!M("A.*-A.x", "A.x"));
    CU_ASSERT(!M("A.*-A.x", "B.y")); /* not in the positive part */
    CU_ASSERT(!M("A.*:B.*-*.Slow*", "B.SlowOne"));
    CU_ASSERT(M("A.*:B.*-*.Slow*", "B.Fast"));
    CU_ASSERT(M("A.*-", "A.x")); /* empty negative part removes nothing */
    CU_ASSERT(!M("-*", "A.x"));
}

static void test_match_empty_filter_is_everything(void)
{
    CU_ASSERT(M("", "A.x"));
    CU_ASSERT(M("", "Any.Thing"));
}

static void expect_escape(const char *in, const char *want)
{
    char *got = gtest_cunit_xml_escape(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, want);
    if (strcmp(got, want))
        fprintf(stderr, "  escape('%s') = '%s', want '%s'\n", in, got, want);
    free(got);
}

static void test_escape_entities(void)
{
    expect_escape("", "");
    expect_escape("plain text 123", "plain text 123");
    expect_escape("&", "&amp;");
    expect_escape("<", "&lt;");
    expect_escape(">", "&gt;");
    expect_escape("\"", "&quot;");
    expect_escape("'", "&apos;");
    expect_escape("a<b && c>\"d\"", "a&lt;b &amp;&amp; c&gt;&quot;d&quot;");
    expect_escape("&amp;", "&amp;amp;"); /* escaping is not idempotent */
    expect_escape("CU_ASSERT_STRING_EQUAL(\"a<b\",\"c\\\"d\")",
                  "CU_ASSERT_STRING_EQUAL(&quot;a&lt;b&quot;,&quot;c\\&quot;d&quot;)");
}

static void test_escape_whitespace_and_control(void)
{
    expect_escape("a\tb", "a&#x09;b");
    expect_escape("line1\nline2", "line1&#x0A;line2");
    expect_escape("cr\r\n", "cr&#x0D;&#x0A;");
    /* characters XML 1.0 cannot carry at all are dropped */
    expect_escape("a\x01\x02\x1b[0mb", "a[0mb");
    expect_escape("\x7f", "");
    expect_escape("\x1f ok", " ok");
}

static void test_escape_utf8_passes_through(void)
{
    expect_escape("caf\xC3\xA9 \xE2\x82\xAC", "caf\xC3\xA9 \xE2\x82\xAC");
}

static void test_escape_long_worst_case(void)
{
    enum { N = 5000 };
    char *in = malloc(N + 1), *want = malloc(6 * N + 1);
    CU_ASSERT_FATAL(in && want);
    for (int i = 0; i < N; i++) {
        in[i] = '"';
        memcpy(want + 6 * i, "&quot;", 6);
    }
    in[N] = '\0';
    want[6 * N] = '\0';
    expect_escape(in, want);
    free(in);
    free(want);
}

/* ---- the binary itself, end to end ------------------------------------ */

static void test_probe_passes(void)
{
    CU_ASSERT(1);
}

static void test_probe_fails_on_request(void)
{
    CU_ASSERT(getenv("GTEST_CUNIT_PROBE_FAIL") == NULL);
}

static char dir[64];

static int suite_init(void)
{
    snprintf(dir, sizeof dir, "/tmp/nicsim_gtest_cunit_XXXXXX");
    return mkdtemp(dir) ? 0 : 1;
}

static int suite_cleanup(void)
{
    static const char *const made[] = {"stdout.txt", "r.xml", "test_detail.xml"};
    char p[128];
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, made[i]);
        unlink(p);
    }
    return rmdir(dir) ? 1 : 0; /* fails if a report left a temporary file */
}

/* Run this binary with args (NULL-terminated); stdout+stderr into *out
 * (malloc'd).  Returns the exit status, or -1. */
static int run_self(const char *const *args, int fail, char **out)
{
    char log[128];
    snprintf(log, sizeof log, "%s/stdout.txt", dir);
    const char *argv[16] = {"test_gtest_cunit"};
    int n = 1;
    for (; args[n - 1] && n < 15; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            _exit(99);
        dup2(fd, 1);
        dup2(fd, 2);
        if (chdir(dir) != 0)
            _exit(99);
        unsetenv("GTEST_FILTER");
        unsetenv("GTEST_OUTPUT");
        if (fail)
            setenv("GTEST_CUNIT_PROBE_FAIL", "1", 1);
        execv("/proc/self/exe", (char *const *)argv);
        _exit(98);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    FILE *f = fopen(log, "r");
    *out = NULL;
    size_t cap = 0;
    if (f) {
        if (getdelim(out, &cap, '\0', f) < 0) {
            free(*out);
            *out = strdup("");
        }
        fclose(f);
    }
    return WEXITSTATUS(st);
}

static char *read_file(const char *name)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    if (!f)
        return NULL;
    char *s = NULL;
    size_t cap = 0;
    if (getdelim(&s, &cap, '\0', f) < 0) {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

#define CONTAINS(hay, needle) CU_ASSERT_PTR_NOT_NULL((hay) ? strstr((hay), (needle)) : NULL)

static void test_self_list_tests(void)
{
    char *out = NULL;
    const char *args[] = {"--gtest_list_tests", "--gtest_filter=GtestCunit.Probe*", NULL};
    CU_ASSERT_EQUAL(run_self(args, 0, &out), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_STRING_EQUAL(out, "GtestCunit.\n  ProbePasses\n  ProbeFailsOnRequest\n");
    free(out);
}

static void test_self_pass_and_fail(void)
{
    char *out = NULL;
    const char *args[] = {"--gtest_filter=GtestCunit.Probe*", "--gtest_output=xml:r.xml", NULL};
    CU_ASSERT_EQUAL(run_self(args, 0, &out), 0);
    CONTAINS(out, "[ RUN      ] GtestCunit.ProbePasses\n[       OK ] GtestCunit.ProbePasses (");
    CONTAINS(out, "Run Summary:");
    CONTAINS(out, "\n2 passed, 0 failed\n");
    free(out);

    CU_ASSERT_EQUAL(run_self(args, 1, &out), 1);
    CONTAINS(out, "[ RUN      ] GtestCunit.ProbeFailsOnRequest\n");
    CONTAINS(out, ": Failure\n  getenv(\"GTEST_CUNIT_PROBE_FAIL\") == NULL\n"
                  "[  FAILED  ] GtestCunit.ProbeFailsOnRequest (");
    CONTAINS(out, "\n1 passed, 1 failed\n");
    free(out);

    char *xml = read_file("r.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(xml);
    CONTAINS(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"2\" "
                  "failures=\"1\" disabled=\"0\" errors=\"0\" time=\"");
    CONTAINS(xml, "name=\"AllTests\">");
    CONTAINS(xml, "<testsuite name=\"GtestCunit\" tests=\"2\" failures=\"1\"");
    CONTAINS(xml, "<testcase name=\"ProbePasses\" classname=\"GtestCunit\" status=\"run\" "
                  "time=\"");
    CONTAINS(xml, "test_gtest_cunit.c:");
    CONTAINS(xml, ": getenv(&quot;GTEST_CUNIT_PROBE_FAIL&quot;) == NULL\" type=\"\"/>");
    CONTAINS(xml, "</testsuites>\n");
    free(xml);
}

static void test_self_filter_matching_nothing(void)
{
    char *out = NULL;
    const char *args[] = {"--gtest_filter=NoSuch.Test", NULL};
    CU_ASSERT_EQUAL(run_self(args, 0, &out), 0);
    CONTAINS(out, "Running 0 tests");
    CONTAINS(out, "\n0 passed, 0 failed\n");
    free(out);
}

static void test_self_usage(void)
{
    char *out = NULL;
    const char *bad[] = {"--no-such-flag", NULL};
    CU_ASSERT_EQUAL(run_self(bad, 0, &out), 2);
    CONTAINS(out, "usage:");
    free(out);

    const char *help[] = {"--help", NULL};
    CU_ASSERT_EQUAL(run_self(help, 0, &out), 0);
    CONTAINS(out, "--gtest_filter");
    free(out);

    /* unknown --gtest_ flags are tolerated, as tools pass them */
    const char *extra[] = {"--gtest_color=no", "--gtest_filter=GtestCunit.ProbePasses", NULL};
    CU_ASSERT_EQUAL(run_self(extra, 0, &out), 0);
    CONTAINS(out, "warning: ignoring unsupported flag --gtest_color=no");
    free(out);

    /* the default report name */
    const char *xml[] = {"--gtest_output=xml", "--gtest_filter=GtestCunit.ProbePasses", NULL};
    CU_ASSERT_EQUAL(run_self(xml, 0, &out), 0);
    free(out);
    char *report = read_file("test_detail.xml");
    CONTAINS(report, "<testcase name=\"ProbePasses\"");
    free(report);
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("GtestCunit", suite_init, suite_cleanup);
    CU_add_test(s, "MatchLiteral", test_match_literal);
    CU_add_test(s, "MatchStar", test_match_star);
    CU_add_test(s, "MatchQuestion", test_match_question);
    CU_add_test(s, "MatchLists", test_match_lists);
    CU_add_test(s, "MatchNegative", test_match_negative);
    CU_add_test(s, "MatchEmptyFilterIsEverything", test_match_empty_filter_is_everything);
    CU_add_test(s, "EscapeEntities", test_escape_entities);
    CU_add_test(s, "EscapeWhitespaceAndControl", test_escape_whitespace_and_control);
    CU_add_test(s, "EscapeUtf8PassesThrough", test_escape_utf8_passes_through);
    CU_add_test(s, "EscapeLongWorstCase", test_escape_long_worst_case);
    /* Probe* are run by the Self* tests in a child; in a plain run they pass. */
    CU_add_test(s, "ProbePasses", test_probe_passes);
    CU_add_test(s, "ProbeFailsOnRequest", test_probe_fails_on_request);
    CU_add_test(s, "SelfListTests", test_self_list_tests);
    CU_add_test(s, "SelfPassAndFail", test_self_pass_and_fail);
    CU_add_test(s, "SelfFilterMatchingNothing", test_self_filter_matching_nothing);
    CU_add_test(s, "SelfUsage", test_self_usage);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
