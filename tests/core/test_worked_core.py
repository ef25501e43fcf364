"""attention_core for the worked-example plate: the seeds' worked numbers, the convex hull of
the values, the query-length sweep and the distance of a guess.

Every printed seed number is checked within ONE unit of its last printed digit (the tolerance
comes from the printed string). Where seed 004 cut a number off instead of rounding it (0.888
for 0.8887, 0.894 for 0.8950), the test pins the true value inside [printed, printed + 0.001].
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core import convex_hull, length_sweep, lookup_steps, prediction_error

# --------------------------------------------------------------------------- helpers


def unit(printed: str) -> Decimal:
    text = printed.strip()
    return Decimal(1).scaleb(-(len(text.split(".", 1)[1]) if "." in text else 0))


def near(actual, printed: str) -> bool:
    """|actual - printed| <= one unit of the printed number's last digit (exact decimal arithmetic)."""
    return abs(Decimal(float(actual)) - Decimal(printed)) <= unit(printed)


def truncated(actual, printed: str) -> bool:
    """The print is `actual` cut off (not rounded) at its last digit: printed <= actual <= printed + unit."""
    lo = Decimal(printed)
    return lo <= Decimal(float(actual)) <= lo + unit(printed)


def assert_prints(actuals, prints) -> None:
    a = np.atleast_1d(np.asarray(actuals, dtype=float))  # (n,)
    assert a.shape == (len(prints),), (a.shape, prints)
    for i, (x, p) in enumerate(zip(a.tolist(), prints)):
        assert near(x, p), f"entry {i}: {x!r} is not within {unit(p)} of the printed {p}"


def test_helpers_read_the_print():
    assert near(0.6652, "0.665") and near(0.6641, "0.665") and not near(0.6639, "0.665")
    assert near(69.5914, "69.59") and not near(69.601, "69.59")
    assert near(1.9, "1") and not near(2.1, "1")  # one unit of "1" is 1
    assert truncated(0.88865, "0.888") and not truncated(0.8879, "0.888") and not truncated(0.8891, "0.888")


# --------------------------------------------------------------------------- seed 000
def seed000():
    return lookup_steps([1.0], [[2.0], [1.0], [0.0]], [1.0, 2.0, 3.0], scale=1.0, shift=False)


def test_seed000_three_items():
    s = seed000()
    assert_prints(s.score, ["2", "1", "0"])
    assert_prints(s.exp, ["7.389", "2.718", "1"])
    assert near(s.exp_total, "11.107")
    assert_prints(s.weight, ["0.665", "0.245", "0.090"])
    assert_prints(s.weighted, ["0.665", "0.49", "0.27"])
    assert near(s.output, "1.425")
    assert s.winner == 0
    assert math.isclose(float(np.sum(s.weight)), 1.0, abs_tol=1e-12)


def test_seed000_scaling_example():
    # "With keys of length two, the divisor is about 1.414, so a raw score of 2 becomes 1.414."
    assert near(1 / ac.default_scale(2), "1.414")
    assert near(2 * ac.default_scale(2), "1.414")


def test_seed000_stop_and_try():
    s = lookup_steps([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]], [1.0, 2.0, 3.0], scale=1.0, shift=False)
    assert s.score.tolist() == [1.0, 0.0, -1.0]  # aligned, at right angles, opposed
    assert s.winner == 0
    # With or without the √d_k the winner is the aligned key.
    assert lookup_steps([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]], [1.0, 2.0, 3.0]).winner == 0


# --------------------------------------------------------------------------- seed 003
Q003, K003 = [1.0, 2.0], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
V003 = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]


def test_seed003_one_tokens_turn():
    assert float(np.dot([1.0, 2.0], [1.0, 1.0])) == 3.0  # the dot-product example
    s = lookup_steps(Q003, K003, V003, shift=False)  # scale 1/√2
    assert s.scale == pytest.approx(1 / math.sqrt(2), rel=1e-15)
    assert s.score.tolist() == [1.0, 2.0, 3.0]
    assert_prints(s.weight, ["0.14", "0.284", "0.576"])
    assert_prints(s.output, ["4.28", "5.72"])
    assert s.winner == 2


def test_seed003_output_stays_on_the_values_segment():
    hull = convex_hull(V003)  # (2, 2): the three values lie on x + y = 10
    assert hull.tolist() == [[0.0, 10.0], [10.0, 0.0]]
    out = lookup_steps(Q003, K003, V003).output  # (2,)
    assert out.sum() == pytest.approx(10.0, abs=1e-12)


# --------------------------------------------------------------------------- seed 004
Q004 = [2.0, 1.0]
K004 = [[1.0, 0.0], [0.0, 2.0], [2.0, 2.0], [-1.0, 1.0]]
V004 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]


