#!/usr/bin/env python3
"""A small loopback proxy for the network tests: an HTTP proxy (absolute-form requests for http URLs, CONNECT
tunnels for https) and a SOCKS5 proxy (no authentication, CONNECT, names resolved here: socks5h), each on an
ephemeral port. Prints `listening http=PORT socks=PORT` first; appends one line per proxied connection to --log
("http GET http://...", "connect 127.0.0.1:PORT", "socks 127.0.0.1:PORT"). Python standard library only."""

import argparse
import socket
import struct
import sys
import threading
from socketserver import StreamRequestHandler, ThreadingTCPServer
from urllib.parse import urlsplit

LOG_LOCK = threading.Lock()
LOG_PATH = None


def log(line):
    with LOG_LOCK, open(LOG_PATH, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def pipe(a, b):
    """Copies both ways until either side closes."""
    def copy(source, target):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                target.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, target):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
    threading.Thread(target=copy, args=(b, a), daemon=True).start()
    copy(a, b)


class HTTPProxy(StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline().decode("latin-1").rstrip("\r\n")
        parts = line.split(" ")
        if len(parts) != 3:
            return
        method, target, version = parts
        headers = []
        while True:
            header = self.rfile.readline()
            if header in (b"\r\n", b"\n", b""):
                break
            headers.append(header)
        if method == "CONNECT":
            host, port = target.rsplit(":", 1)
            log("connect %s" % target)
            upstream = socket.create_connection((host, int(port)))
            self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            return pipe(self.connection, upstream)
        url = urlsplit(target)
        log("http %s %s" % (method, target))
        upstream = socket.create_connection((url.hostname, url.port or 80))
        path = url.path + ("?" + url.query if url.query else "")
        kept = [h for h in headers if not h.lower().startswith((b"proxy-", b"connection:"))]
        length = next((int(h.split(b":", 1)[1]) for h in headers if h.lower().startswith(b"content-length:")), 0)
        body = self.rfile.read(length)  # already in this handler's read buffer: forward it from there
        upstream.sendall(("%s %s %s\r\n" % (method, path or "/", version)).encode("latin-1") + b"".join(kept)
                         + b"Via: 1.1 blinkengage-test-proxy\r\nConnection: close\r\n\r\n" + body)
        pipe(self.connection, upstream)


class SOCKS5Proxy(StreamRequestHandler):
    def handle(self):
        version, count = struct.unpack("!BB", self.rfile.read(2))
        self.rfile.read(count)
        if version != 5:
            return
        self.wfile.write(b"\x05\x00")  # no authentication
        _, command, _, kind = struct.unpack("!BBBB", self.rfile.read(4))
        if kind == 1:
            host = socket.inet_ntoa(self.rfile.read(4))
        elif kind == 3:
            host = self.rfile.read(self.rfile.read(1)[0]).decode()
        else:
            return self.wfile.write(b"\x05\x08\x00\x01" + b"\0" * 6)
        port = struct.unpack("!H", self.rfile.read(2))[0]
        if command != 1:
            return self.wfile.write(b"\x05\x07\x00\x01" + b"\0" * 6)
        log("socks %s:%d" % (host, port))
        try:
            upstream = socket.create_connection((host, port))
        except OSError:
            return self.wfile.write(b"\x05\x05\x00\x01" + b"\0" * 6)
        self.wfile.write(b"\x05\x00\x00\x01" + socket.inet_aton("127.0.0.1") + struct.pack("!H", port))
        pipe(self.connection, upstream)


def main():
    global LOG_PATH
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log", required=True)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args()
    LOG_PATH = args.log
    ThreadingTCPServer.daemon_threads = True
    ThreadingTCPServer.allow_reuse_address = True
    servers = [ThreadingTCPServer(("127.0.0.1", 0), HTTPProxy), ThreadingTCPServer(("127.0.0.1", 0), SOCKS5Proxy)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print("listening http=%d socks=%d" % (servers[0].server_address[1], servers[1].server_address[1]), flush=True)
    if args.exit_on_stdin_eof:
        while sys.stdin.buffer.read(4096):
            pass
    else:
        threading.Event().wait()


if __name__ == "__main__":
    main()
