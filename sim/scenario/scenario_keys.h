/* The keys a scenario file may set, for every component (one table). */
#ifndef NICSIM_SCENARIO_KEYS_H
#define NICSIM_SCENARIO_KEYS_H
#include "scenario.h"

extern const scenario_key nicsim_keys[];
extern const size_t nicsim_n_keys;

#endif
