/*
 * cli_common.c: flag parsing and backend selection shared by every
 * subcommand, so that a bad flag reads the same everywhere: one line on
 * stderr naming the flag and what is allowed, then exit 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "cv_cuda.h"

int app_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("collviz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return APP_EXIT_USAGE;
}

int app_flag_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != 0)
        return 0;
    if (*i + 1 >= argc) {
        app_usage_error("%s needs a value", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

bool app_parse_int(const char *flag, const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max) {
        app_usage_error("%s: '%s' is not allowed; give a whole number from %ld to %ld", flag, s,
                        min, max);
        return false;
    }
    *out = v;
    return true;
}

bool app_parse_size(const char *flag, const char *s, int64_t *out)
{
    if (cv_parse_size(s, out) != CV_OK) {
        app_usage_error("%s: '%s' is not a size; give bytes or elements as a whole number, "
                        "optionally with a unit (8k, 64M, 1G, 512MiB, 1.6GB)", flag, s);
        return false;
    }
    return true;
}

bool app_parse_wxh(const char *flag, const char *s, int max, int *w, int *h)
{
    char *end = NULL;
    errno = 0;
    long a = strtol(s, &end, 10), b = 0;
    if (end != s && (*end == 'x' || *end == 'X')) {
        const char *second = end + 1;
        b = strtol(second, &end, 10);
        if (end == second)
            b = 0;
    }
    if (errno || *end || a < 64 || b < 64 || a > max || b > max) {
        app_usage_error("%s: '%s' is not WxH with 64 to %d pixels each", flag, s, max);
        return false;
    }
    *w = (int)a;
    *h = (int)b;
    return true;
}

double app_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long app_peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    long kb = -1;
    if (!f)
        return -1;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb;
}

bool app_parse_enum(const char *flag, const char *s, int (*parse)(const char *), int count,
                    const char *(*name)(int), int *out)
{
    int v = parse(s);
    if (v >= 0) {
        *out = v;
        return true;
    }
    char list[256] = "";
    for (int i = 0; i < count; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", name(i));
    }
    app_usage_error("%s: unknown value '%s'; allowed: %s", flag, s, list);
    return false;
}

/* Which of --root and --slices the command line gave since the last
 * app_finish_spec, which refuses them where the algorithm has no use for
 * them (until one table-driven flag parser keeps this itself). */
enum { GAVE_ROOT = 1, GAVE_SLICES = 2, GAVE_RANKS = 4, GAVE_NODES = 8 };
static unsigned gave_flags;

/* Adapters so the enum parser can print names of any enum. */
static const char *op_name_i(int i) { return cv_op_name((cv_op)i); }
static const char *algo_name_i(int i) { return cv_algo_name((cv_algo)i); }
static const char *dtype_name_i(int i) { return cv_dtype_name((cv_dtype)i); }
static const char *redop_name_i(int i) { return cv_redop_name((cv_redop)i); }

int app_parse_spec_flag(int argc, char **argv, int *i, cv_spec *spec, bool *algo_given)
{
    const char *v;
    int r, e = 0;
    long n;
    int64_t big;
    if ((r = app_flag_value(argc, argv, i, "--op", &v)) != 0) {
        if (r < 0 || !app_parse_enum("--op", v, cv_op_parse, CV_OP_COUNT, op_name_i, &e))
            return -1;
        spec->op = (cv_op)e;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--algo", &v)) != 0) {
        if (r < 0 || !app_parse_enum("--algo", v, cv_algo_parse, CV_ALGO_COUNT, algo_name_i, &e))
            return -1;
        spec->algo = (cv_algo)e;
        *algo_given = true;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--dtype", &v)) != 0) {
        if (r < 0 ||
            !app_parse_enum("--dtype", v, cv_dtype_parse, CV_DTYPE_COUNT, dtype_name_i, &e))
            return -1;
        spec->dtype = (cv_dtype)e;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--redop", &v)) != 0) {
        if (r < 0 ||
            !app_parse_enum("--redop", v, cv_redop_parse, CV_REDOP_COUNT, redop_name_i, &e))
            return -1;
        spec->redop = (cv_redop)e;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--ranks", &v)) != 0) {
        if (r < 0 || !app_parse_int("--ranks", v, 1, CV_MAX_RANKS, &n))
            return -1;
        spec->ranks = (int)n;
        gave_flags |= GAVE_RANKS;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--count", &v)) != 0) {
        if (r < 0 || !app_parse_size("--count", v, &big))
            return -1;
        spec->count = big;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--root", &v)) != 0) {
        if (r < 0 || !app_parse_int("--root", v, 0, CV_MAX_RANKS - 1, &n))
            return -1;
        spec->root = (int)n;
        gave_flags |= GAVE_ROOT;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--slices", &v)) != 0) {
        if (r < 0 || !app_parse_int("--slices", v, 1, CV_MAX_SLICES, &n))
            return -1;
        spec->slices = (int)n;
        gave_flags |= GAVE_SLICES;
        return 1;
    }
    if ((r = app_flag_value(argc, argv, i, "--nodes", &v)) != 0) {
        if (r < 0 || !app_parse_int("--nodes", v, 1, CV_MAX_RANKS, &n))
            return -1;
        spec->nodes = (int)n;
        gave_flags |= GAVE_NODES;
        return 1;
    }
    return app__parse_nccl_flag(argc, argv, i);
}

