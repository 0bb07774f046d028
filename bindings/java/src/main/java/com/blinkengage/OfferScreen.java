package com.blinkengage;

/**
 * A headless SDK screen: one offer at a time, with navigation and the beacons each step owes. It keeps its feed or
 * response alive; close it when the host's UI goes.
 */
public final class OfferScreen extends NativeResource {
    OfferScreen(long handle) {
        super("offer screen", handle, Native::screenFree);
    }

    private interface Read<T> { T run(long screen); }

    private <T> T read(Read<T> read) {
        long handle = acquire();
        try {
            return read.run(handle);
        } finally {
            release();
        }
    }

    /** The offer shown now; null once finished. */
    public Offer currentOffer() {
        return read(h -> {
            long offer = Native.screenCurrentOffer(h);
            return offer == 0 ? null : new Offer(this, offer);
        });
    }

    public long index() { return read(Native::screenIndex); }
    public long offerCount() { return read(Native::screenOfferCount); }
    public boolean hasNext() { return read(h -> Native.screenHasNext(h) != 0); }
    public boolean hasPrevious() { return read(h -> Native.screenHasPrevious(h) != 0); }
    public boolean isFinished() { return read(h -> Native.screenIsFinished(h) != 0); }
    public void showNext() { read(h -> { Text.check(Native.screenShowNext(h)); return null; }); }
    public void showPrevious() { read(h -> { Text.check(Native.screenShowPrevious(h)); return null; }); }
    /** The positive call to action: fires its beacons and returns the URL to open (null when none). */
    public String accept() { return read(h -> Text.decode(Native.screenAccept(h))); }
    public void decline() { read(h -> { Text.check(Native.screenDecline(h)); return null; }); }
    /** Closes the screen's flow (the user dismissed it): beacons owed fire; the screen is finished. */
    public void dismiss() { read(h -> { Text.check(Native.screenClose(h)); return null; }); }

    public String style(String path) {
        byte[] bytes = Text.encode(path, "path");
        return read(h -> Text.decode(Native.screenStyle(h, bytes)));
    }
}
