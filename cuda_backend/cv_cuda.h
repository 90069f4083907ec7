/*
 * cv_cuda.h: the CUDA backend's C interface (prefix cv_cuda_), and NCCL
 * beside it (prefix cv_nccl_).
 *
 * cv_cuda_backend() fills the same cv_backend table as the CPU backend, so
 * every plan runs on GPUs unchanged: ranks are mapped round-robin onto the
 * visible GPUs (several ranks on one GPU get separate allocations), a step's
 * transfers run concurrently on one stream per destination rank, and each
 * step is timed with CUDA events.
 *
 * cv_nccl_* runs the same collective through NCCL, one rank per GPU, so our
 * plans and NCCL's can be read side by side; with MPI (COLLVIZ_HAVE_MPI) the
 * NCCL communicator can span processes and machines, MPI serving only to
 * broadcast NCCL's unique id.
 *
 * In a build without a CUDA toolkit everything here comes from cuda_stub.c
 * and answers CV_EUNAVAIL with a reason starting "no CUDA device". Every
 * function that fails writes a one-line reason into err and leaves no device
 * memory behind.
 */
#ifndef CV_CUDA_H
#define CV_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ the backend */

const cv_backend *cv_cuda_backend(void);

/* Visible CUDA devices (>= 1), or CV_EUNAVAIL with "no CUDA device: ...". */
int cv_cuda_devices(char *err, size_t errlen);

/* One line naming the devices, the driver and the runtime, e.g.
 * "1 x NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB), driver 13.0, runtime 13.0";
 * CV_OK, or CV_EUNAVAIL with the reason written into out. */
int cv_cuda_describe(char *out, size_t outlen);

/* Device-to-device copy bandwidth of device 0: cudaMemcpyAsync of `bytes`
 * bytes, repeated `iterations` times after one warm-up copy, timed with CUDA
 * events. *bytes_per_second counts memory traffic, each byte read once and
 * written once (2 * bytes / time, as CUDA's bandwidthTest reports D2D), so
 * it is the bound against which cv_cuda_plan_traffic is divided. */
int cv_cuda_copy_bandwidth(int64_t bytes, int iterations, double *bytes_per_second, char *err,
                           size_t errlen);

/* Memory traffic the plan needs on the busiest device, summed over steps,
 * with ranks mapped round-robin onto `devices` GPUs as the backend does: a
 * copy reads its source and writes its destination (2 x bytes on one GPU),
 * a reduce also reads the destination (3 x bytes), a divide reads and
 * writes the destination. Divided by cv_cuda_copy_bandwidth's rate it gives
 * the time bound the benchmark compares the measured time with. */
double cv_cuda_plan_traffic(const cv_plan *plan, int devices);

/* ------------------------------------------------------------ NCCL beside */

typedef struct {
    double seconds;   /* mean seconds of one collective over the timed iterations
                         (the slowest process's, under MPI) */
    int64_t wrong;    /* result elements failing cv_verify; -1 when not verified */
    int ranks;        /* ranks in the communicator */
    int nccl_version; /* ncclGetVersion, e.g. 22809 for 2.28.9 */
} cv_nccl_result;

typedef struct cv_nccl cv_nccl;

/* A communicator over the first `ranks` visible GPUs of this process, one
 * rank per GPU (ncclCommInitAll); ranks <= 0 takes every visible GPU.
 * CV_EUNAVAIL without a device or without NCCL, and when ranks exceeds the
 * visible GPUs (the machine cannot run it). */
int cv_nccl_create(int ranks, cv_nccl **out, char *err, size_t errlen);

/* True when this build can bootstrap NCCL with MPI (COLLVIZ_HAVE_MPI). */
bool cv_nccl_have_mpi(void);

/* True when the environment shows that an MPI launcher started this
 * process (mpirun, mpiexec, srun with several tasks, a PMIx launcher):
 * bench then opens with cv_nccl_create_mpi, which says so in a build
 * without MPI. */
bool cv_nccl_mpi_launched(void);

/* A communicator spanning every process of MPI_COMM_WORLD, one process per
 * GPU (the process's rank on its node picks the device): rank 0 calls
 * ncclGetUniqueId and MPI_Bcast shares it. Calls MPI_Init unless the caller
 * already did, and cv_nccl_destroy then calls MPI_Finalize, so open it at most
 * once per process. Every process must call it; when any process fails, all
 * return the error rather than hang, ncclCommInitRank failing on one of
 * them included (NCCL 2.14 on; before it, that process ends them all with
 * MPI_Abort and exit code 3). CV_EUNAVAIL in a build without MPI, or when
 * MPI sees one process where the launcher started several. */
int cv_nccl_create_mpi(cv_nccl **out, char *err, size_t errlen);

/* Ranks of the communicator, and this process's rank (0 without MPI; under
 * MPI only rank 0 should print). */
int cv_nccl_ranks(const cv_nccl *nccl);
int cv_nccl_rank(const cv_nccl *nccl);

/* Runs spec's collective through NCCL: spec->ranks must equal
 * cv_nccl_ranks. Inputs come from cv_fill_input(spec, init, seed, ...);
 * `warmup` untimed then `iterations` timed collectives (all launched, then
 * one synchronisation, as nccl-tests times them). With verify, the results
 * are read back and compared with cv_verify (under MPI, on rank 0, the count
 * shared with every process). NCCL has no band/bor/bxor: CV_EINVAL.
 * Every process of an MPI communicator must call it with the same
 * arguments. */
int cv_nccl_run(cv_nccl *nccl, const cv_spec *spec, int warmup, int iterations, cv_init init,
                uint64_t seed, bool verify, cv_nccl_result *out, char *err, size_t errlen);

void cv_nccl_destroy(cv_nccl *nccl); /* accepts NULL */

/* One shot: cv_nccl_create(spec->ranks), cv_nccl_run with verification,
 * cv_nccl_destroy. */
int cv_nccl_bench(const cv_spec *spec, int warmup, int iterations, cv_init init, uint64_t seed,
                  cv_nccl_result *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CV_CUDA_H */
