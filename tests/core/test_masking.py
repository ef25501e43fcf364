"""attention_core's masks, and masking before vs after the softmax (seed 004, "Masking: editing scores,
never weights"; seed 000's fully masked row).

Pinned here (and again on the rendered page, tests/browser/plates/test_masking_browser.py):
- each row of weights sums to 1, or to 0 for a row with nothing allowed, under every mask kind;
- blocked entries are exactly 0; the causal row 0 puts exactly 1 on key 0;
- zeroing after the softmax leaves every row that blocks something summing to less than 1;
- attention(Q, K, V, mask) equals a plain loop;
- seed 004's statement, numerically: exp(-inf) = 0 and the survivors renormalise; seed 000's
  printed numbers (e² ≈ 7.389, e ≈ 2.718, total 11.107, weights 0.665 / 0.245 / 0.090, output 1.425),
  each within one unit of its last printed digit.
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac


def recipe(n: int):
    """Seed 003's attention.py recipe for n tokens."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 4))  # (n, 4)
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))
    return X @ Wq, X @ Wk, X @ Wv


def within_last_digit(actual: float, printed: str) -> bool:
    """|actual - printed| <= one unit of the printed string's last digit."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return abs(Decimal(float(actual)) - Decimal(printed)) <= Decimal(1).scaleb(-decimals)


def all_masks(n: int):
    """(name, mask) for every mask kind the plate offers at n tokens, plus seeded random ones."""
    yield "none", np.ones((n, n), dtype=bool)
    yield "causal", ac.causal_mask(n)
    for p in range(n + 1):
        yield f"padding p={p}", ac.padding_mask(n, n, p)
    for w in range(1, n + 1):
        yield f"causal window w={w}", ac.window_mask(n, w, causal=True)
        yield f"window w={w}", ac.window_mask(n, w, causal=False)
    rng = np.random.default_rng(n)
    for k in range(20):
        m = rng.random((n, n)) < 0.5  # (n, n)
        if k % 4 == 0:
            m[k % n] = False
        yield f"random {k}", m


CASES = [(n, name, mask) for n in range(3, 9) for name, mask in all_masks(n)]


# --------------------------------------------------------------------------- the mask builders


def test_causal_mask_is_lower_triangular():
    assert ac.causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    assert ac.causal_mask(2, 4).tolist() == [[True, False, False, False], [True, True, False, False]]
    assert ac.causal_mask(4, 2).shape == (4, 2)
    assert ac.causal_mask(np.int64(3)).dtype == bool


def test_padding_mask_blocks_the_last_p_keys_for_every_query():
    m = ac.padding_mask(2, 5, 2)
    assert m.tolist() == [[True, True, True, False, False]] * 2
    assert ac.padding_mask(3, 3, 0).all()
    assert not ac.padding_mask(3, 3, 3).any()  # every row fully masked
    m[0, 0] = False  # a fresh array, not a view of a shared row
    assert ac.padding_mask(2, 5, 2)[0, 0]


def test_window_masks_causal_and_symmetric():
    assert ac.window_mask(4, 2).astype(int).tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]
    assert ac.window_mask(4, 2, causal=False).astype(int).tolist() == [
        [1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]
    assert np.array_equal(ac.window_mask(5, 1), np.eye(5, dtype=bool))
    assert np.array_equal(ac.window_mask(5, 5), ac.causal_mask(5))  # wide enough: plain causal
    assert ac.window_mask(5, 9, causal=False).all()
    i, j = np.indices((6, 6))
    assert np.array_equal(ac.window_mask(6, 3), (i - 3 < j) & (j <= i))
    assert np.array_equal(ac.window_mask(6, 3, causal=False), np.abs(i - j) < 3)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ac.causal_mask(0), r"n must be at least 1, got 0"),
    (lambda: ac.causal_mask(3, 0), r"m must be at least 1, got 0"),
    (lambda: ac.causal_mask(2.5), r"n must be a whole number, got 2.5"),
    (lambda: ac.causal_mask(True), r"n must be a whole number, got True"),
    (lambda: ac.causal_mask("3"), r"n must be a whole number, got '3'"),
    (lambda: ac.padding_mask(3, 3, 4), r"cannot pad 4 of only 3 keys: p must be between 0 and m = 3"),
    (lambda: ac.padding_mask(3, 3, -1), r"p must be at least 0, got -1"),
    (lambda: ac.window_mask(3, 0), r"w must be at least 1, got 0"),
    (lambda: ac.window_mask(3, float("nan")), r"w must be a whole number"),
    (lambda: ac.masked_scores(np.zeros((2, 3)), np.ones((3, 2), dtype=bool)),
     r"mask of shape \(3, 2\) does not broadcast to the scores' shape \(2, 3\)"),
    (lambda: ac.masked_scores(np.zeros((2, 3)), np.ones((2, 3))), r"mask must be boolean.*float64"),
    (lambda: ac.masked_scores([[1.0, np.nan]], [[True, True]]), r"scores \(shape \(1, 2\)\) has non-finite"),
    (lambda: ac.zero_after_softmax(np.zeros((2, 3)), np.ones((2, 3), dtype=bool), np.zeros((2, 1))),
     r"V must have one row per key: scores have shape \(2, 3\) \(M = 3\), V has shape \(2, 1\)"),
    (lambda: ac.masking_steps(np.zeros((2, 4)), np.zeros((3, 4)), np.zeros((3, 2)), np.ones((3, 3), dtype=bool)),
     r"mask must have shape \(N, M\) = \(2, 3\), got \(3, 3\)"),
    (lambda: ac.attention_loop(np.zeros((2, 4)), np.zeros((3, 2)), np.zeros((3, 2))),
     r"K must have shape \(M, d_k\) = \(3, 4\)"),
])
def test_bad_input_is_a_value_error_naming_it(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_masked_scores_put_minus_infinity_exactly_where_blocked():
    S = np.arange(12.0).reshape(2, 2, 3)  # (2, 2, 3) a batch of two
    m = np.array([[True, False, True], [False, False, False]])  # (2, 3) broadcast over the batch
    out = ac.masked_scores(S, m)
    assert out.shape == (2, 2, 3)
    assert np.array_equal(out == -np.inf, np.broadcast_to(~m, out.shape))
    assert np.array_equal(out[np.broadcast_to(m, out.shape)], S[np.broadcast_to(m, S.shape)])
    assert not np.isnan(out).any()


# --------------------------------------------------------------------------- the pins, every mask kind


@pytest.mark.parametrize(("n", "name", "mask"), CASES, ids=[f"n{n}-{name}" for n, name, _ in CASES])
def test_rows_renormalise_blocked_is_zero_and_the_contrast_shrinks(n, name, mask):
    Q, K, V = recipe(n)
    out, A = ac.attention(Q, K, V, mask=mask)
    empty = ~mask.any(axis=1)  # (n,)
    np.testing.assert_allclose(A.sum(axis=1), np.where(empty, 0.0, 1.0), rtol=0, atol=1e-12)
    assert np.all(A[~mask] == 0.0)
    assert np.all(A[mask] > 0.0)
    assert np.all(out[empty] == 0.0)
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(A))

    st = ac.masking_steps(Q, K, V, mask)
    blocks = (~mask).any(axis=1)  # (n,)
    assert np.all(st.contrast_row_sums[blocks] < 1.0)
    np.testing.assert_allclose(st.contrast_row_sums[~blocks], 1.0, rtol=0, atol=1e-12)
    assert np.all(st.contrast_weights[~mask] == 0.0)
    # The contrast keeps the unmasked softmax's numbers where allowed and does not renormalise them.
    assert np.array_equal(st.contrast_weights[mask], st.full[mask])
    np.testing.assert_allclose(st.contrast_output, st.contrast_weights @ V, rtol=1e-12, atol=1e-12)

    lo, lw = ac.attention_loop(Q, K, V, mask)
    np.testing.assert_allclose(lw, A, rtol=0, atol=1e-12)
    np.testing.assert_allclose(lo, out, rtol=0, atol=1e-12)


@pytest.mark.parametrize("n", range(3, 9))
def test_causal_row_zero_puts_exactly_one_on_key_zero(n):
    Q, K, V = recipe(n)
    out, A = ac.attention(Q, K, V, mask=ac.causal_mask(n))
    assert A[0, 0] == 1.0  # exactly, not approximately
    assert np.all(A[0, 1:] == 0.0)
    assert np.array_equal(out[0], V[0])  # the first token can only read itself


def test_masking_steps_record_is_consistent():
    Q, K, V = recipe(5)
    mask = ac.padding_mask(5, 5, 2)
    st = ac.masking_steps(Q, K, V, mask)
    np.testing.assert_allclose(st.scaled, Q @ K.T / 2.0, rtol=1e-14, atol=1e-14)
    assert np.array_equal(st.shown == -np.inf, ~mask)
    np.testing.assert_allclose(st.weights, st.exp / st.exp_total[:, None], rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(st.norms, np.linalg.norm(st.output, axis=1), rtol=1e-14)
    assert st.scale == 0.5 and not st.empty_rows.any()


# --------------------------------------------------------------------------- seed 004's statement, numerically


def test_exp_of_minus_infinity_is_zero_and_the_survivors_renormalise():
    """Seed 000's scores 2, 1, 0 with values 1, 2, 3; item 3 blocked."""
    scores = np.array([[2.0, 1.0, 0.0]])  # (1, 3)
    values = np.array([[1.0], [2.0], [3.0]])  # (3, 1)
    mask = np.array([[True, True, False]])  # (1, 3)

    plain = ac.softmax(scores)[0]
    exps = np.exp(scores[0])
    for got, printed in zip(exps, ["7.389", "2.718", "1"]):
        assert within_last_digit(got, printed)
    assert within_last_digit(exps.sum(), "11.107")
    for got, printed in zip(plain, ["0.665", "0.245", "0.090"]):
        assert within_last_digit(got, printed)
    assert within_last_digit(float(plain @ values[:, 0]), "1.425")

    shown = ac.masked_scores(scores, mask)[0]
    assert shown[2] == -np.inf and math.exp(-math.inf) == 0.0 and np.exp(shown)[2] == 0.0
    survivors = np.exp(shown[:2]) / np.exp(shown[:2]).sum()  # the survivors renormalise
    before = ac.softmax(scores, mask=mask)[0]
    np.testing.assert_allclose(before[:2], survivors, rtol=1e-15)
    assert before[2] == 0.0 and abs(before.sum() - 1.0) <= 1e-15
    assert before[0] == pytest.approx(math.e / (math.e + 1), rel=1e-15)  # 0.731

    after, out_after = ac.zero_after_softmax(scores, mask, values)
    np.testing.assert_array_equal(after[0, :2], plain[:2])  # the same numbers, not renormalised
    assert after[0, 2] == 0.0
    assert after.sum() == pytest.approx(1 - plain[2], rel=1e-15) and after.sum() < 1  # 0.910
    assert out_after[0, 0] == pytest.approx(plain[0] * 1 + plain[1] * 2, rel=1e-15)  # 1.155
    assert out_after[0, 0] < before @ values[:, 0]  # 1.155 < 1.269: the output shrank


