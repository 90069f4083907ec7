# The core engine's tests: plans, reference, CPU backend, trace, cost.
collviz_test(test_collectives SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_collectives.c LIBS cvcore
             TIMEOUT 1800)
# Its second suite, --large (100 to 1024 ranks): test_collectives_large/allreduce/ring, ...
collviz_test_cases(test_collectives PREFIX test_collectives_large ARGS --large TIMEOUT 1800)
collviz_test(test_cost SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cost.c LIBS cvcore)
# Pricing a spec a step at a time (cv_cost_model) against pricing its whole plan.
collviz_test(test_cost_model SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cost_model.c LIBS cvcore)
collviz_test(test_cli SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cli.c ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_util.c LIBS cvjson)
add_dependencies(test_cli collviz)
if(NOT COLLVIZ_GUI)
  target_compile_definitions(test_cli PRIVATE COLLVIZ_TEST_NO_GUI=1)
endif()
collviz_test(test_algos SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_algos.c LIBS cvcore)
collviz_test(test_algos_textbook SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_algos_textbook.c LIBS cvcore)
collviz_test(test_nccl_avg SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_nccl_avg.c LIBS cvcore)
collviz_test(test_cpu_kernels SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cpu_kernels.c LIBS cvcore m)
# The reference card: its rows against the registry and hand-computed
# alpha-beta times, and `collviz card` in both languages and as JSON.
collviz_test(test_card SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_card.c ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_util.c LIBS cvcli cvjson)
add_dependencies(test_card collviz)
