/* The fast path of the URL reading every URL field of every offer goes through: whether an http(s) URL is already
 * its own WHATWG `href`, so that it can be handed out as given without parsing (WebURL.swift parses the rest). In C
 * for 16-byte blocks over the host, the path and the query (SSE2 or NEON, or a byte table in plain C: scan.h
 * chooses), and 32-byte ones where an x86-64 has AVX2 (url_width.h has the checks once for either width).
 * static inline: no symbols of its own; scans.c compiles the two checks Swift calls (compiled.h). */
#ifndef BLINKENGAGE_URL_SCAN_H
#define BLINKENGAGE_URL_SCAN_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "scan.h" /* BE_SCAN_SSE2 / BE_SCAN_NEON: which vector instructions, if any */

/* Host byte classes: 1 a lower-case letter or digit, 2 '.', 3 '-', 4 what ends the host (':', '/', '?', '#'), 0 the
 * rest (upper case among it: the href has the host in lower case). */
static const uint8_t be_url_host_class[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
    ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
    ['.'] = 2, ['-'] = 3, [':'] = 4, ['/'] = 4, ['?'] = 4, ['#'] = 4,
};

/* Byte classes after the host, as bits: 1 not in a canonical path (spaces, controls, DEL, non-ASCII, '"', '<', '>',
 * '`', '{', '}', '\'), 2 not in a canonical query or fragment (the same but '{' and '}', plus '\''), 4 ends the path
 * ('?', '#'), 8 '/', 16 '.', 32 '%' (the last two may start a dot segment: "." ".." "%2e"). */
static const uint8_t be_url_rest_class[256] = {
    [0x00 ... 0x20] = 3, [0x7F ... 0xFF] = 3,
    ['"'] = 3, ['<'] = 3, ['>'] = 3, ['`'] = 3, ['\\'] = 3, ['{'] = 1, ['}'] = 1, ['\''] = 2,
    ['?'] = 4, ['#'] = 4, ['/'] = 8, ['.'] = 16, ['%'] = 32,
};

/* The masks of one block of 16 bytes of a path, a bit per byte (byte 0 in bit 0), one mask per class; and the bytes
 * no canonical query or fragment holds, for the bytes of the block after the path's end. */
typedef struct { unsigned bad, ends, slashes, dots, percents, query_bad; } be_url_path_masks;

#if defined(BE_SCAN_SSE2)
/* The masks of one host block: lower-case letters and digits, dots, hyphens, and the bytes that end the host.
 * Signed compares after a shift that moves 'a'...'z' and '0'...'9' to the bottom of the signed range, where nothing
 * else lands. */
static inline void be_url_host_block(const uint8_t *p, unsigned *alnum, unsigned *dots, unsigned *hyphens, unsigned *ends) {
    const __m128i block = _mm_loadu_si128((const __m128i *)p);
    const __m128i letters = _mm_cmplt_epi8(_mm_add_epi8(block, _mm_set1_epi8((char)(0x80 - 'a'))), _mm_set1_epi8((char)(0x80 + 26)));
    const __m128i digits = _mm_cmplt_epi8(_mm_add_epi8(block, _mm_set1_epi8((char)(0x80 - '0'))), _mm_set1_epi8((char)(0x80 + 10)));
    const __m128i end = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(':')), _mm_cmpeq_epi8(block, _mm_set1_epi8('/'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('?')), _mm_cmpeq_epi8(block, _mm_set1_epi8('#'))));
    *alnum = (unsigned)_mm_movemask_epi8(_mm_or_si128(letters, digits));
    *dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_set1_epi8('.')));
    *hyphens = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_set1_epi8('-')));
    *ends = (unsigned)_mm_movemask_epi8(end);
}

#define BE_URL_EQ(c) _mm_cmpeq_epi8(block, _mm_set1_epi8(c))
/* What neither a canonical path nor a query may hold: controls, the space, DEL, non-ASCII (signed: bytes of 0x80 and
 * above are negative, so below 0x21 too), '"', '<', '>', '`', '\'. */
