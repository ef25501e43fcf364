"""The scaling plate's state: the width d_k (a power of two) and the "divide by √d_k" switch, the
numbers derived from them with attention_core, and the 10,000 seeded dot products behind the
histogram (computed once, for every allowed width)."""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import param

import attention_core as ac
from app.shared.state import NUMBER, PlateState

WIDTHS = [2**e for e in range(11)]  # d_k = 1 .. 1024
DEFAULT_D_K = 64
BASE = [2.0, 1.0, 0.0]  # the three items' scores once divided by √d
N_SAMPLES, SEED, BINS = 10_000, 0, 60


def nearest_width(x: float) -> int:
    """The allowed width nearest to x on a log scale (scaling.js's nearest_width)."""
    x = min(max(x, 1.0), float(WIDTHS[-1]))
    return 2 ** int(math.floor(math.log2(x) + 0.5))


class ScalingState(PlateState):
    """The width and the scaling switch; both round-trip through the URL."""

    d_k = param.Selector(default=DEFAULT_D_K, objects=WIDTHS,
                         doc="Width of the queries and keys, a power of two from 1 to 1024.")
    scaled = param.Boolean(False, doc="Divide the scores by √d_k before the softmax.")

    url_fields = ("d_k", "scaled")

    # --- URL -----------------------------------------------------------------------------
    def url_spec(self) -> dict:
        """d_k reads any number and snaps it to a power of two (parse_url_value): a field of the
        plate's own, which scaling.js parses (url_parse.d_k) with the same rules and notice."""
        spec = super().url_spec()
        spec["fields"]["d_k"] = {"type": "custom", "default": self.url_default("d_k")}
        return spec

    def parse_url_value(self, name: str, text: str):
        if name == "d_k":  # any number, snapped to the nearest power of two in 1..1024
            if not NUMBER.match(text):
                raise ValueError("not a number")
            x = float(text)
            if not math.isfinite(x):
                raise ValueError("not a finite number")
            return nearest_width(x)
        return super().parse_url_value(name, text)

    def _was_clamped(self, name, text, value) -> bool:
        if name == "d_k":
            try:
                return abs(float(text) - value) > 1e-9
            except ValueError:
                return False
        return super()._was_clamped(name, text, value)

    # --- derived numbers (attention_core) -----------------------------------------------
    @property
    def scores(self) -> np.ndarray:
        """The three items' scores as the softmax sees them: √d·[2, 1, 0], or [2, 1, 0] scaled."""
        root = math.sqrt(self.d_k)
        raw = root * np.array(BASE)  # (3,)
        return raw / root if self.scaled else raw  # (3,)

    def weights(self) -> np.ndarray:
        return ac.flat_line([self.d_k], BASE, scaled=self.scaled)[0]  # (3,)

    def jacobian(self) -> np.ndarray:
        return ac.softmax_jacobian(self.weights())  # (3, 3)

    def entropy(self) -> float:
        return float(ac.entropy(self.weights()))

    def histogram(self) -> tuple[np.ndarray, np.ndarray]:
        return histogram_tables()[(self.d_k, self.scaled)]

    def std(self) -> tuple[float, float]:
        """(raw, scaled) standard deviation of this width's 10,000 samples."""
        return sample_stds()[self.d_k]


# --- the samples behind the histogram ------------------------------------------------------
# NumPy's default_rng(0), drawn as seed 003 draws them; the browser cannot reproduce that
# generator, so Python bins them for every width and the page carries the counts.
@cache
def _samples(d_k: int) -> np.ndarray:
    return ac.dot_product_samples(d_k, N_SAMPLES, SEED)  # (n,)


@cache
def sample_stds() -> dict[int, tuple[float, float]]:
    """d_k -> (std of q·k, std of q·k / √d_k), the seed's (population) standard deviation."""
    out = {}
    for d in WIDTHS:
        s = _samples(d)
        out[d] = (float(s.std()), float((s / math.sqrt(d)).std()))
    return out


@cache
def histogram_tables() -> dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]]:
    """(d_k, scaled) -> (edges (61,), counts (60,)) of the 10,000 samples, raw or divided by √d_k."""
    out = {}
    for d in WIDTHS:
        s = _samples(d)
        out[(d, False)] = ac.score_histogram(s, BINS)
        out[(d, True)] = ac.score_histogram(s / math.sqrt(d), BINS)
    return out
