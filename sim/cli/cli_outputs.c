/* A command's outputs, checked before it runs anything: a run that would
 * fail at its end for a path it could have checked at its start costs the
 * run, and two outputs on one file (or an output on the scenario) would
 * leave one's bytes over the other's. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "../../models/out_file.h"

/* Which file path is, whether it exists yet or not: its device and inode
 * when it does, else its folder's canonical name and its own. */
typedef struct file_id {
    int exists;
    dev_t dev;
    ino_t ino;
    char canon[PATH_MAX * 2];
} file_id;

static void identify(const char *path, file_id *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (stat(path, &st) == 0) {
        id->exists = 1;
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        return;
    }
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    if (!realpath(dir, real))
        snprintf(real, sizeof real, "%s", dir);
    snprintf(id->canon, sizeof id->canon, "%s/%s", real, base);
}

static int same(const file_id *a, const file_id *b)
{
    if (a->exists != b->exists)
        return 0;
    return a->exists ? a->dev == b->dev && a->ino == b->ino : !strcmp(a->canon, b->canon);
}

int cli_outputs_check(const cli_output *outs, int n, const char *const *inputs, int ninputs, char *err,
                      size_t errlen)
{
    file_id *ids = calloc((size_t)(n > 0 ? n : 1), sizeof *ids);
    out_kind *kinds = calloc((size_t)(n > 0 ? n : 1), sizeof *kinds);
    int rc = ids && kinds ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "out of memory");
    for (int i = 0; i < n && rc == 0; i++) {
        char real[PATH_MAX], why[PATH_MAX + 256];
        if (out_file_check(outs[i].path, &kinds[i], real, sizeof real, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s %s", outs[i].what, why);
            rc = -1;
            break;
        }
        identify(real, &ids[i]);
        for (int k = 0; k < ninputs && rc == 0; k++) {
            file_id in;
            identify(inputs[k], &in);
            if (same(&ids[i], &in)) {
                snprintf(err, errlen, "%s %s: that is the scenario %s (it would be overwritten)", outs[i].what,
                         outs[i].path, inputs[k]);
                rc = -1;
            }
        }
        /* a character device (/dev/null) takes any number of outputs */
        for (int k = 0; k < i && rc == 0; k++)
            if (same(&ids[i], &ids[k]) && !(kinds[i] == OUT_IN_PLACE && kinds[k] == OUT_IN_PLACE)) {
                snprintf(err, errlen, "%s %s and %s %s: the same file for two outputs (one would be written "
                                      "over the other)", outs[k].what, outs[k].path, outs[i].what, outs[i].path);
                rc = -1;
            }
    }
    free(ids);
    free(kinds);
    return rc;
}
