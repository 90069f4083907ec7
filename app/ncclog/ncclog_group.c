/*
 * ncclog_group.c: which communicator each epoch of the log belongs to.
 *
 * NCCL names a communicator in two ways. "comm 0x..." is the printing
 * process's own pointer to its communicator object, so the ranks of one
 * communicator print as many different pointers as there are processes
 * (and two processes may print the same pointer for different ones).
 * "commId 0x..." (newer NCCL, on the Init START and COMPLETE lines) is the
 * hash of the unique id every rank was given, the same on every rank.
 *
 * So an epoch is first tied to a handle, one process's pointer (host, pid
 * and device with the pointer), and the handles are grouped: by commId
 * where any of their lines gives it; otherwise, for older NCCL, the k-th
 * pointer a process initialised goes with the k-th of the other processes
 * that has the same rank count, and each rank once: where several such
 * communicators exist (two groups of 4 split from 8), the handles are
 * dealt out in process order, and the communicators are marked as grouped
 * by that guess. Groups left incomplete because processes created their
 * communicators in different orders are merged where their ranks are
 * disjoint. Every lookup goes through a hash, so a log of 100,000
 * communicators is read in linear time.
 *
 * Lines no "comm" line covers (a paste of the rings alone) are split into
 * runs: where a rank's lines come again from another process after a new
 * version banner, in another NCCL version, or with another channel count,
 * that is the next run pasted after the first, a communicator of its own.
 * Without such a sign the second process stays in the run, and the
 * communicator reports the contradiction (ncclog_build.c).
 */
#include <stdlib.h>
#include <string.h>

#include "ncclog_internal.h"

/* ------------------------------------------------------------ string map */

typedef struct {
    char **keys;
    int *vals;
    size_t cap, n;
} strmap;

static void map_grow(strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 256;
    char **keys = cv_xcalloc(cap, sizeof *keys);
    int *vals = cv_xcalloc(cap, sizeof *vals);
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t h = ncclog__hash(m->keys[i]) & (cap - 1);
        while (keys[h])
            h = (h + 1) & (cap - 1);
        keys[h] = m->keys[i], vals[h] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys, m->vals = vals, m->cap = cap;
}

/* The value slot of key, added with value -1 when absent. */
static int *map_slot(strmap *m, const char *key)
{
    if ((m->n + 1) * 2 > m->cap)
        map_grow(m);
    size_t h = ncclog__hash(key) & (m->cap - 1);
    while (m->keys[h]) {
        if (!strcmp(m->keys[h], key))
            return &m->vals[h];
        h = (h + 1) & (m->cap - 1);
    }
    m->keys[h] = cv_xstrdup(key);
    m->vals[h] = -1;
    m->n++;
    return &m->vals[h];
}

static void map_free(strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
}

/* --------------------------------------------------------------- handles */

/* A run of lines no "comm" line names: the communicator they make, and the
 * banner, version and channel count it started with. */
typedef struct {
    int comm, banner, version, total;
} run;

typedef struct {
    int printer; /* the first printer that showed it: its process */
    int proc;
    char ptr[24], commid[24];
    int rank, nranks;
    long first_line;
    int seq;  /* its place among its process's handles without a commId */
    int comm; /* index into the communicators being built */
} handle;

typedef struct {
    ncclog_comm *v;
    size_t n, cap;
    int *low; /* [n]: the lowest rank whose pointer names it */
} comms;

static int new_comm(comms *cs, const char *id, long line)
{
    size_t cap = cs->cap;
    cs->v = ncclog__grow(cs->v, &cs->cap, cs->n + 1, sizeof *cs->v);
    cs->low = ncclog__grow(cs->low, &cap, cs->n + 1, sizeof *cs->low);
    ncclog_comm *c = &cs->v[cs->n];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    c->first_line = line;
    c->nranks = -1;
    cs->low[cs->n] = NCCLOG_MAX_RANKS + 1;
    return (int)cs->n++;
}

static const ncclog__reader *g_sort_reader; /* for qsort's comparators */
static const handle *g_sort_handles;

/* Pointer-only handles: by seq and rank count (a bucket), then in process
 * order (host, pid, device), then by line. */
static int cmp_handles(const void *pa, const void *pb)
{
    const handle *a = &g_sort_handles[*(const int *)pa], *b = &g_sort_handles[*(const int *)pb];
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    if (a->nranks != b->nranks)
        return a->nranks < b->nranks ? -1 : 1;
    const ncclog__printer *x = &g_sort_reader->printers[a->printer],
                          *y = &g_sort_reader->printers[b->printer];
    int k = strcmp(x->host, y->host);
    if (k)
        return k;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->cuda_dev != y->cuda_dev)
        return x->cuda_dev < y->cuda_dev ? -1 : 1;
    return a->first_line < b->first_line ? -1 : a->first_line > b->first_line;
}

