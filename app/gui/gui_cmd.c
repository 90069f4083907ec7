/*
 * gui_cmd.c: `collviz gui` (and `collviz` alone): flags, then the window.
 *
 * With no flag that sets up the stage (spec, compare, backend, inputs,
 * link, --no-narration), the window opens on the course: the lesson in
 * progress, or the first (gui_lesson_start); with such flags, or when no
 * course can be found, it opens the free stage.  The spec and backend flags
 * are parsed by the same helpers as `collviz run`, so they mean the same
 * thing everywhere.  Without a display the command says so in one line and
 * prints the terminal step-through of the same spec instead, exiting 0: a
 * headless machine still gets the answer.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gui_cmds.h"
#include "gui_internal.h"
#include "gui_lesson.h"

static double g_start;
static bool g_timing;

static void first_frame(gui *g)
{
    (void)g;
    if (g_timing)
        fprintf(stderr, "collviz: first frame after %.1f ms\n", (cv_now_seconds() - g_start) * 1e3);
}

/* --theme's words: the built-in themes and any that assets/themes adds, so
 * the files are read before the first word is looked up. */
static const char *theme_word(int i) { return rd_theme_get((rd_theme_id)i)->name; }
static int theme_parse(const char *s)
{
    gui_load_themes();
    gui_themes.count = rd_theme_count();
    return rd_theme_parse(s);
}
cli_enum gui_themes = {theme_parse, theme_word, RD_THEME_COUNT};

static const char gui_help[] =
    "usage: collviz gui [--op OP] [--algo ALGO] [--ranks N] [--count N] [--dtype T]\n"
            "                   [--redop R] [--root R] [--slices S] [--nodes K]\n"
            "                   [--backend cpu|cuda|auto] [--input FILE]\n"
            "                   [--compare ALGO[,ALGO]] [--theme dark|light|projector]\n"
            "                   [--lang en|zh] [--size WxH] [--fullscreen] [--no-narration]\n"
            "                   [--link PRESET] [--inter-link PRESET]\n"
            "                   [--init rank|index|random|nan] [--seed N]\n"
            "                   [--shots DIR] [--frames N] [--timing] [--proto simple|ll128|ll]\n"
            "                   [--trace FILE]\n"
            "                   [--nccl-log FILE [--comm ID] [--channel C]]\n"
            "Opens the window that animates the collective step by step (H in the window\n"
            "lists the keys). Without flags that set up the stage it opens the course at the\n"
            "lesson in progress (or the first; Tab lists the lessons); with them, the free\n"
            "stage. Without a display, prints the steps in the terminal instead.\n"
            "--link and --inter-link price the steps' model times: inside a node (default\n"
            "nvlink4) and between nodes (default ib-ndr), as collviz cost does.\n"
            "--nccl-log FILE sets the stage up as NCCL did on your cluster: the log's\n"
            "ranks and nodes, channel C's ring and trees (collviz nccl-log reads it).\n"
            "--trace FILE replays a run recorded anywhere (collviz run --trace-out FILE,\n"
            "on a GPU too): its op, algorithm, ranks and inputs, with its measured step\n"
            "times, backend and host; --compare sets another algorithm beside it.\n"
            "--input FILE starts the stage from your own inputs, in the shape of run\n"
            "--json's \"inputs\" (see collviz run --help), while the op, ranks, count,\n"
            "dtype and root stay as given.\n";

bool gui_finish_stage(const cli_cmdline *cl, gui_options *o, const char *compare, bool algo_given)
{
    if (compare) {
        if (!cli_parse_compare(compare, &o->spec, &algo_given, &o->compare_algo))
            return false;
        o->compare = true;
    }
    bool count_default = o->spec.count < 0;
    if (count_default)
        o->spec.count = gui_default_count(o->spec.op, o->spec.ranks);
    if (!cli_finish_spec(cl, &o->spec, algo_given, CV_MAX_VISUAL_RANKS))
        return false;
    if (count_default) /* an NCCL log may have set the ranks */
        o->spec.count = gui_default_count(o->spec.op, o->spec.ranks);
    return true;
}

