/*
 * lesson_text.c: lessons in a terminal. The text player prints each beat's
 * narration with the stage as numbers (every rank's buffers after the
 * beat's step, highlighted cells in brackets, cells nothing has reached yet
 * as dots), and asks the quizzes on stdin when it is a terminal. It is what
 * `collviz lesson` shows without a display, a teacher's handout when piped,
 * and the drill's way of showing a predict-the-next-state question.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lesson_internal.h"

/* ----------------------------------------------------------- UI strings */

static const char *const ui_strings[LESSON__SAY_COUNT][LESSON_LANG_COUNT] = {
    [LESSON__SAY_BEAT] = {"beat", "第"},
    [LESSON__SAY_QUIZ] = {"Quiz", "测验"},
    [LESSON__SAY_ANSWER] = {"Answer", "答案"},
    [LESSON__SAY_RIGHT] = {"Right.", "答对了。"},
    [LESSON__SAY_WRONG] = {"Not quite.", "不对。"},
    [LESSON__SAY_TRY_AGAIN] = {"Try once more.", "再试一次。"},
    [LESSON__SAY_CARD] = {"Standard answer", "标准答案"},
    [LESSON__SAY_MYTH] = {"Common mistake", "常见误区"},
    [LESSON__SAY_TRUTH] = {"In fact", "实际上"},
    [LESSON__SAY_NEXT] = {"[Enter: next beat, q: quit]", "[回车：下一段，q：退出]"},
    [LESSON__SAY_STAGE] = {"stage after", "演示区：完成"},
    [LESSON__SAY_OF] = {"of", "/"},
    [LESSON__SAY_STEPS] = {"steps", "步之后"},
    [LESSON__SAY_LAST_STEP] = {"last step", "上一步"},
    [LESSON__SAY_NEXT_STEP] = {"the question is about step", "问题针对第"},
    [LESSON__SAY_TYPE_LETTER] = {"type a letter", "输入字母"},
    [LESSON__SAY_TYPE_VALUE] = {"type a letter or the value", "输入字母或数值"},
    [LESSON__SAY_TYPE_NUMBER] = {"type a number in", "输入数值，单位"},
    [LESSON__SAY_TYPE_CELLS] = {"type cells as RANK BUF INDEX or RANK BUF[FIRST..END), separated "
                                "by commas, e.g. 1 recv[0..2), 2 recv 3",
                                "按 RANK BUF INDEX 或 RANK BUF[FIRST..END) 输入单元格，用逗号分隔，"
                                "例如 1 recv[0..2), 2 recv 3"},
    [LESSON__SAY_MISSING] = {"cells missed", "个单元格漏选"},
    [LESSON__SAY_EXTRA] = {"cells too many", "个单元格多选"},
    [LESSON__SAY_TOLERANCE] = {"within", "允许误差"},
    [LESSON__SAY_DONE] = {"End of the lesson.", "本课结束。"},
    /* One notation for ranges everywhere, the one `collviz run` prints. */
    [LESSON__SAY_RANGES] = {"Ranges of elements are half-open, as `collviz run` prints them: "
                            "recv[0..2) is elements 0 and 1.",
                            "元素区间左闭右开，与 `collviz run` 的写法相同：recv[0..2) 指第 0 和"
                            "第 1 个元素。"},
};

const char *lesson__say(lesson__say_id id, lesson_lang lang)
{
    if ((unsigned)id >= LESSON__SAY_COUNT)
        return "";
    return ui_strings[id][(unsigned)lang < LESSON_LANG_COUNT ? lang : LESSON_EN];
}

void lesson_play_opts_init(lesson_play_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->show_state = true;
}

/* ------------------------------------------------------------ the stage */

static bool highlighted(const lesson_highlight *h, int rank, cv_buf buf, int64_t i)
{
    lesson_cell cell = {rank, buf, i};
    return lesson_cells_contain(h->chunks, h->nchunks, &cell);
}

static bool rank_highlighted(const lesson_highlight *h, int rank)
{
    for (int i = 0; i < h->nranks; i++)
        if (h->ranks[i] == rank)
            return true;
    return false;
}

/* "r0", or "sw" for the switch of an in-network plan, as `collviz run`. */
static const char *part_name(const cv_plan *plan, int part, char *out, size_t n)
{
    if (part >= plan->spec.ranks)
        snprintf(out, n, "sw");
    else
        snprintf(out, n, "r%d", part);
    return out;
}

/* "r4.send[4..5) -> r0.recv[4..5)  sum": half-open ranges, in the form
 * `collviz run` prints, so a learner meets one notation. */
