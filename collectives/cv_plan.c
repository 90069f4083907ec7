/*
 * cv_plan.c: building plans and checking them.
 *
 * A plan generator (cv_plan_*.c) opens steps and adds transfers through the
 * small builder (cv_builder.c); cv_plan_create checks the spec (cv_check.c),
 * calls the registry's generator for the spec's op and algorithm
 * (cv_algos.c) and then numbers the rounds: a step
 * that moves data between ranks is a round, a purely local step a
 * sub-phase of the round before it.
 *
 * cv_plan_validate is what makes a plan trustworthy for every backend: all
 * ranges in bounds, SEND never written, no two transfers of one step
 * touching a region that one of them writes (a reduce-copy reads its local
 * operand too), nothing read from RECV or SCRATCH before an earlier step
 * wrote it, and every result element written. cv_plan_check_provenance
 * follows the ranks' contributions through the plan and compares them with
 * what the op's semantics demand, and checks that every reduced element is
 * finished exactly once.
 */
#include <string.h>

#include "cv_internal.h"

/* A step that moves data between ranks opens a round; a local step is a
 * sub-phase of the round before it, or of round 1 when it comes first. */
static void number_rounds(cv_plan *p)
{
    p->nrounds = 0;
    for (int k = 0; k < p->nsteps; k++) {
        cv_step *st = &p->steps[k];
        if (!p->sink_) /* a streamed plan's builder set it, its transfers gone */
            st->local = !cv__step_moves(p, st);
        if (!st->local)
            p->nrounds++;
        st->round = p->nrounds;
    }
    for (int k = 0; k < p->nsteps && p->steps[k].round == 0 && p->nrounds > 0; k++)
        p->steps[k].round = 1;
}

/* ------------------------------------------------------------- conflicts */

typedef struct {
    int32_t rank, buf;
    int64_t lo, hi;
    int64_t xfer; /* index of the transfer within the step */
} span;

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->buf != y->buf)
        return x->buf < y->buf ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Finds a conflict among transfers [first, first+count): two writes that
 * overlap, or a read (a source, or a reduce-copy's local operand)
 * overlapping another transfer's write. reads holds 2 * count spans.
 * Returns the index of an offending transfer or -1. */
static int64_t step_conflict(const cv_transfer *t, int64_t count, span *writes, span *reads)
{
    int64_t nreads = 0;
    for (int64_t i = 0; i < count; i++) {
        writes[i] = (span){t[i].dst, t[i].dst_buf, t[i].dst_off, t[i].dst_off + t[i].count, i};
        reads[nreads++] = (span){t[i].src, t[i].src_buf, t[i].src_off, t[i].src_off + t[i].count, i};
        if (t[i].kind == CV_XFER_REDUCE_COPY)
            reads[nreads++] = (span){t[i].dst, t[i].local_buf, t[i].local_off,
                                     t[i].local_off + t[i].count, i};
    }
    qsort(writes, (size_t)count, sizeof *writes, span_cmp);
    for (int64_t i = 1; i < count; i++) {
        const span *a = &writes[i - 1], *b = &writes[i];
        if (a->rank == b->rank && a->buf == b->buf && b->lo < a->hi)
            return b->xfer;
    }
    /* Writes are now disjoint and sorted: for each read, scan back over the
     * writes that start before it ends. */
    for (int64_t i = 0; i < nreads; i++) {
        const span *r = &reads[i];
        int64_t lo = 0, hi = count; /* first write with key > (rank, buf, r->hi - 1) */
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            const span *w = &writes[mid];
            bool before = w->rank < r->rank || (w->rank == r->rank && w->buf < r->buf) ||
                          (w->rank == r->rank && w->buf == r->buf && w->lo < r->hi);
            if (before)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int64_t j = lo - 1; j >= 0; j--) {
            const span *w = &writes[j];
            if (w->rank != r->rank || w->buf != r->buf || w->hi <= r->lo)
                break;
            if (w->xfer != r->xfer)
                return r->xfer;
        }
    }
    return -1;
}

/* ------------------------------------------------------------------ build */

int cv_plan_create(const cv_spec *spec, cv_plan **out, char *err, size_t errlen)
{
    return cv__plan_create_streamed(spec, NULL, NULL, out, err, errlen);
}

