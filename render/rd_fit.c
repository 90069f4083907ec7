/*
 * rd_fit.c: what fits inside a GPU card, so that every number on the stage
 * can be read.
 *
 * Inside a card each buffer's row wraps onto as many lines as its cells
 * need; a value is never drawn below a legible size (larger in the
 * projector theme). Where single cells cannot each get that size, the row
 * shows one block per chunk (its label and the values that fit), and only
 * where even that fails, colour stripes that the legend and the hover
 * explain. The measures a panel's cards share (text widths at each size,
 * each row's count and chunking) are taken once per panel into an
 * rd__stage; rd_stage.c tries card sizes and arrangements with them.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

static int value_line(int px) { return (int)(px * 1.3f); }
int rd__label_px(int px) { return px * 4 / 5 > 7 ? px * 4 / 5 : 7; }
static int label_line(int px) { return (int)(rd__label_px(px) * 1.25f); }

/* ---------------------------------------------------------------- a stage */

static void measure_stage(rd__stage *s, const rd_panel *p)
{
    static const rd_string names[CV_BUF_COUNT] = {RD_S_IN, RD_S_OUT, RD_S_TMP};
    const char *widest = p->widest && *p->widest ? p->widest : "00000";
    /* A label as long as a ring's partial sums get: "c0-15". */
    char lab[32];
    snprintf(lab, sizeof lab, "m0-%d", s->n - 1);
    for (int px = 7; px <= s->px_max && px < 64; px++) {
        rd_text_measure(s->t, widest, px, &s->value_w[px], NULL);
        int lw = 0;
        rd_text_measure(s->t, lab, rd__label_px(px), &lw, NULL);
        s->label_w[px] = lw;
        rd_text_measure(s->t, " \xE2\x80\xA6", px, &s->dots_w[px], NULL);
        int rw = 0;
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            if (b == CV_BUF_SCRATCH && s->plan->scratch_count <= 0)
                continue;
            int w = 0;
            rd_text_measure(s->t, rd_str(s->lang, names[b]), px * 9 / 10, &w, NULL);
            if (w > rw)
                rw = w;
        }
        s->rowlab_w[px] = rw + px / 2;
    }
}

void rd__stage_init(rd__stage *s, const rd_frame *f, const rd_panel *p, const rd_layout *L,
                    rd_text *text)
{
    const cv_plan *plan = cv_trace_plan(p->trace);
    memset(s, 0, sizeof *s);
    s->plan = plan;
    s->L = L;
    s->t = text;
    s->lang = f->lang;
    s->n = plan->spec.ranks < RD_LAYOUT_MAX_RANKS ? plan->spec.ranks : RD_LAYOUT_MAX_RANKS;
    s->nrows = plan->scratch_count > 0 ? 3 : 2;
    s->nparts = s->n + plan->nswitch;
    if (s->nparts > RD_LAYOUT_MAX_PARTS)
        s->nparts = RD_LAYOUT_MAX_PARTS;
    s->projector = rd_theme_get(f->theme)->text_scale > 1.2f;
    /* The smallest value a learner can read: 11 px on a desk at 1280x800,
     * larger on a larger window, and half again on a projector. */
    s->px_min = (int)lroundf(fmaxf(11.0f, 9.0f * L->ui) * (s->projector ? 1.45f : 1.0f));
    s->px_max = (int)lroundf(L->px_text * 1.15f);
    if (s->px_max > 62)
        s->px_max = 62;
    if (s->px_min > s->px_max)
        s->px_min = s->px_max;
    for (int r = 0; r < s->nparts; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            /* The plan's own count (the switch's scratch, a plan's scratch);
             * -1: a row the part does not have (a switch's send and recv,
             * no scratch), not drawn, unlike an empty one ("unused"). */
            bool sw = r >= s->n;
            int64_t cnt = cv_plan_buf_count(plan, (cv_buf)b,
                                            sw ? plan->spec.ranks + (r - s->n) : r);
            if (sw ? b != CV_BUF_SCRATCH : b == CV_BUF_SCRATCH && cnt <= 0)
                cnt = -1;
            s->count[r][b] = cnt;
            rd__chunk_blocks(&plan->spec, (cv_buf)b, cnt, &s->chunks[r][b], &s->part[r][b],
                             &s->cgroup[r][b]);
        }
    measure_stage(s, p);
}

