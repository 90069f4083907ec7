/*
 * ncclog.h: reads what NCCL printed with NCCL_DEBUG=INFO and rebuilds the
 * rings and trees it built (prefix ncclog_).
 *
 * NCCL does not document this output and has changed it between versions,
 * so the reader accepts every form it has used for the facts that matter:
 *
 *   rank 0's summary   "Channel 00/08 :    0   7   6   5 ..."  (cut by
 *                      NCCL's line buffer on large jobs)
 *   per-rank rings     "Ring 00 : 6 -> 7 -> 0"                 (prev -> self -> next)
 *   connections        "Ring 00 : 12[41000] -> 11[2d000] via P2P/IPC",
 *                      "Channel 00/0 : 0[18000] -> 1[2a000] [send] via NET/IB/0/GDRDMA"
 *   trees              "Trees [0] 3/-1/-1->0->-1 [1] ..."      (children -> self -> parent)
 *                      "Trees [0] 26->25->-1/-1/-1"            (parent -> self -> children)
 *                      "Trees [0] 1/-1/-1->0->-1|-1->0->1/-1/-1" (up tree | down tree)
 *                      "Tree 1 : 1 -> 3 -> 2/-1/-1"            (parent -> self -> children)
 *   communicators      "comm 0x... rank 3 nRanks 4 nNodes 2 localRanks 2 localRank 1",
 *                      "... comm 0x... rank 0 nranks 8 cudaDev 0 ... - Init COMPLETE"
 *   the version        "NCCL version 2.21.5+cuda12.4"
 *
 * Lines come from many processes interleaved in any order, with Windows
 * line ends, ANSI colours, and whatever a launcher put in front (Slurm's
 * "3: ", mpirun --tag-output's "[1,3]<stdout>:", torchrun's "[rank3]:",
 * timestamps). The host name and process of a line come from NCCL's own
 * "host:pid:tid [dev] NCCL INFO" prefix, which also groups ranks into
 * nodes. The log is streamed a line at a time, so its size is bounded only
 * by the disk.
 *
 * Every fact remembers its line, so a contradiction (two ranks that
 * disagree on a ring, a rank printed from two processes) is reported with
 * the line numbers a user can open. What a pasted log leaves open is not an
 * error: a channel's ring or tree may be partial or unknown, the
 * communicator says what is missing and what to capture for its NCCL
 * version, and NCCL's own WARN lines, its tuning table and its per-call
 * choices are read too (docs/ARCHITECTURE.md lists every form).
 */
#ifndef NCCLOG_H
#define NCCLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cv.h"

#define NCCLOG_MAX_RANKS 4096
#define NCCLOG_MAX_CHANNELS 128
#define NCCLOG_HOST_LEN 64
#define NCCLOG_VIA_LEN 48        /* "NET/AWS Libfabric/1/GDRDMA/Shared" fits */
#define NCCLOG_ERR_LEN 512
#define NCCLOG_LINE_MAX 65536      /* a longer line is read this far, the rest skipped */
#define NCCLOG_NUL_MAX (1L << 20)  /* NUL bytes in one line that make a file not text */
#define NCCLOG_MAX_FACTS (1L << 21)    /* ring and tree entries kept: about 80 MB */
#define NCCLOG_MAX_PRINTERS (1 << 17)  /* host:pid:tid [dev] prefixes kept */
#define NCCLOG_MAX_POOL (1L << 22)     /* summary ranks kept */
#define NCCLOG_MAX_BYTES (1LL << 32)   /* input read at most, a file or a pipe: 4 GiB */
#define NCCLOG_FOREIGN_MAX (1LL << 26) /* input read without one NCCL line: not a log */
#define NCCLOG_WARN_KEEP 8             /* distinct NCCL WARN lines kept (all are counted) */
#define NCCLOG_WARN_LEN 200

