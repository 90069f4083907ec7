/*
 * rd_narration_layout.c: where the narration panel's pieces go, for
 * rd_layout_compute: a lesson's kicker, title and body wrapped to the panel
 * (with `code` spans measured in the monospace face), the quiz's prompt,
 * answer buttons and verdict, what the step that just happened did and
 * what the next one will do, page navigation, the typed-answer field, and
 * which lines show when the text is longer than the panel (the rest
 * scrolls, and a marker says which way). Lines and rectangles only: the
 * panel is drawn by rd_narration.c from what this puts in the layout.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* The narration being laid out: the panel's inside, the text column, and
 * the lines staged for the column (in the scratch) before they are
 * placed. */
typedef struct {
    rd__scratch *sc;
    rd_text *t;
    const rd_frame *f;
    rd_layout *L;
    SDL_Rect in, col;
    int pad, px, lh, indent;
    int bottom;    /* the column ends above this */
    int n;         /* lines staged */
    int q;         /* the question's first line (may stay in view); n: none */
    bool q_rule;   /* a rule above the question */
    int head_rule; /* the first heading's line, with a rule above it; -1: none */
} narr;

/* ------------------------------------------------------------------ lines */

/* The width of a line as drawn: no backticks, code in the monospace face.
 * code: whether the line starts inside a span; returns whether it ends in one. */
static int line_width(rd_text *t, const char *text, int px, bool *code)
{
    char seg[256];
    int w = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "`");
        if (n > 0 && n < sizeof seg) {
            memcpy(seg, p, n);
            seg[n] = '\0';
            int sw = 0;
            rd_text_measure(t, seg, *code ? px | RD_TEXT_MONO : px, &sw, NULL);
            w += sw;
        }
        p += n;
        if (*p == '`') {
            *code = !*code;
            p++;
        }
    }
    return w;
}

/* Wraps s to w pixels into the scratch's wrap buffer; returns the lines.
 * The wrap measures backticks and one face, while code is drawn without
 * them in the monospace face: with code, the wrap narrows until every
 * line fits as drawn. */
static int wrap_block(rd__scratch *sc, rd_text *t, const char *s, int px, int w)
{
    char *buf = &sc->wrap[0][0];
    int k = rd_text_wrap(t, s, px, w, buf, RD__WRAP_LINES, RD__WRAP_LEN);
    if (!strchr(s, '`'))
        return k;
    for (int pct = 96; pct >= 60; pct -= 6) {
        k = rd_text_wrap(t, s, px, w * pct / 100, buf, RD__WRAP_LINES, RD__WRAP_LEN);
        bool fits = true, in_code = false;
        for (int i = 0; i < k && fits; i++) {
            if (!sc->wrap[i][0])
                in_code = false;
            fits = line_width(t, sc->wrap[i], px, &in_code) <= w;
        }
        if (fits)
            break;
    }
    return k;
}

/* Appends s wrapped to w pixels to the staged lines; paragraphs ('\n')
 * keep their empty line, as the panel always drew them. Returns the first
 * line's index. */
static int add_block(rd__scratch *sc, rd_text *t, int *n, const char *s, int px, int role, int w,
                     int bar, int gap)
{
    int first = *n;
    if (!s || !*s || w <= 8)
        return first;
    int k = wrap_block(sc, t, s, px, w);
    bool code = false;
    for (int i = 0; i < k && *n < RD__STAGED_LINES; i++) {
        rd__staged *l = &sc->staged[(*n)++];
        memset(&l->l, 0, sizeof l->l);
        memcpy(l->l.text, sc->wrap[i], sizeof l->l.text); /* both 256 bytes, NUL-terminated */
        l->l.px = px;
        l->h = (int)(px * 1.4);
        l->gap = i == 0 ? gap : 0;
        l->l.role = (unsigned char)role;
        l->l.bar = (unsigned char)bar;
        l->l.align = RD_ALIGN_LEFT;
        if (!sc->wrap[i][0])
            code = false; /* a span never crosses a paragraph */
        l->l.code = code;
        for (const char *q = sc->wrap[i]; *q; q++)
            if (*q == '`')
                code = !code;
    }
    return first;
}

