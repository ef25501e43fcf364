"""The worked plate's own rules for writing numbers, on app/shared/formatting.py's fix and sci;
worked.js writes every number the same way (tests compare them)."""

from __future__ import annotations

import numpy as np

from app.shared.formatting import fix, sci

# The plate's numbers are typed by hand: read to 12 significant digits, a float's last-bit noise
# (where NumPy and the browser may differ) is gone, and a tie rounds as by hand.
SIGNIFICANT = 12


def fixed(x: float, digits: int) -> str:
    """`x` with `digits` decimals, read to 12 significant digits first: 17.5335 -> '17.534'."""
    return fix(x, digits, significant=SIGNIFICANT)


def short(x: float) -> str:
    """Three decimals at most, trailing zeros dropped: 2 -> '2', 1.4142 -> '1.414', 0.09 -> '0.09'."""
    return fix(x, 3, significant=SIGNIFICANT, trim=True)


def expo(x: float) -> str:
    """Three significant digits in exponent form, as JavaScript's toExponential(2): '3.77e+260'."""
    return sci(x, 2)


def exp_text(x: float) -> str:
    """An exponential: plain up to a million, exponent form beyond and for tiny positive numbers."""
    return expo(x) if x >= 1e6 or 0 < x < 0.0005 else short(x)


def entry(x: float) -> str:
    """A vector entry as typed back into a text box: six decimals at most, trailing zeros dropped."""
    return fix(x, 6, significant=SIGNIFICANT, trim=True)


def vec_text(v, f=short) -> str:
    """A vector in brackets: [0.059, 0.059, 0.895]; a one-number vector stays a plain number."""
    v = [float(x) for x in np.atleast_1d(v)]
    return f(v[0]) if len(v) == 1 else "[" + ", ".join(f(x) for x in v) + "]"
