/*
 * jr_scan.c: the strict JSON scanner under every reader (jr.h): syntax
 * checked with messages that say what was expected, and each value's
 * bytes recorded, so jr_read.c can name the place of anything in cJSON's
 * tree.
 *
 * It is a strict RFC 8259 recogniser, deliberately stricter than cJSON (no
 * leading zeros, no lone surrogates, valid UTF-8 only, no \u0000 that
 * cJSON would silently cut a string at, no number longer than cJSON
 * reads), so that anything it accepts cJSON parses to the same tree. It
 * recurses, but never deeper than the reader's depth, so hostile input
 * cannot exhaust the stack; and its nodes grow with the text, so a failed
 * allocation is an error, not the end of the program.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jr_internal.h"

typedef struct {
    const char *s;
    size_t len, pos;
    jr_doc *doc;
    const jr_opts *o;
    jr_error *e;
    int failed;
    int skip;      /* inside a lazy array: values checked, no nodes kept */
    int lazy_next; /* the value about to be scanned is under a lazy key */
} scanner;

static int scan_fail(scanner *sc, jr_status st, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int scan_fail(scanner *sc, jr_status st, size_t off, const char *fmt, ...)
{
    if (!sc->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sc->e->msg, sizeof sc->e->msg, fmt, ap);
        va_end(ap);
        sc->e->status = st;
        sc->e->off = off;
        sc->failed = 1;
    }
    return -1;
}

/* A new node, or -1 after reporting (too many values, or no memory);
 * JR__UNKEPT inside a lazy array, where no node is kept (nor counted
 * against max_values: the caller reads those values itself). */
static int32_t scan_node(scanner *sc, jr__type type, size_t off)
{
    jr_doc *d = sc->doc;
    if (sc->skip)
        return JR__UNKEPT;
    if (sc->o->max_values > 0 && d->n >= sc->o->max_values)
        return scan_fail(sc, JR_ETOOMANY, off, "more than %lld values%s%s",
                         (long long)sc->o->max_values, sc->o->too_many ? "; " : "",
                         sc->o->too_many ? sc->o->too_many : "");
    if (d->n == d->cap) {
        /* Sized by the text, not by collviz: an allocation that fails is
         * said, not fatal. */
        int32_t cap = d->cap ? d->cap * 2 : 256;
        jr__node *nodes = realloc(d->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes)
            return scan_fail(sc, JR_EMEMORY, off, "out of memory after %d values", (int)d->n);
        d->nodes = nodes;
        d->cap = cap;
    }
    jr__node *n = &d->nodes[d->n];
    n->type = (uint8_t)type;
    n->lazy = 0;
    n->off = (uint32_t)off;
    n->end = (uint32_t)off;
    n->key_off = 0;
    n->first = -1;
    n->next = -1;
    return d->n++;
}

static void scan_ws(scanner *sc)
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

