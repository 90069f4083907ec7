/*
 * rd_words.c: what the header and a compare caption say about the plan,
 * fitted to the pixels they have: the spec and the step ("step 3 of 6"),
 * the step's numbers (phase, the busiest port's bytes, measured and model
 * time: long forms where they fit, short ones or fewer pieces where not),
 * and a caption's steps and bytes beside the textbook's formulas. Text is
 * measured, never drawn: the layout sizes the caption with these lines
 * and the drawing draws them.
 *
 * Numbers come straight from the core: cv_cost_step_nodes/cv_cost_plan_nodes
 * (through rd__cost_step/rd__cost_plan, one link or two levels) for bytes
 * and model time, cv_trace_step_seconds for the measured time; nothing here
 * re-derives an algorithm's behaviour: the textbook's formulas a learner
 * checks the counted bytes against are the algorithm's row's
 * (cv_spec_textbook_bytes).
 */
#include "rd_internal.h"

#include <string.h>

/* ----------------------------------------------------------------- steps */

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
    rd_strf(f->lang, RD_S_STEP_OF, out, outlen, shown_round(plan, rd__panel_t(f, p)),
            plan->nrounds);
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

void rd__spec_words(rd_text *t, const rd_frame *f, int px, int w, char *out, size_t outlen)
{
    const rd_panel *p0 = &f->panels[0];
    const cv_spec *s = &cv_trace_plan(p0->trace)->spec;
    char algo[96], ranks[112], cnt[64], root[32], be[64];
    if (f->npanels >= 2 && f->panels[1].trace)
        snprintf(algo, sizeof algo, "%s vs %s", cv_algo_name(s->algo),
                 cv_algo_name(cv_trace_plan(f->panels[1].trace)->spec.algo));
    else
        snprintf(algo, sizeof algo, "%s", cv_algo_name(s->algo));
    snprintf(ranks, sizeof ranks, "%d %s", s->ranks,
             rd_str(f->lang, s->ranks == 1 ? RD_S_RANK1 : RD_S_RANKS));
    if (cv_spec_nodes(s) > 1) { /* "16 ranks, 2 nodes x 8" */
        char nodes[48];
        rd_strf(f->lang, RD_S_NODES_OF, nodes, sizeof nodes, cv_spec_nodes(s),
                cv_spec_ranks_per_node(s));
        size_t used = strlen(ranks);
        snprintf(ranks + used, sizeof ranks - used, "%s%s", f->lang == CV_LANG_ZH ? "，" : ", ",
                 nodes);
    }
    snprintf(cnt, sizeof cnt, "%lld \xC3\x97 %s", (long long)s->count, cv_dtype_name(s->dtype));
    snprintf(root, sizeof root, "root %d", s->root);
    const char *bname = p0->backend ? p0->backend : cv_trace_backend(p0->trace);
    snprintf(be, sizeof be, "%s %s", rd_str(f->lang, RD_S_BACKEND), bname);
    piece pc[7] = {{cv_op_title(s->op), NULL, 10},
                   {algo, NULL, 10},
                   {ranks, NULL, 9},
                   {cnt, NULL, 8},
                   {cv_op_reduces(s->op) ? cv_redop_name(s->redop) : "", NULL, 7},
                   {cv_op_has_root(s->op) ? root : "", NULL, 6},
                   {be, bname, 5}};
    fit_pieces(t, px, w, pc, 7, out, outlen);
}

void rd__compare_words(const rd_frame *f, char *out, size_t outlen)
{
    const cv_spec *s = &cv_trace_plan(f->panels[0].trace)->spec;
    char a[64], b[64];
    step_words(f, &f->panels[0], a, sizeof a);
    if (f->panels[1].trace)
        step_words(f, &f->panels[1], b, sizeof b);
    else
        b[0] = '\0';
    snprintf(out, outlen, "%s: %s  \xC2\xB7  %s: %s", cv_algo_name(s->algo), a,
             f->panels[1].trace ? cv_algo_name(cv_trace_plan(f->panels[1].trace)->spec.algo) : "-",
             b);
}

/* The shown step's numbers: phase, step, the busiest port, measured and
 * modelled time. compact keeps phase, step and measured time only, for a
 * compare caption whose first line already gives bytes and the model. */
