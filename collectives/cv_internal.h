/*
 * cv_internal.h: declarations shared between the core engine's files and
 * not part of its public interface (prefix cv__). Plan generators use the
 * small builder below; the CPU backend and the trace use the element
 * kernels and the half-precision conversions.
 */
#ifndef CV_INTERNAL_H
#define CV_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>

#include "cv.h"

/* Out of memory is fatal, with a message (cv.h). */
#define cv__xmalloc cv_xmalloc
#define cv__xcalloc cv_xcalloc
#define cv__xrealloc cv_xrealloc

/* Bytes a visual trace and one state over it take (cv_memory.c). */
int64_t cv__visual_bytes(const cv_plan *p);
/* Whether spec's avg is NCCL's pre-multiplied sum (a float dtype, an op
 * that reduces): the inputs are scaled by 1/N before the run (cv_memory.c). */
bool cv__avg_premultiplies(const cv_spec *s);
/* Whether cv_run with opts fills the inputs into the backend's own memory
 * and checks the results there (a discarding run on a backend with a
 * view), keeping no copy of either (cv_memory.c). */
bool cv__run_in_place(const cv_plan *plan, const cv_backend *be, const cv_run_opts *opts);
/* Runs fn(ctx, i) for every i in [0, n) on the engine's worker threads
 * (cv_pool.c), the caller among them, and returns when all are done. One
 * job runs at a time: fn must not call it again. */
void cv__parallel(void (*fn)(void *ctx, int64_t i), void *ctx, int64_t n);

/* Writes a one-line reason into err (if given) and returns CV_EINVAL
 * (cv_base.c). */
int cv__fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cv_plan_create, with each step handed to sink as it closes (its
 * transfers there, its round and local not yet numbered) and its transfers
 * then dropped: the plan keeps its steps, numbered, and no transfers, so a
 * plan of millions of transfers takes the memory of its largest step. */
int cv__plan_create_streamed(const cv_spec *spec,
                             void (*sink)(const cv_plan *p, const cv_step *st, void *ctx),
                             void *ctx, cv_plan **out, char *err, size_t errlen);

/* A step's traffic per port, what the cost model reads of it: for each
 * participant, the bytes it sends and receives inside its node ([0]) and
 * across nodes ([1]), the messages (distinct peers) it sends to and
 * receives from on each, and the bytes reduced at it. Transfers to
 * oneself count in none but reduced. */
typedef struct cv__ports {
    int n; /* participants the arrays hold */
    int64_t *sent[2], *recvd[2];
    int64_t *nout[2], *nin[2];
    int64_t *reduced;
    bool given; /* the step now at the sink came as these sums, not transfers */
    /* The most transfers the builder may hold at once (0: no bound): a
     * step that needs more keeps none of them, only their number, in lost
     * (the consumer reads and clears it at the step's close), so a
     * consumer with a memory limit can refuse the plan without the memory
     * being taken first. */
    int64_t max_transfers, lost;
    int64_t scratch; /* bytes the generator holds besides, to be counted with the consumer's */
} cv__ports;
/* cv__plan_create_streamed whose sink also takes steps as port sums: a
 * generator that can sum its steps without making their transfers (the
 * multi-ring's 67 million at 1024 ranks) asks cv__plan_ports for them. */
int cv__plan_create_ported(const cv_spec *spec,
                           void (*sink)(const cv_plan *p, const cv_step *st, void *ctx), void *ctx,
                           cv__ports *ports, cv_plan **out, char *err, size_t errlen);
/* The sums to fill in place of transfers, or NULL: the plan wants its
 * transfers. */
cv__ports *cv__plan_ports(cv_plan *p);
/* Closes the open step as the sums now in cv__plan_ports (cleared and
 * filled by the generator; every step's, ports' and participants' figures,
 * exactly what its transfers would give): the sink gets the step with no
 * transfers and ports->given set. local: the step moves no data between
 * ranks. A step that would have no transfer is closed with cv__plan_end
 * instead, which drops it. */
void cv__plan_end_ports(cv_plan *p, bool local);

/* ------------------------------------------------- plan builder (cv_builder.c) */

void cv__plan_begin(cv_plan *p, const char *phase);
/* Adds a transfer to the open step; a count of 0 adds nothing. */
void cv__xfer(cv_plan *p, int src, cv_buf sbuf, int64_t soff, int dst, cv_buf dbuf, int64_t doff,
              int64_t count, cv_xfer_kind kind);
static inline void cv__copy(cv_plan *p, int src, cv_buf sbuf, int64_t soff, int dst, cv_buf dbuf,
                            int64_t doff, int64_t count)
{
    cv__xfer(p, src, sbuf, soff, dst, dbuf, doff, count, CV_XFER_COPY);
}

