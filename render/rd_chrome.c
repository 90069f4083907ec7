/*
 * rd_chrome.c: the frame around the stage: the header with the numbers,
 * compare-mode captions, legends, the timeline with step marks and phase
 * bands, and the button bar (every key has a button). The narration panel
 * is in rd_narration.c, the message, tooltip and help in rd_overlay.c.
 *
 * Numbers come straight from the core: cv_cost_step/cv_cost_plan for bytes
 * and model time, cv_trace_step_seconds for the measured time; nothing here
 * re-derives an algorithm's behaviour.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

static int max_steps(const rd_frame *f)
{
    int n = 0;
    for (int p = 0; p < f->npanels && p < 2; p++)
        if (f->panels[p].trace && cv_trace_plan(f->panels[p].trace)->nsteps > n)
            n = cv_trace_plan(f->panels[p].trace)->nsteps;
    return n;
}

/* The round a frame at time t shows: the one in flight, or, paused on a
 * state, the last one done (0 before the first). */
static int shown_round(const cv_plan *plan, double t)
{
    int step;
    double frac;
    rd_shown_step(plan, t, &step, &frac);
    if (step >= plan->nsteps)
        return plan->nrounds;
    if (frac > 0)
        return plan->steps[step].round;
    return step > 0 ? plan->steps[step - 1].round : 0;
}

/* "step 3 of 6", the one wording for every moment: in flight, paused after
 * a step (the state it made), at the start (step 0) and at the end. A step
 * a learner counts is a communication round (plan->nrounds); a local
 * sub-phase of a round shows its round's number. */
static void step_words(const rd_frame *f, const cv_plan *plan, char *out, size_t outlen)
{
    rd_strf(f->lang, RD_S_STEP_OF, out, outlen, shown_round(plan, f->t), plan->nrounds);
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
    rd_shown_step(plan, f->t, &step, NULL);
    char words[64], busy[32], total[32], meas[32], model[32];
    step_words(f, plan, words, sizeof words);
    cv_cost cost;
    memset(&cost, 0, sizeof cost);
    if (link)
        cv_cost_plan(plan, link, &cost);
    rd__fmt_bytes((double)cost.busiest_total, total, sizeof total);
    cv_lang L = f->lang;
    if (step < plan->nsteps) {
        step = rd_ref_step(plan->nsteps, f->t, NULL);
        int64_t bytes = 0;
        double ms = link ? cv_cost_step(plan, step, link, &bytes) : 0;
        rd__fmt_bytes((double)bytes, busy, sizeof busy);
        rd__fmt_seconds(f->hide_measured ? 0 : cv_trace_step_seconds(p->trace, step), meas, sizeof meas);
        rd__fmt_seconds(ms, model, sizeof model);
        /* A step that stays on each GPU costs nothing on a link: say so
         * rather than leaving a bare "-". */
        const char *where = link && link->name ? link->name : "-";
        if (link && bytes == 0) {
            snprintf(model, sizeof model, "0");
            where = rd_str(f->lang, RD_S_LOCAL);
        }
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
                 rd_str(L, RD_S_MODEL), model, where);
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
    SDL_Rect line1 = rd__rect(pad, pad / 2, L->w - 2 * pad, l1h);
    SDL_Rect line2 = rd__rect(pad, pad / 2 + l1h, L->w - 2 * pad, l2h);
    char right[64];
    snprintf(right, sizeof right, "%s  %gx", rd_str(f->lang, f->playing ? RD_S_PLAYING : RD_S_PAUSED),
             f->speed);
    int rw = 0;
    rd_text_measure(c->text, right, L->px_text, &rw, NULL);
    if (rw > line1.w / 3)
        rw = line1.w / 3;
    rd__text(c, right, L->px_text, f->playing ? th->accent : th->dim,
             rd__rect(line1.x + line1.w - rw, line1.y, rw, line1.h), RD_ALIGN_RIGHT, 0);
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
        /* Each side's step is in its caption; the header says which. */
        char w0[160], a[64], b[64];
        step_words(f, cv_trace_plan(f->panels[0].trace), a, sizeof a);
        if (f->panels[1].trace)
            step_words(f, cv_trace_plan(f->panels[1].trace), b, sizeof b);
        else
            b[0] = '\0';
        snprintf(w0, sizeof w0, "%s: %s  \xC2\xB7  %s: %s", cv_algo_name(s->algo), a,
                 f->panels[1].trace ? cv_algo_name(cv_trace_plan(f->panels[1].trace)->spec.algo) : "-", b);
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
    char sent[32], model[32], buf[256], formula[64], eq[72] = "";
    rd__fmt_bytes((double)cost.max_sent, sent, sizeof sent);
    rd__fmt_seconds(cost.seconds, model, sizeof model);
    /* the textbook's formula beside the count, where the plan has exactly it */
    if (cv_plan_textbook_rounds(plan, formula, sizeof formula) == plan->nrounds &&
        plan->spec.ranks > 1)
        snprintf(eq, sizeof eq, " = %s", formula);
    if (f->lang == CV_LANG_ZH)
        snprintf(buf, sizeof buf, "%s：%d 步%s \xC2\xB7 每进程发送 %s \xC2\xB7 模型 %s",
                 cv_algo_name(plan->spec.algo), plan->nrounds, eq, sent, model);
    else
        snprintf(buf, sizeof buf, "%s: %d steps%s \xC2\xB7 %s/rank \xC2\xB7 model %s",
                 cv_algo_name(plan->spec.algo), plan->nrounds, eq, sent, model);
    /* Too wide (a projector's type in a half-width panel): the three
     * numbers the comparison is about, with fewer words around them. */
    int w1 = 0;
    rd_text_measure(c->text, buf, c->L.px_text, &w1, NULL);
    if (w1 > pl->caption.w - 8)
        snprintf(buf, sizeof buf, f->lang == CV_LANG_ZH ? "%s：%d 步%s \xC2\xB7 %s \xC2\xB7 %s"
                                                        : "%s: %d steps%s \xC2\xB7 %s \xC2\xB7 %s",
                 cv_algo_name(plan->spec.algo), plan->nrounds, eq, sent, model);
    rd_text_measure(c->text, buf, c->L.px_text, &w1, NULL);
    if (w1 > pl->caption.w - 8) /* still too wide: the formula goes first */
        snprintf(buf, sizeof buf, f->lang == CV_LANG_ZH ? "%s：%d 步 \xC2\xB7 %s \xC2\xB7 %s"
                                                        : "%s: %d steps \xC2\xB7 %s \xC2\xB7 %s",
                 cv_algo_name(plan->spec.algo), plan->nrounds, sent, model);
    int h = pl->caption.h / 2;
    rd__fill(c->r, pl->caption, th->panel);
    rd__text(c, buf, c->L.px_text, th->text, rd__rect(pl->caption.x + 4, pl->caption.y, pl->caption.w - 8, h),
             RD_ALIGN_LEFT, 0);
    /* Every number where it fits; else the ones the first line lacks. */
    step_numbers(f, panel, false, buf, sizeof buf);
    int tw = 0;
    rd_text_measure(c->text, buf, c->L.px_small, &tw, NULL);
    if (tw > pl->caption.w - 8)
        step_numbers(f, panel, true, buf, sizeof buf);
    rd__text(c, buf, c->L.px_small, th->dim,
             rd__rect(pl->caption.x + 4, pl->caption.y + h, pl->caption.w - 8, pl->caption.h - h),
             RD_ALIGN_LEFT, 0);
}

