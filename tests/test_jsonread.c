/*
 * test_jsonread.c: the one JSON reader (collectives/json/jr.h) refuses what no
 * caller should have to think about, each with its place, and gives the
 * places and the text callers need for their own messages.
 *
 * - Only a regular file is read: a FIFO (without waiting for a writer), a
 *   directory and /dev/zero are refused in one message; a file over the
 *   cap is refused from its size, unread.
 * - Bytes that are not JSON are refused at line:column: a NUL byte (so
 *   [[1<NUL>2],[1]] is not [[1]]), text after the top-level value, and a
 *   key given twice in one object (written the same or with an escape,
 *   in a small object or a large one), with the object's path.
 * - Values past max_values are refused as they are met; nesting past the
 *   depth too.
 * - Numbers are quoted as written; positions count characters, not bytes,
 *   and skip a byte order mark; cJSON's node and the scanner's stay
 *   paired through members and elements.
 * - What a message quotes is escaped; a key is shortened between
 *   characters.
 * - An array under a lazy key (jr_opts.lazy) is checked, not held: no node
 *   and no cJSON value inside it, so max_values does not count it; its
 *   values are read from the text as tokens, numbers as written, strings
 *   unescaped, a key given twice found where it is looked up; the values
 *   after it keep their places; bad JSON inside it is still refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "jr.h"

#define WORK COLLVIZ_BINARY_DIR "/jsonread-test"

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        printf("cannot write %s\n", path);
        exit(1);
    }
    fwrite(text, 1, len, f);
    fclose(f);
}

/* text must be refused with status st at line:col, its message holding want. */
static void refused(const char *text, size_t len, const jr_opts *o, jr_status st, int line,
                    int col, const char *want)
{
    jr_doc d;
    jr_error e;
    jr_status got = jr_read_text("t.json", text, len, o, &d, &e);
    EXPECT(got == st && e.status == st, "%.40s: status %d, want %d (%s)", text, got, st, e.msg);
    EXPECT(e.line == line && e.col == col, "%.40s: at %d:%d, want %d:%d (%s)", text, e.line,
           e.col, line, col, e.msg);
    EXPECT(strstr(e.msg, want) != NULL, "%.40s: \"%s\" lacks \"%s\"", text, e.msg, want);
    EXPECT(d.root == NULL && d.nodes == NULL, "a refused document holds nothing");
    jr_destroy(&d);
}

