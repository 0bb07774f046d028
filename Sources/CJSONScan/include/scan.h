/* The loops of the JSON reader that vector instructions make several times cheaper, and which Swift's SIMD
 * types do not (their reductions compile to scalar loops here): finding where a string's plain run of bytes
 * ends, one string at a time (the tree parser) or for a whole text at once (the tape's builder marks its special
 * bytes). static inline: no symbols; the compiler inlines them into their callers. */
#ifndef BLINKENGAGE_JSON_SCAN_H
#define BLINKENGAGE_JSON_SCAN_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Which vector instructions the byte scans use, chosen at compile time: SSE2 on x86-64 (every one has it), NEON on
 * AArch64 (every one has it), and plain C elsewhere or when BE_SCAN_SCALAR is defined (the differential tests build
 * all three: Tests/CJSONScanTests). The three give the same verdicts and offsets. */
#if defined(__SSE2__) && !defined(BE_SCAN_SCALAR)
#define BE_SCAN_SSE2 1
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON) && !defined(BE_SCAN_SCALAR)
#define BE_SCAN_NEON 1
#include <arm_neon.h>
#endif

#if defined(BE_SCAN_NEON)
/* SSE2's movemask for NEON: a bit per byte whose lanes are all ones (compare results), byte 0 in bit 0. */
static inline unsigned be_neon_movemask(uint8x16_t lanes) {
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t weighted = vandq_u8(lanes, vld1q_u8(weights));
    return (unsigned)vaddv_u8(vget_low_u8(weighted)) | (unsigned)vaddv_u8(vget_high_u8(weighted)) << 8;
}
#endif

/* Skips whole 16-byte blocks of `bytes` (`count` long) in which no byte is '"', '\\', a control character or
 * non-ASCII, and returns the offset of the first such byte, or of the start of the last block of fewer than 16
 * bytes; the caller looks at the bytes from there. SSE2, which every x86-64 has: two compares for equality, one
 * signed compare (bytes of 0x80 and above are negative, so "below 0x20" takes non-ASCII bytes too) and one mask;
 * NEON the same with unsigned compares. In plain C it returns 0 and the caller's own eight-byte scan does the work. */
static inline size_t be_json_plain_prefix(const uint8_t *bytes, size_t count) {
    size_t offset = 0;
#if defined(BE_SCAN_SSE2)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    for (; offset + 16 <= count; offset += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + offset));
        __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)),
                                       _mm_cmplt_epi8(block, space));
        int mask = _mm_movemask_epi8(special);
        if (mask != 0) return offset + (size_t)__builtin_ctz((unsigned)mask);
    }
#elif defined(BE_SCAN_NEON)
    const uint8x16_t quote = vdupq_n_u8('"'), backslash = vdupq_n_u8('\\'), space = vdupq_n_u8(0x20),
                     high = vdupq_n_u8(0x80);
    for (; offset + 16 <= count; offset += 16) {
        const uint8x16_t block = vld1q_u8(bytes + offset);
        const uint8x16_t special = vorrq_u8(vorrq_u8(vceqq_u8(block, quote), vceqq_u8(block, backslash)),
                                            vorrq_u8(vcltq_u8(block, space), vcgeq_u8(block, high)));
        if (vmaxvq_u8(special) != 0) return offset + (size_t)__builtin_ctz(be_neon_movemask(special));
    }
#else
    (void)bytes;
    (void)count;
#endif
    return offset;
}

/* The words `be_json_mark_specials` writes for `count` bytes: one per 64 bytes and one more, which always holds the
 * bit of a position at or past the end. */
static inline size_t be_json_special_words(size_t count) { return count / 64 + 1; }

/* One 64-byte block's bits for be_json_mark_specials. */
static inline uint64_t be_json_specials_of_block(const uint8_t *block) {
#if defined(BE_SCAN_SSE2)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    uint64_t word = 0;
    for (unsigned i = 0; i < 4; i++) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(block + 16 * i));
        const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                                             _mm_cmplt_epi8(bytes, space));
        word |= (uint64_t)(unsigned)_mm_movemask_epi8(special) << (16 * i);
    }
    return word;
