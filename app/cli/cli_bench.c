/*
 * cli_bench.c: `collviz bench`, in the manner of nccl-tests: the same flags
 * (-b -e -f -n -w -c -o -d -r), the same table and the same bandwidth
 * definitions (doc/PERFORMANCE.md: algbw = size / time, busbw = algbw x the
 * op's factor). Each size builds its plan, runs warmup plus timed
 * iterations on the backend through cv_run, and checks the result.
 *
 * Three parts: bench_parse reads the flags into bench_opts, bench_open and
 * bench_measure run (the backend or NCCL, the memory bound the backend
 * reports, one row per size), and the printers write the table or the JSON
 * document. The memory bound is the backend's own (cv_backend.membw and
 * .plan_bound): a backend without one gets no bound column.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cv_cuda.h"

static const char bench_help[] =
    "usage: collviz bench [--op OP] [--algo A] [--ranks N]\n"
    "                     [-b MINBYTES] [-e MAXBYTES] [-f FACTOR] [-n ITERS] [-w WARMUP]\n"
    "                     [-c 0|1] [-o REDOP] [-d DTYPE] [-r ROOT] [--slices S] [--json]\n"
    "                     [--dtype DTYPE] [--redop REDOP] [--root ROOT] [--nodes K]\n"
    "                     [--proto simple|ll128|ll] [--backend cpu|cuda|auto|nccl|mpi]\n\n"
    "--proto (with --backend nccl) sets NCCL_PROTO for the run: Simple, LL128 or\n"
    "LL; NCCL's default picks one per size.\n"
    "Times a collective over a range of sizes, as nccl-tests does:\n"
    "  -b, -e   smallest and largest size in bytes (8, 64k, 128M, 1G; default 32M);\n"
    "           -b alone above 32M, or -e alone below it, is the only size\n"
    "  -f       multiply the size by this factor each row (default 2)\n"
    "  -n       timed iterations per size (default 20); -w untimed warmup (default 1)\n"
    "  -c       1 checks every result against the reference, 0 skips it (default 1)\n"
    "  -o       redop (default sum); -d dtype (default float32); -r root (default 0);\n"
    "           --redop, --dtype and --root are the same as -o, -d and -r\n"
    "Defaults: --op allreduce, its default algorithm, --ranks 8, --backend cpu.\n"
    "--backend nccl runs the op through NCCL, one rank per GPU (every visible GPU\n"
    "unless --ranks says fewer); under `mpirun -np P` it spans the processes, one\n"
    "GPU each, with MPI only for bootstrap, and rank 0 prints the table; NCCL picks\n"
    "its own algorithm (NCCL_ALGO), so --algo is refused with it.\n"
    "--backend mpi runs collviz's plan with one rank per process under mpirun -np P\n"
    "(--ranks, if given, must be P) and, in the same run, the MPI library's own call\n"
    "for the op (MPI_Allreduce, MPI_Allgather, ...) on the same buffers: the columns\n"
    "'MPI us' and 'xMPI' (its time over collviz's); rank 0 prints (docs/MPI.md).\n"
    "size is the whole buffer (allgather: the gathered result; reducescatter: the\n"
    "input), algbw = size / time and busbw = algbw x 2(n-1)/n for allreduce,\n"
    "(n-1)/n for allgather, reducescatter, alltoall, gather and scatter, 1 otherwise.\n";


typedef struct {
    cv_spec spec;
    int64_t minb, maxb;
    long factor, iters, warmup;
    bool json, check, algo_given, ranks_given, e_given, proto_given;
    const char *backend;
} bench_opts;

/* What the rows run on, and the memory bound beside them. */
typedef struct {
    const cv_backend *be; /* NULL under NCCL */
    cv_nccl *nccl;
    bool quiet;           /* under MPI only rank 0 prints */
    cv_mpi *mpi;          /* --backend mpi: the processes, and MPI's own call beside */
    const char *name;
    bool bound;           /* the backend reports a memory bound */
    cv_membw bw;          /* best seen in this run */
} bench_ctx;