int gui_setup_stage(const cli_cmdline *cl, gui_options *o, const gui_stage_args *a,
                    cli_trace *rec, char *label, size_t labellen, void ***given)
{
    memset(rec, 0, sizeof *rec);
    *given = NULL;
    if (a->trace && !gui_take_trace(cl, a->trace, o, rec, label, labellen))
        return CLI_EXIT_USAGE;
    int rc = gui_finish_stage(cl, o, a->compare, a->algo_given || a->trace) ? CLI_EXIT_OK
                                                                            : CLI_EXIT_USAGE;
    if (rc == CLI_EXIT_OK)
        rc = cli_select_backend(a->backend, a->quiet, &o->backend);
    if (rc == CLI_EXIT_OK && a->input && !cli_read_inputs(a->input, &o->spec, given))
        rc = CLI_EXIT_USAGE;
    char err[CV_ERR_LEN];
    if (rc == CLI_EXIT_OK && a->trace && gui_stage_check(o, err, sizeof err) != CV_OK)
        rc = cli_usage_error("%s: %s", cli_esc(a->trace), err);
    if (rc != CLI_EXIT_OK) {
        cli_trace_destroy(rec);
        return rc;
    }
    if (!a->trace) {
        o->inputs = (const void *const *)*given;
        o->inputs_spec = o->spec;
    }
    return CLI_EXIT_OK;
}

bool gui_take_trace(const cli_cmdline *cl, const char *path, gui_options *o, cli_trace *rec,
                    char *label, size_t labellen)
{
    const char *given = cli_field_first(cl, CLI_FIELD_TRACE_CLASH);
    if (given) {
        cli_usage_error("%s: --trace replays the recorded run as it was; leave %s out", given,
                        given);
        return false;
    }
    char err[1600];
    if (!cli_trace_read(path, CV_MAX_VISUAL_RANKS, rec, err, sizeof err)) {
        cli_usage_error("%s", err);
        return false;
    }
    o->spec = rec->spec;
    o->inputs = (const void *const *)rec->inputs;
    o->inputs_spec = rec->spec;
    o->recorded_seconds = rec->step_seconds;
    o->recorded_spec = rec->spec;
    snprintf(label, labellen, "%s, recorded%s%s%s%s", cli_esc(rec->backend),
             rec->host[0] ? " on " : "", rec->host[0] ? cli_esc(rec->host) : "",
             rec->created[0] ? " at " : "", rec->created[0] ? cli_esc(rec->created) : "");
    o->recorded_label = label;
    return true;
}

void gui_report_trace(gui *g, const cli_trace *rec)
{
    const cv_trace *t = gui_trace(g, 0);
    if (!rec || !t)
        return;
    int64_t differ = cli_trace_differs(rec, t);
    char msg[480];
    bool zh = gui_lang(g) == CV_LANG_ZH;
    if (differ > 0)
        snprintf(msg, sizeof msg,
                 zh ? "记录的结果有 %lld 个元素与在 CPU 上重放的不同%s（记录它的后端：%s）"
                    : "the recorded results differ from the replay on the CPU in %lld element%s "
                      "(the backend that recorded them: %s)",
                 (long long)differ, zh ? "" : differ == 1 ? "" : "s", cli_esc(rec->backend));
    else if (rec->wrong > 0)
        snprintf(msg, sizeof msg,
                 zh ? "记录它的运行报告了 %lld 个错误结果；重放的结果与参考一致"
                    : "the recorded run counted %lld wrong results; the replay matches the "
                      "reference",
                 (long long)rec->wrong);
    else /* what was compared: the transfers with the plan's (on reading), the results */
        snprintf(msg, sizeof msg,
                 zh ? "重放了 %s 上记录的运行：%lld 次传输与 collviz 的计划相同，"
                      "结果与在 CPU 上的重放逐位一致，时间是记录时测得的"
                    : "replayed the run recorded on %s: its %lld transfers are collviz's plan's "
                      "and its results agree bit for bit with the replay on the CPU; the times "
                      "are the recorded ones",
                 rec->host[0] ? cli_esc(rec->host) : cli_esc(rec->backend),
                 (long long)rec->transfers);
    gui_message(g, msg, 8);
}

