/*
 * blinkengage.h — the C API of libblinkengage.
 *
 * Personalised offers ("perks") for native hosts: fetch them, show them, report what users saw and did.
 *
 * Rules that hold for every function unless its comment says otherwise:
 *
 *  - Ownership. Functions named `_new`, `_start` or `_retain` hand the caller a reference that the caller
 *    ends with the matching `_free`, `_shutdown` or `_release`. Everything else returned is BORROWED: it lives
 *    as long as the object it came from. Strings are UTF-8, NUL-terminated, and never freed by the host.
 *    A string getter returns NULL where the value is absent or empty.
 *  - Errors. Synchronous calls return `be_status` (BE_OK = 0, failures negative) and set a thread-local
 *    message readable with be_last_error_message(). Asynchronous results arrive as `const be_error *`
 *    (NULL on success), borrowed for the duration of the callback.
 *  - Callbacks. If the call that takes a callback fails, the callback is never called. If it succeeds, the
 *    callback is called exactly once, also when the SDK shuts down first (then with the cancellation error).
 *    Callbacks never run inside the call that registered them; they run one at a time, on the SDK's callback
 *    thread (BE_CALLBACKS_ON_SDK_THREAD) or on the host thread that calls be_sdk_dispatch()
 *    (BE_CALLBACKS_ON_DISPATCH). A callback may call any function of the library except be_sdk_shutdown() on
 *    its own SDK (that call is detected, logged as an error, and does nothing). Keep callbacks short: the
 *    callback thread also reads the answers of offer fetches, and a callback that blocks holds back the
 *    callbacks and fetches behind it. Their timeouts keep running: a fetch whose timeout passes while a callback
 *    blocks that thread fails with BE_MOMENTS_ERROR_NETWORK, even if its answer had come (with
 *    BE_FETCH_IO_ON_DISPATCH the same holds for the host's dispatching thread).
 *  - NULL and bad input. Every function accepts NULL for any pointer and answers BE_ERR_INVALID_ARGUMENT,
 *    NULL or 0 instead of crashing. Strings from the host must be valid UTF-8; others are refused.
 *  - Threads. Every function may be called from any thread.
 *  - Objects outlive their SDK. After be_sdk_shutdown() the responses, feeds and offers a host still holds keep
 *    answering their getters.
 *  - fork(). The library may be in use on any thread when the host forks. fork() waits, at most 2 s, until the
 *    library's own threads are parked where they block and no host thread is inside an SDK call (new calls wait
 *    meanwhile; callbacks, log handlers and a host transport's send run outside that wait). Getters of objects and
 *    _retain are not waited for: they only read objects that no longer change, and take none of the library's
 *    locks. In the child the parent's SDKs refuse every call with BE_ERR_INVALID_STATE, and the child may start
 *    SDKs of its own and use them fully. If the library was still busy after 2 s, every call in the child that
 *    would run the library (starting an SDK included) fails at once with BE_ERR_INVALID_STATE saying so, rather
 *    than risk a lock no thread will release; getters of objects the child inherited still answer. A host's own
 *    locks are its own.
 */
