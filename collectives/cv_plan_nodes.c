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
#include <string.h>

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

/* The hierarchical allreduce of one slice of the buffer: its rings inside
 * the nodes and across them, over the slice's range. */
typedef struct {
    ring *intra, *inter; /* K rings inside nodes, L across them */
} hier;

/* The four phases, in order, and the names of a step where pipelined
 * slices run phases first..last of them at once. */
static const char *const hier_phase[4][4] = {
    {"intra reduce-scatter", "intra reduce-scatter + inter reduce-scatter",
     "intra reduce-scatter + inter reduce-scatter + inter all-gather",
     "intra reduce-scatter + inter reduce-scatter + inter all-gather + intra all-gather"},
    {"", "inter reduce-scatter", "inter reduce-scatter + inter all-gather",
     "inter reduce-scatter + inter all-gather + intra all-gather"},
    {"", "", "inter all-gather", "inter all-gather + intra all-gather"},
    {"", "", "", "intra all-gather"},
};

/* Which phase step q of a slice is in (0 .. 3), and its round within it. */
static int hier_phase_of(int q, int K, int L, int *t)
{
    int ends[4] = {L - 1, L - 1 + K - 1, L - 1 + 2 * (K - 1), 2 * (L - 1) + 2 * (K - 1)};
    int ph = 0;
    while (ph < 3 && q >= ends[ph])
        ph++;
    *t = q - (ph ? ends[ph - 1] : 0);
    return ph;
}

/* Step q of one slice: a round of its intra reduce-scatter, inter
 * reduce-scatter, inter all-gather or intra all-gather. */
static void hier_step(cv_plan *p, const hier *h, int q, int K, int L)
{
    int t, ph = hier_phase_of(q, K, L, &t);
    /* a node's partial shard is in RECV, unless a node is one rank */
    cv_buf own = L > 1 ? CV_BUF_RECV : CV_BUF_SEND;
    for (int n = 0; ph == 0 && n < K; n++)
        ring_rs_round(p, &h->intra[n], t, CV_BUF_SEND, K == 1 && t == L - 2 ? CV_XFER_FINISH : 0,
                      false);
    for (int j = 0; (ph == 1 || ph == 2) && j < L; j++)
        if (ph == 2)
            ring_ag_round(p, &h->inter[j], t, false);
        else
            ring_rs_round(p, &h->inter[j], t, own, t == K - 2 ? CV_XFER_FINISH : 0, false);
    for (int n = 0; ph == 3 && n < K; n++)
        ring_ag_round(p, &h->intra[n], t, false);
}

/* Slice s of S (its range [lo, lo + len) of the buffer): rings inside every
 * node over the range, and across the nodes over each node's shard of it;
 * shard j is held by local rank j - 1 of every node after the intra
 * reduce-scatter. */
static void hier_slice(hier *h, int K, int L, int64_t lo, int64_t len, int *intra_ranks,
                       int *inter_ranks)
{
    for (int n = 0; n < K; n++)
        h->intra[n] = (ring){intra_ranks + n * L, L, lo, len};
    for (int j = 0; j < L; j++)
        h->inter[j] = (ring){inter_ranks + j * K, K, lo + cv__chunk(len, L, j),
                             cv__chunk(len, L, j + 1) - cv__chunk(len, L, j)};
}

/* With --slices S the buffer is cut into S slices that follow each other
 * through the four phases one step apart, as NCCL's two-level algorithms
 * pipeline chunks through the levels: while slice s crosses the network,
 * slice s + 1 is reduced inside the nodes, so a step can keep NVLink and
 * the NICs busy together. S = 1 is the three phases one after another. */
