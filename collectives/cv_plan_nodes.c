/*
 * cv_plan_nodes.c: allreduce over nodes, and rings as NCCL lays them out.
 *
 * A spec with --nodes K splits its N ranks into K nodes of L = N/K. Inside
 * a node ranks talk over NVLink, between nodes over the network, which the
 * two-level cost model prices separately (cv_cost_plan_nodes). Two ways
 * to allreduce across nodes, to weigh against each other:
 *
 * - hierarchical: a ring reduce-scatter inside every node (L-1 rounds,
 *   NVLink), a ring allreduce across the nodes of the ranks holding the
 *   same shard (2(K-1) rounds, each NIC carrying its 1/L of the data), and
 *   a ring allgather inside every node (L-1 rounds): 2(L-1) + 2(K-1)
 *   rounds, only 2(K-1) of them on the network.
 * - multi-ring, NCCL's flat ring with one channel per GPU of a node (at
 *   most 32, NCCL's MAXCHANNELS of its 2.x releases): the buffer is cut
 *   into C parts, each allreduced by its own ring through all N ranks;
 *   channel j enters every node at GPU e = jL/C and leaves it from GPU
 *   e-1, so with C = L every NIC sends for one channel and receives for
 *   one. 2(N-1) rounds, every one of them crossing the network somewhere.
 *
 * Both are built from one ring over any order of ranks and any range of
 * the buffer: ring_rs_round and ring_ag_round add one round of it.
 */
#include "cv_internal.h"

typedef struct {
    const int *rank; /* ring order: position i sends to position i + 1 */
    int g;           /* positions */
    int64_t lo, len; /* the range of the buffer the ring works on, in g chunks */
} ring;

static void chunk_of(const ring *R, int k, int64_t *lo, int64_t *cnt)
{
    *lo = R->lo + cv__chunk(R->len, R->g, k);
    *cnt = R->lo + cv__chunk(R->len, R->g, k + 1) - *lo;
}

/* Reduce-scatter round t (0 .. g-2): position i sends chunk i - t to i + 1,
 * which reduces it with its own data for that chunk (in `own`: its SEND, or
 * its RECV where an earlier phase left its partial) into RECV. After round
 * g-2 position i holds the reduced chunk i + 1. */
static void ring_rs_round(cv_plan *p, const ring *R, int t, cv_buf own, unsigned flags,
                          bool nccl)
{
    for (int i = 0; i < R->g; i++) {
        int k = ((i - t) % R->g + R->g) % R->g, to = R->rank[(i + 1) % R->g];
        int64_t lo, cnt, first = p->ntransfers;
        chunk_of(R, k, &lo, &cnt);
        cv__recv_reduce(p, CV_AT(R->rank[i], t == 0 ? own : CV_BUF_RECV, lo), CV_AT(to, own, lo),
                        CV_AT(to, CV_BUF_RECV, lo), cnt, flags);
        if (nccl) /* NCCL's ring allreduce: calls t and t + 1 of 2g-1 */
            cv__prims(p, first, t == 0 ? CV_PRIM_SEND : CV_PRIM_RECV_REDUCE_SEND,
                      t == R->g - 2 ? CV_PRIM_RECV_REDUCE_COPY_SEND : CV_PRIM_RECV_REDUCE_SEND);
    }
}

/* Allgather round t (0 .. g-2) after ring_rs_round: position i passes the
 * reduced chunk i + 1 - t on to i + 1. */
static void ring_ag_round(cv_plan *p, const ring *R, int t, bool nccl)
{
    for (int i = 0; i < R->g; i++) {
        int k = ((i + 1 - t) % R->g + R->g) % R->g;
        int64_t lo, cnt, first = p->ntransfers;
        chunk_of(R, k, &lo, &cnt);
        cv__copy(p, R->rank[i], CV_BUF_RECV, lo, R->rank[(i + 1) % R->g], CV_BUF_RECV, lo, cnt);
        if (nccl)
            cv__prims(p, first, t == 0 ? CV_PRIM_RECV_REDUCE_COPY_SEND : CV_PRIM_RECV_COPY_SEND,
                      t == R->g - 2 ? CV_PRIM_RECV : CV_PRIM_RECV_COPY_SEND);
    }
}

