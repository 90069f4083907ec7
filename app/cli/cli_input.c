/*
 * cli_input.c: `run --input FILE`, the inputs a user gives instead of
 * --init's: a JSON array with one entry per rank, each the rank's send
 * buffer as an array of numbers (null or [] for a rank whose send buffer
 * NCCL leaves unused, such as a non-root's in broadcast), in the shape
 * `run --json` prints its "inputs". Floats may also be the strings "nan",
 * "inf" and "-inf", as run --json writes them.
 *
 * The file is read by the JSON reader every file of collviz goes through
 * (collectives/json/jr.h): a FIFO, a directory or a device is refused, not read; a
 * NUL byte, text after the array and a key given twice are refused at
 * their place. Each value is then read from the number as the file writes
 * it, so int64 values stay exact (cJSON keeps numbers as doubles), and
 * checked against the dtype: integers must be whole and in range, floats
 * must not overflow the dtype. Each entry is checked against the op's
 * layout. Every error names the file, line and column.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"

/* A file of inputs is at most this big: some 10 million values, which
 * cJSON holds in about a gigabyte. */
#define INPUT_MAX_BYTES ((size_t)64 << 20)

/* A file being read, and where its first problem is said. */
typedef struct {
    const jr_doc *doc;
    char *err;
    size_t errlen;
} input_reader;

