/* The two checks of url.h, written once for a block width: url.h includes this file once for 16-byte blocks (SSE2,
 * NEON or plain C: BE_URL_HOST_BLOCK is undefined in plain C, whose host loop reads byte by byte) and, on x86-64, once
 * for 32-byte blocks of AVX2. It expects BE_URL_WIDTH, BE_URL_NAME(name) (the name with the width's suffix),
 * BE_URL_ATTRIBUTES, and the block functions BE_URL_PATH_BLOCK, BE_URL_REST_BAD, BE_URL_REST_BLOCKS_ARE_BAD and,
 * with vector instructions, BE_URL_HOST_BLOCK; a mask holds a bit per byte of a block, so at most 32. No include
 * guard: it is meant to be included more than once. */

/* be_url_rest_is_canonical (url.h), in blocks of BE_URL_WIDTH bytes. */
BE_URL_ATTRIBUTES static inline int BE_URL_NAME(be_url_rest_is_canonical)(const uint8_t *bytes, size_t count, size_t at) {
    /* The path: blocks of BE_URL_WIDTH bytes from its '/' on, with every mask, up to the '?' or '#' that ends it. The last
     * block ends at the URL's end, overlapping bytes already seen (masked off), or is a padded copy when the
     * whole URL is shorter than a block. */
    unsigned slash_carry = 0;
    uint8_t padded[BE_URL_WIDTH];
    for (;;) {
        if (at == count) return 1;
        size_t start = at;
        unsigned skip = 0;
        const uint8_t *block = bytes + at;
        if (count - at < BE_URL_WIDTH) {
            if (count >= BE_URL_WIDTH) {
                start = count - BE_URL_WIDTH;
                skip = (unsigned)(at - start);
                block = bytes + start;
            } else {
                memset(padded, 0, sizeof padded);
                memcpy(padded, bytes + at, count - at);
                block = padded;
            }
        }
        const size_t available = count - start < BE_URL_WIDTH ? count - start : BE_URL_WIDTH;
        const unsigned valid = (be_url_low_bits((unsigned)available) >> skip) << skip;
        const be_url_path_masks m = BE_URL_PATH_BLOCK(block);
        const unsigned ends = m.ends & valid;
        const unsigned path = ends ? valid & ((1u << __builtin_ctz(ends)) - 1) : valid;
        /* A '.' right after a '/' may start a dot segment, which the parser removes; so may "%2e". */
        const unsigned after_slash = ((m.slashes << 1) | (skip == 0 ? slash_carry : 0)) & path;
        if ((m.bad & path) != 0 || (after_slash & m.dots) != 0) return 0;
        for (unsigned percents = after_slash & m.percents; percents != 0; percents &= percents - 1) {
            const size_t i = start + (size_t)__builtin_ctz(percents);
            if (i + 2 < count && bytes[i + 1] == '2' && (bytes[i + 2] | 0x20) == 'e') return 0;
        }
        if (ends) {
            /* The block's bytes after the path's end are the query's or fragment's first: checked from the same
             * load, so a short query costs no block of its own. */
            const unsigned after = valid & ~((2u << __builtin_ctz(ends)) - 1);
            if ((m.query_bad & after) != 0) return 0;
            at = start + available;
            break;
        }
        slash_carry = m.slashes >> (available - 1) & 1;
        at = start + available;
    }
    /* The query and fragment: whole blocks with one mask for all of them, then the last bytes as a block that
     * ends at the URL's end (or a padded copy). */
    const size_t blocks = (count - at) / BE_URL_WIDTH;
    if (BE_URL_REST_BLOCKS_ARE_BAD(bytes + at, blocks)) return 0;
    at += BE_URL_WIDTH * blocks;
    if (at < count) {
        const size_t left = count - at;
        if (count >= BE_URL_WIDTH) return (BE_URL_REST_BAD(bytes + count - BE_URL_WIDTH) >> (BE_URL_WIDTH - left)) == 0;
        memset(padded, 0, sizeof padded);
        memcpy(padded, bytes + at, left);
        return (BE_URL_REST_BAD(padded) & be_url_low_bits((unsigned)left)) == 0;
    }
    return 1;
}

