/*
 * rd_theme_load.c: the themes as the program has them: the palettes
 * compiled in (rd_theme.c) until assets/themes/NAME.json are read, each file
 * a complete theme of its own.
 *
 * A theme file names every colour once, and its text scale, line, rank
 * colours and chart lines (assets/README.md lists them): dark.json,
 * light.json and projector.json replace the compiled palettes, and any
 * other NAME.json is a theme of its own, after them in the list that T
 * cycles through and --theme names. A file is taken whole or not at all:
 * any mistake, a colour missing or written wrong, leaves a compiled theme
 * as compiled (and a theme of the files alone out) and is named as
 * FILE:LINE:COLUMN, so a typo never half-recolours a classroom.
 *
 * The file is read by collviz's JSON reader (collectives/json/jr.h), which refuses
 * what is not JSON, a NUL byte and a key given twice, and places every
 * value; this file checks what a palette holds.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jr.h"
#include "rd_internal.h"

#define MAX_FILE_BYTES (256 * 1024)
#define THEMES_MAX 16   /* the compiled three and the files' own */
#define THEME_NAME_MAX 15 /* a theme's name is kept in progress.json's 16 bytes */

/* ---------------------------------------------------------- the themes */

static rd_theme live[THEMES_MAX];
static char names[THEMES_MAX][THEME_NAME_MAX + 1];
static int count; /* 0: not set up yet, the compiled palettes */

static void set_up(void)
{
    if (count)
        return;
    for (int i = 0; i < RD_THEME_COUNT; i++)
        live[i] = *rd__theme_builtin((rd_theme_id)i);
    count = RD_THEME_COUNT;
}

const rd_theme *rd_theme_get(rd_theme_id id)
{
    set_up();
    if ((unsigned)id >= (unsigned)count)
        id = RD_THEME_DARK;
    return &live[id];
}

SDL_Color rd_rank_color(int rank)
{
    return rd_theme_rank_color(rd_theme_get(RD_THEME_DARK), rank);
}

int rd_theme_parse(const char *s)
{
    set_up();
    for (int i = 0; i < count; i++)
        if (strcasecmp(s, live[i].name) == 0)
            return i;
    return -1;
}

int rd_theme_count(void)
{
    set_up();
    return count;
}

void rd__theme_set(rd_theme_id id, const rd_theme *th)
{
    set_up();
    if ((unsigned)id < (unsigned)count)
        live[id] = *th;
}

/* --------------------------------------------------------------- checks */

/* The named colours of "colors": the one list of them the loader has. */
static const struct {
    const char *name;
    size_t off;
} colour_names[] = {
    {"bg", offsetof(rd_theme, bg)},         {"panel", offsetof(rd_theme, panel)},
    {"card", offsetof(rd_theme, card)},     {"edge", offsetof(rd_theme, edge)},
    {"text", offsetof(rd_theme, text)},     {"dim", offsetof(rd_theme, dim)},
    {"accent", offsetof(rd_theme, accent)}, {"link", offsetof(rd_theme, link)},
    {"empty", offsetof(rd_theme, empty)},   {"flash", offsetof(rd_theme, flash)},
    {"warn", offsetof(rd_theme, warn)},     {"band_a", offsetof(rd_theme, band_a)},
    {"band_b", offsetof(rd_theme, band_b)},
};
#define NCOLOURS (int)(sizeof colour_names / sizeof *colour_names)

/* The members of a palette besides "colors", in the file's usual order. */
enum { M_ABOUT, M_COLORS, M_TEXT_SCALE, M_LINE, M_RANKS, M_SERIES, M_COUNT };
static const char *const members[M_COUNT] = {"about", "colors", "text_scale", "line", "ranks",
                                             "series"};

typedef struct {
    const char *path;
    const jr_doc *doc;
    char *err;
    size_t errlen;
    bool bad;
    bool complete; /* every colour and member must be given (a theme file) */
} loader;

