/*
 * test_lesson_quiz.c: answer checking for every quiz kind, as the GUI calls
 * it (indices, numbers, clicked cells) and as the terminal players call it
 * (typed lines), including the explanation a verdict carries, plus the
 * drill's shuffling and clock-free run on a scripted input.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson_drill.h"
#include "lesson.h"
#include "check.h"

/* One quiz of each kind on a four-rank send/recv (rank r sends r*100+i to
 * r+1), and a number quiz with an absolute tolerance. */
static const char fixture[] =
    "{\"format\": 1, \"id\": \"quiz-fixture\", \"track\": \"primitives\", \"order\": 1,\n"
    " \"title\": {\"en\": \"T\", \"zh\": \"题\"},\n"
    " \"setup\": {\"op\": \"sendrecv\", \"ranks\": 4, \"count\": 4, \"dtype\": \"int32\"},\n"
    " \"beats\": [\n"
    "  {\"step\": 0, \"text\": {\"en\": \"a\", \"zh\": \"甲\"},\n"
    "   \"quiz\": {\"id\": \"pick\", \"kind\": \"choice\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"choices\": [{\"text\": {\"en\": \"x\", \"zh\": \"x\"}, \"why\": {\"en\": \"why x\", \"zh\": \"x因\"}},\n"
    "                 {\"text\": {\"en\": \"y\", \"zh\": \"y\"}},\n"
    "                 {\"text\": {\"en\": \"z\", \"zh\": \"z\"}}],\n"
    "     \"answer\": 1, \"explain\": {\"en\": \"general\", \"zh\": \"总\"}, \"mistake\": 1,\n"
    "     \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
    "  {\"step\": 0, \"text\": {\"en\": \"b\", \"zh\": \"乙\"},\n"
    "   \"quiz\": {\"id\": \"value\", \"kind\": \"predict-value\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"rank\": 2, \"buf\": \"recv\", \"index\": 3, \"options\": [203, 103, 3.5],\n"
    "     \"answer\": 1, \"explain\": {\"en\": \"e\", \"zh\": \"释\"}, \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
    "  {\"step\": 0, \"text\": {\"en\": \"c\", \"zh\": \"丙\"},\n"
    "   \"quiz\": {\"id\": \"cells\", \"kind\": \"predict-cells\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"cells\": [{\"rank\": 0, \"buf\": \"recv\", \"first\": 0, \"count\": 4},\n"
    "               {\"rank\": 1, \"buf\": \"recv\", \"first\": 0, \"count\": 4},\n"
    "               {\"rank\": 2, \"buf\": \"recv\", \"first\": 0, \"count\": 4},\n"
    "               {\"rank\": 3, \"buf\": \"recv\", \"first\": 0, \"count\": 4}],\n"
    "     \"explain\": {\"en\": \"e\", \"zh\": \"释\"}, \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
    "  {\"step\": \"end\", \"text\": {\"en\": \"d\", \"zh\": \"丁\"},\n"
    "   \"quiz\": {\"id\": \"time\", \"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"unit\": \"ms\", \"tolerance_pct\": 10,\n"
    "     \"from_cost\": {\"op\": \"allreduce\", \"ranks\": 8, \"bytes\": \"1610612736\", \"dtype\": \"float16\",\n"
    "                   \"bw_gbps\": 600, \"quantity\": \"time_ms\"},\n"
    "     \"explain\": {\"en\": \"e\", \"zh\": \"释\"}, \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
    "  {\"step\": \"end\", \"text\": {\"en\": \"e\", \"zh\": \"戊\"},\n"
    "   \"quiz\": {\"id\": \"abs\", \"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"answer\": 7, \"unit\": \"GB\", \"tolerance\": 0.5,\n"
    "     \"explain\": {\"en\": \"e\", \"zh\": \"释\"}, \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
    "  {\"step\": \"end\", \"text\": {\"en\": \"f\", \"zh\": \"己\"},\n"
    "   \"quiz\": {\"id\": \"sliced\", \"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"unit\": \"ms\", \"tolerance_pct\": 2,\n"
    "     \"from_cost\": {\"op\": \"broadcast\", \"algo\": \"ring\", \"ranks\": 8, \"bytes\": \"1GB\",\n"
    "                   \"slices\": 64, \"bw_gbps\": 100, \"quantity\": \"time_ms\"},\n"
    "     \"explain\": {\"en\": \"e\", \"zh\": \"释\"}, \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
    "  {\"step\": \"end\", \"text\": {\"en\": \"g\", \"zh\": \"庚\"},\n"
    "   \"quiz\": {\"id\": \"comm\", \"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"unit\": \"steps\", \"tolerance\": 0,\n"
    "     \"from_cost\": {\"op\": \"allreduce\", \"algo\": \"ring\", \"ranks\": 5, \"bytes\": 40,\n"
    "                   \"bw_gbps\": 100, \"quantity\": \"comm_steps\"},\n"
    "     \"explain\": {\"en\": \"e\", \"zh\": \"释\"}, \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
    "  {\"step\": \"end\", \"text\": {\"en\": \"h\", \"zh\": \"辛\"},\n"
    "   \"quiz\": {\"id\": \"all-steps\", \"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
    "     \"unit\": \"steps\", \"tolerance\": 0,\n"
    "     \"from_cost\": {\"op\": \"allreduce\", \"algo\": \"ring\", \"ranks\": 5, \"bytes\": 40,\n"
    "                   \"bw_gbps\": 100, \"quantity\": \"steps\"},\n"
    "     \"explain\": {\"en\": \"e\", \"zh\": \"释\"}, \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}}\n"
    " ],\n"
    " \"mistakes\": [{\"myth\": {\"en\": \"m\", \"zh\": \"误\"},\n"
    "               \"truth\": {\"en\": \"t\", \"zh\": \"真\"}},\n"
    "               {\"myth\": {\"en\": \"myth of pick\", \"zh\": \"误二\"},\n"
    "                \"truth\": {\"en\": \"truth of pick\", \"zh\": \"真二\"}}]\n"
    "}\n";

