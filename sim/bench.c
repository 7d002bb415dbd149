/* nicsim bench: simulated packets per wall-clock second, slowdown against
 * real time and peak resident memory, each benchmark in its own child
 * process so that its peak RSS is its own. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "report.h"

enum { BENCH_MAX_ARGS = 64, BENCH_MAX_REPEAT = 100 };

typedef struct bench_item {
    char name[128];
    char scenario[512];
    char *ov[BENCH_MAX_ARGS];
    int n_ov;
    char storage[4096];
} bench_item;

/* One run of a benchmark in a child process: res = simulated packets,
 * simulated seconds, wall seconds; *rss_mb its peak resident memory.  0 ok. */
static int bench_child(const bench_item *b, double res[3], double *rss_mb)
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
        scenario *s2 = cli_load(b->scenario, b->n_ov, (char **)b->ov, err, sizeof err);
        nicsim_system sys;
        if (!s2 || cli_simulate(&sys, s2, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            _exit(EXIT_RUN_FAILED);
        }
        double r[3] = { (double)report_tx_packets(&sys), (double)sys.end_time / 1e12, sys.wall_seconds };
        if (write(fds[1], r, sizeof r) != (ssize_t)sizeof r)
            _exit(EXIT_RUN_FAILED);
        system_free(&sys, err, sizeof err);
        _exit(0);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], res, 3 * sizeof *res);
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        got != (ssize_t)(3 * sizeof *res)) {
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
    scenario *sc = cli_load(b->scenario, b->n_ov, (char **)b->ov, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    scenario_free(sc);
    double wall[BENCH_MAX_REPEAT], res[3] = { 0, 0, 0 }, rss_mb = 0;
    for (int i = 0; i < repeat; i++) {
        double r[3], rss;
        int rc = bench_child(b, r, &rss);
        if (rc != 0)
            return rc;
        /* the simulation is deterministic: every run simulates the same */
        res[0] = r[0];
        res[1] = r[1];
        wall[i] = r[2];
        if (rss > rss_mb)
            rss_mb = rss;
    }
    qsort(wall, (size_t)repeat, sizeof *wall, cmp_double);
    /* the median (the lower middle one of an even count) */
    res[2] = wall[(repeat - 1) / 2];
    double pkts_per_s = res[2] > 0 ? res[0] / res[2] : 0;
    double slowdown = res[1] > 0 ? res[2] / res[1] : 0;
    double best = wall[0] > 0 ? res[0] / wall[0] : 0;
    double worst = wall[repeat - 1] > 0 ? res[0] / wall[repeat - 1] : 0;
    printf("%-24s %10.0f sim packets/s  slowdown %6.2fx  peak RSS %6.1f MB  (%.0f packets, %.4f s simulated, "
           "%.2f s wall; median of %d, range %.0f-%.0f)\n",
           b->name, pkts_per_s, slowdown, rss_mb, res[0], res[1], res[2], repeat, worst, best);
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
    cJSON_AddNumberToObject(row, "peak_rss_mb", rss_mb);
    cJSON_AddItemToArray(rows, row);
    return 0;
}

/* Parse "NAME SCENARIO [key=value ...]"; 1 = an item, 0 = blank/comment, -1 = error. */
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
            items = realloc(items, (size_t)(ni + 1) * sizeof *items);
            items[ni] = b;
            /* the overrides point into the item's own storage: re-point them */
            for (int i = 0; i < b.n_ov; i++)
                items[ni].ov[i] = items[ni].storage + (b.ov[i] - b.storage);
            ni++;
        }
        fclose(f);
        for (int i = 0; rc == 0 && i < ni; i++)
            rc = bench_one(&items[i], c->repeat, rows);
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
