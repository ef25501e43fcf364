"""Drawing a query and its keys as arrows from the origin, the same on every plate that has them:
keys blue ● with their names, the query vermillion ◆ labelled q (see app/shared/theme.py)."""

from __future__ import annotations

from bokeh.core.properties import expr
from bokeh.models import Arrow, CustomJSExpr, LabelSet, VeeHead

from app.shared.theme import PALETTE


def draw_query_and_keys(fig, keys_src, query_src, size: float = 1.0) -> None:
    """Arrows, handles and labels for `keys_src` (x, y, name) and `query_src` (x, y) on `fig`.

    `size` scales every mark (1.0 is the lookup plate's; smaller panels use about 0.85).
    """
    def px(v: float) -> int:
        return max(1, round(v * size))

    for src, role, head, dot, width, marker in [(keys_src, "keys", 10, 16, 3, "circle"),
                                                (query_src, "query", 12, 22, 4, "diamond")]:
        color = PALETTE[role]
        fig.add_layout(Arrow(end=VeeHead(size=px(head), fill_color=color, line_color=color),
                             x_start=0, y_start=0, x_end="x", y_end="y", source=src,
                             line_color=color, line_width=px(width)))
        fig.scatter("x", "y", source=src, size=px(dot), marker=marker, fill_color=color,
                    line_color="white", line_width=2)
    span = getattr(fig.x_range, "end", 2.0) - getattr(fig.x_range, "start", 0.0)
    fig.add_layout(LabelSet(text="name", source=keys_src, text_font_size=f"{px(12)}pt",
                            text_color=PALETTE["keys"], text_font_style="bold", **outward(0.03 * span)))
    fig.add_layout(LabelSet(text={"value": "q"}, source=query_src, text_font_size=f"{px(13)}pt",
                            text_color=PALETTE["query"], text_font_style="bold", **outward(0.035 * span)))


def outward(gap: float) -> dict:
    """A label's place beyond its arrow's tip, along the arrow: `gap` data units out from the tip
    (so the room grows with the figure, as its markers do), with the text's near edge there (its
    left edge for an arrow that points right, its bottom for one that points up...), so that no
    label lies across its own arrow or on its head, at any type size. Computed in the browser from
    each point's direction as the points move (a drag)."""
    def js(body: str) -> dict:
        code = ("const {x, y} = this.data;\n"
                "return Array.from(x, (xi, i) => { const a = Math.atan2(y[i], xi), c = Math.cos(a), s = Math.sin(a);"
                f" {body} }});")
        return expr(CustomJSExpr(args={"gap": gap}, code=code))

    return {"x": js("return xi + gap * c;"), "y": js("return y[i] + gap * s;"),
            "text_align": js("return c > 0.38 ? 'left' : c < -0.38 ? 'right' : 'center';"),
            "text_baseline": js("return s > 0.38 ? 'bottom' : s < -0.38 ? 'top' : 'middle';")}
