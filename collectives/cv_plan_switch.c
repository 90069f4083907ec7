/*
 * cv_plan_switch.c: in-network reduction, NVLink SHARP (NVLS) inside a
 * node and InfiniBand SHARP between nodes, as a plan with the switch in it.
 *
 * The switch is a participant after the ranks (plan->nswitch = 1) with no
 * input and no result of its own, only a SCRATCH where it reduces: one slot
 * of `count` elements per rank. Each GPU sends its data to the switch once;
 * the switch adds the slots (its own arithmetic, drawn as local sub-phases
 * of the round that delivered them: a binary tree over the slots) and
 * multicasts the sum back, so every GPU sends D and receives D, against a
 * ring's 2(N-1)/N D each way, and pays alpha twice, not 2(N-1) times. The
 * buffer goes through in `slices` pieces: while the switch multicasts piece
 * s-1 the GPUs send it piece s, so the plan takes S + 1 rounds, each moving
 * D/S into and out of every GPU at once. With several nodes the switch is
 * the network's and every transfer to or from it crosses the network.
 */
#include "cv_internal.h"

void cv__plan_allreduce_in_network(cv_plan *p)
{
    int n = p->spec.ranks, S = p->spec.slices, sw = n;
    int64_t c = p->spec.count;
    p->nswitch = 1;
    p->switch_scratch = (int64_t)n * c; /* rank r's data lands in slot r */
    int top = cv__pow2_floor(n - 1);
    for (int t = 0; t <= S; t++) {
        bool in = t < S, out = t > 0;
        cv__plan_begin(p, in && out ? "to and from the switch" : in ? "to the switch" : "multicast");
        int64_t lo = cv__chunk(c, S, t), hi = cv__chunk(c, S, t + 1);
        for (int r = 0; in && r < n; r++)
            cv__copy(p, r, CV_BUF_SEND, lo, sw, CV_BUF_SCRATCH, (int64_t)r * c + lo, hi - lo);
        int64_t plo = cv__chunk(c, S, t - 1), phi = cv__chunk(c, S, t);
        for (int r = 0; out && r < n; r++) /* slot 0 holds the sum of piece t-1 */
            cv__copy(p, sw, CV_BUF_SCRATCH, plo, r, CV_BUF_RECV, plo, phi - plo);
        cv__plan_end(p);
        for (int m = 1; in && m < n; m *= 2) { /* the switch adds piece t's slots */
            cv__plan_begin(p, "switch reduce");
            for (int r = 0; r + m < n; r += 2 * m)
                cv__recv_reduce(p, CV_AT(sw, CV_BUF_SCRATCH, (int64_t)(r + m) * c + lo),
                                CV_AT(sw, CV_BUF_SCRATCH, (int64_t)r * c + lo),
                                CV_AT(sw, CV_BUF_SCRATCH, (int64_t)r * c + lo), hi - lo,
                                m == top ? CV_XFER_FINISH : 0);
            cv__plan_end(p);
        }
    }
}

/* AllGather through the switch (NVLS's multicast, SHARP's): every rank
 * stores its block once, to slot r of the switch, and the switch
 * multicasts each slot to every other rank: each rank sends D/N and
 * receives (N-1)/N·D, in S + 1 rounds for S pieces (piece s goes up while
 * piece s-1 comes down). A rank's own block it copies locally. Nothing is
 * added, so the switch only forwards. */
void cv__plan_allgather_in_network(cv_plan *p)
{
    int n = p->spec.ranks, S = p->spec.slices, sw = n;
    int64_t c = p->spec.count;
    p->nswitch = 1;
    p->switch_scratch = (int64_t)n * c; /* rank r's block lands in slot r */
    for (int t = 0; t <= S; t++) {
        bool in = t < S, out = t > 0;
        cv__plan_begin(p, in && out ? "to and from the switch" : in ? "to the switch" : "multicast");
        int64_t lo = cv__chunk(c, S, t), hi = cv__chunk(c, S, t + 1);
        for (int r = 0; in && r < n; r++) {
            cv__copy(p, r, CV_BUF_SEND, lo, sw, CV_BUF_SCRATCH, (int64_t)r * c + lo, hi - lo);
            cv__copy(p, r, CV_BUF_SEND, lo, r, CV_BUF_RECV, (int64_t)r * c + lo, hi - lo);
        }
        int64_t plo = cv__chunk(c, S, t - 1), phi = cv__chunk(c, S, t);
        for (int q = 0; out && q < n; q++) /* slot q's piece t-1 to every other rank */
            for (int r = 0; r < n; r++)
                if (r != q)
                    cv__copy(p, sw, CV_BUF_SCRATCH, (int64_t)q * c + plo, r, CV_BUF_RECV,
                             (int64_t)q * c + plo, phi - plo);
        cv__plan_end(p);
    }
}

/* ReduceScatter through the switch (NVLS reduces as it loads; SHARP in
 * its buffers): every rank stores its whole buffer once, to slot r of the
 * switch, the switch adds block q of every slot (a binary tree, drawn as
 * local sub-phases) and sends the sum to rank q: each rank sends D and
 * receives D/N, in S + 1 rounds for S pieces of every block. */
void cv__plan_reducescatter_in_network(cv_plan *p)
{
    int n = p->spec.ranks, S = p->spec.slices, sw = n;
    int64_t c = p->spec.count, whole = (int64_t)n * c;
    p->nswitch = 1;
    p->switch_scratch = (int64_t)n * whole; /* rank r's buffer lands in slot r */
    int top = cv__pow2_floor(n - 1);
    for (int t = 0; t <= S; t++) {
        bool in = t < S, out = t > 0;
        cv__plan_begin(p, in && out ? "to and from the switch" : in ? "to the switch" : "to the owners");
        int64_t lo = cv__chunk(c, S, t), hi = cv__chunk(c, S, t + 1);
        for (int r = 0; in && r < n; r++)
            for (int q = 0; q < n; q++) /* piece t of block q */
                cv__copy(p, r, CV_BUF_SEND, (int64_t)q * c + lo, sw, CV_BUF_SCRATCH,
                         (int64_t)r * whole + (int64_t)q * c + lo, hi - lo);
        int64_t plo = cv__chunk(c, S, t - 1), phi = cv__chunk(c, S, t);
        for (int q = 0; out && q < n; q++) /* slot 0 holds block q's sum of piece t-1 */
            cv__copy(p, sw, CV_BUF_SCRATCH, (int64_t)q * c + plo, q, CV_BUF_RECV, plo, phi - plo);
        cv__plan_end(p);
        for (int m = 1; in && m < n; m *= 2) { /* the switch adds piece t of every block */
            cv__plan_begin(p, "switch reduce");
            for (int r = 0; r + m < n; r += 2 * m)
                for (int q = 0; q < n; q++) {
                    int64_t at = (int64_t)q * c + lo;
                    cv__recv_reduce(p, CV_AT(sw, CV_BUF_SCRATCH, (int64_t)(r + m) * whole + at),
                                    CV_AT(sw, CV_BUF_SCRATCH, (int64_t)r * whole + at),
                                    CV_AT(sw, CV_BUF_SCRATCH, (int64_t)r * whole + at), hi - lo,
                                    m == top ? CV_XFER_FINISH : 0);
                }
            cv__plan_end(p);
        }
    }
}
