/*
 * cv.h: the public interface of collviz's core engine (prefix cv_).
 *
 * One data flow runs through collviz: a spec (op, algorithm, ranks, count,
 * dtype, redop, root, slices) is turned by a pure plan generator into a plan,
 * a list of steps, each a set of concurrent transfers.  A backend (the
 * CPU-emulated device set here, CUDA in cuda_backend/) executes the plan step
 * by step; cv_run records what happened in an immutable trace (measured step
 * times, and in visual mode every buffer's values and the provenance mask of
 * each element).  The renderer reads traces, the cost model reads plans, and
 * nothing but a plan generator ever decides what moves where.
 *
 * This library is plain C11: no SDL, no cJSON, no CUDA.  Semantics follow
 * NCCL: buffer layouts, count conventions, root by rank, reduction ops.
 * Fallible functions return CV_OK (0) or a negative cv_status; cv_strerror
 * names it, and an `err` buffer, where a function takes one, says why.
 */
#ifndef CV_H
#define CV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- limits */

#define CV_VERSION "0.1.0"
#define CV_MAX_RANKS 1024        /* run and bench */
#define CV_MAX_VISUAL_RANKS 64   /* provenance is a 64-bit mask per element */
#define CV_MAX_SLICES 4096
#define CV_ERR_LEN 256

typedef enum {
    CV_OK = 0,
    CV_EINVAL = -1,   /* bad spec or argument: the err text says which */
    CV_ENOMEM = -2,   /* buffers would not fit in memory */
    CV_EUNAVAIL = -3, /* backend not available on this machine */
    CV_EBACKEND = -4, /* backend failed while running */
    CV_ETOOBIG = -5   /* too large to record in visual mode */
} cv_status;

const char *cv_strerror(int status);

/* Allocation for what cannot sensibly go on without it (a plan, a name,
 * a table): out of memory prints one line naming the size and ends the
 * program with exit status 2, the program's "this input is too big".
 * Large buffers sized by the user's input are not allocated this way:
 * cv_run estimates them first and returns CV_ENOMEM with the figures. */
void *cv_xmalloc(size_t n);
void *cv_xcalloc(size_t n, size_t size);
void *cv_xrealloc(void *p, size_t n);
char *cv_xstrdup(const char *s);

/* The one clock: monotonic seconds, for timing steps, runs and frames. */
double cv_now_seconds(void);

/* Files written whole or not at all (cv_file.c), by every writer in the
 * program: the file goes under a fresh temporary beside its place (made
 * with O_EXCL) and is renamed over it once flushed to disk. A place that
 * is a directory, device, FIFO, socket or symbolic link is refused before
 * anything is written; with CV_WFILE_THROUGH_LINK a link's final target
 * is written instead (the progress file). err says why without the path,
 * for "cannot write PATH: <err>". cv_wfile_destroy with keep renames the
 * file into place (CV_OK, or CV_EINVAL and err), without keep removes it. */
typedef struct cv_wfile cv_wfile;
enum { CV_WFILE_THROUGH_LINK = 1 };
int cv_wfile_check(const char *path, unsigned flags, char *err, size_t errlen);
cv_wfile *cv_wfile_create(const char *path, unsigned flags, char *err, size_t errlen);
FILE *cv_wfile_stream(cv_wfile *w);
int cv_wfile_destroy(cv_wfile *w, bool keep, char *err, size_t errlen);
/* Moves PATH aside to "PATH.TAG" (or "PATH.TAG-1", "-2", ...), never over
 * an earlier copy; the name taken in aside. */
int cv_file_set_aside(const char *path, const char *tag, char *aside, size_t asidelen, char *err,
                      size_t errlen);

/* ------------------------------------------------------------ vocabulary */

typedef enum {
    CV_OP_BROADCAST,
    CV_OP_SCATTER,
    CV_OP_GATHER,
    CV_OP_REDUCE,
    CV_OP_ALLGATHER,
    CV_OP_REDUCESCATTER,
    CV_OP_ALLREDUCE,
    CV_OP_ALLTOALL,
    CV_OP_SENDRECV,
    CV_OP_COUNT
} cv_op;

typedef enum {
    CV_ALGO_DIRECT,
    CV_ALGO_RING,
    CV_ALGO_TREE,
    CV_ALGO_RECURSIVE_DOUBLING,
    CV_ALGO_RECURSIVE_HALVING,
    CV_ALGO_RABENSEIFNER,
    CV_ALGO_BRUCK,
    CV_ALGO_PAIRWISE,
    CV_ALGO_DOUBLE_TREE,       /* NCCL's tree: two complementary binary trees, pipelined */
    CV_ALGO_SCATTER_ALLGATHER, /* van de Geijn's broadcast for long messages */
    CV_ALGO_HIERARCHICAL,      /* intra-node reduce-scatter, inter-node allreduce, intra-node allgather */
    CV_ALGO_MULTIRING,         /* NCCL's flat ring, one channel per GPU of a node */
    CV_ALGO_IN_NETWORK,        /* NVLS/SHARP: the switch reduces and multicasts */
    CV_ALGO_ONE_SHOT,          /* every rank reads every peer's whole buffer and reduces it */
    CV_ALGO_TWO_SHOT,          /* a direct reduce-scatter, then a direct all-gather */
    CV_ALGO_PAT,               /* NCCL's parallel aggregated trees: log2 N rounds, far first */
    CV_ALGO_NVLS_TREE,         /* NVLS inside each node, NCCL's double tree between nodes */
    CV_ALGO_COLLNET_DIRECT,    /* every GPU a head: direct inside the node, SHARP between nodes */
    CV_ALGO_COLLNET_CHAIN,     /* a chain inside the node, SHARP between nodes */
    CV_ALGO_COUNT
} cv_algo;

typedef enum {
    CV_INT8,
    CV_INT32,
    CV_INT64,
    CV_FLOAT16,
    CV_BFLOAT16,
    CV_FLOAT32,
    CV_FLOAT64,
    CV_DTYPE_COUNT
} cv_dtype;

