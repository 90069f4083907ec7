/*
 * test_gui_text.c: the narration's default words, derived from the plan:
 * "every GPU" only where every rank sends, pairs named where a step has a
 * few, the direction of a shift, and a compared pair explained as two
 * algorithms, in English and Chinese.
 */
#include "test_render_util.h"

#include <string.h>

#include "check.h"

/* The step sentence of step (0-based) of op/algo on ranks ranks. */
static void step_words(cv_op op, cv_algo algo, int ranks, int step, cv_lang lang, char *out,
                       size_t outlen)
{
    cv_spec s = tr_spec(op, algo, ranks, 8);
    cv_plan *plan = NULL;
    char err[CV_ERR_LEN];
    if (cv_plan_build(&s, &plan, err, sizeof err) != CV_OK) {
        snprintf(out, outlen, "no plan: %s", err);
        return;
    }
    gui__describe_step(plan, step, 0, lang, false, out, outlen);
    cv_plan_destroy(plan);
}

static void expect_has(const char *text, const char *want, const char *what)
{
    EXPECT(strstr(text, want) != NULL, "%s: '%s' lacks '%s'", what, text, want);
}

int main(void)
{
    char t[1024];
    /* Ring reduce-scatter step: every rank sends right. */
    step_words(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 1, CV_LANG_EN, t, sizeof t);
    expect_has(t, "every GPU sends to its right neighbour", "ring allreduce step 2");
    step_words(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 1, CV_LANG_ZH, t, sizeof t);
    expect_has(t, "每个 GPU 发给右邻居", "ring allreduce step 2, zh");

    /* Tree reduce on 4 ranks, step 1: only ranks 1 and 3 send. */
    step_words(CV_OP_REDUCE, CV_ALGO_TREE, 4, 0, CV_LANG_EN, t, sizeof t);
    EXPECT(strstr(t, "every GPU") == NULL, "tree step 1 claims every GPU: '%s'", t);
    expect_has(t, "GPU 1 \xE2\x86\x92 GPU 0", "tree reduce step 1");
    expect_has(t, "GPU 3 \xE2\x86\x92 GPU 2", "tree reduce step 1");

    /* Tree reduce on 16 ranks, its first tree step: 8 senders, each one
     * rank down, too many to list. */
    step_words(CV_OP_REDUCE, CV_ALGO_TREE, 16, 0, CV_LANG_EN, t, sizeof t);
    expect_has(t, "8 GPUs each send to the GPU 1 behind", "tree reduce 16 ranks");
    step_words(CV_OP_REDUCE, CV_ALGO_TREE, 16, 0, CV_LANG_ZH, t, sizeof t);
    expect_has(t, "8 个 GPU 各自发给后方第 1 个 GPU", "tree reduce 16 ranks, zh");

    /* Broadcast from the root: one sender. */
    step_words(CV_OP_BROADCAST, CV_ALGO_DIRECT, 4, 0, CV_LANG_EN, t, sizeof t);
    expect_has(t, "GPU 0 sends", "direct broadcast");

    /* Brief, for one side of a comparison: the pattern and the amount. */
    {
        cv_spec rs = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
        cv_plan *plan = NULL;
        char err[CV_ERR_LEN];
        EXPECT(cv_plan_build(&rs, &plan, err, sizeof err) == CV_OK, "ring plan: %s", err);
        if (plan) {
            gui__describe_step(plan, 1, 0, CV_LANG_EN, true, t, sizeof t);
            EXPECT(strcmp(t, "Step 2 (reduce-scatter): every GPU sends to its right neighbour; "
                             "4 transfers, 8 elements.") == 0,
                   "brief ring step: '%s'", t);
            cv_plan_destroy(plan);
        }
    }

    /* A step that stays inside each rank says so once: recursive doubling's
     * local addition, a sub-phase of round 1. */
    step_words(CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, 4, 1, CV_LANG_EN, t, sizeof t);
    expect_has(t, "work stays inside each rank", "recursive doubling's local reduce");
    EXPECT(strstr(t, "some local") == NULL, "all-local step also says 'some local': '%s'", t);

    /* Past the end. */
    step_words(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 99, CV_LANG_EN, t, sizeof t);
    expect_has(t, "All steps done", "after the last step");

    /* The header and body of a comparison name both algorithms. */
    cv_spec s = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    char title[256], body[2048];
    gui__explain(&s, CV_ALGO_TREE, CV_LANG_EN, title, sizeof title, body, sizeof body);
    EXPECT(strcmp(title, "AllReduce: ring vs tree") == 0, "compare title '%s'", title);
    expect_has(body, "Left ring, right tree", "compare body");
    expect_has(body, "Ring: ranks pass chunks", "compare body, ring");
    expect_has(body, "Tree: data flows along a tree", "compare body, tree");
    gui__explain(&s, CV_ALGO_TREE, CV_LANG_ZH, title, sizeof title, body, sizeof body);
    expect_has(body, "左边 ring，右边 tree", "compare body, zh");
    EXPECT(strcmp(title, "AllReduce：ring 对比 tree") == 0, "compare title, zh: '%s'", title);
    gui__explain(&s, CV_ALGO_COUNT, CV_LANG_EN, title, sizeof title, body, sizeof body);
    EXPECT(strcmp(title, "AllReduce (ring)") == 0, "single title '%s'", title);
    EXPECT(strstr(body, "Left") == NULL, "single body mentions a comparison: '%s'", body);

    printf("test_gui_text: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
