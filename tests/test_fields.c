/*
 * test_fields.c: the spec-field table (cli.h, "Spec fields") walked
 * through every way a field comes in. For each row it sets the field
 * through the window's and export's command lines (the flag is theirs; one
 * that clashes with a trace is refused beside --trace), through the page's
 * link (web_link.c, the URL's key to the window's argv, run natively) and
 * through the page's GIF export (the stage the link opened, headless, back
 * to export's argv), and checks that each path gives the field the same
 * value. A row the test has no example for fails, so a new field is walked
 * too.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "gui_cmds.h"
#include "gui_internal.h"
#include "web.h"

/* An example of each field: the link's other keys it needs (a root needs
 * a rooted algorithm), the value, whether the page's link takes it (not a
 * file of the user's own, a backend or a switch), and whether the page's
 * export can carry it from a stage the test can open (a dropped file it
 * cannot). */
typedef struct {
    const char *flag, *context, *value;
    bool page, exported;
} example;

static const example examples[] = {
    {"--op", "", "broadcast", true, true},
    {"--algo", "", "tree", true, true},
    {"--ranks", "", "6", true, true},
    {"--count", "", "24", true, true},
    {"--dtype", "", "int32", true, true},
    {"--redop", "", "max", true, true},
    {"--root", "op\tbroadcast\nalgo\tring\n", "2", true, true},
    {"--slices", "op\tbroadcast\nalgo\tring\n", "2", true, true},
    {"--nodes", "algo\thierarchical\n", "2", true, true},
    {"--proto", "", "ll128", true, true},
    {"--compare", "", "ring,tree", true, true},
    {"--link", "", "nvlink3", true, true},
    {"--inter-link", "", "ib-hdr", true, true},
    {"--init", "", "index", true, true},
    {"--seed", "", "7", true, true},
    {"--input", "", "inputs.json", false, false},
    {"--backend", "", "cpu", false, false},
    {"--nccl-log", "", "job.log", true, false},
    {"--comm", "", "0x1", true, false},
    {"--channel", "", "1", true, false},
    {"--no-narration", "", NULL, false, false},
    {"--trace", "", "run.json", true, false},
    {"--theme", "", "light", true, true},
    {"--lang", "", "zh", true, true},
};

static const example *example_of(const cli_field *f)
{
    for (size_t i = 0; i < sizeof examples / sizeof *examples; i++)
        if (strcmp(examples[i].flag, f->flag) == 0)
            return &examples[i];
    return NULL;
}

/* What cmd wrote on stderr for argv (its exit code in *rc). */
static char *stderr_of(int (*cmd)(int, char **), int argc, char **argv, int *rc)
{
    static char text[8192];
    char path[] = "/tmp/collviz-test-fields-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    *rc = cmd(argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return text;
}

/* Whether the flag is in the command's "allowed:" list, which an unknown
 * flag prints. */
static bool command_takes(int (*cmd)(int, char **), const char *name, const char *flag)
{
    char *argv[] = {(char *)name, "--not-a-flag", NULL};
    int rc;
    const char *said = stderr_of(cmd, 2, argv, &rc);
    const char *list = strstr(said, "allowed: ");
    char want[64];
    snprintf(want, sizeof want, " %s,", flag);
    return rc == CLI_EXIT_USAGE && list && strstr(list, want);
}

/* The window's flags, read into o as gui_cmd.c reads them: what the test
 * opens the stage from. */
typedef struct {
    gui_options o;
    const char *backend, *compare, *input, *trace, *gif;
    int size[2];
    long seed;
    bool no_narration;
    cli_nccl_args nccl;
} stage_flags;

static bool read_stage(int argc, char **argv, stage_flags *s)
{
    memset(s, 0, sizeof *s);
    gui_options_init(&s->o);
    s->o.headless = true;
    s->o.width = 640;
    s->o.height = 400;
    s->o.spec.count = -1;
    s->backend = "cpu";
    s->seed = (long)s->o.seed;
    cli_flag flags[] = {
        CLI_SPEC_FLAGS(&s->o.spec),
        CLI_NCCL_FLAGS(&s->nccl),
        CLI_PICK("--backend", &s->backend, cli_backends),
        CLI_TEXT("--compare", &s->compare),
        CLI_ENUM("--theme", &s->o.theme, &gui_themes),
        CLI_ENUM("--lang", &s->o.lang, &cli_langs),
        CLI_SWITCH("--no-narration", &s->no_narration),
        CLI_PICK("--link", &s->o.link, cli_link_names()),
        CLI_PICK("--inter-link", &s->o.inter_link, cli_link_names()),
        CLI_ENUM("--init", &s->o.init, &cli_inits),
        CLI_LONG("--seed", &s->seed, 0, 2147483647L),
        CLI_TEXT("--input", &s->input),
        CLI_TEXT("--trace", &s->trace),
        CLI_WXH("--size", s->size, 16384),
        CLI_TEXT("--gif", &s->gif), /* export's own, not the stage's */
    };
    cli_cmdline cl = CLI_CMDLINE("test", "", flags);
    cl.nccl = &s->nccl;
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return false;
    s->o.seed = (uint64_t)s->seed;
    return gui_finish_stage(&cl, &s->o, s->compare, cli_flag_given(&cl, "--algo"));
}

