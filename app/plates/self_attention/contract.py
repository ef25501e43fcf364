"""What the self-attention plate declares to the checks every plate passes and to the SCORM
export (docs/adding-a-plate.md says what a contract holds)."""

from __future__ import annotations

from app.plates.registry import Click

# The SCORM package (app/delivery/scorm.py): when this page counts as done, and the gesture
# tests/browser/test_scorm.py makes to complete it.
SCORM_DONE = ("pressed Shuffle or Original order, changed the number of tokens or the shuffle, or toggled "
              "positions or cross-attention")
SCORM_GESTURE = Click("shuffle_button", "button")


def state_checks(s) -> dict[str, bool]:
    """What a state the page can show satisfies, by name (every value True)."""
    from app.plates.self_attention.state import MAX_SHUFFLE, N_MAX, N_MIN

    return {
        "n a whole number within its bounds": type(s.n) is int and N_MIN <= s.n <= N_MAX,
        "shuffle a whole number within its bounds": type(s.shuffle) is int and 0 <= s.shuffle <= MAX_SHUFFLE,
        "positions and cross bools": isinstance(s.positions, bool) and isinstance(s.cross, bool),
        "the permutation of n tokens": sorted(s.perm) == list(range(s.n)),
    }


def browser_case(f, p) -> None:
    """One thing a served page can send (`f`: tests/app/test_state_properties.py's Fuzz)."""
    r = f.rng.random()
    if r < 0.35:
        f.set(p.n_w, "value", f.widget_number(-2, 12))
    elif r < 0.7:
        f.set(p.shuffle_w, "value", f.number() if f.rng.random() < 0.4 else int(f.rng.integers(-3, 30)))
    else:
        f.set(p.positions_w if f.rng.random() < 0.5 else p.cross_w, "active", f.active(1, True))
