"""Properties of attention_core that hold for any input, checked with hypothesis.

Weights are distributions (or all zero for a row that may attend to nothing), outputs are
convex combinations of the values, the softmax ignores a per-row shift, self-attention commutes
with reordering the tokens (masks reordered with them), dividing the scores by √d_k is the same
as shrinking the queries, and multi-head attention is each head's attention joined side by side.
The second half throws hostile input at every public function: it must either raise a
ValueError whose message names what is wrong, or return finite numbers (never NaN, never
another exception, never a NumPy warning).
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attention_core as ac

PROPS = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow])


@contextlib.contextmanager
def strict():
    """NumPy warnings (overflow, invalid, divide) become errors: the core must not rely on them."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# --------------------------------------------------------------------------- generators


@st.composite
def qkv(draw, max_n=6, max_m=6, max_d=5, batch=False):
    """Seeded random Q (.., N, d_k), K (.., M, d_k), V (.., M, d_v) at a drawn spread, and a mask
    with some rows possibly blocked entirely."""
    n, m = draw(st.integers(1, max_n)), draw(st.integers(1, max_m))
    d_k, d_v = draw(st.integers(1, max_d)), draw(st.integers(1, 3))
    spread = draw(st.sampled_from([1e-6, 0.1, 1.0, 4.0, 30.0, 1e3]))
    lead = (draw(st.integers(1, 3)),) if batch else ()
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Q = rng.normal(size=lead + (n, d_k)) * spread  # (.., N, d_k)
    K = rng.normal(size=lead + (m, d_k)) * spread  # (.., M, d_k)
    V = rng.normal(size=lead + (m, d_v)) * draw(st.sampled_from([1e-3, 1.0, 100.0]))  # (.., M, d_v)
    mask = rng.random(lead + (n, m)) < draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))  # (.., N, M)
    return Q, K, V, mask


def assert_distributions(W, mask=None):
    """Rows non-negative summing to 1, or exactly 0 where the mask leaves a row nothing."""
    assert np.all(np.isfinite(W)) and np.all(W >= 0), W
    sums = W.sum(-1)  # (..., N)
    if mask is None:
        np.testing.assert_allclose(sums, 1.0, atol=1e-12)
        return
    m = np.broadcast_to(mask, W.shape)  # (..., N, M)
    assert np.all(W[~m] == 0.0)
    alive = m.any(-1)  # (..., N)
    np.testing.assert_allclose(sums[alive], 1.0, atol=1e-12)
    assert np.all(sums[~alive] == 0.0)


# --------------------------------------------------------------------------- weights and outputs


@PROPS
@given(case=qkv(batch=False) | qkv(batch=True), use_mask=st.booleans(), scale=st.sampled_from([None, 1.0, 0.25, -2.0]))
def test_attention_weights_are_distributions_and_output_is_their_mix(case, use_mask, scale):
    Q, K, V, mask = case
    try:
        with strict():
            out, W = ac.attention(Q, K, V, mask=mask if use_mask else None, scale=scale)
    except ValueError as exc:  # only overflow may refuse these finite inputs
        assert "overflow" in str(exc)
        return
    assert_distributions(W, mask if use_mask else None)
    np.testing.assert_allclose(out, W @ V, rtol=1e-12, atol=1e-300)
    if use_mask:
        empty = ~mask.any(-1)  # (..., N)
        assert np.all(out[empty] == 0.0)  # a row with nothing allowed has a zero output


@PROPS
@given(case=qkv(max_d=3), use_mask=st.booleans())
def test_output_stays_between_the_values_per_column(case, use_mask):
    """Each output column is a convex combination of that column of V (the 1-D hull)."""
    Q, K, V, mask = case
    m = mask if use_mask else np.ones(mask.shape, bool)  # (N, M)
    out, W = ac.attention(Q, K, V, mask=m)
    for i in range(Q.shape[0]):
        alive = m[i]  # (M,)
        if not alive.any():
            continue
        lo, hi = V[alive].min(0), V[alive].max(0)  # (d_v,)
        tol = 1e-12 * (1.0 + np.abs(V).max())
        assert np.all(out[i] >= lo - tol) and np.all(out[i] <= hi + tol), (out[i], lo, hi)


