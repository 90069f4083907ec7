/*
 * cli_bench.c: `collviz bench`, in the manner of nccl-tests: the same flags
 * (-b -e -f -n -w -c -o -d -r), the same table and the same bandwidth
 * definitions (doc/PERFORMANCE.md: algbw = size / time, busbw = algbw x the
 * op's factor). Each size builds its plan, runs warmup plus timed
 * iterations on the backend through cv_run, and checks the result.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "cv_cuda.h"

static const char bench_help[] =
    "usage: collviz bench [--op OP] [--algo A] [--ranks N] [--backend cpu|cuda|auto|nccl]\n"
    "                     [-b MINBYTES] [-e MAXBYTES] [-f FACTOR] [-n ITERS] [-w WARMUP]\n"
    "                     [-c 0|1] [-o REDOP] [-d DTYPE] [-r ROOT] [--slices S] [--json]\n\n"
    "Times a collective over a range of sizes, as nccl-tests does:\n"
    "  -b, -e   smallest and largest size in bytes (8, 64k, 128M, 1G; default 32M)\n"
    "  -f       multiply the size by this factor each row (default 2)\n"
    "  -n       timed iterations per size (default 20); -w untimed warmup (default 1)\n"
    "  -c       1 checks every result against the reference, 0 skips it (default 1)\n"
    "  -o       redop (default sum); -d dtype (default float32); -r root (default 0)\n"
    "Defaults: --op allreduce, its default algorithm, --ranks 8, --backend cpu.\n"
    "--backend nccl runs the op through NCCL, one rank per GPU (every visible GPU\n"
    "unless --ranks says fewer); under `mpirun -np P` it spans the processes, one\n"
    "GPU each, with MPI only for bootstrap, and rank 0 prints the table.\n"
    "size is the whole buffer (allgather: the gathered result; reducescatter: the\n"
    "input), algbw = size / time and busbw = algbw x 2(n-1)/n for allreduce,\n"
    "(n-1)/n for allgather, reducescatter, alltoall, gather and scatter, 1 otherwise.\n";

typedef struct {
    double start;
    int64_t size;
    bool shown;
} progress_state;

/* After a second on one size, say how far it is, on stderr. */
static void on_progress(void *user, int done, int total)
{
    progress_state *p = user;
    if (app_now_seconds() - p->start < 1.0)
        return;
    if (isatty(STDERR_FILENO)) {
        fprintf(stderr, "\rbench: %lld B: run %d of %d ", (long long)p->size, done, total);
        p->shown = true;
    } else if (done == total) {
        fprintf(stderr, "bench: %lld B: %d runs took %.1f s\n", (long long)p->size, total,
                app_now_seconds() - p->start);
    }
}

static bool take(int argc, char **argv, int *i, const char *flag, const char **v)
{
    int r = app_flag_value(argc, argv, i, flag, v);
    return r != 0; /* r < 0 leaves *v NULL and has printed the error */
}

