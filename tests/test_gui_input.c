/*
 * test_gui_input.c: the player and the controls, driven by SDL events on a
 * headless gui: step back after forward shows the same frame bytes, play
 * and speed advance time as promised, mouse clicks hit buttons and the
 * timeline, cycling keys re-plan, and bad input (a trace too big to record,
 * a backend failing mid-run, a 320x240 window) keeps the stage and says
 * why instead of crashing.
 */
#include "test_render_util.h"

#include <math.h>
#include <string.h>

/* A backend that fails in its third step: the CPU backend otherwise. */
static int failing_run_step(void *state, int step, double *seconds, char *err, size_t errlen)
{
    if (step == 2) {
        snprintf(err, errlen, "device lost in step 3 (test)");
        return CV_EBACKEND;
    }
    return cv_cpu_backend()->run_step(state, step, seconds, err, errlen);
}

/* A device backend whose memory holds 8 elements a rank: larger setups
 * fail to open, as CUDA's do when the GPU is full. */
static int small_open(const cv_plan *plan, void **state, char *err, size_t errlen)
{
    if (plan->spec.count > 8) {
        snprintf(err, errlen, "out of device memory (test); lower --count or --ranks");
        return CV_ENOMEM;
    }
    return cv_cpu_backend()->open(plan, state, err, errlen);
}

/* The keymap is the one table: every key in it does what its row says,
 * every named key shows in the help (lesson keys in a lesson), every bar
 * button is laid out, and a click is tested against the frame it lands on
 * even before anything was drawn. */
static void check_keymap(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    const rd_key *k;
    int nk = rd_keymap(&k);
    for (int i = 0; i < nk; i++) {
        if (k[i].key == SDLK_UNKNOWN)
            continue;
        Uint16 mod = k[i].mod == RD_MOD_SHIFT ? KMOD_SHIFT : 0;
        const rd_key *f = rd_key_find(k[i].key, mod, (k[i].where & RD_KEYS_LESSON) != 0);
        TR_CHECK(f && f->action == k[i].action && f->arg == k[i].arg,
                 "row %d (%s): its key finds action %d arg %d", i, k[i].name ? k[i].name : "-",
                 f ? (int)f->action : -1, f ? f->arg : 0);
        if (k[i].where == RD_KEYS_LESSON)
            TR_CHECK(!rd_key_find(k[i].key, mod, false) ||
                         rd_key_find(k[i].key, mod, false)->where & RD_KEYS_STAGE,
                     "lesson key %s works outside a lesson", k[i].name ? k[i].name : "-");
    }
    TR_CHECK(!rd_key_find(SDLK_q, KMOD_CTRL, false), "Ctrl+Q is taken for Q");
    for (int lesson = 0; lesson < 2; lesson++) {
        g->lesson = lesson;
        g->help = true;
        rd_debug_boxes(gui_rd(g), true);
        gui_render(g);
        const rd_box *b;
        int nb = rd_boxes(gui_rd(g), &b);
        for (int i = 0; i < nk; i++) {
            if (!k[i].name || k[i].key == SDLK_UNKNOWN || (!lesson && !(k[i].where & RD_KEYS_STAGE)))
                continue;
            bool found = false;
            for (int j = 0; j < nb && !found; j++)
                found = b[j].layer == 1 && strstr(b[j].text, k[i].name) != NULL;
            TR_CHECK(found, "the help (lesson %d) does not name the key %s", lesson, k[i].name);
        }
        rd_debug_boxes(gui_rd(g), false);
        g->help = false;
    }
    g->lesson = false;
    /* Bar buttons: one per row with a button, all laid out. */
    gui_render(g);
    const rd_layout *L = rd_last_layout(gui_rd(g));
    for (int i = 0; i < nk; i++)
        if (k[i].button == RD_BUTTON_BAR)
            TR_CHECK(L->button[k[i].action].w > 0, "no button for %s", k[i].name);
    gui_destroy(g);

    /* A fresh window: answers set and clicked before any frame is drawn. */
    g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    gui_set_lesson_mode(g, true);
    const char *answers[2] = {"first answer", "second answer"};
    gui_set_choices(g, answers, 2, NULL);
    gui_set_nav(g, true);
    rd_frame f;
    gui__frame(g, &f);
    static rd_layout lay;
    rd_layout_compute(&f, 1280, 800, rd_ctx_text(gui_rd(g)), &lay);
    TR_CHECK(lay.choice[1].w > 0 && lay.nnav == 3, "answers %d, nav %d laid out", lay.choice[1].w,
             lay.nnav);
    rd_hit h = gui__hit(g, lay.choice[1].x + 4, lay.choice[1].y + 4);
    TR_CHECK(h.kind == RD_HIT_CHOICE && h.choice == 1, "the second answer's hit: kind %d choice %d",
             h.kind, h.choice);
    h = gui__hit(g, lay.nav[2].x + 4, lay.nav[2].y + 4);
    TR_CHECK(h.kind == RD_HIT_BUTTON && h.action == RD_ACT_PAGE_NEXT, "the Next button: %d %d",
             h.kind, h.action);
    /* The answers go: a click where they were hits no answer. */
    gui_set_choices(g, NULL, 0, NULL);
    h = gui__hit(g, lay.choice[1].x + 4, lay.choice[1].y + 4);
    TR_CHECK(h.kind != RD_HIT_CHOICE, "a click hit an answer that is gone");
    gui_destroy(g);
}

