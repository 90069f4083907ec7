/*
 * ncclog_build.c: facts to communicators: each channel's ring and tree,
 * the transport of each ring hop, and the nodes.
 *
 * Rings come from three kinds of line, in order of trust. Rank 0's summary
 * and every rank's "Ring c : prev -> self -> next" are NCCL's own statement
 * of the ring: each says "x sends to y", and two lines that disagree are a
 * contradiction reported with both line numbers. Connection lines are only
 * a fallback for hops nothing else describes, because older NCCL printed
 * its trees' connections under "Ring" too; those printed after "Connected
 * all rings" are never taken for ring hops. A cut summary (NCCL's line
 * buffer ends mid-ring on large jobs) is trusted up to its last, possibly
 * truncated, number, and the rest must come from the per-rank lines.
 *
 * A pasted log is rarely whole, so what the lines leave open is not an
 * error: a channel whose ring or tree is only partly known is kept as such
 * (ncclog_state), hops the known ones force are filled in (with 2 or 3
 * ranks one rank's lines fix the ring; with 2, one rank's tree fixes the
 * other's), and the communicator says what is missing and what to capture
 * in its NCCL version's terms. Only lines that contradict each other are an
 * error. A summary that repeats a rank is NCCL's own broken ring (it prints
 * the summary before it checks it and warns), and is reported as one.
 */
#include <stdlib.h>
#include <string.h>

#include "ncclog_internal.h"

const char *ncclog_via_name(ncclog_via via)
{
    static const char *names[NCCLOG_VIA_COUNT] = {"?", "P2P", "SHM", "NET", "CollNet", "NVLS"};
    return via >= 0 && via < NCCLOG_VIA_COUNT ? names[via] : "?";
}

static ncclog_via via_kind(const char *text)
{
    if (!strncmp(text, "P2P", 3))
        return NCCLOG_VIA_P2P;
    if (!strncmp(text, "SHM", 3) || strstr(text, "shared memory"))
        return NCCLOG_VIA_SHM;
    if (!strncmp(text, "NET", 3))
        return NCCLOG_VIA_NET;
    if (!strncmp(text, "COLLNET", 7) || !strncmp(text, "CollNet", 7))
        return NCCLOG_VIA_COLLNET;
    if (!strncmp(text, "NVLS", 4))
        return NCCLOG_VIA_NVLS;
    return NCCLOG_VIA_UNKNOWN;
}

static void *zalloc(size_t n, size_t size) { return cv_xcalloc(n, size); }

/* ------------------------------------------------------------------ rings */

typedef struct {
    int *next;
    long *line;   /* the line that said it */
    uint16_t *src; /* NCCLOG_SRC_* that said it */
    int *pred;    /* the rank that sends to it, -1 */
} hops;

/* x sends to y, says line; 0, or -1 with the contradiction in problem. */
static int assert_hop(const ncclog *log, ncclog_comm *c, hops *h, int ch, int x, int y, long line,
                      unsigned src)
{
    if (h->next[x] < 0) {
        h->next[x] = y, h->line[x] = line, h->src[x] = (uint16_t)src;
        return 0;
    }
    if (h->next[x] == y)
        return 0;
    snprintf(c->problem, sizeof c->problem,
             "%s:%ld: the rings disagree: this line says rank %d sends to rank %d on channel "
             "%d, line %ld says to rank %d",
             log->name, line, x, y, ch, h->line[x], h->next[x]);
    return -1;
}

/* The facts of one communicator on one channel, as indices into r->facts. */
typedef struct {
    const size_t *k;
    size_t n;
} slice;

/* A ring visits every rank once, so where the known hops leave the ranks in
 * at most two pieces (paths, or ranks no hop names), it has one way to
 * close: the end of each piece sends to the start of the other (with 2 or
 * 3 ranks one rank's line is enough). */
static void close_by_elimination(ncclog_comm *c, hops *h, int known)
{
    int n = c->nranks;
    if (known >= n)
        return;
    for (int i = 0; i < n; i++)
        h->pred[i] = -1;
    for (int i = 0; i < n; i++)
        if (h->next[i] >= 0)
            h->pred[h->next[i]] = i;
    int start[2], end[2], k = 0, covered = 0;
    for (int i = 0; i < n; i++) {
        if (h->pred[i] >= 0)
            continue;
        if (k == 2)
            return; /* three pieces or more: several rings fit */
        int at = i, len = 1;
        while (h->next[at] >= 0 && len <= n)
            at = h->next[at], len++;
        start[k] = i, end[k] = at, k++;
        covered += len;
    }
    if (covered != n || k == 0)
        return; /* a cycle among the known hops: build_ring reports it */
    if (k == 1) {
        h->next[end[0]] = start[0], h->src[end[0]] = NCCLOG_SRC_ELIM;
    } else {
        h->next[end[0]] = start[1], h->src[end[0]] = NCCLOG_SRC_ELIM;
        h->next[end[1]] = start[0], h->src[end[1]] = NCCLOG_SRC_ELIM;
    }
}