/* What a connection goes over, from the "via ..." of a connection line. */
typedef enum {
    NCCLOG_VIA_UNKNOWN, /* no connection line for this hop */
    NCCLOG_VIA_P2P,     /* NVLink or PCIe peer to peer inside a node */
    NCCLOG_VIA_SHM,     /* through host shared memory inside a node */
    NCCLOG_VIA_NET,     /* the network: IB, RoCE, sockets */
    NCCLOG_VIA_COLLNET, /* in-network reduction (SHARP) */
    NCCLOG_VIA_NVLS,    /* NVLink SHARP */
    NCCLOG_VIA_COUNT
} ncclog_via;

const char *ncclog_via_name(ncclog_via via); /* "P2P", "SHM", "NET", ... */

/* Which kinds of line a communicator's picture was built from (bits). */
enum {
    NCCLOG_SRC_SUMMARY = 1 << 0,     /* rank 0's "Channel cc/nn : r r r" */
    NCCLOG_SRC_SUMMARY_CUT = 1 << 1, /* ... cut short by NCCL's line limit */
    NCCLOG_SRC_RING = 1 << 2,        /* "Ring cc : prev -> self -> next" */
    NCCLOG_SRC_CONN = 1 << 3,        /* connection lines (for the ring order) */
    NCCLOG_SRC_TREES = 1 << 4,       /* "Trees [c] ..." */
    NCCLOG_SRC_TREE = 1 << 5,        /* "Tree c : parent -> self -> children" */
    NCCLOG_SRC_COMM = 1 << 6,        /* "comm 0x... rank r nRanks n ..." */
    NCCLOG_SRC_VIA = 1 << 7,         /* connection lines (for the transports) */
    NCCLOG_SRC_ELIM = 1 << 8         /* hops or tree entries the known ones force */
};

typedef struct {
    char host[NCCLOG_HOST_LEN]; /* "" when no line of this rank named it */
    int node;                   /* index into the communicator's hosts; -1 unknown */
    int local_rank;             /* -1 unknown */
    int cuda_dev;               /* -1 unknown */
    long line;                  /* a line that placed this rank on its host; 0 none */
    char ptr[24];               /* the "comm 0x..." its process printed, or "" */
    bool printed;               /* some ring, tree or comm line of its own is in the log */
} ncclog_rank;

/* How much of a channel's ring or tree the log determines. */
typedef enum {
    NCCLOG_NONE,    /* no line describes it */
    NCCLOG_PARTIAL, /* some hops (edges) are known, not all */
    NCCLOG_WHOLE,   /* every rank's hop (parent and children) is known */
    NCCLOG_BROKEN   /* NCCL's own summary repeats a rank: the ring it built does not close */
} ncclog_state;

typedef struct {
    uint8_t ring;    /* ncclog_state of the ring */
    uint8_t tree;    /* ncclog_state of the tree */
    long broken_line; /* NCCLOG_BROKEN: the summary line */
    int broken_len;   /* NCCLOG_BROKEN: the summary's ranks, in order[] */
    bool conn_mixed;  /* its connection lines cannot all be ring hops: none was taken */
    int *next;       /* [nranks]: the rank this one sends to on the ring, -1 unknown */
    int *order;      /* [nranks]: the ring from rank 0: order[i+1] = next[order[i]]; order[0]
                        is -1 unless the ring is whole */
    ncclog_via *via; /* [nranks]: the hop rank -> next[rank] */
    char (*via_text)[NCCLOG_VIA_LEN]; /* [nranks]: "P2P/CUMEM/read", "NET/IB/0/GDRDMA", "" */
    bool has_tree;   /* the tree is whole */
    int *parent;     /* [nranks]: tree parent, -1 for the root */
    int (*children)[3]; /* [nranks]: up to three children, -1 = none */
    uint8_t *tree_known; /* [nranks]: 1 where the rank's own entry is known (its line, or
                            inferred from its neighbours' lines); 0 where parent and
                            children are only what other lines say */
} ncclog_channel;