int cv__plan_create_streamed(const cv_spec *spec,
                             void (*sink)(const cv_plan *p, const cv_step *st, void *ctx),
                             void *ctx, cv_plan **out, char *err, size_t errlen)
{
    return cv__plan_create_ported(spec, sink, ctx, NULL, out, err, errlen);
}

int cv__plan_create_ported(const cv_spec *spec,
                           void (*sink)(const cv_plan *p, const cv_step *st, void *ctx), void *ctx,
                           cv__ports *ports, cv_plan **out, char *err, size_t errlen)
{
    *out = NULL;
    int rc = cv_spec_check(spec, CV_MAX_RANKS, err, errlen);
    if (rc)
        return rc;
    const cv__algo_entry *e = cv__algo_find(spec->op, spec->algo);
    if (!e || !e->generate) /* cv_spec_check reads the same registry: a row without a generator */
        return cv__fail(err, errlen, "--algo: %s %s has no plan generator", cv_op_name(spec->op),
                        cv_algo_name(spec->algo));
    cv_plan *p = cv__xcalloc(1, sizeof *p);
    p->spec = *spec;
    /* What runs: PAT, NVLS and CollNet take Simple whatever was asked (the
     * window keeps the protocol chosen while the algorithm changes). */
    p->spec.proto = cv_algo_proto(spec->op, spec->algo, spec->proto);
    p->sink_ = sink;
    p->sink_ctx_ = ctx;
    p->ports_ = sink ? ports : NULL;
    if (spec->topo) { /* the plan's own copy: the caller's may go */
        p->topo_ = cv__xcalloc(1, sizeof *p->topo_);
        *p->topo_ = *spec->topo;
        p->spec.topo = p->topo_;
    }
    if (spec->ranks == 1) { /* every op on one rank is a local copy */
        cv__plan_begin(p, "copy");
        cv__copy(p, 0, CV_BUF_SEND, 0, 0, CV_BUF_RECV, 0, cv_spec_buf_count(spec, CV_BUF_RECV, 0));
        cv__plan_end(p);
    } else {
        e->generate(p);
    }
    number_rounds(p);
    p->ports_ = NULL; /* the caller's, needed only while generating */
    *out = p;
    return CV_OK;
}

void cv_plan_destroy(cv_plan *p)
{
    if (!p)
        return;
    free(p->steps);
    free(p->transfers);
    free(p->topo_);
    free(p);
}

/* -------------------------------------------------------------- validate */

int64_t cv_plan_buf_count(const cv_plan *p, cv_buf buf, int rank)
{
    if (rank >= p->spec.ranks) /* a switch */
        return buf == CV_BUF_SCRATCH ? p->switch_scratch : 0;
    return buf == CV_BUF_SCRATCH ? p->scratch_count : cv_spec_buf_count(&p->spec, buf, rank);
}

int cv_plan_parts(const cv_plan *p) { return p->spec.ranks + p->nswitch; }

int cv_plan_node_of(const cv_plan *p, int part)
{
    if (part < p->spec.ranks)
        return cv_spec_node_of(&p->spec, part);
    if (p->nswitch > 1) /* a switch a node */
        return part - p->spec.ranks;
    return cv_spec_nodes(&p->spec) > 1 ? -1 : 0;
}

static int64_t buf_len(const cv_plan *p, int rank, int buf)
{
    return cv_plan_buf_count(p, (cv_buf)buf, rank);
}

/* "written" flags for RECV and SCRATCH of every rank, one byte an element. */
typedef struct {
    uint8_t **flags; /* [rank * 2 + (buf - 1)] */
    int ranks;
} written_map;

static void written_init(written_map *m, const cv_plan *p)
{
    m->ranks = cv_plan_parts(p);
    m->flags = cv__xcalloc((size_t)m->ranks * 2, sizeof *m->flags);
    for (int r = 0; r < m->ranks; r++)
        for (int b = 1; b < 3; b++)
            m->flags[r * 2 + b - 1] = cv__xcalloc((size_t)buf_len(p, r, b) + 1, 1);
}

static void written_free(written_map *m)
{
    for (int i = 0; i < m->ranks * 2; i++)
        free(m->flags[i]);
    free(m->flags);
}

static bool all_written(const written_map *m, int rank, int buf, int64_t off, int64_t n)
{
    if (buf == CV_BUF_SEND)
        return true;
    const uint8_t *f = m->flags[rank * 2 + buf - 1];
    for (int64_t i = 0; i < n; i++)
        if (!f[off + i])
            return false;
    return true;
}

