/*
 * test_lesson_load.c: every shipped lesson under lessons/ loads and
 * validates (plans built, cost answers recomputed, predict answers checked
 * against real traces), and each lesson's own answers pass its own quiz
 * checks, so a lesson can never ship a quiz nobody can answer right. Also
 * checks the course's order, lookup and suggestions, a lesson given twice,
 * that the documented example in docs/LESSONS.md is itself valid, the
 * algorithm a setup override gets, and the quizzes converted to from_cost.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "lesson_progress.h"
#include "check.h"

/* The lesson's own answer, as a learner would give it, must be right; a
 * neighbouring wrong answer must be wrong. */
/* Characters, not bytes, so that Chinese and English lengths compare. */
static size_t text_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void check_own_answers(const lesson *l)
{
    for (int i = 0; i < l->nquizzes; i++) {
        const lesson_quiz *q = &l->quizzes[i];
        lesson_verdict v;
        switch (q->kind) {
        case LESSON_QUIZ_CHOICE:
            EXPECT(lesson_check_choice(q, q->answer, &v), "%s", q->key);
            EXPECT(!lesson_check_choice(q, (q->answer + 1) % q->nchoices, &v), "%s", q->key);
            EXPECT(v.why != NULL, "%s: a wrong choice explains itself", q->key);
            break;
        case LESSON_QUIZ_PREDICT_VALUE:
            EXPECT(lesson_check_choice(q, q->answer, &v), "%s", q->key);
            EXPECT(!lesson_check_choice(q, (q->answer + 1) % q->noptions, &v), "%s", q->key);
            break;
        case LESSON_QUIZ_NUMBER:
            EXPECT(lesson_check_number(q, q->number, &v), "%s", q->key);
            EXPECT(!lesson_check_number(q, q->number * 2 + 1, &v), "%s", q->key);
            EXPECT(lesson_text_present(v.why), "%s: explains", q->key);
            break;
        default: {
            int n = 0;
            for (int k = 0; k < q->ncells; k++)
                n += (int)q->cells[k].count;
            lesson_cell *cells = calloc((size_t)n + 1, sizeof *cells);
            int m = 0;
            for (int k = 0; k < q->ncells; k++)
                for (int64_t e = 0; e < q->cells[k].count; e++)
                    cells[m++] = (lesson_cell){q->cells[k].rank, q->cells[k].buf,
                                               q->cells[k].first + e};
            EXPECT(lesson_check_cells(q, cells, n, &v), "%s", q->key);
            EXPECT(!lesson_check_cells(q, cells, n - 1, &v) && v.missing == 1, "%s", q->key);
            free(cells);
            break;
        }
        }
        EXPECT(lesson_text_present(&q->card), "%s has a card", q->key);
    }
}

