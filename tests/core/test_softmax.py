"""softmax(): stable, masked, and never NaN."""

from __future__ import annotations

import math
import warnings
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention_core import softmax


@contextmanager
def strict_floats():
    """Every RuntimeWarning (divide, overflow, invalid) becomes an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(divide="warn", over="warn", invalid="warn"):
            yield


def naive_softmax(row):
    e = [math.exp(x) for x in row]
    return [x / sum(e) for x in e]


def test_matches_the_textbook_formula_for_small_scores():
    rng = np.random.default_rng(1)
    for _ in range(50):
        row = rng.normal(scale=3.0, size=int(rng.integers(1, 8)))
        np.testing.assert_allclose(softmax(row), naive_softmax(row.tolist()), rtol=1e-12)


def test_rows_sum_to_one_along_the_chosen_axis():
    x = np.random.default_rng(2).normal(size=(3, 4, 5))
    for axis in range(-3, 3):
        w = softmax(x, axis=axis)
        assert w.shape == x.shape
        np.testing.assert_allclose(w.sum(axis=axis), 1.0, atol=1e-12)
        assert np.all(w > 0)
    np.testing.assert_allclose(softmax(x, axis=0), np.moveaxis(softmax(np.moveaxis(x, 0, -1)), -1, 0), rtol=1e-15)


# --------------------------------------------------------------------------- stability


def test_large_scores_do_not_overflow():
    with strict_floats():
        w = softmax([1000.0, 1001.0])
    expected = [1 / (1 + math.e), math.e / (1 + math.e)]
    np.testing.assert_allclose(w, expected, rtol=1e-12)
    np.testing.assert_allclose(w, softmax([0.0, 1.0]), rtol=1e-12)


def test_hugely_negative_scores_get_zero_weight():
    with strict_floats():
        w = softmax([-1e300, 0.0])
    np.testing.assert_array_equal(w, [0.0, 1.0])


def test_extreme_spread_stays_finite():
    with strict_floats():
        w = softmax([1e308, -1e308, 0.0])  # 1e308 - (-1e308) overflows; the answer does not
    np.testing.assert_array_equal(w, [1.0, 0.0, 0.0])
    with strict_floats():
        w = softmax([-1e308, -1e308])
    np.testing.assert_allclose(w, [0.5, 0.5], rtol=1e-15)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    x=hnp.arrays(np.float64, st.integers(1, 8), elements=st.floats(-1e6, 1e6)),
    c=st.floats(-1e6, 1e6),
)
def test_shift_invariance(x, c):
    with strict_floats():
        a = softmax(x)
        b = softmax(x + c)
    assert np.all(np.isfinite(a)) and np.all(np.isfinite(b))
    # Adding c changes each entry by at most one rounding of |x| + |c| ~ 2e6 * 2.2e-16,
    # which the exponential turns into a relative change of about 1e-9 at most.
    np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(a.sum(), 1.0, atol=1e-12)


def test_shift_invariance_is_exact_for_representable_shifts():
    x = np.array([0.5, -1.25, 3.0, 2.0])
    for c in [-1000.0, -1.0, 7.0, 512.0]:
        np.testing.assert_allclose(softmax(x + c), softmax(x), rtol=1e-13)


# --------------------------------------------------------------------------- masks and -inf


def test_masked_entries_are_exactly_zero_and_the_rest_renormalise():
    x = np.array([[2.0, 1.0, 0.0], [5.0, -3.0, 4.0]])
    mask = np.array([[True, False, True], [False, True, True]])
    with strict_floats():
        w = softmax(x, mask=mask)
    assert np.all(w[~mask] == 0.0)
    np.testing.assert_allclose(w[0, [0, 2]], naive_softmax([2.0, 0.0]), rtol=1e-14)
    np.testing.assert_allclose(w[1, [1, 2]], naive_softmax([-3.0, 4.0]), rtol=1e-14)
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-15)


def test_masked_huge_scores_do_not_leak():
    # A masked score of 1e300 must not become the row's max and wipe out the others.
    with strict_floats():
        w = softmax([1e300, 0.0, 1.0], mask=[False, True, True])
    np.testing.assert_allclose(w, [0.0] + naive_softmax([0.0, 1.0]), rtol=1e-14)
    assert w[0] == 0.0


def test_fully_masked_rows_are_all_zeros_without_warnings():
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [0.0, 0.0, 0.0]])
    mask = np.array([[False, False, False], [True, True, False], [False, False, False]])
    with strict_floats():
        w = softmax(x, mask=mask)
    assert not np.any(np.isnan(w))
    np.testing.assert_array_equal(w[0], [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(w[2], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(w[1], naive_softmax([4.0, 5.0]) + [0.0], rtol=1e-14)


def test_fully_masked_rows_under_floating_point_errors_as_exceptions():
    with np.errstate(divide="raise", invalid="raise", over="raise"):
        w = softmax(np.ones((2, 3)), mask=np.zeros((2, 3), dtype=bool))
    np.testing.assert_array_equal(w, np.zeros((2, 3)))


def test_mask_broadcasts():
    x = np.arange(12.0).reshape(3, 4)
    key_mask = np.array([True, True, False, True])  # (M,) shared by every row
    w = softmax(x, mask=key_mask)
    assert np.all(w[:, 2] == 0.0)
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-15)


def test_minus_inf_entries_get_zero_weight():
    with strict_floats():
        w = softmax([-np.inf, 0.0, 0.0])
    np.testing.assert_array_equal(w, [0.0, 0.5, 0.5])


def test_a_row_of_minus_inf_is_all_zeros():
    with strict_floats():
        w = softmax([[-np.inf, -np.inf], [0.0, -np.inf]])
    np.testing.assert_array_equal(w, [[0.0, 0.0], [1.0, 0.0]])


def test_plus_inf_entries_share_the_weight():
    with strict_floats():
        w = softmax([np.inf, 3.0, np.inf, -np.inf])
    np.testing.assert_array_equal(w, [0.5, 0.0, 0.5, 0.0])
    with strict_floats():
        w = softmax([np.inf, 3.0], mask=[False, True])  # a masked +inf takes no part
    np.testing.assert_array_equal(w, [0.0, 1.0])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    data=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
        elements=st.one_of(st.floats(allow_nan=False), st.sampled_from([-np.inf, np.inf])),
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_never_nan_and_rows_sum_to_one_or_zero(data, seed):
    mask = np.random.default_rng(seed).random(data.shape) < 0.7
    with strict_floats():
        w = softmax(data, mask=mask)
    assert w.shape == data.shape
    assert np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(w <= 1)
    assert np.all(w[~mask] == 0.0)
    sums = w.sum(-1)
    alive = (mask & (data != -np.inf)).any(-1)
    np.testing.assert_allclose(sums[alive], 1.0, atol=1e-12)
    assert np.all(sums[~alive] == 0.0)


# --------------------------------------------------------------------------- refusals


def test_nan_input_is_refused():
    with pytest.raises(ValueError, match=r"NaN") as info:
        softmax([1.0, np.nan, 0.0])
    assert "(3,)" in str(info.value)


def test_nan_is_refused_even_where_masked():
    with pytest.raises(ValueError, match=r"NaN"):
        softmax([1.0, np.nan], mask=[True, False])


def test_scalar_input_is_refused():
    with pytest.raises(ValueError, match=r"scalar"):
        softmax(3.0)


def test_mask_of_wrong_shape_is_refused():
    with pytest.raises(ValueError, match=r"mask of shape \(2,\).*\(3,\)"):
        softmax([1.0, 2.0, 3.0], mask=[True, False])


def test_float_mask_is_refused():
    with pytest.raises(ValueError, match=r"mask must be boolean.*float64"):
        softmax([1.0, 2.0], mask=[1.0, 0.0])
