/*
 * check.h: the assertion every collviz test uses. EXPECT(cond, fmt, ...)
 * counts a check; when cond is false it counts a failure and prints
 * "FAIL file:line: cond: message" (the first EXPECT_PRINT_MAX of them, so
 * a broken property does not bury the log). Tests end by printing
 * `checks` and `failures` and returning non-zero on any failure.
 */
#ifndef COLLVIZ_TEST_CHECK_H
#define COLLVIZ_TEST_CHECK_H

#include <stdio.h>

static int checks, failures;

#define EXPECT_PRINT_MAX 40

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            if (failures <= EXPECT_PRINT_MAX) {                                            \
                printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                     \
                printf(__VA_ARGS__);                                                       \
                printf("\n");                                                              \
                fflush(stdout);                                                            \
            }                                                                              \
        }                                                                                  \
    } while (0)

#endif /* COLLVIZ_TEST_CHECK_H */
