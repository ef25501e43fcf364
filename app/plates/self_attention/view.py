"""The self-attention plate's view: the six heat maps (tokens, scores, weights, output, the
original order, the difference), the seed's one-token row, the controls and the check."""

from __future__ import annotations

import panel as pn
from bokeh.events import ButtonClick
from bokeh.layouts import column as bk_column
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    Div,
    FactorRange,
    InlineStyleSheet,
    LinearColorMapper,
    Slider,
    Spinner,
)

from app.plates.self_attention.data import (
    ENTRIES, SOURCES, glue_data, shown, worked_example, worked_html, worked_sources,
)
from app.plates.self_attention.scenes import SCENES
from app.plates.self_attention.state import MAX_SHUFFLE, N_MAX, N_MIN, SelfAttentionState
from app.shared import a11y
from app.shared.colours import diverging, sequential
from app.shared.heatmap import cells, heatmap_figure
from app.shared.mathml import ATTENTION, formula_html
from app.shared.scenes import with_titles
from app.shared.state import whole_number
from app.shared.text import plate_text
from app.shared.theme import PALETTE
from app.shared.viewer import PlateViewer, push, set_if_changed

TEXT = plate_text(__package__)
# Fixed colour ranges, so colours stay comparable as the controls change (values beyond the
# range take the end colour); they cover every state the plate can show.
RANGES = {"tokens": 3.0, "scores": 6.0, "output": 4.0, "diff": 2.0}
TOOLTIP = "<div style='max-width:360px;white-space:normal;font-size:12px;line-height:1.35'>@text</div>"

CSS = """
.ae-readout { display: flex; flex-direction: column; gap: 2px; font-family: system-ui, sans-serif; }
.ae-big { font-size: 20px; font-weight: 700; color: #1f2328; }
.ae-sub { color: #57606a; font-size: 13px; }
.ae-order { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2328; padding-top: 4px; }
.ae-worked { font-family: system-ui, sans-serif; font-size: 13px; color: #1f2328; line-height: 1.4; }
.ae-message { font-family: system-ui, sans-serif; font-size: 13px; color: #6e4b00; }
.ae-message:not(:empty) { background: #fff8e5; border: 1px solid #e6c46a; border-radius: 4px; padding: 2px 6px; }
"""


def heatmap(name, title, source, mapper, x_range, y_range, width, height, x_label, y_label):
    """A heat map of `source` (x, y, value, label, text): cells coloured by `mapper`, the label
    written on each, its arithmetic (text) on hover."""
    p = heatmap_figure(name, x_range, y_range, title, width=width, height=height, x_axis_location="above")
    cells(p, source, {"field": "value", "transform": mapper}, text="label", size=0.95, tooltip=TOOLTIP)
    p.axis.major_label_text_font_size = "9pt"
    p.axis.axis_label_text_font_size = "9pt"
    p.xaxis.axis_label = x_label
    if y_label:
        p.yaxis.axis_label = y_label
    return p


