#!/usr/bin/env python3
"""Writes the sandbox's creative fixtures: offer.png (made here, stdlib only) and offer.jpg (the same picture
through ImageMagick's `convert`, when it is installed). Their centre is one known colour, CENTRE, which the
window test looks for inside the card's image box.

Run it again only to change the pictures; the files are committed."""
import os
import shutil
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "images")
SIZE = 96
CENTRE = (0xF2, 0x99, 0x4A)      # the known colour
RING = (0xFF, 0xF4, 0xE8)


def pixel(x, y):
    """A warm square with a light ring near its edge; the centre disc is CENTRE exactly."""
    dx, dy = x - SIZE / 2 + 0.5, y - SIZE / 2 + 0.5
    distance = (dx * dx + dy * dy) ** 0.5
    if 36 <= distance <= 40:
        return RING
    if distance > 40:
        return (0xE0, 0x7B, 0x2C)
    return CENTRE


def png():
    rows = b"".join(b"\x00" + bytes(c for x in range(SIZE) for c in pixel(x, y)) for y in range(SIZE))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def main():
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "offer.png")
    with open(path, "wb") as f:
        f.write(png())
    print("wrote", path)
    if shutil.which("convert"):
        jpeg = os.path.join(OUT, "offer.jpg")
        subprocess.run(["convert", path, "-quality", "85", "-strip", jpeg], check=True)
        print("wrote", jpeg)


if __name__ == "__main__":
    main()
