/*
 * rd_card.c: one GPU card of the stage: its rows of cells with values,
 * chunk labels and the stripes of the ranks each element holds, aggregated
 * where a row has more elements than cells fit; and the cache of cell
 * states that the card and the hit test read.
 */
#include "rd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ cell cache */

static uint64_t layout_sig(const rd_panel_layout *pl)
{
    uint64_t h = 1469598103934665603ull;
    for (int r = 0; r < pl->nparts; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            h = (h ^ (uint64_t)pl->cards[r].cells[b]) * 1099511628211ull;
            h = (h ^ (uint64_t)pl->cards[r].group[b]) * 1099511628211ull;
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
    size_t total = 0;
    for (int r = 0; r < pl->nparts; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            cc->off[r][b] = total;
            total += (size_t)pl->cards[r].cells[b];
        }
    if (total > cc->cap) {
        free(cc->cells);
        cc->cells = malloc(sizeof *cc->cells * total);
        if (!cc->cells) {
            fprintf(stderr, "collviz: out of memory\n");
            abort();
        }
        cc->cap = total;
    }
    for (int r = 0; r < pl->nparts; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            const rd_card_layout *cl = &pl->cards[r];
            if (cl->cells[b] == 0)
                continue;
            cv_bufview v = cv_state_buf(panel->state, r, (cv_buf)b);
            for (int j = 0; j < cl->cells[b]; j++) {
                rd__cell *cell = &cc->cells[cc->off[r][b] + (size_t)j];
                int64_t first = (int64_t)j * cl->group[b];
                int64_t end = first + cl->group[b];
                if (end > v.count)
                    end = v.count;
                cell->first = first;
                cell->n = (int32_t)(end > first ? end - first : 0);
                cell->mask = 0;
                cell->last = -1;
                for (int64_t i = first; i < end; i++) {
                    if (v.masks)
                        cell->mask |= v.masks[i];
                    if (v.last_changed && v.last_changed[i] > cell->last)
                        cell->last = v.last_changed[i];
                }
            }
        }
    cc->trace = panel->trace;
    cc->step = shown;
    cc->sig = sig;
    cc->valid = true;
}

/* ---------------------------------------------------------------- stage */

static SDL_Rect cell_rect(const rd_card_layout *cl, int b, int j)
{
    SDL_Rect row = cl->row[b];
    int n = cl->cells[b];
    int x0 = row.x + (int)((int64_t)row.w * j / n);
    int x1 = row.x + (int)((int64_t)row.w * (j + 1) / n);
    int gap = (x1 - x0) >= 6 ? 1 : 0;
    return (SDL_Rect){x0, row.y, x1 - x0 - gap, row.h};
}

/* Centre of the cells holding elements [off, off + count) of a row. */
void rd__region_centre(const rd_card_layout *cl, int b, int64_t off, int64_t count,
                          float *x, float *y)
{
    SDL_Rect row = cl->row[b];
    if (cl->count[b] <= 0 || row.w <= 0) {
        *x = cl->card.x + cl->card.w / 2.0f;
        *y = cl->card.y + cl->card.h / 2.0f;
        return;
    }
    double mid = off + count / 2.0;
    *x = (float)(row.x + row.w * mid / (double)cl->count[b]);
    *y = row.y + row.h / 2.0f;
}

/* Ranks as a learner reads them: "0+2+3", runs of three or more as
 * "0-3", so a ring's partial sum "c14-15+0-1" stays short. */
static size_t rank_list(uint64_t mask, char *out, size_t outlen)
{
    size_t len = 0;
    out[0] = '\0';
    for (int r = 0; r < 64 && len + 8 < outlen;) {
        if (!(mask >> r & 1)) {
            r++;
            continue;
        }
        int e = r;
        while (e + 1 < 64 && (mask >> (e + 1) & 1))
            e++;
        const char *sep = len ? "+" : "";
        if (e - r >= 2)
            len += (size_t)snprintf(out + len, outlen - len, "%s%d-%d", sep, r, e);
        else if (e == r + 1)
            len += (size_t)snprintf(out + len, outlen - len, "%s%d+%d", sep, r, e);
        else
            len += (size_t)snprintf(out + len, outlen - len, "%s%d", sep, r);
        r = e + 1;
    }
    return len;
}

void rd__chunk_label(const cv_spec *spec, cv_buf b, int rank, int64_t i, uint64_t mask, char *out,
                     size_t outlen)
{
    out[0] = '\0';
    if (!mask || outlen < 4)
        return;
    int chunk = rd__chunk_of(spec, b, rank, i);
    if (chunk < 0) {
        /* Scratch layouts are the algorithm's own: no chunk letter, just
         * the set of ranks. */
        char ranks[192];
        rank_list(mask, ranks, sizeof ranks);
        snprintf(out, outlen, "{%s}", ranks);
        return;
    }
    char letter[8];
    rd_chunk_name(chunk, letter, sizeof letter);
    size_t len = (size_t)snprintf(out, outlen, "%s", letter);
    if (len < outlen)
        rank_list(mask, out + len, outlen - len);
}

static void draw_stripes(SDL_Renderer *r, SDL_Rect s, uint64_t mask)
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
        rd__fill(r, (SDL_Rect){x0, s.y, x1 - x0, s.h}, rd_rank_color(ranks[k * n / segs]));
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

/* The one text size for the values of a row of cells: the largest, from
 * cell_px down, at which the row's longest value fits its narrowest cell
 * (cells differ by a pixel where the row does not divide evenly), or 0 to
 * show none. One size per row, so neighbouring cells never differ in size
 * or in whether they show their number. */
static int row_value_px(rd_ctx *c, const rd_card_layout *cl, int b, const rd__cell *cells,
                        cv_dtype dtype, const void *values, int cell_px)
{
    if (!values || cell_px < 6)
        return 0;
    char longest[32] = "", val[32];
    size_t len = 0;
    for (int j = 0; j < cl->cells[b]; j++)
        if (cells[j].n == 1) {
            cv_value_format(dtype, values, cells[j].first, val, sizeof val);
            if (strlen(val) > len) {
                len = strlen(val);
                memcpy(longest, val, len + 1);
            }
        }
    int narrow = cl->row[b].w / cl->cells[b];
    narrow -= narrow >= 6 ? 1 : 0; /* cell_rect's gap */
    for (int px = cell_px; len > 0 && px >= 7; px = px * 4 / 5) {
        int w = 0;
        rd_text_measure(c->text, longest, px, &w, NULL);
        if (w <= narrow)
            return px;
    }
    return 0;
}

void rd__draw_card(rd_ctx *c, const rd_frame *f, int p, int rank)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel *panel = &f->panels[p];
    const cv_plan *plan = cv_trace_plan(panel->trace);
    const cv_spec *spec = &plan->spec;
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_card_layout *cl = &pl->cards[rank];
    rd__cellcache *cc = &c->cache[p];
    SDL_Renderer *R = c->r;
    int lw = (int)fmaxf(1, th->line * c->L.ui);
    bool hl = rank < 64 && (f->hl_ranks >> rank & 1);
    rd__fill(R, cl->card, th->card);
    rd__frame(R, cl->card, hl ? lw * 2 : lw, hl ? th->accent : th->edge);
    rd__box(c, cl->card, 1, 0, NULL);
    int px = pl->cell_px;
    SDL_Color rc = rd_rank_color(rank);
    if (cl->title.w > 0) {
        SDL_Rect sw = {cl->title.x, cl->title.y + cl->title.h / 4, cl->title.h / 2, cl->title.h / 2};
        rd__fill(R, sw, rc);
        char title[64];
        if (rank >= pl->nranks) /* an in-network plan's switch */
            snprintf(title, sizeof title, "%s", rd_str(f->lang, RD_S_SWITCH));
        else
            rd_strf(f->lang, RD_S_GPU, title, sizeof title, rank, 0);
        if (cv_op_has_root(spec->op) && rank == spec->root) {
            size_t l = strlen(title);
            snprintf(title + l, sizeof title - l, " (%s)", rd_str(f->lang, RD_S_ROOT));
        }
        SDL_Rect tb = {sw.x + sw.w + px / 2, cl->title.y, cl->title.w - sw.w - px / 2, cl->title.h};
        rd__text(c, title, px, th->text, tb, RD_ALIGN_LEFT, 0);
    }
    static const rd_string labels[CV_BUF_COUNT] = {RD_S_IN, RD_S_OUT, RD_S_TMP};
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        if (cl->row[b].w <= 0 && cl->label[b].w <= 0)
            continue;
        if (cl->label[b].w > 0)
            rd__text(c, rd_str(f->lang, labels[b]), px * 9 / 10, th->dim, cl->label[b],
                     RD_ALIGN_LEFT, 0);
        if (cl->cells[b] == 0) {
            if (cl->row[b].w > 0)
                rd__text(c, rd_str(f->lang, RD_S_UNUSED), px * 9 / 10, th->dim, cl->row[b],
                         RD_ALIGN_LEFT, 0);
            continue;
        }
        cv_bufview v = cv_state_buf(panel->state, rank, (cv_buf)b);
        int cell_px = (int)fminf(px, cl->row[b].h * 0.42f);
        int vpx = row_value_px(c, cl, b, cc->cells + cc->off[rank][b], spec->dtype, v.values,
                               cell_px);
        for (int j = 0; j < cl->cells[b]; j++) {
            const rd__cell *cell = &cc->cells[cc->off[rank][b] + (size_t)j];
            SDL_Rect cr = cell_rect(cl, b, j);
            if (cr.w <= 0)
                continue;
            int pop = __builtin_popcountll(cell->mask);
            SDL_Color bg = th->empty;
            if (pop == 1)
                bg = rd__mix(th->card, rd_rank_color(__builtin_ctzll(cell->mask)), 0.30f);
            else if (pop > 1)
                bg = rd__mix(th->card, th->text, 0.10f);
            bool chunk_hl = p == 0 && in_regions(f->hl_regions, f->nhl_regions, rank, b, cell);
            bool picked = p == 0 && in_regions(f->picks, f->npicks, rank, b, cell);
            if (chunk_hl)
                bg = rd__mix(bg, th->accent, 0.35f);
            bool stripes_only = cr.h < 10 || cr.w < 5;
            if (stripes_only) {
                rd__fill(R, cr, chunk_hl || picked ? th->accent : th->empty);
                draw_stripes(R, cr, cell->mask);
            } else {
                rd__fill(R, cr, bg);
                int sh = (int)fmaxf(2, cr.h * 0.22f);
                draw_stripes(R, (SDL_Rect){cr.x, cr.y + cr.h - sh, cr.w, sh}, cell->mask);
                /* Cells the step just wrote get an outline: the arrival. */
                if (cell->last >= 0 && cell->last == cc->step - 1)
                    rd__frame(R, cr, (int)fmaxf(1, lw * 0.7f), th->accent);
                if (picked)
                    rd__frame(R, cr, (int)fmaxf(2, lw * 1.5f), th->text);
                if (cell->n == 1 && vpx > 0) {
                    char val[32];
                    cv_value_format(spec->dtype, v.values, cell->first, val, sizeof val);
                    SDL_Rect tb = {cr.x, cr.y, cr.w, cr.h - sh};
                    bool two = tb.h >= cell_px * 2.6f;
                    if (two)
                        tb.h = tb.h / 2 + cell_px / 4;
                    /* Values nothing has written yet (mask 0) are the
                     * buffer's initial zeros: shown, but dim. */
                    rd__text(c, val, vpx, cell->mask ? th->text : th->dim, tb, RD_ALIGN_CENTER, 0);
                    if (two) {
                        char lab[48];
                        rd__chunk_label(spec, (cv_buf)b, rank, cell->first, cell->mask, lab,
                                        sizeof lab);
                        SDL_Rect lb = {cr.x, tb.y + tb.h, cr.w, cr.h - sh - tb.h};
                        SDL_Rect done = rd__text(c, lab, cell_px * 4 / 5, th->dim, lb,
                                                 RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
                        if (done.w == 0 && lab[0]) {
                            /* Too long: the letter alone still says which chunk. */
                            lab[1] = lab[0] == '#' ? lab[1] : '\0';
                            rd__text(c, lab, cell_px * 4 / 5, th->dim, lb,
                                     RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
                        }
                    }
                }
            }
        }
    }
}

