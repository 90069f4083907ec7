/*
 * cv_mpi.h: the MPI backend (prefix cv_mpi_): each MPI process is one rank.
 *
 * Every process builds the same plan and calls cv_run with it, as one
 * program (SPMD); each holds only its own rank's buffers (and process 0
 * also an in-network plan's switch). A step's transfers between processes
 * become MPI point-to-point messages, reductions run the CPU backend's
 * element kernels, and a step's time is the slowest process's. Reading a
 * buffer back is collective: its owner sends it to process 0, so process 0
 * alone ends with every result, verifies them and prints.
 *
 * The launcher helpers below are plain C and answer in every build; the
 * rest needs a build with MPI (cv_mpi_built) and otherwise says so.
 */
#ifndef CV_MPI_H
#define CV_MPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether this collviz was built with MPI (COLLVIZ_HAVE_MPI). */
bool cv_mpi_built(void);
/* Whether a launcher started this process as one of several: Open MPI's
 * mpirun (OMPI_), MPICH's and Intel MPI's hydra (PMI_), PMIx launchers
 * (Open MPI 5's prterun, srun --mpi=pmix: PMIX_RANK), and Slurm's srun
 * with several tasks, whatever its --mpi. */
bool cv_mpi_launched(void);
/* How many processes the launcher says it started (0: it does not say). */
long cv_mpi_launcher_size(void);

/* The processes of one run. Made once per process: cv_mpi_create starts
 * MPI where nothing has yet (and cv_mpi_destroy then ends it), learns each
 * process's host, makes errors come back as statuses rather than end the
 * process, and has SIGTERM (the launcher ending the job because another
 * process died) end this one at once with exit status 3. The backend runs
 * on the world made last. */
typedef struct cv_mpi cv_mpi;
int cv_mpi_create(cv_mpi **out, char *err, size_t errlen);
/* Accepts NULL. MPI_Finalize, where it ends MPI, is given
 * COLLVIZ_MPI_TIMEOUT and a second: a process that waits there longer (a
 * peer stopped after cv_mpi_share) leaves with one line and exit 3. */
void cv_mpi_destroy(cv_mpi *m);
int cv_mpi_rank(const cv_mpi *m);
int cv_mpi_size(const cv_mpi *m);
/* MPI_Get_processor_name of process `rank`, "" out of range. */
const char *cv_mpi_host(const cv_mpi *m, int rank);
/* The nodes the ranks sit on, for the spec: K where the processes lie on
 * K hosts in K equal blocks of consecutive ranks (as launchers place them
 * by default); 1 otherwise (one host, or hosts interleaved or unequal,
 * which a spec's nodes cannot say). COLLVIZ_MPI_HOST, where set, names a
 * process's host in place of MPI_Get_processor_name. */
int cv_mpi_nodes(const cv_mpi *m);

/* Before anything runs, every process says how its own preparation went:
 * status 0, or a non-zero code and one line why. Collective. Returns 0
 * where every process succeeded. Otherwise the lowest failing process's
 * code, *who its rank (-1 where every process failed with the same code
 * and line: the same mistake everywhere), and why holds its line on every
 * process. */
int cv_mpi_agree(cv_mpi *m, int status, char *why, size_t len, int *who);
/* Collective: whether text (what this process is about to run) is the
 * same as process 0's; where not, why says what each runs. */
bool cv_mpi_same(cv_mpi *m, const char *text, char *why, size_t len);
/* Collective, at the end of a run: process 0's value, on every process,
 * once every process has come to it; where one does not within
 * COLLVIZ_MPI_TIMEOUT, the first to notice names it in one line and ends
 * every process (exit 3), so that none waits in MPI_Finalize for it. */
int64_t cv_mpi_share(cv_mpi *m, int64_t value);
/* Ends every process of the run with exit status code (MPI_Abort), for a
 * failure after the agreement, where the others may be waiting for this
 * one. Without MPI, exit(code). */
void cv_mpi_abort(cv_mpi *m, int code) __attribute__((noreturn));

/* Collective: the MPI library's own call for spec's op (MPI_Allreduce,
 * MPI_Allgather, MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Bcast,
 * MPI_Reduce, MPI_Gather, MPI_Scatter; MPI_Sendrecv to the next rank for
 * sendrecv) on buffers of spec's sizes: *seconds, the slowest process's
 * mean over iterations after warmup, timed as `bench` times its own.
 * CV_EUNAVAIL and why where MPI has no such call (avg; a float16 or
 * bfloat16 reduction; a count beyond an int). */
int cv_mpi_library_seconds(cv_mpi *m, const cv_spec *spec, int warmup, int iterations,
                           double *seconds, char *err, size_t errlen);

/* The backend; its probe answers CV_EUNAVAIL without MPI or before
 * cv_mpi_create. Waits give up after COLLVIZ_MPI_TIMEOUT seconds (default
 * 60) with the step and the rank not heard from. */
const cv_backend *cv_mpi_backend(void);

#ifdef __cplusplus
}
#endif

#endif /* CV_MPI_H */
