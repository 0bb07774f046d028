"""The Python binding used the way a careless or hostile host would: callbacks that raise, an SDK collected with
callbacks owed, a storm of 1,000 cancelled asyncio tasks, calls after close."""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import urllib.request
from typing import Any, Optional

import pytest

import blinkengage
from blinkengage import CallbackMode, MomentsResponse, ServiceError

from conftest import sandbox_config


def control(sandbox: str, path: str, body: Any = None) -> None:
    data = json.dumps(body if body is not None else {}).encode()
    urllib.request.urlopen(urllib.request.Request(sandbox + path, data=data, method="POST")).read()


def offer_requests(sandbox: str) -> int:
    with urllib.request.urlopen(sandbox + "/_sandbox/requests") as answer:
        return sum(1 for r in json.load(answer) if r["path"].endswith("offers.json"))


def test_a_callback_that_raises_goes_to_the_handler_and_the_next_callback_runs(sdk: blinkengage.SDK) -> None:
    """One rule in every binding: to the handler (never out of dispatch), then the next callback."""
    caught: list[BaseException] = []
    ran: list[int] = []
    blinkengage.set_callback_error_handler(caught.append)

    def raising(response: Optional[MomentsResponse], error: Optional[ServiceError]) -> None:
        ran.append(1)
        raise RuntimeError(f"host bug {len(ran)}")

    try:
        for _ in range(2):
            sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), raising)
        assert sdk.run_until(lambda: len(ran) == 2)  # nothing raised out of dispatch
    finally:
        blinkengage.set_callback_error_handler(None)
    assert [str(e) for e in caught] == ["host bug 1", "host bug 2"]
    after: list[Optional[MomentsResponse]] = []
    sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), lambda response, error: after.append(response))
    assert sdk.run_until(lambda: bool(after)) and after[0] is not None


@pytest.mark.parametrize("mode", [CallbackMode.DISPATCH, CallbackMode.SDK_THREAD])
def test_an_sdk_collected_with_callbacks_owed_cancels_them_once(sandbox: str, mode: CallbackMode) -> None:
    control(sandbox, "/_sandbox/faults", {"path": "offers.json", "gate": True, "times": 1})
    results: list[Optional[ServiceError]] = []
    done = threading.Event()

    def record(response: Optional[MomentsResponse], error: Optional[ServiceError]) -> None:
        results.append(error)
        done.set()

    sdk: Optional[blinkengage.SDK] = blinkengage.SDK.start(sandbox_config(sandbox), mode)
    assert sdk is not None
    sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), record)
    arrived = threading.Event()
    for _ in range(3000):  # the request reaches the sandbox: a condition, polled with a bound
        if offer_requests(sandbox) >= 1:
            arrived.set()
            break
        arrived.wait(0.01)
    assert arrived.is_set()
    del sdk
    gc.collect()
    assert done.wait(30)
    control(sandbox, "/_sandbox/release")
    assert len(results) == 1 and results[0] is not None and results[0].domain == blinkengage.CANCELLED_ERROR_DOMAIN


def test_calls_after_shutdown_raise_and_objects_outlive_it(sandbox: str) -> None:
    sdk = blinkengage.SDK.start(sandbox_config(sandbox))
    got: list[Optional[MomentsResponse]] = []
    sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), lambda response, error: got.append(response))
    assert sdk.run_until(lambda: bool(got))
    response = got[0]
    assert response is not None
    sdk.shutdown()
    sdk.shutdown()
    for call in (lambda: sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), lambda r, e: None),
                 lambda: sdk.set_user_identity("u"), lambda: sdk.flush(10), lambda: sdk.stats()):
        with pytest.raises(blinkengage.BlinkEngageError):
            call()
    assert sdk.dispatch() == 0
    assert response.offers[0].id == "4001"  # the answer outlives its SDK


def test_a_storm_of_a_thousand_cancelled_tasks(sandbox: str) -> None:
    async def storm() -> int:
        control(sandbox, "/_sandbox/faults", {"path": "offers.json", "gate": True, "times": 1000})
        async with blinkengage.AsyncSDK(sandbox_config(sandbox)) as sdk:
            tasks = [asyncio.ensure_future(sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout")))
                     for _ in range(1000)]
            await asyncio.sleep(0)
            for task in tasks:
                task.cancel()
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
            assert all(isinstance(o, asyncio.CancelledError) for o in outcomes)
            control(sandbox, "/_sandbox/release")
            control(sandbox, "/_sandbox/faults/clear")
            response = await sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"))  # the SDK goes on
            return len(response.offers)
    assert asyncio.run(storm()) == 3