static inline __m128i be_url_common_bad(__m128i block) {
    const __m128i controls = _mm_or_si128(_mm_cmplt_epi8(block, _mm_set1_epi8(0x21)), BE_URL_EQ(0x7F));
    return _mm_or_si128(_mm_or_si128(controls, _mm_or_si128(BE_URL_EQ('"'), BE_URL_EQ('\\'))),
                        _mm_or_si128(_mm_or_si128(BE_URL_EQ('<'), BE_URL_EQ('>')), BE_URL_EQ('`')));
}

static inline be_url_path_masks be_url_path_block(const uint8_t *p) {
    const __m128i block = _mm_loadu_si128((const __m128i *)p);
    const __m128i common = be_url_common_bad(block);
    be_url_path_masks m;
    m.bad = (unsigned)_mm_movemask_epi8(_mm_or_si128(common, _mm_or_si128(BE_URL_EQ('{'), BE_URL_EQ('}'))));
    m.query_bad = (unsigned)_mm_movemask_epi8(_mm_or_si128(common, BE_URL_EQ('\'')));
    m.ends = (unsigned)_mm_movemask_epi8(_mm_or_si128(BE_URL_EQ('?'), BE_URL_EQ('#')));
    m.slashes = (unsigned)_mm_movemask_epi8(BE_URL_EQ('/'));
    m.dots = (unsigned)_mm_movemask_epi8(BE_URL_EQ('.'));
    m.percents = (unsigned)_mm_movemask_epi8(BE_URL_EQ('%'));
    return m;
}

/* The bytes of a block no canonical query or fragment holds. */
static inline __m128i be_url_rest_bad_vector(__m128i block) { return _mm_or_si128(be_url_common_bad(block), BE_URL_EQ('\'')); }
static inline unsigned be_url_rest_bad(const uint8_t *p) {
    return (unsigned)_mm_movemask_epi8(be_url_rest_bad_vector(_mm_loadu_si128((const __m128i *)p)));
}

/* Whether any of `blocks` whole blocks from `p` holds a byte no canonical query or fragment holds: one mask at the
 * end instead of one a block. */
static inline int be_url_rest_blocks_are_bad(const uint8_t *p, size_t blocks) {
    __m128i seen = _mm_setzero_si128();
    for (size_t i = 0; i < blocks; i++) seen = _mm_or_si128(seen, be_url_rest_bad_vector(_mm_loadu_si128((const __m128i *)(p + 16 * i))));
    return _mm_movemask_epi8(seen) != 0;
}
#undef BE_URL_EQ
#elif defined(BE_SCAN_NEON)
/* The same masks with NEON's unsigned compares. */
static inline void be_url_host_block(const uint8_t *p, unsigned *alnum, unsigned *dots, unsigned *hyphens, unsigned *ends) {
    const uint8x16_t block = vld1q_u8(p);
    const uint8x16_t letters = vcltq_u8(vsubq_u8(block, vdupq_n_u8('a')), vdupq_n_u8(26));
    const uint8x16_t digits = vcltq_u8(vsubq_u8(block, vdupq_n_u8('0')), vdupq_n_u8(10));
    const uint8x16_t end = vorrq_u8(vorrq_u8(vceqq_u8(block, vdupq_n_u8(':')), vceqq_u8(block, vdupq_n_u8('/'))),
                                    vorrq_u8(vceqq_u8(block, vdupq_n_u8('?')), vceqq_u8(block, vdupq_n_u8('#'))));
    *alnum = be_neon_movemask(vorrq_u8(letters, digits));
    *dots = be_neon_movemask(vceqq_u8(block, vdupq_n_u8('.')));
    *hyphens = be_neon_movemask(vceqq_u8(block, vdupq_n_u8('-')));
    *ends = be_neon_movemask(end);
}

