"""The masking plate's state: the number of tokens, the kind of mask and its settings, the contrast
view, and the custom cells a student taps; with seed 003's tokens for every n."""

from __future__ import annotations

import numpy as np
import param

import attention_core as ac
from app.shared.state import PlateState, first_texts

N_MIN, N_MAX, N_DEFAULT = 3, 8, 5
D_MODEL = 4
KINDS = ["none", "causal", "padding", "window", "custom"]


def recipe(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seed 003's self-attention recipe for n tokens: Q, K, V of shape (n, 4)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, D_MODEL))  # (n, 4)
    Wq, Wk, Wv = rng.normal(size=(3, D_MODEL, D_MODEL))  # 3 x (4, 4)
    return X @ Wq, X @ Wk, X @ Wv  # (n, 4) each


RECIPES = {n: recipe(n) for n in range(N_MIN, N_MAX + 1)}


def fit_cells(cells, n: int) -> np.ndarray:
    """A square 0/1 mask resized to (n, n): the overlap is kept, new cells follow the causal rule.

    masking.js's fit_cells does the same, so a custom mask survives a change of n identically.
    """
    out = ac.causal_mask(n)  # (n, n)
    c = np.asarray(cells, dtype=bool)  # (m, m)
    k = min(n, c.shape[0])
    out[:k, :k] = c[:k, :k]
    return out


def cells_text(cells) -> str:
    """'10000.11000...': one row of 0/1 digits per query, rows separated by '.'."""
    return ".".join("".join("1" if v else "0" for v in row) for row in np.asarray(cells, dtype=bool))


def parse_cells(text: str) -> np.ndarray:
    """A link's cells ('10.11'): up to N_MAX rows of as many 0/1 digits; ValueError otherwise."""
    rows = text.strip().split(".")
    if not (1 <= len(rows) <= N_MAX) or any(len(r) != len(rows) or set(r) - {"0", "1"} for r in rows):
        raise ValueError(f"expected up to {N_MAX} rows of as many 0/1 digits, separated by '.'")
    return np.array([[ch == "1" for ch in r] for r in rows], dtype=bool)  # (m, m)


class MaskingState(PlateState):
    """Everything that defines what the masking plate shows; it round-trips through the URL."""

    n = param.Integer(N_DEFAULT, bounds=(N_MIN, N_MAX), doc="Number of tokens (queries and keys).")
    kind = param.Selector(default="causal", objects=KINDS, doc="Which mask: none, causal (j ≤ i), padding, "
                          "a sliding window, or custom cells you tap.")
    p = param.Integer(2, bounds=(0, N_MAX), doc="Padding: how many of the last keys are blocked (at most n).")
    w = param.Integer(2, bounds=(1, N_MAX), doc="Sliding window width (at most n).")
    causal_window = param.Boolean(True, doc="Window looks back only (i − w < j ≤ i); off: |i − j| < w.")
    contrast = param.Boolean(False, doc="Show the weights zeroed after the softmax instead (the wrong order).")
    cells = param.Array(None, allow_None=True, doc="The custom mask, (n, n) booleans, True = may attend.")

    url_fields = ("n", "kind", "p", "w", "causal_window", "contrast", "cells")

    def __init__(self, **params):
        super().__init__(**params)
        self._fit()

    @param.depends("n", "p", "w", "cells", watch=True)
    def _fit(self) -> None:
        """Keep p ≤ n, w ≤ n and the custom cells at (n, n)."""
        updates = {}
        if self.p > self.n:
            updates["p"] = self.n
        if self.w > self.n:
            updates["w"] = self.n
        if self.cells is not None:
            c = np.asarray(self.cells)
            if c.dtype != bool or c.shape != (self.n, self.n):
                updates["cells"] = fit_cells(c, self.n)
        if updates:
            self.param.update(updates)

    # --- derived numbers -----------------------------------------------------------------
    def mask(self) -> np.ndarray:
        """The boolean mask shown, (n, n), True = may attend."""
        n = self.n
        if self.kind == "none":
            return np.ones((n, n), dtype=bool)
        if self.kind == "causal":
            return ac.causal_mask(n)
        if self.kind == "padding":
            return ac.padding_mask(n, n, min(self.p, n))
        if self.kind == "window":
            return ac.window_mask(n, min(self.w, n), causal=self.causal_window)
        return fit_cells(self.cells, n) if self.cells is not None else ac.causal_mask(n)

    def qkv(self):
        return RECIPES[self.n]

    def steps(self) -> ac.MaskingSteps:
        Q, K, V = self.qkv()
        return ac.masking_steps(Q, K, V, self.mask())

    def flip(self, i: int, j: int) -> None:
        """Flip cell (i, j) of the mask on screen; the plate becomes custom."""
        m = self.mask()
        if not (0 <= i < self.n and 0 <= j < self.n):
            raise ValueError(f"cell ({i}, {j}) is outside the {self.n} x {self.n} mask")
        m[i, j] = not m[i, j]
        self.param.update(kind="custom", cells=m)

    # --- URL -----------------------------------------------------------------------------
    def url_value(self, name: str) -> str:
        if name == "cells":
            return cells_text(self.mask()) if self.kind == "custom" else ""
        return super().url_value(name)

    def parse_url_value(self, name: str, text: str):
        if name == "cells":
            return parse_cells(text)
        return super().parse_url_value(name, text)

    def apply_url(self, args) -> list[str]:
        """As PlateState.apply_url, and a notice when p or w had to come down to n, and when the
        cells are not drawn as given (another kind of mask, another n). masking.js's url_apply
        words them the same."""
        notices = super().apply_url(args)
        first = first_texts(args)
        for name in ("p", "w"):
            text = first.get(name)
            if text is None or any(note.startswith(f"ignored '{name}") for note in notices):
                continue
            try:
                asked = float(text)
            except ValueError:
                continue
            if asked != getattr(self, name):
                notices = [note for note in notices if not note.startswith(f"'{name}' set to")]
                low = self.param[name].bounds[0]
                notices.append(f"'{name}' set to {getattr(self, name)}, the nearest allowed value "
                               f"({low}..n, n = {self.n})")
        text = first.get("cells")
        if text is not None and not any(note.startswith("ignored 'cells") for note in notices):
            m, n = parse_cells(text).shape[0], self.n
            if self.kind != "custom":
                notices.append(f"'cells' not shown: only kind=custom draws them (kind is {self.kind})")
            elif m < n:
                notices.append(f"'cells' fitted to n = {n}: the {m} × {m} given fill the top left, "
                               "the rest follow the causal rule")
            elif m > n:
                notices.append(f"'cells' cut to n = {n}: the top left {n} × {n} of the {m} × {m} given")
        return notices

    def url_spec(self) -> dict:
        """As PlateState.url_spec, with p and w as custom fields. Their notice names n, which a link
        may set after them, and replaces the plain 'set to' notice: masking.js parses the number
        (url_parse) and words the notice once every setting is known (url_apply), as apply_url
        does here. Their bounds stay in the spec for url_apply."""
        spec = super().url_spec()
        for name in ("p", "w"):
            spec["fields"][name] = {"type": "custom", "bounds": list(self.param[name].bounds),
                                    "default": self.url_default(name)}
        return spec

    def _default_url_value(self, name: str) -> str:
        if name == "cells":
            return ""  # a custom mask always goes in the link
        return super()._default_url_value(name)

    def _was_clamped(self, name, text, value) -> bool:
        if name == "cells":
            return False
        return super()._was_clamped(name, text, value)


