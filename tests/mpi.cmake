# The MPI backend under a real launcher (test_mpi.sh): every op and
# algorithm through MPI at 1 to 8 processes, value for value against the
# CPU, its trace replayed, and no hang when a process fails, is killed or
# stops. Skipped where there is no mpirun or the build has no MPI (then
# it checks that --backend mpi says so).
# One ctest a part (test_mpi/ops-8, test_mpi/signals, ...; -L test_mpi runs
# them all): run one after another they took two minutes. Every op and
# algorithm at 2 and 3 processes (a power of two and not), the CPU
# comparison, the trace, hosts, bench, the mistakes and the signals are in
# the README's test command; 1, 5 and 8 processes and the dtype sweep are
# the slow tier (label "slow": scripts/test.sh --slow, .ci/run). COST
# starts the longest first on a fresh build.
foreach(part ops-1 ops-2 ops-3 ops-5 ops-8 dtypes cpu trace hosts bench mistakes signals)
  add_test(NAME test_mpi/${part}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_mpi.sh $<TARGET_FILE:collviz>
                   "${MPIEXEC_EXECUTABLE}" ${part})
  # Open MPI's dlopen'd components keep memory LSan cannot attribute.
  set_tests_properties(test_mpi/${part} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       LABELS test_mpi ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endforeach()
foreach(part ops-1 ops-5 ops-8 dtypes)
  set_tests_properties(test_mpi/${part} PROPERTIES LABELS "test_mpi;slow")
endforeach()
set_tests_properties(test_mpi/ops-8 PROPERTIES COST 70)
set_tests_properties(test_mpi/ops-5 PROPERTIES COST 65)
set_tests_properties(test_mpi/ops-3 PROPERTIES COST 60)
set_tests_properties(test_mpi/dtypes PROPERTIES COST 55)
set_tests_properties(test_mpi/ops-2 PROPERTIES COST 40)
set_tests_properties(test_mpi/ops-1 PROPERTIES COST 35)
# The signals part alone, first (its COST), as it ran at the end of the
# one test_mpi: it sends its signal a second after the processes start,
# and beside other tests its SIGTERM case failed once (exit 3, but the
# launcher's notice gave no "Exit code: 3"; the signal landing before
# collviz's handler is in place would do that).
set_tests_properties(test_mpi/signals PROPERTIES RUN_SERIAL TRUE COST 200)
# A process stopped at the end of a run, after its last message: every
# process still ends within COLLVIZ_MPI_TIMEOUT and a few seconds, none
# left waiting in MPI_Finalize (test_mpi_end.sh).
add_test(NAME test_mpi_end
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_mpi_end.sh $<TARGET_FILE:collviz>
                 "${MPIEXEC_EXECUTABLE}")
set_tests_properties(test_mpi_end PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
