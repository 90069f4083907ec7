/*
 * show_nccltests.c: the text table that nccl-tests prints (all_reduce_perf
 * and its siblings), read for `collviz show` (show.h) as people paste it.
 *
 * A paste is rarely the whole output: it may start mid-table, carry a
 * launcher's prefix on every line ("[1,0]<stdout>:", "0: ", a timestamp,
 * "[0]" glued between columns where ranks' output interleaved), lose its
 * "#" to a Markdown renderer, come from a 2017 build (time in ms, an error
 * column instead of a count of wrong elements) or a 2025 one (a version
 * line, per-iteration columns), or hold several tests one after another.
 * So a row is found by its shape, not its position: two whole numbers
 * (size, count), then a type nccl-tests knows, then an optional reduction
 * and root, then time, algbw, busbw and #wrong; the column header, where
 * present, says which columns there are and in which order. The rest of
 * the output supplies what the rows leave out: the program's name (hence
 * the op), the "#  Rank" lines (ranks, hosts, the GPU), "nThread"/"nGpus",
 * iterations. What is still unknown is inferred where the numbers decide
 * it (busbw = algbw x the op's factor fixes the rank count of most ops)
 * and otherwise asked for (--op, --ranks), never guessed silently: every
 * assumption is a note printed beside the chart.
 */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "show.h"

#define NT_LINE 2048 /* longer lines are cut here (none of nccl-tests' rows comes close) */
#define NT_TOKS 64
#define NT_COLS 48

typedef struct {
    char *t[NT_TOKS];
    int n;
} nt_toks;

/* One table being read: its columns (from the header) and its series. */
typedef struct {
    char cols[NT_COLS][16];
    int ncols;        /* 0: no header seen, columns found by shape */
    bool in_place_first;
    double time_scale; /* 1000 where the units line says (ms) */
    bool error_column; /* "error"/"res": the largest error, not a count */
} nt_header;

typedef struct {
    const char *path;
    const show_hints *hints;
    show_result *r;
    char *err;
    size_t errlen;
    nt_header head;
    /* the series shown: the first (type, redop, root) met */
    char type[16], redop[16];
    int root;
    bool have_type, have_redop, have_root;
    int other_rows, zero_rows, header_line;
    int nul_lines, first_nul; /* lines holding a NUL byte, skipped; the first */
    char other_series[64];
    /* Rank lines */
    int rank_lines, ranks_seen[CV_MAX_RANKS + 1];
    long beyond, beyond_line; /* the highest rank number past CV_MAX_RANKS, and its line */
    char beyond_text[24];     /* ... as the line writes it */
    char hosts[16][64];
    int nhosts, dup_rank_hosts;
    int nthread, ngpus;
    bool done;       /* a second test began after this one's rows */
    int more_tests;
    double alg_eps, bus_eps; /* largest half-unit of the printed algbw, busbw */
} nt_reader;

__attribute__((format(printf, 3, 4))) static int nt_fail(nt_reader *c, int line, const char *fmt,
                                                         ...)
{
    char raw[1024];
    int n = line > 0 ? snprintf(raw, sizeof raw, "%s:%d: ", c->path, line)
                     : snprintf(raw, sizeof raw, "%s: ", c->path);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof raw)
        vsnprintf(raw + n, sizeof raw - (size_t)n, fmt, ap);
    va_end(ap);
    cli_escape(raw, c->err, c->errlen);
    return CV_EINVAL;
}

/* A note for the reader of the chart: what was assumed or left out. */
__attribute__((format(printf, 2, 3))) static void nt_note(show_result *r, const char *fmt, ...)
{
    size_t used = strlen(r->notes);
    if (used + 2 >= sizeof r->notes)
        return;
    if (used)
        r->notes[used++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->notes + used, sizeof r->notes - used, fmt, ap);
    va_end(ap);
}

/* Launcher tags are blanked: "[1,0]<stdout>:" (Open MPI's --tag-output)
 * and "[N]" wherever it stands, also glued to a column ("-1[0]"), as
 * interleaved output leaves it. Brackets holding anything else ("[0x16]",
 * "[0002:00:01]" of the Rank lines) stay. */
static void blank_tags(char *s)
{
    for (char *p = s; (p = strchr(p, '[')) != NULL;) {
        char *q = p + 1;
        while (isdigit((unsigned char)*q) || *q == ',')
            q++;
        if (q > p + 1 && *q == ']') {
            q++;
            if (!strncmp(q, "<stdout>:", 9) || !strncmp(q, "<stderr>:", 9))
                q += 9;
            memset(p, ' ', (size_t)(q - p));
        }
        p = q;
    }
}

