"""The example the benchmark's comparison pages show (benchmarks/lookup_example.py) is the seed's
soft lookup: the query at 40° with length 1.5 gives k2 55.1 % and the output 16.84. The floor page
(benchmarks/floor_page.py) starts from attention_core's numbers for it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import attention_core as ac

REPO = Path(__file__).resolve().parents[2]
# The benchmark scripts import each other from their folder; it is on the path only while they load.
_path = list(sys.path)
sys.path.insert(0, str(REPO / "benchmarks"))
try:
    import floor_page
    from lookup_example import KEYS, QUERY_ANGLE, QUERY_LENGTH, VALUES
finally:
    sys.path[:] = _path


def test_the_example_is_the_seeds_lookup():
    w = ac.softmax(KEYS @ ac.cartesian(QUERY_ANGLE, QUERY_LENGTH))  # (5,)
    assert abs(float(w[1]) * 100 - 55.1) <= 0.1
    assert int(np.argmax(w)) == 1
    assert abs(float(w @ VALUES) - 16.84) <= 0.01


def test_the_floor_page_starts_from_attention_cores_numbers():
    root = floor_page.build()
    models = {m.name: m for m in root.select({"type": object}) if getattr(m, "name", None)}
    w = ac.softmax(KEYS @ ac.cartesian(QUERY_ANGLE, QUERY_LENGTH))  # (5,)
    np.testing.assert_allclose(models["weights"].data["weight"], w, rtol=0, atol=1e-12)
    assert models["output"].text == "output = 16.84"
    assert models["angle"].value == QUERY_ANGLE and models["length"].value == QUERY_LENGTH
