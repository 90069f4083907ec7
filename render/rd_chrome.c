/*
 * rd_chrome.c: the frame around the stage: the header with the numbers,
 * compare-mode captions, legends, the timeline with step marks and phase
 * bands, and the button bar (every key has a button). The narration panel
 * is in rd_narration.c, the message, tooltip and help in rd_overlay.c.
 *
 * What the header and the captions say is rd_words.c's, the rectangles
 * they go in the layout's; this file draws them.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

void rd__draw_header(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_layout *L = &c->L;
    rd__fill(c->r, L->header, th->panel);
    int pad = (int)fmaxf(2, 8 * L->ui);
    int l1h = (int)(L->px_big * 1.4), l2h = (int)(L->px_text * 1.4);
    SDL_Rect line1 = rd__rect(pad, pad / 2, L->w - 2 * pad, l1h);
    SDL_Rect line2 = rd__rect(pad, pad / 2 + l1h, L->w - 2 * pad, l2h);
    if (f->controls) {
        /* The player's state; an exported frame (no controls) never says
         * "paused". */
        char right[64];
        snprintf(right, sizeof right, "%s  %gx",
                 rd_str(f->lang, f->playing ? RD_S_PLAYING : RD_S_PAUSED), f->speed);
        int rw = 0;
        rd_text_measure(c->text, right, L->px_text, &rw, NULL);
        if (rw > line1.w / 3)
            rw = line1.w / 3;
        rd__text(c, right, L->px_text, f->playing ? th->accent : th->dim,
                 rd__rect(line1.x + line1.w - rw, line1.y, rw, line1.h), RD_ALIGN_RIGHT, 0);
        line1.w -= rw + pad;
    }
    const rd_panel *p0 = &f->panels[0];
    if (!p0->trace) {
        rd__text(c, "collviz", L->px_big, th->text, line1, RD_ALIGN_LEFT, 0);
        return;
    }
    char buf[512];
    rd__spec_words(c->text, f, L->px_big, line1.w, buf, sizeof buf);
    rd__text(c, buf, L->px_big, th->text, line1, RD_ALIGN_LEFT, 0);
    if (f->npanels >= 2) {
        /* Each side's step is in its caption; the header says which. */
        char w0[160];
        rd__compare_words(f, w0, sizeof w0);
        rd__text(c, w0, L->px_text, th->dim, line2, RD_ALIGN_LEFT, 0);
    } else {
        rd__step_numbers(c->text, L->px_text, line2.w, f, p0, false, buf, sizeof buf);
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
    rd__fill(c->r, pl->caption, th->panel);
    char lines[3][320];
    int lh = (int)(c->L.px_text * 1.35), sh = (int)(c->L.px_small * 1.4);
    int n = rd__caption_lines(c->text, f, panel, c->L.px_text, pl->caption.w - 8, lines, 3);
    for (int i = 0; i < n; i++)
        rd__text(c, lines[i], c->L.px_text, th->text,
                 rd__rect(pl->caption.x + 4, pl->caption.y + i * lh, pl->caption.w - 8, lh),
                 RD_ALIGN_LEFT, 0);
    /* The moment's numbers, as many as fit. */
    char buf[512];
    rd__step_numbers(c->text, c->L.px_small, pl->caption.w - 8, f, panel, true, buf, sizeof buf);
    rd__text(c, buf, c->L.px_small, th->dim,
             rd__rect(pl->caption.x + 4, pl->caption.y + n * lh, pl->caption.w - 8, sh), RD_ALIGN_LEFT, 0);
}

/* Under a panel: every rank's colour (swatches with numbers where they
 * all fit, else one strip of all the colours: never some ranks only), then
 * the nodes' shades, then what the cells' words mean, as much as fits,
 * most needed first (rd__draw_legend). Each part returns the x it ends
 * at. */
