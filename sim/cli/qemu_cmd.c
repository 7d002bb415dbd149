/* nicsim qemu: the scenario's card served to QEMU (sim/qemu/qemu_serve.h),
 * then what crossed the device: per function the accesses, DMA, frames,
 * and the two clocks.  The exit status is QEMU's, or 1 when serving failed
 * and 2 for a bad scenario. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "../qemu/qemu_serve.h"
#include "../report/report.h"

/* The report's rows: the unmodelled accesses with a bank's registers
 * ("NAME(k)") of one function and direction merged into runs of
 * consecutive k, as a driver touching every queue leaves them; in the
 * order each row's first register was first used. */
typedef struct um_row {
    int first;                  /* the earliest first use among its registers */
    int lo, hi;                 /* entries: its lowest and highest register */
    int n;                      /* registers in it */
    uint64_t count;
} um_row;

static int bank_index(const char *name, size_t *stem)
{
    const char *p = strchr(name, '(');
    if (!p)
        return -1;
    *stem = (size_t)(p - name);
    return atoi(p + 1);
}

/* qsort_r order of indices into r->unmodelled (r: the context) */
static int by_bank(const void *x, const void *y, void *r)
{
    const nic_engine_unmodelled_access *a = &((const qemu_result *)r)->unmodelled[*(const int *)x];
    const nic_engine_unmodelled_access *b = &((const qemu_result *)r)->unmodelled[*(const int *)y];
    size_t sa = 0, sb = 0;
    int ka = bank_index(a->name, &sa), kb = bank_index(b->name, &sb);
    int c = a->func - b->func;
    if (!c)
        c = a->write - b->write;
    if (!c)
        c = (ka < 0) - (kb < 0);
    if (!c && ka >= 0) {
        c = strncmp(a->name, b->name, sa < sb ? sa : sb);
        if (!c)
            c = (int)sa - (int)sb;
        if (!c)
            c = ka - kb;
    }
    return c ? c : *(const int *)x - *(const int *)y;
}

static int by_first_use(const void *x, const void *y)
{
    return ((const um_row *)x)->first - ((const um_row *)y)->first;
}

static int um_rows(const qemu_result *r, um_row *rows)
{
    int idx[QEMU_MAX_UNMODELLED], n = 0;
    for (int i = 0; i < r->n_unmodelled; i++)
        idx[i] = i;
    qsort_r(idx, (size_t)r->n_unmodelled, sizeof idx[0], by_bank, (void *)r);
    for (int i = 0, j; i < r->n_unmodelled; i = j) {
        const nic_engine_unmodelled_access *u = &r->unmodelled[idx[i]];
        size_t stem = 0;
        int k = bank_index(u->name, &stem);
        um_row w = { .first = idx[i], .lo = idx[i], .count = u->count };
        for (j = i + 1; k >= 0 && j < r->n_unmodelled; j++) {
            const nic_engine_unmodelled_access *v = &r->unmodelled[idx[j]];
            size_t vs = 0;
            if (bank_index(v->name, &vs) != k + (j - i) || vs != stem || strncmp(u->name, v->name, stem) ||
                v->func != u->func || v->write != u->write)
                break;
            w.count += v->count;
            if (idx[j] < w.first)
                w.first = idx[j];
        }
        w.hi = idx[j - 1];
        w.n = j - i;
        rows[n++] = w;
    }
    qsort(rows, (size_t)n, sizeof rows[0], by_first_use);
    return n;
}

