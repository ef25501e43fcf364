"""Masks for attention, and what happens when the mask acts on the scores or on the weights.

A mask is a boolean array of shape (N, M), True where query i may attend to key j. The right
place for it is the scores: a blocked pair gets the score -inf, exp(-inf) = 0, and the softmax
shares each row among the keys that survive, so every row still sums to 1. The contrast,
`zero_after_softmax`, runs the softmax over every key and zeroes the blocked weights afterwards:
the rows then sum to less than 1 and the outputs shrink toward 0.

A row with no allowed key gets zero weights and a zero output (never 0/0 = NaN), both here and
in `attention`.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array, as_mask, check_size, safe_norm
from .attention import attention, default_scale, scores
from .softmax import softmax


def _count(x, name: str, low: int) -> int:
    """`x` as an int >= low; ValueError naming the value otherwise (bools and fractions are refused)."""
    if isinstance(x, (bool, np.bool_)):
        raise ValueError(f"{name} must be a whole number, got {x!r}")
    if isinstance(x, (float, np.floating)):
        if not float(x).is_integer():
            raise ValueError(f"{name} must be a whole number, got {x!r}")
        x = int(x)
    try:
        v = operator.index(x)
    except TypeError:
        raise ValueError(f"{name} must be a whole number, got {x!r}") from None
    if v < low:
        raise ValueError(f"{name} must be at least {low}, got {v}")
    return v


def causal_mask(n, m=None) -> np.ndarray:
    """Query i may attend to key j when j <= i (no peeking ahead): shape (n, m), m defaults to n."""
    n = _count(n, "n", 1)
    m = n if m is None else _count(m, "m", 1)
    check_size(n * m, f"a causal mask of shape ({n}, {m})")
    i = np.arange(n)[:, None]  # (N, 1)
    j = np.arange(m)[None, :]  # (1, M)
    return j <= i  # (N, M)


def padding_mask(n, m, p) -> np.ndarray:
    """The last p of m keys are padding that no query may attend to: shape (n, m).

    p = m blocks every key, so every row is fully masked (its weights and output are 0).
    """
    n = _count(n, "n", 1)
    m = _count(m, "m", 1)
    p = _count(p, "p", 0)
    check_size(n * m, f"a padding mask of shape ({n}, {m})")
    if p > m:
        raise ValueError(f"cannot pad {p} of only {m} keys: p must be between 0 and m = {m}")
    keep = np.arange(m) < m - p  # (M,)
    return np.broadcast_to(keep, (n, m)).copy()  # (N, M)


def window_mask(n, w, causal: bool = True) -> np.ndarray:
    """A sliding window of width w over n positions: shape (n, n).

    causal=True: query i sees keys i - w < j <= i (itself and the w - 1 before it).
    causal=False: query i sees keys with |i - j| < w (w - 1 on each side, and itself).
    """
    n = _count(n, "n", 1)
    w = _count(w, "w", 1)
    check_size(n * n, f"a window mask of shape ({n}, {n})")
    i = np.arange(n)[:, None]  # (N, 1)
    j = np.arange(n)[None, :]  # (1, N)
    if causal:
        return (j <= i) & (j > i - w)  # (N, N)
    return np.abs(i - j) < w  # (N, N)


def _mask_for(S: np.ndarray, mask) -> np.ndarray:
    m = as_mask(mask)
    try:
        return np.broadcast_to(m, S.shape)  # (..., N, M)
    except ValueError:
        raise ValueError(
            f"mask of shape {m.shape} does not broadcast to the scores' shape {S.shape} (..., N, M)") from None


def masked_scores(scores, mask) -> np.ndarray:
    """The scores with -inf where the mask blocks a pair (what the softmax sees): (..., N, M).

    This is the additive form S + M with M = 0 where allowed and -inf where blocked.
    """
    S = as_float_array(scores, "scores", 2)  # (..., N, M)
    m = _mask_for(S, mask)  # (..., N, M)
    return np.where(m, S, -np.inf)  # (..., N, M)


def zero_after_softmax(scores, mask, V):
    """The wrong way round: softmax over every key, then zero the blocked weights (no renormalising).

    scores (..., N, M), mask broadcastable to it, V (..., M, d_v). Returns (weights (..., N, M),
    output (..., N, d_v)). Each row of weights sums to 1 minus the weight the blocked keys had,
    so it is below 1 whenever a row blocks anything, and the output shrinks with it.
    """
    S = as_float_array(scores, "scores", 2)  # (..., N, M)
    V = as_float_array(V, "V", 2)  # (..., M, d_v)
    if V.shape[-2] != S.shape[-1]:
        raise ValueError(
            f"V must have one row per key: scores have shape {S.shape} (M = {S.shape[-1]}), V has shape {V.shape}")
    m = _mask_for(S, mask)  # (..., N, M)
    full = softmax(S, axis=-1)  # (..., N, M) every key takes part
    weights = np.where(m, full, 0.0)  # (..., N, M)
    with np.errstate(over="ignore", invalid="ignore"):
        output = weights @ V  # (..., N, d_v)
    if not np.all(np.isfinite(output)):
        raise ValueError(f"output overflows float64 for V of shape {V.shape}; use smaller values")
    return weights, output


def attention_loop(Q, K, V, mask=None, scale=None):
    """Masked scaled dot-product attention with plain loops: the reference the vectorised one must equal.

    Q (N, d_k), K (M, d_k), V (M, d_v), mask (N, M) or None. Each row: scaled dot products,
    the largest allowed one subtracted, math.exp of the allowed ones, divided by their total;
    blocked keys get 0 and a row with nothing allowed gets zeros. Returns (output (N, d_v),
    weights (N, M)) as arrays.
    """
    Q = as_float_array(Q, "Q", 2)  # (N, d_k)
    K = as_float_array(K, "K", 2)  # (M, d_k)
    V = as_float_array(V, "V", 2)  # (M, d_v)
    if Q.ndim != 2 or K.ndim != 2 or V.ndim != 2:
        raise ValueError(f"attention_loop takes 2-D Q, K, V, got shapes {Q.shape}, {K.shape}, {V.shape}")
    N, d_k = Q.shape
    M, d_v = V.shape
    if K.shape != (M, d_k):
        raise ValueError(f"K must have shape (M, d_k) = ({M}, {d_k}) for Q {Q.shape} and V {V.shape}, got {K.shape}")
    if mask is None:
        allowed = np.ones((N, M), dtype=bool)  # (N, M)
    else:
        allowed = as_mask(mask)  # (N, M)
        if allowed.shape != (N, M):
            raise ValueError(f"mask must have shape (N, M) = ({N}, {M}), got {allowed.shape}")
    s = default_scale(d_k) if scale is None else float(scale)
    q, k, v, a = Q.tolist(), K.tolist(), V.tolist(), allowed.tolist()
    weights = [[0.0] * M for _ in range(N)]
    output = [[0.0] * d_v for _ in range(N)]
    for i in range(N):
        row = [sum(q[i][c] * k[j][c] for c in range(d_k)) * s for j in range(M)]
        alive = [j for j in range(M) if a[i][j]]
        if not alive:
            continue  # nothing allowed: zero weights, zero output
        top = max(row[j] for j in alive)
        e = {j: math.exp(row[j] - top) for j in alive}
        total = sum(e.values())
        for j in alive:
            weights[i][j] = e[j] / total
        for c in range(d_v):
            output[i][c] = sum(weights[i][j] * v[j][c] for j in range(M))
    return np.array(output, dtype=np.float64).reshape(N, d_v), np.array(weights, dtype=np.float64).reshape(N, M)


@dataclass(frozen=True)
class MaskingSteps:
    """Every number the masking plate shows, for one mask over one self-attention."""

    scaled: np.ndarray  # (N, M) scale · q_i · k_j, before the mask
    shown: np.ndarray  # (N, M) scaled scores with -inf where blocked (what the softmax sees)
    exp: np.ndarray  # (N, M) exp(shown - row max over allowed keys); 0 where blocked
    exp_total: np.ndarray  # (N,) Σ_j exp of each row (0 for a row with nothing allowed)
    weights: np.ndarray  # (N, M) softmax of `shown`: blocked 0, survivors renormalised
    row_sums: np.ndarray  # (N,) 1, or 0 for a row with nothing allowed
    output: np.ndarray  # (N, d_v) weights @ V
    full: np.ndarray  # (N, M) softmax of `scaled` over every key (no mask at all)
    contrast_weights: np.ndarray  # (N, M) `full` with blocked entries zeroed, not renormalised
    contrast_row_sums: np.ndarray  # (N,) below 1 wherever a row blocks something
    contrast_output: np.ndarray  # (N, d_v) contrast_weights @ V
    norms: np.ndarray  # (N,) ‖output_i‖
    contrast_norms: np.ndarray  # (N,) ‖contrast_output_i‖
    empty_rows: np.ndarray  # (N,) True where a row may attend to nothing
    scale: float


def masking_steps(Q, K, V, mask, scale=None) -> MaskingSteps:
    """Masked attention done the right way (mask the scores) and the wrong way (zero the weights).

    Q (N, d_k), K (M, d_k), V (M, d_v), mask (N, M) boolean; scale None = 1/√d_k.
    """
    Q = as_float_array(Q, "Q", 2)  # (N, d_k)
    K = as_float_array(K, "K", 2)  # (M, d_k)
    V = as_float_array(V, "V", 2)  # (M, d_v)
    if Q.ndim != 2 or K.ndim != 2 or V.ndim != 2:
        raise ValueError(f"masking_steps takes 2-D Q, K, V, got shapes {Q.shape}, {K.shape}, {V.shape}")
    m = as_mask(mask)  # (N, M)
    if m.shape != (Q.shape[0], K.shape[0]):
        raise ValueError(f"mask must have shape (N, M) = ({Q.shape[0]}, {K.shape[0]}), got {m.shape}")
    s = default_scale(Q.shape[-1]) if scale is None else float(scale)
    output, weights = attention(Q, K, V, mask=m, scale=s)  # (N, d_v), (N, M)
    scaled = scores(Q, K) * s  # (N, M)
    shown = masked_scores(scaled, m)  # (N, M)
    empty = ~m.any(axis=-1)  # (N,)
    top = np.where(empty, 0.0, np.max(np.where(m, scaled, -np.inf), axis=-1))  # (N,)
    e = np.exp(masked_scores(scaled - top[:, None], m))  # (N, M) exp(-inf) = 0 where blocked
    contrast_weights, contrast_output = zero_after_softmax(scaled, m, V)  # (N, M), (N, d_v)
    return MaskingSteps(
        scaled=scaled,
        shown=shown,
        exp=e,
        exp_total=e.sum(axis=-1),  # (N,)
        weights=weights,
        row_sums=weights.sum(axis=-1),  # (N,)
        output=output,
        full=softmax(scaled, axis=-1),  # (N, M)
        contrast_weights=contrast_weights,
        contrast_row_sums=contrast_weights.sum(axis=-1),  # (N,)
        contrast_output=contrast_output,
        norms=safe_norm(output),  # (N,)
        contrast_norms=safe_norm(contrast_output),  # (N,)
        empty_rows=empty,
        scale=s,
    )
