/*
 * cv_plan_pat.c: PAT (NCCL 2.23+), AllGather and ReduceScatter in
 * ceil(log2 N) rounds, for one GPU per node at scale.
 *
 * Each rank's block travels a binomial tree of its own, all N trees at
 * once ("parallel aggregated trees"), with distances that are powers of
 * two counted round the ranks (mod N), as in Bruck's algorithm. A block
 * at offset s from a rank (the block of rank r + s, mod N) moves one bit
 * of s at a time. Where Bruck starts next door with one block and ends
 * furthest away with half of them, PAT runs the other way: AllGather
 * begins with the longest distance carrying one block and ends next door
 * carrying half, so the hops that cross the most of the network carry the
 * least, and every block lands at its own place in the output (no
 * rotation at the end). ReduceScatter is the same trees walked backwards,
 * partial sums added where two branches meet.
 *
 * This is PAT fully aggregated: every step of one distance in one round.
 * NCCL aggregates as far as its buffers allow, so a small message takes
 * these ceil(log2 N) rounds and a large one up to N-1 smaller steps
 * (aggFactor in src/include/collectives.h); the bytes are the same.
 */
#include "cv_internal.h"

/* AllGather: in round d (highest first) rank r hands rank r - 2^d every
 * block it holds at an offset s' that is a multiple of 2^(d+1) and that
 * stays below N once 2^d is added, so after the last round every rank
 * holds every offset 0 .. N-1. */
void cv__plan_allgather_pat(cv_plan *p)
{
    int n = p->spec.ranks, D = cv__log2_ceil(n);
    int64_t c = p->spec.count;
    if (n == 1) {
        cv__plan_begin(p, "own block");
        cv__copy(p, 0, CV_BUF_SEND, 0, 0, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
        return;
    }
    for (int d = D - 1; d >= 0; d--) {
        int step = 1 << d;
        cv__plan_begin(p, "pat");
        for (int r = 0; r < n; r++) {
            int to = (r - step + n) % n;
            if (d == D - 1) /* the first round: the own block, from the input */
                cv__copy(p, r, CV_BUF_SEND, 0, r, CV_BUF_RECV, (int64_t)r * c, c);
            for (int s = 0; s + step < n; s += 2 * step) {
                int b = (r + s) % n; /* the block of rank r + s, at its own place */
                if (d == D - 1)
                    cv__copy(p, r, CV_BUF_SEND, 0, to, CV_BUF_RECV, (int64_t)b * c, c);
                else
                    cv__copy(p, r, CV_BUF_RECV, (int64_t)b * c, to, CV_BUF_RECV, (int64_t)b * c,
                             c);
            }
        }
        cv__plan_end(p);
    }
}

/* ReduceScatter: in round d (lowest first) rank q hands rank q + 2^d its
 * partial sum of every block at an offset s < N whose lowest set bit is
 * d; the receiver adds it to its own partial of that block (its input
 * block the first time, SCRATCH after). A partial of offset s has had all
 * its arrivals by then (they come in rounds below d), and every rank's
 * contribution to block x reaches rank x by the bits of x - r, once. */
void cv__plan_reducescatter_pat(cv_plan *p)
{
    int n = p->spec.ranks, D = cv__log2_ceil(n);
    int64_t c = p->spec.count;
    p->scratch_count = (int64_t)n * c;
    if (n == 1) {
        cv__plan_begin(p, "own block");
        cv__copy(p, 0, CV_BUF_SEND, 0, 0, CV_BUF_RECV, 0, c);
        cv__plan_end(p);
        return;
    }
    /* held[r * n + x]: rank r's partial of block x lies in SCRATCH (or,
     * for x = r, in RECV) rather than still in its SEND */
    bool *held = cv__xcalloc((size_t)n * (size_t)n, sizeof *held);
    for (int d = 0; d < D; d++) {
        int step = 1 << d;
        cv__plan_begin(p, "pat");
        for (int q = 0; q < n; q++) {
            int to = (q + step) % n;
            for (int s = step; s < n; s += 2 * step) { /* lowest set bit d */
                int x = (q + s) % n;
                cv_buf from = held[q * n + x] ? CV_BUF_SCRATCH : CV_BUF_SEND;
                bool last = x == to && d == D - 1; /* the own block's final arrival */
                cv__at dst = x == to ? CV_AT(to, CV_BUF_RECV, 0)
                                     : CV_AT(to, CV_BUF_SCRATCH, (int64_t)x * c);
                cv__at local = held[to * n + x] ? dst : CV_AT(to, CV_BUF_SEND, (int64_t)x * c);
                cv__recv_reduce(p, CV_AT(q, from, (int64_t)x * c), local, dst, c,
                                last ? CV_XFER_FINISH : 0);
            }
        }
        /* what arrived this round is held from now on (set after the
         * round: within it every sender reads what it held before) */
        for (int q = 0; q < n; q++)
            for (int s = step; s < n; s += 2 * step)
                held[((q + step) % n) * n + (q + s) % n] = true;
        cv__plan_end(p);
    }
    free(held);
}
