/*
 * lesson_arena.c: the groundwork under the lesson loader: the per-lesson
 * arena and the edit distance that suggests a lesson id. The JSON itself,
 * its syntax and its positions, is the shared reader's (collectives/json/jr.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lesson_internal.h"

/* ------------------------------------------------------------------ memory */

/* A lesson is built from hundreds of small pieces that all die together,
 * so they come from blocks freed at once rather than one malloc each. */
typedef struct lesson__block {
    struct lesson__block *next;
    size_t used, cap;
    max_align_t data[];
} lesson__block;

struct lesson__arena {
    lesson__block *head;
    lesson__pos pos;
};

lesson__arena *lesson__arena_create(void)
{
    return lesson__xcalloc(1, sizeof(lesson__arena));
}

void lesson__arena_destroy(lesson__arena *a)
{
    if (!a)
        return;
    lesson__block *b = a->head;
    while (b) {
        lesson__block *next = b->next;
        free(b);
        b = next;
    }
    free(a);
}

void *lesson__alloc(lesson__arena *a, size_t n)
{
    const size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    if (n == 0)
        n = align;
    lesson__block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 16384 ? n : 16384;
        b = lesson__xmalloc(sizeof(lesson__block) + cap);
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    char *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *lesson__strdup(lesson__arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = lesson__alloc(a, n);
    memcpy(p, s, n);
    return p;
}

lesson__pos *lesson__positions(const lesson *l)
{
    return &l->arena_->pos;
}

int lesson__distance(const char *a, const char *b, int cap)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na > 64 || nb > 64)
        return cap;
    int row[65];
    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        int best = row[0];
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j];
            int v = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
            if (v < best)
                best = v;
        }
        if (best >= cap)
            return cap;
    }
    return row[nb] < cap ? row[nb] : cap;
}
