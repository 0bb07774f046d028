package com.blinkengage;

/** A feed event to report: it copies the ids and positions it needs when made. */
public final class FeedEvent extends NativeResource {
    /** An event about an offer ({@link FeedEventType#DID_APPEAR}, {@link FeedEventType#DID_TAP}). */
    public FeedEvent(Offer offer, FeedEventType type) {
        super("feed event", make(offer == null ? null : offer.owner, offer == null ? 0 : offer.pointer, type, true), Native::eventFree);
    }

    /** An event about a group ({@link FeedEventType#VIEW_ALL}). */
    public FeedEvent(OfferGroup group, FeedEventType type) {
        super("feed event", make(group == null ? null : group.owner, group == null ? 0 : group.pointer, type, false), Native::eventFree);
    }

    private static long make(NativeResource owner, long pointer, FeedEventType type, boolean offer) {
        if (owner == null) throw new NullPointerException(offer ? "offer is null" : "group is null");
        if (type == null) throw new NullPointerException("type is null");
        owner.acquire();
        try {
            long event = offer ? Native.eventNewWithOffer(pointer, type.ordinal()) : Native.eventNewWithGroup(pointer, type.ordinal());
            if (event == 0) throw BlinkEngageException.last(Status.INVALID_ARGUMENT.code);
            return event;
        } finally {
            owner.release();
        }
    }
}
