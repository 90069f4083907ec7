/*
 * cv_plan_all.c: plan generators for the ops every rank takes a result
 * from: allgather, reducescatter, allreduce and alltoall. One function per
 * algorithm; the registry (cv_algos.c) says which op offers which.
 *
 * Recursive doubling and halving need a power of two. For other rank
 * counts they follow MPICH: with p the largest power of two <= N and rem =
 * N - p, the first 2*rem ranks pair up, the even one of each pair hands its
 * data to the odd one and sits out ("fold"), the p remaining ranks run the
 * power-of-two algorithm, and the odd ranks hand the result back
 * ("unfold"). A remaining rank's "newrank" nr maps to rank orig(nr), and
 * owns the blocks from blk(nr) to blk(nr + 1): two blocks for a folded
 * pair, one otherwise, so a run of newranks always owns a contiguous run of
 * blocks.
 */
#include "cv_internal.h"

typedef struct {
    int p, rem;
} fold;

static fold fold_of(int n) { return (fold){cv__pow2_floor(n), n - cv__pow2_floor(n)}; }
static int orig(fold f, int nr) { return nr < f.rem ? 2 * nr + 1 : nr + f.rem; }
static int blk(fold f, int nr) { return nr < f.rem ? 2 * nr : nr + f.rem; }

/* Blocks start .. start+cnt-1 (mod N) between the same positions of two
 * buffers. */
static void copy_blocks_mod(cv_plan *p, int src, cv_buf sb, int dst, cv_buf db, int64_t start,
                            int64_t cnt, int64_t c)
{
    cv__copy_blocks(p, 0, start, cnt, c, src, sb, true, 0, dst, db, true, 0);
}

/* ------------------------------------------------------------- allgather */

/* Step t: rank r forwards block r - t to r + 1. */
void cv__plan_allgather_ring(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    for (int t = 0; t <= n - 2; t++) {
        cv__plan_begin(p, "ring");
        for (int r = 0; r < n; r++) {
            int b = (r - t + n) % n;
            if (t == 0) {
                cv__copy(p, r, CV_BUF_SEND, 0, r, CV_BUF_RECV, (int64_t)r * c, c);
                cv__copy(p, r, CV_BUF_SEND, 0, (r + 1) % n, CV_BUF_RECV, (int64_t)r * c, c);
            } else {
                cv__copy(p, r, CV_BUF_RECV, b * c, (r + 1) % n, CV_BUF_RECV, b * c, c);
            }
        }
        cv__plan_end(p);
    }
}

/* At distance d, partners exchange the blocks their group of d newranks
 * holds, so the run each rank holds doubles. */
void cv__plan_allgather_rd(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    fold f = fold_of(n);
    if (f.rem) {
        cv__plan_begin(p, "fold");
        for (int r = 0; r < n; r++)
            cv__copy(p, r, CV_BUF_SEND, 0, r, CV_BUF_RECV, (int64_t)r * c, c);
        for (int i = 0; i < f.rem; i++)
            cv__copy(p, 2 * i, CV_BUF_SEND, 0, 2 * i + 1, CV_BUF_RECV, 2 * i * c, c);
        cv__plan_end(p);
    }
    for (int d = 1; d < f.p; d *= 2) {
        cv__plan_begin(p, "exchange");
        for (int nr = 0; nr < f.p; nr++) {
            int me = orig(f, nr), peer = orig(f, nr ^ d), g = nr & ~(d - 1);
            if (!f.rem && d == 1) { /* first step of a power of two: straight from SEND */
                cv__copy(p, me, CV_BUF_SEND, 0, me, CV_BUF_RECV, (int64_t)me * c, c);
                cv__copy(p, me, CV_BUF_SEND, 0, peer, CV_BUF_RECV, (int64_t)me * c, c);
            } else {
                int64_t lo = blk(f, g), hi = g + d < f.p ? blk(f, g + d) : n;
                cv__copy(p, me, CV_BUF_RECV, lo * c, peer, CV_BUF_RECV, lo * c, (hi - lo) * c);
            }
        }
        cv__plan_end(p);
    }
    if (f.rem) {
        cv__plan_begin(p, "unfold");
        for (int i = 0; i < f.rem; i++) {
            cv__copy(p, 2 * i + 1, CV_BUF_RECV, 0, 2 * i, CV_BUF_RECV, 0, 2 * i * c);
            cv__copy(p, 2 * i + 1, CV_BUF_RECV, (2 * i + 1) * c, 2 * i, CV_BUF_RECV,
                     (2 * i + 1) * c, (n - 2 * i - 1) * c);
        }
        cv__plan_end(p);
    }
}

/* Rank r holds blocks r .. r+d-1 and sends the first min(d, N-d) of them to
 * r - d. Keeping blocks at their absolute positions makes Bruck's final
 * rotation unnecessary. */
