"""Offers and Moments: requests, answers, offers with their creatives, zone ads and images."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Optional

from ._native import lib
from .errors import _bytes, _check, _text


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
    def pixel_url(self) -> Optional[str]:
        """The impression pixel ("pixel"). The SDK fires beacons itself; a host firing one replaces each
        ``{cbuster}`` (or ``%7Bcbuster%7D``) with a fresh random number first, as the SDK does."""
        return _text(lib.be_offer_pixel_url(self._handle))

    @property
    def advertiser_pixel_url(self) -> Optional[str]:
        """The advertiser's impression pixel ("adv_pixel_url"); see ``pixel_url``."""
        return _text(lib.be_offer_adv_pixel_url(self._handle))

    @property
    def close_beacon_url(self) -> Optional[str]:
        """The beacon of closing the offer ("beacons"."close"); see ``pixel_url``."""
        return _text(lib.be_offer_close_beacon_url(self._handle))

    @property
    def no_thanks_beacon_url(self) -> Optional[str]:
        """The beacon of the negative CTA ("beacons"."no_thanks_click"); see ``pixel_url``."""
        return _text(lib.be_offer_no_thanks_beacon_url(self._handle))

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
