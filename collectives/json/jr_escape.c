/*
 * jr_escape.c: text from outside made safe to print (jr.h): the one
 * escaper collviz has. It lives with the reader, below render/ and app/,
 * so a theme's message in the renderer and a flag's in the command line
 * (cli_escape is this) escape alike: a control character, a bidirectional
 * override or a byte that is not UTF-8 in a file or a path never reaches a
 * terminal raw. jr_clip shortens a quoted string between characters.
 */
#include <stdio.h>
#include <string.h>

#include "jr_internal.h"

bool jr_unsafe_codepoint(uint32_t c)
{
    return c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0) || /* C0, DEL, C1 */
           c == 0x061C || c == 0x200E || c == 0x200F ||               /* bidi marks */
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || /* overrides, isolates */
           c == 0x2028 || c == 0x2029 || /* line and paragraph separators: a line break unseen */
           c == 0xFEFF;                  /* zero-width no-break space (a BOM mid-text) */
}

size_t jr_escape(const char *s, char *out, size_t len)
{
    size_t o = 0;
    if (len == 0)
        return 0;
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    while (*p) {
        uint32_t cp = 0;
        int n = jr__utf8(p, left, &cp);
        char piece[16];
        if (n == 0) {
            snprintf(piece, sizeof piece, "\\x%02x", *p);
            n = 1;
        } else if (jr_unsafe_codepoint(cp)) {
            if (cp < 0x100)
                snprintf(piece, sizeof piece, "\\x%02x", (unsigned)cp);
            else
                snprintf(piece, sizeof piece, "\\u%04X", (unsigned)cp);
        } else {
            memcpy(piece, p, (size_t)n);
            piece[n] = 0;
        }
        size_t k = strlen(piece);
        if (o + k + 4 > len) { /* room for "..." and the end */
            snprintf(out + o, len - o, "...");
            return o;
        }
        memcpy(out + o, piece, k);
        o += k;
        p += n;
        left -= (size_t)n;
    }
    out[o] = 0;
    return o;
}

/* The longest prefix of s of at most max bytes that ends between
 * characters. */
static size_t utf8_prefix(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max)
        return n;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    return max;
}

const char *jr_clip(char *out, size_t n, const char *s)
{
    static const char ellipsis[] = "\xE2\x80\xA6"; /* U+2026 */
    size_t k = utf8_prefix(s, n - 1);
    memcpy(out, s, k);
    out[k] = '\0';
    if (s[k] == '\0')
        return out;
    out[utf8_prefix(out, n - sizeof ellipsis)] = '\0';
    strcat(out, ellipsis);
    return out;
}
