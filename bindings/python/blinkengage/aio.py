"""asyncio: the SDK with awaitable calls, driven by the event loop."""

from __future__ import annotations

import asyncio
from typing import Callable, Optional

from .config import CallbackMode, Config
from .errors import BlinkEngageError, CANCELLED_ERROR_DOMAIN, ResultCallback, ServiceError, ServiceFailure, T
from .feed import OfferFeed
from .moments import Image, MomentsRequest, MomentsResponse, ZoneAd
from .sdk import SDK


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
