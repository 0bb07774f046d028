"""Errors: the synchronous BlinkEngageError, the asynchronous ServiceError, and the helpers that turn the C
library's results into them."""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Optional, TypeVar

from ._native import lib


MOMENTS_ERROR_DOMAIN = "BlinkEngageMoments"


OFFER_FEED_ERROR_DOMAIN = "BlinkEngageOfferFeed"


CANCELLED_ERROR_DOMAIN = "BlinkEngageCancelled"


IMAGE_ERROR_DOMAIN = "BlinkEngageImage"


ZONE_AD_ERROR_DOMAIN = "BlinkEngageZoneAd"


T = TypeVar("T")


#: What every callback receives: the result or the error, exactly one of them not None.
ResultCallback = Callable[[Optional[T], Optional["ServiceError"]], None]


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


class ServiceFailure(Exception):
    """What an :class:`AsyncSDK` call raises when the service said no; ``error`` says how."""

    def __init__(self, error: ServiceError) -> None:
        super().__init__(f"{error.domain} {error.code}: {error.message}")
        self.error = error


def _print_callback_error(error: BaseException) -> None:
    print("blinkengage: a callback raised:", file=sys.stderr)
    traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)


_callback_error_handler: Callable[[BaseException], None] = _print_callback_error


def set_callback_error_handler(handler: Optional[Callable[[BaseException], None]]) -> None:
    """Where an exception a callback or log handler raises goes, as in every binding: it never reaches the SDK nor
    the caller of :meth:`SDK.dispatch`; the handler gets it on the thread that ran the callback, and the next
    callback runs. ``None`` restores the default, which prints it with its traceback to standard error."""
    global _callback_error_handler
    _callback_error_handler = handler or _print_callback_error


def _run_callback(callback: Callable[..., None], *arguments: Any) -> None:
    """Runs a host callback under the rule above: what it raises goes to the handler, never to the library."""
    try:
        callback(*arguments)
    except Exception as raised:  # noqa: BLE001 - one rule in every binding: to the handler, then go on
        try:
            _callback_error_handler(raised)
        except Exception:  # noqa: BLE001 - the handler's own failure has nowhere left to go
            pass


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
