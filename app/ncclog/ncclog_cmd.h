/*
 * ncclog_cmd.h: the `collviz nccl-log` command, and the one call the other
 * commands use to take a log (--nccl-log FILE): read it, pick the
 * communicator, and report problems as the command line does.
 */
#ifndef NCCLOG_CMD_H
#define NCCLOG_CMD_H

#include "ncclog.h"

/* `collviz nccl-log FILE|- [--comm ID] [--json]`; argv[0] is its name. */
int app_cmd_nccl_log(int argc, char **argv);

/* Reads path ("-": standard input) and, with comm non-NULL, picks the
 * communicator comm_id names (NULL: the only one). Prints one line and
 * returns APP_EXIT_USAGE on any problem (log freed); APP_EXIT_OK with log
 * to be freed by ncclog_free otherwise. */
int ncclog_open(const char *path, const char *comm_id, ncclog *log, const ncclog_comm **comm);

/* The summary `collviz nccl-log` prints for communicator c of log. */
void ncclog_print_summary(FILE *out, const ncclog *log, const ncclog_comm *c);

#endif /* NCCLOG_CMD_H */
