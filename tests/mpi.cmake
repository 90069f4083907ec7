# The MPI backend under a real launcher (test_mpi.sh): every op and
# algorithm through MPI at 1 to 8 processes, value for value against the
# CPU, its trace replayed, and no hang when a process fails, is killed or
# stops. Skipped where there is no mpirun or the build has no MPI (then
# it checks that --backend mpi says so).
add_test(NAME test_mpi
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_mpi.sh $<TARGET_FILE:collviz>
                 "${MPIEXEC_EXECUTABLE}")
# Open MPI's dlopen'd components keep memory LSan cannot attribute.
set_tests_properties(test_mpi PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
# A process stopped at the end of a run, after its last message: every
# process still ends within COLLVIZ_MPI_TIMEOUT and a few seconds, none
# left waiting in MPI_Finalize (test_mpi_end.sh).
add_test(NAME test_mpi_end
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_mpi_end.sh $<TARGET_FILE:collviz>
                 "${MPIEXEC_EXECUTABLE}")
set_tests_properties(test_mpi_end PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
