/*
 * lesson_cmd.c: the `collviz lesson` and `collviz lessons` subcommands.
 *
 * `lesson ID [--step K]` is a deep link (a teacher's slide): it finds the
 * lesson, checks the beat, and hands both to the window through the opener
 * it is given (the window's library passes gui_open_lesson; a build without
 * the window passes NULL); without one, or when the window reports no
 * display, the text player runs in the terminal instead. `lessons` lists the course with completion marks,
 * and `lessons --check` is the validator the course writers and CI run.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lesson.h"
#include "lesson_cmd.h"
#include "lesson_progress.h"

void lesson_cmd_load_progress(lesson_progress *p, char *path, size_t pathlen)
{
    char msg[1024];
    if (!lesson_progress_default_path(path, pathlen)) {
        path[0] = '\0';
        lesson_progress_init(p);
        return;
    }
    lesson_progress_status st = lesson_progress_load(p, path, msg, sizeof msg);
    if (st == LESSON_PROGRESS_RECOVERED)
        fprintf(stderr, "collviz: %s\n", msg);
    if (st == LESSON_PROGRESS_EIO) {
        /* Unreadable is not empty: writing would replace what is there. */
        fprintf(stderr, "collviz: %s; progress is not saved this time\n", cli_esc(msg));
        path[0] = '\0';
    }
}

static void apply_record(lesson_progress *p, bool from_file, void *user)
{
    (void)from_file;
    const lesson_record *r = user;
    switch (r->kind) {
    case LESSON_REC_PLACE: lesson_progress_set_current(p, r->id, r->beat); break;
    case LESSON_REC_QUIZ: lesson_progress_record_quiz(p, r->id, r->correct); break;
    case LESSON_REC_DONE: lesson_progress_set_done(p, r->id, true); break;
    case LESSON_REC_DRILL: lesson_progress_record_drill(p, r->right, r->asked, r->when); break;
    }
}

void lesson_cmd_record(lesson_progress *p, const char *path, const lesson_record *r)
{
    apply_record(p, true, (void *)r);
    char msg[1024];
    static char said[1024]; /* a drill records many times: say a failure once */
    if (path[0] &&
        lesson_progress_update(path, apply_record, (void *)r, NULL, msg, sizeof msg) != LESSON_PROGRESS_OK &&
        msg[0] && strcmp(msg, said) != 0) {
        fprintf(stderr, "collviz: %s\n", msg);
        snprintf(said, sizeof said, "%s", msg);
    }
}

int lesson_cmd_load_course(lesson_course *course, const char *dir, bool quiet)
{
    char found[4096], why[1024];
    lesson_course_init(course);
    if (!dir && !lesson_find_dir(found, sizeof found, why, sizeof why)) {
        fprintf(stderr, "collviz: %s\n", why);
        return -1;
    }
    lesson_diags diags;
    lesson_diags_init(&diags);
    const char *paths[1] = {dir ? dir : found};
    int bad = lesson_course_load(course, paths, 1, 0, &diags);
    if (course->nlessons == 0) {
        /* Nothing loaded: one line, the first reason, and a failure, so
         * every command that needs the course stops with exit 2. */
        const lesson_diag *g = diags.count ? &diags.items[0] : NULL;
        if (!g)
            fprintf(stderr, "collviz: %s holds no lesson files (*.json)\n", cli_esc(paths[0]));
        else if (bad <= 1 && g->line <= 0)
            fprintf(stderr, "collviz: %s: %s\n", cli_esc(g->file), g->message);
        else if (g->line > 0)
            fprintf(stderr, "collviz: no lesson in %s loads: %d file%s with problems, the first "
                            "%s:%d:%d: %s\n",
                    cli_esc(paths[0]), bad, bad == 1 ? "" : "s", cli_esc(g->file), g->line,
                    g->col, g->message);
        else
            fprintf(stderr, "collviz: no lesson in %s loads: %d file%s with problems, the first "
                            "%s: %s\n",
                    cli_esc(paths[0]), bad, bad == 1 ? "" : "s", cli_esc(g->file), g->message);
        lesson_diags_destroy(&diags);
        lesson_course_destroy(course);
        return -1;
    }
    if (bad > 0 && !quiet)
        fprintf(stderr,
                "collviz: %d lesson file%s in %s %s problems and %s left out; `collviz lessons "
                "--check` lists them\n",
                bad, bad == 1 ? "" : "s", cli_esc(paths[0]), bad == 1 ? "has" : "have",
                bad == 1 ? "is" : "are");
    lesson_diags_destroy(&diags);
    return bad;
}

