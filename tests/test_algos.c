/*
 * test_algos.c: the algorithm registry. Every row has a generator, no row
 * is listed twice, an op's rows sit together, cv_op_algos and
 * cv_op_has_algo say exactly what the rows say, an algorithm an op does not
 * offer is refused, and every algorithm of an op builds a plan different
 * from each of its siblings', so no algorithm can quietly run another.
 *
 * And the round counts: for every rank count 1 to 64, every algorithm's
 * plan has exactly the textbook's number of communication rounds (Thakur,
 * Rabenseifner & Gropp 2005; NCCL for the ring), written out again here
 * from the sources rather than read from the registry, and every step is a
 * round except the local sub-phases of the two algorithms that stage.
 * And an op that does not reduce fills the same inputs whatever the redop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cv_internal.h"

/* Two plans are the same when their steps and transfers are: the same
 * data moving the same way, whatever NCCL primitives they name. */
static bool same_plan(const cv_plan *a, const cv_plan *b)
{
    if (a->nsteps != b->nsteps || a->ntransfers != b->ntransfers)
        return false;
    for (int k = 0; k < a->nsteps; k++)
        if (a->steps[k].first != b->steps[k].first || a->steps[k].count != b->steps[k].count)
            return false;
    for (int64_t i = 0; i < a->ntransfers; i++) {
        cv_transfer x = a->transfers[i], y = b->transfers[i];
        x.prim_send = x.prim_recv = y.prim_send = y.prim_recv = 0;
        if (memcmp(&x, &y, sizeof x) != 0)
            return false;
    }
    return true;
}

static void check_rows(void)
{
    const cv__algo_entry *rows;
    int n = cv__algo_entries(&rows);
    int seen_ops[CV_OP_COUNT] = {0};
    for (int i = 0; i < n; i++) {
        EXPECT(rows[i].generate != NULL, "row %d (%s %s) has no generator", i,
               cv_op_name(rows[i].op), cv_algo_name(rows[i].algo));
        EXPECT((unsigned)rows[i].op < CV_OP_COUNT && (unsigned)rows[i].algo < CV_ALGO_COUNT,
               "row %d: op or algo out of range", i);
        for (int j = 0; j < i; j++)
            EXPECT(rows[j].op != rows[i].op || rows[j].algo != rows[i].algo,
                   "%s %s listed twice", cv_op_name(rows[i].op), cv_algo_name(rows[i].algo));
        if (i > 0 && rows[i - 1].op != rows[i].op)
            EXPECT(!seen_ops[rows[i].op], "%s's rows are not together", cv_op_name(rows[i].op));
        seen_ops[rows[i].op] = 1;
    }
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos(op, a), want = 0;
        for (int i = 0; i < n; i++)
            if (rows[i].op == (cv_op)op)
                EXPECT(want < na && a[want++] == rows[i].algo, "%s: cv_op_algos order",
                       cv_op_name(op));
        EXPECT(na == want && na >= 1, "%s: cv_op_algos gives %d, the registry %d", cv_op_name(op),
               na, want);
        for (int al = 0; al < CV_ALGO_COUNT; al++) {
            bool listed = false;
            for (int i = 0; i < na; i++)
                listed |= a[i] == (cv_algo)al;
            EXPECT(cv_op_has_algo(op, al) == listed, "%s %s: has_algo disagrees", cv_op_name(op),
                   cv_algo_name(al));
            /* what the registry lacks, the spec check refuses and the
             * builder never runs */
            cv_spec s;
            cv_spec_init(&s);
            s.op = op;
            s.algo = al;
            cv_plan *p = NULL;
            char err[CV_ERR_LEN] = "";
            int rc = cv_plan_build(&s, &p, err, sizeof err);
            EXPECT((rc == CV_OK) == listed, "%s %s: build %s", cv_op_name(op), cv_algo_name(al),
                   rc ? err : "ok");
            if (!listed)
                EXPECT(strstr(err, "--algo") != NULL, "%s %s: error names --algo: %s",
                       cv_op_name(op), cv_algo_name(al), err);
            cv_plan_destroy(p);
        }
    }
}

/* Siblings differ, for rank counts that are and are not powers of two; the
 * algorithms for several nodes on two or three nodes (on one node, or one
 * rank a node, hierarchical allreduce is the ring). */