def test_seed_004_lookup_with_its_winning_key_masked():
    """Seed 004's four keys (q = [2, 1], scaled by √2): block key 3 and the other three share everything."""
    q = np.array([[2.0, 1.0]])  # (1, 2)
    K = np.array([[1.0, 0.0], [0.0, 2.0], [2.0, 2.0], [-1.0, 1.0]])  # (4, 2)
    V = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]])  # (4, 3)
    _, A = ac.attention(q, K, V)
    for got, printed in zip(A[0], ["0.053", "0.053", "0.888", "0.006"]):
        # 0.888 is printed truncated (0.8885...): one unit of the last digit still holds.
        assert within_last_digit(got, printed)
    mask = np.array([[True, True, False, True]])  # (1, 4)
    _, Am = ac.attention(q, K, V, mask=mask)
    assert Am[0, 2] == 0.0 and abs(Am.sum() - 1.0) <= 1e-15
    np.testing.assert_allclose(Am[0, [0, 1, 3]], A[0, [0, 1, 3]] / A[0, [0, 1, 3]].sum(), rtol=1e-14)
    after, _ = ac.zero_after_softmax(np.array([[2, 2, 6, -1]]) / math.sqrt(2), mask, V)
    assert after.sum() < 0.12  # zeroing after keeps only 0.053 + 0.053 + 0.006


