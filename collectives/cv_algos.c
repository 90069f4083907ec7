/*
 * cv_algos.c: the algorithm registry, one row per algorithm of an op, and
 * every fact the program knows about it: its name, the function that
 * generates its plan, the textbook's round count and the bytes the
 * textbook's beta term counts (with the formulas a learner reads), the
 * shape the stage draws it in, what it reads of a spec, and the paragraph
 * that explains it in English and Chinese. Everything that asks about an
 * algorithm reads this table through cv.h (cv_op_algos, cv_algo_name,
 * cv_algo_parse, the spec check, cv_plan_create, cv_plan_textbook_rounds,
 * cv_spec_textbook_bytes, cv_algo_stage_shape, cv_algo_narration), so an
 * algorithm exists exactly when it has a row: there is no switch whose
 * `default:` could quietly run another algorithm, or show 0 for one it
 * does not know. A new algorithm is a CV_ALGO_* value in cv.h, a row here
 * and its generator; test_algos fails on a row with a field left out.
 *
 * Rows of one op are listed together, default first. The formulas follow
 * Thakur, Rabenseifner & Gropp (2005) and NCCL; tests/test_algos_textbook.c
 * checks them against those sources, written out again independently.
 */
#include <string.h>
#include <strings.h>

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

static int rounds_two(const cv_spec *s, char *f, size_t len)
{
    (void)s;
    snprintf(f, len, "2");
    return 2;
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
    snprintf(f, len, s->slices > 1 ? "2(L-1)+2(K-1)+S-1" : "2(L-1)+2(K-1)");
    return 2 * (L - 1) + 2 * (K - 1) + (s->slices > 1 ? s->slices - 1 : 0);
}

/* In-network reduction: S pieces up to the switch, each multicast back one
 * round later. */
static int rounds_switch(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, "S+1");
    return s->slices + 1;
}

/* AllReduce in the network: inside a node (NVLS) a piece takes 4 rounds
 * (the reducing load up, its sum down to the owner, the owner's store,
 * the multicast), pipelined; across nodes (SHARP) 2. */
static int rounds_switch_allreduce(const cv_spec *s, char *f, size_t len)
{
    if (s->ranks > 1 && cv_spec_nodes(s) <= 1) {
        snprintf(f, len, "S+3");
        return s->slices + 3;
    }
    return rounds_switch(s, f, len);
}

/* NVLS-Tree: load, sum to the heads, H up NCCL's trees over the K nodes
 * and H down, store, multicast, a piece a round behind the one before; on
 * one node NVLS alone. */
static int rounds_nvls_tree(const cv_spec *s, char *f, size_t len)
{
    int K = cv_spec_nodes(s);
    if (K <= 1)
        return rounds_switch_allreduce(s, f, len);
    int h = cv__dtree_height(K);
    snprintf(f, len, "2H+S+3, H = %d (the trees' depth)", h);
    return 2 * h + s->slices + 3;
}

/* CollNet Direct: scatter to the heads, to the network, back, to the
 * peers, pipelined; a GPU alone in its node is its own head (no scatter,
 * no peers). */
static int rounds_collnet_direct(const cv_spec *s, char *f, size_t len)
{
    bool alone = cv_spec_ranks_per_node(s) == 1;
    snprintf(f, len, alone ? "S+1 (L = 1: no scatter, no peers)" : "S+3");
    return s->slices + (alone ? 1 : 3);
}

/* CollNet Chain: L-1 hops up the node's chain, to the network and back,
 * L-1 hops down, pipelined. */
