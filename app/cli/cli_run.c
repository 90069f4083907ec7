/*
 * cli_run.c: `collviz run`. Executes one collective on a backend, verifies
 * it against the reference, and prints the terminal step-through, or with
 * --json one JSON document with the steps, their transfers and timings,
 * every rank's inputs and outputs (null where NCCL leaves a buffer unused)
 * and the number of wrong elements; --trace-out writes that document to a
 * file as well, a trace other machines replay.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char run_help[] =
    "usage: collviz run --op OP [--algo A] [--ranks N] [--count C] [--dtype T] [--redop R]\n"
    "                   [--root K] [--slices S] [--nodes K] [--init rank|index|random|nan]\n"
    "                   [--seed S] [--input FILE] [--backend cpu|cuda|auto|mpi]\n"
    "                   [--proto simple|ll128|ll] [--trace-out FILE] [--json]\n"
    "                   [--nccl-log FILE [--comm ID] [--channel C]]\n\n"
    "Executes the collective once on the backend (default cpu, the CPU-emulated\n"
    "devices), verifies every result against the reference, and prints each step:\n"
    "its phase, its transfers, and every rank's buffers with values and the ranks\n"
    "whose inputs each element contains. count follows NCCL: allgather's is the\n"
    "count each rank sends, reducescatter's the count each rank receives,\n"
    "alltoall's the count per peer, scatter's and gather's the count per rank.\n"
    "Without --ranks and --count: 4 ranks and 8 elements, which read in 80 columns.\n"
    "The step count is the number of communication rounds, with its textbook\n"
    "formula (\"6 steps = 2(N-1)\"); the algorithms NCCL runs name NCCL's primitive\n"
    "on each transfer.\n\n"
    "Inputs: --init index (the default: rank r's element i is r*100 + i), rank\n"
    "(every element of rank r is r+1), random (small integers drawn from\n"
    "--seed, default 1; values near 1 for prod) or nan (index, with a NaN at\n"
    "element 0 of rank 2: where one bad value ends up; float dtypes, not min or\n"
    "max). --input FILE gives them yourself:\n"
    "a JSON array with one array of values per rank (null for a rank whose send\n"
    "buffer the op leaves unused), the shape of run --json's \"inputs\".\n"
    "--root only for an algorithm with a root, --slices only for a pipelined one,\n"
    "--nodes K splits the ranks into K nodes (hierarchical and multi-ring use it).\n"
    "--trace-out FILE also writes the run as --json prints it: a trace that\n"
    "collviz gui --trace FILE, export --trace FILE and the page replay on any\n"
    "machine, with this run's measured step times (docs/JSON.md).\n"
    "--proto picks NCCL's protocol the model time is priced with (see collviz cost\n"
    "--help); the values are the same under each.\n"
    "--nccl-log FILE takes the ranks, the nodes and channel C's ring and trees\n"
    "(default channel 0) from a log NCCL printed with NCCL_DEBUG=INFO: ring and\n"
    "double-tree then send along what NCCL built (see collviz nccl-log).\n"
    "--backend mpi runs it on real processes: under mpirun -np N each process is\n"
    "one rank (--ranks, if given, must be N), each step's transfers are MPI\n"
    "messages, and rank 0 gathers, verifies and prints (docs/MPI.md):\n"
    "  mpirun -np 4 collviz run --backend mpi --op allreduce --algo ring\n"
    "`collviz list` shows every op's algorithms. Exit 1 if a result is wrong,\n"
    "2 for bad usage or input, 3 where the backend cannot run (under MPI: a\n"
    "process failed; one line names its rank).\n";

/* The run's JSON is written as it is made, never held: a million-element
 * run is millions of values, and a tree of them took 60 times the run's own
 * memory. The layout is cJSON's, byte for byte (cJSON_Print with pretty,
 * cJSON_PrintUnformatted without): objects one member a line indented by
 * tabs, "key":<tab>value, arrays on one line with ", " between values;
 * numbers as cJSON formats them (it formats each one here). ok turns false
 * at the first write that fails. */
