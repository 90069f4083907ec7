# collviz show (app/show*.c, render/rd_chart*.c): bench results read back,
# bad files refused, the model beside the measurement, and the chart drawn
# to PNG headless. The loader and model are compiled in again here, as the
# lesson tests do with theirs; the command itself is run as the program.
if(NOT COLLVIZ_GUI)
  return() # a build without the window (COLLVIZ_GUI=OFF)
endif()
collviz_test(test_show SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_show.c
             ${PROJECT_SOURCE_DIR}/app/show_data.c ${PROJECT_SOURCE_DIR}/app/show_model.c
             LIBS cvrender cvcore cvjson TIMEOUT 300)
add_dependencies(test_show collviz)
