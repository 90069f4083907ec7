# Lessons in the window (app/gui_lesson*.c): beats and the stage, each quiz
# kind answered through SDL events, the menu, resuming from the progress
# file, text inside the panel, and two golden lesson frames; headless on
# the software renderer. cvlesson comes from lessons.cmake.
if(NOT COLLVIZ_GUI)
  return() # a build without the window (COLLVIZ_GUI=OFF)
endif()
collviz_test(test_gui_lesson
             SOURCES test_gui_lesson.c ${CMAKE_CURRENT_SOURCE_DIR}/test_render_util.c
                     ${PROJECT_SOURCE_DIR}/app/gui.c ${PROJECT_SOURCE_DIR}/app/gui_narrate.c
                     ${PROJECT_SOURCE_DIR}/app/gui_input.c
                     ${PROJECT_SOURCE_DIR}/app/gui_text.c ${PROJECT_SOURCE_DIR}/app/gui_lesson.c
                     ${PROJECT_SOURCE_DIR}/app/gui_lesson_quiz.c
                     ${PROJECT_SOURCE_DIR}/app/gui_lesson_menu.c
                     ${PROJECT_SOURCE_DIR}/app/gui_lesson_dir.c
             LIBS cvlesson cvrender cvcuda cvcore TIMEOUT 600)