/* A place in a rank's buffers. */
typedef struct {
    int rank;
    cv_buf buf;
    int64_t off;
} cv__at;
#define CV_AT(rank, buf, off) ((cv__at){(rank), (buf), (off)})

/* The receiver reduces the incoming chunk with its own data: dst = local
 * (redop) src, where local is a region of dst's rank (local.rank is
 * ignored). When local is dst itself this is an in-place reduce. flags:
 * CV_XFER_FINISH where this write completes the reduction. A count of 0
 * adds nothing. */
void cv__recv_reduce(cv_plan *p, cv__at src, cv__at local, cv__at dst, int64_t count,
                     unsigned flags);
/* Level m (1, 2, 4, ...) of the binary tree that adds n slots of part's
 * SCRATCH into slot 0 (slot i holds len elements at i * stride + off):
 * slot a += slot a + m for a = 0, 2m, 4m, ... The last level (m the
 * largest power of two below n) completes the reduction where `finish`. */
void cv__add_slots(cv_plan *p, int part, int n, int64_t stride, int64_t off, int64_t len, int m,
                   bool finish);
/* Labels the transfers added since index `first` with the NCCL primitives
 * their sender and receiver execute. */
void cv__prims(cv_plan *p, int64_t first, cv_prim send, cv_prim recv);
/* Marks the open step as loads from peers' memory issued at once (cv_step's
 * `loads`): each port pays alpha once in it. */
void cv__plan_loads(cv_plan *p);
/* Closes the open step; a step with no transfers is dropped. In a
 * streamed plan (cv__plan_create_streamed) the step goes to the sink and
 * its transfers are dropped. */
void cv__plan_end(cv_plan *p);
/* Whether a step moves data between ranks. */
bool cv__step_moves(const cv_plan *p, const cv_step *st);
/* A pipelined plan: `slices` slices of the buffer go through the same
 * `rounds` local rounds, slice s one round behind slice s - 1. Global round
 * t is one step, named names[first * nphases + last] where first and last
 * are the phases (phase_of) of the local rounds its slices are in, with
 * round(p, ctx, s, r) called for each slice s under way in local round r;
 * then `subs` local sub-phases, sub-phase k named sub_names[k] and filled
 * by sub(p, ctx, s, r, k). Steps left empty are dropped. */
typedef struct {
    int slices, rounds, nphases, subs;
    const char *const *names; /* nphases x nphases, [first][last] */
    const char *const *sub_names;
    int (*phase_of)(void *ctx, int r);
    void (*round)(cv_plan *p, void *ctx, int s, int r);
    void (*sub)(cv_plan *p, void *ctx, int s, int r, int k);
} cv__pipeline;
void cv__pipeline_run(cv_plan *p, const cv__pipeline *pl, void *ctx);
/* Copies `cnt` blocks of `c` elements, starting at block `a` of a numbering
 * that is rotated by `root` (block q is absolute block (q + root) mod N).
 * An absolute side addresses the block's own position in its buffer; a
 * relative side starts at `off` for block a and runs on contiguously. Runs
 * are split where the absolute numbering wraps past N - 1. */
void cv__copy_blocks(cv_plan *p, int root, int64_t a, int64_t cnt, int64_t c, int src, cv_buf sb,
                     bool src_abs, int64_t src_off, int dst, cv_buf db, bool dst_abs,
                     int64_t dst_off);

/* Offset of chunk k when `count` elements are split into n balanced chunks. */
static inline int64_t cv__chunk(int64_t count, int n, int k) { return count * k / n; }

/* The rank at position k (taken modulo N) of the ring a plan follows: the
 * ring given with the spec (spec.topo), or 0, 1, ..., N-1. Ring generators
 * walk positions and name ranks and chunks through it, so a given ring
 * changes who sends to whom but never which chunk a rank ends with. */
static inline int cv__ring_at(const cv_plan *p, int k)
{
    int n = p->spec.ranks;
    k = ((k % n) + n) % n;
    return p->spec.topo && p->spec.topo->has_ring ? p->spec.topo->ring[k] : k;
}
/* The position of rank on that ring. */
int cv__ring_pos(const cv_plan *p, int rank);
/* Largest power of two <= n (n >= 1) (cv_base.c). */
int cv__pow2_floor(int n);
/* ceil(log2(n)) for n >= 1. */
int cv__log2_ceil(int n);

/* ------------------------------------------------------ algorithm registry */

/* A plan generator fills an empty plan (p->spec set, ranks >= 2) with the
 * steps of one algorithm. */
typedef void (*cv__plan_fn)(cv_plan *p);

/* The textbook's round count at the spec's rank count (>= 2) and slices;
 * writes the formula it evaluates ("2(N-1)"). */
typedef int (*cv__rounds_fn)(const cv_spec *s, char *formula, size_t len);