typedef struct {
    int64_t size, bytes, wrong; /* wrong: -1 = not checked */
    double sec, step_sec;       /* wall time; the sum of the backend's own step times */
    double algbw, busbw;        /* GB/s */
    double traffic, bound_sec, bound_pct;
    double mpi_sec;             /* --backend mpi: MPI's own call; 0 where it has none */
} bench_row;

/* Below this much traffic the data lives in caches, which memory bandwidth
 * does not bound. */
#define BOUND_MIN_TRAFFIC (64.0 * (1 << 20))
/* Each array of the bandwidth probe: far beyond any last-level cache. */
#define PROBE_BYTES ((int64_t)128 << 20)
/* Passes of the probe before the table and after each large row, the best
 * kept (a large row also probes between its iterations): a pass over 2 or
 * 3 x 128 MiB takes about 10 ms, so a few passes can all land in a busy
 * moment of a shared machine and put the bound below what the backend then
 * reaches (rows over 100%). */
#define PROBE_PASSES_FIRST 12
#define PROBE_PASSES_AGAIN 2

/* --------------------------------------------------------------- parse */

static const char *const bench_backends[] = {"cpu", "cuda", "auto", "nccl", "mpi", NULL};

/* True to go on; false to return *code (help printed, or a bad flag said). */
static bool bench_parse(int argc, char **argv, bench_opts *o, int *code)
{
    memset(o, 0, sizeof *o);
    cv_spec_init(&o->spec);
    o->spec.ranks = 8;
    o->minb = o->maxb = 32 << 20;
    o->factor = 2;
    o->iters = 20;
    o->warmup = 1;
    o->check = true;
    o->backend = "cpu";
    long check = 1;
    cv_spec *s = &o->spec;
    cli_flag flags[] = {
        CLI_SPEC_OP_FLAGS(s),
        CLI_SPEC_DATA_FLAGS(s),
        CLI_REFUSE("--count", "the sizes come from -b and -e (bytes), not --count"),
        CLI_PICK("--backend", &o->backend, bench_backends),
        CLI_SIZE("-b", &o->minb, 1, INT64_MAX, "bytes"),
        CLI_SIZE("-e", &o->maxb, 1, INT64_MAX, "bytes"),
        CLI_LONG("-f", &o->factor, 2, 1024),
        CLI_LONG("-n", &o->iters, 1, 100000),
        CLI_LONG("-w", &o->warmup, 0, 100000),
        CLI_LONG("-c", &check, 0, 1),
        CLI_ENUM("-o", &s->redop, &cli_redops),
        CLI_ENUM("-d", &s->dtype, &cli_dtypes),
        CLI_INT("-r", &s->root, 0, CV_MAX_RANKS - 1),
        CLI_SWITCH("--json", &o->json),
    };
    cli_cmdline cl = CLI_CMDLINE("bench", bench_help, flags);
    if (!cli_flags_parse(&cl, argc, argv, code))
        return false;
    o->check = check != 0;
    o->algo_given = cli_flag_given(&cl, "--algo");
    o->ranks_given = cli_flag_given(&cl, "--ranks");
    o->proto_given = cli_flag_given(&cl, "--proto");
    o->e_given = cli_flag_given(&cl, "-e");
    *code = CLI_EXIT_USAGE;
    /* A size given alone past the other's default is the only size: the
     * error below would name a flag that was never given. */
    if (o->maxb < o->minb && !o->e_given)
        o->maxb = o->minb;
    if (o->maxb < o->minb && !cli_flag_given(&cl, "-b"))
        o->minb = o->maxb;
    if (o->maxb < o->minb) {
        cli_usage_error("-e: %lld is smaller than -b %lld", (long long)o->maxb,
                        (long long)o->minb);
        return false;
    }
    if (!strcmp(o->backend, "nccl") && o->algo_given) {
        /* NCCL takes no algorithm through its API: a given one would be
         * silently replaced by NCCL's choice */
        cli_usage_error("--algo %s: --backend nccl runs the algorithm NCCL picks (its NCCL_ALGO "
                        "variable chooses among NCCL's own); collviz's %s runs on --backend cpu "
                        "or cuda",
                        cv_algo_name(s->algo), cv_algo_name(s->algo));
        return false;
    }
    if (!strcmp(o->backend, "nccl"))
        return true; /* the rank count comes from NCCL: checked in bench_open */
    if (s->proto != CV_PROTO_SIMPLE) {
        cli_usage_error("--proto %s: only --backend nccl has protocols (it sets NCCL_PROTO); "
                        "the %s backend copies memory; price them with collviz cost --proto",
                        cv_proto_name(s->proto), o->backend);
        return false;
    }
    s->count = 0;
    cv_mpi *world = cli_mpi_world(); /* under MPI the ranks are the processes */
    if (world && !o->ranks_given)
        s->ranks = cv_mpi_size(world);
    if (world && s->ranks != cv_mpi_size(world)) {
        cli_usage_error("--ranks %d: under --backend mpi each process is one rank and the "
                        "launcher started %d; give --ranks %d or leave it out",
                        s->ranks, cv_mpi_size(world), cv_mpi_size(world));
        return false;
    }
    if (!cli_finish_spec(&cl, s, o->algo_given, CV_MAX_RANKS))
        return false;
    *code = CLI_EXIT_OK;
    return true;
}

