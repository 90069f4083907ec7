/*
 * show.h: a `collviz bench --json` result read back for `collviz show`
 * (prefix show_): loading and checking the file, pricing every size with
 * the cost model, and the table printed where no chart can be drawn.
 *
 * Loading never trusts the file: it is read by the shared JSON reader
 * (collectives/json/jr.h), every key the chart needs is checked for presence, type
 * and range, and an error is one line, "FILE:LINE:COL: what is wrong",
 * naming the key (results[3].size) and quoting a number as written, so a
 * hand-edited or truncated file is easy to fix.
 */
#ifndef SHOW_H
#define SHOW_H

#include <stdbool.h>
#include <stdio.h>

#include "cv.h"

#define SHOW_MAX_ROWS 4096

typedef struct {
    double size;      /* bytes, nccl-tests' convention */
    double count;     /* elements; -1 when the file leaves it out */
    double time_us;
    double algbw;     /* GB/s */
    double busbw;     /* GB/s */
    double wrong;     /* elements that failed verification; -1 = not checked */
    double bound_pct; /* share of the memory bound; -1 when absent */
    double model_us;  /* the cost model's time; -1 until show_model */
    double model_busbw; /* GB/s; -1 until show_model */
} show_row;

typedef struct {
    char path[1024];
    cv_spec spec;       /* op, algo, ranks, dtype, redop, root, slices */
    char backend[32];
    long iters, warmup; /* -1 when absent */
    int nrows;
    show_row *rows;     /* in increasing size */
} show_result;

/* Reads and checks path. CV_OK, or CV_EINVAL with "path:line:col: reason"
 * ("path: reason" where it has no place) in err; *out is then empty
 * (show_result_free is still safe). */
int show_load(const char *path, show_result *out, char *err, size_t errlen);
/* The same from text already in memory (path only names it in errors). */
int show_parse(const char *path, const char *text, size_t len, show_result *out, char *err,
               size_t errlen);
void show_result_free(show_result *r);

/* The link a backend's result is priced on when none is given: nvlink4
 * for cuda and nccl (the GPUs collviz is measured on); NULL for the CPU,
 * whose limit is memory, which no link preset models. */
const cv_link *show_default_link(const char *backend);
/* Rebuilds the plan of each row from the spec and its size and prices it
 * on link (model_us, model_busbw): every row, or, where that would take
 * more than about two seconds, rows spread evenly from the first to the
 * last (the others keep -1); *priced says how many. CV_EINVAL with "path:
 * reason" when a size cannot be planned (not a whole number of elements
 * per rank). */
int show_model(show_result *r, const cv_link *link, int *priced, char *err, size_t errlen);

/* "AllReduce ring, 4 ranks, float32 sum, backend cpu" */
void show_title(const show_result *r, char *out, size_t outlen);
/* Rows as a table, with the model's columns when show_model has run. */
void show_print_table(FILE *out, const show_result *r, const char *model_about);

#endif /* SHOW_H */
