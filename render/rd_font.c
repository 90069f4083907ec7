/*
 * rd_font.c: which font files text is drawn with, and which face draws a
 * given string.
 *
 * collviz ships its faces in assets/fonts (DejaVu Sans and Sans Mono, and
 * WenQuanYi Micro Hei cut down to GB2312), so a frame looks the same on
 * every machine and golden images do not depend on what is installed.
 * fontconfig is the fallback twice over: for a face the assets lack (a
 * program run without them), and, while drawing, for a character none of
 * the faces has. A fontconfig family match is only accepted when it is the
 * family asked for (fontconfig always returns *something*, which would hide
 * a missing package behind boxes), and a character match only when the
 * font really has the character.
 *
 * Each string is drawn whole in one face (rd_font.h says which), so a
 * Chinese sentence with Latin words in it has one consistent look.
 *
 * The browser build has no fontconfig (COLLVIZ_HAVE_FONTCONFIG unset): the
 * shipped faces are all there is, and a character they lack has no face.
 */
#define _POSIX_C_SOURCE 200809L
#include "rd_font.h"

#ifdef COLLVIZ_HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PROBE_PX 14 /* the size whose font answers "is this glyph there" */

/* ------------------------------------------------------------ finding */

#ifdef COLLVIZ_HAVE_FONTCONFIG

/* The file (and face index) of a fontconfig match. */
static bool match_file(FcPattern *match, rd_font_file *out)
{
    FcChar8 *file = NULL;
    if (FcPatternGetString(match, FC_FILE, 0, &file) != FcResultMatch)
        return false;
    snprintf(out->path, sizeof out->path, "%s", (const char *)file);
    if (FcPatternGetInteger(match, FC_INDEX, 0, &out->index) != FcResultMatch)
        out->index = 0;
    return true;
}

/* fontconfig's best match for pat (consumed), or NULL. */
static FcPattern *best_match(FcPattern *pat)
{
    FcConfigSubstitute(NULL, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcPattern *match = FcFontMatch(NULL, pat, &res);
    FcPatternDestroy(pat);
    return match;
}

/* A font whose family is exactly `family`, or false. */
static bool fc_find_family(const char *family, rd_font_file *out)
{
    FcPattern *pat = FcNameParse((const FcChar8 *)family);
    FcPattern *match = pat ? best_match(pat) : NULL;
    if (!match)
        return false;
    /* Any of the match's family names may be the one asked for. */
    bool found = false;
    FcChar8 *fam = NULL;
    for (int i = 0; !found && FcPatternGetString(match, FC_FAMILY, i, &fam) == FcResultMatch; i++)
        found = strcasecmp((const char *)fam, family) == 0;
    found = found && match_file(match, out);
    FcPatternDestroy(match);
    return found;
}

/* A sans-serif font that has character cp, or false. */
static bool fc_find_char(uint32_t cp, rd_font_file *out)
{
    if (!FcInit())
        return false;
    FcPattern *pat = FcNameParse((const FcChar8 *)"sans-serif");
    FcCharSet *cs = FcCharSetCreate();
    bool asked = pat && cs && FcCharSetAddChar(cs, cp) && FcPatternAddCharSet(pat, FC_CHARSET, cs);
    /* The pattern holds its own reference to cs; best_match consumes pat. */
    if (cs)
        FcCharSetDestroy(cs);
    FcPattern *match = asked ? best_match(pat) : NULL;
    if (!asked && pat)
        FcPatternDestroy(pat);
    FcCharSet *has = NULL;
    bool found = match && FcPatternGetCharSet(match, FC_CHARSET, 0, &has) == FcResultMatch &&
                 FcCharSetHasChar(has, cp) && match_file(match, out);
    if (match)
        FcPatternDestroy(match);
    FcFini(); /* rare (memoised by the caller): keep nothing alive between frames */
    return found;
}
#else
static bool fc_find_char(uint32_t cp, rd_font_file *out)
{
    (void)cp, (void)out;
    return false;
}
#endif

static bool file_readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fclose(f);
    return true;
}

/* ASSETS/fonts/NAME into out when it can be read. */
static void from_assets(const char *assets, const char *name, rd_font_file *out)
{
    if (!assets || !*assets || out->path[0])
        return;
    char path[sizeof out->path];
    if (snprintf(path, sizeof path, "%s/fonts/%s", assets, name) < (int)sizeof path &&
        file_readable(path))
        snprintf(out->path, sizeof out->path, "%s", path);
}