@PROPS
@given(case=qkv(max_d=3), seed=st.integers(0, 2**32 - 1))
def test_2d_output_lies_in_the_convex_hull_of_the_values(case, seed):
    Q, K, _, _ = case
    V = np.random.default_rng(seed).normal(size=(K.shape[0], 2)) * 5.0  # (M, 2)
    out, _ = ac.attention(Q, K, V)  # (N, 2)
    hull = ac.convex_hull(V)  # (H, 2)
    scale = 1.0 + np.abs(V).max()
    for o in out:
        if hull.shape[0] == 1:
            np.testing.assert_allclose(o, hull[0], atol=1e-12 * scale)
        elif hull.shape[0] == 2:  # collinear values: on the segment
            a, b = hull
            t = np.dot(o - a, b - a) / np.dot(b - a, b - a)
            assert -1e-9 <= t <= 1 + 1e-9 and np.linalg.norm(a + t * (b - a) - o) <= 1e-9 * scale
        else:  # counter-clockwise: every edge has the point on its left (or on it)
            for a, b in zip(hull, np.roll(hull, -1, axis=0)):
                cross = (b[0] - a[0]) * (o[1] - a[1]) - (b[1] - a[1]) * (o[0] - a[0])
                assert cross >= -1e-9 * scale * scale, (o, hull)


@PROPS
@given(case=qkv(batch=True), use_mask=st.booleans())
def test_vectorised_attention_equals_the_loop(case, use_mask):
    Q, K, V, mask = case
    for b in range(Q.shape[0]):
        m = mask[b] if use_mask else None
        out, W = ac.attention(Q[b], K[b], V[b], mask=m)
        out_l, W_l = ac.attention_loop(Q[b], K[b], V[b], mask=m)
        np.testing.assert_allclose(W, W_l, rtol=1e-9, atol=1e-15)
        np.testing.assert_allclose(out, out_l, rtol=1e-9, atol=1e-12 * (1 + np.abs(V).max()))


@PROPS
@given(case=qkv())
def test_masking_a_key_is_dropping_it(case):
    """A key every query is blocked from might as well not be there."""
    Q, K, V, mask = case
    keep = mask[0] if mask[0].any() else np.ones(K.shape[0], bool)  # (M,)
    out, W = ac.attention(Q, K, V, mask=keep)
    out_s, W_s = ac.attention(Q, K[keep], V[keep])
    np.testing.assert_allclose(W[:, keep], W_s, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(out, out_s, rtol=1e-10, atol=1e-300)


@PROPS
@given(case=qkv(max_n=4, max_m=5))
def test_masking_steps_agree_with_attention(case):
    Q, K, V, mask = case
    s = ac.masking_steps(Q, K, V, mask)
    out, W = ac.attention(Q, K, V, mask=mask)
    np.testing.assert_array_equal(s.weights, W)
    np.testing.assert_array_equal(s.output, out)
    assert_distributions(s.weights, mask)
    np.testing.assert_array_equal(s.empty_rows, ~mask.any(-1))
    # The wrong order never sums to more than 1 and is exactly `full` where nothing is blocked.
    assert np.all(s.contrast_row_sums <= 1.0 + 1e-12)
    assert np.all(np.isfinite(s.exp)) and np.all(s.exp[~mask] == 0.0)


# --------------------------------------------------------------------------- softmax


@PROPS
@given(rows=st.integers(1, 4), m=st.integers(1, 7), seed=st.integers(0, 2**32 - 1),
       spread=st.sampled_from([1e-3, 1.0, 50.0, 700.0]), shift=st.sampled_from([1e-6, 1.0, 1e3, 1e5]))
def test_softmax_ignores_a_different_shift_on_each_row(rows, m, seed, spread, shift):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, m)) * spread  # (R, M)
    c = rng.normal(size=(rows, 1)) * shift  # (R, 1)
    mask = rng.random((rows, m)) < 0.7  # (R, M)
    with strict():
        a, b = ac.softmax(x, mask=mask), ac.softmax(x + c, mask=mask)
    # x + c rounds each entry by up to ulp(|x| + |c|), which exp turns into a relative change.
    rel = 4 * np.finfo(float).eps * (np.abs(x).max() + np.abs(c).max() + 1.0)
    np.testing.assert_allclose(a, b, rtol=max(1e-12, 4 * rel), atol=1e-300)
    assert_distributions(a, mask)