static void test_shipped(void)
{
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson_course course;
    lesson_course_init(&course);
    const char *dir = COLLVIZ_SOURCE_DIR "/lessons";
    int bad = lesson_course_load(&course, &dir, 1, 0, &diags);
    lesson_diags_print(&diags, stderr);
    EXPECT(bad == 0 && diags.count == 0, "%d files with problems", bad);
    EXPECT(course.nlessons >= 3, "only %d lessons", course.nlessons);
    int kinds[LESSON_QUIZ_KIND_COUNT] = {0};
    int at[LESSON_MAX_SHOWN] = {0}, nat = 0; /* where right answers are shown */
    int nchoice = 0, longest[2] = {0}; /* choice quizzes; whose right answer is the longest */
    for (int i = 0; i < course.nlessons; i++) {
        const lesson *l = course.lessons[i];
        EXPECT(l->nquizzes >= 2, "%s", l->id);
        if (i > 0) {
            const lesson *p = course.lessons[i - 1];
            EXPECT(p->track < l->track || (p->track == l->track && p->order < l->order),
                  "%s before %s", p->id, l->id);
        }
        for (int b = 0; b < l->nbeats; b++) {
            const lesson_beat *beat = &l->beats[b];
            EXPECT(beat->setup >= 0 && beat->setup < l->nsetups, "%s", l->id);
            EXPECT(beat->step >= 0 && beat->step <= l->setup_steps[beat->setup], "%s beat %d",
                  l->id, b);
        }
        for (int k = 0; k < l->nquizzes; k++) {
            const lesson_quiz *q = &l->quizzes[k];
            kinds[q->kind]++;
            if (q->kind == LESSON_QUIZ_CHOICE) {
                for (int lang = 0; lang < 2; lang++) {
                    lesson_lang L = lang ? LESSON_ZH : LESSON_EN;
                    size_t right = text_chars(lesson_text_get(&q->choices[q->answer].text, L));
                    bool is_longest = true;
                    for (int c = 0; c < q->nchoices; c++)
                        if (c != q->answer &&
                            text_chars(lesson_text_get(&q->choices[c].text, L)) >= right)
                            is_longest = false;
                    longest[lang] += is_longest;
                }
                nchoice++;
            }
            int shown = lesson_quiz_shown(q, q->answer);
            if (shown >= 0) {
                at[shown]++;
                nat++;
            }
        }
        check_own_answers(l);
        EXPECT(lesson_course_find(&course, l->id) == i, "%s", l->id);
    }
    for (int k = 0; k < LESSON_QUIZ_KIND_COUNT; k++)
        EXPECT(kinds[k] > 0, "no shipped quiz of kind %s", lesson_quiz_kind_name((lesson_quiz_kind)k));
    /* However the files list them, the right answer must not sit in one
     * place a student learns to press (the files put it first 71 times of
     * 76). */
    for (int k = 0; k < LESSON_MAX_SHOWN; k++)
        EXPECT(at[k] * 2 <= nat, "%d of %d right answers are shown at position %d", at[k], nat,
               k + 1);
    EXPECT(at[0] > 0 && at[1] > 0 && at[2] > 0, "right answers at 1, 2, 3: %d %d %d", at[0],
           at[1], at[2]);
    /* Nor may its length give it away: the right choice is strictly the
     * longest in at most half of the choice quizzes (it was in 35 of 47),
     * in either language. */
    for (int lang = 0; lang < 2; lang++)
        EXPECT(longest[lang] * 2 <= nchoice,
               "the right choice is the longest in %d of %d choice quizzes (%s)", longest[lang],
               nchoice, lang ? "zh" : "en");
    printf("right choice strictly the longest: en %d, zh %d of %d choice quizzes\n", longest[0],
           longest[1], nchoice);

    /* deep links: a typo finds the real id */
    int close[4];
    int n = lesson_course_suggest(&course, "prim-sendrcv", close, 4);
    EXPECT(n >= 1 && strcmp(course.lessons[close[0]]->id, "prim-sendrecv") == 0, "suggest");
    n = lesson_course_suggest(&course, "ring", close, 4);
    EXPECT(n >= 1, "a word of the id finds it");
    EXPECT(lesson_course_find(&course, "no-such-lesson") == -1, "find");

    /* where `collviz` alone resumes */
    lesson_progress p;
    lesson_progress_init(&p);
    int beat = -1;
    EXPECT(lesson_course_resume(&course, &p, &beat) == 0 && beat == 0, "fresh: the first lesson");
    lesson_progress_set_done(&p, course.lessons[0]->id, true);
    EXPECT(lesson_course_resume(&course, &p, &beat) == 1 && beat == 0, "the first not done");
    int ring = lesson_course_find(&course, "algo-ring-allreduce");
    lesson_progress_set_current(&p, "algo-ring-allreduce", 3);
    EXPECT(lesson_course_resume(&course, &p, &beat) == ring && beat == 3, "in progress");
    lesson_progress_set_current(&p, "algo-ring-allreduce", 999);
    EXPECT(lesson_course_resume(&course, &p, &beat) == ring &&
              beat == course.lessons[ring]->nbeats - 1,
          "beat clamped");
    lesson_progress_set_current(&p, "a-lesson-since-removed", 2);
    EXPECT(lesson_course_resume(&course, &p, &beat) == 1 && beat == 0, "a stale id is ignored");
    lesson_progress_destroy(&p);
    lesson_course_destroy(&course);
    lesson_diags_destroy(&diags);
}

