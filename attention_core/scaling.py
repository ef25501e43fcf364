"""Why attention divides by √d_k: score spread, saturation, the softmax Jacobian and entropy.

A dot product of two random vectors with d_k independent unit-variance entries has variance
d_k, so its spread grows like √d_k; dividing by √d_k brings it back to 1 whatever the width.
Unscaled, large scores push the softmax toward one-hot, where its Jacobian
α_i(δ_ij − α_j) vanishes and the gradient that should train the queries and keys dies out;
the row entropy −Σ α log α falls from log M (uniform) toward 0 (one-hot).
"""

from __future__ import annotations

import math
import operator

import numpy as np

from ._validate import as_float_array, check_size
from .softmax import softmax

MAX_SAMPLE_ENTRIES = 50_000_000  # n * d_k normals per matrix: about 400 MB of float64
_CHUNK_ROWS = 1000
_SUM_TOLERANCE = 1e-9


def _positive_int(x, name: str) -> int:
    """`x` as a Python int >= 1 (a bool or a non-integral number is refused)."""
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a positive integer, got {x!r}")
    try:
        v = operator.index(x)
    except TypeError:
        if isinstance(x, float) and math.isfinite(x) and x == int(x):
            v = int(x)
        else:
            raise ValueError(f"{name} must be a positive integer, got {x!r}") from None
    if v < 1:
        raise ValueError(f"{name} must be at least 1, got {v}")
    return v


def _weights(weights, name: str = "weights") -> np.ndarray:
    """Rows of softmax weights (..., M): finite, non-negative, each row summing to 1 (or all 0,
    a fully masked row)."""
    a = as_float_array(weights, name, 1)  # (..., M)
    if a.shape[-1] == 0:
        raise ValueError(f"{name} needs at least one entry per row, got shape {a.shape}")
    if np.any(a < 0):
        raise ValueError(f"{name} (shape {a.shape}) has negative entries, e.g. {a[a < 0].ravel()[:3].tolist()}")
    total = a.sum(axis=-1)  # (...)
    ok = (np.abs(total - 1.0) <= _SUM_TOLERANCE) | (total == 0.0)  # (...)
    if not np.all(ok):
        bad = np.atleast_1d(total)[~np.atleast_1d(ok)][:3]  # (<= 3,)
        raise ValueError(f"each row of {name} (shape {a.shape}) must sum to 1 (or be all 0); row sums include {bad.tolist()}")
    return a


def softmax_jacobian(weights) -> np.ndarray:
    """∂α_i/∂s_j = α_i (δ_ij − α_j) for rows of softmax weights: (..., M) -> (..., M, M).

    Symmetric, every row and column sums to 0 (adding a constant to every score changes
    nothing), diagonal entries α_i(1 − α_i) at most 1/4. A one-hot row gives all zeros.
    """
    a = _weights(weights)  # (..., M)
    eye = np.eye(a.shape[-1])  # (M, M)
    return a[..., :, None] * (eye - a[..., None, :])  # (..., M, M)


def entropy(weights) -> np.ndarray:
    """Row entropy H = −Σ_j α_j log α_j in nats (0 log 0 = 0): (..., M) -> (...).

    log M for a uniform row (the head is mean-pooling), 0 for a one-hot row.
    """
    a = _weights(weights)  # (..., M)
    safe = np.where(a > 0, a, 1.0)  # (..., M) log(1) = 0 stands in for 0 log 0
    terms = a * np.log(safe)  # (..., M)
    return -terms.sum(axis=-1) + 0.0  # (...) + 0.0 turns -0.0 into 0.0


