/*
 * test_lesson_figures.c: every time a shipped lesson states is checked
 * against the cost model.
 *
 * The loader already checks each declared figure against the model and
 * each number quiz's answer against its cost reference. This test closes
 * the loop from the text's side: it reads every text of every lesson (title,
 * summary, beats, quizzes with their choices, mistakes; English and
 * Chinese), finds every number written before "ms", "µs" or "us", and
 * requires it to be one of
 *   - a figure of the lesson, as written (checked against the model, or
 *     given with the reason it is not the model's),
 *   - the model's answer of one of the lesson's number quizzes, within that
 *     quiz's tolerance (an explanation restating the answer, rounded),
 *   - the latency α of a link the lesson prices with (an input, not a
 *     result).
 * So a time a lesson teaches can never be typed in by hand. Bandwidths and
 * byte counts are often inputs of a problem and are not scanned; where the
 * model computes one, the lesson declares it as a figure.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "check.h"

/* Times in microseconds: "ms" 1000, "µs" and "us" 1, else 0. */
static double unit_us(const char *u, size_t *len)
{
    if (strncmp(u, "ms", 2) == 0) {
        *len = 2;
        return 1e3;
    }
    if (strncmp(u, "us", 2) == 0) {
        *len = 2;
        return 1;
    }
    if (strncmp(u, "\xC2\xB5s", 3) == 0) { /* µs */
        *len = 3;
        return 1;
    }
    return 0;
}

static double quantity_us(lesson_cost_quantity q)
{
    switch (q) {
    case LESSON_COST_TIME_S: return 1e6;
    case LESSON_COST_TIME_MS: return 1e3;
    case LESSON_COST_TIME_US: return 1;
    default: return 0;
    }
}

/* Is the time v (as written), in unit scale (us per unit), accounted for? */
static bool covered(const lesson *l, double v, double scale)
{
    for (int i = 0; i < l->nfigures; i++) {
        const lesson_figure *f = &l->figures[i];
        size_t n;
        double fs = unit_us(f->unit, &n);
        if (fs == scale && n == strlen(f->unit) && fabs(f->value - v) <= 1e-9 * fabs(v))
            return true;
    }
    for (int i = 0; i < l->nquizzes; i++) {
        const lesson_quiz *q = &l->quizzes[i];
        if (q->kind != LESSON_QUIZ_NUMBER || !q->has_cost)
            continue;
        double qs = quantity_us(q->cost.quantity);
        if (qs == 0)
            continue;
        double answer = q->number * qs / scale; /* in the written unit */
        double tol = q->tolerance_pct ? fabs(answer) * q->tolerance / 100 : q->tolerance * qs / scale;
        if (fabs(v - answer) <= tol + 1e-9 * fabs(answer))
            return true;
    }
    if (scale == 1) { /* a link's latency in microseconds: an input */
        for (int i = 0; i < l->nquizzes + l->nfigures; i++) {
            const lesson_cost_ref *c = NULL;
            if (i < l->nquizzes && l->quizzes[i].has_cost)
                c = &l->quizzes[i].cost;
            else if (i >= l->nquizzes && l->figures[i - l->nquizzes].has_cost)
                c = &l->figures[i - l->nquizzes].cost;
            if (c && (v == c->alpha_us || (c->inter_bw_gbps > 0 && v == c->inter_alpha_us)))
                return true;
        }
    }
    return false;
}

static int uncovered;
static bool report = true; /* EXPECT on what is found, or only count it */