static lesson *load_fixture(void)
{
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    int rc = lesson_load_buffer(NULL, fixture, strlen(fixture), 0, &l, &d);
    lesson_diags_print(&d, stderr);
    EXPECT(rc == 0 && l && l->nquizzes == 8, "fixture loads");
    lesson_diags_destroy(&d);
    return l;
}

static void test_choice(const lesson_quiz *q)
{
    lesson_verdict v;
    EXPECT(lesson_check_choice(q, 1, &v) && v.correct, "right choice");
    EXPECT(!lesson_check_choice(q, 0, &v), "wrong choice");
    EXPECT(v.why == &q->choices[0].why, "a choice's own why comes first");
    EXPECT(!lesson_check_choice(q, 2, &v) && v.why == &q->explain, "else the quiz's explanation");
    EXPECT(!lesson_check_choice(q, -1, &v) && !lesson_check_choice(q, 3, &v), "out of range is wrong");

    /* Typed letters and numbers name the shown positions. */
    char err[256], line[16];
    int right = lesson_quiz_shown(q, q->answer), wrong = right == 0 ? 1 : 0;
    EXPECT(right >= 0 && right < 3, "the answer is shown (at %d)", right);
    snprintf(line, sizeof line, "%c\n", 'a' + right);
    EXPECT(lesson_check_typed(q, line, &v, err, sizeof err) && v.correct, "letter %c", 'a' + right);
    snprintf(line, sizeof line, "  %c ", 'A' + right);
    EXPECT(lesson_check_typed(q, line, &v, err, sizeof err) && v.correct, "upper case, spaces");
    snprintf(line, sizeof line, "%d", right + 1);
    EXPECT(lesson_check_typed(q, line, &v, err, sizeof err) && v.correct, "1-based number");
    snprintf(line, sizeof line, "%c", 'a' + wrong);
    EXPECT(lesson_check_typed(q, line, &v, err, sizeof err) && !v.correct, "letter %c", 'a' + wrong);
    EXPECT(!lesson_check_typed(q, "d", &v, err, sizeof err) && strstr(err, "a to c"), "%s", err);
    EXPECT(!lesson_check_typed(q, "", &v, err, sizeof err), "empty");
}

