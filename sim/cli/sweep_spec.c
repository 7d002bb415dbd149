#include "sweep_spec.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_value(sweep_key *k, const char *v, size_t len, char *err, size_t errlen)
{
    if (k->n == SWEEP_MAX_VALUES) {
        snprintf(err, errlen, "%s: at most %d values", k->name, SWEEP_MAX_VALUES);
        return -1;
    }
    char **nv = realloc(k->vals, (size_t)(k->n + 1) * sizeof *nv);
    if (!nv || !(nv[k->n] = strndup(v, len))) {
        if (nv)
            k->vals = nv;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    k->vals = nv;
    k->n++;
    return 0;
}

/* A number written in full (no trailing text). */
static int number(const char *s, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    return *end == 0 && errno == 0 && isfinite(*out);
}

/* "a..b:step" (step defaults to 1) into k's values, a to b inclusive. */
static int add_range(sweep_key *k, const char *item, size_t len, const char *dots, char *err, size_t errlen)
{
    const char *colon = memchr(dots + 2, ':', len - (size_t)(dots + 2 - item));
    const char *b_end = colon ? colon : item + len;
    double a, b, step = 1;
    if (!number(item, (size_t)(dots - item), &a) || !number(dots + 2, (size_t)(b_end - dots - 2), &b) ||
        (colon && !number(colon + 1, (size_t)(item + len - colon - 1), &step)) || !(step > 0)) {
        snprintf(err, errlen, "%s: '%.*s': expected a range FROM..TO or FROM..TO:STEP of numbers, STEP > 0",
                 k->name, (int)len, item);
        return -1;
    }
    if (b < a) {
        snprintf(err, errlen, "%s: '%.*s': the range ends below its start", k->name, (int)len, item);
        return -1;
    }
    for (long i = 0;; i++) {
        double v = a + (double)i * step;
        if (v > b + 1e-9 * fabs(step))
            break;
        char buf[64];
        snprintf(buf, sizeof buf, "%.15g", v);
        if (add_value(k, buf, strlen(buf), err, errlen) != 0)
            return -1;
    }
    return 0;
}

int sweep_spec_parse(sweep_spec *s, const char *scenario, char *const *args, int nargs, int zip, char *err,
                     size_t errlen)
{
    memset(s, 0, sizeof *s);
    snprintf(s->scenario, sizeof s->scenario, "%s", scenario);
    s->zip = zip;
    for (int i = 0; i < nargs; i++) {
        if (s->nk == SWEEP_MAX_KEYS) {
            snprintf(err, errlen, "at most %d swept keys", SWEEP_MAX_KEYS);
            return -1;
        }
        const char *eq = strchr(args[i], '=');
        /* a key twice would label its rows with values the runs did not
         * use: the later one wins in the scenario */
        for (int k = 0; k < s->nk; k++)
            if (strlen(s->keys[k].name) == (size_t)(eq - args[i]) && !strncmp(s->keys[k].name, args[i], (size_t)(eq - args[i]))) {
                snprintf(err, errlen, "%s: given twice (put all its values in one %s=v1,v2,...)", s->keys[k].name,
                         s->keys[k].name);
                return -1;
            }
        sweep_key *k = &s->keys[s->nk++];
        snprintf(k->name, sizeof k->name, "%.*s", (int)(eq - args[i]), args[i]);
        for (const char *item = eq + 1;;) {
            const char *comma = strchr(item, ',');
            size_t len = comma ? (size_t)(comma - item) : strlen(item);
            const char *dots = NULL;
            for (size_t j = 0; j + 1 < len; j++)
                if (item[j] == '.' && item[j + 1] == '.') {
                    dots = item + j;
                    break;
                }
            if (len == 0) {
                snprintf(err, errlen, "'%s': an empty value (expected key=v1,v2,... or key=FROM..TO:STEP)", args[i]);
                return -1;
            }
            if ((dots ? add_range(k, item, len, dots, err, errlen) : add_value(k, item, len, err, errlen)) != 0)
                return -1;
            if (!comma)
                break;
            item = comma + 1;
        }
    }
    s->npts = s->nk ? 1 : 0;
    const sweep_key *first = NULL;      /* zip: the first key with several values */
    for (int k = 0; k < s->nk; k++) {
        const sweep_key *sk = &s->keys[k];
        if (!zip) {
            s->npts *= sk->n;
        } else if (sk->n > 1) {
            if (first && sk->n != first->n) {
                snprintf(err, errlen, "--zip: %s has %d values, %s has %d: zipped keys need as many each",
                         first->name, first->n, sk->name, sk->n);
                return -1;
            }
            first = sk;
            s->npts = sk->n;
        }
    }
    if (s->npts > 1000000) {
        snprintf(err, errlen, "%ld points: at most 1,000,000", s->npts);
        return -1;
    }
    return 0;
}

void sweep_spec_free(sweep_spec *s)
{
    for (int k = 0; k < s->nk; k++) {
        for (int i = 0; i < s->keys[k].n; i++)
            free(s->keys[k].vals[i]);
        free(s->keys[k].vals);
    }
    s->nk = 0;
}

void sweep_spec_point(const sweep_spec *s, long idx, char bufs[][512], char **ov)
{
    for (int k = s->nk - 1; k >= 0; k--) {
        int v;
        if (s->zip) {
            v = s->keys[k].n == 1 ? 0 : (int)idx;   /* a key with one value is a plain override */
        } else {
            v = (int)(idx % s->keys[k].n);
            idx /= s->keys[k].n;
        }
        snprintf(bufs[k], 512, "%s=%s", s->keys[k].name, s->keys[k].vals[v]);
        ov[k] = bufs[k];
    }
}

cJSON *sweep_spec_json(const sweep_spec *s)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "scenario", s->scenario);
    cJSON_AddBoolToObject(j, "zip", s->zip);
    cJSON_AddNumberToObject(j, "points", (double)s->npts);
    cJSON *keys = cJSON_AddArrayToObject(j, "keys");
    for (int k = 0; k < s->nk; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", s->keys[k].name);
        cJSON *vals = cJSON_AddArrayToObject(o, "values");
        for (int i = 0; i < s->keys[k].n; i++)
            cJSON_AddItemToArray(vals, cJSON_CreateString(s->keys[k].vals[i]));
        cJSON_AddItemToArray(keys, o);
    }
    return j;
}

