/*
 * cv_spec.c: the vocabulary (ops, dtypes, redops, inits, languages), their
 * names and aliases, a spec's defaults and nodes, and NCCL's buffer sizes
 * for each op. The algorithms, their names included, are the registry's
 * (cv_algos.c), and what a valid spec is the checker's (cv_check.c): both
 * sit above this file in the order of docs/ARCHITECTURE.md.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cv_internal.h"

/* ------------------------------------------------------------------ names */

static const char *const op_names[CV_OP_COUNT] = {
    "broadcast", "scatter", "gather", "reduce", "allgather",
    "reducescatter", "allreduce", "alltoall", "sendrecv",
};
static const char *const op_titles[CV_OP_COUNT] = {
    "Broadcast", "Scatter", "Gather", "Reduce", "AllGather",
    "ReduceScatter", "AllReduce", "AllToAll", "Send/Recv",
};
static const char *const dtype_names[CV_DTYPE_COUNT] = {
    "int8", "int32", "int64", "float16", "bfloat16", "float32", "float64",
};
static const size_t dtype_sizes[CV_DTYPE_COUNT] = {1, 4, 8, 2, 2, 4, 8};
static const char *const redop_names[CV_REDOP_COUNT] = {
    "sum", "prod", "min", "max", "avg", "band", "bor", "bxor",
};
static const char *const buf_names[CV_BUF_COUNT] = {"send", "recv", "scratch"};
static const char *const init_names[CV_INIT_COUNT] = {"rank", "index", "random", "nan"};
static const char *const proto_names[CV_PROTO_COUNT] = {"simple", "ll128", "ll"};
static const char *const proto_titles[CV_PROTO_COUNT] = {"Simple", "LL128", "LL"};
static const char *const kind_names[CV_XFER_KIND_COUNT] = {"copy", "reduce", "reduce-copy"};
static const char *const prim_names[CV_PRIM_COUNT] = {
    "", "send", "recv", "copySend", "recvCopySend", "recvReduceSend", "recvReduceCopy",
    "recvReduceCopySend", "sendFromOutput",
};

const char *cv_op_name(cv_op op) { return (unsigned)op < CV_OP_COUNT ? op_names[op] : "?"; }
const char *cv_op_title(cv_op op) { return (unsigned)op < CV_OP_COUNT ? op_titles[op] : "?"; }
const char *cv_dtype_name(cv_dtype d) { return (unsigned)d < CV_DTYPE_COUNT ? dtype_names[d] : "?"; }
const char *cv_redop_name(cv_redop r) { return (unsigned)r < CV_REDOP_COUNT ? redop_names[r] : "?"; }
const char *cv_buf_name(cv_buf b) { return (unsigned)b < CV_BUF_COUNT ? buf_names[b] : "?"; }
const char *cv_init_name(cv_init i) { return (unsigned)i < CV_INIT_COUNT ? init_names[i] : "?"; }
const char *cv_xfer_kind_name(int k) { return (unsigned)k < CV_XFER_KIND_COUNT ? kind_names[k] : "?"; }
const char *cv_prim_name(int p) { return (unsigned)p < CV_PRIM_COUNT ? prim_names[p] : "?"; }

static int find_name(const char *s, const char *const *names, int n)
{
    if (!s)
        return -1;
    for (int i = 0; i < n; i++)
        if (strcasecmp(s, names[i]) == 0)
            return i;
    return -1;
}

typedef struct {
    const char *alias;
    int value;
} alias;

static int find_alias(const char *s, const alias *table)
{
    for (; table->alias; table++)
        if (strcasecmp(s, table->alias) == 0)
            return table->value;
    return -1;
}

