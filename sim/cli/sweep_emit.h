/* A sweep run by engines that are not ours: --emit-jobs writes one
 * self-contained shell command per point (GNU parallel, locally or over
 * ssh), --emit-slurm a job-array script; each runs `sweep ... --point N`
 * on whichever host gets it and writes its result into the results
 * folder, which `nicsim merge` reads.  The commands carry absolute paths,
 * so each first checks that this checkout is where it expects on the host
 * it landed on, and says so by name if not.  After a merge, the points to
 * run again are printed as the sbatch or parallel line that reruns only
 * them. */
#ifndef NICSIM_SWEEP_EMIT_H
#define NICSIM_SWEEP_EMIT_H
#include <cjson/cJSON.h>
#include "cli.h"
#include "sweep_spec.h"

/* The options that only make sense with --emit-slurm, checked before
 * anything is written: 0, or -1 with the message printed. */
int sweep_emit_check_options(const cli *c);
/* Write sweep.json, the jobs file and/or DIR/sweep.sbatch; an exit status. */
int sweep_emit(const sweep_spec *s, const cli *c);
/* After `nicsim merge DIR`: the failed or missing points (pts as merged)
 * and the line that runs only them again (sbatch --array=..., or the
 * jobs file's lines through parallel); nothing when every point has a
 * result. */
void sweep_emit_rerun_hint(const sweep_spec *s, cJSON *const *pts, const char *dir);
/* The error recorded for a point whose job left no result in dir, naming
 * the Slurm log of its task when there is one. */
void sweep_emit_missing_reason(const char *dir, long idx, char *out, size_t n);

#endif
