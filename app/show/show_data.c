/*
 * show_data.c: reading a `collviz bench --json` result back (show.h).
 *
 * The file is whatever the user hands us, possibly truncated, edited or
 * from another program. It is read by the shared JSON reader
 * (collectives/json/jr.h), which refuses a FIFO, a directory or a device without
 * waiting, a NUL byte, text after the object and a key given twice (a
 * lookup would quietly take the first), each at its place. Then each key
 * is looked up by name and checked for type and range before anything is
 * drawn; the first problem found is the one reported, as "FILE:LINE:COL:
 * KEY is ..., expected ...", a number quoted as the file writes it. Keys the
 * chart does not need (avg_busbw_GBps, the memory bandwidths) are ignored,
 * and keys a newer bench may add do no harm.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jr.h"
#include "show.h"

#define SHOW_MAX_FILE ((size_t)64 << 20) /* far above any bench result */

typedef struct {
    const char *path;
    const jr_doc *doc; /* NULL until the text is read */
    char *err;
    size_t errlen;
} checker;

/* The message quotes the file: escaped whole, so no byte of it reaches
 * the terminal raw (an ESC sequence in "op" could clear the screen). */
__attribute__((format(printf, 2, 3))) static int fail(checker *c, const char *fmt, ...)
{
    char raw[1024];
    int n = snprintf(raw, sizeof raw, "%s: ", c->path);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof raw)
        vsnprintf(raw + n, sizeof raw - (size_t)n, fmt, ap);
    va_end(ap);
    cli_escape(raw, c->err, c->errlen);
    return CV_EINVAL;
}

