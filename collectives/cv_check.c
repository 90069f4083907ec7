/*
 * cv_check.c: the rules of a spec, what a valid one is: an op the engine
 * knows with an algorithm the registry offers for it (cv_algos.c), ranks,
 * count, dtype, redop, root, nodes and slices in range, and a ring or
 * trees given from outside that are a permutation and trees. It sits above
 * the registry, which sits above the vocabulary (cv_spec.c), in the order
 * of docs/ARCHITECTURE.md.
 *
 * Every error message names the field and what is allowed, because these
 * messages reach users unchanged through the command line and the GUI.
 */
#include "cv_internal.h"

int cv_spec_check(const cv_spec *s, int max_ranks, char *err, size_t errlen)
{
    char list[320];
    if ((unsigned)s->op >= CV_OP_COUNT)
        return cv__fail(err, errlen,
                        "--op: unknown op; allowed: broadcast, scatter, gather, reduce, "
                        "allgather, reducescatter, allreduce, alltoall, sendrecv");
    if (!cv_op_has_algo(s->op, s->algo)) {
        cv__algo_list(s->op, list, sizeof list);
        return cv__fail(err, errlen, "--algo: %s has no algorithm '%s'; allowed: %s",
                        cv_op_name(s->op), cv_algo_name(s->algo), list);
    }
    if (s->ranks < 1 || s->ranks > max_ranks)
        return cv__fail(err, errlen, "--ranks: %d is out of range; allowed: 1 to %d%s", s->ranks,
                        max_ranks, max_ranks == CV_MAX_VISUAL_RANKS ? " in visual mode" : "");
    if (s->count < 0)
        return cv__fail(err, errlen, "--count: %lld is negative; allowed: 0 or more elements",
                        (long long)s->count);
    if ((unsigned)s->dtype >= CV_DTYPE_COUNT)
        return cv__fail(err, errlen,
                        "--dtype: unknown dtype; allowed: int8, int32, int64, float16, "
                        "bfloat16, float32, float64");
    if ((unsigned)s->redop >= CV_REDOP_COUNT)
        return cv__fail(err, errlen,
                        "--redop: unknown redop; allowed: sum, prod, min, max, avg, "
                        "band, bor, bxor");
    if (cv_redop_is_bitwise(s->redop) && cv_dtype_is_float(s->dtype))
        return cv__fail(err, errlen,
                        "--redop: %s works on integer types only (int8, int32, int64), "
                        "not %s",
                        cv_redop_name(s->redop), cv_dtype_name(s->dtype));
    if (s->root < 0 || s->root >= s->ranks)
        return cv__fail(err, errlen, "--root: %d is out of range; allowed: 0 to %d (ranks - 1)",
                        s->root, s->ranks - 1);
    if (s->nodes < 0 || s->nodes > s->ranks || (s->nodes > 1 && s->ranks % s->nodes != 0))
        return cv__fail(err, errlen,
                        "--nodes: %d does not split %d ranks evenly; allowed: a "
                        "divisor of --ranks (1 = a single node)",
                        s->nodes, s->ranks);
    if ((unsigned)s->proto >= CV_PROTO_COUNT)
        return cv__fail(err, errlen, "--proto: unknown protocol; allowed: simple, ll128, ll");
    if (s->slices < 1 || s->slices > CV_MAX_SLICES)
        return cv__fail(err, errlen, "--slices: %d is out of range; allowed: 1 to %d", s->slices,
                        CV_MAX_SLICES);
    if (s->topo) {
        int rc = cv_topology_check(s->topo, err, errlen);
        if (rc)
            return rc;
        if (s->topo->ranks != s->ranks)
            return cv__fail(err, errlen, "--ranks: %d, but the given ring and trees have %d ranks",
                            s->ranks, s->topo->ranks);
    }
    /* Buffers must be addressable: the largest one holds ranks * count
     * elements, and offsets are int64. */
    if (s->count > INT64_MAX / 16 / s->ranks)
        return cv__fail(err, errlen, "--count: %lld elements x %d ranks is too large to address",
                        (long long)s->count, s->ranks);
    return CV_OK;
}

int cv_topology_check(const cv_topology *t, char *err, size_t errlen)
{
    int n = t->ranks;
    if (n < 1 || n > CV_MAX_RANKS)
        return cv__fail(err, errlen, "a topology of %d ranks; allowed: 1 to %d", n, CV_MAX_RANKS);
    if (t->has_ring) {
        uint8_t seen[CV_MAX_RANKS] = {0};
        for (int i = 0; i < n; i++) {
            int r = t->ring[i];
            if (r < 0 || r >= n || seen[r])
                return cv__fail(err, errlen,
                                "the ring is not a permutation of ranks 0 to %d: "
                                "position %d holds %d",
                                n - 1, i, r);
            seen[r] = 1;
        }
    }
    for (int k = 0; t->has_trees && k < 2; k++) {
        const int32_t *up = t->parent[k];
        int roots = 0, kids[CV_MAX_RANKS] = {0};
        for (int r = 0; r < n; r++) {
            if (up[r] < -1 || up[r] >= n || up[r] == r)
                return cv__fail(err, errlen,
                                "tree %d: rank %d has parent %d; allowed: -1 (the "
                                "root) or another rank below %d",
                                k, r, up[r], n);
            roots += up[r] < 0;
            if (up[r] >= 0 && ++kids[up[r]] > 3)
                return cv__fail(err, errlen, "tree %d: rank %d has more than three children", k,
                                up[r]);
        }
        if (roots != 1)
            return cv__fail(err, errlen, "tree %d has %d roots; allowed: one", k, roots);
        for (int r = 0; r < n; r++) { /* every rank reaches the root */
            int at = r, hops = 0;
            while (up[at] >= 0 && hops++ < n)
                at = up[at];
            if (hops >= n && up[at] >= 0)
                return cv__fail(err, errlen, "tree %d has a cycle through rank %d", k, r);
        }
    }
    return CV_OK;
}
