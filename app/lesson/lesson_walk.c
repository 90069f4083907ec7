/*
 * lesson_walk.c: the readers the lesson loader is made of. Each checks one
 * member of a JSON object (present? right type? in range?) and, when it is
 * wrong, reports at the value's own line and column what was expected and
 * what was found. See lesson_walk.h for the return convention.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson_walk.h"

void lesson__err(lesson__ctx *c, size_t off, const char *fmt, ...)
{
    c->errors++;
    if (c->errors > LESSON__MAX_DIAGS_PER_FILE)
        return;
    int line, col;
    lesson__position(c, off, &line, &col);
    if (c->errors == LESSON__MAX_DIAGS_PER_FILE) {
        lesson_diags_add(c->diags, c->name, line, col,
                         "too many problems (%d); fix these and check again",
                         LESSON__MAX_DIAGS_PER_FILE);
        return;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof msg) /* cut: end on a whole character */
        msg[lesson_utf8_prefix(msg, sizeof msg - 1)] = '\0';
    lesson_diags_add(c->diags, c->name, line, col, "%s", msg);
}

size_t lesson__off(const lesson__ctx *c, lesson__val v)
{
    return jr_off(c->doc, v);
}

size_t lesson__key_off(const lesson__ctx *c, lesson__val v)
{
    return jr_key_off(c->doc, v);
}

void lesson__position(const lesson__ctx *c, size_t off, int *line, int *col)
{
    jr_position(c->doc, off, line, col);
}

const char *lesson__clip(char *out, size_t n, const char *s)
{
    static const char ellipsis[] = "\xE2\x80\xA6"; /* U+2026 */
    if (lesson_utf8_copy(out, n, s))
        return out;
    out[lesson_utf8_prefix(out, n - sizeof ellipsis)] = '\0';
    strcat(out, ellipsis);
    return out;
}

void lesson__path(char *out, size_t n, const char *where, const char *key)
{
    if (where && *where)
        snprintf(out, n, "%s.%s", where, key);
    else
        snprintf(out, n, "%s", key);
}

const char *lesson__found(const lesson__ctx *c, lesson__val v, char *out, size_t n)
{
    return jr_found(c->doc, v, out, n);
}

lesson__val lesson__member(const lesson__ctx *c, lesson__val obj, const char *key)
{
    return jr_member(c->doc, obj, key);
}

int lesson__count(lesson__val arr)
{
    return cJSON_IsArray(arr.j) ? jr_count(arr) : 0;
}

lesson__val lesson__item(const lesson__ctx *c, lesson__val arr, int i)
{
    return jr_item(c->doc, arr, i);
}

bool lesson__keys(lesson__ctx *c, lesson__val obj, const char *where,
                  const char *const *allowed)
{
    bool ok = true;
    for (lesson__val v = jr_child(c->doc, obj); v.j; v = jr_next(c->doc, v)) {
        bool known = false;
        for (int i = 0; allowed[i]; i++)
            known = known || strcmp(allowed[i], v.j->string) == 0;
        if (!known) {
            char list[512] = "";
            for (int i = 0; allowed[i]; i++) {
                if (i)
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, allowed[i], sizeof list - strlen(list) - 1);
            }
            char key[LESSON__CLIP];
            lesson__err(c, lesson__key_off(c, v), "unknown key \"%s\" in %s; expected one of: %s",
                        lesson__clip(key, sizeof key, v.j->string), *where ? where : "the lesson",
                        list);
            ok = false;
        }
    }
    return ok;
}

void lesson__type_err(lesson__ctx *c, lesson__val v, const char *where, const char *what)
{
    char found[64];
    lesson__found(c, v, found, sizeof found);
    lesson__err(c, lesson__off(c, v), "%s must be %s, not %s", where, what, found);
}

bool lesson__want_object(lesson__ctx *c, lesson__val v, const char *where)
{
    if (cJSON_IsObject(v.j))
        return true;
    lesson__type_err(c, v, where, "an object");
    return false;
}

bool lesson__want_array(lesson__ctx *c, lesson__val v, const char *where, int min, int max)
{
    if (!cJSON_IsArray(v.j)) {
        lesson__type_err(c, v, where, "an array");
        return false;
    }
    int n = lesson__count(v);
    if (n < min || n > max) {
        if (min == max)
            lesson__err(c, lesson__off(c, v), "%s must hold %d items, not %d", where, min, n);
        else
            lesson__err(c, lesson__off(c, v), "%s must hold %d to %d items, not %d", where, min,
                        max, n);
        return false;
    }
    return true;
}

