/*
 * gui_input.c: keys and mouse -> actions -> player and spec changes.
 *
 * Every control exists twice, as a key and as a button, and both go
 * through gui_do, so the help overlay, the buttons and the tests all see
 * one list of behaviours.  Shift reverses a cycling key (Shift+O goes to the
 * previous op); Shift+A cycles the second algorithm in compare mode.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "cv_cuda.h"

static const int rank_choices[] = {2, 3, 4, 5, 6, 8, 12, 16};
static const int64_t count_choices[] = {4, 8, 12, 16, 32, 64, 256, 1024};
#define LEN(a) ((int)(sizeof(a) / sizeof *(a)))

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
    gui_message(g, g->lang == RD_LANG_ZH ? "没有可用的组合" : "no valid combination", 4);
}

static void cycle(gui *g, rd_action a, int dir)
{
    cv_spec cands[64];
    int n = 0;
    const cv_spec *s = &g->spec;
    switch (a) {
    case RD_ACT_OP:
        for (int k = 1; k <= CV_OP_COUNT && n < LEN(cands); k++) {
            cv_spec c = *s;
            c.op = (cv_op)wrap(s->op + dir * k, CV_OP_COUNT);
            if (!cv_op_has_algo(c.op, c.algo)) {
                cv_algo list[CV_ALGO_COUNT];
                cv_op_algos(c.op, list);
                c.algo = list[0];
            }
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
        for (int k = 1; k <= LEN(rank_choices); k++) {
            cands[n] = *s;
            cands[n++].ranks = rank_choices[wrap(cur + dir * k, LEN(rank_choices))];
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
    gui_render(g);
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
    return rc;
}

void gui_do(gui *g, rd_action a)
{
    int step = (int)floor(g->t);
    bool whole = g->t == step;
    switch (a) {
    case RD_ACT_HOME:
        gui_seek(g, 0);
        break;
    case RD_ACT_END:
        gui_seek(g, g->ns);
        break;
    case RD_ACT_BACK:
        gui_seek(g, whole ? step - 1 : step);
        break;
    case RD_ACT_FORWARD:
        gui_seek(g, step + 1);
        break;
    case RD_ACT_PLAY:
        gui_play(g, !g->playing);
        break;
    case RD_ACT_SLOWER:
        if (g->speed_i > 0)
            g->speed_i--;
        break;
    case RD_ACT_FASTER:
        if (g->speed_i < 5)
            g->speed_i++;
        break;
    case RD_ACT_OP:
    case RD_ACT_ALGO:
    case RD_ACT_RANKS:
    case RD_ACT_COUNT:
    case RD_ACT_DTYPE:
    case RD_ACT_REDOP:
        cycle(g, a, 1);
        break;
    case RD_ACT_BACKEND:
        next_backend(g);
        break;
    case RD_ACT_COMPARE:
        gui_set_compare(g, !g->compare, g->second);
        break;
    case RD_ACT_THEME:
        g->theme = (rd_theme_id)((g->theme + 1) % RD_THEME_COUNT);
        break;
    case RD_ACT_LANG:
        gui_set_lang(g, g->lang == RD_LANG_EN ? RD_LANG_ZH : RD_LANG_EN);
        break;
    case RD_ACT_SHOT: {
        char path[1024];
        bool ok = gui__screenshot(g, path, sizeof path) == CV_OK;
        char msg[1100];
        snprintf(msg, sizeof msg, "%s%s", ok ? (g->lang == RD_LANG_ZH ? "已保存 " : "saved ") : "",
                 path);
        gui_message(g, msg, 3);
        break;
    }
    case RD_ACT_HELP:
        g->help = !g->help;
        break;
    case RD_ACT_QUIT:
        g->quit = true;
        break;
    default:
        break;
    }
}

static rd_action key_action(SDL_Keycode k)
{
    switch (k) {
    case SDLK_SPACE: return RD_ACT_PLAY;
    case SDLK_LEFT: return RD_ACT_BACK;
    case SDLK_RIGHT: return RD_ACT_FORWARD;
    case SDLK_HOME: return RD_ACT_HOME;
    case SDLK_END: return RD_ACT_END;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS: return RD_ACT_FASTER;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: return RD_ACT_SLOWER;
    case SDLK_o: return RD_ACT_OP;
    case SDLK_a: return RD_ACT_ALGO;
    case SDLK_n: return RD_ACT_RANKS;
    case SDLK_c: return RD_ACT_COUNT;
    case SDLK_d: return RD_ACT_DTYPE;
    case SDLK_r: return RD_ACT_REDOP;
    case SDLK_b: return RD_ACT_BACKEND;
    case SDLK_m: return RD_ACT_COMPARE;
    case SDLK_t: return RD_ACT_THEME;
    case SDLK_l: return RD_ACT_LANG;
    case SDLK_s: return RD_ACT_SHOT;
    case SDLK_h:
    case SDLK_F1: return RD_ACT_HELP;
    case SDLK_q:
    case SDLK_ESCAPE: return RD_ACT_QUIT;
    default: return RD_ACT_NONE;
    }
}

static void on_key(gui *g, const SDL_KeyboardEvent *k)
{
    SDL_Keycode sym = k->keysym.sym;
    bool shift = (k->keysym.mod & KMOD_SHIFT) != 0;
    if (sym == SDLK_F11) {
        if (g->win) {
            g->fullscreen = !g->fullscreen;
            SDL_SetWindowFullscreen(g->win, g->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        }
        return;
    }
    if (sym == SDLK_ESCAPE && g->help) {
        g->help = false; /* Esc first closes the help */
        return;
    }
    if (sym == SDLK_UP || sym == SDLK_DOWN) {
        /* A lesson's text can be longer than the panel. */
        gui_scroll_narration(g, sym == SDLK_UP ? -1 : 1);
        return;
    }
    rd_action a = key_action(sym);
    if (shift && sym == SDLK_EQUALS)
        a = RD_ACT_FASTER;
    if (shift && a == RD_ACT_ALGO && g->compare) {
        cycle_second(g, 1);
        return;
    }
    if (shift && a >= RD_ACT_OP && a <= RD_ACT_REDOP) {
        cycle(g, a, -1);
        return;
    }
    if (a != RD_ACT_NONE)
        gui_do(g, a);
}

