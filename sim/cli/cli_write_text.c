/* Results files of every front end are written whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_write_text(const char *path, const char *text, char *err, size_t n)
{
    char tmp[1024];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        snprintf(err, n, "file name too long");
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, n, "%.900s: cannot create: %s", tmp, strerror(errno));
        return -1;
    }
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        snprintf(err, n, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