static int build_ring(ncclog__reader *r, ncclog_comm *c, slice facts, int ch, hops *h)
{
    const ncclog *log = r->log;
    int n = c->nranks, cut_len = 0;
    ncclog_channel *chan = &c->channels[ch];
    for (int i = 0; i < n; i++)
        h->next[i] = -1, h->src[i] = 0, h->line[i] = 0;
    uint8_t *seen = zalloc((size_t)n, 1);
    /* NCCL's own statements first. */
    for (size_t i = 0; i < facts.n; i++) {
        const ncclog__fact *f = &r->facts[facts.k[i]];
        if (f->kind == NCCLOG__RING) {
            if (assert_hop(log, c, h, ch, f->a, f->b, f->line, NCCLOG_SRC_RING) ||
                assert_hop(log, c, h, ch, f->b, f->c, f->line, NCCLOG_SRC_RING))
                goto fail;
        } else if (f->kind == NCCLOG__SUMMARY) {
            const int32_t *o = r->pool + f->a;
            int len = f->b;
            if (len > n) {
                snprintf(c->problem, sizeof c->problem,
                         "%s:%ld: channel %d's summary names %d ranks, but the communicator "
                         "has %d",
                         log->name, (long)f->line, ch, len, n);
                goto fail;
            }
            /* A rank twice: NCCL's ring does not close (it warns next). */
            memset(seen, 0, (size_t)n);
            int rep = -1;
            for (int j = 0; j < len && rep < 0; j++) {
                if (seen[o[j]])
                    rep = j;
                seen[o[j]] = 1;
            }
            c->summary_len = len;
            c->sources |= NCCLOG_SRC_SUMMARY;
            if (rep >= 0) {
                chan->ring = NCCLOG_BROKEN;
                chan->broken_line = f->line;
                chan->broken_len = len;
                for (int j = 0; j < len; j++)
                    chan->order[j] = o[j];
                continue;
            }
            bool cut = len < n || f->after_rings;
            int trusted = cut ? len - 1 : len;
            for (int j = 0; j + 1 < trusted; j++)
                if (assert_hop(log, c, h, ch, o[j], o[j + 1], f->line, NCCLOG_SRC_SUMMARY))
                    goto fail;
            if (!cut && assert_hop(log, c, h, ch, o[len - 1], o[0], f->line, NCCLOG_SRC_SUMMARY))
                goto fail;
            if (cut) {
                c->sources |= NCCLOG_SRC_SUMMARY_CUT;
                cut_len = len;
            }
        }
    }
    /* Connection lines fill what is left, unless they give a rank two
     * successors or two predecessors (older NCCL printed the trees'
     * connections in the same form, and a paste may hold both): then the
     * channel's connection lines are not taken for ring hops. Those of a
     * process that said "Connected all trees" without "Connected all
     * rings" may be its trees' alone, and are not taken either. */
    long *conn_line = zalloc((size_t)n, sizeof *conn_line);
    int *conn_next = zalloc((size_t)n, sizeof *conn_next);
    for (int i = 0; i < n; i++)
        conn_next[i] = -1;
    int rc = 0;
    for (size_t i = 0; i < facts.n && rc == 0; i++) {
        const ncclog__fact *f = &r->facts[facts.k[i]];
        if (f->kind != NCCLOG__CONN || f->after_rings || h->next[f->a] >= 0)
            continue;
        if (r->epochs[f->epoch].conn_unsure || c->conn_unsure)
            continue;
        if (conn_next[f->a] >= 0 && conn_next[f->a] != f->b)
            rc = -1; /* two successors: the trees' connections are mixed in */
        conn_next[f->a] = f->b, conn_line[f->a] = f->line;
    }
    /* Or two predecessors, once added to what NCCL's own lines say. */
    for (int i = 0; i < n; i++)
        h->pred[i] = -1;
    for (int i = 0; i < n && rc == 0; i++) {
        int y = h->next[i] >= 0 ? h->next[i] : conn_next[i];
        if (y >= 0 && h->pred[y] >= 0)
            rc = -1;
        else if (y >= 0)
            h->pred[y] = i;
    }
    for (int i = 0; i < n && rc == 0; i++)
        if (h->next[i] < 0 && conn_next[i] >= 0) {
            h->next[i] = conn_next[i], h->line[i] = conn_line[i], h->src[i] = NCCLOG_SRC_CONN;
        }
    if (rc) { /* connection lines that cannot all be ring hops: none is taken */
        chan->conn_mixed = true;
        rc = 0;
    }
    free(conn_line);
    free(conn_next);
    if (chan->ring == NCCLOG_BROKEN) {
        free(seen);
        return 0;
    }
    /* Two ranks sending to one is a contradiction, whatever else is missing. */
    for (int i = 0; i < n; i++)
        h->pred[i] = -1;
    for (int i = 0; i < n; i++) {
        int y = h->next[i];
        if (y < 0)
            continue;
        if (h->pred[y] >= 0) {
            int x = h->pred[y];
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: the rings disagree: ranks %d and %d both send to rank %d on "
                     "channel %d (line %ld says %d does)",
                     log->name, h->line[i], i, x, y, ch, h->line[x], x);
            goto fail;
        }
        h->pred[y] = i;
    }
    int known = 0;
    for (int i = 0; i < n; i++)
        known += h->next[i] >= 0;
    close_by_elimination(c, h, known);
    known = 0;
    for (int i = 0; i < n; i++) {
        known += h->next[i] >= 0;
        c->sources |= h->src[i];
    }
    memcpy(chan->next, h->next, (size_t)n * sizeof *h->next);
    chan->order[0] = -1;
    if (known < n) {
        /* The known hops are paths; a cycle among them leaves ranks out. */
        memset(seen, 0, (size_t)n);
        for (int i = 0; i < n; i++)
            h->pred[i] = -1;
        for (int i = 0; i < n; i++)
            if (h->next[i] >= 0)
                h->pred[h->next[i]] = i;
        for (int i = 0; i < n; i++)
            if (h->next[i] >= 0 && h->pred[i] < 0)
                for (int at = i; at >= 0 && !seen[at]; at = h->next[at])
                    seen[at] = 1;
        for (int i = 0; i < n; i++)
            if (h->next[i] >= 0 && !seen[i]) {
                snprintf(c->problem, sizeof c->problem,
                         "%s:%ld: channel %d's ring is not one cycle: the known hops close a "
                         "ring through rank %d that leaves other ranks out",
                         log->name, h->line[i], ch, i);
                goto fail;
            }
        chan->ring = known ? NCCLOG_PARTIAL : NCCLOG_NONE;
        (void)cut_len;
        free(seen);
        return 0;
    }
    /* One cycle through every rank. */
    memset(seen, 0, (size_t)n);
    int at = 0, i = 0;
    for (; i < n && !seen[at]; i++) {
        seen[at] = 1;
        chan->order[i] = at;
        at = h->next[at];
    }
    if (i < n || at != 0) {
        int missing = -1;
        for (int k = 0; k < n && missing < 0; k++)
            if (!seen[k])
                missing = k;
        snprintf(c->problem, sizeof c->problem,
                 "%s:%ld: channel %d's ring is not one cycle: from rank 0 it returns to rank %d "
                 "after %d ranks%s%d",
                 log->name, h->line[at], ch, at, i, missing >= 0 ? " and never visits rank " : ", ",
                 missing >= 0 ? missing : n);
        goto fail;
    }
    chan->ring = NCCLOG_WHOLE;
    free(seen);
    return 0;
