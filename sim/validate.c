/* nicsim validate e1000: every row of the 82546 reference tables against
 * the scenario that reproduces it.  The mapping from a table's key columns to
 * scenario settings is one rule per table (not per row): which scenario, and
 * which keys the columns set. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "report.h"

#define ROUTER_SCENARIO "testbench/scenarios/e1000-router.ini"
#define PKTGEN_SCENARIO "testbench/scenarios/e1000-pktgen-2004.ini"
#define ROW_TOLERANCE_PCT 10.0
#define MEAN_TOLERANCE_PCT 5.0

typedef struct csv {
    char *cols[32];
    int ncols;
    char *rows[64][32];
    int nrows;
    char *buf;
} csv;

/* A small reader for the reference CSVs: '#' comment lines, a header, plain
 * comma-separated fields (no quoting: the tables have none). */
static int csv_load(const char *path, csv *c, char *err, size_t n)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, n, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    c->buf = malloc((size_t)len + 1);
    size_t got = fread(c->buf, 1, (size_t)len, f);
    fclose(f);
    c->buf[got] = 0;
    int line = 0;
    for (char *save = NULL, *l = strtok_r(c->buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        if (l[0] == '#' || !l[0])
            continue;
        char **fields = c->ncols ? c->rows[c->nrows] : c->cols;
        int nf = 0;
        for (char *p = l;; ) {
            if (nf == 32)
                break;
            fields[nf++] = p;
            char *comma = strchr(p, ',');
            if (!comma)
                break;
            *comma = 0;
            p = comma + 1;
        }
        if (!c->ncols) {
            c->ncols = nf;
        } else {
            if (nf != c->ncols) {
                snprintf(err, n, "%s:%d: expected %d fields, got %d", path, line, c->ncols, nf);
                free(c->buf);
                return -1;
            }
            if (++c->nrows == 64)
                break;
        }
    }
    return 0;
}

static const char *csv_get(const csv *c, int row, const char *col)
{
    for (int i = 0; i < c->ncols; i++)
        if (!strcmp(c->cols[i], col))
            return c->rows[row][i];
    return NULL;
}

typedef struct vrow {
    const char *table;
    char keys[256];            /* "copybreak=N flows=1 prefetch=12" */
    cJSON *keyobj;
    const char *metric;
    double reference, simulated;
} vrow;

/* Run one scenario with overrides; fills *out with the JSON report.  0 ok. */
static int run_scenario(const char *path, char **ov, int n, cJSON **out, char *err, size_t errlen)
{
    scenario *sc = cli_load(path, n, ov, err, errlen);
    if (!sc)
        return -1;
    nicsim_system sys;
    if (cli_simulate(&sys, sc, err, errlen) != 0) {
        scenario_free(sc);
        return -1;
    }
    *out = report_json(&sys, path);
    char e2[256];
    system_free(&sys, e2, sizeof e2);
    scenario_free(sc);
    return 0;
}

static double jnum(const cJSON *j, const char *a, int i, const char *b)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, a);
    const cJSON *o = cJSON_GetArrayItem(arr, i);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, b);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Forwarded packets per second over the time the link partners offered
 * traffic: (TX-OK eth1 + TX-OK eth3) / offered duration, as the post computes it. */
static double router_kpps(const cJSON *j, double kpps_in)
{
    double offered = jnum(j, "ports", 0, "offered");
    double secs = offered / (kpps_in * 1e3);
    return (jnum(j, "ports", 1, "gptc") + jnum(j, "ports", 3, "gptc")) / secs / 1e3;
}

