/* --emit-jobs and --emit-slurm, and the points merge says to run again
 * (sweep_emit.h). */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sweep_emit.h"
#include "../../models/out_file.h"
#include "sweep_point.h"
#include "../report/report.h"

/* s with single quotes, safe for sh. */
static void quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* A path as the user would type it: bare when the shell leaves it alone. */
static void path_arg(FILE *f, const char *s)
{
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("/._-+,:@%", *p)) {
            quote(f, s);
            return;
        }
    fputs(s, f);
}

/* What a host needs before a point can run there: this binary, and the
 * folder the sweep was emitted from (relative paths in overrides are taken
 * from it), at the same paths as here.  Without the checks a host lacking
 * the checkout fails with the shell's "can't cd" or "not found", which
 * names neither the host nor the cause.  Exit status 127, the shell's own
 * for a missing command. */
static void host_checks(FILE *f, const char *exe, const char *cwd)
{
    fputs("test -x ", f);
    quote(f, exe);
    fputs(" || { printf 'nicsim: %s not found on host %s: the checkout must be at the same path on every host"
          " (or on a shared filesystem)\\n' ",
          f);
    quote(f, exe);
    fputs(" \"$(uname -n)\" >&2; exit 127; }; cd ", f);
    quote(f, cwd);
    fputs(" 2>/dev/null || { printf 'nicsim: folder %s (where the sweep was emitted) not found on host %s: it must"
          " be at the same path on every host (or on a shared filesystem)\\n' ",
          f);
    quote(f, cwd);
    fputs(" \"$(uname -n)\" >&2; exit 127; }; ", f);
}

/* The command that runs point N of this sweep (N from the shell: $1 or
 * $SLURM_ARRAY_TASK_ID, given as point_arg). */
static void point_command(FILE *f, const cli *c, const char *abs_scn, const char *abs_dir, const char *point_arg)
{
    char exe[PATH_MAX], cwd[PATH_MAX];
    if (cli_exe_path(NULL, exe, sizeof exe) != 0)
        exe[0] = 0;
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "/");
    host_checks(f, exe, cwd);
    quote(f, exe);
    fputs(" sweep ", f);
    quote(f, abs_scn);
    for (int i = 0; i < c->n_overrides; i++) {
        fputc(' ', f);
        quote(f, c->overrides[i]);
    }
    if (c->zip)
        fputs(" --zip", f);
    fputs(" --results ", f);
    quote(f, abs_dir);
    fprintf(f, " --point %s", point_arg);
}

/* ---- the Slurm options ---- */

