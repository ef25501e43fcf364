"""The heavy plates' FLOORS: each plate's shown figures in Bokeh alone, one static file.

    .venv/bin/python benchmarks/plate_floors.py masking OUT.html             # Bokeh alone
    .venv/bin/python benchmarks/plate_floors.py masking --patched OUT.html   # with the workarounds

What BokehJS itself takes to redraw a plate's figures at a step of n, with nothing of ours in the
way: the same figures (glyphs, sizes, fonts, colours) and a slider `n`, but no Panel, no
arithmetic in the browser and none of the plate's other parts (its other widgets, tables, notes,
hidden figures, the explanation). Every n's data is worked out beforehand in Python, with the
plate's own function and attention_core, and the slider's CustomJS only hands it to the
sources, the factor ranges and the texts, so a press costs BokehJS's own work on the new data and
the paint of the figures.
- masking: the five shown figures (mask, scores, weights with the Σ column, output, lengths),
  built as the plate builds them; data from `app.plates.masking.data.view_data`.
- self-attention: the six heat maps (tokens, scores, weights with the Σ column, output, the
  original order, the difference), built by the plate's own `heatmap` (its view.py), and its
  worked row; data from `app.plates.self_attention.data.frame_data` for the default shuffle.

`--patched` adds the browser-side workarounds (app/workarounds/js/) and installs them once the
document is ready: BokehJS's cost for these figures as we have cut it, with none of the
plate's own work. `make bench` measures both beside each such plate (its driver's names and
slider; a floor has no taps) and puts them in the plate's floor columns. They are references, not
pages to beat: a step that takes either longer than a target puts that target below what BokehJS
needs for such a page.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # app and attention_core from this checkout

from bokeh.document import Document  # noqa: E402
from bokeh.embed import file_html  # noqa: E402
from bokeh.layouts import column, row  # noqa: E402
from bokeh.models import (ColumnDataSource, CustomJS, Div, FactorRange, HoverTool, LinearColorMapper,  # noqa: E402
                          Range1d, Slider)
from bokeh.plotting import figure  # noqa: E402
from bokeh.resources import INLINE  # noqa: E402
from bokeh.transform import dodge  # noqa: E402

from app.shared.theme import PALETTE, style_figure  # noqa: E402

sys.path.insert(1, str(Path(__file__).resolve().parent))
from floor_page import bokeh_alone, live_patches  # noqa: E402

# The slider hands over n's precomputed data: every source, every factor range, the texts' font
# size and the ranges' ends that depend on n, and the readout.
CODE = """
const d = table[String(slider.value)];
for (const k in sources) sources[k].data = d.sources[k];
for (const k in ranges) ranges[k].factors = d.factors[k];
for (const t of texts) t.text_font_size = {value: d.font};
for (const k in ends) ends[k].end = d.ends[k];
readout.text = d.readout;
"""


def page(root, slider, table: dict, sources: dict, ranges: dict, texts: list, ends: dict, readout: Div,
         patched: bool) -> Document:
    """The floor's document: `root`, and on the slider the CustomJS that hands over `table[n]`."""
    slider.js_on_change("value", CustomJS(
        args={"slider": slider, "table": table, "sources": sources, "ranges": ranges, "texts": texts, "ends": ends,
              "readout": readout}, code=CODE))
    doc = Document()
    doc.add_root(root)
    if patched:
        live_patches(doc)
    return doc


# --- masking ------------------------------------------------------------------------------------
MASKING_SOURCES = ("mask", "scores", "weights", "row_sums", "output", "norms")


def masking_data(n: int) -> dict:
    """The five figures' data for n (the plate's defaults otherwise), as the plate computes it."""
    from app.plates.masking.data import font_for, kname, qname, view_data
    from app.plates.masking.state import MaskingState

    v = view_data(MaskingState(n=n))
    keys = [kname(j) for j in range(n)]
    return {"sources": {k: v[k] for k in MASKING_SOURCES},
            "factors": {"rows": [qname(i) for i in reversed(range(n))], "keys": keys, "keys_sum": [*keys, "Σ"]},
            "font": font_for(n), "ends": {"norm": v["_norm_end"]}, "readout": v["_notes"]}


