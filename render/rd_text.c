/*
 * rd_text.c: cached text for the renderer: measuring, drawing, wrapping.
 *
 * Which face draws a string is rd_font.c's business. Drawing text is the
 * most expensive thing a frame does on the software renderer, so every
 * string is rendered once into a texture and kept in a small LRU cache
 * keyed by (string, pixel size, colour, width limit); a cache hit costs one
 * hash and one texture copy.
 */
#define _POSIX_C_SOURCE 200809L
#include "rd_font.h"

#include <stdlib.h>
#include <string.h>

#define TEXT_CACHE_SIZE 4096 /* power of two: open addressing mask; a 64-rank frame draws ~2500 strings */
/* The entries' textures are capped in bytes too: 4096 strings of a large
 * projector font at 1920x1080 would otherwise hold a few hundred MB. Past
 * the cap the least recently used go until 3/4 of it is left. */
#define TEXT_CACHE_BYTES ((int64_t)48 << 20)

/* Wrapping measures every prefix of a paragraph: the narration's few
 * paragraphs would be shaped again in every frame of an animation, most of
 * a frame's time. The last results are kept, whole. */
#define WRAP_CACHE_SIZE 32

typedef struct {
    char *str, *out; /* out: nlines lines of linelen bytes */
    int px, max_w, maxlines, linelen, nlines;
    uint64_t used;
} wrap_entry;

typedef struct {
    uint64_t hash;
    char *str;
    int px, max_w;
    uint32_t rgba;
    SDL_Texture *tex;
    int w, h;
    uint64_t used; /* LRU clock */
    bool live;
} text_entry;

struct rd_text {
    SDL_Renderer *r;
    rd__fonts fonts;
    text_entry cache[TEXT_CACHE_SIZE];
    int64_t bytes; /* of the live textures, 4 per pixel */
    uint64_t clock;
    bool ttf_inited;
    wrap_entry wraps[WRAP_CACHE_SIZE];
    uint64_t trim_used[TEXT_CACHE_SIZE]; /* trim's scratch: the live entries' clocks */
};

rd_text *rd_text_create(SDL_Renderer *r, const rd_font_paths *fonts, char *err, size_t errlen)
{
    rd_text *t = cv_xcalloc(1, sizeof *t);
    t->r = r;
    /* TTF_Init is reference counted: each rd_text holds one reference. */
    if (TTF_Init() != 0) {
        snprintf(err, errlen, "SDL_ttf failed to start: %s", TTF_GetError());
        free(t);
        return NULL;
    }
    t->ttf_inited = true;
    if (!rd__fonts_create(&t->fonts, fonts, err, errlen)) {
        rd_text_destroy(t);
        return NULL;
    }
    return t;
}

static void drop(rd_text *t, text_entry *e)
{
    if (e->tex) {
        SDL_DestroyTexture(e->tex);
        t->bytes -= (int64_t)e->w * e->h * 4;
    }
    free(e->str);
    memset(e, 0, sizeof *e);
}

void rd_text_flush(rd_text *t)
{
    if (!t)
        return;
    for (int i = 0; i < TEXT_CACHE_SIZE; i++)
        drop(t, &t->cache[i]);
    t->bytes = 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Over the byte cap: drops the least recently used textures (never keep,
 * the one just made) until 3/4 of the cap is left. Rare: once per tens
 * of MB of new text. */
static void trim(rd_text *t, const text_entry *keep)
{
    uint64_t *used = t->trim_used;
    int n = 0;
    for (int i = 0; i < TEXT_CACHE_SIZE; i++)
        if (t->cache[i].tex)
            used[n++] = t->cache[i].used;
    qsort(used, (size_t)n, sizeof *used, cmp_u64);
    for (int k = 0; k < n && t->bytes > TEXT_CACHE_BYTES / 4 * 3; k++)
        for (int i = 0; i < TEXT_CACHE_SIZE; i++) {
            text_entry *e = &t->cache[i];
            if (e->tex && e->used == used[k] && e != keep) {
                drop(t, e);
                break;
            }
        }
}

void rd_text_destroy(rd_text *t)
{
    if (!t)
        return;
    rd_text_flush(t);
    for (int i = 0; i < WRAP_CACHE_SIZE; i++)
        free(t->wraps[i].str), free(t->wraps[i].out);
    rd__fonts_destroy(&t->fonts);
    if (t->ttf_inited)
        TTF_Quit(); /* reference counted by SDL_ttf */
    free(t);
}

bool rd_text_has_cjk(const rd_text *t) { return t->fonts.face[RD__FACE_CJK].path[0] != '\0'; }

int rd_text_missing(const rd_text *t, uint32_t *first)
{
    int n = 0;
    for (int i = 0; i < t->fonts.nlooked; i++)
        if (t->fonts.looked[i].face < 0 && n++ == 0 && first)
            *first = t->fonts.looked[i].cp;
    return n;
}

const char *rd_text_font(rd_text *t, const char *s, int px)
{
    return rd__font_file_for(&t->fonts, px, s)->path;
}

void rd_text_measure(rd_text *t, const char *s, int px, int *w, int *h)
{
    int tw = 0, th = 0;
    TTF_Font *f = rd__font_for(&t->fonts, px, s);
    if (f && *s)
        TTF_SizeUTF8(f, s, &tw, &th);
    else if (f)
        th = TTF_FontHeight(f);
    if (w)
        *w = tw;
    if (h)
        *h = th;
}

/* ------------------------------------------------------------------ cache */

static uint64_t hash_key(const char *s, int px, uint32_t rgba, int max_w)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    h = (h ^ (uint64_t)px) * 1099511628211ull;
    h = (h ^ rgba) * 1099511628211ull;
    h = (h ^ (uint64_t)(uint32_t)max_w) * 1099511628211ull;
    return h ? h : 1;
}

