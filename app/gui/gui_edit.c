/*
 * gui_edit.c: editing an input on the stage. A click on a send buffer's
 * cell (or E, then the arrows or Tab to pick one) selects it and opens a
 * field in the banner; the learner types a value in the dtype's syntax
 * (whole numbers for the integer dtypes; any number, nan, inf or -inf for
 * the float ones), and Enter runs the collective again on the new inputs.
 * They reach cv_run as given inputs (cv_run_opts.inputs, the way --input's
 * values do), so the run is verified against the reference computed from
 * them, and the stage comes back at the time it showed. A value the dtype
 * cannot hold is refused in one line naming what it holds, the field
 * staying open; Esc closes it with nothing changed. While the field is
 * open it takes every key, so typing "e" or "n" never cycles the stage.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool zh(const gui *g) { return g->lang == CV_LANG_ZH; }

/* ------------------------------------------------------------- parsing */

/* What dtype d holds, in words: "int8 holds -128 to 127". */
static void holds(cv_dtype d, char *out, size_t n)
{
    if (!cv_dtype_is_float(d)) {
        long long lo = d == CV_INT8 ? -128 : d == CV_INT32 ? INT32_MIN : INT64_MIN;
        long long hi = d == CV_INT8 ? 127 : d == CV_INT32 ? INT32_MAX : INT64_MAX;
        snprintf(out, n, "%s holds %lld to %lld", cv_dtype_name(d), lo, hi);
        return;
    }
    double max = d == CV_FLOAT16    ? 65504.0
                 : d == CV_BFLOAT16 ? 3.3895313892515355e38
                 : d == CV_FLOAT32  ? (double)FLT_MAX
                                    : DBL_MAX;
    snprintf(out, n, "%s holds -%.6g to %.6g, nan, inf and -inf", cv_dtype_name(d), max, max);
}

int gui_parse_value(cv_dtype d, const char *text, void *out, char *err, size_t errlen)
{
    char s[48], lim[96];
    size_t n = 0;
    for (const char *p = text ? text : ""; *p && n + 1 < sizeof s; p++)
        if (!isspace((unsigned char)*p))
            s[n++] = (char)tolower((unsigned char)*p);
    s[n] = '\0';
    holds(d, lim, sizeof lim);
    if (!n) {
        snprintf(err, errlen, "type a value: %s", lim);
        return CV_EINVAL;
    }
    char *end;
    errno = 0;
    if (!cv_dtype_is_float(d)) {
        long long lo = d == CV_INT8 ? -128 : d == CV_INT32 ? INT32_MIN : INT64_MIN;
        long long hi = d == CV_INT8 ? 127 : d == CV_INT32 ? INT32_MAX : INT64_MAX;
        long long x = strtoll(s, &end, 10);
        if (end == s || *end) {
            /* 1e3 or 5.0: a whole number written as a float */
            errno = 0;
            double f = strtod(s, &end);
            if (end == s || *end || isnan(f)) {
                snprintf(err, errlen, "%s is not a number: %s", s, lim);
                return CV_EINVAL;
            }
            if (!isfinite(f) || f < (double)lo || f >= -(double)lo) {
                snprintf(err, errlen, "%s does not fit: %s", s, lim);
                return CV_EINVAL;
            }
            if (f != floor(f)) {
                snprintf(err, errlen, "%s is not a whole number: %s", s, lim);
                return CV_EINVAL;
            }
            x = (long long)f;
            errno = 0;
        }
        if (errno == ERANGE || x < lo || x > hi) {
            snprintf(err, errlen, "%s does not fit: %s", s, lim);
            return CV_EINVAL;
        }
        if (d == CV_INT64)
            *(int64_t *)out = x;
        else
            cv_value_set(d, out, 0, (double)x);
        return CV_OK;
    }
    double x = strtod(s, &end);
    if (end == s || *end) {
        snprintf(err, errlen, "%s is not a number: %s", s, lim);
        return CV_EINVAL;
    }
    cv_value_set(d, out, 0, x);
    if ((errno == ERANGE && isinf(x)) || (isinf(cv_value_get(d, out, 0)) && !isinf(x))) {
        snprintf(err, errlen, "%s does not fit: %s", s, lim);
        return CV_EINVAL;
    }
    return CV_OK;
}

/* ----------------------------------------------------------- selection */

static bool send_used(const gui *g, int r)
{
    return r >= 0 && r < g->spec.ranks && cv_spec_buf_used(&g->spec, CV_BUF_SEND, r) &&
           cv_spec_buf_count(&g->spec, CV_BUF_SEND, r) > 0;
}

