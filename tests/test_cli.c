/*
 * test_cli.c: the collviz command line as a user meets it. Runs the built
 * program and checks exit codes (0 ok, 1 wrong, 2 bad input, 3 backend
 * unavailable), that each bad input gets one clear line naming the flag,
 * and that --json output parses and says what the issue promises.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "check.h"
#include "test_cli_util.h"

/* The output of the last run, stdout and stderr together. */
#define out tc_out

static int run(const char *args) { return tc_run(NULL, args); }

static void bad(const char *args, const char *must_contain)
{
    int rc = run(args);
    EXPECT(rc == 2, "`collviz %s` exit %d, want 2; output: %s", args, rc, out);
    EXPECT(strstr(out, must_contain) != NULL, "`collviz %s`: message lacks '%s': %s", args,
           must_contain, out);
    EXPECT(tc_lines(out) == 1, "`collviz %s`: want one line, got: %s", args, out);
}

/* Bad input: exit 2 and one line naming the flag. */
static void bad_input(void)
{
    bad("run --op allreduce --ranks 0 --count 8", "--ranks");
    bad("run --op allreduce --ranks 1025 --count 8", "--ranks");
    bad("run --op allreduce --ranks 4 --count 100G", "memory");
    bad("run --op allmagic --ranks 4 --count 8", "--op");
    bad("run --op allreduce --algo bruck --ranks 4 --count 8", "--algo");
    /* the list of what is allowed is whole, however many algorithms */
    bad("run --op allreduce --algo pat --ranks 4 --count 8", "one-shot, two-shot");
    /* PAT, NVLS and CollNet have Simple kernels alone in NCCL */
    bad("cost --op allgather --algo pat --ranks 8 --bytes 1MiB --proto ll", "Simple protocol only");
    bad("run --op allreduce --algo nvls-tree --ranks 8 --nodes 2 --proto ll128", "allowed: simple");
    EXPECT(run("cost --op reducescatter --algo pat --ranks 8 --bytes 1MiB") == 0 &&
               strstr(out, "Simple only") && !strstr(out, "quickest"),
           "cost of PAT names Simple alone: %s", out);
#ifndef COLLVIZ_TEST_NO_GUI
    bad("export --op allreduce --compare ring,pat --out /nonexistent", "one-shot, two-shot");
#endif
    bad("run --op allreduce --ranks 4 --count 8 --dtype float128", "--dtype");
    bad("run --op allreduce --ranks 4 --count 8 --redop mean", "--redop");
    bad("run --op allreduce --ranks 4 --count 8 --dtype float32 --redop bxor", "integer");
    bad("run --op reduce --ranks 4 --count 8 --root 4", "--root");
    bad("run --op broadcast --ranks 4 --count 8 --slices 0", "--slices");
    bad("run --op allreduce --ranks 4 --count 1.5x", "--count");
    /* --root and --slices only where the algorithm reads them */
    bad("run --op allgather --ranks 4 --root 2", "--root");
    bad("run --op allreduce --algo ring --ranks 4 --slices 2", "--slices");
    bad("run --op allreduce --algo hierarchical --ranks 8 --nodes 3", "--nodes");
    EXPECT(run("run --op allreduce --algo direct --ranks 4 --root 2") == 0 &&
               run("run --op allreduce --algo double-tree --ranks 4 --count 8 --slices 2") == 0,
           "--root for the parameter server, --slices for the double tree: %s", out);
    bad("run --ranks 4 --count 8", "--op");
}

/* Without --ranks and --count, run takes 4 ranks of 8 elements. */
static void default_size(void)
{
    EXPECT(run("run --op allreduce") == 0 && strstr(out, "4 ranks x 8 float32") &&
               strstr(out, "verified: 0 of the results differ"),
           "run with the default size: %s", out);
}

/* Bad sizes, links, ranges and commands: exit 2, one line. */
static void bad_commands(void)
{
    bad("cost --op allreduce --ranks 8 --bytes 12QB --bw 600", "--bytes");
    bad("cost --op allreduce --ranks 8 --bytes 1GB --link warp", "--link");
    bad("bench --op allreduce -b 8 -e 4", "-e");
    bad("run --op allreduce --ranks 4 --count 8 --frobnicate", "--frobnicate");
    bad("nosuchcommand", "nosuchcommand");
}