void cv__plan_allgather_bruck(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    for (int d = 1; d < n; d *= 2) {
        int m = d < n - d ? d : n - d;
        cv__plan_begin(p, "bruck");
        for (int r = 0; r < n; r++) {
            int to = (r - d + n) % n;
            if (d == 1) {
                cv__copy(p, r, CV_BUF_SEND, 0, r, CV_BUF_RECV, (int64_t)r * c, c);
                cv__copy(p, r, CV_BUF_SEND, 0, to, CV_BUF_RECV, (int64_t)r * c, c);
            } else {
                copy_blocks_mod(p, r, CV_BUF_RECV, to, CV_BUF_RECV, r, m, c);
            }
        }
        cv__plan_end(p);
    }
}

/* Every rank sends its block to every rank at once. */
void cv__plan_allgather_direct(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    cv__plan_begin(p, "direct");
    for (int r = 0; r < n; r++)
        for (int s = 0; s < n; s++)
            cv__copy(p, s, CV_BUF_SEND, 0, r, CV_BUF_RECV, (int64_t)s * c, c);
    cv__plan_end(p);
}

/* --------------------------------------------------------- reducescatter */

/* Step t: rank r passes its partial sum of block r - t - 1 to r + 1, which
 * adds its own contribution. Block r arrives last, at r. */
void cv__plan_reducescatter_ring(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    p->scratch_count = n * c;
    cv__plan_begin(p, "copy");
    for (int q = 0; q < n; q++) {
        cv__copy(p, q, CV_BUF_SEND, (int64_t)q * c, q, CV_BUF_RECV, 0, c);
        copy_blocks_mod(p, q, CV_BUF_SEND, q, CV_BUF_SCRATCH, q + 1, n - 2, c);
    }
    cv__plan_end(p);
    for (int t = 0; t <= n - 2; t++) {
        cv__plan_begin(p, "ring");
        for (int r = 0; r < n; r++) {
            int b = ((r - t - 1) % n + n) % n, to = (r + 1) % n;
            cv__reduce(p, r, t == 0 ? CV_BUF_SEND : CV_BUF_SCRATCH, (int64_t)b * c, to,
                       b == to ? CV_BUF_RECV : CV_BUF_SCRATCH, b == to ? 0 : (int64_t)b * c, c);
        }
        cv__plan_end(p);
    }
}

/* Each remaining rank accumulates its own block in RECV and every other
 * block in SCRATCH; at each step it keeps the half of its range that holds
 * its blocks and sends the other half away. */
