/*
 * show_data.c: reading a `collviz bench --json` result back (show.h).
 *
 * The file is whatever the user hands us, possibly truncated, edited or
 * from another program, so each key is looked up by name and checked for
 * type and range before anything is drawn; the first problem found is the
 * one reported, as "FILE: KEY is ..., expected ...". Keys the chart does
 * not need (avg_busbw_GBps, the memory bandwidths) are ignored, and keys a
 * newer bench may add do no harm.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "show.h"

#define SHOW_MAX_FILE (64L << 20) /* far above any bench result; refuses /dev/zero */

typedef struct {
    const char *path;
    char *err;
    size_t errlen;
} checker;

__attribute__((format(printf, 2, 3))) static int fail(checker *c, const char *fmt, ...)
{
    /* The message quotes the file: escaped whole, so no byte of it reaches
     * the terminal raw (an ESC sequence in "op" could clear the screen). */
    char raw[1024];
    int n = snprintf(raw, sizeof raw, "%s: ", c->path);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof raw)
        vsnprintf(raw + n, sizeof raw - (size_t)n, fmt, ap);
    va_end(ap);
    app_escape(raw, c->err, c->errlen);
    return CV_EINVAL;
}

static const char *type_name(const cJSON *v)
{
    return cJSON_IsString(v) ? "a string" : cJSON_IsNumber(v) ? "a number"
           : cJSON_IsArray(v) ? "an array" : cJSON_IsObject(v) ? "an object"
           : cJSON_IsBool(v) ? "true/false" : "null";
}

/* A string member; `example` says what is expected, for the message. */
static int get_string(checker *c, const cJSON *obj, const char *key, const char *example,
                      const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        return fail(c, "missing key \"%s\" (a string such as %s)", key, example);
    if (!cJSON_IsString(v) || !v->valuestring)
        return fail(c, "\"%s\" is %s, expected a string such as %s", key, type_name(v), example);
    *out = v->valuestring;
    return CV_OK;
}

/* A number member of `where` ("" or "results[3]."), within [min, max];
 * absent is fine when *out holds a default and required is false. */
static int get_number(checker *c, const cJSON *obj, const char *where, const char *key,
                      bool required, bool integer, double min, double max, const char *what,
                      double *out)
{
    /* Top-level keys quoted as in the file ("ranks"), row keys as a path
     * (results[3].size). */
    char name[64];
    snprintf(name, sizeof name, *where ? "%s%s" : "\"%s%s\"", where, key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        return required ? fail(c, "missing key %s (%s)", name, what) : CV_OK;
    if (!cJSON_IsNumber(v)) {
        if (cJSON_IsString(v) && v->valuestring)
            return fail(c, "%s is a string (\"%.40s\"), expected %s", name, v->valuestring,
                        what);
        return fail(c, "%s is %s, expected %s", name, type_name(v), what);
    }
    double x = v->valuedouble;
    if (!isfinite(x) || x < min || x > max || (integer && x != floor(x)))
        return fail(c, "%s is %g, expected %s", name, x, what);
    *out = x;
    return CV_OK;
}

static int cmp_size(const void *a, const void *b)
{
    double x = ((const show_row *)a)->size, y = ((const show_row *)b)->size;
    return (x > y) - (x < y);
}

static int parse_rows(checker *c, const cJSON *doc, show_result *r)
{
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "results");
    if (!rows)
        return fail(c, "missing key \"results\" (the array of rows that collviz bench --json "
                       "writes)");
    if (!cJSON_IsArray(rows))
        return fail(c, "\"results\" is %s, expected an array of rows", type_name(rows));
    int n = cJSON_GetArraySize(rows);
    if (n == 0)
        return fail(c, "\"results\" is empty: no sizes to draw");
    if (n > SHOW_MAX_ROWS)
        return fail(c, "\"results\" has %d rows; at most %d are allowed", n, SHOW_MAX_ROWS);
    r->rows = calloc((size_t)n, sizeof *r->rows);
    if (!r->rows)
        return fail(c, "out of memory");
    int i = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        char where[32];
        snprintf(where, sizeof where, "results[%d].", i);
        if (!cJSON_IsObject(row))
            return fail(c, "results[%d] is %s, expected an object with size, time_us, "
                           "algbw_GBps and busbw_GBps", i, type_name(row));
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
        i++;
    }
    r->nrows = n;
    qsort(r->rows, (size_t)n, sizeof *r->rows, cmp_size); /* the chart draws left to right */
    return CV_OK;
}