/* Backends. */
static void backends(void)
{
    int rc = run("run --op allreduce --ranks 4 --count 8 --backend tpu");
    EXPECT(rc == 2 && strstr(out, "--backend"), "unknown backend: %d %s", rc, out);
    rc = run("run --op allreduce --ranks 4 --count 8 --backend cuda");
    EXPECT(rc == 3 || rc == 0, "cuda backend: exit %d", rc);
    if (rc == 3)
        EXPECT(strstr(out, "no CUDA device") != NULL, "cuda unavailable message: %s", out);
    rc = run("bench --op allreduce --ranks 2 -b 1k -e 1k -n 1 --backend nccl");
    EXPECT(rc == 3 || rc == 0, "nccl bench: exit %d %s", rc, out);
    if (rc == 3)
        EXPECT(strstr(out, "no CUDA device") != NULL, "nccl unavailable message: %s", out);
    rc = run("run --op allreduce --ranks 4 --count 8 --backend auto");
    EXPECT(rc == 0, "auto backend falls back: exit %d %s", rc, out);
}

/* A good run verifies, and the step-through fits 80 columns. */
static void step_through(void)
{
    int rc = run("run --op allreduce --algo ring --ranks 4 --count 8 --init index");
    EXPECT(rc == 0 && strstr(out, "verified"), "ring allreduce: exit %d", rc);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
        EXPECT(strlen(line) <= 80, "line over 80 columns: %s", line);
}

/* No value is cut and a whole number prints whole: the hierarchical
 * sums of 16 ranks read 12048 (they printed "1.205e+0", the exponent
 * cut), and a value wider than a column widens the line's columns. */
static void step_through_values(void)
{
    int rc = run("run --op allreduce --algo hierarchical --ranks 16 --nodes 2 --count 4 "
                 "--dtype float32");
    EXPECT(rc == 0 && strstr(out, " 12048") && !strstr(out, "e+0"),
           "whole sums in full: exit %d %.400s", rc, out);
    char path[512];
    snprintf(path, sizeof path, "%s/test_cli_step_values.json", COLLVIZ_BINARY_DIR);
    FILE *f = fopen(path, "w");
    fputs("[[12345.678, 0.0000123456], [-98765.4321, 3.5e-9]]\n", f);
    fclose(f);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "run --op allreduce --ranks 2 --count 2 --dtype float64 --input %s",
             path);
    rc = run(cmd);
    remove(path);
    EXPECT(rc == 0 && strstr(out, "1.235e-05") && strstr(out, "-8.642e+04"),
           "exponents in full: exit %d %.600s", rc, out);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
        for (char *x = strchr(line, 'e'); x; x = strchr(x + 1, 'e')) /* an exponent has its digits */
            if (x > line && x[-1] >= '0' && x[-1] <= '9' && (x[1] == '+' || x[1] == '-'))
                EXPECT(x[2] >= '0' && x[2] <= '9' && x[3] >= '0' && x[3] <= '9', "cut: %s", line);
}

