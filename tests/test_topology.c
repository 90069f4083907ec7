/*
 * test_topology.c: plans that follow a ring and trees given from outside
 * (cv_topology, as an NCCL log gives them) instead of their own.
 *
 * For random rings and for trees shaped like NCCL's (a chain inside each
 * node, a binary tree over the nodes' first ranks, so some ranks have
 * three children) and fully random ones: every ring algorithm and NCCL's
 * double binary tree build valid plans with whole provenance, execute to
 * the reference's results, and send only along the given ring or the given
 * trees' edges; the double tree takes 2H + S - 1 rounds for trees H deep.
 * Topologies that are not a ring or a tree are refused with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cv_internal.h"

static uint64_t rng_state = 0x5eed7090;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int below(int n) { return (int)(next_random() % (uint64_t)n); }

static void random_ring(int n, int32_t *ring)
{
    for (int i = 0; i < n; i++)
        ring[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1);
        int32_t t = ring[i];
        ring[i] = ring[j];
        ring[j] = t;
    }
}

/* NCCL's shape: nodes of g ranks, a chain inside each (in a random order),
 * the chains' heads joined by a binary tree in heap order, rooted in the
 * node of rank `rooted`'s... any node. */
static void nccl_tree(int n, int g, int32_t *parent)
{
    int nodes = (n + g - 1) / g, heads[CV_MAX_RANKS];
    int32_t order[CV_MAX_RANKS];
    for (int k = 0; k < nodes; k++) {
        int lo = k * g, hi = lo + g < n ? lo + g : n;
        random_ring(hi - lo, order);
        for (int i = 0; i < hi - lo; i++)
            parent[lo + order[i]] = i ? lo + order[i - 1] : -2;
        heads[k] = lo + order[0];
    }
    int perm[CV_MAX_RANKS];
    random_ring(nodes, (int32_t *)perm);
    for (int i = 0; i < nodes; i++)
        parent[heads[perm[i]]] = i ? heads[perm[(i - 1) / 2]] : -1;
}

/* Any tree of at most three children: each rank, in a random order, takes
 * a parent among those placed before it that still have room. */
static void random_tree(int n, int32_t *parent)
{
    int32_t order[CV_MAX_RANKS];
    int kids[CV_MAX_RANKS] = {0};
    random_ring(n, order);
    parent[order[0]] = -1;
    for (int i = 1; i < n; i++) {
        int p;
        do
            p = order[below(i)];
        while (kids[p] == 3);
        kids[p]++;
        parent[order[i]] = p;
    }
}

static int height(const int32_t *parent, int n)
{
    int h = 0;
    for (int r = 0; r < n; r++) {
        int d = 0;
        for (int at = r; parent[at] >= 0; at = parent[at])
            d++;
        h = d > h ? d : h;
    }
    return h;
}

static void describe(const cv_spec *s, char *out, size_t len)
{
    snprintf(out, len, "%s/%s N=%d count=%lld %s %s root=%d slices=%d", cv_op_name(s->op),
             cv_algo_name(s->algo), s->ranks, (long long)s->count, cv_dtype_name(s->dtype),
             cv_redop_name(s->redop), s->root, s->slices);
}

/* Builds, checks, runs and verifies; every transfer between ranks must be
 * an edge `allowed` accepts. Returns the plan's rounds (-1 on failure). */
