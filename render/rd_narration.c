/*
 * rd_narration.c: the narration panel beside the stage: a lesson's kicker,
 * title and body wrapped to the panel (with `code` spans in the monospace
 * face), the quiz's prompt, answer buttons and verdict, what the step
 * that just happened did and what the next one will do, page navigation, scrolling when the text is longer than
 * the panel, and the boxes-and-arrows diagrams a beat can carry (in the
 * panel, or on the stage's side when the panel is narrow).
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* Is arrow a between boxes side by side (the same rows of the grid)? */
static bool side_by_side(const rd_diagram *d, const rd_diagram_arrow *a)
{
    const rd_diagram_box *s = &d->boxes[a->from], *e = &d->boxes[a->to];
    return s->y == e->y && (s->h > 0 ? s->h : 1) == (e->h > 0 ? e->h : 1);
}

/* A box's label, on two lines when one is too narrow and the box is tall
 * enough; what still does not fit ends in an ellipsis. */
static void box_label(rd_ctx *c, const char *label, int px, SDL_Color col, SDL_Rect r)
{
    int w = 0;
    rd_text_measure(c->text, label, px, &w, NULL);
    int lh = (int)(px * 1.25);
    if (w <= r.w || r.h < 2 * lh + 2) {
        rd__text(c, label, px, col, r, RD_ALIGN_CENTER, 0);
        return;
    }
    char lines[3][256];
    int n = rd_text_wrap(c->text, label, px, r.w, &lines[0][0], 3, 256);
    if (n > 2) {
        /* Wider than the box now: rd__text cuts it with an ellipsis. */
        size_t len = strlen(lines[1]), more = strlen(lines[2]);
        if (len + 1 + more < sizeof lines[1]) {
            lines[1][len] = ' ';
            memcpy(lines[1] + len + 1, lines[2], more + 1);
        }
        n = 2;
    }
    int y = r.y + (r.h - n * lh) / 2;
    for (int i = 0; i < n; i++)
        rd__text(c, lines[i], px, col, rd__rect(r.x, y + i * lh, r.w, lh), RD_ALIGN_CENTER, 0);
}

