"""attention_core.scaling: the seed numbers of the "Why divide by √d_k" plate, and the functions'
properties and refusals.

Seed numbers are checked within ONE unit of the last printed digit (seed 003's scaling.py prints
8.08 and 1.01 and the softmax rows; seed 000's flat line holds 0.665, 0.245, 0.090; seed 004
gives the Jacobian α_i(δ_ij − α_j) and the entropy's log M). Values the seeds do not print
(the leading raw weight at d = 1024, the Jacobian entries of softmax([1, 0, −1])) are computed
here once and pinned the same way.
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest

import attention_core as ac
from attention_core import (
    dot_product_samples,
    entropy,
    flat_line,
    normal_density,
    score_histogram,
    softmax,
    softmax_jacobian,
)

POWERS = [2**e for e in range(11)]


def within_last_digit(actual, printed: str) -> bool:
    """|actual − printed| <= one unit of the printed number's last decimal (exact comparison)."""
    decimals = len(printed.split(".", 1)[1]) if "." in printed else 0
    unit = Decimal(1).scaleb(-decimals)
    return abs(Decimal(float(actual)) - Decimal(printed)) <= unit


def assert_prints(actuals, printeds) -> None:
    actuals = np.atleast_1d(np.asarray(actuals, dtype=float))
    assert actuals.shape == (len(printeds),)
    for a, p in zip(actuals.tolist(), printeds):
        assert within_last_digit(a, p), f"{a!r} is not within one unit of the last digit of {p}"


def test_the_helper_rejects_what_it_should():
    assert within_last_digit(0.6652, "0.665") and within_last_digit(0.664, "0.665")
    assert not within_last_digit(0.6639, "0.665")
    assert not within_last_digit(8.0955, "8.08")


# --------------------------------------------------------------------------- seed 003: 8.08 -> 1.01
def seed_recipe(d_k: int) -> np.ndarray:
    """Seed 003's scaling.py, line for line (with d_k in place of 64)."""
    rng = np.random.default_rng(0)
    q = rng.normal(size=(10000, d_k))
    k = rng.normal(size=(10000, d_k))
    return (q * k).sum(axis=1)


def test_std_8_08_unscaled_and_1_01_scaled_at_d_k_64():
    s = dot_product_samples(64)
    assert s.shape == (10000,)
    assert round(s.std(), 2) == 8.08 and round((s / 8).std(), 2) == 1.01  # the seed's own print
    assert_prints([s.std(), (s / math.sqrt(64)).std()], ["8.08", "1.01"])


@pytest.mark.parametrize("d_k", [1, 3, 64, 1024])
def test_samples_are_the_seed_recipe_bit_for_bit(d_k):
    assert np.array_equal(dot_product_samples(d_k), seed_recipe(d_k))


def test_spread_grows_like_root_d_and_scaling_brings_it_to_one():
    for d in POWERS:
        s = dot_product_samples(d)
        assert abs(s.std() / math.sqrt(d) - 1.0) < 0.03, d
        assert abs(s.mean()) < 0.05 * math.sqrt(d), d


def test_samples_other_n_and_seed():
    a = dot_product_samples(5, n=2500, seed=7)
    rng = np.random.default_rng(7)
    q = rng.normal(size=(2500, 5))
    k = rng.normal(size=(2500, 5))
    assert np.array_equal(a, (q * k).sum(axis=1))
    assert not np.array_equal(a, dot_product_samples(5, n=2500, seed=8))
    assert dot_product_samples(2, n=1).shape == (1,)


@pytest.mark.parametrize("kw", [
    {"d_k": 0}, {"d_k": -4}, {"d_k": 1.5}, {"d_k": "64"}, {"d_k": True}, {"d_k": float("nan")},
    {"d_k": 4, "n": 0}, {"d_k": 4, "n": 2.5}, {"d_k": 4, "seed": -1}, {"d_k": 4, "seed": 1.0},
    {"d_k": 4, "seed": True}, {"d_k": 100_000, "n": 10_000},
])
def test_samples_refuse_bad_input(kw):
    with pytest.raises(ValueError):
        dot_product_samples(**kw)


def test_samples_accept_integral_floats_and_numpy_ints():
    assert np.array_equal(dot_product_samples(4.0, n=10), dot_product_samples(np.int64(4), n=10))


# --------------------------------------------------------------------------- seed 003: the softmax prints
def test_softmax_8_0_minus_8_saturates():
    assert_prints(softmax(np.array([8.0, 0.0, -8.0])), ["0.99966", "0.00034", "0.0000001"])


def test_softmax_1_0_minus_1_responds():
    assert_prints(softmax(np.array([1.0, 0.0, -1.0])), ["0.665", "0.245", "0.090"])