static int legend_ranks(rd_ctx *c, const rd_frame *f, int p, int x)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    SDL_Rect lg = pl->legend;
    int px = c->L.px_small, right = lg.x + lg.w, sw = (int)(px * 0.8);
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
        return x;
    }
    /* A strip of all the colours, from rank 0 to the last. */
    int w = (int)fminf(lg.w / 4.0f, fmaxf(pl->nranks * 3.0f, 120 * c->L.ui));
    char ends[32];
    snprintf(ends, sizeof ends, "0");
    SDL_Rect t = rd__text(c, ends, px, th->dim, rd__rect(x, lg.y, px * 2, lg.h), RD_ALIGN_LEFT, 0);
    x = t.x + t.w + 3;
    for (int r = 0; r < pl->nranks; r++)
        rd__fill(c->r,
                 rd__rect(x + w * r / pl->nranks, lg.y + (lg.h - sw) / 2,
                          w * (r + 1) / pl->nranks - w * r / pl->nranks, sw),
                 rd_theme_rank_color(th, r));
    x += w + 3;
    snprintf(ends, sizeof ends, "%d", pl->nranks - 1);
    t = rd__text(c, ends, px, th->dim, rd__rect(x, lg.y, px * 3, lg.h), RD_ALIGN_LEFT, 0);
    return t.x + t.w + px / 2;
}

/* The node shades, as behind the cards: "node 0", then the numbers alone,
 * as the rank colours are; "node 0 (host-a)" while they fit. */
static int legend_nodes(rd_ctx *c, const rd_frame *f, int p, int nodes, int x)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect lg = c->L.panels[p].legend;
    int px = c->L.px_small, right = lg.x + lg.w, sw = (int)(px * 0.8);
    for (int k = 0; nodes > 1 && k < nodes; k++) {
        char name[96];
        const char *host = k < RD_MAX_NODE_HOSTS ? f->node_host[k] : NULL;
        if (k == 0 || nodes == 2)
            rd_strf(f->lang, RD_S_NODE, name, sizeof name, k, 0);
        else
            snprintf(name, sizeof name, "%d", k);
        if (host && host[0] && nodes <= 4) {
            size_t used = strlen(name);
            snprintf(name + used, sizeof name - used, " (%.40s)", host);
        }
        int tw = 0;
        rd_text_measure(c->text, name, px, &tw, NULL);
        if (x + sw * 2 + 4 + tw > right)
            break;
        if (k == 0)
            x += px / 2;
        rd__fill(c->r, rd__rect(x, lg.y + (lg.h - sw) / 2, sw * 2, sw), rd__node_shade(th, k));
        rd__frame(c->r, rd__rect(x, lg.y + (lg.h - sw) / 2, sw * 2, sw), 1, th->edge);
        SDL_Rect t = rd__text(c, name, px, th->dim, rd__rect(x + sw * 2 + 3, lg.y, right - x - sw * 2 - 3, lg.h),
                              RD_ALIGN_LEFT, 0);
        x = t.x + t.w + px / 2;
    }
    return x;
}

/* What the cells' words mean: cells that stand for several elements,
 * dashed links, chunk blocks, then the chunk letters and the dot; drawn
 * left to right as far as they fit. */
