package com.blinkengage;

import java.util.concurrent.CompletableFuture;

/**
 * A running SDK (be_sdk), from {@link BlinkEngage#start}. Callbacks run on the thread that calls
 * {@link #dispatch()} in dispatch mode (the default here), one at a time, never inside the call that started them;
 * the futures complete there too. {@link #close()} shuts down: every callback still owed runs first, with a
 * cancelled {@link ServiceException}, on the closing thread; a close inside a callback takes effect when the
 * callback returns. Using the SDK after close throws IllegalStateException.
 */
public final class Sdk extends NativeResource {
    private Sdk(long handle) {
        super("sdk", handle, Sdk::shutdown);
    }

    // The library refuses be_sdk_shutdown from its own callbacks: on the SDK's callback thread it runs on a thread
    // of its own once the callback returns. (Inside dispatch() the handle is held, so it runs after dispatch.)
    private static void shutdown(long handle) {
        if (Callbacks.inCallback()) {
            Thread thread = new Thread(() -> Native.sdkShutdown(handle), "blinkengage-shutdown");
            thread.setDaemon(true);
            thread.start();
        } else {
            Native.sdkShutdown(handle);
        }
    }

    static Sdk start(Config config) {
        long configHandle = config.acquire();
        try {
            int[] status = new int[1];
            long handle = Native.sdkStart(configHandle, status);
            if (handle == 0) throw BlinkEngageException.last(status[0]);
            return new Sdk(handle);
        } finally {
            config.release();
        }
    }

    /** How long {@link #close()} waits for queued beacons and events (default 2000 ms). */
    public void setShutdownTimeoutMs(int timeoutMs) {
        long handle = acquire();
        try {
            Native.sdkSetShutdownTimeout(handle, timeoutMs);
        } finally {
            release();
        }
    }

    private interface Call { int run(long handle); }

    private void check(Call call) {
        long handle = acquire();
        try {
            Text.check(call.run(handle));
        } finally {
            release();
        }
    }

    /** Runs up to {@code maxCallbacks} owed callbacks (all when &lt;= 0) on this thread; returns how many ran. */
    public int dispatch(int maxCallbacks) {
        long handle = acquire();
        try {
            return Native.sdkDispatch(handle, maxCallbacks);
        } finally {
            release();
        }
    }

    public int dispatch() { return dispatch(0); }

    /** A descriptor readable while callbacks wait (for a poll loop); -1 in the other mode. */
    public int dispatchFd() {
        long handle = acquire();
        try {
            return Native.sdkDispatchFd(handle);
        } finally {
            release();
        }
    }

    /**
     * Blocks until callbacks wait for {@link #dispatch()} (the dispatch descriptor is readable) or {@code timeoutMs}
     * passes: what a host's own loop thread does between dispatches when it has no poll loop. Returns whether
     * callbacks wait; false at once in the other mode.
     */
    public boolean awaitCallbacks(int timeoutMs) {
        long handle = acquire();
        try {
            return Native.sdkAwaitDispatch(handle, timeoutMs) > 0;
        } finally {
            release();
        }
    }

    public void setUserIdentity(String publisherUserId) {
        byte[] id = Text.encode(publisherUserId, "publisherUserId");
        check(h -> Native.sdkSetUserIdentity(h, id));
    }

    public void clearUserIdentity() { check(Native::sdkClearUserIdentity); }

    /** Tries every queued beacon and event now and waits for them; blocks. Throws TIMEOUT when not all went. */
    public void flush(int timeoutMs) { check(h -> Native.sdkFlush(h, timeoutMs)); }

    /** @param applies null when unknown (not sent). @param tcfString the TCF string, or null. */
    public void setGdpr(Boolean applies, String tcfString) {
        byte[] tcf = Text.encodeNullable(tcfString, "tcfString");
        check(h -> Native.sdkSetGdpr(h, applies == null ? -1 : applies ? 1 : 0, tcf));
    }