# --------------------------------------------------------------------------- seed 000's fully masked row


def test_a_row_with_no_legal_key_is_zero_not_nan():
    Q, K, V = recipe(5)
    mask = ac.causal_mask(5)
    mask[2] = False  # row 3 may attend to nothing
    with np.errstate(all="ignore"):
        S = ac.masked_scores(Q @ K.T / 2.0, mask)
        bare = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)  # the textbook formula: 0 / 0 in row 3
    assert np.isnan(bare[2]).all() and not np.isnan(bare[[0, 1, 3, 4]]).any()
    with np.errstate(all="raise"):  # the core neither warns nor produces NaN
        st = ac.masking_steps(Q, K, V, mask)
        out, A = ac.attention(Q, K, V, mask=mask)
    assert st.empty_rows.tolist() == [False, False, True, False, False]
    assert np.all(A[2] == 0.0) and np.all(out[2] == 0.0) and st.row_sums[2] == 0.0
    assert np.all(st.contrast_weights[2] == 0.0) and np.all(st.contrast_output[2] == 0.0)
    assert st.exp_total[2] == 0.0 and st.norms[2] == 0.0
    lo, lw = ac.attention_loop(Q, K, V, mask)
    assert np.all(lw[2] == 0.0) and np.all(lo[2] == 0.0)


