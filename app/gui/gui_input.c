/*
 * gui_input.c: keys and mouse -> actions -> player and spec changes.
 *
 * Keys are looked up in the keymap (render/rd_keys.c), the one table the
 * help overlay and the buttons are drawn from, and keys and clicks both go
 * through gui_do, so there is one list of behaviours.  Shift reverses a
 * cycling key (Shift+O goes to the previous op); Shift+A cycles the second
 * algorithm in compare mode.  A click is tested against the frame as it is
 * now (gui__hit lays it out afresh), never against the last one drawn.  A
 * click on a send cell, or E, opens the value's field (gui_edit.c), which
 * then takes the keys until Enter or Esc.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cv_cuda.h"

static const int rank_choices[] = {2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 64};
static const int64_t count_choices[] = {1, 2, 4, 8, 12, 16, 32, 64, 256, 1024};
#define LEN(a) ((int)(sizeof(a) / sizeof *(a)))

int64_t gui_default_count(cv_op op, int ranks)
{
    switch (op) {
    case CV_OP_ALLGATHER:
    case CV_OP_GATHER:
    case CV_OP_REDUCESCATTER:
    case CV_OP_ALLTOALL:
    case CV_OP_SCATTER:
        return ranks <= 4 ? 2 : 1; /* per rank: a row holds ranks x count */
    case CV_OP_SENDRECV:
        return 4;
    default:
        return ranks <= 4 ? 2 * (int64_t)ranks : ranks; /* one element (two) per rank's chunk */
    }
}

cv_algo gui__other_algo(cv_op op, cv_algo not)
{
    cv_algo list[CV_ALGO_COUNT];
    int n = cv_op_algos(op, list);
    for (int i = 0; i < n; i++)
        if (list[i] != not)
            return list[i];
    return CV_ALGO_COUNT;
}

static int wrap(int i, int n) { return ((i % n) + n) % n; }

/* Tries candidate specs in order until one plans and runs. */
static void try_specs(gui *g, cv_spec *cands, int n)
{
    char err[CV_ERR_LEN];
    for (int i = 0; i < n; i++) {
        if (cands[i].root >= cands[i].ranks)
            cands[i].root = 0;
        if (cv_spec_check(&cands[i], CV_MAX_VISUAL_RANKS, err, sizeof err) != CV_OK)
            continue;
        if (gui_set_spec(g, &cands[i]) == CV_OK) {
            g->has_message = false;
            return;
        }
        return; /* a run failed: its banner says why, and the stage stays */
    }
    gui_message(g, g->lang == CV_LANG_ZH ? "没有可用的组合" : "no valid combination", 4);
}