static void files(void)
{
    jr_doc d;
    jr_error e;
    char path[512], line[2048];
    if (system("mkdir -p '" WORK "'") != 0)
        return;

    snprintf(path, sizeof path, "%s/fifo.json", WORK);
    unlink(path);
    EXPECT(mkfifo(path, 0600) == 0, "mkfifo");
    EXPECT(jr_read_file(path, NULL, &d, &e) == JR_ENOTFILE &&
               !strcmp(e.msg, "cannot read: it is a FIFO (named pipe), not a regular file"),
           "FIFO: %s", e.msg);
    EXPECT(e.line == 0, "a FIFO has no place in a text");
    jr_error_text(&e, path, line, sizeof line);
    EXPECT(!strcmp(line, WORK "/fifo.json: cannot read: it is a FIFO (named pipe), not a "
                          "regular file"),
           "one line: %s", line);
    unlink(path);

    EXPECT(jr_read_file(WORK, NULL, &d, &e) == JR_ENOTFILE &&
               !strcmp(e.msg, "cannot read: it is a directory, not a file"),
           "directory: %s", e.msg);
    EXPECT(jr_read_file("/dev/zero", NULL, &d, &e) == JR_ENOTFILE &&
               strstr(e.msg, "a device, not a regular file"),
           "/dev/zero: %s", e.msg);
    EXPECT(jr_read_file(WORK "/no-such.json", NULL, &d, &e) == JR_EOPEN &&
               !strcmp(e.msg, "cannot open: No such file or directory"),
           "missing: %s", e.msg);

    /* over the cap: refused from its size (sparse: reading it would be slow) */
    snprintf(path, sizeof path, "%s/big.json", WORK);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputc('[', f);
        fseek(f, 100L << 20, SEEK_SET);
        fputc(']', f);
        fclose(f);
    }
    jr_opts o = {.max_bytes = 1 << 20};
    EXPECT(jr_read_file(path, &o, &d, &e) == JR_EBIG &&
               !strcmp(e.msg, "file is 104857601 bytes; the limit is 1048576 (1 MiB)"),
           "big: %s", e.msg);
    unlink(path);

    /* a good file: read, positioned, owned */
    snprintf(path, sizeof path, "%s/good.json", WORK);
    const char *good = "{\n  \"a\": [1, -7e1],\n  \"b\": \"\xe4\xb8\xad\", \"c\": 20\n}\n";
    write_file(path, good, strlen(good));
    EXPECT(jr_read_file(path, NULL, &d, &e) == JR_OK, "good: %s", e.msg);
    jr_val root = jr_root(&d), a = jr_member(&d, root, "a"), c = jr_member(&d, root, "c");
    char num[64];
    EXPECT(!strcmp(jr_number_text(&d, jr_item(&d, a, 1), num, sizeof num), "-7e1"),
           "a number as written: %s", num);
    EXPECT(!strcmp(jr_found(&d, c, num, sizeof num), "20"), "20, not 2e+01: %s", num);
    EXPECT(!strcmp(jr_found(&d, a, num, sizeof num), "an array"), "found: %s", num);
    int l, col;
    jr_position(&d, jr_off(&d, c), &l, &col);
    EXPECT(l == 3 && col == 18, "\"c\"'s value at %d:%d (characters, not bytes)", l, col);
    jr_position(&d, jr_key_off(&d, c), &l, &col);
    EXPECT(l == 3 && col == 13, "\"c\"'s key at %d:%d", l, col);
    jr_position(&d, jr_end(&d, a) - 1, &l, &col);
    EXPECT(l == 2 && col == 16, "a's ']' at %d:%d", l, col);
    EXPECT(jr_count(a) == 2 && jr_count(c) == 0 && !jr_item(&d, a, 2).j, "counts");
    jr_say(&d, jr_off(&d, c), line, sizeof line, "odd \"%s\"", "\x1b[2J");
    EXPECT(!strcmp(line, WORK "/good.json:3:18: odd \"\\x1b[2J\""), "jr_say escapes: %s", line);
    jr_destroy(&d);
    jr_destroy(&d); /* twice is harmless */
    unlink(path);
}