/* ----------------------------------------------------------------- run */

/* Opens the backend (or NCCL) and measures the memory bound. */
static int bench_open(bench_opts *o, bench_ctx *c)
{
    memset(c, 0, sizeof *c);
    if (!strcmp(o->backend, "nccl")) {
        char err[CV_ERR_LEN];
        /* --proto is NCCL's own NCCL_PROTO, read when the communicator is
         * made; without --proto, NCCL_PROTO from the environment stands. */
        if (o->proto_given)
            setenv("NCCL_PROTO", cv_proto_title(o->spec.proto), 1);
        bool mpi = cv_nccl_mpi_launched(); /* mpirun, srun, a PMIx launcher */
        int rc = mpi ? cv_nccl_create_mpi(&c->nccl, err, sizeof err)
                     : cv_nccl_create(o->ranks_given ? o->spec.ranks : 0, &c->nccl, err, sizeof err);
        if (rc) {
            fprintf(stderr, "collviz: --backend nccl: %s\n", err);
            return cli_exit_for(rc, NULL);
        }
        o->spec.ranks = cv_nccl_ranks(c->nccl);
        o->spec.count = 0;
        cv_spec check = o->spec; /* NCCL's own algorithm: the spec's default */
        cv_algo algos[CV_ALGO_COUNT];
        cv_op_algos(check.op, algos);
        check.algo = o->spec.algo = algos[0];
        char why[CV_ERR_LEN];
        if (cv_spec_check(&check, CV_MAX_RANKS, why, sizeof why) != CV_OK) {
            cv_nccl_destroy(c->nccl);
            c->nccl = NULL;
            return cli_usage_error("%s", why);
        }
        c->quiet = cv_nccl_rank(c->nccl) != 0;
        c->name = "nccl";
        return CLI_EXIT_OK;
    }
    int rc = cli_select_backend(o->backend, false, &c->be);
    if (rc)
        return rc;
    c->name = c->be->name;
    c->mpi = c->be == cv_mpi_backend() ? cli_mpi_world() : NULL;
    c->quiet = c->mpi && cv_mpi_rank(c->mpi) != 0;
    char err[CV_ERR_LEN];
    c->bound = c->be->membw && c->be->plan_bound &&
               c->be->membw(PROBE_BYTES, PROBE_PASSES_FIRST, &c->bw, err, sizeof err) == CV_OK &&
               c->bw.copy > 0;
    return CLI_EXIT_OK;
}

