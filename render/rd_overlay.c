/*
 * rd_overlay.c: what is drawn over the frame: the one-line message (a
 * saved screenshot, a backend that fell back), the tooltip for the cell
 * under the mouse (its value, which ranks' inputs it holds, the step that
 * last wrote it) and the help overlay listing every key.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* Whether box m would cover a cell the learner picked (panel 0): an edited
 * value's cell, under the banner that edits it, must stay in view. */
static bool covers_pick(const rd_ctx *c, const rd_frame *f, SDL_Rect m)
{
    const rd_panel_layout *pl = &c->L.panels[0];
    for (int k = 0; k < f->npicks && c->L.npanels > 0; k++) {
        const rd_region *pk = &f->picks[k];
        if (pk->rank < 0 || pk->rank >= pl->nparts)
            continue;
        const rd_card_layout *cl = &pl->cards[pk->rank];
        for (int j = 0; j < cl->cells[pk->buf]; j++) {
            int64_t first, count;
            rd_cell_span(cl, pk->buf, j, &first, &count);
            SDL_Rect cell = rd_cell_rect(cl, pk->buf, j);
            if (pk->first < first + count && first < pk->first + pk->count &&
                SDL_HasIntersection(&cell, &m))
                return true;
        }
    }
    return false;
}

void rd__draw_message(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect m = c->L.message;
    if (m.w <= 0 || m.h <= 0)
        return;
    /* Up to three lines, broken at spaces: a backend's reason is often
     * longer than the box, and its end (what to do) matters most. */
    enum { MAX_LINES = 3 };
    char lines[MAX_LINES][256];
    int n = 0, px = c->L.px_text, room = m.w - 16;
    const char *s = f->message;
    while (*s && n < MAX_LINES) {
        size_t len = strlen(s), fit = len;
        if (n < MAX_LINES - 1) {
            int w = 0;
            rd_text_measure(c->text, s, px, &w, NULL);
            if (w > room) {
                /* the longest prefix ending before a space that fits */
                fit = 0;
                for (size_t i = 1; i < len && i < sizeof lines[0]; i++) {
                    if (s[i] != ' ')
                        continue;
                    char head[256];
                    memcpy(head, s, i);
                    head[i] = '\0';
                    rd_text_measure(c->text, head, px, &w, NULL);
                    if (w > room)
                        break;
                    fit = i;
                }
                if (fit == 0)
                    fit = len; /* no space to break at: cut short below */
            }
        }
        if (fit >= sizeof lines[0])
            fit = sizeof lines[0] - 1;
        memcpy(lines[n], s, fit);
        lines[n][fit] = '\0';
        n++;
        s += fit;
        while (*s == ' ')
            s++;
    }
    int lh = (int)(px * 1.35);
    if (n > 1)
        m.h += (n - 1) * lh;
    if (covers_pick(c, f, m)) /* the stage's foot instead */
        m.y = c->L.stage.y + c->L.stage.h - m.h - (c->L.message.y - c->L.stage.y);
    rd__fill(c->r, m, th->panel);
    rd__frame(c->r, m, (int)fmaxf(2, th->line * c->L.ui), th->warn);
    int y = m.y + (m.h - n * lh) / 2;
    for (int i = 0; i < n; i++)
        rd__text(c, lines[i], px, th->text, rd__rect(m.x + 8, y + i * lh, room, lh), RD_ALIGN_CENTER,
                 1);
}

/* The values of elements first..first+count-1 as the cells write them
 * (12000, not 1.2e+04): all of them while they fit the line, else the
 * first ones and "…"; a dot for an element not written yet. */
static void values_line(const cv_spec *spec, cv_bufview v, int64_t first, int64_t count,
                        const char *head, char *out, size_t outlen)
{
    size_t len = (size_t)snprintf(out, outlen, "%s", head);
    for (int64_t i = first; i < first + count && i < v.count && len < outlen; i++) {
        char val[48];
        if (v.masks && !v.masks[i] && (!v.last_changed || v.last_changed[i] < 0))
            snprintf(val, sizeof val, "\xC2\xB7"); /* as the cell shows it: no real zero yet */
        else
            rd_value_text(spec->dtype, v.values, i, val, sizeof val);
        if (len + strlen(val) + 6 >= outlen || len > 64) {
            snprintf(out + len, outlen - len, " \xE2\x80\xA6");
            return;
        }
        len += (size_t)snprintf(out + len, outlen - len, " %s", val);
    }
}

/* "head 0-3, 5, 7": the ranks of mask (rd__rank_runs), " -" for none. */
static void ranks_line(uint64_t mask, const char *head, char *out, size_t outlen)
{
    size_t len = (size_t)snprintf(out, outlen, "%s ", head);
    if (!mask && len < outlen)
        snprintf(out + len, outlen - len, "-");
    else if (len < outlen)
        rd__rank_runs(mask, ", ", out + len, outlen - len);
}

/* The tooltip's lines for the cell h: where it is, its values (every
 * element a cell stands for, at any size), the ranks whose inputs it
 * holds, and the step that last wrote it with the NCCL primitives that
 * did. Returns how many. */
