#!/usr/bin/env python3
"""A local stand-in for the BlinkEngage services: the Moments API, with switches for faults.

Python standard library only. Listens on loopback, on an ephemeral port unless --port is given, and prints
`listening on http://127.0.0.1:PORT` as its first line. Every request is recorded; tests read the record and
set faults through the /_sandbox/ control endpoints:

  GET  /_sandbox/requests          every request received, in order (method, path, query, headers, body)
  POST /_sandbox/reset             forget requests and faults
  POST /_sandbox/faults            add a fault rule (JSON), see Fault below
  POST /_sandbox/faults/clear      forget the fault rules only (the record stays)
  POST /_sandbox/hosts             {"track": URL, "adv": URL}: pixel beacons in answers point there (proxies of
                                   their own in front of this sandbox), so each pixel host is a host apart
  POST /_sandbox/feed              {"mode": "normal" | "disabled" | "empty"}: what the feed serves
  POST /_sandbox/release           opens the gate: requests held by a "gate" fault go on
  POST /_sandbox/tokens/revoke     forget every issued token: the next feed or events call answers 401
  GET  /_sandbox/health            200 "ok"
  GET  /_sandbox/events            events received: {"distinct": n, "total": n, "events": [first copy of each, in order]}
  GET  /_sandbox/beacons           beacon hits: {"total": n, "hits": {path: count}, "order": [path, ...]}
  GET  /_sandbox/images            image answers, in order: [{"path", "status", "bytes"}, ...] (bytes of body sent)

Services:
  POST <any prefix>/offers.json    the Moments API (docs/PROTOCOL.md section 1)
  POST /v1/users                   registers a user: 201 {"user_id", "token"}
  GET  /v1/offer-feed              the offer feed for a registered user's Bearer token (401 otherwise), with a
                                   new feed_id on each load
  POST /v1/events                  feed events (docs/PROTOCOL.md section 2); repeats are dropped by event id
  GET  <any prefix>/adAPI.php?AdID=N  a zone ad: zone 1 the fixture's ad, 2 hidden ("0||"), 3 a short answer,
                                   4 a bad flag, 5 a bad URL, 6 two lines, 7 four fields; any other zone hidden
  GET  /b/...                      tracking beacons: any path below /b/ answers 200 with a 1x1 GIF
  GET  /cdn/...                    creatives: a path ending .jpg serves fixtures/images/offer.jpg, any other
                                   offer.png, with an ETag, a Last-Modified and "Cache-Control: max-age=3600";
                                   If-None-Match / If-Modified-Since that match answer 304 without a body.
                                   Query switches: cache=<Cache-Control value>, validators=0 (no ETag nor
                                   Last-Modified), type=<Content-Type>, size=N (N bytes of PNG-signed padding),
                                   v=<anything> (a different URL for the same picture), expires=<seconds from
                                   now, or text> and date=<seconds from now> (Expires and Date headers), age=<text>
                                   (an Age header), vary=<text> (a Vary header), cache304=<Cache-Control of a 304> (empty: none),
                                   validators=lm (a Last-Modified and no ETag), etag=<text> and lm=<text> (that ETag
                                   and Last-Modified, sent as they are: a CR in them reaches the client)
The creative and zone ad image URLs of https://cdn.example.com/ in the answers point at /cdn/ of this sandbox.
"""

import argparse
import copy
import hashlib
import gzip
import json
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
# A 1x1 transparent GIF, the answer to every beacon.
GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


def http_date(seconds):
    """An IMF-fixdate of a time in seconds since 1970."""
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(seconds))


class Fault:
    """One fault rule, applied to requests whose path contains `path` (all when empty), `times` times
    (for ever when 0).

    Keys: latency_ms (delay before answering), status (answer with this status) and body (its raw text),
    retry_after (a Retry-After header), malformed (a truncated JSON body), oversize (a body over 8 MiB),
    gzip (compress the normal answer), redirect (answer 302 to this URL), drop (close the connection without answering),
    close_after (answer normally, then close the kept connection without announcing it), reset (send a TCP
    reset), hang (never answer until the sandbox stops), gate (hold the request until /_sandbox/release, then
    apply the rest of the rule)."""

    def __init__(self, spec):
        self.spec = spec
        self.path = spec.get("path", "")
        self.remaining = int(spec.get("times", 0)) or None

    def matches(self, path):
        return self.path in path