typedef enum {
    CV_SUM,
    CV_PROD,
    CV_MIN,
    CV_MAX,
    CV_AVG,
    CV_BAND,
    CV_BOR,
    CV_BXOR,
    CV_REDOP_COUNT
} cv_redop;

/* Each rank (virtual device) owns three buffers.  SEND and RECV follow
 * NCCL's layouts for the op; SCRATCH is whatever the algorithm needs
 * (plan->scratch_count elements). A plan never writes a SEND buffer, so a
 * plan can be executed again and again on the same inputs. */
typedef enum { CV_BUF_SEND, CV_BUF_RECV, CV_BUF_SCRATCH, CV_BUF_COUNT } cv_buf;

/* How inputs are filled: rank r's element i is r+1 (RANK), r*100 + i
 * (INDEX), small integers drawn from the seed (RANDOM), or INDEX's values
 * with one NaN at element 0 of rank 2 (the last rank below 3 ranks): what
 * one bad value does to a collective (NAN; float dtypes, and not with min
 * or max, see cv_init_check). */
typedef enum { CV_INIT_RANK, CV_INIT_INDEX, CV_INIT_RANDOM, CV_INIT_NAN, CV_INIT_COUNT } cv_init;

/* NCCL's protocols, how a step's bytes travel; the cost model prices them
 * (cv_cost.c, docs/MODEL.md), the values are the same under each. Simple
 * sends the data as it is and fences once a step: the whole bandwidth, the
 * most latency. LL128 stores 128-byte lines, 120 bytes of data and 8 of
 * flags: 120/128 of the bandwidth, less latency. LL stores 8 bytes at a
 * time, 4 of data and a 4-byte flag the receiver polls: half the
 * bandwidth, the least latency. */
typedef enum { CV_PROTO_SIMPLE, CV_PROTO_LL128, CV_PROTO_LL, CV_PROTO_COUNT } cv_proto;

/* The languages the window and the lessons speak: one enum for both, so a
 * lesson's language is the renderer's without a cast. */
typedef enum { CV_LANG_EN, CV_LANG_ZH, CV_LANG_COUNT } cv_lang;

const char *cv_op_name(cv_op op);          /* "allreduce" */
const char *cv_op_title(cv_op op);         /* "AllReduce" */
const char *cv_algo_name(cv_algo algo);    /* "recursive-doubling" */
const char *cv_dtype_name(cv_dtype dtype); /* "float32" */
const char *cv_redop_name(cv_redop redop); /* "sum" */
const char *cv_buf_name(cv_buf buf);       /* "send" */
const char *cv_init_name(cv_init init);    /* "index" */
const char *cv_xfer_kind_name(int kind);   /* "copy", "reduce", "reduce-copy" */
const char *cv_lang_name(cv_lang lang);    /* "en", "zh" */
/* Parse by name (aliases accepted: "float" for float32, "half", "bf16",
 * "double", ...). Return -1 when unknown. */
int cv_op_parse(const char *s);
int cv_algo_parse(const char *s);
int cv_dtype_parse(const char *s);
int cv_redop_parse(const char *s);
int cv_init_parse(const char *s);
const char *cv_proto_name(cv_proto proto); /* "simple", "ll128", "ll" */
const char *cv_proto_title(cv_proto proto); /* "Simple", "LL128", "LL" */
int cv_proto_parse(const char *s);
int cv_lang_parse(const char *s);

size_t cv_dtype_size(cv_dtype dtype);
bool cv_dtype_is_float(cv_dtype dtype);
bool cv_redop_is_bitwise(cv_redop redop);

/* ------------------------------------------------------------ algorithms */

/* Everything about an algorithm is one row of the registry
 * (collectives/cv_algos.c): its name, which op offers it, its plan
 * generator, its textbook round and byte formulas, the shape the stage
 * draws it in and the narration that explains it. The functions below read
 * that row; nothing else in the program decides by algorithm. */

/* The algorithms an op offers, default first; returns how many. */
int cv_op_algos(cv_op op, cv_algo out[CV_ALGO_COUNT]);
bool cv_op_has_algo(cv_op op, cv_algo algo);
/* Whether the op's algorithm reads spec->root (the rooted ops, and the
 * direct allreduce's parameter server) or spec->slices (the pipelines). */
bool cv_algo_uses_root(cv_op op, cv_algo algo);
bool cv_algo_uses_slices(cv_op op, cv_algo algo);
/* Whether its plan depends on spec->nodes (hierarchical, multi-ring);
 * every plan's cost does. */
bool cv_algo_uses_nodes(cv_op op, cv_algo algo);
/* Whether its plan follows a ring or trees given with the spec (spec.topo,
 * an NCCL log's channel): ring and double-tree do; the others build their
 * own pattern over the same ranks. */
bool cv_algo_follows_topology(cv_op op, cv_algo algo);
/* The protocol the algorithm runs with when wanted is asked for: wanted,
 * or Simple where NCCL has kernels for the algorithm with Simple alone
 * (PAT, NVLS, NVLS-Tree, CollNet: tuning.cc and their device code). */
cv_proto cv_algo_proto(cv_op op, cv_algo algo, cv_proto wanted);
bool cv_op_reduces(cv_op op); /* takes a redop: reduce, allreduce, reducescatter */
bool cv_op_has_root(cv_op op); /* broadcast, scatter, gather, reduce */

/* The shape of an algorithm's traffic, as the stage arranges its ranks:
 * a renderer switches on the shape, never on the algorithm. */