/* The shown order: a permutation, the same every time, and the printed
 * quiz and answer agree with what typing a letter checks. */
static void test_order(const lesson_quiz *q)
{
    int a[LESSON_MAX_SHOWN], b[LESSON_MAX_SHOWN], seen = 0;
    int n = lesson_quiz_order(q, a);
    EXPECT(n == q->nchoices, "%d shown of %d", n, q->nchoices);
    EXPECT(lesson_quiz_order(q, b) == n && memcmp(a, b, sizeof(int) * (size_t)n) == 0,
           "the order changes between calls");
    for (int i = 0; i < n; i++)
        seen |= 1 << a[i];
    EXPECT(seen == (1 << n) - 1, "not a permutation: %x", seen);
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    lesson_print_quiz(q, LESSON_EN, f);
    lesson_print_answer(q, LESSON_EN, f);
    fclose(f);
    char want[512];
    int right = lesson_quiz_shown(q, q->answer);
    snprintf(want, sizeof want, "%c) %s\n", 'a' + right,
             lesson_text_get(&q->choices[q->answer].text, LESSON_EN));
    EXPECT(strstr(buf, want) != NULL, "the printed quiz lacks '%s':\n%s", want, buf);
    EXPECT(strstr(strstr(buf, "Answer: ") ? strstr(buf, "Answer: ") : buf, want) != NULL,
           "the printed answer is not '%s':\n%s", want, buf);
}

static void test_value(const lesson_quiz *q)
{
    lesson_verdict v;
    EXPECT(lesson_check_choice(q, 1, &v) && v.expected == 103, "option index");
    EXPECT(!lesson_check_choice(q, 0, &v) && v.why == &q->explain, "wrong option explains");
    char err[256], line[8];
    snprintf(line, sizeof line, "%c", 'a' + lesson_quiz_shown(q, q->answer));
    EXPECT(lesson_check_typed(q, line, &v, err, sizeof err) && v.correct, "letter");
    EXPECT(lesson_check_typed(q, "103", &v, err, sizeof err) && v.correct, "the value itself");
    EXPECT(lesson_check_typed(q, "3.5", &v, err, sizeof err) && !v.correct, "another option");
    EXPECT(lesson_check_typed(q, "42", &v, err, sizeof err) && !v.correct, "a value not offered");
    EXPECT(!lesson_check_typed(q, "x1", &v, err, sizeof err), "not a value");
}

