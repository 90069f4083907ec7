/*
 * fuzz_ncclog.c: libFuzzer target for the NCCL log reader (built with
 * -DCOLLVIZ_FUZZ=ON and clang). A log is whatever a user captured from a
 * job, so no input may crash, hang or leak: the input is read as a log, and
 * every communicator that could be rebuilt is printed the way `collviz
 * nccl-log` prints it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ncclog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The CLI passes cli_escape; here any byte outside printable ASCII is a
 * '?', which exercises the same buffer sizes. */
static size_t escape(const char *s, char *out, size_t len)
{
    size_t n = 0;
    for (; *s && n + 1 < len; s++)
        out[n++] = *s >= 0x20 && *s < 0x7f ? *s : '?';
    out[n] = 0;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    if (!in)
        return 0;
    ncclog log;
    char err[1024];
    if (ncclog_read(in, "fuzz.log", &log, err, sizeof err) == 0) {
        for (int i = 0; i < log.ncomms; i++) {
            const ncclog_comm *c;
            if (ncclog_pick(&log, log.comms[i].id, &c, err, sizeof err) == 0)
                ncclog_print_summary(sink, &log, c, escape);
        }
        ncclog_destroy(&log);
    }
    fclose(in);
    return 0;
}
