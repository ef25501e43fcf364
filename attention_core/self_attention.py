"""Self-attention over a whole sequence, sinusoidal positions, and the permutation check.

Every token of X (a row) makes its own query, key and value with three maps, and all the
tokens take their turn at once: Attention(XWq, XWk, XWv). Cross-attention takes the queries
from one sequence and the keys and values from another. Without positions, reordering the
tokens only reorders the outputs (permutation equivariance); adding sinusoidal position
features to the tokens breaks that, which `permutation_check` measures.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import as_float_array, check_size
from .attention import attention

ALLCLOSE_RTOL = 1e-5  # np.allclose's defaults, written out so mirror.js can use the same test
ALLCLOSE_ATOL = 1e-8


def _maps(X, Wq, Wk, Wv, x_name: str = "X", y_name: str | None = None, Y=None):
    """Validate the inputs of (cross-)self-attention and return them as float arrays."""
    X = as_float_array(X, x_name, 2)  # (..., N, d_model)
    Wq = as_float_array(Wq, "Wq", 2)  # (d_model, d_k)
    Wk = as_float_array(Wk, "Wk", 2)  # (d_model, d_k)
    Wv = as_float_array(Wv, "Wv", 2)  # (d_model, d_v)
    for name, W in (("Wq", Wq), ("Wk", Wk), ("Wv", Wv)):
        if W.ndim != 2:
            raise ValueError(f"{name} must be one matrix of shape (d_model, d), got {W.shape}")
    if X.shape[-1] != Wq.shape[0]:
        raise ValueError(f"{x_name} has width {X.shape[-1]} (shape {X.shape}) but Wq expects {Wq.shape[0]} (shape {Wq.shape})")
    if Y is not None:
        Y = as_float_array(Y, y_name or "Y", 2)  # (..., M, d_model)
        src, src_name = Y, y_name or "Y"
    else:
        src, src_name = X, x_name
    for name, W in (("Wk", Wk), ("Wv", Wv)):
        if src.shape[-1] != W.shape[0]:
            raise ValueError(f"{src_name} has width {src.shape[-1]} (shape {src.shape}) but {name} expects "
                             f"{W.shape[0]} (shape {W.shape})")
    if Wq.shape[1] != Wk.shape[1]:
        raise ValueError(f"queries and keys must share d_k: Wq has shape {Wq.shape}, Wk has shape {Wk.shape}")
    return X, Y, Wq, Wk, Wv


def self_attention(X, Wq, Wk, Wv, mask=None):
    """Every token of X attends to every token of X.

    X (..., n, d_model), Wq and Wk (d_model, d_k), Wv (d_model, d_v). Q = X Wq, K = X Wk,
    V = X Wv and the result is attention(Q, K, V, mask) with the 1/√d_k scale.
    Returns (output (..., n, d_v), weights (..., n, n)).
    """
    X, _, Wq, Wk, Wv = _maps(X, Wq, Wk, Wv)
    Q = X @ Wq  # (..., n, d_k)
    K = X @ Wk  # (..., n, d_k)
    V = X @ Wv  # (..., n, d_v)
    return attention(Q, K, V, mask=mask)


def cross_attention(X, Y, Wq, Wk, Wv, mask=None):
    """The queries come from X, the keys and values from Y; N and M are independent.

    X (..., N, d_model), Y (..., M, d_model), Wq and Wk (d_model, d_k), Wv (d_model, d_v).
    Returns (output (..., N, d_v), weights (..., N, M)).
    """
    X, Y, Wq, Wk, Wv = _maps(X, Wq, Wk, Wv, Y=Y)
    Q = X @ Wq  # (..., N, d_k)
    K = Y @ Wk  # (..., M, d_k)
    V = Y @ Wv  # (..., M, d_v)
    return attention(Q, K, V, mask=mask)


def sinusoidal_positions(n: int, d: int, base: float = 10000.0) -> np.ndarray:
    """Sinusoidal position features: PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(same).

    Positions count from 0. For an odd d the last column is a sine. Returns (n, d).
    """
    for name, v in (("n", n), ("d", d)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {v!r}")
    if n < 0:
        raise ValueError(f"n (the number of positions) must be at least 0, got {n}")
    if d < 1:
        raise ValueError(f"d (the width) must be at least 1, got {d}")
    check_size(int(n) * int(d), f"position features of shape ({n}, {d})")
    try:
        base = float(base)
    except (TypeError, ValueError):
        raise ValueError(f"base must be a number, got {base!r}") from None
    if not (math.isfinite(base) and base > 0):
        raise ValueError(f"base must be finite and positive, got {base}")
    pos = np.arange(n, dtype=np.float64)[:, None]  # (n, 1)
    pair = np.arange(d) // 2  # (d,) i for columns 2i and 2i+1
    freq = base ** (2.0 * pair / d)  # (d,)
    angle = pos / freq  # (n, d)
    even = (np.arange(d) % 2 == 0)  # (d,)
    return np.where(even, np.sin(angle), np.cos(angle))  # (n, d)


def check_perm(perm, n: int) -> np.ndarray:
    """`perm` as an integer array that reorders n rows; ValueError naming what is wrong otherwise."""
    try:
        p = np.asarray(perm)  # (n,)
    except (TypeError, ValueError):
        raise ValueError(f"perm must be a list of integers, got {perm!r}") from None
    if p.ndim != 1 or p.shape[0] != n:
        raise ValueError(f"perm must have shape ({n},) to reorder {n} tokens, got shape {p.shape}")
    if p.dtype == np.bool_ or not (np.issubdtype(p.dtype, np.integer) or
                                    (np.issubdtype(p.dtype, np.floating) and np.all(np.isfinite(p)) and np.all(p == np.round(p)))):
        raise ValueError(f"perm must hold integers, got {p.tolist()!r}")
    p = p.astype(np.int64)  # (n,)
    if sorted(p.tolist()) != list(range(n)):
        raise ValueError(f"perm must hold each of 0..{n - 1} exactly once, got {p.tolist()}")
    return p


def permutation_check(X, Wq, Wk, Wv, perm, positions: bool = False, Y=None):
    """Does reordering the tokens only reorder the outputs?

    Compares self_attention(X)[perm] with self_attention(X[perm]). With `positions=True`,
    sinusoidal position features are added to whatever token sits at each position, on both
    sides: self_attention(X + PE)[perm] against self_attention(X[perm] + PE). With `Y`
    (M, d_model) the check is for cross-attention with the queries from X: the keys and
    values come from Y (plus its own PE when `positions`), which is not reordered.
    Returns (np.allclose of the two, their max absolute difference).
    """
    X = as_float_array(X, "X", 2)  # (n, d_model)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (n, d_model), got {X.shape}")
    n, d = X.shape
    p = check_perm(perm, n)  # (n,)
    pe = sinusoidal_positions(n, d) if positions else np.zeros((n, d))  # (n, d_model)
    if Y is None:
        before = self_attention(X + pe, Wq, Wk, Wv)[0][p]  # (n, d_v)
        after = self_attention(X[p] + pe, Wq, Wk, Wv)[0]  # (n, d_v)
    else:
        Y = as_float_array(Y, "Y", 2)  # (M, d_model)
        if Y.ndim != 2:
            raise ValueError(f"Y must have shape (M, d_model), got {Y.shape}")
        Yp = Y + (sinusoidal_positions(Y.shape[0], Y.shape[1]) if positions else 0.0)  # (M, d_model)
        before = cross_attention(X + pe, Yp, Wq, Wk, Wv)[0][p]  # (n, d_v)
        after = cross_attention(X[p] + pe, Yp, Wq, Wk, Wv)[0]  # (n, d_v)
    diff = float(np.max(np.abs(before - after))) if before.size else 0.0
    equal = bool(np.allclose(before, after, rtol=ALLCLOSE_RTOL, atol=ALLCLOSE_ATOL))
    return equal, diff