static bool cell_ok(const gui *g, int r, int64_t i)
{
    return send_used(g, r) && i >= 0 && i < cv_spec_buf_count(&g->spec, CV_BUF_SEND, r);
}

bool gui_edit_begin(gui *g, int rank, int64_t i)
{
    if (g->lesson || g->hooks.on_cell || !g->panels[0].trace || !cell_ok(g, rank, i))
        return false;
    g->edit_sel = g->editing = true;
    g->edit_rank = rank;
    g->edit_index = i;
    g->edit_text[0] = g->edit_refused[0] = '\0';
    return true;
}

void gui_edit_cancel(gui *g)
{
    g->editing = g->edit_sel = false;
    g->edit_text[0] = g->edit_refused[0] = '\0';
}

bool gui_editing(const gui *g, int *rank, int64_t *i)
{
    if (rank)
        *rank = g->edit_sel ? g->edit_rank : -1;
    if (i)
        *i = g->edit_sel ? g->edit_index : -1;
    return g->editing;
}

const char *gui_edit_text(const gui *g) { return g->edit_text; }

void gui_edit_type(gui *g, const char *text)
{
    size_t n = strlen(g->edit_text);
    for (const char *p = text; *p && n + 1 < sizeof g->edit_text; p++)
        g->edit_text[n++] = *p;
    g->edit_text[n] = '\0';
}

/* Moves the selection: dr ranks (Up, Down), di elements (Left, Right,
 * Tab), past a rank's end onto the next rank that has a send buffer. */
static void move(gui *g, int dr, int di)
{
    int R = g->spec.ranks, r = g->edit_rank;
    int64_t i = g->edit_index;
    if (dr) {
        for (int k = 0; k < R; k++) {
            r = ((r + dr) % R + R) % R;
            if (send_used(g, r))
                break;
        }
        int64_t n = cv_spec_buf_count(&g->spec, CV_BUF_SEND, r);
        i = i < n ? i : n - 1;
    } else {
        i += di;
        for (int k = 0; k <= R && !cell_ok(g, r, i); k++) {
            r = ((r + (di > 0 ? 1 : -1)) % R + R) % R;
            i = di > 0 ? 0 : cv_spec_buf_count(&g->spec, CV_BUF_SEND, r) - 1;
        }
    }
    if (cell_ok(g, r, i))
        gui_edit_begin(g, r, i);
}

void gui__edit_start(gui *g)
{
    if (g->lesson)
        return;
    if (g->edit_sel && gui_edit_begin(g, g->edit_rank, g->edit_index))
        return;
    int r0 = g->focus >= 0 ? g->focus : 0;
    for (int k = 0; k < g->spec.ranks; k++)
        if (gui_edit_begin(g, (r0 + k) % g->spec.ranks, 0))
            return;
}

/* --------------------------------------------------------------- rerun */

/* The inputs of the stage now with rank's element i set to value: the
 * collective runs again on them, at the time shown. */
static int rerun(gui *g, int rank, int64_t i, const void *value, char *err, size_t errlen)
{
    const cv_trace *tr = g->panels[0].trace;
    cv_spec spec = g->spec;
    size_t es = cv_dtype_size(spec.dtype);
    void **in = cv_xcalloc((size_t)spec.ranks, sizeof *in);
    for (int r = 0; r < spec.ranks; r++) {
        const void *src = cv_trace_input(tr, r);
        int64_t n = cv_spec_buf_count(&spec, CV_BUF_SEND, r);
        if (!src || n <= 0)
            continue;
        in[r] = cv_xmalloc((size_t)n * es);
        memcpy(in[r], src, (size_t)n * es);
    }
    memcpy((char *)in[rank] + (size_t)i * es, value, es);
    const void *const *old = g->inputs;
    cv_spec old_spec = g->inputs_spec;
    double t = g->t;
    bool landed = g->landed;
    g->inputs = (const void *const *)in;
    g->inputs_spec = spec;
    /* A replayed trace's times and host were the recorded inputs' run: the
     * edited run is this machine's own. */
    const double *rec = g->rec_seconds;
    g->rec_seconds = NULL;
    int rc = gui_set_spec(g, &spec);
    if (rc != CV_OK) {
        g->inputs = old;
        g->inputs_spec = old_spec;
        g->rec_seconds = rec;
        for (int r = 0; r < spec.ranks; r++)
            free(in[r]);
        free(in);
        snprintf(err, errlen, "%s",
                 gui_current_message(g) ? gui_current_message(g) : cv_strerror(rc));
        return rc;
    }
    gui__edit_destroy(g);
    g->edit_inputs = in;
    g->edit_nranks = spec.ranks;
    gui_seek(g, t);
    g->landed = landed;
    return CV_OK;
}