int sweep_spec_from_json(sweep_spec *s, const cJSON *j, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "scenario");
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(j, "keys");
    if (!cJSON_IsString(sc) || !cJSON_IsArray(keys) || cJSON_GetArraySize(keys) > SWEEP_MAX_KEYS) {
        snprintf(err, errlen, "not a sweep description (expected scenario and keys)");
        return -1;
    }
    snprintf(s->scenario, sizeof s->scenario, "%s", sc->valuestring);
    s->zip = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "zip"));
    const cJSON *k;
    cJSON_ArrayForEach(k, keys) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(k, "name");
        const cJSON *vals = cJSON_GetObjectItemCaseSensitive(k, "values");
        if (!cJSON_IsString(name) || !cJSON_IsArray(vals) || cJSON_GetArraySize(vals) < 1) {
            snprintf(err, errlen, "key %d: expected a name and values", s->nk + 1);
            return -1;
        }
        sweep_key *sk = &s->keys[s->nk++];
        snprintf(sk->name, sizeof sk->name, "%s", name->valuestring);
        const cJSON *v;
        cJSON_ArrayForEach(v, vals) {
            if (!cJSON_IsString(v) || add_value(sk, v->valuestring, strlen(v->valuestring), err, errlen) != 0) {
                if (!cJSON_IsString(v))
                    snprintf(err, errlen, "key %s: values must be strings", sk->name);
                return -1;
            }
        }
    }
    s->npts = s->nk ? 1 : 0;
    for (int i = 0; i < s->nk; i++)
        if (!s->zip)
            s->npts *= s->keys[i].n;
        else if (s->keys[i].n > 1)
            s->npts = s->keys[i].n;
    return 0;
}
