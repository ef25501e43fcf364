"""How numbers are written on the plates, once for all of them; app/runtime/page.js (AEPage.fix,
sci, pct, paren) writes them the same way in the browser.

A number on a plate is written twice, by Python (attention_core's answer) and by the browser (the
live path), and the two must agree to the character, or a number flickers when Python answers.
So every rule follows what JavaScript does, not what Python's format would do. The plates differ
in a few choices (how many digits, trailing zeros, where a number turns scientific, whether the
exponent shows its '+'), and those are parameters here, never second copies.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal

# A double's exact decimal expansion has up to 767 significant digits: with this precision no
# step below rounds twice (Decimal's default, 28, would make a huge number's quantize fail).
_EXACT = Context(prec=800, rounding=ROUND_HALF_UP)
_STEPS = [Decimal(1).scaleb(-d) for d in range(21)]  # 1, 0.1, … 1E-20, made once: fix runs per cell
MINUS = "\u2212"  # the true minus sign, as typeset


def fix(x: float, digits: int, *, significant: int | None = None, trim: bool = False) -> str:
    """`x` with `digits` decimals exactly as JavaScript's toFixed writes it, and never '-0.00'.

    toFixed rounds the exact binary value, and an exact tie away from zero (0.125 -> '0.13',
    -0.5 -> '-1'); Python's format rounds ties to even, so Decimal does the rounding here.

    `significant`: first read `x` to that many significant digits (the worked plate's 12). Its
    numbers are typed by hand, and NumPy and the browser may differ in their last bit; read to 12
    digits, 17.5335 rounds to 17.534 by hand's rule whichever side of the tie its float landed on.
    `trim`: drop trailing zeros and a bare point (2.000 -> '2', 1.500 -> '1.5').
    """
    d = Decimal(x) if significant is None else Decimal(f"{float(x):.{significant - 1}e}")
    d = d.quantize(_STEPS[digits] if 0 <= digits < len(_STEPS) else Decimal(1).scaleb(-digits), context=_EXACT)
    s = format(d, "f")
    if s.startswith("-") and d == 0:
        s = s[1:]
    if trim:
        if "." in s:
            s = s.rstrip("0").rstrip(".")
        if s in ("-0", ""):
            s = "0"
    return s


def sci(x: float, digits: int = 1, *, plus: bool = True) -> str:
    """`x` in scientific notation exactly as JavaScript's toExponential(digits) writes it: '4.4e-16',
    '3.77e+260', '0.0e+0'; ties of the exact binary value round away from zero, as toExponential does.

    `plus=False` drops the exponent's '+' ('2.4e0'), as the self-attention plate writes it.
    """
    x = float(x)  # the browser's numbers are doubles
    if not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    d = Decimal(x)
    quantum = Decimal(1).scaleb(-digits)
    if d == 0:
        exponent, mantissa = 0, Decimal(0).quantize(quantum)
    else:
        exponent = d.adjusted()
        mantissa = d.scaleb(-exponent, context=_EXACT).quantize(quantum, context=_EXACT)
        if abs(mantissa) >= 10:  # 9.96 rounds up to 10.0: one more power of ten
            exponent += 1
            mantissa = d.scaleb(-exponent, context=_EXACT).quantize(quantum, context=_EXACT)
    sign = "-" if exponent < 0 else ("+" if plus else "")
    return f"{format(mantissa, 'f')}e{sign}{abs(exponent)}"


def pct(w: float) -> str:
    """A weight as a percentage with one decimal: 0.5508 -> '55.1%' (lookup.js's pct)."""
    return fix(100 * w, 1) + "%"


def paren(text: str) -> str:
    """A written number in brackets when it is negative, as a factor in a sum: '(-0.53)×2'."""
    return f"({text})" if text.startswith("-") else text


def true_minus(text: str) -> str:
    """A written number with a true minus sign (U+2212) for its hyphen: '−0.53', as typeset."""
    return text.replace("-", MINUS)