static const ncclog_comm *g_sort_comms;

static int cmp_comms(const void *pa, const void *pb)
{
    long a = g_sort_comms[*(const int *)pa].first_line,
         b = g_sort_comms[*(const int *)pb].first_line;
    if (a != b)
        return a < b ? -1 : 1;
    return *(const int *)pa - *(const int *)pb;
}

/* Handles without a commId into communicators (see the top of the file). */
static void group_pointers(const ncclog__reader *r, handle *hs, int nh, int nprocs, comms *cs)
{
    int *seq = cv_xcalloc((size_t)nprocs + 1, sizeof *seq), *order = cv_xmalloc(
                                                                (size_t)nh * sizeof *order + 1);
    int m = 0;
    for (int i = 0; i < nh; i++)
        if (!hs[i].commid[0]) {
            hs[i].seq = seq[hs[i].proc]++;
            order[m++] = i;
        }
    free(seq);
    g_sort_reader = r, g_sort_handles = hs;
    qsort(order, (size_t)m, sizeof *order, cmp_handles);
    int *used = cv_xcalloc(NCCLOG_MAX_RANKS, sizeof *used);
    int *bucket = cv_xmalloc((size_t)m * sizeof *bucket + 1);
    for (int i = 0; i < m;) {
        int j = i, ngroups = 0;
        const handle *first = &hs[order[i]];
        while (j < m && hs[order[j]].seq == first->seq && hs[order[j]].nranks == first->nranks)
            j++;
        for (int k = i; k < j; k++) {
            handle *h = &hs[order[k]];
            int slot = h->rank >= 0 && h->rank < NCCLOG_MAX_RANKS ? h->rank : 0;
            int g = used[slot]++;
            if (g == ngroups)
                bucket[ngroups++] = new_comm(cs, h->ptr, h->first_line);
            h->comm = bucket[g];
        }
        for (int k = i; k < j; k++) {
            const handle *h = &hs[order[k]];
            used[h->rank >= 0 && h->rank < NCCLOG_MAX_RANKS ? h->rank : 0] = 0;
            cs->v[h->comm].grouped_by_order = ngroups > 1;
        }
        i = j;
    }
    free(used);
    free(bucket);
    free(order);
}

static int cmp_by_size(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb; /* {nranks, comm} pairs */
    return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] - b[1];
}

/* Processes that created their communicators in different orders (one
 * made the world first, another its group) leave a communicator's ranks
 * in several groups of the same size, none complete: those whose ranks are
 * disjoint are merged, first fit, for at most MERGE_MAX groups of a size. */
