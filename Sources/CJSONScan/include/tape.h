/* The JSON tape's builder: one pass over a text that validates it as strictly as the engine's Swift parser
 * (RFC 8259, a depth cap, escapes, UTF-8; JSONLexer.swift has the same rules) and writes one entry per value and
 * per object key. In C because it is every answer's hot loop: the Swift builder spent about 150 instructions a
 * token, this one about 95 with the entries' stores and string scans (the 3-offer bench answer). Static: no
 * symbols of its own; scans.c compiles it once for the Swift tape (compiled.h), and the `json` fuzz target holds
 * the tape to the tree parser's verdicts and values. */
#ifndef BLINKENGAGE_JSON_TAPE_H
#define BLINKENGAGE_JSON_TAPE_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "scan.h"

/* Entry kinds, containers first (the Swift side tells scalars by kind >= BE_JSON_STRING). */
enum { BE_JSON_OBJECT = 0, BE_JSON_ARRAY, BE_JSON_STRING, BE_JSON_NUMBER, BE_JSON_TRUE, BE_JSON_FALSE, BE_JSON_NULL };

/* One value or key. Strings: `start` is the byte after the opening quote and `length` runs to the closing one;
 * numbers: their spelling; objects and arrays: brackets included. `next` is the entry after this value and
 * everything inside it. */
typedef struct be_json_entry {
    uint32_t start;
    uint32_t length;
    uint32_t next;
    uint8_t type;    /* BE_JSON_OBJECT ... BE_JSON_NULL */
    uint8_t escapes; /* strings: BE_JSON_ESCAPED, and BE_JSON_KEY for an object's key */
} be_json_entry;

typedef enum be_json_status { BE_JSON_OK = 0, BE_JSON_INVALID = 1, BE_JSON_FULL = 2 } be_json_status;

/* The bits of an entry's `escapes`: a backslash escape is among a string's bytes; the string is an object's key
 * (keys are compared, never handed out, so they get no host text). */
#define BE_JSON_ESCAPED 1
#define BE_JSON_KEY 2

/* The open containers a text may nest: the engine's depth cap. */
#define BE_JSON_MAX_DEPTH 128

/* What a build found: the entries written, the scalar ends recorded, or where and why the text is refused. */
typedef struct be_json_outcome {
    size_t count;
    size_t end_count;
    size_t error_offset;
    const char *error_reason; /* a static string */
} be_json_outcome;

/* Two bytes in one load, for the usual ": " and ", " (one compare instead of two bounds checks and two bytes), and
 * the value such a load has for a pair of bytes, in either byte order. */
static inline uint16_t be_json_load16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BE_JSON_PAIR(a, b) ((uint16_t)((a) << 8 | (b)))
#else
#define BE_JSON_PAIR(a, b) ((uint16_t)((b) << 8 | (a)))
#endif

__attribute__((always_inline)) static inline size_t be_json_skip_space(const uint8_t *text, size_t at, size_t count) {
    /* Most skips are of one space (after ':' and ',') or of nothing; anything above the space is not whitespace,
     * one comparison for the byte that ends nearly every skip. */
    if (at < count && text[at] == 0x20) at++;
    while (at < count && text[at] <= 0x20 && (text[at] == 0x20 || text[at] == 0x0A || text[at] == 0x0D || text[at] == 0x09)) at++;
    return at;
}

static inline int be_json_hex(uint8_t byte) {
    if (byte >= '0' && byte <= '9') return byte - '0';
    if (byte >= 'a' && byte <= 'f') return byte - 'a' + 10;
    if (byte >= 'A' && byte <= 'F') return byte - 'A' + 10;
    return -1;
}

/* Four hex digits at `*at`, moved past; -1 (with `*reason`) when they are short or not hex. */
static inline long be_json_hex4(const uint8_t *text, size_t count, size_t *at, const char **reason) {
    long value = 0;
    size_t i;
    if (count - *at < 4) { *reason = "short \\u escape"; return -1; }
    for (i = 0; i < 4; i++) {
        int digit = be_json_hex(text[*at]);
        if (digit < 0) { *reason = "bad hex digit"; return -1; }
        value = value << 4 | digit;
        *at += 1;
    }
    return value;
}

/* One escape at `*at` (a backslash), moved past; NULL, or why it is refused (`*at` then says where). A surrogate
 * must come as an escaped high and low pair. */
