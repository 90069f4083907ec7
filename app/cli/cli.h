/*
 * cli.h: the command line's library (app/cli/, prefix cli_): the engine's
 * subcommands and the helpers every subcommand shares.
 *
 * main.c dispatches `collviz SUBCOMMAND ...` to one command function per
 * subcommand; each parses its own flags, prints `--help`, and returns one of
 * the exit codes below. Helpers here keep flag errors and backend selection
 * the same everywhere: a bad flag is one line on stderr naming the flag and
 * what is allowed, then exit 2.
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cv.h"
#include "cv_mpi.h"
#include "ncclog.h"

enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_WRONG = 1,   /* the result failed verification */
    CLI_EXIT_USAGE = 2,   /* bad usage or bad input */
    CLI_EXIT_UNAVAIL = 3  /* the backend is unavailable, or its device cannot run this */
};

/* The engine's subcommands (this library). argv[0] is the subcommand's
 * name. The lesson room's are in lesson/lesson_cmd.h and
 * lesson/lesson_drill.h, the window's in gui/gui_cmds.h. */
int cli_cmd_list(int argc, char **argv);
int cli_cmd_card(int argc, char **argv);

/* The reference card's columns (cli_card.c): collective, algorithm,
 * rounds formula, rounds at the example, bytes formula, bytes at the
 * example, alpha-beta time. A cell and a header as text; the caption
 * says what time is and where the example values come from. */
#define CLI_CARD_COLS 7
void cli_card_cell(const cv_card_row *r, int col, cv_lang lang, char *out, size_t len);
const char *cli_card_header(int col, cv_lang lang);
void cli_card_caption(int ranks, int64_t d, const cv_link *link, cv_lang lang, char *out,
                      size_t len);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
int cli_cmd_cost(int argc, char **argv);
int cli_cmd_cost_nccl(int argc, char **argv); /* cost --nccl PRESET */

/* Prints "collviz: " + message + newline on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ------------------------------------------------------------------ flags
 * One table of flags per subcommand, read by one parser (cli_flags.c), so
 * every subcommand takes "--name value" and "--name=value" alike and says
 * the same thing about a bad flag: an unknown one is "unknown flag" with
 * the list of what the subcommand allows; a value out of range names the
 * range, a word not in the list names the list.
 *
 * Adding a flag is one line in the subcommand's table (and one in its help
 * text); the variable it fills keeps its default when the flag is absent:
 *
 *     long seed = 1;
 *     bool json = false;
 *     const char *backend = "cpu";
 *     cli_flag flags[] = {
 *         CLI_SPEC_FLAGS(&spec),                       (--op --algo --ranks ...)
 *         CLI_LONG("--seed", &seed, 0, 2147483647),
 *         CLI_PICK("--backend", &backend, cli_backends),
 *         CLI_SWITCH("--json", &json),
 *     };
 *     cli_cmdline cl = CLI_CMDLINE("run", run_help, flags);
 *     int code;
 *     if (!cli_flags_parse(&cl, argc, argv, &code))
 *         return code;              (--help printed: 0; a bad flag said: 2)
 *
 * After parsing, cli_flag_given says whether a flag was on the line. */
typedef enum {
    CLI_FLAG_SWITCH, /* no value: bool, set to true */
    CLI_FLAG_INT,    /* a whole number from lo to hi: int */
    CLI_FLAG_LONG,   /* the same into a long */
    CLI_FLAG_SIZE,   /* a whole number with an optional unit (8k, 1.6GB), lo to hi: int64_t */
    CLI_FLAG_NUMBER, /* a finite decimal number from dlo to dhi, in units of text: double */
    CLI_FLAG_TEXT,   /* any text (a path, an id): const char * */
    CLI_FLAG_PICK,   /* one word of a NULL-terminated list: const char *, the list's own */
    CLI_FLAG_ENUM,   /* one name of an cli_enum: an int-sized enum (cv_op, cv_lang, ...) */
    CLI_FLAG_WXH,    /* WIDTHxHEIGHT, 64 to hi pixels each: int[2] */
    CLI_FLAG_REFUSE  /* a flag this subcommand has not: text says what to give instead */
} cli_flag_kind;

