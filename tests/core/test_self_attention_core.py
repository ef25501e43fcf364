"""attention_core.self_attention: the seed's numbers, the formulas, permutation equivariance and bad input.

The seed (003, attention.py) prints `[[0.14  0.284 0.576]] [[4.28 5.72]]` for one token's turn
and `True` for the permutation check with X and the maps drawn from default_rng(0). Printed
numbers are checked within ONE unit of their last printed digit. With positions added, the
check is False; the plate pins the max difference it computes, 2.366 (printed to 3 decimals).
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core import (
    attention,
    check_perm,
    cross_attention,
    permutation_check,
    self_attention,
    sinusoidal_positions,
)

SEED_PERM = [3, 0, 4, 1, 2]
POSITIONS_MAX_DIFF = "2.366"  # what the plate prints for perm [3, 0, 4, 1, 2] with positions on


def within_last_digit(actual: float, printed: str) -> bool:
    """|actual - printed| <= one unit of the printed number's last digit (exact Decimal comparison)."""
    decimals = len(printed.split(".", 1)[1]) if "." in printed else 0
    return abs(Decimal(float(actual)) - Decimal(printed)) <= Decimal(1).scaleb(-decimals)


def seed_recipe():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 4))  # (5, 4)
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))  # (4, 4) each
    return X, Wq, Wk, Wv


def test_within_last_digit_is_one_unit():
    assert within_last_digit(0.1405, "0.14") and not within_last_digit(0.1501, "0.14")
    assert within_last_digit(2.3655, "2.366") and not within_last_digit(2.3645, "2.366")


# --------------------------------------------------------------------------- the seed's numbers


def test_seed_permutation_check_is_true():
    X, Wq, Wk, Wv = seed_recipe()
    equal, diff = permutation_check(X, Wq, Wk, Wv, SEED_PERM)
    assert equal is True
    assert diff < 1e-12
    # The seed's own line, word for word in NumPy, agrees.
    def sa(Z):
        return attention(Z @ Wq, Z @ Wk, Z @ Wv)[0]
    assert np.allclose(sa(X)[SEED_PERM], sa(X[SEED_PERM]))
    np.testing.assert_allclose(self_attention(X, Wq, Wk, Wv)[0], sa(X), rtol=0, atol=1e-15)


def test_seed_weights_rows_sum_to_one():
    X, Wq, Wk, Wv = seed_recipe()
    out, w = self_attention(X, Wq, Wk, Wv)
    assert out.shape == (5, 4) and w.shape == (5, 5)
    assert np.all(w > 0)
    np.testing.assert_allclose(w.sum(axis=1), np.ones(5), rtol=0, atol=1e-12)
    # and each row prints as 1 (the plate writes the sums with two decimals)
    assert all(f"{s:.2f}" == "1.00" for s in w.sum(axis=1))


def test_seed_worked_example_through_attention():
    q = np.array([[1.0, 2.0]])  # (1, 2)
    K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (3, 2)
    V = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])  # (3, 2)
    out, w = attention(q, K, V)
    for got, printed in zip(w[0], ["0.14", "0.284", "0.576"]):
        assert within_last_digit(got, printed), (got, printed)
    for got, printed in zip(out[0], ["4.28", "5.72"]):
        assert within_last_digit(got, printed), (got, printed)
    # NumPy's rounding prints exactly what the seed printed.
    assert str(np.round(w, 3)) == "[[0.14  0.284 0.576]]"
    assert str(np.round(out, 2)) == "[[4.28 5.72]]"