/* Puts a finished line into the layout. */
static void emit(rd_layout *L, const rd_line *l)
{
    if (L->nlines < RD_NARR_LINES)
        L->lines[L->nlines++] = *l;
}

static void emit_text(rd_layout *L, const char *text, int px, int role, SDL_Rect box, int align)
{
    rd_line l;
    memset(&l, 0, sizeof l);
    snprintf(l.text, sizeof l.text, "%s", text ? text : "");
    l.px = px;
    l.role = (unsigned char)role;
    l.align = (unsigned char)align;
    l.box = box;
    emit(L, &l);
}

/* ----------------------------------------------------------- the bottom */

/* Bottom up: the diagram and the step timeline (unless they sit beside
 * the stage), the navigation row and the footer take their room. */
static void layout_nav(narr *nc)
{
    const rd_frame *f = nc->f;
    const rd_narration *nv = &f->narr;
    rd_layout *L = nc->L;
    SDL_Rect in = nc->in;
    if (nv->diagram && nv->diagram->nboxes > 0 && L->diagram.w <= 0) {
        int dh = in.h * 2 / 5;
        L->narr_diagram = rd__rect(in.x, in.y + in.h - dh, in.w, dh);
        nc->bottom = L->narr_diagram.y - nc->pad;
    }
    if (nv->steptl && nv->steptl->nblocks > 0 && L->steptl.w <= 0) {
        int nl = nv->steptl->nlanes < 1 ? 1 : nv->steptl->nlanes;
        int dh = (int)fminf(L->px_small * (4.4f + rd__steptl_lane_px(nl) * nl) + 8 * L->ui,
                            in.h * 2 / 5);
        L->narr_steptl = rd__rect(in.x, nc->bottom - dh, in.w, dh);
        nc->bottom = L->narr_steptl.y - nc->pad;
    }
    if (!f->lesson || !nv->nav)
        return;
    const rd_key *keys;
    int nk = rd_keymap(&keys);
    rd_action acts[RD_MAX_NAV];
    int nnav = 0;
    for (int i = 0; i < nk && nnav < RD_MAX_NAV; i++)
        if (keys[i].button == RD_BUTTON_NAV)
            acts[nnav++] = keys[i].action;
    int bh = (int)(nc->px * 1.9), gap = (int)fmaxf(2, 4 * L->ui);
    int bw = nnav ? (in.w - gap * (nnav - 1)) / nnav : 0;
    for (int i = 0; i < nnav; i++) {
        SDL_Rect b = rd__rect(in.x + i * (bw + gap), nc->bottom - bh, bw, bh);
        L->nav[i] = b;
        L->nav_action[i] = acts[i];
        emit_text(L, rd_button_label(acts[i], f->lang, false), L->px_small, RD_LINE_NAV,
                  rd__rect(b.x + 3, b.y, b.w - 6, b.h), RD_ALIGN_CENTER);
    }
    L->nnav = nnav;
    if (nnav)
        nc->bottom -= bh + nc->pad / 2;
}

static void layout_footer(narr *nc)
{
    const rd_narration *nv = &nc->f->narr;
    rd_layout *L = nc->L;
    if (!nv->footer || !*nv->footer)
        return;
    /* The hint wraps (a projector's large type): never cut. */
    char fl[3][256];
    int nf = rd_text_wrap(nc->t, nv->footer, L->px_small, nc->in.w, &fl[0][0], 3, 256);
    int fh = (int)(L->px_small * 1.5);
    nc->bottom -= nf * fh;
    for (int i = 0; i < nf; i++)
        emit_text(L, fl[i], L->px_small, RD_LINE_FOOTER,
                  rd__rect(nc->in.x, nc->bottom + i * fh, nc->in.w, fh), RD_ALIGN_LEFT);
    nc->bottom -= nc->pad / 3;
}

