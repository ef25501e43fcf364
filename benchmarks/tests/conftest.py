"""The benchmark harness's own tests (`make bench-check`): they use the browser fixtures of
tests/browser/fixtures.py. They are not part of `make test`: they hold the measuring tools to
what they claim, not the product."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "browser"))

from fixtures import *  # noqa: E402,F401,F403