void rd__step_numbers(rd_text *tx, int px, int maxw, const rd_frame *f, const rd_panel *p,
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
        rd__fmt_seconds(f->hide_measured ? 0 : cv_trace_step_seconds(p->trace, step), meas,
                        sizeof meas);
        rd__fmt_seconds(secs, model, sizeof model);
        /* A step that stays on each GPU costs nothing on a link: say so
         * rather than leaving a bare "-". */
        const char *where = links;
        if (link && bytes == 0) {
            snprintf(model, sizeof model, "0");
            where = rd_str(f->lang, RD_S_LOCAL);
        }
        char phase[160];
        rd_phase_text(L, plan->steps[step].phase ? plan->steps[step].phase : "-", phase,
                      sizeof phase);
        char ph[192], bs[96], bs2[64], ms[64], md[160], md2[64];
        snprintf(ph, sizeof ph, "%s %s", rd_str(L, RD_S_PHASE), phase);
        snprintf(bs, sizeof bs, "%s %s, %s %s", rd_str(L, RD_S_BUSIEST), busy,
                 rd_str(L, RD_S_TOTAL), total);
        snprintf(bs2, sizeof bs2, "%s %s", rd_str(L, RD_S_BUSIEST), busy);
        snprintf(ms, sizeof ms, "%s %s", rd_str(L, RD_S_MEASURED), meas);
        snprintf(md, sizeof md, "%s %s (%s)", rd_str(L, RD_S_MODEL), model, where);
        snprintf(md2, sizeof md2, "%s %s", rd_str(L, RD_S_MODEL), model);
        piece pc[5] = {{ph, phase, 7},
                       {words, NULL, 9},
                       {bs, bs2, compact ? 1 : 5},
                       {ms, NULL, compact ? 8 : 4},
                       {md, md2, compact ? 2 : 6}};
        fit_pieces(tx, px, maxw, pc, 5, out, outlen);
    } else {
        rd__fmt_seconds(f->hide_measured ? 0 : cv_trace_total_seconds(p->trace), meas, sizeof meas);
        rd__fmt_seconds(cost.seconds, model, sizeof model);
        char bs[96], ms[64], md[160], md2[64];
        snprintf(bs, sizeof bs, "%s %s", rd_str(L, RD_S_BUSIEST), total);
        snprintf(ms, sizeof ms, "%s %s", rd_str(L, RD_S_MEASURED), meas);
        snprintf(md, sizeof md, "%s %s (%s)", rd_str(L, RD_S_MODEL), model, links);
        snprintf(md2, sizeof md2, "%s %s", rd_str(L, RD_S_MODEL), model);
        piece pc[4] = {{words, NULL, 9},
                       {bs, NULL, compact ? 1 : 5},
                       {ms, NULL, compact ? 8 : 4},
                       {md, md2, compact ? 2 : 6}};
        fit_pieces(tx, px, maxw, pc, 4, out, outlen);
    }
}

/* -------------------------------------------------------------- captions */

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
    const char *steps = zh ? "步" : plan->nrounds == 1 ? "step" : "steps";
    if (cv_plan_textbook_rounds(plan, formula, sizeof formula) == plan->nrounds &&
        plan->spec.ranks > 1)
        snprintf(pieces[0], sizeof pieces[0], zh ? "%s：%d %s = %s" : "%s: %d %s = %s",
                 cv_algo_name(plan->spec.algo), plan->nrounds, steps, formula);
    else
        snprintf(pieces[0], sizeof pieces[0], zh ? "%s：%d %s" : "%s: %d %s",
                 cv_algo_name(plan->spec.algo), plan->nrounds, steps);
    rd__fmt_bytes((double)cost.busiest_total, busy, sizeof busy);
    int64_t tb = cv_spec_textbook_bytes(&plan->spec, bf, sizeof bf);
    bool match = tb > 0 && tb == cost.busiest_total;
    if (match)
        snprintf(pieces[1], sizeof pieces[1],
                 zh ? "最忙端口 %s = %s" : "%s on the busiest port = %s", busy, bf);
    else
        snprintf(pieces[1], sizeof pieces[1], zh ? "最忙端口 %s" : "%s on the busiest port", busy);
    int pw = 0;
    rd_text_measure(t, pieces[1], px, &pw, NULL);
    if (pw > w) /* a narrow panel: the numbers without the words */
        snprintf(pieces[1], sizeof pieces[1],
                 match ? (zh ? "端口 %s = %s" : "port %s = %s") : (zh ? "端口 %s" : "port %s"),
                 busy, bf);
    rd__fmt_seconds(cost.seconds, model, sizeof model);
    snprintf(pieces[2], sizeof pieces[2], zh ? "模型 %s" : "model %s", model);
    return wrap_pieces(t, pieces, 3, px, w, lines, maxlines);
}