/* Values given for the stage (gui --input, export --input) are what its
 * trace starts from while the buffers keep their layout; a stage whose
 * buffers differ, or a run a lesson sets, fills its own. */
static void check_given_inputs(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 2, 2);
    float r0[2] = {100, 101}, r1[2] = {50, 51};
    const void *given[2] = {r0, r1};
    gui_options o;
    gui_options_init(&o);
    o.spec = spec;
    o.headless = true;
    o.width = 640;
    o.height = 400;
    o.inputs = given;
    o.inputs_spec = spec;
    gui *g = NULL;
    char err[256] = "";
    TR_CHECK(gui_create(&o, &g, err, sizeof err) == CV_OK, "gui_create: %s", err);
    if (!g)
        return;
    const float *in0 = cv_trace_input(gui_trace(g, 0), 0);
    const float *in1 = cv_trace_input(gui_trace(g, 0), 1);
    TR_CHECK(in0 && in1 && in0[0] == 100 && in0[1] == 101 && in1[0] == 50 && in1[1] == 51,
             "the given inputs are not the trace's: %g %g %g %g", in0 ? in0[0] : -1,
             in0 ? in0[1] : -1, in1 ? in1[0] : -1, in1 ? in1[1] : -1);
    const float *out = cv_trace_output(gui_trace(g, 0), 1);
    TR_CHECK(out && out[0] == 150 && out[1] == 152, "allreduce of the given inputs: %g %g",
             out ? out[0] : -1, out ? out[1] : -1);
    cv_spec three = spec;
    three.ranks = 3;
    TR_CHECK(gui_set_spec(g, &three) == CV_OK, "3 ranks");
    in0 = cv_trace_input(gui_trace(g, 0), 0);
    TR_CHECK(in0 && in0[0] != 100, "values for 2 ranks used on 3");
    TR_CHECK(gui_set_spec(g, &spec) == CV_OK, "back to 2 ranks");
    in0 = cv_trace_input(gui_trace(g, 0), 0);
    TR_CHECK(in0 && in0[0] == 100, "the given values are not back with their layout");
    TR_CHECK(gui_set_run(g, &spec, NULL, CV_INIT_INDEX, 1) == CV_OK, "a lesson's run");
    in0 = cv_trace_input(gui_trace(g, 0), 0);
    TR_CHECK(in0 && in0[0] != 100, "a lesson's run kept the given values");
    gui_destroy(g);
}