static int want_member(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                       bool required, lesson__val *v)
{
    *v = lesson__member(c, obj, key);
    if (v->j)
        return 1;
    if (required)
        lesson__err(c, lesson__off(c, obj), "missing required key \"%s\" in %s", key,
                    *where ? where : "the lesson");
    return required ? -1 : 0;
}

int lesson__want_int(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                     bool required, long long min, long long max, long long *out)
{
    lesson__val v;
    int r = want_member(c, obj, key, where, required, &v);
    if (r <= 0)
        return r;
    char path[256], what[128];
    lesson__path(path, sizeof path, where, key);
    double d = cJSON_IsNumber(v.j) ? v.j->valuedouble : NAN;
    if (!isfinite(d) || floor(d) != d || d < (double)min || d > (double)max) {
        if (min == max)
            snprintf(what, sizeof what, "%lld", min); /* one value allowed: say it */
        else if (max >= (long long)1 << 52)
            snprintf(what, sizeof what, "an integer of at least %lld", min);
        else
            snprintf(what, sizeof what, "an integer from %lld to %lld", min, max);
        lesson__type_err(c, v, path, what);
        return -1;
    }
    *out = (long long)d;
    return 1;
}

int lesson__want_number(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                        bool required, double *out)
{
    lesson__val v;
    int r = want_member(c, obj, key, where, required, &v);
    if (r <= 0)
        return r;
    if (!cJSON_IsNumber(v.j) || !isfinite(v.j->valuedouble)) {
        char path[256];
        lesson__path(path, sizeof path, where, key);
        lesson__type_err(c, v, path, "a number");
        return -1;
    }
    *out = v.j->valuedouble;
    return 1;
}

int lesson__want_string(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                        bool required, const char **out)
{
    lesson__val v;
    int r = want_member(c, obj, key, where, required, &v);
    if (r <= 0)
        return r;
    char path[256];
    lesson__path(path, sizeof path, where, key);
    if (!cJSON_IsString(v.j)) {
        lesson__type_err(c, v, path, "a string");
        return -1;
    }
    const char *s = v.j->valuestring;
    while (*s && isspace((unsigned char)*s))
        s++;
    if (!*s) {
        lesson__err(c, lesson__off(c, v), "%s must be a non-empty string", path);
        return -1;
    }
    *out = v.j->valuestring;
    return 1;
}

int lesson__want_enum(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                      bool required, int (*parse)(const char *), const char *names, int *out)
{
    lesson__val v;
    int r = want_member(c, obj, key, where, required, &v);
    if (r <= 0)
        return r;
    char path[256];
    lesson__path(path, sizeof path, where, key);
    char what[512];
    snprintf(what, sizeof what, "one of: %s", names);
    if (!cJSON_IsString(v.j)) {
        lesson__type_err(c, v, path, what);
        return -1;
    }
    int e = parse(v.j->valuestring);
    if (e < 0) {
        char found[LESSON__CLIP];
        lesson__err(c, lesson__off(c, v), "%s must be %s; not \"%s\"", path, what,
                    lesson__clip(found, sizeof found, v.j->valuestring));
        return -1;
    }
    *out = e;
    return 1;
}

bool lesson__read_text(lesson__ctx *c, lesson__val v, const char *where, lesson_text *out)
{
    static const char *const keys[] = {"en", "zh", NULL};
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(v.j)) {
        lesson__type_err(c, v, where, "a text object {\"en\": \"...\", \"zh\": \"...\"}");
        return false;
    }
    bool ok = lesson__keys(c, v, where, keys);
    for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
        const char *k = keys[lang];
        lesson__val s = lesson__member(c, v, k);
        char path[256];
        lesson__path(path, sizeof path, where, k);
        if (!s.j) {
            lesson__err(c, lesson__off(c, v), "missing translation: %s has no \"%s\" text", where,
                        k);
            ok = false;
            continue;
        }
        if (!cJSON_IsString(s.j)) {
            lesson__type_err(c, s, path, "a string");
            ok = false;
            continue;
        }
        const char *p = s.j->valuestring;
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p) {
            lesson__err(c, lesson__off(c, s), "missing translation: %s is empty", path);
            ok = false;
            continue;
        }
        size_t n = strlen(s.j->valuestring);
        if (n > LESSON_MAX_TEXT) {
            lesson__err(c, lesson__off(c, s), "%s is %zu bytes; the limit is %d", path, n,
                        LESSON_MAX_TEXT);
            ok = false;
            continue;
        }
        out->s[lang] = lesson__strdup(c->arena, s.j->valuestring);
        lesson__check_claims(c, lesson__off(c, s), path, out->s[lang]);
    }
    if (!ok)
        memset(out, 0, sizeof *out);
    return ok;
}

