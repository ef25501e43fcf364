"""The masking plate's view: the mask to tap, the −∞ scores, the weights and their row sums, the
outputs, the contrast (weights zeroed after the softmax), the checks and seed 000's three items."""

from __future__ import annotations

import numpy as np
import panel as pn
from bokeh.events import ButtonClick, DoubleTap, Tap
from bokeh.layouts import column as bk_column
from bokeh.layouts import row as bk_row
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    Div,
    FactorRange,
    HoverTool,
    InlineStyleSheet,
    RadioButtonGroup,
    Range1d,
    Slider,
)
from bokeh.plotting import figure
from bokeh.transform import dodge

from app.plates.masking.data import SCORES_TITLES, SOURCES, factors, font_for, texts, view_data
from app.plates.masking.demo import demo_intro_html
from app.plates.masking.scenes import SCENES
from app.plates.masking.state import D_MODEL, KINDS, N_MAX, N_MIN, RECIPES, MaskingState, fit_cells
from app.shared import a11y, html_table
from app.shared.heatmap import cells, heatmap_figure
from app.shared.mathml import CSS as MATHML_CSS
from app.shared.mathml import formula_html
from app.shared.scenes import with_titles
from app.shared.text import plate_text
from app.shared.theme import PALETTE, style_figure
from app.shared.viewer import PlateViewer, push, set_if_changed

TEXT = plate_text(__package__)
KIND_LABELS = ["none", "causal", "padding", "window", "custom"]
VIEW_LABELS = ["Mask the scores (before softmax)", "Zero the weights (after softmax)"]
BORDER_BOTTOM = 30  # px under every heat map: the norms plot keeps its legend there

# The mask's formula (MathML) and its spoken label.
MASK_FORMULA = (
    "<mrow><msub><mrow><mi>S</mi><mo>′</mo></mrow><mi>ij</mi></msub><mo>=</mo><mfrac><mrow>"
    "<msub><mi>q</mi><mi>i</mi></msub><mo>·</mo><msub><mi>k</mi><mi>j</mi></msub></mrow>"
    "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></mfrac><mo>+</mo><msub><mi>M</mi>"
    "<mi>ij</mi></msub><mo>,</mo><mspace width='1em'/><msub><mi>M</mi><mi>ij</mi></msub>"
    "<mo>=</mo><mrow><mo>{</mo><mtable><mtr><mtd><mn>0</mn></mtd><mtd><mtext>&#xa0;may attend"
    "</mtext></mtd></mtr><mtr><mtd><mo>−</mo><mi>∞</mi></mtd><mtd><mtext>&#xa0;blocked"
    "</mtext></mtd></mtr></mtable></mrow></mrow>",
    "S prime i j equals q i dot k j over root d k, plus M i j, where M i j is 0 if query i "
    "may attend to key j and minus infinity if blocked",
)

NOTES_CSS = """
.ae-notes { font-family: system-ui, sans-serif; font-size: 14px; line-height: 1.4; color: #1f2328; }
.ae-notes p { margin: 0.2em 0; }
.ae-notes .ae-empty { color: #6e4b00; background: #fff8e5; border: 1px solid #e6c46a; border-radius: 4px;
  padding: 0.2em 0.5em; }
.ae-notes .ae-contrast { color: #57606a; }
"""
CHECKS_CSS = ".ae-wt tbody th { font-weight: 400; white-space: normal; }"  # the checks are sentences: plain, wrapped