@PROPS
@given(x=st.lists(st.floats(-50, 50), min_size=1, max_size=6), axis_rows=st.integers(1, 3))
def test_softmax_along_either_axis_is_the_transpose(x, axis_rows):
    a = np.array([x] * axis_rows) + np.arange(axis_rows)[:, None]  # (R, M)
    np.testing.assert_allclose(ac.softmax(a, axis=0), ac.softmax(a.T, axis=-1).T, rtol=1e-14)


# --------------------------------------------------------------------------- scaling


@PROPS
@given(case=qkv(max_d=6))
def test_dividing_scores_by_root_dk_is_shrinking_the_query(case):
    Q, K, V, mask = case
    d_k = Q.shape[-1]
    out, W = ac.attention(Q, K, V, mask=mask)  # default scale 1/√d_k
    out_q, W_q = ac.attention(Q / math.sqrt(d_k), K, V, mask=mask, scale=1.0)
    np.testing.assert_allclose(W, W_q, rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(out, out_q, rtol=1e-9, atol=1e-12 * (1 + np.abs(V).max()))
    np.testing.assert_allclose(ac.scores(Q, K) * ac.default_scale(d_k), ac.scores(Q / math.sqrt(d_k), K),
                               rtol=1e-12, atol=1e-300)


@PROPS
@given(case=qkv(max_d=4), c=st.floats(-8.0, 8.0).filter(lambda c: abs(c) > 1e-3))
def test_any_scale_is_a_scaled_query(case, c):
    Q, K, V, _ = case
    out, W = ac.attention(Q, K, V, scale=c)
    out_q, W_q = ac.attention(Q * c, K, V, scale=1.0)
    np.testing.assert_allclose(W, W_q, rtol=1e-8, atol=1e-14)
    step = ac.lookup_steps(Q[0], K, V, scale=c)
    np.testing.assert_allclose(step.weight, W[0], rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(step.output, out[0], rtol=1e-12, atol=1e-300)


@PROPS
@given(widths=st.lists(st.integers(1, 4096), min_size=1, max_size=6),
       base=st.lists(st.floats(-5, 5), min_size=1, max_size=5))
def test_flat_line_is_flat_when_scaled(widths, base):
    W = ac.flat_line(widths, base, scaled=True)  # (W, M)
    assert_distributions(W)
    np.testing.assert_allclose(W, np.broadcast_to(ac.softmax(np.array(base)), W.shape), rtol=1e-9, atol=1e-15)
    assert_distributions(ac.flat_line(widths, base, scaled=False))


@PROPS
@given(case=qkv(max_d=4))
def test_entropy_and_jacobian_of_any_weights(case):
    Q, K, V, mask = case
    _, W = ac.attention(Q, K, V)  # (N, M)
    H = ac.entropy(W)  # (N,)
    M = W.shape[-1]
    assert np.all(H >= 0) and np.all(H <= math.log(M) + 1e-12)
    J = ac.softmax_jacobian(W)  # (N, M, M)
    np.testing.assert_allclose(J, np.swapaxes(J, -1, -2), atol=1e-15)
    np.testing.assert_allclose(J.sum(-1), 0.0, atol=1e-12)
    assert np.all(np.diagonal(J, axis1=-2, axis2=-1) <= 0.25 + 1e-15)


@PROPS
@given(q=st.lists(st.floats(-5, 5), min_size=2, max_size=2).filter(lambda v: math.hypot(*v) > 1e-3),
       seed=st.integers(0, 2**32 - 1), lengths=st.lists(st.floats(0, 20), min_size=1, max_size=5))
def test_length_sweep_rows_are_distributions_and_match_attention(q, seed, lengths):
    K = np.random.default_rng(seed).normal(size=(4, 2)) * 3  # (M, 2)
    W = ac.length_sweep(q, K, lengths)  # (F, M)
    assert_distributions(W)
    qn = np.array(q) / np.linalg.norm(q)  # (2,)
    for L, row in zip(lengths, W):
        _, w = ac.attention([qn * L], K, np.eye(4))
        np.testing.assert_allclose(row, w[0], rtol=1e-9, atol=1e-15)


# --------------------------------------------------------------------------- self-attention


@st.composite
def tokens(draw, max_n=6, max_d=5):
    n, d, d_k, d_v = draw(st.integers(1, max_n)), draw(st.integers(1, max_d)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(n, d))  # (n, d_model)
    Wq, Wk, Wv = rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_v))
    perm = rng.permutation(n)  # (n,)
    mask = rng.random((n, n)) < 0.6  # (n, n)
    return X, Wq, Wk, Wv, perm, mask