static void split(char *s, nt_toks *t)
{
    t->n = 0;
    for (char *p = strtok(s, " \t\r\n|"); p && t->n < NT_TOKS; p = strtok(NULL, " \t\r\n|"))
        t->t[t->n++] = p;
}

static bool is_uint(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

static bool is_int(const char *s) { return is_uint(*s == '-' ? s + 1 : s); }

/* A number as nccl-tests prints one; *half is half its last printed
 * digit (0.005 for "12.34"), the rounding it carries. */
static bool number(const char *s, double *v, double *half)
{
    char *end;
    *v = strtod(s, &end);
    if (end == s || *end || !isfinite(*v))
        return false;
    if (half) {
        const char *dot = strchr(s, '.'), *e = strpbrk(s, "eE");
        int decimals = dot ? (int)((e ? e : s + strlen(s)) - dot - 1) : 0;
        *half = e ? fabs(*v) * 0.5 : 0.5 * pow(10, -decimals);
    }
    return true;
}

/* nccl-tests' type names, old and new, as collviz's dtypes; fp8 and the
 * unsigned types have no dtype of their own here and are priced by size. */
static int nt_dtype(const char *s, bool *by_size)
{
    static const struct {
        const char *name;
        cv_dtype d;
        bool by_size;
    } map[] = {
        {"int8", CV_INT8, 0},       {"char", CV_INT8, 0},        {"uint8", CV_INT8, 1},
        {"int32", CV_INT32, 0},     {"int", CV_INT32, 0},        {"uint32", CV_INT32, 1},
        {"uint", CV_INT32, 1},      {"int64", CV_INT64, 0},      {"uint64", CV_INT64, 1},
        {"half", CV_FLOAT16, 0},    {"float16", CV_FLOAT16, 0},  {"float", CV_FLOAT32, 0},
        {"float32", CV_FLOAT32, 0}, {"double", CV_FLOAT64, 0},   {"float64", CV_FLOAT64, 0},
        {"bfloat16", CV_BFLOAT16, 0}, {"f8e4m3", CV_INT8, 1},    {"f8e5m2", CV_INT8, 1},
        {"fp8_e4m3", CV_INT8, 1},   {"fp8_e5m2", CV_INT8, 1},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(s, map[i].name)) {
            *by_size = map[i].by_size;
            return (int)map[i].d;
        }
    return -1;
}

static bool nt_redop_name(const char *s)
{
    static const char *const names[] = {"sum", "prod", "max", "min", "avg", "none",
                                        "premulsum", "mulsum", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(s, names[i]))
            return true;
    return false;
}

/* The nccl-tests program named anywhere in the line ("./build/all_gather_perf
 * -b 16M", "# Collective test starting: all_reduce_perf"), as an op. */
static int program_op(const char *line, char *name, size_t len)
{
    static const struct {
        const char *prog;
        cv_op op;
    } map[] = {
        {"all_reduce_perf", CV_OP_ALLREDUCE},         {"all_gather_perf", CV_OP_ALLGATHER},
        {"reduce_scatter_perf", CV_OP_REDUCESCATTER}, {"alltoall_perf", CV_OP_ALLTOALL},
        {"broadcast_perf", CV_OP_BROADCAST},          {"reduce_perf", CV_OP_REDUCE},
        {"scatter_perf", CV_OP_SCATTER},              {"gather_perf", CV_OP_GATHER},
        {"sendrecv_perf", CV_OP_SENDRECV},
    };
    const char *best = NULL;
    int op = -1;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        const char *p = strstr(line, map[i].prog);
        /* reduce_perf sits inside all_reduce_perf: the match must start a word */
        while (p && p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            p = strstr(p + 1, map[i].prog);
        if (p && (!best || p < best)) {
            best = p;
            op = (int)map[i].op;
            snprintf(name, len, "%s", map[i].prog);
        }
    }
    return op;
}

/* "#  Rank  3 Group  0 Pid  28307 on  gpu59 device  3 [0x5a] NVIDIA GeForce
 * RTX 4090" (older builds print no Group; a Markdown paste may lose "#"). */
static void rank_line(nt_reader *c, const char *line, int lineno)
{
    char copy[NT_LINE];
    snprintf(copy, sizeof copy, "%s", line);
    nt_toks t;
    split(copy, &t);
    long rank = -1;
    const char *host = NULL;
    for (int i = 0; i + 1 < t.n; i++) {
        if (!strcmp(t.t[i], "Rank") && is_uint(t.t[i + 1]) && rank < 0)
            rank = strlen(t.t[i + 1]) > 9 ? 999999999 : atol(t.t[i + 1]);
        if (!strcmp(t.t[i], "on") && !host)
            host = t.t[i + 1];
    }
    if (rank > CV_MAX_RANKS && rank > c->beyond) { /* counted, not kept: said in ranks_stated */
        c->beyond = rank;
        c->beyond_line = lineno;
        for (int i = 0; i + 1 < t.n; i++)
            if (!strcmp(t.t[i], "Rank")) {
                snprintf(c->beyond_text, sizeof c->beyond_text, "%.20s%s", t.t[i + 1],
                         strlen(t.t[i + 1]) > 20 ? "..." : "");
                break;
            }
    }
    if (rank < 0 || rank > CV_MAX_RANKS)
        return;
    const char *bracket = strchr(line, ']');
    if (bracket && !c->r->gpu[0]) {
        char gpu[128];
        snprintf(gpu, sizeof gpu, "%s", bracket + 1);
        char *s = gpu, *e = gpu + strlen(gpu);
        while (*s == ' ')
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        cli_escape(s, c->r->gpu, sizeof c->r->gpu);
    }
    int h = 0;
    while (host && h < c->nhosts && strcmp(c->hosts[h], host))
        h++;
    if (host && h == c->nhosts && c->nhosts < 16)
        snprintf(c->hosts[c->nhosts++], sizeof c->hosts[0], "%s", host);
    if (c->ranks_seen[rank])
        c->dup_rank_hosts++;
    c->ranks_seen[rank] = 1;
    c->rank_lines++;
}

/* The column header ("size count type redop root time algbw busbw #wrong
 * ..."), the units line under it and the out-of-place/in-place line above. */
static bool header_line(nt_reader *c, const char *line, int lineno)
{
    char copy[NT_LINE];
    snprintf(copy, sizeof copy, "%s", line);
    nt_toks t;
    split(copy, &t);
    if (strstr(line, "out-of-place") && strstr(line, "in-place")) {
        c->head.in_place_first = strstr(line, "in-place") < strstr(line, "out-of-place");
        return true;
    }
    if (strstr(line, "(B)") || strstr(line, "(us)") || strstr(line, "(ms)")) {
        c->head.time_scale = strstr(line, "(ms)") ? 1000 : 1;
        return true;
    }
    bool size = false, time = false, bw = false;
    for (int i = 0; i < t.n; i++) {
        size |= !strcmp(t.t[i], "size") || !strcmp(t.t[i], "bytes");
        time |= !strcmp(t.t[i], "time") || !strcmp(t.t[i], "cputime");
        bw |= !strcmp(t.t[i], "algbw");
    }
    if (!(size && time && bw))
        return false;
    int first = 0;
    while (first < t.n && strcmp(t.t[first], "size") && strcmp(t.t[first], "bytes"))
        first++;
    c->head.ncols = 0;
    for (int i = first; i < t.n && c->head.ncols < NT_COLS; i++)
        snprintf(c->head.cols[c->head.ncols++], sizeof c->head.cols[0], "%s", t.t[i]);
    c->head.error_column = false;
    for (int i = 0; i < c->head.ncols; i++)
        if (!strcmp(c->head.cols[i], "error") || !strcmp(c->head.cols[i], "res"))
            c->head.error_column = true;
    /* the 2017 header names no units line: its times were milliseconds */
    if (!strcmp(c->head.cols[0], "bytes"))
        c->head.time_scale = 1000;
    if (!c->header_line)
        c->header_line = lineno;
    return true;
}

/* "# nThread 1 nGpus 8 minBytes 8 ... warmup iters: 5 iters: 20 ..." and
 * "# nccl-tests version 2.20.0 (b4d5bee) nccl-headers=..." */
static bool setup_line(nt_reader *c, const char *line)
{
    const char *v = strstr(line, "nccl-tests version ");
    if (v) {
        char ver[32];
        if (sscanf(v + 19, "%31s", ver) == 1)
            cli_escape(ver, c->r->version, sizeof c->r->version);
        return true;
    }
    if (!strstr(line, "nThread") || !strstr(line, "nGpus"))
        return false;
    const char *p;
    if ((p = strstr(line, "nThread ")))
        c->nthread = atoi(p + 8);
    if ((p = strstr(line, "nGpus ")))
        c->ngpus = atoi(p + 6);
    if ((p = strstr(line, "warmup iters: ")))
        c->r->warmup = atol(p + 14);
    for (p = line; (p = strstr(p, "iters: ")) != NULL; p += 7)
        if (p - line < 7 || strncmp(p - 7, "warmup ", 7)) {
            if (p - line < 4 || strncmp(p - 4, "agg ", 4)) {
                c->r->iters = atol(p + 7);
                break;
            }
        }
    return true;
}

static int column(const nt_header *h, const char *a, const char *b)
{
    for (int i = 0; i < h->ncols; i++)
        if (!strcmp(h->cols[i], a) || (b && !strcmp(h->cols[i], b)))
            return i;
    return -1;
}

/* Where a row's fields are, as offsets from its size column. */
typedef struct {
    int type, redop, root, time; /* -1: not there */
    bool error_column;
} nt_layout;

/* The layout from the header when there is one, else from the row's own
 * shape: after the type, a reduction's name, then numbers: a root where
 * their count is one more than whole groups of four. */
static bool row_layout(const nt_reader *c, const nt_toks *t, int i, nt_layout *l)
{
    const nt_header *h = &c->head;
    if (h->ncols) {
        l->type = column(h, "type", NULL);
        l->redop = column(h, "redop", "op");
        l->root = column(h, "root", NULL);
        l->time = column(h, "time", "cputime");
        l->error_column = h->error_column;
        return l->time > 0 && i + l->time + 2 < t->n;
    }
    l->type = 2;
    l->redop = l->root = -1;
    int j = 3;
    if (i + j < t->n && nt_redop_name(t->t[i + j]))
        l->redop = j++;
    int m = 0;
    double v;
    while (i + j + m < t->n && (number(t->t[i + j + m], &v, NULL) || !strcmp(t->t[i + j + m], "N/A")))
        m++;
    if (m % 4 == 1 && is_int(t->t[i + j]))
        l->root = j++, m--;
    l->time = j;
    l->error_column = m >= 4 && strpbrk(t->t[i + j + 3], "eE") != NULL;
    return m >= 3;
}

/* The start of a row: size and count, whole numbers, then a known type
 * (or, where the header names no type column, the next column). */
static int row_start(const nt_reader *c, const nt_toks *t)
{
    bool typeless = c->head.ncols && column(&c->head, "type", NULL) < 0;
    double v;
    bool by_size;
    for (int i = 0; i + 2 < t->n; i++)
        if (is_uint(t->t[i]) && is_uint(t->t[i + 1]) &&
            (typeless ? number(t->t[i + 2], &v, NULL) : nt_dtype(t->t[i + 2], &by_size) >= 0))
            return i;
    return -1;
}

/* Whether the row belongs to the series shown (the first met). */
static bool same_series(nt_reader *c, const char *type, const char *redop, int root)
{
    if (!c->r->nrows && !c->zero_rows && !c->other_rows) {
        snprintf(c->type, sizeof c->type, "%s", type ? type : "");
        snprintf(c->redop, sizeof c->redop, "%s", redop ? redop : "");
        c->root = root;
        c->have_type = type != NULL, c->have_redop = redop != NULL;
        return true;
    }
    if (strcmp(c->type, type ? type : "") || strcmp(c->redop, redop ? redop : "") ||
        c->root != root) {
        if (!c->other_rows++)
            snprintf(c->other_series, sizeof c->other_series, "%.15s %.15s root %d",
                     type ? type : "-", redop ? redop : "-", root);
        return false;
    }
    return true;
}

/* 1: a row taken (or counted and left out), 0: not a row, CV_EINVAL. */
static int data_row(nt_reader *c, nt_toks *t, int lineno)
{
    int i = row_start(c, t);
    nt_layout l;
    if (i < 0 || !row_layout(c, t, i, &l))
        return 0;
    const char *type = l.type >= 0 && i + l.type < t->n ? t->t[i + l.type] : NULL;
    const char *redop = l.redop >= 0 && i + l.redop < t->n ? t->t[i + l.redop] : NULL;
    int root = l.root >= 0 && i + l.root < t->n && is_int(t->t[i + l.root])
                   ? atoi(t->t[i + l.root]) : -1;
    if (l.root >= 0)
        c->have_root = true; /* a root column: -1 says the op has none */
    if (l.error_column)
        c->head.error_column = true;
    double size, count, tm, alg, bus, ah, bh, wrong = -1;
    if (!number(t->t[i], &size, NULL) || !number(t->t[i + 1], &count, NULL) ||
        !number(t->t[i + l.time], &tm, NULL) || !number(t->t[i + l.time + 1], &alg, &ah) ||
        !number(t->t[i + l.time + 2], &bus, &bh))
        return 0; /* "N/A" where a trace replay leaves out-of-place blank, or a cut line */
    if (i + l.time + 3 < t->n && !l.error_column && strcmp(t->t[i + l.time + 3], "N/A") &&
        !number(t->t[i + l.time + 3], &wrong, NULL))
        wrong = -1;
    if (tm < 0 || alg < 0 || bus < 0 || wrong < -1)
        return nt_fail(c, lineno, "a row with a negative time or bandwidth (%s us, %s GB/s)",
                       t->t[i + l.time], t->t[i + l.time + 1]);
    /* the bounds bench --json's reader has (show_data.c): beyond them a
     * number is no measurement, and would be drawn as hundreds of digits */
    double scale_us = c->head.time_scale > 0 ? c->head.time_scale : 1;
    if (tm * scale_us > 1e15)
        return nt_fail(c, lineno, "a time of %.40s%s us; allowed: 0 to 1e15 us", t->t[i + l.time],
                       strlen(t->t[i + l.time]) > 40 ? "..." : "");
    if (alg > 1e9 || bus > 1e9)
        return nt_fail(c, lineno, "a bandwidth of %.40s%s GB/s; allowed: 0 to 1e9 GB/s",
                       t->t[i + l.time + (alg > 1e9 ? 1 : 2)],
                       strlen(t->t[i + l.time + (alg > 1e9 ? 1 : 2)]) > 40 ? "..." : "");
    if (!same_series(c, type, redop, root))
        return 1;
    if (size <= 0) {
        c->zero_rows++; /* no place on a log axis */
        return 1;
    }
    if (c->r->nrows == SHOW_MAX_ROWS)
        return nt_fail(c, lineno, "more than %d rows; cut the table into parts", SHOW_MAX_ROWS);
    double scale = c->head.time_scale > 0 ? c->head.time_scale : 1;
    c->r->rows[c->r->nrows++] = (show_row){size, count, tm * scale, alg, bus, wrong, -1, -1, -1,
                                           lineno, "", ""};
    c->alg_eps = fmax(c->alg_eps, ah);
    c->bus_eps = fmax(c->bus_eps, bh);
    return 1;
}

/* A program's name met: the first names the test; one met after rows
 * were taken starts the next test, which ends this one (unless --op asked
 * for another, whose rows are then the ones taken). */
static void program_seen(nt_reader *c, int op, const char *prog, int *current)
{
    if (c->r->nrows > 0 && op != *current) {
        c->done = true;
        return;
    }
    *current = op;
    bool wanted = !c->hints || c->hints->op < 0 || c->hints->op == op;
    if (wanted && !c->r->program[0])
        snprintf(c->r->program, sizeof c->r->program, "%s", prog);
}

static int read_lines(nt_reader *c, const char *text, size_t len)
{
    int lineno = 0, current = -1;
    for (const char *p = text; p < text + len && !c->done; lineno++) {
        const char *e = memchr(p, '\n', (size_t)(text + len - p));
        if (!e)
            e = text + len;
        char line[NT_LINE], prog[32];
        size_t n = (size_t)(e - p) < sizeof line - 1 ? (size_t)(e - p) : sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        bool nul = memchr(p, 0, (size_t)(e - p)) != NULL;
        p = e + 1;
        if (nul) { /* read up to the NUL, a row lost its tail unseen: skipped, and said */
            if (!c->nul_lines++)
                c->first_nul = lineno + 1;
            continue;
        }
        blank_tags(line);
        int op = program_op(line, prog, sizeof prog);
        if (op >= 0)
            program_seen(c, op, prog, &current);
        if (c->done) {
            c->more_tests++;
            break;
        }
        char *hash = strchr(line, '#');
        if (!hash) {
            char copy[NT_LINE];
            memcpy(copy, line, n + 1);
            nt_toks t;
            split(copy, &t);
            bool other_test = c->hints && c->hints->op >= 0 && current >= 0 &&
                              current != c->hints->op;
            int rc = other_test ? 0 : data_row(c, &t, lineno + 1);
            if (rc < 0)
                return rc;
            if (rc > 0 || other_test)
                continue;
        }
        const char *comment = hash ? hash + 1 : line;
        if (strstr(comment, "Rank ") && strstr(comment, " on "))
            rank_line(c, comment, lineno + 1);
        else if (!setup_line(c, comment) && header_line(c, comment, lineno + 1) &&
                 c->r->nrows > 0 && c->head.ncols && strstr(comment, "algbw"))
            c->done = true; /* a second table's header: its rows are another run */
    }
    return CV_OK;
}

/* nccl-tests' busbw factor of op at n ranks (cv_spec_busbw_factor's). */
static double factor(int op, int n)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = (cv_op)op;
    s.ranks = n;
    return cv_spec_busbw_factor(&s);
}

