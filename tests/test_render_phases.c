/*
 * test_render_phases.c: every phase name a plan gives its steps reads in
 * Chinese where the window shows it (the header, the timeline, the step's
 * sentence), not in the plan's English.
 *
 * The plans of every op and algorithm of the registry are built at 1 to 9
 * and 16 ranks, on every number of nodes up to 4 that divides them, with 1
 * and 3 slices; rd_phase_text must translate each step's phase whole, and
 * what it writes must hold no English word but the names the course keeps
 * (all-gather, reduce-scatter, PAT, Bruck, GPU). A phase it does not know
 * must be reported as such, so that the check above can fail.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cv.h"
#include "render.h"

/* Whether out holds an English word other than the kept names. */
static bool has_english(const char *out)
{
    static const char *const kept[] = {"all-gather", "reduce-scatter", "PAT", "Bruck", "GPU"};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", out);
    for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
        for (char *p = strstr(buf, kept[k]); p; p = strstr(p, kept[k]))
            memset(p, ' ', strlen(kept[k]));
    for (const char *p = buf; *p; p++)
        if (isalpha((unsigned char)*p))
            return true;
    return false;
}

static void every_phase(void)
{
    static const int ranks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16};
    int plans = 0;
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo algos[CV_ALGO_COUNT];
        int na = cv_op_algos((cv_op)op, algos);
        for (int a = 0; a < na; a++)
            for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
                for (int K = 1; K <= 4; K++)
                    for (int S = 1; S <= 3; S += 2) {
                        int N = ranks[i];
                        if (N % K || (K > 1 && !cv_algo_uses_nodes((cv_op)op, algos[a])))
                            continue;
                        cv_spec s;
                        cv_spec_init(&s);
                        s.op = (cv_op)op;
                        s.algo = algos[a];
                        s.ranks = N;
                        s.nodes = K;
                        s.slices = S;
                        s.count = 12;
                        cv_plan *p = NULL;
                        char err[CV_ERR_LEN];
                        if (cv_plan_create(&s, &p, err, sizeof err) != CV_OK)
                            continue; /* a shape the algorithm refuses (the checks test that) */
                        plans++;
                        for (int k = 0; k < p->nsteps; k++) {
                            char out[256];
                            bool whole = rd_phase_text(CV_LANG_ZH, p->steps[k].phase, out,
                                                       sizeof out);
                            EXPECT(whole && !has_english(out),
                                   "%s/%s N=%d K=%d S=%d step %d: phase \"%s\" reads \"%s\" in "
                                   "Chinese",
                                   cv_op_name((cv_op)op), cv_algo_name(algos[a]), N, K, S, k,
                                   p->steps[k].phase, out);
                            char en[256];
                            rd_phase_text(CV_LANG_EN, p->steps[k].phase, en, sizeof en);
                            EXPECT(!strcmp(en, p->steps[k].phase),
                                   "English changed \"%s\" to \"%s\"", p->steps[k].phase, en);
                        }
                        cv_plan_destroy(p);
                    }
    }
    EXPECT(plans > 500, "only %d plans were built", plans);
}

/* The translation of a pipelined step's joined name, and of a name it
 * does not know (copied, and reported). */
static void joined_and_unknown(void)
{
    char out[256];
    EXPECT(rd_phase_text(CV_LANG_ZH, "up the trees, down the trees, store", out, sizeof out) &&
               !strcmp(out, "沿树上行、沿树下行、写入组播地址"),
           "joined phases read \"%s\"", out);
    EXPECT(rd_phase_text(CV_LANG_ZH, "intra reduce-scatter + inter reduce-scatter", out,
                         sizeof out) &&
               !strcmp(out, "节点内 reduce-scatter + 节点间 reduce-scatter"),
           "phases joined by + read \"%s\"", out);
    EXPECT(!rd_phase_text(CV_LANG_ZH, "no such phase", out, sizeof out) &&
               !strcmp(out, "no such phase"),
           "an unknown phase was not reported: \"%s\"", out);
    char tiny[8], whole[64];
    rd_phase_text(CV_LANG_ZH, "switch reduce, multicast", whole, sizeof whole);
    rd_phase_text(CV_LANG_ZH, "switch reduce, multicast", tiny, sizeof tiny);
    EXPECT(!strncmp(tiny, whole, strlen(tiny)) && strlen(tiny) > 0,
           "a small buffer holds \"%s\", not the start of \"%s\"", tiny, whole);
}

static const test_case cases[] = {
    CASE("every-phase", every_phase),
    CASE("joined-and-unknown", joined_and_unknown),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
