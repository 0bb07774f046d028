package com.blinkengage;

/**
 * The JNI shim's methods (jni/blinkengage_jni.c), one or two functions of blinkengage.h each. Strings cross as
 * NUL-terminated UTF-8 byte arrays ({@link Text}); handles as longs, only ever used while their
 * {@link NativeResource} is held. Package-private: hosts use the classes of this package.
 */
final class Native {
    private Native() {}

    static {
        NativeLoader.load();
    }

    static native byte[] version();
    static native byte[] statusString(int status);
    static native byte[] lastErrorMessage();
    static native long globalReferences();

    static final int URL_MOMENTS = 0, URL_ENGAGE = 1, URL_ZONE_AD = 2, STORAGE_DIR = 3, USER_AGENT = 4, PROXY = 5,
            CA_FILE = 6, PINS = 7;
    static final int TIMEOUT_MS = 0, DEVELOPMENT = 1, CALLBACK_MODE = 2, FETCH_IO = 3, OUTBOX_LIMITS = 4,
            FEED_CACHE = 5, PREFETCH_TTL = 6, IMAGE_CACHE = 7, IMPRESSION_BEACONS = 8, RECORDER = 9, WARM_UP = 10;
    static native long configNew(byte[] apiKey);
    static native void configFree(long config);
    static native int configSetString(long config, int option, byte[] value);
    static native int configSetNumbers(long config, int option, long a, long b);
    static native int configSetViewability(long config, double minFraction, long minMs);
    static native int configSetLogHandler(long config, Object handler, int minLevel);
    static native int configSetTransport(long config, Object transport);

    static native long sdkStart(long config, int[] status);
    static native void sdkSetShutdownTimeout(long sdk, int timeoutMs);
    static native void sdkShutdown(long sdk);
    static native int sdkSetUserIdentity(long sdk, byte[] id);
    static native int sdkClearUserIdentity(long sdk);
    static native int sdkDispatch(long sdk, int max);
    static native int sdkDispatchFd(long sdk);
    static native int sdkAwaitDispatch(long sdk, int timeoutMs);
    static native int sdkFlush(long sdk, int timeoutMs);
    static native int sdkSetGdpr(long sdk, int applies, byte[] tcf);
    static native int sdkSetUsPrivacy(long sdk, byte[] value);
    static native int sdkSetGpp(long sdk, byte[] gpp, byte[] sections);
    static native int sdkSetChildDirected(long sdk, int value);
    static native int sdkSetLimitTracking(long sdk, int value);
    static native int sdkDeleteUserData(long sdk);
    static native int sdkFetchMoments(long sdk, long request, Object target);
    static native int sdkLoadFeed(long sdk, Object target);
    static native int sdkFetchZoneAd(long sdk, byte[] zone, Object target);
    static native int sdkFetchImage(long sdk, byte[] url, Object target);
    static native int sdkPrefetch(long sdk, long request);
    static native int sdkReportFeedEvent(long sdk, long event);
    static native int sdkReportVisibility(long sdk, long offer, double fraction);
    static native int sdkRecorderJson(long sdk, Object[] out);
    static native int sdkWarmUp(long sdk);
    static native int recorderHar(byte[] lines, Object[] out);
    static native int sdkReportZoneAdClick(long sdk, long ad);
    static native long sdkOfferDetailsScreen(long sdk, long offer);
    static native long sdkOfferGroupScreen(long sdk, long group);
    static native long sdkMomentsScreen(long sdk, long response);
    static native int sdkGetStats(long sdk, long[] out);
    static native int storageInspect(byte[] dir, byte[] key, long[] out);

    static final int LOYALTYBOOST = 0, CREATIVE = 1, CAMPAIGN_ID = 2, PAYLOAD = 3;
    static native long requestNew();
    static native void requestFree(long request);
    static native int requestSet(long request, int option, byte[] first, byte[] second);
    static native int requestSetDevelopment(long request, int enabled);

