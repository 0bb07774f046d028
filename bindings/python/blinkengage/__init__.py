"""A typed Python binding of libblinkengage over ctypes (no compiled extension).

Ownership follows the C API: objects that own a C reference (SDK, responses, feeds, screens, events) end it when
closed or collected; offers and groups keep their owner alive. Callbacks are kept referenced until the SDK has
called them. Use ``CallbackMode.DISPATCH`` (the default here) and call :meth:`SDK.dispatch` from your own thread
so that Python callbacks run where you choose, or :meth:`SDK.run_until` to wait for one.
"""

from __future__ import annotations

import asyncio
import ctypes
import enum
import select
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, TypeVar

from . import _native
from ._native import lib

__all__ = [
    "BlinkEngageError", "ServiceError", "ServiceFailure", "CallbackMode", "FetchIO", "FeedEventType", "Config", "SDK", "AsyncSDK",
    "MomentsRequest", "MomentsResponse", "Offer", "OfferFeed", "OfferGroup", "OfferScreen", "FeedEvent", "Creative",
    "Image", "ZoneAd", "ResultCallback", "storage_info", "version",
]

MOMENTS_ERROR_DOMAIN = "BlinkEngageMoments"
OFFER_FEED_ERROR_DOMAIN = "BlinkEngageOfferFeed"
CANCELLED_ERROR_DOMAIN = "BlinkEngageCancelled"
IMAGE_ERROR_DOMAIN = "BlinkEngageImage"
ZONE_AD_ERROR_DOMAIN = "BlinkEngageZoneAd"

T = TypeVar("T")
#: What every callback receives: the result or the error, exactly one of them not None.
ResultCallback = Callable[[Optional[T], Optional["ServiceError"]], None]


class CallbackMode(enum.IntEnum):
    SDK_THREAD = 0
    DISPATCH = 1


class FetchIO(enum.IntEnum):
    """Where offer fetches do their network I/O (be_fetch_io): DISPATCH needs CallbackMode.DISPATCH."""
    SDK_THREAD = 0
    DISPATCH = 1


class FeedEventType(enum.IntEnum):
    DID_APPEAR = 0
    DID_TAP = 1
    VIEW_ALL = 2


class BlinkEngageError(Exception):
    """A synchronous call failed: ``status`` is the be_status, the message the library's own."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{_text(lib.be_status_string(status))}: {message}")
        self.status = status


@dataclass(frozen=True)
class ServiceError:
    """An asynchronous failure (be_error)."""

    domain: str
    code: int
    message: str
    http_status: int

    @staticmethod
    def from_pointer(pointer: Any) -> Optional["ServiceError"]:
        if not pointer:
            return None
        error = pointer.contents
        return ServiceError(error.domain.decode(), error.code, error.message.decode(), error.http_status)


def version() -> str:
    return str(lib.be_version().decode())


def _last_error() -> str:
    return _text(lib.be_last_error_message()) or ""


def _check(status: int) -> None:
    if status != 0:
        raise BlinkEngageError(status, _last_error())


def _text(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else value.decode()


def _bytes(value: Optional[str]) -> Optional[bytes]:
    return None if value is None else value.encode()


class Config:
    """be_config: settings copied by :meth:`SDK.start`."""

    def __init__(self, api_key: str) -> None:
        self._handle: Optional[int] = lib.be_config_new(api_key.encode())
        if not self._handle:
            raise BlinkEngageError(-1, _last_error())
        self._log_handler: Optional[Any] = None  # keeps the ctypes callback alive as long as the config may use it

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

    def proxy(self, url: Optional[str]) -> "Config":
        """An http://, https:// or socks5h:// proxy for every request; None connects directly."""
        _check(lib.be_config_set_proxy(self._handle, _bytes(url)))
        return self

    def ca_file(self, path: Optional[str]) -> "Config":
        """A PEM file of CAs trusted instead of the system's; None returns to the system's."""
        _check(lib.be_config_set_ca_file(self._handle, _bytes(path)))
        return self

    def pinned_public_key(self, pins: Optional[str]) -> "Config":
        """``sha256//BASE64`` hashes (";"-separated) the service's key must match; None pins nothing."""
        _check(lib.be_config_set_pinned_public_key(self._handle, _bytes(pins)))
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

    def fetch_io(self, io: FetchIO) -> "Config":
        """With FetchIO.DISPATCH, offer fetches send from the fetch call and read their answers where the SDK
        dispatches (with AsyncSDK, on the running loop's thread): no thread between the socket and the callback."""
        _check(lib.be_config_set_fetch_io(self._handle, int(io)))
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
        self._handle: Optional[int] = lib.be_moments_request_new()
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

    @property
    def id(self) -> str:
        return str(_text(lib.be_offer_id(self._handle)) or "")
    @property
    def title(self) -> Optional[str]:
        return _text(lib.be_offer_title(self._handle))

    @property
    def description(self) -> Optional[str]:
        return _text(lib.be_offer_description(self._handle))

    @property
    def image_url(self) -> Optional[str]:
        return _text(lib.be_offer_image_url(self._handle))

    @property
    def click_url(self) -> Optional[str]:
        return _text(lib.be_offer_click_url(self._handle))

    @property
    def cta_yes(self) -> Optional[str]:
        return _text(lib.be_offer_cta_yes(self._handle))

    @property
    def cta_no(self) -> Optional[str]:
        return _text(lib.be_offer_cta_no(self._handle))

    @property
    def terms_html(self) -> Optional[str]:
        return _text(lib.be_offer_terms_html(self._handle))

    @property
    def json(self) -> Optional[str]:
        return _text(lib.be_offer_json(self._handle))

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
        object.__setattr__(self, "width", int(lib.be_creative_width(handle)))
        object.__setattr__(self, "height", int(lib.be_creative_height(handle)))
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
        size = int(lib.be_image_size(handle))
        data = ctypes.string_at(lib.be_image_data(handle), size) if size else b""
        return Image(data, _text(lib.be_image_content_type(handle)) or "", bool(lib.be_image_is_from_cache(handle)))


