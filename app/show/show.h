/*
 * show.h: a measured bandwidth-versus-size result read back for `collviz
 * show` (prefix show_): `collviz bench --json`'s JSON (show_data.c) or the
 * text table nccl-tests prints (show_nccltests.c); loading and checking
 * the file, pricing every size with the cost model, and the table printed
 * where no chart can be drawn.
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
#include "ncclog.h"

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
    int line;         /* the row's line in a text table; 0 for JSON */
    char pick[24];    /* "nccl-log": NCCL's algorithm/protocol at this size */
    char model_pick[24]; /* show --nccl on a tuning table: the tuner model's pick */
} show_row;

typedef struct {
    char path[1024];
    cv_spec spec;       /* op, algo, ranks, dtype, redop, root, slices */
    char backend[32];
    long iters, warmup; /* -1 when absent */
    int nrows;
    show_row *rows;     /* in increasing size */
    /* Where the rows came from: "collviz" (bench --json), "nccl-tests", or
     * "nccl-log" (NCCL's tuning table: NCCL's own model, not a measurement) */
    char source[16];
    char program[32];   /* nccl-tests' program (all_reduce_perf), if named */
    char version[32];   /* nccl-tests' version, if printed */
    char gpu[64];       /* the first "#  Rank" line's GPU, if any */
    int hosts;          /* distinct hosts in the "#  Rank" lines; 0 unknown */
    bool op_inferred, ranks_inferred; /* from busbw / algbw, not stated */
    char notes[1024];   /* what was assumed or left out, one per line */
    /* The network between nodes when spec.nodes > 1 (set before
     * show_model; has_inter false: one link for every transfer). */
    cv_link inter;
    bool has_inter;
    /* "nccl-log": NCCL's choice at each row's size (rows[i] <-> choice[i]),
     * the collective, the table's line, and how many of NCCL's per-call
     * lines agree with it (of checked). */
    ncclog_choice *choice;
    int coll;
    long table_line;
    int agree, checked;
} show_result;

/* What the command line says where the file does not: -1 or 0 when not
 * given. Only a text table reads them (a bench result states them all). */
typedef struct {
    int op;    /* --op */
    int ranks; /* --ranks */
    int algo;  /* --algo: the algorithm the model prices */
    bool choice; /* --choice: NCCL's tuning table, even where rows are there too */
} show_hints;

/* Reads and checks path: JSON when its first character is "{", else
 * nccl-tests' text. h may be NULL. CV_OK, or CV_EINVAL with
 * "path:line:col: reason" ("path: reason" where it has no place) in err;
 * *out is then empty (show_result_destroy is still safe). */
int show_load(const char *path, const show_hints *h, show_result *out, char *err, size_t errlen);
/* The same from text already in memory (path only names it in errors). */
int show_parse(const char *path, const char *text, size_t len, const show_hints *h,
               show_result *out, char *err, size_t errlen);
/* NCCL's tuning table in an NCCL_DEBUG=INFO log (show_choice.c): NCCL's
 * choice of algorithm and protocol by size, as rows. */
int show_parse_ncclog(const char *path, const char *text, size_t len, const show_hints *h,
                      show_result *out, char *err, size_t errlen);
/* Whether text holds NCCL's tuning table (a cheap look, before reading). */
bool show_has_tuning(const char *text, size_t len);
/* The tooltip and the marks of a choice chart: the row's pick and the
 * times of every algorithm and protocol; the sizes where the pick changes,
 * labelled with the new pick (labels point into r, marks has room for
 * NCCLOG_CHOICE_SIZES). Returns the marks written. */
void show_choice_tooltip(const show_result *r, int i, char *out, size_t len);
int show_choice_marks(const show_result *r, double *sizes, const char **labels, int max);
/* nccl-tests' text alone (show_nccltests.c). */
int show_parse_nccltests(const char *path, const char *text, size_t len, const show_hints *h,
                         show_result *out, char *err, size_t errlen);
void show_result_destroy(show_result *r);

/* The link a backend's result is priced on when none is given: nvlink4
 * for cuda and nccl (the GPUs collviz is measured on); NULL for the CPU,
 * whose limit is memory, which no link preset models. */
const cv_link *show_default_link(const char *backend);
/* The links a result's GPU suggests from its name ("NVIDIA H100 80GB
 * HBM3": nvlink4 inside a node, ib-ndr between nodes), with the words
 * saying why in why; NULL where the name is not one collviz knows. */
const cv_link *show_gpu_link(const char *gpu, const cv_link **inter, char *why, size_t len);
/* Rebuilds the plan of each row from the spec and its size and prices it
 * on link (model_us, model_busbw): every row, or, where that would take
 * more than about two seconds, rows spread evenly from the first to the
 * last (the others keep -1); *priced says how many. CV_EINVAL with "path:
 * reason" when a size cannot be planned (not a whole number of elements
 * per rank). */
int show_model(show_result *r, const cv_link *link, int *priced, char *err, size_t errlen);
/* Instead of collviz's plan, NCCL's own choice at each row's size as its
 * tuner would make it on sys (app/ncclog/ncclog_tuner.c), with only as
 * NCCL_ALGO (may be NULL): model_us and model_busbw of every row, the pick
 * in each row's pick, a line on what was priced in about. CV_EINVAL with
 * why in err for an op the tuner does not price or ranks that differ. */
int show_model_nccl(show_result *r, const ncclog_system *sys, const char *only, char *about,
                    size_t alen, char *err, size_t errlen);

/* "AllReduce ring, 4 ranks, float32 sum, backend cpu" */
void show_title(const show_result *r, char *out, size_t outlen);
/* Where a text table came from: "all_reduce_perf, nccl-tests 2.20.0, 2 x
 * NVIDIA GB10 on 2 hosts"; empty for a bench result. */
void show_origin(const show_result *r, char *out, size_t outlen);
/* Rows as a table, with the model's columns when show_model has run. */
void show_print_table(FILE *out, const show_result *r, const char *model_about);

#endif /* SHOW_H */
