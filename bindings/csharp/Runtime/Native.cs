// The header's declarations, one for one: every function, constant and struct of include/blinkengage.h.
// Tests/HeaderCheck.cs holds them to the header (names, parameter kinds, constants, struct offsets), so this
// file cannot drift from it unnoticed. Everything here is internal: hosts use the classes of this namespace.
//
// Marshalling rules, the same everywhere:
//  - a string to the library is a NUL-terminated UTF-8 byte[] (Utf8.Encode), never the runtime's own string
//    marshalling, so a NUL inside a string or a lone surrogate is refused in managed code;
//  - a string from the library is an IntPtr read by Utf8.Decode (borrowed: copied before the owner can go);
//  - a handle the host owns is a SafeHandle, so a call on a disposed one throws ObjectDisposedException and a
//    handle is never released while a call on it is running; borrowed objects (offers, groups, creatives, a
//    transport's request) are IntPtr, read only while their owner is held (Owner.Borrow);
//  - callbacks are the delegate types below, only ever made from static methods (Callbacks.cs).
using System;
using System.Runtime.InteropServices;

namespace BlinkEngage
{
    [StructLayout(LayoutKind.Sequential)]
    internal struct be_error
    {
        public IntPtr domain;
        public int code;
        public IntPtr message;
        public int http_status;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct be_storage_info
    {
        public uint struct_size;
        public ulong beacons_queued;
        public ulong events_queued;
        public ulong oldest_item_age_s;
        public ulong database_bytes;
        public ulong image_cache_bytes;
        public ulong image_cache_files;
        public int has_identity;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct be_stats
    {
        public uint struct_size;
        public ulong requests_sent;
        public ulong beacons_queued;
        public ulong beacons_delivered;
        public ulong beacons_dropped;
        public ulong events_queued;
        public ulong events_delivered;
        public ulong events_dropped;
        public ulong dropped_rejected;
        public ulong dropped_expired;
        public ulong dropped_overflow;
        public ulong corrupt_records;
        public ulong queue_depth;
        public ulong dropped_privacy;
        public ulong prefetch_hits;
        public ulong image_requests;
        public ulong image_memory_hits;
        public ulong image_disk_hits;
        public ulong image_revalidations;
        public ulong image_shared;
        public ulong viewable_impressions;
        public ulong crash_loop_mode;
        public ulong storage_refused;
        public ulong storage_format_held;
        public ulong reports_migrated;
        public ulong reports_unrecoverable;
        public ulong feed_events_refused;
    }

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void HttpSendFn(IntPtr request, IntPtr user_data);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void LogFn(LogLevel level, IntPtr message, IntPtr user_data);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void MomentsCallback(IntPtr response, IntPtr error, IntPtr user_data);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void OfferFeedCallback(IntPtr feed, IntPtr error, IntPtr user_data);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void ZoneAdCallback(IntPtr ad, IntPtr error, IntPtr user_data);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void ImageCallback(IntPtr image, IntPtr error, IntPtr user_data);

    internal static class Native
    {
        // The library's name as DllImport resolves it: libblinkengage.so on Linux, blinkengage.dll, and
        // libblinkengage.dylib, from the Plugins folder in Unity or the loader's search path elsewhere. Where
        // Unity links native code statically into the player (iOS, WebGL), the functions are the process's own.
#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR
        internal const string Library = "__Internal";
#else
        internal const string Library = "blinkengage";
#endif

        internal const int BE_CALLBACKS_ON_DISPATCH = 1;
        internal const int BE_CALLBACKS_ON_SDK_THREAD = 0;
        internal const string BE_CANCELLED_ERROR_DOMAIN = "BlinkEngageCancelled";
        internal const int BE_CANCELLED_ERROR_SHUTDOWN = 1;
        internal const int BE_ERR_INVALID_ARGUMENT = -1;
        internal const int BE_ERR_INVALID_STATE = -2;
        internal const int BE_ERR_IO = -4;
        internal const int BE_ERR_NOT_FOUND = -3;
        internal const int BE_ERR_NO_MEMORY = -6;
        internal const int BE_ERR_TIMEOUT = -5;
        internal const int BE_FETCH_IO_ON_DISPATCH = 1;
        internal const int BE_FETCH_IO_ON_SDK_THREAD = 0;
        internal const int BE_HTTP_MAX_BODY_BYTES = 10485760;
        internal const int BE_IMPRESSION_BEACONS_ON_APPEAR = 0;
        internal const int BE_IMPRESSION_BEACONS_ON_VIEWABLE = 1;
        internal const int BE_HTTP_MAX_HEADER_LINES = 1000;
        internal const int BE_HTTP_MAX_HEADER_LINE_BYTES = 16384;
        internal const string BE_IMAGE_ERROR_DOMAIN = "BlinkEngageImage";
        internal const int BE_IMAGE_ERROR_HTTP_STATUS = 2;
        internal const int BE_IMAGE_ERROR_INVALID_URL = 5;
        internal const int BE_IMAGE_ERROR_NETWORK = 1;
        internal const int BE_IMAGE_ERROR_NOT_AN_IMAGE = 3;
        internal const int BE_IMAGE_ERROR_TOO_LARGE = 4;
        internal const int BE_LOG_DEBUG = 0;
        internal const int BE_LOG_ERROR = 3;
        internal const int BE_LOG_INFO = 1;
        internal const int BE_LOG_WARNING = 2;
        internal const int BE_MOMENTS_ERROR_DECODING = 4;
        internal const string BE_MOMENTS_ERROR_DOMAIN = "BlinkEngageMoments";
        internal const int BE_MOMENTS_ERROR_HTTP_STATUS = 6;
        internal const int BE_MOMENTS_ERROR_INVALID_PARAMETER = 1;
        internal const int BE_MOMENTS_ERROR_INVALID_URL = 2;
        internal const int BE_MOMENTS_ERROR_NETWORK = 5;
        internal const int BE_MOMENTS_ERROR_NO_OFFERS = 3;
        internal const string BE_OFFER_FEED_ERROR_DOMAIN = "BlinkEngageOfferFeed";
        internal const int BE_OFFER_FEED_ERROR_NO_USER = 1;
        internal const int BE_OFFER_FEED_ERROR_UNAVAILABLE = 2;
        internal const int BE_OFFER_FEED_EVENT_DID_APPEAR = 0;
        internal const int BE_OFFER_FEED_EVENT_DID_TAP = 1;
        internal const int BE_OFFER_FEED_EVENT_VIEW_ALL = 2;
        internal const int BE_OFFER_WALL_LEVEL_CLOSED = 3;
        internal const int BE_OFFER_WALL_LEVEL_GROUP = 1;
        internal const int BE_OFFER_WALL_LEVEL_OFFER = 2;
        internal const int BE_OFFER_WALL_LEVEL_WALL = 0;
        internal const int BE_OK = 0;
        internal const int BE_VERSION_MAJOR = 0;
        internal const int BE_VERSION_MINOR = 2;
        internal const int BE_VERSION_PATCH = 0;
        internal const string BE_ZONE_AD_ERROR_DOMAIN = "BlinkEngageZoneAd";
        internal const int BE_ZONE_AD_ERROR_HTTP_STATUS = 3;
        internal const int BE_ZONE_AD_ERROR_MALFORMED = 1;
        internal const int BE_ZONE_AD_ERROR_NETWORK = 2;

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_version();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_status_string(Status status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_last_error_message();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern ConfigHandle be_config_new(byte[] api_key);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_config_free(IntPtr config);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_moments_url(ConfigHandle config, byte[] base_url);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_engage_url(ConfigHandle config, byte[] base_url);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_zone_ad_url(ConfigHandle config, byte[] url_template);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_storage_dir(ConfigHandle config, byte[] path);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_user_agent(ConfigHandle config, byte[] user_agent);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_timeout_ms(ConfigHandle config, uint timeout_ms);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_development(ConfigHandle config, int enabled);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_callback_mode(ConfigHandle config, CallbackMode mode);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_fetch_io(ConfigHandle config, FetchIo io);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_viewability(ConfigHandle config, double min_fraction, uint min_ms);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_impression_beacons(ConfigHandle config, ImpressionBeacons when);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_warm_up_at_start(ConfigHandle config, int enabled);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_log_handler(ConfigHandle config, LogFn fn, LogLevel min_level, IntPtr user_data);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_outbox_limits(ConfigHandle config, uint max_items, uint max_age_s);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_feed_cache(ConfigHandle config, uint max_age_s);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_prefetch_ttl_s(ConfigHandle config, uint ttl_s);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_image_cache(ConfigHandle config, ulong memory_bytes, ulong disk_bytes);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_http_transport(ConfigHandle config, HttpSendFn send, IntPtr user_data);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_proxy(ConfigHandle config, byte[] url);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_ca_file(ConfigHandle config, byte[] path);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_pinned_public_key(ConfigHandle config, byte[] pins);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_start(ConfigHandle config, out SdkHandle out_sdk);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_set_user_identity(SdkHandle sdk, byte[] pub_user_id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_clear_user_identity(SdkHandle sdk);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_sdk_dispatch(SdkHandle sdk, int max_callbacks);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_sdk_dispatch_fd(SdkHandle sdk);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_flush(SdkHandle sdk, uint timeout_ms);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_sdk_shutdown(IntPtr sdk, uint timeout_ms);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_set_gdpr(SdkHandle sdk, int applies, byte[] tcf_string);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_set_us_privacy(SdkHandle sdk, byte[] us_privacy);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_set_gpp(SdkHandle sdk, byte[] gpp_string, byte[] section_ids);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_set_child_directed(SdkHandle sdk, int child_directed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_set_limit_tracking(SdkHandle sdk, int limited);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_delete_user_data(SdkHandle sdk);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern MomentsRequestHandle be_moments_request_new();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_moments_request_free(IntPtr request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_moments_request_set_loyaltyboost(MomentsRequestHandle request, byte[] value);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_moments_request_set_creative(MomentsRequestHandle request, byte[] value);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_moments_request_set_campaign_id(MomentsRequestHandle request, byte[] campaign_id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_moments_request_set_development(MomentsRequestHandle request, int enabled);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_moments_request_set_payload(MomentsRequestHandle request, byte[] key, byte[] value);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_fetch_moments_offers(SdkHandle sdk, MomentsRequestHandle request, MomentsCallback callback, IntPtr user_data);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_prefetch_moments_offers(SdkHandle sdk, MomentsRequestHandle request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_moments_response_retain(IntPtr response);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_moments_response_release(IntPtr response);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_moments_response_offer_count(MomentsResponseHandle response);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_moments_response_offer_at(MomentsResponseHandle response, UIntPtr index);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_moments_response_style(MomentsResponseHandle response, byte[] path);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_moments_response_privacy_url(MomentsResponseHandle response);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_load_offer_feed(SdkHandle sdk, OfferFeedCallback callback, IntPtr user_data);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_feed_retain(IntPtr feed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_offer_feed_release(IntPtr feed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_feed_id(OfferFeedHandle feed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_offer_feed_is_cached(OfferFeedHandle feed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint be_offer_feed_age_s(OfferFeedHandle feed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_offer_feed_group_count(OfferFeedHandle feed);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_feed_group_at(OfferFeedHandle feed, UIntPtr index);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_group_id(IntPtr group);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_group_title(IntPtr group);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_offer_group_offer_count(IntPtr group);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_group_offer_at(IntPtr group, UIntPtr index);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OfferScreenHandle be_sdk_offer_details_screen(SdkHandle sdk, IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OfferScreenHandle be_sdk_offer_group_screen(SdkHandle sdk, IntPtr group);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OfferScreenHandle be_sdk_moments_screen(SdkHandle sdk, MomentsResponseHandle response);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_offer_screen_free(IntPtr screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_screen_current_offer(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_offer_screen_index(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_offer_screen_offer_count(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_offer_screen_has_next(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_offer_screen_has_previous(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_screen_show_next(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_screen_show_previous(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_screen_accept(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_screen_decline(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_screen_close(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_offer_screen_is_finished(OfferScreenHandle screen);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_screen_style(OfferScreenHandle screen, byte[] path);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OfferWallHandle be_sdk_offer_wall(SdkHandle sdk);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_offer_wall_free(IntPtr wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OfferWallLevel be_offer_wall_get_level(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_wall_feed(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_wall_current_group(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_wall_current_offer(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_wall_report_visibility(OfferWallHandle wall, UIntPtr groupIndex, UIntPtr offerIndex, double visibleFraction);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_wall_open_group(OfferWallHandle wall, UIntPtr groupIndex);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_wall_open_offer(OfferWallHandle wall, UIntPtr groupIndex, UIntPtr offerIndex);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_wall_accept(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_wall_decline(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_wall_back(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_offer_wall_close(OfferWallHandle wall);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OfferFeedEventHandle be_offer_feed_event_new_with_offer(IntPtr offer, OfferFeedEventType type);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OfferFeedEventHandle be_offer_feed_event_new_with_group(IntPtr group, OfferFeedEventType type);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_offer_feed_event_free(IntPtr @event);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_report_offer_feed_event(SdkHandle sdk, OfferFeedEventHandle @event);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_report_visibility(SdkHandle sdk, IntPtr offer, double visible_fraction);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_config_set_recorder(ConfigHandle config, uint max_entries);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_recorder_json(SdkHandle sdk, out IntPtr out_text);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_recorder_har(byte[] json_lines, out IntPtr out_har);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_string_free(IntPtr text);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_warm_up(SdkHandle sdk);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_id(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_title(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_description(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_image_url(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_click_url(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_pixel_url(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_adv_pixel_url(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_close_beacon_url(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_no_thanks_beacon_url(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_cta_yes(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_cta_no(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_terms_html(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_field(IntPtr offer, byte[] key);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_json(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_offer_creative_count(IntPtr offer);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_offer_creative_at(IntPtr offer, UIntPtr index);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_creative_url(IntPtr creative);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint be_creative_width(IntPtr creative);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint be_creative_height(IntPtr creative);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_creative_type(IntPtr creative);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_creative_is_primary(IntPtr creative);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_fetch_zone_ad(SdkHandle sdk, byte[] zone_id, ZoneAdCallback callback, IntPtr user_data);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_zone_ad_retain(IntPtr ad);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_zone_ad_release(IntPtr ad);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_zone_ad_is_enabled(ZoneAdHandle ad);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_zone_ad_image_url(ZoneAdHandle ad);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_zone_ad_link_url(ZoneAdHandle ad);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_report_zone_ad_click(SdkHandle sdk, ZoneAdHandle ad);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_fetch_image(SdkHandle sdk, byte[] url, ImageCallback callback, IntPtr user_data);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_image_retain(IntPtr image);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void be_image_release(IntPtr image);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_image_data(ImageHandle image);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_image_size(ImageHandle image);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_image_content_type(ImageHandle image);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int be_image_is_from_cache(ImageHandle image);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_storage_inspect(byte[] storage_dir, byte[] api_key, ref be_storage_info out_info);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_http_request_method(IntPtr request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_http_request_url(IntPtr request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_http_request_header_count(IntPtr request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_http_request_header_name(IntPtr request, UIntPtr index);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_http_request_header_value(IntPtr request, UIntPtr index);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr be_http_request_body(IntPtr request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern UIntPtr be_http_request_body_size(IntPtr request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint be_http_request_timeout_ms(IntPtr request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_http_request_complete(IntPtr request, int status, IntPtr[] header_lines, UIntPtr header_count, byte[] body, UIntPtr body_size);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_http_request_fail(IntPtr request, byte[] message);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status be_sdk_get_stats(SdkHandle sdk, ref be_stats out_stats);
    }
}
