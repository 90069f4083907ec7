/*
 * rd_chrome.c: everything around the stage: the header with the numbers,
 * the timeline with step marks and phase bands, the button bar (every key
 * has a button), the narration panel with its optional diagram, legends,
 * compare-mode captions, the hover tooltip and the help overlay.
 *
 * Numbers come straight from the core: cv_cost_step/cv_cost_plan for bytes
 * and model time, cv_trace_step_seconds for the measured time; nothing here
 * re-derives an algorithm's behaviour.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

static SDL_Rect rect(int x, int y, int w, int h)
{
    return (SDL_Rect){x, y, w > 0 ? w : 0, h > 0 ? h : 0};
}

static int max_steps(const rd_frame *f)
{
    int n = 0;
    for (int p = 0; p < f->npanels && p < 2; p++)
        if (f->panels[p].trace && cv_trace_plan(f->panels[p].trace)->nsteps > n)
            n = cv_trace_plan(f->panels[p].trace)->nsteps;
    return n;
}

/* "step 3 of 6", "done" or similar for a plan at time t. */
static void step_words(const rd_frame *f, const cv_plan *plan, char *out, size_t outlen)
{
    int step;
    rd__shown_step(plan, f->t, &step, NULL);
    if (plan->nsteps == 0)
        snprintf(out, outlen, "%s", rd_str(f->lang, RD_S_DONE));
    else if (step >= plan->nsteps)
        snprintf(out, outlen, "%s (%d %s)", rd_str(f->lang, RD_S_DONE), plan->nsteps,
                 rd_str(f->lang, RD_S_STEPS));
    else {
        bool after;
        int ref = rd_ref_step(plan->nsteps, f->t, &after);
        rd_strf(f->lang, after ? RD_S_AFTER_STEP : RD_S_STEP_OF, out, outlen, ref + 1, plan->nsteps);
    }
}

/* Phase, bytes and times of the step in progress. */
/* The shown step's numbers: phase, step, the busiest port, measured and
 * modelled time. compact keeps phase, step and measured time only, for a
 * compare caption whose first line already gives bytes and the model. */
static void step_numbers(const rd_frame *f, const rd_panel *p, bool compact, char *out,
                         size_t outlen)
{
    const cv_plan *plan = cv_trace_plan(p->trace);
    const cv_link *link = rd__link(p);
    int step;
    rd__shown_step(plan, f->t, &step, NULL);
    char words[64], busy[32], total[32], meas[32], model[32];
    step_words(f, plan, words, sizeof words);
    cv_cost cost;
    memset(&cost, 0, sizeof cost);
    if (link)
        cv_cost_plan(plan, link, &cost);
    rd__fmt_bytes((double)cost.busiest_total, total, sizeof total);
    rd_lang L = f->lang;
    if (step < plan->nsteps) {
        step = rd_ref_step(plan->nsteps, f->t, NULL);
        int64_t bytes = 0;
        double ms = link ? cv_cost_step(plan, step, link, &bytes) : 0;
        rd__fmt_bytes((double)bytes, busy, sizeof busy);
        rd__fmt_seconds(f->hide_measured ? 0 : cv_trace_step_seconds(p->trace, step), meas, sizeof meas);
        rd__fmt_seconds(ms, model, sizeof model);
        const char *phase = plan->steps[step].phase ? plan->steps[step].phase : "-";
        if (compact) {
            snprintf(out, outlen, "%s  \xC2\xB7  %s  \xC2\xB7  %s %s", phase, words,
                     rd_str(L, RD_S_MEASURED), meas);
            return;
        }
        snprintf(out, outlen, "%s %s  \xC2\xB7  %s  \xC2\xB7  %s %s, %s %s  \xC2\xB7  %s %s  "
                 "\xC2\xB7  %s %s (%s)",
                 rd_str(L, RD_S_PHASE), phase, words, rd_str(L, RD_S_BUSIEST), busy,
                 rd_str(L, RD_S_TOTAL), total, rd_str(L, RD_S_MEASURED), meas,
                 rd_str(L, RD_S_MODEL), model, link && link->name ? link->name : "-");
    } else {
        rd__fmt_seconds(f->hide_measured ? 0 : cv_trace_total_seconds(p->trace), meas, sizeof meas);
        rd__fmt_seconds(cost.seconds, model, sizeof model);
        if (compact) {
            snprintf(out, outlen, "%s  \xC2\xB7  %s %s", words, rd_str(L, RD_S_MEASURED), meas);
            return;
        }
        snprintf(out, outlen, "%s  \xC2\xB7  %s %s  \xC2\xB7  %s %s  \xC2\xB7  %s %s (%s)", words,
                 rd_str(L, RD_S_BUSIEST), total, rd_str(L, RD_S_MEASURED), meas,
                 rd_str(L, RD_S_MODEL), model, link && link->name ? link->name : "-");
    }
}

