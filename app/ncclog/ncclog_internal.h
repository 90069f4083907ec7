/*
 * ncclog_internal.h: what ncclog_line.c (one line -> facts) hands to
 * ncclog_build.c (facts -> communicators), prefix ncclog__.
 *
 * A fact is one thing a line asserted ("on channel 2 rank 5 sends to 6"),
 * kept with its line number. Facts belong to an epoch: the stretch of one
 * printer's lines (one host:pid:tid [dev]) between two communicator
 * initialisations. Which communicator an epoch belongs to is often known
 * only at its end (older NCCL names the communicator in "Init COMPLETE",
 * after the rings), so epochs are resolved once the whole log is read.
 *
 * NCCL's "comm 0x..." is each process's own pointer to its communicator
 * object: every rank of one communicator prints a different one. Only the
 * "commId 0x..." of newer NCCL's Init START/COMPLETE lines is shared, so an
 * epoch keeps both, and ncclog_build.c groups the pointers into
 * communicators.
 */
#ifndef NCCLOG_INTERNAL_H
#define NCCLOG_INTERNAL_H

#include "ncclog.h"

typedef enum {
    NCCLOG__SUMMARY, /* a, b: offset and length of the ranks in the pool; c: channels said */
    NCCLOG__RING,    /* a -> b -> c: prev, self, next */
    NCCLOG__CONN,    /* a -> b, via; flag: printed after "Connected all rings" */
    NCCLOG__TREE,    /* a: parent, b: self, down[]: children */
    NCCLOG__TREE_OLD /* the same, from "Tree c : parent -> self -> children" */
} ncclog__kind;

/* A fact is kept once (a repeated line adds nothing), and the log's facts
 * are bounded (NCCLOG_MAX_FACTS): a transport's text is kept once in the
 * reader's table of them and named by its index. */
typedef struct {
    uint8_t kind;
    uint8_t after_rings; /* CONN: a tree's (or a later) connection, not a ring's */
    int16_t channel;
    int16_t via;         /* CONN: index into the reader's vias, -1 none */
    int32_t epoch;
    int64_t line;
    int32_t a, b, c;
    int32_t down[3];
} ncclog__fact;

#define NCCLOG__VIAS 256 /* distinct transport texts kept */

/* One printer's stretch of lines for one communicator. */
typedef struct {
    int printer;          /* index into the printers */
    char ptr[24];         /* the process's "comm 0x..." pointer, "" until a line names it */
    char commid[24];      /* the shared "commId 0x...", "" where no line gave it */
    int prev;             /* the printer's previous epoch (late lines follow it), -1 */
    int rank;             /* from a "comm ... rank r" line, -1 */
    int nranks, nnodes;   /* from a "comm" line, -1 */
    int local_rank, cuda_dev;
    long first_line;
    bool has_facts;
    int self;             /* the rank its ring and tree lines are about (rank 0 for a
                             summary), -1 none, -2 several */
    int total;            /* the channel count its summary lines said, 0 none */
    int banner;           /* version lines read before it opened */
    int version;          /* index into the reader's versions, -1 none */
    bool conn_unsure;     /* "Connected all trees" came with no "Connected all rings": its
                             connection lines may be the trees' */
    bool rings_said;      /* it printed "Connected all rings" */
} ncclog__epoch;

typedef struct {
    char key[NCCLOG_HOST_LEN + 48];  /* host:pid:tid[dev] */
    char proc[NCCLOG_HOST_LEN + 48]; /* host:pid[dev]: the process and device, any thread */
    char host[NCCLOG_HOST_LEN];
    long pid;                        /* -1 where the prefix shows none */
    int cuda_dev;
    int epoch;            /* its current epoch */
    int last_epoch;       /* its last finished epoch, -1 */
    bool rings_connected; /* "Connected all rings" seen in this epoch */
} ncclog__printer;

typedef struct {
    ncclog *log;
    ncclog__fact *facts;
    size_t nfacts, capfacts;
    int32_t *pool; /* summary ranks */
    size_t npool, cappool;
    ncclog__epoch *epochs;
    int nepochs, capepochs;
    ncclog__printer *printers;
    int nprinters, capprinters;
    int *printer_hash; /* open addressing: index + 1, 0 = empty */
    int hashcap;
    uint32_t *fact_hash; /* open addressing over facts: index + 1, 0 = empty */
    size_t facthashcap;
    char (*vias)[NCCLOG_VIA_LEN];
    int nvias;
    char versions[16][32]; /* distinct versions printed, in order */
    int nversions, banners, cur_version;
    int last_coll[2];      /* the collective of the last "Coll: opCount" line, and its printer */
    int tuning_block;      /* 1: reading a table, 0: skipping another's, -1: none seen */
    int cols_algo[27], cols_proto[27]; /* the block's columns */
    int tuning_ncols;
    long line;
    char *err;
    size_t errlen;
} ncclog__reader;

/* The reading stops at the current line for a reason (a bound reached): 1. */
int ncclog__stop(ncclog__reader *r, const char *why);
/* Tuning table and per-call lines (ncclog_tune.c): 1 where the line was one. */
int ncclog__tuning_line(ncclog__reader *r, int printer, const char *msg);

/* Reads one line (without its end); -1 with reader->err set on a line that
 * is wrong beyond repair (a rank out of range), 1 where a bound on what is
 * kept stops the reading here (ncclog__stop). */
int ncclog__line(ncclog__reader *r, char *text);
/* Creates log->comms (empty, in the order they first appear) and returns
 * each epoch's communicator, -1 for none (ncclog_group.c; to be freed). */
int *ncclog__group(ncclog__reader *r);
/* Builds log->comms from the facts; -1 with err set when nothing at all
 * could be found. */
int ncclog__build(ncclog__reader *r);

void *ncclog__grow(void *p, size_t *cap, size_t need, size_t size);
/* FNV-1a of a NUL-terminated string. */
uint64_t ncclog__hash(const char *s);

#endif /* NCCLOG_INTERNAL_H */
