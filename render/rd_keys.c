/*
 * rd_keys.c: the keymap, one table for every key and button of the window.
 *
 * A row binds a key (with the modifiers it needs) to an action, names the
 * key for the help, gives the button's words when the action has a button,
 * and the help line. The app's input handling looks keys up here, the help
 * overlay lists the rows in order (a row without help adds its key to the
 * line above), the button bar and a lesson's navigation row are the rows
 * with a button, and a lesson's keys are the rows marked RD_KEYS_LESSON.
 * So adding a binding is one row, and it shows in the help at once.
 */
#include "render.h"

#define STAGE RD_KEYS_STAGE
#define LESSON RD_KEYS_LESSON
#define BAR RD_BUTTON_BAR
#define NAV RD_BUTTON_NAV
#define NOMOD RD_MOD_NONE
#define SHIFT RD_MOD_SHIFT
#define ANYMOD RD_MOD_ANY
#define NO_LABEL {NULL, NULL}
#define SAME {NULL, NULL}

/* Each line: key, modifiers, action, arg, name, button label, help, where,
 * button. The mouse's line has no key: its label names it in the help. */
/* clang-format off */
static const rd_key keymap[] = {
    {SDLK_HOME, NOMOD, RD_ACT_HOME, 0, "Home", {"|<", "|<"},
     {"go to the start", "回到开头"}, STAGE, BAR},
    {SDLK_LEFT, NOMOD, RD_ACT_BACK, 0, "\xE2\x86\x90", {"<", "<"},
     {"back to the state before the last step", "退回上一步之前的状态"}, STAGE, BAR},
    {SDLK_SPACE, NOMOD, RD_ACT_PLAY, 0, "Space", {"play", "播放"},
     {"play or pause", "播放 / 暂停"}, STAGE, BAR},
    {SDLK_RIGHT, NOMOD, RD_ACT_FORWARD, 0, "\xE2\x86\x92", {">", ">"},
     {"play the next step, then pause", "播放下一步，然后暂停"}, STAGE, BAR},
    {SDLK_END, NOMOD, RD_ACT_END, 0, "End", {">|", ">|"},
     {"go to the end", "跳到结尾"}, STAGE, BAR},
    {SDLK_MINUS, ANYMOD, RD_ACT_SLOWER, 0, "-", {"slower", "减速"},
     {"slower (down to 0.1x)", "减速（最低 0.1 倍）"}, STAGE, BAR},
    {SDLK_KP_MINUS, ANYMOD, RD_ACT_SLOWER, 0, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_PLUS, ANYMOD, RD_ACT_FASTER, 0, "+", {"faster", "加速"},
     {"faster (up to 8x)", "加速（最高 8 倍）"}, STAGE, BAR},
    {SDLK_EQUALS, ANYMOD, RD_ACT_FASTER, 0, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_KP_PLUS, ANYMOD, RD_ACT_FASTER, 0, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_o, NOMOD, RD_ACT_OP, 1, "O", {"op", "操作"},
     {"next collective (Shift: back)", "下一个集合通信操作（Shift：上一个）"}, STAGE, BAR},
    {SDLK_o, SHIFT, RD_ACT_OP, -1, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_a, NOMOD, RD_ACT_ALGO, 1, "A", {"algo", "算法"},
     {"next algorithm", "下一个算法"}, STAGE, BAR},
    {SDLK_a, SHIFT, RD_ACT_ALGO2, 1, "Shift+A", NO_LABEL,
     {"compare mode: the right side's algorithm", "对比模式：切换右侧的算法"}, STAGE, 0},
    {SDLK_n, NOMOD, RD_ACT_RANKS, 1, "N", {"ranks", "进程数"},
     {"rank count (Shift: fewer)", "进程数（Shift：减少）"}, STAGE, BAR},
    {SDLK_n, SHIFT, RD_ACT_RANKS, -1, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_c, NOMOD, RD_ACT_COUNT, 1, "C", {"count", "元素数"},
     {"element count (Shift: fewer)", "元素个数（Shift：减少）"}, STAGE, BAR},
    {SDLK_c, SHIFT, RD_ACT_COUNT, -1, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_d, NOMOD, RD_ACT_DTYPE, 1, "D", {"dtype", "类型"},
     {"data type (Shift: back)", "数据类型（Shift：上一个）"}, STAGE, BAR},
    {SDLK_d, SHIFT, RD_ACT_DTYPE, -1, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_r, NOMOD, RD_ACT_REDOP, 1, "R", {"redop", "规约"},
     {"reduction operator (Shift: back)", "规约运算（Shift：上一个）"}, STAGE, BAR},
    {SDLK_r, SHIFT, RD_ACT_REDOP, -1, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_b, NOMOD, RD_ACT_BACKEND, 0, "B", {"backend", "后端"},
     {"backend: cpu or cuda", "后端：CPU 或 CUDA"}, STAGE, BAR},
    {SDLK_m, NOMOD, RD_ACT_COMPARE, 0, "M", {"compare", "对比"},
     {"compare two algorithms side by side", "并排对比两种算法"}, STAGE, BAR},
    {SDLK_t, NOMOD, RD_ACT_THEME, 0, "T", {"theme", "主题"},
     {"theme: dark, light, projector", "主题：深色、浅色、投影"}, STAGE, BAR},
    {SDLK_l, NOMOD, RD_ACT_LANG, 0, "L", {"\xE4\xB8\xAD\xE6\x96\x87", "English"},
     {"language: English or Chinese", "语言：英文或中文"}, STAGE, BAR},
    {SDLK_s, NOMOD, RD_ACT_SHOT, 0, "S", {"shot", "截图"},
     {"save a screenshot (PNG)", "保存截图（PNG）"}, STAGE, BAR},
    {SDLK_h, NOMOD, RD_ACT_HELP, 0, "H", {"help", "帮助"},
     {"this help", "显示本帮助"}, STAGE, BAR},
    {SDLK_F1, ANYMOD, RD_ACT_HELP, 0, "F1", NO_LABEL, SAME, STAGE, 0},
    {SDLK_q, NOMOD, RD_ACT_QUIT, 0, "Q", {"quit", "退出"},
     {"quit", "退出"}, STAGE, BAR},
    {SDLK_k, NOMOD, RD_ACT_CHANNEL, 1, "K", NO_LABEL,
     {"an NCCL log's next channel: its ring and trees (Shift: back)",
      "NCCL 日志的下一个通道：它的环和树（Shift：上一个）"}, STAGE, 0},
    {SDLK_k, SHIFT, RD_ACT_CHANNEL, -1, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_p, NOMOD, RD_ACT_PANEL, 0, "P", NO_LABEL,
     {"hide or show the text panel (the stage takes its room)",
      "隐藏或显示文字面板（演示区占用它的位置）"}, STAGE, 0},
    {SDLK_F5, ANYMOD, RD_ACT_REPLAY, 0, "F5", NO_LABEL,
     {"play the last step again", "重播上一步"}, STAGE, 0},
    {SDLK_RIGHT, SHIFT, RD_ACT_REPLAY, 0, "Shift+\xE2\x86\x92", NO_LABEL, SAME, STAGE, 0},
    {SDLK_i, NOMOD, RD_ACT_INPUTS, 0, "I", NO_LABEL,
     {"inputs: index, random (a new draw each time), by rank, one NaN",
      "输入：按下标、随机（每次重新抽取）、按进程、含一个 NaN"}, STAGE, 0},
    {SDLK_e, NOMOD, RD_ACT_EDIT, 0, "E", NO_LABEL,
     {"edit an input: arrows or Tab pick the send cell, type a value, Enter runs again, "
      "Esc cancels (or click a send cell)",
      "编辑输入：方向键或 Tab 选发送格子，输入数值，Enter 重新运行，Esc 取消（也可点击发送格子）"},
     STAGE, 0},
    {SDLK_x, NOMOD, RD_ACT_POINTER, 0, "X", NO_LABEL,
     {"pointer: a large ring at the mouse for the class", "指示圈：在鼠标处画一个大圆圈，方便全班跟随"},
     STAGE, 0},
    {SDLK_F3, ANYMOD, RD_ACT_CARD, 0, "F3", NO_LABEL,
     {"reference card: every algorithm's rounds, bytes and time",
      "速查卡：每种算法的轮数、字节数与时间"}, STAGE, 0},
    {SDLK_F11, ANYMOD, RD_ACT_FULLSCREEN, 0, "F11", NO_LABEL,
     {"full screen (also --fullscreen)", "全屏（也可用 --fullscreen）"}, STAGE, 0},
    {SDLK_ESCAPE, ANYMOD, RD_ACT_CLOSE, 0, "Esc", NO_LABEL,
     {"close the help, the card or the menu; leave full screen",
      "关闭帮助、速查卡或菜单；退出全屏"}, STAGE, 0},
    {SDLK_UP, NOMOD, RD_ACT_SCROLL_UP, 0, "\xE2\x86\x91 \xE2\x86\x93", NO_LABEL,
     {"scroll the text (also the mouse wheel)", "滚动文字（也可用鼠标滚轮）"}, STAGE, 0},
    {SDLK_DOWN, NOMOD, RD_ACT_SCROLL_DOWN, 0, NULL, NO_LABEL, SAME, STAGE, 0},
    {SDLK_UNKNOWN, NOMOD, RD_ACT_NONE, 0, "mouse", {"mouse", "鼠标"},
     {"click or drag the timeline; hover a cell for its value; click a send cell to edit it",
      "点击或拖动时间轴；悬停在格子上查看数值；点击发送格子可编辑它"}, STAGE, 0},
    /* Lessons. */
    {SDLK_PAGEUP, ANYMOD, RD_ACT_PAGE_PREV, 0, "PgUp [",
     {"\xE2\x97\x80 Back", "\xE2\x86\x90 上一页"},
     {"previous page", "上一页"}, LESSON, NAV},
    {SDLK_LEFTBRACKET, NOMOD, RD_ACT_PAGE_PREV, 0, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_TAB, NOMOD, RD_ACT_MENU, 0, "Tab F2", {"Lessons", "课程"},
     {"the lesson menu", "课程菜单"}, LESSON, NAV},
    {SDLK_F2, ANYMOD, RD_ACT_MENU, 0, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_PAGEDOWN, ANYMOD, RD_ACT_PAGE_NEXT, 0, "PgDn ]",
     {"Next \xE2\x96\xB6", "下一页 \xE2\x86\x92"},
     {"next page; after the last, the next lesson", "下一页；最后一页之后进入下一课"}, LESSON,
     NAV},
    {SDLK_RIGHTBRACKET, NOMOD, RD_ACT_PAGE_NEXT, 0, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_1, NOMOD, RD_ACT_ANSWER, 0, "1-6", NO_LABEL,
     {"pick an answer", "选一个答案"}, LESSON, 0},
    {SDLK_2, NOMOD, RD_ACT_ANSWER, 1, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_3, NOMOD, RD_ACT_ANSWER, 2, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_4, NOMOD, RD_ACT_ANSWER, 3, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_5, NOMOD, RD_ACT_ANSWER, 4, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_6, NOMOD, RD_ACT_ANSWER, 5, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_KP_1, ANYMOD, RD_ACT_ANSWER, 0, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_KP_2, ANYMOD, RD_ACT_ANSWER, 1, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_KP_3, ANYMOD, RD_ACT_ANSWER, 2, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_KP_4, ANYMOD, RD_ACT_ANSWER, 3, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_KP_5, ANYMOD, RD_ACT_ANSWER, 4, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_KP_6, ANYMOD, RD_ACT_ANSWER, 5, NULL, NO_LABEL, SAME, LESSON, 0},
    {SDLK_RETURN, ANYMOD, RD_ACT_CHECK, 0, "Enter", NO_LABEL,
     {"check the answer", "检查答案"}, LESSON, 0},
    {SDLK_KP_ENTER, ANYMOD, RD_ACT_CHECK, 0, NULL, NO_LABEL, SAME, LESSON, 0},
};
/* clang-format on */

