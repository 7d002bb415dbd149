/* Configurations the reference tables show the model does not reproduce.
 *
 * `nicsim validate` runs every row of testbench/reference/ and marks a row
 * OUT when the model misses it by more than the row's tolerance.  A user who
 * runs such a configuration by hand deserves to hear it: the run's report
 * names the rows (text "trust" line, JSON limit.trust.not_reproduced), and
 * validate marks each row whose own run carried the mark, so the system
 * test ValidateJsonRows can check that the rows marked are exactly the rows
 * OUT: a row the model starts to reproduce, or a new miss, fails it until
 * this list is updated.
 *
 * A row is matched by every key its run sets (the row's scenario file and
 * validate's variant), except those that only set the run's length. */
#ifndef NICSIM_NOT_REPRODUCED_H
#define NICSIM_NOT_REPRODUCED_H
#include "../scenario/scenario.h"

typedef struct not_reproduced_row {
    const char *table;  /* file under testbench/reference/ */
    const char *row;    /* validate's row keys, as it prints them */
    const char *metric; /* the table's column the model misses */
    const char *why;    /* where the miss is discussed */
    const char *const *keys; /* "section.key=value", NULL-terminated */
} not_reproduced_row;

/* The rows whose configuration sc is, into out[0..max-1]; returns how many
 * (all of them may be more than max). */
int not_reproduced_rows(const scenario *sc, const not_reproduced_row **out, int max);

#endif