typedef struct {
    char id[24];     /* the commId NCCL printed ("0x5ae77eb5ea4ec1ee"), else the
                        "comm 0x..." pointer of its lowest rank, or "" when the log
                        names no communicator */
    bool by_commid;  /* id is the shared commId; else ranks were grouped by pointer */
    bool is_run;     /* id is "runN": lines no "comm" line names, split into the runs
                        pasted one after another */
    bool grouped_by_order; /* no commId, and other communicators of as many ranks
                              were initialised alongside: ranks dealt out in
                              process order */
    long first_line; /* where it first appears */
    int nranks;
    int nchannels;
    int nnodes;
    char (*hosts)[NCCLOG_HOST_LEN]; /* [nnodes], ordered by their lowest rank */
    ncclog_rank *ranks;             /* [nranks] */
    ncclog_channel *channels;       /* [nchannels] */
    unsigned sources;               /* NCCLOG_SRC_* */
    int summary_len;                /* ranks rank 0's summary line showed (cut: < nranks) */
    int nconn;                      /* connection lines read */
    char problem[NCCLOG_ERR_LEN];   /* why it could not be rebuilt; "" when it could */
    /* A partial reading: what the log does not determine and how to get it. */
    bool partial;                   /* some channel's ring or tree is not whole */
    int nchannels_said;             /* the "/NN" of NCCL's lines, 0 where none said */
    bool conn_unsure;               /* its connection lines may all be the trees' */
    int nnodes_said;                /* nNodes of the comm lines, -1 none */
    bool nranks_said;               /* nranks came from a comm line */
    bool nranks_unsure;             /* a summary of exactly 20 ranks may have been cut */
    char version[32];               /* the version printed before its lines, or "" */
    char missing[NCCLOG_ERR_LEN];   /* what is missing, "" when whole */
    char ask[NCCLOG_ERR_LEN];       /* what to capture, in the log's version's terms */
} ncclog_comm;

/* One NCCL WARN line (NCCL's own words about what failed). */
typedef struct {
    long line;
    long count;                     /* lines with the same text after the prefix */
    char text[NCCLOG_WARN_LEN];     /* what follows "NCCL WARN ", raw */
    char where[NCCLOG_HOST_LEN + 16]; /* "host [dev]" of its printer, raw, or "" */
} ncclog_warn;

/* NCCL's tuning table (NCCL_DEBUG_SUBSYS=TUNING, rank 0): latency in us and
 * bandwidth in GB/s for each collective x algorithm x protocol. */
#define NCCLOG_COLLS 5  /* Broadcast, Reduce, AllGather, ReduceScatter, AllReduce */
#define NCCLOG_ALGOS 7  /* Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT */
#define NCCLOG_PROTOS 3 /* LL, LL128, Simple */
typedef struct {
    bool have;
    long line;                      /* its first line */
    int format;                     /* 25: 2.5-2.6's, 27: 2.7-2.17's, 218: 2.18's blocks */
    bool algo_seen[NCCLOG_ALGOS];   /* columns the table had */
    bool row_seen[NCCLOG_COLLS];
    double lat[NCCLOG_COLLS][NCCLOG_ALGOS][NCCLOG_PROTOS]; /* as printed (one decimal) */
    double bw[NCCLOG_COLLS][NCCLOG_ALGOS][NCCLOG_PROTOS];
    int others;                     /* further tables in the log (other communicators) */
} ncclog_tuning;

/* A per-call line naming NCCL's choice ("AllReduce: 1048576 Bytes -> Algo
 * RING proto SIMPLE ..." and its older forms), distinct ones kept. */
#define NCCLOG_CALLS_KEEP 64
typedef struct {
    long line;
    int coll;                       /* 0..4 as in ncclog_tuning, -1 not named */
    int64_t bytes;
    int algo, proto;                /* indices, -1 unknown */
    double time_us;                 /* NCCL's own estimate, < 0 where not printed */
    long count;
} ncclog_call;

