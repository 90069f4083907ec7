/*
 * check.h: the assertion every collviz test uses, and the table its cases
 * are listed in. EXPECT(cond, fmt, ...) counts a check; when cond is false
 * it counts a failure and prints "FAIL file:line: cond: message" (the
 * first EXPECT_PRINT_MAX of them, so a broken property does not bury the
 * log).
 *
 * A test's main lists its cases as a table of {name, function} and hands
 * it to the runner (check.c), which runs them in the table's order, or
 * only those named on the command line:
 *
 *   static const test_case cases[] = {
 *       CASE("volumes", check_volumes),
 *       CASE_EACH("", op_algo_name, check_op_algo), // "allreduce/ring", ...
 *   };
 *   int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
 *
 *   test_x                    every case
 *   test_x NAME...            the cases each NAME matches: a case's whole
 *                             name, or a shell glob, where '*' matches '/'
 *                             too ('allreduce*' is every allreduce case);
 *                             a NAME that matches none exits 2
 *   test_x --list             the cases' names, one a line, and exit 0
 *   test_x --part K/N         every Nth of the cases chosen, from the Kth on
 *                             (N processes share a suite)
 *
 * After each case it prints "ok NAME (N checks)" or "FAILED NAME (M of N
 * checks)", and at the end "N checks, M failures" and the failed cases'
 * names. The exit code is 0 when nothing failed, 1 on a failure, 77
 * (skipped) when nothing failed and a case called cases_skip, 2 for bad
 * usage. A test that must prepare before its cases run (and may exit 77
 * there: no device, no fonts) splits CASES_MAIN in three: cases_args,
 * which answers --list before any such work, then cases_run, cases_end.
 */
#ifndef COLLVIZ_TEST_CHECK_H
#define COLLVIZ_TEST_CHECK_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Every check and every failure of the process, in the cases or not. */
extern int checks, failures;

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

/* A check whose failure leaves nothing sensible to test after it. */
#define REQUIRE(cond)                                                                      \
    do {                                                                                   \
        int ok_ = !!(cond);                                                                \
        EXPECT(ok_, "%s, in %s (fatal)", #cond, __func__);                                 \
        if (!ok_)                                                                          \
            exit(1);                                                                       \
    } while (0)

/* One row of a test's table: a case, or a family of cases generated from
 * a parameter (an op and an algorithm, a file, a setup). A family's each(i,
 * name, len) writes the name of its member i and returns 1, or returns 0
 * past its last member; run_each(i) runs member i. The member is named
 * "NAME/member", or "member" where NAME is "". A row made with CASE_THEN
 * goes on from the state the row above it left (one window driven through
 * a sequence): chosen alone, it brings the rows it goes on from along. */
typedef struct test_case {
    const char *name;
    void (*run)(void);
    int (*each)(int i, char *name, size_t len);
    void (*run_each)(int i);
    int then;
} test_case;

#define CASE(name, fn) {(name), (fn), NULL, NULL, 0}
#define CASE_THEN(name, fn) {(name), (fn), NULL, NULL, 1}
#define CASE_EACH(name, each, fn) {(name), NULL, (each), (fn), 0}
#define CASES_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))
#define CASES_MAIN(argc, argv, table) cases_main((argc), (argv), (table), CASES_COUNT(table))

/* A family's each() over a list of names (files, setups): writes
 * names[i] and returns 1, or returns 0 past the last. */
int cases_name_at(const char *const *names, int count, int i, char *name, size_t len);

/* Reads the command line for the table: --list prints the names and
 * exits 0, bad usage exits 2. A test's own flags are taken out first. */
void cases_args(int argc, char **argv, const test_case *cases, int ncases);
/* Runs the chosen cases in the table's order; returns how many ran. */
int cases_run(void);
/* Prints the summary; returns the exit code. */
int cases_end(void);
/* cases_args, cases_run and cases_end. */
int cases_main(int argc, char **argv, const test_case *cases, int ncases);

/* Removes flag from argv (the test's own, such as --mpi) and returns 1 if
 * it was there. */
int cases_flag(int *argc, char **argv, const char *flag);
/* The run ends in 77 (skipped) unless something failed: why is printed. */
void cases_skip(const char *why);
/* Only the summary's exit code, nothing printed (MPI ranks but the first). */
void cases_quiet(int quiet);

#endif /* COLLVIZ_TEST_CHECK_H */