/* The textbook's bytes through the busiest port at the spec's rank count
 * (>= 2) for an op of D > 0 bytes (cv_spec_bench_bytes); writes the
 * formula ("2(N-1)/N·D"), or returns 0 and writes nothing where it quotes
 * none. */
typedef int64_t (*cv__bytes_fn)(const cv_spec *s, int64_t D, char *formula, size_t len);

enum {
    CV__USES_ROOT = 1,    /* reads spec->root */
    CV__USES_SLICES = 2,  /* reads spec->slices */
    CV__STAGES = 4,       /* has local sub-phases */
    CV__USES_NODES = 8,   /* reads spec->nodes */
    CV__FOLLOWS_TOPO = 16, /* follows spec->topo's ring or trees */
    CV__SIMPLE_ONLY = 32   /* NCCL has kernels for it with the Simple protocol alone */
};

/* One algorithm of one op: every fact the program knows about it. Each
 * field is required (test_algos fails on a row that leaves one out): a
 * formula the textbook does not give is a function saying so, never a
 * NULL. */
typedef struct {
    cv_op op;
    cv_algo algo;
    const char *name; /* "recursive-doubling", the same in each row of the algorithm */
    cv__plan_fn generate;
    cv__rounds_fn rounds;
    cv__bytes_fn bytes;
    cv_stage_shape shape;                 /* how the stage arranges its ranks */
    unsigned flags;                       /* CV__USES_ROOT, CV__USES_SLICES, ... */
    const char *narration[CV_LANG_COUNT]; /* the window's paragraph, by cv_lang */
} cv__algo_entry;

/* The registry's rows (cv_algos.c), rows of one op together, default
 * first; returns how many. */
int cv__algo_entries(const cv__algo_entry **out);
/* The row for (op, algo), or NULL: the op does not offer the algorithm. */
const cv__algo_entry *cv__algo_find(cv_op op, cv_algo algo);
/* cv_plan_textbook_rounds from the spec alone: the formula needs no plan. */
int cv__spec_textbook_rounds(const cv_spec *s, char *formula, size_t len);
/* "ring, tree, direct": the op's algorithms for an error message. */
void cv__algo_list(cv_op op, char *out, size_t outlen);

/* Plan generators: cv_plan_rooted.c (rooted ops and send/recv) and
 * cv_plan_all.c (ops every rank takes a result from). */
void cv__plan_sendrecv_direct(cv_plan *p);
void cv__plan_broadcast_ring(cv_plan *p);
void cv__plan_broadcast_tree(cv_plan *p);
void cv__plan_broadcast_direct(cv_plan *p);
void cv__plan_broadcast_scatter_allgather(cv_plan *p);
void cv__plan_scatter_direct(cv_plan *p);
void cv__plan_scatter_tree(cv_plan *p);
void cv__plan_gather_direct(cv_plan *p);
void cv__plan_gather_tree(cv_plan *p);
void cv__plan_reduce_ring(cv_plan *p);
void cv__plan_reduce_tree(cv_plan *p);
void cv__plan_reduce_direct(cv_plan *p);
void cv__plan_allgather_ring(cv_plan *p);
void cv__plan_allgather_rd(cv_plan *p);
void cv__plan_allgather_bruck(cv_plan *p);
void cv__plan_allgather_pat(cv_plan *p);
void cv__plan_reducescatter_pat(cv_plan *p);
void cv__plan_allgather_direct(cv_plan *p);
void cv__plan_reducescatter_ring(cv_plan *p);
void cv__plan_reducescatter_rh(cv_plan *p);
void cv__plan_reducescatter_direct(cv_plan *p);
void cv__plan_allreduce_ring(cv_plan *p);
void cv__plan_allreduce_tree(cv_plan *p);
void cv__plan_allreduce_rd(cv_plan *p);
void cv__plan_allreduce_rabenseifner(cv_plan *p);
void cv__plan_allreduce_direct(cv_plan *p);
void cv__plan_allreduce_double_tree(cv_plan *p); /* cv_plan_tree.c */
/* Tree t (0 or 1) of NCCL's double binary tree over n members
 * (ncclGetDtree), whole: each member's parent (up[r], -1 at the root), its
 * two children (kid[2r], kid[2r+1], -1 where there is none), its height (0
 * for a leaf) and depth (0 for the root); returns the root. And the taller
 * tree's height (0 for one member). */
