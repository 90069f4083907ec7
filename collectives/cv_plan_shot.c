/*
 * cv_plan_shot.c: one-shot and two-shot AllReduce, the custom all-reduce
 * kernels of vLLM and TensorRT-LLM (and NCCL 2.27's symmetric-memory
 * kernels) for small messages inside one NVLink domain, where every GPU
 * can read every peer's memory and latency, not bandwidth, sets the time.
 *
 * One-shot: in one round every rank reads the whole input of each of its
 * N-1 peers into SCRATCH (slot s holds rank s's buffer) and reduces the N
 * buffers itself. Two-shot: a direct reduce-scatter (rank r reads block r
 * of every peer's input and reduces it into block r of its RECV), then a
 * direct all-gather (rank r reads every peer's reduced block): 2 rounds.
 * Blocks are cv__chunk's balanced split, so a count N does not divide
 * gives blocks one element apart; SCRATCH slots are the largest block
 * wide. Both steps that read are marked as loads (cv_step's `loads`): the
 * real kernels issue the reads to every peer at once, so the cost model
 * charges a port one alpha for them, not one per peer.
 *
 * The reduction of the N slots is a binary tree over the slots in rank
 * order (slot j takes slot j+m at level m, as the switch adds its slots),
 * each level a local sub-phase of the round that brought the data, the
 * last level writing RECV and finishing the reduction. Every rank runs the
 * same tree over the same slots, so every rank sums in the same order and
 * ends with the same bits, which vLLM's one-shot kernel keeps too (it
 * reads the peers in rank order on every GPU rather than starting from its
 * own). A rank's own slot is never copied: the tree reads its input in
 * SEND until level 1 has folded it into SCRATCH.
 */
#include "cv_internal.h"

/* Where rank r's partial of slot k stands before tree level m: in SCRATCH
 * once level 1 has written it (an even slot with a partner), else as it
 * arrived: in SCRATCH, or, for the rank's own slot, in its SEND at lo. */
static cv__at slot(int n, int r, int k, int m, int64_t width, int64_t lo)
{
    bool written = m > 1 && k % 2 == 0 && k + 1 < n;
    if (k == r && !written)
        return CV_AT(r, CV_BUF_SEND, lo);
    return CV_AT(r, CV_BUF_SCRATCH, (int64_t)k * width);
}

/* Every rank reduces its N slots, each `width` apart in SCRATCH, of its
 * region [lo, lo + len) (the whole buffer, or its own block) into the
 * same region of RECV: a binary tree, one local step a level. */
static void reduce_slots(cv_plan *p, int64_t width, bool own_block)
{
    int n = p->spec.ranks, top = cv__pow2_floor(n - 1);
    int64_t c = p->spec.count;
    for (int m = 1; m < n; m *= 2) {
        cv__plan_begin(p, "local reduce");
        for (int r = 0; r < n; r++) {
            int64_t lo = own_block ? cv__chunk(c, n, r) : 0;
            int64_t len = own_block ? cv__chunk(c, n, r + 1) - lo : c;
            for (int j = 0; j + m < n; j += 2 * m) {
                cv__at dst = m == top ? CV_AT(r, CV_BUF_RECV, lo)
                                      : CV_AT(r, CV_BUF_SCRATCH, (int64_t)j * width);
                cv__recv_reduce(p, slot(n, r, j + m, m, width, lo), slot(n, r, j, m, width, lo),
                                dst, len, m == top ? CV_XFER_FINISH : 0);
            }
        }
        cv__plan_end(p);
    }
}

/* Every rank reads every peer's whole input into slot s of its SCRATCH,
 * then reduces the slots. */
void cv__plan_allreduce_one_shot(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count;
    p->scratch_count = (int64_t)n * c;
    cv__plan_begin(p, "read every peer");
    cv__plan_loads(p);
    for (int r = 0; r < n; r++) /* the reader */
        for (int s = 0; s < n; s++)
            if (s != r)
                cv__copy(p, s, CV_BUF_SEND, 0, r, CV_BUF_SCRATCH, (int64_t)s * c, c);
    cv__plan_end(p);
    reduce_slots(p, c, false);
}

/* Rank r reads block r of every peer's input into slot s of its SCRATCH
 * and reduces the slots into block r of its RECV; then every rank reads
 * each peer's reduced block into the same block of its own RECV. */
void cv__plan_allreduce_two_shot(cv_plan *p)
{
    int n = p->spec.ranks;
    int64_t c = p->spec.count, width = (c + n - 1) / n; /* the largest block */
    p->scratch_count = (int64_t)n * width;
    cv__plan_begin(p, "reduce-scatter");
    cv__plan_loads(p);
    for (int r = 0; r < n; r++) {
        int64_t lo = cv__chunk(c, n, r), len = cv__chunk(c, n, r + 1) - lo;
        for (int s = 0; s < n; s++)
            if (s != r)
                cv__copy(p, s, CV_BUF_SEND, lo, r, CV_BUF_SCRATCH, (int64_t)s * width, len);
    }
    cv__plan_end(p);
    reduce_slots(p, width, true);
    cv__plan_begin(p, "all-gather");
    cv__plan_loads(p);
    for (int r = 0; r < n; r++)
        for (int s = 0; s < n; s++) {
            int64_t lo = cv__chunk(c, n, s), len = cv__chunk(c, n, s + 1) - lo;
            if (s != r)
                cv__copy(p, s, CV_BUF_RECV, lo, r, CV_BUF_RECV, lo, len);
        }
    cv__plan_end(p);
}
