/*
 * test_gui_edit.c: editing an input on the stage, driven by SDL events on
 * a headless gui (SDL's dummy driver, no display). A click on a send cell,
 * typed digits and Enter: the trace's input holds the value, the results
 * change, verification still counts 0 wrong and the stage is at the step it
 * was on. Esc cancels with nothing changed; a value the dtype cannot hold
 * (300 in int8, 70000 in float16, 2.5 in int32, a word) is refused in one
 * line naming what it holds, shown on the stage, the field staying open;
 * E and the arrow keys alone reach and edit a cell; letters typed into the
 * field never cycle the stage; compare mode reruns both sides.
 *
 *   test_gui_edit --where OP DTYPE RANKS COUNT W H RANK I
 * prints the window point (x y) of RANK's send element I on the stage
 * `collviz gui --op OP --dtype DTYPE --ranks RANKS --count COUNT --size WxH`
 * lays out:
 * test_gui_edit_xvfb.sh clicks it in the real window.
 */
#include "test_render_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where rank r's send element i is drawn (panel 0), from the laid-out frame. */
static bool cell_point(gui *g, int r, int64_t i, int *x, int *y)
{
    gui_render(g);
    const rd_layout *L = rd_last_layout(gui_rd(g));
    const rd_card_layout *cl = &L->panels[0].cards[r];
    SDL_Rect row = cl->row[CV_BUF_SEND];
    int cells = cl->cells[CV_BUF_SEND];
    if (row.w <= 0 || cells <= 0)
        return false;
    int per = cl->per_line[CV_BUF_SEND] > 0 ? cl->per_line[CV_BUF_SEND] : 1;
    int lines = (cells + per - 1) / per;
    for (int j = 0; j < cells; j++) {
        int64_t first, count;
        rd_cell_span(cl, CV_BUF_SEND, j, &first, &count);
        if (i < first || i >= first + count)
            continue;
        *x = row.x + (int)((j % per + 0.5) * row.w / per);
        *y = row.y + (int)((j / per + 0.5) * row.h / lines);
        return true;
    }
    return false;
}

/* Saves the frame as DIR/NAME.png where TEST_GUI_EDIT_SHOTS=DIR is set. */
static void shot(gui *g, const char *name)
{
    const char *dir = getenv("TEST_GUI_EDIT_SHOTS");
    if (!dir || !*dir)
        return;
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    SDL_Surface *f = tr_capture(g);
    TR_CHECK(f && rd_save_png(f, path, err, sizeof err) == CV_OK, "cannot save %s", path);
    SDL_FreeSurface(f);
}

static void type(gui *g, const char *s)
{
    for (; *s; s++) {
        SDL_Keycode k = *s == '-' ? SDLK_MINUS : *s == '.' ? SDLK_PERIOD : (SDL_Keycode)*s;
        tr_key(g, k, 0);
    }
}

static double input_at(gui *g, int panel, int r, int64_t i)
{
    const cv_trace *t = gui_trace(g, panel);
    return cv_value_get(gui_spec(g)->dtype, cv_trace_input(t, r), i);
}

/* The message the stage draws now (the field's line while it is open). */
static const char *shown(gui *g)
{
    static rd_frame f;
    gui__frame(g, &f);
    return f.message ? f.message : "";
}

