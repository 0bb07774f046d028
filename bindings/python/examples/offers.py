"""The README's first program, complete: offers for a checkout and the user's offer feed, with every setting the
feed needs, callbacks dispatched on this thread.   python offers.py MOMENTS_URL ENGAGE_URL [STORAGE_DIR]"""

from __future__ import annotations

import os
import sys
from typing import Optional

import blinkengage


def main(moments_url: str, engage_url: str, storage: Optional[str] = None) -> int:
    # Where the SDK keeps the user's identity, queued reports and caches: a directory of the app's own.
    storage = storage or os.path.join(os.path.expanduser("~"), ".my-app", "blinkengage")
    os.makedirs(storage, exist_ok=True)
    config = (blinkengage.Config("demo-key")  # the publisher's API key
              .moments_url(moments_url)        # offers at moments like checkout
              .engage_url(engage_url)          # the offer feed and the events it reports
              .storage_dir(storage))
    pending = [2]

    def on_offers(response: Optional[blinkengage.MomentsResponse], error: Optional[blinkengage.ServiceError]) -> None:
        pending[0] -= 1
        if response is None:
            print(f"no offers: {error}")
            return
        for offer in response.offers:
            print(f"{offer.id}: {offer.title}")
        print(f"{len(response.offers)} offers")

    def on_feed(feed: Optional[blinkengage.OfferFeed], error: Optional[blinkengage.ServiceError]) -> None:
        pending[0] -= 1
        if feed is None:  # code 1: no user identity; 2: the feed is off or unreachable now (show nothing)
            print(f"no feed ({error.code if error else '?'}): {error}")
            return
        for group in feed.groups:
            print(f"{group.title}: {len(group.offers)} offers")
        print(f"{len(feed.groups)} groups")

    with blinkengage.SDK.start(config) as sdk:  # leaving it shuts down: queued reports go for up to 2 s
        sdk.set_user_identity("user-42")  # the app's own id for the user: without one the feed fails (1)
        sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout"), on_offers)
        sdk.load_offer_feed(on_feed)
        sdk.run_until(lambda: pending[0] == 0)  # callbacks run here, on this thread
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
