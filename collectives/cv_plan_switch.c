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
