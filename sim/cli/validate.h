/* Shared by the validate commands (validate.c: the 82546 tables,
 * validate_ixgbe.c: the 82599 tables): the reference CSV reader, running one
 * scenario to a JSON report, and the per-row progress line. */
#ifndef NICSIM_VALIDATE_H
#define NICSIM_VALIDATE_H
#include <stddef.h>
#include <cjson/cJSON.h>
#include "cli.h"

/* A reference table: '#' comment lines, a header, plain comma-separated
 * fields (no quoting: the tables have none); at most 64 rows of 32 fields. */
typedef struct csv {
    char *cols[32];
    int ncols;
    char *rows[64][32];
    int nrows;
    char *buf;
} csv;

/* 0, or -1 with "PATH:LINE: what" in err; free c->buf when done. */
int csv_load(const char *path, csv *c, char *err, size_t n);
/* The field of column col in row (NULL: no such column). */
const char *csv_get(const csv *c, int row, const char *col);
/* stderr: "[what] build/nicsim run PATH overrides...", the row's command. */
void print_row_command(const char *what, const char *path, char **ov, int n);
/* Run one scenario with overrides; *out = its JSON report.  0 ok. */
int run_scenario(const char *path, char **ov, int n, cJSON **out, char *err, size_t errlen);
/* Number b of element i of array a of j (NAN when absent). */
double jnum(const cJSON *j, const char *a, int i, const char *b);
/* A run's limit (its JSON's limit.resource) into out ("?" when absent). */
void run_json_limit(const cJSON *run, char *out, size_t n);

/* 1 when the run's report says its configuration is the row (table, row
 * as validate prints its keys, metric) that the model does not reproduce
 * (its limit.trust.not_reproduced; sim/report/not_reproduced.h). */
int run_json_marks_row(const cJSON *run, const char *table, const char *row, const char *metric);
/* The row's verdict after its figures: "" within, "  OUT", and ", known"
 * / "  known, but within" when its run was marked not reproduced. */
void validate_verdict(char *out, size_t n, int out_of_tolerance, const char *why_out, int marked);

/* One JSON row: table, the CSV's key columns (keys' members), metric,
 * reference, simulated, error_pct = 100 (simulated - reference) / reference,
 * within (the row's tolerance) and known_not_reproduced (its run was
 * marked). */
cJSON *validate_row_json(const char *table, const cJSON *keys, const char *metric, double reference,
                         double simulated, int within, int marked);

/* nicsim validate ixgbe */
int validate_ixgbe(const cli *c);

#endif
