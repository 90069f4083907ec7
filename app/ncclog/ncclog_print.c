/*
 * ncclog_print.c: what NCCL built, as `collviz nccl-log` prints it.
 *
 * The summary answers the question people bring to NCCL's issue tracker,
 * "how is data actually moving between my GPUs?": which ranks share a node,
 * each channel's ring in the order data travels (hops that leave the node
 * marked with their transport), each channel's tree drawn as a tree, and
 * which lines of the log said so. Channels NCCL duplicates (it often runs
 * the same ring twice) are printed once with every channel they stand for.
 */
#include <stdlib.h>
#include <string.h>

#include "ncclog.h"

#define WIDTH 100

/* Rank lists as ranges: "0-7, 12, 14-15". */
static void print_ranks(FILE *out, const int *ranks, int n)
{
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        fprintf(out, "%s%d", i ? ", " : "", ranks[i]);
        if (j > i)
            fprintf(out, "%s%d", j == i + 1 ? ", " : "-", ranks[j]);
        i = j + 1;
    }
}

/* Wraps a growing line at WIDTH columns, continuing under indent. */
typedef struct {
    FILE *out;
    int col, indent;
} wrap;

static void wrap_put(wrap *w, const char *s)
{
    int n = (int)strlen(s);
    if (w->col + n > WIDTH && w->col > w->indent + 2) {
        fprintf(w->out, "\n%*s", w->indent + 2, "");
        w->col = w->indent + 2;
        while (*s == ' ')
            s++, n--;
    }
    fputs(s, w->out);
    w->col += n;
}

static bool crosses_node(const ncclog_comm *c, int a, int b)
{
    int na = c->ranks[a].node, nb = c->ranks[b].node;
    return na >= 0 && nb >= 0 && na != nb;
}

static void print_ring(FILE *out, const ncclog_comm *c, const ncclog_channel *ch, int indent)
{
    wrap w = {out, indent, indent};
    char item[64];
    fprintf(out, "%*s", indent, "");
    for (int i = 0; i <= c->nranks; i++) {
        int b = ch->order[i % c->nranks];
        if (i == 0) {
            snprintf(item, sizeof item, "%d", b);
        } else {
            int a = ch->order[i - 1];
            ncclog_via v = ch->via[a];
            const char *arrow = ">";
            char buf[16];
            if (v == NCCLOG_VIA_NET || v == NCCLOG_VIA_SHM || v == NCCLOG_VIA_COLLNET) {
                snprintf(buf, sizeof buf, "=%s=>", ncclog_via_name(v));
                arrow = buf;
            } else if (v == NCCLOG_VIA_UNKNOWN && crosses_node(c, a, b)) {
                arrow = "==>";
            }
            snprintf(item, sizeof item, " %s %d", arrow, b);
        }
        wrap_put(&w, item);
        if (c->nranks == 1)
            break;
    }
    fputc('\n', out);
}

static void print_hops(FILE *out, const ncclog_comm *c, const ncclog_channel *ch, int indent,
                       ncclog_escape_fn esc)
{
    int count[NCCLOG_VIA_COUNT] = {0}, crossing = 0;
    const char *net_text = NULL;
    for (int r = 0; r < c->nranks; r++) {
        count[ch->via[r]]++;
        crossing += crosses_node(c, r, ch->next[r]);
        if (ch->via[r] == NCCLOG_VIA_NET && !net_text)
            net_text = ch->via_text[r];
    }
    fprintf(out, "%*shops:", indent, "");
    const char *sep = " ";
    for (int v = 1; v < NCCLOG_VIA_COUNT; v++)
        if (count[v]) {
            fprintf(out, "%s%d %s", sep, count[v], ncclog_via_name((ncclog_via)v));
            if (v == NCCLOG_VIA_NET && net_text) {
                char safe[4 * NCCLOG_VIA_LEN + 8];
                esc(net_text, safe, sizeof safe);
                fprintf(out, " (%s)", safe);
            }
            sep = ", ";
        }
    if (count[0] == c->nranks)
        fprintf(out, " transports unknown (no connection lines for this channel)");
    else if (count[0])
        fprintf(out, "%s%d with no connection line", sep, count[0]);
    if (c->nnodes > 1)
        fprintf(out, "; %d leave%s the node", crossing, crossing == 1 ? "s" : "");
    fputc('\n', out);
}

