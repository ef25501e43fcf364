"""Plate 3, why divide by √d_k (slug "scaling"; after seed 003's scaling.py, seed 000's flat-line
chart and seed 004's softmax Jacobian and entropy).

What it teaches: a dot product of two random vectors with d_k unit-variance entries has a
spread of √d_k, so raw attention scores grow with the width; large score gaps push the softmax
to a one-hot choice, where its Jacobian α_i(δ_ij − α_j) is nearly zero and the queries and keys
stop learning. Dividing by √d_k brings the spread back to 1 at every width: three items with
raw scores √d·[2, 1, 0] keep the weights 0.665, 0.245, 0.090 whatever d is.

Open it: `attention-explorable serve` then http://localhost:5006/scaling, or
`attention-explorable export OUTDIR --plate scaling` for one offline HTML file, or in Jupyter
`from app.plates.scaling import ScalingPlate; ScalingPlate(d_k=256, scaled=True)`.

Controls: the width slider (log2 d_k, 0..10, so d_k = 1, 2, 4, ..., 1024), the "Divide scores
by √d_k" box, Reset, and a drag or click on the flat-line or entropy chart, which moves the
width to the nearest power of two. A link's settings (?d_k=256&scaled=1; any d_k is snapped to
the nearest power of two, with a notice) are read by ScalingState.apply_url when served and by
ScalingLive.apply_url in an exported file, with the same rules and notices. app/static/scaling.js recomputes every view in the browser
at each change (mirror.js: flat_line, softmax_jacobian, entropy, normal_density); this module
recomputes the same numbers with attention_core when a change reaches Python (the authority).

The histogram is precomputed, not mirrored. Its 10,000 samples come from NumPy's
default_rng(0) exactly as seed 003 draws them (all queries, then all keys, then (q*k).sum(1)),
and NumPy's generator cannot be reproduced bit for bit in the browser. So Python bins the
samples for every allowed width, raw and scaled, with attention_core, and ships the counts in
the "histogram_table" source (11 widths × 2 × 60 bins); the browser only picks rows from it.

Named models (read them with Bokeh.documents[0].get_model_by_name(NAME)):
- sources: "histogram" (left, right, count: the current bins), "density" (x, pdf, y: the
  N(0, d_k) or N(0, 1) curve, y in samples per bin), "histogram_table" (d, scaled, left, right,
  count: every width's bins), "std_table" (d, unscaled, scaled: the samples' std),
  "flat_scaled" and "flat_unscaled" (d, w0, w1, w2 on 101 widths 2^(k/10), every power of two
  among them), "flat_current" (d, w, label, color: the current width's three weights),
  "jacobian" (i, j, value, label: the 3×3 Jacobian of the current weights), "entropy" (d,
  scaled, unscaled, log_m), "entropy_current" (d, h, label), "contrast" (x, case, item, score,
  weight, label: softmax([8, 0, −8]) and softmax([1, 0, −1]), printed as seed 003 prints them),
  "contrast_jacobian" (case, largest, label, x, y), "rendered" (d_k, scaled: the state Python
  computed its answer for; pushed before the numbers, so the page can tell a late answer);
- widgets and views: "d_k" (Slider over log2 d_k), "scaled" (CheckboxGroup), "reset",
  "readout" (Div), "std_label" (Label on the histogram), "jacobian_max" (Label), plots
  "histogram_plot", "flat_plot", "jacobian_plot", "entropy_plot", "contrast_plot", spans
  "flat_span" and "entropy_span".
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from functools import cache

import numpy as np
import panel as pn
import param
from bokeh.events import ButtonClick, DoubleTap, Pan, PanEnd, PanStart, Tap
from bokeh.models import (
    BoxAnnotation,
    Button,
    CheckboxGroup,
    ColumnDataSource,
    CustomJS,
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
from bokeh.layouts import column as bk_column
from bokeh.plotting import figure

import attention_core as ac

from app.shared.formatting import fix as _fix
from app.shared import a11y
from app.shared.panes import bokeh_pane
from app.runtime.scripts import custom_js_code
from app.shared.mathml import formula_html
from app.shared.state import NUMBER, PlateState
from app.shared.theme import PALETTE, style_figure
from app.shared.viewer import PlateViewer, live_layer, push, set_if_changed

WIDTHS = [2**e for e in range(11)]  # d_k = 1 .. 1024
DEFAULT_D_K = 64
BASE = [2.0, 1.0, 0.0]  # the three items' scores once divided by √d
N_SAMPLES, SEED, BINS = 10_000, 0, 60
CURVE_WIDTHS = [2.0 ** (k / 10) for k in range(101)]  # 1 .. 1024; k = 10 e gives 2^e exactly
DENSITY_POINTS = 161
BAND = 3.0  # the ±3 band: where 99.7 % of unit-variance scores fall
ITEM_COLORS = ["#E69F00", "#56B4E9", "#57606a"]  # item 1 (score 2) in the weights' orange
ITEMS = ["1", "2", "3"]
ITEM_LABELS = ["raw score 2√d", "raw score √d", "raw score 0"]
CONTRAST = [  # (scores, decimals as seed 003 prints the weights)
    ([8.0, 0.0, -8.0], [5, 5, 7]),
    ([1.0, 0.0, -1.0], [3, 3, 3]),
]
STD_LABEL_Y = 168  # screen px above the histogram frame's bottom
NOTE_Y = 1.3  # height of the contrast plot's Jacobian notes
JAC_LIMIT = 0.25  # a diagonal entry α(1 − α) is at most 1/4
HIST_COLOR = "#8c9bab"


# --- how numbers are written (scaling.js writes them the same way) --------------------------
def fix(x: float, digits: int) -> str:
    """app.formatting.fix (JavaScript's toFixed), always in plain decimals: with 7 or more
    digits str(Decimal) would write '1E-7' where toFixed writes '0.0000001'."""
    s = _fix(x, digits)
    return format(Decimal(s), "f") if "E" in s or "e" in s else s


def sci(x: float) -> str:
    """Scientific with one decimal and a bare exponent, as JavaScript's toExponential(1)."""
    d = Decimal(x)  # the exact binary value; ties round away from zero, as toExponential does
    if d == 0:
        return "0.0e+0"
    exponent = d.adjusted()
    mantissa = d.scaleb(-exponent).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    if abs(mantissa) >= 10:  # 9.96 rounds up to 10.0
        exponent += 1
        mantissa = d.scaleb(-exponent).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{mantissa}e{exponent:+d}"


def short(x: float) -> str:
    """Three decimals, or scientific below 0.001 in size, or '0'."""
    if x == 0:
        return "0"
    if abs(x) < 0.0005:
        return sci(x)
    return fix(x, 3)


def weight_text(w: float) -> str:
    """A weight: 0.665; 0.99966 near 1; '1 − 1.3e-14' when five decimals would say 1.00000."""
    if w > 0.9995:
        return fix(w, 5) if 1.0 - w >= 0.000005 else "1 − " + sci(1.0 - w)
    return short(w)


def trim(x: float) -> str:
    """Two decimals without trailing zeros: 16, 2.83, 0."""
    s = fix(x, 2)
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# --- the state ---------------------------------------------------------------------------
def nearest_width(x: float) -> int:
    """The allowed width nearest to x on a log scale (scaling.js's nearest_width)."""
    x = min(max(x, 1.0), float(WIDTHS[-1]))
    return 2 ** int(math.floor(math.log2(x) + 0.5))


class ScalingState(PlateState):
    """The width and the scaling switch; both round-trip through the URL."""

    d_k = param.Selector(default=DEFAULT_D_K, objects=WIDTHS,
                         doc="Width of the queries and keys, a power of two from 1 to 1024.")
    scaled = param.Boolean(False, doc="Divide the scores by √d_k before the softmax.")

    url_fields = ("d_k", "scaled")

    def parse_url_value(self, name: str, text: str):
        if name == "d_k":  # any number, snapped to the nearest power of two in 1..1024
            if not NUMBER.match(text):
                raise ValueError("not a number")
            x = float(text)
            if not math.isfinite(x):
                raise ValueError("not a finite number")
            return nearest_width(x)
        return super().parse_url_value(name, text)

    def _was_clamped(self, name, text, value) -> bool:
        if name == "d_k":
            try:
                return abs(float(text) - value) > 1e-9
            except ValueError:
                return False
        return super()._was_clamped(name, text, value)

    # --- derived numbers (attention_core) -----------------------------------------------
    @property
    def scores(self) -> np.ndarray:
        """The three items' scores as the softmax sees them: √d·[2, 1, 0], or [2, 1, 0] scaled."""
        root = math.sqrt(self.d_k)
        raw = root * np.array(BASE)  # (3,)
        return raw / root if self.scaled else raw  # (3,)

    def weights(self) -> np.ndarray:
        return ac.flat_line([self.d_k], BASE, scaled=self.scaled)[0]  # (3,)

    def jacobian(self) -> np.ndarray:
        return ac.softmax_jacobian(self.weights())  # (3, 3)

    def entropy(self) -> float:
        return float(ac.entropy(self.weights()))

    def histogram(self) -> tuple[np.ndarray, np.ndarray]:
        return histogram_tables()[(self.d_k, self.scaled)]

    def std(self) -> tuple[float, float]:
        """(raw, scaled) standard deviation of this width's 10,000 samples."""
        return sample_stds()[self.d_k]


@cache
def _samples(d_k: int) -> np.ndarray:
    return ac.dot_product_samples(d_k, N_SAMPLES, SEED)  # (n,)


@cache
def sample_stds() -> dict[int, tuple[float, float]]:
    """d_k -> (std of q·k, std of q·k / √d_k), the seed's (population) standard deviation."""
    out = {}
    for d in WIDTHS:
        s = _samples(d)
        out[d] = (float(s.std()), float((s / math.sqrt(d)).std()))
    return out


@cache
def histogram_tables() -> dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]]:
    """(d_k, scaled) -> (edges (61,), counts (60,)) of the 10,000 samples, raw or divided by √d_k."""
    out = {}
    for d in WIDTHS:
        s = _samples(d)
        out[(d, False)] = ac.score_histogram(s, BINS)
        out[(d, True)] = ac.score_histogram(s / math.sqrt(d), BINS)
    return out


