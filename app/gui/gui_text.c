/*
 * gui_text.c: the narration panel's default words: what the op does, how
 * this algorithm does it for this op, what the step that just happened did
 * and what the next one will do, in English and Chinese.
 *
 * The op/algorithm text is written for each pair the registry offers (a
 * "direct" Broadcast sends to one rank after another, a "direct" AllGather
 * sends to everyone at once: one stock sentence cannot be right for both);
 * test_gui_text checks that every pair has its own. The step sentences are
 * derived from the plan itself (who sends to whom, which chunk with which
 * value, copy or reduce), not from a per-algorithm script, so they stay
 * true for any plan the core generates. Lessons replace the op/algorithm
 * text with their own through gui_narrate.
 */
#include "gui_internal.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    const char *en, *zh;
} words;

static const words op_words[CV_OP_COUNT] = {
    [CV_OP_BROADCAST] = {"The root's buffer is copied to every rank.",
                         "根进程的缓冲区被复制到所有进程。"},
    [CV_OP_SCATTER] = {"The root splits its buffer into one block per rank and sends block i to rank i.",
                       "根进程把缓冲区按进程数切成若干块，第 i 块发给进程 i。"},
    [CV_OP_GATHER] = {"Every rank's block is collected, in rank order, into the root's buffer.",
                      "各进程的数据块按进程编号顺序汇集到根进程的缓冲区。"},
    [CV_OP_REDUCE] = {"Every rank's buffer is combined element by element with the reduction operator; "
                      "only the root gets the result.",
                      "所有进程的缓冲区按元素做规约运算，只有根进程得到结果。"},
    [CV_OP_ALLGATHER] = {"Every rank contributes one block and ends with all blocks, in rank order.",
                         "每个进程贡献一块数据，最后每个进程都按编号顺序拥有全部数据块。"},
    [CV_OP_REDUCESCATTER] = {"The buffers are reduced element by element, and rank i keeps only block i of the result.",
                             "各缓冲区按元素规约，进程 i 只保留结果中的第 i 块。"},
    [CV_OP_ALLREDUCE] = {"The buffers are reduced element by element and every rank ends with the whole result. "
                         "It equals ReduceScatter followed by AllGather.",
                         "各缓冲区按元素规约，每个进程都得到完整结果。它等价于先做 ReduceScatter 再做 AllGather。"},
    [CV_OP_ALLTOALL] = {"Rank i sends its block j to rank j, which stores it as block i: a transpose across ranks.",
                        "进程 i 把第 j 块发给进程 j，进程 j 把它存为第 i 块：相当于跨进程的转置。"},
    [CV_OP_SENDRECV] = {"Point to point: rank r sends its buffer to rank r+1 (mod N), as pipeline stages do.",
                        "点对点通信：进程 r 把缓冲区发给进程 r+1（取模 N），流水线并行的各阶段就是这样传递数据的。"},
};

/* How each algorithm does each op: what moves in a step, how many steps,
 * what a link carries. */
typedef struct {
    cv_op op;
    cv_algo algo;
    words w;
} pair_words;

#define FOLD_EN " With N not a power of two, the extra ranks first fold their data into a partner and get the result back at the end (2 more steps)."
#define FOLD_ZH "N 不是 2 的幂时，多出的进程先把数据并入一个伙伴，最后再取回结果（多 2 步）。"