    /** @param usPrivacy "1YNN" and the like; null clears it. */
    public void setUsPrivacy(String usPrivacy) {
        byte[] value = Text.encodeNullable(usPrivacy, "usPrivacy");
        check(h -> Native.sdkSetUsPrivacy(h, value));
    }

    /** @param gppString null clears both. @param sectionIds "7,8", required with a GPP string. */
    public void setGpp(String gppString, String sectionIds) {
        byte[] gpp = Text.encodeNullable(gppString, "gppString");
        byte[] sections = Text.encodeNullable(sectionIds, "sectionIds");
        check(h -> Native.sdkSetGpp(h, gpp, sections));
    }

    public void setChildDirected(boolean childDirected) { check(h -> Native.sdkSetChildDirected(h, childDirected ? 1 : 0)); }
    public void setLimitTracking(boolean limited) { check(h -> Native.sdkSetLimitTracking(h, limited ? 1 : 0)); }
    /** Erases the user's identity, queued items, caches and stored feed. */
    public void deleteUserData() { check(Native::sdkDeleteUserData); }

    private interface Start { int run(long sdk, Object target); }

    // A refused call never calls back: its listener is dropped with the exception.
    private <T> void start(Listener<T> listener, Start call) {
        if (listener == null) throw new NullPointerException("listener is null");
        Callbacks.Pending<T> pending = new Callbacks.Pending<>(listener);
        check(h -> call.run(h, pending));
    }

    private static <T extends AutoCloseable> Listener<T> completing(CompletableFuture<T> future) {
        return (result, error) -> {
            if (error != null) future.completeExceptionally(error);
            else if (!future.complete(result)) close(result);
        };
    }

    private static void close(AutoCloseable late) {
        try {
            late.close();
        } catch (Exception ignored) {
            // the binding's own resources do not throw on close
        }
    }

    /** Fetches offers; the listener gets a response (close it) or an error, exactly once, unless this throws. */
    public void fetchMomentsOffers(MomentsRequest request, Listener<MomentsResponse> listener) {
        if (request == null) throw new NullPointerException("request is null");
        long requestHandle = request.acquire();
        try {
            start(listener, (h, target) -> Native.sdkFetchMoments(h, requestHandle, target));
        } finally {
            request.release();
        }
    }

    /** The same as a future, completed on the dispatching thread. Cancelling it drops the late answer. */
    public CompletableFuture<MomentsResponse> fetchMomentsOffers(MomentsRequest request) {
        CompletableFuture<MomentsResponse> future = new CompletableFuture<>();
        fetchMomentsOffers(request, completing(future));
        return future;
    }

    /** Starts the fetch now and keeps the answer for a later fetch with the same parameters. */
    public void prefetchMomentsOffers(MomentsRequest request) {
        if (request == null) throw new NullPointerException("request is null");
        long requestHandle = request.acquire();
        try {
            check(h -> Native.sdkPrefetch(h, requestHandle));
        } finally {
            request.release();
        }
    }

    /** Loads the offer feed; loads made while one is in flight share it. Errors: OFFER_FEED_NO_USER, _UNAVAILABLE. */
    public void loadOfferFeed(Listener<OfferFeed> listener) { start(listener, Native::sdkLoadFeed); }

    public CompletableFuture<OfferFeed> loadOfferFeed() {
        CompletableFuture<OfferFeed> future = new CompletableFuture<>();
        loadOfferFeed(completing(future));
        return future;
    }

    public void fetchZoneAd(String zoneId, Listener<ZoneAd> listener) {
        byte[] zone = Text.encode(zoneId, "zoneId");
        start(listener, (h, target) -> Native.sdkFetchZoneAd(h, zone, target));
    }

    public CompletableFuture<ZoneAd> fetchZoneAd(String zoneId) {
        CompletableFuture<ZoneAd> future = new CompletableFuture<>();
        fetchZoneAd(zoneId, completing(future));
        return future;
    }

    /** Fetches an image through the SDK's memory and disk caches. */
    public void fetchImage(String url, Listener<Image> listener) {
        byte[] bytes = Text.encode(url, "url");
        start(listener, (h, target) -> Native.sdkFetchImage(h, bytes, target));
    }