/* Whether every row's busbw is its algbw times op's factor at n ranks,
 * within the rounding of the printed digits. */
static bool fits(const nt_reader *c, int op, int n)
{
    double f = factor(op, n);
    for (int i = 0; i < c->r->nrows; i++) {
        const show_row *w = &c->r->rows[i];
        if (fabs(w->busbw - w->algbw * f) > c->bus_eps + c->alg_eps * f + 1e-9)
            return false;
    }
    return true;
}

/* The ops the row's columns allow: a reduction named or not, a root. */
static unsigned ops_possible(const nt_reader *c)
{
    /* sendrecv_perf prints its -o reduction too, though it reduces nothing */
    unsigned reducing = 1u << CV_OP_ALLREDUCE | 1u << CV_OP_REDUCESCATTER | 1u << CV_OP_REDUCE |
                        1u << CV_OP_SENDRECV;
    unsigned rooted = 1u << CV_OP_BROADCAST | 1u << CV_OP_REDUCE | 1u << CV_OP_SCATTER |
                      1u << CV_OP_GATHER;
    unsigned all = (1u << CV_OP_COUNT) - 1, m = all;
    if (c->have_redop)
        m &= strcmp(c->redop, "none") ? reducing : ~reducing;
    if (c->have_root)
        m &= c->root >= 0 ? rooted : ~rooted;
    return m & all;
}