/* Under a panel: every rank's colour (swatches with numbers where they
 * all fit, else one strip of all the colours: never some ranks only), then
 * what the cells' words mean, as much as fits, most needed first. */
void rd__draw_legend(rd_ctx *c, const rd_frame *f, int p)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    SDL_Rect lg = pl->legend;
    if (lg.h <= 0 || pl->nranks == 0)
        return;
    int px = c->L.px_small;
    int x = lg.x, right = lg.x + lg.w;
    int sw = (int)(px * 0.8);
    int need = 0;
    for (int r = 0; r < pl->nranks; r++) {
        char num[16];
        int tw = 0;
        snprintf(num, sizeof num, "%d", r);
        rd_text_measure(c->text, num, px, &tw, NULL);
        need += sw + 2 + tw + px / 2;
    }
    if (pl->nranks <= 16 && need <= lg.w * 3 / 5) {
        for (int r = 0; r < pl->nranks; r++) {
            char num[16];
            snprintf(num, sizeof num, "%d", r);
            rd__fill(c->r, rd__rect(x, lg.y + (lg.h - sw) / 2, sw, sw), rd_theme_rank_color(th, r));
            SDL_Rect t = rd__text(c, num, px, th->dim, rd__rect(x + sw + 2, lg.y, right - x - sw - 2, lg.h),
                                  RD_ALIGN_LEFT, 0);
            x = t.x + t.w + px / 2;
        }
    } else {
        /* A strip of all the colours, from rank 0 to the last. */
        int w = (int)fminf(lg.w / 4.0f, fmaxf(pl->nranks * 3.0f, 120 * c->L.ui));
        char ends[32];
        snprintf(ends, sizeof ends, "0");
        SDL_Rect t = rd__text(c, ends, px, th->dim, rd__rect(x, lg.y, px * 2, lg.h), RD_ALIGN_LEFT, 0);
        x = t.x + t.w + 3;
        for (int r = 0; r < pl->nranks; r++)
            rd__fill(c->r, rd__rect(x + w * r / pl->nranks, lg.y + (lg.h - sw) / 2,
                                    w * (r + 1) / pl->nranks - w * r / pl->nranks, sw),
                     rd_theme_rank_color(th, r));
        x += w + 3;
        snprintf(ends, sizeof ends, "%d", pl->nranks - 1);
        t = rd__text(c, ends, px, th->dim, rd__rect(x, lg.y, px * 3, lg.h), RD_ALIGN_LEFT, 0);
        x = t.x + t.w + px / 2;
    }
    int64_t group = 1;
    bool blocks = false;
    for (int r = 0; r < pl->nranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            if (pl->cards[r].mode[b] == RD_ROW_STRIPES && pl->cards[r].group[b] > group)
                group = pl->cards[r].group[b];
            blocks |= pl->cards[r].mode[b] == RD_ROW_CHUNKS && pl->cards[r].cells[b] > 0;
        }
    /* The parts, most needed first; drawn left to right as far as they fit. */
    char agg[96] = "", parts[4][160];
    int np = 0;
    if (group > 1) {
        rd_strf(f->lang, RD_S_AGGREGATED, agg, sizeof agg, (long long)group, 0);
        snprintf(parts[np++], sizeof parts[0], "%s", agg);
    }
    if (blocks)
        snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_BLOCK));
    snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_CHUNK));
    snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_DOT));
    const char *dot = "  \xC2\xB7  ";
    int dw = 0;
    rd_text_measure(c->text, dot, px, &dw, NULL);
    for (int i = 0; i < np; i++) {
        int tw = 0;
        rd_text_measure(c->text, parts[i], px, &tw, NULL);
        if (x + tw > right)
            break;
        rd__text(c, parts[i], px, i == 0 && group > 1 ? th->accent : th->dim,
                 rd__rect(x, lg.y, tw + 1, lg.h), RD_ALIGN_LEFT, 0);
        x += tw + dw;
    }
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
        rd__fill(c->r, rd__rect(x - w / 2, tl.y - 2, w, tl.h + 4), th->accent);
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
        SDL_Rect lane = rd__rect(tl.x, tl.y + tl.h * p / lanes, tl.w, tl.h / lanes);
        int band = 0;
        for (int s = 0; s < plan->nsteps;) {
            int e = s + 1;
            const char *ph = plan->steps[s].phase ? plan->steps[s].phase : "";
            while (e < plan->nsteps && strcmp(plan->steps[e].phase ? plan->steps[e].phase : "", ph) == 0)
                e++;
            int x0 = tl.x + (int)((int64_t)tl.w * s / n), x1 = tl.x + (int)((int64_t)tl.w * e / n);
            SDL_Rect br = rd__rect(x0, lane.y, x1 - x0, lane.h);
            rd__fill(c->r, br, band++ % 2 ? th->band_b : th->band_a);
            rd__text(c, ph, c->L.px_small, th->text, rd__rect(br.x + 3, br.y, br.w - 6, br.h),
                     RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
            s = e;
        }
    }
    for (int s = 0; s <= n; s++) {
        int x = tl.x + (int)((int64_t)tl.w * s / n);
        rd__fill(c->r, rd__rect(x - (s == n ? 1 : 0), tl.y, 1, tl.h / 3), th->text);
        rd__fill(c->r, rd__rect(x - (s == n ? 1 : 0), tl.y + tl.h - tl.h / 3, 1, tl.h / 3), th->text);
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
        const char *label = rd_button_label((rd_action)i, f->lang, f->playing);
        SDL_Rect in = rd__rect(b.x + 2, b.y, b.w - 4, b.h);
        SDL_Rect done = rd__text(c, label, c->L.px_small, th->text, in, RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
        if (done.w == 0) /* a word a little smaller reads better than a key letter */
            done = rd__text(c, label, (int)(c->L.px_small * 0.8f), th->text, in,
                            RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
        if (done.w == 0 && i == RD_ACT_PLAY) {
            /* Neither "play" nor "Space" fits: the usual symbols do. */
            float sz = fminf((float)b.w, (float)b.h) * 0.45f;
            float cx = b.x + b.w / 2.0f, cy = b.y + b.h / 2.0f;
            if (f->playing) {
                int bw = (int)(sz / 3) > 1 ? (int)(sz / 3) : 1;
                rd__fill(c->r, rd__rect((int)(cx - sz / 2), (int)(cy - sz / 2), bw, (int)sz), th->text);
                rd__fill(c->r, rd__rect((int)(cx + sz / 2) - bw, (int)(cy - sz / 2), bw, (int)sz), th->text);
            } else
                rd__arrowhead(c->r, cx - sz / 2, cy, cx + sz / 2, cy, sz, th->text);
        } else if (done.w == 0 && rd_key_of((rd_action)i)) {
            rd__text(c, rd_key_of((rd_action)i)->name, c->L.px_small, th->text, in,
                     RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
        }
    }
}