int cv__dtree_build(int n, int t, int *up, int *kid, int *height, int *depth);
int cv__dtree_height(int n);
void cv__plan_allreduce_nvls_tree(cv_plan *p);      /* cv_plan_nvls_tree.c */
void cv__plan_allreduce_collnet_direct(cv_plan *p); /* cv_plan_collnet.c */
void cv__plan_allreduce_collnet_chain(cv_plan *p);
void cv__plan_allreduce_hierarchical(cv_plan *p);  /* cv_plan_nodes.c */
void cv__plan_allreduce_multiring(cv_plan *p);
void cv__plan_allreduce_in_network(cv_plan *p); /* cv_plan_switch.c */
void cv__plan_allgather_in_network(cv_plan *p);
void cv__plan_reducescatter_in_network(cv_plan *p);
void cv__plan_allreduce_one_shot(cv_plan *p);   /* cv_plan_shot.c */
void cv__plan_allreduce_two_shot(cv_plan *p);
void cv__plan_alltoall_pairwise(cv_plan *p);
/* The reduce half of the direct algorithms (cv_plan_all.c). */
void cv__reduce_into_root(cv_plan *p);
void cv__plan_alltoall_bruck(cv_plan *p);

/* ----------------------------------------------------------------- values */

uint16_t cv__f32_to_f16(float f);
float cv__f16_to_f32(uint16_t h);
uint16_t cv__f32_to_bf16(float f);
float cv__bf16_to_f32(uint16_t h);
/* d[i] = a[i] op b[i] over float16 for a leading part of [0, n) with F16C
 * where the CPU has it; returns how many elements it did (0 without). a
 * may be d. cv__half_kind names the path: "f16c" or "portable". */
int64_t cv__combine_f16_fast(cv_redop op, uint16_t *d, const uint16_t *a, const uint16_t *b,
                             int64_t n);
const char *cv__half_kind(void);
/* Stores v (already in the dtype's range) as element i. */
void cv__value_set(cv_dtype dtype, void *base, int64_t i, double v);
/* Largest finite value of a float dtype, and its unit roundoff. */
double cv__dtype_max(cv_dtype dtype);
double cv__dtype_eps(cv_dtype dtype);

/* dst = a (redop) b, n elements: a is dst itself (in place) or a region
 * apart from it; b never overlaps dst. avg combines as a sum. */
void cv__combine(cv_dtype dtype, cv_redop redop, void *dst, const void *a, const void *b,
                 int64_t n);
/* dst = dst / divisor, truncating, for the integer dtypes (integer avg's
 * finish); floats are left alone (their avg was pre-multiplied). */
void cv__divide(cv_dtype dtype, void *dst, int64_t n, int divisor);
/* The element work of n elements of transfer t, as every CPU transfer runs
 * it: dst = src (copy), dst = dst op src (reduce), dst = local op src
 * (reduce-copy), then, where t finishes an integer avg, dst /= ranks. */
void cv__kernel(cv_dtype dtype, cv_redop redop, const cv_transfer *t, void *dst,
                const void *local, const void *src, int64_t n, int ranks);
/* cv__kernel for a destination that is not read back soon: copies and
 * reduce-copies write it with non-temporal stores (cv__copy_stream), so
 * the CPU does not first read every line it is about to overwrite. */
void cv__kernel_stream(cv_dtype dtype, cv_redop redop, const cv_transfer *t, void *dst,
                       const void *local, const void *src, int64_t n, int ranks);
/* dst = src, n bytes, with non-temporal stores (AVX2 where the CPU has it,
 * else SSE2; memcpy off x86-64 and below 256 bytes). */
void cv__copy_stream(void *dst, const void *src, size_t n);
/* The same without the closing store fence, for a loop of many copies that
 * calls cv__copy_stream_fence once at its end. */
void cv__copy_stream_nofence(void *dst, const void *src, size_t n);
void cv__copy_stream_fence(void);
/* "avx2", "sse2" or "memcpy": what cv__copy_stream uses on this CPU. */
const char *cv__copy_stream_kind(void);
/* malloc for buffers of data: 64-byte aligned (free() releases it); NULL
 * when out of memory. The x form ends the program then, as cv__xmalloc. */
void *cv__alloc_big(size_t n);
void *cv__xmalloc_big(size_t n);
/* The independent bandwidth probe (cv_stream.c): best copy (non-temporal
 * stores) and streaming float32 reduce y += x over `bytes` per array, on
 * `threads` threads of its own, best of reps. CV_OK or CV_ENOMEM. */
int cv_stream_probe(int64_t bytes, int reps, int threads, cv_membw *out);
/* NCCL's avg scalar for a float dtype: 1/ranks rounded to float, then to
 * the dtype (exactly representable in it). */
double cv__avg_scalar(cv_dtype dtype, int ranks);
/* Multiplies n floats of the dtype by that scalar in place, in the dtype,
 * as NCCL's pre-multiplied sum does (avg's pre-multiply). */
void cv__premultiply(cv_dtype dtype, void *buf, int64_t n, int ranks);

#endif /* CV_INTERNAL_H */
