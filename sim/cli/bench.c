/* nicsim bench: simulated packets per wall-clock second, slowdown against
 * real time and peak resident memory, each benchmark in its own child
 * process so that its peak RSS is its own. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "bench_ref.h"
#include "cli.h"
#include "../report/report.h"

enum { BENCH_MAX_ARGS = 64, BENCH_MAX_REPEAT = 100 };

typedef struct bench_item {
    char name[128];
    char scenario[512];
    char *ov[BENCH_MAX_ARGS];
    int n_ov;
    size_t ov_off[BENCH_MAX_ARGS];  /* where each override sits in storage (the list's
                                       items move as it grows: ov is set once it is read) */
    int systemc;                /* run by nicsim-systemc (the TLM-2.0 module) */
    char storage[4096];
} bench_item;

/* The SystemC testbench's run of b, from inside a bench child: it runs
 * nicsim-systemc (built beside this binary) and reads its JSON into r.
 * Exits the child on failure. */
static void systemc_child(const bench_item *b, double r[3])
{
    char bin[4096], json[] = "/tmp/nicsim_bench_XXXXXX";
    int fd = mkstemp(json);
    if (cli_exe_path("nicsim-systemc", bin, sizeof bin) != 0 || fd < 0) {
        fprintf(stderr, "nicsim: bench %s: cannot find nicsim-systemc or make a temporary file\n", b->name);
        _exit(EXIT_RUN_FAILED);
    }
    close(fd);
    char *argv[BENCH_MAX_ARGS + 6];
    int a = 0;
    argv[a++] = bin;
    argv[a++] = (char *)b->scenario;
    for (int i = 0; i < b->n_ov; i++)
        argv[a++] = b->ov[i];
    argv[a++] = "--json";
    argv[a++] = json;
    argv[a] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
            _exit(126);
        execv(bin, argv);
        fprintf(stderr, "nicsim: bench %s: cannot run %s: %s\n", b->name, bin, strerror(errno));
        _exit(127);
    }
    int status;
    cJSON *j = NULL;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        j = report_read_json(json);
    unlink(json);
    const cJSON *pk = cJSON_GetObjectItemCaseSensitive(j, "sim_packets");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(j, "sim_time_ps");
    const cJSON *wall = cJSON_GetObjectItemCaseSensitive(j, "wall_seconds");
    if (!cJSON_IsNumber(pk) || !cJSON_IsNumber(ps) || !cJSON_IsNumber(wall)) {
        fprintf(stderr, "nicsim: bench %s: nicsim-systemc failed or wrote no result\n", b->name);
        _exit(EXIT_RUN_FAILED);
    }
    r[0] = pk->valuedouble;
    r[1] = ps->valuedouble / 1e12;
    r[2] = wall->valuedouble;
    cJSON_Delete(j);
}

/* One run of a benchmark in a child process: res = simulated packets,
 * simulated seconds, wall seconds, and the wall seconds of the reference
 * workload run just before it in the same child (so that both see the
 * machine in the same state); *rss_mb its peak resident memory.  0 ok. */
static int bench_child(const bench_item *b, double res[4], double *rss_mb)
{
    char err[1024];
    int fds[2];
    if (pipe(fds) != 0) {
        perror("nicsim: pipe");
        return EXIT_RUN_FAILED;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("nicsim: fork");
        return EXIT_RUN_FAILED;
    }
    if (pid == 0) {
        close(fds[0]);
        bench_ref_result ref;
        if (bench_ref_run(&ref) != 0) {
            fprintf(stderr, "nicsim: bench %s: out of memory for the reference workload\n", b->name);
            _exit(EXIT_RUN_FAILED);
        }
        if (b->systemc) {
            double r[4];
            systemc_child(b, r);
            r[3] = ref.seconds;
            _exit(write(fds[1], r, sizeof r) == (ssize_t)sizeof r ? 0 : EXIT_RUN_FAILED);
        }
        scenario *s2 = nicsim_scenario_load(b->scenario, b->n_ov, (char **)b->ov, err, sizeof err);
        nicsim_system sys;
        if (!s2 || nicsim_simulate(&sys, s2, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            _exit(EXIT_RUN_FAILED);
        }
        double r[4] = { (double)report_tx_packets(&sys), (double)sys.end_time / 1e12, sys.wall_seconds,
                         ref.seconds };
        if (write(fds[1], r, sizeof r) != (ssize_t)sizeof r)
            _exit(EXIT_RUN_FAILED);
        system_free(&sys, err, sizeof err);
        _exit(0);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], res, 4 * sizeof *res);
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        got != (ssize_t)(4 * sizeof *res)) {
        fprintf(stderr, "nicsim: bench %s failed\n", b->name);
        return EXIT_RUN_FAILED;
    }
    *rss_mb = (double)ru.ru_maxrss / 1024.0;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Run one benchmark `repeat` times, each in its own child; fills the row with
 * the median run's figures and the spread.  0 ok. */