/* Records the first error, at byte off of the text. */
static void fail_at(loader *L, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail_at(loader *L, size_t off, const char *fmt, ...)
{
    if (L->bad)
        return;
    L->bad = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    jr_say(L->doc, off, L->err, L->errlen, "%s", msg);
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

static void colour(loader *L, jr_val v, const char *what, SDL_Color *out)
{
    if (!parse_colour(v.j, out))
        fail_at(L, jr_off(L->doc, v), "%s: a colour is written \"#rrggbb\" or \"#rrggbbaa\"",
                what);
}

/* A list of colours, n from min to max. */
static int colours(loader *L, jr_val v, const char *what, SDL_Color *out, int min, int max)
{
    int n = jr_count(v);
    if (!cJSON_IsArray(v.j) || n < min || n > max) {
        if (min == max)
            fail_at(L, jr_off(L->doc, v), "\"%s\": a list of %d colours", what, min);
        else
            fail_at(L, jr_off(L->doc, v), "\"%s\": a list of %d to %d colours", what, min, max);
        return 0;
    }
    int i = 0;
    for (jr_val e = jr_child(L->doc, v); e.j; e = jr_next(L->doc, e), i++) {
        char name[64];
        snprintf(name, sizeof name, "\"%s\"[%d]", what, i);
        colour(L, e, name, &out[i]);
    }
    return n;
}

static void number(loader *L, jr_val v, const char *what, double min, double max, float *out)
{
    if (!cJSON_IsNumber(v.j) || !(v.j->valuedouble >= min && v.j->valuedouble <= max))
        fail_at(L, jr_off(L->doc, v), "\"%s\": a number from %g to %g", what, min, max);
    else
        *out = (float)v.j->valuedouble;
}

/* "bg panel card ...": the colours, for messages. */
static const char *colour_list(char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < NCOLOURS; i++) {
        if (i)
            strncat(out, " ", n - strlen(out) - 1);
        strncat(out, colour_names[i].name, n - strlen(out) - 1);
    }
    return out;
}

static void ui_colours(loader *L, jr_val obj, rd_theme *th)
{
    char list[128];
    if (!cJSON_IsObject(obj.j)) {
        fail_at(L, jr_off(L->doc, obj), "\"colors\": an object of named colours");
        return;
    }
    for (jr_val m = jr_child(L->doc, obj); m.j && !L->bad; m = jr_next(L->doc, m)) {
        int k = 0;
        while (k < NCOLOURS && strcmp(m.j->string, colour_names[k].name))
            k++;
        if (k == NCOLOURS) {
            fail_at(L, jr_key_off(L->doc, m), "\"colors\" has no colour \"%s\"; its colours are %s",
                    m.j->string, colour_list(list, sizeof list));
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "\"%s\"", m.j->string);
        colour(L, m, what, (SDL_Color *)((char *)th + colour_names[k].off));
    }
    for (int k = 0; L->complete && k < NCOLOURS && !L->bad; k++)
        if (!jr_member(L->doc, obj, colour_names[k].name).j)
            fail_at(L, jr_off(L->doc, obj),
                    "\"colors\" lacks \"%s\"; a theme file names every colour: %s",
                    colour_names[k].name, colour_list(list, sizeof list));
}

static void load_theme(loader *L, rd_theme *th)
{
    jr_val root = jr_root(L->doc);
    if (!cJSON_IsObject(root.j)) {
        fail_at(L, jr_off(L->doc, root), "a palette file is one JSON object");
        return;
    }
    for (jr_val m = jr_child(L->doc, root); m.j && !L->bad; m = jr_next(L->doc, m)) {
        int k = 0;
        while (k < M_COUNT && strcmp(m.j->string, members[k]))
            k++;
        switch (k) {
        case M_ABOUT:
            if (!cJSON_IsString(m.j))
                fail_at(L, jr_off(L->doc, m), "\"about\": a string saying what the theme is for");
            break;
        case M_COLORS:
            ui_colours(L, m, th);
            break;
        case M_TEXT_SCALE:
            number(L, m, "text_scale", 0.5, 3.0, &th->text_scale);
            break;
        case M_LINE:
            number(L, m, "line", 0.5, 8.0, &th->line);
            break;
        case M_RANKS:
            th->nranks = colours(L, m, "ranks", th->ranks, 1, RD_RANK_COLORS);
            break;
        case M_SERIES:
            colours(L, m, "series", th->series, RD_THEME_SERIES, RD_THEME_SERIES);
            break;
        default:
            fail_at(L, jr_key_off(L->doc, m),
                    "unknown member \"%s\"; a palette has about, colors, text_scale, line, ranks "
                    "and series",
                    m.j->string);
        }
    }
    /* A theme file stands alone: what it leaves out has no value to keep. */
    for (int k = M_COLORS; L->complete && k < M_COUNT && !L->bad; k++)
        if (!jr_member(L->doc, root, members[k]).j)
            fail_at(L, jr_off(L->doc, root),
                    "\"%s\" is missing; a theme file gives colors, text_scale, line, ranks and "
                    "series (about is optional)",
                    members[k]);
}

/* Reads path over *th: every member when complete, else those it gives.
 * CV_OK, or CV_EINVAL with err and *th as it was (*missing: because
 * there is no such file). */
static int read_palette(const char *path, bool complete, rd_theme *th, char *err, size_t errlen,
                        bool *missing)
{
    jr_opts o = {.max_bytes = MAX_FILE_BYTES, .max_depth = 8};
    jr_doc doc;
    jr_error e;
    *missing = false;
    if (jr_read_file(path, &o, &doc, &e) != JR_OK) {
        *missing = e.status == JR_EOPEN && e.sys_errno == ENOENT;
        if (e.status == JR_EDUP) {
            char msg[300];
            snprintf(msg, sizeof msg, "\"%s\" is given twice; once is enough", e.key);
            snprintf(e.msg, sizeof e.msg, "%s", msg);
        }
        jr_error_text(&e, path, err, errlen);
        return CV_EINVAL;
    }
    rd_theme t = *th;
    loader L = {path, &doc, err, errlen, false, complete};
    load_theme(&L, &t);
    jr_destroy(&doc);
    if (L.bad)
        return CV_EINVAL;
    *th = t;
    return CV_OK;
}

/* ---------------------------------------------------------------- files */

int rd_theme_load_file(rd_theme_id id, const char *path, char *err, size_t errlen)
{
    set_up();
    if ((unsigned)id >= (unsigned)count) {
        char safe[1024];
        jr_escape(path, safe, sizeof safe);
        snprintf(err, errlen, "%s: no such theme", safe);
        return CV_EINVAL;
    }
    rd_theme th = live[id];
    bool missing;
    int rc = read_palette(path, false, &th, err, errlen, &missing);
    if (rc == CV_OK)
        live[id] = th;
    return rc;
}

/* NAME of NAME.json: 1 to THEME_NAME_MAX of a-z, 0-9 and '-'. */
static bool theme_name(const char *file, char *name)
{
    size_t n = strlen(file);
    if (n < 6 || strcmp(file + n - 5, ".json") != 0 || n - 5 > THEME_NAME_MAX)
        return false;
    for (size_t i = 0; i < n - 5; i++) {
        char c = file[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
        name[i] = c;
    }
    name[n - 5] = '\0';
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir that are themes of their own (not named after a
 * compiled one), sorted, so T goes through them in the same order
 * everywhere; a file whose name cannot be a theme's is said once. */
static int own_theme_files(const char *dir, char ***out, char *err, size_t errlen, int *rc)
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0, cap = 0;
    char **files = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *f = e->d_name;
        size_t len = strlen(f);
        if (f[0] == '.' || len < 5 || strcmp(f + len - 5, ".json") != 0)
            continue; /* not a theme file: hidden, a backup, a note */
        char name[THEME_NAME_MAX + 1];
        if (!theme_name(f, name)) {
            if (*rc == CV_OK) {
                char raw[4600];
                snprintf(raw, sizeof raw, "%s/%s: a theme's file is named NAME.json, NAME 1 to "
                                          "%d of a-z, 0-9 and '-'", dir, f, THEME_NAME_MAX);
                jr_escape(raw, err, errlen);
                *rc = CV_EINVAL;
            }
            continue;
        }
        if (rd_theme_parse(name) >= 0)
            continue; /* a compiled theme's own file (only they are listed yet) */
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            files = cv_xrealloc(files, (size_t)cap * sizeof *files);
        }
        files[n++] = cv_xstrdup(f);
    }
    closedir(d);
    if (n > 1)
        qsort(files, (size_t)n, sizeof *files, by_name);
    *out = files;
    return n;
}

