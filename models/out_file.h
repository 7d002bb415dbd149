/* Output files (reports, captures, tables, job scripts) written so that
 * they never destroy what they did not create and never pass for a result
 * they are not.
 *
 * What is at PATH decides how it is written:
 *  - nothing, or a regular file: the bytes go to a temporary file beside it
 *    (PATH.XXXXXX.tmp, made with O_EXCL so no one else's file is reused)
 *    that is renamed over PATH only by out_file_commit, so PATH holds the
 *    old contents or the whole new ones, never a part;
 *  - a symbolic link: the file it points to is written as above (the link
 *    stays a link);
 *  - a character device or a FIFO (/dev/null, /dev/stdout, a pipe): written
 *    in place, as the shell's `>` would, never replaced by a regular file;
 *  - anything else (a directory, a block device, a socket), a path whose
 *    folder does not exist, a link that leads nowhere it can write: refused.
 *
 * The temporary files of outputs that are open are removed when the process
 * is ended by a signal it can catch (out_file_clean_on_signals), so an
 * interrupted run leaves neither a part of a result nor a stray .tmp file.
 * Write errors are reported with the errno of the write that failed
 * (ENOSPC as "No space left on device", not a later EIO). */
#ifndef NICSIM_OUT_FILE_H
#define NICSIM_OUT_FILE_H
#include <stddef.h>
#include <stdio.h>

typedef struct out_file out_file;

/* How an output at a path is written. */
typedef enum out_kind {
    OUT_NEW,            /* nothing there: created (through a temporary file) */
    OUT_REPLACE,        /* a regular file: replaced whole (through a temporary file) */
    OUT_IN_PLACE,       /* a character device or FIFO: written in place */
} out_kind;

/* Whether path can be written as an output, without touching anything:
 * 0 with *kind (may be NULL) and the file that will really be written
 * (links followed; at most n bytes, may be NULL), or -1 with
 * "PATH: why" in err. */
int out_file_check(const char *path, out_kind *kind, char *real, size_t n, char *err, size_t errlen);

/* Open path for writing as described above: NULL with "PATH: why" in err
 * when it cannot be.  The caller writes to out_file_stream(). */
out_file *out_file_open(const char *path, char *err, size_t errlen);
FILE *out_file_stream(out_file *f);
/* Call after writes whose result the caller did not check (fwrite through
 * a library): keeps the errno of the first failed write for the message. */
void out_file_note(out_file *f);
/* 1 once a write has failed (the rest need not be written). */
int out_file_failed(const out_file *f);
/* Flush and close the stream and check every write: 0, or -1 with
 * "PATH: cannot write: why" in err (the temporary file is then removed).
 * Nothing is renamed yet; idempotent. */
int out_file_finish(out_file *f, char *err, size_t errlen);
/* Finish if not done, then put the file in place (rename) and free f:
 * 0, or -1 with the message in err and PATH as it was. */
int out_file_commit(out_file *f, char *err, size_t errlen);
/* Drop the output: the temporary file is removed, PATH is left as it was
 * (in place: what was written stays written), f is freed.  NULL is fine. */
void out_file_abort(out_file *f);

/* The whole of text (len bytes) into path, committed: 0, or -1 (err). */
int out_file_write_all(const char *path, const void *text, size_t len, char *err, size_t errlen);

/* ---- removal on signals ---- */

/* A command's report on stdout is an output too: flush and close stdout at
 * the end; a write that failed (a full disk, a closed descriptor) is said on
 * stderr as "PROG: standard output: cannot write: WHY" and turns a
 * successful rc into fail_rc.  Returns the command's exit status. */
int out_file_stdout_done(const char *prog, int rc, int fail_rc);

/* From now on, a process ended by SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
 * SIGALRM, SIGXCPU, SIGXFSZ, SIGUSR1 or SIGUSR2 first removes the
 * temporary files of its open outputs and the scratch paths registered
 * below, then dies of that signal as it would have (the exit status the
 * shell shows is unchanged).  A signal the process inherited as ignored
 * stays ignored. */
void out_file_clean_on_signals(void);
/* A scratch path (a file, or with dir = 1 an empty-by-then folder) to
 * remove on those signals: a handle for out_file_untrack, or -1 when the
 * table is full (then it is not removed on a signal). */
int out_file_track(const char *path, int dir);
void out_file_untrack(int handle);
/* In a child after fork: forget what the parent tracks (its files are not
 * the child's to remove). */
void out_file_forget_all(void);

#endif
