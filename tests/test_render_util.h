/*
 * test_render_util.h: shared helpers for the renderer and GUI tests:
 * headless gui objects, frame capture and image comparison.
 */
#ifndef TEST_RENDER_UTIL_H
#define TEST_RENDER_UTIL_H

#include "check.h"
#include "gui_internal.h"

#define TR_SKIP 77

/* Exits 77 (skipped) when no Latin font is installed. */
void tr_require_fonts(void);
/* A headless gui of w x h for spec; aborts the test on failure. */
gui *tr_gui(const cv_spec *spec, int w, int h, rd_theme_id theme, cv_lang lang);
cv_spec tr_spec(cv_op op, cv_algo algo, int ranks, int64_t count);
/* Events handed to the gui as SDL would deliver them: a key press with
 * modifiers, a left button going down or up, a click (down then up), the
 * mouse moving to x, y (window units), the wheel turned by dy. */
void tr_key(gui *g, SDL_Keycode k, Uint16 mod);
void tr_button(gui *g, Uint32 type, int x, int y);
void tr_click(gui *g, int x, int y);
void tr_motion(gui *g, int x, int y);
void tr_wheel(gui *g, int dy);
/* Current frame's pixels (caller frees). */
SDL_Surface *tr_capture(gui *g);
/* Compares frame with tests/golden/NAME.png: it passes when at most 0.3%
 * of its pixels differ by more than 40 in some channel (room for
 * anti-aliasing differences between FreeType builds, none for a moved card,
 * a lost label or a wrong colour). A failing frame is written to the build
 * directory as golden/NAME.actual.png, never into the source tree. With
 * COLLVIZ_UPDATE_GOLDEN=1 the golden image is rewritten instead. Returns 1
 * on failure. */
int tr_golden(SDL_Surface *frame, const char *name);
/* Pixels that differ by more than tol in any channel. */
long tr_diff(SDL_Surface *a, SDL_Surface *b, int tol, int *max_delta);
bool tr_same(SDL_Surface *a, SDL_Surface *b);

/* TR_CHECK counts as EXPECT does (check.h), so the runner sees a window
 * test's checks and failures case by case; tr_failures counts the
 * failures too, for the mains that return it. */
extern int tr_failures;
#define TR_CHECK(cond, ...)                                                                       \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);              \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            tr_failures++;                                                                         \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#endif /* TEST_RENDER_UTIL_H */