/* ------------------------------------------------------------- lesson */

typedef struct {
    lesson_progress *p;
    const char *path;
    const lesson *l;
} play_state;

static void on_beat(void *user, int beat)
{
    play_state *s = user;
    lesson_record r = {.kind = LESSON_REC_PLACE, .id = s->l->id, .beat = beat};
    lesson_cmd_record(s->p, s->path, &r);
}

static void on_quiz(void *user, const lesson_quiz *q, bool correct)
{
    play_state *s = user;
    lesson_record r = {.kind = LESSON_REC_QUIZ, .id = q->key, .correct = correct};
    lesson_cmd_record(s->p, s->path, &r);
}

static void on_finish(void *user)
{
    play_state *s = user;
    lesson_record r = {.kind = LESSON_REC_DONE, .id = s->l->id};
    lesson_cmd_record(s->p, s->path, &r);
}

static const char lesson_help[] =
    "usage: collviz lesson ID [--step K] [--lang en|zh] [--text] [--dir DIR]\n"
            "                         [--theme dark|light|projector] [--size WxH] [--fullscreen]\n"
            "                         [--shots DIR] [--frames N]\n\n"
            "Opens lesson ID at beat K (1 = the first, the default) in the window; without a\n"
            "display, or with --text, plays it in the terminal: beats with the stage's values,\n"
            "quizzes answered on stdin when it is a terminal (otherwise printed with answers).\n"
            "  --lang        narration language (default: the saved choice, else from $LANG)\n"
            "  --dir         lessons directory (default: the shipped lessons/)\n"
            "  --theme       the window's colours (default: the saved choice); projector is\n"
            "                for a classroom: large type, high contrast\n"
            "  --size        window size in pixels (default: 1280x800, shrunk to fit)\n"
            "  --fullscreen  the whole screen (F11 toggles it in the window)\n"
            "  --shots       where S saves screenshots (default: the current directory)\n"
            "  --frames      quit after N frames (scripts and demos)\n"
            "`collviz lessons` lists the ids.\n";

int lesson_cmd_parse(int argc, char **argv, bool have_window, lesson_cmd_req *req)
{
    static const char *const themes[] = {"dark", "light", "projector", NULL};
    static const char *const window_flags[] = {"--theme", "--size", "--fullscreen", "--shots",
                                               "--frames", NULL};
    memset(req, 0, sizeof *req);
    const char *id = NULL, *dir = NULL;
    long step = 1;
    int lang = LESSON_EN;
    int size[2] = {0, 0};
    cli_flag flags[] = {
        CLI_LONG("--step", &step, 1, 1000000), /* past the last beat: said with the beats */
        CLI_ENUM("--lang", &lang, &cli_langs),
        CLI_SWITCH("--text", &req->text),
        CLI_TEXT("--dir", &dir),
        CLI_PICK("--theme", &req->win.theme, themes),
        CLI_WXH("--size", size, 16384),
        CLI_SWITCH("--fullscreen", &req->win.fullscreen),
        CLI_TEXT("--shots", &req->win.shots),
        CLI_LONG("--frames", &req->win.frames, 1, 1000000000L),
    };
    cli_cmdline cl = CLI_CMDLINE_ARGS("lesson", lesson_help, flags, &id, 1, "lesson id");
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    req->win.width = size[0];
    req->win.height = size[1];
    const char *window_flag = cli_flag_first(&cl, window_flags); /* only the window uses */
    if (window_flag && req->text) {
        fprintf(stderr, "collviz: lesson: %s is for the window; --text plays the lesson in the "
                        "terminal\n",
                window_flag);
        return CLI_EXIT_USAGE;
    }
    if (window_flag && !have_window) {
        fprintf(stderr, "collviz: lesson: %s is for the window, which this collviz was built "
                        "without (-DCOLLVIZ_GUI=OFF)\n",
                window_flag);
        return CLI_EXIT_USAGE;
    }
    if (!id) {
        fprintf(stderr, "collviz: lesson: which lesson? give its id (`collviz lessons` lists them)\n");
        return CLI_EXIT_USAGE;
    }
    if (lesson_cmd_load_course(&req->course, dir, false) < 0)
        return CLI_EXIT_USAGE;
    req->loaded = true;
    lesson_cmd_load_progress(&req->prog, req->path, sizeof req->path);
    req->lang = cli_flag_given(&cl, "--lang") ? (lesson_lang)lang : lesson_default_lang(&req->prog);
    int li = lesson_course_find(&req->course, id);
    if (li < 0) {
        int close[5];
        int n = lesson_course_suggest(&req->course, id, close, 5);
        fprintf(stderr, "collviz: no lesson '%s'", cli_esc(id));
        for (int k = 0; k < n; k++)
            fprintf(stderr, "%s%s", k ? ", " : "; did you mean: ", req->course.lessons[close[k]]->id);
        fprintf(stderr, "%s\n", n ? "?" : " (`collviz lessons` lists them)");
        return CLI_EXIT_USAGE;
    }
    const lesson *l = req->course.lessons[li];
    if (step < 1 || step > l->nbeats) {
        fprintf(stderr, "collviz: --step: %ld is out of range; lesson %s has beats 1 to %d\n", step,
                l->id, l->nbeats);
        return CLI_EXIT_USAGE;
    }
    req->index = li;
    req->beat = (int)step - 1;
    return LESSON_CMD_GO;
}