/* JSON: the promised keys, nulls where NCCL leaves a buffer unused. */
static void json(void)
{
    int rc = run("run --op reduce --algo tree --ranks 4 --count 3 --root 2 --dtype int64 --json");
    EXPECT(rc == 0, "reduce --json exit %d", rc);
    cJSON *j = cJSON_Parse(out);
    EXPECT(j != NULL, "reduce --json parses");
    if (j) {
        const char *keys[] = {"op", "algo", "ranks", "count", "dtype", "redop", "root",
                              "backend", "steps", "inputs", "outputs", "wrong"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            EXPECT(cJSON_HasObjectItem(j, keys[i]), "json lacks %s", keys[i]);
        cJSON *outs = cJSON_GetObjectItem(j, "outputs");
        EXPECT(cJSON_IsNull(cJSON_GetArrayItem(outs, 0)), "non-root output is null");
        cJSON *root_out = cJSON_GetArrayItem(outs, 2);
        /* index init: element i of rank r is 100r + i; the sum over 4 ranks is 600 + 4i */
        EXPECT(cJSON_GetArraySize(root_out) == 3 &&
                   cJSON_GetArrayItem(root_out, 1)->valuedouble == 604,
               "root output holds the sum");
        cJSON *step = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "steps"), 1);
        cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(step, "transfers"), 0);
        EXPECT(cJSON_HasObjectItem(step, "phase") && cJSON_HasObjectItem(step, "time_us"),
               "step keys");
        EXPECT(x && cJSON_HasObjectItem(x, "src") && cJSON_HasObjectItem(x, "dst") &&
                   cJSON_HasObjectItem(x, "bytes") &&
                   !strcmp(cJSON_GetObjectItem(x, "kind")->valuestring, "reduce"),
               "transfer keys");
        EXPECT(cJSON_GetObjectItem(j, "wrong")->valuedouble == 0, "wrong == 0");
        cJSON_Delete(j);
    }
    rc = run("run --op broadcast --ranks 3 --count 2 --root 1 --json");
    j = cJSON_Parse(out);
    EXPECT(j && cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "inputs"), 0)),
           "broadcast: non-root input is null");
    cJSON_Delete(j);
}

/* JSON: a used buffer of no elements is [], not null; values exact;
 * NaN a string. */
static void json_values(void)
{
    int rc = run("run --op allreduce --ranks 3 --count 0 --json");
    cJSON *j = cJSON_Parse(out);
    EXPECT(j && cJSON_IsArray(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "outputs"), 0)) &&
               cJSON_GetArraySize(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "outputs"), 0)) == 0,
           "count 0: outputs are []: %s", out);
    EXPECT(j && cJSON_GetObjectItem(j, "rounds") && cJSON_GetObjectItem(j, "rounds_formula"),
           "rounds in JSON");
    cJSON_Delete(j);
    rc = run("run --op allreduce --algo tree --ranks 7 --count 1 --dtype float16 --redop prod "
             "--init index --json");
    j = cJSON_Parse(out);
    cJSON *o0 = j ? cJSON_GetArrayItem(cJSON_GetObjectItem(j, "outputs"), 0) : NULL;
    EXPECT(rc == 0 && o0 && cJSON_IsString(cJSON_GetArrayItem(o0, 0)) &&
               !strcmp(cJSON_GetArrayItem(o0, 0)->valuestring, "nan"),
           "float16 prod overflowing into a zero: NaN, accepted: %d %s", rc, out);
    cJSON_Delete(j);
    rc = run("run --op allreduce --ranks 3 --count 1 --dtype float16 --redop avg --json");
    EXPECT(rc == 0 && strstr(out, "99.9375"), "float16 avg as NCCL: %s", out);
    rc = run("run --op allreduce --ranks 4 --count 4 --json");
    EXPECT(rc == 0 && strstr(out, "\"nccl_send\":\t\"send\"") &&
               strstr(out, "\"nccl_recv\":\t\"recvReduceSend\""),
           "NCCL primitives in JSON: %s", out);
}

