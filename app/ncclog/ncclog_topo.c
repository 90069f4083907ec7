/*
 * ncclog_topo.c: one channel of a communicator as the ring and trees a plan
 * follows (cv_topology), and its nodes as the spec's two-level topology.
 *
 * NCCL doubles its channels for the double binary tree: channel c of the
 * first half reduces along tree 0 and channel c + n/2 along tree 1 (both
 * halves keep the same rings), so channel c's pair of trees is its own and
 * that of the channel half the count away. A channel whose ring the log
 * does not determine whole leaves the plan its own ring (t->has_ring
 * false): the stage then shows the communicator's ranks and nodes, and says
 * so in the note.
 */
#include <string.h>

#include "ncclog.h"

int ncclog_topology(const ncclog_comm *c, int ch, cv_topology *t, int *nodes, char *note,
                    size_t notelen, char *err, size_t errlen)
{
    note[0] = 0;
    if (c->nranks > CV_MAX_RANKS) {
        snprintf(err, errlen, "communicator %s has %d ranks; collviz runs at most %d", c->id,
                 c->nranks, CV_MAX_RANKS);
        return -1;
    }
    if (ch < 0 || (ch >= c->nchannels && !(ch == 0 && c->nchannels == 0))) {
        snprintf(err, errlen, "--channel: %d is out of range; this communicator has channels 0 "
                              "to %d",
                 ch, c->nchannels - 1);
        return -1;
    }
    memset(t, 0, sizeof *t);
    t->ranks = c->nranks;
    if (c->nchannels == 0) {
        snprintf(note, notelen, "the log gives no channel's ring or tree: the stage has the "
                                "communicator's ranks with collviz's own ring and trees");
    } else {
        const ncclog_channel *x = &c->channels[ch];
        t->has_ring = x->ring == NCCLOG_WHOLE;
        for (int i = 0; t->has_ring && i < c->nranks; i++)
            t->ring[i] = x->order[i];
        int other = (ch + c->nchannels / 2) % c->nchannels;
        const ncclog_channel *y = &c->channels[other];
        t->has_trees = x->has_tree && y->has_tree;
        for (int r = 0; t->has_trees && r < c->nranks; r++) {
            t->parent[0][r] = x->parent[r];
            t->parent[1][r] = y->parent[r];
        }
        if (!t->has_ring)
            snprintf(note, notelen, "channel %d's ring is not whole in the log: the stage "
                                    "follows collviz's own ring order",
                     ch);
        else if (x->has_tree && !y->has_tree)
            snprintf(note, notelen,
                     "channel %d has a tree but channel %d does not: no double tree", ch,
                     other);
    }
    /* Nodes as equal runs of consecutive ranks, as cv_spec's nodes are. */
    *nodes = 1;
    if (c->nnodes > 1) {
        int per = c->nranks / c->nnodes;
        bool runs = c->nranks % c->nnodes == 0;
        for (int r = 0; runs && r < c->nranks; r++)
            runs = c->ranks[r].node >= 0 && c->ranks[r].node == c->ranks[r - r % per].node &&
                   (r < per || c->ranks[r].node != c->ranks[r - per].node);
        if (runs)
            *nodes = c->nnodes;
        else
            snprintf(note + strlen(note), notelen - strlen(note),
                     "%sthe log's %d nodes do not hold equal runs of consecutive ranks: priced "
                     "and drawn as one node",
                     note[0] ? "; " : "", c->nnodes);
    }
    return 0;
}
