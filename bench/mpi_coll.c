/*
 * mpi_coll.c: Open MPI's collectives timed the way `collviz bench` times its
 * own: float32 (sum where the op reduces), SIZE the bytes of the buffer
 * bench's size names (allreduce, broadcast: the buffer; allgather: the
 * gathered result; reducescatter: the input; alltoall: each rank's send
 * buffer), ITERS timed iterations after WARMUP, the slowest rank's mean
 * time, and nccl-tests' algbw = size / time, busbw = algbw x the op's
 * factor. One element of the result is checked against a value computed
 * here.
 *
 *   mpirun -np 8 mpi_coll OP [SIZE_BYTES] [ITERS] [WARMUP]
 *   OP: allreduce, allgather, reducescatter, broadcast, alltoall
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float value(int rank, long long i) { return (float)((rank * 7 + i) % 17) - 8.0f; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const char *op = argc > 1 ? argv[1] : "allreduce";
    long long bytes = argc > 2 ? atoll(argv[2]) : 64LL << 20;
    int iters = argc > 3 ? atoi(argv[3]) : 20, warmup = argc > 4 ? atoi(argv[4]) : 1;
    int kind = !strcmp(op, "allreduce")       ? 0
               : !strcmp(op, "allgather")     ? 1
               : !strcmp(op, "reducescatter") ? 2
               : !strcmp(op, "broadcast")     ? 3
               : !strcmp(op, "alltoall")      ? 4
                                              : -1;
    if (kind < 0) {
        if (rank == 0)
            fprintf(stderr, "mpi_coll: unknown op '%s'; allowed: allreduce, allgather, "
                            "reducescatter, broadcast, alltoall\n", op);
        MPI_Finalize();
        return 2;
    }
    long long count = bytes / 4, chunk = count / n; /* chunk: one rank's share */
    long long in_n = kind == 1 ? chunk : count, out_n = kind == 2 ? chunk : count;
    float *in = malloc((size_t)in_n * 4 + 4), *out = malloc((size_t)out_n * 4 + 4);
    if (!in || !out) {
        fprintf(stderr, "mpi_coll: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (long long i = 0; i < in_n; i++)
        in[i] = value(rank, i);
    for (long long i = 0; i < out_n; i++)
        out[i] = 0;
    double t0 = 0;
    for (int it = 0; it < warmup + iters; it++) {
        if (it == warmup) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        switch (kind) {
        case 0: MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
        case 1:
            MPI_Allgather(in, (int)chunk, MPI_FLOAT, out, (int)chunk, MPI_FLOAT, MPI_COMM_WORLD);
            break;
        case 2:
            MPI_Reduce_scatter_block(in, out, (int)chunk, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            break;
        case 3: MPI_Bcast(rank == 0 ? in : out, (int)count, MPI_FLOAT, 0, MPI_COMM_WORLD); break;
        case 4:
            MPI_Alltoall(in, (int)chunk, MPI_FLOAT, out, (int)chunk, MPI_FLOAT, MPI_COMM_WORLD);
            break;
        }
    }
    double mine = (MPI_Wtime() - t0) / iters, worst;
    MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    /* One element of the result against the value it must have. */
    long long i = (kind == 2 || kind == 1 || kind == 4 ? chunk : count) / 3;
    float got = kind == 3 && rank == 0 ? in[i] : out[i], want = 0;
    switch (kind) {
    case 0:
        for (int r = 0; r < n; r++)
            want += value(r, i);
        break;
    case 1: want = value(0, i); break; /* rank 0's chunk comes first */
    case 2:
        for (int r = 0; r < n; r++)
            want += value(r, rank * chunk + i);
        break;
    case 3: want = value(0, i); break;
    case 4: want = value(0, rank * chunk + i); break; /* from rank 0 */
    }
    int wrong = count > 0 && got != want, any;
    MPI_Reduce(&wrong, &any, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double algbw = bytes / worst / 1e9;
        double factor = kind == 0 ? 2.0 * (n - 1) / n : kind == 3 ? 1.0 : (double)(n - 1) / n;
        printf("# MPI %s: %d processes, float32%s, %d iterations after %d warmup\n", op, n,
               kind == 0 || kind == 2 ? " sum" : "", iters, warmup);
        printf("# %10s %12s %10s %8s %8s %7s\n", "size", "count", "time", "algbw", "busbw",
               "#wrong");
        printf("# %10s %12s %10s %8s %8s %7s\n", "(B)", "(elements)", "(us)", "(GB/s)", "(GB/s)",
               "");
        printf("  %10lld %12lld %10.1f %8.2f %8.2f %7d\n", bytes, count, worst * 1e6, algbw,
               algbw * factor, any);
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
