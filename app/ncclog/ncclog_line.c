/*
 * ncclog_line.c: one line of an NCCL_DEBUG=INFO log to facts.
 *
 * A line is cleaned first (ANSI colour codes out), then split at "NCCL
 * INFO": what precedes it ends in NCCL's own "host:pid:tid [dev]", which
 * names the printer whatever a launcher or a timestamp put before it; what
 * follows is matched against the forms ncclog.h lists. Anything else is
 * skipped without a word: a training job's log is mostly other lines.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ncclog_internal.h"

void *ncclog__grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = cv_xrealloc(p, c * size);
    *cap = c;
    return q;
}

/* -------------------------------------------------------------- scanning */

static void skip_spaces(const char **p)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
}

/* A decimal integer, possibly negative, at *p (spaces skipped first). */
static bool read_int(const char **p, int *out)
{
    const char *s = *p;
    skip_spaces(&s);
    bool neg = *s == '-';
    if (neg)
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    long v = 0;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (*s++ - '0');
        if (v > 1000000000L)
            return false;
    }
    *out = (int)(neg ? -v : v);
    *p = s;
    return true;
}

static bool take(const char **p, const char *word)
{
    const char *s = *p;
    skip_spaces(&s);
    size_t n = strlen(word);
    if (strncmp(s, word, n) != 0)
        return false;
    *p = s + n;
    return true;
}

/* "[41000]" after a rank in a connection line: the bus id, skipped. */
static void skip_bracket(const char **p)
{
    if (**p != '[')
        return;
    const char *e = strchr(*p, ']');
    if (e)
        *p = e + 1;
}

static void strip_ansi(char *s)
{
    char *w = s;
    for (char *r = s; *r;) {
        if (*r == 0x1b) {
            r++;
            if (*r == '[') {
                r++;
                while (*r && !(*r >= 0x40 && *r <= 0x7e))
                    r++;
                if (*r)
                    r++;
            } else if (*r >= 0x40 && *r <= 0x5f) {
                r++; /* a two-byte escape; anything else (a UTF-8 byte) stays */
            }
            continue;
        }
        *w++ = *r++;
    }
    *w = 0;
}