typedef enum {
    CV_STAGE_NONE,        /* not an algorithm the op offers */
    CV_STAGE_RING,        /* each rank sends to its neighbour round a ring */
    CV_STAGE_CHAIN,       /* a pipeline from the root down a chain of ranks */
    CV_STAGE_TREE,        /* a binomial tree: levels under the root */
    CV_STAGE_DOUBLE_TREE, /* two complementary binary trees (NCCL) */
    CV_STAGE_HYPERCUBE,   /* partners 2^k apart (recursive doubling, halving, Bruck) */
    CV_STAGE_STAR,        /* one rank (the root, a server) with every other */
    CV_STAGE_ALL_PAIRS,   /* every rank with every other */
    CV_STAGE_SWITCH,      /* a star through a switch (in-network reduction) */
    CV_STAGE_NODES,       /* a node a row: rings, chains, switches inside nodes, links between */
    CV_STAGE_COUNT
} cv_stage_shape;

cv_stage_shape cv_algo_stage_shape(cv_op op, cv_algo algo); /* CV_STAGE_NONE if not offered */
const char *cv_stage_shape_name(cv_stage_shape shape);      /* "double-tree" */
/* What the algorithm does for the op, in a paragraph: what moves in a
 * step, how many steps, what a link carries; "" where the op does not
 * offer it. The window's narration panel shows it. */
const char *cv_algo_narration(cv_op op, cv_algo algo, cv_lang lang);

/* ------------------------------------------------------------------ spec */

/* count follows NCCL: broadcast, reduce, allreduce, sendrecv: elements of
 * the buffer; allgather: sendcount (elements each rank contributes);
 * reducescatter: recvcount (elements each rank ends with); alltoall: the
 * count exchanged with each peer; scatter, gather: the count per rank. */
typedef struct {
    cv_op op;
    cv_algo algo;
    int ranks;
    int64_t count;
    cv_dtype dtype;
    cv_redop redop;
    int root;
    int slices; /* pipelined ring broadcast and chain reduce: pieces */
    int nodes;  /* the ranks split into this many nodes of N/nodes ranks (0 or 1: one node) */
    const struct cv_topology *topo; /* a ring and trees from outside, or NULL */
    cv_proto proto; /* NCCL's protocol the cost model prices (0: simple) */
} cv_spec;

/* A ring and trees taken from outside (an NCCL log's channel, read by
 * app/ncclog) instead of the ones the algorithms build for themselves: the
 * ring algorithms (ring allreduce, allgather and reducescatter, the
 * broadcast and reduce chains) send along `ring`, and NCCL's double binary
 * tree uses `parent` for its two trees. A spec only points at one; the
 * caller keeps it until cv_plan_create returns, and the plan keeps a copy. */
typedef struct cv_topology {
    int ranks;
    bool has_ring;
    int32_t ring[CV_MAX_RANKS];      /* a permutation of the ranks: the order data travels */
    bool has_trees;
    int32_t parent[2][CV_MAX_RANKS]; /* tree t: each rank's parent, -1 at the one root;
                                        at most three children each */
} cv_topology;

/* CV_OK, or CV_EINVAL saying what is wrong (a ring that is no permutation,
 * a tree with a cycle, two roots or a rank of four children). */
int cv_topology_check(const cv_topology *t, char *err, size_t errlen);

/* Defaults: allreduce, ring, 4 ranks, 8 elements, float32, sum, root 0,
 * 1 slice, 1 node. */
void cv_spec_init(cv_spec *spec);
/* CV_OK, or CV_EINVAL with a one-line reason in err naming the field and
 * what is allowed. max_ranks is CV_MAX_RANKS or CV_MAX_VISUAL_RANKS. */
int cv_spec_check(const cv_spec *spec, int max_ranks, char *err, size_t errlen);

/* Whether init can fill spec's inputs: NAN needs a float dtype, and not a
 * min or max reduction (whether a NaN survives min or max depends on the
 * order the reduction meets it, so no one result is right). CV_OK, or
 * CV_EINVAL with a one-line reason in err. */
int cv_init_check(const cv_spec *spec, cv_init init, char *err, size_t errlen);
/* The rank whose element 0 CV_INIT_NAN makes a NaN. */
int cv_init_nan_rank(const cv_spec *spec);
/* Two-level topology: how many nodes (at least 1), how many ranks each
 * holds, and the node of a rank (ranks r*L .. r*L+L-1 share node r, L the
 * ranks per node). Transfers between nodes cross the network. */
int cv_spec_nodes(const cv_spec *spec);
int cv_spec_ranks_per_node(const cv_spec *spec);
int cv_spec_node_of(const cv_spec *spec, int rank);

/* Elements in buffer `buf` of `rank` (0 where NCCL leaves it unused, such as
 * a non-root's recv in reduce and gather or send in broadcast and scatter). */
int64_t cv_spec_buf_count(const cv_spec *spec, cv_buf buf, int rank);
/* Whether NCCL uses buffer `buf` on `rank` at all: false for a non-root's
 * send buffer in broadcast and scatter and its receive buffer in gather and
 * reduce (where NCCL leaves them unused), true otherwise, even when the
 * buffer holds 0 elements. */
bool cv_spec_buf_used(const cv_spec *spec, cv_buf buf, int rank);
/* Where the op's result lives on `rank`: the region of RECV the reference
 * defines (count 0 where the rank has no result). */
int64_t cv_spec_result_count(const cv_spec *spec, int rank);
/* nccl-tests' convention: the size column in bytes, and the bus bandwidth
 * factor of doc/PERFORMANCE.md. */
int64_t cv_spec_bench_bytes(const cv_spec *spec);
/* Whether that size counts every rank's share (AllGather, ReduceScatter,
 * AllToAll, Scatter, Gather) rather than one buffer's. */
bool cv_op_bench_per_rank(cv_op op);
/* The size at count 1, so a size in bytes is count x this: the element
 * size, times the rank count where the size counts every rank's share. A
 * size that is not a multiple of it names no count. */
int64_t cv_spec_bench_unit(const cv_spec *spec);
double cv_spec_busbw_factor(const cv_spec *spec);

/* ------------------------------------------------------------------ plan */

