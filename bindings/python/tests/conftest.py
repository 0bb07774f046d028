"""Fixtures: a sandbox on an ephemeral loopback port per test, and a started SDK in dispatch mode."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
SERVER = os.path.join(HERE, "..", "..", "..", "sandbox", "server.py")

import blinkengage  # noqa: E402  (after the path is set)


@pytest.fixture
def sandbox():
    process = subprocess.Popen([sys.executable, SERVER, "--exit-on-stdin-eof"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("listening on "), line
    yield line.split()[-1]
    process.stdin.close()
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture
def sdk(sandbox):
    config = (blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4").engage_url(sandbox)
              .storage_dir(tempfile.mkdtemp(prefix="be-python-")))
    with blinkengage.SDK.start(config) as started:
        yield started
