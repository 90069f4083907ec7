/*
 * cv_card.c: the reference card, every op and algorithm on one page: the
 * textbook's round count and the bytes its beta term counts (the formulas
 * a learner reads, from the registry's rows), their values at an example
 * size and rank count, and the alpha-beta time those give on a link. The
 * window's F3 overlay, `collviz card` and the page draw it from here, so
 * it cannot disagree with the stage's captions or with `collviz cost`.
 */
#include <stdio.h>
#include <string.h>

#include "cv_internal.h"

int cv_card_rows(int ranks, int64_t bytes, const cv_link *link, cv_card_row *out, int max)
{
    int n = 0;
    for (int o = 0; o < CV_OP_COUNT; o++) {
        cv_algo algos[CV_ALGO_COUNT];
        int na = cv_op_algos((cv_op)o, algos);
        for (int k = 0; k < na && n < max; k++) {
            cv_card_row *r = &out[n++];
            memset(r, 0, sizeof *r);
            r->op = (cv_op)o;
            r->algo = algos[k];
            r->time_s = -1;
            cv_spec s;
            cv_spec_init(&s);
            s.op = r->op;
            s.algo = r->algo;
            s.ranks = ranks;
            s.dtype = CV_FLOAT32;
            int64_t unit = cv_spec_bench_unit(&s);
            s.count = bytes / unit > 0 ? bytes / unit : 1;
            r->bytes_d = s.count * unit;
            cv_plan *plan = NULL;
            char err[CV_ERR_LEN];
            if (cv_plan_create(&s, &plan, err, sizeof err) != CV_OK) {
                snprintf(r->rounds_f, sizeof r->rounds_f, "-");
                continue;
            }
            r->rounds = cv_plan_textbook_rounds(plan, r->rounds_f, sizeof r->rounds_f);
            cv_plan_destroy(plan);
            r->bytes = cv_spec_textbook_bytes(&s, r->bytes_f, sizeof r->bytes_f);
            if (r->bytes > 0 && link)
                r->time_s = r->rounds * link->alpha + (double)r->bytes / link->bw;
        }
    }
    return n;
}
