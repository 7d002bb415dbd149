/* The sweep's plot, drawn by gnuplot (Debian gnuplot-nox): the measured
 * transmit rate against the first swept key, one series per value of the
 * second key, and the wire-speed rate dashed; axes with units, key names
 * as written (no gnuplot markup), a log2 x axis when the values are powers
 * of two (ring sizes, bursts, batches), the legend outside the data and
 * each point labelled with what limited its run.  SVG or PNG by the file's
 * extension; gnuplot draws it in a scratch folder and it is then written
 * out as every output is (models/out_file.h). */
#include "sweep_out.h"
#include "sweep_point.h"
#include "cli.h"
#include "../../models/out_file.h"
#include <limits.h>
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

/* Powers of two, at least three of them: a ring or batch sweep, whose
 * points a linear axis would crowd at its left end. */
static int powers_of_two(const sweep_key *k)
{
    if (k->n < 3)
        return 0;
    for (int i = 0; i < k->n; i++) {
        char *end;
        unsigned long long v = strtoull(k->vals[i], &end, 10);
        if (!*k->vals[i] || *end || v == 0 || (v & (v - 1)))
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

/* One plot in the making: what it shows and its temporary files (the data,
 * gnuplot's stderr and the image in a folder of their own). */
typedef struct plot {
    const sweep_spec *s;
    int png;                    /* else SVG */
    int xnum;                   /* the first key's values are numbers (else tic labels) */
    int xlog2;                  /* ... and powers of two: a log2 axis */
    char xtics[1024];           /* then a tic at each value */
    long nseries;
    char labels[64][256];
    char dir[PATH_MAX], data[PATH_MAX + 8], log[PATH_MAX + 8], tmp[PATH_MAX + 8];
} plot;

/* The format by the file's extension: 1 PNG, 0 SVG, -1 neither (err). */
int sweep_plot_format(const char *path, char *err, size_t errlen)
{
    const char *ext = strrchr(path, '.');
    int png = ext && !strcmp(ext, ".png");
    if (!ext || (!png && strcmp(ext, ".svg"))) {
        snprintf(err, errlen, "--plot %s: expected a file name ending in .svg or .png", path);
        return -1;
    }
    return png;
}

/* The temporary folder and the names of the files in it.  0, or -1 (err). */
static int plot_make_dir(plot *pl, char *err, size_t errlen)
{
    snprintf(pl->dir, sizeof pl->dir, "%s/nicsim_plot_XXXXXX", cli_tmp_folder());
    if (!mkdtemp(pl->dir)) {
        snprintf(err, errlen, "--plot: cannot make a temporary folder in %s: %s", cli_tmp_folder(), strerror(errno));
        return -1;
    }
    snprintf(pl->data, sizeof pl->data, "%s/data", pl->dir);
    snprintf(pl->log, sizeof pl->log, "%s/log", pl->dir);
    snprintf(pl->tmp, sizeof pl->tmp, "%s/image", pl->dir);
    return 0;
}

/* The image gnuplot drew, written to path as an output: 0, or -1 (err). */
static int copy_image(const char *from, const char *path, char *err, size_t errlen)
{
    FILE *in = fopen(from, "rb");
    if (!in) {
        snprintf(err, errlen, "--plot %s: gnuplot wrote no image", path);
        return -1;
    }
    out_file *o = out_file_open(path, err, errlen);
    char buf[65536];
    size_t n;
    while (o && !out_file_failed(o) && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out_file_stream(o)) != n)
            out_file_note(o);
    int bad = ferror(in);
    fclose(in);
    if (o && bad) {
        out_file_abort(o);
        snprintf(err, errlen, "--plot %s: cannot read gnuplot's image", path);
        return -1;
    }
    return o ? out_file_commit(o, err, errlen) : -1;
}

/* A legend label per series: the other keys' settings that vary (with one
 * value a key tells the series nothing), "measured" when none does. */
static void series_labels(plot *pl)
{
    const sweep_spec *s = pl->s;
    for (long sr = 0; sr < pl->nseries; sr++) {
        char bufs[SWEEP_MAX_KEYS][512];
        char *ov[SWEEP_MAX_KEYS];
        sweep_spec_point(s, sr, bufs, ov);
        char *label = pl->labels[sr];
        size_t l = 0, n = sizeof pl->labels[sr];
        label[0] = 0;
        for (int k = 1; k < s->nk && !s->zip; k++)
            if (s->keys[k].n > 1 && l < n)
                l += (size_t)snprintf(label + l, n - l, "%s%s", l ? " " : "", ov[k]);
        if (!label[0])
            snprintf(label, n, "measured");
    }
}

/* One gnuplot data block per series: x, measured kpps, wire kpps, the
 * run's limit.  A non-numeric x is the point's index and its value (for
 * xtic); a failed point is NaN, a gap in the line. */
static void write_plot_data(FILE *d, const plot *pl, cJSON *const *pts)
{
    const sweep_spec *s = pl->s;
    for (long sr = 0; sr < pl->nseries; sr++) {
        for (long i = sr; i < s->npts; i += pl->nseries) {
            char bufs[SWEEP_MAX_KEYS][512];
            char *ov[SWEEP_MAX_KEYS];
            sweep_spec_point(s, i, bufs, ov);
            int ok1, ok2;
            double pps = num(pts[i], "tx_pps", &ok1), wire = num(pts[i], "wire_pps", &ok2);
            const char *xv = strchr(ov[0], '=') + 1;
            if (pl->xnum)
                fprintf(d, "%s ", xv);
            else
                fprintf(d, "%ld \"%s\" ", i, xv);
            const cJSON *lim = cJSON_GetObjectItemCaseSensitive(pts[i], "limit");
            if (ok1 && ok2)
                fprintf(d, "%.6f %.6f \"%s\"\n", pps / 1e3, wire / 1e3,
                        cJSON_IsString(lim) ? lim->valuestring : "");
            else
                fprintf(d, "NaN NaN \"\"\n");   /* a failed point: a gap */
        }
        fprintf(d, "\n\n");
    }
}

/* The gnuplot program: the terminal, axes with units, a line per series
 * with each point's limit above it, and the wire speed dashed (from series
 * 0's data block); the legend right of the plot, clear of every line. */
static void write_gnuplot_script(FILE *g, const plot *pl)
{
    const sweep_key *kx = &pl->s->keys[0];
    fprintf(g, "set terminal %s size 900,560 font \"sans,11\"\n", pl->png ? "pngcairo" : "svg dynamic");
    fprintf(g, "set output '%s'\n", pl->tmp);
    const char *u = unit_of(kx->name);
    fprintf(g, "set xlabel '%s%s%s%s' noenhanced\n", kx->name, u ? " (" : "", u ? u : "", u ? ")" : "");
    fprintf(g, "set ylabel 'transmitted (kpps)'\nset grid\nset key outside right top box\nset yrange [0:*]\n");
    /* room at the ends for the first and last points and their labels */
    fprintf(g, "set offsets graph 0.04, graph 0.04, graph 0.08, 0\n");
    if (pl->xlog2)
        fprintf(g, "set logscale x 2\nset xtics (%s)\n", pl->xtics);
    fprintf(g, "set title '%s' noenhanced\n", pl->s->scenario);
    const char *xcol = pl->xnum ? "1" : "1:xtic(2)";
    int ycol = pl->xnum ? 2 : 3;
    fprintf(g, "plot ");
    for (long sr = 0; sr < pl->nseries; sr++) {
        fprintf(g, "'%s' index %ld using %s:%d with linespoints pt 7 title '%s' noenhanced, ", pl->data, sr, xcol,
                ycol, pl->labels[sr]);
        fprintf(g, "'%s' index %ld using %s:%d:%d with labels offset 0,0.8 font ',8' tc rgb 'gray30' noenhanced "
                "notitle, ", pl->data, sr, "1", ycol, ycol + 2);
    }
    fprintf(g, "'%s' index 0 using %s:%d with lines dt 2 lc rgb 'gray40' title 'wire speed'\n", pl->data, xcol,
            ycol + 1);
}

/* Run gnuplot on the data, then remove the temporary folder; the image
 * replaces PATH only when gnuplot succeeded (else err gets gnuplot's first
 * line on stderr).  0, or -1. */
static int run_gnuplot(const plot *pl, const char *path, char *err, size_t errlen)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "gnuplot 2>'%s'", pl->log);   /* no quote in it: cli_tmp_folder */
    FILE *g = popen(cmd, "w");
    if (!g) {
        snprintf(err, errlen, "--plot: cannot run gnuplot (Debian: gnuplot-nox)");
        unlink(pl->data);
        rmdir(pl->dir);
        return -1;
    }
    write_gnuplot_script(g, pl);
    int rc = pclose(g);
    FILE *lf = fopen(pl->log, "r");
    char first[512] = "";
    if (lf) {
        if (!fgets(first, sizeof first, lf))
            first[0] = 0;
        fclose(lf);
    }
    unlink(pl->log);
    unlink(pl->data);
    if (rc != 0 || access(pl->tmp, F_OK) != 0) {
        first[strcspn(first, "\n")] = 0;
        snprintf(err, errlen, "--plot %s: gnuplot failed%s%s", path, first[0] ? ": " : "", first);
        rc = -1;
    } else {
        rc = copy_image(pl->tmp, path, err, errlen);
    }
    unlink(pl->tmp);
    rmdir(pl->dir);
    return rc;
}