int cv_plan_validate(const cv_plan *p, char *err, size_t errlen)
{
    const cv_spec *s = &p->spec;
    int rc = CV_OK;
    int64_t maxstep = 0;
    for (int k = 0; k < p->nsteps; k++)
        if (p->steps[k].count > maxstep)
            maxstep = p->steps[k].count;
    span *w = cv__xmalloc((size_t)(maxstep + 1) * sizeof *w);
    span *r = cv__xmalloc((size_t)(2 * maxstep + 1) * sizeof *r);
    written_map m;
    written_init(&m, p);

    for (int k = 0; k < p->nsteps && !rc; k++) {
        const cv_step *st = &p->steps[k];
        if (st->count <= 0 || st->first < 0 || st->first + st->count > p->ntransfers) {
            rc = cv__fail(err, errlen, "step %d: transfer range out of bounds", k);
            break;
        }
        for (int64_t i = 0; i < st->count && !rc; i++) {
            const cv_transfer *t = &p->transfers[st->first + i];
            bool rc_kind = t->kind == CV_XFER_REDUCE_COPY;
            if (t->src < 0 || t->src >= cv_plan_parts(p) || t->dst < 0 ||
                t->dst >= cv_plan_parts(p) ||
                t->src_buf >= CV_BUF_COUNT || t->dst_buf >= CV_BUF_COUNT || t->count <= 0 ||
                t->kind >= CV_XFER_KIND_COUNT || (rc_kind && t->local_buf >= CV_BUF_COUNT))
                rc = cv__fail(err, errlen, "step %d transfer %lld: bad rank, buffer, kind or count",
                           k, (long long)i);
            else if ((t->flags & CV_XFER_FINISH) && t->kind == CV_XFER_COPY)
                rc = cv__fail(err, errlen, "step %d transfer %lld: a copy cannot finish a "
                                        "reduction", k, (long long)i);
            else if (rc_kind && (t->local_off < 0 ||
                                 t->local_off + t->count > buf_len(p, t->dst, t->local_buf)))
                rc = cv__fail(err, errlen, "step %d transfer %lld: local operand %d.%s[%lld+%lld] "
                                        "out of bounds", k, (long long)i, t->dst,
                           cv_buf_name(t->local_buf), (long long)t->local_off, (long long)t->count);
            else if (rc_kind && t->local_buf == t->dst_buf &&
                     t->local_off < t->dst_off + t->count && t->dst_off < t->local_off + t->count)
                rc = cv__fail(err, errlen, "step %d transfer %lld: local operand overlaps the "
                                        "destination", k, (long long)i);
            else if (t->dst_buf == CV_BUF_SEND)
                rc = cv__fail(err, errlen, "step %d transfer %lld: writes a send buffer", k,
                           (long long)i);
            else if (t->src_off < 0 || t->src_off + t->count > buf_len(p, t->src, t->src_buf) ||
                     t->dst_off < 0 || t->dst_off + t->count > buf_len(p, t->dst, t->dst_buf))
                rc = cv__fail(err, errlen,
                           "step %d transfer %lld: %d.%s[%lld+%lld] -> %d.%s[%lld] out of bounds",
                           k, (long long)i, t->src, cv_buf_name(t->src_buf),
                           (long long)t->src_off, (long long)t->count, t->dst,
                           cv_buf_name(t->dst_buf), (long long)t->dst_off);
            else if (t->src == t->dst && t->src_buf == t->dst_buf &&
                     t->src_off < t->dst_off + t->count && t->dst_off < t->src_off + t->count)
                rc = cv__fail(err, errlen, "step %d transfer %lld: source and destination overlap",
                           k, (long long)i);
            else if (!all_written(&m, t->src, t->src_buf, t->src_off, t->count) ||
                     (t->kind == CV_XFER_REDUCE &&
                      !all_written(&m, t->dst, t->dst_buf, t->dst_off, t->count)) ||
                     (rc_kind && !all_written(&m, t->dst, t->local_buf, t->local_off, t->count)))
                rc = cv__fail(err, errlen, "step %d transfer %lld: reads elements no earlier "
                                        "step wrote", k, (long long)i);
        }
        if (rc)
            break;
        int64_t bad = step_conflict(&p->transfers[st->first], st->count, w, r);
        if (bad >= 0) {
            const cv_transfer *t = &p->transfers[st->first + bad];
            rc = cv__fail(err, errlen, "step %d: transfer %d.%s[%lld..] -> %d.%s[%lld..] touches a "
                                    "region another transfer of the step writes", k, t->src,
                       cv_buf_name(t->src_buf), (long long)t->src_off, t->dst,
                       cv_buf_name(t->dst_buf), (long long)t->dst_off);
            break;
        }
        for (int64_t i = 0; i < st->count; i++) {
            const cv_transfer *t = &p->transfers[st->first + i];
            memset(m.flags[t->dst * 2 + t->dst_buf - 1] + t->dst_off, 1, (size_t)t->count);
        }
    }
    for (int rank = 0; rank < s->ranks && !rc; rank++)
        if (!all_written(&m, rank, CV_BUF_RECV, 0, cv_spec_result_count(s, rank)))
            rc = cv__fail(err, errlen, "rank %d: some result elements are never written", rank);
    written_free(&m);
    free(w);
    free(r);
    return rc;
}