/* What a transfer does with what it moves. REDUCE_COPY is NCCL's
 * recvReduceCopy: the receiver reduces the incoming chunk with its own
 * data (the `local` operand, a region on the dst rank, often its SEND
 * buffer) and writes the result elsewhere, so no step has to copy a rank's
 * input into place before the first reduction. */
typedef enum {
    CV_XFER_COPY,        /* dst = src */
    CV_XFER_REDUCE,      /* dst = dst (redop) src */
    CV_XFER_REDUCE_COPY, /* dst = local (redop) src; local lies on rank dst, apart from dst */
    CV_XFER_KIND_COUNT
} cv_xfer_kind;

/* NCCL's device primitives (src/device/prims_*.h), named as NCCL's
 * collective kernels call them (all_reduce.h, all_gather.h, ...), without
 * the `direct` prefix of their zero-copy variants. A transfer of an
 * algorithm NCCL runs carries the primitive its sender executes and the one
 * its receiver executes: in ring allreduce, round t's transfer leaves in
 * the sender's t-th call and lands in the receiver's (t+1)-th. */
typedef enum {
    CV_PRIM_NONE,               /* not an algorithm NCCL runs */
    CV_PRIM_SEND,               /* send its input */
    CV_PRIM_RECV,               /* receive into its output, the last hop */
    CV_PRIM_COPY_SEND,          /* copy its input to its output and send it */
    CV_PRIM_RECV_COPY_SEND,     /* receive into its output and pass it on */
    CV_PRIM_RECV_REDUCE_SEND,   /* reduce what arrives with its input, pass it on */
    CV_PRIM_RECV_REDUCE_COPY,   /* reduce what arrives with its input into its output */
    CV_PRIM_RECV_REDUCE_COPY_SEND, /* ... and pass the result on */
    CV_PRIM_SEND_FROM_OUTPUT,   /* send what its output holds (tree root, going down) */
    CV_PRIM_COUNT
} cv_prim;

const char *cv_prim_name(int prim); /* "recvReduceSend"; "" for CV_PRIM_NONE */

/* Transfer flags. FINISH marks the write that completes the reduction of
 * its elements (every rank's contribution is in): the redop's
 * post-operation applies there, as NCCL applies its postOp when it stores
 * the reduced value; for integer avg that is the division by the rank
 * count. Copies made afterwards carry the finished value. */
enum { CV_XFER_FINISH = 1 };

typedef struct {
    int32_t src, dst;         /* ranks; equal for a local operation */
    uint8_t src_buf, dst_buf; /* cv_buf */
    uint8_t kind;             /* cv_xfer_kind */
    uint8_t local_buf;        /* REDUCE_COPY: the receiver's own operand (cv_buf) */
    uint8_t flags;            /* CV_XFER_FINISH */
    uint8_t prim_send;        /* cv_prim the sender executes (local part: its copy) */
    uint8_t prim_recv;        /* cv_prim the receiver executes; NONE for a local copy */
    uint8_t pad_[5];
    int64_t src_off, dst_off; /* elements */
    int64_t local_off;        /* REDUCE_COPY: elements into local_buf of rank dst */
    int64_t count;            /* elements, > 0 */
} cv_transfer;

/* A step is what a backend runs at once: a set of concurrent transfers.
 * A step that moves data between ranks is a communication round, the
 * textbook's unit (ring allreduce: 2(N-1) of them). Where an algorithm
 * must stage (MPICH's recursive doubling receives into a temporary buffer,
 * then reduces), the purely local work is a step of its own that belongs
 * to the round before it (or, before any communication, to round 1): a
 * sub-phase of that round, never a round of its own. */
typedef struct {
    int64_t first;     /* index into plan->transfers */
    int64_t count;     /* transfers in this step */
    const char *phase; /* static string: "reduce-scatter", "all-gather", ... */
    int round;         /* 1-based round it belongs to; 0 in a plan with no communication */
    bool local;        /* moves nothing between ranks: a sub-phase of its round */
    /* Its transfers are loads each receiver issues at once from its peers'
     * memory (one kernel over NVLink or IPC, as one-shot and two-shot
     * AllReduce read), not messages started one after another: the cost
     * model charges each port one alpha for them, however many peers. */
    bool loads;
} cv_step;

typedef struct cv_plan_ {
    cv_spec spec;
    int64_t scratch_count; /* elements of SCRATCH per rank */
    /* In-network reduction adds switches to the plan: participants
     * spec.ranks onwards, with no input or result of their own, only a
     * SCRATCH of switch_scratch elements each where they reduce. One switch
     * is the network's (or the one node's); several are one per node, the
     * NVSwitch of node j being participant spec.ranks + j. Backends, the
     * trace and the checks give every participant buffers (cv_plan_parts). */
    int nswitch;
    int64_t switch_scratch;
    int nsteps;
    cv_step *steps;
    int nrounds; /* steps that move data between ranks: the communication rounds */
    int64_t ntransfers;
    cv_transfer *transfers;
    int cap_steps_;
    int64_t cap_transfers_;
    cv_topology *topo_; /* the plan's copy of spec.topo; spec.topo points here */
    /* A streamed plan (cv__plan_create_streamed): each step goes to sink_
     * as it closes, with its transfers, which are then dropped. */
    void (*sink_)(const struct cv_plan_ *p, const cv_step *st, void *ctx);
    void *sink_ctx_;
    /* Where the sink also takes a step as its traffic per port (the cost
     * model: cv__plan_ports), those sums; NULL otherwise. */
    struct cv__ports *ports_;
} cv_plan;

/* Elements in buffer `buf` of participant `rank` while the plan runs: the
 * spec's buffer sizes (cv_spec_buf_count), plan->scratch_count for
 * SCRATCH; a switch has only its SCRATCH. */
int64_t cv_plan_buf_count(const cv_plan *plan, cv_buf buf, int rank);
/* Participants: the ranks, and the switches of an in-network plan after them. */
int cv_plan_parts(const cv_plan *plan);
/* The node a participant sits in; a plan's one switch between several
 * nodes is the network's (-1, apart from every node), one inside a single
 * node is that node's (NVSwitch); of a switch a node, switch j is node j's. */