/* --input: a user's own values, checked with file:line:column. */
static void input(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/test_cli_input.json", COLLVIZ_BINARY_DIR);
    FILE *f = fopen(path, "w");
    fputs("[\n  [1, 2],\n  [3, 4],\n  [5, 6.5]\n]\n", f);
    fclose(f);
    char args[700];
    snprintf(args, sizeof args, "run --op allreduce --ranks 3 --count 2 --input %s --json", path);
    cJSON *j = (run(args), cJSON_Parse(out));
    cJSON *o = j ? cJSON_GetArrayItem(cJSON_GetObjectItem(j, "outputs"), 2) : NULL;
    EXPECT(o && cJSON_GetArrayItem(o, 1)->valuedouble == 12.5, "--input sums: %s", out);
    cJSON_Delete(j);
    f = fopen(path, "w");
    fputs("[\n  [1, 2],\n  [3],\n  [5, 6]\n]\n", f);
    fclose(f);
    snprintf(args, sizeof args, "run --op allreduce --ranks 3 --count 2 --input %s", path);
    char want[600];
    snprintf(want, sizeof want, "%s:3:", path);
    bad(args, want);
    f = fopen(path, "w");
    fputs("[[1, 2], [3, 4], [5, 6]]", f);
    fclose(f);
    snprintf(args, sizeof args, "run --op allreduce --ranks 2 --count 2 --input %s", path);
    bad(args, "one per rank");
    /* A whole number written as a float is read as one; one too large
     * for the dtype is said to be so, not "not a whole number". */
    f = fopen(path, "w");
    fputs("[[1e9], [2]]", f);
    fclose(f);
    snprintf(args, sizeof args,
             "run --op allreduce --ranks 2 --count 1 --dtype int32 --input %s --json", path);
    j = (run(args), cJSON_Parse(out));
    o = j ? cJSON_GetArrayItem(cJSON_GetObjectItem(j, "outputs"), 0) : NULL;
    EXPECT(o && cJSON_GetArrayItem(o, 0)->valuedouble == 1000000002.0, "--input 1e9 as int32: %s",
           out);
    cJSON_Delete(j);
    snprintf(args, sizeof args, "run --op allreduce --ranks 2 --count 1 --dtype int8 --input %s",
             path);
    bad(args, "1e9 does not fit int8");
    EXPECT(!strstr(out, "whole"), "1e9 for int8 blamed on wholeness: %s", out);
    f = fopen(path, "w");
    fputs("[[1.5], [2]]", f);
    fclose(f);
    snprintf(args, sizeof args, "run --op allreduce --ranks 2 --count 1 --dtype int32 --input %s",
             path);
    bad(args, "1.5 is not a whole number");
#ifndef COLLVIZ_TEST_NO_GUI
    /* export reads --input with the same loader: its errors name the
     * file and line, and a good file makes frames. */
    snprintf(args, sizeof args,
             "export --op allreduce --ranks 2 --count 1 --dtype int8 --input %s "
             "--out %s/test_cli_input.out --stills --size 320x240",
             path, COLLVIZ_BINARY_DIR);
    bad(args, "1.5 is not a whole number");
    EXPECT(strstr(out, path) != NULL, "export --input error names the file: %s", out);
    f = fopen(path, "w");
    fputs("[[100], [27]]", f);
    fclose(f);
    EXPECT(run(args) == 0 && strstr(out, "stills"), "export --input: %s", out);
    snprintf(args, sizeof args,
             "export --op allreduce --ranks 2 --count 1 --init random --seed 7 "
             "--out %s/test_cli_input.out --stills --size 320x240",
             COLLVIZ_BINARY_DIR);
    EXPECT(run(args) == 0, "export --init random --seed 7: %s", out);
    system("rm -rf " COLLVIZ_BINARY_DIR "/test_cli_input.out");
#endif
    remove(path);
}

/* run --help gives the defaults of --init and --seed. */
static void run_help(void)
{
    EXPECT(run("run --help") == 0 && strstr(out, "--init index (the default") &&
               strstr(out, "default 1"),
           "run --help gives the defaults of --init and --seed: %s", out);
}

/* cost reproduces the notes' worked example. */
static void cost(void)
{
    int rc = run("cost --op allreduce --algo ring --ranks 8 --bytes 1610612736 --bw 600");
    EXPECT(rc == 0 && strstr(out, "predicted time: 4.70 ms"), "GPT-3 example: %s", out);
    rc = run("cost --op allreduce --ranks 8 --bytes 4GB --bw 100 --json");
    cJSON *j = cJSON_Parse(out);
    EXPECT(j && cJSON_GetObjectItem(j, "bytes_sent_per_rank")->valuedouble == 7e9,
           "1B fp32 over 8 ranks: 7 GB per rank");
    cJSON_Delete(j);
}

