"""Writes Moments answers of N offers with every documented field, from the fixture's first offer, for the
fetch + decode benchmark: python3 make_answers.py FIXTURE OUT_DIR N [N ...] (writes OUT_DIR/mN/offers.json)."""
import copy
import json
import os
import sys

fixture, out, counts = sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3:]]
answer = json.load(open(fixture, encoding="utf-8"))
template = answer["data"]["offers"][0]
template.setdefault("save_for_later_url", "https://track.example.com/save?o_id=4001")
template.setdefault("offer_description", "Stream every series and film, ad-free, on any device.")
for n in counts:
    offers = []
    for i in range(n):
        offer = copy.deepcopy(template)
        offer["id"] = 5000 + i
        offer["title"] = "%s #%d" % (template["title"], i)
        offer["click_url"] = "https://track.example.com/sdk/offer_click?o_id=%d" % (5000 + i)
        offers.append(offer)
    body = copy.deepcopy(answer)
    body["data"]["offers"] = offers
    body["data"]["count"] = n
    os.makedirs(os.path.join(out, "m%d" % n), exist_ok=True)
    with open(os.path.join(out, "m%d" % n, "offers.json"), "w", encoding="utf-8") as f:
        json.dump(body, f, ensure_ascii=False)
    print("m%d: %d bytes" % (n, os.path.getsize(os.path.join(out, "m%d" % n, "offers.json"))))