static int rounds_collnet_chain(const cv_spec *s, char *f, size_t len)
{
    snprintf(f, len, "2L+S-1");
    return 2 * cv_spec_ranks_per_node(s) + s->slices - 1;
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

/* ------------------------------------------------- textbook byte counts */

/* Each returns the bytes through the busiest port, summed over the rounds,
 * as the textbook's beta term counts them for an op of D bytes (the
 * message, or the N blocks of a gathered or scattered buffer) at N >= 2
 * ranks, and writes the formula; or returns 0 and writes nothing where the
 * textbook quotes no figure (a count its chunks do not divide, a rank count
 * it pads). */

#define DOT "\xC2\xB7" /* the middle dot of "2(N-1)/N·D", in UTF-8 */

static int64_t quote(char *f, size_t len, const char *formula, int64_t bytes)
{
    snprintf(f, len, "%s", formula);
    return bytes;
}

/* No figure to quote: the algorithm's traffic has no one textbook formula
 * (NCCL's double tree, the hierarchical and in-network allreduce, Bruck's
 * alltoall, van de Geijn's broadcast). */
static int64_t bytes_none(const cv_spec *s, int64_t D, char *f, size_t len)
{
    (void)s, (void)D, (void)f, (void)len;
    return 0;
}

/* Point to point: the buffer once. */
static int64_t bytes_whole(const cv_spec *s, int64_t D, char *f, size_t len)
{
    (void)s;
    return quote(f, len, "D", D);
}

/* Every rank's share but its own: the gathering and scattering ops. */
static int64_t bytes_share(const cv_spec *s, int64_t D, char *f, size_t len)
{
    int64_t N = s->ranks;
    return quote(f, len, "(N-1)/N" DOT "D", (N - 1) * D / N);
}

/* The root's port, one rank after another; or every rank's, when each
 * reads every peer's whole buffer (one-shot). */
static int64_t bytes_linear(const cv_spec *s, int64_t D, char *f, size_t len)
{
    int64_t N = s->ranks;
    return quote(f, len, "(N-1)" DOT "D", (N - 1) * D);
}

/* A pipelined chain: S slices of D/S over S+N-2 rounds. */
static int64_t bytes_chain(const cv_spec *s, int64_t D, char *f, size_t len)
{
    int64_t N = s->ranks, S = s->slices > 0 ? s->slices : 1;
    if (S == 1)
        return quote(f, len, "(N-1)" DOT "D", (N - 1) * D);
    return s->count % S == 0 ? quote(f, len, "(S+N-2)/S" DOT "D", (S + N - 2) * D / S) : 0;
}

/* A binomial tree: the whole buffer in each of ceil(log2 N) rounds. */
static int64_t bytes_tree(const cv_spec *s, int64_t D, char *f, size_t len)
{
    return quote(f, len, "ceil(log2 N)" DOT "D", cv__log2_ceil(s->ranks) * D);
}

/* Reduce up a binomial tree, broadcast back down. */
static int64_t bytes_2tree(const cv_spec *s, int64_t D, char *f, size_t len)
{
    return quote(f, len, "2 ceil(log2 N)" DOT "D", 2 * cv__log2_ceil(s->ranks) * D);
}

/* A reduce-scatter and all-gather: D/N in each of a ring's 2(N-1) rounds,
 * or (N-1)/N·D in each of two-shot's 2. */
static int64_t bytes_ring(const cv_spec *s, int64_t D, char *f, size_t len)
{
    int64_t N = s->ranks;
    return s->count % N == 0 ? quote(f, len, "2(N-1)/N" DOT "D", 2 * (N - 1) * D / N) : 0;
}

/* Recursive halving then doubling moves what the ring moves, at a power
 * of two. */
static int64_t bytes_rabenseifner(const cv_spec *s, int64_t D, char *f, size_t len)
{
    return (s->ranks & (s->ranks - 1)) == 0 ? bytes_ring(s, D, f, len) : 0;
}

/* Recursive doubling: the whole buffer in each of log2 N rounds, at a
 * power of two. */
static int64_t bytes_doubling(const cv_spec *s, int64_t D, char *f, size_t len)
{
    if (s->ranks & (s->ranks - 1))
        return 0;
    return quote(f, len, "log2 N" DOT "D", cv__log2_ceil(s->ranks) * D);
}

/* The parameter server: N-1 buffers in, then N-1 out. */
static int64_t bytes_server(const cv_spec *s, int64_t D, char *f, size_t len)
{
    int64_t N = s->ranks;
    return quote(f, len, "2(N-1)" DOT "D", 2 * (N - 1) * D);
}

/* ---------------------------------------------------------------- registry */

/* What an algorithm reads besides ranks and count: the root (the direct
 * allreduce's parameter server is one), the pipeline's slices, the nodes,
 * a ring or trees given with the spec; and whether it stages data with
 * local sub-phases (MPICH, Bruck, a tree rank with two children, the
 * switch's additions). */
enum {
    USES_ROOT = CV__USES_ROOT,
    USES_SLICES = CV__USES_SLICES,
    STAGES = CV__STAGES,
    USES_NODES = CV__USES_NODES,
    FOLLOWS_TOPO = CV__FOLLOWS_TOPO,
    SIMPLE_ONLY = CV__SIMPLE_ONLY
};

/* MPICH's fold for a rank count that is not a power of two, which
 * recursive doubling, halving and Rabenseifner share. */
#define FOLD_EN                                                                                    \
    " With N not a power of two, the extra ranks first fold their data into a partner and get "    \
    "the result back at the end (2 more steps)."
#define FOLD_ZH "N 不是 2 的幂时，多出的进程先把数据并入一个伙伴，最后再取回结果（多 2 步）。"

/* clang-format off */
static const cv__algo_entry registry[] = {
    {.op = CV_OP_BROADCAST, .algo = CV_ALGO_RING, .name = "ring",
     .generate = cv__plan_broadcast_ring, .rounds = rounds_chain, .bytes = bytes_chain,
     .shape = CV_STAGE_CHAIN, .flags = USES_ROOT | USES_SLICES | FOLLOWS_TOPO,
     .narration[CV_LANG_EN] =
         "Ring (a chain): the root sends the whole buffer to its neighbour, which passes it on: "
         "N-1 steps, each moving the whole buffer over one link. With --slices S the buffer goes "
         "in S pieces that follow each other down the chain, so the links work at the same time "
         "(S+N-2 steps of 1/S of the buffer).",
     .narration[CV_LANG_ZH] =
         "环（链）：根进程把整个缓冲区发给邻居，邻居再往下传：共 N-1 步，"
         "每步在一条链路上传整个缓冲区。用 --slices S 时缓冲区分成 S 片依次沿链流动，"
         "各链路同时工作（S+N-2 步，每步 1/S 的缓冲区）。"},
    {.op = CV_OP_BROADCAST, .algo = CV_ALGO_TREE, .name = "tree",
     .generate = cv__plan_broadcast_tree, .rounds = rounds_log, .bytes = bytes_tree,
     .shape = CV_STAGE_TREE, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Binomial tree: in each step every rank that has the buffer sends it to one rank that "
         "has not, so the holders double: ceil(log2 N) steps, each link carrying the whole buffer.",
     .narration[CV_LANG_ZH] =
         "二项树：每一步，已有数据的每个进程把整个缓冲区发给一个还没有的进程，持有者数量翻倍："
         "共 ceil(log2 N) 步，每条链路传整个缓冲区。"},
    {.op = CV_OP_BROADCAST, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_broadcast_direct, .rounds = rounds_n1, .bytes = bytes_linear,
     .shape = CV_STAGE_STAR, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Direct: the root sends the whole buffer to one rank after another: N-1 steps, all "
         "through the root's port.",
     .narration[CV_LANG_ZH] =
         "直接法：根进程依次把整个缓冲区发给每个进程：共 N-1 步，全部经过根进程的端口。"},
    {.op = CV_OP_BROADCAST, .algo = CV_ALGO_SCATTER_ALLGATHER, .name = "scatter-allgather",
     .generate = cv__plan_broadcast_scatter_allgather, .rounds = rounds_scatter_ring,
     .bytes = bytes_none, .shape = CV_STAGE_RING, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Scatter, then all-gather (van de Geijn): the root first scatters one block to each rank "
         "down a binomial tree (ceil(log2 N) steps), then a ring all-gather gives every rank all "
         "blocks (N-1 steps). More steps than a tree, but each link carries about 2/N of the "
         "buffer per step: better for long messages.",
     .narration[CV_LANG_ZH] =
         "先分发再全收集（van de Geijn）：根进程先沿二项树把每块发给对应进程（ceil(log2 N) 步），"
         "再用环形 all-gather 让每个进程拿到全部数据块（N-1 步）。步数比树多，"
         "但每步每条链路只传约 2/N 的数据：适合长消息。"},
    {.op = CV_OP_SCATTER, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_scatter_direct, .rounds = rounds_one, .bytes = bytes_share,
     .shape = CV_STAGE_STAR, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Direct: in one step the root sends each rank its own block; its port carries N-1 blocks.",
     .narration[CV_LANG_ZH] =
         "直接法：一步之内根进程把各自的数据块发给每个进程；根进程的端口要传 N-1 块。"},
    {.op = CV_OP_SCATTER, .algo = CV_ALGO_TREE, .name = "tree", .generate = cv__plan_scatter_tree,
     .rounds = rounds_log, .bytes = bytes_share, .shape = CV_STAGE_TREE, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Binomial tree: the root sends half of the blocks to the rank halfway round, each holder "
         "splits what it holds again, and so on: ceil(log2 N) steps, the amount sent halving each "
         "step.",
     .narration[CV_LANG_ZH] =
         "二项树：根进程把一半数据块发给相隔一半的进程，每个持有者再把手上的数据对半分，依此类推："
         "共 ceil(log2 N) 步，每步发送量减半。"},
    {.op = CV_OP_GATHER, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_gather_direct, .rounds = rounds_one, .bytes = bytes_share,
     .shape = CV_STAGE_STAR, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Direct: in one step every rank sends its block to the root; the root's port receives "
         "N-1 blocks.",
     .narration[CV_LANG_ZH] =
         "直接法：一步之内每个进程把数据块发给根进程；根进程的端口要收 N-1 块。"},
    {.op = CV_OP_GATHER, .algo = CV_ALGO_TREE, .name = "tree", .generate = cv__plan_gather_tree,
     .rounds = rounds_log, .bytes = bytes_share, .shape = CV_STAGE_TREE, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Binomial tree: ranks pass their blocks to a partner, which passes on everything it has: "
         "ceil(log2 N) steps, the amount sent doubling each step.",
     .narration[CV_LANG_ZH] =
         "二项树：进程把数据块交给伙伴，伙伴再把手上所有的数据往上传：共 ceil(log2 N) 步，"
         "每步发送量翻倍。"},
    {.op = CV_OP_REDUCE, .algo = CV_ALGO_RING, .name = "ring", .generate = cv__plan_reduce_ring,
     .rounds = rounds_chain, .bytes = bytes_chain, .shape = CV_STAGE_CHAIN,
     .flags = USES_ROOT | USES_SLICES | FOLLOWS_TOPO,
     .narration[CV_LANG_EN] =
         "Ring (a chain): each rank adds its buffer to the partial result arriving from its "
         "neighbour and passes it on; the last hop lands at the root: N-1 steps of the whole "
         "buffer. With --slices S, S pieces follow each other (S+N-2 steps).",
     .narration[CV_LANG_ZH] =
         "环（链）：每个进程把自己的缓冲区加到邻居传来的部分结果上再往下传，最后一跳到达根进程："
         "共 N-1 步，每步传整个缓冲区。用 --slices S 时 S 片依次流动（S+N-2 步）。"},
    {.op = CV_OP_REDUCE, .algo = CV_ALGO_TREE, .name = "tree", .generate = cv__plan_reduce_tree,
     .rounds = rounds_log, .bytes = bytes_tree, .shape = CV_STAGE_TREE, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Binomial tree: in each step half of the ranks still holding data send it to a partner, "
         "which adds it: ceil(log2 N) steps of the whole buffer, ending at the root.",
     .narration[CV_LANG_ZH] =
         "二项树：每一步仍持有数据的进程中有一半把数据发给伙伴，伙伴把它加上：共 ceil(log2 N) 步，"
         "每步传整个缓冲区，最后到达根进程。"},
    {.op = CV_OP_REDUCE, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_reduce_direct, .rounds = rounds_n1, .bytes = bytes_linear,
     .shape = CV_STAGE_STAR, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Direct: the root receives one rank's buffer after another and adds it: N-1 steps, all "
         "through the root's port.",
     .narration[CV_LANG_ZH] =
         "直接法：根进程依次接收每个进程的缓冲区并加上：共 N-1 步，全部经过根进程的端口。"},
    {.op = CV_OP_ALLGATHER, .algo = CV_ALGO_RING, .name = "ring",
     .generate = cv__plan_allgather_ring, .rounds = rounds_n1, .bytes = bytes_share,
     .shape = CV_STAGE_RING, .flags = FOLLOWS_TOPO,
     .narration[CV_LANG_EN] =
         "Ring: in each step every rank passes the block it received last to its right neighbour: "
         "N-1 steps, each link carrying one block (1/N of the result) per step, which is the "
         "least any algorithm can send.",
     .narration[CV_LANG_ZH] =
         "环形：每一步每个进程把上一步收到的数据块传给右邻居：共 N-1 步，"
         "每步每条链路只传一块（结果的 1/N），总发送量是所有算法中最少的。"},
    {.op = CV_OP_ALLGATHER, .algo = CV_ALGO_RECURSIVE_DOUBLING, .name = "recursive-doubling",
     .generate = cv__plan_allgather_rd, .rounds = rounds_fold, .bytes = bytes_share,
     .shape = CV_STAGE_HYPERCUBE, .flags = 0,
     .narration[CV_LANG_EN] =
         "Recursive doubling: in step k each rank swaps everything it has with the partner whose "
         "number differs in bit k, so what each holds doubles: log2 N steps."
         FOLD_EN,
     .narration[CV_LANG_ZH] =
         "递归倍增：第 k 步每个进程与编号只在第 k 位不同的伙伴交换手上所有数据，持有量翻倍："
         "共 log2 N 步。"
         FOLD_ZH},
    {.op = CV_OP_ALLGATHER, .algo = CV_ALGO_PAT, .name = "pat",
     .generate = cv__plan_allgather_pat, .rounds = rounds_log, .bytes = bytes_share,
     .shape = CV_STAGE_HYPERCUBE, .flags = SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "PAT (NCCL 2.23, one GPU per node): every rank's block spreads down a binomial tree of its "
         "own, all N trees at once, over distances that are powers of two counted round the ranks. "
         "Unlike Bruck it starts far away with one block and ends next door with half of them, so "
         "the longest hops carry the least, and each block lands in its own place: ceil(log2 N) "
         "steps, (N-1)/N D per rank. NCCL merges steps like this as far as its buffers allow; a "
         "large message takes more, smaller steps.",
     .narration[CV_LANG_ZH] =
         "PAT（NCCL 2.23，每个节点一张 GPU）：每个 rank 的数据块沿着自己的一棵二项树扩散，N 棵树同时"
         "进行，距离是绕 rank 环计数的 2 的幂。与 Bruck 相反，它先在最远处只传一块，最后在相邻 rank "
         "之间传一半的块，所以最长的跳传得最少；每块都直接落在自己的位置：ceil(log2 N) 步，每个 rank "
         "传 (N-1)/N D。NCCL 在缓冲区允许的范围内这样合并各步；大消息会分成更多、更小的步。"},
    {.op = CV_OP_ALLGATHER, .algo = CV_ALGO_BRUCK, .name = "bruck",
     .generate = cv__plan_allgather_bruck, .rounds = rounds_log, .bytes = bytes_share,
     .shape = CV_STAGE_HYPERCUBE, .flags = 0,
     .narration[CV_LANG_EN] =
         "Bruck: in step k every rank sends the blocks it has gathered (up to 2^k of them) to the "
         "rank 2^k places before it: ceil(log2 N) steps for any N. Every block is written straight "
         "to its own place in the result, so there is no final rotation (the textbook's version "
         "gathers at the front and rotates at the end).",
     .narration[CV_LANG_ZH] =
         "Bruck 算法：第 k 步每个进程把已收集的数据块（最多 2^k 块）发给编号比自己小 2^k（取模 N）"
         "的进程：任意 N 都只要 ceil(log2 N) 步。每块直接写到结果中它自己的位置，所以最后不需要旋转"
         "（教科书的版本先收在前面，最后再本地旋转）。"},
    {.op = CV_OP_ALLGATHER, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_allgather_direct, .rounds = rounds_one, .bytes = bytes_share,
     .shape = CV_STAGE_ALL_PAIRS, .flags = 0,
     .narration[CV_LANG_EN] =
         "Direct: in one step every rank sends its block to every other rank; each port carries "
         "N-1 messages.",
     .narration[CV_LANG_ZH] =
         "直接法：一步之内每个进程把数据块发给其他所有进程；每个端口要承载 N-1 条消息。"},
    {.op = CV_OP_ALLGATHER, .algo = CV_ALGO_IN_NETWORK, .name = "in-network",
     .generate = cv__plan_allgather_in_network, .rounds = rounds_switch, .bytes = bytes_share,
     .shape = CV_STAGE_SWITCH, .flags = USES_SLICES | SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "In-network (NVLS's multicast): every GPU stores its block once, to the switch, and the "
         "switch copies each block to every other GPU: 2 steps whatever N, each GPU sending D/N "
         "and receiving (N-1)/N of D. Nothing is added, so NCCL runs it on NVLS with fewer SMs "
         "than a ring needs; NVLS itself writes through multicast addresses, not a switch's "
         "buffer as drawn here.",
     .narration[CV_LANG_ZH] =
         "网内（NVLS 的组播）：每个 GPU 只把自己的块存一次到交换机，交换机再把每块复制给其他所有 GPU："
         "无论 N 多大都只有 2 步，每个 GPU 发送 D/N、接收 D 的 (N-1)/N。这里没有加法，所以 NCCL "
         "在 NVLS 上跑它所需的 SM 比环形少；真实的 NVLS 写的是组播地址，而不是这里画的交换机缓冲区。"},
    {.op = CV_OP_REDUCESCATTER, .algo = CV_ALGO_RING, .name = "ring",
     .generate = cv__plan_reducescatter_ring, .rounds = rounds_n1, .bytes = bytes_share,
     .shape = CV_STAGE_RING, .flags = FOLLOWS_TOPO,
     .narration[CV_LANG_EN] =
         "Ring: in each step every rank adds its own piece of one block to the partial sum "
         "arriving from its left and passes it on; after N-1 steps rank i holds block i summed "
         "over all ranks. Each link carries one block per step.",
     .narration[CV_LANG_ZH] =
         "环形：每一步每个进程把自己那份数据加到左邻居传来的部分和上再传下去；"
         "N-1 步后进程 i 持有全部进程求和后的第 i 块。每步每条链路传一块。"},
    {.op = CV_OP_REDUCESCATTER, .algo = CV_ALGO_PAT, .name = "pat",
     .generate = cv__plan_reducescatter_pat, .rounds = rounds_log, .bytes = bytes_share,
     .shape = CV_STAGE_HYPERCUBE, .flags = SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "PAT (NCCL 2.23, one GPU per node): PAT's AllGather trees walked backwards. Each rank passes "
         "partial sums along powers-of-two distances round the ranks, nearest first, and adds what "
         "arrives where two branches meet; every contribution to block x reaches rank x once. "
         "ceil(log2 N) steps, (N-1)/N of the input per rank; the farthest hop carries one block.",
     .narration[CV_LANG_ZH] =
         "PAT（NCCL 2.23，每个节点一张 GPU）：把 PAT AllGather 的树倒过来走。每个 rank 沿绕环计数的 "
         "2 的幂距离传递部分和，由近及远，在两个分支汇合处把收到的加上；对块 x 的每份贡献恰好一次到达 "
         "rank x。共 ceil(log2 N) 步，每个 rank 传输入的 (N-1)/N；最远的一跳只传一块。"},
    {.op = CV_OP_REDUCESCATTER, .algo = CV_ALGO_RECURSIVE_HALVING, .name = "recursive-halving",
     .generate = cv__plan_reducescatter_rh, .rounds = rounds_fold, .bytes = bytes_share,
     .shape = CV_STAGE_HYPERCUBE, .flags = 0,
     .narration[CV_LANG_EN] =
         "Recursive halving: in each step partners swap half of what is left to reduce, and each "
         "adds the half it keeps: log2 N steps, the amount sent halving each step."
         FOLD_EN,
     .narration[CV_LANG_ZH] =
         "递归减半：每一步伙伴之间交换剩余待规约数据的一半，各自把留下的一半加上：共 log2 N 步，"
         "每步发送量减半。"
         FOLD_ZH},
    {.op = CV_OP_REDUCESCATTER, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_reducescatter_direct, .rounds = rounds_n1, .bytes = bytes_share,
     .shape = CV_STAGE_ALL_PAIRS, .flags = 0,
     .narration[CV_LANG_EN] =
         "Pairwise: in step k rank r sends block r+k to rank r+k, which adds it to its own: N-1 "
         "steps, one partner at a time, so every port carries one block per step.",
     .narration[CV_LANG_ZH] =
         "成对交换：第 k 步进程 r 把第 r+k 块发给进程 r+k，对方把它加到自己的数据上：共 N-1 步，"
         "每步只与一个伙伴通信，每个端口每步传一块。"},
    {.op = CV_OP_REDUCESCATTER, .algo = CV_ALGO_IN_NETWORK, .name = "in-network",
     .generate = cv__plan_reducescatter_in_network, .rounds = rounds_switch, .bytes = bytes_whole,
     .shape = CV_STAGE_SWITCH, .flags = USES_SLICES | STAGES | SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "In-network (NVLS, SHARP): every GPU hands its whole buffer to the switch once, the "
         "switch adds block i of every GPU and sends the sum to GPU i: 2 steps whatever N, each "
         "GPU sending D and receiving D/N. NVLS adds as it loads (multimem.ld_reduce: the switch "
         "reads block i from every GPU and returns the sum) rather than parking the buffers as "
         "drawn here; the bytes through each GPU's port are the same.",
     .narration[CV_LANG_ZH] =
         "网内（NVLS、SHARP）：每个 GPU 把整个缓冲区交给交换机一次，交换机把所有 GPU 的第 i 块相加，"
         "再把和发给 GPU i：无论 N 多大都只有 2 步，每个 GPU 发送 D、接收 D/N。NVLS 是边读边加"
         "（multimem.ld_reduce：交换机从每个 GPU 读出第 i 块并返回其和），而不是像这里画的那样先存下"
         "缓冲区；经过每个 GPU 端口的字节数是一样的。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_RING, .name = "ring",
     .generate = cv__plan_allreduce_ring, .rounds = rounds_2n1, .bytes = bytes_ring,
     .shape = CV_STAGE_RING, .flags = FOLLOWS_TOPO,
     .narration[CV_LANG_EN] =
         "Ring: a ring reduce-scatter (N-1 steps: each rank ends with one block summed over all "
         "ranks) then a ring all-gather (N-1 steps: the summed blocks go round): 2(N-1) steps, "
         "each link carrying one block, 1/N of the buffer, per step: the least data any algorithm "
         "sends, at the price of many steps.",
     .narration[CV_LANG_ZH] =
         "环形：先做环形 reduce-scatter（N-1 步：每个进程得到一块全部求和后的数据），"
         "再做环形 all-gather（N-1 步：求和后的数据块转一圈）：共 2(N-1) 步，"
         "每步每条链路只传一块（缓冲区的 1/N）：发送的数据最少，代价是步数多。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_TREE, .name = "tree",
     .generate = cv__plan_allreduce_tree, .rounds = rounds_2log, .bytes = bytes_2tree,
     .shape = CV_STAGE_TREE, .flags = 0,
     .narration[CV_LANG_EN] =
         "Tree: a binomial reduce to rank 0 (ceil(log2 N) steps), then a binomial broadcast back "
         "(ceil(log2 N) steps): few steps, but inner ranks send and receive the whole buffer.",
     .narration[CV_LANG_ZH] =
         "树形：先沿二项树规约到进程 0（ceil(log2 N) 步），再沿二项树广播回去（ceil(log2 N) 步）："
         "步数少，但中间节点要收发整个缓冲区。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_RECURSIVE_DOUBLING, .name = "recursive-doubling",
     .generate = cv__plan_allreduce_rd, .rounds = rounds_fold, .bytes = bytes_doubling,
     .shape = CV_STAGE_HYPERCUBE, .flags = STAGES,
     .narration[CV_LANG_EN] =
         "Recursive doubling: in step k each rank swaps its whole buffer with the partner whose "
         "number differs in bit k and adds what it received: log2 N steps of the whole buffer."
         FOLD_EN,
     .narration[CV_LANG_ZH] =
         "递归倍增：第 k 步每个进程与编号只在第 k 位不同的伙伴交换整个缓冲区并加上收到的数据："
         "共 log2 N 步，每步传整个缓冲区。"
         FOLD_ZH},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_RABENSEIFNER, .name = "rabenseifner",
     .generate = cv__plan_allreduce_rabenseifner, .rounds = rounds_2fold,
     .bytes = bytes_rabenseifner, .shape = CV_STAGE_HYPERCUBE, .flags = 0,
     .narration[CV_LANG_EN] =
         "Rabenseifner: a reduce-scatter by recursive halving, then an all-gather by recursive "
         "doubling: 2 log2 N steps and only 2(N-1)/N of the buffer sent per rank, as little as "
         "the ring."
         FOLD_EN,
     .narration[CV_LANG_ZH] =
         "Rabenseifner 算法：先用递归减半做 reduce-scatter，再用递归倍增做 all-gather："
         "共 2 log2 N 步，每个进程只发送缓冲区的 2(N-1)/N，与环形一样少。"
         FOLD_ZH},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_allreduce_direct, .rounds = rounds_server, .bytes = bytes_server,
     .shape = CV_STAGE_STAR, .flags = USES_ROOT,
     .narration[CV_LANG_EN] =
         "Direct (a parameter server): rank 0 receives and adds one rank's buffer after another "
         "(N-1 steps), then sends the result to every rank at once (1 step); all of it goes "
         "through rank 0's port.",
     .narration[CV_LANG_ZH] =
         "直接法（参数服务器）：进程 0 依次接收并加上每个进程的缓冲区（N-1 步），"
         "再一次把结果发给所有进程（1 步）；全部数据都经过进程 0 的端口。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_DOUBLE_TREE, .name = "double-tree",
     .generate = cv__plan_allreduce_double_tree, .rounds = rounds_dtree, .bytes = bytes_none,
     .shape = CV_STAGE_DOUBLE_TREE, .flags = USES_SLICES | STAGES | FOLLOWS_TOPO,
     .narration[CV_LANG_EN] =
         "Double binary tree (NCCL): two binary trees, each reducing up and broadcasting down "
         "half of the buffer; a rank that is an inner node of one tree is a leaf of the other, so "
         "every rank's links stay busy: 2 ceil(log2 N) steps of half the buffer.",
     .narration[CV_LANG_ZH] =
         "双二叉树（NCCL）：两棵二叉树各负责一半数据，先向上规约再向下广播；"
         "在一棵树里是中间节点的进程在另一棵树里是叶子，所以每个进程的链路都在工作："
         "共 2 ceil(log2 N) 步，每步半个缓冲区。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_MULTIRING, .name = "multi-ring",
     .generate = cv__plan_allreduce_multiring, .rounds = rounds_2n1, .bytes = bytes_ring,
     .shape = CV_STAGE_RING, .flags = USES_NODES,
     .narration[CV_LANG_EN] =
         "Multi-ring (NCCL's channels): the buffer is split over several rings that each run a "
         "ring reduce-scatter and all-gather on their share at the same time, so more links work "
         "at once: 2(N-1) steps.",
     .narration[CV_LANG_ZH] =
         "多环（NCCL 的通道）：缓冲区分给几个环，每个环同时对自己那份做环形 reduce-scatter 和 all-"
         "gather，更多链路同时工作：共 2(N-1) 步。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_HIERARCHICAL, .name = "hierarchical",
     .generate = cv__plan_allreduce_hierarchical, .rounds = rounds_hier, .bytes = bytes_none,
     .shape = CV_STAGE_NODES, .flags = USES_NODES | USES_SLICES,
     .narration[CV_LANG_EN] =
         "Hierarchical: a ring reduce-scatter inside each node, an allreduce of the pieces "
         "between nodes, then a ring all-gather inside each node: only 1/L of the data crosses "
         "the slower links between nodes. With --slices S the buffer's S slices follow each "
         "other through the phases one step apart, so one slice crosses the network while the "
         "next is reduced inside the nodes, as NCCL pipelines its two-level algorithms.",
     .narration[CV_LANG_ZH] =
         "分层：先在每个节点内做环形 reduce-scatter，再在节点之间对各自那份做 allreduce，"
         "最后在节点内做环形 all-gather：只有 1/L 的数据经过节点之间较慢的链路。用 --slices S "
         "时缓冲区分成 S 片，依次相隔一步穿过各阶段：一片跨网络时，下一片正在节点内规约，"
         "NCCL 的两级算法就是这样流水的。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_IN_NETWORK, .name = "in-network",
     .generate = cv__plan_allreduce_in_network, .rounds = rounds_switch_allreduce,
     .bytes = bytes_none, .shape = CV_STAGE_SWITCH,
     .flags = USES_SLICES | USES_NODES | STAGES | SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "In-network. Inside a node (NVLink SHARP, NVLS) each GPU owns 1/N of the buffer and "
         "loads its block through the switch with a reducing load: the switch reads the block from "
         "every GPU and adds the copies as they pass, so the sum arrives, never the copies. The "
         "owner then stores the sum to the multicast address, which writes it into every GPU. "
         "Each GPU sends and receives (1+1/N) D, against a ring's 2(N-1)/N D, in 4 steps for any "
         "N. Across nodes (InfiniBand SHARP) each node pushes its buffer to the switch, which adds "
         "and multicasts the sum back: 2 steps, D each way.",
     .narration[CV_LANG_ZH] =
         "网内规约。节点内（NVLink SHARP，NVLS）每个 GPU 负责缓冲区的 1/N：它通过交换机对自己那块"
         "做一次“规约读”，交换机从每个 GPU 读出这一块，数据经过时就相加，送回的是和而不是各份副本。"
         "随后这个 GPU 把和写到组播地址，交换机把它写进每个 GPU。每个 GPU 收发各 (1+1/N) D，"
         "环形是 2(N-1)/N D；无论 N 多大都是 4 步。跨节点（InfiniBand SHARP）时每个节点把缓冲区推给"
         "交换机，交换机求和后组播回去：2 步，每个方向 D。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_NVLS_TREE, .name = "nvls-tree",
     .generate = cv__plan_allreduce_nvls_tree, .rounds = rounds_nvls_tree, .bytes = bytes_none,
     .shape = CV_STAGE_NODES, .flags = USES_SLICES | USES_NODES | STAGES | SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "NVLS-Tree (NCCL across nodes of NVSwitch GPUs): inside each node GPU q is the head of "
         "block q, and the node's switch adds block q from every GPU as the head loads it "
         "(NVLS). The heads carry only their node's sums across the network, up and back down "
         "NCCL's two binary trees over the nodes (half of each block on each tree), each parent "
         "adding its children's sums to its own. Every head then stores its finished block "
         "through the switch's multicast into every GPU of its node. Only 1/L of the buffer "
         "leaves each GPU for the network, and the tree's depth grows as log2 of the nodes, not "
         "with them as a ring's steps do.",
     .narration[CV_LANG_ZH] =
         "NVLS-Tree（NCCL 在多个 NVSwitch 节点之间使用）：节点内 GPU q 负责第 q 块，它读取这一块时，"
         "节点的交换机把所有 GPU 的这一块相加（NVLS）。只有各块的负责者把本节点的和送到网络上，"
         "沿 NCCL 在节点之间建的两棵二叉树上行再下行（每块一半走一棵树），每个父节点把子节点的和"
         "加到自己的和上。最后每个负责者通过交换机的组播把完成的块写进本节点的每个 GPU。每个 GPU "
         "只有 1/L 的缓冲区经过网络，树的深度随节点数按 log2 增长，而不是像环那样随节点数线性增长。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_COLLNET_DIRECT, .name = "collnet-direct",
     .generate = cv__plan_allreduce_collnet_direct, .rounds = rounds_collnet_direct,
     .bytes = bytes_none, .shape = CV_STAGE_NODES,
     .flags = USES_SLICES | USES_NODES | STAGES | SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "CollNet Direct (NCCL with InfiniBand SHARP): every GPU of a node is the head of one "
         "block. Each GPU sends block q straight to head q, which adds the node's copies; the "
         "heads hand their node's sums to the network switch, which adds the nodes' sums and "
         "sends the total back; each head then sends it straight to the other GPUs of its node. "
         "4 steps for any number of nodes; each GPU moves 2(L-1)/L of the buffer inside its node "
         "and 1/L through the network, every NIC busy at once.",
     .narration[CV_LANG_ZH] =
         "CollNet Direct（NCCL 配合 InfiniBand SHARP）：节点内每个 GPU 负责一块。每个 GPU 把第 q 块"
         "直接发给负责者 q，由它把节点内的各份相加；负责者把本节点的和交给网络交换机，交换机把各"
         "节点的和相加后送回；每个负责者再把结果直接发给本节点的其他 GPU。无论节点多少都是 4 步；"
         "每个 GPU 在节点内收发缓冲区的 2(L-1)/L，经网络只收发 1/L，所有网卡同时工作。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_COLLNET_CHAIN, .name = "collnet-chain",
     .generate = cv__plan_allreduce_collnet_chain, .rounds = rounds_collnet_chain,
     .bytes = bytes_none, .shape = CV_STAGE_NODES,
     .flags = USES_SLICES | USES_NODES | STAGES | SIMPLE_ONLY,
     .narration[CV_LANG_EN] =
         "CollNet Chain (NCCL with InfiniBand SHARP): a node's GPUs form a chain. Each piece of "
         "the buffer is added up the chain, each GPU adding its own as it passes the piece on; "
         "the top GPU hands the node's sum to the network switch, which adds the nodes' sums and "
         "sends the total back, and it goes back down the chain. 2L steps plus one a piece, "
         "pipelined; the whole buffer crosses the network, but through one NIC a node.",
     .narration[CV_LANG_ZH] =
         "CollNet Chain（NCCL 配合 InfiniBand SHARP）：节点内的 GPU 连成一条链。缓冲区的每一片沿链"
         "上行，每个 GPU 传下去之前加上自己的那份；链顶的 GPU 把本节点的和交给网络交换机，交换机"
         "把各节点的和相加后送回，再沿链下行。每片 2L 步，多片流水，每多一片多一步；整个缓冲区都"
         "经过网络，但每个节点只用一块网卡。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_ONE_SHOT, .name = "one-shot",
     .generate = cv__plan_allreduce_one_shot, .rounds = rounds_one, .bytes = bytes_linear,
     .shape = CV_STAGE_ALL_PAIRS, .flags = STAGES,
     .narration[CV_LANG_EN] =
         "One-shot (the custom all-reduce of vLLM and TensorRT-LLM): in one step every rank reads "
         "the whole buffer of each of the N-1 other ranks and adds them all up itself, in the same "
         "order as every other rank, so all end with the same bits. Each rank takes in N-1 "
         "buffers, far more than a ring's 2(N-1)/N, but pays the latency once instead of 2(N-1) "
         "times: decode-time tensor parallelism sends messages of a few kB, where latency is "
         "everything. It needs every GPU to reach every other directly, all on one "
         "NVLink/NVSwitch domain. The real kernel loads straight from its peers' memory "
         "(NVLink through IPC pointers, or multimem); here each read lands in a scratch slot "
         "and the additions are local sub-phases.",
     .narration[CV_LANG_ZH] =
         "一次读取（one-shot，vLLM 和 TensorRT-LLM 的自定义 all-reduce）：一步之内每个进程读取其他 "
         "N-1 个进程的整个缓冲区，自己把它们全部加起来，各进程的相加顺序相同，所以结果逐位一致。"
         "每个进程要收 N-1 个缓冲区，远多于环形的 2(N-1)/N，但只付一次延迟而不是 2(N-1) 次："
         "解码阶段的张量并行每次只传几 kB，延迟决定一切。它要求每个 GPU 都能直接访问其他所有 "
         "GPU，即都在同一个 NVLink/NVSwitch 域内。真实的内核通过 NVLink（IPC 指针或 multimem）"
         "直接读取对方的显存；这里每次读取落到一个暂存槽里，求和是本地子阶段。"},
    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_TWO_SHOT, .name = "two-shot",
     .generate = cv__plan_allreduce_two_shot, .rounds = rounds_two, .bytes = bytes_ring,
     .shape = CV_STAGE_ALL_PAIRS, .flags = STAGES,
     .narration[CV_LANG_EN] =
         "Two-shot (vLLM, TensorRT-LLM): a direct reduce-scatter, where each rank reads its own "
         "1/N block from every other rank and adds them up, then a direct all-gather, where each "
         "rank reads every other rank's finished block: 2 steps, each moving (N-1)/N of the "
         "buffer through a port. The same bytes as the ring at 2 latencies instead of 2(N-1): "
         "for messages too large for one-shot but small enough that latency still counts. Like "
         "one-shot it needs all GPUs on one NVLink/NVSwitch domain, and the real kernels load "
         "from their peers' memory rather than receive messages.",
     .narration[CV_LANG_ZH] =
         "两次读取（two-shot，vLLM、TensorRT-LLM）：先做直接 reduce-scatter，每个进程从其他每个"
         "进程读取属于自己的那 1/N 块并求和；再做直接 all-gather，每个进程读取其他每个进程求和好"
         "的那一块：共 2 步，每步每个端口传缓冲区的 (N-1)/N。数据量与环形相同，延迟却只有 2 次"
         "而不是 2(N-1) 次：适合对 one-shot 来说太大、但延迟仍然重要的消息。和 one-shot 一样，"
         "它要求所有 GPU 在同一个 NVLink/NVSwitch 域内，真实的内核直接读取对方的显存，而不是"
         "接收消息。"},
    {.op = CV_OP_ALLTOALL, .algo = CV_ALGO_PAIRWISE, .name = "pairwise",
     .generate = cv__plan_alltoall_pairwise, .rounds = rounds_n1, .bytes = bytes_share,
     .shape = CV_STAGE_ALL_PAIRS, .flags = 0,
     .narration[CV_LANG_EN] =
         "Pairwise: in step k rank r sends its block for rank r+k and receives from rank r-k: N-1 "
         "steps, every link used once per step.",
     .narration[CV_LANG_ZH] =
         "成对交换：第 k 步进程 r 把给进程 r+k 的数据块发出，并从进程 r-k 接收：共 N-1 步，"
         "每步每条链路用一次。"},
    {.op = CV_OP_ALLTOALL, .algo = CV_ALGO_BRUCK, .name = "bruck",
     .generate = cv__plan_alltoall_bruck, .rounds = rounds_log, .bytes = bytes_none,
     .shape = CV_STAGE_HYPERCUBE, .flags = STAGES,
     .narration[CV_LANG_EN] =
         "Bruck: after a local rotation, in step k every rank sends the rank 2^k ahead all the "
         "blocks whose distance has bit k set, then rotates back: ceil(log2 N) steps, but each "
         "step sends about half of the buffer.",
     .narration[CV_LANG_ZH] =
         "Bruck 算法：先本地旋转，第 k 步每个进程把距离第 k 位为 1 的所有数据块发给前方第 2^k 个进"
         "程，最后再旋转回来：只要 ceil(log2 N) 步，但每步要发约一半的缓冲区。"},
    {.op = CV_OP_SENDRECV, .algo = CV_ALGO_DIRECT, .name = "direct",
     .generate = cv__plan_sendrecv_direct, .rounds = rounds_one, .bytes = bytes_whole,
     .shape = CV_STAGE_RING, .flags = 0,
     .narration[CV_LANG_EN] =
         "Direct: in one step every rank sends its buffer to the next rank and receives from the "
         "previous one.",
     .narration[CV_LANG_ZH] =
         "直接法：一步之内每个进程把缓冲区发给下一个进程，并从上一个进程接收。"},

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

