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
#include "../report/report.h"
#include "validate.h"

#define ROUTER_SCENARIO "testbench/scenarios/e1000-router.ini"
#define PKTGEN_SCENARIO "testbench/scenarios/e1000-pktgen-2004.ini"
#define ROUTER_2004_SCENARIO "testbench/scenarios/e1000-router-2004.ini"
#define ROW_TOLERANCE_PCT 10.0
#define MEAN_TOLERANCE_PCT 5.0

/* A small reader for the reference CSVs: '#' comment lines, a header, plain
 * comma-separated fields (no quoting: the tables have none). */
int csv_load(const char *path, csv *c, char *err, size_t n)
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

const char *csv_get(const csv *c, int row, const char *col)
{
    for (int i = 0; i < c->ncols; i++)
        if (!strcmp(c->cols[i], col))
            return c->rows[row][i];
    return NULL;
}

/* netstat -i columns and interrupts of eth0..eth3 for one routing row */
enum { NS_RX_OK, NS_RX_DROP, NS_TX_OK, NS_IRQ, NS_COLS };
typedef struct netstat {
    int present;
    const char *drop_name;     /* the seed's column for frames the NIC dropped */
    double seed[4][NS_COLS];   /* NAN where the seed has no number */
    double sim[4][NS_COLS];    /* scaled to the seed's offered count */
    double scale;              /* seed offered / simulated offered, per input port */
} netstat;

typedef struct vrow {
    const char *table;
    char keys[256];            /* "copybreak=N flows=1 prefetch=12" */
    cJSON *keyobj;
    const char *metric;
    double reference, simulated;
    char limit[16];            /* what limited the simulated run */
    int marked;                /* the run said: a configuration not reproduced */
    netstat ns;
} vrow;

#define SEED_OFFERED 10000000.0   /* frames offered per input port in both posts */

/* The command that reproduces one row: progress on stderr that a user can
 * paste to run the row alone. */
void print_row_command(const char *what, const char *path, char **ov, int n)
{
    fprintf(stderr, "[%s] build/nicsim run %s", what, path);
    for (int i = 0; i < n; i++)
        fprintf(stderr, " %s", ov[i]);
    fprintf(stderr, "\n");
}

/* Run one scenario with overrides; fills *out with the JSON report.  0 ok. */
int run_scenario(const char *path, char **ov, int n, cJSON **out, char *err, size_t errlen)
{
    scenario *sc = nicsim_scenario_load(path, n, ov, err, errlen);
    if (!sc)
        return -1;
    nicsim_system sys;
    if (nicsim_simulate(&sys, sc, err, errlen) != 0) {
        scenario_free(sc);
        return -1;
    }
    *out = report_json(&sys, path);
    char e2[256];
    system_free(&sys, e2, sizeof e2);
    scenario_free(sc);
    return 0;
}

double jnum(const cJSON *j, const char *a, int i, const char *b)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, a);
    const cJSON *o = cJSON_GetArrayItem(arr, i);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, b);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

void run_json_limit(const cJSON *run, char *out, size_t n)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(run, "limit"), "resource");
    snprintf(out, n, "%s", cJSON_IsString(r) ? r->valuestring : "?");
}

int run_json_marks_row(const cJSON *run, const char *table, const char *row, const char *metric)
{
    const cJSON *limit = cJSON_GetObjectItemCaseSensitive(run, "limit");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(limit, "trust"),
                                                         "not_reproduced");
    const cJSON *r;
    cJSON_ArrayForEach(r, rows)
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "table");
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "row");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(r, "metric");
        if (cJSON_IsString(t) && cJSON_IsString(k) && cJSON_IsString(m) && !strcmp(t->valuestring, table) &&
            !strcmp(k->valuestring, row) && !strcmp(m->valuestring, metric))
            return 1;
    }
    return 0;
}

void validate_verdict(char *out, size_t n, int out_of_tolerance, const char *why_out, int marked)
{
    if (out_of_tolerance)
        snprintf(out, n, "  OUT%s%s", why_out ? why_out : "", marked ? ", known" : "");
    else
        snprintf(out, n, "%s", marked ? "  known, but within" : "");
}