static void refusals(void)
{
    /* [[1<NUL>2],[1]] must not read as [[1]] */
    refused("[[1\0" "2],[1]]", 11, NULL, JR_ENUL, 1, 4, "a NUL byte");
    refused("{\n \"line\": 1\0}", 15, NULL, JR_ENUL, 2, 11, "a NUL byte");
    refused("[1] x", 5, NULL, JR_ESYNTAX, 1, 5, "unexpected text after the end of the JSON value");
    refused("{} {}", 5, NULL, JR_ESYNTAX, 1, 4, "unexpected text after");
    refused("", 0, NULL, JR_ESYNTAX, 1, 1, "unexpected end of file");
    jr_doc d;
    jr_error e;
    EXPECT(jr_read_text("t.json", " \n\t", 3, NULL, &d, &e) == JR_ESYNTAX && e.empty,
           "white space only is said to be empty");
    EXPECT(jr_read_text("t.json", " [ ", 3, NULL, &d, &e) == JR_ESYNTAX && !e.empty,
           "an open array is not empty");
    refused("[1,]", 4, NULL, JR_ESYNTAX, 1, 4, "no trailing comma");
    refused("{\"a\": 01}", 9, NULL, JR_ESYNTAX, 1, 7, "leading zeros");

    /* a key given twice: where its second copy is, with the object's path */
    const char *dup = "{\"a\": 1,\n \"b\": {\"x\": 1, \"x\": 2}}";
    refused(dup, strlen(dup), NULL, JR_EDUP, 2, 16, "duplicate key \"x\" in b");
    const char *top = "{\"a\": 1, \"a\": 2}";
    refused(top, strlen(top), NULL, JR_EDUP, 1, 10, "duplicate key \"a\" in the top level");
    jr_opts named = {.root_name = "the lesson"};
    refused(top, strlen(top), &named, JR_EDUP, 1, 10, "duplicate key \"a\" in the lesson");
    const char *escaped = "[{\"ab\": 1, \"\\u0061b\": 2}]";
    refused(escaped, strlen(escaped), NULL, JR_EDUP, 1, 12, "duplicate key \"ab\" in [0]");
    /* the earliest in the file is the one named */
    const char *two = "{\"o\": {\"p\": 1, \"q\": 2, \"p\": 3}, \"o\": 4}";
    refused(two, strlen(two), NULL, JR_EDUP, 1, 24, "duplicate key \"p\" in o");
    /* many members: found by hash, as quickly */
    char big[40000];
    size_t n = (size_t)snprintf(big, sizeof big, "{");
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, "\"k%d\": %d, ", i, i);
    n += (size_t)snprintf(big + n, sizeof big - n, "\"k1999\": 0}");
    EXPECT(jr_read_text("big.json", big, n, NULL, &d, &e) == JR_EDUP &&
               !strcmp(e.key, "k1999") && !strcmp(e.where, "the top level"),
           "2000 members: %s", e.msg);
    jr_opts lenient = {.allow_duplicates = true};
    EXPECT(jr_read_text("big.json", big, n, &lenient, &d, &e) == JR_OK, "allowed: %s", e.msg);
    EXPECT(jr_number_text(&d, jr_member(&d, jr_root(&d), "k1999"), big, 64)[0] == '1',
           "the first of two is what jr_member gives");
    jr_destroy(&d);
    /* a long key is shortened between characters, then escaped */
    char key[200] = "";
    for (int i = 0; i < 40; i++)
        strcat(key, "\xe4\xb8\xad");
    strcat(key, "\\u001b");
    char twice[500];
    snprintf(twice, sizeof twice, "{\"%s\": 1, \"%s\": 2}", key, key);
    EXPECT(jr_read_text("k.json", twice, strlen(twice), NULL, &d, &e) == JR_EDUP, "long key: %s",
           e.msg);
    EXPECT(strlen(e.key) == 66 && !strcmp(e.key + 63, "\xe2\x80\xa6"), "clipped: %s", e.key);

    /* limits met as the values are */
    jr_opts few = {.max_values = 4, .too_many = "the op's buffers hold 3"};
    refused("[[1, 2], [3, 4]]", 16, &few, JR_ETOOMANY, 1, 10,
            "more than 4 values; the op's buffers hold 3");
    jr_opts shallow = {.max_depth = 2};
    refused("[[[1]]]", 7, &shallow, JR_ESYNTAX, 1, 3, "nesting deeper than 2 levels");
    jr_opts tiny = {.max_bytes = 4};
    refused("[1, 2]", 6, &tiny, JR_EBIG, 0, 0, "file is 6 bytes; the limit is 4 (4 bytes)");
    /* text a terminal would act on, where the reader is asked to refuse it */
    jr_opts text = {.text_name = "lesson text"};
    refused("[\"a\\u202eb\"]", 12, &text, JR_ETEXT, 1, 4, "U+202E in a string");
    EXPECT(jr_read_text("t.json", "[\"a\\u202eb\"]", 12, NULL, &d, &e) == JR_OK,
           "accepted where not asked: %s", e.msg);
    jr_destroy(&d);

    /* a byte order mark is skipped; columns on line 1 do not count it */
    refused("\xEF\xBB\xBF[1 2]", 8, NULL, JR_ESYNTAX, 1, 4, "expected ',' or ']'");
    /* the usual one line */
    char line[512];
    EXPECT(jr_read_text("dir/\x1b.json", "[1,]", 4, NULL, &d, &e) == JR_ESYNTAX, "syntax");
    jr_error_text(&e, "dir/\x1b.json", line, sizeof line);
    EXPECT(!strcmp(line, "dir/\\x1b.json:1:4: not JSON: expected a value after ',' (JSON allows "
                         "no trailing comma)"),
           "error text: %s", line);
}

static void escaping(void)
{
    char out[64];
    jr_escape("a\x1b]0;t\x07\xe2\x80\xae z\xff", out, sizeof out);
    EXPECT(!strcmp(out, "a\\x1b]0;t\\x07\\u202E z\\xff"), "escape: %s", out);
    jr_escape("\xe4\xb8\xad\xe6\x96\x87", out, sizeof out);
    EXPECT(!strcmp(out, "\xe4\xb8\xad\xe6\x96\x87"), "Chinese is text: %s", out);
    char small[8];
    jr_escape("abcdefghijk", small, sizeof small);
    EXPECT(!strcmp(small, "abcd..."), "cut: %s", small);
    const char *three = "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97";
    EXPECT(!strcmp(jr_clip(out, 8, three), "\xe4\xb8\xad\xe2\x80\xa6"),
           "clip between characters: %s", out);
    EXPECT(!strcmp(jr_clip(out, 8, "short"), "short"), "fits: %s", out);
}

