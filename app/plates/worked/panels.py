"""The worked plate's 2D pictures: which part of the plane each panel shows, and a vector's place
in it (worked.js's panel_range, fits, choose_range and xy work the same)."""

from __future__ import annotations

import numpy as np

from app.plates.worked.presets import PRESETS


def panel_range(points, pad: float):
    """A square view (x0, x1, y0, y1) around the points and the origin, `pad` on every side."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)  # (n, 2)
    lo = np.minimum(p.min(axis=0), 0.0) - pad  # (2,)
    hi = np.maximum(p.max(axis=0), 0.0) + pad  # (2,)
    span = float(max(hi - lo))
    cx, cy = (lo + hi) / 2
    return (float(cx - span / 2), float(cx + span / 2), float(cy - span / 2), float(cy + span / 2))


def fits(points, r, margin: float = 0.5) -> bool:
    p = np.asarray(points, dtype=float).reshape(-1, 2)  # (n, 2)
    return bool(np.all((p[:, 0] >= r[0] + margin) & (p[:, 0] <= r[1] - margin)
                       & (p[:, 1] >= r[2] + margin) & (p[:, 1] <= r[3] - margin)))


def choose_range(preset_points, points, pad: float):
    """The preset's own view while everything fits inside it (so drags never rescale), else a new fit."""
    r = panel_range(preset_points, pad)
    return r if fits(points, r) else panel_range(points, pad)


def xy(v) -> tuple[float, float]:
    """A vector's place in a panel: its first two numbers (a one-number vector sits on the x axis)."""
    v = np.atleast_1d(np.asarray(v, dtype=float))
    return float(v[0]), float(v[1]) if v.size > 1 else 0.0


def ranges(state) -> dict[str, tuple[float, float, float, float]]:
    """The view (x0, x1, y0, y1) of each panel that is shown: "keys_plot" when the keys have two
    numbers, "values_plot" when the values have; the preset's own view while everything fits in it."""
    q, K, V = state.arrays
    p = PRESETS[state.preset]
    pq, pK, pV = np.array(p["query"][0]), np.array(p["keys"]), np.array(p["values"])
    out = {}
    if q.size == 2:
        pts = np.vstack([K, q[None, :]])  # (M + 1, 2)
        ppts = np.vstack([pK, pq[None, :]]) if pK.shape[1] == 2 else pts  # (M' + 1, 2)
        out["keys_plot"] = choose_range(ppts, pts, 1.0)
    if V.shape[1] == 2:
        out["values_plot"] = choose_range(pV if pV.shape[1] == 2 else V, V, 1.5)
    return out