/* Compare mode: every stop of the arrow keys is a step boundary of one
 * side or both, and a side on its boundary shows what landed, its time
 * exactly a whole step (t / ns * tmax rounds: 8-rank ring against tree
 * stopped at 0.9999999 of the ring's step, its chunks parked on the cells
 * they had just written). */
static void check_compare_boundaries(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 8, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    TR_CHECK(gui_set_compare(g, true, CV_ALGO_TREE) == CV_OK, "compare ring,tree");
    int stops = 0;
    while (gui_time(g) < gui_nsteps(g) && stops < 64) {
        tr_key(g, SDLK_RIGHT, 0);
        gui_tick(g, 10);
        stops++;
        rd_frame f;
        gui__frame(g, &f);
        int whole = 0, parked = 0;
        for (int p = 0; p < 2; p++) {
            double fr = f.panels[p].t - floor(f.panels[p].t);
            whole += fr == 0;
            parked += fr > 0 && fr < 1e-3; /* a step that has barely begun */
        }
        TR_CHECK(whole >= 1 && !parked && !gui_playing(g) && f.landed,
                 "stop %d at %g: ring at %.17g, tree at %.17g of their steps", stops,
                 gui_time(g), f.panels[0].t, f.panels[1].t);
    }
    TR_CHECK(stops >= 14 && stops <= 20, "Right reached the end of compare mode in %d stops",
             stops);
    gui_destroy(g);
}

/* The stage the sequence below shares: its window, its step count, its
 * setup, and step 1's frame. */
static gui *stage;
static int stage_steps;
static cv_spec stage_spec;
static SDL_Surface *step1;

/* The window the cases below drive, one after the other: ring AllReduce
 * over 4 ranks. */
static void open_stage(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1024, 640, RD_THEME_DARK, CV_LANG_EN);
    TR_CHECK(gui_trace(g, 0) != NULL, "no trace");
    int n = gui_nsteps(g);
    TR_CHECK(n >= 6, "ring allreduce over 4 ranks has %d steps", n);
    stage = g;
    stage_steps = n;
    stage_spec = spec;
}

/* Right plays exactly one step at the current speed, then pauses:
 * frames move while it plays and settle after. */
static void right_plays_a_step(void)
{
    gui *g = stage;
    gui_seek(g, 1);
    SDL_Surface *a = tr_capture(g);
    step1 = a;
    gui_seek(g, 0);
    SDL_Surface *start = tr_capture(g);
    tr_key(g, SDLK_RIGHT, 0);
    TR_CHECK(gui_playing(g) && gui_time(g) == 0, "Right jumped: t = %g", gui_time(g));
    gui_tick(g, 0.5);
    SDL_Surface *during = tr_capture(g);
    TR_CHECK(gui_time(g) > 0 && gui_time(g) < 1 && gui_playing(g), "0.5 s into the step: t = %g",
             gui_time(g));
    TR_CHECK(!tr_same(during, start), "nothing moves while the step plays");
    gui_tick(g, 0.5);
    SDL_Surface *during2 = tr_capture(g);
    TR_CHECK(!tr_same(during, during2), "the step's frames do not change");
    gui_tick(g, 5);
    TR_CHECK(gui_time(g) == 1 && !gui_playing(g), "after the step: t = %g, playing %d",
             gui_time(g), gui_playing(g));
    SDL_Surface *settled = tr_capture(g);
    gui_tick(g, 1);
    SDL_Surface *settled2 = tr_capture(g);
    TR_CHECK(tr_same(settled, settled2), "the frame still moves after the step");
    TR_CHECK(!tr_same(settled, start), "the step changed nothing on screen");
    SDL_FreeSurface(start);
    SDL_FreeSurface(during);
    SDL_FreeSurface(during2);
    SDL_FreeSurface(settled);
    SDL_FreeSurface(settled2);
}