static void copy_text(char *dst, size_t cap, const char *src, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* ------------------------------------------------------------- printers */

/* FNV-1a of a string: the key of the printers' table and the grouping's maps. */
uint64_t ncclog__hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void rehash(ncclog__reader *r)
{
    int cap = r->hashcap ? r->hashcap * 2 : 256;
    int *t = cv_xcalloc((size_t)cap, sizeof *t);
    for (int i = 0; i < r->nprinters; i++) {
        uint64_t h = ncclog__hash(r->printers[i].key) & (uint64_t)(cap - 1);
        while (t[h])
            h = (h + 1) & (uint64_t)(cap - 1);
        t[h] = i + 1;
    }
    free(r->printer_hash);
    r->printer_hash = t;
    r->hashcap = cap;
}

static int printer_for(ncclog__reader *r, const char *key, const char *host, size_t hostlen,
                       const char *proc, long pid, int dev)
{
    if ((r->nprinters + 1) * 2 > r->hashcap)
        rehash(r);
    uint64_t mask = (uint64_t)(r->hashcap - 1), h = ncclog__hash(key) & mask;
    while (r->printer_hash[h]) {
        int i = r->printer_hash[h] - 1;
        if (!strcmp(r->printers[i].key, key))
            return i;
        h = (h + 1) & mask;
    }
    if (r->nprinters >= NCCLOG_MAX_PRINTERS) {
        char why[128];
        snprintf(why, sizeof why, "more than %d processes' prefixes (host:pid:tid [dev])",
                 NCCLOG_MAX_PRINTERS);
        ncclog__stop(r, why);
        return -1;
    }
    size_t cap = (size_t)r->capprinters;
    r->printers = ncclog__grow(r->printers, &cap, (size_t)r->nprinters + 1, sizeof *r->printers);
    r->capprinters = (int)cap;
    ncclog__printer *p = &r->printers[r->nprinters];
    memset(p, 0, sizeof *p);
    copy_text(p->key, sizeof p->key, key, strlen(key));
    copy_text(p->host, sizeof p->host, host, hostlen);
    copy_text(p->proc, sizeof p->proc, proc, strlen(proc));
    p->pid = pid;
    p->cuda_dev = dev;
    p->epoch = p->last_epoch = -1;
    r->printer_hash[h] = ++r->nprinters;
    return r->nprinters - 1;
}

#define MAX_EPOCHS (1 << 18)

static int open_epoch(ncclog__reader *r, int printer)
{
    ncclog__printer *p = &r->printers[printer];
    if (p->epoch >= 0)
        return p->epoch;
    if (r->nepochs >= MAX_EPOCHS && !r->log->stopped_at) {
        char why[128];
        snprintf(why, sizeof why, "more than %d communicator initialisations", MAX_EPOCHS);
        ncclog__stop(r, why);
    }
    size_t cap = (size_t)r->capepochs;
    r->epochs = ncclog__grow(r->epochs, &cap, (size_t)r->nepochs + 1, sizeof *r->epochs);
    r->capepochs = (int)cap;
    ncclog__epoch *e = &r->epochs[r->nepochs];
    memset(e, 0, sizeof *e);
    e->printer = printer;
    e->rank = e->nranks = e->nnodes = e->local_rank = -1;
    e->cuda_dev = p->cuda_dev;
    e->first_line = r->line;
    e->prev = p->last_epoch;
    e->self = -1;
    e->banner = r->banners;
    e->version = r->cur_version;
    p->rings_connected = false;
    p->epoch = r->nepochs++;
    return p->epoch;
}

static void close_epoch(ncclog__reader *r, int printer)
{
    ncclog__printer *p = &r->printers[printer];
    if (p->epoch < 0)
        return;
    p->last_epoch = p->epoch;
    p->epoch = -1;
}

/* NCCL's "host:pid:tid [dev] " before "NCCL INFO": the last word before the
 * device, split at its last two colons (a launcher's "[1,0]<stdout>:" or
 * "[rank0]:" may be glued in front of the host). */
static int printer_of(ncclog__reader *r, const char *line, const char *info)
{
    const char *end = info;
    while (end > line && end[-1] == ' ')
        end--;
    int dev = -1;
    if (end > line && end[-1] == ']') {
        const char *open = end - 1;
        while (open > line && *open != '[')
            open--;
        if (*open == '[') {
            const char *q = open + 1;
            int d;
            if (read_int(&q, &d) && *q == ']')
                dev = d;
            end = open;
            while (end > line && end[-1] == ' ')
                end--;
        }
    }
    const char *word = end;
    while (word > line && word[-1] != ' ' && word[-1] != '\t')
        word--;
    /* word..end: "...host:pid:tid"; find the host between the third and
     * the second colon from the right. */
    const char *c2 = NULL, *c1 = NULL, *c0 = NULL;
    for (const char *q = end; q > word; q--) {
        if (q[-1] != ':')
            continue;
        if (!c2)
            c2 = q - 1;
        else if (!c1)
            c1 = q - 1;
        else {
            c0 = q - 1;
            break;
        }
    }
    const char *host = word;
    size_t hostlen = 0;
    if (c1) {
        host = c0 ? c0 + 1 : word;
        hostlen = (size_t)(c1 - host);
    }
    char key[NCCLOG_HOST_LEN + 48], proc[NCCLOG_HOST_LEN + 48];
    size_t keylen = (size_t)(end - (c1 ? host : word));
    copy_text(key, sizeof key - 12, c1 ? host : word, keylen);
    snprintf(key + strlen(key), 12, "[%d]", dev);
    /* The process: host:pid, without the thread (NCCL prints a rank's
     * lines from its main thread and from the thread that initialises). */
    long pid = -1;
    if (c1) {
        copy_text(proc, sizeof proc - 12, host, (size_t)(c2 - host));
        const char *q = c1 + 1;
        int v;
        if (read_int(&q, &v) && q == c2)
            pid = v;
    } else {
        copy_text(proc, sizeof proc - 12, word, (size_t)(end - word));
    }
    snprintf(proc + strlen(proc), 12, "[%d]", dev);
    return printer_for(r, key, host, hostlen, proc, pid, dev);
}

/* ----------------------------------------------------------------- facts */

int ncclog__stop(ncclog__reader *r, const char *why)
{
    if (!r->log->stopped_at) {
        r->log->stopped_at = r->line;
        snprintf(r->log->stopped_why, sizeof r->log->stopped_why, "%s", why);
    }
    return 1;
}

static uint64_t fact_key(const ncclog__reader *r, const ncclog__fact *f)
{
    uint64_t h = 1469598103934665603ull;
    int32_t v[10] = {f->kind | f->after_rings << 8, f->channel, f->via, f->epoch,
                     f->a,    f->b,                f->c,      f->down[0],
                     f->down[1], f->down[2]};
    int n = f->kind == NCCLOG__SUMMARY ? 4 : 10;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)v[i]) * 1099511628211ull;
    if (f->kind == NCCLOG__SUMMARY)
        for (int i = 0; i < f->b; i++)
            h = (h ^ (uint32_t)r->pool[f->a + i]) * 1099511628211ull;
    return h;
}

