"""The scaling plate's view: the score histogram, the flat-line chart, the softmax Jacobian, the
entropy and the saturated/responsive contrast, with the width slider and the scaling box."""

from __future__ import annotations

import math

import panel as pn
from bokeh.events import ButtonClick, DoubleTap, Pan, PanEnd, PanStart, Tap
from bokeh.layouts import column as bk_column
from bokeh.models import (
    BoxAnnotation,
    Button,
    CheckboxGroup,
    ColumnDataSource,
    CustomJSTickFormatter,
    Div,
    FactorRange,
    FixedTicker,
    InlineStyleSheet,
    Label,
    LabelSet,
    Legend,
    LegendItem,
    LinearColorMapper,
    Range1d,
    Slider,
    Span,
)
from bokeh.plotting import figure

from app.plates.scaling.data import (
    CONTRAST, FLAT_LABEL_Y, ITEM_COLORS, ITEMS, annotations, case_name, live_sources, sources, texts,
)
from app.plates.scaling.formulas import FORMULAS, FORMULAS_CSS
from app.plates.scaling.scenes import SCENES
from app.plates.scaling.state import BASE, ScalingState
from app.shared import a11y
from app.shared.colours import diverging
from app.shared.formatting import fix
from app.shared.heatmap import cells, heatmap_figure
from app.shared.scenes import with_titles
from app.shared.state import whole_number
from app.shared.text import plate_text
from app.shared.theme import PALETTE, style_figure
from app.shared.viewer import PlateViewer, live_layer, push, set_if_changed

TEXT = plate_text(__package__)

ITEM_LABELS = ["α1: score 2√d", "α2: score √d", "α3: score 0"]  # raw; divided by √d the scores are 2, 1, 0
BAND = 3.0  # the ±3 band: where 99.7 % of unit-variance scores fall
STD_LABEL_Y = 168  # screen px above the histogram frame's bottom
JAC_LIMIT = 0.25  # a diagonal entry α(1 − α) is at most 1/4
HIST_COLOR = "#8c9bab"
# The Jacobian's colours: blue (negative) through white to orange (positive), light enough for
# dark text on top; 21 of them, so 0 gets white.
JAC_PALETTE = diverging(PALETTE["keys"], PALETTE["weights"], steps=10, strength=0.85, neg_strength=0.75, middle=True)

READOUT_CSS = """
.ae-readout { display: flex; flex-direction: column; gap: 2px; font-family: system-ui, sans-serif; }
.ae-big { font-size: 19px; font-weight: 600; color: #1f2328; }
.ae-big b { color: #000; background: #fff3d6; padding: 0 3px; border-radius: 3px; }
.ae-sub { color: #57606a; font-size: 14px; }
"""


def _item_cmap():
    from bokeh.transform import factor_cmap

    return factor_cmap("item", palette=ITEM_COLORS, factors=ITEMS)["transform"]


