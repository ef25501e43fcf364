"""Boundary checks shared by the core's public functions.

User input (typed numbers, URL parameters, dragged coordinates) reaches the core through
these checks, so every failure is a ValueError that names the shapes or values at fault.
"""

from __future__ import annotations

import numpy as np


def as_float_array(x, name: str, min_ndim: int = 1) -> np.ndarray:
    """Return `x` as a finite float64 array with at least `min_ndim` dimensions."""
    try:
        raw = np.asarray(x)  # (...)
        if np.iscomplexobj(raw):
            raise ValueError(f"{name} must be real, got complex entries (shape {raw.shape})")
        arr = raw.astype(np.float64)  # (...)
    except (TypeError, ValueError) as exc:
        if "must be real" in str(exc):
            raise
        raise ValueError(f"{name} must be numeric, got {type(x).__name__}: {exc}") from None
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)].ravel()[:3]  # (<=3,)
        raise ValueError(f"{name} (shape {arr.shape}) has non-finite entries, e.g. {bad.tolist()}")
    return arr


def as_mask(mask, name: str = "mask") -> np.ndarray:
    """Return `mask` as a boolean array; only bool (or 0/1 integer) masks are accepted."""
    arr = np.asarray(mask)  # (...)
    if arr.dtype == np.bool_:
        return arr
    if np.issubdtype(arr.dtype, np.integer) and np.all((arr == 0) | (arr == 1)):
        return arr.astype(bool)
    raise ValueError(f"{name} must be boolean (True = may take part), got dtype {arr.dtype} and shape {arr.shape}")


MAX_ENTRIES = 50_000_000  # about 400 MB of float64: a size beyond it is a typo or an attack, not a lesson


def check_size(entries: int, what: str) -> None:
    """ValueError when an array built from user-given sizes would hold more than MAX_ENTRIES."""
    if entries > MAX_ENTRIES:
        raise ValueError(f"{what} would hold {entries} entries, more than the {MAX_ENTRIES} allowed")


def safe_norm(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Euclidean length along `axis` without overflowing in the squares (each slice divided by its
    largest entry first); ValueError if the length itself does not fit in float64."""
    top = np.max(np.abs(x), axis=axis, keepdims=True)  # (..., 1)
    unit = np.divide(x, top, out=np.zeros_like(x), where=top > 0)  # (..., d) entries within ±1
    with np.errstate(over="ignore"):
        out = np.squeeze(top, axis=axis) * np.sqrt(np.sum(unit * unit, axis=axis))  # (...)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"a vector's length overflows float64 (shape {x.shape}); use smaller entries")
    return out