static void check_distinct(void)
{
    static const int ranks[] = {6, 8, 12};
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos(op, a);
        for (int ri = 0; ri < 3; ri++) {
            cv_plan *plans[CV_ALGO_COUNT] = {0};
            for (int i = 0; i < na; i++) {
                cv_spec s;
                cv_spec_init(&s);
                s.op = op;
                s.algo = a[i];
                s.ranks = ranks[ri];
                s.count = 3 * ranks[ri] + 1;
                s.nodes = ranks[ri] % 3 ? 2 : 3;
                char err[CV_ERR_LEN];
                EXPECT(cv_plan_build(&s, &plans[i], err, sizeof err) == CV_OK, "%s %s: %s",
                       cv_op_name(op), cv_algo_name(a[i]), err);
            }
            for (int i = 0; i < na; i++)
                for (int j = 0; j < i; j++)
                    EXPECT(plans[i] && plans[j] && !same_plan(plans[i], plans[j]),
                           "%s at %d ranks: %s and %s build the same plan", cv_op_name(op),
                           ranks[ri], cv_algo_name(a[i]), cv_algo_name(a[j]));
            for (int i = 0; i < na; i++)
                cv_plan_destroy(plans[i]);
        }
    }
}

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
    /* NCCL's double binary tree: both trees are ceil(log2 N) deep; S chunks
     * stream up and back down behind each other */
    case CV_ALGO_DOUBLE_TREE: return 2 * ceil_log2(n) + S - 1;
    /* van de Geijn: binomial scatter, then ring allgather */
    case CV_ALGO_SCATTER_ALLGATHER: return ceil_log2(n) + n - 1;
    /* NCCL's channels are each a ring through all ranks */
    case CV_ALGO_MULTIRING: return 2 * (n - 1);
    /* ring reduce-scatter and allgather inside the K nodes of L ranks, ring
     * allreduce between them */
    case CV_ALGO_HIERARCHICAL: return 2 * (n / K - 1) + 2 * (K - 1);
    /* in-network: every piece to the switch, and back one round later */
    case CV_ALGO_IN_NETWORK: return S + 1;
    case CV_ALGO_PAIRWISE: return n - 1;
    case CV_ALGO_DIRECT:
        switch (op) {
        case CV_OP_BROADCAST:     /* the root sends to one rank at a time */
        case CV_OP_REDUCE:        /* the root takes one rank's input at a time */
        case CV_OP_REDUCESCATTER: /* pairwise */
            return n - 1;
        case CV_OP_ALLREDUCE: return n; /* the parameter server: N-1 in, one broadcast */
        default: return 1;              /* everything at once */
        }
    default: return -1;
    }
}

/* Algorithms that stage data and do local work between receiving and
 * sending on: that work is a sub-phase of its round. (The double tree's
 * ranks with two children add the second child's chunk locally.) */
static bool stages(cv_op op, cv_algo algo)
{
    return (op == CV_OP_ALLREDUCE && algo == CV_ALGO_RECURSIVE_DOUBLING) ||
           (op == CV_OP_ALLREDUCE && algo == CV_ALGO_DOUBLE_TREE) ||
           (op == CV_OP_ALLREDUCE && algo == CV_ALGO_IN_NETWORK) ||
           (op == CV_OP_ALLTOALL && algo == CV_ALGO_BRUCK);
}

