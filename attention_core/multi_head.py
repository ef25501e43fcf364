"""Multi-head attention: split the width into h heads, attend in each, join them, mix with W_O.

With model width d_model and h heads, every head works at width d_k = d_v = d_model / h: its
query, key and value maps are column slices of three full d_model × d_model maps, so the h
heads hold 3·d_model² parameters between them, exactly what one full-width head holds. Each
head divides its scores by √d_k, the square root of its own width (√64 = 8 for the paper's
d_model = 512 and h = 8), not by √d_model. The h outputs (each n × d_v) are joined side by
side into an n × d_model matrix and multiplied by W_O (d_model² more parameters).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._validate import as_float_array, check_size
from .attention import attention, scores


def _count(value, name: str) -> int:
    """A positive whole number (bool refused); ValueError naming `name` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def head_width(width: int, h: int, name: str = "d_model") -> int:
    """`width` / `h`, the width of one head; ValueError when h does not divide the width."""
    width = _count(width, name)
    h = _count(h, "h")
    if width % h:
        raise ValueError(f"{h} heads do not divide {name} = {width}: each head would be {width / h:g} wide; "
                         f"pick h among the divisors of {width}")
    return width // h


def head_divisor(d_model: int, h: int) -> float:
    """The number each head divides its scores by: √(d_model / h) (√64 = 8 at 512 and 8 heads)."""
    return math.sqrt(head_width(d_model, h))


def split_heads(X, h: int) -> np.ndarray:
    """Cut the last axis into h equal slices, one per head: X (..., n, d) -> (..., h, n, d/h).

    Head i gets columns i·d/h .. (i+1)·d/h - 1. Applied to a d_model × d_model weight map it
    gives each head's column slice of that map, shape (h, d_model, d/h).
    """
    X = as_float_array(X, "X", 2)  # (..., n, d)
    d_h = head_width(X.shape[-1], h, "the last axis of X")
    h = X.shape[-1] // d_h
    parts = X.reshape(*X.shape[:-1], h, d_h)  # (..., n, h, d/h)
    return np.swapaxes(parts, -2, -3).copy()  # (..., h, n, d/h)


def merge_heads(H) -> np.ndarray:
    """Join the heads side by side (the concatenation): H (..., h, n, d_h) -> (..., n, h·d_h)."""
    H = as_float_array(H, "H", 3)  # (..., h, n, d_h)
    moved = np.swapaxes(H, -2, -3)  # (..., n, h, d_h)
    return moved.reshape(*moved.shape[:-2], H.shape[-3] * H.shape[-1]).copy()  # (..., n, h·d_h)


def _maps(X, Wq, Wk, Wv, Wo, h):
    """Validate the inputs of multi_head_attention; return them as float arrays and h as an int."""
    X = as_float_array(X, "X", 2)  # (n, d_model)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (n, d_model), got {X.shape}")
    h = _count(h, "h")
    n, d_model = X.shape
    if n == 0:
        raise ValueError(f"X needs at least one token (row), got shape {X.shape}")
    out = [X]
    for W, name in ((Wq, "Wq"), (Wk, "Wk"), (Wv, "Wv")):
        W = as_float_array(W, name, 2)  # (d_model, h·d_head)
        if W.ndim != 2 or W.shape[0] != d_model:
            raise ValueError(f"{name} must have shape (d_model, h·d_head) = ({d_model}, ...) to match X {X.shape}, "
                             f"got {W.shape}")
        head_width(W.shape[1], h, f"the columns of {name}")
        out.append(W)
    if out[1].shape != out[2].shape:
        raise ValueError(f"Wq and Wk must have the same shape (queries and keys share d_k), got {out[1].shape} "
                         f"and {out[2].shape}")
    Wo = as_float_array(Wo, "Wo", 2)  # (h·d_v, d_out)
    if Wo.ndim != 2 or Wo.shape[0] != out[3].shape[1]:
        raise ValueError(f"Wo must have one row per concatenated column, shape ({out[3].shape[1]}, d_out), "
                         f"got {Wo.shape}")
    out.append(Wo)
    return (*out, h)


def _project(X: np.ndarray, W: np.ndarray, name: str) -> np.ndarray:
    """X @ W with a ValueError (not inf or NaN) when the product overflows float64."""
    with np.errstate(over="ignore", invalid="ignore"):
        P = X @ W  # (n, W.shape[1])
    if not np.all(np.isfinite(P)):
        raise ValueError(f"X @ {name} overflows float64 for X {X.shape} and {name} {W.shape}; use smaller entries")
    return P


