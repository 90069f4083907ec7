/*
 * test_lesson_figures.c: every time, byte count and bandwidth a shipped
 * lesson states is checked against the cost model or is an input of one
 * of its problems.
 *
 * The loader already checks each declared figure against the model and
 * each number quiz's answer against its cost reference. This test closes
 * the loop from the text's side: it reads every text of every lesson (title,
 * summary, beats, quizzes with their choices, mistakes; English and
 * Chinese), finds every number written before "ms", "µs", "us", "GB/s",
 * "GB", "MB" or "kB", and requires it to be one of
 *   - a figure of the lesson, as written (checked against the model, or
 *     given with the reason it is not the model's),
 *   - the model's answer of one of the lesson's number quizzes in the same
 *     kind of unit (time, bytes, bandwidth), within that quiz's tolerance
 *     (an explanation restating the answer, rounded),
 *   - an input of one of the lesson's priced problems: the latency α of a
 *     link it prices with (times), the message size of one of its quizzes'
 *     or figures' cost references as the text rounds it (bytes), the
 *     bandwidth of such a link or of any link preset (bandwidths); a size
 *     or bandwidth stands for an input when it is the input rounded to the
 *     digits written and within 10 % of it,
 *   - in a choice quiz, a number one of its wrong choices writes (a
 *     distractor, wrong on purpose), wherever that quiz repeats it.
 * The denominator of a fraction ("1/8 GB") is not a number of its own.
 * So a time, a size or a bandwidth a lesson derives can never be typed in
 * by hand; one that is none of these is declared as a figure, from the
 * model where it computes it (sent_gb, crossover_mb, algbw_gbps, ...) or
 * `given` with its reason (a datasheet value, a measurement, a size
 * named before any problem prices it).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
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

/* Sizes in bytes and bandwidths in bytes per second: "GB/s" 1e9 (a
 * bandwidth), "GB" 1e9, "MB" 1e6, "kB" 1e3 (sizes), else 0. */
static double unit_bytes(const char *u, size_t *len, bool *bw)
{
    static const struct {
        const char *u;
        double scale;
        bool bw;
    } units[] = {{"GB/s", 1e9, true}, {"GB", 1e9, false}, {"MB", 1e6, false}, {"kB", 1e3, false}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].u);
        if (strncmp(u, units[i].u, n) == 0) {
            *len = n;
            *bw = units[i].bw;
            return units[i].scale;
        }
    }
    return 0;
}

/* The model quantity's unit in bytes (sizes) or bytes per second
 * (bandwidths); 0 for another kind. */
static double quantity_bytes(lesson_cost_quantity q, bool *bw)
{
    *bw = false;
    switch (q) {
    case LESSON_COST_SENT_BYTES:
    case LESSON_COST_CROSSOVER_BYTES: return 1;
    case LESSON_COST_CROSSOVER_KB: return 1e3;
    case LESSON_COST_SENT_MB:
    case LESSON_COST_INTER_SENT_MB:
    case LESSON_COST_CROSSOVER_MB: return 1e6;
    case LESSON_COST_SENT_GB:
    case LESSON_COST_INTER_SENT_GB: return 1e9;
    case LESSON_COST_ALGBW_GBPS:
    case LESSON_COST_BUSBW_GBPS: *bw = true; return 1e9;
    default: return 0;
    }
}

/* Does the text's v, written with `decimals` digits after the point, stand
 * for the input x (in the written unit)? It must be x rounded to the digits
 * written, and within 10 % of it: "1.61 GB" and "1 GB" for 1.5 GiB and
 * 1 GiB, but not "2 GB" for 1.61 GB. */
/* The priced problem of quiz i, or of figure i - nquizzes after them;
 * NULL where it has none. */
static const lesson_cost_ref *cost_ref(const lesson *l, int i)
{
    if (i < l->nquizzes)
        return l->quizzes[i].has_cost ? &l->quizzes[i].cost : NULL;
    return l->figures[i - l->nquizzes].has_cost ? &l->figures[i - l->nquizzes].cost : NULL;
}

static bool rounds(double v, int decimals, double x)
{
    return fabs(x - v) <= 0.5 * pow(10, -decimals) + 1e-9 * fabs(x) && fabs(x - v) <= 0.1 * fabs(x);
}

/* Is the size or bandwidth v (as written, `decimals` after the point), in
 * unit scale (bytes or bytes/s per unit), accounted for? */