static bool same_fact(const ncclog__reader *r, const ncclog__fact *x, const ncclog__fact *y)
{
    if (x->kind != y->kind || x->after_rings != y->after_rings || x->channel != y->channel ||
        x->via != y->via || x->epoch != y->epoch)
        return false;
    if (x->kind == NCCLOG__SUMMARY)
        return x->b == y->b && x->c == y->c &&
               !memcmp(r->pool + x->a, r->pool + y->a, (size_t)x->b * sizeof *r->pool);
    return x->a == y->a && x->b == y->b && x->c == y->c &&
           !memcmp(x->down, y->down, sizeof x->down);
}

static void fact_rehash(ncclog__reader *r)
{
    size_t cap = r->facthashcap ? r->facthashcap * 2 : 1024;
    uint32_t *t = cv_xcalloc(cap, sizeof *t);
    for (size_t i = 0; i < r->nfacts; i++) {
        size_t h = fact_key(r, &r->facts[i]) & (cap - 1);
        while (t[h])
            h = (h + 1) & (cap - 1);
        t[h] = (uint32_t)i + 1;
    }
    free(r->fact_hash);
    r->fact_hash = t;
    r->facthashcap = cap;
}

/* Keeps fact f of printer's epoch unless the same fact is kept already;
 * 1 where the bound on facts stops the reading. */
static int put_fact(ncclog__reader *r, int printer, ncclog__fact *f)
{
    f->line = r->line;
    f->epoch = open_epoch(r, printer);
    ncclog__epoch *e = &r->epochs[f->epoch];
    e->has_facts = true;
    int self = f->kind == NCCLOG__SUMMARY ? 0
               : f->kind == NCCLOG__CONN  ? -1
                                          : f->b;
    if (self >= 0)
        e->self = e->self == -1 || e->self == self ? self : -2;
    if (f->kind == NCCLOG__SUMMARY && f->c > 0)
        e->total = f->c;
    if ((r->nfacts + 1) * 2 > r->facthashcap)
        fact_rehash(r);
    size_t mask = r->facthashcap - 1, h = fact_key(r, f) & mask;
    while (r->fact_hash[h]) {
        if (same_fact(r, &r->facts[r->fact_hash[h] - 1], f))
            return 0;
        h = (h + 1) & mask;
    }
    if (r->nfacts >= NCCLOG_MAX_FACTS) {
        /* Kept once per communicator set-up (an epoch): a log of one job
         * printed again, or a communicator made again, counts again. */
        char why[160];
        snprintf(why, sizeof why,
                 "more than %ld ring and tree entries over %d communicator set-ups, each "
                 "counted, repeated ones too",
                 NCCLOG_MAX_FACTS, r->nepochs);
        return ncclog__stop(r, why);
    }
    r->facts = ncclog__grow(r->facts, &r->capfacts, r->nfacts + 1, sizeof *r->facts);
    r->facts[r->nfacts++] = *f;
    r->fact_hash[h] = (uint32_t)r->nfacts;
    return 0;
}

static ncclog__fact new_fact(ncclog__kind kind, int channel)
{
    ncclog__fact f;
    memset(&f, 0, sizeof f);
    f.kind = (uint8_t)kind;
    f.channel = (int16_t)channel;
    f.via = -1;
    f.down[0] = f.down[1] = f.down[2] = -1;
    return f;
}

/* The index of transport text via[n] in the reader's table, -1 where the
 * table is full. */
static int intern_via(ncclog__reader *r, const char *via, size_t n)
{
    char t[NCCLOG_VIA_LEN];
    copy_text(t, sizeof t, via, n);
    for (int i = 0; i < r->nvias; i++)
        if (!strcmp(r->vias[i], t))
            return i;
    if (r->nvias >= NCCLOG__VIAS)
        return -1;
    if (!r->vias)
        r->vias = cv_xcalloc(NCCLOG__VIAS, sizeof *r->vias);
    memcpy(r->vias[r->nvias], t, sizeof t);
    return r->nvias++;
}

