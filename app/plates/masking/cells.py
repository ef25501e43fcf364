"""How a cell of the masking plate's heat maps looks: its fill, the ink written on it, its number with
a true minus sign. masking.js writes the same colours and texts."""

from __future__ import annotations

from app.shared.colours import WHITE, mix, rgb
from app.shared.formatting import MINUS, fix, true_minus
from app.shared.theme import PALETTE

MASKED_FILL = "#6e7781"
EMPTY_FILL = "#eaeef2"
ALLOWED_FILL = "#eef5fb"
DIVERGE_NEG, DIVERGE_POS = "#0072B2", PALETTE["query"]
OUT_NEG, OUT_POS = "#56B4E9", PALETTE["output"]
NEG_INF = MINUS + "∞"
STRENGTH = 0.85  # the most a fill moves toward its colour, so the number on it stays readable


def signed(x: float, digits: int) -> str:
    """fix() with a true minus sign."""
    return true_minus(fix(x, digits))


def shade(colour: str, t: float) -> str:
    """White moved toward `colour` by t in [0, 1] (scaled to STRENGTH); halves round up, as masking.js's."""
    return mix(WHITE, colour, min(1.0, max(0.0, t)) * STRENGTH, half_up=True)


def ink_for(fill: str) -> str:
    r, g, b = rgb(fill)
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else PALETTE["ink"]


def signed_shade(x: float, top: float, neg: str, pos: str) -> str:
    """`pos` for x above 0, `neg` below, by |x| / top."""
    t = x / top if top > 0 else 0.0
    return shade(pos, t) if t >= 0 else shade(neg, -t)
