/* The byte scans of CJSONScan (scan.h, url.h) held to plain reference code and to each other. The same program is
 * built for each implementation the headers choose at compile time: SSE2 and plain C on x86-64, NEON and plain C
 * on AArch64 (run under qemu-user). Each build checks its verdicts and offsets against the references below over a
 * fixed stream of generated inputs, and prints a digest of them: every build must print the same digest.
 *   scan_differential [ROUNDS]   (default 200000) */
#define _DEFAULT_SOURCE /* inet_pton */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "url.h"

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }
static unsigned below(unsigned n) { return (unsigned)(next() % n); }

static int plain_byte(uint8_t b) { return b != '"' && b != '\\' && b >= 0x20 && b < 0x80; }

/* The reference of be_url_is_canonical_http, rule by rule. */
static int is_lower_alnum(uint8_t b) { return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z'); }

static int reference_dotted_quad(const uint8_t *b, size_t n) {
    unsigned parts = 0;
    size_t i = 0;
    while (i <= n) {
        size_t start = i;
        unsigned value = 0;
        for (; i < n && b[i] >= '0' && b[i] <= '9'; i++)
            if (i - start < 3) value = value * 10 + (unsigned)(b[i] - '0');
        if (i == start || i - start > 3 || (b[start] == '0' && i - start > 1) || value > 255) return 0;
        parts++;
        if (i == n) break;
        if (b[i] != '.') return 0;
        i++;
    }
    return parts == 4;
}

/* The reference of be_url_is_canonical_ipv6: the C library parses the address (inet_pton), WHATWG's serialiser
 * writes it back (the first longest run of two or more zero pieces as "::"), and the text must be that. */
static int reference_ipv6(const uint8_t *text, size_t n) {
    char input[64], written[64];
    unsigned char address[16];
    unsigned pieces[8];
    int i, best = -1, best_length = 1, at = 0;
    if (n == 0 || n >= sizeof input) return 0;
    memcpy(input, text, n);
    input[n] = 0;
    if (strchr(input, '.') || inet_pton(AF_INET6, input, address) != 1) return 0;
    for (i = 0; i < 8; i++) pieces[i] = (unsigned)address[2 * i] << 8 | address[2 * i + 1];
    for (i = 0; i < 8;) {
        int length = 0;
        while (i + length < 8 && pieces[i + length] == 0) length++;
        if (length > best_length) { best = i; best_length = length; }
        i += length ? length : 1;
    }
    for (i = 0; i < 8; i++) {
        if (i == best) { at += sprintf(written + at, i == 0 ? "::" : ":"); i += best_length - 1; continue; }
        at += sprintf(written + at, i == 7 ? "%x" : "%x:", pieces[i]);
    }
    return strcmp(written, input) == 0;
}

static int reference_url(const uint8_t *b, size_t n) {
    size_t at, host, i, label;
    int secure;
    if (n <= 8 || memcmp(b, "http", 4) != 0) return 0;
    secure = b[4] == 's';
    at = secure ? 5 : 4;
    if (n <= at + 3 || memcmp(b + at, "://", 3) != 0) return 0;
    at += 3;
    host = at;
    if (at < n && b[at] == '[') {
        const uint8_t *close = memchr(b + at, ']', n - at);
        if (!close || !reference_ipv6(b + at + 1, (size_t)(close - b) - at - 1)) return 0;
        at = (size_t)(close - b) + 1;
        goto port;
    }
    while (at < n && b[at] != ':' && b[at] != '/' && b[at] != '?' && b[at] != '#') at++;
    if (at == host || at - host > 253) return 0;
    label = host;
    for (i = host; i <= at; i++) {
        if (i == at || b[i] == '.') {
            if (i == label || !is_lower_alnum(b[label])) return 0;
            label = i + 1;
        } else if (!is_lower_alnum(b[i]) && b[i] != '-') {
            return 0;
        }
    }
    for (i = at; i > host && b[i - 1] != '.'; i--) {}
    if (b[i] >= '0' && b[i] <= '9' && !reference_dotted_quad(b + host, at - host)) return 0;
port:
    if (at < n && b[at] == ':') {
        unsigned long port = 0;
        size_t digits = 0;
        for (at++; at < n && b[at] >= '0' && b[at] <= '9'; at++) {
            if (++digits > 5) return 0;
            port = port * 10 + (unsigned long)(b[at] - '0');
        }
        if (digits == 0 || b[at - digits] == '0' || port > 65535 || port == (secure ? 443u : 80u)) return 0;
    }
    if (at == n || b[at] != '/') return 0;
    for (; at < n && b[at] != '?' && b[at] != '#'; at++) {
        if (b[at] < 0x21 || b[at] > 0x7E || strchr("\"<>`{}\\", b[at])) return 0;
        if (b[at - 1] == '/' && b[at] == '.') return 0;
        if (b[at - 1] == '/' && b[at] == '%' && at + 2 < n && b[at + 1] == '2' && (b[at + 2] | 0x20) == 'e') return 0;
    }
    for (; at < n; at++) if (b[at] < 0x21 || b[at] > 0x7E || strchr("\"<>'`\\", b[at])) return 0;
    return 1;
}

static uint8_t host_byte(void) {
    static const char pool[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789..--:/?#";
    unsigned r = below(100);
    if (r < 4) return (uint8_t)next();
    if (r < 8) return (uint8_t)"_ %@[]\\|"[below(8)];
    return (uint8_t)pool[below(sizeof pool - 1)];
}

static uint8_t path_byte(void) {
    unsigned r = below(100);
    if (r < 3) return (uint8_t)"\x00\x1f \x7f\x80\xff\t\n"[below(8)];
    return (uint8_t)(0x21 + below(0x7E - 0x21 + 1));
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 200000, i;
    uint64_t digest = 1469598103934665603ull;
    long failures = 0, checks = 0, wide_checks = 0;
    uint8_t text[512];
    for (i = 0; i < rounds; i++) {
        size_t n = 0, k, length;
        /* a URL: mostly well-formed, with hosts and paths across the 16-byte block edges */
        const char *scheme = below(20) == 0 ? "HTTP://" : below(2) ? "https://" : "http://";
        memcpy(text, scheme, strlen(scheme));
        n = strlen(scheme);
        if (below(8) == 0) {
            /* an IPv6 host: pieces with runs of zeros, "::" somewhere or nowhere, now and then upper case, a leading
             * zero or a dotted tail */
            unsigned parts = 1 + below(8), compress = below(3) ? below(parts + 1) : 99;
            text[n++] = '[';
            if (compress == 0) { text[n++] = ':'; text[n++] = ':'; }
            for (k = 0; k < parts; k++) {
                const unsigned r = below(10);
                const unsigned value = r < 4 ? 0 : r < 5 ? below(16) : below(65536);
                n += (size_t)sprintf((char *)text + n, below(30) == 0 ? "%04X" : below(30) == 0 ? "0%x" : "%x", value);
                if (k + 1 < parts) { text[n++] = ':'; if (k + 1 == compress) text[n++] = ':'; }
                else if (k + 1 == compress) { text[n++] = ':'; text[n++] = ':'; }
            }
            if (below(20) == 0) n += (size_t)sprintf((char *)text + n, ":1.2.3.4");
            text[n++] = ']';
        } else if (below(8) == 0) {
            /* an IPv4 host: dotted numbers, some out of range or with leading zeros, some parts missing */
            unsigned parts = 1 + below(5);
            for (k = 0; k < parts; k++) {
                /* one draw after another: the order in which a call's arguments are evaluated differs by compiler */
                const char *format = k + 1 < parts ? (below(10) ? "%u." : "0%u.") : "%u";
                const unsigned value = below(10) ? below(256) : below(1000);
                n += (size_t)sprintf((char *)text + n, format, value);
            }
        } else if (below(3) == 0) {
            /* a long host of the bytes a host may hold, now and then with one that it may not somewhere in it:
             * labels across the 16- and 32-byte block edges */
            length = 1 + below(70);
            for (k = 0; k < length; k++) text[n++] = (uint8_t)"abcdefghijklmnopqrstuvwxyz0123456789.-"[below(k % 7 == 6 ? 38 : 36)];
            if (below(3) == 0) text[n - 1 - below((unsigned)length)] = host_byte();
        } else {
            length = below(48);
            for (k = 0; k < length; k++) text[n++] = host_byte();
        }
        if (below(4) == 0) n += (size_t)sprintf((char *)text + n, ":%u", below(70000));
        if (below(3)) {
            length = below(80);
            text[n++] = "/?#"[below(3)];
            for (k = 0; k < length; k++) text[n++] = path_byte();
        }
        {
            int got = be_url_is_canonical_http(text, n), want = reference_url(text, n);
            checks++;
            if (got != want) {
                if (failures++ < 10) fprintf(stderr, "url %.*s: %d, the reference %d\n", (int)n, (const char *)text, got, want);
            }
            /* Each block width on its own, whatever the length: the call above takes AVX2's for the longer URLs. */
            checks++;
            if (be_url_is_canonical_http_16(text, n) != want) failures++;
#if defined(BE_SCAN_AVX2)
            if (be_scan_has_avx2()) {
                checks++;
                wide_checks++;
                if (be_url_is_canonical_http_avx2(text, n) != want) {
                    if (failures++ < 10) fprintf(stderr, "url (AVX2) %.*s: the reference %d\n", (int)n, (const char *)text, want);
                }
            }
#endif
            digest = (digest ^ (uint64_t)got) * 1099511628211ull;
        }
        {
            /* the parser's refusal scan over the same bytes */
            int got = be_url_has_control_or_backslash(text, n), want = 0;
            for (k = 0; k < n; k++) if (text[k] < 0x20 || text[k] == '\\') want = 1;
            checks++;
            if (got != want) failures++;
            digest = (digest ^ (uint64_t)got) * 1099511628211ull;
        }
        /* a string body: plain bytes with a special one now and then, across the block edges */
        length = below(100);
        for (k = 0; k < length; k++) text[k] = below(30) == 0 ? (uint8_t)"\"\\\x01\x1f\x80\xe9"[below(6)] : (uint8_t)(0x20 + below(0x5F));
        {
            size_t got = be_json_plain_prefix(text, length), first = 0, whole = length - length % 16;
            while (first < length && plain_byte(text[first])) first++;
            checks++;
            for (k = 0; k < got; k++) if (!plain_byte(text[k])) break;
#if defined(BE_SCAN_SSE2) || defined(BE_SCAN_NEON)
            if (got != (first < whole ? first : whole) || k != got) failures++;
#else
            (void)whole;
            (void)first;
            if (got != 0) failures++;
#endif
            /* The digest takes what the caller makes of it: the first special byte, the scan finished by hand. */
            for (k = got; k < length && plain_byte(text[k]); k++) {}
            digest = (digest ^ (uint64_t)k) * 1099511628211ull;
        }
        {
            /* The marks of a text of up to four words' bytes: a bit for each special byte, every bit from the end on
             * set, and the next mark from every position up to the end. */
            uint64_t marks[6];
            size_t words, at, want;
            length = below(4) == 0 ? 64 * below(4) : below(260);
            for (k = 0; k < length; k++) text[k] = below(30) == 0 ? (uint8_t)"\"\\\x01\x1f\x80\xe9\x7f\x20"[below(8)] : (uint8_t)(0x20 + below(0x5F));
            words = be_json_special_words(length);
            marks[words] = 0x5A5A5A5A5A5A5A5Aull; /* past the room: must stay as it is */
            be_json_mark_specials(text, length, marks);
            checks++;
            for (k = 0; k < 64 * words; k++) {
                const int bit = (int)(marks[k / 64] >> (k % 64) & 1);
                if (bit != (k >= length || !plain_byte(text[k]))) break;
            }
            if (k != 64 * words || marks[words] != 0x5A5A5A5A5A5A5A5Aull) failures++;
#if defined(BE_SCAN_AVX2)
            /* Where the processor has AVX2 the marking above used it: its whole blocks against SSE2's. */
            if (be_scan_has_avx2() && length >= 64) {
                uint64_t wide[4];
                be_json_mark_blocks_avx2(text, length / 64, wide);
                checks++;
                wide_checks++;
                for (k = 0; k < length / 64; k++) if (wide[k] != be_json_specials_of_block(text + 64 * k)) break;
                if (k != length / 64) failures++;
            }
#endif
            for (at = 0, want = 0; at <= length; at++) {
                if (at == 0 || want < at) for (want = at; want < length && plain_byte(text[want]); want++) {}
                checks++;
                if (be_json_next_special(marks, at) != want) failures++;
                digest = (digest ^ (uint64_t)want) * 1099511628211ull;
            }
        }
    }
#if defined(BE_SCAN_SSE2)
    const char *kind = "SSE2";
#elif defined(BE_SCAN_NEON)
    const char *kind = "NEON";
#else
    const char *kind = "plain C";
#endif
    printf("scans (%s): digest %016llx\n", kind, (unsigned long long)digest);
    if (wide_checks > 0) printf("AVX2: %ld marks and URLs checked\n", wide_checks);
    printf("%ld passed, %ld failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
