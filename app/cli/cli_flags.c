/*
 * cli_flags.c: the one flag parser every subcommand uses (cli.h, "Flags").
 *
 * A subcommand describes its flags in a table, one cli_flag a line, and
 * cli_flags_parse walks argv against it: "--name value" and "--name=value"
 * alike, a switch with a value refused, a value that is not what the
 * table's kind allows refused with the range or the list of words, an
 * unknown flag named with every flag the subcommand takes. So every
 * subcommand reads its flags the same way and says the same thing about a
 * bad one, and adding a flag is one line in a table. Whatever came from
 * the command line is escaped before it is echoed (cli_esc).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jr.h"

/* CLI_FLAG_ENUM writes an int where the table points at an enum. */
_Static_assert(sizeof(cv_op) == sizeof(int) && sizeof(cv_algo) == sizeof(int) &&
                   sizeof(cv_dtype) == sizeof(int) && sizeof(cv_redop) == sizeof(int) &&
                   sizeof(cv_init) == sizeof(int) && sizeof(cv_lang) == sizeof(int) &&
                   sizeof(cv_proto) == sizeof(int),
               "an enum the flag parser fills is not int-sized");

/* The enum tables of the spec's flags, and --init and --lang. */
static const char *op_word(int i) { return cv_op_name((cv_op)i); }
static const char *algo_word(int i) { return cv_algo_name((cv_algo)i); }
static const char *dtype_word(int i) { return cv_dtype_name((cv_dtype)i); }
static const char *redop_word(int i) { return cv_redop_name((cv_redop)i); }
static const char *init_word(int i) { return cv_init_name((cv_init)i); }
static const char *lang_word(int i) { return cv_lang_name((cv_lang)i); }
static const char *proto_word(int i) { return cv_proto_name((cv_proto)i); }
const cli_enum cli_ops = {cv_op_parse, op_word, CV_OP_COUNT};
const cli_enum cli_algos = {cv_algo_parse, algo_word, CV_ALGO_COUNT};
const cli_enum cli_dtypes = {cv_dtype_parse, dtype_word, CV_DTYPE_COUNT};
const cli_enum cli_redops = {cv_redop_parse, redop_word, CV_REDOP_COUNT};
const cli_enum cli_inits = {cv_init_parse, init_word, CV_INIT_COUNT};
const cli_enum cli_langs = {cv_lang_parse, lang_word, CV_LANG_COUNT};
const cli_enum cli_protos = {cv_proto_parse, proto_word, CV_PROTO_COUNT};
const char *const cli_backends[] = {"cpu", "cuda", "auto", NULL};
const char *const cli_run_backends[] = {"cpu", "cuda", "auto", "mpi", NULL};

const char *const *cli_link_names(void)
{
    static const char *names[32];
    if (!names[0]) {
        const cv_link *l;
        int n = cv_link_presets(&l);
        for (int i = 0; i < n && i < 31; i++)
            names[i] = l[i].name;
    }
    return names;
}

void cli_enum_list(const cli_enum *e, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < e->count; i++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i ? ", " : "", e->word(i));
    }
}

static void words_list(const char *const *w, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; w[i]; i++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i ? ", " : "", w[i]);
    }
}

static bool whole(const cli_flag *f, const char *v, int64_t *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < f->lo || x > f->hi) {
        cli_usage_error("%s: '%s' is not allowed; give a whole number from %lld to %lld",
                        f->name, cli_esc(v), (long long)f->lo, (long long)f->hi);
        return false;
    }
    *out = x;
    return true;
}

