#!/usr/bin/env python3
"""A network on loopback: accepts TCP and forwards each chunk after a one-way delay, both ways, so a connection
through it costs what it costs on a phone's network (default 50 ms each way: a 100 ms round trip).

  latency_proxy.py --target HOST:PORT [--delay-ms 50] [--jitter-ms 0] [--bytes-per-second 0] [--seed 1]

Prints "listening on PORT control CONTROL_PORT http://127.0.0.1:PORT" once ready and runs until stdin closes
(--exit-on-stdin-eof is accepted and changes nothing, for the tests' harness). The control port answers
any request with the counters as JSON: connections accepted, bytes each way, and the round trips the proxy
carried (each time the data turned around: a client chunk after server data, or a server chunk after client
data, counts one half). Tests assert these counts, never the time.
"""
import argparse
import asyncio
import json
import random
import sys


class Counters:
    def __init__(self):
        self.connections = 0
        self.up = 0
        self.down = 0
        self.turns = 0

    def as_json(self):
        return json.dumps({"connections": self.connections, "bytes_up": self.up, "bytes_down": self.down,
                           "round_trips": self.turns / 2})


async def pump(reader, writer, delay, jitter, rate, random_source, counters, direction, last, handshake_until=0.0):
    """Copies reader to writer, each chunk released `delay` (+ jitter) after it arrived, in order, and none before
    `handshake_until`: the client's connect() returned at once against the proxy, where on a network its SYN and
    SYN-ACK take a round trip before its first byte can leave."""
    queue = asyncio.Queue()
    loop = asyncio.get_running_loop()

    async def release():
        while True:
            due, chunk = await queue.get()
            if chunk is None:
                break
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(chunk)
            await writer.drain()
        try:
            writer.write_eof()
        except (OSError, RuntimeError):
            pass

    releaser = asyncio.create_task(release())
    earliest = 0.0
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                break
            if direction == "up":
                counters.up += len(chunk)
            else:
                counters.down += len(chunk)
            if last[0] != direction:
                counters.turns += 1
                last[0] = direction
            due = max(loop.time() + delay + (random_source.uniform(0, jitter) if jitter else 0), handshake_until)
            if rate:
                # A bandwidth cap: this chunk leaves no earlier than the last one plus its transmission time.
                earliest = max(earliest, loop.time()) + len(chunk) / rate
                due = max(due, earliest + delay)
            await queue.put((due, chunk))
    except (ConnectionError, OSError):
        pass
    await queue.put((0, None))
    await releaser


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True)
    parser.add_argument("--delay-ms", type=float, default=50)
    parser.add_argument("--jitter-ms", type=float, default=0)
    parser.add_argument("--bytes-per-second", type=float, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="what it does anyway")
    arguments = parser.parse_args()
    host, port = arguments.target.rsplit(":", 1)
    delay, jitter = arguments.delay_ms / 1000, arguments.jitter_ms / 1000
    random_source = random.Random(arguments.seed)
    counters = Counters()

    async def handle(client_reader, client_writer):
        counters.connections += 1
        # The first client byte reaches the server three one-way delays after connect() began (SYN, SYN-ACK,
        # then the byte itself), as on a network.
        handshake_until = asyncio.get_running_loop().time() + 3 * delay
        try:
            server_reader, server_writer = await asyncio.open_connection(host, int(port))
        except OSError:
            client_writer.close()
            return
        last = [None]
        await asyncio.gather(
            pump(client_reader, server_writer, delay, jitter, arguments.bytes_per_second, random_source, counters, "up", last,
                 handshake_until),
            pump(server_reader, client_writer, delay, jitter, arguments.bytes_per_second, random_source, counters, "down", last))
        for writer in (client_writer, server_writer):
            writer.close()

    async def control(reader, writer):
        await reader.read(4096)
        body = counters.as_json().encode()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                     % len(body) + body)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    control_server = await asyncio.start_server(control, "127.0.0.1", 0)
    listening = server.sockets[0].getsockname()[1]
    print(f"listening on {listening} control {control_server.sockets[0].getsockname()[1]} http://127.0.0.1:{listening}",
          flush=True)
    loop = asyncio.get_running_loop()
    stdin_closed = loop.create_future()
    loop.add_reader(sys.stdin.fileno(), lambda: stdin_closed.done() or (sys.stdin.read(1) or stdin_closed.set_result(None)))
    await stdin_closed


if __name__ == "__main__":
    asyncio.run(main())
