"""mirror.js's scaling functions (softmax_jacobian, entropy, flat_line, normal_density) against
attention_core on seeded random cases, run in node: the browser's live path must print the
core's numbers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import attention_core as ac
from node_mirror import per_case, run_driver

pytestmark = pytest.mark.node


RUNNER = per_case(r"""
    if (c.fn === "softmax_jacobian") r = M.softmax_jacobian(c.weights);
    else if (c.fn === "entropy") r = M.entropy(c.weights);
    else if (c.fn === "flat_line") r = M.flat_line(c.widths, c.base, c.scaled);
    else if (c.fn === "normal_density") r = c.x.map((x) => M.normal_density(x, c.variance));
""")


def run_node(cases: list[dict]) -> list[dict]:
    return run_driver(RUNNER, cases, expect=len(cases))


def random_weights(rng, n: int) -> list[np.ndarray]:
    """Softmax rows of every temperature, from near-uniform to one-hot, plus exact edge rows."""
    rows = []
    for _ in range(n):
        m = int(rng.integers(1, 9))
        scale = float(10 ** rng.uniform(-2, 2.5))
        rows.append(ac.softmax(rng.normal(scale=scale, size=m)))  # (m,)
    rows += [np.array([1.0]), np.array([0.0, 1.0, 0.0]), np.full(5, 0.2), np.zeros(3)]
    return rows


def test_jacobian_and_entropy_parity():
    rng = np.random.default_rng(2024)
    rows = random_weights(rng, 1200)
    cases = [{"fn": "softmax_jacobian", "weights": r.tolist()} for r in rows]
    cases += [{"fn": "entropy", "weights": r.tolist()} for r in rows]
    out = run_node(cases)
    worst_j = worst_h = 0.0
    for r, res in zip(rows, out[: len(rows)]):
        assert "ok" in res, res
        want = ac.softmax_jacobian(r)  # (m, m)
        got = np.array(res["ok"], dtype=float)
        assert got.shape == want.shape
        worst_j = max(worst_j, float(np.max(np.abs(got - want))))
    for r, res in zip(rows, out[len(rows):]):
        assert "ok" in res, res
        worst_h = max(worst_h, abs(res["ok"] - float(ac.entropy(r))))
    assert worst_j == 0.0  # the same products in the same order: bit for bit
    assert worst_h < 1e-14  # Math.log and np.log may differ in the last bit


def test_flat_line_parity():
    rng = np.random.default_rng(7)
    cases, wants = [], []
    for i in range(1000):
        widths = (2.0 ** rng.uniform(0, 12, size=int(rng.integers(1, 6)))).tolist()
        base = rng.normal(scale=3.0, size=int(rng.integers(1, 6))).tolist()
        scaled = bool(i % 2)
        cases.append({"fn": "flat_line", "widths": widths, "base": base, "scaled": scaled})
        wants.append(ac.flat_line(widths, base, scaled=scaled))
    # The plate's own cases: every power of two, both ways.
    for scaled in (True, False):
        widths = [float(2**e) for e in range(11)]
        cases.append({"fn": "flat_line", "widths": widths, "base": [2, 1, 0], "scaled": scaled})
        wants.append(ac.flat_line(widths, [2, 1, 0], scaled=scaled))
    worst = 0.0
    for want, res in zip(wants, run_node(cases)):
        assert "ok" in res, res
        got = np.array(res["ok"], dtype=float)
        assert got.shape == want.shape
        worst = max(worst, float(np.max(np.abs(got - want))))
    assert worst < 1e-15


def test_normal_density_parity():
    rng = np.random.default_rng(99)
    cases, wants = [], []
    for _ in range(1000):
        v = float(2.0 ** rng.integers(0, 11)) if rng.random() < 0.5 else float(10 ** rng.uniform(-3, 4))
        x = rng.normal(scale=3 * math.sqrt(v), size=5)
        cases.append({"fn": "normal_density", "x": x.tolist(), "variance": v})
        wants.append(ac.normal_density(x, v))
    for want, res in zip(wants, run_node(cases)):
        got = np.array(res["ok"], dtype=float)
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-300)


def test_mirror_refuses_what_the_core_refuses():
    bad = [
        {"fn": "softmax_jacobian", "weights": [0.5, 0.6]},
        {"fn": "softmax_jacobian", "weights": [-0.1, 1.1]},
        {"fn": "softmax_jacobian", "weights": []},
        {"fn": "entropy", "weights": [0.2, 0.2]},
        {"fn": "flat_line", "widths": [0.5], "base": [2, 1, 0], "scaled": True},
        {"fn": "normal_density", "x": [1.0], "variance": 0},
    ]
    for case, res in zip(bad, run_node(bad)):
        assert "error" in res, (case, res)
    with pytest.raises(ValueError):
        ac.softmax_jacobian([0.5, 0.6])
    with pytest.raises(ValueError):
        ac.softmax_jacobian([-0.1, 1.1])
    with pytest.raises(ValueError):
        ac.softmax_jacobian([])
    with pytest.raises(ValueError):
        ac.entropy([0.2, 0.2])
    with pytest.raises(ValueError):
        ac.flat_line([0.5], [2, 1, 0], scaled=True)
    with pytest.raises(ValueError):
        ac.normal_density(1.0, 0)
