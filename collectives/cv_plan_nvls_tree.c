/*
 * cv_plan_nvls_tree.c: NCCL's NVLS-Tree AllReduce, NVLink SHARP inside each
 * node and NCCL's double binary tree between the nodes.
 *
 * Each of the K nodes has its own NVSwitch (plan->nswitch = K, switch j
 * being participant N + j). Inside a node GPU q is the head of block q
 * (one of the node's L blocks): the switch reads the block from every GPU
 * of the node and adds the copies as they pass (multimem.ld_reduce), so
 * head q receives its node's sum of block q. Between the nodes, head q of
 * every node is a member of two binary trees over the nodes (ncclGetDtree
 * over the K nodes, as NCCL connects the heads in src/graph/connect.cc):
 * the first half of block q goes up tree 0 and back down it, the second
 * half up and down tree 1, each parent adding its children's partial sums
 * to its own. Every head then stores its finished block to the multicast
 * address (multimem.st) and the switch writes it into every GPU of the
 * node. Only the heads' blocks cross the network, each node sending and
 * receiving D over it in all; inside the node each GPU moves (1+1/L)·D each
 * way, as under NVLS.
 *
 * The buffer goes through in `slices` pieces, pipelined: a piece takes
 * 2H + 4 rounds (load, sum to the heads, H up the trees, H down, store,
 * multicast; H the taller tree's height, ceil(log2 K)) and each piece is a
 * round behind the one before, S + 2H + 3 in all. On one node there are no
 * trees: the plan is NVLS's (cv_plan_switch.c). A parent whose two
 * children arrive in the same round reduces the first as it lands and the
 * second from SCRATCH in a local sub-phase, as the double tree does.
 */
#include "cv_internal.h"

typedef struct {
    int n, K, L, S, H, levels; /* levels: the switch's adds, ceil(log2 L) */
    int64_t c, mc;             /* mc: the multicast area in a switch's SCRATCH */
    int *up[2], *kid[2], *height[2], *depth[2], root[2]; /* kid: two a node */
    int64_t (*run)[2];
} nvls_tree;

/* Piece s of half t of block q: [*lo, *hi). */
static void piece(const nvls_tree *x, int q, int t, int s, int64_t *lo, int64_t *hi)
{
    int64_t b0 = cv__chunk(x->c, x->L, q), bl = cv__chunk(x->c, x->L, q + 1) - b0;
    int64_t h0 = b0 + cv__chunk(bl, 2, t), hl = b0 + cv__chunk(bl, 2, t + 1) - h0;
    *lo = h0 + cv__chunk(hl, x->S, s);
    *hi = h0 + cv__chunk(hl, x->S, s + 1);
}

/* Piece s of every block and half, joined where one ends as the next
 * begins, into x->run; returns how many runs. */
static int runs_of(nvls_tree *x, int s)
{
    int runs = 0;
    for (int q = 0; q < x->L; q++)
        for (int t = 0; t < 2; t++) {
            int64_t lo, hi;
            piece(x, q, t, s, &lo, &hi);
            if (hi <= lo)
                continue;
            if (runs && x->run[runs - 1][1] == lo) {
                x->run[runs - 1][1] = hi;
            } else {
                x->run[runs][0] = lo;
                x->run[runs][1] = hi;
                runs++;
            }
        }
    return runs;
}

static int phase_of(void *ctx, int r)
{
    const nvls_tree *x = ctx;
    return r < 2 ? r : r < 2 + x->H ? 2 : r < 2 + 2 * x->H ? 3 : r - 2 * x->H + 2;
}

/* Whether node j's partial sum of tree t reaches its parent in a round
 * its sibling's does too, and is the second of the two. */
static bool second_child(const nvls_tree *x, int t, int j)
{
    int P = x->up[t][j];
    int k0 = x->kid[t][2 * P], k1 = x->kid[t][2 * P + 1];
    return j == k1 && k0 >= 0 && x->height[t][k0] == x->height[t][k1];
}

