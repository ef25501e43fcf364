"""Plate 1, soft lookup (after Vol. IV, Plate 2 "Queries, Keys and Values").

What it teaches: attention is a dictionary lookup that never fails. A query is compared with
five keys by dot product, a softmax turns the scores into weights that sum to one, and the
output is the weighted average of the values 10, 20, 30, 40 and 50, which sits between the
plain average (30) and the hard lookup (the best key's value). Lengthening the query sharpens
the lookup; the √d_k scale keeps that sharpness from growing with the width.

Open it: `attention-explorable serve` then http://localhost:5006/lookup, or
`attention-explorable export OUTDIR` for one offline HTML file, or in Jupyter
`from app.plates.lookup import LookupPlate; LookupPlate()`.

Drag the query or any key (mouse or touch); the live path in app/static/lookup.js recomputes
at every pointer move with mirror.js, and this module recomputes the same numbers with
attention_core when the gesture ends (the authority) and keeps the URL in step.

Named models (Bokeh.documents[0].get_model_by_name(NAME)):
  sources  "query" (x, y), "keys" (x, y, value, name), "weights" (key, value, weight, pct, score,
           scaled, weighted), "output" (value, label), "hard_lookup" (x, label)
  plots    "vectors" (the query and keys, dragged), "bars" (the weights), "scale" (the values,
           the output, the plain average and the hard lookup)
  widgets  "angle", "length", "d_k", "scaled", "reset"; divs "readout", "table"
"""

from __future__ import annotations

import math

import numpy as np
import panel as pn
import param
from bokeh.events import ButtonClick, Pan, PanEnd, PanStart
from bokeh.layouts import column as bk_column
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    CustomJS,
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

from app.shared import a11y
from app.shared import html_table
from app.shared.formatting import fix, pct
from app.shared.panes import bokeh_pane
from app.runtime.scripts import custom_js_code
from app.shared.state import NUMBER, PlateState
from app.shared.viewer import PlateViewer, live_layer, push, set_if_changed
from app.shared.vectors import draw_query_and_keys
from app.shared.theme import PALETTE, style_figure

# The layout found by app/plates/lookup_layout.py: five keys of length 2, a query of length 1.5
# at 40°. With plain dot products it prints the plate's 55.1 %, 16.84, 69.0 % and 23.4 %.
KEY_ANGLES = (0.0, 70.0, 150.0, 225.0, 300.0)
KEY_LENGTH = 2.0
DEFAULT_KEYS = ac.cartesian(np.array(KEY_ANGLES), KEY_LENGTH)  # (5, 2)
VALUES = np.array([10.0, 20.0, 30.0, 40.0, 50.0])  # (5,)
KEY_NAMES = [f"k{j + 1}" for j in range(len(VALUES))]
DK_CHOICES = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
MIN_LENGTH, MAX_LENGTH, MAX_COORD = 0.1, 5.0, 5.0
PLOT_EXTENT = 5.6


def width_factor(d_k: int) -> float:
    """How much a dot product grows when two of d_k entries stand for the whole vector.

    The plate draws two coordinates. Imagine each vector d_k entries wide, the other entries
    behaving like these two: a sum of d_k products grows like √d_k, so the score at width d_k
    is q·k · √(d_k / 2). At d_k = 2 it is the plain dot product.
    """
    return math.sqrt(d_k / 2)