static void print_transfers(const cv_plan *plan, int step, FILE *out)
{
    const cv_step *st = &plan->steps[step];
    int shown = 0;
    for (int64_t t = st->first; t < st->first + st->count; t++) {
        const cv_transfer *x = &plan->transfers[t];
        if (shown == 8) {
            fprintf(out, "      ... %lld more\n", (long long)(st->first + st->count - t));
            break;
        }
        const char *kind = x->kind == CV_XFER_COPY ? "copy" : cv_redop_name(plan->spec.redop);
        char a[16], b[16];
        fprintf(out, "      %s.%s[%lld..%lld) -> %s.%s[%lld..%lld)  %s\n",
                part_name(plan, x->src, a, sizeof a), cv_buf_name((cv_buf)x->src_buf),
                (long long)x->src_off, (long long)(x->src_off + x->count),
                part_name(plan, x->dst, b, sizeof b), cv_buf_name((cv_buf)x->dst_buf),
                (long long)x->dst_off, (long long)(x->dst_off + x->count), kind);
        shown++;
    }
}

static void print_buffer(const cv_state *state, const lesson_beat *b, int rank, cv_buf buf,
                         cv_dtype dtype, int width, FILE *out)
{
    cv_bufview v = cv_state_buf(state, rank, buf);
    fprintf(out, "%-7s", cv_buf_name(buf));
    for (int64_t i = 0; i < v.count; i++) {
        char val[32];
        /* No contributing rank yet: nothing has arrived; a dot says so
         * better than whatever the buffer was initialised with. */
        if (v.masks && v.masks[i] == 0)
            snprintf(val, sizeof val, ".");
        else
            cv_value_format(dtype, v.values, i, val, sizeof val);
        bool hl = highlighted(&b->highlight, rank, buf, i);
        fprintf(out, "%s%*s%s", hl ? "[" : " ", width, val, hl ? "]" : " ");
    }
    fputc('\n', out);
}

static int value_width(const cv_state *state, int ranks, cv_dtype dtype)
{
    int width = 1;
    for (int r = 0; r < ranks; r++) {
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            cv_bufview v = cv_state_buf(state, r, (cv_buf)b);
            for (int64_t i = 0; i < v.count; i++) {
                char val[32];
                int n = cv_value_format(dtype, v.values, i, val, sizeof val);
                if (n > width)
                    width = n;
            }
        }
    }
    return width;
}

static bool buffer_used(const cv_state *state, int rank, cv_buf buf)
{
    cv_bufview v = cv_state_buf(state, rank, buf);
    if (buf != CV_BUF_SCRATCH)
        return v.count > 0;
    for (int64_t i = 0; i < v.count; i++)
        if (v.masks && v.masks[i] != 0)
            return true;
    return false;
}