static int bench_one(const bench_item *b, int repeat, cJSON *rows)
{
    char err[1024];
    scenario *sc = nicsim_scenario_load(b->scenario, b->n_ov, (char **)b->ov, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    scenario_free(sc);
    double wall[BENCH_MAX_REPEAT], ref[BENCH_MAX_REPEAT], norm[BENCH_MAX_REPEAT];
    double res[3] = { 0, 0, 0 }, rss_mb = 0;
    for (int i = 0; i < repeat; i++) {
        double r[4], rss;
        int rc = bench_child(b, r, &rss);
        if (rc != 0)
            return rc;
        /* the simulation is deterministic: every run simulates the same */
        res[0] = r[0];
        res[1] = r[1];
        wall[i] = r[2];
        ref[i] = r[3];
        /* packets simulated in the time the reference workload took, run by
         * run: a slow or loaded machine slows both alike */
        norm[i] = r[2] > 0 ? r[0] / r[2] * r[3] : 0;
        if (rss > rss_mb)
            rss_mb = rss;
    }
    qsort(wall, (size_t)repeat, sizeof *wall, cmp_double);
    qsort(ref, (size_t)repeat, sizeof *ref, cmp_double);
    qsort(norm, (size_t)repeat, sizeof *norm, cmp_double);
    double ref_s = ref[(repeat - 1) / 2], per_ref = norm[(repeat - 1) / 2];
    /* the median (the lower middle one of an even count) */
    res[2] = wall[(repeat - 1) / 2];
    double pkts_per_s = res[2] > 0 ? res[0] / res[2] : 0;
    double slowdown = res[1] > 0 ? res[2] / res[1] : 0;
    double best = wall[0] > 0 ? res[0] / wall[0] : 0;
    double worst = wall[repeat - 1] > 0 ? res[0] / wall[repeat - 1] : 0;
    printf("%-24s %10.0f sim packets/s  slowdown %6.2fx  peak RSS %6.1f MB  (%.0f packets, %.4f s simulated, "
           "%.2f s wall; median of %d, range %.0f-%.0f)\n",
           b->name, pkts_per_s, slowdown, rss_mb, res[0], res[1], res[2], repeat, worst, best);
    printf("%-24s %10.0f sim packets per reference run (reference %.3f s, range %.0f-%.0f)\n", "", per_ref, ref_s,
           norm[0], norm[repeat - 1]);
    fflush(stdout);
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "scenario", b->name);
    cJSON_AddStringToObject(row, "file", b->scenario);
    cJSON *ovs = cJSON_AddArrayToObject(row, "overrides");
    for (int i = 0; i < b->n_ov; i++)
        cJSON_AddItemToArray(ovs, cJSON_CreateString(b->ov[i]));
    cJSON_AddNumberToObject(row, "sim_packets", res[0]);
    cJSON_AddNumberToObject(row, "sim_seconds", res[1]);
    cJSON_AddNumberToObject(row, "runs", repeat);
    cJSON_AddNumberToObject(row, "wall_seconds", res[2]);
    cJSON_AddNumberToObject(row, "sim_packets_per_s", pkts_per_s);
    cJSON_AddNumberToObject(row, "sim_packets_per_s_min", worst);
    cJSON_AddNumberToObject(row, "sim_packets_per_s_max", best);
    cJSON_AddNumberToObject(row, "slowdown", slowdown);
    cJSON_AddNumberToObject(row, "ref_seconds", ref_s);
    cJSON_AddNumberToObject(row, "sim_packets_per_ref", per_ref);
    cJSON_AddNumberToObject(row, "sim_packets_per_ref_min", norm[0]);
    cJSON_AddNumberToObject(row, "sim_packets_per_ref_max", norm[repeat - 1]);
    cJSON_AddNumberToObject(row, "peak_rss_mb", rss_mb);
    cJSON_AddStringToObject(row, "engine", b->systemc ? "systemc" : "c");
    cJSON_AddItemToArray(rows, row);
    return 0;
}

/* A SystemC row beside the C harness's row of the same scenario and
 * overrides: their rates' ratio (issue 7: within 20 %). */
