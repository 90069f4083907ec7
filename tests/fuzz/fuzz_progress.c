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

#include "progress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    progress p;
    if (progress_parse(&p, (const char *)data, size)) {
        progress_lesson_done(&p, "algo-ring");
        progress_find_quiz(&p, "algo-ring/q1");
        progress_record_quiz(&p, "algo-ring/q1", true);
        progress_set_done(&p, "algo-ring", true);
        progress_set_current(&p, "algo-ring", 3);
        progress_record_drill(&p, 2, 3, 0);
        progress copy;
        progress_copy(&copy, &p);
        char *text = progress_format(&copy);
        progress q;
        /* What was written must read back. */
        if (text && !progress_parse(&q, text, strlen(text)))
            __builtin_trap();
        if (text)
            progress_free(&q);
        free(text);
        progress_free(&copy);
    }
    progress_free(&p);
    return 0;
}
