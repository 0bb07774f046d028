"""A typed Python binding of libblinkengage over ctypes (no compiled extension).

Ownership follows the C API: objects that own a C reference (SDK, responses, feeds, screens, events) end it when
closed or collected; offers and groups keep their owner alive. Callbacks are kept referenced until the SDK has
called them. Use ``CallbackMode.DISPATCH`` (the default here) and call :meth:`SDK.dispatch` from your own thread
so that Python callbacks run where you choose, or :meth:`SDK.run_until` to wait for one.
"""

from __future__ import annotations

import ctypes
import enum
import select
import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional

from . import _native
from ._native import lib

__all__ = [
    "BlinkEngageError", "ServiceError", "CallbackMode", "FeedEventType", "Config", "SDK", "MomentsRequest",
    "MomentsResponse", "Offer", "OfferFeed", "OfferGroup", "OfferScreen", "FeedEvent", "Creative", "Image", "version",
]

MOMENTS_ERROR_DOMAIN = "BlinkEngageMoments"
OFFER_FEED_ERROR_DOMAIN = "BlinkEngageOfferFeed"
CANCELLED_ERROR_DOMAIN = "BlinkEngageCancelled"
IMAGE_ERROR_DOMAIN = "BlinkEngageImage"


class CallbackMode(enum.IntEnum):
    SDK_THREAD = 0
    DISPATCH = 1


class FeedEventType(enum.IntEnum):
    DID_APPEAR = 0
    DID_TAP = 1
    VIEW_ALL = 2