#ifndef BLINKENGAGE_H
#define BLINKENGAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup version Version
 * The version of this header. be_version() gives the library's, which agrees with it. The soname
 * (libblinkengage.so.1) changes only when the ABI breaks.
 * @{
 */
/** Major version: changes with incompatible API changes. */
#define BE_VERSION_MAJOR 0
/** Minor version: changes with additions. */
#define BE_VERSION_MINOR 2
/** Patch version: changes with fixes. */
#define BE_VERSION_PATCH 0
/** Non-zero when the header's version is at least a.b.c. */
#define BE_VERSION_AT_LEAST(a, b, c)                                                                   \
    ((BE_VERSION_MAJOR > (a)) || (BE_VERSION_MAJOR == (a) && BE_VERSION_MINOR > (b)) ||                \
     (BE_VERSION_MAJOR == (a) && BE_VERSION_MINOR == (b) && BE_VERSION_PATCH >= (c)))
/** @} */

/**
 * @defgroup types Types and constants
 * Types and constants
 * @{
 */

/** Result of a synchronous call. */
typedef enum be_status {
    BE_OK = 0,
    BE_ERR_INVALID_ARGUMENT = -1, /**< NULL, out of range, not valid UTF-8, bad value */
    BE_ERR_INVALID_STATE = -2,    /**< e.g. the SDK was shut down, or is used in a forked child */
    BE_ERR_NOT_FOUND = -3,
    BE_ERR_IO = -4,               /**< an explicitly configured storage directory is unusable */
    BE_ERR_TIMEOUT = -5,
    BE_ERR_NO_MEMORY = -6
} be_status;

/** An asynchronous failure: domain + code + message, like NSError. Borrowed for the callback's duration. */
typedef struct be_error {
    const char *domain;  /**< compare with strcmp() against a BE_*_ERROR_DOMAIN macro, never by pointer */
    int code;            /**< meaning depends on the domain */
    const char *message; /**< human-readable detail, never NULL */
    int http_status;     /**< the HTTP status behind the error, 0 when there was none */
} be_error;

/** Moments API errors (codes 1..6). */
#define BE_MOMENTS_ERROR_DOMAIN "BlinkEngageMoments"
#define BE_MOMENTS_ERROR_INVALID_PARAMETER 1 /**< bad parameter or no API key; no request was made */
#define BE_MOMENTS_ERROR_INVALID_URL 2       /**< the request URL could not be built */
#define BE_MOMENTS_ERROR_NO_OFFERS 3         /**< 200 with no offers */
#define BE_MOMENTS_ERROR_DECODING 4          /**< 200 with a body of the wrong shape, or over 8 MiB */
#define BE_MOMENTS_ERROR_NETWORK 5           /**< no answer: DNS, connect, TLS, timeout, reset */
#define BE_MOMENTS_ERROR_HTTP_STATUS 6       /**< a non-2xx answer; http_status holds it */

/** Offer feed errors. Code 1 and 2 are distinct on purpose: 1 asks the host to set an identity, 2 means "off". */
#define BE_OFFER_FEED_ERROR_DOMAIN "BlinkEngageOfferFeed"
#define BE_OFFER_FEED_ERROR_NO_USER 1     /**< no registered user and no registration in progress */
#define BE_OFFER_FEED_ERROR_UNAVAILABLE 2 /**< fetch failed or feature disabled remotely: treat as off,
                                               do not retry in a loop */

/** Zone ad errors (codes 1..3). */
#define BE_ZONE_AD_ERROR_DOMAIN "BlinkEngageZoneAd"
#define BE_ZONE_AD_ERROR_MALFORMED 1   /**< not one line of FLAG|IMAGE_URL|LINK_URL, a bad flag, or a bad URL */
#define BE_ZONE_AD_ERROR_NETWORK 2     /**< no answer */
#define BE_ZONE_AD_ERROR_HTTP_STATUS 3 /**< a non-2xx answer; http_status holds it */

/** Image errors (codes 1..5). */
#define BE_IMAGE_ERROR_DOMAIN "BlinkEngageImage"
#define BE_IMAGE_ERROR_NETWORK 1      /**< no answer: DNS, connect, TLS, timeout, reset, a redirect to another scheme */
#define BE_IMAGE_ERROR_HTTP_STATUS 2  /**< a non-2xx answer; http_status holds it */
#define BE_IMAGE_ERROR_NOT_AN_IMAGE 3 /**< a Content-Type that is not image/... */
#define BE_IMAGE_ERROR_TOO_LARGE 4    /**< a body over 10 MiB */
#define BE_IMAGE_ERROR_INVALID_URL 5  /**< not an absolute http(s) URL */

/** The SDK shut down before the operation completed (code 1). */
#define BE_CANCELLED_ERROR_DOMAIN "BlinkEngageCancelled"
#define BE_CANCELLED_ERROR_SHUTDOWN 1 /**< be_sdk_shutdown() ran before the operation completed */

/** Where callbacks run. */
typedef enum be_callback_mode {
    BE_CALLBACKS_ON_SDK_THREAD = 0, /**< on one thread the SDK owns (the default) */
    BE_CALLBACKS_ON_DISPATCH = 1    /**< on whichever host thread calls be_sdk_dispatch() */
} be_callback_mode;

/** Where offer fetches do their network I/O (be_config_set_fetch_io()). */
typedef enum be_fetch_io {
    BE_FETCH_IO_ON_SDK_THREAD = 0, /**< on an SDK thread (the default): the callback thread, or with
                                        BE_CALLBACKS_ON_DISPATCH the transport thread */
    BE_FETCH_IO_ON_DISPATCH = 1    /**< on host threads: sent in the fetch call, read in be_sdk_dispatch() */
} be_fetch_io;

/** When an offer's impression beacons (`pixel`, `adv_pixel_url`) fire (be_config_set_impression_beacons()). */
typedef enum be_impression_beacons {
    BE_IMPRESSION_BEACONS_ON_APPEAR = 0,  /**< at every appearance: a DID_APPEAR, a screen showing it (the default) */
    BE_IMPRESSION_BEACONS_ON_VIEWABLE = 1 /**< at each viewable impression (be_sdk_report_visibility()) instead */
} be_impression_beacons;

/** Severity of a log message. */
typedef enum be_log_level { BE_LOG_DEBUG = 0, BE_LOG_INFO = 1, BE_LOG_WARNING = 2, BE_LOG_ERROR = 3 } be_log_level;

/** What a feed event reports. */
typedef enum be_offer_feed_event_type {
    BE_OFFER_FEED_EVENT_DID_APPEAR = 0, /**< an offer became visible in the host's feed UI (takes an offer) */
    BE_OFFER_FEED_EVENT_DID_TAP = 1,    /**< the user tapped an offer (takes an offer) */
    BE_OFFER_FEED_EVENT_VIEW_ALL = 2    /**< the user opened a whole group (takes a group) */
} be_offer_feed_event_type;

/** Configuration for be_sdk_start(). Owned by the caller: be_config_new() / be_config_free(). */
typedef struct be_config be_config;
/** A running SDK instance. Created by be_sdk_start(), ended by be_sdk_shutdown(). */
typedef struct be_sdk be_sdk;
/** One offer. Always borrowed from the response (or feed) it came from. */
typedef struct be_offer be_offer;
/** Parameters of a Moments API fetch. Owned by the caller: be_moments_request_new() / _free(). */
typedef struct be_moments_request be_moments_request;
/** A decoded Moments API answer. Reference counted: be_moments_response_retain() / _release(). */
typedef struct be_moments_response be_moments_response;
/** One successful feed load. Reference counted: be_offer_feed_retain() / _release(). */
typedef struct be_offer_feed be_offer_feed;
/** A group of offers in a feed. Always borrowed from its feed. */
typedef struct be_offer_group be_offer_group;
/** A headless SDK screen showing one offer at a time. Owned by the caller: be_offer_screen_free(). */
typedef struct be_offer_screen be_offer_screen;
/** The headless offer wall over a feed: wall, group, offer details. Owned by the caller: be_offer_wall_free(). */
typedef struct be_offer_wall be_offer_wall;
/** A feed event about to be reported. Owned by the caller: be_offer_feed_event_free(). */
typedef struct be_offer_feed_event be_offer_feed_event;
/** A legacy zone ad. Reference counted: be_zone_ad_retain() / _release(). */
typedef struct be_zone_ad be_zone_ad;
/** One creative (image) of an offer. Borrowed from its offer: lives as long as the offer's owner. */
typedef struct be_creative be_creative;
/** The bytes of a fetched image. Reference counted: be_image_retain() / _release(). */
typedef struct be_image be_image;
/** One HTTP request handed to a host-supplied transport; valid until the host completes or fails it. */
typedef struct be_http_request be_http_request;

/**
 * A host-supplied transport's send function (be_config_set_http_transport()). Called once per request, on
 * whichever thread makes it (an SDK thread, or a host thread inside a call of the library); it must return
 * quickly and answer later, from any thread, with be_http_request_complete() or be_http_request_fail(), exactly
 * once. It may answer before it returns. It must not call be_sdk_shutdown() on its SDK: that call is detected,
 * logged as an error, and does nothing (on whichever thread send runs).
 */
typedef void (*be_http_send_fn)(be_http_request *request, void *user_data);

/**
 * Receives the library's log messages.
 * Called synchronously on whichever thread logs, possibly from several threads at once, never after
 * be_sdk_shutdown() returns. `message` is borrowed for the call. It must not call the library.
 */
typedef void (*be_log_fn)(be_log_level level, const char *message, void *user_data);

/**
 * Receives the result of be_sdk_fetch_moments_offers().
 * Exactly one of `response` and `error` is non-NULL. Both are borrowed for the duration of the call; keep the
 * response beyond it with be_moments_response_retain(). Runs on the callback thread or in be_sdk_dispatch().
 */
typedef void (*be_moments_callback)(be_moments_response *response, const be_error *error, void *user_data);

/**
 * Receives the result of be_sdk_load_offer_feed(). Exactly one of `feed` and `error` is non-NULL; both are
 * borrowed for the call (be_offer_feed_retain() keeps the feed). Every caller of a shared load gets the same
 * feed. Runs on the callback thread or in be_sdk_dispatch().
 */
typedef void (*be_offer_feed_callback)(be_offer_feed *feed, const be_error *error, void *user_data);

/**
 * Receives the result of be_sdk_fetch_zone_ad(). Exactly one of `ad` and `error` is non-NULL; both borrowed for
 * the call (be_zone_ad_retain() keeps the ad). Runs on the callback thread or in be_sdk_dispatch().
 */
typedef void (*be_zone_ad_callback)(be_zone_ad *ad, const be_error *error, void *user_data);

/**
 * Receives the result of be_sdk_fetch_image(). Exactly one of `image` and `error` is non-NULL; both borrowed for
 * the call (be_image_retain() keeps the image). Runs on the callback thread or in be_sdk_dispatch().
 */
typedef void (*be_image_callback)(be_image *image, const be_error *error, void *user_data);

/** @} */

/**
 * @defgroup library Library
 * Library
 * @{
 */

/** The library's version as "MAJOR.MINOR.PATCH", agreeing with the BE_VERSION_* macros. Static string. */
const char *be_version(void);

/** A short English name for a status ("invalid argument"). Static string; unknown values give "unknown status". */
const char *be_status_string(be_status status);

/**
 * The message of the last failed call made on this thread, or "" when none failed yet.
 * Never NULL. Valid until the next failing call on the same thread; copy it to keep it.
 */
const char *be_last_error_message(void);

/** @} */

/**
 * @defgroup configuration Configuration
 * Configuration. The built-in transport is libcurl's: connections are kept and reused per host (HTTP/2 where
 * an https server offers it), and names are looked up on libcurl's resolver thread, so a slow lookup holds back
 * no request to another host. Each of an SDK's three connection pools (the service's requests, beacons, images)
 * looks a name up once and reuses the answer for 60 s (libcurl's DNS cache: a system lookup gives no TTL); a
 * request over a kept connection needs no lookup at all.
 * @{
 */

/**
 * A new configuration with defaults for everything but the API key.
 * @param api_key the publisher's key, copied; "" is accepted (fetches then fail with Moments error 1).
 * @return a configuration the caller frees with be_config_free(), or NULL when api_key is NULL or not UTF-8.
 */
be_config *be_config_new(const char *api_key);

/** Frees a configuration. NULL does nothing. SDKs started from it keep their own copy. */
void be_config_free(be_config *config);

/**
 * Base URL of the Moments API (default "https://api.adspostx.com/native/v4"); "/offers.json" is appended.
 * @return BE_ERR_INVALID_ARGUMENT for NULL, invalid UTF-8, an unparsable or a non-http(s) URL.
 */
be_status be_config_set_moments_url(be_config *config, const char *base_url);

/** Base URL of the Engage backend (feed, registration, events). No default: the feed is off until set. Same rules. */
be_status be_config_set_engage_url(be_config *config, const char *base_url);

/** URL template for zone ads; must contain "{zone}". No default. Same rules as the other URLs. */
be_status be_config_set_zone_ad_url(be_config *config, const char *url_template);

/**
 * Root of the storage directory (copied). Each API key gets its own directory below it, named by the 16 hex
 * digits of the key's 64-bit FNV-1a hash. When unset the root is $XDG_STATE_HOME/blinkengage, else
 * $HOME/.local/state/blinkengage, else the password database's home; when none is usable the SDK works in
 * memory and logs a warning. An explicitly set root that cannot be used makes be_sdk_start() fail with BE_ERR_IO.
 * Directories are created 0700, files 0600. The root may pass through symbolic links; inside the key's directory
 * nothing is followed: a link or FIFO where the SDK expects its own file or folder is moved aside
 * (be_stats.storage_refused). Storage written by an earlier release is brought forward at start and its queued
 * reports delivered (be_stats.reports_migrated); storage of a newer release is left untouched and tracking is then
 * kept in memory (be_stats.storage_format_held). docs/STORAGE.md lists the formats.
 */
be_status be_config_set_storage_dir(be_config *config, const char *path);

/**
 * User-Agent for every request (copied). Default "blinkengage/VERSION (OS; ARCH)". A Moments payload "ua"
 * overrides it for that request. "" restores the default.
 */
be_status be_config_set_user_agent(be_config *config, const char *user_agent);

/** Timeout of each request in milliseconds, from start to last byte (default 15000). 0 is refused. */
be_status be_config_set_timeout_ms(be_config *config, uint32_t timeout_ms);

/** Development mode: every Moments request carries dev=1 (test offers, no activity recorded). Default off. */
be_status be_config_set_development(be_config *config, int enabled);

/** Where callbacks run (default BE_CALLBACKS_ON_SDK_THREAD). Other values are refused. */
be_status be_config_set_callback_mode(be_config *config, be_callback_mode mode);

/**
 * Where offer fetches (be_sdk_fetch_moments_offers(), be_sdk_prefetch_moments_offers()) do their network I/O.
 * In both modes the fetch call itself starts the request and does the I/O that is possible at once, without
 * waiting (an answer already there included); when another thread is doing the fetches' I/O at that moment,
 * that thread starts it instead. Default BE_FETCH_IO_ON_SDK_THREAD: an SDK thread does the rest, with
 * BE_CALLBACKS_ON_SDK_THREAD the callback thread (it reads the answer, decodes it and runs the callback), with
 * BE_CALLBACKS_ON_DISPATCH the transport thread (it reads the answer, decodes it and queues the callback for
 * be_sdk_dispatch()). With BE_FETCH_IO_ON_DISPATCH the SDK's threads take no part: the host thread in
 * be_sdk_dispatch() reads the answer, decodes it and runs the callback, so no thread is woken between the answer
 * and the callback. be_sdk_dispatch_fd() is then
 * also readable while a fetch or a warm-up of the Moments host (be_sdk_warm_up(), at start by default) has I/O to
 * do, and they make progress (their timeouts included) only while the host dispatches when that descriptor is
 * readable. Needs BE_CALLBACKS_ON_DISPATCH: be_sdk_start() refuses it with the other mode
 * (BE_ERR_INVALID_ARGUMENT). With a host-supplied transport (be_config_set_http_transport()) neither value
 * changes anything: fetches go through that transport. Tracking, the feed, zone ads and images keep their threads.
 * @param config the configuration; NULL is refused.
 * @param io where fetches do their I/O; other values are refused.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or an unknown value (the configuration is then unchanged).
 */
be_status be_config_set_fetch_io(be_config *config, be_fetch_io io);

/**
 * The rule by which be_sdk_report_visibility() counts a viewable impression: at least `min_fraction` of the
 * offer's pixels visible for at least `min_ms` milliseconds without a break. The default is the MRC display rule,
 * 0.5 for 1000 ms.
 * @param config the configuration; NULL is refused.
 * @param min_fraction above 0 and at most 1 (NaN is refused).
 * @param min_ms at most 600000 (ten minutes); 0 counts a view as soon as it begins.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or a value out of range (the configuration is then unchanged).
 */
be_status be_config_set_viewability(be_config *config, double min_fraction, uint32_t min_ms);

/**
 * When impression beacons fire. BE_IMPRESSION_BEACONS_ON_APPEAR (the default) keeps what DID_APPEAR and SDK
 * screens promise: every appearance fires them. BE_IMPRESSION_BEACONS_ON_VIEWABLE fires them once per viewable
 * impression instead, and neither a DID_APPEAR nor a screen showing an offer fires them (the host must then
 * report visibility, or no impression beacon fires at all).
 * @param config the configuration; NULL is refused.
 * @param when one of be_impression_beacons; other values are refused.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or an unknown value (the configuration is then unchanged).
 */
be_status be_config_set_impression_beacons(be_config *config, be_impression_beacons when);

/**
 * Whether be_sdk_start() opens the connections the first fetch needs ahead of it, as be_sdk_warm_up() does: one
 * HEAD of the Moments host's root (and of the Engage host's, when it is another), TLS done, the connection kept.
 * On by default: a fetch at checkout then costs one round trip instead of three. Off, the SDK makes no request
 * until the host asks for one (a host waiting for the user's consent before any network use, say). Nothing is
 * opened with a host transport, without an API key, or in a start the crash-loop breaker left inert. A warm-up
 * counts in be_stats.requests_sent once sent (just after the start returns).
 * @param config the configuration; NULL is refused.
 * @param enabled nonzero (the default) or 0.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL.
 */
be_status be_config_set_warm_up_at_start(be_config *config, int enabled);

/**
 * Installs a log handler for messages at `min_level` and above. `fn` NULL removes the handler.
 * See be_log_fn for its threading rules. `user_data` is passed back untouched.
 */
be_status be_config_set_log_handler(be_config *config, be_log_fn fn, be_log_level min_level, void *user_data);

/**
 * Limits of the durable tracking queue: at most `max_items` items (default 10000) no older than `max_age_s`
 * seconds (default 86400). The oldest items beyond either limit are dropped and counted. 0 is refused.
 */
be_status be_config_set_outbox_limits(be_config *config, uint32_t max_items, uint32_t max_age_s);

/**
 * Turns the feed cache on: each successful feed is stored for its user identity, and a load that fails for a
 * network reason, a 5xx or a timeout answers with the stored feed of the same identity when it is younger than
 * `max_age_s` (be_offer_feed_is_cached() then says so). `enabled: false`, a new identity, log-out and
 * be_sdk_delete_user_data() delete it. Needs a storage directory.
 * @param config the configuration.
 * @param max_age_s the oldest stored feed that may answer, in seconds; 0 (the default) turns the cache off.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL.
 */
be_status be_config_set_feed_cache(be_config *config, uint32_t max_age_s);

/**
 * How long a prefetched Moments answer (be_sdk_prefetch_moments_offers()) waits for its fetch.
 * @param config the configuration.
 * @param ttl_s seconds, at least 1; the default is 1800.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or 0.
 */
be_status be_config_set_prefetch_ttl_s(be_config *config, uint32_t ttl_s);

/**
 * Limits of the image caches (be_sdk_fetch_image()): a memory cache and a disk cache in the storage directory's
 * `images/` folder, each evicting the least recently used image first so it never exceeds its limit. An image
 * larger than a limit is not kept there. The disk cache needs a storage directory and survives restarts.
 * @param config the configuration.
 * @param memory_bytes the memory cache's limit in bytes; 0 turns it off. The default is 16 MiB.
 * @param disk_bytes the disk cache's limit in bytes; 0 turns it off. The default is 64 MiB.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL.
 */
be_status be_config_set_image_cache(be_config *config, uint64_t memory_bytes, uint64_t disk_bytes);

/**
 * Sends every request of the SDK (Moments, registration, feed, events, beacons, zone ads, images) through the
 * host's own HTTP stack instead of libcurl; the SDK then opens no socket. Queueing, batching, retries, backoff,
 * Retry-After, 401 handling, size caps and timeouts stay in the SDK: a request the host has not completed
 * within be_http_request_timeout_ms() fails with a network error, and the host's later answer is accepted and
 * ignored. Headers, redirects, TLS and proxies are the host's business. The proxy, CA file and pinned keys
 * settings do not apply.
 * @param config the configuration.
 * @param send the host's send function; NULL returns to libcurl.
 * @param user_data passed to `send` untouched; it must stay valid until be_sdk_shutdown() of every SDK started
 *        with this configuration has returned.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for a NULL config.
 */
be_status be_config_set_http_transport(be_config *config, be_http_send_fn send, void *user_data);

/**
 * A proxy for every request of the built-in transport.
 * @param config the configuration.
 * @param url `http://host:port`, `https://host:port` or `socks5h://host:port` (the proxy resolves names);
 *        credentials may be given as `scheme://user:password@host:port`; NULL connects directly (the default).
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for a NULL config, another scheme, or a URL libcurl cannot read.
 */
be_status be_config_set_proxy(be_config *config, const char *url);

/**
 * Trusts the CA certificates of a PEM file instead of the system's, for every https request of the built-in
 * transport (a corporate CA, a test CA).
 * @param config the configuration.
 * @param path the PEM file, read at each connection; NULL returns to the system's store (the default).
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for a NULL config; BE_ERR_NOT_FOUND when `path` is not a readable file.
 */
be_status be_config_set_ca_file(be_config *config, const char *path);

/**
 * Pins the public key of the service (Moments, Engage and zone ad requests; beacon and image hosts are
 * other parties and are not pinned): a connection whose server key matches none of the hashes is refused
 * before anything is sent, with a network error that says so.
 * @param config the configuration.
 * @param pins one or more `sha256//BASE64` hashes of the DER SubjectPublicKeyInfo, separated by ";" (libcurl's
 *        CURLOPT_PINNEDPUBLICKEY form); NULL pins nothing (the default).
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for a NULL config or a hash that is not sha256// and 44 base64 characters.
 */
be_status be_config_set_pinned_public_key(be_config *config, const char *pins);

/** @} */

/**
 * @defgroup lifecycle Lifecycle
 * Lifecycle
 * @{
 */

/**
 * Starts an SDK instance from a copy of `config`. It returns without waiting for the network; by default the SDK's
 * transport thread then opens the service's connection (be_config_set_warm_up_at_start()). libcurl's global
 * initialisation, when the process has not made it yet, runs on the SDK's threads rather than in this call where
 * the loaded libcurl makes it thread-safe (7.84 and later); where it fails, each request fails as on a network
 * error. Any thread.
 * @param config the configuration, copied: the host may free it right after.
 * @param[out] out_sdk receives the instance, to be ended with be_sdk_shutdown(); set to NULL on failure.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL arguments; BE_ERR_IO when an explicitly configured storage
 *         root cannot be used; BE_ERR_NO_MEMORY or BE_ERR_INVALID_STATE when a thread cannot start.
 */
be_status be_sdk_start(const be_config *config, be_sdk **out_sdk);

/**
 * Sets the user's identity (copied). On first launch the user is registered with the Engage backend in the
 * background (retried with backoff when it fails); the identity and its registration are stored in the storage
 * directory and restored by be_sdk_start(), so a returning user is not registered again. A new identity clears
 * the newest feed. Without an Engage URL the identity is stored and nothing is registered. Only what is still
 * needed of earlier identities is stored: the registrations of identities whose events wait to be delivered.
 * @param sdk the instance.
 * @param pub_user_id the publisher's user id: UTF-8, 1 to 4096 bytes.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL, "", invalid UTF-8 or more than 4096 bytes;
 *         BE_ERR_INVALID_STATE after shutdown.
 */
be_status be_sdk_set_user_identity(be_sdk *sdk, const char *pub_user_id);

/**
 * Logs out: forgets the identity and the newest feed (its offers and groups then resolve to no screen).
 * Loads waiting for a registration complete with BE_OFFER_FEED_ERROR_NO_USER.
 */
be_status be_sdk_clear_user_identity(be_sdk *sdk);

/**
 * Dispatch mode only: runs up to `max_callbacks` queued callbacks (all of them when <= 0) on the calling thread.
 * With BE_FETCH_IO_ON_DISPATCH it first does the fetches' network I/O that is ready, without waiting, and runs
 * the callbacks of the fetches that finished in the same call.
 * Callbacks run one at a time across every dispatching thread: a call made while another thread is dispatching
 * returns 0 at once (that thread runs what waits), and so does a call from inside a callback. Any thread.
 * @param sdk the instance; NULL returns 0.
 * @param max_callbacks the most callbacks to run; <= 0 for all that wait.
 * @return how many callbacks ran; 0 in the other mode, for NULL, when none waited, inside a callback, while
 *         another thread dispatches, or in a forked child (the parent's callbacks are not the child's).
 */
int be_sdk_dispatch(be_sdk *sdk, int max_callbacks);

/**
 * Dispatch mode only: a descriptor that is readable while callbacks wait, for poll/epoll/GLib/libuv loops; with
 * BE_FETCH_IO_ON_DISPATCH also while a fetch or a warm-up has network I/O or a timeout to handle, and at most
 * once after they end, for a timeout none of them needs any more (be_sdk_dispatch() may then run no callback).
 * It may also be readable once with no callback waiting, when a dispatch ran a callback in the instant it was
 * queued (be_sdk_dispatch() then runs none, and the descriptor is quiet again).
 * Owned by the SDK: never read, write or close it; it stays valid until be_sdk_shutdown().
 * Any thread.
 * @param sdk the instance; NULL returns -1.
 * @return the descriptor; -1 in the other mode, for NULL, or in a forked child.
 */
int be_sdk_dispatch_fd(be_sdk *sdk);

/**
 * Tries every queued beacon and event now (ignoring backoff, honouring the server's Retry-After) and waits
 * until everything queued before the call was delivered or dropped by rule. Blocks the calling thread.
 * @return BE_OK; BE_ERR_TIMEOUT at the timeout, at once when a connection fails during this flush (the
 *         network is down), or when another instance or process holds the storage directory (it delivers);
 *         BE_ERR_INVALID_STATE after shutdown. Nothing is lost either way: what is left stays queued.
 */
be_status be_sdk_flush(be_sdk *sdk, uint32_t timeout_ms);

/**
 * Ends the instance and frees it. Flushes queued beacons and events for at most `timeout_ms` and keeps what is
 * left on disk for the next start. Cancels every request in flight and runs every callback still owed
 * exactly once before returning: completed results as results, the rest with BE_CANCELLED_ERROR_DOMAIN.
 * They run on the callback thread or, in dispatch mode, on the thread calling this. No callback and no log
 * message follows its return. Waits at most about `timeout_ms` for work that is not a host callback: a
 * be_sdk_flush() running on another thread is ended first (it returns BE_ERR_TIMEOUT).
 * `sdk` is invalid afterwards. NULL does nothing. Called from one of this SDK's own callbacks it logs an error
 * and does nothing. In a forked child it releases nothing the parent holds (no thread is joined, no lock is
 * given up, no callback runs, no memory is freed) and the child's `sdk` is invalid afterwards: only the
 * process that started an SDK can end it. Any thread but the SDK's own callback thread.
 * @param sdk the instance, ended by this call; NULL does nothing.
 * @param timeout_ms the longest wait for queued beacons and events to be delivered.
 */
void be_sdk_shutdown(be_sdk *sdk, uint32_t timeout_ms);

/** @} */

/**
 * @defgroup privacy Privacy
 * Privacy: consent signals and erasure (docs/PROTOCOL.md section 6). Signals are kept in memory only (the host's
 * consent platform is the source of truth and sets them at each start), may be set at any time from any thread,
 * and apply to every request made after the call: Moments payload keys and Engage query parameters with their
 * OpenRTB names (`gdpr`, `gdpr_consent`, `us_privacy`, `gpp`, `gpp_sid`, `coppa`, `lmt`); only those that are set
 * travel, and a signal overrides a host payload key of the same name. With child_directed or limit_tracking
 * set, the payload keys `adpx_fp`, `ip` and `pub_user_id` are not sent, registration sends no device id, and
 * advertiser pixels (`adv_pixel_url`) are not fired but counted in be_stats.dropped_privacy. Beacons and events
 * queued before a change are sent as they were queued. A malformed value is refused and changes nothing.
 * @{
 */

/**
 * GDPR: whether it applies, and the TCF v2 consent string.
 * @param sdk the instance.
 * @param applies -1 unknown (not sent), 0 or 1.
 * @param tcf_string the TCF consent string (base64url segments joined by "."), copied; NULL for none.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL `sdk`, another `applies`, or a string that is not base64url;
 *         BE_ERR_INVALID_STATE after shutdown or in a forked child.
 */
be_status be_sdk_set_gdpr(be_sdk *sdk, int applies, const char *tcf_string);

/**
 * The IAB US privacy (CCPA) string.
 * @param sdk the instance.
 * @param us_privacy 4 characters: "1", then each of Y, N or - ("1YNN"), copied; NULL clears it.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL `sdk` or a malformed string; BE_ERR_INVALID_STATE after
 *         shutdown or in a forked child.
 */
be_status be_sdk_set_us_privacy(be_sdk *sdk, const char *us_privacy);

/**
 * The IAB Global Privacy Platform string and its applicable section ids.
 * @param sdk the instance.
 * @param gpp_string the GPP string, copied; NULL clears both.
 * @param section_ids a comma list of integers ("7,8"), copied; required with a GPP string.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL `sdk`, a malformed string or list, or ids without a string;
 *         BE_ERR_INVALID_STATE after shutdown or in a forked child.
 */
be_status be_sdk_set_gpp(be_sdk *sdk, const char *gpp_string, const char *section_ids);

/**
 * Whether the app or user is child-directed (COPPA).
 * @param sdk the instance.
 * @param child_directed -1 unknown (not sent), 0 or 1; 1 withholds identifiers and advertiser pixels.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL `sdk` or another value; BE_ERR_INVALID_STATE after shutdown
 *         or in a forked child.
 */
be_status be_sdk_set_child_directed(be_sdk *sdk, int child_directed);

/**
 * Limit ad tracking (the device setting, OpenRTB `device.lmt`).
 * @param sdk the instance.
 * @param limited 0 or 1; 1 sends `lmt=1` and withholds identifiers and advertiser pixels.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL `sdk` or another value; BE_ERR_INVALID_STATE after shutdown
 *         or in a forked child.
 */
be_status be_sdk_set_limit_tracking(be_sdk *sdk, int limited);

/**
 * Erases what the SDK holds about the user: forgets the identity and its token (every stored registration),
 * replaces the device id, deletes the feed cache and any prefetched answers, and deletes queued events and
 * beacons (counted in be_stats.dropped_privacy), also those another process queued in the same storage
 * directory. Feed loads in progress end with BE_OFFER_FEED_ERROR_NO_USER. Deleted rows are overwritten and the
 * database rebuilt, so nothing of the user is left in the storage directory. Privacy signals stay as set.
 * @param sdk the instance.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE after shutdown or in a forked child.
 */
be_status be_sdk_delete_user_data(be_sdk *sdk);

/** @} */

/**
 * @defgroup moments Moments API
 * Moments API
 * @{
 */

/** A new, empty request. Free it with be_moments_request_free(). NULL only when out of memory. */
be_moments_request *be_moments_request_new(void);

/** Frees a request. NULL does nothing. A fetch already started keeps its own copy. */
void be_moments_request_free(be_moments_request *request);

/** `loyaltyboost` query parameter: "0", "1" or "2" (copied); NULL unsets it. Anything else: BE_ERR_INVALID_ARGUMENT. */
be_status be_moments_request_set_loyaltyboost(be_moments_request *request, const char *value);

/** `creative` query parameter: "0", or "1" for offers with an image only; NULL unsets it. Else BE_ERR_INVALID_ARGUMENT. */
be_status be_moments_request_set_creative(be_moments_request *request, const char *value);

/** `campaignId` query parameter: a non-empty id (copied); NULL unsets it; "" is BE_ERR_INVALID_ARGUMENT. */
be_status be_moments_request_set_campaign_id(be_moments_request *request, const char *campaign_id);

/** Development mode for this request (dev=1 in the payload), on top of be_config_set_development(). */
be_status be_moments_request_set_development(be_moments_request *request, int enabled);

/**
 * Sets one payload attribute (both copied). Well-known keys: placement (strongly recommended), ua, ip,
 * adpx_fp, pub_user_id, country, theme_id; any other key is a custom attribute sent unchanged. A NULL value
 * removes the key. The key must be non-empty; both must be UTF-8. Past 10 custom attributes or 128-character
 * values the library logs a warning and still sends.
 */
be_status be_moments_request_set_payload(be_moments_request *request, const char *key, const char *value);

/**
 * Fetches offers: POST {moments_url}/offers.json. The request is copied; the host may free it at once.
 * @param sdk the SDK.
 * @param request the parameters, validated by their setters.
 * @param user_data passed back to the callback untouched.
 * @param callback receives the response or the error (domain BE_MOMENTS_ERROR_DOMAIN, or the cancellation
 *        domain on shutdown), exactly once, on the callback thread or in be_sdk_dispatch().
 * @return BE_OK when the callback will run; BE_ERR_INVALID_ARGUMENT for NULL sdk/request/callback;
 *         BE_ERR_INVALID_STATE after shutdown, in a forked child, or in a start the crash-loop breaker left
 *         inert (be_stats.crash_loop_mode 2). On failure the callback never runs.
 */
be_status be_sdk_fetch_moments_offers(be_sdk *sdk, const be_moments_request *request, be_moments_callback callback,
                                      void *user_data);

/**
 * Fetches offers now for a later be_sdk_fetch_moments_offers() of an equal request (same parameters, payload and
 * privacy signals) within the prefetch TTL (be_config_set_prefetch_ttl_s(), default 1800 s). That fetch is
 * answered from the prefetched answer without a request, once: the answer is then consumed, because its beacons
 * and click URLs belong to one session. A fetch made while the prefetch is in flight joins it. A prefetch that
 * failed is not kept, and a prefetch of a request already prefetched does nothing. Any thread.
 * @param sdk the instance.
 * @param request the request, copied: the host may free it right after.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE after shutdown, in a forked child,
 *         or in a start the crash-loop breaker left inert (be_stats.crash_loop_mode 2).
 */
be_status be_sdk_prefetch_moments_offers(be_sdk *sdk, const be_moments_request *request);

/**
 * Opens the connections the next fetch needs ahead of it, with TLS done, and keeps them: one HEAD of the Moments
 * host's root (and of the Engage host's, when it is another), any answer accepted. Over a kept connection a
 * fetch costs one round trip instead of three (TCP, TLS 1.3, the request): call it at start, when the user
 * heads for the moment, or after the network changed. Returns at once: the SDK's transport thread sends the
 * HEADs, here as at start. Nothing polls to keep a connection: it
 * lives within libcurl's limit (118 s idle) and the server's, and the next warm-up or fetch opens it again. With
 * BE_FETCH_IO_ON_DISPATCH the Moments connection is opened in be_sdk_dispatch() like a fetch's; with a host
 * transport (be_config_set_http_transport()) it does nothing. Any thread.
 * @param sdk the SDK; NULL is refused.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE after shutdown or in a forked child.
 */
be_status be_sdk_warm_up(be_sdk *sdk);

/** Takes one more reference to `response` and returns it (NULL for NULL). End it with be_moments_response_release(). */
be_moments_response *be_moments_response_retain(be_moments_response *response);

/** Ends one reference. The response and everything borrowed from it go when the last reference goes. NULL: nothing. */
void be_moments_response_release(be_moments_response *response);

/** Number of offers (offers without an id are skipped while decoding). 0 for NULL. */
size_t be_moments_response_offer_count(const be_moments_response *response);

/** The offer at `index`, borrowed from the response; NULL when out of range or for NULL. */
const be_offer *be_moments_response_offer_at(const be_moments_response *response, size_t index);

/**
 * A style by dotted path, e.g. "offerText.buttonYes.background", borrowed from the response. Strings as they are,
 * numbers and booleans as their JSON text, objects and arrays as JSON text. "settings.*" paths read
 * styles.settings first and fall back to data.settings key by key. NULL when absent, null or "".
 */
const char *be_moments_response_style(const be_moments_response *response, const char *path);

/** The `privacy_url` of the answer as its `href` (see @ref offers), borrowed; NULL when absent or not an http(s) URL. */
const char *be_moments_response_privacy_url(const be_moments_response *response);

/** @} */

/**
 * @defgroup feed Client-side offer feed
 * Client-side offer feed
 * @{
 */

/**
 * Loads the offer feed for the host to lay out. Concurrent calls share one request: every callback runs once
 * with the same feed. A call during registration waits for it. The result, exactly once:
 *  - a feed (possibly with zero groups: an empty feed is a success), which becomes the newest feed;
 *  - BE_OFFER_FEED_ERROR_NO_USER: no identity was set and no registration is in progress;
 *  - BE_OFFER_FEED_ERROR_UNAVAILABLE: no Engage URL, the registration this load waited for failed, the fetch
 *    failed (http_status set for a non-2xx answer), the answer cannot be decoded, or the feed is disabled
 *    remotely (which also clears the newest feed). Never an empty feed for any of these.
 * @return BE_OK when the callback will run; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE after shutdown
 *         or in a start the crash-loop breaker left inert (be_stats.crash_loop_mode 2).
 */
be_status be_sdk_load_offer_feed(be_sdk *sdk, be_offer_feed_callback callback, void *user_data);

/** Takes one more reference to `feed` and returns it (NULL for NULL). End it with be_offer_feed_release(). */
be_offer_feed *be_offer_feed_retain(be_offer_feed *feed);
/** Ends one reference; the feed, its groups and offers go with the last one. NULL does nothing. */
void be_offer_feed_release(be_offer_feed *feed);
/** The feed's id (a new one for each load), borrowed. */
const char *be_offer_feed_id(const be_offer_feed *feed);
/** 1 when the feed came from the feed cache (be_config_set_feed_cache()) because a load failed; 0 otherwise and for NULL. */
int be_offer_feed_is_cached(const be_offer_feed *feed);
/** The age in seconds of a cached feed when it was loaded; 0 for a fresh feed and for NULL. */
uint32_t be_offer_feed_age_s(const be_offer_feed *feed);
/** Number of groups; 0 for an empty feed or NULL. */
size_t be_offer_feed_group_count(const be_offer_feed *feed);
/** The group at `index`, borrowed from the feed; NULL when out of range. */
const be_offer_group *be_offer_feed_group_at(const be_offer_feed *feed, size_t index);

/** The group's id, borrowed from its feed. */
const char *be_offer_group_id(const be_offer_group *group);
/** The group's title, borrowed; NULL when absent. */
const char *be_offer_group_title(const be_offer_group *group);
/** Number of offers in the group. */
size_t be_offer_group_offer_count(const be_offer_group *group);
/** The offer at `index`, borrowed from the group's feed; NULL when out of range. */
const be_offer *be_offer_group_offer_at(const be_offer_group *group, size_t index);

/** @} */

/**
 * @defgroup screens SDK screens
 * SDK screens: the single-offer unit without pixels. The SDK owns the state and the tracking beacons, the host draws the current offer. Every display is an impression (pixel and adv_pixel_url fire each time an offer becomes current, Previous included). Accept and decline move to the next offer, or on the last fire `close` and finish; decline fires `no_thanks_click` first. Close fires `close` and finishes. Freeing a screen fires nothing. Creating one records no feed event. After be_sdk_shutdown() every action returns BE_ERR_INVALID_STATE (or NULL) and changes nothing; getters keep answering.
 * @{
 */

/**
 * A screen for one offer of the newest feed, showing it (its impressions fire now).
 * @return a screen to free with be_offer_screen_free(); NULL when the offer is not part of the newest
 *         feed (an older load's offer is stale even with the same id), for NULL, or after shutdown.
 */
be_offer_screen *be_sdk_offer_details_screen(be_sdk *sdk, const be_offer *offer);

/** A screen over a group of the newest feed, starting at its first offer. NULL like the details screen. */
be_offer_screen *be_sdk_offer_group_screen(be_sdk *sdk, const be_offer_group *group);

/** A screen over a Moments answer's offers, with its styles. The screen keeps the response alive. */
be_offer_screen *be_sdk_moments_screen(be_sdk *sdk, const be_moments_response *response);

/** Frees a screen (firing nothing) and everything obtained from it. NULL does nothing. */
void be_offer_screen_free(be_offer_screen *screen);

/** The offer on screen, borrowed from the screen; NULL once finished. */
const be_offer *be_offer_screen_current_offer(const be_offer_screen *screen);
/** The current offer's index (the last one shown, once finished). */
size_t be_offer_screen_index(const be_offer_screen *screen);
/** How many offers the screen holds. */
size_t be_offer_screen_offer_count(const be_offer_screen *screen);
/** Non-zero when show_next would succeed. */
int be_offer_screen_has_next(const be_offer_screen *screen);
/** Non-zero when show_previous would succeed. */
int be_offer_screen_has_previous(const be_offer_screen *screen);
/** Shows the next offer. BE_ERR_INVALID_STATE past the end, on a finished screen, or after shutdown. */
be_status be_offer_screen_show_next(be_offer_screen *screen);
/** Shows the previous offer (an impression again). BE_ERR_INVALID_STATE before the start or when finished. */
be_status be_offer_screen_show_previous(be_offer_screen *screen);
/**
 * The positive CTA: returns the click URL for the host to open (borrowed from the screen; NULL when the offer
 * has none, which still moves on) and moves to the next offer, or on the last one fires `close` and finishes.
 * NULL with BE_ERR_INVALID_STATE in be_last_error_message() on a finished screen or after shutdown.
 */
const char *be_offer_screen_accept(be_offer_screen *screen);
/** The negative CTA: fires `no_thanks_click`, then moves on like accept. */
be_status be_offer_screen_decline(be_offer_screen *screen);
/** Dismisses the unit: fires `close` for the current offer and finishes. */
be_status be_offer_screen_close(be_offer_screen *screen);
/** Non-zero once the screen finished (closed, or the last offer answered). */
int be_offer_screen_is_finished(const be_offer_screen *screen);
/**
 * A style by dotted path ("offerText.buttonYes.color"), borrowed from the screen; only screens over a Moments
 * answer have styles (NULL otherwise). Same rules as be_moments_response_style().
 */
const char *be_offer_screen_style(const be_offer_screen *screen, const char *path);

/** @} */

/**
 * @defgroup wall The offer wall
 * The offer wall: the newest feed as a complete SDK screen, headless. The host draws what the wall's level says;
 * the SDK owns the navigation (the wall of every group, one group's offers, one offer's details) and reports the
 * wall's feed events itself, with their positions: `did_appear` when an offer becomes visible (the host reports
 * what is visible with be_offer_wall_report_visibility(), as with be_sdk_report_visibility()), `view_all` when a
 * group is opened, `did_tap` when an offer is. An offer's details are a one-offer screen: showing them is an
 * impression, accept returns the click URL, decline fires `no_thanks_click`, leaving them unanswered fires
 * `close`. A host that uses the wall reports none of these events itself. All functions: any thread; after
 * be_sdk_shutdown() every action returns BE_ERR_INVALID_STATE (or NULL) and changes nothing, getters keep answering.
 * @{
 */

/** What the wall shows now. */
typedef enum be_offer_wall_level {
    BE_OFFER_WALL_LEVEL_WALL = 0,   /**< every group of the feed with its offers */
    BE_OFFER_WALL_LEVEL_GROUP = 1,  /**< one group's offers (be_offer_wall_current_group()) */
    BE_OFFER_WALL_LEVEL_OFFER = 2,  /**< one offer's details (be_offer_wall_current_offer()) */
    BE_OFFER_WALL_LEVEL_CLOSED = 3  /**< closed: every action returns BE_ERR_INVALID_STATE */
} be_offer_wall_level;

/**
 * The offer wall over the newest feed (load one first with be_sdk_load_offer_feed()), at its wall level.
 * @param sdk the SDK; NULL is refused.
 * @return a wall the caller frees with be_offer_wall_free() (it keeps its feed alive); NULL with
 *         be_last_error_message() for NULL, before a feed was loaded, after shutdown or in a forked child.
 */
be_offer_wall *be_sdk_offer_wall(be_sdk *sdk);

/**
 * Frees a wall and everything obtained from it, firing nothing (a host that dismisses the wall calls
 * be_offer_wall_close() first). Any thread, once. NULL does nothing.
 * @param wall the wall, or NULL.
 */
void be_offer_wall_free(be_offer_wall *wall);

/**
 * @param wall the wall.
 * @return what the wall shows; BE_OFFER_WALL_LEVEL_CLOSED for NULL.
 */
be_offer_wall_level be_offer_wall_get_level(const be_offer_wall *wall);

/**
 * @param wall the wall.
 * @return the feed the wall shows, borrowed from the wall (its groups and offers are the wall's positions); NULL for
 *         NULL.
 */
const be_offer_feed *be_offer_wall_feed(const be_offer_wall *wall);

/**
 * @param wall the wall.
 * @return at the group level the group shown, at the offer level the offer's group, borrowed from the wall; NULL at
 *         the wall level, when closed, or for NULL.
 */
const be_offer_group *be_offer_wall_current_group(const be_offer_wall *wall);

/**
 * @param wall the wall.
 * @return at the offer level the offer shown, borrowed from the wall; NULL otherwise or for NULL.
 */
const be_offer *be_offer_wall_current_offer(const be_offer_wall *wall);

/**
 * Reports that an offer of the wall is `visible_fraction` of its pixels on screen now: call it whenever the fraction
 * changes (0 when the offer leaves the screen). At the wall level any offer of the feed; at the group level the
 * group's; at the offer level the offer shown. An offer that becomes visible records `did_appear` with its
 * positions (its impression beacons fire); the fraction also counts toward viewable impressions, as with
 * be_sdk_report_visibility(). Leaving a level ends the views of what it showed.
 * @param wall the wall; NULL is refused.
 * @param group_index the group's index in the wall's feed.
 * @param offer_index the offer's index in its group.
 * @param visible_fraction from 0 to 1.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL, an index out of range or a fraction outside 0...1 (NaN
 *         included); BE_ERR_INVALID_STATE for an offer the level does not show, a closed wall, after shutdown.
 */
be_status be_offer_wall_report_visibility(be_offer_wall *wall, size_t group_index, size_t offer_index,
                                          double visible_fraction);

/**
 * Opens a group from the wall level and records `view_all`.
 * @param wall the wall; NULL is refused.
 * @param group_index the group's index in the wall's feed.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL, an index out of range or an empty group; BE_ERR_INVALID_STATE
 *         at another level, closed, after shutdown.
 */
be_status be_offer_wall_open_group(be_offer_wall *wall, size_t group_index);

/**
 * Opens an offer's details, from the wall level or from its group's level, and records `did_tap`; the details'
 * display fires the offer's impression beacons.
 * @param wall the wall; NULL is refused.
 * @param group_index the offer's group in the wall's feed.
 * @param offer_index the offer's index in its group.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or an index out of range; BE_ERR_INVALID_STATE from the offer
 *         level, from another group's level, closed, after shutdown.
 */
be_status be_offer_wall_open_offer(be_offer_wall *wall, size_t group_index, size_t offer_index);

/**
 * The positive CTA at the offer level: the details finish (firing `close`) and the wall goes back a level.
 * @param wall the wall.
 * @return the click URL for the host to open, borrowed from the wall; NULL when the offer has none (it still goes
 *         back), or with BE_ERR_INVALID_STATE in be_last_error_message() at another level, closed, after shutdown.
 */
const char *be_offer_wall_accept(be_offer_wall *wall);

/**
 * The negative CTA at the offer level: fires `no_thanks_click` and `close`, and goes back a level.
 * @param wall the wall; NULL is refused.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE at another level, closed, after shutdown.
 */
be_status be_offer_wall_decline(be_offer_wall *wall);

/**
 * One level up: from an offer's details (firing `close` when they were not answered) to where it was opened, from a
 * group to the wall; at the wall level it closes the wall.
 * @param wall the wall; NULL is refused.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE when closed or after shutdown.
 */
be_status be_offer_wall_back(be_offer_wall *wall);

/**
 * Closes the wall from any level (unanswered details fire `close`).
 * @param wall the wall; NULL is refused.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE when closed already or after shutdown.
 */
be_status be_offer_wall_close(be_offer_wall *wall);

/** @} */

/**
 * @defgroup events Feed events
 * Feed events
 * @{
 */

/**
 * An event about a feed offer: BE_OFFER_FEED_EVENT_DID_APPEAR or _DID_TAP. Copies the feed id, group id, the
 * group's position in its feed and the offer's position in its group, so it stays valid after the feed goes.
 * @return an event to free with be_offer_feed_event_free(); NULL for another type, NULL, or an offer that
 *         came from no feed (a Moments offer).
 */
be_offer_feed_event *be_offer_feed_event_new_with_offer(const be_offer *offer, be_offer_feed_event_type type);

/** An event about a group: BE_OFFER_FEED_EVENT_VIEW_ALL only (NULL for another type). */
be_offer_feed_event *be_offer_feed_event_new_with_group(const be_offer_group *group, be_offer_feed_event_type type);

/** Frees an event. NULL does nothing. */
void be_offer_feed_event_free(be_offer_feed_event *event);

/**
 * Records the event durably under the current identity, with a fresh id and time: reporting the same object
 * twice records two events. Durably means one write(2) to this instance's journal in the storage directory
 * before this returns (a few microseconds, no lock the delivery thread holds), so the event survives the process
 * being killed right after; the SDK delivers it from there, or moves it into the database with others in one
 * transaction if it must wait, and an instance that starts later recovers what a dead one left in its journal.
 * Like SQLite's WAL with synchronous=NORMAL, this survives the death of the process, not a power loss. Delivery
 * is at least once: an event the server accepted just before the process died may be sent again (its `id`
 * stays the same). When the disk refuses the write
 * (full, or a file size limit), the event is inserted into the database; when that fails too, it is kept in
 * memory, delivered from there, written to the database as soon as the disk takes it again (tried every second)
 * and at be_sdk_shutdown(); only the death of the process before then loses it. A warning is logged either way. DID_APPEAR also fires the offer's impression
 * beacons: report every offer that becomes visible, every time. An event from an older feed is still recorded,
 * with the positions it had in its own feed.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE without an Engage URL or after shutdown.
 */
be_status be_sdk_report_offer_feed_event(be_sdk *sdk, const be_offer_feed_event *event);

/**
 * Reports that `offer` (of a feed, a Moments answer, or a screen's current offer) is `visible_fraction` of its
 * pixels on screen now. Call it from the frame or scroll loop whenever the fraction changes, 0 when the offer
 * leaves the screen; it is cheap enough for every frame (no allocation, no system call while a view goes on:
 * see BENCHMARKS.md). The SDK's monotonic clock applies the rule of be_config_set_viewability(): a view begins
 * when the fraction reaches the minimum and becomes a viewable impression once it has stayed there for the
 * minimum time, even if no further call comes; dropping below first ends it with nothing counted. A counted view
 * counts nothing more: leaving and coming back begins a new one. Offer objects are told apart, not ids: the same
 * offer in two groups is two views. A viewable impression records one `viewable_impression` event durably (as
 * be_sdk_report_offer_feed_event() does; only with an Engage URL), with the feed positions of a feed's offer,
 * counts in be_stats.viewable_impressions, and fires the offer's impression beacons with
 * BE_IMPRESSION_BEACONS_ON_VIEWABLE. At be_sdk_shutdown() views in progress count nothing. Any thread.
 * @param sdk the SDK; NULL is refused.
 * @param offer the offer on screen, borrowed for the call (the SDK keeps it alive while its view goes on).
 * @param visible_fraction from 0 to 1.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or a fraction outside 0..1 (NaN included); BE_ERR_INVALID_STATE
 *         after shutdown or in a forked child.
 */
be_status be_sdk_report_visibility(be_sdk *sdk, const be_offer *offer, double visible_fraction);

/** @} */

/**
 * @defgroup offers Offers
 * Offers. Every string is borrowed from the offer's owner (response or feed) and stays valid, at the same
 * address, until that owner is freed; NULL when absent or empty, and for a NULL offer. A field is read from the
 * answer's bytes and copied into its C string the first time any thread asks for it: later calls return the
 * same pointer. Any thread, concurrently too.
 *
 * URL fields (the click URL, images, beacons, "useraction_url" ...) read as WHATWG's URL standard serialises them
 * (the `href` a browser opens: `https://Bücher.example/a b` reads `https://xn--bcher-kva.example/a%20b`), nearly
 * always the answer's own text; only absolute http(s) URLs; anything else, and a URL holding a C0 control or a
 * backslash, reads as NULL (SECURITY.md, "URLs").
 * @{
 */

/** The offer's id as a decimal string. Never NULL for a valid offer. */
const char *be_offer_id(const be_offer *offer);
/** Title (the legacy key "name" is accepted on the wire). */
const char *be_offer_title(const be_offer *offer);
/** Description. */
const char *be_offer_description(const be_offer *offer);
/** Main image: the creative marked is_primary, else "image" (legacy "creative_url"). */
const char *be_offer_image_url(const be_offer *offer);
/** The click tracker URL the host opens on the positive CTA. */
const char *be_offer_click_url(const be_offer *offer);
/**
 * The offer's beacons: the impression pixel ("pixel"), the advertiser's pixel ("adv_pixel_url"), and the
 * "beacons" object's "close" and "no_thanks_click". The SDK fires them itself (screens, the wall, feed events,
 * visibility); a host that fires one itself replaces each `{cbuster}` (or `%7Bcbuster%7D`, any case) with a fresh
 * random number first, as the SDK does. Read as every URL field is (see above).
 * @param offer the offer; NULL returns NULL.
 * @return the URL, borrowed from the offer's owner; NULL when absent or not an http(s) URL.
 */
const char *be_offer_pixel_url(const be_offer *offer);
/** The advertiser's impression pixel ("adv_pixel_url"); see be_offer_pixel_url(). */
const char *be_offer_adv_pixel_url(const be_offer *offer);
/** The beacon fired when the user closes the offer ("beacons"."close"); see be_offer_pixel_url(). */
const char *be_offer_close_beacon_url(const be_offer *offer);
/** The beacon fired on the negative CTA ("beacons"."no_thanks_click"); see be_offer_pixel_url(). */
const char *be_offer_no_thanks_beacon_url(const be_offer *offer);
/** Text of the positive CTA button. */
const char *be_offer_cta_yes(const be_offer *offer);
/** Text of the negative CTA button. */
const char *be_offer_cta_no(const be_offer *offer);
/** Terms and conditions as HTML. */
const char *be_offer_terms_html(const be_offer *offer);

/**
 * Any top-level scalar of the offer by its wire name ("advertiser_name", "campaign_id", "is_loyaltyboost"):
 * strings as they are (escapes resolved), booleans as "true"/"false", numbers as sent. A key the offer repeats
 * reads its last occurrence. "title" and "image" fall back to the legacy "name" and "creative_url". URL fields
 * ("click_url", "pixel", "image", ...) read only as absolute http(s) URLs.
 * @param offer the offer; NULL returns NULL.
 * @param key the wire name, UTF-8, compared byte for byte (a key that is not UTF-8 matches nothing).
 * @return the value, borrowed from the offer's owner; NULL for objects, arrays, null, "", an absent key, and
 *         for a NULL key (which also sets the thread's last error).
 */
const char *be_offer_field(const be_offer *offer, const char *key);

/**
 * The whole offer object as JSON text, exactly as received: its own bytes from the answer (member order,
 * spacing, escapes and number spelling kept), copied on the first call.
 * @param offer the offer; NULL returns NULL.
 * @return the text, borrowed from the offer's owner.
 */
const char *be_offer_json(const be_offer *offer);

/** The number of the offer's creatives ("creatives" on the wire); 0 for NULL. */
size_t be_offer_creative_count(const be_offer *offer);
/** The creative at `index`, borrowed from the offer; NULL for NULL or an index out of range. */
const be_creative *be_offer_creative_at(const be_offer *offer, size_t index);
/** The creative's image URL (only an absolute http(s) URL: anything else reads as NULL). Fetch it with be_sdk_fetch_image(). */
const char *be_creative_url(const be_creative *creative);
/** Width in pixels as the service describes it; 0 when absent, not a whole number, or for NULL. */
uint32_t be_creative_width(const be_creative *creative);
/** Height in pixels as the service describes it; 0 when absent, not a whole number, or for NULL. */
uint32_t be_creative_height(const be_creative *creative);
/** The creative's "type" ("image", ...); NULL when absent. */
const char *be_creative_type(const be_creative *creative);
/** Non-zero for the primary creative (the one be_offer_image_url() names); 0 otherwise or for NULL. */
int be_creative_is_primary(const be_creative *creative);

/** @} */

/**
 * @defgroup zoneads Zone ads
 * Zone ads: the legacy one-line FLAG|IMAGE|LINK format, one ad per zone
 * @{
 */

/**
 * Fetches the ad of `zone_id` (copied; percent-encoded into the configured template's "{zone}").
 * @param sdk the SDK.
 * @param zone_id the zone, UTF-8, not empty.
 * @param user_data passed back to the callback untouched.
 * @param callback receives the ad or an error of BE_ZONE_AD_ERROR_DOMAIN, exactly once.
 * @return BE_OK when the callback will run; BE_ERR_INVALID_ARGUMENT for NULL, "" or invalid UTF-8;
 *         BE_ERR_INVALID_STATE without a zone ad URL (be_config_set_zone_ad_url), after shutdown, or
 *         in a start the crash-loop breaker left inert (be_stats.crash_loop_mode 2).
 */
be_status be_sdk_fetch_zone_ad(be_sdk *sdk, const char *zone_id, be_zone_ad_callback callback, void *user_data);
/** Takes one more reference to `ad` and returns it (NULL for NULL). End it with be_zone_ad_release(). */
be_zone_ad *be_zone_ad_retain(be_zone_ad *ad);
/** Ends one reference. NULL does nothing. */
void be_zone_ad_release(be_zone_ad *ad);
/** Non-zero when the ad is to be shown (FLAG 1); 0 when hidden or for NULL. */
int be_zone_ad_is_enabled(const be_zone_ad *ad);
/** The image URL, borrowed from the ad; NULL when absent (a hidden ad may have none). */
const char *be_zone_ad_image_url(const be_zone_ad *ad);
/** The link URL to open on a click, borrowed from the ad; NULL when absent. */
const char *be_zone_ad_link_url(const be_zone_ad *ad);
/**
 * Records a click as a `zone_ad_click` event (durably, as be_sdk_report_offer_feed_event() says), to be called
 * before the host opens the link. Without an Engage URL nothing is recorded (logged at info level) and BE_OK is returned.
 * @return BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE after shutdown.
 */
be_status be_sdk_report_zone_ad_click(be_sdk *sdk, const be_zone_ad *ad);

/** @} */

/**
 * @defgroup images Images
 * Creatives and zone ad images, fetched and cached by the SDK for hosts without an HTTP stack of their own.
 * The bytes are handed over as served: decoding them is the host's business.
 * @{
 */

/**
 * Fetches an image: a creative's URL (be_creative_url(), be_offer_image_url()), a zone ad's
 * (be_zone_ad_image_url()), or any http(s) URL. `url` is copied.
 *
 * Fresh images come from the memory cache, then the disk cache, without a request. A stale one is revalidated
 * with its ETag or Last-Modified, so an unchanged image costs a 304 and no body. The server's Cache-Control
 * decides: `max-age` (else Expires) how long an image is fresh, `no-cache` (or neither header) that every use
 * revalidates, `no-store` that it is kept nowhere. Concurrent fetches of one URL share one request. Redirects
 * are followed (at most 5, http(s) only, never from https to http). Images have connections of their own, so a
 * slow image host never holds up a fetch of offers.
 * @param sdk the SDK.
 * @param url the image URL, UTF-8.
 * @param callback receives the image or an error of BE_IMAGE_ERROR_DOMAIN (an invalid URL included), or of
 *        BE_CANCELLED_ERROR_DOMAIN at shutdown, exactly once.
 * @param user_data passed back to the callback untouched.
 * @return BE_OK when the callback will run; BE_ERR_INVALID_ARGUMENT for NULL or invalid UTF-8;
 *         BE_ERR_INVALID_STATE after shutdown or in a start the crash-loop breaker left inert
 *         (be_stats.crash_loop_mode 2). Any thread.
 */
be_status be_sdk_fetch_image(be_sdk *sdk, const char *url, be_image_callback callback, void *user_data);
/** Takes one more reference to `image` and returns it (NULL for NULL). End it with be_image_release(). Any thread. */
be_image *be_image_retain(be_image *image);
/** Ends one reference. NULL does nothing. Any thread. */
void be_image_release(be_image *image);
/** The image's bytes as served, borrowed from the image (be_image_size() of them); NULL for NULL. */
const void *be_image_data(const be_image *image);
/** The number of bytes at be_image_data(); 0 for NULL. */
size_t be_image_size(const be_image *image);
/** The Content-Type the server sent ("image/png", parameters included), borrowed from the image; NULL for NULL. */
const char *be_image_content_type(const be_image *image);
/** Non-zero when the SDK's cache answered (from memory, from disk, or confirmed by a 304); 0 otherwise or for NULL. */
int be_image_is_from_cache(const be_image *image);

/** @} */

/**
 * @defgroup storage Storage inspection
 * @{
 */

/** What a storage directory holds (be_storage_inspect()). Grows at its end; set `struct_size` first. */
typedef struct be_storage_info {
    uint32_t struct_size;       /**< set by the caller to sizeof(be_storage_info) */
    uint64_t beacons_queued;    /**< beacons waiting for delivery */
    uint64_t events_queued;     /**< feed and zone ad events waiting for delivery */
    uint64_t oldest_item_age_s; /**< seconds since the oldest waiting item was reported; 0 with none */
    uint64_t database_bytes;    /**< blinkengage.db with its write-ahead log */
    uint64_t image_cache_bytes; /**< the disk cache of images */
    uint64_t image_cache_files; /**< images in it */
    int has_identity;           /**< non-zero when a user identity is stored */
} be_storage_info;

/**
 * Reads what the storage of `api_key` under `storage_dir` holds, without starting an SDK and without changing
 * anything (the database is opened read-only; nothing is created, delivered or deleted). Safe while an SDK,
 * in this or another process, uses the directory.
 * @param storage_dir the root given to be_config_set_storage_dir().
 * @param api_key the API key whose storage to read.
 * @param[out] out_info filled up to its `struct_size`.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL, invalid UTF-8 or an unset struct_size; BE_ERR_NOT_FOUND when
 *         there is no storage for the key there; BE_ERR_IO when the database cannot be read. Any thread.
 */
be_status be_storage_inspect(const char *storage_dir, const char *api_key, be_storage_info *out_info);

/** @} */

/**
 * @defgroup transport Host-supplied transport
 * The request a be_http_send_fn receives, and how the host answers it. Every getter borrows from the request:
 * the pointers stay valid until the host completes or fails it. Getters answer NULL or 0 for a request that
 * was already answered. Any thread.
 * @{
 */

/** "GET" or "POST". */
const char *be_http_request_method(const be_http_request *request);
/** The absolute http(s) URL, query included. */
const char *be_http_request_url(const be_http_request *request);
/** The number of request headers to send (User-Agent, Accept, Content-Type, Authorization, ...). */
size_t be_http_request_header_count(const be_http_request *request);
/** The name of header `index`; NULL out of range. Names and values never hold CR, LF or NUL. */
const char *be_http_request_header_name(const be_http_request *request, size_t index);
/** The value of header `index`; NULL out of range. */
const char *be_http_request_header_value(const be_http_request *request, size_t index);
/** The body to send (a POST's); NULL when there is none. */
const void *be_http_request_body(const be_http_request *request);
/** The size of the body in bytes; 0 when there is none. */
size_t be_http_request_body_size(const be_http_request *request);
/** How long the SDK waits for the answer, in milliseconds (the host may give up sooner and fail it). */
uint32_t be_http_request_timeout_ms(const be_http_request *request);

/** The most header lines be_http_request_complete() takes. */
#define BE_HTTP_MAX_HEADER_LINES 1000
/** The longest header line be_http_request_complete() takes, in bytes without its NUL. */
#define BE_HTTP_MAX_HEADER_LINE_BYTES 16384
/** The largest body be_http_request_complete() takes: no request of the SDK accepts more (images take 10 MiB,
 *  service answers 8 MiB, zone ads 64 KiB). */
#define BE_HTTP_MAX_BODY_BYTES 10485760

/**
 * Answers a request with the server's final answer (after any redirects, with a decoded body). Ends the
 * request: its pointers are invalid afterwards. From any thread, at any time: after the SDK's timeout or after
 * be_sdk_shutdown() the answer is accepted and ignored.
 *
 * Counts and sizes are checked before a byte is read. A body within BE_HTTP_MAX_BODY_BYTES but over what this
 * request accepts ends the request as too large (its operation fails with its "too large" error) and is not
 * copied; an accepted body is copied once.
 * @param request the request.
 * @param status the HTTP status, 100..599.
 * @param header_lines the answer's header lines, "Name: value" each (copied): a token, a colon, then a value without
 *        control characters but the tab (no CR, LF or DEL); NULL when `header_count` is 0.
 * @param header_count the number of header lines, at most BE_HTTP_MAX_HEADER_LINES.
 * @param body the body (copied); NULL when `body_size` is 0.
 * @param body_size its size in bytes, at most BE_HTTP_MAX_BODY_BYTES.
 * @return BE_OK; BE_ERR_INVALID_STATE when the request was already completed or failed (nothing changes);
 *         BE_ERR_INVALID_ARGUMENT for NULL, a status outside 100..599, NULL lines or body with a non-zero
 *         count, more than BE_HTTP_MAX_HEADER_LINES lines, a line longer than BE_HTTP_MAX_HEADER_LINE_BYTES, a
 *         line that is not "token: value" or holds a control character, or a body over BE_HTTP_MAX_BODY_BYTES (the
 *         request stays open for a correct answer or be_http_request_fail(); be_last_error_message() says which
 *         rule, naming the cap).
 */
be_status be_http_request_complete(be_http_request *request, int status, const char *const *header_lines,
                                   size_t header_count, const void *body, size_t body_size);

/**
 * Ends a request without an answer (DNS, connect, TLS, timeout, offline): the SDK treats it as a network
 * error and retries where its rules say so. Same threads and timing as be_http_request_complete().
 * @param request the request.
 * @param message why, for the log and the error message (copied); NULL for none.
 * @return BE_OK; BE_ERR_INVALID_STATE when the request was already completed or failed;
 *         BE_ERR_INVALID_ARGUMENT for NULL.
 */
be_status be_http_request_fail(be_http_request *request, const char *message);

/** @} */

/**
 * @defgroup diagnostics Diagnostics
 * Diagnostics
 * @{
 */

/** Counters since be_sdk_start(). Set struct_size before the call: the struct may grow at its end. */
typedef struct be_stats {
    uint32_t struct_size;       /**< set by the caller to sizeof(be_stats) */
    uint64_t requests_sent;     /**< HTTP requests started (fetches, beacons, event batches, ...) */
    uint64_t beacons_queued;    /**< beacons reported since start */
    uint64_t beacons_delivered; /**< beacons the server accepted */
    uint64_t beacons_dropped;   /**< beacons dropped by rule (see the dropped_* reasons) */
    uint64_t events_queued;     /**< feed and zone ad events reported since start */
    uint64_t events_delivered;  /**< events the server accepted */
    uint64_t events_dropped;    /**< events dropped by rule */
    uint64_t dropped_rejected;  /**< refused by the server (4xx other than 401, 408, 429) */
    uint64_t dropped_expired;   /**< older than the maximum age */
    uint64_t dropped_overflow;  /**< oldest items pushed out by the queue cap */
    uint64_t corrupt_records;   /**< unreadable rows deleted, damaged databases moved aside, damaged journal ends */
    uint64_t queue_depth;       /**< items waiting for delivery */
    uint64_t dropped_privacy;   /**< withheld for privacy (advertiser pixels under COPPA or limited tracking)
                                     or erased by be_sdk_delete_user_data() */
    uint64_t prefetch_hits;     /**< fetches answered from a prefetched answer */
    uint64_t image_requests;    /**< image requests sent (revalidations included; counted in requests_sent too) */
    uint64_t image_memory_hits; /**< image fetches answered from the memory cache */
    uint64_t image_disk_hits;   /**< image fetches answered from the disk cache */
    uint64_t image_revalidations; /**< image fetches answered by a 304 for a cached image */
    uint64_t image_shared;      /**< image fetches that joined one already in flight for the same URL */
    uint64_t viewable_impressions; /**< views counted as viewable impressions (be_sdk_report_visibility()) */
    uint64_t crash_loop_mode;   /**< 0: a normal start; 1: safe mode, the last 3 starts having stopped while reading
                                     stored or remote data (stored data moved aside into quarantine/ in the
                                     storage directory, kept, and its reports brought back at the next normal
                                     start); 2: inert, safe mode having stopped too (fetches fail with
                                     BE_ERR_INVALID_STATE, reports stay in memory; the next start tries safe
                                     mode again). The log handler says so too. */
    uint64_t storage_refused;   /**< entries refused in the storage directory since start: a symbolic link, FIFO,
                                     socket or multiply linked file where the SDK expects a file or folder of its
                                     own (the database and its -wal/-shm/-journal, the lock files, images/) is
                                     moved aside as NAME.refused-MILLISECONDS (image entries are removed), logged,
                                     and never written through */
    uint64_t storage_format_held; /**< the storage format found at start when it is newer than this library's (a
                                     downgrade): the directory is left untouched, its queued reports wait for a
                                     newer library, and this start keeps tracking in memory; 0 otherwise */
    uint64_t reports_migrated;  /**< queued reports carried at start from an earlier release's storage format, or
                                     read back from a damaged database before it was moved aside */
    uint64_t reports_unrecoverable; /**< queued reports of an earlier format or of a damaged database that could
                                     not be read (for a damaged database an upper bound: a row id in an unreadable
                                     part counts, delivered or not) */
    uint64_t feed_events_refused; /**< feed events reported that could not be recorded (after shutdown, NULL, a full
                                     disk); each is logged as a warning too */
} be_stats;

/**
 * Fills `out_stats` up to its `struct_size` (a smaller, older struct gets only the fields it has).
 * @return BE_ERR_INVALID_ARGUMENT for NULL or a struct_size smaller than the first field;
 *         BE_ERR_INVALID_STATE after shutdown.
 */
be_status be_sdk_get_stats(be_sdk *sdk, be_stats *out_stats);

/**
 * The flight recorder: the last `max_entries` things the SDK did and why, in memory. Each request (method, URL,
 * status, bytes, and its timings in milliseconds: queue, DNS, connect, TLS, wait for the first byte, receive,
 * total) and each decision (an answer from a prefetch or the image cache, an image revalidated, an advertiser
 * pixel withheld by the user's privacy choices, a report dropped and why, a retry scheduled with its delay, an
 * offer field refused and why, safe mode). With a storage directory each entry is also appended to
 * `recorder.jsonl` there (at most 512 KiB, one older generation kept as `recorder.jsonl.1`), which
 * `blinkengage inspect` follows. No secret is recorded: no header and no body, and the values of query
 * parameters that carry the API key, tokens or identifiers read "REDACTED". Default: 256 entries in development
 * mode (be_config_set_development()), off otherwise.
 * @param config the configuration; NULL is refused.
 * @param max_entries 0 turns the recorder off; at most 100000.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or more than 100000 (the configuration is then unchanged).
 */
be_status be_config_set_recorder(be_config *config, uint32_t max_entries);

/**
 * A snapshot of the flight recorder: one JSON object per line, oldest first (see be_config_set_recorder()).
 * Any thread.
 * @param sdk the SDK; NULL is refused.
 * @param[out] out_text set to the text, which the caller owns and frees with be_string_free(); NULL on failure.
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL; BE_ERR_INVALID_STATE when the recorder is off, after
 *         shutdown, or in a forked child.
 */
be_status be_sdk_recorder_json(be_sdk *sdk, char **out_text);

/**
 * Makes a HAR 1.2 document (which browsers' developer tools open) of flight recorder lines: those of
 * be_sdk_recorder_json() or of a `recorder.jsonl` file. One entry per request, with its timings; the decisions
 * in the log's `_decisions`. Lines that are not the recorder's are skipped. Needs no SDK; any thread.
 * @param json_lines the recorder's lines (UTF-8); NULL is refused.
 * @param[out] out_har set to the document, which the caller owns and frees with be_string_free().
 * @return BE_OK; BE_ERR_INVALID_ARGUMENT for NULL or text that is not UTF-8.
 */
be_status be_recorder_har(const char *json_lines, char **out_har);

/** Frees a string the library handed over (be_sdk_recorder_json(), be_recorder_har()). NULL does nothing. */
void be_string_free(char *text);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* BLINKENGAGE_H */
