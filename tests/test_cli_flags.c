/*
 * test_cli_flags.c: every subcommand reads its flags the same way (one
 * table-driven parser, app/cli/cli_flags.c): "--flag value" and
 * "--flag=value" alike, an unknown flag says "unknown flag" and lists what
 * the subcommand allows, a flag that needs a value says so, --lang fr gets
 * the same line everywhere, --help prints the usage and exits 0. Runs the
 * built program; in the sanitizer build an early return that leaks fails
 * here too (LeakSanitizer's exit code is not 2).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "test_cli_util.h"

/* The output of the last run, stdout and stderr together. */
#define out tc_out

/* Runs collviz with args in a scratch HOME; returns the exit code. */
static int run(const char *args)
{
    return tc_run(COLLVIZ_BINARY_DIR "/test_cli_flags.home", args);
}

/* Exit 2 with one line that contains every NULL-terminated string given. */
static void bad(const char *args, ...)
{
    int rc = run(args);
    EXPECT(rc == 2, "`collviz %s` exit %d, want 2; output: %s", args, rc, out);
    EXPECT(tc_lines(out) == 1, "`collviz %s`: want one line, got: %s", args, out);
    va_list ap;
    va_start(ap, args);
    for (const char *s; (s = va_arg(ap, const char *));)
        EXPECT(strstr(out, s) != NULL, "`collviz %s`: message lacks '%s': %s", args, s, out);
    va_end(ap);
}

static void good(const char *args, const char *must_contain)
{
    int rc = run(args);
    EXPECT(rc == 0, "`collviz %s` exit %d, want 0; output: %s", args, rc, out);
    EXPECT(!must_contain || strstr(out, must_contain), "`collviz %s`: lacks '%s': %s", args,
           must_contain, out);
}

typedef struct {
    const char *cmd;   /* the subcommand */
    const char *flag;  /* a flag of its own that the allowed list must name */
    bool lang, window; /* takes --lang; needs the window */
} sub;

static const sub subs[] = {
    {"run", "--init", false, false},     {"bench", "-b", false, false},
    {"cost", "--bytes", false, false},   {"list", "--json", false, false},
    {"gui", "--fullscreen", true, true}, {"export", "--gif", true, true},
    {"render", "--bench", true, true},   {"show", "--table", false, true},
    {"lesson", "--step", true, false},   {"lessons", "--check", true, false},
    {"drill", "--time", true, false},    {"nccl-log", "--comm", false, false},
};

/* True when flag stands in text as a word of its own: not inside a longer
 * flag ("-b" in "--bench") or a word ("--root" in "--rooted"). */
static bool names_flag(const char *text, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = strstr(text, flag); p; p = strstr(p + 1, flag)) {
        char before = p == text ? ' ' : p[-1], after = p[n];
        if (before != '-' && !(before >= 'a' && before <= 'z') &&
            (after == 0 || strchr(" ]=,|\n[)", after)))
            return true;
    }
    return false;
}

/* Every flag the subcommand accepts (its "allowed:" list) is in its --help
 * (--help itself aside). */
static void help_names_every_flag(const char *cmd)
{
    char a[256], list[2048];
    snprintf(a, sizeof a, "%s --nope", cmd);
    run(a);
    const char *l = strstr(out, "allowed: ");
    EXPECT(l != NULL, "`collviz %s` lists nothing: %s", a, out);
    if (!l)
        return;
    snprintf(list, sizeof list, "%.2000s", l + strlen("allowed: "));
    snprintf(a, sizeof a, "%s --help", cmd);
    run(a);
    for (char *save = NULL, *f = strtok_r(list, ", \n", &save); f;
         f = strtok_r(NULL, ", \n", &save))
        EXPECT(!strcmp(f, "--help") || names_flag(out, f),
               "`collviz %s --help` does not name %s, which it accepts", cmd, f);
}

/* The subcommands this build has: without the window, not the four
 * that draw. */
static const sub *sub_at(int i)
{
    for (size_t k = 0; k < sizeof subs / sizeof *subs; k++) {
#ifdef COLLVIZ_TEST_NO_GUI
        if (subs[k].window)
            continue;
#endif
        if (i-- == 0)
            return &subs[k];
    }
    return NULL;
}

