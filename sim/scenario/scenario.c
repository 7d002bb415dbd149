/* Scenario files: libinih for the syntax, a typed schema for the meaning.
 *
 * libinih's handler does not know its line number in the Debian build (no
 * INI_HANDLER_LINENO), so the file is fed through our own reader that counts
 * lines; the handler runs right after the reader returned its line, so the
 * count is the handler's line.  The reader also normalizes each line before
 * libinih sees it (see scn_read_line), and checks section headers, because
 * libinih does not tell the handler about a section that has no keys. */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* scn_val.line of a value a command-line override set. */
#define LINE_OVERRIDE (-1)

typedef struct scn_val {
    char *text; /* the value as written (defaults and overrides too) */
    int line;   /* file line that set it; 0 = default, LINE_OVERRIDE */
    union {
        int64_t i;
        uint64_t u;
        double d;
        int b;
    };
} scn_val;

struct scenario {
    const scenario_key *schema;
    size_t n;
    char *path;
    scn_val *v; /* parallel to schema */
    /* parallel to schema: read through a typed accessor since
     * scenario_reads_forget (a pointer, so const accessors may mark it) */
    uint8_t *read;
};

/* ---- small text helpers ----------------------------------------------- */

/* Append to a NUL-terminated buffer, truncating: error messages are built
 * piece by piece (a message plus a list of expected names). */