cJSON *validate_row_json(const char *table, const cJSON *keys, const char *metric, double reference,
                         double simulated, int within, int marked)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "table", table);
    for (const cJSON *k = keys->child; k; k = k->next)
        cJSON_AddItemToObject(o, k->string, cJSON_Duplicate(k, 1));
    cJSON_AddStringToObject(o, "metric", metric);
    cJSON_AddNumberToObject(o, "reference", reference);
    cJSON_AddNumberToObject(o, "simulated", simulated);
    cJSON_AddNumberToObject(o, "error_pct", 100.0 * (simulated - reference) / reference);
    cJSON_AddBoolToObject(o, "within", within);
    cJSON_AddBoolToObject(o, "known_not_reproduced", marked);
    return o;
}

static double csv_num(const csv *c, int row, const char *col)
{
    const char *v = c ? csv_get(c, row, col) : NULL;
    return v ? atof(v) : NAN;
}

/* The simulated netstat -i and interrupt counts of a routing run, scaled to
 * the seed's offered count, beside the seed's own (table t row r; irq, row
 * ir of the interrupt table, may be NULL). */
static void netstat_fill(netstat *ns, const cJSON *j, const csv *t, int r, const char *drop_col,
                         const csv *irq, int ir)
{
    ns->present = 1;
    ns->drop_name = drop_col;
    double offered = jnum(j, "ports", 0, "offered");
    ns->scale = offered > 0 ? SEED_OFFERED / offered : NAN;
    for (int p = 0; p < 4; p++) {
        char col[64];
        snprintf(col, sizeof col, "eth%d_rx_ok", p);
        ns->seed[p][NS_RX_OK] = csv_num(t, r, col);
        snprintf(col, sizeof col, "eth%d_rx_%s", p, drop_col);
        ns->seed[p][NS_RX_DROP] = csv_num(t, r, col);
        snprintf(col, sizeof col, "eth%d_tx_ok", p);
        ns->seed[p][NS_TX_OK] = csv_num(t, r, col);
        snprintf(col, sizeof col, "eth%d_irqs", p);
        ns->seed[p][NS_IRQ] = csv_num(irq, ir, col);
        ns->sim[p][NS_RX_OK] = jnum(j, "ports", p, "rx_packets") * ns->scale;
        ns->sim[p][NS_RX_DROP] = jnum(j, "ports", p, "rx_missed") * ns->scale;
        ns->sim[p][NS_TX_OK] = jnum(j, "ports", p, "gptc") * ns->scale;
        ns->sim[p][NS_IRQ] = jnum(j, "ports", p, "irqs_handled") * ns->scale;
    }
}

static void netstat_print(const vrow *v)
{
    static const char *cols[NS_COLS] = { "RX-OK", NULL, "TX-OK", "IRQ" };
    printf("\n%s  %s\n%-6s", v->table, v->keys, "Iface");
    for (int k = 0; k < NS_COLS; k++) {
        char drop[16];
        snprintf(drop, sizeof drop, "RX-%s", v->ns.drop_name);
        for (char *q = drop; *q; q++)
            *q = (char)toupper((unsigned char)*q);
        const char *name = cols[k] ? cols[k] : drop;
        printf(" %10s seed %10s sim", name, name);
    }
    printf("\n");
    for (int p = 0; p < 4; p++) {
        printf("eth%-3d", p);
        for (int k = 0; k < NS_COLS; k++) {
            double a = v->ns.seed[p][k], b = v->ns.sim[p][k];
            if (isnan(a))
                printf(" %15s", "-");
            else
                printf(" %15.0f", a);
            printf(" %14.0f", b);
        }
        printf("\n");
    }
}

static cJSON *netstat_json(const netstat *ns)
{
    static const char *keys[NS_COLS] = { "rx_ok", "rx_drop", "tx_ok", "irqs" };
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "scale", ns->scale);
    cJSON *ports = cJSON_AddArrayToObject(o, "ports");
    for (int p = 0; p < 4; p++) {
        cJSON *po = cJSON_CreateObject();
        char name[16];
        snprintf(name, sizeof name, "eth%d", p);
        cJSON_AddStringToObject(po, "iface", name);
        for (int k = 0; k < NS_COLS; k++) {
            char key[32];
            snprintf(key, sizeof key, "seed_%s", keys[k]);
            if (isnan(ns->seed[p][k]))
                cJSON_AddNullToObject(po, key);
            else
                cJSON_AddNumberToObject(po, key, ns->seed[p][k]);
            snprintf(key, sizeof key, "sim_%s", keys[k]);
            cJSON_AddNumberToObject(po, key, ns->sim[p][k]);
        }
        cJSON_AddItemToArray(ports, po);
    }
    return o;
}