void rd__draw_header(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_layout *L = &c->L;
    rd__fill(c->r, L->header, th->panel);
    int pad = (int)fmaxf(2, 8 * L->ui);
    int l1h = (int)(L->px_big * 1.4), l2h = (int)(L->px_text * 1.4);
    SDL_Rect line1 = rect(pad, pad / 2, L->w - 2 * pad, l1h);
    SDL_Rect line2 = rect(pad, pad / 2 + l1h, L->w - 2 * pad, l2h);
    char right[64];
    snprintf(right, sizeof right, "%s  %gx", rd_str(f->lang, f->playing ? RD_S_PLAYING : RD_S_PAUSED),
             f->speed);
    int rw = 0;
    rd_text_measure(c->text, right, L->px_text, &rw, NULL);
    if (rw > line1.w / 3)
        rw = line1.w / 3;
    rd__text(c, right, L->px_text, f->playing ? th->accent : th->dim,
             rect(line1.x + line1.w - rw, line1.y, rw, line1.h), RD_ALIGN_RIGHT, 0);
    line1.w -= rw + pad;
    const rd_panel *p0 = &f->panels[0];
    if (!p0->trace) {
        rd__text(c, "collviz", L->px_big, th->text, line1, RD_ALIGN_LEFT, 0);
        return;
    }
    const cv_spec *s = &cv_trace_plan(p0->trace)->spec;
    char buf[512];
    const char *dot = "  \xC2\xB7  ";
    char algo[96];
    if (f->npanels >= 2 && f->panels[1].trace)
        snprintf(algo, sizeof algo, "%s vs %s", cv_algo_name(s->algo),
                 cv_algo_name(cv_trace_plan(f->panels[1].trace)->spec.algo));
    else
        snprintf(algo, sizeof algo, "%s", cv_algo_name(s->algo));
    int n = snprintf(buf, sizeof buf, "%s%s%s%s%d %s%s%lld \xC3\x97 %s", cv_op_title(s->op), dot,
                     algo, dot, s->ranks, rd_str(f->lang, RD_S_RANKS), dot, (long long)s->count,
                     cv_dtype_name(s->dtype));
    if (cv_op_reduces(s->op) && n > 0 && (size_t)n < sizeof buf)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s", dot, cv_redop_name(s->redop));
    if (cv_op_has_root(s->op) && n > 0 && (size_t)n < sizeof buf)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%sroot %d", dot, s->root);
    if (n > 0 && (size_t)n < sizeof buf)
        snprintf(buf + n, sizeof buf - (size_t)n, "%s%s %s", dot, rd_str(f->lang, RD_S_BACKEND),
                 p0->backend ? p0->backend : cv_trace_backend(p0->trace));
    rd__text(c, buf, L->px_big, th->text, line1, RD_ALIGN_LEFT, 0);
    if (f->npanels >= 2) {
        char w0[64];
        int tot = max_steps(f);
        int k = (int)floor(f->t);
        if (k >= tot)
            snprintf(w0, sizeof w0, "%s", rd_str(f->lang, RD_S_DONE));
        else {
            bool after;
            int ref = rd_ref_step(tot, f->t, &after);
            rd_strf(f->lang, after ? RD_S_AFTER_STEP : RD_S_STEP_OF, w0, sizeof w0, ref + 1, tot);
        }
        rd__text(c, w0, L->px_text, th->dim, line2, RD_ALIGN_LEFT, 0);
    } else {
        step_numbers(f, p0, false, buf, sizeof buf);
        rd__text(c, buf, L->px_text, th->dim, line2, RD_ALIGN_LEFT, 0);
    }
}

void rd__draw_caption(rd_ctx *c, const rd_frame *f, int p)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_panel *panel = &f->panels[p];
    if (pl->caption.h <= 0 || !panel->trace)
        return;
    const cv_plan *plan = cv_trace_plan(panel->trace);
    const cv_link *link = rd__link(panel);
    cv_cost cost;
    memset(&cost, 0, sizeof cost);
    if (link)
        cv_cost_plan(plan, link, &cost);
    char sent[32], model[32], buf[256];
    rd__fmt_bytes((double)cost.max_sent, sent, sizeof sent);
    rd__fmt_seconds(cost.seconds, model, sizeof model);
    if (f->lang == RD_LANG_ZH)
        snprintf(buf, sizeof buf, "%s：%d 步 \xC2\xB7 每进程发送 %s \xC2\xB7 模型 %s",
                 cv_algo_name(plan->spec.algo), plan->nsteps, sent, model);
    else
        snprintf(buf, sizeof buf, "%s: %d steps \xC2\xB7 %s/rank \xC2\xB7 model %s",
                 cv_algo_name(plan->spec.algo), plan->nsteps, sent, model);
    int h = pl->caption.h / 2;
    rd__fill(c->r, pl->caption, th->panel);
    rd__text(c, buf, c->L.px_text, th->text, rect(pl->caption.x + 4, pl->caption.y, pl->caption.w - 8, h),
             RD_ALIGN_LEFT, 0);
    /* Every number where it fits; else the ones the first line lacks. */
    step_numbers(f, panel, false, buf, sizeof buf);
    int tw = 0;
    rd_text_measure(c->text, buf, c->L.px_small, &tw, NULL);
    if (tw > pl->caption.w - 8)
        step_numbers(f, panel, true, buf, sizeof buf);
    rd__text(c, buf, c->L.px_small, th->dim,
             rect(pl->caption.x + 4, pl->caption.y + h, pl->caption.w - 8, pl->caption.h - h),
             RD_ALIGN_LEFT, 0);
}