/* "broadcast, scatter, ..., allreduce direct": what reads --root or --slices. */
static void users_of(bool (*uses)(cv_op, cv_algo), char *out, size_t len)
{
    out[0] = 0;
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int na = cv_op_algos((cv_op)op, a), k = 0;
        for (int i = 0; i < na; i++)
            k += uses((cv_op)op, a[i]);
        for (int i = 0; i < na && k; i++) {
            if (!uses((cv_op)op, a[i]))
                continue;
            size_t used = strlen(out);
            if (k == na) { /* every algorithm of the op: name the op */
                snprintf(out + used, len - used, "%s%s", used ? ", " : "", cv_op_name((cv_op)op));
                break;
            }
            snprintf(out + used, len - used, "%s%s %s", used ? ", " : "", cv_op_name((cv_op)op),
                     cv_algo_name(a[i]));
        }
    }
}

bool app_finish_spec(cv_spec *spec, bool algo_given, int max_ranks)
{
    unsigned gave = gave_flags;
    gave_flags = 0;
    if (!algo_given) {
        cv_algo algos[CV_ALGO_COUNT];
        cv_op_algos(spec->op, algos);
        spec->algo = algos[0];
    }
    char err[CV_ERR_LEN], list[256];
    if ((gave & GAVE_ROOT) && !cv_algo_uses_root(spec->op, spec->algo)) {
        users_of(cv_algo_uses_root, list, sizeof list);
        app_usage_error("--root: %s %s has no root; allowed with %s", cv_op_name(spec->op),
                        cv_algo_name(spec->algo), list);
        return false;
    }
    if ((gave & GAVE_SLICES) && !cv_algo_uses_slices(spec->op, spec->algo)) {
        users_of(cv_algo_uses_slices, list, sizeof list);
        app_usage_error("--slices: %s %s is not pipelined; allowed with %s",
                        cv_op_name(spec->op), cv_algo_name(spec->algo), list);
        return false;
    }
    if (!app__apply_nccl_log(spec, gave & GAVE_RANKS, gave & GAVE_NODES, max_ranks))
        return false;
    if (cv_spec_check(spec, max_ranks, err, sizeof err) != CV_OK) {
        app_usage_error("%s", err);
        return false;
    }
    return true;
}

static bool compare_algo(const char *name, cv_op op, cv_algo *out)
{
    int a = cv_algo_parse(name);
    if (a >= 0 && cv_op_has_algo(op, (cv_algo)a)) {
        *out = (cv_algo)a;
        return true;
    }
    cv_algo algos[CV_ALGO_COUNT];
    int n = cv_op_algos(op, algos);
    char list[160] = "";
    for (int i = 0; i < n; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", cv_algo_name(algos[i]));
    }
    app_usage_error("--compare: %s has no algorithm '%s'; allowed: %s", cv_op_name(op), name,
                    list);
    return false;
}

bool app_parse_compare(const char *s, cv_spec *spec, bool *algo_given, cv_algo *second)
{
    const char *comma = strchr(s, ',');
    if (comma) {
        char first[64];
        snprintf(first, sizeof first, "%.*s", (int)(comma - s), s);
        if (!compare_algo(first, spec->op, &spec->algo))
            return false;
        *algo_given = true;
        s = comma + 1;
    }
    return compare_algo(s, spec->op, second);
}

int app_exit_for(int rc, const cv_backend *be)
{
    return rc == CV_EUNAVAIL || app_device_refused(rc, be) ? APP_EXIT_UNAVAIL : APP_EXIT_USAGE;
}

bool app_device_refused(int rc, const cv_backend *be)
{
    return be != cv_cpu_backend() && (rc == CV_ENOMEM || rc == CV_EBACKEND || rc == CV_EUNAVAIL);
}

int app_select_backend(const char *name, bool quiet, const cv_backend **out)
{
    char err[CV_ERR_LEN];
    const cv_backend *cuda = cv_cuda_backend();
    if (!strcmp(name, "cpu")) {
        *out = cv_cpu_backend();
        return APP_EXIT_OK;
    }
    if (!strcmp(name, "cuda")) {
        if (cuda->probe(err, sizeof err) != CV_OK) {
            fprintf(stderr, "collviz: --backend cuda: %s\n", err);
            return APP_EXIT_UNAVAIL;
        }
        *out = cuda;
        return APP_EXIT_OK;
    }
    if (!strcmp(name, "auto")) {
        if (cuda->probe(err, sizeof err) == CV_OK) {
            *out = cuda;
        } else {
            if (!quiet)
                fprintf(stderr, "collviz: %s; using the CPU backend\n", err);
            *out = cv_cpu_backend();
        }
        return APP_EXIT_OK;
    }
    return app_usage_error("--backend: unknown backend '%s'; allowed: cpu, cuda, auto", name);
}
