package com.blinkengage;

/** Every documented (domain, code) pair of the header; {@link #UNKNOWN} for any other. */
public enum ErrorCode {
    MOMENTS_INVALID_PARAMETER(ErrorDomain.MOMENTS, 1), MOMENTS_INVALID_URL(ErrorDomain.MOMENTS, 2),
    MOMENTS_NO_OFFERS(ErrorDomain.MOMENTS, 3), MOMENTS_DECODING(ErrorDomain.MOMENTS, 4),
    MOMENTS_NETWORK(ErrorDomain.MOMENTS, 5), MOMENTS_HTTP_STATUS(ErrorDomain.MOMENTS, 6),
    /** No registered user: set an identity. */
    OFFER_FEED_NO_USER(ErrorDomain.OFFER_FEED, 1),
    /** The feed is unavailable: treat it as off, do not retry in a loop. */
    OFFER_FEED_UNAVAILABLE(ErrorDomain.OFFER_FEED, 2),
    ZONE_AD_MALFORMED(ErrorDomain.ZONE_AD, 1), ZONE_AD_NETWORK(ErrorDomain.ZONE_AD, 2),
    ZONE_AD_HTTP_STATUS(ErrorDomain.ZONE_AD, 3),
    IMAGE_NETWORK(ErrorDomain.IMAGE, 1), IMAGE_HTTP_STATUS(ErrorDomain.IMAGE, 2), IMAGE_NOT_AN_IMAGE(ErrorDomain.IMAGE, 3),
    IMAGE_TOO_LARGE(ErrorDomain.IMAGE, 4), IMAGE_INVALID_URL(ErrorDomain.IMAGE, 5),
    /** The SDK was closed before the operation completed. */
    CANCELLED_SHUTDOWN(ErrorDomain.CANCELLED, 1),
    UNKNOWN(ErrorDomain.UNKNOWN, 0);

    private final ErrorDomain domain;
    private final int code;

    ErrorCode(ErrorDomain domain, int code) {
        this.domain = domain;
        this.code = code;
    }

    public ErrorDomain domain() { return domain; }
    public int code() { return code; }

    static ErrorCode of(ErrorDomain domain, int code) {
        for (ErrorCode value : values()) if (value.domain == domain && value.code == code) return value;
        return UNKNOWN;
    }
}