def histogram_table_data() -> dict:
    cols = {"d": [], "scaled": [], "left": [], "right": [], "count": []}
    for (d, scaled), (edges, counts) in histogram_tables().items():
        cols["d"] += [d] * BINS
        cols["scaled"] += [int(scaled)] * BINS
        cols["left"] += edges[:-1].tolist()
        cols["right"] += edges[1:].tolist()
        cols["count"] += counts.tolist()
    return cols


def density_data(edges: np.ndarray, variance: float) -> dict:
    """The N(0, variance) curve over the histogram's range, scaled to samples per bin."""
    x = np.linspace(edges[0], edges[-1], DENSITY_POINTS)  # (161,)
    pdf = ac.normal_density(x, variance)  # (161,)
    width = float(edges[1] - edges[0])
    return {"x": x.tolist(), "pdf": pdf.tolist(), "y": (N_SAMPLES * width * pdf).tolist()}


def flat_data(scaled: bool) -> dict:
    w = ac.flat_line(CURVE_WIDTHS, BASE, scaled=scaled)  # (101, 3)
    return {"d": list(CURVE_WIDTHS), "w0": w[:, 0].tolist(), "w1": w[:, 1].tolist(), "w2": w[:, 2].tolist()}


def entropy_data() -> dict:
    hs = ac.entropy(ac.flat_line(CURVE_WIDTHS, BASE, scaled=True))  # (101,)
    hu = ac.entropy(ac.flat_line(CURVE_WIDTHS, BASE, scaled=False))  # (101,)
    return {"d": list(CURVE_WIDTHS), "scaled": hs.tolist(), "unscaled": hu.tolist(),
            "log_m": [math.log(len(BASE))] * len(CURVE_WIDTHS)}