static void test_cells(const lesson_quiz *q)
{
    lesson_cell all[16];
    for (int i = 0; i < 16; i++)
        all[i] = (lesson_cell){i / 4, CV_BUF_RECV, i % 4};
    lesson_verdict v;
    EXPECT(lesson_check_cells(q, all, 16, &v) && v.missing == 0 && v.extra == 0, "all sixteen");
    EXPECT(!lesson_check_cells(q, all, 15, &v) && v.missing == 1 && v.extra == 0, "one missing");
    lesson_cell more[18];
    memcpy(more, all, sizeof all);
    more[16] = (lesson_cell){0, CV_BUF_SEND, 0};
    more[17] = all[3]; /* a duplicate click counts once */
    EXPECT(!lesson_check_cells(q, more, 18, &v) && v.missing == 0 && v.extra == 1, "one extra");
    EXPECT(!lesson_check_cells(q, more + 1, 17, &v) && v.missing == 1 && v.extra == 1,
          "a duplicate click does not stand in for a missing cell");
    EXPECT(!lesson_check_cells(q, NULL, 0, &v) && v.missing == 16, "nothing picked");
    lesson_cell probe = {2, CV_BUF_RECV, 3};
    EXPECT(lesson_cells_contain(q->cells, q->ncells, &probe), "contains");
    probe.buf = CV_BUF_SEND;
    EXPECT(!lesson_cells_contain(q->cells, q->ncells, &probe), "not send");

    char err[256];
    EXPECT(lesson_check_typed(q, "0 recv 0-3, 1 recv 0-3; 2 recv 0-3, 3 recv 0-3", &v, err, sizeof err) &&
              v.correct,
          "typed ranges");
    EXPECT(lesson_check_typed(q, "0 recv 0-3, 1 RECV 0-3, 2 recv 0-3, 3 recv 0-2", &v, err, sizeof err) &&
              !v.correct && v.missing == 1,
          "typed, one short");
    EXPECT(!lesson_check_typed(q, "0 inbox 1", &v, err, sizeof err) && strstr(err, "RANK BUF INDEX"),
          "unknown buffer: %s", err);
    EXPECT(!lesson_check_typed(q, "0 recv 3-1", &v, err, sizeof err), "backwards range");
    EXPECT(!lesson_check_typed(q, "0 recv 1 junk", &v, err, sizeof err), "trailing junk");
    /* The half-open notation the stage prints, with or without brackets. */
    EXPECT(lesson_check_typed(q, "0 recv[0..4), 1 recv [0..4); 2 recv 0..4, 3 recv[0..4)", &v, err,
                              sizeof err) &&
              v.correct,
          "typed half-open ranges: %s", err);
    EXPECT(lesson_check_typed(q, "0 recv[0..4), 1 recv[0..4), 2 recv[0..4), 3 recv[0..3)", &v, err,
                              sizeof err) &&
              !v.correct && v.missing == 1,
          "[0..3) stops before element 3");
    EXPECT(lesson_check_typed(q, "0 recv[0..4), 1 recv[0..4), 2 recv[0..4), 3 recv[0..3), "
                                 "3 recv[3]",
                              &v, err, sizeof err) &&
              v.correct,
          "one cell in brackets");
    EXPECT(!lesson_check_typed(q, "0 recv[0..3]", &v, err, sizeof err) && strstr(err, "half-open"),
           "a closed bracket is refused, and the message says why: %s", err);
    EXPECT(!lesson_check_typed(q, "0 recv[2..2)", &v, err, sizeof err), "an empty range");
}

/* The answer to a predict-cells quiz prints in the notation it is typed
 * in: half-open ranges. */
static void test_cells_printed(const lesson_quiz *q)
{
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    lesson_print_answer(q, LESSON_EN, f);
    fclose(f);
    EXPECT(strstr(buf, "0 recv[0..4), 1 recv[0..4), 2 recv[0..4), 3 recv[0..4)") != NULL,
           "cells printed half-open: %s", buf);
}

/* The drill shows a mistake card only after the quiz that names it: the
 * choice quiz names card 1, no other quiz names one, and card 0 never
 * shows. The stage's transfers print half-open, as `collviz run` does. */
static void test_drill_cards(const lesson *l)
{
    lesson_drill_item items[8];
    for (int i = 0; i < l->nquizzes && i < 8; i++)
        items[i] = (lesson_drill_item){l, &l->quizzes[i]};
    /* the predict-value quiz, then the choice quiz, then the cells */
    lesson_drill_item order[3] = {items[1], items[0], items[2]};
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    lesson_drill_say_start(out, LESSON_EN, 3, 0, 1);
    lesson_drill_session *s = lesson_drill_begin(order, 3, LESSON_EN, 0, out, NULL, NULL);
    size_t before_choice = 0;
    EXPECT(lesson_drill_take(s, ""), "passes the first");
    fflush(out);
    before_choice = len;
    EXPECT(lesson_drill_take(s, ""), "passes the second");
    lesson_drill_take(s, "");
    lesson_drill_result res;
    lesson_drill_end(s, &res);
    fclose(out);
    EXPECT(res.asked == 3, "asked %d", res.asked);
    const char *card = strstr(buf, "myth of pick");
    EXPECT(card && (size_t)(card - buf) > before_choice, "the named card follows its quiz");
    EXPECT(card && strstr(card + 1, "myth of pick") == NULL, "shown once");
    EXPECT(strstr(buf, "Common mistake: m\n") == NULL, "a card no quiz names is not shown");
    EXPECT(strstr(buf, "half-open") != NULL, "the notation is explained");
    free(buf);

    /* a predict quiz after step 1 shows the last step's transfers */
    out = open_memstream(&buf, &len);
    lesson_print_state(l, l->quizzes[3].beat, out);
    fclose(out);
    EXPECT(strstr(buf, "r0.send[0..4) -> r1.recv[0..4)") != NULL, "transfers half-open: %s", buf);
    free(buf);
}

