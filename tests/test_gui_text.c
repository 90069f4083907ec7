/*
 * test_gui_text.c: the narration's default words: an explanation of its
 * own for every op x algorithm pair the registry offers (in English and
 * Chinese, and right where the old stock sentences were wrong), and the
 * step sentences derived from the plan: "every GPU" only where every rank
 * sends, the pairs and the chunks they carry with their values, what a
 * reduction made, every pair while they are few and a summary with the
 * last beyond, plurals, and a compared
 * pair explained as two algorithms.
 */
#include "test_render_util.h"

#include <string.h>

#include "check.h"

typedef struct {
    cv_plan *plan;
    cv_trace *trace;
    cv_state *before, *after;
} run_t;

static bool run_spec(run_t *r, cv_spec s)
{
    memset(r, 0, sizeof *r);
    char err[CV_ERR_LEN];
    if (cv_plan_create(&s, &r->plan, err, sizeof err) != CV_OK)
        return false;
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.visual = true;
    if (cv_run(r->plan, cv_cpu_backend(), &o, &r->trace, err, sizeof err) != CV_OK)
        return false;
    cv_state_create(r->trace, &r->before);
    cv_state_create(r->trace, &r->after);
    return true;
}

static bool run_nodes(run_t *r, cv_op op, cv_algo algo, int ranks, int nodes, int64_t count)
{
    cv_spec s = tr_spec(op, algo, ranks, count);
    s.nodes = nodes;
    return run_spec(r, s);
}

static bool run(run_t *r, cv_op op, cv_algo algo, int ranks, int64_t count)
{
    return run_nodes(r, op, algo, ranks, 1, count);
}

static void run_free(run_t *r)
{
    cv_state_destroy(r->before);
    cv_state_destroy(r->after);
    cv_trace_destroy(r->trace);
    cv_plan_destroy(r->plan);
}

/* The sentence for step (0-based): what will happen (next) or what
 * happened (with the state after it). */
static void words_of(run_t *r, int step, bool happened, cv_lang lang, bool brief, char *out,
                     size_t outlen)
{
    cv_state_seek(r->before, step);
    cv_state_seek(r->after, step + 1);
    gui__describe_step(r->plan, step, r->before, happened ? r->after : NULL, lang, brief, out,
                       outlen);
}

static void expect_has(const char *text, const char *want, const char *what)
{
    EXPECT(strstr(text, want) != NULL, "%s: '%s' lacks '%s'", what, text, want);
}

static void expect_not(const char *text, const char *bad, const char *what)
{
    EXPECT(strstr(text, bad) == NULL, "%s: '%s' says '%s'", what, text, bad);
}

/* What the cases below write into: the step's words, the explanation. */
static char t[2048], title[256], body[4096];
static run_t r;

/* Every pair the registry offers has its own words, in both languages. */
static void pair_texts(void)
{
    char seen[64][512];
    int nseen = 0;
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo list[CV_ALGO_COUNT];
        int n = cv_op_algos((cv_op)op, list);
        for (int i = 0; i < n; i++) {
            EXPECT(gui__has_pair_text((cv_op)op, list[i]), "%s %s has no explanation",
                   cv_op_name((cv_op)op), cv_algo_name(list[i]));
            cv_spec s = tr_spec((cv_op)op, list[i], 4, 8);
            for (int lang = 0; lang < CV_LANG_COUNT; lang++) {
                gui__explain(&s, CV_ALGO_COUNT, (cv_lang)lang, title, sizeof title, body, sizeof body);
                const char *algo_part = strchr(body, '\n');
                EXPECT(algo_part && strlen(algo_part) > 40, "%s %s (%s): '%s'", cv_op_name((cv_op)op),
                       cv_algo_name(list[i]), cv_lang_name((cv_lang)lang), body);
                if (lang == CV_LANG_EN && algo_part && nseen < 64) {
                    for (int k = 0; k < nseen; k++)
                        EXPECT(strcmp(seen[k], algo_part) != 0, "%s %s shares its text with another pair",
                               cv_op_name((cv_op)op), cv_algo_name(list[i]));
                    snprintf(seen[nseen++], sizeof seen[0], "%s", algo_part);
                }
            }
        }
    }
}

