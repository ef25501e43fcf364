"""One served instance per test module, for the tests of the served app (tests/app/serving.py)."""

from __future__ import annotations

import pytest
from serving import load_tools


@pytest.fixture(scope="module")
def app_server(tmp_path_factory):
    """`attention-explorable serve` on a free loopback port, for one test module."""
    srv = load_tools().Server(tmp_path_factory.mktemp("log") / "serve.log")
    try:
        yield srv
    finally:
        srv.stop()
