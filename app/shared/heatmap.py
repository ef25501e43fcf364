"""The heat maps' figure, once for every plate: a grid of coloured cells with a number on each.

A heat map's cells are its scale, so it shows no grid lines, no axis lines and no ticks, only the
rows' and columns' names (or no axes at all, where a plate writes its own labels among the
cells); it has no tools but a hover, which tells a cell's arithmetic. `heatmap_figure` makes the
figure, `cells` draws one source's cells on it; each plate keeps its own sizes and colours.
"""

from __future__ import annotations

from bokeh.models import HoverTool
from bokeh.plotting import figure

from app.shared.theme import PALETTE, style_figure


def heatmap_figure(name: str, x_range, y_range, title: str | None = "", *, title_size: str | None = "11pt",
                   axes: bool = True, **kw):
    """A styled figure for cells on `x_range` × `y_range`; `kw` go to Bokeh's figure (size, borders).

    `title=None` leaves out the title and its room (the multi-head plate's maps of many heads);
    `title_size=None` keeps the shared style's size; `axes=False` hides the axes altogether.
    """
    f = figure(name=name, title=title or "", x_range=x_range, y_range=y_range, tools="", toolbar_location=None, **kw)
    style_figure(f)
    if title is None:
        f.title = None
    elif title_size:
        f.title.text_font_size = title_size
    f.grid.visible = False
    if axes:
        f.axis.axis_line_color = None
        f.axis.major_tick_line_color = None
    else:
        f.axis.visible = False
    return f


def cells(fig, source, fill, *, text: str | None = "text", text_color=PALETTE["ink"], font_size: str = "9pt",
          font_style: str | None = None, size: float = 0.96, line_color=None, line_width: float | None = None,
          tooltip: str | None = None, x: str = "x", y: str = "y"):
    """`source`'s cells on `fig`: a square of `fill` (a colour, a column or a colour mapping) at each
    (x, y), with its `text` column written on it; a hover showing `tooltip` if given.

    Returns the cells' renderer and the text's (None without `text`), for a plate that adds its own
    hover over several sources or changes the text's size later.
    """
    extra = {} if line_width is None else {"line_width": line_width}
    squares = fig.rect(x, y, size, size, source=source, fill_color=fill, line_color=line_color, **extra)
    written = None
    if text is not None:
        style = {} if font_style is None else {"text_font_style": font_style}
        written = fig.text(x, y, text=text, source=source, text_color=text_color, text_align="center",
                           text_baseline="middle", text_font_size=font_size, **style)
    if tooltip is not None:
        fig.add_tools(HoverTool(renderers=[squares], tooltips=tooltip))
    return squares, written
