/* Scenario files: every error class with its exact "file:line: message",
 * overrides, defaults, each value type and its limits, comments, whitespace. */
#include "gtest_cunit.h"
#include "../../sim/scenario/scenario.h"

#include <CUnit/CUnit.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const scenario_key schema[] = {
    {"system", "duration_ps", SCN_UINT, "1000000", "1", NULL, NULL, "simulated time in ps"},
    {"system", "seed", SCN_INT, "1", NULL, NULL, NULL, "PRNG seed"},
    {"nic", "ring", SCN_UINT, "256", "8", "4096", NULL, "descriptors per ring"},
    {"nic", "model", SCN_ENUM, "82546", NULL, NULL, "82546|82599", "personality"},
    {"nic", "prefetch", SCN_BOOL, "false", NULL, NULL, NULL, "prefetch the next descriptor"},
    {"nic", "offset", SCN_INT, "0", "-100", "100", NULL, "a signed knob"},
    {"traffic", "rate_gbps", SCN_DOUBLE, "1.0", "0", "100", NULL, "offered load"},
    {"traffic", "pcap", SCN_STRING, "", NULL, NULL, NULL, "replay file"},
};
#define NKEYS (sizeof schema / sizeof schema[0])

static char dir[64];
static char path[128];
static char err[512];

static int suite_init(void)
{
    snprintf(dir, sizeof dir, "/tmp/nicsim_scenario_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/s.ini", dir);
    return 0;
}

static int suite_cleanup(void)
{
    unlink(path);
    return rmdir(dir) ? 1 : 0;
}

