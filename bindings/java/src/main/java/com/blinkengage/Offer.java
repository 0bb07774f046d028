package com.blinkengage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One offer, as an immutable value: its fields are read when the answer arrives and stay readable for ever. A
 * getter is null where the value is absent or empty; URLs are only ever absolute http(s). {@link #field} reads the
 * answer itself and needs its owner (response, feed or screen) open.
 */
public final class Offer {
    final NativeResource owner;
    final long pointer;
    private final String id, title, description, imageUrl, clickUrl, ctaYes, ctaNo, termsHtml, json;
    private final String pixelUrl, advertiserPixelUrl, closeBeaconUrl, noThanksBeaconUrl;
    private final List<Creative> creatives;

    /** Reads every field; the caller holds {@code owner}. */
    Offer(NativeResource owner, long pointer) {
        this.owner = owner;
        this.pointer = pointer;
        id = read(Native.OFFER_ID);
        title = read(Native.OFFER_TITLE);
        description = read(Native.OFFER_DESCRIPTION);
        imageUrl = read(Native.OFFER_IMAGE_URL);
        clickUrl = read(Native.OFFER_CLICK_URL);
        ctaYes = read(Native.OFFER_CTA_YES);
        ctaNo = read(Native.OFFER_CTA_NO);
        termsHtml = read(Native.OFFER_TERMS_HTML);
        json = read(Native.OFFER_JSON);
        pixelUrl = read(Native.OFFER_PIXEL_URL);
        advertiserPixelUrl = read(Native.OFFER_ADV_PIXEL_URL);
        closeBeaconUrl = read(Native.OFFER_CLOSE_BEACON_URL);
        noThanksBeaconUrl = read(Native.OFFER_NO_THANKS_BEACON_URL);
        long count = Native.offerCreativeCount(pointer);
        List<Creative> read = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            long c = Native.offerCreativeAt(pointer, i);
            read.add(new Creative(Text.decode(Native.creativeUrl(c)), Native.creativeWidth(c), Native.creativeHeight(c),
                                  Text.decode(Native.creativeType(c)), Native.creativeIsPrimary(c) != 0));
        }
        creatives = Collections.unmodifiableList(read);
    }

    private String read(int which) { return Text.decode(Native.offerString(pointer, which)); }

    public String id() { return id; }
    public String title() { return title; }
    public String description() { return description; }
    public String imageUrl() { return imageUrl; }
    public String clickUrl() { return clickUrl; }
    /**
     * The impression pixel ("pixel"). The SDK fires beacons itself; a host firing one replaces each {@code {cbuster}}
     * (or {@code %7Bcbuster%7D}) with a fresh random number first, as the SDK does.
     */
    public String pixelUrl() { return pixelUrl; }
    /** The advertiser's impression pixel ("adv_pixel_url"); see {@link #pixelUrl}. */
    public String advertiserPixelUrl() { return advertiserPixelUrl; }
    /** The beacon of closing the offer ("beacons"."close"); see {@link #pixelUrl}. */
    public String closeBeaconUrl() { return closeBeaconUrl; }
    /** The beacon of the negative CTA ("beacons"."no_thanks_click"); see {@link #pixelUrl}. */
    public String noThanksBeaconUrl() { return noThanksBeaconUrl; }
    public String ctaYes() { return ctaYes; }
    public String ctaNo() { return ctaNo; }
    public String termsHtml() { return termsHtml; }
    /** The offer as the service sent it, JSON text. */
    public String json() { return json; }
    public List<Creative> creatives() { return creatives; }

    /** Any top-level field: a string as it is, a number or boolean as its JSON text; null when absent. */
    public String field(String key) {
        byte[] bytes = Text.encode(key, "key");
        owner.acquire();
        try {
            return Text.decode(Native.offerField(pointer, bytes));
        } finally {
            owner.release();
        }
    }

    @Override public String toString() { return "Offer(" + id + ", " + title + ")"; }
}