typedef struct {
    char name[256];    /* the file as the user named it */
    char version[32];  /* "2.21.5+cuda12.4", or "" */
    long version_line;
    long lines;        /* lines read */
    long cut_lines;    /* lines longer than NCCLOG_LINE_MAX, read only that far */
    long first_cut;    /* the first of them, 0 none */
    long nul_bytes;    /* NUL bytes dropped from lines */
    long first_nul;    /* the first line that held one, 0 none */
    char flavor[8];    /* "NCCL", or "RCCL" where its version line said so */
    long info_lines;   /* lines with "NCCL INFO" */
    long stopped_at;   /* a bound was reached here: later lines were not read; 0 none */
    char stopped_why[160];
    bool old_formats;  /* lines in formats NCCL printed before 2.10 */
    long nwarn;        /* NCCL WARN lines */
    int nwarns;
    ncclog_warn warns[NCCLOG_WARN_KEEP];
    ncclog_tuning tuning;
    long ncall_lines;
    int ncalls;
    ncclog_call calls[NCCLOG_CALLS_KEEP];
    int ncomms;
    ncclog_comm *comms;
} ncclog;

/* Reads a whole log from in (name is used in messages, "-" for standard
 * input). 0, or -1 with err set to "NAME:LINE: what is wrong" (or "NAME:
 * ..." where no single line is to blame). Lines are read into a bounded
 * buffer: one longer than NCCLOG_LINE_MAX is cut there, NUL bytes are
 * dropped (both counted in log for a note), and a line of more than
 * NCCLOG_NUL_MAX NUL bytes (/dev/zero, a disk image) ends the read as not
 * text. The input is bounded whatever it is, so that endless text on a
 * pipe ends as a file does: past NCCLOG_FOREIGN_MAX bytes with no line
 * NCCL wrote it is no NCCL log (an error), and reading stops after
 * NCCLOG_MAX_BYTES, keeping what came before (a note, as the bounds on
 * what is kept give). Communicators that cannot be
 * rebuilt are an error only when a caller picks them (ncclog_pick), so a
 * log with one good and one broken communicator still lists both. */
int ncclog_read(FILE *in, const char *name, ncclog *log, char *err, size_t errlen);
void ncclog_destroy(ncclog *log); /* accepts a zeroed or freed log */

/* What the reader had to change in the log's lines ("2 lines longer than
 * 64 KiB were cut, the first at line 9"), for a note; "" when nothing. */
void ncclog_read_note(const ncclog *log, char *note, size_t len);

/* The communicator id names: its commId or the "comm 0x..." pointer of any
 * of its ranks (a prefix that names one communicator is enough), or with
 * id NULL the only one. -1 with err listing the choices when id is NULL
 * and there are several, when id matches none, or when a prefix matches
 * several ("ambiguous"). A communicator whose rings or trees could not be
 * rebuilt is -1 with the reason. */
int ncclog_pick(const ncclog *log, const char *id, const ncclog_comm **out, char *err,
                size_t errlen);

/* Makes s safe for a terminal into out[len] (control and bidi characters
 * written as escapes), returning the length: the CLI's cli_escape. */
typedef size_t (*ncclog_escape_fn)(const char *s, char *out, size_t len);

/* Prints what `collviz nccl-log` shows of communicator c: NCCL's WARN
 * lines, its nodes, which ranks printed lines (on a partial reading), the
 * lines it was read from, each distinct ring with its hops' transports and
 * each distinct tree, with the channels that share it (of a partial
 * channel its known hops or tree entries), and what is missing and what to
 * capture. Text from the log (host names, the version, transports, WARN
 * text) goes through esc. */
void ncclog_print_summary(FILE *out, const ncclog *log, const ncclog_comm *c,
                          ncclog_escape_fn esc);

/* Channel ch of c as the ring and the double tree a plan follows (channel
 * ch's tree and that of channel ch + nchannels/2, as NCCL pairs them), and
 * *nodes as cv_spec's nodes (1 where the log's nodes are not equal runs of
 * consecutive ranks; note says so). 0, or -1 with err. */
int ncclog_topology(const ncclog_comm *c, int ch, cv_topology *t, int *nodes, char *note,
                    size_t notelen, char *err, size_t errlen);

/* ------------------------------------------------------------ partial logs */

/* "2.21.5+cuda12.4" as 22105; 0 where it is not a version. */
int ncclog_version_num(const char *version);

