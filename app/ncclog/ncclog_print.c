/*
 * ncclog_print.c: what NCCL built, as `collviz nccl-log` prints it.
 *
 * The summary answers the question people bring to NCCL's issue tracker,
 * "how is data actually moving between my GPUs?": which ranks share a node,
 * each channel's ring in the order data travels (hops that leave the node
 * marked with their transport), each channel's tree drawn as a tree, and
 * which lines of the log said so. Channels NCCL duplicates (it often runs
 * the same ring twice) are printed once with every channel they stand for.
 *
 * A partial reading says so at the top ("partial"), shows what the lines
 * determine (whole channels as above; of the rest the known hops and tree
 * entries), and ends with what is missing and what to capture. NCCL's own
 * WARN lines come first: they say what failed in NCCL's words.
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

/* The same ring, and no hop whose transport the two channels' lines name
 * differently (a channel without connection lines matches any). */
static bool same_ring(const ncclog_comm *c, int a, int b)
{
    const ncclog_channel *x = &c->channels[a], *y = &c->channels[b];
    if (x->ring != NCCLOG_WHOLE || y->ring != NCCLOG_WHOLE ||
        memcmp(x->order, y->order, (size_t)c->nranks * sizeof *x->order))
        return false;
    for (int r = 0; r < c->nranks; r++)
        if (x->via[r] && y->via[r] && x->via[r] != y->via[r])
            return false;
    return true;
}

static int known_vias(const ncclog_comm *c, int ch)
{
    int k = 0;
    for (int r = 0; r < c->nranks; r++)
        k += c->channels[ch].via[r] != NCCLOG_VIA_UNKNOWN;
    return k;
}

static bool same_tree(const ncclog_comm *c, int a, int b)
{
    const ncclog_channel *x = &c->channels[a], *y = &c->channels[b];
    return x->tree == y->tree &&
           !memcmp(x->tree_known, y->tree_known, (size_t)c->nranks) &&
           !memcmp(x->parent, y->parent, (size_t)c->nranks * sizeof *x->parent) &&
           !memcmp(x->children, y->children, (size_t)c->nranks * sizeof *x->children);
}

/* The known hops of a partial ring, as its paths: "2 > 3 > 4, 7 > 0". */
static void print_paths(FILE *out, const ncclog_comm *c, const ncclog_channel *ch, int indent)
{
    int n = c->nranks, *pred = cv_xmalloc((size_t)n * sizeof *pred);
    for (int i = 0; i < n; i++)
        pred[i] = -1;
    for (int i = 0; i < n; i++)
        if (ch->next[i] >= 0)
            pred[ch->next[i]] = i;
    wrap w = {out, indent, indent};
    fprintf(out, "%*s", indent, "");
    char item[48];
    int paths = 0;
    for (int i = 0; i < n; i++) {
        if (ch->next[i] < 0 || pred[i] >= 0)
            continue;
        snprintf(item, sizeof item, "%s%d", paths++ ? ", " : "", i);
        wrap_put(&w, item);
        for (int at = i, k = 0; ch->next[at] >= 0 && k < n; at = ch->next[at], k++) {
            int b = ch->next[at];
            snprintf(item, sizeof item, " %s %d",
                     ch->via[at] == NCCLOG_VIA_NET || crosses_node(c, at, b) ? "==>" : ">", b);
            wrap_put(&w, item);
        }
    }
    fputc('\n', out);
    free(pred);
}