static void check_rounds(void)
{
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos(op, a), before = failures;
        for (int i = 0; i < na; i++)
            for (int n = 1; n <= 64; n++)
                for (int v = 0; v < 2 * n; v++) {
                    /* variants: S = 1 or 3 slices, K = every divisor of n nodes */
                    int S = v % 2 ? 3 : 1, K = v / 2 + 1;
                    bool noded = op == CV_OP_ALLREDUCE &&
                                 (a[i] == CV_ALGO_HIERARCHICAL || a[i] == CV_ALGO_MULTIRING);
                    EXPECT(noded == cv_algo_uses_nodes(op, a[i]), "%s %s: nodes", cv_op_name(op),
                           cv_algo_name(a[i]));
                    if (n % K || (K > 1 && !noded))
                        continue;
                    bool sliced = ((op == CV_OP_BROADCAST || op == CV_OP_REDUCE) &&
                                   a[i] == CV_ALGO_RING) ||
                                  (op == CV_OP_ALLREDUCE && (a[i] == CV_ALGO_DOUBLE_TREE ||
                                                             a[i] == CV_ALGO_IN_NETWORK));
                    EXPECT(sliced == cv_algo_uses_slices(op, a[i]), "%s %s: slices",
                           cv_op_name(op), cv_algo_name(a[i]));
                    if (S > 1 && !sliced)
                        continue;
                    cv_spec s;
                    cv_spec_init(&s);
                    s.op = op;
                    s.algo = a[i];
                    s.ranks = n;
                    s.count = 7 * (int64_t)n + 3; /* every chunk and slice non-empty */
                    s.slices = S;
                    s.nodes = K;
                    s.root = cv_op_has_root(op) ? n / 2 : 0;
                    cv_plan *p = NULL;
                    char err[CV_ERR_LEN], f[64];
                    if (cv_plan_build(&s, &p, err, sizeof err)) {
                        EXPECT(0, "%s %s N=%d: %s", cv_op_name(op), cv_algo_name(a[i]), n, err);
                        continue;
                    }
                    int want = n == 1 ? 0 : textbook(op, a[i], n, K, S);
                    int said = cv_plan_textbook_rounds(p, f, sizeof f);
                    EXPECT(p->nrounds == want && cv_plan_comm_steps(p) == want,
                           "%s %s N=%d K=%d S=%d: %d rounds, the textbook says %d",
                           cv_op_name(op), cv_algo_name(a[i]), n, K, S, p->nrounds, want);
                    EXPECT(said == want, "%s %s N=%d S=%d: the formula says %s = %d, not %d",
                           cv_op_name(op), cv_algo_name(a[i]), n, S, f, said, want);
                    if (n > 1 && !stages(op, a[i]))
                        EXPECT(p->nsteps == p->nrounds, "%s %s N=%d: %d steps for %d rounds: a "
                               "step that only copies locally", cv_op_name(op),
                               cv_algo_name(a[i]), n, p->nsteps, p->nrounds);
                    /* a local step belongs to the round before it, or to round 1 */
                    for (int k = 0, seen = 0; k < p->nsteps; k++) {
                        const cv_step *st = &p->steps[k];
                        bool comm = false;
                        for (int64_t x = st->first; x < st->first + st->count; x++)
                            comm |= p->transfers[x].src != p->transfers[x].dst;
                        seen += comm;
                        int expect_round = seen > 0 ? seen : p->nrounds > 0;
                        EXPECT(st->round == expect_round && st->local == !comm,
                               "%s %s N=%d: step %d in round %d", cv_op_name(op),
                               cv_algo_name(a[i]), n, k, st->round);
                    }
                    cv_plan_destroy(p);
                }
        printf("%-14s rounds %s\n", cv_op_name(op), failures == before ? "ok" : "FAILED");
    }
}

/* What run and the captions print. */
static void check_rounds_text(void)
{
    static const struct {
        cv_op op;
        cv_algo algo;
        int ranks;
        int64_t count;
        const char *want;
    } cases[] = {
        {CV_OP_ALLREDUCE, CV_ALGO_RING, 8, 64, "14 steps = 2(N-1)"},
        {CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8, "6 steps = 2(N-1)"},
        {CV_OP_REDUCESCATTER, CV_ALGO_RING, 4, 2, "3 steps = N-1"},
        {CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, 8, 8, "3 steps = log2 N"},
        {CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, 6, 8, "4 steps = floor(log2 N)+2"},
        {CV_OP_BROADCAST, CV_ALGO_TREE, 5, 8, "3 steps = ceil(log2 N)"},
        {CV_OP_BROADCAST, CV_ALGO_RING, 4, 2, "5 steps (S+N-2 = 6 with every chunk non-empty)"},
        {CV_OP_ALLREDUCE, CV_ALGO_RING, 1, 8, "0 steps (one rank: nothing to communicate)"},
        {CV_OP_SENDRECV, CV_ALGO_DIRECT, 4, 8, "1 step = 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cv_spec s;
        cv_spec_init(&s);
        s.op = cases[i].op;
        s.algo = cases[i].algo;
        s.ranks = cases[i].ranks;
        s.count = cases[i].count;
        s.slices = 4; /* read by the pipelined broadcast only */
        cv_plan *p = NULL;
        char err[CV_ERR_LEN], text[128] = "";
        if (cv_plan_build(&s, &p, err, sizeof err) == CV_OK)
            cv_plan_rounds_text(p, text, sizeof text);
        EXPECT(strcmp(text, cases[i].want) == 0, "%s %s N=%d: \"%s\", want \"%s\"",
               cv_op_name(s.op), cv_algo_name(s.algo), s.ranks, text, cases[i].want);
        cv_plan_destroy(p);
    }
}

/* The plan of a ring algorithm, or NULL after counting a failure. */
static cv_plan *ring_plan(cv_op op, int n, int64_t count, int slices, int root)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.algo = CV_ALGO_RING;
    s.ranks = n;
    s.count = count;
    s.slices = slices;
    s.root = root;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    if (cv_plan_build(&s, &p, err, sizeof err))
        EXPECT(0, "%s: %s", cv_op_name(op), err);
    return p;
}