static void cycle(gui *g, rd_action a, int dir)
{
    cv_spec cands[64];
    int n = 0;
    const cv_spec *s = &g->spec;
    switch (a) {
    case RD_ACT_OP:
        /* Each op with its default algorithm (a learner cycling ops sees
         * the rings), and the default count where the count was. */
        for (int k = 1; k <= CV_OP_COUNT && n < LEN(cands); k++) {
            cv_spec c = *s;
            c.op = (cv_op)wrap(s->op + dir * k, CV_OP_COUNT);
            cv_algo list[CV_ALGO_COUNT];
            cv_op_algos(c.op, list);
            c.algo = list[0];
            if (s->count == gui_default_count(s->op, s->ranks))
                c.count = gui_default_count(c.op, c.ranks);
            cands[n++] = c;
        }
        break;
    case RD_ACT_ALGO: {
        cv_algo list[CV_ALGO_COUNT];
        int na = cv_op_algos(s->op, list), cur = 0;
        for (int i = 0; i < na; i++)
            if (list[i] == s->algo)
                cur = i;
        for (int k = 1; k <= na; k++) {
            cands[n] = *s;
            cands[n++].algo = list[wrap(cur + dir * k, na)];
        }
        break;
    }
    case RD_ACT_RANKS: {
        int cur = -1;
        for (int i = 0; i < LEN(rank_choices); i++)
            if (rank_choices[i] == s->ranks)
                cur = i;
        if (cur < 0)
            cur = dir > 0 ? -1 : LEN(rank_choices);
        bool def = s->count == gui_default_count(s->op, s->ranks);
        for (int k = 1; k <= LEN(rank_choices); k++) {
            cands[n] = *s;
            cands[n].ranks = rank_choices[wrap(cur + dir * k, LEN(rank_choices))];
            if (s->topo) { /* other ranks than the NCCL log's: its ring and nodes go */
                cands[n].topo = NULL;
                cands[n].nodes = 1;
            }
            /* The default count follows the rank count; another stays. */
            if (def)
                cands[n].count = gui_default_count(s->op, cands[n].ranks);
            n++;
        }
        break;
    }
    case RD_ACT_COUNT: {
        int cur = -1;
        for (int i = 0; i < LEN(count_choices); i++)
            if (count_choices[i] == s->count)
                cur = i;
        if (cur < 0)
            cur = dir > 0 ? -1 : LEN(count_choices);
        for (int k = 1; k <= LEN(count_choices); k++) {
            cands[n] = *s;
            cands[n++].count = count_choices[wrap(cur + dir * k, LEN(count_choices))];
        }
        break;
    }
    case RD_ACT_DTYPE:
        for (int k = 1; k <= CV_DTYPE_COUNT; k++) {
            cands[n] = *s;
            cands[n++].dtype = (cv_dtype)wrap(s->dtype + dir * k, CV_DTYPE_COUNT);
        }
        break;
    case RD_ACT_REDOP:
        for (int k = 1; k <= CV_REDOP_COUNT; k++) {
            cands[n] = *s;
            cands[n++].redop = (cv_redop)wrap(s->redop + dir * k, CV_REDOP_COUNT);
        }
        break;
    default:
        return;
    }
    try_specs(g, cands, n);
}

static void cycle_second(gui *g, int dir)
{
    cv_algo list[CV_ALGO_COUNT];
    int na = cv_op_algos(g->spec.op, list), cur = 0;
    for (int i = 0; i < na; i++)
        if (list[i] == g->second)
            cur = i;
    for (int k = 1; k <= na; k++) {
        cv_algo a = list[wrap(cur + dir * k, na)];
        if (a != g->spec.algo) {
            gui_set_compare(g, true, a);
            return;
        }
    }
}

/* K: the NCCL log's next channel, its ring and trees on the stage. */
static void next_channel(gui *g, int dir)
{
    int ch;
    const ncclog_comm *c = cli_nccl_log(&ch, NULL, NULL);
    if (!c || !g->spec.topo) {
        gui_message(g, g->lang == CV_LANG_ZH ? "K 键用于从 NCCL 日志搭建的演示区（--nccl-log FILE）"
                                             : "K picks a channel of an NCCL log (--nccl-log FILE)",
                    4);
        return;
    }
    ch = wrap(ch + dir, c->nchannels);
    if (cli_nccl_set_channel(ch) != 0)
        return;
    cv_spec s = g->spec;
    if (gui_set_spec(g, &s) != CV_OK)
        return;
    char msg[160];
    snprintf(msg, sizeof msg, g->lang == CV_LANG_ZH ? "NCCL 日志：通道 %d / %d" : "NCCL log: channel %d of %d",
             ch, c->nchannels);
    gui_message(g, msg, 4);
}

static void next_backend(gui *g)
{
    const cv_backend *cuda = cv_cuda_backend();
    const cv_backend *cpu = cv_cpu_backend();
    if (g->backend != cpu) {
        gui_set_backend(g, cpu);
        return;
    }
    char err[CV_ERR_LEN] = "";
    if (!cuda || cuda->probe(err, sizeof err) != CV_OK) {
        char msg[CV_ERR_LEN + 64];
        snprintf(msg, sizeof msg, "cuda: %s", err[0] ? err : "unavailable");
        gui_message(g, msg, 4);
        return;
    }
    gui_set_backend(g, cuda);
}