/* Forwarded packets per second over the time the link partners offered
 * traffic: (TX-OK eth1 + TX-OK eth3) / offered duration, as the post computes it. */
static double router_kpps(const cJSON *j, double kpps_in)
{
    double offered = jnum(j, "ports", 0, "offered");
    double secs = offered / (kpps_in * 1e3);
    return (jnum(j, "ports", 1, "gptc") + jnum(j, "ports", 3, "gptc")) / secs / 1e3;
}

/* ---- table 1: router, RX prefetch points, copybreak, flows ---- */

/* Row r of table 1 as settings of the router scenario, into ov (ovp points
 * at them); the command line's section.key=value come last: they win
 * (calibration).  Returns how many ovp holds. */
static int router_row_overrides(const cli *c, const csv *t, int r, char ov[5][80], char *ovp[8])
{
    const char *cb = csv_get(t, r, "copybreak"), *fl = csv_get(t, r, "flows"), *pf = csv_get(t, r, "prefetch"),
               *in0 = csv_get(t, r, "input_kpps_eth0"), *in2 = csv_get(t, r, "input_kpps_eth2");
    snprintf(ov[0], 80, "driver.copybreak=%s", !strcmp(cb, "Y") ? "256" : "0");
    snprintf(ov[1], 80, "gen.flows=%s", fl);
    snprintf(ov[2], 80, "driver.prefetch_next_hdr=%s", strchr(pf, '5') ? "true" : "false");
    snprintf(ov[3], 80, "gen.kpps=%s", in0);
    snprintf(ov[4], 80, "gen.eth2_kpps=%s", in2);
    for (int i = 0; i < 5; i++)
        ovp[i] = ov[i];
    int nov = 5;
    for (int i = 0; i < c->n_overrides && nov < 8; i++)
        ovp[nov++] = c->overrides[i];
    return nov;
}

/* Run row r of table 1 and fill v: the forwarded kpps against the row's
 * throughput, and netstat -i beside the seed's.  0, or -1 with err. */
static int router_row(const cli *c, const csv *t, int r, vrow *v, char *err, size_t errlen)
{
    const char *cb = csv_get(t, r, "copybreak"), *fl = csv_get(t, r, "flows"), *pf = csv_get(t, r, "prefetch"),
               *in0 = csv_get(t, r, "input_kpps_eth0"), *ref = csv_get(t, r, "throughput_kpps");
    char ov[5][80];
    char *ovp[8];
    int nov = router_row_overrides(c, t, r, ov, ovp);
    char what[96];
    snprintf(what, sizeof what, "router row %d: copybreak=%s flows=%s prefetch=%s", r + 1, cb, fl, pf);
    print_row_command(what, ROUTER_SCENARIO, ovp, nov);
    cJSON *j;
    if (run_scenario(ROUTER_SCENARIO, ovp, nov, &j, err, errlen) != 0)
        return -1;
    memset(v, 0, sizeof *v);
    v->table = "e1000-router-prefetch-copybreak.csv";
    snprintf(v->keys, sizeof v->keys, "copybreak=%s flows=%s prefetch=%s", cb, fl, pf);
    v->keyobj = cJSON_CreateObject();
    cJSON_AddStringToObject(v->keyobj, "copybreak", cb);
    cJSON_AddNumberToObject(v->keyobj, "flows", atof(fl));
    cJSON_AddNumberToObject(v->keyobj, "prefetch", atof(pf));
    v->metric = "throughput_kpps";
    v->reference = atof(ref);
    v->simulated = router_kpps(j, atof(in0));
    run_json_limit(j, v->limit, sizeof v->limit);
    v->marked = run_json_marks_row(j, v->table, v->keys, v->metric);
    netstat_fill(&v->ns, j, t, r, "drp", NULL, 0);
    cJSON_Delete(j);
    return 0;
}

/* Every row of table 1 into rows[*nr...].  0, or the exit status, its
 * message on stderr. */
static int validate_router_table(const cli *c, vrow *rows, int *nr, char *err, size_t errlen)
{
    const char *t1 = "testbench/reference/e1000-router-prefetch-copybreak.csv";
    csv t;
    if (csv_load(t1, &t, err, errlen) != 0) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    for (int r = 0; r < t.nrows; r++) {
        if (router_row(c, &t, r, &rows[*nr], err, errlen) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            free(t.buf);
            return EXIT_RUN_FAILED;
        }
        (*nr)++;
    }
    free(t.buf);
    return 0;
}