static int bad(ncclog__reader *r, const char *what)
{
    snprintf(r->err, r->errlen, "%s:%ld: %s", r->log->name, r->line, what);
    return -1;
}

static int check_rank(ncclog__reader *r, int rank, bool may_be_none)
{
    if ((may_be_none && rank == -1) || (rank >= 0 && rank < NCCLOG_MAX_RANKS))
        return 0;
    char what[128];
    snprintf(what, sizeof what, "rank %d is out of range (collviz reads up to %d ranks)", rank,
             NCCLOG_MAX_RANKS);
    return bad(r, what);
}

static bool read_channel(const char **p, int *c)
{
    return read_int(p, c) && *c >= 0 && *c < NCCLOG_MAX_CHANNELS;
}

/* A "0x..." number at p into out; false where there is none. */
static bool read_hex_id(const char *p, char out[24])
{
    if (p[0] != '0' || p[1] != 'x' || !isxdigit((unsigned char)p[2]))
        return false;
    size_t n = 2;
    while (isxdigit((unsigned char)p[n]))
        n++;
    copy_text(out, 24, p, n);
    return true;
}

/* "comm 0x... rank r nRanks n ..." in its several forms; the pointer is
 * the printing process's own, the "commId 0x..." (newer NCCL, on the Init
 * START and COMPLETE lines) the communicator's. */
static int comm_line(ncclog__reader *r, int printer, const char *msg)
{
    const char *c = strstr(msg, "comm 0x");
    if (!c || (c > msg && isalnum((unsigned char)c[-1])))
        return 0;
    const char *id = c + 5;
    char ptr[24], commid[24] = "";
    if (!read_hex_id(id, ptr))
        return 0;
    size_t n = strlen(ptr);
    const char *cid = strstr(msg, "commId ");
    if (cid)
        read_hex_id(cid + 7, commid);
    int rank = -1, nranks = -1, nnodes = -1, local_rank = -1, cuda_dev = -1;
    for (const char *q = id + n; *q;) {
        int v;
        if (take(&q, "rank ") && read_int(&q, &v))
            rank = v;
        else if ((take(&q, "nRanks ") || take(&q, "nranks ")) && read_int(&q, &v))
            nranks = v;
        else if (take(&q, "nNodes ") && read_int(&q, &v))
            nnodes = v;
        else if (take(&q, "localRanks ") && read_int(&q, &v))
            (void)v;
        else if (take(&q, "localRank ") && read_int(&q, &v))
            local_rank = v;
        else if (take(&q, "cudaDev ") && read_int(&q, &v))
            cuda_dev = v;
        else
            while (*q && *q++ != ' ')
                ;
    }
    if (rank == -1) /* a collective's trace ("... comm 0x... [nranks=16]"), not a rank's */
        return 0;
    if (check_rank(r, rank, false) ||
        (nranks > NCCLOG_MAX_RANKS &&
         bad(r, "a communicator of more ranks than collviz reads (4096)")))
        return -1;
    bool start = strstr(msg, "Init START") != NULL;
    bool complete = strstr(msg, "Init COMPLETE") != NULL;
    ncclog__printer *p = &r->printers[printer];
    if (p->epoch >= 0) {
        ncclog__epoch *e = &r->epochs[p->epoch];
        if ((e->ptr[0] && strcmp(e->ptr, ptr) != 0) || (start && !e->ptr[0] && e->has_facts) ||
            (commid[0] && e->commid[0] && strcmp(e->commid, commid) != 0))
            close_epoch(r, printer);
    }
    int ei = open_epoch(r, printer); /* may move r->epochs: index first */
    ncclog__epoch *e = &r->epochs[ei];
    memcpy(e->ptr, ptr, sizeof e->ptr);
    if (commid[0])
        memcpy(e->commid, commid, sizeof e->commid);
    e->rank = rank;
    if (nranks >= 0)
        e->nranks = nranks;
    if (nnodes >= 0)
        e->nnodes = nnodes;
    if (local_rank >= 0)
        e->local_rank = local_rank;
    if (cuda_dev >= 0)
        e->cuda_dev = cuda_dev;
    if (complete)
        close_epoch(r, printer);
    return 0;
}

