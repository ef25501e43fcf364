"""mirror.js's multi-head functions (split_heads, merge_heads, head_scores, multi_head_attention,
param_counts, head_width, head_divisor) against attention_core on seeded random cases, run in
node: the browser's live path must give the core's numbers (to 1e-12 here; the browser tests
hold the page to 1e-9).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import attention_core as ac
from node_mirror import per_case, run_driver

pytestmark = pytest.mark.node

N_CASES = 1200

RUNNER = per_case(r"""
    if (c.fn === "multi_head_attention") r = M.multi_head_attention(c.X, c.Wq, c.Wk, c.Wv, c.Wo, c.h);
    else if (c.fn === "head_scores") r = M.head_scores(c.X, c.Wq, c.Wk, c.h);
    else if (c.fn === "split_heads") r = M.split_heads(c.X, c.h);
    else if (c.fn === "merge_heads") r = M.merge_heads(c.H);
    else if (c.fn === "param_counts") r = M.param_counts(c.d_model, c.h, c.d_v);
    else if (c.fn === "head_divisor") r = M.head_divisor(c.d_model, c.h);
    else if (c.fn === "head_width") r = M.head_width(c.d_model, c.h);
""")


def run_node(cases: list[dict]) -> list[dict]:
    return run_driver(RUNNER, cases, expect=len(cases))


def make_cases(seed: int, count: int) -> list[dict]:
    """Random tokens and maps of many sizes and scales, including a different value width."""
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(count):
        h = int(rng.choice([1, 2, 4, 8]))
        d_k = int(rng.integers(1, 5))
        d_v = d_k if k % 5 else int(rng.integers(1, 5))
        d = h * d_k
        n = int(rng.integers(1, 9))
        spread = float(10 ** rng.uniform(-1, 1))
        X = rng.normal(size=(n, d)) * spread  # (n, d)
        Wq, Wk = rng.normal(size=(2, d, d)) / math.sqrt(d)  # (d, d) each
        Wv = rng.normal(size=(d, h * d_v)) / math.sqrt(d)  # (d, h·d_v)
        Wo = rng.normal(size=(h * d_v, d))  # (h·d_v, d)
        cases.append({"fn": "multi_head_attention", "X": X.tolist(), "Wq": Wq.tolist(), "Wk": Wk.tolist(),
                      "Wv": Wv.tolist(), "Wo": Wo.tolist(), "h": h})
    return cases


def test_multi_head_attention_matches_the_core():
    cases = make_cases(2024, N_CASES)
    results = run_node(cases)
    worst = 0.0
    for c, r in zip(cases, results):
        assert "ok" in r, r
        out, w, concat = ac.multi_head_attention(c["X"], c["Wq"], c["Wk"], c["Wv"], c["Wo"], c["h"])
        for got, want in ((r["ok"]["output"], out), (r["ok"]["weights"], w), (r["ok"]["concat"], concat)):
            got = np.asarray(got, dtype=float)
            assert got.shape == want.shape
            worst = max(worst, float(np.max(np.abs(got - want) / (1.0 + np.abs(want)))))
    assert worst < 1e-12, worst


def test_head_scores_split_and_merge_match_the_core():
    base = make_cases(7, 400)
    cases = []
    for c in base:
        cases.append({"fn": "head_scores", "X": c["X"], "Wq": c["Wq"], "Wk": c["Wk"], "h": c["h"]})
        cases.append({"fn": "split_heads", "X": c["Wv"], "h": c["h"]})
        cases.append({"fn": "merge_heads", "H": ac.split_heads(c["Wq"], c["h"]).tolist()})
    results = run_node(cases)
    for c, r in zip(cases, results):
        assert "ok" in r, r
        got = np.asarray(r["ok"], dtype=float)
        if c["fn"] == "head_scores":
            want = ac.head_scores(c["X"], c["Wq"], c["Wk"], c["h"])
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        elif c["fn"] == "split_heads":
            np.testing.assert_array_equal(got, ac.split_heads(c["X"], c["h"]))
        else:
            np.testing.assert_array_equal(got, ac.merge_heads(c["H"]))


def test_param_counts_and_divisors_match_the_core():
    cases, expected = [], []
    for d_model in (1, 2, 3, 4, 6, 8, 12, 16, 24, 64, 512, 768, 1024):
        for h in (1, 2, 3, 4, 8, 12, 16):
            for d_v in (None, 1, 7, 64):
                cases.append({"fn": "param_counts", "d_model": d_model, "h": h, "d_v": d_v})
                try:
                    expected.append(ac.param_counts(d_model, h, d_v))
                except ValueError as exc:
                    expected.append(exc)
            cases.append({"fn": "head_divisor", "d_model": d_model, "h": h})
            cases.append({"fn": "head_width", "d_model": d_model, "h": h})
            for fn in (ac.head_divisor, ac.head_width):
                try:
                    expected.append(fn(d_model, h))
                except ValueError as exc:
                    expected.append(exc)
    results = run_node(cases)
    refusals = 0
    for c, r, want in zip(cases, results, expected):
        if isinstance(want, ValueError):
            # Both refuse, with the same reason.
            assert "error" in r, (c, r)
            assert r["error"] == str(want), (r["error"], str(want))
            refusals += 1
            continue
        assert "ok" in r, (c, r)
        if isinstance(want, dict):
            assert r["ok"] == want, (c, r["ok"], want)
        else:
            assert r["ok"] == want, (c, r["ok"], want)
    assert refusals > 50  # the refusal path was exercised


def test_the_paper_setting_in_the_mirror():
    r = run_node([{"fn": "param_counts", "d_model": 512, "h": 8, "d_v": None}])[0]["ok"]
    assert (r["query_per_head"], r["qkv_total"], r["w_o"], r["total"], r["divisor"]) == (
        32768, 786432, 262144, 1048576, 8)
