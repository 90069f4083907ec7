# How the engine is put together, checked on the build itself: the files of
# collectives/ call each other down one documented order, never in a loop
# (test_core_layers.sh, nm on the library).
add_test(NAME test_core_layers
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_core_layers.sh ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:cvcore>)
set_tests_properties(test_core_layers PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
# The link presets' table is the only list of them: the README's list and
# the help texts are checked against what `collviz list` prints from it.
add_test(NAME test_link_lists
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_link_lists.sh ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:collviz>)
set_tests_properties(test_link_lists PROPERTIES TIMEOUT 120)
# An algorithm is one row (and its generator), a link preset one row: added
# so in a scratch copy of the sources, which builds only the engine and the
# program (about two minutes on two cores), and they work everywhere.
add_test(NAME test_add_algorithm
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_add_algorithm.sh ${PROJECT_SOURCE_DIR}
                 ${CMAKE_C_COMPILER})
# In the slow tier (label "slow": scripts/test.sh --slow, .ci/run).
set_tests_properties(test_add_algorithm PROPERTIES TIMEOUT 1800 SKIP_RETURN_CODE 77
                     LABELS slow COST 40)
# A room of app/ is one name (folder, library, header, prefix), and one
# pair of verbs makes and ends things (test_names.sh, nm on the libraries).
add_test(NAME test_names
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_names.sh ${PROJECT_SOURCE_DIR}
                 cli=$<TARGET_FILE:cvcli> lesson=$<TARGET_FILE:cvlesson> show=$<TARGET_FILE:cvshow>
                 gui=$<TARGET_FILE:cvgui> ncclog=$<TARGET_FILE:cvncclog>)
set_tests_properties(test_names PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)
# A trace travels: run --trace-out, export --trace, and a trace checked on
# load as every input is (test_trace.sh).
add_test(NAME test_trace
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_trace.sh $<TARGET_FILE:collviz>)
set_tests_properties(test_trace PROPERTIES TIMEOUT 120
                     ENVIRONMENT "SDL_VIDEODRIVER=dummy;SDL_RENDER_DRIVER=software")