static const pair_words pairs[] = {
    {CV_OP_BROADCAST, CV_ALGO_RING,
     {"Ring (a chain): the root sends the whole buffer to its neighbour, which passes it on: N-1 steps, each moving the "
      "whole buffer over one link. With --slices S the buffer goes in S pieces that follow each other down the chain, "
      "so the links work at the same time (S+N-2 steps of 1/S of the buffer).",
      "环（链）：根进程把整个缓冲区发给邻居，邻居再往下传：共 N-1 步，每步在一条链路上传整个缓冲区。用 --slices S "
      "时缓冲区分成 S 片依次沿链流动，各链路同时工作（S+N-2 步，每步 1/S 的缓冲区）。"}},
    {CV_OP_BROADCAST, CV_ALGO_TREE,
     {"Binomial tree: in each step every rank that has the buffer sends it to one rank that has not, so the holders "
      "double: ceil(log2 N) steps, each link carrying the whole buffer.",
      "二项树：每一步，已有数据的每个进程把整个缓冲区发给一个还没有的进程，持有者数量翻倍：共 ceil(log2 N) 步，"
      "每条链路传整个缓冲区。"}},
    {CV_OP_BROADCAST, CV_ALGO_DIRECT,
     {"Direct: the root sends the whole buffer to one rank after another: N-1 steps, all through the root's port.",
      "直接法：根进程依次把整个缓冲区发给每个进程：共 N-1 步，全部经过根进程的端口。"}},
    {CV_OP_BROADCAST, CV_ALGO_SCATTER_ALLGATHER,
     {"Scatter, then all-gather (van de Geijn): the root first scatters one block to each rank down a binomial tree "
      "(ceil(log2 N) steps), then a ring all-gather gives every rank all blocks (N-1 steps). More steps than a tree, "
      "but each link carries about 2/N of the buffer per step: better for long messages.",
      "先分发再全收集（van de Geijn）：根进程先沿二项树把每块发给对应进程（ceil(log2 N) 步），再用环形 all-gather "
      "让每个进程拿到全部数据块（N-1 步）。步数比树多，但每步每条链路只传约 2/N 的数据：适合长消息。"}},
    {CV_OP_SCATTER, CV_ALGO_DIRECT,
     {"Direct: in one step the root sends each rank its own block; its port carries N-1 blocks.",
      "直接法：一步之内根进程把各自的数据块发给每个进程；根进程的端口要传 N-1 块。"}},
    {CV_OP_SCATTER, CV_ALGO_TREE,
     {"Binomial tree: the root sends half of the blocks to the rank halfway round, each holder splits what it holds "
      "again, and so on: ceil(log2 N) steps, the amount sent halving each step.",
      "二项树：根进程把一半数据块发给相隔一半的进程，每个持有者再把手上的数据对半分，依此类推：共 ceil(log2 N) 步，"
      "每步发送量减半。"}},
    {CV_OP_GATHER, CV_ALGO_DIRECT,
     {"Direct: in one step every rank sends its block to the root; the root's port receives N-1 blocks.",
      "直接法：一步之内每个进程把数据块发给根进程；根进程的端口要收 N-1 块。"}},
    {CV_OP_GATHER, CV_ALGO_TREE,
     {"Binomial tree: ranks pass their blocks to a partner, which passes on everything it has: ceil(log2 N) steps, the "
      "amount sent doubling each step.",
      "二项树：进程把数据块交给伙伴，伙伴再把手上所有的数据往上传：共 ceil(log2 N) 步，每步发送量翻倍。"}},
    {CV_OP_REDUCE, CV_ALGO_RING,
     {"Ring (a chain): each rank adds its buffer to the partial result arriving from its neighbour and passes it on; "
      "the last hop lands at the root: N-1 steps of the whole buffer. With --slices S, S pieces follow each other "
      "(S+N-2 steps).",
      "环（链）：每个进程把自己的缓冲区加到邻居传来的部分结果上再往下传，最后一跳到达根进程：共 N-1 步，每步传整个"
      "缓冲区。用 --slices S 时 S 片依次流动（S+N-2 步）。"}},
    {CV_OP_REDUCE, CV_ALGO_TREE,
     {"Binomial tree: in each step half of the ranks still holding data send it to a partner, which adds it: "
      "ceil(log2 N) steps of the whole buffer, ending at the root.",
      "二项树：每一步仍持有数据的进程中有一半把数据发给伙伴，伙伴把它加上：共 ceil(log2 N) 步，每步传整个缓冲区，"
      "最后到达根进程。"}},
    {CV_OP_REDUCE, CV_ALGO_DIRECT,
     {"Direct: the root receives one rank's buffer after another and adds it: N-1 steps, all through the root's port.",
      "直接法：根进程依次接收每个进程的缓冲区并加上：共 N-1 步，全部经过根进程的端口。"}},
    {CV_OP_ALLGATHER, CV_ALGO_RING,
     {"Ring: in each step every rank passes the block it received last to its right neighbour: N-1 steps, each link "
      "carrying one block (1/N of the result) per step, which is the least any algorithm can send.",
      "环形：每一步每个进程把上一步收到的数据块传给右邻居：共 N-1 步，每步每条链路只传一块（结果的 1/N），"
      "总发送量是所有算法中最少的。"}},
    {CV_OP_ALLGATHER, CV_ALGO_RECURSIVE_DOUBLING,
     {"Recursive doubling: in step k each rank swaps everything it has with the partner whose number differs in bit k, "
      "so what each holds doubles: log2 N steps." FOLD_EN,
      "递归倍增：第 k 步每个进程与编号只在第 k 位不同的伙伴交换手上所有数据，持有量翻倍：共 log2 N 步。" FOLD_ZH}},
    {CV_OP_ALLGATHER, CV_ALGO_BRUCK,
     {"Bruck: in step k every rank sends all it has gathered to the rank 2^k places before it: ceil(log2 N) steps for "
      "any N, then a local rotation puts the blocks in rank order.",
      "Bruck 算法：第 k 步每个进程把已收集的全部数据发给前方第 2^k 个进程：任意 N 都只要 ceil(log2 N) 步，最后本地"
      "旋转把数据块排成编号顺序。"}},
    {CV_OP_ALLGATHER, CV_ALGO_DIRECT,
     {"Direct: in one step every rank sends its block to every other rank; each port carries N-1 messages.",
      "直接法：一步之内每个进程把数据块发给其他所有进程；每个端口要承载 N-1 条消息。"}},
    {CV_OP_REDUCESCATTER, CV_ALGO_RING,
     {"Ring: in each step every rank adds its own piece of one block to the partial sum arriving from its left and "
      "passes it on; after N-1 steps rank i holds block i summed over all ranks. Each link carries one block per step.",
      "环形：每一步每个进程把自己那份数据加到左邻居传来的部分和上再传下去；N-1 步后进程 i 持有全部进程求和后的第 i "
      "块。每步每条链路传一块。"}},
    {CV_OP_REDUCESCATTER, CV_ALGO_RECURSIVE_HALVING,
     {"Recursive halving: in each step partners swap half of what is left to reduce, and each adds the half it keeps: "
      "log2 N steps, the amount sent halving each step." FOLD_EN,
      "递归减半：每一步伙伴之间交换剩余待规约数据的一半，各自把留下的一半加上：共 log2 N 步，每步发送量减半。" FOLD_ZH}},
    {CV_OP_REDUCESCATTER, CV_ALGO_DIRECT,
     {"Pairwise: in step k rank r sends block r+k to rank r+k, which adds it to its own: N-1 steps, one partner at a "
      "time, so every port carries one block per step.",
      "成对交换：第 k 步进程 r 把第 r+k 块发给进程 r+k，对方把它加到自己的数据上：共 N-1 步，每步只与一个伙伴通信，"
      "每个端口每步传一块。"}},
    {CV_OP_ALLREDUCE, CV_ALGO_RING,
     {"Ring: a ring reduce-scatter (N-1 steps: each rank ends with one block summed over all ranks) then a ring "
      "all-gather (N-1 steps: the summed blocks go round): 2(N-1) steps, each link carrying one block, 1/N of the "
      "buffer, per step: the least data any algorithm sends, at the price of many steps.",
      "环形：先做环形 reduce-scatter（N-1 步：每个进程得到一块全部求和后的数据），再做环形 all-gather（N-1 步：求和后的"
      "数据块转一圈）：共 2(N-1) 步，每步每条链路只传一块（缓冲区的 1/N）：发送的数据最少，代价是步数多。"}},
    {CV_OP_ALLREDUCE, CV_ALGO_TREE,
     {"Tree: a binomial reduce to rank 0 (ceil(log2 N) steps), then a binomial broadcast back (ceil(log2 N) steps): few "
      "steps, but inner ranks send and receive the whole buffer.",
      "树形：先沿二项树规约到进程 0（ceil(log2 N) 步），再沿二项树广播回去（ceil(log2 N) 步）：步数少，但中间节点要收发"
      "整个缓冲区。"}},
    {CV_OP_ALLREDUCE, CV_ALGO_DOUBLE_TREE,
     {"Double binary tree (NCCL): two binary trees, each reducing up and broadcasting down half of the buffer; a rank "
      "that is an inner node of one tree is a leaf of the other, so every rank's links stay busy: 2 ceil(log2 N) "
      "steps of half the buffer.",
      "双二叉树（NCCL）：两棵二叉树各负责一半数据，先向上规约再向下广播；在一棵树里是中间节点的进程在另一棵树里是叶子，"
      "所以每个进程的链路都在工作：共 2 ceil(log2 N) 步，每步半个缓冲区。"}},
    {CV_OP_ALLREDUCE, CV_ALGO_MULTIRING,
     {"Multi-ring (NCCL's channels): the buffer is split over several rings that each run a ring reduce-scatter and "
      "all-gather on their share at the same time, so more links work at once: 2(N-1) steps.",
      "多环（NCCL 的通道）：缓冲区分给几个环，每个环同时对自己那份做环形 reduce-scatter 和 all-gather，更多链路同时"
      "工作：共 2(N-1) 步。"}},
    {CV_OP_ALLREDUCE, CV_ALGO_HIERARCHICAL,
     {"Hierarchical: a ring reduce-scatter inside each node, an allreduce of the pieces between nodes, then a ring "
      "all-gather inside each node: only 1/L of the data crosses the slower links between nodes.",
      "分层：先在每个节点内做环形 reduce-scatter，再在节点之间对各自那份做 allreduce，最后在节点内做环形 all-gather："
      "只有 1/L 的数据经过节点之间较慢的链路。"}},
    {CV_OP_ALLREDUCE, CV_ALGO_IN_NETWORK,
     {"In-network (NVLS, SHARP): every GPU sends its buffer to the switch, the switch adds them, and multicasts the "
      "result back: 2 steps whatever N, each GPU sending and receiving the buffer once.",
      "网内规约（NVLS、SHARP）：每个 GPU 把缓冲区发给交换机，交换机求和，再把结果组播回去：无论 N 多大都只有 2 步，"
      "每个 GPU 只收发一次缓冲区。"}},
    {CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING,
     {"Recursive doubling: in step k each rank swaps its whole buffer with the partner whose number differs in bit k "
      "and adds what it received: log2 N steps of the whole buffer." FOLD_EN,
      "递归倍增：第 k 步每个进程与编号只在第 k 位不同的伙伴交换整个缓冲区并加上收到的数据：共 log2 N 步，每步传整个"
      "缓冲区。" FOLD_ZH}},
    {CV_OP_ALLREDUCE, CV_ALGO_RABENSEIFNER,
     {"Rabenseifner: a reduce-scatter by recursive halving, then an all-gather by recursive doubling: 2 log2 N steps "
      "and only 2(N-1)/N of the buffer sent per rank, as little as the ring." FOLD_EN,
      "Rabenseifner 算法：先用递归减半做 reduce-scatter，再用递归倍增做 all-gather：共 2 log2 N 步，每个进程只发送"
      "缓冲区的 2(N-1)/N，与环形一样少。" FOLD_ZH}},
    {CV_OP_ALLREDUCE, CV_ALGO_DIRECT,
     {"Direct (a parameter server): rank 0 receives and adds one rank's buffer after another (N-1 steps), then sends "
      "the result to every rank at once (1 step); all of it goes through rank 0's port.",
      "直接法（参数服务器）：进程 0 依次接收并加上每个进程的缓冲区（N-1 步），再一次把结果发给所有进程（1 步）；全部数据"
      "都经过进程 0 的端口。"}},
    {CV_OP_ALLTOALL, CV_ALGO_PAIRWISE,
     {"Pairwise: in step k rank r sends its block for rank r+k and receives from rank r-k: N-1 steps, every link used "
      "once per step.",
      "成对交换：第 k 步进程 r 把给进程 r+k 的数据块发出，并从进程 r-k 接收：共 N-1 步，每步每条链路用一次。"}},
    {CV_OP_ALLTOALL, CV_ALGO_BRUCK,
     {"Bruck: after a local rotation, in step k every rank sends the rank 2^k ahead all the blocks whose distance has "
      "bit k set, then rotates back: ceil(log2 N) steps, but each step sends about half of the buffer.",
      "Bruck 算法：先本地旋转，第 k 步每个进程把距离第 k 位为 1 的所有数据块发给前方第 2^k 个进程，最后再旋转回来："
      "只要 ceil(log2 N) 步，但每步要发约一半的缓冲区。"}},
    {CV_OP_SENDRECV, CV_ALGO_DIRECT,
     {"Direct: in one step every rank sends its buffer to the next rank and receives from the previous one.",
      "直接法：一步之内每个进程把缓冲区发给下一个进程，并从上一个进程接收。"}},
};