static void list_ops(unsigned m, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int o = 0; o < CV_OP_COUNT && used < len; o++)
        if (m & 1u << o) {
            int k = snprintf(out + used, len - used, "%s--op %s", used ? " or " : "",
                             cv_op_name((cv_op)o));
            used += k > 0 ? (size_t)k : 0;
        }
}

/* The rank count the file states: --ranks, else the "#  Rank" lines (one
 * each), else nThread x nGpus where one process ran them all; 0 if none. */
static int ranks_stated(nt_reader *c)
{
    if (c->hints && c->hints->ranks > 0)
        return c->hints->ranks;
    if (c->beyond) /* ranks 0 to beyond at least: more than the ranks_seen kept */
        return c->beyond >= 999999999 ? 999999999 : (int)c->beyond + 1;
    int seen = 0;
    for (int i = 0; i <= CV_MAX_RANKS; i++)
        seen += c->ranks_seen[i];
    if (seen && c->dup_rank_hosts)
        nt_note(c->r, "rank %s printed more than once, by processes on %d host%s: nccl-tests "
                      "built without MPI runs each process as its own %d-rank job",
                seen == 1 ? "0 is" : "numbers are", c->nhosts, c->nhosts == 1 ? "" : "s", seen);
    return seen;
}

static int pick_op(nt_reader *c, int ranks, int *op)
{
    unsigned m = ops_possible(c);
    int prog = c->r->program[0] ? program_op(c->r->program, (char[32]){0}, 32) : -1;
    if (c->hints && c->hints->op >= 0)
        m = 1u << c->hints->op;
    else if (prog >= 0)
        m = 1u << prog;
    unsigned fit = 0;
    for (int o = 0; o < CV_OP_COUNT; o++)
        for (int n = ranks ? ranks : 2; (m & 1u << o) && n <= (ranks ? ranks : CV_MAX_RANKS); n++)
            if (fits(c, o, n)) {
                fit |= 1u << o;
                break;
            }
    if (!fit && ranks)
        return nt_fail(c, 0, "busbw is not algbw x %s's factor at %d ranks in these rows; "
                       "give the op (--op) and the rank count (--ranks) the run had",
                       cv_op_name((cv_op)__builtin_ctz(m ? m : 1)), ranks);
    if (!fit)
        return nt_fail(c, 0, "busbw / algbw in these rows fits no op's factor at any rank "
                       "count; give --op and --ranks");
    if (fit & (fit - 1)) {
        char ops[200];
        list_ops(fit, ops, sizeof ops);
        return nt_fail(c, 0, "the rows do not say which collective ran (no program name, and "
                       "busbw = algbw x the same factor for each): pass %s", ops);
    }
    *op = __builtin_ctz(fit);
    c->r->op_inferred = !(c->hints && c->hints->op >= 0) && prog < 0;
    return CV_OK;
}