# --------------------------------------------------------------------------- seed 000: the flat line
def test_flat_line_scaled_is_flat_at_every_power_of_two():
    w = flat_line(POWERS, [2, 1, 0], scaled=True)
    assert w.shape == (11, 3)
    for row in w:
        assert_prints(row, ["0.665", "0.245", "0.090"])
    np.testing.assert_allclose(w, np.broadcast_to(softmax(np.array([2.0, 1.0, 0.0])), w.shape), rtol=0, atol=1e-15)


def test_flat_line_unscaled_leading_weight_runs_to_one():
    w = flat_line(POWERS, [2, 1, 0], scaled=False)
    assert np.all(np.diff(w[:, 0]) > 0)  # rises at every doubling
    assert_prints(w[0], ["0.665", "0.245", "0.090"])  # d = 1: raw and scaled agree
    lead = w[-1, 0]
    assert lead > 0.99
    assert_prints([lead], ["0.99999999999999"])  # pinned: 0.9999999999999873 at d = 1024
    assert abs((1.0 - lead) - 1.3e-14) <= 0.1e-14  # the page writes it as 1 − 1.3e-14
    assert_prints([w[-1, 1] * 1e14], ["1.27"])  # item 2: 1.266e-14


def test_flat_line_unscaled_at_64_is_softmax_8_0_minus_8():
    # √64·[2, 1, 0] = [16, 8, 0], which is [8, 0, −8] shifted by 8: the same weights.
    np.testing.assert_allclose(flat_line([64], scaled=False)[0], softmax(np.array([8.0, 0.0, -8.0])), rtol=0,
                               atol=1e-15)


def test_flat_line_any_widths_and_scores():
    rng = np.random.default_rng(3)
    widths = 1 + 1000 * rng.random(50)
    base = rng.normal(size=6)
    for scaled in (True, False):
        w = flat_line(widths, base, scaled=scaled)
        assert w.shape == (50, 6)
        np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        want = np.array([softmax(np.sqrt(d) * base / (np.sqrt(d) if scaled else 1.0)) for d in widths])
        np.testing.assert_allclose(w, want, rtol=0, atol=1e-14)


@pytest.mark.parametrize(("widths", "base", "scaled"), [
    ([0.5], [2, 1, 0], True), ([0], [2, 1, 0], True), ([[1, 2]], [2, 1, 0], True), ([np.inf], [2, 1, 0], True),
    ([np.nan], [2, 1, 0], True), ([], [2, 1, 0], True), ([4], [], True), ([4], [[2, 1]], True),
    ([4], [1e308, 0], False), ([4], [2, 1, 0], "yes"), ([4], [2, 1, 0], 1),
])
def test_flat_line_refuses_bad_input(widths, base, scaled):
    if len(widths) == 0:
        assert flat_line(widths, base, scaled=scaled).shape == (0, 3)  # no widths, no rows: not an error
        return
    with pytest.raises(ValueError):
        flat_line(widths, base, scaled=scaled)


# --------------------------------------------------------------------------- seed 004: the Jacobian
def test_jacobian_of_softmax_1_0_minus_1_pinned():
    a = softmax(np.array([1.0, 0.0, -1.0]))
    j = softmax_jacobian(a)
    assert j.shape == (3, 3)
    # α_0(1 − α_0) = 0.665 · 0.335: pinned at 0.2227 (computed 0.22269543).
    assert_prints(np.diag(j), ["0.2227", "0.1848", "0.0819"])
    assert_prints([j[0, 1], j[0, 2], j[1, 2]], ["-0.1628", "-0.0599", "-0.0220"])
    assert_prints([j.max()], ["0.223"])


def test_jacobian_of_softmax_8_0_minus_8_is_nearly_zero():
    j = softmax_jacobian(softmax(np.array([8.0, 0.0, -8.0])))
    assert_prints([np.abs(j).max()], ["0.00034"])
    assert np.abs(j).max() < 0.002 * softmax_jacobian(softmax(np.array([1.0, 0.0, -1.0]))).max()


def test_jacobian_matches_finite_differences_of_softmax():
    rng = np.random.default_rng(11)
    for _ in range(40):
        m = int(rng.integers(1, 7))
        s = rng.normal(scale=3.0, size=m)
        j = softmax_jacobian(softmax(s))
        h = 1e-6
        num = np.empty((m, m))
        for c in range(m):
            e = np.zeros(m)
            e[c] = h
            num[:, c] = (softmax(s + e) - softmax(s - e)) / (2 * h)
        np.testing.assert_allclose(j, num, rtol=0, atol=1e-8)