class BlinkEngageError(Exception):
    """A synchronous call failed: ``status`` is the be_status, the message the library's own."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{lib.be_status_string(status).decode()}: {message}")
        self.status = status


@dataclass(frozen=True)
class ServiceError:
    """An asynchronous failure (be_error)."""

    domain: str
    code: int
    message: str
    http_status: int

    @staticmethod
    def from_pointer(pointer) -> Optional["ServiceError"]:
        if not pointer:
            return None
        error = pointer.contents
        return ServiceError(error.domain.decode(), error.code, error.message.decode(), error.http_status)


def version() -> str:
    return lib.be_version().decode()


def _check(status: int) -> None:
    if status != 0:
        raise BlinkEngageError(status, lib.be_last_error_message().decode())


def _text(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else value.decode()


def _bytes(value: Optional[str]) -> Optional[bytes]:
    return None if value is None else value.encode()


class Config:
    """be_config: settings copied by :meth:`SDK.start`."""

    def __init__(self, api_key: str) -> None:
        self._handle = lib.be_config_new(api_key.encode())
        if not self._handle:
            raise BlinkEngageError(-1, lib.be_last_error_message().decode())
        self._log_handler = None  # keeps the ctypes callback alive as long as the config may use it

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_config_free(self._handle)
            self._handle = None

    def feed_cache(self, max_age_s: int) -> "Config":
        """Answers failed feed loads with the stored feed when younger than `max_age_s` (0 turns it off)."""
        _check(lib.be_config_set_feed_cache(self._handle, max_age_s))
        return self

    def image_cache(self, memory_bytes: int, disk_bytes: int) -> "Config":
        """Limits of the image caches in bytes (0 turns one off); defaults 16 MiB and 64 MiB."""
        _check(lib.be_config_set_image_cache(self._handle, memory_bytes, disk_bytes))
        return self

    def prefetch_ttl_s(self, seconds: int) -> "Config":
        _check(lib.be_config_set_prefetch_ttl_s(self._handle, seconds))
        return self

    def moments_url(self, url: str) -> "Config":
        _check(lib.be_config_set_moments_url(self._handle, url.encode()))
        return self

    def engage_url(self, url: str) -> "Config":
        _check(lib.be_config_set_engage_url(self._handle, url.encode()))
        return self

    def zone_ad_url(self, template: str) -> "Config":
        _check(lib.be_config_set_zone_ad_url(self._handle, template.encode()))
        return self

    def storage_dir(self, path: str) -> "Config":
        _check(lib.be_config_set_storage_dir(self._handle, path.encode()))
        return self

    def timeout_ms(self, milliseconds: int) -> "Config":
        _check(lib.be_config_set_timeout_ms(self._handle, milliseconds))
        return self

    def development(self, enabled: bool) -> "Config":
        _check(lib.be_config_set_development(self._handle, int(enabled)))
        return self

    def callback_mode(self, mode: CallbackMode) -> "Config":
        _check(lib.be_config_set_callback_mode(self._handle, int(mode)))
        return self

    def log_handler(self, handler: Optional[Callable[[int, str], None]], min_level: int = 1) -> "Config":
        """``handler(level, message)`` runs on whichever thread logs; it must not call the library."""
        if handler is None:
            self._log_handler = None
            _check(lib.be_config_set_log_handler(self._handle, _native.LOG_FN(), min_level, None))
            return self
        self._log_handler = _native.LOG_FN(lambda level, message, _: handler(level, message.decode()))
        _check(lib.be_config_set_log_handler(self._handle, self._log_handler, min_level, None))
        return self


class MomentsRequest:
    """be_moments_request: parameters of a Moments fetch, validated by each setter."""

    def __init__(self, placement: Optional[str] = None, **payload: str) -> None:
        self._handle = lib.be_moments_request_new()
        if placement is not None:
            self.payload("placement", placement)
        for key, value in payload.items():
            self.payload(key, value)

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_moments_request_free(self._handle)
            self._handle = None

    def payload(self, key: str, value: Optional[str]) -> "MomentsRequest":
        _check(lib.be_moments_request_set_payload(self._handle, key.encode(), _bytes(value)))
        return self

    def loyaltyboost(self, value: Optional[str]) -> "MomentsRequest":
        _check(lib.be_moments_request_set_loyaltyboost(self._handle, _bytes(value)))
        return self

    def creative(self, value: Optional[str]) -> "MomentsRequest":
        _check(lib.be_moments_request_set_creative(self._handle, _bytes(value)))
        return self

    def campaign_id(self, value: Optional[str]) -> "MomentsRequest":
        _check(lib.be_moments_request_set_campaign_id(self._handle, _bytes(value)))
        return self

    def development(self, enabled: bool) -> "MomentsRequest":
        _check(lib.be_moments_request_set_development(self._handle, int(enabled)))
        return self


class Offer:
    """be_offer: borrowed from its feed or response, which this object keeps alive."""

    def __init__(self, handle: int, owner: object) -> None:
        self._handle = handle
        self._owner = owner

    def _get(self, getter) -> Optional[str]:
        return _text(getter(self._handle))

    id = property(lambda self: self._get(lib.be_offer_id))
    title = property(lambda self: self._get(lib.be_offer_title))
    description = property(lambda self: self._get(lib.be_offer_description))
    image_url = property(lambda self: self._get(lib.be_offer_image_url))
    click_url = property(lambda self: self._get(lib.be_offer_click_url))
    cta_yes = property(lambda self: self._get(lib.be_offer_cta_yes))
    cta_no = property(lambda self: self._get(lib.be_offer_cta_no))
    terms_html = property(lambda self: self._get(lib.be_offer_terms_html))
    json = property(lambda self: self._get(lib.be_offer_json))

    def field(self, key: str) -> Optional[str]:
        return _text(lib.be_offer_field(self._handle, key.encode()))

    @property
    def creatives(self) -> list["Creative"]:
        return [Creative(lib.be_offer_creative_at(self._handle, i), self)
                for i in range(lib.be_offer_creative_count(self._handle))]


@dataclass(frozen=True)
class Creative:
    """be_creative: one image of an offer, read once (fetch its URL with :meth:`SDK.fetch_image`)."""

    url: Optional[str]
    width: int
    height: int
    type: Optional[str]
    is_primary: bool

    def __init__(self, handle: int, owner: Offer) -> None:
        object.__setattr__(self, "url", _text(lib.be_creative_url(handle)))
        object.__setattr__(self, "width", lib.be_creative_width(handle))
        object.__setattr__(self, "height", lib.be_creative_height(handle))
        object.__setattr__(self, "type", _text(lib.be_creative_type(handle)))
        object.__setattr__(self, "is_primary", bool(lib.be_creative_is_primary(handle)))


@dataclass(frozen=True)
class Image:
    """A fetched image: its bytes as served (copied out of the be_image), Content-Type, and whether the SDK's
    cache answered."""

    data: bytes
    content_type: str
    from_cache: bool

    @staticmethod
    def from_handle(handle: int) -> "Image":
        size = lib.be_image_size(handle)
        data = ctypes.string_at(lib.be_image_data(handle), size) if size else b""
        return Image(data, lib.be_image_content_type(handle).decode(), bool(lib.be_image_is_from_cache(handle)))


class MomentsResponse:
    """be_moments_response, retained while this object lives."""

    def __init__(self, handle: int) -> None:
        self._handle = lib.be_moments_response_retain(handle)

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_moments_response_release(self._handle)
            self._handle = None

    @property
    def offers(self) -> list[Offer]:
        count = lib.be_moments_response_offer_count(self._handle)
        return [Offer(lib.be_moments_response_offer_at(self._handle, i), self) for i in range(count)]

    def style(self, path: str) -> Optional[str]:
        return _text(lib.be_moments_response_style(self._handle, path.encode()))

    @property
    def privacy_url(self) -> Optional[str]:
        return _text(lib.be_moments_response_privacy_url(self._handle))


class OfferGroup:
    """be_offer_group: borrowed from its feed, which this object keeps alive."""

    def __init__(self, handle: int, feed: "OfferFeed") -> None:
        self._handle = handle
        self._feed = feed

    id = property(lambda self: _text(lib.be_offer_group_id(self._handle)))
    title = property(lambda self: _text(lib.be_offer_group_title(self._handle)))

    @property
    def offers(self) -> list[Offer]:
        count = lib.be_offer_group_offer_count(self._handle)
        return [Offer(lib.be_offer_group_offer_at(self._handle, i), self._feed) for i in range(count)]


class OfferFeed:
    """be_offer_feed, retained while this object lives."""

    def __init__(self, handle: int) -> None:
        self._handle = lib.be_offer_feed_retain(handle)

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_offer_feed_release(self._handle)
            self._handle = None

    id = property(lambda self: _text(lib.be_offer_feed_id(self._handle)))

    @property
    def is_cached(self) -> bool:
        """Whether the feed came from the feed cache because a load failed."""
        return bool(lib.be_offer_feed_is_cached(self._handle))

    @property
    def age_s(self) -> int:
        """A cached feed's age in seconds; 0 for a fresh one."""
        return int(lib.be_offer_feed_age_s(self._handle))

    @property
    def groups(self) -> list[OfferGroup]:
        count = lib.be_offer_feed_group_count(self._handle)
        return [OfferGroup(lib.be_offer_feed_group_at(self._handle, i), self) for i in range(count)]