static int tooltip_lines(const rd_frame *f, const rd_hit *h, cv_bufview v, char (*lines)[160])
{
    static const rd_string names[CV_BUF_COUNT] = {RD_S_IN, RD_S_OUT, RD_S_TMP};
    const cv_plan *plan = cv_trace_plan(f->panels[h->panel].trace);
    const cv_spec *spec = &plan->spec;
    size_t ll = sizeof lines[0];
    int n = 0;
    char gpu[32];
    if (h->rank >= spec->ranks && plan->nswitch > 1) /* a switch a node */
        rd_strf(f->lang, RD_S_NODE_SWITCH, gpu, sizeof gpu, h->rank - spec->ranks, 0);
    else if (h->rank >= spec->ranks) /* an in-network plan's switch */
        snprintf(gpu, sizeof gpu, "%s", rd_str(f->lang, RD_S_SWITCH));
    else
        rd_strf(f->lang, RD_S_GPU, gpu, sizeof gpu, h->rank, 0);
    uint64_t mask = 0;
    int32_t last = -1;
    for (int64_t i = h->first; i < h->first + h->count && i < v.count; i++) {
        mask |= v.masks ? v.masks[i] : 0;
        if (v.last_changed && v.last_changed[i] > last)
            last = v.last_changed[i];
    }
    char head[48];
    if (h->count == 1)
        snprintf(lines[n++], ll, "%s  \xC2\xB7  %s[%lld]", gpu, rd_str(f->lang, names[h->buf]),
                 (long long)h->first);
    else /* half-open, as run and the lessons write a range */
        snprintf(lines[n++], ll, "%s  \xC2\xB7  %s[%lld..%lld)", gpu,
                 rd_str(f->lang, names[h->buf]), (long long)h->first,
                 (long long)(h->first + h->count));
    snprintf(head, sizeof head, "%s", rd_str(f->lang, h->count == 1 ? RD_S_VALUE : RD_S_VALUES));
    values_line(spec, v, h->first, h->count, head, lines[n++], ll);
    snprintf(head, sizeof head, "%s:", rd_str(f->lang, RD_S_FROM));
    ranks_line(mask, head, lines[n++], ll);
    if (last >= 0) { /* the step a learner counts: the round */
        rd_strf(f->lang, RD_S_LAST_CHANGED, lines[n++], ll, plan->steps[last].round, 0);
        /* the NCCL primitives that wrote it, to find in NCCL's source */
        const cv_transfer *w = cv_plan_writer(plan, last, h->rank, h->buf, h->first);
        char prims[64];
        if (w && cv_transfer_prims_text(w, prims, sizeof prims) > 0)
            snprintf(lines[n++], ll, "NCCL: %s", prims);
    } else
        snprintf(lines[n++], ll, "%s", rd_str(f->lang, mask ? RD_S_INITIAL : RD_S_NEVER));
    return n;
}

void rd__draw_tooltip(rd_ctx *c, const rd_frame *f)
{
    if (f->mouse_x < 0 || f->mouse_y < 0 || f->help)
        return;
    rd_hit h = rd_hit_test(&c->L, f->mouse_x, f->mouse_y);
    if (h.kind != RD_HIT_CELL)
        return;
    const rd_panel *panel = &f->panels[h.panel];
    if (!panel->trace || !panel->state)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    cv_bufview v = cv_state_buf(panel->state, h.rank, h.buf);
    if (h.first >= v.count || h.count <= 0)
        return;
    char lines[5][160];
    int n = tooltip_lines(f, &h, v, lines);
    int px = c->L.px_text, lh = (int)(px * 1.4), w = 0;
    for (int i = 0; i < n; i++) {
        int lw = 0;
        rd_text_measure(c->text, lines[i], px, &lw, NULL);
        if (lw > w)
            w = lw;
    }
    int pad = (int)(6 * c->L.ui);
    w += 2 * pad;
    if (w > c->L.w - 4)
        w = c->L.w - 4;
    int hh = n * lh + 2 * pad;
    /* Right of the pointer, unless that covers the narration (a quiz's
     * answers) or leaves the window: then left of it. */
    int x = f->mouse_x + 16, y = f->mouse_y + 16;
    int right_edge = c->L.w;
    if (c->L.narration.w > 0 && c->L.narration.x > f->mouse_x)
        right_edge = c->L.narration.x;
    if (x + w > right_edge)
        x = f->mouse_x - w - 8;
    if (y + hh > c->L.h)
        y = f->mouse_y - hh - 8;
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    SDL_Rect box = rd__rect(x, y, w, hh);
    rd__fill(c->r, box, th->panel);
    rd__frame(c->r, box, 1, th->accent);
    for (int i = 0; i < n; i++)
        rd__text(c, lines[i], px, i == 0 ? th->accent : th->text,
                 rd__rect(x + pad, y + pad + i * lh, w - 2 * pad, lh), RD_ALIGN_LEFT, 1);
}

/* The help's lines, from the keymap: a row with help words starts a line,
 * a row without adds its key's name to it. Lesson keys only in a lesson. */
#define HELP_ROWS 48
typedef struct {
    char keys[48];
    const char *help;
} help_line;

