/*
 * rd_card.c: one GPU card of the stage: its rows of cells with values,
 * chunk labels and the stripes of the ranks each element holds, chunk
 * blocks where single cells would not be legible, stripes only where even
 * those would not; and the cache of cell states that the card reads (an
 * unwritten cell shows a dot).
 */
#include "rd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ cell cache */

static uint64_t layout_sig(const rd_panel_layout *pl)
{
    uint64_t h = 1469598103934665603ull;
    h = (h ^ (uint64_t)(pl->lens_rank + 1)) * 1099511628211ull;
    for (int r = 0; r <= RD_LENS_CARD; r++)
        for (int b = 0; b < CV_BUF_COUNT && (r < pl->nparts || r == RD_LENS_CARD); b++) {
            h = (h ^ (uint64_t)pl->cards[r].cells[b]) * 1099511628211ull;
            h = (h ^ (uint64_t)pl->cards[r].group[b]) * 1099511628211ull;
            h = (h ^ (uint64_t)pl->cards[r].part[b]) * 1099511628211ull;
        }
    return h;
}

/* Fills the panel's cell cache for the state `shown` (already sought). */
void rd__update_cells(rd_ctx *c, int p, const rd_panel *panel, int shown)
{
    rd__cellcache *cc = &c->cache[p];
    const rd_panel_layout *pl = &c->L.panels[p];
    uint64_t sig = layout_sig(pl);
    if (cc->valid && cc->trace == panel->trace && cc->step == shown && cc->sig == sig)
        return;
    /* The ranks' cards, a switch's, then the lens card. */
    int ks[RD_LENS_CARD + 1], nk = 0;
    for (int r = 0; r < pl->nparts; r++)
        ks[nk++] = r;
    if (pl->lens_rank >= 0)
        ks[nk++] = RD_LENS_CARD;
    size_t total = 0;
    for (int i = 0; i < nk; i++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            cc->off[ks[i]][b] = total;
            total += (size_t)pl->cards[ks[i]].cells[b];
        }
    if (total > cc->cap) {
        free(cc->cells);
        cc->cells = cv_xmalloc(sizeof *cc->cells * total);
        cc->cap = total;
    }
    for (int i = 0; i < nk; i++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            int k = ks[i], r = k == RD_LENS_CARD ? pl->lens_rank : k;
            const rd_card_layout *cl = &pl->cards[k];
            if (cl->cells[b] == 0)
                continue;
            cv_bufview v = cv_state_buf(panel->state, r, (cv_buf)b);
            for (int j = 0; j < cl->cells[b]; j++) {
                rd__cell *cell = &cc->cells[cc->off[k][b] + (size_t)j];
                int64_t first, cnt;
                rd_cell_span(cl, b, j, &first, &cnt);
                int64_t end = first + cnt;
                if (end > v.count)
                    end = v.count;
                cell->first = first;
                cell->n = (int32_t)(end > first ? end - first : 0);
                cell->mask = 0;
                cell->last = -1;
                for (int64_t e = first; e < end; e++) {
                    if (v.masks)
                        cell->mask |= v.masks[e];
                    if (v.last_changed && v.last_changed[e] > cell->last)
                        cell->last = v.last_changed[e];
                }
            }
        }
    cc->trace = panel->trace;
    cc->step = shown;
    cc->sig = sig;
    cc->valid = true;
}

/* ---------------------------------------------------------------- stage */

static void draw_stripes(SDL_Renderer *r, const rd_theme *th, SDL_Rect s, uint64_t mask)
{
    int pop = __builtin_popcountll(mask);
    if (pop == 0 || s.w <= 0 || s.h <= 0)
        return;
    int segs = pop < s.w ? pop : s.w;
    int ranks[64], n = 0;
    for (int i = 0; i < 64; i++)
        if (mask >> i & 1)
            ranks[n++] = i;
    for (int k = 0; k < segs; k++) {
        int x0 = s.x + s.w * k / segs, x1 = s.x + s.w * (k + 1) / segs;
        rd__fill(r, (SDL_Rect){x0, s.y, x1 - x0, s.h}, rd_theme_rank_color(th, ranks[k * n / segs]));
    }
}