class ZoneAd:
    """be_zone_ad, retained while this object lives."""

    def __init__(self, handle: int) -> None:
        self._handle: Optional[int] = lib.be_zone_ad_retain(handle)

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_zone_ad_release(self._handle)
            self._handle = None

    @property
    def is_enabled(self) -> bool:
        return bool(lib.be_zone_ad_is_enabled(self._handle))

    @property
    def image_url(self) -> Optional[str]:
        """Fetch it with :meth:`SDK.fetch_image`."""
        return _text(lib.be_zone_ad_image_url(self._handle))

    @property
    def link_url(self) -> Optional[str]:
        return _text(lib.be_zone_ad_link_url(self._handle))


class ServiceFailure(Exception):
    """What an :class:`AsyncSDK` call raises when the service said no; ``error`` says how."""

    def __init__(self, error: ServiceError) -> None:
        super().__init__(f"{error.domain} {error.code}: {error.message}")
        self.error = error


def storage_info(storage_dir: str, api_key: str) -> dict[str, int]:
    """What the storage of `api_key` under `storage_dir` holds (be_storage_inspect), read-only."""
    info = _native.be_storage_info()
    info.struct_size = ctypes.sizeof(info)
    _check(lib.be_storage_inspect(storage_dir.encode(), api_key.encode(), ctypes.byref(info)))
    return {name: int(getattr(info, name)) for name, *_ in _native.be_storage_info._fields_[1:]}


class MomentsResponse:
    """be_moments_response, retained while this object lives."""

    def __init__(self, handle: int) -> None:
        self._handle: Optional[int] = lib.be_moments_response_retain(handle)

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

    @property
    def id(self) -> Optional[str]:
        return _text(lib.be_offer_group_id(self._handle))

    @property
    def title(self) -> Optional[str]:
        return _text(lib.be_offer_group_title(self._handle))

    @property
    def offers(self) -> list[Offer]:
        count = lib.be_offer_group_offer_count(self._handle)
        return [Offer(lib.be_offer_group_offer_at(self._handle, i), self._feed) for i in range(count)]