static void app(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void app(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf || len == 0)
        return;
    size_t used = strnlen(buf, len - 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

static const char *type_name(scenario_type t)
{
    switch (t) {
    case SCN_INT: return "int";
    case SCN_UINT: return "uint";
    case SCN_DOUBLE: return "double";
    case SCN_BOOL: return "bool";
    case SCN_STRING: return "string";
    case SCN_ENUM: return "enum";
    }
    return "?";
}

/* ---- value parsing ---------------------------------------------------- */

/* Digits only ("0x" hex or decimal), checked before strtoull so that it never
 * sees the signs, spaces, octal or second "0x" it would otherwise accept. */
static int parse_magnitude(const char *p, uint64_t *out)
{
    int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (hex)
        p += 2;
    size_t nd = strspn(p, hex ? "0123456789abcdefABCDEF" : "0123456789");
    if (nd == 0 || p[nd] != '\0')
        return -1;
    errno = 0;
    unsigned long long m = strtoull(p, NULL, hex ? 16 : 10);
    if (errno == ERANGE)
        return -1;
    *out = m;
    return 0;
}

static int parse_i64(const char *t, int64_t *out)
{
    int neg = t[0] == '-';
    uint64_t m;
    if (parse_magnitude(t + neg, &m))
        return -1;
    if (neg) {
        if (m > (uint64_t)INT64_MAX + 1)
            return -1;
        *out = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
    } else {
        if (m > (uint64_t)INT64_MAX)
            return -1;
        *out = (int64_t)m;
    }
    return 0;
}

static int parse_double(const char *t, double *out)
{
    if (!*t || isspace((unsigned char)*t))
        return -1;
    char *end;
    double d = strtod(t, &end);
    if (*end != '\0' || !isfinite(d))
        return -1;
    *out = d;
    return 0;
}

static int parse_bool(const char *t, int *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcasecmp(t, yes[i])) {
            *out = 1;
            return 0;
        }
        if (!strcasecmp(t, no[i])) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

static int enum_has(const char *choices, const char *t)
{
    size_t tl = strlen(t);
    for (const char *p = choices;;) {
        size_t l = strcspn(p, "|");
        if (l == tl && !strncmp(p, t, l))
            return 1;
        if (!p[l])
            return 0;
        p += l + 1;
    }
}

/* The range as the user should read it: the schema's own text where it
 * gives one, else the type's limit. */
static void range_text(const scenario_key *k, char *buf, size_t len)
{
    const char *lo = k->min, *hi = k->max;
    char lob[32], hib[32];
    if (!lo) {
        if (k->type == SCN_INT)
            snprintf(lob, sizeof lob, "%lld", (long long)INT64_MIN);
        else
            snprintf(lob, sizeof lob, "%s", k->type == SCN_UINT ? "0" : "-inf");
        lo = lob;
    }
    if (!hi) {
        if (k->type == SCN_INT)
            snprintf(hib, sizeof hib, "%lld", (long long)INT64_MAX);
        else if (k->type == SCN_UINT)
            snprintf(hib, sizeof hib, "%llu", (unsigned long long)UINT64_MAX);
        else
            snprintf(hib, sizeof hib, "inf");
        hi = hib;
    }
    snprintf(buf, len, "[%s, %s]", lo, hi);
}

/* Parse text as key k's value into *v (text not copied).  On error writes
 * "section.key: expected ..., got 'text'" into msg and returns -1. */
static int parse_value(const scenario_key *k, const char *t, scn_val *v,
                       char *msg, size_t msglen)
{
    char range[96];
    int ok = 0;
    switch (k->type) {
    case SCN_INT: {
        int64_t x, lo = INT64_MIN, hi = INT64_MAX;
        if (k->min)
            parse_i64(k->min, &lo); /* schema_check proved these parse */
        if (k->max)
            parse_i64(k->max, &hi);
        ok = !parse_i64(t, &x) && x >= lo && x <= hi;
        if (ok)
            v->i = x;
        break;
    }
    case SCN_UINT: {
        uint64_t x, lo = 0, hi = UINT64_MAX;
        if (k->min)
            parse_magnitude(k->min, &lo);
        if (k->max)
            parse_magnitude(k->max, &hi);
        ok = !parse_magnitude(t, &x) && x >= lo && x <= hi;
        if (ok)
            v->u = x;
        break;
    }
    case SCN_DOUBLE: {
        double x, lo = -INFINITY, hi = INFINITY;
        if (k->min)
            parse_double(k->min, &lo);
        if (k->max)
            parse_double(k->max, &hi);
        ok = !parse_double(t, &x) && x >= lo && x <= hi;
        if (ok)
            v->d = x;
        break;
    }
    case SCN_BOOL:
        ok = !parse_bool(t, &v->b);
        break;
    case SCN_STRING:
        ok = 1;
        break;
    case SCN_ENUM:
        ok = enum_has(k->choices, t);
        break;
    }
    if (ok)
        return 0;
    if (msg && msglen)
        msg[0] = '\0';
    app(msg, msglen, "%s.%s: expected ", k->section, k->key);
    switch (k->type) {
    case SCN_INT:
    case SCN_UINT:
        range_text(k, range, sizeof range);
        app(msg, msglen, "an integer in %s", range);
        break;
    case SCN_DOUBLE:
        range_text(k, range, sizeof range);
        app(msg, msglen, "a number in %s", range);
        break;
    case SCN_BOOL:
        app(msg, msglen, "a boolean (true/false, yes/no, on/off, 1/0)");
        break;
    case SCN_ENUM:
        app(msg, msglen, "one of %s", k->choices);
        break;
    case SCN_STRING:
        break;
    }
    app(msg, msglen, ", got '%s'", t);
    return -1;
}

/* ---- schema ----------------------------------------------------------- */

static void schema_bug(const scenario_key *k, const char *what, const char *detail)
{
    fprintf(stderr, "scenario schema bug: [%s] %s: %s%s%s\n",
            k->section ? k->section : "(null)", k->key ? k->key : "(null)",
            what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* A broken schema is a bug in the program, found on the first load. */
static void schema_check(const scenario_key *schema, size_t n)
{
    char msg[256];
    for (size_t i = 0; i < n; i++) {
        const scenario_key *k = &schema[i];
        scn_val v;
        if (!k->section || !*k->section || !k->key || !*k->key)
            schema_bug(k, "empty section or key name", NULL);
        if (strchr(k->key, '.') || strchr(k->key, '='))
            schema_bug(k, "key names cannot contain '.' or '='", NULL);
        if (k->type < SCN_INT || k->type > SCN_ENUM)
            schema_bug(k, "bad type", NULL);
        if (k->type == SCN_ENUM && (!k->choices || !*k->choices))
            schema_bug(k, "enum without choices", NULL);
        int64_t i64;
        uint64_t u64;
        double d;
        for (int b = 0; b < 2; b++) {
            const char *lim = b ? k->max : k->min;
            if (!lim)
                continue;
            if ((k->type == SCN_INT && parse_i64(lim, &i64)) ||
                (k->type == SCN_UINT && parse_magnitude(lim, &u64)) ||
                (k->type == SCN_DOUBLE && parse_double(lim, &d)) ||
                k->type == SCN_BOOL || k->type == SCN_STRING || k->type == SCN_ENUM)
                schema_bug(k, "bad min/max", lim);
        }
        if (!k->def)
            schema_bug(k, "no default", NULL);
        if (parse_value(k, k->def, &v, msg, sizeof msg))
            schema_bug(k, "bad default", msg);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(schema[j].section, k->section) && !strcmp(schema[j].key, k->key))
                schema_bug(k, "listed twice", NULL);
    }
}

static long find_key(const scenario_key *schema, size_t n, const char *sec, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(schema[i].section, sec) && !strcmp(schema[i].key, key))
            return (long)i;
    return -1;
}

static int section_known(const scenario_key *schema, size_t n, const char *sec)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(schema[i].section, sec))
            return 1;
    return 0;
}