static void draw_diagram(rd_ctx *c, const rd_frame *f, const rd_diagram *d, SDL_Rect area)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect boxes[RD_DIAGRAM_MAX_BOXES];
    int nb = d->nboxes < RD_DIAGRAM_MAX_BOXES ? d->nboxes : RD_DIAGRAM_MAX_BOXES;
    int cols = d->cols > 0 ? d->cols : 1, rows = d->rows > 0 ? d->rows : 1;
    int gap = (int)fmaxf(2, 6 * c->L.ui);
    int px = c->L.px_small;
    int na = d->narrows < RD_DIAGRAM_MAX_ARROWS ? d->narrows : RD_DIAGRAM_MAX_ARROWS;
    /* The gap between boxes side by side is too narrow for a label: such
     * labels go under the arrow, in a strip taken from the boxes' bottoms. */
    int strip = 0;
    for (int i = 0; i < na; i++) {
        const rd_diagram_arrow *a = &d->arrows[i];
        if (a->label[0] && a->from >= 0 && a->from < nb && a->to >= 0 && a->to < nb &&
            side_by_side(d, a))
            strip = (int)(px * 1.5);
    }
    /* Boxes do not fill their cells: the arrows between them must show.
     * A box keeps room for two lines of label; device frames, drawn around
     * other boxes, keep the narrow gap so they enclose them. */
    float cw = (float)area.w / cols, ch = (float)area.h / rows;
    int gx = (int)fmaxf(gap, cw * 0.10f);
    int gy = (int)fmaxf(gap, fminf(ch * 0.42f, ch - px * 3.2f));
    for (int i = 0; i < nb; i++) {
        const rd_diagram_box *b = &d->boxes[i];
        int x0 = area.x + area.w * b->x / cols, y0 = area.y + area.h * b->y / rows;
        int x1 = area.x + area.w * (b->x + (b->w > 0 ? b->w : 1)) / cols;
        int y1 = area.y + area.h * (b->y + (b->h > 0 ? b->h : 1)) / rows;
        bool frame = b->kind == RD_BOX_DEVICE;
        int bx = frame ? gap : gx, by = frame ? gap : gy;
        int h = y1 - y0 - by - (frame ? 0 : strip);
        if (h < px + 4)
            h = y1 - y0 - by;
        boxes[i] = rd__rect(x0 + bx / 2, y0 + by / 2, x1 - x0 - bx, h);
    }
    float lw = fmaxf(1, th->line * c->L.ui);
    /* Device frames first: they are drawn behind what they contain. */
    for (int i = 0; i < nb; i++)
        if (d->boxes[i].kind == RD_BOX_DEVICE) {
            rd__frame(c->r, boxes[i], (int)lw, th->dim);
            rd__text(c, d->boxes[i].label, px, th->dim,
                     rd__rect(boxes[i].x + 3, boxes[i].y + 1, boxes[i].w - 6, (int)(px * 1.3)),
                     RD_ALIGN_LEFT, 0);
        }
    SDL_Rect labels[RD_DIAGRAM_MAX_ARROWS];
    for (int i = 0; i < na; i++) {
        const rd_diagram_arrow *a = &d->arrows[i];
        labels[i] = rd__rect(0, 0, 0, 0);
        if (a->from < 0 || a->from >= nb || a->to < 0 || a->to >= nb || a->from == a->to)
            continue;
        SDL_Rect s = boxes[a->from], e = boxes[a->to];
        float x0 = s.x + s.w / 2.0f, y0 = s.y + s.h / 2.0f, x1 = e.x + e.w / 2.0f, y1 = e.y + e.h / 2.0f;
        /* Clip both ends to the boxes' edges. */
        float dx = x1 - x0, dy = y1 - y0;
        float ts = fminf(dx != 0 ? s.w / 2.0f / fabsf(dx) : 1e9f, dy != 0 ? s.h / 2.0f / fabsf(dy) : 1e9f);
        float te = fminf(dx != 0 ? e.w / 2.0f / fabsf(dx) : 1e9f, dy != 0 ? e.h / 2.0f / fabsf(dy) : 1e9f);
        float ax = x0 + dx * fminf(ts, 1), ay = y0 + dy * fminf(ts, 1);
        float bx = x1 - dx * fminf(te, 1), by = y1 - dy * fminf(te, 1);
        rd__line(c->r, ax, ay, bx, by, lw, th->link);
        rd__arrowhead(c->r, ax, ay, bx, by, 7 * c->L.ui, th->link);
        if (a->label[0]) {
            int lw2 = 0;
            rd_text_measure(c->text, a->label, px, &lw2, NULL);
            lw2 = lw2 > area.w / 2 ? area.w / 2 : lw2;
            if (strip > 0 && side_by_side(d, a)) {
                int room = (int)fabsf(x1 - x0);
                lw2 = lw2 > room ? room : lw2;
                int below = s.y + s.h > e.y + e.h ? s.y + s.h : e.y + e.h;
                labels[i] = rd__rect((int)((ax + bx) / 2) - lw2 / 2, below + 1, lw2, strip - 1);
            } else {
                labels[i] = rd__rect((int)((ax + bx) / 2) - lw2 / 2, (int)((ay + by) / 2) - px * 2 / 3,
                                 lw2, (int)(px * 1.3));
            }
        }
    }
    for (int i = 0; i < nb; i++) {
        const rd_diagram_box *b = &d->boxes[i];
        if (b->kind == RD_BOX_DEVICE)
            continue;
        SDL_Color fill = b->kind == RD_BOX_COMM   ? rd__mix(th->card, th->accent, 0.45f)
                         : b->kind == RD_BOX_DATA ? th->empty
                                                  : th->card;
        rd__fill(c->r, boxes[i], fill);
        rd__frame(c->r, boxes[i], (int)lw, b->kind == RD_BOX_COMM ? th->accent : th->edge);
        box_label(c, b->label, px, th->text,
                  rd__rect(boxes[i].x + 2, boxes[i].y, boxes[i].w - 4, boxes[i].h));
    }
    /* Arrow labels last, so no box hides them. */
    for (int i = 0; i < na; i++)
        if (labels[i].w > 0) {
            rd__fill(c->r, labels[i], th->panel);
            rd__text(c, d->arrows[i].label, px, th->dim, labels[i], RD_ALIGN_CENTER, 0);
        }
}

/* ------------------------------------------------------------ narration */

/* A line being laid out: what the panel will draw, plus its height and the
 * space above it. */
typedef struct {
    rd_line l;
    int h, gap;
} staged;

#define STAGED 224
static staged st_lines[STAGED];

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

/* Appends s wrapped to w pixels; paragraphs ('\n') keep their empty line,
 * as the panel always drew them. Returns the first line's index. */
