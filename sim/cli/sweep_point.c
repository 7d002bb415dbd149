#include "sweep_point.h"
#include "cli.h"
#include "../report/report.h"
#include "../report/run_limit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *typed_value(const char *v)
{
    char *end;
    double d = strtod(v, &end);
    if (*v && !*end)
        return cJSON_CreateNumber(d);
    return cJSON_CreateString(v);
}

static cJSON *point_head(const sweep_spec *s, long idx)
{
    char bufs[SWEEP_MAX_KEYS][512];
    char *ov[SWEEP_MAX_KEYS];
    sweep_spec_point(s, idx, bufs, ov);
    cJSON *pt = cJSON_CreateObject();
    cJSON_AddNumberToObject(pt, "point", (double)idx + 1);
    for (int k = 0; k < s->nk; k++)
        cJSON_AddItemToObject(pt, s->keys[k].name, typed_value(strchr(ov[k], '=') + 1));
    return pt;
}

void sweep_point_command(const sweep_spec *s, long idx, char *out, size_t n)
{
    char bufs[SWEEP_MAX_KEYS][512];
    char *ov[SWEEP_MAX_KEYS];
    sweep_spec_point(s, idx, bufs, ov);
    size_t l = (size_t)snprintf(out, n, "nicsim run %s", s->scenario);
    for (int k = 0; k < s->nk && l < n; k++)
        l += (size_t)snprintf(out + l, n - l, " %s", ov[k]);
    /* `nicsim run` refuses {point}: the command names the point's own
     * capture, as the sweep ran it (the last override of a key wins) */
    char err[256];
    scenario *sc = nicsim_scenario_load(s->scenario, s->nk, ov, err, sizeof err);
    const char *pattern = sc ? scenario_str(sc, "capture", "pcap") : "";
    char path[480];
    if (strstr(pattern, "{point}") && sweep_point_capture(pattern, idx, path, sizeof path) == 0 && l < n)
        snprintf(out + l, n - l, " capture.pcap=%s", path);
    if (sc)
        scenario_free(sc);
}

cJSON *sweep_point_failed(const sweep_spec *s, long idx, int status, const char *why)
{
    cJSON *pt = point_head(s, idx);
    char cmd[4096];
    sweep_point_command(s, idx, cmd, sizeof cmd);
    cJSON_AddBoolToObject(pt, "failed", 1);
    cJSON_AddNumberToObject(pt, "exit_status", status);
    cJSON_AddStringToObject(pt, "error", why);
    cJSON_AddStringToObject(pt, "command", cmd);
    return pt;
}

int sweep_point_capture(const char *pattern, long idx, char *out, size_t n)
{
    const char *mark = strstr(pattern, "{point}");
    if (!mark)
        return (size_t)snprintf(out, n, "%s", pattern) < n ? 0 : -1;
    return (size_t)snprintf(out, n, "%.*s%ld%s", (int)(mark - pattern), pattern, idx + 1,
                            mark + strlen("{point}")) < n ? 0 : -1;
}

/* Point idx's scenario: the sweep's overrides, and capture.pcap with
 * {point} replaced by the point's number (so that each point writes a
 * capture of its own).  NULL with err. */
static scenario *point_scenario(const sweep_spec *s, long idx, char *err, size_t errlen)
{
    char bufs[SWEEP_MAX_KEYS + 1][512];
    char *ov[SWEEP_MAX_KEYS + 1];
    sweep_spec_point(s, idx, bufs, ov);
    scenario *sc = nicsim_scenario_load(s->scenario, s->nk, ov, err, errlen);
    if (!sc)
        return NULL;
    const char *pattern = scenario_str(sc, "capture", "pcap");
    if (!strstr(pattern, "{point}"))
        return sc;
    char path[480];
    int bad = sweep_point_capture(pattern, idx, path, sizeof path);
    scenario_free(sc);
    if (bad) {
        snprintf(err, errlen, "capture.pcap: '%s': too long", pattern);
        return NULL;
    }
    snprintf(bufs[s->nk], sizeof bufs[s->nk], "capture.pcap=%s", path);
    ov[s->nk] = bufs[s->nk];
    return nicsim_scenario_load(s->scenario, s->nk + 1, ov, err, errlen);
}

