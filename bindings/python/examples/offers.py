"""Prints the offers of a placement: python offers.py MOMENTS_URL [KEY] [PLACEMENT]"""

from __future__ import annotations

import sys
from typing import Optional

import blinkengage


def main(url: str, key: str = "demo-key", placement: str = "checkout") -> int:
    results: list[tuple[Optional[blinkengage.MomentsResponse], Optional[blinkengage.ServiceError]]] = []
    config = blinkengage.Config(key).moments_url(url)
    with blinkengage.SDK.start(config) as sdk:
        sdk.fetch_moments_offers(blinkengage.MomentsRequest(placement), lambda r, e: results.append((r, e)))
        sdk.run_until(lambda: bool(results))
    response, error = results[0] if results else (None, None)
    if response is None:
        print(f"no offers: {error}", file=sys.stderr)
        return 1
    for offer in response.offers:
        print(f"{offer.id:>6}  {offer.title}  ({offer.field('advertiser_name')})")
    print(f"{len(response.offers)} offers")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
