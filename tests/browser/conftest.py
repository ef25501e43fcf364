"""The real-browser fixtures (tests/browser/fixtures.py) for the tests in this folder."""

from fixtures import *  # noqa: F401,F403
from fixtures import pytest_configure  # noqa: F401
