/* Output files that never destroy what they did not create; see out_file.h. */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the registry of paths to remove on a signal ----
 *
 * A fixed table, because the signal handler may only read it: a slot's path
 * is written before its flag is set and the flag cleared before the slot is
 * reused, so the handler never sees half a path. */

enum { TRACK_MAX = 64 };

static struct {
    char path[PATH_MAX];
    int dir;
    volatile sig_atomic_t used;
} tracked[TRACK_MAX];

int out_file_track(const char *path, int dir)
{
    if (strlen(path) >= PATH_MAX)
        return -1;
    for (int i = 0; i < TRACK_MAX; i++)
        if (!tracked[i].used) {
            memcpy(tracked[i].path, path, strlen(path) + 1);
            tracked[i].dir = dir;
            tracked[i].used = 1;
            return i;
        }
    return -1;
}

void out_file_untrack(int handle)
{
    if (handle >= 0 && handle < TRACK_MAX)
        tracked[handle].used = 0;
}

void out_file_forget_all(void)
{
    for (int i = 0; i < TRACK_MAX; i++)
        tracked[i].used = 0;
}

/* Only async-signal-safe calls: unlink, rmdir, sigaction, raise.  Files
 * before folders, so a scratch folder is empty when its turn comes. */
static void clean_and_die(int sig)
{
    int saved = errno;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < TRACK_MAX; i++)
            if (tracked[i].used && tracked[i].dir == pass)
                (void)(pass ? rmdir(tracked[i].path) : unlink(tracked[i].path));
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);         /* SA_NODEFER: delivered at once, with the default action */
    errno = saved;
}

void out_file_clean_on_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM,
                                SIGXCPU, SIGXFSZ, SIGUSR1, SIGUSR2 };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;       /* nohup, a background job: keep ignoring it */
        struct sigaction sa = { .sa_handler = clean_and_die, .sa_flags = SA_NODEFER };
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* ---- where an output goes ---- */

/* path's folder ("." for a bare name) into out. */
static void folder_of(const char *path, char *out, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, n, ".");
    else if (slash == path)
        snprintf(out, n, "/");
    else
        snprintf(out, n, "%.*s", (int)(slash - path), path);
}

/* Follow symbolic links from path to the name that is not one (it may not
 * exist): 0, or -1 with errno (ELOOP, ENAMETOOLONG). */
static int follow_links(const char *path, char *out, size_t n)
{
    if (strlen(path) >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(out, n, "%s", path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return 0;
        char target[PATH_MAX];
        ssize_t len = readlink(out, target, sizeof target - 1);
        if (len < 0)
            return -1;
        target[len] = 0;
        if (target[0] == '/') {
            snprintf(out, n, "%s", target);
        } else {
            char dir[PATH_MAX];
            folder_of(out, dir, sizeof dir);
            if ((size_t)snprintf(out, n, "%s/%s", dir, target) >= n) {
                errno = ENAMETOOLONG;
                return -1;
            }
        }
    }
    errno = ELOOP;
    return -1;
}

int out_file_check(const char *path, out_kind *kind, char *real, size_t n, char *err, size_t errlen)
{
    char target[PATH_MAX], dir[PATH_MAX];
    if (!*path) {
        snprintf(err, errlen, "'': an empty file name");
        return -1;
    }
    if (follow_links(path, target, sizeof target) != 0) {
        snprintf(err, errlen, "%s: cannot follow: %s", path, strerror(errno));
        return -1;
    }
    const char *via = strcmp(target, path) ? " (where the link points)" : "";
    struct stat st;
    out_kind k;
    if (stat(target, &st) == 0) {
        if (S_ISREG(st.st_mode)) {
            k = OUT_REPLACE;
        } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            k = OUT_IN_PLACE;
        } else {
            snprintf(err, errlen, "%s: %s%s, not a file that can be written", path,
                     S_ISDIR(st.st_mode) ? "a folder" : S_ISBLK(st.st_mode) ? "a block device" : "a socket", via);
            return -1;
        }
    } else if (errno == ENOENT) {
        k = OUT_NEW;
    } else {
        snprintf(err, errlen, "%s: cannot write%s: %s", path, via, strerror(errno));
        return -1;
    }
    if (k != OUT_IN_PLACE) {
        /* the temporary file is made in the folder, then renamed */
        folder_of(target, dir, sizeof dir);
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: cannot write: folder %s %s", path, dir,
                     stat(dir, &st) == 0 ? "is not a folder" : "does not exist");
            return -1;
        }
        if (access(dir, W_OK | X_OK) != 0) {
            snprintf(err, errlen, "%s: cannot write in folder %s: %s", path, dir, strerror(errno));
            return -1;
        }
        if (k == OUT_REPLACE && access(target, W_OK) != 0) {
            snprintf(err, errlen, "%s: cannot write%s: %s", path, via, strerror(errno));
            return -1;
        }
    }
    if (kind)
        *kind = k;
    if (real && n)
        snprintf(real, n, "%s", target);
    return 0;
}

