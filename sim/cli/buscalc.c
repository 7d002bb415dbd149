/* nicsim buscalc pcie [key=value ...] [--json FILE]: effective DMA write and
 * read bandwidth of streams of back-to-back transfers, per transfer size, by
 * running the PCIe model (models/pcie_bus.c) — the measure pcie-bench's
 * pcie_bw.py reports.  Two pairs of columns: the stream alone on the link
 * (DLLPs where its traffic puts them), and the same link with Acks and
 * UpdateFCs at the busy-link rate on both directions (dllp_always,
 * pcie-bench's assumption), which reproduces pcie_bw.py's figures. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli.h"
#include "../report/report.h"
#include "../../models/pcie_bus.h"

enum { MAX_SIZES = 256 };

static const char keys_list[] = "gen, lanes, mps, mrrs, rcb, ecrc, addr64, tags, lat_ns, size";

/* A whole decimal number that fits an unsigned; -1 otherwise. */
static int parse_uint(const char *v, unsigned *out)
{
    if (*v < '0' || *v > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end || errno || x > 0xffffffffull)
        return -1;
    *out = (unsigned)x;
    return 0;
}

static int parse_sizes(const char *v, unsigned *sizes, int *n)
{
    *n = 0;
    const char *s = v;
    for (;;) {
        char tok[32];
        size_t len = strcspn(s, ",");
        unsigned x;
        if (len == 0 || len >= sizeof tok || *n == MAX_SIZES)
            return -1;
        memcpy(tok, s, len);
        tok[len] = 0;
        if (parse_uint(tok, &x) != 0 || x < 1 || x > PCIE_STREAM_MAX_SIZE)
            return -1;
        sizes[(*n)++] = x;
        if (!s[len])
            return 0;
        s += len + 1;
    }
}

/* Apply one key=value; 0 ok, -1 with the message printed. */
static int apply(const char *kv, pcie_params *p, unsigned *sizes, int *n_sizes)
{
    const char *eq = strchr(kv, '=');
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    const char *v = eq + 1;
    unsigned x = 0;
    if (!strcmp(key, "size")) {
        if (parse_sizes(v, sizes, n_sizes) == 0)
            return 0;
        fprintf(stderr, "nicsim buscalc: size: expected a comma-separated list of at most %d sizes "
                "from 1 to %u bytes, got '%s'\n", MAX_SIZES, PCIE_STREAM_MAX_SIZE, v);
        return -1;
    }
    if (!strcmp(key, "lat_ns")) {
        char *end;
        errno = 0;
        double ns = strtod(v, &end);
        if (*v && !*end && !errno && ns >= 0 && ns <= 1e6) {
            p->host_read_latency = (ps_t)llround(ns * PS_PER_NS);
            return 0;
        }
        fprintf(stderr, "nicsim buscalc: lat_ns: expected a host read latency from 0 to 1000000 ns, "
                "got '%s'\n", v);
        return -1;
    }
    unsigned *field = NULL;
    int *flag = NULL;
    if (!strcmp(key, "gen"))
        field = &p->gen;
    else if (!strcmp(key, "lanes"))
        field = &p->lanes;
    else if (!strcmp(key, "mps"))
        field = &p->mps;
    else if (!strcmp(key, "mrrs"))
        field = &p->mrrs;
    else if (!strcmp(key, "rcb"))
        field = &p->rcb;
    else if (!strcmp(key, "tags"))
        field = &p->tags;
    else if (!strcmp(key, "ecrc"))
        flag = &p->ecrc;
    else if (!strcmp(key, "addr64"))
        flag = &p->addr64;
    else {
        fprintf(stderr, "nicsim buscalc: unknown key '%s' (expected one of %s)\n", key, keys_list);
        return -1;
    }
    if (parse_uint(v, &x) != 0) {
        fprintf(stderr, "nicsim buscalc: %s: expected %s, got '%s'\n", key,
                flag ? "0 or 1" : "a whole number", v);
        return -1;
    }
    if (flag) {
        if (x > 1) {
            fprintf(stderr, "nicsim buscalc: %s: expected 0 or 1, got '%s'\n", key, v);
            return -1;
        }
        *flag = (int)x;
    } else {
        *field = x;
    }
    return 0;
}

typedef struct row {
    unsigned size;
    double w, r, w_pb, r_pb;
} row;

static cJSON *params_json(const pcie_params *p)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "gen", p->gen);
    cJSON_AddNumberToObject(j, "lanes", p->lanes);
    cJSON_AddNumberToObject(j, "mps", p->mps);
    cJSON_AddNumberToObject(j, "mrrs", p->mrrs);
    cJSON_AddNumberToObject(j, "rcb", p->rcb);
    cJSON_AddNumberToObject(j, "ecrc", p->ecrc);
    cJSON_AddNumberToObject(j, "addr64", p->addr64);
    cJSON_AddNumberToObject(j, "tags", p->tags);
    cJSON_AddNumberToObject(j, "lat_ns", (double)p->host_read_latency / PS_PER_NS);
    cJSON_AddNumberToObject(j, "ack_interval", pcie_ack_interval(p));
    cJSON_AddNumberToObject(j, "fc_interval", pcie_fc_interval(p));
    cJSON_AddNumberToObject(j, "skp_interval", p->skp_interval);
    cJSON_AddNumberToObject(j, "raw_gbps", pcie_raw_gbps(p));
    cJSON_AddNumberToObject(j, "tlp_gbps", pcie_tlp_gbps(p));
    return j;
}