void lesson_print_state(const lesson *l, int beat, FILE *out)
{
    const lesson_beat *b = &l->beats[beat];
    const lesson_setup *s = &l->setups[b->setup];
    lesson_lang lang = LESSON_EN;
    char err[CV_ERR_LEN];
    cv_plan *plan = NULL;
    cv_trace *trace = NULL;
    cv_state *state = NULL;
    if (cv_plan_create(&s->spec, &plan, err, sizeof err) != CV_OK)
        goto fail;
    cv_run_opts opts;
    cv_run_opts_init(&opts);
    opts.init = s->init;
    opts.seed = s->seed;
    opts.visual = true;
    if (cv_run(plan, cv_cpu_backend(), &opts, &trace, err, sizeof err) != CV_OK)
        goto fail;
    if (cv_state_create(trace, &state) != CV_OK) {
        snprintf(err, sizeof err, "the trace has no recorded states");
        goto fail;
    }
    cv_state_seek(state, b->step);
    fprintf(out, "  %s %s, %d ranks, count %lld %s, init %s: %s %d %s %d %s\n",
            cv_op_name(s->spec.op), cv_algo_name(s->spec.algo), s->spec.ranks,
            (long long)s->spec.count, cv_dtype_name(s->spec.dtype), cv_init_name(s->init),
            lesson__say(LESSON__SAY_STAGE, lang), b->step, lesson__say(LESSON__SAY_OF, lang),
            plan->nsteps, lesson__say(LESSON__SAY_STEPS, lang));
    int width = value_width(state, s->spec.ranks, s->spec.dtype);
    for (int r = 0; r < s->spec.ranks; r++) {
        bool first = true;
        for (int buf = 0; buf < CV_BUF_COUNT; buf++) {
            if (!buffer_used(state, r, (cv_buf)buf))
                continue;
            if (first)
                fprintf(out, "  %s rank %-3d ", rank_highlighted(&b->highlight, r) ? ">" : " ", r);
            else
                fprintf(out, "  %*s", 11, "");
            print_buffer(state, b, r, (cv_buf)buf, s->spec.dtype, width, out);
            first = false;
        }
    }
    if (b->highlight.nlinks > 0) {
        fprintf(out, "  links:");
        for (int i = 0; i < b->highlight.nlinks; i++)
            fprintf(out, " %d->%d", b->highlight.links[i].src, b->highlight.links[i].dst);
        fputc('\n', out);
    }
    if (b->step > 0 && !(b->quiz && b->quiz->kind == LESSON_QUIZ_PREDICT_CELLS)) {
        const cv_step *st = &plan->steps[b->step - 1];
        fprintf(out, "  %s (%d, %s):\n", lesson__say(LESSON__SAY_LAST_STEP, lang), b->step,
                st->phase ? st->phase : "-");
        print_transfers(plan, b->step - 1, out);
    }
    if (b->quiz && (b->quiz->kind == LESSON_QUIZ_PREDICT_VALUE ||
                    b->quiz->kind == LESSON_QUIZ_PREDICT_CELLS)) {
        const cv_step *st = &plan->steps[b->step];
        fprintf(out, "  %s %d (%s)\n", lesson__say(LESSON__SAY_NEXT_STEP, lang), b->step + 1,
                st->phase ? st->phase : "-");
    }
    goto done;
fail:
    fprintf(out, "  (the stage cannot be shown: %s)\n", err);
done:
    cv_state_destroy(state);
    cv_trace_destroy(trace);
    cv_plan_destroy(plan);
}

/* ------------------------------------------------------------- quizzes */

static void print_cells(const lesson_chunk *cells, int n, FILE *out)
{
    for (int i = 0; i < n; i++) {
        const lesson_chunk *c = &cells[i];
        /* one cell by its index, several as a half-open range */
        if (c->count > 1)
            fprintf(out, "%s%d %s[%lld..%lld)", i ? ", " : "", c->rank, cv_buf_name(c->buf),
                    (long long)c->first, (long long)(c->first + c->count));
        else
            fprintf(out, "%s%d %s %lld", i ? ", " : "", c->rank, cv_buf_name(c->buf),
                    (long long)c->first);
    }
}

void lesson_print_quiz(const lesson_quiz *q, lesson_lang lang, FILE *out)
{
    fprintf(out, "\n  %s (%s): %s\n", lesson__say(LESSON__SAY_QUIZ, lang),
            lesson_quiz_kind_name(q->kind), lesson_text_get(&q->prompt, lang));
    int order[LESSON_MAX_SHOWN];
    int n = lesson_quiz_order(q, order);
    switch (q->kind) {
    case LESSON_QUIZ_CHOICE:
        for (int i = 0; i < n; i++)
            fprintf(out, "    %c) %s\n", 'a' + i, lesson_text_get(&q->choices[order[i]].text, lang));
        fprintf(out, "  (%s)\n", lesson__say(LESSON__SAY_TYPE_LETTER, lang));
        break;
    case LESSON_QUIZ_PREDICT_VALUE:
        fprintf(out, "   ");
        for (int i = 0; i < n; i++)
            fprintf(out, " %c) %g ", 'a' + i, q->options[order[i]]);
        fprintf(out, "\n  (%s)\n", lesson__say(LESSON__SAY_TYPE_VALUE, lang));
        break;
    case LESSON_QUIZ_NUMBER:
        fprintf(out, "  (%s %s)\n", lesson__say(LESSON__SAY_TYPE_NUMBER, lang), lesson_quiz_unit(q, lang));
        break;
    default:
        fprintf(out, "  (%s)\n", lesson__say(LESSON__SAY_TYPE_CELLS, lang));
        break;
    }
}