#define MERGE_MAX 512
static void merge_partial(handle *hs, int nh, comms *cs, int c0)
{
    int n = (int)cs->n - c0;
    if (n < 2)
        return;
    int *count = cv_xcalloc((size_t)n, sizeof *count), *size = cv_xcalloc((size_t)n, sizeof *size);
    int *into = cv_xmalloc((size_t)n * sizeof *into);
    for (int i = 0; i < n; i++)
        into[i] = i, size[i] = -1;
    for (int i = 0; i < nh; i++)
        if (hs[i].comm >= c0) {
            count[hs[i].comm - c0]++;
            size[hs[i].comm - c0] = hs[i].nranks;
        }
    int *part = cv_xmalloc((size_t)n * 2 * sizeof *part), np = 0;
    for (int i = 0; i < n; i++)
        if (size[i] > 1 && count[i] < size[i])
            part[2 * np] = size[i], part[2 * np + 1] = i, np++;
    qsort(part, (size_t)np, 2 * sizeof *part, cmp_by_size);
    for (int a = 0; a < np;) {
        int b = a, nr = part[2 * a];
        while (b < np && part[2 * b] == nr)
            b++;
        int k = b - a < MERGE_MAX ? b - a : MERGE_MAX, words = (nr + 63) / 64;
        uint64_t *bits = cv_xcalloc((size_t)k * (size_t)words, sizeof *bits);
        int *slot = cv_xmalloc((size_t)n * sizeof *slot);
        for (int i = 0; i < n; i++)
            slot[i] = -1;
        for (int j = 0; j < k; j++)
            slot[part[2 * (a + j) + 1]] = j;
        for (int i = 0; i < nh; i++) {
            int g = hs[i].comm - c0;
            if (hs[i].comm >= c0 && slot[g] >= 0 && hs[i].rank >= 0 && hs[i].rank < nr)
                bits[(size_t)slot[g] * (size_t)words + (size_t)hs[i].rank / 64] |=
                    1ull << (hs[i].rank % 64);
        }
        for (int j = 1; j < k; j++) {
            int x = part[2 * (a + j) + 1];
            uint64_t *bx = bits + (size_t)j * (size_t)words;
            for (int t = 0; t < j; t++) {
                int y = part[2 * (a + t) + 1];
                uint64_t *by = bits + (size_t)t * (size_t)words;
                bool disjoint = into[y] == y && count[y] + count[x] <= nr;
                for (int w = 0; w < words && disjoint; w++)
                    disjoint = !(bx[w] & by[w]);
                if (!disjoint)
                    continue;
                for (int w = 0; w < words; w++)
                    by[w] |= bx[w];
                count[y] += count[x];
                into[x] = y;
                cs->v[c0 + y].grouped_by_order |= cs->v[c0 + x].grouped_by_order;
                if (cs->v[c0 + x].first_line < cs->v[c0 + y].first_line)
                    cs->v[c0 + y].first_line = cs->v[c0 + x].first_line;
                break;
            }
        }
        free(bits);
        free(slot);
        a = b;
    }
    /* Drop the merged ones, keeping the order of the rest. */
    int *to = cv_xmalloc((size_t)n * sizeof *to), kept = 0;
    for (int i = 0; i < n; i++)
        if (into[i] == i) {
            to[i] = kept;
            cs->v[c0 + kept] = cs->v[c0 + i];
            cs->low[c0 + kept] = cs->low[c0 + i];
            kept++;
        }
    for (int i = 0; i < nh; i++)
        if (hs[i].comm >= c0)
            hs[i].comm = c0 + to[into[hs[i].comm - c0]];
    cs->n = (size_t)(c0 + kept);
    free(to);
    free(part);
    free(count);
    free(size);
    free(into);
}