/* The longest prefix of s (at a UTF-8 boundary) that fits in max_w with an
 * ellipsis after it, written to out. */
static void ellipsize(TTF_Font *f, const char *s, int max_w, char *out, size_t outlen)
{
    size_t n = strlen(s);
    if (n + 4 > outlen)
        n = outlen - 4;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        while (mid > 0 && ((unsigned char)s[mid] & 0xC0) == 0x80)
            mid--;
        if (mid <= lo) {
            hi = lo;
            break;
        }
        memcpy(out, s, mid);
        memcpy(out + mid, "\xE2\x80\xA6", 4);
        int w = 0, h = 0;
        TTF_SizeUTF8(f, out, &w, &h);
        if (w <= max_w)
            lo = mid;
        else
            hi = mid - 1;
    }
    while (lo > 0 && ((unsigned char)s[lo] & 0xC0) == 0x80)
        lo--;
    memcpy(out, s, lo);
    memcpy(out + lo, "\xE2\x80\xA6", 4);
    if (lo == 0)
        out[0] = '\0'; /* nothing fits: draw nothing rather than a lone dot */
}

static text_entry *cache_get(rd_text *t, const char *s, int px, SDL_Color c, int max_w)
{
    uint32_t rgba = (uint32_t)c.r << 24 | (uint32_t)c.g << 16 | (uint32_t)c.b << 8 | c.a;
    uint64_t h = hash_key(s, px, rgba, max_w);
    unsigned slot = (unsigned)h & (TEXT_CACHE_SIZE - 1);
    /* Linear probing over a short window; the LRU victim is the oldest
     * entry in that window, which keeps lookups bounded. */
    enum { WINDOW = 16 };
    text_entry *victim = NULL;
    for (int i = 0; i < WINDOW; i++) {
        text_entry *e = &t->cache[(slot + (unsigned)i) & (TEXT_CACHE_SIZE - 1)];
        if (e->live && e->hash == h && e->px == px && e->rgba == rgba && e->max_w == max_w &&
            strcmp(e->str, s) == 0) {
            e->used = ++t->clock;
            return e;
        }
        if (!victim || !e->live || (victim->live && e->used < victim->used))
            victim = e;
    }
    drop(t, victim);
    victim->str = cv_xstrdup(s);
    victim->hash = h;
    victim->px = px;
    victim->rgba = rgba;
    victim->max_w = max_w;
    victim->live = true;
    victim->used = ++t->clock;
    TTF_Font *f = rd__font_for(&t->fonts, px, s);
    if (!f || !*s)
        return victim;
    char cut[512];
    const char *draw = s;
    int w = 0, hh = 0;
    TTF_SizeUTF8(f, s, &w, &hh);
    if (max_w > 0 && w > max_w) {
        ellipsize(f, s, max_w, cut, sizeof cut);
        draw = cut;
        if (!*draw)
            return victim;
    }
    SDL_Surface *surf = TTF_RenderUTF8_Blended(f, draw, c);
    if (!surf)
        return victim;
    victim->tex = SDL_CreateTextureFromSurface(t->r, surf);
    victim->w = surf->w;
    victim->h = surf->h;
    SDL_FreeSurface(surf);
    if (victim->tex) {
        SDL_SetTextureBlendMode(victim->tex, SDL_BLENDMODE_BLEND);
        t->bytes += (int64_t)victim->w * victim->h * 4;
        if (t->bytes > TEXT_CACHE_BYTES)
            trim(t, victim);
    }
    return victim;
}

SDL_Rect rd_text_draw(rd_text *t, const char *s, int px, SDL_Color c, int x, int y, int max_w)
{
    SDL_Rect r = {x, y, 0, 0};
    if (!s || !*s || max_w < 0)
        return r;
    text_entry *e = cache_get(t, s, px, c, max_w);
    if (!e->tex)
        return r;
    r.w = e->w;
    r.h = e->h;
    SDL_RenderCopy(t->r, e->tex, NULL, &r);
    return r;
}

/* ------------------------------------------------------------------- wrap */

