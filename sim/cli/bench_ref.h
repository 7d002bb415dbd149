/* The bench's reference workload (sim/cli/bench_ref.c): a frozen compute
 * loop whose wall time measures this machine, now, for `nicsim bench`. */
#ifndef NICSIM_BENCH_REF_H
#define NICSIM_BENCH_REF_H
#include <stdint.h>

/* Bumped whenever the workload changes: normalised figures of different
 * versions cannot be compared. */
#define BENCH_REF_VERSION 1

typedef struct bench_ref_result {
    double seconds;             /* wall-clock time of the loop */
    uint64_t checksum;          /* the same on every run and machine */
} bench_ref_result;

/* Run the reference workload once: 0, or -1 when out of memory. */
int bench_ref_run(bench_ref_result *res);

#endif