cJSON *sweep_point_run(const sweep_spec *s, long idx, int *status)
{
    char err[1024];
    scenario *sc = point_scenario(s, idx, err, sizeof err);
    if (!sc) {
        *status = EXIT_USAGE;
        return sweep_point_failed(s, idx, *status, err);
    }
    nicsim_system sys;
    int rc = nicsim_simulate(&sys, sc, err, sizeof err);
    if (rc == 0 && system_captures_finish(&sys, err, sizeof err) != 0) {
        /* a capture that could not be written fails the point */
        char e2[256];
        system_captures_discard(&sys);
        system_free(&sys, e2, sizeof e2);
        rc = -1;
    }
    if (rc != 0) {
        scenario_free(sc);
        *status = rc == -2 ? EXIT_USAGE : EXIT_RUN_FAILED;
        return sweep_point_failed(s, idx, *status, err);
    }
    int nports = report_tx_ports(&sys);
    double wire = nports * link_wire_line_pps(scenario_double(sc, "link", "gbps"),
                                              (uint32_t)scenario_uint(sc, sys.app->frames, "size"));
    double pps = report_tx_pps(&sys);
    char why[256];
    int complete = system_complete(&sys, why, sizeof why);
    cJSON *pt = point_head(s, idx);
    cJSON_AddNumberToObject(pt, "tx_pps", pps);
    cJSON_AddNumberToObject(pt, "wire_pps", wire);
    cJSON_AddNumberToObject(pt, "pct_wire", wire > 0 ? 100 * pps / wire : 0);
    cJSON_AddNumberToObject(pt, "tx_mbps", report_tx_mbps(&sys));
    cJSON_AddNumberToObject(pt, "tx_packets", (double)report_tx_packets(&sys));
    run_limit lim;
    run_limit_of(&sys, &lim);
    cJSON_AddStringToObject(pt, "limit", run_limit_name(lim.kind));
    cJSON_AddStringToObject(pt, "limit_what", lim.what);
    cJSON_AddBoolToObject(pt, "complete", complete);
    if (!complete)
        cJSON_AddStringToObject(pt, "incomplete_reason", why);
    cJSON_AddItemToObject(pt, "run", report_json(&sys, s->scenario));
    *status = complete ? 0 : EXIT_RUN_FAILED;
    if (system_free(&sys, err, sizeof err) != 0)
        *status = EXIT_RUN_FAILED;
    scenario_free(sc);
    return pt;
}

const char *sweep_point_state(const cJSON *pt)
{
    if (!pt || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pt, "failed")))
        return "failed";
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pt, "complete")) ? "ok" : "incomplete";
}

void sweep_point_path(const char *dir, long idx, char *out, size_t n)
{
    snprintf(out, n, "%s/point-%05ld.json", dir, idx + 1);
}

/* The value pt holds for a key against the grid's text v (the point file
 * stores numbers as numbers, as point_head wrote them). */
static int same_value(const cJSON *have, const char *v)
{
    char *end;
    double d = strtod(v, &end);
    if (*v && !*end)
        return cJSON_IsNumber(have) && have->valuedouble == d;
    return cJSON_IsString(have) && !strcmp(have->valuestring, v);
}

int sweep_point_check(const sweep_spec *s, long idx, const cJSON *pt, char *why, size_t n)
{
    if (!cJSON_IsObject(pt)) {
        snprintf(why, n, "corrupt: not a JSON object");
        return -1;
    }
    const cJSON *num = cJSON_GetObjectItemCaseSensitive(pt, "point");
    if (!cJSON_IsNumber(num) || num->valuedouble != (double)idx + 1) {
        snprintf(why, n, "stale or foreign: it is not point %ld of this grid (\"point\": %s)", idx + 1,
                 cJSON_IsNumber(num) ? "another number" : "missing");
        return -1;
    }
    char bufs[SWEEP_MAX_KEYS][512];
    char *ov[SWEEP_MAX_KEYS];
    sweep_spec_point(s, idx, bufs, ov);
    for (int k = 0; k < s->nk; k++) {
        const char *v = strchr(ov[k], '=') + 1;
        const cJSON *have = cJSON_GetObjectItemCaseSensitive(pt, s->keys[k].name);
        if (!same_value(have, v)) {
            char *txt = have ? cJSON_PrintUnformatted(have) : NULL;
            snprintf(why, n, "stale or foreign: it ran %s=%s, the grid's point %ld has %s (left from another grid "
                     "in this folder?)", s->keys[k].name, txt ? txt : "(nothing)", idx + 1, ov[k]);
            free(txt);
            return -1;
        }
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pt, "failed")))
        return 0;       /* a failed point carries its own error */
    static const char *const numbers[] = { "tx_pps", "wire_pps", "pct_wire", "tx_mbps", "tx_packets" };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(pt, numbers[i]))) {
            snprintf(why, n, "corrupt: \"%s\" is missing or not a number", numbers[i]);
            return -1;
        }
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(pt, "limit")) ||
        !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(pt, "complete"))) {
        snprintf(why, n, "corrupt: \"limit\" or \"complete\" is missing or of the wrong type");
        return -1;
    }
    const cJSON *scn = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(pt, "run"), "scenario");
    if (!cJSON_IsString(scn)) {
        snprintf(why, n, "corrupt: no \"run\" with its \"scenario\"");
        return -1;
    }
    if (strcmp(scn->valuestring, s->scenario)) {
        snprintf(why, n, "stale or foreign: it ran %s, the grid is of %s", scn->valuestring, s->scenario);
        return -1;
    }
    return 0;
}
