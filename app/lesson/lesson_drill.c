/*
 * lesson_drill.c: the interview drill. It is a terminal program on purpose: an
 * interview is words, not animation. Questions come from every lesson in a
 * seeded random order; the clock is real (input is read with poll on the
 * file descriptor, so a learner who stops typing still runs out of time);
 * each answer gets one try, then the verdict, the explanation and the
 * standard-answer card, and, when the quiz names one of its lesson's
 * mistake cards (the quiz's "mistake" in the file), that card: a myth
 * about another point of the lesson would only distract, so a quiz that
 * names none is followed by none. A card named by two quizzes is shown
 * once. The score goes into progress.
 */
#define _POSIX_C_SOURCE 200809L
#include "lesson_drill.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lesson_cmd.h"
#include "lesson_internal.h"
#include "lesson_progress.h"

int lesson_drill_items(const lesson_course *c, uint64_t seed, lesson_drill_item **out)
{
    int n = 0;
    for (int i = 0; i < c->nlessons; i++)
        n += c->lessons[i]->nquizzes;
    lesson_drill_item *items = lesson__xcalloc((size_t)(n ? n : 1), sizeof *items);
    int k = 0;
    for (int i = 0; i < c->nlessons; i++)
        for (int j = 0; j < c->lessons[i]->nquizzes; j++)
            items[k++] = (lesson_drill_item){c->lessons[i], &c->lessons[i]->quizzes[j]};
    uint64_t s = seed;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(lesson__next_random(&s) % (uint64_t)(i + 1));
        lesson_drill_item t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    *out = items;
    return n;
}

/* Line reading straight from a descriptor with a deadline. */
typedef struct {
    int fd;
    char buf[1024];
    size_t len;
    bool eof;
    bool skip; /* the line was longer than buf: its rest is no new answer */
} line_reader;

/* 1: a line in out; 0: end of input; -1: the deadline passed. */
static int read_line(line_reader *r, char *out, size_t n, double deadline)
{
    for (;;) {
        if (r->skip) { /* drop what is left of a line already answered */
            char *end = memchr(r->buf, '\n', r->len);
            size_t drop = end ? (size_t)(end - r->buf) + 1 : r->len;
            memmove(r->buf, r->buf + drop, r->len - drop);
            r->len -= drop;
            r->skip = !end && !r->eof;
        }
        char *nl = r->skip ? NULL : memchr(r->buf, '\n', r->len);
        if (!r->skip && (nl || r->eof || r->len == sizeof r->buf)) {
            size_t take = nl ? (size_t)(nl - r->buf) : r->len;
            if (!nl && r->eof && r->len == 0)
                return 0;
            /* A long answer is cut between UTF-8 characters, never inside one. */
            size_t copy = take < n - 1 ? take : n - 1;
            if (copy < take) {
                char line[sizeof r->buf + 1];
                memcpy(line, r->buf, take);
                line[take] = '\0';
                copy = lesson_utf8_prefix(line, n - 1);
            }
            memcpy(out, r->buf, copy);
            out[copy] = '\0';
            size_t used = nl ? take + 1 : take;
            memmove(r->buf, r->buf + used, r->len - used);
            r->len -= used;
            r->skip = !nl && !r->eof; /* cut at the buffer: one answer all the same */
            return 1;
        }
        int timeout = -1;
        if (deadline > 0) {
            double left = deadline - cv_now_seconds();
            if (left <= 0)
                return -1;
            timeout = (int)(left * 1000) + 1;
        }
        struct pollfd pfd = {r->fd, POLLIN, 0};
        int pr = poll(&pfd, 1, timeout);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0)
            return -1;
        ssize_t got = read(r->fd, r->buf + r->len, sizeof r->buf - r->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            r->eof = true;
        else
            r->len += (size_t)got;
    }
}

static void print_clock(FILE *out, double deadline)
{
    if (deadline <= 0)
        return;
    double left = deadline - cv_now_seconds();
    if (left < 0)
        left = 0;
    fprintf(out, "  [%d:%02d]", (int)left / 60, (int)left % 60);
}

struct lesson_drill_session {
    const lesson_drill_item *items;
    int n, i;          /* questions, and the one on screen */
    lesson_lang lang;
    double deadline;   /* cv_now_seconds() when time is up; 0: no clock */
    FILE *out;
    void (*on_answer)(void *user, const lesson_quiz *q, bool correct);
    void *user;
    const lesson_mistake **shown; /* mistake cards shown so far: each is shown once */
    int nshown;
    bool over;
    lesson_drill_result res;
};