static bool covered_bytes(const lesson *l, const char *unit, double v, int decimals, double scale,
                          bool bw)
{
    for (int i = 0; i < l->nfigures; i++) {
        const lesson_figure *f = &l->figures[i];
        if (strcmp(f->unit, unit) == 0 && fabs(f->value - v) <= 1e-9 * fabs(v))
            return true;
    }
    for (int i = 0; i < l->nquizzes; i++) {
        const lesson_quiz *q = &l->quizzes[i];
        bool qbw;
        double qs = q->kind == LESSON_QUIZ_NUMBER && q->has_cost
                        ? quantity_bytes(q->cost.quantity, &qbw) : 0;
        if (qs == 0 || qbw != bw)
            continue;
        double answer = q->number * qs / scale;
        double tol = q->tolerance_pct ? fabs(answer) * q->tolerance / 100 : q->tolerance * qs / scale;
        if (fabs(v - answer) <= tol + 1e-9 * fabs(answer))
            return true;
    }
    /* inputs: the priced problems' sizes and links */
    for (int i = 0; i < l->nquizzes + l->nfigures; i++) {
        const lesson_cost_ref *c = cost_ref(l, i);
        if (!c)
            continue;
        if (!bw && c->bytes > 0 && rounds(v, decimals, (double)c->bytes / scale))
            return true;
        if (bw && (rounds(v, decimals, c->bw_gbps) ||
                   (c->inter_bw_gbps > 0 && rounds(v, decimals, c->inter_bw_gbps))))
            return true;
    }
    if (bw) { /* a link preset's bandwidth, as `collviz list` shows it */
        const cv_link *links;
        int n = cv_link_presets(&links);
        for (int i = 0; i < n; i++)
            if (rounds(v, decimals, links[i].bw / scale))
                return true;
    }
    return false;
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
            const lesson_cost_ref *c = cost_ref(l, i);
            if (c && (v == c->alpha_us || (c->inter_bw_gbps > 0 && v == c->inter_alpha_us)))
                return true;
        }
    }
    return false;
}