/* The stock sentences that were wrong. */
static void stock_sentences(void)
{
    cv_spec bc = tr_spec(CV_OP_BROADCAST, CV_ALGO_RING, 4, 8);
    gui__explain(&bc, CV_ALGO_COUNT, CV_LANG_EN, title, sizeof title, body, sizeof body);
    expect_not(body, "1/N of the data per step", "broadcast ring");
    expect_has(body, "whole buffer", "broadcast ring");
    static const cv_op not_all[] = {CV_OP_SENDRECV, CV_OP_SCATTER, CV_OP_GATHER, CV_OP_REDUCE,
                                    CV_OP_ALLREDUCE, CV_OP_REDUCESCATTER};
    for (size_t i = 0; i < sizeof not_all / sizeof *not_all; i++) {
        cv_spec d = tr_spec(not_all[i], CV_ALGO_DIRECT, 4, 8);
        gui__explain(&d, CV_ALGO_COUNT, CV_LANG_EN, title, sizeof title, body, sizeof body);
        expect_not(body, "every rank talks to every other rank", cv_op_name(not_all[i]));
    }
    cv_spec ps = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_DIRECT, 4, 8);
    gui__explain(&ps, CV_ALGO_COUNT, CV_LANG_EN, title, sizeof title, body, sizeof body);
    expect_has(body, "parameter server", "allreduce direct");
}

/* Ring AllReduce, round 2: every rank sends right; the pairs and the
 * chunks they carry, with values; what the reduction made. */
static void ring_round_2(void)
{
    EXPECT(run(&r, CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 4), "ring plan");
    words_of(&r, 1, false, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "Step 2 of 6 (reduce-scatter): every GPU sends to its right neighbour", "next");
    expect_has(t, "GPU 0 \xE2\x86\x92 GPU 1: d0+3 = 306", "next, a pair and its chunk");
    expect_has(t, "4 messages between GPUs: 4 reductions.", "next, counts");
    /* Four pairs are all listed, the ring's wrap-around among them. */
    expect_has(t, "GPU 3 \xE2\x86\x92 GPU 0: c2+3 = 504", "next, the wrap-around");
    expect_not(t, "more like", "next, four pairs");
    words_of(&r, 1, true, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "GPU 0 \xE2\x86\x92 GPU 1: d0+3 + d1 = 306 + 103 = 409", "happened, the arithmetic");
    words_of(&r, 1, false, CV_LANG_ZH, false, t, sizeof t);
    expect_has(t, "每个 GPU 发给右邻居", "next, zh");
    expect_has(t, "GPU 之间共 4 条消息：4 次规约", "next, zh counts");
    /* Brief, for one side of a comparison. */
    words_of(&r, 1, false, CV_LANG_EN, true, t, sizeof t);
    EXPECT(strcmp(t, "Step 2 of 6 (reduce-scatter): every GPU sends to its right neighbour; 4 "
                     "messages between GPUs.") == 0,
           "brief ring step: '%s'", t);
    run_free(&r);
}

/* Beyond four pairs, a summary. */
static void summary_16(void)
{
    EXPECT(run(&r, CV_OP_ALLREDUCE, CV_ALGO_RING, 16, 16), "ring 16");
    words_of(&r, 0, false, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "and 13 more like them", "16 ranks");
    expect_has(t, "GPU 1 \xE2\x86\x92 GPU 2", "16 ranks, the first two");
    expect_not(t, "GPU 2 \xE2\x86\x92 GPU 3", "16 ranks, the middle summed up");
    expect_has(t, "GPU 15 \xE2\x86\x92 GPU 0", "16 ranks, the wrap-around last");
    run_free(&r);
}

/* At 64 ranks chunks run past z and Z: a numbered chunk's name keeps
 * apart from its rank numbers ("#63:0+63", never "#630+63"), in the
 * narration as in the cells (the same rd_chunk_label). */
