package com.blinkengage;

/**
 * The offer wall: the newest feed as a headless SDK screen. The SDK owns its navigation (the wall, a group's offers,
 * an offer's details) and records its feed events with their positions: did_appear as the host reports offers
 * visible, view_all for a group opened, did_tap for an offer opened. Positions are the feed's: a group's index, an
 * offer's index in its group.
 */
public final class OfferWall extends NativeResource {
    /** What the wall shows now, in the header's order. */
    public enum Level { WALL, GROUP, OFFER, CLOSED }

    OfferWall(long handle) {
        super("offer wall", handle, Native::wallFree);
    }

    private interface Call { int run(long wall); }

    private void call(Call call) {
        long handle = acquire();
        try {
            Text.check(call.run(handle));
        } finally {
            release();
        }
    }

    public Level level() {
        long handle = acquire();
        try {
            return Level.values()[Native.wallLevel(handle)];
        } finally {
            release();
        }
    }

    /** The offer shown at the offer level, as its id; null at the other levels. */
    public String currentOfferID() {
        long handle = acquire();
        try {
            long offer = Native.wallCurrentOffer(handle);
            return offer == 0 ? null : Text.decode(Native.offerString(offer, Native.OFFER_ID));
        } finally {
            release();
        }
    }

    /** The offer at {@code offer} of group {@code group} is {@code fraction} (0 to 1) of its pixels on screen now. */
    public void reportVisibility(long group, long offer, double fraction) { call(h -> Native.wallReportVisibility(h, group, offer, fraction)); }
    public void openGroup(long group) { call(h -> Native.wallOpenGroup(h, group)); }
    public void openOffer(long group, long offer) { call(h -> Native.wallOpenOffer(h, group, offer)); }
    /** The positive call to action in an offer's details: returns the URL to open (null when none) and goes back. */
    public String accept() {
        long handle = acquire();
        try {
            return Text.decode(Native.wallAccept(handle));
        } finally {
            release();
        }
    }
    public void decline() { call(Native::wallDecline); }
    public void back() { call(Native::wallBack); }
    /** Closes the wall from any level (unanswered details fire their close beacon). */
    public void dismiss() { call(Native::wallClose); }
}
