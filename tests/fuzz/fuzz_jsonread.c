/*
 * fuzz_jsonread.c: libFuzzer target for collviz's one JSON reader
 * (collectives/json/jr.h) and `run --input`'s reader on top of it (built with
 * -DCOLLVIZ_FUZZ=ON and clang; scripts/fuzz.sh runs it for a bounded
 * time). Every JSON file collviz reads goes through the reader, so no
 * input may crash, hang or leak it: the input is read with a few sets of
 * limits, every value of what is accepted is walked and placed and named,
 * every refusal is formatted; then the same bytes are read as a trace
 * (`run --trace-out`'s file), and as --input for a spec the first byte
 * picks, as `run`, `gui` and `export` read a file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "jr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every value below v: its place, its name in messages, its number text. */
static void walk(const jr_doc *d, jr_val v, int depth)
{
    char text[80], line[600];
    int l, c;
    jr_position(d, jr_off(d, v), &l, &c);
    jr_position(d, jr_end(d, v), &l, &c);
    jr_position(d, jr_key_off(d, v), &l, &c);
    jr_found(d, v, text, sizeof text);
    jr_number_text(d, v, text, sizeof text);
    if (cJSON_IsNumber(v.j) && strlen(text) == 0)
        __builtin_trap(); /* a number always has its text */
    if (cJSON_IsString(v.j))
        jr_say(d, jr_off(d, v), line, sizeof line, "%s", v.j->valuestring);
    int n = 0;
    for (jr_val e = jr_child(d, v); e.j; e = jr_next(d, e), n++) {
        if (cJSON_IsObject(v.j) && !jr_member(d, v, e.j->string).j)
            __builtin_trap(); /* a member is found by its key */
        if (depth < 64)
            walk(d, e, depth + 1);
    }
    if (n != jr_count(v) || (n > 0 && !jr_item(d, v, n - 1).j) || jr_item(d, v, n).j)
        __builtin_trap(); /* walking, counting and indexing agree */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const jr_opts opts[] = {
        {0},
        {.text_name = "lesson text", .root_name = "the lesson", .max_depth = 4},
        {.allow_duplicates = true, .max_values = 64, .too_many = "at most 64"},
        {.max_bytes = 256},
    };
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        jr_doc d;
        jr_error e;
        char line[1500];
        if (jr_read_text("fuzz.json", (const char *)data, size, &opts[k], &d, &e) == JR_OK) {
            walk(&d, jr_root(&d), 0);
            jr_destroy(&d);
        } else {
            if (d.root || d.nodes || (e.line > 0 && e.line > (int)size + 1))
                __builtin_trap(); /* a refusal holds nothing, and its place is in the text */
            jr_error_text(&e, "fuzz.json", line, sizeof line);
        }
    }
    /* The same bytes as a trace (run --trace-out), as gui, export and the
     * page read one: refused in one line, or read whole. */
    cli_trace t;
    char tmsg[1600];
    if (cli_trace_parse("fuzz.json", (const char *)data, size, 8, &t, tmsg, sizeof tmsg))
        cli_trace_destroy(&t);
    else if (strchr(tmsg, '\n') || strchr(tmsg, '\033'))
        __builtin_trap(); /* one line, nothing raw */
    /* --input: the first byte picks the op, the ranks, the count and the
     * dtype; the rest is the file. */
    if (size < 1)
        return 0;
    static const cv_op ops[] = {CV_OP_ALLREDUCE, CV_OP_BROADCAST, CV_OP_ALLTOALL, CV_OP_GATHER};
    static const cv_dtype dtypes[] = {CV_FLOAT32, CV_INT8, CV_INT64, CV_FLOAT16};
    cv_spec s;
    cv_spec_init(&s);
    s.op = ops[data[0] & 3];
    s.ranks = 1 + ((data[0] >> 2) & 3);
    s.count = (data[0] >> 4) & 3;
    s.dtype = dtypes[(data[0] >> 6) & 3];
    s.root = s.ranks - 1;
    cv_algo algos[CV_ALGO_COUNT];
    if (cv_op_algos(s.op, algos) > 0)
        s.algo = algos[0];
    char err[CV_ERR_LEN];
    if (cv_spec_check(&s, CV_MAX_RANKS, err, sizeof err) != CV_OK)
        return 0;
    void **in = NULL;
    char msg[1600];
    if (cli_parse_inputs("fuzz.json", (const char *)data + 1, size - 1, &s, &in, msg,
                         sizeof msg))
        cli_free_inputs(in, s.ranks);
    else if (strchr(msg, '\n') || strchr(msg, '\033'))
        __builtin_trap(); /* one line, nothing raw */
    return 0;
}