static void compare_engines(const bench_item *items, int ni, cJSON *rows)
{
    for (int i = 0; i < ni; i++) {
        if (!items[i].systemc)
            continue;
        for (int k = 0; k < ni; k++) {
            if (items[k].systemc || strcmp(items[k].scenario, items[i].scenario) || items[k].n_ov != items[i].n_ov)
                continue;
            int same = 1;
            for (int o = 0; o < items[i].n_ov; o++)
                same &= !strcmp(items[k].ov[o], items[i].ov[o]);
            if (!same)
                continue;
            cJSON *ri = cJSON_GetArrayItem(rows, i), *rk = cJSON_GetArrayItem(rows, k);
            double si = cJSON_GetObjectItem(ri, "sim_packets_per_s")->valuedouble;
            double sk = cJSON_GetObjectItem(rk, "sim_packets_per_s")->valuedouble;
            double ratio = sk > 0 ? si / sk : 0;
            printf("%-24s %.2f x the C harness's rate (%s)\n", items[i].name, ratio, items[k].name);
            cJSON_AddNumberToObject(ri, "c_harness_ratio", ratio);
            cJSON_AddStringToObject(ri, "c_harness_row", items[k].name);
            break;
        }
    }
}

/* Parse "NAME SCENARIO [key=value ...] [--systemc]"; 1 = an item, 0 = blank/comment, -1 = error. */
static int parse_line(const char *line, bench_item *b, char *err, size_t n)
{
    memset(b, 0, sizeof *b);
    snprintf(b->storage, sizeof b->storage, "%s", line);
    char *hash = strchr(b->storage, '#');
    if (hash)
        *hash = 0;
    char *words[BENCH_MAX_ARGS + 2];
    int nw = 0;
    for (char *save = NULL, *w = strtok_r(b->storage, " \t\r\n", &save); w;
         w = strtok_r(NULL, " \t\r\n", &save)) {
        if (nw == BENCH_MAX_ARGS + 2) {
            snprintf(err, n, "too many words");
            return -1;
        }
        words[nw++] = w;
    }
    if (nw == 0)
        return 0;
    if (nw < 2) {
        snprintf(err, n, "expected NAME SCENARIO [key=value ...], got '%s'", words[0]);
        return -1;
    }
    snprintf(b->name, sizeof b->name, "%s", words[0]);
    snprintf(b->scenario, sizeof b->scenario, "%s", words[1]);
    for (int i = 2; i < nw; i++) {
        if (!strcmp(words[i], "--systemc")) {
            b->systemc = 1;
            continue;
        }
        if (!strchr(words[i], '=')) {
            snprintf(err, n, "expected key=value, got '%s'", words[i]);
            return -1;
        }
        b->ov[b->n_ov++] = words[i];
    }
    return 1;
}

int cmd_bench(const cli *c)
{
    char err[1024];
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "ref_version", BENCH_REF_VERSION);
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    int rc = 0;
    if (c->list) {
        FILE *f = fopen(c->list, "r");
        if (!f) {
            fprintf(stderr, "%s: cannot open: %s\n", c->list, strerror(errno));
            cJSON_Delete(root);
            return EXIT_USAGE;
        }
        /* read and check every line first: a typo costs no run */
        bench_item *items = NULL;
        int ni = 0;
        char line[4096];
        for (int ln = 1; fgets(line, sizeof line, f); ln++) {
            bench_item b;
            int r = parse_line(line, &b, err, sizeof err);
            if (r < 0) {
                fprintf(stderr, "%s:%d: %s\n", c->list, ln, err);
                rc = EXIT_USAGE;
                break;
            }
            if (r == 0)
                continue;
            bench_item *grown = realloc(items, (size_t)(ni + 1) * sizeof *items);
            if (!grown) {
                fprintf(stderr, "nicsim: out of memory\n");
                rc = EXIT_RUN_FAILED;
                break;
            }
            items = grown;
            items[ni] = b;
            for (int i = 0; i < b.n_ov; i++)
                items[ni].ov_off[i] = (size_t)(b.ov[i] - b.storage);
            ni++;
        }
        fclose(f);
        /* the overrides point into each item's own storage, now that no
         * realloc moves the items any more */
        for (int k = 0; k < ni; k++)
            for (int i = 0; i < items[k].n_ov; i++)
                items[k].ov[i] = items[k].storage + items[k].ov_off[i];
        for (int i = 0; rc == 0 && i < ni; i++)
            rc = bench_one(&items[i], c->repeat, rows);
        if (rc == 0)
            compare_engines(items, ni, rows);
        free(items);
    } else {
        bench_item b;
        memset(&b, 0, sizeof b);
        snprintf(b.name, sizeof b.name, "%s", c->scenario);
        snprintf(b.scenario, sizeof b.scenario, "%s", c->scenario);
        for (int i = 0; i < c->n_overrides && i < BENCH_MAX_ARGS; i++)
            b.ov[b.n_ov++] = c->overrides[i];
        rc = bench_one(&b, c->repeat, rows);
    }
    if (rc == 0 && c->json && report_write_json(c->json, root, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    cJSON_Delete(root);
    return rc;
}