/* Choice buttons: each label wrapped onto at most max lines (an answer
 * can run to 180 characters; five lines of a narrow panel hold it). */
static int choice_lines(rd_text *t, const char *label, int px, int w, char (*out)[256], int max)
{
    enum { MAXL = 12 };
    char buf[MAXL][256];
    int k = rd_text_wrap(t, label ? label : "", px, w, &buf[0][0], MAXL, 256);
    if (k < 1) {
        out[0][0] = '\0';
        return 1;
    }
    int n = k < max ? k : max;
    for (int i = 0; i < n; i++)
        memcpy(out[i], buf[i], 256);
    if (k > n) {
        /* More than fits: the last line ends in an ellipsis. */
        size_t len = strlen(out[n - 1]);
        if (len > 250)
            len = 250;
        snprintf(out[n - 1] + len, 256 - len, "\xE2\x80\xA6");
    }
    return n;
}

/* Answers: as many lines each as fit, keeping four lines of text above
 * them and the typed-answer field. */
static void layout_answers(narr *nc)
{
    const rd_narration *nv = &nc->f->narr;
    rd_layout *L = nc->L;
    SDL_Rect in = nc->in;
    int px = nc->px, lh = nc->lh;
    int nch = nv->nchoices < RD_MAX_CHOICES ? nv->nchoices : RD_MAX_CHOICES;
    int input_h = nv->input ? (int)(px * 2.0) : 0;
    int min_text = in.y + 4 * lh;
    int numw = 0;
    rd_text_measure(nc->t, "0 ", px, &numw, NULL);
    int tw = in.w - 12 - numw - 6;
    int ncl[RD_MAX_CHOICES];
    int need = 0;
    for (int maxl = RD__CHOICE_LINES;; maxl--) {
        need = 0;
        for (int i = 0; i < nch; i++) {
            ncl[i] = choice_lines(nc->t, nv->choices[i], px, tw, nc->sc->choices[i], maxl);
            need += ncl[i] * lh + (int)(px * 0.5) + 4;
        }
        if (maxl == 1 || nc->bottom - need - input_h >= min_text)
            break;
    }
    int y = nc->bottom - need;
    for (int i = 0; i < nch; i++) {
        int bh = ncl[i] * lh + (int)(px * 0.5);
        SDL_Rect b = rd__rect(in.x, y, in.w, bh);
        y += bh + 4;
        if (b.y < in.y)
            continue; /* no room at all (a tiny window) */
        L->choice[i] = b;
        char num[8];
        snprintf(num, sizeof num, "%d", i + 1);
        int ty = b.y + (b.h - ncl[i] * lh) / 2;
        emit_text(L, num, px, RD_LINE_NUMBER, rd__rect(b.x + 6, ty, numw, lh), RD_ALIGN_LEFT);
        for (int k = 0; k < ncl[i]; k++)
            if (nc->sc->choices[i][k][0])
                emit_text(L, nc->sc->choices[i][k], px, RD_LINE_CHOICE,
                          rd__rect(b.x + 6 + numw + 6, ty + k * lh, tw, lh), RD_ALIGN_LEFT);
    }
    if (nch > 0)
        nc->bottom -= need;
}

static void layout_input(narr *nc)
{
    const rd_narration *nv = &nc->f->narr;
    rd_layout *L = nc->L;
    int px = nc->px;
    if (!nv->input)
        return;
    int input_h = (int)(px * 2.0);
    SDL_Rect box = rd__rect(nc->in.x, nc->bottom - input_h, nc->in.w, (int)(px * 1.8));
    L->input = box;
    char field[96];
    snprintf(field, sizeof field, "%s|", nv->input);
    int fw = 0;
    rd_text_measure(nc->t, field, px, &fw, NULL);
    if (fw > box.w / 2)
        fw = box.w / 2;
    emit_text(L, field, px, RD_LINE_INPUT, rd__rect(box.x + 8, box.y, box.w / 2, box.h),
              RD_ALIGN_LEFT);
    if (nv->input_unit && *nv->input_unit)
        emit_text(L, nv->input_unit, px, RD_LINE_UNIT,
                  rd__rect(box.x + 8 + fw + px / 2, box.y, box.w - 16 - fw - px / 2, box.h),
                  RD_ALIGN_LEFT);
    nc->bottom -= input_h;
}

