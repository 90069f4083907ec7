/*
 * jr.h: collviz's one JSON reader (library cvjsonread, prefix jr_, jr__
 * between its own files). Every JSON file the program reads goes through
 * it: lessons, theme palettes, the inputs of run, gui and export, the
 * progress file, show's bench results and the model cache. It lives below
 * render/ and app/ and needs only cJSON and cvcore's allocator, so both can
 * use it and cvcore stays free of cJSON.
 *
 * cJSON holds the values; it keeps no positions. So before cJSON parses,
 * a strict scanner (jr_scan.c) walks the same text: it checks the syntax
 * with messages that say what was expected, and records for every value
 * its bytes and, for an object member, where its key starts. Its nodes come
 * in cJSON's order, so a jr_val pairs a cJSON node with the scanner's node
 * for the same value, and a caller can name the line and column of
 * anything it complains about, and quote a number as the file wrote it.
 *
 * What every caller gets from it, whatever the file: only a regular file
 * is read (opened without blocking, so a FIFO is refused, not waited on),
 * its size bounded before and while reading; a NUL byte, text after the
 * top-level value and a key given twice in one object are refused, each at
 * its place; and messages quote nothing raw (jr_escape), so no byte of a
 * file or a path reaches a terminal unescaped. Callers say the rest in
 * their own words, with the positions this gives them.
 */
#ifndef JR_H
#define JR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define JR_MAX_BYTES (64 << 20) /* a reader's cap when it names none */
#define JR_MAX_DEPTH 32         /* nesting, when a reader names none */

typedef enum {
    JR_OK = 0,
    JR_EOPEN,    /* cannot open: sys_errno says why (ENOENT: there is no such file) */
    JR_ENOTFILE, /* a directory, a FIFO, a device or a socket: never read */
    JR_EREAD,    /* a read failed: sys_errno */
    JR_EBIG,     /* more bytes than the reader's cap */
    JR_EMEMORY,  /* the text's values would not fit in memory */
    JR_ESYNTAX,  /* not JSON: msg says what was expected there */
    JR_ENUL,     /* a NUL byte: a JSON file is text */
    JR_ETEXT,    /* a character a terminal acts on, in a string (jr_opts.text_name) */
    JR_EDUP,     /* a key given twice in one object: key and where */
    JR_ETOOMANY  /* more values than jr_opts.max_values */
} jr_status;

/* What was wrong. msg never names the file or the position (callers put
 * them where their messages have them: jr_error_text is the usual form)
 * and quotes nothing from the file unescaped. */
typedef struct {
    jr_status status;
    int sys_errno;    /* JR_EOPEN, JR_EREAD */
    size_t off;       /* byte offset of the problem in the text */
    int line, col;    /* 1-based, columns in characters; 0 where it has no place */
    char msg[320];
    char key[128];    /* JR_EDUP: the key, shortened and escaped */
    char where[200];  /* JR_EDUP: the object's path ("setup", "beats[2].quiz"), or root_name */
    bool empty;       /* JR_ESYNTAX: the text holds nothing but white space */
} jr_error;

typedef struct {
    size_t max_bytes;      /* a larger file is refused unread (0: JR_MAX_BYTES) */
    int max_depth;         /* deeper nesting is refused (0: JR_MAX_DEPTH) */
    int64_t max_values;    /* more values are refused as they are met (0: no count) */
    const char *too_many;  /* with max_values: what the caller takes, ending the message */
    const char *text_name; /* set: refuse in strings the characters a terminal acts on
                            * (control, bidirectional, separators, U+FEFF), naming the
                            * text ("lesson text") in the message */
    const char *root_name; /* the top-level object in messages ("the lesson"); NULL: "the
                            * top level" */
    bool allow_duplicates; /* accept a key given twice (only for files collviz wrote itself
                            * and once read that way) */
    /* NULL, or keys (NULL-terminated list) whose array values, at any
     * depth, are checked as JSON but not held: the scanner keeps no node
     * for a value inside them, cJSON never sees them (jr_child finds none)
     * and max_values does not count them, so millions of numbers cost
     * their text alone. The caller reads them from the text with jr_tok_*.
     * A key matches as written (not one spelt with escapes); inside such an
     * array a key given twice is found only where jr_tok_member looks. */
    const char *const *lazy;
} jr_opts;

typedef struct jr__node jr__node;

/* A document read: its text (a BOM skipped), the scanner's nodes and
 * cJSON's tree. */
typedef struct {
    const char *name; /* as given: the path, for messages */
    const char *text;
    size_t len, start; /* start: past a UTF-8 byte order mark */
    cJSON *root;
    jr__node *nodes;
    int32_t n, cap;
    char *owned; /* the text, when jr_read_file read it */
} jr_doc;

/* A value: cJSON's node and the scanner's. j is NULL for one that is not
 * there (a member absent, an index past the end). */
typedef struct {
    const cJSON *j;
    int32_t n;
} jr_val;

