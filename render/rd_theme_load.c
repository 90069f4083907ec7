/*
 * rd_theme_load.c: theme palettes read from assets/themes/NAME.json.
 *
 * A palette file is one JSON object; every member is optional and replaces
 * the built-in value (assets/README.md lists them). A file is taken
 * whole or not at all: any mistake leaves its theme built in and is named as
 * FILE:LINE:COLUMN, so a typo in a colour never half-recolours a classroom.
 *
 * cJSON parses; it keeps no positions, so the few lines below walk the text
 * of the (by then known valid) document to the member or element an error
 * is about.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rd_internal.h"

#define MAX_FILE_BYTES (256 * 1024)

/* ------------------------------------------------------------ positions */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* Past the string starting at p (its opening quote). */
static const char *skip_string(const char *p)
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return *p ? p + 1 : p;
}

/* Past the value starting at p. */
static const char *skip_value(const char *p)
{
    p = skip_ws(p);
    if (*p == '"')
        return skip_string(p);
    if (*p != '{' && *p != '[') {
        while (*p && !strchr(",]} \t\r\n", *p))
            p++;
        return p;
    }
    int depth = 0;
    for (; *p; p++) {
        if (*p == '"')
            p = skip_string(p) - 1;
        else if (*p == '{' || *p == '[')
            depth++;
        else if ((*p == '}' || *p == ']') && --depth == 0)
            return p + 1;
    }
    return p;
}

/* In the object at p, where the (skip+1)th member named `key` starts (its
 * name), or NULL. */
static const char *nth_member_at(const char *p, const char *key, int skip)
{
    p = skip_ws(p);
    if (*p != '{')
        return NULL;
    for (p = skip_ws(p + 1); *p == '"';) {
        const char *name = p + 1, *end = skip_string(p);
        size_t n = strlen(key);
        if ((size_t)(end - 1 - name) == n && !strncmp(name, key, n) && skip-- == 0)
            return p;
        p = skip_ws(skip_value(skip_ws(end) + 1)); /* past ':' and the value */
        if (*p != ',')
            return NULL;
        p = skip_ws(p + 1);
    }
    return NULL;
}

static const char *member_at(const char *p, const char *key) { return nth_member_at(p, key, 0); }

/* Where member `key`'s value starts, or NULL. */
static const char *value_of(const char *p, const char *key)
{
    const char *m = p ? member_at(p, key) : NULL;
    return m ? skip_ws(skip_ws(skip_string(m)) + 1) : NULL;
}

/* Where element i of the array at p starts, or NULL. */
static const char *element_at(const char *p, int i)
{
    p = skip_ws(p);
    if (*p != '[')
        return NULL;
    for (p = skip_ws(p + 1); i > 0 && *p && *p != ']'; i--) {
        p = skip_ws(skip_value(p));
        if (*p != ',')
            return NULL;
        p = skip_ws(p + 1);
    }
    return *p && *p != ']' ? p : NULL;
}

static void where(const char *text, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; at && p < at && *p; p++) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            ++*col; /* columns count characters, not bytes */
        }
    }
}

/* --------------------------------------------------------------- checks */

typedef struct {
    const char *path, *text;
    char *err;
    size_t errlen;
    bool bad;
} loader;

/* Records the first error, at `at` in the text (NULL: the start). */
static void fail_at(loader *L, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail_at(loader *L, const char *at, const char *fmt, ...)
{
    if (L->bad)
        return;
    L->bad = true;
    int line, col;
    where(L->text, at, &line, &col);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(L->err, L->errlen, "%s:%d:%d: %s", L->path, line, col, msg);
}

static int hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* "#rrggbb" or "#rrggbbaa". */
static bool parse_colour(const cJSON *v, SDL_Color *out)
{
    const char *s = cJSON_IsString(v) ? v->valuestring : NULL;
    size_t n = s ? strlen(s) : 0;
    if (!s || s[0] != '#' || (n != 7 && n != 9))
        return false;
    Uint8 c[4] = {0, 0, 0, 255};
    for (size_t i = 0; i < (n - 1) / 2; i++) {
        int hi = hex(s[1 + 2 * i]), lo = hex(s[2 + 2 * i]);
        if (hi < 0 || lo < 0)
            return false;
        c[i] = (Uint8)(hi * 16 + lo);
    }
    *out = (SDL_Color){c[0], c[1], c[2], c[3]};
    return true;
}

static void colour(loader *L, const cJSON *v, const char *at, const char *what, SDL_Color *out)
{
    if (!parse_colour(v, out))
        fail_at(L, at, "%s: a colour is written \"#rrggbb\" or \"#rrggbbaa\"", what);
}

/* A list of colours, n from min to max. */
static int colours(loader *L, const cJSON *v, const char *at, const char *what, SDL_Color *out,
                   int min, int max)
{
    int n = cJSON_GetArraySize(v);
    if (!cJSON_IsArray(v) || n < min || n > max) {
        if (min == max)
            fail_at(L, at, "\"%s\": a list of %d colours", what, min);
        else
            fail_at(L, at, "\"%s\": a list of %d to %d colours", what, min, max);
        return 0;
    }
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        char name[64];
        snprintf(name, sizeof name, "\"%s\"[%d]", what, i);
        colour(L, e, at ? element_at(at, i) : NULL, name, &out[i]);
    }
    return n;
}

static void number(loader *L, const cJSON *v, const char *at, const char *what, double min,
                   double max, float *out)
{
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= min && v->valuedouble <= max))
        fail_at(L, at, "\"%s\": a number from %g to %g", what, min, max);
    else
        *out = (float)v->valuedouble;
}