fail:
    free(seen);
    return -1;
}

/* ------------------------------------------------------------------ trees */

static bool has_child(const int k[3], int x) { return k[0] == x || k[1] == x || k[2] == x; }

static void add_child(int k[3], int x)
{
    if (has_child(k, x))
        return;
    for (int j = 0; j < 3; j++)
        if (k[j] < 0) {
            k[j] = x;
            return;
        }
}

static int build_tree(ncclog__reader *r, ncclog_comm *c, slice facts, int ch)
{
    const ncclog *log = r->log;
    int n = c->nranks;
    ncclog_channel *chan = &c->channels[ch];
    long *line = zalloc((size_t)n, sizeof *line);
    int rc = 0, known = 0;
    for (size_t i = 0; i < facts.n && rc == 0; i++) {
        const ncclog__fact *f = &r->facts[facts.k[i]];
        if (f->kind != NCCLOG__TREE && f->kind != NCCLOG__TREE_OLD)
            continue;
        if (f->a >= n || f->down[0] >= n || f->down[1] >= n || f->down[2] >= n || f->b >= n) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: this tree names a rank beyond the communicator's %d", log->name,
                     (long)f->line, n);
            rc = -1;
            break;
        }
        int self = f->b;
        if (line[self] && (chan->parent[self] != f->a ||
                           memcmp(chan->children[self], f->down, sizeof f->down) != 0)) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: rank %d's tree %d differs from line %ld (parent %d here, %d there)",
                     log->name, (long)f->line, self, ch, line[self], f->a, chan->parent[self]);
            rc = -1;
            break;
        }
        known += !line[self];
        line[self] = f->line;
        chan->parent[self] = f->a;
        memcpy(chan->children[self], f->down, sizeof f->down);
        chan->tree_known[self] = 1;
        c->sources |= f->kind == NCCLOG__TREE ? NCCLOG_SRC_TREES : NCCLOG_SRC_TREE;
    }
    /* Lines of both ends of an edge must agree. */
    for (int i = 0; i < n && rc == 0; i++) {
        if (!line[i])
            continue;
        int p = chan->parent[i];
        if (p >= 0 && line[p] && !has_child(chan->children[p], i)) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: the trees disagree: rank %d names rank %d as its parent in tree "
                     "%d, but line %ld (rank %d) does not list it among its children",
                     log->name, line[i], i, p, ch, line[p], p);
            rc = -1;
        }
        for (int j = 0; j < 3 && rc == 0; j++) {
            int d = chan->children[i][j];
            if (d >= 0 && line[d] && chan->parent[d] != i) {
                snprintf(c->problem, sizeof c->problem,
                         "%s:%ld: the trees disagree: rank %d lists rank %d as a child in tree "
                         "%d, but line %ld gives rank %d the parent %d",
                         log->name, line[i], i, d, ch, line[d], d, chan->parent[d]);
                rc = -1;
            }
        }
    }
    if (rc == 0 && known > 0 && known < n) {
        /* What the printed lines say of the others: a child's parent, a
         * parent's child; with two ranks, the whole of the other's entry. */
        for (int i = 0; i < n; i++) {
            if (!line[i])
                continue;
            for (int j = 0; j < 3; j++) {
                int d = chan->children[i][j];
                if (d >= 0 && !line[d])
                    chan->parent[d] = i;
            }
            int p = chan->parent[i];
            if (p >= 0 && !line[p])
                add_child(chan->children[p], i);
        }
        if (n == 2) {
            int o = line[0] ? 1 : 0;
            chan->tree_known[o] = 1;
            known = 2;
            c->sources |= NCCLOG_SRC_ELIM;
        }
    }
    if (rc == 0 && known == n) {
        chan->tree = NCCLOG_WHOLE;
        chan->has_tree = true;
        for (int i = 0; i < n && rc == 0; i++) { /* every rank reaches the root */
            int at = i, hopsn = 0;
            while (chan->parent[at] >= 0 && hopsn++ <= n)
                at = chan->parent[at];
            if (hopsn > n) {
                snprintf(c->problem, sizeof c->problem,
                         "%s:%ld: tree %d has a cycle through rank %d", log->name, line[i], ch,
                         i);
                rc = -1;
            }
        }
        int roots = 0;
        for (int i = 0; i < n && rc == 0; i++)
            roots += chan->parent[i] < 0;
        if (rc == 0 && roots != 1) {
            snprintf(c->problem, sizeof c->problem, "%s: tree %d has %d roots, not one",
                     log->name, ch, roots);
            rc = -1;
        }
    } else if (rc == 0) {
        chan->tree = known ? NCCLOG_PARTIAL : NCCLOG_NONE;
    }
    free(line);
    return rc;
}