class OfferScreen:
    """be_offer_screen: the SDK owns the state and the beacons, the host draws :attr:`current_offer`."""

    def __init__(self, handle: int) -> None:
        self._handle = handle

    def close_handle(self) -> None:
        if self._handle:
            lib.be_offer_screen_free(self._handle)
            self._handle = None

    __del__ = close_handle

    @property
    def current_offer(self) -> Optional[Offer]:
        handle = lib.be_offer_screen_current_offer(self._handle)
        return Offer(handle, self) if handle else None

    index = property(lambda self: lib.be_offer_screen_index(self._handle))
    offer_count = property(lambda self: lib.be_offer_screen_offer_count(self._handle))
    has_next = property(lambda self: bool(lib.be_offer_screen_has_next(self._handle)))
    has_previous = property(lambda self: bool(lib.be_offer_screen_has_previous(self._handle)))
    is_finished = property(lambda self: bool(lib.be_offer_screen_is_finished(self._handle)))

    def show_next(self) -> None:
        _check(lib.be_offer_screen_show_next(self._handle))

    def show_previous(self) -> None:
        _check(lib.be_offer_screen_show_previous(self._handle))

    def accept(self) -> Optional[str]:
        """Returns the click URL to open (None when the offer has none) and moves on."""
        return _text(lib.be_offer_screen_accept(self._handle))

    def decline(self) -> None:
        _check(lib.be_offer_screen_decline(self._handle))

    def close(self) -> None:
        _check(lib.be_offer_screen_close(self._handle))

    def style(self, path: str) -> Optional[str]:
        return _text(lib.be_offer_screen_style(self._handle, path.encode()))


