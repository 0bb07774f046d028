package com.blinkengage;

/** The parameters of a Moments fetch (be_moments_request); the fetch copies them. Setters return this request. */
public final class MomentsRequest extends NativeResource {
    public MomentsRequest() {
        super("moments request", Native.requestNew(), Native::requestFree);
    }

    private MomentsRequest set(int option, byte[] first, byte[] second) {
        long handle = acquire();
        try {
            Text.check(Native.requestSet(handle, option, first, second));
        } finally {
            release();
        }
        return this;
    }

    /** "0", "1" or "2"; anything else is refused with the library's message. */
    public MomentsRequest loyaltyBoost(String value) { return set(Native.LOYALTYBOOST, Text.encode(value, "value"), null); }
    /** "0" or "1". */
    public MomentsRequest creative(String value) { return set(Native.CREATIVE, Text.encode(value, "value"), null); }
    public MomentsRequest campaignId(String campaignId) { return set(Native.CAMPAIGN_ID, Text.encode(campaignId, "campaignId"), null); }
    /** One payload attribute (placement, email, ...); a key set twice keeps the last value. */
    public MomentsRequest payload(String key, String value) {
        return set(Native.PAYLOAD, Text.encode(key, "key"), Text.encode(value, "value"));
    }

    public MomentsRequest development(boolean enabled) {
        long handle = acquire();
        try {
            Text.check(Native.requestSetDevelopment(handle, enabled ? 1 : 0));
        } finally {
            release();
        }
        return this;
    }
}
