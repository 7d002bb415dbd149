/* nicsim command line: run, sweep, bench, keys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report.h"
#include "scenario_keys.h"
#include "system.h"

#define EXIT_RUN_FAILED 1
#define EXIT_USAGE 2

static const char usage[] =
    "usage: nicsim COMMAND ...\n"
    "\n"
    "  nicsim run SCENARIO.ini [section.key=value ...] [--json FILE]\n"
    "      Simulate one scenario; print per-port TX/RX kpps and Mbit/s, a netstat -i\n"
    "      style Kernel Interface table, interrupts, PCI-X bus utilization and each\n"
    "      CPU's cycles per packet by category.\n"
    "  nicsim sweep SCENARIO.ini key=v1,v2,... [key=... ...] [--csv FILE] [--json FILE]\n"
    "      Run every combination of the listed values (a key with one value is a plain\n"
    "      override) and print measured beside wire-speed packet rates.\n"
    "  nicsim bench SCENARIO.ini [section.key=value ...] [--json FILE]\n"
    "      Run once in a child process and report simulated packets per wall-clock\n"
    "      second, the slowdown against real time and the peak resident memory.\n"
    "  nicsim keys\n"
    "      List every scenario key with its type, default, range and meaning.\n"
    "\n"
    "Sizes are Ethernet frame sizes including the 4-byte FCS (64..1518).\n"
    "Exit status: 0 success, 1 the simulation failed, 2 bad command line or scenario.\n";

typedef struct cli {
    const char *cmd;
    const char *scenario;
    char **overrides;
    int n_overrides;
    const char *json;
    const char *csv;
} cli;

static int parse_cli(int argc, char **argv, cli *c)
{
    memset(c, 0, sizeof *c);
    c->overrides = calloc((size_t)argc + 1, sizeof *c->overrides);
    if (argc < 2)
        return -1;
    c->cmd = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json") || !strcmp(a, "--csv")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nicsim: %s needs a file name\n", a);
                return -1;
            }
            if (!strcmp(a, "--json"))
                c->json = argv[++i];
            else
                c->csv = argv[++i];
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            exit(0);
        } else if (a[0] == '-') {
            fprintf(stderr, "nicsim: unknown option '%s'\n", a);
            return -1;
        } else if (strchr(a, '=')) {
            c->overrides[c->n_overrides++] = argv[i];
        } else if (!c->scenario) {
            c->scenario = a;
        } else {
            fprintf(stderr, "nicsim: unexpected argument '%s' (overrides are section.key=value)\n", a);
            return -1;
        }
    }
    return 0;
}

/* "PATH:LINE" of a key, for messages about values that pass the schema but
 * not a cross-check. */
static void where(const scenario *sc, const char *sec, const char *key, char *out, size_t n)
{
    int line = scenario_line(sc, sec, key);
    if (line > 0)
        snprintf(out, n, "%s:%d", scenario_path(sc), line);
    else
        snprintf(out, n, "%s (default or command line)", scenario_path(sc));
}

/* Checks that need more than one key or a rule the schema cannot say. */
static int check_scenario(const scenario *sc, char *err, size_t n)
{
    char w[600];
    uint64_t ring = scenario_uint(sc, "driver", "tx_ring");
    if (ring % 8) {
        where(sc, "driver", "tx_ring", w, sizeof w);
        snprintf(err, n, "%s: driver.tx_ring: expected a multiple of 8 in [48, 4096], got '%llu'", w,
                 (unsigned long long)ring);
        return -1;
    }
    if (scenario_uint(sc, "pktgen", "count") == 0 && scenario_uint(sc, "pktgen", "duration_us") == 0) {
        where(sc, "pktgen", "count", w, sizeof w);
        snprintf(err, n, "%s: pktgen.count: expected a packet count when pktgen.duration_us is 0, got '0'", w);
        return -1;
    }
    return 0;
}