static int utf8_len(unsigned char c)
{
    return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

static int wrap_uncached(rd_text *t, const char *s, int px, int max_w, char *buf, int maxlines,
                         int linelen)
{
    int nlines = 0;
    const char *p = s;
    TTF_Font *f = rd__font_for(&t->fonts, px, s);
    if (!f || maxlines <= 0 || linelen < 8)
        return 0;
    char *line = NULL;
    while (*p && nlines < maxlines) {
        line = buf + (size_t)nlines * (size_t)linelen;
        line[0] = '\0';
        size_t len = 0;
        size_t last_break = 0; /* length at the last place a line may end */
        const char *after_break = NULL;
        const char *q = p;
        while (*q && *q != '\n') {
            int n = utf8_len((unsigned char)*q);
            if (len + (size_t)n + 1 >= (size_t)linelen)
                break;
            memcpy(line + len, q, (size_t)n);
            line[len + (size_t)n] = '\0';
            /* Measured in the face the line will be drawn in: a Latin line
             * of a Chinese paragraph is drawn in the Latin face. */
            int w = 0, h = 0;
            TTF_Font *lf = rd__font_for(&t->fonts, px, line);
            TTF_SizeUTF8(lf ? lf : f, line, &w, &h);
            if (w > max_w && len > 0) {
                /* Closing CJK punctuation never starts a line: carry the
                 * character before it over as well. */
                const unsigned char *u = (const unsigned char *)q;
                bool close = n == 3 && ((u[0] == 0xE3 && u[1] == 0x80 && (u[2] == 0x81 || u[2] == 0x82)) ||
                                        (u[0] == 0xEF && u[1] == 0xBC &&
                                         (u[2] == 0x8C || u[2] == 0x9B || u[2] == 0x9A ||
                                          u[2] == 0x89 || u[2] == 0x81 || u[2] == 0x9F)));
                if (close && len > 3 && ((unsigned char)line[len - 3] & 0xF0) == 0xE0) {
                    len -= 3;
                    q -= 3;
                    if (last_break > len) {
                        last_break = len;
                        after_break = q;
                    }
                }
                line[len] = '\0';
                break;
            }
            len += (size_t)n;
            q += n;
            /* Break after a space, or between CJK characters. */
            if (q[-1] == ' ' || n == 3) {
                last_break = len;
                after_break = q;
            }
        }
        if (*q && *q != '\n' && after_break && last_break > 0) {
            line[last_break] = '\0';
            q = after_break;
        }
        /* Trim trailing spaces. */
        size_t l = strlen(line);
        while (l > 0 && line[l - 1] == ' ')
            line[--l] = '\0';
        nlines++;
        while (*q == ' ')
            q++;
        if (*q == '\n')
            q++;
        if (q == p)
            break; /* no progress: a single glyph wider than max_w */
        p = q;
    }
    return nlines;
}

int rd_text_wrap(rd_text *t, const char *s, int px, int max_w, char *buf, int maxlines,
                 int linelen)
{
    wrap_entry *old = &t->wraps[0];
    for (int i = 0; i < WRAP_CACHE_SIZE; i++) {
        wrap_entry *e = &t->wraps[i];
        if (e->str && e->px == px && e->max_w == max_w && e->maxlines == maxlines &&
            e->linelen == linelen && strcmp(e->str, s) == 0) {
            e->used = ++t->clock;
            memcpy(buf, e->out, (size_t)e->nlines * (size_t)linelen);
            return e->nlines;
        }
        if (e->used < old->used)
            old = e;
    }
    int n = wrap_uncached(t, s, px, max_w, buf, maxlines, linelen);
    size_t bytes = (size_t)n * (size_t)linelen;
    char *str = strdup(s), *out = malloc(bytes ? bytes : 1);
    if (!str || !out) { /* not kept: the answer is right all the same */
        free(str), free(out);
        return n;
    }
    memcpy(out, buf, bytes);
    free(old->str), free(old->out);
    *old = (wrap_entry){str, out, px, max_w, maxlines, linelen, n, ++t->clock};
    return n;
}

SDL_Rect rd_text_draw_in(rd_text *t, const char *s, int px, SDL_Color c, SDL_Rect box, int align)
{
    SDL_Rect r = {box.x, box.y, 0, 0};
    if (!s || !*s || box.w <= 0)
        return r;
    /* FIT: look the string up without a width limit and give up if wider. */
    text_entry *e = cache_get(t, s, px, c, (align & RD_ALIGN_FIT) ? 0 : box.w);
    if (!e->tex || e->h > box.h + box.h / 2 + 2 || ((align & RD_ALIGN_FIT) && e->w > box.w))
        return r;
    r.w = e->w;
    r.h = e->h;
    int h = align & 3;
    r.x = h == RD_ALIGN_CENTER ? box.x + (box.w - e->w) / 2
          : h == RD_ALIGN_RIGHT ? box.x + box.w - e->w
                                : box.x;
    r.y = box.y + (box.h - e->h) / 2;
    SDL_RenderCopy(t->r, e->tex, NULL, &r);
    return r;
}
