/* The plain http(s) URL check every URL field of every offer goes through (URLParts.isPlainHTTP documents the
 * rules; the `url` fuzz target holds it to libcurl). In C for 16-byte blocks over the host and the path (a byte
 * table for the host's last bytes): the Swift check spent about 270 instructions on a typical 70-byte URL, this
 * one about 200 with its caller. SSE2 or NEON blocks, or byte loops in plain C (scan.h chooses). static inline: no
 * symbols. */
#ifndef BLINKENGAGE_URL_SCAN_H
#define BLINKENGAGE_URL_SCAN_H
#include <stddef.h>
#include <stdint.h>
#include "scan.h" /* BE_SCAN_SSE2 / BE_SCAN_NEON: which vector instructions, if any */

/* Host byte classes: 1 a letter or digit, 2 '.', 3 '-', 4 what ends the host (':', '/', '?', '#'), 0 the rest. */
static const uint8_t be_url_host_class[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
    ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
    ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
    ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
    ['.'] = 2, ['-'] = 3, [':'] = 4, ['/'] = 4, ['?'] = 4, ['#'] = 4,
};

#if defined(BE_SCAN_SSE2)
/* The masks of one host block: letters and digits, dots, hyphens, and the bytes that end the host. Signed compares
 * after a shift that moves 'a'...'z' (with upper case folded in) and '0'...'9' to the bottom of the signed range,
 * where nothing else lands. */
static inline void be_url_host_block(const uint8_t *p, unsigned *alnum, unsigned *dots, unsigned *hyphens, unsigned *ends) {
    const __m128i block = _mm_loadu_si128((const __m128i *)p);
    const __m128i letters = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(block, _mm_set1_epi8(0x20)), _mm_set1_epi8((char)(0x80 - 'a'))),
                                           _mm_set1_epi8((char)(0x80 + 26)));
    const __m128i digits = _mm_cmplt_epi8(_mm_add_epi8(block, _mm_set1_epi8((char)(0x80 - '0'))), _mm_set1_epi8((char)(0x80 + 10)));
    const __m128i end = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(':')), _mm_cmpeq_epi8(block, _mm_set1_epi8('/'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('?')), _mm_cmpeq_epi8(block, _mm_set1_epi8('#'))));
    *alnum = (unsigned)_mm_movemask_epi8(_mm_or_si128(letters, digits));
    *dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_set1_epi8('.')));
    *hyphens = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_set1_epi8('-')));
    *ends = (unsigned)_mm_movemask_epi8(end);
}

/* Whether a path block holds a space, a control character, DEL or a byte of 0x80 and above (signed: negative). */
static inline int be_url_path_block_is_bad(const uint8_t *p) {
    const __m128i block = _mm_loadu_si128((const __m128i *)p);
    return _mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(block, _mm_set1_epi8(0x21)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x7F)))) != 0;
}
#elif defined(BE_SCAN_NEON)
/* The same masks with NEON's unsigned compares. */
static inline void be_url_host_block(const uint8_t *p, unsigned *alnum, unsigned *dots, unsigned *hyphens, unsigned *ends) {
    const uint8x16_t block = vld1q_u8(p);
    const uint8x16_t letters = vcltq_u8(vsubq_u8(vorrq_u8(block, vdupq_n_u8(0x20)), vdupq_n_u8('a')), vdupq_n_u8(26));
    const uint8x16_t digits = vcltq_u8(vsubq_u8(block, vdupq_n_u8('0')), vdupq_n_u8(10));
    const uint8x16_t end = vorrq_u8(vorrq_u8(vceqq_u8(block, vdupq_n_u8(':')), vceqq_u8(block, vdupq_n_u8('/'))),
                                    vorrq_u8(vceqq_u8(block, vdupq_n_u8('?')), vceqq_u8(block, vdupq_n_u8('#'))));
    *alnum = be_neon_movemask(vorrq_u8(letters, digits));
    *dots = be_neon_movemask(vceqq_u8(block, vdupq_n_u8('.')));
    *hyphens = be_neon_movemask(vceqq_u8(block, vdupq_n_u8('-')));
    *ends = be_neon_movemask(end);
}

static inline int be_url_path_block_is_bad(const uint8_t *p) {
    const uint8x16_t block = vld1q_u8(p);
    return vmaxvq_u8(vorrq_u8(vcltq_u8(block, vdupq_n_u8(0x21)), vcgeq_u8(block, vdupq_n_u8(0x7F)))) != 0;
}
#endif