/* Reads v as f's kind into f->dst; false after printing why not. */
static bool take_value(cli_flag *f, const char *v)
{
    int64_t x;
    char list[512];
    switch (f->kind) {
    case CLI_FLAG_SWITCH:
    case CLI_FLAG_REFUSE:
        return false; /* never called for them */
    case CLI_FLAG_INT:
        if (!whole(f, v, &x))
            return false;
        *(int *)f->dst = (int)x;
        return true;
    case CLI_FLAG_LONG:
        if (!whole(f, v, &x))
            return false;
        *(long *)f->dst = (long)x;
        return true;
    case CLI_FLAG_SIZE: {
        int prc = cv_parse_size(v, &x);
        if (prc == CV_ETOOBIG) {
            cli_usage_error("%s: '%s' is out of range; give %lld to %lld %s", f->name, cli_esc(v),
                            (long long)f->lo, (long long)f->hi, f->text ? f->text : "bytes");
            return false;
        }
        if (prc != CV_OK) {
            cli_usage_error("%s: '%s' is not a size; give a whole number of %s, optionally with "
                            "a unit (8k, 64M, 1G, 512MiB, 1.6GB)",
                            f->name, cli_esc(v), f->text ? f->text : "bytes");
            return false;
        }
        if (x < f->lo || x > f->hi) {
            cli_usage_error("%s: '%s' is out of range; give %lld to %lld %s", f->name, cli_esc(v),
                            (long long)f->lo, (long long)f->hi, f->text ? f->text : "bytes");
            return false;
        }
        *(int64_t *)f->dst = x;
        return true;
    }
    case CLI_FLAG_NUMBER: {
        char *end;
        double d = strtod(v, &end);
        if (end == v || *end || !isfinite(d) || d < f->dlo || d > f->dhi) {
            cli_usage_error("%s: '%s' is not allowed; give a number of %s from %g to %g", f->name,
                            cli_esc(v), f->text ? f->text : "units", f->dlo, f->dhi);
            return false;
        }
        *(double *)f->dst = d;
        return true;
    }
    case CLI_FLAG_TEXT:
        *(const char **)f->dst = v;
        return true;
    case CLI_FLAG_PICK:
        for (int i = 0; f->words[i]; i++)
            if (!strcmp(v, f->words[i])) {
                *(const char **)f->dst = f->words[i];
                return true;
            }
        words_list(f->words, list, sizeof list);
        cli_usage_error("%s: unknown value '%s'; allowed: %s", f->name, cli_esc(v), list);
        return false;
    case CLI_FLAG_ENUM: {
        int e = f->choices->parse(v);
        if (e >= 0 && e < f->choices->count) {
            *(int *)f->dst = e;
            return true;
        }
        cli_enum_list(f->choices, list, sizeof list);
        cli_usage_error("%s: unknown value '%s'; allowed: %s", f->name, cli_esc(v), list);
        return false;
    }
    case CLI_FLAG_WXH: {
        char *end = NULL;
        errno = 0;
        long a = strtol(v, &end, 10), b = 0;
        if (end != v && (*end == 'x' || *end == 'X')) {
            const char *second = end + 1;
            b = strtol(second, &end, 10);
            if (end == second)
                b = 0;
        }
        if (errno || *end || a < 64 || b < 64 || a > f->hi || b > f->hi) {
            cli_usage_error("%s: '%s' is not WxH with 64 to %lld pixels each", f->name,
                            cli_esc(v), (long long)f->hi);
            return false;
        }
        ((int *)f->dst)[0] = (int)a;
        ((int *)f->dst)[1] = (int)b;
        return true;
    }
    }
    return false;
}

/* "--op, --algo, ..., --help": what the command line allows (not a flag
 * it refuses with a pointer elsewhere, such as cost's --count). */
static void allowed(const cli_cmdline *c, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < c->nflags; i++) {
        if (c->flags[i].kind == CLI_FLAG_REFUSE)
            continue;
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s, ", c->flags[i].name);
    }
    size_t used = strlen(out);
    snprintf(out + used, len - used, "--help");
}

static cli_flag *lookup(cli_cmdline *c, const char *a, size_t n)
{
    for (int i = 0; i < c->nflags; i++)
        if (strlen(c->flags[i].name) == n && !strncmp(c->flags[i].name, a, n))
            return &c->flags[i];
    return NULL;
}

