/*
 * test_lesson_labels.c: the validator's diagram and step timeline label
 * limits are the renderer's field sizes (render.h), so a label the validator accepts is
 * never cut when it is copied into a frame, and copying a longer one cuts
 * between UTF-8 characters.
 */
#include <stdio.h>
#include <string.h>

#include "lesson.h"
#include "render.h"
#include "check.h"

_Static_assert(sizeof(((rd_diagram_box *)0)->label) == LESSON_MAX_BOX_LABEL + 1,
               "LESSON_MAX_BOX_LABEL must match rd_diagram_box.label");
_Static_assert(sizeof(((rd_diagram_arrow *)0)->label) == LESSON_MAX_ARROW_LABEL + 1,
               "LESSON_MAX_ARROW_LABEL must match rd_diagram_arrow.label");
/* The step timeline's labels and arrays, the same way. */
_Static_assert(sizeof(((rd_steptl *)0)->lanes[0]) == LESSON_MAX_LANE_LABEL + 1,
               "LESSON_MAX_LANE_LABEL must match rd_steptl.lanes");
_Static_assert(sizeof(((rd_steptl_block *)0)->label) == LESSON_MAX_SPAN_LABEL + 1,
               "LESSON_MAX_SPAN_LABEL must match rd_steptl_block.label");
_Static_assert(sizeof(((rd_steptl_marker *)0)->label) == LESSON_MAX_SPAN_LABEL + 1,
               "LESSON_MAX_SPAN_LABEL must match rd_steptl_marker.label");
_Static_assert(LESSON_TIMELINE_MAX_LANES == RD_STEPTL_MAX_LANES &&
                   LESSON_TIMELINE_MAX_BLOCKS == RD_STEPTL_MAX_BLOCKS &&
                   LESSON_TIMELINE_MAX_MARKERS == RD_STEPTL_MAX_MARKERS,
               "a timeline the validator accepts fits the renderer's arrays");

int main(void)
{
    rd_diagram_box box;
    rd_diagram_arrow arrow;
    char zh[3 * 40 + 1] = "";
    for (int i = 0; i < 40; i++)
        strcat(zh, "\xE4\xB8\xAD");

    /* 21 Chinese characters are 63 bytes: a box label at its limit fits */
    char at_limit[LESSON_MAX_BOX_LABEL + 1];
    memcpy(at_limit, zh, LESSON_MAX_BOX_LABEL);
    at_limit[LESSON_MAX_BOX_LABEL] = '\0';
    EXPECT(lesson_utf8_copy(box.label, sizeof box.label, at_limit) &&
              strcmp(box.label, at_limit) == 0,
          "a box label at the limit is copied whole");
    /* 40 characters do not: cut after 21, not inside the 22nd */
    EXPECT(!lesson_utf8_copy(box.label, sizeof box.label, zh) && strlen(box.label) == 63,
          "box: %zu bytes kept", strlen(box.label));
    /* an arrow's 47 bytes hold 15 characters (45 bytes), never 15 and 2/3 */
    EXPECT(!lesson_utf8_copy(arrow.label, sizeof arrow.label, zh) && strlen(arrow.label) == 45,
          "arrow: %zu bytes kept", strlen(arrow.label));
    if (failures) {
        fprintf(stderr, "test_lesson_labels: %d failures\n", failures);
        return 1;
    }
    printf("test_lesson_labels: ok\n");
    return 0;
}
