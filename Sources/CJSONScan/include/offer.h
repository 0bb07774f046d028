/* An offer's documented members, found in one walk over its tape entries: the step every offer of every answer
 * takes at decode; and its creatives' members, likewise. In C beside the tape's builder because in Swift each
 * member cost about 80 instructions (the key's bytes through a closure, then the match), here about 50 with the
 * texts' slots (the 50-offer bench answer). The keys are docs/PROTOCOL.md's (section 1), in the order of Swift's
 * `OfferKey`, whose `wireName` spells them too; `documentedOfferKeysRoundTrip` holds the two together. */
#ifndef BLINKENGAGE_JSON_OFFER_H
#define BLINKENGAGE_JSON_OFFER_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "tape.h"
#include "url.h"

/* How many documented keys there are: OfferKey.count. */
#define BE_OFFER_KEY_COUNT 28

/* A member's slot when the offer has no such member or its value has no text. */
#define BE_OFFER_NONE UINT32_MAX

/* The keys whose values are URLs a host opens, loads or fires (OfferKey.isURL), as bits of their raw values:
 * click_url, image, pixel, adv_pixel_url, useraction_url, save_for_later_url, offerwall_url, qr_code_img,
 * creative_url (an enum, not a macro, so that Swift sees it too). */
enum {
    BE_OFFER_URL_KEYS = (1 << 4) | (1 << 5) | (1 << 8) | (1 << 9) | (1 << 13) | (1 << 21) | (1 << 24) | (1 << 25) | (1 << 27)
};

/* Whether a member's value needs the URL parser to be read as an http(s) URL (WebURL.swift): a non-empty scalar
 * that is not a string already its own `href` (be_url_is_canonical_http). The absent, null, "" and containers read
 * as no URL without it; a string with escapes, a number, true and false go to the parser. */
static inline int be_offer_url_needs_reading(const uint8_t *text, const be_json_entry *value) {
    switch (value->type) {
    case BE_JSON_STRING:
        if (value->length == 0) return 0;
        return (value->escapes & BE_JSON_ESCAPED) || !be_url_is_canonical_http(text + value->start, value->length);
    case BE_JSON_NUMBER: case BE_JSON_TRUE: case BE_JSON_FALSE:
        return 1;
    default:
        return 0;
    }
}

/* The longest key that could spell a documented one with escapes: 25 ASCII characters, each at most "\u0041". */
#define BE_OFFER_ESCAPED_KEY_MAX (25 * 6)

/* The `OfferKey` raw value `name` spells (`length` bytes, escapes resolved), or -1. By length first, then at most
 * three comparisons of a constant length, which the compiler makes a few loads. Always inlined: as a call from
 * the walk below it cost 10 more instructions a member. */
__attribute__((always_inline)) static inline int be_offer_key(const uint8_t *name, size_t length) {
#define BE_OFFER_IS(literal, raw) (memcmp(name, literal, sizeof literal - 1) == 0) ? (raw)
    switch (length) {
    case 2: return BE_OFFER_IS("id", 0) : -1;
    case 4: return BE_OFFER_IS("tags", 22) : BE_OFFER_IS("name", 26) : -1;
    case 5: return BE_OFFER_IS("title", 2) : BE_OFFER_IS("image", 5) : BE_OFFER_IS("pixel", 8) : -1;
    case 6: return BE_OFFER_IS("cta_no", 11) : -1;
    case 7: return BE_OFFER_IS("cta_yes", 10) : BE_OFFER_IS("beacons", 14) : -1;
    case 9: return BE_OFFER_IS("click_url", 4) : BE_OFFER_IS("mini_text", 6) : BE_OFFER_IS("creatives", 15) : -1;
    case 11: return BE_OFFER_IS("campaign_id", 1) : BE_OFFER_IS("description", 3) : BE_OFFER_IS("qr_code_img", 25) : -1;
    case 12: return BE_OFFER_IS("creative_url", 27) : -1;
    case 13: return BE_OFFER_IS("adv_pixel_url", 9) : BE_OFFER_IS("offerwall_url", 24) : -1;
    case 14:
        return BE_OFFER_IS("useraction_cta", 12) : BE_OFFER_IS("useraction_url", 13) : BE_OFFER_IS("short_headline", 16) : -1;
    case 15: return BE_OFFER_IS("advertiser_name", 18) : BE_OFFER_IS("is_loyaltyboost", 19) : -1;
    case 17: return BE_OFFER_IS("short_description", 17) : BE_OFFER_IS("offer_description", 23) : -1;
    case 18: return BE_OFFER_IS("save_for_later_url", 21) : -1;
    case 20: return BE_OFFER_IS("terms_and_conditions", 7) : -1;
    case 25: return BE_OFFER_IS("loyaltyboost_requirements", 20) : -1;
    default: return -1;
    }
#undef BE_OFFER_IS
}

