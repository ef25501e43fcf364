"""How a cell of the masking plate's heat maps looks: its fill, the ink written on it, its number with
a true minus sign. masking.js writes the same colours and texts."""

from __future__ import annotations

from app.shared.formatting import fix
from app.shared.theme import PALETTE

MASKED_FILL = "#6e7781"
EMPTY_FILL = "#eaeef2"
ALLOWED_FILL = "#eef5fb"
DIVERGE_NEG, DIVERGE_POS = "#0072B2", PALETTE["query"]
OUT_NEG, OUT_POS = "#56B4E9", PALETTE["output"]
MINUS = "\u2212"
NEG_INF = MINUS + "∞"


def signed(x: float, digits: int) -> str:
    """fix() with a true minus sign."""
    return fix(x, digits).replace("-", MINUS)


def mix(hex_color: str, t: float) -> str:
    """White blended toward `hex_color` by t in [0, 1] (0.85 at most, so text stays readable)."""
    t = min(1.0, max(0.0, t)) * 0.85
    rgb = [int(hex_color[k:k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{int(255 + (c - 255) * t + 0.5):02x}" for c in rgb)


def ink_for(fill: str) -> str:
    r, g, b = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else PALETTE["ink"]


def diverging(x: float, top: float, neg: str, pos: str) -> str:
    t = x / top if top > 0 else 0.0
    return mix(pos, t) if t >= 0 else mix(neg, -t)