void rd__draw_legend(rd_ctx *c, const rd_frame *f, int p)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    SDL_Rect lg = pl->legend;
    if (lg.h <= 0 || pl->nranks == 0)
        return;
    int px = c->L.px_small;
    int x = lg.x;
    int sw = (int)(px * 0.8);
    int nshow = pl->nranks <= 16 ? pl->nranks : 0;
    for (int r = 0; r < nshow; r++) {
        char num[16];
        snprintf(num, sizeof num, "%d", r);
        int need = sw + px * (r >= 10 ? 2 : 1) + px / 2;
        if (x + need > lg.x + lg.w / 2)
            break;
        rd__fill(c->r, rect(x, lg.y + (lg.h - sw) / 2, sw, sw), rd_rank_color(r));
        SDL_Rect t = rd__text(c, num, px, th->dim, rect(x + sw + 2, lg.y, need, lg.h), RD_ALIGN_LEFT, 0);
        x = t.x + t.w + px / 2;
    }
    if (nshow == 0) {
        /* Too many ranks for swatches: a strip of all the colours. */
        int w = (int)fminf(lg.w / 4.0f, 160 * c->L.ui);
        for (int r = 0; r < pl->nranks; r++)
            rd__fill(c->r, rect(x + w * r / pl->nranks, lg.y + (lg.h - sw) / 2,
                                w * (r + 1) / pl->nranks - w * r / pl->nranks, sw),
                     rd_rank_color(r));
        x += w + px / 2;
    }
    char buf[256];
    int64_t group = 1;
    for (int r = 0; r < pl->nranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++)
            if (pl->cards[r].group[b] > group)
                group = pl->cards[r].group[b];
    int n = snprintf(buf, sizeof buf, "%s  \xC2\xB7  %s", rd_str(f->lang, RD_S_LEGEND_COLOUR),
                     rd_str(f->lang, RD_S_LEGEND_CHUNK));
    if (group > 1 && n > 0 && (size_t)n < sizeof buf) {
        /* Say so when cells stand for more than one element. */
        char agg[64];
        rd_strf(f->lang, RD_S_AGGREGATED, agg, sizeof agg, (long long)group, 0);
        snprintf(buf, sizeof buf, "%s  \xC2\xB7  %s", agg, rd_str(f->lang, RD_S_LEGEND_COLOUR));
        rd__text(c, buf, px, th->accent, rect(x, lg.y, lg.x + lg.w - x, lg.h), RD_ALIGN_LEFT, 0);
        return;
    }
    rd__text(c, buf, px, th->dim, rect(x, lg.y, lg.x + lg.w - x, lg.h), RD_ALIGN_LEFT, 0);
}

void rd__draw_timeline(rd_ctx *c, const rd_frame *f, bool cursor)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect tl = c->L.timeline;
    int n = max_steps(f);
    if (n <= 0 || tl.w <= 0)
        return;
    if (cursor) {
        double t = fmin(fmax(f->t, 0), n);
        int x = tl.x + (int)(tl.w * t / n);
        int w = (int)fmaxf(2, th->line * c->L.ui * 1.3f);
        rd__fill(c->r, rect(x - w / 2, tl.y - 2, w, tl.h + 4), th->accent);
        rd__arrowhead(c->r, (float)x, (float)tl.y - 8 * c->L.ui, (float)x, (float)tl.y,
                      6 * c->L.ui, th->accent);
        return;
    }
    rd__fill(c->r, tl, th->panel);
    int lanes = f->npanels >= 2 ? 2 : 1;
    for (int p = 0; p < lanes; p++) {
        if (!f->panels[p].trace)
            continue;
        const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
        SDL_Rect lane = rect(tl.x, tl.y + tl.h * p / lanes, tl.w, tl.h / lanes);
        int band = 0;
        for (int s = 0; s < plan->nsteps;) {
            int e = s + 1;
            const char *ph = plan->steps[s].phase ? plan->steps[s].phase : "";
            while (e < plan->nsteps && strcmp(plan->steps[e].phase ? plan->steps[e].phase : "", ph) == 0)
                e++;
            int x0 = tl.x + (int)((int64_t)tl.w * s / n), x1 = tl.x + (int)((int64_t)tl.w * e / n);
            SDL_Rect br = rect(x0, lane.y, x1 - x0, lane.h);
            rd__fill(c->r, br, band++ % 2 ? th->band_b : th->band_a);
            rd__text(c, ph, c->L.px_small, th->text, rect(br.x + 3, br.y, br.w - 6, br.h),
                     RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
            s = e;
        }
    }
    for (int s = 0; s <= n; s++) {
        int x = tl.x + (int)((int64_t)tl.w * s / n);
        rd__fill(c->r, rect(x - (s == n ? 1 : 0), tl.y, 1, tl.h / 3), th->text);
        rd__fill(c->r, rect(x - (s == n ? 1 : 0), tl.y + tl.h - tl.h / 3, 1, tl.h / 3), th->text);
    }
}

