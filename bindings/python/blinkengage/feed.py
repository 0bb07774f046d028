"""The client-side offer feed: feeds, groups, screens and feed events."""

from __future__ import annotations

import enum
from typing import Optional

from ._native import lib
from .errors import BlinkEngageError, _check, _last_error, _text
from .moments import Offer


class FeedEventType(enum.IntEnum):
    DID_APPEAR = 0
    DID_TAP = 1
    VIEW_ALL = 2


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
