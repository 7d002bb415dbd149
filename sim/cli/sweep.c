/* nicsim sweep: every point of a sweep (sweep_spec.h), each run in a child
 * process of its own, up to -j at a time, with progress on stderr; then
 * the table, CSV, JSON and plot (sweep_out.h).  Or, for engines that are not
 * ours: --emit-jobs writes one self-contained command per point (GNU
 * parallel), --emit-slurm a job-array script (sweep_emit.h); each runs
 * `sweep ... --point N` and writes its result into the results folder,
 * which `nicsim merge` turns into the same files. */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
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
#include "../../models/out_file.h"
#include "sweep_check.h"
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

/* ---- stopping on a signal ----
 *
 * SIGINT, SIGTERM and SIGHUP do not kill the sweep at once: the handler
 * notes the signal, and the loop below stops the children (each removes
 * its temporary files on SIGTERM: out_file.h), waits for them, and the
 * sweep says what it kept before it exits with 128 + the signal. */

static volatile sig_atomic_t stop_signal;

static void note_stop(int sig)
{
    stop_signal = sig;
}

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };

static void catch_stop_signals(void)
{
    for (size_t i = 0; i < sizeof stop_sigs / sizeof stop_sigs[0]; i++) {
        struct sigaction old, sa = { .sa_handler = note_stop };
        sigemptyset(&sa.sa_mask);
        if (sigaction(stop_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;   /* nohup: keep ignoring it */
        sigaction(stop_sigs[i], &sa, NULL);
    }
}

/* The temporary files a point killed with SIGKILL may have left of its
 * result (DIR/point-NNNNN.json.XXXXXX.tmp). */
static void remove_point_tmp(const char *dir, long idx)
{
    char path[PATH_MAX], pat[PATH_MAX + 16];
    sweep_point_path(dir, idx, path, sizeof path);
    snprintf(pat, sizeof pat, "%s.*.tmp", path);
    glob_t g;
    if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            unlink(g.gl_pathv[i]);
    globfree(&g);
}

/* ---- running the points in children ---- */

typedef struct child {
    pid_t pid;
    long idx;
    double start;
    double term_at;             /* when SIGTERM was sent (0: not yet) */
} child;

/* How long a child sent SIGTERM gets to remove its files before SIGKILL. */
#define TERM_GRACE_S 5.0

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
                /* the child dies of these signals, its temporary files removed */
                out_file_forget_all();
                out_file_clean_on_signals();
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
                    run[j] = (child){ pid, next, now_s(), 0 };
                    break;
                }
            next++;
            active++;
        }
        if (stop_signal) {
            next = s->npts;     /* start no more points */
            for (int j = 0; j < jobs; j++)
                if (run[j].pid && !run[j].term_at) {
                    kill(run[j].pid, SIGTERM);
                    run[j].term_at = now_s();
                }
        }
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid == 0) {
            /* nothing finished: enforce the timeout (SIGTERM, so that the
             * child removes its temporary files, then SIGKILL), then wait
             * a little */
            for (int j = 0; j < jobs; j++) {
                if (!run[j].pid)
                    continue;
                if (timeout > 0 && !run[j].term_at && now_s() - run[j].start > timeout) {
                    kill(run[j].pid, SIGTERM);
                    run[j].term_at = now_s();
                    run[j].start = -1e18;     /* reported when reaped */
                }
                if (run[j].term_at && now_s() - run[j].term_at > TERM_GRACE_S)
                    kill(run[j].pid, SIGKILL);
            }
            struct timespec ms = { 0, 20 * 1000 * 1000 };
            nanosleep(&ms, NULL);
            continue;
        }
        if (pid < 0 && errno == EINTR)
            continue;
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
            remove_point_tmp(dir, idx);
            if (!pts[idx] && stop_signal && run[j].term_at) {
                /* stopped by the sweep's own signal: not run, not failed */
                run[j].pid = 0;
                active--;
                continue;
            }
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

/* A sweep stopped by a signal: what it kept, and 128 + the signal (as the
 * shell reports a process the signal ended). */
static int stopped(const sweep_spec *s, cJSON *const *pts, const cli *c)
{
    long done = 0;
    for (long i = 0; i < s->npts; i++)
        done += pts[i] != NULL;
    int sig = stop_signal;
    const char *name = sigabbrev_np(sig) ? sigabbrev_np(sig) : "?";
    if (c->results)
        fprintf(stderr, "nicsim sweep: stopped by SIG%s: %ld of %ld points done, their results kept in "
                        "%s/point-NNNNN.json; no table, CSV, JSON or plot written\n", name, done, s->npts,
                c->results);
    else
        fprintf(stderr, "nicsim sweep: stopped by SIG%s: %ld of %ld points done, nothing kept (--results DIR keeps "
                        "the points done); no table, CSV, JSON or plot written\n", name, done, s->npts);
    return 128 + sig;
}

/* The sweep's scratch folder and everything in it (the points' files). */
static void remove_folder(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            char p[PATH_MAX * 2];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    }
    if (d)
        closedir(d);
    rmdir(dir);
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
    if (sweep_check_outputs(&s, c, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim sweep: %s\n", err);
        sweep_spec_free(&s);
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
        char tmpdir[PATH_MAX];
        snprintf(tmpdir, sizeof tmpdir, "%s/nicsim_sweep_XXXXXX", cli_tmp_folder());
        const char *dir = c->results;
        if (dir ? cli_mkdir_p(dir, err, sizeof err) != 0 : !mkdtemp(tmpdir)) {
            if (!dir)
                snprintf(err, sizeof err, "cannot make a temporary folder in %s: %s", cli_tmp_folder(),
                         strerror(errno));
            fprintf(stderr, "nicsim: %s\n", err);
            sweep_spec_free(&s);
            return EXIT_RUN_FAILED;
        }
        int scratch = -1;
        if (!dir) {
            dir = tmpdir;
            scratch = out_file_track(tmpdir, 1);    /* removed if we die of a signal after all */
        }
        cJSON **pts = calloc((size_t)s.npts, sizeof *pts);
        long jobs = c->jobs > 0 ? c->jobs : sysconf(_SC_NPROCESSORS_ONLN);
        if (jobs > s.npts)
            jobs = s.npts;      /* no more children than points */
        catch_stop_signals();
        run_points(&s, jobs < 1 ? 1 : (int)jobs, c->timeout, dir, pts);
        if (stop_signal)
            rc = stopped(&s, pts, c);
        else
            rc = finish(&s, pts, c);
        for (long i = 0; i < s.npts; i++)
            cJSON_Delete(pts[i]);
        if (!c->results) {
            remove_folder(dir);
            out_file_untrack(scratch);
        }
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
        char why[PATH_MAX + 1024], bad[900];
        if (!pts[i]) {
            if (access(p, F_OK) == 0)
                snprintf(why, sizeof why, "%s: corrupt: not JSON", p);
            else
                sweep_emit_missing_reason(c->scenario, i, why, sizeof why);
            pts[i] = sweep_point_failed(&s, i, -1, why);
        } else if (sweep_point_check(&s, i, pts[i], bad, sizeof bad) != 0) {
            /* a point file of another grid or a damaged one is not taken
             * for this grid's result: named, and run again */
            snprintf(why, sizeof why, "%s: %s", p, bad);
            cJSON_Delete(pts[i]);
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
