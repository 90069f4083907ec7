/*
 * test_algos_textbook.c: the registry's formulas against their sources,
 * written out again here independently of collectives/cv_algos.c.
 *
 * Rounds: every row's round formula (cv_plan_textbook_rounds) at 1 to 64
 * ranks, on every number of nodes that divides them and 1 or 3 slices,
 * gives the textbook's count: Thakur, Rabenseifner & Gropp (2005) for the
 * MPICH algorithms, NCCL for the ring, the double binary tree, the channels
 * and in-network reduction, van de Geijn for scatter-allgather, vLLM's and
 * TensorRT-LLM's custom all-reduce for one-shot and two-shot.
 *
 * Bytes: every row's textbook bytes (cv_spec_textbook_bytes) and formula
 * give exactly what the window's caption computed before the registry
 * carried them: chrome_textbook_bytes below is render/rd_chrome.c's
 * textbook_bytes as it stood then, copied unchanged but for its name, for
 * every op and algorithm at many rank counts, counts, slices and dtypes.
 * So the caption reading the registry instead is provably the same. The
 * algorithms added after it (one-shot, two-shot, ReduceScatter in-network)
 * are checked against their own formulas, written out here
 * (later_textbook_bytes).
 *
 * An algorithm these sources do not cover is reported, not failed: its
 * own formulas are checked against its plans by test_algos.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cv_internal.h"

/* ------------------------------------------------------------- rounds */

static int ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

static int floor_log2(int n)
{
    int k = 0;
    while ((2 << k) <= n)
        k++;
    return k;
}

/* The textbook's rounds at n >= 2 ranks in K nodes and S slices. MPICH's recursive
 * doubling and halving fold the ranks beyond the largest power of two p
 * into their neighbours first and hand the result back last: log2 p + 2. */
static int textbook(cv_op op, cv_algo algo, int n, int K, int S)
{
    bool pow2 = (n & (n - 1)) == 0;
    int fold = pow2 ? 0 : 2;
    switch (algo) {
    case CV_ALGO_RING:
        if (op == CV_OP_ALLREDUCE)
            return 2 * (n - 1);
        if (op == CV_OP_BROADCAST || op == CV_OP_REDUCE)
            return S + n - 2; /* a pipelined chain */
        return n - 1;
    case CV_ALGO_TREE: return op == CV_OP_ALLREDUCE ? 2 * ceil_log2(n) : ceil_log2(n);
    case CV_ALGO_RECURSIVE_DOUBLING:
    case CV_ALGO_RECURSIVE_HALVING: return floor_log2(n) + fold;
    case CV_ALGO_RABENSEIFNER: return 2 * floor_log2(n) + fold;
    case CV_ALGO_BRUCK: return ceil_log2(n);
    /* PAT fully aggregated: one round per power-of-two distance */
    case CV_ALGO_PAT: return ceil_log2(n);
    /* NCCL's double binary tree: both trees are ceil(log2 N) deep; S chunks
     * stream up and back down behind each other */
    case CV_ALGO_DOUBLE_TREE: return 2 * ceil_log2(n) + S - 1;
    /* van de Geijn: binomial scatter, then ring allgather */
    case CV_ALGO_SCATTER_ALLGATHER: return ceil_log2(n) + n - 1;
    /* NCCL's channels are each a ring through all ranks */
    case CV_ALGO_MULTIRING: return 2 * (n - 1);
    /* ring reduce-scatter and allgather inside the K nodes of L ranks, ring
     * allreduce between them; S slices pipelined through those phases one
     * step apart, as a pipeline of that depth takes S - 1 steps more */
    case CV_ALGO_HIERARCHICAL: return 2 * (n / K - 1) + 2 * (K - 1) + S - 1;
    /* in-network: every piece to the switch, and back one round later;
     * NVLS's AllReduce inside a node: a reducing load up and its sum back
     * to the block's owner, the owner's store, the multicast, pipelined */
    case CV_ALGO_IN_NETWORK: return op == CV_OP_ALLREDUCE && K == 1 && n > 1 ? S + 3 : S + 1;
    case CV_ALGO_PAIRWISE: return n - 1;
    /* vLLM's and TensorRT-LLM's custom all-reduce: one-shot reads every
     * peer's buffer at once; two-shot a reduce-scatter read, then an
     * all-gather read */
    case CV_ALGO_ONE_SHOT: return 1;
    case CV_ALGO_TWO_SHOT: return 2;
    case CV_ALGO_DIRECT:
        switch (op) {
        case CV_OP_BROADCAST:     /* the root sends to one rank at a time */
        case CV_OP_REDUCE:        /* the root takes one rank's input at a time */
        case CV_OP_REDUCESCATTER: /* pairwise */
            return n - 1;
        case CV_OP_ALLREDUCE: return n; /* the parameter server: N-1 in, one broadcast */
        default: return 1;              /* everything at once */
        }
    default: return -1; /* not one of these sources' algorithms */
    }
}

