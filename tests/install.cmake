# cmake --install into a temporary prefix, then the installed program run
# from another directory after the prefix is moved (test_install.sh); with
# the window, png_same compares its exported frames with the build tree's.
set(COLLVIZ_PNG_SAME "")
if(COLLVIZ_GUI)
  add_executable(png_same png_same.c)
  target_link_libraries(png_same PRIVATE PkgConfig::SDL2 PkgConfig::SDL2_IMAGE)
  collviz_warnings(png_same)
  set(COLLVIZ_PNG_SAME $<TARGET_FILE:png_same>)
endif()
add_test(NAME test_install
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh ${CMAKE_BINARY_DIR}
                 ${CMAKE_BINARY_DIR}/install-test ${COLLVIZ_GUI} ${COLLVIZ_PNG_SAME})
set_tests_properties(test_install PROPERTIES TIMEOUT 300)
