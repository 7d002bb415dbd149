/* A sweep's outputs, checked before it runs; see sweep_check.h. */
#include "sweep_check.h"
#include "sweep_out.h"
#include "sweep_point.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Whether the sweep gives each point its own value of key. */
static int swept(const sweep_spec *s, const char *key)
{
    for (int k = 0; k < s->nk; k++)
        if (!strcmp(s->keys[k].name, key) && s->keys[k].n > 1)
            return 1;
    return 0;
}

/* capture.pcap of the first point, into out (n bytes; "" when none): 0,
 * or -1 (err) when several points would write the same file. */
static int first_capture(const sweep_spec *s, char *out, size_t n, char *err, size_t errlen)
{
    char bufs[SWEEP_MAX_KEYS][512];
    char *ov[SWEEP_MAX_KEYS];
    out[0] = 0;
    sweep_spec_point(s, 0, bufs, ov);
    scenario *sc = nicsim_scenario_load(s->scenario, s->nk, ov, err, errlen);
    if (!sc)
        return 0;       /* the point itself reports its scenario's error */
    const char *pattern = scenario_str(sc, "capture", "pcap");
    int rc = 0;
    if (pattern[0] && s->npts > 1 && !strstr(pattern, "{point}") && !swept(s, "capture.pcap")) {
        snprintf(err, errlen, "capture.pcap: '%s': every one of the %ld points would write this one file; put "
                              "{point} in it (replaced by the point's number, as {port} is by the port's)",
                 pattern, s->npts);
        rc = -1;
    } else if (pattern[0] && sweep_point_capture(pattern, 0, out, n) != 0) {
        snprintf(err, errlen, "capture.pcap: '%s': too long", pattern);
        rc = -1;
    }
    scenario_free(sc);
    return rc;
}

int sweep_check_outputs(const sweep_spec *s, const cli *c, char *err, size_t errlen)
{
    if (c->plot && sweep_plot_format(c->plot, err, errlen) < 0)
        return -1;
    struct stat st;
    if (c->results && stat(c->results, &st) == 0 && !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "--results %s: not a folder (the points' results are written into it)", c->results);
        return -1;
    }
    char capture[512];
    if (first_capture(s, capture, sizeof capture, err, errlen) != 0)
        return -1;
    cli_output outs[5];
    int n = 0;
    if (c->csv)
        outs[n++] = (cli_output){ "--csv", c->csv };
    if (c->json)
        outs[n++] = (cli_output){ "--json", c->json };
    if (c->plot)
        outs[n++] = (cli_output){ "--plot", c->plot };
    if (c->emit_jobs)
        outs[n++] = (cli_output){ "--emit-jobs", c->emit_jobs };
    if (capture[0] && !strstr(capture, "{port}"))
        outs[n++] = (cli_output){ "capture.pcap", capture };
    const char *inputs[] = { s->scenario };
    return cli_outputs_check(outs, n, inputs, 1, err, errlen);
}