    public CompletableFuture<Image> fetchImage(String url) {
        CompletableFuture<Image> future = new CompletableFuture<>();
        fetchImage(url, completing(future));
        return future;
    }

    public void reportZoneAdClick(ZoneAd ad) {
        if (ad == null) throw new NullPointerException("ad is null");
        long adHandle = ad.acquire();
        try {
            check(h -> Native.sdkReportZoneAdClick(h, adHandle));
        } finally {
            ad.release();
        }
    }

    /** Reports a feed event durably (delivered at least once, with one id). */
    public void reportOfferFeedEvent(FeedEvent event) {
        if (event == null) throw new NullPointerException("event is null");
        long eventHandle = event.acquire();
        try {
            check(h -> Native.sdkReportFeedEvent(h, eventHandle));
        } finally {
            event.release();
        }
    }

    /** Reports that {@code offer} is {@code visibleFraction} (0 to 1) of its pixels on screen now. */
    public void reportVisibility(Offer offer, double visibleFraction) {
        if (offer == null) throw new NullPointerException("offer is null");
        offer.owner.acquire();
        try {
            check(h -> Native.sdkReportVisibility(h, offer.pointer, visibleFraction));
        } finally {
            offer.owner.release();
        }
    }

    /** Opens the connections the next fetch needs ahead of it (TLS done): a fetch then costs one round trip. */
    public void warmUp() { check(Native::sdkWarmUp); }

    /** The flight recorder's entries, one JSON object per line, oldest first. */
    public String recorderJson() {
        Object[] out = new Object[1];
        check(h -> Native.sdkRecorderJson(h, out));
        return Text.decode((byte[]) out[0]);
    }

    /** HAR 1.2 of flight recorder lines (those of {@link #recorderJson()} or of a recorder.jsonl file). */
    public static String recorderHar(String jsonLines) {
        Object[] out = new Object[1];
        Text.check(Native.recorderHar(Text.encode(jsonLines, "jsonLines"), out));
        return Text.decode((byte[]) out[0]);
    }

    private interface ScreenCall { long run(long sdk, long object); }

    private OfferScreen screen(NativeResource owner, long object, ScreenCall call) {
        long handle = acquire();
        owner.acquire();
        try {
            long screen = call.run(handle, object);
            return screen == 0 ? null : new OfferScreen(screen);
        } finally {
            owner.release();
            release();
        }
    }

    /** The screen for an offer of the newest feed load; null for an offer not in it. */
    public OfferScreen offerDetailsScreen(Offer offer) {
        if (offer == null) throw new NullPointerException("offer is null");
        return screen(offer.owner, offer.pointer, Native::sdkOfferDetailsScreen);
    }

    /** The screen for a group of the newest feed load; null for a group not in it. */
    public OfferScreen offerGroupScreen(OfferGroup group) {
        if (group == null) throw new NullPointerException("group is null");
        return screen(group.owner, group.pointer, Native::sdkOfferGroupScreen);
    }

    /**
     * The offer wall over the newest feed load (header: "The offer wall"); null before a feed was loaded. The SDK
     * records the wall's feed events itself; close it when the host's UI goes.
     */
    public OfferWall offerWall() {
        long handle = acquire();
        try {
            long wall = Native.sdkOfferWall(handle);
            return wall == 0 ? null : new OfferWall(wall);
        } finally {
            release();
        }
    }

    /** The single-offer unit over a Moments answer. */
    public OfferScreen momentsScreen(MomentsResponse response) {
        if (response == null) throw new NullPointerException("response is null");
        long responseHandle = response.acquire();
        try {
            return screen(response, responseHandle, Native::sdkMomentsScreen);
        } finally {
            response.release();
        }
    }

    public Stats stats() {
        long[] v = new long[26];
        check(h -> Native.sdkGetStats(h, v));
        return new Stats(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14],
                         v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22], v[23], v[24], v[25]);
    }
}
