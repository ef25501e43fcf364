"""The worked-example plate's arithmetic: the values' convex hull, the query-length sweep and the
distance of a guess from the output.

The output of attention is a convex combination of the values (weights ≥ 0 that add to 1), so it
never leaves their convex hull; `convex_hull` draws that region. `length_sweep` recomputes the
weights as the query is stretched along its own direction, which shows a longer query picking
more sharply. `prediction_error` says how far a student's guessed output lies from the real one.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_float_array, safe_norm
from .attention import default_scale, scores
from .softmax import softmax


def _cross(o, a, b) -> float:
    """z of (a - o) × (b - o): > 0 when o -> a -> b turns counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points) -> np.ndarray:
    """Vertices of the convex hull of 2D points (M, 2) -> (H, 2), by Andrew's monotone chain.

    The vertices run counter-clockwise from the point with the smallest x (then smallest y),
    without repeating the first one; points on an edge and duplicates are left out. One distinct
    point gives (1, 2); points on one line give the segment's two ends, (2, 2).
    """
    p = as_float_array(points, "points", 2)  # (M, 2)
    if p.ndim != 2 or p.shape[1] != 2:
        raise ValueError(f"convex_hull needs points of shape (M, 2), got {p.shape}")
    if p.shape[0] == 0:
        raise ValueError(f"convex_hull needs at least one point, got shape {p.shape}")
    order = np.lexsort((p[:, 1], p[:, 0]))  # (M,) by x, then y
    pts: list[tuple[float, float]] = []
    for i in order.tolist():
        xy = (float(p[i, 0]), float(p[i, 1]))
        if not pts or xy != pts[-1]:
            pts.append(xy)
    if len(pts) <= 2:
        return np.array(pts, dtype=np.float64)  # (H, 2)
    lower: list[tuple[float, float]] = []
    for xy in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], xy) <= 0:
            lower.pop()
        lower.append(xy)
    upper: list[tuple[float, float]] = []
    for xy in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], xy) <= 0:
            upper.pop()
        upper.append(xy)
    return np.array(lower[:-1] + upper[:-1], dtype=np.float64)  # (H, 2)


def length_sweep(q, K, lengths, scale=None) -> np.ndarray:
    """Weights over the keys as the query keeps its direction and takes each length in turn.

    q (d_k,), K (M, d_k), lengths (F,) ≥ 0 -> weights (F, M): row f is the softmax of
    scale · (lengths[f] / ‖q‖) · (q · k_j). Length 0 gives uniform weights 1/M; longer queries
    spread the scores and concentrate the weight. `scale=None` is 1/√d_k. q must not be zero
    (a zero query has no direction to stretch).
    """
    q = as_float_array(q, "q", 1)  # (d_k,)
    if q.ndim != 1:
        raise ValueError(f"q must be one vector of shape (d_k,), got {q.shape}")
    K = as_float_array(K, "K", 2)  # (M, d_k)
    if K.ndim != 2 or K.shape[1] != q.shape[0]:
        raise ValueError(f"K must have shape (M, d_k) with d_k = {q.shape[0]} like q, got {K.shape}")
    if K.shape[0] == 0:
        raise ValueError(f"length_sweep needs at least one key, got K of shape {K.shape}")
    L = as_float_array(lengths, "lengths", 1)  # (F,)
    if L.ndim != 1:
        raise ValueError(f"lengths must have shape (F,), got {L.shape}")
    if np.any(L < 0):
        raise ValueError(f"lengths must be ≥ 0, got {L[L < 0][:3].tolist()}")
    norm = float(safe_norm(q))  # () 1e300 entries must not overflow in q * q
    if norm == 0.0:
        raise ValueError(f"the query {q.tolist()} is zero: it has no direction to stretch")
    s = float(default_scale(q.shape[0]) if scale is None else scale)
    if not np.isfinite(s):
        raise ValueError(f"scale must be finite, got {s}")
    per_length = scores(q[None, :], K)[0] / norm * s  # (M,) scaled score per unit of query length
    with np.errstate(over="ignore", invalid="ignore"):
        x = L[:, None] * per_length[None, :]  # (F, M)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"scores overflow float64 for lengths up to {float(L.max())}; use shorter lengths")
    return softmax(x, axis=-1)  # (F, M)


def prediction_error(guess, output) -> float:
    """Euclidean distance between a guessed output and the real one: () or (d_v,) each -> ().

    For scalars it is |guess - output|.
    """
    g = as_float_array(guess, "guess", 0)  # () or (d_v,)
    o = as_float_array(output, "output", 0)  # () or (d_v,)
    if g.size != o.size or g.ndim > 1 or o.ndim > 1:
        raise ValueError(f"the guess has shape {g.shape} but the output has shape {o.shape}; they must match")
    d = g.reshape(-1) - o.reshape(-1)  # (d_v,)
    with np.errstate(over="ignore"):
        out = float(np.sqrt(np.sum(d * d)))
    if not np.isfinite(out):
        raise ValueError("the distance overflows float64; use smaller numbers")
    return out