class OfferFeed:
    """be_offer_feed, retained while this object lives."""

    def __init__(self, handle: int) -> None:
        self._handle: Optional[int] = lib.be_offer_feed_retain(handle)

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_offer_feed_release(self._handle)
            self._handle = None

    @property
    def id(self) -> Optional[str]:
        return _text(lib.be_offer_feed_id(self._handle))

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
        self._handle: Optional[int] = handle

    def close_handle(self) -> None:
        if self._handle:
            lib.be_offer_screen_free(self._handle)
            self._handle = None

    __del__ = close_handle

    @property
    def current_offer(self) -> Optional[Offer]:
        handle = lib.be_offer_screen_current_offer(self._handle)
        return Offer(handle, self) if handle else None

    @property
    def index(self) -> int:
        return int(lib.be_offer_screen_index(self._handle))

    @property
    def offer_count(self) -> int:
        return int(lib.be_offer_screen_offer_count(self._handle))

    @property
    def has_next(self) -> bool:
        return bool(lib.be_offer_screen_has_next(self._handle))

    @property
    def has_previous(self) -> bool:
        return bool(lib.be_offer_screen_has_previous(self._handle))

    @property
    def is_finished(self) -> bool:
        return bool(lib.be_offer_screen_is_finished(self._handle))

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
        self._handle: Optional[int]
        if isinstance(target, OfferGroup):
            self._handle = lib.be_offer_feed_event_new_with_group(target._handle, int(kind))
        else:
            self._handle = lib.be_offer_feed_event_new_with_offer(target._handle, int(kind))
        if not self._handle:
            raise BlinkEngageError(-1, _last_error())

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.be_offer_feed_event_free(self._handle)
            self._handle = None


class SDK:
    """be_sdk. Use as a context manager, or call :meth:`shutdown`."""

    def __init__(self, handle: int, mode: CallbackMode) -> None:
        self._handle: Optional[int] = handle
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
        assert handle.value is not None
        return SDK(handle.value, mode)

    def __enter__(self) -> "SDK":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()

    def shutdown(self, timeout_ms: int = 2000) -> None:
        """Runs every callback still owed (here, in dispatch mode), then frees the SDK."""
        if self._handle:
            lib.be_sdk_shutdown(self._handle, timeout_ms)
            self._handle = None
            with self._pending_lock:
                self._pending.clear()

    # -- callbacks --------------------------------------------------------------------------------------------

    def _call(self, kind: Any, wrap: Callable[[int], T], on_result: ResultCallback[T],
              start: Callable[[Any], int]) -> None:
        """Makes a call with a ctypes callback for `on_result`, kept alive until the SDK calls it (exactly
        once); `wrap` turns the borrowed handle into its Python object. A refused call never calls back."""
        with self._pending_lock:
            self._next_token += 1
            token = self._next_token

        def trampoline(handle: Optional[int], error: Any, _user_data: Any) -> None:
            with self._pending_lock:
                self._pending.pop(token, None)
            on_result(wrap(handle) if handle else None, ServiceError.from_pointer(error))

        callback = kind(trampoline)
        with self._pending_lock:
            self._pending[token] = callback
        status = start(callback)
        if status != 0:
            with self._pending_lock:
                self._pending.pop(token, None)
        _check(status)

    def dispatch(self, max_callbacks: int = 0) -> int:
        """Dispatch mode: runs queued callbacks on this thread; returns how many ran."""
        return int(lib.be_sdk_dispatch(self._handle, max_callbacks))

    @property
    def dispatch_fd(self) -> int:
        return int(lib.be_sdk_dispatch_fd(self._handle))

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

    def fetch_moments_offers(self, request: MomentsRequest, on_result: ResultCallback[MomentsResponse]) -> None:
        self._call(_native.MOMENTS_CALLBACK, MomentsResponse, on_result,
                   lambda callback: lib.be_sdk_fetch_moments_offers(self._handle, request._handle, callback, None))

    def load_offer_feed(self, on_result: ResultCallback[OfferFeed]) -> None:
        self._call(_native.FEED_CALLBACK, OfferFeed, on_result,
                   lambda callback: lib.be_sdk_load_offer_feed(self._handle, callback, None))

    def fetch_zone_ad(self, zone_id: str, on_result: ResultCallback[ZoneAd]) -> None:
        """Needs :meth:`Config.zone_ad_url`."""
        self._call(_native.ZONE_AD_CALLBACK, ZoneAd, on_result,
                   lambda callback: lib.be_sdk_fetch_zone_ad(self._handle, zone_id.encode(), callback, None))

    def fetch_image(self, url: str, on_result: ResultCallback[Image]) -> None:
        """Fetches an image through the SDK's caches (memory, then disk, then the network)."""
        self._call(_native.IMAGE_CALLBACK, Image.from_handle, on_result,
                   lambda callback: lib.be_sdk_fetch_image(self._handle, url.encode(), callback, None))

    def report_zone_ad_click(self, ad: ZoneAd) -> None:
        _check(lib.be_sdk_report_zone_ad_click(self._handle, ad._handle))

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
        """Forgets the identity, token and device id; deletes the feed cache, prefetches, images and queued items."""
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
            raise BlinkEngageError(-1, _last_error())
        return OfferScreen(handle)

    def report(self, event: FeedEvent) -> None:
        _check(lib.be_sdk_report_offer_feed_event(self._handle, event._handle))

    def flush(self, timeout_ms: int = 10000) -> None:
        _check(lib.be_sdk_flush(self._handle, timeout_ms))

    def stats(self) -> dict[str, int]:
        stats = _native.be_stats()
        stats.struct_size = ctypes.sizeof(stats)
        _check(lib.be_sdk_get_stats(self._handle, ctypes.byref(stats)))
        return {name: int(getattr(stats, name)) for name, *_ in _native.be_stats._fields_[1:]}