int cv_op_parse(const char *s)
{
    static const alias aliases[] = {
        {"all-reduce", CV_OP_ALLREDUCE}, {"all_reduce", CV_OP_ALLREDUCE},
        {"all-gather", CV_OP_ALLGATHER}, {"all_gather", CV_OP_ALLGATHER},
        {"reduce-scatter", CV_OP_REDUCESCATTER}, {"reduce_scatter", CV_OP_REDUCESCATTER},
        {"all-to-all", CV_OP_ALLTOALL}, {"all_to_all", CV_OP_ALLTOALL},
        {"send-recv", CV_OP_SENDRECV}, {"send/recv", CV_OP_SENDRECV}, {"bcast", CV_OP_BROADCAST},
        {NULL, 0},
    };
    int v = find_name(s, op_names, CV_OP_COUNT);
    return v >= 0 || !s ? v : find_alias(s, aliases);
}

int cv_dtype_parse(const char *s)
{
    static const alias aliases[] = {
        {"char", CV_INT8}, {"int", CV_INT32}, {"long", CV_INT64}, {"half", CV_FLOAT16},
        {"fp16", CV_FLOAT16}, {"bf16", CV_BFLOAT16}, {"float", CV_FLOAT32}, {"fp32", CV_FLOAT32},
        {"double", CV_FLOAT64}, {"fp64", CV_FLOAT64}, {NULL, 0},
    };
    int v = find_name(s, dtype_names, CV_DTYPE_COUNT);
    return v >= 0 || !s ? v : find_alias(s, aliases);
}

int cv_redop_parse(const char *s) { return find_name(s, redop_names, CV_REDOP_COUNT); }
int cv_init_parse(const char *s) { return find_name(s, init_names, CV_INIT_COUNT); }
int cv_proto_parse(const char *s) { return find_name(s, proto_names, CV_PROTO_COUNT); }
const char *cv_proto_name(cv_proto p) { return (unsigned)p < CV_PROTO_COUNT ? proto_names[p] : "?"; }
const char *cv_proto_title(cv_proto p) { return (unsigned)p < CV_PROTO_COUNT ? proto_titles[p] : "?"; }

int cv_init_nan_rank(const cv_spec *spec) { return spec->ranks > 2 ? 2 : spec->ranks - 1; }

int cv_init_check(const cv_spec *spec, cv_init init, char *err, size_t errlen)
{
    if ((unsigned)init >= CV_INIT_COUNT) {
        snprintf(err, errlen, "unknown input pattern %d", (int)init);
        return CV_EINVAL;
    }
    if (init != CV_INIT_NAN)
        return CV_OK;
    if (!cv_dtype_is_float(spec->dtype)) {
        snprintf(err, errlen, "--init nan needs a float dtype (float16, bfloat16, float32, "
                              "float64): %s has no NaN", cv_dtype_name(spec->dtype));
        return CV_EINVAL;
    }
    if (cv_op_reduces(spec->op) && (spec->redop == CV_MIN || spec->redop == CV_MAX)) {
        snprintf(err, errlen, "--init nan with --redop %s: whether a NaN survives %s depends on "
                              "the order the reduction meets it; use sum, prod or avg",
                 cv_redop_name(spec->redop), cv_redop_name(spec->redop));
        return CV_EINVAL;
    }
    return CV_OK;
}
/* The window's and the lessons' languages. */
static const char *const lang_names[CV_LANG_COUNT] = {"en", "zh"};
const char *cv_lang_name(cv_lang l) { return (unsigned)l < CV_LANG_COUNT ? lang_names[l] : "?"; }
int cv_lang_parse(const char *s) { return find_name(s, lang_names, CV_LANG_COUNT); }

size_t cv_dtype_size(cv_dtype d) { return (unsigned)d < CV_DTYPE_COUNT ? dtype_sizes[d] : 0; }
bool cv_dtype_is_float(cv_dtype d) { return d >= CV_FLOAT16 && d <= CV_FLOAT64; }
bool cv_redop_is_bitwise(cv_redop r) { return r == CV_BAND || r == CV_BOR || r == CV_BXOR; }

bool cv_op_reduces(cv_op op)
{
    return op == CV_OP_REDUCE || op == CV_OP_ALLREDUCE || op == CV_OP_REDUCESCATTER;
}

bool cv_op_has_root(cv_op op)
{
    return op == CV_OP_BROADCAST || op == CV_OP_SCATTER || op == CV_OP_GATHER ||
           op == CV_OP_REDUCE;
}

