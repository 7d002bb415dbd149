/* What the system tests of issue 19 share (test_outputs.c, test_inputs.c):
 * checks with formatted messages, scratch folders, and running a binary
 * as a user would, with its stdout going where the test says (a file, or
 * /dev/full), optionally signalled while it runs.  Tests run from the
 * repository root; the binaries are build/nicsim (NICSIM_BIN) and its
 * siblings. */
#ifndef NICSIM_SYS_HARNESS_H
#define NICSIM_SYS_HARNESS_H
#include <stddef.h>
#include <sys/types.h>

void sys_check(int ok, unsigned line, int fatal, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* CHECK records a failure and goes on; REQUIRE ends the test. */
#define CHECK(cond, ...) sys_check(!!(cond), __LINE__, 0, __VA_ARGS__)
#define REQUIRE(cond, ...) sys_check(!!(cond), __LINE__, 1, __VA_ARGS__)

/* A fresh folder under /tmp, removed by sys_cleanup (a suite's cleanup). */
const char *sys_tmpdir(void);
int sys_cleanup(void);
/* dir/name in one of 16 rotating buffers. */
char *sys_path(const char *dir, const char *name);
int sys_exists(const char *path);               /* lstat: a dangling link exists */
char *sys_slurp(const char *path, size_t *len); /* NUL-terminated, malloc'd; NULL if unreadable */
void sys_write(const char *path, const void *data, size_t len);
/* The entries of dir, sorted, space-separated (static buffer). */
const char *sys_entries(const char *dir);

/* build/nicsim (or NICSIM_BIN) as an absolute path, or a binary beside it. */
const char *sys_nicsim(void);
const char *sys_sibling(const char *name);
/* The repository's file rel as an absolute path (static, 4 rotating buffers). */
const char *sys_repo(const char *rel);

typedef struct sys_proc {
    int status;         /* exit status; 128+N when killed by signal N */
    char *out, *err;    /* stdout (when captured) and stderr, NUL-terminated */
    int left_running;   /* processes of its own (its children) outlived it (they were then killed) */
    char cmd[2048];
} sys_proc;

/* How to run: stdout to this path instead of a captured file (NULL:
 * captured); environment assignments "NAME=VALUE" added (NULL-terminated,
 * may be NULL); after signal_after seconds send signal (0: none). */
typedef struct sys_opts {
    const char *cwd;
    const char *stdout_to;
    char *const *env;
    double signal_after;
    int signal;
    double timeout;     /* seconds before the command is killed and the test fails (0: 300) */
} sys_opts;

/* Run bin with args (NULL-terminated, argv[1..]) in a process group of its
 * own; ends the test if it cannot be started or runs longer than the
 * timeout.  Whatever of the group outlives the command is noted
 * (left_running) and killed, so that no test leaves processes behind. */
void sys_run(sys_proc *p, const char *bin, char *const *args, const sys_opts *o);
void sys_proc_free(sys_proc *p);

#define SYS_RUN(p, ...) do { char *a_[] = { __VA_ARGS__, NULL }; sys_run((p), sys_nicsim(), a_, NULL); } while (0)
#define SYS_RUN_OPTS(p, o, ...) do { char *a_[] = { __VA_ARGS__, NULL }; sys_run((p), sys_nicsim(), a_, (o)); } while (0)

#endif