static void chunks_64(void)
{
    EXPECT(run(&r, CV_OP_ALLREDUCE, CV_ALGO_RING, 64, 64), "ring 64");
    words_of(&r, 1, false, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "GPU 0 \xE2\x86\x92 GPU 1: #63:0+63 = ", "64 ranks, next");
    expect_not(t, "#630", "64 ranks, next");
    words_of(&r, 1, true, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "GPU 0 \xE2\x86\x92 GPU 1: #63:0+63 + #63:1 = ", "64 ranks, happened");
    run_free(&r);
    static const struct {
        int chunk;
        uint64_t mask;
        const char *want;
    } names[] = {{0, 0x3, "a0+1"},   {25, 0x1, "z0"},         {26, 0xf, "A0-3"},
                 {51, 0x6, "Z1+2"},  {52, 0x1, "#52:0"},      {63, 1ull << 63 | 1, "#63:0+63"},
                 {60, 0xf0, "#60:4-7"}};
    cv_spec big = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 64, 64);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char lab[64];
        /* 64 elements on 64 ranks: element k is chunk k. */
        rd_chunk_label(&big, CV_BUF_RECV, 0, names[i].chunk, names[i].mask, lab, sizeof lab);
        EXPECT(strcmp(lab, names[i].want) == 0, "chunk %d label '%s', want '%s'", names[i].chunk, lab,
               names[i].want);
    }
}

/* One transfer: singular words. */
static void singular(void)
{
    EXPECT(run(&r, CV_OP_REDUCE, CV_ALGO_DIRECT, 4, 4), "reduce direct");
    words_of(&r, 0, false, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "GPU 1 sends to GPU 0", "reduce direct");
    expect_has(t, "1 message between GPUs: 1 reduction.", "reduce direct, singular");
    run_free(&r);
}

/* Tree reduce on 4 ranks, round 1: only ranks 1 and 3 send. */
static void tree_reduce_4(void)
{
    EXPECT(run(&r, CV_OP_REDUCE, CV_ALGO_TREE, 4, 4), "reduce tree");
    words_of(&r, 0, false, CV_LANG_EN, false, t, sizeof t);
    expect_not(t, "every GPU", "tree step 1");
    expect_has(t, "GPU 1 \xE2\x86\x92 GPU 0", "tree reduce step 1");
    expect_has(t, "GPU 3 \xE2\x86\x92 GPU 2", "tree reduce step 1");
    run_free(&r);
}

/* Tree reduce on 16 ranks, round 1: 8 senders, each one rank down. */
static void tree_reduce_16(void)
{
    EXPECT(run(&r, CV_OP_REDUCE, CV_ALGO_TREE, 16, 16), "reduce tree 16");
    words_of(&r, 0, false, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "8 GPUs each send to the GPU 1 behind", "tree reduce 16 ranks");
    words_of(&r, 0, false, CV_LANG_ZH, false, t, sizeof t);
    expect_has(t, "8 个 GPU 各自发给后方第 1 个 GPU", "tree reduce 16 ranks, zh");
    run_free(&r);
}

/* Broadcast from the root: one sender, one receiver. */
static void broadcast_direct(void)
{
    EXPECT(run(&r, CV_OP_BROADCAST, CV_ALGO_DIRECT, 4, 4), "broadcast direct");
    words_of(&r, 1, false, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "GPU 0 sends to GPU 2", "direct broadcast");
    run_free(&r);
}

/* A step that stays inside each rank says so once: recursive doubling's
 * local addition, a sub-phase of round 1. */
static void local_step(void)
{
    EXPECT(run(&r, CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, 4, 4), "recursive doubling");
    words_of(&r, 1, true, CV_LANG_EN, false, t, sizeof t);
    expect_has(t, "work stays inside each GPU", "recursive doubling's local reduce");
    expect_has(t, "Step 1 of 2 (local reduce)", "a sub-phase counts as its round");
    run_free(&r);
}

