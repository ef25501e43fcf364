"""What the masking plate declares to the checks every plate passes and to the SCORM export
(docs/adding-a-plate.md says what a contract holds)."""

from __future__ import annotations

import math

import numpy as np

from app.plates.registry import Click

# The SCORM package (app/delivery/scorm.py): when this page counts as done, and the gesture
# tests/browser/test_scorm.py makes to complete it.
SCORM_DONE = ("tapped a mask cell, chosen a mask kind, moved the tokens, padding or window slider, toggled the "
              "contrast, or pressed Reset")
SCORM_GESTURE = Click("contrast", "button:not(.bk-active)")

# (source, column) whose -inf is meant: a blocked score, shown as −∞.
INFINITE_BY_DESIGN = {("scores", "value")}


def state_checks(s) -> dict[str, bool]:
    """What a state the page can show satisfies, by name (every value True)."""
    from app.plates.masking.state import KINDS, N_MAX, N_MIN

    m = s.mask()  # (n, n)
    return {
        "n a whole number within its bounds": type(s.n) is int and N_MIN <= s.n <= N_MAX,
        "kind one of the kinds": s.kind in KINDS,
        "padding and window within n": 0 <= s.p <= s.n and 1 <= s.w <= s.n,
        "a boolean n×n mask": m.dtype == bool and m.shape == (s.n, s.n),
        "clicked cells n×n": s.cells is None or np.asarray(s.cells).shape == (s.n, s.n),
    }


def url_text(f, name: str) -> str | None:
    """A link's text for the field `name` (None: the shared checks' own, by the field's type)."""
    if name == "cells":
        n = int(f.rng.integers(1, 10))
        bits = f.rng.random((n, n)) < 0.5  # (n, n)
        text = ".".join("".join("1" if b else "0" for b in row) for row in bits)
        return text if f.rng.random() < 0.8 else text.replace("0", f.pick(["2", "x", "."]), 1)
    return None


def browser_case(f, p) -> None:
    """One thing a served page can send (`f`: tests/app/test_state_properties.py's Fuzz)."""
    r = f.rng.random()
    if r < 0.2:
        f.set(p.n_w, "value", f.widget_number(-2, 12))
    elif r < 0.35:
        f.set(p.kind_w, "active", f.active(5, False))
    elif r < 0.5:
        f.set(p.p_w if f.rng.random() < 0.5 else p.w_w, "value", f.widget_number(-2, 12, hostile=0.4))
    elif r < 0.6:
        f.set(p.causal_w, "active", f.active(1, True))
        f.set(p.contrast_w, "active", f.active(2, False))
    elif r < 0.85:  # a tapped cell: the browser sends the mask source back, then the plot's tags
        data = {k: list(v) for k, v in p.mask_src.data.items()}
        if data.get("allowed"):
            j = int(f.rng.integers(0, len(data["allowed"])))
            data["allowed"][j] = [True, False, None, 1, "1", math.nan][int(f.rng.integers(6))]
            if f.rng.random() < 0.1:
                data["allowed"] = data["allowed"][:-1]
        f.set(p.kind_w, "active", 4)
        f.set(p.mask_src, "data", data)
    else:
        try:
            p.state.flip(int(f.rng.integers(-2, 12)), int(f.rng.integers(-2, 12)))
        except ValueError:
            pass  # a cell outside the mask is refused by name
