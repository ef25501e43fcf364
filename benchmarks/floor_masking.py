"""The masking plate's FLOOR: its five visible figures in Bokeh alone, one static file.

    .venv/bin/python benchmarks/floor_masking.py OUT.html             # Bokeh alone
    .venv/bin/python benchmarks/floor_masking.py --patched OUT.html   # with live.js's patches

What BokehJS itself takes to redraw the masking plate's heat maps at a step of n, with nothing of
ours in the way: the same five figures (mask, scores, weights with the Σ column, output, lengths),
the same glyphs, sizes, fonts and colours, and a slider `n`, but no Panel, no live.js patches, no
arithmetic in the browser and none of the plate's other parts (the contrast figures, the checks
table, the mode buttons, the explanation). Every n's data is worked out beforehand in Python
(`app.plates.masking.view_data`, with attention_core) and the slider's CustomJS only hands it to
the sources, the factor ranges and the fonts, so a press costs BokehJS's own work on the new data
and the paint of five figures.

`--patched` adds app/static/live.js and, once the document is ready, the patches our pages put
on BokehJS (AELive.quiet_styles, local_layout, axes_on_change, coalesce_updates, the lazy copies,
later_positions, unset_css_values, quiet_slider_echo, hidden_figures_wait): BokehJS's cost for these five figures as
we have cut it, with none of the plate's own work. `make bench` measures both beside the masking
plate (the masking driver's names, its slider; the floor has no taps). They are references, not
pages to beat: a step of n that takes either longer than a target puts that target below what
BokehJS needs for such a page.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # app and attention_core from this checkout

from bokeh.document import Document  # noqa: E402
from bokeh.embed import file_html  # noqa: E402
from bokeh.layouts import column, row  # noqa: E402
from bokeh.models import (ColumnDataSource, CustomJS, Div, FactorRange, HoverTool, Range1d,  # noqa: E402
                          Slider)
from bokeh.plotting import figure  # noqa: E402
from bokeh.resources import INLINE  # noqa: E402
from bokeh.transform import dodge  # noqa: E402

from app.plates import masking as M  # noqa: E402
from app.theme import PALETTE, style_figure  # noqa: E402

SOURCES = ("mask", "scores", "weights", "row_sums", "output", "norms")
LIVE_JS = Path(__file__).resolve().parents[1] / "app" / "static" / "live.js"
PATCHES = ("quiet_styles", "local_layout", "axes_on_change", "coalesce_updates", "lazy_text_copies", "lazy_copies",
           "quiet_slider_echo", "later_positions", "unset_css_values", "hidden_figures_wait")

# The slider hands over n's precomputed data: sources, the rows' and keys' factors, fonts, the
# lengths' axis end and the notes, as the plate does at a step of n.
CODE = """
const n = String(slider.value), d = table[n];
for (const k in sources) sources[k].data = d[k];
rows.factors = d._rows; keys.factors = d._keys; keys_sum.factors = d._keys.concat(["Σ"]);
for (const t of texts) t.text_font_size = {value: d._font};
norm_x.end = d._norm_end;
notes.text = d._notes;
"""


def data_for(n: int) -> dict:
    """The five figures' data for n (the plate's defaults otherwise), as the plate computes it."""
    st = M.MaskingState(n=n)
    v = M.view_data(st)
    out = {k: v[k] for k in SOURCES}
    out["_rows"] = [M.qname(i) for i in reversed(range(n))]
    out["_keys"] = [M.kname(j) for j in range(n)]
    out["_font"] = M.font_for(n)
    out["_norm_end"] = v["_norm_end"]
    out["_notes"] = v["_notes"]
    return out


def build(patched: bool = False) -> Document:
    """The page's document: the slider, the five figures and the notes (names as the masking
    driver expects); `patched`: with live.js's patches put on once the document is ready."""
    n0 = M.MaskingState().n
    table = {str(n): data_for(n) for n in range(M.N_MIN, M.N_MAX + 1)}
    d0 = table[str(n0)]
    sources = {k: ColumnDataSource(d0[k], name=k) for k in SOURCES}
    rows = FactorRange(*d0["_rows"], name="rows")
    keys = FactorRange(*d0["_keys"], name="keys_range")
    keys_sum = FactorRange(*d0["_keys"], "Σ", name="keys_sum_range")
    out_x = FactorRange(*[str(c + 1) for c in range(M.D_MODEL)], name="out_range")
    norm_x = Range1d(0, d0["_norm_end"], name="norm_range")
    texts = []

    def heat(name, title, width, x_range, source, sums=None):
        f = figure(name=name, title=title, width=width, height=290, x_range=x_range, y_range=rows, tools="",
                   toolbar_location=None, x_axis_location="above", min_border_left=34, min_border_right=6,
                   min_border_bottom=M.BORDER_BOTTOM)
        style_figure(f)
        f.title.text_font_size = "11pt"
        f.grid.visible = False
        f.axis.axis_line_color = None
        f.axis.major_tick_line_color = None
        rs = [f.rect("x", "y", 0.96, 0.96, source=source, fill_color="fill", line_color=None)]
        texts.append(f.text("x", "y", text="text", source=source, text_color="ink", text_align="center",
                            text_baseline="middle", text_font_size=d0["_font"]).glyph)
        if sums is not None:
            rs.append(f.rect("x", "y", 0.96, 0.96, source=sums, fill_color="fill", line_color=PALETTE["ink"],
                             line_width=1.2))
            texts.append(f.text("x", "y", text="text", source=sums, text_color="ink", text_align="center",
                                text_baseline="middle", text_font_size=d0["_font"], text_font_style="bold").glyph)
        f.add_tools(HoverTool(renderers=rs, tooltips="<div style='max-width:300px'>@tip{safe}</div>"))
        return f

    figs = [heat("mask_plot", "Mask M · tap to flip", 236, keys, sources["mask"]),
            heat("scores_plot", "Scores S/√d_k + M", 286, keys, sources["scores"]),
            heat("weights_plot", "Weights · rows sum to 1", 290, keys_sum, sources["weights"], sources["row_sums"]),
            heat("output_plot", "Output = A · V", 200, out_x, sources["output"])]
    nb = figure(name="norms_plot", title="Length ‖o_i‖", width=190, height=290, y_range=rows, x_range=norm_x,
                tools="", toolbar_location=None, x_axis_location="above", min_border_left=34, min_border_right=8,
                min_border_bottom=M.BORDER_BOTTOM)
    style_figure(nb)
    nb.title.text_font_size = "11pt"
    nb.ygrid.visible = False
    nb.xaxis.ticker.desired_num_ticks = 3
    src = sources["norms"]
    nb.hbar(y=dodge("y", 0.18, range=rows), right="before", height=0.32, source=src, fill_color=PALETTE["output"],
            line_color=None, legend_label="masked")
    nb.hbar(y=dodge("y", -0.18, range=rows), right="after", height=0.32, source=src, fill_color="#d0d7de",
            line_color=PALETTE["muted"], legend_label="zeroed")
    nb.text(x="before", y=dodge("y", 0.18, range=rows), text="before_text", source=src, x_offset=3,
            text_baseline="middle", text_font_size="8pt", text_color=PALETTE["ink"])
    nb.text(x="after", y=dodge("y", -0.18, range=rows), text="after_text", source=src, x_offset=3,
            text_baseline="middle", text_font_size="8pt", text_color=PALETTE["muted"])
    nb.add_layout(nb.legend[0], "below")
    nb.legend.orientation = "horizontal"
    nb.legend.border_line_color = None
    nb.legend.label_text_font_size = "8pt"
    figs.append(nb)

    slider = Slider(name="n", title="Tokens n", start=M.N_MIN, end=M.N_MAX, step=1, value=n0, width=130)
    notes = Div(name="notes", text=d0["_notes"], width=640)
    slider.js_on_change("value", CustomJS(
        args={"slider": slider, "table": table, "sources": sources, "rows": rows, "keys": keys,
              "keys_sum": keys_sum, "texts": texts, "norm_x": norm_x, "notes": notes}, code=CODE))
    doc = Document()
    doc.add_root(column(slider, row(*figs), notes))
    if patched:
        calls = "".join(f"A.{p}(doc);" for p in PATCHES)
        doc.js_on_event("document_ready", CustomJS(code=LIVE_JS.read_text(encoding="utf-8") + (
            f"\nconst A = globalThis.AELive, doc = Bokeh.documents[0]; {calls} window.__ae_floor_patched = true;")))
    return doc


def write(path: Path, patched: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    title = "Floor: the masking plate's figures in Bokeh alone" + (", with live.js's patches" if patched else "")
    path.write_text(file_html(build(patched), resources=INLINE, title=title), encoding="utf-8")
    return path


if __name__ == "__main__":
    args = sys.argv[1:]
    patched = "--patched" in args
    args = [x for x in args if x != "--patched"]
    if len(args) != 1:
        sys.exit(__doc__)
    print(write(Path(args[0]), patched))
