/*
 * test_algos.c: the algorithm registry. Every row has every field (a name,
 * a generator, round and byte formulas, a stage shape, its narration in
 * each language), no row is listed twice, an op's rows sit together, each
 * algorithm has one name that parses back, cv_op_algos and cv_op_has_algo
 * say exactly what the rows say, an algorithm an op does not offer is
 * refused, and every algorithm of an op builds a plan different from each
 * of its siblings', so no algorithm can quietly run another.
 *
 * What a row says of its plan is checked on the plan: for every rank count
 * 1 to 64 the plan has exactly the number of communication rounds its
 * row's formula gives, every step is a round unless the row says the
 * algorithm stages, and the root, the slices, the nodes and a given ring or
 * trees change the plan exactly where the row says the algorithm reads
 * them. Nothing here names an algorithm to decide what to expect: a new
 * row is checked as it stands. (test_algos_textbook checks the formulas
 * themselves against the textbook.) And an op that does not reduce fills
 * the same inputs whatever the redop.
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
        const char *on = cv_op_name(rows[i].op), *an = rows[i].name ? rows[i].name : "?";
        EXPECT(rows[i].name && rows[i].name[0], "row %d (%s) has no name", i, on);
        EXPECT(rows[i].generate != NULL, "row %d (%s %s) has no generator", i, on, an);
        EXPECT(rows[i].rounds != NULL, "%s %s has no round formula", on, an);
        EXPECT(rows[i].bytes != NULL, "%s %s has no textbook bytes formula (bytes_none says "
               "it has none)", on, an);
        EXPECT(rows[i].shape > CV_STAGE_NONE && rows[i].shape < CV_STAGE_COUNT,
               "%s %s has no stage shape", on, an);
        for (int l = 0; l < CV_LANG_COUNT; l++)
            EXPECT(rows[i].narration[l] && rows[i].narration[l][0], "%s %s has no %s narration",
                   on, an, cv_lang_name((cv_lang)l));
        EXPECT(cv_algo_stage_shape(rows[i].op, rows[i].algo) == rows[i].shape &&
                   !strcmp(cv_algo_narration(rows[i].op, rows[i].algo, CV_LANG_EN),
                           rows[i].narration[CV_LANG_EN] ? rows[i].narration[CV_LANG_EN] : ""),
               "%s %s: the accessors disagree with the row", on, an);
        /* one algorithm, one name, in every row and back through the parser */
        EXPECT(!strcmp(cv_algo_name(rows[i].algo), an), "%s %s: its rows name it %s and %s", on,
               an, cv_algo_name(rows[i].algo), an);
        EXPECT(cv_algo_parse(an) == (int)rows[i].algo, "\"%s\" parses to %d, not its row's %d",
               an, cv_algo_parse(an), (int)rows[i].algo);
        EXPECT((unsigned)rows[i].op < CV_OP_COUNT && (unsigned)rows[i].algo < CV_ALGO_COUNT,
               "row %d: op or algo out of range", i);
        for (int j = 0; j < i; j++)
            EXPECT(rows[j].op != rows[i].op || rows[j].algo != rows[i].algo,
                   "%s %s listed twice", cv_op_name(rows[i].op), cv_algo_name(rows[i].algo));
        if (i > 0 && rows[i - 1].op != rows[i].op)
            EXPECT(!seen_ops[rows[i].op], "%s's rows are not together", cv_op_name(rows[i].op));
        seen_ops[rows[i].op] = 1;
    }
    /* every algorithm of cv.h has a row, so a name; no two share one */
    for (int al = 0; al < CV_ALGO_COUNT; al++) {
        bool rowed = false;
        for (int i = 0; i < n; i++)
            rowed |= rows[i].algo == (cv_algo)al;
        EXPECT(rowed, "algorithm %d of cv.h has no row in the registry, so no name", al);
        for (int b = 0; b < al; b++)
            EXPECT(strcmp(cv_algo_name(al), cv_algo_name(b)) != 0, "algorithms %d and %d are "
                   "both \"%s\"", b, al, cv_algo_name(al));
    }
    EXPECT(cv_algo_parse("no-such-algorithm") == -1 && cv_algo_parse(NULL) == -1 &&
               !strcmp(cv_algo_name(CV_ALGO_COUNT), "?"),
           "unknown algorithms are refused");
    EXPECT(cv_algo_stage_shape(CV_OP_SENDRECV, CV_ALGO_RING) == CV_STAGE_NONE &&
               cv_algo_narration(CV_OP_SENDRECV, CV_ALGO_RING, CV_LANG_EN)[0] == '\0',
           "a pair the registry lacks has no shape and no narration");
    for (int sh = 0; sh < CV_STAGE_COUNT; sh++)
        EXPECT(strcmp(cv_stage_shape_name((cv_stage_shape)sh), "?") != 0, "shape %d has no name",
               sh);
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
            int rc = cv_plan_create(&s, &p, err, sizeof err);
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
                EXPECT(cv_plan_create(&s, &plans[i], err, sizeof err) == CV_OK, "%s %s: %s",
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

static bool row_says(cv_op op, cv_algo algo, unsigned flag)
{
    const cv__algo_entry *e = cv__algo_find(op, algo);
    return e && (e->flags & flag);
}

/* Every plan has exactly the rounds its row's formula gives (chunks all
 * non-empty), and every step is a round unless the row says it stages. */
static void check_rounds(void)
{
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos(op, a), before = failures;
        for (int i = 0; i < na; i++) {
            bool noded = cv_algo_uses_nodes(op, a[i]), sliced = cv_algo_uses_slices(op, a[i]);
            bool stages = row_says(op, a[i], CV__STAGES), staged = false;
            for (int n = 1; n <= 64; n++)
                for (int v = 0; v < 2 * n; v++) {
                    /* variants: S = 1 or 3 slices, K = every divisor of n nodes */
                    int S = v % 2 ? 3 : 1, K = v / 2 + 1;
                    if (n % K || (K > 1 && !noded) || (S > 1 && !sliced))
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
                    if (cv_plan_create(&s, &p, err, sizeof err)) {
                        EXPECT(0, "%s %s N=%d: %s", cv_op_name(op), cv_algo_name(a[i]), n, err);
                        continue;
                    }
                    int want = cv_plan_textbook_rounds(p, f, sizeof f);
                    EXPECT(p->nrounds == want && cv_plan_comm_steps(p) == want,
                           "%s %s N=%d K=%d S=%d: %d rounds, its formula %s says %d",
                           cv_op_name(op), cv_algo_name(a[i]), n, K, S, p->nrounds, f, want);
                    EXPECT(n > 1 || (want == 0 && !strcmp(f, "0")),
                           "%s %s: one rank, formula %s = %d", cv_op_name(op),
                           cv_algo_name(a[i]), f, want);
                    if (n > 1 && !stages)
                        EXPECT(p->nsteps == p->nrounds, "%s %s N=%d: %d steps for %d rounds: a "
                               "step that only copies locally", cv_op_name(op),
                               cv_algo_name(a[i]), n, p->nsteps, p->nrounds);
                    staged |= p->nsteps > p->nrounds;
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
            EXPECT(!stages || staged, "%s %s: its row says it stages, but no plan of 2 to 64 "
                   "ranks has a local step", cv_op_name(op), cv_algo_name(a[i]));
        }
        printf("%-14s rounds %s\n", cv_op_name(op), failures == before ? "ok" : "FAILED");
    }
}

/* The plan of (op, algo) at n ranks with one thing of the spec changed. */
static cv_plan *variant(cv_op op, cv_algo algo, int n, int root, int slices, int nodes,
                        const cv_topology *topo)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.algo = algo;
    s.ranks = n;
    s.count = 7 * (int64_t)n + 3;
    s.root = root;
    s.slices = slices;
    s.nodes = nodes;
    s.topo = topo;
    cv_plan *p = NULL;
    char err[CV_ERR_LEN];
    if (cv_plan_create(&s, &p, err, sizeof err))
        EXPECT(0, "%s %s N=%d: %s", cv_op_name(op), cv_algo_name(algo), n, err);
    return p;
}

