"""The self-attention plate's heat maps: their colour ramps, fixed colour ranges and the figure
every table is drawn in (cells coloured by value, the number written in each, its arithmetic on
hover)."""

from __future__ import annotations

from bokeh.models import HoverTool
from bokeh.plotting import figure

from app.shared.theme import PALETTE, style_figure

# Fixed colour ranges, so colours stay comparable as the controls change (values beyond the
# range take the end colour); they cover every state the plate can show.
RANGES = {"tokens": 3.0, "scores": 6.0, "output": 4.0, "diff": 2.0}
TOOLTIP = "<div style='max-width:360px;white-space:normal;font-size:12px;line-height:1.35'>@text</div>"


def blend(hex_color: str, t: float) -> str:
    """`hex_color` mixed with white: t = 0 white, t = 1 the colour."""
    r, g, b = (int(hex_color[k:k + 2], 16) for k in (1, 3, 5))
    return "#%02x%02x%02x" % tuple(round(255 + (v - 255) * t) for v in (r, g, b))


def diverging(neg: str, pos: str, steps: int = 128, strength: float = 0.8) -> list[str]:
    """neg ... white ... pos; the ends stop at `strength` so black numbers stay readable on them."""
    half = [blend(neg, strength * (1 - k / steps)) for k in range(steps)]
    return half + [blend(pos, strength * k / steps) for k in range(1, steps + 1)]


def sequential(color: str, steps: int = 128, strength: float = 0.85) -> list[str]:
    return [blend(color, strength * k / (steps - 1)) for k in range(steps)]


def heatmap(name, title, source, mapper, x_range, y_range, width, height, x_label, y_label):
    """A categorical heat map of `source` (x, y, value, label, text), coloured by `mapper`."""
    p = figure(name=name, width=width, height=height, x_range=x_range, y_range=y_range, tools="",
               toolbar_location=None, title=title, x_axis_location="above")
    style_figure(p)
    p.title.text_font_size = "11pt"
    cells = p.rect("x", "y", 0.95, 0.95, source=source, fill_color={"field": "value", "transform": mapper},
                   line_color=None)
    p.text("x", "y", text="label", source=source, text_align="center", text_baseline="middle",
           text_font_size="9pt", text_color=PALETTE["ink"])
    p.add_tools(HoverTool(renderers=[cells], tooltips=TOOLTIP))
    p.grid.visible = False
    p.axis.axis_line_color = None
    p.axis.major_tick_line_color = None
    p.axis.major_label_text_font_size = "9pt"
    p.axis.axis_label_text_font_size = "9pt"
    p.xaxis.axis_label = x_label
    if y_label:
        p.yaxis.axis_label = y_label
    return p
