/*
 * The JNI shim under com.blinkengage: every native method of Native.java, each a translation of one or two
 * functions of blinkengage.h.
 *
 * Rules, the same everywhere:
 *  - Strings cross as NUL-terminated UTF-8 byte[] both ways (Java's encoder is the strict one; JNI's "modified
 *    UTF-8" would mangle characters outside the BMP).
 *  - Handles cross as jlong. Owned handles are freed only from Java's NativeResource, which defers the free until
 *    no call is using the handle.
 *  - Class and method ids are cached as global references in JNI_OnLoad; nothing is looked up on a callback.
 *  - A callback from a native thread attaches it once, as a daemon, and detaches it when the thread exits (a
 *    pthread key's destructor); every callback runs in its own local frame, so a thread that delivers for
 *    hours never fills its local reference table.
 *  - Every call into Java is followed by an exception check: the Java side already catches what listeners throw
 *    (Callbacks.java), and anything left is described and cleared here, never left pending across native code.
 */
#define _GNU_SOURCE /* pthread_getname_np */
#include <errno.h>
#include <jni.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "blinkengage.h"

#define PTR(type, value) ((type *)(intptr_t)(value))
#define JL(pointer) ((jlong)(intptr_t)(pointer))

static JavaVM *java_vm;
static jclass callbacks_class;
static jmethodID deliver_moments, deliver_feed, deliver_zone_ad, deliver_image, deliver_log, deliver_send;
static pthread_key_t attached_key;
static atomic_long global_refs;

/* -- references, threads, strings -------------------------------------------------------------------------- */

static jobject global(JNIEnv *env, jobject object) {
    jobject ref = (*env)->NewGlobalRef(env, object);
    if (ref) atomic_fetch_add(&global_refs, 1);
    return ref;
}

static void drop_global(JNIEnv *env, jobject ref) {
    if (!ref) return;
    (*env)->DeleteGlobalRef(env, ref);
    atomic_fetch_sub(&global_refs, 1);
}

static void detach_at_exit(void *unused) {
    (void)unused;
    (*java_vm)->DetachCurrentThread(java_vm);
}

/* The calling thread's environment: Java threads have one; an SDK thread is attached once, as a daemon so it
 * never keeps the JVM from exiting, and detached by attached_key's destructor when it ends. */
static JNIEnv *environment(void) {
    JNIEnv *env = NULL;
    jint got = (*java_vm)->GetEnv(java_vm, (void **)&env, JNI_VERSION_1_8);
    if (got == JNI_OK) return env;
    if (got != JNI_EDETACHED) return NULL;
    /* Java sees the thread by the name the library gave it (be-callbacks, be-transport ...), as every other
     * language and the operating system do. */
    char name[16] = "blinkengage";
    pthread_getname_np(pthread_self(), name, sizeof name);
    JavaVMAttachArgs args = {JNI_VERSION_1_8, name, NULL};
    if ((*java_vm)->AttachCurrentThreadAsDaemon(java_vm, (void **)&env, &args) != JNI_OK) return NULL;
    pthread_setspecific(attached_key, env);
    return env;
}

/* A borrowed C string as a new byte[] without its NUL; NULL for NULL. */
static jbyteArray bytes_of(JNIEnv *env, const char *text) {
    if (!text) return NULL;
    jsize length = (jsize)strlen(text);
    jbyteArray array = (*env)->NewByteArray(env, length);
    if (array) (*env)->SetByteArrayRegion(env, array, 0, length, (const jbyte *)text);
    return array;
}

/* A Java byte[] (NUL-terminated by the Java side) as a C string for the length of one call. */
typedef struct { jbyteArray array; jbyte *bytes; } text;

static text text_of(JNIEnv *env, jbyteArray array) {
    text t = {array, NULL};
    if (array) t.bytes = (*env)->GetByteArrayElements(env, array, NULL);
    return t;
}

static void text_done(JNIEnv *env, text t) {
    if (t.bytes) (*env)->ReleaseByteArrayElements(env, t.array, t.bytes, JNI_ABORT);
}

#define CSTR(t) ((const char *)(t).bytes)

/* Clears what a call into Java left pending, after describing it on stderr. */
static void settle(JNIEnv *env) {
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionDescribe(env);
        (*env)->ExceptionClear(env);
    }
}

/* -- callbacks ----------------------------------------------------------------------------------------------- */

/* One result callback: the target (a global reference made by the call that started it) gets the borrowed
 * result and the error, then the reference is dropped: exactly once, as the header promises the callback. */
static void deliver(jmethodID method, void *result, const be_error *error, void *user_data) {
    JNIEnv *env = environment();
    if (!env) return;
    if ((*env)->PushLocalFrame(env, 8) == 0) {
        jbyteArray domain = error ? bytes_of(env, error->domain) : NULL;
        jbyteArray message = error ? bytes_of(env, error->message) : NULL;
        (*env)->CallStaticVoidMethod(env, callbacks_class, method, (jobject)user_data, JL(result), domain,
                                     error ? error->code : 0, message, error ? error->http_status : 0);
        settle(env);
        (*env)->PopLocalFrame(env, NULL);
    }
    settle(env);
    drop_global(env, (jobject)user_data);
}

static void on_moments(be_moments_response *response, const be_error *error, void *user_data) {
    deliver(deliver_moments, response, error, user_data);
}
static void on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    deliver(deliver_feed, feed, error, user_data);
}
static void on_zone_ad(be_zone_ad *ad, const be_error *error, void *user_data) {
    deliver(deliver_zone_ad, ad, error, user_data);
}
static void on_image(be_image *image, const be_error *error, void *user_data) {
    deliver(deliver_image, image, error, user_data);
}