def contrast_data() -> dict:
    cols = {"x": [], "case": [], "item": [], "score": [], "weight": [], "label": [], "label_y": []}
    for scores, decimals in CONTRAST:
        case = case_name(scores)
        w = ac.softmax(np.array(scores))  # (3,)
        for j, (s, wj, dec) in enumerate(zip(scores, w, decimals)):
            cols["x"].append((case, ITEMS[j]))
            cols["case"].append(case)
            cols["item"].append(ITEMS[j])
            cols["score"].append(s)
            cols["weight"].append(float(wj))
            cols["label"].append(fix(float(wj), dec))
            # Labels of bars too short to tell apart are stacked so they do not overlap.
            small = sum(1 for x in w[:j] if x < 0.05) if wj < 0.05 else 0
            cols["label_y"].append(float(wj) + 0.11 * small)
    return cols


def contrast_jacobian_data() -> dict:
    cols = {"case": [], "largest": [], "label": [], "x": [], "y": []}
    for scores, _ in CONTRAST:
        j = ac.softmax_jacobian(ac.softmax(np.array(scores)))  # (3, 3)
        largest = float(np.max(np.abs(j)))
        cols["case"].append(case_name(scores))
        cols["largest"].append(largest)
        cols["label"].append("Jacobian max " + short(largest))
        cols["x"].append((case_name(scores), ITEMS[1]))
        cols["y"].append(NOTE_Y)
    return cols


