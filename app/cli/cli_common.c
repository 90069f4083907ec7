/*
 * cli_common.c: what every subcommand shares after its flags are read
 * (cli_flags.c): the spec's last checks, --compare, backend selection and
 * exit codes, so a bad value reads the same everywhere: one line on stderr
 * naming the flag and what is allowed, then exit 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cv_cuda.h"

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("collviz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

long cli_peak_rss_kb(void)
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

bool cli_finish_spec(const cli_cmdline *c, cv_spec *spec, bool algo_given, int max_ranks)
{
    if (!algo_given) {
        cv_algo algos[CV_ALGO_COUNT];
        cv_op_algos(spec->op, algos);
        spec->algo = algos[0];
    }
    char err[CV_ERR_LEN], list[256];
    /* Each check once, whichever name the flag was given as (-r, --root). */
    const char *root = cli_flag_given_as(c, "--root");
    if (root && !cv_algo_uses_root(spec->op, spec->algo)) {
        users_of(cv_algo_uses_root, list, sizeof list);
        cli_usage_error("%s: %s %s has no root; allowed with %s", root, cv_op_name(spec->op),
                        cv_algo_name(spec->algo), list);
        return false;
    }
    const char *slices = cli_flag_given_as(c, "--slices");
    if (slices && !cv_algo_uses_slices(spec->op, spec->algo)) {
        users_of(cv_algo_uses_slices, list, sizeof list);
        cli_usage_error("%s: %s %s is not pipelined; allowed with %s", slices,
                        cv_op_name(spec->op), cv_algo_name(spec->algo), list);
        return false;
    }
    const char *proto = cli_flag_given_as(c, "--proto");
    if (proto && cv_algo_proto(spec->op, spec->algo, spec->proto) != spec->proto) {
        cli_usage_error("%s %s: NCCL runs %s %s with the Simple protocol only (it has no LL or "
                        "LL128 kernels for it); allowed: simple",
                        proto, cv_proto_name(spec->proto), cv_op_name(spec->op),
                        cv_algo_name(spec->algo));
        return false;
    }
    const char *redop = cli_flag_given_as(c, "--redop");
    if (redop && !cv_op_reduces(spec->op)) {
        list[0] = 0;
        for (int o = 0; o < CV_OP_COUNT; o++)
            if (cv_op_reduces((cv_op)o)) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                         cv_op_name((cv_op)o));
            }
        cli_usage_error("%s: %s does not reduce; allowed with %s", redop, cv_op_name(spec->op),
                        list);
        return false;
    }
    if (!cli__apply_nccl_log(c, spec, max_ranks))
        return false;
    if (cv_spec_check(spec, max_ranks, err, sizeof err) != CV_OK) {
        cli_usage_error("%s", err);
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
    char list[320] = "";
    for (int i = 0; i < n; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", cv_algo_name(algos[i]));
    }
    cli_usage_error("--compare: %s has no algorithm '%s'; allowed: %s", cv_op_name(op),
                    cli_esc(name), list);
    return false;
}

bool cli_parse_compare(const char *s, cv_spec *spec, bool *algo_given, cv_algo *second)
{
    const char *comma = strchr(s, ',');
    if (comma && strchr(comma + 1, ',')) {
        cli_usage_error("--compare: '%s' names more than two algorithms; the stage compares "
                        "two, side by side (ALGO, or ALGO,ALGO)",
                        cli_esc(s));
        return false;
    }
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

int cli_exit_for(int rc, const cv_backend *be)
{
    return rc == CV_EUNAVAIL || cli_device_refused(rc, be) ? CLI_EXIT_UNAVAIL : CLI_EXIT_USAGE;
}

bool cli_device_refused(int rc, const cv_backend *be)
{
    return be != cv_cpu_backend() && (rc == CV_ENOMEM || rc == CV_EBACKEND || rc == CV_EUNAVAIL);
}

int cli_select_backend(const char *name, bool quiet, const cv_backend **out)
{
    char err[CV_ERR_LEN];
    const cv_backend *cuda = cv_cuda_backend();
    if (!strcmp(name, "cpu")) {
        *out = cv_cpu_backend();
        return CLI_EXIT_OK;
    }
    if (!strcmp(name, "cuda")) {
        if (cuda->probe(err, sizeof err) != CV_OK) {
            fprintf(stderr, "collviz: --backend cuda: %s\n", err);
            return CLI_EXIT_UNAVAIL;
        }
        *out = cuda;
        return CLI_EXIT_OK;
    }
    if (!strcmp(name, "auto")) {
        if (cuda->probe(err, sizeof err) == CV_OK) {
            *out = cuda;
        } else {
            if (!quiet)
                fprintf(stderr, "collviz: %s; using the CPU backend\n", err);
            *out = cv_cpu_backend();
        }
        return CLI_EXIT_OK;
    }
    if (!strcmp(name, "mpi")) {
        const cv_backend *mpi = cv_mpi_backend();
        int rc = mpi->probe(err, sizeof err);
        if (rc != CV_OK) {
            fprintf(stderr, "collviz: --backend mpi: %s\n", err);
            /* CV_EINVAL: a setting the user gave (COLLVIZ_MPI_TIMEOUT) */
            return rc == CV_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_UNAVAIL;
        }
        *out = mpi;
        return CLI_EXIT_OK;
    }
    return cli_usage_error("--backend: unknown backend '%s'; allowed: cpu, cuda, auto, mpi", name);
}
