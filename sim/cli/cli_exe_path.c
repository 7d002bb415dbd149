/* Where this program's binary is, and the ones built beside it. */
#include <string.h>
#include <unistd.h>
#include "cli.h"

int cli_exe_path(const char *sibling, char *out, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", out, n - 1);
    if (len <= 0)
        return -1;
    out[len] = 0;
    if (!sibling)
        return 0;
    char *slash = strrchr(out, '/');
    if (!slash || (size_t)(slash + 1 - out) + strlen(sibling) + 1 > n)
        return -1;
    strcpy(slash + 1, sibling);
    return 0;
}
