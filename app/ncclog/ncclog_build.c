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
    if (!strncmp(text, "SHM", 3))
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
    uint8_t *src; /* NCCLOG_SRC_* that said it */
} hops;

/* x sends to y, says line; 0, or -1 with the contradiction in problem. */
static int assert_hop(const ncclog *log, ncclog_comm *c, hops *h, int ch, int x, int y, long line,
                      unsigned src)
{
    if (h->next[x] < 0) {
        h->next[x] = y, h->line[x] = line, h->src[x] = (uint8_t)src;
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

static int build_ring(ncclog__reader *r, ncclog_comm *c, slice facts, int ch, hops *h)
{
    const ncclog *log = r->log;
    int n = c->nranks, cut_len = 0;
    long cut_line = 0;
    for (int i = 0; i < n; i++)
        h->next[i] = -1;
    /* NCCL's own statements first. */
    for (size_t i = 0; i < facts.n; i++) {
        const ncclog__fact *f = &r->facts[facts.k[i]];
        if (f->kind == NCCLOG__RING) {
            if (assert_hop(log, c, h, ch, f->a, f->b, f->line, NCCLOG_SRC_RING) ||
                assert_hop(log, c, h, ch, f->b, f->c, f->line, NCCLOG_SRC_RING))
                return -1;
        } else if (f->kind == NCCLOG__SUMMARY) {
            const int32_t *o = r->pool + f->a;
            int len = f->b;
            bool cut = len < n;
            int trusted = cut ? len - 1 : len;
            if (len > n) {
                snprintf(c->problem, sizeof c->problem,
                         "%s:%ld: channel %d's summary names %d ranks, but the communicator "
                         "has %d",
                         log->name, f->line, ch, len, n);
                return -1;
            }
            for (int j = 0; j + 1 < trusted; j++)
                if (assert_hop(log, c, h, ch, o[j], o[j + 1], f->line, NCCLOG_SRC_SUMMARY))
                    return -1;
            if (!cut && assert_hop(log, c, h, ch, o[len - 1], o[0], f->line, NCCLOG_SRC_SUMMARY))
                return -1;
            c->summary_len = len;
            c->sources |= NCCLOG_SRC_SUMMARY | (cut ? NCCLOG_SRC_SUMMARY_CUT : 0);
            if (cut)
                cut_len = len, cut_line = f->line;
        }
    }
    /* Connection lines fill what is left, and must agree among themselves. */
    long *conn_line = zalloc((size_t)n, sizeof *conn_line);
    int *conn_next = zalloc((size_t)n, sizeof *conn_next);
    for (int i = 0; i < n; i++)
        conn_next[i] = -1;
    int rc = 0;
    for (size_t i = 0; i < facts.n && rc == 0; i++) {
        const ncclog__fact *f = &r->facts[facts.k[i]];
        if (f->kind != NCCLOG__CONN || f->after_rings || h->next[f->a] >= 0)
            continue;
        if (conn_next[f->a] >= 0 && conn_next[f->a] != f->b) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: connection lines give rank %d two successors on channel %d (%d "
                     "here, %d on line %ld): they mix in the trees' connections. Capture the "
                     "log with NCCL_DEBUG_SUBSYS=INIT,GRAPH so NCCL prints its rings",
                     log->name, f->line, f->a, ch, f->b, conn_next[f->a], conn_line[f->a]);
            rc = -1;
        }
        conn_next[f->a] = f->b, conn_line[f->a] = f->line;
    }
    for (int i = 0; i < n && rc == 0; i++)
        if (h->next[i] < 0 && conn_next[i] >= 0) {
            h->next[i] = conn_next[i], h->line[i] = conn_line[i], h->src[i] = NCCLOG_SRC_CONN;
        }
    free(conn_line);
    free(conn_next);
    if (rc)
        return -1;
    for (int i = 0; i < n; i++) {
        if (h->next[i] < 0 && cut_len) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: rank %d is missing from channel %d's ring: NCCL cut this summary "
                     "line after %d of %d ranks, and no per-rank \"Ring %02d\" line gives the "
                     "rest. Capture the log with NCCL_DEBUG_SUBSYS=INIT,GRAPH so every rank "
                     "prints its own",
                     log->name, cut_line, i, ch, cut_len, n, ch);
            return -1;
        }
        if (h->next[i] < 0) {
            snprintf(c->problem, sizeof c->problem,
                     "%s: rank %d is missing from channel %d's ring: no line says which rank it "
                     "sends to (its own \"Ring %02d\" line, or a summary that names it). Is the "
                     "log cut short, or that rank's output missing?",
                     log->name, i, ch, ch);
            return -1;
        }
        c->sources |= h->src[i];
    }
    /* One cycle through every rank. */
    ncclog_channel *chan = &c->channels[ch];
    uint8_t *seen = zalloc((size_t)n, 1);
    int at = 0, i = 0;
    for (; i < n && !seen[at]; i++) {
        seen[at] = 1;
        chan->order[i] = at;
        at = h->next[at];
    }
    free(seen);
    if (i < n || at != 0) {
        int missing = -1;
        for (int k = 0; k < n && missing < 0; k++) {
            bool in = false;
            for (int j = 0; j < i; j++)
                in |= chan->order[j] == k;
            if (!in)
                missing = k;
        }
        snprintf(c->problem, sizeof c->problem,
                 "%s:%ld: channel %d's ring is not one cycle: from rank 0 it returns to rank %d "
                 "after %d ranks%s%d",
                 log->name, h->line[at], ch, at, i, missing >= 0 ? " and never visits rank " : ", ",
                 missing >= 0 ? missing : n);
        return -1;
    }
    memcpy(chan->next, h->next, (size_t)n * sizeof *h->next);
    return 0;
}