/* An enum's names: parse a word (-1 unknown), name a value, how many. */
typedef struct {
    int (*parse)(const char *s);
    const char *(*word)(int value);
    int count;
} cli_enum;
extern const cli_enum cli_ops, cli_algos, cli_dtypes, cli_redops, cli_inits, cli_langs,
    cli_protos;
extern const char *const cli_backends[]; /* cpu, cuda, auto */
extern const char *const cli_run_backends[]; /* those and mpi: run's */
/* The cost model's link presets by name (nvlink3, ...), NULL-terminated. */
const char *const *cli_link_names(void);
/* "a, b, c": the names of e, for messages. */
void cli_enum_list(const cli_enum *e, char *out, size_t len);

typedef struct {
    const char *name; /* "--ranks", "-b" */
    cli_flag_kind kind;
    void *dst;        /* what it fills; its type follows the kind */
    int64_t lo, hi;   /* INT, LONG, SIZE; WXH: hi */
    double dlo, dhi;  /* NUMBER */
    const char *const *words; /* PICK */
    const cli_enum *choices;  /* ENUM */
    const char *text; /* SIZE, NUMBER: the unit; REFUSE: the message */
    int seen, at;     /* set by the parser: how often given, argv index of the last */
} cli_flag;

/* A pointer of type T, checked by the compiler where the table is written. */
#define CLI__PTR(T, p) (1 ? (p) : (T *)0)
#define CLI_SWITCH(n, p) {.name = (n), .kind = CLI_FLAG_SWITCH, .dst = CLI__PTR(bool, p)}
#define CLI_INT(n, p, l, h) \
    {.name = (n), .kind = CLI_FLAG_INT, .dst = CLI__PTR(int, p), .lo = (l), .hi = (h)}
#define CLI_LONG(n, p, l, h) \
    {.name = (n), .kind = CLI_FLAG_LONG, .dst = CLI__PTR(long, p), .lo = (l), .hi = (h)}
#define CLI_SIZE(n, p, l, h, unit) \
    {.name = (n), .kind = CLI_FLAG_SIZE, .dst = CLI__PTR(int64_t, p), .lo = (l), .hi = (h), \
     .text = (unit)}
#define CLI_NUMBER(n, p, l, h, unit) \
    {.name = (n), .kind = CLI_FLAG_NUMBER, .dst = CLI__PTR(double, p), .dlo = (l), .dhi = (h), \
     .text = (unit)}
#define CLI_TEXT(n, p) {.name = (n), .kind = CLI_FLAG_TEXT, .dst = CLI__PTR(const char *, p)}
#define CLI_PICK(n, p, list) \
    {.name = (n), .kind = CLI_FLAG_PICK, .dst = CLI__PTR(const char *, p), .words = (list)}
#define CLI_ENUM(n, p, e) \
    {.name = (n), .kind = CLI_FLAG_ENUM, .dst = (p), .choices = (e)}
#define CLI_WXH(n, p, max) {.name = (n), .kind = CLI_FLAG_WXH, .dst = CLI__PTR(int, p), .hi = (max)}
#define CLI_REFUSE(n, why) {.name = (n), .kind = CLI_FLAG_REFUSE, .text = (why)}
/* The spec's flags, the same in run, bench, cost, export, render and the
 * window: --op --algo --ranks --count --dtype --redop --root --slices
 * --nodes into the cv_spec s. */
#define CLI_SPEC_OP_FLAGS(s)                                                                   \
    CLI_ENUM("--op", &(s)->op, &cli_ops), CLI_ENUM("--algo", &(s)->algo, &cli_algos),        \
        CLI_INT("--ranks", &(s)->ranks, 1, CV_MAX_RANKS)