static const char *pair_text(cv_op op, cv_algo a, bool zh)
{
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (pairs[i].op == op && pairs[i].algo == a)
            return zh ? pairs[i].w.zh : pairs[i].w.en;
    return "";
}

bool gui__has_pair_text(cv_op op, cv_algo a) { return pair_text(op, a, false)[0] != '\0'; }

void gui__explain(const cv_spec *spec, cv_algo second, cv_lang lang, char *title, size_t tlen,
                  char *body, size_t blen)
{
    bool zh = lang == CV_LANG_ZH;
    const words *o = (unsigned)spec->op < CV_OP_COUNT ? &op_words[spec->op] : NULL;
    const char *op = o && o->en ? (zh ? o->zh : o->en) : "";
    if ((unsigned)second < CV_ALGO_COUNT) {
        const char *a = cv_algo_name(spec->algo), *b = cv_algo_name(second);
        if (zh)
            snprintf(title, tlen, "%s：%s 对比 %s", cv_op_title(spec->op), a, b);
        else
            snprintf(title, tlen, "%s: %s vs %s", cv_op_title(spec->op), a, b);
        if (zh)
            snprintf(body, blen,
                     "%s\n左边 %s，右边 %s：输入相同，结果相同，走法不同。每一步要付一次延迟 α，每个字节要付一次 "
                     "β：比较两边标题里的步数和每进程发送量，以及时间轴上谁先结束。\n%s\n%s",
                     op, a, b, pair_text(spec->op, spec->algo, zh), pair_text(spec->op, second, zh));
        else
            snprintf(body, blen,
                     "%s\nLeft %s, right %s: the same inputs and the same result by different "
                     "routes. Every step pays the latency alpha and every byte the bandwidth cost "
                     "beta: compare the steps and bytes per rank in their captions, and which one "
                     "the timeline shows finishing first.\n%s\n%s",
                     op, a, b, pair_text(spec->op, spec->algo, zh), pair_text(spec->op, second, zh));
        return;
    }
    snprintf(title, tlen, "%s (%s)", cv_op_title(spec->op), cv_algo_name(spec->algo));
    /* What the cells show is the legend's job, under the stage. */
    snprintf(body, blen, "%s\n%s", op, pair_text(spec->op, spec->algo, zh));
}