def test_everything_padded_gives_all_zeros():
    Q, K, V = recipe(4)
    st = ac.masking_steps(Q, K, V, ac.padding_mask(4, 4, 4))
    assert st.empty_rows.all()
    for a in (st.weights, st.output, st.contrast_weights, st.contrast_output, st.row_sums, st.contrast_row_sums):
        assert np.all(a == 0.0)


# --------------------------------------------------------------------------- property


@settings(derandomize=True, max_examples=150, deadline=None)
@given(n=st.integers(1, 8), m=st.integers(1, 8), seed=st.integers(0, 2**31 - 1), size=st.sampled_from([0.01, 1.0, 30.0]))
def test_any_mask_any_inputs_rows_sum_to_one_or_zero(n, m, seed, size):
    rng = np.random.default_rng(seed)
    Q, K, V = rng.normal(size=(n, 3)) * size, rng.normal(size=(m, 3)) * size, rng.normal(size=(m, 2))
    mask = rng.random((n, m)) < rng.uniform(0, 1)  # (n, m)
    st_ = ac.masking_steps(Q, K, V, mask)
    empty = ~mask.any(axis=1)
    np.testing.assert_allclose(st_.row_sums, np.where(empty, 0.0, 1.0), rtol=0, atol=1e-12)
    assert np.all(st_.weights[~mask] == 0.0)
    blocks = (~mask).any(axis=1)
    assert np.all(st_.contrast_row_sums[blocks] <= 1.0)
    assert np.all(st_.contrast_row_sums <= 1.0 + 1e-12)
    for a in (st_.weights, st_.output, st_.contrast_weights, st_.contrast_output, st_.exp):
        assert np.all(np.isfinite(a))
    lo, lw = ac.attention_loop(Q, K, V, mask)
    np.testing.assert_allclose(lw, st_.weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(lo, st_.output, rtol=1e-12, atol=1e-12)