/* ------------------------------------------------------------ provenance */

static uint64_t bit(int r) { return (uint64_t)1 << r; }

/* The mask result element i of `rank` must end with. */
static uint64_t expected_mask(const cv_spec *s, int rank, int64_t i)
{
    int64_t c = s->count > 0 ? s->count : 1;
    uint64_t all = s->ranks == 64 ? ~(uint64_t)0 : bit(s->ranks) - 1;
    switch (s->op) {
    case CV_OP_BROADCAST:
    case CV_OP_SCATTER: return bit(s->root);
    case CV_OP_GATHER:
    case CV_OP_ALLGATHER:
    case CV_OP_ALLTOALL: return bit((int)(i / c));
    case CV_OP_SENDRECV: return bit((rank - 1 + s->ranks) % s->ranks);
    default: return all;
    }
}

int cv_plan_check_provenance(const cv_plan *p, char *err, size_t errlen)
{
    const cv_spec *s = &p->spec;
    if (s->ranks > CV_MAX_VISUAL_RANKS)
        return cv__fail(err, errlen, "provenance needs at most %d ranks", CV_MAX_VISUAL_RANKS);
    int nb = cv_plan_parts(p) * CV_BUF_COUNT;
    uint64_t all = s->ranks == 64 ? ~(uint64_t)0 : bit(s->ranks) - 1;
    /* Whether an element holds a finished reduction matters only for the
     * ops that reduce, on more than one rank. */
    bool track = cv_op_reduces(s->op) && s->ranks > 1;
    uint64_t **mask = cv__xcalloc((size_t)nb, sizeof *mask);
    uint8_t **done = cv__xcalloc((size_t)nb, sizeof *done);
    for (int r = 0; r < cv_plan_parts(p); r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            int64_t n = buf_len(p, r, b);
            mask[r * CV_BUF_COUNT + b] = cv__xcalloc((size_t)n + 1, sizeof(uint64_t));
            done[r * CV_BUF_COUNT + b] = cv__xcalloc((size_t)n + 1, 1);
            if (b == CV_BUF_SEND)
                for (int64_t i = 0; i < n; i++)
                    mask[r * CV_BUF_COUNT + b][i] = bit(r);
        }
    /* Transfers of a step are conflict-free, so applying them one by one
     * gives the same masks as applying them at once. */
    int rc = CV_OK;
    for (int64_t x = 0; x < p->ntransfers && !rc; x++) {
        const cv_transfer *t = &p->transfers[x];
        int si = t->src * CV_BUF_COUNT + t->src_buf, di = t->dst * CV_BUF_COUNT + t->dst_buf;
        int li = t->kind == CV_XFER_REDUCE_COPY ? t->dst * CV_BUF_COUNT + t->local_buf : di;
        int64_t loff = t->kind == CV_XFER_REDUCE_COPY ? t->local_off : t->dst_off;
        const uint64_t *src = mask[si] + t->src_off, *loc = mask[li] + loff;
        const uint8_t *src_done = done[si] + t->src_off, *loc_done = done[li] + loff;
        uint64_t *dst = mask[di] + t->dst_off;
        uint8_t *dst_done = done[di] + t->dst_off;
        bool finish = t->flags & CV_XFER_FINISH;
        for (int64_t i = 0; i < t->count && !rc; i++) {
            if (t->kind == CV_XFER_COPY) {
                dst[i] = src[i];
                dst_done[i] = src_done[i];
                continue;
            }
            if (track && (src_done[i] || loc_done[i]))
                rc = cv__fail(err, errlen, "transfer %lld: reduces a finished value again "
                                        "(rank %d %s[%lld])", (long long)x, t->dst,
                           cv_buf_name(t->dst_buf), (long long)(t->dst_off + i));
            dst[i] = loc[i] | src[i];
            dst_done[i] = finish;
            if (track && finish && dst[i] != all)
                rc = cv__fail(err, errlen, "transfer %lld: finishes rank %d %s[%lld] with "
                                        "contributions 0x%llx, not every rank's", (long long)x,
                           t->dst, cv_buf_name(t->dst_buf), (long long)(t->dst_off + i),
                           (unsigned long long)dst[i]);
        }
    }
    for (int r = 0; r < s->ranks && !rc; r++) {
        const uint64_t *m = mask[r * CV_BUF_COUNT + CV_BUF_RECV];
        const uint8_t *d = done[r * CV_BUF_COUNT + CV_BUF_RECV];
        int64_t n = cv_spec_result_count(s, r);
        for (int64_t i = 0; i < n; i++) {
            uint64_t want = expected_mask(s, r, i);
            if (m[i] != want) {
                rc = cv__fail(err, errlen, "rank %d recv[%lld]: contributions 0x%llx, expected 0x%llx",
                           r, (long long)i, (unsigned long long)m[i], (unsigned long long)want);
                break;
            }
            if (track && !d[i]) {
                rc = cv__fail(err, errlen, "rank %d recv[%lld]: no transfer finished its "
                                        "reduction", r, (long long)i);
                break;
            }
        }
    }
    for (int i = 0; i < nb; i++) {
        free(mask[i]);
        free(done[i]);
    }
    free(mask);
    free(done);
    return rc;
}

