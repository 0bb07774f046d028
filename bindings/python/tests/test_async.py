"""AsyncSDK: awaiting offers, feeds, zone ads and images on the running loop; cancellation and close."""

from __future__ import annotations

import asyncio
import threading
import urllib.request

import pytest

import blinkengage

from conftest import sandbox_config


def test_awaiting_every_kind_of_call(sandbox: str) -> None:
    async def main() -> None:
        loop_thread = threading.get_ident()
        async with blinkengage.AsyncSDK(sandbox_config(sandbox)) as sdk:
            offers, ad = await asyncio.gather(sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout")),
                                              sdk.fetch_zone_ad("1"))
            assert [offer.id for offer in offers.offers] == ["4001", "4002", "4003"]
            assert ad.is_enabled
            image = await sdk.fetch_image(ad.image_url or "")
            assert image.data.startswith(b"\x89PNG")
            sdk.sdk.set_user_identity("async-user")
            feed = await sdk.load_offer_feed()
            assert [group.id for group in feed.groups] == ["g_entertainment", "g_food"]
            with pytest.raises(blinkengage.ServiceFailure) as raised:
                await sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout").campaign_id("999"))
            assert (raised.value.error.domain, raised.value.error.code) == (blinkengage.MOMENTS_ERROR_DOMAIN, 3)
            assert threading.get_ident() == loop_thread

    asyncio.run(main())


def test_fetches_with_their_io_on_the_loop(sandbox: str) -> None:
    async def main() -> None:
        config = sandbox_config(sandbox).fetch_io(blinkengage.FetchIO.DISPATCH)
        async with blinkengage.AsyncSDK(config) as sdk:
            first, second = await asyncio.gather(sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout")),
                                                 sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout")))
            assert [offer.id for offer in first.offers] == ["4001", "4002", "4003"]
            assert [offer.id for offer in second.offers] == ["4001", "4002", "4003"]

    asyncio.run(main())


def test_fetch_io_on_dispatch_is_refused_with_callbacks_on_the_sdk_thread(sandbox: str) -> None:
    config = sandbox_config(sandbox).fetch_io(blinkengage.FetchIO.DISPATCH)
    with pytest.raises(blinkengage.BlinkEngageError):
        blinkengage.SDK.start(config, blinkengage.CallbackMode.SDK_THREAD)


def test_a_cancelled_await_drops_the_answer_and_close_cancels_what_is_owed(sandbox: str) -> None:
    urllib.request.urlopen(urllib.request.Request(sandbox + "/_sandbox/faults", method="POST",
                                                  data=b'{"path": "/native/v4", "gate": true, "times": 1}'))

    async def main() -> None:
        async with blinkengage.AsyncSDK(sandbox_config(sandbox)) as sdk:
            held = asyncio.ensure_future(sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout")))
            await asyncio.sleep(0)  # let it start
            held.cancel()
            with pytest.raises(asyncio.CancelledError):
                await held
            urllib.request.urlopen(urllib.request.Request(sandbox + "/_sandbox/release", method="POST", data=b""))
            # the SDK still answers the cancelled call; the loop drops it and goes on working
            offers = await sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"))
            assert len(offers.offers) == 3

            urllib.request.urlopen(urllib.request.Request(sandbox + "/_sandbox/faults", method="POST",
                                                          data=b'{"path": "/native/v4", "hang": true}'))
            owed = asyncio.ensure_future(sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout")))
            await asyncio.sleep(0)
            await sdk.close()
            with pytest.raises(asyncio.CancelledError):
                await owed

    asyncio.run(main())
