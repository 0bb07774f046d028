package com.blinkengage;

/** The domain of an asynchronous failure (BE_*_ERROR_DOMAIN). */
public enum ErrorDomain {
    MOMENTS("BlinkEngageMoments"), OFFER_FEED("BlinkEngageOfferFeed"), ZONE_AD("BlinkEngageZoneAd"),
    IMAGE("BlinkEngageImage"), CANCELLED("BlinkEngageCancelled"),
    /** A domain this version does not know: a newer library's. */
    UNKNOWN("");

    private final String name;

    ErrorDomain(String name) { this.name = name; }

    /** The domain as the library names it. */
    public String domainName() { return name; }

    static ErrorDomain of(String name) {
        for (ErrorDomain domain : values()) if (domain.name.equals(name)) return domain;
        return UNKNOWN;
    }
}
