/* Scenario files: an INI file checked against a typed schema.
 *
 * Every component publishes the keys it reads as a table of scenario_key; the
 * CLI concatenates the tables and calls scenario_load().  Everything the user
 * can get wrong (unknown section or key, a bad or out-of-range value, a key set
 * twice, a syntax error, an unreadable file, a bad `section.key=value`
 * override) is reported as one message that names the file and line (or the
 * override), and nothing is loaded.  Everything the program can get wrong (a
 * bad schema, an accessor for a key that is not in the schema or has another
 * type) prints a message and abort()s: it is a bug, not an input error.
 *
 * File syntax (libinih):
 *   [section]                  ; a section header
 *   key = value                ; whitespace around key and value is ignored
 *   # full-line comments start with ';' or '#'; an inline comment is ';' or
 *   # '#' preceded by whitespace: `rate = 10 # Gbit/s`.
 *   Indentation is ignored (no multi-line values), lines are at most
 *   SCENARIO_MAX_LINE characters, and keys must be inside a section.
 *   Refused with file:line: text after a section header on its line, a
 *   carriage return that does not end a line (CR-only line ends), a NUL
 *   byte; and a file larger than SCENARIO_MAX_BYTES or that is neither a
 *   regular file nor a FIFO (a device such as /dev/zero never ends).
 *
 * Values by type (the same in files, overrides and schema defaults):
 *   INT, UINT  decimal or 0x hex; INT may have a leading '-'; no suffixes, no '_'
 *   DOUBLE     anything strtod accepts that is finite (1e9, 0.5, -3)
 *   BOOL       true/false, yes/no, on/off, 1/0 (case-insensitive)
 *   STRING     any text, may be empty
 *   ENUM       exactly one of the choices "a|b|c" (case-sensitive)
 */
#ifndef NICSIM_SCENARIO_H
#define NICSIM_SCENARIO_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest accepted line, without its line break: libinih parses a line in a
 * 200-byte buffer that also holds the '\n' and the NUL. */
#define SCENARIO_MAX_LINE 198
/* Largest accepted scenario file: the biggest real one is a few KiB. */
#define SCENARIO_MAX_BYTES (1024 * 1024)

typedef enum scenario_type {
    SCN_INT,    /* int64_t  -> scenario_int()    */
    SCN_UINT,   /* uint64_t -> scenario_uint()   */
    SCN_DOUBLE, /* double   -> scenario_double() */
    SCN_BOOL,   /* 0 or 1   -> scenario_bool()   */
    SCN_STRING, /* text     -> scenario_str()    */
    SCN_ENUM,   /* a choice -> scenario_str()    */
} scenario_type;

typedef struct scenario_key {
    const char *section;
    const char *key;
    scenario_type type;
    const char *def;     /* default value, written as in a file; never NULL */
    const char *min;     /* INT/UINT/DOUBLE inclusive bounds as text;      */
    const char *max;     /*   NULL = the type's own limit                   */
    const char *choices; /* ENUM only: "a|b|c"                             */
    const char *help;    /* one line for --help-scenario                   */
} scenario_key;

typedef struct scenario scenario;

/* Load defaults, then the file at path (NULL = no file, defaults only), then
 * the overrides in order ("section.key=value"; the section is everything
 * before the last '.' of the name; a later override of the same key wins).
 * The schema must outlive the scenario.  Returns 0 and sets *out, or returns
 * -1, sets *out to NULL and writes one line (no newline) into err:
 *   PATH: cannot open: No such file or directory
 *   PATH:7: unknown section [nicc]; expected one of: system, nic, traffic
 *   PATH:9: unknown key 'rign' in [nic]; expected one of: ring, itr
 *   PATH:9: nic.ring: expected an integer in [8, 4096], got '5000'
 *   PATH:12: duplicate key 'ring' in [nic] (first set at line 9)
 *   PATH:3: syntax error
 *   command line: 'nic.ring=x': nic.ring: expected an integer in [8, 4096], got 'x'
 */
int scenario_load(scenario **out, const scenario_key *schema, size_t n,
                  const char *path, int n_overrides, char *const *overrides,
                  char *err, size_t errlen);
void scenario_free(scenario *s);

/* Typed values.  The key must be in the schema with the matching type
 * (scenario_str serves STRING and ENUM); anything else aborts. */
int64_t scenario_int(const scenario *s, const char *section, const char *key);
uint64_t scenario_uint(const scenario *s, const char *section, const char *key);
double scenario_double(const scenario *s, const char *section, const char *key);
int scenario_bool(const scenario *s, const char *section, const char *key);
const char *scenario_str(const scenario *s, const char *section, const char *key);
/* Any key's value as written (file, override or default), for messages
 * that quote it whatever its type. */
const char *scenario_text(const scenario *s, const char *section, const char *key);
/* Line of the file that set the key; 0 when it is the default or an override.
 * Lets later semantic checks (e.g. "ring must be a multiple of 8") point at
 * the line too. */
int scenario_line(const scenario *s, const char *section, const char *key);
/* Which keys the program used: a typed accessor (scenario_int, _uint,
 * _double, _bool, _str) marks its key as read; the helpers for messages
 * (scenario_text, _line, _where, _is_set) do not.  scenario_reads_forget
 * starts afresh (after the checks at load time, which read keys a run may
 * not use); scenario_next_unread walks the keys the file or an override set
 * that nothing has read since: the next one from index *i on (and *i past
 * it), or NULL when none is left.  Start with *i = 0. */
void scenario_reads_forget(const scenario *s);
const scenario_key *scenario_next_unread(const scenario *s, size_t *i);
/* 1 when the key's value equals value read as the key's type (so "yes"
 * holds for a bool set to "true", "0x40" for an integer set to 64), else
 * 0; the key is not marked read.  Serves checks of a whole configuration
 * (is this run one the reference tables speak of?); a key not in the
 * schema or a value its type refuses is a bug and aborts. */
int scenario_holds(const scenario *s, const char *section, const char *key, const char *value);
/* 1 when the file or an override set the key, 0 when it has its default. */
int scenario_is_set(const scenario *s, const char *section, const char *key);
/* Where the key got its value, for an error message: "PATH:LINE", a
 * command-line override as "command line: 'section.key=value'", or
 * "PATH (default)".  Lets a check made long after loading (an app's) point
 * at what to change. */
void scenario_where(const scenario *s, const char *section, const char *key, char *out, size_t n);
/* The file path given to scenario_load, or NULL. */
const char *scenario_path(const scenario *s);

/* The schema as help text, one block per section (only section's when it
 * is not NULL): with width 0 one line per key with its type, default,
 * range or choices, and help; else each key's name, type and default on a
 * line and its range and help under it, wrapped to width columns.  0, or
 * -1 (nothing printed) when no key is in section. */
int scenario_print_schema(FILE *f, const scenario_key *schema, size_t n, const char *section, int width);
/* The schema's sections, each once in order of first appearance, as
 * "system, nic, ..." in buf (len bytes). */
void scenario_schema_sections(const scenario_key *schema, size_t n, char *buf, size_t len);

#endif