def test_seed_worked_example_as_cross_attention_matrices():
    """The same turn written with maps: one token [1, 2, 0, 0]; three tokens [key | value]."""
    X = np.array([[1.0, 2.0, 0.0, 0.0]])  # (1, 4)
    Y = np.array([[1.0, 0.0, 10.0, 0.0], [0.0, 1.0, 0.0, 10.0], [1.0, 1.0, 5.0, 5.0]])  # (3, 4)
    pick_key = np.eye(4)[:, :2]  # (4, 2)
    pick_value = np.eye(4)[:, 2:]  # (4, 2)
    out, w = cross_attention(X, Y, pick_key, pick_key, pick_value)
    assert w.shape == (1, 3) and out.shape == (1, 2)
    for got, printed in zip(w[0], ["0.14", "0.284", "0.576"]):
        assert within_last_digit(got, printed), (got, printed)
    for got, printed in zip(out[0], ["4.28", "5.72"]):
        assert within_last_digit(got, printed), (got, printed)


def test_seed_permutation_check_with_positions_is_false():
    X, Wq, Wk, Wv = seed_recipe()
    equal, diff = permutation_check(X, Wq, Wk, Wv, SEED_PERM, positions=True)
    assert equal is False
    assert within_last_digit(diff, POSITIONS_MAX_DIFF), diff
    pe = sinusoidal_positions(5, 4)  # (5, 4)
    a = self_attention(X + pe, Wq, Wk, Wv)[0][SEED_PERM]
    b = self_attention(X[SEED_PERM] + pe, Wq, Wk, Wv)[0]
    assert not np.allclose(a, b)
    assert float(np.max(np.abs(a - b))) == diff


# --------------------------------------------------------------------------- the formulas


def naive_self_attention(X, Wq, Wk, Wv):
    """Loops and the math module only."""
    n, dm = len(X), len(X[0])

    def proj(W):
        return [[sum(X[i][r] * W[r][c] for r in range(dm)) for c in range(len(W[0]))] for i in range(n)]

    Q, K, V = proj(Wq), proj(Wk), proj(Wv)
    dk = len(Q[0])
    out, weights = [], []
    for i in range(n):
        s = [sum(Q[i][c] * K[j][c] for c in range(dk)) / math.sqrt(dk) for j in range(n)]
        top = max(s)
        e = [math.exp(v - top) for v in s]
        tot = sum(e)
        w = [v / tot for v in e]
        weights.append(w)
        out.append([sum(w[j] * V[j][c] for j in range(n)) for c in range(len(V[0]))])
    return np.array(out), np.array(weights)


@pytest.mark.parametrize("seed", range(40))
def test_self_attention_matches_loops(seed):
    rng = np.random.default_rng(seed)
    n, dm, dk, dv = (int(v) for v in rng.integers(1, 7, size=4))
    X = rng.normal(size=(n, dm))
    Wq, Wk, Wv = rng.normal(size=(dm, dk)), rng.normal(size=(dm, dk)), rng.normal(size=(dm, dv))
    out, w = self_attention(X, Wq, Wk, Wv)
    ref_out, ref_w = naive_self_attention(X.tolist(), Wq.tolist(), Wk.tolist(), Wv.tolist())
    assert out.shape == (n, dv) and w.shape == (n, n)
    np.testing.assert_allclose(out, ref_out, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w, ref_w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_cross_attention_shapes_and_values(seed):
    rng = np.random.default_rng(100 + seed)
    N, M = int(rng.integers(1, 6)), int(rng.integers(1, 9))
    X, Y = rng.normal(size=(N, 4)), rng.normal(size=(M, 4))
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))
    out, w = cross_attention(X, Y, Wq, Wk, Wv)
    assert out.shape == (N, 4) and w.shape == (N, M)
    ref_out, ref_w = attention(X @ Wq, Y @ Wk, Y @ Wv)
    np.testing.assert_array_equal(out, ref_out)
    np.testing.assert_array_equal(w, ref_w)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_self_attention_is_cross_attention_with_itself_and_batches():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(3, 5, 4))  # (batch, n, d_model)
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))
    out, w = self_attention(X, Wq, Wk, Wv)
    assert out.shape == (3, 5, 4) and w.shape == (3, 5, 5)
    for b in range(3):
        o, ww = cross_attention(X[b], X[b], Wq, Wk, Wv)
        np.testing.assert_allclose(out[b], o, rtol=0, atol=1e-14)
        np.testing.assert_allclose(w[b], ww, rtol=0, atol=1e-14)


