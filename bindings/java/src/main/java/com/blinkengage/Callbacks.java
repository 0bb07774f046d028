package com.blinkengage;

/**
 * What the JNI shim calls, and nothing else does: each method turns a borrowed native result into this package's
 * objects and completes the call's {@link Pending} target. Nothing a host listener throws gets back to native code.
 */
final class Callbacks {
    private Callbacks() {}

    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    /** True on a thread running one of the SDK's callbacks: closing the SDK there is deferred. */
    static boolean inCallback() { return DEPTH.get()[0] > 0; }

    /** One asynchronous call's listener, with what wraps its borrowed result. */
    static final class Pending<T> {
        final Listener<T> listener;

        Pending(Listener<T> listener) { this.listener = listener; }
    }

    private static ServiceException error(byte[] domain, int code, byte[] message, int httpStatus) {
        return domain == null ? null : new ServiceException(Text.decode(domain), code, Text.decode(message), httpStatus);
    }

    private interface Wrap<T> { T of(long pointer); }

    @SuppressWarnings("unchecked")
    private static <T> void deliver(Object target, long result, byte[] domain, int code, byte[] message, int http,
                                    Wrap<T> wrap) {
        int[] depth = DEPTH.get();
        depth[0]++;
        try {
            Pending<T> pending = (Pending<T>) target;
            pending.listener.onResult(result == 0 ? null : wrap.of(result), error(domain, code, message, http));
        } catch (Throwable e) {
            BlinkEngage.uncaught(e);
        } finally {
            depth[0]--;
        }
    }

    static void deliverMoments(Object target, long response, byte[] domain, int code, byte[] message, int http) {
        deliver(target, response, domain, code, message, http, MomentsResponse::new);
    }

    static void deliverFeed(Object target, long feed, byte[] domain, int code, byte[] message, int http) {
        deliver(target, feed, domain, code, message, http, OfferFeed::new);
    }

    static void deliverZoneAd(Object target, long ad, byte[] domain, int code, byte[] message, int http) {
        deliver(target, ad, domain, code, message, http, ZoneAd::new);
    }

    static void deliverImage(Object target, long image, byte[] domain, int code, byte[] message, int http) {
        deliver(target, image, domain, code, message, http, Image::new);
    }

    static void log(Object handler, int level, byte[] message) {
        try {
            ((LogHandler) handler).log(LogLevel.values()[level], Text.decode(message));
        } catch (Throwable e) {
            BlinkEngage.uncaught(e);
        }
    }

    /** A transport that throws fails its request, so the SDK never waits for an answer that cannot come. */
    static void send(Object transport, long pointer) {
        HttpRequest request;
        try {
            request = new HttpRequest(pointer);
        } catch (Throwable e) {
            Native.httpFail(pointer, Text.encode("the request could not be read: " + e.getClass().getSimpleName(), "message"));
            BlinkEngage.uncaught(e);
            return;
        }
        try {
            ((HttpTransport) transport).send(request);
        } catch (Throwable e) {
            request.failIfOpen("the host transport threw " + e.getClass().getSimpleName());
            BlinkEngage.uncaught(e);
        }
    }
}