static int pick_ranks(nt_reader *c, int op, int *ranks)
{
    int cand[4], nc = 0;
    for (int n = 2; n <= CV_MAX_RANKS; n++)
        if (fits(c, op, n) && nc++ < 4)
            cand[nc - 1] = n;
    if (factor(op, 2) == factor(op, 3) || nc == 0)
        return nt_fail(c, 0, "the rank count is not in the file (no \"#  Rank\" lines) and "
                       "busbw does not fix it for %s: pass --ranks N", cv_op_name((cv_op)op));
    if (nc > 1) {
        int pg = c->nthread * c->ngpus;
        for (int k = 0; k < nc && k < 4; k++)
            if (cand[k] == pg) { /* one process ran them all */
                *ranks = pg;
                return CV_OK;
            }
        return nt_fail(c, 0, "the rank count is not in the file (no \"#  Rank\" lines) and "
                       "busbw / algbw fits %d%s%d ranks alike: pass --ranks N", cand[0],
                       nc > 2 ? ", " : " or ", cand[1]);
    }
    *ranks = cand[0];
    c->r->ranks_inferred = true;
    return CV_OK;
}

/* An NCCL_DEBUG=INFO log in the same paste: its one communicator's ranks
 * and nodes fill in what the Rank lines do not say (nccl-tests built with
 * MPI prints no Rank lines of other processes when only one's output is
 * pasted). */