void cv__plan_reducescatter_rh(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    fold f = fold_of(n);
    p->scratch_count = n * c;
    cv__plan_begin(p, "copy");
    for (int nr = 0; nr < f.p; nr++) {
        int64_t o = orig(f, nr);
        cv__copy(p, (int)o, CV_BUF_SEND, o * c, (int)o, CV_BUF_RECV, 0, c);
        cv__copy(p, (int)o, CV_BUF_SEND, 0, (int)o, CV_BUF_SCRATCH, 0, o * c);
        cv__copy(p, (int)o, CV_BUF_SEND, (o + 1) * c, (int)o, CV_BUF_SCRATCH, (o + 1) * c,
                 (n - o - 1) * c);
    }
    cv__plan_end(p);
    if (f.rem) {
        cv__plan_begin(p, "fold");
        for (int i = 0; i < f.rem; i++) {
            int64_t odd = 2 * i + 1;
            cv__reduce(p, 2 * i, CV_BUF_SEND, 0, (int)odd, CV_BUF_SCRATCH, 0, odd * c);
            cv__reduce(p, 2 * i, CV_BUF_SEND, odd * c, (int)odd, CV_BUF_RECV, 0, c);
            cv__reduce(p, 2 * i, CV_BUF_SEND, (odd + 1) * c, (int)odd, CV_BUF_SCRATCH,
                       (odd + 1) * c, (n - odd - 1) * c);
        }
        cv__plan_end(p);
    }
    for (int m = f.p / 2; m >= 1; m /= 2) {
        cv__plan_begin(p, "halving");
        for (int nr = 0; nr < f.p; nr++) {
            int peer = nr ^ m, h = (nr & ~(2 * m - 1)) + (peer & m);
            int me = orig(f, nr), po = orig(f, peer);
            int64_t lo = blk(f, h), hi = h + m < f.p ? blk(f, h + m) : n;
            cv__reduce(p, me, CV_BUF_SCRATCH, lo * c, po, CV_BUF_SCRATCH, lo * c, (po - lo) * c);
            cv__reduce(p, me, CV_BUF_SCRATCH, (int64_t)po * c, po, CV_BUF_RECV, 0, c);
            cv__reduce(p, me, CV_BUF_SCRATCH, (po + 1) * c, po, CV_BUF_SCRATCH, (po + 1) * c,
                       (hi - po - 1) * c);
        }
        cv__plan_end(p);
    }
    if (f.rem) {
        cv__plan_begin(p, "unfold");
        for (int i = 0; i < f.rem; i++)
            cv__copy(p, 2 * i + 1, CV_BUF_SCRATCH, 2 * i * c, 2 * i, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
}

/* Pairwise: step k, rank r reduces block r+k into rank r+k. */
void cv__plan_reducescatter_direct(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    cv__plan_begin(p, "copy");
    for (int r = 0; r < n; r++)
        cv__copy(p, r, CV_BUF_SEND, (int64_t)r * c, r, CV_BUF_RECV, 0, c);
    cv__plan_end(p);
    for (int k = 1; k < n; k++) {
        cv__plan_begin(p, "pairwise");
        for (int r = 0; r < n; r++) {
            int to = (r + k) % n;
            cv__reduce(p, r, CV_BUF_SEND, (int64_t)to * c, to, CV_BUF_RECV, 0, c);
        }
        cv__plan_end(p);
    }
}

/* ------------------------------------------------------------- allreduce */

static void copy_all_inputs(cv_plan *p)
{
    cv__plan_begin(p, "copy");
    for (int r = 0; r < p->spec.ranks; r++)
        cv__copy(p, r, CV_BUF_SEND, 0, r, CV_BUF_RECV, 0, p->spec.count);
    cv__plan_end(p);
}

static void fold_steps(cv_plan *p, fold f, bool unfold)
{
    if (!f.rem)
        return;
    cv__plan_begin(p, unfold ? "unfold" : "fold");
    for (int i = 0; i < f.rem; i++) {
        if (unfold)
            cv__copy(p, 2 * i + 1, CV_BUF_RECV, 0, 2 * i, CV_BUF_RECV, 0, p->spec.count);
        else
            cv__reduce(p, 2 * i, CV_BUF_SEND, 0, 2 * i + 1, CV_BUF_RECV, 0, p->spec.count);
    }
    cv__plan_end(p);
}

/* A single parameter server: everything goes through the root. */
void cv__plan_allreduce_direct(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    cv__plan_begin(p, "copy");
    cv__copy(p, root, CV_BUF_SEND, 0, root, CV_BUF_RECV, 0, c);
    cv__plan_end(p);
    for (int k = 1; k < n; k++) {
        cv__plan_begin(p, "reduce");
        cv__reduce(p, (root + k) % n, CV_BUF_SEND, 0, root, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
    cv__plan_begin(p, "broadcast");
    for (int k = 1; k < n; k++)
        cv__copy(p, root, CV_BUF_RECV, 0, (root + k) % n, CV_BUF_RECV, 0, c);
    cv__plan_end(p);
}

/* Reduce-scatter: rank r sends chunk r - t to r + 1, which adds it in;
 * after N-1 steps rank r owns the full chunk r + 1. All-gather: the full
 * chunks travel once more around the ring. */
void cv__plan_allreduce_ring(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    copy_all_inputs(p);
    for (int phase = 0; phase < 2; phase++)
        for (int t = 0; t <= n - 2; t++) {
            cv__plan_begin(p, phase == 0 ? "reduce-scatter" : "all-gather");
            for (int r = 0; r < n; r++) {
                int k = ((r - t + phase) % n + n) % n;
                int64_t lo = cv__chunk(c, n, k), hi = cv__chunk(c, n, k + 1);
                cv__xfer(p, r, CV_BUF_RECV, lo, (r + 1) % n, CV_BUF_RECV, lo, hi - lo,
                         phase == 0 ? CV_XFER_REDUCE : CV_XFER_COPY);
            }
            cv__plan_end(p);
        }
}

/* Binomial reduce to rank 0, then binomial broadcast. */
void cv__plan_allreduce_tree(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    copy_all_inputs(p);
    for (int m = 1; m < n; m *= 2) {
        cv__plan_begin(p, "reduce");
        for (int vr = m; vr < n; vr += 2 * m)
            cv__reduce(p, vr, CV_BUF_RECV, 0, vr - m, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
    for (int m = cv__pow2_floor(n - 1); n > 1 && m >= 1; m /= 2) {
        cv__plan_begin(p, "broadcast");
        for (int vr = 0; vr + m < n; vr += 2 * m)
            cv__copy(p, vr, CV_BUF_RECV, 0, vr + m, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
}

/* Partners exchange whole buffers (into SCRATCH, as MPICH receives into a
 * temporary) and each reduces what it received. */
void cv__plan_allreduce_rd(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    fold f = fold_of(n);
    p->scratch_count = c;
    copy_all_inputs(p);
    fold_steps(p, f, false);
    for (int d = 1; d < f.p; d *= 2) {
        cv__plan_begin(p, "exchange");
        for (int nr = 0; nr < f.p; nr++)
            cv__copy(p, orig(f, nr), !f.rem && d == 1 ? CV_BUF_SEND : CV_BUF_RECV, 0,
                     orig(f, nr ^ d), CV_BUF_SCRATCH, 0, c);
        cv__plan_end(p);
        cv__plan_begin(p, "local reduce");
        for (int nr = 0; nr < f.p; nr++)
            cv__reduce(p, orig(f, nr), CV_BUF_SCRATCH, 0, orig(f, nr), CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
    fold_steps(p, f, true);
}

/* Rabenseifner: reduce-scatter by recursive halving over p chunks, then
 * all-gather by recursive doubling. */
void cv__plan_allreduce_rabenseifner(cv_plan *p)
{
    int64_t c = p->spec.count;
    fold f = fold_of(p->spec.ranks);
    copy_all_inputs(p);
    fold_steps(p, f, false);
    for (int m = f.p / 2; m >= 1; m /= 2) {
        cv__plan_begin(p, "reduce-scatter");
        for (int nr = 0; nr < f.p; nr++) {
            int peer = nr ^ m, h = (nr & ~(2 * m - 1)) + (peer & m);
            int64_t lo = cv__chunk(c, f.p, h), hi = cv__chunk(c, f.p, h + m);
            cv__reduce(p, orig(f, nr), CV_BUF_RECV, lo, orig(f, peer), CV_BUF_RECV, lo, hi - lo);
        }
        cv__plan_end(p);
    }
    for (int m = 1; m < f.p; m *= 2) {
        cv__plan_begin(p, "all-gather");
        for (int nr = 0; nr < f.p; nr++) {
            int g = nr & ~(m - 1);
            int64_t lo = cv__chunk(c, f.p, g), hi = cv__chunk(c, f.p, g + m);
            cv__copy(p, orig(f, nr), CV_BUF_RECV, lo, orig(f, nr ^ m), CV_BUF_RECV, lo, hi - lo);
        }
        cv__plan_end(p);
    }
    fold_steps(p, f, true);
}

/* -------------------------------------------------------------- alltoall */

/* Step k: rank r sends the block meant for r + k straight to it. */
void cv__plan_alltoall_pairwise(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    cv__plan_begin(p, "copy");
    for (int r = 0; r < n; r++)
        cv__copy(p, r, CV_BUF_SEND, (int64_t)r * c, r, CV_BUF_RECV, (int64_t)r * c, c);
    cv__plan_end(p);
    for (int k = 1; k < n; k++) {
        cv__plan_begin(p, "pairwise");
        for (int r = 0; r < n; r++) {
            int to = (r + k) % n;
            cv__copy(p, r, CV_BUF_SEND, (int64_t)to * c, to, CV_BUF_RECV, (int64_t)r * c, c);
        }
        cv__plan_end(p);
    }
}

/* Bruck: rotate so that position j holds the block for rank r + j; at the
 * step for bit d, every block whose position has bit d set moves d ranks on
 * (sent into the peer's second half of SCRATCH, then unpacked); a final
 * rotation puts block j, which came from rank q - j, in place. */
void cv__plan_alltoall_bruck(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    int64_t second = (int64_t)n * c;
    p->scratch_count = 2 * second;
    cv__plan_begin(p, "rotate");
    for (int r = 0; r < n; r++) {
        cv__copy(p, r, CV_BUF_SEND, (int64_t)r * c, r, CV_BUF_SCRATCH, 0, (int64_t)(n - r) * c);
        cv__copy(p, r, CV_BUF_SEND, 0, r, CV_BUF_SCRATCH, (int64_t)(n - r) * c, (int64_t)r * c);
    }
    cv__plan_end(p);
    for (int d = 1; d < n; d *= 2) {
        for (int unpack = 0; unpack < 2; unpack++) {
            cv__plan_begin(p, unpack ? "unpack" : "bruck");
            for (int r = 0; r < n; r++)
                for (int64_t j = d; j < n; j += 2 * d) {
                    int64_t len = n - j < d ? n - j : d;
                    if (unpack)
                        cv__copy(p, r, CV_BUF_SCRATCH, second + j * c, r, CV_BUF_SCRATCH, j * c,
                                 len * c);
                    else
                        cv__copy(p, r, CV_BUF_SCRATCH, j * c, (r + d) % n, CV_BUF_SCRATCH,
                                 second + j * c, len * c);
                }
            cv__plan_end(p);
        }
    }
    cv__plan_begin(p, "rotate back");
    for (int q = 0; q < n; q++)
        for (int j = 0; j < n; j++)
            cv__copy(p, q, CV_BUF_SCRATCH, (int64_t)j * c, q, CV_BUF_RECV,
                     (int64_t)((q - j + n) % n) * c, c);
    cv__plan_end(p);
}
