/*
 * gui_text.c: the narration panel's default words: what the op does, how
 * the algorithm does it, and what the current step does, in English and
 * Chinese.
 *
 * The step sentence is derived from the plan itself (who sends to whom,
 * copy or reduce, how many elements), not from a per-algorithm script, so
 * it stays true for any plan the core generates.  Lessons replace all of
 * this with their own text through gui_narrate.
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
                      "所有进程的缓冲区按元素做归约运算，只有根进程得到结果。"},
    [CV_OP_ALLGATHER] = {"Every rank contributes one block and ends with all blocks, in rank order.",
                         "每个进程贡献一块数据，最后每个进程都按编号顺序拥有全部数据块。"},
    [CV_OP_REDUCESCATTER] = {"The buffers are reduced element by element, and rank i keeps only block i of the result.",
                             "各缓冲区按元素归约，进程 i 只保留结果中的第 i 块。"},
    [CV_OP_ALLREDUCE] = {"The buffers are reduced element by element and every rank ends with the whole result. "
                         "It equals ReduceScatter followed by AllGather.",
                         "各缓冲区按元素归约，每个进程都得到完整结果。它等价于先做 ReduceScatter 再做 AllGather。"},
    [CV_OP_ALLTOALL] = {"Rank i sends its block j to rank j, which stores it as block i: a transpose across ranks.",
                        "进程 i 把第 j 块发给进程 j，进程 j 把它存为第 i 块：相当于跨进程的转置。"},
    [CV_OP_SENDRECV] = {"Point to point: rank r sends its buffer to rank r+1 (mod N), as pipeline stages do.",
                        "点对点通信：进程 r 把缓冲区发给进程 r+1（取模 N），流水线并行的各阶段就是这样传递数据的。"},
};

static const words algo_words[CV_ALGO_COUNT] = {
    [CV_ALGO_DIRECT] = {"Direct: every rank talks to every other rank at once. Few steps, but each port carries N-1 messages.",
                        "直接法：每个进程同时和其他所有进程通信。步数少，但每个端口要承载 N-1 条消息。"},
    [CV_ALGO_RING] = {"Ring: ranks pass chunks to their right neighbour, N-1 steps per phase. Each link carries "
                      "only 1/N of the data per step, so the bandwidth use is optimal; latency grows with N.",
                      "环形算法：每个进程把数据块传给右邻居，每个阶段 N-1 步。每一步每条链路只传 1/N 的数据，"
                      "带宽利用最优，但延迟随 N 线性增长。"},
    [CV_ALGO_TREE] = {"Tree: data flows along a tree, so only about log2(N) levels are crossed: good latency, "
                      "but inner ranks send whole buffers.",
                      "树形算法：数据沿树传递，只需约 log2(N) 层，延迟低，但中间节点要发送整个缓冲区。"},
    [CV_ALGO_RECURSIVE_DOUBLING] = {"Recursive doubling: in step k each rank exchanges with the partner whose "
                                    "number differs in bit k; log2(N) steps.",
                                    "递归倍增：第 k 步每个进程与编号只在第 k 位不同的伙伴交换数据，共 log2(N) 步。"},
    [CV_ALGO_RECURSIVE_HALVING] = {"Recursive halving: partners exchange half of what is left each step, so "
                                   "the data sent halves every step.",
                                   "递归减半：每一步伙伴之间交换剩余数据的一半，发送量逐步减半。"},
    [CV_ALGO_RABENSEIFNER] = {"Rabenseifner: a reduce-scatter by recursive halving, then an all-gather by "
                              "recursive doubling: few steps and little data.",
                              "Rabenseifner 算法：先用递归减半做 reduce-scatter，再用递归倍增做 all-gather，"
                              "步数少、数据量也小。"},
    [CV_ALGO_BRUCK] = {"Bruck: in step k each rank sends to the rank 2^k ahead; ceil(log2(N)) steps, with a "
                       "local rotation at the end.",
                       "Bruck 算法：第 k 步每个进程发给前方第 2^k 个进程，共 ceil(log2(N)) 步，最后做一次本地旋转。"},
    [CV_ALGO_PAIRWISE] = {"Pairwise: in step k rank r exchanges with one partner, so every step uses each "
                          "link once; N-1 steps.",
                          "成对交换：第 k 步进程 r 只与一个伙伴交换，每一步每条链路只用一次，共 N-1 步。"},
    [CV_ALGO_DOUBLE_TREE] = {"Double binary tree (NCCL's tree): two trees, each carrying half the data in a "
                             "pipeline up and back down; a rank inner in one tree is a leaf in the other. "
                             "2 ceil(log2 N) + S - 1 steps.",
                             "双二叉树（NCCL 的树算法）：两棵树各传一半数据，分块流水地先上行规约再下行广播；"
                             "在一棵树里是内部节点的进程，在另一棵树里是叶子。共 2 ceil(log2 N) + S - 1 步。"},
    [CV_ALGO_SCATTER_ALLGATHER] = {"Scatter + allgather (van de Geijn): the root scatters N blocks down a tree, "
                                   "then a ring passes them around: the root sends the buffer about once, "
                                   "not log2(N) times.",
                                   "Scatter + AllGather（van de Geijn）：root 先沿树把数据分成 N 块分发，"
                                   "再用环把各块传一圈：root 只发出大约一份缓冲区，而不是 log2(N) 份。"},
};

static const char *algo_text(cv_algo a, bool zh)
{
    const words *w = (unsigned)a < CV_ALGO_COUNT ? &algo_words[a] : NULL;
    return w && w->en ? (zh ? w->zh : w->en) : "";
}

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
                     "β：比较两边标题里的步数和每进程发送量。\n%s\n%s",
                     op, a, b, algo_text(spec->algo, zh), algo_text(second, zh));
        else
            snprintf(body, blen,
                     "%s\nLeft %s, right %s: the same inputs and the same result by different "
                     "routes. Every step pays the latency alpha and every byte the bandwidth cost "
                     "beta: compare the steps and bytes per rank in their captions.\n%s\n%s",
                     op, a, b, algo_text(spec->algo, zh), algo_text(second, zh));
        return;
    }
    snprintf(title, tlen, "%s (%s)", cv_op_title(spec->op), cv_algo_name(spec->algo));
    /* What the cells show is the legend's job, under the stage. */
    snprintf(body, blen, "%s\n%s", op, algo_text(spec->algo, zh));
}

