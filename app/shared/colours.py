"""Colour blends and ramps for the plates' heat maps, once for all of them.

Every heat map colours a value by moving white (or one colour) toward a role colour of
app/shared/theme.py. The plates differed only in how far toward the colour their ends go and in
how a channel half way between two integers rounds; those are parameters here, so each plate
keeps exactly the colours it showed:
- the palettes handed to Bokeh's colour mappers round a half to even (Python's round, NumPy's rint);
- the masking plate colours each cell itself, in Python and in masking.js alike, and masking.js
  rounds with Math.floor(v + 0.5): `half_up=True` rounds the same way, so the two never differ.
"""

from __future__ import annotations

import math

import numpy as np

WHITE = "#ffffff"


def rgb(colour: str) -> tuple[int, int, int]:
    """'#d55e00' -> (213, 94, 0)."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def mix(start: str, end: str, t: float, *, half_up: bool = False) -> str:
    """`start` moved toward `end` by t (0: start, 1: end), channel by channel: start + (end - start) t.

    A channel half way between two integers rounds to even, or up with `half_up` (masking.js's rule).
    """
    out = "#"
    for k in (1, 3, 5):  # a plain loop: the masking plate shades every cell at every change
        a = int(start[k:k + 2], 16)
        v = a + (int(end[k:k + 2], 16) - a) * t
        out += f"{math.floor(v + 0.5) if half_up else round(v):02x}"
    return out


def ramp(start: str, end: str, steps: int) -> list[str]:
    """`steps` colours from `start` to `end`, both included, evenly in RGB."""
    return [mix(start, end, float(t)) for t in np.linspace(0.0, 1.0, steps)]  # (steps,) of t


def sequential(colour: str, steps: int = 128, strength: float = 0.85) -> list[str]:
    """White to `strength` of `colour` in `steps` colours: the far end stops short of the colour
    itself, so black numbers written on the cells stay readable."""
    return [mix(WHITE, colour, strength * k / (steps - 1)) for k in range(steps)]


def diverging(neg: str, pos: str, steps: int = 128, strength: float = 0.8, *,
              neg_strength: float | None = None, middle: bool = False) -> list[str]:
    """`neg` … white … `pos`: `steps` colours a side, from `strength` of the colour at each end
    (`neg_strength` on the negative side, if it differs) down to 1/steps of it next to the middle;
    with `middle`, white itself sits between them, so a palette of odd length gives 0 its own colour.

    The ends stop short of the colours so that black numbers written on the cells stay readable.
    """
    ns = strength if neg_strength is None else neg_strength
    lows = [mix(WHITE, neg, ns * (steps - k) / steps) for k in range(steps)]
    highs = [mix(WHITE, pos, strength * k / steps) for k in range(1, steps + 1)]
    return lows + ([WHITE] if middle else []) + highs