#define BE_URL_EQ(c) vceqq_u8(block, vdupq_n_u8(c))
static inline uint8x16_t be_url_common_bad(uint8x16_t block) {
    const uint8x16_t controls = vorrq_u8(vcltq_u8(block, vdupq_n_u8(0x21)), vcgeq_u8(block, vdupq_n_u8(0x7F)));
    return vorrq_u8(vorrq_u8(controls, vorrq_u8(BE_URL_EQ('"'), BE_URL_EQ('\\'))),
                    vorrq_u8(vorrq_u8(BE_URL_EQ('<'), BE_URL_EQ('>')), BE_URL_EQ('`')));
}

static inline be_url_path_masks be_url_path_block(const uint8_t *p) {
    const uint8x16_t block = vld1q_u8(p);
    const uint8x16_t common = be_url_common_bad(block);
    be_url_path_masks m;
    m.bad = be_neon_movemask(vorrq_u8(common, vorrq_u8(BE_URL_EQ('{'), BE_URL_EQ('}'))));
    m.query_bad = be_neon_movemask(vorrq_u8(common, BE_URL_EQ('\'')));
    m.ends = be_neon_movemask(vorrq_u8(BE_URL_EQ('?'), BE_URL_EQ('#')));
    m.slashes = be_neon_movemask(BE_URL_EQ('/'));
    m.dots = be_neon_movemask(BE_URL_EQ('.'));
    m.percents = be_neon_movemask(BE_URL_EQ('%'));
    return m;
}

static inline uint8x16_t be_url_rest_bad_vector(uint8x16_t block) { return vorrq_u8(be_url_common_bad(block), BE_URL_EQ('\'')); }
static inline unsigned be_url_rest_bad(const uint8_t *p) { return be_neon_movemask(be_url_rest_bad_vector(vld1q_u8(p))); }

static inline int be_url_rest_blocks_are_bad(const uint8_t *p, size_t blocks) {
    uint8x16_t seen = vdupq_n_u8(0);
    for (size_t i = 0; i < blocks; i++) seen = vorrq_u8(seen, be_url_rest_bad_vector(vld1q_u8(p + 16 * i)));
    return vmaxvq_u8(seen) != 0;
}
#undef BE_URL_EQ
#else
/* Plain C: the same masks from the byte table. */
static inline be_url_path_masks be_url_path_block(const uint8_t *p) {
    be_url_path_masks m = {0, 0, 0, 0, 0, 0};
    for (unsigned i = 0; i < 16; i++) {
        const unsigned class = be_url_rest_class[p[i]];
        m.bad |= (class & 1u) << i;
        m.query_bad |= (class >> 1 & 1u) << i;
        m.ends |= (class >> 2 & 1u) << i;
        m.slashes |= (class >> 3 & 1u) << i;
        m.dots |= (class >> 4 & 1u) << i;
        m.percents |= (class >> 5 & 1u) << i;
    }
    return m;
}

static inline unsigned be_url_rest_bad(const uint8_t *p) {
    unsigned bad = 0;
    for (unsigned i = 0; i < 16; i++) bad |= (be_url_rest_class[p[i]] >> 1 & 1u) << i;
    return bad;
}

static inline int be_url_rest_blocks_are_bad(const uint8_t *p, size_t blocks) {
    unsigned bad = 0;
    for (size_t i = 0; i < 16 * blocks; i++) bad |= be_url_rest_class[p[i]] & 2u;
    return bad != 0;
}
#endif

#if defined(BE_SCAN_AVX2)
/* The same masks for 32-byte blocks with AVX2 (scan.h: BE_SCAN_AVX2 and be_scan_has_avx2). */
#define BE_URL_EQ32(c) _mm256_cmpeq_epi8(block, _mm256_set1_epi8(c))
__attribute__((target("avx2"))) static inline void be_url_host_block32(const uint8_t *p, unsigned *alnum, unsigned *dots,
                                                                        unsigned *hyphens, unsigned *ends) {
    const __m256i block = _mm256_loadu_si256((const __m256i *)p);
    const __m256i letters = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 26)), _mm256_add_epi8(block, _mm256_set1_epi8((char)(0x80 - 'a'))));
    const __m256i digits = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 10)), _mm256_add_epi8(block, _mm256_set1_epi8((char)(0x80 - '0'))));
    const __m256i end = _mm256_or_si256(_mm256_or_si256(BE_URL_EQ32(':'), BE_URL_EQ32('/')), _mm256_or_si256(BE_URL_EQ32('?'), BE_URL_EQ32('#')));
    *alnum = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(letters, digits));
    *dots = (unsigned)_mm256_movemask_epi8(BE_URL_EQ32('.'));
    *hyphens = (unsigned)_mm256_movemask_epi8(BE_URL_EQ32('-'));
    *ends = (unsigned)_mm256_movemask_epi8(end);
}

