/*
 * rd_strings.c: every word the renderer draws, in English and Chinese
 * (the keys' and buttons' words live with the keymap, in rd_keys.c).
 *
 * Keeping the words in one table means the layout tests can draw every
 * frame in both languages and catch a Chinese label that no longer fits.
 */
#include "render.h"

static const char *const strings[RD_S_COUNT_][CV_LANG_COUNT] = {
    [RD_S_PHASE] = {"phase", "阶段"},
    [RD_S_RANKS] = {"ranks", "个进程"},
    [RD_S_RANK1] = {"rank", "个进程"},
    [RD_S_BACKEND] = {"backend", "后端"},
    [RD_S_BUSIEST] = {"busiest port", "最忙端口"},
    [RD_S_TOTAL] = {"total", "累计"},
    [RD_S_MEASURED] = {"measured", "实测"},
    [RD_S_MODEL] = {"model", "模型"},
    [RD_S_LOCAL] = {"local step", "本地步骤"},
    [RD_S_IN] = {"send", "发送"},
    [RD_S_OUT] = {"recv", "接收"},
    [RD_S_TMP] = {"scratch", "暂存"},
    [RD_S_UNUSED] = {"unused", "未使用"},
    [RD_S_ROOT] = {"root", "根"},
    [RD_S_SWITCH] = {"switch", "交换机"},
    [RD_S_PLAYING] = {"playing", "播放中"},
    [RD_S_PAUSED] = {"paused", "已暂停"},
    [RD_S_SPEED] = {"speed", "速度"},
    [RD_S_LEGEND_COLOUR] = {"colour = rank whose input it holds", "颜色 = 数据来自哪个进程"},
    [RD_S_LEGEND_CHUNK] = {"b0+1 = chunk b of ranks 0 and 1 combined, c0-3 of ranks 0 to 3",
                           "b0+1 = 进程 0、1 的 b 块合并，c0-3 = 进程 0 到 3 的 c 块合并"},
    /* ops that sum nothing: a label names one rank's block, never a sum */
    [RD_S_LEGEND_GATHERED] = {"b1 = chunk b from rank 1, a0\xE2\x80\xA6" "c2 = chunks a0 to c2 side by side",
                              "b1 = 来自进程 1 的 b 块，a0\xE2\x80\xA6" "c2 = 从 a0 到 c2 的各块并排"},
    [RD_S_LEGEND_NUMBERED] = {"#52:0 = chunk 52 of rank 0 (past z, Z)", "#52:0 = 进程 0 的第 52 块（Z 之后）"},
    [RD_S_LEGEND_BLOCK] = {"1 block = 1 chunk (hover a block for each value)",
                           "1 个方块 = 1 个数据块（悬停查看每个值）"},
    [RD_S_LEGEND_DOT] = {"\xC2\xB7 = not written yet", "\xC2\xB7 = 尚未写入"},
    [RD_S_LEGEND_LL] = {"LL: every 8-byte store is 4 B of data + a 4 B flag (the disc ahead of each chunk): no fence, half the bandwidth",
                        "LL：每次 8 字节存储 = 4 B 数据 + 4 B 标志（每块前面的圆点）：无需栅栏，带宽减半"},
    [RD_S_LEGEND_LL128] = {"LL128: every 128-byte line is 120 B of data + 8 B of flags (the small disc ahead of each chunk)",
                           "LL128：每 128 字节一行 = 120 B 数据 + 8 B 标志（每块前面的小圆点）"},
    [RD_S_LEGEND_NET] = {"dashed = between nodes (network)", "虚线 = 跨节点（网络）"},
    [RD_S_VALUE] = {"value", "值"},
    /* a step timeline's legend (rd_timeline.c) */
    [RD_S_TL_COMPUTE] = {"compute", "计算"},
    [RD_S_TL_HIDDEN] = {"comm, hidden", "通信（已隐藏）"},
    [RD_S_TL_EXPOSED] = {"comm, exposed", "通信（暴露）"},
    [RD_S_TL_BUBBLE] = {"idle (bubble)", "空闲（气泡）"},
    [RD_S_TL_SLOTS] = {"slots", "个时隙"},
    [RD_S_VALUES] = {"values", "值"},
    [RD_S_FROM] = {"from ranks", "来自 rank"},
    [RD_S_INITIAL] = {"initial input", "初始输入"},
    [RD_S_NEVER] = {"not written yet", "尚未写入"},
    [RD_S_HELP_TITLE] = {"Keys and mouse", "按键与鼠标"},
    [RD_S_HELP_CLOSE] = {"H, F1, Esc or a click closes this help",
                         "按 H、F1、Esc 或点击鼠标关闭帮助"},
    [RD_S_JUST_HAPPENED] = {"Just happened", "刚刚发生"},
    [RD_S_NEXT] = {"Next", "下一步"},
    [RD_S_IN_FLIGHT] = {"In flight", "正在传输"},
    [RD_S_RESULT] = {"Result", "结果"},
    [RD_S_STEPS] = {"steps", "步"},
    [RD_S_BYTES_PER_RANK] = {"bytes sent per rank", "每进程发送字节"},
    [RD_S_START] = {"before the first step", "第一步之前"},
    [RD_S_DONE] = {"done", "完成"},
    [RD_S_NO_TRACE] = {"no trace to show", "没有可显示的轨迹"},
    [RD_S_NO_CJK] = {"Chinese font missing: install fonts-wqy-microhei",
                     "缺少中文字体：请安装 fonts-wqy-microhei"},
};