static inline const char *be_json_escape(const uint8_t *text, size_t count, size_t *at) {
    const char *reason = NULL;
    long scalar, low;
    *at += 1;
    if (*at >= count) return "unterminated escape";
    switch (text[(*at)++]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return NULL;
    case 'u':
        if ((scalar = be_json_hex4(text, count, at, &reason)) < 0) return reason;
        if (scalar >= 0xDC00 && scalar <= 0xDFFF) return "unpaired surrogate";
        if (scalar < 0xD800 || scalar > 0xDBFF) return NULL;
        if (*at + 1 >= count || text[*at] != '\\' || text[*at + 1] != 'u') return "unpaired surrogate";
        *at += 2;
        if ((low = be_json_hex4(text, count, at, &reason)) < 0) return reason;
        return low >= 0xDC00 && low <= 0xDFFF ? NULL : "unpaired surrogate";
    default:
        return "unknown escape";
    }
}

/* One UTF-8 sequence of two to four bytes at `*at` (its first byte above 0x7F), moved past; NULL, or why it is
 * refused. Overlong forms, surrogates and code points above U+10FFFF are refused, as Swift's validation does. */
static inline const char *be_json_multibyte(const uint8_t *text, size_t count, size_t *at) {
    size_t length, i;
    uint8_t low = 0x80, high = 0xBF, first = text[*at];
    if (first >= 0xC2 && first <= 0xDF) length = 2;
    else if (first == 0xE0) { length = 3; low = 0xA0; }
    else if ((first >= 0xE1 && first <= 0xEC) || first == 0xEE || first == 0xEF) length = 3;
    else if (first == 0xED) { length = 3; high = 0x9F; }
    else if (first == 0xF0) { length = 4; low = 0x90; }
    else if (first >= 0xF1 && first <= 0xF3) length = 4;
    else if (first == 0xF4) { length = 4; high = 0x8F; }
    else return "string is not valid UTF-8";
    if (count - *at < length) return "unterminated string";
    if (text[*at + 1] < low || text[*at + 1] > high) return "string is not valid UTF-8";
    for (i = 2; i < length; i++) if ((text[*at + i] & 0xC0) != 0x80) return "string is not valid UTF-8";
    *at += length;
    return NULL;
}

/* A string's body from `*at` (the byte after its opening quote) to its closing quote, where `*at` ends; NULL, or
 * why it is refused. Runs without anything to check are skipped at once, from the text's marks (scan.h). The builder
 * comes here only for a string whose first look found something else than its closing quote: out of line, so
 * the common case keeps the builder's registers. */
__attribute__((noinline)) static const char *be_json_string_rest(const uint8_t *text, size_t count, const uint64_t *specials,
                                                                 size_t *at, uint8_t *escaped) {
    const char *reason;
    size_t i = *at;
    for (;;) {
        i = be_json_next_special(specials, i);
        if (i >= count) break;
        uint8_t byte = text[i];
        if (byte == '"') { *at = i; return NULL; }
        if (byte == '\\') {
            *escaped |= BE_JSON_ESCAPED;
            if ((reason = be_json_escape(text, count, &i)) != NULL) { *at = i; return reason; }
        } else if (byte < 0x20) {
            *at = i;
            return "control character in a string";
        } else if (byte >= 0x80) {
            if ((reason = be_json_multibyte(text, count, &i)) != NULL) { *at = i; return reason; }
        } else {
            i++;
        }
    }
    *at = i;
    return "unterminated string";
}

/* A number's spelling at `*at`, moved past: -? int frac? exp?. NULL, or why it is refused. */
static inline const char *be_json_number(const uint8_t *text, size_t count, size_t *at) {
    size_t i = *at;
#define BE_JSON_DIGIT(k) ((k) < count && text[k] >= '0' && text[k] <= '9')
    if (i < count && text[i] == '-') i++;
    if (!BE_JSON_DIGIT(i)) { *at = i; return "unexpected character"; }
    if (text[i] == '0') i++;
    else while (BE_JSON_DIGIT(i)) i++;
    if (i < count && text[i] == '.') {
        i++;
        if (!BE_JSON_DIGIT(i)) { *at = i; return "digit expected after '.'"; }
        while (BE_JSON_DIGIT(i)) i++;
    }
    if (i < count && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        if (i < count && (text[i] == '+' || text[i] == '-')) i++;
        if (!BE_JSON_DIGIT(i)) { *at = i; return "digit expected in exponent"; }
        while (BE_JSON_DIGIT(i)) i++;
    }
#undef BE_JSON_DIGIT
    *at = i;
    return NULL;
}

