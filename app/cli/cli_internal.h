/*
 * cli_internal.h: what the files of app/cli/ share and nothing outside
 * them uses (prefix cli__).
 */
#ifndef CLI_INTERNAL_H
#define CLI_INTERNAL_H

#include "cli.h"
#include "jr.h"

/* Array arr of doc: one entry per rank, each that rank's buffer buf (send:
 * inputs; receive: a trace's results), checked against spec's layout and
 * dtype as --input is (cli_input.c). On a problem, false with one line
 * naming the place in err. Freed with cli_free_inputs. */
bool cli__read_buffers(const jr_doc *doc, jr_val arr, const cv_spec *s, cv_buf buf,
                       void ***buffers, char *err, size_t errlen);

#endif /* CLI_INTERNAL_H */