/* Who talks to whom in a step: every transfer to (src + d) mod N for one
 * d, or to src XOR d, from one rank, or a short list of pairs; "every GPU"
 * only when every rank sends. */
static void pattern(const cv_plan *plan, const cv_step *st, bool zh, char *out, size_t outlen)
{
    enum { MAX_PAIRS = 4 };
    int n = plan->spec.ranks;
    int shift = -1, xr = -1, from = -1, npairs = 0, pairs[MAX_PAIRS][2];
    bool same_shift = true, same_xor = true, one_src = true, any = false, few = true;
    int senders = 0;
    /* Which ranks send: a bitmap on the stack (this runs every frame). */
    uint64_t sends[CV_MAX_RANKS / 64] = {0};
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst)
            continue;
        int d = ((x->dst - x->src) % n + n) % n, e = x->src ^ x->dst;
        if (!any) {
            shift = d, xr = e, from = x->src;
            any = true;
        }
        same_shift &= d == shift;
        same_xor &= e == xr;
        one_src &= x->src == from;
        if (x->src >= 0 && x->src < CV_MAX_RANKS && !(sends[x->src / 64] >> (x->src % 64) & 1)) {
            sends[x->src / 64] |= 1ull << (x->src % 64);
            senders++;
        }
        bool known = false;
        for (int k = 0; k < npairs; k++)
            known |= pairs[k][0] == x->src && pairs[k][1] == x->dst;
        if (!known && npairs < MAX_PAIRS) {
            pairs[npairs][0] = x->src;
            pairs[npairs][1] = x->dst;
            npairs++;
        } else if (!known) {
            few = false;
        }
    }
    bool all = senders == n;
    if (!any) {
        snprintf(out, outlen, "%s", zh ? "只在各进程内部操作" : "work stays inside each rank");
    } else if (one_src) {
        snprintf(out, outlen, zh ? "GPU %d 发送数据" : "GPU %d sends", from);
    } else if (all && same_shift && shift == 1) {
        snprintf(out, outlen, "%s", zh ? "每个 GPU 发给右邻居" : "every GPU sends to its right neighbour");
    } else if (all && same_shift && shift == n - 1) {
        snprintf(out, outlen, "%s", zh ? "每个 GPU 发给左邻居" : "every GPU sends to its left neighbour");
    } else if (all && same_shift) {
        snprintf(out, outlen, zh ? "每个 GPU 发给前方第 %d 个 GPU" : "every GPU sends to the GPU %d ahead",
                 shift);
    } else if (all && same_xor) {
        snprintf(out, outlen, zh ? "伙伴两两交换（编号异或 %d）" : "partners exchange (rank xor %d)", xr);
    } else if (few) {
        size_t used = 0;
        for (int k = 0; k < npairs && used < outlen; k++)
            used += (size_t)snprintf(out + used, outlen - used, "%sGPU %d \xE2\x86\x92 GPU %d",
                                     k == 0 ? "" : zh ? "，" : ", ", pairs[k][0], pairs[k][1]);
    } else if (same_shift && 2 * shift > n) {
        snprintf(out, outlen, zh ? "%d 个 GPU 各自发给后方第 %d 个 GPU"
                                 : "%d GPUs each send to the GPU %d behind",
                 senders, n - shift);
    } else if (same_shift) {
        snprintf(out, outlen, zh ? "%d 个 GPU 各自发给前方第 %d 个 GPU"
                                 : "%d GPUs each send to the GPU %d ahead",
                 senders, shift);
    } else {
        snprintf(out, outlen, "%s", zh ? "多对进程同时通信" : "many pairs talk at once");
    }
}

