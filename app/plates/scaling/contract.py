"""What the scaling plate declares to the checks every plate passes and to the SCORM export
(docs/adding-a-plate.md says what a contract holds)."""

from __future__ import annotations

from app.plates.registry import Click

# The SCORM package (app/delivery/scorm.py): when this page counts as done, and the gesture
# tests/browser/test_scorm.py makes to complete it.
SCORM_DONE = ("moved the width slider, ticked \"Divide scores by √d_k\", pressed Reset, or dragged or clicked on "
              "the flat-line or entropy chart")
SCORM_GESTURE = Click("scaled", "input")


def state_checks(s) -> dict[str, bool]:
    """What a state the page can show satisfies, by name (every value True)."""
    from app.plates.scaling.state import WIDTHS

    return {
        "d_k one of the widths": s.d_k in WIDTHS,
        "scaled a bool": isinstance(s.scaled, bool),
        "weights summing to 1": abs(s.weights().sum() - 1.0) < 1e-12,
    }


def browser_case(f, p) -> None:
    """One thing a served page can send (`f`: tests/app/test_state_properties.py's Fuzz)."""
    if f.rng.random() < 0.7:
        f.set(p.dk_w, "value", f.widget_number(-2, 13))
    else:
        f.set(p.scaled_w, "active", f.active(1, True))