int gui_edit_commit(gui *g, char *err, size_t errlen)
{
    char why[CV_ERR_LEN + 16];
    if (!g->editing || !cell_ok(g, g->edit_rank, g->edit_index)) {
        snprintf(why, sizeof why, "no send cell is selected");
        gui_edit_cancel(g);
        if (err)
            snprintf(err, errlen, "%s", why);
        return CV_EINVAL;
    }
    unsigned char value[16];
    int rc = gui_parse_value(g->spec.dtype, g->edit_text, value, why, sizeof why);
    if (rc == CV_OK && isnan(cv_value_get(g->spec.dtype, value, 0))) {
        char nan_why[CV_ERR_LEN - 16];
        if (cv_init_check(&g->spec, CV_INIT_NAN, nan_why, sizeof nan_why) != CV_OK) {
            snprintf(why, sizeof why, "nan: %s", nan_why);
            rc = CV_EINVAL;
        }
    }
    if (rc == CV_OK)
        rc = rerun(g, g->edit_rank, g->edit_index, value, why, sizeof why);
    if (rc != CV_OK) {
        snprintf(g->edit_refused, sizeof g->edit_refused, "%s", why);
        if (err)
            snprintf(err, errlen, "%s", why);
        return rc;
    }
    char shown[48], msg[CV_ERR_LEN];
    cv_value_format(g->spec.dtype, value, 0, shown, sizeof shown);
    int64_t wrong = 0;
    for (int p = 0; p < g->npanels; p++)
        if (g->panels[p].trace)
            wrong += cv_trace_wrong(g->panels[p].trace);
    if (zh(g))
        snprintf(msg, sizeof msg, "GPU %d 发送[%lld] = %s：已重新运行，%s", g->edit_rank,
                 (long long)g->edit_index, shown,
                 wrong ? "有结果与参考答案不同" : "校验通过（0 个错误）");
    else if (wrong)
        snprintf(msg, sizeof msg,
                 "GPU %d send[%lld] = %s: ran again, %lld results differ from the reference",
                 g->edit_rank, (long long)g->edit_index, shown, (long long)wrong);
    else
        snprintf(msg, sizeof msg, "GPU %d send[%lld] = %s: ran again, verified (0 wrong)",
                 g->edit_rank, (long long)g->edit_index, shown);
    gui_message(g, msg, 5);
    if (g->edit_echo) {
        printf(
            "collviz: edit: GPU %d send[%lld] = %s (%s): ran again at step %g of %d, %lld wrong\n",
            g->edit_rank, (long long)g->edit_index, shown, cv_dtype_name(g->spec.dtype), g->t,
            g->ns, (long long)wrong);
        fflush(stdout);
    }
    g->editing = false;
    g->edit_text[0] = g->edit_refused[0] = '\0';
    return CV_OK;
}

void gui__edit_destroy(gui *g)
{
    if (!g->edit_inputs)
        return;
    if (g->inputs == (const void *const *)g->edit_inputs)
        g->inputs = NULL;
    for (int r = 0; r < g->edit_nranks; r++)
        free(g->edit_inputs[r]);
    free(g->edit_inputs);
    g->edit_inputs = NULL;
}

/* ---------------------------------------------------------- the window */

/* The character a key types into the field, or 0. */
static char key_char(SDL_Keycode c, bool shift)
{
    if (c >= SDLK_0 && c <= SDLK_9)
        return (char)c;
    if (c >= SDLK_KP_1 && c <= SDLK_KP_9)
        return (char)('1' + (c - SDLK_KP_1));
    if (c == SDLK_KP_0)
        return '0';
    if (c >= SDLK_a && c <= SDLK_z)
        return (char)c;
    if (c == SDLK_MINUS || c == SDLK_KP_MINUS)
        return '-';
    if (c == SDLK_PLUS || c == SDLK_KP_PLUS || (c == SDLK_EQUALS && shift))
        return '+';
    if (c == SDLK_PERIOD || c == SDLK_KP_PERIOD)
        return '.';
    return 0;
}

