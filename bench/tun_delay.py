#!/usr/bin/env python3
"""A delayed network path between two network namespaces, for measurements that need the kernel's own TCP on both
ends (TCP Fast Open cannot cross a user-space TCP proxy). Each namespace has a TUN device; this relay reads every IP
packet one side's kernel sends and writes it into the other side's device DELAY_MS later, in order, so a round trip
costs twice DELAY_MS. It exists because this machine's kernel has no netem qdisc.

    tun_delay.py NAMESPACE_A DEVICE_A NAMESPACE_B DEVICE_B DELAY_MS

The devices must exist (`ip -n NS tuntap add dev DEVICE mode tun`). Prints "ready" once both are attached, then runs
until killed."""
import collections
import ctypes
import fcntl
import os
import select
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN, IFF_NO_PI = 0x0001, 0x1000
CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)


def attach(namespace, device):
    """Opens `device` from inside `namespace` (a TUN device is found by name in the caller's namespace)."""
    handle = os.open("/var/run/netns/" + namespace, os.O_RDONLY)
    try:
        if libc.setns(handle, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns " + namespace)
    finally:
        os.close(handle)
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", device.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def main():
    a_namespace, a_device, b_namespace, b_device, delay_ms = sys.argv[1:6]
    delay = int(delay_ms) / 1000.0
    a, b = attach(a_namespace, a_device), attach(b_namespace, b_device)
    peer = {a: b, b: a}
    waiting = {a: collections.deque(), b: collections.deque()}  # packets due to be written into each device
    print("ready", flush=True)
    while True:
        now = time.monotonic()
        due = [queue[0][0] for queue in waiting.values() if queue]
        timeout = max(0.0, min(due) - now) if due else None
        readable, _, _ = select.select([a, b], [], [], timeout)
        now = time.monotonic()
        for fd in readable:
            waiting[peer[fd]].append((now + delay, os.read(fd, 65536)))
        for fd, queue in waiting.items():
            while queue and queue[0][0] <= now:
                os.write(fd, queue.popleft()[1])


if __name__ == "__main__":
    main()