static int valid_partition(const char *p)
{
    if (!*p)
        return 0;
    for (; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_.,-", *p))
            return 0;
    return 1;
}

/* Slurm's time limits: MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS
 * (sbatch(1), --time), or UNLIMITED. */
static int valid_time(const char *t)
{
    if (!strcmp(t, "UNLIMITED") || !strcmp(t, "unlimited") || !strcmp(t, "infinite"))
        return 1;
    const char *p = t, *dash = strchr(t, '-');
    if (dash) {
        if (dash == t)
            return 0;
        for (; p < dash; p++)
            if (!isdigit((unsigned char)*p))
                return 0;
        p = dash + 1;
    }
    int groups = 0;
    for (;;) {
        const char *q = p;
        while (isdigit((unsigned char)*p))
            p++;
        if (p == q)
            return 0;
        groups++;
        if (*p != ':')
            break;
        p++;
    }
    return *p == 0 && groups <= 3;
}

int sweep_emit_check_options(const cli *c)
{
    const char *opt = c->slurm_partition ? "--slurm-partition" : c->slurm_time ? "--slurm-time" : NULL;
    if (opt && !c->emit_slurm) {
        fprintf(stderr, "nicsim sweep: %s goes with --emit-slurm DIR (it is written into the job script)\n", opt);
        return -1;
    }
    if (c->slurm_partition && !valid_partition(c->slurm_partition)) {
        fprintf(stderr, "nicsim sweep: --slurm-partition: expected a partition name (letters, digits, '_', '.', '-';"
                        " several separated by ','), got '%s'\n", c->slurm_partition);
        return -1;
    }
    if (c->slurm_time && !valid_time(c->slurm_time)) {
        fprintf(stderr, "nicsim sweep: --slurm-time: expected a Slurm time limit (MINUTES, MM:SS, HH:MM:SS, D-HH,"
                        " D-HH:MM, D-HH:MM:SS or UNLIMITED), got '%s'\n", c->slurm_time);
        return -1;
    }
    return 0;
}

/* ---- writing the jobs ---- */

static int write_jobs(const sweep_spec *s, const cli *c, const char *abs_scn, const char *abs_dir)
{
    char err[PATH_MAX + 256];
    out_file *o = out_file_open(c->emit_jobs, err, sizeof err);
    FILE *f = o ? out_file_stream(o) : NULL;
    for (long i = 0; f && i < s->npts && !out_file_failed(o); i++) {
        char n[32];
        snprintf(n, sizeof n, "%ld", i + 1);
        point_command(f, c, abs_scn, abs_dir, n);
        fputc('\n', f);
        out_file_note(o);
    }
    if (!o || out_file_commit(o, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    fprintf(stderr, "nicsim: %ld commands in %s (results into %s): run them with\n"
                    "  parallel -j N < %s      (or --sshloginfile FILE for other machines: docs/sweep.md)\n"
                    "then: nicsim merge %s [--csv F] [--json F] [--plot F.svg]\n",
            s->npts, c->emit_jobs, abs_dir, c->emit_jobs, abs_dir);
    return 0;
}

static int write_slurm(const sweep_spec *s, const cli *c, const char *abs_scn, const char *abs_dir)
{
    char path[PATH_MAX + 32], err[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/sweep.sbatch", abs_dir);
    out_file *o = out_file_open(path, err, sizeof err);
    FILE *f = o ? out_file_stream(o) : NULL;
    if (f) {
        fprintf(f, "#!/bin/bash\n# nicsim sweep of %s: %ld points, one per array task;\n"
                   "# results into this folder.  Submit: sbatch %s ; then: nicsim merge %s\n"
                   "# Only some points again (merge lists the failed or missing ones): sbatch --array=3,7 %s\n"
                   "# Every node needs this checkout and this folder at the same paths (or a shared filesystem).\n",
                abs_scn, s->npts, path, abs_dir, path);
        fprintf(f, "#SBATCH --job-name=nicsim-sweep\n#SBATCH --array=1-%ld\n#SBATCH --cpus-per-task=1\n", s->npts);
        if (c->slurm_partition)
            fprintf(f, "#SBATCH --partition=%s\n", c->slurm_partition);
        if (c->slurm_time)
            fprintf(f, "#SBATCH --time=%s\n", c->slurm_time);
        fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\nset -eu\n"
                   ": \"${SLURM_ARRAY_TASK_ID:?set by Slurm (or by hand: 1..%ld)}\"\n",
                abs_dir, s->npts);
        point_command(f, c, abs_scn, abs_dir, "\"$SLURM_ARRAY_TASK_ID\"");
        fputc('\n', f);
        out_file_note(o);
    }
    if (!o || out_file_commit(o, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    if (chmod(path, 0755) != 0) {
        fprintf(stderr, "nicsim: %s: cannot make it executable: %s\n", path, strerror(errno));
        return EXIT_RUN_FAILED;
    }
    fprintf(stderr, "nicsim: %s: a job array of %ld points; sbatch it, then: nicsim merge %s\n", path, s->npts,
            abs_dir);
    return 0;
}

int sweep_emit(const sweep_spec *s, const cli *c)
{
    char err[1024], abs_scn[PATH_MAX], abs_dir[PATH_MAX], dir[PATH_MAX];
    if (c->results)
        snprintf(dir, sizeof dir, "%s", c->results);
    else if (c->emit_slurm)
        snprintf(dir, sizeof dir, "%s", c->emit_slurm);
    else
        snprintf(dir, sizeof dir, "%s.results", c->emit_jobs);
    if (!realpath(c->scenario, abs_scn)) {
        fprintf(stderr, "%s: cannot open: %s\n", c->scenario, strerror(errno));
        return EXIT_USAGE;
    }
    if (cli_mkdir_p(dir, err, sizeof err) != 0 || !realpath(dir, abs_dir)) {
        fprintf(stderr, "nicsim: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    /* the spec, as merge and the points will read it */
    sweep_spec abs = *s;
    if (strlen(abs_scn) >= sizeof abs.scenario) {
        fprintf(stderr, "nicsim: %s: path too long\n", abs_scn);
        return EXIT_USAGE;
    }
    memcpy(abs.scenario, abs_scn, strlen(abs_scn) + 1);
    cJSON *j = sweep_spec_json(&abs);
    if (c->emit_jobs) {
        /* so that merge can name the lines to run again */
        char cwd[PATH_MAX], jobs[2 * PATH_MAX + 2];
        if (c->emit_jobs[0] == '/' || !getcwd(cwd, sizeof cwd))
            snprintf(jobs, sizeof jobs, "%s", c->emit_jobs);
        else
            snprintf(jobs, sizeof jobs, "%s/%s", cwd, c->emit_jobs);
        cJSON_AddStringToObject(j, "jobs_file", jobs);
    }
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/sweep.json", abs_dir);
    int rc = report_write_json(path, j, err, sizeof err);
    cJSON_Delete(j);
    if (rc != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    if (c->emit_jobs && (rc = write_jobs(s, c, abs_scn, abs_dir)) != 0)
        return rc;
    if (c->emit_slurm && (rc = write_slurm(s, c, abs_scn, abs_dir)) != 0)
        return rc;
    return 0;
}

/* ---- after a merge ---- */

/* The 1-based numbers of the points marked in bad[], as Slurm's --array
 * takes them ("3,7,10-12"), or as sed's line addresses ("3p;7p;10,12p"). */
static void point_list(const char *bad, long n, int sed, char *out, size_t cap)
{
    size_t l = 0;
    out[0] = 0;
    for (long i = 0; i < n && l < cap; i++) {
        if (!bad[i])
            continue;
        long j = i;
        while (j + 1 < n && bad[j + 1])
            j++;
        const char *sep = l ? (sed ? ";" : ",") : "";
        if (j == i)
            l += (size_t)snprintf(out + l, cap - l, "%s%ld%s", sep, i + 1, sed ? "p" : "");
        else
            l += (size_t)snprintf(out + l, cap - l, "%s%ld%s%ld%s", sep, i + 1, sed ? "," : "-", j + 1,
                                  sed ? "p" : "");
        i = j;
    }
}

void sweep_emit_rerun_hint(const sweep_spec *s, cJSON *const *pts, const char *dir)
{
    char *bad = calloc((size_t)s->npts, 1);
    long nbad = 0;
    for (long i = 0; i < s->npts; i++)
        if (!strcmp(sweep_point_state(pts[i]), "failed")) {
            bad[i] = 1;
            nbad++;
        }
    size_t cap = (size_t)nbad * 48 + 16;
    char *list = malloc(cap), *sed = malloc(cap);
    point_list(bad, s->npts, 0, list, cap);
    point_list(bad, s->npts, 1, sed, cap);
    char path[PATH_MAX + 32], abs[PATH_MAX];
    snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
    int slurm = nbad && realpath(path, abs) != NULL;
    snprintf(path, sizeof path, "%s/sweep.json", dir);
    cJSON *j = nbad ? report_read_json(path) : NULL;
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(j, "jobs_file");
    if (nbad) {
        fprintf(stderr, "nicsim: to run only point%s %s again, once the cause is fixed (a point rewrites its result):\n",
                nbad > 1 ? "s" : "", list);
        if (slurm) {
            fprintf(stderr, "  sbatch --array=%s ", list);
            path_arg(stderr, abs);
            fputc('\n', stderr);
        }
        if (cJSON_IsString(jobs)) {
            fprintf(stderr, "  sed -n '%s' ", sed);
            path_arg(stderr, jobs->valuestring);
            fputs(" | parallel -j N   (--sshloginfile FILE as before)\n", stderr);
        }
        if (!slurm && !cJSON_IsString(jobs))
            fprintf(stderr, "  nicsim sweep ... --results %s --point N   (each N)\n", dir);
    }
    cJSON_Delete(j);
    free(list);
    free(sed);
    free(bad);
}

void sweep_emit_missing_reason(const char *dir, long idx, char *out, size_t n)
{
    int l = snprintf(out, n, "no result in the results folder (the job did not run, was cancelled or was lost"
                             " with its host; every host must write into this folder, at the same path)");
    /* the task's own log says which: Slurm's "CANCELLED", a node failure,
     * the host check's "not found" */
    char pat[PATH_MAX + 32];
    snprintf(pat, sizeof pat, "%s/slurm-*_%ld.out", dir, idx + 1);
    glob_t g;
    if (glob(pat, 0, NULL, &g) != 0)
        return;
    const char *newest = NULL;
    time_t t = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct stat st;
        if (stat(g.gl_pathv[i], &st) == 0 && (!newest || st.st_mtime >= t)) {
            newest = g.gl_pathv[i];
            t = st.st_mtime;
        }
    }
    if (newest && l > 0 && (size_t)l < n)
        snprintf(out + l, n - (size_t)l, "; its Slurm log: %s", newest);
    globfree(&g);
}