/* The key at `key` as `match` (be_offer_key, be_creative_key) reads it, its escapes resolved first when it has any
 * (`longest`: the most bytes a key `match` knows takes escaped, at most BE_OFFER_ESCAPED_KEY_MAX); -1 when it
 * matches nothing. Always inlined: `match` is then a constant, and inlined too. */
__attribute__((always_inline)) static inline int be_json_key_match(const uint8_t *text, const be_json_entry *key,
                                                                   int (*match)(const uint8_t *, size_t), size_t longest) {
    uint8_t name[BE_OFFER_ESCAPED_KEY_MAX];
    if (!(key->escapes & BE_JSON_ESCAPED)) return match(text + key->start, key->length);
    if (key->length > longest) return -1;
    return match(name, be_json_unescape(text, key->start, key->start + key->length, name));
}

/* The `OfferKey` raw value a host's NUL-terminated `key` spells, or -1: a field read's one call. The length stays
 * here: handed back through a pointer, it gave every read a stack slot and a stack guard, and only the walk for a
 * key that is not a documented one needs it (it takes its own). */
static inline int be_offer_key_of_c_string(const char *key) { return be_offer_key((const uint8_t *)key, strlen(key)); }

/* Records, for each documented key of the object at `object` in a tape of `text`, the position of its value
 * (`positions`) and where that value's host text starts in the answer's scalar texts (`texts`): a string that is
 * not "", a number or a literal true or false; BE_OFFER_NONE for anything else. A repeated key resolves to its last
 * occurrence. Slots of keys the object lacks are left as they are; nothing is written for anything but an object. */
static inline void be_offer_read_members(const uint8_t *text, const be_json_entry *entries, uint32_t object,
                                         uint32_t positions[BE_OFFER_KEY_COUNT], uint32_t texts[BE_OFFER_KEY_COUNT]) {
    uint32_t position = object + 1;
    const uint32_t end = entries[object].next;
    if (entries[object].type != BE_JSON_OBJECT) return;
    while (position < end) {
        const be_json_entry *value = &entries[position + 1];
        const int known = be_json_key_match(text, &entries[position], be_offer_key, BE_OFFER_ESCAPED_KEY_MAX);
        if (known >= 0) {
            const int has_text = value->type == BE_JSON_NUMBER || value->type == BE_JSON_TRUE ||
                                 value->type == BE_JSON_FALSE || (value->type == BE_JSON_STRING && value->length > 0);
            positions[known] = position + 1;
            texts[known] = has_text ? value->start : BE_OFFER_NONE;
        }
        position = value->next;
    }
}

/* The BE_OFFER_URL_KEYS whose values, at `positions` (be_offer_read_members; BE_OFFER_NONE where absent), need the URL
 * parser (be_offer_url_needs_reading): every other URL field is absent or its own `href`. After the walk, not in
 * it: checked there, each member cost a test more and each URL a call that spilled the walk's registers. */
