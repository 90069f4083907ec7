/*
 * rd_plan.c: what the renderer reads off a plan, before anything is placed
 * or drawn: the links between ranks that its transfers use (all of them,
 * or one step's), a ring's order and a tree's levels from those links,
 * which step a time t shows, and the cost model's price of the plan and of
 * each step on the panel's links (one link, or two levels between nodes).
 * No pixels, no text: the layers above read these.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* ----------------------------------------------------------------- links */

void rd__plan_links(const cv_plan *plan, rd__links *out)
{
    memset(out, 0, sizeof *out);
    if (!plan)
        return;
    out->n = plan->spec.ranks < RD_LAYOUT_MAX_RANKS ? plan->spec.ranks : RD_LAYOUT_MAX_RANKS;
    for (int64_t i = 0; i < plan->ntransfers; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src != x->dst && x->src >= 0 && x->src < out->n && x->dst >= 0 && x->dst < out->n)
            out->m[x->src] |= 1ull << x->dst;
    }
}

int rd__part_links(const cv_plan *plan, rd__links *out, int max)
{
    if (!plan || plan->spec.count <= 0)
        return 0;
    cv_stage_shape shape = cv_algo_stage_shape(plan->spec.op, plan->spec.algo);
    int parts = shape == CV_STAGE_DOUBLE_TREE ? 2 : 0;
    if (plan->spec.algo == CV_ALGO_MULTIRING) { /* as cv_plan_nodes.c: a channel a local rank */
        parts = cv_spec_ranks_per_node(&plan->spec);
        parts = parts < 32 ? parts : 32;
    }
    if (parts < 2)
        return 0;
    int k = parts < max ? parts : max, n = plan->spec.ranks;
    memset(out, 0, (size_t)k * sizeof *out);
    for (int j = 0; j < k; j++)
        out[j].n = n < RD_LAYOUT_MAX_RANKS ? n : RD_LAYOUT_MAX_RANKS;
    int64_t c = plan->spec.count;
    for (int64_t i = 0; i < plan->ntransfers; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst || x->src < 0 || x->src >= out->n || x->dst < 0 || x->dst >= out->n)
            continue;
        int64_t off = x->src_off % c; /* part j carries [c*j/parts, c*(j+1)/parts) */
        int j = (int)(off * parts / c);
        while (j + 1 < parts && c * (j + 1) / parts <= off)
            j++;
        while (j > 0 && c * j / parts > off)
            j--;
        out[j < k ? j : k - 1].m[x->src] |= 1ull << x->dst;
    }
    return k;
}

int rd__tree_parents(const cv_plan *plan, int t, int *up)
{
    int n = plan ? plan->spec.ranks : 0;
    if (n < 2 || n > RD_LAYOUT_MAX_RANKS || plan->spec.count <= 0 || t < 0 || t > 1 ||
        cv_algo_stage_shape(plan->spec.op, plan->spec.algo) != CV_STAGE_DOUBLE_TREE)
        return -1;
    /* A rank's first send in the tree that does not answer a rank that sent
     * to it goes up, to its parent; the root's first goes down. */
    uint64_t got[RD_LAYOUT_MAX_RANKS] = {0};
    for (int r = 0; r < n; r++)
        up[r] = -2;
    int64_t c = plan->spec.count;
    for (int64_t i = 0; i < plan->ntransfers; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src == x->dst || x->src < 0 || x->src >= n || x->dst < 0 || x->dst >= n)
            continue;
        int64_t off = x->src_off % c; /* tree j carries [c*j/2, c*(j+1)/2), as rd__part_links */
        if ((off >= c / 2 ? 1 : 0) != t)
            continue;
        if (up[x->src] == -2 && !(got[x->src] >> x->dst & 1))
            up[x->src] = x->dst;
        got[x->dst] |= 1ull << x->src;
    }
    int root = -1;
    for (int r = 0; r < n; r++)
        if (up[r] < 0) {
            up[r] = -1;
            root = root < 0 ? r : root;
        }
    return root;
}

void rd__ring_order(const rd__links *l, int *order)
{
    int n = l->n;
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (n < 3)
        return;
    /* Follow the single outgoing link of each rank from 0; accept only a
     * Hamiltonian cycle (every rank has exactly one successor). */
    uint64_t seen = 1;
    int cur = 0;
    int tmp[RD_LAYOUT_MAX_RANKS];
    tmp[0] = 0;
    for (int k = 1; k < n; k++) {
        uint64_t m = l->m[cur];
        if (__builtin_popcountll(m) != 1)
            return;
        int next = __builtin_ctzll(m);
        if (seen & (1ull << next))
            return;
        seen |= 1ull << next;
        tmp[k] = next;
        cur = next;
    }
    memcpy(order, tmp, sizeof(int) * (size_t)n);
}