/* ---- table 2: TX descriptor prefetch and 4096 TX descriptors (seed 002):
 * the 2004 router (e1000-router-2004.ini: one CPU, 2 x 765 kpps offered,
 * cards on PCI-X 133 and 100 MHz, the e1000 5.x defaults) and pktgen on
 * the same box (e1000-pktgen-2004.ini) ---- */

/* A variant of table 2 as driver settings into ovp, then the command
 * line's section.key=value (they win).  Returns how many ovp holds. */
static int tx_prefetch_overrides(const cli *c, const char *var, char *ovp[16])
{
    const char *prefetch = strcmp(var, "vanilla") ? "driver.tx_prefetch=true" : "driver.tx_prefetch=false";
    /* Scott Feldman's patch: 4096 descriptors, reclaimed in the transmit
     * path (the seed's TX ports took 693 interrupts with it, 58,638 without) */
    int patch = strstr(var, "4096") != NULL;
    const char *ring = patch ? "driver.tx_ring=4096" : "driver.tx_ring=256";
    const char *clean = patch ? "driver.tx_clean=xmit" : "driver.tx_clean=poll";
    int nov = 0;
    ovp[nov++] = (char *)prefetch;
    ovp[nov++] = (char *)ring;
    ovp[nov++] = (char *)clean;
    for (int i = 0; i < c->n_overrides && nov < 16; i++)
        ovp[nov++] = c->overrides[i];
    return nov;
}

/* The row of the interrupt table with variant var (the last one, if the
 * table repeats it), or -1. */
static int tx_prefetch_irq_row(const csv *ti, const char *var)
{
    int ir = -1;
    for (int k = 0; k < ti->nrows; k++)
        if (!strcmp(csv_get(ti, k, "variant"), var))
            ir = k;
    return ir;
}

/* Run row r of table 2 as routing (m 0) or pktgen (m 1) and fill v; a
 * routing row also gets netstat -i and the interrupts beside the seed's
 * (ti: the interrupt table).  0, or -1 with err. */
static int tx_prefetch_row(const cli *c, const csv *t, const csv *ti, int r, int m, vrow *v, char *err,
                           size_t errlen)
{
    const char *var = csv_get(t, r, "variant");
    char *ovp[16];
    int nov = tx_prefetch_overrides(c, var, ovp);
    char what[96];
    snprintf(what, sizeof what, "tx-prefetch row %d: %s, %s", r + 1, var, m ? "pktgen" : "routing");
    print_row_command(what, m ? PKTGEN_SCENARIO : ROUTER_2004_SCENARIO, ovp, nov);
    cJSON *j;
    if (run_scenario(m ? PKTGEN_SCENARIO : ROUTER_2004_SCENARIO, ovp, nov, &j, err, errlen) != 0)
        return -1;
    memset(v, 0, sizeof *v);
    v->table = "e1000-tx-prefetch-ringsize.csv";
    snprintf(v->keys, sizeof v->keys, "variant=%s", var);
    v->keyobj = cJSON_CreateObject();
    cJSON_AddStringToObject(v->keyobj, "variant", var);
    v->metric = m ? "pktgen_tx_kpps" : "routing_throughput_kpps";
    v->reference = atof(csv_get(t, r, v->metric));
    v->simulated = m ? jnum(j, "ports", 0, "tx_pps") / 1e3 : router_kpps(j, 765);
    run_json_limit(j, v->limit, sizeof v->limit);
    v->marked = run_json_marks_row(j, v->table, v->keys, v->metric);
    if (!m) {
        int ir = tx_prefetch_irq_row(ti, var);
        netstat_fill(&v->ns, j, t, r, "ovr", ir >= 0 ? ti : NULL, ir);
    }
    cJSON_Delete(j);
    return 0;
}

/* Every row of table 2, routing then pktgen, into rows[*nr...].  0, or the
 * exit status, its message on stderr. */
static int validate_tx_prefetch_table(const cli *c, vrow *rows, int *nr, char *err, size_t errlen)
{
    const char *t2 = "testbench/reference/e1000-tx-prefetch-ringsize.csv";
    const char *t2i = "testbench/reference/e1000-tx-prefetch-ringsize-interrupts.csv";
    csv t, ti;
    if (csv_load(t2, &t, err, errlen) != 0) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    if (csv_load(t2i, &ti, err, errlen) != 0) {
        fprintf(stderr, "%s\n", err);
        free(t.buf);
        return EXIT_USAGE;
    }
    for (int r = 0; r < t.nrows; r++) {
        for (int m = 0; m < 2; m++) {
            if (tx_prefetch_row(c, &t, &ti, r, m, &rows[*nr], err, errlen) != 0) {
                fprintf(stderr, "nicsim: %s\n", err);
                free(t.buf);
                free(ti.buf);
                return EXIT_RUN_FAILED;
            }
            (*nr)++;
        }
    }
    free(t.buf);
    free(ti.buf);
    return 0;
}

