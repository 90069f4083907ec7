/*
 * test_card.c: the reference card (collectives/cv_card.c, `collviz card`,
 * the window's F3). Every op's every algorithm has its row, in the
 * registry's order; the rows agree with the registry's formulas and with
 * hand-computed alpha-beta times (ring AllReduce on 8 ranks: 2(N-1) = 14
 * rounds, 2(N-1)/N x D bytes); the command prints it in both languages
 * and as JSON, and refuses a bad flag in one line.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "check.h"
#include "test_cli_util.h"

static void rows(void)
{
    const cv_link *nv = cv_link_find("nvlink4");
    cv_card_row r[CV_OP_COUNT * CV_ALGO_COUNT];
    int n = cv_card_rows(8, (int64_t)1 << 30, nv, r, CV_OP_COUNT * CV_ALGO_COUNT);
    int want = 0;
    for (int o = 0; o < CV_OP_COUNT; o++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos((cv_op)o, a);
        for (int k = 0; k < na; k++, want++)
            EXPECT(want < n && r[want].op == (cv_op)o && r[want].algo == a[k],
                   "row %d is not %s %s", want, cv_op_name((cv_op)o), cv_algo_name(a[k]));
    }
    EXPECT(n == want, "%d rows, %d algorithms", n, want);
    for (int i = 0; i < n; i++)
        EXPECT(strcmp(r[i].rounds_f, "-") && r[i].rounds > 0, "%s %s: no rounds ('%s')",
               cv_op_name(r[i].op), cv_algo_name(r[i].algo), r[i].rounds_f);
    /* ring AllReduce, 8 ranks, 1 GiB: 14 x 2 us + 2 x 7/8 GiB / 450 GB/s */
    for (int i = 0; i < n; i++) {
        if (r[i].op != CV_OP_ALLREDUCE || r[i].algo != CV_ALGO_RING)
            continue;
        double d = (double)((int64_t)1 << 30);
        EXPECT(r[i].rounds == 14 && !strcmp(r[i].rounds_f, "2(N-1)"), "ring rounds %d %s",
               r[i].rounds, r[i].rounds_f);
        EXPECT(r[i].bytes == (int64_t)(2 * 7 * d / 8) && strstr(r[i].bytes_f, "2(N-1)/N"),
               "ring bytes %lld %s", (long long)r[i].bytes, r[i].bytes_f);
        double t = 14 * 2e-6 + 2 * 7 * d / 8 / 450e9;
        EXPECT(fabs(r[i].time_s - t) < 1e-12, "ring time %g, not %g", r[i].time_s, t);
        char cell[80];
        cli_card_cell(&r[i], 6, CV_LANG_EN, cell, sizeof cell);
        EXPECT(!strcmp(cell, "4.20 ms"), "ring time cell '%s'", cell);
    }
    /* each row's formula is the registry's for the same spec */
    for (int i = 0; i < n; i++) {
        cv_spec s;
        cv_spec_init(&s);
        s.op = r[i].op;
        s.algo = r[i].algo;
        s.ranks = 8;
        s.count = r[i].bytes_d / cv_spec_bench_unit(&s);
        char f[64];
        int64_t b = cv_spec_textbook_bytes(&s, f, sizeof f);
        EXPECT(b == r[i].bytes && !strcmp(f, r[i].bytes_f), "%s %s: bytes %lld '%s' vs %lld '%s'",
               cv_op_name(r[i].op), cv_algo_name(r[i].algo), (long long)r[i].bytes, r[i].bytes_f,
               (long long)b, f);
    }
}

static void command(void)
{
    int rc = tc_run(NULL, "card");
    EXPECT(rc == 0 && strstr(tc_out, "Reference card") && strstr(tc_out, "rabenseifner") &&
               strstr(tc_out, "4.20 ms"), "card: %d %s", rc, tc_out);
    rc = tc_run(NULL, "card --lang zh --ranks 16 --link ib-ndr");
    EXPECT(rc == 0 && strstr(tc_out, "速查卡") && strstr(tc_out, "N = 16"), "card zh: %d %s", rc,
           tc_out);
    rc = tc_run(NULL, "card --json --ranks 4 --bytes 1MiB");
    cJSON *j = rc == 0 ? cJSON_Parse(tc_out) : NULL;
    EXPECT(j && cJSON_GetArraySize(cJSON_GetObjectItem(j, "rows")) > 20 &&
               cJSON_GetObjectItem(j, "ranks")->valueint == 4,
           "card --json: %d %.300s", rc, tc_out);
    cJSON_Delete(j);
    rc = tc_run(NULL, "card --ranks 1");
    EXPECT(rc == 2 && strstr(tc_out, "--ranks"), "card --ranks 1: %d %s", rc, tc_out);
}

int main(void)
{
    rows();
    command();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
