/* The sweep's plot, drawn by gnuplot (Debian gnuplot-nox): the measured
 * transmit rate against the first swept key, one series per value of the
 * second key, and the wire-speed rate dashed; axes with units.  SVG or PNG
 * by the file's extension; written to PATH.tmp and renamed. */
#include "sweep_out.h"
#include "sweep_point.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The unit of a swept key, for the x axis. */
static const char *unit_of(const char *key)
{
    static const struct {
        const char *key, *unit;
    } units[] = {
        { "pktgen.size", "bytes" }, { "gen.size", "bytes" }, { "pktgen.burst", "packets" },
        { "driver.tx_ring", "descriptors" }, { "driver.rx_ring", "descriptors" }, { "gen.kpps", "kpps" },
        { "cpu.mhz", "MHz" }, { "link.gbps", "Gb/s" }, { "bus.mhz", "MHz" }, { "driver.itr", "x 256 ns" },
        { "driver.eitr_us", "us" }, { "pcie.lanes", "lanes" }, { "cpu.mmio_write_ns", "ns" },
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(key, units[i].key))
            return units[i].unit;
    return NULL;
}

static int numeric(const sweep_key *k)
{
    for (int i = 0; i < k->n; i++) {
        char *end;
        strtod(k->vals[i], &end);
        if (!*k->vals[i] || *end)
            return 0;
    }
    return 1;
}

static double num(const cJSON *pt, const char *name, int *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(pt, name);
    *ok = cJSON_IsNumber(v) && strcmp(sweep_point_state(pt), "failed") != 0;
    return *ok ? v->valuedouble : 0;
}

int sweep_plot(const sweep_spec *s, cJSON *const *pts, const char *path, char *err, size_t errlen)
{
    const char *ext = strrchr(path, '.');
    int png = ext && !strcmp(ext, ".png");
    if (!ext || (!png && strcmp(ext, ".svg"))) {
        snprintf(err, errlen, "--plot %s: expected a file name ending in .svg or .png", path);
        return -1;
    }
    if (s->nk < 1) {
        snprintf(err, errlen, "--plot: nothing was swept");
        return -1;
    }
    char dir[] = "/tmp/nicsim_plot_XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "--plot: cannot make a temporary folder: %s", strerror(errno));
        return -1;
    }
    char data[64], tmp[4200];
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    const sweep_key *kx = &s->keys[0];
    int xnum = numeric(kx);
    FILE *d = fopen(data, "w");
    /* a series per combination of the other keys' values (the first key
     * varies slowest, so point i belongs to series i % nseries) */
    long nseries = s->zip ? 1 : s->npts / kx->n;
    if (nseries > 64) {
        snprintf(err, errlen, "--plot: %ld series (the other keys' combinations): at most 64", nseries);
        if (d)
            fclose(d);
        unlink(data);
        rmdir(dir);
        return -1;
    }
    char labels[64][256];
    for (long sr = 0; sr < nseries; sr++) {
        char bufs[SWEEP_MAX_KEYS][512];
        char *ov[SWEEP_MAX_KEYS];
        sweep_spec_point(s, sr, bufs, ov);
        size_t l = 0;
        labels[sr][0] = 0;
        for (int k = 1; k < s->nk && !s->zip; k++)
            if (s->keys[k].n > 1 && l < sizeof labels[sr])
                l += (size_t)snprintf(labels[sr] + l, sizeof labels[sr] - l, "%s%s", l ? " " : "", ov[k]);
        if (!labels[sr][0])
            snprintf(labels[sr], sizeof labels[sr], "measured");
    }
    /* one gnuplot data block per series: x, measured kpps, wire kpps */
    for (long sr = 0; d && sr < nseries; sr++) {
        for (long i = sr; i < s->npts; i += nseries) {
            char bufs[SWEEP_MAX_KEYS][512];
            char *ov[SWEEP_MAX_KEYS];
            sweep_spec_point(s, i, bufs, ov);
            int ok1, ok2;
            double pps = num(pts[i], "tx_pps", &ok1), wire = num(pts[i], "wire_pps", &ok2);
            const char *xv = strchr(ov[0], '=') + 1;
            if (xnum)
                fprintf(d, "%s ", xv);
            else
                fprintf(d, "%ld \"%s\" ", i, xv);
            if (ok1 && ok2)
                fprintf(d, "%.6f %.6f\n", pps / 1e3, wire / 1e3);
            else
                fprintf(d, "NaN NaN\n");   /* a failed point: a gap */
        }
        fprintf(d, "\n\n");
    }
    if (!d || fclose(d) != 0) {
        snprintf(err, errlen, "--plot: cannot write %s", data);
        rmdir(dir);
        return -1;
    }
    char cmd[256];
    snprintf(cmd, sizeof cmd, "gnuplot 2>%s/log", dir);
    FILE *g = popen(cmd, "w");
    if (!g) {
        snprintf(err, errlen, "--plot: cannot run gnuplot (Debian: gnuplot-nox)");
        unlink(data);
        rmdir(dir);
        return -1;
    }
    fprintf(g, "set terminal %s size 900,560 font \"sans,11\"\n", png ? "pngcairo" : "svg dynamic");
    fprintf(g, "set output '%s'\n", tmp);
    const char *u = unit_of(kx->name);
    fprintf(g, "set xlabel '%s%s%s%s'\n", kx->name, u ? " (" : "", u ? u : "", u ? ")" : "");
    fprintf(g, "set ylabel 'transmitted (kpps)'\nset grid\nset key top right box opaque\nset yrange [0:*]\n");
    fprintf(g, "set title '%s' noenhanced\n", s->scenario);
    const char *xcol = xnum ? "1" : "1:xtic(2)";
    int ycol = xnum ? 2 : 3;
    fprintf(g, "plot ");
    for (long sr = 0; sr < nseries; sr++)
        fprintf(g, "'%s' index %ld using %s:%d with linespoints pt 7 title '%s' noenhanced, ", data, sr, xcol, ycol,
                labels[sr]);
    fprintf(g, "'%s' index 0 using %s:%d with lines dt 2 lc rgb 'gray40' title 'wire speed'\n", data, xcol,
            ycol + 1);
    int rc = pclose(g);
    char log[64];
    snprintf(log, sizeof log, "%s/log", dir);
    FILE *lf = fopen(log, "r");
    char first[512] = "";
    if (lf) {
        if (!fgets(first, sizeof first, lf))
            first[0] = 0;
        fclose(lf);
    }
    unlink(log);
    unlink(data);
    rmdir(dir);
    if (rc != 0 || access(tmp, F_OK) != 0 || rename(tmp, path) != 0) {
        first[strcspn(first, "\n")] = 0;
        snprintf(err, errlen, "--plot %s: gnuplot failed%s%s", path, first[0] ? ": " : "", first);
        unlink(tmp);
        return -1;
    }
    return 0;
}
