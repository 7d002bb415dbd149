#include "sweep_out.h"
#include "sweep_point.h"
#include "cli.h"
#include "../report/report.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static double num(const cJSON *pt, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(pt, name);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)need + 1 > t->cap) {
        t->cap = (t->len + (size_t)need + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
    va_start(ap, fmt);
    t->len += (size_t)vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
}

/* "  NOT REPRODUCED: TABLE ROW" when the point's run is a configuration
 * the reference tables show the model does not reproduce (its report's
 * limit.trust.not_reproduced; the first row when several), else "". */
static void not_reproduced_note(const cJSON *pt, char *out, size_t n)
{
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(pt, "run");
    const cJSON *trust = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(run, "limit"), "trust");
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(trust, "not_reproduced"), 0);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "table"), *k = cJSON_GetObjectItemCaseSensitive(r, "row");
    if (cJSON_IsString(t) && cJSON_IsString(k))
        snprintf(out, n, "  NOT REPRODUCED: %s %s", t->valuestring, k->valuestring);
    else
        out[0] = '\0';
}

int sweep_output(const sweep_spec *s, cJSON *const *pts, FILE *out, const char *csv, const char *json,
                 const char *plot, char *err, size_t errlen)
{
    text c = { 0 };
    add(&c, "%s", "");
    int bad = 0;
    for (int k = 0; k < s->nk; k++) {
        fprintf(out, "%-14s ", s->keys[k].name);
        add(&c, "%s,", s->keys[k].name);
    }
    fprintf(out, "%12s %12s %8s %10s %10s  %s\n", "TX-kpps", "wire-kpps", "%wire", "TX-Mbit/s", "TX-packets",
            "limit");
    add(&c, "tx_pps,wire_pps,pct_wire,tx_mbps,tx_packets,limit,complete\n");
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scenario", s->scenario);
    cJSON *arr = cJSON_AddArrayToObject(root, "points");
    for (long i = 0; i < s->npts; i++) {
        char bufs[SWEEP_MAX_KEYS][512];
        char *ov[SWEEP_MAX_KEYS];
        sweep_spec_point(s, i, bufs, ov);
        for (int k = 0; k < s->nk; k++) {
            const char *v = strchr(ov[k], '=') + 1;
            fprintf(out, "%-14s ", v);
            add(&c, "%s,", v);
        }
        const cJSON *pt = pts[i];
        const char *st = sweep_point_state(pt);
        if (strcmp(st, "failed") == 0) {
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(pt, "error");
            fprintf(out, "%12s   FAILED: %s\n", "-", cJSON_IsString(e) ? e->valuestring : "no result");
            add(&c, ",,,,,,failed\n");
            bad++;
        } else {
            double pps = num(pt, "tx_pps"), wire = num(pt, "wire_pps");
            const cJSON *lim = cJSON_GetObjectItemCaseSensitive(pt, "limit");
            const char *limit = cJSON_IsString(lim) ? lim->valuestring : "";
            char note[256];
            not_reproduced_note(pt, note, sizeof note);
            fprintf(out, "%12.3f %12.3f %7.2f%% %10.2f %10.0f  %-8s%s%s\n", pps / 1e3, wire / 1e3,
                    num(pt, "pct_wire"), num(pt, "tx_mbps"), num(pt, "tx_packets"), limit,
                    strcmp(st, "ok") ? "  INCOMPLETE" : "", note);
            add(&c, "%.3f,%.3f,%.4f,%.3f,%.0f,%s,%s\n", pps, wire, num(pt, "pct_wire"), num(pt, "tx_mbps"),
                num(pt, "tx_packets"), limit, strcmp(st, "ok") ? "no" : "yes");
            bad += strcmp(st, "ok") != 0;
        }
        cJSON_AddItemToArray(arr, pt ? cJSON_Duplicate(pt, 1) : cJSON_CreateNull());
    }
    fflush(out);
    int rc = bad;
    if (csv && cli_write_text(csv, c.s, err, errlen) != 0)
        rc = -1;
    if (rc >= 0 && json && report_write_json(json, root, err, errlen) != 0)
        rc = -1;
    if (rc >= 0 && plot && sweep_plot(s, pts, plot, err, errlen) != 0)
        rc = -1;
    cJSON_Delete(root);
    free(c.s);
    return rc;
}
