/*
 * lesson_claims.c: statements the course once made and found wrong, so
 * that none comes back. Each entry is a wrong claim as words that appear
 * together in one sentence (in either language), words that make the
 * sentence right after all (it names the condition the claim left out),
 * and what is true, with its source. Every text of a lesson is checked
 * against the table as it is read (lesson__read_text); a sentence that
 * states a claim is an error at its string: "beats[2].text.en states that
 * ...; in fact ...". The table holds only claims a review found in the
 * course, each with the text that made it in tests/lessons_bad/bad-claims.json.
 */
#include <ctype.h>
#include <string.h>

#include "lesson_walk.h"

typedef struct {
    /* Each term is a list of alternatives split by '|'; the sentence must
     * hold one alternative of every term. Matching ignores ASCII case. */
    const char *all[3];
    const char *unless; /* alternatives: any of them excuses the sentence (NULL: none) */
    const char *claim;  /* the wrong statement, for the message */
    const char *truth;  /* what is true, and where it is written */
} claim;

#define FLIGHT_RECORDER                                                                            \
    "each process group keeps its own flight-recorder buffer",                                     \
        "PyTorch's Flight Recorder is one ring buffer per process, shared by all its process "     \
        "groups, each entry tagged with its group's id: size TORCH_NCCL_TRACE_BUFFER_SIZE to one " \
        "step's collectives over all groups (torch/csrc/distributed/c10d/FlightRecorder.hpp)"
#define COLLNET_AUTO                                                                               \
    "NCCL's tuner considers CollNet by itself where the hardware allows",                          \
        "CollNet needs SHARP switches, NCCL's CollNet (SHARP) plugin and NCCL_COLLNET_ENABLE=1, "  \
        "whose default is 0; without them NCCL never considers it (NCCL environment variables: "   \
        "NCCL_COLLNET_ENABLE)"
#define DISPATCH_BYTES                                                                             \
    "a decode dispatch's bytes do not matter",                                                     \
        "in the pairwise model a 64-token decode dispatch over 8 nodes spends 64 of its 99 us on " \
        "bytes, and DeepEP's low-latency kernels reach near the NIC's line rate from EP 32 up: "   \
        "FP8 halving the bytes matters; the low-latency kernel removes the CPU proxy, the "        \
        "counting round and the per-round waits (deepseek-ai/DeepEP README)"

static const claim claims[] = {
    /* par-faults: "every process group keeps a ring buffer ... DP or PP
     * groups need their own estimate". */
    {{"TRACE_BUFFER|flight recorder|ring buffer|own buffer",
      "every process group|each process group|per group|each group|own estimate", NULL},
     "all groups|all process groups|one buffer|single buffer|shared by|singleton",
     FLIGHT_RECORDER},
    {{"TRACE_BUFFER|飞行记录器|环形缓冲区|自己的缓冲区", "每个进程组|每个组|各自估算", NULL},
     "所有进程组|所有组|共用|共享|单例",
     FLIGHT_RECORDER},
    /* algo-in-network, algo-nccl-choice: "NVLS, CollNet and PAT the tuner
     * considers by itself wherever the hardware allows them". */
    {{"CollNet",
      "by itself|automatically|on its own|where the hardware allows|depending on the hardware|"
      "chosen by the tuner",
      NULL},
     "NCCL_COLLNET_ENABLE=1",
     COLLNET_AUTO},
    {{"CollNet", "自行|自动|只要硬件允许|硬件允许时|视硬件|都由调优器", NULL},
     "NCCL_COLLNET_ENABLE=1",
     COLLNET_AUTO},
    /* par-inf-ep: "at decode the bytes are not what takes the time", beside
     * a dispatch whose bytes were 64 of its 99 µs. */
    {{"bytes", "not what takes the time|do not matter|don't matter|does not matter", NULL},
     NULL,
     DISPATCH_BYTES},
    {{"花时间的不是字节|字节无关紧要|字节不重要", NULL, NULL}, NULL, DISPATCH_BYTES},
};

/* Does [s, e) hold needle, ASCII case aside? */
static bool holds(const char *s, const char *e, const char *needle, size_t n)
{
    if (n == 0 || (size_t)(e - s) < n)
        return false;
    for (const char *p = s; p + n <= e; p++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)p[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* Does [s, e) hold one of the '|'-separated alternatives of term? */
bool lesson__holds_any(const char *s, const char *e, const char *term)
{
    while (term && *term) {
        const char *bar = strchr(term, '|');
        size_t n = bar ? (size_t)(bar - term) : strlen(term);
        if (holds(s, e, term, n))
            return true;
        term = bar ? bar + 1 : NULL;
    }
    return false;
}

/* The end of the sentence that starts at s: a full stop, question or
 * exclamation mark, or semicolon followed by a space or the end, a
 * paragraph break, or a Chinese full stop or semicolon. "2.17" and
 * "e.g." inside a word do not end it. */
static const char *sentence_end(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '\n')
            return p;
        if (strchr(".;?!", *p) && (p[1] == ' ' || p[1] == '\n' || p[1] == '\0'))
            return p + 1;
        if (!strncmp(p, "。", 3) || !strncmp(p, "；", 3)) /* 。 ； */
            return p + 3;
    }
    return s + strlen(s);
}

static bool states(const claim *k, const char *s, const char *e)
{
    for (int i = 0; i < 3 && k->all[i]; i++)
        if (!lesson__holds_any(s, e, k->all[i]))
            return false;
    return !k->unless || !lesson__holds_any(s, e, k->unless);
}

void lesson__check_claims(lesson__ctx *c, size_t off, const char *where, const char *text)
{
    for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++) {
        for (const char *s = text; *s;) {
            const char *e = sentence_end(s);
            if (states(&claims[i], s, e)) {
                lesson__err(c, off, "%s states that %s; in fact %s", where, claims[i].claim,
                            claims[i].truth);
                break;
            }
            s = e + (*e == '\n' || *e == ' '); /* past the break; e > s otherwise */
        }
    }
}