/* Whether `bytes` (`count` long) is a plain absolute http(s) URL: lower-case "http://" or "https://", a host of
 * labels of letters, digits and hyphens (each label not empty and starting with a letter or digit, the host at
 * most 253 bytes, the last label not starting with a digit, no "--"), an optional port 1...65535, then nothing or a
 * path, query or fragment of printable ASCII without the space. 1 or 0. Every URL it accepts, WHATWG's URL parser
 * reads as http(s) with that host; 0 leaves a URL to the full check. */
static inline int be_url_is_plain_http(const uint8_t *bytes, size_t count) {
    size_t at, host_start;
    int label_start = 1;
    if (count <= 7 || bytes[0] != 'h' || bytes[1] != 't' || bytes[2] != 't' || bytes[3] != 'p') return 0;
    at = bytes[4] == 's' ? 5 : 4;
    if (count <= at + 3 || bytes[at] != ':' || bytes[at + 1] != '/' || bytes[at + 2] != '/') return 0;
    at += 3;
    host_start = at;
#if defined(BE_SCAN_SSE2) || defined(BE_SCAN_NEON)
    /* 16 host bytes at a time while 16 remain: a bit per byte for letters and digits, dots, hyphens and the
     * bytes that end the host; a label starts at the host's start and after each dot and must start with a
     * letter or digit (which refuses empty labels and a leading '-' too). */
    while (count - at >= 16) {
        unsigned alnum, dots, hyphens, end_mask;
        be_url_host_block(bytes + at, &alnum, &dots, &hyphens, &end_mask);
        const unsigned length = end_mask ? (unsigned)__builtin_ctz(end_mask) : 16;
        const unsigned inside = (1u << length) - 1;
        const unsigned starts = ((dots << 1) | (unsigned)label_start) & inside;
        if (((alnum | dots | hyphens) & inside) != inside || (starts & ~alnum) != 0) return 0;
        if (length > 0) label_start = (int)(dots >> (length - 1) & 1);
        at += length;
        if (length < 16) goto host_end;
    }
#endif
    for (; at < count; at++) {
        uint8_t class = be_url_host_class[bytes[at]];
        if (class == 1) { label_start = 0; continue; }
        if (class == 4) break;
        if (class == 0 || label_start) return 0; /* a stray byte, or '.' or '-' starting a label */
        if (class == 2) label_start = 1;
    }
#if defined(BE_SCAN_SSE2) || defined(BE_SCAN_NEON)
host_end:
#endif
    if (at == host_start || at - host_start > 253 || label_start) return 0;
    {
        /* Left to the full check (WebURL.swift): a host whose last label starts with a digit (WHATWG reads a host
         * that ends in a number as an IPv4 address, which may be out of range) and one with "--" (a punycode
         * label, "xn--", must decode). */
        size_t last = at - 1;
        while (last > host_start && bytes[last - 1] != '.') last--;
        if (bytes[last] >= '0' && bytes[last] <= '9') return 0;
        for (size_t i = host_start + 1; i < at; i++)
            if (bytes[i] == '-' && bytes[i - 1] == '-') return 0;
    }
    if (at < count && bytes[at] == ':') {
        unsigned port = 0, digits = 0;
        for (at++; at < count && bytes[at] >= '0' && bytes[at] <= '9'; at++) {
            if (++digits > 5) return 0;
            port = port * 10 + (unsigned)(bytes[at] - '0');
        }
        if (digits == 0 || port < 1 || port > 65535) return 0;
    }
    if (at == count) return 1;
    if (bytes[at] != '/' && bytes[at] != '?' && bytes[at] != '#') return 0;
#if defined(BE_SCAN_SSE2) || defined(BE_SCAN_NEON)
    if (count >= 16) {
        /* The last block ends at the URL's end, overlapping bytes already seen instead of a byte loop for the rest. */
        for (;;) {
            size_t start = count - at >= 16 ? at : count - 16;
            if (be_url_path_block_is_bad(bytes + start)) return 0;
            if (start + 16 >= count) return 1;
            at = start + 16;
        }
    }
#endif
    for (; at < count; at++) if (bytes[at] < 0x21 || bytes[at] > 0x7E) return 0;
    return 1;
}
#endif
