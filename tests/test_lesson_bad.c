/*
 * test_lesson_bad.c: every validator error has a file under
 * tests/lessons_bad/ and its exact message and file:line:column here, so a
 * change in wording or position is a deliberate one. Also: the 100 MB file
 * refused from its size before a byte is read, a broken file never stopping
 * the rest of the course, syntax corner cases the scanner must catch before
 * cJSON sees them, the cap on messages per file, and that shortened text
 * is always cut between UTF-8 characters.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lesson.h"
#include "check.h"

#define BAD_DIR COLLVIZ_SOURCE_DIR "/tests/lessons_bad/"

typedef struct {
    const char *file;
    int line, col;
    const char *message;
} expected;

/* Where a message lists the link presets: their table's list (cv_link_names),
 * never one written out here. */
#define LINKS "{link presets}"

/* message with LINKS replaced by the presets' names, in out. */
static const char *expand(const char *message, char *out, size_t len)
{
    const char *at = strstr(message, LINKS);
    if (!at)
        return message;
    char names[512];
    cv_link_names(", ", names, sizeof names);
    snprintf(out, len, "%.*s%s%s", (int)(at - message), message, names, at + strlen(LINKS));
    return out;
}

/* Every problem of every bad file, in the order the validator reports them. */
static const expected cases[] = {
    {"bad-array.json", 1, 1,
     "the lesson must be a JSON object, not an array"},
    {"bad-choice-answer.json", 20, 19,
     "beats[0].quiz.answer 5 is out of range: there are 2 choices (0 to 1)"},
    {"bad-claims.json", 11, 22,
     "beats[0].text.en states that each process group keeps its own flight-recorder buffer; in fact PyTorch's Flight Recorder is one ring buffer per process, shared by all its process groups, each entry tagged with its group's id: size TORCH_NCCL_TRACE_BUFFER_SIZE to one step's collectives over all groups (torch/csrc/distributed/c10d/FlightRecorder.hpp)"},
    {"bad-claims.json", 11, 476,
     "beats[0].text.zh states that each process group keeps its own flight-recorder buffer; in fact PyTorch's Flight Recorder is one ring buffer per process, shared by all its process groups, each entry tagged with its group's id: size TORCH_NCCL_TRACE_BUFFER_SIZE to one step's collectives over all groups (torch/csrc/distributed/c10d/FlightRecorder.hpp)"},
    {"bad-claims.json", 19, 26,
     "beats[0].quiz.choices[1].why.en states that each process group keeps its own flight-recorder buffer; in fact PyTorch's Flight Recorder is one ring buffer per process, shared by all its process groups, each entry tagged with its group's id: size TORCH_NCCL_TRACE_BUFFER_SIZE to one step's collectives over all groups (torch/csrc/distributed/c10d/FlightRecorder.hpp)"},
    {"bad-claims.json", 19, 339,
     "beats[0].quiz.choices[1].why.zh states that each process group keeps its own flight-recorder buffer; in fact PyTorch's Flight Recorder is one ring buffer per process, shared by all its process groups, each entry tagged with its group's id: size TORCH_NCCL_TRACE_BUFFER_SIZE to one step's collectives over all groups (torch/csrc/distributed/c10d/FlightRecorder.hpp)"},
    {"bad-claims.json", 22, 24,
     "beats[0].quiz.card.en states that each process group keeps its own flight-recorder buffer; in fact PyTorch's Flight Recorder is one ring buffer per process, shared by all its process groups, each entry tagged with its group's id: size TORCH_NCCL_TRACE_BUFFER_SIZE to one step's collectives over all groups (torch/csrc/distributed/c10d/FlightRecorder.hpp)"},
    {"bad-claims.json", 22, 289,
     "beats[0].quiz.card.zh states that each process group keeps its own flight-recorder buffer; in fact PyTorch's Flight Recorder is one ring buffer per process, shared by all its process groups, each entry tagged with its group's id: size TORCH_NCCL_TRACE_BUFFER_SIZE to one step's collectives over all groups (torch/csrc/distributed/c10d/FlightRecorder.hpp)"},
    {"bad-claims.json", 27, 22,
     "beats[1].text.en states that NCCL's tuner considers CollNet by itself where the hardware allows; in fact CollNet needs SHARP switches, NCCL's CollNet (SHARP) plugin and NCCL_COLLNET_ENABLE=1, whose default is 0; without them NCCL never considers it (NCCL environment variables: NCCL_COLLNET_ENABLE)"},
    {"bad-claims.json", 27, 198,
     "beats[1].text.zh states that NCCL's tuner considers CollNet by itself where the hardware allows; in fact CollNet needs SHARP switches, NCCL's CollNet (SHARP) plugin and NCCL_COLLNET_ENABLE=1, whose default is 0; without them NCCL never considers it (NCCL environment variables: NCCL_COLLNET_ENABLE)"},
    {"bad-claims.json", 35, 26,
     "beats[1].quiz.choices[1].why.en states that a decode dispatch's bytes do not matter; in fact in the pairwise model a 64-token decode dispatch over 8 nodes spends 64 of its 99 us on bytes, and DeepEP's low-latency kernels reach near the NIC's line rate from EP 32 up: FP8 halving the bytes matters; the low-latency kernel removes the CPU proxy, the counting round and the per-round waits (deepseek-ai/DeepEP README)"},
    {"bad-claims.json", 35, 176,
     "beats[1].quiz.choices[1].why.zh states that a decode dispatch's bytes do not matter; in fact in the pairwise model a 64-token decode dispatch over 8 nodes spends 64 of its 99 us on bytes, and DeepEP's low-latency kernels reach near the NIC's line rate from EP 32 up: FP8 halving the bytes matters; the low-latency kernel removes the CPU proxy, the counting round and the per-round waits (deepseek-ai/DeepEP README)"},
    {"bad-claims.json", 38, 24,
     "beats[1].quiz.card.en states that NCCL's tuner considers CollNet by itself where the hardware allows; in fact CollNet needs SHARP switches, NCCL's CollNet (SHARP) plugin and NCCL_COLLNET_ENABLE=1, whose default is 0; without them NCCL never considers it (NCCL environment variables: NCCL_COLLNET_ENABLE)"},
    {"bad-claims.json", 38, 367,
     "beats[1].quiz.card.zh states that NCCL's tuner considers CollNet by itself where the hardware allows; in fact CollNet needs SHARP switches, NCCL's CollNet (SHARP) plugin and NCCL_COLLNET_ENABLE=1, whose default is 0; without them NCCL never considers it (NCCL environment variables: NCCL_COLLNET_ENABLE)"},
    {"bad-cost-bytes.json", 32, 63,
     "beats[1].quiz.from_cost.bytes 1000 is not a whole number of elements: expected a multiple of 32 bytes (allgather of float32 on 8 ranks)"},
    {"bad-cost-crossover.json", 32, 22,
     "beats[1].quiz.from_cost.quantity crossover_kb needs \"versus\": the algorithm to compare with"},
    {"bad-cost-crossover.json", 45, 68,
     "beats[2].quiz.from_cost.versus \"tree\" must be another algorithm allreduce offers"},
    {"bad-cost-crossover.json", 58, 97,
     "beats[3].quiz.from_cost: a crossover quantity seeks the size; leave \"bytes\" out"},
    {"bad-cost-crossover.json", 71, 22,
     "beats[4].quiz.from_cost: ring and direct take the same time at one element; there is no crossover to ask about"},
    {"bad-cost-link.json", 32, 78,
     "beats[1].quiz.from_cost.link must be one of: " LINKS "; not \"nvlink9\""},
    {"bad-cost-nodes.json", 32, 88,
     "beats[1].quiz.from_cost.nodes 2 needs the link between nodes: \"inter_link\" (a preset) or \"inter_bw_gbps\""},
    {"bad-cost-nodes.json", 45, 104,
     "beats[2].quiz.from_cost: a link between nodes needs \"nodes\" of 2 or more (the ranks split into that many nodes)"},
    {"bad-cost-nodes.json", 58, 102,
     "beats[3].quiz.from_cost.quantity inter_steps counts traffic between nodes; give \"nodes\" of 2 or more"},
    {"bad-cost-nodes.json", 71, 22,
     "beats[4].quiz.from_cost: --nodes: 3 does not split 16 ranks evenly; allowed: a divisor of --ranks (1 = a single node)"},
    {"bad-cost-slices.json", 31, 96,
     "beats[1].quiz.from_cost.slices must be an integer from 1 to 4096, not 0"},
    {"bad-cost-slices.json", 44, 96,
     "beats[2].quiz.from_cost.slices 4 has no effect on allreduce ring; only the pipelined algorithms are cut into slices (collviz list)"},
    {"bad-cost-slices.json", 57, 93,
     "beats[3].quiz.from_cost.slices must be an integer from 1 to 4096, not 4097"},
    {"bad-cost.json", 31, 19,
     "cost model gives 12.25 ms for allreduce ring, 8 ranks, 1610612736 bytes of float16, 230 GB/s; the answer 4.7 differs by more than the tolerance 5%"},
    {"bad-diagram-label.json", 28, 28,
     "beats[0].diagram.boxes[0].label.zh is 66 bytes; a box label holds at most 63 bytes of UTF-8 on one line (a Chinese character takes 3): shorten it"},
    {"bad-diagram-label.json", 30, 40,
     "beats[0].diagram.boxes[1].label.en holds a line break or other control character; a box label is drawn on one line"},
    {"bad-diagram-label.json", 34, 54,
     "beats[0].diagram.arrows[0].label.en is 48 bytes; an arrow label holds at most 47 bytes of UTF-8 on one line (a Chinese character takes 3): shorten it"},
    {"bad-diagram.json", 31, 11,
     "beats[1].diagram.boxes[1]: box \"b\" (x 1 to 2, y 0 to 0) does not fit the 2x1 grid"},
    {"bad-diagram.json", 33, 40,
     "beats[1].diagram.arrows[0].to \"c\" names no box of this diagram"},
    {"bad-duplicate-ids.json", 28, 15,
     "duplicate quiz id \"q1\" (also beats[0].quiz)"},
    {"bad-duplicate-key.json", 3, 3,
     "duplicate key \"format\" in the lesson"},
    {"bad-facts.json", 43, 15,
     "figures[1] is 470 GB/s, but the fact h100-nvls-busbw is 480 GB/s (nccl-tests' all-reduce bus bandwidth on one 8×H100 NVSwitch node with NVLink SHARP (NVLS), NCCL's default there; nccl-tests issues #212, #290 (473.6 GB/s measured) and #309: the maintainers call about 480 GB/s the expected single-node busbw (tests/model/measured/README.md))"},
    {"bad-facts.json", 44, 44,
     "figures[2].fact \"h100-nvls\" is not in the facts table; expected one of: h100-nvls-busbw, h100-ring-busbw"},
    {"bad-facts.json", 45, 45,
     "figures[3] gives by hand what the fact h100-nvls-busbw states (480 GB/s, nccl-tests' all-reduce bus bandwidth on one 8×H100 NVSwitch node with NVLink SHARP (NVLS), NCCL's default there): write \"fact\": \"h100-nvls-busbw\" instead of \"given\", so every lesson takes it from one place"},
    {"bad-facts.json", 46, 5,
     "figures[4] needs exactly one of \"from_cost\" (the model computes it), \"fact\" (the course's facts table states it) and \"given\" (why it is not computed: an input, a measurement)"},
    {"bad-few-quizzes.json", 8, 12,
     "a lesson needs at least 2 quizzes; this one has 1"},
    {"bad-figure.json", 41, 15,
     "cost model gives 12.25 ms for allreduce ring, 8 ranks, 1610612736 bytes of float16, 230 GB/s; the figure 4.7 differs by more than the tolerance 5%"},
    {"bad-figure.json", 42, 15,
     "figures[1]: no en text of the lesson states \"12.25 ms\"; a figure must be written, value then unit, in every language"},
    {"bad-figure.json", 42, 15,
     "figures[1]: no zh text of the lesson states \"12.25 ms\"; a figure must be written, value then unit, in every language"},
    {"bad-figure.json", 44, 5,
     "figures[3] needs exactly one of \"from_cost\" (the model computes it), \"fact\" (the course's facts table states it) and \"given\" (why it is not computed: an input, a measurement)"},
    {"bad-figure.json", 45, 27,
     "figures[4].unit must be \"ms\" for quantity time_ms, not \"s\""},
    {"bad-file-name.json", 3, 9,
     "id \"bad-filename\" does not match the file name \"bad-file-name.json\"; expected the file to be named bad-filename.json"},
    {"bad-giveaway-around.json", 6, 12,
     "the en text of the title gives away the answer of beats[2].quiz (\"12 ms\"); say it after the quiz, in its explain or a later beat"},
    {"bad-giveaway-around.json", 7, 14,
     "the en text of the summary gives away the answer of beats[3].quiz (\"The root's data\"); reword the text or the choice"},
    {"bad-giveaway-around.json", 12, 15,
     "the en text of beats[0] gives away the answer of beats[1].quiz (\"0.875 GB\"); say it after the quiz, in its explain or a later beat"},
    {"bad-giveaway-around.json", 42, 15,
     "the en text of its beat gives away the answer of beats[3].quiz (\"The root's data\"); reword the text or the choice"},
    {"bad-giveaway-micro.json", 26, 15,
     "the en text gives away its quiz's answer (\"224 us\"); pose the problem here and show the arithmetic in the quiz's explain"},
    {"bad-giveaway-predict.json", 11, 15,
     "the en text of its beat gives away the answer of beats[0].quiz (2); say it after the quiz, in its explain or a later beat"},
    {"bad-giveaway.json", 26, 15,
     "the zh text gives away its quiz's answer (\"4.70 ms\"); pose the problem here and show the arithmetic in the quiz's explain"},
    {"bad-highlight.json", 12, 34,
     "beats[0].highlight.ranks[1] must be a rank from 0 to 3, not 4"},
    {"bad-highlight.json", 12, 49,
     "beats[0].highlight.chunks[0]: elements 3 to 4 are outside rank 0's recv buffer (4 elements, 0 to 3)"},
    {"bad-highlight.json", 12, 112,
     "beats[0].highlight.links[0] goes from rank 1 to itself; expected two different ranks"},
    {"bad-mistake-link.json", 21, 20,
     "beats[0].quiz.mistake 1 names no mistake card: the lesson has 1 (0 to 0)"},
    {"bad-mistake-link.json", 34, 20,
     "beats[1].quiz.mistake must be an integer from 0 to 49, not a string"},
    {"bad-missing-key.json", 1, 1,
     "missing required key \"setup\" in the lesson"},
    {"bad-not-json.json", 5, 3,
     "not JSON: expected ',' or '}' after an object member"},
    {"bad-plain-text.json", 1, 1,
     "not JSON: expected a value (object, array, string, number, true, false or null)"},
    {"bad-predict-cells.json", 16, 18,
     "beats[0].quiz.cells: rank 1 recv[3] is written by step 1 but not listed"},
    {"bad-predict-cells.json", 16, 18,
     "beats[0].quiz.cells: rank 2 send[0] is listed but not written by step 1"},
    {"bad-predict-value.json", 18, 19,
     "the trace holds 2 at rank 1 recv[2] after step 1; options[0] is 102"},
    {"bad-setup-switch.json", 26, 25,
     "beats[1].setup.algo \"ring\" is not offered for sendrecv; expected one of: direct"},
    {"bad-step-range.json", 25, 15,
     "step 12 is beyond the plan's step count 1 (sendrecv direct on 4 ranks); expected 0 to 1, \"start\" or \"end\""},
    {"bad-timeline.json", 35, 11,
     "beats[1].timeline.blocks[1] (8 to 18 ms) overlaps beats[1].timeline.blocks[0] (0 to 10 ms) on lane \"compute\"; a lane runs one block at a time"},
    {"bad-timeline.json", 36, 70,
     "beats[1].timeline.blocks[2].duration of a comm block comes from the cost model: give {\"from_cost\": {...}} as a figure does, not a number"},
    {"bad-timeline.json", 37, 20,
     "beats[1].timeline.blocks[3].lane \"network\" names no lane of this timeline"},
    {"bad-timeline.json", 38, 37,
     "beats[1].timeline.blocks[4].after \"g\" names no earlier block of this timeline"},
    {"bad-timeline.json", 39, 53,
     "beats[1].timeline.blocks[5].duration must be a number: only a comm block's duration comes from the cost model, not an object"},
    {"bad-timeline.json", 40, 163,
     "beats[1].timeline.blocks[6].duration.from_cost.quantity must be time_ms: the timeline is drawn in ms"},
    {"bad-timeline.json", 41, 66,
     "beats[1].timeline.blocks[7].label.zh is 36 bytes; a block label holds at most 31 bytes of UTF-8 on one line (a Chinese character takes 3): shorten it"},
    {"bad-trailing-comma.json", 19, 9,
     "not JSON: expected a value after ',' (JSON allows no trailing comma)"},
    {"bad-translation.json", 11, 15,
     "missing translation: beats[0].text has no \"zh\" text"},
    {"bad-translation.json", 26, 22,
     "missing translation: beats[1].text.en is empty"},
    {"bad-unit.json", 31, 17,
     "beats[1].quiz.unit must be \"ms\" for quantity time_ms, not \"s\""},
    {"bad-unknown-key.json", 6, 3,
     "unknown key \"titel\" in the lesson; expected one of: format, id, track, order, title, summary, setup, beats, mistakes, sources, figures"},
    {"bad-utf8.json", 6, 42,
     "not JSON: invalid UTF-8 byte 0xFF in a string"},
    {"bad-wrong-type.json", 7, 40,
     "setup.ranks must be an integer from 1 to 16, not a string"},
};

