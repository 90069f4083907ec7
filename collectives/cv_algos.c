/*
 * cv_algos.c: the algorithm registry, one row per (op, algorithm) with the
 * function that generates its plan. Everything that asks which algorithms
 * an op offers (cv_op_algos, cv_op_has_algo, the spec check, `collviz
 * list`, the GUI's algorithm key) reads this table, and cv_plan_build calls
 * the row's generator, so an algorithm exists exactly when it has a row
 * with a generator: there is no switch whose `default:` could quietly run
 * another algorithm.
 *
 * Rows of one op are listed together, default first.
 */
#include <string.h>

#include "cv_internal.h"

/* ------------------------------------------------- textbook round counts */

/* Each writes the formula as a learner reads it and returns its value at
 * the spec's rank count (N >= 2) and slices. Powers of two read "log2 N";
 * other rank counts say which rounding the algorithm takes, and MPICH's
 * fold/unfold algorithms add their two extra rounds. */

static bool pow2(int n) { return (n & (n - 1)) == 0; }
static int log2_floor(int n) { return cv__log2_ceil(cv__pow2_floor(n)); }

static int rounds_one(const cv_spec *s, char *f, size_t len)
{
    (void)s;
    snprintf(f, len, "1");
    return 1;
}

static int rounds_n1(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, "N-1");
    return s->ranks - 1;
}

static int rounds_2n1(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, "2(N-1)");
    return 2 * (s->ranks - 1);
}

/* The parameter server: N-1 reductions into the root, one broadcast. */
static int rounds_server(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, "(N-1)+1");
    return s->ranks;
}

/* A pipelined chain: slice S leaves the head in round S and needs N-2
 * more links. */
static int rounds_chain(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, s->slices == 1 ? "N-1" : "S+N-2");
    return s->slices + s->ranks - 2;
}

static int rounds_log(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, pow2(s->ranks) ? "log2 N" : "ceil(log2 N)");
    return cv__log2_ceil(s->ranks);
}

static int rounds_2log(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, pow2(s->ranks) ? "2 log2 N" : "2 ceil(log2 N)");
    return 2 * cv__log2_ceil(s->ranks);
}

/* NCCL's double binary tree: both trees ceil(log2 N) deep, S chunks in a
 * pipeline up and back down. */
static int rounds_dtree(const cv_spec *s, char *f, size_t len)
{
    if (s->topo && s->topo->has_trees) { /* trees given (an NCCL log's): H is their depth */
        int h = 0;
        for (int t = 0; t < 2; t++)
            for (int r = 0; r < s->ranks; r++) {
                int d = 0;
                for (int at = r; s->topo->parent[t][at] >= 0 && d <= s->ranks; d++)
                    at = s->topo->parent[t][at];
                h = d > h ? d : h;
            }
        snprintf(f, len, s->slices == 1 ? "2H, H = %d deep (the given trees)"
                                        : "2H+S-1, H = %d deep (the given trees)",
                 h);
        return 2 * h + s->slices - 1;
    }
    const char *depth = pow2(s->ranks) ? "2 log2 N" : "2 ceil(log2 N)";
    snprintf(f, len, s->slices == 1 ? "%s" : "%s+S-1", depth);
    return 2 * cv__log2_ceil(s->ranks) + s->slices - 1;
}

/* van de Geijn: a binomial scatter, then a ring allgather. */
static int rounds_scatter_ring(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, pow2(s->ranks) ? "log2 N+N-1" : "ceil(log2 N)+N-1");
    return cv__log2_ceil(s->ranks) + s->ranks - 1;
}

/* Hierarchical allreduce over K nodes of L ranks: reduce-scatter and
 * allgather inside the nodes, allreduce between them. */
static int rounds_hier(const cv_spec *s, char *f, size_t len)
{
    int K = cv_spec_nodes(s), L = cv_spec_ranks_per_node(s);
    snprintf(f, len, "2(L-1)+2(K-1)");
    return 2 * (L - 1) + 2 * (K - 1);
}

/* In-network reduction: S pieces up to the switch, each multicast back one
 * round later. */