#define CLI_SPEC_DATA_FLAGS(s)                                                                 \
    CLI_ENUM("--dtype", &(s)->dtype, &cli_dtypes), CLI_ENUM("--redop", &(s)->redop, &cli_redops), \
        CLI_INT("--root", &(s)->root, 0, CV_MAX_RANKS - 1),                                    \
        CLI_INT("--slices", &(s)->slices, 1, CV_MAX_SLICES),                                   \
        CLI_INT("--nodes", &(s)->nodes, 1, CV_MAX_RANKS),                                      \
        CLI_ENUM("--proto", &(s)->proto, &cli_protos)
#define CLI_SPEC_FLAGS(s)                                                                      \
    CLI_SPEC_OP_FLAGS(s), CLI_SIZE("--count", &(s)->count, 0, INT64_MAX, "elements"),          \
        CLI_SPEC_DATA_FLAGS(s)

/* What --nccl-log FILE --comm ID --channel C gave: a command that reads an
 * NCCL log holds one, puts CLI_NCCL_FLAGS(&it) in its flag table and
 * points its cli_cmdline's nccl at it; cli_finish_spec reads it there. */
typedef struct {
    const char *path, *comm;
    int channel;
} cli_nccl_args;
#define CLI_NCCL_FLAGS(a)                                                                      \
    CLI_TEXT("--nccl-log", &(a)->path), CLI_TEXT("--comm", &(a)->comm),                        \
        CLI_INT("--channel", &(a)->channel, 0, NCCLOG_MAX_CHANNELS - 1)

typedef struct {
    const char *cmd;  /* "run": names the subcommand in messages */
    const char *help; /* printed for --help or -h, wherever they stand */
    cli_flag *flags;
    int nflags;
    const char **args; /* arguments that are not flags go here ... */
    int maxargs;       /* ... up to this many (0: none is taken) */
    const char *arg_name; /* "FILE": "one FILE at a time" */
    int nargs;         /* set by the parser */
    const cli_nccl_args *nccl; /* the NCCL log flags' values, where the table has them */
} cli_cmdline;
#define CLI_CMDLINE(cmd, help, flags) \
    {(cmd), (help), (flags), (int)(sizeof(flags) / sizeof *(flags)), NULL, 0, NULL, 0, NULL}
/* The same for a subcommand that takes up to max arguments besides its
 * flags (what names one in messages: "FILE"). */
#define CLI_CMDLINE_ARGS(cmd, help, flags, args, max, what) \
    {(cmd), (help), (flags), (int)(sizeof(flags) / sizeof *(flags)), (args), (max), (what), 0, NULL}

/* Reads argv[1..] against c's table. True when the subcommand goes on;
 * false when it must return *exit_code: CLI_EXIT_OK after printing the
 * help, CLI_EXIT_USAGE after printing one line about a bad flag. "--"
 * ends the flags; "-" alone is an argument (standard input). */
bool cli_flags_parse(cli_cmdline *c, int argc, char **argv, int *exit_code);
const cli_flag *cli_flag_get(const cli_cmdline *c, const char *name);
/* Whether the flag was given, under its own name or another that sets the
 * same thing (bench's -r and --root); _as gives the name it was given as,
 * for messages, or NULL. */
bool cli_flag_given(const cli_cmdline *c, const char *name);
const char *cli_flag_given_as(const cli_cmdline *c, const char *name);
/* Of the NULL-terminated names, the one given first on the line, or NULL. */
const char *cli_flag_first(const cli_cmdline *c, const char *const *names);

/* ----------------------------------------------------------- spec fields
 * One row per field that sets up a collective's stage (cli_fields.c): how
 * the command line, the page's link and a trace name it, and how the
 * window treats it. The window's and export's lists of stage flags and of
 * flags refused beside --trace, the page's URL keys (and the message
 * listing them) and the page's GIF export read the table; CLI_SPEC_FLAGS
 * are the typed flags of the rows marked CLI_FIELD_SPEC. A new field is
 * one row (test_fields walks every row through every path). */