static void on_progress(void *user, int done, int total);

/* Probes the bandwidth again (passes of each kind), keeping the best seen:
 * the machine may have been busier when it was measured before. */
static void probe_again(bench_ctx *c, int passes)
{
    cv_membw again;
    char why[CV_ERR_LEN];
    if (c->be->membw(PROBE_BYTES, passes, &again, why, sizeof why) == CV_OK) {
        c->bw.copy = again.copy > c->bw.copy ? again.copy : c->bw.copy;
        c->bw.reduce = again.reduce > c->bw.reduce ? again.reduce : c->bw.reduce;
    }
}

typedef struct {
    double start;
    int64_t size;
    bool shown;
    /* A row with a bound also probes between its iterations, at most
     * PROBE_SHARE of its time, so the bandwidth is measured in the same
     * seconds as the row: a shared machine's moves by a quarter within a
     * minute, and a probe only before and after could catch a slow moment
     * and put a row above 100%. */
    bench_ctx *probe;
    double probe_sec;
    bool quiet; /* under MPI, every process but rank 0 */
} progress_state;

#define PROBE_SHARE 0.1

/* One size: plan, run, check, and the row's figures. CV_OK, or the status
 * with err filled. */
static int bench_measure(const bench_opts *o, bench_ctx *c, cv_spec *spec, int64_t size,
                         bench_row *row, char *err, size_t errlen)
{
    memset(row, 0, sizeof *row);
    row->size = size;
    spec->count = size / cv_spec_bench_unit(spec);
    cv_plan *plan = NULL;
    int rc = cv_plan_create(spec, &plan, err, errlen);
    if (rc)
        return rc;
    progress_state ps = {cv_now_seconds(), size, false, NULL, 0, c->quiet};
    double traffic = 0;
    if (c->bound && !c->nccl && c->be->plan_bound(plan, &c->bw, &traffic) > 0 &&
        traffic >= BOUND_MIN_TRAFFIC)
        ps.probe = c;
    cv_trace *t = NULL;
    if (c->nccl) {
        cv_nccl_result res;
        rc = cv_nccl_run(c->nccl, spec, (int)o->warmup, (int)o->iters, CV_INIT_RANDOM, 1,
                         o->check, &res, err, errlen);
        row->sec = rc ? 0 : res.seconds;
        row->wrong = o->check && !rc ? res.wrong : -1;
    } else {
        cv_run_opts ro;
        cv_run_opts_init(&ro);
        ro.init = CV_INIT_RANDOM;
        ro.iterations = (int)o->iters;
        ro.warmup = (int)o->warmup;
        ro.verify = o->check;
        ro.discard = true; /* checked where the results lie, nothing kept */
        ro.progress = on_progress;
        ro.progress_user = &ps;
        rc = cv_run(plan, c->be, &ro, &t, err, errlen);
        row->sec = rc ? 0 : cv_trace_total_seconds(t);
        for (int k = 0; !rc && k < plan->nsteps; k++)
            row->step_sec += cv_trace_step_seconds(t, k);
        row->wrong = rc || !o->check ? -1 : cv_trace_wrong(t);
        char why[CV_ERR_LEN];
        if (!rc && c->mpi && cv_mpi_library_seconds(c->mpi, spec, (int)o->warmup, (int)o->iters,
                                                    &row->mpi_sec, why, sizeof why) != CV_OK)
            row->mpi_sec = 0; /* the same answer on every process: no such call */
    }
    if (ps.shown)
        fprintf(stderr, "\r%60s\r", "");
    if (rc == CV_OK) {
        row->bytes = cv_spec_bench_bytes(spec);
        row->algbw = row->sec > 0 ? (double)row->bytes / row->sec / 1e9 : 0;
        row->busbw = row->algbw * cv_spec_busbw_factor(spec);
        if (c->bound) {
            row->bound_sec = c->be->plan_bound(plan, &c->bw, &row->traffic);
            if (row->traffic >= BOUND_MIN_TRAFFIC && row->bound_sec > 0) {
                probe_again(c, PROBE_PASSES_AGAIN);
                row->bound_sec = c->be->plan_bound(plan, &c->bw, &row->traffic);
            }
            row->bound_pct = row->sec > 0 ? 100.0 * row->bound_sec / row->sec : 0;
        }
    }
    cv_trace_destroy(t);
    cv_plan_destroy(plan);
    return rc;
}