static bool in_regions(const rd_region *rg, int n, int rank, int b, const rd__cell *cell)
{
    for (int i = 0; i < n; i++)
        if (rg[i].rank == rank && (int)rg[i].buf == b && rg[i].first < cell->first + cell->n &&
            cell->first < rg[i].first + rg[i].count)
            return true;
    return false;
}

/* "101 102 103 …": as many of a chunk's values as fit in w pixels. */
static void fit_values(rd_ctx *c, cv_dtype dtype, cv_bufview v, const rd__cell *cell, int px, int w,
                       char *out, size_t outlen)
{
    size_t len = 0;
    out[0] = '\0';
    for (int64_t i = cell->first; i < cell->first + cell->n && i < v.count; i++) {
        char val[48], next[256];
        rd_value_text(dtype, v.values, i, val, sizeof val);
        bool last = i + 1 == cell->first + cell->n;
        snprintf(next, sizeof next, "%s%s%s%s", out, len ? " " : "", val, last ? "" : " \xE2\x80\xA6");
        int tw = 0;
        rd_text_measure(c->text, next, px, &tw, NULL);
        if (tw > w && len > 0) {
            snprintf(out + len, outlen - len, " \xE2\x80\xA6");
            return;
        }
        len += (size_t)snprintf(out + len, outlen - len, "%s%s", len ? " " : "", val);
        if (len >= outlen)
            return;
    }
}

/* One card being drawn: where it is and what it shows. */
typedef struct {
    rd_ctx *c;
    const rd_frame *f;
    const rd_theme *th;
    const cv_spec *spec;
    const rd_card_layout *cl;
    const rd__cellcache *cc;
    int p, k, rank;
    int px, lpx; /* values' and labels' sizes */
    int lw, sh;  /* line width, stripes' height */
} card;

/* The card, its frame (thicker where highlighted or in the lens) and its
 * title beside the rank's colour. */
static void draw_frame_title(const card *d)
{
    rd_ctx *c = d->c;
    const rd_theme *th = d->th;
    const rd_card_layout *cl = d->cl;
    const rd_panel_layout *pl = &c->L.panels[d->p];
    bool lens = d->k == RD_LENS_CARD;
    bool hl = (d->rank < 64 && (d->f->hl_ranks >> d->rank & 1)) ||
              (!lens && d->rank == pl->lens_rank);
    rd__fill(c->r, cl->card, th->card);
    rd__frame(c->r, cl->card, hl ? d->lw * 2 : d->lw, hl ? th->accent : th->edge);
    rd__box(c, cl->card, 1, 0, NULL);
    if (cl->title.w <= 0)
        return;
    SDL_Rect sw = {cl->title.x, cl->title.y + cl->title.h / 4, cl->title.h / 2, cl->title.h / 2};
    char title[64];
    int tpx;
    bool square;
    SDL_Rect tb = rd__card_title(c->text, &c->L, d->f, d->p, d->k, title, sizeof title, &tpx,
                                 &square);
    if (square && d->rank < pl->nranks) /* a switch is no rank: no rank's colour */
        rd__fill(c->r, sw, rd_theme_rank_color(th, d->rank));
    rd__text(c, title, tpx, th->text, tb, RD_ALIGN_LEFT, 0);
}

/* Row b's name beside its first line, or above the row; a row without
 * cells says "unused" (a dash where the word does not fit). */
