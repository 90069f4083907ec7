/*
 * rd_font.h: the faces text is drawn with (rd_font.c), for rd_text.c.
 * Internal to the renderer (prefix rd__).
 *
 * A string is drawn whole in one face, chosen by what it contains: the CJK
 * face when it has CJK characters, the monospace face for code, the Latin
 * face otherwise; and when that face lacks one of its characters, a face
 * that has them all (the other shipped face, or one fontconfig finds for
 * the missing character and which is kept for the next string).
 */
#ifndef RD_FONT_H
#define RD_FONT_H

#include <SDL_ttf.h>

#include "render.h"

enum { RD__FACE_LATIN, RD__FACE_CJK, RD__FACE_MONO, RD__FACE_FALLBACK };
#define RD__MAX_FALLBACKS 4
#define RD__MAX_FACES (RD__FACE_FALLBACK + RD__MAX_FALLBACKS)
#define RD__MAX_SIZES 32   /* open (face, size) pairs; the oldest is closed */
#define RD__MAX_LOOKUPS 16 /* fontconfig searches for missing characters, per rd_text */

typedef struct {
    int px, face;
    TTF_Font *font;
} rd__font_slot;

typedef struct {
    uint32_t cp;
    int face; /* -1: no installed font has cp */
} rd__font_lookup;

typedef struct {
    rd_font_file face[RD__MAX_FACES]; /* path "" = none */
    int nfaces;
    rd__font_slot open[RD__MAX_SIZES];
    int nopen;
    rd__font_lookup looked[RD__MAX_LOOKUPS]; /* fontconfig's answers so far */
    int nlooked;
} rd__fonts;

/* Opens the faces of paths at a probe size. False, with a message naming
 * the file, when the Latin face cannot be opened; an unreadable CJK or
 * monospace face is dropped (Chinese or code then use another). */
bool rd__fonts_create(rd__fonts *f, const rd_font_paths *paths, char *err, size_t errlen);
void rd__fonts_destroy(rd__fonts *f);
/* The font s is drawn with at px (| RD_TEXT_MONO for code), or NULL. */
TTF_Font *rd__font_for(rd__fonts *f, int px, const char *s);
/* The file of the face s is drawn with. */
const rd_font_file *rd__font_file_for(rd__fonts *f, int px, const char *s);

#endif /* RD_FONT_H */