def head_scores(X, Wq, Wk, h: int) -> np.ndarray:
    """Each head's raw dot products q·k before the divisor: X (n, d), Wq, Wk (d, h·d_k) -> (h, n, n)."""
    X = as_float_array(X, "X", 2)  # (n, d_model)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (n, d_model), got {X.shape}")
    Wq = as_float_array(Wq, "Wq", 2)  # (d_model, h·d_k)
    Wk = as_float_array(Wk, "Wk", 2)  # (d_model, h·d_k)
    if Wq.ndim != 2 or Wq.shape != Wk.shape or Wq.shape[0] != X.shape[1]:
        raise ValueError(f"Wq and Wk must both have shape ({X.shape[1]}, h·d_k) to match X {X.shape}, "
                         f"got {Wq.shape} and {Wk.shape}")
    Qh = split_heads(_project(X, Wq, "Wq"), h)  # (h, n, d_k)
    Kh = split_heads(_project(X, Wk, "Wk"), h)  # (h, n, d_k)
    return scores(Qh, Kh)  # (h, n, n)


def multi_head_attention(X, Wq, Wk, Wv, Wo, h: int):
    """Multi-head self-attention of the tokens X (n, d_model).

    Wq, Wk (d_model, h·d_k) and Wv (d_model, h·d_v) are the full maps; head i uses their
    column slice i (split_heads). Each head runs scaled dot-product attention with its own
    divisor √d_k; the head outputs are joined side by side (merge_heads) and multiplied by
    Wo (h·d_v, d_out). Returns (output (n, d_out), weights (h, n, n), concat (n, h·d_v)).
    With one head (h = 1) this is single-head attention of X@Wq, X@Wk, X@Wv, times Wo.
    """
    X, Wq, Wk, Wv, Wo, h = _maps(X, Wq, Wk, Wv, Wo, h)
    Qh = split_heads(_project(X, Wq, "Wq"), h)  # (h, n, d_k)
    Kh = split_heads(_project(X, Wk, "Wk"), h)  # (h, n, d_k)
    Vh = split_heads(_project(X, Wv, "Wv"), h)  # (h, n, d_v)
    heads, weights = attention(Qh, Kh, Vh)  # (h, n, d_v), (h, n, n); scale 1/√d_k per head
    concat = merge_heads(heads)  # (n, h·d_v)
    with np.errstate(over="ignore", invalid="ignore"):
        output = concat @ Wo  # (n, d_out)
    if not np.all(np.isfinite(output)):
        raise ValueError(f"the output overflows float64 for Wo of shape {Wo.shape}; use smaller entries")
    return output, weights, concat


def param_counts(d_model: int, h: int, d_v: int | None = None) -> dict:
    """How many numbers the maps hold, per head and over all h heads, plus W_O.

    d_k = d_model / h (h must divide d_model); d_v defaults to d_k. The query and key maps of
    one head are d_model × d_k, its value map d_model × d_v; the h heads together hold
    d_model·h·(2·d_k + d_v), which is 3·d_model² when d_v = d_k and equals what one head of full
    width holds. W_O maps the h·d_v joined columns back to d_model: h·d_v·d_model more.
    At (512, 8): 32,768 per map per head, 786,432 = 3·512² for the heads, 262,144 for W_O,
    1,048,576 in all, and each head's divisor is √64 = 8.
    """
    d_model = _count(d_model, "d_model")
    d_k = head_width(d_model, h)
    h = _count(h, "h")
    d_v = d_k if d_v is None else _count(d_v, "d_v")
    query = d_model * d_k
    key = d_model * d_k
    value = d_model * d_v
    per_head = query + key + value
    qkv_total = h * per_head
    w_o = h * d_v * d_model
    return {
        "d_model": d_model,
        "h": h,
        "d_k": d_k,
        "d_v": d_v,
        "query_per_head": query,
        "key_per_head": key,
        "value_per_head": value,
        "per_head": per_head,
        "query_total": h * query,
        "key_total": h * key,
        "value_total": h * value,
        "qkv_total": qkv_total,
        "full_width_head": d_model * (2 * h * d_k + h * d_v),
        "w_o": w_o,
        "total": qkv_total + w_o,
        "divisor": math.sqrt(d_k),
    }


def multi_head_recipe(n: int, d_model: int, seed: int = 0):
    """The plate's seeded inputs: (X (n, d_model), Wq, Wk, Wv, Wo (d_model, d_model) each).

    rng = default_rng(seed); Wq, Wk, Wv, Wo = rng.normal(size=(4, d, d)) / √d;
    X = rng.normal(size=(n, d)). The maps are drawn first, so the first rows of X are the
    same for every n; dividing by √d keeps the queries and keys at unit spread.
    """
    n = _count(n, "n")
    d_model = _count(d_model, "d_model")
    check_size(4 * d_model * d_model + n * d_model, f"the recipe's maps and tokens (n = {n}, d_model = {d_model})")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    rng = np.random.default_rng(seed)  # (generator) seeded
    W = rng.normal(size=(4, d_model, d_model)) / math.sqrt(d_model)  # (4, d_model, d_model)
    X = rng.normal(size=(n, d_model))  # (n, d_model)
    return X, W[0].copy(), W[1].copy(), W[2].copy(), W[3].copy()