static int tree_kids(const ncclog_channel *ch, int rank, int kids[3])
{
    int n = 0;
    for (int j = 0; j < 3; j++)
        if (ch->children[rank][j] >= 0)
            kids[n++] = ch->children[rank][j];
    return n;
}

/* One branch: rank and the chain of only children below it on one line
 * ("1 - 2 - 3", wrapped under prefix), then each branch below, drawn as
 * the `tree` command draws directories. */
static void print_branch(FILE *out, const ncclog_channel *ch, int rank, char *prefix, size_t plen,
                         int col)
{
    char item[32];
    int kids[3], n;
    snprintf(item, sizeof item, "%d", rank);
    fputs(item, out);
    col += (int)strlen(item);
    while ((n = tree_kids(ch, rank, kids)) == 1) {
        rank = kids[0];
        snprintf(item, sizeof item, " - %d", rank);
        if (col + (int)strlen(item) > WIDTH) {
            fprintf(out, "\n%s    ", prefix);
            col = (int)plen + 4;
        }
        fputs(item, out);
        col += (int)strlen(item);
    }
    fputc('\n', out);
    for (int j = 0; j < n; j++) {
        bool last = j + 1 == n;
        fprintf(out, "%s%s", prefix, last ? "`- " : "|- ");
        bool grow = plen + 4 < 4096;
        if (grow)
            memcpy(prefix + plen, last ? "   " : "|  ", 4);
        print_branch(out, ch, kids[j], prefix, grow ? plen + 3 : plen, (int)plen + 3);
        prefix[plen] = 0;
    }
}

static void print_tree(FILE *out, const ncclog_comm *c, const ncclog_channel *ch, int indent)
{
    int root = 0;
    while (root < c->nranks && ch->parent[root] >= 0)
        root++;
    char *prefix = cv_xmalloc(4100);
    snprintf(prefix, 4100, "%*s", indent, "");
    fputs(prefix, out);
    print_branch(out, ch, root, prefix, (size_t)indent, indent);
    free(prefix);
}

static bool same_ring(const ncclog_comm *c, int a, int b)
{
    const ncclog_channel *x = &c->channels[a], *y = &c->channels[b];
    return !memcmp(x->order, y->order, (size_t)c->nranks * sizeof *x->order) &&
           !memcmp(x->via, y->via, (size_t)c->nranks * sizeof *x->via);
}

static bool same_tree(const ncclog_comm *c, int a, int b)
{
    const ncclog_channel *x = &c->channels[a], *y = &c->channels[b];
    return x->has_tree == y->has_tree &&
           !memcmp(x->parent, y->parent, (size_t)c->nranks * sizeof *x->parent) &&
           !memcmp(x->children, y->children, (size_t)c->nranks * sizeof *x->children);
}

/* Prints the channels grouped by equal rings (or trees). */
static void print_groups(FILE *out, const ncclog_comm *c, bool trees, ncclog_escape_fn esc)
{
    int n = c->nchannels, *group = cv_xcalloc((size_t)n, sizeof *group),
        *members = cv_xcalloc((size_t)n, sizeof *members);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        group[i] = -1;
        for (int j = 0; j < i && group[i] < 0; j++)
            if (trees ? same_tree(c, i, j) : same_ring(c, i, j))
                group[i] = group[j];
        if (group[i] < 0)
            group[i] = distinct++;
    }
    fprintf(out, "\n%s (%d channel%s, %d distinct):\n", trees ? "trees" : "rings", n,
            n == 1 ? "" : "s", distinct);
    for (int g = 0; g < distinct; g++) {
        int m = 0, first = -1;
        for (int i = 0; i < n; i++)
            if (group[i] == g) {
                members[m++] = i;
                if (first < 0)
                    first = i;
            }
        fprintf(out, "  channel%s ", m == 1 ? "" : "s");
        print_ranks(out, members, m);
        fputs(":\n", out);
        if (trees) {
            print_tree(out, c, &c->channels[first], 4);
        } else {
            print_ring(out, c, &c->channels[first], 4);
            print_hops(out, c, &c->channels[first], 4, esc);
        }
    }
    free(group);
    free(members);
}