/* Does s write the number v before exactly this unit ("56 GB", "56GB")? */
static bool writes(const char *s, double v, const char *unit)
{
    size_t n = strlen(unit);
    for (const char *p = s; p && *p; p++) {
        if (!isdigit((unsigned char)*p) ||
            (p > s && (isdigit((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == ',')))
            continue;
        char *end;
        double x = strtod(p, &end);
        const char *u = end + (*end == ' ');
        if (x == v && strncmp(u, unit, n) == 0 && !isalpha((unsigned char)u[n]) && u[n] != '/')
            return true;
        p = end > p ? end - 1 : p;
    }
    return false;
}

/* A choice quiz's distractor: a number one of its wrong choices writes is
 * wrong on purpose, and its prompt, choices and explanation may name it. */
static bool distractor(const lesson_quiz *q, int lang, double v, const char *unit)
{
    if (!q || q->kind != LESSON_QUIZ_CHOICE)
        return false;
    for (int k = 0; k < q->nchoices; k++)
        if (k != q->answer && q->choices[k].text.s[lang] &&
            writes(q->choices[k].text.s[lang], v, unit))
            return true;
    return false;
}

static int uncovered;
static bool report = true; /* EXPECT on what is found, or only count it */

static void scan(const lesson *l, const lesson_quiz *q, const lesson_text *t, const char *where)
{
    for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
        const char *s = t->s[lang];
        for (const char *p = s; p && *p; p++) {
            /* a number's first digit: not one inside a number, nor the
             * denominator of a fraction ("1/8 GB") */
            if (!isdigit((unsigned char)*p) ||
                (p > s && (isdigit((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == ',' ||
                           p[-1] == '/')))
                continue;
            char *end;
            double v = strtod(p, &end);
            const char *u = end;
            if (*u == ' ')
                u++;
            size_t n = 0;
            char unit[8];
            double scale = unit_us(u, &n);
            if (scale > 0 && !isalpha((unsigned char)u[n])) {
                snprintf(unit, sizeof unit, "%.*s", (int)n, u);
                bool ok = covered(l, v, scale) || distractor(q, lang, v, unit);
                if (!ok)
                    uncovered++;
                if (report)
                    EXPECT(ok, "%s: %s.%s writes \"%.*s\", which is neither a figure of the lesson nor "
                          "a number quiz's model answer nor a link's latency",
                      l->id, where, lesson_lang_name((lesson_lang)lang), (int)(u + n - p), p);
            }
            bool bw = false;
            scale = scale > 0 ? 0 : unit_bytes(u, &n, &bw);
            if (scale > 0 && !isalpha((unsigned char)u[n])) {
                const char *dot = memchr(p, '.', (size_t)(end - p));
                int decimals = dot ? (int)(end - dot - 1) : 0;
                snprintf(unit, sizeof unit, "%.*s", (int)n, u);
                bool ok = covered_bytes(l, unit, v, decimals, scale, bw) ||
                          distractor(q, lang, v, unit);
                if (!ok)
                    uncovered++;
                if (report)
                    EXPECT(ok, "%s: %s.%s writes \"%.*s\", which is neither a figure of the lesson nor "
                           "a number quiz's model answer nor an input of its priced problems "
                           "(a message size, a link's bandwidth)",
                           l->id, where, lesson_lang_name((lesson_lang)lang), (int)(u + n - p), p);
            }
            p = end > p ? end - 1 : p;
        }
    }
}

static void check_lesson(const lesson *l)
{
    char where[96];
    scan(l, NULL, &l->title, "title");
    scan(l, NULL, &l->summary, "summary");
    for (int b = 0; b < l->nbeats; b++) {
        snprintf(where, sizeof where, "beats[%d].text", b);
        scan(l, NULL, &l->beats[b].text, where);
    }
    for (int i = 0; i < l->nquizzes; i++) {
        const lesson_quiz *q = &l->quizzes[i];
        snprintf(where, sizeof where, "beats[%d].quiz", q->beat);
        scan(l, q, &q->prompt, where);
        scan(l, q, &q->explain, where);
        scan(l, q, &q->card, where);
        for (int k = 0; k < q->nchoices; k++) {
            scan(l, q, &q->choices[k].text, where);
            scan(l, q, &q->choices[k].why, where);
        }
    }
    for (int m = 0; m < l->nmistakes; m++) {
        scan(l, NULL, &l->mistakes[m].myth, "mistakes");
        scan(l, NULL, &l->mistakes[m].truth, "mistakes");
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
        " \"figures\": [{\"value\": 1.75, \"unit\": \"GB\", \"from_cost\": {\"op\": \"allreduce\","
        " \"algo\": \"ring\", \"ranks\": 8, \"bytes\": \"1GB\", \"bw_gbps\": 100, \"quantity\": \"sent_gb\"}}],"
        " \"beats\": [{\"step\": \"start\", \"text\": {\"en\": \"It takes 12.3 ms and 5 µs;"
        " 1 GB at 100 GB/s and 450 GB/s sends 1.75 GB, not 4.2 GB.\","
        " \"zh\": \"要 12.3 ms 和 5 µs；1 GB、100 GB/s 和 450 GB/s 发 1.75 GB，而非 4.2 GB。\"},"
        " \"quiz\": {\"id\": \"a\", \"kind\": \"number\", \"prompt\": {\"en\": \"?\", \"zh\": \"？\"},"
        " \"unit\": \"ms\", \"from_cost\": {\"op\": \"allreduce\", \"ranks\": 8, \"bytes\": \"1GB\","
        " \"bw_gbps\": 100, \"alpha_us\": 5, \"quantity\": \"time_ms\"},"
        " \"explain\": {\"en\": \"About 17.6 ms.\", \"zh\": \"约 17.6 ms。\"},"
        " \"card\": {\"en\": \"17.6 ms.\", \"zh\": \"17.6 ms。\"}}},"
        " {\"step\": \"end\", \"text\": {\"en\": \"Done.\", \"zh\": \"完成。\"},"
        " \"quiz\": {\"id\": \"b\", \"kind\": \"choice\", \"prompt\": {\"en\": \"Pick.\", \"zh\": \"选。\"},"
        " \"choices\": [{\"text\": {\"en\": \"Yes\", \"zh\": \"是\"}}, {\"text\": {\"en\": \"No, 9.9 GB\","
        " \"zh\": \"否，9.9 GB\"}, \"why\": {\"en\": \"9.9 GB is 1/8 GB too much.\","
        " \"zh\": \"9.9 GB 多了 1/8 GB。\"}}], \"answer\": 0,"
        " \"card\": {\"en\": \"Yes.\", \"zh\": \"是。\"}}}]}";
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    int rc = lesson_load_buffer(NULL, src, strlen(src), 0, &l, &d);
    lesson_diags_print(&d, stderr);
    EXPECT(rc == 0 && l, "fixture loads");
    if (!l)
        return;
    /* 17.6 ms is the quiz's answer and 5 µs its link's latency, 1 GB and
     * 100 GB/s its inputs, 450 GB/s a link preset's bandwidth (nvlink4)
     * and 1.75 GB a figure, 9.9 GB a wrong choice (a distractor) and
     * 8 in 1/8 GB a denominator; 12.3 ms and 4.2 GB are nothing, in both
     * languages */
    report = false;
    check_lesson(l);
    report = true;
    EXPECT(uncovered == 4, "12.3 ms and 4.2 GB found in en and zh: %d", uncovered);
    uncovered = 0;
    lesson_destroy(l);
    lesson_diags_destroy(&d);
}

/* Every shipped lesson's figures against its setup. */
static void shipped(void)
{
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
    printf("%d lessons, %d figures (%d from the model), %d numbers not accounted for\n",
           course.nlessons, figures, model, uncovered);
    lesson_course_destroy(&course);
    lesson_diags_destroy(&diags);
}

static const test_case cases[] = {
    CASE("detects", test_detects),
    CASE("shipped", shipped),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