/* A log handler or transport, shared by a configuration and every SDK started from it: the global reference
 * goes when the last of them lets go. */
typedef struct { jobject target; atomic_int references; } anchor;

static anchor *anchor_new(JNIEnv *env, jobject target) {
    anchor *a = malloc(sizeof *a);
    if (!a) return NULL;
    a->target = global(env, target);
    atomic_init(&a->references, 1);
    return a;
}

static anchor *anchor_retain(anchor *a) {
    if (a) atomic_fetch_add(&a->references, 1);
    return a;
}

static void anchor_release(JNIEnv *env, anchor *a) {
    if (a && atomic_fetch_sub(&a->references, 1) == 1) {
        drop_global(env, a->target);
        free(a);
    }
}

static void on_log(be_log_level level, const char *message, void *user_data) {
    JNIEnv *env = environment();
    if (!env || (*env)->PushLocalFrame(env, 4) != 0) return;
    (*env)->CallStaticVoidMethod(env, callbacks_class, deliver_log, ((anchor *)user_data)->target, (jint)level,
                                 bytes_of(env, message));
    settle(env);
    (*env)->PopLocalFrame(env, NULL);
}

static void on_send(be_http_request *request, void *user_data) {
    JNIEnv *env = environment();
    if (!env) {
        be_http_request_fail(request, "the JVM could not take this thread");
        return;
    }
    if ((*env)->PushLocalFrame(env, 4) != 0) {
        settle(env);
        be_http_request_fail(request, "out of local references");
        return;
    }
    (*env)->CallStaticVoidMethod(env, callbacks_class, deliver_send, ((anchor *)user_data)->target, JL(request));
    settle(env);
    (*env)->PopLocalFrame(env, NULL);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    java_vm = vm;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    if (pthread_key_create(&attached_key, detach_at_exit) != 0) return JNI_ERR;
    jclass found = (*env)->FindClass(env, "com/blinkengage/Callbacks");
    if (!found) return JNI_ERR;
    callbacks_class = (*env)->NewGlobalRef(env, found);
    (*env)->DeleteLocalRef(env, found);
    const char *result = "(Ljava/lang/Object;J[BI[BI)V";
    deliver_moments = (*env)->GetStaticMethodID(env, callbacks_class, "deliverMoments", result);
    deliver_feed = (*env)->GetStaticMethodID(env, callbacks_class, "deliverFeed", result);
    deliver_zone_ad = (*env)->GetStaticMethodID(env, callbacks_class, "deliverZoneAd", result);
    deliver_image = (*env)->GetStaticMethodID(env, callbacks_class, "deliverImage", result);
    deliver_log = (*env)->GetStaticMethodID(env, callbacks_class, "log", "(Ljava/lang/Object;I[B)V");
    deliver_send = (*env)->GetStaticMethodID(env, callbacks_class, "send", "(Ljava/lang/Object;J)V");
    if (!callbacks_class || !deliver_moments || !deliver_feed || !deliver_zone_ad || !deliver_image || !deliver_log ||
        !deliver_send)
        return JNI_ERR;
    return JNI_VERSION_1_8;
}

#define JNI(ret, name, ...) JNIEXPORT ret JNICALL Java_com_blinkengage_Native_##name(JNIEnv *env, jclass cls, __VA_ARGS__)
#define JNI0(ret, name) JNIEXPORT ret JNICALL Java_com_blinkengage_Native_##name(JNIEnv *env, jclass cls)
#define UNUSED (void)env; (void)cls

/* -- library ------------------------------------------------------------------------------------------------- */

JNI0(jbyteArray, version) { (void)cls; return bytes_of(env, be_version()); }
JNI(jbyteArray, statusString, jint status) { (void)cls; return bytes_of(env, be_status_string((be_status)status)); }
JNI0(jbyteArray, lastErrorMessage) { (void)cls; return bytes_of(env, be_last_error_message()); }
JNI0(jlong, globalReferences) { UNUSED; return atomic_load(&global_refs); }

/* -- configuration ------------------------------------------------------------------------------------------- */

typedef struct { be_config *config; anchor *log, *transport; } jconfig;
typedef struct { be_sdk *sdk; anchor *log, *transport; uint32_t shutdown_timeout_ms; } jsdk;

JNI(jlong, configNew, jbyteArray api_key) {
    (void)cls;
    text key = text_of(env, api_key);
    be_config *config = be_config_new(CSTR(key));
    text_done(env, key);
    if (!config) return 0;
    jconfig *c = calloc(1, sizeof *c);
    if (!c) { be_config_free(config); return 0; }
    c->config = config;
    return JL(c);
}

JNI(void, configFree, jlong handle) {
    (void)cls;
    jconfig *c = PTR(jconfig, handle);
    if (!c) return;
    be_config_free(c->config);
    anchor_release(env, c->log);
    anchor_release(env, c->transport);
    free(c);
}

enum { URL_MOMENTS, URL_ENGAGE, URL_ZONE_AD, STORAGE_DIR, USER_AGENT, PROXY, CA_FILE, PINS };

