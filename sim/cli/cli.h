/* The nicsim subcommands (each defined in its own file, called by main.c)
 * and what they share: the parsed command line, the exit statuses, this
 * binary's path and atomic text output.  Loading a scenario and running
 * one simulation come from the layers below. */
#ifndef NICSIM_CLI_H
#define NICSIM_CLI_H
#include "../scenario/nicsim_scenario.h"
#include "../system/simulate.h"

#define EXIT_RUN_FAILED 1
#define EXIT_USAGE 2

typedef struct cli {
    const char *cmd;
    const char *scenario;
    char **overrides;
    int n_overrides;
    const char *json;
    const char *csv;
    const char *list;
    int repeat;                 /* bench: runs of each benchmark (1..100) */
    /* sweep */
    long jobs;                  /* -j: points at once (0: one per core) */
    int zip;                    /* --zip: pair the keys' values instead of combining them */
    const char *plot;           /* --plot FILE.svg|.png */
    const char *emit_jobs;      /* --emit-jobs FILE */
    const char *emit_slurm;     /* --emit-slurm DIR */
    const char *slurm_partition;/* --slurm-partition P: #SBATCH --partition of the emitted script */
    const char *slurm_time;     /* --slurm-time T: #SBATCH --time (a Slurm time limit) */
    const char *results;        /* --results DIR: keep (or, with --point, write) point results there */
    long point;                 /* --point N: run only point N (1-based) */
    double timeout;             /* --timeout S: a point running longer is killed (0: none) */
    char **tail;                /* what follows "--" (qemu: QEMU's command), NULL-terminated */
    int ntail;
} cli;

/* This binary's path (sibling NULL), or that of the binary called sibling
 * in the same folder; 0, or -1 when it cannot be found or does not fit. */
int cli_exe_path(const char *sibling, char *out, size_t n);
/* Make dir and its parents (mkdir -p): 0, or -1 with "dir: why" in err. */
int cli_mkdir_p(const char *dir, char *err, size_t errlen);
/* Write text to path whole or not at all (models/out_file.h): 0, or -1
 * with "PATH: why" in err. */
int cli_write_text(const char *path, const char *text, char *err, size_t n);
/* One output a command writes: what names it in messages ("--json",
 * "capture.pcap") and its path. */
typedef struct cli_output {
    const char *what;
    const char *path;
} cli_output;
/* Before a command runs: every output can be written (models/out_file.h),
 * no two are the same file (but a character device, written in place,
 * takes several) and none is one of the inputs (the scenario).  0, or -1
 * with "WHAT PATH: why" in err. */
int cli_outputs_check(const cli_output *outs, int n, const char *const *inputs, int ninputs, char *err,
                      size_t errlen);
/* The folder for scratch files: $TMPDIR when it is an absolute path
 * without quotes, else /tmp. */
const char *cli_tmp_folder(void);

int cmd_run(const cli *c);
int cmd_sweep(const cli *c);
int cmd_bench(const cli *c);
int cmd_validate(const cli *c);
/* nicsim keys [SECTION] */
int cmd_keys(const cli *c);
int cmd_buscalc(const cli *c);
int cmd_l3fwd(const cli *c);
int cmd_merge(const cli *c);
/* nicsim qemu SCENARIO [overrides] -- QEMU-COMMAND... */
int cmd_qemu(const cli *c);

#endif