/* A partial tree's known entries: "2: parent 1, children 3". */
static void print_entries(FILE *out, const ncclog_comm *c, const ncclog_channel *ch, int indent)
{
    wrap w = {out, indent, indent};
    fprintf(out, "%*s", indent, "");
    char item[96];
    int k = 0;
    for (int r = 0; r < c->nranks; r++) {
        if (!ch->tree_known[r])
            continue;
        int kids[3], m = tree_kids(ch, r, kids), o = 0;
        if (k++)
            wrap_put(&w, ";");
        o += snprintf(item + o, sizeof item - (size_t)o, "%s%d: ", k > 1 ? " " : "", r);
        if (ch->parent[r] >= 0)
            o += snprintf(item + o, sizeof item - (size_t)o, "parent %d", ch->parent[r]);
        else
            o += snprintf(item + o, sizeof item - (size_t)o, "root");
        for (int j = 0; j < m && o < (int)sizeof item; j++)
            o += snprintf(item + o, sizeof item - (size_t)o, "%s%d", j ? "/" : ", children ",
                          kids[j]);
        wrap_put(&w, item);
    }
    fputc('\n', out);
}

/* The WARN line that speaks of channel ch's ring ("ring 2 does not loop
 * back"), else the first; NULL where there is none. */
static const ncclog_warn *warn_for_ring(const ncclog *log, int ch)
{
    char pat[32];
    snprintf(pat, sizeof pat, "ring %d ", ch);
    for (int i = 0; i < log->nwarns; i++)
        if (strstr(log->warns[i].text, pat))
            return &log->warns[i];
    return log->nwarns ? &log->warns[0] : NULL;
}

/* Prints the channels grouped by equal rings (or trees): whole ones drawn,
 * partial ones by what is known, the rest named. */