/* Whether changing one thing changes the plan, at any of a few rank
 * counts; NULL plans count as changed (and as a failure already). */
static bool changes(cv_op op, cv_algo algo, int what)
{
    static const int ranks[] = {4, 6, 8, 12};
    bool changed = false;
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        int n = ranks[i];
        static cv_topology t; /* a ring backwards, two chains for trees */
        memset(&t, 0, sizeof t);
        t.ranks = n;
        t.has_ring = t.has_trees = true;
        for (int r = 0; r < n; r++) {
            t.ring[r] = n - 1 - r;
            t.parent[0][r] = r - 1;
            t.parent[1][r] = r == n - 1 ? -1 : r + 1;
        }
        cv_plan *a = variant(op, algo, n, 0, 1, 1, NULL);
        cv_plan *b = what == 0   ? variant(op, algo, n, n / 2, 1, 1, NULL)
                     : what == 1 ? variant(op, algo, n, 0, 3, 1, NULL)
                     : what == 2 ? variant(op, algo, n, 0, 1, 2, NULL)
                                 : variant(op, algo, n, 0, 1, 1, &t);
        changed |= !a || !b || !same_plan(a, b);
        cv_plan_destroy(a);
        cv_plan_destroy(b);
    }
    return changed;
}

/* The root, the slices, the nodes and a given ring or trees change an
 * algorithm's plan exactly where its row says it reads them. */
