/* nicsim sweep: every point of a sweep (sweep_spec.h), each run in a child
 * process of its own, up to -j at a time, with progress on stderr; then
 * the table, CSV, JSON and plot (sweep_out.h).  Or, for engines that are not
 * ours: --emit-jobs writes one self-contained command per point (GNU
 * parallel), --emit-slurm a job-array script (sweep_emit.h); each runs
 * `sweep ... --point N` and writes its result into the results folder,
 * which `nicsim merge` turns into the same files. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "../report/report.h"
#include "sweep_emit.h"
#include "sweep_out.h"
#include "sweep_point.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int write_point(const char *dir, long idx, const cJSON *pt, char *err, size_t errlen)
{
    char path[PATH_MAX];
    sweep_point_path(dir, idx, path, sizeof path);
    return report_write_json(path, pt, err, errlen);
}

/* ---- progress ---- */

typedef struct progress {
    long done, total;
    double t0;
    int tty;
} progress;

static void point_label(const sweep_spec *s, long idx, char *out, size_t n)
{
    char bufs[SWEEP_MAX_KEYS][512];
    char *ov[SWEEP_MAX_KEYS];
    sweep_spec_point(s, idx, bufs, ov);
    size_t l = 0;
    out[0] = 0;
    for (int k = 0; k < s->nk && l < n; k++)
        l += (size_t)snprintf(out + l, n - l, "%s%s", k ? " " : "", ov[k]);
}

static void progress_point(progress *pg, const sweep_spec *s, long idx, const cJSON *pt, double secs)
{
    char label[1024];
    point_label(s, idx, label, sizeof label);
    pg->done++;
    int failed = !strcmp(sweep_point_state(pt), "failed");
    if (pg->tty) {
        double el = now_s() - pg->t0, eta = pg->done ? el / (double)pg->done * (double)(pg->total - pg->done) : 0;
        int width = 30, fill = (int)(width * pg->done / pg->total);
        fprintf(stderr, "\r[%.*s%*s] %ld/%ld  %.60s  ETA %d:%02d   ", fill, "##############################",
                width - fill, "", pg->done, pg->total, label, (int)eta / 60, (int)eta % 60);
        if (pg->done == pg->total)
            fputc('\n', stderr);
    } else if (failed) {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(pt, "error");
        fprintf(stderr, "[%ld/%ld] %s: FAILED (%.1f s): %s\n", pg->done, pg->total, label, secs,
                cJSON_IsString(e) ? e->valuestring : "");
    } else {
        const cJSON *pps = cJSON_GetObjectItemCaseSensitive(pt, "tx_pps");
        fprintf(stderr, "[%ld/%ld] %s: %.3f kpps (%.1f s)\n", pg->done, pg->total, label,
                cJSON_IsNumber(pps) ? pps->valuedouble / 1e3 : 0, secs);
    }
}

/* ---- running the points in children ---- */

typedef struct child {
    pid_t pid;
    long idx;
    double start;
} child;

/* Run every point, at most jobs at a time, each child writing its JSON into
 * dir; pts[i] gets point i's JSON (or a failed record). */