/* ---------------------------------------------- bytes, as the caption had them */

/* The bytes the textbook's beta term counts (through the busiest port,
 * summed over the steps) for the plan's algorithm, and its formula in D
 * (the op's buffer: the message, or the N blocks of a gathered or
 * scattered buffer); 0 where there is none to quote. */
static int64_t chrome_textbook_bytes(const cv_plan *plan, char *formula, size_t n)
{
    const cv_spec *s = &plan->spec;
    int64_t N = s->ranks, es = (int64_t)cv_dtype_size(s->dtype), c = s->count;
    int S = s->slices > 0 ? s->slices : 1;
    bool per_rank = s->op == CV_OP_ALLGATHER || s->op == CV_OP_GATHER || s->op == CV_OP_SCATTER ||
                    s->op == CV_OP_REDUCESCATTER || s->op == CV_OP_ALLTOALL;
    int64_t D = (per_rank ? N * c : c) * es;
    int lg = 0;
    while ((1ll << lg) < N)
        lg++;
    bool pow2 = (1ll << lg) == N;
    formula[0] = '\0';
    if (N < 2 || D <= 0)
        return 0;
#define F(str, val) (snprintf(formula, n, "%s", str), (int64_t)(val))
    switch (s->op) {
    case CV_OP_ALLREDUCE:
        if (s->algo == CV_ALGO_RING || s->algo == CV_ALGO_MULTIRING ||
            (s->algo == CV_ALGO_RABENSEIFNER && pow2))
            return c % N == 0 ? F("2(N-1)/N\xC2\xB7" "D", 2 * (N - 1) * D / N) : 0;
        if (s->algo == CV_ALGO_RECURSIVE_DOUBLING && pow2)
            return F("log2 N\xC2\xB7" "D", lg * D);
        if (s->algo == CV_ALGO_TREE)
            return F("2 ceil(log2 N)\xC2\xB7" "D", 2 * lg * D);
        if (s->algo == CV_ALGO_DIRECT)
            return F("2(N-1)\xC2\xB7" "D", 2 * (N - 1) * D);
        return 0;
    case CV_OP_ALLGATHER:
    case CV_OP_REDUCESCATTER:
    case CV_OP_SCATTER:
    case CV_OP_GATHER:
    case CV_OP_ALLTOALL:
        if (s->op == CV_OP_ALLTOALL && s->algo == CV_ALGO_BRUCK)
            return 0;
        return F("(N-1)/N\xC2\xB7" "D", (N - 1) * D / N);
    case CV_OP_BROADCAST:
    case CV_OP_REDUCE:
        if (s->algo == CV_ALGO_RING)
            return S == 1 ? F("(N-1)\xC2\xB7" "D", (N - 1) * D)
                          : (c % S == 0 ? F("(S+N-2)/S\xC2\xB7" "D", (S + N - 2) * D / S) : 0);
        if (s->algo == CV_ALGO_TREE)
            return F("ceil(log2 N)\xC2\xB7" "D", lg * D);
        if (s->algo == CV_ALGO_DIRECT)
            return F("(N-1)\xC2\xB7" "D", (N - 1) * D);
        return 0;
    case CV_OP_SENDRECV:
        return F("D", D);
    default:
        return 0;
    }
#undef F
}

/* The algorithms the caption above predates, from their sources: one-shot
 * receives every peer's whole buffer, (N-1)·D; two-shot moves the blocks
 * of all peers but its own, (N-1)/N·D, in each of its two steps, quoted
 * where N divides the count, as for the ring. -1: not one of these. */