static void print_sources(FILE *out, const ncclog_comm *c)
{
    fputs("read from:", out);
    const char *sep = " ";
    if (c->sources & NCCLOG_SRC_SUMMARY) {
        fprintf(out, "%srank 0's \"Channel\" summary lines", sep);
        if (c->sources & NCCLOG_SRC_SUMMARY_CUT)
            fprintf(out, " (cut by NCCL after %d of %d ranks; the rest from other lines)",
                    c->summary_len, c->nranks);
        sep = ", ";
    }
    if (c->sources & NCCLOG_SRC_RING)
        fprintf(out, "%sper-rank \"Ring\" lines", sep), sep = ", ";
    if (c->sources & NCCLOG_SRC_CONN)
        fprintf(out, "%sconnection lines for ring hops", sep), sep = ", ";
    if (c->sources & NCCLOG_SRC_TREES)
        fprintf(out, "%s\"Trees\" lines", sep), sep = ", ";
    if (c->sources & NCCLOG_SRC_TREE)
        fprintf(out, "%s\"Tree\" lines", sep), sep = ", ";
    if (c->nconn)
        fprintf(out, "%s%d connection line%s for transports", sep, c->nconn,
                c->nconn == 1 ? "" : "s"), sep = ", ";
    if (c->sources & NCCLOG_SRC_COMM)
        fprintf(out, "%s\"comm\" lines", sep);
    fputc('\n', out);
}

void ncclog_print_summary(FILE *out, const ncclog *log, const ncclog_comm *c,
                          ncclog_escape_fn esc)
{
    char safe[4 * NCCLOG_HOST_LEN + 8];
    esc(log->version, safe, sizeof safe);
    fprintf(out, "%s%s%scommunicator %s: %d rank%s", log->version[0] ? "NCCL " : "", safe,
            log->version[0] ? ", " : "", c->id[0] ? c->id : "(unnamed)", c->nranks,
            c->nranks == 1 ? "" : "s");
    if (c->nnodes > 0)
        fprintf(out, " on %d node%s", c->nnodes, c->nnodes == 1 ? "" : "s");
    fprintf(out, ", %d channel%s\n", c->nchannels, c->nchannels == 1 ? "" : "s");
    int named = 0;
    while (named < c->nranks && strcmp(c->ranks[named].ptr, c->id))
        named++;
    if (c->id[0] && !c->by_commid && named < c->nranks)
        fprintf(out, "  (no commId in this log: the ranks' own \"comm\" pointers were grouped by "
                     "rank count and the order each process created them%s; %s is rank %d's "
                     "pointer)\n",
                c->grouped_by_order ? ", and dealt out in process order among the "
                                      "communicators of as many ranks created alongside"
                                    : "",
                c->id, named);
    int *ranks = cv_xmalloc((size_t)c->nranks * sizeof *ranks);
    for (int k = 0; k < c->nnodes; k++) {
        int m = 0;
        for (int r = 0; r < c->nranks; r++)
            if (c->ranks[r].node == k)
                ranks[m++] = r;
        esc(c->hosts[k], safe, sizeof safe);
        fprintf(out, "  node %d  %-20s %d GPU%s: ranks ", k, safe, m, m == 1 ? "" : "s");
        print_ranks(out, ranks, m);
        fputc('\n', out);
    }
    int unknown = 0;
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r].node < 0)
            ranks[unknown++] = r;
    if (unknown && c->nnodes) {
        fputs("  no host named for ranks ", out);
        print_ranks(out, ranks, unknown);
        fputc('\n', out);
    }
    free(ranks);
    print_sources(out, c);
    if (c->channels[0].order[0] >= 0 && c->nchannels)
        print_groups(out, c, false, esc);
    bool trees = false;
    for (int ch = 0; ch < c->nchannels; ch++)
        trees |= c->channels[ch].has_tree;
    if (trees)
        print_groups(out, c, true, esc);
}
