/*
 * fuzz_progress.c: libFuzzer target for the progress file reader (built
 * with -DCOLLVIZ_FUZZ=ON and clang). progress.json sits in the user's home
 * where anything may have written it, so no input may crash, hang or leak:
 * the input is read as progress, and whatever is accepted is queried, changed
 * and written out again the way the commands do.
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson_progress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lesson_progress p;
    if (lesson_progress_parse(&p, (const char *)data, size)) {
        lesson_progress_done(&p, "algo-ring");
        lesson_progress_find_quiz(&p, "algo-ring/q1");
        lesson_progress_record_quiz(&p, "algo-ring/q1", true);
        lesson_progress_set_done(&p, "algo-ring", true);
        lesson_progress_set_current(&p, "algo-ring", 3);
        lesson_progress_record_drill(&p, 2, 3, 0);
        lesson_progress copy;
        lesson_progress_copy(&copy, &p);
        char *text = lesson_progress_format(&copy);
        lesson_progress q;
        /* What was written must read back. */
        if (text && !lesson_progress_parse(&q, text, strlen(text)))
            __builtin_trap();
        if (text)
            lesson_progress_destroy(&q);
        free(text);
        lesson_progress_destroy(&copy);
    }
    lesson_progress_destroy(&p);
    return 0;
}
