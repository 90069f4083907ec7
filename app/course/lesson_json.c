/*
 * lesson_json.c: the groundwork under the lesson loader: fatal-on-OOM
 * allocation, the per-lesson arena, and the JSON position scanner.
 *
 * The scanner is a strict RFC 8259 recogniser, deliberately stricter than
 * cJSON (no leading zeros, no lone surrogates, valid UTF-8 only, no \u0000
 * that cJSON would silently truncate at), so that anything it accepts cJSON
 * parses to the same tree. It recurses, but never deeper than
 * LESSON_MAX_DEPTH, so hostile input cannot exhaust the stack.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
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

/* --------------------------------------------------------------- scanner */

typedef struct {
    const char *s;
    size_t len, pos;
    lesson__jdoc *doc;
    size_t err_off;
    char *err;
    size_t errlen;
    int failed;
} lesson__scanner;

static int scan_fail(lesson__scanner *sc, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int scan_fail(lesson__scanner *sc, size_t off, const char *fmt, ...)
{
    if (!sc->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sc->err, sc->errlen, fmt, ap);
        va_end(ap);
        sc->err_off = off;
        sc->failed = 1;
    }
    return -1;
}

static int32_t scan_node(lesson__scanner *sc, lesson__jtype type, size_t off)
{
    lesson__jdoc *d = sc->doc;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 256;
        d->nodes = lesson__xrealloc(d->nodes, (size_t)d->cap * sizeof(*d->nodes));
    }
    lesson__jnode *n = &d->nodes[d->n];
    n->type = (uint8_t)type;
    n->off = (uint32_t)off;
    n->key_off = 0;
    n->first = -1;
    n->next = -1;
    return d->n++;
}