/* The call sequence NCCL's ring kernels run on every rank
 * (src/device/all_reduce.h, reduce_scatter.h, all_gather.h): the rank's
 * k-th call sends round k's transfer and receives round k-1's. */
static void expect_ring_calls(cv_op op, int n)
{
    cv_plan *p = ring_plan(op, n, 5 * (int64_t)n + 1, 1, 0);
    if (!p)
        return;
    int calls = p->nrounds + 1;
    for (int r = 0; r < n; r++)
        for (int k = 0; k < calls; k++) {
            const char *want;
            if (op == CV_OP_ALLREDUCE)
                want = k == 0           ? "send"
                       : k < n - 1      ? "recvReduceSend"
                       : k == n - 1     ? "recvReduceCopySend"
                       : k < 2 * n - 2  ? "recvCopySend"
                                        : "recv";
            else if (op == CV_OP_REDUCESCATTER)
                want = k == 0 ? "send" : k < n - 1 ? "recvReduceSend" : "recvReduceCopy";
            else
                want = k == 0 ? "copySend" : k < n - 1 ? "recvCopySend" : "recv";
            /* call k: what rank r sends in round k and receives from round k-1 */
            const char *sent = NULL, *got = NULL;
            for (int step = 0; step < p->nsteps; step++)
                for (int64_t i = p->steps[step].first;
                     i < p->steps[step].first + p->steps[step].count; i++) {
                    const cv_transfer *t = &p->transfers[i];
                    if (t->src == t->dst)
                        continue;
                    if (t->src == r && p->steps[step].round == k + 1)
                        sent = cv_prim_name(t->prim_send);
                    if (t->dst == r && p->steps[step].round == k)
                        got = cv_prim_name(t->prim_recv);
                }
            EXPECT((k == calls - 1 || (sent && !strcmp(sent, want))) &&
                       (k == 0 || (got && !strcmp(got, want))),
                   "%s ring N=%d rank %d call %d: sends as %s, receives as %s, NCCL calls %s",
                   cv_op_name(op), n, r, k, sent ? sent : "-", got ? got : "-", want);
        }
    cv_plan_destroy(p);
}

/* NCCL's chains (broadcast.h, reduce.h): the root of a broadcast
 * copySends, the ranks after it recvCopySend, the last one recv; a reduce
 * chain starts at root+1 with send, passes recvReduceSend and ends at the
 * root with recvReduceCopy. */
static void expect_chain_calls(cv_op op, int n, int slices)
{
    cv_plan *p = ring_plan(op, n, 4 * (int64_t)slices + 3, slices, n / 2);
    if (!p)
        return;
    const cv_spec s = p->spec;
    for (int64_t i = 0; i < p->ntransfers; i++) {
        const cv_transfer *t = &p->transfers[i];
        int from = (t->src - s.root + n) % n, to = (t->dst - s.root + n) % n; /* positions */
        const char *ws, *wr;
        if (t->src == t->dst) {
            ws = op == CV_OP_BROADCAST ? "copySend" : "";
            wr = "";
        } else if (op == CV_OP_BROADCAST) {
            ws = from == 0 ? "copySend" : "recvCopySend";
            wr = to == n - 1 ? "recv" : "recvCopySend";
        } else {
            ws = from == 1 ? "send" : "recvReduceSend";
            wr = to == 0 ? "recvReduceCopy" : "recvReduceSend";
        }
        EXPECT(!strcmp(cv_prim_name(t->prim_send), ws) && !strcmp(cv_prim_name(t->prim_recv), wr),
               "%s chain N=%d S=%d: %d -> %d is %s -> %s, NCCL: %s -> %s", cv_op_name(op), n,
               slices, t->src, t->dst, cv_prim_name(t->prim_send), cv_prim_name(t->prim_recv), ws,
               wr);
    }
    cv_plan_destroy(p);
}