__attribute__((target("avx2"))) static inline __m256i be_url_common_bad32(__m256i block) {
    const __m256i controls = _mm256_or_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(0x21), block), BE_URL_EQ32(0x7F));
    return _mm256_or_si256(_mm256_or_si256(controls, _mm256_or_si256(BE_URL_EQ32('"'), BE_URL_EQ32('\\'))),
                           _mm256_or_si256(_mm256_or_si256(BE_URL_EQ32('<'), BE_URL_EQ32('>')), BE_URL_EQ32('`')));
}

__attribute__((target("avx2"))) static inline be_url_path_masks be_url_path_block32(const uint8_t *p) {
    const __m256i block = _mm256_loadu_si256((const __m256i *)p);
    const __m256i common = be_url_common_bad32(block);
    be_url_path_masks m;
    m.bad = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(common, _mm256_or_si256(BE_URL_EQ32('{'), BE_URL_EQ32('}'))));
    m.query_bad = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(common, BE_URL_EQ32('\'')));
    m.ends = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(BE_URL_EQ32('?'), BE_URL_EQ32('#')));
    m.slashes = (unsigned)_mm256_movemask_epi8(BE_URL_EQ32('/'));
    m.dots = (unsigned)_mm256_movemask_epi8(BE_URL_EQ32('.'));
    m.percents = (unsigned)_mm256_movemask_epi8(BE_URL_EQ32('%'));
    return m;
}

__attribute__((target("avx2"))) static inline __m256i be_url_rest_bad_vector32(__m256i block) {
    return _mm256_or_si256(be_url_common_bad32(block), BE_URL_EQ32('\''));
}
__attribute__((target("avx2"))) static inline unsigned be_url_rest_bad32(const uint8_t *p) {
    return (unsigned)_mm256_movemask_epi8(be_url_rest_bad_vector32(_mm256_loadu_si256((const __m256i *)p)));
}
__attribute__((target("avx2"))) static inline int be_url_rest_blocks_are_bad32(const uint8_t *p, size_t blocks) {
    __m256i seen = _mm256_setzero_si256();
    for (size_t i = 0; i < blocks; i++) seen = _mm256_or_si256(seen, be_url_rest_bad_vector32(_mm256_loadu_si256((const __m256i *)(p + 32 * i))));
    return _mm256_movemask_epi8(seen) != 0;
}
#undef BE_URL_EQ32
#endif

/* Whether `bytes` holds a C0 control or a backslash: what the parser refuses anywhere (WebURL.swift). */
static inline int be_url_has_control_or_backslash(const uint8_t *bytes, size_t count) {
    size_t at = 0;
#if defined(BE_SCAN_SSE2)
    for (; count - at >= 16; at += 16) {
        const __m128i block = _mm_loadu_si128((const __m128i *)(bytes + at));
        const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(0x1F)), block),
                                         _mm_cmpeq_epi8(block, _mm_set1_epi8('\\')));
        if (_mm_movemask_epi8(hit) != 0) return 1;
    }
#elif defined(BE_SCAN_NEON)
    for (; count - at >= 16; at += 16) {
        const uint8x16_t block = vld1q_u8(bytes + at);
        if (vmaxvq_u8(vorrq_u8(vcltq_u8(block, vdupq_n_u8(0x20)), vceqq_u8(block, vdupq_n_u8('\\')))) != 0) return 1;
    }
#endif
    for (; at < count; at++) if (bytes[at] < 0x20 || bytes[at] == '\\') return 1;
    return 0;
}