void rd__draw_buttons(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    for (int i = 1; i < RD_ACT_COUNT_; i++) {
        SDL_Rect b = c->L.button[i];
        if (b.w <= 0)
            continue;
        bool on = (i == RD_ACT_PLAY && f->playing) || (i == RD_ACT_HELP && f->help) ||
                  (i == RD_ACT_COMPARE && f->npanels >= 2);
        rd__fill(c->r, b, on ? rd__mix(th->panel, th->accent, 0.35f) : th->panel);
        rd__frame(c->r, b, 1, th->edge);
        const char *label = rd_action_label((rd_action)i, f->lang);
        if (i == RD_ACT_PLAY && f->playing)
            label = f->lang == RD_LANG_ZH ? "暂停" : "pause";
        SDL_Rect in = rect(b.x + 2, b.y, b.w - 4, b.h);
        SDL_Rect done = rd__text(c, label, c->L.px_small, th->text, in, RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
        if (done.w == 0)
            rd__text(c, rd_action_key((rd_action)i), c->L.px_small, th->text, in,
                     RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
    }
}

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
        rd__text(c, lines[i], px, col, rect(r.x, y + i * lh, r.w, lh), RD_ALIGN_CENTER, 0);
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
        boxes[i] = rect(x0 + bx / 2, y0 + by / 2, x1 - x0 - bx, h);
    }
    float lw = fmaxf(1, th->line * c->L.ui);
    /* Device frames first: they are drawn behind what they contain. */
    for (int i = 0; i < nb; i++)
        if (d->boxes[i].kind == RD_BOX_DEVICE) {
            rd__frame(c->r, boxes[i], (int)lw, th->dim);
            rd__text(c, d->boxes[i].label, px, th->dim,
                     rect(boxes[i].x + 3, boxes[i].y + 1, boxes[i].w - 6, (int)(px * 1.3)),
                     RD_ALIGN_LEFT, 0);
        }
    SDL_Rect labels[RD_DIAGRAM_MAX_ARROWS];
    for (int i = 0; i < na; i++) {
        const rd_diagram_arrow *a = &d->arrows[i];
        labels[i] = rect(0, 0, 0, 0);
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
                labels[i] = rect((int)((ax + bx) / 2) - lw2 / 2, below + 1, lw2, strip - 1);
            } else {
                labels[i] = rect((int)((ax + bx) / 2) - lw2 / 2, (int)((ay + by) / 2) - px * 2 / 3,
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
                  rect(boxes[i].x + 2, boxes[i].y, boxes[i].w - 4, boxes[i].h));
    }
    /* Arrow labels last, so no box hides them. */
    for (int i = 0; i < na; i++)
        if (labels[i].w > 0) {
            rd__fill(c->r, labels[i], th->panel);
            rd__text(c, d->arrows[i].label, px, th->dim, labels[i], RD_ALIGN_CENTER, 0);
        }
}

/* ------------------------------------------------------------ narration */

/* One wrapped line of the narration's text column. */
typedef struct {
    char text[256];
    int px, h;       /* text size, line height */
    int gap;         /* space above the line */
    SDL_Color col;
    int bar;         /* 0 none, else a coloured bar at the left: 1 accent, 2 right, 3 wrong, 4 dim */
    bool code;       /* the line starts inside a `code` span */
    bool rule;       /* a thin rule above the line (a quiz sets itself apart) */
} narr_line;

#define NARR_LINES 192
static narr_line narr_lines[NARR_LINES];

/* The width of a line as drawn: no backticks, code in the monospace face.
 * code: whether the line starts inside a span; returns whether it ends in one. */
