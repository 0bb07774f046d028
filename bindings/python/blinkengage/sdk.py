"""The SDK (be_sdk): start, dispatch, every call, shutdown; and reading a storage directory."""

from __future__ import annotations

import ctypes
import select
import threading
import time
from typing import Any, Callable, Optional

from . import _native
from ._native import lib
from .config import CallbackMode, Config
from .errors import BlinkEngageError, ResultCallback, ServiceError, T, _bytes, _check, _last_error, _run_callback
from .feed import FeedEvent, OfferFeed, OfferGroup, OfferScreen
from .moments import Image, MomentsRequest, MomentsResponse, Offer, ZoneAd


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

    def __del__(self) -> None:
        # Collected while open: shut down here, so no callback of a collected SDK can reach a freed ctypes thunk
        # (the owed ones run now, cancelled). At interpreter exit the library may already be gone: nothing then.
        try:
            self.shutdown(0)
        except Exception:  # noqa: BLE001 - a finalizer has nowhere to raise to
            pass

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()

    def shutdown(self, timeout_ms: int = 2000) -> None:
        """Runs every callback still owed (here, in dispatch mode), then frees the SDK. Any call after it raises
        BlinkEngageError; a second shutdown does nothing."""
        if self._handle:
            handle, self._handle = self._handle, None
            lib.be_sdk_shutdown(handle, timeout_ms)
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
            _run_callback(on_result, wrap(handle) if handle else None, ServiceError.from_pointer(error))

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

    def report_visibility(self, offer: Offer, fraction: float) -> None:
        """be_sdk_report_visibility: `offer` is `fraction` (0 to 1) of its pixels on screen now."""
        _check(lib.be_sdk_report_visibility(self._handle, offer._handle, fraction))

    def warm_up(self) -> None:
        """be_sdk_warm_up: opens the connections the next fetch needs ahead of it."""
        _check(lib.be_sdk_warm_up(self._handle))

    def recorder_json(self) -> str:
        """be_sdk_recorder_json: the flight recorder's entries, one JSON object per line, oldest first."""
        out = ctypes.c_void_p()
        _check(lib.be_sdk_recorder_json(self._handle, ctypes.byref(out)))
        try:
            return ctypes.string_at(out.value).decode("utf-8") if out.value else ""
        finally:
            lib.be_string_free(out)

    def flush(self, timeout_ms: int = 10000) -> None:
        _check(lib.be_sdk_flush(self._handle, timeout_ms))

    def stats(self) -> dict[str, int]:
        stats = _native.be_stats()
        stats.struct_size = ctypes.sizeof(stats)
        _check(lib.be_sdk_get_stats(self._handle, ctypes.byref(stats)))
        return {name: int(getattr(stats, name)) for name, *_ in _native.be_stats._fields_[1:]}


def storage_info(storage_dir: str, api_key: str) -> dict[str, int]:
    """What the storage of `api_key` under `storage_dir` holds (be_storage_inspect), read-only."""
    info = _native.be_storage_info()
    info.struct_size = ctypes.sizeof(info)
    _check(lib.be_storage_inspect(storage_dir.encode(), api_key.encode(), ctypes.byref(info)))
    return {name: int(getattr(info, name)) for name, *_ in _native.be_storage_info._fields_[1:]}
