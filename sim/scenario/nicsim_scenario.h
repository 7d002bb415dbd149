/* A nicsim scenario as every front end loads it: the INI file and the
 * command-line overrides against the key schema (scenario_keys.c), then the
 * rules that span keys. */
#ifndef NICSIM_NICSIM_SCENARIO_H
#define NICSIM_NICSIM_SCENARIO_H
#include "scenario.h"

/* NULL and a "file:line: ..." (or "command line: ...") message in err on
 * any error. */
scenario *nicsim_scenario_load(const char *path, int n, char **ov, char *err, size_t errlen);

/* Append to msg (a buffer of n bytes) where each key it names
 * ("section.key") got its value, for a message of a rule checked after
 * loading (the app's, the system's): " (pktgen.ports: command line:
 * 'pktgen.ports=2'; system.cards: FILE (default))"; nothing when msg names
 * no key or the whole does not fit. */
void nicsim_scenario_locate(const scenario *sc, char *msg, size_t n);

#endif