/* ------------------------------------------------------------ steps */

/* "1 transfer", "3 transfers"; Chinese has no plural. */
static const char *noun(long long n, const char *one, const char *many) { return n == 1 ? one : many; }

/* Who talks to whom in a step: every transfer to (src + d) mod N for one
 * d, or to src XOR d, from one rank, or to one rank; "every GPU" only when
 * every rank sends. */
static void pattern(const cv_plan *plan, const cv_step *st, bool zh, char *out, size_t outlen)
{
    int n = plan->spec.ranks;
    int shift = -1, xr = -1, from = -1, to = -1;
    bool same_shift = true, same_xor = true, one_src = true, one_dst = true, any = false;
    bool on_switch = false, on_gpu = false; /* where a step's local work happens */
    int senders = 0;
    uint64_t sends[CV_MAX_RANKS / 64 + 1] = {0};
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst) {
            on_switch |= x->src >= n;
            on_gpu |= x->src < n;
            continue;
        }
        int d = ((x->dst - x->src) % n + n) % n, e = x->src ^ x->dst;
        if (!any) {
            shift = d, xr = e, from = x->src, to = x->dst;
            any = true;
        }
        same_shift &= d == shift;
        same_xor &= e == xr;
        one_src &= x->src == from;
        one_dst &= x->dst == to;
        if (x->src >= 0 && x->src <= CV_MAX_RANKS && !(sends[x->src / 64] >> (x->src % 64) & 1)) {
            sends[x->src / 64] |= 1ull << (x->src % 64);
            senders++;
        }
    }
    bool all = senders >= n;
    bool sw = from >= n || to >= n; /* an in-network plan's switch */
    if (!any)
        snprintf(out, outlen, "%s",
                 on_switch && !on_gpu ? (zh ? "交换机把收到的数据相加" : "the switch adds up what it received")
                 : zh              ? "只在各 GPU 内部操作"
                                   : "work stays inside each GPU");
    else if (sw && to >= n)
        snprintf(out, outlen, "%s", zh ? "每个 GPU 发给交换机" : "every GPU sends to the switch");
    else if (sw)
        snprintf(out, outlen, "%s", zh ? "交换机发给每个 GPU" : "the switch sends to every GPU");
    else if (one_src && one_dst)
        snprintf(out, outlen, zh ? "GPU %d 发给 GPU %d" : "GPU %d sends to GPU %d", from, to);
    else if (one_src)
        snprintf(out, outlen, zh ? "GPU %d 发给 %d 个 GPU" : "GPU %d sends to %d GPUs", from,
                 (int)(st->count));
    else if (one_dst)
        snprintf(out, outlen, zh ? "%d 个 GPU 发给 GPU %d" : "%d GPUs send to GPU %d", senders, to);
    else if (all && same_shift && shift == 1)
        snprintf(out, outlen, "%s", zh ? "每个 GPU 发给右邻居" : "every GPU sends to its right neighbour");
    else if (all && same_shift && shift == n - 1)
        snprintf(out, outlen, "%s", zh ? "每个 GPU 发给左邻居" : "every GPU sends to its left neighbour");
    else if (all && same_shift)
        snprintf(out, outlen, zh ? "每个 GPU 发给前方第 %d 个 GPU" : "every GPU sends to the GPU %d ahead",
                 shift);
    else if (all && same_xor)
        snprintf(out, outlen, zh ? "伙伴两两交换（编号异或 %d）" : "partners exchange (rank xor %d)", xr);
    else if (same_shift && zh)
        snprintf(out, outlen, "%d 个 GPU 各自发给%s第 %d 个 GPU", senders, 2 * shift > n ? "后方" : "前方",
                 2 * shift > n ? n - shift : shift);
    else if (same_shift)
        snprintf(out, outlen, "%d %s to the GPU %d %s", senders,
                 noun(senders, "GPU sends", "GPUs each send"), 2 * shift > n ? n - shift : shift,
                 2 * shift > n ? "behind" : "ahead");
    else
        snprintf(out, outlen, zh ? "%d 个 GPU 同时发送" : "%d GPUs send at once", senders);
}

