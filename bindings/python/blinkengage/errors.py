"""Errors: the synchronous BlinkEngageError, the asynchronous ServiceError, and the helpers that turn the C
library's results into them."""

from __future__ import annotations

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
