/*
 * test_cuda_nccl_mpi_mock.c: NCCL's bootstrap across MPI processes
 * (cuda_backend/nccl_comm.c) on the NCCL test double, under a real
 * launcher. The double cannot join processes, so its non-blocking
 * ncclCommInitRank waits for the other ranks forever, as a real one does
 * when a peer is gone; the rank that COLLVIZ_MOCK_CUDA's ncclinitfail
 * names fails at once. Every process must come back from cv_nccl_create_mpi
 * with CV_EBACKEND (bench's exit 3), none may hang (ctest's timeout), and
 * each must have finalised MPI. With --singleton, run without a launcher
 * but with Slurm's variables of a 4-task step, MPI sees one process where
 * four were started, which must be refused rather than run as four
 * separate one-rank benchmarks.
 *
 *   mpiexec -np 3 test_cuda_nccl_mpi_mock      (COLLVIZ_MOCK_CUDA=ndev=3,ncclinitfail=2)
 *   test_cuda_nccl_mpi_mock --singleton
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "cv_cuda.h"
#include "check.h"

int main(int argc, char **argv)
{
    bool singleton = argc > 1 && !strcmp(argv[1], "--singleton");
    char err[CV_ERR_LEN] = "";
    cv_nccl *nccl = NULL;
    if (singleton) {
        setenv("SLURM_PROCID", "0", 1);
        setenv("SLURM_STEP_NUM_TASKS", "4", 1);
    }
    const char *env_rank = getenv("OMPI_COMM_WORLD_RANK");
    int rank = env_rank ? atoi(env_rank) : 0;
    EXPECT(cv_nccl_mpi_launched(), "the launcher's environment was not recognised");
    int rc = cv_nccl_create_mpi(&nccl, err, sizeof err);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (singleton) {
        EXPECT(rc == CV_EUNAVAIL && strstr(err, "MPI sees 1 process but the launcher started 4"),
               "one process where the launcher started 4: %d, %s", rc, err);
    } else {
        const char *want = rank == 1 ? "ncclCommInitRank" : "another MPI process failed";
        EXPECT(rc == CV_EBACKEND && strstr(err, want), "rank %d: %d, '%s' (want '%s')", rank, rc,
               err, want);
    }
    EXPECT(nccl == NULL && finalized, "rank %d: a failed open left MPI running", rank);
    printf("rank %d: %s\n%d checks, %d failures\n", rank, err, checks, failures);
    return failures ? 1 : 0;
}
