"""The benchmark scripts (benchmarks/), imported for the tests that hold them to what they claim.
They import each other from their folder, so it is on the path only while they load."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1]


def bench_module(name: str):
    """benchmarks/<name>.py as a module."""
    path = list(sys.path)
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path[:] = path