void cv__plan_allreduce_hierarchical(cv_plan *p)
{
    int K = cv_spec_nodes(&p->spec), L = cv_spec_ranks_per_node(&p->spec);
    int S = p->spec.slices > 0 ? p->spec.slices : 1, P = 2 * (L - 1) + 2 * (K - 1);
    int64_t c = p->spec.count;
    hier *h = cv__xcalloc((size_t)S, sizeof *h);
    ring *rings = cv__xcalloc((size_t)S * (size_t)(K + L), sizeof *rings);
    int *intra_ranks = cv__xmalloc((size_t)K * (size_t)L * sizeof *intra_ranks);
    int *inter_ranks = cv__xmalloc((size_t)K * (size_t)L * sizeof *inter_ranks);
    for (int n = 0; n < K; n++) /* node n's ranks, in order */
        for (int i = 0; i < L; i++)
            intra_ranks[n * L + i] = n * L + i;
    for (int j = 0; j < L; j++) /* shard j's holders, one a node */
        for (int n = 0; n < K; n++)
            inter_ranks[j * K + n] = n * L + (j - 1 + L) % L;
    for (int s = 0; s < S; s++) {
        h[s].intra = rings + (size_t)s * (size_t)(K + L);
        h[s].inter = h[s].intra + K;
        hier_slice(&h[s], K, L, cv__chunk(c, S, s), cv__chunk(c, S, s + 1) - cv__chunk(c, S, s),
                   intra_ranks, inter_ranks);
    }
    for (int step = 0; step < P + S - 1; step++) {
        int qlo = step - (S - 1) > 0 ? step - (S - 1) : 0, qhi = step < P - 1 ? step : P - 1, t;
        /* the slices in flight run steps qlo .. qhi of their own */
        int first = hier_phase_of(qlo, K, L, &t), last = hier_phase_of(qhi, K, L, &t);
        cv__plan_begin(p, K == 1 && first == 0 && last == 3 ? "intra reduce-scatter + intra all-gather"
                                                            : hier_phase[first][last]);
        for (int s = 0; s < S; s++)
            if (step - s >= 0 && step - s < P)
                hier_step(p, &h[s], step - s, K, L);
        cv__plan_end(p);
    }
    free(h);
    free(rings);
    free(intra_ranks);
    free(inter_ranks);
}

#define MAX_CHANNELS 32

/* The multi-ring's steps for the cost model (cv__plan_ports): each step's
 * traffic per port summed straight from the rings, never a transfer made.
 * In round t of a phase, position i of ring j sends chunk (i - t) of the
 * ring's range (reduce-scatter; (i + 1 - t) in the all-gather) to
 * position i + 1, as ring_rs_round and ring_ag_round do, and a chunk of 0
 * elements is no transfer. Who sends to whom is the same in every round,
 * so where no ring has an empty chunk the messages are counted once; where
 * every ring's range divides into its N chunks, every round of a phase is
 * the same, and is summed once. The sums are exactly the transfers'
 * (test_cost_model prices both ways). */