/* One line for a size that cannot run: the engine's advice names run's
 * flags, and bench sizes with -e (or -b alone). */
static int bench_refuse(const bench_opts *o, const bench_ctx *c, int64_t size, int st, char *err,
                        size_t errlen)
{
    char *flags = strstr(err, "lower --count or --ranks");
    if (flags)
        snprintf(flags, errlen - (size_t)(flags - err), "lower %s or --ranks",
                 o->e_given ? "-e" : "-b");
    fprintf(stderr, "collviz: bench: %lld B: %s%s\n", (long long)size, err,
            c->be && cli_device_refused(st, c->be) ? " (--backend cpu runs it on the CPU)" : "");
    return cli_exit_for(st, c->nccl ? NULL : c->be);
}

/* The largest size the rows reach (-b times a power of -f, at most -e). */
static int64_t bench_largest(const bench_opts *o)
{
    int64_t size = o->minb;
    while (size > 0 && size <= o->maxb / o->factor) /* size x factor <= -e, no overflow */
        size *= o->factor;
    return size;
}

/* Whether the largest size fits in memory, asked before the first row so
 * that a sweep is not refused after minutes of small sizes. CV_OK, or the
 * status with err filled. NCCL's memory is its devices': checked as it
 * runs. */
static int bench_fits(const bench_opts *o, const bench_ctx *c, int64_t size, char *err,
                      size_t errlen)
{
    if (c->nccl)
        return CV_OK;
    cv_spec spec = o->spec;
    spec.count = size / cv_spec_bench_unit(&spec);
    cv_plan *plan = NULL;
    int rc = cv_plan_create(&spec, &plan, err, errlen);
    if (rc == CV_OK) {
        cv_run_opts ro;
        cv_run_opts_init(&ro); /* as bench_measure runs it */
        ro.verify = o->check;
        ro.discard = true;
        rc = cv_run_check_memory(plan, c->be, &ro, err, errlen);
    }
    cv_plan_destroy(plan);
    return rc;
}

/* After a second on one size, say how far it is, on stderr. */
static void on_progress(void *user, int done, int total)
{
    progress_state *p = user;
    double now = cv_now_seconds();
    if (p->probe && done < total && p->probe_sec <= PROBE_SHARE * (now - p->start - p->probe_sec)) {
        probe_again(p->probe, 1); /* between iterations: not in their time */
        p->probe_sec += cv_now_seconds() - now;
    }
    if (p->quiet || cv_now_seconds() - p->start < 1.0)
        return;
    if (isatty(STDERR_FILENO)) {
        fprintf(stderr, "\rbench: %lld B: run %d of %d ", (long long)p->size, done, total);
        p->shown = true;
    } else if (done == total) {
        fprintf(stderr, "bench: %lld B: %d runs took %.1f s\n", (long long)p->size, total,
                cv_now_seconds() - p->start);
    }
}

/* --------------------------------------------------------------- print */

/* "# " + text, wrapped at 80 columns with "#   " before each further line. */
static void print_wrapped(const char *lead, const char *text)
{
    int col = printf("%s", lead);
    const char *p = text;
    while (*p) {
        const char *sp = strchr(p, ' ');
        int n = sp ? (int)(sp - p) : (int)strlen(p);
        if (col + 1 + n > 79 && col > 4) {
            col = printf("\n#  ");
        }
        col += printf(" %.*s", n, p);
        p += n;
        while (*p == ' ')
            p++;
    }
    putchar('\n');
}