/* The same file given twice: the second is refused as a duplicate id. */
static void test_duplicate_id(void)
{
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson_course course;
    lesson_course_init(&course);
    const char *paths[2] = {COLLVIZ_SOURCE_DIR "/lessons/prim-sendrecv.json",
                            COLLVIZ_SOURCE_DIR "/lessons/prim-sendrecv.json"};
    int bad = lesson_course_load(&course, paths, 2, LESSON_LOAD_NO_TRACE, &diags);
    EXPECT(bad == 1 && course.nlessons == 1, "bad %d lessons %d", bad, course.nlessons);
    EXPECT(diags.count == 1 && strstr(diags.items[0].message, "duplicate lesson id \"prim-sendrecv\""),
          "%s", diags.count ? diags.items[0].message : "(none)");
    EXPECT(diags.count == 1 && diags.items[0].line == 3 && diags.items[0].col == 9, "%d:%d",
          diags.count ? diags.items[0].line : 0, diags.count ? diags.items[0].col : 0);
    lesson_course_destroy(&course);
    lesson_diags_destroy(&diags);
}

/* A beat's setup override keeps the lesson's algo unless it gives its own,
 * except when it changes op without one: then the new op's default. */
static void test_override_algo(void)
{
    static const char text[] =
        "{\"format\": 1, \"id\": \"override\", \"track\": \"algorithms\", \"order\": 1,\n"
        " \"title\": {\"en\": \"T\", \"zh\": \"题\"},\n"
        " \"setup\": {\"op\": \"allreduce\", \"algo\": \"rabenseifner\", \"ranks\": 4, \"count\": 8},\n"
        " \"beats\": [\n"
        "  {\"step\": 0, \"setup\": {\"ranks\": 8}, \"text\": {\"en\": \"a\", \"zh\": \"甲\"}},\n"
        "  {\"step\": 0, \"setup\": {\"op\": \"allreduce\", \"count\": 16}, \"text\": {\"en\": \"b\", \"zh\": \"乙\"}},\n"
        "  {\"step\": 0, \"setup\": {\"op\": \"broadcast\"}, \"text\": {\"en\": \"c\", \"zh\": \"丙\"}},\n"
        "  {\"step\": 0, \"setup\": {\"op\": \"broadcast\", \"algo\": \"tree\"}, \"text\": {\"en\": \"d\", \"zh\": \"丁\"}},\n"
        "  {\"step\": 0, \"setup\": {\"algo\": \"ring\"}, \"text\": {\"en\": \"e\", \"zh\": \"戊\"},\n"
        "   \"quiz\": {\"id\": \"q1\", \"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
        "     \"answer\": 1, \"unit\": \"x\", \"explain\": {\"en\": \"e\", \"zh\": \"释\"},\n"
        "     \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}},\n"
        "  {\"step\": 0, \"setup\": {}, \"text\": {\"en\": \"f\", \"zh\": \"己\"},\n"
        "   \"quiz\": {\"id\": \"q2\", \"kind\": \"number\", \"prompt\": {\"en\": \"p\", \"zh\": \"问\"},\n"
        "     \"answer\": 1, \"unit\": \"x\", \"explain\": {\"en\": \"e\", \"zh\": \"释\"},\n"
        "     \"card\": {\"en\": \"c\", \"zh\": \"卡\"}}}\n"
        " ]}\n";
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson *l = NULL;
    int rc = lesson_load_buffer(NULL, text, strlen(text), LESSON_LOAD_NO_TRACE, &l, &diags);
    lesson_diags_print(&diags, stderr);
    EXPECT(rc == 0 && l && l->nbeats == 6, "the override fixture loads");
    if (l) {
        cv_algo offered[CV_ALGO_COUNT];
        cv_op_algos(CV_OP_BROADCAST, offered);
        const cv_spec *s[6];
        for (int b = 0; b < 6; b++)
            s[b] = &l->setups[l->beats[b].setup].spec;
        EXPECT(s[0]->op == CV_OP_ALLREDUCE && s[0]->algo == CV_ALGO_RABENSEIFNER && s[0]->ranks == 8,
              "no op given: the lesson's algo is kept");
        EXPECT(s[1]->algo == CV_ALGO_RABENSEIFNER && s[1]->count == 16,
              "the lesson's own op repeated: the lesson's algo is kept");
        EXPECT(s[2]->op == CV_OP_BROADCAST && s[2]->algo == offered[0],
              "op changed without algo: broadcast's default (%s), got %s", cv_algo_name(offered[0]),
              cv_algo_name(s[2]->algo));
        EXPECT(s[3]->op == CV_OP_BROADCAST && s[3]->algo == CV_ALGO_TREE, "op and algo given");
        EXPECT(s[4]->op == CV_OP_ALLREDUCE && s[4]->algo == CV_ALGO_RING && s[4]->ranks == 4,
              "algo given: replaces the lesson's, not an earlier override's keys");
        EXPECT(l->beats[5].setup == 0 && s[5]->algo == CV_ALGO_RABENSEIFNER, "{} goes back");
    }
    lesson_destroy(l);
    lesson_diags_destroy(&diags);
}

