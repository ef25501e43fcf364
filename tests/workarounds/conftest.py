"""The workarounds' tests use the real-browser fixtures of tests/browser/ (fixtures.py) and its helpers."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))

from fixtures import *  # noqa: E402,F401,F403

import os  # noqa: E402

import pytest  # noqa: E402


def pytest_collection_modifyitems(config, items):
    """These tests are about the workarounds themselves: with any switched off they do not apply."""
    if os.environ.get("AE_WORKAROUNDS", "").strip().lower() not in ("", "on"):
        skip = pytest.mark.skip(reason="AE_WORKAROUNDS turns workarounds off: their own tests do not apply")
        for item in items:
            if "workarounds" in item.path.parts:
                item.add_marker(skip)