static void print_header(const bench_opts *o, const bench_ctx *c)
{
    const cv_spec *s = &o->spec;
    printf("# collviz bench: %s %s, %d ranks, backend %s", cv_op_name(s->op),
           c->nccl ? "(NCCL's choice)" : cv_algo_name(s->algo), s->ranks, c->name);
    if (c->be == cv_cpu_backend())
        printf(" (%d worker threads)", cv_cpu_threads());
    printf(", %ld iterations after %ld warmup\n", o->iters, o->warmup);
    if (c->nccl && s->ranks == 1)
        printf("# one GPU, so NCCL runs one rank: nothing crosses a link, and these rows\n"
               "#   are not comparable with collviz's several ranks on one GPU\n");
    if (c->bound) {
        print_wrapped("# memory bound:", c->be->bound_about ? c->be->bound_about : "");
        if (c->bw.reduce != c->bw.copy)
            printf("#   copy %.2f, reduce %.2f GB/s now; '-' where the plan's buffers fit in\n"
                   "#   caches, which memory bandwidth does not bound\n",
                   c->bw.copy / 1e9, c->bw.reduce / 1e9);
        else
            printf("#   %.2f GB/s now; shown where the plan moves 64 MiB or more\n",
                   c->bw.copy / 1e9);
    }
    const char *bc = c->bound ? "   bound" : "";
    if (c->mpi)
        printf("# MPI: MPI's own %s on the same buffers, in the same run, after collviz's\n"
               "#   iterations of each size; xMPI = its time / collviz's ('-': no such call)\n",
               cv_op_name(s->op));
    const char *mc = c->mpi ? "     MPI    xMPI" : "", *mu = c->mpi ? "    (us)        " : "";
    printf("#\n# %10s %12s %8s %6s %6s %10s %8s %8s %7s%s%s\n", "size", "count", "type",
           "redop", "root", "time", "algbw", "busbw", "#wrong", bc, mc);
    printf("# %10s %12s %8s %6s %6s %10s %8s %8s %7s%s%s\n", "(B)", "(elements)", "", "", "",
           "(us)", "(GB/s)", "(GB/s)", "", c->bound ? "  (% of)" : "", mu);
}

static const char *redop_of(const cv_spec *s)
{
    return cv_op_reduces(s->op) ? cv_redop_name(s->redop) : "none";
}

static int root_of(const cv_spec *s) { return cv_op_has_root(s->op) ? s->root : -1; }

static void print_row(const bench_opts *o, const bench_ctx *c, const bench_row *r)
{
    const cv_spec *s = &o->spec;
    char w[24];
    snprintf(w, sizeof w, r->wrong < 0 ? "N/A" : "%lld", (long long)r->wrong);
    printf("  %10lld %12lld %8s %6s %6d %10.1f %8.2f %8.2f %7s", (long long)r->bytes,
           (long long)(r->bytes / (int64_t)cv_dtype_size(s->dtype)), cv_dtype_name(s->dtype),
           redop_of(s), root_of(s), r->sec * 1e6, r->algbw, r->busbw, w);
    if (c->bound && r->traffic >= BOUND_MIN_TRAFFIC && r->bound_sec > 0)
        printf(" %7.1f", r->bound_pct);
    else if (c->bound)
        printf(" %7s", "-");
    if (c->mpi && r->mpi_sec > 0)
        printf(" %8.1f %7.2f", r->mpi_sec * 1e6, r->sec > 0 ? r->mpi_sec / r->sec : 0);
    else if (c->mpi)
        printf(" %8s %7s", "-", "-");
    putchar('\n');
    fflush(stdout);
}

