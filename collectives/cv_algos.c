/*
 * cv_algos.c: the algorithm registry, one row per (op, algorithm) with the
 * function that generates its plan. Everything that asks which algorithms
 * an op offers (cv_op_algos, cv_op_has_algo, the spec check, `collviz
 * list`, the GUI's algorithm key) reads this table, and cv_plan_build calls
 * the row's generator, so an algorithm exists exactly when it has a row
 * with a generator: there is no switch whose `default:` could quietly run
 * another algorithm.
 *
 * Rows of one op are listed together, default first.
 */
#include <string.h>

#include "cv_internal.h"

static const cv__algo_entry registry[] = {
    {CV_OP_BROADCAST, CV_ALGO_RING, cv__plan_broadcast_ring},
    {CV_OP_BROADCAST, CV_ALGO_TREE, cv__plan_broadcast_tree},
    {CV_OP_BROADCAST, CV_ALGO_DIRECT, cv__plan_broadcast_direct},
    {CV_OP_SCATTER, CV_ALGO_DIRECT, cv__plan_scatter_direct},
    {CV_OP_SCATTER, CV_ALGO_TREE, cv__plan_scatter_tree},
    {CV_OP_GATHER, CV_ALGO_DIRECT, cv__plan_gather_direct},
    {CV_OP_GATHER, CV_ALGO_TREE, cv__plan_gather_tree},
    {CV_OP_REDUCE, CV_ALGO_RING, cv__plan_reduce_ring},
    {CV_OP_REDUCE, CV_ALGO_TREE, cv__plan_reduce_tree},
    {CV_OP_REDUCE, CV_ALGO_DIRECT, cv__plan_reduce_direct},
    {CV_OP_ALLGATHER, CV_ALGO_RING, cv__plan_allgather_ring},
    {CV_OP_ALLGATHER, CV_ALGO_RECURSIVE_DOUBLING, cv__plan_allgather_rd},
    {CV_OP_ALLGATHER, CV_ALGO_BRUCK, cv__plan_allgather_bruck},
    {CV_OP_ALLGATHER, CV_ALGO_DIRECT, cv__plan_allgather_direct},
    {CV_OP_REDUCESCATTER, CV_ALGO_RING, cv__plan_reducescatter_ring},
    {CV_OP_REDUCESCATTER, CV_ALGO_RECURSIVE_HALVING, cv__plan_reducescatter_rh},
    {CV_OP_REDUCESCATTER, CV_ALGO_DIRECT, cv__plan_reducescatter_direct},
    {CV_OP_ALLREDUCE, CV_ALGO_RING, cv__plan_allreduce_ring},
    {CV_OP_ALLREDUCE, CV_ALGO_TREE, cv__plan_allreduce_tree},
    {CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, cv__plan_allreduce_rd},
    {CV_OP_ALLREDUCE, CV_ALGO_RABENSEIFNER, cv__plan_allreduce_rabenseifner},
    {CV_OP_ALLREDUCE, CV_ALGO_DIRECT, cv__plan_allreduce_direct},
    {CV_OP_ALLTOALL, CV_ALGO_PAIRWISE, cv__plan_alltoall_pairwise},
    {CV_OP_ALLTOALL, CV_ALGO_BRUCK, cv__plan_alltoall_bruck},
    {CV_OP_SENDRECV, CV_ALGO_DIRECT, cv__plan_sendrecv_direct},
};

#define NENTRIES ((int)(sizeof registry / sizeof registry[0]))

int cv__algo_entries(const cv__algo_entry **out)
{
    *out = registry;
    return NENTRIES;
}

const cv__algo_entry *cv__algo_find(cv_op op, cv_algo algo)
{
    for (int i = 0; i < NENTRIES; i++)
        if (registry[i].op == op && registry[i].algo == algo)
            return &registry[i];
    return NULL;
}

int cv_op_algos(cv_op op, cv_algo out[CV_ALGO_COUNT])
{
    int n = 0;
    for (int i = 0; i < NENTRIES; i++)
        if (registry[i].op == op && n < CV_ALGO_COUNT)
            out[n++] = registry[i].algo;
    return n;
}

bool cv_op_has_algo(cv_op op, cv_algo algo) { return cv__algo_find(op, algo) != NULL; }

void cv__algo_list(cv_op op, char *out, size_t outlen)
{
    cv_algo a[CV_ALGO_COUNT];
    int n = cv_op_algos(op, a);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", cv_algo_name(a[i]));
    }
}