/* Question i: its lesson, the clock, the state it asks about, the quiz. */
static void ask(lesson_drill_session *s)
{
    const lesson_drill_item *it = &s->items[s->i];
    fprintf(s->out, "\n== %d/%d  %s", s->i + 1, s->n, lesson_text_get(&it->l->title, s->lang));
    print_clock(s->out, s->deadline);
    fputs(" ==\n", s->out);
    if (it->q->kind == LESSON_QUIZ_PREDICT_VALUE || it->q->kind == LESSON_QUIZ_PREDICT_CELLS)
        lesson_print_state(it->l, it->q->beat, s->out);
    lesson_print_quiz(it->q, s->lang, s->out);
    fputs("  > ", s->out);
    fflush(s->out);
}

lesson_drill_session *lesson_drill_begin(const lesson_drill_item *items, int n, lesson_lang lang, double seconds,
                           FILE *out, void (*on_answer)(void *user, const lesson_quiz *q,
                                                        bool correct),
                           void *user)
{
    lesson_drill_session *s = lesson__xcalloc(1, sizeof *s);
    *s = (lesson_drill_session){.items = items, .n = n, .lang = lang, .out = out,
                         .on_answer = on_answer, .user = user};
    s->deadline = seconds > 0 ? cv_now_seconds() + seconds : 0;
    s->shown = lesson__xcalloc((size_t)(n ? n : 1), sizeof *s->shown);
    s->over = n <= 0;
    if (!s->over)
        ask(s);
    return s;
}

bool lesson_drill_take(lesson_drill_session *s, const char *line)
{
    if (s->over)
        return false;
    if (lesson_drill_time_up(s))
        return false;
    if (!strcmp(line, "q") || !strcmp(line, "quit")) {
        s->over = true;
        return false;
    }
    const lesson_drill_item *it = &s->items[s->i];
    lesson_verdict v;
    bool passed = false;
    char err[256];
    if (line[strspn(line, " \t\r")] == '\0') {
        /* Enter alone passes: in an interview "I don't know" costs the
         * point, and the card still teaches the answer. */
        memset(&v, 0, sizeof v);
        passed = true;
        fprintf(s->out, "  (%s)\n", s->lang == LESSON_ZH ? "跳过" : "passed");
    } else if (!lesson_check_typed(it->q, line, &v, err, sizeof err)) {
        fprintf(s->out, "  (%s)\n  > ", err); /* not an answer: the same question again */
        fflush(s->out);
        return true;
    }
    s->res.asked++;
    s->res.right += v.correct;
    if (!passed)
        lesson__print_verdict(it->q, &v, s->lang, s->out);
    lesson_print_answer(it->q, s->lang, s->out);
    if (s->on_answer)
        s->on_answer(s->user, it->q, v.correct);
    const lesson_mistake *m = NULL;
    if (it->q->mistake >= 0 && it->q->mistake < it->l->nmistakes)
        m = &it->l->mistakes[it->q->mistake];
    for (int k = 0; m && k < s->nshown; k++)
        if (s->shown[k] == m)
            m = NULL;
    if (m) {
        s->shown[s->nshown++] = m;
        fprintf(s->out, "  %s: %s\n", lesson__say(LESSON__SAY_MYTH, s->lang),
                lesson_text_get(&m->myth, s->lang));
        fprintf(s->out, "  %s: %s\n", lesson__say(LESSON__SAY_TRUTH, s->lang),
                lesson_text_get(&m->truth, s->lang));
    }
    if (++s->i >= s->n) {
        s->over = true;
        fflush(s->out);
        return false;
    }
    ask(s);
    return true;
}

bool lesson_drill_time_up(lesson_drill_session *s)
{
    if (s->over || s->deadline <= 0 || cv_now_seconds() < s->deadline)
        return s->over && s->res.timed_out;
    s->over = true;
    s->res.timed_out = true;
    fprintf(s->out, "\n  %s\n", s->lang == LESSON_ZH ? "时间到。" : "Time is up.");
    fflush(s->out);
    return true;
}

double lesson_drill_seconds_left(const lesson_drill_session *s)
{
    if (s->deadline <= 0)
        return -1;
    double left = s->deadline - cv_now_seconds();
    return left > 0 ? left : 0;
}

bool lesson_drill_over(const lesson_drill_session *s) { return s->over; }

void lesson_drill_end(lesson_drill_session *s, lesson_drill_result *res)
{
    *res = s->res;
    free(s->shown);
    free(s);
}

void lesson_drill_run(const lesson_drill_item *items, int n, lesson_lang lang, double seconds, int in, FILE *out,
               void (*on_answer)(void *user, const lesson_quiz *q, bool correct), void *user,
               lesson_drill_result *res)
{
    line_reader reader = {.fd = in};
    lesson_drill_session *s = lesson_drill_begin(items, n, lang, seconds, out, on_answer, user);
    while (!lesson_drill_over(s)) {
        char line[512];
        int r = read_line(&reader, line, sizeof line, s->deadline);
        if (r < 0) {
            s->deadline = cv_now_seconds(); /* the wait ran out: say so now */
            lesson_drill_time_up(s);
            break;
        }
        if (r == 0)
            break;
        lesson_drill_take(s, line);
    }
    lesson_drill_end(s, res);
}