/* ------------------------------------------------------------------ comms */

static void place_rank(ncclog_comm *c, int rank, const ncclog__printer *p, long line)
{
    if (rank < 0 || rank >= c->nranks || c->ranks[rank].line || !p->host[0])
        return;
    snprintf(c->ranks[rank].host, sizeof c->ranks[rank].host, "%s", p->host);
    c->ranks[rank].cuda_dev = p->cuda_dev;
    c->ranks[rank].line = line;
}

static void build_nodes(ncclog_comm *c)
{
    c->hosts = zalloc((size_t)c->nranks + 1, sizeof *c->hosts);
    c->nnodes = 0;
    for (int i = 0; i < c->nranks; i++) {
        ncclog_rank *k = &c->ranks[i];
        k->node = -1;
        if (!k->host[0])
            continue;
        for (int j = 0; j < c->nnodes && k->node < 0; j++)
            if (!strcmp(c->hosts[j], k->host))
                k->node = j;
        if (k->node < 0) {
            snprintf(c->hosts[c->nnodes], NCCLOG_HOST_LEN, "%s", k->host);
            k->node = c->nnodes++;
        }
    }
}

/* Ranks as ranges ("0, 3-15") into out at *w, at most len. */
static void put_ranks(char *out, size_t len, size_t *w, const int *v, int n)
{
    for (int i = 0; i < n && *w < len;) {
        int j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        int k = j > i ? snprintf(out + *w, len - *w, "%s%d%s%d", i ? ", " : "", v[i],
                                 j == i + 1 ? ", " : "-", v[j])
                      : snprintf(out + *w, len - *w, "%s%d", i ? ", " : "", v[i]);
        *w += k > 0 ? (size_t)k : 0;
        i = j + 1;
    }
    if (*w >= len)
        *w = len - 1;
}

#define PUT(buf, w, ...)                                                                   \
    do {                                                                                   \
        if ((w) < sizeof(buf)) {                                                           \
            int k_ = snprintf((buf) + (w), sizeof(buf) - (w), __VA_ARGS__);                \
            (w) += k_ > 0 ? (size_t)k_ : 0;                                                \
            if ((w) >= sizeof(buf))                                                        \
                (w) = sizeof(buf) - 1;                                                     \
        }                                                                                  \
    } while (0)

