"""The soft-lookup plate's state: the query's angle and length, the width d_k, the scale, the keys."""

from __future__ import annotations

import math

import numpy as np
import param

import attention_core as ac
from app.shared.state import NUMBER, PlateState

# The seed's plate prints four numbers but no coordinates: with the query at 40°, key 2 takes
# 55.1 % of the weight and the output is 16.84; lengthened to 4 the largest weight is 69.0 %,
# shortened to 0.1 it is 23.4 % (plain dot products, values 10 to 50). This layout was found by
# searching keys of one length on a 5° grid, one on each side of the query, for the layouts
# that print all four: of those with keys of length 2 and a query of length 1.5 it is the most
# evenly spread. tests/app/plates/test_lookup_layout.py runs that search again and pins the numbers.
KEY_ANGLES = (0.0, 70.0, 150.0, 225.0, 300.0)
KEY_LENGTH = 2.0
DEFAULT_KEYS = ac.cartesian(np.array(KEY_ANGLES), KEY_LENGTH)  # (5, 2)
VALUES = np.array([10.0, 20.0, 30.0, 40.0, 50.0])  # (5,)
KEY_NAMES = [f"k{j + 1}" for j in range(len(VALUES))]
DK_CHOICES = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
MIN_LENGTH, MAX_LENGTH, MAX_COORD = 0.1, 5.0, 5.0
PLOT_EXTENT = 5.6


def width_factor(d_k: int) -> float:
    """How much a dot product grows when two of d_k entries stand for the whole vector.

    The plate draws two coordinates. Imagine each vector d_k entries wide, the other entries
    behaving like these two: a sum of d_k products grows like √d_k, so the score at width d_k
    is q·k · √(d_k / 2). At d_k = 2 it is the plain dot product.
    """
    return math.sqrt(d_k / 2)


class LookupState(PlateState):
    """Everything that defines what the soft-lookup plate shows; it round-trips through the URL."""

    angle = param.Number(40.0, bounds=(0.0, 360.0), doc="Direction of the query, degrees counter-clockwise from +x.")
    length = param.Number(1.5, bounds=(MIN_LENGTH, MAX_LENGTH), doc="Length of the query; longer means a sharper lookup.")
    d_k = param.Selector(default=2, objects=DK_CHOICES, doc="Width of the imagined query and keys; raw scores grow like √d_k.")
    scaled = param.Boolean(False, doc="Divide the scores by √d_k before the softmax (scaled dot-product attention).")
    keys = param.Array(DEFAULT_KEYS.copy(), doc="The five keys' 2D coordinates, shape (5, 2), each within ±5.")

    url_fields = ("angle", "length", "d_k", "scaled", "keys")
    url_wrapped = ("angle",)

    def __init__(self, **params):
        super().__init__(**params)
        self.keys = clean_keys(self.keys)

    # --- derived numbers -----------------------------------------------------------------
    @property
    def query(self) -> np.ndarray:
        return ac.cartesian(self.angle % 360.0, self.length)  # (2,)

    @property
    def scale(self) -> float:
        return ac.default_scale(self.d_k) if self.scaled else 1.0

    def steps(self) -> ac.LookupSteps:
        """attention_core's record of this lookup (the numbers the plate shows)."""
        q = self.query * width_factor(self.d_k)  # (2,) the query as seen at width d_k
        return ac.lookup_steps(q, self.keys, VALUES, scale=self.scale)

    def set_query_xy(self, x: float, y: float) -> None:
        """Point the query at (x, y), clamping its length to the slider's range."""
        angle, length = ac.polar(np.array([x, y], dtype=float))
        self.param.update(angle=float(angle), length=float(np.clip(length, MIN_LENGTH, MAX_LENGTH)))

    def reset(self) -> None:
        super().reset()
        self.keys = DEFAULT_KEYS.copy()

    # --- URL -----------------------------------------------------------------------------
    def url_value(self, name: str) -> str:
        if name == "keys":
            return ";".join(f"{x:.6g},{y:.6g}" for x, y in self.keys)
        return super().url_value(name)

    def parse_url_value(self, name: str, text: str):
        if name == "keys":
            rows = text.split(";")
            if len(rows) != len(VALUES):
                raise ValueError(f"expected {len(VALUES)} points 'x,y' separated by ';'")
            pts = []
            for r in rows:
                xy = r.split(",")
                if len(xy) != 2:
                    raise ValueError("each key is 'x,y'")
                if not (NUMBER.match(xy[0]) and NUMBER.match(xy[1])):
                    raise ValueError("each key is 'x,y' with plain numbers")
                pts.append([float(xy[0]), float(xy[1])])
            arr = np.array(pts)  # (5, 2)
            if not np.all(np.isfinite(arr)):
                raise ValueError("not finite")
            return clean_keys(arr)
        return super().parse_url_value(name, text)

    def _was_clamped(self, name, text, value) -> bool:
        if name == "keys":
            raw = np.array([[float(v) for v in r.split(",")] for r in text.split(";")])  # (5, 2)
            return bool(np.any(np.abs(raw) > MAX_COORD))
        return super()._was_clamped(name, text, value)

    def clamp_notice(self, name: str, value) -> str:
        if name == "keys":
            return f"'keys' moved inside ±{MAX_COORD:g}, the nearest allowed positions"
        return super().clamp_notice(name, value)


def clean_keys(keys) -> np.ndarray:
    """Keys as a (5, 2) float array within ±MAX_COORD; raises ValueError naming the shape otherwise."""
    arr = np.asarray(keys, dtype=float)  # (5, 2)
    if arr.shape != (len(VALUES), 2):
        raise ValueError(f"the lookup plate needs keys of shape (5, 2), got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("keys must be finite")
    return np.clip(arr, -MAX_COORD, MAX_COORD)  # (5, 2)