static void scrub(gui *g, int x, int y)
{
    rd_hit h = rd_hit_test(g->rd, (int)(x * g->dpi), (int)(y * g->dpi));
    if (h.kind == RD_HIT_TIMELINE)
        gui_seek(g, h.t);
    else if (g->ns > 0) {
        /* Dragged off the bar: keep following the x position. */
        const rd_layout *L = rd_last_layout(g->rd);
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
        if (g->help) {
            g->help = false;
            break;
        }
        rd_hit h = rd_hit_test(g->rd, (int)(e->button.x * g->dpi), (int)(e->button.y * g->dpi));
        if (h.kind == RD_HIT_BUTTON) {
            gui_do(g, h.action);
        } else if (h.kind == RD_HIT_TIMELINE) {
            g->dragging = true;
            gui_seek(g, h.t);
        } else if (h.kind == RD_HIT_CHOICE && g->hooks.on_choice) {
            g->hooks.on_choice(g->hooks.user, g, h.choice);
        } else if (h.kind == RD_HIT_NAV && g->hooks.on_nav) {
            g->hooks.on_nav(g->hooks.user, g, h.choice);
        } else if (h.kind == RD_HIT_CELL && g->hooks.on_cell) {
            g->hooks.on_cell(g->hooks.user, g, &h);
        }
        break;
    }
    case SDL_MOUSEWHEEL: {
        int x = g->mouse_x, y = g->mouse_y;
        if (x < 0 || e->wheel.y == 0)
            break;
        rd_hit h = rd_hit_test(g->rd, (int)(x * g->dpi), (int)(y * g->dpi));
        int dy = e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y;
        if (h.kind == RD_HIT_NARRATION || h.kind == RD_HIT_CHOICE || h.kind == RD_HIT_NAV)
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