static int64_t later_textbook_bytes(const cv_plan *plan, char *formula, size_t n)
{
    const cv_spec *s = &plan->spec;
    int64_t N = s->ranks, D = s->count * (int64_t)cv_dtype_size(s->dtype);
    formula[0] = '\0';
    /* ReduceScatter through the switch: every rank hands it its whole
     * buffer, D (the op's buffer: N blocks) */
    if (s->op == CV_OP_REDUCESCATTER && s->algo == CV_ALGO_IN_NETWORK) {
        if (N < 2 || D <= 0)
            return 0;
        snprintf(formula, n, "D");
        return N * D;
    }
    if (s->op != CV_OP_ALLREDUCE ||
        (s->algo != CV_ALGO_ONE_SHOT && s->algo != CV_ALGO_TWO_SHOT))
        return -1;
    if (N < 2 || D <= 0)
        return 0;
    if (s->algo == CV_ALGO_ONE_SHOT) {
        snprintf(formula, n, "(N-1)\xC2\xB7" "D");
        return (N - 1) * D;
    }
    if (s->count % N)
        return 0;
    snprintf(formula, n, "2(N-1)/N\xC2\xB7" "D");
    return 2 * (N - 1) * D / N;
}

/* ------------------------------------------------------------- checks */

static void check_rounds(int *uncovered)
{
    const cv__algo_entry *rows;
    int nrows = cv__algo_entries(&rows), before = failures;
    for (int i = 0; i < nrows; i++) {
        cv_op op = rows[i].op;
        cv_algo algo = rows[i].algo;
        if (textbook(op, algo, 4, 1, 1) < 0) {
            printf("%s %s: not in the textbook's table here; test_algos checks its own formula\n",
                   cv_op_name(op), rows[i].name);
            ++*uncovered;
            continue;
        }
        for (int n = 1; n <= 64; n++)
            for (int v = 0; v < 2 * n; v++) {
                int S = v % 2 ? 3 : 1, K = v / 2 + 1;
                if (n % K || (K > 1 && !cv_algo_uses_nodes(op, algo)) ||
                    (S > 1 && !cv_algo_uses_slices(op, algo)))
                    continue;
                cv_plan p;
                memset(&p, 0, sizeof p);
                cv_spec_init(&p.spec);
                p.spec.op = op;
                p.spec.algo = algo;
                p.spec.ranks = n;
                p.spec.count = 7 * (int64_t)n + 3;
                p.spec.slices = S;
                p.spec.nodes = K;
                char f[64];
                int said = cv_plan_textbook_rounds(&p, f, sizeof f);
                int want = n == 1 ? 0 : textbook(op, algo, n, K, S);
                EXPECT(said == want, "%s %s N=%d K=%d S=%d: the registry says %s = %d, the "
                       "textbook %d", cv_op_name(op), rows[i].name, n, K, S, f, said, want);
            }
    }
    printf("%-14s %s\n", "rounds", failures == before ? "ok" : "FAILED");
}

static void check_bytes(void)
{
    static const int ranks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 31, 32, 64, 100, 1024};
    static const int64_t counts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 48, 60, 64,
                                     96, 100, 255, 256, 1000, 1024, 4096, 1 << 20};
    static const int slices[] = {1, 2, 3, 4, 8};
    static const cv_dtype dtypes[] = {CV_INT8, CV_FLOAT16, CV_FLOAT32, CV_FLOAT64};
    const cv__algo_entry *rows;
    int nrows = cv__algo_entries(&rows), before = failures;
    long quoted = 0, compared = 0;
    for (int i = 0; i < nrows; i++)
        for (size_t r = 0; r < sizeof ranks / sizeof *ranks; r++)
            for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
                for (size_t sl = 0; sl < sizeof slices / sizeof *slices; sl++)
                    for (size_t d = 0; d < sizeof dtypes / sizeof *dtypes; d++) {
                        cv_plan p;
                        memset(&p, 0, sizeof p);
                        cv_spec_init(&p.spec);
                        p.spec.op = rows[i].op;
                        p.spec.algo = rows[i].algo;
                        p.spec.ranks = ranks[r];
                        p.spec.count = counts[c];
                        p.spec.slices = slices[sl];
                        p.spec.dtype = dtypes[d];
                        char want_f[64], got_f[64] = "x";
                        int64_t want = later_textbook_bytes(&p, want_f, sizeof want_f);
                        if (want < 0)
                            want = chrome_textbook_bytes(&p, want_f, sizeof want_f);
                        int64_t got = cv_spec_textbook_bytes(&p.spec, got_f, sizeof got_f);
                        compared++;
                        quoted += want > 0;
                        /* the caption shows the formula only beside a figure */
                        EXPECT(got == want && !strcmp(got_f, want > 0 ? want_f : ""),
                               "%s %s N=%d count=%lld S=%d %s: the registry says %s = %lld, "
                               "the caption had %s = %lld",
                               cv_op_name(p.spec.op), rows[i].name, p.spec.ranks,
                               (long long)p.spec.count, p.spec.slices,
                               cv_dtype_name(p.spec.dtype), got_f, (long long)got, want_f,
                               (long long)want);
                    }
    /* a pair no row offers quotes nothing */
    cv_spec none;
    cv_spec_init(&none);
    none.op = CV_OP_SENDRECV;
    none.algo = CV_ALGO_RING;
    char f[8] = "x";
    EXPECT(cv_spec_textbook_bytes(&none, f, sizeof f) == 0 && !f[0], "sendrecv ring quotes %s",
           f);
    printf("%-14s %s (%ld specs, %ld with a figure)\n", "bytes",
           failures == before ? "ok" : "FAILED", compared, quoted);
}