/* Whether the write that lands node j's sum of tree t in its parent, up
 * round u, completes the sum of every rank: the parent is the root and
 * this is its last child's round. */
static unsigned finishes(const nvls_tree *x, int t, int P, int u)
{
    return P == x->root[t] && u == x->height[t][P] - 1 ? CV_XFER_FINISH : 0;
}

static void one_round(cv_plan *p, void *ctx, int s, int r)
{
    nvls_tree *x = ctx;
    int L = x->L, H = x->H;
    if (r == 0 || r == 2 * H + 3) { /* every GPU's piece up to the switch, or the multicast down */
        int runs = runs_of(x, s);
        for (int g = 0; g < x->n; g++) {
            int sw = x->n + g / L, i = g % L;
            for (int k = 0; k < runs; k++) {
                int64_t lo = x->run[k][0], len = x->run[k][1] - lo;
                if (r == 0)
                    cv__copy(p, g, CV_BUF_SEND, lo, sw, CV_BUF_SCRATCH, (int64_t)i * x->c + lo,
                             len);
                else
                    cv__copy(p, sw, CV_BUF_SCRATCH, x->mc + lo, g, CV_BUF_RECV, lo, len);
            }
        }
        return;
    }
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < x->K; j++)
            for (int q = 0; q < L; q++) {
                int64_t lo, hi;
                piece(x, q, t, s, &lo, &hi);
                int head = j * L + q, sw = x->n + j, P = x->up[t][j];
                if (r == 1) { /* the node's sum of block q to its head */
                    cv__copy(p, sw, CV_BUF_SCRATCH, lo, head, CV_BUF_RECV, lo, hi - lo);
                } else if (r < 2 + H) { /* up: the nodes of height u to their parents */
                    int u = r - 2;
                    if (x->height[t][j] != u || P < 0)
                        continue;
                    int to = P * L + q;
                    if (second_child(x, t, j))
                        cv__copy(p, head, CV_BUF_RECV, lo, to, CV_BUF_SCRATCH, lo, hi - lo);
                    else
                        cv__recv_reduce(p, CV_AT(head, CV_BUF_RECV, lo), CV_AT(to, CV_BUF_RECV, lo),
                                        CV_AT(to, CV_BUF_RECV, lo), hi - lo, finishes(x, t, P, u));
                } else if (r < 2 + 2 * H) { /* down: the nodes at depth d + 1 from their parents */
                    if (x->depth[t][j] != r - 2 - H + 1)
                        continue;
                    cv__copy(p, P * L + q, CV_BUF_RECV, lo, head, CV_BUF_RECV, lo, hi - lo);
                } else { /* the head stores its finished block to the multicast address */
                    cv__copy(p, head, CV_BUF_RECV, lo, sw, CV_BUF_SCRATCH, x->mc + lo, hi - lo);
                }
            }
}

/* Sub-phases: the switches' adds (level k < levels, in round 0), then a
 * parent's second child of the round (up rounds). */
static void one_sub(cv_plan *p, void *ctx, int s, int r, int k)
{
    nvls_tree *x = ctx;
    int L = x->L;
    if (k < x->levels) {
        if (r != 0)
            return;
        int runs = runs_of(x, s);
        for (int j = 0; j < x->K; j++) /* a node's sum: a partial one of the whole */
            for (int i = 0; i < runs; i++)
                cv__add_slots(p, x->n + j, L, x->c, x->run[i][0], x->run[i][1] - x->run[i][0],
                              1 << k, false);
        return;
    }
    if (r < 2 || r >= 2 + x->H)
        return;
    int u = r - 2;
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < x->K; j++) {
            if (x->height[t][j] != u || x->up[t][j] < 0 || !second_child(x, t, j))
                continue;
            int P = x->up[t][j];
            for (int q = 0; q < L; q++) {
                int64_t lo, hi;
                piece(x, q, t, s, &lo, &hi);
                int to = P * L + q;
                cv__recv_reduce(p, CV_AT(to, CV_BUF_SCRATCH, lo), CV_AT(to, CV_BUF_RECV, lo),
                                CV_AT(to, CV_BUF_RECV, lo), hi - lo, finishes(x, t, P, u));
            }
        }
}

