/*
 * cli_input.c: `run --input FILE`, the inputs a user gives instead of
 * --init's: a JSON array with one entry per rank, each the rank's send
 * buffer as an array of numbers (null or [] for a rank whose send buffer
 * NCCL leaves unused, such as a non-root's in broadcast), in the shape
 * `run --json` prints its "inputs". Floats may also be the strings "nan",
 * "inf" and "-inf", as run --json writes them.
 *
 * The file is read with a scanner of its own rather than cJSON, for two
 * reasons: every error names the line and column it is at, and int64
 * values stay exact (cJSON keeps numbers as doubles). Each entry is checked
 * against the op's layout, and each value against the dtype: integers must
 * be whole and in range, floats must not overflow the dtype.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

#define INPUT_MAX_BYTES ((long)256 << 20)

typedef struct {
    const char *path, *text;
    size_t len, pos;
    int line, col;
} scanner;

static bool fail(const scanner *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(const scanner *sc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "collviz: %s:%d:%d: ", sc->path, sc->line, sc->col);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

static void advance(scanner *sc)
{
    if (sc->text[sc->pos] == '\n') {
        sc->line++;
        sc->col = 1;
    } else if (((unsigned char)sc->text[sc->pos] & 0xc0) != 0x80) {
        sc->col++; /* columns count characters, not UTF-8 bytes */
    }
    sc->pos++;
}

static void skip_ws(scanner *sc)
{
    while (sc->pos < sc->len && strchr(" \t\r\n", sc->text[sc->pos]))
        advance(sc);
}

static bool expect(scanner *sc, char c, const char *what)
{
    skip_ws(sc);
    if (sc->pos >= sc->len || sc->text[sc->pos] != c)
        return fail(sc, "expected %s", what);
    advance(sc);
    return true;
}

static bool peek(scanner *sc, char c)
{
    skip_ws(sc);
    return sc->pos < sc->len && sc->text[sc->pos] == c;
}

/* One value into element i of out, as dtype d. */
static bool read_value(scanner *sc, cv_dtype d, void *out, int64_t i)
{
    skip_ws(sc);
    scanner at = *sc; /* errors point at the value's start */
    char tok[64];
    size_t n = 0;
    bool quoted = sc->pos < sc->len && sc->text[sc->pos] == '"';
    if (quoted)
        advance(sc);
    while (sc->pos < sc->len && n + 1 < sizeof tok) {
        char c = sc->text[sc->pos];
        if (quoted ? c == '"' : !(strchr("+-.eE", c) || (c >= '0' && c <= '9')))
            break;
        tok[n++] = c;
        advance(sc);
    }
    tok[n] = 0;
    if (quoted && !expect(sc, '"', "a closing '\"'"))
        return false;
    if (n == 0)
        return fail(&at, "expected a number%s", cv_dtype_is_float(d) ? " (or \"nan\", \"inf\", \"-inf\")" : "");
    if (quoted) {
        double v = !strcmp(tok, "nan") ? NAN : !strcmp(tok, "inf") ? INFINITY
                   : !strcmp(tok, "-inf") ? -INFINITY : 0;
        if (!cv_dtype_is_float(d) || (v == 0 && !isnan(v)))
            return fail(&at, "\"%s\" is not a number; allowed: numbers%s", tok,
                        cv_dtype_is_float(d) ? ", \"nan\", \"inf\", \"-inf\"" : "");
        cv_value_set(d, out, i, v);
        return true;
    }
    char *end;
    errno = 0;
    if (!cv_dtype_is_float(d)) {
        long long v = strtoll(tok, &end, 10);
        long long lo = d == CV_INT8 ? -128 : d == CV_INT32 ? INT32_MIN : INT64_MIN;
        long long hi = d == CV_INT8 ? 127 : d == CV_INT32 ? INT32_MAX : INT64_MAX;
        if (*end || end == tok) {
            /* 1e9 or 3.0: a whole number written as a float, which fits
             * or does not like any other */
            double x = strtod(tok, &end);
            if (*end || end == tok || !isfinite(x) || x != floor(x))
                return fail(&at, "%s is not a whole number, as %s needs", tok, cv_dtype_name(d));
            if (x < (double)lo || x >= -(double)lo)
                return fail(&at, "%s does not fit %s (%lld to %lld)", tok, cv_dtype_name(d), lo,
                            hi);
            v = (long long)x;
            errno = 0;
        }
        if (errno == ERANGE || v < lo || v > hi)
            return fail(&at, "%s does not fit %s (%lld to %lld)", tok, cv_dtype_name(d), lo, hi);
        if (d == CV_INT64)
            ((int64_t *)out)[i] = v;
        else
            cv_value_set(d, out, i, (double)v);
        return true;
    }
    double v = strtod(tok, &end);
    if (*end || end == tok)
        return fail(&at, "%s is not a number", tok);
    cv_value_set(d, out, i, v);
    if (isinf(cv_value_get(d, out, i)))
        return fail(&at, "%s overflows %s", tok, cv_dtype_name(d));
    return true;
}