/* Right during a step lands it at once and plays the next. */
static void right_then_left(void)
{
    gui *g = stage;
    SDL_Surface *a = step1;
    tr_key(g, SDLK_RIGHT, 0);
    gui_tick(g, 0.3);
    tr_key(g, SDLK_RIGHT, 0);
    TR_CHECK(gui_time(g) == 2 && gui_playing(g), "Right during step 2: t = %g", gui_time(g));
    gui_tick(g, 5);
    TR_CHECK(gui_time(g) == 3, "t after 3 steps is %g", gui_time(g));
    SDL_Surface *mid = tr_capture(g);
    TR_CHECK(!tr_same(a, mid), "step 3 looks like step 1");
    /* Left goes back exactly, at once; forward then back is the same frame. */
    tr_key(g, SDLK_LEFT, 0);
    tr_key(g, SDLK_LEFT, 0);
    TR_CHECK(gui_time(g) == 1 && !gui_playing(g), "Left Left: t = %g", gui_time(g));
    SDL_Surface *b = tr_capture(g);
    TR_CHECK(tr_same(a, b), "step 1 after going back differs (%ld pixels)", tr_diff(a, b, 0, NULL));
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
    SDL_FreeSurface(mid);
}

/* Left while a step plays goes back to where it started. */
static void left_during_a_step(void)
{
    gui *g = stage;
    tr_key(g, SDLK_RIGHT, 0);
    gui_tick(g, 0.7);
    tr_key(g, SDLK_LEFT, 0);
    TR_CHECK(gui_time(g) == 1 && !gui_playing(g), "Left during a step: t = %g", gui_time(g));
}

/* Home, End, mid-step Left lands on the step's start. */
static void home_end(void)
{
    gui *g = stage;
    int n = stage_steps;
    tr_key(g, SDLK_END, 0);
    TR_CHECK(gui_time(g) == n, "End: t = %g", gui_time(g));
    tr_key(g, SDLK_HOME, 0);
    TR_CHECK(gui_time(g) == 0, "Home: t = %g", gui_time(g));
    gui_seek(g, 2.5);
    tr_key(g, SDLK_LEFT, 0);
    TR_CHECK(gui_time(g) == 2, "Left from 2.5: t = %g", gui_time(g));
}

/* Play: 2 s per step at 1x; + doubles; play stops at the end. */
static void play_speed(void)
{
    gui *g = stage;
    int n = stage_steps;
    tr_key(g, SDLK_HOME, 0);
    tr_key(g, SDLK_SPACE, 0);
    TR_CHECK(gui_playing(g), "Space did not start playing");
    gui_tick(g, 2.0);
    TR_CHECK(fabs(gui_time(g) - 1) < 1e-9, "2 s at 1x: t = %g", gui_time(g));
    tr_key(g, SDLK_PLUS, 0);
    TR_CHECK(gui_speed(g) == 2, "speed after + is %g", gui_speed(g));
    gui_tick(g, 2.0);
    TR_CHECK(fabs(gui_time(g) - 3) < 1e-9, "2 s at 2x: t = %g", gui_time(g));
    for (int i = 0; i < 10; i++)
        tr_key(g, SDLK_PLUS, 0);
    TR_CHECK(gui_speed(g) == 8, "speed tops out at %g", gui_speed(g));
    for (int i = 0; i < 10; i++)
        tr_key(g, SDLK_MINUS, 0);
    TR_CHECK(gui_speed(g) == 0.1, "speed bottoms out at %g", gui_speed(g));
    tr_key(g, SDLK_PLUS, 0); /* 0.25x, which the timings below assume */
    gui_tick(g, 1000);
    TR_CHECK(gui_time(g) == n && !gui_playing(g), "play ran past the end: t = %g", gui_time(g));
}

/* Play to a step and wait there (lessons). */
static void play_to(void)
{
    gui *g = stage;
    gui_seek(g, 0);
    gui_play_to(g, 2);
    for (int i = 0; i < 400 && !gui_target_reached(g); i++)
        gui_tick(g, 0.1);
    TR_CHECK(gui_time(g) == 2 && !gui_playing(g), "play_to(2) ended at %g", gui_time(g));
}