/* ------------------------------------------------------------ the column */

static const rd_string heads[2] = {RD_S_JUST_HAPPENED, RD_S_NEXT};

/* The text column's lines, staged: kicker, title, body, then the quiz's
 * question and verdict; outside a lesson, what just happened and what
 * comes next follow in the same column: where they do not fit, they
 * scroll with it and the "more" marker says so, never cut off unseen. */
static void stage_column(narr *nc)
{
    const rd_frame *f = nc->f;
    const rd_narration *nv = &f->narr;
    rd__scratch *sc = nc->sc;
    rd_text *t = nc->t;
    int pad = nc->pad, px = nc->px, w = nc->col.w;
    int *n = &nc->n;
    add_block(sc, t, n, nv->kicker, nc->L->px_small, RD_LINE_KICKER, w, 0, 0);
    add_block(sc, t, n, nv->title, nc->L->px_big, RD_LINE_TITLE, w, 0, *n > 0 ? pad / 3 : 0);
    add_block(sc, t, n, nv->body, px, RD_LINE_BODY, w, 0, *n > 0 ? pad / 2 : 0);
    nc->q = add_block(sc, t, n, nv->prompt, px, RD_LINE_PROMPT, w - nc->indent, 1, pad);
    nc->q_rule = nc->q < *n;
    int fb = nv->feedback_state == RD_CHOICE_RIGHT   ? 2
             : nv->feedback_state == RD_CHOICE_WRONG ? 3
                                                     : 4;
    add_block(sc, t, n, nv->feedback, px, RD_LINE_FEEDBACK, w - nc->indent, fb, pad / 2);
    const char *blocks[2] = {nv->just, nv->next};
    nc->head_rule = -1;
    for (int k = 0; k < 2 && !f->lesson; k++) {
        if (!blocks[k] || !*blocks[k])
            continue;
        rd_string head = k == 0 && nv->flying ? RD_S_IN_FLIGHT
                         : k == 1 && nv->result ? RD_S_RESULT
                                                : heads[k];
        int h = add_block(sc, t, n, rd_str(f->lang, head), px, RD_LINE_HEAD, w, 0,
                          nc->head_rule < 0 ? pad : pad / 2 + pad / 3);
        if (nc->head_rule < 0 && h < *n)
            nc->head_rule = h;
        add_block(sc, t, n, blocks[k], px, RD_LINE_STEP, w, 0, 0);
    }
}

/* Staged line i at gy in the column, into the layout, with a rule above
 * the question and (head) above the first heading. */
static void place_line(narr *nc, int i, int gy, bool head)
{
    rd__staged *l = &nc->sc->staged[i];
    SDL_Rect col = nc->col;
    l->l.box = l->l.bar ? rd__rect(col.x + nc->indent, gy, col.w - nc->indent, l->h)
                        : rd__rect(col.x, gy, col.w, l->h);
    if (i == nc->q && nc->q_rule)
        l->l.rule_y = gy - l->gap / 2;
    if (head && i == nc->head_rule)
        l->l.rule_y = gy - l->gap / 2;
    emit(nc->L, &l->l);
}

/* The "more" marker at limit: which way the rest of the text is. */
static void more_marker(narr *nc, bool below, bool above, int limit, int more_h)
{
    bool zh = nc->f->lang == CV_LANG_ZH;
    /* (The CJK font draws triangles tiny: arrows in Chinese.) */
    const char *more = below && above ? "\xE2\x96\xB2 \xE2\x96\xBC"
                       : below        ? (zh ? "\xE2\x86\x93 更多" : "\xE2\x96\xBC more")
                               : (zh ? "\xE2\x86\x91 上面还有" : "\xE2\x96\xB2 more above");
    emit_text(nc->L, more, nc->L->px_small, RD_LINE_MORE,
              rd__rect(nc->col.x, limit, nc->col.w, more_h), RD_ALIGN_RIGHT);
}