static int parse_doc(checker *c, const cJSON *doc, show_result *r)
{
    if (!cJSON_IsObject(doc))
        return fail(c, "the top level is %s, expected an object (the output of collviz bench "
                       "--json)", type_name(doc));
    const char *op, *algo, *dtype, *backend, *redop = NULL;
    int rc;
    if ((rc = get_string(c, doc, "op", "\"allreduce\"", &op)) ||
        (rc = get_string(c, doc, "algo", "\"ring\"", &algo)) ||
        (rc = get_string(c, doc, "backend", "\"cpu\"", &backend)) ||
        (rc = get_string(c, doc, "dtype", "\"float32\"", &dtype)))
        return rc;
    cv_spec_init(&r->spec);
    int e = cv_op_parse(op);
    if (e < 0)
        return fail(c, "\"op\" is \"%.40s\", not an op collviz knows (see collviz list)", op);
    r->spec.op = (cv_op)e;
    if ((e = cv_algo_parse(algo)) < 0 || !cv_op_has_algo(r->spec.op, (cv_algo)e))
        return fail(c, "\"algo\" is \"%.40s\", not an algorithm of %s (see collviz list)", algo,
                    op);
    r->spec.algo = (cv_algo)e;
    if ((e = cv_dtype_parse(dtype)) < 0)
        return fail(c, "\"dtype\" is \"%.40s\", not a dtype collviz knows (see collviz list)",
                    dtype);
    r->spec.dtype = (cv_dtype)e;
    app_escape(backend, r->backend, sizeof r->backend); /* drawn and printed */
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
        return fail(c, "\"root\" is %d but there are only %d ranks", r->spec.root, r->spec.ranks);
    r->spec.slices = (int)slices;
    r->iters = (long)iters;
    r->warmup = (long)warmup;
    if (cJSON_GetObjectItemCaseSensitive(doc, "redop") &&
        (rc = get_string(c, doc, "redop", "\"sum\"", &redop)))
        return rc;
    if (redop && cv_op_reduces(r->spec.op)) {
        if ((e = cv_redop_parse(redop)) < 0)
            return fail(c, "\"redop\" is \"%.40s\", not a redop collviz knows", redop);
        r->spec.redop = (cv_redop)e;
    }
    return parse_rows(c, doc, r);
}

int show_parse(const char *path, const char *text, size_t len, show_result *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    checker c = {path, err, errlen};
    size_t skip = 0;
    while (skip < len && strchr(" \t\r\n", text[skip]))
        skip++;
    if (skip == len)
        return fail(&c, "empty file, expected the JSON that collviz bench --json writes");
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!doc) {
        /* Name the line and column, as an editor would. */
        int line = 1, col = 1;
        for (const char *p = text; end && p < end && p < text + len; p++, col++)
            if (*p == '\n')
                line++, col = 0;
        return fail(&c, "not JSON (parse error at line %d, column %d); expected the output of "
                        "collviz bench --json", line, col);
    }
    int rc = parse_doc(&c, doc, out);
    cJSON_Delete(doc);
    if (rc != CV_OK)
        show_result_free(out);
    return rc;
}

int show_load(const char *path, show_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    checker c = {path, err, errlen};
    /* O_NONBLOCK and a regular file only: a FIFO would wait for a writer. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fail(&c, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(&c, "cannot read: %s", S_ISDIR(st.st_mode) ? "it is a directory"
                                                               : "it is not a regular file");
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return fail(&c, "cannot open: %s", strerror(errno));
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = CV_OK;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = (long)cap <= SHOW_MAX_FILE + 1 ? realloc(buf, cap + 1) : NULL;
            if (!nb) {
                rc = fail(&c, "larger than %ld MiB; not a bench result", SHOW_MAX_FILE >> 20);
                goto done;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        rc = fail(&c, "cannot read: %s", strerror(errno));
        goto done;
    }
    buf[len] = '\0';
    rc = show_parse(path, buf, len, out, err, errlen);
done:
    free(buf);
    fclose(f);
    return rc;
}

void show_result_free(show_result *r)
{
    free(r->rows);
    r->rows = NULL;
    r->nrows = 0;
}