static void write_file(const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* Load path with optional overrides; returns the scenario or NULL with err. */
static scenario *load(const char *file_text, int nov, char *const *ov)
{
    scenario *sc = (scenario *)&sc; /* must come back NULL on error */
    if (file_text)
        write_file(file_text);
    err[0] = '\0';
    int rc = scenario_load(&sc, schema, NKEYS, file_text ? path : NULL, nov, ov, err, sizeof err);
    CU_ASSERT_EQUAL(rc, sc ? 0 : -1);
    if (rc == 0) { /* braces: CU_ASSERT is a block, not an expression */
        CU_ASSERT_STRING_EQUAL(err, "");
    } else {
        CU_ASSERT_PTR_NULL(sc);
    }
    return sc;
}

/* The error text of loading file_text, with "PATH" standing for the path. */
static void expect_file_error(const char *file_text, const char *want_after_path)
{
    char want[600];
    snprintf(want, sizeof want, "%s%s", path, want_after_path);
    scenario *sc = load(file_text, 0, NULL);
    CU_ASSERT_PTR_NULL(sc);
    CU_ASSERT_STRING_EQUAL(err, want);
    if (strcmp(err, want))
        fprintf(stderr, "  got:  %s\n  want: %s\n", err, want);
    scenario_free(sc);
}

static void expect_override_error(const char *ov, const char *want)
{
    char *const ovs[] = {(char *)ov};
    scenario *sc = load(NULL, 1, ovs);
    CU_ASSERT_PTR_NULL(sc);
    CU_ASSERT_STRING_EQUAL(err, want);
    if (strcmp(err, want))
        fprintf(stderr, "  got:  %s\n  want: %s\n", err, want);
    scenario_free(sc);
}

/* A single override that must be accepted. */
static scenario *with(const char *ov)
{
    char *const ovs[] = {(char *)ov};
    scenario *sc = load(NULL, 1, ovs);
    CU_ASSERT_PTR_NOT_NULL(sc);
    if (!sc)
        fprintf(stderr, "  rejected %s: %s\n", ov, err);
    return sc;
}

static void test_defaults(void)
{
    scenario *sc = load(NULL, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(scenario_uint(sc, "system", "duration_ps"), 1000000);
    CU_ASSERT_EQUAL(scenario_int(sc, "system", "seed"), 1);
    CU_ASSERT_EQUAL(scenario_uint(sc, "nic", "ring"), 256);
    CU_ASSERT_STRING_EQUAL(scenario_str(sc, "nic", "model"), "82546");
    CU_ASSERT_EQUAL(scenario_bool(sc, "nic", "prefetch"), 0);
    CU_ASSERT_EQUAL(scenario_int(sc, "nic", "offset"), 0);
    CU_ASSERT_DOUBLE_EQUAL(scenario_double(sc, "traffic", "rate_gbps"), 1.0, 0.0);
    CU_ASSERT_STRING_EQUAL(scenario_str(sc, "traffic", "pcap"), "");
    CU_ASSERT_EQUAL(scenario_line(sc, "nic", "ring"), 0);
    CU_ASSERT_PTR_NULL(scenario_path(sc));
    scenario_free(sc);
}

static void test_file_values_and_lines(void)
{
    scenario *sc = load("; a scenario\n"
                        "# another comment style\n"
                        "\n"
                        "[system]\n"
                        "seed=-42\n"
                        "duration_ps   =   0x10   \n"
                        "[nic]\n"
                        "ring = 4096 ; inline comment\n"
                        "model = 82599 # inline comment, '#' style\n"
                        "prefetch = yes\n"
                        "[traffic]\n"
                        "rate_gbps = 2.5e1\n"
                        "pcap = /tmp/in put.pcap\n",
                        0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(scenario_int(sc, "system", "seed"), -42);
    CU_ASSERT_EQUAL(scenario_uint(sc, "system", "duration_ps"), 16);
    CU_ASSERT_EQUAL(scenario_uint(sc, "nic", "ring"), 4096);
    CU_ASSERT_STRING_EQUAL(scenario_str(sc, "nic", "model"), "82599");
    CU_ASSERT_EQUAL(scenario_bool(sc, "nic", "prefetch"), 1);
    CU_ASSERT_DOUBLE_EQUAL(scenario_double(sc, "traffic", "rate_gbps"), 25.0, 0.0);
    CU_ASSERT_STRING_EQUAL(scenario_str(sc, "traffic", "pcap"), "/tmp/in put.pcap");
    CU_ASSERT_EQUAL(scenario_line(sc, "system", "seed"), 5);
    CU_ASSERT_EQUAL(scenario_line(sc, "system", "duration_ps"), 6);
    CU_ASSERT_EQUAL(scenario_line(sc, "nic", "model"), 9);
    CU_ASSERT_EQUAL(scenario_line(sc, "traffic", "pcap"), 13);
    CU_ASSERT_EQUAL(scenario_line(sc, "nic", "offset"), 0); /* default */
    CU_ASSERT_STRING_EQUAL(scenario_path(sc), path);
    scenario_free(sc);
}

/* libinih alone would read the indented "offset" line as a continuation of
 * "ring"'s value; indentation must not matter. */
static void test_indentation_and_crlf(void)
{
    scenario *sc = load("  [nic]\r\n"
                        "\tring = 16\r\n"
                        "    offset = -7\r\n"
                        "  ; indented comment\r\n"
                        "  # indented comment\r\n"
                        "[system]\r\n"
                        "seed = 9", /* no final newline */
                        0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(scenario_uint(sc, "nic", "ring"), 16);
    CU_ASSERT_EQUAL(scenario_int(sc, "nic", "offset"), -7);
    CU_ASSERT_EQUAL(scenario_line(sc, "nic", "offset"), 3);
    CU_ASSERT_EQUAL(scenario_int(sc, "system", "seed"), 9);
    CU_ASSERT_EQUAL(scenario_line(sc, "system", "seed"), 7);
    scenario_free(sc);
}

static void test_bom_and_empty_string(void)
{
    scenario *sc = load("\xEF\xBB\xBF[traffic]\npcap =\n", 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_STRING_EQUAL(scenario_str(sc, "traffic", "pcap"), "");
    CU_ASSERT_EQUAL(scenario_line(sc, "traffic", "pcap"), 2);
    scenario_free(sc);
}

static void test_cannot_open(void)
{
    char want[300];
    scenario *sc = (scenario *)&sc;
    snprintf(want, sizeof want, "%s/missing.ini: cannot open: No such file or directory", dir);
    char missing[200];
    snprintf(missing, sizeof missing, "%s/missing.ini", dir);
    CU_ASSERT_EQUAL(scenario_load(&sc, schema, NKEYS, missing, 0, NULL, err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(sc);
    CU_ASSERT_STRING_EQUAL(err, want);

    snprintf(want, sizeof want, "%s: cannot open: Is a directory", dir);
    CU_ASSERT_EQUAL(scenario_load(&sc, schema, NKEYS, dir, 0, NULL, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, want);

    if (geteuid() != 0) { /* root reads anything */
        write_file("[nic]\n");
        chmod(path, 0);
        snprintf(want, sizeof want, "%s: cannot open: Permission denied", path);
        CU_ASSERT_EQUAL(scenario_load(&sc, schema, NKEYS, path, 0, NULL, err, sizeof err), -1);
        CU_ASSERT_STRING_EQUAL(err, want);
        chmod(path, 0600);
    }
}

static void test_unknown_section(void)
{
    expect_file_error("[system]\nseed = 1\n\n[nics]\n",
                      ":4: unknown section [nics]; expected one of: system, nic, traffic");
    expect_file_error("[nic]\n[]\nring = 8\n",
                      ":2: unknown section []; expected one of: system, nic, traffic");
    expect_file_error("ring = 8\n", ":1: key 'ring' is outside any section");
}

static void test_unknown_key(void)
{
    expect_file_error("[nic]\nring = 8\nrign = 9\n",
                      ":3: unknown key 'rign' in [nic]; expected one of: ring, model, "
                      "prefetch, offset");
    /* keys are case-sensitive */
    expect_file_error("[system]\nSeed = 1\n",
                      ":2: unknown key 'Seed' in [system]; expected one of: duration_ps, seed");
    /* a key of another section: where it lives first */
    expect_file_error("[system]\nring = 8\n",
                      ":2: 'ring' is a key of [nic], not of [system]; [system] has: duration_ps, seed");
}

static void test_bad_values_in_file(void)
{
    expect_file_error("[nic]\nring = 5000\n",
                      ":2: nic.ring: expected an integer in [8, 4096], got '5000'");
    expect_file_error("[nic]\n\n\nring = lots ; comment\n",
                      ":4: nic.ring: expected an integer in [8, 4096], got 'lots'");
    expect_file_error("[system]\nseed = 1.5\n",
                      ":2: system.seed: expected an integer in [-9223372036854775808, "
                      "9223372036854775807], got '1.5'");
    expect_file_error("[system]\nduration_ps = 0\n",
                      ":2: system.duration_ps: expected an integer in [1, "
                      "18446744073709551615], got '0'");
    expect_file_error("[nic]\nprefetch = maybe\n",
                      ":2: nic.prefetch: expected a boolean (true/false, yes/no, on/off, "
                      "1/0), got 'maybe'");
    expect_file_error("[nic]\nmodel = 82598\n",
                      ":2: nic.model: expected one of 82546|82599, got '82598'");
    expect_file_error("[traffic]\nrate_gbps = fast\n",
                      ":2: traffic.rate_gbps: expected a number in [0, 100], got 'fast'");
    expect_file_error("[nic]\nring =\n", ":2: nic.ring: expected an integer in [8, 4096], got ''");
}

static void test_duplicate_key(void)
{
    expect_file_error("[nic]\nring = 8\n[system]\nseed = 2\n[nic]\nring = 16\n",
                      ":6: duplicate key 'ring' in [nic] (first set at line 2)");
}

static void test_syntax_error(void)
{
    expect_file_error("[nic]\nring = 8\n[system\nseed = 1\n", ":3: syntax error");
    expect_file_error("[nic]\njust some words\n", ":2: syntax error");
    /* the first problem in the file is the one reported */
    expect_file_error("[nic]\nring = 1\nnonsense\n",
                      ":2: nic.ring: expected an integer in [8, 4096], got '1'");
    expect_file_error("[nic]\nnonsense\nring = 1\n", ":2: syntax error");
}

static void test_line_too_long(void)
{
    char text[400];
    char want[100];
    int n = snprintf(text, sizeof text, "[traffic]\npcap = ");
    memset(text + n, 'x', SCENARIO_MAX_LINE - 7); /* exactly the limit */
    snprintf(text + n + SCENARIO_MAX_LINE - 7, sizeof text - (size_t)n - SCENARIO_MAX_LINE + 7,
             "\n");
    scenario *sc = load(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL(sc);
    if (sc)
        CU_ASSERT_EQUAL(strlen(scenario_str(sc, "traffic", "pcap")), SCENARIO_MAX_LINE - 7);
    scenario_free(sc);

    snprintf(text + n + SCENARIO_MAX_LINE - 7, sizeof text - (size_t)n - SCENARIO_MAX_LINE + 7,
             "y\n");
    snprintf(want, sizeof want, ":2: line too long (more than %d characters)", SCENARIO_MAX_LINE);
    expect_file_error(text, want);
}

static void test_overrides(void)
{
    char *const ovs[] = {"nic.ring=64", "system.seed = -3", "nic.ring=128", "traffic.pcap=a=b"};
    scenario *sc = load("[nic]\nring = 32\nmodel = 82599\n", 4, ovs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(scenario_uint(sc, "nic", "ring"), 128); /* the last one wins */
    CU_ASSERT_EQUAL(scenario_line(sc, "nic", "ring"), 0);
    CU_ASSERT_STRING_EQUAL(scenario_str(sc, "nic", "model"), "82599");
    CU_ASSERT_EQUAL(scenario_line(sc, "nic", "model"), 3);
    CU_ASSERT_EQUAL(scenario_int(sc, "system", "seed"), -3);
    CU_ASSERT_STRING_EQUAL(scenario_str(sc, "traffic", "pcap"), "a=b");
    scenario_free(sc);
}

/* scenario_where names the file's line, the override (its last value) or
 * the default, as an error message made after loading quotes it. */
static void test_where(void)
{
    char *const ovs[] = {"nic.ring=64", "nic.ring = 128"};
    scenario *sc = load("[nic]\nring = 32\nmodel = 82599\n", 2, ovs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    char w[600], want[600];
    scenario_where(sc, "nic", "ring", w, sizeof w);
    CU_ASSERT_STRING_EQUAL(w, "command line: 'nic.ring=128'");
    scenario_where(sc, "nic", "model", w, sizeof w);
    snprintf(want, sizeof want, "%s:3", path);
    CU_ASSERT_STRING_EQUAL(w, want);
    scenario_where(sc, "system", "seed", w, sizeof w);
    snprintf(want, sizeof want, "%s (default)", path);
    CU_ASSERT_STRING_EQUAL(w, want);
    scenario_free(sc);
    sc = load(NULL, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    scenario_where(sc, "nic", "ring", w, sizeof w);
    CU_ASSERT_STRING_EQUAL(w, "scenario (default)");
    scenario_free(sc);
}

static void test_override_errors(void)
{
    expect_override_error("nic.ring", "command line: 'nic.ring': expected section.key=value");
    expect_override_error("ring=5", "command line: 'ring=5': expected section.key=value");
    expect_override_error("nicc.ring=8", "command line: 'nicc.ring=8': unknown section [nicc]; "
                                         "expected one of: system, nic, traffic");
    expect_override_error("nic.rings=8", "command line: 'nic.rings=8': unknown key 'rings' in "
                                         "[nic]; expected one of: ring, model, prefetch, offset");
    expect_override_error("nic.ring=7", "command line: 'nic.ring=7': nic.ring: expected an "
                                        "integer in [8, 4096], got '7'");
    expect_override_error("nic.prefetch=2", "command line: 'nic.prefetch=2': nic.prefetch: "
                                            "expected a boolean (true/false, yes/no, on/off, "
                                            "1/0), got '2'");
    /* a good file does not hide a bad override */
    char *const ovs[] = {"nic.model=e1000"};
    scenario *sc = load("[nic]\nring = 32\n", 1, ovs);
    CU_ASSERT_STRING_EQUAL(err, "command line: 'nic.model=e1000': nic.model: expected one of "
                                "82546|82599, got 'e1000'");
    scenario_free(sc);
}

static void test_integer_syntax_and_limits(void)
{
    static const struct {
        const char *ov;
        int ok;
        uint64_t u;
    } ring[] = {
        {"nic.ring=8", 1, 8},          {"nic.ring=4096", 1, 4096},  {"nic.ring=7", 0, 0},
        {"nic.ring=4097", 0, 0},       {"nic.ring=0x1000", 1, 4096}, {"nic.ring=0X10", 1, 16},
        {"nic.ring=0x1001", 0, 0},     {"nic.ring=010", 1, 10},     {"nic.ring=1_000", 0, 0},
        {"nic.ring=1k", 0, 0},         {"nic.ring=+16", 0, 0},      {"nic.ring=-16", 0, 0},
        {"nic.ring=0x", 0, 0},         {"nic.ring=0x0x10", 0, 0},   {"nic.ring=16.0", 0, 0},
        {"nic.ring=1 6", 0, 0},        {"nic.ring=0xg", 0, 0},
    };
    for (size_t i = 0; i < sizeof ring / sizeof ring[0]; i++) {
        char *const ovs[] = {(char *)ring[i].ov};
        scenario *sc = load(NULL, 1, ovs);
        CU_ASSERT_EQUAL(sc != NULL, ring[i].ok);
        if (sc)
            CU_ASSERT_EQUAL(scenario_uint(sc, "nic", "ring"), ring[i].u);
        if ((sc != NULL) != ring[i].ok)
            fprintf(stderr, "  %s: %s\n", ring[i].ov, sc ? "accepted" : err);
        scenario_free(sc);
    }
    scenario *sc;
    sc = with("system.seed=-9223372036854775808");
    CU_ASSERT(sc && scenario_int(sc, "system", "seed") == INT64_MIN);
    scenario_free(sc);
    sc = with("system.seed=9223372036854775807");
    CU_ASSERT(sc && scenario_int(sc, "system", "seed") == INT64_MAX);
    scenario_free(sc);
    sc = with("system.seed=-0x10");
    CU_ASSERT(sc && scenario_int(sc, "system", "seed") == -16);
    scenario_free(sc);
    sc = with("system.duration_ps=18446744073709551615");
    CU_ASSERT(sc && scenario_uint(sc, "system", "duration_ps") == UINT64_MAX);
    scenario_free(sc);
    sc = with("system.duration_ps=0xffffffffffffffff");
    CU_ASSERT(sc && scenario_uint(sc, "system", "duration_ps") == UINT64_MAX);
    scenario_free(sc);
    sc = with("nic.offset=-100");
    CU_ASSERT(sc && scenario_int(sc, "nic", "offset") == -100);
    scenario_free(sc);
    expect_override_error("system.seed=9223372036854775808",
                          "command line: 'system.seed=9223372036854775808': system.seed: expected "
                          "an integer in [-9223372036854775808, 9223372036854775807], got "
                          "'9223372036854775808'");
    expect_override_error("system.seed=-9223372036854775809",
                          "command line: 'system.seed=-9223372036854775809': system.seed: "
                          "expected an integer in [-9223372036854775808, 9223372036854775807], "
                          "got '-9223372036854775809'");
    expect_override_error("system.duration_ps=18446744073709551616",
                          "command line: 'system.duration_ps=18446744073709551616': "
                          "system.duration_ps: expected an integer in [1, 18446744073709551615], "
                          "got '18446744073709551616'");
    expect_override_error("nic.offset=-101", "command line: 'nic.offset=-101': nic.offset: "
                                             "expected an integer in [-100, 100], got '-101'");
}

static void test_doubles(void)
{
    static const struct {
        const char *v;
        int ok;
        double d;
    } cases[] = {
        {"0", 1, 0.0},     {"100", 1, 100.0}, {"2.5", 1, 2.5},    {"1e1", 1, 10.0},
        {".5", 1, 0.5},    {"-0", 1, 0.0},    {"100.0001", 0, 0}, {"-1", 0, 0},
        {"nan", 0, 0},     {"inf", 0, 0},     {"1.5x", 0, 0},     {"", 0, 0},
        {"1,5", 0, 0},     {"1e999", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ov[64];
        snprintf(ov, sizeof ov, "traffic.rate_gbps=%s", cases[i].v);
        char *const ovs[] = {ov};
        scenario *sc = load(NULL, 1, ovs);
        CU_ASSERT_EQUAL(sc != NULL, cases[i].ok);
        if (sc)
            CU_ASSERT_DOUBLE_EQUAL(scenario_double(sc, "traffic", "rate_gbps"), cases[i].d, 0.0);
        if ((sc != NULL) != cases[i].ok)
            fprintf(stderr, "  %s: %s\n", ov, sc ? "accepted" : err);
        scenario_free(sc);
    }
}

static void test_bool_spellings(void)
{
    static const struct {
        const char *v;
        int b;
    } cases[] = {
        {"true", 1}, {"yes", 1}, {"on", 1},   {"1", 1},     {"TRUE", 1},  {"Yes", 1},
        {"false", 0}, {"no", 0},  {"off", 0}, {"0", 0},     {"OFF", 0},   {"False", 0},
        {"2", -1},   {"y", -1},  {"", -1},    {"truee", -1}, {"t", -1},   {"enable", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ov[64];
        snprintf(ov, sizeof ov, "nic.prefetch=%s", cases[i].v);
        char *const ovs[] = {ov};
        scenario *sc = load(NULL, 1, ovs);
        CU_ASSERT_EQUAL(sc != NULL, cases[i].b >= 0);
        if (sc)
            CU_ASSERT_EQUAL(scenario_bool(sc, "nic", "prefetch"), cases[i].b);
        scenario_free(sc);
    }
}

static void test_enum(void)
{
    scenario *sc = with("nic.model=82599");
    CU_ASSERT(sc && !strcmp(scenario_str(sc, "nic", "model"), "82599"));
    scenario_free(sc);
    sc = with("nic.model=82546");
    CU_ASSERT(sc && !strcmp(scenario_str(sc, "nic", "model"), "82546"));
    scenario_free(sc);
    /* neither a prefix, an extension nor the separator is a choice */
    const char *bad[] = {"8254", "825466", "82546|82599", "", "|"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char ov[64], want[200];
        snprintf(ov, sizeof ov, "nic.model=%s", bad[i]);
        snprintf(want, sizeof want,
                 "command line: '%s': nic.model: expected one of 82546|82599, got '%s'", ov,
                 bad[i]);
        expect_override_error(ov, want);
    }
}

static void test_print_schema(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(scenario_print_schema(f, schema, NKEYS, NULL, 0), 0);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[system]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[nic]\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[traffic]\n"));
    /* each key once, with type, default, range or choices, help */
    const char *ring = strstr(buf, "  ring ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ring);
    const char *eol = strchr(ring, '\n');
    char line[200];
    snprintf(line, sizeof line, "%.*s", (int)(eol - ring), ring);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "uint"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "256"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "[8, 4096]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "descriptors per ring"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "82546|82599"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"\"")); /* the empty default is visible */
    CU_ASSERT(strstr(buf, "[nic]") < ring);
    free(buf);
}

/* One section, wrapped: only [nic]'s keys, no line over the width, every
 * key's help there; an unknown section prints nothing and says so. */
static void test_print_schema_section_wrapped(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(scenario_print_schema(f, schema, NKEYS, "nic", 40), 0);
    CU_ASSERT_EQUAL(scenario_print_schema(f, schema, NKEYS, "nosuch", 40), -1);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[nic]\n"));
    CU_ASSERT_PTR_NULL(strstr(buf, "[system]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  ring  uint, default 256\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "range [8, 4096]"));
    for (const char *l = buf; *l;) {
        const char *e = strchr(l, '\n');
        CU_ASSERT_FATAL(e != NULL);
        CU_ASSERT(e - l <= 40);
        l = e + 1;
    }
    free(buf);
}

/* Run fn in a child; 1 if it died of SIGABRT. */
static int aborts(void (*fn)(const scenario *), const scenario *sc)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) /* keep the abort message quiet */
            _exit(0);
        fn(sc);
        _exit(0);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return 0;
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void read_unknown_key(const scenario *sc)
{
    (void)scenario_uint(sc, "nic", "nope");
}

static void read_wrong_type(const scenario *sc)
{
    (void)scenario_int(sc, "nic", "ring");
}

static void read_bool_as_string(const scenario *sc)
{
    (void)scenario_str(sc, "nic", "prefetch");
}

static void test_misuse_aborts(void)
{
    scenario *sc = load(NULL, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT(aborts(read_unknown_key, sc));
    CU_ASSERT(aborts(read_wrong_type, sc));
    CU_ASSERT(aborts(read_bool_as_string, sc));
    scenario_free(sc);
}

static void load_bad_schema(const scenario *unused)
{
    (void)unused;
    static const scenario_key bad[] = {
        {"nic", "ring", SCN_UINT, "5", "8", "4096", NULL, "default out of range"},
    };
    scenario *sc;
    scenario_load(&sc, bad, 1, NULL, 0, NULL, NULL, 0);
}

static void test_bad_schema_aborts(void)
{
    CU_ASSERT(aborts(load_bad_schema, NULL));
}

static void register_suites(void)
{
    CU_pSuite s = CU_add_suite("Scenario", suite_init, suite_cleanup);
    CU_add_test(s, "Defaults", test_defaults);
    CU_add_test(s, "FileValuesAndLines", test_file_values_and_lines);
    CU_add_test(s, "IndentationAndCrlf", test_indentation_and_crlf);
    CU_add_test(s, "BomAndEmptyString", test_bom_and_empty_string);
    CU_add_test(s, "CannotOpen", test_cannot_open);
    CU_add_test(s, "UnknownSection", test_unknown_section);
    CU_add_test(s, "UnknownKey", test_unknown_key);
    CU_add_test(s, "BadValuesInFile", test_bad_values_in_file);
    CU_add_test(s, "DuplicateKey", test_duplicate_key);
    CU_add_test(s, "SyntaxError", test_syntax_error);
    CU_add_test(s, "LineTooLong", test_line_too_long);
    CU_add_test(s, "Overrides", test_overrides);
    CU_add_test(s, "Where", test_where);
    CU_add_test(s, "OverrideErrors", test_override_errors);
    CU_add_test(s, "IntegerSyntaxAndLimits", test_integer_syntax_and_limits);
    CU_add_test(s, "Doubles", test_doubles);
    CU_add_test(s, "BoolSpellings", test_bool_spellings);
    CU_add_test(s, "Enum", test_enum);
    CU_add_test(s, "PrintSchema", test_print_schema);
    CU_add_test(s, "PrintSchemaSectionWrapped", test_print_schema_section_wrapped);
    CU_add_test(s, "MisuseAborts", test_misuse_aborts);
    CU_add_test(s, "BadSchemaAborts", test_bad_schema_aborts);
}

int main(int argc, char **argv)
{
    return gtest_cunit_main(argc, argv, register_suites);
}