int rd__levels(const rd__links *l, int root, int *depth)
{
    int n = l->n;
    for (int i = 0; i < n; i++)
        depth[i] = -1;
    if (n == 0)
        return 0;
    if (root < 0 || root >= n)
        root = 0;
    int queue[RD_LAYOUT_MAX_RANKS], head = 0, tail = 0, levels = 1;
    depth[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        int u = queue[head++];
        for (int v = 0; v < n; v++) {
            bool linked = (l->m[u] >> v & 1) || (l->m[v] >> u & 1);
            if (linked && depth[v] < 0) {
                depth[v] = depth[u] + 1;
                if (depth[v] + 1 > levels)
                    levels = depth[v] + 1;
                queue[tail++] = v;
            }
        }
    }
    /* Unreachable ranks go on the last level rather than vanish. */
    for (int i = 0; i < n; i++)
        if (depth[i] < 0)
            depth[i] = levels - 1;
    return levels;
}

void rd__step_links(const cv_plan *plan, int step, rd__links *out)
{
    memset(out, 0, sizeof *out);
    if (step >= plan->nsteps)
        return;
    const cv_step *st = &plan->steps[step];
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src != x->dst && x->src < 64 && x->dst < 64)
            out->m[x->src] |= 1ull << x->dst;
    }
}

bool rd__crosses_nodes(const cv_plan *plan, int s, int d)
{
    return cv_spec_nodes(&plan->spec) > 1 && cv_plan_node_of(plan, s) != cv_plan_node_of(plan, d);
}

/* ------------------------------------------------------------------ time */

int rd_shown_step(const cv_plan *plan, double t, int *step, double *frac)
{
    int n = plan ? plan->nsteps : 0;
    if (!(t > 0))
        t = 0;
    if (t > n)
        t = n;
    int k = (int)floor(t);
    double fr = t - k;
    if (k >= n) {
        k = n;
        fr = 0;
    }
    if (step)
        *step = k;
    if (frac)
        *frac = fr;
    return fr >= RD_ARRIVE ? k + 1 : k;
}

int rd_ref_step(int nsteps, double t, bool *after)
{
    if (!(t > 0))
        t = 0;
    int k = (int)floor(t);
    bool whole = t == k;
    if (after)
        *after = whole && k > 0;
    if (k >= nsteps)
        return nsteps > 0 ? nsteps - 1 : 0;
    return whole && k > 0 ? k - 1 : k;
}

/* ----------------------------------------------------------------- model */

const cv_link *rd__link(const rd_panel *p)
{
    if (p->link)
        return p->link;
    /* The same default as `collviz cost`: NVLink 4 (H100). */
    const cv_link *nv = cv_link_find("nvlink4");
    if (nv)
        return nv;
    const cv_link *presets = NULL;
    int n = cv_link_presets(&presets);
    return n > 0 ? &presets[0] : NULL;
}

/* The second link applies only where the plan has nodes to cross. */
static const cv_link *inter_of(const rd_panel *p, const cv_plan *plan)
{
    return p->inter && cv_spec_nodes(&plan->spec) > 1 ? p->inter : NULL;
}

void rd__cost_plan(const rd_panel *p, const cv_plan *plan, cv_cost *out)
{
    memset(out, 0, sizeof *out);
    const cv_link *link = rd__link(p);
    if (link)
        cv_cost_plan_nodes(plan, link, inter_of(p, plan), out);
}

double rd__cost_step(const rd_panel *p, const cv_plan *plan, int step, int64_t *bytes)
{
    const cv_link *link = rd__link(p);
    *bytes = 0;
    return link ? cv_cost_step_nodes(plan, step, link, inter_of(p, plan), bytes) : 0;
}

const char *rd__link_words(const rd_panel *p, const cv_plan *plan, char *out, size_t outlen)
{
    const cv_link *link = rd__link(p), *inter = inter_of(p, plan);
    const char *a = link && link->name ? link->name : "-";
    /* A protocol other than Simple is named beside the link it prices. */
    const char *sep = plan->spec.proto != CV_PROTO_SIMPLE ? ", " : "";
    const char *proto = plan->spec.proto != CV_PROTO_SIMPLE ? cv_proto_title(plan->spec.proto) : "";
    if (inter)
        snprintf(out, outlen, "%s + %s%s%s", a, inter->name ? inter->name : "-", sep, proto);
    else
        snprintf(out, outlen, "%s%s%s", a, sep, proto);
    return out;
}
