/* nicsim l3fwd: the l3fwd experiment's five traffic patterns, each through
 * the scalar and the multi-buffer path, as a table a DPDK developer can
 * paste (forwarding rates and the difference), with the cycles per
 * forwarded packet that explain it (after bring-up), the calls and
 * doorbells per packet, and what limited each run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "../report/report.h"
#include "../report/run_limit.h"
#include "../apps/app_l3fwd.h"

static const struct {
    const char *key, *name;
} patterns[] = {
    { "ipv4-cont-burst", "IPV4-CONT-BURST" },
    { "ipv6-cont-burst", "IPV6-CONT-BURST" },
    { "ipv4-ipv6-cont-burst", "IPV4/IPV6-CONT-BURST" },
    { "ipv4-4streamsx1", "IPV4-4STREAMSX1" },
    { "ipv4-4streamsx8", "IPV4-4STREAMSX8" },
};
#define NPAT (sizeof patterns / sizeof patterns[0])

/* One run's figures. */
typedef struct l3fwd_point {
    double pps;                 /* forwarded frames per second, all output ports */
    double cycles[CPU_CATS];    /* CPU cycles per forwarded frame, by category */
    double busy;                /* their sum without idle */
    double entry_reads;         /* per forwarded frame: LPM table entries read, */
    double tx_bursts, tdt_writes, rdt_writes;   /* tx burst calls, TX and RX tail writes */
    double x4_share;            /* lookups made four at a time, of all lookups */
    uint64_t forwarded, drops;
    char limit[16];
    int complete;
} l3fwd_point;

static int run_point(const cli *c, const char *pattern, const char *path, l3fwd_point *pt, char *err,
                     size_t errlen)
{
    char ov_pat[64], ov_path[64];
    snprintf(ov_pat, sizeof ov_pat, "l3fwd.pattern=%s", pattern);
    snprintf(ov_path, sizeof ov_path, "l3fwd.path=%s", path);
    char *ov[64];
    int n = 0;
    for (int i = 0; i < c->n_overrides && n < 62; i++)
        ov[n++] = c->overrides[i];
    ov[n++] = ov_pat;
    ov[n++] = ov_path;
    scenario *sc = nicsim_scenario_load(c->scenario, n, ov, err, errlen);
    if (!sc)
        return EXIT_USAGE;
    if (app_of(sc) != &app_l3fwd) {
        snprintf(err, errlen, "%s: system.app is '%s', expected l3fwd", c->scenario,
                 scenario_str(sc, "system", "app"));
        scenario_free(sc);
        return EXIT_USAGE;
    }
    nicsim_system sys;
    int rc = nicsim_simulate(&sys, sc, err, errlen);
    if (rc != 0) {
        scenario_free(sc);
        return rc == -2 ? EXIT_USAGE : EXIT_RUN_FAILED;
    }
    app_l3fwd_totals t;
    app_l3fwd_totals_of(sys.cpu[0].app_state, &t);
    memset(pt, 0, sizeof *pt);
    pt->pps = report_tx_pps(&sys);
    pt->forwarded = t.tx;
    pt->drops = t.drops;
    const sim_cpu *scpu = &sys.cpu[0];
    const cpu *cp = &scpu->c;
    double per = t.tx ? 1.0 / (double)t.tx : 0;
    for (int k = 0; k < CPU_CATS; k++) {
        pt->cycles[k] = (double)(cp->cat_ps[k] - scpu->at_up.cat_ps[k]) * cp->prof.mhz / 1e6 * per;
        if (k != CPU_CAT_IDLE)
            pt->busy += pt->cycles[k];
    }
    pt->entry_reads = (double)t.entry_reads * per;
    pt->tx_bursts = (double)t.tx_bursts * per;
    pt->tdt_writes = (double)t.tdt_writes * per;
    pt->rdt_writes = (double)t.rdt_writes * per;
    pt->x4_share = t.lookups ? (double)t.lookups_x4 / (double)t.lookups : 0;
    run_limit lim;
    run_limit_of(&sys, &lim);
    snprintf(pt->limit, sizeof pt->limit, "%s", run_limit_name(lim.kind));
    char why[256];
    pt->complete = system_complete(&sys, why, sizeof why);
    if (!pt->complete)
        snprintf(err, errlen, "%s %s: incomplete run: %s", pattern, path, why);
    system_free(&sys, err, errlen);
    scenario_free(sc);
    return 0;
}

static void point_json(cJSON *o, const char *name, const l3fwd_point *p)
{
    cJSON *j = cJSON_AddObjectToObject(o, name);
    cJSON_AddNumberToObject(j, "pps", p->pps);
    cJSON_AddNumberToObject(j, "forwarded", (double)p->forwarded);
    cJSON_AddNumberToObject(j, "busy_cycles_per_packet", p->busy);
    cJSON *cy = cJSON_AddObjectToObject(j, "cycles_per_packet");
    for (int k = 0; k < CPU_CATS; k++)
        if (k != CPU_CAT_IDLE)
            cJSON_AddNumberToObject(cy, cpu_cat_name((cpu_cat)k), p->cycles[k]);
    cJSON_AddNumberToObject(j, "lookup_entry_reads_per_packet", p->entry_reads);
    cJSON_AddNumberToObject(j, "tx_bursts_per_packet", p->tx_bursts);
    cJSON_AddNumberToObject(j, "tdt_writes_per_packet", p->tdt_writes);
    cJSON_AddNumberToObject(j, "rdt_writes_per_packet", p->rdt_writes);
    cJSON_AddNumberToObject(j, "lookups_x4_share", p->x4_share);
    cJSON_AddStringToObject(j, "limit", p->limit);
}