typedef enum {
    CLI_FIELD_OP,
    CLI_FIELD_ALGO,
    CLI_FIELD_RANKS,
    CLI_FIELD_COUNT,
    CLI_FIELD_DTYPE,
    CLI_FIELD_REDOP,
    CLI_FIELD_ROOT,
    CLI_FIELD_SLICES,
    CLI_FIELD_NODES,
    CLI_FIELD_PROTO,
    CLI_FIELD_COMPARE,
    CLI_FIELD_LINK,
    CLI_FIELD_INTER_LINK,
    CLI_FIELD_INIT,
    CLI_FIELD_SEED,
    CLI_FIELD_INPUT,
    CLI_FIELD_BACKEND,
    CLI_FIELD_NCCL_LOG,
    CLI_FIELD_COMM,
    CLI_FIELD_CHANNEL,
    CLI_FIELD_NO_NARRATION,
    CLI_FIELD_TRACE,
    CLI_FIELD_THEME,
    CLI_FIELD_LANG,
    CLI_NFIELDS
} cli_field_id;

enum {
    CLI_FIELD_STAGE = 1,       /* given, the window opens the free stage, not the course */
    CLI_FIELD_TRACE_CLASH = 2, /* refused beside --trace: the recorded run says it */
    CLI_FIELD_SPEC = 4,        /* a member of cv_spec, one of CLI_SPEC_FLAGS */
    CLI_FIELD_FILE = 8         /* its value is a file: the page's link names a dropped one */
};

typedef struct {
    cli_field_id id;  /* its index in cli_fields */
    const char *flag; /* "--proto" */
    const char *key;  /* the page's URL key ("proto"), NULL where the page cannot set it */
    const char *json; /* the key a trace (run --trace-out) records it under, or NULL */
    unsigned what;    /* CLI_FIELD_STAGE | ... */
} cli_field;

extern const cli_field cli_fields[CLI_NFIELDS];
/* The row of a URL key or of a flag, or NULL. */
const cli_field *cli_field_by_key(const char *key);
const cli_field *cli_field_by_flag(const char *flag);
/* Of the rows with every bit of what, the flag given first on c's line, or
 * NULL (cli_flag_first). */
const char *cli_field_first(const cli_cmdline *c, unsigned what);
/* "op, algo, ...": every URL key, in the table's order. */
void cli_field_keys(char *out, size_t len);

/* Text from outside (a file, the command line) made safe to print on a
 * terminal: control characters (ESC, BEL, ...), bidirectional overrides
 * (U+202E, ...) and bytes that are not UTF-8 are written as \xNN or
 * \uNNNN; out is cut with "..." when it fills. Returns the length. */
size_t cli_escape(const char *s, char *out, size_t len);
/* The same into one of a few static buffers used in turn: for messages. */
const char *cli_esc(const char *s);
/* Whether a code point must not reach a terminal raw (cli_escape's test). */
bool cli_unsafe_codepoint(uint32_t c);

/* Where the program's data directory `name` ("lessons", "assets") is: the
 * directory named by the first of the NULL-terminated environment
 * variables `env` that is set (false when it is not a directory: no quiet
 * fallback), else `name` next to the executable (a build tree, an unpacked
 * copy), else PREFIX/share/collviz/`name` for an executable in PREFIX/bin.
 * False, with why, when none exists (cli_data.c). */
bool cli_data_dir(const char *name, const char *const *env, char *out, size_t outlen, char *why,
                  size_t whylen);

/* Files the program finishes writing, for a host that must hear of them:
 * the browser offers a file the user asked for (a screenshot) for
 * download and copies the program's own state (progress) into the page's
 * lasting storage. cli_file_written is NULL on the desktop; cli_wrote_file
 * calls it where set (cli_data.c). */