class MaskingPlate(PlateViewer):
    """The masking plate: a mask you tap, the −∞ scores, renormalised weights, outputs and the contrast."""

    state_class = MaskingState
    slug = "masking"
    glue, live = "masking.js", "MaskingLive"  # the browser half (masking.js, beside this file)
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes = with_titles(SCENES, TEXT.scenes, __package__)

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        n = s.n
        d = view_data(s)
        self.mask_src = ColumnDataSource(d["mask"], name="mask")
        self.scores_src = ColumnDataSource(d["scores"], name="scores")
        self.weights_src = ColumnDataSource(d["weights"], name="weights")
        self.cw_src = ColumnDataSource(d["contrast_weights"], name="contrast_weights")
        self.sums_src = ColumnDataSource(d["row_sums"], name="row_sums")
        self.csums_src = ColumnDataSource(d["contrast_row_sums"], name="contrast_row_sums")
        self.output_src = ColumnDataSource(d["output"], name="output")
        self.co_src = ColumnDataSource(d["contrast_output"], name="contrast_output")
        self.norms_src = ColumnDataSource(d["norms"], name="norms")
        self.checks_src = ColumnDataSource(d["checks"], name="checks")

        f = factors(n)
        self.y_range = FactorRange(*f["rows"], name="rows")
        self.x_keys = FactorRange(*f["keys_range"], name="keys_range")
        self.x_sum = FactorRange(*f["keys_sum_range"], name="keys_sum_range")
        self.x_out = FactorRange(*[str(c + 1) for c in range(D_MODEL)], name="out_range")
        self.norm_x = Range1d(0, d["_norm_end"], name="norm_range")

        self.texts = []
        H = 290

        def heat(name, title, width, x_range, source, sums=None):
            f = heatmap_figure(name, x_range, self.y_range, title, width=width, height=H, x_axis_location="above",
                               min_border_left=34, min_border_right=6, min_border_bottom=BORDER_BOTTOM)
            r, t = cells(f, source, "fill", text_color="ink", font_size=font_for(n))
            self.texts.append(t.glyph)
            rs = []
            if sums is not None:
                r2, t2 = cells(f, sums, "fill", text_color="ink", font_size=font_for(n), font_style="bold",
                               line_color=PALETTE["ink"], line_width=1.2)
                rs.append(r2)
                self.texts.append(t2.glyph)
            f.add_tools(HoverTool(renderers=[r, *rs], tooltips="<div style='max-width:300px'>@tip{safe}</div>"))
            return f

        self.mask_plot = heat("mask_plot", "Mask M · tap to flip", 236, self.x_keys, self.mask_src)
        self.scores_plot = heat("scores_plot", SCORES_TITLES[bool(s.contrast)], 286, self.x_keys, self.scores_src)
        self.weights_plot = heat("weights_plot", "Weights · rows sum to 1", 290, self.x_sum,
                                 self.weights_src, self.sums_src)
        self.cw_plot = heat("contrast_weights_plot", "Weights zeroed after", 290, self.x_sum,
                            self.cw_src, self.csums_src)
        self.output_plot = heat("output_plot", "Output = A · V", 200, self.x_out, self.output_src)
        self.co_plot = heat("contrast_output_plot", "Output (zeroed A)", 200, self.x_out, self.co_src)

        nb = figure(name="norms_plot", title="Length ‖o_i‖", width=190, height=H, y_range=self.y_range,
                    x_range=self.norm_x, tools="", toolbar_location=None, x_axis_location="above",
                    min_border_left=34, min_border_right=8, min_border_bottom=BORDER_BOTTOM)
        style_figure(nb)
        nb.title.text_font_size = "11pt"
        nb.ygrid.visible = False
        nb.xaxis.ticker.desired_num_ticks = 3
        nb.hbar(y=dodge("y", 0.18, range=self.y_range), right="before", height=0.32, source=self.norms_src,
                fill_color=PALETTE["output"], line_color=None, legend_label="masked")
        nb.hbar(y=dodge("y", -0.18, range=self.y_range), right="after", height=0.32, source=self.norms_src,
                fill_color="#d0d7de", line_color=PALETTE["muted"], legend_label="zeroed")
        nb.text(x="before", y=dodge("y", 0.18, range=self.y_range), text="before_text", source=self.norms_src,
                x_offset=3, text_baseline="middle", text_font_size="8pt", text_color=PALETTE["ink"])
        nb.text(x="after", y=dodge("y", -0.18, range=self.y_range), text="after_text", source=self.norms_src,
                x_offset=3, text_baseline="middle", text_font_size="8pt", text_color=PALETTE["muted"])
        nb.add_layout(nb.legend[0], "below")
        nb.legend.orientation = "horizontal"
        nb.legend.location = "center"
        nb.legend.border_line_color = None
        nb.legend.label_text_font_size = "8pt"
        nb.legend.glyph_width = 12
        nb.legend.spacing = 0
        nb.legend.padding = 3
        nb.legend.background_fill_alpha = 0.85
        self.norms_plot = nb

        # Controls.
        self.n_w = Slider(name="n", title="Tokens n", start=N_MIN, end=N_MAX, step=1, value=n, width=130)
        self.kind_w = RadioButtonGroup(name="kind", labels=KIND_LABELS, active=KINDS.index(s.kind), width=340,
                                       margin=(22, 10, 5, 10))
        self.p_w = Slider(name="p", title="Padding p (last keys)", start=0, end=n, step=1, value=min(s.p, n), width=140)
        self.w_w = Slider(name="w", title="Window w", start=1, end=n, step=1, value=min(s.w, n), width=120)
        self.causal_w = CheckboxGroup(name="causal_window", labels=["causal window: i − w < j ≤ i"],
                                      active=[0] if s.causal_window else [], width=200, margin=(26, 5, 5, 10))
        self.contrast_w = RadioButtonGroup(name="contrast", labels=VIEW_LABELS, active=1 if s.contrast else 0,
                                           width=430, margin=(22, 10, 5, 10))
        self.reset_w = Button(name="reset", label="Reset", width=70, margin=(22, 5, 5, 5))
        words = texts(s, d)
        self.notes = Div(name="notes", text=words["notes"], width=640, stylesheets=[InlineStyleSheet(css=NOTES_CSS)])
        self.checks_table = Div(name="checks_table", text=words["checks_table"], width=640,
                                stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS + CHECKS_CSS)])
        self.demo_table = Div(name="demo_table", text=words["demo_table"], width=600,
                              stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS)])
        self.demo_intro = Div(name="demo_intro", text=demo_intro_html(), width=600,
                              stylesheets=[InlineStyleSheet(css=NOTES_CSS)], margin=(0, 10))

        # A Div with a name, so that a scene can leave the formula out.
        self.formula_div = Div(name="formula", text=formula_html(*MASK_FORMULA), margin=(0, 10),
                               stylesheets=[InlineStyleSheet(css=MATHML_CSS)])
        recipes = {str(k): {"Q": v[0].tolist(), "K": v[1].tolist(), "V": v[2].tolist()} for k, v in RECIPES.items()}
        models = {
            "recipes": recipes, "kinds": KINDS,
            "mask": self.mask_src, "scores": self.scores_src, "weights": self.weights_src,
            "row_sums": self.sums_src, "output": self.output_src, "cweights": self.cw_src,
            "crow_sums": self.csums_src, "coutput": self.co_src, "norms": self.norms_src,
            "checks": self.checks_src, "checks_table": self.checks_table, "y_range": self.y_range,
            "x_keys": self.x_keys, "x_sum": self.x_sum,
            "norm_x": self.norm_x, "texts": self.texts, "plot": self.mask_plot,
            "weights_plot": self.weights_plot, "cweights_plot": self.cw_plot, "output_plot": self.output_plot,
            "coutput_plot": self.co_plot, "scores_title": self.scores_plot.title, "n": self.n_w, "kind": self.kind_w, "p": self.p_w, "w": self.w_w,
            "causal_window": self.causal_w, "contrast": self.contrast_w, "notes": self.notes,
        }

        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (self.mask_plot, "Grid of the mask M, queries q1 to qn down, keys k1 to kn across: each cell is 0 "
                             "(may attend) or −∞ (blocked). Tab to it and press Space to flip a cell.", True),
            (self.scores_plot, "Heatmap of the scores S/√d_k + M; blocked cells are −∞ (zeroing the weights after "
                               "the softmax instead, the scores S/√d_k alone)."),
            (self.weights_plot, "Heatmap of the weights, the softmax of each row of scores, with each row's sum, "
                                "which stays 1."),
            (self.cw_plot, "Heatmap of the weights when blocked cells are zeroed after the softmax instead, with "
                           "row sums below 1."),
            (self.output_plot, "Heatmap of the output rows, the weights times V."),
            (self.co_plot, "Heatmap of the output rows from the zeroed weights."),
            (self.norms_plot, "Bars of each output row's length, masked before and zeroed after."),
        ], [
            a11y.matrix("Mask (yes: may attend)", self.mask_src, row="y", col="x", value="allowed"),
            a11y.matrix("Scores S/√d_k + M", self.scores_src, row="y", col="x", value="value", digits=3),
            a11y.matrix("Weights", self.weights_src, row="y", col="x", value="value", digits=4),
            a11y.columns("Row sums of the weights", self.sums_src, [("y", "row", None), ("sum", "sum", 6)]),
            a11y.matrix("Output", self.output_src, row="y", col="x", value="value", digits=4),
            a11y.matrix("Weights zeroed after the softmax", self.cw_src, row="y", col="x", value="value", digits=4),
            a11y.columns("Row sums of the zeroed weights", self.csums_src, [("y", "row", None), ("sum", "sum", 6)]),
            a11y.matrix("Output from the zeroed weights", self.co_src, row="y", col="x", value="value", digits=4),
            a11y.columns("Length of each output row", self.norms_src,
                         [("y", "row", None), ("before", "masked before", 4), ("after", "zeroed after", 4)]),
        ], width=1200)
        self.js_models = models

        js = self.js
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))

        # Bokeh reports the second of two taps within 300 ms as a DoubleTap and not as a Tap;
        # each is a flip, or quick taps on two cells would lose the second.
        on_tap = js("MaskingLive.on_tap(a, cb_obj);")
        self.mask_plot.js_on_event(Tap, on_tap)
        self.mask_plot.js_on_event(DoubleTap, on_tap)
        on_widget = js("MaskingLive.on_widget(a);")
        for wdg, attr in [(self.n_w, "value"), (self.kind_w, "active"), (self.p_w, "value"), (self.w_w, "value"),
                          (self.causal_w, "active"), (self.contrast_w, "active")]:
            wdg.js_on_change(attr, on_widget)
        self.reset_w.js_on_event(ButtonClick, js("MaskingLive.on_reset(a);"))

        controls = bk_row(self.kind_w, self.n_w, self.p_w, self.w_w, self.causal_w)
        controls2 = bk_row(self.contrast_w, self.reset_w)
        # The weights, and the outputs, masked before or zeroed after the softmax: one of each pair is
        # shown (the contrast switch), so a scene shows the pair and the plate picks which.
        maps = bk_row(self.mask_plot, self.scores_plot,
                      bk_row(self.weights_plot, self.cw_plot, name="weights_maps"),
                      bk_row(self.output_plot, self.co_plot, name="output_maps"), self.norms_plot)
        self._layout = pn.Column(
            pn.pane.Bokeh(bk_column(controls, maps)),
            pn.Row(
                pn.Column(pn.pane.Bokeh(controls2), pn.pane.Bokeh(self.notes), pn.pane.Bokeh(self.checks_table)),
                pn.Column(
                    pn.pane.Bokeh(self.formula_div),
                    pn.pane.Bokeh(self.demo_intro), pn.pane.Bokeh(self.demo_table),
                ),
            ),
            pn.pane.Bokeh(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state ----------------------------------------------------------------
    def synced(self) -> list[tuple]:
        return [(self.n_w, "value"), (self.kind_w, "active"), (self.p_w, "value"), (self.w_w, "value"),
                (self.causal_w, "active"), (self.contrast_w, "active"), (self.mask_src, "data")]

    def read_page(self, changed: set) -> dict:
        s = self.state
        n = int(self.n_w.value)  # OverflowError for ±Infinity, ValueError for NaN: refused
        if not N_MIN <= n <= N_MAX:
            raise ValueError(f"n = {n} is outside {N_MIN}..{N_MAX}")
        kind = KINDS[int(self.kind_w.active)]
        p = int(np.clip(int(self.p_w.value), 0, n))
        w = int(np.clip(int(self.w_w.value), 1, n))
        cells = s.cells
        if kind == "custom":
            if (self.mask_src, "data") in changed:  # a tap: the page sent its mask
                allowed = list(self.mask_src.data["allowed"])
                if len(allowed) != n * n:
                    raise ValueError(f"the mask needs {n * n} true/false cells, got {len(allowed)}")
                if not all(isinstance(v, (bool, np.bool_)) for v in allowed):
                    raise ValueError(f"the mask's {n * n} cells must each be true or false")
                cells = np.array(allowed, dtype=bool).reshape(n, n)
            elif s.kind != "custom":
                cells = s.mask()  # choosing custom starts from the mask on screen
            if cells is not None:
                cells = fit_cells(cells, n)
        return {"n": n, "kind": kind, "p": p, "w": w, "causal_window": 0 in (self.causal_w.active or []),
                "contrast": int(self.contrast_w.active or 0) == 1, "cells": cells}

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        n = s.n
        d = view_data(s)
        ranges = {"rows": self.y_range, "keys_range": self.x_keys, "keys_sum_range": self.x_sum}
        for name, ids in factors(n).items():
            set_if_changed(ranges[name], "factors", ids)
        set_if_changed(self.norm_x, "end", d["_norm_end"], tol=1e-12)
        set_if_changed(self.scores_plot.title, "text", d["_scores_title"])
        for name, src in zip(SOURCES, (self.mask_src, self.scores_src, self.weights_src, self.sums_src,
                                       self.output_src, self.cw_src, self.csums_src, self.co_src, self.norms_src,
                                       self.checks_src)):
            push(src, d[name], force)
        for name, text in texts(s, d).items():
            set_if_changed(getattr(self, name), "text", text)
        for g in self.texts:
            set_if_changed(g, "text_font_size", font_for(n))
        set_if_changed(self.n_w, "value", n)
        set_if_changed(self.kind_w, "active", KINDS.index(s.kind))
        set_if_changed(self.p_w, "end", n)
        set_if_changed(self.p_w, "value", min(s.p, n))
        set_if_changed(self.p_w, "disabled", s.kind != "padding")
        set_if_changed(self.w_w, "end", n)
        set_if_changed(self.w_w, "value", min(s.w, n))
        set_if_changed(self.w_w, "disabled", s.kind != "window")
        set_if_changed(self.causal_w, "active", [0] if s.causal_window else [])
        set_if_changed(self.causal_w, "disabled", s.kind != "window")
        set_if_changed(self.contrast_w, "active", 1 if s.contrast else 0)
        for f, show in [(self.weights_plot, not s.contrast), (self.output_plot, not s.contrast),
                        (self.cw_plot, s.contrast), (self.co_plot, s.contrast)]:
            set_if_changed(f, "visible", show)

    def __panel__(self):
        return self._layout
