/*
 * fuzz_show.c: libFuzzer target for `collviz show`'s reader of `bench
 * --json` results (built with -DCOLLVIZ_FUZZ=ON and clang). A result file
 * may come from anywhere, so no input may crash, hang or leak: the input
 * is parsed, and whatever parses is modelled against a link and
 * printed as the table `show` prints without a display.
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "show.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    /* show_parse reads a NUL-terminated copy, as show_load gives it. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    show_result r;
    char err[1024];
    if (show_parse("fuzz.json", text, size, NULL, &r, err, sizeof err) == 0) {
        /* A CPU result has no default link: model it as --link pcie4 would. */
        const cv_link *link = show_default_link(r.backend);
        int priced = 0;
        if (show_model(&r, link ? link : cv_link_find("pcie4"), &priced, err, sizeof err) == 0)
            show_print_table(sink, &r, "fuzz");
        char title[256];
        show_title(&r, title, sizeof title);
        show_result_destroy(&r);
    }
    free(text);
    return 0;
}
