/* A sweep's results, from its points' JSON (sweep_point.h) in point order,
 * whoever ran them: the table (measured beside wire-speed rates), the CSV,
 * the JSON {"scenario", "points": [...]} and the plot.  `nicsim sweep` and
 * `nicsim merge` both write through here, so their files are the same byte
 * for byte. */
#ifndef NICSIM_SWEEP_OUT_H
#define NICSIM_SWEEP_OUT_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "sweep_spec.h"

/* pts[i]: point i's JSON (NULL: never reported).  Prints the table on out;
 * writes csv, json and plot when given (NULL: not).  Returns the number of
 * failed, incomplete or missing points, or -1 when a file could not be
 * written (message in err). */
int sweep_output(const sweep_spec *s, cJSON *const *pts, FILE *out, const char *csv, const char *json,
                 const char *plot, char *err, size_t errlen);

/* Whether path names a plot format: 1 PNG, 0 SVG, -1 neither (err says
 * what is expected). */
int sweep_plot_format(const char *path, char *err, size_t errlen);
/* Draw the plot (gnuplot): the measured rate against the first swept key
 * with the wire-speed curve, one series per combination of the other keys'
 * values (at most 64).
 * 0, or -1 with a message. */
int sweep_plot(const sweep_spec *s, cJSON *const *pts, const char *path, char *err, size_t errlen);

#endif
