"""benchmarks/load.py for the tests of the served app: its `Server` runs the real `serve` command
on a free loopback port (tests/conftest.py's `app_server` holds one per test module)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_tools():
    """benchmarks/load.py as a module (it is a script, not a package), loaded once."""
    if "ae_load" not in sys.modules:
        spec = importlib.util.spec_from_file_location("ae_load", ROOT / "benchmarks" / "load.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["ae_load"] = mod  # load.py's worker processes import it by this name
        spec.loader.exec_module(mod)
    return sys.modules["ae_load"]