int gui__screenshot(gui *g, char *out, size_t outlen)
{
    char err[CV_ERR_LEN];
    /* The notice of the last screenshot is not part of the next one. */
    g->shooting = true;
    gui_render(g);
    g->shooting = false;
    SDL_Surface *s = rd_read_pixels(g->ren);
    if (!s) {
        snprintf(out, outlen, "screenshot failed: %s", SDL_GetError());
        return CV_EINVAL;
    }
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
    const char *dir = g->shot_dir[0] ? g->shot_dir : ".";
    snprintf(out, outlen, "%s/collviz-%s-%03ld.png", dir, stamp, g->frames % 1000);
    int rc = rd_save_png(s, out, err, sizeof err);
    SDL_FreeSurface(s);
    if (rc != CV_OK)
        snprintf(out, outlen, "%s", err);
    else
        cli_wrote_file(out, CLI_FILE_USER);
    return rc;
}

static void toggle_fullscreen(gui *g)
{
    if (!g->win)
        return;
    g->fullscreen = !g->fullscreen;
    SDL_SetWindowFullscreen(g->win, g->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
}

void gui_do(gui *g, rd_action a, int arg)
{
    if (g->hooks.on_action && g->hooks.on_action(g->hooks.user, g, a, arg))
        return;
    int dir = arg < 0 ? -1 : 1;
    switch (a) {
    case RD_ACT_HOME:
        gui_seek(g, 0);
        break;
    case RD_ACT_END:
        gui_seek(g, g->ns);
        break;
    case RD_ACT_BACK:
        gui__step_back(g);
        break;
    case RD_ACT_FORWARD:
        gui__step_forward(g);
        break;
    case RD_ACT_PLAY:
        gui_play(g, !g->playing);
        break;
    case RD_ACT_SLOWER:
        if (g->speed_i > 0)
            g->speed_i--;
        break;
    case RD_ACT_FASTER:
        if (g->speed_i < gui_speed_count() - 1)
            g->speed_i++;
        break;
    case RD_ACT_OP:
    case RD_ACT_ALGO:
    case RD_ACT_RANKS:
    case RD_ACT_COUNT:
    case RD_ACT_DTYPE:
    case RD_ACT_REDOP:
        cycle(g, a, dir);
        break;
    case RD_ACT_CHANNEL:
        next_channel(g, dir);
        break;
    case RD_ACT_ALGO2:
        if (g->compare)
            cycle_second(g, dir);
        else
            cycle(g, RD_ACT_ALGO, -1);
        break;
    case RD_ACT_BACKEND:
        next_backend(g);
        break;
    case RD_ACT_COMPARE:
        gui_set_compare(g, !g->compare, g->second);
        break;
    case RD_ACT_THEME:
        g->theme = (rd_theme_id)((g->theme + 1) % rd_theme_count()); /* the files' themes too */
        break;
    case RD_ACT_LANG:
        gui_set_lang(g, g->lang == CV_LANG_EN ? CV_LANG_ZH : CV_LANG_EN);
        break;
    case RD_ACT_SHOT: {
        char path[1024];
        bool ok = gui__screenshot(g, path, sizeof path) == CV_OK;
        char msg[1100];
        snprintf(msg, sizeof msg, "%s%s", ok ? (g->lang == CV_LANG_ZH ? "已保存 " : "saved ") : "",
                 path);
        gui_message(g, msg, 3);
        g->message_shot = ok;
        break;
    }
    case RD_ACT_HELP:
        g->help = !g->help;
        break;
    case RD_ACT_REPLAY:
        if (g->t > 0) { /* back to the last step's start, then play it */
            gui__step_back(g);
            gui__step_forward(g);
        }
        break;
    case RD_ACT_INPUTS: {
        /* index -> random -> random (another draw) -> rank -> nan -> index:
         * random stays random for two presses, so a class sees two draws;
         * nan (one NaN at GPU 2) only where the dtype and redop allow it */
        static const char *const en[] = {"by rank", "by index", "random", "by index with one NaN"};
        static const char *const zh[] = {"按进程", "按下标", "随机", "按下标，其中一个是 NaN"};
        char why[CV_ERR_LEN];
        bool nan_ok = cv_init_check(&g->spec, CV_INIT_NAN, why, sizeof why) == CV_OK;
        cv_init next = g->init == CV_INIT_INDEX                        ? CV_INIT_RANDOM
                       : g->init == CV_INIT_RANDOM && !g->random_again ? CV_INIT_RANDOM
                       : g->init == CV_INIT_RANDOM                     ? CV_INIT_RANK
                       : g->init == CV_INIT_RANK && nan_ok             ? CV_INIT_NAN
                                                                       : CV_INIT_INDEX;
        g->random_again = g->init == CV_INIT_RANDOM && next == CV_INIT_RANDOM;
        bool had_file = g->inputs != NULL;
        bool had_edit = had_file && g->inputs == (const void *const *)g->edit_inputs;
        if (gui_set_run(g, &g->spec, g->backend, next, g->seed + (next == CV_INIT_RANDOM)) ==
            CV_OK) {
            bool zhl = g->lang == CV_LANG_ZH;
            char msg[200];
            size_t n = (size_t)snprintf(msg, sizeof msg, zhl ? "输入：%s" : "inputs: %s",
                                        zhl ? zh[next] : en[next]);
            if (next == CV_INIT_RANDOM)
                n += (size_t)snprintf(msg + n, sizeof msg - n, zhl ? "，种子 %llu" : ", seed %llu",
                                      (unsigned long long)g->seed);
            if (next == CV_INIT_NAN)
                n += (size_t)snprintf(msg + n, sizeof msg - n,
                                      zhl ? "（GPU %d 的第 0 个元素）" : " (GPU %d's element 0)",
                                      cv_init_nan_rank(&g->spec));
            if (had_file && n < sizeof msg)
                snprintf(msg + n, sizeof msg - n, "%s",
                         zhl ? (had_edit ? "（不再用编辑过的值）" : "（不再用 --input 的值）")
                             : had_edit ? " (the edited values are set aside)"
                                        : " (the --input values are set aside)");
            gui_message(g, msg, 3);
        }
        break;
    }
    case RD_ACT_EDIT:
        gui__edit_start(g);
        break;
    case RD_ACT_POINTER:
        g->pointer = !g->pointer;
        break;
    case RD_ACT_CARD:
        g->card_open = !g->card_open;
        g->help = false;
        break;
    case RD_ACT_QUIT:
        g->quit = true;
        break;
    case RD_ACT_PANEL:
        g->narration = !g->narration;
        break;
    case RD_ACT_FULLSCREEN:
        toggle_fullscreen(g);
        break;
    case RD_ACT_CLOSE:
        /* Esc closes what is open over the stage; it never quits (Q does). */
        if (g->help)
            g->help = false;
        else if (g->card_open)
            g->card_open = false;
        else if (g->fullscreen)
            toggle_fullscreen(g);
        else if (g->edit_sel)
            gui_edit_cancel(g); /* the last edited cell's frame */
        break;
    case RD_ACT_SCROLL_UP:
    case RD_ACT_SCROLL_DOWN:
        /* A lesson's text can be longer than the panel. */
        gui_scroll_narration(g, a == RD_ACT_SCROLL_UP ? -1 : 1);
        break;
    default:
        break;
    }
}

static void on_key(gui *g, const SDL_KeyboardEvent *k)
{
    const rd_key *key = rd_key_find(k->keysym.sym, k->keysym.mod, g->lesson);
    if (key && key->action != RD_ACT_NONE)
        gui_do(g, key->action, key->arg);
}

rd_hit gui__hit(gui *g, int x, int y)
{
    if (!g->hit_layout)
        g->hit_layout = cv_xmalloc(sizeof *g->hit_layout);
    rd_frame f;
    gui__frame(g, &f);
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(g->ren, &w, &h);
    rd_layout_compute(&f, w, h, rd_ctx_text(g->rd), g->hit_layout);
    return rd_hit_test(g->hit_layout, (int)(x * gui_dpi(g)), (int)(y * gui_dpi(g)));
}

static void scrub(gui *g, int x, int y)
{
    rd_hit h = gui__hit(g, x, y);
    if (h.kind == RD_HIT_TIMELINE)
        gui_seek(g, h.t);
    else if (g->ns > 0) {
        /* Dragged off the bar: keep following the x position. */
        const rd_layout *L = g->hit_layout;
        if (L->timeline.w > 0) {
            double u = ((double)x * g->dpi - L->timeline.x) / L->timeline.w;
            gui_seek(g, fmin(fmax(u, 0), 1) * g->ns);
        }
    }
}

void gui_handle_event(gui *g, const SDL_Event *e)
{
    if (g->hooks.on_event && g->hooks.on_event(g->hooks.user, g, e))
        return;
    switch (e->type) {
    case SDL_QUIT:
        g->quit = true;
        break;
    case SDL_KEYDOWN:
        if (!gui__edit_key(g, &e->key)) /* an open field takes the keys */
            on_key(g, &e->key);
        break;
    case SDL_MOUSEMOTION:
        g->mouse_x = e->motion.x;
        g->mouse_y = e->motion.y;
        if (g->dragging)
            scrub(g, e->motion.x, e->motion.y);
        break;
    case SDL_MOUSEBUTTONDOWN: {
        if (e->button.button != SDL_BUTTON_LEFT)
            break;
        if (g->help || g->card_open) {
            g->help = g->card_open = false;
            break;
        }
        rd_hit h = gui__hit(g, e->button.x, e->button.y);
        if (g->editing && !(h.kind == RD_HIT_CELL && h.buf == CV_BUF_SEND))
            gui_edit_cancel(g); /* a click elsewhere closes the field */
        if (h.kind == RD_HIT_BUTTON) {
            gui_do(g, h.action, 0);
        } else if (h.kind == RD_HIT_TIMELINE) {
            g->dragging = true;
            gui_seek(g, h.t);
        } else if (h.kind == RD_HIT_CHOICE && g->hooks.on_choice) {
            g->hooks.on_choice(g->hooks.user, g, h.choice);
        } else if ((h.kind == RD_HIT_CELL || h.kind == RD_HIT_ROW) && g->hooks.on_cell) {
            /* Shift+click: the cell's whole chunk. */
            if (h.kind == RD_HIT_CELL && (SDL_GetModState() & KMOD_SHIFT) && g->panels[h.panel].plan) {
                rd_chunk_range(&g->panels[h.panel].plan->spec, h.buf, h.rank, h.first, &h.first,
                               &h.count);
                h.pick = RD_PICK_CHUNK;
            }
            g->hooks.on_cell(g->hooks.user, g, &h);
        } else if (gui__edit_click(g, &h)) {
            if (h.panel == 0)
                g->focus = h.rank; /* a send cell: its field opens, the lens shows its card */
        } else if ((h.kind == RD_HIT_CELL || h.kind == RD_HIT_CARD) && h.panel == 0) {
            g->focus = h.rank; /* the lens shows the card clicked */
        }
        break;
    }
    case SDL_MOUSEWHEEL: {
        int x = g->mouse_x, y = g->mouse_y;
        if (x < 0 || e->wheel.y == 0)
            break;
        rd_hit h = gui__hit(g, x, y);
        int dy = e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y;
        if (h.kind == RD_HIT_NARRATION || h.kind == RD_HIT_CHOICE ||
            (h.kind == RD_HIT_BUTTON && h.action >= RD_ACT_PAGE_PREV))
            gui_scroll_narration(g, -3 * dy);
        break;
    }
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT)
            g->dragging = false;
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_LEAVE)
            g->mouse_x = g->mouse_y = -1;
        break;
    case SDL_RENDER_TARGETS_RESET:
        rd_invalidate(g->rd);
        break;
    case SDL_RENDER_DEVICE_RESET:
        rd_invalidate(g->rd);
        rd_text_flush(rd_ctx_text(g->rd));
        break;
    default:
        break;
    }
}
