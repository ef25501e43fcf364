"""mirror.js's convex_hull, length_sweep and prediction_error give attention_core's answers.

The cases are generated in Python with a seeded NumPy generator (1,000+ per function, with the
awkward ones on purpose: duplicates, collinear points, integer grids, single points, zero
lengths), run in one node process (JSON in on stdin, JSON out on stdout) and compared with
attention_core: hull vertices exactly (same algorithm, same order of operations), weights and
distances to rtol 1e-12 / atol 1e-13. Without node these tests skip with a visible reason,
except under CI=true, where they fail.
"""

from __future__ import annotations


import numpy as np
import pytest

import attention_core as ac
from node_mirror import run_driver

pytestmark = pytest.mark.node

RTOL, ATOL = 1e-12, 1e-13
N_CASES = 1200

DRIVER = r"""
"use strict";
const M = require(process.argv[1]);
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const cases = JSON.parse(input);
  const run = (f) => { try { return { ok: f() }; } catch (err) { return { error: String(err.message) }; } };
  const out = {
    hull: cases.hull.map((p) => run(() => M.convex_hull(p))),
    sweep: cases.sweep.map((c) => run(() => M.length_sweep(c.q, c.K, c.lengths, c.scale))),
    error: cases.error.map((c) => run(() => M.prediction_error(c.g, c.o))),
  };
  process.stdout.write(JSON.stringify(out));
});
"""


def hull_cases(rng) -> list:
    cases = []
    for i in range(N_CASES):
        m = int(rng.integers(1, 10))
        kind = i % 4
        if kind == 0:
            p = rng.uniform(-10, 10, size=(m, 2))  # (m, 2)
        elif kind == 1:
            p = rng.integers(-2, 3, size=(m, 2)).astype(float)  # (m, 2) many duplicates and collinear triples
        elif kind == 2:
            t = rng.uniform(-3, 3, size=m)  # (m,)
            d = rng.normal(size=2)  # (2,)
            p = np.outer(t, d) + rng.uniform(-1, 1, size=2)  # (m, 2) on one line (up to rounding)
        else:
            p = np.round(rng.uniform(-10, 10, size=(m, 2)) / 0.05) * 0.05  # (m, 2) the drag grid
            if m > 1:
                p[-1] = p[0]
        cases.append(p.tolist())
    return cases


def sweep_cases(rng) -> list:
    cases = []
    for i in range(N_CASES):
        d = int(rng.integers(1, 5))
        m = int(rng.integers(1, 7))
        q = rng.uniform(-10, 10, size=d)  # (d,)
        if i % 50 == 0:
            q = np.zeros(d)  # (d,) refused by both
        K = rng.uniform(-10, 10, size=(m, d))  # (m, d)
        end = float(rng.uniform(0.1, 20))
        lengths = np.linspace(0.0, end, int(rng.integers(1, 62)))  # (F,)
        scale = None if i % 3 == 0 else (1.0 if i % 3 == 1 else float(1 / np.sqrt(d)))
        cases.append({"q": q.tolist(), "K": K.tolist(), "lengths": lengths.tolist(), "scale": scale})
    return cases


def error_cases(rng) -> list:
    cases = []
    for i in range(N_CASES):
        if i % 3 == 0:
            g, o = float(rng.uniform(-10, 10)), float(rng.uniform(-10, 10))
        else:
            d = int(rng.integers(1, 5))
            g, o = rng.uniform(-10, 10, size=d).tolist(), rng.uniform(-10, 10, size=d).tolist()
        if i % 97 == 0 and isinstance(g, list):
            o = o + [1.0]  # a length mismatch: both refuse
        cases.append({"g": g, "o": o})
    return cases


@pytest.fixture(scope="module")
def results():
    rng = np.random.default_rng(20240611)
    cases = {"hull": hull_cases(rng), "sweep": sweep_cases(rng), "error": error_cases(rng)}
    return cases, run_driver(DRIVER, cases)


def test_convex_hull_parity(results):
    cases, out = results
    assert len(cases["hull"]) >= 1000
    for p, r in zip(cases["hull"], out["hull"]):
        want = ac.convex_hull(p)  # (H, 2)
        assert "ok" in r, (p, r)
        got = np.array(r["ok"], dtype=float).reshape(-1, 2)  # (H, 2)
        assert got.shape == want.shape and np.array_equal(got, want), (p, got.tolist(), want.tolist())


def test_length_sweep_parity(results):
    cases, out = results
    refused = 0
    assert len(cases["sweep"]) >= 1000
    for c, r in zip(cases["sweep"], out["sweep"]):
        try:
            want = ac.length_sweep(c["q"], c["K"], c["lengths"], scale=c["scale"])  # (F, M)
        except ValueError:
            assert "error" in r, (c, r)
            refused += 1
            continue
        assert "ok" in r, (c, r)
        np.testing.assert_allclose(np.array(r["ok"]), want, rtol=RTOL, atol=ATOL)
    assert 0 < refused < len(cases["sweep"]) // 10


def test_prediction_error_parity(results):
    cases, out = results
    refused = 0
    assert len(cases["error"]) >= 1000
    for c, r in zip(cases["error"], out["error"]):
        try:
            want = ac.prediction_error(c["g"], c["o"])
        except ValueError:
            assert "error" in r, (c, r)
            refused += 1
            continue
        assert "ok" in r, (c, r)
        assert abs(r["ok"] - want) <= ATOL + RTOL * abs(want), (c, r["ok"], want)
    assert refused > 0


def test_mirror_refuses_what_the_core_refuses():
    code = r"""
    const M = require(process.argv[1]);
    const tries = [() => M.convex_hull([]), () => M.convex_hull([[1, 2, 3]]), () => M.convex_hull([[0, NaN]]),
                   () => M.length_sweep([0, 0], [[1, 0]], [1]), () => M.length_sweep([1, 0], [[1, 0]], [-1]),
                   () => M.prediction_error([1, 2], [1])];
    process.stdout.write(JSON.stringify(tries.map((f) => { try { f(); return "no error"; } catch (e) { return "error"; } })));
    """
    assert run_driver(code) == ["error"] * 6
    for f in (lambda: ac.convex_hull(np.zeros((0, 2))), lambda: ac.convex_hull([[1, 2, 3]]),
              lambda: ac.convex_hull([[0, np.nan]]), lambda: ac.length_sweep([0, 0], [[1, 0]], [1]),
              lambda: ac.length_sweep([1, 0], [[1, 0]], [-1]), lambda: ac.prediction_error([1, 2], [1])):
        with pytest.raises(ValueError):
            f()