static void legend_words(rd_ctx *c, const rd_frame *f, int p, int nodes, int x)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    SDL_Rect lg = pl->legend;
    int px = c->L.px_small, right = lg.x + lg.w;
    int64_t group = 0; /* > 0: some row shows stripes only, of this many elements a cell */
    bool blocks = false;
    /* a cell this short draws its stripes only; one this narrow has no room for digits */
    int bare_h = rd__stripe_h(pl->cell_px) + 4, bare_w = pl->cell_px;
    for (int r = 0; r < pl->nranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            const rd_card_layout *cl = &pl->cards[r];
            bool bare = cl->cells[b] > 0 &&
                        (cl->mode[b] == RD_ROW_STRIPES ||
                         (cl->mode[b] == RD_ROW_CELLS && (rd_cell_rect(cl, b, 0).h < bare_h ||
                                                          rd_cell_rect(cl, b, 0).w < bare_w)));
            if (bare && cl->group[b] > group)
                group = cl->group[b];
            blocks |= pl->cards[r].mode[b] == RD_ROW_CHUNKS && pl->cards[r].cells[b] > 0;
        }
    char agg[96] = "", parts[7][160];
    int np = 0;
    if (group > 0) { /* bars without numbers, one element a cell or more: hover reads them */
        rd_strf(f->lang, RD_S_AGGREGATED, agg, sizeof agg, (long long)group, 0);
        snprintf(parts[np++], sizeof parts[0], "%s", agg);
    }
    if (nodes > 1)
        snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_NET));
    if (blocks)
        snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_BLOCK));
    /* + and - in a label mean summed: an op that sums nothing gets its own
     * words, for one rank's block and a run of them */
    const cv_plan *plan = f->panels[p].trace ? cv_trace_plan(f->panels[p].trace) : NULL;
    /* a protocol other than Simple: what each chunk in flight is made of */
    if (plan && plan->spec.proto != CV_PROTO_SIMPLE)
        snprintf(parts[np++], sizeof parts[0], "%s",
                 rd_str(f->lang, plan->spec.proto == CV_PROTO_LL ? RD_S_LEGEND_LL
                                                                  : RD_S_LEGEND_LL128));
    bool sums = !plan || cv_op_reduces(plan->spec.op);
    snprintf(parts[np++], sizeof parts[0], "%s",
             rd_str(f->lang, sums ? RD_S_LEGEND_CHUNK : RD_S_LEGEND_GATHERED));
    if (plan && plan->spec.ranks > 52) /* chunks past z and Z are numbered */
        snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_NUMBERED));
    snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_DOT));
    const char *dot = "  \xC2\xB7  ";
    int dw = 0;
    rd_text_measure(c->text, dot, px, &dw, NULL);
    for (int i = 0; i < np; i++) {
        int tw = 0;
        rd_text_measure(c->text, parts[i], px, &tw, NULL);
        if (x + tw > right)
            break;
        rd__text(c, parts[i], px, i == 0 && group > 0 ? th->accent : th->dim,
                 rd__rect(x, lg.y, tw + 1, lg.h), RD_ALIGN_LEFT, 0);
        x += tw + dw;
    }
}

void rd__draw_legend(rd_ctx *c, const rd_frame *f, int p)
{
    const rd_panel_layout *pl = &c->L.panels[p];
    if (pl->legend.h <= 0 || pl->nranks == 0)
        return;
    int x = legend_ranks(c, f, p, pl->legend.x);
    const cv_plan *lplan = f->panels[p].trace ? cv_trace_plan(f->panels[p].trace) : NULL;
    int nodes = lplan ? cv_spec_nodes(&lplan->spec) : 1;
    x = legend_nodes(c, f, p, nodes, x);
    if (nodes > 1)
        x += c->L.px_small;
    legend_words(c, f, p, nodes, x);
}

/* Where step boundary k of panel p is on the timeline: by step, or in
 * compare mode by the model time spent up to it, on one axis for both
 * sides (so the learner sees which finishes first). */
static bool model_axis(const rd_frame *f) { return f->npanels >= 2 && f->panels[0].t >= 0; }

static double plan_model_time(const rd_panel *p, int upto)
{
    const cv_plan *plan = cv_trace_plan(p->trace);
    double s = 0;
    for (int k = 0; k < upto && k < plan->nsteps; k++) {
        int64_t bytes = 0;
        s += rd__cost_step(p, plan, k, &bytes);
    }
    return s;
}

