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
            /* where cv_plan_create would refuse the spec: the formulas
             * need no plan (building all of them took 3.7 GB and 13 s at
             * 1024 ranks) */
            char err[CV_ERR_LEN];
            const cv__algo_entry *e = cv__algo_find(s.op, s.algo);
            if (cv_spec_check(&s, CV_MAX_RANKS, err, sizeof err) != CV_OK || !e || !e->generate) {
                snprintf(r->rounds_f, sizeof r->rounds_f, "-");
                continue;
            }
            r->rounds = cv__spec_textbook_rounds(&s, r->rounds_f, sizeof r->rounds_f);
            r->bytes = cv_spec_textbook_bytes(&s, r->bytes_f, sizeof r->bytes_f);
            if (r->bytes > 0 && link)
                r->time_s = r->rounds * link->alpha + (double)r->bytes / link->bw;
        }
    }
    return n;
}