int sweep_plot(const sweep_spec *s, cJSON *const *pts, const char *path, char *err, size_t errlen)
{
    plot pl = { .s = s };
    pl.png = sweep_plot_format(path, err, errlen);
    if (pl.png < 0)
        return -1;
    if (s->nk < 1) {
        snprintf(err, errlen, "--plot: nothing was swept");
        return -1;
    }
    if (plot_make_dir(&pl, err, errlen) != 0)
        return -1;
    pl.xnum = numeric(&s->keys[0]);
    pl.xlog2 = pl.xnum && powers_of_two(&s->keys[0]);
    for (int i = 0, l = 0; pl.xlog2 && i < s->keys[0].n && l < (int)sizeof pl.xtics; i++)
        l += snprintf(pl.xtics + l, sizeof pl.xtics - (size_t)l, "%s%s", i ? ", " : "", s->keys[0].vals[i]);
    FILE *d = fopen(pl.data, "w");
    /* a series per combination of the other keys' values (the first key
     * varies slowest, so point i belongs to series i % nseries) */
    pl.nseries = s->zip ? 1 : s->npts / s->keys[0].n;
    if (pl.nseries > 64) {
        snprintf(err, errlen, "--plot: %ld series (the other keys' combinations): at most 64", pl.nseries);
        if (d)
            fclose(d);
        unlink(pl.data);
        rmdir(pl.dir);
        return -1;
    }
    series_labels(&pl);
    if (d)
        write_plot_data(d, &pl, pts);
    if (!d || fclose(d) != 0) {
        snprintf(err, errlen, "--plot: cannot write %s", pl.data);
        rmdir(pl.dir);
        return -1;
    }
    return run_gnuplot(&pl, path, err, errlen);
}