/* ---------------------------------------------------------- the command */

void lesson_drill_say_start(FILE *out, lesson_lang lang, int n, long seconds, uint64_t seed)
{
    if (lang == LESSON_ZH)
        fprintf(out, "面试练习：%d 道题，%ld 秒（seed %llu）。每题一次机会，输入 q 提前结束。\n", n,
                seconds, (unsigned long long)seed);
    else
        fprintf(out, "Interview drill: %d questions, %ld seconds (seed %llu). One try each; q "
                     "stops.\n", n, seconds, (unsigned long long)seed);
    /* said once, here: the stages and answers below print ranges this way */
    fprintf(out, "%s\n", lesson__say(LESSON__SAY_RANGES, lang));
}

void lesson_drill_finish(lesson_drill_progress *d, const lesson_drill_result *res, lesson_lang lang, FILE *out)
{
    lesson_record r = {.kind = LESSON_REC_DRILL, .right = res->right, .asked = res->asked,
                       .when = (int64_t)time(NULL)};
    lesson_cmd_record(d->p, d->path, &r);
    if (lang == LESSON_ZH)
        fprintf(out, "\n得分：%d / %d（历史最佳 %d）\n", res->right, res->asked, d->p->drill.best);
    else
        fprintf(out, "\nScore: %d of %d (best so far %d)\n", res->right, res->asked,
                d->p->drill.best);
    fflush(out);
}

void lesson_drill_record_answer(void *user, const lesson_quiz *q, bool correct)
{
    lesson_drill_progress *d = user;
    /* Saved at once, under the lock: another drill or a window saving
     * meanwhile keeps its answers, and a drill cut short keeps these. */
    lesson_record r = {.kind = LESSON_REC_QUIZ, .id = q->key, .correct = correct};
    lesson_cmd_record(d->p, d->path, &r);
}

static const char lesson_drill_help[] =
    "usage: collviz drill [--lang en|zh] [--time SECONDS] [--seed S] [--count N] "
                 "[--dir DIR]\n\n"
                 "Interview drill in the terminal: the quizzes of every lesson in random order\n"
                 "against a clock, one try each, then the standard answer an interviewer wants\n"
                 "to hear and, where the quiz is about one, the lesson's common-mistake card.\n"
                 "Enter alone passes a question; q stops early.\n"
                 "  --time   seconds on the clock (default 600; 0 = no clock)\n"
                 "  --seed   question order (default: from the time; printed, to repeat a run)\n"
                 "  --count  ask at most N questions (default: all)\n"
                 "The score is saved with your progress.\n";

int lesson_cmd_drill(int argc, char **argv)
{
    const char *dir = NULL;
    long seconds = 600, count = -1, given_seed = 0;
    lesson_lang lang = LESSON_EN;
    cli_flag flags[] = {
        CLI_ENUM("--lang", &lang, &cli_langs),
        CLI_TEXT("--dir", &dir),
        CLI_LONG("--time", &seconds, 0, 86400),
        CLI_LONG("--count", &count, 1, 100000),
        CLI_LONG("--seed", &given_seed, 0, 0x7fffffffL),
    };
    cli_cmdline cl = CLI_CMDLINE("drill", lesson_drill_help, flags);
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    uint64_t seed = cli_flag_given(&cl, "--seed")
                        ? (uint64_t)given_seed
                        : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    /* a seed printed for repeating must be one --seed accepts */
    seed &= 0x7fffffff;

    lesson_course course;
    lesson_progress prog;
    char path[4096];
    if (lesson_cmd_load_course(&course, dir, false) < 0)
        return CLI_EXIT_USAGE;
    lesson_cmd_load_progress(&prog, path, sizeof path);
    if (!cli_flag_given(&cl, "--lang"))
        lang = lesson_default_lang(&prog);
    lesson_drill_item *items = NULL;
    int n = lesson_drill_items(&course, seed, &items);
    if (count > 0 && count < n)
        n = (int)count;
    int rc = CLI_EXIT_OK;
    if (n == 0) {
        fprintf(stderr, "collviz: drill: no quizzes found (no lessons loaded)\n");
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    lesson_drill_say_start(stdout, lang, n, seconds, seed);
    lesson_drill_progress dp = {&prog, path};
    lesson_drill_result res;
    lesson_drill_run(items, n, lang, (double)seconds, STDIN_FILENO, stdout, lesson_drill_record_answer, &dp,
              &res);
    lesson_drill_finish(&dp, &res, lang, stdout);
done:
    free(items);
    lesson_progress_destroy(&prog);
    lesson_course_destroy(&course);
    return rc;
}
