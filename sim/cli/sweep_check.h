/* What a sweep will write, checked before any point runs: the table's
 * files (--csv, --json, --plot), the job files, the results folder and the
 * points' captures.  A sweep that would fail at its end, or whose points
 * would all write one capture file, is refused at its start. */
#ifndef NICSIM_SWEEP_CHECK_H
#define NICSIM_SWEEP_CHECK_H
#include <stddef.h>
#include "cli.h"
#include "sweep_spec.h"

/* 0, or -1 with the message (without the "nicsim sweep: " prefix) in err. */
int sweep_check_outputs(const sweep_spec *s, const cli *c, char *err, size_t errlen);

#endif