#define NKEYS ((int)(sizeof keymap / sizeof *keymap))

int rd_keymap(const rd_key **out)
{
    *out = keymap;
    return NKEYS;
}

const rd_key *rd_key_find(SDL_Keycode key, Uint16 mod, bool lesson)
{
    if (key == SDLK_UNKNOWN || (mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)))
        return NULL;
    bool shift = (mod & KMOD_SHIFT) != 0;
    for (int i = 0; i < NKEYS; i++) {
        const rd_key *k = &keymap[i];
        if (k->key != key || (!lesson && !(k->where & RD_KEYS_STAGE)))
            continue;
        if (k->mod == RD_MOD_ANY || (k->mod == RD_MOD_SHIFT) == shift)
            return k;
    }
    return NULL;
}

const rd_key *rd_key_of(rd_action a)
{
    for (int i = 0; i < NKEYS; i++)
        if (keymap[i].action == a && a != RD_ACT_NONE)
            return &keymap[i];
    return NULL;
}

const char *rd_button_label(rd_action a, cv_lang lang, bool playing)
{
    if ((unsigned)lang >= CV_LANG_COUNT)
        lang = CV_LANG_EN;
    if (a == RD_ACT_PLAY && playing)
        return lang == CV_LANG_ZH ? "暂停" : "pause";
    for (int i = 0; i < NKEYS; i++)
        if (keymap[i].action == a && keymap[i].button && keymap[i].label[lang])
            return keymap[i].label[lang];
    return "";
}
