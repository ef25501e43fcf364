"""What the soft-lookup plate declares to the checks every plate passes and to the SCORM export
(docs/adding-a-plate.md says what a contract holds)."""

from __future__ import annotations

import numpy as np

from app.plates.registry import Drag

# The SCORM package (app/delivery/scorm.py): when this page counts as done, and the gesture
# tests/browser/test_scorm.py makes to complete it.
SCORM_DONE = ("dragged the query or a key (mouse, touch or arrow keys), or moved the angle, length or d_k "
              "slider, the scale box, or pressed Reset")
SCORM_GESTURE = Drag("vectors", "query", (-1.0, 2.5))


def state_checks(s) -> dict[str, bool]:
    """What a state the page can show satisfies, by name (every value True)."""
    from app.plates.lookup.state import DK_CHOICES, MAX_COORD, MAX_LENGTH, MIN_LENGTH

    k = np.asarray(s.keys)  # (5, 2)
    w = s.steps().weight  # (5,)
    return {
        "angle a float in [0, 360]": isinstance(s.angle, float) and 0.0 <= s.angle <= 360.0,
        "length a float within its bounds": isinstance(s.length, float) and MIN_LENGTH <= s.length <= MAX_LENGTH,
        "d_k one of the choices": s.d_k in DK_CHOICES,
        "scaled a bool": isinstance(s.scaled, bool),
        "five finite 2D keys within the plot": k.shape == (5, 2) and bool(np.all(np.isfinite(k)))
        and bool(np.all(np.abs(k) <= MAX_COORD)),
        "weights non-negative, summing to 1": abs(w.sum() - 1.0) < 1e-12 and bool(np.all(w >= 0)),
    }


def url_text(f, name: str) -> str | None:
    """A link's text for the field `name` (None: the shared checks' own, by the field's type)."""
    if name == "keys":
        return f.vector_text(int(f.pick([5, 5, 5, 4, 6])), int(f.pick([2, 2, 2, 3])))
    return None


def browser_case(f, p) -> None:
    """One thing a served page can send (`f`: tests/app/test_state_properties.py's Fuzz)."""
    r = f.rng.random()
    if r < 0.25:
        f.set(p.angle_w if f.rng.random() < 0.5 else p.length_w, "value", f.number())
    elif r < 0.35:
        f.set(p.dk_w, "value", str(f.pick(["2", "64", "3", "nan", "", "1e9", "<b>"])))
    elif r < 0.45:
        f.set(p.scaled_w, "active", f.active(1, True))
    elif r < 0.7:  # a dragged key: the browser sends the keys source back
        keys = {k: list(v) for k, v in p.keys_src.data.items()}
        j = int(f.rng.integers(0, 5))
        keys["x"][j], keys["y"][j] = f.number(), f.number()
        if f.rng.random() < 0.1:
            keys["x"] = keys["x"][:3]  # a short column
        f.set(p.keys_src, "data", keys)
    elif r < 0.85:  # the dragged query
        f.set(p.query_src, "data", {"x": [f.number()], "y": [f.number()]})
        f.set(p.plot, "tags", [str(f.rng.integers(1e9))])  # the end of a gesture
    else:
        try:
            p.state.set_query_xy(f.number(), f.number())
        except ValueError:
            pass  # the core refuses a non-finite point by name; the state is unchanged
