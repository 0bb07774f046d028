package com.blinkengage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** One successful feed load: its groups and offers are values; screens and events need it open. */
public final class OfferFeed extends NativeResource {
    private final String id;
    private final boolean cached;
    private final long ageSeconds;
    private final List<OfferGroup> groups;

    OfferFeed(long borrowed) {
        super("offer feed", Native.feedRetain(borrowed), Native::feedRelease);
        long handle = acquire();
        try {
            id = Text.decode(Native.feedId(handle));
            cached = Native.feedIsCached(handle) != 0;
            ageSeconds = Native.feedAgeSeconds(handle);
            long count = Native.feedGroupCount(handle);
            List<OfferGroup> read = new ArrayList<>();
            for (long i = 0; i < count; i++) read.add(new OfferGroup(this, Native.feedGroupAt(handle, i)));
            groups = Collections.unmodifiableList(read);
        } finally {
            release();
        }
    }

    public String id() { return id; }
    /** True when a failed load was answered from the feed cache. */
    public boolean isCached() { return cached; }
    public long ageSeconds() { return ageSeconds; }
    public List<OfferGroup> groups() { return groups; }
}