class Sandbox:
    def __init__(self, api_key, fixtures):
        self.api_key = api_key
        self.lock = threading.Lock()
        self.requests = []
        self.faults = []
        self.events = {}        # id -> first copy, in arrival order
        self.event_total = 0
        self.beacon_hits = {}
        self.beacon_order = []
        self.tokens = {}        # token -> user_id
        self.feed_mode = "normal"
        self.feed_loads = 0
        self.gate = threading.Event()
        self.base_url = ""      # set once listening: tracking URLs in answers point back here
        self.public_bases = {}  # "track" / "adv" -> the base URL their beacons use instead (POST /_sandbox/hosts)
        self.stopping = threading.Event()
        with open(os.path.join(fixtures, "moments-offers.json"), encoding="utf-8") as f:
            self.moments = json.load(f)
        with open(os.path.join(fixtures, "offer-feed.json"), encoding="utf-8") as f:
            self.feed = json.load(f)
        with open(os.path.join(fixtures, "zone-ad.txt"), encoding="utf-8") as f:
            self.zone_ad = f.read()
        self.images = {}
        for name in ("offer.png", "offer.jpg"):
            with open(os.path.join(fixtures, "images", name), "rb") as f:
                self.images[name] = f.read()
        self.image_answers = []

    def local_cdn(self, url):
        """A creative URL of the fixtures' CDN, pointing at this sandbox's /cdn/ instead."""
        cdn = "https://cdn.example.com/"
        return self.base_url + "/cdn/" + url[len(cdn):] if isinstance(url, str) and url.startswith(cdn) else url

    def local_tracking(self, answer):
        """The answer with its beacon URLs (pixel, adv_pixel_url, beacons.*) pointing at this sandbox's /b/
        endpoints, so the beacons the library fires stay on this machine. click_url is the host's to open."""
        def local(url):
            for host in ("https://track.example.com/", "https://adv.example.net/"):
                if url.startswith(host):
                    name = host.split("//")[1].split(".")[0]
                    return "%s/b/%s/%s" % (self.public_bases.get(name, self.base_url), name, url[len(host):])
            return url
        offers = answer.get("data", {}).get("offers", []) + [o for g in answer.get("groups", []) for o in g["offers"]]
        for offer in offers:
            if "image" in offer:
                offer["image"] = self.local_cdn(offer["image"])
            for creative in offer.get("creatives") or []:
                creative["url"] = self.local_cdn(creative.get("url"))
            for key in ("pixel", "adv_pixel_url"):
                if offer.get(key):
                    offer[key] = local(offer[key])
            for key, url in (offer.get("beacons") or {}).items():
                offer["beacons"][key] = local(url)
        return answer

    def record(self, entry):
        with self.lock:
            self.requests.append(entry)

    def reset(self):
        with self.lock:
            self.requests = []
            self.faults = []
            self.events = {}
            self.event_total = 0
            self.beacon_hits = {}
            self.beacon_order = []
            self.tokens = {}
            self.feed_mode = "normal"
            self.image_answers = []

    def add_fault(self, spec):
        with self.lock:
            if spec.get("gate"):
                self.gate = threading.Event()
            self.faults.append(Fault(spec))

    def take_fault(self, path):
        """The first live fault rule for `path`, counting one use of it."""
        with self.lock:
            for fault in self.faults:
                if fault.matches(path) and (fault.remaining is None or fault.remaining > 0):
                    if fault.remaining is not None:
                        fault.remaining -= 1
                    return fault.spec
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Without this every keep-alive answer waits for the delayed ACK (about 44 ms).
    disable_nagle_algorithm = True
    sandbox: Sandbox = None

    def log_message(self, format, *args):  # quiet: tests read the record instead
        pass

    def setup(self):
        # TLS: the handshake runs here, on this connection's thread, not in accept on the listening thread, where
        # it would hold every other connection's handshake behind it (the round-trip benchmarks open several).
        # A client that refuses the certificate (the CA tests) ends the connection quietly, as accept did.
        self.handshake_failed = False
        if hasattr(self.request, "do_handshake"):
            try:
                self.request.do_handshake()
            except OSError:
                self.handshake_failed = True
        super().setup()

    def handle(self):
        if not self.handshake_failed:
            super().handle()

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_HEAD(self):
        """Any HEAD (a warm-up's): answered 204 on a kept connection, then recorded, so a test that sees the record
        knows the answer is on its way and the connection about to be free; no fault applies."""
        parts = urlsplit(self.path)
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.wfile.flush()
        self.sandbox.record({"method": "HEAD", "path": parts.path, "query": {}, "raw_query": parts.query,
                             "headers": {k.lower(): v for k, v in self.headers.items()}, "body": "",
                             "client_port": self.client_address[1], "time": time.time()})

    # -- plumbing -------------------------------------------------------------------------------------------

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def start_response(self, status, headers):
        """The status line and Server, and the current Date unless `headers` bring their own."""
        if headers and "Date" in headers:
            self.log_request(status)
            self.send_response_only(status)
            self.send_header("Server", self.version_string())
        else:
            self.send_response(status)

    def send(self, status, body=b"", content_type="application/json", headers=None, compress=False):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        self.start_response(status, headers)
        if compress:
            body = gzip.compress(body)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self, method):
        parts = urlsplit(self.path)
        body = self.read_body()
        if parts.path.startswith("/_sandbox/"):
            return self.control(method, parts.path, body)
        self.sandbox.record({
            "method": method,
            "path": parts.path,
            "query": {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()},
            "raw_query": parts.query,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
            "client_port": self.client_address[1],
            "time": time.time(),
        })
        fault = self.sandbox.take_fault(parts.path)
        if fault and self.apply_fault(fault):
            return
        compress = bool(fault and fault.get("gzip"))
        if method == "POST" and parts.path.endswith("/offers.json"):
            return self.moments_offers(parts, body, compress)
        if method == "POST" and parts.path == "/v1/users":
            return self.register_user(parts, body)
        if method == "GET" and parts.path == "/v1/offer-feed":
            return self.offer_feed(parts)
        if method == "POST" and parts.path == "/v1/events":
            return self.events(parts, body)
        if method == "GET" and parts.path.endswith("/adAPI.php"):
            return self.zone_ad(parts)
        if method == "GET" and parts.path.startswith("/b/"):
            return self.beacon(parts)
        if method == "GET" and parts.path.startswith("/cdn/"):
            return self.image(parts)
        self.send(404, {"error": "no such endpoint: " + parts.path})

    def apply_fault(self, fault):
        """Applies a fault; True when the answer was sent (or withheld) by it."""
        if fault.get("gate"):
            with self.sandbox.lock:
                gate = self.sandbox.gate
            while not gate.wait(0.1) and not self.sandbox.stopping.is_set():
                pass
        if fault.get("latency_ms"):
            self.sandbox.stopping.wait(fault["latency_ms"] / 1000.0)
        if fault.get("close_after"):
            self.close_connection = True  # after the normal answer, which says nothing of it
        if fault.get("hang"):
            self.sandbox.stopping.wait()
            self.close_connection = True
            return True
        if fault.get("drop"):
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return True
        if fault.get("reset"):
            self.close_connection = True
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            return True
        if fault.get("malformed"):
            self.send(200, '{"data": {"offers": [{"id": 1, "title": "cut off')
            return True
        if fault.get("oversize"):
            # Valid JSON, 9 MiB of it: only the size is wrong. Compressed, only the decoded size is.
            padding = " " * (9 * 1024 * 1024)
            self.send(200, '{"data": {"offers": []' + padding + "}}", compress=bool(fault.get("gzip")))
            return True
        if fault.get("redirect"):
            self.send(302, "", headers={"Location": fault["redirect"]})
            return True
        if fault.get("status"):
            headers = {"Retry-After": str(fault["retry_after"])} if "retry_after" in fault else None
            self.send(int(fault["status"]), fault.get("body", ""), headers=headers)
            return True
        return False

    def control(self, method, path, body):
        if path == "/_sandbox/requests" and method == "GET":
            with self.sandbox.lock:
                return self.send(200, list(self.sandbox.requests))
        if path == "/_sandbox/reset" and method == "POST":
            self.sandbox.reset()
            return self.send(200, {"ok": True})
        if path == "/_sandbox/hosts" and method == "POST":
            # {"track": URL, "adv": URL}: the pixel hosts' beacons go there (a proxy in front of this sandbox),
            # so each pixel host is a host of its own.
            with self.sandbox.lock:
                self.sandbox.public_bases = {k: v for k, v in json.loads(body).items() if k in ("track", "adv")}
            return self.send(200, {"ok": True})
        if path == "/_sandbox/feed" and method == "POST":
            with self.sandbox.lock:
                self.sandbox.feed_mode = json.loads(body)["mode"]
            return self.send(200, {"ok": True})
        if path == "/_sandbox/release" and method == "POST":
            with self.sandbox.lock:
                self.sandbox.gate.set()
            return self.send(200, {"ok": True})
        if path == "/_sandbox/tokens/revoke" and method == "POST":
            with self.sandbox.lock:
                self.sandbox.tokens = {}
            return self.send(200, {"ok": True})
        if path == "/_sandbox/faults/clear" and method == "POST":
            with self.sandbox.lock:
                self.sandbox.faults = []
            return self.send(200, {"ok": True})
        if path == "/_sandbox/faults" and method == "POST":
            self.sandbox.add_fault(json.loads(body or b"{}"))
            return self.send(200, {"ok": True})
        if path == "/_sandbox/events":
            with self.sandbox.lock:
                events = list(self.sandbox.events.values())
                return self.send(200, {"distinct": len(events), "total": self.sandbox.event_total, "events": events})
        if path == "/_sandbox/beacons":
            with self.sandbox.lock:
                return self.send(200, {"total": len(self.sandbox.beacon_order), "hits": dict(self.sandbox.beacon_hits),
                                       "order": list(self.sandbox.beacon_order)})
        if path == "/_sandbox/images":
            with self.sandbox.lock:
                return self.send(200, list(self.sandbox.image_answers))
        if path == "/_sandbox/health":
            return self.send(200, "ok", content_type="text/plain")
        self.send(404, {"error": "no such control endpoint"})

    # -- events and beacons -----------------------------------------------------------------------------------

    def bearer_known(self):
        """True when the request carries no token or a token this sandbox issued."""
        header = self.headers.get("Authorization")
        if header is None:
            return None
        with self.sandbox.lock:
            return header.startswith("Bearer ") and header[7:] in self.sandbox.tokens

    def register_user(self, parts, body):
        if parse_qs(parts.query).get("api_key", [""])[0] != self.sandbox.api_key:
            return self.send(401, {"error": "invalid api_key"})
        try:
            request = json.loads(body)
            if not request.get("pub_user_id") or not request.get("device_id"):
                raise ValueError
        except ValueError:
            return self.send(400, {"error": "pub_user_id and device_id are required"})
        with self.sandbox.lock:
            number = len(self.sandbox.tokens) + 1
            token = "tok-%d-%s" % (number, os.urandom(4).hex())
            self.sandbox.tokens[token] = "u-" + request["pub_user_id"]
        self.send(201, {"user_id": "u-" + request["pub_user_id"], "token": token})

    def offer_feed(self, parts):
        if parse_qs(parts.query).get("api_key", [""])[0] != self.sandbox.api_key or not self.bearer_known():
            return self.send(401, {"error": "invalid or missing token"})
        with self.sandbox.lock:
            self.sandbox.feed_loads += 1
            mode, number = self.sandbox.feed_mode, self.sandbox.feed_loads
        answer = self.sandbox.local_tracking(copy.deepcopy(self.sandbox.feed))
        answer["feed_id"] = "f_%d" % number
        if mode == "disabled":
            answer = {"feed_id": answer["feed_id"], "enabled": False, "groups": []}
        elif mode == "empty":
            answer["groups"] = []
        self.send(200, answer)

    def events(self, parts, body):
        query = parse_qs(parts.query)
        if query.get("api_key", [""])[0] != self.sandbox.api_key or self.bearer_known() is False:
            return self.send(401, {"error": "invalid api_key or token"})
        try:
            batch = json.loads(body)
            events = batch["events"]
            if not isinstance(events, list) or not 1 <= len(events) <= 100:
                raise ValueError("a batch holds 1 to 100 events")
            for event in events:
                if not isinstance(event, dict) or not isinstance(event.get("id"), str) or not event.get("type"):
                    raise ValueError("every event needs an id and a type")
        except (ValueError, KeyError, TypeError) as error:
            return self.send(400, {"error": "bad batch: %s" % error})
        with self.sandbox.lock:
            for event in events:
                self.sandbox.event_total += 1
                self.sandbox.events.setdefault(event["id"], event)
        self.send(200, {"accepted": len(events)})


    def beacon(self, parts):
        with self.sandbox.lock:
            self.sandbox.beacon_hits[parts.path] = self.sandbox.beacon_hits.get(parts.path, 0) + 1
            self.sandbox.beacon_order.append(parts.path)
        self.send(200, GIF, content_type="image/gif")

    # -- creatives --------------------------------------------------------------------------------------------

    def image(self, parts):
        query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        jpeg = parts.path.endswith(".jpg")
        body = self.sandbox.images["offer.jpg" if jpeg else "offer.png"]
        if "size" in query:
            body = b"\x89PNG\r\n\x1a\n" + b"\0" * max(0, int(query["size"]) - 8)
        headers = {"Cache-Control": query.get("cache", "max-age=3600")}
        now = time.time()
        for name, key in (("Expires", "expires"), ("Date", "date")):
            if key in query:
                value = query[key]
                headers[name] = http_date(now + int(value)) if value.lstrip("-").isdigit() else value
        if "age" in query:
            headers["Age"] = query["age"]
        if "vary" in query:
            headers["Vary"] = query["vary"]
        etag = query.get("etag", '"%s"' % hashlib.sha1(body).hexdigest()[:16])
        modified = query.get("lm", "Tue, 01 Dec 2026 10:00:00 GMT")
        if query.get("validators") != "0":
            if query.get("validators") != "lm":
                headers["ETag"] = etag
            headers["Last-Modified"] = modified
            if ("ETag" in headers and self.headers.get("If-None-Match") == etag) or (
                    self.headers.get("If-None-Match") is None and self.headers.get("If-Modified-Since") == modified):
                if "cache304" in query:
                    headers["Cache-Control"] = query["cache304"]
                    if not query["cache304"]:
                        del headers["Cache-Control"]
                return self.answer_image(parts, 304, b"", headers)
        if query.get("cache") == "":
            del headers["Cache-Control"]
        content_type = query.get("type", "image/jpeg" if jpeg else "image/png")
        self.answer_image(parts, 200, body, headers, content_type)

    def answer_image(self, parts, status, body, headers, content_type="image/png"):
        with self.sandbox.lock:
            self.sandbox.image_answers.append({"path": parts.path, "query": parts.query, "status": status, "bytes": len(body)})
        if status == 304:
            self.start_response(304, headers)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            return
        self.send(status, body, content_type=content_type, headers=headers)

    # -- zone ads ---------------------------------------------------------------------------------------------

    def zone_ad(self, parts):
        zone = parse_qs(parts.query).get("AdID", [""])[0]
        answers = {
            "1": self.sandbox.zone_ad.replace("https://cdn.example.com/", self.sandbox.base_url + "/cdn/"),
            "2": "0||\n",
            "3": "1|https://cdn.example.com/only-image.png",
            "4": "yes|https://cdn.example.com/a.png|https://www.example.com/",
            "5": "1|javascript:alert(1)|https://www.example.com/",
            "6": "1|https://cdn.example.com/a.png|https://www.example.com/\n0||",
            "7": "1|https://cdn.example.com/a.png|https://www.example.com/|extra",
        }
        self.send(200, answers.get(zone, "0||"), content_type="text/plain")

    # -- the Moments API --------------------------------------------------------------------------------------

    def moments_offers(self, parts, body, compress):
        query = parse_qs(parts.query, keep_blank_values=True)
        if query.get("api_key", [""])[0] != self.sandbox.api_key:
            return self.send(401, {"error": {"message": "invalid api_key"}})
        for name, allowed in (("loyaltyboost", {"0", "1", "2"}), ("creative", {"0", "1"})):
            if name in query and query[name][0] not in allowed:
                return self.send(400, {"error": "invalid " + name})
        if "campaignId" in query and not query["campaignId"][0]:
            return self.send(400, {"error": "invalid campaignId"})
        try:
            payload = json.loads(body or b"{}")
            if not isinstance(payload, dict) or not all(isinstance(v, str) for v in payload.values()):
                raise ValueError
        except ValueError:
            return self.send(400, {"message": "the body must be a JSON object of strings"})

        answer = self.sandbox.local_tracking(copy.deepcopy(self.sandbox.moments))
        offers = answer["data"]["offers"]
        if query.get("creative", ["0"])[0] == "1":
            offers = [o for o in offers if o.get("image") or any(c.get("is_primary") for c in o.get("creatives", []))]
        if "campaignId" in query:
            offers = [o for o in offers if str(o.get("campaign_id")) == query["campaignId"][0]]
        if payload.get("dev") == "1":
            for offer in offers:
                offer["title"] = "[TEST] " + offer["title"]
        answer["data"]["offers"] = offers
        answer["data"]["count"] = len(offers)
        self.send(200, answer, compress=compress)


