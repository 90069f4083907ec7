/*
 * app.h: the command line's library (app/cli/, prefix app_): the engine's
 * subcommands and the helpers every subcommand shares.
 *
 * main.c dispatches `collviz SUBCOMMAND ...` to one app_cmd_* function per
 * subcommand; each parses its own flags, prints `--help`, and returns one of
 * the exit codes below. Helpers here keep flag errors and backend selection
 * the same everywhere: a bad flag is one line on stderr naming the flag and
 * what is allowed, then exit 2.
 */
#ifndef APP_H
#define APP_H

#include <stdbool.h>
#include <stdio.h>

#include "cv.h"
#include "ncclog.h"

enum {
    APP_EXIT_OK = 0,
    APP_EXIT_WRONG = 1,   /* the result failed verification */
    APP_EXIT_USAGE = 2,   /* bad usage or bad input */
    APP_EXIT_UNAVAIL = 3  /* the backend is unavailable, or its device cannot run this */
};

/* The engine's subcommands (this library). argv[0] is the subcommand's
 * name. The course's are in course/lesson_cmd.h, the window's in
 * gui/gui_cmds.h. */
int app_cmd_list(int argc, char **argv);
int app_cmd_run(int argc, char **argv);
int app_cmd_bench(int argc, char **argv);
int app_cmd_cost(int argc, char **argv);

/* Prints "collviz: " + message + newline on stderr; returns APP_EXIT_USAGE. */
int app_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Matches argv[*i] against a flag taking a value, as "--name value" or
 * "--name=value". Returns 1 and sets *value (advancing *i past a separate
 * value), 0 if it is another flag, -1 after printing "needs a value". */
int app_flag_value(int argc, char **argv, int *i, const char *name, const char **value);

/* Flag values: parse or print a one-line error naming the flag and what
 * is allowed, and return false. */
bool app_parse_int(const char *flag, const char *s, long min, long max, long *out);
bool app_parse_size(const char *flag, const char *s, int64_t *out);
bool app_parse_enum(const char *flag, const char *s, int (*parse)(const char *), int count,
                    const char *(*name)(int), int *out);

/* "WxH" with both sides from 64 to max pixels; prints the error naming the
 * flag and returns false otherwise. */
bool app_parse_wxh(const char *flag, const char *s, int max, int *w, int *h);

/* Where the program's data directory `name` ("lessons", "assets") is: the
 * directory named by the first of the NULL-terminated environment
 * variables `env` that is set (false when it is not a directory: no quiet
 * fallback), else `name` next to the executable (a build tree, an unpacked
 * copy), else PREFIX/share/collviz/`name` for an executable in PREFIX/bin.
 * False, with why, when none exists (cli_data.c). */
bool app_data_dir(const char *name, const char *const *env, char *out, size_t outlen, char *why,
                  size_t whylen);

/* Monotonic seconds, for timing. */
double app_now_seconds(void);
/* The process's peak resident memory in KiB (VmHWM), or -1. */
long app_peak_rss_kb(void);

/* The spec flags shared by run, export and the GUI: --op --algo --ranks
 * --count --dtype --redop --root --slices --nodes, and --nccl-log FILE
 * --comm ID --channel C (an NCCL log's communicator sets the ranks and
 * nodes, and the channel's ring and trees are what ring and double-tree
 * follow). Returns 1 if argv[*i] was one of them (consuming its value), 0
 * if not, -1 after printing an error. */
int app_parse_spec_flag(int argc, char **argv, int *i, cv_spec *spec, bool *algo_given);
/* After parsing: picks the op's default algo if none was given, refuses
 * --root and --slices where the algorithm reads neither, and checks the
 * spec (error printed); false on error. */
bool app_finish_spec(cv_spec *spec, bool algo_given, int max_ranks);

/* The NCCL log's communicator --nccl-log named (NULL when none), with the
 * channel and the path, after app_finish_spec; it lives until the program
 * ends. */
const ncclog_comm *app_nccl_log(int *channel, const char **path);
/* Switches the log's ring and trees (what a spec's topo points at) to
 * channel ch: the next plan built follows it. -1 when no log was given. */
int app_nccl_set_channel(int ch);
/* `collviz nccl-log FILE [--comm ID] [--json|--text]`: prints the summary,
 * then opens the window on the log with open_window (the window's library
 * passes one; a build without the window NULL). The window's library and
 * gui_stub.c call this as app_cmd_nccl_log. */
typedef int (*app_nccl_window_fn)(const char *path, const char *comm_id);
int app_nccl_log_cmd(int argc, char **argv, app_nccl_window_fn open_window);

/* One line saying where the ring and trees come from ("ring and trees:
 * channel 0 of communicator 0x... in job.log (16 ranks, 2 nodes)"), or
 * nothing when no log was given. */
void app_print_nccl_source(FILE *out);

/* cli_ncclog.c's halves of the two calls above. */
int app__parse_nccl_flag(int argc, char **argv, int *i);
bool app__apply_nccl_log(cv_spec *spec, bool ranks_given, bool nodes_given, int max_ranks);

/* --compare for the window and export: "A" names the algorithm drawn
 * beside the stage's, "A,B" sets the stage's to A and the second to B.
 * Call after every flag is parsed (the op must be known): checks both are
 * algorithms of spec->op and prints the error naming --compare otherwise. */
bool app_parse_compare(const char *s, cv_spec *spec, bool *algo_given, cv_algo *second);

/* Backend by name: "cpu", "cuda" or "auto". auto takes CUDA when a device
 * is present, otherwise prints one notice (unless quiet) and takes the CPU.
 * Returns APP_EXIT_OK, APP_EXIT_USAGE for an unknown name, or
 * APP_EXIT_UNAVAIL (message printed) for an explicit backend that cannot run. */
int app_select_backend(const char *name, bool quiet, const cv_backend **out);

/* The exit code for rc, a failed run on be (NULL: NCCL): APP_EXIT_UNAVAIL
 * where a device cannot run it (no device, out of its memory, a fault),
 * otherwise APP_EXIT_USAGE. */
int app_exit_for(int rc, const cv_backend *be);
/* Whether rc says the device, not the setup, is what stopped a run on a
 * device backend: where `auto` chose the device, the CPU takes over. */
bool app_device_refused(int rc, const cv_backend *be);

/* run --input FILE: one JSON array of values per rank, checked against the
 * op's layout and the dtype; every error printed as FILE:LINE:COL. On
 * success *inputs holds spec->ranks arrays (NULL where a rank's send buffer
 * is unused); free with app_free_inputs. */
bool app_read_inputs(const char *path, const cv_spec *spec, void ***inputs);
void app_free_inputs(void **inputs, int ranks);

/* The terminal step-through of a visual trace: each step's phase and
 * transfers, then every rank's buffers with values and contributing ranks,
 * readable in 80 columns for 4 ranks x 8 elements. */
void app_print_steps(FILE *out, const cv_trace *trace);

#endif /* APP_H */