static void log_in_paste(nt_reader *c, const char *text, size_t len, int *ranks)
{
    if (!memmem(text, len, "NCCL INFO", 9))
        return;
    FILE *in = fmemopen((void *)text, len, "r");
    ncclog *log = in ? calloc(1, sizeof *log) : NULL;
    char err[256];
    if (log && ncclog_read(in, c->path, log, err, sizeof err) == 0 && log->ncomms == 1) {
        const ncclog_comm *k = &log->comms[0];
        int nodes = k->nnodes_said > 0 ? k->nnodes_said : k->nnodes;
        if (!*ranks && k->nranks >= 2 && k->nranks <= CV_MAX_RANKS) {
            *ranks = k->nranks;
            nt_note(c->r, "%d ranks: from the NCCL log in the same file (line %ld)", k->nranks,
                    k->first_line);
        }
        if (c->nhosts <= 1 && nodes > 1 && *ranks && *ranks % nodes == 0) {
            c->r->spec.nodes = nodes;
            c->r->hosts = nodes;
            nt_note(c->r, "%d nodes: from the NCCL log in the same file", nodes);
        }
    }
    if (log)
        ncclog_destroy(log);
    free(log);
    if (in)
        fclose(in);
}

/* The dtype: the type column's, else the bytes per element the sizes show. */
static int pick_dtype(nt_reader *c, int op, int ranks, cv_dtype *d)
{
    bool by_size = false;
    int k = c->have_type ? nt_dtype(c->type, &by_size) : -1;
    if (k >= 0) {
        if (by_size)
            nt_note(c->r, "type %s has no dtype of its own here: priced as %s, the same size",
                    c->type, cv_dtype_name((cv_dtype)k));
        *d = (cv_dtype)k;
        return CV_OK;
    }
    const show_row *w = &c->r->rows[c->r->nrows - 1];
    double per = w->count > 0 ? w->size / w->count : 0;
    if (cv_op_bench_per_rank((cv_op)op) && ranks > 0)
        per /= ranks;
    static const cv_dtype by_bytes[] = {CV_INT8, CV_FLOAT16, CV_FLOAT32, CV_FLOAT64};
    for (int i = 0; i < 4; i++)
        if (per == (double)(1 << i)) {
            *d = by_bytes[i];
            nt_note(c->r, "the table names no type: %s assumed from its %d bytes per element",
                    cv_dtype_name(*d), 1 << i);
            return CV_OK;
        }
    *d = CV_FLOAT32;
    nt_note(c->r, "the table names no type: float32 assumed");
    return CV_OK;
}

