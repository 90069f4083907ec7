/*
 * cv_plan_tree.c: NCCL's tree allreduce, the double binary tree.
 *
 * NCCL builds two binary trees over the ranks (src/graph/trees.cc): tree 0
 * from the binary representation of the rank (ncclGetBtree: the lowest set
 * bit gives a rank's level, rank 0 is the root with a single child), tree 1
 * its mirror (rank -> N-1-rank) for an even N or its shift by one for an
 * odd N, so that a rank that is an inner node of one tree is a leaf of the
 * other. Each tree carries half of the buffer, cut into `slices` chunks
 * that stream up the tree (reduce) and straight back down (broadcast) in a
 * pipeline. Both trees are ceil(log2 N) deep, so the plan takes 2
 * ceil(log2 N) + S - 1 rounds. (NCCL runs the trees between nodes and a
 * chain inside each node; here every rank is a node of the trees.)
 *
 * Schedule: a rank sends chunk s up in round s + height(parent) - 1, so all
 * children of a rank arrive in the same round; the first is reduced with
 * the rank's own input as it lands (reduce-copy into RECV), a second lands
 * in SCRATCH and is added in a local sub-phase of that round (NCCL reduces
 * both incoming streams in one primitive). The root finishes chunk s in
 * round s + H - 1 and sends it down in round s + H; a rank at depth d
 * passes it on in round s + H + d. Primitives as NCCL's runTreeSplit
 * calls them: leaves send and recv, inner ranks recvReduceSend and
 * recvCopySend, the root recvReduceCopySend.
 */
#include <string.h>

#include "cv_internal.h"

/* NCCL's binary tree (ncclGetBtree): rank's parent and up to two children,
 * -1 where there is none. */
static void btree(int n, int rank, int *up, int *down0, int *down1)
{
    int bit = 1;
    while (bit < n && !(bit & rank))
        bit <<= 1;
    if (rank == 0) {
        *up = *down0 = -1;
        *down1 = n > 1 ? bit >> 1 : -1;
        return;
    }
    int u = (rank ^ bit) | (bit << 1);
    *up = u >= n ? rank ^ bit : u;
    int lowbit = bit >> 1;
    *down0 = lowbit == 0 ? -1 : rank - lowbit;
    int d1 = lowbit == 0 ? -1 : rank + lowbit;
    while (d1 >= n) { /* the second child must exist: try nearer ones */
        d1 = lowbit == 0 ? -1 : rank + lowbit;
        lowbit >>= 1;
    }
    *down1 = d1;
}

/* Tree t (0 or 1) of NCCL's double binary tree (ncclGetDtree). */
static void dtree(int n, int t, int rank, int *up, int *down0, int *down1)
{
    if (t == 0) {
        btree(n, rank, up, down0, down1);
        return;
    }
    bool shift = n % 2 == 1; /* odd: shift by one; even: mirror */
    int r = shift ? (rank - 1 + n) % n : n - 1 - rank, link[3];
    btree(n, r, &link[0], &link[1], &link[2]);
    for (int i = 0; i < 3; i++)
        if (link[i] >= 0)
            link[i] = shift ? (link[i] + 1) % n : n - 1 - link[i];
    *up = link[0];
    *down0 = link[1];
    *down1 = link[2];
}

/* Depth d for member r and its subtree; returns r's height. */
static int dtree_fill(const int *kid, int *height, int *depth, int r, int d)
{
    int h = 0;
    depth[r] = d;
    for (int i = 0; i < 2; i++)
        if (kid[2 * r + i] >= 0) {
            int hc = dtree_fill(kid, height, depth, kid[2 * r + i], d + 1) + 1;
            h = hc > h ? hc : h;
        }
    return height[r] = h;
}

int cv__dtree_build(int n, int t, int *up, int *kid, int *height, int *depth)
{
    int root = 0;
    for (int r = 0; r < n; r++) {
        dtree(n, t, r, &up[r], &kid[2 * r], &kid[2 * r + 1]);
        if (up[r] < 0)
            root = r;
    }
    dtree_fill(kid, height, depth, root, 0);
    return root;
}