int lesson__want_text(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                      bool required, lesson_text *out)
{
    lesson__val v;
    memset(out, 0, sizeof *out);
    int r = want_member(c, obj, key, where, required, &v);
    if (r <= 0)
        return r;
    char path[256];
    lesson__path(path, sizeof path, where, key);
    return lesson__read_text(c, v, path, out) ? 1 : -1;
}

int lesson__want_id(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                    bool required, const char **out)
{
    lesson__val v;
    int r = want_member(c, obj, key, where, required, &v);
    if (r <= 0)
        return r;
    char path[256];
    lesson__path(path, sizeof path, where, key);
    if (!cJSON_IsString(v.j)) {
        lesson__type_err(c, v, path, "an id string");
        return -1;
    }
    const char *s = v.j->valuestring;
    size_t n = strlen(s);
    bool ok = n >= 1 && n <= LESSON_MAX_ID && s[0] >= 'a' && s[0] <= 'z';
    for (size_t i = 0; ok && i < n; i++)
        ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-';
    if (!ok) {
        char found[LESSON__CLIP];
        lesson__err(c, lesson__off(c, v),
                    "%s must be an id: 1 to %d characters from a-z, 0-9 and '-', starting with a "
                    "letter; not \"%s\"",
                    path, LESSON_MAX_ID, lesson__clip(found, sizeof found, s));
        return -1;
    }
    *out = lesson__strdup(c->arena, s);
    return 1;
}

static int buf_parse(const char *s)
{
    for (int b = 0; b < CV_BUF_COUNT; b++)
        if (strcmp(s, cv_buf_name((cv_buf)b)) == 0)
            return b;
    return -1;
}

bool lesson__read_chunk(lesson__ctx *c, lesson__val v, const char *where, int setup,
                        lesson_chunk *out)
{
    static const char *const keys[] = {"rank", "buf", "first", "count", NULL};
    if (!lesson__want_object(c, v, where))
        return false;
    bool ok = lesson__keys(c, v, where, keys);
    const cv_plan *plan = setup >= 0 && setup < c->nsetups ? c->plans[setup] : NULL;
    long long maxrank = plan ? plan->spec.ranks - 1 : CV_MAX_VISUAL_RANKS - 1;
    long long rank = 0, first = 0, count = 1;
    int buf = 0;
    ok = lesson__want_int(c, v, "rank", where, true, 0, maxrank, &rank) > 0 && ok;
    ok = lesson__want_enum(c, v, "buf", where, true, buf_parse, "send, recv, scratch", &buf) > 0 &&
         ok;
    ok = lesson__want_int(c, v, "first", where, true, 0, (long long)1 << 40, &first) > 0 && ok;
    ok = lesson__want_int(c, v, "count", where, false, 1, (long long)1 << 40, &count) >= 0 && ok;
    if (!ok)
        return false;
    if (plan) {
        int64_t have = cv_plan_buf_count(plan, (cv_buf)buf, (int)rank);
        if (first + count > have) {
            if (have == 0)
                lesson__err(c, lesson__off(c, v), "%s: rank %lld's %s buffer is empty in this setup",
                            where, rank, cv_buf_name((cv_buf)buf));
            else
                lesson__err(c, lesson__off(c, v),
                            "%s: elements %lld to %lld are outside rank %lld's %s buffer "
                            "(%lld elements, 0 to %lld)",
                            where, first, first + count - 1, rank, cv_buf_name((cv_buf)buf),
                            (long long)have, (long long)have - 1);
            return false;
        }
    }
    out->rank = (int)rank;
    out->buf = (cv_buf)buf;
    out->first = first;
    out->count = count;
    return true;
}

void lesson__names(char *out, size_t n, const char *(*name)(int), int count)
{
    out[0] = '\0';
    for (int i = 0; i < count; i++) {
        if (i)
            strncat(out, ", ", n - strlen(out) - 1);
        strncat(out, name(i), n - strlen(out) - 1);
    }
}