/* Click, type, Enter: the input changes, results follow, verified, same step. */
static void click_type_enter(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    gui_seek(g, 2);
    shot(g, "edit-before");
    int x, y;
    TR_CHECK(cell_point(g, 1, 2, &x, &y), "GPU 1's send[2] is not on the stage");
    /* gui_send_cell_point (what the page's test clicks) lands on it too. */
    int gx, gy;
    rd_hit gh = {RD_HIT_NONE};
    if (gui_send_cell_point(g, 1, 2, &gx, &gy))
        gh = gui__hit(g, gx, gy);
    TR_CHECK(gh.kind == RD_HIT_CELL && gh.rank == 1 && gh.buf == CV_BUF_SEND && gh.first <= 2 &&
                 2 < gh.first + gh.count,
             "gui_send_cell_point's (%d, %d) is not GPU 1's send[2]", gx, gy);
    tr_click(g, x, y);
    int r;
    int64_t i;
    TR_CHECK(gui_editing(g, &r, &i) && r == 1 && i == 2,
             "a click on GPU 1's send[2] opened no field (editing %d, rank %d, element %lld)",
             gui_editing(g, NULL, NULL), r, (long long)i);
    TR_CHECK(strstr(shown(g), "GPU 1 send[2]") != NULL, "the stage does not show the field: %s",
             shown(g));
    const cv_trace *t = gui_trace(g, 0);
    int64_t nout = cv_spec_buf_count(gui_spec(g), CV_BUF_RECV, 0);
    double before0 = cv_value_get(spec.dtype, cv_trace_output(t, 0), 2);
    double in_before = input_at(g, 0, 1, 2);
    type(g, "300");
    TR_CHECK(strcmp(gui_edit_text(g), "300") == 0, "typed 300, the field holds \"%s\"",
             gui_edit_text(g));
    shot(g, "edit-field");
    tr_key(g, SDLK_RETURN, 0);
    shot(g, "edit-after");
    TR_CHECK(!gui_editing(g, NULL, NULL), "Enter left the field open: %s", shown(g));
    t = gui_trace(g, 0);
    TR_CHECK(input_at(g, 0, 1, 2) == 300, "the trace's input holds %g, not 300",
             input_at(g, 0, 1, 2));
    double after0 = cv_value_get(spec.dtype, cv_trace_output(t, 0), 2);
    TR_CHECK(after0 == before0 + (300 - in_before),
             "GPU 0's result[2] went from %g to %g; the edit adds %g", before0, after0,
             300 - in_before);
    TR_CHECK(nout == cv_spec_buf_count(gui_spec(g), CV_BUF_RECV, 0), "the layout changed");
    TR_CHECK(cv_trace_wrong(t) == 0, "verification counts %lld wrong after the edit",
             (long long)cv_trace_wrong(t));
    TR_CHECK(gui_time(g) == 2, "the stage went to t = %g, not step 2", gui_time(g));
    TR_CHECK(strstr(shown(g), "verified (0 wrong)") != NULL, "no verdict on the stage: %s",
             shown(g));
    /* Other elements keep their values (the edit builds on the inputs shown). */
    TR_CHECK(input_at(g, 0, 1, 3) == 103 && input_at(g, 0, 2, 2) == 202,
             "other inputs changed: %g %g", input_at(g, 0, 1, 3), input_at(g, 0, 2, 2));
    /* A second edit keeps the first. */
    TR_CHECK(cell_point(g, 3, 0, &x, &y), "GPU 3's send[0] is not on the stage");
    tr_click(g, x, y);
    type(g, "-5");
    tr_key(g, SDLK_RETURN, 0);
    TR_CHECK(input_at(g, 0, 3, 0) == -5 && input_at(g, 0, 1, 2) == 300,
             "after a second edit: %g and %g", input_at(g, 0, 3, 0), input_at(g, 0, 1, 2));
    TR_CHECK(cv_trace_wrong(gui_trace(g, 0)) == 0, "the second edit does not verify");
    /* I sets the edited values aside, and says so. */
    tr_key(g, SDLK_i, 0);
    TR_CHECK(input_at(g, 0, 1, 2) != 300 && gui_current_message(g) &&
                 strstr(gui_current_message(g), "edited values are set aside"),
             "I after an edit: input %g, message %s", input_at(g, 0, 1, 2),
             gui_current_message(g) ? gui_current_message(g) : "(none)");
    gui_destroy(g);
}