def case_name(scores) -> str:
    return "softmax([" + ", ".join(f"{s:g}".replace("-", "−") for s in scores) + "])"


def jacobian_data(jac: np.ndarray) -> dict:
    cols = {"i": [], "j": [], "value": [], "label": []}
    for i in range(jac.shape[0]):
        for j in range(jac.shape[1]):
            cols["i"].append(f"α{i + 1}")
            cols["j"].append(f"s{j + 1}")
            cols["value"].append(float(jac[i, j]))
            cols["label"].append(short(float(jac[i, j])))
    return cols


def label_side(d_k: int, left_below: int) -> tuple[str, float]:
    """(text_align, x_offset) that keep a marker's label inside the plot: on its right for
    widths below `left_below`, on its left otherwise."""
    return ("left", 8.0) if d_k < left_below else ("right", -8.0)


def flat_current_data(d_k: int, w: np.ndarray) -> dict:
    align, dx = label_side(d_k, 4)
    return {"d": [float(d_k)] * 3, "w": [float(x) for x in w], "label": [weight_text(float(x)) for x in w],
            "color": list(ITEM_COLORS), "align": [align] * 3, "dx": [dx] * 3}


def entropy_current_data(d_k: int, h: float) -> dict:
    align, dx = label_side(d_k, 256)
    return {"d": [float(d_k)], "h": [h], "label": [f"H = {fix(h, 3)}"], "align": [align], "dx": [dx]}


def std_text(d_k: int, std: float, scaled: bool) -> str:
    return f"std {fix(std, 2)}" + ("" if scaled else f"   (√{d_k} = {trim(math.sqrt(d_k))})")


def readout_html(d_k: int, scaled: bool, std_raw: float, std_scaled: float, scores, w, largest: float,
                 h: float) -> str:
    """The line above the charts; scaling.js's readout_html writes the same text."""
    raw_part = f"raw {fix(std_raw, 2)}"
    scaled_part = f"÷√{d_k}: {fix(std_scaled, 2)}"
    if scaled:
        scaled_part = f"<b>{scaled_part}</b>"
    else:
        raw_part = f"<b>{raw_part}</b>"
    return (
        "<div class='ae-readout'>"
        f"<span class='ae-big'>d_k = {d_k} · std of 10,000 scores: {raw_part} · {scaled_part}</span>"
        "<span class='ae-sub'>three items, scores [" + ", ".join(trim(s) for s in scores) + "] → weights "
        + ", ".join(weight_text(x) for x in w)
        + f" · largest Jacobian entry {short(largest)} · entropy {fix(h, 3)} of log 3 = {fix(math.log(3), 3)}"
        "</span></div>"
    )


READOUT_CSS = """
.ae-readout { display: flex; flex-direction: column; gap: 2px; font-family: system-ui, sans-serif; }
.ae-big { font-size: 19px; font-weight: 600; color: #1f2328; }
.ae-big b { color: #000; background: #fff3d6; padding: 0 3px; border-radius: 3px; }
.ae-sub { color: #57606a; font-size: 14px; }
"""

FORMULAS_CSS = """
.ae-formulas { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2328; }
.ae-formulas math[display=block] { font-size: 1.2em; margin: 0.35em 0; }
.ae-formulas p { margin: 0.2em 0 0.6em; color: #57606a; }
"""