static void print_result(const char *path, const qemu_result *r)
{
    printf("nicsim qemu: %s\n", path);
    printf("QEMU exited with status %d after %.3f s; simulated %.6f s\n", r->qemu_status, r->wall_s, r->sim_s);
    printf("\nFunction  device     cfg-reads cfg-writes  bar-reads bar-writes  bar-refused  tx-frames  cabled\n");
    for (int f = 0; f < r->nfuncs; f++)
        printf("%-9d 8086:%04x %10llu %10llu %10llu %10llu %12llu %10llu %7llu\n", f, r->fn[f].device_id,
               (unsigned long long)r->fn[f].cfg_reads, (unsigned long long)r->fn[f].cfg_writes,
               (unsigned long long)r->fn[f].bar_reads, (unsigned long long)r->fn[f].bar_writes,
               (unsigned long long)r->fn[f].bar_off, (unsigned long long)r->tx_frames[f],
               (unsigned long long)r->cabled[f]);
    printf("\nDMA: %llu reads (%llu bytes), %llu writes (%llu bytes); master aborts %llu, refused without bus "
           "mastering %llu\n",
           (unsigned long long)r->dma_reads, (unsigned long long)r->dma_read_bytes,
           (unsigned long long)r->dma_writes, (unsigned long long)r->dma_write_bytes,
           (unsigned long long)r->master_aborts, (unsigned long long)r->dma_no_master);
    for (int p = 0; p < r->nfuncs; p++) {
        const qemu_partner *q = &r->partner[p];
        if (!q->present)
            continue;
        const char *when = r->partner_start_guest ? "the guest's start (config byte 0xF0)" : "the guest enabled receive";
        if (q->started)
            printf("Link partner on port %d: %llu frames sent (%llu bytes with FCS), from gen.start_us after %s\n", p,
                   (unsigned long long)q->frames, (unsigned long long)q->bytes, when);
        else
            printf("Link partner on port %d: sent nothing (it waits for %s)\n", p,
                   r->partner_start_guest ? "the guest's start (config byte 0xF0)" : "the guest to enable receive");
    }
    printf("Guest memory map updates %llu; interrupt line changes not delivered %llu; late observations %llu\n",
           (unsigned long long)r->sysmem_syncs, (unsigned long long)r->irq_changes, (unsigned long long)r->late);
    printf("\nRegister accesses the RTL does not implement: %llu", (unsigned long long)r->unmodelled_total);
    if (!r->n_unmodelled) {
        printf("\n");
        return;
    }
    printf(" (a read returned 0, a write was ignored)\n"
           "Function  access  offset            register                 count\n");
    static um_row rows[QEMU_MAX_UNMODELLED];
    int n = um_rows(r, rows);
    for (int i = 0; i < n; i++) {
        const nic_engine_unmodelled_access *lo = &r->unmodelled[rows[i].lo], *hi = &r->unmodelled[rows[i].hi];
        const char *dir = lo->write ? "write" : "read";
        if (rows[i].n == 1) {
            printf("%-9d %-7s %#07x           %-22s %8llu\n", lo->func, dir, lo->off, lo->name,
                   (unsigned long long)rows[i].count);
        } else {
            /* one bank's registers: NAME(first..last) and the offsets of both */
            char range[48];
            size_t stem = 0;
            int k0 = bank_index(lo->name, &stem);
            snprintf(range, sizeof range, "%.*s(%d..%d)", (int)stem, lo->name, k0, k0 + rows[i].n - 1);
            printf("%-9d %-7s %#07x..%#07x %-22s %8llu\n", lo->func, dir, lo->off, hi->off, range,
                   (unsigned long long)rows[i].count);
        }
    }
}