static void test_each_file(void)
{
    size_t n = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n;) {
        /* all expectations of one file */
        size_t j = i;
        while (j < n && strcmp(cases[j].file, cases[i].file) == 0)
            j++;
        char path[512];
        snprintf(path, sizeof path, BAD_DIR "%s", cases[i].file);
        lesson_diags d;
        lesson_diags_init(&d);
        lesson *l = NULL;
        int rc = lesson_load_file(path, 0, &l, &d);
        EXPECT(rc != 0 && l == NULL, "%s loaded", cases[i].file);
        EXPECT(d.count == (int)(j - i), "%s: %d messages, expected %d", cases[i].file, d.count,
              (int)(j - i));
        for (size_t k = i; k < j && (int)(k - i) < d.count; k++) {
            const lesson_diag *g = &d.items[k - i];
            EXPECT(strcmp(g->file, path) == 0, "%s", g->file);
            EXPECT(g->line == cases[k].line && g->col == cases[k].col, "%s: at %d:%d, expected %d:%d",
                  cases[k].file, g->line, g->col, cases[k].line, cases[k].col);
            char buf[1024];
            const char *want = expand(cases[k].message, buf, sizeof buf);
            EXPECT(strcmp(g->message, want) == 0, "%s:\n  got      %s\n  expected %s",
                  cases[k].file, g->message, want);
        }
        lesson_destroy(l);
        lesson_diags_destroy(&d);
        i = j;
    }
}