@PROPS
@given(case=tokens(), use_mask=st.booleans())
def test_self_attention_is_permutation_equivariant_with_the_mask_reordered_too(case, use_mask):
    X, Wq, Wk, Wv, p, mask = case
    m = mask if use_mask else None
    out, W = ac.self_attention(X, Wq, Wk, Wv, mask=m)
    out_p, W_p = ac.self_attention(X[p], Wq, Wk, Wv, mask=None if m is None else m[p][:, p])
    np.testing.assert_allclose(out_p, out[p], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(W_p, W[p][:, p], rtol=1e-9, atol=1e-14)
    assert_distributions(W, m)
    assert ac.permutation_check(X, Wq, Wk, Wv, p)[0]


@PROPS
@given(case=tokens(), m=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
def test_cross_attention_reorders_with_the_queries_and_ignores_key_order(case, m, seed):
    X, Wq, Wk, Wv, p, _ = case
    rng = np.random.default_rng(seed)
    Y = rng.normal(size=(m, X.shape[1]))  # (M, d_model)
    r = rng.permutation(m)  # (M,)
    out, W = ac.cross_attention(X, Y, Wq, Wk, Wv)
    assert_distributions(W)
    np.testing.assert_allclose(ac.cross_attention(X[p], Y, Wq, Wk, Wv)[0], out[p], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ac.cross_attention(X, Y[r], Wq, Wk, Wv)[0], out, rtol=1e-9, atol=1e-12)


# --------------------------------------------------------------------------- multi-head


@st.composite
def heads(draw):
    h = draw(st.sampled_from([1, 2, 3, 4]))
    d_model = h * draw(st.integers(1, 3))
    n = draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(n, d_model))  # (n, d_model)
    Wq, Wk, Wv = (rng.normal(size=(d_model, d_model)) for _ in range(3))
    Wo = rng.normal(size=(d_model, draw(st.integers(1, 4))))  # (d_model, d_out)
    return X, Wq, Wk, Wv, Wo, h


@PROPS
@given(case=heads())
def test_multi_head_is_each_heads_attention_joined_then_mixed(case):
    X, Wq, Wk, Wv, Wo, h = case
    out, W, concat = ac.multi_head_attention(X, Wq, Wk, Wv, Wo, h)
    d_h = X.shape[1] // h
    per_head = []
    for i in range(h):
        cols = slice(i * d_h, (i + 1) * d_h)
        o, w = ac.attention(X @ Wq[:, cols], X @ Wk[:, cols], X @ Wv[:, cols])  # (n, d_h), (n, n)
        np.testing.assert_allclose(W[i], w, rtol=1e-10, atol=1e-14)
        per_head.append(o)
    joined = np.concatenate(per_head, axis=-1)  # (n, d_model)
    np.testing.assert_allclose(concat, joined, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out, joined @ Wo, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ac.merge_heads(ac.split_heads(X, h)), X, rtol=0, atol=0)
    assert_distributions(W)
    np.testing.assert_allclose(ac.head_scores(X, Wq, Wk, h), np.stack(
        [ac.scores(X @ Wq[:, i * d_h:(i + 1) * d_h], X @ Wk[:, i * d_h:(i + 1) * d_h]) for i in range(h)]),
        rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------- hostile input

HOSTILE_NUMBERS = [np.nan, np.inf, -np.inf, 1e300, -1e300, 1.7e308, 5e-324, 0.0, -0.0]
HOSTILE_OBJECTS = [None, "abc", "1.0", [], [[]], {"a": 1}, object(), True, [[1.0, 2.0], [3.0]], 1 + 2j]

# One ordinary call per public function with arrays; each argument listed may be replaced.
GOOD = {
    "attention": (ac.attention, dict(Q=np.ones((2, 3)), K=np.ones((4, 3)), V=np.ones((4, 2)))),
    "scores": (ac.scores, dict(Q=np.ones((2, 3)), K=np.ones((4, 3)))),
    "softmax": (ac.softmax, dict(x=np.zeros((2, 4)))),
    "lookup_steps": (ac.lookup_steps, dict(q=np.ones(2), K=np.ones((5, 2)), V=np.arange(5.0))),
    "masking_steps": (ac.masking_steps, dict(Q=np.ones((3, 2)), K=np.ones((3, 2)), V=np.ones((3, 2)),
                                             mask=np.tri(3, dtype=bool))),
    "attention_loop": (ac.attention_loop, dict(Q=np.ones((2, 2)), K=np.ones((3, 2)), V=np.ones((3, 1)))),
    "masked_scores": (ac.masked_scores, dict(scores=np.ones((2, 3)), mask=np.ones((2, 3), bool))),
    "zero_after_softmax": (ac.zero_after_softmax, dict(scores=np.ones((2, 3)), mask=np.ones((2, 3), bool),
                                                       V=np.ones((3, 2)))),
    "self_attention": (ac.self_attention, dict(X=np.ones((3, 2)), Wq=np.eye(2), Wk=np.eye(2), Wv=np.eye(2))),
    "cross_attention": (ac.cross_attention, dict(X=np.ones((3, 2)), Y=np.ones((4, 2)), Wq=np.eye(2),
                                                 Wk=np.eye(2), Wv=np.eye(2))),
    "multi_head_attention": (ac.multi_head_attention, dict(X=np.ones((3, 4)), Wq=np.eye(4), Wk=np.eye(4),
                                                           Wv=np.eye(4), Wo=np.eye(4), h=2)),
    "head_scores": (ac.head_scores, dict(X=np.ones((3, 4)), Wq=np.eye(4), Wk=np.eye(4), h=2)),
    "split_heads": (ac.split_heads, dict(X=np.ones((3, 4)), h=2)),
    "merge_heads": (ac.merge_heads, dict(H=np.ones((2, 3, 2)))),
    "convex_hull": (ac.convex_hull, dict(points=np.eye(2))),
    "length_sweep": (ac.length_sweep, dict(q=np.ones(2), K=np.eye(2), lengths=np.arange(3.0))),
    "prediction_error": (ac.prediction_error, dict(guess=np.ones(2), output=np.zeros(2))),
    "entropy": (ac.entropy, dict(weights=np.full((2, 4), 0.25))),
    "softmax_jacobian": (ac.softmax_jacobian, dict(weights=np.full((2, 4), 0.25))),
    "flat_line": (ac.flat_line, dict(widths=np.array([1.0, 4.0]), base_scores=np.array([2.0, 1.0, 0.0]))),
    "score_histogram": (ac.score_histogram, dict(samples=np.arange(5.0))),
    "normal_density": (ac.normal_density, dict(x=np.arange(3.0), variance=1.0)),
    "cartesian": (ac.cartesian, dict(angle_deg=np.arange(3.0), length=1.0)),
    "polar": (ac.polar, dict(xy=np.ones((3, 2)))),
    "permutation_check": (ac.permutation_check, dict(X=np.ones((3, 2)), Wq=np.eye(2), Wk=np.eye(2),
                                                     Wv=np.eye(2), perm=[2, 0, 1])),
    "causal_mask": (ac.causal_mask, dict(n=3)),
    "padding_mask": (ac.padding_mask, dict(n=3, m=4, p=1)),
    "window_mask": (ac.window_mask, dict(n=4, w=2)),
    "sinusoidal_positions": (ac.sinusoidal_positions, dict(n=3, d=4)),
    "dot_product_samples": (ac.dot_product_samples, dict(d_k=4, n=10)),
    "param_counts": (ac.param_counts, dict(d_model=8, h=2)),
    "head_width": (ac.head_width, dict(width=8, h=2)),
    "head_divisor": (ac.head_divisor, dict(d_model=8, h=2)),
    "default_scale": (ac.default_scale, dict(d_k=4)),
    "multi_head_recipe": (ac.multi_head_recipe, dict(n=3, d_model=4)),
    "attention_grads": (ac.attention_grads, dict(Q=np.ones((2, 3)), K=np.ones((4, 3)), V=np.ones((4, 2)),
                                                 d_output=np.ones((2, 2)))),
    "one_hot_tokens": (ac.one_hot_tokens, dict(T=3, d_model=4)),
    "target_weights": (ac.target_weights, dict(T=3)),
    "init_state": (ac.init_state, dict(settings=ac.TrainSettings(T=3, d_model=4, d_k=2))),
    "loss_and_grads": (ac.loss_and_grads, dict(settings=ac.TrainSettings(T=3, d_model=4, d_k=2),
                                               params={"W_Q": np.ones((4, 2)), "W_K": np.eye(4, 2)})),
    "train_step": (ac.train_step, dict(settings=ac.TrainSettings(T=3, d_model=4, d_k=2),
                                       state=ac.init_state(ac.TrainSettings(T=3, d_model=4, d_k=2)))),
    "head_readout": (ac.head_readout, dict(settings=ac.TrainSettings(T=3, d_model=4, d_k=2),
                                           state=ac.init_state(ac.TrainSettings(T=3, d_model=4, d_k=2)))),
    "train": (ac.train, dict(settings=ac.TrainSettings(T=3, d_model=4, d_k=2), steps=3)),
    "stalled": (ac.stalled, dict(readout=ac.head_readout(ac.TrainSettings(T=3, d_model=4, d_k=2),
                                                         ac.init_state(ac.TrainSettings(T=3, d_model=4, d_k=2))))),
}


def test_the_hostile_table_covers_every_public_function():
    public = {n for n in ac.__all__ if callable(getattr(ac, n)) and not isinstance(getattr(ac, n), type)}
    assert public - set(GOOD) <= {"check_perm"}, sorted(public - set(GOOD))  # check_perm: tested in test_self_attention_core
    for fn, kw in GOOD.values():  # the ordinary calls work, so a refusal below is the hostile value's doing
        fn(**kw)


def _finite_everywhere(result) -> bool:
    """Every number in a result (arrays, tuples, dataclasses, dicts) is finite (the masks' -inf aside)."""
    if isinstance(result, dict):
        return all(_finite_everywhere(v) for v in result.values())
    if isinstance(result, (tuple, list)):
        return all(_finite_everywhere(v) for v in result)
    if hasattr(result, "__dataclass_fields__"):
        return all(_finite_everywhere(getattr(result, f)) for f in result.__dataclass_fields__ if f != "shown")
    if isinstance(result, int):
        return True  # Python ints are exact at any size (param_counts)
    arr = np.asarray(result)
    if arr.dtype.kind in "biu":
        return True
    if arr.dtype.kind not in "f":
        return False  # a string or an object where a number belongs
    return bool(np.all(np.isfinite(arr)))


def _hostile_array(draw, good):
    """`good` with one entry made hostile, its shape changed, or replaced by a non-array."""
    kind = draw(st.sampled_from(["entry", "shape", "empty", "object", "dtype"]))
    g = np.asarray(good)
    if kind == "entry" and g.size and g.dtype.kind == "f":
        a = g.copy()
        a.flat[draw(st.integers(0, g.size - 1))] = draw(st.sampled_from(HOSTILE_NUMBERS))
        return a, kind
    if kind == "shape" and g.ndim:
        shape = list(g.shape)
        shape[draw(st.integers(0, g.ndim - 1))] += draw(st.sampled_from([-1, 1, 3]))
        extra = draw(st.sampled_from([(), (1,), (2,)]))
        return np.ones(tuple(extra) + tuple(max(0, s) for s in shape)), kind
    if kind == "empty" and g.ndim:
        shape = list(g.shape)
        shape[draw(st.integers(0, g.ndim - 1))] = 0
        return np.ones(shape), kind
    if kind == "dtype" and g.ndim:
        return draw(st.sampled_from([g.astype(np.float32) * 0.5, np.full(g.shape, 2, dtype=np.int64),
                                     g.astype(str), g.astype(object)])), kind
    return draw(st.sampled_from(HOSTILE_OBJECTS + [np.nan, 0, -1, 0.5, 10**12])), "object"


@settings(max_examples=800, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_hostile_input_is_refused_with_a_value_error_or_gives_finite_numbers(data):
    name = data.draw(st.sampled_from(sorted(GOOD)), label="function")
    fn, good = GOOD[name]
    kw = dict(good)
    arg = data.draw(st.sampled_from(sorted(kw)), label="argument")
    kw[arg], kind = _hostile_array(data.draw, kw[arg])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            result = fn(**kw)
        except ValueError as exc:
            msg = str(exc)
            assert len(msg) > 10, (name, arg, msg)
            return
        # anything else (TypeError, IndexError, a warning turned error, MemoryError) fails the test
    if name == "masked_scores":  # -inf marks a blocked pair; that is the function's answer
        result = np.where(np.isneginf(result), 0.0, result)
    assert _finite_everywhere(result), (name, arg, kind, result)


@pytest.mark.parametrize("name", ["attention", "self_attention", "masking_steps", "multi_head_attention"])
def test_huge_magnitudes_raise_naming_overflow_or_stay_exact(name):
    fn, good = GOOD[name]
    for big in (1e150, 1e200, 1e300):
        kw = {k: (v * big if isinstance(v, np.ndarray) and v.dtype.kind == "f" and k in ("Q", "X") else v)
              for k, v in good.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                result = fn(**kw)
            except ValueError as exc:
                assert "overflow" in str(exc), str(exc)
                continue
        assert _finite_everywhere(result)


@pytest.mark.parametrize("mask", [
    np.ones((2, 4)), np.full((2, 4), 0.5), np.array([["1"] * 4] * 2), np.ones((3, 4), bool), np.ones((2, 5), bool),
    np.ones((2, 2, 2, 4), bool), "causal", None,
], ids=["float", "half", "str", "rows", "cols", "batch", "text", "none"])
def test_a_mask_of_the_wrong_dtype_or_shape_is_named(mask):
    Q, K, V = np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2))
    if mask is None:
        assert_distributions(ac.attention(Q, K, V, mask=mask)[1])
        return
    with pytest.raises(ValueError, match=r"mask"):
        ac.attention(Q, K, V, mask=mask)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: ac.causal_mask(10**12), "entries"),
    (lambda: ac.padding_mask(10**12, 4, 1), "entries"),
    (lambda: ac.window_mask(10**12, 2), "entries"),
    (lambda: ac.sinusoidal_positions(10**12, 4), "entries"),
    (lambda: ac.multi_head_recipe(10**12, 4), "entries"),
    (lambda: ac.score_histogram([1.0], bins=10**12), "entries"),
    (lambda: ac.default_scale(None), "d_k"),
    (lambda: ac.default_scale(math.nan), "d_k"),
    (lambda: ac.softmax({"a": 1}), "numeric"),
    (lambda: ac.normal_density([0.0], []), "variance"),
    (lambda: ac.score_histogram([1.7e308, 0.0]), "overflow"),
    (lambda: ac.masking_steps(np.ones((2, 2)), np.ones((2, 2)), [[1.7e308, 1.7e308], [1.7e308, 1.7e308]],
                              np.ones((2, 2), bool)), "overflow"),
], ids=["causal", "padding", "window", "positions", "recipe", "bins", "d_k-None", "d_k-nan", "softmax-dict",
        "variance-empty", "histogram-range", "norms"])
def test_found_by_the_hostile_run_now_a_value_error(call, words):
    """Each of these was a MemoryError, TypeError, NaN or overflow warning before."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=words):
            call()


def test_a_query_of_huge_entries_still_sweeps():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        W = ac.length_sweep([1e300, 1e300], np.eye(2), [0.0, 1.0])  # ‖q‖ overflowed in q * q before
    np.testing.assert_allclose(W, [[0.5, 0.5], [0.5, 0.5]], atol=1e-15)