/* ------------------------------------------------------------------ trees */

static int build_tree(ncclog__reader *r, ncclog_comm *c, slice facts, int ch)
{
    const ncclog *log = r->log;
    int n = c->nranks;
    ncclog_channel *chan = &c->channels[ch];
    long *line = zalloc((size_t)n, sizeof *line);
    int rc = 0;
    for (size_t i = 0; i < facts.n && rc == 0; i++) {
        const ncclog__fact *f = &r->facts[facts.k[i]];
        if (f->kind != NCCLOG__TREE && f->kind != NCCLOG__TREE_OLD)
            continue;
        if (f->a >= n || f->down[0] >= n || f->down[1] >= n || f->down[2] >= n || f->b >= n) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: this tree names a rank beyond the communicator's %d", log->name,
                     f->line, n);
            rc = -1;
            break;
        }
        int self = f->b;
        if (line[self] && (chan->parent[self] != f->a ||
                           memcmp(chan->children[self], f->down, sizeof f->down) != 0)) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: rank %d's tree %d differs from line %ld (parent %d here, %d there)",
                     log->name, f->line, self, ch, line[self], f->a, chan->parent[self]);
            rc = -1;
            break;
        }
        line[self] = f->line;
        chan->parent[self] = f->a;
        memcpy(chan->children[self], f->down, sizeof f->down);
        chan->has_tree = true;
        c->sources |= f->kind == NCCLOG__TREE ? NCCLOG_SRC_TREES : NCCLOG_SRC_TREE;
    }
    /* Every rank present first, so a missing one is named as missing, not
     * as a parent -1 its neighbours disagree with. */
    for (int i = 0; i < n && rc == 0 && chan->has_tree; i++) {
        if (line[i])
            continue;
        int by = -1; /* a rank whose line names it */
        for (int k = 0; k < n && by < 0; k++)
            if (line[k] && (chan->parent[k] == i || chan->children[k][0] == i ||
                            chan->children[k][1] == i || chan->children[k][2] == i))
                by = k;
        int w = snprintf(c->problem, sizeof c->problem, "%s", log->name);
        if (by >= 0)
            w += snprintf(c->problem + w, sizeof c->problem - (size_t)w, ":%ld", line[by]);
        w += snprintf(c->problem + w, sizeof c->problem - (size_t)w,
                      ": rank %d is missing from tree %d: it printed no \"Trees\" entry for "
                      "channel %d",
                      i, ch, ch);
        if (by >= 0)
            snprintf(c->problem + w, sizeof c->problem - (size_t)w,
                     " (rank %d's line here names it as its %s)", by,
                     chan->parent[by] == i ? "parent" : "child");
        rc = -1;
    }
    for (int i = 0; i < n && rc == 0 && chan->has_tree; i++) {
        int p = chan->parent[i];
        if (p >= 0 && chan->children[p][0] != i && chan->children[p][1] != i &&
            chan->children[p][2] != i) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: the trees disagree: rank %d names rank %d as its parent in tree "
                     "%d, but line %ld (rank %d) does not list it among its children",
                     log->name, line[i], i, p, ch, line[p], p);
            rc = -1;
            break;
        }
        for (int j = 0; j < 3 && rc == 0; j++) {
            int d = chan->children[i][j];
            if (d >= 0 && chan->parent[d] != i) {
                snprintf(c->problem, sizeof c->problem,
                         "%s:%ld: the trees disagree: rank %d lists rank %d as a child in tree "
                         "%d, but line %ld gives rank %d the parent %d",
                         log->name, line[i], i, d, ch, line[d], d, chan->parent[d]);
                rc = -1;
            }
        }
        /* Every rank reaches the root. */
        int at = i, hopsn = 0;
        while (rc == 0 && chan->parent[at] >= 0 && hopsn++ <= n)
            at = chan->parent[at];
        if (rc == 0 && hopsn > n) {
            snprintf(c->problem, sizeof c->problem,
                     "%s:%ld: tree %d has a cycle through rank %d", log->name, line[i], ch, i);
            rc = -1;
        }
    }
    int roots = 0;
    for (int i = 0; i < n && rc == 0 && chan->has_tree; i++)
        roots += chan->parent[i] < 0;
    if (rc == 0 && chan->has_tree && roots != 1) {
        snprintf(c->problem, sizeof c->problem, "%s: tree %d has %d roots, not one", log->name, ch,
                 roots);
        rc = -1;
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
    c->hosts = zalloc((size_t)c->nranks, sizeof *c->hosts);
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

/* Communicator c from its own epochs eps[neps] and facts fk[nf]. */
static void build_comm(ncclog__reader *r, ncclog_comm *c, const int *eps, int neps,
                       const size_t *fk, size_t nf)
{
    ncclog *log = r->log;
    int maxrank = -1, maxch = -1;
    bool any = false;
    for (int i = 0; i < neps; i++) {
        int e = eps[i];
        if (r->epochs[e].nranks > c->nranks)
            c->nranks = r->epochs[e].nranks;
        if (r->epochs[e].rank >= 0)
            c->sources |= NCCLOG_SRC_COMM;
    }
    for (size_t k = 0; k < nf; k++) {
        const ncclog__fact *f = &r->facts[fk[k]];
        int hi = f->a > f->b ? f->a : f->b;
        if (f->kind == NCCLOG__SUMMARY) {
            hi = -1;
            for (int i = 0; i < f->b; i++)
                hi = r->pool[f->a + i] > hi ? r->pool[f->a + i] : hi;
        } else if (f->kind == NCCLOG__RING && f->c > hi) {
            hi = f->c;
        }
        maxrank = hi > maxrank ? hi : maxrank;
        if (f->kind == NCCLOG__CONN) {
            c->nconn++;
            if (f->after_rings)
                continue;
        } else {
            any = true;
        }
        if (f->kind == NCCLOG__SUMMARY && f->c > maxch + 1)
            maxch = f->c - 1;
        maxch = f->channel > maxch ? f->channel : maxch;
    }
    if (c->nranks < 0)
        c->nranks = maxrank + 1;
    if (!any && maxch < 0) {
        snprintf(c->problem, sizeof c->problem,
                 "%s:%ld: communicator %s has no ring or tree lines: capture the log with "
                 "NCCL_DEBUG=INFO (and NCCL_DEBUG_SUBSYS=INIT,GRAPH where INFO alone leaves "
                 "them out)",
                 log->name, c->first_line, c->id[0] ? c->id : "(unnamed)");
        return;
    }
    if (maxrank >= c->nranks) {
        snprintf(c->problem, sizeof c->problem,
                 "%s: a line names rank %d, but communicator %s has %d ranks", log->name, maxrank,
                 c->id, c->nranks);
        return;
    }
    int n = c->nranks;
    c->nchannels = maxch + 1;
    c->ranks = zalloc((size_t)n, sizeof *c->ranks);
    for (int i = 0; i < n; i++)
        c->ranks[i].local_rank = c->ranks[i].cuda_dev = -1;
    c->channels = zalloc((size_t)c->nchannels, sizeof *c->channels);
    for (int ch = 0; ch < c->nchannels; ch++) {
        ncclog_channel *chan = &c->channels[ch];
        chan->next = zalloc((size_t)n, sizeof *chan->next);
        chan->order = zalloc((size_t)n, sizeof *chan->order);
        chan->via = zalloc((size_t)n, sizeof *chan->via);
        chan->via_text = zalloc((size_t)n, sizeof *chan->via_text);
        chan->parent = zalloc((size_t)n, sizeof *chan->parent);
        chan->children = zalloc((size_t)n, sizeof *chan->children);
        for (int i = 0; i < n; i++) {
            chan->parent[i] = -1;
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
        if (ep->local_rank >= 0)
            k->local_rank = ep->local_rank;
        if (ep->cuda_dev >= 0)
            k->cuda_dev = ep->cuda_dev;
        if (ep->ptr[0] && !k->ptr[0])
            memcpy(k->ptr, ep->ptr, sizeof k->ptr);
    }
    for (size_t k = 0; k < nf; k++) {
        const ncclog__fact *f = &r->facts[fk[k]];
        if (f->kind == NCCLOG__RING || f->kind == NCCLOG__TREE || f->kind == NCCLOG__TREE_OLD)
            place_rank(c, f->b, &r->printers[r->epochs[f->epoch].printer], f->line);
    }
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
           *fill = zalloc((size_t)c->nchannels, sizeof *fill);
    for (size_t k = 0; k < nf; k++)
        if (r->facts[fk[k]].channel < c->nchannels) {
            int ch = r->facts[fk[k]].channel;
            mine[start[ch] + fill[ch]++] = fk[k];
        }
    free(fill);
    hops h = {zalloc((size_t)n, sizeof(int)), zalloc((size_t)n, sizeof(long)),
              zalloc((size_t)n, 1)};
    bool any_ring = false;
    for (size_t k = 0; k < nf && !any_ring; k++) {
        const ncclog__fact *f = &r->facts[fk[k]];
        any_ring = f->kind == NCCLOG__RING || f->kind == NCCLOG__SUMMARY ||
                   (f->kind == NCCLOG__CONN && !f->after_rings);
    }
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
    if (c->problem[0])
        return;
    if (!any_ring) {
        for (int ch = 0; ch < c->nchannels; ch++)
            c->channels[ch].order[0] = -1; /* trees only: no ring to draw */
    }
    /* Transports of the ring hops, from any connection line. */
    for (size_t k = 0; k < nf; k++) {
        const ncclog__fact *f = &r->facts[fk[k]];
        if (f->kind != NCCLOG__CONN || f->channel >= c->nchannels)
            continue;
        ncclog_channel *chan = &c->channels[f->channel];
        c->sources |= NCCLOG_SRC_VIA;
        if (any_ring && chan->next[f->a] == f->b && !chan->via_text[f->a][0]) {
            chan->via[f->a] = via_kind(f->via);
            snprintf(chan->via_text[f->a], NCCLOG_VIA_LEN, "%s", f->via);
        }
    }
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
    if (log->ncomms == 0) {
        snprintf(r->err, r->errlen,
                 "%s: no NCCL rings, trees or communicators in %ld lines: was it captured with "
                 "NCCL_DEBUG=INFO?",
                 log->name, log->lines);
        return -1;
    }
    return 0;
}

void ncclog_free(ncclog *log)
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
        int w = snprintf(err + n, errlen - n, "%s %s (%d ranks, line %ld)", k++ ? "," : "",
                         c->id[0] ? c->id : "(unnamed)", c->nranks, c->first_line);
        n += w > 0 ? (size_t)w : 0;
    }
}

int ncclog_pick(const ncclog *log, const char *id, const ncclog_comm **out, char *err,
                size_t errlen)
{
    int found = -1, matches = 0;
    bool prefix = false;
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
