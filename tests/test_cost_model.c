/*
 * test_cost_model.c: pricing a spec without materialising its plan
 * (cv_cost_model, each step kept as what pricing reads of it) gives what
 * pricing the whole plan gives (cv_cost_plan_nodes, cv_cost_step_nodes),
 * to the bit, for every op and algorithm at small rank counts, one node
 * and several, pipelined, rooted, every protocol, with and without gamma
 * and alpha; and the steps it keeps are the plan's (phase, round, local,
 * loads). The multi-ring, whose generator hands the model its steps'
 * port sums instead of transfers, besides at up to 64 ranks and 32
 * channels, with empty chunks, without, and with every round alike.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cv.h"

static const cv_link links[][2] = {
    {{"a", 450e9, 2e-6, 0, NULL, CV_HW_NVLINK}, {"a", 450e9, 2e-6, 0, NULL, CV_HW_NVLINK}},
    {{"b", 300e9, 2e-6, 200e9, NULL, CV_HW_NVLINK}, {"c", 25e9, 5e-6, 200e9, NULL, CV_HW_NET}},
    {{"d", 32e9, 0, 0, NULL, CV_HW_PCI}, {"e", 12.5e9, 10e-6, 0, NULL, CV_HW_NET}},
    {{"f", 64e9, 3e-6, 0, NULL, CV_HW_PCI}, {"g", 50e9, 0, 0, NULL, CV_HW_NET}},
};

static int compared;

static void same_cost(const cv_cost *a, const cv_cost *b, const char *what)
{
    EXPECT(a->seconds == b->seconds && a->steps == b->steps && a->comm_steps == b->comm_steps &&
               a->max_sent == b->max_sent && a->busiest_total == b->busiest_total &&
               a->alphas == b->alphas && a->inter_rounds == b->inter_rounds &&
               a->max_sent_inter == b->max_sent_inter && a->algbw == b->algbw &&
               a->busbw == b->busbw,
           "%s: plan %.17g s, %d steps, %lld alphas, max_sent %lld, inter %d/%lld; model %.17g s, "
           "%d steps, %lld alphas, max_sent %lld, inter %d/%lld",
           what, a->seconds, a->steps, (long long)a->alphas, (long long)a->max_sent,
           a->inter_rounds, (long long)a->max_sent_inter, b->seconds, b->steps,
           (long long)b->alphas, (long long)b->max_sent, b->inter_rounds,
           (long long)b->max_sent_inter);
}

static void compare(const cv_spec *s)
{
    char what[160], err[CV_ERR_LEN];
    snprintf(what, sizeof what, "%s %s ranks %d nodes %d slices %d root %d count %lld %s",
             cv_op_name(s->op), cv_algo_name(s->algo), s->ranks, s->nodes, s->slices, s->root,
             (long long)s->count, cv_dtype_name(s->dtype));
    cv_plan *p = NULL;
    cv_cost_model *m = NULL;
    int rp = cv_plan_create(s, &p, err, sizeof err);
    int rm = cv_cost_model_create(s, &m, err, sizeof err);
    EXPECT(rp == rm, "%s: plan %d, model %d", what, rp, rm);
    if (rp || rm) {
        cv_plan_destroy(p);
        cv_cost_model_destroy(m);
        return;
    }
    compared++;
    const cv_plan *q = cv_cost_model_plan(m);
    EXPECT(q->nsteps == p->nsteps && q->nrounds == p->nrounds && q->nswitch == p->nswitch,
           "%s: %d steps %d rounds, model %d steps %d rounds", what, p->nsteps, p->nrounds,
           q->nsteps, q->nrounds);
    for (int k = 0; k < p->nsteps && k < q->nsteps; k++)
        EXPECT(!strcmp(p->steps[k].phase, q->steps[k].phase) &&
                   p->steps[k].round == q->steps[k].round &&
                   p->steps[k].local == q->steps[k].local && p->steps[k].loads == q->steps[k].loads,
               "%s: step %d differs", what, k);
    bool nodes = cv_spec_nodes(s) > 1;
    for (size_t l = 0; l < sizeof links / sizeof links[0]; l++) {
        const cv_link *intra = &links[l][0], *inter = nodes ? &links[l][1] : NULL;
        for (int pr = 0; pr < CV_PROTO_COUNT; pr++) {
            cv_cost a, b;
            p->spec.proto = (cv_proto)pr;
            cv_cost_plan_nodes(p, intra, inter, &a);
            cv_cost_model_price(m, (cv_proto)pr, intra, inter, &b);
            char w[200];
            snprintf(w, sizeof w, "%s link %zu proto %s", what, l, cv_proto_name((cv_proto)pr));
            same_cost(&a, &b, w);
        }
        p->spec.proto = s->proto;
        for (int k = -1; k <= p->nsteps; k++) {
            int64_t ba = -1, bb = -2;
            double ta = cv_cost_step_nodes(p, k, intra, inter, &ba);
            double tb = cv_cost_model_step(m, k, intra, inter, &bb);
            EXPECT(ta == tb && ba == bb,
                   "%s link %zu step %d: plan %.17g s %lld B, model %.17g s %lld B", what, l, k, ta,
                   (long long)ba, tb, (long long)bb);
        }
    }
    cv_plan_destroy(p);
    cv_cost_model_destroy(m);
}

static void check_every_algo(void)
{
    static const int ranks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 32};
    static const int64_t counts[] = {1, 7, 1000};
    compared = 0;
    for (int o = 0; o < CV_OP_COUNT; o++) {
        cv_algo algos[CV_ALGO_COUNT];
        int na = cv_op_algos((cv_op)o, algos);
        for (int a = 0; a < na; a++)
            for (size_t r = 0; r < sizeof ranks / sizeof *ranks; r++)
                for (int nodes = 1; nodes <= 4; nodes *= 2)
                    for (int slices = 1; slices <= 3; slices += 2)
                        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
                            cv_spec s;
                            cv_spec_init(&s);
                            s.op = (cv_op)o;
                            s.algo = algos[a];
                            s.ranks = ranks[r];
                            s.nodes = nodes;
                            s.slices = slices;
                            s.count = counts[c];
                            s.root = cv_op_has_root(s.op) ? ranks[r] - 1 : 0;
                            s.dtype = c == 1 ? CV_INT8 : CV_FLOAT32;
                            compare(&s);
                        }
    }
    printf("%d specs priced both ways\n", compared);
    EXPECT(compared > 1000, "only %d specs could be built", compared);
}

/* A ring and trees from outside (an NCCL log's): the model follows them too. */
static void check_topology(void)
{
    static cv_topology t;
    memset(&t, 0, sizeof t);
    t.ranks = 8;
    t.has_ring = true;
    const int ring[8] = {0, 3, 1, 2, 7, 5, 6, 4};
    for (int i = 0; i < 8; i++)
        t.ring[i] = ring[i];
    t.has_trees = true;
    const int parent[2][8] = {{-1, 0, 0, 1, 1, 2, 2, 3}, {4, 5, 5, 6, -1, 4, 4, 6}};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 8; i++)
            t.parent[k][i] = parent[k][i];
    char err[CV_ERR_LEN];
    EXPECT(cv_topology_check(&t, err, sizeof err) == CV_OK, "%s", err);
    cv_algo algos[CV_ALGO_COUNT];
    for (int o = 0; o < CV_OP_COUNT; o++) {
        int na = cv_op_algos((cv_op)o, algos);
        for (int a = 0; a < na; a++) {
            cv_spec s;
            cv_spec_init(&s);
            s.op = (cv_op)o;
            s.algo = algos[a];
            s.ranks = 8;
            s.count = 100;
            s.topo = &t;
            compare(&s);
        }
    }
}

