# Tests of the CUDA backend and the NCCL runner (cuda_backend/).
#
# test_cuda_nodevice hides every GPU and runs everywhere: the no-device path
# must pass on CI. The others need a device and exit 77 (reported SKIPPED,
# never passed) after printing why where none is present; in a build with
# the stub they skip the same way.
collviz_test(test_cuda_nodevice SOURCES test_cuda_nodevice.c LIBS cvcore cvcuda TIMEOUT 120)
collviz_test(test_cuda SOURCES test_cuda.c LIBS cvcore cvcuda TIMEOUT 3600)
collviz_test(test_cuda_limits SOURCES test_cuda_limits.c LIBS cvcore cvcuda TIMEOUT 600)
collviz_test(test_cuda_nccl SOURCES test_cuda_nccl.c LIBS cvcore cvcuda TIMEOUT 600)

# The kernels' per-thread code run on the host against the CPU's element
# kernels: needs the toolkit (it is compiled by nvcc) but no GPU.
get_target_property(CVCUDA_DEFS cvcuda INTERFACE_COMPILE_DEFINITIONS)
if(CVCUDA_DEFS MATCHES "COLLVIZ_HAVE_CUDA")
  collviz_test(test_cuda_kernels_host SOURCES test_cuda_kernels_host.c LIBS cvcore cvcuda TIMEOUT 300)
endif()

# With MPI: the bootstrap's failure path under a real launcher (2 processes,
# no device: each must learn, return and finalise), and NCCL bootstrapped
# through MPI on one GPU. The OMPI_ variables let Open MPI run as root and
# on a single core, as CI containers do; other MPIs ignore them.
if(CVCUDA_DEFS MATCHES "COLLVIZ_HAVE_MPI" AND MPIEXEC_EXECUTABLE)
  set(CVCUDA_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                     OMPI_MCA_rmaps_base_oversubscribe=1
                     # Open MPI's dlopen'd components keep memory LSan cannot attribute.
                     ASAN_OPTIONS=detect_leaks=0:abort_on_error=1)
  add_test(NAME test_cuda_nodevice_mpi
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2
                   $<TARGET_FILE:test_cuda_nodevice> --mpi)
  add_test(NAME test_cuda_nccl_mpi
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 $<TARGET_FILE:test_cuda_nccl> --mpi)
  set_tests_properties(test_cuda_nodevice_mpi test_cuda_nccl_mpi PROPERTIES
                       TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "${CVCUDA_MPI_ENV}")
endif()