/* WHATWG's percent-encode sets the URL parser (WebURL.swift) writes with, as bits of a byte table: 1 the fragment
 * set, 2 the special-query set, 4 the path set, 8 the userinfo set. Each holds the C0 controls, the space and every
 * byte of 0x7F and above. */
static const uint8_t be_url_encode_sets[256] = {
    [0x00 ... 0x20] = 15, [0x7F ... 0xFF] = 15,
    ['"'] = 15, ['<'] = 15, ['>'] = 15, ['`'] = 13, ['#'] = 14, ['\''] = 2, ['?'] = 12, ['{'] = 12, ['}'] = 12,
    ['/'] = 8, [':'] = 8, [';'] = 8, ['='] = 8, ['@'] = 8, ['['] = 8, ['\\'] = 8, [']'] = 8, ['^'] = 8, ['|'] = 8,
};

static inline unsigned be_url_encode_sets_of(uint8_t byte) { return be_url_encode_sets[byte]; }

/* Whether the host (`count` bytes) is an IPv4 address in dotted decimal as the standard writes it: four parts of
 * 0...255 without leading zeros, and nothing else. A part's one to three digits are read unrolled: a loop over the
 * bytes with a state per byte cost about 260 instructions for "10.20.30.40". */
static inline int be_url_is_dotted_quad(const uint8_t *host, size_t count) {
    size_t at = 0;
    for (unsigned part = 0; part < 4; part++) {
        if (part > 0 && (at >= count || host[at++] != '.')) return 0;
        unsigned value, digit;
        if (at >= count || (value = (unsigned)host[at] - '0') > 9) return 0;
        at++;
        if (at < count && (digit = (unsigned)host[at] - '0') <= 9) {
            if (value == 0) return 0; /* a leading zero */
            value = value * 10 + digit;
            at++;
            if (at < count && (digit = (unsigned)host[at] - '0') <= 9) {
                value = value * 10 + digit;
                at++;
                if (value > 255) return 0;
            }
        }
    }
    return at == count;
}

/* Whether `text` (`count` bytes, between a host's brackets) is an IPv6 address as the standard writes it: eight
 * pieces of lower-case hex without leading zeros, the first longest run of two or more zero pieces written as "::"
 * and no other, no dotted IPv4 tail. */