/* ---- writing ---- */

struct out_file {
    char path[PATH_MAX];        /* as the caller named it (messages) */
    char target[PATH_MAX];      /* the file written: links followed */
    char tmp[PATH_MAX];         /* the temporary file; "" when written in place */
    FILE *f;
    int track;                  /* its slot in the signal registry, or -1 */
    int first_errno;            /* errno of the first failed write, 0 while none */
    int finished;               /* out_file_finish succeeded */
};

/* The mode a new file gets from open(..., 0666) under the current umask. */
static mode_t default_mode(void)
{
    mode_t m = umask(0);
    umask(m);
    return 0666 & ~m;
}

out_file *out_file_open(const char *path, char *err, size_t errlen)
{
    out_kind kind;
    out_file *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    o->track = -1;
    if (out_file_check(path, &kind, o->target, sizeof o->target, err, errlen) != 0) {
        free(o);
        return NULL;
    }
    snprintf(o->path, sizeof o->path, "%s", path);
    int fd;
    if (kind == OUT_IN_PLACE) {
        fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
            free(o);
            return NULL;
        }
    } else {
        if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s.XXXXXX.tmp", o->target) >= sizeof o->tmp) {
            snprintf(err, errlen, "%s: file name too long", path);
            free(o);
            return NULL;
        }
        fd = mkstemps(o->tmp, 4);
        if (fd < 0) {
            snprintf(err, errlen, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
            free(o);
            return NULL;
        }
        o->track = out_file_track(o->tmp, 0);
        /* the mode `>` would leave: the old file's, or the umask's */
        struct stat st;
        mode_t mode = kind == OUT_REPLACE && stat(o->target, &st) == 0 ? st.st_mode & 07777 : default_mode();
        (void)fchmod(fd, mode);     /* a failure leaves 0600: not worth failing the output for */
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        out_file_abort(o);
        return NULL;
    }
    return o;
}

FILE *out_file_stream(out_file *f)
{
    return f->f;
}

void out_file_note(out_file *f)
{
    if (f->f && !f->first_errno && ferror(f->f))
        f->first_errno = errno ? errno : EIO;
}

int out_file_failed(const out_file *f)
{
    return f->first_errno != 0 || (f->f && ferror(f->f));
}

int out_file_finish(out_file *f, char *err, size_t errlen)
{
    if (f->finished)
        return 0;
    if (f->f) {
        out_file_note(f);
        errno = 0;
        int bad = fflush(f->f) != 0 || ferror(f->f);
        if (bad && !f->first_errno)
            f->first_errno = errno ? errno : EIO;
        errno = 0;
        if (fclose(f->f) != 0 && !f->first_errno)
            f->first_errno = errno ? errno : EIO;
        f->f = NULL;
    }
    if (f->first_errno) {
        snprintf(err, errlen, "%s: cannot write: %s", f->path, strerror(f->first_errno));
        if (f->tmp[0])
            unlink(f->tmp);
        f->tmp[0] = 0;
        out_file_untrack(f->track);
        f->track = -1;
        return -1;
    }
    f->finished = 1;
    return 0;
}

int out_file_commit(out_file *f, char *err, size_t errlen)
{
    int rc = out_file_finish(f, err, errlen);
    if (rc == 0 && f->tmp[0] && rename(f->tmp, f->target) != 0) {
        snprintf(err, errlen, "%s: cannot put in place: %s", f->path, strerror(errno));
        unlink(f->tmp);
        rc = -1;
    }
    out_file_untrack(f->track);
    free(f);
    return rc;
}

void out_file_abort(out_file *f)
{
    if (!f)
        return;
    if (f->f)
        fclose(f->f);
    if (f->tmp[0])
        unlink(f->tmp);
    out_file_untrack(f->track);
    free(f);
}

int out_file_write_all(const char *path, const void *text, size_t len, char *err, size_t errlen)
{
    out_file *f = out_file_open(path, err, errlen);
    if (!f)
        return -1;
    if (len && fwrite(text, 1, len, out_file_stream(f)) != len)
        out_file_note(f);
    return out_file_commit(f, err, errlen);
}

int out_file_stdout_done(const char *prog, int rc, int fail_rc)
{
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno ? errno : EIO;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno ? errno : EIO;
    }
    if (!bad)
        return rc;
    fprintf(stderr, "%s: standard output: cannot write: %s\n", prog, strerror(e));
    return rc ? rc : fail_rc;
}