static void draw_row_name(const card *d, int b)
{
    static const rd_string labels[CV_BUF_COUNT] = {RD_S_IN, RD_S_OUT, RD_S_TMP};
    rd_ctx *c = d->c;
    const rd_card_layout *cl = d->cl;
    int px = d->px;
    SDL_Color dim = d->th->dim;
    if (cl->label[b].w > 0) {
        SDL_Rect lb = cl->label[b];
        int first_line = cl->cells[b] > 0 ? rd_cell_rect(cl, b, 0).h : lb.h;
        if (lb.x + lb.w <= cl->row[b].x && first_line > 0)
            lb.h = first_line;
        if (lb.h >= px * 9 / 10) /* a very short or narrow row goes unnamed */
            rd__text(c, rd_str(d->f->lang, labels[b]), px * 9 / 10, dim, lb,
                     RD_ALIGN_LEFT | RD_ALIGN_FIT, 0);
    }
    if (cl->cells[b] > 0 || cl->row[b].w <= 0)
        return;
    SDL_Rect done = rd__text(c, rd_str(d->f->lang, RD_S_UNUSED), px * 9 / 10, dim, cl->row[b],
                             RD_ALIGN_LEFT | RD_ALIGN_FIT, 0);
    if (done.w == 0) /* a dash where the word does not fit */
        rd__text(c, "\xE2\x80\x93", px * 9 / 10, dim, cl->row[b], RD_ALIGN_LEFT | RD_ALIGN_FIT, 0);
}

/* A chunk block's words in `in`: its label, then as many values as fit. */
static void draw_block(const card *d, cv_bufview v, const rd__cell *cell, SDL_Rect in,
                       const char *lab)
{
    rd_ctx *c = d->c;
    int px = d->px;
    int bpx = px * 4 / 5 > 7 ? px * 4 / 5 : 7;
    int lh = (int)(bpx * 1.25f), vh = (int)(px * 1.3f);
    int top = in.y + (in.h - lh - vh) / 2;
    rd__text(c, lab[0] ? lab : "\xC2\xB7", bpx, d->th->dim, rd__rect(in.x, top, in.w, lh),
             RD_ALIGN_CENTER, 0);
    char vals[256];
    if (cell->mask && v.values)
        fit_values(c, d->spec->dtype, v, cell, px, in.w - 4, vals, sizeof vals);
    else
        snprintf(vals, sizeof vals, "\xC2\xB7");
    rd__text(c, vals, px, cell->mask ? d->th->text : d->th->dim, rd__rect(in.x, top + lh, in.w, vh),
             RD_ALIGN_CENTER, 0);
}

/* A cell's words in `in`: its value (a dot while nothing has written it,
 * not a dim 0 that reads like a real zero), its label under it. A partial
 * sum keeps its ranks ("c0+2+3"): smaller type down to a legible size
 * (larger on a projector) before the letter alone, and a gap so
 * neighbours do not touch. */