/* What is missing from c, and what to capture, in its version's terms. */
static void say_missing(const ncclog *log, ncclog_comm *c, bool rings, bool trees)
{
    int n = c->nranks, *v = cv_xmalloc(((size_t)n + (size_t)c->nchannels + 1) * sizeof *v), m;
    size_t w = 0;
    char *out = c->missing;
    if (c->nchannels == 0)
        PUT(c->missing, w, "no ring or tree line");
    if (c->nranks_unsure)
        PUT(c->missing, w, "%srank 0's summaries list exactly 20 ranks, where NCCL before 2.23 "
                           "cut them, and no \"comm\" line gives the count: more ranks may follow",
            w ? "; " : "");
    if (c->conn_unsure)
        PUT(c->missing, w, "%sthe connection lines come with \"Connected all trees\" and no "
                           "\"Connected all rings\", so they may be the trees' and none is "
                           "taken for a ring", w ? "; " : "");
    for (int pass = 0; pass < 3 && rings; pass++) {
        m = 0;
        for (int ch = 0; ch < c->nchannels; ch++) {
            int st = c->channels[ch].ring;
            bool none = st == NCCLOG_NONE && !c->channels[ch].conn_mixed;
            if ((pass == 0 && none) || (pass == 1 && st == NCCLOG_PARTIAL) ||
                (pass == 2 && st == NCCLOG_BROKEN))
                v[m++] = ch;
        }
        if (!m)
            continue;
        PUT(c->missing, w, "%schannel%s ", w ? "; " : "", m == 1 ? "" : "s");
        put_ranks(out, sizeof c->missing, &w, v, m);
        PUT(c->missing, w, "%s", pass == 0   ? ": no line gives the ring"
                                 : pass == 1 ? ": only part of the ring is known"
                                             : ": NCCL's ring does not close");
    }
    m = 0;
    for (int ch = 0; ch < c->nchannels; ch++)
        if (c->channels[ch].conn_mixed && c->channels[ch].ring != NCCLOG_WHOLE)
            v[m++] = ch;
    if (m) {
        PUT(c->missing, w, "%schannel%s ", w ? "; " : "", m == 1 ? "" : "s");
        put_ranks(out, sizeof c->missing, &w, v, m);
        PUT(c->missing, w, ": connection lines mix the rings' hops with the trees', so none "
                           "is taken for the ring");
    }
    if (trees) {
        m = 0;
        for (int ch = 0; ch < c->nchannels; ch++)
            if (c->channels[ch].tree != NCCLOG_WHOLE)
                v[m++] = ch;
        if (m) {
            PUT(c->missing, w, "%stree%s ", w ? "; " : "", m == 1 ? "" : "s");
            put_ranks(out, sizeof c->missing, &w, v, m);
            PUT(c->missing, w, " not whole");
        }
    }
    /* The ranks no line of its own came from. */
    m = 0;
    for (int i = 0; i < n; i++)
        if (!c->ranks[i].printed)
            v[m++] = i;
    if (m && m < n) {
        PUT(c->missing, w, "%sno line from rank%s ", w ? "; " : "", m == 1 ? "" : "s");
        put_ranks(out, sizeof c->missing, &w, v, m);
    }
    /* The ask. */
    w = 0;
    char who[160];
    size_t ww = 0;
    if (m && m < n) {
        PUT(who, ww, " (missing: rank%s ", m == 1 ? "" : "s");
        put_ranks(who, sizeof who, &ww, v, m);
        PUT(who, ww, ")");
    } else {
        who[0] = 0;
    }
    bool old = ncclog_is_old(log, c);
    const char *ver = c->version[0] ? c->version : log->version;
    if (old) {
        PUT(c->ask, w,
            "ask for rank 0's \"Channel NN :\" summary lines (NCCL before 2.4: \"Ring NN :\"), "
            "which list each ring whole, and every rank's \"Trees\" line%s: NCCL %s prints no "
            "per-rank \"Ring\" lines (they came with 2.10), so NCCL_DEBUG=INFO from every rank "
            "is all there is",
            who, ver[0] ? ver : "before 2.10");
    } else {
        PUT(c->ask, w,
            "ask for the whole output of every rank with NCCL_DEBUG=INFO "
            "NCCL_DEBUG_SUBSYS=INIT,GRAPH%s: each rank then prints its own \"Ring NN : prev -> "
            "rank -> next\" and \"Trees\" lines, and rank 0 the \"Channel NN/MM :\" summaries",
            who);
        int vn = ncclog_version_num(ver);
        bool open_ring = false;
        for (int ch = 0; ch < c->nchannels; ch++)
            open_ring |= c->channels[ch].ring != NCCLOG_WHOLE;
        if ((c->sources & NCCLOG_SRC_SUMMARY_CUT) && open_ring)
            PUT(c->ask, w, "; the summaries are cut short (NCCL %s), so only the per-rank "
                           "\"Ring\" lines give the rest",
                vn && vn < 22300 ? "before 2.23 prints at most about 20 ranks of them"
                : vn             ? "ends a long one in \"...\""
                                 : "before 2.23 prints about 20 ranks of them; later ones end "
                                   "in \"...\"");
    }
    free(v);
}

