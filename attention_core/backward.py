"""The backward pass of scaled dot-product attention: how the output's error reaches Q, K and V.

For O = softmax(scale · Q Kᵀ, mask) V and an upstream gradient dO = ∂L/∂O of the same shape as O,

    dV = Aᵀ dO                                  (each value is blamed by the weight it got)
    dA = dO Vᵀ
    dS = A ∘ (dA − rowsum(dA ∘ A)) · scale      (the softmax's Jacobian, applied row by row)
    dQ = dS K,   dK = dSᵀ Q.

A blocked pair has weight 0, so its dS is 0 and no gradient flows through it; a row with
nothing allowed (zero weights, zero output in `attention`) passes zero gradient everywhere.
The plate "a head that learns" trains its query and key maps with these gradients.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_float_array
from .attention import attention, default_scale


def _sum_to_shape(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum `grad` over the batch axes that broadcasting added or stretched, so it has `shape`.

    An input shared by every batch entry (fewer or size-1 batch axes) was used by each of them,
    so its gradient is the sum of their gradients, as autograd does.
    """
    extra = grad.ndim - len(shape)
    if extra:
        grad = grad.sum(axis=tuple(range(extra)))  # (*shape with some size-1 axes stretched)
    stretched = tuple(a for a, n in enumerate(shape) if n == 1 and grad.shape[a] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)  # (*shape)
    return grad


def _softmax_backward(A: np.ndarray, dA: np.ndarray) -> np.ndarray:
    """∂L/∂S from ∂L/∂A for A = softmax(S) along the last axis: A ∘ (dA − Σ_j dA_j A_j).

    Rows of zeros (nothing allowed) and zero weights (blocked pairs) give zero, because every
    term carries a factor A.
    """
    row_dot = np.sum(dA * A, axis=-1, keepdims=True)  # (..., N, 1)
    return A * (dA - row_dot)  # (..., N, M)


def attention_grads(Q, K, V, d_output, mask=None, scale=None):
    """The gradients of Σ d_output ∘ attention(Q, K, V, mask, scale)[0] with respect to Q, K and V.

    Takes exactly what `attention` takes (same shapes, broadcasting, mask and scale, validated by
    the same checks) plus `d_output`, the upstream gradient, shaped like the output
    (..., N, d_v). Returns (dQ, dK, dV) with the shapes of Q, K and V; where an input was
    broadcast over batch dimensions its gradient is summed back to its own shape.
    """
    Q = as_float_array(Q, "Q", 2)  # (..., N, d_k)
    K = as_float_array(K, "K", 2)  # (..., M, d_k)
    V = as_float_array(V, "V", 2)  # (..., M, d_v)
    out, A = attention(Q, K, V, mask=mask, scale=scale)  # (..., N, d_v), (..., N, M)
    dO = as_float_array(d_output, "d_output", 2)  # (..., N, d_v)
    if dO.shape != out.shape:
        raise ValueError(f"d_output must have the output's shape {out.shape} (..., N, d_v) for Q {Q.shape}, "
                         f"K {K.shape}, V {V.shape}; got {dO.shape}")
    # `attention` has accepted `scale`, so this conversion cannot fail.
    s = default_scale(Q.shape[-1]) if scale is None else float(scale)
    return _grads_from_weights(A, Q, K, V, dO, s)


def _grads_from_weights(A, Q, K, V, dO, s: float):
    """attention_grads' (dQ, dK, dV) from the weights A that `attention` gave for checked Q, K, V
    and a float scale `s`, with dO shaped like the output: a caller that has just run the
    forward pass (training) need not run it again."""
    with np.errstate(over="ignore", invalid="ignore"):
        dV = np.swapaxes(A, -1, -2) @ dO  # (..., M, d_v)
        dA = dO @ np.swapaxes(V, -1, -2)  # (..., N, M)
        dS = _softmax_backward(A, dA) * s  # (..., N, M)
        dQ = dS @ K  # (..., N, d_k)
        dK = np.swapaxes(dS, -1, -2) @ Q  # (..., M, d_k)
        grads = (_sum_to_shape(dQ, Q.shape), _sum_to_shape(dK, K.shape), _sum_to_shape(dV, V.shape))
    for g, name in zip(grads, ("dQ", "dK", "dV")):
        if not np.all(np.isfinite(g)):
            raise ValueError(f"{name} overflows float64 (shape {g.shape}) for d_output of shape {dO.shape}; "
                             "use smaller entries")
    return grads