/* ---- print ---- */

/* The table of every row against its reference (OUT: past the row
 * tolerance), each row also into jrows.  Returns the sum of the absolute
 * errors; *bad counts the rows outside. */
static double print_rows(vrow *rows, int nr, cJSON *jrows, int *bad)
{
    printf("%-40s %-34s %-23s %10s %10s %8s  %-7s\n", "table", "row", "metric", "reference", "simulated", "error",
           "limit");
    double sum = 0;
    for (int i = 0; i < nr; i++) {
        vrow *v = &rows[i];
        double e = 100.0 * (v->simulated - v->reference) / v->reference;
        sum += fabs(e);
        int out = fabs(e) > ROW_TOLERANCE_PCT;
        *bad += out;
        char verdict[64];
        validate_verdict(verdict, sizeof verdict, out, NULL, v->marked);
        printf("%-40s %-34s %-23s %10.1f %10.1f %+7.1f%%  %-7s%s\n", v->table, v->keys, v->metric, v->reference,
               v->simulated, e, v->limit, verdict);
        cJSON *o = validate_row_json(v->table, v->keyobj, v->metric, v->reference, v->simulated, !out, v->marked);
        cJSON_AddStringToObject(o, "limit", v->limit);
        if (v->ns.present)
            cJSON_AddItemToObject(o, "netstat", netstat_json(&v->ns));
        cJSON_AddItemToArray(jrows, o);
        cJSON_Delete(v->keyobj);
    }
    return sum;
}

/* The routing rows' netstat -i and interrupts, the seed's beside ours. */
static void print_netstat_rows(const vrow *rows, int nr)
{
    printf("\nnetstat -i and interrupts of the routing rows: the seed's counts beside the\n"
           "simulated ones, scaled to the seed's %.0f frames offered per input port\n"
           "(- : the seed printed no interrupt table for that run)\n", SEED_OFFERED);
    for (int i = 0; i < nr; i++)
        if (rows[i].ns.present)
            netstat_print(&rows[i]);
}

/* Print the rows and the mean absolute error, write the JSON if asked.
 * Returns the exit status: 1 when a row or the mean is out of tolerance or
 * the JSON could not be written. */
static int validate_summary(const cli *c, vrow *rows, int nr, char *err, size_t errlen)
{
    int bad = 0;
    cJSON *root = cJSON_CreateObject();
    cJSON *jrows = cJSON_AddArrayToObject(root, "rows");
    double sum = print_rows(rows, nr, jrows, &bad);
    print_netstat_rows(rows, nr);
    double mae = nr ? sum / nr : 0;
    printf("\nmean absolute error %.1f%% (limit %.0f%%); %d of %d rows outside +-%.0f%%\n", mae,
           MEAN_TOLERANCE_PCT, bad, nr, ROW_TOLERANCE_PCT);
    cJSON_AddNumberToObject(root, "mean_abs_error_pct", mae);
    int rc = (bad || mae > MEAN_TOLERANCE_PCT) ? EXIT_RUN_FAILED : 0;
    if (c->json && report_write_json(c->json, root, err, errlen) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    cJSON_Delete(root);
    return rc;
}

int cmd_validate(const cli *c)
{
    char err[1024];
    /* the rows' driver log lines (the e1000's ring realignment that Linux
     * logs too) are not the table's: `nicsim run` of a row shows them */
    system_driver_log(0);
    if (c->scenario && !strcmp(c->scenario, "ixgbe"))
        return validate_ixgbe(c);
    if (!c->scenario || strcmp(c->scenario, "e1000") != 0) {
        fprintf(stderr, "nicsim validate: expected 'e1000' or 'ixgbe'\n");
        return EXIT_USAGE;
    }
    vrow rows[64];
    int nr = 0;
    int rc = validate_router_table(c, rows, &nr, err, sizeof err);
    if (rc == 0)
        rc = validate_tx_prefetch_table(c, rows, &nr, err, sizeof err);
    if (rc != 0)
        return rc;
    return validate_summary(c, rows, nr, err, sizeof err);
}
