"""The workarounds' tests use the real-browser fixtures of tests/browser/ (fixtures.py) and its helpers."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))

from fixtures import *  # noqa: E402,F401,F403
