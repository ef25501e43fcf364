"""Scaled dot-product attention: scores, softmax weights and the weighted sum of values."""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._validate import as_float_array, as_mask
from .softmax import softmax


def scores(Q, K) -> np.ndarray:
    """Every query's dot product with every key: Q (..., N, d_k), K (..., M, d_k) -> (..., N, M)."""
    Q = as_float_array(Q, "Q", 2)  # (..., N, d_k)
    K = as_float_array(K, "K", 2)  # (..., M, d_k)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"queries and keys must share d_k: Q has shape {Q.shape}, K has shape {K.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        S = Q @ np.swapaxes(K, -1, -2)  # (..., N, M)
    if not np.all(np.isfinite(S)):
        raise ValueError(f"dot products overflow float64 for Q {Q.shape} and K {K.shape}; use smaller entries")
    return S


def default_scale(d_k: int) -> float:
    """The Transformer's divisor: scores are multiplied by 1/√d_k."""
    if isinstance(d_k, bool) or not isinstance(d_k, numbers.Real) or not math.isfinite(d_k) or d_k < 1:
        raise ValueError(f"d_k must be a finite number of at least 1, got {d_k!r}")
    return 1.0 / math.sqrt(d_k)


def attention(Q, K, V, mask=None, scale=None):
    """Scaled dot-product attention.

    Q (..., N, d_k), K (..., M, d_k), V (..., M, d_v); leading batch dimensions broadcast.
    `scale=None` multiplies the scores by 1/√d_k; a float multiplies them by that float
    (`scale=1.0` is plain dot-product attention). `mask` is boolean, broadcastable to
    (..., N, M), True where a query may attend to a key; it edits the scores before the
    softmax, so each row's surviving weights renormalise. A row with nothing allowed gets zero
    weights and a zero output. Returns (output (..., N, d_v), weights (..., N, M)).
    """
    Q = as_float_array(Q, "Q", 2)  # (..., N, d_k)
    K = as_float_array(K, "K", 2)  # (..., M, d_k)
    V = as_float_array(V, "V", 2)  # (..., M, d_v)
    if K.shape[-2] == 0:
        raise ValueError(f"attention needs at least one key: K has shape {K.shape} (M = 0)")
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"keys and values must have the same M: K has shape {K.shape}, V has shape {V.shape}")
    if Q.shape[-1] == 0:
        raise ValueError(f"d_k must be at least 1: Q has shape {Q.shape}")
    try:
        np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    except ValueError:
        raise ValueError(f"batch dimensions do not broadcast: Q {Q.shape}, K {K.shape}, V {V.shape}") from None
    if scale is None:
        scale = default_scale(Q.shape[-1])
    else:
        try:
            scale = float(scale)
        except (TypeError, ValueError):
            raise ValueError(f"scale must be a number or None, got {scale!r}") from None
        if not math.isfinite(scale):
            raise ValueError(f"scale must be finite, got {scale}")
    S = scores(Q, K)  # (..., N, M)
    with np.errstate(over="ignore", invalid="ignore"):
        S = S * scale  # (..., N, M)
    if not np.all(np.isfinite(S)):
        raise ValueError(f"scaled scores overflow float64 (scale {scale}); use smaller entries")
    if mask is not None:
        m = as_mask(mask)
        try:
            m = np.broadcast_to(m, S.shape)  # (..., N, M)
        except ValueError:
            raise ValueError(f"mask of shape {m.shape} does not broadcast to the scores' shape {S.shape} (..., N, M)") from None
    else:
        m = None
    A = softmax(S, axis=-1, mask=m)  # (..., N, M)
    with np.errstate(over="ignore", invalid="ignore"):
        out = A @ V  # (..., N, d_v)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"output overflows float64 for V of shape {V.shape}; use smaller values")
    return out, A
