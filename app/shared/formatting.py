"""How numbers are written on the plates; app/runtime/ and app/plates/*/*.js writes them the same way."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def fix(x: float, digits: int) -> str:
    """`x` with `digits` decimals exactly as JavaScript's toFixed writes it, and never '-0.00'.

    toFixed rounds the exact binary value, and an exact tie away from zero (0.125 -> '0.13',
    -0.5 -> '-1'); Python's format rounds ties to even, so Decimal does the rounding here.
    """
    s = format(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP), "f")
    return s[1:] if s.startswith("-") and Decimal(s) == 0 else s


def pct(w: float) -> str:
    """A weight as a percentage with one decimal: 0.5508 -> '55.1%' (lookup.js's pct)."""
    return fix(100 * w, 1) + "%"