/* Rank r's entry: null, or an array of exactly cv_spec_buf_count(SEND)
 * values. */
static bool read_rank(scanner *sc, const cv_spec *s, int r, void **out)
{
    int64_t want = cv_spec_buf_count(s, CV_BUF_SEND, r), got = 0;
    bool used = cv_spec_buf_used(s, CV_BUF_SEND, r);
    skip_ws(sc);
    scanner at = *sc;
    if (sc->len - sc->pos >= 4 && !strncmp(sc->text + sc->pos, "null", 4)) {
        for (int k = 0; k < 4; k++)
            advance(sc);
        if (want > 0)
            return fail(&at, "rank %d's send buffer is null, but %s's holds %lld elements there",
                        r, cv_op_name(s->op), (long long)want);
        return true;
    }
    if (!expect(sc, '[', "'[' opening a rank's values, or null"))
        return false;
    *out = calloc((size_t)want + 1, cv_dtype_size(s->dtype));
    if (!*out)
        return fail(sc, "out of memory");
    while (!peek(sc, ']')) {
        if (got > 0 && !expect(sc, ',', "',' or ']'"))
            return false;
        if (got == want) {
            skip_ws(sc);
            return fail(sc, "rank %d has more than %lld values; %s", r, (long long)want,
                        !used ? "NCCL leaves this rank's send buffer unused: give null or []"
                              : "the op's send buffer holds that many");
        }
        if (!read_value(sc, s->dtype, *out, got++))
            return false;
    }
    if (got < want)
        return fail(sc, "rank %d has %lld values; %s's send buffer holds %lld on this rank "
                        "(--count %lld)", r, (long long)got, cv_op_name(s->op), (long long)want,
                    (long long)s->count);
    return expect(sc, ']', "']'");
}

bool app_read_inputs(const char *path, const cv_spec *s, void ***inputs)
{
    *inputs = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        app_usage_error("--input: cannot open %s: %s", path, strerror(errno));
        return false;
    }
    char *text = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || size > INPUT_MAX_BYTES || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        app_usage_error("--input: %s is not a readable file of at most %ld MiB", path,
                        INPUT_MAX_BYTES >> 20);
        return false;
    }
    text = malloc((size_t)size + 1);
    size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
    fclose(f);
    if (!text || got != (size_t)size) {
        free(text);
        app_usage_error("--input: cannot read %s", path);
        return false;
    }
    text[size] = 0;
    scanner sc = {path, text, (size_t)size, 0, 1, 1};
    void **in = calloc((size_t)s->ranks, sizeof *in);
    bool ok = in && expect(&sc, '[', "'[' opening one entry per rank");
    int r = 0;
    while (ok && !peek(&sc, ']')) {
        if (r > 0 && !(ok = expect(&sc, ',', "',' or ']'")))
            break;
        if (r == s->ranks) {
            skip_ws(&sc);
            ok = fail(&sc, "more than %d entries; give one per rank (--ranks %d)", s->ranks,
                      s->ranks);
            break;
        }
        ok = read_rank(&sc, s, r, &in[r]);
        r++;
    }
    if (ok && r < s->ranks)
        ok = fail(&sc, "%d entries; give one per rank (--ranks %d)", r, s->ranks);
    if (ok && (ok = expect(&sc, ']', "']'"))) {
        skip_ws(&sc);
        if (sc.pos < sc.len)
            ok = fail(&sc, "text after the closing ']'");
    }
    free(text);
    if (!ok) {
        app_free_inputs(in, s->ranks);
        return false;
    }
    *inputs = in;
    return true;
}

void app_free_inputs(void **inputs, int ranks)
{
    for (int r = 0; inputs && r < ranks; r++)
        free(inputs[r]);
    free(inputs);
}