/* Distinct sections in schema order. */
static void app_sections(char *buf, size_t len, const scenario_key *schema, size_t n)
{
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && strcmp(schema[j].section, schema[i].section))
            j++;
        if (j < i)
            continue;
        app(buf, len, "%s%s", first ? "" : ", ", schema[i].section);
        first = 0;
    }
}

static void app_keys(char *buf, size_t len, const scenario_key *schema, size_t n,
                     const char *sec)
{
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(schema[i].section, sec))
            continue;
        app(buf, len, "%s%s", first ? "" : ", ", schema[i].key);
        first = 0;
    }
}

void scenario_schema_sections(const scenario_key *schema, size_t n, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    app_sections(buf, len, schema, n);
}

/* The unknown-section / unknown-key / bad-value checks, shared by the file
 * and the overrides.  Returns the schema index, or -1 with msg filled. */
static long lookup(const scenario *sc, const char *sec, const char *key,
                   char *msg, size_t msglen)
{
    if (!section_known(sc->schema, sc->n, sec)) {
        app(msg, msglen, "unknown section [%s]; expected one of: ", sec);
        app_sections(msg, msglen, sc->schema, sc->n);
        return -1;
    }
    long i = find_key(sc->schema, sc->n, sec, key);
    if (i < 0) {
        /* a key put under the wrong section: say where it lives first */
        int other = 0;
        for (size_t k = 0; k < sc->n; k++)
            if (!strcmp(sc->schema[k].key, key)) {
                if (other++)
                    app(msg, msglen, ", [%s]", sc->schema[k].section);
                else
                    app(msg, msglen, "'%s' is a key of [%s]", key, sc->schema[k].section);
            }
        if (other)
            app(msg, msglen, ", not of [%s]; [%s] has: ", sec, sec);
        else
            app(msg, msglen, "unknown key '%s' in [%s]; expected one of: ", key, sec);
        app_keys(msg, msglen, sc->schema, sc->n, sec);
    }
    return i;
}

/* Store a parsed value; the old text is replaced (a later override wins). */
static int store(scenario *sc, long i, const char *text, int line, char *msg, size_t msglen)
{
    scn_val v = {0};
    if (parse_value(&sc->schema[i], text, &v, msg, msglen))
        return -1;
    v.text = strdup(text);
    if (!v.text) {
        app(msg, msglen, "out of memory");
        return -1;
    }
    v.line = line;
    free(sc->v[i].text);
    sc->v[i] = v;
    return 0;
}

/* ---- the file --------------------------------------------------------- */

typedef struct scn_parse {
    scenario *sc;
    FILE *f;
    const char *path;
    char *buf; /* the line being read (SCENARIO_MAX_LINE + 3 bytes) */
    size_t cap;
    size_t bytes;  /* read so far (SCENARIO_MAX_BYTES at most) */
    int line;      /* line most recently handed to libinih */
    int fail_line; /* line of our first error, 0 = none */
    char *err;
    size_t errlen;
} scn_parse;