class FeedEvent:
    """be_offer_feed_event: copies ids and positions when created."""

    def __init__(self, target: Offer | OfferGroup, kind: FeedEventType) -> None:
        if isinstance(target, OfferGroup):
            self._handle = lib.be_offer_feed_event_new_with_group(target._handle, int(kind))
        else:
            self._handle = lib.be_offer_feed_event_new_with_offer(target._handle, int(kind))
        if not self._handle:
            raise BlinkEngageError(-1, lib.be_last_error_message().decode())

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_offer_feed_event_free(self._handle)
            self._handle = None


class SDK:
    """be_sdk. Use as a context manager, or call :meth:`shutdown`."""

    def __init__(self, handle: int, mode: CallbackMode) -> None:
        self._handle = handle
        self._mode = mode
        # ctypes callback objects the SDK may still call, by token; dropped once called.
        self._pending: dict[int, object] = {}
        self._pending_lock = threading.Lock()
        self._next_token = 0

    @staticmethod
    def start(config: Config, mode: CallbackMode = CallbackMode.DISPATCH) -> "SDK":
        config.callback_mode(mode)
        handle = ctypes.c_void_p()
        _check(lib.be_sdk_start(config._handle, ctypes.byref(handle)))
        return SDK(handle.value, mode)

    def __enter__(self) -> "SDK":
        return self

    def __exit__(self, *exc_info) -> None:
        self.shutdown()

    def shutdown(self, timeout_ms: int = 2000) -> None:
        """Runs every callback still owed (here, in dispatch mode), then frees the SDK."""
        if self._handle:
            lib.be_sdk_shutdown(self._handle, timeout_ms)
            self._handle = None
            with self._pending_lock:
                self._pending.clear()

    # -- callbacks --------------------------------------------------------------------------------------------

    def _register(self, kind, on_result: Callable) -> tuple[object, int]:
        """A ctypes callback for `on_result`, kept alive until the SDK calls it (exactly once)."""
        with self._pending_lock:
            self._next_token += 1
            token = self._next_token

        def trampoline(handle, error, _user_data):
            with self._pending_lock:
                self._pending.pop(token, None)
            on_result(handle, ServiceError.from_pointer(error))

        callback = kind(trampoline)
        with self._pending_lock:
            self._pending[token] = callback
        return callback, token

    def _forget(self, token: int) -> None:
        with self._pending_lock:
            self._pending.pop(token, None)

    def dispatch(self, max_callbacks: int = 0) -> int:
        """Dispatch mode: runs queued callbacks on this thread; returns how many ran."""
        return lib.be_sdk_dispatch(self._handle, max_callbacks)

    @property
    def dispatch_fd(self) -> int:
        return lib.be_sdk_dispatch_fd(self._handle)

    def run_until(self, done: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Dispatch mode: polls the descriptor and dispatches until `done()` or the timeout."""
        deadline = time.monotonic() + timeout
        while not done():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            ready, _, _ = select.select([self.dispatch_fd], [], [], min(remaining, 0.1))
            if ready:
                self.dispatch()
        return True

    # -- calls ----------------------------------------------------------------------------------------------

    def fetch_moments_offers(
        self, request: MomentsRequest, on_result: Callable[[Optional[MomentsResponse], Optional[ServiceError]], None]
    ) -> None:
        callback, token = self._register(
            _native.MOMENTS_CALLBACK, lambda handle, error: on_result(MomentsResponse(handle) if handle else None, error))
        status = lib.be_sdk_fetch_moments_offers(self._handle, request._handle, callback, None)
        if status != 0:
            self._forget(token)  # a refused call never calls back
        _check(status)

    def load_offer_feed(self, on_result: Callable[[Optional[OfferFeed], Optional[ServiceError]], None]) -> None:
        callback, token = self._register(
            _native.FEED_CALLBACK, lambda handle, error: on_result(OfferFeed(handle) if handle else None, error))
        status = lib.be_sdk_load_offer_feed(self._handle, callback, None)
        if status != 0:
            self._forget(token)
        _check(status)

    def fetch_image(self, url: str, on_result: Callable[[Optional[Image], Optional[ServiceError]], None]) -> None:
        """Fetches an image through the SDK's caches (memory, then disk, then the network)."""
        callback, token = self._register(
            _native.IMAGE_CALLBACK, lambda handle, error: on_result(Image.from_handle(handle) if handle else None, error))
        status = lib.be_sdk_fetch_image(self._handle, url.encode(), callback, None)
        if status != 0:
            self._forget(token)
        _check(status)

    def prefetch_moments_offers(self, request: MomentsRequest) -> None:
        """Fetches now; a later fetch of an equal request within the TTL is answered from it, once."""
        _check(lib.be_sdk_prefetch_moments_offers(self._handle, request._handle))

    # -- privacy -------------------------------------------------------------------------------------------

    def set_gdpr(self, applies: int, tcf_string: Optional[str] = None) -> None:
        """applies: -1 unknown, 0 or 1; tcf_string: the TCF v2 consent string (base64url) or None."""
        _check(lib.be_sdk_set_gdpr(self._handle, applies, _bytes(tcf_string)))

    def set_us_privacy(self, us_privacy: Optional[str]) -> None:
        _check(lib.be_sdk_set_us_privacy(self._handle, _bytes(us_privacy)))

    def set_gpp(self, gpp_string: Optional[str], section_ids: Optional[str] = None) -> None:
        _check(lib.be_sdk_set_gpp(self._handle, _bytes(gpp_string), _bytes(section_ids)))

    def set_child_directed(self, child_directed: int) -> None:
        _check(lib.be_sdk_set_child_directed(self._handle, child_directed))

    def set_limit_tracking(self, limited: bool) -> None:
        _check(lib.be_sdk_set_limit_tracking(self._handle, 1 if limited else 0))

    def delete_user_data(self) -> None:
        """Forgets the identity, token and device id; deletes the feed cache, prefetches and queued items."""
        _check(lib.be_sdk_delete_user_data(self._handle))

    def set_user_identity(self, user_id: str) -> None:
        _check(lib.be_sdk_set_user_identity(self._handle, user_id.encode()))

    def clear_user_identity(self) -> None:
        _check(lib.be_sdk_clear_user_identity(self._handle))

    def offer_details_screen(self, offer: Offer) -> Optional[OfferScreen]:
        handle = lib.be_sdk_offer_details_screen(self._handle, offer._handle)
        return OfferScreen(handle) if handle else None

    def offer_group_screen(self, group: OfferGroup) -> Optional[OfferScreen]:
        handle = lib.be_sdk_offer_group_screen(self._handle, group._handle)
        return OfferScreen(handle) if handle else None

    def moments_screen(self, response: MomentsResponse) -> OfferScreen:
        handle = lib.be_sdk_moments_screen(self._handle, response._handle)
        if not handle:
            raise BlinkEngageError(-1, lib.be_last_error_message().decode())
        return OfferScreen(handle)

    def report(self, event: FeedEvent) -> None:
        _check(lib.be_sdk_report_offer_feed_event(self._handle, event._handle))

    def flush(self, timeout_ms: int = 10000) -> None:
        _check(lib.be_sdk_flush(self._handle, timeout_ms))

    def stats(self) -> dict[str, int]:
        stats = _native.be_stats()
        stats.struct_size = ctypes.sizeof(stats)
        _check(lib.be_sdk_get_stats(self._handle, ctypes.byref(stats)))
        return {name: getattr(stats, name) for name, _ in _native.be_stats._fields_[1:]}