class LookupState(PlateState):
    """Everything that defines what the soft-lookup plate shows; it round-trips through the URL."""

    angle = param.Number(40.0, bounds=(0.0, 360.0), doc="Direction of the query, degrees counter-clockwise from +x.")
    length = param.Number(1.5, bounds=(MIN_LENGTH, MAX_LENGTH), doc="Length of the query; longer means a sharper lookup.")
    d_k = param.Selector(default=2, objects=DK_CHOICES, doc="Width of the imagined query and keys; raw scores grow like √d_k.")
    scaled = param.Boolean(False, doc="Divide the scores by √d_k before the softmax (scaled dot-product attention).")
    keys = param.Array(DEFAULT_KEYS.copy(), doc="The five keys' 2D coordinates, shape (5, 2), each within ±5.")

    url_fields = ("angle", "length", "d_k", "scaled", "keys")

    def __init__(self, **params):
        super().__init__(**params)
        self.keys = clean_keys(self.keys)

    # --- derived numbers -----------------------------------------------------------------
    @property
    def query(self) -> np.ndarray:
        return ac.cartesian(self.angle % 360.0, self.length)  # (2,)

    @property
    def scale(self) -> float:
        return ac.default_scale(self.d_k) if self.scaled else 1.0

    def steps(self) -> ac.LookupSteps:
        """attention_core's record of this lookup (the numbers the plate shows)."""
        q = self.query * width_factor(self.d_k)  # (2,) the query as seen at width d_k
        return ac.lookup_steps(q, self.keys, VALUES, scale=self.scale)

    def set_query_xy(self, x: float, y: float) -> None:
        """Point the query at (x, y), clamping its length to the slider's range."""
        angle, length = ac.polar(np.array([x, y], dtype=float))
        self.param.update(angle=float(angle), length=float(np.clip(length, MIN_LENGTH, MAX_LENGTH)))

    def reset(self) -> None:
        super().reset()
        self.keys = DEFAULT_KEYS.copy()

    # --- URL -----------------------------------------------------------------------------
    def url_value(self, name: str) -> str:
        if name == "keys":
            return ";".join(f"{x:.6g},{y:.6g}" for x, y in self.keys)
        return super().url_value(name)

    def parse_url_value(self, name: str, text: str):
        if name == "keys":
            rows = text.split(";")
            if len(rows) != len(VALUES):
                raise ValueError(f"expected {len(VALUES)} points 'x,y' separated by ';'")
            pts = []
            for r in rows:
                xy = r.split(",")
                if len(xy) != 2:
                    raise ValueError("each key is 'x,y'")
                if not (NUMBER.match(xy[0]) and NUMBER.match(xy[1])):
                    raise ValueError("each key is 'x,y' with plain numbers")
                pts.append([float(xy[0]), float(xy[1])])
            arr = np.array(pts)  # (5, 2)
            if not np.all(np.isfinite(arr)):
                raise ValueError("not finite")
            return clean_keys(arr)
        return super().parse_url_value(name, text)

    def _was_clamped(self, name, text, value) -> bool:
        if name == "keys":
            raw = np.array([[float(v) for v in r.split(",")] for r in text.split(";")])  # (5, 2)
            return bool(np.any(np.abs(raw) > MAX_COORD))
        return super()._was_clamped(name, text, value)

    def clamp_notice(self, name: str, value) -> str:
        if name == "keys":
            return f"'keys' moved inside ±{MAX_COORD:g}, the nearest allowed positions"
        return super().clamp_notice(name, value)


