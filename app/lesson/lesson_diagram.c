/*
 * lesson_diagram.c: reads a beat's box-and-arrow diagram (where in the
 * model a collective happens, for the parallelism lessons). Boxes sit on a
 * small grid so the GUI can lay them out at any size; everything the GUI
 * would otherwise have to guard against (boxes off the grid, arrows to
 * nowhere, duplicate ids, labels longer than the renderer's fields) is
 * refused here with its position.
 */
#include <string.h>

#include "lesson_walk.h"

static const char *const box_kinds[LESSON_BOX_KIND_COUNT] = {"compute", "data", "comm", "device"};

static int box_kind_parse(const char *s)
{
    for (int i = 0; i < LESSON_BOX_KIND_COUNT; i++)
        if (strcmp(s, box_kinds[i]) == 0)
            return i;
    return -1;
}

/* The renderer draws a label on one line from a fixed field of max bytes
 * (render.h) and ends it with "…" where the box is too narrow on screen; a
 * label longer than the field would silently lose its end, and a line
 * break cannot be drawn, so both are refused here, at the offending
 * language's string. An absent label fits. */
bool lesson__label_fits(lesson__ctx *c, lesson__val owner, const char *where,
                        const lesson_text *label, size_t max, const char *what)
{
    bool ok = true;
    for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
        const char *s = label->s[lang];
        if (!s)
            continue;
        lesson__val sv = lesson__member(c, lesson__member(c, owner, "label"),
                                        lesson_lang_name((lesson_lang)lang));
        size_t n = strlen(s), ctl = 0;
        while (ctl < n && (unsigned char)s[ctl] >= 0x20)
            ctl++;
        if (ctl < n) {
            lesson__err(c, lesson__off(c, sv),
                        "%s.label.%s holds a line break or other control character; %s label is "
                        "drawn on one line",
                        where, lesson_lang_name((lesson_lang)lang), what);
            ok = false;
        } else if (n > max) {
            lesson__err(c, lesson__off(c, sv),
                        "%s.label.%s is %zu bytes; %s label holds at most %zu bytes of UTF-8 on "
                        "one line (a Chinese character takes 3): shorten it",
                        where, lesson_lang_name((lesson_lang)lang), n, what, max);
            ok = false;
        }
    }
    return ok;
}

static int find_box(const lesson_diagram *d, const char *id)
{
    for (int i = 0; i < d->nboxes; i++)
        if (d->boxes[i].id && strcmp(d->boxes[i].id, id) == 0)
            return i;
    return -1;
}