static int rounds_switch(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, "S+1");
    return s->slices + 1;
}

static int rounds_fold(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, pow2(s->ranks) ? "log2 N" : "floor(log2 N)+2");
    return log2_floor(s->ranks) + (pow2(s->ranks) ? 0 : 2);
}

static int rounds_2fold(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, pow2(s->ranks) ? "2 log2 N" : "2 floor(log2 N)+2");
    return 2 * log2_floor(s->ranks) + (pow2(s->ranks) ? 0 : 2);
}

/* ---------------------------------------------------------------- registry */

/* What an algorithm reads besides ranks and count: the root (the direct
 * allreduce's parameter server is one), the pipeline's slices; and whether
 * it stages data with local sub-phases (MPICH, Bruck, a tree rank with two
 * children). */
enum {
    USES_ROOT = CV__USES_ROOT,
    USES_SLICES = CV__USES_SLICES,
    STAGES = CV__STAGES,
    USES_NODES = CV__USES_NODES
};

/* clang-format off */
static const cv__algo_entry registry[] = {
    {CV_OP_BROADCAST, CV_ALGO_RING, cv__plan_broadcast_ring, rounds_chain, USES_ROOT | USES_SLICES},
    {CV_OP_BROADCAST, CV_ALGO_TREE, cv__plan_broadcast_tree, rounds_log, USES_ROOT},
    {CV_OP_BROADCAST, CV_ALGO_DIRECT, cv__plan_broadcast_direct, rounds_n1, USES_ROOT},
    {CV_OP_BROADCAST, CV_ALGO_SCATTER_ALLGATHER, cv__plan_broadcast_scatter_allgather,
     rounds_scatter_ring, USES_ROOT},
    {CV_OP_SCATTER, CV_ALGO_DIRECT, cv__plan_scatter_direct, rounds_one, USES_ROOT},
    {CV_OP_SCATTER, CV_ALGO_TREE, cv__plan_scatter_tree, rounds_log, USES_ROOT},
    {CV_OP_GATHER, CV_ALGO_DIRECT, cv__plan_gather_direct, rounds_one, USES_ROOT},
    {CV_OP_GATHER, CV_ALGO_TREE, cv__plan_gather_tree, rounds_log, USES_ROOT},
    {CV_OP_REDUCE, CV_ALGO_RING, cv__plan_reduce_ring, rounds_chain, USES_ROOT | USES_SLICES},
    {CV_OP_REDUCE, CV_ALGO_TREE, cv__plan_reduce_tree, rounds_log, USES_ROOT},
    {CV_OP_REDUCE, CV_ALGO_DIRECT, cv__plan_reduce_direct, rounds_n1, USES_ROOT},
    {CV_OP_ALLGATHER, CV_ALGO_RING, cv__plan_allgather_ring, rounds_n1, 0},
    {CV_OP_ALLGATHER, CV_ALGO_RECURSIVE_DOUBLING, cv__plan_allgather_rd, rounds_fold, 0},
    {CV_OP_ALLGATHER, CV_ALGO_BRUCK, cv__plan_allgather_bruck, rounds_log, 0},
    {CV_OP_ALLGATHER, CV_ALGO_DIRECT, cv__plan_allgather_direct, rounds_one, 0},
    {CV_OP_REDUCESCATTER, CV_ALGO_RING, cv__plan_reducescatter_ring, rounds_n1, 0},
    {CV_OP_REDUCESCATTER, CV_ALGO_RECURSIVE_HALVING, cv__plan_reducescatter_rh, rounds_fold, 0},
    {CV_OP_REDUCESCATTER, CV_ALGO_DIRECT, cv__plan_reducescatter_direct, rounds_n1, 0},
    {CV_OP_ALLREDUCE, CV_ALGO_RING, cv__plan_allreduce_ring, rounds_2n1, 0},
    {CV_OP_ALLREDUCE, CV_ALGO_TREE, cv__plan_allreduce_tree, rounds_2log, 0},
    {CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, cv__plan_allreduce_rd, rounds_fold, STAGES},
    {CV_OP_ALLREDUCE, CV_ALGO_RABENSEIFNER, cv__plan_allreduce_rabenseifner, rounds_2fold, 0},
    {CV_OP_ALLREDUCE, CV_ALGO_DIRECT, cv__plan_allreduce_direct, rounds_server, USES_ROOT},
    {CV_OP_ALLREDUCE, CV_ALGO_DOUBLE_TREE, cv__plan_allreduce_double_tree, rounds_dtree, USES_SLICES | STAGES},
    {CV_OP_ALLREDUCE, CV_ALGO_MULTIRING, cv__plan_allreduce_multiring, rounds_2n1, USES_NODES},
    {CV_OP_ALLREDUCE, CV_ALGO_HIERARCHICAL, cv__plan_allreduce_hierarchical, rounds_hier,
     USES_NODES},
    {CV_OP_ALLREDUCE, CV_ALGO_IN_NETWORK, cv__plan_allreduce_in_network, rounds_switch,
     USES_SLICES | STAGES},
    {CV_OP_ALLTOALL, CV_ALGO_PAIRWISE, cv__plan_alltoall_pairwise, rounds_n1, 0},
    {CV_OP_ALLTOALL, CV_ALGO_BRUCK, cv__plan_alltoall_bruck, rounds_log, STAGES},
    {CV_OP_SENDRECV, CV_ALGO_DIRECT, cv__plan_sendrecv_direct, rounds_one, 0},
};
/* clang-format on */