int rd_fonts_find(const char *assets, rd_font_paths *out, char *err, size_t errlen)
{
    static const char *latin[] = {"DejaVu Sans", "Noto Sans", "Liberation Sans", "FreeSans"};
    static const char *cjk[] = {"WenQuanYi Micro Hei", "WenQuanYi Zen Hei",  "Noto Sans CJK SC",
                                "Noto Sans SC",        "Source Han Sans SC", "Droid Sans Fallback"};
    static const char *mono[] = {"DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono",
                                 "FreeMono"};
    memset(out, 0, sizeof *out);
    const char *env = getenv("COLLVIZ_FONT");
    const char *envc = getenv("COLLVIZ_FONT_CJK");
    if (env && *env) {
        if (!file_readable(env)) {
            snprintf(err, errlen, "COLLVIZ_FONT=%s cannot be read", env);
            return CV_EUNAVAIL;
        }
        snprintf(out->latin.path, sizeof out->latin.path, "%s", env);
    }
    /* COLLVIZ_FONT_CJK set means that face and no other ("" = none). */
    if (envc && file_readable(envc))
        snprintf(out->cjk.path, sizeof out->cjk.path, "%s", envc);
    from_assets(assets, "DejaVuSans.ttf", &out->latin);
    if (!envc)
        from_assets(assets, "WenQuanYiMicroHei-GB2312.ttf", &out->cjk);
    from_assets(assets, "DejaVuSansMono.ttf", &out->mono);
    if (out->latin.path[0] && (out->cjk.path[0] || envc) && out->mono.path[0])
        return CV_OK; /* fontconfig not needed: it costs a cache read at start */
#ifndef COLLVIZ_HAVE_FONTCONFIG
    (void)latin, (void)cjk, (void)mono;
    if (!out->latin.path[0]) {
        snprintf(err, errlen, "no Latin font: %s/fonts/DejaVuSans.ttf cannot be read",
                 assets && *assets ? assets : "(no assets directory)");
        return CV_EUNAVAIL;
    }
    return CV_OK;
#else
    if (!FcInit()) {
        if (!out->latin.path[0]) {
            snprintf(err, errlen,
                     "fontconfig failed to start: no font found "
                     "(install the Debian package fonts-dejavu-core)");
            return CV_EUNAVAIL;
        }
        return CV_OK;
    }
    for (size_t i = 0; !out->latin.path[0] && i < sizeof latin / sizeof *latin; i++)
        fc_find_family(latin[i], &out->latin);
    for (size_t i = 0; !envc && !out->cjk.path[0] && i < sizeof cjk / sizeof *cjk; i++)
        fc_find_family(cjk[i], &out->cjk);
    for (size_t i = 0; !out->mono.path[0] && i < sizeof mono / sizeof *mono; i++)
        fc_find_family(mono[i], &out->mono);
    /* Only paths are kept; fontconfig's caches are not needed after this. */
    FcFini();
    if (!out->latin.path[0]) {
        snprintf(err, errlen, "no Latin font found: install the Debian package fonts-dejavu-core");
        return CV_EUNAVAIL;
    }
    return CV_OK;
#endif
}

/* ------------------------------------------------------------- faces */

static TTF_Font *face_font(rd__fonts *f, int face, int px)
{
    if (px < 4)
        px = 4;
    if (px > 400)
        px = 400;
    for (int i = 0; i < f->nopen; i++)
        if (f->open[i].px == px && f->open[i].face == face)
            return f->open[i].font;
    const rd_font_file *file = &f->face[face];
    if (!file->path[0])
        return NULL;
    TTF_Font *font = TTF_OpenFontIndex(file->path, px, file->index);
    if (!font)
        return NULL;
    /* Keep the table bounded: sizes change with the window, so the oldest
     * slot goes. */
    if (f->nopen == RD__MAX_SIZES) {
        TTF_CloseFont(f->open[0].font);
        memmove(&f->open[0], &f->open[1], sizeof f->open[0] * (RD__MAX_SIZES - 1));
        f->nopen--;
    }
    f->open[f->nopen++] = (rd__font_slot){px, face, font};
    return font;
}

