package com.blinkengage;

/** The bytes of a fetched image as served (decoding is the host's), with its type and cache status. */
public final class Image extends NativeResource {
    private final String contentType;
    private final boolean fromCache;

    Image(long borrowed) {
        super("image", Native.imageRetain(borrowed), Native::imageRelease);
        long handle = acquire();
        try {
            contentType = Text.decode(Native.imageContentType(handle));
            fromCache = Native.imageIsFromCache(handle) != 0;
        } finally {
            release();
        }
    }

    public String contentType() { return contentType; }
    /** True when the memory or disk cache answered, revalidated or not. */
    public boolean isFromCache() { return fromCache; }

    /** A copy of the bytes (at most 10 MiB). */
    public byte[] data() {
        long handle = acquire();
        try {
            return Native.imageData(handle);
        } finally {
            release();
        }
    }
}
