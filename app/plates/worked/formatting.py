"""How the worked plate writes numbers: worked.js writes every number and message the same way
(tests compare them)."""

from __future__ import annotations

import html
from decimal import ROUND_HALF_UP, Decimal, localcontext

import numpy as np


def fixed(x: float, digits: int) -> str:
    """`x` with `digits` decimals, never '-0'; worked.js's fixed writes the same string.

    `x` is first read to 12 significant digits, which removes the last-bit noise of the float
    arithmetic (NumPy and the browser may differ in that bit), then rounded half away from zero
    as by hand: 17.5335 shows as 17.534 whichever side of the tie its float landed on.
    """
    with localcontext() as ctx:
        ctx.prec = 800
        d = Decimal(f"{float(x):.11e}").quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
        s = format(d, "f")
    return s[1:] if s.startswith("-") and d == 0 else s


def trim(s: str) -> str:
    """'1.500' -> '1.5', '2.000' -> '2'."""
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def short(x: float) -> str:
    """Three decimals at most, trailing zeros dropped: 2 -> '2', 1.4142 -> '1.414', 0.09 -> '0.09'."""
    return trim(fixed(x, 3))


def expo(x: float) -> str:
    """Three significant digits in exponent form, as JavaScript's toExponential(2): '3.77e+260'."""
    d = Decimal(float(x))
    if d == 0:
        return "0.00e+0"
    with localcontext() as ctx:
        ctx.prec = 800
        e = d.adjusted()
        m = d.scaleb(-e).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        if abs(m) >= 10:
            e += 1
            m = d.scaleb(-e).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{format(m, 'f')}e{'+' if e >= 0 else '-'}{abs(e)}"


def exp_text(x: float) -> str:
    """An exponential: plain up to a million, exponent form beyond and for tiny positive numbers."""
    return expo(x) if x >= 1e6 or 0 < x < 0.0005 else short(x)


def entry(x: float) -> str:
    """A vector entry as typed back into a text box: six decimals at most, trailing zeros dropped."""
    return trim(fixed(x, 6))


def vec_text(v, f=short) -> str:
    """A vector in brackets: [0.059, 0.059, 0.895]; a one-number vector stays a plain number."""
    v = [float(x) for x in np.atleast_1d(v)]
    return f(v[0]) if len(v) == 1 else "[" + ", ".join(f(x) for x in v) + "]"


def esc(s: str) -> str:
    return html.escape(s, quote=True)