/* Places the staged lines that fit the column from the scroll position;
 * longer than the column (large type on a projector), the question and
 * its verdict stay in view above the answers, and only the text above
 * them scrolls. Returns the y under the last line placed; *shown: the
 * lines placed or scrolled off. */
static int place_column(narr *nc, int *shown)
{
    const rd__staged *st = nc->sc->staged;
    SDL_Rect col = nc->col;
    int n = nc->n, q = nc->q;
    int total = 0, qh = 0;
    for (int i = 0; i < n; i++)
        total += st[i].gap + st[i].h;
    for (int i = q; i < n; i++)
        qh += st[i].gap + st[i].h;
    bool pin = q < n && total > col.h && qh + 3 * nc->lh < col.h;
    int ns = pin ? q : n, sh = pin ? col.h - qh : col.h;
    int more_h = (int)(nc->L->px_small * 1.4);
    int scroll_max = 0;
    if (total > col.h) {
        /* The fewest lines off the top that let the rest fit above the
         * "more" marker. */
        int rest = total - (pin ? qh : 0);
        while (scroll_max < ns - 1 && rest > sh - more_h) {
            rest -= st[scroll_max].gap + st[scroll_max].h;
            scroll_max++;
        }
    }
    int scroll = nc->f->narr.scroll;
    scroll = scroll < 0 ? 0 : scroll > scroll_max ? scroll_max : scroll;
    nc->L->narr_scroll = scroll;
    nc->L->narr_scroll_max = scroll_max;
    nc->L->narr_head_line = nc->head_rule > 0 && nc->head_rule < ns
                                ? (nc->head_rule < scroll_max ? nc->head_rule : scroll_max)
                                : 0;
    int limit = col.y + sh - (scroll_max > 0 ? more_h : 0);
    int y = col.y;
    *shown = scroll;
    for (int i = scroll; i < ns; i++) {
        int gy = y + (i > scroll ? st[i].gap : 0);
        if (gy + st[i].h > limit)
            break;
        place_line(nc, i, gy, i > scroll);
        y = gy + st[i].h;
        *shown = i + 1;
    }
    if (scroll_max > 0)
        more_marker(nc, *shown<ns, scroll> 0, limit, more_h);
    if (pin) {
        y = col.y + sh;
        for (int i = q; i < n; i++) {
            int gy = y + st[i].gap;
            place_line(nc, i, gy, false);
            y = gy + st[i].h;
        }
    }
    return y;
}

/* In a lesson, what just happened and what comes next, each under its
 * heading below the column's text, a block whole or not at all (outside a
 * lesson they joined the scrolling text). */
static void place_steps(narr *nc, int y)
{
    const rd_frame *f = nc->f;
    const rd_narration *nv = &f->narr;
    rd__staged *st = nc->sc->staged;
    SDL_Rect in = nc->in, col = nc->col;
    int pad = nc->pad, px = nc->px, lh = nc->lh;
    const char *blocks[2] = {nv->just, nv->next};
    bool first_block = true;
    for (int k = 0; k < 2; k++) {
        if (!blocks[k] || !*blocks[k])
            continue;
        int m = nc->n;
        int first = add_block(nc->sc, nc->t, &m, blocks[k], px, RD_LINE_STEP, in.w, 0, 0);
        int block_h = pad / 2 + lh;
        for (int i = first; i < m; i++)
            block_h += st[i].h;
        if (y + px * 3 >= col.y + col.h || y + block_h > col.y + col.h)
            break;
        int rule = y;
        y += pad / 2;
        rd_line head;
        memset(&head, 0, sizeof head);
        snprintf(head.text, sizeof head.text, "%s", rd_str(f->lang, heads[k]));
        head.px = px;
        head.role = RD_LINE_HEAD;
        head.box = rd__rect(in.x, y, in.w, lh);
        head.rule_y = first_block ? rule : 0;
        first_block = false;
        emit(nc->L, &head);
        y += lh;
        for (int i = first; i < m; i++) {
            if (y + st[i].h > col.y + col.h)
                break;
            st[i].l.box = rd__rect(in.x, y, in.w, st[i].h);
            if (st[i].l.text[0])
                emit(nc->L, &st[i].l);
            y += st[i].h;
        }
        y += pad / 3;
    }
}