bool rd__fonts_create(rd__fonts *f, const rd_font_paths *paths, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->face[RD__FACE_LATIN] = paths->latin;
    f->face[RD__FACE_CJK] = paths->cjk;
    f->face[RD__FACE_MONO] = paths->mono;
    f->nfaces = RD__FACE_FALLBACK;
    if (!face_font(f, RD__FACE_LATIN, PROBE_PX)) {
        snprintf(err, errlen,
                 "cannot open font %s: %s (install the Debian package "
                 "fonts-dejavu-core)",
                 paths->latin.path, TTF_GetError());
        return false;
    }
    /* Unreadable: Chinese falls back to another face, code to the Latin. */
    for (int face = RD__FACE_CJK; face <= RD__FACE_MONO; face++)
        if (f->face[face].path[0] && !face_font(f, face, PROBE_PX))
            f->face[face].path[0] = '\0';
    return true;
}

void rd__fonts_destroy(rd__fonts *f)
{
    for (int i = 0; i < f->nopen; i++)
        TTF_CloseFont(f->open[i].font);
    f->nopen = 0;
}

/* ----------------------------------------------------- choosing a face */

/* The next code point of a UTF-8 string (U+FFFD for a bad byte). */
static uint32_t next_cp(const unsigned char **s)
{
    const unsigned char *p = *s;
    uint32_t c = *p++;
    int more = c < 0x80 ? 0 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
    if (more < 0) {
        *s = p;
        return 0xFFFD;
    }
    c &= 0x7F >> more;
    for (int i = 0; i < more; i++, p++) {
        if ((*p & 0xC0) != 0x80) {
            *s = p;
            return 0xFFFD;
        }
        c = c << 6 | (*p & 0x3F);
    }
    *s = p;
    return c;
}

static bool has_cjk(const char *s)
{
    /* Lead bytes 0xE2 0xBA.. and up cover U+2E80 onwards (CJK radicals,
     * punctuation, ideographs, full-width forms). */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0xE3 && *p <= 0xEF)
            return true;
        if (*p == 0xE2 && p[1] >= 0xBA)
            return true;
    }
    return false;
}

/* The first character of s that face lacks, or 0. The shipped faces all
 * have ASCII, so only a fallback's is checked. */
static uint32_t first_missing(rd__fonts *f, int face, const char *s)
{
    TTF_Font *font = face_font(f, face, PROBE_PX);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (*p < 0x80 && (face < RD__FACE_FALLBACK || *p < 0x20)) {
            p++;
            continue;
        }
        uint32_t cp = next_cp(&p);
        if (!font || !TTF_GlyphIsProvided32(font, cp))
            return cp;
    }
    return 0;
}

/* The face fontconfig gives for cp (found once, then remembered: a new
 * fallback face, or one already open that has cp but lacks another
 * character of the string), or -1 when no installed font has it. */
static int fallback_for(rd__fonts *f, uint32_t cp)
{
    for (int i = 0; i < f->nlooked; i++)
        if (f->looked[i].cp == cp)
            return f->looked[i].face;
    if (f->nlooked == RD__MAX_LOOKUPS)
        return -1; /* a page of rare scripts: boxes beyond this many searches */
    int face = -1;
    rd_font_file file = {.index = 0};
    if (fc_find_char(cp, &file)) {
        for (int i = 0; i < f->nfaces && face < 0; i++)
            if (!strcmp(f->face[i].path, file.path) && f->face[i].index == file.index)
                face = i;
        if (face < 0 && f->nfaces < RD__MAX_FACES) {
            f->face[f->nfaces] = file;
            if (face_font(f, f->nfaces, PROBE_PX))
                face = f->nfaces++;
        }
    }
    f->looked[f->nlooked++] = (rd__font_lookup){cp, face};
    return face;
}

static int pick_face(rd__fonts *f, int px, const char *s)
{
    bool mono = (px & RD_TEXT_MONO) != 0;
    int want = has_cjk(s) && f->face[RD__FACE_CJK].path[0] ? RD__FACE_CJK
               : mono && f->face[RD__FACE_MONO].path[0]    ? RD__FACE_MONO
                                                           : RD__FACE_LATIN;
    uint32_t miss = first_missing(f, want, s);
    if (!miss)
        return want;
    /* Another face that has every character, shipped ones first. */
    for (int face = RD__FACE_LATIN; face < f->nfaces; face++)
        if (face != want && f->face[face].path[0] && !first_missing(f, face, s))
            return face;
    int found = fallback_for(f, miss);
    return found >= 0 ? found : want; /* boxes only for what nothing has */
}

TTF_Font *rd__font_for(rd__fonts *f, int px, const char *s)
{
    int face = pick_face(f, px, s);
    return face_font(f, face, px & ~RD_TEXT_MONO);
}

const rd_font_file *rd__font_file_for(rd__fonts *f, int px, const char *s)
{
    return &f->face[pick_face(f, px, s)];
}
