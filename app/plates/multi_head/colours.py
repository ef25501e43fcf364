"""The multi-head plate's colour ramps: white to orange for the weights, sky blue through white to
purple for the signed maps (concat, W_O, the output)."""

from __future__ import annotations

import numpy as np

from app.shared.theme import PALETTE


def _ramp(c0: str, c1: str, steps: int) -> list[str]:
    """`steps` colours from c0 to c1 (hex), evenly in RGB."""
    a = np.array([int(c0[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)  # (3,)
    b = np.array([int(c1[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)  # (3,)
    out = []
    for t in np.linspace(0.0, 1.0, steps):
        r, g, bl = np.rint(a + (b - a) * t).astype(int)
        out.append(f"#{r:02x}{g:02x}{bl:02x}")
    return out


WEIGHT_PALETTE = _ramp("#ffffff", PALETTE["weights"], 128)  # white -> orange
SIGNED_PALETTE = _ramp("#56B4E9", "#ffffff", 64)[:-1] + _ramp("#ffffff", PALETTE["output"], 64)  # sky blue, white, purple