const char *cv_strerror(int status)
{
    switch (status) {
    case CV_OK: return "ok";
    case CV_EINVAL: return "invalid argument";
    case CV_ENOMEM: return "out of memory";
    case CV_EUNAVAIL: return "backend unavailable";
    case CV_EBACKEND: return "backend failed";
    case CV_ETOOBIG: return "too large for visual mode";
    default: return "unknown error";
    }
}

/* ------------------------------------------------------------------- spec */

void cv_spec_init(cv_spec *s)
{
    memset(s, 0, sizeof *s);
    s->op = CV_OP_ALLREDUCE;
    s->algo = CV_ALGO_RING;
    s->ranks = 4;
    s->count = 8;
    s->dtype = CV_FLOAT32;
    s->redop = CV_SUM;
    s->root = 0;
    s->slices = 1;
    s->nodes = 1;
}

int cv_spec_nodes(const cv_spec *s) { return s->nodes > 1 ? s->nodes : 1; }
int cv_spec_ranks_per_node(const cv_spec *s) { return s->ranks / cv_spec_nodes(s); }
int cv_spec_node_of(const cv_spec *s, int rank) { return rank / cv_spec_ranks_per_node(s); }

int64_t cv_spec_buf_count(const cv_spec *s, cv_buf buf, int rank)
{
    int64_t n = s->ranks, c = s->count;
    bool root = rank == s->root;
    if (buf == CV_BUF_SCRATCH)
        return 0; /* the plan says how much scratch it needs */
    bool send = buf == CV_BUF_SEND;
    switch (s->op) {
    case CV_OP_BROADCAST: return send ? (root ? c : 0) : c;
    case CV_OP_SCATTER: return send ? (root ? n * c : 0) : c;
    case CV_OP_GATHER: return send ? c : (root ? n * c : 0);
    case CV_OP_REDUCE: return send ? c : (root ? c : 0);
    case CV_OP_ALLGATHER: return send ? c : n * c;
    case CV_OP_REDUCESCATTER: return send ? n * c : c;
    case CV_OP_ALLREDUCE: return c;
    case CV_OP_ALLTOALL: return n * c;
    case CV_OP_SENDRECV: return c;
    default: return 0;
    }
}

bool cv_spec_buf_used(const cv_spec *s, cv_buf buf, int rank)
{
    bool root = rank == s->root;
    if (buf == CV_BUF_SEND)
        return root || (s->op != CV_OP_BROADCAST && s->op != CV_OP_SCATTER);
    if (buf == CV_BUF_RECV)
        return root || (s->op != CV_OP_GATHER && s->op != CV_OP_REDUCE);
    return true;
}

int64_t cv_spec_result_count(const cv_spec *s, int rank)
{
    return cv_spec_buf_count(s, CV_BUF_RECV, rank);
}

bool cv_op_bench_per_rank(cv_op op)
{
    switch (op) {
    case CV_OP_ALLGATHER:
    case CV_OP_REDUCESCATTER:
    case CV_OP_ALLTOALL:
    case CV_OP_SCATTER:
    case CV_OP_GATHER: return true;
    default: return false;
    }
}

int64_t cv_spec_bench_unit(const cv_spec *s)
{
    return (int64_t)cv_dtype_size(s->dtype) * (cv_op_bench_per_rank(s->op) ? s->ranks : 1);
}

int64_t cv_spec_bench_bytes(const cv_spec *s) { return s->count * cv_spec_bench_unit(s); }

double cv_spec_busbw_factor(const cv_spec *s)
{
    double n = s->ranks;
    switch (s->op) {
    case CV_OP_ALLREDUCE: return 2.0 * (n - 1) / n;
    case CV_OP_ALLGATHER:
    case CV_OP_REDUCESCATTER:
    case CV_OP_ALLTOALL:
    case CV_OP_SCATTER:
    case CV_OP_GATHER: return (n - 1) / n;
    default: return 1.0;
    }
}