static scenario *load(const char *path, int n, char **ov, char *err, size_t errlen)
{
    scenario *sc = NULL;
    if (scenario_load(&sc, nicsim_keys, nicsim_n_keys, path, n, ov, err, errlen) != 0)
        return NULL;
    if (check_scenario(sc, err, errlen) != 0) {
        scenario_free(sc);
        return NULL;
    }
    return sc;
}

/* Build and run one scenario; on success *sys holds the results (free with system_free). */
static int simulate(nicsim_system *sys, const scenario *sc, char *err, size_t n)
{
    if (system_build(sys, sc, err, n) != 0) {
        char e2[256];
        system_free(sys, e2, sizeof e2);
        return -1;
    }
    if (system_run(sys, err, n) != 0) {
        char e2[256];
        system_free(sys, e2, sizeof e2);
        return -1;
    }
    return 0;
}

static int cmd_run(const cli *c)
{
    char err[1024];
    scenario *sc = load(c->scenario, c->n_overrides, c->overrides, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    nicsim_system sys;
    if (simulate(&sys, sc, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        scenario_free(sc);
        return EXIT_RUN_FAILED;
    }
    report_print(stdout, &sys, c->scenario);
    int rc = 0;
    if (c->json) {
        cJSON *j = report_json(&sys, c->scenario);
        if (report_write_json(c->json, j, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            rc = EXIT_RUN_FAILED;
        }
        cJSON_Delete(j);
    }
    if (system_free(&sys, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    scenario_free(sc);
    return rc;
}

/* ---------------- sweep ---------------- */

typedef struct sweep_key {
    char name[128];
    char *vals[256];
    int n;
} sweep_key;

static int parse_sweep(const cli *c, sweep_key *keys, int *nk)
{
    *nk = 0;
    for (int i = 0; i < c->n_overrides; i++) {
        if (*nk == 16) {
            fprintf(stderr, "nicsim: at most 16 swept keys\n");
            return -1;
        }
        sweep_key *k = &keys[(*nk)++];
        const char *eq = strchr(c->overrides[i], '=');
        snprintf(k->name, sizeof k->name, "%.*s", (int)(eq - c->overrides[i]), c->overrides[i]);
        char *list = strdup(eq + 1);
        k->n = 0;
        for (char *save = NULL, *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
            if (k->n == 256) {
                fprintf(stderr, "nicsim: %s: at most 256 values\n", k->name);
                return -1;
            }
            k->vals[k->n++] = v;
        }
        if (k->n == 0) {
            fprintf(stderr, "nicsim: '%s': expected key=v1,v2,...\n", c->overrides[i]);
            return -1;
        }
    }
    return 0;
}

/* Point idx of the cartesian product: the first key varies slowest. */
static void point_overrides(const sweep_key *keys, int nk, long idx, char bufs[][512], char **ov)
{
    for (int k = nk - 1; k >= 0; k--) {
        int v = (int)(idx % keys[k].n);
        idx /= keys[k].n;
        snprintf(bufs[k], 512, "%s=%s", keys[k].name, keys[k].vals[v]);
        ov[k] = bufs[k];
    }
}

static cJSON *typed_value(const char *v)
{
    char *end;
    double d = strtod(v, &end);
    if (*v && !*end)
        return cJSON_CreateNumber(d);
    return cJSON_CreateString(v);
}

static int write_text_atomic(const char *path, const char *text, char *err, size_t n)
{
    char tmp[1024];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        snprintf(err, n, "file name too long");
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, n, "%.900s: cannot create: %s", tmp, strerror(errno));
        return -1;
    }
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        snprintf(err, n, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

static int cmd_sweep(const cli *c)
{
    sweep_key keys[16];
    int nk;
    if (parse_sweep(c, keys, &nk) != 0)
        return EXIT_USAGE;
    if (nk == 0) {
        fprintf(stderr, "nicsim: sweep needs at least one key=v1,v2,...\n");
        return EXIT_USAGE;
    }
    long npts = 1;
    for (int k = 0; k < nk; k++)
        npts *= keys[k].n;
    char bufs[16][512];
    char *ov[16];
    char err[1024];
    /* check every point before running any, so a typo costs nothing */
    for (long i = 0; i < npts; i++) {
        point_overrides(keys, nk, i, bufs, ov);
        scenario *sc = load(c->scenario, nk, ov, err, sizeof err);
        if (!sc) {
            fprintf(stderr, "%s\n", err);
            return EXIT_USAGE;
        }
        scenario_free(sc);
    }

    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scenario", c->scenario);
    cJSON *points = cJSON_AddArrayToObject(root, "points");
    size_t csv_cap = 4096, csv_len = 0;
    char *csv = malloc(csv_cap);
    csv[0] = 0;
#define CSV(...) do { \
        int need_ = snprintf(NULL, 0, __VA_ARGS__); \
        while (csv_len + (size_t)need_ + 1 > csv_cap) csv = realloc(csv, csv_cap *= 2); \
        csv_len += (size_t)sprintf(csv + csv_len, __VA_ARGS__); } while (0)

    for (int k = 0; k < nk; k++) {
        printf("%-14s ", keys[k].name);
        CSV("%s,", keys[k].name);
    }
    printf("%12s %12s %8s %10s %10s\n", "TX-kpps", "wire-kpps", "%wire", "TX-Mbit/s", "TX-packets");
    CSV("tx_pps,wire_pps,pct_wire,tx_mbps,tx_packets\n");

    int rc = 0;
    for (long i = 0; i < npts; i++) {
        point_overrides(keys, nk, i, bufs, ov);
        fprintf(stderr, "[%ld/%ld]", i + 1, npts);
        for (int k = 0; k < nk; k++)
            fprintf(stderr, " %s", ov[k]);
        fprintf(stderr, " ...\n");
        scenario *sc = load(c->scenario, nk, ov, err, sizeof err);
        nicsim_system sys;
        if (!sc || simulate(&sys, sc, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: point %ld: %s\n", i + 1, err);
            rc = EXIT_RUN_FAILED;
            if (sc)
                scenario_free(sc);
            break;
        }
        int nports = sys.port[0].pktgen_on + sys.port[1].pktgen_on;
        double wire = nports * report_wire_pps(scenario_double(sc, "link", "gbps"),
                                               (unsigned)scenario_uint(sc, "pktgen", "size"));
        double pps = report_tx_pps(&sys);
        double mbps = 0;
        for (int p = 0; p < NIC_RTL_PORTS; p++)
            if (sys.port[p].pktgen_on && sys.port[p].wire.frames)
                mbps += link_wire_pps(&sys.port[p].wire) * 8e-6 *
                        ((double)sys.port[p].wire.frame_bytes / (double)sys.port[p].wire.frames);
        for (int k = 0; k < nk; k++) {
            const char *v = strchr(ov[k], '=') + 1;
            printf("%-14s ", v);
            CSV("%s,", v);
        }
        printf("%12.3f %12.3f %7.2f%% %10.2f %10llu\n", pps / 1e3, wire / 1e3, 100 * pps / wire, mbps,
               (unsigned long long)report_tx_packets(&sys));
        fflush(stdout);
        CSV("%.3f,%.3f,%.4f,%.3f,%llu\n", pps, wire, 100 * pps / wire, mbps,
            (unsigned long long)report_tx_packets(&sys));
        cJSON *pt = cJSON_CreateObject();
        for (int k = 0; k < nk; k++)
            cJSON_AddItemToObject(pt, keys[k].name, typed_value(strchr(ov[k], '=') + 1));
        cJSON_AddNumberToObject(pt, "wire_pps", wire);
        cJSON_AddItemToObject(pt, "run", report_json(&sys, c->scenario));
        cJSON_AddItemToArray(points, pt);
        if (system_free(&sys, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            rc = EXIT_RUN_FAILED;
        }
        scenario_free(sc);
    }
    if (rc == 0 && c->csv && write_text_atomic(c->csv, csv, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    if (rc == 0 && c->json && report_write_json(c->json, root, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    free(csv);
    cJSON_Delete(root);
    return rc;
#undef CSV
}

/* ---------------- bench ---------------- */

static int cmd_bench(const cli *c)
{
    char err[1024];
    scenario *sc = load(c->scenario, c->n_overrides, c->overrides, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    scenario_free(sc);
    /* the run happens in a child so that its peak RSS is its own */
    int fds[2];
    if (pipe(fds) != 0) {
        perror("nicsim: pipe");
        return EXIT_RUN_FAILED;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("nicsim: fork");
        return EXIT_RUN_FAILED;
    }
    if (pid == 0) {
        close(fds[0]);
        scenario *s2 = load(c->scenario, c->n_overrides, c->overrides, err, sizeof err);
        nicsim_system sys;
        if (!s2 || simulate(&sys, s2, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            _exit(EXIT_RUN_FAILED);
        }
        double res[3] = { (double)report_tx_packets(&sys), (double)sys.end_time / 1e12, sys.wall_seconds };
        if (write(fds[1], res, sizeof res) != (ssize_t)sizeof res)
            _exit(EXIT_RUN_FAILED);
        system_free(&sys, err, sizeof err);
        _exit(0);
    }
    close(fds[1]);
    double res[3];
    ssize_t got = read(fds[0], res, sizeof res);
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        got != (ssize_t)sizeof res) {
        fprintf(stderr, "nicsim: bench run failed\n");
        return EXIT_RUN_FAILED;
    }
    double pkts_per_s = res[2] > 0 ? res[0] / res[2] : 0;
    double slowdown = res[1] > 0 ? res[2] / res[1] : 0;
    double rss_mb = (double)ru.ru_maxrss / 1024.0;
    printf("%-40s %12.0f sim packets/s  slowdown %6.2fx  peak RSS %7.1f MB  (%0.f packets, %.3f s simulated, %.2f s wall)\n",
           c->scenario, pkts_per_s, slowdown, rss_mb, res[0], res[1], res[2]);
    if (c->json) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "scenario", c->scenario);
        cJSON *ovs = cJSON_AddArrayToObject(row, "overrides");
        for (int i = 0; i < c->n_overrides; i++)
            cJSON_AddItemToArray(ovs, cJSON_CreateString(c->overrides[i]));
        cJSON_AddNumberToObject(row, "sim_packets", res[0]);
        cJSON_AddNumberToObject(row, "sim_seconds", res[1]);
        cJSON_AddNumberToObject(row, "wall_seconds", res[2]);
        cJSON_AddNumberToObject(row, "sim_packets_per_s", pkts_per_s);
        cJSON_AddNumberToObject(row, "slowdown", slowdown);
        cJSON_AddNumberToObject(row, "peak_rss_mb", rss_mb);
        int rc = report_write_json(c->json, row, err, sizeof err);
        cJSON_Delete(row);
        if (rc) {
            fprintf(stderr, "nicsim: %s\n", err);
            return EXIT_RUN_FAILED;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli c;
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (parse_cli(argc, argv, &c) != 0) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    int rc;
    if (!strcmp(c.cmd, "keys")) {
        scenario_print_schema(stdout, nicsim_keys, nicsim_n_keys);
        rc = 0;
    } else if (!strcmp(c.cmd, "run") || !strcmp(c.cmd, "sweep") || !strcmp(c.cmd, "bench")) {
        if (!c.scenario) {
            fprintf(stderr, "nicsim %s: missing SCENARIO.ini\n", c.cmd);
            fputs(usage, stderr);
            rc = EXIT_USAGE;
        } else if (!strcmp(c.cmd, "run")) {
            rc = cmd_run(&c);
        } else if (!strcmp(c.cmd, "sweep")) {
            rc = cmd_sweep(&c);
        } else {
            rc = cmd_bench(&c);
        }
    } else {
        fprintf(stderr, "nicsim: unknown command '%s'\n", c.cmd);
        fputs(usage, stderr);
        rc = EXIT_USAGE;
    }
    free(c.overrides);
    return rc;
}