JNI(jint, configSetString, jlong handle, jint option, jbyteArray value) {
    (void)cls;
    be_config *config = PTR(jconfig, handle)->config;
    text v = text_of(env, value);
    be_status status = BE_ERR_INVALID_ARGUMENT;
    switch (option) {
    case URL_MOMENTS: status = be_config_set_moments_url(config, CSTR(v)); break;
    case URL_ENGAGE: status = be_config_set_engage_url(config, CSTR(v)); break;
    case URL_ZONE_AD: status = be_config_set_zone_ad_url(config, CSTR(v)); break;
    case STORAGE_DIR: status = be_config_set_storage_dir(config, CSTR(v)); break;
    case USER_AGENT: status = be_config_set_user_agent(config, CSTR(v)); break;
    case PROXY: status = be_config_set_proxy(config, CSTR(v)); break;
    case CA_FILE: status = be_config_set_ca_file(config, CSTR(v)); break;
    case PINS: status = be_config_set_pinned_public_key(config, CSTR(v)); break;
    }
    text_done(env, v);
    return status;
}

enum { TIMEOUT_MS, DEVELOPMENT, CALLBACK_MODE, FETCH_IO, OUTBOX_LIMITS, FEED_CACHE, PREFETCH_TTL, IMAGE_CACHE, IMPRESSION_BEACONS, RECORDER, WARM_UP };

/* Numbers arrive as jlong and are range-checked here: a negative or oversized value is refused, not wrapped. */
JNI(jint, configSetNumbers, jlong handle, jint option, jlong a, jlong b) {
    UNUSED;
    be_config *config = PTR(jconfig, handle)->config;
    int fits32 = a >= 0 && a <= (jlong)UINT32_MAX && b >= 0 && b <= (jlong)UINT32_MAX;
    if (!fits32 && option != IMAGE_CACHE) return BE_ERR_INVALID_ARGUMENT;
    if (a < 0 || b < 0) return BE_ERR_INVALID_ARGUMENT;
    switch (option) {
    case TIMEOUT_MS: return be_config_set_timeout_ms(config, (uint32_t)a);
    case DEVELOPMENT: return be_config_set_development(config, (int)a);
    case CALLBACK_MODE: return be_config_set_callback_mode(config, (be_callback_mode)a);
    case FETCH_IO: return be_config_set_fetch_io(config, (be_fetch_io)a);
    case OUTBOX_LIMITS: return be_config_set_outbox_limits(config, (uint32_t)a, (uint32_t)b);
    case FEED_CACHE: return be_config_set_feed_cache(config, (uint32_t)a);
    case PREFETCH_TTL: return be_config_set_prefetch_ttl_s(config, (uint32_t)a);
    case IMAGE_CACHE: return be_config_set_image_cache(config, (uint64_t)a, (uint64_t)b);
    case IMPRESSION_BEACONS: return be_config_set_impression_beacons(config, (be_impression_beacons)a);
    case RECORDER: return be_config_set_recorder(config, (uint32_t)a);
    case WARM_UP: return be_config_set_warm_up_at_start(config, a != 0);
    }
    return BE_ERR_INVALID_ARGUMENT;
}

/* A fraction and milliseconds: the one setting with a double. */
JNI(jint, configSetViewability, jlong handle, jdouble min_fraction, jlong min_ms) {
    UNUSED;
    if (min_ms < 0 || min_ms > (jlong)UINT32_MAX) return BE_ERR_INVALID_ARGUMENT;
    return be_config_set_viewability(PTR(jconfig, handle)->config, min_fraction, (uint32_t)min_ms);
}

JNI(jint, configSetLogHandler, jlong handle, jobject handler, jint min_level) {
    (void)cls;
    jconfig *c = PTR(jconfig, handle);
    anchor *a = handler ? anchor_new(env, handler) : NULL;
    if (handler && !a) return BE_ERR_NO_MEMORY;
    be_status status = be_config_set_log_handler(c->config, a ? on_log : NULL, (be_log_level)min_level, a);
    if (status != BE_OK) { anchor_release(env, a); return status; }
    anchor_release(env, c->log);
    c->log = a;
    return BE_OK;
}

JNI(jint, configSetTransport, jlong handle, jobject transport) {
    (void)cls;
    jconfig *c = PTR(jconfig, handle);
    anchor *a = transport ? anchor_new(env, transport) : NULL;
    if (transport && !a) return BE_ERR_NO_MEMORY;
    be_status status = be_config_set_http_transport(c->config, a ? on_send : NULL, a);
    if (status != BE_OK) { anchor_release(env, a); return status; }
    anchor_release(env, c->transport);
    c->transport = a;
    return BE_OK;
}

/* -- lifecycle ----------------------------------------------------------------------------------------------- */

/* 0 on failure, with be_last_error_message() saying why and *status the status (out[0]). */
JNI(jlong, sdkStart, jlong config_handle, jintArray out_status) {
    (void)cls;
    jconfig *c = PTR(jconfig, config_handle);
    jsdk *s = calloc(1, sizeof *s);
    jint status = s ? be_sdk_start(c->config, &s->sdk) : BE_ERR_NO_MEMORY;
    (*env)->SetIntArrayRegion(env, out_status, 0, 1, &status);
    if (status != BE_OK) { free(s); return 0; }
    s->log = anchor_retain(c->log);
    s->transport = anchor_retain(c->transport);
    s->shutdown_timeout_ms = 2000;
    return JL(s);
}

JNI(void, sdkSetShutdownTimeout, jlong handle, jint timeout_ms) {
    UNUSED;
    PTR(jsdk, handle)->shutdown_timeout_ms = timeout_ms < 0 ? 0 : (uint32_t)timeout_ms;
}

JNI(void, sdkShutdown, jlong handle) {
    (void)cls;
    jsdk *s = PTR(jsdk, handle);
    if (!s) return;
    be_sdk_shutdown(s->sdk, s->shutdown_timeout_ms);
    anchor_release(env, s->log);
    anchor_release(env, s->transport);
    free(s);
}