int cmd_buscalc(const cli *c)
{
    if (!c->scenario) {
        fprintf(stderr, "nicsim buscalc: missing the bus kind: expected 'pcie'\n");
        return EXIT_USAGE;
    }
    if (strcmp(c->scenario, "pcie") != 0) {
        fprintf(stderr, "nicsim buscalc: bus kind: expected 'pcie', got '%s'\n", c->scenario);
        return EXIT_USAGE;
    }
    if (c->csv || c->list) {
        fprintf(stderr, "nicsim buscalc: %s: not taken by buscalc (it writes --json FILE)\n",
                c->csv ? "--csv" : "--list");
        return EXIT_USAGE;
    }
    pcie_params p;
    pcie_params_default(&p);
    /* pcie-bench's frame sizes of nic-facts E unless size= says otherwise */
    unsigned sizes[MAX_SIZES] = { 64, 128, 256, 512, 1024, 1518 };
    int n_sizes = 6;
    for (int i = 0; i < c->n_overrides; i++)
        if (apply(c->overrides[i], &p, sizes, &n_sizes) != 0)
            return EXIT_USAGE;
    char err[256];
    if (pcie_params_check(&p, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim buscalc: %s\n", err);
        return EXIT_USAGE;
    }

    /* the same link under pcie-bench's assumption about DLLPs */
    pcie_params pb = p;
    pb.dllp_always = 1;
    row rows[MAX_SIZES];
    for (int i = 0; i < n_sizes; i++) {
        row *r = &rows[i];
        r->size = sizes[i];
        if (pcie_stream_measure(&p, 0, r->size, &r->w) != 0 ||
            pcie_stream_measure(&p, 1, r->size, &r->r) != 0 ||
            pcie_stream_measure(&pb, 0, r->size, &r->w_pb) != 0 ||
            pcie_stream_measure(&pb, 1, r->size, &r->r_pb) != 0) {
            fprintf(stderr, "nicsim buscalc: size %u: the stream did not complete\n", r->size);
            return EXIT_RUN_FAILED;
        }
    }

    static const char *const enc[] = { "", "8b/10b", "8b/10b", "128b/130b" };
    static const double gts[] = { 0, 2.5, 5.0, 8.0 };
    printf("PCIe Gen%u x%u (%.1f GT/s per lane, %s): %.2f Gb/s per direction\n", p.gen, p.lanes,
           gts[p.gen], enc[p.gen], pcie_raw_gbps(&p));
    printf("MPS %u, MRRS %u, RCB %u, %s addresses, ECRC %s, %u tags, host read latency %.0f ns\n",
           p.mps, p.mrrs, p.rcb, p.addr64 ? "64-bit" : "32-bit", p.ecrc ? "on" : "off", p.tags,
           (double)p.host_read_latency / PS_PER_NS);
    printf("Ack every %u B and UpdateFC every %u B of the other direction's traffic, "
           "SKP 4 B every %u B\n", pcie_ack_interval(&p), pcie_fc_interval(&p), p.skp_interval);
    printf("TLP bandwidth with both directions busy: %.2f Gb/s per direction\n\n", pcie_tlp_gbps(&p));
    /* "stream alone": the stream's DLLPs go the other way and cost it
     * nothing; "DLLPs as pcie-bench": both directions lose the DLLPs of a
     * busy link (dllp_always), the assumption of pcie_bw.py's figures. */
    printf("%8s  %-23s  %s\n", "", "stream alone", "DLLPs as pcie-bench");
    printf("%8s  %11s %11s  %11s %11s\n", "size", "write Gb/s", "read Gb/s", "write Gb/s", "read Gb/s");
    for (int i = 0; i < n_sizes; i++)
        printf("%8u  %11.2f %11.2f  %11.2f %11.2f\n", rows[i].size, rows[i].w, rows[i].r,
               rows[i].w_pb, rows[i].r_pb);

    if (!c->json)
        return 0;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "bus", "pcie");
    cJSON_AddItemToObject(root, "params", params_json(&p));
    cJSON *arr = cJSON_AddArrayToObject(root, "rows");
    for (int i = 0; i < n_sizes; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "size", rows[i].size);
        cJSON_AddNumberToObject(o, "write_gbps", rows[i].w);
        cJSON_AddNumberToObject(o, "read_gbps", rows[i].r);
        cJSON_AddNumberToObject(o, "write_pcie_bench_gbps", rows[i].w_pb);
        cJSON_AddNumberToObject(o, "read_pcie_bench_gbps", rows[i].r_pb);
        cJSON_AddItemToArray(arr, o);
    }
    int rc = 0;
    if (report_write_json(c->json, root, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    cJSON_Delete(root);
    return rc;
}