static void test_number(const lesson_quiz *q, const lesson_quiz *abs_q)
{
    /* from the cost model: 2 * 7/8 * 1610612736 B / 600 GB/s = 4.697 ms */
    EXPECT(q->has_cost && fabs(q->number - 4.697) < 0.001, "model answer %g", q->number);
    EXPECT(q->tolerance_pct && q->tolerance == 10, "tolerance");
    EXPECT(q->cost.spec.count == 805306368 && q->cost.link == NULL && q->cost.bw_gbps == 600,
          "cost reference");
    lesson_verdict v;
    EXPECT(lesson_check_number(q, 4.7, &v) && fabs(v.expected - q->number) < 1e-12, "4.7");
    EXPECT(lesson_check_number(q, 5.1, &v), "within 10%%");
    EXPECT(!lesson_check_number(q, 5.2, &v) && v.why == &q->explain, "beyond 10%%");
    EXPECT(!lesson_check_number(q, NAN, &v), "NaN is never right");
    char err[256];
    EXPECT(lesson_check_typed(q, "4.7 ms", &v, err, sizeof err) && v.correct, "with unit");
    EXPECT(lesson_check_typed(q, "4.7ms", &v, err, sizeof err) && v.correct, "unit attached");
    EXPECT(lesson_check_typed(q, "12", &v, err, sizeof err) && !v.correct, "12 ms is wrong here");
    EXPECT(!lesson_check_typed(q, "4.7 s", &v, err, sizeof err) && strstr(err, "in ms"), "%s", err);
    EXPECT(!lesson_check_typed(q, "fast", &v, err, sizeof err), "not a number");

    EXPECT(lesson_check_number(abs_q, 7.5, &v) && lesson_check_number(abs_q, 6.5, &v), "±0.5");
    EXPECT(!lesson_check_number(abs_q, 7.51, &v), "beyond ±0.5");
}

/* from_cost with slices (a pipelined ring broadcast), and the two step
 * counts: every step of the plan against those that move data between
 * ranks. */
static void test_cost_counts(const lesson_quiz *sliced, const lesson_quiz *comm,
                             const lesson_quiz *all)
{
    /* 1 GB to 8 GPUs at 100 GB/s in 64 slices: (64 + 8 - 2) steps of
     * 15.625 MB, 10 ms x 70/64 = 10.9375 ms */
    EXPECT(sliced->has_cost && sliced->cost.spec.slices == 64, "slices %d", sliced->cost.spec.slices);
    EXPECT(fabs(sliced->number - 10.9375) < 1e-9, "sliced answer %.17g", sliced->number);
    lesson_verdict v;
    EXPECT(lesson_check_number(sliced, 10.94, &v) && !lesson_check_number(sliced, 70, &v),
          "sliced check");
    /* ring all-reduce on 5 ranks: 2(N-1) = 8 steps, every one a round that
     * moves data between ranks */
    EXPECT(comm->has_cost && comm->cost.quantity == LESSON_COST_COMM_STEPS && comm->number == 8,
          "comm_steps %g", comm->number);
    EXPECT(all->has_cost && all->cost.quantity == LESSON_COST_STEPS && all->number == 8,
          "steps %g", all->number);
    EXPECT(strcmp(lesson_cost_quantity_name(LESSON_COST_COMM_STEPS), "comm_steps") == 0 &&
              strcmp(lesson_cost_quantity_unit(LESSON_COST_COMM_STEPS), "steps") == 0,
          "comm_steps vocabulary");
    EXPECT(lesson_check_number(comm, 8, &v) && !lesson_check_number(comm, 9, &v), "8, not 9");
}

