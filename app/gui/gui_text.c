/*
 * gui_text.c: the narration panel's default words: what the op does, how
 * this algorithm does it for this op, what the step that just happened did
 * and what the next one will do, in English and Chinese.
 *
 * The op/algorithm text is the registry's: each of its rows carries its
 * own paragraph (cv_algo_narration; a "direct" Broadcast sends to one rank
 * after another, a "direct" AllGather sends to everyone at once: one stock
 * sentence cannot be right for both), and test_gui_text checks that every
 * pair has one. The step sentences are derived from the plan itself (who
 * sends to whom, which chunk with which value, copy or reduce), not from a
 * per-algorithm script, so they stay true for any plan the core generates.
 * Lessons replace the op/algorithm text with their own through
 * gui_narrate.
 */
#include "gui_internal.h"

#include <stdint.h>
#include <stdlib.h>
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

/* How this algorithm does this op: the registry's narration (cv_algos.c). */
static const char *pair_text(cv_op op, cv_algo a, bool zh)
{
    return cv_algo_narration(op, a, zh ? CV_LANG_ZH : CV_LANG_EN);
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
/* Who sends in a step with an in-network plan's switch in it: up_n GPUs
 * send to a switch, down_n receive from one, and GPUs may send to each
 * other as well (a pipelined step); with a switch a node, each GPU's is its
 * node's. */
static void switch_pattern(const cv_plan *plan, int up_n, int down_n, bool gpu_gpu, bool zh,
                           char *out, size_t outlen)
{
    int n = plan->spec.ranks;
    bool own = plan->nswitch > 1;
    const char *sw_zh = own ? "本节点的交换机" : "交换机", *sw_en = own ? "its node's switch" : "the switch";
    if (gpu_gpu || (up_n && down_n)) /* several stages of a pipeline at once */
        snprintf(out, outlen, "%s",
                 zh ? (gpu_gpu ? "GPU 之间、GPU 与交换机之间同时传输" : "GPU 与交换机之间双向同时传输")
                    : (gpu_gpu ? "GPUs send to each other and to and from the switch at once"
                               : "GPUs and the switch send both ways at once"));
    else if (up_n == n)
        snprintf(out, outlen, zh ? "每个 GPU 发给%s" : "every GPU sends to %s", zh ? sw_zh : sw_en);
    else if (up_n)
        snprintf(out, outlen, zh ? "%d 个 GPU 发给%s" : "%d GPUs send to %s", up_n, zh ? sw_zh : sw_en);
    else if (down_n == n)
        snprintf(out, outlen, "%s",
                 zh ? (own ? "每个交换机发给本节点的每个 GPU" : "交换机发给每个 GPU")
                    : (own ? "each node's switch sends to every GPU of its node"
                           : "the switch sends to every GPU"));
    else
        snprintf(out, outlen, zh ? "交换机发给 %d 个 GPU" : "the switch sends to %d GPUs", down_n);
}

static void pattern(const cv_plan *plan, const cv_step *st, long long messages, bool zh, char *out,
                    size_t outlen)
{
    int n = plan->spec.ranks;
    int shift = -1, xr = -1, from = -1, to = -1;
    bool same_shift = true, same_xor = true, one_src = true, one_dst = true, any = false;
    bool on_switch = false, on_gpu = false; /* where a step's local work happens */
    int senders = 0;
    uint64_t sends[CV_MAX_RANKS / 64 + 1] = {0};
    /* an in-network plan's switches: the GPUs that send to one, that one
     * sends to, and whether GPUs send to each other in the same step */
    int up_n = 0, down_n = 0;
    bool gpu_gpu = false;
    uint64_t ups[CV_MAX_RANKS / 64 + 1] = {0}, downs[CV_MAX_RANKS / 64 + 1] = {0};
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst) {
            on_switch |= x->src >= n;
            on_gpu |= x->src < n;
            continue;
        }
        int g = x->dst >= n ? x->src : x->src >= n ? x->dst : -1;
        if (g >= 0 && g < n && g < CV_MAX_RANKS) {
            uint64_t *set = x->dst >= n ? ups : downs;
            if (!(set[g / 64] >> (g % 64) & 1)) {
                set[g / 64] |= 1ull << (g % 64);
                ++*(x->dst >= n ? &up_n : &down_n);
            }
        } else if (x->src < n && x->dst < n) {
            gpu_gpu = true;
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
    else if (sw || up_n || down_n)
        switch_pattern(plan, up_n, down_n, gpu_gpu, zh, out, outlen);
    else if (one_src && one_dst)
        snprintf(out, outlen, zh ? "GPU %d 发给 GPU %d" : "GPU %d sends to GPU %d", from, to);
    else if (one_src)
        snprintf(out, outlen, zh ? "GPU %d 发给 %lld 个 GPU" : "GPU %d sends to %lld GPUs", from,
                 messages);
    else if (one_dst)
        snprintf(out, outlen, zh ? "%d 个 GPU 发给 GPU %d" : "%d GPUs send to GPU %d", senders, to);
    else if (all && same_shift && shift == 1)
        snprintf(out, outlen, "%s", zh ? "每个 GPU 发给右邻居" : "every GPU sends to its right neighbour");
    else if (all && same_shift && shift == n - 1)
        snprintf(out, outlen, "%s", zh ? "每个 GPU 发给左邻居" : "every GPU sends to its left neighbour");
    else if (all && same_shift && zh) /* Bruck's r - 2^k is behind, not N - 2^k ahead */
        snprintf(out, outlen, "每个 GPU 发给%s第 %d 个 GPU", 2 * shift > n ? "后方" : "前方",
                 2 * shift > n ? n - shift : shift);
    else if (all && same_shift)
        snprintf(out, outlen, "every GPU sends to the GPU %d %s", 2 * shift > n ? n - shift : shift,
                 2 * shift > n ? "behind" : "ahead");
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
    cv_lang lang = zh ? CV_LANG_ZH : CV_LANG_EN;
    if (r >= plan->spec.ranks && plan->nswitch > 1) /* a switch a node */
        rd_strf(lang, RD_S_NODE_SWITCH, out, n, r - plan->spec.ranks, 0);
    else if (r >= plan->spec.ranks)
        snprintf(out, n, "%s", rd_str(lang, RD_S_SWITCH));
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

/* ------------------------------------------------------------ messages */

/* A step's messages, as the cost model counts them (cv_cost.c): what one
 * rank sends one other rank in the step, however many transfers (a block
 * range that wraps round the buffer is two) it takes; a transfer inside
 * one part is a local operation, counted apart from them. */
typedef struct {
    /* a message reduces if one of its transfers does */
    long long messages, msg_copies, msg_reduces;
    long long local_copies, local_reduces;
    bool sw; /* some message goes to or from an in-network plan's switch */
} step_counts;

static int key_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static step_counts count_step(const cv_plan *plan, const cv_step *st)
{
    step_counts k;
    memset(&k, 0, sizeof k);
    int64_t parts = cv_plan_parts(plan), np = 0;
    /* the pair of each message, twice its key and 1 if it reduces */
    int64_t *keys = st->count > 0 ? cv_xmalloc((size_t)st->count * sizeof *keys) : NULL;
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        bool red = x->kind != CV_XFER_COPY;
        if (x->src == x->dst) {
            k.local_copies += !red;
            k.local_reduces += red;
            continue;
        }
        k.sw |= x->src >= plan->spec.ranks || x->dst >= plan->spec.ranks;
        keys[np++] = ((int64_t)x->src * parts + x->dst) * 2 + red;
    }
    qsort(keys, (size_t)np, sizeof *keys, key_cmp);
    for (int64_t i = 0; i < np;) {
        int64_t j = i;
        bool red = false;
        for (; j < np && keys[j] / 2 == keys[i] / 2; j++)
            red |= keys[j] & 1;
        k.messages++;
        k.msg_reduces += red;
        k.msg_copies += !red;
        i = j;
    }
    free(keys);
    return k;
}

/* "4 messages between GPUs: 4 reductions; 4 local copies." and in
 * Chinese; brief: "4 messages, 4 local copies". */
static void counts_text(const step_counts *k, bool zh, bool brief, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    if (zh) {
        if (k->messages) {
            len += (size_t)snprintf(out + len, n - len, "%s共 %lld 条消息",
                                    k->sw ? "GPU 与交换机之间" : "GPU 之间", k->messages);
            if (!brief && k->msg_copies && len < n)
                len += (size_t)snprintf(out + len, n - len, "：%lld 次复制", k->msg_copies);
            if (!brief && k->msg_reduces && len < n)
                len += (size_t)snprintf(out + len, n - len, "%s%lld 次规约",
                                        k->msg_copies ? "、" : "：", k->msg_reduces);
        }
        long long l = k->local_copies + k->local_reduces;
        if (l && len < n)
            snprintf(out + len, n - len, "%s本地 %lld 次%s", k->messages ? "；" : "", l,
                     k->local_reduces && k->local_copies ? "复制或规约"
                     : k->local_reduces                  ? "规约"
                                                         : "复制");
        return;
    }
    if (k->messages) {
        len += (size_t)snprintf(out + len, n - len, "%lld %s %s", k->messages,
                                noun(k->messages, "message", "messages"),
                                k->sw ? "between GPUs and the switch" : "between GPUs");
        if (!brief && len < n) {
            len += (size_t)snprintf(out + len, n - len, ":");
            if (k->msg_copies && len < n)
                len += (size_t)snprintf(out + len, n - len, " %lld %s", k->msg_copies,
                                        noun(k->msg_copies, "copy", "copies"));
            if (k->msg_reduces && len < n)
                len += (size_t)snprintf(out + len, n - len, "%s %lld %s", k->msg_copies ? "," : "",
                                        k->msg_reduces,
                                        noun(k->msg_reduces, "reduction", "reductions"));
        }
    }
    const char *sep = k->messages ? (brief ? ", " : "; ") : "";
    if (k->local_copies && len < n)
        len += (size_t)snprintf(out + len, n - len, "%s%lld local %s", sep, k->local_copies,
                                noun(k->local_copies, "copy", "copies"));
    if (k->local_reduces && len < n)
        snprintf(out + len, n - len, "%s%lld local %s", k->local_copies ? ", " : sep,
                 k->local_reduces, noun(k->local_reduces, "reduction", "reductions"));
}

/* What the message from src to dst carries: each of its transfers' chunks
 * (and, once landed, the arithmetic), joined. */
static size_t message_text(const cv_plan *plan, const cv_step *st, int src, int dst,
                           cv_state *before, cv_state *after, bool zh, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int64_t i = st->first; i < st->first + st->count && len < n; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src != src || x->dst != dst)
            continue;
        char what[320];
        if (after)
            landed(plan, x, before, after, zh, what, sizeof what);
        else
            carried(plan, x, before, zh, what, sizeof what);
        len += (size_t)snprintf(out + len, n - len, "%s%s", len ? (zh ? "；" : "; ") : "", what);
    }
    return len;
}