void gui__describe_step(const cv_plan *plan, int step, double frac, cv_lang lang, bool brief,
                        char *out, size_t outlen)
{
    bool zh = lang == CV_LANG_ZH;
    if (plan->nsteps == 0 || step >= plan->nsteps) {
        snprintf(out, outlen, "%s", zh ? "全部步骤完成：输出缓冲区里就是结果。按 Home 从头再看。"
                                        : "All steps done: the output buffers hold the result. Home plays it again.");
        return;
    }
    if (step < 0)
        step = 0;
    const cv_step *st = &plan->steps[step];
    int64_t copies = 0, reduces = 0, local = 0, elems = 0;
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst)
            local++;
        if (x->kind == CV_XFER_COPY)
            copies++;
        else
            reduces++;
        elems += x->count;
    }
    char who[128];
    pattern(plan, st, zh, who, sizeof who);
    const char *phase = st->phase ? st->phase : "";
    if (brief) {
        /* Two sides share the panel: who talks, and how much. */
        if (zh)
            snprintf(out, outlen, "第 %d 步（%s）：%s；%lld 次传输，%lld 个元素。", st->round, phase,
                     who, (long long)st->count, (long long)elems);
        else
            snprintf(out, outlen, "Step %d (%s): %s; %lld transfers, %lld elements.", st->round,
                     phase, who, (long long)st->count, (long long)elems);
        return;
    }
    if (zh)
        snprintf(out, outlen,
                 "第 %d 步（%s）：%s。共 %lld 次传输，%lld 个元素；%lld 次复制、%lld 次归约%s。%s",
                 st->round, phase, who, (long long)st->count, (long long)elems, (long long)copies,
                 (long long)reduces, local && local < st->count ? "（含本地操作）" : "",
                 frac > 0 && frac < RD_ARRIVE ? "数据块正在传输中。"
                 : reduces                    ? "到达后与接收方的数据合并。"
                                              : "到达后覆盖目标格子。");
    else
        snprintf(out, outlen,
                 "Step %d (%s): %s. %lld transfers, %lld elements: %lld copies, %lld reductions%s. %s",
                 st->round, phase, who, (long long)st->count, (long long)elems, (long long)copies,
                 (long long)reduces, local && local < st->count ? " (some local)" : "",
                 frac > 0 && frac < RD_ARRIVE ? "Chunks are in flight."
                 : reduces                    ? "On arrival they are combined with the receiver's data."
                                              : "On arrival they replace what the cell held.");
}