/* `be_json_string_rest`, after a first look: most strings are plain ASCII, whose first marked byte is the closing
 * quote. */
__attribute__((always_inline)) static inline const char *be_json_string(const uint8_t *text, size_t count, const uint64_t *specials,
                                                                         size_t *at, uint8_t *escaped) {
    size_t i = be_json_next_special(specials, *at);
    if (i < count && text[i] == '"') {
        *at = i;
        return NULL;
    }
    /* A copy for the out-of-line rest: were the builder's own position passed, its address would escape, and the
     * builder would keep it in memory, storing it at every step. */
    size_t rest = i;
    const char *reason = be_json_string_rest(text, count, specials, &rest, escaped);
    *at = rest;
    return reason;
}

/* An entry of `ends` (see be_json_build_tape) that names an escaped string's entry rather than an offset. */
#define BE_JSON_END_ESCAPED 0x80000000u

/* Builds the tape of `text` (`count` bytes, below 2 GiB) into `entries`, room for `capacity`, and into `ends` (room
 * for `capacity` too) where each scalar value's host text ends, in document order (`specials` is room for
 * be_json_special_words(count) words, which the build marks first: scan.h): the offset that becomes its NUL
 * (a string's closing quote, the byte after a number or literal, a null's first byte), or for an escaped string its
 * entry's index with BE_JSON_END_ESCAPED set. Keys have none. BE_JSON_OK with `outcome->count` entries and
 * `outcome->end_count` ends; BE_JSON_INVALID with the offset and reason; BE_JSON_FULL when the room ran out (the
 * caller builds again with more: every entry takes at least one byte, so `count + 1` entries always suffice).
 * Nesting reaches at most BE_JSON_MAX_DEPTH: no value at all, scalar or not, below it.
 *
 * A state machine of labels rather than a loop over a "what comes next" variable: each place in the grammar
 * (a key, a value, after a value) is a label, and the innermost container's kind is kept in a register, so a
 * member costs its bytes and a few branches, not a re-dispatch. */