/* Loading the whole directory: every file is reported, one lesson loads,
 * the second of two lessons sharing a track position is refused, and so is
 * a lesson that repeats a number question: a shipped lesson's, by setup or
 * by answer and unit, or its own. */
static void test_directory(void)
{
    lesson_diags d;
    lesson_diags_init(&d);
    lesson_course c;
    lesson_course_init(&c);
    /* The shipped course first: a later file that repeats one of its
     * questions is the one refused. */
    const char *paths[2] = {COLLVIZ_SOURCE_DIR "/lessons", BAD_DIR};
    int bad = lesson_course_load(&c, paths, 2, 0, &d);
    EXPECT(lesson_course_find(&c, "bad-order-a") >= 0, "bad-order-a loads");
    EXPECT(lesson_course_find(&c, "bad-order-b") < 0, "bad-order-b is refused");
    EXPECT(lesson_course_find(&c, "prim-sendrecv") >= 0, "the shipped course still loads");
    EXPECT(lesson_course_find(&c, "algo-ring-allreduce") >= 0, "the shipped course still loads");
    bool order_reported = false;
    for (int i = 0; i < d.count; i++)
        if (strstr(d.items[i].file, "bad-order-b.json") && d.items[i].line == 5 &&
            d.items[i].col == 12 &&
            strstr(d.items[i].message, "duplicate order 19 in track primitives (also "))
            order_reported = true;
    EXPECT(order_reported, "duplicate order reported at bad-order-b.json:5:12");
    /* a number quiz the shipped course already asks, found across files */
    bool dup_reported = false;
    for (int i = 0; i < d.count; i++)
        if (strstr(d.items[i].file, "bad-duplicate-quiz.json") && d.items[i].line == 28 &&
            strstr(d.items[i].message, "number quiz \"q2\" asks the same question as "
                                       "prim-gather/gather-time"))
            dup_reported = true;
    EXPECT(dup_reported, "duplicate number quiz reported at bad-duplicate-quiz.json:28");
    EXPECT(lesson_course_find(&c, "bad-duplicate-quiz") < 0, "bad-duplicate-quiz is refused");
    EXPECT(lesson_course_find(&c, "prim-gather") >= 0, "the lesson it repeats stays");
    /* the same within one lesson, and a hand-typed answer that a shipped
     * quiz computes from the cost model (7 ms), found by value and unit */
    bool inner_reported = false, typed_reported = false;
    for (int i = 0; i < d.count; i++) {
        if (strstr(d.items[i].file, "bad-duplicate-inner.json") && d.items[i].line == 26 &&
            strstr(d.items[i].message, "number quiz \"q2\" asks the same question as "
                                       "bad-duplicate-inner/q1"))
            inner_reported = true;
        if (strstr(d.items[i].file, "bad-duplicate-typed.json") && d.items[i].line == 28 &&
            strstr(d.items[i].message, "number quiz \"q2\" asks the same question as "
                                       "prim-gather/gather-time") &&
            strstr(d.items[i].message, "the same answer and unit"))
            typed_reported = true;
    }
    EXPECT(inner_reported, "duplicate quiz in one lesson reported at bad-duplicate-inner.json:26");
    EXPECT(typed_reported, "hand-typed 7 ms reported at bad-duplicate-typed.json:28");
    EXPECT(lesson_course_find(&c, "bad-duplicate-inner") < 0, "bad-duplicate-inner is refused");
    EXPECT(lesson_course_find(&c, "bad-duplicate-typed") < 0, "bad-duplicate-typed is refused");
    /* every file but bad-order-a has a problem */
    int files = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        files += i == 0 || strcmp(cases[i].file, cases[i - 1].file) != 0;
    EXPECT(bad == files + 4, "%d files with problems, expected %d", bad, files + 4);
    lesson_course_destroy(&c);
    lesson_diags_destroy(&d);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A 100 MB file is refused from its size: quickly, with a clear message,
 * and without reading it (the file is sparse, so reading it would still be
 * slow to scan). */
static void test_huge_file(void)
{
    const char *path = COLLVIZ_BINARY_DIR "/lesson-huge.json";
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    EXPECT(fd >= 0, "create %s", path);
    if (fd < 0)
        return;
    EXPECT(write(fd, "{", 1) == 1 && ftruncate(fd, 100 * 1000 * 1000) == 0, "grow");
    close(fd);
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    double t0 = now();
    int rc = lesson_load_file(path, 0, &l, &d);
    double dt = now() - t0;
    EXPECT(rc != 0 && !l && d.count == 1, "refused");
    EXPECT(d.count == 1 && d.items[0].line == 1 && d.items[0].col == 1 &&
              strcmp(d.items[0].message, "file is 100000000 bytes; the limit is 1048576 (1 MiB)") == 0,
          "%s", d.count ? d.items[0].message : "");
    EXPECT(dt < 0.5, "took %.3f s", dt);
    lesson_diags_destroy(&d);

    /* the same through the buffer entry point (the fuzzer's) */
    lesson_diags_init(&d);
    size_t big = (size_t)LESSON_MAX_FILE_BYTES + 1;
    char *buf = calloc(big, 1);
    rc = lesson_load_buffer("big", buf, big, 0, &l, &d);
    EXPECT(rc != 0 && d.count == 1 && strstr(d.items[0].message, "the limit is 1048576"), "buffer");
    free(buf);
    lesson_diags_destroy(&d);
    unlink(path);
}

/* Syntax corner cases: what the scanner must refuse, with where. */
static void test_syntax(void)
{
    static const struct {
        const char *text;
        int line, col;
        const char *message;
    } cases2[] = {
        {"", 1, 1, "not JSON: unexpected end of file; expected a value (object, array, string, number, true, false or null)"},
        {"{\"a\": 1", 1, 8, "not JSON: unexpected end of file; expected ',' or '}'"},
        {"{\"a\": 01}", 1, 7, "not JSON: invalid number: leading zeros are not allowed"},
        {"{\"a\": \"\\ud800\"}", 1, 8, "not JSON: unpaired high surrogate \\uD800; expected a \\uDC00 to \\uDFFF escape after it"},
        {"{\"a\": \"\\u0000\"}", 1, 8, "not JSON: \\u0000 is not allowed in a string"},
        {"{\"a\": \"x\ny\"}", 1, 9, "not JSON: control character U+000A inside a string; expected it written as an escape such as \\n or \\t"},
        {"{\"a\": \"\\q\"}", 1, 8, "not JSON: invalid escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"},
        {"{// note\n}", 1, 2, "not JSON: expected a key in double quotes or '}'"},
        {"{\"a\": // note\n1}", 1, 7, "not JSON: comments are not allowed in JSON; expected a value (object, array, string, number, true, false or null)"},
        {"{'a': 1}", 1, 2, "not JSON: expected a key in double quotes or '}'"},
        {"{\"a\" 1}", 1, 6, "not JSON: expected ':' after the key"},
        {"{} {}", 1, 4, "not JSON: unexpected text after the end of the JSON value"},
        {"{\"a\": tru}", 1, 7, "not JSON: expected a value (object, array, string, number, true, false or null)"},
        {"{\"a\": 1.}", 1, 9, "not JSON: invalid number; expected a digit after '.'"},
        {"{\"a\": \"unterminated}", 1, 7, "not JSON: unterminated string; expected a closing '\"'"},
        /* marks a terminal or the window acts on, escaped and raw */
        {"{\"a\": \"x\\u061cy\"}", 1, 9, "U+061C in a string: control, bidirectional, separator and zero-width no-break characters are not allowed in lesson text (a terminal would act on them)"},
        {"{\"a\": \"x\xd8\x9cy\"}", 1, 9, "U+061C in a string: control, bidirectional, separator and zero-width no-break characters are not allowed in lesson text (a terminal would act on them)"},
        {"{\"a\": \"x\\ufeffy\"}", 1, 9, "U+FEFF in a string: control, bidirectional, separator and zero-width no-break characters are not allowed in lesson text (a terminal would act on them)"},
        {"{\"a\": \"\xef\xbb\xbfy\"}", 1, 8, "U+FEFF in a string: control, bidirectional, separator and zero-width no-break characters are not allowed in lesson text (a terminal would act on them)"},
        {"{\"a\": \"x\\u2028y\"}", 1, 9, "U+2028 in a string: control, bidirectional, separator and zero-width no-break characters are not allowed in lesson text (a terminal would act on them)"},
        {"{\"a\":\n \"xy\xe2\x80\xa9\"}", 2, 5, "U+2029 in a string: control, bidirectional, separator and zero-width no-break characters are not allowed in lesson text (a terminal would act on them)"},
        {"{\"a\":\n  \"\xe4\xb8\xad\xe6\x96\x87\", \"b\": [1,,2]}", 2, 17, "not JSON: expected a value (object, array, string, number, true, false or null)"},
        /* the shared reader's: a key given twice anywhere, named with its
         * object's path (the walker used to see only the objects it
         * walked), and a NUL byte (the text does not end there) */
        {"{\"beats\": [{\"quiz\": {\"id\": 1,\n \"id\": 2}}]}", 2, 2, "duplicate key \"id\" in beats[0].quiz"},
        {"{\"format\": 1,\n \"x\": {\"a\": 1, \"a\": 2}}", 2, 16, "duplicate key \"a\" in x"},
    };
    for (size_t i = 0; i < sizeof cases2 / sizeof cases2[0]; i++) {
        lesson_diags d;
        lesson_diags_init(&d);
        lesson *l = NULL;
        lesson_load_buffer("t.json", cases2[i].text, strlen(cases2[i].text), 0, &l, &d);
        EXPECT(l == NULL && d.count == 1, "case %zu: %d messages", i, d.count);
        if (d.count >= 1) {
            EXPECT(d.items[0].line == cases2[i].line && d.items[0].col == cases2[i].col,
                  "case %zu at %d:%d, expected %d:%d", i, d.items[0].line, d.items[0].col,
                  cases2[i].line, cases2[i].col);
            EXPECT(strcmp(d.items[0].message, cases2[i].message) == 0,
                  "case %zu:\n  got      %s\n  expected %s", i, d.items[0].message,
                  cases2[i].message);
        }
        lesson_diags_destroy(&d);
    }

    lesson_diags d;
    lesson *l = NULL;
    lesson_diags_init(&d);
    lesson_load_buffer("nul.json", "{\"format\": 1,\n\0 \"id\": 2}", 24, 0, &l, &d);
    EXPECT(l == NULL && d.count == 1 && d.items[0].line == 2 && d.items[0].col == 1 &&
               strstr(d.items[0].message, "a NUL byte"),
           "NUL: %s", d.count ? d.items[0].message : "");
    lesson_diags_destroy(&d);

    /* nesting is capped before it can hurt */
    char deep[256] = "{\"a\": ";
    for (int i = 0; i < 40; i++)
        strcat(deep, "[");
    lesson_diags_init(&d);
    lesson_load_buffer("deep.json", deep, strlen(deep), 0, &l, &d);
    EXPECT(d.count == 1 && strstr(d.items[0].message, "nesting deeper than 32 levels"), "depth");
    lesson_diags_destroy(&d);

    /* a byte order mark is accepted and columns on line 1 do not count it */
    const char *bom = "\xEF\xBB\xBF{\"format\": 2}";
    lesson_diags_init(&d);
    lesson_load_buffer("bom.json", bom, strlen(bom), 0, &l, &d);
    EXPECT(d.count >= 1 && d.items[0].line == 1 && d.items[0].col == 1 &&
              strstr(d.items[0].message, "missing required key"),
          "bom: %s", d.count ? d.items[0].message : "");
    lesson_diags_destroy(&d);
}

/* A number is quoted as the file writes it: "ranks": 20 is "not 20", where
 * it was "not 2e+01", and "order": -70 "not -70". */
static void test_number_text(void)
{
    const char *text = "{\"format\": 1, \"id\": \"n\", \"track\": \"primitives\", "
                       "\"order\": -70,\n \"setup\": {\"op\": \"allreduce\", \"ranks\": 20, "
                       "\"count\": 1.5e1}}";
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    lesson_load_buffer("n.json", text, strlen(text), LESSON_LOAD_NO_TRACE, &l, &d);
    bool order = false, ranks = false, exp = false;
    for (int i = 0; i < d.count; i++) {
        const char *m = d.items[i].message;
        order = order || (d.items[i].line == 1 && d.items[i].col == 58 &&
                          !strcmp(m, "order must be an integer from 1 to 100000, not -70"));
        ranks = ranks || (d.items[i].line == 2 && d.items[i].col == 40 &&
                          !strcmp(m, "setup.ranks must be an integer from 1 to 16, not 20"));
        exp = exp || strstr(m, "e+0") != NULL;
    }
    EXPECT(order && ranks && !exp, "numbers as written: %d %d %d", order, ranks, exp);
    lesson_diags_destroy(&d);
}

/* A file with hundreds of problems reports at most 100 of them. */
static void test_message_cap(void)
{
    size_t cap = 64 * 1024, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "{");
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(text + n, cap - n, "\"k%d\": 1, ", i);
    n += (size_t)snprintf(text + n, cap - n, "\"z\": 0}");
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    lesson_load_buffer("many.json", text, n, 0, &l, &d);
    EXPECT(d.count == 100, "%d messages", d.count);
    bool capped = false;
    for (int i = 0; i < d.count; i++)
        capped = capped || strstr(d.items[i].message, "too many problems");
    EXPECT(capped, "the cap is announced");
    lesson_diags_destroy(&d);
    free(text);
}

