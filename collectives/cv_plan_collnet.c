/*
 * cv_plan_collnet.c: NCCL's CollNet AllReduce, the in-node/inter-node split
 * NCCL builds when the network itself reduces (InfiniBand SHARP through
 * the CollNet plugin): Direct and Chain.
 *
 * Both have one switch, the network's (participant N), with a slot a node
 * where the nodes' partial sums meet; it adds them (drawn as local
 * sub-phases, a binary tree over the slots) and sends the sum back. They
 * differ inside the node, as NCCL's kernels in src/device/all_reduce.h do:
 *
 * Direct: every GPU of the node is the head of one of its L blocks. Each
 * GPU sends block q straight to head q (a scatter; head q adds the L
 * copies in local sub-phases), the heads send their node's sums to the
 * switch at once, take the network's sum back, and send it straight to
 * every other GPU of the node (a gather). Four rounds a piece; each GPU
 * moves 2(L-1)/L·D inside the node and D/L through the network each way.
 *
 * Chain: the node's GPUs form a chain, local rank 0 at its top (NCCL's
 * collnetChain: up is the network for the first, down the next). A piece
 * is reduced up the chain, each GPU adding its own as it passes on; the top
 * sends the node's sum to the switch, takes the sum of all back and passes
 * it down the chain. 2L rounds a piece; every GPU but the ends moves D each
 * way up the chain and D down; only the top's port reaches the network.
 *
 * The buffer goes through in `slices` pieces, each a round behind the one
 * before (cv__pipeline_run): S + 3 rounds for Direct, 2L + S - 1 for Chain.
 */
#include "cv_internal.h"

typedef struct {
    int n, K, L, S, lv_head, lv_switch; /* the adds' levels: ceil(log2 L), ceil(log2 K) */
    int64_t c, bmax;                    /* bmax: the longest block, a head's slot */
} collnet;

/* ------------------------------------------------------------ Direct */

/* Piece s of block q: [*lo, *hi), and the block's start. */
static int64_t direct_piece(const collnet *x, int q, int s, int64_t *lo, int64_t *hi)
{
    int64_t b0 = cv__chunk(x->c, x->L, q), bl = cv__chunk(x->c, x->L, q + 1) - b0;
    *lo = b0 + cv__chunk(bl, x->S, s);
    *hi = b0 + cv__chunk(bl, x->S, s + 1);
    return b0;
}

static int direct_phase(void *ctx, int r)
{
    (void)ctx;
    return r;
}

static void direct_round(cv_plan *p, void *ctx, int s, int r)
{
    const collnet *x = ctx;
    int L = x->L, sw = x->n;
    for (int j = 0; j < x->K; j++)
        for (int q = 0; q < L; q++) {
            int64_t lo, hi, b0 = direct_piece(x, q, s, &lo, &hi), len = hi - lo;
            int head = j * L + q;
            for (int i = 0; i < L; i++) {
                int g = j * L + i;
                if (r == 0) /* block q of every GPU (the head's own too) into the head's slots */
                    cv__copy(p, g, CV_BUF_SEND, lo, head, CV_BUF_SCRATCH,
                             (int64_t)i * x->bmax + lo - b0, len);
                else if (r == 3 && g != head) /* the sum of all to the node's other GPUs */
                    cv__copy(p, head, CV_BUF_RECV, lo, g, CV_BUF_RECV, lo, len);
            }
            if (r == 1) /* the node's sum to the network */
                cv__copy(p, head, CV_BUF_SCRATCH, lo - b0, sw, CV_BUF_SCRATCH,
                         (int64_t)j * x->c + lo, len);
            else if (r == 2) /* the sum of all nodes back */
                cv__copy(p, sw, CV_BUF_SCRATCH, lo, head, CV_BUF_RECV, lo, len);
        }
}

/* Sub-phases: the heads' adds (round 0), then the switch's (round 1). */
static void direct_sub(cv_plan *p, void *ctx, int s, int r, int k)
{
    const collnet *x = ctx;
    int L = x->L;
    if (k < x->lv_head) {
        if (r != 0)
            return;
        for (int j = 0; j < x->K; j++)
            for (int q = 0; q < L; q++) { /* one GPU alone: its sum is the whole */
                int64_t lo, hi, b0 = direct_piece(x, q, s, &lo, &hi);
                cv__add_slots(p, j * L + q, L, x->bmax, lo - b0, hi - lo, 1 << k, x->K == 1);
            }
        return;
    }
    if (r != 1)
        return;
    for (int q = 0; q < L; q++) {
        int64_t lo, hi;
        direct_piece(x, q, s, &lo, &hi);
        cv__add_slots(p, x->n, x->K, x->c, lo, hi - lo, 1 << (k - x->lv_head), true);
    }
}

static const char *const direct_names[4][4] = {
    [0][0] = "scatter to heads",
    [0][1] = "scatter to heads, heads to the network",
    [0][2] = "scatter to heads, heads to the network, network to heads",
    [0][3] = "scatter to heads, heads to the network, network to heads, heads to peers",
    [1][1] = "heads to the network",
    [1][2] = "heads to the network, network to heads",
    [1][3] = "heads to the network, network to heads, heads to peers",
    [2][2] = "network to heads",
    [2][3] = "network to heads, heads to peers",
    [3][3] = "heads to peers",
};