int cv__dtree_height(int n)
{
    int *a = cv__xmalloc(sizeof(int) * (size_t)(5 * n)), H = 0;
    for (int t = 0; t < 2; t++) {
        int root = cv__dtree_build(n, t, a, a + n, a + 3 * n, a + 4 * n);
        H = a[3 * n + root] > H ? a[3 * n + root] : H;
    }
    free(a);
    return H;
}

typedef struct {
    int up, nchild, child[3];
    int height, depth;
} tree_node;

static int node_height(tree_node *t, int r)
{
    int h = 0;
    for (int i = 0; i < t[r].nchild; i++) {
        int hc = node_height(t, t[r].child[i]) + 1;
        h = hc > h ? hc : h;
    }
    return t[r].height = h;
}

static void node_depth(tree_node *t, int r, int d)
{
    t[r].depth = d;
    for (int i = 0; i < t[r].nchild; i++)
        node_depth(t, t[r].child[i], d + 1);
}

/* Builds tree t over n ranks, NCCL's or the one given with the spec (an
 * NCCL log's: a chain inside each node, up to three children where the
 * chain meets the trees between nodes); returns its root. */
static int build_tree(const cv_plan *p, int n, int t, tree_node *nodes)
{
    const cv_topology *given = p->spec.topo && p->spec.topo->has_trees ? p->spec.topo : NULL;
    int root = -1;
    for (int r = 0; r < n; r++)
        nodes[r].nchild = 0;
    for (int r = 0; r < n; r++) {
        if (given) {
            nodes[r].up = given->parent[t][r];
            if (nodes[r].up >= 0) {
                tree_node *u = &nodes[nodes[r].up];
                u->child[u->nchild++] = r; /* at most three: cv_topology_check */
            }
        } else {
            int d0, d1;
            dtree(n, t, r, &nodes[r].up, &d0, &d1);
            if (d0 >= 0)
                nodes[r].child[nodes[r].nchild++] = d0;
            if (d1 >= 0)
                nodes[r].child[nodes[r].nchild++] = d1;
        }
        if (nodes[r].up < 0)
            root = r;
    }
    node_height(nodes, root);
    node_depth(nodes, root, 0);
    return root;
}

/* Which child of its parent rank c is (0, 1 or 2). */
static int child_index(const tree_node *t, int c)
{
    const tree_node *u = &t[t[c].up];
    return u->child[0] == c ? 0 : u->child[1] == c ? 1 : 2;
}