def masking(patched: bool = False) -> Document:
    """The masking plate's five shown figures, the slider `n` and the notes."""
    from app.plates.masking import state as M
    from app.plates.masking.view import BORDER_BOTTOM

    n0 = M.MaskingState().n
    table = {str(n): masking_data(n) for n in range(M.N_MIN, M.N_MAX + 1)}
    d0 = table[str(n0)]
    sources = {k: ColumnDataSource(d0["sources"][k], name=k) for k in MASKING_SOURCES}
    ranges = {"rows": FactorRange(*d0["factors"]["rows"], name="rows"),
              "keys": FactorRange(*d0["factors"]["keys"], name="keys_range"),
              "keys_sum": FactorRange(*d0["factors"]["keys_sum"], name="keys_sum_range")}
    out_x = FactorRange(*[str(c + 1) for c in range(M.D_MODEL)], name="out_range")
    norm_x = Range1d(0, d0["ends"]["norm"], name="norm_range")
    rows = ranges["rows"]
    texts = []

    def heat(name, title, width, x_range, source, sums=None):
        f = figure(name=name, title=title, width=width, height=290, x_range=x_range, y_range=rows, tools="",
                   toolbar_location=None, x_axis_location="above", min_border_left=34, min_border_right=6,
                   min_border_bottom=BORDER_BOTTOM)
        style_figure(f)
        f.title.text_font_size = "11pt"
        f.grid.visible = False
        f.axis.axis_line_color = None
        f.axis.major_tick_line_color = None
        rs = [f.rect("x", "y", 0.96, 0.96, source=source, fill_color="fill", line_color=None)]
        texts.append(f.text("x", "y", text="text", source=source, text_color="ink", text_align="center",
                            text_baseline="middle", text_font_size=d0["font"]).glyph)
        if sums is not None:
            rs.append(f.rect("x", "y", 0.96, 0.96, source=sums, fill_color="fill", line_color=PALETTE["ink"],
                             line_width=1.2))
            texts.append(f.text("x", "y", text="text", source=sums, text_color="ink", text_align="center",
                                text_baseline="middle", text_font_size=d0["font"], text_font_style="bold").glyph)
        f.add_tools(HoverTool(renderers=rs, tooltips="<div style='max-width:300px'>@tip{safe}</div>"))
        return f

    figs = [heat("mask_plot", "Mask M · tap to flip", 236, ranges["keys"], sources["mask"]),
            heat("scores_plot", "Scores S/√d_k + M", 286, ranges["keys"], sources["scores"]),
            heat("weights_plot", "Weights · rows sum to 1", 290, ranges["keys_sum"], sources["weights"],
                 sources["row_sums"]),
            heat("output_plot", "Output = A · V", 200, out_x, sources["output"])]
    nb = figure(name="norms_plot", title="Length ‖o_i‖", width=190, height=290, y_range=rows, x_range=norm_x,
                tools="", toolbar_location=None, x_axis_location="above", min_border_left=34, min_border_right=8,
                min_border_bottom=BORDER_BOTTOM)
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
    notes = Div(name="notes", text=d0["readout"], width=640)
    return page(column(slider, row(*figs), notes), slider, table, sources, ranges, texts, {"norm": norm_x}, notes,
                patched)


# --- self-attention -------------------------------------------------------------------------------
SA_SOURCES = ("tokens", "scores", "weights", "row_sums", "output", "original_output", "output_diff")


def self_attention_data(n: int) -> dict:
    """The six heat maps' data for n (the default shuffle, no positions, no cross-attention)."""
    from app.plates.self_attention.data import frame_data
    from app.plates.self_attention.state import SelfAttentionState, compute

    st = SelfAttentionState(n=n)
    fd = frame_data(compute(n, st.shuffle, st.positions, st.cross))
    return {"sources": {k: fd["sources"][k] for k in SA_SOURCES}, "factors": fd["factors"], "font": "9pt",
            "ends": {}, "readout": fd["check"]}


