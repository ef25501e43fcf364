"""The example the benchmark's comparison pages show (benchmarks/lookup_example.py) is the seed's
soft lookup: the query at 40° with length 1.5 gives k2 55.1 % and the output 16.84. The floor page
(benchmarks/floor_page.py) starts from attention_core's numbers for it."""

from __future__ import annotations


import numpy as np

import attention_core as ac

from bench_modules import bench_module

floor_page = bench_module("floor_page")
_example = bench_module("lookup_example")
KEYS, QUERY_ANGLE, QUERY_LENGTH, VALUES = _example.KEYS, _example.QUERY_ANGLE, _example.QUERY_LENGTH, _example.VALUES


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