static void lazy(void)
{
    static const char *const keys[] = {"vals", "objs", NULL};
    jr_opts o = {.lazy = keys, .max_values = 12};
    const char *text = "{\"vals\": [[1, 9007199254740993], null, \"n\\u0061n\", [] ],\n"
                       " \"objs\": [{\"a\": 1, \"b\": [2], \"a\": 3}], \"after\": 70}";
    jr_doc d;
    jr_error e;
    jr_status st = jr_read_text("t.json", text, strlen(text), &o, &d, &e);
    EXPECT(st == JR_OK, "lazy arrays read: %s", e.msg);
    REQUIRE(st == JR_OK);
    jr_val root = jr_root(&d), vals = jr_member(&d, root, "vals");
    EXPECT(cJSON_IsArray(vals.j) && jr_count(vals) == 0, "cJSON holds no value of a lazy array");
    jr_tok t = jr_tok_of(&d, vals);
    EXPECT(t.kind == JR_TARRAY && text[t.off] == '[' && text[t.end - 1] == ']', "its bytes");
    jr_tok r0 = jr_tok_first(&d, t), r1 = jr_tok_next(&d, r0), r2 = jr_tok_next(&d, r1);
    jr_tok r3 = jr_tok_next(&d, r2), end = jr_tok_next(&d, r3);
    EXPECT(r0.kind == JR_TARRAY && r1.kind == JR_TNULL && r2.kind == JR_TSTRING &&
               r3.kind == JR_TARRAY && end.kind == JR_TNONE && text[end.off] == ']',
           "the elements in order, then none at the ']'");
    char out[64];
    jr_tok big = jr_tok_next(&d, jr_tok_first(&d, r0));
    EXPECT(!strcmp(jr_tok_text(&d, big, out, sizeof out), "9007199254740993"),
           "a number as written: %s", out);
    EXPECT(!strcmp(jr_tok_text(&d, r2, out, sizeof out), "nan"), "a string unescaped: %s", out);
    EXPECT(jr_tok_first(&d, r3).kind == JR_TNONE, "an empty array has no element");
    EXPECT(!strcmp(jr_tok_found(&d, r1, out, sizeof out), "null"), "named: %s", out);
    jr_tok obj = jr_tok_first(&d, jr_tok_of(&d, jr_member(&d, root, "objs")));
    bool twice = false;
    size_t at = 0;
    jr_tok b = jr_tok_member(&d, obj, "b", &twice, &at);
    EXPECT(b.kind == JR_TARRAY && !twice, "a member found");
    jr_tok a = jr_tok_member(&d, obj, "a", &twice, &at);
    EXPECT(a.kind == JR_TNUMBER && twice && !strncmp(text + at, "\"a\": 3", 6),
           "the first of a key given twice, and where the second is");
    EXPECT(jr_tok_member(&d, obj, "c", NULL, NULL).kind == JR_TNONE, "an absent member");
    jr_val after = jr_member(&d, root, "after");
    int line, col;
    jr_position(&d, jr_off(&d, after), &line, &col);
    EXPECT(cJSON_IsNumber(after.j) && after.j->valueint == 70 && line == 2 && col == 49,
           "a value after lazy arrays keeps its place: %d:%d", line, col);
    jr_destroy(&d);
    const char *bad = "{\"vals\": [1, [2,]]}", *zero = "{\"vals\": [01]}",
               *many = "{\"other\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}";
    refused(bad, strlen(bad), &o, JR_ESYNTAX, 1, 17, "trailing comma");
    refused(zero, strlen(zero), &o, JR_ESYNTAX, 1, 11, "leading zeros");
    refused(many, strlen(many), &o, JR_ETOOMANY, 1, 43, "more than 12 values");
}

static const test_case cases[] = {
    CASE("files", files),
    CASE("refusals", refusals),
    CASE("escaping", escaping),
    CASE("lazy", lazy),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }
