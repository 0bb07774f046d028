package com.blinkengage;

import java.util.function.Consumer;

/**
 * The entry point: {@code try (Sdk sdk = BlinkEngage.start(config)) { ... }}. Every method of this package may be
 * called from any thread.
 */
public final class BlinkEngage {
    private BlinkEngage() {}

    private static volatile Consumer<Throwable> uncaught = error -> {
        System.err.println("blinkengage: a listener threw:");
        error.printStackTrace();
    };

    /** Starts an SDK from a copy of {@code config}; the configuration may be closed right after. */
    public static Sdk start(Config config) {
        if (config == null) throw new NullPointerException("config is null");
        return Sdk.start(config);
    }

    /** The library's version, "MAJOR.MINOR.PATCH". */
    public static String version() { return Text.decode(Native.version()); }

    /** Reads a storage directory without starting an SDK (be_storage_inspect). */
    public static StorageInfo inspectStorage(String storageDir, String apiKey) {
        long[] values = new long[7];
        Text.check(Native.storageInspect(Text.encode(storageDir, "storageDir"), Text.encode(apiKey, "apiKey"), values));
        return new StorageInfo(values[0], values[1], values[2], values[3], values[4], values[5], values[6] != 0);
    }

    /** Where what a listener, log handler or transport throws goes (by default: printed to standard error). */
    public static void setUncaughtHandler(Consumer<Throwable> handler) {
        if (handler == null) throw new NullPointerException("handler is null");
        uncaught = handler;
    }

    static void uncaught(Throwable error) {
        try {
            uncaught.accept(error);
        } catch (Throwable ignored) {
            // the handler's own failure has nowhere left to go
        }
    }

    /** JNI global references the binding holds now: one per owed callback, log handler and transport. */
    static long globalReferences() { return Native.globalReferences(); }
}