static inline be_json_status be_json_build_tape(const uint8_t *text, size_t count, be_json_entry *entries, size_t capacity,
                                                uint32_t *ends, uint64_t *specials, be_json_outcome *outcome) {
    /* The open containers' entries, innermost last, with the top bit set for an object. */
    uint32_t open[BE_JSON_MAX_DEPTH];
    size_t depth = 0, written = 0, at;
    uint32_t *end = ends; /* the next end's room: one register, not a base and an index */
    int in_object = 0; /* the innermost open container is an object */
    const char *reason;
    be_json_entry *entry;
#define BE_JSON_FAIL(where, why) do { outcome->error_offset = (where); outcome->error_reason = (why); return BE_JSON_INVALID; } while (0)
#define BE_JSON_END_IN_CONTAINER (in_object ? "unexpected end in an object" : "unexpected end in an array")
    be_json_mark_specials(text, count, specials);
    at = be_json_skip_space(text, 0, count);
    goto value;

key: /* at: past '{' or ',', maybe at whitespace (the fast paths skip at most one space) */
    if (at >= count || text[at] != '"') {
        at = be_json_skip_space(text, at, count);
        if (at >= count) BE_JSON_FAIL(at, "unexpected end in an object");
        if (text[at] != '"') BE_JSON_FAIL(at, "expected a key");
    }
    if (written == capacity) return BE_JSON_FULL;
    entry = &entries[written];
    entry->start = (uint32_t)(++at);
    entry->type = BE_JSON_STRING;
    entry->escapes = BE_JSON_KEY;
    if ((reason = be_json_string(text, count, specials, &at, &entry->escapes)) != NULL) BE_JSON_FAIL(at, reason);
    entry->length = (uint32_t)(at - entry->start);
    entry->next = (uint32_t)(++written);
    at++;
    if (count - at >= 2 && be_json_load16(text + at) == BE_JSON_PAIR(':', ' ')) {
        at += 2; /* the usual "key": with one space: one load and compare */
        goto value;
    }
    if (at < count && text[at] == ':') {
        at++; /* "key": without a space before the colon */
    } else {
        at = be_json_skip_space(text, at, count);
        if (at >= count) BE_JSON_FAIL(at, "unexpected end in an object");
        if (text[at] != ':') BE_JSON_FAIL(at, "expected ':'");
        at++;
    }
    if (at < count && text[at] == ' ') at++; /* the usual one space; the switch below skips any more */

value: /* at: at the value, or at whitespace before it */
    if (depth >= BE_JSON_MAX_DEPTH) BE_JSON_FAIL(be_json_skip_space(text, at, count), "nested deeper than 128");
    if (at >= count) BE_JSON_FAIL(at, "unexpected end");
    if (written == capacity) return BE_JSON_FULL;
    entry = &entries[written];
    entry->escapes = 0;
    switch (text[at]) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
        at = be_json_skip_space(text, at, count);
        goto value;
    case '"':
        entry->type = BE_JSON_STRING;
        entry->start = (uint32_t)(++at);
        if ((reason = be_json_string(text, count, specials, &at, &entry->escapes)) != NULL) BE_JSON_FAIL(at, reason);
        entry->length = (uint32_t)(at - entry->start);
        *end++ = entry->escapes ? (uint32_t)written | BE_JSON_END_ESCAPED : (uint32_t)at;
        at++;
        break;
    case '{':
    case '[':
        in_object = text[at] == '{';
        entry->type = in_object ? BE_JSON_OBJECT : BE_JSON_ARRAY;
        entry->start = (uint32_t)at;
        open[depth++] = (uint32_t)written | (in_object ? 0x80000000u : 0);
        written++;
        at = be_json_skip_space(text, at + 1, count);
        if (at >= count) BE_JSON_FAIL(at, BE_JSON_END_IN_CONTAINER);
        if (text[at] == (in_object ? '}' : ']')) goto close; /* empty */
        if (in_object) goto key;
        goto value;
    case 't':
    case 'f':
    case 'n': {
        /* true, false or null: the first byte says which */
        const uint8_t first = text[at];
        const char *literal = first == 't' ? "true" : first == 'f' ? "false" : "null";
        const size_t length = first == 'f' ? 5 : 4;
        if (count - at < length) BE_JSON_FAIL(at, "unexpected end");
        if (memcmp(text + at, literal, length) != 0) BE_JSON_FAIL(at, "unknown literal");
        entry->type = first == 't' ? BE_JSON_TRUE : first == 'f' ? BE_JSON_FALSE : BE_JSON_NULL;
        entry->start = (uint32_t)at;
        entry->length = (uint32_t)length;
        *end++ = (uint32_t)(first == 'n' ? at : at + length); /* null reads as "" */
        at += length;
        break;
    }
    default:
        entry->type = BE_JSON_NUMBER;
        entry->start = (uint32_t)at;
        if ((reason = be_json_number(text, count, &at)) != NULL) BE_JSON_FAIL(at, reason);
        entry->length = (uint32_t)(at - entry->start);
        *end++ = (uint32_t)at;
        break;
    }
    entry->next = (uint32_t)(++written);
    if (depth == 0) goto done;

after_value: /* at: just past a value inside a container */
    if (count - at >= 2 && be_json_load16(text + at) == BE_JSON_PAIR(',', ' ')) { /* the usual ", " */
        at += 2;
        if (in_object) goto key;
        goto value;
    }
    if (at < count && text[at] == ',') { /* "value," without a space before the comma */
        at++;
        if (at < count && text[at] == ' ') at++;
        if (in_object) goto key;
        goto value;
    }
    at = be_json_skip_space(text, at, count);
    if (at >= count) BE_JSON_FAIL(at, BE_JSON_END_IN_CONTAINER);
    if (text[at] == ',') {
        at = be_json_skip_space(text, at + 1, count);
        if (in_object) goto key;
        goto value;
    }
    if (text[at] != (in_object ? '}' : ']')) BE_JSON_FAIL(at, in_object ? "expected ',' or '}'" : "expected ',' or ']'");

close: /* at: the innermost container's closing bracket */
    entry = &entries[open[--depth] & 0x7FFFFFFFu];
    at++;
    entry->length = (uint32_t)(at - entry->start);
    entry->next = (uint32_t)written;
    if (depth == 0) goto done;
    in_object = (open[depth - 1] & 0x80000000u) != 0;
    goto after_value;

