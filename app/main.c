/*
 * main.c: collviz's entry point. Dispatches `collviz SUBCOMMAND ...` to
 * each room's command functions, named by the room: cli_cmd_* (cli/),
 * lesson_cmd_* (lesson/), gui_cmd_* (gui/) and compose_cmd_* (compose.c);
 * ncclog/ and show/ are reached through them. With no subcommand (or only
 * flags) it opens the window, which resumes the last lesson in progress or
 * starts the first.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lesson_drill.h"
#include "compose.h"
#include "gui_cmds.h"
#include "lesson_cmd.h"

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *about;
} command;

static const command commands[] = {
    {"gui", gui_cmd_gui, "open the window and animate a collective (the default)"},
    {"run", cli_cmd_run, "execute a collective once, verify it, print every step"},
    {"bench", cli_cmd_bench, "measure time and bandwidth in the manner of nccl-tests"},
    {"cost", cli_cmd_cost, "predict time with the alpha-beta-gamma model"},
    {"list", cli_cmd_list, "ops, algorithms, dtypes, redops and backends"},
    {"card", cli_cmd_card, "the reference card: every algorithm's rounds, bytes and time"},
    {"export", gui_cmd_export, "write PNG frames or an animated GIF"},
    {"render", gui_cmd_render, "benchmark headless rendering"},
    {"lesson", compose_cmd_lesson, "open a lesson at a beat"},
    {"lessons", lesson_cmd_lessons, "list lessons; --check validates lesson files"},
    {"drill", lesson_cmd_drill, "interview drill: every quiz, in random order, on a clock"},
    {"show", gui_cmd_show, "replay a `bench --json` result as a chart"},
    {"nccl-log", compose_cmd_nccl_log, "the rings and trees NCCL built, read from its NCCL_DEBUG log"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: collviz [SUBCOMMAND] [FLAGS]\n\n"
                 "collviz teaches collective communication by executing collectives for real\n"
                 "and animating them step by step.\n\nSubcommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].about);
    fprintf(out, "\n`collviz SUBCOMMAND --help` describes each one; `collviz --version` prints "
                 "the version.\nExit codes: 0 ok, 1 a result failed verification, 2 bad usage "
                 "or input\nor output that could not be written, 3 the requested backend is "
                 "unavailable, or its\ndevice cannot run this (out of its memory, a fault).\n");
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2 || (argv[1][0] == '-' && strcmp(argv[1], "--help") && strcmp(argv[1], "-h") &&
                     strcmp(argv[1], "--version")))
        return gui_cmd_gui(argc, argv); /* `collviz` or `collviz --fullscreen ...` */
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("collviz %s\n", CV_VERSION);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "collviz: unknown subcommand '%s'; allowed: gui, run, bench, cost, list, "
                    "export, render, lesson, lessons, drill, show, nccl-log (see collviz --help)\n",
            argv[1]);
    return CLI_EXIT_USAGE;
}

/* Output that never reached its file (a full disk, `> /dev/full`) is a
 * failure, whatever the subcommand: the last buffered bytes are written
 * only here, so this is the one place that can see it. A command that
 * already failed keeps its own exit code and message. A closed stdout
 * with nothing written to it (EBADF) is not an error. */
static int close_stdout(int rc)
{
    int err = fflush(stdout) != 0 ? errno : 0;
    bool failed = err != 0 || ferror(stdout);
    if (fclose(stdout) != 0 && errno != EBADF) {
        failed = true;
        if (!err)
            err = errno;
    }
    if (!failed || rc != CLI_EXIT_OK)
        return rc;
    /* A write that failed before (stdio then drops its buffer) leaves
     * nothing to flush here, and its errno is gone. */
    fprintf(stderr, "collviz: cannot write standard output: %s\n",
            err ? strerror(err) : "an earlier write to it failed");
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    /* Checked once for every command: an unreadable limit would otherwise
     * be ignored, and no limit would apply. */
    char err[CV_ERR_LEN];
    int64_t limit;
    if (cv_memory_limit_env(&limit, err, sizeof err) != CV_OK) {
        fprintf(stderr, "collviz: %s\n", err);
        return close_stdout(CLI_EXIT_USAGE);
    }
    return close_stdout(dispatch(argc, argv));
}