int *ncclog__group(ncclog__reader *r)
{
    ncclog *log = r->log;
    int *ep_comm = cv_xmalloc((size_t)r->nepochs * sizeof *ep_comm + 1);
    int *ep_handle = cv_xmalloc((size_t)r->nepochs * sizeof *ep_handle + 1);
    /* Processes, and each process's pointers. */
    strmap procs = {0}, ptrs = {0};
    handle *hs = NULL;
    size_t caph = 0;
    int nh = 0;
    int *proc_of = cv_xmalloc((size_t)r->nprinters * sizeof *proc_of + 1);
    for (int p = 0; p < r->nprinters; p++) {
        int *v = map_slot(&procs, r->printers[p].proc);
        if (*v < 0)
            *v = (int)procs.n - 1;
        proc_of[p] = *v;
    }
    char key[NCCLOG_HOST_LEN + 48 + 32];
    for (int e = 0; e < r->nepochs; e++) {
        const ncclog__epoch *ep = &r->epochs[e];
        ep_handle[e] = -1;
        if (!ep->ptr[0])
            continue;
        snprintf(key, sizeof key, "%s|%s", r->printers[ep->printer].proc, ep->ptr);
        int *v = map_slot(&ptrs, key);
        handle *h = *v >= 0 ? &hs[*v] : NULL;
        if (h && ep->commid[0] && h->commid[0] && strcmp(h->commid, ep->commid))
            h = NULL; /* the process freed the communicator and NCCL reused the memory */
        if (!h) {
            hs = ncclog__grow(hs, &caph, (size_t)nh + 1, sizeof *hs);
            h = &hs[nh];
            memset(h, 0, sizeof *h);
            h->printer = ep->printer;
            h->proc = proc_of[ep->printer];
            memcpy(h->ptr, ep->ptr, sizeof h->ptr);
            h->rank = h->nranks = -1;
            h->first_line = ep->first_line;
            h->comm = -1;
            *v = nh++;
        }
        if (ep->commid[0] && !h->commid[0])
            memcpy(h->commid, ep->commid, sizeof h->commid);
        if (ep->rank >= 0)
            h->rank = ep->rank;
        if (ep->nranks > h->nranks)
            h->nranks = ep->nranks;
        ep_handle[e] = *v;
    }
    map_free(&ptrs);
    /* Communicators: one per commId, then the pointers without one. */
    comms cs = {0};
    strmap ids = {0};
    for (int i = 0; i < nh; i++) {
        if (!hs[i].commid[0])
            continue;
        int *v = map_slot(&ids, hs[i].commid);
        if (*v < 0) {
            *v = new_comm(&cs, hs[i].commid, hs[i].first_line);
            cs.v[*v].by_commid = true;
        }
        hs[i].comm = *v;
    }
    map_free(&ids);
    int c0 = (int)cs.n;
    group_pointers(r, hs, nh, (int)procs.n, &cs);
    merge_partial(hs, nh, &cs, c0);
    map_free(&procs);
    for (int i = 0; i < nh; i++) {
        int ci = hs[i].comm;
        if (!cs.v[ci].by_commid && hs[i].rank >= 0 && hs[i].rank < cs.low[ci]) {
            cs.low[ci] = hs[i].rank; /* named by its lowest rank's pointer */
            snprintf(cs.v[ci].id, sizeof cs.v[ci].id, "%s", hs[i].ptr);
        }
    }
    /* Epochs: their pointer's communicator; lines after a printer's last
     * "comm" line go with its previous epoch; lines no pointer covers go
     * with the only communicator when there is one, else an unnamed one. */
    int named = (int)cs.n;
    run cur = {.comm = -1};
    int *owner = NULL;
    for (int e = 0; e < r->nepochs; e++) {
        const ncclog__epoch *ep = &r->epochs[e];
        ep_comm[e] = ep_handle[e] >= 0 ? hs[ep_handle[e]].comm
                     : ep->prev >= 0   ? ep_comm[ep->prev]
                                       : -1;
        if (ep_comm[e] < 0 && ep->has_facts) {
            if (named == 1) {
                ep_comm[e] = 0;
            } else {
                int proc = proc_of[ep->printer];
                bool conflict = cur.comm >= 0 && ep->self >= 0 && owner[ep->self] >= 0 &&
                                owner[ep->self] != proc;
                bool other = cur.comm >= 0 &&
                             (ep->banner != cur.banner ||
                              (ep->version >= 0 && cur.version >= 0 &&
                               ep->version != cur.version) ||
                              (ep->total && cur.total && ep->total != cur.total));
                bool other_version = cur.comm >= 0 && ep->version >= 0 && cur.version >= 0 &&
                                     ep->version != cur.version;
                if (cur.comm < 0 || (conflict && other) || other_version) {
                    cur.comm = new_comm(&cs, "", ep->first_line);
                    cur.banner = ep->banner;
                    cur.version = ep->version;
                    cur.total = ep->total;
                    if (!owner)
                        owner = cv_xmalloc(NCCLOG_MAX_RANKS * sizeof *owner);
                    for (int k = 0; k < NCCLOG_MAX_RANKS; k++)
                        owner[k] = -1;
                }
                if (ep->self >= 0 && owner[ep->self] < 0)
                    owner[ep->self] = proc;
                if (!cur.total)
                    cur.total = ep->total;
                if (cur.version < 0)
                    cur.version = ep->version;
                ep_comm[e] = cur.comm;
            }
        }
        if (ep_comm[e] >= 0 && ep->first_line < cs.v[ep_comm[e]].first_line)
            cs.v[ep_comm[e]].first_line = ep->first_line;
    }
    /* Runs pasted one after another are named by their order ("run1"). */
    int runs = 0;
    for (size_t i = 0; i < cs.n; i++)
        runs += !cs.v[i].id[0];
    for (size_t i = 0, k = 0; runs > 1 && i < cs.n; i++)
        if (!cs.v[i].id[0]) {
            snprintf(cs.v[i].id, sizeof cs.v[i].id, "run%zu", ++k);
            cs.v[i].is_run = true;
        }
    free(hs);
    free(ep_handle);
    free(owner);
    free(proc_of);
    /* In the order they first appear. */
    int n = (int)cs.n, *perm = cv_xmalloc((size_t)n * sizeof *perm + 1),
        *rank_of = cv_xmalloc((size_t)n * sizeof *rank_of + 1);
    for (int i = 0; i < n; i++)
        perm[i] = i;
    g_sort_comms = cs.v;
    qsort(perm, (size_t)n, sizeof *perm, cmp_comms);
    log->comms = cv_xmalloc((size_t)n * sizeof *log->comms + 1);
    for (int i = 0; i < n; i++) {
        log->comms[i] = cs.v[perm[i]];
        rank_of[perm[i]] = i;
    }
    log->ncomms = n;
    for (int e = 0; e < r->nepochs; e++)
        if (ep_comm[e] >= 0)
            ep_comm[e] = rank_of[ep_comm[e]];
    free(perm);
    free(rank_of);
    free(cs.v);
    free(cs.low);
    return ep_comm;
}