void cv__plan_allreduce_hierarchical(cv_plan *p)
{
    int K = cv_spec_nodes(&p->spec), L = cv_spec_ranks_per_node(&p->spec);
    int64_t c = p->spec.count;
    ring *intra = cv__xcalloc((size_t)K, sizeof *intra), *inter = cv__xcalloc((size_t)L, sizeof *inter);
    int *intra_ranks = cv__xmalloc((size_t)K * (size_t)L * sizeof *intra_ranks);
    int *inter_ranks = cv__xmalloc((size_t)K * (size_t)L * sizeof *inter_ranks);
    for (int n = 0; n < K; n++) { /* node n's ranks, in order */
        for (int i = 0; i < L; i++)
            intra_ranks[n * L + i] = n * L + i;
        intra[n] = (ring){intra_ranks + n * L, L, 0, c};
    }
    for (int j = 0; j < L; j++) { /* shard j is held by local rank j-1 of every node */
        int holder = (j - 1 + L) % L;
        for (int n = 0; n < K; n++)
            inter_ranks[j * K + n] = n * L + holder;
        inter[j] = (ring){inter_ranks + j * K, K, cv__chunk(c, L, j),
                          cv__chunk(c, L, j + 1) - cv__chunk(c, L, j)};
    }
    for (int t = 0; t < L - 1; t++) {
        cv__plan_begin(p, "intra reduce-scatter");
        for (int n = 0; n < K; n++)
            ring_rs_round(p, &intra[n], t, CV_BUF_SEND, K == 1 && t == L - 2 ? CV_XFER_FINISH : 0,
                          false);
        cv__plan_end(p);
    }
    /* a node's partial shard is in RECV, unless a node is one rank */
    cv_buf own = L > 1 ? CV_BUF_RECV : CV_BUF_SEND;
    for (int phase = 0; phase < 2; phase++)
        for (int t = 0; t < K - 1; t++) {
            cv__plan_begin(p, phase ? "inter all-gather" : "inter reduce-scatter");
            for (int j = 0; j < L; j++)
                if (phase)
                    ring_ag_round(p, &inter[j], t, false);
                else
                    ring_rs_round(p, &inter[j], t, own, t == K - 2 ? CV_XFER_FINISH : 0, false);
            cv__plan_end(p);
        }
    for (int t = 0; t < L - 1; t++) {
        cv__plan_begin(p, "intra all-gather");
        for (int n = 0; n < K; n++)
            ring_ag_round(p, &intra[n], t, false);
        cv__plan_end(p);
    }
    free(intra);
    free(inter);
    free(intra_ranks);
    free(inter_ranks);
}

#define MAX_CHANNELS 32

void cv__plan_allreduce_multiring(cv_plan *p)
{
    int n = p->spec.ranks, L = cv_spec_ranks_per_node(&p->spec);
    int C = L < MAX_CHANNELS ? L : MAX_CHANNELS;
    int64_t c = p->spec.count;
    int *orders = cv__xmalloc((size_t)C * (size_t)n * sizeof *orders);
    ring *rings = cv__xcalloc((size_t)C, sizeof *rings);
    for (int j = 0; j < C; j++) { /* channel j: every node entered at local e */
        int e = j * L / C;
        for (int pos = 0; pos < n; pos++)
            orders[j * n + pos] = pos / L * L + (pos % L + e) % L;
        rings[j] = (ring){orders + j * n, n, cv__chunk(c, C, j),
                          cv__chunk(c, C, j + 1) - cv__chunk(c, C, j)};
    }
    for (int phase = 0; phase < 2; phase++)
        for (int t = 0; t < n - 1; t++) {
            cv__plan_begin(p, phase ? "all-gather" : "reduce-scatter");
            for (int j = 0; j < C; j++)
                if (phase)
                    ring_ag_round(p, &rings[j], t, true);
                else
                    ring_rs_round(p, &rings[j], t, CV_BUF_SEND, t == n - 2 ? CV_XFER_FINISH : 0,
                                  true);
            cv__plan_end(p);
        }
    free(orders);
    free(rings);
}