done:
    at = be_json_skip_space(text, at, count);
    if (at != count) BE_JSON_FAIL(at, "unexpected data after the value");
    outcome->count = written;
    outcome->end_count = (size_t)(end - ends);
    return BE_JSON_OK;
#undef BE_JSON_FAIL
#undef BE_JSON_END_IN_CONTAINER
}

/* The UTF-8 of a string body at `start..<end` that the builder accepted, its escapes resolved, written to
 * `destination` (room for `end - start` bytes: resolving never lengthens, "\uXXXX" being at most 3 bytes of
 * UTF-8 and an escaped pair 4); returns how many bytes it wrote. Plain runs are copied whole. */
static inline size_t be_json_unescape(const uint8_t *text, size_t start, size_t end, uint8_t *destination) {
    size_t written = 0, at = start;
    while (at < end) {
        const uint8_t *backslash = (const uint8_t *)memchr(text + at, '\\', end - at);
        size_t run = backslash ? (size_t)(backslash - (text + at)) : end - at;
        memcpy(destination + written, text + at, run);
        written += run;
        at += run;
        if (at >= end) break;
        uint8_t escape = text[at + 1];
        at += 2;
        uint32_t scalar;
        switch (escape) {
        case 'b': destination[written++] = 0x08; continue;
        case 'f': destination[written++] = 0x0C; continue;
        case 'n': destination[written++] = 0x0A; continue;
        case 'r': destination[written++] = 0x0D; continue;
        case 't': destination[written++] = 0x09; continue;
        case 'u': break;
        default: destination[written++] = escape; continue; /* '"', '\\' and '/' stand for themselves */
        }
        scalar = (uint32_t)(be_json_hex(text[at]) << 12 | be_json_hex(text[at + 1]) << 8 | be_json_hex(text[at + 2]) << 4 |
                            be_json_hex(text[at + 3]));
        at += 4;
        if (scalar >= 0xD800 && scalar <= 0xDBFF) { /* a high surrogate: the builder saw its low half follow */
            uint32_t low = (uint32_t)(be_json_hex(text[at + 2]) << 12 | be_json_hex(text[at + 3]) << 8 |
                                      be_json_hex(text[at + 4]) << 4 | be_json_hex(text[at + 5]));
            at += 6;
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00);
        }
        if (scalar < 0x80) {
            destination[written++] = (uint8_t)scalar;
        } else if (scalar < 0x800) {
            destination[written++] = (uint8_t)(0xC0 | scalar >> 6);
            destination[written++] = (uint8_t)(0x80 | (scalar & 0x3F));
        } else if (scalar < 0x10000) {
            destination[written++] = (uint8_t)(0xE0 | scalar >> 12);
            destination[written++] = (uint8_t)(0x80 | (scalar >> 6 & 0x3F));
            destination[written++] = (uint8_t)(0x80 | (scalar & 0x3F));
        } else {
            destination[written++] = (uint8_t)(0xF0 | scalar >> 18);
            destination[written++] = (uint8_t)(0x80 | (scalar >> 12 & 0x3F));
            destination[written++] = (uint8_t)(0x80 | (scalar >> 6 & 0x3F));
            destination[written++] = (uint8_t)(0x80 | (scalar & 0x3F));
        }
    }
    return written;
}

/* Copies `text` (`count` bytes) to `destination` (room for `count + 1`) with every scalar value's host text
 * NUL-terminated where it starts, from the `ends` the build recorded: the byte after a number or literal, or a
 * string's closing quote, becomes the NUL; an escaped string is written resolved in its place; null reads as "".
 * Keys and containers are left as they are, their bytes overwritten by their members' NULs. One store a scalar: a
 * walk over every entry cost about three times as much, most of it telling keys and containers apart. */
static inline void be_json_write_scalar_texts(const uint8_t *text, size_t count, const be_json_entry *entries,
                                              const uint32_t *ends, size_t end_count, uint8_t *destination) {
    size_t i;
    if (count > 0) memcpy(destination, text, count);
    destination[count] = 0;
    for (i = 0; i < end_count; i++) {
        const uint32_t end = ends[i];
        if (end & BE_JSON_END_ESCAPED) {
            const be_json_entry *entry = &entries[end & ~BE_JSON_END_ESCAPED];
            const size_t start = entry->start;
            destination[start + be_json_unescape(text, start, start + entry->length, destination + start)] = 0;
        } else {
            destination[end] = 0;
        }
    }
}
#endif