static bool has_flag(cv_op op, cv_algo algo, unsigned flag)
{
    const cv__algo_entry *e = cv__algo_find(op, algo);
    return e && (e->flags & flag);
}

bool cv_algo_uses_root(cv_op op, cv_algo algo) { return has_flag(op, algo, CV__USES_ROOT); }
bool cv_algo_uses_slices(cv_op op, cv_algo algo) { return has_flag(op, algo, CV__USES_SLICES); }
bool cv_algo_uses_nodes(cv_op op, cv_algo algo) { return has_flag(op, algo, CV__USES_NODES); }

bool cv_algo_follows_topology(cv_op op, cv_algo algo)
{
    return has_flag(op, algo, CV__FOLLOWS_TOPO);
}

cv_proto cv_algo_proto(cv_op op, cv_algo algo, cv_proto wanted)
{
    return has_flag(op, algo, CV__SIMPLE_ONLY) ? CV_PROTO_SIMPLE : wanted;
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

/* ------------------------------------------------------------------ names */

/* An algorithm's name is its rows' (the first one's: test_algos checks
 * that every row of an algorithm spells it the same). */
const char *cv_algo_name(cv_algo a)
{
    for (int i = 0; i < NENTRIES; i++)
        if (registry[i].algo == a)
            return registry[i].name;
    return "?";
}

int cv_algo_parse(const char *s)
{
    /* Other spellings a user may type. */
    static const struct {
        const char *alias;
        cv_algo algo;
    } aliases[] = {
        {"rd", CV_ALGO_RECURSIVE_DOUBLING}, {"recursive_doubling", CV_ALGO_RECURSIVE_DOUBLING},
        {"rh", CV_ALGO_RECURSIVE_HALVING}, {"recursive_halving", CV_ALGO_RECURSIVE_HALVING},
        {"chain", CV_ALGO_RING}, {"binomial", CV_ALGO_TREE}, {"naive", CV_ALGO_DIRECT},
        {"dtree", CV_ALGO_DOUBLE_TREE}, {"double_tree", CV_ALGO_DOUBLE_TREE},
        {"van-de-geijn", CV_ALGO_SCATTER_ALLGATHER}, {"hier", CV_ALGO_HIERARCHICAL},
        {"nvls", CV_ALGO_IN_NETWORK}, {"sharp", CV_ALGO_IN_NETWORK},
        {"multiring", CV_ALGO_MULTIRING},
        {"oneshot", CV_ALGO_ONE_SHOT}, {"one_shot", CV_ALGO_ONE_SHOT},
        {"twoshot", CV_ALGO_TWO_SHOT}, {"two_shot", CV_ALGO_TWO_SHOT},
        {"nvlstree", CV_ALGO_NVLS_TREE}, {"nvls_tree", CV_ALGO_NVLS_TREE},
        {"collnetdirect", CV_ALGO_COLLNET_DIRECT}, {"collnet_direct", CV_ALGO_COLLNET_DIRECT},
        {"collnetchain", CV_ALGO_COLLNET_CHAIN}, {"collnet_chain", CV_ALGO_COLLNET_CHAIN},
    };
    if (!s)
        return -1;
    for (int i = 0; i < NENTRIES; i++)
        if (strcasecmp(s, registry[i].name) == 0)
            return registry[i].algo;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(s, aliases[i].alias) == 0)
            return aliases[i].algo;
    return -1;
}