VARIANCE = ("<mrow><mtext>Var</mtext><mo>(</mo><mi>q</mi><mo>·</mo><mi>k</mi><mo>)</mo><mo>=</mo>"
            "<munderover><mo>∑</mo><mrow><mi>c</mi><mo>=</mo><mn>1</mn></mrow><msub><mi>d</mi><mi>k</mi></msub>"
            "</munderover><mtext>Var</mtext><mo>(</mo><msub><mi>q</mi><mi>c</mi></msub><msub><mi>k</mi><mi>c</mi>"
            "</msub><mo>)</mo><mo>=</mo><msub><mi>d</mi><mi>k</mi></msub></mrow>")
JACOBIAN = ("<mrow><mfrac><mrow><mo>∂</mo><msub><mi>α</mi><mi>i</mi></msub></mrow><mrow><mo>∂</mo>"
            "<msub><mi>s</mi><mi>j</mi></msub></mrow></mfrac><mo>=</mo><msub><mi>α</mi><mi>i</mi></msub>"
            "<mo>(</mo><msub><mi>δ</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>−</mo><msub><mi>α</mi>"
            "<mi>j</mi></msub><mo>)</mo></mrow>")
ENTROPY = ("<mrow><mi>H</mi><mo>=</mo><mo>−</mo><munder><mo>∑</mo><mi>j</mi></munder><msub><mi>α</mi><mi>j</mi>"
           "</msub><mi>log</mi><msub><mi>α</mi><mi>j</mi></msub><mo>≤</mo><mi>log</mi><mi>M</mi></mrow>")


def formulas_html() -> str:
    return (
        "<div class='ae-formulas'>"
        + formula_html(VARIANCE, "the variance of q dot k is the sum over d_k products, which is d_k")
        + "<p>so raw scores spread like √d_k; dividing by √d_k gives spread 1.</p>"
        + formula_html(JACOBIAN, "d alpha i by d s j equals alpha i times delta i j minus alpha j")
        + "<p>near one-hot every entry is near 0: the gradient to the scores dies.</p>"
        + formula_html(ENTROPY, "H equals minus the sum of alpha j log alpha j, at most log M")
        + "<p>log M when uniform (mean-pooling), 0 when one-hot.</p></div>"
    )


def _diverging(n: int = 21) -> list[str]:
    """Blue (negative) through white to orange (positive), light enough for dark text on top."""
    def mix(hex_color: str, t: float) -> str:
        c = [int(hex_color[k:k + 2], 16) for k in (1, 3, 5)]
        return "#" + "".join(f"{round(255 + (x - 255) * t):02x}" for x in c)
    half = n // 2
    return ([mix(PALETTE["keys"], 0.75 * (half - k) / half) for k in range(half)] + ["#ffffff"]
            + [mix(PALETTE["weights"], 0.85 * (k + 1) / half) for k in range(half)])