typedef enum { CLI_FILE_STATE, CLI_FILE_USER } cli_file_kind;
extern void (*cli_file_written)(const char *path, cli_file_kind kind);
void cli_wrote_file(const char *path, cli_file_kind kind);

/* A run's progress on the terminal (cli_progress.c): begin sets o's
 * on_step where stderr is a terminal; after a second, the step or
 * "verifying" shows on one line, which end erases. */
void cli_progress_begin(cv_run_opts *o);
void cli_progress_step(void *user, int done, int total);
void cli_progress_end(void);

/* The process's peak resident memory in KiB (VmHWM), or -1. */
long cli_peak_rss_kb(void);

/* After parsing c (whose table holds the spec flags, and CLI_NCCL_FLAGS
 * where the command reads an NCCL log): picks the op's default algo
 * unless algo_given, refuses --root and --slices where the algorithm reads
 * neither and --redop (bench's -o) where the op does not reduce, applies
 * --nccl-log (the communicator sets the ranks and nodes, and the
 * channel's ring and trees are what ring and double-tree follow), and
 * checks the spec (error printed); false on error. */
bool cli_finish_spec(const cli_cmdline *c, cv_spec *spec, bool algo_given, int max_ranks);



/* The NCCL log's communicator --nccl-log named (NULL when none), with the
 * channel, the path and --comm as given (each may be NULL), after
 * cli_finish_spec; it lives until the program ends. */
const ncclog_comm *cli_nccl_log(int *channel, const char **path, const char **comm);
/* Switches the log's ring and trees (what a spec's topo points at) to
 * channel ch: the next plan built follows it. -1 when no log was given. */
int cli_nccl_set_channel(int ch);
/* `collviz nccl-log FILE [--comm ID] [--json|--text]`: prints the summary
 * and, where have_window and the log can be drawn, fills *open with what
 * the window should show (open->open true); app/compose.c then opens it.
 * Returns an CLI_EXIT_* code. */
typedef struct {
    bool open;
    char path[4096];
    char comm[128]; /* --comm as given, "" for the only one */
} cli_nccl_window;
int cli_nccl_log_cmd(int argc, char **argv, bool have_window, cli_nccl_window *open);

/* One line saying where the ring and trees come from ("ring and trees:
 * channel 0 of communicator 0x... in job.log (16 ranks, 2 nodes)"), or
 * nothing when no log was given. */
void cli_print_nccl_source(FILE *out);

/* cli_ncclog.c's half of cli_finish_spec. */
bool cli__apply_nccl_log(const cli_cmdline *c, cv_spec *spec, int max_ranks);

/* --compare for the window and export: "A" names the algorithm drawn
 * beside the stage's, "A,B" sets the stage's to A and the second to B.
 * Call after every flag is parsed (the op must be known): checks both are
 * algorithms of spec->op and prints the error naming --compare otherwise. */
bool cli_parse_compare(const char *s, cv_spec *spec, bool *algo_given, cv_algo *second);

/* `run --backend mpi` on every process of an MPI launch (cli_mpi.c).
 * cli_mpi_requested: whether the command line asks for it, read before the
 * flags, since MPI must start first for a bad flag on one process to reach
 * the others. cli_mpi_begin starts MPI (a build without MPI: nothing, and
 * cli_select_backend says it is unavailable), sends stdout of every
 * process but 0 to /dev/null, and holds stderr back; CLI_EXIT_OK or the
 * exit code, its line printed. cli_mpi_agree(code, what), with this
 * process's exit code so far (CLI_EXIT_OK: ready to run) and the
 * collective it is about to run as text, is the agreement: OK where every
 * process is ready to run the same; otherwise process 0 has printed one line (the
 * line itself where every process said the same, with its code; else
 * naming the first failing rank, CLI_EXIT_UNAVAIL) and every process gets
 * the code to return. cli_mpi_fail: after the agreement, one line naming
 * this rank, then every process ends with exit 3. cli_mpi_end(code):
 * process 0's code, on every process; MPI ends. cli_mpi_world: the
 * processes, NULL where run is not under MPI. */
