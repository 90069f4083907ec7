/*
 * rd_chunks.c: the chunks of a buffer as the source notes draw them and the
 * words for what a cell holds: which chunk (letter) an element belongs to by
 * the op's natural partition, the elements of one chunk, how a buffer splits
 * into chunk blocks, a chunk's name ("a", "#63:") and a cell's label with
 * the ranks whose inputs it holds ("c0-3"), and how a value is written
 * (whole numbers in full). Plan and trace in, words out: nothing placed or
 * drawn.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- chunks */

int rd__chunk_of(const cv_spec *spec, cv_buf buf, int rank, int64_t i)
{
    int64_t n = spec->ranks, c = spec->count > 0 ? spec->count : 1;
    if (buf == CV_BUF_SCRATCH)
        return -1;
    switch (spec->op) {
    case CV_OP_ALLGATHER:
    case CV_OP_GATHER: return buf == CV_BUF_SEND ? rank : (int)(i / c);
    case CV_OP_REDUCESCATTER:
    case CV_OP_ALLTOALL:
    case CV_OP_SCATTER: return buf == CV_BUF_SEND ? (int)(i / c) : rank;
    default: return (int)(i * n / c);
    }
}

void rd_chunk_range(const cv_spec *spec, cv_buf b, int rank, int64_t e, int64_t *first,
                    int64_t *count)
{
    int64_t n = cv_spec_buf_count(spec, b, rank);
    int c = rd__chunk_of(spec, b, rank, e);
    int64_t lo = e, hi = e;
    while (c >= 0 && lo > 0 && rd__chunk_of(spec, b, rank, lo - 1) == c)
        lo--;
    while (c >= 0 && hi + 1 < n && rd__chunk_of(spec, b, rank, hi + 1) == c)
        hi++;
    *first = lo;
    *count = hi - lo + 1;
}

/* How a buffer splits into chunk blocks: n chunks of the op's default
 * partition (part = the count), count/c chunks of c for the per-rank
 * layouts (group = c), or none worth drawing as blocks. */
void rd__chunk_blocks(const cv_spec *spec, cv_buf b, int64_t cnt, int *nchunks, int64_t *part,
                      int64_t *group)
{
    int n = spec->ranks;
    int64_t c = spec->count > 0 ? spec->count : 1;
    *nchunks = 0, *part = 0, *group = 1;
    if (b == CV_BUF_SCRATCH || cnt <= 1)
        return;
    int first = rd__chunk_of(spec, b, 0, 0), last = rd__chunk_of(spec, b, 0, cnt - 1);
    if (first == last) {
        *nchunks = 1; /* one chunk: one block */
        *group = cnt;
        return;
    }
    switch (spec->op) {
    case CV_OP_ALLGATHER:
    case CV_OP_GATHER:
    case CV_OP_REDUCESCATTER:
    case CV_OP_ALLTOALL:
    case CV_OP_SCATTER:
        *nchunks = (int)((cnt + c - 1) / c);
        *group = c;
        return;
    default:
        if (cnt < n)
            return; /* every element a chunk of its own: cells already */
        *nchunks = n;
        *part = cnt;
        *group = (cnt + n - 1) / n;
        return;
    }
}

/* ----------------------------------------------------------------- names */

void rd_chunk_name(int chunk, char *out, size_t outlen)
{
    if (chunk < 0)
        snprintf(out, outlen, "?");
    else if (chunk < 26)
        snprintf(out, outlen, "%c", 'a' + chunk);
    else if (chunk < 52)
        snprintf(out, outlen, "%c", 'A' + chunk - 26);
    else
        snprintf(out, outlen, "#%d", chunk);
}

void rd_chunk_prefix(int chunk, char *out, size_t outlen)
{
    rd_chunk_name(chunk, out, outlen);
    if (chunk >= 52) {
        size_t len = strlen(out);
        snprintf(out + len, outlen - len, ":");
    }
}

/* Ranks as a learner reads them: "0+2+3" with sep "+", runs of three or
 * more as "0-3", so a ring's partial sum "c14-15+0-1" stays short; the
 * tooltip's "0-3, 5, 7" with sep ", ". */