int app_cmd_bench(int argc, char **argv)
{
    cv_spec spec;
    cv_spec_init(&spec);
    spec.ranks = 8;
    bool algo_given = false, json = false, check = true;
    int64_t minb = 32 << 20, maxb = 32 << 20;
    long factor = 2, iters = 20, warmup = 1, tmp;
    const char *backend = "cpu", *v;
    for (int i = 1; i < argc; i++) {
        v = NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(bench_help, stdout);
            return APP_EXIT_OK;
        }
        if (!strcmp(argv[i], "--json")) {
            json = true;
            continue;
        }
        int r = app_parse_spec_flag(argc, argv, &i, &spec, &algo_given);
        if (r < 0)
            return APP_EXIT_USAGE;
        if (r > 0)
            continue;
        if (take(argc, argv, &i, "-b", &v)) {
            if (!v || !app_parse_size("-b", v, &minb))
                return APP_EXIT_USAGE;
        } else if (take(argc, argv, &i, "-e", &v)) {
            if (!v || !app_parse_size("-e", v, &maxb))
                return APP_EXIT_USAGE;
        } else if (take(argc, argv, &i, "-f", &v)) {
            if (!v || !app_parse_int("-f", v, 2, 1024, &factor))
                return APP_EXIT_USAGE;
        } else if (take(argc, argv, &i, "-n", &v)) {
            if (!v || !app_parse_int("-n", v, 1, 100000, &iters))
                return APP_EXIT_USAGE;
        } else if (take(argc, argv, &i, "-w", &v)) {
            if (!v || !app_parse_int("-w", v, 0, 100000, &warmup))
                return APP_EXIT_USAGE;
        } else if (take(argc, argv, &i, "-c", &v)) {
            if (!v || !app_parse_int("-c", v, 0, 1, &tmp))
                return APP_EXIT_USAGE;
            check = tmp != 0;
        } else if (take(argc, argv, &i, "-o", &v)) {
            int e = v ? cv_redop_parse(v) : -1;
            if (e < 0)
                return v ? app_usage_error("-o: unknown redop '%s'; allowed: sum, prod, min, "
                                           "max, avg, band, bor, bxor", v)
                         : APP_EXIT_USAGE;
            spec.redop = (cv_redop)e;
        } else if (take(argc, argv, &i, "-d", &v)) {
            int e = v ? cv_dtype_parse(v) : -1;
            if (e < 0)
                return v ? app_usage_error("-d: unknown dtype '%s'; allowed: int8, int32, "
                                           "int64, float16, bfloat16, float32, float64", v)
                         : APP_EXIT_USAGE;
            spec.dtype = (cv_dtype)e;
        } else if (take(argc, argv, &i, "-r", &v)) {
            if (!v || !app_parse_int("-r", v, 0, CV_MAX_RANKS - 1, &tmp))
                return APP_EXIT_USAGE;
            spec.root = (int)tmp;
        } else if (take(argc, argv, &i, "--backend", &v)) {
            if (!v)
                return APP_EXIT_USAGE;
            backend = v;
        } else {
            return app_usage_error("bench: unknown flag '%s' (see collviz bench --help)",
                                   argv[i]);
        }
    }
    if (maxb < minb)
        return app_usage_error("-e: %lld is smaller than -b %lld", (long long)maxb,
                               (long long)minb);
    spec.count = 0;
    bool ranks_given = false;
    for (int i = 1; i < argc; i++)
        ranks_given |= !strncmp(argv[i], "--ranks", 7);
    cv_nccl *nccl = NULL;
    const cv_backend *be = NULL;
    int rc;
    if (!strcmp(backend, "nccl")) {
        char err[CV_ERR_LEN];
        bool mpi = cv_nccl_mpi_launched(); /* mpirun, srun, a PMIx launcher */
        rc = mpi ? cv_nccl_open_mpi(&nccl, err, sizeof err)
                 : cv_nccl_open(ranks_given ? spec.ranks : 0, &nccl, err, sizeof err);
        if (rc) {
            fprintf(stderr, "collviz: --backend nccl: %s\n", err);
            return app_exit_for(rc, NULL);
        }
        spec.ranks = cv_nccl_ranks(nccl);
        algo_given = false;
    }
    if (!app_finish_spec(&spec, algo_given, CV_MAX_RANKS)) {
        cv_nccl_close(nccl);
        return APP_EXIT_USAGE;
    }
    if (!nccl && (rc = app_select_backend(backend, false, &be)) != 0)
        return rc;
    bool quiet = nccl && cv_nccl_rank(nccl) != 0; /* under MPI only rank 0 prints */
    const char *be_name = nccl ? "nccl" : be->name;

    int64_t esz = (int64_t)cv_dtype_size(spec.dtype), unit = cv_spec_bench_unit(&spec);
    const char *redop = cv_op_reduces(spec.op) ? cv_redop_name(spec.redop) : "none";
    int root = cv_op_has_root(spec.op) ? spec.root : -1;
    /* On the CPU backend the ceiling is memory bandwidth: measure it now, with
     * the backend's own threads, and show each row's share of that bound. */
    bool cpu = be && !strcmp(be->name, "cpu"), cuda = be && !strcmp(be->name, "cuda");
    cv_membw cpubw = {0, 0};
    if (cpu)
        cv_cpu_measure_bandwidth(256 << 20, 5, &cpubw);
    double membw = cpubw.copy;
    char bwerr[CV_ERR_LEN];
    if (cuda && cv_cuda_copy_bandwidth(256 << 20, 20, &membw, bwerr, sizeof bwerr) != CV_OK)
        membw = 0;
    int devices = cuda ? cv_cuda_devices(bwerr, sizeof bwerr) : 0;
    bool bound_col = membw > 0;
    cJSON *doc = NULL, *rows = NULL;
    if (quiet) {
        json = false;
    } else if (json) {
        doc = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "op", cv_op_name(spec.op));
        cJSON_AddStringToObject(doc, "algo", cv_algo_name(spec.algo));
        cJSON_AddNumberToObject(doc, "ranks", spec.ranks);
        cJSON_AddStringToObject(doc, "backend", be_name);
        cJSON_AddStringToObject(doc, "dtype", cv_dtype_name(spec.dtype));
        cJSON_AddStringToObject(doc, "redop", redop);
        cJSON_AddNumberToObject(doc, "root", root);
        cJSON_AddNumberToObject(doc, "iters", (double)iters);
        cJSON_AddNumberToObject(doc, "warmup", (double)warmup);
        rows = cJSON_AddArrayToObject(doc, "results");
    } else {
        printf("# collviz bench: %s %s, %d ranks, backend %s", cv_op_name(spec.op),
               nccl ? "(NCCL's choice)" : cv_algo_name(spec.algo), spec.ranks, be_name);
        if (cpu)
            printf(" (%d worker threads)", cv_cpu_threads());
        printf(", %ld iterations after %ld warmup\n", iters, warmup);
        if (nccl && spec.ranks == 1)
            printf("# one GPU, so NCCL runs one rank: nothing crosses a link, and these rows\n"
                   "#   are not comparable with collviz's several ranks on one GPU\n");
        if (cpu)
            printf("# memory bound: the bytes each transfer reads and writes (copy 2x, reduce 3x)"
                   "\n#   over the bandwidth this machine's copy and reduce kernels reach, "
                   "measured\n#   in this run before and after each row (best seen): "
                   "copy %.2f, reduce %.2f GB/s;\n#   shown where the plan moves 64 MiB or "
                   "more (smaller rows run from caches)\n", cpubw.copy / 1e9,
                   cpubw.reduce / 1e9);
        else if (bound_col)
            printf("# memory bound: device-to-device copy bandwidth %.2f GB/s (read + write) "
                   "measured now; bound = bytes the plan reads and writes / that bandwidth\n",
                   membw / 1e9);
        printf("#\n# %10s %12s %8s %6s %6s %10s %8s %8s %7s%s\n", "size", "count", "type",
               "redop", "root", "time", "algbw", "busbw", "#wrong", bound_col ? "   bound" : "");
        printf("# %10s %12s %8s %6s %6s %10s %8s %8s %7s%s\n", "(B)", "(elements)", "", "", "",
               "(us)", "(GB/s)", "(GB/s)", "", bound_col ? "  (% of)" : "");
    }
    double bus_sum = 0;
    int rows_done = 0;
    int64_t wrong_total = 0;
    for (int64_t size = minb; size <= maxb; size = size * factor > size ? size * factor : maxb + 1) {
        spec.count = size / unit;
        char err[CV_ERR_LEN];
        cv_plan *plan = NULL;
        if (cv_plan_build(&spec, &plan, err, sizeof err)) {
            cJSON_Delete(doc);
            cv_nccl_close(nccl); /* every process returns the same way, then MPI_Finalize */
            return app_usage_error("%s", err);
        }
        progress_state ps = {app_now_seconds(), size, false};
        cv_trace *t = NULL;
        double sec, step_sec = 0; /* wall time; the sum of the backend's own step times */
        int64_t wrong;
        if (nccl) {
            cv_nccl_result res;
            rc = cv_nccl_run(nccl, &spec, (int)warmup, (int)iters, CV_INIT_RANDOM, 1, check, &res,
                             err, sizeof err);
            sec = res.seconds;
            wrong = check ? res.wrong : -1;
        } else {
            cv_run_opts o;
            cv_run_opts_init(&o);
            o.init = CV_INIT_RANDOM;
            o.iterations = (int)iters;
            o.warmup = (int)warmup;
            o.verify = check;
            o.progress = on_progress;
            o.progress_user = &ps;
            rc = cv_run(plan, be, &o, &t, err, sizeof err);
            sec = rc ? 0 : cv_trace_total_seconds(t);
            for (int k = 0; !rc && k < plan->nsteps; k++)
                step_sec += cv_trace_step_seconds(t, k);
            wrong = rc || !check ? -1 : cv_trace_wrong(t);
        }
        if (ps.shown)
            fprintf(stderr, "\r%60s\r", "");
        if (rc) {
            cv_plan_destroy(plan);
            cJSON_Delete(doc);
            cv_nccl_close(nccl);
            fprintf(stderr, "collviz: bench: %lld B: %s%s\n", (long long)size, err,
                    !nccl && app_device_refused(rc, be) ? " (--backend cpu runs it on the CPU)" : "");
            return app_exit_for(rc, nccl ? NULL : be);
        }
        int64_t bytes = cv_spec_bench_bytes(&spec);
        double algbw = sec > 0 ? (double)bytes / sec / 1e9 : 0;
        double busbw = algbw * cv_spec_busbw_factor(&spec);
        double traffic = cuda ? cv_cuda_plan_traffic(plan, devices)
                              : (double)cv_plan_memory_bytes(plan);
        if (cpu && traffic >= 64.0 * (1 << 20)) { /* the machine may have been busier earlier */
            cv_membw again;
            cv_cpu_measure_bandwidth(256 << 20, 3, &again);
            cpubw.copy = again.copy > cpubw.copy ? again.copy : cpubw.copy;
            cpubw.reduce = again.reduce > cpubw.reduce ? again.reduce : cpubw.reduce;
        }
        double bound_sec = cpu ? cv_plan_memory_seconds(plan, &cpubw)
                               : membw > 0 ? traffic / membw : 0;
        double bound_pct = sec > 0 ? 100.0 * bound_sec / sec : 0;
        wrong_total += wrong > 0 ? wrong : 0;
        bus_sum += busbw;
        rows_done++;
        if (json) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddNumberToObject(row, "size", (double)bytes);
            cJSON_AddNumberToObject(row, "count", (double)(bytes / esz));
            cJSON_AddNumberToObject(row, "time_us", sec * 1e6);
            /* The steps alone, without what the host spends between them
             * (CUDA: event times on the GPU); absent for NCCL. */
            if (!nccl)
                cJSON_AddNumberToObject(row, "steps_us", step_sec * 1e6);
            cJSON_AddNumberToObject(row, "algbw_GBps", algbw);
            cJSON_AddNumberToObject(row, "busbw_GBps", busbw);
            cJSON_AddNumberToObject(row, "wrong", (double)wrong);
            if (bound_col) {
                cJSON_AddNumberToObject(row, "memory_bytes", traffic);
                cJSON_AddNumberToObject(row, "bound_us", bound_sec * 1e6);
                cJSON_AddNumberToObject(row, "bound_pct", bound_pct);
            }
            cJSON_AddItemToArray(rows, row);
        } else if (!quiet) {
            char w[24];
            snprintf(w, sizeof w, wrong < 0 ? "N/A" : "%lld", (long long)wrong);
            printf("  %10lld %12lld %8s %6s %6d %10.1f %8.2f %8.2f %7s", (long long)bytes,
                   (long long)(bytes / esz), cv_dtype_name(spec.dtype), redop, root, sec * 1e6,
                   algbw, busbw, w);
            /* Below 64 MiB of traffic the data lives in caches, which memory
             * bandwidth does not bound. */
            if (bound_col && traffic >= 64.0 * (1 << 20))
                printf(" %7.1f", bound_pct);
            else if (bound_col)
                printf(" %7s", "-");
            putchar('\n');
            fflush(stdout);
        }
        cv_trace_destroy(t);
        cv_plan_destroy(plan);
    }
    double avg = rows_done ? bus_sum / rows_done : 0;
    if (json) {
        cJSON_AddNumberToObject(doc, "avg_busbw_GBps", avg);
        if (cpu) {
            cJSON_AddNumberToObject(doc, "copy_bandwidth_GBps", cpubw.copy / 1e9);
            cJSON_AddNumberToObject(doc, "reduce_bandwidth_GBps", cpubw.reduce / 1e9);
        } else if (bound_col) {
            cJSON_AddNumberToObject(doc, "copy_bandwidth_GBps", membw / 1e9);
        }
        char *text = cJSON_Print(doc);
        puts(text);
        free(text);
        cJSON_Delete(doc);
    } else if (!quiet) {
        if (cpu)
            printf("# memory bandwidth, best seen in this run: copy %.2f, reduce %.2f GB/s\n",
                   cpubw.copy / 1e9, cpubw.reduce / 1e9);
        printf("# Out of bounds values : %lld %s\n", (long long)wrong_total,
               wrong_total ? "WRONG" : "OK");
        printf("# Avg bus bandwidth    : %.4g\n#\n", avg);
    }
    cv_nccl_close(nccl);
    return wrong_total ? APP_EXIT_WRONG : APP_EXIT_OK;
}