#define CLI_MPI_HELP (-1) /* cli_mpi_agree's code for a process that printed --help */
bool cli_mpi_requested(int argc, char **argv);
/* For gui and export, which draw an MPI run from its trace: the one line
 * that says how (exit 2). */
int cli_mpi_trace_only(const char *cmd);
int cli_mpi_begin(void);
int cli_mpi_agree(int code, const char *what);
void cli_mpi_fail(const char *what) __attribute__((noreturn));
int cli_mpi_end(int code);
cv_mpi *cli_mpi_world(void);

/* Backend by name: "cpu", "cuda", "auto" or "mpi". auto takes CUDA when a device
 * is present, otherwise prints one notice (unless quiet) and takes the CPU.
 * Returns CLI_EXIT_OK, CLI_EXIT_USAGE for an unknown name, or
 * CLI_EXIT_UNAVAIL (message printed) for an explicit backend that cannot run. */
int cli_select_backend(const char *name, bool quiet, const cv_backend **out);

/* The exit code for rc, a failed run on be (NULL: NCCL): CLI_EXIT_UNAVAIL
 * where a device cannot run it (no device, out of its memory, a fault),
 * otherwise CLI_EXIT_USAGE. */
int cli_exit_for(int rc, const cv_backend *be);
/* Whether rc says the device, not the setup, is what stopped a run on a
 * device backend: where `auto` chose the device, the CPU takes over. */
bool cli_device_refused(int rc, const cv_backend *be);

/* run --input FILE: one JSON array of values per rank, read by the shared
 * JSON reader (collectives/json/jr.h), checked against the op's layout and the
 * dtype; every error printed as FILE:LINE:COL. On success *inputs holds
 * spec->ranks arrays (NULL where a rank's send buffer is unused); free
 * with cli_free_inputs. */
bool cli_read_inputs(const char *path, const cv_spec *spec, void ***inputs);
/* The same from text already in memory (name stands for the file in
 * messages), the one line said into err instead of printed: the fuzzer's
 * way in. */
bool cli_parse_inputs(const char *name, const char *text, size_t len, const cv_spec *spec,
                      void ***inputs, char *err, size_t errlen);
void cli_free_inputs(void **inputs, int ranks);

/* A trace read back (cli_trace.c, docs/JSON.md): the document `run
 * --trace-out FILE` (or `run --json`) writes, checked as every input is,
 * for gui, export and the page to replay with the recorded times. */
typedef struct {
    cv_spec spec;
    void **inputs;        /* per rank: its send buffer as given (NULL: unused) */
    void **outputs;       /* per rank: its receive buffer as recorded */
    double *step_seconds; /* per step of the plan: the recorded run's times */
    int nsteps;
    int64_t transfers;    /* recorded transfers, each checked against the plan's */
    int64_t wrong;        /* wrong results the recording run counted */
    char backend[32], host[128], created[32];
} cli_trace;
/* False with one line (file:line:column) in err. max_ranks: what the
 * caller can show. */
bool cli_trace_read(const char *path, int max_ranks, cli_trace *t, char *err, size_t errlen);
/* The same from text in memory (name stands for the file in messages). */
bool cli_trace_parse(const char *name, const char *text, size_t len, int max_ranks, cli_trace *t,
                     char *err, size_t errlen);
void cli_trace_destroy(cli_trace *t); /* accepts a zeroed or destroyed trace */
/* Elements of the replay's results whose bytes differ from the recorded. */
int64_t cli_trace_differs(const cli_trace *t, const cv_trace *replay);

/* The terminal step-through of a visual trace: each step's phase and
 * transfers, then every rank's buffers with values and contributing ranks,
 * readable in 80 columns for 4 ranks x 8 elements. */
void cli_print_steps(FILE *out, const cv_trace *trace);

#endif /* CLI_H */