static void scan(const lesson *l, const lesson_text *t, const char *where)
{
    for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
        const char *s = t->s[lang];
        for (const char *p = s; p && *p; p++) {
            if (!isdigit((unsigned char)*p) ||
                (p > s && (isdigit((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == ',')))
                continue;
            char *end;
            double v = strtod(p, &end);
            const char *u = end;
            if (*u == ' ')
                u++;
            size_t n = 0;
            double scale = unit_us(u, &n);
            if (scale > 0 && !isalpha((unsigned char)u[n])) {
                bool ok = covered(l, v, scale);
                if (!ok)
                    uncovered++;
                if (report)
                    EXPECT(ok, "%s: %s.%s writes \"%.*s\", which is neither a figure of the lesson nor "
                          "a number quiz's model answer nor a link's latency",
                      l->id, where, lesson_lang_name((lesson_lang)lang), (int)(u + n - p), p);
            }
            p = end > p ? end - 1 : p;
        }
    }
}

static void check_lesson(const lesson *l)
{
    char where[96];
    scan(l, &l->title, "title");
    scan(l, &l->summary, "summary");
    for (int b = 0; b < l->nbeats; b++) {
        snprintf(where, sizeof where, "beats[%d].text", b);
        scan(l, &l->beats[b].text, where);
    }
    for (int i = 0; i < l->nquizzes; i++) {
        const lesson_quiz *q = &l->quizzes[i];
        snprintf(where, sizeof where, "beats[%d].quiz", q->beat);
        scan(l, &q->prompt, where);
        scan(l, &q->explain, where);
        scan(l, &q->card, where);
        for (int k = 0; k < q->nchoices; k++) {
            scan(l, &q->choices[k].text, where);
            scan(l, &q->choices[k].why, where);
        }
    }
    for (int m = 0; m < l->nmistakes; m++) {
        scan(l, &l->mistakes[m].myth, "mistakes");
        scan(l, &l->mistakes[m].truth, "mistakes");
    }
}

/* The scanner finds what it must: a lesson that writes a time nobody
 * declared is caught, and declaring it as a figure fixes it. */
static void test_detects(void)
{
    static const char src[] =
        "{\"format\": 1, \"id\": \"t\", \"track\": \"cost\", \"order\": 1,"
        " \"title\": {\"en\": \"T\", \"zh\": \"T\"},"
        " \"setup\": {\"op\": \"allreduce\", \"ranks\": 4, \"count\": 4},"
        " \"beats\": [{\"step\": \"start\", \"text\": {\"en\": \"It takes 12.3 ms and 5 µs.\","
        " \"zh\": \"要 12.3 ms 和 5 µs。\"},"
        " \"quiz\": {\"id\": \"a\", \"kind\": \"number\", \"prompt\": {\"en\": \"?\", \"zh\": \"？\"},"
        " \"unit\": \"ms\", \"from_cost\": {\"op\": \"allreduce\", \"ranks\": 8, \"bytes\": \"1GB\","
        " \"bw_gbps\": 100, \"alpha_us\": 5, \"quantity\": \"time_ms\"},"
        " \"explain\": {\"en\": \"About 17.6 ms.\", \"zh\": \"约 17.6 ms。\"},"
        " \"card\": {\"en\": \"17.6 ms.\", \"zh\": \"17.6 ms。\"}}},"
        " {\"step\": \"end\", \"text\": {\"en\": \"Done.\", \"zh\": \"完成。\"},"
        " \"quiz\": {\"id\": \"b\", \"kind\": \"choice\", \"prompt\": {\"en\": \"Pick.\", \"zh\": \"选。\"},"
        " \"choices\": [{\"text\": {\"en\": \"Yes\", \"zh\": \"是\"}}, {\"text\": {\"en\": \"No\","
        " \"zh\": \"否\"}, \"why\": {\"en\": \"No.\", \"zh\": \"否。\"}}], \"answer\": 0,"
        " \"card\": {\"en\": \"Yes.\", \"zh\": \"是。\"}}}]}";
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    int rc = lesson_load_buffer(NULL, src, strlen(src), 0, &l, &d);
    lesson_diags_print(&d, stderr);
    EXPECT(rc == 0 && l, "fixture loads");
    if (!l)
        return;
    /* 17.6 ms is the quiz's answer and 5 µs its link's latency; 12.3 ms
     * is nothing, in both languages */
    report = false;
    check_lesson(l);
    report = true;
    EXPECT(uncovered == 2, "12.3 ms found in en and zh: %d", uncovered);
    uncovered = 0;
    lesson_destroy(l);
    lesson_diags_free(&d);
}

int main(void)
{
    test_detects();
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson_course course;
    lesson_course_init(&course);
    const char *dir = COLLVIZ_SOURCE_DIR "/lessons";
    int bad = lesson_course_load(&course, &dir, 1, LESSON_LOAD_NO_TRACE, &diags);
    lesson_diags_print(&diags, stderr);
    EXPECT(bad == 0, "%d lesson files with problems", bad);
    int figures = 0, model = 0;
    for (int i = 0; i < course.nlessons; i++) {
        const lesson *l = course.lessons[i];
        check_lesson(l);
        for (int k = 0; k < l->nfigures; k++)
            model += l->figures[k].has_cost;
        figures += l->nfigures;
    }
    printf("%d lessons, %d figures (%d from the model), %d times not accounted for\n",
           course.nlessons, figures, model, uncovered);
    lesson_course_free(&course);
    lesson_diags_free(&diags);
    if (failures) {
        fprintf(stderr, "test_lesson_figures: %d failures\n", failures);
        return 1;
    }
    printf("test_lesson_figures: ok (%d checks)\n", checks);
    return 0;
}