/* The multi-ring's steps reach the model as port sums, never transfers
 * (cv__plan_ports): every way those are summed, at more ranks and
 * channels than every-algo reaches. Its C rings each take a range of the
 * buffer in N chunks: a count below C x N leaves chunks empty (messages
 * counted each round), one whose ranges are all at least N has none
 * (messages counted once), and one whose ranges divide by N has every
 * round of a phase alike (summed once). */
static void check_multiring(void)
{
    static const struct {
        int ranks, nodes;
    } shapes[] = {{2, 1}, {8, 1}, {12, 3}, {40, 5}, {48, 3}, {64, 2}, {33, 1}};
    compared = 0;
    for (size_t h = 0; h < sizeof shapes / sizeof *shapes; h++) {
        int n = shapes[h].ranks, L = n / shapes[h].nodes, C = L < 32 ? L : 32;
        const int64_t cn = (int64_t)C * n;
        const int64_t counts[] = {1, 7, cn / 2 + 3, cn - 1, cn, cn + 1, 3 * cn + 5, 4 * cn};
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int d = 0; d < 2; d++) {
                cv_spec s;
                cv_spec_init(&s);
                s.op = CV_OP_ALLREDUCE;
                s.algo = CV_ALGO_MULTIRING;
                s.ranks = n;
                s.nodes = shapes[h].nodes;
                s.count = counts[c];
                s.dtype = d ? CV_FLOAT64 : CV_INT8;
                compare(&s);
            }
    }
    printf("%d multi-ring specs priced both ways\n", compared);
    EXPECT(compared == 7 * 8 * 2, "only %d multi-ring specs could be built", compared);
}

static const test_case cases[] = {
    CASE("every-algo", check_every_algo),
    CASE("multi-ring", check_multiring),
    CASE("topology", check_topology),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