#define SDK(h) (PTR(jsdk, h)->sdk)

JNI(jint, sdkSetUserIdentity, jlong handle, jbyteArray id) {
    (void)cls;
    text t = text_of(env, id);
    be_status status = be_sdk_set_user_identity(SDK(handle), CSTR(t));
    text_done(env, t);
    return status;
}
JNI(jint, sdkClearUserIdentity, jlong handle) { UNUSED; return be_sdk_clear_user_identity(SDK(handle)); }
JNI(jint, sdkDispatch, jlong handle, jint max) { UNUSED; return be_sdk_dispatch(SDK(handle), max); }
JNI(jint, sdkDispatchFd, jlong handle) { UNUSED; return be_sdk_dispatch_fd(SDK(handle)); }
/* Waits until the dispatch descriptor is readable, at most timeout_ms: 1 readable, 0 not, -1 in the other mode.
 * Not a function of the header: the wait a loop of the host's would make with poll(2), for hosts without one. */
JNI(jint, sdkAwaitDispatch, jlong handle, jint timeout_ms) {
    UNUSED;
    struct pollfd ready = {be_sdk_dispatch_fd(SDK(handle)), POLLIN, 0};
    if (ready.fd < 0) return -1;
    int got;
    do got = poll(&ready, 1, timeout_ms); while (got < 0 && errno == EINTR);
    return got > 0;
}

JNI(jint, sdkFlush, jlong handle, jint timeout_ms) {
    UNUSED;
    return be_sdk_flush(SDK(handle), timeout_ms < 0 ? 0 : (uint32_t)timeout_ms);
}

/* -- privacy ------------------------------------------------------------------------------------------------- */

JNI(jint, sdkSetGdpr, jlong handle, jint applies, jbyteArray tcf) {
    (void)cls;
    text t = text_of(env, tcf);
    be_status status = be_sdk_set_gdpr(SDK(handle), applies, CSTR(t));
    text_done(env, t);
    return status;
}
JNI(jint, sdkSetUsPrivacy, jlong handle, jbyteArray value) {
    (void)cls;
    text t = text_of(env, value);
    be_status status = be_sdk_set_us_privacy(SDK(handle), CSTR(t));
    text_done(env, t);
    return status;
}
JNI(jint, sdkSetGpp, jlong handle, jbyteArray gpp, jbyteArray sections) {
    (void)cls;
    text g = text_of(env, gpp), s = text_of(env, sections);
    be_status status = be_sdk_set_gpp(SDK(handle), CSTR(g), CSTR(s));
    text_done(env, g);
    text_done(env, s);
    return status;
}
JNI(jint, sdkSetChildDirected, jlong handle, jint value) { UNUSED; return be_sdk_set_child_directed(SDK(handle), value); }
JNI(jint, sdkSetLimitTracking, jlong handle, jint value) { UNUSED; return be_sdk_set_limit_tracking(SDK(handle), value); }
JNI(jint, sdkDeleteUserData, jlong handle) { UNUSED; return be_sdk_delete_user_data(SDK(handle)); }

/* -- calls with callbacks: the target is a global reference until the callback has run ----------------------- */

#define START_CALL(call)                                                                                       \
    jobject ref = global(env, target);                                                                         \
    if (!ref) return BE_ERR_NO_MEMORY;                                                                         \
    be_status status = (call);                                                                                 \
    if (status != BE_OK) drop_global(env, ref);                                                                \
    return status

JNI(jint, sdkFetchMoments, jlong handle, jlong request, jobject target) {
    (void)cls;
    START_CALL(be_sdk_fetch_moments_offers(SDK(handle), PTR(be_moments_request, request), on_moments, ref));
}
JNI(jint, sdkLoadFeed, jlong handle, jobject target) {
    (void)cls;
    START_CALL(be_sdk_load_offer_feed(SDK(handle), on_feed, ref));
}
JNI(jint, sdkFetchZoneAd, jlong handle, jbyteArray zone, jobject target) {
    (void)cls;
    text z = text_of(env, zone);
    jobject ref = global(env, target);
    be_status status = ref ? be_sdk_fetch_zone_ad(SDK(handle), CSTR(z), on_zone_ad, ref) : BE_ERR_NO_MEMORY;
    if (status != BE_OK) drop_global(env, ref);
    text_done(env, z);
    return status;
}
JNI(jint, sdkFetchImage, jlong handle, jbyteArray url, jobject target) {
    (void)cls;
    text u = text_of(env, url);
    jobject ref = global(env, target);
    be_status status = ref ? be_sdk_fetch_image(SDK(handle), CSTR(u), on_image, ref) : BE_ERR_NO_MEMORY;
    if (status != BE_OK) drop_global(env, ref);
    text_done(env, u);
    return status;
}
JNI(jint, sdkPrefetch, jlong handle, jlong request) {
    UNUSED;
    return be_sdk_prefetch_moments_offers(SDK(handle), PTR(be_moments_request, request));
}
JNI(jint, sdkReportFeedEvent, jlong handle, jlong event) {
    UNUSED;
    return be_sdk_report_offer_feed_event(SDK(handle), PTR(be_offer_feed_event, event));
}
JNI(jint, sdkReportVisibility, jlong handle, jlong offer, jdouble fraction) {
    UNUSED;
    return be_sdk_report_visibility(SDK(handle), PTR(be_offer, offer), fraction);
}
/* A string the library hands over, into out[0] as byte[], then freed. */
static jint handed_over(JNIEnv *env, be_status status, char *owned, jobjectArray out) {
    if (status == BE_OK) {
        jbyteArray bytes = bytes_of(env, owned);
        if (!bytes) status = BE_ERR_NO_MEMORY;
        else (*env)->SetObjectArrayElement(env, out, 0, bytes);
    }
    be_string_free(owned);
    return status;
}
JNI(jint, sdkRecorderJson, jlong handle, jobjectArray out) {
    (void)cls;
    char *owned = NULL;
    return handed_over(env, be_sdk_recorder_json(SDK(handle), &owned), owned, out);
}
JNI(jint, recorderHar, jbyteArray lines, jobjectArray out) {
    (void)cls;
    char *owned = NULL;
    text l = text_of(env, lines);
    be_status status = be_recorder_har(CSTR(l), &owned);
    text_done(env, l);
    return handed_over(env, status, owned, out);
}
JNI(jint, sdkWarmUp, jlong handle) {
    UNUSED;
    return be_sdk_warm_up(SDK(handle));
}
JNI(jint, sdkReportZoneAdClick, jlong handle, jlong ad) {
    UNUSED;
    return be_sdk_report_zone_ad_click(SDK(handle), PTR(be_zone_ad, ad));
}
JNI(jlong, sdkOfferDetailsScreen, jlong handle, jlong offer) {
    UNUSED;
    return JL(be_sdk_offer_details_screen(SDK(handle), PTR(be_offer, offer)));
}
JNI(jlong, sdkOfferGroupScreen, jlong handle, jlong group) {
    UNUSED;
    return JL(be_sdk_offer_group_screen(SDK(handle), PTR(be_offer_group, group)));
}
JNI(jlong, sdkOfferWall, jlong handle) {
    UNUSED;
    return JL(be_sdk_offer_wall(SDK(handle)));
}
JNI(jlong, sdkMomentsScreen, jlong handle, jlong response) {
    UNUSED;
    return JL(be_sdk_moments_screen(SDK(handle), PTR(be_moments_response, response)));
}