static int add_block(rd_text *t, int *n, const char *s, int px, int role, int w, int bar, int gap)
{
    enum { MAXL = 96, LEN = 256 };
    static char buf[MAXL][LEN];
    int first = *n;
    if (!s || !*s || w <= 8)
        return first;
    int k = rd_text_wrap(t, s, px, w, &buf[0][0], MAXL, LEN);
    if (strchr(s, '`')) {
        /* The wrap measured backticks and one face; code is drawn without
         * them in the monospace face: narrow the wrap until every line
         * fits as drawn. */
        for (int pct = 96; pct >= 60; pct -= 6) {
            k = rd_text_wrap(t, s, px, w * pct / 100, &buf[0][0], MAXL, LEN);
            bool fits = true, in_code = false;
            for (int i = 0; i < k && fits; i++) {
                if (!buf[i][0])
                    in_code = false;
                fits = line_width(t, buf[i], px, &in_code) <= w;
            }
            if (fits)
                break;
        }
    }
    bool code = false;
    for (int i = 0; i < k && *n < STAGED; i++) {
        staged *l = &st_lines[(*n)++];
        memset(&l->l, 0, sizeof l->l);
        memcpy(l->l.text, buf[i], sizeof l->l.text); /* both LEN bytes, NUL-terminated */
        l->l.px = px;
        l->h = (int)(px * 1.4);
        l->gap = i == 0 ? gap : 0;
        l->l.role = (unsigned char)role;
        l->l.bar = (unsigned char)bar;
        l->l.align = RD_ALIGN_LEFT;
        if (!buf[i][0])
            code = false; /* a span never crosses a paragraph */
        l->l.code = code;
        for (const char *q = buf[i]; *q; q++)
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

/* Choice buttons: each label wrapped onto at most max lines (an answer
 * can run to 180 characters; five lines of a narrow panel hold it). */
#define CHOICE_LINES 5
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

void rd__layout_narration(rd_text *t, const rd_frame *f, rd_layout *L)
{
    const rd_narration *nv = &f->narr;
    SDL_Rect nr = L->narration;
    L->nlines = 0;
    if (nr.w <= 0 || !t)
        return;
    int pad = (int)fmaxf(4, 10 * L->ui);
    int px = L->px_text, lh = (int)(px * 1.4);
    SDL_Rect in = rd__rect(nr.x + pad, nr.y + pad, nr.w - 2 * pad, nr.h - 2 * pad);

    /* Bottom up: the diagram (unless it sits beside the stage), the
     * navigation row, the footer, the answers and the typed-answer field
     * take their room; the text column gets the rest. */
    int bottom = in.y + in.h;
    if (nv->diagram && nv->diagram->nboxes > 0 && L->diagram.w <= 0) {
        int dh = in.h * 2 / 5;
        L->narr_diagram = rd__rect(in.x, in.y + in.h - dh, in.w, dh);
        bottom = L->narr_diagram.y - pad;
    }
    if (f->lesson && nv->nav) {
        const rd_key *keys;
        int nk = rd_keymap(&keys);
        rd_action acts[RD_MAX_NAV];
        int nnav = 0;
        for (int i = 0; i < nk && nnav < RD_MAX_NAV; i++)
            if (keys[i].button == RD_BUTTON_NAV)
                acts[nnav++] = keys[i].action;
        int bh = (int)(px * 1.9), gap = (int)fmaxf(2, 4 * L->ui);
        int bw = nnav ? (in.w - gap * (nnav - 1)) / nnav : 0;
        for (int i = 0; i < nnav; i++) {
            SDL_Rect b = rd__rect(in.x + i * (bw + gap), bottom - bh, bw, bh);
            L->nav[i] = b;
            L->nav_action[i] = acts[i];
            emit_text(L, rd_button_label(acts[i], f->lang, false), L->px_small, RD_LINE_NAV,
                      rd__rect(b.x + 3, b.y, b.w - 6, b.h), RD_ALIGN_CENTER);
        }
        L->nnav = nnav;
        if (nnav)
            bottom -= bh + pad / 2;
    }
    if (nv->footer && *nv->footer) {
        /* The hint wraps (a projector's large type): never cut. */
        char fl[3][256];
        int nf = rd_text_wrap(t, nv->footer, L->px_small, in.w, &fl[0][0], 3, 256);
        int fh = (int)(L->px_small * 1.5);
        bottom -= nf * fh;
        for (int i = 0; i < nf; i++)
            emit_text(L, fl[i], L->px_small, RD_LINE_FOOTER, rd__rect(in.x, bottom + i * fh, in.w, fh),
                      RD_ALIGN_LEFT);
        bottom -= pad / 3;
    }
    /* Answers: as many lines each as fit, keeping four lines of text. */
    int nch = nv->nchoices < RD_MAX_CHOICES ? nv->nchoices : RD_MAX_CHOICES;
    int input_h = nv->input ? (int)(px * 2.0) : 0;
    int min_text = in.y + 4 * lh;
    int numw = 0;
    rd_text_measure(t, "0 ", px, &numw, NULL);
    int tw = in.w - 12 - numw - 6;
    static char clines[RD_MAX_CHOICES][CHOICE_LINES][256];
    int ncl[RD_MAX_CHOICES];
    int need = 0;
    for (int maxl = CHOICE_LINES;; maxl--) {
        need = 0;
        for (int i = 0; i < nch; i++) {
            ncl[i] = choice_lines(t, nv->choices[i], px, tw, clines[i], maxl);
            need += ncl[i] * lh + (int)(px * 0.5) + 4;
        }
        if (maxl == 1 || bottom - need - input_h >= min_text)
            break;
    }
    int y = bottom - need;
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
            if (clines[i][k][0])
                emit_text(L, clines[i][k], px, RD_LINE_CHOICE,
                          rd__rect(b.x + 6 + numw + 6, ty + k * lh, tw, lh), RD_ALIGN_LEFT);
    }
    if (nch > 0)
        bottom -= need;
    if (nv->input) {
        SDL_Rect box = rd__rect(in.x, bottom - input_h, in.w, (int)(px * 1.8));
        L->input = box;
        char field[96];
        snprintf(field, sizeof field, "%s|", nv->input);
        int fw = 0;
        rd_text_measure(t, field, px, &fw, NULL);
        if (fw > box.w / 2)
            fw = box.w / 2;
        emit_text(L, field, px, RD_LINE_INPUT, rd__rect(box.x + 8, box.y, box.w / 2, box.h),
                  RD_ALIGN_LEFT);
        if (nv->input_unit && *nv->input_unit)
            emit_text(L, nv->input_unit, px, RD_LINE_UNIT,
                      rd__rect(box.x + 8 + fw + px / 2, box.y, box.w - 16 - fw - px / 2, box.h),
                      RD_ALIGN_LEFT);
        bottom -= input_h;
    }

    /* The text column: kicker, title, body, then the quiz's question and
     * verdict; what does not fit scrolls. */
    SDL_Rect col = rd__rect(in.x, in.y, in.w, bottom - pad / 2 - in.y);
    L->narr_text = col;
    int barw = (int)fmaxf(2, 3 * L->ui), indent = barw + (int)fmaxf(4, 8 * L->ui);
    int n = 0;
    add_block(t, &n, nv->kicker, L->px_small, RD_LINE_KICKER, col.w, 0, 0);
    add_block(t, &n, nv->title, L->px_big, RD_LINE_TITLE, col.w, 0, n > 0 ? pad / 3 : 0);
    add_block(t, &n, nv->body, px, RD_LINE_BODY, col.w, 0, n > 0 ? pad / 2 : 0);
    int q = add_block(t, &n, nv->prompt, px, RD_LINE_PROMPT, col.w - indent, 1, pad);
    bool q_rule = q < n;
    int fb = nv->feedback_state == RD_CHOICE_RIGHT ? 2 : nv->feedback_state == RD_CHOICE_WRONG ? 3 : 4;
    add_block(t, &n, nv->feedback, px, RD_LINE_FEEDBACK, col.w - indent, fb, pad / 2);
    /* Outside a lesson, what just happened and what comes next follow
     * the text in the same column: where they do not fit, they scroll
     * with it and the "more" marker says so, never cut off unseen. */
    const char *blocks[2] = {nv->just, nv->next};
    static const rd_string heads[2] = {RD_S_JUST_HAPPENED, RD_S_NEXT};
    int head_rule = -1;
    for (int k = 0; k < 2 && !f->lesson; k++) {
        if (!blocks[k] || !*blocks[k])
            continue;
        int h = add_block(t, &n, rd_str(f->lang, heads[k]), px, RD_LINE_HEAD, col.w, 0,
                          head_rule < 0 ? pad : pad / 2 + pad / 3);
        if (head_rule < 0 && h < n)
            head_rule = h;
        add_block(t, &n, blocks[k], px, RD_LINE_STEP, col.w, 0, 0);
    }
    int total = 0, qh = 0;
    for (int i = 0; i < n; i++)
        total += st_lines[i].gap + st_lines[i].h;
    for (int i = q; i < n; i++)
        qh += st_lines[i].gap + st_lines[i].h;
    /* Longer than the column (large type on a projector): the question and
     * its verdict stay in view above the answers, and only the text above
     * them scrolls. */
    bool pin = q < n && total > col.h && qh + 3 * lh < col.h;
    int ns = pin ? q : n, sh = pin ? col.h - qh : col.h;
    int more_h = (int)(L->px_small * 1.4);
    int scroll_max = 0;
    if (total > col.h) {
        /* The fewest lines off the top that let the rest fit above the
         * "more" marker. */
        int rest = total - (pin ? qh : 0);
        while (scroll_max < ns - 1 && rest > sh - more_h) {
            rest -= st_lines[scroll_max].gap + st_lines[scroll_max].h;
            scroll_max++;
        }
    }
    int scroll = nv->scroll < 0 ? 0 : nv->scroll > scroll_max ? scroll_max : nv->scroll;
    L->narr_scroll = scroll;
    L->narr_scroll_max = scroll_max;
    int limit = col.y + sh - (scroll_max > 0 ? more_h : 0);
    y = col.y;
    int shown = scroll;
    for (int i = scroll; i < ns; i++) {
        staged *l = &st_lines[i];
        int gy = y + (i > scroll ? l->gap : 0);
        if (gy + l->h > limit)
            break;
        l->l.box = l->l.bar ? rd__rect(col.x + indent, gy, col.w - indent, l->h)
                            : rd__rect(col.x, gy, col.w, l->h);
        if (i == q && q_rule)
            l->l.rule_y = gy - l->gap / 2;
        if (i == head_rule && i > scroll)
            l->l.rule_y = gy - l->gap / 2;
        emit(L, &l->l);
        y = gy + l->h;
        shown = i + 1;
    }
    if (scroll_max > 0) {
        /* Say which way the rest of the text is. */
        bool zh = f->lang == CV_LANG_ZH;
        /* (The CJK font draws triangles tiny: arrows in Chinese.) */
        const char *more = shown < ns && scroll > 0 ? "\xE2\x96\xB2 \xE2\x96\xBC"
                           : shown < ns             ? (zh ? "\xE2\x86\x93 更多" : "\xE2\x96\xBC more")
                                                    : (zh ? "\xE2\x86\x91 上面还有" : "\xE2\x96\xB2 more above");
        emit_text(L, more, L->px_small, RD_LINE_MORE, rd__rect(col.x, limit, col.w, more_h),
                  RD_ALIGN_RIGHT);
    }
    if (pin) {
        y = col.y + sh;
        for (int i = q; i < n; i++) {
            staged *l = &st_lines[i];
            int gy = y + l->gap;
            l->l.box = l->l.bar ? rd__rect(col.x + indent, gy, col.w - indent, l->h)
                                : rd__rect(col.x, gy, col.w, l->h);
            if (i == q && q_rule)
                l->l.rule_y = gy - l->gap / 2;
            emit(L, &l->l);
            y = gy + l->h;
        }
    }
    y += pad;
    /* In a lesson, what just happened and what comes next, each under its
     * heading, a block whole or not at all (outside a lesson they joined
     * the scrolling text above). */
    bool first_block = true;
    for (int k = 0; k < 2 && shown >= n && f->lesson; k++) {
        if (!blocks[k] || !*blocks[k])
            continue;
        int m = n, first = add_block(t, &m, blocks[k], px, RD_LINE_STEP, in.w, 0, 0);
        int block_h = pad / 2 + lh;
        for (int i = first; i < m; i++)
            block_h += st_lines[i].h;
        bool fits = !f->lesson || y + block_h <= col.y + col.h;
        if (y + px * 3 >= col.y + col.h || !fits)
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
        emit(L, &head);
        y += lh;
        for (int i = first; i < m; i++) {
            if (y + st_lines[i].h > col.y + col.h)
                break;
            st_lines[i].l.box = rd__rect(in.x, y, in.w, st_lines[i].h);
            if (st_lines[i].l.text[0])
                emit(L, &st_lines[i].l);
            y += st_lines[i].h;
        }
        y += pad / 3;
    }
}

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
        draw_diagram(c, f, nv->diagram, L->narr_diagram);
}

void rd__draw_side_diagram(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect d = c->L.diagram;
    if (d.w <= 0 || !f->narr.diagram)
        return;
    rd__fill(c->r, d, th->panel);
    int pad = (int)fmaxf(3, 6 * c->L.ui);
    draw_diagram(c, f, f->narr.diagram, rd__rect(d.x + pad, d.y + pad, d.w - 2 * pad, d.h - 2 * pad));
}