static void parse_fail(scn_parse *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void parse_fail(scn_parse *c, const char *fmt, ...)
{
    if (c->fail_line)
        return;
    c->fail_line = c->line > 0 ? c->line : 1;
    if (c->err && c->errlen) {
        int k = snprintf(c->err, c->errlen, "%s:%d: ", c->path, c->line);
        if (k >= 0 && (size_t)k < c->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
}

/* libinih's reader callback: one whole line per call, so libinih's line count
 * (used for its syntax errors) and ours agree.  Each line is normalized:
 *  - leading whitespace is dropped, because libinih takes an indented line
 *    after a key as a continuation of that key's value (an indented
 *    `b = 2` would silently become part of `a`);
 *  - an inline comment (';' or '#' after whitespace) is cut, because libinih
 *    only knows ';';
 *  - a UTF-8 BOM on line 1 is dropped here so the header check below sees '['.
 * Returning NULL ends the parse: at EOF, or after our first error. */
/* One line into c->buf without its line end (LF or CR LF): its length, -1
 * at the end of the file, or -2 after parse_fail.  Bounded: a line longer
 * than SCENARIO_MAX_LINE or a file larger than SCENARIO_MAX_BYTES is
 * refused as soon as it is seen, so that an endless input (a FIFO that
 * never closes) costs no memory; a NUL byte or a CR inside a line (a file
 * with CR-only line ends would be one long line) is refused too, where
 * libinih would silently drop what follows. */
static ssize_t read_bounded_line(scn_parse *c)
{
    size_t len = 0;
    int ch, cr = 0;
    errno = 0;
    while ((ch = getc(c->f)) != EOF) {
        if (++c->bytes > SCENARIO_MAX_BYTES) {
            c->line++;
            parse_fail(c, "the file is larger than %d bytes (not a scenario?)", SCENARIO_MAX_BYTES);
            return -2;
        }
        if (ch == '\n')
            break;
        if (cr) {
            c->line++;
            parse_fail(c, "a carriage return inside the line (line ends must be LF or CR LF, not CR alone)");
            return -2;
        }
        if (ch == '\r') {
            cr = 1;
            continue;
        }
        if (ch == 0) {
            c->line++;
            parse_fail(c, "a NUL byte at column %zu (not a text file?)", len + 1);
            return -2;
        }
        if (len > SCENARIO_MAX_LINE + 3) {
            c->line++;
            parse_fail(c, "line too long (more than %d characters)", SCENARIO_MAX_LINE);
            return -2;
        }
        c->buf[len++] = (char)ch;
    }
    if (ch == EOF && ferror(c->f)) {
        if (c->err && c->errlen)
            snprintf(c->err, c->errlen, "%s: cannot read: %s", c->path, strerror(errno ? errno : EIO));
        c->fail_line = c->line + 1;
        return -2;
    }
    if (ch == EOF && len == 0 && !cr)
        return -1;
    c->buf[len] = '\0';
    return (ssize_t)len;
}

static char *scn_read_line(char *str, int num, void *stream)
{
    scn_parse *c = stream;
    if (c->fail_line)
        return NULL;
    ssize_t len = read_bounded_line(c);
    if (len < 0)
        return NULL;
    c->line++;
    char *p = c->buf;
    if (c->line == 1 && !strncmp(p, "\xEF\xBB\xBF", 3)) {
        p += 3;
        len -= 3;
    }
    if (len > SCENARIO_MAX_LINE || len + 2 > num) {
        parse_fail(c, "line too long (more than %d characters)",
                   num - 2 < SCENARIO_MAX_LINE ? num - 2 : SCENARIO_MAX_LINE);
        return NULL;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != ';' && *p != '#') {
        for (char *q = p + 1; *q; q++) {
            if ((*q == ';' || *q == '#') && (q[-1] == ' ' || q[-1] == '\t')) {
                *q = '\0';
                break;
            }
        }
    }
    if (*p == '[') {
        char *end = strchr(p + 1, ']');
        if (end) { /* without ']' libinih reports the syntax error */
            const char *rest = end + 1;
            while (*rest == ' ' || *rest == '\t')
                rest++;
            if (*rest) {
                /* libinih would drop it: `[pktgen] count = 7` sets nothing */
                parse_fail(c, "text after the section header %.*s: '%s' (a key goes on a line of its own)",
                           (int)(end + 1 - p), p, rest);
                return NULL;
            }
            *end = '\0';
            char msg[512] = "";
            if (!section_known(c->sc->schema, c->sc->n, p + 1)) {
                lookup(c->sc, p + 1, "", msg, sizeof msg);
                parse_fail(c, "%s", msg);
                return NULL;
            }
            *end = ']';
        }
    }
    snprintf(str, (size_t)num, "%s\n", p);
    return str;
}

static int scn_on_value(void *user, const char *section, const char *name, const char *value)
{
    scn_parse *c = user;
    char msg[512] = "";
    if (c->fail_line)
        return 0;
    if (!*section) {
        parse_fail(c, "key '%s' is outside any section", name);
        return 0;
    }
    long i = lookup(c->sc, section, name, msg, sizeof msg);
    if (i < 0) {
        parse_fail(c, "%s", msg);
        return 0;
    }
    if (c->sc->v[i].line) {
        parse_fail(c, "duplicate key '%s' in [%s] (first set at line %d)", name,
                   section, c->sc->v[i].line);
        return 0;
    }
    if (store(c->sc, i, value, c->line, msg, sizeof msg)) {
        parse_fail(c, "%s", msg);
        return 0;
    }
    return 1;
}

static int load_file(scenario *sc, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        f = NULL;
        errno = EISDIR;
    }
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    /* a regular file, or a FIFO (a pipe, <(...)): a device such as
     * /dev/zero or /dev/urandom is never a scenario */
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file (a %s): expected a scenario file", path,
                 S_ISCHR(st.st_mode) ? "character device" : S_ISBLK(st.st_mode) ? "block device" : "socket");
        fclose(f);
        return -1;
    }
    scn_parse c = {.sc = sc, .f = f, .path = path, .err = err, .errlen = errlen};
    c.cap = SCENARIO_MAX_LINE + 8;
    if (!(c.buf = malloc(c.cap))) {
        snprintf(err, errlen, "%s: out of memory", path);
        fclose(f);
        return -1;
    }
    int ret = ini_parse_stream(scn_read_line, &c, scn_on_value, &c);
    free(c.buf);
    fclose(f);
    if (ret > 0 && (!c.fail_line || ret < c.fail_line)) {
        snprintf(err, errlen, "%s:%d: syntax error", path, ret);
        return -1;
    }
    if (c.fail_line)
        return -1;
    if (ret != 0) { /* -2: libinih ran out of memory */
        snprintf(err, errlen, "%s: cannot parse (libinih error %d)", path, ret);
        return -1;
    }
    return 0;
}

