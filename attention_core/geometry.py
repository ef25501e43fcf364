"""Polar and cartesian coordinates for the 2D plates (angles in degrees, counter-clockwise from +x)."""

from __future__ import annotations

import numpy as np

from ._validate import as_float_array


def cartesian(angle_deg, length) -> np.ndarray:
    """Points from polar coordinates: angle (...), length (...) -> (..., 2)."""
    a = np.radians(as_float_array(angle_deg, "angle", 0))  # (...)
    r = as_float_array(length, "length", 0)  # (...)
    return np.stack(np.broadcast_arrays(r * np.cos(a), r * np.sin(a)), axis=-1)  # (..., 2)


def polar(xy) -> tuple[np.ndarray, np.ndarray]:
    """Angle in [0, 360) degrees and length of points (..., 2) -> ((...), (...))."""
    p = as_float_array(xy, "xy", 1)  # (..., 2)
    if p.shape[-1] != 2:
        raise ValueError(f"polar() needs 2D points with shape (..., 2), got {p.shape}")
    angle = np.degrees(np.arctan2(p[..., 1], p[..., 0])) % 360.0  # (...)
    angle = np.where(angle >= 360.0, 0.0, angle)  # (...) a tiny negative angle rounds up to 360.0
    length = np.hypot(p[..., 0], p[..., 1])  # (...)
    return angle, length
