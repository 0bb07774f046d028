"""The ctypes binding against the sandbox: config, Moments fetch, feed load, screens, events, shutdown."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest

import blinkengage
from blinkengage import CallbackMode, FeedEventType


def wait_for(sdk: blinkengage.SDK, start) -> tuple:
    """Starts a call with a callback and dispatches on this thread until it ran; returns its arguments."""
    results = []
    start(lambda *arguments: results.append((threading.get_ident(), arguments)))
    assert sdk.run_until(lambda: bool(results))
    assert len(results) == 1
    thread, arguments = results[0]
    assert thread == threading.get_ident()  # dispatch mode: on the thread that dispatches
    return arguments


def test_version_matches_the_header_macros():
    header = open(__file__.rsplit("/bindings/", 1)[0] + "/include/blinkengage.h").read()
    parts = [line.split()[-1] for line in header.splitlines() if line.startswith("#define BE_VERSION_") and "(" not in line]
    assert blinkengage.version() == ".".join(parts)


def test_config_refuses_bad_values():
    config = blinkengage.Config("demo-key")
    with pytest.raises(blinkengage.BlinkEngageError, match="invalid argument"):
        config.moments_url("file:///etc/passwd")
    with pytest.raises(blinkengage.BlinkEngageError):
        config.timeout_ms(0)
    with pytest.raises(blinkengage.BlinkEngageError):
        blinkengage.MomentsRequest().loyaltyboost("7")


def test_moments_fetch_with_styles_and_a_screen(sdk, sandbox):
    response, error = wait_for(sdk, lambda done: sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), done))
    assert error is None
    assert [offer.id for offer in response.offers] == ["4001", "4002", "4003"]
    assert response.offers[0].field("advertiser_name") == "Streamly"
    assert json.loads(response.offers[0].json)["campaign_id"] == 1201
    assert response.style("offerText.buttonYes.background") == "#1A73E8"
    screen = sdk.moments_screen(response)
    assert screen.style("header.text") == "Thanks for your order"
    screen.show_next()
    assert screen.current_offer.id == "4002"
    screen.close()
    assert screen.is_finished and screen.current_offer is None
    with pytest.raises(blinkengage.BlinkEngageError, match="invalid state"):
        screen.show_next()


def test_moments_errors_arrive_as_service_errors(sdk):
    response, error = wait_for(sdk, lambda done: sdk.fetch_moments_offers(
        blinkengage.MomentsRequest("checkout").campaign_id("999"), done))
    assert response is None
    assert (error.domain, error.code) == (blinkengage.MOMENTS_ERROR_DOMAIN, 3)


def test_feed_screens_and_events(sdk, sandbox):
    feed, error = wait_for(sdk, lambda done: sdk.load_offer_feed(done))
    assert feed is None and (error.domain, error.code) == (blinkengage.OFFER_FEED_ERROR_DOMAIN, 1)

    sdk.set_user_identity("python-user")
    feed, error = wait_for(sdk, lambda done: sdk.load_offer_feed(done))
    assert error is None
    assert [group.id for group in feed.groups] == ["g_entertainment", "g_food"]
    group = feed.groups[0]
    screen = sdk.offer_group_screen(group)
    assert screen.offer_count == 2 and screen.has_next
    assert screen.accept().startswith("https://track.example.com/sdk/offer_click?o_id=4001")
    assert screen.current_offer.id == "4003"

    sdk.report(blinkengage.FeedEvent(group, FeedEventType.VIEW_ALL))
    sdk.report(blinkengage.FeedEvent(feed.groups[1].offers[0], FeedEventType.DID_APPEAR))
    with pytest.raises(blinkengage.BlinkEngageError):
        blinkengage.FeedEvent(group, FeedEventType.DID_TAP)
    sdk.flush(30000)
    received = json.load(urllib.request.urlopen(sandbox + "/_sandbox/events"))
    assert [(e["type"], e["group_position"]) for e in received["events"]] == [("view_all", 0), ("did_appear", 1)]
    assert sdk.stats()["events_delivered"] == 2

    # a reload makes the old objects stale
    newer, _ = wait_for(sdk, lambda done: sdk.load_offer_feed(done))
    assert sdk.offer_details_screen(feed.groups[1].offers[0]) is None
    assert sdk.offer_details_screen(newer.groups[1].offers[0]) is not None


def test_shutdown_runs_owed_callbacks_on_the_calling_thread(sandbox):
    config = blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4")
    urllib.request.urlopen(urllib.request.Request(sandbox + "/_sandbox/faults", data=b'{"hang": true}', method="POST"))
    sdk = blinkengage.SDK.start(config, CallbackMode.DISPATCH)
    results = []
    sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), lambda r, e: results.append((threading.get_ident(), e)))
    sdk.shutdown(1000)
    assert len(results) == 1
    thread, error = results[0]
    assert thread == threading.get_ident()
    assert error.domain == blinkengage.CANCELLED_ERROR_DOMAIN


def test_callbacks_on_the_sdk_thread(sandbox):
    config = blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4")
    done = threading.Event()
    seen = []
    with blinkengage.SDK.start(config, CallbackMode.SDK_THREAD) as sdk:
        sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"),
                                 lambda r, e: (seen.append((threading.get_ident(), len(r.offers))), done.set()))
        assert done.wait(60)
    assert seen[0][1] == 3 and seen[0][0] != threading.get_ident()


def test_log_handler_receives_warnings(sandbox):
    messages = []
    config = (blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4")
              .log_handler(lambda level, message: messages.append((level, message)), min_level=2))
    request = blinkengage.MomentsRequest("checkout", theme_id="x" * 200)
    with blinkengage.SDK.start(config) as sdk:
        wait_for(sdk, lambda done: sdk.fetch_moments_offers(request, done))
    assert any(level == 2 and "theme_id" in message for level, message in messages)


def recorded(sandbox: str) -> list:
    return json.load(urllib.request.urlopen(sandbox + "/_sandbox/requests"))


def test_privacy_signals_reach_the_wire_and_bad_ones_are_refused(sandbox, sdk):
    sdk.set_us_privacy("1YNN")
    sdk.set_gdpr(1, "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
    sdk.set_limit_tracking(True)
    with pytest.raises(blinkengage.BlinkEngageError):
        sdk.set_us_privacy("1YNNN")
    with pytest.raises(blinkengage.BlinkEngageError):
        sdk.set_gpp("DBABM", "7,,8")
    request = blinkengage.MomentsRequest("checkout", ip="203.0.113.7")
    response, error = wait_for(sdk, lambda done: sdk.fetch_moments_offers(request, done))
    assert error is None and response.offers
    body = json.loads(recorded(sandbox)[-1]["body"])
    assert body["us_privacy"] == "1YNN" and body["gdpr"] == "1" and body["lmt"] == "1" and "ip" not in body


def test_prefetch_then_fetch_makes_one_request_and_erasure_works(sandbox, sdk):
    request = blinkengage.MomentsRequest("checkout")
    sdk.prefetch_moments_offers(request)
    response, error = wait_for(sdk, lambda done: sdk.fetch_moments_offers(request, done))
    assert error is None and response.offers
    assert [r["path"] for r in recorded(sandbox)].count("/native/v4/offers.json") == 1
    assert sdk.stats()["prefetch_hits"] == 1
    sdk.delete_user_data()
    assert sdk.stats()["queue_depth"] == 0


def test_creatives_and_images_through_the_caches(sandbox, sdk):
    response, error = wait_for(sdk, lambda done: sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), done))
    assert error is None
    creative = response.offers[0].creatives[0]
    assert (creative.width, creative.height, creative.type, creative.is_primary) == (600, 600, "image", True)
    assert creative.url == sandbox + "/cdn/c/9001.png"
    assert response.offers[1].creatives == []

    cold, error = wait_for(sdk, lambda done: sdk.fetch_image(creative.url, done))
    assert error is None
    assert cold.data.startswith(b"\x89PNG\r\n\x1a\n") and cold.content_type == "image/png" and not cold.from_cache
    warm, _ = wait_for(sdk, lambda done: sdk.fetch_image(creative.url, done))
    assert warm.from_cache and warm.data == cold.data
    stats = sdk.stats()
    assert (stats["image_requests"], stats["image_memory_hits"]) == (1, 1)

    image, error = wait_for(sdk, lambda done: sdk.fetch_image(sandbox + "/cdn/page.png?type=text/html", done))
    assert image is None and error.domain == blinkengage.IMAGE_ERROR_DOMAIN and error.code == 3
    image, error = wait_for(sdk, lambda done: sdk.fetch_image("ftp://example.com/a.png", done))
    assert image is None and error.code == 5