/* Counters into out[], in be_stats' order after struct_size. */
JNI(jint, sdkGetStats, jlong handle, jlongArray out) {
    (void)cls;
    be_stats stats = {.struct_size = sizeof stats};
    be_status status = be_sdk_get_stats(SDK(handle), &stats);
    if (status != BE_OK) return status;
    jlong values[] = {
        (jlong)stats.requests_sent, (jlong)stats.beacons_queued, (jlong)stats.beacons_delivered,
        (jlong)stats.beacons_dropped, (jlong)stats.events_queued, (jlong)stats.events_delivered,
        (jlong)stats.events_dropped, (jlong)stats.dropped_rejected, (jlong)stats.dropped_expired,
        (jlong)stats.dropped_overflow, (jlong)stats.corrupt_records, (jlong)stats.queue_depth,
        (jlong)stats.dropped_privacy, (jlong)stats.prefetch_hits, (jlong)stats.image_requests,
        (jlong)stats.image_memory_hits, (jlong)stats.image_disk_hits, (jlong)stats.image_revalidations,
        (jlong)stats.image_shared, (jlong)stats.viewable_impressions, (jlong)stats.crash_loop_mode,
        (jlong)stats.storage_refused, (jlong)stats.storage_format_held, (jlong)stats.reports_migrated,
        (jlong)stats.reports_unrecoverable, (jlong)stats.feed_events_refused,
    };
    if ((*env)->GetArrayLength(env, out) < (jsize)(sizeof values / sizeof *values)) return BE_ERR_INVALID_ARGUMENT;
    (*env)->SetLongArrayRegion(env, out, 0, (jsize)(sizeof values / sizeof *values), values);
    return BE_OK;
}

JNI(jint, storageInspect, jbyteArray dir, jbyteArray key, jlongArray out) {
    (void)cls;
    be_storage_info info = {.struct_size = sizeof info};
    text d = text_of(env, dir), k = text_of(env, key);
    be_status status = be_storage_inspect(CSTR(d), CSTR(k), &info);
    text_done(env, d);
    text_done(env, k);
    if (status != BE_OK) return status;
    jlong values[] = {(jlong)info.beacons_queued, (jlong)info.events_queued, (jlong)info.oldest_item_age_s,
                      (jlong)info.database_bytes, (jlong)info.image_cache_bytes, (jlong)info.image_cache_files,
                      (jlong)info.has_identity};
    if ((*env)->GetArrayLength(env, out) < 7) return BE_ERR_INVALID_ARGUMENT;
    (*env)->SetLongArrayRegion(env, out, 0, 7, values);
    return BE_OK;
}

/* -- Moments requests and responses ------------------------------------------------------------------------- */

JNI0(jlong, requestNew) { UNUSED; return JL(be_moments_request_new()); }
JNI(void, requestFree, jlong handle) { UNUSED; be_moments_request_free(PTR(be_moments_request, handle)); }

enum { LOYALTYBOOST, CREATIVE, CAMPAIGN_ID, PAYLOAD };

JNI(jint, requestSet, jlong handle, jint option, jbyteArray first, jbyteArray second) {
    (void)cls;
    be_moments_request *request = PTR(be_moments_request, handle);
    text a = text_of(env, first), b = text_of(env, second);
    be_status status = BE_ERR_INVALID_ARGUMENT;
    switch (option) {
    case LOYALTYBOOST: status = be_moments_request_set_loyaltyboost(request, CSTR(a)); break;
    case CREATIVE: status = be_moments_request_set_creative(request, CSTR(a)); break;
    case CAMPAIGN_ID: status = be_moments_request_set_campaign_id(request, CSTR(a)); break;
    case PAYLOAD: status = be_moments_request_set_payload(request, CSTR(a), CSTR(b)); break;
    }
    text_done(env, a);
    text_done(env, b);
    return status;
}
JNI(jint, requestSetDevelopment, jlong handle, jint enabled) {
    UNUSED;
    return be_moments_request_set_development(PTR(be_moments_request, handle), enabled);
}