int lesson_cmd_play_text(lesson_cmd_req *req)
{
    const lesson *l = req->course.lessons[req->index];
    lesson_play_opts opts;
    lesson_play_opts_init(&opts);
    opts.lang = req->lang;
    opts.interactive = isatty(STDIN_FILENO);
    play_state ps = {&req->prog, req->path, l};
    if (opts.interactive) {
        opts.on_beat = on_beat;
        opts.on_quiz = on_quiz;
        opts.on_finish = on_finish;
        opts.user = &ps;
    }
    return lesson_play_text(l, req->beat, &opts, stdin, stdout);
}

void lesson_cmd_req_destroy(lesson_cmd_req *req)
{
    if (!req->loaded)
        return;
    lesson_progress_destroy(&req->prog);
    lesson_course_destroy(&req->course);
    req->loaded = false;
}

/* ------------------------------------------------------------ lessons */

static int check(int npaths, const char *const *paths)
{
    lesson_diags diags;
    char found[4096], why[1024];
    const char *def[1] = {found};
    if (npaths == 0) {
        if (!lesson_find_dir(found, sizeof found, why, sizeof why)) {
            fprintf(stderr, "collviz: %s\n", why);
            return CLI_EXIT_USAGE;
        }
        paths = def;
        npaths = 1;
    }
    lesson_diags_init(&diags);
    lesson_course course;
    lesson_course_init(&course);
    int bad = lesson_course_load(&course, paths, npaths, 0, &diags);
    lesson_diags_print(&diags, stderr);
    int quizzes = 0;
    for (int i = 0; i < course.nlessons; i++)
        quizzes += course.lessons[i]->nquizzes;
    if (!bad && course.nlessons == 0) {
        /* Nothing checked is not "all valid": a wrong directory, or *.json
         * files missing, must not pass CI. */
        fprintf(stderr, "collviz: lessons --check: no lesson files (*.json) in %s\n",
                npaths == 1 ? cli_esc(paths[0]) : "the paths given");
        lesson_course_destroy(&course);
        lesson_diags_destroy(&diags);
        return CLI_EXIT_USAGE;
    }
    if (bad)
        printf("%d lesson%s valid, %d file%s with problems (%d problem%s)\n", course.nlessons,
               course.nlessons == 1 ? "" : "s", bad, bad == 1 ? "" : "s", diags.count,
               diags.count == 1 ? "" : "s");
    else
        printf("%d lesson%s valid (%d quizzes)\n", course.nlessons, course.nlessons == 1 ? "" : "s",
               quizzes);
    lesson_course_destroy(&course);
    lesson_diags_destroy(&diags);
    return bad || diags.count ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

static const char lessons_help[] =
    "usage: collviz lessons [--lang en|zh] [--dir DIR]\n"
                 "       collviz lessons --check [PATH...]\n"
                 "       collviz lessons --model-cache FILE [--dir DIR]\n\n"
                 "Lists the course by track with completion marks ([x] done, > current) and\n"
                 "quiz scores. --check validates lesson files or directories (default: the\n"
                 "shipped lessons/) and prints every problem as file:line:column: message;\n"
                 "exit status 2 when there is any. docs/LESSONS.md is the format.\n"
                 "--model-cache writes the cost model's answers the lessons state to FILE,\n"
                 "which COLLVIZ_MODEL_CACHE=FILE then reads instead of recomputing them (the\n"
                 "browser's page starts from one).\n";

static void list(const lesson_course *c, const lesson_progress *p, lesson_lang lang)
{
    int track = -1;
    for (int i = 0; i < c->nlessons; i++) {
        const lesson *l = c->lessons[i];
        if ((int)l->track != track) {
            track = (int)l->track;
            printf("%s%s\n", i ? "\n" : "", lesson_track_title(l->track, lang));
        }
        int right = 0;
        for (int k = 0; k < l->nquizzes; k++) {
            const lesson_progress_quiz *q = lesson_progress_find_quiz(p, l->quizzes[k].key);
            right += q && q->last;
        }
        bool current = p->current_lesson && strcmp(p->current_lesson, l->id) == 0;
        printf(" %s[%s] %-28s %d/%d  %s\n", current ? ">" : " ",
               lesson_progress_done(p, l->id) ? "x" : " ", l->id, right, l->nquizzes,
               lesson_text_get(&l->title, lang));
    }
    if (c->nlessons == 0)
        printf("(no lessons found)\n");
}

int lesson_cmd_lessons(int argc, char **argv)
{
    const char *dir = NULL, *model_cache = NULL;
    bool check_files = false;
    lesson_lang lang = LESSON_EN;
    const char **paths = cv_xcalloc((size_t)argc, sizeof *paths);
    cli_flag flags[] = {
        CLI_SWITCH("--check", &check_files),
        CLI_ENUM("--lang", &lang, &cli_langs),
        CLI_TEXT("--dir", &dir),
        CLI_TEXT("--model-cache", &model_cache),
    };
    /* the files and directories --check reads */
    cli_cmdline cl = CLI_CMDLINE_ARGS("lessons", lessons_help, flags, paths, argc, "PATH");
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code)) {
        free(paths);
        return code;
    }
    if (check_files || cl.nargs) {
        if (!check_files)
            code = cli_usage_error("lessons: '%s' is a file to check: give --check before it",
                                   cli_esc(paths[0]));
        else if (dir && cl.nargs)
            code = cli_usage_error("lessons: --check reads either --dir or PATH..., not both");
        else
            code = check(cl.nargs ? cl.nargs : dir ? 1 : 0, cl.nargs ? paths : &dir);
        free(paths);
        return code;
    }
    free(paths);
    char why[CV_ERR_LEN];
    if (model_cache && cv_wfile_check(model_cache, 0, why, sizeof why) != CV_OK)
        return cli_usage_error("lessons: --model-cache: cannot write %s: %s", cli_esc(model_cache),
                               why);
    lesson_course course;
    lesson_progress prog;
    char path[4096];
    if (lesson_cmd_load_course(&course, dir, false) < 0)
        return CLI_EXIT_USAGE;
    if (model_cache) {
        char err[CV_ERR_LEN];
        int n = lesson_model_cache_write(model_cache, err, sizeof err);
        lesson_course_destroy(&course);
        if (n < 0)
            return cli_usage_error("lessons: --model-cache: %s", err);
        printf("%d answers of the cost model written to %s\n", n, model_cache);
        return CLI_EXIT_OK;
    }
    lesson_cmd_load_progress(&prog, path, sizeof path);
    if (!cli_flag_given(&cl, "--lang"))
        lang = lesson_default_lang(&prog);
    list(&course, &prog, lang);
    lesson_progress_destroy(&prog);
    lesson_course_destroy(&course);
    return CLI_EXIT_OK;
}
