"""Fixtures: a sandbox on an ephemeral loopback port per test, and a started SDK in dispatch mode.

The package under test is whichever `import blinkengage` finds: `make test` installs the wheel into a fresh
virtual environment and runs these tests from there; in the tree, run them with PYTHONPATH=bindings/python."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator

import pytest

import blinkengage

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "..", "..", "sandbox", "server.py")


@pytest.fixture
def sandbox() -> Iterator[str]:
    process = subprocess.Popen([sys.executable, SERVER, "--exit-on-stdin-eof"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdin is not None
    line = process.stdout.readline()
    assert line.startswith("listening on "), line
    yield line.split()[-1]
    process.stdin.close()
    process.terminate()
    process.wait(timeout=30)


def sandbox_config(sandbox: str) -> blinkengage.Config:
    return (blinkengage.Config("demo-key").moments_url(sandbox + "/native/v4").engage_url(sandbox)
            .zone_ad_url(sandbox + "/api/adAPI.php?AdID={zone}").storage_dir(tempfile.mkdtemp(prefix="be-python-")))


@pytest.fixture
def sdk(sandbox: str) -> Iterator[blinkengage.SDK]:
    with blinkengage.SDK.start(sandbox_config(sandbox)) as started:
        yield started
