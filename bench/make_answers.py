"""Writes Moments answers of N offers with every documented field, from the fixture's first offer, for the
fetch + decode benchmark: python3 make_answers.py FIXTURE OUT_DIR N [N ...] (writes OUT_DIR/mN/offers.json), and the
same answers with every URL of every offer in one shape (OUT_DIR/mN-SHAPE/offers.json, SHAPES below): what a
server may choose to send, at what it costs to read."""
import copy
import json
import os
import re
import sys

fixture, out, counts = sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3:]]

# Each shape rewrites an http(s) URL of the answer.
SHAPES = {
    # Hosts as IP literals: ends in a number, or brackets.
    "ipv4": lambda url: re.sub(r"^https?://[^/?#]+", "http://10.20.30.40:8080", url),
    "ipv6": lambda url: re.sub(r"^https?://[^/?#]+", "http://[2001:db8::1]:8080", url),
    # A long query: a tracking context of 400 bytes.
    "long-query": lambda url: url + ("&" if "?" in url else "?") + "ctx=" + "a1b2c3d4e5-" * 36 + "end",
    # Percent-escapes in the path and the query.
    "escapes": lambda url: re.sub(r"^(https?://[^/?#]+)", r"\1/%E2%82%AC%20x", url)
    + ("&" if "?" in url else "?") + "n=J%C3%BCrgen%20M%C3%BCller&u=https%3A%2F%2Fshop.example%2Fp%3Fa%3D1",
}


def reshape(value, shape):
    if isinstance(value, dict):
        return {key: reshape(item, shape) for key, item in value.items()}
    if isinstance(value, list):
        return [reshape(item, shape) for item in value]
    if isinstance(value, str) and re.match(r"^https?://", value):
        return SHAPES[shape](value)
    return value


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
    for name, answer_body in [("m%d" % n, body)] + [
        ("m%d-%s" % (n, shape), dict(body, data=dict(body["data"], offers=reshape(offers, shape)))) for shape in SHAPES
    ]:
        os.makedirs(os.path.join(out, name), exist_ok=True)
        with open(os.path.join(out, name, "offers.json"), "w", encoding="utf-8") as f:
            json.dump(answer_body, f, ensure_ascii=False)
        print("%s: %d bytes" % (name, os.path.getsize(os.path.join(out, name, "offers.json"))))