/* Communicator c from its own epochs eps[neps] and facts fk[nf]. */
static void build_comm(ncclog__reader *r, ncclog_comm *c, const int *eps, int neps,
                       const size_t *fk, size_t nf)
{
    ncclog *log = r->log;
    int maxrank = -1, maxch = -1;
    long maxrank_line = 0;
    bool any_ring = false, any_tree = false, trees_unsure = false, rings_said = false;
    c->nnodes_said = -1;
    for (int i = 0; i < neps; i++) {
        const ncclog__epoch *ep = &r->epochs[eps[i]];
        if (ep->nranks > c->nranks) {
            c->nranks = ep->nranks;
            c->nranks_said = true;
        }
        if (ep->nnodes > c->nnodes_said)
            c->nnodes_said = ep->nnodes;
        if (ep->rank >= 0)
            c->sources |= NCCLOG_SRC_COMM;
        if (ep->rank > maxrank)
            maxrank = ep->rank, maxrank_line = ep->first_line;
        if (!c->version[0] && ep->version >= 0)
            snprintf(c->version, sizeof c->version, "%s", r->versions[ep->version]);
        trees_unsure |= ep->conn_unsure;
        rings_said |= ep->rings_said;
    }
    /* "Connected all trees" with no "Connected all rings" anywhere: the
     * paste begins after the rings were connected, so its connection lines
     * may all be the trees'. */
    c->conn_unsure = trees_unsure && !rings_said;
    for (size_t k = 0; k < nf; k++) {
        const ncclog__fact *f = &r->facts[fk[k]];
        int hi = f->a > f->b ? f->a : f->b;
        if (f->kind == NCCLOG__SUMMARY) {
            hi = -1;
            for (int i = 0; i < f->b; i++)
                hi = r->pool[f->a + i] > hi ? r->pool[f->a + i] : hi;
        } else {
            if (f->kind == NCCLOG__RING && f->c > hi)
                hi = f->c;
            for (int j = 0; j < 3; j++)
                hi = f->down[j] > hi ? f->down[j] : hi;
        }
        if (hi > maxrank)
            maxrank = hi, maxrank_line = f->line;
        if (f->kind == NCCLOG__CONN) {
            c->nconn++;
            if (f->after_rings || c->conn_unsure || r->epochs[f->epoch].conn_unsure)
                continue;
            any_ring = true;
        } else if (f->kind == NCCLOG__TREE || f->kind == NCCLOG__TREE_OLD) {
            any_tree = true;
        } else {
            any_ring = true;
        }
        if (f->kind == NCCLOG__SUMMARY && f->c > c->nchannels_said)
            c->nchannels_said = f->c;
        maxch = f->channel > maxch ? f->channel : maxch;
    }
    if (c->nchannels_said > maxch + 1)
        maxch = c->nchannels_said - 1;
    if (c->nranks < 0) {
        c->nranks = maxrank + 1;
        /* NCCL before 2.23 printed at most 20 ranks of a summary: one of
         * exactly 20, with no line naming a higher rank or the count, may
         * be the start of a larger ring. */
        int v = ncclog_version_num(c->version[0] ? c->version : log->version);
        for (size_t k = 0; k < nf && c->nranks == 20 && (!v || v < 22300); k++) {
            const ncclog__fact *f = &r->facts[fk[k]];
            c->nranks_unsure |= f->kind == NCCLOG__SUMMARY && f->b == 20;
        }
    }
    if (c->nranks <= 0) {
        snprintf(c->problem, sizeof c->problem,
                 "%s:%ld: communicator %s names no rank", log->name, c->first_line,
                 c->id[0] ? c->id : "(unnamed)");
        return;
    }
    if (maxrank >= c->nranks) {
        snprintf(c->problem, sizeof c->problem,
                 "%s:%ld: this line names rank %d, but communicator %s has %d ranks (its "
                 "\"comm\" lines say so): the log contradicts itself; are two runs pasted "
                 "together?",
                 log->name, maxrank_line, maxrank, c->id[0] ? c->id : "(unnamed)", c->nranks);
        return;
    }
    int n = c->nranks;
    c->nchannels = maxch + 1;
    c->ranks = zalloc((size_t)n, sizeof *c->ranks);
    for (int i = 0; i < n; i++)
        c->ranks[i].local_rank = c->ranks[i].cuda_dev = -1;
    c->channels = zalloc((size_t)c->nchannels + 1, sizeof *c->channels);
    for (int ch = 0; ch < c->nchannels; ch++) {
        ncclog_channel *chan = &c->channels[ch];
        chan->next = zalloc((size_t)n, sizeof *chan->next);
        chan->order = zalloc((size_t)n, sizeof *chan->order);
        chan->via = zalloc((size_t)n, sizeof *chan->via);
        chan->via_text = zalloc((size_t)n, sizeof *chan->via_text);
        chan->parent = zalloc((size_t)n, sizeof *chan->parent);
        chan->children = zalloc((size_t)n, sizeof *chan->children);
        chan->tree_known = zalloc((size_t)n, 1);
        chan->order[0] = -1;
        for (int i = 0; i < n; i++) {
            chan->next[i] = chan->parent[i] = -1;
            chan->children[i][0] = chan->children[i][1] = chan->children[i][2] = -1;
        }
    }
    /* Where each rank runs: a comm line, or a line only that rank prints. */
    for (int i = 0; i < neps; i++) {
        const ncclog__epoch *ep = &r->epochs[eps[i]];
        if (ep->rank < 0 || ep->rank >= n)
            continue;
        place_rank(c, ep->rank, &r->printers[ep->printer], ep->first_line);
        ncclog_rank *k = &c->ranks[ep->rank];
        k->printed = true;
        if (ep->local_rank >= 0)
            k->local_rank = ep->local_rank;
        if (ep->cuda_dev >= 0)
            k->cuda_dev = ep->cuda_dev;
        if (ep->ptr[0] && !k->ptr[0])
            memcpy(k->ptr, ep->ptr, sizeof k->ptr);
    }
    /* A rank's own lines come from one process; from two, the log
     * contradicts itself. */
    int *owner = zalloc((size_t)n, sizeof *owner);
    long *owner_line = zalloc((size_t)n, sizeof *owner_line);
    for (int i = 0; i < n; i++)
        owner[i] = -1;
    for (size_t k = 0; k < nf && !c->problem[0]; k++) {
        const ncclog__fact *f = &r->facts[fk[k]];
        int pr = r->epochs[f->epoch].printer;
        const ncclog__printer *p = &r->printers[pr];
        if (f->kind == NCCLOG__CONN) { /* the sender prints it, or "[receive]" the receiver */
            int who = f->c ? f->b : f->a;
            if (who >= 0 && who < n) {
                place_rank(c, who, p, f->line);
                c->ranks[who].printed = true;
            }
            continue;
        }
        int self = f->kind == NCCLOG__SUMMARY ? 0 : f->b;
        if (self < 0 || self >= n)
            continue;
        place_rank(c, self, p, f->line);
        c->ranks[self].printed = true;
        if (owner[self] >= 0 && strcmp(r->printers[owner[self]].proc, p->proc) &&
            f->kind != NCCLOG__SUMMARY) {
            const ncclog__printer *o = &r->printers[owner[self]];
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: rank %d's lines come from two processes: %.40s here, %.40s on "
                     "line %ld; the log contradicts itself (two runs pasted together?)",
                     log->name, (long)f->line, self, p->proc, o->proc, owner_line[self]);
        }
        if (owner[self] < 0 && f->kind != NCCLOG__SUMMARY)
            owner[self] = pr, owner_line[self] = f->line;
    }
    free(owner);
    free(owner_line);
    if (c->problem[0])
        return;
    build_nodes(c);

    /* The communicator's facts by channel (a counting sort), so each
     * channel reads only its own. */
    size_t *start = zalloc((size_t)c->nchannels + 1, sizeof *start), nmine = 0;
    for (size_t k = 0; k < nf; k++)
        if (r->facts[fk[k]].channel < c->nchannels)
            start[r->facts[fk[k]].channel + 1]++, nmine++;
    for (int ch = 0; ch < c->nchannels; ch++)
        start[ch + 1] += start[ch];
    size_t *mine = zalloc(nmine + 1, sizeof *mine),
           *fill = zalloc((size_t)c->nchannels + 1, sizeof *fill);
    for (size_t k = 0; k < nf; k++)
        if (r->facts[fk[k]].channel < c->nchannels) {
            int ch = r->facts[fk[k]].channel;
            mine[start[ch] + fill[ch]++] = fk[k];
        }
    free(fill);
    hops h = {zalloc((size_t)n, sizeof(int)), zalloc((size_t)n, sizeof(long)),
              zalloc((size_t)n, sizeof(uint16_t)), zalloc((size_t)n, sizeof(int))};
    for (int ch = 0; ch < c->nchannels && !c->problem[0]; ch++) {
        slice facts = {mine + start[ch], start[ch + 1] - start[ch]};
        if (any_ring && build_ring(r, c, facts, ch, &h))
            break;
        if (build_tree(r, c, facts, ch))
            break;
    }
    free(start);
    free(mine);
    free(h.next);
    free(h.line);
    free(h.src);
    free(h.pred);
    if (c->problem[0])
        return;
    /* Transports of the ring hops, from any connection line. */
    for (size_t k = 0; k < nf; k++) {
        const ncclog__fact *f = &r->facts[fk[k]];
        if (f->kind != NCCLOG__CONN || f->channel >= c->nchannels)
            continue;
        ncclog_channel *chan = &c->channels[f->channel];
        c->sources |= NCCLOG_SRC_VIA;
        if (any_ring && chan->next[f->a] == f->b && !chan->via_text[f->a][0] && f->via >= 0) {
            chan->via[f->a] = via_kind(r->vias[f->via]);
            snprintf(chan->via_text[f->a], NCCLOG_VIA_LEN, "%s", r->vias[f->via]);
        }
    }
    /* Whole, or partial. */
    bool rings_partial = false, trees_partial = false;
    for (int ch = 0; ch < c->nchannels; ch++) {
        rings_partial |= any_ring && c->channels[ch].ring != NCCLOG_WHOLE;
        trees_partial |= any_tree && c->channels[ch].tree != NCCLOG_WHOLE;
    }
    bool unprinted = false;
    for (int i = 0; i < n; i++)
        unprinted |= !c->ranks[i].printed;
    c->partial = rings_partial || trees_partial || c->nchannels == 0 ||
                 (!any_ring && !any_tree) || c->nranks_unsure;
    if (c->partial)
        say_missing(log, c, any_ring || !any_tree, any_tree);
    (void)unprinted;
}

