package com.blinkengage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A group of a feed: a title and offers, as values. */
public final class OfferGroup {
    final NativeResource owner;
    final long pointer;
    private final String id, title;
    private final List<Offer> offers;

    /** Reads the group; the caller holds {@code owner}. */
    OfferGroup(NativeResource owner, long pointer) {
        this.owner = owner;
        this.pointer = pointer;
        id = Text.decode(Native.groupId(pointer));
        title = Text.decode(Native.groupTitle(pointer));
        long count = Native.groupOfferCount(pointer);
        List<Offer> read = new ArrayList<>();
        for (long i = 0; i < count; i++) read.add(new Offer(owner, Native.groupOfferAt(pointer, i)));
        offers = Collections.unmodifiableList(read);
    }

    public String id() { return id; }
    public String title() { return title; }
    public List<Offer> offers() { return offers; }
}