/* The header and body of a comparison name both algorithms. */
static void compare_titles(void)
{
    cv_spec s = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui__explain(&s, CV_ALGO_TREE, CV_LANG_EN, title, sizeof title, body, sizeof body);
    EXPECT(strcmp(title, "AllReduce: ring vs tree") == 0, "compare title '%s'", title);
    expect_has(body, "Left ring, right tree", "compare body");
    expect_has(body, "Ring: a ring reduce-scatter", "compare body, ring");
    expect_has(body, "Tree: a binomial reduce", "compare body, tree");
    gui__explain(&s, CV_ALGO_TREE, CV_LANG_ZH, title, sizeof title, body, sizeof body);
    expect_has(body, "左边 ring，右边 tree", "compare body, zh");
    EXPECT(strcmp(title, "AllReduce：ring 对比 tree") == 0, "compare title, zh: '%s'", title);
    gui__explain(&s, CV_ALGO_COUNT, CV_LANG_EN, title, sizeof title, body, sizeof body);
    EXPECT(strcmp(title, "AllReduce (ring)") == 0, "single title '%s'", title);
    EXPECT(strstr(body, "Left") == NULL, "single body mentions a comparison: '%s'", body);
}

/* A transfer of several chunks names them all (as the flight's label
 * does), a scratch's partial sums are named as such, and the switch's
 * own step says the switch adds. */
static void chunks_named(void)
{
    if (run(&r, CV_OP_ALLREDUCE, CV_ALGO_IN_NETWORK, 4, 8)) {
        words_of(&r, 0, false, CV_LANG_EN, false, t, sizeof t);
        expect_has(t, "a0\xE2\x80\xA6" "d0 = 0 1 2", "in-network, to the switch");
        words_of(&r, 1, true, CV_LANG_EN, false, t, sizeof t);
        expect_has(t, "the switch adds up what it received", "in-network, the switch's step");
        expect_not(t, "inside each GPU", "in-network, the switch's step");
        expect_not(t, "{", "in-network, scratch");
        expect_has(t, "scratch ", "in-network, scratch");
        words_of(&r, 1, true, CV_LANG_ZH, false, t, sizeof t);
        expect_has(t, "\xE4\xBA\xA4\xE6\x8D\xA2\xE6\x9C\xBA\xE6\x8A\x8A", "in-network, zh");
        expect_has(t, "\xE6\x9A\x82\xE5\xAD\x98 ", "in-network, scratch, zh");
        run_free(&r);
    } else
        EXPECT(false, "in-network allreduce did not run");
    if (run(&r, CV_OP_ALLREDUCE, CV_ALGO_TREE, 8, 8)) {
        words_of(&r, 1, true, CV_LANG_EN, false, t, sizeof t);
        expect_has(t, "a2+3\xE2\x80\xA6h2+3 + a0+1\xE2\x80\xA6h0+1", "tree, a whole buffer reduced");
        run_free(&r);
    } else
        EXPECT(false, "tree allreduce did not run");
}

/* With switches in the plan the sentence says who talks to them: only
 * the chain's tops take CollNet Chain's sum back, NVLS-Tree's GPUs talk to
 * their own node's switch, and a pipelined step that mixes GPU-to-GPU
 * sends with the switch's says so rather than "every GPU". */