#elif defined(BE_SCAN_NEON)
    const uint8x16_t quote = vdupq_n_u8('"'), backslash = vdupq_n_u8('\\'), space = vdupq_n_u8(0x20), high = vdupq_n_u8(0x80);
    uint64_t word = 0;
    for (unsigned i = 0; i < 4; i++) {
        const uint8x16_t bytes = vld1q_u8(block + 16 * i);
        const uint8x16_t special = vorrq_u8(vorrq_u8(vceqq_u8(bytes, quote), vceqq_u8(bytes, backslash)),
                                            vorrq_u8(vcltq_u8(bytes, space), vcgeq_u8(bytes, high)));
        word |= (uint64_t)be_neon_movemask(special) << (16 * i);
    }
    return word;
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Eight bytes at a time in a 64-bit word: each test sets the top bit of the bytes it finds, without carries from
     * one byte into the next; a multiply then gathers the eight top bits, byte 0's lowest. About a quarter of the
     * byte loop's instructions. */
    const uint64_t ones = 0x0101010101010101ull, top = 0x8080808080808080ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t word = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t v, quote, backslash;
        memcpy(&v, block + 8 * i, 8);
        quote = v ^ ones * '"';
        backslash = v ^ ones * '\\';
        /* a zero byte has the top bit clear in (x & 0x7F) + 0x7F and in x; below 0x20, x + 0x60 stays under 0x80 */
        const uint64_t found = (~(((quote & low7) + low7) | quote) | ~(((backslash & low7) + low7) | backslash) |
                                v | ~((v & low7) + ones * 0x60)) & top;
        word |= ((found >> 7) * 0x0102040810204080ull) >> 56 << (8 * i);
    }
    return word;
#else
    uint64_t word = 0;
    for (unsigned i = 0; i < 64; i++) {
        const uint8_t byte = block[i];
        word |= (uint64_t)(byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80) << i;
    }
    return word;
#endif
}

#if defined(BE_SCAN_SSE2) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* x86-64 processors since 2013 have AVX2, which marks 32 bytes with each instruction where SSE2 marks 16; the
 * library is built for every x86-64, so it asks the processor once, and the OS (XGETBV: the YMM state is saved). */
#define BE_SCAN_AVX2 1
#include <cpuid.h>
#include <immintrin.h>

static inline int be_scan_has_avx2(void) {
    static int known; /* 0 not asked yet, 1 without AVX2, 2 with */
    int seen = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (seen == 0) {
        unsigned a, b, c, d, low, high;
        int usable = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX) && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
            (b & bit_AVX2)) {
            __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
            usable = (low & 6) == 6; /* the XMM and YMM state */
        }
        seen = usable ? 2 : 1;
        __atomic_store_n(&known, seen, __ATOMIC_RELAXED);
    }
    return seen == 2;
}

/* be_json_mark_specials's whole 64-byte blocks with AVX2 (its caller asked be_scan_has_avx2). */
__attribute__((target("avx2"))) static inline void be_json_mark_blocks_avx2(const uint8_t *text, size_t whole, uint64_t *bits) {
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'), space = _mm256_set1_epi8(0x20);
    for (size_t w = 0; w < whole; w++) {
        const __m256i low = _mm256_loadu_si256((const __m256i *)(text + 64 * w));
        const __m256i high = _mm256_loadu_si256((const __m256i *)(text + 64 * w + 32));
        const __m256i low_special = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(low, quote), _mm256_cmpeq_epi8(low, backslash)),
                                                    _mm256_cmpgt_epi8(space, low));
        const __m256i high_special = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(high, quote), _mm256_cmpeq_epi8(high, backslash)),
                                                     _mm256_cmpgt_epi8(space, high));
        bits[w] = (uint64_t)(uint32_t)_mm256_movemask_epi8(low_special) | (uint64_t)(uint32_t)_mm256_movemask_epi8(high_special) << 32;
    }
}
#endif

/* Writes to `bits` (room for be_json_special_words(count)) a bit per byte of `text`, byte i in bit i % 64 of word
 * i / 64, set where a string's plain run ends: '"', '\\', a control character or non-ASCII, the bytes
 * be_json_plain_prefix stops at; and set for every position from `count` to the end of the last word, so that a
 * search from any position up to `count` stops by then. One pass over the text costs less than a 16-byte scan
 * started at each string: most strings are short, and each such scan loaded a block the one before had seen. */
static inline void be_json_mark_specials(const uint8_t *text, size_t count, uint64_t *bits) {
    const size_t whole = count / 64;
    uint8_t last[64] = {0};
#if defined(BE_SCAN_AVX2)
    if (be_scan_has_avx2()) be_json_mark_blocks_avx2(text, whole, bits);
    else
#endif
        for (size_t w = 0; w < whole; w++) bits[w] = be_json_specials_of_block(text + 64 * w);
    if (count > 64 * whole) memcpy(last, text + 64 * whole, count - 64 * whole);
    bits[whole] = be_json_specials_of_block(last) | ~0ull << (count - 64 * whole);
}

/* The first position at or after `at` (at most the `count` of the marking) whose bit is set. */
static inline size_t be_json_next_special(const uint64_t *bits, size_t at) {
    size_t w = at / 64;
    uint64_t word = bits[w] >> (at % 64);
    if (word != 0) return at + (size_t)__builtin_ctzll(word);
    while ((word = bits[++w]) == 0) {}
    return 64 * w + (size_t)__builtin_ctzll(word);
}
#endif