/* Mouse: the forward button, then the timeline's middle. */
static void mouse(void)
{
    gui *g = stage;
    int n = stage_steps;
    gui_render(g);
    const rd_layout *L = rd_last_layout(gui_rd(g));
    SDL_Rect fw = L->button[RD_ACT_FORWARD];
    tr_click(g, fw.x + fw.w / 2, fw.y + fw.h / 2);
    gui_tick(g, 10);
    TR_CHECK(gui_time(g) == 3, "forward button: t = %g", gui_time(g));
    tr_click(g, L->timeline.x + L->timeline.w / 2, L->timeline.y + L->timeline.h / 2);
    TR_CHECK(fabs(gui_time(g) - n / 2.0) < 0.05, "timeline click: t = %g, expected %g", gui_time(g),
             n / 2.0);
    SDL_Rect hb = L->button[RD_ACT_HELP];
    tr_click(g, hb.x + 2, hb.y + 2);
    TR_CHECK(g->help, "help button did not open the help");
    tr_click(g, 10, 10);
    TR_CHECK(!g->help, "a click did not close the help");
}

/* Hover a cell: the tooltip draws without trouble. */
static void tooltip(void)
{
    gui *g = stage;
    const rd_layout *L = rd_last_layout(gui_rd(g));
    gui_render(g);
    const rd_card_layout *cl = &L->panels[0].cards[1];
    SDL_Event mv;
    memset(&mv, 0, sizeof mv);
    mv.type = SDL_MOUSEMOTION;
    mv.motion.x = cl->row[CV_BUF_RECV].x + 3;
    mv.motion.y = cl->row[CV_BUF_RECV].y + 3;
    gui_handle_event(g, &mv);
    rd_hit h = rd_hit_test(rd_last_layout(gui_rd(g)), mv.motion.x, mv.motion.y);
    TR_CHECK(h.kind == RD_HIT_CELL && h.rank == 1 && h.buf == CV_BUF_RECV && h.first == 0,
             "hit test under GPU 1 recv[0]: kind %d rank %d", h.kind, h.rank);
    gui_render(g);
    /* Near the narration panel the tooltip opens to the left: it must not
     * cover the panel (a quiz's answers). */
    {
        int right = 0;
        for (int r = 0; r < L->panels[0].nranks; r++)
            if (L->panels[0].cards[r].card.x > L->panels[0].cards[right].card.x)
                right = r;
        SDL_Rect row = L->panels[0].cards[right].row[CV_BUF_RECV];
        mv.motion.x = row.x + row.w - 2;
        mv.motion.y = row.y + 2;
        gui_handle_event(g, &mv);
        rd_debug_boxes(gui_rd(g), true);
        gui_render(g);
        const rd_box *bx;
        int nb = rd_boxes(gui_rd(g), &bx);
        int tips = 0;
        for (int i = 0; i < nb; i++) {
            if (bx[i].layer != 1 || strncmp(bx[i].text, "GPU", 3) != 0)
                continue;
            tips++;
            TR_CHECK(!SDL_HasIntersection(&bx[i].r, &L->narration),
                     "the tooltip '%s' covers the narration panel", bx[i].text);
        }
        TR_CHECK(tips > 0, "no tooltip for GPU %d's last recv cell", right);
        rd_debug_boxes(gui_rd(g), false);
    }
}

