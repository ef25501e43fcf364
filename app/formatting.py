"""How numbers are written on the plates; app/static/*.js writes them the same way."""

from __future__ import annotations


def fix(x: float, digits: int) -> str:
    """`x` with `digits` decimals, as JavaScript's toFixed, and never '-0.00'."""
    s = f"{x:.{digits}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def pct(w: float) -> str:
    """A weight as a percentage with one decimal: 0.5508 -> '55.1%'."""
    return f"{100 * w:.1f}%"
