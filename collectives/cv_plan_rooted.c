/*
 * cv_plan_rooted.c: plan generators for the ops with a root (broadcast,
 * scatter, gather, reduce) and for send/recv.
 *
 * Trees are binomial, on ranks renumbered relative to the root (vr = (r -
 * root) mod N) as MPICH does, so any root works the same way. A non-root
 * rank that gathers or scatters a subtree's blocks keeps them in SCRATCH in
 * relative order; the root reads or writes its absolute buffer, so a run
 * of relative blocks may wrap around the end of the buffer and is split in
 * two. Chains (pipelined ring broadcast, ring reduce) cut the message into
 * `slices` pieces so that every link of the chain is busy at once. One
 * function per algorithm; the registry (cv_algos.c) says which op offers
 * which.
 */
#include "cv_internal.h"

static int abs_rank(int vr, int root, int n) { return (vr + root) % n; }

void cv__plan_sendrecv_direct(cv_plan *p)
{
    int n = p->spec.ranks;
    cv__plan_begin(p, "send/recv");
    for (int r = 0; r < n; r++)
        cv__copy(p, r, CV_BUF_SEND, 0, (r + 1) % n, CV_BUF_RECV, 0, p->spec.count);
    cv__plan_end(p);
}

/* The root sends the whole buffer to each rank in turn. */
void cv__plan_broadcast_direct(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    for (int k = 1; k < n; k++) {
        cv__plan_begin(p, "send");
        if (k == 1)
            cv__copy(p, root, CV_BUF_SEND, 0, root, CV_BUF_RECV, 0, c);
        cv__copy(p, root, CV_BUF_SEND, 0, (root + k) % n, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
}

/* Chain root, root+1, ...; slice s crosses link j at step s + j. NCCL's
 * ring broadcast: the root copySend (its own output too), the others
 * recvCopySend, the last recv. */
void cv__plan_broadcast_ring(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root, slices = p->spec.slices;
    int64_t c = p->spec.count;
    for (int t = 0; t <= slices + n - 3; t++) {
        cv__plan_begin(p, "pipeline");
        if (t == 0) { /* the root's own copy: the copy of its copySend */
            int64_t first = p->ntransfers;
            cv__copy(p, root, CV_BUF_SEND, 0, root, CV_BUF_RECV, 0, c);
            cv__prims(p, first, CV_PRIM_COPY_SEND, CV_PRIM_NONE);
        }
        for (int j = 0; j <= n - 2; j++) {
            int s = t - j;
            if (s < 0 || s >= slices)
                continue;
            int64_t lo = cv__chunk(c, slices, s), hi = cv__chunk(c, slices, s + 1);
            int64_t first = p->ntransfers;
            int at = cv__ring_pos(p, root); /* the chain follows the ring from the root */
            cv__copy(p, cv__ring_at(p, at + j), j == 0 ? CV_BUF_SEND : CV_BUF_RECV, lo,
                     cv__ring_at(p, at + j + 1), CV_BUF_RECV, lo, hi - lo);
            cv__prims(p, first, j == 0 ? CV_PRIM_COPY_SEND : CV_PRIM_RECV_COPY_SEND,
                      j + 1 == n - 1 ? CV_PRIM_RECV : CV_PRIM_RECV_COPY_SEND);
        }
        cv__plan_end(p);
    }
}

/* Binomial tree: the ranks that have the data double each step. */
void cv__plan_broadcast_tree(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    for (int mask = 1; mask < n; mask <<= 1) {
        cv__plan_begin(p, "tree");
        if (mask == 1)
            cv__copy(p, root, CV_BUF_SEND, 0, root, CV_BUF_RECV, 0, c);
        for (int vr = 0; vr < mask && vr + mask < n; vr++)
            cv__copy(p, abs_rank(vr, root, n), vr == 0 ? CV_BUF_SEND : CV_BUF_RECV, 0,
                     abs_rank(vr + mask, root, n), CV_BUF_RECV, 0, c);
        cv__plan_end(p);
    }
}

/* Relative blocks a .. a+cnt-1 of a buffer cut into N balanced blocks
 * (relative block q is absolute block (q + root) mod N), between the same
 * places of two ranks' buffers; a run that wraps past block N-1 is two
 * transfers. */
static void copy_rel_blocks(cv_plan *p, int64_t a, int64_t cnt, int src, cv_buf sb, int dst,
                            cv_buf db)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    for (int64_t done = 0; done < cnt;) {
        int64_t b = (a + done + root) % n, run = cnt - done;
        if (run > n - b)
            run = n - b;
        int64_t lo = cv__chunk(c, n, (int)b), hi = cv__chunk(c, n, (int)(b + run));
        cv__copy(p, src, sb, lo, dst, db, lo, hi - lo);
        done += run;
    }
}

/* van de Geijn's broadcast for long messages (MPICH's scatter + ring
 * allgather): the root's buffer is cut into N blocks and scattered down a
 * binomial tree, each block landing at its own place in its rank's RECV
 * (rank r ends with block r), then a ring allgather passes the blocks
 * around. The root sends D (N-1)/N instead of the tree's D log2 N, in
 * ceil(log2 N) + N - 1 rounds. */
void cv__plan_broadcast_scatter_allgather(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    for (int m = cv__pow2_floor(n - 1); m >= 1; m /= 2) {
        cv__plan_begin(p, "scatter");
        if (m == cv__pow2_floor(n - 1)) /* the root's own copy */
            cv__copy(p, root, CV_BUF_SEND, 0, root, CV_BUF_RECV, 0, c);
        for (int vr = 0; vr + m < n; vr += 2 * m) {
            int child = vr + m, cnt = n - child < m ? n - child : m;
            copy_rel_blocks(p, child, cnt, abs_rank(vr, root, n),
                            vr == 0 ? CV_BUF_SEND : CV_BUF_RECV, abs_rank(child, root, n),
                            CV_BUF_RECV);
        }
        cv__plan_end(p);
    }
    for (int t = 0; t <= n - 2; t++) { /* round t: rank r passes block r - t to r + 1 */
        cv__plan_begin(p, "all-gather");
        for (int r = 0; r < n; r++) {
            int b = (r - t + n) % n;
            int64_t lo = cv__chunk(c, n, b), hi = cv__chunk(c, n, b + 1);
            cv__copy(p, r, CV_BUF_RECV, lo, (r + 1) % n, CV_BUF_RECV, lo, hi - lo);
        }
        cv__plan_end(p);
    }
}

/* The root sends every rank its block at once. */
void cv__plan_scatter_direct(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    cv__plan_begin(p, "scatter");
    for (int r = 0; r < n; r++)
        cv__copy(p, root, CV_BUF_SEND, (int64_t)r * c, r, CV_BUF_RECV, 0, c);
    cv__plan_end(p);
}

/* Binomial: relative rank vr holds blocks [vr, vr + min(lowbit(vr), N - vr))
 * and, at mask m, passes the upper half of what it holds to vr + m. */
void cv__plan_scatter_tree(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    int top = cv__pow2_floor(n - 1);
    p->scratch_count = top * c;
    for (int m = top; m >= 1; m /= 2) {
        cv__plan_begin(p, "tree");
        if (m == top)
            cv__copy(p, root, CV_BUF_SEND, (int64_t)root * c, root, CV_BUF_RECV, 0, c);
        /* Ranks that received several blocks at mask 2m now keep their own. */
        for (int vr = 2 * m; 2 * m <= top && vr < n; vr += 4 * m)
            if ((n - vr < 2 * m ? n - vr : 2 * m) > 1)
                cv__copy(p, abs_rank(vr, root, n), CV_BUF_SCRATCH, 0, abs_rank(vr, root, n),
                         CV_BUF_RECV, 0, c);
        for (int vr = 0; vr + m < n; vr += 2 * m) {
            int child = vr + m, cnt = n - child < m ? n - child : m;
            cv_buf db = cnt == 1 ? CV_BUF_RECV : CV_BUF_SCRATCH;
            if (vr == 0)
                cv__copy_blocks(p, root, child, cnt, c, root, CV_BUF_SEND, true, 0,
                         abs_rank(child, root, n), db, false, 0);
            else
                cv__copy(p, abs_rank(vr, root, n), CV_BUF_SCRATCH, (int64_t)m * c,
                         abs_rank(child, root, n), db, 0, (int64_t)cnt * c);
        }
        cv__plan_end(p);
    }
}

/* Every rank sends its block to the root at once. */
void cv__plan_gather_direct(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    cv__plan_begin(p, "gather");
    for (int r = 0; r < n; r++)
        cv__copy(p, r, CV_BUF_SEND, 0, root, CV_BUF_RECV, (int64_t)r * c, c);
    cv__plan_end(p);
}

/* Binomial, the scatter tree run backwards: at mask m, vr (an odd multiple
 * of m) hands the blocks of its subtree to vr - m. */
void cv__plan_gather_tree(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    p->scratch_count = cv__pow2_floor(n - 1) * c;
    for (int m = 1; m < n; m *= 2) {
        cv__plan_begin(p, "tree");
        if (m == 1) {
            cv__copy(p, root, CV_BUF_SEND, 0, root, CV_BUF_RECV, (int64_t)root * c, c);
            for (int vr = 2; vr + 1 < n; vr += 2)
                cv__copy(p, abs_rank(vr, root, n), CV_BUF_SEND, 0, abs_rank(vr, root, n),
                         CV_BUF_SCRATCH, 0, c);
        }
        for (int vr = m; vr < n; vr += 2 * m) {
            int parent = vr - m, cnt = n - vr < m ? n - vr : m;
            int src = abs_rank(vr, root, n);
            cv_buf sb = cnt == 1 ? CV_BUF_SEND : CV_BUF_SCRATCH;
            if (parent == 0)
                cv__copy_blocks(p, root, vr, cnt, c, src, sb, false, 0, root, CV_BUF_RECV, true, 0);
            else
                cv__copy(p, src, sb, 0, abs_rank(parent, root, n), CV_BUF_SCRATCH,
                         (int64_t)m * c, (int64_t)cnt * c);
        }
        cv__plan_end(p);
    }
}

/* Every rank in turn sends its input to the root, which reduces it into
 * RECV (with its own input, the first time). */
void cv__plan_reduce_direct(cv_plan *p) { cv__reduce_into_root(p); }

/* Chain root+1 -> root+2 -> ... -> root, cut into `slices` pieces; slice s
 * crosses link j in round s + j. The head sends its input; every later
 * rank reduces the incoming slice with its own input, into SCRATCH, and
 * the root finishes it into RECV. NCCL: send, recvReduceSend,
 * recvReduceCopy. */
void cv__plan_reduce_ring(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root, slices = p->spec.slices;
    int64_t c = p->spec.count;
    p->scratch_count = c;
    for (int t = 0; t <= slices + n - 3; t++) {
        cv__plan_begin(p, "pipeline");
        for (int j = 0; j <= n - 2; j++) {
            int s = t - j;
            if (s < 0 || s >= slices)
                continue;
            int64_t lo = cv__chunk(c, slices, s), hi = cv__chunk(c, slices, s + 1);
            int at = cv__ring_pos(p, root); /* the chain ends at the root, along the ring */
            int from = cv__ring_at(p, at + j + 1), to = cv__ring_at(p, at + j + 2);
            bool end = j + 1 == n - 1;
            int64_t first = p->ntransfers;
            cv__recv_reduce(p, CV_AT(from, j == 0 ? CV_BUF_SEND : CV_BUF_SCRATCH, lo),
                            CV_AT(to, CV_BUF_SEND, lo),
                            CV_AT(to, end ? CV_BUF_RECV : CV_BUF_SCRATCH, lo), hi - lo,
                            end ? CV_XFER_FINISH : 0);
            cv__prims(p, first, j == 0 ? CV_PRIM_SEND : CV_PRIM_RECV_REDUCE_SEND,
                      end ? CV_PRIM_RECV_REDUCE_COPY : CV_PRIM_RECV_REDUCE_SEND);
        }
        cv__plan_end(p);
    }
}

/* Binomial: at mask m, vr (an odd multiple of m) sends its partial result
 * to vr - m, which reduces it with what it holds: its own input the first
 * time (m = 1), its accumulator after that. The root accumulates in RECV,
 * the others in SCRATCH. */
void cv__plan_reduce_tree(cv_plan *p)
{
    int n = p->spec.ranks, root = p->spec.root;
    int64_t c = p->spec.count;
    int top = cv__pow2_floor(n - 1);
    p->scratch_count = c;
    for (int m = 1; m < n; m *= 2) {
        cv__plan_begin(p, "tree");
        for (int vr = m; vr < n; vr += 2 * m) {
            bool accumulated = vr % 2 == 0 && vr + 1 < n;
            int parent = vr - m;
            cv_buf acc = parent == 0 ? CV_BUF_RECV : CV_BUF_SCRATCH;
            cv__recv_reduce(p, CV_AT(abs_rank(vr, root, n),
                                     accumulated ? CV_BUF_SCRATCH : CV_BUF_SEND, 0),
                            CV_AT(abs_rank(parent, root, n), m == 1 ? CV_BUF_SEND : acc, 0),
                            CV_AT(abs_rank(parent, root, n), acc, 0), c,
                            parent == 0 && m == top ? CV_XFER_FINISH : 0);
        }
        cv__plan_end(p);
    }
}