def test_jacobian_properties_and_batches():
    rng = np.random.default_rng(5)
    a = softmax(rng.normal(scale=2.0, size=(4, 2, 5)))  # (4, 2, 5)
    j = softmax_jacobian(a)
    assert j.shape == (4, 2, 5, 5)
    np.testing.assert_allclose(j, np.swapaxes(j, -1, -2), rtol=0, atol=0)
    np.testing.assert_allclose(j.sum(axis=-1), 0.0, rtol=0, atol=1e-15)
    assert np.all(np.diagonal(j, axis1=-2, axis2=-1) <= 0.25)
    assert np.array_equal(j[1, 0], softmax_jacobian(a[1, 0]))
    assert np.array_equal(softmax_jacobian(np.array([0.0, 1.0, 0.0])), np.zeros((3, 3)))  # one-hot
    assert np.array_equal(softmax_jacobian(np.zeros(4)), np.zeros((4, 4)))  # fully masked row


@pytest.mark.parametrize("bad", [
    [0.5, 0.6], [-0.1, 1.1], [np.nan, 1.0], [np.inf, 0.0], [], [[0.5, 0.4]], 0.5, "0.5", [1 + 0j], [[]],
])
def test_jacobian_and_entropy_refuse_bad_weights(bad):
    with pytest.raises(ValueError):
        softmax_jacobian(bad)
    with pytest.raises(ValueError):
        entropy(bad)


# --------------------------------------------------------------------------- seed 004: entropy
@pytest.mark.parametrize("m", [1, 2, 3, 7, 64, 1000])
def test_entropy_of_uniform_is_log_m(m):
    assert abs(entropy(np.full(m, 1.0 / m)) - math.log(m)) < 1e-12


def test_entropy_values():
    assert entropy(np.array([0.0, 1.0, 0.0])) == 0.0
    assert entropy(np.zeros(3)) == 0.0  # a fully masked row
    assert not math.copysign(1.0, entropy(np.array([1.0]))) < 0  # 0.0, not −0.0
    assert_prints([entropy(softmax(np.array([1.0, 0.0, -1.0])))], ["0.832"])
    assert_prints([entropy(softmax(np.array([8.0, 0.0, -8.0])))], ["0.003"])
    rng = np.random.default_rng(9)
    a = softmax(rng.normal(scale=3.0, size=(50, 6)))
    h = entropy(a)
    assert h.shape == (50,)
    assert np.all(h >= 0) and np.all(h <= math.log(6) + 1e-12)
    np.testing.assert_allclose(h, -(a * np.log(a)).sum(axis=1), rtol=0, atol=1e-13)


def test_entropy_falls_as_the_raw_scores_grow():
    h = entropy(flat_line(POWERS, scaled=False))
    assert np.all(np.diff(h) < 0)
    assert h[-1] < 1e-12
    assert np.all(np.abs(entropy(flat_line(POWERS, scaled=True)) - entropy(softmax(np.array([2.0, 1.0, 0.0])))) < 1e-15)


# --------------------------------------------------------------------------- histogram and density
def test_histogram_counts_every_sample_once():
    s = dot_product_samples(64)
    edges, counts = score_histogram(s, 60)
    assert edges.shape == (61,) and counts.shape == (60,)
    assert counts.sum() == 10000 and counts.dtype == np.int64
    assert edges[0] == -edges[-1] == -np.abs(s).max()
    np.testing.assert_allclose(np.diff(edges), np.diff(edges)[0], rtol=1e-9)
    assert np.array_equal(counts, np.histogram(s, bins=edges)[0])


def test_histogram_edge_cases():
    edges, counts = score_histogram(np.zeros(5), 4)
    assert counts.sum() == 5 and edges[0] == -1.0 and edges[-1] == 1.0
    for bad in ([], [[1.0, 2.0]], [np.nan], [1.0, np.inf]):
        with pytest.raises(ValueError):
            score_histogram(bad, 10)
    for bins in (0, -3, 2.5, "10"):
        with pytest.raises(ValueError):
            score_histogram([1.0, 2.0], bins)


def test_normal_density():
    x = np.linspace(-40, 40, 8001)
    for v in (1.0, 64.0):
        p = normal_density(x, v)
        assert abs(np.sum(p) * (x[1] - x[0]) - 1.0) < 1e-6
        assert abs(normal_density(0.0, v) - 1 / math.sqrt(2 * math.pi * v)) < 1e-15
    assert normal_density(np.array([[1.0, 2.0]]), 2.0).shape == (1, 2)
    for bad in (0.0, -1.0, np.nan, np.inf):
        with pytest.raises(ValueError):
            normal_density(1.0, bad)
    with pytest.raises(ValueError):
        normal_density(np.nan, 1.0)


def test_nothing_returns_nan():
    outs = [flat_line([1, 1e6, 1e12], [2, 1, 0], scaled=False), softmax_jacobian(flat_line([1e12], scaled=False)),
            entropy(flat_line([1e12], scaled=False)), normal_density(1e200, 1.0)]
    for o in outs:
        assert np.all(np.isfinite(o))


def test_exported_from_the_package():
    for name in ("softmax_jacobian", "entropy", "dot_product_samples", "flat_line", "score_histogram",
                 "normal_density"):
        assert callable(getattr(ac, name))