int cv_plan_node_of(const cv_plan *plan, int part);

/* Builds the plan for a spec (checked with cv_spec_check against
 * CV_MAX_RANKS). Out of memory is fatal. */
int cv_plan_create(const cv_spec *spec, cv_plan **out, char *err, size_t errlen);
void cv_plan_destroy(cv_plan *plan); /* accepts NULL */

/* Structural checks: ranks, buffers and ranges in bounds; counts > 0; no
 * SEND buffer written; a REDUCE_COPY's local operand on the receiver and
 * apart from its destination; within a step no transfer reads (source or
 * local operand) or writes a region that another transfer of that step
 * writes; nothing read before it is written; every result element written;
 * FINISH only on reductions. */
int cv_plan_validate(const cv_plan *plan, char *err, size_t errlen);

/* Provenance by simulation: the 64-bit masks of every buffer after each
 * step (ranks <= 64). copy: mask(dst) = mask(src); reduce: mask(dst) |=
 * mask(src); reduce-copy: mask(dst) = mask(local) | mask(src); SEND of rank
 * r starts as {r}, others empty. Checks that each result element ends with
 * the mask the op's semantics demand, and, for the ops that reduce, that
 * each is finished exactly once: a FINISH write holds every rank, and no
 * finished value is reduced again. */
int cv_plan_check_provenance(const cv_plan *plan, char *err, size_t errlen);

/* Bytes a rank sends to other ranks, in the whole plan (local copies are
 * not counted). */
int64_t cv_plan_bytes_sent(const cv_plan *plan, int rank);
/* The transfer of `step` that writes element idx of rank's buffer buf, or
 * NULL (a step's writes never overlap, so there is at most one). */
const cv_transfer *cv_plan_writer(const cv_plan *plan, int step, int rank, cv_buf buf,
                                  int64_t idx);
/* "send -> recvReduceSend" for a transfer of an algorithm NCCL runs, "" for
 * others; returns the length. */
int cv_transfer_prims_text(const cv_transfer *t, char *out, size_t len);

/* Steps that move bytes between ranks: plan->nrounds. */
int cv_plan_comm_steps(const cv_plan *plan);
/* The textbook's round count for the plan's algorithm at its rank count
 * (and slices), and the formula it comes from, such as "2(N-1)" or
 * "floor(log2 N)+2" (MPICH's fold and unfold for a rank count that is not
 * a power of two). A plan whose chunks are all non-empty has exactly this
 * many rounds; with fewer elements than chunks, rounds that would move
 * nothing are left out. One rank communicates in no round: 0, "0". */
int cv_plan_textbook_rounds(const cv_plan *plan, char *formula, size_t len);
/* The bytes the textbook's beta term counts for the spec's algorithm
 * (through the busiest port, summed over the rounds), and its formula in D,
 * the op's size in nccl-tests' convention (cv_spec_bench_bytes): such as
 * "2(N-1)/N·D" for ring allreduce (UTF-8). 0 and "" where the textbook
 * quotes no such figure: one rank, no data, a count the formula's chunks do
 * not divide, a rank count the algorithm pads, or an algorithm whose row
 * says it has none. The window's caption shows it beside the measured
 * figure where the two agree. */
int64_t cv_spec_textbook_bytes(const cv_spec *spec, char *formula, size_t len);
/* "14 steps = 2(N-1)", or where empty chunks left rounds out "3 steps
 * (2(N-1) = 14 with every chunk non-empty)"; returns the length. The step
 * count a learner sees is always the round count. */
int cv_plan_rounds_text(const cv_plan *plan, char *out, size_t len);
/* Bytes the plan's transfers must read and write in memory: a copy reads
 * and writes its bytes (2x), a reduce or reduce-copy reads both operands
 * and writes one (3x). A memory-bound backend cannot run the plan faster
 * than this over its memory bandwidth. */
int64_t cv_plan_memory_bytes(const cv_plan *plan);

/* ------------------------------------------------------------------ cost */

/* alpha-beta-gamma: each step with traffic costs alpha per message through
 * its busiest port (the most messages one rank sends or receives in the
 * step; a message is what one rank sends one other rank in a step), plus
 * the bytes through the busiest port (one rank's sends or receives in that
 * step, whichever is larger) divided by bw, plus the bytes reduced at the
 * busiest rank divided by gamma (0 = free). A ring step pays one alpha; a
 * root sending N-1 messages at once through its one port pays N-1, as a
 * linear algorithm does in Thakur, Rabenseifner & Gropp. bw and gamma in
 * bytes per second, alpha in seconds. */
/* The kind of hardware a link is, which sets how each protocol's latency
 * compares with Simple's on it. */
typedef enum { CV_HW_NVLINK, CV_HW_PCI, CV_HW_NET } cv_hw;

typedef struct {
    const char *name;  /* preset name, or NULL for --bw */
    double bw;         /* bytes/s, one direction of one link */
    double alpha;      /* s, per step with the Simple protocol */
    double gamma;      /* bytes/s of reduction, 0 = not modelled */
    const char *about; /* one line: what the preset stands for */
    cv_hw hw;          /* NVLink (also --bw's), PCIe or a network */
} cv_link;

/* What a protocol costs on a link, as the cost model charges it: the share
 * of the bandwidth that carries data (1, 120/128, 1/2), and alpha's
 * multiplier (1 for Simple; for LL128 and LL the ratio of NCCL's per-hop
 * ring latencies to Simple's on that kind of hardware). */
double cv_proto_data_share(cv_proto proto);
double cv_proto_latency_share(cv_proto proto, const cv_link *link);

/* The link presets, one row each (cv_cost.c): the only list of them. Help
 * texts, messages, `collviz list` and the README's list are made from it. */
