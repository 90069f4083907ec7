/*
 * rd_chrome.c: the frame around the stage: the header with the numbers,
 * compare-mode captions, legends, the timeline with step marks and phase
 * bands, and the button bar (every key has a button). The narration panel
 * is in rd_narration.c, the message, tooltip and help in rd_overlay.c.
 *
 * Numbers come straight from the core: cv_cost_step_nodes/cv_cost_plan_nodes
 * (through rd__cost_step/rd__cost_plan, one link or two levels) for bytes
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
static void step_words(const rd_frame *f, const rd_panel *p, char *out, size_t outlen)
{
    const cv_plan *plan = cv_trace_plan(p->trace);
    rd_strf(f->lang, RD_S_STEP_OF, out, outlen, shown_round(plan, rd__panel_t(f, p)), plan->nrounds);
}

/* A line of pieces joined by dots that must fit w pixels without being
 * cut: all of them in their long form if that fits, else closer together
 * and in their short forms, else the least needed pieces left out. */
typedef struct {
    const char *lng, *shrt; /* shrt NULL: as lng */
    int keep;               /* higher: left out later */
} piece;

static void fit_pieces(rd_text *t, int px, int w, const piece *pc, int n, char *out, size_t outlen)
{
    bool on[16];
    for (int i = 0; i < n && i < 16; i++)
        on[i] = pc[i].lng && pc[i].lng[0];
    for (int pass = 0;; pass++) {
        bool shrt = pass >= 2;
        const char *sep = pass == 0 ? "  \xC2\xB7  " : " \xC2\xB7 ";
        size_t len = 0;
        out[0] = '\0';
        for (int i = 0; i < n && i < 16 && len < outlen; i++)
            if (on[i])
                len += (size_t)snprintf(out + len, outlen - len, "%s%s", len ? sep : "",
                                        shrt && pc[i].shrt ? pc[i].shrt : pc[i].lng);
        int tw = 0;
        rd_text_measure(t, out, px, &tw, NULL);
        if (tw <= w || pass > 2 + n)
            return;
        if (pass >= 2) {
            /* Leave out the least needed piece still shown. */
            int worst = -1;
            for (int i = 0; i < n && i < 16; i++)
                if (on[i] && (worst < 0 || pc[i].keep < pc[worst].keep))
                    worst = i;
            int shown = 0;
            for (int i = 0; i < n && i < 16; i++)
                shown += on[i];
            if (worst < 0 || shown <= 1)
                return;
            on[worst] = false;
        }
    }
}

/* Phase, bytes and times of the step in progress. */
/* The shown step's numbers: phase, step, the busiest port, measured and
 * modelled time. compact keeps phase, step and measured time only, for a
 * compare caption whose first line already gives bytes and the model. */
