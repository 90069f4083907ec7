/*
 * test_gui_counts.c: the numbers in the narration's step text are the
 * plan's. For every op x algorithm the registry offers and every rank count
 * from 2 to 16 (powers of two and not), each step's text says how many
 * messages go between distinct ranks (transfers between the same two ranks
 * in one step are one message, as the cost model counts them) and how many
 * local operations stay inside a rank, apart; the numbers are read off the
 * words (English, Chinese and the brief form of a comparison) and compared
 * with a count made here from the plan's transfers directly. A broadcast
 * tree's root copying its own buffer beside its one send, a ring
 * AllGather's four local copies beside its four sends and Bruck's block
 * ranges that wrap round the buffer (two transfers, one message) were all
 * counted as messages once.
 */
#include "test_render_util.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The number written just before position at in text ("4 messages"). */
static long long number_before(const char *text, const char *at)
{
    const char *e = at;
    while (e > text && e[-1] == ' ')
        e--;
    const char *b = e;
    while (b > text && b[-1] >= '0' && b[-1] <= '9')
        b--;
    return b < e ? atoll(b) : -1;
}

/* Sum of the numbers before every occurrence of word; -1 where the word is
 * not there. */
static long long sum_before(const char *text, const char *word)
{
    long long sum = -1;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        sum = (sum < 0 ? 0 : sum) + number_before(text, p);
    return sum;
}

/* The number right after position at ("本地 4 次"). */
static long long number_after(const char *at)
{
    while (*at == ' ')
        at++;
    return *at >= '0' && *at <= '9' ? atoll(at) : -1;
}

/* From the plan: distinct (src, dst) pairs with src != dst, and the
 * transfers that stay inside one part. */
static void plan_counts(const cv_plan *plan, int step, long long *msgs, long long *locals)
{
    const cv_step *st = &plan->steps[step];
    *msgs = *locals = 0;
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst) {
            (*locals)++;
            continue;
        }
        bool before = false;
        for (int64_t j = st->first; j < i && !before; j++)
            before = plan->transfers[j].src == x->src && plan->transfers[j].dst == x->dst;
        *msgs += !before;
    }
}

static int checked_steps;

static void check_spec(cv_op op, cv_algo algo, int ranks)
{
    cv_spec s = tr_spec(op, algo, ranks, 2 * ranks);
    if (cv_algo_uses_nodes(op, algo))
        s.nodes = ranks % 2 == 0 ? 2 : 1;
    cv_plan *plan = NULL;
    char err[CV_ERR_LEN];
    if (cv_plan_create(&s, &plan, err, sizeof err) != CV_OK)
        return; /* a rank count the algorithm does not take */
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.visual = true;
    cv_trace *trace = NULL;
    if (cv_run(plan, cv_cpu_backend(), &o, &trace, err, sizeof err) != CV_OK) {
        EXPECT(false, "%s %s %d ranks did not run: %s", cv_op_name(op), cv_algo_name(algo), ranks,
               err);
        cv_plan_destroy(plan);
        return;
    }
    cv_state *before, *after;
    cv_state_create(trace, &before);
    cv_state_create(trace, &after);
    char t[4096];
    for (int k = 0; k < plan->nsteps; k++) {
        long long msgs, locals;
        plan_counts(plan, k, &msgs, &locals);
        cv_state_seek(before, k);
        cv_state_seek(after, k + 1);
        const char *name = cv_algo_name(algo), *opn = cv_op_name(op);
        for (int happened = 0; happened < 2; happened++) {
            gui__describe_step(plan, k, before, happened ? after : NULL, CV_LANG_EN, false, t,
                               sizeof t);
            const char *last = strrchr(t, '\n');
            last = last ? last + 1 : t;
            long long m = sum_before(last, " message");
            long long l = sum_before(last, " local ");
            EXPECT(m == (msgs ? msgs : -1),
                   "%s %s %d ranks step %d: %lld messages in the plan, '%s'", opn, name, ranks,
                   k + 1, msgs, last);
            EXPECT(l == (locals ? locals : -1),
                   "%s %s %d ranks step %d: %lld local in the plan, '%s'", opn, name, ranks, k + 1,
                   locals, last);
            EXPECT(strstr(t, "transfer") == NULL, "%s %s %d ranks step %d: '%s'", opn, name, ranks,
                   k + 1, t);
        }
        gui__describe_step(plan, k, before, NULL, CV_LANG_EN, true, t, sizeof t);
        EXPECT(sum_before(t, " message") == (msgs ? msgs : -1) &&
                   sum_before(t, " local ") == (locals ? locals : -1),
               "%s %s %d ranks step %d, brief: %lld messages, %lld local: '%s'", opn, name, ranks,
               k + 1, msgs, locals, t);
        gui__describe_step(plan, k, before, NULL, CV_LANG_ZH, false, t, sizeof t);
        const char *zm = strstr(t, " \xE6\x9D\xA1\xE6\xB6\x88\xE6\x81\xAF"); /* N 条消息 */
        const char *zl = strstr(t, "\xE6\x9C\xAC\xE5\x9C\xB0 ");             /* 本地 N 次 */
        EXPECT((zm ? number_before(t, zm) : 0) == msgs && (zl ? number_after(zl + 6) : 0) == locals,
               "%s %s %d ranks step %d, zh: %lld messages, %lld local: '%s'", opn, name, ranks,
               k + 1, msgs, locals, t);
        checked_steps++;
    }
    cv_state_destroy(before);
    cv_state_destroy(after);
    cv_trace_destroy(trace);
    cv_plan_destroy(plan);
}

int main(void)
{
    int pairs = 0;
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo list[CV_ALGO_COUNT];
        int n = cv_op_algos((cv_op)op, list);
        for (int i = 0; i < n; i++, pairs++)
            for (int ranks = 2; ranks <= 16; ranks++)
                check_spec((cv_op)op, list[i], ranks);
    }
    /* The three the issue named, by value. */
    char t[4096];
    struct {
        cv_op op;
        cv_algo algo;
        int ranks, step;
        const char *want;
    } named[] = {
        {CV_OP_BROADCAST, CV_ALGO_TREE, 4, 0, "1 message between GPUs: 1 copy; 1 local copy."},
        {CV_OP_ALLGATHER, CV_ALGO_RING, 4, 0, "4 messages between GPUs: 4 copies; 4 local copies."},
        {CV_OP_ALLGATHER, CV_ALGO_BRUCK, 5, 2, "5 messages between GPUs: 5 copies."},
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        cv_spec s = tr_spec(named[i].op, named[i].algo, named[i].ranks, 1);
        cv_plan *plan = NULL;
        char err[CV_ERR_LEN];
        EXPECT(cv_plan_create(&s, &plan, err, sizeof err) == CV_OK, "%s", err);
        if (!plan)
            continue;
        gui__describe_step(plan, named[i].step, NULL, NULL, CV_LANG_EN, false, t, sizeof t);
        EXPECT(strstr(t, named[i].want) != NULL, "%s %s %d: '%s' lacks '%s'",
               cv_op_name(named[i].op), cv_algo_name(named[i].algo), named[i].ranks, t,
               named[i].want);
        cv_plan_destroy(plan);
    }
    EXPECT(checked_steps > 2000, "only %d steps checked over %d pairs", checked_steps, pairs);
    printf("test_gui_counts: %d steps of %d op x algorithm pairs, %d checks, %d failures\n",
           checked_steps, pairs, checks, failures);
    return failures != 0;
}