static int sub_name(int i, char *name, size_t len)
{
    const sub *s = sub_at(i);
    if (s)
        snprintf(name, len, "%s", s->cmd);
    return s != NULL;
}

/* The first subcommand's answer to --lang fr, which every other one's
 * must equal (a subcommand run alone is compared with itself). */
static char first[1024];

/* One subcommand's flags: an unknown flag, wherever it stands, is "unknown
 * flag" with the list; so is a near miss of a flag without a value;
 * --help and -h print the usage whatever else is on the line; --lang fr
 * is the same line from every subcommand that takes --lang. */
static void subcommand(int i)
{
    const sub *s = sub_at(i);
    char a[512];
    snprintf(a, sizeof a, "%s --nope", s->cmd);
    bad(a, "unknown flag '--nope'", "allowed:", s->flag, "--help", (char *)NULL);
    snprintf(a, sizeof a, "%s %s=1x --nope", s->cmd, "--nope2");
    bad(a, "unknown flag '--nope2'", (char *)NULL);
    snprintf(a, sizeof a, "%s %sx", s->cmd, s->flag);
    bad(a, "unknown flag", (char *)NULL);
    help_names_every_flag(s->cmd);
    snprintf(a, sizeof a, "%s --help", s->cmd);
    good(a, "usage: collviz");
    snprintf(a, sizeof a, "%s -h", s->cmd);
    good(a, "usage: collviz");
    if (s->lang) {
        snprintf(a, sizeof a, "%s --lang fr", s->cmd);
        bad(a, "--lang: unknown value 'fr'; allowed: en, zh", (char *)NULL);
        if (!first[0])
            snprintf(first, sizeof first, "%.500s", out);
        EXPECT(!strcmp(out, first), "`collviz %s` says '%s', another says '%s'", a, out, first);
        snprintf(a, sizeof a, "%s --lang", s->cmd);
        bad(a, "--lang needs a value", (char *)NULL);
    }
}

#ifndef COLLVIZ_TEST_NO_GUI
/* The cases: not "needs a value"; --backend=cpu reads as
 * --backend cpu in every subcommand that has it. */
static void window_flags(void)
{
    bad("gui --fullscreenx", "unknown flag '--fullscreenx'", (char *)NULL);
    bad("gui --nope", "unknown flag '--nope'", (char *)NULL);
    bad("export --nope", "unknown flag '--nope'", (char *)NULL);
    bad("render --nope", "unknown flag '--nope'", (char *)NULL);
    bad("export --lang fr --gif x.gif", "--lang: unknown value 'fr'", (char *)NULL);
    bad("render --bench --lang fr", "--lang: unknown value 'fr'", (char *)NULL);
    good("export --backend=cpu --op allreduce --ranks=2 --fps=1 --step-seconds=1 "
         "--size=320x240 --gif=test_cli_flags.gif",
         "frames");
    good("gui --backend=cpu --op=allreduce --ranks=2 --count=2", "verified");
    good("render --bench --frames=2 --ranks=2 --size=320x240 --lang=zh", "median");
}
#endif

/* --flag=value; every backend bench takes is in its list. */
static void backends(void)
{
    good("run --backend=cpu --op=allreduce --ranks=2 --count=2", "verified");
    good("bench --backend=cpu --op=allgather --ranks=2 -b=1k -e=1k -n=1 -w=0", "Avg bus");
    bad("bench --backend foo", "--backend", "cpu", "cuda", "auto", "nccl", "mpi", (char *)NULL);
    bad("run --backend foo", "--backend", "cpu", "cuda", "auto", "mpi", (char *)NULL);
}

