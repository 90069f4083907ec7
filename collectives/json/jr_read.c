/*
 * jr_read.c: reading a JSON file the one way collviz reads them all (jr.h):
 * the file opened without blocking and read only when it is a regular file
 * within the reader's cap, a NUL byte refused, the text scanned (jr_scan.c),
 * its values parsed by cJSON when they fit in memory, and both trees
 * walked together once: to check that they agree, and to refuse a key given
 * twice in one object, which cJSON keeps and a lookup would quietly take
 * the first of. Then the accessors that pair a cJSON node with its place.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cv.h"
#include "jr_internal.h"

/* Bytes a value takes once cJSON holds it (its node and the allocator's
 * own), besides its string; and the estimate above which the memory
 * available is asked first. */
#define JR_BYTES_PER_VALUE (sizeof(cJSON) + 32)
#define JR_ASK_MEMORY_ABOVE ((int64_t)64 << 20)

static void set_error(jr_error *e, jr_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(jr_error *e, jr_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->status = st;
}

static const jr_opts *opts_or_default(const jr_opts *o)
{
    static const jr_opts none;
    return o ? o : &none;
}

static size_t max_bytes(const jr_opts *o)
{
    return o->max_bytes ? o->max_bytes : JR_MAX_BYTES;
}

/* "1 MiB", "256 KiB", or "1000 bytes": a cap as people say it. */
static const char *size_words(size_t n, char *out, size_t len)
{
    if (n >= (1 << 20) && n % (1 << 20) == 0)
        snprintf(out, len, "%zu MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(out, len, "%zu KiB", n >> 10);
    else
        snprintf(out, len, "%zu bytes", n);
    return out;
}

void jr_destroy(jr_doc *d)
{
    cJSON_Delete(d->root);
    free(d->nodes);
    free(d->owned);
    memset(d, 0, sizeof *d);
}

void jr_position(const jr_doc *d, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    if (off > d->len)
        off = d->len;
    for (size_t i = d->start < off ? d->start : off; i < off; i++) {
        unsigned char ch = (unsigned char)d->text[i];
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

/* ----------------------------------------------------- the trees together */

typedef struct {
    const jr_doc *d;
    const jr_opts *o;
    jr_error *e;
    /* the earliest key given twice, and the path of its object */
    size_t dup_off;
    bool dup;
    bool disagree;
    size_t disagree_off;
    char path[200];
} walker;

static bool same_type(const cJSON *j, int type)
{
    switch (type) {
    case JR__NULL:
        return cJSON_IsNull(j);
    case JR__FALSE:
        return cJSON_IsFalse(j);
    case JR__TRUE:
        return cJSON_IsTrue(j);
    case JR__NUMBER:
        return cJSON_IsNumber(j);
    case JR__STRING:
        return cJSON_IsString(j);
    case JR__ARRAY:
        return cJSON_IsArray(j);
    default:
        return cJSON_IsObject(j);
    }
}

static uint64_t hash_key(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The key given a second time in object j (scanner node n), or NULL:
 * pairwise for a few members, by hash for many. */
static const cJSON *find_duplicate(const jr_doc *d, const cJSON *j, int32_t n, int32_t *at)
{
    int count = 0;
    for (const cJSON *c = j->child; c; c = c->next)
        count++;
    if (count < 2)
        return NULL;
    /* cn walks the scanner's children beside cJSON's; where the two
     * disagree, walk() says so, and here the walk stops. */
    if (count <= 16) {
        int32_t cn = d->nodes[n].first;
        for (const cJSON *c = j->child; c && cn >= 0; c = c->next, cn = d->nodes[cn].next)
            for (const cJSON *p = j->child; p != c; p = p->next)
                if (!strcmp(p->string, c->string)) {
                    *at = cn;
                    return c;
                }
        return NULL;
    }
    size_t cap = 32;
    while (cap < (size_t)count * 2)
        cap *= 2;
    const cJSON **slot = calloc(cap, sizeof *slot);
    if (!slot) /* a check that cannot run is skipped, not fatal */
        return NULL;
    const cJSON *found = NULL;
    int32_t cn = d->nodes[n].first;
    for (const cJSON *c = j->child; c && cn >= 0 && !found; c = c->next, cn = d->nodes[cn].next) {
        for (size_t i = hash_key(c->string) & (cap - 1);; i = (i + 1) & (cap - 1)) {
            if (!slot[i]) {
                slot[i] = c;
                break;
            }
            if (!strcmp(slot[i]->string, c->string)) {
                found = c;
                *at = cn;
                break;
            }
        }
    }
    free(slot);
    return found;
}

/* The text as cJSON is given it: NULL (the file's own) unless a number is
 * longer than cJSON reads (63 characters; it would stop there and misread
 * the rest) or an array is lazy (jr_opts.lazy). Else a copy in which each
 * such number is written again as the nearest double, with as many digits
 * as round-trip, padded with spaces to its old length, and each lazy
 * array is left as "[]": cJSON holds none of its values. *len is the
 * copy's length and *same whether every offset in it is the file's (no
 * lazy array cut out). */
static char *cjson_text(const jr_doc *d, const char *text, size_t *len, bool *same)
{
    size_t cut = 0;
    bool any = false;
    for (int32_t i = 0; i < d->n; i++) {
        const jr__node *nd = &d->nodes[i];
        if (nd->lazy)
            cut += nd->end - nd->off - 2;
        any = any || nd->lazy ||
              (nd->type == JR__NUMBER && nd->end - nd->off > JR__CJSON_NUMBER_MAX);
    }
    *same = cut == 0;
    if (!any)
        return NULL;
    char *copy = cv_xmalloc(*len - cut + 1);
    size_t from = 0, to = 0; /* text copied up to from, into copy up to to */
    for (int32_t i = 0; i < d->n; i++) { /* nodes in document order */
        const jr__node *nd = &d->nodes[i];
        size_t n = nd->end - nd->off;
        if (nd->lazy) {
            memcpy(copy + to, text + from, nd->off + 1 - from);
            to += nd->off + 1 - from;
            from = nd->end - 1; /* the closing ']' */
            continue;
        }
        if (nd->type != JR__NUMBER || n <= JR__CJSON_NUMBER_MAX)
            continue;
        memcpy(copy + to, text + from, nd->off - from);
        to += nd->off - from;
        char num[JR__NUMBER_MAX + 1], again[40];
        memcpy(num, text + nd->off, n);
        num[n] = '\0';
        double v = strtod(num, NULL);
        int k = isfinite(v) ? snprintf(again, sizeof again, "%.17g", v)
                            : snprintf(again, sizeof again, "%s", v < 0 ? "-1e999" : "1e999");
        memset(copy + to, ' ', n);
        memcpy(copy + to, again, (size_t)k < n ? (size_t)k : n);
        to += n;
        from = nd->end;
    }
    memcpy(copy + to, text + from, *len - from);
    to += *len - from;
    copy[to] = '\0';
    *len = to;
    return copy;
}

static void walk(walker *w, const cJSON *j, int32_t n, size_t pathlen)
{
    const jr__node *nodes = w->d->nodes;
    if (w->disagree)
        return;
    if (n < 0 || n >= w->d->n || !j || !same_type(j, nodes[n].type)) {
        w->disagree = true;
        w->disagree_off = n >= 0 && n < w->d->n ? nodes[n].off : w->d->start;
        return;
    }
    if (!cJSON_IsArray(j) && !cJSON_IsObject(j))
        return;
    if (cJSON_IsObject(j) && !w->o->allow_duplicates) {
        int32_t at = -1;
        const cJSON *c = find_duplicate(w->d, j, n, &at);
        if (c && (!w->dup || nodes[at].key_off < w->dup_off)) {
            w->dup = true;
            w->dup_off = nodes[at].key_off;
            char clipped[68];
            jr_escape(jr_clip(clipped, sizeof clipped, c->string), w->e->key, sizeof w->e->key);
            if (pathlen == 0)
                snprintf(w->e->where, sizeof w->e->where, "%s",
                         w->o->root_name ? w->o->root_name : "the top level");
            else
                jr_escape(w->path, w->e->where, sizeof w->e->where);
        }
    }
    int32_t cn = nodes[n].first;
    int i = 0;
    for (const cJSON *c = j->child; c; c = c->next, i++) {
        if (cn < 0) {
            w->disagree = true;
            w->disagree_off = nodes[n].off;
            return;
        }
        /* the path of what is below: "beats[2].quiz" */
        char piece[96];
        if (cJSON_IsObject(j)) {
            char key[64];
            snprintf(piece, sizeof piece, "%s%s", pathlen ? "." : "",
                     jr_clip(key, sizeof key, c->string));
        } else {
            snprintf(piece, sizeof piece, "[%d]", i);
        }
        size_t plen = strlen(piece), len = pathlen;
        if (len + plen < sizeof w->path) {
            memcpy(w->path + len, piece, plen + 1);
            len += plen;
        }
        walk(w, c, cn, len);
        w->path[pathlen] = '\0';
        cn = nodes[cn].next;
    }
    if (cn >= 0 && !w->disagree) {
        w->disagree = true;
        w->disagree_off = nodes[cn].off;
    }
}

/* --------------------------------------------------------------- reading */

jr_status jr_read_text(const char *name, const char *text, size_t len, const jr_opts *o,
                       jr_doc *d, jr_error *e)
{
    o = opts_or_default(o);
    memset(d, 0, sizeof *d);
    memset(e, 0, sizeof *e);
    d->name = name ? name : "<buffer>";
    d->text = text;
    d->len = len;
    char words[32];
    size_t cap = max_bytes(o);
    if (len > cap) {
        set_error(e, JR_EBIG, "file is %zu bytes; the limit is %zu (%s)", len, cap,
                  size_words(cap, words, sizeof words));
        return e->status;
    }
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        d->start = 3; /* a UTF-8 byte order mark: harmless, skip it */
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        set_error(e, JR_ENUL, "a NUL byte: a JSON file is text and has none");
        e->off = (size_t)(nul - text);
    } else if (jr__scan(d, o, e) == JR_OK) {
        /* cJSON's tree takes some 100 bytes a value: a text of small values
         * near the cap would take gigabytes, so ask first. */
        int64_t need = (int64_t)d->n * (int64_t)JR_BYTES_PER_VALUE + (int64_t)len;
        char source[64];
        int64_t have = need > JR_ASK_MEMORY_ABOVE ? cv_memory_available(source, sizeof source)
                                                  : need;
        if (need > have) {
            set_error(e, JR_EMEMORY,
                      "its %lld values would take %.1f MiB of memory to read; %s is %.1f MiB",
                      (long long)d->n, (double)need / (1 << 20), source,
                      (double)have / (1 << 20));
            e->off = d->start;
        } else {
            const char *end = NULL;
            size_t plen = len;
            bool same;
            char *copy = cjson_text(d, text, &plen, &same);
            const char *parse = copy ? copy : text;
            d->root = cJSON_ParseWithLengthOpts(parse + d->start, plen - d->start, &end, 0);
            if (copy && end)
                end = same ? text + (end - copy) : NULL;
            free(copy);
            if (!d->root) {
                set_error(e, JR_EMEMORY, "cJSON could not hold the values (out of memory?)");
                e->off = end && end >= text && end <= text + len ? (size_t)(end - text)
                                                                 : d->start;
            } else {
                walker w = {.d = d, .o = o, .e = e};
                walk(&w, d->root, 0, 0);
                if (w.disagree) {
                    set_error(e, JR_ESYNTAX, "cJSON reads this value differently");
                    e->off = w.disagree_off;
                } else if (w.dup) {
                    set_error(e, JR_EDUP, "duplicate key \"%s\" in %s", e->key, e->where);
                    e->off = w.dup_off;
                }
            }
        }
    }
    if (e->status == JR_OK)
        return JR_OK;
    size_t ws = d->start;
    while (ws < len && strchr(" \t\r\n", text[ws]) && text[ws])
        ws++;
    e->empty = e->status == JR_ESYNTAX && ws == len;
    jr_position(d, e->off, &e->line, &e->col);
    jr_destroy(d);
    return e->status;
}

jr_status jr_slurp(const char *path, size_t cap, char **out, size_t *outlen, jr_error *e)
{
    memset(e, 0, sizeof *e);
    *out = NULL;
    *outlen = 0;
    /* O_NONBLOCK: opening a FIFO with no writer would wait for one forever. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        e->sys_errno = errno;
        set_error(e, JR_EOPEN, "cannot open: %s", strerror(e->sys_errno));
        return e->status;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        e->sys_errno = errno;
        set_error(e, JR_EREAD, "cannot read: %s", strerror(e->sys_errno));
        close(fd);
        return e->status;
    }
    if (!S_ISREG(st.st_mode)) {
        set_error(e, JR_ENOTFILE, "cannot read: it is %s",
                  S_ISDIR(st.st_mode)    ? "a directory, not a file"
                  : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe), not a regular file"
                  : S_ISSOCK(st.st_mode) ? "a socket, not a regular file"
                  : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
                      ? "a device, not a regular file"
                      : "not a regular file");
        close(fd);
        return e->status;
    }
    /* A regular file reads the same either way; blocking reads are simpler. */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    char words[32];
    /* Refused from its size alone, before a byte is read. */
    if (st.st_size < 0 || (uint64_t)st.st_size > cap) {
        set_error(e, JR_EBIG, "file is %lld bytes; the limit is %zu (%s)",
                  (long long)st.st_size, cap, size_words(cap, words, sizeof words));
        close(fd);
        return e->status;
    }
    /* Read at most one byte past the cap, in case the size lied (a file
     * still growing). Sized by the file: no memory is an error. */
    size_t room = (size_t)st.st_size + 1, len = 0;
    char *text = malloc(room + 1);
    if (!text) {
        set_error(e, JR_EMEMORY, "out of memory reading %zu bytes", room);
        close(fd);
        return e->status;
    }
    for (;;) {
        if (len == room && room <= cap) {
            size_t more = room * 2 < cap + 1 ? room * 2 : cap + 1;
            char *t = realloc(text, more + 1);
            if (!t) {
                set_error(e, JR_EMEMORY, "out of memory reading %zu bytes", more);
                break;
            }
            text = t;
            room = more;
        }
        if (len == room)
            break;
        ssize_t got = read(fd, text + len, room - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            e->sys_errno = errno;
            set_error(e, JR_EREAD, "cannot read: %s", strerror(e->sys_errno));
            break;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    if (e->status == JR_OK && len > cap)
        set_error(e, JR_EBIG, "file is more than %zu bytes; the limit is %zu (%s)", cap, cap,
                  size_words(cap, words, sizeof words));
    if (e->status != JR_OK) {
        free(text);
        return e->status;
    }
    text[len] = '\0';
    *out = text;
    *outlen = len;
    return JR_OK;
}

jr_status jr_read_file(const char *path, const jr_opts *o, jr_doc *d, jr_error *e)
{
    o = opts_or_default(o);
    memset(d, 0, sizeof *d);
    char *text;
    size_t len;
    if (jr_slurp(path, max_bytes(o), &text, &len, e) != JR_OK)
        return e->status;
    if (jr_read_text(path, text, len, o, d, e) != JR_OK) {
        free(text);
        return e->status;
    }
    d->owned = text;
    return JR_OK;
}

/* ------------------------------------------------------------- accessors */

jr_val jr_root(const jr_doc *d)
{
    return (jr_val){d->root, d->root ? 0 : -1};
}

jr_val jr_child(const jr_doc *d, jr_val v)
{
    if (!v.j || !v.j->child || v.n < 0 || v.n >= d->n)
        return (jr_val){NULL, -1};
    return (jr_val){v.j->child, d->nodes[v.n].first};
}

jr_val jr_next(const jr_doc *d, jr_val v)
{
    if (!v.j || !v.j->next || v.n < 0 || v.n >= d->n)
        return (jr_val){NULL, -1};
    return (jr_val){v.j->next, d->nodes[v.n].next};
}

jr_val jr_member(const jr_doc *d, jr_val obj, const char *key)
{
    if (!cJSON_IsObject(obj.j))
        return (jr_val){NULL, -1};
    for (jr_val c = jr_child(d, obj); c.j; c = jr_next(d, c))
        if (c.j->string && strcmp(c.j->string, key) == 0)
            return c;
    return (jr_val){NULL, -1};
}

jr_val jr_item(const jr_doc *d, jr_val arr, int i)
{
    jr_val c = jr_child(d, arr);
    for (int k = 0; c.j && k < i; k++)
        c = jr_next(d, c);
    return i >= 0 ? c : (jr_val){NULL, -1};
}

int jr_count(jr_val v)
{
    return cJSON_IsArray(v.j) || cJSON_IsObject(v.j) ? cJSON_GetArraySize(v.j) : 0;
}

size_t jr_off(const jr_doc *d, jr_val v)
{
    return v.n >= 0 && v.n < d->n ? d->nodes[v.n].off : d->start;
}

size_t jr_end(const jr_doc *d, jr_val v)
{
    return v.n >= 0 && v.n < d->n ? d->nodes[v.n].end : d->start;
}

size_t jr_key_off(const jr_doc *d, jr_val v)
{
    return v.n >= 0 && v.n < d->n && d->nodes[v.n].key_off ? d->nodes[v.n].key_off
                                                             : jr_off(d, v);
}

const char *jr_number_text(const jr_doc *d, jr_val v, char *out, size_t n)
{
    out[0] = '\0';
    if (!cJSON_IsNumber(v.j) || v.n < 0 || v.n >= d->n || n == 0)
        return out;
    const jr__node *node = &d->nodes[v.n];
    size_t len = node->end - node->off; /* at most JR__NUMBER_MAX */
    if (len >= n)
        len = n - 1;
    memcpy(out, d->text + node->off, len);
    out[len] = '\0';
    return out;
}

/* ---------------------------------------------------------------- tokens */

static size_t skip_ws(const jr_doc *d, size_t p)
{
    while (p < d->len && strchr(" \t\r\n", d->text[p]) && d->text[p])
        p++;
    return p;
}

/* The value starting at p (the scanner checked the text: every value is
 * whole and well formed), or JR_TNONE at a ']' or '}' or the end. */
static jr_tok tok_at(const jr_doc *d, size_t p)
{
    const char *s = d->text;
    jr_tok t = {JR_TNONE, p, p};
    if (p >= d->len)
        return t;
    char c = s[p];
    size_t q = p + 1;
    switch (c) {
    case '"':
        t.kind = JR_TSTRING;
        while (q < d->len && s[q] != '"')
            q += s[q] == '\\' ? 2 : 1;
        q++;
        break;
    case '[':
    case '{': {
        t.kind = c == '[' ? JR_TARRAY : JR_TOBJECT;
        int depth = 1;
        while (q < d->len && depth > 0) {
            char x = s[q++];
            if (x == '"') {
                while (q < d->len && s[q] != '"')
                    q += s[q] == '\\' ? 2 : 1;
                q++;
            } else if (x == '[' || x == '{') {
                depth++;
            } else if (x == ']' || x == '}') {
                depth--;
            }
        }
        break;
    }
    case 't':
        t.kind = JR_TTRUE;
        q = p + 4;
        break;
    case 'f':
        t.kind = JR_TFALSE;
        q = p + 5;
        break;
    case 'n':
        t.kind = JR_TNULL;
        q = p + 4;
        break;
    default:
        if (c != '-' && !(c >= '0' && c <= '9'))
            return t; /* ']' or '}' */
        t.kind = JR_TNUMBER;
        while (q < d->len && strchr("0123456789+-.eE", s[q]) && s[q])
            q++;
        break;
    }
    t.end = q < d->len ? q : d->len;
    return t;
}

jr_tok jr_tok_of(const jr_doc *d, jr_val v)
{
    if (!v.j || v.n < 0 || v.n >= d->n)
        return (jr_tok){JR_TNONE, d->start, d->start};
    static const jr_kind kinds[] = {
        [JR__NULL] = JR_TNULL,     [JR__FALSE] = JR_TFALSE,  [JR__TRUE] = JR_TTRUE,
        [JR__NUMBER] = JR_TNUMBER, [JR__STRING] = JR_TSTRING, [JR__ARRAY] = JR_TARRAY,
        [JR__OBJECT] = JR_TOBJECT};
    const jr__node *nd = &d->nodes[v.n];
    return (jr_tok){kinds[nd->type], nd->off, nd->end};
}

jr_tok jr_tok_first(const jr_doc *d, jr_tok arr)
{
    if (arr.kind != JR_TARRAY)
        return (jr_tok){JR_TNONE, arr.off, arr.off};
    return tok_at(d, skip_ws(d, arr.off + 1));
}

jr_tok jr_tok_next(const jr_doc *d, jr_tok el)
{
    if (el.kind == JR_TNONE)
        return el;
    size_t p = skip_ws(d, el.end);
    if (p < d->len && d->text[p] == ',')
        return tok_at(d, skip_ws(d, p + 1));
    return (jr_tok){JR_TNONE, p, p};
}

jr_tok jr_tok_member(const jr_doc *d, jr_tok obj, const char *key, bool *twice,
                     size_t *twice_off)
{
    jr_tok found = {JR_TNONE, obj.off, obj.off};
    size_t klen = strlen(key);
    if (twice)
        *twice = false;
    if (obj.kind != JR_TOBJECT)
        return found;
    size_t p = skip_ws(d, obj.off + 1);
    while (p < d->len && d->text[p] == '"') {
        jr_tok k = tok_at(d, p);
        bool match = k.end - k.off == klen + 2 && memcmp(d->text + k.off + 1, key, klen) == 0;
        p = skip_ws(d, k.end);
        p = skip_ws(d, p + 1); /* the ':' */
        jr_tok v = tok_at(d, p);
        if (match && found.kind == JR_TNONE) {
            found = v;
        } else if (match) {
            if (twice) {
                *twice = true;
                *twice_off = k.off;
            }
            break;
        }
        p = skip_ws(d, v.end);
        if (p < d->len && d->text[p] == ',')
            p = skip_ws(d, p + 1);
    }
    return found;
}

const char *jr_tok_text(const jr_doc *d, jr_tok t, char *out, size_t n)
{
    if (n == 0)
        return out;
    out[0] = '\0';
    size_t len = t.end - t.off;
    if (t.kind == JR_TNUMBER) {
        if (len >= n)
            len = n - 1;
        memcpy(out, d->text + t.off, len);
        out[len] = '\0';
    } else if (t.kind == JR_TSTRING && len <= 4 * n + 2) {
        /* a string's escapes are cJSON's to undo, on this one value */
        cJSON *j = cJSON_ParseWithLength(d->text + t.off, len);
        if (cJSON_IsString(j) && strlen(j->valuestring) < n)
            snprintf(out, n, "%s", j->valuestring);
        cJSON_Delete(j);
    }
    return out;
}

const char *jr_tok_found(const jr_doc *d, jr_tok t, char *out, size_t n)
{
    if (t.kind == JR_TNUMBER)
        return jr_tok_text(d, t, out, n);
    static const char *const names[] = {"null",     "false",  "true",   "",
                                        "a string", "an array", "an object", "nothing"};
    snprintf(out, n, "%s", names[t.kind]);
    return out;
}

const char *jr_found(const jr_doc *d, jr_val v, char *out, size_t n)
{
    const cJSON *j = v.j;
    if (cJSON_IsNumber(j))
        return jr_number_text(d, v, out, n);
    snprintf(out, n, "%s",
             cJSON_IsObject(j)   ? "an object"
             : cJSON_IsArray(j)  ? "an array"
             : cJSON_IsString(j) ? "a string"
             : cJSON_IsTrue(j)   ? "true"
             : cJSON_IsFalse(j)  ? "false"
                                 : "null");
    return out;
}

const char *jr_say(const jr_doc *d, size_t off, char *out, size_t n, const char *fmt, ...)
{
    char raw[1200];
    int line, col;
    jr_position(d, off, &line, &col);
    int k = snprintf(raw, sizeof raw, "%s:%d:%d: ", d->name, line, col);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < sizeof raw)
        vsnprintf(raw + k, sizeof raw - (size_t)k, fmt, ap);
    va_end(ap);
    jr_escape(raw, out, n);
    return out;
}

const char *jr_error_text(const jr_error *e, const char *path, char *out, size_t n)
{
    char file[1024];
    jr_escape(path ? path : "<buffer>", file, sizeof file);
    const char *not_json = e->status == JR_ESYNTAX ? "not JSON: " : "";
    if (e->line > 0)
        snprintf(out, n, "%s:%d:%d: %s%s", file, e->line, e->col, not_json, e->msg);
    else
        snprintf(out, n, "%s: %s", file, e->msg);
    return out;
}
