/* Results files of every front end are written whole or not at all, and
 * never over what they did not create (models/out_file.h). */
#include <string.h>
#include "cli.h"
#include "../../models/out_file.h"

int cli_write_text(const char *path, const char *text, char *err, size_t n)
{
    return out_file_write_all(path, text, strlen(text), err, n);
}
