# The NCCL log reader (app/ncclog/): logs printed from known topologies in
# every format NCCL has used (tests/ncclog/make_logs.py), bad logs and their
# one-line errors, and `collviz nccl-log` itself.
collviz_test(test_ncclog SOURCES test_ncclog.c LIBS cvncclog cvcuda cvjson TIMEOUT 120)
add_test(NAME test_ncclog_cli
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_ncclog_cli.sh $<TARGET_FILE:collviz>
                 ${CMAKE_CURRENT_SOURCE_DIR}/ncclog)
set_tests_properties(test_ncclog_cli PROPERTIES TIMEOUT 120)
