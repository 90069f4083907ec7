/*
 * fuzz_lesson.c: libFuzzer target for the lesson loader (built with
 * -DCOLLVIZ_FUZZ=ON and clang; scripts/fuzz.sh runs it for a bounded
 * time). Lesson files come from course writers and from anyone who passes a
 * path to `collviz lessons --check`, so no input may crash, hang or leak:
 * the input is loaded as a lesson, and whatever loads is then pushed
 * through the quiz checks and the text output the GUI and drill use.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lesson_diags diags;
    lesson_diags_init(&diags);
    lesson *l = NULL;
    if (lesson_load_buffer("fuzz.json", (const char *)data, size, 0, &l, &diags) == 0) {
        FILE *out = sink();
        static const char *const lines[] = {"a", "b", "2", "4.7 ms", "0 recv 0-3, 1 recv 1",
                                            "", "x"};
        for (int i = 0; i < l->nquizzes; i++) {
            const lesson_quiz *q = &l->quizzes[i];
            for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
                lesson_verdict v;
                char err[128];
                lesson_check_typed(q, lines[k], &v, err, sizeof err);
            }
            lesson_print_quiz(q, LESSON_ZH, out);
            lesson_print_answer(q, LESSON_EN, out);
        }
        for (int b = 0; b < l->nbeats && b < 4; b++)
            lesson_print_state(l, b, out);
    }
    lesson_diags_print(&diags, sink());
    lesson_destroy(l);
    lesson_diags_destroy(&diags);
    return 0;
}