def dot_product_samples(d_k, n=10_000, seed=0) -> np.ndarray:
    """n dot products of random q, k with d_k independent N(0, 1) entries: -> (n,).

    The recipe of the seed's scaling.py, to the last bit: `rng = default_rng(seed)`, all n
    queries drawn first as `rng.normal(size=(n, d_k))`, then the keys the same way, then
    `(q * k).sum(axis=1)`. The keys are drawn in consecutive blocks of rows (the generator's
    stream is the same) so only one full matrix is held at a time. Divide by √d_k to scale.
    """
    d_k = _positive_int(d_k, "d_k")
    n = _positive_int(n, "n")
    if isinstance(seed, bool):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    try:
        seed = operator.index(seed)
    except TypeError:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}") from None
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    if n * d_k > MAX_SAMPLE_ENTRIES:
        raise ValueError(f"n * d_k = {n} * {d_k} = {n * d_k} normals per matrix is more than {MAX_SAMPLE_ENTRIES}")
    rng = np.random.default_rng(seed)  # () a Generator, no array
    q = rng.normal(size=(n, d_k))  # (n, d_k)
    out = np.empty(n)  # (n,)
    for start in range(0, n, _CHUNK_ROWS):
        stop = min(n, start + _CHUNK_ROWS)
        k = rng.normal(size=(stop - start, d_k))  # (rows, d_k)
        out[start:stop] = (q[start:stop] * k).sum(axis=1)  # (rows,)
    return out  # (n,)


def score_histogram(samples, bins: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Counts of `samples` (n,) in `bins` equal bins over [−R, R], R = max |sample|.

    Returns (edges (bins + 1,), counts (bins,)); every sample is counted once, so the counts
    add up to n. The range is symmetric so that 0 sits on an edge or a bin centre.
    """
    s = as_float_array(samples, "samples", 1)  # (n,)
    if s.ndim != 1 or s.shape[0] == 0:
        raise ValueError(f"samples must have shape (n,) with n >= 1, got {s.shape}")
    bins = _positive_int(bins, "bins")
    check_size(bins, "the histogram's bins")
    r = float(np.max(np.abs(s)))
    if r == 0.0:
        r = 1.0
    if not math.isfinite(2.0 * r):
        raise ValueError(f"samples up to {r:g} in size overflow float64 when binned; use smaller samples")
    edges = np.linspace(-r, r, bins + 1)  # (bins + 1,)
    counts, _ = np.histogram(s, bins=edges)  # (bins,)
    return edges, counts.astype(np.int64)  # (bins + 1,), (bins,)


def normal_density(x, variance) -> np.ndarray:
    """The N(0, variance) probability density at x: (...) -> (...)."""
    x = as_float_array(x, "x", 0)  # (...)
    var = as_float_array(variance, "variance", 0)  # () one number
    if var.size != 1:
        raise ValueError(f"variance must be one number, got shape {var.shape}")
    v = float(var.reshape(()))
    if v <= 0:
        raise ValueError(f"variance must be positive, got {v}")
    with np.errstate(over="ignore"):  # a huge |x| gives exp(-inf) = 0, as it should
        return np.exp(-0.5 * x * x / v) / math.sqrt(2.0 * math.pi * v)  # (...)


def flat_line(widths, base_scores=(2.0, 1.0, 0.0), scaled: bool = True) -> np.ndarray:
    """Softmax weights of M items whose raw scores are √d · base_scores, at each width d.

    widths (W,) >= 1, base_scores (M,) -> (W, M). With `scaled` the raw scores are divided by
    √d before the softmax, which gives back base_scores, so every row is softmax(base_scores)
    (for [2, 1, 0]: 0.665, 0.245, 0.090 at every width). Unscaled, the gaps grow like √d and
    the leading weight runs to 1.
    """
    d = as_float_array(widths, "widths", 1)  # (W,)
    if d.ndim != 1:
        raise ValueError(f"widths must have shape (W,), got {d.shape}")
    if np.any(d < 1):
        raise ValueError(f"every width must be at least 1, got {d[d < 1][:3].tolist()}")
    b = as_float_array(base_scores, "base_scores", 1)  # (M,)
    if b.ndim != 1 or b.shape[0] == 0:
        raise ValueError(f"base_scores must have shape (M,) with M >= 1, got {b.shape}")
    if not isinstance(scaled, (bool, np.bool_)):
        raise ValueError(f"scaled must be True or False, got {scaled!r}")
    root = np.sqrt(d)[:, None]  # (W, 1)
    with np.errstate(over="ignore", invalid="ignore"):
        raw = root * b[None, :]  # (W, M)
        s = raw / root if scaled else raw  # (W, M)
    if not np.all(np.isfinite(s)):
        raise ValueError(f"scores overflow float64 for widths up to {d.max()} and base scores {b.tolist()}")
    return softmax(s, axis=-1)  # (W, M)
