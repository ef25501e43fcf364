"""The soft-lookup plate's view: the vectors to drag, the weight bars, the output among the values."""

from __future__ import annotations

import math

import numpy as np
import panel as pn
from bokeh.events import ButtonClick, Pan, PanEnd, PanStart
from bokeh.layouts import column as bk_column
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    Div,
    FactorRange,
    InlineStyleSheet,
    LabelSet,
    Range1d,
    Select,
    Slider,
)
from bokeh.plotting import figure

import attention_core as ac
from app.plates.lookup.data import READOUT_CSS, sources, table_html, texts
from app.plates.lookup.scenes import SCENES, STILL
from app.plates.lookup.state import (
    DK_CHOICES, KEY_NAMES, MAX_LENGTH, MIN_LENGTH, PLOT_EXTENT, VALUES, LookupState, clean_keys,
)
from app.shared import a11y, html_table
from app.shared.scenes import with_titles
from app.shared.text import plate_text
from app.shared.theme import PALETTE, style_figure
from app.shared.vectors import draw_query_and_keys
from app.shared.viewer import PlateViewer, live_layer, push, set_if_changed

TEXT = plate_text(__package__)


class LookupPlate(PlateViewer):
    """The soft-lookup plate: five 2D keys, a query to turn and lengthen, weight bars and the output."""

    state_class = LookupState
    glue, live = "lookup.js", "LookupLive"  # the browser half (lookup.js, beside this file)
    slug = "lookup"
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes, still = with_titles(SCENES, TEXT.scenes, __package__), STILL

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        data = sources(s)
        self.query_src = ColumnDataSource(data["query"], name="query")
        self.keys_src = ColumnDataSource(data["keys"], name="keys")
        self.weights_src = ColumnDataSource(data["weights"], name="weights")
        self.output_src = ColumnDataSource(data["output"], name="output")
        self.refs_src = ColumnDataSource(data["hard_lookup"], name="hard_lookup")

        # Left: the query and keys as arrows from the origin.
        p = figure(
            name="vectors", width=460, height=460, x_range=Range1d(-PLOT_EXTENT, PLOT_EXTENT),
            y_range=Range1d(-PLOT_EXTENT, PLOT_EXTENT), tools="", toolbar_location=None,
            title="Drag the query (◆) or a key (●)", tags=["ae-keep-shape"],
        )
        style_figure(p)
        p.xaxis.axis_label, p.yaxis.axis_label = "x", "y"
        draw_query_and_keys(p, self.keys_src, self.query_src)
        self.plot = p

        # Right: the weights as bars, with their percentages.
        b = figure(name="bars", width=440, height=250, x_range=FactorRange(*KEY_NAMES), y_range=Range1d(0, 1.12),
                   tools="", toolbar_location=None, title="Weight of each key (sums to 1)")
        style_figure(b)
        b.vbar(x="key", top="weight", width=0.7, source=self.weights_src, fill_color=PALETTE["weights"],
               line_color=PALETTE["ink"])
        b.add_layout(LabelSet(x="key", y="weight", text="pct", source=self.weights_src, text_align="center",
                              y_offset=4, text_font_size="11pt", text_color=PALETTE["ink"]))
        b.yaxis.axis_label = "weight"

        # Below the bars: where the output sits among the values.
        sc = figure(name="scale", width=440, height=140, x_range=Range1d(5, 55), y_range=Range1d(-2.2, 1.6),
                    tools="", toolbar_location=None, title="The output among the values")
        style_figure(sc)
        sc.yaxis.visible = False
        sc.ygrid.visible = False
        sc.xaxis.ticker = VALUES.tolist()
        sc.scatter(VALUES.tolist(), [0] * 5, size=9, marker="circle", color=PALETTE["values"], legend_label="values")
        sc.scatter(x=[30.0], y=[0], size=14, marker="triangle", fill_color="white", line_color=PALETTE["muted"],
                         line_width=2, legend_label="plain average")
        # The legend shows the moving markers through stand-ins with one point far off the axis
        # (the legend draws a marker from a renderer's first point): a legend follows its
        # renderers' sources, so entries on the live sources would repaint the plot's primary
        # canvas at every move (see live_layer).
        hard_style = dict(size=14, marker="square", fill_color="white", line_color=PALETTE["ink"], line_width=2)
        out_style = dict(size=20, marker="diamond", fill_color=PALETTE["output"], line_color=PALETTE["ink"],
                         line_width=1.5)
        sc.scatter(x=[-1e6], y=[0], legend_label="hard lookup", **hard_style)
        sc.scatter(x=[-1e6], y=[0], legend_label="output", **out_style)
        sc.scatter("x", 0, source=self.refs_src, **hard_style)
        sc.scatter("value", 0, source=self.output_src, **out_style)
        sc.add_layout(LabelSet(x="value", y=0, text="label", source=self.output_src, y_offset=13, text_align="center",
                               text_font_size="11pt", text_font_style="bold", text_color=PALETTE["ink"]))
        sc.legend.orientation = "horizontal"
        sc.legend.location = "bottom_center"
        sc.legend.label_text_font_size = "9pt"
        sc.legend.background_fill_alpha = 0.8
        sc.legend.border_line_color = None
        for fig in (p, b, sc):
            live_layer(fig, self.query_src, self.keys_src, self.weights_src, self.output_src, self.refs_src)

        # Controls.
        self.angle_w = Slider(name="angle", title="Query angle (°)", start=0, end=360, step=1, value=s.angle,
                              format="0[.]0", width=440)
        self.length_w = Slider(name="length", title="Query length", start=MIN_LENGTH, end=MAX_LENGTH, step=0.05,
                               value=s.length, format="0[.]00", width=440)
        self.dk_w = Select(name="d_k", title="Width d_k", value=str(s.d_k), options=[str(d) for d in DK_CHOICES],
                           width=110)
        self.scaled_w = CheckboxGroup(name="scaled", labels=["Divide scores by √d_k"], active=[0] if s.scaled else [],
                                      width=200, margin=(28, 5, 5, 15))
        self.reset_w = Button(name="reset", label="Reset", width=90, margin=(24, 5, 5, 5))
        self.readout = Div(name="readout", text="", width=440, stylesheets=[InlineStyleSheet(css=READOUT_CSS)])
        self.table = Div(name="table", text=table_html(self.weights_src.data), width=440,
                         stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS)])

        models = {"query": self.query_src, "keys": self.keys_src, "weights": self.weights_src,
                  "output": self.output_src, "refs": self.refs_src, "table": self.table, "plot": p, "angle": self.angle_w,
                  "length": self.length_w, "dk": self.dk_w, "scaled": self.scaled_w, "readout": self.readout}

        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (p, "Query and keys as arrows from the origin in the plane: the query a vermillion diamond, the five "
                "keys blue circles labelled with their values 10 to 50.", True),
            (b, "Bar chart of the softmax weight of each of the five keys; the weights add up to 1."),
            (sc, "Number line from 5 to 55 with the five values, the plain average 30, the hard lookup and the "
                 "output, a blend of the values."),
        ], [
            a11y.columns("Weights", self.weights_src, [("key", "key", None), ("value", "value", 0),
                                                       ("score", "raw score", 3), ("scaled", "into softmax", 3),
                                                       ("weight", "weight", 4), ("weighted", "weight × value", 3)]),
            a11y.columns("Output", self.output_src, [("value", "output", 3)]),
            a11y.columns("Keys", self.keys_src, [("name", "key", None), ("x", "x", 2), ("y", "y", 2)]),
            a11y.columns("Query", self.query_src, [("x", "x", 2), ("y", "y", 2)]),
        ], width=880)
        self.js_models = models

        js = self.js
        p.js_on_event(PanStart, js("LookupLive.on_pan_start(a, cb_obj);"))
        p.js_on_event(Pan, js("LookupLive.on_pan(a, cb_obj);"))
        p.js_on_event(PanEnd, js("LookupLive.on_pan_end(a, cb_obj);"))
        on_slider = js("LookupLive.on_angle_or_length(a);")
        self.angle_w.js_on_change("value", on_slider)
        self.length_w.js_on_change("value", on_slider)
        on_setting = js("LookupLive.on_setting(a);")
        self.dk_w.js_on_change("value", on_setting)
        self.scaled_w.js_on_change("active", on_setting)
        self.reset_w.js_on_event(ButtonClick, js("LookupLive.on_reset(a);"))
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))

        self._layout = pn.Row(
            pn.pane.Bokeh(p),
            pn.Column(
                pn.pane.Bokeh(b), pn.pane.Bokeh(sc), pn.pane.Bokeh(self.readout),
                pn.pane.Bokeh(bk_column(self.angle_w, self.length_w)),
                pn.Row(pn.pane.Bokeh(self.dk_w), pn.pane.Bokeh(self.scaled_w), pn.pane.Bokeh(self.reset_w)),
                pn.pane.Bokeh(self.table),
            ),
        )
        self._layout = pn.Column(self._layout, pn.pane.Bokeh(bk_column(self.a11y_toggle, self.a11y_view)))

    # --- browser -> state ----------------------------------------------------------------
    def synced(self) -> list[tuple]:
        return [(self.angle_w, "value"), (self.length_w, "value"), (self.dk_w, "value"), (self.scaled_w, "active"),
                (self.keys_src, "data"), (self.query_src, "data")]

    def read_page(self, changed: set) -> dict:
        keys = clean_keys(np.column_stack([self.keys_src.data["x"], self.keys_src.data["y"]]))  # (5, 2)
        # The sliders say what the student chose when they moved (a drag moves them too);
        # otherwise the query's place does.
        if {(self.angle_w, "value"), (self.length_w, "value")} & changed:
            angle, length = float(self.angle_w.value), float(self.length_w.value)
        else:
            q = np.array([self.query_src.data["x"][0], self.query_src.data["y"][0]], dtype=float)  # (2,)
            angle, length = (float(v) for v in ac.polar(q))
        if not (math.isfinite(angle) and math.isfinite(length)):
            raise ValueError("the query must be finite")
        d_k = int(self.dk_w.value)
        if d_k not in DK_CHOICES:
            raise ValueError(f"d_k {d_k} is not one of {DK_CHOICES}")
        return {"keys": keys, "d_k": d_k, "scaled": 0 in (self.scaled_w.active or []),
                "angle": angle % 360.0, "length": float(np.clip(length, MIN_LENGTH, MAX_LENGTH))}

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        data = sources(s)
        for name, src in (("query", self.query_src), ("keys", self.keys_src), ("weights", self.weights_src),
                          ("output", self.output_src), ("hard_lookup", self.refs_src)):
            push(src, data[name], force)
        for name, text in texts(s).items():
            set_if_changed(getattr(self, name), "text", text)
        set_if_changed(self.angle_w, "value", s.angle, tol=1e-9)
        set_if_changed(self.length_w, "value", s.length, tol=1e-9)
        set_if_changed(self.dk_w, "value", str(s.d_k))
        set_if_changed(self.scaled_w, "active", [0] if s.scaled else [])

    def __panel__(self):
        return self._layout