static const char *const shape_names[CV_STAGE_COUNT] = {
    [CV_STAGE_NONE] = "none",
    [CV_STAGE_RING] = "ring",
    [CV_STAGE_CHAIN] = "chain",
    [CV_STAGE_TREE] = "tree",
    [CV_STAGE_DOUBLE_TREE] = "double-tree",
    [CV_STAGE_HYPERCUBE] = "hypercube",
    [CV_STAGE_STAR] = "star",
    [CV_STAGE_ALL_PAIRS] = "all-pairs",
    [CV_STAGE_SWITCH] = "switch",
    [CV_STAGE_NODES] = "nodes",
};

const char *cv_stage_shape_name(cv_stage_shape s)
{
    return (unsigned)s < CV_STAGE_COUNT && shape_names[s] ? shape_names[s] : "?";
}

/* -------------------------------------------------------- what a row says */

cv_stage_shape cv_algo_stage_shape(cv_op op, cv_algo algo)
{
    const cv__algo_entry *e = cv__algo_find(op, algo);
    return e ? e->shape : CV_STAGE_NONE;
}

const char *cv_algo_narration(cv_op op, cv_algo algo, cv_lang lang)
{
    const cv__algo_entry *e = cv__algo_find(op, algo);
    if (!e || (unsigned)lang >= CV_LANG_COUNT || !e->narration[lang])
        return "";
    return e->narration[lang];
}

int64_t cv_spec_textbook_bytes(const cv_spec *s, char *formula, size_t len)
{
    const cv__algo_entry *e = cv__algo_find(s->op, s->algo);
    int64_t D = cv_spec_bench_bytes(s);
    char f[64] = "";
    int64_t bytes = 0;
    if (e && e->bytes && s->ranks >= 2 && D > 0)
        bytes = e->bytes(s, D, f, sizeof f);
    if (formula && len)
        snprintf(formula, len, "%s", bytes ? f : "");
    return bytes;
}

int cv__spec_textbook_rounds(const cv_spec *s, char *formula, size_t len)
{
    const cv__algo_entry *e = cv__algo_find(s->op, s->algo);
    char f[64] = "0";
    int n = 0;
    if (e && e->rounds && s->ranks > 1)
        n = e->rounds(s, f, sizeof f);
    if (formula && len)
        snprintf(formula, len, "%s", f);
    return n;
}

int cv_plan_textbook_rounds(const cv_plan *p, char *formula, size_t len)
{
    return cv__spec_textbook_rounds(&p->spec, formula, len);
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