static void gpu_name(const cv_plan *plan, int r, bool zh, char *out, size_t n)
{
    if (r >= plan->spec.ranks)
        snprintf(out, n, "%s", zh ? "交换机" : "switch");
    else
        snprintf(out, n, "GPU %d", r);
}

/* The chunks elements off..off+count-1 of a buffer hold, as the stage
 * names them: "b0+1", or every chunk a transfer carries as a range
 * "a0-7\u2026h0-7"; a scratch buffer's partial sums (the stage's "{0+2}")
 * as "scratch 0+2". */
static void chunk_names(const cv_plan *plan, cv_buf b, int rank, cv_bufview v, int64_t off,
                        int64_t count, bool zh, char *out, size_t n)
{
    char first[96] = "", last[96] = "";
    uint64_t m0 = v.masks && off < v.count ? v.masks[off] : 0;
    rd_chunk_label(&plan->spec, b, rank, off, m0, first, sizeof first);
    int64_t e = off + count - 1;
    if (count > 1 && v.masks && e < v.count)
        rd_chunk_label(&plan->spec, b, rank, e, v.masks[e], last, sizeof last);
    char one[96], two[96];
    for (int k = 0; k < 2; k++) {
        const char *s = k ? last : first;
        char *d = k ? two : one;
        size_t l = strlen(s);
        if (s[0] == '{' && l >= 2 && s[l - 1] == '}')
            snprintf(d, sizeof one, "%s %.*s", zh ? "\xE6\x9A\x82\xE5\xAD\x98" : "scratch", (int)(l - 2),
                     s + 1);
        else
            snprintf(d, sizeof one, "%s", s);
    }
    if (last[0] && strcmp(first, last) && first[0] != '{')
        snprintf(out, n, "%s\xE2\x80\xA6%s", one, two);
    else
        snprintf(out, n, "%s", one);
}

