/* What a sweep runs: its scenario, its keys with their values (lists
 * "v1,v2,..." and ranges "a..b:step", mixed), and how they combine (the
 * cartesian product, the first key varying slowest, or with --zip the
 * values paired in order).  A spec is also written as JSON (sweep.json in a
 * results folder) so that `nicsim merge` and each distributed point read
 * the same sweep. */
#ifndef NICSIM_SWEEP_SPEC_H
#define NICSIM_SWEEP_SPEC_H
#include <stddef.h>
#include <cjson/cJSON.h>

enum { SWEEP_MAX_KEYS = 16, SWEEP_MAX_VALUES = 4096 };

typedef struct sweep_key {
    char name[128];
    char **vals;
    int n;
} sweep_key;

typedef struct sweep_spec {
    char scenario[1024];
    sweep_key keys[SWEEP_MAX_KEYS];
    int nk;
    int zip;                    /* 1: values paired; every key has the same count */
    long npts;
} sweep_spec;

/* From "key=values" arguments; 0, or -1 with "what: why" in err. */
int sweep_spec_parse(sweep_spec *s, const char *scenario, char *const *args, int nargs, int zip, char *err,
                     size_t errlen);
void sweep_spec_free(sweep_spec *s);
/* Point idx (0-based): ov[k] = "key=value" in bufs[k] (each 512 bytes). */
void sweep_spec_point(const sweep_spec *s, long idx, char bufs[][512], char **ov);
/* The spec as JSON (caller frees), and back (0, or -1 with a message). */
cJSON *sweep_spec_json(const sweep_spec *s);
int sweep_spec_from_json(sweep_spec *s, const cJSON *j, char *err, size_t errlen);

#endif
