/*
 * cli_fields.c: the spec-field table (cli.h, "Spec fields"): one row per
 * field that sets up a collective's stage, saying how each way in names it
 * (the command line's flag, the page's URL key, a trace's JSON key) and how
 * the window treats it (whether it asks for the free stage, whether it
 * clashes with a replayed trace).
 *
 * The window's and export's list of stage flags and of flags refused
 * beside --trace, the page's URL keys and the message naming them, and the
 * page's GIF export all read this table, so a new field is one row here
 * (and its typed flag: CLI_SPEC_FLAGS for a cv_spec member, a line in the
 * window's and export's flag tables otherwise); test_fields walks it
 * through every path.
 */
#include <string.h>

#include "cli.h"

#define S CLI_FIELD_STAGE
#define T CLI_FIELD_TRACE_CLASH
#define P CLI_FIELD_SPEC
#define F CLI_FIELD_FILE

/* In the order the command line and the page's link take them. */
const cli_field cli_fields[CLI_NFIELDS] = {
    [CLI_FIELD_OP] = {CLI_FIELD_OP, "--op", "op", "op", S | T | P},
    [CLI_FIELD_ALGO] = {CLI_FIELD_ALGO, "--algo", "algo", "algo", S | T | P},
    [CLI_FIELD_RANKS] = {CLI_FIELD_RANKS, "--ranks", "ranks", "ranks", S | T | P},
    [CLI_FIELD_COUNT] = {CLI_FIELD_COUNT, "--count", "count", "count", S | T | P},
    [CLI_FIELD_DTYPE] = {CLI_FIELD_DTYPE, "--dtype", "dtype", "dtype", S | T | P},
    [CLI_FIELD_REDOP] = {CLI_FIELD_REDOP, "--redop", "redop", "redop", S | T | P},
    [CLI_FIELD_ROOT] = {CLI_FIELD_ROOT, "--root", "root", "root", S | T | P},
    [CLI_FIELD_SLICES] = {CLI_FIELD_SLICES, "--slices", "slices", "slices", S | T | P},
    [CLI_FIELD_NODES] = {CLI_FIELD_NODES, "--nodes", "nodes", "nodes", S | T | P},
    [CLI_FIELD_PROTO] = {CLI_FIELD_PROTO, "--proto", "proto", "proto", S | T | P},
    [CLI_FIELD_COMPARE] = {CLI_FIELD_COMPARE, "--compare", "compare", NULL, S},
    [CLI_FIELD_LINK] = {CLI_FIELD_LINK, "--link", "link", NULL, S},
    [CLI_FIELD_INTER_LINK] = {CLI_FIELD_INTER_LINK, "--inter-link", "inter-link", NULL, S},
    [CLI_FIELD_INIT] = {CLI_FIELD_INIT, "--init", "init", NULL, S | T},
    [CLI_FIELD_SEED] = {CLI_FIELD_SEED, "--seed", "seed", NULL, S | T},
    [CLI_FIELD_INPUT] = {CLI_FIELD_INPUT, "--input", NULL, "inputs", S | T},
    [CLI_FIELD_BACKEND] = {CLI_FIELD_BACKEND, "--backend", NULL, "backend", S | T},
    [CLI_FIELD_NCCL_LOG] = {CLI_FIELD_NCCL_LOG, "--nccl-log", "nccl-log", NULL, S | T | F},
    [CLI_FIELD_COMM] = {CLI_FIELD_COMM, "--comm", "comm", NULL, S},
    [CLI_FIELD_CHANNEL] = {CLI_FIELD_CHANNEL, "--channel", "channel", NULL, S},
    [CLI_FIELD_NO_NARRATION] = {CLI_FIELD_NO_NARRATION, "--no-narration", NULL, NULL, S},
    [CLI_FIELD_TRACE] = {CLI_FIELD_TRACE, "--trace", "trace", NULL, S | F},
    [CLI_FIELD_THEME] = {CLI_FIELD_THEME, "--theme", "theme", NULL, 0},
    [CLI_FIELD_LANG] = {CLI_FIELD_LANG, "--lang", "lang", NULL, 0},
};

const cli_field *cli_field_by_key(const char *key)
{
    for (int i = 0; i < CLI_NFIELDS; i++)
        if (cli_fields[i].key && strcmp(cli_fields[i].key, key) == 0)
            return &cli_fields[i];
    return NULL;
}

const cli_field *cli_field_by_flag(const char *flag)
{
    for (int i = 0; i < CLI_NFIELDS; i++)
        if (strcmp(cli_fields[i].flag, flag) == 0)
            return &cli_fields[i];
    return NULL;
}

const char *cli_field_first(const cli_cmdline *c, unsigned what)
{
    const char *names[CLI_NFIELDS + 1];
    int n = 0;
    for (int i = 0; i < CLI_NFIELDS; i++)
        if ((cli_fields[i].what & what) == what)
            names[n++] = cli_fields[i].flag;
    names[n] = NULL;
    return cli_flag_first(c, names);
}

void cli_field_keys(char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < CLI_NFIELDS; i++) {
        if (!cli_fields[i].key)
            continue;
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", used ? ", " : "", cli_fields[i].key);
    }
}