static void test_text_player(const lesson *l)
{
    /* non-interactive: every quiz printed with its answer */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    lesson_play_opts o;
    lesson_play_opts_init(&o);
    o.lang = LESSON_ZH;
    EXPECT(lesson_play_text(l, 0, &o, stdin, out) == 0, "plays");
    fclose(out);
    /* Letters follow the shown order. */
    const lesson_quiz *cq = &l->quizzes[0];
    char right = (char)('a' + lesson_quiz_shown(cq, cq->answer));
    char wrong = (char)('a' + lesson_quiz_shown(cq, 0)); /* x, whose why the fixture gives */
    char want[64];
    snprintf(want, sizeof want, "答案: %c) y", right);
    EXPECT(strstr(buf, want) != NULL, "choice answer shown: %s", want);
    EXPECT(strstr(buf, "误") && strstr(buf, "真"), "mistake card shown");
    EXPECT(strstr(buf, "本课结束"), "end");
    free(buf);

    /* interactive on a script: wrong then right, etc. */
    char script[256];
    snprintf(script, sizeof script,
             "%c\n%c\n103\n0 recv 0-3, 1 recv 0-3, 2 recv 0-3, 3 recv 0-3\n4.7\nq\n", wrong, right);
    FILE *in = fmemopen((void *)script, strlen(script), "r");
    out = open_memstream(&buf, &len);
    o.lang = LESSON_EN;
    o.interactive = true;
    o.show_state = false;
    EXPECT(lesson_play_text(l, 0, &o, in, out) == 0, "plays interactively");
    fclose(out);
    fclose(in);
    EXPECT(strstr(buf, "Not quite.") && strstr(buf, "why x") && strstr(buf, "Try once more."),
          "wrong first, its why, a second try");
    EXPECT(strstr(buf, "Right.") != NULL, "then right");
    free(buf);
}

/* The two-level model through a lesson: a hierarchical all-reduce of 4 GB
 * on two nodes of eight GPUs, NVLink 4 inside, InfiniBand NDR between,
 * against the textbook sum of its three phases; and a figure the text
 * states, checked against the same model. */