def test_self_attention_mask_reaches_the_scores():
    X, Wq, Wk, Wv = seed_recipe()
    causal = np.tril(np.ones((5, 5), dtype=bool))
    out, w = self_attention(X, Wq, Wk, Wv, mask=causal)
    assert np.all(w[~causal] == 0.0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert w[0, 0] == 1.0
    np.testing.assert_allclose(out[0], (X @ Wv)[0], rtol=0, atol=1e-14)


def test_sinusoidal_positions_formula():
    for n, d in [(5, 4), (8, 4), (3, 5), (10, 6), (1, 1), (0, 4)]:
        pe = sinusoidal_positions(n, d)
        assert pe.shape == (n, d) and pe.dtype == np.float64
        for pos in range(n):
            for c in range(d):
                i = c // 2
                angle = pos / 10000 ** (2 * i / d)
                want = math.sin(angle) if c % 2 == 0 else math.cos(angle)
                assert abs(pe[pos, c] - want) <= 1e-15, (n, d, pos, c)
    pe = sinusoidal_positions(5, 4)
    np.testing.assert_array_equal(pe[0], [0.0, 1.0, 0.0, 1.0])  # position 0: sin 0, cos 0
    assert abs(pe[1, 0] - math.sin(1.0)) < 1e-15 and abs(pe[1, 2] - math.sin(0.01)) < 1e-15
    np.testing.assert_allclose(sinusoidal_positions(3, 4, base=100.0)[2, 2], math.sin(2 / 10.0), rtol=0, atol=1e-15)


# --------------------------------------------------------------------------- equivariance


@settings(max_examples=150, derandomize=True, deadline=None)
@given(n=st.integers(1, 8), d=st.integers(1, 6), m=st.integers(1, 9), seed=st.integers(0, 2**32 - 1),
       cross=st.booleans())
def test_without_positions_reordering_only_reorders(n, d, m, seed, cross):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Wq, Wk, Wv = rng.normal(size=(3, d, d))
    perm = rng.permutation(n)
    Y = rng.normal(size=(m, d)) if cross else None
    equal, diff = permutation_check(X, Wq, Wk, Wv, perm, Y=Y)
    assert equal is True and 0.0 <= diff < 1e-12


@pytest.mark.parametrize("cross", [False, True])
def test_identity_perm_is_equal_even_with_positions(cross):
    X, Wq, Wk, Wv = seed_recipe()
    Y = np.random.default_rng(2).normal(size=(7, 4)) if cross else None
    assert permutation_check(X, Wq, Wk, Wv, list(range(5)), positions=True, Y=Y) == (True, 0.0)


def test_positions_break_cross_attention_too():
    X, Wq, Wk, Wv = seed_recipe()
    Y = np.random.default_rng(2).normal(size=(7, 4))
    equal, diff = permutation_check(X, Wq, Wk, Wv, SEED_PERM, positions=True, Y=Y)
    assert equal is False and diff > 0.1
    assert permutation_check(X, Wq, Wk, Wv, SEED_PERM, positions=False, Y=Y)[0] is True


def test_permutation_check_uses_np_allclose_defaults():
    """A tiny difference below allclose's tolerance is True, a larger one False (both measured)."""
    X, Wq, Wk, Wv = seed_recipe()
    assert ac.self_attention is self_attention
    equal, diff = permutation_check(X, Wq, Wk, Wv, np.array(SEED_PERM, dtype=np.int32))
    assert equal and diff < 1e-12
    equal, diff = permutation_check(X, Wq, Wk, Wv, np.array(SEED_PERM, dtype=float))
    assert equal and diff < 1e-12


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("perm, match", [
    ([0, 1, 2, 3], r"shape \(5,\)"),
    ([0, 0, 1, 2, 3], "exactly once"),
    ([0, 1, 2, 3, 5], "exactly once"),
    ([0.5, 1, 2, 3, 4], "integers"),
    ([True, False, True, False, True], "integers"),
    ([[0, 1, 2, 3, 4]], r"shape \(5,\)"),
    (["a", "b", "c", "d", "e"], "integers"),
    ([float("nan"), 1, 2, 3, 4], "integers"),
])
def test_bad_perm_is_refused(perm, match):
    X, Wq, Wk, Wv = seed_recipe()
    with pytest.raises(ValueError, match=match):
        permutation_check(X, Wq, Wk, Wv, perm)
    with pytest.raises(ValueError, match=match):
        check_perm(perm, 5)


@pytest.mark.parametrize("make, match", [
    (lambda X, W: (X[:, :3], W, W, W), r"X has width 3 .* Wq expects 4"),
    (lambda X, W: (X, W[:3], W, W), r"Wq expects 3"),
    (lambda X, W: (X, W, W[:, :2], W), r"share d_k: Wq has shape \(4, 4\), Wk has shape \(4, 2\)"),
    (lambda X, W: (X, W, W, W[:3]), r"Wv expects 3"),
    (lambda X, W: (X, W[None], W, W), r"Wq must be one matrix"),
    (lambda X, W: (X[0], W, W, W), r"X must have at least 2 dimension"),
    (lambda X, W: (np.where(X > 0, np.nan, X), W, W, W), "non-finite"),
    (lambda X, W: (X, W * np.inf, W, W), "non-finite"),
    (lambda X, W: (X.astype(complex), W, W, W), "must be real"),
    (lambda X, W: ("abc", W, W, W), "numeric"),
])
def test_bad_matrices_are_refused(make, match):
    X, Wq, _, _ = seed_recipe()
    args = make(X, Wq)
    with pytest.raises(ValueError, match=match):
        self_attention(*args)


def test_cross_attention_names_the_second_sequence():
    X, Wq, Wk, Wv = seed_recipe()
    with pytest.raises(ValueError, match=r"Y has width 3 \(shape \(6, 3\)\) but Wk expects 4"):
        cross_attention(X, np.ones((6, 3)), Wq, Wk, Wv)
    with pytest.raises(ValueError, match="at least one key"):
        cross_attention(X, np.ones((0, 4)), Wq, Wk, Wv)
    with pytest.raises(ValueError, match=r"Y must have shape \(M, d_model\)"):
        permutation_check(X, Wq, Wk, Wv, SEED_PERM, Y=np.ones((2, 6, 4)))
    with pytest.raises(ValueError, match=r"X must have shape \(n, d_model\)"):
        permutation_check(np.ones((2, 5, 4)), Wq, Wk, Wv, SEED_PERM)


def test_overflow_is_a_value_error_never_nan():
    X, Wq, Wk, Wv = seed_recipe()
    with pytest.raises(ValueError, match="overflow"):
        self_attention(X * 1e155, Wq, Wk, Wv)
    # Large but finite: weights are still a proper distribution.
    out, w = self_attention(X * 1e3, Wq, Wk, Wv)
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("args, match", [
    ((-1, 4), "at least 0"), ((3, 0), "at least 1"), ((2.5, 4), "integer"), ((3, "4"), "integer"),
    ((True, 4), "integer"), ((3, 4, 0.0), "positive"), ((3, 4, float("inf")), "finite"), ((3, 4, "x"), "number"),
])
def test_bad_positions_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        sinusoidal_positions(*args)


def test_exported_from_the_package():
    for name in ("self_attention", "cross_attention", "sinusoidal_positions", "permutation_check", "check_perm"):
        assert getattr(ac, name) is getattr(__import__("attention_core.self_attention", fromlist=[name]), name)