JNI(jlong, responseRetain, jlong handle) { UNUSED; return JL(be_moments_response_retain(PTR(be_moments_response, handle))); }
JNI(void, responseRelease, jlong handle) { UNUSED; be_moments_response_release(PTR(be_moments_response, handle)); }
JNI(jlong, responseOfferCount, jlong handle) { UNUSED; return (jlong)be_moments_response_offer_count(PTR(be_moments_response, handle)); }
JNI(jlong, responseOfferAt, jlong handle, jlong index) {
    UNUSED;
    return index < 0 ? 0 : JL(be_moments_response_offer_at(PTR(be_moments_response, handle), (size_t)index));
}
JNI(jbyteArray, responseStyle, jlong handle, jbyteArray path) {
    (void)cls;
    text p = text_of(env, path);
    jbyteArray value = bytes_of(env, be_moments_response_style(PTR(be_moments_response, handle), CSTR(p)));
    text_done(env, p);
    return value;
}
JNI(jbyteArray, responsePrivacyUrl, jlong handle) {
    (void)cls;
    return bytes_of(env, be_moments_response_privacy_url(PTR(be_moments_response, handle)));
}

/* -- offers and creatives ------------------------------------------------------------------------------------ */

enum { OFFER_ID, OFFER_TITLE, OFFER_DESCRIPTION, OFFER_IMAGE_URL, OFFER_CLICK_URL, OFFER_CTA_YES, OFFER_CTA_NO,
       OFFER_TERMS_HTML, OFFER_JSON, OFFER_PIXEL_URL, OFFER_ADV_PIXEL_URL, OFFER_CLOSE_BEACON_URL,
       OFFER_NO_THANKS_BEACON_URL };

JNI(jbyteArray, offerString, jlong handle, jint which) {
    (void)cls;
    const be_offer *offer = PTR(const be_offer, handle);
    const char *value = NULL;
    switch (which) {
    case OFFER_ID: value = be_offer_id(offer); break;
    case OFFER_TITLE: value = be_offer_title(offer); break;
    case OFFER_DESCRIPTION: value = be_offer_description(offer); break;
    case OFFER_IMAGE_URL: value = be_offer_image_url(offer); break;
    case OFFER_CLICK_URL: value = be_offer_click_url(offer); break;
    case OFFER_CTA_YES: value = be_offer_cta_yes(offer); break;
    case OFFER_CTA_NO: value = be_offer_cta_no(offer); break;
    case OFFER_TERMS_HTML: value = be_offer_terms_html(offer); break;
    case OFFER_JSON: value = be_offer_json(offer); break;
    case OFFER_PIXEL_URL: value = be_offer_pixel_url(offer); break;
    case OFFER_ADV_PIXEL_URL: value = be_offer_adv_pixel_url(offer); break;
    case OFFER_CLOSE_BEACON_URL: value = be_offer_close_beacon_url(offer); break;
    case OFFER_NO_THANKS_BEACON_URL: value = be_offer_no_thanks_beacon_url(offer); break;
    }
    return bytes_of(env, value);
}
JNI(jbyteArray, offerField, jlong handle, jbyteArray key) {
    (void)cls;
    text k = text_of(env, key);
    jbyteArray value = bytes_of(env, be_offer_field(PTR(const be_offer, handle), CSTR(k)));
    text_done(env, k);
    return value;
}
JNI(jlong, offerCreativeCount, jlong handle) { UNUSED; return (jlong)be_offer_creative_count(PTR(const be_offer, handle)); }
JNI(jlong, offerCreativeAt, jlong handle, jlong index) {
    UNUSED;
    return index < 0 ? 0 : JL(be_offer_creative_at(PTR(const be_offer, handle), (size_t)index));
}
JNI(jbyteArray, creativeUrl, jlong handle) { (void)cls; return bytes_of(env, be_creative_url(PTR(const be_creative, handle))); }
JNI(jbyteArray, creativeType, jlong handle) { (void)cls; return bytes_of(env, be_creative_type(PTR(const be_creative, handle))); }
JNI(jlong, creativeWidth, jlong handle) { UNUSED; return be_creative_width(PTR(const be_creative, handle)); }
JNI(jlong, creativeHeight, jlong handle) { UNUSED; return be_creative_height(PTR(const be_creative, handle)); }
JNI(jint, creativeIsPrimary, jlong handle) { UNUSED; return be_creative_is_primary(PTR(const be_creative, handle)); }

/* -- feeds, groups, screens, events -------------------------------------------------------------------------- */