/* ---------------------------------------------------------------- a card */

/* Each row of the card as cells, per_line to a line of W pixels broken
 * between chunks where it can: a whole number of chunks a line, or a whole
 * number of lines a chunk. */
static void rows_as_cells(const rd__stage *s, int rank, int W, int cell_w, int cell_h,
                          rd__card_fit *f)
{
    int px = f->px;
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        int64_t cnt = s->count[rank][b];
        f->mode[b] = RD_ROW_CELLS;
        if (cnt < 0)
            continue; /* no such row */
        if (cnt == 0) {
            f->lines[b] = 1, f->line_h[b] = value_line(px), f->cells[b] = 0;
            continue;
        }
        int per = W / cell_w;
        if (per < 1)
            per = 0;
        int64_t cs = 0; /* elements a chunk, where the chunks are all alike */
        if (s->part[rank][b] > 0)
            cs = s->part[rank][b] % s->chunks[rank][b] == 0 ? s->part[rank][b] / s->chunks[rank][b]
                                                            : 0;
        else if (s->chunks[rank][b] > 1)
            cs = s->cgroup[rank][b];
        if (cs > 1 && per < cnt) {
            if (per >= cs) {
                per -= (int)(per % cs);
            } else {
                int d = per;
                while (d > 1 && cs % d != 0)
                    d--;
                if (2 * d >= per)
                    per = d;
            }
        }
        f->per_line[b] = per < cnt ? per : (int)cnt;
        f->cells[b] = (int)cnt;
        f->lines[b] = per > 0 ? (int)((cnt + per - 1) / per) : 1 << 20;
        f->line_h[b] = cell_h;
    }
}

/* Row b one mode down: cells become chunk blocks (where the row has more
 * than one element a chunk), blocks become stripes. */
static void demote_row(const rd__stage *s, int rank, int b, int W, rd__card_fit *f)
{
    int px = f->px;
    int64_t cnt = s->count[rank][b];
    int nch = s->chunks[rank][b];
    if (f->mode[b] == RD_ROW_CELLS && nch > 0 && nch < cnt) {
        int chunk_w = (s->label_w[px] > s->value_w[px] + s->dots_w[px]
                           ? s->label_w[px]
                           : s->value_w[px] + s->dots_w[px]) +
                      px / 2;
        int per = W / chunk_w;
        f->mode[b] = RD_ROW_CHUNKS;
        f->cells[b] = nch;
        f->per_line[b] = per < nch ? per : nch;
        f->lines[b] = per > 0 ? (nch + per - 1) / per : 1 << 20;
        f->line_h[b] = value_line(px) + label_line(px) + rd__stripe_h(px) + 2;
    } else {
        /* Stripes: one line of cells at least 3 pixels wide. */
        int per = W / 3 > 0 ? W / 3 : 1;
        f->mode[b] = RD_ROW_STRIPES;
        f->cells[b] = per < cnt ? per : (int)cnt;
        f->per_line[b] = f->cells[b];
        f->lines[b] = 1;
        f->line_h[b] = px * 3 / 4 > 6 ? px * 3 / 4 : 6;
    }
}

/* Demotes the row that needs most height until the rows fit H pixels (or
 * eight rounds have passed); returns the height they took when it
 * stopped. */
static int fit_rows(const rd__stage *s, int rank, int W, int H, rd__card_fit *f)
{
    int used = 0;
    for (int round = 0; round < 8; round++) {
        used = 0;
        for (int b = 0; b < CV_BUF_COUNT; b++)
            if (s->count[rank][b] >= 0)
                used += f->lines[b] * f->line_h[b];
        if (used <= H)
            break;
        int worst = -1, most = -1;
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            if (s->count[rank][b] <= 0 || f->mode[b] == RD_ROW_STRIPES)
                continue;
            int hb = f->lines[b] * f->line_h[b];
            if (hb > most)
                most = hb, worst = b;
        }
        if (worst < 0)
            break;
        demote_row(s, rank, worst, W, f);
    }
    return used;
}