int cv_link_presets(const cv_link **out); /* returns how many */
const cv_link *cv_link_find(const char *name);
/* The presets' names in the table's order joined by sep ("nvlink3|nvlink4|
 * ..."); returns the length the whole list needs, as snprintf does. */
int cv_link_names(const char *sep, char *out, size_t len);

typedef struct {
    double seconds;        /* model time of the whole plan */
    int steps;             /* communication rounds of the plan (plan->nrounds) */
    int comm_steps;        /* rounds that move bytes between ranks: the same */
    int64_t max_sent;      /* bytes sent by the busiest rank, whole plan */
    int64_t busiest_total; /* sum over steps of the busiest port's bytes */
    int64_t alphas;        /* sum over steps of the slowest port's messages: alpha's multiplier */
    int inter_rounds;      /* rounds in which some transfer crosses between nodes */
    int64_t max_sent_inter; /* bytes the busiest NIC sends to other nodes, whole plan */
    double algbw, busbw;   /* bytes/s, nccl-tests definitions */
} cv_cost;

void cv_cost_plan(const cv_plan *plan, const cv_link *link, cv_cost *out);
/* Per-step model: time and bytes through the busiest port. */
double cv_cost_step(const cv_plan *plan, int step, const cv_link *link, int64_t *busiest_bytes);
/* The two-level model, for a spec with nodes: every rank has a port into
 * its node (intra: NVLink, PCIe) and one out of it (inter: its NIC), each
 * charged on its own link; a step lasts as long as its slowest port
 * (alpha per message plus bytes over bandwidth). With one node, or inter
 * NULL, it is cv_cost_plan on intra. */
void cv_cost_plan_nodes(const cv_plan *plan, const cv_link *intra, const cv_link *inter,
                        cv_cost *out);
double cv_cost_step_nodes(const cv_plan *plan, int step, const cv_link *intra,
                          const cv_link *inter, int64_t *busiest_bytes);

/* The cost model of a spec without its plan: the plan is generated a step
 * at a time and each step kept as what pricing reads of it (its ports'
 * messages and bytes), never the transfers: a 1024-rank multi-ring
 * allreduce is 67 million transfers, 3 GB as a plan. Prices exactly as
 * cv_cost_plan_nodes and cv_cost_step_nodes price the whole plan
 * (test_cost_model compares them for every op and algorithm).
 * cv_cost_model_plan gives the spec and the steps (phase, round, local,
 * loads) and nrounds; it has no transfers. */
typedef struct cv_cost_model cv_cost_model;
int cv_cost_model_create(const cv_spec *spec, cv_cost_model **out, char *err, size_t errlen);
void cv_cost_model_destroy(cv_cost_model *m); /* accepts NULL */
const cv_plan *cv_cost_model_plan(const cv_cost_model *m);
/* cv_cost_model_create refuses (CV_ENOMEM, one line from
 * cv_memory_check) a spec whose pricing would need more memory than
 * cv_memory_available: the figures it holds (its ports, steps and the
 * largest step's transfers) are counted as the plan is generated, and a
 * step that would pass the limit keeps no transfers, only their number. */
/* cv_cost_plan_nodes of the plan with its spec's proto set to proto. */
void cv_cost_model_price(const cv_cost_model *m, cv_proto proto, const cv_link *intra,
                         const cv_link *inter, cv_cost *out);
/* cv_cost_step_nodes of the plan. */
double cv_cost_model_step(const cv_cost_model *m, int step, const cv_link *intra,
                          const cv_link *inter, int64_t *busiest_bytes);

/* ---------------------------------------------------- the reference card */

/* One op and algorithm on the reference card (cv_card.c). */
typedef struct {
    cv_op op;
    cv_algo algo;
    char rounds_f[48]; /* the textbook's round count: "2(N-1)", "ceil(log2 N)"; "-" none */
    int rounds;        /* its value at the card's rank count */
    char bytes_f[64];  /* bytes its beta term counts per rank: "2(N-1)/N·D"; "" none */
    int64_t bytes;     /* their value at the card's size; 0 where the textbook quotes none */
    int64_t bytes_d;   /* D: the size the row was priced at (a whole number of elements) */
    double time_s;     /* rounds x alpha + bytes / bandwidth on the link; < 0 where unknown */
} cv_card_row;

/* Every op's algorithms, default first, at ranks and about bytes of D (a
 * whole number of float32 elements per rank where the op splits by rank),
 * priced on link (may be NULL: no times). Returns the rows written. */
int cv_card_rows(int ranks, int64_t bytes, const cv_link *link, cv_card_row *out, int max);

/* Parses "1610612736", "1.6GB", "512MiB", "64M", "8k" (k, M, G, T are powers
 * of 1024 as in nccl-tests; kB, MB, GB, TB powers of 1000; KiB, MiB, GiB,
 * TiB powers of 1024). CV_OK; CV_ETOOBIG for a size beyond 2^63 bytes
 * (it is a size, only out of any range); CV_EINVAL for what is not one. */
int cv_parse_size(const char *s, int64_t *bytes);

/* --------------------------------------------------------------- backend */

/* Memory bandwidth in bytes read plus written per second, for the two
 * kinds of work a plan does: copying, and reducing in place (dst += src,
 * float32). A device that only measures copies gives both the same. */
typedef struct {
    double copy, reduce;
} cv_membw;

/* A backend executes plans. Each function returns CV_OK or a negative
 * status and writes a reason into err. The table is filled by the CPU
 * backend (cv_cpu_backend) and the CUDA backend (cuda_backend/). */
