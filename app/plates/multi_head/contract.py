"""What the multi-head plate declares to the checks every plate passes and to the SCORM export
(docs/adding-a-plate.md says what a contract holds)."""

from __future__ import annotations

from app.plates.registry import Click

# The SCORM package (app/delivery/scorm.py): when this page counts as done, and the gesture
# tests/browser/test_scorm.py makes to complete it.
SCORM_DONE = "chosen d_model or the number of heads, or moved the token slider"
SCORM_GESTURE = Click("h", "button:not(.bk-active)")


def state_checks(s) -> dict[str, bool]:
    """What a state the page can show satisfies, by name (every value True)."""
    from app.plates.multi_head.state import D_CHOICES, H_CHOICES, N_MAX, N_MIN

    return {
        "d_model and h among the choices, h dividing d_model": s.d_model in D_CHOICES and s.h in H_CHOICES
        and s.d_model % s.h == 0,
        "n a whole number within its bounds": type(s.n) is int and N_MIN <= s.n <= N_MAX,
    }


def browser_case(f, p) -> None:
    """One thing a served page can send (`f`: tests/app/test_state_properties.py's Fuzz)."""
    from app.plates.multi_head.state import D_CHOICES

    r = f.rng.random()
    if r < 0.35:
        f.set(p.d_w, "value", str(f.pick([str(d) for d in D_CHOICES] + ["3", "nan", "", "1e9"])))
    elif r < 0.7:
        f.set(p.h_w, "active", f.active(4, False))
    else:  # a slider's release: value, then value_throttled (which Python acts on)
        v = f.widget_number(-2, 20, hostile=0.4)
        if f.set(p.n_w, "value", v):
            p.n_w.trigger("value_throttled", None, v)  # read-only in Python; a served page's release runs this