static int check(const cv_spec *s, bool (*allowed)(const cv_topology *, int, int))
{
    char err[CV_ERR_LEN], what[200];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    int rc = cv_plan_create(s, &p, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: build: %s", what, err);
    if (rc)
        return -1;
    EXPECT(cv_plan_validate(p, err, sizeof err) == CV_OK, "%s: validate: %s", what, err);
    if (s->ranks <= CV_MAX_VISUAL_RANKS)
        EXPECT(cv_plan_check_provenance(p, err, sizeof err) == CV_OK, "%s: provenance: %s", what,
               err);
    int bad = 0;
    for (int64_t i = 0; i < p->ntransfers; i++) {
        const cv_transfer *x = &p->transfers[i];
        if (x->src != x->dst && !allowed(p->spec.topo, x->src, x->dst))
            bad++;
    }
    EXPECT(bad == 0, "%s: %d transfers off the given ring or trees", what, bad);
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.init = CV_INIT_RANDOM;
    o.seed = next_random();
    o.visual = s->ranks <= 16;
    cv_trace *t = NULL;
    rc = cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: run: %s", what, err);
    if (!rc)
        EXPECT(cv_trace_wrong(t) == 0, "%s: %lld wrong", what, (long long)cv_trace_wrong(t));
    int rounds = p->nrounds;
    cv_trace_destroy(t);
    cv_plan_destroy(p);
    return rounds;
}

static bool on_ring(const cv_topology *t, int a, int b)
{
    for (int i = 0; i < t->ranks; i++)
        if (t->ring[i] == a)
            return t->ring[(i + 1) % t->ranks] == b;
    return false;
}

static bool on_trees(const cv_topology *t, int a, int b)
{
    for (int k = 0; k < 2; k++)
        if (t->parent[k][a] == b || t->parent[k][b] == a)
            return true;
    return false;
}

static void check_rings(int n, cv_topology *topo)
{
    topo->ranks = n;
    topo->has_ring = true;
    topo->has_trees = false;
    random_ring(n, topo->ring);
    static const struct {
        cv_op op;
        cv_dtype dtype;
        cv_redop redop;
    } cases[] = {{CV_OP_ALLREDUCE, CV_FLOAT32, CV_SUM},   {CV_OP_ALLREDUCE, CV_INT32, CV_MAX},
                 {CV_OP_ALLREDUCE, CV_BFLOAT16, CV_AVG},  {CV_OP_ALLGATHER, CV_INT8, CV_SUM},
                 {CV_OP_REDUCESCATTER, CV_INT64, CV_SUM}, {CV_OP_REDUCESCATTER, CV_FLOAT16, CV_AVG},
                 {CV_OP_BROADCAST, CV_FLOAT64, CV_SUM},   {CV_OP_REDUCE, CV_INT32, CV_PROD}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cv_spec s;
        cv_spec_init(&s);
        s.op = cases[i].op;
        s.algo = CV_ALGO_RING;
        s.dtype = cases[i].dtype;
        s.redop = cases[i].redop;
        s.ranks = n;
        s.count = 1 + below(3 * n + 5); /* rarely a multiple of n */
        s.root = below(n);
        s.slices = 1 + below(4);
        s.topo = topo;
        int rounds = check(&s, on_ring);
        if (s.op == CV_OP_ALLREDUCE && n > 1)
            EXPECT(rounds == 2 * (n - 1), "ring allreduce N=%d on a given ring: %d rounds", n,
                   rounds);
    }
}

static void check_trees(int n, cv_topology *topo, bool nccl_shape)
{
    topo->ranks = n;
    topo->has_ring = false;
    topo->has_trees = true;
    int g = 1 + below(8);
    for (int k = 0; k < 2; k++) {
        if (nccl_shape)
            nccl_tree(n, g, topo->parent[k]);
        else
            random_tree(n, topo->parent[k]);
    }
    char err[CV_ERR_LEN];
    EXPECT(cv_topology_check(topo, err, sizeof err) == CV_OK, "N=%d: the test's tree: %s", n, err);
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLREDUCE;
    s.algo = CV_ALGO_DOUBLE_TREE;
    s.ranks = n;
    s.slices = 1 + below(4);
    s.count = 2 * s.slices + below(4 * n + 7); /* every slice of both halves holds data */
    s.dtype = below(2) ? CV_FLOAT32 : CV_INT64;
    s.redop = below(2) ? CV_SUM : CV_AVG;
    s.topo = topo;
    int rounds = check(&s, on_trees);
    int h0 = height(topo->parent[0], n), h1 = height(topo->parent[1], n);
    int h = h0 > h1 ? h0 : h1;
    if (n > 1)
        EXPECT(rounds == 2 * h + s.slices - 1, "double tree N=%d H=%d S=%d: %d rounds", n, h,
               s.slices, rounds);
}

static void expect_refused(const cv_topology *t, const char *words)
{
    cv_spec s;
    cv_spec_init(&s);
    s.ranks = t->ranks;
    s.topo = t;
    char err[CV_ERR_LEN] = "";
    EXPECT(cv_spec_check(&s, CV_MAX_RANKS, err, sizeof err) == CV_EINVAL && strstr(err, words),
           "refused for '%s': got '%s'", words, err);
}

static void check_refused(cv_topology *t)
{
    memset(t, 0, sizeof *t);
    t->ranks = 4;
    t->has_ring = true;
    int32_t ring[4] = {0, 2, 2, 1};
    memcpy(t->ring, ring, sizeof ring);
    expect_refused(t, "not a permutation");
    t->has_ring = false;
    t->has_trees = true;
    int32_t cyc[4] = {-1, 2, 3, 1}, two[4] = {-1, 0, -1, 2}, four[5] = {-1, 0, 0, 0, 0};
    memcpy(t->parent[0], cyc, sizeof cyc);
    memcpy(t->parent[1], cyc, sizeof cyc);
    expect_refused(t, "cycle");
    memcpy(t->parent[0], two, sizeof two);
    expect_refused(t, "2 roots");
    t->ranks = 5;
    memcpy(t->parent[0], four, sizeof four);
    memcpy(t->parent[1], four, sizeof four);
    expect_refused(t, "more than three children");
    cv_spec s;
    cv_spec_init(&s);
    s.ranks = 4;
    s.topo = t; /* 5 ranks given, 4 asked */
    t->has_trees = false;
    char err[CV_ERR_LEN] = "";
    EXPECT(cv_spec_check(&s, CV_MAX_RANKS, err, sizeof err) == CV_EINVAL &&
               strstr(err, "the given ring and trees have 5 ranks"),
           "rank mismatch: %s", err);
}

/* Every rank count's rings and trees, drawn from one random stream: run
 * apart they would be other rings and trees, so they are one case. */
static void check_given(void)
{
    cv_topology *topo = calloc(1, sizeof *topo);
    static const int ranks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 24, 32, 64, 100};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        for (int rep = 0; rep < 3; rep++) {
            check_rings(ranks[i], topo);
            check_trees(ranks[i], topo, true);
            check_trees(ranks[i], topo, false);
        }
    }
    free(topo);
}

static void refused(void)
{
    cv_topology *topo = calloc(1, sizeof *topo);
    check_refused(topo);
    free(topo);
}

static const test_case cases[] = {
    CASE("given", check_given),
    CASE("refused", refused),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
