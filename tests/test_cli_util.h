/*
 * test_cli_util.h: what the tests that run the built collviz share: run it
 * with arguments and read what it printed, and count the lines of that.
 */
#ifndef TEST_CLI_UTIL_H
#define TEST_CLI_UTIL_H

#include <stddef.h>

#define TC_OUT_MAX (1 << 22)

/* What the last tc_run printed, stdout and stderr together. */
extern char tc_out[TC_OUT_MAX];

/* Runs collviz ARGS (a shell fragment) in the build directory with empty
 * standard input and a 120 s limit, HOME set to home unless it is NULL;
 * the output goes to tc_out. Returns the exit code, -1 when the program
 * did not exit (a signal, the limit). */
int tc_run(const char *home, const char *args);

/* The number of newlines in s. */
int tc_lines(const char *s);

#endif /* TEST_CLI_UTIL_H */
