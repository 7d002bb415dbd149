/* Where the commands keep their scratch files: $TMPDIR as every Unix tool
 * does (a cluster node's local disk, a user's quota), else /tmp.  A TMPDIR
 * with a quote in it is not used: the plot's scratch paths are quoted in a
 * shell command and a gnuplot script. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const char *cli_tmp_folder(void)
{
    const char *t = getenv("TMPDIR");
    return t && t[0] == '/' && !strpbrk(t, "'\"\\") && strlen(t) < PATH_MAX - 64 ? t : "/tmp";
}