static int line_width(rd_ctx *c, const char *text, int px, bool *code)
{
    char seg[256];
    int w = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "`");
        if (n > 0 && n < sizeof seg) {
            memcpy(seg, p, n);
            seg[n] = '\0';
            int sw = 0;
            rd_text_measure(c->text, seg, *code ? px | RD_TEXT_MONO : px, &sw, NULL);
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
static int add_block(rd_ctx *c, int *n, const char *s, int px, SDL_Color col, int w, int bar,
                     int gap)
{
    enum { MAXL = 96, LEN = 256 };
    static char buf[MAXL][LEN];
    int first = *n;
    if (!s || !*s || w <= 8)
        return first;
    int k = rd_text_wrap(c->text, s, px, w, &buf[0][0], MAXL, LEN);
    if (strchr(s, '`')) {
        /* The wrap measured backticks and one face; code is drawn without
         * them in the monospace face: narrow the wrap until every line
         * fits as drawn. */
        for (int pct = 96; pct >= 60; pct -= 6) {
            k = rd_text_wrap(c->text, s, px, w * pct / 100, &buf[0][0], MAXL, LEN);
            bool fits = true, in_code = false;
            for (int i = 0; i < k && fits; i++) {
                if (!buf[i][0])
                    in_code = false;
                fits = line_width(c, buf[i], px, &in_code) <= w;
            }
            if (fits)
                break;
        }
    }
    bool code = false;
    for (int i = 0; i < k && *n < NARR_LINES; i++) {
        narr_line *l = &narr_lines[(*n)++];
        memcpy(l->text, buf[i], sizeof l->text); /* both LEN bytes, NUL-terminated */
        l->px = px;
        l->h = (int)(px * 1.4);
        l->gap = i == 0 ? gap : 0;
        l->col = col;
        l->bar = bar;
        l->rule = false;
        if (!buf[i][0])
            code = false; /* a span never crosses a paragraph */
        l->code = code;
        for (const char *q = buf[i]; *q; q++)
            if (*q == '`')
                code = !code;
    }
    return first;
}

/* Draws one line, its `code` spans in the monospace face and the accent
 * colour. */
static void draw_line(rd_ctx *c, const narr_line *l, SDL_Rect box, SDL_Color accent)
{
    if (!strchr(l->text, '`') && !l->code) {
        rd__text(c, l->text, l->px, l->col, box, RD_ALIGN_LEFT, 0);
        return;
    }
    char seg[256];
    bool code = l->code;
    int x = box.x;
    const char *p = l->text;
    while (*p && x < box.x + box.w) {
        size_t n = strcspn(p, "`");
        if (n > 0) {
            snprintf(seg, sizeof seg, "%.*s", (int)n, p);
            SDL_Rect r = rd__text(c, seg, code ? l->px | RD_TEXT_MONO : l->px,
                                  code ? accent : l->col, rect(x, box.y, box.x + box.w - x, box.h),
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

/* Choice buttons: each label wrapped onto at most max lines (an answer
 * can run to 180 characters; five lines of a narrow panel hold it). */
#define CHOICE_LINES 5
static int choice_lines(rd_ctx *c, const char *label, int px, int w, char (*out)[256], int max)
{
    enum { MAXL = 12 };
    char buf[MAXL][256];
    int k = rd_text_wrap(c->text, label ? label : "", px, w, &buf[0][0], MAXL, 256);
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

void rd__draw_narration(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_narration *nv = &f->narr;
    SDL_Rect nr = c->L.narration;
    rd__fill(c->r, nr, th->panel);
    int pad = (int)fmaxf(4, 10 * c->L.ui);
    int px = c->L.px_text, lh = (int)(px * 1.4);
    SDL_Rect in = rect(nr.x + pad, nr.y + pad, nr.w - 2 * pad, nr.h - 2 * pad);
    for (int i = 0; i < RD_MAX_CHOICES; i++)
        c->L.choice[i] = rect(0, 0, 0, 0);
    for (int i = 0; i < RD_MAX_NAV; i++)
        c->L.nav[i] = rect(0, 0, 0, 0);
    c->L.input = rect(0, 0, 0, 0);

    /* Bottom up: the diagram (unless it sits beside the stage), the
     * navigation row, the footer, the answers and the typed-answer field
     * take their room; the text column gets the rest. */
    int bottom = in.y + in.h;
    SDL_Rect diag = rect(0, 0, 0, 0);
    if (nv->diagram && nv->diagram->nboxes > 0 && c->L.diagram.w <= 0) {
        int dh = in.h * 2 / 5;
        diag = rect(in.x, in.y + in.h - dh, in.w, dh);
        bottom = diag.y - pad;
    }
    int nnav = nv->nnav < RD_MAX_NAV ? nv->nnav : RD_MAX_NAV;
    if (nnav > 0) {
        int bh = (int)(px * 1.9), gap = (int)fmaxf(2, 4 * c->L.ui);
        int bw = (in.w - gap * (nnav - 1)) / nnav;
        for (int i = 0; i < nnav; i++) {
            SDL_Rect b = rect(in.x + i * (bw + gap), bottom - bh, bw, bh);
            rd__fill(c->r, b, th->card);
            rd__frame(c->r, b, 1, th->edge);
            rd__text(c, nv->nav[i] ? nv->nav[i] : "", c->L.px_small, th->text,
                     rect(b.x + 3, b.y, b.w - 6, b.h), RD_ALIGN_CENTER, 0);
            c->L.nav[i] = b;
        }
        bottom -= bh + pad / 2;
    }
    int foot = nv->footer ? (int)(c->L.px_small * 1.5) : 0;
    if (foot) {
        bottom -= foot;
        rd__text(c, nv->footer, c->L.px_small, th->dim, rect(in.x, bottom, in.w, foot),
                 RD_ALIGN_LEFT, 0);
        bottom -= pad / 3;
    }
    /* Answers: as many lines each as fit, keeping four lines of text. */
    int nch = nv->nchoices < RD_MAX_CHOICES ? nv->nchoices : RD_MAX_CHOICES;
    int input_h = nv->input ? (int)(px * 2.0) : 0;
    int min_text = in.y + 4 * lh;
    int numw = 0;
    rd_text_measure(c->text, "0 ", px, &numw, NULL);
    int tw = in.w - 12 - numw - 6;
    static char clines[RD_MAX_CHOICES][CHOICE_LINES][256];
    int ncl[RD_MAX_CHOICES];
    int need = 0;
    for (int maxl = CHOICE_LINES;; maxl--) {
        need = 0;
        for (int i = 0; i < nch; i++) {
            ncl[i] = choice_lines(c, nv->choices[i], px, tw, clines[i], maxl);
            need += ncl[i] * lh + (int)(px * 0.5) + 4;
        }
        if (maxl == 1 || bottom - need - input_h >= min_text)
            break;
    }
    int y = bottom - need;
    for (int i = 0; i < nch; i++) {
        int bh = ncl[i] * lh + (int)(px * 0.5);
        SDL_Rect b = rect(in.x, y, in.w, bh);
        y += bh + 4;
        if (b.y < in.y)
            continue; /* no room at all (a tiny window) */
        int st = nv->choice_state[i] & 3;
        SDL_Color fill = st == RD_CHOICE_PICKED  ? rd__mix(th->card, th->accent, 0.35f)
                         : st == RD_CHOICE_RIGHT ? rd__mix(th->card, rd_rank_color(2), 0.5f)
                         : st == RD_CHOICE_WRONG ? rd__mix(th->card, th->warn, 0.5f)
                                                 : th->card;
        rd__fill(c->r, b, fill);
        rd__frame(c->r, b, st == RD_CHOICE_PICKED ? 2 : 1, st == RD_CHOICE_PICKED ? th->accent : th->edge);
        char num[8];
        snprintf(num, sizeof num, "%d", i + 1);
        int ty = b.y + (b.h - ncl[i] * lh) / 2;
        rd__text(c, num, px, th->accent, rect(b.x + 6, ty, numw, lh), RD_ALIGN_LEFT, 0);
        for (int k = 0; k < ncl[i]; k++)
            if (clines[i][k][0])
                rd__text(c, clines[i][k], px, th->text, rect(b.x + 6 + numw + 6, ty + k * lh, tw, lh),
                         RD_ALIGN_LEFT, 0);
        c->L.choice[i] = b;
    }
    if (nch > 0)
        bottom -= need;
    if (nv->input) {
        SDL_Rect box = rect(in.x, bottom - input_h, in.w, (int)(px * 1.8));
        rd__fill(c->r, box, th->card);
        rd__frame(c->r, box, (int)fmaxf(1, th->line * c->L.ui), th->accent);
        char field[96];
        snprintf(field, sizeof field, "%s|", nv->input);
        SDL_Rect tr = rd__text(c, field, px, th->text, rect(box.x + 8, box.y, box.w / 2, box.h),
                               RD_ALIGN_LEFT, 0);
        if (nv->input_unit && *nv->input_unit)
            rd__text(c, nv->input_unit, px, th->dim,
                     rect(tr.x + (tr.w > 0 ? tr.w : 0) + px / 2, box.y,
                          box.x + box.w - 8 - (tr.x + tr.w + px / 2), box.h),
                     RD_ALIGN_LEFT, 0);
        c->L.input = box;
        bottom -= input_h;
    }

    /* The text column: kicker, title, body, then the quiz's question and
     * verdict; what does not fit scrolls. */
    SDL_Rect col = rect(in.x, in.y, in.w, bottom - pad / 2 - in.y);
    int barw = (int)fmaxf(2, 3 * c->L.ui), indent = barw + (int)fmaxf(4, 8 * c->L.ui);
    int n = 0;
    add_block(c, &n, nv->kicker, c->L.px_small, th->accent, col.w, 0, 0);
    add_block(c, &n, nv->title, c->L.px_big, th->text, col.w, 0, n > 0 ? pad / 3 : 0);
    add_block(c, &n, nv->body, px, th->text, col.w, 0, n > 0 ? pad / 2 : 0);
    int q = add_block(c, &n, nv->prompt, px, th->text, col.w - indent, 1, pad);
    if (q < n)
        narr_lines[q].rule = true;
    int fb = nv->feedback_state == RD_CHOICE_RIGHT ? 2 : nv->feedback_state == RD_CHOICE_WRONG ? 3 : 4;
    add_block(c, &n, nv->feedback, px, th->text, col.w - indent, fb, pad / 2);
    int total = 0;
    for (int i = 0; i < n; i++)
        total += narr_lines[i].gap + narr_lines[i].h;
    int more_h = (int)(c->L.px_small * 1.4);
    int scroll_max = 0;
    if (total > col.h) {
        /* The fewest lines off the top that let the rest fit above the
         * "more" marker. */
        int rest = total;
        while (scroll_max < n - 1 && rest > col.h - more_h) {
            rest -= narr_lines[scroll_max].gap + narr_lines[scroll_max].h;
            scroll_max++;
        }
    }
    int scroll = nv->scroll < 0 ? 0 : nv->scroll > scroll_max ? scroll_max : nv->scroll;
    c->L.narr_scroll = scroll;
    c->L.narr_scroll_max = scroll_max;
    int limit = col.y + col.h - (scroll_max > 0 ? more_h : 0);
    y = col.y;
    int shown = scroll;
    for (int i = scroll; i < n; i++) {
        const narr_line *l = &narr_lines[i];
        int gy = y + (i > scroll ? l->gap : 0);
        if (gy + l->h > limit)
            break;
        if (l->rule)
            rd__fill(c->r, rect(col.x, gy - l->gap / 2, col.w, 1), th->edge);
        SDL_Rect box = rect(col.x, gy, col.w, l->h);
        if (l->bar) {
            rd__fill(c->r, rect(col.x, gy, barw, l->h), bar_color(th, l->bar));
            box = rect(col.x + indent, gy, col.w - indent, l->h);
        }
        if (l->text[0])
            draw_line(c, l, box, th->accent);
        y = gy + l->h;
        shown = i + 1;
    }
    if (scroll_max > 0) {
        /* Say which way the rest of the text is. */
        bool zh = f->lang == RD_LANG_ZH;
        /* (The CJK font draws triangles tiny: arrows in Chinese.) */
        const char *more = shown < n && scroll > 0 ? "\xE2\x96\xB2 \xE2\x96\xBC"
                           : shown < n             ? (zh ? "\xE2\x86\x93 更多" : "\xE2\x96\xBC more")
                                                   : (zh ? "\xE2\x86\x91 上面还有" : "\xE2\x96\xB2 more above");
        rd__text(c, more, c->L.px_small, th->accent, rect(col.x, limit, col.w, more_h),
                 RD_ALIGN_RIGHT, 0);
    }
    y += pad;
    int m = n, first = nv->step ? add_block(c, &m, nv->step, px, th->text, col.w, 0, 0) : n;
    /* A lesson shows the step's description whole or not at all; the plain
     * window shows what fits. */
    bool fits = !f->lesson || y + pad / 2 + lh * (1 + m - first) <= col.y + col.h;
    if (nv->step && y + px * 3 < col.y + col.h && shown >= n && fits) {
        rd__fill(c->r, rect(in.x, y, in.w, 1), th->edge);
        y += pad / 2;
        rd__text(c, rd_str(f->lang, RD_S_THIS_STEP), px, th->accent, rect(in.x, y, in.w, lh),
                 RD_ALIGN_LEFT, 0);
        y += lh;
        for (int i = first; i < m; i++) {
            if (y + narr_lines[i].h > col.y + col.h)
                break;
            if (narr_lines[i].text[0])
                rd__text(c, narr_lines[i].text, px, th->text, rect(in.x, y, in.w, narr_lines[i].h),
                         RD_ALIGN_LEFT, 0);
            y += narr_lines[i].h;
        }
    }
    if (diag.w > 0)
        draw_diagram(c, f, nv->diagram, diag);
}

void rd__draw_side_diagram(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect d = c->L.diagram;
    if (d.w <= 0 || !f->narr.diagram)
        return;
    rd__fill(c->r, d, th->panel);
    int pad = (int)fmaxf(3, 6 * c->L.ui);
    draw_diagram(c, f, f->narr.diagram, rect(d.x + pad, d.y + pad, d.w - 2 * pad, d.h - 2 * pad));
}

void rd__draw_message(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect m = c->L.message;
    if (m.w <= 0 || m.h <= 0)
        return;
    rd__fill(c->r, m, th->panel);
    rd__frame(c->r, m, (int)fmaxf(2, th->line * c->L.ui), th->warn);
    rd__text(c, f->message, c->L.px_text, th->text, rect(m.x + 8, m.y, m.w - 16, m.h),
             RD_ALIGN_CENTER, 1);
}

void rd__draw_tooltip(rd_ctx *c, const rd_frame *f)
{
    if (f->mouse_x < 0 || f->mouse_y < 0 || f->help)
        return;
    rd_hit h = rd_hit_test(c, f->mouse_x, f->mouse_y);
    if (h.kind != RD_HIT_CELL)
        return;
    const rd_panel *panel = &f->panels[h.panel];
    if (!panel->trace || !panel->state)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    const cv_spec *spec = &cv_trace_plan(panel->trace)->spec;
    cv_bufview v = cv_state_buf(panel->state, h.rank, h.buf);
    if (h.first >= v.count || h.count <= 0)
        return;
    static const rd_string names[CV_BUF_COUNT] = {RD_S_IN, RD_S_OUT, RD_S_TMP};
    char lines[4][160];
    int n = 0;
    char gpu[32];
    rd_strf(f->lang, RD_S_GPU, gpu, sizeof gpu, h.rank, 0);
    uint64_t mask = 0;
    int32_t last = -1;
    for (int64_t i = h.first; i < h.first + h.count && i < v.count; i++) {
        mask |= v.masks ? v.masks[i] : 0;
        if (v.last_changed && v.last_changed[i] > last)
            last = v.last_changed[i];
    }
    if (h.count == 1) {
        snprintf(lines[n++], sizeof lines[0], "%s  \xC2\xB7  %s[%lld]", gpu, rd_str(f->lang, names[h.buf]),
                 (long long)h.first);
        char val[48];
        cv_value_format(spec->dtype, v.values, h.first, val, sizeof val);
        snprintf(lines[n++], sizeof lines[0], "%s %s", rd_str(f->lang, RD_S_VALUE), val);
    } else {
        snprintf(lines[n++], sizeof lines[0], "%s  \xC2\xB7  %s[%lld..%lld]", gpu,
                 rd_str(f->lang, names[h.buf]), (long long)h.first, (long long)(h.first + h.count - 1));
    }
    int chunk = rd__chunk_of(spec, h.buf, h.rank, h.first);
    char letter[8];
    rd_chunk_name(chunk, letter, sizeof letter);
    size_t len = (size_t)snprintf(lines[n], sizeof lines[0], "%s:", rd_str(f->lang, RD_S_FROM));
    int listed = 0;
    for (int r = 0; r < 64 && len + 12 < sizeof lines[0]; r++)
        if (mask >> r & 1) {
            if (listed == 12) {
                len += (size_t)snprintf(lines[n] + len, sizeof lines[0] - len, " ... (%d)",
                                        __builtin_popcountll(mask));
                break;
            }
            len += (size_t)snprintf(lines[n] + len, sizeof lines[0] - len, " %s%d",
                                    chunk >= 0 ? letter : "", r);
            listed++;
        }
    if (!mask)
        snprintf(lines[n] + len, sizeof lines[0] - len, " -");
    n++;
    if (last >= 0)
        rd_strf(f->lang, RD_S_LAST_CHANGED, lines[n++], sizeof lines[0], last + 1, 0);
    else
        snprintf(lines[n++], sizeof lines[0], "%s",
                 rd_str(f->lang, mask ? RD_S_INITIAL : RD_S_NEVER));
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
    int x = f->mouse_x + 16, y = f->mouse_y + 16;
    if (x + w > c->L.w)
        x = f->mouse_x - w - 8;
    if (y + hh > c->L.h)
        y = f->mouse_y - hh - 8;
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    SDL_Rect box = rect(x, y, w, hh);
    rd__fill(c->r, box, th->panel);
    rd__frame(c->r, box, 1, th->accent);
    for (int i = 0; i < n; i++)
        rd__text(c, lines[i], px, i == 0 ? th->accent : th->text,
                 rect(x + pad, y + pad + i * lh, w - 2 * pad, lh), RD_ALIGN_LEFT, 1);
}

/* Row i of the help: its key and what it does; false for an empty slot. */
static bool help_row(const rd_frame *f, int i, const char **key, const char **help)
{
    static const char *extra_keys[2] = {"mouse", "F11"};
    static const char *extra_help[2][RD_LANG_COUNT] = {
        {"click or drag the timeline; hover a cell for its value",
         "点击或拖动时间轴；悬停在格子上查看数值"},
        {"full screen (also --fullscreen)", "全屏（也可用 --fullscreen）"},
    };
    if (i < RD_ACT_COUNT_ - 1) {
        *key = rd_action_key((rd_action)(i + 1));
        *help = rd_action_help((rd_action)(i + 1), f->lang);
    } else if (i < RD_ACT_COUNT_ - 1 + 2) {
        *key = extra_keys[i - (RD_ACT_COUNT_ - 1)];
        *help = extra_help[i - (RD_ACT_COUNT_ - 1)][f->lang == RD_LANG_ZH];
    } else {
        *key = f->help_extra[i - (RD_ACT_COUNT_ + 1)][0];
        *help = f->help_extra[i - (RD_ACT_COUNT_ + 1)][1];
    }
    return *key && *help;
}

void rd__draw_help(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_layout *L = &c->L;
    int px = L->px_text, lh = (int)(px * 1.45);
    int nextra = f->nhelp_extra < 0 ? 0 : f->nhelp_extra > RD_MAX_HELP_EXTRA ? RD_MAX_HELP_EXTRA
                                                                             : f->nhelp_extra;
    int rows = RD_ACT_COUNT_ - 1 + 2 + nextra; /* actions, mouse, F11, the app's own */
    int pad = (int)(12 * L->ui);
    int avail = L->h - 2 * pad - 3 * lh;
    int cols = rows * lh > avail ? 2 : 1;
    int per = (rows + cols - 1) / cols;
    /* Columns as wide as their longest line, so no help is cut short
     * where the window has room for it. */
    int key_w = px * 4, text_w = px * 22;
    for (int i = 0; i < rows; i++) {
        const char *key, *help;
        int tw = 0;
        if (!help_row(f, i, &key, &help))
            continue;
        rd_text_measure(c->text, key, px, &tw, NULL);
        key_w = tw + px > key_w ? tw + px : key_w;
        rd_text_measure(c->text, help, px, &tw, NULL);
        text_w = tw > text_w ? tw : text_w;
    }
    int col_w = (int)fminf((L->w - 2 * pad) / cols, key_w + text_w + pad);
    int w = col_w * cols + 2 * pad, h = per * lh + 3 * lh + 2 * pad;
    if (w > L->w)
        w = L->w;
    if (h > L->h)
        h = L->h;
    SDL_Rect box = rect((L->w - w) / 2, (L->h - h) / 2, w, h);
    SDL_Color shade = th->bg;
    shade.a = 200;
    rd__fill(c->r, rect(0, 0, L->w, L->h), shade);
    rd__fill(c->r, box, th->panel);
    rd__frame(c->r, box, (int)fmaxf(1, th->line * L->ui), th->accent);
    rd__text(c, rd_str(f->lang, RD_S_HELP_TITLE), L->px_big, th->accent,
             rect(box.x + pad, box.y + pad, box.w - 2 * pad, (int)(L->px_big * 1.4)), RD_ALIGN_LEFT, 1);
    int top = box.y + pad + (int)(L->px_big * 1.4) + lh / 2;
    for (int i = 0; i < rows; i++) {
        int col = i / per, row = i % per;
        int x = box.x + pad + col * col_w, y = top + row * lh;
        if (y + lh > box.y + box.h - lh)
            break;
        const char *key, *help;
        if (!help_row(f, i, &key, &help))
            continue;
        rd__text(c, key, px, th->accent, rect(x, y, key_w - 4, lh), RD_ALIGN_LEFT, 1);
        rd__text(c, help, px, th->text, rect(x + key_w, y, col_w - key_w - pad, lh), RD_ALIGN_LEFT, 1);
    }
    rd__text(c, rd_str(f->lang, RD_S_HELP_CLOSE), L->px_small, th->dim,
             rect(box.x + pad, box.y + box.h - pad - lh, box.w - 2 * pad, lh), RD_ALIGN_LEFT, 1);
}