class SelfAttentionPlate(PlateViewer):
    """All tokens at once: QKᵀ/√d_k, its row softmax and the output as heat maps; shuffle, positions, cross."""

    state_class = SelfAttentionState
    slug = "self-attention"
    glue, live = "self_attention.js", "SelfAttentionLive"  # the browser half (self_attention.js, beside this file)
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes = with_titles(SCENES, TEXT.scenes, __package__)

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        data = worked_sources()
        self.sources = {name: ColumnDataSource({}, name=name) for name in SOURCES}  # filled by _render
        self.worked_src = ColumnDataSource(data["worked_example"], name="worked_example")
        self.worked_out_src = ColumnDataSource(data["worked_output"], name="worked_output")

        signed = diverging(PALETTE["keys"], PALETTE["query"])
        signed_out = diverging(PALETTE["values"], PALETTE["output"])
        mappers = {
            "tokens": LinearColorMapper(palette=signed, low=-RANGES["tokens"], high=RANGES["tokens"]),
            "scores": LinearColorMapper(palette=signed, low=-RANGES["scores"], high=RANGES["scores"]),
            "weights": LinearColorMapper(palette=sequential(PALETTE["weights"]), low=0.0, high=1.0),
            "output": LinearColorMapper(palette=signed_out, low=-RANGES["output"], high=RANGES["output"]),
            "diff": LinearColorMapper(palette=sequential(PALETTE["query"]), low=0.0, high=RANGES["diff"]),
        }
        self.ranges = {k: FactorRange() for k in ("rows", "keys", "keys_sum", "original")}
        self.ranges["entries"] = FactorRange(*ENTRIES)
        r = self.ranges
        H = 330
        self.figs = {
            "tokens": heatmap("tokens_map", "Tokens fed in", self.sources["tokens"], mappers["tokens"],
                              r["entries"], r["rows"], 205, H, "entry", "position, token"),
            "scores": heatmap("scores_map", "Scores QKᵀ/√d_k", self.sources["scores"], mappers["scores"],
                              r["keys"], r["rows"], 385, H, "key (position, token)", None),
            "weights": heatmap("weights_map", "Weights: softmax of each row", self.sources["weights"],
                               mappers["weights"], r["keys_sum"], r["rows"], 420, H,
                               "key (position, token) · Σ = row sum", None),
            "output": heatmap("output_map", "Output rows", self.sources["output"], mappers["output"],
                              r["entries"], r["rows"], 235, 290, "entry", "position, token"),
            "original": heatmap("original_map", "Original order", self.sources["original_output"],
                                mappers["output"], r["entries"], r["original"], 235, 290, "entry",
                                "position, token"),
            "diff": heatmap("diff_map", "|Difference|", self.sources["output_diff"], mappers["diff"],
                            r["entries"], r["rows"], 215, 290, "entry", None),
        }
        # The seed's one-token turn as a 1 × 3 row of weights and its 1 × 2 output.
        wk = heatmap_figure("worked_map", FactorRange("w0", "w1", "w2", "o0", "o1"), FactorRange("q"), title_size=None,
                            width=330, height=78, x_axis_location="above", min_border_left=30)
        wk.rect("x", "y", 0.95, 0.95, source=self.worked_src, line_color=None,
                fill_color={"field": "weight", "transform": mappers["weights"]})
        wk.rect("x", "y", 0.95, 0.95, source=self.worked_out_src, fill_color="white", line_color=PALETTE["output"],
                line_width=2)
        for src in (self.worked_src, self.worked_out_src):
            wk.text("x", "y", text="label", source=src, text_align="center", text_baseline="middle",
                    text_font_size="9pt", text_color=PALETTE["ink"])
        wk.axis.major_label_text_font_size = "9pt"
        self.figs["worked"] = wk

        wf = self.figs["weights"]
        wf.rect("x", "y", 0.95, 0.95, source=self.sources["row_sums"], fill_color="white",
                line_color=PALETTE["muted"], line_width=1)
        wf.text("x", "y", text="label", source=self.sources["row_sums"], text_align="center", text_baseline="middle",
                text_font_size="9pt", text_font_style="bold", text_color=PALETTE["ink"])

        self.n_w = Slider(name="n", title="Tokens n", start=N_MIN, end=N_MAX, step=1, value=s.n, width=170,
                          margin=(5, 15, 5, 5))
        self.shuffle_btn = Button(name="shuffle_button", label="Shuffle the tokens", button_type="primary", width=150,
                                  stylesheets=[a11y.primary_button_style()],
                                  margin=(24, 5, 5, 5))
        self.shuffle_w = Spinner(name="shuffle", title="Shuffle #", low=0, high=MAX_SHUFFLE, step=1, value=s.shuffle,
                                 mode="int", width=80)
        self.original_btn = Button(name="original_button", label="Original order", width=120, margin=(24, 5, 5, 5))
        self.positions_w = CheckboxGroup(name="positions", labels=["Add sinusoidal positions (X + PE)"],
                                         active=[0] if s.positions else [], width=250, margin=(28, 5, 5, 15))
        self.cross_w = CheckboxGroup(name="cross", labels=["Cross-attention: K, V from Y (M = n + 2)"],
                                     active=[0] if s.cross else [], width=290, margin=(28, 5, 5, 5))
        css = [InlineStyleSheet(css=CSS)]
        self.order_div = Div(name="order", text="", width=620, stylesheets=css)
        self.check_div = Div(name="check_readout", text="", width=560, stylesheets=css)
        self.message_div = Div(name="message", text="", width=560, stylesheets=css, css_classes=["ae-message"])
        self.divs = {"order": self.order_div, "check_readout": self.check_div}  # the texts that follow the state
        self.worked_div = Div(name="worked", text=worked_html(*worked_example()), width=560, stylesheets=css)
        self.formula_div = Div(name="formula", width=560,
                               text=formula_html(ATTENTION, "Attention of Q, K, V equals softmax of Q K transpose "
                                                            "over root d k, times V"))

        models = {"data": glue_data(), **self.sources, **{f"range_{k}": v for k, v in self.ranges.items()},
                  "n": self.n_w, "shuffle": self.shuffle_w, "positions": self.positions_w, "cross": self.cross_w,
                  "order": self.order_div, "check": self.check_div, "message": self.message_div}

        f, src = self.figs, self.sources
        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (f["tokens"], "Heatmap of the tokens fed in: one row per token (its position and letter), one column per "
                          "entry of its vector.", True),
            (f["scores"], "Heatmap of the scores Q Kᵀ/√d_k: one row per query token, one column per key token."),
            (f["weights"], "Heatmap of the weights, the softmax of each row of scores, with each row's sum (1)."),
            (f["output"], "Heatmap of the output rows, each a weighted average of the value rows."),
            (f["original"], "Heatmap of the output for the tokens in their original order."),
            (f["diff"], "Heatmap of the absolute difference between the shuffled output, put back in order, and "
                        "the original output: zero without positions."),
            (f["worked"], "The weights of one row and the output they give, worked out."),
        ], [
            a11y.matrix("Tokens fed in", src["tokens"], row="y", col="c", value="value", digits=3),
            a11y.matrix("Scores QKᵀ/√d_k", src["scores"], row="y", col="x", value="value", digits=3),
            a11y.matrix("Weights", src["weights"], row="y", col="x", value="value", digits=4),
            a11y.columns("Row sums of the weights", src["row_sums"], [("y", "row", None), ("sum", "sum", 6)]),
            a11y.matrix("Output rows", src["output"], row="y", col="c", value="value", digits=4),
            a11y.matrix("Output in the original order", src["original_output"], row="y", col="c", value="value",
                        digits=4),
            a11y.matrix("|Difference|", src["output_diff"], row="y", col="c", value="value", digits=6),
        ], width=1200)
        self.js_models = models

        js = self.js
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))
        recompute = js("SelfAttentionLive.on_widget(a);")
        self.n_w.js_on_change("value", recompute)
        self.shuffle_w.js_on_change("value", recompute)
        self.positions_w.js_on_change("active", recompute)
        self.cross_w.js_on_change("active", recompute)
        self.shuffle_btn.js_on_event(ButtonClick, js("SelfAttentionLive.on_shuffle(a);"))
        self.original_btn.js_on_event(ButtonClick, js("SelfAttentionLive.on_original(a);"))

        self._layout = pn.Column(
            pn.Row(*(pn.pane.Bokeh(m) for m in (self.n_w, self.shuffle_btn, self.shuffle_w, self.original_btn,
                                                 self.positions_w, self.cross_w))),
            pn.Row(pn.pane.Bokeh(self.order_div), pn.pane.Bokeh(self.message_div)),
            # The output opens the second row, beside the original order and their difference, so
            # that a scene showing two of them shows them side by side.
            pn.Row(*(pn.pane.Bokeh(f[k]) for k in ("tokens", "scores", "weights"))),
            pn.Row(pn.pane.Bokeh(f["output"]), pn.pane.Bokeh(f["original"]), pn.pane.Bokeh(f["diff"]),
                   pn.Column(pn.pane.Bokeh(self.check_div), pn.pane.Bokeh(self.formula_div),
                             pn.pane.Bokeh(self.worked_div), pn.pane.Bokeh(wk))),
            pn.pane.Bokeh(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state ----------------------------------------------------------------
    _page_drew = False  # the page replaced every source with mirror.js's numbers since Python's last answer

    def synced(self) -> list[tuple]:
        return [(self.n_w, "value"), (self.shuffle_w, "value"), (self.positions_w, "active"),
                (self.cross_w, "active")]

    def read_page(self, changed: set) -> dict:
        n = whole_number(self.n_w.value, "Tokens n", N_MIN, N_MAX)
        k = whole_number(self.shuffle_w.value, "Shuffle #", 0, MAX_SHUFFLE)
        set_if_changed(self.message_div, "text", "")
        # Every widget change made the page replace all the sources with mirror.js's numbers
        # (self_attention.js), so the answer resends all of attention_core's, even those equal
        # to Python's last copy; a gesture's end with no change since (one click, already
        # answered) leaves Python's own numbers there, and nothing is resent.
        self._page_drew = bool(changed)
        return {"n": n, "shuffle": k, "positions": 0 in (self.positions_w.active or []),
                "cross": 0 in (self.cross_w.active or [])}

    def refused(self, exc: Exception) -> None:
        """Say why on the page; put the widgets back, unless a box was emptied (it stays empty and
        the plate keeps showing the last good state)."""
        set_if_changed(self.message_div, "text", str(exc))
        if self.n_w.value is not None and self.shuffle_w.value is not None:
            super().refused(exc)

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs (everything after a page's change)."""
        s = self.state
        force = force or self._page_drew
        self._page_drew = False
        page = shown(s)
        # Widgets first: a widget change makes the browser recompute with mirror.js, and
        # attention_core's numbers, sent next, then land on top.
        set_if_changed(self.n_w, "value", s.n)
        set_if_changed(self.shuffle_w, "value", s.shuffle)
        set_if_changed(self.positions_w, "active", [0] if s.positions else [])
        set_if_changed(self.cross_w, "active", [0] if s.cross else [])
        for name, factors in page["factors"].items():
            set_if_changed(self.ranges[name], "factors", factors)
        for name in SOURCES:
            resend(self.sources[name], page["sources"][name], force)
        for name, text in page["texts"].items():
            set_if_changed(self.divs[name], "text", text)

    def __panel__(self):
        return self._layout


def resend(source: ColumnDataSource, data: dict, force: bool) -> None:
    """push() the data when it differs; with `force`, send it even when it equals Python's copy.

    Bokeh sends nothing for an assignment equal to the current value, but the browser may hold
    mirror.js's numbers by then; trigger() sends Python's current data regardless.
    """
    if not push(source, data) and force:
        source.trigger("data", source.data, source.data)