static void run_points(const sweep_spec *s, int jobs, double timeout, const char *dir, cJSON **pts)
{
    progress pg = { 0, s->npts, now_s(), isatty(STDERR_FILENO) };
    child *run = calloc((size_t)jobs, sizeof *run);
    long next = 0;
    int active = 0;
    while (next < s->npts || active) {
        while (active < jobs && next < s->npts) {
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                int st;
                cJSON *pt = sweep_point_run(s, next, &st);
                char err[512];
                if (write_point(dir, next, pt, err, sizeof err) != 0) {
                    fprintf(stderr, "nicsim: %s\n", err);
                    _exit(EXIT_RUN_FAILED);
                }
                _exit(st);
            }
            if (pid < 0) {
                pts[next] = sweep_point_failed(s, next, -1, "cannot fork");
                progress_point(&pg, s, next, pts[next], 0);
                next++;
                continue;
            }
            for (int j = 0; j < jobs; j++)
                if (!run[j].pid) {
                    run[j] = (child){ pid, next, now_s() };
                    break;
                }
            next++;
            active++;
        }
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid == 0) {
            /* nothing finished: enforce the timeout, then wait a little */
            for (int j = 0; timeout > 0 && j < jobs; j++)
                if (run[j].pid && now_s() - run[j].start > timeout) {
                    kill(run[j].pid, SIGKILL);
                    run[j].start = -1e18;     /* reported when reaped */
                }
            struct timespec ms = { 0, 20 * 1000 * 1000 };
            nanosleep(&ms, NULL);
            continue;
        }
        if (pid < 0)
            break;
        for (int j = 0; j < jobs; j++) {
            if (run[j].pid != pid)
                continue;
            long idx = run[j].idx;
            double secs = run[j].start < 0 ? timeout : now_s() - run[j].start;
            char path[PATH_MAX], why[256];
            sweep_point_path(dir, idx, path, sizeof path);
            pts[idx] = report_read_json(path);
            if (!pts[idx]) {
                if (run[j].start < 0)
                    snprintf(why, sizeof why, "timed out after %.0f s (killed)", timeout);
                else if (WIFSIGNALED(status))
                    snprintf(why, sizeof why, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
                else
                    snprintf(why, sizeof why, "exit status %d and no result", WEXITSTATUS(status));
                pts[idx] = sweep_point_failed(s, idx, WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                                                           : WEXITSTATUS(status), why);
            }
            progress_point(&pg, s, idx, pts[idx], secs);
            run[j].pid = 0;
            active--;
        }
    }
    free(run);
}

/* After the table: every point that failed, with its command and status. */
static void report_failures(const sweep_spec *s, cJSON *const *pts)
{
    long nbad = 0;
    for (long i = 0; i < s->npts; i++) {
        const cJSON *pt = pts[i];
        if (!strcmp(sweep_point_state(pt), "ok"))
            continue;
        nbad++;
        char cmd[4096];
        sweep_point_command(s, i, cmd, sizeof cmd);
        if (!pt) {
            fprintf(stderr, "nicsim: point %ld failed: no result (%s)\n", i + 1, cmd);
            continue;
        }
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(pt, "exit_status");
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(pt, "error");
        const cJSON *inc = cJSON_GetObjectItemCaseSensitive(pt, "incomplete_reason");
        int status = cJSON_IsNumber(st) ? (int)st->valuedouble : -1;
        if (cJSON_IsString(e) && status >= 0)
            fprintf(stderr, "nicsim: point %ld failed (exit status %d): %s\n  command: %s\n", i + 1, status,
                    e->valuestring, cmd);
        else if (cJSON_IsString(e))
            fprintf(stderr, "nicsim: point %ld failed: %s\n  command: %s\n", i + 1, e->valuestring, cmd);
        else
            fprintf(stderr, "nicsim: point %ld incomplete: %s\n  command: %s\n", i + 1,
                    cJSON_IsString(inc) ? inc->valuestring : "", cmd);
    }
    if (nbad)
        fprintf(stderr, "nicsim: %ld of %ld points failed or incomplete\n", nbad, s->npts);
}

static int finish(const sweep_spec *s, cJSON **pts, const cli *c)
{
    char err[1024];
    int bad = sweep_output(s, pts, stdout, c->csv, c->json, c->plot, err, sizeof err);
    report_failures(s, pts);
    if (bad < 0)
        fprintf(stderr, "nicsim: %s\n", err);
    return bad == 0 ? 0 : EXIT_RUN_FAILED;
}

/* ---- the commands ---- */

/* A point run by a job (--point) writes into the folder the sweep was
 * emitted with.  On a host that does not see that folder (not shared, or
 * at another path) the result could not be handed over, so say which host
 * before spending the run. */
static int results_folder_here(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 1;
    char host[256] = "?";
    gethostname(host, sizeof host - 1);
    fprintf(stderr, "nicsim: results folder %s not found on host %s: the points write their results there, so it "
                    "must be at the same path on every host that runs them (a shared filesystem)\n", dir, host);
    return 0;
}