int ncclog__build(ncclog__reader *r)
{
    ncclog *log = r->log;
    int *ep_comm = ncclog__group(r), n = log->ncomms;
    /* Each communicator's epochs and facts (counting sorts), so building
     * one reads only its own. */
    int *estart = zalloc((size_t)n + 1, sizeof *estart);
    size_t *fstart = zalloc((size_t)n + 1, sizeof *fstart);
    for (int e = 0; e < r->nepochs; e++)
        if (ep_comm[e] >= 0)
            estart[ep_comm[e] + 1]++;
    for (size_t k = 0; k < r->nfacts; k++)
        if (ep_comm[r->facts[k].epoch] >= 0)
            fstart[ep_comm[r->facts[k].epoch] + 1]++;
    for (int i = 0; i < n; i++) {
        estart[i + 1] += estart[i];
        fstart[i + 1] += fstart[i];
    }
    int *eps = zalloc((size_t)estart[n] + 1, sizeof *eps), *efill = zalloc((size_t)n + 1, sizeof *efill);
    size_t *fk = zalloc(fstart[n] + 1, sizeof *fk), *ffill = zalloc((size_t)n + 1, sizeof *ffill);
    for (int e = 0; e < r->nepochs; e++)
        if (ep_comm[e] >= 0)
            eps[estart[ep_comm[e]] + efill[ep_comm[e]]++] = e;
    for (size_t k = 0; k < r->nfacts; k++) {
        int ci = ep_comm[r->facts[k].epoch];
        if (ci >= 0)
            fk[fstart[ci] + ffill[ci]++] = k;
    }
    for (int i = 0; i < n; i++)
        build_comm(r, &log->comms[i], eps + estart[i], estart[i + 1] - estart[i], fk + fstart[i],
                   fstart[i + 1] - fstart[i]);
    free(ep_comm);
    free(estart);
    free(fstart);
    free(eps);
    free(efill);
    free(fk);
    free(ffill);
    if (log->ncomms == 0 && log->info_lines == 0 && log->nwarn == 0) {
        snprintf(r->err, r->errlen,
                 "%s: no NCCL lines in %ld lines (no \"NCCL INFO\", no \"NCCL WARN\"): was it "
                 "captured with NCCL_DEBUG=INFO?",
                 log->name, log->lines);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- versions */

int ncclog_version_num(const char *v)
{
    int a, b, c = 0;
    if (!v || sscanf(v, "%d.%d.%d", &a, &b, &c) < 2 || a < 1 || a > 9 || b < 0 || b > 99 ||
        c < 0 || c > 99)
        return 0;
    return a * 10000 + b * 100 + c;
}

bool ncclog_is_old(const ncclog *log, const ncclog_comm *c)
{
    int v = ncclog_version_num(c && c->version[0] ? c->version : log->version);
    if (v)
        return v < 21000;
    return log->old_formats;
}

int ncclog_first_known(const ncclog_comm *c)
{
    for (int ch = 0; ch < c->nchannels; ch++)
        if (c->channels[ch].ring == NCCLOG_WHOLE)
            return ch;
    for (int ch = 0; ch < c->nchannels; ch++)
        if (c->channels[ch].has_tree)
            return ch;
    return -1;
}

void ncclog_destroy(ncclog *log)
{
    for (int i = 0; i < log->ncomms; i++) {
        ncclog_comm *c = &log->comms[i];
        for (int ch = 0; c->channels && ch < c->nchannels; ch++) {
            ncclog_channel *chan = &c->channels[ch];
            free(chan->next);
            free(chan->order);
            free(chan->via);
            free(chan->via_text);
            free(chan->parent);
            free(chan->children);
            free(chan->tree_known);
        }
        free(c->channels);
        free(c->ranks);
        free(c->hosts);
    }
    free(log->comms);
    log->comms = NULL;
    log->ncomms = 0;
}

/* Whether id names communicator c: its commId, or a rank's pointer; exact,
 * or (prefix) as a prefix. */
static bool names_comm(const ncclog_comm *c, const char *id, bool prefix)
{
    size_t n = strlen(id);
    if (prefix ? !strncmp(c->id, id, n) : !strcmp(c->id, id))
        return true;
    for (int r = 0; c->ranks && r < c->nranks; r++)
        if (c->ranks[r].ptr[0] &&
            (prefix ? !strncmp(c->ranks[r].ptr, id, n) : !strcmp(c->ranks[r].ptr, id)))
            return true;
    return false;
}

static void list_comms(const ncclog *log, const char *id, bool prefix, char *err, size_t errlen,
                       size_t n)
{
    for (int i = 0, k = 0; i < log->ncomms && n < errlen; i++) {
        const ncclog_comm *c = &log->comms[i];
        if (id && !names_comm(c, id, prefix))
            continue;
        int w = snprintf(err + n, errlen - n, "%s %s (%d ranks, line %ld%s%.31s)", k++ ? "," : "",
                         c->id[0] ? c->id : "(unnamed)", c->nranks, c->first_line,
                         c->version[0] ? ", NCCL " : "", c->version);
        n += w > 0 ? (size_t)w : 0;
    }
}

int ncclog_pick(const ncclog *log, const char *id, const ncclog_comm **out, char *err,
                size_t errlen)
{
    int found = -1, matches = 0;
    bool prefix = false;
    if (log->ncomms == 0) {
        snprintf(err, errlen,
                 "%s: no ring, tree or \"comm\" line in %ld lines (%ld NCCL INFO, %ld NCCL "
                 "WARN): no communicator to take; `collviz nccl-log` says what to capture",
                 log->name, log->lines, log->info_lines, log->nwarn);
        return -1;
    }
    for (int pass = 0; pass < 2 && matches == 0; pass++) {
        prefix = pass == 1;
        for (int i = 0; i < log->ncomms; i++)
            if (!id || names_comm(&log->comms[i], id, prefix)) {
                found = i;
                matches++;
            }
        if (!id)
            break;
    }
    if (matches == 1) {
        const ncclog_comm *c = &log->comms[found];
        if (c->problem[0]) {
            snprintf(err, errlen, "%s", c->problem);
            return -1;
        }
        *out = c;
        return 0;
    }
    int w;
    if (matches == 0) {
        w = snprintf(err, errlen, "%s: --comm %s matches no communicator; the log holds:",
                     log->name, id);
        id = NULL;
    } else if (id) {
        w = snprintf(err, errlen,
                     "%s: --comm %s is ambiguous: it begins %d communicators' ids or pointers; "
                     "give more digits:",
                     log->name, id, matches);
    } else {
        w = snprintf(err, errlen, "%s: the log holds %d communicators; pick one with --comm:",
                     log->name, matches);
    }
    list_comms(log, id, prefix, err, errlen, w > 0 ? (size_t)w : 0);
    return -1;
}