int rd_themes_load(const char *assets, char *err, size_t errlen)
{
    set_up();
    count = RD_THEME_COUNT; /* the themes of files read before go */
    int rc = CV_OK;
    for (int id = 0; id < RD_THEME_COUNT; id++) {
        live[id] = *rd__theme_builtin((rd_theme_id)id); /* a bad or missing file: this */
        if (!assets || !*assets)
            continue;
        char path[4096], why[1024];
        snprintf(path, sizeof path, "%s/themes/%s.json", assets, live[id].name);
        rd_theme th = {.name = live[id].name};
        bool missing;
        if (read_palette(path, true, &th, why, sizeof why, &missing) == CV_OK) {
            live[id] = th;
        } else if (rc == CV_OK && !missing) { /* a missing file is no error */
            snprintf(err, errlen, "%s", why);
            rc = CV_EINVAL;
        }
    }
    if (!assets || !*assets)
        return rc;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/themes", assets);
    char **files;
    int n = own_theme_files(dir, &files, err, errlen, &rc);
    for (int i = 0; i < n; i++) {
        char path[4400], why[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (count == THEMES_MAX) {
            if (rc == CV_OK) {
                char raw[4600];
                snprintf(raw, sizeof raw, "%s: more than %d themes; this one and those after it "
                                          "are left out", path, THEMES_MAX);
                jr_escape(raw, err, errlen);
                rc = CV_EINVAL;
            }
            break;
        }
        theme_name(files[i], names[count]);
        rd_theme th = {.name = names[count]};
        bool missing;
        if (read_palette(path, true, &th, why, sizeof why, &missing) == CV_OK) {
            live[count++] = th;
        } else if (rc == CV_OK) {
            snprintf(err, errlen, "%s", why);
            rc = CV_EINVAL;
        }
    }
    for (int i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}