static inline int be_url_is_canonical_ipv6(const uint8_t *text, size_t count) {
    unsigned pieces[8];
    int written = 0, compress = -1;
    size_t at = 0;
    if (count >= 2 && text[0] == ':' && text[1] == ':') {
        compress = 0;
        at = 2;
    } else if (count == 0 || text[0] == ':') {
        return 0;
    }
    while (at < count) {
        const size_t start = at;
        unsigned value = 0;
        for (; at < count && at - start < 5; at++) {
            const uint8_t c = text[at];
            if (c >= '0' && c <= '9') value = value * 16 + (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f') value = value * 16 + (unsigned)(c - 'a' + 10);
            else break;
        }
        if (at == start || at - start > 4 || (at - start > 1 && text[start] == '0') || written == 8) return 0;
        pieces[written++] = value;
        if (at == count) break;
        if (text[at++] != ':' || at == count) return 0;
        if (text[at] == ':') {
            if (compress >= 0) return 0;
            compress = written;
            at++;
        }
    }
    {
        /* The whole address, then its first longest run of zero pieces: the one "::" must stand for. */
        unsigned address[8];
        const int zeros = compress < 0 ? 0 : 8 - written;
        int best_start = -1, best_length = 1;
        if (compress < 0 ? written != 8 : zeros < 2) return 0;
        for (int i = 0, j = 0; i < 8; i++) address[i] = (compress >= 0 && i >= compress && i < compress + zeros) ? 0 : pieces[j++];
        for (int i = 0; i < 8;) {
            int length = 0;
            while (i + length < 8 && address[i + length] == 0) length++;
            if (length > best_length) { best_start = i; best_length = length; }
            i += length > 0 ? length : 1;
        }
        return compress < 0 ? best_start < 0 : best_start == compress && best_length == zeros;
    }
}


/* The mask of a block's first `n` bytes (n at most 32: a shift by 32 is undefined). */
static inline unsigned be_url_low_bits(unsigned n) { return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1; }

/* The checks for 16-byte blocks, then for AVX2's 32 (url_width.h). */
#define BE_URL_WIDTH 16
#define BE_URL_NAME(name) name##_16
#define BE_URL_ATTRIBUTES
#define BE_URL_PATH_BLOCK be_url_path_block
#define BE_URL_REST_BAD be_url_rest_bad
#define BE_URL_REST_BLOCKS_ARE_BAD be_url_rest_blocks_are_bad
#if defined(BE_SCAN_SSE2) || defined(BE_SCAN_NEON)
#define BE_URL_HOST_BLOCK be_url_host_block
#endif
#include "url_width.h"
#undef BE_URL_WIDTH
#undef BE_URL_NAME
#undef BE_URL_ATTRIBUTES
#undef BE_URL_PATH_BLOCK
#undef BE_URL_REST_BAD
#undef BE_URL_REST_BLOCKS_ARE_BAD
#undef BE_URL_HOST_BLOCK

#if defined(BE_SCAN_AVX2)
#define BE_URL_WIDTH 32
#define BE_URL_NAME(name) name##_avx2
#define BE_URL_ATTRIBUTES __attribute__((target("avx2")))
#define BE_URL_PATH_BLOCK be_url_path_block32
#define BE_URL_REST_BAD be_url_rest_bad32
#define BE_URL_REST_BLOCKS_ARE_BAD be_url_rest_blocks_are_bad32
#define BE_URL_HOST_BLOCK be_url_host_block32
#include "url_width.h"
#undef BE_URL_WIDTH
#undef BE_URL_NAME
#undef BE_URL_ATTRIBUTES
#undef BE_URL_PATH_BLOCK
#undef BE_URL_REST_BAD
#undef BE_URL_REST_BLOCKS_ARE_BAD
#undef BE_URL_HOST_BLOCK
#endif

/* Whether what follows the host and port of a URL, `bytes[at..<count]` with `bytes[at]` a '/', is as WHATWG's
 * serialiser writes it: a path without dot segments or bytes the path percent-encode set holds (nor '\\'), then an
 * optional query and fragment of printable ASCII without '"', '<', '>', '\'', '`' or '\\'. The fast path's second
 * half, and the parser's (WebURL.swift) too: it copies such a rest whole. */
static inline int be_url_rest_is_canonical(const uint8_t *bytes, size_t count, size_t at) {
#if defined(BE_SCAN_AVX2)
    /* AVX2 where the processor has it, for rests of a block or more (a shorter one would be copied to a padded block) */
    if (count - at >= 32 && be_scan_has_avx2()) return be_url_rest_is_canonical_avx2(bytes, count, at);
#endif
    return be_url_rest_is_canonical_16(bytes, count, at);
}

/* Whether `bytes` (`count` long) is an absolute http(s) URL that WHATWG's URL parser serialises to itself: lower-case
 * "http://" or "https://", a host of lower-case labels of letters, digits and hyphens (each label not empty and
 * starting with a letter or digit, the host at most 253 bytes), a dotted-decimal IPv4 address or an IPv6 address as
 * the serialiser writes it (be_url_is_canonical_ipv6), an optional port
 * 1...65535 without leading zeros and not the scheme's default, then a path starting with '/' without dot segments
 * or bytes the path percent-encode set holds (nor '\'), then an optional query and fragment of printable ASCII
 * without '"', '<', '>', '\'', '`' or '\'. 1 or 0; 0 leaves a URL to the parser, which may still accept it. */
static inline int be_url_is_canonical_http(const uint8_t *bytes, size_t count) {
#if defined(BE_SCAN_AVX2)
    if (count >= 32 && be_scan_has_avx2()) return be_url_is_canonical_http_avx2(bytes, count);
#endif
    return be_url_is_canonical_http_16(bytes, count);
}
#endif