/* "Channel 00/08 :    0   7   6 ..." (and NCCL 2.3's "Ring 00 :    0   1
 * ..."): rank 0's summary of a ring. From NCCL 2.23 a summary NCCL cut
 * short ends in "...". */
static int summary_line(ncclog__reader *r, int printer, const char *msg, int skip)
{
    const char *q = msg + skip;
    int ch, total = -1;
    if (!read_channel(&q, &ch))
        return 0;
    if (*q == '/') {
        q++;
        if (!read_int(&q, &total))
            return 0;
        if (total > NCCLOG_MAX_CHANNELS)
            return bad(r, "more channels than collviz reads (128)");
    }
    if (!take(&q, ":"))
        return 0;
    size_t start = r->npool;
    int v;
    while (read_int(&q, &v)) {
        if (check_rank(r, v, false))
            return -1;
        if (r->npool >= NCCLOG_MAX_POOL) {
            r->npool = start;
            char why[128];
            snprintf(why, sizeof why, "more than %ld ranks in summary lines", NCCLOG_MAX_POOL);
            return ncclog__stop(r, why);
        }
        r->pool = ncclog__grow(r->pool, &r->cappool, r->npool + 1, sizeof *r->pool);
        r->pool[r->npool++] = v;
    }
    bool dots = take(&q, "...");
    skip_spaces(&q);
    if (*q || r->npool == start) {
        r->npool = start; /* not a summary after all */
        return 0;
    }
    if (skip == 5)
        r->log->old_formats = true; /* NCCL 2.3's "Ring 00 :" summary */
    ncclog__fact f = new_fact(NCCLOG__SUMMARY, ch);
    f.a = (int32_t)start;
    f.b = (int32_t)(r->npool - start);
    f.c = total;
    f.after_rings = dots; /* for a summary: NCCL marked it cut */
    size_t kept = r->nfacts;
    int rc = put_fact(r, printer, &f);
    if (r->nfacts == kept)
        r->npool = start; /* the same summary again */
    return rc;
}

/* "Ring 00 : 6 -> 7 -> 0", or a connection "Ring 00 : 12[41000] -> 11[2d000]
 * via P2P/IPC" / "Channel 00/0 : 0[18000] -> 1[2a000] [send] via NET/IB/0".
 * A connection's "/1" is its connection index: 1 is a send/recv (p2p)
 * connection, not a ring's. The transport is the rest of the line, spaces
 * and all ("P2P/direct pointer", "NET/AWS Libfabric/0/GDRDMA"). */
static int ring_or_conn_line(ncclog__reader *r, int printer, const char *msg, int skip)
{
    const char *q = msg + skip;
    int ch, a, b, c, conn = 0;
    if (!read_channel(&q, &ch))
        return 0;
    if (*q == '/') {
        q++;
        if (!read_int(&q, &conn))
            return 0;
    }
    if (!take(&q, ":") || !read_int(&q, &a))
        return 0;
    bool bus = *q == '[';
    skip_bracket(&q);
    if (!take(&q, "->") || !read_int(&q, &b))
        return 0;
    skip_bracket(&q);
    if (take(&q, "->")) {
        if (!read_int(&q, &c) || check_rank(r, a, false) || check_rank(r, b, false) ||
            check_rank(r, c, false))
            return r->err[0] ? -1 : 0;
        ncclog__fact f = new_fact(NCCLOG__RING, ch);
        f.a = a, f.b = b, f.c = c;
        return put_fact(r, printer, &f);
    }
    const char *via = strstr(q, "via ");
    if (!via)
        return 0;
    if (check_rank(r, a, false) || check_rank(r, b, false))
        return -1;
    if (conn != 0)
        return 0; /* a send/recv connection */
    if (skip == 5 && bus)
        r->log->old_formats = true; /* "Ring 00 : a[bus] -> b[bus] via ...": before 2.7 */
    via += 4;
    size_t n = strlen(via);
    while (n > 0 && (via[n - 1] == ' ' || via[n - 1] == '\t'))
        n--;
    ncclog__fact f = new_fact(NCCLOG__CONN, ch);
    f.a = a, f.b = b;
    f.after_rings = r->printers[printer].rings_connected;
    f.c = strstr(q, "[receive]") != NULL && strstr(q, "[receive]") < via; /* its receiver's line */
    f.via = (int16_t)intern_via(r, via, n);
    return put_fact(r, printer, &f);
}