static const char *const phase_names[6][6] = {
    [0][0] = "reducing load",
    [0][1] = "reducing load, sum to heads",
    [0][2] = "reducing load, sum to heads, up the trees",
    [0][3] = "reducing load, sum to heads, up the trees, down the trees",
    [0][4] = "reducing load, sum to heads, up the trees, down the trees, store",
    [0][5] = "reducing load, sum to heads, up the trees, down the trees, store, multicast",
    [1][1] = "sum to heads",
    [1][2] = "sum to heads, up the trees",
    [1][3] = "sum to heads, up the trees, down the trees",
    [1][4] = "sum to heads, up the trees, down the trees, store",
    [1][5] = "sum to heads, up the trees, down the trees, store, multicast",
    [2][2] = "up the trees",
    [2][3] = "up the trees, down the trees",
    [2][4] = "up the trees, down the trees, store",
    [2][5] = "up the trees, down the trees, store, multicast",
    [3][3] = "down the trees",
    [3][4] = "down the trees, store",
    [3][5] = "down the trees, store, multicast",
    [4][4] = "store",
    [4][5] = "store, multicast",
    [5][5] = "multicast",
};

void cv__plan_allreduce_nvls_tree(cv_plan *p)
{
    int K = cv_spec_nodes(&p->spec);
    if (K <= 1) { /* one node: no trees, NVLS alone */
        cv__plan_allreduce_in_network(p);
        return;
    }
    nvls_tree x = {.n = p->spec.ranks,
                   .K = K,
                   .L = cv_spec_ranks_per_node(&p->spec),
                   .S = p->spec.slices,
                   .c = p->spec.count};
    x.mc = (int64_t)x.L * x.c;
    x.levels = cv__log2_ceil(x.L);
    x.run = cv__xmalloc(sizeof *x.run * (size_t)(2 * x.L));
    for (int t = 0; t < 2; t++) {
        x.up[t] = cv__xmalloc(sizeof(int) * (size_t)K);
        x.kid[t] = cv__xmalloc(sizeof(int) * (size_t)(2 * K));
        x.height[t] = cv__xmalloc(sizeof(int) * (size_t)K);
        x.depth[t] = cv__xmalloc(sizeof(int) * (size_t)K);
        x.root[t] = cv__dtree_build(K, t, x.up[t], x.kid[t], x.height[t], x.depth[t]);
        x.H = x.height[t][x.root[t]] > x.H ? x.height[t][x.root[t]] : x.H;
    }
    p->nswitch = K;
    p->switch_scratch = (int64_t)(x.L + 1) * x.c; /* a slot per GPU of the node, then multicast */
    /* a parent's second child lands in SCRATCH, where two arrive at once */
    bool twins = false;
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < K; j++)
            twins |= x.up[t][j] >= 0 && second_child(&x, t, j);
    p->scratch_count = twins ? x.c : 0;
    const char *subs[32]; /* the switch's levels, then a parent's add */
    for (int k = 0; k < x.levels; k++)
        subs[k] = "switch reduce";
    subs[x.levels] = "add the second child";
    cv__pipeline pl = {.slices = x.S,
                       .rounds = 2 * x.H + 4,
                       .nphases = 6,
                       .subs = x.levels + 1,
                       .names = &phase_names[0][0],
                       .sub_names = subs,
                       .phase_of = phase_of,
                       .round = one_round,
                       .sub = one_sub};
    cv__pipeline_run(p, &pl, &x);
    for (int t = 0; t < 2; t++) {
        free(x.up[t]);
        free(x.kid[t]);
        free(x.height[t]);
        free(x.depth[t]);
    }
    free(x.run);
}