static void check_flags(void)
{
    static const struct {
        const char *what;
        unsigned flag;
    } reads[] = {{"the root", CV__USES_ROOT},
                 {"the slices", CV__USES_SLICES},
                 {"the nodes", CV__USES_NODES},
                 {"a given ring or trees", CV__FOLLOWS_TOPO}};
    const cv__algo_entry *rows;
    int n = cv__algo_entries(&rows), before = failures;
    for (int i = 0; i < n; i++)
        for (int w = 0; w < 4; w++) {
            bool says = rows[i].flags & reads[w].flag;
            EXPECT(changes(rows[i].op, rows[i].algo, w) == says,
                   "%s %s: its row says it %s %s, but the plan %s", cv_op_name(rows[i].op),
                   rows[i].name, says ? "reads" : "ignores", reads[w].what,
                   says ? "never changes with it" : "changes with it");
        }
    EXPECT(cv_algo_uses_root(CV_OP_BROADCAST, CV_ALGO_RING) &&
               cv_algo_uses_slices(CV_OP_BROADCAST, CV_ALGO_RING) &&
               cv_algo_follows_topology(CV_OP_BROADCAST, CV_ALGO_RING) &&
               !cv_algo_uses_nodes(CV_OP_BROADCAST, CV_ALGO_RING) &&
               !cv_algo_follows_topology(CV_OP_SENDRECV, CV_ALGO_RING),
           "the flags' accessors read the row");
    printf("%-14s %s\n", "flags", failures == before ? "ok" : "FAILED");
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
        {CV_OP_ALLREDUCE, CV_ALGO_ONE_SHOT, 8, 64, "1 step = 1"},
        {CV_OP_ALLREDUCE, CV_ALGO_TWO_SHOT, 8, 64, "2 steps = 2"},
        {CV_OP_ALLREDUCE, CV_ALGO_TWO_SHOT, 8, 3, "2 steps = 2"},
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
        if (cv_plan_create(&s, &p, err, sizeof err) == CV_OK)
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
    if (cv_plan_create(&s, &p, err, sizeof err))
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
        if (cv_plan_create(&s, &p, err, sizeof err))
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
        if (cv_plan_create(&s, &p, err, sizeof err) == CV_OK)
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

/* One-shot and two-shot AllReduce, the custom all-reduce of vLLM and
 * TensorRT-LLM: their names, one and two rounds whose reading steps are
 * loads, what every rank sends ((N-1)·D for one-shot; for two-shot the
 * others' blocks and then its own block to N-1 peers, 2(N-1)/N·D where N
 * divides the count), the textbook bytes, and results that are right and
 * the same bits on every rank, since every rank sums in one order. */
static void check_one_two_shot(void)
{
    EXPECT(cv_algo_parse("one-shot") == CV_ALGO_ONE_SHOT &&
               cv_algo_parse("oneshot") == CV_ALGO_ONE_SHOT &&
               cv_algo_parse("two-shot") == CV_ALGO_TWO_SHOT &&
               cv_algo_parse("two_shot") == CV_ALGO_TWO_SHOT &&
               cv_op_has_algo(CV_OP_ALLREDUCE, CV_ALGO_ONE_SHOT) &&
               cv_op_has_algo(CV_OP_ALLREDUCE, CV_ALGO_TWO_SHOT) &&
               !cv_op_has_algo(CV_OP_ALLGATHER, CV_ALGO_ONE_SHOT) &&
               cv_algo_stage_shape(CV_OP_ALLREDUCE, CV_ALGO_ONE_SHOT) == CV_STAGE_ALL_PAIRS &&
               cv_algo_stage_shape(CV_OP_ALLREDUCE, CV_ALGO_TWO_SHOT) == CV_STAGE_ALL_PAIRS,
           "one-shot and two-shot are allreduce's, by every spelling");
    static const int ranks[] = {2, 3, 5, 8, 16, 64};
    for (int two = 0; two < 2; two++)
        for (size_t ri = 0; ri < sizeof ranks / sizeof ranks[0]; ri++)
            for (int uneven = 0; uneven < 2; uneven++) {
                int n = ranks[ri];
                cv_spec s;
                cv_spec_init(&s);
                s.algo = two ? CV_ALGO_TWO_SHOT : CV_ALGO_ONE_SHOT;
                s.ranks = n;
                s.count = 8 * (int64_t)n + uneven; /* N divides it, or not */
                s.dtype = CV_FLOAT32;
                const char *an = cv_algo_name(s.algo);
                cv_plan *p = NULL;
                char err[CV_ERR_LEN];
                if (cv_plan_create(&s, &p, err, sizeof err)) {
                    EXPECT(0, "%s N=%d: %s", an, n, err);
                    continue;
                }
                int64_t c = s.count, D = 4 * c;
                EXPECT(p->nrounds == 1 + two, "%s N=%d: %d rounds", an, n, p->nrounds);
                for (int k = 0; k < p->nsteps; k++)
                    EXPECT(p->steps[k].loads == !p->steps[k].local,
                           "%s N=%d: step %d %s loads", an, n, k,
                           p->steps[k].loads ? "is" : "is not");
                for (int r = 0; r < n; r++) {
                    int64_t own = c * (r + 1) / n - c * r / n; /* rank r's block */
                    int64_t want = two ? 4 * (c + (n - 2) * own) : (n - 1) * D;
                    EXPECT(cv_plan_bytes_sent(p, r) == want, "%s N=%d count %lld: rank %d "
                           "sends %lld B, not %lld", an, n, (long long)c, r,
                           (long long)cv_plan_bytes_sent(p, r), (long long)want);
                }
                char f[64];
                int64_t book = cv_spec_textbook_bytes(&s, f, sizeof f);
                int64_t want = two ? (uneven ? 0 : 2 * (n - 1) * D / n) : (n - 1) * D;
                EXPECT(book == want, "%s N=%d count %lld: textbook %lld B (%s), want %lld", an, n,
                       (long long)c, (long long)book, f, (long long)want);
                cv_run_opts o;
                cv_run_opts_init(&o);
                o.init = CV_INIT_RANDOM;
                o.seed = 7;
                cv_trace *t = NULL;
                if (cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err) != CV_OK) {
                    EXPECT(0, "%s N=%d: run: %s", an, n, err);
                } else {
                    EXPECT(cv_trace_wrong(t) == 0, "%s N=%d: %lld wrong", an, n,
                           (long long)cv_trace_wrong(t));
                    for (int r = 1; r < n; r++)
                        EXPECT(!memcmp(cv_trace_output(t, 0), cv_trace_output(t, r), (size_t)D),
                               "%s N=%d: rank %d's sum differs in its bits from rank 0's", an,
                               n, r);
                }
                cv_trace_destroy(t);
                cv_plan_destroy(p);
            }
}

static const test_case cases[] = {
    CASE("redop-ignored", check_redop_ignored),
    CASE("rows", check_rows),
    CASE("nccl-prims", check_nccl_prims),
    CASE("distinct", check_distinct),
    CASE("flags", check_flags),
    CASE("rounds", check_rounds),
    CASE("rounds-text", check_rounds_text),
    CASE("one-two-shot", check_one_two_shot),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
