/*
 * lesson_course.c: the course is every lesson file that loaded, in menu
 * order (track, then order within the track). A file with problems is left
 * out and counted, and the rest still load: one broken lesson must never
 * take the course down. Checks that span files (ids, orders) live here.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "lesson_internal.h"
#include "lesson_walk.h"
#include "lesson_progress.h"

void lesson_course_init(lesson_course *c)
{
    memset(c, 0, sizeof *c);
}

void lesson_course_destroy(lesson_course *c)
{
    for (int i = 0; i < c->nlessons; i++)
        lesson_destroy(c->lessons[i]);
    free(c->lessons);
    memset(c, 0, sizeof *c);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_lessons(const void *a, const void *b)
{
    const lesson *x = *(const lesson *const *)a, *y = *(const lesson *const *)b;
    if (x->track != y->track)
        return x->track < y->track ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return strcmp(x->id, y->id);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The family a cost quantity belongs to: a time in any unit is one
 * question, and so are bytes in any unit. */
static int quantity_family(lesson_cost_quantity q)
{
    switch (q) {
    case LESSON_COST_TIME_S:
    case LESSON_COST_TIME_MS:
    case LESSON_COST_TIME_US: return 0;
    case LESSON_COST_SENT_BYTES:
    case LESSON_COST_SENT_MB:
    case LESSON_COST_SENT_GB: return 1;
    case LESSON_COST_STEPS:
    case LESSON_COST_COMM_STEPS: return 2;
    case LESSON_COST_INTER_SENT_MB:
    case LESSON_COST_INTER_SENT_GB: return 3;
    default: return 4 + (int)q;
    }
}

/* Units the same, a micro sign matching 'u' ("µs" and "us"). */
static bool same_unit(const char *a, const char *b)
{
    return lesson__unit_at(a, b) && lesson__unit_at(b, a);
}

/* Two number quizzes ask the same question: the same cost-model setup and
 * quantity; without the model, the same prompt, answer and unit; one typed
 * by hand and one from the model, the same answer (within the model
 * quiz's tolerance) and unit. */
static bool same_question(const lesson_quiz *a, const lesson_quiz *b)
{
    if (a->kind != LESSON_QUIZ_NUMBER || b->kind != LESSON_QUIZ_NUMBER)
        return false;
    if (a->has_cost != b->has_cost) {
        const lesson_quiz *m = a->has_cost ? a : b, *h = a->has_cost ? b : a;
        double allowed = m->tolerance_pct ? fabs(m->number) * m->tolerance / 100 : m->tolerance;
        return same_unit(m->unit, h->unit) &&
               fabs(m->number - h->number) <= allowed + 1e-9 * fabs(m->number);
    }
    if (!a->has_cost)
        return a->number == b->number && same_unit(a->unit, b->unit) &&
               strcmp(lesson_text_get(&a->prompt, LESSON_EN), lesson_text_get(&b->prompt, LESSON_EN)) == 0;
    const lesson_cost_ref *x = &a->cost, *y = &b->cost;
    int xn = x->spec.nodes > 1 ? x->spec.nodes : 1, yn = y->spec.nodes > 1 ? y->spec.nodes : 1;
    return x->spec.op == y->spec.op && x->spec.algo == y->spec.algo &&
           x->spec.ranks == y->spec.ranks && x->bytes == y->bytes &&
           x->spec.dtype == y->spec.dtype && x->spec.slices == y->spec.slices && xn == yn &&
           x->bw_gbps == y->bw_gbps && x->alpha_us == y->alpha_us &&
           x->inter_bw_gbps == y->inter_bw_gbps && x->inter_alpha_us == y->inter_alpha_us &&
           quantity_family(x->quantity) == quantity_family(y->quantity);
}

/* Adds one loaded lesson unless another file already took its id or its
 * place in the track, or already asks one of its number questions; returns
 * false (and reports) when it is refused. */
static bool course_add(lesson_course *c, lesson *l, lesson_diags *diags)
{
    const lesson__pos *pos = lesson__positions(l);
    for (int i = 0; i < c->nlessons; i++) {
        const lesson *o = c->lessons[i];
        if (strcmp(o->id, l->id) == 0) {
            lesson_diags_add(diags, l->path, pos->id_line, pos->id_col,
                             "duplicate lesson id \"%s\" (also in %s)", l->id, o->path);
            return false;
        }
    }
    for (int i = 0; i < c->nlessons; i++) {
        const lesson *o = c->lessons[i];
        if (o->track == l->track && o->order == l->order) {
            lesson_diags_add(diags, l->path, pos->order_line, pos->order_col,
                             "duplicate order %d in track %s (also %s)", l->order,
                             lesson_track_name(l->track), o->path);
            return false;
        }
    }
    bool dup = false;
    for (int k = 0; k < l->nquizzes; k++) {
        const lesson_quiz *q = &l->quizzes[k];
        /* the earlier lessons' quizzes, then this lesson's before q */
        for (int i = 0; i <= c->nlessons; i++) {
            const lesson *o = i < c->nlessons ? c->lessons[i] : l;
            int n = i < c->nlessons ? o->nquizzes : k;
            for (int j = 0; j < n; j++) {
                const lesson_quiz *p = &o->quizzes[j];
                if (!same_question(q, p))
                    continue;
                lesson_diags_add(diags, l->path, q->line, q->col,
                                 "number quiz \"%s\" asks the same question as %s (in %s): the "
                                 "same %s; ask something the course does not ask yet",
                                 q->id, p->key, o->path,
                                 q->has_cost != p->has_cost ? "answer and unit"
                                 : q->has_cost            ? "cost-model setup and quantity"
                                                          : "prompt, answer and unit");
                dup = true;
            }
        }
    }
    if (dup)
        return false;
    if (c->nlessons >= LESSON_MAX_LESSONS) {
        lesson_diags_add(diags, l->path, 0, 0, "more than %d lessons; this one is left out",
                         LESSON_MAX_LESSONS);
        return false;
    }
    c->lessons = lesson__xrealloc(c->lessons, (size_t)(c->nlessons + 1) * sizeof(*c->lessons));
    c->lessons[c->nlessons++] = l;
    return true;
}

