/*
 * cv_plan_switch.c: in-network reduction, NVLink SHARP (NVLS) inside a
 * node and InfiniBand SHARP between nodes, as a plan with the switch in it.
 *
 * The switch is a participant after the ranks (plan->nswitch = 1) with no
 * input and no result of its own, only a SCRATCH: where the copies of a
 * piece it adds up meet (one slot per rank; its arithmetic is drawn as
 * local sub-phases of the round that brought them, a binary tree over the
 * slots), and where a piece waits to be multicast. With several nodes the
 * switch is the network's and every transfer to or from it crosses the
 * network. The buffer goes through in `slices` pieces, pipelined: while one
 * piece comes down another goes up.
 *
 * AllReduce takes two forms. Inside a node (NVLS) no GPU pushes its buffer
 * whole: each GPU owns 1/N of it and loads that block through the switch
 * with a reducing load (multimem.ld_reduce), the switch reading the block
 * from every GPU and adding the copies as they pass, then stores the sum
 * to the multicast address (multimem.st), which writes it into every GPU.
 * Each GPU sends its whole buffer once (read by the N loads) and its block
 * once more (the store), and receives its block's sum and then the whole
 * result: (1+1/N)·D each way, in 4 rounds a piece (S + 3 for S pieces).
 * Across nodes (SHARP) each node pushes its buffer to the switch, which
 * adds and multicasts the sum back: D each way, S + 1 rounds.
 */
#include "cv_internal.h"

/* Piece t (of S) of each of the n blocks of c elements, joined where one
 * ends as the next begins (with S = 1 the whole buffer is one run), as
 * [lo, hi) pairs into run (room for n). Returns how many. */
static int piece_runs(int64_t c, int n, int S, int t, int64_t (*run)[2])
{
    int runs = 0;
    for (int q = 0; q < n; q++) {
        int64_t b0 = cv__chunk(c, n, q), bl = cv__chunk(c, n, q + 1) - b0;
        int64_t lo = b0 + cv__chunk(bl, S, t), hi = b0 + cv__chunk(bl, S, t + 1);
        if (hi <= lo)
            continue;
        if (runs && run[runs - 1][1] == lo)
            run[runs - 1][1] = hi;
        else {
            run[runs][0] = lo;
            run[runs][1] = hi;
            runs++;
        }
    }
    return runs;
}

/* NVLS inside a node: round t loads piece t of every block up into the
 * switch (each GPU's copy in its slot, added there), returns the sum of
 * piece t-1 of block q to its owner q, has each owner store piece t-2 of
 * its block to the switch's multicast area, and multicasts piece t-3 to
 * every GPU, the owner too. */
static void allreduce_nvls(cv_plan *p)
{
    int n = p->spec.ranks, S = p->spec.slices, sw = n;
    int64_t c = p->spec.count;
    p->nswitch = 1;
    p->switch_scratch = (int64_t)(n + 1) * c; /* a slot per rank, then the multicast area */
    int64_t mc = (int64_t)n * c;
    int64_t(*run)[2] = cv__xmalloc(sizeof *run * (size_t)n);
    for (int t = 0; t <= S + 2; t++) {
        /* the stages under way this round, first to last (a step keeps
         * its phase's pointer, so the names are static) */
        static const char *const phases[4][4] = {
            [0][0] = "reducing load",
            [0][1] = "reducing load, sum to owner",
            [0][2] = "reducing load, sum to owner, store",
            [0][3] = "reducing load, sum to owner, store, multicast",
            [1][1] = "sum to owner",
            [1][2] = "sum to owner, store",
            [1][3] = "sum to owner, store, multicast",
            [2][2] = "store",
            [2][3] = "store, multicast",
            [3][3] = "multicast",
        };
        int klo = t - S + 1 > 0 ? t - S + 1 : 0, khi = t < 3 ? t : 3;
        cv__plan_begin(p, phases[klo][khi]);
        if (t < S) { /* the switch reads piece t of every block from every GPU */
            int runs = piece_runs(c, n, S, t, run);
            for (int r = 0; r < n; r++)
                for (int i = 0; i < runs; i++)
                    cv__copy(p, r, CV_BUF_SEND, run[i][0], sw, CV_BUF_SCRATCH,
                             (int64_t)r * c + run[i][0], run[i][1] - run[i][0]);
        }
        for (int k = 1; k <= 2; k++) {
            int piece = t - k;
            if (piece < 0 || piece >= S)
                continue;
            for (int q = 0; q < n; q++) {
                int64_t b0 = cv__chunk(c, n, q), bl = cv__chunk(c, n, q + 1) - b0;
                int64_t lo = b0 + cv__chunk(bl, S, piece);
                int64_t len = b0 + cv__chunk(bl, S, piece + 1) - lo;
                if (len <= 0)
                    continue;
                if (k == 1) /* the sum comes back to the block's owner */
                    cv__copy(p, sw, CV_BUF_SCRATCH, lo, q, CV_BUF_RECV, lo, len);
                else /* the owner stores it to the multicast address */
                    cv__copy(p, q, CV_BUF_RECV, lo, sw, CV_BUF_SCRATCH, mc + lo, len);
            }
        }
        if (t - 3 >= 0 && t - 3 < S) { /* which writes every block into every GPU */
            int runs = piece_runs(c, n, S, t - 3, run);
            for (int r = 0; r < n; r++)
                for (int i = 0; i < runs; i++)
                    cv__copy(p, sw, CV_BUF_SCRATCH, mc + run[i][0], r, CV_BUF_RECV, run[i][0],
                             run[i][1] - run[i][0]);
        }
        cv__plan_end(p);
        if (t < S) { /* the switch adds piece t of every block as it is read */
            int runs = piece_runs(c, n, S, t, run);
            for (int m = 1; m < n; m *= 2) {
                cv__plan_begin(p, "switch reduce");
                for (int i = 0; i < runs; i++)
                    cv__add_slots(p, sw, n, c, run[i][0], run[i][1] - run[i][0], m, true);
                cv__plan_end(p);
            }
        }
    }
    free(run);
}

/* SHARP across nodes: every GPU pushes each piece to the switch, which
 * adds the slots and multicasts the sum one round later. */
static void allreduce_sharp(cv_plan *p)
{
    int n = p->spec.ranks, S = p->spec.slices, sw = n;
    int64_t c = p->spec.count;
    p->nswitch = 1;
    p->switch_scratch = (int64_t)n * c; /* rank r's data lands in slot r */
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
            cv__add_slots(p, sw, n, c, lo, hi - lo, m, true);
            cv__plan_end(p);
        }
    }
}

void cv__plan_allreduce_in_network(cv_plan *p)
{
    if (p->spec.ranks > 1 && cv_spec_nodes(&p->spec) <= 1)
        allreduce_nvls(p);
    else
        allreduce_sharp(p);
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
            for (int q = 0; q < n; q++)
                cv__add_slots(p, sw, n, whole, (int64_t)q * c + lo, hi - lo, m, true);
            cv__plan_end(p);
        }
    }
}
