"""The workarounds' own tests (the shared fixtures are in tests/conftest.py)."""

import os

import pytest


def pytest_collection_modifyitems(config, items):
    """These tests are about the workarounds themselves: with any switched off they do not apply."""
    if os.environ.get("AE_WORKAROUNDS", "").strip().lower() not in ("", "on"):
        skip = pytest.mark.skip(reason="AE_WORKAROUNDS turns workarounds off: their own tests do not apply")
        for item in items:
            if "workarounds" in item.path.parts:
                item.add_marker(skip)