JNI(jlong, feedRetain, jlong handle) { UNUSED; return JL(be_offer_feed_retain(PTR(be_offer_feed, handle))); }
JNI(void, feedRelease, jlong handle) { UNUSED; be_offer_feed_release(PTR(be_offer_feed, handle)); }
JNI(jbyteArray, feedId, jlong handle) { (void)cls; return bytes_of(env, be_offer_feed_id(PTR(be_offer_feed, handle))); }
JNI(jint, feedIsCached, jlong handle) { UNUSED; return be_offer_feed_is_cached(PTR(be_offer_feed, handle)); }
JNI(jlong, feedAgeSeconds, jlong handle) { UNUSED; return be_offer_feed_age_s(PTR(be_offer_feed, handle)); }
JNI(jlong, feedGroupCount, jlong handle) { UNUSED; return (jlong)be_offer_feed_group_count(PTR(be_offer_feed, handle)); }
JNI(jlong, feedGroupAt, jlong handle, jlong index) {
    UNUSED;
    return index < 0 ? 0 : JL(be_offer_feed_group_at(PTR(be_offer_feed, handle), (size_t)index));
}
JNI(jbyteArray, groupId, jlong handle) { (void)cls; return bytes_of(env, be_offer_group_id(PTR(be_offer_group, handle))); }
JNI(jbyteArray, groupTitle, jlong handle) { (void)cls; return bytes_of(env, be_offer_group_title(PTR(be_offer_group, handle))); }
JNI(jlong, groupOfferCount, jlong handle) { UNUSED; return (jlong)be_offer_group_offer_count(PTR(be_offer_group, handle)); }
JNI(jlong, groupOfferAt, jlong handle, jlong index) {
    UNUSED;
    return index < 0 ? 0 : JL(be_offer_group_offer_at(PTR(be_offer_group, handle), (size_t)index));
}

/* The offer wall: a handle of the caller's, like a screen's. */
#define WALL(h) PTR(be_offer_wall, h)
JNI(void, wallFree, jlong handle) { UNUSED; be_offer_wall_free(WALL(handle)); }
JNI(jint, wallLevel, jlong handle) { UNUSED; return (jint)be_offer_wall_get_level(WALL(handle)); }
JNI(jlong, wallFeed, jlong handle) { UNUSED; return JL(be_offer_wall_feed(WALL(handle))); }
JNI(jlong, wallCurrentGroup, jlong handle) { UNUSED; return JL(be_offer_wall_current_group(WALL(handle))); }
JNI(jlong, wallCurrentOffer, jlong handle) { UNUSED; return JL(be_offer_wall_current_offer(WALL(handle))); }
JNI(jint, wallReportVisibility, jlong handle, jlong group, jlong offer, jdouble fraction) {
    UNUSED;
    if (group < 0 || offer < 0) return BE_ERR_INVALID_ARGUMENT;
    return be_offer_wall_report_visibility(WALL(handle), (size_t)group, (size_t)offer, fraction);
}
JNI(jint, wallOpenGroup, jlong handle, jlong group) {
    UNUSED;
    return group < 0 ? BE_ERR_INVALID_ARGUMENT : be_offer_wall_open_group(WALL(handle), (size_t)group);
}
JNI(jint, wallOpenOffer, jlong handle, jlong group, jlong offer) {
    UNUSED;
    if (group < 0 || offer < 0) return BE_ERR_INVALID_ARGUMENT;
    return be_offer_wall_open_offer(WALL(handle), (size_t)group, (size_t)offer);
}
JNI(jbyteArray, wallAccept, jlong handle) { (void)cls; return bytes_of(env, be_offer_wall_accept(WALL(handle))); }
JNI(jint, wallDecline, jlong handle) { UNUSED; return be_offer_wall_decline(WALL(handle)); }
JNI(jint, wallBack, jlong handle) { UNUSED; return be_offer_wall_back(WALL(handle)); }
JNI(jint, wallClose, jlong handle) { UNUSED; return be_offer_wall_close(WALL(handle)); }

#define SCREEN(h) PTR(be_offer_screen, h)
JNI(void, screenFree, jlong handle) { UNUSED; be_offer_screen_free(SCREEN(handle)); }
JNI(jlong, screenCurrentOffer, jlong handle) { UNUSED; return JL(be_offer_screen_current_offer(SCREEN(handle))); }
JNI(jlong, screenIndex, jlong handle) { UNUSED; return (jlong)be_offer_screen_index(SCREEN(handle)); }
JNI(jlong, screenOfferCount, jlong handle) { UNUSED; return (jlong)be_offer_screen_offer_count(SCREEN(handle)); }
JNI(jint, screenHasNext, jlong handle) { UNUSED; return be_offer_screen_has_next(SCREEN(handle)); }
JNI(jint, screenHasPrevious, jlong handle) { UNUSED; return be_offer_screen_has_previous(SCREEN(handle)); }
JNI(jint, screenShowNext, jlong handle) { UNUSED; return be_offer_screen_show_next(SCREEN(handle)); }
JNI(jint, screenShowPrevious, jlong handle) { UNUSED; return be_offer_screen_show_previous(SCREEN(handle)); }
JNI(jbyteArray, screenAccept, jlong handle) { (void)cls; return bytes_of(env, be_offer_screen_accept(SCREEN(handle))); }
JNI(jint, screenDecline, jlong handle) { UNUSED; return be_offer_screen_decline(SCREEN(handle)); }
JNI(jint, screenClose, jlong handle) { UNUSED; return be_offer_screen_close(SCREEN(handle)); }
JNI(jint, screenIsFinished, jlong handle) { UNUSED; return be_offer_screen_is_finished(SCREEN(handle)); }
JNI(jbyteArray, screenStyle, jlong handle, jbyteArray path) {
    (void)cls;
    text p = text_of(env, path);
    jbyteArray value = bytes_of(env, be_offer_screen_style(SCREEN(handle), CSTR(p)));
    text_done(env, p);
    return value;
}

JNI(jlong, eventNewWithOffer, jlong offer, jint type) {
    UNUSED;
    return JL(be_offer_feed_event_new_with_offer(PTR(const be_offer, offer), (be_offer_feed_event_type)type));
}
JNI(jlong, eventNewWithGroup, jlong group, jint type) {
    UNUSED;
    return JL(be_offer_feed_event_new_with_group(PTR(const be_offer_group, group), (be_offer_feed_event_type)type));
}
JNI(void, eventFree, jlong handle) { UNUSED; be_offer_feed_event_free(PTR(be_offer_feed_event, handle)); }