static void step_numbers(rd_text *tx, int px, int maxw, const rd_frame *f, const rd_panel *p,
                         bool compact, char *out, size_t outlen)
{
    const cv_plan *plan = cv_trace_plan(p->trace);
    const cv_link *link = rd__link(p);
    double t = rd__panel_t(f, p);
    int step;
    rd_shown_step(plan, t, &step, NULL);
    char words[64], busy[32], total[32], meas[32], model[32];
    step_words(f, p, words, sizeof words);
    cv_cost cost;
    rd__cost_plan(p, plan, &cost);
    char links[64];
    rd__link_words(p, plan, links, sizeof links);
    rd__fmt_bytes((double)cost.busiest_total, total, sizeof total);
    cv_lang L = f->lang;
    if (step < plan->nsteps) {
        step = rd_ref_step(plan->nsteps, t, NULL);
        int64_t bytes = 0;
        double secs = rd__cost_step(p, plan, step, &bytes);
        rd__fmt_bytes((double)bytes, busy, sizeof busy);
        rd__fmt_seconds(f->hide_measured ? 0 : cv_trace_step_seconds(p->trace, step), meas, sizeof meas);
        rd__fmt_seconds(secs, model, sizeof model);
        /* A step that stays on each GPU costs nothing on a link: say so
         * rather than leaving a bare "-". */
        const char *where = links;
        if (link && bytes == 0) {
            snprintf(model, sizeof model, "0");
            where = rd_str(f->lang, RD_S_LOCAL);
        }
        const char *phase = plan->steps[step].phase ? plan->steps[step].phase : "-";
        char ph[96], bs[96], bs2[64], ms[64], md[160], md2[64];
        snprintf(ph, sizeof ph, "%s %s", rd_str(L, RD_S_PHASE), phase);
        snprintf(bs, sizeof bs, "%s %s, %s %s", rd_str(L, RD_S_BUSIEST), busy, rd_str(L, RD_S_TOTAL), total);
        snprintf(bs2, sizeof bs2, "%s %s", rd_str(L, RD_S_BUSIEST), busy);
        snprintf(ms, sizeof ms, "%s %s", rd_str(L, RD_S_MEASURED), meas);
        snprintf(md, sizeof md, "%s %s (%s)", rd_str(L, RD_S_MODEL), model, where);
        snprintf(md2, sizeof md2, "%s %s", rd_str(L, RD_S_MODEL), model);
        piece pc[5] = {{ph, phase, 7}, {words, NULL, 9}, {bs, bs2, compact ? 1 : 5},
                       {ms, NULL, compact ? 8 : 4}, {md, md2, compact ? 2 : 6}};
        fit_pieces(tx, px, maxw, pc, 5, out, outlen);
    } else {
        rd__fmt_seconds(f->hide_measured ? 0 : cv_trace_total_seconds(p->trace), meas, sizeof meas);
        rd__fmt_seconds(cost.seconds, model, sizeof model);
        char bs[96], ms[64], md[160], md2[64];
        snprintf(bs, sizeof bs, "%s %s", rd_str(L, RD_S_BUSIEST), total);
        snprintf(ms, sizeof ms, "%s %s", rd_str(L, RD_S_MEASURED), meas);
        snprintf(md, sizeof md, "%s %s (%s)", rd_str(L, RD_S_MODEL), model, links);
        snprintf(md2, sizeof md2, "%s %s", rd_str(L, RD_S_MODEL), model);
        piece pc[4] = {{words, NULL, 9}, {bs, NULL, compact ? 1 : 5}, {ms, NULL, compact ? 8 : 4},
                       {md, md2, compact ? 2 : 6}};
        fit_pieces(tx, px, maxw, pc, 4, out, outlen);
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
    const cv_spec *s = &cv_trace_plan(p0->trace)->spec;
    char buf[512];
    char algo[96], ranks[112], cnt[64], root[32], be[64];
    if (f->npanels >= 2 && f->panels[1].trace)
        snprintf(algo, sizeof algo, "%s vs %s", cv_algo_name(s->algo),
                 cv_algo_name(cv_trace_plan(f->panels[1].trace)->spec.algo));
    else
        snprintf(algo, sizeof algo, "%s", cv_algo_name(s->algo));
    snprintf(ranks, sizeof ranks, "%d %s", s->ranks, rd_str(f->lang, s->ranks == 1 ? RD_S_RANK1 : RD_S_RANKS));
    if (cv_spec_nodes(s) > 1) { /* "16 ranks, 2 nodes x 8" */
        char nodes[48];
        rd_strf(f->lang, RD_S_NODES_OF, nodes, sizeof nodes, cv_spec_nodes(s), cv_spec_ranks_per_node(s));
        size_t used = strlen(ranks);
        snprintf(ranks + used, sizeof ranks - used, "%s%s", f->lang == CV_LANG_ZH ? "，" : ", ", nodes);
    }
    snprintf(cnt, sizeof cnt, "%lld \xC3\x97 %s", (long long)s->count, cv_dtype_name(s->dtype));
    snprintf(root, sizeof root, "root %d", s->root);
    const char *bname = p0->backend ? p0->backend : cv_trace_backend(p0->trace);
    snprintf(be, sizeof be, "%s %s", rd_str(f->lang, RD_S_BACKEND), bname);
    piece pc[7] = {{cv_op_title(s->op), NULL, 10}, {algo, NULL, 10}, {ranks, NULL, 9}, {cnt, NULL, 8},
                   {cv_op_reduces(s->op) ? cv_redop_name(s->redop) : "", NULL, 7},
                   {cv_op_has_root(s->op) ? root : "", NULL, 6}, {be, bname, 5}};
    fit_pieces(c->text, L->px_big, line1.w, pc, 7, buf, sizeof buf);
    rd__text(c, buf, L->px_big, th->text, line1, RD_ALIGN_LEFT, 0);
    if (f->npanels >= 2) {
        /* Each side's step is in its caption; the header says which. */
        char w0[160], a[64], b[64];
        step_words(f, &f->panels[0], a, sizeof a);
        if (f->panels[1].trace)
            step_words(f, &f->panels[1], b, sizeof b);
        else
            b[0] = '\0';
        snprintf(w0, sizeof w0, "%s: %s  \xC2\xB7  %s: %s", cv_algo_name(s->algo), a,
                 f->panels[1].trace ? cv_algo_name(cv_trace_plan(f->panels[1].trace)->spec.algo) : "-", b);
        rd__text(c, w0, L->px_text, th->dim, line2, RD_ALIGN_LEFT, 0);
    } else {
        step_numbers(c->text, L->px_text, line2.w, f, p0, false, buf, sizeof buf);
        rd__text(c, buf, L->px_text, th->dim, line2, RD_ALIGN_LEFT, 0);
    }
}

/* The bytes the textbook's beta term counts (through the busiest port,
 * summed over the steps) for the plan's algorithm, and its formula in D
 * (the op's buffer: the message, or the N blocks of a gathered or
 * scattered buffer); 0 where there is none to quote. */
static int64_t textbook_bytes(const cv_plan *plan, char *formula, size_t n)
{
    const cv_spec *s = &plan->spec;
    int64_t N = s->ranks, es = (int64_t)cv_dtype_size(s->dtype), c = s->count;
    int S = s->slices > 0 ? s->slices : 1;
    bool per_rank = s->op == CV_OP_ALLGATHER || s->op == CV_OP_GATHER || s->op == CV_OP_SCATTER ||
                    s->op == CV_OP_REDUCESCATTER || s->op == CV_OP_ALLTOALL;
    int64_t D = (per_rank ? N * c : c) * es;
    int lg = 0;
    while ((1ll << lg) < N)
        lg++;
    bool pow2 = (1ll << lg) == N;
    formula[0] = '\0';
    if (N < 2 || D <= 0)
        return 0;
#define F(str, val) (snprintf(formula, n, "%s", str), (int64_t)(val))
    switch (s->op) {
    case CV_OP_ALLREDUCE:
        if (s->algo == CV_ALGO_RING || s->algo == CV_ALGO_MULTIRING ||
            (s->algo == CV_ALGO_RABENSEIFNER && pow2))
            return c % N == 0 ? F("2(N-1)/N\xC2\xB7" "D", 2 * (N - 1) * D / N) : 0;
        if (s->algo == CV_ALGO_RECURSIVE_DOUBLING && pow2)
            return F("log2 N\xC2\xB7" "D", lg * D);
        if (s->algo == CV_ALGO_TREE)
            return F("2 ceil(log2 N)\xC2\xB7" "D", 2 * lg * D);
        if (s->algo == CV_ALGO_DIRECT)
            return F("2(N-1)\xC2\xB7" "D", 2 * (N - 1) * D);
        return 0;
    case CV_OP_ALLGATHER:
    case CV_OP_REDUCESCATTER:
    case CV_OP_SCATTER:
    case CV_OP_GATHER:
    case CV_OP_ALLTOALL:
        if (s->op == CV_OP_ALLTOALL && s->algo == CV_ALGO_BRUCK)
            return 0;
        return F("(N-1)/N\xC2\xB7" "D", (N - 1) * D / N);
    case CV_OP_BROADCAST:
    case CV_OP_REDUCE:
        if (s->algo == CV_ALGO_RING)
            return S == 1 ? F("(N-1)\xC2\xB7" "D", (N - 1) * D)
                          : (c % S == 0 ? F("(S+N-2)/S\xC2\xB7" "D", (S + N - 2) * D / S) : 0);
        if (s->algo == CV_ALGO_TREE)
            return F("ceil(log2 N)\xC2\xB7" "D", lg * D);
        if (s->algo == CV_ALGO_DIRECT)
            return F("(N-1)\xC2\xB7" "D", (N - 1) * D);
        return 0;
    case CV_OP_SENDRECV:
        return F("D", D);
    default:
        return 0;
    }
#undef F
}

/* Words laid out on lines of at most w pixels, whole pieces only, joined
 * by " \xC2\xB7 "; a piece wider than a line gets a line of its own (cut
 * there). Returns the number of lines. */
static int wrap_pieces(rd_text *t, char pieces[][160], int np, int px, int w, char (*lines)[320],
                       int maxlines)
{
    int n = 0;
    lines[0][0] = '\0';
    for (int i = 0; i < np && n < maxlines; i++) {
        if (!pieces[i][0])
            continue;
        char next[512];
        snprintf(next, sizeof next, "%s%s%s", lines[n], lines[n][0] ? " \xC2\xB7 " : "", pieces[i]);
        int tw = 0;
        rd_text_measure(t, next, px, &tw, NULL);
        if (tw <= w || !lines[n][0]) {
            snprintf(lines[n], sizeof lines[0], "%.300s", next);
        } else if (n + 1 < maxlines) {
            n++;
            snprintf(lines[n], sizeof lines[0], "%.159s", pieces[i]);
        } else {
            break;
        }
    }
    return lines[0][0] ? n + 1 : 0;
}

int rd__caption_lines(rd_text *t, const rd_frame *f, const rd_panel *panel, int px, int w,
                      char (*lines)[320], int maxlines)
{
    if (!panel->trace)
        return 0;
    const cv_plan *plan = cv_trace_plan(panel->trace);
    cv_cost cost;
    rd__cost_plan(panel, plan, &cost);
    bool zh = f->lang == CV_LANG_ZH;
    char pieces[3][160], formula[64], bf[64], busy[32], model[32];
    /* What was counted, beside the textbook's formula where they agree. */
    if (cv_plan_textbook_rounds(plan, formula, sizeof formula) == plan->nrounds && plan->spec.ranks > 1)
        snprintf(pieces[0], sizeof pieces[0], zh ? "%s：%d 步 = %s" : "%s: %d steps = %s",
                 cv_algo_name(plan->spec.algo), plan->nrounds, formula);
    else
        snprintf(pieces[0], sizeof pieces[0], zh ? "%s：%d 步" : "%s: %d steps",
                 cv_algo_name(plan->spec.algo), plan->nrounds);
    rd__fmt_bytes((double)cost.busiest_total, busy, sizeof busy);
    int64_t tb = textbook_bytes(plan, bf, sizeof bf);
    bool match = tb > 0 && tb == cost.busiest_total;
    if (match)
        snprintf(pieces[1], sizeof pieces[1], zh ? "最忙端口 %s = %s" : "%s on the busiest port = %s",
                 busy, bf);
    else
        snprintf(pieces[1], sizeof pieces[1], zh ? "最忙端口 %s" : "%s on the busiest port", busy);
    int pw = 0;
    rd_text_measure(t, pieces[1], px, &pw, NULL);
    if (pw > w) /* a narrow panel: the numbers without the words */
        snprintf(pieces[1], sizeof pieces[1], match ? (zh ? "端口 %s = %s" : "port %s = %s")
                                                    : (zh ? "端口 %s" : "port %s"),
                 busy, bf);
    rd__fmt_seconds(cost.seconds, model, sizeof model);
    snprintf(pieces[2], sizeof pieces[2], zh ? "模型 %s" : "model %s", model);
    return wrap_pieces(t, pieces, 3, px, w, lines, maxlines);
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
    step_numbers(c->text, c->L.px_small, pl->caption.w - 8, f, panel, true, buf, sizeof buf);
    rd__text(c, buf, c->L.px_small, th->dim,
             rd__rect(pl->caption.x + 4, pl->caption.y + n * lh, pl->caption.w - 8, sh), RD_ALIGN_LEFT, 0);
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
    const cv_plan *lplan = f->panels[p].trace ? cv_trace_plan(f->panels[p].trace) : NULL;
    int nodes = lplan ? cv_spec_nodes(&lplan->spec) : 1;
    for (int k = 0; nodes > 1 && k < nodes; k++) {
        /* The node shades, as behind the cards: "node 0", then the
         * numbers alone, as the rank colours are. */
        char name[96];
        const char *host = k < RD_MAX_NODE_HOSTS ? f->node_host[k] : NULL;
        if (k == 0 || nodes == 2)
            rd_strf(f->lang, RD_S_NODE, name, sizeof name, k, 0);
        else
            snprintf(name, sizeof name, "%d", k);
        if (host && host[0] && nodes <= 4) { /* "node 0 (host-a)" while they fit */
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
    if (nodes > 1)
        x += px;
    int64_t group = 1;
    bool blocks = false;
    for (int r = 0; r < pl->nranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            if (pl->cards[r].mode[b] == RD_ROW_STRIPES && pl->cards[r].group[b] > group)
                group = pl->cards[r].group[b];
            blocks |= pl->cards[r].mode[b] == RD_ROW_CHUNKS && pl->cards[r].cells[b] > 0;
        }
    /* The parts, most needed first; drawn left to right as far as they fit. */
    char agg[96] = "", parts[5][160];
    int np = 0;
    if (group > 1) {
        rd_strf(f->lang, RD_S_AGGREGATED, agg, sizeof agg, (long long)group, 0);
        snprintf(parts[np++], sizeof parts[0], "%s", agg);
    }
    if (nodes > 1)
        snprintf(parts[np++], sizeof parts[0], "%s", rd_str(f->lang, RD_S_LEGEND_NET));
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
        /* The lane's boundaries: step k at xs[k]. */
        static int xs[4096 + 1];
        int ns = plan->nsteps < 4096 ? plan->nsteps : 4096;
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
            if (lpx >= 7)
                rd__text(c, ph, lpx, th->text, rd__rect(br.x + 3, br.y, br.w - 6, br.h),
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