/* argv's value after flag, or NULL. */
static const char *value_after(const web_args *a, const char *flag)
{
    for (int i = 0; i + 1 < a->argc; i++)
        if (strcmp(a->argv[i], flag) == 0)
            return a->argv[i + 1];
    return NULL;
}

static bool same_stage(const gui_options *a, const gui_options *b)
{
    const cv_spec *x = &a->spec, *y = &b->spec;
    return x->op == y->op && x->algo == y->algo && x->ranks == y->ranks && x->count == y->count &&
           x->dtype == y->dtype && x->redop == y->redop && x->root == y->root &&
           x->slices == y->slices && x->nodes == y->nodes && x->proto == y->proto &&
           a->compare == b->compare && (!a->compare || a->compare_algo == b->compare_algo) &&
           a->init == b->init && a->seed == b->seed && a->theme == b->theme && a->lang == b->lang &&
           !strcmp(a->link ? a->link : "", b->link ? b->link : "") &&
           !strcmp(a->inter_link ? a->inter_link : "", b->inter_link ? b->inter_link : "");
}

/* The page's link with the field set, as the window's argv; then the stage
 * it opens, exported, read back. */
static void walk_link(const cli_field *f, const example *ex)
{
    char lines[512];
    snprintf(lines, sizeof lines, "%s%s\t%s\n", ex->context, f->key, ex->value);
    web_args a = {.argc = 0, .used = 0};
    char why[512] = "";
    bool ok = web_link_to_args(lines, &a, why, sizeof why);
    EXPECT(ok, "%s: the page's link ?%s=%s is refused: %s", f->flag, f->key, ex->value, why);
    if (!ok)
        return;
    bool lesson_only = !(f->what & CLI_FIELD_STAGE);
    EXPECT(a.argc >= 2 && !strcmp(a.argv[0], "collviz") && !strcmp(a.argv[1], "gui"),
           "%s: the link does not open the window: %s %s", f->flag, a.argc > 1 ? a.argv[1] : "",
           lesson_only ? "(a view field)" : "");
    char want[300];
    if (f->what & CLI_FIELD_FILE)
        snprintf(want, sizeof want, "%s/%s", WEB_DROPPED_DIR, ex->value);
    else
        snprintf(want, sizeof want, "%s", ex->value);
    const char *got = value_after(&a, f->flag);
    EXPECT(got && !strcmp(got, want), "%s: the link ?%s=%s gives the window %s %s", f->flag, f->key,
           ex->value, f->flag, got ? got : "nothing");
    if (!ex->exported)
        return;
    /* The stage that argv opens, and the page's export of it. */
    stage_flags in, back;
    REQUIRE(read_stage(a.argc - 1, a.argv + 1, &in));
    gui *g = NULL;
    char err[256] = "";
    EXPECT(gui_create(&in.o, &g, err, sizeof err) == CV_OK, "%s: gui_create: %s", f->flag, err);
    if (!g)
        return;
    web_args e = {.argc = 0, .used = 0};
    web_export_args(g, "/tmp/collviz-test-fields.gif", &e);
    gui_destroy(g);
    REQUIRE(e.argc >= 1 && !strcmp(e.argv[0], "export"));
    got = value_after(&e, f->flag);
    EXPECT(got && !strcmp(got, ex->value), "%s: the page's export of a stage with %s %s gives %s",
           f->flag, f->flag, ex->value, got ? got : "nothing");
    EXPECT(read_stage(e.argc, e.argv, &back), "%s: export's argv is not the window's flags",
           f->flag);
    EXPECT(same_stage(&in.o, &back.o), "%s: the exported stage is not the one the link opened",
           f->flag);
}

/* The field through the window's and export's command lines. */
static void walk_commands(const cli_field *f, const example *ex)
{
    EXPECT(command_takes(gui_cmd_gui, "gui", f->flag), "collviz gui does not take %s", f->flag);
    EXPECT(command_takes(gui_cmd_export, "export", f->flag), "collviz export does not take %s",
           f->flag);
    if (!(f->what & CLI_FIELD_TRACE_CLASH))
        return;
    /* Beside --trace the recording says it: refused, named, before any
     * file is read. */
    int (*cmds[])(int, char **) = {gui_cmd_gui, gui_cmd_export};
    const char *names[] = {"gui", "export"};
    for (int c = 0; c < 2; c++) {
        char *argv[8];
        int argc = 0;
        argv[argc++] = (char *)names[c];
        if (c) { /* export asks for a file before anything else */
            argv[argc++] = "--gif";
            argv[argc++] = "/tmp/collviz-test-fields.gif";
        }
        argv[argc++] = "--trace";
        argv[argc++] = "/nonexistent/run.json";
        argv[argc++] = (char *)f->flag;
        if (ex->value)
            argv[argc++] = (char *)ex->value;
        argv[argc] = NULL;
        int rc;
        const char *said = stderr_of(cmds[c], argc, argv, &rc);
        char want[80];
        snprintf(want, sizeof want, "leave %s out", f->flag);
        EXPECT(rc == CLI_EXIT_USAGE && strstr(said, want),
               "%s %s beside --trace is not refused (exit %d): %s", names[c], f->flag, rc, said);
    }
}

