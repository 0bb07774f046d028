"""The configuration an SDK starts from (be_config) and its modes."""

from __future__ import annotations

import ctypes
import enum
from typing import Any, Callable, Optional

from . import _native
from ._native import lib
from .errors import BlinkEngageError, _bytes, _check, _last_error, _run_callback


class CallbackMode(enum.IntEnum):
    SDK_THREAD = 0
    DISPATCH = 1


class FetchIO(enum.IntEnum):
    """Where offer fetches do their network I/O (be_fetch_io): DISPATCH needs CallbackMode.DISPATCH."""
    SDK_THREAD = 0
    DISPATCH = 1


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
        self._log_handler = _native.LOG_FN(
            lambda level, message, _user_data: _run_callback(handler, level, message.decode("utf-8", "replace")))
        _check(lib.be_config_set_log_handler(self._handle, self._log_handler, min_level, None))
        return self