def clean_keys(keys) -> np.ndarray:
    """Keys as a (5, 2) float array within ±MAX_COORD; raises ValueError naming the shape otherwise."""
    arr = np.asarray(keys, dtype=float)  # (5, 2)
    if arr.shape != (len(VALUES), 2):
        raise ValueError(f"the lookup plate needs keys of shape (5, 2), got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("keys must be finite")
    return np.clip(arr, -MAX_COORD, MAX_COORD)  # (5, 2)


READOUT_CSS = """
.ae-readout { display: flex; flex-direction: column; gap: 2px; font-family: system-ui, sans-serif; }
.ae-big { font-size: 22px; font-weight: 700; color: #1f2328; }
.ae-sub { color: #57606a; font-size: 14px; }
"""


def readout_html(output: float, hard: float, hard_key: int) -> str:
    """The output line under the plot; lookup.js's readout_html writes the same text."""
    return (
        "<div class='ae-readout'><span class='ae-big'>output = " + fix(output, 2)
        + "</span><span class='ae-sub'>hard lookup: " + fix(hard, 0) + f" (k{hard_key + 1})"
        + " · plain average: 30</span></div>"
    )


# The table under the bars (app/html_table.py): rewritten a few times a second during a gesture by
# lookup.js's refresh_table. (title, column of the weights source, decimals): the bars' own numbers.
TABLE_LABEL = "Scores and weights of the five keys"
TABLE_COLUMNS = (("value", "value", 0), ("raw score", "score", 3), ("into softmax", "scaled", 3),
                 ("weight", "weight", 4), ("weight × value", "weighted", 3))


def table_html(weights: dict) -> str:
    """The scores and weights of the five keys as a table; lookup.js's table_html writes the same."""
    columns = [("key", "row")] + [(t, "num") for t, _, _ in TABLE_COLUMNS]
    rows = [[k] + [fix(float(weights[c][j]), d) for _, c, d in TABLE_COLUMNS] for j, k in enumerate(weights["key"])]
    return html_table.table_html(TABLE_LABEL, columns, rows)


def keys_data(keys: np.ndarray) -> dict:
    return {"x": keys[:, 0].tolist(), "y": keys[:, 1].tolist(), "value": VALUES.tolist(),
            "name": [f"{n} · {v:g}" for n, v in zip(KEY_NAMES, VALUES)]}


class LookupPlate(PlateViewer):
    """The soft-lookup plate: five 2D keys, a query to turn and lengthen, weight bars and the output."""

    state_class = LookupState
    glue, live = "lookup.js", "LookupLive"  # the browser half (app/static/lookup.js)
    slug = "lookup"
    title = "Soft lookup"
    summary = "A query compared with five keys: softmax weights and a blend of the values, live as you drag."

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        q = s.query
        self.query_src = ColumnDataSource({"x": [float(q[0])], "y": [float(q[1])]}, name="query")
        self.keys_src = ColumnDataSource(keys_data(s.keys), name="keys")
        zeros = [0.0] * len(VALUES)
        self.weights_src = ColumnDataSource(
            {"key": KEY_NAMES, "value": VALUES.tolist(), "weight": zeros, "pct": [""] * 5,
             "score": zeros, "scaled": zeros, "weighted": zeros},
            name="weights",
        )
        self.output_src = ColumnDataSource({"value": [0.0], "label": [""]}, name="output")
        self.refs_src = ColumnDataSource({"x": [0.0], "label": [""]}, name="hard_lookup")

        # Left: the query and keys as arrows from the origin.
        p = figure(
            name="vectors", width=460, height=460, x_range=Range1d(-PLOT_EXTENT, PLOT_EXTENT),
            y_range=Range1d(-PLOT_EXTENT, PLOT_EXTENT), tools="", toolbar_location=None,
            title="Drag the query (◆) or a key (●)",
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

        defaults = {"angle": LookupState.param.angle.default, "length": LookupState.param.length.default,
                    "d_k": LookupState.param.d_k.default, "scaled": LookupState.param.scaled.default,
                    "keys_x": DEFAULT_KEYS[:, 0].tolist(), "keys_y": DEFAULT_KEYS[:, 1].tolist()}
        models = {"defaults": defaults, "query": self.query_src, "keys": self.keys_src, "weights": self.weights_src,
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

        def js(call: str, **extra) -> CustomJS:
            return CustomJS(args={**models, **extra}, code=custom_js_code("lookup.js", call, [*models, *extra]))

        p.js_on_event(PanStart, js("LookupLive.on_pan_start(a, cb_obj);"))
        p.js_on_event(Pan, js("LookupLive.on_pan(a, cb_obj);"))
        p.js_on_event(PanEnd, js("LookupLive.on_pan_end(a, cb_obj);"))
        on_slider = js("LookupLive.on_angle_or_length(a);")
        self.angle_w.js_on_change("value", on_slider)
        self.length_w.js_on_change("value", on_slider)
        on_setting = js("LookupLive.on_setting(a);")
        self.dk_w.js_on_change("value", on_setting)
        self.scaled_w.js_on_change("active", on_setting)
        self.reset_w.js_on_event(ButtonClick, js("LookupLive.on_reset(a, defaults);"))
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))

        # Python follows what a served page sends. A served page's own changes end with a commit ("busy" off on the plot); single widget
        # messages are only folded in after a short wait, by which time a browser that is
        # leading a burst has said "busy" (its callbacks run a moment after the value is sent).
        self._pending = None
        for model, attr in [(self.angle_w, "value"), (self.length_w, "value"), (self.dk_w, "value"),
                            (self.scaled_w, "active"), (self.keys_src, "data")]:
            model.on_change(attr, self._from_widget)
        for model, attr in [(self.query_src, "data"), (p, "tags")]:
            model.on_change(attr, self._from_browser)

        self._layout = pn.Row(
            bokeh_pane(p),
            pn.Column(
                bokeh_pane(b), bokeh_pane(sc), bokeh_pane(self.readout),
                bokeh_pane(bk_column(self.angle_w, self.length_w)),
                pn.Row(bokeh_pane(self.dk_w), bokeh_pane(self.scaled_w), bokeh_pane(self.reset_w)),
                bokeh_pane(self.table),
            ),
        )
        self._layout = pn.Column(self._layout, bokeh_pane(bk_column(self.a11y_toggle, self.a11y_view)))

    # --- browser -> state ----------------------------------------------------------------
    WIDGET_WAIT_MS = 300

    def _from_widget(self, attr, old, new) -> None:
        doc = self.plot.document
        if getattr(self, "_rendering", False):
            return
        if doc is None or doc.session_context is None:  # a notebook or a test: fold in at once
            self._from_browser(attr, old, new)
        elif self._pending is None:
            self._pending = doc.add_timeout_callback(self._widget_wait_over, self.WIDGET_WAIT_MS)

    def _widget_wait_over(self) -> None:
        self._pending = None
        self._from_browser(None, None, None)

    def _from_browser(self, attr, old, new) -> None:
        """Fold what the browser sent into the state, which clamps and validates it."""
        if getattr(self, "_rendering", False) or "busy" in (self.plot.tags or []):
            return  # our own echo, or a gesture in progress (the browser leads until it ends)
        try:
            keys = clean_keys(np.column_stack([self.keys_src.data["x"], self.keys_src.data["y"]]))  # (5, 2)
            angle, length = self._query_from_browser()
            if not (math.isfinite(angle) and math.isfinite(length)):
                raise ValueError("non-finite query")
            d_k = int(self.dk_w.value)
            if d_k not in DK_CHOICES:
                raise ValueError(f"d_k {d_k} is not one of {DK_CHOICES}")
        except (KeyError, IndexError, TypeError, ValueError):
            self._render(force=True)  # put the browser back to the last good state
            return
        self.state.param.update(
            keys=keys, d_k=d_k, scaled=0 in (self.scaled_w.active or []),
            angle=float(angle) % 360.0, length=float(np.clip(length, MIN_LENGTH, MAX_LENGTH)),
        )
        self._render()

    def _query_from_browser(self) -> tuple[float, float]:
        """The query the browser means: its sliders if they moved away from the state, else the
        query's position (a drag moves both; a late answer of ours may have moved only the
        position during a slider burst, and then the sliders say what the student chose)."""
        s = self.state
        angle, length = float(self.angle_w.value), float(self.length_w.value)
        turned = min(abs(angle - s.angle), abs(abs(angle - s.angle) - 360.0))
        if turned > 1e-9 or abs(length - s.length) > 1e-9:
            return angle, length
        q_angle, q_length = ac.polar(np.array([self.query_src.data["x"][0], self.query_src.data["y"][0]]))
        return float(q_angle), float(q_length)

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        st = s.steps()
        q = s.query
        hard = float(VALUES[st.winner])
        self._rendering = True
        try:
            push(self.query_src, {"x": [float(q[0])], "y": [float(q[1])]}, force)
            push(self.keys_src, keys_data(s.keys), force)
            weights = {
                "key": KEY_NAMES, "value": VALUES.tolist(), "weight": st.weight.tolist(),
                "pct": [pct(w) for w in st.weight], "score": st.score.tolist(),
                "scaled": st.scaled.tolist(), "weighted": st.weighted.tolist()}
            push(self.weights_src, weights, force)
            set_if_changed(self.table, "text", table_html(weights))
            push(self.output_src, {"value": [float(st.output)], "label": [f"output {fix(float(st.output), 2)}"]}, force)
            push(self.refs_src, {"x": [hard], "label": [f"hard lookup {fix(hard, 0)}"]}, force)
            set_if_changed(self.angle_w, "value", s.angle, tol=1e-9)
            set_if_changed(self.length_w, "value", s.length, tol=1e-9)
            set_if_changed(self.dk_w, "value", str(s.d_k))
            set_if_changed(self.scaled_w, "active", [0] if s.scaled else [])
            set_if_changed(self.readout, "text", readout_html(float(st.output), hard, st.winner))
        finally:
            self._rendering = False

    def __panel__(self):
        return self._layout


LookupPlate.lead = """
A dictionary returns the value of the one key that equals the query. Attention scores the query
against **every** key (a dot product), turns the scores into weights with a softmax (all
positive, adding to 1) and returns the weighted average of the values. Drag the query or a key.
"""

LookupPlate.explanation = """
Here the five keys carry the values 10, 20, 30, 40 and 50. With the query at 40°, between
k1 and k2, key k2 wins 55.1 % of the weight and the output is 16.84: mostly k2's 20, with
some of every other value mixed in. Drag the query longer and the scores spread apart, so
the softmax picks more decisively (69.0 % at length 4); make it short and every key gets about
a fifth (23.4 % at most at length 0.1), pulling the output toward the plain average, 30.

**Width and scale.** The picture shows two coordinates of vectors that, in a real model, have
d_k entries. A dot product adds d_k products, so its typical size grows like √d_k; the plate
multiplies q·k by √(d_k / 2) to show that growth (at d_k = 2 the score is the plain dot
product). Raise d_k with scaling off and the lookup hardens toward a one-hot choice. Tick
*Divide scores by √d_k* and the growth cancels: the weights stay the same at every width.
"""
