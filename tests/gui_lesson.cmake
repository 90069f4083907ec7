# Lessons in the window (app/gui/gui_lesson*.c): beats and the stage, each quiz
# kind answered through SDL events, the menu, resuming from the progress
# file, text inside the panel, and two golden lesson frames; headless on
# the software renderer.
if(NOT COLLVIZ_GUI)
  return() # a build without the window (COLLVIZ_GUI=OFF)
endif()
collviz_test(test_gui_lesson SOURCES test_gui_lesson.c test_render_util.c LIBS cvgui TIMEOUT 600)
# A one-off --theme is not saved as the next launch's; T in the window is.
collviz_test(test_gui_theme_oneoff SOURCES test_gui_theme_oneoff.c test_render_util.c LIBS cvgui TIMEOUT 300)