/* Cycling keys re-plan and keep the position when it exists. */
static void cycling_keys(void)
{
    gui *g = stage;
    gui_seek(g, 2);
    tr_key(g, SDLK_n, 0);
    TR_CHECK(gui_spec(g)->ranks == 5, "N: ranks %d", gui_spec(g)->ranks);
    TR_CHECK(gui_time(g) == 2, "N kept t = %g", gui_time(g));
    tr_key(g, SDLK_n, KMOD_SHIFT);
    TR_CHECK(gui_spec(g)->ranks == 4, "Shift+N: ranks %d", gui_spec(g)->ranks);
    tr_key(g, SDLK_a, 0);
    TR_CHECK(gui_spec(g)->algo != CV_ALGO_RING, "A did not change the algorithm");
    tr_key(g, SDLK_o, 0);
    TR_CHECK(gui_spec(g)->op != CV_OP_ALLREDUCE, "O did not change the op");
    /* Every op O reaches comes with its own default algorithm, so a
     * learner cycling ops sees the rings (not the last op's "direct"). */
    for (int k = 0; k < CV_OP_COUNT; k++) {
        cv_algo list[CV_ALGO_COUNT];
        cv_op_algos(gui_spec(g)->op, list);
        TR_CHECK(gui_spec(g)->algo == list[0], "O gave %s the %s algorithm, not its default %s",
                 cv_op_name(gui_spec(g)->op), cv_algo_name(gui_spec(g)->algo),
                 cv_algo_name(list[0]));
        tr_key(g, SDLK_a, 0); /* another algorithm before the next O */
        tr_key(g, SDLK_o, 0);
    }
    while (gui_spec(g)->op != CV_OP_ALLREDUCE)
        tr_key(g, SDLK_o, 0);
    tr_key(g, SDLK_o, 0);
    tr_key(g, SDLK_o, KMOD_SHIFT);
    tr_key(g, SDLK_d, 0);
    tr_key(g, SDLK_r, 0);
    tr_key(g, SDLK_c, 0);
    TR_CHECK(gui_trace(g, 0) != NULL, "lost the trace while cycling");
    tr_key(g, SDLK_t, 0);
    tr_key(g, SDLK_l, 0);
    TR_CHECK(gui_lang(g) == CV_LANG_ZH, "L did not switch to Chinese");
    tr_key(g, SDLK_m, 0);
    TR_CHECK(gui_compare(g), "M did not open compare mode");
    gui_render(g);
    tr_key(g, SDLK_m, 0);
    TR_CHECK(!gui_compare(g), "M did not close compare mode");
    tr_key(g, SDLK_b, 0); /* no CUDA here: a message, the CPU trace stays */
    TR_CHECK(gui_trace(g, 0) != NULL, "B lost the trace");
    gui_render(g);
}

/* Too big to record: the message shows, the old trace stays. */
static void too_big(void)
{
    gui *g = stage;
    const cv_trace *before = gui_trace(g, 0);
    cv_spec big = tr_spec(CV_OP_ALLTOALL, CV_ALGO_PAIRWISE, 64, 4096);
    int rc = gui_set_spec(g, &big);
    printf("64 ranks x 4096 alltoall: %s (%s)\n", cv_strerror(rc),
           gui_current_message(g) ? gui_current_message(g) : "");
    if (rc != CV_OK) {
        TR_CHECK(gui_trace(g, 0) == before, "a refused spec replaced the trace");
        TR_CHECK(gui_current_message(g) != NULL, "no message for a refused spec");
    }
    gui_render(g);
    cv_spec big2 = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 64, 4096);
    gui_set_spec(g, &big2);
    gui_seek(g, 1.5);
    gui_render(g);
}

/* A backend failing mid-run. */
static void failing_backend(void)
{
    gui *g = stage;
    cv_spec spec = stage_spec;
    gui_set_spec(g, &spec);
    cv_backend bad = *cv_cpu_backend();
    bad.name = "failing";
    bad.run_step = failing_run_step;
    const cv_trace *before = gui_trace(g, 0);
    int rc = gui_set_backend(g, &bad);
    TR_CHECK(rc != CV_OK, "a failing backend was accepted");
    TR_CHECK(gui_trace(g, 0) == before, "a failing backend replaced the trace");
    TR_CHECK(gui_current_message(g) && strstr(gui_current_message(g), "device lost"),
             "message: %s", gui_current_message(g) ? gui_current_message(g) : "(none)");
    gui_render(g);
}