/* Tries a card of w x h at px: CELLS in every row if they fit, else the
 * biggest rows become CHUNKS, then STRIPES. Returns the fit's quality:
 * 3 every row legible cells with labels, 2 cells without labels, 1 some
 * chunk blocks, 0 stripes somewhere, -1 nothing fits at all. */
static int fit_card_at(const rd__stage *s, int rank, int w, int h, int px, bool labels, bool top,
                       rd__card_fit *f)
{
    memset(f, 0, sizeof *f);
    f->px = px;
    f->labels = labels;
    f->label_top = top;
    f->ipad = px * 3 / 10 > 2 ? px * 3 / 10 : 2;
    f->title_h = (int)(px * 1.35f);
    f->rowlab_w = top ? 0 : s->rowlab_w[px];
    f->rowlab_h = top ? (int)(px * 9 / 10 * 1.2f) : 0;
    f->gap = px / 5 > 1 ? px / 5 : 1;
    int W = w - 2 * f->ipad - f->rowlab_w;
    int H = h - 2 * f->ipad - f->title_h - f->gap * (s->nrows - 1) - f->rowlab_h * s->nrows;
    if (W < px * 2 || H < px)
        return -1;
    int cell_w = s->value_w[px] + (px * 2 / 3 > 5 ? px * 2 / 3 : 5); /* a gap between numbers */
    int cell_h = value_line(px) + rd__stripe_h(px) + (labels ? label_line(px) : 0) + 2;
    rows_as_cells(s, rank, W, cell_w, cell_h, f);
    int used = fit_rows(s, rank, W, H, f);
    f->need_h = used + 2 * f->ipad + f->title_h + f->gap * (s->nrows - 1) + f->rowlab_h * s->nrows;
    if (used > H)
        return -1;
    int q = labels ? 3 : 2;
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        if (s->count[rank][b] <= 0)
            continue;
        if (f->mode[b] == RD_ROW_CHUNKS && q > 1)
            q = 1;
        if (f->mode[b] == RD_ROW_STRIPES)
            q = 0;
    }
    return q;
}

/* The narrowest cell of a fit: what its numbers have between them. */
static int narrowest(const rd__card_fit *f, int w)
{
    int cw = 1 << 20;
    for (int b = 0; b < CV_BUF_COUNT; b++)
        if (f->cells[b] > 0 && f->per_line[b] > 0) {
            int c = (w - 2 * f->ipad - f->rowlab_w) / f->per_line[b];
            cw = c < cw ? c : cw;
        }
    return cw;
}

/* The better of the row names beside the rows or above them (narrow
 * cards): the higher quality, then the wider cells (numbers side by side
 * must not run together), then beside. */
int rd__fit_card(const rd__stage *s, int rank, int w, int h, int px, bool labels, rd__card_fit *f)
{
    rd__card_fit top;
    int q = fit_card_at(s, rank, w, h, px, labels, false, f);
    int qt = fit_card_at(s, rank, w, h, px, labels, true, &top);
    if (qt > q || (qt == q && qt >= 0 && narrowest(&top, w) > narrowest(f, w) * 6 / 5)) {
        *f = top;
        return qt;
    }
    return q;
}

/* The worst quality of the ranks' cards at px (a switch: best effort),
 * stopping early below stop. */
static int worst_card(const rd__stage *s, int w, int h, int px, bool labels, int stop)
{
    rd__card_fit f;
    int worst = 3;
    for (int r = 0; r < s->n && worst >= stop; r++) {
        int q = rd__fit_card(s, r, w, h, px, labels, &f);
        if (q < worst)
            worst = q;
    }
    return worst;
}