def test_seed004_four_keys():
    s = lookup_steps(Q004, K004, V004, shift=False)
    assert s.score.tolist() == [2.0, 2.0, 6.0, -1.0]
    assert_prints(s.scaled, ["1.414", "1.414", "4.243", "-0.707"])
    assert_prints(s.exp, ["4.113", "4.113", "69.59", "0.493"])
    assert near(s.exp_total, "78.31")
    w = s.weight
    assert near(w[0], "0.053") and near(w[1], "0.053") and near(w[3], "0.006")
    assert near(w[2], "0.888") and truncated(w[2], "0.888")  # 0.8887 printed as 0.888
    assert near(s.output[0], "0.059") and near(s.output[1], "0.059")
    assert near(s.output[2], "0.894") and truncated(s.output[2], "0.894")  # 0.8950 printed as 0.894
    # Rounded honestly, as the plate shows them:
    assert f"{w[2]:.3f}" == "0.889" and f"{s.output[2]:.3f}" == "0.895"


def test_seed004_unscaled_contrast():
    s = lookup_steps(Q004, K004, V004, scale=1.0, shift=False)
    assert_prints(s.weight, ["0.018", "0.018", "0.964", "0.001"])


def test_seed004_output_is_the_convex_combination():
    s = lookup_steps(Q004, K004, V004)
    np.testing.assert_allclose(s.output, s.weight @ np.array(V004), rtol=0, atol=1e-15)
    assert np.all(s.weight > 0) and math.isclose(float(s.weight.sum()), 1.0, abs_tol=1e-12)