lesson_diagram *lesson__read_diagram(lesson__ctx *c, lesson__val v, const char *where)
{
    static const char *const keys[] = {"cols", "rows", "boxes", "arrows", NULL};
    static const char *const box_keys[] = {"id", "label", "x", "y", "w", "h", "kind", NULL};
    static const char *const arrow_keys[] = {"from", "to", "label", NULL};
    if (!lesson__want_object(c, v, where))
        return NULL;
    lesson_diagram *d = lesson__alloc(c->arena, sizeof *d);
    bool ok = lesson__keys(c, v, where, keys);
    long long cols = 1, rows = 1;
    ok = lesson__want_int(c, v, "cols", where, true, 1, 12, &cols) > 0 && ok;
    ok = lesson__want_int(c, v, "rows", where, true, 1, 12, &rows) > 0 && ok;
    d->cols = (int)cols;
    d->rows = (int)rows;
    char path[256];
    lesson__val bv = lesson__member(c, v, "boxes");
    lesson__path(path, sizeof path, where, "boxes");
    if (!bv.j) {
        lesson__err(c, lesson__off(c, v), "missing required key \"boxes\" in %s", where);
        return NULL;
    }
    if (!lesson__want_array(c, bv, path, 1, 32))
        return NULL;
    d->nboxes = lesson__count(bv);
    d->boxes = lesson__alloc(c->arena, (size_t)d->nboxes * sizeof(lesson_box));
    for (int i = 0; i < d->nboxes; i++) {
        lesson__val e = lesson__item(c, bv, i);
        lesson_box *b = &d->boxes[i];
        char ep[288];
        snprintf(ep, sizeof ep, "%s[%d]", path, i);
        if (!lesson__want_object(c, e, ep)) {
            ok = false;
            continue;
        }
        ok = lesson__keys(c, e, ep, box_keys) && ok;
        long long x = 0, y = 0, w = 1, h = 1;
        int kind = LESSON_BOX_COMPUTE;
        bool bok = lesson__want_id(c, e, "id", ep, true, &b->id) > 0;
        bok = lesson__want_text(c, e, "label", ep, true, &b->label) > 0 && bok;
        bok = lesson__label_fits(c, e, ep, &b->label, LESSON_MAX_BOX_LABEL, "a box") && bok;
        bok = lesson__want_int(c, e, "x", ep, true, 0, 11, &x) > 0 && bok;
        bok = lesson__want_int(c, e, "y", ep, true, 0, 11, &y) > 0 && bok;
        bok = lesson__want_int(c, e, "w", ep, false, 1, 12, &w) >= 0 && bok;
        bok = lesson__want_int(c, e, "h", ep, false, 1, 12, &h) >= 0 && bok;
        bok = lesson__want_enum(c, e, "kind", ep, false, box_kind_parse, "compute, data, comm, device",
                                &kind) >= 0 && bok;
        b->x = (int)x;
        b->y = (int)y;
        b->w = (int)w;
        b->h = (int)h;
        b->kind = (lesson_box_kind)kind;
        if (bok && (x + w > cols || y + h > rows)) {
            lesson__err(c, lesson__off(c, e),
                        "%s: box \"%s\" (x %lld to %lld, y %lld to %lld) does not fit the %lldx%lld "
                        "grid",
                        ep, b->id, x, x + w - 1, y, y + h - 1, cols, rows);
            bok = false;
        }
        if (b->id) {
            for (int k = 0; k < i; k++) {
                if (d->boxes[k].id && strcmp(d->boxes[k].id, b->id) == 0) {
                    lesson__err(c, lesson__off(c, lesson__member(c, e, "id")),
                                "duplicate box id \"%s\" (also %s[%d])", b->id, path, k);
                    bok = false;
                }
            }
        }
        ok = bok && ok;
    }
    lesson__val av = lesson__member(c, v, "arrows");
    lesson__path(path, sizeof path, where, "arrows");
    if (av.j && lesson__want_array(c, av, path, 0, 64)) {
        d->narrows = lesson__count(av);
        d->arrows = lesson__alloc(c->arena, (size_t)(d->narrows ? d->narrows : 1) *
                                                sizeof(lesson_arrow));
        for (int i = 0; i < d->narrows; i++) {
            lesson__val e = lesson__item(c, av, i);
            lesson_arrow *a = &d->arrows[i];
            char ep[288];
            snprintf(ep, sizeof ep, "%s[%d]", path, i);
            if (!lesson__want_object(c, e, ep)) {
                ok = false;
                continue;
            }
            ok = lesson__keys(c, e, ep, arrow_keys) && ok;
            const char *ends[2] = {NULL, NULL};
            static const char *const end_keys[2] = {"from", "to"};
            int idx[2] = {-1, -1};
            for (int k = 0; k < 2; k++) {
                if (lesson__want_string(c, e, end_keys[k], ep, true, &ends[k]) <= 0) {
                    ok = false;
                    continue;
                }
                idx[k] = find_box(d, ends[k]);
                if (idx[k] < 0) {
                    char name[LESSON__CLIP];
                    lesson__err(c, lesson__off(c, lesson__member(c, e, end_keys[k])),
                                "%s.%s \"%s\" names no box of this diagram", ep, end_keys[k],
                                lesson__clip(name, sizeof name, ends[k]));
                    ok = false;
                }
            }
            if (idx[0] >= 0 && idx[0] == idx[1]) {
                lesson__err(c, lesson__off(c, e), "%s goes from box \"%s\" to itself", ep, ends[0]);
                ok = false;
            }
            a->from = idx[0];
            a->to = idx[1];
            ok = lesson__want_text(c, e, "label", ep, false, &a->label) >= 0 && ok;
            ok = lesson__label_fits(c, e, ep, &a->label, LESSON_MAX_ARROW_LABEL, "an arrow") && ok;
        }
    } else if (av.j) {
        ok = false;
    }
    return ok ? d : NULL;
}