static int cmp_rows(const void *a, const void *b)
{
    double x = ((const show_row *)a)->size, y = ((const show_row *)b)->size;
    return (x > y) - (x < y);
}

static void finish_notes(nt_reader *c)
{
    show_result *r = c->r;
    if (c->other_rows)
        nt_note(r, "%d rows of other series (the first: %s) are left out; the chart shows %s "
                   "%s%s", c->other_rows, c->other_series, c->type, c->redop,
                c->have_root ? " with its root" : "");
    if (c->zero_rows)
        nt_note(r, "%d rows of size 0 are left out (no place on a log axis)", c->zero_rows);
    if (c->nul_lines)
        nt_note(r,
                "%d line%s holding NUL bytes %s skipped (the first is line %d): a NUL is "
                "no text nccl-tests prints",
                c->nul_lines, c->nul_lines == 1 ? "" : "s", c->nul_lines == 1 ? "is" : "are",
                c->first_nul);
    if (c->done)
        nt_note(r, "the file holds another test after this one; the first is shown%s",
                c->hints && c->hints->op >= 0 ? "" : " (--op picks another)");
    if (c->head.in_place_first)
        nt_note(r, "this table prints in-place first: those are the columns shown");
    if (c->head.error_column)
        nt_note(r, "this nccl-tests prints the largest error, not a count of wrong elements: "
                   "rows are shown as not verified");
    if (r->ranks_inferred)
        nt_note(r, "%d ranks: the only count at which busbw = algbw x %s's factor in every row",
                r->spec.ranks, cv_op_name(r->spec.op));
    if (r->op_inferred)
        nt_note(r, "%s: the only collective whose busbw factor and columns fit the rows (no "
                   "program name in the file)", cv_op_name(r->spec.op));
}

