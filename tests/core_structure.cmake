# How the engine is put together, checked on the build itself: the files of
# collectives/ call each other down one documented order, never in a loop
# (test_core_layers.sh, nm on the library).
add_test(NAME test_core_layers
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_core_layers.sh ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:cvcore>)
set_tests_properties(test_core_layers PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