void lesson_print_answer(const lesson_quiz *q, lesson_lang lang, FILE *out)
{
    fprintf(out, "  %s: ", lesson__say(LESSON__SAY_ANSWER, lang));
    switch (q->kind) {
    case LESSON_QUIZ_CHOICE:
        fprintf(out, "%c) %s\n", 'a' + lesson_quiz_shown(q, q->answer),
                lesson_text_get(&q->choices[q->answer].text, lang));
        break;
    case LESSON_QUIZ_PREDICT_VALUE:
        fprintf(out, "%c) %g\n", 'a' + lesson_quiz_shown(q, q->answer), q->options[q->answer]);
        break;
    case LESSON_QUIZ_NUMBER:
        if (q->tolerance_pct)
            fprintf(out, "%.4g %s (%s %g%%)\n", q->number, lesson_quiz_unit(q, lang),
                    lesson__say(LESSON__SAY_TOLERANCE, lang), q->tolerance);
        else
            fprintf(out, "%.4g %s (%s %g %s)\n", q->number, lesson_quiz_unit(q, lang),
                    lesson__say(LESSON__SAY_TOLERANCE, lang), q->tolerance, lesson_quiz_unit(q, lang));
        break;
    default:
        print_cells(q->cells, q->ncells, out);
        fputc('\n', out);
        break;
    }
    if (lesson_text_present(&q->explain))
        fprintf(out, "  %s\n", lesson_text_get(&q->explain, lang));
    fprintf(out, "  %s: %s\n", lesson__say(LESSON__SAY_CARD, lang), lesson_text_get(&q->card, lang));
}

/* Reads one line; false at end of input. An overlong line keeps what fits,
 * cut between characters, and the rest is dropped. */
static bool read_line(FILE *in, char *buf, size_t n)
{
    if (!fgets(buf, (int)n, in))
        return false;
    size_t len = strlen(buf);
    if (len > 0 && buf[len - 1] != '\n' && !feof(in)) {
        int ch = fgetc(in);
        if (ch != EOF && (ch & 0xC0) == 0x80) {
            /* fgets stopped inside a character: drop its first bytes too */
            while (len > 0 && ((unsigned char)buf[len - 1] & 0xC0) == 0x80)
                len--;
            if (len > 0 && (unsigned char)buf[len - 1] >= 0xC0)
                len--;
            buf[len] = '\0';
        }
        while (ch != EOF && ch != '\n')
            ch = fgetc(in);
    }
    return true;
}

static bool is_quit(const char *line)
{
    char s[8];
    if (sscanf(line, " %7s", s) != 1)
        return false;
    return strcmp(s, "q") == 0 || strcmp(s, "quit") == 0;
}

void lesson__print_verdict(const lesson_quiz *q, const lesson_verdict *v, lesson_lang lang,
                           FILE *out)
{
    fprintf(out, "  %s", lesson__say(v->correct ? LESSON__SAY_RIGHT : LESSON__SAY_WRONG, lang));
    if (!v->correct && q->kind == LESSON_QUIZ_PREDICT_CELLS)
        fprintf(out, " (%d %s, %d %s)", v->missing, lesson__say(LESSON__SAY_MISSING, lang), v->extra,
                lesson__say(LESSON__SAY_EXTRA, lang));
    fputc('\n', out);
    if (!v->correct && v->why && q->kind == LESSON_QUIZ_CHOICE && v->why != &q->explain)
        fprintf(out, "  %s\n", lesson_text_get(v->why, lang));
}

int lesson_ask_quiz(const lesson_quiz *q, lesson_lang lang, FILE *in, FILE *out)
{
    int first = -1;
    char line[512];
    for (int tries = 0; tries < 2;) {
        fprintf(out, "  > ");
        fflush(out);
        if (!read_line(in, line, sizeof line))
            return -1;
        if (is_quit(line))
            return -1;
        lesson_verdict v;
        char err[256];
        if (!lesson_check_typed(q, line, &v, err, sizeof err)) {
            fprintf(out, "  (%s)\n", err);
            continue;
        }
        if (first < 0)
            first = v.correct;
        tries++;
        lesson__print_verdict(q, &v, lang, out);
        if (v.correct)
            break;
        if (tries < 2)
            fprintf(out, "  %s\n", lesson__say(LESSON__SAY_TRY_AGAIN, lang));
    }
    lesson_print_answer(q, lang, out);
    return first;
}

/* ---------------------------------------------------------- the player */

/* A beat's step timeline, one line a lane: each block's label (a bubble's
 * "idle"), "comm" for a collective, and when it runs. Which
 * communication is exposed the beat's text says; the window shows it. */