/* Whether the log is from an NCCL before 2.10, which printed no per-rank
 * "Ring NN : prev -> rank -> next" lines: its version says so, or (none
 * printed) its lines are in the older formats. */
bool ncclog_is_old(const ncclog *log, const ncclog_comm *c);

/* The first channel whose ring is whole (else whose tree is), -1 none. */
int ncclog_first_known(const ncclog_comm *c);

/* What a log without any communicator holds: its version, NCCL's WARN
 * lines, and what to capture. */
void ncclog_print_log(FILE *out, const ncclog *log, ncclog_escape_fn esc);

/* NCCL's own WARN lines, as the summaries print them ("" when none). */
void ncclog_print_warns(FILE *out, const ncclog *log, ncclog_escape_fn esc);

/* ----------------------------------------------------------------- tuning */

const char *ncclog_coll_name(int coll);   /* "AllReduce", ... */
const char *ncclog_algo_name(int algo);   /* "Tree", "Ring", ... */
const char *ncclog_proto_name(int proto); /* "LL", "LL128", "Simple" */
/* A collective's index from its name as NCCL prints it, -1 none. */
int ncclog_coll_index(const char *name, size_t len);

/* NCCL's choice for one message size, from its tuning table. */
typedef struct {
    int64_t bytes;
    int algo, proto;  /* -1 where no algorithm is enabled for this collective */
    double time_us;   /* NCCL's model time of that choice */
    double ring_us;   /* the best Ring protocol's time, < 0 where Ring is off */
    double tree_us;   /* the best Tree protocol's time, < 0 where Tree is off */
    double all_us[NCCLOG_ALGOS][NCCLOG_PROTOS]; /* every pair's time, < 0 where off */
} ncclog_choice;

#define NCCLOG_CHOICE_SIZES 32 /* 8 B, 16 B, ..., 16 GiB */

/* For collective coll, NCCL's choice at each power of two from 8 B to 16
 * GiB into out[NCCLOG_CHOICE_SIZES], as ncclTopoGetAlgoTime computes it:
 * time = latency + bytes / (1000 * bandwidth) (us, with GB/s), AllReduce's
 * Tree bandwidth scaled by NCCL's correction factor for the size, and Ring
 * Simple's latency raised by its plateau factor across nodes. c (may be
 * NULL) gives the ranks, nodes and channels those factors need; note says
 * what was assumed. Returns the sizes written, 0 where the log has no
 * table or the table has no row for coll. */
int ncclog_choices(const ncclog *log, const ncclog_comm *c, int coll, ncclog_choice *out,
                   char *note, size_t notelen);

/* The same from a table alone: ver as ncclog_version_num gives it (0
 * unknown), nnodes, nranks and nch (channels) 0 where unknown. */
int ncclog_choices_of(const ncclog_tuning *t, int ver, int nnodes, int nranks, int nch, int coll,
                      ncclog_choice *out, char *note, size_t notelen);

/* The choice at one size (any, not only a power of two). */
void ncclog_choice_at(const ncclog_tuning *t, int ver, int nnodes, int nranks, int nch, int coll,
                      int64_t bytes, ncclog_choice *ch);

/* The collective to show NCCL's choice for: the one its per-call lines
 * name most, where the table has its row; else AllReduce; else the last
 * row the table has; -1 where there is no table. */
int ncclog_choice_coll(const ncclog *log);

/* How many of the per-call lines for coll at the sizes in ch (powers of
 * two) name the algorithm and protocol ch predicts: *checked the lines
 * compared, the return those that agree; *first_off the line of the first
 * that does not (0 none). */
int ncclog_choice_agreement(const ncclog *log, int coll, const ncclog_choice *ch, int n,
                            int *checked, long *first_off);

/* ------------------------------------------------ the tuner, modelled */