/* bench: nccl-tests' table, closing line, --json. */
static void bench(void)
{
    int rc = run("bench --op allgather --ranks 4 -b 1k -e 4k -n 2 -w 0");
    EXPECT(rc == 0 && strstr(out, "# Avg bus bandwidth") && strstr(out, "busbw"),
           "bench table: %s", out);
    /* The header states the probe's two bandwidths; the footer the run's
     * wall time against its timed iterations; -c 0 checks nothing. */
    EXPECT(strstr(out, "copy") && strstr(out, "reduce") && strstr(out, "GB/s now") &&
               strstr(out, "# Wall time") && strstr(out, "timed iterations"),
           "bench header and footer: %s", out);
    rc = run("bench --op allreduce --ranks 4 -b 1k -e 1k -n 2 -c 0");
    EXPECT(rc == 0 && strstr(out, "N/A"), "bench -c 0: %s", out);
    rc = run("bench --op allreduce --ranks 4 -b 1k -e 1k -n 2");
    EXPECT(rc == 0 && !strstr(out, "N/A") && strstr(out, "OK"), "bench checks by default: %s",
           out);
    rc = run("bench --op reducescatter --ranks 3 -b 96 -e 96 -n 1 -d int32 -o max --json");
    cJSON *j = cJSON_Parse(out);
    EXPECT(rc == 0 && j && cJSON_GetArraySize(cJSON_GetObjectItem(j, "results")) == 1,
           "bench --json");
    {
        /* The steps' own time is part of the wall time, never more. */
        cJSON *row = j ? cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0) : NULL;
        cJSON *wall = cJSON_GetObjectItem(row, "time_us"), *steps = cJSON_GetObjectItem(row, "steps_us");
        EXPECT(cJSON_IsNumber(wall) && cJSON_IsNumber(steps) && steps->valuedouble > 0 &&
                   steps->valuedouble <= wall->valuedouble,
               "bench --json steps_us: %s", out);
        EXPECT(cJSON_IsNumber(cJSON_GetObjectItem(j, "wall_s")) &&
                   cJSON_IsNumber(cJSON_GetObjectItem(j, "timed_s")),
               "bench --json wall_s, timed_s: %s", out);
    }
    cJSON_Delete(j);
}

#ifdef COLLVIZ_TEST_NO_GUI
/* A build without the window says so for each drawing subcommand, and
 * plain `collviz` (the window) too, instead of failing obscurely. */
static void no_window(void)
{
    bad("", "-DCOLLVIZ_GUI=OFF");
    bad("export --op allreduce --out x.gif", "needs the window");
    bad("show r.json", "needs the window");
    bad("render --bench", "needs the window");
    EXPECT(strstr(out, "nccl-log") != NULL, "the no-window line names nccl-log: %s", out);
}
#endif

/* list, help, version. */
static void list_help_version(void)
{
    EXPECT(run("list") == 0 && strstr(out, "rabenseifner"), "list");
    cJSON *j = (run("list --json"), cJSON_Parse(out));
    EXPECT(j && cJSON_GetObjectItem(cJSON_GetObjectItem(j, "ops"), "alltoall"), "list --json");
    cJSON_Delete(j);
    EXPECT(run("--version") == 0 && strstr(out, "collviz"), "--version");
    const char *subs[] = {"run", "bench", "cost", "list"};
    for (size_t i = 0; i < 4; i++) {
        char a[64];
        snprintf(a, sizeof a, "%s --help", subs[i]);
        EXPECT(run(a) == 0 && strstr(out, "usage"), "%s", a);
    }
}

static const test_case cases[] = {
    CASE("bad-input", bad_input),
    CASE("default-size", default_size),
    CASE("bad-commands", bad_commands),
    CASE("backends", backends),
    CASE("step-through", step_through),
    CASE("step-through-values", step_through_values),
    CASE("json", json),
    CASE("json-values", json_values),
    CASE("input", input),
    CASE("run-help", run_help),
    CASE("cost", cost),
    CASE("bench", bench),
#ifdef COLLVIZ_TEST_NO_GUI
    CASE("no-window", no_window),
#endif
    CASE("list-help-version", list_help_version),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