/* ---------------------------------------------------------------- diagrams */

/* Is arrow a between boxes side by side (the same rows of the grid)? */
static bool side_by_side(const rd_diagram *d, const rd_diagram_arrow *a)
{
    const rd_diagram_box *s = &d->boxes[a->from], *e = &d->boxes[a->to];
    return s->y == e->y && (s->h > 0 ? s->h : 1) == (e->h > 0 ? e->h : 1);
}

/* The boxes on the diagram's grid in area. Boxes do not fill their cells:
 * the arrows between them must show. A box keeps room for two lines of
 * label; device frames, drawn around other boxes, keep the narrow gap so
 * they enclose them. strip: the room under boxes for the labels of arrows
 * between boxes side by side. */
static void place_boxes(const rd_diagram *d, SDL_Rect area, int gap, int px, int strip,
                        rd__diagram_geom *g)
{
    int cols = d->cols > 0 ? d->cols : 1, rows = d->rows > 0 ? d->rows : 1;
    float cw = (float)area.w / cols, ch = (float)area.h / rows;
    int gx = (int)fmaxf(gap, cw * 0.10f);
    int gy = (int)fmaxf(gap, fminf(ch * 0.42f, ch - px * 3.2f));
    for (int i = 0; i < g->nboxes; i++) {
        const rd_diagram_box *b = &d->boxes[i];
        int x0 = area.x + area.w * b->x / cols, y0 = area.y + area.h * b->y / rows;
        int x1 = area.x + area.w * (b->x + (b->w > 0 ? b->w : 1)) / cols;
        int y1 = area.y + area.h * (b->y + (b->h > 0 ? b->h : 1)) / rows;
        bool frame = b->kind == RD_BOX_DEVICE;
        int bx = frame ? gap : gx, by = frame ? gap : gy;
        int h = y1 - y0 - by - (frame ? 0 : strip);
        if (h < px + 4)
            h = y1 - y0 - by;
        g->box[i] = rd__rect(x0 + bx / 2, y0 + by / 2, x1 - x0 - bx, h);
    }
}

/* Arrow i from the edge of one box to the edge of the other, and its
 * label's place: under the arrow for boxes side by side (the gap between
 * them is too narrow), else across its middle. */
static void place_arrow(rd_text *t, const rd_diagram *d, int i, SDL_Rect area, int px, int strip,
                        rd__diagram_geom *g)
{
    const rd_diagram_arrow *a = &d->arrows[i];
    SDL_Rect s = g->box[a->from], e = g->box[a->to];
    float x0 = s.x + s.w / 2.0f, y0 = s.y + s.h / 2.0f, x1 = e.x + e.w / 2.0f,
          y1 = e.y + e.h / 2.0f;
    /* Clip both ends to the boxes' edges. */
    float dx = x1 - x0, dy = y1 - y0;
    float ts = fminf(dx != 0 ? s.w / 2.0f / fabsf(dx) : 1e9f,
                     dy != 0 ? s.h / 2.0f / fabsf(dy) : 1e9f);
    float te = fminf(dx != 0 ? e.w / 2.0f / fabsf(dx) : 1e9f,
                     dy != 0 ? e.h / 2.0f / fabsf(dy) : 1e9f);
    float ax = x0 + dx * fminf(ts, 1), ay = y0 + dy * fminf(ts, 1);
    float bx = x1 - dx * fminf(te, 1), by = y1 - dy * fminf(te, 1);
    g->arrow[i] = true;
    g->ends[i][0] = ax, g->ends[i][1] = ay, g->ends[i][2] = bx, g->ends[i][3] = by;
    if (!a->label[0])
        return;
    int lw2 = 0;
    rd_text_measure(t, a->label, px, &lw2, NULL);
    lw2 = lw2 > area.w / 2 ? area.w / 2 : lw2;
    if (strip > 0 && side_by_side(d, a)) {
        int room = (int)fabsf(x1 - x0);
        lw2 = lw2 > room ? room : lw2;
        int below = s.y + s.h > e.y + e.h ? s.y + s.h : e.y + e.h;
        g->label[i] = rd__rect((int)((ax + bx) / 2) - lw2 / 2, below + 1, lw2, strip - 1);
    } else {
        g->label[i] = rd__rect((int)((ax + bx) / 2) - lw2 / 2, (int)((ay + by) / 2) - px * 2 / 3,
                               lw2, (int)(px * 1.3));
    }
}

