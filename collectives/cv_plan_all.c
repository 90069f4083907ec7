/*
 * cv_plan_all.c: plan generators for the ops every rank takes a result
 * from: allgather, reducescatter, allreduce and alltoall. One function per
 * algorithm; the registry (cv_algos.c) says which op offers which.
 *
 * Every step is a communication round. As NCCL does, a receiver reduces
 * an incoming chunk with its own input as it lands (dst = local op src,
 * cv__recv_reduce), so no step copies inputs into place first, and the
 * write that completes an element's reduction is marked FINISH. Only
 * MPICH's recursive doubling allreduce and Bruck's alltoall stage data in
 * a temporary buffer; their local work is a sub-phase of its round.
 *
 * Recursive doubling and halving need a power of two. For other rank
 * counts they follow MPICH: with p the largest power of two <= N and rem =
 * N - p, the first 2*rem ranks pair up, the even one of each pair hands its
 * data to the odd one and sits out ("fold"), the p remaining ranks run the
 * power-of-two algorithm, and the odd ranks hand the result back
 * ("unfold"): two rounds more than log2 p. A remaining rank's "newrank" nr
 * maps to rank orig(nr), and owns the blocks from blk(nr) to blk(nr + 1):
 * two blocks for a folded pair, one otherwise, so a run of newranks always
 * owns a contiguous run of blocks.
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

/* The NCCL primitive a rank executes in its k-th call (k = 0 .. calls-1) of
 * a ring whose first call is `first`, middle calls `middle` and last call
 * `last`. Round t's transfer leaves in the sender's call t and lands in the
 * receiver's call t + 1. */
static cv_prim ring_call(int k, int calls, cv_prim first, cv_prim middle, cv_prim last)
{
    return k == 0 ? first : k == calls - 1 ? last : middle;
}

/* Round t: rank r forwards block r - t to r + 1; in round 0 it sends its
 * own block from SEND and also places it in its own RECV. NCCL: copySend,
 * recvCopySend x (N-2), recv. */