static void print_timeline(const lesson_timeline *t, lesson_lang lang, FILE *out)
{
    bool zh = lang == LESSON_ZH;
    const char *unit = strcmp(t->unit, "us") == 0     ? "\xC2\xB5s"
                       : strcmp(t->unit, "slot") == 0 ? (zh ? "时隙" : "slots")
                                                      : t->unit;
    fprintf(out, zh ? "  [时间线，%s]\n" : "  [timeline, %s]\n", unit);
    for (int ln = 0; ln < t->nlanes; ln++) {
        fprintf(out, zh ? "    %s：" : "    %s: ", lesson_text_get(&t->lanes[ln].label, lang));
        int n = 0;
        for (int i = 0; i < t->nblocks; i++) {
            const lesson_span *b = &t->blocks[i];
            if (b->lane != ln)
                continue;
            const char *label = lesson_text_present(&b->label)  ? lesson_text_get(&b->label, lang)
                                : b->kind == LESSON_SPAN_BUBBLE ? (zh ? "空闲" : "idle")
                                                                : "";
            char t0[32], t1[32];
            /* three digits, but no exponent: 2080, not 2.08e+03 */
            snprintf(t0, sizeof t0, b->start >= 1000 ? "%.0f" : "%.3g", b->start);
            double end = b->start + b->duration;
            snprintf(t1, sizeof t1, end >= 1000 ? "%.0f" : "%.3g", end);
            fprintf(out, "%s%s%s %s\xE2\x80\x93%s", n++ ? (zh ? "，" : ", ") : "", label,
                    b->kind == LESSON_SPAN_COMM ? (zh ? "（通信）" : " (comm)") : "", t0, t1);
        }
        fputc('\n', out);
    }
}

static void print_mistakes(const lesson *l, lesson_lang lang, FILE *out)
{
    for (int i = 0; i < l->nmistakes; i++) {
        fprintf(out, "\n  %s: %s\n", lesson__say(LESSON__SAY_MYTH, lang),
                lesson_text_get(&l->mistakes[i].myth, lang));
        fprintf(out, "  %s: %s\n", lesson__say(LESSON__SAY_TRUTH, lang),
                lesson_text_get(&l->mistakes[i].truth, lang));
    }
}

int lesson_play_text(const lesson *l, int beat, const lesson_play_opts *opts, FILE *in, FILE *out)
{
    lesson_lang lang = opts->lang;
    fprintf(out, "== %s (%s, %s %d) ==\n", lesson_text_get(&l->title, lang), l->id,
            lesson_track_name(l->track), l->order);
    if (lesson_text_present(&l->summary))
        fprintf(out, "%s\n", lesson_text_get(&l->summary, lang));
    if (opts->show_state)
        fprintf(out, "(%s)\n", lesson__say(LESSON__SAY_RANGES, lang));
    for (int i = beat; i < l->nbeats; i++) {
        const lesson_beat *b = &l->beats[i];
        if (opts->on_beat)
            opts->on_beat(opts->user, i);
        if (lang == LESSON_ZH)
            fprintf(out, "\n-- 第 %d/%d 段 --\n", i + 1, l->nbeats);
        else
            fprintf(out, "\n-- beat %d/%d --\n", i + 1, l->nbeats);
        fprintf(out, "%s\n", lesson_text_get(&b->text, lang));
        if (b->diagram) {
            fprintf(out, "  [diagram]");
            for (int k = 0; k < b->diagram->narrows; k++) {
                const lesson_arrow *a = &b->diagram->arrows[k];
                fprintf(out, "%s %s -> %s", k ? "," : "",
                        lesson_text_get(&b->diagram->boxes[a->from].label, lang),
                        lesson_text_get(&b->diagram->boxes[a->to].label, lang));
            }
            fputc('\n', out);
        }
        if (b->timeline && (i == beat || b->timeline != l->beats[i - 1].timeline))
            print_timeline(b->timeline, lang, out);
        if (opts->show_state) {
            fputc('\n', out);
            lesson_print_state(l, i, out);
        }
        if (b->quiz) {
            lesson_print_quiz(b->quiz, lang, out);
            if (opts->interactive) {
                int r = lesson_ask_quiz(b->quiz, lang, in, out);
                if (r < 0)
                    return CLI_EXIT_OK;
                if (opts->on_quiz)
                    opts->on_quiz(opts->user, b->quiz, r == 1);
            } else {
                lesson_print_answer(b->quiz, lang, out);
            }
        } else if (opts->interactive && i + 1 < l->nbeats) {
            char line[64];
            fprintf(out, "%s ", lesson__say(LESSON__SAY_NEXT, lang));
            fflush(out);
            if (!read_line(in, line, sizeof line) || is_quit(line))
                return CLI_EXIT_OK;
        }
    }
    print_mistakes(l, lang, out);
    fprintf(out, "\n%s\n", lesson__say(LESSON__SAY_DONE, lang));
    if (opts->on_finish)
        opts->on_finish(opts->user);
    return CLI_EXIT_OK;
}
