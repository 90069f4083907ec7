# Tests of the CUDA backend and the NCCL runner (cuda_backend/).
#
# test_cuda_nodevice hides every GPU and runs everywhere: the no-device path
# must pass on CI. The others need a device and exit 77 (reported SKIPPED,
# never passed) after printing why where none is present; in a build with
# the stub they skip the same way.
collviz_test(test_cuda_nodevice SOURCES test_cuda_nodevice.c LIBS cvcore cvcuda TIMEOUT 120)
# The property suite on a GPU: scripts/gpu_check.sh runs it in 8 parts side by side
# (test_cuda --part K/8); ctest runs an (op, algorithm) pair a case
# (test_cuda/allreduce/ring), each with this long.
collviz_test(test_cuda SOURCES test_cuda.c LIBS cvcore cvcuda TIMEOUT 1800)
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

# The backend's host code on the CUDA runtime and NCCL test doubles
# (tests/cuda_mock/), with or without a toolkit: cuda_backend.cu compiled as
# C++ against the doubles, whose streams run in random orders bounded by the
# waits the backend declared.
include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  set(CMAKE_CXX_STANDARD 17)
  # The doubles and the backend's host files on them, built once: cvcuda with
  # the toolkit and NCCL swapped for the doubles.
  set(CVCUDA_DIR ${PROJECT_SOURCE_DIR}/cuda_backend)
  add_library(cvcudamock STATIC cuda_mock/cuda_mock.c cuda_mock/nccl_mock.c
              cuda_mock/backend_host.cpp ${CVCUDA_DIR}/cuda_info.c ${CVCUDA_DIR}/plan_traffic.c
              ${CVCUDA_DIR}/nccl_comm.c ${CVCUDA_DIR}/nccl_run.c)
  # The doubles' headers stand in for the toolkit's and NCCL's: first.
  target_include_directories(cvcudamock BEFORE PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/cuda_mock
                             ${CVCUDA_DIR})
  target_compile_definitions(cvcudamock PUBLIC COLLVIZ_HAVE_CUDA=1 COLLVIZ_HAVE_NCCL=1)
  target_link_libraries(cvcudamock PUBLIC cvcore cvmpi)
  collviz_warnings(cvcudamock)
  target_compile_options(cvcudamock PRIVATE
                         $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
                         $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${COLLVIZ_WERROR}>>:-Werror>)

  collviz_test(test_cuda_mock SOURCES test_cuda_mock.c LIBS cvcudamock TIMEOUT 600)
  # The GPU suites themselves on the doubles: limits on a 600 MiB GPU (its
  # bandwidth is made up), the NCCL runner over 4 GPUs.
  collviz_test(test_cuda_limits_mock SOURCES test_cuda_limits.c LIBS cvcudamock TIMEOUT 600
               ENV COLLVIZ_MOCK_CUDA=mem=629145600)
  collviz_test(test_cuda_nccl_mock SOURCES test_cuda_nccl.c LIBS cvcudamock TIMEOUT 600
               ENV COLLVIZ_MOCK_CUDA=ndev=4,peer=1)
  # The property suite on the double: not a test of its own (test_cuda_mock
  # covers that ground), the stand-in for test_cuda in the rehearsal of the
  # GPU check below.
  add_executable(test_cuda_suite_mock test_cuda.c)
  target_link_libraries(test_cuda_suite_mock PRIVATE cvcheck cvcudamock)
  target_include_directories(test_cuda_suite_mock PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  collviz_warnings(test_cuda_suite_mock)

  # NCCL bootstrapped through MPI on the doubles, under a real launcher:
  # one process's ncclCommInitRank failing must end every process's wait.
  if(COLLVIZ_HAVE_MPI AND MPIEXEC_EXECUTABLE) # MPI found at the top (CMakeLists.txt)
    add_library(cvcudamock_mpi STATIC cuda_mock/cuda_mock.c cuda_mock/nccl_mock.c
                cuda_mock/backend_host.cpp
                ${CVCUDA_DIR}/cuda_info.c ${CVCUDA_DIR}/plan_traffic.c ${CVCUDA_DIR}/nccl_comm.c
                ${CVCUDA_DIR}/nccl_run.c)
    target_include_directories(cvcudamock_mpi BEFORE PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/cuda_mock
                               ${CVCUDA_DIR})
    target_compile_definitions(cvcudamock_mpi PUBLIC COLLVIZ_HAVE_CUDA=1 COLLVIZ_HAVE_NCCL=1
                               COLLVIZ_HAVE_MPI=1)
    target_link_libraries(cvcudamock_mpi PUBLIC cvcore cvmpi MPI::MPI_C)
    collviz_warnings(cvcudamock_mpi)
    add_executable(test_cuda_nccl_mpi_mock test_cuda_nccl_mpi_mock.c)
    target_link_libraries(test_cuda_nccl_mpi_mock PRIVATE cvcheck cvcudamock_mpi)
    target_include_directories(test_cuda_nccl_mpi_mock PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    collviz_warnings(test_cuda_nccl_mpi_mock)
    set(CVMOCK_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                       OMPI_MCA_rmaps_base_oversubscribe=1 ASAN_OPTIONS=detect_leaks=0)
    add_test(NAME test_cuda_nccl_mpi_mock_singleton
             COMMAND test_cuda_nccl_mpi_mock --singleton)
    add_test(NAME test_cuda_nccl_mpi_mock_3
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 3
                     $<TARGET_FILE:test_cuda_nccl_mpi_mock>)
    set_tests_properties(test_cuda_nccl_mpi_mock_singleton test_cuda_nccl_mpi_mock_3 PROPERTIES
                         TIMEOUT 60 ENVIRONMENT
                         "${CVMOCK_MPI_ENV};COLLVIZ_MOCK_CUDA=ndev=3,ncclinitfail=2")
  endif()

  # collviz itself on the doubles, so `--backend cuda`, `auto` and `nccl`
  # are exercised end to end: run, bench and list, and with the window
  # (COLLVIZ_GUI) export and the GUI too.
  add_executable(collviz-mockgpu ${PROJECT_SOURCE_DIR}/app/main.c ${PROJECT_SOURCE_DIR}/app/compose.c)
  target_link_libraries(collviz-mockgpu PRIVATE cvgui cvlesson cvcli)
  set_target_properties(collviz-mockgpu PROPERTIES COLLVIZ_CUDA_DOUBLE ON)
  collviz_warnings(collviz-mockgpu)
  add_test(NAME test_cuda_mock_cli
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_mock_cli.sh
                   $<TARGET_FILE:collviz-mockgpu> ${CMAKE_BINARY_DIR}/cuda-mock-cli)
  set_tests_properties(test_cuda_mock_cli PROPERTIES TIMEOUT 300
                       RESOURCE_LOCK xvfb) # starts an Xvfb: one at a time (reliability.cmake)

  # scripts/gpu_check.sh --quick rehearsed on the doubles (--dry): the
  # output folder's layout, the summaries, the per-part time limits and a
  # spent budget, as a lent GPU machine would see them. One ctest a part
  # (test_gpu_check_dry/rehearsal, /hang, /budget), each in its own folder:
  # the hang and the budget are mostly waiting, beside the rehearsal.
  foreach(part rehearsal hang budget)
    add_test(NAME test_gpu_check_dry/${part}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_gpu_check_dry.sh ${CMAKE_BINARY_DIR}
                     ${CMAKE_BINARY_DIR}/gpu-check-dry/${part} ${part})
    # The slow tier (label "slow": scripts/test.sh --slow, .ci/run): a
    # rehearsal of the GPU machine's script, not of what a user runs.
    set_tests_properties(test_gpu_check_dry/${part} PROPERTIES TIMEOUT 600
                         LABELS "test_gpu_check_dry;slow")
  endforeach()
  set_tests_properties(test_gpu_check_dry/rehearsal PROPERTIES COST 100)
  set_tests_properties(test_gpu_check_dry/hang PROPERTIES COST 25)
endif()
