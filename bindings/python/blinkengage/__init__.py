"""A typed Python binding of libblinkengage over ctypes (no compiled extension).

Ownership follows the C API: objects that own a C reference (SDK, responses, feeds, screens, events) end it when
closed or collected; offers and groups keep their owner alive. Callbacks are kept referenced until the SDK has
called them. Use ``CallbackMode.DISPATCH`` (the default here) and call :meth:`SDK.dispatch` from your own thread
so that Python callbacks run where you choose, or :meth:`SDK.run_until` to wait for one.

The package is split by concern, each module re-exported here: ``errors``, ``config``, ``moments`` (offers, zone
ads, images), ``feed`` (the offer feed and screens), ``sdk`` and ``aio`` (asyncio).
"""

from __future__ import annotations

from .aio import AsyncSDK
from .config import CallbackMode, Config, FetchIO
from .errors import (
    CANCELLED_ERROR_DOMAIN,
    IMAGE_ERROR_DOMAIN,
    MOMENTS_ERROR_DOMAIN,
    OFFER_FEED_ERROR_DOMAIN,
    ZONE_AD_ERROR_DOMAIN,
    BlinkEngageError,
    ResultCallback,
    ServiceError,
    ServiceFailure,
    set_callback_error_handler,
    version,
)
from .feed import FeedEvent, FeedEventType, OfferFeed, OfferGroup, OfferScreen
from .moments import Creative, Image, MomentsRequest, MomentsResponse, Offer, ZoneAd
from .sdk import SDK, storage_info

__all__ = [
    "BlinkEngageError", "ServiceError", "ServiceFailure", "CallbackMode", "FetchIO", "FeedEventType", "Config", "SDK", "AsyncSDK",
    "MomentsRequest", "MomentsResponse", "Offer", "OfferFeed", "OfferGroup", "OfferScreen", "FeedEvent", "Creative",
    "Image", "ZoneAd", "ResultCallback", "storage_info", "version", "set_callback_error_handler",
    "MOMENTS_ERROR_DOMAIN", "OFFER_FEED_ERROR_DOMAIN", "CANCELLED_ERROR_DOMAIN", "IMAGE_ERROR_DOMAIN", "ZONE_AD_ERROR_DOMAIN",
]