def self_attention(patched: bool = False) -> Document:
    """The self-attention plate's six heat maps and its worked row, the slider `n` and the check."""
    from app.plates.self_attention import data as SD
    from app.plates.self_attention import view as SH
    from app.shared.colours import diverging, sequential
    from app.plates.self_attention import state as S

    n0 = S.SelfAttentionState().n
    table = {str(n): self_attention_data(n) for n in range(S.N_MIN, S.N_MAX + 1)}
    d0 = table[str(n0)]
    sources = {k: ColumnDataSource(d0["sources"][k], name=k) for k in SA_SOURCES}
    ranges = {k: FactorRange(*d0["factors"][k], name=f"range_{k}") for k in ("rows", "keys", "keys_sum", "original")}
    entries = FactorRange(*SD.ENTRIES)
    signed = diverging(PALETTE["keys"], PALETTE["query"])
    signed_out = diverging(PALETTE["values"], PALETTE["output"])
    R = SH.RANGES
    mappers = {"tokens": LinearColorMapper(palette=signed, low=-R["tokens"], high=R["tokens"]),
               "scores": LinearColorMapper(palette=signed, low=-R["scores"], high=R["scores"]),
               "weights": LinearColorMapper(palette=sequential(PALETTE["weights"]), low=0.0, high=1.0),
               "output": LinearColorMapper(palette=signed_out, low=-R["output"], high=R["output"]),
               "diff": LinearColorMapper(palette=sequential(PALETTE["query"]), low=0.0, high=R["diff"])}
    heat = SH.heatmap
    H = 330
    figs = [heat("tokens_map", "Tokens fed in", sources["tokens"], mappers["tokens"], entries, ranges["rows"], 205, H,
                 "entry", "position, token"),
            heat("scores_map", "Scores QKᵀ/√d_k", sources["scores"], mappers["scores"], ranges["keys"], ranges["rows"],
                 385, H, "key (position, token)", None),
            heat("weights_map", "Weights: softmax of each row", sources["weights"], mappers["weights"],
                 ranges["keys_sum"], ranges["rows"], 420, H, "key (position, token) · Σ = row sum", None),
            heat("output_map", "Output rows", sources["output"], mappers["output"], entries, ranges["rows"], 200, H,
                 "entry", None),
            heat("original_map", "Original order", sources["original_output"], mappers["output"], entries,
                 ranges["original"], 235, 290, "entry", "position, token"),
            heat("diff_map", "|Difference|", sources["output_diff"], mappers["diff"], entries, ranges["rows"], 215, 290,
                 "entry", None)]
    figs[2].rect("x", "y", 0.95, 0.95, source=sources["row_sums"], fill_color="white", line_color=PALETTE["muted"],
                 line_width=1)
    figs[2].text("x", "y", text="label", source=sources["row_sums"], text_align="center", text_baseline="middle",
                 text_font_size="9pt", text_font_style="bold", text_color=PALETTE["ink"])
    # The worked row (it does not change with n; the driver waits for its frame).
    w, out = SD.worked_example()
    wk = figure(name="worked_map", width=330, height=110, x_range=FactorRange("w0", "w1", "w2", "o0", "o1"),
                y_range=FactorRange("q"), tools="", toolbar_location=None, x_axis_location="above",
                min_border_left=30, min_border_bottom=4)
    style_figure(wk)
    cells = ColumnDataSource({"x": ["w0", "w1", "w2", "o0", "o1"], "y": ["q"] * 5, "value": [*w, 0.0, 0.0],
                              "label": [f"{v:.3f}" for v in w] + [f"{v:.2f}" for v in out]})
    wk.rect("x", "y", 0.95, 0.95, source=cells, line_color=None,
            fill_color={"field": "value", "transform": mappers["weights"]})
    wk.text("x", "y", text="label", source=cells, text_align="center", text_baseline="middle", text_font_size="9pt",
            text_color=PALETTE["ink"])
    wk.grid.visible = False
    wk.axis.axis_line_color = None
    wk.axis.major_tick_line_color = None
    wk.axis.major_label_text_font_size = "9pt"
    slider = Slider(name="n", title="Tokens n", start=S.N_MIN, end=S.N_MAX, step=1, value=n0, width=170)
    check = Div(name="check_readout", text=d0["readout"], width=560)
    root = column(slider, row(*figs[:4]), row(figs[4], figs[5], wk), check)
    return page(root, slider, table, sources, ranges, [], {}, check, patched)


FLOORS = {"masking": masking, "self-attention": self_attention}


def write(slug: str, path: Path, patched: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    title = f"Floor: the {slug} plate's figures in Bokeh alone" + (", with the workarounds" if patched else "")
    path.write_text(file_html(FLOORS[slug](patched), resources=INLINE, title=title), encoding="utf-8")
    return bokeh_alone(path)  # the plates import Panel, which adds its scripts to every Bokeh page


if __name__ == "__main__":
    args = sys.argv[1:]
    patched = "--patched" in args
    args = [x for x in args if x != "--patched"]
    if len(args) != 2 or args[0] not in FLOORS:
        sys.exit(__doc__)
    print(write(args[0], Path(args[1]), patched))