/* The quizzes moved from typed-in answers to the cost model keep their
 * numbers. */
static void test_converted_quizzes(void)
{
    static const struct {
        const char *lesson, *quiz;
        lesson_cost_quantity quantity;
        int slices;
        double value;
    } want[] = {
        {"algo-pipelined-broadcast", "pipelined-time", LESSON_COST_TIME_MS, 64, 10.9375},
        {"algo-ring-five", "comm-steps", LESSON_COST_COMM_STEPS, 1, 8},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, COLLVIZ_SOURCE_DIR "/lessons/%s.json", want[i].lesson);
        lesson_diags diags;
        lesson_diags_init(&diags);
        lesson *l = NULL;
        lesson_load_file(path, LESSON_LOAD_NO_TRACE, &l, &diags);
        lesson_diags_print(&diags, stderr);
        const lesson_quiz *q = NULL;
        for (int k = 0; l && k < l->nquizzes; k++)
            if (strcmp(l->quizzes[k].id, want[i].quiz) == 0)
                q = &l->quizzes[k];
        EXPECT(q && q->has_cost && q->cost.quantity == want[i].quantity &&
                  q->cost.spec.slices == want[i].slices,
              "%s/%s comes from the cost model", want[i].lesson, want[i].quiz);
        EXPECT(q && q->number > want[i].value - 1e-9 && q->number < want[i].value + 1e-9,
              "%s/%s: %.17g, expected %g", want[i].lesson, want[i].quiz, q ? q->number : -1.0,
              want[i].value);
        lesson_destroy(l);
        lesson_diags_destroy(&diags);
    }
}