static int terminal_fallback(const cv_spec *spec, const cv_backend *backend, cv_init init,
                             uint64_t seed, const void *const *inputs)
{
    char err[CV_ERR_LEN] = "";
    cv_plan *plan = NULL;
    cv_trace *trace = NULL;
    int rc = cv_plan_create(spec, &plan, err, sizeof err);
    if (rc == CV_OK) {
        cv_run_opts opts;
        cv_run_opts_init(&opts);
        opts.visual = true;
        opts.init = init;
        opts.seed = seed;
        opts.inputs = inputs;
        rc = cv_run(plan, backend, &opts, &trace, err, sizeof err);
    }
    if (rc != CV_OK) {
        fprintf(stderr, "collviz: %s: %s\n", cv_strerror(rc), err);
        cv_plan_destroy(plan);
        return cli_exit_for(rc, backend);
    }
    cli_print_steps(stdout, trace);
    cv_trace_destroy(trace);
    cv_plan_destroy(plan);
    return CLI_EXIT_OK;
}

static int open_stage(const gui_options *opt, const cli_trace *rec, bool stage_flags,
                      bool theme_given, bool lang_given, const char *shots, long frames);

int gui_cmd_gui(int argc, char **argv)
{
    if (cli_mpi_requested(argc, argv))
        return cli_mpi_trace_only("gui");
    g_start = cv_now_seconds();
    gui_options o;
    gui_options_init(&o);
    const char *backend_name = "cpu", *compare = NULL, *shots = NULL, *input = NULL, *trace = NULL;
    long frames = 0, seed = (long)o.seed;
    bool no_narration = false;
    int size[2] = {o.width, o.height};
    o.spec.count = -1; /* not given: the stage picks it from the rank count */
    cli_nccl_args nccl = {NULL, NULL, 0};
    cli_flag flags[] = {
        CLI_SPEC_FLAGS(&o.spec),
        CLI_NCCL_FLAGS(&nccl),
        CLI_PICK("--backend", &backend_name, cli_backends),
        CLI_TEXT("--compare", &compare),
        CLI_ENUM("--theme", &o.theme, &gui_themes),
        CLI_ENUM("--lang", &o.lang, &cli_langs),
        CLI_WXH("--size", size, 16384),
        CLI_SWITCH("--fullscreen", &o.fullscreen),
        CLI_SWITCH("--no-narration", &no_narration),
        CLI_PICK("--link", &o.link, cli_link_names()),
        CLI_PICK("--inter-link", &o.inter_link, cli_link_names()),
        CLI_ENUM("--init", &o.init, &cli_inits),
        CLI_LONG("--seed", &seed, 0, 2147483647L),
        CLI_TEXT("--input", &input),
        CLI_TEXT("--trace", &trace),
        CLI_TEXT("--shots", &shots),
        CLI_LONG("--frames", &frames, 1, 1000000000L),
        CLI_SWITCH("--timing", &g_timing),
    };
    cli_cmdline cl = CLI_CMDLINE("gui", gui_help, flags);
    cl.nccl = &nccl;
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    o.seed = (uint64_t)seed;
    o.narration = !no_narration;
    o.width = size[0];
    o.height = size[1];
    o.sized = cli_flag_given(&cl, "--size");
    bool algo_given = cli_flag_given(&cl, "--algo");
    /* Any flag that sets up the stage asks for the free stage, not a lesson. */
    bool stage_flags = cli_field_first(&cl, CLI_FIELD_STAGE) != NULL;
    bool theme_given = cli_flag_given(&cl, "--theme"), lang_given = cli_flag_given(&cl, "--lang");
    cli_trace rec;
    char label[300];
    void **given = NULL; /* --input's values, checked before a window opens */
    gui_stage_args sa = {trace, compare, backend_name, input, algo_given, false};
    int rc = gui_setup_stage(&cl, &o, &sa, &rec, label, sizeof label, &given);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = open_stage(&o, trace ? &rec : NULL, stage_flags, theme_given, lang_given, shots, frames);
    cli_free_inputs(given, o.spec.ranks);
    cli_trace_destroy(&rec);
    return rc;
}