static void print_groups(FILE *out, const ncclog *log, const ncclog_comm *c, bool trees,
                         ncclog_escape_fn esc)
{
    int n = c->nchannels, *group = cv_xcalloc((size_t)n + 1, sizeof *group),
        *members = cv_xcalloc((size_t)n + 1, sizeof *members);
    int distinct = 0, whole = 0;
    for (int i = 0; i < n; i++) {
        group[i] = -1;
        int st = trees ? c->channels[i].tree : c->channels[i].ring;
        whole += st == NCCLOG_WHOLE;
        for (int j = 0; j < i && group[i] < 0; j++) {
            int sj = trees ? c->channels[j].tree : c->channels[j].ring;
            if (st != sj)
                continue;
            if (st == NCCLOG_NONE ||
                (trees ? same_tree(c, i, j)
                       : st == NCCLOG_WHOLE ? same_ring(c, i, j)
                       : st == NCCLOG_PARTIAL
                           ? !memcmp(c->channels[i].next, c->channels[j].next,
                                     (size_t)c->nranks * sizeof(int))
                           : false))
                group[i] = group[j];
        }
        if (group[i] < 0)
            group[i] = distinct++;
    }
    fprintf(out, "\n%s (%d channel%s", trees ? "trees" : "rings", n, n == 1 ? "" : "s");
    if (whole == n)
        fprintf(out, ", %d distinct):\n", distinct);
    else
        fprintf(out, ", %d whole):\n", whole);
    for (int g = 0; g < distinct; g++) {
        int m = 0, first = -1, best = -1;
        for (int i = 0; i < n; i++)
            if (group[i] == g) {
                members[m++] = i;
                if (first < 0)
                    first = i;
                if (best < 0 || known_vias(c, i) > known_vias(c, best))
                    best = i;
            }
        const ncclog_channel *x = &c->channels[first];
        int st = trees ? x->tree : x->ring;
        fprintf(out, "  channel%s ", m == 1 ? "" : "s");
        print_ranks(out, members, m);
        if (st == NCCLOG_NONE) {
            fprintf(out, ": unknown (no line gives %s)\n", trees ? "its tree" : "its ring");
            continue;
        }
        if (st == NCCLOG_BROKEN) {
            fprintf(out, ": NCCL's ring does not close: its summary (line %ld) runs",
                    x->broken_line);
            for (int i = 0; i < x->broken_len; i++)
                fprintf(out, " %d", x->order[i]);
            fputs(", repeating ranks before it visits them all\n", out);
            const ncclog_warn *wn = warn_for_ring(log, first);
            if (wn) {
                char safe[4 * NCCLOG_WARN_LEN + 8];
                esc(wn->text, safe, sizeof safe);
                fprintf(out, "    NCCL said (line %ld): %s\n", wn->line, safe);
            }
            continue;
        }
        fputs(st == NCCLOG_PARTIAL ? " (partial):\n" : ":\n", out);
        if (trees) {
            if (st == NCCLOG_WHOLE)
                print_tree(out, c, x, 4);
            else
                print_entries(out, c, x, 4);
        } else if (st == NCCLOG_WHOLE) {
            print_ring(out, c, &c->channels[best], 4);
            print_hops(out, c, &c->channels[best], 4, esc);
        } else {
            print_paths(out, c, x, 4);
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
    if (c->sources & NCCLOG_SRC_ELIM)
        fprintf(out, "%shops the others force (by elimination)", sep), sep = ", ";
    if (c->nconn)
        fprintf(out, "%s%d connection line%s for transports", sep, c->nconn,
                c->nconn == 1 ? "" : "s"), sep = ", ";
    if (c->sources & NCCLOG_SRC_COMM)
        fprintf(out, "%s\"comm\" lines", sep), sep = ", ";
    if (sep[0] == ' ')
        fputs(" no ring or tree line", out);
    fputc('\n', out);
}

void ncclog_print_warns(FILE *out, const ncclog *log, ncclog_escape_fn esc)
{
    if (!log->nwarn)
        return;
    char safe[4 * NCCLOG_WARN_LEN + 8], where[4 * (NCCLOG_HOST_LEN + 16) + 8];
    fprintf(out, "NCCL WARN: %ld line%s, the first at line %ld", log->nwarn,
            log->nwarn == 1 ? "" : "s", log->warns[0].line);
    if (log->nwarns > 1)
        fprintf(out, " (%d different%s)", log->nwarns,
                log->nwarns == NCCLOG_WARN_KEEP ? " shown, more not" : "");
    fputs(":\n", out);
    for (int i = 0; i < log->nwarns; i++) {
        const ncclog_warn *w = &log->warns[i];
        esc(w->text, safe, sizeof safe);
        esc(w->where, where, sizeof where);
        fprintf(out, "  line %ld%s%s%s: %s", w->line, where[0] ? " (" : "", where,
                where[0] ? ")" : "", safe);
        if (w->count > 1)
            fprintf(out, " (%ld times)", w->count);
        fputc('\n', out);
    }
}

static void print_version(FILE *out, const ncclog *log, const char *version,
                          ncclog_escape_fn esc)
{
    char safe[4 * 32 + 8];
    esc(version, safe, sizeof safe);
    if (version[0])
        fprintf(out, "%s %s, ", log->flavor[0] ? log->flavor : "NCCL", safe);
}

void ncclog_print_log(FILE *out, const ncclog *log, ncclog_escape_fn esc)
{
    print_version(out, log, log->version, esc);
    fprintf(out, "partial: no communicator in %ld line%s (%ld NCCL INFO, none with a ring, a "
                 "tree or a \"comm\" line)\n",
            log->lines, log->lines == 1 ? "" : "s", log->info_lines);
    ncclog_print_warns(out, log, esc);
    int v = ncclog_version_num(log->version);
    char version_safe[4 * 32 + 8];
    esc(log->version, version_safe, sizeof version_safe);
    if (v && v < 21000)
        fprintf(out, "to see the rings: ask for rank 0's \"Channel NN :\" summary lines and every "
                     "rank's \"Trees\" line (NCCL_DEBUG=INFO; NCCL %s prints no per-rank ring "
                     "lines)\n",
                version_safe);
    else
        fputs("to see the rings: ask for the whole output of every rank with NCCL_DEBUG=INFO "
              "NCCL_DEBUG_SUBSYS=INIT,GRAPH (rank 0's \"Channel NN/MM :\" summaries, each "
              "rank's \"Ring\" and \"Trees\" lines)\n",
              out);
}

void ncclog_print_summary(FILE *out, const ncclog *log, const ncclog_comm *c,
                          ncclog_escape_fn esc)
{
    char safe[4 * NCCLOG_HOST_LEN + 8];
    print_version(out, log, c->version[0] ? c->version : log->version, esc);
    bool all_placed = true;
    for (int r = 0; r < c->nranks; r++)
        all_placed &= c->ranks[r].node >= 0;
    bool sure = c->nranks_said; /* else a whole ring, or a tree, counts them */
    for (int ch = 0; ch < c->nchannels && !sure && !c->nranks_unsure; ch++)
        sure = c->channels[ch].ring == NCCLOG_WHOLE || c->channels[ch].has_tree;
    fprintf(out, "communicator %s: %s%d rank%s", c->id[0] ? c->id : "(unnamed)",
            sure ? "" : "at least ", c->nranks, c->nranks == 1 ? "" : "s");
    if (c->nnodes > 0 && all_placed)
        fprintf(out, " on %d node%s", c->nnodes, c->nnodes == 1 ? "" : "s");
    else if (c->nnodes_said > 0)
        fprintf(out, " on %d node%s", c->nnodes_said, c->nnodes_said == 1 ? "" : "s");
    fprintf(out, ", %d channel%s%s\n", c->nchannels, c->nchannels == 1 ? "" : "s",
            c->partial ? " (partial)" : "");
    ncclog_print_warns(out, log, esc);
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
    int *ranks = cv_xmalloc((size_t)c->nranks * sizeof *ranks + 1);
    for (int k = 0; k < c->nnodes; k++) {
        int m = 0;
        for (int r = 0; r < c->nranks; r++)
            if (c->ranks[r].node == k)
                ranks[m++] = r;
        esc(c->hosts[k], safe, sizeof safe);
        fprintf(out, "  node %d  %-20s %d GPU%s: rank%s ", k, safe, m, m == 1 ? "" : "s",
                m == 1 ? "" : "s");
        print_ranks(out, ranks, m);
        fputc('\n', out);
    }
    int unknown = 0;
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r].node < 0)
            ranks[unknown++] = r;
    if (unknown && c->nnodes) {
        fprintf(out, "  no host named for rank%s ", unknown == 1 ? "" : "s");
        print_ranks(out, ranks, unknown);
        fputc('\n', out);
    }
    if (c->partial) {
        int m = 0;
        for (int r = 0; r < c->nranks; r++)
            if (c->ranks[r].printed)
                ranks[m++] = r;
        fprintf(out, "lines from %s", m == c->nranks ? "every rank" : m ? "" : "no rank");
        if (m && m < c->nranks) {
            fprintf(out, "rank%s ", m == 1 ? "" : "s");
            print_ranks(out, ranks, m);
            fprintf(out, " of %d", c->nranks);
        }
        if (c->nranks_said)
            fprintf(out, "; the \"comm\" lines say %d ranks", c->nranks);
        if (c->nnodes_said > 0)
            fprintf(out, " on %d node%s", c->nnodes_said, c->nnodes_said == 1 ? "" : "s");
        if (c->nchannels_said > 0)
            fprintf(out, "; NCCL said %d channel%s", c->nchannels_said,
                    c->nchannels_said == 1 ? "" : "s");
        fputc('\n', out);
    }
    free(ranks);
    print_sources(out, c);
    bool rings = false, trees = false;
    for (int ch = 0; ch < c->nchannels; ch++) {
        rings |= c->channels[ch].ring != NCCLOG_NONE;
        trees |= c->channels[ch].tree != NCCLOG_NONE;
    }
    if (rings)
        print_groups(out, log, c, false, esc);
    if (trees)
        print_groups(out, log, c, true, esc);
    if (c->partial) {
        char m[4 * NCCLOG_ERR_LEN + 8];
        esc(c->missing, m, sizeof m);
        fprintf(out, "\nmissing: %s\n", m);
        char a[4 * NCCLOG_ERR_LEN + 8];
        esc(c->ask, a, sizeof a);
        fprintf(out, "to see the rest: %s\n", a);
    }
}
