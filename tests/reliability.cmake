# Reliability (issue: no crash, no silent kill, no hang, nothing lost):
# events between a rebuild and the next draw.
if(COLLVIZ_GUI)
  collviz_test(test_gui_rebuild SOURCES test_gui_rebuild.c test_render_util.c LIBS cvgui TIMEOUT 300)
endif()
# One flag parser for every subcommand: the same forms, the same messages.
collviz_test(test_cli_flags SOURCES test_cli_flags.c LIBS cvjson TIMEOUT 300)
add_dependencies(test_cli_flags collviz)
if(NOT COLLVIZ_GUI)
  target_compile_definitions(test_cli_flags PRIVATE COLLVIZ_TEST_NO_GUI=1)
endif()
# The command line under pressure: memory, long runs, FIFOs, full disks,
# escape sequences in files (test_reliability_cli.sh says which).
add_test(NAME test_reliability_cli
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_reliability_cli.sh $<TARGET_FILE:collviz>
                 ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/reliability-cli "${COLLVIZ_SANITIZE}")
set_tests_properties(test_reliability_cli PROPERTIES TIMEOUT 900)
