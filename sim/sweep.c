/* nicsim sweep: every combination of the listed values, one run each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "report.h"

typedef struct sweep_key {
    char name[128];
    char *list;              /* the values' storage */
    char *vals[256];
    int n;
} sweep_key;

static void free_keys(sweep_key *keys, int nk)
{
    for (int k = 0; k < nk; k++)
        free(keys[k].list);
}

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
        char *list = k->list = strdup(eq + 1);
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


int cmd_sweep(const cli *c)
{
    sweep_key keys[16] = { 0 };
    int nk;
    if (parse_sweep(c, keys, &nk) != 0) {
        free_keys(keys, nk);
        return EXIT_USAGE;
    }
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
        scenario *sc = cli_load(c->scenario, nk, ov, err, sizeof err);
        if (!sc) {
            fprintf(stderr, "%s\n", err);
            free_keys(keys, nk);
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
    CSV("tx_pps,wire_pps,pct_wire,tx_mbps,tx_packets,complete\n");

    int rc = 0, incomplete = 0;
    for (long i = 0; i < npts; i++) {
        point_overrides(keys, nk, i, bufs, ov);
        fprintf(stderr, "[%ld/%ld]", i + 1, npts);
        for (int k = 0; k < nk; k++)
            fprintf(stderr, " %s", ov[k]);
        fprintf(stderr, " ...\n");
        scenario *sc = cli_load(c->scenario, nk, ov, err, sizeof err);
        nicsim_system sys;
        if (!sc || cli_simulate(&sys, sc, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: point %ld: %s\n", i + 1, err);
            rc = EXIT_RUN_FAILED;
            if (sc)
                scenario_free(sc);
            break;
        }
        int nports = report_tx_ports(&sys);
        const char *sizes = strcmp(scenario_str(sc, "system", "app"), "pktgen") ? "gen" : "pktgen";
        double wire = nports * report_wire_pps(scenario_double(sc, "link", "gbps"),
                                               (unsigned)scenario_uint(sc, sizes, "size"));
        double pps = report_tx_pps(&sys);
        double mbps = report_tx_mbps(&sys);
        for (int k = 0; k < nk; k++) {
            const char *v = strchr(ov[k], '=') + 1;
            printf("%-14s ", v);
            CSV("%s,", v);
        }
        char why[256];
        int complete = system_complete(&sys, why, sizeof why);
        printf("%12.3f %12.3f %7.2f%% %10.2f %10llu%s\n", pps / 1e3, wire / 1e3, 100 * pps / wire, mbps,
               (unsigned long long)report_tx_packets(&sys), complete ? "" : "  INCOMPLETE");
        fflush(stdout);
        if (!complete) {
            fprintf(stderr, "nicsim: point %ld: incomplete run: %s\n", i + 1, why);
            incomplete++;
        }
        CSV("%.3f,%.3f,%.4f,%.3f,%llu,%s\n", pps, wire, 100 * pps / wire, mbps,
            (unsigned long long)report_tx_packets(&sys), complete ? "yes" : "no");
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
    /* an incomplete point is still written out (it is data), but the sweep
     * did not measure what it was asked to: exit status 1 */
    if (rc == 0 && incomplete) {
        fprintf(stderr, "nicsim: %d of %ld points incomplete\n", incomplete, npts);
        rc = EXIT_RUN_FAILED;
    }
    if (c->csv && (rc == 0 || incomplete) && cli_write_text(c->csv, csv, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    if (c->json && (rc == 0 || incomplete) && report_write_json(c->json, root, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    free(csv);
    cJSON_Delete(root);
    free_keys(keys, nk);
    return rc;
#undef CSV
}

