"""attention() refuses bad input with a ValueError that names the shapes or values at fault.

User input (typed numbers, URL parameters, dragged points) reaches the core unchecked, so
every failure must be a ValueError, never a NaN, an IndexError or a bare NumPy message.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import softmax
from attention_core import attention, default_scale, lookup_steps, scores

OK_Q = np.ones((2, 3))
OK_K = np.ones((4, 3))
OK_V = np.ones((4, 5))


# --------------------------------------------------------------------------- shapes


def test_mismatched_d_k_names_both_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\)") as info:
        attention(np.ones((2, 3)), np.ones((4, 2)), np.ones((4, 5)))
    assert "(4, 2)" in str(info.value)
    assert "d_k" in str(info.value)


def test_mismatched_d_k_in_scores_names_both_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4, 2\)"):
        scores(np.ones((2, 3)), np.ones((4, 2)))


def test_mismatched_m_between_keys_and_values_names_both_shapes():
    with pytest.raises(ValueError, match=r"\(4, 3\)") as info:
        attention(OK_Q, np.ones((4, 3)), np.ones((5, 2)))
    assert "(5, 2)" in str(info.value)
    assert "M" in str(info.value)


def test_zero_keys_is_refused():
    with pytest.raises(ValueError, match=r"\(0, 3\)") as info:
        attention(OK_Q, np.ones((0, 3)), np.ones((0, 5)))
    assert "M = 0" in str(info.value)


def test_zero_d_k_is_refused():
    with pytest.raises(ValueError, match=r"\(2, 0\)"):
        attention(np.ones((2, 0)), np.ones((4, 0)), OK_V)


@pytest.mark.parametrize("d_k", [0, -1])
def test_default_scale_refuses_d_k_below_one(d_k):
    with pytest.raises(ValueError, match=rf"got {d_k}"):
        default_scale(d_k)


def test_batch_dimensions_that_do_not_broadcast_are_named():
    with pytest.raises(ValueError, match=r"\(2, 4, 3\)") as info:
        attention(np.ones((2, 4, 3)), np.ones((5, 6, 3)), np.ones((5, 6, 2)))
    assert "(5, 6, 3)" in str(info.value)


@pytest.mark.parametrize(
    ("Q", "K", "V", "shape_text"),
    [
        (np.ones(3), OK_K, OK_V, r"\(3,\)"),  # a single vector is not (N, d_k)
        (OK_Q, np.ones(3), OK_V, r"\(3,\)"),
        (OK_Q, OK_K, np.ones(4), r"\(4,\)"),
    ],
)
def test_too_few_dimensions_are_named(Q, K, V, shape_text):
    with pytest.raises(ValueError, match=shape_text):
        attention(Q, K, V)


# --------------------------------------------------------------------------- non-finite and non-numeric


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("which", ["Q", "K", "V"])
def test_non_finite_entries_are_refused(which, bad):
    args = {"Q": OK_Q.copy(), "K": OK_K.copy(), "V": OK_V.copy()}
    args[which][1, 0] = bad
    shape = re.escape(str(args[which].shape))
    with pytest.raises(ValueError, match=rf"{which} \(shape {shape}\) has non-finite entries") as info:
        attention(args["Q"], args["K"], args["V"])
    assert str(bad) in str(info.value)  # the offending value is shown


@pytest.mark.parametrize(
    "bad",
    ["abc", [["a", "b", "c"]], object(), {"q": 1}, [[1.0, 2.0, 3.0], [1.0]], [[1 + 2j, 0, 0]]],
    ids=["str", "str-matrix", "object", "dict", "ragged", "complex"],
)
def test_non_numeric_input_is_refused(bad):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. ComplexWarning must not slip through
        with pytest.raises(ValueError, match=r"Q must be numeric|Q must be real|Q must have|Q \(shape"):
            attention(bad, OK_K, OK_V)


def test_none_is_refused():
    with pytest.raises(ValueError, match=r"Q"):
        attention(None, OK_K, OK_V)


# --------------------------------------------------------------------------- scale


@pytest.mark.parametrize("scale", [math.inf, -math.inf, math.nan, np.float64("inf")])
def test_non_finite_scale_is_refused(scale):
    with pytest.raises(ValueError, match=r"scale must be finite, got (-?inf|nan)"):
        attention(OK_Q, OK_K, OK_V, scale=scale)


@pytest.mark.parametrize("scale", ["abc", [1.0, 2.0], object()])
def test_non_numeric_scale_is_refused(scale):
    with pytest.raises(ValueError, match=r"scale must be a number or None"):
        attention(OK_Q, OK_K, OK_V, scale=scale)


def test_lookup_steps_refuses_non_finite_scale():
    with pytest.raises(ValueError, match=r"scale"):
        lookup_steps([1.0, 0.0], [[1.0, 0.0]], [1.0], scale=math.inf)


# --------------------------------------------------------------------------- mask


def test_mask_of_wrong_shape_names_both_shapes():
    with pytest.raises(ValueError, match=r"mask of shape \(3, 3\)") as info:
        attention(OK_Q, OK_K, OK_V, mask=np.ones((3, 3), dtype=bool))
    assert "(2, 4)" in str(info.value)  # the scores' shape (N, M)


def test_mask_with_more_batch_than_the_scores_is_refused():
    with pytest.raises(ValueError, match=r"\(7, 2, 4\)"):
        attention(OK_Q, OK_K, OK_V, mask=np.ones((7, 2, 4), dtype=bool))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_mask_is_refused(dtype):
    mask = np.ones((2, 4), dtype=dtype)  # even 0.0/1.0 floats: a float mask is ambiguous
    with pytest.raises(ValueError, match=rf"mask must be boolean.*{np.dtype(dtype).name}.*\(2, 4\)"):
        attention(OK_Q, OK_K, OK_V, mask=mask)


def test_integer_mask_other_than_zero_one_is_refused():
    with pytest.raises(ValueError, match=r"mask must be boolean.*int"):
        attention(OK_Q, OK_K, OK_V, mask=np.full((2, 4), 2))


def test_zero_one_integer_mask_equals_boolean_mask():
    rng = np.random.default_rng(3)
    Q, K, V = rng.normal(size=(2, 3)), rng.normal(size=(4, 3)), rng.normal(size=(4, 5))
    m = np.array([[1, 0, 1, 1], [0, 0, 1, 0]])
    out_i, w_i = attention(Q, K, V, mask=m)
    out_b, w_b = attention(Q, K, V, mask=m.astype(bool))
    np.testing.assert_array_equal(w_i, w_b)
    np.testing.assert_array_equal(out_i, out_b)
    assert np.all(w_i[m == 0] == 0)


# --------------------------------------------------------------------------- huge magnitudes


@pytest.mark.parametrize(
    ("Q", "K", "V", "scale"),
    [
        ([[1e300]], [[1e300]], [[1.0]], None),  # the dot product overflows
        ([[1e300, 1e300]], [[1e10, -1e10]], [[1.0]], 1.0),
        ([[1e200]], [[1e200], [-1e200]], [[1.0], [2.0]], 1.0),
        ([[1e300]], [[1.0], [2.0]], [[1.0], [1.0]], 1e10),  # scaling overflows
        ([[1.0]], [[1.0], [0.0]], [[1.7e308], [1.7e308]], 1.0),  # the weighted sum may overflow
        ([[1e300]], [[1e-300], [-1e-300]], [[1e300], [-1e300]], None),
    ],
)
def test_huge_magnitudes_raise_or_stay_finite(Q, K, V, scale):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            out, w = attention(Q, K, V, scale=scale)
        except ValueError as exc:
            assert str(exc)
            return
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-12)


def test_huge_dot_product_overflow_is_a_value_error():
    with pytest.raises(ValueError, match=r"overflow"):
        attention([[1e300]], [[1e300]], [[1.0]])


def test_huge_but_representable_scores_give_a_hard_lookup():
    out, w = attention([[1e200]], [[1e100], [-1e100]], [[1.0], [2.0]], scale=1e-10)
    np.testing.assert_array_equal(w, [[1.0, 0.0]])
    np.testing.assert_array_equal(out, [[1.0]])


_magnitude = st.sampled_from([1e-300, 1e-10, 1.0, 1e10, 1e150, 1e300, 1.7e308])
_entry = st.builds(lambda sign, mag, frac: sign * mag * frac, st.sampled_from([-1.0, 1.0]), _magnitude, st.floats(0.5, 1.0))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    q=st.lists(_entry, min_size=2, max_size=2),
    K=st.lists(st.lists(_entry, min_size=2, max_size=2), min_size=1, max_size=3),
    v=st.lists(_entry, min_size=3, max_size=3),
    scale=st.one_of(st.none(), st.sampled_from([1.0, 1e-200, 1e200, -3.0])),
)
def test_never_nan_for_any_magnitude(q, K, v, scale):
    V = [[x] for x in v[: len(K)]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            out, w = attention([q], K, V, scale=scale)
        except ValueError:
            return
    assert not np.any(np.isnan(out)) and not np.any(np.isnan(w))
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(w))
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-12)


# --------------------------------------------------------------------------- complex input


def test_complex_array_is_refused():
    # Casting would silently drop the imaginary part; the core refuses instead.
    with pytest.raises(ValueError, match=r"Q must be real.*\(2, 3\)"):
        attention(np.array([[1 + 2j, 0, 0], [0, 0, 0]]), OK_K, OK_V)
    with pytest.raises(ValueError, match=r"real"):
        softmax(np.array([1 + 5j, 0]))


def test_softmax_empty_axis_names_the_shape():
    with pytest.raises(ValueError, match=r"\(2, 0\)"):
        softmax(np.zeros((2, 0)))