int jr__utf8(const unsigned char *p, size_t avail, uint32_t *cp)
{
    unsigned c = p[0];
    int n;
    uint32_t min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
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
    uint32_t v = c & (0x7Fu >> n);
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

/* Text a terminal prints (lessons): a control character (ESC, BEL, ...), a
 * bidirectional mark or override (U+061C, U+202E, ...), a line or
 * paragraph separator (U+2028, U+2029) or U+FEFF in it could clear the
 * screen, retitle the terminal, reverse what a reader sees or break a line
 * where none shows. Newlines and tabs are text. A byte order mark before
 * the JSON is not in a string: accepted. */
static int unsafe_char(scanner *sc, size_t off, uint32_t cp)
{
    if (!sc->o->text_name || cp == '\n' || cp == '\t' || !jr_unsafe_codepoint(cp))
        return 0;
    return scan_fail(sc, JR_ETEXT, off,
                     "U+%04X in a string: control, bidirectional, separator and zero-width "
                     "no-break characters are not allowed in %s (a terminal would act on them)",
                     (unsigned)cp, sc->o->text_name);
}

static int scan_string(scanner *sc)
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
            return scan_fail(sc, JR_ESYNTAX, sc->pos,
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
                    return scan_fail(sc, JR_ESYNTAX, esc,
                                     "invalid \\u escape; expected four hex digits");
                sc->pos += 6;
                if (cp == 0)
                    return scan_fail(sc, JR_ESYNTAX, esc, "\\u0000 is not allowed in a string");
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return scan_fail(sc, JR_ESYNTAX, esc, "unpaired low surrogate \\u%04X", cp);
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    unsigned lo;
                    if (sc->pos + 6 > sc->len || sc->s[sc->pos] != '\\' ||
                        sc->s[sc->pos + 1] != 'u' || hex4(sc->s + sc->pos + 2, &lo) < 0 ||
                        lo < 0xDC00 || lo > 0xDFFF)
                        return scan_fail(sc, JR_ESYNTAX, esc,
                                         "unpaired high surrogate \\u%04X; expected a \\uDC00 to "
                                         "\\uDFFF escape after it",
                                         cp);
                    sc->pos += 6;
                }
                if (unsafe_char(sc, esc, cp) < 0)
                    return -1;
                continue;
            }
            if ((e == 'b' || e == 'f' || e == 'r') &&
                unsafe_char(sc, esc, e == 'b' ? 8 : e == 'f' ? 12 : 13) < 0)
                return -1;
            if (!strchr("\"\\/bfnrt", e) || e == '\0')
                return scan_fail(sc, JR_ESYNTAX, esc,
                                 "invalid escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r "
                                 "\\t \\uXXXX");
            sc->pos += 2;
            continue;
        }
        uint32_t cp;
        int n = jr__utf8((const unsigned char *)sc->s + sc->pos, sc->len - sc->pos, &cp);
        if (n == 0)
            return scan_fail(sc, JR_ESYNTAX, sc->pos, "invalid UTF-8 byte 0x%02X in a string", c);
        if (unsafe_char(sc, sc->pos, cp) < 0)
            return -1;
        sc->pos += (size_t)n;
    }
    return scan_fail(sc, JR_ESYNTAX, open, "unterminated string; expected a closing '\"'");
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int scan_number(scanner *sc)
{
    size_t p = sc->pos, start = sc->pos;
    const char *s = sc->s;
    if (p < sc->len && s[p] == '-')
        p++;
    if (p >= sc->len || !is_digit(s[p]))
        return scan_fail(sc, JR_ESYNTAX, start, "invalid number; expected a digit");
    if (s[p] == '0') {
        p++;
        if (p < sc->len && is_digit(s[p]))
            return scan_fail(sc, JR_ESYNTAX, start,
                             "invalid number: leading zeros are not allowed");
    } else {
        while (p < sc->len && is_digit(s[p]))
            p++;
    }
    if (p < sc->len && s[p] == '.') {
        p++;
        if (p >= sc->len || !is_digit(s[p]))
            return scan_fail(sc, JR_ESYNTAX, p, "invalid number; expected a digit after '.'");
        while (p < sc->len && is_digit(s[p]))
            p++;
    }
    if (p < sc->len && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        if (p < sc->len && (s[p] == '+' || s[p] == '-'))
            p++;
        if (p >= sc->len || !is_digit(s[p]))
            return scan_fail(sc, JR_ESYNTAX, p, "invalid number; expected a digit in the exponent");
        while (p < sc->len && is_digit(s[p]))
            p++;
    }
    /* cJSON reads at most 63 characters of a number: a longer one is
     * handed to it rewritten (jr_read.c); past this length it is no
     * number a person writes. */
    if (p - start > JR__NUMBER_MAX)
        return scan_fail(sc, JR_ESYNTAX, start, "number too long (more than %d characters)",
                         JR__NUMBER_MAX);
    sc->pos = p;
    return 0;
}

/* Whether the key whose opening quote is at key_off (its closing one at
 * close) is one of the reader's lazy keys: compared as written, so a key
 * spelt with escapes is not one. */
static int lazy_key(const scanner *sc, size_t key_off, size_t close)
{
    if (!sc->o->lazy || sc->skip)
        return 0;
    size_t n = close - key_off - 1;
    for (const char *const *k = sc->o->lazy; *k; k++)
        if (strlen(*k) == n && memcmp(*k, sc->s + key_off + 1, n) == 0)
            return 1;
    return 0;
}

static const char *const expect_value =
    "expected a value (object, array, string, number, true, false or null)";

static int scan_value(scanner *sc, int depth, int32_t *out);

