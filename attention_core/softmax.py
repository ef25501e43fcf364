"""A numerically stable softmax with an optional mask."""

from __future__ import annotations

import numpy as np

from ._validate import as_mask


def softmax(x, axis: int = -1, mask=None) -> np.ndarray:
    """Softmax of `x` along `axis`.

    Stable: each slice has its maximum subtracted before exponentiating (softmax is shift
    invariant, so this changes nothing but the overflow). `mask` is boolean, True where an entry
    may take part; masked entries get exactly 0, and a slice where nothing may take part gets
    all zeros rather than 0/0 = NaN. ±inf scores are allowed: -inf means "never", +inf wins.
    """
    if np.iscomplexobj(x):
        raise ValueError(f"softmax input must be real, got complex entries (shape {np.shape(x)})")
    try:
        x = np.asarray(x, dtype=np.float64)  # (...)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"softmax input must be numeric, got {type(x).__name__}: {exc}") from None
    if x.ndim and x.shape[axis] == 0:
        raise ValueError(f"softmax needs at least one entry along axis {axis}, got shape {x.shape}")
    if np.any(np.isnan(x)):
        raise ValueError(f"softmax input (shape {x.shape}) contains NaN")
    if x.ndim == 0:
        raise ValueError("softmax needs at least one dimension, got a scalar")
    allowed = np.ones(x.shape, dtype=bool)  # (...)
    if mask is not None:
        m = as_mask(mask)
        try:
            allowed = np.broadcast_to(m, x.shape)  # (...)
        except ValueError:
            raise ValueError(f"mask of shape {m.shape} does not broadcast to the scores' shape {x.shape}") from None
    allowed = allowed & (x != -np.inf)  # (...) -inf scores take no part either
    any_allowed = allowed.any(axis=axis, keepdims=True)  # (..., 1, ...)
    top = np.max(np.where(allowed, x, -np.inf), axis=axis, keepdims=True)  # (..., 1, ...)
    top = np.where(any_allowed, top, 0.0)  # (..., 1, ...) empty slices: avoid inf - inf
    pos_inf = allowed & (x == np.inf)  # (...)
    has_pos_inf = pos_inf.any(axis=axis, keepdims=True)  # (..., 1, ...)
    with np.errstate(invalid="ignore", over="ignore"):
        shifted = np.where(allowed, x - top, -np.inf)  # (...) every allowed entry <= 0
        e = np.where(allowed, np.exp(shifted), 0.0)  # (...)
        # +inf entries share the whole mass equally; finite entries get none.
        e = np.where(has_pos_inf, pos_inf.astype(np.float64), e)  # (...)
    total = e.sum(axis=axis, keepdims=True)  # (..., 1, ...)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)  # (...)