typedef struct {
    const char *name;
    /* CV_OK if usable here; otherwise CV_EUNAVAIL and why. */
    int (*probe)(char *err, size_t errlen);
    int (*open)(const cv_plan *plan, void **state, char *err, size_t errlen);
    int (*write)(void *state, int rank, cv_buf buf, int64_t off, int64_t count,
                 const void *src, char *err, size_t errlen);
    /* Runs every transfer of plan step `step` and waits for them; seconds is
     * the step's measured duration. */
    int (*run_step)(void *state, int step, double *seconds, char *err, size_t errlen);
    int (*read)(void *state, int rank, cv_buf buf, int64_t off, int64_t count, void *dst,
                char *err, size_t errlen);
    void (*close)(void *state); /* accepts NULL */
    /* Optional (NULL: cv_run calls run_step for each step). Runs every step
     * of the plan in order and waits once, at the end; step_seconds[k] gets
     * step k's duration. A device backend orders the steps on the device
     * itself, so no host round trip sits between them; cv_run uses this
     * when it records no per-step snapshots (bench mode). */
    int (*run_all)(void *state, double *step_seconds, char *err, size_t errlen);
    /* Optional (NULL: no bound). The memory bound `collviz bench` shows
     * beside each row, as the backend's memory sees it. membw measures now
     * the bandwidth the backend's own copies and reductions reach (best of
     * reps passes over buffers of `bytes`); plan_bound gives the bytes the
     * plan moves through that memory (*traffic) and the least time they
     * take at bw. bound_about says in a line how the bound is reckoned. */
    int (*membw)(int64_t bytes, int reps, cv_membw *bw, char *err, size_t errlen);
    double (*plan_bound)(const cv_plan *plan, const cv_membw *bw, double *traffic);
    const char *bound_about;
    /* Optional (NULL: none to speak of). The host memory open() allocates
     * for plan, so cv_run can refuse a run that would not fit before it
     * starts (a device backend checks its own memory in open). */
    int64_t (*host_bytes)(const cv_plan *plan);
    /* Optional (NULL: none). Rank's buffer buf where the backend keeps it
     * in host memory, valid until close. A run that keeps no values
     * (cv_run_opts.discard) fills the inputs into it and checks the
     * results where they lie, instead of copying both in and out. */
    void *(*view)(void *state, int rank, cv_buf buf);
    /* Optional (NULL: every rank is here). For a backend whose processes
     * each hold some of the ranks (MPI: cv_mpi.h), cv_run is called on
     * every process alike, and this says whether rank's buffers are this
     * process's. Each process then fills, writes and keeps only its own
     * ranks' inputs and reads back only its own ranks' buffers, except the
     * process holding rank 0, which keeps every input and reads every
     * buffer (read of a rank held elsewhere is then the backend's
     * collective: the holder sends, it receives) and alone verifies;
     * elsewhere the trace's wrong count is 0. */
    bool (*holds)(void *state, int rank);
} cv_backend;

const cv_backend *cv_cpu_backend(void);

/* Bytes a run may take now: the least of MemAvailable, the cgroup's limit
 * less its usage and $COLLVIZ_MEMORY_LIMIT (physical memory where none can
 * be read); source names which one it was. */
int64_t cv_memory_available(char *source, size_t sourcelen);
/* COLLVIZ_MEMORY_LIMIT read: CV_OK with *bytes its value, or -1 when it is
 * not set; CV_EINVAL with a line saying what is allowed when it is set to
 * anything but a size above 0 (the program refuses to start then: a limit
 * that silently does not apply is worse than none). */
int cv_memory_limit_env(int64_t *bytes, char *err, size_t errlen);
/* Every buffer of every participant of plan, in bytes (the CPU backend's
 * host_bytes). */
int64_t cv_plan_host_buffer_bytes(const cv_plan *plan);
/* Worker threads the CPU backend uses (at least the core count). */
int cv_cpu_threads(void);
/* The last-level cache in bytes (what the CPU backend sizes its choices
 * by: a step writing more streams its stores; a plan whose buffers fit in
 * twice this has no memory bound). */
int64_t cv_cpu_llc_bytes(void);
/* The least time memory of bandwidth bw needs for the bytes the plan's
 * transfers read and write (cv_plan_memory_bytes, split by kind). */
double cv_plan_memory_seconds(const cv_plan *plan, const cv_membw *bw);

/* ---------------------------------------------------------------- values */

/* Fills rank's SEND buffer as the init asks: rank: every element is rank+1;
 * index: rank*100 + i; random: seeded, small integers (and, for the ops
 * that reduce with prod, values near 1) so every dtype represents them.
 * An op that does not reduce ignores the redop: its inputs are the same
 * whatever --redop says. */
void cv_fill_input(const cv_spec *spec, cv_init init, uint64_t seed, int rank, void *dst);
double cv_value_get(cv_dtype dtype, const void *base, int64_t i);
/* Stores v as element i, rounded to a float dtype (to nearest even) or
 * converted to an integer one (truncated, wrapping). */
void cv_value_set(cv_dtype dtype, void *base, int64_t i, double v);
/* Formats element i compactly ("-3", "0.25", "12048", "1.5e+07"): whole
 * numbers below 10^7 in full, floats otherwise to 4 digits; returns length. */
int cv_value_format(cv_dtype dtype, const void *base, int64_t i, char *out, size_t outlen);
/* Formats element i exactly, for programs: integers in full; floats as the
 * shortest decimal that reads back (as a double) to the element's exact
 * value, so a float16 99.9375 stays 99.9375 and float64 values one ulp
 * apart stay apart; non-finite floats as "nan", "inf" and "-inf". Returns
 * the length; *is_number says whether the text is a JSON number. */
int cv_value_format_exact(cv_dtype dtype, const void *base, int64_t i, char *out, size_t outlen,
                          bool *is_number);

/* The op's semantics written as plainly as possible: from every rank's
 * SEND contents, the expected RECV result region of each rank. inputs[r]
 * and expected[r] are arrays of the dtype (expected[r] holds
 * cv_spec_result_count elements). */
void cv_reference(const cv_spec *spec, const void *const *inputs, void **expected);
/* Result elements, over all ranks, that differ from cv_reference beyond
 * the dtype's tolerance: integers exactly; floats within a bound from the
 * rank count, machine epsilon and the inputs' magnitudes; where the exact
 * result overflows the dtype, any overflowed value is accepted. outputs[r]
 * is rank r's RECV buffer (NULL where unused). */
