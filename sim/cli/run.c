/* nicsim run: one scenario, its report on stdout and optionally its JSON. */
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"
#include "../report/report.h"
#include "../scenario/nicsim_scenario.h"

int cmd_run(const cli *c)
{
    char err[1024];
    scenario *sc = nicsim_scenario_load(c->scenario, c->n_overrides, c->overrides, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "%s\n", err);
        return EXIT_USAGE;
    }
    nicsim_system sys;
    int sim_rc = nicsim_simulate(&sys, sc, err, sizeof err);
    if (sim_rc != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        scenario_free(sc);
        return sim_rc == -2 ? EXIT_USAGE : EXIT_RUN_FAILED;
    }
    report_print(stdout, &sys, c->scenario);
    int rc = 0;
    char why[256];
    if (!system_complete(&sys, why, sizeof why)) {
        fprintf(stderr, "nicsim: incomplete run: %s\n", why);
        rc = EXIT_RUN_FAILED;
    }
    if (c->json) {
        cJSON *j = report_json(&sys, c->scenario);
        if (report_write_json(c->json, j, err, sizeof err) != 0) {
            fprintf(stderr, "nicsim: %s\n", err);
            rc = EXIT_RUN_FAILED;
        }
        cJSON_Delete(j);
    }
    if (system_free(&sys, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim: %s\n", err);
        rc = EXIT_RUN_FAILED;
    }
    scenario_free(sc);
    return rc;
}