static void print_footer(const bench_ctx *c, int64_t wrong, double avg, double wall,
                         double timed)
{
    if (c->bound && c->bw.reduce != c->bw.copy)
        printf("# memory bandwidth, best seen in this run: copy %.2f, reduce %.2f GB/s\n",
               c->bw.copy / 1e9, c->bw.reduce / 1e9);
    printf("# Out of bounds values : %lld %s\n", (long long)wrong, wrong ? "WRONG" : "OK");
    printf("# Avg bus bandwidth    : %.4g\n", avg);
    /* What the run costs beyond its timed iterations: planning, filling,
     * warmup, checking, the bandwidth probe. */
    printf("# Wall time %.2f s, timed iterations %.2f s: %.2fx\n#\n", wall, timed,
           timed > 0 ? wall / timed : 0);
}

static cJSON *json_doc(const bench_opts *o, const bench_ctx *c)
{
    const cv_spec *s = &o->spec;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "op", cv_op_name(s->op));
    cJSON_AddStringToObject(doc, "algo", cv_algo_name(s->algo));
    cJSON_AddNumberToObject(doc, "ranks", s->ranks);
    cJSON_AddStringToObject(doc, "backend", c->name);
    cJSON_AddStringToObject(doc, "dtype", cv_dtype_name(s->dtype));
    cJSON_AddStringToObject(doc, "redop", redop_of(s));
    cJSON_AddNumberToObject(doc, "root", root_of(s));
    cJSON_AddNumberToObject(doc, "iters", (double)o->iters);
    cJSON_AddNumberToObject(doc, "warmup", (double)o->warmup);
    cJSON_AddArrayToObject(doc, "results");
    return doc;
}

static void json_row(cJSON *doc, const bench_opts *o, const bench_ctx *c, const bench_row *r)
{
    cJSON *row = cJSON_CreateObject();
    cJSON_AddNumberToObject(row, "size", (double)r->bytes);
    cJSON_AddNumberToObject(row, "count",
                            (double)(r->bytes / (int64_t)cv_dtype_size(o->spec.dtype)));
    cJSON_AddNumberToObject(row, "time_us", r->sec * 1e6);
    /* The steps alone, without what the host spends between them (CUDA:
     * event times on the GPU); absent for NCCL. */
    if (!c->nccl)
        cJSON_AddNumberToObject(row, "steps_us", r->step_sec * 1e6);
    cJSON_AddNumberToObject(row, "algbw_GBps", r->algbw);
    cJSON_AddNumberToObject(row, "busbw_GBps", r->busbw);
    cJSON_AddNumberToObject(row, "wrong", (double)r->wrong);
    if (c->mpi && r->mpi_sec > 0) /* MPI's own call for the op, same buffers, same run */
        cJSON_AddNumberToObject(row, "mpi_us", r->mpi_sec * 1e6);
    else if (c->mpi)
        cJSON_AddNullToObject(row, "mpi_us");
    if (c->bound) {
        cJSON_AddNumberToObject(row, "memory_bytes", r->traffic);
        cJSON_AddNumberToObject(row, "bound_us", r->bound_sec * 1e6);
        cJSON_AddNumberToObject(row, "bound_pct", r->bound_pct);
    }
    cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "results"), row);
}

static bool json_finish(cJSON *doc, const bench_ctx *c, double avg, double wall, double timed)
{
    cJSON_AddNumberToObject(doc, "avg_busbw_GBps", avg);
    cJSON_AddNumberToObject(doc, "wall_s", wall);
    cJSON_AddNumberToObject(doc, "timed_s", timed);
    if (c->bound) {
        cJSON_AddNumberToObject(doc, "copy_bandwidth_GBps", c->bw.copy / 1e9);
        if (c->bw.reduce != c->bw.copy)
            cJSON_AddNumberToObject(doc, "reduce_bandwidth_GBps", c->bw.reduce / 1e9);
    }
    char *text = cJSON_Print(doc);
    bool ok = text && puts(text) >= 0;
    free(text);
    return ok;
}

/* ------------------------------------------------------------- command */

