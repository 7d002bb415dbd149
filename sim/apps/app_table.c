/* The apps a scenario can name; see app.h.  One line per app. */
#include "app.h"
#include "../scenario/personality.h"
#include "app_pktgen.h"
#include "app_router.h"
#include "app_sink.h"
#include "app_l3fwd.h"
#include "app_fwd.h"
#include <string.h>

static const app *const apps[] = { &app_pktgen, &app_router, &app_sink, &app_l3fwd, &app_fwd };

const app *app_find(const char *name)
{
    for (size_t i = 0; i < sizeof apps / sizeof apps[0]; i++)
        if (!strcmp(apps[i]->name, name))
            return apps[i];
    return NULL;
}

const app *app_of(const scenario *sc)
{
    return app_find(scenario_str(sc, "system", "app"));
}

int app_check(const app *a, const scenario *sc, const struct nic_port_core *core, int nports, char *err,
              size_t n)
{
    if (a->core && a->core != core) {
        char models[100], where[300];
        nic_personality_models_of(a->core, models, sizeof models);
        scenario_where(sc, "nic", "model", where, sizeof where);
        snprintf(err, n, "%s: nic.model: %s runs on the %s core (nic.model = %s only), got '%s' (the %s core) for "
                 "system.app", where, a->name, a->core->name, models, scenario_str(sc, "nic", "model"), core->name);
        return -1;
    }
    return a->check ? a->check(sc, nports, err, n) : 0;
}

int app_instances(const app *a, const scenario *sc, int nports)
{
    int n = 0;
    for (int p = 0; p < nports; p++) {
        int k = a->instance_of(sc, p, nports);
        if (k + 1 > n)
            n = k + 1;
    }
    return n;
}
