/*
 * jr_internal.h: what jr_scan.c and jr_read.c share and no caller sees
 * (prefix jr__): the scanner's node and its entry point.
 *
 * A node is one JSON value as the scanner met it: its type, its bytes, the
 * key before it in an object, its first child and its next sibling. The
 * scanner fills them in document order, the order of cJSON's children, so
 * jr_read.c walks both trees together.
 */
#ifndef JR_INTERNAL_H
#define JR_INTERNAL_H

#include "jr.h"

typedef enum {
    JR__NULL,
    JR__FALSE,
    JR__TRUE,
    JR__NUMBER,
    JR__STRING,
    JR__ARRAY,
    JR__OBJECT
} jr__type;

/* The longest number read (cJSON itself stops at 63 characters: longer
 * ones are rewritten for it, jr_read.c). */
#define JR__NUMBER_MAX 1024
/* The longest number cJSON reads as written. */
#define JR__CJSON_NUMBER_MAX 63

struct jr__node {
    uint8_t type;     /* jr__type */
    uint8_t lazy;     /* an array under a jr_opts.lazy key: checked, its values not kept */
    uint32_t off;     /* the value's first byte */
    uint32_t end;     /* past its last byte */
    uint32_t key_off; /* an object member: its key's opening '"' */
    int32_t first;    /* first child, -1 if none */
    int32_t next;     /* next sibling, -1 if none */
};

/* The index scan_node gives a value inside a lazy array: none is kept. */
#define JR__UNKEPT INT32_MAX

/* Scans d->text[d->start, d->len) into d's nodes (node 0 is the root).
 * JR_OK, or the status with e's msg and off (not its line and column). */
jr_status jr__scan(jr_doc *d, const jr_opts *o, jr_error *e);

/* Length of the valid UTF-8 sequence at p (1 to 4; overlong forms,
 * surrogates and code points past U+10FFFF are not valid), 0 if none;
 * *cp gets its code point. */
int jr__utf8(const unsigned char *p, size_t avail, uint32_t *cp);

#endif /* JR_INTERNAL_H */
