/* The scans every answer runs, compiled once by clang in this target (scans.c) rather than inlined into Swift
 * callers: measured on the 50-offer answer, the tape's builder inlined into Swift cost about as much as clang's -O1
 * build of it, 7% more than clang's own optimised one. Hidden: nothing here is part of the library's C API. */
#ifndef BLINKENGAGE_JSON_COMPILED_H
#define BLINKENGAGE_JSON_COMPILED_H
#include <stddef.h>
#include <stdint.h>
#include "tape.h"
#include "offer.h"

#define BE_SCAN_HIDDEN __attribute__((visibility("hidden")))

/* be_json_build_tape (tape.h). */
BE_SCAN_HIDDEN be_json_status be_json_tape_build(const uint8_t *text, size_t count, be_json_entry *entries, size_t capacity,
                                                 uint32_t *ends, uint64_t *specials, be_json_outcome *outcome);

/* be_json_write_scalar_texts (tape.h). */
BE_SCAN_HIDDEN void be_json_tape_write_texts(const uint8_t *text, size_t count, const be_json_entry *entries,
                                             const uint32_t *ends, size_t end_count, uint8_t *destination);

/* be_url_is_canonical_http (url.h). */
BE_SCAN_HIDDEN int be_url_canonical_http(const uint8_t *bytes, size_t count);

/* be_url_rest_is_canonical (url.h). */
BE_SCAN_HIDDEN int be_url_canonical_rest(const uint8_t *bytes, size_t count, size_t at);

/* be_offer_key (offer.h). */
BE_SCAN_HIDDEN int be_offer_key_index(const uint8_t *name, size_t length);

/* be_offer_key_of_c_string (offer.h). */
BE_SCAN_HIDDEN int be_offer_key_of_text(const char *key);

/* be_offer_read_members, then be_offer_unread_urls (offer.h), whose bits it returns. */
BE_SCAN_HIDDEN uint32_t be_offer_members(const uint8_t *text, const be_json_entry *entries, uint32_t object, uint32_t *positions,
                                         uint32_t *texts);

/* be_creative_read_members (offer.h). */
BE_SCAN_HIDDEN be_creative_members be_creative_members_of(const uint8_t *text, const be_json_entry *entries, uint32_t object);
#endif