rd__panel_fit rd__fit_panel(const rd__stage *s, int w, int h)
{
    rd__panel_fit best = {-1, 0, false};
    /* Legible cells first: the largest size at which every card holds its
     * rows as cells, with labels if possible. */
    for (int px = s->px_max; px >= s->px_min; px--)
        for (int lab = 1; lab >= 0; lab--) {
            int worst = worst_card(s, w, h, px, lab, 2);
            if (worst >= 2)
                return (rd__panel_fit){worst, px, lab != 0};
        }
    /* Else at the legible minimum, chunk blocks or stripes where needed. */
    int worst = worst_card(s, w, h, s->px_min, false, -1);
    if (worst >= 0)
        return (rd__panel_fit){worst, s->px_min, false};
    /* Not even stripes at the legible size: smaller type, stripes. */
    for (int px = s->px_min - 1; px >= 7; px--) {
        worst = worst_card(s, w, h, px, false, -1);
        if (worst >= 0)
            return (rd__panel_fit){0, px, false};
    }
    return best;
}

/* Better: legible before illegible, then larger type, then more room. */
double rd__fit_score(rd__panel_fit f, int w, int h)
{
    if (f.quality < 0)
        return -1e9 + (double)w * h * 1e-6;
    return f.quality * 1000.0 + f.px * 10.0 + (double)w * h * 1e-6;
}

/* ---------------------------------------------------------------- insides */

/* Row b's cells: how many, on how many lines, and the elements each
 * holds. */
static void place_cells(const rd__stage *s, int rank, int b, const rd__card_fit *f,
                        rd_card_layout *cl)
{
    int64_t cnt = s->count[rank][b];
    if (cnt <= 0 || f->cells[b] <= 0)
        return; /* no room for the row at all (a tiny card) */
    cl->cells[b] = f->cells[b];
    cl->per_line[b] = f->per_line[b] > 0 ? f->per_line[b] : 1;
    if (f->mode[b] == RD_ROW_CHUNKS) {
        cl->part[b] = s->part[rank][b];
        cl->group[b] = s->cgroup[rank][b];
    } else {
        cl->group[b] = (cnt + f->cells[b] - 1) / f->cells[b];
        cl->cells[b] = (int)((cnt + cl->group[b] - 1) / cl->group[b]);
        if (cl->per_line[b] > cl->cells[b])
            cl->per_line[b] = cl->cells[b];
    }
}

void rd__place_insides(const rd__stage *s, int rank, SDL_Rect c, const rd__card_fit *f,
                       rd_card_layout *cl)
{
    cl->card = c;
    int ip = f->ipad;
    cl->title = rd__rect(c.x + ip, c.y + ip, c.w - 2 * ip, f->title_h);
    int top = c.y + ip + f->title_h;
    int avail = c.h - 2 * ip - f->title_h - f->gap * (s->nrows - 1) - f->rowlab_h * s->nrows;
    int need = 0, lines = 0;
    for (int b = 0; b < CV_BUF_COUNT; b++)
        if (s->count[rank][b] >= 0) {
            need += f->lines[b] * f->line_h[b];
            lines += f->lines[b];
        }
    int extra = avail - need > 0 ? avail - need : 0;
    int y = top;
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        cl->count[b] = s->count[rank][b] > 0 ? s->count[rank][b] : 0;
        cl->group[b] = 1;
        cl->part[b] = 0;
        cl->cells[b] = 0;
        cl->per_line[b] = 1;
        cl->mode[b] = (unsigned char)f->mode[b];
        if (s->count[rank][b] < 0) {
            cl->row[b] = cl->label[b] = rd__rect(c.x, c.y, 0, 0);
            continue;
        }
        /* The extra height goes to the lines, evenly. */
        int hb = f->lines[b] * f->line_h[b] + (lines > 0 ? extra * f->lines[b] / lines : 0);
        if (f->label_top) {
            cl->label[b] = rd__rect(c.x + ip, y, c.w - 2 * ip, f->rowlab_h);
            y += f->rowlab_h;
        } else {
            cl->label[b] = rd__rect(c.x + ip, y, f->rowlab_w, hb);
        }
        cl->row[b] = rd__rect(c.x + ip + f->rowlab_w, y, c.w - 2 * ip - f->rowlab_w, hb);
        y += hb + f->gap;
        place_cells(s, rank, b, f, cl);
    }
}