static void draw_value(const card *d, cv_bufview v, const rd__cell *cell, SDL_Rect in, char *lab)
{
    rd_ctx *c = d->c;
    const rd_theme *th = d->th;
    int px = d->px, lpx = d->lpx;
    char val[48];
    if (cell->n == 1 && cell->mask && v.values)
        rd_value_text(d->spec->dtype, v.values, cell->first, val, sizeof val);
    else
        snprintf(val, sizeof val, "\xC2\xB7");
    bool two = lpx > 0 && in.h >= px * 1.25f + lpx * 1.2f;
    int vh = two ? (int)(in.h - lpx * 1.25f) : in.h;
    rd__text(c, val, px, cell->mask ? th->text : th->dim, rd__rect(in.x, in.y, in.w, vh),
             RD_ALIGN_CENTER, 0);
    if (!two || !lab[0])
        return;
    int gap = (int)fmaxf(2, 2 * c->L.ui);
    SDL_Rect lb = {in.x + gap, in.y + vh - lpx / 5, in.w - 2 * gap, in.h - vh + lpx / 5};
    int lmin = d->f->theme == RD_THEME_PROJECTOR ? 11 : 8, fpx = lpx, tw = 0;
    rd_text_measure(c->text, lab, fpx, &tw, NULL);
    while (tw > lb.w && fpx > lmin) {
        fpx--;
        rd_text_measure(c->text, lab, fpx, &tw, NULL);
    }
    SDL_Rect done = {0, 0, 0, 0};
    if (tw <= lb.w)
        done = rd__text(c, lab, fpx, th->dim, lb, RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
    if (done.w == 0) {
        /* Too long: the letter alone still says which chunk. */
        lab[lab[0] == '{' ? 0 : 1] = '\0';
        if (lab[0])
            rd__text(c, lab, lpx, th->dim, lb, RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
    }
}

/* Cell j of row b: its background (the rank it holds, a highlight), the
 * stripes of the ranks it holds, the arrival's outline, a pick's frame or
 * strike, and its words; stripes alone in a row too small for words. */
static void draw_cell(const card *d, int b, int j, cv_bufview v)
{
    rd_ctx *c = d->c;
    const rd_theme *th = d->th;
    const rd_frame *f = d->f;
    const rd__cell *cell = &d->cc->cells[d->cc->off[d->k][b] + (size_t)j];
    SDL_Rect cr = rd_cell_rect(d->cl, b, j);
    if (cr.w <= 0 || cr.h <= 0)
        return;
    int pop = __builtin_popcountll(cell->mask), sh = d->sh, lw = d->lw, rank = d->rank;
    SDL_Color bg = th->empty;
    if (pop == 1)
        bg = rd__mix(th->card, rd_theme_rank_color(th, __builtin_ctzll(cell->mask)), 0.30f);
    else if (pop > 1)
        bg = rd__mix(th->card, th->text, 0.10f);
    bool chunk_hl = d->p == 0 && in_regions(f->hl_regions, f->nhl_regions, rank, b, cell);
    bool picked = d->p == 0 && in_regions(f->picks, f->npicks, rank, b, cell);
    bool wrong = d->p == 0 && in_regions(f->wrong, f->nwrong, rank, b, cell);
    if (chunk_hl)
        bg = rd__mix(bg, th->accent, 0.35f);
    if (d->cl->mode[b] == RD_ROW_STRIPES || cr.h < sh + 4) {
        rd__fill(c->r, cr, chunk_hl || picked ? th->accent : th->empty);
        draw_stripes(c->r, th, cr, cell->mask);
        return;
    }
    rd__fill(c->r, cr, bg);
    draw_stripes(c->r, th, (SDL_Rect){cr.x, cr.y + cr.h - sh, cr.w, sh}, cell->mask);
    /* Cells the step just wrote get an outline: the arrival. */
    if (cell->last >= 0 && cell->last == d->cc->step - 1)
        rd__frame(c->r, cr, (int)fmaxf(1, lw * 0.7f), th->accent);
    if (picked)
        rd__frame(c->r, cr, (int)fmaxf(2, lw * 1.5f), wrong ? th->warn : th->text);
    if (wrong) /* a pick the step does not write: struck through */
        rd__line(c->r, (float)cr.x + 2, (float)(cr.y + cr.h - sh) - 2, (float)(cr.x + cr.w) - 2,
                 (float)cr.y + 2, fmaxf(2, lw * 1.2f), th->warn);
    SDL_Rect in = {cr.x, cr.y, cr.w, cr.h - sh};
    char lab[96];
    rd_chunk_label(d->spec, (cv_buf)b, rank, cell->first, cell->mask, lab, sizeof lab);
    if (d->cl->mode[b] == RD_ROW_CHUNKS)
        draw_block(d, v, cell, in, lab);
    else
        draw_value(d, v, cell, in, lab);
}

void rd__draw_card(rd_ctx *c, const rd_frame *f, int p, int k)
{
    const rd_panel *panel = &f->panels[p];
    const rd_panel_layout *pl = &c->L.panels[p];
    bool lens = k == RD_LENS_CARD;
    card d = {c,
              f,
              rd_theme_get(f->theme),
              &cv_trace_plan(panel->trace)->spec,
              &pl->cards[k],
              &c->cache[p],
              p,
              k,
              lens ? pl->lens_rank : k,
              lens ? pl->lens_px : pl->cell_px,
              lens ? pl->lens_label_px : pl->label_px,
              0,
              0};
    d.lw = (int)fmaxf(1, d.th->line * c->L.ui);
    d.sh = rd__stripe_h(d.px);
    draw_frame_title(&d);
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        if (d.cl->row[b].w <= 0 && d.cl->label[b].w <= 0)
            continue;
        draw_row_name(&d, b);
        if (d.cl->cells[b] == 0)
            continue;
        cv_bufview v = cv_state_buf(panel->state, d.rank, (cv_buf)b);
        for (int j = 0; j < d.cl->cells[b]; j++)
            draw_cell(&d, b, j, v);
    }
}