#define NENTRIES ((int)(sizeof registry / sizeof registry[0]))

int cv__algo_entries(const cv__algo_entry **out)
{
    *out = registry;
    return NENTRIES;
}

const cv__algo_entry *cv__algo_find(cv_op op, cv_algo algo)
{
    for (int i = 0; i < NENTRIES; i++)
        if (registry[i].op == op && registry[i].algo == algo)
            return &registry[i];
    return NULL;
}

int cv_op_algos(cv_op op, cv_algo out[CV_ALGO_COUNT])
{
    int n = 0;
    for (int i = 0; i < NENTRIES; i++)
        if (registry[i].op == op && n < CV_ALGO_COUNT)
            out[n++] = registry[i].algo;
    return n;
}

bool cv_op_has_algo(cv_op op, cv_algo algo) { return cv__algo_find(op, algo) != NULL; }

bool cv_algo_uses_root(cv_op op, cv_algo algo)
{
    const cv__algo_entry *e = cv__algo_find(op, algo);
    return e && (e->flags & CV__USES_ROOT);
}

bool cv_algo_uses_slices(cv_op op, cv_algo algo)
{
    const cv__algo_entry *e = cv__algo_find(op, algo);
    return e && (e->flags & CV__USES_SLICES);
}

bool cv_algo_uses_nodes(cv_op op, cv_algo algo)
{
    const cv__algo_entry *e = cv__algo_find(op, algo);
    return e && (e->flags & CV__USES_NODES);
}

void cv__algo_list(cv_op op, char *out, size_t outlen)
{
    cv_algo a[CV_ALGO_COUNT];
    int n = cv_op_algos(op, a);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", cv_algo_name(a[i]));
    }
}

int cv_plan_textbook_rounds(const cv_plan *p, char *formula, size_t len)
{
    const cv__algo_entry *e = cv__algo_find(p->spec.op, p->spec.algo);
    char f[64] = "0";
    int n = 0;
    if (e && e->rounds && p->spec.ranks > 1)
        n = e->rounds(&p->spec, f, sizeof f);
    if (formula && len)
        snprintf(formula, len, "%s", f);
    return n;
}

int cv_plan_rounds_text(const cv_plan *p, char *out, size_t len)
{
    char f[64];
    int want = cv_plan_textbook_rounds(p, f, sizeof f), have = p->nrounds;
    const char *unit = have == 1 ? "step" : "steps";
    if (p->spec.ranks == 1)
        return snprintf(out, len, "%d %s (one rank: nothing to communicate)", have, unit);
    if (have == want)
        return snprintf(out, len, "%d %s = %s", have, unit, f);
    return snprintf(out, len, "%d %s (%s = %d with every chunk non-empty)", have, unit, f, want);
}