static inline uint32_t be_offer_unread_urls(const uint8_t *text, const be_json_entry *entries,
                                            const uint32_t positions[BE_OFFER_KEY_COUNT]) {
    uint32_t unread = 0;
    for (uint32_t keys = (uint32_t)BE_OFFER_URL_KEYS; keys != 0; keys &= keys - 1) {
        const unsigned key = (unsigned)__builtin_ctz(keys);
        if (positions[key] != BE_OFFER_NONE && be_offer_url_needs_reading(text, &entries[positions[key]])) {
            unread |= 1u << key;
        }
    }
    return unread;
}

/* The members a creative's decode reads (Creative.swift), each the value position of its key's last occurrence, or
 * 0 when the creative has no such key (no member's value sits at 0, the root's position); and what `width` and
 * `height` read as in pixels (be_creative_pixels; 0 when absent). */
typedef struct be_creative_members {
    uint32_t url, type, width, height, primary;
    int64_t width_pixels, height_pixels;
    int url_needs_reading; /* be_offer_url_needs_reading of `url` */
} be_creative_members;

/* The longest creative key that could spell one of the five with escapes: 10 ASCII characters, each at most
 * "\u0041". */
#define BE_CREATIVE_ESCAPED_KEY_MAX (10 * 6)

/* Which of `be_creative_members`' fields `name` spells (`length` bytes, escapes resolved): its index, or -1. */
__attribute__((always_inline)) static inline int be_creative_key(const uint8_t *name, size_t length) {
    switch (length) {
    case 3: return memcmp(name, "url", 3) == 0 ? 0 : -1;
    case 4: return memcmp(name, "type", 4) == 0 ? 1 : -1;
    case 5: return memcmp(name, "width", 5) == 0 ? 2 : -1;
    case 6: return memcmp(name, "height", 6) == 0 ? 3 : -1;
    case 10: return memcmp(name, "is_primary", 10) == 0 ? 4 : -1;
    default: return -1;
    }
}

/* What a creative's `width` or `height` value reads as in pixels (Creative.pixels): a number, or a string, of one to
 * ten digits and nothing else, within 32 bits; 0 for anything else (a string of no digits, true, false, null, an
 * object); -1 for a string with escapes, which the caller reads with them resolved. */
static inline int64_t be_creative_pixels(const uint8_t *text, const be_json_entry *entry) {
    uint64_t value = 0;
    if (entry->type != BE_JSON_NUMBER && entry->type != BE_JSON_STRING) return 0;
    if (entry->escapes & BE_JSON_ESCAPED) return -1;
    if (entry->length == 0 || entry->length > 10) return 0;
    for (uint32_t i = 0; i < entry->length; i++) {
        const unsigned digit = (unsigned)text[entry->start + i] - '0';
        if (digit > 9) return 0;
        value = value * 10 + digit;
    }
    return value <= UINT32_MAX ? (int64_t)value : 0;
}

/* The creative object at `object`'s five members and its pixel sizes, in one walk over its keys (nothing found for
 * anything but an object). In Swift, a walk with a closure per key cost about 450 instructions a creative, and
 * each size 240 more. */
static inline be_creative_members be_creative_read_members(const uint8_t *text, const be_json_entry *entries,
                                                           uint32_t object) {
    uint32_t found[5] = {0, 0, 0, 0, 0};
    if (entries[object].type == BE_JSON_OBJECT) {
        uint32_t position = object + 1;
        const uint32_t end = entries[object].next;
        while (position < end) {
            const int known = be_json_key_match(text, &entries[position], be_creative_key, BE_CREATIVE_ESCAPED_KEY_MAX);
            if (known >= 0) found[known] = position + 1;
            position = entries[position + 1].next;
        }
    }
    return (be_creative_members){found[0], found[1], found[2], found[3], found[4],
                                 found[2] ? be_creative_pixels(text, &entries[found[2]]) : 0,
                                 found[3] ? be_creative_pixels(text, &entries[found[3]]) : 0,
                                 found[0] ? be_offer_url_needs_reading(text, &entries[found[0]]) : 0};
}

#endif