static int bench_main(int argc, char **argv)
{
    double start = cv_now_seconds(), timed = 0;
    bench_opts o;
    bench_ctx c;
    int rc;
    /* Under MPI (cli_mpi_agree): nothing runs until every process has
     * read its flags and opened the backend alike. */
    if (!bench_parse(argc, argv, &o, &rc))
        return cli_mpi_agree(rc ? rc : CLI_MPI_HELP, NULL);
    if ((rc = bench_open(&o, &c)) != CLI_EXIT_OK)
        return cli_mpi_agree(rc, NULL);
    int64_t unit = cv_spec_bench_unit(&o.spec);
    if (o.minb % unit) { /* every row would be cut down to whole elements */
        cv_nccl_destroy(c.nccl);
        return cli_usage_error("-b: %lld is not a multiple of %lld bytes (%s%s)",
                               (long long)o.minb, (long long)unit,
                               cv_op_bench_per_rank(o.spec.op) ? "ranks x " : "",
                               cv_dtype_name(o.spec.dtype));
    }
    char err[CV_ERR_LEN];
    int64_t largest = bench_largest(&o);
    int st = bench_fits(&o, &c, largest, err, sizeof err);
    if (st != CV_OK) {
        rc = bench_refuse(&o, &c, largest, st, err, sizeof err);
        cv_nccl_destroy(c.nccl);
        return cli_mpi_agree(rc, NULL);
    }
    if (c.mpi) {
        char what[CV_ERR_LEN];
        snprintf(what, sizeof what, "bench --op %s --algo %s -b %lld -e %lld -f %ld -n %ld -w %ld "
                 "-c %d -d %s -o %s -r %d", cv_op_name(o.spec.op), cv_algo_name(o.spec.algo),
                 (long long)o.minb, (long long)o.maxb, o.factor, o.iters, o.warmup, o.check,
                 cv_dtype_name(o.spec.dtype), cv_redop_name(o.spec.redop), o.spec.root);
        if ((rc = cli_mpi_agree(CLI_EXIT_OK, what)) != CLI_EXIT_OK)
            return rc;
    }
    bool json = o.json && !c.quiet, text = !o.json && !c.quiet;
    cJSON *doc = json ? json_doc(&o, &c) : NULL;
    if (text)
        print_header(&o, &c);
    double bus_sum = 0;
    int rows = 0;
    int64_t wrong = 0;
    int status = CLI_EXIT_OK;
    for (int64_t size = o.minb; size <= o.maxb;
         size = size * o.factor > size ? size * o.factor : o.maxb + 1) {
        bench_row row;
        cv_spec spec = o.spec;
        st = bench_measure(&o, &c, &spec, size, &row, err, sizeof err);
        if (st != CV_OK && c.mpi) { /* the others may be waiting for this process */
            char line[CV_ERR_LEN + 32];
            snprintf(line, sizeof line, "bench: %lld B: %s", (long long)size, err);
            cli_mpi_fail(line);
        }
        if (st != CV_OK) {
            status = bench_refuse(&o, &c, size, st, err, sizeof err);
            goto done;
        }
        wrong += row.wrong > 0 ? row.wrong : 0;
        timed += row.sec * (double)o.iters;
        bus_sum += row.busbw;
        rows++;
        if (json)
            json_row(doc, &o, &c, &row);
        else if (text)
            print_row(&o, &c, &row);
    }
    double avg = rows ? bus_sum / rows : 0;
    double wall = cv_now_seconds() - start;
    if (json && !json_finish(doc, &c, avg, wall, timed))
        status = CLI_EXIT_USAGE;
    else if (text)
        print_footer(&c, wrong, avg, wall, timed);
    if (status == CLI_EXIT_OK && wrong)
        status = CLI_EXIT_WRONG;
done:
    cJSON_Delete(doc);
    cv_nccl_destroy(c.nccl);
    return status;
}

int cli_cmd_bench(int argc, char **argv)
{
    if (!cli_mpi_requested(argc, argv))
        return bench_main(argc, argv);
    int code = cli_mpi_begin();
    return code ? code : cli_mpi_end(bench_main(argc, argv));
}