/* One " [c] X->Y->Z" (or "X->Y->Z|U->Y->W") of a "Trees" line: the part
 * holding slashes is the children, the other end the parent. */
static int tree_item(ncclog__reader *r, int printer, int ch, const char **p)
{
    int parts[3][3], nparts[3] = {0, 0, 0};
    const char *q = *p;
    for (int k = 0; k < 3; k++) {
        if (k && !take(&q, "->"))
            return -2;
        for (int j = 0; j < 3; j++) {
            if (j && *q != '/')
                break;
            if (j)
                q++;
            if (!read_int(&q, &parts[k][j]))
                return -2;
            nparts[k]++;
        }
    }
    if (*q == '|') { /* the down tree of NCCL 2.4's pair: the up tree is enough */
        r->log->old_formats = true;
        while (*q && *q != ' ')
            q++;
    }
    *p = q;
    if (nparts[1] != 1)
        return -2;
    int self = parts[1][0], parent, nd, *down;
    if (nparts[0] > 1 && nparts[2] == 1)
        down = parts[0], nd = nparts[0], parent = parts[2][0];
    else if (nparts[2] > 1 && nparts[0] == 1) {
        down = parts[2], nd = nparts[2], parent = parts[0][0];
        r->log->old_formats = true; /* NCCL 2.4's parent->rank->children */
    } else
        return -2;
    if (check_rank(r, self, false) || check_rank(r, parent, true))
        return -1;
    ncclog__fact f = new_fact(NCCLOG__TREE, ch);
    f.a = parent, f.b = self;
    for (int j = 0; j < nd; j++) {
        if (check_rank(r, down[j], true))
            return -1;
        f.down[j] = down[j];
    }
    return put_fact(r, printer, &f) ? 1 : 0;
}

static int trees_line(ncclog__reader *r, int printer, const char *msg)
{
    const char *q = msg + 5;
    int ch;
    while (take(&q, "[")) {
        if (!read_channel(&q, &ch) || *q != ']')
            return 0;
        q++;
        skip_spaces(&q);
        int rc = tree_item(r, printer, ch, &q);
        if (rc == -1 || rc == 1)
            return rc;
        if (rc < 0)
            return bad(r, "a \"Trees\" entry collviz cannot read (expected [channel] "
                          "children->rank->parent)");
    }
    return 0;
}

/* "Tree 1 : 1 -> 3 -> 2/-1/-1": parent -> self -> children. */
static int tree_line(ncclog__reader *r, int printer, const char *msg)
{
    const char *q = msg + 4;
    int ch, parent, self, down[3] = {-1, -1, -1};
    if (!read_channel(&q, &ch) || !take(&q, ":") || !read_int(&q, &parent) || !take(&q, "->") ||
        !read_int(&q, &self) || !take(&q, "->") || !read_int(&q, &down[0]))
        return 0;
    for (int j = 1; j < 3 && *q == '/'; j++) {
        q++;
        if (!read_int(&q, &down[j]))
            return 0;
    }
    if (check_rank(r, self, false) || check_rank(r, parent, true) ||
        check_rank(r, down[0], true) || check_rank(r, down[1], true) ||
        check_rank(r, down[2], true))
        return -1;
    ncclog__fact f = new_fact(NCCLOG__TREE_OLD, ch);
    f.a = parent, f.b = self;
    memcpy(f.down, down, sizeof down);
    return put_fact(r, printer, &f);
}

/* "NCCL version 2.21.5+cuda12.4", "RCCL version 2.6.4+hip3.5", ROCm's
 * "RCCL version : 2.21.5-HEAD:9a0e6a1". Each marks a run's start. */
static void version_line(ncclog__reader *r, const char *v, bool rccl)
{
    while (*v == ' ' || *v == ':')
        v++;
    size_t n = 0;
    while (v[n] && v[n] != ' ')
        n++;
    if (!n)
        return;
    char t[32];
    copy_text(t, sizeof t, v, n);
    if (!ncclog_version_num(t))
        return; /* "NCCL version 21.1.4" in PyTorch's error text is no banner */
    r->banners++;
    int k = 0;
    while (k < r->nversions && strcmp(r->versions[k], t))
        k++;
    if (k == r->nversions && k < 16)
        memcpy(r->versions[r->nversions++], t, sizeof t);
    r->cur_version = k < 16 ? k : r->cur_version;
    if (r->log->version[0])
        return;
    memcpy(r->log->version, t, sizeof t);
    r->log->version_line = r->line;
    snprintf(r->log->flavor, sizeof r->log->flavor, "%s", rccl ? "RCCL" : "NCCL");
}