/* The named colours of "colors", in rd_theme's order. */
/* clang-format off */
#define UI_COLOURS(X)                                                                              \
    X(bg) X(panel) X(card) X(edge) X(text) X(dim) X(accent) X(link) X(empty) X(flash) X(warn)     \
    X(band_a) X(band_b)
/* clang-format on */

static void ui_colours(loader *L, const cJSON *obj, const char *at, rd_theme *th)
{
    if (!cJSON_IsObject(obj)) {
        fail_at(L, at, "\"colors\": an object of named colours");
        return;
    }
    for (const cJSON *m = obj->child; m && !L->bad; m = m->next) {
        const char *mat = at ? value_of(at, m->string) : NULL;
        char what[64];
        snprintf(what, sizeof what, "\"%s\"", m->string);
#define MATCH(name)                                                                                \
    if (!strcmp(m->string, #name)) {                                                               \
        colour(L, m, mat, what, &th->name);                                                        \
        continue;                                                                                  \
    }
        UI_COLOURS(MATCH)
#undef MATCH
        fail_at(L, at ? member_at(at, m->string) : NULL,
                "\"colors\" has no colour \"%s\"; its colours are bg panel card edge text dim "
                "accent link empty flash warn band_a band_b",
                m->string);
    }
}

/* A second member of the same name in obj, or NULL. */
static const cJSON *duplicate(const cJSON *obj)
{
    for (const cJSON *a = obj->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (!strcmp(a->string, b->string))
                return b;
    return NULL;
}

static void load_theme(loader *L, const cJSON *root, rd_theme *th)
{
    if (!cJSON_IsObject(root)) {
        fail_at(L, skip_ws(L->text), "a palette file is one JSON object");
        return;
    }
    const cJSON *colors = cJSON_GetObjectItemCaseSensitive(root, "colors");
    const char *obj = L->text;
    const cJSON *dup = duplicate(root);
    if (!dup && cJSON_IsObject(colors) && (dup = duplicate(colors)))
        obj = value_of(L->text, "colors");
    if (dup) {
        fail_at(L, obj ? nth_member_at(obj, dup->string, 1) : NULL,
                "\"%s\" is given twice; once is enough", dup->string);
        return;
    }
    for (const cJSON *m = root->child; m && !L->bad; m = m->next) {
        const char *at = value_of(L->text, m->string);
        if (!strcmp(m->string, "about")) {
            if (!cJSON_IsString(m))
                fail_at(L, at, "\"about\": a string saying what the theme is for");
        } else if (!strcmp(m->string, "colors")) {
            ui_colours(L, m, at, th);
        } else if (!strcmp(m->string, "text_scale")) {
            number(L, m, at, "text_scale", 0.5, 3.0, &th->text_scale);
        } else if (!strcmp(m->string, "line")) {
            number(L, m, at, "line", 0.5, 8.0, &th->line);
        } else if (!strcmp(m->string, "ranks")) {
            th->nranks = colours(L, m, at, "ranks", th->ranks, 1, RD_RANK_COLORS);
        } else if (!strcmp(m->string, "series")) {
            colours(L, m, at, "series", th->series, RD_THEME_SERIES, RD_THEME_SERIES);
        } else {
            fail_at(L, member_at(L->text, m->string),
                    "unknown member \"%s\"; a palette has about, colors, text_scale, line, ranks "
                    "and series",
                    m->string);
        }
    }
}

/* ---------------------------------------------------------------- files */

int rd_theme_load_file(rd_theme_id id, const char *path, char *err, size_t errlen)
{
    if ((unsigned)id >= RD_THEME_COUNT) {
        snprintf(err, errlen, "%s: no such theme", path);
        return CV_EINVAL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot be read", path);
        return CV_EINVAL;
    }
    char *text = cv_xmalloc(MAX_FILE_BYTES + 1);
    size_t n = fread(text, 1, MAX_FILE_BYTES + 1, f);
    bool read_error = ferror(f);
    fclose(f);
    text[n > MAX_FILE_BYTES ? MAX_FILE_BYTES : n] = '\0';
    loader L = {path, text, err, errlen, false};
    rd_theme th = *rd__theme_builtin(id);
    cJSON *root = NULL;
    if (read_error)
        fail_at(&L, NULL, "cannot be read");
    else if (n > MAX_FILE_BYTES)
        fail_at(&L, NULL, "larger than %d KiB: not a palette file", MAX_FILE_BYTES / 1024);
    else if (strlen(text) != n)
        fail_at(&L, text + strlen(text), "a NUL byte in a text file");
    else {
        const char *end = NULL;
        root = cJSON_ParseWithOpts(text, &end, true);
        if (!root)
            fail_at(&L, end && *end ? end : text + n, "not valid JSON here");
        else
            load_theme(&L, root, &th);
    }
    cJSON_Delete(root);
    free(text);
    if (L.bad)
        return CV_EINVAL;
    rd__theme_set(id, &th);
    return CV_OK;
}

int rd_themes_load(const char *assets, char *err, size_t errlen)
{
    int rc = CV_OK;
    for (int id = 0; id < RD_THEME_COUNT; id++) {
        const rd_theme *builtin = rd__theme_builtin((rd_theme_id)id);
        rd__theme_set((rd_theme_id)id, builtin); /* a bad or missing file: this */
        if (!assets || !*assets)
            continue;
        char path[4096], why[1024];
        snprintf(path, sizeof path, "%s/themes/%s.json", assets, builtin->name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        fclose(f);
        if (rd_theme_load_file((rd_theme_id)id, path, why, sizeof why) != CV_OK && rc == CV_OK) {
            snprintf(err, errlen, "%s", why);
            rc = CV_EINVAL;
        }
    }
    return rc;
}
