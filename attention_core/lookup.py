"""One query's lookup, recorded step by step: score, scaled score, exponential, weight, weight × value."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array
from .attention import attention, default_scale, scores


@dataclass(frozen=True)
class LookupSteps:
    """Every intermediate number of one query's turn over M keys."""

    score: np.ndarray  # (M,) q · k_j
    scaled: np.ndarray  # (M,) scale · q · k_j
    exp: np.ndarray  # (M,) exp(scaled - max): shifted for stability, so exp_total is too
    exp_total: float  # Σ_j exp_j (of the shifted exponentials)
    weight: np.ndarray  # (M,) softmax of the scaled scores
    weighted: np.ndarray  # (M, d_v) weight_j · v_j
    output: np.ndarray  # (d_v,) Σ_j weight_j · v_j
    scale: float

    @property
    def winner(self) -> int:
        """Index of the key with the largest weight (the hard lookup's choice)."""
        return int(np.argmax(self.weight))


def lookup_steps(q, K, V, scale=None, shift: bool = True) -> LookupSteps:
    """Record one query's attention over keys K (M, d_k) and values V (M,) or (M, d_v).

    `scale=None` is 1/√d_k, a float multiplies the scores. With `shift=False` the exponentials
    are the textbook exp(scaled score) (what the seeds print); with `shift=True` the row max is
    subtracted first, as any real implementation does. The weights are the same either way.
    """
    q = as_float_array(q, "q", 1)  # (d_k,)
    if q.ndim != 1:
        raise ValueError(f"q must be one vector of shape (d_k,), got {q.shape}")
    K = as_float_array(K, "K", 2)  # (M, d_k)
    if K.ndim != 2:
        raise ValueError(f"K must have shape (M, d_k), got {K.shape}")
    V = as_float_array(V, "V", 1)  # (M,) or (M, d_v)
    vector_values = V.ndim == 2
    V2 = V if vector_values else V[:, None]  # (M, d_v)
    if V2.ndim != 2:
        raise ValueError(f"V must have shape (M,) or (M, d_v), got {V.shape}")
    s = float(default_scale(q.shape[0]) if scale is None else scale)
    raw = scores(q[None, :], K)[0]  # (M,)
    out, w = attention(q[None, :], K, V2, scale=s)  # (1, d_v), (1, M)
    scaled = raw * s  # (M,)
    with np.errstate(over="ignore"):
        e = np.exp(scaled - scaled.max()) if shift else np.exp(scaled)  # (M,)
    weighted = w[0][:, None] * V2  # (M, d_v)
    output = out[0]  # (d_v,)
    if not vector_values:
        weighted, output = weighted[:, 0], output[0]  # (M,), ()
    return LookupSteps(raw, scaled, e, float(e.sum()), w[0], weighted, output, s)