/* docs/LESSONS.md's complete example must itself be a valid lesson. */
static void test_doc_example(void)
{
    FILE *f = fopen(COLLVIZ_SOURCE_DIR "/docs/LESSONS.md", "rb");
    EXPECT(f != NULL, "docs/LESSONS.md");
    if (!f)
        return;
    static char doc[1 << 20];
    size_t len = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[len] = '\0';
    const char *start = strstr(doc, "## Complete example\n");
    start = start ? strstr(start, "```json\n") : NULL;
    EXPECT(start != NULL, "example heading");
    if (!start)
        return;
    start += strlen("```json\n");
    const char *end = strstr(start, "```");
    EXPECT(end != NULL, "example end");
    if (!end)
        return;
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson *l = NULL;
    int rc = lesson_load_buffer(NULL, start, (size_t)(end - start), 0, &l, &diags);
    lesson_diags_print(&diags, stderr);
    EXPECT(rc == 0 && l, "the documented example loads");
    if (l) {
        EXPECT(l->nsetups == 2 && l->beats[2].new_setup && l->beats[2].setup == 1, "setup switch");
        EXPECT(l->beats[2].diagram && l->beats[2].diagram->nboxes == 3, "diagram");
        EXPECT(l->quizzes[2].has_cost && l->quizzes[2].number > 11.5 && l->quizzes[2].number < 12.5,
              "cost answer %g", l->quizzes[2].number);
    }
    lesson_destroy(l);
    lesson_diags_destroy(&diags);
}

/* A beat's step timeline: blocks placed after earlier ones start where
 * those end, a comm block lasts what the cost model says (priced here
 * again, straight from the engine), a compute block what the file gives,
 * and the timeline carries to later beats until one gives null. */
static void test_timeline(void)
{
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson *l = NULL;
    int rc = lesson_load_file(COLLVIZ_SOURCE_DIR "/lessons/par-dp-ddp.json", LESSON_LOAD_NO_TRACE,
                              &l, &diags);
    lesson_diags_print(&diags, stderr);
    EXPECT(rc == 0 && l, "par-dp-ddp loads");
    if (!l) {
        lesson_diags_destroy(&diags);
        return;
    }
    const lesson_timeline *t = l->beats[4].timeline;
    EXPECT(t && l->beats[3].timeline == NULL, "beat 5 brings the timeline");
    EXPECT(t && l->beats[5].timeline == t, "beat 6 keeps it");
    if (t) {
        EXPECT(strcmp(t->unit, "ms") == 0 && t->nlanes == 2 && t->nblocks == 7, "%s %d lanes %d blocks",
              t->unit, t->nlanes, t->nblocks);
        const lesson_span *l3 = &t->blocks[1], *a1 = &t->blocks[4], *a2 = &t->blocks[5];
        EXPECT(l3->kind == LESSON_SPAN_COMPUTE && !l3->has_cost && l3->duration == 1.5 &&
                  l3->start == 1.5,
              "layer 3: %g + %g", l3->start, l3->duration);
        EXPECT(a1->kind == LESSON_SPAN_COMM && a1->has_cost && a1->lane == 1 && a1->start == 3.0,
              "bucket 1 starts when layer 3 ends: %g", a1->start);
        /* 25 MiB of float32 on a ring of 8 over ib-hdr */
        cv_spec spec;
        cv_spec_init(&spec);
        spec.op = CV_OP_ALLREDUCE;
        spec.algo = CV_ALGO_RING;
        spec.ranks = 8;
        spec.count = 25 * 1024 * 1024 / 4;
        cv_plan *plan = NULL;
        char err[256];
        EXPECT(cv_plan_create(&spec, &plan, err, sizeof err) == CV_OK, "%s", err);
        cv_cost cost;
        memset(&cost, 0, sizeof cost);
        if (plan)
            cv_cost_plan(plan, cv_link_find("ib-hdr"), &cost);
        cv_plan_destroy(plan);
        double ms = cost.seconds * 1e3;
        EXPECT(ms > 1.5 && fabs(a1->duration - ms) < 1e-9 * ms && fabs(a2->duration - ms) < 1e-9 * ms,
              "all-reduce %g ms and %g ms, the model %g ms", a1->duration, a2->duration, ms);
        EXPECT(t->nmarkers == 1 && t->markers[0].at == 6.0, "backward ends at 6 ms");
        EXPECT(fabs(t->end - (6.0 + ms + 1.0)) < 1e-9, "the step ends after the optimizer: %g",
              t->end);
    }
    lesson_destroy(l);
    lesson_diags_destroy(&diags);
    /* "timeline": null ends it: par-pp's schedules stop at beat 7. */
    lesson_diags_init(&diags);
    l = NULL;
    rc = lesson_load_file(COLLVIZ_SOURCE_DIR "/lessons/par-pp.json", LESSON_LOAD_NO_TRACE, &l,
                          &diags);
    EXPECT(rc == 0 && l && l->nbeats > 6, "par-pp loads");
    if (l && l->nbeats > 6) {
        const lesson_timeline *pp = l->beats[5].timeline;
        EXPECT(pp && strcmp(pp->unit, "slot") == 0 && pp->nlanes == 6, "the schedules, in slots");
        EXPECT(l->beats[6].timeline == NULL, "null clears the timeline");
        EXPECT(l->beats[5].diagram == NULL, "null clears the diagram beside it");
    }
    lesson_destroy(l);
    lesson_diags_destroy(&diags);
}