static int help_lines(const rd_frame *f, help_line *out)
{
    const rd_key *k;
    int nk = rd_keymap(&k), n = 0;
    for (int i = 0; i < nk; i++) {
        if (!(k[i].where & RD_KEYS_STAGE) && !f->lesson)
            continue;
        const char *help = k[i].help[f->lang] ? k[i].help[f->lang] : k[i].help[CV_LANG_EN];
        if (help && n < HELP_ROWS) {
            const char *name = k[i].key == SDLK_UNKNOWN && k[i].label[f->lang] ? k[i].label[f->lang]
                                                                               : k[i].name;
            snprintf(out[n].keys, sizeof out[n].keys, "%s", name ? name : "");
            out[n++].help = help;
        } else if (!help && n > 0 && k[i].name) {
            size_t len = strlen(out[n - 1].keys);
            snprintf(out[n - 1].keys + len, sizeof out[n - 1].keys - len, " %s", k[i].name);
        }
    }
    return n;
}

void rd__draw_help(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_layout *L = &c->L;
    help_line lines[HELP_ROWS];
    int rows = help_lines(f, lines);
    int pad = (int)(12 * L->ui);
    /* Columns as wide as their longest line, and the text made smaller
     * (to 0.7 of its size) until every line fits whole: a projector at
     * 1024x768 cut four of them short. */
    int px = L->px_text, lh = 0, cols = 1, per = rows, key_w = 0, text_w = 0;
    int floor_px = (int)(L->px_text * 0.7f);
    for (; px >= floor_px; px--) {
        lh = (int)(px * 1.45);
        cols = rows * lh > L->h - 2 * pad - 3 * lh ? 2 : 1;
        per = (rows + cols - 1) / cols;
        key_w = px * 4, text_w = px * 22;
        for (int i = 0; i < rows; i++) {
            int tw = 0;
            rd_text_measure(c->text, lines[i].keys, px, &tw, NULL);
            key_w = tw + px > key_w ? tw + px : key_w;
            rd_text_measure(c->text, lines[i].help, px, &tw, NULL);
            text_w = tw > text_w ? tw : text_w;
        }
        if (cols * (key_w + text_w + pad) + 2 * pad <= L->w && per * lh + 3 * lh + 2 * pad <= L->h)
            break;
    }
    px = px < floor_px ? floor_px : px; /* the smallest tried; what is left is cut with "…" */
    int col_w = (int)fminf((L->w - 2 * pad) / cols, key_w + text_w + pad);
    int w = col_w * cols + 2 * pad, h = per * lh + 3 * lh + 2 * pad;
    if (w > L->w)
        w = L->w;
    if (h > L->h)
        h = L->h;
    SDL_Rect box = rd__rect((L->w - w) / 2, (L->h - h) / 2, w, h);
    SDL_Color shade = th->bg;
    shade.a = 200;
    rd__fill(c->r, rd__rect(0, 0, L->w, L->h), shade);
    rd__fill(c->r, box, th->panel);
    rd__frame(c->r, box, (int)fmaxf(1, th->line * L->ui), th->accent);
    rd__text(c, rd_str(f->lang, RD_S_HELP_TITLE), L->px_big, th->accent,
             rd__rect(box.x + pad, box.y + pad, box.w - 2 * pad, (int)(L->px_big * 1.4)), RD_ALIGN_LEFT, 1);
    int top = box.y + pad + (int)(L->px_big * 1.4) + lh / 2;
    for (int i = 0; i < rows; i++) {
        int col = i / per, row = i % per;
        int x = box.x + pad + col * col_w, y = top + row * lh;
        if (y + lh > box.y + box.h - lh)
            break;
        rd__text(c, lines[i].keys, px, th->accent, rd__rect(x, y, key_w - 4, lh), RD_ALIGN_LEFT, 1);
        rd__text(c, lines[i].help, px, th->text, rd__rect(x + key_w, y, col_w - key_w - pad, lh),
                 RD_ALIGN_LEFT, 1);
    }
    rd__text(c, rd_str(f->lang, RD_S_HELP_CLOSE), L->px_small, th->dim,
             rd__rect(box.x + pad, box.y + box.h - pad - lh, box.w - 2 * pad, lh), RD_ALIGN_LEFT, 1);
}

/* The pointer (X): a thick ring in the accent colour round the mouse, large
 * enough for the back of a lecture room, with a dot at its centre. */
void rd__draw_pointer(rd_ctx *c, const rd_frame *f)
{
    if (!f->pointer || f->mouse_x < 0 || f->mouse_y < 0)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    float r = 34 * c->L.ui, w = fmaxf(3, 5 * c->L.ui), x = (float)f->mouse_x, y = (float)f->mouse_y;
    enum { SEG = 40 };
    for (int i = 0; i < SEG; i++) {
        float a0 = (float)(2 * M_PI * i / SEG), a1 = (float)(2 * M_PI * (i + 1) / SEG);
        rd__line(c->r, x + r * cosf(a0), y + r * sinf(a0), x + r * cosf(a1), y + r * sinf(a1), w,
                 th->accent);
    }
    rd__disc(c->r, x, y, w, th->accent);
}
