"""The C declarations of blinkengage.h as ctypes sees them: one place that must match the header."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from typing import Any

from ctypes import POINTER, c_char_p, c_int, c_size_t, c_uint32, c_uint64, c_void_p


class be_error(ctypes.Structure):
    _fields_ = [("domain", c_char_p), ("code", c_int), ("message", c_char_p), ("http_status", c_int)]


class be_stats(ctypes.Structure):
    _fields_ = [("struct_size", c_uint32)] + [
        (name, c_uint64)
        for name in (
            "requests_sent", "beacons_queued", "beacons_delivered", "beacons_dropped", "events_queued",
            "events_delivered", "events_dropped", "dropped_rejected", "dropped_expired", "dropped_overflow",
            "corrupt_records", "queue_depth", "dropped_privacy", "prefetch_hits", "image_requests",
            "image_memory_hits", "image_disk_hits", "image_revalidations", "image_shared",
            "viewable_impressions", "crash_loop_mode", "storage_refused", "storage_format_held",
            "reports_migrated", "reports_unrecoverable", "feed_events_refused",
        )
    ]


class be_storage_info(ctypes.Structure):
    _fields_ = [("struct_size", c_uint32)] + [
        (name, c_uint64)
        for name in ("beacons_queued", "events_queued", "oldest_item_age_s", "database_bytes", "image_cache_bytes",
                     "image_cache_files")
    ] + [("has_identity", c_int)]


LOG_FN = ctypes.CFUNCTYPE(None, c_int, c_char_p, c_void_p)
MOMENTS_CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, POINTER(be_error), c_void_p)
FEED_CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, POINTER(be_error), c_void_p)
ZONE_AD_CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, POINTER(be_error), c_void_p)
IMAGE_CALLBACK = ctypes.CFUNCTYPE(None, c_void_p, POINTER(be_error), c_void_p)

# name: (result type, argument types)
_SIGNATURES = {
    "be_version": (c_char_p, []),
    "be_status_string": (c_char_p, [c_int]),
    "be_last_error_message": (c_char_p, []),
    "be_config_new": (c_void_p, [c_char_p]),
    "be_config_free": (None, [c_void_p]),
    "be_config_set_moments_url": (c_int, [c_void_p, c_char_p]),
    "be_config_set_engage_url": (c_int, [c_void_p, c_char_p]),
    "be_config_set_zone_ad_url": (c_int, [c_void_p, c_char_p]),
    "be_config_set_storage_dir": (c_int, [c_void_p, c_char_p]),
    "be_config_set_user_agent": (c_int, [c_void_p, c_char_p]),
    "be_config_set_timeout_ms": (c_int, [c_void_p, c_uint32]),
    "be_config_set_development": (c_int, [c_void_p, c_int]),
    "be_config_set_callback_mode": (c_int, [c_void_p, c_int]),
    "be_config_set_fetch_io": (c_int, [c_void_p, c_int]),
    "be_config_set_viewability": (c_int, [c_void_p, ctypes.c_double, c_uint32]),
    "be_config_set_impression_beacons": (c_int, [c_void_p, c_int]),
    "be_config_set_warm_up_at_start": (c_int, [c_void_p, c_int]),
    "be_config_set_log_handler": (c_int, [c_void_p, LOG_FN, c_int, c_void_p]),
    "be_sdk_start": (c_int, [c_void_p, POINTER(c_void_p)]),
    "be_sdk_set_user_identity": (c_int, [c_void_p, c_char_p]),
    "be_sdk_clear_user_identity": (c_int, [c_void_p]),
    "be_sdk_dispatch": (c_int, [c_void_p, c_int]),
    "be_sdk_dispatch_fd": (c_int, [c_void_p]),
    "be_sdk_flush": (c_int, [c_void_p, c_uint32]),
    "be_sdk_shutdown": (None, [c_void_p, c_uint32]),
    "be_sdk_get_stats": (c_int, [c_void_p, POINTER(be_stats)]),
    "be_config_set_feed_cache": (c_int, [c_void_p, c_uint32]),
    "be_config_set_prefetch_ttl_s": (c_int, [c_void_p, c_uint32]),
    "be_sdk_set_gdpr": (c_int, [c_void_p, c_int, c_char_p]),
    "be_sdk_set_us_privacy": (c_int, [c_void_p, c_char_p]),
    "be_sdk_set_gpp": (c_int, [c_void_p, c_char_p, c_char_p]),
    "be_sdk_set_child_directed": (c_int, [c_void_p, c_int]),
    "be_sdk_set_limit_tracking": (c_int, [c_void_p, c_int]),
    "be_sdk_delete_user_data": (c_int, [c_void_p]),
    "be_sdk_prefetch_moments_offers": (c_int, [c_void_p, c_void_p]),
    "be_offer_feed_is_cached": (c_int, [c_void_p]),
    "be_offer_feed_age_s": (c_uint32, [c_void_p]),
    "be_moments_request_new": (c_void_p, []),
    "be_moments_request_free": (None, [c_void_p]),
    "be_moments_request_set_loyaltyboost": (c_int, [c_void_p, c_char_p]),
    "be_moments_request_set_creative": (c_int, [c_void_p, c_char_p]),
    "be_moments_request_set_campaign_id": (c_int, [c_void_p, c_char_p]),
    "be_moments_request_set_development": (c_int, [c_void_p, c_int]),
    "be_moments_request_set_payload": (c_int, [c_void_p, c_char_p, c_char_p]),
    "be_sdk_fetch_moments_offers": (c_int, [c_void_p, c_void_p, MOMENTS_CALLBACK, c_void_p]),
    "be_moments_response_retain": (c_void_p, [c_void_p]),
    "be_moments_response_release": (None, [c_void_p]),
    "be_moments_response_offer_count": (c_size_t, [c_void_p]),
    "be_moments_response_offer_at": (c_void_p, [c_void_p, c_size_t]),
    "be_moments_response_style": (c_char_p, [c_void_p, c_char_p]),
    "be_moments_response_privacy_url": (c_char_p, [c_void_p]),
    "be_offer_id": (c_char_p, [c_void_p]),
    "be_offer_title": (c_char_p, [c_void_p]),
    "be_offer_description": (c_char_p, [c_void_p]),
    "be_offer_image_url": (c_char_p, [c_void_p]),
    "be_offer_click_url": (c_char_p, [c_void_p]),
    "be_offer_pixel_url": (c_char_p, [c_void_p]),
    "be_offer_adv_pixel_url": (c_char_p, [c_void_p]),
    "be_offer_close_beacon_url": (c_char_p, [c_void_p]),
    "be_offer_no_thanks_beacon_url": (c_char_p, [c_void_p]),
    "be_offer_cta_yes": (c_char_p, [c_void_p]),
    "be_offer_cta_no": (c_char_p, [c_void_p]),
    "be_offer_terms_html": (c_char_p, [c_void_p]),
    "be_offer_field": (c_char_p, [c_void_p, c_char_p]),
    "be_offer_json": (c_char_p, [c_void_p]),
    "be_sdk_load_offer_feed": (c_int, [c_void_p, FEED_CALLBACK, c_void_p]),
    "be_offer_feed_retain": (c_void_p, [c_void_p]),
    "be_offer_feed_release": (None, [c_void_p]),
    "be_offer_feed_id": (c_char_p, [c_void_p]),
    "be_offer_feed_group_count": (c_size_t, [c_void_p]),
    "be_offer_feed_group_at": (c_void_p, [c_void_p, c_size_t]),
    "be_offer_group_id": (c_char_p, [c_void_p]),
    "be_offer_group_title": (c_char_p, [c_void_p]),
    "be_offer_group_offer_count": (c_size_t, [c_void_p]),
    "be_offer_group_offer_at": (c_void_p, [c_void_p, c_size_t]),
    "be_sdk_offer_details_screen": (c_void_p, [c_void_p, c_void_p]),
    "be_sdk_offer_group_screen": (c_void_p, [c_void_p, c_void_p]),
    "be_sdk_moments_screen": (c_void_p, [c_void_p, c_void_p]),
    "be_offer_screen_free": (None, [c_void_p]),
    "be_offer_screen_current_offer": (c_void_p, [c_void_p]),
    "be_offer_screen_index": (c_size_t, [c_void_p]),
    "be_offer_screen_offer_count": (c_size_t, [c_void_p]),
    "be_offer_screen_has_next": (c_int, [c_void_p]),
    "be_offer_screen_has_previous": (c_int, [c_void_p]),
    "be_offer_screen_show_next": (c_int, [c_void_p]),
    "be_offer_screen_show_previous": (c_int, [c_void_p]),
    "be_offer_screen_accept": (c_char_p, [c_void_p]),
    "be_offer_screen_decline": (c_int, [c_void_p]),
    "be_offer_screen_close": (c_int, [c_void_p]),
    "be_offer_screen_is_finished": (c_int, [c_void_p]),
    "be_offer_screen_style": (c_char_p, [c_void_p, c_char_p]),
    "be_offer_feed_event_new_with_offer": (c_void_p, [c_void_p, c_int]),
    "be_offer_feed_event_new_with_group": (c_void_p, [c_void_p, c_int]),
    "be_offer_feed_event_free": (None, [c_void_p]),
    "be_sdk_report_offer_feed_event": (c_int, [c_void_p, c_void_p]),
    "be_sdk_report_visibility": (c_int, [c_void_p, c_void_p, ctypes.c_double]),
    "be_config_set_recorder": (c_int, [c_void_p, c_uint32]),
    "be_sdk_recorder_json": (c_int, [c_void_p, POINTER(c_void_p)]),
    "be_recorder_har": (c_int, [c_char_p, POINTER(c_void_p)]),
    "be_string_free": (None, [c_void_p]),
    "be_sdk_warm_up": (c_int, [c_void_p]),
    "be_config_set_image_cache": (c_int, [c_void_p, c_uint64, c_uint64]),
    "be_config_set_proxy": (c_int, [c_void_p, c_char_p]),
    "be_config_set_ca_file": (c_int, [c_void_p, c_char_p]),
    "be_config_set_pinned_public_key": (c_int, [c_void_p, c_char_p]),
    "be_storage_inspect": (c_int, [c_char_p, c_char_p, POINTER(be_storage_info)]),
    "be_sdk_fetch_zone_ad": (c_int, [c_void_p, c_char_p, ZONE_AD_CALLBACK, c_void_p]),
    "be_zone_ad_retain": (c_void_p, [c_void_p]),
    "be_zone_ad_release": (None, [c_void_p]),
    "be_zone_ad_is_enabled": (c_int, [c_void_p]),
    "be_zone_ad_image_url": (c_char_p, [c_void_p]),
    "be_zone_ad_link_url": (c_char_p, [c_void_p]),
    "be_sdk_report_zone_ad_click": (c_int, [c_void_p, c_void_p]),
    "be_sdk_fetch_image": (c_int, [c_void_p, c_char_p, IMAGE_CALLBACK, c_void_p]),
    "be_image_retain": (c_void_p, [c_void_p]),
    "be_image_release": (None, [c_void_p]),
    "be_image_data": (c_void_p, [c_void_p]),
    "be_image_size": (c_size_t, [c_void_p]),
    "be_image_content_type": (c_char_p, [c_void_p]),
    "be_image_is_from_cache": (c_int, [c_void_p]),
    "be_offer_creative_count": (c_size_t, [c_void_p]),
    "be_offer_creative_at": (c_void_p, [c_void_p, c_size_t]),
    "be_creative_url": (c_char_p, [c_void_p]),
    "be_creative_width": (c_uint32, [c_void_p]),
    "be_creative_height": (c_uint32, [c_void_p]),
    "be_creative_type": (c_char_p, [c_void_p]),
    "be_creative_is_primary": (c_int, [c_void_p]),
}


def _find_library() -> str:
    """BLINKENGAGE_LIBRARY when set (an explicit choice wins), else the copy inside this package (a wheel
    carries one), else the system's search (make install)."""
    explicit = os.environ.get("BLINKENGAGE_LIBRARY")
    if explicit:
        return explicit
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libblinkengage.so.1")
    if os.path.exists(bundled):
        return bundled
    return ctypes.util.find_library("blinkengage") or "libblinkengage.so.1"


#: The path the library was loaded from.
library_path = _find_library()


def load(path: str | None = None) -> ctypes.CDLL:
    """Loads the library (BLINKENGAGE_LIBRARY, else the system's search) and declares every function."""
    library = ctypes.CDLL(path or library_path)
    for name, (result, arguments) in _SIGNATURES.items():
        function = getattr(library, name)
        function.restype = result
        function.argtypes = arguments
    return library


lib: Any = load()
