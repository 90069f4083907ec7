/*
 * rd_cells.c: geometry read off a laid-out card: where cell j of a row is
 * and which elements it holds, the cell an element is drawn in, the centre
 * of a run of cells (where a chunk in flight leaves and lands), where a
 * link leaves one card for another, and a card's title with the box it
 * fits in. Pure functions of the layout (and, for the title, measured
 * text): the drawing, the chunks in flight and the hit test all read the
 * cards through these.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* ----------------------------------------------------------------- cells */

SDL_Rect rd_cell_rect(const rd_card_layout *cl, int b, int j)
{
    SDL_Rect row = cl->row[b];
    int n = cl->cells[b], per = cl->per_line[b] > 0 ? cl->per_line[b] : 1;
    if (n <= 0 || row.w <= 0)
        return rd__rect(row.x, row.y, 0, 0);
    int lines = (n + per - 1) / per, line = j / per, k = j % per;
    int x0 = row.x + (int)((int64_t)row.w * k / per);
    int x1 = row.x + (int)((int64_t)row.w * (k + 1) / per);
    int y0 = row.y + row.h * line / lines, y1 = row.y + row.h * (line + 1) / lines;
    int gx = (x1 - x0) >= 6 ? 1 : 0, gy = lines > 1 && y1 - y0 >= 8 ? 1 : 0;
    return rd__rect(x0, y0, x1 - x0 - gx, y1 - y0 - gy);
}

void rd_cell_span(const rd_card_layout *cl, int b, int j, int64_t *first, int64_t *count)
{
    int64_t f, e;
    if (cl->part[b] > 0) {
        /* chunk j of the op's split of part elements over cells chunks:
         * element i belongs to chunk i * cells / part */
        int64_t n = cl->cells[b], c = cl->part[b];
        f = (j * c + n - 1) / n;
        e = ((j + 1) * c + n - 1) / n;
    } else {
        f = (int64_t)j * cl->group[b];
        e = f + cl->group[b];
    }
    if (e > cl->count[b])
        e = cl->count[b];
    *first = f;
    *count = e > f ? e - f : 0;
}

int rd_cell_of(const rd_card_layout *cl, int b, int64_t e)
{
    if (cl->cells[b] <= 0)
        return -1;
    int64_t j = cl->part[b] > 0 ? e * cl->cells[b] / cl->part[b]
                                : e / (cl->group[b] > 0 ? cl->group[b] : 1);
    return j < 0 ? 0 : j >= cl->cells[b] ? cl->cells[b] - 1 : (int)j;
}

/* Centre of the cells holding elements [off, off + count) of a row: where
 * a chunk leaves from and lands. On one line, the middle of its cells; on
 * several, the first cell's. */
void rd__region_centre(const rd_card_layout *cl, int b, int64_t off, int64_t count, float *x,
                       float *y)
{
    if (cl->count[b] <= 0 || cl->row[b].w <= 0 || cl->cells[b] <= 0) {
        *x = cl->card.x + cl->card.w / 2.0f;
        *y = cl->card.y + cl->card.h / 2.0f;
        return;
    }
    int j0 = rd_cell_of(cl, b, off), j1 = rd_cell_of(cl, b, off + (count > 0 ? count - 1 : 0));
    SDL_Rect a = rd_cell_rect(cl, b, j0), z = rd_cell_rect(cl, b, j1);
    if (a.y != z.y)
        z = a;
    *x = (a.x + z.x + z.w) / 2.0f;
    *y = a.y + a.h / 2.0f;
}

/* ----------------------------------------------------------------- links */

/* Where a link leaves the rectangle a towards b. */
static void edge_point(SDL_Rect a, float tx, float ty, float *x, float *y)
{
    float cx = a.x + a.w / 2.0f, cy = a.y + a.h / 2.0f;
    float dx = tx - cx, dy = ty - cy;
    float sx = dx != 0 ? (a.w / 2.0f) / fabsf(dx) : 1e9f;
    float sy = dy != 0 ? (a.h / 2.0f) / fabsf(dy) : 1e9f;
    float s = fminf(fminf(sx, sy), 1.0f);
    *x = cx + dx * s;
    *y = cy + dy * s;
}

/* Where the link from card s to card d leaves s and enters d, as drawn:
 * the two directions of a two-way link a little apart, so both arrows
 * show and chunks going each way stay on their own line. */
void rd__link_ends(const rd_layout *L, int p, int s, int d, bool both, float *x0, float *y0,
                   float *x1, float *y1)
{
    const rd_panel_layout *pl = &L->panels[p];
    SDL_Rect a = pl->cards[s].card, b = pl->cards[d].card;
    edge_point(a, b.x + b.w / 2.0f, b.y + b.h / 2.0f, x0, y0);
    edge_point(b, a.x + a.w / 2.0f, a.y + a.h / 2.0f, x1, y1);
    if (both && pl->nranks <= 16) {
        float dx = *x1 - *x0, dy = *y1 - *y0, len = sqrtf(dx * dx + dy * dy);
        if (len > 1) {
            float o = 3 * L->ui;
            *x0 += -dy / len * o, *y0 += dx / len * o;
            *x1 += -dy / len * o, *y1 += dx / len * o;
        }
    }
}

/* ----------------------------------------------------------------- title */

/* A card's title ("GPU 3 (root)", or its number alone where the card is
 * small) and the box it is drawn in, left of which is the colour square
 * (*square false: no room for it, the number takes its place); *tpx is
 * the title's size, smaller where even the number did not fit. The
 * landing's sum goes right of the title's text (rd_flight.c). */
SDL_Rect rd__card_title(rd_text *t, const rd_layout *L, const rd_frame *f, int p, int k,
                        char *title, size_t len, int *tpx, bool *square)
{
    const rd_panel_layout *pl = &L->panels[p];
    const rd_card_layout *cl = &pl->cards[k];
    const cv_spec *spec = &cv_trace_plan(f->panels[p].trace)->spec;
    bool lens = k == RD_LENS_CARD;
    int rank = lens ? pl->lens_rank : k;
    int px = lens ? pl->lens_px : pl->cell_px;
    int sq = cl->title.h / 2;
    if (rank >= pl->nranks) /* an in-network plan's switch */
        snprintf(title, len, "%s", rd_str(f->lang, RD_S_SWITCH));
    else
        rd_strf(f->lang, RD_S_GPU, title, len, rank, 0);
    if (cv_op_has_root(spec->op) && rank == spec->root) {
        size_t l = strlen(title);
        snprintf(title + l, len - l, " (%s)", rd_str(f->lang, RD_S_ROOT));
    }
    SDL_Rect tb = {cl->title.x + sq + px / 2, cl->title.y, cl->title.w - sq - px / 2, cl->title.h};
    int tw = 0;
    rd_text_measure(t, title, px, &tw, NULL);
    *tpx = px;
    *square = true;
    if (tw > tb.w && rank < pl->nranks) { /* a small card: its number says which GPU */
        snprintf(title, len, "%d", rank);
        rd_text_measure(t, title, px, &tw, NULL);
        if (tw > tb.w) { /* every card shows its rank: over the square, then smaller */
            *square = false;
            tb = cl->title;
            while (tw > tb.w && *tpx > 7) {
                (*tpx)--;
                rd_text_measure(t, title, *tpx, &tw, NULL);
            }
        }
    }
    return tb;
}
