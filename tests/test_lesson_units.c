/*
 * test_lesson_units.c: a number quiz's unit in the learner's language.
 * "us" is shown as "µs"; a unit that is an English word ("sequences") has
 * its Chinese (unit_zh) shown in the Chinese interface, and a lesson that
 * leaves it out is refused at the unit's place; an answer typed with the
 * unit, its Chinese or "us" for "µs" is read as a number of that unit.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lesson.h"

static const lesson_quiz *find_quiz(const lesson *l, const char *id)
{
    for (int i = 0; i < l->nquizzes; i++)
        if (l->quizzes[i].id && !strcmp(l->quizzes[i].id, id))
            return &l->quizzes[i];
    return NULL;
}

static lesson *load(const char *name, lesson_diags *d)
{
    char path[512];
    snprintf(path, sizeof path, COLLVIZ_SOURCE_DIR "/lessons/%s.json", name);
    lesson *l = NULL;
    lesson_diags_init(d);
    lesson_load_file(path, LESSON_LOAD_NO_TRACE, &l, d);
    return l;
}

static void shipped(void)
{
    lesson_diags d;
    lesson *l = load("cost-gpt3-tp", &d);
    const lesson_quiz *q = l ? find_quiz(l, "batch-budget") : NULL;
    EXPECT(q && !strcmp(lesson_quiz_unit(q, LESSON_EN), "sequences") &&
               !strcmp(lesson_quiz_unit(q, LESSON_ZH), "条序列"),
           "batch-budget's unit: %s / %s", q ? lesson_quiz_unit(q, LESSON_EN) : "?",
           q ? lesson_quiz_unit(q, LESSON_ZH) : "?");
    EXPECT(q && lesson_quiz_unit_matches(q, "sequences") && lesson_quiz_unit_matches(q, "条序列") &&
               !lesson_quiz_unit_matches(q, "GB"),
           "batch-budget's answers in either language");
    lesson_destroy(l);
    lesson_diags_destroy(&d);
    l = load("algo-nccl-choice", &d);
    q = l ? find_quiz(l, "ring-at-scale") : NULL;
    EXPECT(q && !strcmp(lesson_quiz_unit(q, LESSON_ZH), "\xC2\xB5s") &&
               lesson_quiz_unit_matches(q, "us") && lesson_quiz_unit_matches(q, "\xC2\xB5s"),
           "ring-at-scale's unit is shown as µs, typed as us or µs: '%s'",
           q ? lesson_quiz_unit(q, LESSON_EN) : "?");
    lesson_destroy(l);
    lesson_diags_destroy(&d);
}

static void refused(void)
{
    static const char text[] =
        "{\"format\": 1, \"id\": \"unit-word\", \"track\": \"costs\", \"order\": 99,\n"
        " \"title\": {\"en\": \"T\", \"zh\": \"T\"}, \"summary\": {\"en\": \"S\", \"zh\": \"S\"},\n"
        " \"setup\": {\"op\": \"allreduce\", \"algo\": \"ring\", \"ranks\": 4, \"count\": 8},\n"
        " \"beats\": [{\"step\": \"start\", \"text\": {\"en\": \"a\", \"zh\": \"a\"},\n"
        "   \"quiz\": {\"id\": \"q\", \"kind\": \"number\", \"prompt\": {\"en\": \"How many?\", "
        "\"zh\": \"几个？\"},\n"
        "     \"answer\": 3, \"unit\": \"hops\", \"tolerance\": 0,\n"
        "     \"explain\": {\"en\": \"e\", \"zh\": \"e\"}, \"card\": {\"en\": \"c\", \"zh\": \"c\"}}}]}\n";
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    lesson_load_buffer("unit-word.json", text, sizeof text - 1, LESSON_LOAD_NO_TRACE, &l, &d);
    bool found = false;
    for (int i = 0; i < d.count; i++)
        found |= strstr(d.items[i].message, "\"hops\" is an English word: give unit_zh") != NULL &&
                 d.items[i].line == 6;
    EXPECT(found, "a word unit without unit_zh is refused at its line (%d messages%s%s)", d.count,
           d.count ? ": " : "", d.count ? d.items[0].message : "");
    lesson_destroy(l);
    lesson_diags_destroy(&d);
}

int main(void)
{
    shipped();
    refused();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