/* "host:pid:tid [dev] file.cc:NN NCCL WARN text": counted, the distinct
 * ones kept with their first line. */
static void warn_line(ncclog__reader *r, char *text, const char *warn)
{
    ncclog *log = r->log;
    log->nwarn++;
    const char *t = warn + 9;
    skip_spaces(&t);
    size_t n = strlen(t);
    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    char body[NCCLOG_WARN_LEN];
    copy_text(body, sizeof body, t, n);
    for (int i = 0; i < log->nwarns; i++)
        if (!strcmp(log->warns[i].text, body)) {
            log->warns[i].count++;
            return;
        }
    if (log->nwarns >= NCCLOG_WARN_KEEP)
        return;
    ncclog_warn *w = &log->warns[log->nwarns++];
    memset(w, 0, sizeof *w);
    w->line = r->line;
    w->count = 1;
    memcpy(w->text, body, sizeof body);
    /* Where: the word holding NCCL's host:pid:tid before the device. */
    const char *end = warn;
    (void)text;
    const char *dev = NULL;
    for (const char *q = end; q > text; q--)
        if (q[-1] == ']') {
            dev = q - 1;
            break;
        }
    if (dev) {
        const char *open = dev;
        while (open > text && *open != '[')
            open--;
        const char *we = open;
        while (we > text && we[-1] == ' ')
            we--;
        const char *ws = we;
        while (ws > text && ws[-1] != ' ' && ws[-1] != '\t')
            ws--;
        const char *colon = memchr(ws, ':', (size_t)(we - ws));
        size_t hl = colon ? (size_t)(colon - ws) : (size_t)(we - ws);
        char host[NCCLOG_HOST_LEN];
        copy_text(host, sizeof host, ws, hl);
        char devs[12];
        copy_text(devs, sizeof devs, open, (size_t)(dev - open + 1));
        snprintf(w->where, sizeof w->where, "%s%s%s", host, host[0] ? " " : "", devs);
    }
}

int ncclog__line(ncclog__reader *r, char *text)
{
    if (strchr(text, 0x1b))
        strip_ansi(text);
    const char *info = strstr(text, "NCCL INFO");
    if (!info) {
        const char *w = strstr(text, "NCCL WARN");
        if (w) {
            warn_line(r, text, w);
            return 0;
        }
        const char *v = strstr(text, "NCCL version ");
        if (v)
            version_line(r, v + 13, false);
        else if ((v = strstr(text, "RCCL version")) != NULL)
            version_line(r, v + 12, true);
        return 0;
    }
    r->log->info_lines++;
    const char *msg = info + 9;
    skip_spaces(&msg);
    int printer = printer_of(r, text, info);
    if (printer < 0)
        return 1;
    if (!strncmp(msg, "NCCL version ", 13)) {
        version_line(r, msg + 13, false);
        return 0;
    }
    if (!strncmp(msg, "RCCL version", 12)) {
        version_line(r, msg + 12, true);
        return 0;
    }
    if (!strncmp(msg, "Channel ", 8)) {
        if (strstr(msg, "->"))
            return ring_or_conn_line(r, printer, msg, 8);
        return summary_line(r, printer, msg, 8);
    }
    if (!strncmp(msg, "Ring ", 5)) {
        if (strstr(msg, "->"))
            return ring_or_conn_line(r, printer, msg, 5);
        return summary_line(r, printer, msg, 5);
    }
    if (!strncmp(msg, "Trees", 5))
        return trees_line(r, printer, msg);
    if (!strncmp(msg, "Tree ", 5))
        return tree_line(r, printer, msg);
    if (!strncmp(msg, "Connected all trees", 19)) {
        int e = open_epoch(r, printer);
        if (!r->printers[printer].rings_connected)
            r->epochs[e].conn_unsure = true;
        return 0;
    }
    if (!strncmp(msg, "Connected all rings", 19)) {
        int e = open_epoch(r, printer); /* may move r->epochs: index first */
        r->epochs[e].rings_said = true;
        r->printers[printer].rings_connected = true;
        return 0;
    }
    if (ncclog__tuning_line(r, printer, msg))
        return 0;
    if (strstr(msg, "comm 0x"))
        return comm_line(r, printer, msg);
    return 0;
}