/* Esc: nothing changes, the field closes, keys work again. */
static void esc_cancels(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    gui_seek(g, 3);
    const cv_trace *t = gui_trace(g, 0);
    int x, y;
    TR_CHECK(cell_point(g, 0, 0, &x, &y), "GPU 0's send[0] is not on the stage");
    tr_click(g, x, y);
    type(g, "99");
    shot(g, "edit-field-gpu0"); /* the banner moves off the cell it edits */
    tr_key(g, SDLK_n, 0);       /* typed, not "next rank count" */
    TR_CHECK(gui_spec(g)->ranks == 4, "N typed into the field changed the ranks");
    tr_key(g, SDLK_ESCAPE, 0);
    TR_CHECK(!gui_editing(g, NULL, NULL), "Esc left the field open");
    TR_CHECK(gui_trace(g, 0) == t && input_at(g, 0, 0, 0) == 0, "Esc changed the run (input %g)",
             input_at(g, 0, 0, 0));
    TR_CHECK(gui_time(g) == 3, "Esc moved the stage to %g", gui_time(g));
    tr_key(g, SDLK_n, 0);
    TR_CHECK(gui_spec(g)->ranks != 4, "after Esc, N no longer changes the ranks");
    gui_destroy(g);
}

/* A value the dtype cannot hold: one line naming the limit, the field open. */
static void refused(void)
{
    static const struct {
        cv_dtype d;
        const char *text, *says;
    } cases[] = {
        {CV_INT8, "300", "int8 holds -128 to 127"},
        {CV_INT8, "-129", "int8 holds -128 to 127"},
        {CV_INT32, "2.5", "2.5 is not a whole number: int32 holds -2147483648 to 2147483647"},
        {CV_INT32, "nan", "nan is not a number: int32 holds"},
        {CV_INT64, "9223372036854775808",
         "int64 holds -9223372036854775808 to 9223372036854775807"},
        {CV_FLOAT16, "70000", "float16 holds -65504 to 65504"},
        {CV_FLOAT32, "1e39", "float32 holds"},
        {CV_FLOAT32, "abc", "abc is not a number"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
        spec.dtype = cases[k].d;
        gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
        gui_seek(g, 1);
        const cv_trace *t = gui_trace(g, 0);
        double was = input_at(g, 0, 2, 1);
        TR_CHECK(gui_edit_begin(g, 2, 1), "no field on GPU 2's send[1]");
        type(g, cases[k].text);
        tr_key(g, SDLK_RETURN, 0);
        if (k == 0)
            shot(g, "edit-refused");
        TR_CHECK(gui_editing(g, NULL, NULL), "%s %s: the field closed", cases[k].text,
                 cv_dtype_name(cases[k].d));
        TR_CHECK(strstr(shown(g), cases[k].says) != NULL && !strchr(shown(g), '\n'),
                 "%s %s: the stage shows \"%s\", not one line with \"%s\"", cases[k].text,
                 cv_dtype_name(cases[k].d), shown(g), cases[k].says);
        TR_CHECK(gui_trace(g, 0) == t && input_at(g, 0, 2, 1) == was, "%s: the run changed",
                 cases[k].text);
        /* Backspace, a value that fits, Enter: taken. */
        for (size_t c = 0; c < strlen(cases[k].text); c++)
            tr_key(g, SDLK_BACKSPACE, 0);
        type(g, "-7");
        tr_key(g, SDLK_RETURN, 0);
        TR_CHECK(!gui_editing(g, NULL, NULL) && input_at(g, 0, 2, 1) == -7 &&
                     cv_trace_wrong(gui_trace(g, 0)) == 0,
                 "%s: after the refusal, -7 was not taken (%g)", cv_dtype_name(cases[k].d),
                 input_at(g, 0, 2, 1));
        gui_destroy(g);
    }
    /* The limits themselves fit. */
    unsigned char v[8];
    char err[256];
    TR_CHECK(gui_parse_value(CV_INT8, "-128", v, err, sizeof err) == CV_OK &&
                 gui_parse_value(CV_INT8, "127", v, err, sizeof err) == CV_OK &&
                 gui_parse_value(CV_FLOAT16, "65504", v, err, sizeof err) == CV_OK &&
                 gui_parse_value(CV_INT64, "-9223372036854775808", v, err, sizeof err) == CV_OK &&
                 *(int64_t *)v == INT64_MIN,
             "a limit itself is refused: %s", err);
}

/* E, arrows, typing, Enter: no mouse at all. */
static void keyboard_only(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    tr_key(g, SDLK_RIGHT, 0); /* step 1, played */
    for (int k = 0; k < 400 && gui_playing(g); k++)
        gui_tick(g, 0.05);
    double t = gui_time(g);
    tr_key(g, SDLK_e, 0);
    int r;
    int64_t i;
    TR_CHECK(gui_editing(g, &r, &i) && r == 0 && i == 0, "E opened no field on GPU 0's send[0]");
    tr_key(g, SDLK_DOWN, 0);
    tr_key(g, SDLK_DOWN, 0);
    tr_key(g, SDLK_RIGHT, 0);
    tr_key(g, SDLK_TAB, 0);
    tr_key(g, SDLK_LEFT, 0);
    gui_editing(g, &r, &i);
    TR_CHECK(r == 2 && i == 1,
             "Down Down Right Tab Left picked GPU %d's send[%lld], not GPU 2's send[1]", r,
             (long long)i);
    tr_key(g, SDLK_UP, 0);
    gui_editing(g, &r, &i);
    TR_CHECK(r == 1 && i == 1, "Up picked GPU %d's send[%lld]", r, (long long)i);
    /* Left at element 0 goes to the previous rank's last element. */
    tr_key(g, SDLK_LEFT, 0);
    tr_key(g, SDLK_LEFT, 0);
    gui_editing(g, &r, &i);
    TR_CHECK(r == 0 && i == 7, "Left past element 0 picked GPU %d's send[%lld]", r, (long long)i);
    tr_key(g, SDLK_RIGHT, 0);
    tr_key(g, SDLK_RIGHT, 0);
    type(g, "42");
    tr_key(g, SDLK_KP_ENTER, 0);
    TR_CHECK(input_at(g, 0, 1, 1) == 42 && cv_trace_wrong(gui_trace(g, 0)) == 0,
             "keyboard edit: GPU 1's send[1] is %g", input_at(g, 0, 1, 1));
    TR_CHECK(gui_time(g) == t, "keyboard edit moved the stage from %g to %g", t, gui_time(g));
    /* E again reopens the same cell. */
    tr_key(g, SDLK_e, 0);
    gui_editing(g, &r, &i);
    TR_CHECK(gui_editing(g, NULL, NULL) && r == 1 && i == 1, "E reopened GPU %d's send[%lld]", r,
             (long long)i);
    tr_key(g, SDLK_ESCAPE, 0);
    /* The help names E. */
    const rd_key *k = rd_key_of(RD_ACT_EDIT);
    TR_CHECK(k && k->key == SDLK_e && k->help[0] && strstr(k->help[0], "Enter"),
             "the keymap has no row for E");
    gui_destroy(g);
}

/* Floats take nan and inf where the op allows them; compare mode reruns
 * both sides on the same inputs. */
static void floats_and_compare(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    spec.dtype = CV_FLOAT32;
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    TR_CHECK(gui_set_compare(g, true, CV_ALGO_TREE) == CV_OK, "no compare mode");
    gui_seek(g, 2);
    TR_CHECK(gui_edit_begin(g, 3, 5), "no field");
    type(g, "inf");
    tr_key(g, SDLK_RETURN, 0);
    for (int p = 0; p < 2; p++) {
        TR_CHECK(isinf(input_at(g, p, 3, 5)), "side %d: input is %g, not inf", p,
                 input_at(g, p, 3, 5));
        TR_CHECK(cv_trace_wrong(gui_trace(g, p)) == 0, "side %d: %lld wrong", p,
                 (long long)cv_trace_wrong(gui_trace(g, p)));
        TR_CHECK(isinf(cv_value_get(CV_FLOAT32, cv_trace_output(gui_trace(g, p), 0), 5)),
                 "side %d: the sum of an inf is not inf", p);
    }
    TR_CHECK(gui_compare(g), "compare mode was left");
    TR_CHECK(gui_time(g) == 2, "t = %g", gui_time(g));
    TR_CHECK(gui_edit_begin(g, 0, 0), "no field");
    type(g, "1.5e2");
    tr_key(g, SDLK_RETURN, 0);
    TR_CHECK(input_at(g, 0, 0, 0) == 150 && isinf(input_at(g, 0, 3, 5)), "1.5e2: %g",
             input_at(g, 0, 0, 0));
    gui_destroy(g);
    /* max: a NaN has no one right result, so it is refused, saying why. */
    spec.redop = CV_MAX;
    g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    TR_CHECK(gui_edit_begin(g, 1, 0), "no field");
    type(g, "nan");
    tr_key(g, SDLK_RETURN, 0);
    TR_CHECK(gui_editing(g, NULL, NULL) && strstr(shown(g), "nan: "), "nan under max: %s",
             shown(g));
    gui_destroy(g);
}

/* A lesson's stage takes no edits (its clicks are answers). */
static void not_in_lessons(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    gui_set_lesson_mode(g, true);
    TR_CHECK(!gui_edit_begin(g, 0, 0), "a lesson's stage opened a field");
    gui_destroy(g);
}

/* A replayed trace (--trace): after an edit the stage is this machine's
 * run, no longer shown with the recorded run's times and host. */
static void replayed_trace(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    spec.dtype = CV_INT32;
    int32_t vals[4][8];
    const void *in[4];
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < 8; i++)
            vals[r][i] = r * 10 + i;
        in[r] = vals[r];
    }
    double secs[6] = {1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6};
    gui_options o;
    gui_options_init(&o);
    o.spec = spec;
    o.headless = true;
    o.inputs = in;
    o.inputs_spec = spec;
    o.recorded_seconds = secs;
    o.recorded_label = "cuda, recorded on node7";
    o.recorded_spec = spec;
    gui *g = NULL;
    char err[256] = "";
    TR_CHECK(gui_create(&o, &g, err, sizeof err) == CV_OK, "gui_create: %s", err);
    if (!g)
        return;
    TR_CHECK(g->panels[0].recorded, "the replay is not shown with its recorded times");
    TR_CHECK(gui_edit_begin(g, 2, 3), "no field");
    type(g, "5");
    tr_key(g, SDLK_RETURN, 0);
    TR_CHECK(input_at(g, 0, 2, 3) == 5 && input_at(g, 0, 0, 1) == 1, "edit on the replay: %g %g",
             input_at(g, 0, 2, 3), input_at(g, 0, 0, 1));
    TR_CHECK(!g->panels[0].recorded, "the edited run still shows the recorded times");
    gui_destroy(g);
}