int64_t cv_verify(const cv_spec *spec, const void *const *inputs, const void *const *outputs);

/* ----------------------------------------------------------------- trace */

typedef struct {
    cv_init init;
    uint64_t seed;
    /* The inputs to use instead of init's: inputs[r] holds rank r's SEND
     * (cv_spec_buf_count(SEND) elements of the dtype); NULL: init's. */
    const void *const *inputs;
    bool visual;     /* record values and provenance after every step */
    int iterations;  /* timed executions of the whole plan (bench); >= 1 */
    int warmup;      /* untimed executions first */
    bool verify;     /* read results back and compare with cv_reference */
    /* Keep no inputs or results in the trace (cv_trace_input and
     * cv_trace_output give NULL): what a bench row wants, since only the
     * check and the times matter. On a backend with a view, the inputs are
     * then filled in place and checked there. */
    bool discard;
    /* Optional progress callback, called after each iteration. */
    void (*progress)(void *user, int done, int total);
    void *progress_user;
    /* Optional: called after each step of one execution (done of total;
     * run_all backends report once, at the end) and once with done < 0
     * before verification starts, so a long run can show it is alive. */
    void (*on_step)(void *user, int done, int total);
} cv_run_opts;

void cv_run_opts_init(cv_run_opts *opts);

/* What a run with opts takes in host memory, in bytes (cv_memory.c): the
 * backend's buffers, the inputs and results cv_run keeps, and the visual
 * record. */
typedef struct {
    int64_t buffers, data, record, total;
} cv_footprint;
void cv_run_footprint(const cv_plan *plan, const cv_backend *be, const cv_run_opts *opts,
                      cv_footprint *out);
/* CV_OK if need bytes fit in cv_memory_available, else CV_ENOMEM and one
 * line in err: "WHAT would need 95.2 MiB of memory but
 * COLLVIZ_MEMORY_LIMIT is 50.0 MiB; ADVICE" (the source of the least
 * figure named; as many decimals as it takes for the two to differ).
 * `collviz card` and the cost model ask it. */
int cv_memory_check(int64_t need, const char *what, const char *advice, char *err, size_t errlen);
/* CV_OK, or CV_ENOMEM with both figures in err (cv_memory_available):
 * cv_run calls it first. */
int cv_run_check_memory(const cv_plan *plan, const cv_backend *be, const cv_run_opts *opts,
                        char *err, size_t errlen);

/* CV_OK if a visual run of plan (every step recorded) is affordable:
 * CV_MAX_VISUAL_RANKS ranks at most and a step record of 256 MiB at most;
 * otherwise CV_ETOOBIG and why. cv_run checks it in visual mode; the window
 * asks first, so a setup it cannot show is one line before any display. */
int cv_visual_check(const cv_plan *plan, char *err, size_t errlen);
/* What a visual run of plan holds in memory with `states` views over its
 * trace: the record, the states, the inputs and results, the backend's
 * buffers. The window keeps three a side and checks its stage (both sides
 * in compare mode) against CV_VISUAL_STAGE_BYTES, so its memory stays
 * bounded whatever the count. */
int64_t cv_visual_footprint(const cv_plan *plan, int states);
#define CV_VISUAL_STAGE_BYTES ((int64_t)384 << 20)

typedef struct cv_trace cv_trace;

/* Executes plan on backend: writes inputs (float avg pre-multiplied by 1/N
 * as NCCL does), runs warmup + iterations, reads results, verifies them
 * against cv_reference.  The trace borrows plan, which must outlive it. */
int cv_run(const cv_plan *plan, const cv_backend *backend, const cv_run_opts *opts,
           cv_trace **out, char *err, size_t errlen);
void cv_trace_destroy(cv_trace *trace); /* accepts NULL */

const cv_plan *cv_trace_plan(const cv_trace *t);
const char *cv_trace_backend(const cv_trace *t);
bool cv_trace_visual(const cv_trace *t);
/* Measured seconds of step k, averaged over iterations. */
double cv_trace_step_seconds(const cv_trace *t, int step);
/* Replaces the measured time of each of the n steps (n must be the plan's
 * step count) with times measured elsewhere: a trace replayed from a file
 * shows the times of the run that recorded it. CV_OK or CV_EINVAL. */
int cv_trace_set_step_seconds(cv_trace *t, const double *seconds, int n);
/* Mean seconds of one whole execution of the plan. */
double cv_trace_total_seconds(const cv_trace *t);
/* The inputs as the user gave them (before any avg pre-multiply): SEND of
 * each rank, cv_spec_buf_count(SEND) elements; NULL where unused. */
const void *cv_trace_input(const cv_trace *t, int rank);
/* The final RECV buffer of each rank (cv_spec_buf_count(RECV) elements);
 * NULL where unused. */
const void *cv_trace_output(const cv_trace *t, int rank);
/* Result elements that differ from the reference, over all ranks. */
int64_t cv_trace_wrong(const cv_trace *t);

/* A view of every buffer at some point of a visual trace. Seek to k gives
 * the state after k steps (0 = before the first step). */
typedef struct cv_state cv_state;
int cv_state_create(const cv_trace *t, cv_state **out); /* CV_EINVAL if not visual */
void cv_state_destroy(cv_state *s);                      /* accepts NULL */
void cv_state_seek(cv_state *s, int k);
int cv_state_step(const cv_state *s);
typedef struct {
    const void *values;           /* dtype elements */
    const uint64_t *masks;        /* contributing ranks per element */
    const int32_t *last_changed;  /* step that last wrote it, -1 = initial */
    int64_t count;
} cv_bufview;
cv_bufview cv_state_buf(const cv_state *s, int rank, cv_buf buf);

#ifdef __cplusplus
}
#endif

#endif /* CV_H */