static void test_two_level(void)
{
    static const char src[] =
        "{\"format\": 1, \"id\": \"two-level\", \"track\": \"cost\", \"order\": 1,"
        " \"title\": {\"en\": \"Two levels\", \"zh\": \"两级\"},"
        " \"setup\": {\"op\": \"allreduce\", \"algo\": \"hierarchical\", \"ranks\": 8, \"nodes\": 2,"
        " \"count\": 8},"
        " \"beats\": [{\"step\": \"start\", \"text\": {\"en\": \"Flat rings take 18.9 ms.\","
        " \"zh\": \"扁平环要 18.9 ms。\"},"
        " \"quiz\": {\"id\": \"t\", \"kind\": \"number\", \"prompt\": {\"en\": \"How long?\", \"zh\": \"多久？\"},"
        " \"unit\": \"ms\", \"from_cost\": {\"op\": \"allreduce\", \"algo\": \"hierarchical\","
        " \"ranks\": 16, \"nodes\": 2, \"bytes\": \"4GB\", \"link\": \"nvlink4\","
        " \"inter_link\": \"ib-ndr\", \"quantity\": \"time_ms\"},"
        " \"explain\": {\"en\": \"Three phases.\", \"zh\": \"三个阶段。\"},"
        " \"card\": {\"en\": \"Three phases.\", \"zh\": \"三个阶段。\"}}},"
        " {\"step\": \"end\", \"text\": {\"en\": \"Done.\", \"zh\": \"完成。\"},"
        " \"quiz\": {\"id\": \"nic\", \"kind\": \"number\", \"prompt\": {\"en\": \"Bytes?\", \"zh\": \"字节？\"},"
        " \"unit\": \"GB\", \"from_cost\": {\"op\": \"allreduce\", \"algo\": \"hierarchical\","
        " \"ranks\": 16, \"nodes\": 2, \"bytes\": \"4GB\", \"link\": \"nvlink4\","
        " \"inter_bw_gbps\": 50, \"inter_alpha_us\": 5, \"quantity\": \"inter_sent_gb\"},"
        " \"explain\": {\"en\": \"A shard.\", \"zh\": \"一个分片。\"},"
        " \"card\": {\"en\": \"A shard.\", \"zh\": \"一个分片。\"}}}],"
        " \"figures\": [{\"value\": 18.9, \"unit\": \"ms\", \"from_cost\": {\"op\": \"allreduce\","
        " \"algo\": \"multi-ring\", \"ranks\": 16, \"nodes\": 2, \"bytes\": \"4GB\","
        " \"link\": \"nvlink4\", \"inter_link\": \"ib-ndr\", \"quantity\": \"time_ms\"}}]}";
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    int rc = lesson_load_buffer(NULL, src, strlen(src), 0, &l, &d);
    lesson_diags_print(&d, stderr);
    EXPECT(rc == 0 && l && l->nquizzes == 2 && l->nfigures == 1, "two-level lesson loads");
    if (l) {
        /* 7 rounds of 0.5 GB on NVLink (2 us + 0.5 GB / 450 GB/s) each way
         * inside the node, 2 rounds of 0.25 GB on the NIC (5 us + 0.25 GB
         * / 50 GB/s) between the nodes */
        double intra = 7 * (2e-6 + 0.5e9 / 450e9), inter = 2 * (5e-6 + 0.25e9 / 50e9);
        double want = (2 * intra + inter) * 1e3;
        const lesson_quiz *q = &l->quizzes[0];
        EXPECT(q->has_cost && q->cost.spec.nodes == 2 && q->cost.inter_bw_gbps == 50 &&
                  q->cost.inter_alpha_us == 5 && strcmp(q->cost.inter_link, "ib-ndr") == 0,
              "two-level cost reference");
        EXPECT(fabs(q->number - want) < 1e-9, "hierarchical %.9g ms, expected %.9g", q->number,
              want);
        EXPECT(fabs(l->quizzes[1].number - 0.5) < 1e-12 && l->quizzes[1].cost.inter_link == NULL,
              "each NIC sends its 0.5 GB shard once: %g", l->quizzes[1].number);
        /* NCCL's flat rings, one channel per GPU of a node: 2(N-1) = 30
         * rounds, in each of which a NIC sends 1/16 of its channel's 0.5 GB
         * and is the slowest port */
        double flat = 30 * (5e-6 + 0.5e9 / 16 / 50e9) * 1e3;
        EXPECT(l->figures[0].has_cost && fabs(l->figures[0].cost.value - flat) < 1e-9,
              "multi-ring %.9g ms, expected %.9g", l->figures[0].cost.value, flat);
        EXPECT(l->setups[0].spec.nodes == 2, "setup nodes");
    }
    lesson_destroy(l);
    lesson_diags_destroy(&d);
}

/* A crossover: tree and ring all-reduce on 8 ranks, 100 GB/s, 5 us. The
 * tree takes 6 (a + S/B), the ring 14 (a + S/8B): equal at
 * S = 8 a B / 4.25 = 941 kB. */
