/* Instructions per byte of CJSONScan's scans, for callgrind: a string body's plain run (be_json_plain_prefix, then a
 * byte loop for what it leaves, as a reader finishes it) and a URL's path (be_url_is_canonical_http). Built once with
 * the vector path and once with -DBE_SCAN_SCALAR; the instructions per byte are (count at 2R rounds − count at R
 * rounds) / (R × BYTES), which leaves out filling the buffer.
 *   scan_bytes string|url BYTES ROUNDS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "url.h"

int main(int argc, char **argv) {
    size_t bytes = argc > 2 ? (size_t)atol(argv[2]) : 0, i, at;
    uint8_t *text = malloc(bytes + 64);
    unsigned long long sum = 0;
    int round, rounds = argc > 3 ? atoi(argv[3]) : 16;
    if (!text || argc < 3) return 2;
    if (strcmp(argv[1], "url") == 0) {
        memcpy(text, "https://cdn.example.com/", 24);
        for (i = 24; i < bytes + 24; i++) text[i] = (uint8_t)('a' + i % 26);
        for (round = 0; round < rounds; round++) sum += (unsigned long long)be_url_is_canonical_http(text, bytes + 24);
    } else {
        for (i = 0; i < bytes; i++) text[i] = (uint8_t)('a' + i % 26);
        text[bytes] = '"';
        for (round = 0; round < rounds; round++) {
            at = be_json_plain_prefix(text, bytes + 1);
            while (text[at] != '"' && text[at] != '\\' && text[at] >= 0x20 && text[at] < 0x80) at++;
            sum += at;
        }
    }
    printf("%llu\n", sum);
    free(text);
    return 0;
}