# --------------------------------------------------------------------------- convex_hull
def inside(hull: np.ndarray, p, tol: float = 1e-9) -> bool:
    """p lies in (or on) the counter-clockwise hull."""
    h = np.asarray(hull)  # (H, 2)
    p = np.asarray(p, dtype=float)  # (2,)
    if len(h) == 1:
        return bool(np.all(np.abs(h[0] - p) <= tol))
    if len(h) == 2:
        a, b = h
        ab, ap = b - a, p - a  # (2,), (2,)
        cross = ab[0] * ap[1] - ab[1] * ap[0]
        t = float(np.dot(ap, ab) / np.dot(ab, ab))
        return abs(cross) <= tol * max(1.0, float(np.hypot(*ab))) and -tol <= t <= 1 + tol
    for i in range(len(h)):
        a, b = h[i], h[(i + 1) % len(h)]
        if (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < -tol:
            return False
    return True


def test_hull_of_a_square_with_inner_and_edge_points():
    pts = [[0, 0], [2, 0], [2, 2], [0, 2], [1, 1], [1, 0], [0, 1], [2, 2]]
    assert convex_hull(pts).tolist() == [[0, 0], [2, 0], [2, 2], [0, 2]]  # counter-clockwise from (0, 0)


def test_hull_degenerate_cases():
    assert convex_hull([[1.5, -2.0]]).tolist() == [[1.5, -2.0]]
    assert convex_hull([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]).tolist() == [[1.0, 1.0]]
    assert convex_hull([[3, 3], [1, 1], [2, 2], [0, 0]]).tolist() == [[0, 0], [3, 3]]
    assert convex_hull([[0, 5], [0, -1]]).tolist() == [[0, -1], [0, 5]]
    assert convex_hull(np.zeros((4, 2))).shape == (1, 2)


def test_hull_of_the_four_tokens_preset():
    V = [[3, 1], [1, 3], [-2, 1], [0, -2]]
    assert convex_hull(V).tolist() == [[-2, 1], [0, -2], [3, 1], [1, 3]]


@pytest.mark.parametrize("bad, match", [
    ([], r"shape \(0,\)|at least"),
    (np.zeros((0, 2)), r"at least one point"),
    ([[1, 2, 3]], r"shape \(M, 2\)"),
    ([1.0, 2.0], r"at least 2 dimension"),
    ([[0, 0], [np.nan, 1]], r"non-finite"),
    ([[0, 0], [np.inf, 1]], r"non-finite"),
    ([["a", "b"]], r"numeric"),
    (np.zeros((2, 2, 2)), r"shape \(M, 2\)"),
])
def test_hull_refuses_bad_points(bad, match):
    with pytest.raises(ValueError, match=match):
        convex_hull(bad)


coords = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
points = st.lists(st.tuples(coords, coords), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(points)
def test_hull_contains_every_point_and_is_convex(pts):
    P = np.array(pts, dtype=float)  # (M, 2)
    h = convex_hull(P)  # (H, 2)
    assert h.ndim == 2 and h.shape[1] == 2 and 1 <= len(h) <= len(P)
    assert np.all(np.isfinite(h))
    for v in h:  # every vertex is one of the points
        assert np.any(np.all(P == v, axis=1))
    for p in P:
        assert inside(h, p), (h.tolist(), p.tolist())
    if len(h) >= 3:  # strictly counter-clockwise turns
        for i in range(len(h)):
            a, b, c = h[i], h[(i + 1) % len(h)], h[(i + 2) % len(h)]
            assert (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(1, 6), st.integers(0, 2**31 - 1), st.floats(0.1, 8.0))
def test_attention_output_never_leaves_the_values_hull(m, seed, length):
    rng = np.random.default_rng(seed)
    q = rng.normal(size=2)  # (2,)
    q = q / max(np.linalg.norm(q), 1e-9) * length  # (2,)
    K = rng.uniform(-3, 3, size=(m, 2))  # (M, 2)
    V = rng.uniform(-10, 10, size=(m, 2))  # (M, 2)
    out = lookup_steps(q, K, V, shift=False).output  # (2,)
    assert inside(convex_hull(V), out, tol=1e-9)


# --------------------------------------------------------------------------- length_sweep
def test_length_sweep_starts_even_and_matches_lookup_steps():
    q, K = np.array(Q003), np.array(K003)
    L = np.array([0.0, 1.0, math.sqrt(5), 6.0])  # (4,)
    W = length_sweep(q, K, L)  # (4, 3)
    assert W.shape == (4, 3)
    np.testing.assert_allclose(W[0], [1 / 3] * 3, rtol=0, atol=1e-15)
    np.testing.assert_allclose(W.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(W[2], lookup_steps(q, K, V003).weight, rtol=0, atol=1e-12)  # |q| = √5
    for Lf, row in zip(L[1:], W[1:]):
        np.testing.assert_allclose(row, lookup_steps(q / math.sqrt(5) * Lf, K, V003).weight, rtol=0, atol=1e-12)
    unscaled = length_sweep(q, K, [math.sqrt(5)], scale=1.0)  # (1, 3)
    np.testing.assert_allclose(unscaled[0], lookup_steps(q, K, V003, scale=1.0).weight, rtol=0, atol=1e-12)


def test_longer_query_picks_more_sharply():
    for q, K in ((Q003, K003), (Q004, K004), ([1.5, 1.0], [[2, 0.5], [-0.5, 2], [-1.5, -1], [1, -1.5]])):
        top = length_sweep(q, K, np.linspace(0, 8, 81)).max(axis=1)  # (81,)
        assert np.all(np.diff(top) >= -1e-15), top
        assert top[-1] > 0.9 > top[0]


@pytest.mark.parametrize("args, match", [
    (([0.0, 0.0], K003, [1.0]), r"zero"),
    ((Q003, K003, [-1.0]), r"≥ 0"),
    ((Q003, [[1.0, 0.0, 0.0]], [1.0]), r"d_k = 2"),
    ((Q003, np.zeros((0, 2)), [1.0]), r"at least one key"),
    ((Q003, K003, [np.nan]), r"non-finite"),
    (([[1.0, 2.0]], K003, [1.0]), r"one vector"),
    ((Q003, K003, [[1.0]]), r"shape \(F,\)"),
])
def test_length_sweep_refuses_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        length_sweep(*args)


def test_length_sweep_refuses_a_non_finite_scale_and_overflow():
    with pytest.raises(ValueError, match="scale"):
        length_sweep(Q003, K003, [1.0], scale=np.inf)
    with pytest.raises(ValueError, match="overflow"):
        length_sweep(Q003, K003, [1e308], scale=10.0)


# --------------------------------------------------------------------------- prediction_error
def test_prediction_error_for_the_seed_output():
    assert prediction_error(1.2, 1.425) == pytest.approx(0.225, abs=1e-12)
    assert f"{prediction_error(1.2, seed000().output):.3f}" == "0.225"
    assert prediction_error([4.0, 6.0], [4.28, 5.72]) == pytest.approx(math.hypot(0.28, 0.28), rel=1e-12)
    assert prediction_error([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]) == 0.0


@pytest.mark.parametrize("g, o", [([1.0, 2.0], 1.0), ([1.0], [1.0, 2.0]), ([[1.0]], [[1.0]]), (np.nan, 1.0)])
def test_prediction_error_refuses_mismatched_or_bad_input(g, o):
    with pytest.raises(ValueError):
        prediction_error(g, o)


def test_prediction_error_refuses_overflow():
    with pytest.raises(ValueError, match="overflow"):
        prediction_error([1e200, 1e200], [-1e200, -1e200])