/* ---------------------------------------------------------------- volume */

int64_t cv_plan_bytes_sent(const cv_plan *p, int rank)
{
    int64_t n = 0;
    for (int64_t x = 0; x < p->ntransfers; x++)
        if (p->transfers[x].src == rank && p->transfers[x].dst != rank)
            n += p->transfers[x].count;
    return n * (int64_t)cv_dtype_size(p->spec.dtype);
}

int64_t cv_plan_memory_bytes(const cv_plan *p)
{
    int64_t n = 0;
    for (int64_t x = 0; x < p->ntransfers; x++)
        n += p->transfers[x].count * (p->transfers[x].kind == CV_XFER_COPY ? 2 : 3);
    return n * (int64_t)cv_dtype_size(p->spec.dtype);
}

double cv_plan_memory_seconds(const cv_plan *p, const cv_membw *bw)
{
    double copy = 0, reduce = 0, esz = (double)cv_dtype_size(p->spec.dtype);
    for (int64_t x = 0; x < p->ntransfers; x++) {
        double n = (double)p->transfers[x].count * esz;
        if (p->transfers[x].kind != CV_XFER_COPY)
            reduce += 3 * n;
        else
            copy += 2 * n;
    }
    if (bw->copy <= 0 || bw->reduce <= 0)
        return 0;
    return copy / bw->copy + reduce / bw->reduce;
}

int cv_plan_comm_steps(const cv_plan *p) { return p->nrounds; }

const cv_transfer *cv_plan_writer(const cv_plan *p, int step, int rank, cv_buf buf, int64_t idx)
{
    if (step < 0 || step >= p->nsteps)
        return NULL;
    const cv_step *st = &p->steps[step];
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *t = &p->transfers[i];
        if (t->dst == rank && t->dst_buf == buf && idx >= t->dst_off && idx < t->dst_off + t->count)
            return t;
    }
    return NULL;
}

int cv_transfer_prims_text(const cv_transfer *t, char *out, size_t len)
{
    if (t->prim_send == CV_PRIM_NONE && t->prim_recv == CV_PRIM_NONE)
        return snprintf(out, len, "%s", "");
    if (t->prim_recv == CV_PRIM_NONE) /* the local half of copySend */
        return snprintf(out, len, "%s", cv_prim_name(t->prim_send));
    return snprintf(out, len, "%s -> %s", cv_prim_name(t->prim_send), cv_prim_name(t->prim_recv));
}