void cv__plan_allgather_ring(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    for (int t = 0; t <= n - 2; t++) {
        int64_t first = p->ntransfers;
        cv__plan_begin(p, "ring");
        for (int k = 0; k < n; k++) { /* the rank at ring position k */
            int r = cv__ring_at(p, k), to = cv__ring_at(p, k + 1), b = cv__ring_at(p, k - t);
            if (t == 0) {
                cv__copy(p, r, CV_BUF_SEND, 0, r, CV_BUF_RECV, (int64_t)r * c, c);
                cv__copy(p, r, CV_BUF_SEND, 0, to, CV_BUF_RECV, (int64_t)r * c, c);
            } else {
                cv__copy(p, r, CV_BUF_RECV, b * c, to, CV_BUF_RECV, b * c, c);
            }
        }
        cv__prims(p, first,
                  ring_call(t, n, CV_PRIM_COPY_SEND, CV_PRIM_RECV_COPY_SEND, CV_PRIM_RECV),
                  ring_call(t + 1, n, CV_PRIM_COPY_SEND, CV_PRIM_RECV_COPY_SEND, CV_PRIM_RECV));
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
            if (!f.rem && d == 1) { /* first round of a power of two: straight from SEND */
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

/* Round t: rank r passes its partial result of block r - t - 1 to r + 1,
 * which reduces it with its own input block into SCRATCH; in the last
 * round the block that arrives is the receiver's own, finished into RECV.
 * NCCL: send, recvReduceSend x (N-2), recvReduceCopy. */
void cv__plan_reducescatter_ring(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    p->scratch_count = n * c;
    for (int t = 0; t <= n - 2; t++) {
        int64_t first = p->ntransfers;
        cv__plan_begin(p, "ring");
        for (int k = 0; k < n; k++) { /* the rank at ring position k */
            int r = cv__ring_at(p, k), b = cv__ring_at(p, k - t - 1), to = cv__ring_at(p, k + 1);
            cv__at dst = b == to ? CV_AT(to, CV_BUF_RECV, 0) : CV_AT(to, CV_BUF_SCRATCH, b * c);
            cv__recv_reduce(p, CV_AT(r, t == 0 ? CV_BUF_SEND : CV_BUF_SCRATCH, b * c),
                            CV_AT(to, CV_BUF_SEND, b * c), dst, c,
                            t == n - 2 ? CV_XFER_FINISH : 0);
        }
        cv__prims(p, first,
                  ring_call(t, n, CV_PRIM_SEND, CV_PRIM_RECV_REDUCE_SEND, CV_PRIM_RECV_REDUCE_COPY),
                  ring_call(t + 1, n, CV_PRIM_SEND, CV_PRIM_RECV_REDUCE_SEND,
                            CV_PRIM_RECV_REDUCE_COPY));
        cv__plan_end(p);
    }
}

/* Each remaining rank accumulates in SCRATCH; at each round it keeps the
 * half of its range that holds its own blocks and sends the other half to
 * its partner, who reduces it with its own data (its SEND until it has
 * accumulated). In the last round a rank's own block lands in RECV; a
 * folded pair's other block stays in SCRATCH until the unfold. */
void cv__plan_reducescatter_rh(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    fold f = fold_of(n);
    p->scratch_count = n * c;
    if (f.rem) {
        cv__plan_begin(p, "fold");
        for (int i = 0; i < f.rem; i++)
            cv__recv_reduce(p, CV_AT(2 * i, CV_BUF_SEND, 0), CV_AT(2 * i + 1, CV_BUF_SEND, 0),
                            CV_AT(2 * i + 1, CV_BUF_SCRATCH, 0), n * c, 0);
        cv__plan_end(p);
    }
    for (int m = f.p / 2; m >= 1; m /= 2) {
        bool first = m == f.p / 2, last = m == 1;
        cv__plan_begin(p, "halving");
        for (int nr = 0; nr < f.p; nr++) {
            int peer = nr ^ m, h = (nr & ~(2 * m - 1)) + (peer & m);
            int me = orig(f, nr), po = orig(f, peer);
            /* a rank has accumulated after the fold (folded ranks) or the first round */
            cv_buf from = first && nr >= f.rem ? CV_BUF_SEND : CV_BUF_SCRATCH;
            cv_buf own = first && peer >= f.rem ? CV_BUF_SEND : CV_BUF_SCRATCH;
            int64_t lo = blk(f, h) * c, hi = (h + m < f.p ? blk(f, h + m) : n) * c;
            if (!last) {
                cv__recv_reduce(p, CV_AT(me, from, lo), CV_AT(po, own, lo),
                                CV_AT(po, CV_BUF_SCRATCH, lo), hi - lo, 0);
                continue;
            }
            int64_t mine = (int64_t)po * c; /* the peer's own block */
            cv__recv_reduce(p, CV_AT(me, from, lo), CV_AT(po, own, lo),
                            CV_AT(po, CV_BUF_SCRATCH, lo), mine - lo, CV_XFER_FINISH);
            cv__recv_reduce(p, CV_AT(me, from, mine), CV_AT(po, own, mine),
                            CV_AT(po, CV_BUF_RECV, 0), c, CV_XFER_FINISH);
            cv__recv_reduce(p, CV_AT(me, from, mine + c), CV_AT(po, own, mine + c),
                            CV_AT(po, CV_BUF_SCRATCH, mine + c), hi - mine - c, CV_XFER_FINISH);
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

/* The pairwise schedule that reducescatter and alltoall share: rounds
 * k = 1 .. N-1, in round k every rank r sends to r + k; move adds rank r's
 * transfers of round k. */
typedef void pairwise_move(cv_plan *p, int k, int r, int to);

static void plan_pairwise(cv_plan *p, pairwise_move *move)
{
    int n = p->spec.ranks;
    for (int k = 1; k < n; k++) {
        cv__plan_begin(p, "pairwise");
        for (int r = 0; r < n; r++)
            move(p, k, r, (r + k) % n);
        cv__plan_end(p);
    }
}

/* Rank r sends its input block for `to` to it, which reduces it into its
 * RECV (with its own block, the first time). */
static void reducescatter_move(cv_plan *p, int k, int r, int to)
{
    int64_t c = p->spec.count;
    cv__recv_reduce(p, CV_AT(r, CV_BUF_SEND, (int64_t)to * c),
                    k == 1 ? CV_AT(to, CV_BUF_SEND, (int64_t)to * c) : CV_AT(to, CV_BUF_RECV, 0),
                    CV_AT(to, CV_BUF_RECV, 0), c, k == p->spec.ranks - 1 ? CV_XFER_FINISH : 0);
}

/* Pairwise: round k, rank r sends its input block for r+k to rank r+k,
 * which reduces it into its RECV (with its own block, the first time). */
void cv__plan_reducescatter_direct(cv_plan *p) { plan_pairwise(p, reducescatter_move); }

/* ------------------------------------------------------------- allreduce */

/* MPICH's fold and unfold rounds for an allreduce: the even rank of each of
 * the first rem pairs sends its whole input to the odd one, which reduces
 * it with its own into RECV; at the end the odd one sends the result back. */
static void fold_whole(cv_plan *p, fold f, bool unfold)
{
    if (!f.rem)
        return;
    cv__plan_begin(p, unfold ? "unfold" : "fold");
    for (int i = 0; i < f.rem; i++)
        if (unfold)
            cv__copy(p, 2 * i + 1, CV_BUF_RECV, 0, 2 * i, CV_BUF_RECV, 0, p->spec.count);
        else
            cv__recv_reduce(p, CV_AT(2 * i, CV_BUF_SEND, 0), CV_AT(2 * i + 1, CV_BUF_SEND, 0),
                            CV_AT(2 * i + 1, CV_BUF_RECV, 0), p->spec.count, 0);
    cv__plan_end(p);
}

/* Rounds 1..N-1 of the direct algorithms: rank root+k sends its input and
 * the root reduces it into RECV (with its own input, the first time). */
void cv__reduce_into_root(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    for (int k = 1; k < n; k++) {
        cv__plan_begin(p, "reduce");
        cv__recv_reduce(p, CV_AT((root + k) % n, CV_BUF_SEND, 0),
                        CV_AT(root, k == 1 ? CV_BUF_SEND : CV_BUF_RECV, 0),
                        CV_AT(root, CV_BUF_RECV, 0), c, k == n - 1 ? CV_XFER_FINISH : 0);
        cv__plan_end(p);
    }
}

/* A single parameter server: every rank's input reaches the root one after
 * another, then the root sends the result to every rank at once. */
void cv__plan_allreduce_direct(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    cv__reduce_into_root(p);
    cv__plan_begin(p, "broadcast");
    for (int k = 1; k < n; k++)
        cv__copy(p, root, CV_BUF_RECV, 0, (root + k) % n, CV_BUF_RECV, 0, p->spec.count);
    cv__plan_end(p);
}

/* A rank's k-th call in NCCL's ring allreduce (2N-1 calls, k = 0 ..
 * 2N-2). */
static cv_prim ring_allreduce_call(int k, int n)
{
    if (k == 0)
        return CV_PRIM_SEND;
    if (k < n - 1)
        return CV_PRIM_RECV_REDUCE_SEND;
    if (k == n - 1)
        return CV_PRIM_RECV_REDUCE_COPY_SEND;
    return k < 2 * n - 2 ? CV_PRIM_RECV_COPY_SEND : CV_PRIM_RECV;
}

/* Reduce-scatter, rounds 0..N-2: rank r sends chunk r - t (from SEND in
 * round 0, else the partial it received) to r + 1, which reduces it with
 * its own input chunk into RECV; after round N-2 rank r holds the finished
 * chunk r + 1. All-gather, N-1 more rounds: the finished chunks travel
 * once more around the ring. NCCL's primitives: send, recvReduceSend x
 * (N-2), recvReduceCopySend, recvCopySend x (N-2), recv. */
void cv__plan_allreduce_ring(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    for (int phase = 0; phase < 2; phase++)
        for (int t = 0; t <= n - 2; t++) {
            int64_t first = p->ntransfers;
            int call = phase * (n - 1) + t; /* the sender's; the receiver's is call + 1 */
            cv__plan_begin(p, phase == 0 ? "reduce-scatter" : "all-gather");
            for (int pos = 0; pos < n; pos++) { /* the rank at ring position pos */
                int r = cv__ring_at(p, pos), to = cv__ring_at(p, pos + 1);
                int k = cv__ring_at(p, pos - t + phase);
                int64_t lo = cv__chunk(c, n, k), hi = cv__chunk(c, n, k + 1);
                if (phase == 1)
                    cv__copy(p, r, CV_BUF_RECV, lo, to, CV_BUF_RECV, lo, hi - lo);
                else
                    cv__recv_reduce(p, CV_AT(r, t == 0 ? CV_BUF_SEND : CV_BUF_RECV, lo),
                                    CV_AT(to, CV_BUF_SEND, lo), CV_AT(to, CV_BUF_RECV, lo),
                                    hi - lo, t == n - 2 ? CV_XFER_FINISH : 0);
            }
            cv__prims(p, first, ring_allreduce_call(call, n), ring_allreduce_call(call + 1, n));
            cv__plan_end(p);
        }
}

/* Binomial reduce to rank 0, then binomial broadcast. At mask m, rank vr
 * (an odd multiple of m) sends its partial result to vr - m, which reduces
 * it into RECV (with its own input, the first time: m = 1). */
void cv__plan_allreduce_tree(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    int top = cv__pow2_floor(n - 1);
    for (int m = 1; m < n; m *= 2) {
        cv__plan_begin(p, "reduce");
        for (int vr = m; vr < n; vr += 2 * m) {
            bool accumulated = vr % 2 == 0 && vr + 1 < n;
            cv__recv_reduce(p, CV_AT(vr, accumulated ? CV_BUF_RECV : CV_BUF_SEND, 0),
                            CV_AT(vr - m, m == 1 ? CV_BUF_SEND : CV_BUF_RECV, 0),
                            CV_AT(vr - m, CV_BUF_RECV, 0), c,
                            vr - m == 0 && m == top ? CV_XFER_FINISH : 0);
        }
        cv__plan_end(p);
    }
    for (int m = top; m >= 1; m /= 2) {
        cv__plan_begin(p, "broadcast");
        for (int vr = 0; vr + m < n; vr += 2 * m)
            cv__copy(p, vr, CV_BUF_RECV, 0, vr + m, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
}

/* MPICH's recursive doubling: in the round for distance d, partners
 * exchange their whole current buffers into SCRATCH (MPICH receives into a
 * temporary buffer) and then each reduces what it received into RECV, a
 * local sub-phase of the same round. The fold round leaves the odd rank of
 * a pair with the pair's sum in RECV. */
void cv__plan_allreduce_rd(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    fold f = fold_of(n);
    p->scratch_count = c;
    fold_whole(p, f, false);
    for (int d = 1; d < f.p; d *= 2) {
        /* RECV holds a rank's partial once it has reduced something */
        cv__plan_begin(p, "exchange");
        for (int nr = 0; nr < f.p; nr++) {
            bool held = d > 1 || nr < f.rem;
            cv__copy(p, orig(f, nr), held ? CV_BUF_RECV : CV_BUF_SEND, 0, orig(f, nr ^ d),
                     CV_BUF_SCRATCH, 0, c);
        }
        cv__plan_end(p);
        cv__plan_begin(p, "local reduce");
        for (int nr = 0; nr < f.p; nr++) {
            int me = orig(f, nr);
            bool held = d > 1 || nr < f.rem;
            cv__recv_reduce(p, CV_AT(me, CV_BUF_SCRATCH, 0),
                            CV_AT(me, held ? CV_BUF_RECV : CV_BUF_SEND, 0),
                            CV_AT(me, CV_BUF_RECV, 0), c, 2 * d == f.p ? CV_XFER_FINISH : 0);
        }
        cv__plan_end(p);
    }
    fold_whole(p, f, true);
}

/* Rabenseifner: reduce-scatter by recursive halving over p chunks (the
 * partner reduces the half it receives with its own data into RECV), then
 * all-gather by recursive doubling. */
void cv__plan_allreduce_rabenseifner(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    fold f = fold_of(n);
    fold_whole(p, f, false);
    for (int m = f.p / 2; m >= 1; m /= 2) {
        bool first = m == f.p / 2;
        cv__plan_begin(p, "reduce-scatter");
        for (int nr = 0; nr < f.p; nr++) {
            int peer = nr ^ m, h = (nr & ~(2 * m - 1)) + (peer & m);
            int64_t lo = cv__chunk(c, f.p, h), hi = cv__chunk(c, f.p, h + m);
            cv_buf from = first && nr >= f.rem ? CV_BUF_SEND : CV_BUF_RECV;
            cv_buf own = first && peer >= f.rem ? CV_BUF_SEND : CV_BUF_RECV;
            cv__recv_reduce(p, CV_AT(orig(f, nr), from, lo), CV_AT(orig(f, peer), own, lo),
                            CV_AT(orig(f, peer), CV_BUF_RECV, lo), hi - lo,
                            m == 1 ? CV_XFER_FINISH : 0);
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
    fold_whole(p, f, true);
}

/* -------------------------------------------------------------- alltoall */

/* Rank r sends the block meant for `to` straight to it; in round 1 it
 * also places its own block. */
static void alltoall_move(cv_plan *p, int k, int r, int to)
{
    int64_t c = p->spec.count;
    if (k == 1)
        cv__copy(p, r, CV_BUF_SEND, (int64_t)r * c, r, CV_BUF_RECV, (int64_t)r * c, c);
    cv__copy(p, r, CV_BUF_SEND, (int64_t)to * c, to, CV_BUF_RECV, (int64_t)r * c, c);
}

/* Round k: rank r sends the block meant for r + k straight to it; in round
 * 1 it also places its own block. */
void cv__plan_alltoall_pairwise(cv_plan *p) { plan_pairwise(p, alltoall_move); }

/* Bruck, as MPICH stages it: a local rotation so that position j holds the
 * block for rank r + j (a sub-phase before round 1); in the round for bit
 * d, every block whose position has bit d set moves d ranks on (into the
 * peer's second half of SCRATCH) and is unpacked locally (a sub-phase); a
 * final local rotation puts block j, which came from rank q - j, in place
 * (a sub-phase of the last round). */
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