/* Names of the sub-phases: the heads' levels, then the switch's. */
static void sub_names(const collnet *x, const char **out)
{
    for (int k = 0; k < x->lv_head; k++)
        out[k] = "heads reduce";
    for (int k = 0; k < x->lv_switch; k++)
        out[x->lv_head + k] = "switch reduce";
}

static collnet collnet_of(const cv_plan *p)
{
    collnet x = {.n = p->spec.ranks,
                 .K = cv_spec_nodes(&p->spec),
                 .L = cv_spec_ranks_per_node(&p->spec),
                 .S = p->spec.slices,
                 .c = p->spec.count};
    x.lv_head = cv__log2_ceil(x.L);
    x.lv_switch = cv__log2_ceil(x.K);
    return x;
}

void cv__plan_allreduce_collnet_direct(cv_plan *p)
{
    collnet x = collnet_of(p);
    for (int q = 0; q < x.L; q++) {
        int64_t bl = cv__chunk(x.c, x.L, q + 1) - cv__chunk(x.c, x.L, q);
        x.bmax = bl > x.bmax ? bl : x.bmax;
    }
    p->nswitch = 1;
    p->switch_scratch = (int64_t)x.K * x.c;   /* a slot a node */
    p->scratch_count = (int64_t)x.L * x.bmax; /* a head's slot for each GPU of its node */
    const char *subs[64];
    sub_names(&x, subs);
    cv__pipeline pl = {.slices = x.S,
                       .rounds = 4,
                       .nphases = 4,
                       .subs = x.lv_head + x.lv_switch,
                       .names = &direct_names[0][0],
                       .sub_names = subs,
                       .phase_of = direct_phase,
                       .round = direct_round,
                       .sub = direct_sub};
    cv__pipeline_run(p, &pl, &x);
}

/* ------------------------------------------------------------- Chain */

static int chain_phase(void *ctx, int r)
{
    const collnet *x = ctx;
    return r < x->L - 1 ? 0 : r == x->L - 1 ? 1 : r == x->L ? 2 : 3;
}

static void chain_round(cv_plan *p, void *ctx, int s, int r)
{
    const collnet *x = ctx;
    int L = x->L, sw = x->n;
    int64_t lo = cv__chunk(x->c, x->S, s), len = cv__chunk(x->c, x->S, s + 1) - lo;
    for (int j = 0; j < x->K; j++) {
        int top = j * L;
        if (r < L - 1) { /* up: local L-1-r adds its partial sum into local L-2-r's */
            int from = top + L - 1 - r, to = from - 1;
            cv__recv_reduce(p, CV_AT(from, r == 0 ? CV_BUF_SEND : CV_BUF_RECV, lo),
                            CV_AT(to, CV_BUF_SEND, lo), CV_AT(to, CV_BUF_RECV, lo), len,
                            x->K == 1 && r == L - 2 ? CV_XFER_FINISH : 0);
        } else if (r == L - 1) { /* the node's sum to the network */
            cv__copy(p, top, L == 1 ? CV_BUF_SEND : CV_BUF_RECV, lo, sw, CV_BUF_SCRATCH,
                     (int64_t)j * x->c + lo, len);
        } else if (r == L) { /* the sum of all nodes back to the top */
            cv__copy(p, sw, CV_BUF_SCRATCH, lo, top, CV_BUF_RECV, lo, len);
        } else { /* down: local d passes it to local d + 1 */
            int d = r - L - 1;
            cv__copy(p, top + d, CV_BUF_RECV, lo, top + d + 1, CV_BUF_RECV, lo, len);
        }
    }
}

static void chain_sub(cv_plan *p, void *ctx, int s, int r, int k)
{
    const collnet *x = ctx;
    if (r != x->L - 1)
        return;
    int64_t lo = cv__chunk(x->c, x->S, s), hi = cv__chunk(x->c, x->S, s + 1);
    cv__add_slots(p, x->n, x->K, x->c, lo, hi - lo, 1 << k, true);
}

static const char *const chain_names[4][4] = {
    [0][0] = "up the chain",
    [0][1] = "up the chain, to the network",
    [0][2] = "up the chain, to the network, from the network",
    [0][3] = "up the chain, to the network, from the network, down the chain",
    [1][1] = "to the network",
    [1][2] = "to the network, from the network",
    [1][3] = "to the network, from the network, down the chain",
    [2][2] = "from the network",
    [2][3] = "from the network, down the chain",
    [3][3] = "down the chain",
};

void cv__plan_allreduce_collnet_chain(cv_plan *p)
{
    collnet x = collnet_of(p);
    x.lv_head = 0; /* no heads: the chain adds as it passes */
    p->nswitch = 1;
    p->switch_scratch = (int64_t)x.K * x.c; /* a slot a node */
    const char *subs[64];
    sub_names(&x, subs);
    cv__pipeline pl = {.slices = x.S,
                       .rounds = 2 * x.L,
                       .nphases = 4,
                       .subs = x.lv_switch,
                       .names = &chain_names[0][0],
                       .sub_names = subs,
                       .phase_of = chain_phase,
                       .round = chain_round,
                       .sub = chain_sub};
    cv__pipeline_run(p, &pl, &x);
}