/* The rest of `collviz gui` once its flags are read: the course, or the
 * free stage o sets up, or the steps in the terminal without a display. */
static int open_stage(const gui_options *opt, const cli_trace *rec, bool stage_flags,
                      bool theme_given, bool lang_given, const char *shots, long frames)
{
    gui_options o = *opt;
    int rc;
    char err[CV_ERR_LEN] = "";
    if (!stage_flags) {
        gui_lesson_window_opts wo = {shots, frames, first_frame, false};
        rc = gui_lesson_start(&o, &wo, theme_given, lang_given, err, sizeof err);
        if (rc == CLI_EXIT_UNAVAIL && strncmp(err, "no display", 10) == 0) {
            fprintf(stderr, "collviz: %s: showing the steps in the terminal instead\n", err);
            return terminal_fallback(&o.spec, o.backend, o.init, o.seed, o.inputs);
        }
        if (rc >= 0) {
            if (rc != CLI_EXIT_OK && err[0])
                fprintf(stderr, "collviz: %s\n", err);
            if (g_timing)
                fprintf(stderr, "collviz: peak resident memory %.1f MB\n", cli_peak_rss_kb() / 1024.0);
            return rc;
        }
        err[0] = '\0'; /* no course: the free stage, as before lessons existed */
    }
    /* A setup the window cannot show is one line and exit 2, display or
     * not (without one, the terminal fallback would say it after SDL's
     * own complaints). */
    cv_plan *check = NULL;
    rc = cv_plan_create(&o.spec, &check, err, sizeof err);
    if (rc == CV_OK)
        rc = cv_visual_check(check, err, sizeof err);
    cv_plan_destroy(check);
    if (rc != CV_OK)
        return cli_usage_error("%s", err);
    gui *g = NULL;
    if (gui_create(&o, &g, err, sizeof err) != CV_OK) {
        if (strncmp(err, "no display", 10) == 0) {
            fprintf(stderr, "collviz: %s: showing the steps in the terminal instead\n", err);
            return terminal_fallback(&o.spec, o.backend, o.init, o.seed, o.inputs);
        }
        fprintf(stderr, "collviz: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (shots)
        snprintf(g->shot_dir, sizeof g->shot_dir, "%s", shots);
    gui_report_trace(g, rec);
    g->edit_echo = true; /* each edited value as a line on stdout */
    g->exit_after = frames;
    g->first_frame_cb = first_frame;
    gui_run(g);
    gui_destroy(g);
    if (g_timing)
        fprintf(stderr, "collviz: peak resident memory %.1f MB\n", cli_peak_rss_kb() / 1024.0);
    SDL_Quit();
    return CLI_EXIT_OK;
}

/* `collviz nccl-log FILE`'s window: the free stage set up from the log, as
 * `collviz gui --nccl-log FILE` would. Without a display there is nothing
 * to add to the summary already printed. */
int gui_open_nccl_log(const char *path, const char *comm_id)
{
    comm_id = comm_id && *comm_id ? comm_id : NULL;
    if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY") &&
        (!getenv("SDL_VIDEODRIVER") || strcmp(getenv("SDL_VIDEODRIVER"), "dummy") == 0)) {
        printf("\n(no display here: `collviz gui --nccl-log %s` shows it moving where there is "
               "one)\n",
               path);
        return CLI_EXIT_OK;
    }
    char *argv[] = {"gui", "--op", "allreduce", "--nccl-log", (char *)path, "--comm",
                    (char *)(comm_id ? comm_id : ""), NULL};
    int argc = comm_id ? 7 : 5;
    return gui_cmd_gui(argc, argv);
}

