"""Offers and a zone ad at once with asyncio: python async_offers.py SANDBOX_URL"""

from __future__ import annotations

import asyncio
import sys

import blinkengage


async def main(base: str) -> int:
    config = blinkengage.Config("demo-key").moments_url(base + "/native/v4").zone_ad_url(base + "/api/adAPI.php?AdID={zone}")
    async with blinkengage.AsyncSDK(config) as sdk:
        try:
            response, ad = await asyncio.gather(sdk.fetch_moments_offers(blinkengage.MomentsRequest("checkout")),
                                                sdk.fetch_zone_ad("1"))
        except blinkengage.ServiceFailure as failure:
            print(f"the service said no: {failure}", file=sys.stderr)
            return 1
        for offer in response.offers:
            print(f"{offer.id:>6}  {offer.title}")
        print(f"zone 1: {'shown' if ad.is_enabled else 'hidden'}, links to {ad.link_url}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