static void multiring_ports(cv_plan *p, cv__ports *q, const ring *rings, int C)
{
    int n = p->spec.ranks;
    int64_t esz = (int64_t)cv_dtype_size(p->spec.dtype);
    size_t cn = (size_t)C * (size_t)n;
    /* chunk k of ring j in bytes at sz[j * 3n + k + n'] for any k + n' in
     * [0, 3n): three times over, so a position's chunk needs no modulo */
    int64_t *sz = cv__xmalloc(3 * cn * sizeof *sz);
    int64_t **out_at = cv__xmalloc(cn * sizeof *out_at), **in_at = cv__xmalloc(cn * sizeof *in_at);
    int *to = cv__xmalloc(cn * sizeof *to);
    unsigned char *lvl = cv__xmalloc(cn); /* 1: the pair is on different nodes */
    int *oslot = cv__xmalloc(cn * sizeof *oslot), *islot = cv__xmalloc(cn * sizeof *islot);
    /* each rank's distinct peers out and in, at most C of each */
    int *opeer = cv__xmalloc(cn * sizeof *opeer), *ipeer = cv__xmalloc(cn * sizeof *ipeer);
    int *nop = cv__xcalloc((size_t)n, sizeof *nop), *nip = cv__xcalloc((size_t)n, sizeof *nip);
    int *ostamp = cv__xcalloc(cn, sizeof *ostamp), *istamp = cv__xcalloc(cn, sizeof *istamp);
    /* a ring of fewer elements than positions: its chunks that are not
     * empty (as many as its elements), the only positions walked */
    int *full = cv__xmalloc(cn * sizeof *full), *nfull = cv__xcalloc((size_t)C, sizeof *nfull);
    q->scratch = (int64_t)cn * (int64_t)(3 * sizeof *sz + 2 * sizeof *out_at + sizeof *to + 1 +
                                         7 * sizeof(int)) +
                 (int64_t)n * 2 * (int64_t)sizeof(int) + C * (int64_t)sizeof(int);
    bool sparse = false, same = true; /* some chunk empty; every chunk of a ring alike */
    for (int j = 0; j < C; j++) {
        const ring *R = &rings[j];
        sparse |= R->len > 0 && R->len < n;
        same &= R->len % n == 0;
        for (int k = 0; k < n; k++) {
            int64_t lo, cnt;
            chunk_of(R, k, &lo, &cnt);
            for (int w = 0; w < 3; w++)
                sz[(size_t)j * 3 * (size_t)n + (size_t)(w * n + k)] = cnt * esz;
            if (cnt > 0)
                full[(size_t)j * (size_t)n + (size_t)nfull[j]++] = k;
        }
        for (int i = 0; i < n; i++) {
            size_t x = (size_t)j * (size_t)n + (size_t)i;
            int src = R->rank[i], dst = R->rank[(i + 1) % n];
            /* no switches here: every participant is a rank */
            int l = cv_spec_node_of(&p->spec, src) != cv_spec_node_of(&p->spec, dst);
            out_at[x] = &q->sent[l][src];
            in_at[x] = &q->recvd[l][dst];
            to[x] = dst;
            lvl[x] = (unsigned char)l;
            int a = 0, b = 0;
            while (a < nop[src] && opeer[(size_t)src * (size_t)C + (size_t)a] != dst)
                a++;
            if (a == nop[src])
                opeer[(size_t)src * (size_t)C + (size_t)nop[src]++] = dst;
            while (b < nip[dst] && ipeer[(size_t)dst * (size_t)C + (size_t)b] != src)
                b++;
            if (b == nip[dst])
                ipeer[(size_t)dst * (size_t)C + (size_t)nip[dst]++] = src;
            oslot[x] = src * C + a;
            islot[x] = dst * C + b;
        }
    }
    int stamp = 0;
    int64_t moved = 0; /* transfers the step would have */
    for (int phase = 0; phase < 2; phase++)
        for (int t = 0; t < n - 1; t++) {
            cv__plan_begin(p, phase ? "all-gather" : "reduce-scatter");
            if (t > 0 && same) { /* the sums of round 0 of this phase, still there */
                if (moved)
                    cv__plan_end_ports(p, false);
                else
                    cv__plan_end(p);
                continue;
            }
            for (int l = 0; l < 2; l++) {
                memset(q->sent[l], 0, (size_t)q->n * sizeof *q->sent[l]);
                memset(q->recvd[l], 0, (size_t)q->n * sizeof *q->recvd[l]);
            }
            memset(q->reduced, 0, (size_t)q->n * sizeof *q->reduced);
            bool count_messages = sparse || (phase == 0 && t == 0);
            if (count_messages) {
                for (int l = 0; l < 2; l++) {
                    memset(q->nout[l], 0, (size_t)q->n * sizeof *q->nout[l]);
                    memset(q->nin[l], 0, (size_t)q->n * sizeof *q->nin[l]);
                }
                stamp++;
            }
            moved = 0;
            for (int j = 0; j < C; j++) {
                /* position i's chunk is (i - t) mod n, or (i + 1 - t) */
                const int64_t *c = sz + (size_t)j * 3 * (size_t)n + (size_t)(n - t + phase);
                size_t base = (size_t)j * (size_t)n;
                if (rings[j].len == 0)
                    continue;
                bool few = rings[j].len < n;
                for (int e = 0; e < (few ? nfull[j] : n); e++) {
                    /* chunk k is at position k + t (reduce-scatter), k + t - 1 */
                    int i = few ? (full[base + (size_t)e] + t - phase + n) % n : e;
                    int64_t bytes = c[i];
                    size_t x = base + (size_t)i;
                    if (bytes == 0)
                        continue;
                    moved++;
                    *out_at[x] += bytes;
                    *in_at[x] += bytes;
                    if (!phase) /* reduced on arrival; the all-gather copies */
                        q->reduced[to[x]] += bytes;
                    if (count_messages) {
                        int l = lvl[x];
                        if (ostamp[oslot[x]] != stamp) {
                            ostamp[oslot[x]] = stamp;
                            q->nout[l][oslot[x] / C]++;
                        }
                        if (istamp[islot[x]] != stamp) {
                            istamp[islot[x]] = stamp;
                            q->nin[l][to[x]]++;
                        }
                    }
                }
            }
            if (moved)
                cv__plan_end_ports(p, false);
            else
                cv__plan_end(p); /* no transfer: dropped */
        }
    free(sz);
    free(out_at);
    free(in_at);
    free(to);
    free(lvl);
    free(full);
    free(nfull);
    free(oslot);
    free(islot);
    free(opeer);
    free(ipeer);
    free(nop);
    free(nip);
    free(ostamp);
    free(istamp);
    q->scratch = 0;
}

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
    cv__ports *q = cv__plan_ports(p);
    if (q) /* the cost model's: each step's sums, no transfers */
        multiring_ports(p, q, rings, C);
    for (int phase = 0; phase < 2 && !q; phase++)
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