/* docs/LESSONS.md lists the course: every shipped lesson, with its quiz
 * count, and nothing that is not shipped. */
static void test_doc_course_list(void)
{
    FILE *f = fopen(COLLVIZ_SOURCE_DIR "/docs/LESSONS.md", "rb");
    EXPECT(f != NULL, "docs/LESSONS.md");
    if (!f)
        return;
    static char doc[1 << 20];
    size_t len = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[len] = '\0';
    const char *list = strstr(doc, "## The course\n");
    EXPECT(list != NULL, "a section \"## The course\"");
    if (!list)
        return;
    const char *end = strstr(list + 1, "\n## ");
    size_t n = end ? (size_t)(end - list) : strlen(list);
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson_course course;
    lesson_course_init(&course);
    const char *dir = COLLVIZ_SOURCE_DIR "/lessons";
    lesson_course_load(&course, &dir, 1, LESSON_LOAD_NO_TRACE, &diags);
    int rows = 0;
    for (const char *p = list; (p = strstr(p, "\n| `")) && (size_t)(p - list) < n; p++)
        rows++;
    EXPECT(rows == course.nlessons, "the list has %d rows for %d lessons", rows, course.nlessons);
    const char *prev = list;
    int nquizzes = 0;
    for (int i = 0; i < course.nlessons; i++) {
        const lesson *l = course.lessons[i];
        char row[128];
        snprintf(row, sizeof row, "| `%s` | %d | ", l->id, l->nquizzes);
        const char *at = strstr(list, row);
        EXPECT(at && (size_t)(at - list) < n, "docs/LESSONS.md lists %s with %d quizzes", l->id,
              l->nquizzes);
        /* "in menu order", as the section says */
        EXPECT(!at || at > prev, "docs/LESSONS.md lists %s out of menu order", l->id);
        if (at)
            prev = at;
        nquizzes += l->nquizzes;
    }
    /* The README states the size of the course; it must be today's. */
    FILE *rf = fopen(COLLVIZ_SOURCE_DIR "/README.md", "rb");
    EXPECT(rf != NULL, "README.md");
    if (rf) {
        len = fread(doc, 1, sizeof doc - 1, rf);
        fclose(rf);
        doc[len] = '\0';
        char says[96];
        snprintf(says, sizeof says, "%d lessons and %d quizzes", course.nlessons, nquizzes);
        EXPECT(strstr(doc, says) != NULL, "README.md says \"%s\"", says);
    }
    lesson_course_destroy(&course);
    lesson_diags_destroy(&diags);
}

static const test_case cases[] = {
    CASE("shipped", test_shipped),
    CASE("doc-course-list", test_doc_course_list),
    CASE("duplicate-id", test_duplicate_id),
    CASE("doc-example", test_doc_example),
    CASE("override-algo", test_override_algo),
    CASE("converted-quizzes", test_converted_quizzes),
    CASE("timeline", test_timeline),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