static void check_nccl_prims(void)
{
    int before = failures;
    for (int n = 2; n <= 9; n++) {
        expect_ring_calls(CV_OP_ALLREDUCE, n);
        expect_ring_calls(CV_OP_REDUCESCATTER, n);
        expect_ring_calls(CV_OP_ALLGATHER, n);
        for (int S = 1; S <= 3; S++) {
            expect_chain_calls(CV_OP_BROADCAST, n, S);
            expect_chain_calls(CV_OP_REDUCE, n, S);
        }
    }
    /* The double tree: the two roots, 0 and (ncclGetDtreeRoots) 1 for an odd
     * N or N-1 for an even N, are the ranks that recvReduceCopySend; every
     * transfer between ranks names both ends' primitives. */
    for (int n = 2; n <= 17; n++) {
        cv_spec s;
        cv_spec_init(&s);
        s.algo = CV_ALGO_DOUBLE_TREE;
        s.ranks = n;
        s.count = 4 * (int64_t)n;
        s.slices = 2;
        cv_plan *p = NULL;
        char err[CV_ERR_LEN];
        if (cv_plan_build(&s, &p, err, sizeof err))
            continue;
        uint64_t roots = 0, want = 1 | (uint64_t)1 << (n % 2 ? 1 : n - 1);
        for (int64_t x = 0; x < p->ntransfers; x++) {
            const cv_transfer *t = &p->transfers[x];
            if (t->src == t->dst)
                continue;
            EXPECT(t->prim_send != CV_PRIM_NONE && t->prim_recv != CV_PRIM_NONE,
                   "double tree N=%d: %d -> %d names no primitive", n, t->src, t->dst);
            if (t->prim_recv == CV_PRIM_RECV_REDUCE_COPY_SEND)
                roots |= (uint64_t)1 << t->dst;
        }
        EXPECT(roots == want, "double tree N=%d: roots 0x%llx, NCCL's 0x%llx", n,
               (unsigned long long)roots, (unsigned long long)want);
        cv_plan_destroy(p);
    }
    /* Algorithms NCCL does not run name no primitive. */
    static const struct {
        cv_op op;
        cv_algo algo;
    } none[] = {{CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING}, {CV_OP_ALLREDUCE, CV_ALGO_DIRECT},
                {CV_OP_ALLGATHER, CV_ALGO_BRUCK}, {CV_OP_BROADCAST, CV_ALGO_TREE},
                {CV_OP_ALLTOALL, CV_ALGO_PAIRWISE}};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        cv_spec s;
        cv_spec_init(&s);
        s.op = none[i].op;
        s.algo = none[i].algo;
        s.ranks = 6;
        cv_plan *p = NULL;
        char err[CV_ERR_LEN];
        if (cv_plan_build(&s, &p, err, sizeof err) == CV_OK)
            for (int64_t x = 0; x < p->ntransfers; x++)
                EXPECT(p->transfers[x].prim_send == CV_PRIM_NONE &&
                           p->transfers[x].prim_recv == CV_PRIM_NONE,
                       "%s %s names an NCCL primitive", cv_op_name(s.op), cv_algo_name(s.algo));
        cv_plan_destroy(p);
    }
    printf("%-14s %s\n", "nccl prims", failures == before ? "ok" : "FAILED");
}

/* An op that does not reduce ignores the redop: a prod that still reaches
 * it (the command line refuses --redop there, but a spec built in code or
 * a lesson's setup may carry one) leaves its random inputs the same as
 * under sum, not the values near 1 that prod's inputs are. */
static void check_redop_ignored(void)
{
    for (int o = 0; o < CV_OP_COUNT; o++) {
        if (cv_op_reduces((cv_op)o))
            continue;
        for (int d = 0; d < CV_DTYPE_COUNT; d++) {
            cv_spec s;
            cv_spec_init(&s);
            s.op = (cv_op)o;
            s.ranks = 4;
            s.count = 8;
            s.dtype = (cv_dtype)d;
            s.root = 1;
            int64_t n = cv_spec_buf_count(&s, CV_BUF_SEND, 1);
            size_t bytes = (size_t)n * cv_dtype_size(s.dtype) + 1;
            unsigned char *a = calloc(1, bytes), *b = calloc(1, bytes);
            s.redop = CV_SUM;
            cv_fill_input(&s, CV_INIT_RANDOM, 5, 1, a);
            s.redop = CV_PROD;
            cv_fill_input(&s, CV_INIT_RANDOM, 5, 1, b);
            EXPECT(memcmp(a, b, bytes) == 0, "%s %s: prod changes the inputs of an op that "
                   "does not reduce", cv_op_name(s.op), cv_dtype_name(s.dtype));
            free(a);
            free(b);
        }
    }
}

int main(void)
{
    check_redop_ignored();
    check_rows();
    check_nccl_prims();
    check_distinct();
    check_rounds();
    check_rounds_text();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
