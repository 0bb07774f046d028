package com.blinkengage;

/** A legacy zone ad: its values stay readable; reporting a click needs it open. */
public final class ZoneAd extends NativeResource {
    private final boolean enabled;
    private final String imageUrl, linkUrl;

    ZoneAd(long borrowed) {
        super("zone ad", Native.zoneAdRetain(borrowed), Native::zoneAdRelease);
        long handle = acquire();
        try {
            enabled = Native.zoneAdIsEnabled(handle) != 0;
            imageUrl = Text.decode(Native.zoneAdImageUrl(handle));
            linkUrl = Text.decode(Native.zoneAdLinkUrl(handle));
        } finally {
            release();
        }
    }

    /** False: the zone shows nothing now. */
    public boolean isEnabled() { return enabled; }
    public String imageUrl() { return imageUrl; }
    public String linkUrl() { return linkUrl; }
}