def self_signed_context():
    """A TLS context with a throwaway self-signed certificate for 127.0.0.1, made with the openssl tool."""
    import ssl
    import subprocess
    import tempfile
    directory = tempfile.mkdtemp(prefix="be-sandbox-tls-")
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def ca_signed_context(directory, host="127.0.0.1"):
    """A TLS context for `host` (an IPv4 address) whose certificate is signed by a CA made here: DIRECTORY/ca.pem
    is that CA (for clients to trust) and DIRECTORY/pin.txt the server key's sha256// pin. Made with the openssl
    tool."""
    import base64
    import hashlib
    import ssl
    import subprocess

    def path(name):
        return os.path.join(directory, name)

    def openssl(*arguments, data=None):
        return subprocess.run(["openssl"] + list(arguments), check=True, capture_output=True, input=data).stdout

    os.makedirs(directory, exist_ok=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=BlinkEngage Test CA",
            "-keyout", path("ca-key.pem"), "-out", path("ca.pem"))
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + host, "-keyout", path("key.pem"),
            "-out", path("server.csr"))
    with open(path("san.cnf"), "w") as f:
        f.write("subjectAltName=IP:%s\n" % host)
    openssl("x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca-key.pem"),
            "-CAcreateserial", "-days", "1", "-extfile", path("san.cnf"), "-out", path("cert.pem"))
    public_key = openssl("pkey", "-in", path("key.pem"), "-pubout", "-outform", "DER")
    with open(path("pin.txt"), "w") as f:
        f.write("sha256//" + base64.b64encode(hashlib.sha256(public_key).digest()).decode())
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(path("cert.pem"), path("key.pem"))
    return context


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1",
                        help="the IPv4 address to listen on (default 127.0.0.1; another only inside a test's own network)")
    parser.add_argument("--port", type=int, default=0, help="port on HOST (default: an ephemeral one)")
    parser.add_argument("--api-key", default="demo-key", help="the API key the services accept")
    parser.add_argument("--fixtures", default=os.path.join(HERE, "fixtures"))
    parser.add_argument("--tls", action="store_true",
                        help="serve https with a freshly made self-signed certificate (which clients must refuse)")
    parser.add_argument("--tls-ca", metavar="DIRECTORY",
                        help="serve https with a certificate signed by a CA made in DIRECTORY (ca.pem, pin.txt)")
    parser.add_argument("--tcp-fastopen", action="store_true",
                        help="accept TCP Fast Open (the kernel's net.ipv4.tcp_fastopen needs its server bit, 2)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="stop when standard input closes (so a test's server dies with the test)")
    args = parser.parse_args()

    sandbox = Sandbox(args.api_key, args.fixtures)
    Handler.sandbox = sandbox
    ThreadingHTTPServer.request_queue_size = 1024  # bursts of connections must not stall in the backlog
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer((args.host, args.port), Handler, bind_and_activate=False)
    server.server_bind()
    if args.tcp_fastopen:
        # Before listen: a queue of 16 connections whose SYN may carry data.
        server.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_FASTOPEN, 16)
    server.server_activate()
    scheme = "http"
    if args.tls or args.tls_ca:
        scheme = "https"
        context = ca_signed_context(args.tls_ca, args.host) if args.tls_ca else self_signed_context()
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    sandbox.base_url = "%s://%s:%d" % (scheme, args.host, server.server_address[1])
    print("listening on " + sandbox.base_url, flush=True)

    if args.exit_on_stdin_eof:
        def watch_stdin():
            while sys.stdin.buffer.read(4096):
                pass
            sandbox.stopping.set()
            server.shutdown()
        threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        sandbox.stopping.set()
        server.server_close()


if __name__ == "__main__":
    main()