static bool fail(input_reader *in, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(input_reader *in, size_t off, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    jr_say(in->doc, off, in->err, in->errlen, "%s", msg);
    return false;
}

/* One value into element i of out, as dtype d. */
static bool read_value(input_reader *in, jr_tok v, cv_dtype d, void *out, int64_t i)
{
    size_t at = v.off; /* errors point at the value's start */
    bool fl = cv_dtype_is_float(d);
    if (v.kind == JR_TSTRING) {
        char text[64], raw[200];
        const char *s = jr_tok_text(in->doc, v, text, sizeof text);
        if (!*s && v.end - v.off > 2) { /* too long to be a name: quoted as written, cut */
            size_t n = v.end - v.off - 2 < sizeof raw ? v.end - v.off - 2 : sizeof raw - 1;
            memcpy(raw, in->doc->text + v.off + 1, n);
            raw[n] = '\0';
            s = raw;
        }
        double x = !strcmp(s, "nan") ? NAN : !strcmp(s, "inf") ? INFINITY
                   : !strcmp(s, "-inf") ? -INFINITY : 0;
        if (!fl || (x == 0 && !isnan(x))) {
            char shown[64];
            return fail(in, at, "\"%s\" is not a number; allowed: numbers%s",
                        jr_clip(shown, sizeof shown, s), fl ? ", \"nan\", \"inf\", \"-inf\"" : "");
        }
        cv_value_set(d, out, i, x);
        return true;
    }
    char tok[64];
    if (v.kind != JR_TNUMBER)
        return fail(in, at, "expected a number%s, not %s",
                    fl ? " (or \"nan\", \"inf\", \"-inf\")" : "",
                    jr_tok_found(in->doc, v, tok, sizeof tok));
    jr_tok_text(in->doc, v, tok, sizeof tok); /* as written: int64 stays exact */
    char *end;
    errno = 0;
    if (!fl) {
        long long x = strtoll(tok, &end, 10);
        long long lo = d == CV_INT8 ? -128 : d == CV_INT32 ? INT32_MIN : INT64_MIN;
        long long hi = d == CV_INT8 ? 127 : d == CV_INT32 ? INT32_MAX : INT64_MAX;
        if (*end || end == tok) {
            /* 1e9 or 3.0: a whole number written as a float, which fits
             * or does not like any other */
            double f = strtod(tok, &end);
            if (*end || end == tok || !isfinite(f) || f != floor(f))
                return fail(in, at, "%s is not a whole number, as %s needs", tok,
                            cv_dtype_name(d));
            if (f < (double)lo || f >= -(double)lo)
                return fail(in, at, "%s does not fit %s (%lld to %lld)", tok, cv_dtype_name(d),
                            lo, hi);
            x = (long long)f;
            errno = 0;
        }
        if (errno == ERANGE || x < lo || x > hi)
            return fail(in, at, "%s does not fit %s (%lld to %lld)", tok, cv_dtype_name(d), lo,
                        hi);
        if (d == CV_INT64)
            ((int64_t *)out)[i] = x;
        else
            cv_value_set(d, out, i, (double)x);
        return true;
    }
    double x = strtod(tok, &end);
    if (*end || end == tok)
        return fail(in, at, "%s is not a number", tok);
    cv_value_set(d, out, i, x);
    if (isinf(cv_value_get(d, out, i)))
        return fail(in, at, "%s overflows %s", tok, cv_dtype_name(d));
    return true;
}

/* Rank r's buffer buf (its send buffer for inputs, its receive buffer for
 * a trace's results) from entry e: null, or an array of exactly
 * cv_spec_buf_count values, read from the text one at a time. */
static bool read_rank(input_reader *in, jr_tok e, const cv_spec *s, cv_buf buf, int r, void **out)
{
    int64_t want = cv_spec_buf_count(s, buf, r), got = 0;
    bool used = cv_spec_buf_used(s, buf, r);
    const char *what = buf == CV_BUF_SEND ? "send" : "receive";
    char found[64];
    if (e.kind == JR_TNULL) {
        if (want > 0)
            return fail(in, e.off,
                        "rank %d's %s buffer is null, but %s's holds %lld elements there", r,
                        what, cv_op_name(s->op), (long long)want);
        return true;
    }
    if (e.kind != JR_TARRAY)
        return fail(in, e.off, "expected '[' opening rank %d's values, or null; not %s", r,
                    jr_tok_found(in->doc, e, found, sizeof found));
    *out = calloc((size_t)want + 1, cv_dtype_size(s->dtype));
    if (!*out)
        return fail(in, e.off, "out of memory");
    for (jr_tok v = jr_tok_first(in->doc, e); v.kind != JR_TNONE; v = jr_tok_next(in->doc, v)) {
        if (got == want)
            return fail(in, v.off, "rank %d has more than %lld values; %s", r,
                        (long long)want,
                        !used ? (buf == CV_BUF_SEND
                                     ? "NCCL leaves this rank's send buffer unused: give null or []"
                                     : "NCCL leaves this rank's receive buffer unused")
                        : buf == CV_BUF_SEND ? "the op's send buffer holds that many"
                                             : "the op's receive buffer holds that many");
        if (!read_value(in, v, s->dtype, *out, got++))
            return false;
    }
    if (got < want)
        return fail(in, e.end - 1,
                    "rank %d has %lld values; %s's %s buffer holds %lld on this rank "
                    "(--count %lld)", r, (long long)got, cv_op_name(s->op), what, (long long)want,
                    (long long)s->count);
    return true;
}

/* How a file of inputs is read: capped, and values past what the op
 * takes (with room for a precise message about a few too many) refused as
 * they are met. */
static jr_opts input_opts(const cv_spec *s, char *why, size_t whylen)
{
    int64_t total = 0;
    for (int r = 0; r < s->ranks; r++)
        total += cv_spec_buf_count(s, CV_BUF_SEND, r);
    snprintf(why, whylen, "the op's send buffers take %lld in all (--ranks %d)", (long long)total,
             s->ranks);
    int64_t most = 2 * (1 + s->ranks + total) + 1024;
    return (jr_opts){.max_bytes = INPUT_MAX_BYTES, .max_depth = 8,
                     .max_values = most < INT32_MAX ? most : INT32_MAX, .too_many = why};
}

/* Array root: one entry per rank, each rank's buffer buf, read from the
 * text (a trace's arrays are lazy: no tree holds their values). */
static bool read_buffers(input_reader *in, jr_tok root, const cv_spec *s, cv_buf buf,
                         void ***buffers)
{
    const jr_doc *doc = in->doc;
    void **got = calloc((size_t)s->ranks, sizeof *got);
    bool ok = got != NULL;
    if (!ok) {
        fail(in, 0, "out of memory");
    } else if (root.kind != JR_TARRAY) {
        char found[64];
        ok = fail(in, root.off, "expected '[' opening one entry per rank (--ranks %d); not %s",
                  s->ranks, jr_tok_found(doc, root, found, sizeof found));
    }
    int r = 0;
    for (jr_tok v = ok ? jr_tok_first(doc, root) : (jr_tok){JR_TNONE, 0, 0};
         ok && v.kind != JR_TNONE; v = jr_tok_next(doc, v), r++) {
        if (r == s->ranks) {
            ok = fail(in, v.off, "more than %d entries; give one per rank (--ranks %d)",
                      s->ranks, s->ranks);
            break;
        }
        ok = read_rank(in, v, s, buf, r, &got[r]);
    }
    if (ok && r < s->ranks)
        ok = fail(in, root.end - 1, "%d entries; give one per rank (--ranks %d)", r,
                  s->ranks);
    if (!ok) {
        cli_free_inputs(got, s->ranks);
        return false;
    }
    *buffers = got;
    return true;
}

/* The document read: one entry per rank. */
static bool from_doc(input_reader *in, const cv_spec *s, void ***inputs)
{
    return read_buffers(in, jr_tok_of(in->doc, jr_root(in->doc)), s, CV_BUF_SEND, inputs);
}

bool cli__read_buffers(const jr_doc *doc, jr_val arr, const cv_spec *s, cv_buf buf,
                       void ***buffers, char *err, size_t errlen)
{
    input_reader in = {doc, err, errlen};
    *buffers = NULL;
    return read_buffers(&in, jr_tok_of(doc, arr), s, buf, buffers);
}

/* Reads what jr_read_* gave: the inputs, or one line in err. */
static bool from_read(jr_status st, const jr_doc *doc, const jr_error *e, const char *name,
                      const cv_spec *s, void ***inputs, char *err, size_t errlen)
{
    *inputs = NULL;
    if (st != JR_OK) {
        char line[1400];
        jr_error_text(e, name, line, sizeof line);
        snprintf(err, errlen, "%s%s", e->line > 0 ? "" : "--input: ", line);
        return false;
    }
    input_reader in = {doc, err, errlen};
    return from_doc(&in, s, inputs);
}

bool cli_read_inputs(const char *path, const cv_spec *s, void ***inputs)
{
    char why[160], err[1500];
    jr_opts o = input_opts(s, why, sizeof why);
    jr_doc doc;
    jr_error e;
    bool ok = from_read(jr_read_file(path, &o, &doc, &e), &doc, &e, path, s, inputs, err,
                        sizeof err);
    jr_destroy(&doc);
    if (!ok)
        cli_usage_error("%s", err);
    return ok;
}

bool cli_parse_inputs(const char *name, const char *text, size_t len, const cv_spec *s,
                      void ***inputs, char *err, size_t errlen)
{
    char why[160];
    jr_opts o = input_opts(s, why, sizeof why);
    jr_doc doc;
    jr_error e;
    bool ok = from_read(jr_read_text(name, text, len, &o, &doc, &e), &doc, &e, name, s, inputs,
                        err, errlen);
    jr_destroy(&doc);
    return ok;
}

void cli_free_inputs(void **inputs, int ranks)
{
    for (int r = 0; inputs && r < ranks; r++)
        free(inputs[r]);
    free(inputs);
}
