# collviz show (app/gui/show*.c, render/rd_chart*.c): bench results read
# back, bad files refused, the model beside the measurement, and the chart
# drawn to PNG headless; the command itself is run as the program.
# NCCL's tuner as modelled against nccl-tests results of real systems
# (tests/model/measured/, each paste's source in its README.md); cvshow
# has no window, so this runs in every build.
collviz_test(test_model_measured SOURCES test_model_measured.c LIBS cvshow TIMEOUT 60)
if(NOT COLLVIZ_GUI)
  return() # a build without the window (COLLVIZ_GUI=OFF)
endif()
collviz_test(test_show SOURCES test_show.c test_cli_util.c LIBS cvgui TIMEOUT 300 SERIAL)
add_dependencies(test_show collviz)
# nccl-tests' text tables as pasted (tests/show/nccltests/, real pastes
# with their threads in its README.md, and synthetic cases in the test).
collviz_test(test_show_nccltests SOURCES test_show_nccltests.c test_cli_util.c LIBS cvgui TIMEOUT 120)
add_dependencies(test_show_nccltests collviz)