typedef struct {
    FILE *f;
    bool pretty, ok;
    int depth;      /* containers open, as cJSON counts them for indenting */
    bool first[8];  /* nothing written yet in the container at each depth */
    bool object[8]; /* the container at each depth is an object */
} json_out;

static void out_text(json_out *w, const char *s)
{
    if (w->ok && fputs(s, w->f) == EOF)
        w->ok = false;
}

static void out_char(json_out *w, char c)
{
    if (w->ok && fputc(c, w->f) == EOF)
        w->ok = false;
}

static void out_tabs(json_out *w, int n)
{
    for (int i = 0; w->pretty && i < n; i++)
        out_char(w, '\t');
}

/* A string as cJSON escapes it: ", \ and the control characters, the
 * rest as it is. */
static void out_string(json_out *w, const char *s)
{
    out_char(w, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p && w->ok; p++) {
        static const char esc[] = {['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r',
                                   ['\t'] = 't', ['"'] = '"',  ['\\'] = '\\'};
        if (*p >= 32 && *p != '"' && *p != '\\') {
            out_char(w, (char)*p);
        } else if (*p < sizeof esc && esc[*p]) {
            out_char(w, '\\');
            out_char(w, esc[*p]);
        } else {
            char u[8];
            snprintf(u, sizeof u, "\\u%04x", *p);
            out_text(w, u);
        }
    }
    out_char(w, '"');
}

/* What comes before a value: the separator from the one before it, and in
 * an object the member's key. */
static void out_key(json_out *w, const char *key)
{
    int d = w->depth;
    if (d == 0)
        return;
    if (w->object[d]) {
        if (!w->first[d])
            out_text(w, w->pretty ? ",\n" : ",");
        out_tabs(w, d);
        out_string(w, key);
        out_text(w, w->pretty ? ":\t" : ":");
    } else if (!w->first[d]) {
        out_text(w, w->pretty ? ", " : ",");
    }
    w->first[d] = false;
}

static void out_open(json_out *w, const char *key, bool object)
{
    out_key(w, key);
    out_char(w, object ? '{' : '[');
    if (object && w->pretty)
        out_char(w, '\n');
    w->depth++;
    w->first[w->depth] = true;
    w->object[w->depth] = object;
}

static void out_close(json_out *w)
{
    bool object = w->object[w->depth];
    if (object && w->pretty && !w->first[w->depth])
        out_char(w, '\n');
    w->depth--;
    if (object)
        out_tabs(w, w->depth);
    out_char(w, object ? '}' : ']');
}

static void out_number(json_out *w, const char *key, double v)
{
    cJSON n;
    memset(&n, 0, sizeof n);
    n.type = cJSON_Number;
    cJSON_SetNumberValue(&n, v);
    char text[64];
    out_key(w, key);
    if (cJSON_PrintPreallocated(&n, text, sizeof text, false))
        out_text(w, text);
    else
        w->ok = false;
}

static void out_str(json_out *w, const char *key, const char *s)
{
    out_key(w, key);
    out_string(w, s);
}

static void out_word(json_out *w, const char *key, const char *word)
{
    out_key(w, key);
    out_text(w, word);
}

/* One buffer as a JSON array: null where NCCL leaves the buffer unused, []
 * for a used buffer of 0 elements; each value exact (see
 * cv_value_format_exact), non-finite floats as the strings "nan", "inf",
 * "-inf". */
static void out_values(json_out *w, const cv_spec *s, cv_buf buf, int rank, const void *base,
                       int64_t n)
{
    if (!cv_spec_buf_used(s, buf, rank)) {
        out_word(w, NULL, "null");
        return;
    }
    out_open(w, NULL, false);
    for (int64_t i = 0; base && i < n && w->ok; i++) {
        char text[48];
        bool number;
        cv_value_format_exact(s->dtype, base, i, text, sizeof text, &number);
        if (number)
            out_word(w, NULL, text);
        else
            out_str(w, NULL, text);
    }
    out_close(w);
}

/* The run as JSON (docs/JSON.md) on f: the spec, the plan's steps with
 * their measured times, every rank's inputs and results; pretty as --json
 * prints it, compact as --trace-out writes it. The same document is a
 * trace: gui, export and the page replay it. Written as it is made (see
 * json_out), so it takes no memory in proportion to the run; false if a
 * write failed (errno says why), f flushed either way. */
static bool emit_run_json(FILE *f, bool pretty, const cv_trace *t)
{
    const cv_plan *p = cv_trace_plan(t);
    const cv_spec *s = &p->spec;
    size_t esz = cv_dtype_size(s->dtype);
    json_out w = {.f = f, .pretty = pretty, .ok = true};
    json_out *o = &w;
    out_open(o, NULL, true);
    out_str(o, "format", "collviz-run");
    out_number(o, "version", 1);
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    out_str(o, "host", host);
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    out_str(o, "created", when);
    out_str(o, "op", cv_op_name(s->op));
    out_str(o, "algo", cv_algo_name(s->algo));
    out_number(o, "ranks", s->ranks);
    out_number(o, "count", (double)s->count);
    out_str(o, "dtype", cv_dtype_name(s->dtype));
    if (cv_op_reduces(s->op))
        out_str(o, "redop", cv_redop_name(s->redop));
    else
        out_word(o, "redop", "null");
    if (cv_op_has_root(s->op))
        out_number(o, "root", s->root);
    else
        out_word(o, "root", "null");
    out_number(o, "slices", s->slices);
    out_str(o, "proto", cv_proto_name(s->proto));
    /* the two-level topology: rank r sits in node r / ranks_per_node */
    out_number(o, "nodes", cv_spec_nodes(s));
    out_number(o, "ranks_per_node", cv_spec_ranks_per_node(s));
    if (p->nswitch) /* an in-network plan's switch: the participant after the ranks */
        out_number(o, "switch", s->ranks);
    else
        out_word(o, "switch", "null");
    /* the switches: the network's one, or one a node from "switch" on */
    out_number(o, "switches", p->nswitch);
    out_str(o, "backend", cv_trace_backend(t));
    cv_mpi *world = cli_mpi_world();
    if (world) { /* each rank's host, as MPI_Get_processor_name gives it */
        out_open(o, "hosts", false);
        for (int r = 0; r < s->ranks; r++)
            out_str(o, NULL, cv_mpi_host(world, r));
        out_close(o);
    }
    int channel;
    const char *log_path;
    const ncclog_comm *log = cli_nccl_log(&channel, &log_path, NULL);
    if (log) { /* the ring and trees the plan follows came from an NCCL log */
        out_open(o, "nccl_log", true);
        out_str(o, "file", log_path);
        out_str(o, "communicator", log->id);
        out_number(o, "channel", channel);
        out_close(o);
    }
    char formula[64];
    int textbook = cv_plan_textbook_rounds(p, formula, sizeof formula);
    out_number(o, "rounds", p->nrounds);
    out_str(o, "rounds_formula", formula);
    out_number(o, "rounds_textbook", textbook);
    out_open(o, "steps", false);
    for (int k = 0; k < p->nsteps && w.ok; k++) {
        out_open(o, NULL, true);
        out_str(o, "phase", p->steps[k].phase);
        out_number(o, "round", p->steps[k].round);
        out_word(o, "local", p->steps[k].local ? "true" : "false");
        out_word(o, "loads", p->steps[k].loads ? "true" : "false");
        out_number(o, "time_us", cv_trace_step_seconds(t, k) * 1e6);
        out_open(o, "transfers", false);
        for (int64_t i = 0; i < p->steps[k].count && w.ok; i++) {
            const cv_transfer *x = &p->transfers[p->steps[k].first + i];
            out_open(o, NULL, true);
            out_number(o, "src", x->src);
            out_number(o, "dst", x->dst);
            out_number(o, "bytes", (double)(x->count * (int64_t)esz));
            out_str(o, "kind", cv_xfer_kind_name(x->kind));
            out_str(o, "src_buf", cv_buf_name(x->src_buf));
            out_number(o, "src_off", (double)x->src_off);
            out_str(o, "dst_buf", cv_buf_name(x->dst_buf));
            out_number(o, "dst_off", (double)x->dst_off);
            if (x->kind == CV_XFER_REDUCE_COPY) { /* the receiver's own operand */
                out_str(o, "local_buf", cv_buf_name(x->local_buf));
                out_number(o, "local_off", (double)x->local_off);
            }
            out_number(o, "count", (double)x->count);
            out_word(o, "finish", (x->flags & CV_XFER_FINISH) ? "true" : "false");
            if (x->prim_send != CV_PRIM_NONE) { /* an algorithm NCCL runs: its primitives */
                out_str(o, "nccl_send", cv_prim_name(x->prim_send));
                if (x->prim_recv != CV_PRIM_NONE)
                    out_str(o, "nccl_recv", cv_prim_name(x->prim_recv));
                else
                    out_word(o, "nccl_recv", "null");
            }
            out_close(o);
        }
        out_close(o);
        out_close(o);
    }
    out_close(o);
    /* inputs, then outputs: each walks every rank */
    for (int which = 0; which < 2 && w.ok; which++) {
        cv_buf buf = which ? CV_BUF_RECV : CV_BUF_SEND;
        out_open(o, which ? "outputs" : "inputs", false);
        for (int r = 0; r < s->ranks && w.ok; r++)
            out_values(o, s, buf, r, which ? cv_trace_output(t, r) : cv_trace_input(t, r),
                       cv_spec_buf_count(s, buf, r));
        out_close(o);
    }
    out_number(o, "wrong", (double)cv_trace_wrong(t));
    out_close(o);
    out_char(o, '\n'); /* as puts and the trace file end it */
    int saved = errno;
    if (fflush(f) == EOF || ferror(f))
        w.ok = false;
    else
        errno = saved;
    return w.ok;
}

/* --json: the document on stdout; false (errno says why) if it was not
 * all written. */
static bool print_json(const cv_trace *t) { return emit_run_json(stdout, true, t); }

/* --trace-out FILE: the run's JSON, written as it is made, whole or not
 * at all, never over what is not a file of its own (cv_wfile: a temporary
 * beside it, renamed over it once complete). */
static bool write_trace(const cv_trace *t, const char *path)
{
    char err[CV_ERR_LEN] = "";
    cv_wfile *w = cv_wfile_create(path, 0, err, sizeof err);
    FILE *f = cv_wfile_stream(w);
    errno = 0;
    bool ok = f && emit_run_json(f, false, t);
    if (f && !ok)
        snprintf(err, sizeof err, "%s", strerror(errno ? errno : EIO));
    if (w && cv_wfile_destroy(w, ok, err, sizeof err) != CV_OK)
        ok = false;
    if (!ok) {
        fprintf(stderr, "collviz: --trace-out: cannot write %s: %s\n", cli_esc(path), err);
        return false;
    }
    cli_wrote_file(path, CLI_FILE_USER);
    return true;
}

/* Before anything runs under MPI, every process must have come this far
 * (cli_mpi_agree); without MPI, code as it is. */
static int ready(int code) { return cli_mpi_agree(code, NULL); }

/* What an MPI process is about to run, compared with process 0's. */
static void run_text(const cv_spec *s, const cv_run_opts *o, const char *input, char *out,
                     size_t len)
{
    snprintf(out, len,
             "run --op %s --algo %s --ranks %d --count %lld --dtype %s --redop %s --root %d "
             "--slices %d --nodes %d --proto %s --init %s --seed %llu%s%s",
             cv_op_name(s->op), cv_algo_name(s->algo), s->ranks, (long long)s->count,
             cv_dtype_name(s->dtype), cv_redop_name(s->redop), s->root, s->slices, cv_spec_nodes(s),
             cv_proto_name(s->proto), cv_init_name(o->init), (unsigned long long)o->seed,
             input ? " --input " : "", input ? input : "");
}

/* Which host each rank ran on, ranks on one host run together:
 * "vm (ranks 0-3)". */
static void print_hosts(FILE *out, cv_mpi *w)
{
    int n = cv_mpi_size(w);
    fprintf(out, "mpi: %d process%s, one rank each:", n, n == 1 ? "" : "es");
    for (int r = 0; r < n;) {
        int e = r;
        while (e + 1 < n && !strcmp(cv_mpi_host(w, e + 1), cv_mpi_host(w, r)))
            e++;
        fprintf(out, "%s %s (rank%s %d", r ? "," : "", cli_esc(cv_mpi_host(w, r)),
                e > r ? "s" : "", r);
        if (e > r)
            fprintf(out, "-%d", e);
        fputc(')', out);
        r = e + 1;
    }
    fputc('\n', out);
}

static int run_main(int argc, char **argv)
{
    cv_spec spec;
    cv_spec_init(&spec);
    cv_run_opts opts;
    cv_run_opts_init(&opts);
    bool json = false;
    const char *input = NULL, *trace_out = NULL;
    spec.op = CV_OP_COUNT; /* --op is required */
    spec.ranks = 4;       /* what reads in 80 columns */
    spec.count = 8;
    const char *backend = "cpu";
    long seed = (long)opts.seed;
    cli_nccl_args nccl = {NULL, NULL, 0};
    cli_flag flags[] = {
        CLI_SPEC_FLAGS(&spec),
        CLI_NCCL_FLAGS(&nccl),
        CLI_ENUM("--init", &opts.init, &cli_inits),
        CLI_LONG("--seed", &seed, 0, 2147483647L),
        CLI_TEXT("--input", &input),
        CLI_PICK("--backend", &backend, cli_run_backends),
        CLI_SWITCH("--json", &json),
        CLI_TEXT("--trace-out", &trace_out),
    };
    cli_cmdline cl = CLI_CMDLINE("run", run_help, flags);
    cl.nccl = &nccl;
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return ready(code ? code : CLI_MPI_HELP);
    opts.seed = (uint64_t)seed;
    bool algo_given = cli_flag_given(&cl, "--algo");
    if (spec.op == CV_OP_COUNT)
        return ready(cli_usage_error("run: --op is required; allowed: broadcast, scatter, gather, "
                                     "reduce, allgather, reducescatter, allreduce, alltoall, "
                                     "sendrecv"));
    /* Under MPI the ranks are the processes. */
    cv_mpi *world = cli_mpi_world();
    if (world && !cli_flag_given(&cl, "--ranks"))
        spec.ranks = cv_mpi_size(world);
    /* ... and the nodes are the hosts they run on, unless --nodes says */
    if (world && !cli_flag_given(&cl, "--nodes"))
        spec.nodes = cv_mpi_nodes(world);
    if (world && spec.ranks != cv_mpi_size(world))
        return ready(cli_usage_error("--ranks %d: under --backend mpi each process is one rank "
                                     "and the launcher started %d; give --ranks %d or leave it out",
                                     spec.ranks, cv_mpi_size(world), cv_mpi_size(world)));
    if (!cli_finish_spec(&cl, &spec, algo_given, CV_MAX_RANKS))
        return ready(CLI_EXIT_USAGE);
    /* A place --trace-out must not write over is refused before the run,
     * by the process that would write it. */
    char why[CV_ERR_LEN];
    if (trace_out && (!world || cv_mpi_rank(world) == 0) &&
        cv_wfile_check(trace_out, 0, why, sizeof why) != CV_OK)
        return ready(cli_usage_error("--trace-out: cannot write %s: %s", cli_esc(trace_out), why));
    const cv_backend *be = NULL;
    int rc = cli_select_backend(backend, json, &be);
    if (rc)
        return ready(rc);

    void **given = NULL; /* --input's values, checked before anything runs */
    if (input && !cli_read_inputs(input, &spec, &given))
        return ready(CLI_EXIT_USAGE);
    opts.inputs = (const void *const *)given;
    char err[CV_ERR_LEN];
    cv_plan *plan = NULL;
    if (cv_plan_create(&spec, &plan, err, sizeof err)) {
        cli_free_inputs(given, spec.ranks);
        return ready(cli_usage_error("%s", err));
    }
    /* Record every step where that is affordable; otherwise run plainly. */
    cv_trace *t = NULL;
    opts.visual = !json && spec.ranks <= CV_MAX_VISUAL_RANKS;
    if (world) {
        /* Every process decides here what cv_run would find out on its own,
         * so that none fails inside it alone while the others wait. */
        if (opts.visual && cv_visual_check(plan, err, sizeof err) == CV_ETOOBIG)
            opts.visual = false;
        rc = cv_run_check_memory(plan, be, &opts, err, sizeof err);
        if (rc)
            fprintf(stderr, "collviz: run: %s\n", err);
        char what[CV_ERR_LEN];
        run_text(&spec, &opts, input, what, sizeof what);
        rc = cli_mpi_agree(rc ? cli_exit_for(rc, be) : CLI_EXIT_OK, what);
        if (rc) {
            cv_plan_destroy(plan);
            cli_free_inputs(given, spec.ranks);
            return rc;
        }
    }
    cli_progress_begin(&opts);
    rc = cv_run(plan, be, &opts, &t, err, sizeof err);
    if (rc == CV_ETOOBIG) {
        opts.visual = false;
        rc = cv_run(plan, be, &opts, &t, err, sizeof err);
    }
    if (rc && !strcmp(backend, "auto") && cli_device_refused(rc, be)) {
        /* auto chose the device and the device cannot run this: the CPU can. */
        if (!json)
            fprintf(stderr, "collviz: %s; using the CPU backend\n", err);
        be = cv_cpu_backend();
        opts.visual = !json && spec.ranks <= CV_MAX_VISUAL_RANKS;
        rc = cv_run(plan, be, &opts, &t, err, sizeof err);
        if (rc == CV_ETOOBIG) {
            opts.visual = false;
            rc = cv_run(plan, be, &opts, &t, err, sizeof err);
        }
    }
    cli_progress_end();
    if (rc && world) { /* the others may be waiting for this process: end them all */
        char line[CV_ERR_LEN + 16];
        snprintf(line, sizeof line, "run: %s", err);
        cli_mpi_fail(line);
    }
    if (rc) {
        cv_plan_destroy(plan);
        cli_free_inputs(given, spec.ranks);
        fprintf(stderr, "collviz: run: %s\n", err);
        return cli_exit_for(rc, be);
    }
    /* Process 0 holds every result (cv_mpi.h) and alone prints and writes. */
    bool printer = !world || cv_mpi_rank(world) == 0;
    /* --json prints and --trace-out writes one document, each made as it
     * is written (emit_run_json). An output not all written is exit 2, one
     * line, whatever the run's verdict: nobody reads a cut document. */
    bool written = true;
    if (printer && json) {
        /* A document cut short leaves stdout's error set: main says so in
         * the one line every subcommand gives, and exits 2. */
        (void)print_json(t);
    } else if (printer && !json) {
        cli_print_nccl_source(stdout);
        cli_print_steps(stdout, t);
        if (world)
            print_hosts(stdout, world);
    }
    if (written && printer && trace_out)
        written = write_trace(t, trace_out);
    int64_t wrong = cv_trace_wrong(t);
    cv_trace_destroy(t);
    cv_plan_destroy(plan);
    cli_free_inputs(given, spec.ranks);
    return !written ? CLI_EXIT_USAGE : wrong ? CLI_EXIT_WRONG : CLI_EXIT_OK;
}

int cli_cmd_run(int argc, char **argv)
{
    if (!cli_mpi_requested(argc, argv))
        return run_main(argc, argv);
    int code = cli_mpi_begin();
    return code ? code : cli_mpi_end(run_main(argc, argv));
}