/* be_url_is_canonical_http (url.h), in blocks of BE_URL_WIDTH bytes. */
BE_URL_ATTRIBUTES static inline int BE_URL_NAME(be_url_is_canonical_http)(const uint8_t *bytes, size_t count) {
    size_t at, host_start, last_label;
    int label_start = 1, secure;
    if (count <= 8 || bytes[0] != 'h' || bytes[1] != 't' || bytes[2] != 't' || bytes[3] != 'p') return 0;
    secure = bytes[4] == 's';
    at = secure ? 5 : 4;
    if (count <= at + 3 || bytes[at] != ':' || bytes[at + 1] != '/' || bytes[at + 2] != '/') return 0;
    at += 3;
    host_start = last_label = at;
    if (at < count && bytes[at] == '[') {
        /* An IPv6 literal: as the serialiser writes it, or left to the parser. */
        const uint8_t *close = (const uint8_t *)memchr(bytes + at + 1, ']', count - at - 1);
        if (close == NULL || !be_url_is_canonical_ipv6(bytes + at + 1, (size_t)(close - bytes) - at - 1)) return 0;
        at = (size_t)(close - bytes) + 1;
        goto port;
    }
#if defined(BE_URL_HOST_BLOCK)
    /* BE_URL_WIDTH host bytes at a time while as many remain: a bit per byte for letters and digits, dots, hyphens and the
     * bytes that end the host; a label starts at the host's start and after each dot and must start with a
     * letter or digit (which refuses empty labels and a leading '-' too). */
    while (count - at >= BE_URL_WIDTH) {
        unsigned alnum, dots, hyphens, end_mask;
        BE_URL_HOST_BLOCK(bytes + at, &alnum, &dots, &hyphens, &end_mask);
        const unsigned length = end_mask ? (unsigned)__builtin_ctz(end_mask) : BE_URL_WIDTH;
        const unsigned inside = be_url_low_bits(length);
        const unsigned starts = ((dots << 1) | (unsigned)label_start) & inside;
        if (((alnum | dots | hyphens) & inside) != inside || (starts & ~alnum) != 0) return 0;
        if (length > 0) label_start = (int)(dots >> (length - 1) & 1);
        if ((dots & inside) != 0) last_label = at + (size_t)(32 - __builtin_clz(dots & inside));
        at += length;
        if (length < BE_URL_WIDTH) goto host_end;
    }
#endif
    for (; at < count; at++) {
        uint8_t class = be_url_host_class[bytes[at]];
        if (class == 1) { label_start = 0; continue; }
        if (class == 4) break;
        if (class == 0 || label_start) return 0; /* a stray byte, or '.' or '-' starting a label */
        if (class == 2) {
            label_start = 1;
            last_label = at + 1;
        }
    }
#if defined(BE_URL_HOST_BLOCK)
host_end:
#endif
    if (at == host_start || at - host_start > 253 || label_start) return 0;
    {
        /* A host whose last label starts with a digit "ends in a number": an IPv4 address, which the parser
         * writes in dotted decimal. The last label starts after the last dot the host's scan saw. */
        if (bytes[last_label] >= '0' && bytes[last_label] <= '9' && !be_url_is_dotted_quad(bytes + host_start, at - host_start)) return 0;
    }
port:
    if (at < count && bytes[at] == ':') {
        unsigned port = 0, digits = 0;
        for (at++; at < count && bytes[at] >= '0' && bytes[at] <= '9'; at++) {
            if (++digits > 5) return 0;
            port = port * 10 + (unsigned)(bytes[at] - '0');
        }
        if (digits == 0 || bytes[at - digits] == '0' || port > 65535 || port == (secure ? 443u : 80u)) return 0;
    }
    /* The href always has a path: a URL that ends here or goes on with '?' or '#' gains a '/'. */
    if (at == count || bytes[at] != '/') return 0;
    return BE_URL_NAME(be_url_rest_is_canonical)(bytes, count, at);
}