/* "b0+1 = 201" (or "a0…h0 = 0 1 2 …") for what a transfer carries, read
 * from view (the state before its step). */
static void carried(const cv_plan *plan, const cv_transfer *x, cv_state *view, bool zh, char *out,
                    size_t n)
{
    cv_bufview v = cv_state_buf(view, x->src, (cv_buf)x->src_buf);
    char name[200] = "", val[32], vals[96] = "";
    chunk_names(plan, (cv_buf)x->src_buf, x->src, v, x->src_off, x->count, zh, name, sizeof name);
    size_t len = 0;
    for (int64_t k = 0; k < x->count && k < 3 && v.values; k++) {
        rd_value_text(plan->spec.dtype, v.values, x->src_off + k, val, sizeof val);
        len += (size_t)snprintf(vals + len, sizeof vals - len, "%s%s", k ? " " : "", val);
        if (len >= sizeof vals)
            break;
    }
    if (x->count > 3 && len + 4 < sizeof vals)
        snprintf(vals + len, sizeof vals - len, " \xE2\x80\xA6");
    snprintf(out, n, "%s = %s", name[0] ? name : "?", vals);
}

/* "d0+3 + d1 = 306 + 103 = 409" for a reduction that landed (before and
 * after its step), or what a copy carried. */
static void landed(const cv_plan *plan, const cv_transfer *x, cv_state *before, cv_state *after,
                   bool zh, char *out, size_t n)
{
    if (x->kind == CV_XFER_COPY || !after) {
        carried(plan, x, before, zh, out, n);
        return;
    }
    bool rc = x->kind == CV_XFER_REDUCE_COPY;
    cv_buf lb = (cv_buf)(rc ? x->local_buf : x->dst_buf);
    int64_t lo = rc ? x->local_off : x->dst_off;
    cv_bufview src = cv_state_buf(before, x->src, (cv_buf)x->src_buf);
    cv_bufview old = cv_state_buf(before, x->dst, lb);
    cv_bufview now = cv_state_buf(after, x->dst, (cv_buf)x->dst_buf);
    if (!src.values || !old.values || !now.values) {
        carried(plan, x, before, zh, out, n);
        return;
    }
    char a[200] = "", b[200] = "", va[32], vb[32], vc[32];
    chunk_names(plan, (cv_buf)x->src_buf, x->src, src, x->src_off, x->count, zh, a, sizeof a);
    chunk_names(plan, lb, x->dst, old, lo, x->count, zh, b, sizeof b);
    rd_value_text(plan->spec.dtype, src.values, x->src_off, va, sizeof va);
    rd_value_text(plan->spec.dtype, old.values, lo, vb, sizeof vb);
    rd_value_text(plan->spec.dtype, now.values, x->dst_off, vc, sizeof vc);
    const char *more = x->count > 1 ? " \xE2\x80\xA6" : "";
    cv_redop op = plan->spec.redop;
    if (op == CV_MIN || op == CV_MAX)
        snprintf(out, n, "%s, %s: %s(%s, %s) = %s%s", a, b, op == CV_MIN ? "min" : "max", va, vb, vc,
                 more);
    else
        snprintf(out, n, "%s + %s = %s %s %s = %s%s", a, b, va,
                 op == CV_PROD ? "\xC3\x97" : op == CV_BAND ? "&" : op == CV_BOR ? "|"
                 : op == CV_BXOR ? "^" : "+", vb, vc, more);
}

