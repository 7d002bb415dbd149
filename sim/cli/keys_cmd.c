/* nicsim keys [SECTION]: the scenario schema, one section or all, wrapped
 * to the terminal (its width when stdout is one, else $COLUMNS, else 80
 * columns) so no line runs off a screen or a mail. */
#include "cli.h"
#include "../scenario/scenario_keys.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int terminal_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w >= 40 ? w : 80;
}

int cmd_keys(const cli *c)
{
    const char *section = c->scenario;
    if (scenario_print_schema(stdout, nicsim_keys, nicsim_n_keys, section, terminal_width()) == 0)
        return 0;
    char sections[1024];
    scenario_schema_sections(nicsim_keys, nicsim_n_keys, sections, sizeof sections);
    fprintf(stderr, "nicsim keys: no section [%s]; the sections are: %s\n", section, sections);
    return EXIT_USAGE;
}