/* ---- overrides -------------------------------------------------------- */

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t l = strlen(s);
    while (l > 0 && isspace((unsigned char)s[l - 1]))
        s[--l] = '\0';
    return s;
}

static int apply_override(scenario *sc, const char *ov, char *err, size_t errlen)
{
    char msg[512] = "";
    char *copy = strdup(ov);
    if (!copy) {
        snprintf(err, errlen, "command line: '%s': out of memory", ov);
        return -1;
    }
    char *eq = strchr(copy, '=');
    char *dot = NULL;
    if (eq) {
        *eq = '\0';
        dot = strrchr(copy, '.');
    }
    long i = -1;
    if (!eq || !dot) {
        snprintf(msg, sizeof msg, "expected section.key=value");
    } else {
        *dot = '\0';
        char *sec = trim(copy), *key = trim(dot + 1), *val = trim(eq + 1);
        i = lookup(sc, sec, key, msg, sizeof msg);
        if (i >= 0 && store(sc, i, val, LINE_OVERRIDE, msg, sizeof msg))
            i = -1;
    }
    free(copy);
    if (i < 0) {
        snprintf(err, errlen, "command line: '%s': %s", ov, msg);
        return -1;
    }
    return 0;
}

/* ---- public ----------------------------------------------------------- */

int scenario_load(scenario **out, const scenario_key *schema, size_t n,
                  const char *path, int n_overrides, char *const *overrides,
                  char *err, size_t errlen)
{
    char dummy[1];
    if (!err || errlen == 0) { /* callers may not care about the text */
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = '\0';
    *out = NULL;
    schema_check(schema, n);
    scenario *sc = calloc(1, sizeof *sc);
    if (!sc || !(sc->v = calloc(n ? n : 1, sizeof *sc->v)) || !(sc->read = calloc(n ? n : 1, 1)) ||
        (path && !(sc->path = strdup(path)))) {
        scenario_free(sc);
        snprintf(err, errlen, "scenario: out of memory");
        return -1;
    }
    sc->schema = schema;
    sc->n = n;
    for (size_t i = 0; i < n; i++) {
        if (store(sc, (long)i, schema[i].def, 0, err, errlen)) {
            scenario_free(sc);
            return -1;
        }
    }
    if (path && load_file(sc, path, err, errlen)) {
        scenario_free(sc);
        return -1;
    }
    for (int i = 0; i < n_overrides; i++) {
        if (apply_override(sc, overrides[i], err, errlen)) {
            scenario_free(sc);
            return -1;
        }
    }
    *out = sc;
    return 0;
}

void scenario_free(scenario *s)
{
    if (!s)
        return;
    if (s->v)
        for (size_t i = 0; i < s->n; i++)
            free(s->v[i].text);
    free(s->v);
    free(s->read);
    free(s->path);
    free(s);
}

/* Asking for a key the schema does not have, or with the wrong type, is a
 * bug in the caller: fail loudly at the first run rather than return 0. */
static const scn_val *get(const scenario *s, const char *sec, const char *key,
                          scenario_type want, int also_enum)
{
    long i = find_key(s->schema, s->n, sec, key);
    if (i < 0) {
        fprintf(stderr, "scenario: [%s] %s is not in the schema\n", sec, key);
        abort();
    }
    scenario_type t = s->schema[i].type;
    if (t != want && !(also_enum && t == SCN_ENUM)) {
        fprintf(stderr, "scenario: [%s] %s is %s, read as %s\n", sec, key,
                type_name(t), type_name(want));
        abort();
    }
    s->read[i] = 1;
    return &s->v[i];
}

int64_t scenario_int(const scenario *s, const char *section, const char *key)
{
    return get(s, section, key, SCN_INT, 0)->i;
}

uint64_t scenario_uint(const scenario *s, const char *section, const char *key)
{
    return get(s, section, key, SCN_UINT, 0)->u;
}

double scenario_double(const scenario *s, const char *section, const char *key)
{
    return get(s, section, key, SCN_DOUBLE, 0)->d;
}

int scenario_bool(const scenario *s, const char *section, const char *key)
{
    return get(s, section, key, SCN_BOOL, 0)->b;
}

const char *scenario_str(const scenario *s, const char *section, const char *key)
{
    return get(s, section, key, SCN_STRING, 1)->text;
}

const char *scenario_text(const scenario *s, const char *section, const char *key)
{
    long i = find_key(s->schema, s->n, section, key);
    if (i < 0) {
        fprintf(stderr, "scenario: [%s] %s is not in the schema\n", section, key);
        abort();
    }
    return s->v[i].text;
}

int scenario_holds(const scenario *s, const char *section, const char *key, const char *value)
{
    long i = find_key(s->schema, s->n, section, key);
    char msg[256];
    scn_val v = {0};
    if (i < 0 || parse_value(&s->schema[i], value, &v, msg, sizeof msg) != 0) {
        fprintf(stderr, "scenario: [%s] %s = %s: %s\n", section, key, value,
                i < 0 ? "not in the schema" : msg);
        abort();
    }
    const scn_val *have = &s->v[i];
    switch (s->schema[i].type) {
    case SCN_INT:
        return have->i == v.i;
    case SCN_UINT:
        return have->u == v.u;
    case SCN_DOUBLE:
        return have->d == v.d;
    case SCN_BOOL:
        return have->b == v.b;
    case SCN_STRING:
    case SCN_ENUM:
        break;
    }
    return strcmp(have->text, value) == 0;
}

int scenario_line(const scenario *s, const char *section, const char *key)
{
    long i = find_key(s->schema, s->n, section, key);
    if (i < 0) {
        fprintf(stderr, "scenario: [%s] %s is not in the schema\n", section, key);
        abort();
    }
    return s->v[i].line > 0 ? s->v[i].line : 0;
}

void scenario_reads_forget(const scenario *s)
{
    memset(s->read, 0, s->n ? s->n : 1);
}

const scenario_key *scenario_next_unread(const scenario *s, size_t *i)
{
    for (; *i < s->n; (*i)++)
        if (s->v[*i].line != 0 && !s->read[*i])
            return &s->schema[(*i)++];
    return NULL;
}

int scenario_is_set(const scenario *s, const char *section, const char *key)
{
    long i = find_key(s->schema, s->n, section, key);
    if (i < 0) {
        fprintf(stderr, "scenario: [%s] %s is not in the schema\n", section, key);
        abort();
    }
    return s->v[i].line != 0;
}

void scenario_where(const scenario *s, const char *section, const char *key, char *out, size_t n)
{
    long i = find_key(s->schema, s->n, section, key);
    if (i < 0) {
        fprintf(stderr, "scenario: [%s] %s is not in the schema\n", section, key);
        abort();
    }
    const scn_val *v = &s->v[i];
    if (v->line == LINE_OVERRIDE)
        snprintf(out, n, "command line: '%s.%s=%s'", section, key, v->text);
    else if (v->line > 0)
        snprintf(out, n, "%s:%d", s->path, v->line);
    else
        snprintf(out, n, "%s (default)", s->path ? s->path : "scenario");
}

const char *scenario_path(const scenario *s)
{
    return s->path;
}

/* Text from s printed as lines of at most width columns after an indent
 * of ind spaces, broken at spaces or after '|' (a list of choices); a word
 * longer than the line stays whole. */
static void print_wrapped(FILE *f, const char *s, int ind, int width)
{
    int room = width - ind > 20 ? width - ind : 20;
    while (*s) {
        int n = (int)strlen(s), cut = n;
        if (n > room) {
            cut = 0;
            for (int i = 1; i <= room; i++)
                if (s[i] == ' ' || s[i - 1] == '|')
                    cut = i;
            if (!cut)   /* one long word: up to its end */
                for (cut = room; s[cut] && s[cut] != ' '; cut++)
                    ;
        }
        fprintf(f, "%*s%.*s\n", ind, "", cut, s);
        s += cut;
        while (*s == ' ')
            s++;
    }
}

/* One key in the wrapped form: "  key  type, default D" and its range or
 * choices and meaning under it. */
static void print_key_wrapped(FILE *f, const scenario_key *k, int width)
{
    char range[128] = "", text[1024];
    if (k->type == SCN_ENUM)
        snprintf(range, sizeof range, "one of %s", k->choices);
    else if (k->min || k->max) {
        char r[96];
        range_text(k, r, sizeof r);
        snprintf(range, sizeof range, "range %s", r);
    }
    fprintf(f, "  %s  %s, default %s\n", k->key, type_name(k->type), *k->def ? k->def : "\"\"");
    snprintf(text, sizeof text, "%s%s%s", range, *range && k->help ? ". " : "", k->help ? k->help : "");
    print_wrapped(f, text, 6, width);
}

int scenario_print_schema(FILE *f, const scenario_key *schema, size_t n, const char *section, int width)
{
    size_t shown = 0;
    for (size_t i = 0; i < n; i++)
        shown += !section || !strcmp(schema[i].section, section);
    if (!shown)
        return -1;
    /* Column widths over the whole schema so every section lines up. */
    int wk = 3, wd = 7, wr = 5;
    char range[128];
    for (size_t i = 0; i < n; i++) {
        const scenario_key *k = &schema[i];
        int l = (int)strlen(k->key);
        wk = l > wk ? l : wk;
        l = (int)strlen(k->def) + (*k->def ? 0 : 2);
        wd = l > wd ? l : wd;
        range[0] = '\0';
        if (k->type == SCN_ENUM)
            snprintf(range, sizeof range, "%s", k->choices);
        else if (k->min || k->max)
            range_text(k, range, sizeof range);
        l = (int)strlen(range);
        wr = l > wr ? l : wr;
    }
    int printed = 0;    /* sections so far: a blank line between two in the wrapped form */
    if (width <= 0)
        fprintf(f, "  %-*s  %-6s  %-*s  %-*s  %s\n", wk, "key", "type", wd, "default", wr, "range", "meaning");
    for (size_t i = 0; i < n; i++) {
        size_t j = 0; /* each section once, at its first appearance */
        while (j < i && strcmp(schema[j].section, schema[i].section))
            j++;
        if (j < i || (section && strcmp(schema[i].section, section)))
            continue;
        fprintf(f, "%s[%s]\n", width > 0 && printed++ ? "\n" : "", schema[i].section);
        for (size_t m = i; m < n; m++) {
            const scenario_key *k = &schema[m];
            if (strcmp(k->section, schema[i].section))
                continue;
            if (width > 0) {
                print_key_wrapped(f, k, width);
                continue;
            }
            range[0] = '\0';
            if (k->type == SCN_ENUM)
                snprintf(range, sizeof range, "%s", k->choices);
            else if (k->min || k->max)
                range_text(k, range, sizeof range);
            fprintf(f, "  %-*s  %-6s  %-*s  %-*s  %s\n", wk, k->key,
                    type_name(k->type), wd, *k->def ? k->def : "\"\"", wr, range,
                    k->help ? k->help : "");
        }
    }
    return 0;
}