/* The rounds, and how many algorithms the textbook's table leaves out. */
static void rounds(void)
{
    int uncovered = 0;
    check_rounds(&uncovered);
    printf("%d algorithms outside the textbook's table\n", uncovered);
}

/* NVLS's AllReduce inside a node, counted transfer by transfer: every GPU
 * sends its whole buffer to the switch once (the N reducing loads read it)
 * and its block once more (the store), and receives its block's sum and
 * then the whole result: (1+1/N)·D each way, as NVLink SHARP moves it.
 * Across nodes (SHARP's push) D each way. */
static void nvls_traffic(void)
{
    static const int ranks[] = {2, 3, 4, 5, 8, 16};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
        for (int S = 1; S <= 3; S += 2)
            for (int K = 1; K <= 2; K++) {
                int N = ranks[i];
                if (N % K)
                    continue;
                cv_spec s;
                cv_spec_init(&s);
                s.op = CV_OP_ALLREDUCE;
                s.algo = CV_ALGO_IN_NETWORK;
                s.ranks = N;
                s.nodes = K;
                s.slices = S;
                s.count = 48 * (int64_t)N;
                s.dtype = CV_FLOAT32;
                cv_plan *p = NULL;
                char err[CV_ERR_LEN];
                if (cv_plan_create(&s, &p, err, sizeof err) != CV_OK) {
                    EXPECT(0, "in-network N=%d K=%d S=%d: %s", N, K, S, err);
                    continue;
                }
                for (int r = 0; r < N; r++) {
                    int64_t sent = 0, got = 0;
                    for (int64_t t = 0; t < p->ntransfers; t++) {
                        const cv_transfer *x = &p->transfers[t];
                        if (x->src == x->dst)
                            continue;
                        sent += x->src == r ? x->count : 0;
                        got += x->dst == r ? x->count : 0;
                    }
                    int64_t want = K == 1 ? s.count + s.count / N : s.count;
                    EXPECT(sent == want && got == want,
                           "in-network N=%d K=%d S=%d rank %d: sent %lld, received %lld "
                           "elements, want %lld each way", N, K, S, r, (long long)sent,
                           (long long)got, (long long)want);
                }
                cv_plan_destroy(p);
            }
}

/* The two-level in-network AllReduces, counted transfer by transfer,
 * inside the node and through the network apart, against what NCCL's
 * kernels move: NVLS-Tree's GPUs each load their whole buffer through
 * their node's switch and store their block b back, taking b and then the
 * whole result in (NVLS, (1+1/L)·D for even blocks), no GPU sends another
 * of its node anything, and the heads' trees carry 2(K-1)·D across the
 * network in all (each tree's half up from and down to every node but
 * the root); CollNet Direct's GPU i sends every block but its own to the
 * other heads and its own block b_i to each of the L-1 others, and b_i
 * through the network each way; CollNet Chain's GPUs send D to each
 * neighbour in the chain and the top D through the network each way. */