static int each_field(int i, char *name, size_t len)
{
    if (i >= CLI_NFIELDS)
        return 0;
    snprintf(name, len, "%s", cli_fields[i].flag + 2);
    return 1;
}

static void check_field(int i)
{
    const cli_field *f = &cli_fields[i];
    EXPECT(f->id == (cli_field_id)i, "row %d is %s's, id %d", i, f->flag, f->id);
    EXPECT(cli_field_by_flag(f->flag) == f, "%s: not found by its flag", f->flag);
    EXPECT(!f->key || cli_field_by_key(f->key) == f, "%s: not found by its key", f->flag);
    const example *ex = example_of(f);
    EXPECT(ex, "%s: the test has no example of this field; add one", f->flag);
    if (!ex)
        return;
    walk_commands(f, ex);
    EXPECT((f->key != NULL) == ex->page, "%s: the page's link %s it", f->flag,
           f->key ? "takes" : "does not take");
    if (f->key)
        walk_link(f, ex);
}

/* CLI_SPEC_FLAGS are the rows marked CLI_FIELD_SPEC, each once. */
static void check_spec_flags(void)
{
    cv_spec s;
    cli_flag flags[] = {CLI_SPEC_FLAGS(&s)};
    int n = (int)(sizeof flags / sizeof *flags), rows = 0;
    for (int i = 0; i < CLI_NFIELDS; i++)
        rows += (cli_fields[i].what & CLI_FIELD_SPEC) != 0;
    EXPECT(n == rows, "CLI_SPEC_FLAGS has %d flags, the table %d spec rows", n, rows);
    for (int k = 0; k < n; k++) {
        const cli_field *f = cli_field_by_flag(flags[k].name);
        EXPECT(f && (f->what & CLI_FIELD_SPEC), "CLI_SPEC_FLAGS's %s is no spec row",
               flags[k].name);
    }
}

/* A key the page does not know is refused with every key the table has. */
static void check_unknown_key(void)
{
    char lines[] = "op\tallreduce\nbogus\t1\n";
    web_args a = {.argc = 0, .used = 0};
    char why[1024] = "";
    EXPECT(!web_link_to_args(lines, &a, why, sizeof why), "?bogus=1 is taken");
    EXPECT(strstr(why, "'bogus'") != NULL, "the refusal does not name the key: %s", why);
    for (int i = 0; i < CLI_NFIELDS; i++)
        if (cli_fields[i].key)
            EXPECT(strstr(why, cli_fields[i].key) != NULL, "the refusal leaves out %s: %s",
                   cli_fields[i].key, why);
    /* A lesson's link keeps only what is not the stage's. */
    char course_url[] = "lesson\talgo-ring-allreduce\ntheme\tlight\nop\tbroadcast\n";
    web_args l = {.argc = 0, .used = 0};
    EXPECT(web_link_to_args(course_url, &l, why, sizeof why), "a lesson's link is refused: %s",
           why);
    EXPECT(l.argc == 5 && !strcmp(l.argv[1], "lesson") && !strcmp(l.argv[3], "--theme"),
           "a lesson's link: %d args", l.argc);
}

/* A trace records each row with a JSON key under that key. */
static void check_trace_keys(void)
{
    char path[] = "/tmp/collviz-test-fields-trace-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    char *argv[] = {"run",     "--op", "allreduce",   "--ranks", "2",
                    "--count", "4",    "--trace-out", path,      NULL};
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    int rc = cli_cmd_run(9, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(null);
    close(fd);
    /* the writer renames a whole file over the path: read it by name */
    static char text[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    unlink(path);
    EXPECT(rc == CLI_EXIT_OK && n > 0, "run --trace-out: exit %d, %zu bytes", rc, n);
    for (int i = 0; i < CLI_NFIELDS; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"%s\":", cli_fields[i].json ? cli_fields[i].json : "");
        EXPECT(!cli_fields[i].json || strstr(text, want), "%s: the trace has no %s",
               cli_fields[i].flag, want);
    }
}

static const test_case cases[] = {
    CASE("trace-keys", check_trace_keys),
    CASE("spec-flags", check_spec_flags),
    CASE("unknown-key", check_unknown_key),
    CASE_EACH("field", each_field, check_field),
};

int main(int argc, char **argv)
{
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    return CASES_MAIN(argc, argv, cases);
}