/* On a device backend, a setup the device cannot hold carries on with
 * the CPU backend and says so; the setup the user asked for is shown. */
static void small_device(void)
{
    gui *g = stage;
    cv_backend small = *cv_cpu_backend();
    small.name = "smalldev";
    small.open = small_open;
    int rc = gui_set_backend(g, &small);
    TR_CHECK(rc == CV_OK && gui_backend(g) == &small, "switch to the small device: %d", rc);
    cv_spec wide = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 64);
    rc = gui_set_spec(g, &wide);
    TR_CHECK(rc == CV_OK, "a setup too big for the device was refused (%d)", rc);
    TR_CHECK(gui_backend(g) == cv_cpu_backend(), "still on %s", gui_backend(g)->name);
    TR_CHECK(gui_trace(g, 0) && cv_trace_plan(gui_trace(g, 0))->spec.count == 64,
             "the stage is not the new setup");
    TR_CHECK(gui_current_message(g) && strstr(gui_current_message(g), "smalldev") &&
                 strstr(gui_current_message(g), "out of device memory") &&
                 strstr(gui_current_message(g), "CPU"),
             "message: %s", gui_current_message(g) ? gui_current_message(g) : "(none)");
    /* In the window, the advice names keys, not command-line flags. */
    TR_CHECK(gui__shown_message(g) && !strstr(gui__shown_message(g), "--count") &&
                 strstr(gui__shown_message(g), "Shift+C") &&
                 strstr(gui__shown_message(g), "out of device memory (test)"),
             "shown: %s", gui__shown_message(g) ? gui__shown_message(g) : "(none)");
    TR_CHECK(gui_current_message(g) && strstr(gui_current_message(g), "lower --count or --ranks"),
             "the command line's words are lost: %s",
             gui_current_message(g) ? gui_current_message(g) : "(none)");
    gui_render(g);
    tr_key(g, SDLK_ESCAPE, 0);
    TR_CHECK(!gui_quit_requested(g), "Esc quit the window (only Q does)");
    tr_key(g, SDLK_p, 0);
    gui_render(g);
    TR_CHECK(rd_last_layout(gui_rd(g))->narration.w == 0, "P did not hide the narration");
    tr_key(g, SDLK_p, 0);
    tr_key(g, SDLK_q, 0);
    TR_CHECK(gui_quit_requested(g), "Q did not quit");
    gui_destroy(g);
}

/* A tiny window still draws. */
static void tiny_window(void)
{
    cv_spec spec = stage_spec;
    gui *tiny = tr_gui(&spec, 320, 240, RD_THEME_PROJECTOR, CV_LANG_ZH);
    gui_seek(tiny, 1.5);
    SDL_Surface *t = tr_capture(tiny);
    SDL_FreeSurface(t);
    tiny->help = true;
    gui_render(tiny);
    gui_destroy(tiny);
}

static const test_case cases[] = {
    CASE("keymap", check_keymap),
    CASE("given-inputs", check_given_inputs),
    CASE("compare-boundaries", check_compare_boundaries),
    CASE("stage", open_stage),
    CASE_THEN("right-plays-a-step", right_plays_a_step),
    CASE_THEN("right-then-left", right_then_left),
    CASE_THEN("left-during-a-step", left_during_a_step),
    CASE_THEN("home-end", home_end),
    CASE_THEN("play-speed", play_speed),
    CASE_THEN("play-to", play_to),
    CASE_THEN("mouse", mouse),
    CASE_THEN("tooltip", tooltip),
    CASE_THEN("cycling-keys", cycling_keys),
    CASE_THEN("too-big", too_big),
    CASE_THEN("failing-backend", failing_backend),
    CASE_THEN("small-device", small_device),
    CASE("tiny-window", tiny_window),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    cases_run();
    SDL_Quit();
    return cases_end();
}