int cmd_validate(const cli *c)
{
    char err[1024];
    if (!c->scenario || strcmp(c->scenario, "e1000") != 0) {
        fprintf(stderr, "nicsim validate: expected 'e1000' (the 82599 tables come with its issue)\n");
        return EXIT_USAGE;
    }
    vrow rows[64];
    int nr = 0;
    csv t;

    /* ---- table 1: router, RX prefetch points, copybreak, flows ---- */
    const char *t1 = "testbench/reference/e1000-router-prefetch-copybreak.csv";
    if (csv_load(t1, &t, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    for (int r = 0; r < t.nrows; r++) {
        const char *cb = csv_get(&t, r, "copybreak"), *fl = csv_get(&t, r, "flows"),
                   *pf = csv_get(&t, r, "prefetch"), *in0 = csv_get(&t, r, "input_kpps_eth0"),
                   *in2 = csv_get(&t, r, "input_kpps_eth2"), *ref = csv_get(&t, r, "throughput_kpps");
        char ov[5][80];
        char *ovp[8];
        snprintf(ov[0], 80, "router.copybreak=%s", !strcmp(cb, "Y") ? "256" : "0");
        snprintf(ov[1], 80, "gen.flows=%s", fl);
        snprintf(ov[2], 80, "router.prefetch_next_hdr=%s", strchr(pf, '5') ? "true" : "false");
        snprintf(ov[3], 80, "gen.kpps=%s", in0);
        snprintf(ov[4], 80, "gen.eth2_kpps=%s", in2);
        for (int i = 0; i < 5; i++)
            ovp[i] = ov[i];
        /* the command line's section.key=value come last: they win (calibration) */
        int nov = 5;
        for (int i = 0; i < c->n_overrides && nov < 8; i++)
            ovp[nov++] = c->overrides[i];
        fprintf(stderr, "[%s row %d] copybreak=%s flows=%s prefetch=%s ...\n", "router", r + 1, cb, fl, pf);
        cJSON *j;
        if (run_scenario(ROUTER_SCENARIO, ovp, nov, &j, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            free(t.buf);
            return EXIT_RUN_FAILED;
        }
        vrow *v = &rows[nr++];
        v->table = "e1000-router-prefetch-copybreak.csv";
        snprintf(v->keys, sizeof v->keys, "copybreak=%s flows=%s prefetch=%s", cb, fl, pf);
        v->keyobj = cJSON_CreateObject();
        cJSON_AddStringToObject(v->keyobj, "copybreak", cb);
        cJSON_AddNumberToObject(v->keyobj, "flows", atof(fl));
        cJSON_AddNumberToObject(v->keyobj, "prefetch", atof(pf));
        v->metric = "throughput_kpps";
        v->reference = atof(ref);
        v->simulated = router_kpps(j, atof(in0));
        cJSON_Delete(j);
    }
    free(t.buf);

    /* ---- table 2: TX descriptor prefetch and 4096 TX descriptors (seed 002):
     * the router on one CPU (2 x 765 kpps offered, cards on PCI-X 133 and
     * 100 MHz) and pktgen on the same box ---- */
    const char *t2 = "testbench/reference/e1000-tx-prefetch-ringsize.csv";
    if (csv_load(t2, &t, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    for (int r = 0; r < t.nrows; r++) {
        const char *var = csv_get(&t, r, "variant");
        const char *prefetch = strcmp(var, "vanilla") ? "driver.tx_prefetch=true" : "driver.tx_prefetch=false";
        /* Scott Feldman's patch: 4096 descriptors, reclaimed in the transmit
         * path (the seed's TX ports took 693 interrupts with it, 58,638 without) */
        int patch = strstr(var, "4096") != NULL;
        const char *ring = patch ? "driver.tx_ring=4096" : "driver.tx_ring=256";
        const char *clean = patch ? "driver.tx_clean=xmit" : "driver.tx_clean=poll";
        for (int m = 0; m < 2; m++) {
            char *ovp[16];
            int nov = 0;
            ovp[nov++] = (char *)prefetch;
            ovp[nov++] = (char *)ring;
            ovp[nov++] = (char *)clean;
            if (m == 0) {
                ovp[nov++] = "router.cpus=1";
                ovp[nov++] = "gen.kpps=765";
                ovp[nov++] = "gen.eth2_kpps=0";
                ovp[nov++] = "bus.card1_mhz=100";
            }
            for (int i = 0; i < c->n_overrides && nov < 16; i++)
                ovp[nov++] = c->overrides[i];
            fprintf(stderr, "[tx-prefetch row %d] %s, %s ...\n", r + 1, var, m ? "pktgen" : "routing");
            cJSON *j;
            if (run_scenario(m ? PKTGEN_SCENARIO : ROUTER_SCENARIO, ovp, nov, &j, err, sizeof err) != 0) {
                fprintf(stderr, "nicsim: %s\n", err);
                free(t.buf);
                return EXIT_RUN_FAILED;
            }
            vrow *v = &rows[nr++];
            v->table = "e1000-tx-prefetch-ringsize.csv";
            snprintf(v->keys, sizeof v->keys, "variant=%s", var);
            v->keyobj = cJSON_CreateObject();
            cJSON_AddStringToObject(v->keyobj, "variant", var);
            v->metric = m ? "pktgen_tx_kpps" : "routing_throughput_kpps";
            v->reference = atof(csv_get(&t, r, v->metric));
            v->simulated = m ? jnum(j, "ports", 0, "tx_pps") / 1e3 : router_kpps(j, 765);
            cJSON_Delete(j);
        }
    }
    free(t.buf);

    /* ---- print ---- */
    printf("%-40s %-34s %-16s %10s %10s %8s\n", "table", "row", "metric", "reference", "simulated", "error");
    double sum = 0;
    int bad = 0;
    cJSON *root = cJSON_CreateObject();
    cJSON *jrows = cJSON_AddArrayToObject(root, "rows");
    for (int i = 0; i < nr; i++) {
        vrow *v = &rows[i];
        double e = 100.0 * (v->simulated - v->reference) / v->reference;
        sum += fabs(e);
        int out = fabs(e) > ROW_TOLERANCE_PCT;
        bad += out;
        printf("%-40s %-34s %-16s %10.1f %10.1f %+7.1f%%%s\n", v->table, v->keys, v->metric, v->reference,
               v->simulated, e, out ? "  OUT" : "");
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "table", v->table);
        for (cJSON *k = v->keyobj->child; k; k = k->next)
            cJSON_AddItemToObject(o, k->string, cJSON_Duplicate(k, 1));
        cJSON_AddStringToObject(o, "metric", v->metric);
        cJSON_AddNumberToObject(o, "reference", v->reference);
        cJSON_AddNumberToObject(o, "simulated", v->simulated);
        cJSON_AddNumberToObject(o, "error_pct", e);
        cJSON_AddItemToArray(jrows, o);
        cJSON_Delete(v->keyobj);
    }
    double mae = nr ? sum / nr : 0;
    printf("\nmean absolute error %.1f%% (limit %.0f%%); %d of %d rows outside +-%.0f%%\n", mae,
           MEAN_TOLERANCE_PCT, bad, nr, ROW_TOLERANCE_PCT);
    cJSON_AddNumberToObject(root, "mean_abs_error_pct", mae);
    int rc = (bad || mae > MEAN_TOLERANCE_PCT) ? EXIT_RUN_FAILED : 0;
    if (c->json && report_write_json(c->json, root, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    cJSON_Delete(root);
    return rc;
}