/* A system as NCCL's tuner sees it (ncclog_tuner.c). */
typedef struct {
    const char *name;   /* the preset's name: "h100-8" */
    const char *about;  /* one line for people */
    int cc;             /* compute capability x 10: 80 A100, 90 H100 */
    int gpus_per_node;
    int nodes;
    double gpu_gbs;     /* one GPU's bandwidth inside the node, one way (NVLink or PCIe) */
    bool nvlink;        /* GPUs reach each other over NVLink (else PCIe) */
    bool nvswitch;
    bool nvls;          /* NVLink SHARP enabled (NVSwitch, Hopper and newer) */
    int nics;           /* per node */
    double nic_gbs;     /* each, one way */
    bool cpu_amd;       /* AMD hosts: more network overhead, other LL caps */
} ncclog_system;

/* NCCL's path kinds, nearest first (as its topology orders them). */
enum { NCCLOG_PATH_LOC, NCCLOG_PATH_NVL, NCCLOG_PATH_NVB, NCCLOG_PATH_C2C, NCCLOG_PATH_PIX,
       NCCLOG_PATH_PXB, NCCLOG_PATH_PXN, NCCLOG_PATH_P2C, NCCLOG_PATH_PHB, NCCLOG_PATH_SYS };

/* What NCCL's search finds for one algorithm: channels and GB/s each. */
typedef struct {
    int channels;
    double bw_intra, bw_inter;
    int path_intra, path_inter; /* NCCLOG_PATH_* */
    double latency_inter;       /* us the network adds (0 for IB) */
    bool tree_pattern;          /* a plain tree (one GPU a node): Tree's bandwidth x 0.85 */
} ncclog_graph;

/* The presets (`collviz cost --nccl NAME`), one by name (NULL none), and
 * their names, NULL-terminated (a flag's allowed values). */
int ncclog_system_presets(const ncclog_system **out);
const ncclog_system *ncclog_system_find(const char *name);
const char *const *ncclog_system_names(void);
/* Uses gpus_per_node GPUs of each of s's nodes (0: all), with the NICs
 * nearest them (at least one). */
void ncclog_system_gpus(ncclog_system *s, int gpus_per_node);
/* The NCCL version whose tuner ncclog_tuner_table models, as
 * ncclog_version_num gives it: what its choices are priced under. */
#define NCCLOG_TUNER_VERSION 23000
/* The graphs NCCL's search would find on s, by its main rules (assumed:
 * a real search also sees PCIe and NUMA placement). */
void ncclog_tuner_graphs(const ncclog_system *s, ncclog_graph g[NCCLOG_ALGOS]);
/* The tuning table NCCL 2.29-2.30 computes from those graphs, each value
 * rounded to the decimal NCCL prints, and its threads per block. */
void ncclog_tuner_table(const ncclog_system *s, const ncclog_graph g[NCCLOG_ALGOS], ncclog_tuning *t,
                        int max_threads[NCCLOG_ALGOS][NCCLOG_PROTOS]);
/* As NCCL_ALGO=list does: only the algorithms named ("ring,tree"; any
 * case), or all but them ("^nvls"); the others' bandwidth set to 0. 0, or
 * -1 with why in err for a name NCCL does not know. */
int ncclog_tuner_only(ncclog_tuning *t, const char *list, char *err, size_t errlen);
/* The table in NCCL 2.18+'s layout, each line after "NCCL INFO " as a log
 * has it (so `collviz nccl-log` and `show` read it back). */
void ncclog_tuner_print(FILE *out, const ncclog_tuning *t,
                        const int max_threads[NCCLOG_ALGOS][NCCLOG_PROTOS]);

/* collviz's own cost model for NCCL's collective coll at bytes on c's
 * ranks and nodes (intra inside a node, inter between), along the log's
 * ring and trees where its channel is whole: seconds, < 0 where collviz
 * cannot build that plan (no ranks, a size not a whole number of
 * elements). */
double ncclog_model_seconds(const ncclog_comm *c, int coll, cv_algo algo, int64_t bytes,
                            const cv_link *intra, const cv_link *inter);
/* The op collviz runs for coll. */
cv_op ncclog_coll_op(int coll);

#endif /* NCCLOG_H */