static cJSON *result_json(const char *path, const qemu_result *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "scenario", path);
    cJSON_AddNumberToObject(j, "qemu_status", r->qemu_status);
    cJSON_AddNumberToObject(j, "wall_s", r->wall_s);
    cJSON_AddNumberToObject(j, "sim_s", r->sim_s);
    cJSON *fa = cJSON_AddArrayToObject(j, "functions");
    for (int f = 0; f < r->nfuncs; f++) {
        cJSON *o = cJSON_CreateObject();
        char id[16];
        snprintf(id, sizeof id, "8086:%04x", r->fn[f].device_id);
        cJSON_AddStringToObject(o, "device", id);
        cJSON_AddNumberToObject(o, "cfg_reads", (double)r->fn[f].cfg_reads);
        cJSON_AddNumberToObject(o, "cfg_writes", (double)r->fn[f].cfg_writes);
        cJSON_AddNumberToObject(o, "bar_reads", (double)r->fn[f].bar_reads);
        cJSON_AddNumberToObject(o, "bar_writes", (double)r->fn[f].bar_writes);
        cJSON_AddNumberToObject(o, "bar_refused", (double)r->fn[f].bar_off);
        cJSON_AddNumberToObject(o, "tx_frames", (double)r->tx_frames[f]);
        cJSON_AddNumberToObject(o, "cabled", (double)r->cabled[f]);
        cJSON_AddItemToArray(fa, o);
    }
    cJSON *pa = cJSON_AddArrayToObject(j, "partners");
    for (int p = 0; p < r->nfuncs; p++) {
        const qemu_partner *q = &r->partner[p];
        if (!q->present)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "port", p);
        cJSON_AddBoolToObject(o, "started", q->started);
        cJSON_AddNumberToObject(o, "frames", (double)q->frames);
        cJSON_AddNumberToObject(o, "bytes", (double)q->bytes);
        cJSON_AddItemToArray(pa, o);
    }
    cJSON *d = cJSON_AddObjectToObject(j, "dma");
    cJSON_AddNumberToObject(d, "reads", (double)r->dma_reads);
    cJSON_AddNumberToObject(d, "read_bytes", (double)r->dma_read_bytes);
    cJSON_AddNumberToObject(d, "writes", (double)r->dma_writes);
    cJSON_AddNumberToObject(d, "write_bytes", (double)r->dma_write_bytes);
    cJSON_AddNumberToObject(d, "master_aborts", (double)r->master_aborts);
    cJSON_AddNumberToObject(d, "no_bus_master", (double)r->dma_no_master);
    cJSON_AddNumberToObject(j, "sysmem_syncs", (double)r->sysmem_syncs);
    cJSON_AddNumberToObject(j, "irq_changes", (double)r->irq_changes);
    cJSON_AddNumberToObject(j, "late", (double)r->late);
    cJSON *um = cJSON_AddObjectToObject(j, "unmodelled");
    cJSON_AddNumberToObject(um, "total", (double)r->unmodelled_total);
    cJSON *ua = cJSON_AddArrayToObject(um, "accesses");
    for (int i = 0; i < r->n_unmodelled; i++) {
        const nic_engine_unmodelled_access *u = &r->unmodelled[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "function", u->func);
        cJSON_AddStringToObject(o, "access", u->write ? "write" : "read");
        cJSON_AddNumberToObject(o, "offset", u->off);
        cJSON_AddStringToObject(o, "register", u->name);
        cJSON_AddNumberToObject(o, "count", (double)u->count);
        cJSON_AddItemToArray(ua, o);
    }
    return j;
}

int cmd_qemu(const cli *c)
{
    char err[1024];
    /* the guest may drive either port: both are built into the RTL (the
     * command line's overrides come after and win) */
    char *ov[c->n_overrides + 1];
    ov[0] = "nic.rtl_ports=2";
    for (int i = 0; i < c->n_overrides; i++)
        ov[i + 1] = c->overrides[i];
    scenario *sc = nicsim_scenario_load(c->scenario, c->n_overrides + 1, ov, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    qemu_result r;
    int rc = qemu_serve(sc, c->tail, stderr, &r, err, sizeof err);
    scenario_free(sc);
    if (rc != 0) {
        fprintf(stderr, "nicsim qemu: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    print_result(c->scenario, &r);
    if (c->json) {
        cJSON *j = result_json(c->scenario, &r);
        int wrc = report_write_json(c->json, j, err, sizeof err);
        cJSON_Delete(j);
        if (wrc != 0) {
            fprintf(stderr, "nicsim qemu: %s\n", err);
            return EXIT_RUN_FAILED;
        }
    }
    return r.qemu_status;
}