void gui__describe_step(const cv_plan *plan, int step, cv_state *before, cv_state *after,
                        cv_lang lang, bool brief, char *out, size_t outlen)
{
    bool zh = lang == CV_LANG_ZH;
    out[0] = '\0';
    if (plan->nsteps == 0 || step < 0 || step >= plan->nsteps)
        return;
    const cv_step *st = &plan->steps[step];
    long long copies = 0, reduces = 0, moves = 0;
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        moves += x->src != x->dst;
        if (x->kind == CV_XFER_COPY)
            copies++;
        else
            reduces++;
    }
    char who[160];
    pattern(plan, st, zh, who, sizeof who);
    const char *phase = st->phase ? st->phase : "";
    size_t len;
    /* A local sub-phase says so, unless its phase's name does. */
    bool say_local = st->local && !strstr(phase, "local");
    if (zh)
        len = (size_t)snprintf(out, outlen, "第 %d 步 / 共 %d 步（%s%s）：%s", st->round, plan->nrounds,
                               phase, say_local ? "，本地" : "", who);
    else
        len = (size_t)snprintf(out, outlen, "Step %d of %d (%s%s): %s", st->round, plan->nrounds,
                               phase, say_local ? ", local" : "", who);
    if (len >= outlen)
        return;
    if (brief) {
        long long c = st->count;
        if (zh)
            snprintf(out + len, outlen - len, "；%lld 次传输。", c);
        else
            snprintf(out + len, outlen - len, "; %lld %s.", c, noun(c, "transfer", "transfers"));
        return;
    }
    /* The pairs and what they carry, one a line, while the list stays
     * short. */
    enum { LIST = 3 };
    int listed = 0;
    for (int64_t i = st->first; i < st->first + st->count && listed < LIST && before; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst && moves > 0)
            continue; /* a local copy beside the messages: counted, not listed */
        char s[24], d[24], what[320];
        gpu_name(plan, x->src, zh, s, sizeof s);
        gpu_name(plan, x->dst, zh, d, sizeof d);
        if (after)
            landed(plan, x, before, after, zh, what, sizeof what);
        else
            carried(plan, x, before, zh, what, sizeof what);
        if (x->src == x->dst)
            len += (size_t)snprintf(out + len, outlen - len, zh ? "%s\n%s 内部：%s" : "%s\n%s, inside: %s",
                                    listed ? "" : (zh ? "。" : "."), s, what);
        else
            len += (size_t)snprintf(out + len, outlen - len, "%s\n%s \xE2\x86\x92 %s: %s",
                                    listed ? "" : (zh ? "。" : "."), s, d, what);
        listed++;
        if (len >= outlen)
            return;
    }
    long long shown = listed, total = moves > 0 ? moves : st->count;
    if (total > shown && len < outlen)
        len += (size_t)snprintf(out + len, outlen - len,
                                zh ? "\n另有 %lld 个类似传输。" : "\nand %lld more like %s.", total - shown,
                                total - shown == 1 ? "it" : "them");
    else if (listed == 0 && len < outlen)
        len += (size_t)snprintf(out + len, outlen - len, "%s", zh ? "。" : ".");
    if (len < outlen) {
        /* The kinds there are: "1 transfer: 1 copy", "4 transfers: 4 reductions". */
        long long c = st->count;
        char kinds[96] = "";
        if (zh) {
            size_t k = 0;
            if (copies)
                k += (size_t)snprintf(kinds + k, sizeof kinds - k, "%lld 次复制", copies);
            if (reduces)
                snprintf(kinds + k, sizeof kinds - k, "%s%lld 次规约", k ? "、" : "", reduces);
            snprintf(out + len, outlen - len, "\n共 %lld 次传输：%s。", c, kinds);
        } else {
            size_t k = 0;
            if (copies)
                k += (size_t)snprintf(kinds + k, sizeof kinds - k, "%lld %s", copies,
                                      noun(copies, "copy", "copies"));
            if (reduces)
                snprintf(kinds + k, sizeof kinds - k, "%s%lld %s", k ? ", " : "", reduces,
                         noun(reduces, "reduction", "reductions"));
            snprintf(out + len, outlen - len, "\n%lld %s: %s.", c, noun(c, "transfer", "transfers"),
                     kinds);
        }
    }
}
