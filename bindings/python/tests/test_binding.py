"""The ctypes binding against the sandbox: config, Moments fetch, feed load, screens, events, zone ads, images,
privacy, prefetch, storage, shutdown."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import urllib.request
from typing import Any, Callable, Optional, TypeVar

import pytest

import blinkengage
from blinkengage import CallbackMode, FeedEventType, ResultCallback, ServiceError

from conftest import sandbox_config

T = TypeVar("T")


def wait_for(sdk: blinkengage.SDK, kind: type[T],
             start: Callable[[ResultCallback[T]], None]) -> tuple[Optional[T], Optional[ServiceError]]:
    """Starts a call with a callback and dispatches on this thread until it ran; returns its arguments."""
    results: list[tuple[int, Optional[T], Optional[ServiceError]]] = []
    start(lambda result, error: results.append((threading.get_ident(), result, error)))
    assert sdk.run_until(lambda: bool(results))
    assert len(results) == 1
    thread, result, error = results[0]
    assert thread == threading.get_ident()  # dispatch mode: on the thread that dispatches
    assert (result is None) != (error is None)
    if result is not None:
        assert isinstance(result, kind)
    return result, error


def ok(sdk: blinkengage.SDK, kind: type[T], start: Callable[[ResultCallback[T]], None]) -> T:
    result, error = wait_for(sdk, kind, start)
    assert error is None, error
    assert result is not None
    return result


def failure(sdk: blinkengage.SDK, kind: type[T], start: Callable[[ResultCallback[T]], None]) -> ServiceError:
    result, error = wait_for(sdk, kind, start)
    assert result is None and error is not None
    return error


def test_the_package_is_the_installed_one_with_its_own_library() -> None:
    expected = os.environ.get("BLINKENGAGE_EXPECT_INSTALLED")
    if not expected:
        pytest.skip("in-tree run")
    assert blinkengage.__file__.startswith(expected), blinkengage.__file__
    assert blinkengage._native.library_path == os.path.join(os.path.dirname(blinkengage.__file__), "libblinkengage.so.1")


def test_version_matches_the_header_macros() -> None:
    header = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "include", "blinkengage.h")).read()
    parts = [line.split()[-1] for line in header.splitlines() if line.startswith("#define BE_VERSION_") and "(" not in line]
    assert blinkengage.version() == ".".join(parts)


def test_config_refuses_bad_values() -> None:
    config = blinkengage.Config("demo-key")
    with pytest.raises(blinkengage.BlinkEngageError, match="invalid argument"):
        config.moments_url("file:///etc/passwd")
    with pytest.raises(blinkengage.BlinkEngageError):
        config.timeout_ms(0)
    with pytest.raises(blinkengage.BlinkEngageError):
        config.proxy("ftp://127.0.0.1:21")
    with pytest.raises(blinkengage.BlinkEngageError, match="not found"):
        config.ca_file("/nonexistent/ca.pem")
    with pytest.raises(blinkengage.BlinkEngageError):
        config.pinned_public_key("sha256//short=")
    config.proxy("socks5h://127.0.0.1:1080").proxy(None)
    with pytest.raises(blinkengage.BlinkEngageError):
        blinkengage.MomentsRequest().loyaltyboost("7")


def test_moments_fetch_with_styles_and_a_screen(sdk: blinkengage.SDK, sandbox: str) -> None:
    response = ok(sdk, blinkengage.MomentsResponse,
                  lambda done: sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), done))
    assert [offer.id for offer in response.offers] == ["4001", "4002", "4003"]
    assert response.offers[0].field("advertiser_name") == "Streamly"
    offer = response.offers[0]
    assert (offer.pixel_url or "").endswith("/b/track/sdk/v2/impression/p.png?o_id=4001&sess_id=5f2c0001e1&cbuster=%7Bcbuster%7D")
    assert (offer.advertiser_pixel_url or "").endswith("/b/adv/imp?o=4001&cb={cbuster}")
    assert (offer.close_beacon_url or "").endswith("/b/track/event/record/close?o_id=4001&sess_id=5f2c0001e1")
    assert (offer.no_thanks_beacon_url or "").endswith("/b/track/event/record/no_thanks_click?o_id=4001&sess_id=5f2c0001e1")
    assert json.loads(response.offers[0].json or "{}")["campaign_id"] == 1201
    assert response.style("offerText.buttonYes.background") == "#1A73E8"
    screen = sdk.moments_screen(response)
    assert screen.style("header.text") == "Thanks for your order"
    screen.show_next()
    assert screen.current_offer is not None and screen.current_offer.id == "4002"
    screen.close()
    assert screen.is_finished and screen.current_offer is None
    with pytest.raises(blinkengage.BlinkEngageError, match="invalid state"):
        screen.show_next()


def test_moments_errors_arrive_as_service_errors(sdk: blinkengage.SDK) -> None:
    error = failure(sdk, blinkengage.MomentsResponse, lambda done: sdk.fetch_moments_offers(
        blinkengage.MomentsRequest("checkout").campaign_id("999"), done))
    assert (error.domain, error.code) == (blinkengage.MOMENTS_ERROR_DOMAIN, 3)


def test_feed_screens_and_events(sdk: blinkengage.SDK, sandbox: str) -> None:
    error = failure(sdk, blinkengage.OfferFeed, sdk.load_offer_feed)
    assert (error.domain, error.code) == (blinkengage.OFFER_FEED_ERROR_DOMAIN, 1)

    sdk.set_user_identity("python-user")
    feed = ok(sdk, blinkengage.OfferFeed, sdk.load_offer_feed)
    assert [group.id for group in feed.groups] == ["g_entertainment", "g_food"]
    group = feed.groups[0]
    screen = sdk.offer_group_screen(group)
    assert screen is not None
    assert screen.offer_count == 2 and screen.has_next
    assert (screen.accept() or "").startswith("https://track.example.com/sdk/offer_click?o_id=4001")
    assert screen.current_offer is not None and screen.current_offer.id == "4003"

    sdk.report(blinkengage.FeedEvent(group, FeedEventType.VIEW_ALL))
    sdk.report(blinkengage.FeedEvent(feed.groups[1].offers[0], FeedEventType.DID_APPEAR))
    with pytest.raises(blinkengage.BlinkEngageError):
        blinkengage.FeedEvent(group, FeedEventType.DID_TAP)
    sdk.flush(30000)
    received = json.load(urllib.request.urlopen(sandbox + "/_sandbox/events"))
    assert [(e["type"], e["group_position"]) for e in received["events"]] == [("view_all", 0), ("did_appear", 1)]
    assert sdk.stats()["events_delivered"] == 2

    # a reload makes the old objects stale
    newer = ok(sdk, blinkengage.OfferFeed, sdk.load_offer_feed)
    assert sdk.offer_details_screen(feed.groups[1].offers[0]) is None
    assert sdk.offer_details_screen(newer.groups[1].offers[0]) is not None


def test_zone_ads_and_their_clicks(sdk: blinkengage.SDK, sandbox: str) -> None:
    ad = ok(sdk, blinkengage.ZoneAd, lambda done: sdk.fetch_zone_ad("1", done))
    assert ad.is_enabled and ad.link_url == "https://www.example.com/landing?zone=1"
    assert ad.image_url == sandbox + "/cdn/zones/1/banner.png"
    hidden = ok(sdk, blinkengage.ZoneAd, lambda done: sdk.fetch_zone_ad("2", done))
    assert not hidden.is_enabled
    error = failure(sdk, blinkengage.ZoneAd, lambda done: sdk.fetch_zone_ad("5", done))
    assert (error.domain, error.code) == (blinkengage.ZONE_AD_ERROR_DOMAIN, 1)
    image = ok(sdk, blinkengage.Image, lambda done: sdk.fetch_image(ad.image_url or "", done))
    assert image.content_type == "image/png"
    sdk.report_zone_ad_click(ad)
    sdk.flush(30000)
    assert sdk.stats()["events_delivered"] == 1


def test_shutdown_runs_owed_callbacks_on_the_calling_thread(sandbox: str) -> None:
    config = blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4")
    urllib.request.urlopen(urllib.request.Request(sandbox + "/_sandbox/faults", data=b'{"hang": true}', method="POST"))
    sdk = blinkengage.SDK.start(config, CallbackMode.DISPATCH)
    results: list[tuple[int, Optional[ServiceError]]] = []
    sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), lambda r, e: results.append((threading.get_ident(), e)))
    sdk.shutdown(1000)
    assert len(results) == 1
    thread, error = results[0]
    assert thread == threading.get_ident()
    assert error is not None and error.domain == blinkengage.CANCELLED_ERROR_DOMAIN


def test_callbacks_on_the_sdk_thread(sandbox: str) -> None:
    config = blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4")
    done = threading.Event()
    seen: list[tuple[int, int]] = []

    def received(response: Optional[blinkengage.MomentsResponse], error: Optional[ServiceError]) -> None:
        seen.append((threading.get_ident(), len(response.offers) if response else -1))
        done.set()

    with blinkengage.SDK.start(config, CallbackMode.SDK_THREAD) as sdk:
        sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), received)
        assert done.wait(60)
    assert seen[0][1] == 3 and seen[0][0] != threading.get_ident()


def test_log_handler_receives_warnings(sandbox: str) -> None:
    messages: list[tuple[int, str]] = []
    config = (blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4")
              .log_handler(lambda level, message: messages.append((level, message)), min_level=2))
    request = blinkengage.MomentsRequest("checkout", theme_id="x" * 200)
    with blinkengage.SDK.start(config) as sdk:
        ok(sdk, blinkengage.MomentsResponse, lambda done: sdk.fetch_moments_offers(request, done))
    assert any(level == 2 and "theme_id" in message for level, message in messages)


def recorded(sandbox: str) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = json.load(urllib.request.urlopen(sandbox + "/_sandbox/requests"))
    return answer


def test_privacy_signals_reach_the_wire_and_bad_ones_are_refused(sandbox: str, sdk: blinkengage.SDK) -> None:
    sdk.set_us_privacy("1YNN")
    sdk.set_gdpr(1, "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
    sdk.set_limit_tracking(True)
    with pytest.raises(blinkengage.BlinkEngageError):
        sdk.set_us_privacy("1YNNN")
    with pytest.raises(blinkengage.BlinkEngageError):
        sdk.set_gpp("DBABM", "7,,8")
    request = blinkengage.MomentsRequest("checkout", ip="203.0.113.7")
    response = ok(sdk, blinkengage.MomentsResponse, lambda done: sdk.fetch_moments_offers(request, done))
    assert response.offers
    fetched = [r for r in recorded(sandbox) if r["path"] == "/native/v4/offers.json"]
    body = json.loads(fetched[-1]["body"])
    assert body["us_privacy"] == "1YNN" and body["gdpr"] == "1" and body["lmt"] == "1" and "ip" not in body


def test_prefetch_then_fetch_makes_one_request_and_erasure_works(sandbox: str, sdk: blinkengage.SDK) -> None:
    request = blinkengage.MomentsRequest("checkout")
    sdk.prefetch_moments_offers(request)
    response = ok(sdk, blinkengage.MomentsResponse, lambda done: sdk.fetch_moments_offers(request, done))
    assert response.offers
    assert [r["path"] for r in recorded(sandbox)].count("/native/v4/offers.json") == 1
    assert sdk.stats()["prefetch_hits"] == 1
    sdk.delete_user_data()
    assert sdk.stats()["queue_depth"] == 0


def test_creatives_and_images_through_the_caches(sandbox: str, sdk: blinkengage.SDK) -> None:
    response = ok(sdk, blinkengage.MomentsResponse,
                  lambda done: sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), done))
    creative = response.offers[0].creatives[0]
    assert (creative.width, creative.height, creative.type, creative.is_primary) == (600, 600, "image", True)
    assert creative.url == sandbox + "/cdn/c/9001.png"
    assert response.offers[1].creatives == []

    cold = ok(sdk, blinkengage.Image, lambda done: sdk.fetch_image(creative.url or "", done))
    assert cold.data.startswith(b"\x89PNG\r\n\x1a\n") and cold.content_type == "image/png" and not cold.from_cache
    warm = ok(sdk, blinkengage.Image, lambda done: sdk.fetch_image(creative.url or "", done))
    assert warm.from_cache and warm.data == cold.data
    stats = sdk.stats()
    assert (stats["image_requests"], stats["image_memory_hits"]) == (1, 1)

    error = failure(sdk, blinkengage.Image, lambda done: sdk.fetch_image(sandbox + "/cdn/page.png?type=text/html", done))
    assert error.domain == blinkengage.IMAGE_ERROR_DOMAIN and error.code == 3
    error = failure(sdk, blinkengage.Image, lambda done: sdk.fetch_image("ftp://example.com/a.png", done))
    assert error.code == 5


def test_storage_info_reads_a_directory(sandbox: str) -> None:
    storage = tempfile.mkdtemp(prefix="be-python-storage-")
    config = sandbox_config(sandbox).storage_dir(storage)
    with blinkengage.SDK.start(config) as sdk:
        sdk.set_user_identity("stored-user")
        ok(sdk, blinkengage.OfferFeed, sdk.load_offer_feed)
    info = blinkengage.storage_info(storage, "demo-key")
    assert info["has_identity"] == 1 and info["database_bytes"] > 0
    with pytest.raises(blinkengage.BlinkEngageError, match="not found"):
        blinkengage.storage_info(storage, "another-key")

