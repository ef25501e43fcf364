"""The scaling plate's own rules for writing its numbers, on app/shared/formatting.py's fix and sci;
scaling.js writes them the same way (short, weight_text, trim), and
tests/app/plates/test_scaling_plate.py holds the two to each other."""

from __future__ import annotations

from app.shared.formatting import fix, sci


def short(x: float) -> str:
    """Three decimals, or scientific below 0.0005 in size (where three decimals would say 0), or '0'."""
    if x == 0:
        return "0"
    if abs(x) < 0.0005:
        return sci(x)
    return fix(x, 3)


def weight_text(w: float) -> str:
    """A weight: 0.665; 0.99966 near 1; '1 − 1.3e-14' when five decimals would say 1.00000."""
    if w > 0.9995:
        return fix(w, 5) if 1.0 - w >= 0.000005 else "1 − " + sci(1.0 - w)
    return short(w)


def trim(x: float) -> str:
    """Two decimals without trailing zeros: 16, 2.83, 0."""
    return fix(x, 2, trim=True)