bool gui__edit_key(gui *g, const SDL_KeyboardEvent *k)
{
    if (!g->editing)
        return false;
    SDL_Keycode c = k->keysym.sym;
    bool shift = (k->keysym.mod & KMOD_SHIFT) != 0;
    if (k->keysym.mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI))
        return true;
    size_t n = strlen(g->edit_text);
    switch (c) {
    case SDLK_ESCAPE:
        gui_edit_cancel(g);
        gui_message(g, zh(g) ? "已取消编辑" : "edit cancelled", 2);
        return true;
    case SDLK_RETURN:
    case SDLK_KP_ENTER: gui_edit_commit(g, NULL, 0); return true;
    case SDLK_BACKSPACE:
        if (n)
            g->edit_text[n - 1] = '\0';
        g->edit_refused[0] = '\0';
        return true;
    case SDLK_DELETE: g->edit_text[0] = g->edit_refused[0] = '\0'; return true;
    case SDLK_LEFT:
    case SDLK_RIGHT: move(g, 0, c == SDLK_LEFT ? -1 : 1); return true;
    case SDLK_TAB: move(g, 0, shift ? -1 : 1); return true;
    case SDLK_UP:
    case SDLK_DOWN: move(g, c == SDLK_UP ? -1 : 1, 0); return true;
    default: break;
    }
    char ch = key_char(c, shift);
    if (ch) {
        char s[2] = {ch, '\0'};
        gui_edit_type(g, s);
        g->edit_refused[0] = '\0';
    }
    return true; /* the field takes every key while it is open */
}

bool gui_send_cell_point(gui *g, int rank, int64_t i, int *x, int *y)
{
    if (!g->panels[0].trace || !cell_ok(g, rank, i))
        return false;
    (void)gui__hit(g, 0, 0); /* lays the frame out as it is now */
    const rd_layout *L = g->hit_layout;
    if (L->npanels < 1 || rank >= L->panels[0].nparts)
        return false;
    const rd_card_layout *cl = &L->panels[0].cards[rank];
    for (int j = 0; j < cl->cells[CV_BUF_SEND]; j++) {
        int64_t first, count;
        rd_cell_span(cl, CV_BUF_SEND, j, &first, &count);
        if (i < first || i >= first + count)
            continue;
        SDL_Rect c = rd_cell_rect(cl, CV_BUF_SEND, j);
        float dpi = gui_dpi(g) > 0 ? gui_dpi(g) : 1;
        *x = (int)((c.x + c.w / 2) / dpi);
        *y = (int)((c.y + c.h / 2) / dpi);
        return c.w > 0;
    }
    return false;
}

bool gui__edit_click(gui *g, const rd_hit *h)
{
    if (h->kind != RD_HIT_CELL || h->buf != CV_BUF_SEND)
        return false;
    return gui_edit_begin(g, h->rank, h->first);
}

void gui__edit_frame(gui *g, rd_frame *f)
{
    if (!g->edit_sel)
        return;
    if (g->lesson || !cell_ok(g, g->edit_rank, g->edit_index)) {
        gui_edit_cancel(g); /* another stage: the cell is gone */
        return;
    }
    if (f->npicks < RD_MAX_REGIONS)
        f->picks[f->npicks++] = (rd_region){g->edit_rank, CV_BUF_SEND, g->edit_index, 1};
    if (!g->editing || !g->panels[0].trace)
        return;
    char now[48] = "?";
    const void *in = cv_trace_input(g->panels[0].trace, g->edit_rank);
    if (in)
        cv_value_format(g->spec.dtype, in, g->edit_index, now, sizeof now);
    const char *dt = cv_dtype_name(g->spec.dtype);
    size_t n = 0, cap = sizeof g->edit_line;
    if (g->edit_refused[0])
        n = (size_t)snprintf(g->edit_line, cap, "%s. ", g->edit_refused);
    if (n >= cap)
        n = cap - 1;
    if (zh(g))
        snprintf(g->edit_line + n, cap - n,
                 "GPU %d 发送[%lld]（%s，现为 %s）：%s_   Enter 重新运行 · Esc 取消 · 方向键换格子",
                 g->edit_rank, (long long)g->edit_index, dt, now, g->edit_text);
    else
        snprintf(g->edit_line + n, cap - n,
                 "GPU %d send[%lld] (%s, now %s): %s_   Enter runs it again · Esc cancels · "
                 "arrows pick another cell",
                 g->edit_rank, (long long)g->edit_index, dt, now, g->edit_text);
    f->message = g->edit_line;
}