/* One line of the list: "GPU 0 → GPU 1: d0+3 = 306", or a local one. */
static size_t pair_line(const cv_plan *plan, const cv_step *st, int src, int dst, cv_state *before,
                        cv_state *after, bool zh, bool first, char *out, size_t n)
{
    char s[24], d[24], what[700];
    gpu_name(plan, src, zh, s, sizeof s);
    gpu_name(plan, dst, zh, d, sizeof d);
    message_text(plan, st, src, dst, before, after, zh, what, sizeof what);
    const char *stop = first ? (zh ? "。" : ".") : "";
    if (src == dst)
        return (size_t)snprintf(out, n, zh ? "%s\n%s 内部：%s" : "%s\n%s, inside: %s", stop, s,
                                what);
    return (size_t)snprintf(out, n, "%s\n%s \xE2\x86\x92 %s: %s", stop, s, d, what);
}

void gui__describe_step(const cv_plan *plan, int step, cv_state *before, cv_state *after,
                        cv_lang lang, bool brief, char *out, size_t outlen)
{
    bool zh = lang == CV_LANG_ZH;
    out[0] = '\0';
    if (plan->nsteps == 0 || step < 0 || step >= plan->nsteps)
        return;
    const cv_step *st = &plan->steps[step];
    step_counts k = count_step(plan, st);
    char who[160], counts[256];
    pattern(plan, st, k.messages, zh, who, sizeof who);
    counts_text(&k, zh, brief, counts, sizeof counts);
    const char *phase_en = st->phase ? st->phase : "";
    char phase[160];
    rd_phase_text(lang, phase_en, phase, sizeof phase);
    size_t len;
    /* A local sub-phase says so, unless its phase's name does. */
    bool say_local = st->local && !strstr(phase_en, "local");
    if (zh)
        len = (size_t)snprintf(out, outlen, "第 %d 步 / 共 %d 步（%s%s）：%s", st->round, plan->nrounds,
                               phase, say_local ? "，本地" : "", who);
    else
        len = (size_t)snprintf(out, outlen, "Step %d of %d (%s%s): %s", st->round, plan->nrounds,
                               phase, say_local ? ", local" : "", who);
    if (len >= outlen)
        return;
    if (brief) {
        snprintf(out + len, outlen - len, zh ? "；%s。" : "; %s.", counts);
        return;
    }
    /* The pairs and what they carry, one message a line: every one while
     * they are few (a ring of 4 shows its wrap-around 3 -> 0), else the
     * first two, how many more, and the last. A local copy beside
     * messages is counted, not listed. */
    enum { ALL = 5, HEAD = 2 };
    bool msgs = k.messages > 0;
    long long total = msgs ? k.messages : st->count, shown = 0;
    int64_t last = -1; /* the last pair's first transfer */
    int pairs[ALL][2];
    for (int64_t i = st->first; i < st->first + st->count && before; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if ((x->src == x->dst) == msgs)
            continue;
        bool seen = false;
        for (long long j = 0; j < shown && j < ALL; j++)
            seen |= pairs[j][0] == x->src && pairs[j][1] == x->dst;
        if (seen || (msgs && last >= 0 && plan->transfers[last].src == x->src &&
                     plan->transfers[last].dst == x->dst))
            continue;
        if (shown < (total <= ALL ? ALL : HEAD)) {
            pairs[shown][0] = x->src, pairs[shown][1] = x->dst;
            len += pair_line(plan, st, x->src, x->dst, before, after, zh, shown == 0, out + len,
                             outlen - len);
            shown++;
            if (len >= outlen)
                return;
        } else
            last = i;
    }
    if (total > shown && last >= 0) {
        long long more = total - shown - 1;
        if (more > 0)
            len += (size_t)snprintf(out + len, outlen - len,
                                    zh ? "\n……另有 %lld 个类似的……"
                                       : "\n\xE2\x80\xA6 and %lld more like them \xE2\x80\xA6",
                                    more);
        if (len < outlen)
            len += pair_line(plan, st, plan->transfers[last].src, plan->transfers[last].dst, before,
                             after, zh, false, out + len, outlen - len);
    } else if (shown == 0 && len < outlen)
        len += (size_t)snprintf(out + len, outlen - len, "%s", zh ? "。" : ".");
    if (len < outlen)
        snprintf(out + len, outlen - len, zh ? "\n%s。" : "\n%s.", counts);
}