/* Issue 18's misleading messages about numbers. */
static void numbers(void)
{
    bad("cost --op allreduce --ranks 4 --bytes 1e-30", "--bytes", "'1e-30'", (char *)NULL);
    bad("cost --op allreduce --ranks 4 --bytes 4611686018427387904", "--bytes", (char *)NULL);
    EXPECT(!strstr(out, "--count"), "a cost too large blames --count: %s", out);
    bad("cost --op allreduce --ranks 4 --bytes 1k --bw 1e-30", "--bw", "GB/s", (char *)NULL);
    bad("cost --op allreduce --ranks 4 --bytes 3 --dtype float32", "--bytes", "float32",
        (char *)NULL);
    bad("bench --op allreduce --ranks 4 -b 3 -e 3 -d float32", "-b", "float32", (char *)NULL);
    bad("cost --op allreduce --ranks 4 --bytes 1k --bw nan", "--bw", (char *)NULL);
    bad("cost --op allreduce --ranks 4 --bytes 1k --alpha inf", "--alpha", (char *)NULL);
}

/* A flag the setup would not read is refused, not silently dropped. */
static void unread_flags(void)
{
    char a[512];
    bad("cost --op allreduce --ranks 8 --bytes 1M --inter-link ib-hdr", "--inter-link",
        "--nodes", (char *)NULL);
    good("cost --op allreduce --ranks 8 --bytes 1M --nodes 2 --inter-link ib-hdr", NULL);
    static const char *const not_reducing[] = {"broadcast", "scatter", "gather", "allgather",
                                               "alltoall", "sendrecv"};
    for (size_t i = 0; i < sizeof not_reducing / sizeof *not_reducing; i++) {
        snprintf(a, sizeof a, "run --op %s --ranks 2 --count 2 --redop prod", not_reducing[i]);
        bad(a, "--redop", not_reducing[i], "does not reduce", "allreduce", (char *)NULL);
        snprintf(a, sizeof a, "cost --op %s --ranks 2 --bytes 8 --redop max", not_reducing[i]);
        bad(a, "--redop", "does not reduce", (char *)NULL);
    }
    bad("bench --op broadcast --ranks 2 -b 8 -e 8 -o prod", "-o", "does not reduce",
        (char *)NULL);
    good("run --op reduce --ranks 2 --count 2 --redop prod", "verified");
}

/* A flag without its value, a switch with one; a number too large for any
 * type is named as given, with the range. */
static void values(void)
{
    bad("run --op allreduce --ranks", "--ranks needs a value", (char *)NULL);
    bad("run --op allreduce --json=yes", "--json takes no value", (char *)NULL);
    bad("cost --op allreduce --ranks 4 --count 8", "--bytes", (char *)NULL);
    bad("bench --count 8", "-b", (char *)NULL);
    bad("lesson ring-allreduce --step 9223372036854775808", "--step",
        "'9223372036854775808'", (char *)NULL);
    EXPECT(!strstr(out, "9223372036854775807"), "--step echoes a number not given: %s", out);
    bad("run --op allreduce --ranks 99999999999999999999", "'99999999999999999999'",
        (char *)NULL);
}

/* Positional arguments where none is taken, and too many; -- ends the
 * flags: what follows is an argument even with a dash. */
static void arguments(void)
{
    bad("run extra --op allreduce", "'extra'", (char *)NULL);
    bad("lesson a b", "one lesson", (char *)NULL);
    bad("nccl-log -- --not-a-flag", "--not-a-flag", (char *)NULL);
    EXPECT(!strstr(out, "unknown flag"), "after --: %s", out);
}

/* A control character in a bad value is escaped, never echoed raw. */
static void escapes(void)
{
    bad("run --op \"$(printf 'all\\033[2Jreduce')\"", "--op", "\\x1b", (char *)NULL);
    EXPECT(!strchr(out, 0x1b), "an escape went to the terminal: %s", out);
}

static const test_case cases[] = {
    CASE_EACH("subcommand", sub_name, subcommand),
#ifndef COLLVIZ_TEST_NO_GUI
    CASE("window-flags", window_flags),
#endif
    CASE("backends", backends),
    CASE("numbers", numbers),
    CASE("unread-flags", unread_flags),
    CASE("values", values),
    CASE("arguments", arguments),
    CASE("escapes", escapes),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    system("mkdir -p " COLLVIZ_BINARY_DIR "/test_cli_flags.home");
    cases_run();
    system("rm -rf " COLLVIZ_BINARY_DIR "/test_cli_flags.home " COLLVIZ_BINARY_DIR
           "/test_cli_flags.gif");
    return cases_end();
}
