/* compiled.h's functions: the static inline scans of tape.h, url.h and offer.h, compiled here once. */
#include "compiled.h"
#include "url.h"

be_json_status be_json_tape_build(const uint8_t *text, size_t count, be_json_entry *entries, size_t capacity, uint32_t *ends,
                                  uint64_t *specials, be_json_outcome *outcome) {
    return be_json_build_tape(text, count, entries, capacity, ends, specials, outcome);
}

void be_json_tape_write_texts(const uint8_t *text, size_t count, const be_json_entry *entries, const uint32_t *ends,
                              size_t end_count, uint8_t *destination) {
    be_json_write_scalar_texts(text, count, entries, ends, end_count, destination);
}

int be_url_canonical_http(const uint8_t *bytes, size_t count) { return be_url_is_canonical_http(bytes, count); }

int be_url_canonical_rest(const uint8_t *bytes, size_t count, size_t at) { return be_url_rest_is_canonical(bytes, count, at); }

int be_offer_key_index(const uint8_t *name, size_t length) { return be_offer_key(name, length); }

int be_offer_key_of_text(const char *key) { return be_offer_key_of_c_string(key); }

uint32_t be_offer_members(const uint8_t *text, const be_json_entry *entries, uint32_t object, uint32_t *positions,
                          uint32_t *texts) {
    be_offer_read_members(text, entries, object, positions, texts);
    return be_offer_unread_urls(text, entries, positions);
}

be_creative_members be_creative_members_of(const uint8_t *text, const be_json_entry *entries, uint32_t object) {
    return be_creative_read_members(text, entries, object);
}