int cmd_sweep(const cli *c)
{
    sweep_spec s;
    char err[1024];
    if (sweep_emit_check_options(c) != 0)
        return EXIT_USAGE;
    if (sweep_spec_parse(&s, c->scenario, c->overrides, c->n_overrides, c->zip, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim sweep: %s\n", err);
        sweep_spec_free(&s);
        return EXIT_USAGE;
    }
    if (s.nk == 0) {
        fprintf(stderr, "nicsim sweep: needs at least one key=v1,v2,... or key=FROM..TO:STEP\n");
        return EXIT_USAGE;
    }
    int rc;
    if (c->emit_jobs || c->emit_slurm) {
        rc = sweep_emit(&s, c);
    } else if (c->point) {
        if (!c->results) {
            fprintf(stderr, "nicsim sweep: --point needs --results DIR (where its result goes)\n");
            rc = EXIT_USAGE;
        } else if (c->point < 1 || c->point > s.npts) {
            fprintf(stderr, "nicsim sweep: --point %ld: the sweep has points 1..%ld\n", c->point, s.npts);
            rc = EXIT_USAGE;
        } else if (!results_folder_here(c->results)) {
            rc = EXIT_USAGE;
        } else {
            cJSON *pt = sweep_point_run(&s, c->point - 1, &rc);
            if (write_point(c->results, c->point - 1, pt, err, sizeof err) != 0) {
                fprintf(stderr, "nicsim: %s\n", err);
                rc = EXIT_RUN_FAILED;
            }
            cJSON_Delete(pt);
        }
    } else {
        char tmpdir[] = "/tmp/nicsim_sweep_XXXXXX";
        const char *dir = c->results;
        if (dir ? cli_mkdir_p(dir, err, sizeof err) != 0 : !mkdtemp(tmpdir)) {
            fprintf(stderr, "nicsim: %s\n", dir ? err : "cannot make a temporary folder");
            sweep_spec_free(&s);
            return EXIT_RUN_FAILED;
        }
        if (!dir)
            dir = tmpdir;
        cJSON **pts = calloc((size_t)s.npts, sizeof *pts);
        long jobs = c->jobs > 0 ? c->jobs : sysconf(_SC_NPROCESSORS_ONLN);
        if (jobs > s.npts)
            jobs = s.npts;      /* no more children than points */
        run_points(&s, jobs < 1 ? 1 : (int)jobs, c->timeout, dir, pts);
        rc = finish(&s, pts, c);
        for (long i = 0; i < s.npts; i++) {
            if (!c->results) {
                char path[PATH_MAX], tmp[PATH_MAX + 8];
                sweep_point_path(dir, i, path, sizeof path);
                snprintf(tmp, sizeof tmp, "%s.tmp", path);   /* a killed point's half-written file */
                unlink(path);
                unlink(tmp);
            }
            cJSON_Delete(pts[i]);
        }
        if (!c->results)
            rmdir(dir);
        free(pts);
    }
    sweep_spec_free(&s);
    return rc;
}

int cmd_merge(const cli *c)
{
    char err[1024], path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/sweep.json", c->scenario);
    cJSON *j = report_read_json(path);
    sweep_spec s;
    if (!j || sweep_spec_from_json(&s, j, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", path, j ? err : "cannot read (not a results folder of --emit-jobs/--emit-slurm)");
        cJSON_Delete(j);
        return EXIT_USAGE;
    }
    cJSON_Delete(j);
    cJSON **pts = calloc((size_t)s.npts, sizeof *pts);
    for (long i = 0; i < s.npts; i++) {
        char p[PATH_MAX];
        sweep_point_path(c->scenario, i, p, sizeof p);
        pts[i] = report_read_json(p);
        if (!pts[i]) {
            char why[PATH_MAX + 256];
            sweep_emit_missing_reason(c->scenario, i, why, sizeof why);
            pts[i] = sweep_point_failed(&s, i, -1, why);
        }
    }
    int rc = finish(&s, pts, c);
    sweep_emit_rerun_hint(&s, pts, c->scenario);
    for (long i = 0; i < s.npts; i++)
        cJSON_Delete(pts[i]);
    free(pts);
    sweep_spec_free(&s);
    return rc;
}