static void load_one(lesson_course *c, const char *path, unsigned flags, lesson_diags *diags)
{
    lesson *l = NULL;
    if (lesson_load_file(path, flags, &l, diags) != 0) {
        c->nfailed++;
        return;
    }
    if (!course_add(c, l, diags)) {
        lesson_destroy(l);
        c->nfailed++;
    }
}

static void load_dir(lesson_course *c, const char *dir, unsigned flags, lesson_diags *diags)
{
    DIR *d = opendir(dir);
    if (!d) {
        lesson_diags_add(diags, dir, 0, 0, "cannot open the directory: %s", strerror(errno));
        c->nfailed++;
        return;
    }
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".json"))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = lesson__xrealloc(names, (size_t)cap * sizeof(*names));
        }
        names[n++] = lesson__xstrdup(e->d_name);
    }
    closedir(d);
    /* Name order, so messages and duplicate reports do not depend on the
     * file system's directory order. */
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, cmp_names);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = lesson__xmalloc(len);
        snprintf(path, len, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", names[i]);
        load_one(c, path, flags, diags);
        free(path);
        free(names[i]);
    }
    free(names);
}

int lesson_course_load(lesson_course *c, const char *const *paths, int npaths, unsigned flags,
                       lesson_diags *diags)
{
    int before = c->nfailed;
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
            load_dir(c, paths[i], flags, diags);
        else
            load_one(c, paths[i], flags, diags);
    }
    if (c->nlessons > 1)
        qsort(c->lessons, (size_t)c->nlessons, sizeof *c->lessons, cmp_lessons);
    return c->nfailed - before;
}

int lesson_course_find(const lesson_course *c, const char *id)
{
    for (int i = 0; i < c->nlessons; i++)
        if (strcmp(c->lessons[i]->id, id) == 0)
            return i;
    return -1;
}

int lesson_course_suggest(const lesson_course *c, const char *id, int *out, int max)
{
    int n = 0;
    int *score = lesson__xcalloc((size_t)(c->nlessons ? c->nlessons : 1), sizeof(int));
    size_t idlen = strlen(id);
    for (int i = 0; i < c->nlessons; i++) {
        const char *other = c->lessons[i]->id;
        int cap = (int)(idlen / 3 > 2 ? idlen / 3 : 2) + 1;
        int d = lesson__distance(id, other, cap);
        /* "ring" should find "algo-ring-allreduce": a word of the id counts */
        if (d >= cap && idlen >= 3 && strstr(other, id))
            d = cap - 1;
        score[i] = d < cap ? d : -1;
    }
    while (n < max) {
        int best = -1;
        for (int i = 0; i < c->nlessons; i++)
            if (score[i] >= 0 && (best < 0 || score[i] < score[best]))
                best = i;
        if (best < 0)
            break;
        out[n++] = best;
        score[best] = -1;
    }
    free(score);
    return n;
}

int lesson_course_resume(const lesson_course *c, const lesson_progress *p, int *beat)
{
    *beat = 0;
    if (c->nlessons == 0)
        return -1;
    int i = p && p->current_lesson ? lesson_course_find(c, p->current_lesson) : -1;
    if (i >= 0) {
        int b = p->current_beat;
        *beat = b < 0 ? 0 : b >= c->lessons[i]->nbeats ? c->lessons[i]->nbeats - 1 : b;
        return i;
    }
    for (i = 0; p && i < c->nlessons; i++)
        if (!lesson_progress_done(p, c->lessons[i]->id))
            return i;
    return 0;
}

bool lesson_find_dir(char *out, size_t outlen, char *why, size_t whylen)
{
    static const char *const env[] = {"COLLVIZ_LESSONS_DIR", "COLLVIZ_LESSONS", NULL};
    return cli_data_dir("lessons", env, out, outlen, why, whylen);
}

lesson_lang lesson_default_lang(const struct lesson_progress *p)
{
    if (p && p->lang[0] && lesson_lang_parse(p->lang) >= 0)
        return (lesson_lang)lesson_lang_parse(p->lang);
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strncmp(v, "zh", 2) == 0 ? LESSON_ZH : LESSON_EN;
    }
    return LESSON_EN;
}