const char *rd_str(cv_lang lang, rd_string id)
{
    if ((unsigned)id >= RD_S_COUNT_)
        return "";
    if ((unsigned)lang >= CV_LANG_COUNT)
        lang = CV_LANG_EN;
    const char *s = strings[id][lang];
    return s ? s : strings[id][CV_LANG_EN];
}

/* The words of the structure drawn above a stage's cards: a double
 * tree's trees, a hypercube's round. False for another id. */
static bool strf_structure(bool zh, rd_string id, char *out, size_t outlen, long long a,
                           long long b)
{
    switch (id) {
    case RD_S_TREE_ROOT: /* a double tree's tree a, drawn as a tree */
        if (zh)
            snprintf(out, outlen, "树 %lld（根 %lld）", a, b);
        else
            snprintf(out, outlen, "tree %lld (root %lld)", a, b);
        return true;
    case RD_S_XOR: /* a hypercube round's pairs */
        if (zh)
            snprintf(out, outlen, "伙伴 = r XOR %lld", a);
        else
            snprintf(out, outlen, "partner = r XOR %lld", a);
        return true;
    case RD_S_DISTANCE: /* a Bruck or PAT round's */
        if (zh)
            snprintf(out, outlen, "距离 %lld", a);
        else
            snprintf(out, outlen, "distance %lld", a);
        return true;
    case RD_S_SHIFT: /* every rank sends a places on (a < 0: back); no '+',
                      * which a gathering stage never shows */
        if (zh)
            snprintf(out, outlen, "发往%s第 %lld 个", a < 0 ? "后方" : "前方", a < 0 ? -a : a);
        else
            snprintf(out, outlen, "to the rank %lld %s", a < 0 ? -a : a, a < 0 ? "behind" : "ahead");
        return true;
    case RD_S_ROUND_OF:
        if (zh)
            snprintf(out, outlen, "第 %lld 轮 / 共 %lld 轮", a, b);
        else
            snprintf(out, outlen, "round %lld of %lld", a, b);
        return true;
    case RD_S_ELEMS:
        if (zh)
            snprintf(out, outlen, "%lld 个元素", a);
        else
            snprintf(out, outlen, "%lld element%s", a, a == 1 ? "" : "s");
        return true;
    default:
        return false;
    }
}

void rd_strf(cv_lang lang, rd_string id, char *out, size_t outlen, long long a, long long b)
{
    /* Formats with numbers live here, not in the table, so that every
     * printf format stays a literal the compiler can check. */
    bool zh = lang == CV_LANG_ZH;
    if (strf_structure(zh, id, out, outlen, a, b))
        return;
    switch (id) {
    case RD_S_STEP_OF:
        if (zh)
            snprintf(out, outlen, "第 %lld 步 / 共 %lld 步", a, b);
        else
            snprintf(out, outlen, "step %lld of %lld", a, b);
        break;
    case RD_S_GPU:
        snprintf(out, outlen, "GPU %lld", a);
        break;
    case RD_S_NODES_OF:
        if (zh)
            snprintf(out, outlen, "%lld 个节点 \xC3\x97 %lld", a, b);
        else
            snprintf(out, outlen, "%lld nodes \xC3\x97 %lld", a, b);
        break;
    case RD_S_NODE_SWITCH: /* a switch a node: node a's */
        if (zh)
            snprintf(out, outlen, "节点 %lld 交换机", a);
        else
            snprintf(out, outlen, "node %lld switch", a);
        break;
    case RD_S_NODE:
        if (zh)
            snprintf(out, outlen, "节点 %lld", a);
        else
            snprintf(out, outlen, "node %lld", a);
        break;
    case RD_S_LENS:
        if (zh)
            snprintf(out, outlen, "GPU %lld 放大显示（点击任一卡片换成它）", a);
        else
            snprintf(out, outlen, "GPU %lld, large enough to read (click a card to show it here)", a);
        break;
    case RD_S_AGGREGATED:
        if (a == 1 && zh)
            snprintf(out, outlen, "1 格 = 1 个元素（悬停查看数值）");
        else if (a == 1)
            snprintf(out, outlen, "1 cell = 1 element (hover for values)");
        else if (zh)
            snprintf(out, outlen, "1 格 = %lld 个元素（悬停查看数值）", a);
        else
            snprintf(out, outlen, "1 cell = %lld elements (hover for values)", a);
        break;
    case RD_S_LAST_CHANGED:
        if (zh)
            snprintf(out, outlen, "最后一次修改：第 %lld 步", a);
        else
            snprintf(out, outlen, "last changed in step %lld", a);
        break;
    default:
        snprintf(out, outlen, "%s", rd_str(lang, id));
        break;
    }
}