static void scan_ws(lesson__scanner *sc)
{
    while (sc->pos < sc->len) {
        char c = sc->s[sc->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        sc->pos++;
    }
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* Length of the valid UTF-8 sequence at p (1 to 4), or 0 if invalid. */
static int utf8_len(const unsigned char *p, size_t avail)
{
    unsigned c = p[0];
    int n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if ((size_t)n > avail)
        return 0;
    unsigned cp = c & (0x7Fu >> n);
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* Lesson text is printed on terminals and drawn in the window: a control
 * character (ESC, BEL, ...), a bidirectional mark or override (U+061C,
 * U+202E, ...), a line or paragraph separator (U+2028, U+2029) or U+FEFF
 * in it could clear the screen, retitle the terminal, reverse what a
 * reader sees or break a line where none shows. Newlines and tabs are
 * text. A byte order mark before the JSON is not in a string: accepted. */
static int unsafe_char(lesson__scanner *sc, size_t off, uint32_t cp)
{
    if (cp == '\n' || cp == '\t' || !app_unsafe_codepoint(cp))
        return 0;
    return scan_fail(sc, off,
                     "U+%04X in a string: control, bidirectional, separator and zero-width "
                     "no-break characters are not allowed in lesson text (a terminal would act "
                     "on them)",
                     (unsigned)cp);
}

static int scan_string(lesson__scanner *sc)
{
    size_t open = sc->pos;
    sc->pos++; /* the opening quote */
    while (sc->pos < sc->len) {
        unsigned char c = (unsigned char)sc->s[sc->pos];
        if (c == '"') {
            sc->pos++;
            return 0;
        }
        if (c < 0x20)
            return scan_fail(sc, sc->pos,
                             "control character U+%04X inside a string; expected it written "
                             "as an escape such as \\n or \\t",
                             c);
        if (c == '\\') {
            size_t esc = sc->pos;
            if (sc->pos + 1 >= sc->len)
                break;
            char e = sc->s[sc->pos + 1];
            if (e == 'u') {
                unsigned cp;
                if (sc->pos + 6 > sc->len || hex4(sc->s + sc->pos + 2, &cp) < 0)
                    return scan_fail(sc, esc, "invalid \\u escape; expected four hex digits");
                sc->pos += 6;
                if (cp == 0)
                    return scan_fail(sc, esc, "\\u0000 is not allowed in a string");
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return scan_fail(sc, esc, "unpaired low surrogate \\u%04X", cp);
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    unsigned lo;
                    if (sc->pos + 6 > sc->len || sc->s[sc->pos] != '\\' ||
                        sc->s[sc->pos + 1] != 'u' || hex4(sc->s + sc->pos + 2, &lo) < 0 ||
                        lo < 0xDC00 || lo > 0xDFFF)
                        return scan_fail(sc, esc,
                                         "unpaired high surrogate \\u%04X; expected a \\uDC00 to "
                                         "\\uDFFF escape after it",
                                         cp);
                    sc->pos += 6;
                }
                if (unsafe_char(sc, esc, cp) < 0)
                    return -1;
                continue;
            }
            if (e == 'b' || e == 'f' || e == 'r')
                return unsafe_char(sc, esc, e == 'b' ? 8 : e == 'f' ? 12 : 13);
            if (!strchr("\"\\/bfnrt", e) || e == '\0')
                return scan_fail(sc, esc,
                                 "invalid escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r "
                                 "\\t \\uXXXX");
            sc->pos += 2;
            continue;
        }
        int n = utf8_len((const unsigned char *)sc->s + sc->pos, sc->len - sc->pos);
        if (n == 0)
            return scan_fail(sc, sc->pos, "invalid UTF-8 byte 0x%02X in a string", c);
        uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
        for (int k = 1; k < n; k++)
            cp = cp << 6 | ((unsigned char)sc->s[sc->pos + (size_t)k] & 0x3F);
        if (unsafe_char(sc, sc->pos, cp) < 0)
            return -1;
        sc->pos += (size_t)n;
    }
    return scan_fail(sc, open, "unterminated string; expected a closing '\"'");
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int scan_number(lesson__scanner *sc)
{
    size_t p = sc->pos, start = sc->pos;
    const char *s = sc->s;
    if (p < sc->len && s[p] == '-')
        p++;
    if (p >= sc->len || !is_digit(s[p]))
        return scan_fail(sc, start, "invalid number; expected a digit");
    if (s[p] == '0') {
        p++;
        if (p < sc->len && is_digit(s[p]))
            return scan_fail(sc, start, "invalid number: leading zeros are not allowed");
    } else {
        while (p < sc->len && is_digit(s[p]))
            p++;
    }
    if (p < sc->len && s[p] == '.') {
        p++;
        if (p >= sc->len || !is_digit(s[p]))
            return scan_fail(sc, p, "invalid number; expected a digit after '.'");
        while (p < sc->len && is_digit(s[p]))
            p++;
    }
    if (p < sc->len && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        if (p < sc->len && (s[p] == '+' || s[p] == '-'))
            p++;
        if (p >= sc->len || !is_digit(s[p]))
            return scan_fail(sc, p, "invalid number; expected a digit in the exponent");
        while (p < sc->len && is_digit(s[p]))
            p++;
    }
    /* cJSON copies a number into a 64-byte buffer and stops there. */
    if (p - start > 63)
        return scan_fail(sc, start, "number too long (more than 63 characters)");
    sc->pos = p;
    return 0;
}

static const char *const expect_value =
    "expected a value (object, array, string, number, true, false or null)";

static int scan_value(lesson__scanner *sc, int depth, int32_t *out);

static int scan_container(lesson__scanner *sc, int depth, int32_t node, int is_object)
{
    char close = is_object ? '}' : ']';
    int32_t last = -1;
    sc->pos++; /* '{' or '[' */
    scan_ws(sc);
    if (sc->pos < sc->len && sc->s[sc->pos] == close) {
        sc->pos++;
        return 0;
    }
    for (;;) {
        size_t key_off = 0;
        if (is_object) {
            if (sc->pos >= sc->len)
                return scan_fail(sc, sc->pos, "unexpected end of file; expected a key in double quotes");
            if (sc->s[sc->pos] != '"') {
                if (sc->s[sc->pos] == '}' && last >= 0)
                    return scan_fail(sc, sc->pos,
                                     "expected a key in double quotes after ',' (JSON allows no "
                                     "trailing comma)");
                return scan_fail(sc, sc->pos, "expected a key in double quotes%s",
                                 last < 0 ? " or '}'" : "");
            }
            key_off = sc->pos;
            if (scan_string(sc) < 0)
                return -1;
            scan_ws(sc);
            if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
                return scan_fail(sc, sc->pos, "expected ':' after the key");
            sc->pos++;
            scan_ws(sc);
        } else if (sc->pos < sc->len && sc->s[sc->pos] == ']' && last >= 0) {
            return scan_fail(sc, sc->pos,
                             "expected a value after ',' (JSON allows no trailing comma)");
        }
        int32_t child;
        if (scan_value(sc, depth + 1, &child) < 0)
            return -1;
        sc->doc->nodes[child].key_off = (uint32_t)key_off;
        if (last < 0)
            sc->doc->nodes[node].first = child;
        else
            sc->doc->nodes[last].next = child;
        last = child;
        scan_ws(sc);
        if (sc->pos >= sc->len)
            return scan_fail(sc, sc->pos, "unexpected end of file; expected ',' or '%c'", close);
        char c = sc->s[sc->pos];
        if (c == ',') {
            sc->pos++;
            scan_ws(sc);
            continue;
        }
        if (c == close) {
            sc->pos++;
            return 0;
        }
        return scan_fail(sc, sc->pos, "expected ',' or '%c' after %s", close,
                         is_object ? "an object member" : "an array element");
    }
}

static int scan_value(lesson__scanner *sc, int depth, int32_t *out)
{
    if (depth > LESSON_MAX_DEPTH)
        return scan_fail(sc, sc->pos, "nesting deeper than %d levels", LESSON_MAX_DEPTH);
    if (sc->pos >= sc->len)
        return scan_fail(sc, sc->pos, "unexpected end of file; %s", expect_value);
    char c = sc->s[sc->pos];
    size_t off = sc->pos;
    switch (c) {
    case '{':
    case '[': {
        int32_t node = scan_node(sc, c == '{' ? LESSON__J_OBJECT : LESSON__J_ARRAY, off);
        *out = node;
        return scan_container(sc, depth, node, c == '{');
    }
    case '"':
        *out = scan_node(sc, LESSON__J_STRING, off);
        return scan_string(sc);
    case 't':
    case 'f':
    case 'n': {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t n = strlen(word);
        if (sc->len - sc->pos < n || memcmp(sc->s + sc->pos, word, n) != 0)
            return scan_fail(sc, off, "%s", expect_value);
        sc->pos += n;
        *out = scan_node(sc, c == 't' ? LESSON__J_TRUE : c == 'f' ? LESSON__J_FALSE : LESSON__J_NULL,
                         off);
        return 0;
    }
    case '\'':
        return scan_fail(sc, off, "strings need double quotes, not single quotes");
    case '/':
        return scan_fail(sc, off, "comments are not allowed in JSON; %s", expect_value);
    default:
        if (c == '-' || is_digit(c)) {
            *out = scan_node(sc, LESSON__J_NUMBER, off);
            return scan_number(sc);
        }
        return scan_fail(sc, off, "%s", expect_value);
    }
}

int lesson__jscan(const char *text, size_t len, size_t start, lesson__jdoc *doc, size_t *err_off,
                  char *err, size_t errlen)
{
    lesson__scanner sc = {.s = text, .len = len, .pos = start, .doc = doc, .err = err,
                          .errlen = errlen};
    doc->n = 0;
    scan_ws(&sc);
    int32_t root;
    if (scan_value(&sc, 1, &root) < 0)
        goto fail;
    scan_ws(&sc);
    if (sc.pos < len) {
        scan_fail(&sc, sc.pos, "unexpected text after the end of the JSON value");
        goto fail;
    }
    return 0;
fail:
    *err_off = sc.err_off;
    return -1;
}

void lesson__jdoc_free(lesson__jdoc *doc)
{
    free(doc->nodes);
    doc->nodes = NULL;
    doc->n = doc->cap = 0;
}

void lesson__position(const char *text, size_t len, size_t start, size_t off, int *line,
                      int *col)
{
    int l = 1, c = 1;
    if (off > len)
        off = len;
    for (size_t i = start; i < off; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n') {
            l++;
            c = 1;
        } else if ((ch & 0xC0) != 0x80) {
            c++; /* a character starts here; continuation bytes do not count */
        }
    }
    *line = l;
    *col = c;
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
