/*
 * mpi_allreduce.c: OpenMPI's MPI_Allreduce timed the way `collviz bench`
 * times its own: float32 sum, the size in bytes of the whole buffer, n
 * timed iterations after w warmup ones, the slowest rank's mean time, and
 * nccl-tests' algbw = size / time and busbw = algbw x 2(n-1)/n.
 *
 *   mpirun -np 8 bench/mpi_allreduce [SIZE_BYTES] [ITERS] [WARMUP]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    long long bytes = argc > 1 ? atoll(argv[1]) : 64LL << 20;
    int iters = argc > 2 ? atoi(argv[2]) : 20, warmup = argc > 3 ? atoi(argv[3]) : 1;
    long long count = bytes / 4;
    float *in = malloc((size_t)count * 4), *out = malloc((size_t)count * 4);
    if (!in || !out) {
        fprintf(stderr, "mpi_allreduce: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (long long i = 0; i < count; i++)
        in[i] = (float)((rank * 7 + i) % 17) - 8.0f;
    for (int i = 0; i < warmup; i++)
        MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    double mine = (MPI_Wtime() - t0) / iters, worst;
    MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    /* Check one element against the sum computed here. */
    long long i = count / 3;
    float want = 0;
    for (int r = 0; r < n; r++)
        want += (float)((r * 7 + i) % 17) - 8.0f;
    int wrong = count > 0 && out[i] != want, any;
    MPI_Reduce(&wrong, &any, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double algbw = bytes / worst / 1e9;
        printf("# MPI_Allreduce: %d processes, float32 sum, %d iterations after %d warmup\n", n,
               iters, warmup);
        printf("# %10s %12s %10s %8s %8s %7s\n", "size", "count", "time", "algbw", "busbw",
               "#wrong");
        printf("# %10s %12s %10s %8s %8s %7s\n", "(B)", "(elements)", "(us)", "(GB/s)", "(GB/s)",
               "");
        printf("  %10lld %12lld %10.1f %8.2f %8.2f %7d\n", bytes, count, worst * 1e6, algbw,
               algbw * 2.0 * (n - 1) / n, any);
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
