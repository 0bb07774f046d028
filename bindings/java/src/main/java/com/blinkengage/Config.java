package com.blinkengage;

/**
 * The configuration an SDK starts from (be_config). Each setter throws {@link BlinkEngageException} with the
 * library's message when it refuses the value, and returns this configuration. Callbacks default to
 * {@link CallbackMode#DISPATCH} here (the C default is the SDK's thread): an app's loop, like Android's main
 * looper, calls {@link Sdk#dispatch()}. Not for use from several threads at once.
 */
public final class Config extends NativeResource {
    public Config(String apiKey) {
        super("config", create(apiKey), Native::configFree);
        callbackMode(CallbackMode.DISPATCH);
    }

    private static long create(String apiKey) {
        long handle = Native.configNew(Text.encode(apiKey, "apiKey"));
        if (handle == 0) throw BlinkEngageException.last(Status.INVALID_ARGUMENT.code);
        return handle;
    }

    private Config string(int option, byte[] value) {
        long handle = acquire();
        try {
            Text.check(Native.configSetString(handle, option, value));
        } finally {
            release();
        }
        return this;
    }

    private Config numbers(int option, long a, long b) {
        long handle = acquire();
        try {
            Text.check(Native.configSetNumbers(handle, option, a, b));
        } finally {
            release();
        }
        return this;
    }

    public Config momentsUrl(String baseUrl) { return string(Native.URL_MOMENTS, Text.encode(baseUrl, "baseUrl")); }
    public Config engageUrl(String baseUrl) { return string(Native.URL_ENGAGE, Text.encode(baseUrl, "baseUrl")); }
    /** @param urlTemplate must contain "{zone}". */
    public Config zoneAdUrl(String urlTemplate) { return string(Native.URL_ZONE_AD, Text.encode(urlTemplate, "urlTemplate")); }
    public Config storageDir(String path) { return string(Native.STORAGE_DIR, Text.encode(path, "path")); }
    /** @param userAgent "" restores the default. */
    public Config userAgent(String userAgent) { return string(Native.USER_AGENT, Text.encode(userAgent, "userAgent")); }
    /** @param url http://, https:// or socks5h://host:port; null connects directly. */
    public Config proxy(String url) { return string(Native.PROXY, Text.encodeNullable(url, "url")); }
    /** @param path a PEM file; null returns to the system's store. */
    public Config caFile(String path) { return string(Native.CA_FILE, Text.encodeNullable(path, "path")); }
    /** @param pins "sha256//BASE64" hashes separated by ";"; null pins nothing. */
    public Config pinnedPublicKey(String pins) { return string(Native.PINS, Text.encodeNullable(pins, "pins")); }

    public Config timeoutMs(long timeoutMs) { return numbers(Native.TIMEOUT_MS, timeoutMs, 0); }
    public Config development(boolean enabled) { return numbers(Native.DEVELOPMENT, enabled ? 1 : 0, 0); }
    public Config callbackMode(CallbackMode mode) { return numbers(Native.CALLBACK_MODE, mode.ordinal(), 0); }
    public Config fetchIo(FetchIo io) { return numbers(Native.FETCH_IO, io.ordinal(), 0); }
    /** The viewable-impression rule: at least {@code minFraction} visible for {@code minMs} ms (MRC: 0.5, 1000). */
    public Config viewability(double minFraction, long minMs) {
        long handle = acquire();
        try {
            Text.check(Native.configSetViewability(handle, minFraction, minMs));
        } finally {
            release();
        }
        return this;
    }
    /** The flight recorder's size in entries; 0 turns it off (default: 256 in development mode, else off). */
    public Config recorder(long maxEntries) { return numbers(Native.RECORDER, maxEntries, 0); }
    /** @param whenViewable impression beacons fire once per viewable impression instead of at every appearance. */
    public Config impressionBeaconsWhenViewable(boolean whenViewable) { return numbers(Native.IMPRESSION_BEACONS, whenViewable ? 1 : 0, 0); }
    /** @param enabled the start opens the service's connections ahead of the first fetch (the default). */
    public Config warmUpAtStart(boolean enabled) { return numbers(Native.WARM_UP, enabled ? 1 : 0, 0); }
    public Config outboxLimits(long maxItems, long maxAgeSeconds) { return numbers(Native.OUTBOX_LIMITS, maxItems, maxAgeSeconds); }
    /** @param maxAgeSeconds 0 turns the feed cache off. */
    public Config feedCache(long maxAgeSeconds) { return numbers(Native.FEED_CACHE, maxAgeSeconds, 0); }
    public Config prefetchTtlSeconds(long ttlSeconds) { return numbers(Native.PREFETCH_TTL, ttlSeconds, 0); }
    public Config imageCache(long memoryBytes, long diskBytes) { return numbers(Native.IMAGE_CACHE, memoryBytes, diskBytes); }

    /**
     * Installs a log handler for {@code minLevel} and above; null removes it. It is called synchronously on
     * whichever thread logs, possibly several at once, and must not call the library.
     */
    public Config logHandler(LogHandler handler, LogLevel minLevel) {
        long handle = acquire();
        try {
            Text.check(Native.configSetLogHandler(handle, handler, minLevel.ordinal()));
        } finally {
            release();
        }
        return this;
    }

    /** Sends every request through {@code transport} instead of the built-in one; null returns to the built-in. */
    public Config httpTransport(HttpTransport transport) {
        long handle = acquire();
        try {
            Text.check(Native.configSetTransport(handle, transport));
        } finally {
            release();
        }
        return this;
    }
}
