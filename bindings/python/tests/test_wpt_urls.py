"""Every URL of web-platform-tests' urltestdata.json (WHATWG's URL tests, read from ../shared/fixtures/wpt) through
the check that guards what the library hands a host: an offer's click_url, image and creative URLs, the answer's
privacy_url, a zone ad's link. Served by the sandbox, read through the C API as a host reads it.

Counted over the entries whose meaning does not depend on their base URL (no base, or an absolute http(s)://):
  invalid accepted  the suite says failure, or the URL is not http(s), and a field reads it: must be 0;
  valid refused     the suite parses it as http(s) and a field reads NULL: at most VALID_REFUSED_AT_MOST, each of a
                    kind SECURITY.md lists;
  href mismatches   a field reads something other than the suite's href: must be 0."""

from __future__ import annotations

import json
import os
import re
import urllib.request
from typing import Any, Optional

import pytest

import blinkengage
from blinkengage import ResultCallback

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "..", "..", "..", "..", "shared", "fixtures", "wpt", "urltestdata.json")
VALID_REFUSED_AT_MOST = 19  # measured; every one of a kind SECURITY.md lists (refusal_reason)

SPECIAL_ABSOLUTE = re.compile(r"^[\x00-\x20]*https?://", re.IGNORECASE)


def entries() -> list[dict[str, Any]]:
    if not os.path.exists(SUITE):
        pytest.skip(f"{SUITE} is absent (../shared/fixtures/wpt is not beside this checkout)")
    with open(SUITE, encoding="utf-8") as file:
        return [entry for entry in json.load(file) if isinstance(entry, dict)]


def independent_of_base(entry: dict[str, Any]) -> bool:
    return entry.get("base") is None or bool(SPECIAL_ABSOLUTE.match(entry["input"]))


def valid_http(entry: dict[str, Any]) -> bool:
    return not entry.get("failure") and entry.get("protocol") in ("http:", "https:")


def refusal_reason(url: str, hostname: str) -> Optional[str]:
    """The documented kind of refusal a valid URL falls under (SECURITY.md, "URLs"); None for none of them."""
    if any(ord(c) < 0x20 for c in url):
        return "a C0 control (tab, CR, LF, NUL ...)"
    if "\\" in url:
        return "a backslash"
    if any(label.startswith("xn--") for label in hostname.split(".")) and (re.search(r"[^\x00-\x7f%]", url) or "%" in url):
        return "a Unicode host IDNA2008 refuses (libidn2)"
    return None


def answer(url: str) -> str:
    offer = {"id": 1, "title": "t", "click_url": url, "image": url,
             "creatives": [{"url": url, "width": 1, "height": 1, "type": "main", "is_primary": True}]}
    return json.dumps({"data": {"offers": [offer], "count": 1, "privacy_url": url}})


def post(sandbox: str, path: str, body: Any) -> None:
    request = urllib.request.Request(sandbox + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()


def fetch(sdk: blinkengage.SDK, start: Any) -> Any:
    results: list[tuple[Any, Any]] = []
    callback: ResultCallback[Any] = lambda result, error: results.append((result, error))
    start(callback)
    assert sdk.run_until(lambda: bool(results))
    return results[0]


def read_fields(sdk: blinkengage.SDK, sandbox: str, url: str) -> Optional[list[Optional[str]]]:
    """What each field reads for an answer carrying `url`; None when the answer itself was refused."""
    post(sandbox, "/_sandbox/faults", {"path": "offers.json", "status": 200, "body": answer(url), "times": 1})
    response, error = fetch(sdk, lambda done: sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), done))
    if response is None:
        assert error is not None and error.code == 4, error  # a decoding error, never anything else
        return None
    offer = response.offers[0]
    fields = [offer.click_url, offer.image_url, offer.creatives[0].url, response.privacy_url]
    if not re.search(r"[|\r\n]", url):
        post(sandbox, "/_sandbox/faults", {"path": "adAPI.php", "status": 200, "body": f"1|{url}|{url}", "times": 1})
        ad, error = fetch(sdk, lambda done: sdk.fetch_zone_ad("1", done))
        fields += [ad.link_url, ad.image_url] if ad is not None else [None, None]
    return fields


def test_wpt_urls_through_every_url_field(sdk: blinkengage.SDK, sandbox: str) -> None:
    counted = [entry for entry in entries() if independent_of_base(entry)]
    invalid_accepted: list[str] = []
    valid_refused: list[dict[str, Any]] = []
    mismatches: list[str] = []
    accepted = 0
    for entry in counted:
        url = entry["input"]
        fields = read_fields(sdk, sandbox, url)
        read = [value for value in (fields or []) if value is not None]
        if not valid_http(entry):
            if read:
                invalid_accepted.append(url)
            continue
        mismatches += [f"{url!r} read as {value!r}, not {entry['href']!r}" for value in read if value != entry["href"]]
        if fields is None or len(read) != len(fields):
            valid_refused.append(entry)
        else:
            accepted += 1
    print(f"WPT URLs: {len(counted)} counted, {accepted} valid accepted, {len(valid_refused)} valid refused, "
          f"{len(invalid_accepted)} invalid accepted, {len(mismatches)} href mismatches")
    reasons: dict[str, int] = {}
    for entry in valid_refused:
        reason = refusal_reason(entry["input"], entry["hostname"])
        assert reason is not None, f"{entry['input']!r} is valid, refused, and of no documented kind"
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f"  {count:3} valid refused for {reason}")
    assert invalid_accepted == []
    assert mismatches == []
    assert len(valid_refused) <= VALID_REFUSED_AT_MOST