static void test_crossover(void)
{
    static const char src[] =
        "{\"format\": 1, \"id\": \"cross\", \"track\": \"cost\", \"order\": 1,"
        " \"title\": {\"en\": \"Cross\", \"zh\": \"交叉\"},"
        " \"setup\": {\"op\": \"allreduce\", \"ranks\": 4, \"count\": 4},"
        " \"beats\": [{\"step\": \"start\", \"text\": {\"en\": \"Where?\", \"zh\": \"在哪？\"},"
        " \"quiz\": {\"id\": \"kb\", \"kind\": \"number\", \"prompt\": {\"en\": \"Size?\", \"zh\": \"多大？\"},"
        " \"unit\": \"kB\", \"from_cost\": {\"op\": \"allreduce\", \"algo\": \"tree\","
        " \"versus\": \"ring\", \"ranks\": 8, \"bw_gbps\": 100, \"alpha_us\": 5,"
        " \"quantity\": \"crossover_kb\"},"
        " \"explain\": {\"en\": \"There.\", \"zh\": \"那里。\"}, \"card\": {\"en\": \"There.\", \"zh\": \"那里。\"}}},"
        " {\"step\": \"end\", \"text\": {\"en\": \"Done.\", \"zh\": \"完成。\"},"
        " \"quiz\": {\"id\": \"c\", \"kind\": \"choice\", \"prompt\": {\"en\": \"Pick.\", \"zh\": \"选。\"},"
        " \"choices\": [{\"text\": {\"en\": \"Yes\", \"zh\": \"是\"}}, {\"text\": {\"en\": \"No\", \"zh\": \"否\"},"
        " \"why\": {\"en\": \"No.\", \"zh\": \"否。\"}}], \"answer\": 0, \"card\": {\"en\": \"Yes.\", \"zh\": \"是。\"}}}]}";
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    int rc = lesson_load_buffer(NULL, src, strlen(src), 0, &l, &d);
    lesson_diags_print(&d, stderr);
    EXPECT(rc == 0 && l, "crossover lesson loads");
    if (l) {
        double want = 8 * 5e-6 * 100e9 / 4.25 / 1e3;
        const lesson_quiz *q = &l->quizzes[0];
        EXPECT(q->has_cost && q->cost.versus == CV_ALGO_RING && q->cost.spec.algo == CV_ALGO_TREE,
              "crossover reference");
        EXPECT(fabs(q->number - want) < want * 1e-3, "crossover %.6g kB, expected %.6g", q->number,
              want);
    }
    lesson_destroy(l);
    lesson_diags_destroy(&d);
}

/* The fixture every case below the first two reads, loaded once. */
static lesson *fix;

static void choice(void) { test_choice(&fix->quizzes[0]); }
static void order(void) { test_order(&fix->quizzes[0]); }
static void value(void) { test_value(&fix->quizzes[1]); }
static void cells(void) { test_cells(&fix->quizzes[2]); }
static void number(void) { test_number(&fix->quizzes[3], &fix->quizzes[4]); }
static void cost_counts(void)
{
    test_cost_counts(&fix->quizzes[5], &fix->quizzes[6], &fix->quizzes[7]);
}
static void cells_printed(void) { test_cells_printed(&fix->quizzes[2]); }
static void drill_cards(void) { test_drill_cards(fix); }
static void text_player(void) { test_text_player(fix); }
static void keys(void)
{
    EXPECT(strcmp(fix->quizzes[2].key, "quiz-fixture/cells") == 0, "key %s", fix->quizzes[2].key);
}

static const test_case cases[] = {
    CASE("two-level", test_two_level),
    CASE("crossover", test_crossover),
    CASE("choice", choice),
    CASE("order", order),
    CASE("value", value),
    CASE("cells", cells),
    CASE("number", number),
    CASE("cost-counts", cost_counts),
    CASE("cells-printed", cells_printed),
    CASE("drill-cards", drill_cards),
    CASE("text-player", text_player),
    CASE("keys", keys),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    fix = load_fixture();
    if (!fix)
        return cases_end();
    cases_run();
    lesson_destroy(fix);
    return cases_end();
}