/* The same at value v's line and column. */
__attribute__((format(printf, 3, 4))) static int fail_at(checker *c, jr_val v, const char *fmt,
                                                         ...)
{
    char raw[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    jr_say(c->doc, jr_off(c->doc, v), c->err, c->errlen, "%s", raw);
    return CV_EINVAL;
}

static const char *type_name(const cJSON *v)
{
    return cJSON_IsString(v) ? "a string" : cJSON_IsNumber(v) ? "a number"
           : cJSON_IsArray(v) ? "an array" : cJSON_IsObject(v) ? "an object"
           : cJSON_IsBool(v) ? "true/false" : "null";
}

/* A string member; `example` says what is expected, for the message. */
static int get_string(checker *c, jr_val obj, const char *key, const char *example,
                      const char **out, jr_val *at)
{
    jr_val v = jr_member(c->doc, obj, key);
    if (!v.j)
        return fail_at(c, obj, "missing key \"%s\" (a string such as %s)", key, example);
    if (!cJSON_IsString(v.j) || !v.j->valuestring)
        return fail_at(c, v, "\"%s\" is %s, expected a string such as %s", key, type_name(v.j),
                       example);
    *out = v.j->valuestring;
    if (at)
        *at = v;
    return CV_OK;
}

/* A number member of `where` ("" or "results[3]."), within [min, max];
 * absent is fine when *out holds a default and required is false. */
static int get_number(checker *c, jr_val obj, const char *where, const char *key, bool required,
                      bool integer, double min, double max, const char *what, double *out)
{
    /* Top-level keys quoted as in the file ("ranks"), row keys as a path
     * (results[3].size). */
    char name[64];
    snprintf(name, sizeof name, *where ? "%s%s" : "\"%s%s\"", where, key);
    jr_val v = jr_member(c->doc, obj, key);
    if (!v.j)
        return required ? fail_at(c, obj, "missing key %s (%s)", name, what) : CV_OK;
    if (!cJSON_IsNumber(v.j)) {
        if (cJSON_IsString(v.j) && v.j->valuestring)
            return fail_at(c, v, "%s is a string (\"%.40s\"), expected %s", name,
                           v.j->valuestring, what);
        return fail_at(c, v, "%s is %s, expected %s", name, type_name(v.j), what);
    }
    double x = v.j->valuedouble;
    if (!isfinite(x) || x < min || x > max || (integer && x != floor(x))) {
        char text[64];
        return fail_at(c, v, "%s is %s, expected %s", name,
                       jr_number_text(c->doc, v, text, sizeof text), what);
    }
    *out = x;
    return CV_OK;
}

static int cmp_size(const void *a, const void *b)
{
    double x = ((const show_row *)a)->size, y = ((const show_row *)b)->size;
    return (x > y) - (x < y);
}

static int parse_rows(checker *c, jr_val doc, show_result *r)
{
    jr_val rows = jr_member(c->doc, doc, "results");
    if (!rows.j)
        return fail_at(c, doc, "missing key \"results\" (the array of rows that collviz bench "
                               "--json writes)");
    if (!cJSON_IsArray(rows.j))
        return fail_at(c, rows, "\"results\" is %s, expected an array of rows",
                       type_name(rows.j));
    int n = jr_count(rows);
    if (n == 0)
        return fail_at(c, rows, "\"results\" is empty: no sizes to draw");
    if (n > SHOW_MAX_ROWS)
        return fail_at(c, rows, "\"results\" has %d rows; at most %d are allowed", n,
                       SHOW_MAX_ROWS);
    r->rows = calloc((size_t)n, sizeof *r->rows);
    if (!r->rows)
        return fail(c, "out of memory");
    int i = 0;
    for (jr_val row = jr_child(c->doc, rows); row.j; row = jr_next(c->doc, row), i++) {
        char where[32];
        snprintf(where, sizeof where, "results[%d].", i);
        if (!cJSON_IsObject(row.j))
            return fail_at(c, row, "results[%d] is %s, expected an object with size, time_us, "
                                   "algbw_GBps and busbw_GBps", i, type_name(row.j));
        show_row *w = &r->rows[i];
        *w = (show_row){.count = -1, .wrong = -1, .bound_pct = -1, .model_us = -1,
                        .model_busbw = -1};
        int rc;
        if ((rc = get_number(c, row, where, "size", true, true, 1, 9.0e15, "a whole number of "
                             "bytes from 1 to 9e15", &w->size)) ||
            (rc = get_number(c, row, where, "time_us", true, false, 0, 1e15,
                             "microseconds, 0 or more", &w->time_us)) ||
            (rc = get_number(c, row, where, "algbw_GBps", true, false, 0, 1e9,
                             "GB/s, 0 or more", &w->algbw)) ||
            (rc = get_number(c, row, where, "busbw_GBps", true, false, 0, 1e9,
                             "GB/s, 0 or more", &w->busbw)) ||
            (rc = get_number(c, row, where, "count", false, true, 0, 9.0e15,
                             "a whole number of elements up to 9e15", &w->count)) ||
            (rc = get_number(c, row, where, "wrong", false, true, -1, 9.0e15,
                             "a count of wrong elements, -1 when unchecked", &w->wrong)) ||
            (rc = get_number(c, row, where, "bound_pct", false, false, 0, 1e12,
                             "a percentage", &w->bound_pct)))
            return rc;
    }
    r->nrows = n;
    qsort(r->rows, (size_t)n, sizeof *r->rows, cmp_size); /* the chart draws left to right */
    return CV_OK;
}

static int parse_doc(checker *c, show_result *r)
{
    jr_val doc = jr_root(c->doc);
    if (!cJSON_IsObject(doc.j))
        return fail_at(c, doc, "the top level is %s, expected an object (the output of collviz "
                               "bench --json)", type_name(doc.j));
    const char *op, *algo, *dtype, *backend, *redop = NULL;
    jr_val opv, algov, dtypev, redopv = {NULL, -1};
    int rc;
    if ((rc = get_string(c, doc, "op", "\"allreduce\"", &op, &opv)) ||
        (rc = get_string(c, doc, "algo", "\"ring\"", &algo, &algov)) ||
        (rc = get_string(c, doc, "backend", "\"cpu\"", &backend, NULL)) ||
        (rc = get_string(c, doc, "dtype", "\"float32\"", &dtype, &dtypev)))
        return rc;
    cv_spec_init(&r->spec);
    int e = cv_op_parse(op);
    if (e < 0)
        return fail_at(c, opv, "\"op\" is \"%.40s\", not an op collviz knows (see collviz list)",
                       op);
    r->spec.op = (cv_op)e;
    if ((e = cv_algo_parse(algo)) < 0 || !cv_op_has_algo(r->spec.op, (cv_algo)e))
        return fail_at(c, algov,
                       "\"algo\" is \"%.40s\", not an algorithm of %s (see collviz list)", algo,
                       op);
    r->spec.algo = (cv_algo)e;
    if ((e = cv_dtype_parse(dtype)) < 0)
        return fail_at(c, dtypev,
                       "\"dtype\" is \"%.40s\", not a dtype collviz knows (see collviz list)",
                       dtype);
    r->spec.dtype = (cv_dtype)e;
    cli_escape(backend, r->backend, sizeof r->backend); /* drawn and printed */
    double ranks = 0, root = 0, slices = 1, iters = -1, warmup = -1;
    if ((rc = get_number(c, doc, "", "ranks", true, true, 1, CV_MAX_RANKS,
                         "a whole number of ranks from 1 to 1024", &ranks)) ||
        (rc = get_number(c, doc, "", "root", false, true, -1, CV_MAX_RANKS - 1, "a rank", &root)) ||
        (rc = get_number(c, doc, "", "slices", false, true, 1, CV_MAX_SLICES,
                         "a number of slices", &slices)) ||
        (rc = get_number(c, doc, "", "iters", false, true, 0, 1e9, "a count", &iters)) ||
        (rc = get_number(c, doc, "", "warmup", false, true, 0, 1e9, "a count", &warmup)))
        return rc;
    r->spec.ranks = (int)ranks;
    r->spec.root = root >= 0 && cv_op_has_root(r->spec.op) ? (int)root : 0;
    if (r->spec.root >= r->spec.ranks)
        return fail_at(c, jr_member(c->doc, doc, "root"),
                       "\"root\" is %d but there are only %d ranks", r->spec.root,
                       r->spec.ranks);
    r->spec.slices = (int)slices;
    r->iters = (long)iters;
    r->warmup = (long)warmup;
    if (jr_member(c->doc, doc, "redop").j &&
        (rc = get_string(c, doc, "redop", "\"sum\"", &redop, &redopv)))
        return rc;
    if (redop && cv_op_reduces(r->spec.op)) {
        if ((e = cv_redop_parse(redop)) < 0)
            return fail_at(c, redopv, "\"redop\" is \"%.40s\", not a redop collviz knows",
                           redop);
        r->spec.redop = (cv_redop)e;
    }
    return parse_rows(c, doc, r);
}

static const jr_opts show_read = {.max_bytes = SHOW_MAX_FILE, .max_depth = 8};

/* The text read: checked and drawn from, or the reader's refusal said. */
static int from_read(checker *c, jr_status st, const jr_doc *doc, const jr_error *e,
                     show_result *out)
{
    if (st != JR_OK && e->empty)
        return fail(c, "empty file, expected the JSON that collviz bench --json writes or "
                       "nccl-tests' output");
    if (st != JR_OK) {
        char line[1200];
        jr_error_text(e, c->path, line, sizeof line);
        snprintf(c->err, c->errlen, "%s%s", line,
                 e->status == JR_ESYNTAX ? "; expected the output of collviz bench --json" : "");
        return CV_EINVAL;
    }
    c->doc = doc;
    int rc = parse_doc(c, out);
    if (rc != CV_OK)
        show_result_destroy(out);
    return rc;
}

/* JSON starts with "{" or "[" (after any space; a file of nothing but
 * space is an empty JSON file), where "[" does not open a launcher's tag
 * ("[0] ", "[1,0]<stdout>:"); anything else is read as text. */
static bool is_json(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i == len || text[i] == '{' || text[i] == '\0') /* a NUL: the reader says where */
        return true;
    if (text[i] != '[')
        return false;
    /* "[0] " and "[1,0]<stdout>:" are launcher tags on a text line, not arrays */
    size_t j = i + 1;
    while (j < len && ((text[j] >= '0' && text[j] <= '9') || text[j] == ','))
        j++;
    return !(j > i + 1 && j < len && text[j] == ']');
}