/* Is s well-formed UTF-8 (no sequence cut short, no stray continuation)? */
static bool valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : *p >= 0xF0 ? 3 : *p >= 0xE0 ? 2 : *p >= 0xC0 ? 1 : -1;
        if (n < 0)
            return false;
        p++;
        for (int i = 0; i < n; i++, p++)
            if ((*p & 0xC0) != 0x80)
                return false;
    }
    return true;
}

/* Whatever is shortened is cut between characters: the helpers, strings
 * of the file quoted in messages, and a message longer than its buffer. */
static void test_utf8_cuts(void)
{
    const char *zh = "\xE4\xB8\xAD\xE6\x96\x87"; /* two characters, 3 bytes each */
    EXPECT(lesson_utf8_prefix(zh, 6) == 6 && lesson_utf8_prefix(zh, 99) == 6, "all fits");
    EXPECT(lesson_utf8_prefix(zh, 5) == 3 && lesson_utf8_prefix(zh, 4) == 3, "cut after one");
    EXPECT(lesson_utf8_prefix(zh, 3) == 3 && lesson_utf8_prefix(zh, 2) == 0, "cut before one");
    EXPECT(lesson_utf8_prefix("ab\xC3\xA9", 3) == 2, "two-byte character");
    EXPECT(lesson_utf8_prefix("\xF0\x9F\x99\x82!", 3) == 0, "four-byte character");
    char out[8];
    EXPECT(!lesson_utf8_copy(out, 5, zh) && strcmp(out, "\xE4\xB8\xAD") == 0, "copy cuts");
    EXPECT(lesson_utf8_copy(out, 7, zh) && strcmp(out, zh) == 0, "copy fits");
    EXPECT(!lesson_utf8_copy(out, 1, zh) && out[0] == '\0', "room for the NUL only");

    /* 100 Chinese characters (300 bytes) as an unknown key and as a wrong
     * enum value, at a byte offset where a plain 64-byte cut would split
     * a character */
    char big[400] = "";
    for (int i = 0; i < 100; i++)
        strcat(big, "\xE4\xB8\xAD");
    char text[2048];
    snprintf(text, sizeof text,
             "{\"format\": 1, \"id\": \"t\", \"track\": \"%s\", \"order\": 1, \"%s\": 1}", big,
             big);
    lesson_diags d;
    lesson_diags_init(&d);
    lesson *l = NULL;
    lesson_load_buffer(NULL, text, strlen(text), 0, &l, &d);
    int quoted = 0;
    for (int i = 0; i < d.count; i++) {
        EXPECT(valid_utf8(d.items[i].message), "message %d is cut inside a character: %s", i,
              d.items[i].message);
        if (strstr(d.items[i].message, "\xE4\xB8\xAD\xE2\x80\xA6\"")) /* ...中…" */
            quoted++;
    }
    EXPECT(quoted == 2, "both long strings quoted shortened, with an ellipsis (%d)", quoted);
    lesson_diags_destroy(&d);

    /* a message longer than the list's buffer */
    static char huge[3001];
    for (int i = 0; i < 1000; i++)
        memcpy(huge + 3 * i, "\xE4\xB8\xAD", 3);
    lesson_diags_init(&d);
    lesson_diags_add(&d, "f.json", 1, 1, "x%s", huge);
    EXPECT(d.count == 1 && strlen(d.items[0].message) < 2048 && valid_utf8(d.items[0].message),
          "a long message ends on a whole character");
    lesson_diags_destroy(&d);
}

static const test_case suite[] = {
    CASE("each-file", test_each_file),
    CASE("directory", test_directory),
    CASE("huge-file", test_huge_file),
    CASE("syntax", test_syntax),
    CASE("number-text", test_number_text),
    CASE("message-cap", test_message_cap),
    CASE("utf8-cuts", test_utf8_cuts),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, suite); }