static int scan_container(scanner *sc, int depth, int32_t node, int is_object)
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
                return scan_fail(sc, JR_ESYNTAX, sc->pos,
                                 "unexpected end of file; expected a key in double quotes");
            if (sc->s[sc->pos] != '"') {
                if (sc->s[sc->pos] == '}' && last >= 0)
                    return scan_fail(sc, JR_ESYNTAX, sc->pos,
                                     "expected a key in double quotes after ',' (JSON allows no "
                                     "trailing comma)");
                return scan_fail(sc, JR_ESYNTAX, sc->pos, "expected a key in double quotes%s",
                                 last < 0 ? " or '}'" : "");
            }
            key_off = sc->pos;
            if (scan_string(sc) < 0)
                return -1;
            int lazy = lazy_key(sc, key_off, sc->pos - 1);
            scan_ws(sc);
            if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
                return scan_fail(sc, JR_ESYNTAX, sc->pos, "expected ':' after the key");
            sc->pos++;
            scan_ws(sc);
            sc->lazy_next = lazy;
        } else if (sc->pos < sc->len && sc->s[sc->pos] == ']' && last >= 0) {
            return scan_fail(sc, JR_ESYNTAX, sc->pos,
                             "expected a value after ',' (JSON allows no trailing comma)");
        }
        int32_t child;
        if (scan_value(sc, depth + 1, &child) < 0)
            return -1;
        if (node != JR__UNKEPT && child != JR__UNKEPT) {
            jr__node *nodes = sc->doc->nodes;
            nodes[child].key_off = (uint32_t)key_off;
            if (last < 0)
                nodes[node].first = child;
            else
                nodes[last].next = child;
        }
        last = child;
        scan_ws(sc);
        if (sc->pos >= sc->len)
            return scan_fail(sc, JR_ESYNTAX, sc->pos,
                             "unexpected end of file; expected ',' or '%c'", close);
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
        return scan_fail(sc, JR_ESYNTAX, sc->pos, "expected ',' or '%c' after %s", close,
                         is_object ? "an object member" : "an array element");
    }
}

static int scan_value(scanner *sc, int depth, int32_t *out)
{
    int max = sc->o->max_depth > 0 ? sc->o->max_depth : JR_MAX_DEPTH;
    if (depth > max)
        return scan_fail(sc, JR_ESYNTAX, sc->pos, "nesting deeper than %d levels", max);
    if (sc->pos >= sc->len)
        return scan_fail(sc, JR_ESYNTAX, sc->pos, "unexpected end of file; %s", expect_value);
    char c = sc->s[sc->pos];
    size_t off = sc->pos;
    int32_t node;
    int rc, lazy = sc->lazy_next;
    sc->lazy_next = 0;
    switch (c) {
    case '{':
    case '[':
        if ((node = scan_node(sc, c == '{' ? JR__OBJECT : JR__ARRAY, off)) < 0)
            return -1;
        lazy = lazy && c == '[' && node != JR__UNKEPT;
        if (lazy)
            sc->doc->nodes[node].lazy = 1;
        sc->skip += lazy;
        rc = scan_container(sc, depth, node, c == '{');
        sc->skip -= lazy;
        break;
    case '"':
        if ((node = scan_node(sc, JR__STRING, off)) < 0)
            return -1;
        rc = scan_string(sc);
        break;
    case 't':
    case 'f':
    case 'n': {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t n = strlen(word);
        if (sc->len - sc->pos < n || memcmp(sc->s + sc->pos, word, n) != 0)
            return scan_fail(sc, JR_ESYNTAX, off, "%s", expect_value);
        if ((node = scan_node(sc, c == 't' ? JR__TRUE : c == 'f' ? JR__FALSE : JR__NULL, off)) < 0)
            return -1;
        sc->pos += n;
        rc = 0;
        break;
    }
    case '\'':
        return scan_fail(sc, JR_ESYNTAX, off, "strings need double quotes, not single quotes");
    case '/':
        return scan_fail(sc, JR_ESYNTAX, off, "comments are not allowed in JSON; %s",
                         expect_value);
    default:
        if (c != '-' && !is_digit(c))
            return scan_fail(sc, JR_ESYNTAX, off, "%s", expect_value);
        if ((node = scan_node(sc, JR__NUMBER, off)) < 0)
            return -1;
        rc = scan_number(sc);
        break;
    }
    if (rc < 0)
        return -1;
    if (node != JR__UNKEPT)
        sc->doc->nodes[node].end = (uint32_t)sc->pos;
    *out = node;
    return 0;
}

jr_status jr__scan(jr_doc *d, const jr_opts *o, jr_error *e)
{
    scanner sc = {.s = d->text, .len = d->len, .pos = d->start, .doc = d, .o = o, .e = e};
    d->n = 0;
    scan_ws(&sc);
    int32_t root;
    if (scan_value(&sc, 1, &root) < 0)
        return e->status;
    scan_ws(&sc);
    if (sc.pos < d->len) {
        scan_fail(&sc, JR_ESYNTAX, sc.pos, "unexpected text after the end of the JSON value");
        return e->status;
    }
    return JR_OK;
}