/* The plans' phase names (cv_step.phase, English, as the plan generators
 * in collectives/ write them) in the other languages. A phase of pipelined
 * slices joins several with ", " or " + "; each part is looked up alone.
 * The NCCL names reduce-scatter and all-gather stay as the course's
 * Chinese text writes them. */
static const struct {
    const char *en, *zh;
} phases[] = {
    {"add the second child", "加上第二个子节点"}, {"all-gather", "all-gather"},
    {"broadcast", "广播"}, {"broadcast down", "向下广播"}, {"bruck", "Bruck"},
    {"copy", "复制"}, {"direct", "直接"}, {"down the chain", "沿链向下"},
    {"down the trees", "沿树下行"}, {"exchange", "交换"}, {"fold", "折叠"},
    {"from the network", "从网络返回"}, {"gather", "收集"}, {"halving", "减半"},
    {"heads reduce", "负责者规约"}, {"heads to peers", "负责者发给同节点 GPU"},
    {"heads to the network", "负责者发往网络"}, {"inter all-gather", "节点间 all-gather"},
    {"inter reduce-scatter", "节点间 reduce-scatter"}, {"intra all-gather", "节点内 all-gather"},
    {"intra reduce-scatter", "节点内 reduce-scatter"}, {"local reduce", "本地规约"},
    {"multicast", "组播"}, {"network to heads", "网络发回负责者"}, {"own block", "自己的块"},
    {"pairwise", "成对交换"}, {"pat", "PAT"}, {"pipeline", "流水线"},
    {"read every peer", "读取每个对端"}, {"reduce", "规约"}, {"reduce up", "向上规约"},
    {"reduce-scatter", "reduce-scatter"}, {"reducing load", "规约读"}, {"ring", "环"},
    {"rotate", "旋转"}, {"rotate back", "转回"}, {"scatter", "分发"},
    {"scatter to heads", "分发给负责者"}, {"send", "发送"}, {"send/recv", "发送/接收"},
    {"store", "写入组播地址"}, {"sum to heads", "和交给负责者"}, {"sum to owner", "和交给所有者"},
    {"switch reduce", "交换机规约"}, {"to and from the switch", "往返交换机"},
    {"to the network", "发往网络"}, {"to the owners", "交给所有者"},
    {"to the switch", "发往交换机"}, {"tree", "树"}, {"unfold", "展开"}, {"unpack", "解包"},
    {"up and down", "上行与下行"}, {"up the chain", "沿链向上"}, {"up the trees", "沿树上行"},
};

bool rd_phase_text(cv_lang lang, const char *phase, char *out, size_t outlen)
{
    if (!outlen)
        return false;
    out[0] = '\0';
    if (!phase)
        phase = "";
    if (lang != CV_LANG_ZH) {
        snprintf(out, outlen, "%s", phase);
        return true;
    }
    bool all = true;
    size_t used = 0;
    for (const char *p = phase; *p;) {
        /* the next part, up to ", " or " + " */
        const char *comma = strstr(p, ", "), *plus = strstr(p, " + ");
        const char *end = comma && (!plus || comma < plus) ? comma : plus;
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *zh = NULL;
        for (size_t i = 0; i < sizeof phases / sizeof phases[0] && !zh; i++)
            if (strlen(phases[i].en) == len && !strncmp(phases[i].en, p, len))
                zh = phases[i].zh;
        all &= zh != NULL;
        int w = zh ? snprintf(out + used, outlen - used, "%s", zh)
                   : snprintf(out + used, outlen - used, "%.*s", (int)len, p);
        used += w > 0 ? (size_t)w : 0;
        if (used >= outlen)
            return all;
        if (!end)
            break;
        bool is_comma = end == comma;
        w = snprintf(out + used, outlen - used, "%s", is_comma ? "、" : " + ");
        used += w > 0 ? (size_t)w : 0;
        if (used >= outlen)
            return all;
        p = end + (is_comma ? 2 : 3);
    }
    return all;
}