int cmd_l3fwd(const cli *c)
{
    l3fwd_point pts[NPAT][2];
    static const char *const paths[2] = { "scalar", "multi" };
    char err[1024], header[512] = "";
    int rc = 0;
    scenario *sc = nicsim_scenario_load(c->scenario, c->n_overrides, c->overrides, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    snprintf(header, sizeof header,
             "l3fwd on %llu x 82599 (PCIe Gen%s x%s), one %.0f MHz core (%s, DDIO %s), %llu-byte frames, "
             "%llu per input port at %s\n\n",
             (unsigned long long)scenario_uint(sc, "l3fwd", "ports"), scenario_str(sc, "pcie", "gen"),
             scenario_str(sc, "pcie", "lanes"), scenario_double(sc, "cpu", "mhz"), scenario_str(sc, "cpu", "cache"),
             scenario_bool(sc, "cpu", "ddio") ? "on" : "off", (unsigned long long)scenario_uint(sc, "gen", "size"),
             (unsigned long long)scenario_uint(sc, "gen", "count"),
             scenario_double(sc, "gen", "kpps") > 0 ? "the offered rate" : "line rate");
    scenario_free(sc);
    for (size_t i = 0; i < NPAT; i++)
        for (int k = 0; k < 2; k++) {
            fprintf(stderr, "[%zu/%zu] %s %s\n", 2 * i + (size_t)k + 1, 2 * NPAT, patterns[i].name, paths[k]);
            err[0] = 0;
            int r = run_point(c, patterns[i].key, paths[k], &pts[i][k], err, sizeof err);
            if (r != 0) {
                fprintf(stderr, "%s%s\n", r == EXIT_USAGE ? "" : "nicsim: ", err);
                return r;
            }
            if (!pts[i][k].complete) {
                fprintf(stderr, "nicsim: %s\n", err);
                rc = EXIT_RUN_FAILED;
            }
        }
    printf("%s", header);
    printf("%-22s %12s %12s %8s   %-15s\n", "pattern", "scalar Mpps", "multi Mpps", "diff", "limit");
    for (size_t i = 0; i < NPAT; i++) {
        double s = pts[i][0].pps, m = pts[i][1].pps;
        printf("%-22s %12.3f %12.3f %+7.1f%%   %s / %s\n", patterns[i].name, s / 1e6, m / 1e6,
               s > 0 ? 100 * (m - s) / s : 0, pts[i][0].limit, pts[i][1].limit);
    }
    printf("\nCPU cycles per forwarded packet after bring-up, scalar -> multi\n");
    printf("%-22s %14s %14s %14s %14s %12s\n", "pattern", "busy", "work", "dma_mem", "mmio_write", "lpm reads");
    for (size_t i = 0; i < NPAT; i++) {
        const l3fwd_point *s = &pts[i][0], *m = &pts[i][1];
        printf("%-22s %5.0f -> %5.0f %5.0f -> %5.0f %5.0f -> %5.0f %5.0f -> %5.0f %3.1f -> %4.1f\n",
               patterns[i].name, s->busy, m->busy, s->cycles[CPU_CAT_WORK], m->cycles[CPU_CAT_WORK],
               s->cycles[CPU_CAT_MEM], m->cycles[CPU_CAT_MEM], s->cycles[CPU_CAT_MMIO_WRITE],
               m->cycles[CPU_CAT_MMIO_WRITE], s->entry_reads, m->entry_reads);
    }
    printf("\nPer forwarded packet, scalar -> multi\n");
    printf("%-22s %16s %16s %16s %16s\n", "pattern", "tx bursts", "TDT writes", "RDT writes", "lookups x4");
    for (size_t i = 0; i < NPAT; i++) {
        const l3fwd_point *s = &pts[i][0], *m = &pts[i][1];
        printf("%-22s %6.3f -> %6.3f %6.3f -> %6.3f %6.3f -> %6.3f %5.0f%% -> %4.0f%%\n", patterns[i].name,
               s->tx_bursts, m->tx_bursts, s->tdt_writes, m->tdt_writes, s->rdt_writes, m->rdt_writes,
               100 * s->x4_share, 100 * m->x4_share);
    }
    if (c->json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "scenario", c->scenario);
        cJSON *rows = cJSON_AddArrayToObject(root, "rows");
        for (size_t i = 0; i < NPAT; i++) {
            cJSON *o = cJSON_CreateObject();
            double s = pts[i][0].pps, m = pts[i][1].pps;
            cJSON_AddStringToObject(o, "pattern", patterns[i].name);
            cJSON_AddNumberToObject(o, "scalar_pps", s);
            cJSON_AddNumberToObject(o, "multi_pps", m);
            cJSON_AddNumberToObject(o, "diff_pct", s > 0 ? 100 * (m - s) / s : 0);
            point_json(o, "scalar", &pts[i][0]);
            point_json(o, "multi", &pts[i][1]);
            cJSON_AddItemToArray(rows, o);
        }
        if (report_write_json(c->json, root, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            rc = EXIT_RUN_FAILED;
        }
        cJSON_Delete(root);
    }
    return rc;
}