/* The bytes of path, which must be a regular file of at most cap bytes
 * (a FIFO, a directory or a device is refused without waiting), in a
 * NUL-terminated buffer of *len bytes for the caller to free. JR_OK, or
 * the status with e filled (JR_EOPEN, JR_EREAD, JR_ENOTFILE, JR_EBIG,
 * JR_EMEMORY) and *text NULL. For readers of other formats that share
 * these guards. */
jr_status jr_slurp(const char *path, size_t cap, char **text, size_t *len, jr_error *e);
/* Reads path. Returns JR_OK with d filled (free it with jr_destroy), or the
 * status with e filled and d empty. o may be NULL (the defaults). */
jr_status jr_read_file(const char *path, const jr_opts *o, jr_doc *d, jr_error *e);
/* The same for text already in memory (len bytes, NUL not needed); name
 * stands for the file in messages. The text must outlive d. */
jr_status jr_read_text(const char *name, const char *text, size_t len, const jr_opts *o,
                       jr_doc *d, jr_error *e);
void jr_destroy(jr_doc *d); /* accepts an empty or freed doc */

jr_val jr_root(const jr_doc *d);
/* obj's member named key (the first, where duplicates were allowed). */
jr_val jr_member(const jr_doc *d, jr_val obj, const char *key);
/* The first element or member of v, and the one after v. */
jr_val jr_child(const jr_doc *d, jr_val v);
jr_val jr_next(const jr_doc *d, jr_val v);
jr_val jr_item(const jr_doc *d, jr_val arr, int i); /* linear in i: walk with jr_next */
int jr_count(jr_val v);                             /* elements or members; 0 for others */

size_t jr_off(const jr_doc *d, jr_val v);     /* the value's first byte */
size_t jr_end(const jr_doc *d, jr_val v);     /* past its last byte (']' is at end - 1) */
size_t jr_key_off(const jr_doc *d, jr_val v); /* a member's key: its opening '"' */
/* Line and column (1-based, columns in characters) of byte off. */
void jr_position(const jr_doc *d, size_t off, int *line, int *col);

/* A number as the file wrote it ("20", "-7e1"); "" for another value. */
const char *jr_number_text(const jr_doc *d, jr_val v, char *out, size_t n);
/* How a found value is named in messages: "an object", "an array", "a
 * string", "true", "false", "null", or a number as written. */
const char *jr_found(const jr_doc *d, jr_val v, char *out, size_t n);

/* ----------------------------------------------------- values as tokens
 * Any value of a document read, straight from its text (which the scanner
 * checked): how arrays under jr_opts.lazy keys are read, one value at a
 * time, into whatever the caller keeps, with no tree. */
typedef enum {
    JR_TNULL,
    JR_TFALSE,
    JR_TTRUE,
    JR_TNUMBER,
    JR_TSTRING,
    JR_TARRAY,
    JR_TOBJECT,
    JR_TNONE /* past an array's last element, an absent member */
} jr_kind;
typedef struct {
    jr_kind kind;
    size_t off, end; /* its bytes in the text; JR_TNONE: where it would be */
} jr_tok;

/* v as a token (JR_TNONE for a value not there). */
jr_tok jr_tok_of(const jr_doc *d, jr_val v);
/* Array arr's first element, and the element after el (JR_TNONE at the
 * end, off then at the closing ']'). */
jr_tok jr_tok_first(const jr_doc *d, jr_tok arr);
jr_tok jr_tok_next(const jr_doc *d, jr_tok el);
/* Object obj's member named key (compared as written: no escapes), or
 * JR_TNONE; *twice (may be NULL) set where the key is given again, its
 * offset in *twice_off. */
jr_tok jr_tok_member(const jr_doc *d, jr_tok obj, const char *key, bool *twice,
                     size_t *twice_off);
/* A number token as written; a string's value, unescaped, when it fits
 * in n bytes (else ""); "" for another kind. */
const char *jr_tok_text(const jr_doc *d, jr_tok t, char *out, size_t n);
/* As jr_found names a value: "an object", ..., or a number as written. */
const char *jr_tok_found(const jr_doc *d, jr_tok t, char *out, size_t n);

/* "NAME:LINE:COL: message" for byte off of d, escaped whole; returns out. */
const char *jr_say(const jr_doc *d, size_t off, char *out, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* e as one line: "PATH:LINE:COL: what" ("PATH: what" where it has no
 * place; "not JSON: " before a syntax error), PATH escaped; returns out. */
const char *jr_error_text(const jr_error *e, const char *path, char *out, size_t n);

/* Text from outside (a file, a path, the command line) made safe to print
 * on a terminal: control characters (ESC, BEL, ...), bidirectional marks
 * and overrides (U+202E, ...), the line and paragraph separators, U+FEFF
 * and bytes that are not UTF-8 are written as \xNN or \uNNNN; out is cut
 * with "..." when it fills. Returns the length written. */
size_t jr_escape(const char *s, char *out, size_t len);
/* Whether code point c must not reach a terminal raw (jr_escape's test). */
bool jr_unsafe_codepoint(uint32_t c);
/* At most n - 1 bytes of s into out, cut between UTF-8 characters, "…"
 * ending it when cut (n at least 5); returns out. */
const char *jr_clip(char *out, size_t n, const char *s);

#endif /* JR_H */
