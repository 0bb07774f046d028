/* The one loop of the JSON reader that vector instructions make several times cheaper, and which Swift's SIMD
 * types do not (their reductions compile to scalar loops here): finding where a string's plain run of bytes
 * ends. static inline: no symbols, and the compiler inlines it into the Swift reader. */
#ifndef BLINKENGAGE_JSON_SCAN_H
#define BLINKENGAGE_JSON_SCAN_H
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Skips whole 16-byte blocks of `bytes` (`count` long) in which no byte is '"', '\\', a control character or
 * non-ASCII, and returns the offset of the first such byte, or of the start of the last block of fewer than 16
 * bytes; the caller looks at the bytes from there. SSE2, which every x86-64 has: two compares for equality, one
 * signed compare (bytes of 0x80 and above are negative, so "below 0x20" takes non-ASCII bytes too) and one mask.
 * Elsewhere it returns 0 and the caller's own eight-byte scan does the work. */
static inline size_t be_json_plain_prefix(const uint8_t *bytes, size_t count) {
    size_t offset = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    for (; offset + 16 <= count; offset += 16) {
        __m128i block = _mm_loadu_si128((const __m128i *)(bytes + offset));
        __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)),
                                       _mm_cmplt_epi8(block, space));
        int mask = _mm_movemask_epi8(special);
        if (mask != 0) return offset + (size_t)__builtin_ctz((unsigned)mask);
    }
#else
    (void)bytes;
    (void)count;
#endif
    return offset;
}
#endif