void rd__draw_timeline(rd_ctx *c, const rd_frame *f, bool cursor)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect tl = c->L.timeline;
    int n = c->L.nsteps;
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
    bool model = model_axis(f);
    double tmax = 0;
    for (int p = 0; model && p < lanes; p++)
        if (f->panels[p].trace) {
            double tt = plan_model_time(&f->panels[p], cv_trace_plan(f->panels[p].trace)->nsteps);
            tmax = tt > tmax ? tt : tmax;
        }
    if (tmax <= 0)
        model = false;
    for (int p = 0; p < lanes; p++) {
        if (!f->panels[p].trace)
            continue;
        const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
        SDL_Rect lane = rd__rect(tl.x, tl.y + tl.h * p / lanes, tl.w, tl.h / lanes);
        SDL_Rect nm = c->L.lane_names;
        if (nm.w > 0) /* the lane's name, left of it */
            rd__text(c, cv_algo_name(plan->spec.algo),
                     (int)fminf((float)c->L.px_small, lane.h * 0.62f), th->text,
                     rd__rect(nm.x, lane.y, nm.w - c->L.px_small / 3, lane.h),
                     RD_ALIGN_RIGHT | RD_ALIGN_FIT, 0);
        /* The lane's boundaries: step k at xs[k]. */
        int *xs = c->lane_x;
        int ns = plan->nsteps < RD__LANE_STEPS ? plan->nsteps : RD__LANE_STEPS;
        double acc = 0;
        for (int k = 0; k <= ns; k++) {
            xs[k] = model ? tl.x + (int)lround(tl.w * acc / tmax) : tl.x + (int)((int64_t)tl.w * k / n);
            if (model && k < ns) {
                int64_t bytes = 0;
                acc += rd__cost_step(&f->panels[p], plan, k, &bytes);
            }
        }
        /* Labels no taller than their lane: two lanes never overlap. */
        int lpx = (int)fminf((float)c->L.px_small, lane.h * (lanes > 1 ? 0.62f : 0.8f));
        int band = 0;
        for (int st = 0; st < ns;) {
            int e = st + 1;
            const char *ph = plan->steps[st].phase ? plan->steps[st].phase : "";
            while (e < ns && strcmp(plan->steps[e].phase ? plan->steps[e].phase : "", ph) == 0)
                e++;
            SDL_Rect br = rd__rect(xs[st], lane.y, xs[e] - xs[st], lane.h);
            rd__fill(c->r, br, band++ % 2 ? th->band_b : th->band_a);
            char shown[160];
            rd_phase_text(f->lang, ph, shown, sizeof shown);
            if (lpx >= 7)
                rd__text(c, shown, lpx, th->text, rd__rect(br.x + 3, br.y, br.w - 6, br.h),
                         RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
            st = e;
        }
        int mark = lanes > 1 ? lane.h / 3 : tl.h / 3;
        for (int k = 0; k <= ns; k++) {
            int x = xs[k] - (xs[k] >= tl.x + tl.w ? 1 : 0);
            rd__fill(c->r, rd__rect(x, lane.y, 1, mark), th->text);
            rd__fill(c->r, rd__rect(x, lane.y + lane.h - mark, 1, mark), th->text);
        }
    }
}

void rd__draw_buttons(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    /* One size for every label: the bar's, or smaller where a label would
     * not fit its button (the sizes never jump from button to button). */
    int bpx = c->L.px_small;
    for (int i = 1; i < RD_ACT_COUNT_; i++) {
        SDL_Rect b = c->L.button[i];
        if (b.w <= 0)
            continue;
        int tw = 0;
        rd_text_measure(c->text, rd_button_label((rd_action)i, f->lang, f->playing), bpx, &tw, NULL);
        while (tw > b.w - 4 && bpx > (int)(c->L.px_small * 0.8f)) {
            bpx--;
            rd_text_measure(c->text, rd_button_label((rd_action)i, f->lang, f->playing), bpx, &tw, NULL);
        }
    }
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
        SDL_Rect done = rd__text(c, label, bpx, th->text, in, RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
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
            rd__text(c, rd_key_of((rd_action)i)->name, bpx, th->text, in,
                     RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
        }
    }
}
