/* One point of a sweep: run in-process, its result as JSON (the swept keys
 * with typed values, the rates the sweep table shows, and the whole run's
 * report under "run"; or "failed" with the reason), written atomically to
 * DIR/point-NNNNN.json so that parallel children, GNU parallel jobs and
 * Slurm array tasks all hand results over the same way. */
#ifndef NICSIM_SWEEP_POINT_H
#define NICSIM_SWEEP_POINT_H
#include <stddef.h>
#include <cjson/cJSON.h>
#include "sweep_spec.h"

/* Run point idx (0-based) of s; returns its JSON (caller frees) and *status:
 * 0 done and complete, 1 failed or incomplete, 2 the point's values are not
 * a valid scenario.  Never NULL. */
cJSON *sweep_point_run(const sweep_spec *s, long idx, int *status);
/* A point that did not produce its own result (crashed, killed, timed out). */
cJSON *sweep_point_failed(const sweep_spec *s, long idx, int status, const char *why);
/* Whether pt, read from a results folder, is point idx of s: 0, or -1 with
 * why ("stale or foreign: ..." when it ran other values, "corrupt: ..."
 * when a result field is missing or of the wrong type). */
int sweep_point_check(const sweep_spec *s, long idx, const cJSON *pt, char *why, size_t n);
/* "ok" (ran and completed), "incomplete" or "failed" (also for NULL: a
 * point that never reported). */
const char *sweep_point_state(const cJSON *pt);
/* DIR/point-NNNNN.json (idx from 0 is written as NNNNN = idx + 1). */
void sweep_point_path(const char *dir, long idx, char *out, size_t n);
/* The command that runs the point alone (`nicsim run ...`), for messages. */
void sweep_point_command(const sweep_spec *s, long idx, char *out, size_t n);

/* capture.pcap of point idx (0-based): pattern with {point} replaced by
 * idx + 1, into out (n bytes).  0, or -1 when it does not fit. */
int sweep_point_capture(const char *pattern, long idx, char *out, size_t n);

#endif