static void switch_senders(void)
{
    if (run_nodes(&r, CV_OP_ALLREDUCE, CV_ALGO_COLLNET_CHAIN, 8, 2, 16)) {
        words_of(&r, 5, false, CV_LANG_EN, false, t, sizeof t); /* step 5: from the network */
        expect_has(t, "the switch sends to 2 GPUs", "collnet-chain, from the network");
        words_of(&r, 5, false, CV_LANG_ZH, false, t, sizeof t);
        expect_has(t, "\xE4\xBA\xA4\xE6\x8D\xA2\xE6\x9C\xBA\xE5\x8F\x91\xE7\xBB\x99 2 \xE4\xB8\xAA GPU",
                   "collnet-chain, from the network, zh");
        words_of(&r, 3, false, CV_LANG_EN, false, t, sizeof t); /* step 3: to the network */
        expect_has(t, "2 GPUs send to the switch", "collnet-chain, to the network");
        run_free(&r);
    } else
        EXPECT(false, "collnet-chain allreduce did not run");
    if (run_nodes(&r, CV_OP_ALLREDUCE, CV_ALGO_NVLS_TREE, 8, 2, 16)) {
        words_of(&r, 0, false, CV_LANG_EN, false, t, sizeof t);
        expect_has(t, "every GPU sends to its node's switch", "nvls-tree, the reducing load");
        words_of(&r, 3, false, CV_LANG_EN, false, t, sizeof t); /* step 3: sum to heads */
        expect_has(t, "each node's switch sends to every GPU of its node", "nvls-tree, sums");
        run_free(&r);
    } else
        EXPECT(false, "nvls-tree allreduce did not run");
    cv_spec s = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_COLLNET_CHAIN, 8, 16);
    s.nodes = 2;
    s.slices = 4;
    if (run_spec(&r, s)) {
        bool mixed = false;
        for (int k = 0; k < r.plan->nsteps; k++) {
            words_of(&r, k, false, CV_LANG_EN, false, t, sizeof t);
            mixed |= strstr(t, "GPUs send to each other and to and from the switch at once") != NULL;
            expect_not(t, "the switch sends to every GPU", "collnet-chain in 4 slices");
        }
        EXPECT(mixed, "no pipelined step of collnet-chain said it mixes GPUs and the switch");
        run_free(&r);
    } else
        EXPECT(false, "collnet-chain in 4 slices did not run");
}

/* While a step is in flight the panel heads it "In flight" and "Next"
 * is the step after it, never the one already flying; once it lands
 * it is what just happened and the next is still the one after. */
static void in_flight(void)
{
    rd_font_paths fp;
    char ferr[256];
    if (rd_fonts_find(COLLVIZ_SOURCE_DIR "/assets", &fp, ferr, sizeof ferr) == CV_OK) {
        cv_spec rs = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 4);
        gui *g = tr_gui(&rs, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
        g->t = 1.3; /* step 2 of 6 flying */
        gui__step_texts(g);
        EXPECT(g->text_flying, "t 1.3 is not in flight");
        expect_has(g->just_text, "Step 2 of 6", "in flight, the flying step");
        expect_not(g->just_text, " + ", "in flight, no arithmetic before it lands");
        expect_has(g->next_text, "Step 3 of 6", "in flight, next is the step after it");
        g->t = 1.8; /* step 2 landed */
        gui__step_texts(g);
        EXPECT(!g->text_flying, "t 1.8 is in flight");
        expect_has(g->just_text, "Step 2 of 6", "landed");
        expect_has(g->just_text, "d0+3 + d1 = 306 + 103 = 409", "landed, its arithmetic");
        expect_has(g->next_text, "Step 3 of 6", "landed, next");
        g->t = 5.2; /* the last step flying */
        gui__step_texts(g);
        expect_has(g->just_text, "Step 6 of 6", "the last step in flight");
        expect_has(g->next_text, "Nothing", "the last step in flight, nothing next");
        /* Home rewinds and pauses: the last words say so. */
        g->t = 6;
        gui__step_texts(g);
        expect_has(g->next_text, "Home goes back to the start", "the end");
        expect_not(g->next_text, "Home plays it again", "the end");
        gui_destroy(g);
    } else
        printf("in-flight narration skipped: %s\n", ferr);

}

static const test_case cases[] = {
    CASE("in-flight", in_flight),
    CASE("pair-texts", pair_texts),
    CASE("stock-sentences", stock_sentences),
    CASE("ring-round-2", ring_round_2),
    CASE("summary-16", summary_16),
    CASE("chunks-64", chunks_64),
    CASE("singular", singular),
    CASE("tree-reduce-4", tree_reduce_4),
    CASE("tree-reduce-16", tree_reduce_16),
    CASE("broadcast-direct", broadcast_direct),
    CASE("local-step", local_step),
    CASE("compare-titles", compare_titles),
    CASE("chunks-named", chunks_named),
    CASE("switch-senders", switch_senders),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