int show_parse(const char *path, const char *text, size_t len, const show_hints *h,
               show_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    if (!is_json(text, len)) {
        bool tuning = show_has_tuning(text, len);
        if (h && h->choice)
            return show_parse_ncclog(path, text, len, h, out, err, errlen);
        int rc = show_parse_nccltests(path, text, len, h, out, err, errlen);
        if (rc != CV_OK && tuning) /* no nccl-tests rows: NCCL's table is what there is */
            return show_parse_ncclog(path, text, len, h, out, err, errlen);
        if (rc == CV_OK && tuning) {
            size_t used = strlen(out->notes);
            snprintf(out->notes + used, sizeof out->notes - used, "%sthe file also holds NCCL's "
                     "tuning table: --choice draws NCCL's choice of algorithm by size",
                     used ? "\n" : "");
        }
        return rc;
    }
    snprintf(out->source, sizeof out->source, "collviz");
    checker c = {path, NULL, err, errlen};
    jr_doc doc;
    jr_error e;
    int rc = from_read(&c, jr_read_text(path, text, len, &show_read, &doc, &e), &doc, &e, out);
    jr_destroy(&doc);
    return rc;
}

int show_load(const char *path, const show_hints *h, show_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    char *text;
    size_t len;
    jr_error e;
    if (jr_slurp(path, SHOW_MAX_FILE, &text, &len, &e) != JR_OK) {
        checker c = {path, NULL, err, errlen};
        jr_doc none = {0};
        return from_read(&c, e.status, &none, &e, out);
    }
    int rc = show_parse(path, text, len, h, out, err, errlen);
    free(text);
    return rc;
}

void show_result_destroy(show_result *r)
{
    free(r->rows);
    free(r->choice);
    r->rows = NULL;
    r->choice = NULL;
    r->nrows = 0;
}