void rd__diagram_place(rd_text *t, const rd_diagram *d, SDL_Rect area, float ui, int px,
                       rd__diagram_geom *g)
{
    memset(g, 0, sizeof *g);
    g->nboxes = d->nboxes < RD_DIAGRAM_MAX_BOXES ? d->nboxes : RD_DIAGRAM_MAX_BOXES;
    g->narrows = d->narrows < RD_DIAGRAM_MAX_ARROWS ? d->narrows : RD_DIAGRAM_MAX_ARROWS;
    int nb = g->nboxes;
    int gap = (int)fmaxf(2, 6 * ui);
    /* The gap between boxes side by side is too narrow for a label: such
     * labels go under the arrow, in a strip taken from the boxes' bottoms. */
    int strip = 0;
    for (int i = 0; i < g->narrows; i++) {
        const rd_diagram_arrow *a = &d->arrows[i];
        if (a->label[0] && a->from >= 0 && a->from < nb && a->to >= 0 && a->to < nb &&
            side_by_side(d, a))
            strip = (int)(px * 1.5);
    }
    place_boxes(d, area, gap, px, strip, g);
    for (int i = 0; i < g->narrows; i++) {
        const rd_diagram_arrow *a = &d->arrows[i];
        if (a->from < 0 || a->from >= nb || a->to < 0 || a->to >= nb || a->from == a->to)
            continue;
        place_arrow(t, d, i, area, px, strip, g);
    }
}

/* ------------------------------------------------------------------ panel */

void rd__layout_narration(rd__scratch *sc, rd_text *t, const rd_frame *f, rd_layout *L)
{
    SDL_Rect nr = L->narration;
    L->nlines = 0;
    if (nr.w <= 0 || !t)
        return;
    narr nc;
    memset(&nc, 0, sizeof nc);
    nc.sc = sc;
    nc.t = t;
    nc.f = f;
    nc.L = L;
    nc.pad = (int)fmaxf(4, 10 * L->ui);
    nc.px = L->px_text;
    nc.lh = (int)(nc.px * 1.4);
    nc.in = rd__rect(nr.x + nc.pad, nr.y + nc.pad, nr.w - 2 * nc.pad, nr.h - 2 * nc.pad);
    nc.bottom = nc.in.y + nc.in.h;
    layout_nav(&nc);
    layout_footer(&nc);
    layout_answers(&nc);
    layout_input(&nc);
    nc.col = rd__rect(nc.in.x, nc.in.y, nc.in.w, nc.bottom - nc.pad / 2 - nc.in.y);
    L->narr_text = nc.col;
    int barw = (int)fmaxf(2, 3 * L->ui);
    nc.indent = barw + (int)fmaxf(4, 8 * L->ui);
    stage_column(&nc);
    int shown;
    int y = place_column(&nc, &shown) + nc.pad;
    if (f->lesson && shown >= nc.n)
        place_steps(&nc, y);
}