static int where(char **argv)
{
    cv_spec spec = tr_spec((cv_op)cv_op_parse(argv[2]), CV_ALGO_COUNT, atoi(argv[4]),
                           atoll(argv[5]));
    spec.dtype = (cv_dtype)cv_dtype_parse(argv[3]);
    cv_algo list[CV_ALGO_COUNT];
    cv_op_algos(spec.op, list);
    spec.algo = list[0];
    gui *g = tr_gui(&spec, atoi(argv[6]), atoi(argv[7]), RD_THEME_DARK, CV_LANG_EN);
    int x, y;
    if (!cell_point(g, atoi(argv[8]), atoll(argv[9]), &x, &y))
        return 1;
    printf("%d %d\n", x, y);
    gui_destroy(g);
    return 0;
}

static const test_case cases[] = {
    CASE("click-type-enter", click_type_enter),
    CASE("esc-cancels", esc_cancels),
    CASE("refused", refused),
    CASE("keyboard-only", keyboard_only),
    CASE("floats-and-compare", floats_and_compare),
    CASE("not-in-lessons", not_in_lessons),
    CASE("replayed-trace", replayed_trace),
};

int main(int argc, char **argv)
{
    if (argc == 10 && strcmp(argv[1], "--where") == 0) {
        tr_require_fonts();
        int rc = where(argv);
        SDL_Quit();
        return rc;
    }
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    cases_run();
    SDL_Quit();
    return cases_end();
}