size_t rd__rank_runs(uint64_t mask, const char *sep_between, char *out, size_t outlen)
{
    size_t len = 0;
    out[0] = '\0';
    for (int r = 0; r < 64 && len + 6 + 2 * strlen(sep_between) < outlen;) {
        if (!(mask >> r & 1)) {
            r++;
            continue;
        }
        int e = r;
        while (e + 1 < 64 && (mask >> (e + 1) & 1))
            e++;
        const char *sep = len ? sep_between : "";
        if (e - r >= 2)
            len += (size_t)snprintf(out + len, outlen - len, "%s%d-%d", sep, r, e);
        else if (e == r + 1)
            len += (size_t)snprintf(out + len, outlen - len, "%s%d%s%d", sep, r, sep_between, e);
        else
            len += (size_t)snprintf(out + len, outlen - len, "%s%d", sep, r);
        r = e + 1;
    }
    return len;
}

void rd_chunk_label(const cv_spec *spec, cv_buf b, int rank, int64_t i, uint64_t mask, char *out,
                    size_t outlen)
{
    out[0] = '\0';
    if (!mask || outlen < 4)
        return;
    int chunk = rd__chunk_of(spec, b, rank, i);
    if (chunk < 0) {
        /* Scratch layouts are the algorithm's own: no chunk letter, just
         * the set of ranks. */
        char ranks[192];
        rd__rank_runs(mask, "+", ranks, sizeof ranks);
        snprintf(out, outlen, "{%s}", ranks);
        return;
    }
    char letter[16];
    rd_chunk_prefix(chunk, letter, sizeof letter);
    size_t len = (size_t)snprintf(out, outlen, "%s", letter);
    if (len < outlen)
        rd__rank_runs(mask, "+", out + len, outlen - len);
}

/* ---------------------------------------------------------------- values */

void rd_value_text(cv_dtype dtype, const void *values, int64_t i, char *out, size_t outlen)
{
    if (cv_dtype_is_float(dtype)) {
        double v = cv_value_get(dtype, values, i);
        if (v == floor(v) && fabs(v) < 1e7) {
            snprintf(out, outlen, "%.0f", v == 0 ? 0.0 : v); /* 12240, not 1.224e+04 */
            return;
        }
    }
    cv_value_format(dtype, values, i, out, outlen);
}

void rd_trace_widest(const cv_trace *t, cv_state *view, char *out, size_t outlen)
{
    const cv_plan *plan = cv_trace_plan(t);
    int n = plan->spec.ranks;
    char val[48];
    size_t best = 0;
    snprintf(out, outlen, "0");
    /* Every element at the start, then what each step writes. */
    for (int k = 0; k <= plan->nsteps; k++) {
        cv_state_seek(view, k);
        if (k == 0) {
            for (int r = 0; r < n; r++)
                for (int b = 0; b < CV_BUF_COUNT; b++) {
                    cv_bufview v = cv_state_buf(view, r, (cv_buf)b);
                    for (int64_t i = 0; v.values && i < v.count; i++) {
                        rd_value_text(plan->spec.dtype, v.values, i, val, sizeof val);
                        if (strlen(val) > best) {
                            best = strlen(val);
                            snprintf(out, outlen, "%s", val);
                        }
                    }
                }
            continue;
        }
        const cv_step *st = &plan->steps[k - 1];
        for (int64_t x = st->first; x < st->first + st->count; x++) {
            const cv_transfer *tr = &plan->transfers[x];
            cv_bufview v = cv_state_buf(view, tr->dst, (cv_buf)tr->dst_buf);
            for (int64_t i = tr->dst_off; v.values && i < tr->dst_off + tr->count && i < v.count;
                 i++) {
                rd_value_text(plan->spec.dtype, v.values, i, val, sizeof val);
                if (strlen(val) > best) {
                    best = strlen(val);
                    snprintf(out, outlen, "%s", val);
                }
            }
        }
    }
    /* Digits are what differ: a string of the widest digit as long. */
    for (size_t i = 0; out[i]; i++)
        if (out[i] >= '0' && out[i] <= '9')
            out[i] = '0';
    cv_state_seek(view, 0);
}
