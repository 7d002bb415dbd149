/* The system tests' shared harness; see sys_harness.h. */
#include "sys_harness.h"
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUN_TIMEOUT_S 300

void sys_check(int ok, unsigned line, int fatal, const char *fmt, ...)
{
    if (ok) {
        CU_assertImplementation(CU_TRUE, line, "", __FILE__, "", CU_FALSE);
        return;
    }
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    CU_assertImplementation(CU_FALSE, line, msg, __FILE__, "", fatal ? CU_TRUE : CU_FALSE);
}

static char *dirs[256];
static int ndirs;

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

const char *sys_tmpdir(void)
{
    char tmpl[] = "/tmp/nicsim_sys_XXXXXX";
    REQUIRE(ndirs < (int)(sizeof dirs / sizeof dirs[0]), "too many temporary folders");
    REQUIRE(mkdtemp(tmpl) != NULL, "mkdtemp: %s", strerror(errno));
    dirs[ndirs] = strdup(tmpl);
    REQUIRE(dirs[ndirs] != NULL, "out of memory");
    return dirs[ndirs++];
}

int sys_cleanup(void)
{
    for (int i = 0; i < ndirs; i++) {
        remove_tree(dirs[i]);
        free(dirs[i]);
    }
    ndirs = 0;
    return 0;
}

char *sys_path(const char *dir, const char *name)
{
    static char bufs[16][PATH_MAX];
    static int next;
    char *b = bufs[next++ % 16];
    snprintf(b, PATH_MAX, "%s/%s", dir, name);
    return b;
}

int sys_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

char *sys_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *b = malloc(cap);
    while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!b || bad) {
        free(b);
        return NULL;
    }
    b[n] = 0;
    if (len)
        *len = n;
    return b;
}

void sys_write(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL, "%s: cannot create: %s", path, strerror(errno));
    int bad = fwrite(data, 1, len, f) != len;
    bad |= fclose(f) != 0;
    REQUIRE(!bad, "%s: cannot write", path);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *sys_entries(const char *dir)
{
    static char out[8192];
    char *names[512];
    int n = 0;
    out[0] = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(out, sizeof out, "(cannot list %s)", dir);
        return out;
    }
    struct dirent *e;
    while ((e = readdir(d)) && n < 512)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    size_t l = 0;
    for (int i = 0; i < n; i++) {
        if (names[i] && l < sizeof out)
            l += (size_t)snprintf(out + l, sizeof out - l, "%s%s", l ? " " : "", names[i]);
        free(names[i]);
    }
    return out;
}

const char *sys_nicsim(void)
{
    static char abs[PATH_MAX];
    const char *b = getenv("NICSIM_BIN");
    if (!b || !*b)
        b = "build/nicsim";
    REQUIRE(access(b, X_OK) == 0 && realpath(b, abs) != NULL,
            "nicsim binary '%s' not found or not executable; run from the repository root after `make build/nicsim`, "
            "or set NICSIM_BIN", b);
    return abs;
}

const char *sys_sibling(const char *name)
{
    static char bins[2][PATH_MAX];
    static int next;
    char *b = bins[next++ % 2];
    snprintf(b, PATH_MAX, "%s", sys_nicsim());
    char *slash = strrchr(b, '/');
    snprintf(slash + 1, PATH_MAX - (size_t)(slash + 1 - b), "%s", name);
    REQUIRE(access(b, X_OK) == 0, "%s: not built (make all builds it beside nicsim)", b);
    return b;
}

const char *sys_repo(const char *rel)
{
    static char bufs[4][PATH_MAX];
    static int next;
    char *b = bufs[next++ % 4];
    REQUIRE(realpath(rel, b) != NULL, "%s: %s (the tests run from the repository root)", rel, strerror(errno));
    return b;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

void sys_run(sys_proc *p, const char *bin, char *const *args, const sys_opts *o)
{
    static const sys_opts none;
    if (!o)
        o = &none;
    memset(p, 0, sizeof *p);
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)bin;
    const char *base = strrchr(bin, '/');
    size_t cl = (size_t)snprintf(p->cmd, sizeof p->cmd, "%s", base ? base + 1 : bin);
    for (; args[n - 1] && n < 63; n++) {
        argv[n] = args[n - 1];
        if (cl < sizeof p->cmd)
            cl += (size_t)snprintf(p->cmd + cl, sizeof p->cmd - cl, " %s", argv[n]);
    }
    argv[n] = NULL;
    if (o->stdout_to && cl < sizeof p->cmd)
        cl += (size_t)snprintf(p->cmd + cl, sizeof p->cmd - cl, " >%s", o->stdout_to);
    /* stdout and stderr in a folder of their own: the folders the tests
     * look at hold only what the command wrote */
    char io[] = "/tmp/nicsim_sys_io_XXXXXX";
    REQUIRE(mkdtemp(io) != NULL, "mkdtemp: %s", strerror(errno));
    char out_path[PATH_MAX], err_path[PATH_MAX];
    snprintf(out_path, sizeof out_path, "%s/stdout", io);
    snprintf(err_path, sizeof err_path, "%s/stderr", io);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    REQUIRE(pid >= 0, "fork: %s", strerror(errno));
    if (pid > 0)
        setpgid(pid, pid);      /* (both sides: whichever runs first) */
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out = o->stdout_to ? open(o->stdout_to, O_WRONLY) : open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || e < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(e, 2) < 0)
            _exit(126);
        if (o->cwd && chdir(o->cwd) != 0)
            _exit(126);
        for (char *const *v = o->env; v && *v; v++)
            putenv(*v);
        /* the signals the tests send reach the command as from a shell */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        execv(bin, argv);
        _exit(127);
    }
    int status = 0, signalled = 0;
    double t0 = now_s();
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        REQUIRE(w == 0 || errno == EINTR, "waitpid: %s", strerror(errno));
        if (o->signal && !signalled && now_s() - t0 >= o->signal_after) {
            kill(pid, o->signal);
            signalled = 1;
        }
        double limit = o->timeout > 0 ? o->timeout : RUN_TIMEOUT_S;
        if (now_s() - t0 > limit) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            remove_tree(io);
            REQUIRE(0, "%s: still running after %.0f s, killed", p->cmd, limit);
        }
        struct timespec ms = { 0, 10 * 1000 * 1000 };
        nanosleep(&ms, NULL);
    }
    p->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    /* the group's leader is reaped; any member left is a child it left */
    if (kill(-pid, 0) == 0) {
        p->left_running = 1;
        kill(-pid, SIGKILL);
    }
    p->out = o->stdout_to ? strdup("") : sys_slurp(out_path, NULL);
    p->err = sys_slurp(err_path, NULL);
    remove_tree(io);
    REQUIRE(p->out && p->err, "%s: cannot read its captured output", p->cmd);
    REQUIRE(p->status != 126 && p->status != 127, "%s: could not be started (exit %d)", p->cmd, p->status);
}

void sys_proc_free(sys_proc *p)
{
    free(p->out);
    free(p->err);
    p->out = p->err = NULL;
}
