/* The one loop of the JSON reader that vector instructions make several times cheaper, and which Swift's SIMD
 * types do not (their reductions compile to scalar loops here): finding where a string's plain run of bytes
 * ends. static inline: no symbols, and the compiler inlines it into the Swift reader. */
#ifndef BLINKENGAGE_JSON_SCAN_H
#define BLINKENGAGE_JSON_SCAN_H
#include <stddef.h>
#include <stdint.h>

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
#endif