/* -- zone ads and images ------------------------------------------------------------------------------------- */

JNI(jlong, zoneAdRetain, jlong handle) { UNUSED; return JL(be_zone_ad_retain(PTR(be_zone_ad, handle))); }
JNI(void, zoneAdRelease, jlong handle) { UNUSED; be_zone_ad_release(PTR(be_zone_ad, handle)); }
JNI(jint, zoneAdIsEnabled, jlong handle) { UNUSED; return be_zone_ad_is_enabled(PTR(be_zone_ad, handle)); }
JNI(jbyteArray, zoneAdImageUrl, jlong handle) { (void)cls; return bytes_of(env, be_zone_ad_image_url(PTR(be_zone_ad, handle))); }
JNI(jbyteArray, zoneAdLinkUrl, jlong handle) { (void)cls; return bytes_of(env, be_zone_ad_link_url(PTR(be_zone_ad, handle))); }

JNI(jlong, imageRetain, jlong handle) { UNUSED; return JL(be_image_retain(PTR(be_image, handle))); }
JNI(void, imageRelease, jlong handle) { UNUSED; be_image_release(PTR(be_image, handle)); }
JNI(jbyteArray, imageData, jlong handle) {
    (void)cls;
    const be_image *image = PTR(const be_image, handle);
    size_t size = be_image_size(image);
    if (size > (size_t)INT32_MAX) return NULL;
    jbyteArray array = (*env)->NewByteArray(env, (jsize)size);
    if (array && size) (*env)->SetByteArrayRegion(env, array, 0, (jsize)size, be_image_data(image));
    return array;
}
JNI(jbyteArray, imageContentType, jlong handle) { (void)cls; return bytes_of(env, be_image_content_type(PTR(const be_image, handle))); }
JNI(jint, imageIsFromCache, jlong handle) { UNUSED; return be_image_is_from_cache(PTR(const be_image, handle)); }

/* -- a host transport's requests ----------------------------------------------------------------------------- */

#define REQUEST(h) PTR(be_http_request, h)
JNI(jbyteArray, httpMethod, jlong handle) { (void)cls; return bytes_of(env, be_http_request_method(REQUEST(handle))); }
JNI(jbyteArray, httpUrl, jlong handle) { (void)cls; return bytes_of(env, be_http_request_url(REQUEST(handle))); }
JNI(jlong, httpHeaderCount, jlong handle) { UNUSED; return (jlong)be_http_request_header_count(REQUEST(handle)); }
JNI(jbyteArray, httpHeaderName, jlong handle, jlong index) {
    (void)cls;
    return index < 0 ? NULL : bytes_of(env, be_http_request_header_name(REQUEST(handle), (size_t)index));
}
JNI(jbyteArray, httpHeaderValue, jlong handle, jlong index) {
    (void)cls;
    return index < 0 ? NULL : bytes_of(env, be_http_request_header_value(REQUEST(handle), (size_t)index));
}
JNI(jbyteArray, httpBody, jlong handle) {
    (void)cls;
    size_t size = be_http_request_body_size(REQUEST(handle));
    if (size > (size_t)INT32_MAX) return NULL;
    jbyteArray array = (*env)->NewByteArray(env, (jsize)size);
    if (array && size) (*env)->SetByteArrayRegion(env, array, 0, (jsize)size, be_http_request_body(REQUEST(handle)));
    return array;
}
JNI(jlong, httpTimeoutMs, jlong handle) { UNUSED; return be_http_request_timeout_ms(REQUEST(handle)); }

/* Each header line is a NUL-terminated byte[]; more lines than the library takes are refused by it before any is
 * copied here. The body is JNI's copy for the call (not a critical region: the library may log inside it, and a
 * log handler calls Java). */
JNI(jint, httpComplete, jlong handle, jint status, jobjectArray lines, jbyteArray body) {
    (void)cls;
    jsize count = lines ? (*env)->GetArrayLength(env, lines) : 0;
    jsize body_size = body ? (*env)->GetArrayLength(env, body) : 0;
    if (count > BE_HTTP_MAX_HEADER_LINES)
        return be_http_request_complete(REQUEST(handle), status, NULL, (size_t)count, NULL, 0);
    const char **texts = calloc((size_t)count + 1, sizeof *texts);
    text *held = calloc((size_t)count + 1, sizeof *held);
    be_status result = BE_ERR_NO_MEMORY;
    jsize filled = 0;
    if (texts && held) {
        for (; filled < count; filled++) {
            jbyteArray line = (*env)->GetObjectArrayElement(env, lines, filled);
            held[filled] = text_of(env, line);
            texts[filled] = CSTR(held[filled]);
        }
        jbyte *bytes = body_size ? (*env)->GetByteArrayElements(env, body, NULL) : NULL;
        result = be_http_request_complete(REQUEST(handle), status, texts, (size_t)count, bytes, (size_t)body_size);
        if (bytes) (*env)->ReleaseByteArrayElements(env, body, bytes, JNI_ABORT);
    }
    for (jsize i = 0; i < filled; i++) {
        text_done(env, held[i]);
        (*env)->DeleteLocalRef(env, held[i].array);
    }
    free(texts);
    free(held);
    return result;
}

JNI(jint, httpFail, jlong handle, jbyteArray message) {
    (void)cls;
    text m = text_of(env, message);
    be_status status = be_http_request_fail(REQUEST(handle), CSTR(m));
    text_done(env, m);
    return status;
}
