# Renderer and window tests (render/, app/gui/): golden
# images, layout, input and export, all headless on the software renderer.
if(NOT COLLVIZ_GUI)
  return() # a build without the window (COLLVIZ_GUI=OFF)
endif()
collviz_test(test_render_golden SOURCES test_render_golden.c test_render_util.c LIBS cvgui TIMEOUT 300)
collviz_test(test_render_layout SOURCES test_render_layout.c test_render_util.c LIBS cvgui TIMEOUT 900)
collviz_test(test_render_routes SOURCES test_render_routes.c test_render_util.c LIBS cvgui TIMEOUT 600)
# The log-step algorithms' structure read off the layout: a double tree's two
# trees and the edges each step lights.
collviz_test(test_render_structure SOURCES test_render_structure.c test_render_util.c LIBS cvgui
             TIMEOUT 300)
collviz_test(test_gui_input SOURCES test_gui_input.c test_render_util.c LIBS cvgui TIMEOUT 300)
# Editing an input on the stage: click or E, type, Enter reruns verified at
# the same step; Esc cancels; a value the dtype cannot hold is refused.
collviz_test(test_gui_edit SOURCES test_gui_edit.c test_render_util.c LIBS cvgui TIMEOUT 300)
collviz_test(test_gui_text SOURCES test_gui_text.c test_render_util.c LIBS cvgui TIMEOUT 60)
collviz_test(test_render_phases SOURCES test_render_phases.c LIBS cvgui TIMEOUT 120)
collviz_test(test_gui_counts SOURCES test_gui_counts.c test_render_util.c LIBS cvgui TIMEOUT 120)
# A lesson's step timeline: exposed and hidden communication, blocks on
# the time axis, the band under the stage and its sweeping cursor.
collviz_test(test_render_timeline SOURCES test_render_timeline.c test_render_util.c LIBS cvgui
             TIMEOUT 120)
collviz_test(test_render_hover SOURCES test_render_hover.c test_render_util.c LIBS cvgui TIMEOUT 300)
# Compare mode's end: lanes named, which finished first and why.
collviz_test(test_gui_compare SOURCES test_gui_compare.c test_render_util.c LIBS cvgui TIMEOUT 300)
# The final AllReduce sums read back off the frames by tesseract (skipped
# without it; scripts/deps.sh installs it).
collviz_test(test_render_ocr SOURCES test_render_ocr.c test_render_util.c LIBS cvgui TIMEOUT 300)
collviz_test(test_render_export SOURCES test_render_export.c LIBS cvrender cvcore TIMEOUT 300)
add_dependencies(test_render_export collviz)

# The renderer's layers (render/rd_internal.h): which render/ file uses which,
# read off libcvrender.a with nm, only ever downward and never round a loop;
# and no function in render/ over 80 lines.
add_test(NAME test_render_layers
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_render_layers.sh ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:cvrender> ${CMAKE_NM})
set_tests_properties(test_render_layers PROPERTIES TIMEOUT 60)

# The real window under Xvfb, driven by xdotool key presses (skipped where
# either is missing; scripts/test.sh installs both).
add_test(NAME test_window_xvfb
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_window_xvfb.sh $<TARGET_FILE:collviz>
                 ${CMAKE_BINARY_DIR}/window-xvfb)
set_tests_properties(test_window_xvfb PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK xvfb COST 15) # one Xvfb at a time (reliability.cmake)
# Editing an input in the real window under Xvfb: a click on a send cell,
# typed digits, Return (skipped where Xvfb or xdotool is missing).
add_test(NAME test_gui_edit_xvfb
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_gui_edit_xvfb.sh $<TARGET_FILE:collviz>
                 $<TARGET_FILE:test_gui_edit> ${CMAKE_BINARY_DIR}/gui-edit-xvfb)
set_tests_properties(test_gui_edit_xvfb PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK xvfb COST 15)
# export --gif holds its first and last frames (--hold).
collviz_test(test_export_hold SOURCES test_export_hold.c LIBS cvrender cvcore TIMEOUT 300)
add_dependencies(test_export_hold collviz)
# The teacher's keys: F5 / Shift+-> replays the last step, X the pointer ring.
collviz_test(test_gui_teacher SOURCES test_gui_teacher.c test_render_util.c LIBS cvgui TIMEOUT 300)
# The spec-field table (app/cli/cli_fields.c) walked through the window's
# and export's flags, the page's link and the page's GIF export
# (app/web/web_link.c, built natively here).
collviz_test(test_fields SOURCES test_fields.c ${PROJECT_SOURCE_DIR}/app/web/web_link.c
             LIBS cvgui TIMEOUT 300)
target_include_directories(test_fields PRIVATE ${PROJECT_SOURCE_DIR}/app/web)