class ScalingPlate(PlateViewer):
    """Why divide by √d_k: score histogram, flat-line chart, Jacobian, entropy and the contrast."""

    state_class = ScalingState
    glue, live = "scaling.js", "ScalingLive"  # the browser half (app/static/scaling.js)
    slug = "scaling"
    title = "Why divide by √d_k"
    summary = "Raw dot products spread like √d_k and saturate the softmax; the division keeps the weights flat."

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        log_m = math.log(len(BASE))

        self.table_src = ColumnDataSource(histogram_table_data(), name="histogram_table")
        stds = sample_stds()
        self.std_src = ColumnDataSource({"d": WIDTHS, "unscaled": [stds[d][0] for d in WIDTHS],
                                         "scaled": [stds[d][1] for d in WIDTHS]}, name="std_table")
        self.hist_src = ColumnDataSource({"left": [], "right": [], "count": []}, name="histogram")
        self.density_src = ColumnDataSource({"x": [], "pdf": [], "y": []}, name="density")
        self.flat_s_src = ColumnDataSource(flat_data(True), name="flat_scaled")
        self.flat_u_src = ColumnDataSource(flat_data(False), name="flat_unscaled")
        self.flat_cur_src = ColumnDataSource({"d": [], "w": [], "label": [], "color": [], "align": [], "dx": []},
                                             name="flat_current")
        self.jac_src = ColumnDataSource({"i": [], "j": [], "value": [], "label": []}, name="jacobian")
        self.ent_src = ColumnDataSource(entropy_data(), name="entropy")
        self.ent_cur_src = ColumnDataSource({"d": [], "h": [], "label": [], "align": [], "dx": []},
                                            name="entropy_current")
        self.contrast_src = ColumnDataSource(contrast_data(), name="contrast")
        self.contrast_jac_src = ColumnDataSource(contrast_jacobian_data(), name="contrast_jacobian")
        self.rendered_src = ColumnDataSource({"d_k": [s.d_k], "scaled": [int(s.scaled)]}, name="rendered")

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
        f.add_layout(LabelSet(x="d", y="w", text="label", source=self.flat_cur_src, x_offset="dx", y_offset=3,
                              text_align="align", text_font_size="10pt", text_color=PALETTE["ink"],
                              background_fill_color="white", background_fill_alpha=0.7))
        self.flat_plot = f

        # (c1) The softmax Jacobian of the three weights, as a heat map.
        jp = figure(name="jacobian_plot", width=300, height=300, x_range=FactorRange("s1", "s2", "s3"),
                    y_range=FactorRange("α3", "α2", "α1"), tools="", toolbar_location=None,
                    title="Jacobian ∂α_i / ∂s_j")
        style_figure(jp)
        mapper = LinearColorMapper(palette=_diverging(), low=-JAC_LIMIT, high=JAC_LIMIT)
        jp.rect(x="j", y="i", width=0.96, height=0.96, source=self.jac_src,
                fill_color={"field": "value", "transform": mapper}, line_color=PALETTE["grid"])
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
        jp.grid.visible = False
        jp.axis.axis_line_color = None
        jp.axis.major_tick_line_color = None
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
        self.formulas = Div(name="formulas", text=formulas_html(), width=380,
                            stylesheets=[InlineStyleSheet(css=FORMULAS_CSS)])

        defaults = {"d_k": DEFAULT_D_K, "scaled": ScalingState.param.scaled.default}
        models = {
            "defaults": defaults, "table": self.table_src, "stds": self.std_src, "hist": self.hist_src,
            "density": self.density_src, "flat_current": self.flat_cur_src, "jac": self.jac_src,
            "ent_current": self.ent_cur_src, "hist_plot": h, "hist_xaxis": self.hist_xaxis,
            "std_label": self.std_label, "flat_plot": f, "flat_span": self.flat_span, "ent_plot": e,
            "ent_span": self.ent_span, "jac_max": self.jac_max, "dk": self.dk_w, "scaled": self.scaled_w,
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
        self.js_models = models  # page.js reads a link with ScalingLive.apply_url in an exported page

        def js(call: str, **extra) -> CustomJS:
            return CustomJS(args={**models, **extra}, code=custom_js_code("scaling.js", call, [*models, *extra]))

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

        # Python follows what a served page sends. Every change in the browser (widget, drag,
        # click) runs through scaling.js, which marks a plot "busy" while changes come and clears
        # it when they settle; the widgets' values are synced all along, and Python folds them
        # in once, when "busy" goes (a burst of changes costs one answer, not one per change).
        for plot in (f, e):
            plot.on_change("tags", self._from_browser)

        bk = bokeh_pane
        self._layout = pn.Column(
            pn.Row(bk(self.dk_w), bk(self.scaled_w), bk(self.reset_w)),
            bk(self.readout),
            pn.Row(bk(h), bk(f), bk(jp)),
            pn.Row(bk(e), bk(c), bk(self.formulas)),
            bk(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state ----------------------------------------------------------------
    def _busy(self) -> bool:
        return "busy" in (self.flat_plot.tags or []) or "busy" in (self.ent_plot.tags or [])

    def _from_browser(self, attr, old, new) -> None:
        """Fold the widgets' values into the state, which validates them."""
        if getattr(self, "_rendering", False) or self._busy():
            return  # our own echo, or a gesture in progress (the browser leads until it ends)
        try:
            e = float(self.dk_w.value)
            if not math.isfinite(e) or e != round(e) or not 0 <= e <= 10:
                raise ValueError(f"log2 d_k must be an integer from 0 to 10, got {e}")
            d_k = 2 ** int(e)
            scaled = 0 in (self.scaled_w.active or [])
        except (TypeError, ValueError):
            self._render(force=True)  # put the browser back to the last good state
            return
        if (d_k, scaled) != (self.state.d_k, self.state.scaled):
            self.state.param.update(d_k=d_k, scaled=scaled)  # the state's watcher renders
        else:
            self._render()  # answer anyway: the page waits for "rendered"

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        edges, counts = s.histogram()
        std_raw, std_scaled = s.std()
        w = s.weights()  # (3,)
        jac = s.jacobian()  # (3, 3)
        largest = float(np.max(np.abs(jac)))
        h = s.entropy()
        dens = density_data(edges, 1.0 if s.scaled else float(s.d_k))
        top = max(float(counts.max()), max(dens["y"])) * 1.18
        self._rendering = True
        try:
            # The widgets first (the browser's live path follows them at once), then the state
            # this answer is for, then labels and data. Each change reaches the page as its own
            # message; scaling.js compares "rendered" with its widgets at every one and, if the
            # page has moved on since, recomputes from the widgets: a late answer never shows.
            set_if_changed(self.dk_w, "value", int(math.log2(s.d_k)))
            set_if_changed(self.scaled_w, "active", [0] if s.scaled else [])
            push(self.rendered_src, {"d_k": [s.d_k], "scaled": [int(s.scaled)]}, force=True)
            set_if_changed(self.hist_plot.x_range, "start", float(edges[0]), tol=1e-12)
            set_if_changed(self.hist_plot.x_range, "end", float(edges[-1]), tol=1e-12)
            set_if_changed(self.hist_plot.y_range, "end", top, tol=1e-9)
            set_if_changed(self.hist_xaxis, "axis_label", f"q·k / √{s.d_k}" if s.scaled else "q·k")
            set_if_changed(self.std_label, "text", std_text(s.d_k, std_scaled if s.scaled else std_raw, s.scaled))
            set_if_changed(self.jac_max, "text", f"largest entry {short(largest)}")
            set_if_changed(self.flat_span, "location", float(s.d_k))
            set_if_changed(self.ent_span, "location", float(s.d_k))
            set_if_changed(self.readout, "text", readout_html(s.d_k, s.scaled, std_raw, std_scaled, s.scores, w,
                                                              largest, h))
            push(self.hist_src, {"left": edges[:-1].tolist(), "right": edges[1:].tolist(),
                                 "count": counts.tolist()}, force)
            push(self.density_src, dens, force)
            push(self.flat_cur_src, flat_current_data(s.d_k, w), force)
            push(self.jac_src, jacobian_data(jac), force)
            push(self.ent_cur_src, entropy_current_data(s.d_k, h), force)
        finally:
            self._rendering = False

    def __panel__(self):
        return self._layout


def _item_cmap():
    from bokeh.transform import factor_cmap

    return factor_cmap("item", palette=ITEM_COLORS, factors=ITEMS)["transform"]


ScalingPlate.explanation = """
A dot product adds up d_k products. When the entries of q and k are independent with variance 1,
each product has variance 1, so the sum has variance d_k and a typical size of √d_k: at d_k = 64
the 10,000 random scores in the histogram have a standard deviation of **8.08**, and dividing them by
√64 = 8 brings it to **1.01**. Widen the vectors with the slider and watch what the spread does
to three items whose raw scores are √d·[2, 1, 0]. Divided by √d they keep the weights
**0.665, 0.245, 0.090** at every width (the flat lines); raw, the leading weight runs to 1
(at d_k = 64 the scores 16, 8, 0 give exactly softmax([8, 0, −8]) = 0.99966). A softmax that
close to one-hot barely moves when a score moves: every entry of its Jacobian α_i(δ_ij − α_j)
is near zero, so almost no gradient reaches the queries and keys.

Two details. The bell curve over the histogram is the normal density with variance d_k (or 1
once divided); at d_k = 1 a score is a single product of two normals, more sharply peaked than
that bell, and the sum of many products is what turns into the bell. And the histogram is not
recomputed in your browser: its 10,000 samples come from NumPy's generator with seed 0, so the
page carries the counts for every width, computed once in Python.
"""