void cv__plan_allreduce_double_tree(cv_plan *p)
{
    int n = p->spec.ranks, S = p->spec.slices;
    int64_t c = p->spec.count;
    tree_node *trees[2];
    int root[2], H = 0;
    for (int t = 0; t < 2; t++) {
        trees[t] = cv__xcalloc((size_t)n, sizeof *trees[t]);
        root[t] = build_tree(p, n, t, trees[t]);
        H = trees[t][root[t]].height > H ? trees[t][root[t]].height : H;
    }
    /* A second child's chunk lands in SCRATCH first, a third's (given trees
     * only) after it. */
    bool three = false;
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < n; r++)
            three |= trees[t][r].nchild == 3;
    p->scratch_count = three ? 2 * c : c;
    for (int round = 0; round < 2 * H + S - 1; round++) {
        bool up = round <= H + S - 2, down = round >= H;
        cv__plan_begin(p, up && down ? "up and down" : up ? "reduce up" : "broadcast down");
        bool staged = false;
        for (int t = 0; t < 2; t++) {
            const tree_node *tn = trees[t];
            int64_t lo_t = cv__chunk(c, 2, t), len = cv__chunk(c, 2, t + 1) - lo_t;
            for (int r = 0; r < n; r++) {
                const tree_node *v = &tn[r];
                /* up: chunk s leaves r in round s + height(parent) - 1 */
                int s = v->up >= 0 ? round - (tn[v->up].height - 1) : -1;
                if (s >= 0 && s < S) {
                    int64_t lo = lo_t + cv__chunk(len, S, s), cnt = lo_t + cv__chunk(len, S, s + 1) - lo;
                    const tree_node *par = &tn[v->up];
                    bool leaf = v->nchild == 0, at_root = par->up < 0;
                    unsigned fin = at_root && par->nchild == 1 ? CV_XFER_FINISH : 0;
                    int64_t first = p->ntransfers;
                    int ci = child_index(tn, r);
                    if (ci == 0)
                        cv__recv_reduce(p, CV_AT(r, leaf ? CV_BUF_SEND : CV_BUF_RECV, lo),
                                        CV_AT(v->up, CV_BUF_SEND, lo),
                                        CV_AT(v->up, CV_BUF_RECV, lo), cnt, fin);
                    else {
                        cv__copy(p, r, leaf ? CV_BUF_SEND : CV_BUF_RECV, lo, v->up,
                                 CV_BUF_SCRATCH, (ci - 1) * c + lo, cnt);
                        staged |= cnt > 0;
                    }
                    cv__prims(p, first, leaf ? CV_PRIM_SEND : CV_PRIM_RECV_REDUCE_SEND,
                              at_root ? CV_PRIM_RECV_REDUCE_COPY_SEND : CV_PRIM_RECV_REDUCE_SEND);
                }
                /* down: chunk s leaves r for its children in round s + H + depth(r) */
                s = round - H - v->depth;
                if (s < 0 || s >= S)
                    continue;
                int64_t lo = lo_t + cv__chunk(len, S, s), cnt = lo_t + cv__chunk(len, S, s + 1) - lo;
                for (int i = 0; i < v->nchild; i++) {
                    int ch = v->child[i];
                    int64_t first = p->ntransfers;
                    cv__copy(p, r, CV_BUF_RECV, lo, ch, CV_BUF_RECV, lo, cnt);
                    cv__prims(p, first, v->up < 0 ? CV_PRIM_RECV_REDUCE_COPY_SEND : CV_PRIM_RECV_COPY_SEND,
                              tn[ch].nchild == 0 ? CV_PRIM_RECV : CV_PRIM_RECV_COPY_SEND);
                }
            }
        }
        cv__plan_end(p);
        if (!staged)
            continue;
        /* a third child's chunk, added to the second's, then the second's
         * added to the first's: sub-phases of the round */
        bool third = false;
        for (int t = 0; t < 2 && three; t++)
            for (int r = 0; r < n; r++) {
                const tree_node *v = &trees[t][r];
                int s = round - (v->height - 1);
                if (v->nchild == 3 && s >= 0 && s < S) {
                    int64_t lo_t = cv__chunk(c, 2, t), len = cv__chunk(c, 2, t + 1) - lo_t;
                    int64_t lo = lo_t + cv__chunk(len, S, s);
                    int64_t cnt = lo_t + cv__chunk(len, S, s + 1) - lo;
                    if (!third)
                        cv__plan_begin(p, "local reduce");
                    third = true;
                    cv__recv_reduce(p, CV_AT(r, CV_BUF_SCRATCH, c + lo),
                                    CV_AT(r, CV_BUF_SCRATCH, lo), CV_AT(r, CV_BUF_SCRATCH, lo),
                                    cnt, 0);
                }
            }
        if (third)
            cv__plan_end(p);
        cv__plan_begin(p, "local reduce");
        for (int t = 0; t < 2; t++) {
            const tree_node *tn = trees[t];
            int64_t lo_t = cv__chunk(c, 2, t), len = cv__chunk(c, 2, t + 1) - lo_t;
            for (int r = 0; r < n; r++) {
                const tree_node *v = &tn[r];
                int s = round - (v->height - 1);
                if (v->nchild < 2 || s < 0 || s >= S)
                    continue;
                int64_t lo = lo_t + cv__chunk(len, S, s), cnt = lo_t + cv__chunk(len, S, s + 1) - lo;
                cv__recv_reduce(p, CV_AT(r, CV_BUF_SCRATCH, lo), CV_AT(r, CV_BUF_RECV, lo),
                                CV_AT(r, CV_BUF_RECV, lo), cnt, v->up < 0 ? CV_XFER_FINISH : 0);
            }
        }
        cv__plan_end(p);
    }
    free(trees[0]);
    free(trees[1]);
}