class AsyncSDK:
    """The SDK for asyncio: ``async with AsyncSDK(config) as sdk: offers = await sdk.fetch_moments_offers(req)``.

    Dispatch mode, with the dispatch descriptor registered on the running loop (``loop.add_reader``): callbacks
    run on the loop's thread and complete their futures there. A service error raises :class:`ServiceFailure`.
    Cancelling an awaiting task is safe: the SDK still calls back, once, and the answer is dropped. Closing
    the SDK (leaving ``async with``, or :meth:`close`) cancels every call still owed."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._sdk: Optional[SDK] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None

    async def __aenter__(self) -> "AsyncSDK":
        self._loop = asyncio.get_running_loop()
        self._sdk = SDK.start(self._config, CallbackMode.DISPATCH)
        self._loop.add_reader(self._sdk.dispatch_fd, self._sdk.dispatch)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def sdk(self) -> SDK:
        """The synchronous SDK underneath, for calls that do not wait (privacy, identity, reports, stats)."""
        if self._sdk is None:
            raise BlinkEngageError(-2, "the AsyncSDK is not open: use `async with`")
        return self._sdk

    async def close(self, timeout_ms: int = 2000) -> None:
        """Stops the SDK; every call still owed is cancelled (its future raises CancelledError)."""
        if self._sdk is None or self._loop is None:
            return
        sdk, self._sdk = self._sdk, None
        self._loop.remove_reader(sdk.dispatch_fd)
        sdk.shutdown(timeout_ms)  # dispatch mode: the owed callbacks run here, on the loop's thread

    def _await(self, start: Callable[[ResultCallback[T]], None]) -> "asyncio.Future[T]":
        assert self._loop is not None
        future: asyncio.Future[T] = self._loop.create_future()

        def done(result: Optional[T], error: Optional[ServiceError]) -> None:
            if future.done():  # the awaiting task was cancelled: the answer is dropped
                return
            if error is not None and error.domain == CANCELLED_ERROR_DOMAIN:
                future.cancel()
            elif error is not None:
                future.set_exception(ServiceFailure(error))
            else:
                assert result is not None
                future.set_result(result)

        start(done)
        return future

    async def fetch_moments_offers(self, request: MomentsRequest) -> MomentsResponse:
        sdk = self.sdk
        return await self._await(lambda done: sdk.fetch_moments_offers(request, done))

    async def load_offer_feed(self) -> OfferFeed:
        sdk = self.sdk
        return await self._await(sdk.load_offer_feed)

    async def fetch_zone_ad(self, zone_id: str) -> ZoneAd:
        sdk = self.sdk
        return await self._await(lambda done: sdk.fetch_zone_ad(zone_id, done))

    async def fetch_image(self, url: str) -> Image:
        sdk = self.sdk
        return await self._await(lambda done: sdk.fetch_image(url, done))