class ScalingPlate(PlateViewer):
    """Why divide by √d_k: score histogram, flat-line chart, Jacobian, entropy and the contrast."""

    state_class = ScalingState
    glue, live = "scaling.js", "ScalingLive"  # the browser half (scaling.js, beside this file)
    slug = "scaling"
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes = with_titles(SCENES, TEXT.scenes, __package__)

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        log_m = math.log(len(BASE))
        data = sources(s)
        shown = annotations(s)

        def source(name: str) -> ColumnDataSource:
            return ColumnDataSource(data[name], name=name)

        self.table_src = source("histogram_table")
        self.std_src = source("std_table")
        self.hist_src = source("histogram")
        self.density_src = source("density")
        self.flat_s_src = source("flat_scaled")
        self.flat_u_src = source("flat_unscaled")
        self.flat_cur_src = source("flat_current")
        self.jac_src = source("jacobian")
        self.ent_src = source("entropy")
        self.ent_cur_src = source("entropy_current")
        self.contrast_src = source("contrast")
        self.contrast_jac_src = source("contrast_jacobian")
        self.rendered_src = source("rendered")
        self.state_sources = {"histogram": self.hist_src, "density": self.density_src,
                             "flat_current": self.flat_cur_src, "jacobian": self.jac_src,
                             "entropy_current": self.ent_cur_src, "rendered": self.rendered_src}

        # (a) The histogram of 10,000 dot products, with the normal curve and the ±3 band.
        h = figure(name="histogram_plot", width=410, height=300, x_range=Range1d(-1, 1), y_range=Range1d(0, 1),
                   tools="", toolbar_location=None, title="10,000 dot products of random q, k")
        style_figure(h)
        h.add_layout(BoxAnnotation(left=-BAND, right=BAND, fill_color=PALETTE["weights"], fill_alpha=0.12,
                                   line_color=None, level="underlay"))
        h.quad(left="left", right="right", top="count", bottom=0, source=self.hist_src, fill_color=HIST_COLOR,
               fill_alpha=0.75, line_color="white", line_width=0.5)
        h.line("x", "y", source=self.density_src, line_color=PALETTE["ink"], line_width=2, line_dash="dashed")
        self.std_label = Label(name="std_label", x=6, y=STD_LABEL_Y, x_units="screen", y_units="screen", text="",
                               text_font_size="12pt", text_font_style="bold", text_color=PALETTE["ink"],
                               background_fill_color="white", background_fill_alpha=0.85)
        h.add_layout(self.std_label)
        self.band_label = Label(name="band_label", x=BAND, y=8, y_units="screen", text="±3", x_offset=3,
                                text_font_size="9pt", text_color="#8a5a00")
        h.add_layout(self.band_label)
        h.yaxis.axis_label = "samples per bin"
        h.xaxis.axis_label = "q·k"
        self.hist_xaxis = h.xaxis[0]
        self.hist_plot = h

        # (b) The flat line: three items' weights against the width, scaled and raw.
        f = figure(name="flat_plot", width=420, height=325, x_axis_type="log", x_range=Range1d(0.8, 1300),
                   y_range=Range1d(-0.02, 1.08), tools="", toolbar_location=None,
                   title="Three weights against the width d")
        style_figure(f)
        f.xaxis.ticker = FixedTicker(ticks=[1, 4, 16, 64, 256, 1024])
        f.xaxis.axis_label = "width d  (solid ÷√d, dashed raw; drag or click)"
        f.yaxis.axis_label = "weight"
        items = []
        for j, color in enumerate(ITEM_COLORS):
            r_s = f.line("d", f"w{j}", source=self.flat_s_src, line_color=color, line_width=3)
            f.line("d", f"w{j}", source=self.flat_u_src, line_color=color, line_width=2, line_dash="dashed")
            items.append(LegendItem(label=ITEM_LABELS[j], renderers=[r_s]))
        f.add_layout(Legend(items=items, orientation="horizontal", label_text_font_size="9pt", spacing=8,
                            padding=2, margin=2, border_line_color=None, glyph_width=18), "below")
        self.flat_span = Span(name="flat_span", location=float(s.d_k), dimension="height",
                              line_color=PALETTE["ink"], line_dash="dotted", line_width=1.5)
        f.add_layout(self.flat_span)
        f.scatter("d", "w", source=self.flat_cur_src, size=11, fill_color="color", line_color=PALETTE["ink"],
                  line_width=1.5)
        label = shown["flat_label"]
        self.flat_label = Label(name="flat_label", x=label["x"], y=FLAT_LABEL_Y, text=label["text"],
                                text_align=label["text_align"], x_offset=label["x_offset"], text_baseline="middle",
                                text_font_size="10pt", text_color=PALETTE["ink"], background_fill_color="white",
                                background_fill_alpha=0.85)
        f.add_layout(self.flat_label)
        self.flat_plot = f

        # (c1) The softmax Jacobian of the three weights, as a heat map.
        jp = heatmap_figure("jacobian_plot", FactorRange("s1", "s2", "s3"), FactorRange("α3", "α2", "α1"),
                            "Jacobian ∂α_i / ∂s_j", title_size=None, width=300, height=300)
        mapper = LinearColorMapper(palette=JAC_PALETTE, low=-JAC_LIMIT, high=JAC_LIMIT)
        cells(jp, self.jac_src, {"field": "value", "transform": mapper}, text=None, x="j", y="i",
              line_color=PALETTE["grid"])
        jp.add_layout(LabelSet(x="j", y="i", text="label", source=self.jac_src, text_align="center",
                               text_baseline="middle", text_font_size="11pt", text_color=PALETTE["ink"]))
        self.jac_max = Label(name="jacobian_max", x=4, y=4, x_units="screen", y_units="screen", text="",
                             text_font_size="10pt", text_color=PALETTE["ink"], background_fill_color="white",
                             background_fill_alpha=0.0)
        jp.add_layout(self.jac_max, "below")
        # Every move of the width changes all of this figure's cells and its caption: drawn on the
        # overlay canvas, a move does not repaint the axes and their measured labels (live_layer).
        live_layer(jp, self.jac_src)
        self.jac_max.level = "overlay"
        jp.xaxis.axis_label = "score s_j"
        self.jac_plot = jp

        # (c2) The row entropy against the width, with log M (uniform) for reference.
        e = figure(name="entropy_plot", width=410, height=250, x_axis_type="log", x_range=Range1d(0.8, 1300),
                   y_range=Range1d(-0.05, 1.3), tools="", toolbar_location=None,
                   title="Entropy of the three weights (nats)")
        style_figure(e)
        e.xaxis.ticker = FixedTicker(ticks=[1, 4, 16, 64, 256, 1024])
        e.xaxis.axis_label = "width d"
        e.yaxis.axis_label = "H"
        e.line("d", "log_m", source=self.ent_src, line_color=PALETTE["muted"], line_dash="dotdash", line_width=1.5)
        e.add_layout(Label(x=1.0, y=log_m, text=f"log 3 = {fix(log_m, 3)}: uniform", y_offset=3,
                           text_font_size="9pt", text_color=PALETTE["muted"]))
        r1 = e.line("d", "scaled", source=self.ent_src, line_color=PALETTE["weights"], line_width=3)
        r2 = e.line("d", "unscaled", source=self.ent_src, line_color=PALETTE["weights"], line_width=2,
                    line_dash="dashed")
        e.add_layout(Legend(items=[LegendItem(label="÷√d", renderers=[r1]), LegendItem(label="raw", renderers=[r2])],
                            location="bottom_left", label_text_font_size="9pt", padding=4, spacing=0,
                            background_fill_alpha=0.85, border_line_color=None))
        self.ent_span = Span(name="entropy_span", location=float(s.d_k), dimension="height",
                             line_color=PALETTE["ink"], line_dash="dotted", line_width=1.5)
        e.add_layout(self.ent_span)
        e.scatter("d", "h", source=self.ent_cur_src, size=11, fill_color=PALETTE["weights"],
                  line_color=PALETTE["ink"], line_width=1.5)
        e.add_layout(LabelSet(x="d", y="h", text="label", source=self.ent_cur_src, x_offset="dx", y_offset=4,
                              text_align="align",
                              text_font_size="10pt", text_color=PALETTE["ink"],
                              background_fill_color="white", background_fill_alpha=0.7))
        self.ent_plot = e
        # What a move of the width changes on these two figures (the marker, its label and the
        # dotted line) is drawn on their overlay canvas, so a move does not repaint their axes,
        # grids and curves (see live_layer).
        for fig, src, span in ((f, self.flat_cur_src, self.flat_span), (e, self.ent_cur_src, self.ent_span)):
            live_layer(fig, src)
            span.level = "overlay"
        self.flat_label.level = "overlay"

        # (c3) The worked contrast: softmax([8, 0, −8]) against softmax([1, 0, −1]).
        cases = [case_name(sc) for sc, _ in CONTRAST]
        c = figure(name="contrast_plot", width=420, height=250,
                   x_range=FactorRange(*[(cs, it) for cs in cases for it in ITEMS], group_padding=1.2),
                   y_range=Range1d(0, 1.45), tools="", toolbar_location=None,
                   title="Saturated vs responsive softmax")
        style_figure(c)
        c.vbar(x="x", top="weight", width=0.8, source=self.contrast_src, line_color=PALETTE["ink"],
               fill_color={"field": "item", "transform": _item_cmap()})
        c.add_layout(LabelSet(x="x", y="label_y", text="label", source=self.contrast_src, text_align="center",
                              y_offset=3, text_font_size="9pt", text_color=PALETTE["ink"]))
        c.add_layout(LabelSet(x="x", y="y", text="label", source=self.contrast_jac_src, text_align="center",
                              text_font_size="9pt", text_color=PALETTE["muted"]))
        c.yaxis.axis_label = "weight"
        c.xaxis.group_text_font_size = "10pt"
        c.xaxis.major_label_text_font_size = "9pt"
        c.xgrid.visible = False
        self.contrast_plot = c

        # Controls and the readout.
        self.dk_w = Slider(name="d_k", title="Width d_k", start=0, end=10, step=1, value=int(math.log2(s.d_k)),
                           format=CustomJSTickFormatter(code="return String(Math.pow(2, Math.round(tick)));"),
                           width=330, margin=(5, 15, 5, 10))
        self.scaled_w = CheckboxGroup(name="scaled", labels=["Divide scores by √d_k"],
                                      active=[0] if s.scaled else [], width=190, margin=(20, 5, 5, 10))
        self.reset_w = Button(name="reset", label="Reset", width=80, margin=(16, 5, 5, 5))
        self.readout = Div(name="readout", text="", width=1220, stylesheets=[InlineStyleSheet(css=READOUT_CSS)])
        words = texts(s)
        self.formula_divs = [Div(name=name, text=words[name], width=380, margin=(0, 5, 0, 5),
                                 stylesheets=[InlineStyleSheet(css=FORMULAS_CSS)]) for name in FORMULAS]
        for div in self.formula_divs:
            setattr(self, div.name, div)  # _render sets each Div's text by its name

        models = {
            "table": self.table_src, "stds": self.std_src, "hist": self.hist_src,
            "density": self.density_src, "flat_current": self.flat_cur_src, "jac": self.jac_src,
            "ent_current": self.ent_cur_src, "hist_plot": h, "hist_xaxis": self.hist_xaxis,
            "std_label": self.std_label, "flat_plot": f, "flat_label": self.flat_label, "flat_span": self.flat_span,
            "ent_plot": e, "ent_span": self.ent_span, "jac_max": self.jac_max, "dk": self.dk_w, "scaled": self.scaled_w,
            "readout": self.readout, "rendered": self.rendered_src,
        }

        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (h, "Histogram of 10,000 dot products of random query and key vectors at the chosen width d_k, with "
                "the normal curve and the band ±3; wider vectors spread the scores unless they are divided by √d_k.",
             True),
            (f, "Line chart, width d_k on a log axis from 1 to 1024: the three softmax weights of the scores 2, 1, 0 "
                "as each grows like √d_k, raw (one weight climbs to 1) and divided by √d_k (flat). A vertical line "
                "marks the chosen width; drag or tap the chart to set it."),
            (jp, "Heatmap of the 3 × 3 Jacobian of the softmax at the chosen width: near zero when one weight "
                 "takes everything."),
            (e, "Line chart: the entropy of the three weights against the width d_k, raw and divided by √d_k, "
                "with log 3 (uniform) marked; drag or tap to set the width."),
            (c, "Bar chart of two softmaxes: the saturated [8, 0, −8] and a responsive one, with their largest "
                "Jacobian entry."),
        ], [
            a11y.columns("Standard deviation of the scores by width", self.std_src,
                         [("d", "d_k", None), ("unscaled", "raw", 3), ("scaled", "÷√d_k", 3)]),
            a11y.columns("Histogram bins at the chosen width", self.hist_src,
                         [("left", "from", 3), ("right", "to", 3), ("count", "count", None)]),
            a11y.columns("Weights at the chosen width", self.flat_cur_src,
                         [("label", "weight", None), ("d", "d_k", None), ("w", "value", 6)]),
            a11y.matrix("Jacobian ∂α_i / ∂s_j", self.jac_src, row="i", col="j", value="value", digits=6),
            a11y.columns("Entropy at the chosen width", self.ent_cur_src, [("d", "d_k", None), ("h", "entropy (nats)", 4)]),
            a11y.columns("Saturated vs responsive softmax", self.contrast_src,
                         [("case", "case", None), ("item", "item", None), ("score", "score", 3), ("weight", "weight", 5)]),
        ], width=1220)
        self.js_models = models  # with a.sync and a.link, the `a` of every callback (self.js)

        js = self.js
        on_widget = js("ScalingLive.on_widget(a);")
        self.dk_w.js_on_change("value", on_widget)
        self.scaled_w.js_on_change("active", on_widget)
        self.reset_w.js_on_event(ButtonClick, js("ScalingLive.on_reset(a);"))
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))
        for plot in (f, e):
            plot.js_on_event(PanStart, js("ScalingLive.on_pan_start(a, cb_obj, target);", target=plot))
            plot.js_on_event(Pan, js("ScalingLive.on_pan(a, cb_obj, target);", target=plot))
            plot.js_on_event(PanEnd, js("ScalingLive.on_pan_end(a, cb_obj, target);", target=plot))
            on_tap = js("ScalingLive.on_tap(a, cb_obj, target);", target=plot)
            plot.js_on_event(Tap, on_tap)
            plot.js_on_event(DoubleTap, on_tap)  # a quick second tap arrives as a DoubleTap only

        bk = pn.pane.Bokeh
        self._layout = pn.Column(
            pn.Row(bk(self.dk_w), bk(self.scaled_w), bk(self.reset_w)),
            bk(self.readout),
            pn.Row(bk(h), bk(f), bk(jp)),
            pn.Row(bk(e), bk(c), bk(bk_column(*self.formula_divs))),
            bk(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state ----------------------------------------------------------------
    # Every change in the browser (the slider, the box, a drag or a tap on the flat-line or
    # entropy chart) runs through scaling.js, which leads while changes come (a.sync "busy") and
    # then sends the two widgets; Python reads them once (PlateViewer's protocol).
    def synced(self) -> list[tuple]:
        return [(self.dk_w, "value"), (self.scaled_w, "active")]

    def read_page(self, changed: set) -> dict:
        e = whole_number(self.dk_w.value, "log2 d_k", 0, 10)
        return {"d_k": 2 ** e, "scaled": 0 in (self.scaled_w.active or [])}

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser.

        The widgets first (the browser's live path follows them at once), then the state this
        answer is for ("rendered"), then labels and data. scaling.js compares "rendered" with its
        widgets whenever one of these lands and, if the page has moved on since, recomputes from
        the widgets: a late answer never shows."""
        s = self.state
        live = live_sources(s)
        shown = annotations(s, live)
        set_if_changed(self.dk_w, "value", int(math.log2(s.d_k)))
        set_if_changed(self.scaled_w, "active", [0] if s.scaled else [])
        push(self.rendered_src, live["rendered"], force=True)
        x_start, x_end = shown["x_range"]
        set_if_changed(self.hist_plot.x_range, "start", x_start, tol=1e-12)
        set_if_changed(self.hist_plot.x_range, "end", x_end, tol=1e-12)
        set_if_changed(self.hist_plot.y_range, "end", shown["y_end"], tol=1e-9)
        set_if_changed(self.hist_xaxis, "axis_label", shown["axis_label"])
        set_if_changed(self.std_label, "text", shown["std_label"])
        set_if_changed(self.jac_max, "text", shown["jacobian_max"])
        for prop, value in shown["flat_label"].items():
            set_if_changed(self.flat_label, prop, value)
        set_if_changed(self.flat_span, "location", shown["span"])
        set_if_changed(self.ent_span, "location", shown["span"])
        for name, text in texts(s).items():
            set_if_changed(getattr(self, name), "text", text)
        for name in ("histogram", "density", "flat_current", "jacobian", "entropy_current"):
            push(self.state_sources[name], live[name], force)

    def __panel__(self):
        return self._layout