static int finish(nt_reader *c, const char *text, size_t len)
{
    show_result *r = c->r;
    if (!r->nrows && (c->other_rows || c->zero_rows))
        return nt_fail(c, 0, "no row of a size above 0 in the series shown");
    if (!r->nrows)
        return nt_fail(c, c->header_line, "%s", c->header_line
                       ? "a column header but no rows under it (lines like \"8 2 float sum -1 "
                         "42.56 0.00 0.00 0\")"
                       : "neither the JSON of collviz bench --json nor nccl-tests' output (no "
                         "lines like \"8 2 float sum -1 42.56 0.00 0.00 0\")");
    qsort(r->rows, (size_t)r->nrows, sizeof *r->rows, cmp_rows);
    int ranks = ranks_stated(c), op = 0, log_nodes;
    log_in_paste(c, text, len, &ranks);
    log_nodes = r->spec.nodes; /* cv_spec_init below clears it */
    if (ranks > CV_MAX_RANKS && c->beyond && !(c->hints && c->hints->ranks > 0))
        return nt_fail(c, (int)c->beyond_line,
                       "a \"#  Rank\" line names rank %s; collviz models at most %d ranks "
                       "(0 to %d)",
                       c->beyond_text, CV_MAX_RANKS, CV_MAX_RANKS - 1);
    if (ranks > CV_MAX_RANKS)
        return nt_fail(c, 0, "%d ranks; collviz models at most %d", ranks, CV_MAX_RANKS);
    if (pick_op(c, ranks, &op) != CV_OK || (!ranks && pick_ranks(c, op, &ranks) != CV_OK))
        return CV_EINVAL;
    cv_spec_init(&r->spec);
    r->spec.op = (cv_op)op;
    r->spec.ranks = ranks;
    cv_algo algos[CV_ALGO_COUNT];
    int na = cv_op_algos(r->spec.op, algos);
    r->spec.algo = cv_op_has_algo(r->spec.op, CV_ALGO_RING) ? CV_ALGO_RING : algos[0];
    (void)na;
    if (c->hints && c->hints->algo >= 0) {
        if (!cv_op_has_algo(r->spec.op, (cv_algo)c->hints->algo))
            return nt_fail(c, 0, "--algo %s is not an algorithm of %s (see collviz list)",
                           cv_algo_name((cv_algo)c->hints->algo), cv_op_name(r->spec.op));
        r->spec.algo = (cv_algo)c->hints->algo;
    }
    if (pick_dtype(c, op, ranks, &r->spec.dtype) != CV_OK)
        return CV_EINVAL;
    int redop = c->have_redop ? cv_redop_parse(c->redop) : -1;
    if (redop >= 0 && cv_op_reduces(r->spec.op))
        r->spec.redop = (cv_redop)redop;
    else if (c->have_redop && cv_op_reduces(r->spec.op))
        nt_note(r, "reduction %s is priced as sum (the same traffic)", c->redop);
    r->spec.root = c->root >= 0 && c->root < ranks && cv_op_has_root(r->spec.op) ? c->root : 0;
    if (c->nhosts > 1)
        r->hosts = c->nhosts;
    if (c->nhosts > 1 && ranks % c->nhosts == 0)
        r->spec.nodes = c->nhosts;
    else if (log_nodes > 1)
        r->spec.nodes = log_nodes;
    snprintf(r->backend, sizeof r->backend, "nccl");
    snprintf(r->source, sizeof r->source, "nccl-tests");
    finish_notes(c);
    return CV_OK;
}

int show_parse_nccltests(const char *path, const char *text, size_t len, const show_hints *h,
                         show_result *out, char *err, size_t errlen)
{
    nt_reader *c = calloc(1, sizeof *c);
    out->rows = calloc(SHOW_MAX_ROWS, sizeof *out->rows);
    if (!c || !out->rows) {
        free(c);
        snprintf(err, errlen, "%s: out of memory", path);
        return CV_ENOMEM;
    }
    *c = (nt_reader){.path = path, .hints = h, .r = out, .err = err, .errlen = errlen};
    out->iters = out->warmup = -1;
    int rc = read_lines(c, text, len);
    if (rc == CV_OK)
        rc = finish(c, text, len);
    free(c);
    if (rc != CV_OK)
        show_result_destroy(out);
    return rc;
}
