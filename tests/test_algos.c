/*
 * test_algos.c: the algorithm registry. Every row has a generator, no row
 * is listed twice, an op's rows sit together, cv_op_algos and
 * cv_op_has_algo say exactly what the rows say, an algorithm an op does not
 * offer is refused, and every algorithm of an op builds a plan different
 * from each of its siblings', so no algorithm can quietly run another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cv_internal.h"

/* Two plans are the same when their steps and transfers are. */
static bool same_plan(const cv_plan *a, const cv_plan *b)
{
    if (a->nsteps != b->nsteps || a->ntransfers != b->ntransfers)
        return false;
    for (int k = 0; k < a->nsteps; k++)
        if (a->steps[k].first != b->steps[k].first || a->steps[k].count != b->steps[k].count)
            return false;
    return memcmp(a->transfers, b->transfers, (size_t)a->ntransfers * sizeof *a->transfers) == 0;
}

static void check_rows(void)
{
    const cv__algo_entry *rows;
    int n = cv__algo_entries(&rows);
    int seen_ops[CV_OP_COUNT] = {0};
    for (int i = 0; i < n; i++) {
        EXPECT(rows[i].generate != NULL, "row %d (%s %s) has no generator", i,
               cv_op_name(rows[i].op), cv_algo_name(rows[i].algo));
        EXPECT((unsigned)rows[i].op < CV_OP_COUNT && (unsigned)rows[i].algo < CV_ALGO_COUNT,
               "row %d: op or algo out of range", i);
        for (int j = 0; j < i; j++)
            EXPECT(rows[j].op != rows[i].op || rows[j].algo != rows[i].algo,
                   "%s %s listed twice", cv_op_name(rows[i].op), cv_algo_name(rows[i].algo));
        if (i > 0 && rows[i - 1].op != rows[i].op)
            EXPECT(!seen_ops[rows[i].op], "%s's rows are not together", cv_op_name(rows[i].op));
        seen_ops[rows[i].op] = 1;
    }
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos(op, a), want = 0;
        for (int i = 0; i < n; i++)
            if (rows[i].op == (cv_op)op)
                EXPECT(want < na && a[want++] == rows[i].algo, "%s: cv_op_algos order",
                       cv_op_name(op));
        EXPECT(na == want && na >= 1, "%s: cv_op_algos gives %d, the registry %d", cv_op_name(op),
               na, want);
        for (int al = 0; al < CV_ALGO_COUNT; al++) {
            bool listed = false;
            for (int i = 0; i < na; i++)
                listed |= a[i] == (cv_algo)al;
            EXPECT(cv_op_has_algo(op, al) == listed, "%s %s: has_algo disagrees", cv_op_name(op),
                   cv_algo_name(al));
            /* what the registry lacks, the spec check refuses and the
             * builder never runs */
            cv_spec s;
            cv_spec_init(&s);
            s.op = op;
            s.algo = al;
            cv_plan *p = NULL;
            char err[CV_ERR_LEN] = "";
            int rc = cv_plan_build(&s, &p, err, sizeof err);
            EXPECT((rc == CV_OK) == listed, "%s %s: build %s", cv_op_name(op), cv_algo_name(al),
                   rc ? err : "ok");
            if (!listed)
                EXPECT(strstr(err, "--algo") != NULL, "%s %s: error names --algo: %s",
                       cv_op_name(op), cv_algo_name(al), err);
            cv_plan_destroy(p);
        }
    }
}

/* Siblings differ, for rank counts that are and are not powers of two. */
static void check_distinct(void)
{
    static const int ranks[] = {5, 8, 12};
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos(op, a);
        for (int ri = 0; ri < 3; ri++) {
            cv_plan *plans[CV_ALGO_COUNT] = {0};
            for (int i = 0; i < na; i++) {
                cv_spec s;
                cv_spec_init(&s);
                s.op = op;
                s.algo = a[i];
                s.ranks = ranks[ri];
                s.count = 3 * ranks[ri] + 1;
                char err[CV_ERR_LEN];
                EXPECT(cv_plan_build(&s, &plans[i], err, sizeof err) == CV_OK, "%s %s: %s",
                       cv_op_name(op), cv_algo_name(a[i]), err);
            }
            for (int i = 0; i < na; i++)
                for (int j = 0; j < i; j++)
                    EXPECT(plans[i] && plans[j] && !same_plan(plans[i], plans[j]),
                           "%s at %d ranks: %s and %s build the same plan", cv_op_name(op),
                           ranks[ri], cv_algo_name(a[i]), cv_algo_name(a[j]));
            for (int i = 0; i < na; i++)
                cv_plan_destroy(plans[i]);
        }
    }
}

int main(void)
{
    check_rows();
    check_distinct();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