bool cli_flags_parse(cli_cmdline *c, int argc, char **argv, int *exit_code)
{
    *exit_code = CLI_EXIT_USAGE;
    c->nargs = 0;
    for (int i = 0; i < c->nflags; i++)
        c->flags[i].seen = c->flags[i].at = 0;
    /* --help wins wherever it stands, before any other complaint. */
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(c->help, stdout);
            *exit_code = CLI_EXIT_OK;
            return false;
        }
    bool flags_end = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (flags_end || a[0] != '-' || !a[1]) { /* an argument; "-" is standard input */
            if (c->nargs >= c->maxargs) {
                char list[1024];
                allowed(c, list, sizeof list);
                if (c->maxargs == 0)
                    cli_usage_error("%s: unknown argument '%s'; allowed: %s", c->cmd, cli_esc(a),
                                    list);
                else
                    cli_usage_error("%s: one %s at a time ('%s' and '%s')", c->cmd, c->arg_name,
                                    cli_esc(c->args[0]), cli_esc(a));
                return false;
            }
            c->args[c->nargs++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            flags_end = true;
            continue;
        }
        const char *eq = strchr(a, '=');
        cli_flag *f = lookup(c, a, eq ? (size_t)(eq - a) : strlen(a));
        if (!f) {
            char list[1024], name[256];
            snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
            allowed(c, list, sizeof list);
            cli_usage_error("%s: unknown flag '%s'; allowed: %s", c->cmd, cli_esc(name), list);
            return false;
        }
        if (f->kind == CLI_FLAG_REFUSE) {
            cli_usage_error("%s: %s", c->cmd, f->text);
            return false;
        }
        f->seen++;
        f->at = i;
        if (f->kind == CLI_FLAG_SWITCH) {
            if (eq) {
                cli_usage_error("%s takes no value (given '%s')", f->name, cli_esc(eq + 1));
                return false;
            }
            *(bool *)f->dst = true;
            continue;
        }
        const char *v;
        if (eq) {
            v = eq + 1;
        } else if (i + 1 < argc) {
            v = argv[++i];
        } else {
            cli_usage_error("%s needs a value (see collviz %s --help)", f->name, c->cmd);
            return false;
        }
        if (!take_value(f, v))
            return false;
    }
    *exit_code = CLI_EXIT_OK;
    return true;
}

const cli_flag *cli_flag_get(const cli_cmdline *c, const char *name)
{
    for (int i = 0; i < c->nflags; i++)
        if (!strcmp(c->flags[i].name, name))
            return &c->flags[i];
    return NULL;
}

const char *cli_flag_given_as(const cli_cmdline *c, const char *name)
{
    const cli_flag *f = cli_flag_get(c, name);
    if (!f)
        return NULL;
    if (f->seen > 0)
        return f->name;
    /* Another name for the same setting (bench's -r for --root, -o for
     * --redop): the flags that write the same place are one flag. */
    for (int i = 0; f->dst && i < c->nflags; i++)
        if (c->flags[i].dst == f->dst && c->flags[i].seen > 0)
            return c->flags[i].name;
    return NULL;
}

bool cli_flag_given(const cli_cmdline *c, const char *name)
{
    return cli_flag_given_as(c, name) != NULL;
}

const char *cli_flag_first(const cli_cmdline *c, const char *const *names)
{
    const char *first = NULL;
    int at = 0;
    for (int k = 0; names[k]; k++) {
        const cli_flag *f = cli_flag_get(c, names[k]);
        if (f && f->seen && (!first || f->at < at)) {
            first = f->name;
            at = f->at;
        }
    }
    return first;
}

/* ---------------------------------------------------------------- escape */

/* The escaper is the JSON reader's (jr_escape.c), so the renderer, which
 * cannot reach app/, escapes a theme file's name the same way. */
bool cli_unsafe_codepoint(uint32_t c) { return jr_unsafe_codepoint(c); }

size_t cli_escape(const char *s, char *out, size_t len) { return jr_escape(s, out, len); }

const char *cli_esc(const char *s)
{
    /* A few buffers in turn, so one message can quote two values. */
    static char bufs[4][512];
    static int next;
    char *b = bufs[next++ & 3];
    cli_escape(s ? s : "(null)", b, sizeof bufs[0]);
    return b;
}
