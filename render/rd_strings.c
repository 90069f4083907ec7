/*
 * rd_strings.c: every word the renderer draws, in English and Chinese, and
 * the table of actions (key, button label, help line).
 *
 * Keeping the words in one table means the layout tests can draw every
 * frame in both languages and catch a Chinese label that no longer fits.
 */
#include "render.h"

static const char *const strings[RD_S_COUNT_][RD_LANG_COUNT] = {
    [RD_S_PHASE] = {"phase", "阶段"},
    [RD_S_RANKS] = {"ranks", "个进程"},
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
    [RD_S_PLAYING] = {"playing", "播放中"},
    [RD_S_PAUSED] = {"paused", "已暂停"},
    [RD_S_SPEED] = {"speed", "速度"},
    [RD_S_LEGEND_COLOUR] = {"colour = rank whose input it holds", "颜色 = 数据来自哪个进程"},
    [RD_S_LEGEND_CHUNK] = {"a0+a1 = chunk a of ranks 0 and 1, combined",
                           "a0+a1 = 进程 0 与 1 的 a 块合并"},
    [RD_S_VALUE] = {"value", "值"},
    [RD_S_FROM] = {"from ranks", "来自进程"},
    [RD_S_INITIAL] = {"initial input", "初始输入"},
    [RD_S_NEVER] = {"not written yet", "尚未写入"},
    [RD_S_HELP_TITLE] = {"Keys and mouse", "按键与鼠标"},
    [RD_S_HELP_CLOSE] = {"H, F1 or a click closes this help",
                         "按 H、F1 或点击鼠标关闭帮助"},
    [RD_S_THIS_STEP] = {"This step", "本步"},
    [RD_S_STEPS] = {"steps", "步"},
    [RD_S_BYTES_PER_RANK] = {"bytes sent per rank", "每进程发送字节"},
    [RD_S_START] = {"before the first step", "第一步之前"},
    [RD_S_DONE] = {"done", "完成"},
    [RD_S_NO_TRACE] = {"no trace to show", "没有可显示的轨迹"},
    [RD_S_NO_CJK] = {"Chinese font missing: install fonts-wqy-microhei",
                     "缺少中文字体：请安装 fonts-wqy-microhei"},
};

const char *rd_str(rd_lang lang, rd_string id)
{
    if ((unsigned)id >= RD_S_COUNT_)
        return "";
    if ((unsigned)lang >= RD_LANG_COUNT)
        lang = RD_LANG_EN;
    const char *s = strings[id][lang];
    return s ? s : strings[id][RD_LANG_EN];
}

void rd_strf(rd_lang lang, rd_string id, char *out, size_t outlen, long long a, long long b)
{
    /* Formats with numbers live here, not in the table, so that every
     * printf format stays a literal the compiler can check. */
    bool zh = lang == RD_LANG_ZH;
    switch (id) {
    case RD_S_STEP_OF:
        if (zh)
            snprintf(out, outlen, "第 %lld 步 / 共 %lld 步", a, b);
        else
            snprintf(out, outlen, "step %lld of %lld", a, b);
        break;
    case RD_S_AFTER_STEP:
        if (zh)
            snprintf(out, outlen, "第 %lld 步已完成 / 共 %lld 步", a, b);
        else
            snprintf(out, outlen, "after step %lld of %lld", a, b);
        break;
    case RD_S_GPU:
        snprintf(out, outlen, "GPU %lld", a);
        break;
    case RD_S_AGGREGATED:
        if (zh)
            snprintf(out, outlen, "1 格 = %lld 个元素", a);
        else
            snprintf(out, outlen, "1 cell = %lld elements", a);
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

typedef struct {
    const char *key;
    const char *label[RD_LANG_COUNT];
    const char *help[RD_LANG_COUNT];
} action_info;

static const action_info actions[RD_ACT_COUNT_] = {
    [RD_ACT_NONE] = {"", {"", ""}, {"", ""}},
    [RD_ACT_HOME] = {"Home", {"|<", "|<"}, {"go to the start", "回到开头"}},
    [RD_ACT_BACK] = {"Left", {"<", "<"}, {"one step back", "后退一步"}},
    [RD_ACT_PLAY] = {"Space", {"play", "播放"}, {"play or pause", "播放 / 暂停"}},
    [RD_ACT_FORWARD] = {"Right", {">", ">"}, {"one step forward", "前进一步"}},
    [RD_ACT_END] = {"End", {">|", ">|"}, {"go to the end", "跳到结尾"}},
    [RD_ACT_SLOWER] = {"-", {"slower", "减速"}, {"slower (down to 0.25x)", "减速（最低 0.25 倍）"}},
    [RD_ACT_FASTER] = {"+", {"faster", "加速"}, {"faster (up to 8x)", "加速（最高 8 倍）"}},
    [RD_ACT_OP] = {"O", {"op", "操作"}, {"next collective operation", "切换集合通信操作"}},
    [RD_ACT_ALGO] = {"A", {"algo", "算法"}, {"next algorithm", "切换算法"}},
    [RD_ACT_RANKS] = {"N", {"ranks", "进程数"}, {"rank count (2 to 16)", "切换进程数（2 到 16）"}},
    [RD_ACT_COUNT] = {"C", {"count", "元素数"}, {"element count", "切换元素个数"}},
    [RD_ACT_DTYPE] = {"D", {"dtype", "类型"}, {"data type", "切换数据类型"}},
    [RD_ACT_REDOP] = {"R", {"redop", "归约"}, {"reduction operator", "切换归约运算"}},
    [RD_ACT_BACKEND] = {"B", {"backend", "后端"}, {"backend: cpu or cuda", "切换后端：CPU 或 CUDA"}},
    [RD_ACT_COMPARE] = {"M", {"compare", "对比"}, {"compare two algorithms side by side",
                                                 "并排对比两种算法"}},
    [RD_ACT_THEME] = {"T", {"theme", "主题"}, {"theme: dark, light, projector",
                                             "主题：深色、浅色、投影"}},
    [RD_ACT_LANG] = {"L", {"中文", "English"}, {"language: English or Chinese",
                                               "语言：英文或中文"}},
    [RD_ACT_SHOT] = {"S", {"shot", "截图"}, {"save a screenshot (PNG)", "保存截图（PNG）"}},
    [RD_ACT_HELP] = {"H", {"help", "帮助"}, {"this help (also F1)", "显示本帮助（也可按 F1）"}},
    [RD_ACT_QUIT] = {"Q", {"quit", "退出"}, {"quit (also Esc)", "退出（也可按 Esc）"}},
};

const char *rd_action_key(rd_action a)
{
    return (unsigned)a < RD_ACT_COUNT_ ? actions[a].key : "";
}

const char *rd_action_label(rd_action a, rd_lang lang)
{
    if ((unsigned)a >= RD_ACT_COUNT_)
        return "";
    return actions[a].label[(unsigned)lang < RD_LANG_COUNT ? lang : RD_LANG_EN];
}

const char *rd_action_help(rd_action a, rd_lang lang)
{
    if ((unsigned)a >= RD_ACT_COUNT_)
        return "";
    return actions[a].help[(unsigned)lang < RD_LANG_COUNT ? lang : RD_LANG_EN];
}
