"""How the scaling plate writes its numbers; scaling.js writes them the same way (fix, sci, short,
weight_text, trim), and tests/app/plates/test_scaling_plate.py holds the two to each other."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from app.shared.formatting import fix as _fix


def fix(x: float, digits: int) -> str:
    """app.shared.formatting.fix (JavaScript's toFixed), always in plain decimals: with 7 or more
    digits str(Decimal) would write '1E-7' where toFixed writes '0.0000001'."""
    s = _fix(x, digits)
    return format(Decimal(s), "f") if "E" in s or "e" in s else s


def sci(x: float) -> str:
    """Scientific with one decimal and a bare exponent, as JavaScript's toExponential(1)."""
    d = Decimal(x)  # the exact binary value; ties round away from zero, as toExponential does
    if d == 0:
        return "0.0e+0"
    exponent = d.adjusted()
    mantissa = d.scaleb(-exponent).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    if abs(mantissa) >= 10:  # 9.96 rounds up to 10.0
        exponent += 1
        mantissa = d.scaleb(-exponent).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{mantissa}e{exponent:+d}"


def short(x: float) -> str:
    """Three decimals, or scientific below 0.001 in size, or '0'."""
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
    s = fix(x, 2)
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s