    static native long responseRetain(long response);
    static native void responseRelease(long response);
    static native long responseOfferCount(long response);
    static native long responseOfferAt(long response, long index);
    static native byte[] responseStyle(long response, byte[] path);
    static native byte[] responsePrivacyUrl(long response);

    static final int OFFER_ID = 0, OFFER_TITLE = 1, OFFER_DESCRIPTION = 2, OFFER_IMAGE_URL = 3, OFFER_CLICK_URL = 4,
            OFFER_CTA_YES = 5, OFFER_CTA_NO = 6, OFFER_TERMS_HTML = 7, OFFER_JSON = 8, OFFER_PIXEL_URL = 9,
            OFFER_ADV_PIXEL_URL = 10, OFFER_CLOSE_BEACON_URL = 11, OFFER_NO_THANKS_BEACON_URL = 12;
    static native byte[] offerString(long offer, int which);
    static native byte[] offerField(long offer, byte[] key);
    static native long offerCreativeCount(long offer);
    static native long offerCreativeAt(long offer, long index);
    static native byte[] creativeUrl(long creative);
    static native byte[] creativeType(long creative);
    static native long creativeWidth(long creative);
    static native long creativeHeight(long creative);
    static native int creativeIsPrimary(long creative);

    static native long feedRetain(long feed);
    static native void feedRelease(long feed);
    static native byte[] feedId(long feed);
    static native int feedIsCached(long feed);
    static native long feedAgeSeconds(long feed);
    static native long feedGroupCount(long feed);
    static native long feedGroupAt(long feed, long index);
    static native byte[] groupId(long group);
    static native byte[] groupTitle(long group);
    static native long groupOfferCount(long group);
    static native long groupOfferAt(long group, long index);

    static native long sdkOfferWall(long sdk);
    static native void wallFree(long wall);
    static native int wallLevel(long wall);
    static native long wallFeed(long wall);
    static native long wallCurrentGroup(long wall);
    static native long wallCurrentOffer(long wall);
    static native int wallReportVisibility(long wall, long group, long offer, double fraction);
    static native int wallOpenGroup(long wall, long group);
    static native int wallOpenOffer(long wall, long group, long offer);
    static native byte[] wallAccept(long wall);
    static native int wallDecline(long wall);
    static native int wallBack(long wall);
    static native int wallClose(long wall);
    static native void screenFree(long screen);
    static native long screenCurrentOffer(long screen);
    static native long screenIndex(long screen);
    static native long screenOfferCount(long screen);
    static native int screenHasNext(long screen);
    static native int screenHasPrevious(long screen);
    static native int screenShowNext(long screen);
    static native int screenShowPrevious(long screen);
    static native byte[] screenAccept(long screen);
    static native int screenDecline(long screen);
    static native int screenClose(long screen);
    static native int screenIsFinished(long screen);
    static native byte[] screenStyle(long screen, byte[] path);

    static native long eventNewWithOffer(long offer, int type);
    static native long eventNewWithGroup(long group, int type);
    static native void eventFree(long event);

    static native long zoneAdRetain(long ad);
    static native void zoneAdRelease(long ad);
    static native int zoneAdIsEnabled(long ad);
    static native byte[] zoneAdImageUrl(long ad);
    static native byte[] zoneAdLinkUrl(long ad);

    static native long imageRetain(long image);
    static native void imageRelease(long image);
    static native byte[] imageData(long image);
    static native byte[] imageContentType(long image);
    static native int imageIsFromCache(long image);

    static native byte[] httpMethod(long request);
    static native byte[] httpUrl(long request);
    static native long httpHeaderCount(long request);
    static native byte[] httpHeaderName(long request, long index);
    static native byte[] httpHeaderValue(long request, long index);
    static native byte[] httpBody(long request);
    static native long httpTimeoutMs(long request);
    static native int httpComplete(long request, int status, byte[][] lines, byte[] body);
    static native int httpFail(long request, byte[] message);
}