static void two_level_traffic(void)
{
    static const int shapes[][2] = {{4, 2}, {8, 2}, {8, 4}, {12, 3}, {16, 8}, {6, 6}, {16, 2}};
    static const cv_algo algos[] = {CV_ALGO_NVLS_TREE, CV_ALGO_COLLNET_DIRECT,
                                    CV_ALGO_COLLNET_CHAIN};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
            for (int S = 1; S <= 3; S += 2) {
                int N = shapes[i][0], K = shapes[i][1], L = N / K;
                cv_spec s;
                cv_spec_init(&s);
                s.op = CV_OP_ALLREDUCE;
                s.algo = algos[a];
                s.ranks = N;
                s.nodes = K;
                s.slices = S;
                s.count = 1000 + N; /* blocks that do not divide evenly */
                s.dtype = CV_FLOAT32;
                cv_plan *p = NULL;
                char err[CV_ERR_LEN];
                const char *name = cv_algo_name(algos[a]);
                if (cv_plan_create(&s, &p, err, sizeof err) != CV_OK) {
                    EXPECT(0, "%s N=%d K=%d S=%d: %s", name, N, K, S, err);
                    continue;
                }
                int64_t c = s.count, net_total = 0;
                int64_t *in_sent = calloc((size_t)N, sizeof(int64_t));
                int64_t *in_got = calloc((size_t)N, sizeof(int64_t));
                int64_t *net_sent = calloc((size_t)N, sizeof(int64_t));
                int64_t *net_got = calloc((size_t)N, sizeof(int64_t));
                for (int64_t t = 0; t < p->ntransfers; t++) {
                    const cv_transfer *x = &p->transfers[t];
                    if (x->src == x->dst)
                        continue;
                    /* through the network: between nodes, or to the network's switch */
                    int ns = x->src < N ? x->src / L : algos[a] == CV_ALGO_NVLS_TREE ? x->src - N : -1;
                    int nd = x->dst < N ? x->dst / L : algos[a] == CV_ALGO_NVLS_TREE ? x->dst - N : -1;
                    bool net = ns != nd;
                    if (x->src < N) {
                        (net ? net_sent : in_sent)[x->src] += x->count;
                        net_total += net ? x->count : 0;
                    }
                    if (x->dst < N)
                        (net ? net_got : in_got)[x->dst] += x->count;
                    if (algos[a] == CV_ALGO_NVLS_TREE)
                        EXPECT(x->src >= N || x->dst >= N || ns != nd,
                               "nvls-tree N=%d K=%d: GPU %d sends GPU %d of its node", N, K,
                               x->src, x->dst);
                }
                for (int r = 0; r < N; r++) {
                    int li = r % L;
                    int64_t b = c * (li + 1) / L - c * li / L, ws = 0, wg = 0, wn = 0;
                    if (algos[a] == CV_ALGO_NVLS_TREE) {
                        ws = wg = c + b;
                        wn = -1; /* the trees: checked in total below */
                    } else if (algos[a] == CV_ALGO_COLLNET_DIRECT) {
                        ws = wg = (c - b) + (int64_t)(L - 1) * b;
                        wn = b;
                    } else {
                        ws = wg = (li > 0 ? c : 0) + (li < L - 1 ? c : 0);
                        wn = li == 0 ? c : 0;
                    }
                    EXPECT(in_sent[r] == ws && in_got[r] == wg,
                           "%s N=%d K=%d S=%d GPU %d: inside the node sent %lld, received %lld, "
                           "want %lld and %lld", name, N, K, S, r, (long long)in_sent[r],
                           (long long)in_got[r], (long long)ws, (long long)wg);
                    if (wn >= 0)
                        EXPECT(net_sent[r] == wn && net_got[r] == wn,
                               "%s N=%d K=%d S=%d GPU %d: through the network sent %lld, "
                               "received %lld, want %lld each way", name, N, K, S, r,
                               (long long)net_sent[r], (long long)net_got[r], (long long)wn);
                }
                if (algos[a] == CV_ALGO_NVLS_TREE)
                    EXPECT(net_total == 2 * (K - 1) * c,
                           "nvls-tree N=%d K=%d S=%d: %lld elements cross the network, want "
                           "2(K-1)D = %lld", N, K, S, (long long)net_total,
                           (long long)(2 * (K - 1) * c));
                /* and the rounds, where the trees' height is log2 K */
                int want = algos[a] == CV_ALGO_COLLNET_CHAIN ? 2 * L + S - 1
                           : algos[a] == CV_ALGO_COLLNET_DIRECT ? S + (L == 1 ? 1 : 3)
                           : (K & (K - 1)) == 0 ? 2 * (int)log2((double)K) + S + 3
                                                : -1;
                if (want >= 0)
                    EXPECT(p->nrounds == want, "%s N=%d K=%d S=%d: %d rounds, want %d", name, N,
                           K, S, p->nrounds, want);
                free(in_sent);
                free(in_got);
                free(net_sent);
                free(net_got);
                cv_plan_destroy(p);
            }
}

static const test_case cases[] = {
    CASE("rounds", rounds),
    CASE("bytes", check_bytes),
    CASE("nvls-traffic", nvls_traffic),
    CASE("two-level-traffic", two_level_traffic),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
