/* nicsim run: one scenario, its report on stdout and optionally its JSON.
 *
 * Outputs are checked once the system is built (the capture paths are
 * known then) and before it runs; a run that fails, and a capture that
 * cannot be written, leave every earlier output as it was (no JSON that
 * describes a capture that is not there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../report/report.h"
#include "../scenario/nicsim_scenario.h"

/* --json and every port's capture: writable, distinct, not the scenario. */
static int check_outputs(const cli *c, const nicsim_system *sys, char *err, size_t errlen)
{
    cli_output outs[SYS_MAX_PORTS + 1];
    int n = 0;
    if (c->json)
        outs[n++] = (cli_output){ "--json", c->json };
    for (int p = 0; p < sys->nports; p++)
        if (sys->port[p].pcap_path[0])
            outs[n++] = (cli_output){ "capture.pcap", sys->port[p].pcap_path };
    const char *inputs[] = { c->scenario };
    return cli_outputs_check(outs, n, inputs, 1, err, errlen);
}

/* A run that stops here writes nothing: its captures are dropped. */
static int give_up(nicsim_system *sys, scenario *sc, const char *err, int status)
{
    char e2[256];
    fprintf(stderr, "nicsim: %s\n", err);
    system_captures_discard(sys);
    system_free(sys, e2, sizeof e2);
    scenario_free(sc);
    return status;
}

int cmd_run(const cli *c)
{
    char err[1024];
    scenario *sc = nicsim_scenario_load(c->scenario, c->n_overrides, c->overrides, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    nicsim_system sys;
    if (system_build(&sys, sc, err, sizeof err) != 0)
        return give_up(&sys, sc, err, EXIT_USAGE);
    if (check_outputs(c, &sys, err, sizeof err) != 0)
        return give_up(&sys, sc, err, EXIT_USAGE);
    if (system_run(&sys, err, sizeof err) != 0)
        return give_up(&sys, sc, err, EXIT_RUN_FAILED);
    report_print(stdout, &sys, c->scenario);
    for (int i = 0; i < sys.nwarnings && i < SYS_MAX_WARNINGS; i++)
        fprintf(stderr, "nicsim: warning: %s\n", sys.warning[i]);
    int rc = 0;
    char why[256];
    if (!system_complete(&sys, why, sizeof why)) {
        fprintf(stderr, "nicsim: incomplete run: %s\n", why);
        rc = EXIT_RUN_FAILED;
    }
    /* every capture written out before the JSON that names them */
    if (system_captures_finish(&sys, err, sizeof err) != 0)
        return give_up(&sys, sc, err, EXIT_RUN_FAILED);
    if (c->json) {
        cJSON *j = report_json(&sys, c->scenario);
        int bad = report_write_json(c->json, j, err, sizeof err);
        cJSON_Delete(j);
        if (bad)
            return give_up(&sys, sc, err, EXIT_RUN_FAILED);
    }
    if (system_free(&sys, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    scenario_free(sc);
    return rc;
}
