/*
 * rd_narration.c: draws the narration panel beside the stage from its
 * layout (rd_narration_layout.c): the panel, the navigation and answer
 * buttons in their states, the typed-answer field, each line in its
 * role's colour with `code` spans in the monospace face and the accent,
 * the bars beside a quiz's question and verdict, the rules between parts,
 * and the diagram a beat carries (rd_diagram.c).
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* Draws one line, its `code` spans in the monospace face and the accent
 * colour. */
static void draw_line(rd_ctx *c, const rd_line *l, SDL_Color col, SDL_Color accent)
{
    if (!strchr(l->text, '`') && !l->code) {
        rd__text(c, l->text, l->px, col, l->box, l->align, 0);
        return;
    }
    char seg[256];
    bool code = l->code;
    SDL_Rect box = l->box;
    int x = box.x;
    const char *p = l->text;
    while (*p && x < box.x + box.w) {
        size_t n = strcspn(p, "`");
        if (n > 0) {
            snprintf(seg, sizeof seg, "%.*s", (int)n, p);
            SDL_Rect r = rd__text(c, seg, code ? l->px | RD_TEXT_MONO : l->px,
                                  code ? accent : col, rd__rect(x, box.y, box.x + box.w - x, box.h),
                                  RD_ALIGN_LEFT, 0);
            x += r.w;
        }
        p += n;
        if (*p == '`') {
            code = !code;
            p++;
        }
    }
}

static SDL_Color bar_color(const rd_theme *th, int bar)
{
    return bar == 2 ? rd_rank_color(2) : bar == 3 ? th->warn : bar == 4 ? th->dim : th->accent;
}

static SDL_Color role_color(const rd_theme *th, int role)
{
    switch (role) {
    case RD_LINE_KICKER:
    case RD_LINE_HEAD:
    case RD_LINE_MORE:
    case RD_LINE_NUMBER:
        return th->accent;
    case RD_LINE_FOOTER:
    case RD_LINE_UNIT:
        return th->dim;
    default:
        return th->text;
    }
}

void rd__draw_narration(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_narration *nv = &f->narr;
    const rd_layout *L = &c->L;
    rd__fill(c->r, L->narration, th->panel);
    for (int i = 0; i < L->nnav; i++) {
        rd__fill(c->r, L->nav[i], th->card);
        rd__frame(c->r, L->nav[i], 1, th->edge);
    }
    for (int i = 0; i < RD_MAX_CHOICES && i < nv->nchoices; i++) {
        SDL_Rect b = L->choice[i];
        if (b.w <= 0)
            continue;
        int st = nv->choice_state[i] & 3;
        SDL_Color fill = st == RD_CHOICE_PICKED  ? rd__mix(th->card, th->accent, 0.35f)
                         : st == RD_CHOICE_RIGHT ? rd__mix(th->card, rd_rank_color(2), 0.5f)
                         : st == RD_CHOICE_WRONG ? rd__mix(th->card, th->warn, 0.5f)
                                                 : th->card;
        rd__fill(c->r, b, fill);
        rd__frame(c->r, b, st == RD_CHOICE_PICKED ? 2 : 1,
                  st == RD_CHOICE_PICKED ? th->accent : th->edge);
    }
    if (L->input.w > 0) {
        rd__fill(c->r, L->input, th->card);
        rd__frame(c->r, L->input, (int)fmaxf(1, th->line * L->ui), th->accent);
    }
    int barw = (int)fmaxf(2, 3 * L->ui);
    for (int i = 0; i < L->nlines; i++) {
        const rd_line *l = &L->lines[i];
        SDL_Rect col = l->role == RD_LINE_HEAD || l->role == RD_LINE_STEP
                           ? rd__rect(L->narration.x, 0, L->narration.w, 0)
                           : L->narr_text;
        if (l->rule_y > 0) {
            int inset = l->role == RD_LINE_HEAD ? l->box.x - col.x : 0;
            rd__fill(c->r, rd__rect(col.x + inset, l->rule_y, col.w - 2 * inset, 1), th->edge);
        }
        if (l->bar)
            rd__fill(c->r, rd__rect(L->narr_text.x, l->box.y, barw, l->box.h),
                     bar_color(th, l->bar));
        if (l->text[0])
            draw_line(c, l, role_color(th, l->role), th->accent);
    }
    if (L->narr_diagram.w > 0)
        rd__draw_diagram(c, f, nv->diagram, L->narr_diagram);
}
