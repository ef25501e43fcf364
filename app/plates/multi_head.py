"""Plate 6, "Heads share the width" (multi-head attention), slug "multi-head".

What it teaches: multi-head attention cuts the model width d_model into h equal slices. Each
head has its own query, key and value maps (column slices of three full d_model × d_model
maps), attends at width d_k = d_v = d_model / h and divides its scores by √d_k, its own
width's root. The h head outputs are joined side by side (n × d_model) and mixed by W_O. The
split costs nothing: h heads hold 3·d_model² numbers between them, as one full-width head
does; only W_O adds d_model². In the paper's setting (d_model 512, 8 heads of 64): 32,768 per
map per head, 786,432 = 3·512² for the heads, 262,144 for W_O, 1,048,576 in all, divisor 8.

Open it: `attention-explorable serve` then http://localhost:5006/multi-head, or
`attention-explorable export OUTDIR --plate multi-head` for one offline HTML file, or in
Jupyter `from app.plates.multi_head import MultiHeadPlate; MultiHeadPlate()` (then
`plate.h = 4`).

The inputs follow one seeded recipe (attention_core.multi_head_recipe): rng =
default_rng(0); Wq, Wk, Wv, Wo = rng.normal(size=(4, d, d)) / √d; X = rng.normal(size=(n, d)).
The heat maps are computed at d_model 4, 8 or 16. d_model = 512 is there for the counter: the
parameter table and the divisors show 512, while the heat maps stay at d_model = 16 (a
512 × 512 W_O would be 262,144 cells), and the page says so. A number of heads that does not
divide d_model (8 heads at width 4) is refused with a message, and nothing else changes.

Changing d_model, h or n recomputes in the browser (app/static/multi_head.js with mirror.js's
multi_head_attention, split_heads, merge_heads, head_scores and param_counts, on the recipe's
matrices embedded in the page), so it works in the exported file; a served page then gets
attention_core's numbers from Python (the authority).

Named models (Bokeh.documents[0].get_model_by_name(NAME)):
  sources  "head_weights" (head, i, j, value, text, x, y, score, scaled, tip): every head's
           n × n weights; "concat" (i, c, value, text, x, y, head, tip): the joined head
           outputs, n × d_model; "w_o" (r, c, value, text, x, y, tip); "mh_output" (i, c, value,
           text, x, y, tip): concat @ W_O; "params" (one row per count: row, shape, per_head,
           heads, total, paper_per_head, paper_total and their *_text); "divisors" (head, d_k,
           divisor, text, label); "setting" (d_model, h, n, width).
  widgets  "d_model" (Select), "h" (RadioButtonGroup, active = index in 1, 2, 4, 8), "n" (Slider).
  labels   "head_titles", "head_ticks", "concat_marks", "concat_lines", "w_o_marks", "w_o_lines",
           "output_marks" (x, y, text or x0, y0, x1, y1).
  others   "message" (Div, refusals), "summary" (Div), "reading" (Div), tables "params_table" and
           "divisors_table", figures "head_maps", "concat_map", "w_o_map", "output_map".
A link's settings (?d_model=16&h=8&n=3) are read by MultiHeadState.apply_url when served and by
MultiHeadLive.apply_url in an exported file, with the same rules and notices.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import panel as pn
import param
from bokeh.models import (
    ColumnDataSource,
    CustomJS,
    Div,
    GridBox,
    HoverTool,
    InlineStyleSheet,
    LinearColorMapper,
    RadioButtonGroup,
    Range1d,
    Select,
    Slider,
)
from bokeh.layouts import column as bk_column
from bokeh.plotting import figure

import attention_core as ac

from app.shared.formatting import fix
from app.shared import a11y
from app.shared import html_table
from app.shared.panes import bokeh_pane
from app.runtime.scripts import custom_js_code
from app.shared.mathml import CSS as MATH_CSS
from app.shared.mathml import formula_html
from app.shared.state import PlateState
from app.shared.theme import PALETTE, style_figure
from app.shared.viewer import PlateViewer, push, set_if_changed

D_CHOICES = [4, 8, 16, 512]
MAP_WIDTHS = (4, 8, 16)  # widths the heat maps are computed at
MAX_MAP_WIDTH = 16  # d_model = 512 keeps the heat maps at this width
H_CHOICES = [1, 2, 4, 8]
N_MIN, N_MAX = 2, 8
SEED = 0
PAPER = (512, 8)  # the transformer paper's d_model and h
HEADS_PER_ROW = 3  # head maps to a row on a wide screen (heads_per_row)
CELL_HEAD = 28  # px per cell of a head's weight map
CELL = 32  # px per cell of concat, W_O and the output
ROWS_Y = (-(N_MAX - 0.5), 2.5)  # concat's and the output's rows: N_MAX tokens' room, n at the top (never changes)
MUTED = PALETTE["muted"]


def _ramp(c0: str, c1: str, steps: int) -> list[str]:
    """`steps` colours from c0 to c1 (hex), evenly in RGB."""
    a = np.array([int(c0[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)  # (3,)
    b = np.array([int(c1[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)  # (3,)
    out = []
    for t in np.linspace(0.0, 1.0, steps):
        r, g, bl = np.rint(a + (b - a) * t).astype(int)
        out.append(f"#{r:02x}{g:02x}{bl:02x}")
    return out


WEIGHT_PALETTE = _ramp("#ffffff", PALETTE["weights"], 128)  # white -> orange
SIGNED_PALETTE = _ramp("#56B4E9", "#ffffff", 64)[:-1] + _ramp("#ffffff", PALETTE["output"], 64)  # sky blue, white, purple


# --- text, written the same way by app/static/multi_head.js ------------------------------------
def thousands(k: int) -> str:
    """786432 -> '786,432'."""
    return f"{int(k):,}"


def num(x: float) -> str:
    """A divisor as printed: whole numbers bare ('8'), others with three decimals ('1.414')."""
    return str(int(x)) if float(x).is_integer() else fix(x, 3)


def root_text(d_k: int) -> str:
    """'√4 = 2', '√2 = 1.414'."""
    return f"√{d_k} = {num(math.sqrt(d_k))}"


def signed(x: float, digits: int = 2) -> str:
    """A factor in a sum: negatives in brackets, '(-0.53)'."""
    s = fix(x, digits)
    return f"({s})" if s.startswith("-") else s


def sum_text(a, b) -> str:
    """'a1×b1 + a2×b2 + …', four products to a line."""
    terms = [f"{signed(x)}×{signed(y)}" for x, y in zip(a, b)]
    lines = [" + ".join(terms[k:k + 4]) for k in range(0, len(terms), 4)]
    return "\n+ ".join(lines)


def map_width(d_model: int) -> int:
    """The width the heat maps are computed at: d_model itself, or 16 for the paper's 512."""
    return d_model if d_model in MAP_WIDTHS else MAX_MAP_WIDTH


def split_problem(d_model: int, h: int) -> str:
    """The refusal shown when h does not divide d_model ('' when it does)."""
    if d_model % h == 0:
        return ""
    fits = [str(k) for k in H_CHOICES if d_model % k == 0]
    ok = ", ".join(fits[:-1]) + " or " + fits[-1] if len(fits) > 1 else fits[0]
    return (f"{h} heads cannot share d_model = {d_model}: each head would be {d_model / h:g} wide. "
            f"With d_model = {d_model} choose {ok} heads.")


def summary_html(d_model: int, h: int, n: int) -> str:
    """The line under the controls; multi_head.js's summary_html writes the same text."""
    d_k = d_model // h
    w = map_width(d_model)
    text = (f"<b>d_model = {d_model}, h = {h}</b>: each head works at d_k = d_v = {d_model} / {h} = {d_k} "
            f"and divides its scores by {root_text(d_k)}.")
    if w != d_model:
        text += (f" <b>The heat maps stay at d_model = {w}</b> (d_k = {w // h}, divisor {root_text(w // h)}): "
                 f"at {d_model}, W_O alone would be {thousands(d_model * d_model)} cells. The counter and the "
                 f"divisors show d_model = {d_model}.")
    else:
        text += f" The heat maps below use {n} tokens at this width."
    return f"<div class='ae-mh-summary'>{text}</div>"


# --- the state ---------------------------------------------------------------------------------
class MultiHeadState(PlateState):
    """What the multi-head plate shows; d_model, h and n round-trip through the URL."""

    d_model = param.Selector(default=8, objects=D_CHOICES,
                             doc="Model width. 4, 8 and 16 are computed in the heat maps; 512 (the paper's) "
                                 "is shown by the counter and the divisors while the maps stay at 16.")
    h = param.Selector(default=2, objects=H_CHOICES, doc="Number of heads; must divide d_model.")
    n = param.Integer(5, bounds=(N_MIN, N_MAX), doc="Number of tokens (rows of X).")
    message = param.String("", doc="Why the last request was refused ('' when nothing was).")

    url_fields = ("d_model", "h", "n")

    def __init__(self, **params):
        super().__init__(**params)
        problem = split_problem(self.d_model, self.h)
        if problem:
            raise ValueError(problem)
        self.param.watch(self._keep_split, ["d_model", "h"])

    def _keep_split(self, *events) -> None:
        """Refuse a d_model / h pair where h does not divide d_model: put back what changed."""
        problem = split_problem(self.d_model, self.h)
        if not problem:
            self.message = ""
            return
        with param.parameterized.discard_events(self):
            self.param.update({e.name: e.old for e in events})
        self.message = problem

    # --- derived numbers -------------------------------------------------------------------
    @property
    def width(self) -> int:
        return map_width(self.d_model)

    @property
    def d_k(self) -> int:
        return ac.head_width(self.d_model, self.h)

    def inputs(self):
        """(X (n, w), Wq, Wk, Wv, Wo (w, w)) at the heat maps' width w, from the seeded recipe."""
        return ac.multi_head_recipe(self.n, self.width, SEED)

    def result(self):
        """attention_core's (output (n, w), weights (h, n, n), concat (n, w)) at the maps' width."""
        return ac.multi_head_attention(*self.inputs(), self.h)

    def counts(self) -> dict:
        return ac.param_counts(self.d_model, self.h)

    # --- URL -------------------------------------------------------------------------------
    def apply_url(self, args) -> list[str]:
        self.message = ""
        notices = super().apply_url(args)
        if self.message:
            notices.append(f"ignored the combination: {self.message.rstrip('.')}")
            self.message = ""  # said once, in the link notice
        return notices


# --- data for the sources (multi_head.js builds the same dicts) ---------------------------------
def heads_per_row(room: int = 0) -> int:
    """Three head maps to a row on a wide screen (four maps of N_MAX tokens would pass 1280 px
    beside the divisors); on a phone (`room`: the pixels a figure has across it; 0 on a wide
    screen) as many as fit at N_MAX tokens, at least one, so that the maps keep their size instead
    of shrinking. n does not count: a new n must leave the figure's size as it is."""
    cols = HEADS_PER_ROW
    while room and cols > 1 and head_maps_px(cols) > room:
        cols -= 1
    return cols


def head_maps_px(cols: int) -> int:
    """The head_maps figure's width in pixels with `cols` maps to a row (its frame and borders),
    whatever n is: the width N_MAX tokens' maps take."""
    return round(((cols - 1) * (N_MAX + 2) + N_MAX + 1) * CELL_HEAD) + 12  # + 6 px of border each side


def head_origin(k: int, n: int, h: int, room: int = 0) -> tuple[int, int]:
    """Where head k's cell (0, 0) sits in the head_maps figure (the maps of n tokens close up
    towards the top left; the figure keeps N_MAX tokens' room)."""
    cols = min(h, heads_per_row(room))
    return (k % cols) * (max(n, 4) + 2), -(k // cols) * (n + 3)


def head_ranges(h: int, room: int = 0) -> tuple[float, float, float, float]:
    """(x_start, x_end, y_start, y_end) of the head_maps figure: the span of N_MAX tokens' maps,
    whatever n is, so that a new n resizes no figure (BokehJS would lay the page out again and
    everything below the maps would move under the reader's eyes)."""
    cols = min(h, heads_per_row(room))
    rows = -(-h // cols)
    return -1.5, (cols - 1) * (N_MAX + 2) + N_MAX - 0.5, -((rows - 1) * (N_MAX + 3) + N_MAX - 1) - 0.5, 2.6


def head_data(weights: np.ndarray, raw: np.ndarray, d_k: int, room: int = 0) -> tuple[dict, dict, dict]:
    """(head_weights, head_titles, head_ticks) for weights and raw scores (h, n, n); `room` as in
    heads_per_row."""
    h, n, _ = weights.shape
    div = math.sqrt(d_k)
    cells = {k: [] for k in ("head", "i", "j", "value", "text", "x", "y", "score", "scaled", "tip")}
    titles = {"x": [], "y": [], "text": []}
    ticks = {"x": [], "y": [], "text": []}
    for k in range(h):
        ox, oy = head_origin(k, n, h, room)
        titles["x"].append(ox + (n - 1) / 2)
        titles["y"].append(oy + 2)
        titles["text"].append(f"head {k + 1} · ÷ {root_text(d_k)}")
        for t in range(n):
            ticks["x"] += [ox - 1, ox + t]
            ticks["y"] += [oy - t, oy + 1]
            ticks["text"] += [f"t{t + 1}", f"t{t + 1}"]
        for i in range(n):
            for j in range(n):
                w, s = float(weights[k, i, j]), float(raw[k, i, j])
                cells["head"].append(k)
                cells["i"].append(i)
                cells["j"].append(j)
                cells["value"].append(w)
                cells["text"].append(fix(w, 2))
                cells["x"].append(ox + j)
                cells["y"].append(oy - i)
                cells["score"].append(s)
                cells["scaled"].append(s / div)
                cells["tip"].append(
                    f"head {k + 1}: t{i + 1} reads t{j + 1}\nq·k = {fix(s, 3)}\n÷ {root_text(d_k)} → {fix(s / div, 3)}"
                    f"\nsoftmax along row t{i + 1} → {fix(w, 3)}")
    return cells, titles, ticks


def concat_data(concat: np.ndarray, weights: np.ndarray, Vh: np.ndarray) -> dict:
    """The joined head outputs (n, h·d_v), with each cell's weighted sum in its tip."""
    n, width = concat.shape
    h, _, d_v = Vh.shape
    out = {k: [] for k in ("i", "c", "value", "text", "x", "y", "head", "tip")}
    for i in range(n):
        for c in range(width):
            k, cc = divmod(c, d_v)
            v = float(concat[i, c])
            out["i"].append(i)
            out["c"].append(c)
            out["value"].append(v)
            out["text"].append(fix(v, 2))
            out["x"].append(c)
            out["y"].append(-i)
            out["head"].append(k)
            out["tip"].append(
                f"concat[t{i + 1}, {c + 1}] = head {k + 1}'s output, its column {cc + 1}\n"
                f"= Σ weight × value over t1..t{n}:\n{sum_text(weights[k, i], Vh[k, :, cc])}\n= {fix(v, 3)}")
    return out


def w_o_data(Wo: np.ndarray, d_v: int) -> dict:
    rows, cols = Wo.shape
    out = {k: [] for k in ("r", "c", "value", "text", "x", "y", "tip")}
    for r in range(rows):
        k, rr = divmod(r, d_v)
        for c in range(cols):
            v = float(Wo[r, c])
            out["r"].append(r)
            out["c"].append(c)
            out["value"].append(v)
            out["text"].append(fix(v, 2))
            out["x"].append(c)
            out["y"].append(-r)
            out["tip"].append(f"W_O[{r + 1}, {c + 1}] = {fix(v, 3)}\nrow {r + 1} multiplies head {k + 1}'s "
                              f"column {rr + 1} of concat")
    return out


def output_data(output: np.ndarray, concat: np.ndarray, Wo: np.ndarray) -> dict:
    n, cols = output.shape
    out = {k: [] for k in ("i", "c", "value", "text", "x", "y", "tip")}
    for i in range(n):
        for c in range(cols):
            v = float(output[i, c])
            out["i"].append(i)
            out["c"].append(c)
            out["value"].append(v)
            out["text"].append(fix(v, 2))
            out["x"].append(c)
            out["y"].append(-i)
            out["tip"].append(f"output[t{i + 1}, {c + 1}] = concat row t{i + 1} · W_O column {c + 1}\n"
                              f"= {sum_text(concat[i], Wo[:, c])}\n= {fix(v, 3)}")
    return out


def matrix_marks(n: int, width: int, h: int) -> tuple[dict, dict, dict, dict, dict]:
    """Labels and head separators: (concat_marks, concat_lines, w_o_marks, w_o_lines, output_marks)."""
    d_v = width // h
    cm = {"x": [], "y": [], "text": []}
    om = {"x": [], "y": [], "text": []}
    wm = {"x": [], "y": [], "text": []}
    for i in range(n):
        for m in (cm, om):
            m["x"].append(-1)
            m["y"].append(-i)
            m["text"].append(f"t{i + 1}")
    for c in range(width):
        for m in (cm, om, wm):
            m["x"].append(c)
            m["y"].append(1)
            m["text"].append(str(c + 1))
        wm["x"].append(-1)
        wm["y"].append(-c)
        wm["text"].append(str(c + 1))
    for k in range(h):
        cm["x"].append(k * d_v + (d_v - 1) / 2)
        cm["y"].append(2)
        cm["text"].append(f"head {k + 1}" if d_v >= 2 else f"h{k + 1}")
    cl = {"x0": [], "y0": [], "x1": [], "y1": []}
    wl = {"x0": [], "y0": [], "x1": [], "y1": []}
    for k in range(1, h):
        cl["x0"].append(k * d_v - 0.5)
        cl["x1"].append(k * d_v - 0.5)
        cl["y0"].append(-(n - 0.5))
        cl["y1"].append(2.5)
        wl["x0"].append(-1.5)
        wl["x1"].append(width - 0.5)
        wl["y0"].append(-(k * d_v - 0.5))
        wl["y1"].append(-(k * d_v - 0.5))
    return cm, cl, wm, wl, om


PARAM_ROWS = ("W_Q, one head", "W_K, one head", "W_V, one head", "W_Q, W_K, W_V, all heads",
              "one head of full width", "W_O", "all, with W_O")


def params_data(d_model: int, h: int) -> dict:
    """The counter: one row per count, this setting beside the paper's (512, 8)."""
    out = {k: [] for k in ("row", "shape", "per_head", "per_head_text", "heads", "heads_text", "total", "total_text",
                           "paper_shape", "paper_per_head", "paper_per_head_text", "paper_total", "paper_total_text")}

    def rows(d, hh):
        p = ac.param_counts(d, hh)
        dk, dv = p["d_k"], p["d_v"]
        return [
            (f"{d} × {dk}", p["query_per_head"], hh, p["query_total"], ""),
            (f"{d} × {dk}", p["key_per_head"], hh, p["key_total"], ""),
            (f"{d} × {dv}", p["value_per_head"], hh, p["value_total"], ""),
            (f"3 × {d} × {dk}", p["per_head"], hh, p["qkv_total"], f" = 3·{d}²"),
            (f"3 × {d} × {d}", p["full_width_head"], 1, p["full_width_head"], f" = 3·{d}²"),
            (f"{hh * dv} × {d}", 0, 0, p["w_o"], f" = {d}²"),
            ("", 0, 0, p["total"], f" = 4·{d}²"),
        ]

    here, paper = rows(d_model, h), rows(*PAPER)
    for name, (shape, per, hh, total, note), (pshape, pper, _, ptotal, pnote) in zip(PARAM_ROWS, here, paper):
        out["row"].append(name)
        out["shape"].append(shape)
        out["per_head"].append(per)
        out["per_head_text"].append(thousands(per) if hh else "—")
        out["heads"].append(hh)
        out["total"].append(total)
        out["heads_text"].append(f"× {hh}" if hh else "")
        out["total_text"].append(thousands(total) + note)
        out["paper_shape"].append(pshape)
        out["paper_per_head"].append(pper)
        out["paper_per_head_text"].append(thousands(pper) if pper else "—")
        out["paper_total"].append(ptotal)
        out["paper_total_text"].append(thousands(ptotal) + pnote)
    return out


def divisors_data(d_model: int, h: int) -> dict:
    d_k = ac.head_width(d_model, h)
    div = ac.head_divisor(d_model, h)
    return {"head": list(range(h)), "label": [f"head {k + 1}" for k in range(h)], "d_k": [d_k] * h,
            "divisor": [div] * h, "text": [root_text(d_k)] * h}


# The counter and the divisors are plain HTML tables (app/html_table.py); multi_head.js's
# params_table_html and divisors_table_html write the same strings.
PARAMS_COLUMNS = (("parameters", "row", "row"), ("shape", "shape", "num"), ("per head", "per_head_text", "num"),
                  ("heads", "heads_text", "num"), ("in all", "total_text", "num"), ("paper/head", "paper_per_head_text", "num"),
                  ("paper (512, h\u00a0=\u00a08)", "paper_total_text", "num"))
DIVISORS_COLUMNS = (("head", "row"), ("d_k", "num"), ("divisor √d_k", "num"))
DIVISORS_HEIGHT = 236  # px: the header and eight rows
# Seven columns in the 660 px beside the controls (a 1280 px screen): smaller type, and long
# names and counts (d_model = 512) wrap rather than push the paper's column out of sight.
PARAMS_CSS = """
.ae-wt { font-size: 12.5px; }
.ae-wt th, .ae-wt td { padding: 3px 4px; }
.ae-wt tbody th { white-space: normal; min-width: 9em; }
@media (min-width: 481px) { .ae-wt td { white-space: normal; } }  /* a phone scrolls the table instead */
"""


def params_table_html(params: dict) -> str:
    rows = [[params[f][j] for _, f, _ in PARAMS_COLUMNS] for j in range(len(params["row"]))]
    return html_table.table_html("Parameter counts, this setting and the paper's",
                                 [(t, k) for t, _, k in PARAMS_COLUMNS], rows)


def divisors_table_html(divisors: dict) -> str:
    rows = [[label, str(int(d_k)), text]
            for label, d_k, text in zip(divisors["label"], divisors["d_k"], divisors["text"])]
    return html_table.table_html("Each head's width and divisor", DIVISORS_COLUMNS, rows)


def recipes() -> dict:
    """The seeded inputs at each computed width, for the browser (N_MAX rows of X; JS takes n)."""
    out = {}
    for w in MAP_WIDTHS:
        X, Wq, Wk, Wv, Wo = ac.multi_head_recipe(N_MAX, w, SEED)
        out[str(w)] = {"X": X.tolist(), "Wq": Wq.tolist(), "Wk": Wk.tolist(), "Wv": Wv.tolist(), "Wo": Wo.tolist()}
    return out


def signed_limit(values) -> float:
    """Half-width of a signed colour scale: the largest |value| (1 for an all-zero map)."""
    m = float(np.max(np.abs(values))) if np.size(values) else 0.0
    return m if m > 0 else 1.0


CSS = """
.ae-mh-summary { font-size: 14px; line-height: 1.45; color: #1f2328; }
.ae-mh-message { font-size: 14px; color: #6e4b00; background: #fff8e5; border: 1px solid #e6c46a;
  border-radius: 4px; padding: 4px 8px; }
.ae-mh-message:empty { display: none; }
.ae-mh-note { font-size: 13px; color: #57606a; line-height: 1.4; }
.ae-mh-head { font-size: 14px; color: #1f2328; margin-top: 6px; }
"""

# The layer's formula in two parts, so that on a phone the second wraps under the first.
FORMULA_1 = (
    "<mrow><mtext>MultiHead</mtext><mo>(</mo><mi>X</mi><mo>)</mo><mo>=</mo><mtext>Concat</mtext><mo>(</mo>"
    "<msub><mtext>head</mtext><mn>1</mn></msub><mo>,</mo><mo>…</mo><mo>,</mo><msub><mtext>head</mtext><mi>h</mi></msub>"
    "<mo>)</mo><mspace width='0.2em'/><msub><mi>W</mi><mi>O</mi></msub><mo>,</mo></mrow>"
)
FORMULA_1_LABEL = "MultiHead of X equals Concat of head 1 to head h, times W O"
FORMULA_WIDTHS = (
    "<mrow><msub><mi>d</mi><mi>k</mi></msub><mo>=</mo><msub><mi>d</mi><mi>v</mi></msub><mo>=</mo>"
    "<msub><mi>d</mi><mtext>model</mtext></msub><mo>/</mo><mi>h</mi></mrow>"
)
FORMULA_WIDTHS_LABEL = "d k equals d v equals d model over h"
# Side by side where they fit (the gap is the space the one-line formula had), one under the
# other on a phone, where the formulas also take a smaller size.
FORMULA_CSS = """
.ae-mh-formulas { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 1.2em; }
@media (max-width: 480px) { math[display=block] { font-size: 1.1em; } }
"""
FORMULA_2 = (
    "<mrow><msub><mtext>head</mtext><mi>i</mi></msub><mo>=</mo><mtext>softmax</mtext><mo>(</mo><mfrac>"
    "<mrow><mi>X</mi><msubsup><mi>W</mi><mi>Q</mi><mi>i</mi></msubsup><mspace width='0.1em'/><msup><mrow><mo>(</mo>"
    "<mi>X</mi><msubsup><mi>W</mi><mi>K</mi><mi>i</mi></msubsup><mo>)</mo></mrow><mi>T</mi></msup></mrow>"
    "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></mfrac><mo>)</mo><mspace width='0.2em'/><mi>X</mi>"
    "<msubsup><mi>W</mi><mi>V</mi><mi>i</mi></msubsup></mrow>"
)
FORMULA_2_LABEL = ("head i equals softmax of X W Q i times the transpose of X W K i, over the square root of d k, "
                   "times X W V i")

HEADS_HEAD = ("<div class='ae-mh-head'><b>Each head's weights.</b> Row = the token reading, column = the token "
              "it reads; every row sums to 1. Each head divides its scores by √d_k, the root of its own width. "
              "Hover a cell for its arithmetic.</div>")
READING = ("<div class='ae-mh-note'><b>Reading the product.</b> output[t, c] is concat's row t times W_O's "
           "column c: side by side, the cell sits where that row and that column meet (a phone stacks the "
           "three maps, concat first). The heavy lines cut concat into the "
           "heads' blocks, and W_O into the rows each block multiplies. Blue is negative, purple positive.</div>")


def _heat(name: str, title: str | None, cell: int, x_range, y_range, frame_w: int, frame_h: int):
    f = figure(name=name, title=title or "", x_range=x_range, y_range=y_range, frame_width=frame_w, frame_height=frame_h,
               tools="", toolbar_location=None, min_border_left=6, min_border_right=6, min_border_top=4,
               min_border_bottom=6)
    style_figure(f)
    if title:
        f.title.text_font_size = "11pt"
    else:
        f.title = None
    f.axis.visible = False
    f.grid.visible = False
    return f


class MultiHeadPlate(PlateViewer):
    """Multi-head attention: every head's weights, the concatenation, W_O, the output and the counter."""

    state_class = MultiHeadState
    glue, live = "multi_head.js", "MultiHeadLive"  # the browser half (app/static/multi_head.js)
    slug = "multi-head"
    title = "Heads share the width"
    summary = ("h heads of width d_model/h: each head's weights, the joined outputs, W_O, and a live count "
               "of the parameters (3·d_model² for all heads, as for one).")

    # --- the view --------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        n, w, h = s.n, s.width, s.h

        def src(name, cols):
            return ColumnDataSource({c: [] for c in cols}, name=name)

        self.head_src = src("head_weights", ("head", "i", "j", "value", "text", "x", "y", "score", "scaled", "tip"))
        self.head_titles = src("head_titles", ("x", "y", "text"))
        self.head_ticks = src("head_ticks", ("x", "y", "text"))
        self.concat_src = src("concat", ("i", "c", "value", "text", "x", "y", "head", "tip"))
        self.w_o_src = src("w_o", ("r", "c", "value", "text", "x", "y", "tip"))
        self.out_src = src("mh_output", ("i", "c", "value", "text", "x", "y", "tip"))
        self.concat_marks = src("concat_marks", ("x", "y", "text"))
        self.concat_lines = src("concat_lines", ("x0", "y0", "x1", "y1"))
        self.w_o_marks = src("w_o_marks", ("x", "y", "text"))
        self.w_o_lines = src("w_o_lines", ("x0", "y0", "x1", "y1"))
        self.out_marks = src("output_marks", ("x", "y", "text"))
        self.params_src = ColumnDataSource(params_data(s.d_model, s.h), name="params")
        self.div_src = ColumnDataSource(divisors_data(s.d_model, s.h), name="divisors")
        self.setting_src = ColumnDataSource({"d_model": [s.d_model], "h": [s.h], "n": [n], "width": [w]}, name="setting")
        # The browser's room for a figure on a phone (0: a wide screen), sent once by the glue: the
        # head maps go fewer to a row there, and Python must place them as the browser does.
        self.room = 0
        self.screen_src = ColumnDataSource({"room": [0]}, name="screen")

        tip = "<div style='white-space: pre-line; font: 12px/1.35 ui-monospace, monospace; max-width: 420px'>@tip</div>"

        # The heads' weight maps, all in one figure, up to three to a row.
        x0, x1, y0, y1 = head_ranges(h)
        self.head_x, self.head_y = Range1d(x0, x1), Range1d(y0, y1)
        hf = _heat("head_maps", None, CELL_HEAD, self.head_x, self.head_y, round((x1 - x0) * CELL_HEAD),
                   round((y1 - y0) * CELL_HEAD))
        wmap = LinearColorMapper(palette=WEIGHT_PALETTE, low=0.0, high=1.0)
        cells = hf.rect("x", "y", width=0.96, height=0.96, source=self.head_src, line_color="white",
                        fill_color={"field": "value", "transform": wmap})
        hf.text("x", "y", text="text", source=self.head_src, text_align="center", text_baseline="middle",
                text_font_size="8pt", text_color=PALETTE["ink"])
        hf.text("x", "y", text="text", source=self.head_titles, text_align="center", text_baseline="middle",
                text_font_size="9pt", text_font_style="bold", text_color=PALETTE["weights"])
        hf.text("x", "y", text="text", source=self.head_ticks, text_align="center", text_baseline="middle",
                text_font_size="8pt", text_color=MUTED)
        hf.add_tools(HoverTool(renderers=[cells], tooltips=tip))
        self.head_fig = hf

        # concat @ W_O = output, laid out so output[i, c] sits where concat's row i meets W_O's column c.
        self.cols_x = Range1d(-1.5, w - 0.5)
        self.rows_y = Range1d(*ROWS_Y)
        self.w_o_y = Range1d(-(w - 0.5), 1.5)
        fw, fh, fwo = round((w + 1) * CELL), round((N_MAX + 3) * CELL), round((w + 2) * CELL)
        self.signed_maps = {}
        figs = {}
        for key, name, title, source, marks, xr, yr, hh in [
            ("concat", "concat_map", "concat", self.concat_src, self.concat_marks, Range1d(-1.5, w - 0.5),
             self.rows_y, fh),
            ("w_o", "w_o_map", "× W_O", self.w_o_src, self.w_o_marks, self.cols_x, self.w_o_y, fwo),
            ("output", "output_map", "= output", self.out_src, self.out_marks, self.cols_x, self.rows_y, fh),
        ]:
            f = _heat(name, title, CELL, xr, yr, fw, hh)
            mapper = LinearColorMapper(palette=SIGNED_PALETTE, low=-1.0, high=1.0)
            r = f.rect("x", "y", width=0.96, height=0.96, source=source, line_color="white",
                       fill_color={"field": "value", "transform": mapper})
            f.text("x", "y", text="text", source=source, text_align="center", text_baseline="middle",
                   text_font_size="8pt", text_color=PALETTE["ink"])
            f.text("x", "y", text="text", source=marks, text_align="center", text_baseline="middle",
                   text_font_size="8pt", text_color=MUTED)
            f.add_tools(HoverTool(renderers=[r], tooltips=tip))
            self.signed_maps[key] = mapper
            figs[key] = f
        figs["concat"].segment("x0", "y0", "x1", "y1", source=self.concat_lines, line_color=PALETTE["ink"], line_width=2)
        figs["w_o"].segment("x0", "y0", "x1", "y1", source=self.w_o_lines, line_color=PALETTE["ink"], line_width=2)
        figs["concat"].title.text_color = PALETTE["values"]
        figs["output"].title.text_color = PALETTE["output"]
        self.concat_fig, self.w_o_fig, self.out_fig = figs["concat"], figs["w_o"], figs["output"]
        self.reading_div = Div(name="reading", text=READING, width=300, stylesheets=[InlineStyleSheet(css=CSS)],
                               margin=(10, 16, 5, 10))
        grid = GridBox(children=[(self.reading_div, 0, 0), (self.w_o_fig, 0, 1), (self.concat_fig, 1, 0),
                                 (self.out_fig, 1, 1)], spacing=4)
        heads_head = Div(text=HEADS_HEAD, width=900, stylesheets=[InlineStyleSheet(css=CSS)])

        # Controls, messages, the counter and the divisors.
        self.d_w = Select(name="d_model", title="d_model (model width)", value=str(s.d_model),
                          options=[(str(d), f"{d}" + (" (the paper's; counter only)" if d not in MAP_WIDTHS else ""))
                                   for d in D_CHOICES], width=230)
        self.h_w = RadioButtonGroup(name="h", labels=[str(k) for k in H_CHOICES], active=H_CHOICES.index(s.h),
                                    width=200, margin=(26, 10, 5, 10))
        self.n_w = Slider(name="n", title="tokens n", start=N_MIN, end=N_MAX, step=1, value=n, width=200)
        heads_label = Div(text="<span class='ae-mh-note'>heads h</span>", width=60, margin=(30, 0, 0, 10),
                          stylesheets=[InlineStyleSheet(css=CSS)])
        self.summary_div = Div(name="summary", text="", width=560, stylesheets=[InlineStyleSheet(css=CSS)])
        self.message_div = Div(name="message", text="", width=560, stylesheets=[InlineStyleSheet(css=CSS)])
        self.params_table = Div(name="params_table", text=params_table_html(self.params_src.data), width=660,
                                stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS + PARAMS_CSS)])
        # As tall as eight heads' rows, so a change of h never moves what sits below it.
        self.div_table = Div(name="divisors_table", text=divisors_table_html(self.div_src.data), width=250,
                             height=DIVISORS_HEIGHT, stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS)])

        models = {"head": self.head_src, "head_titles": self.head_titles, "head_ticks": self.head_ticks,
                  "concat": self.concat_src, "w_o": self.w_o_src, "out": self.out_src,
                  "concat_marks": self.concat_marks, "concat_lines": self.concat_lines, "w_o_marks": self.w_o_marks,
                  "w_o_lines": self.w_o_lines, "out_marks": self.out_marks, "params": self.params_src,
                  "divisors": self.div_src, "params_table": self.params_table, "divisors_table": self.div_table,
                  "setting": self.setting_src, "screen": self.screen_src, "head_fig": hf, "concat_fig": self.concat_fig,
                  "w_o_fig": self.w_o_fig, "out_fig": self.out_fig, "head_x": self.head_x, "head_y": self.head_y,
                  "cols_x": self.cols_x, "concat_x": self.concat_fig.x_range, "w_o_y": self.w_o_y,
                  "concat_map": self.signed_maps["concat"], "w_o_map": self.signed_maps["w_o"],
                  "out_map": self.signed_maps["output"], "d_model": self.d_w, "h": self.h_w, "n": self.n_w,
                  "summary": self.summary_div, "message": self.message_div,
                  "defaults": {"d_model": MultiHeadState.param.d_model.default, "h": MultiHeadState.param.h.default,
                               "n": MultiHeadState.param.n.default},
                  "recipes": recipes()}
        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (hf, "One heatmap of attention weights per head: rows are the tokens that read, columns the tokens "
                 "read; each head divides its scores by its own √d_k.", True),
            (self.concat_fig, "Heatmap of the heads' outputs joined side by side (concat), one row per token."),
            (self.w_o_fig, "Heatmap of the mixing matrix W_O."),
            (self.out_fig, "Heatmap of the output, concat times W_O, one row per token."),
        ], [
            a11y.matrix("Weights", self.head_src, row="i", col="j", value="value", digits=3, group="head",
                        group_prefix="head ", row_prefix="t", col_prefix="t", offset=1),
            a11y.columns("Divisor of each head", self.div_src, [("label", "head", None), ("d_k", "d_k", None),
                                                                ("divisor", "√d_k", 4)]),
            a11y.matrix("concat", self.concat_src, row="i", col="c", value="value", digits=3, row_prefix="t",
                        col_prefix="", offset=1),
            a11y.matrix("W_O", self.w_o_src, row="r", col="c", value="value", digits=3, row_prefix="",
                        col_prefix="", offset=1),
            a11y.matrix("Output", self.out_src, row="i", col="c", value="value", digits=3, row_prefix="t",
                        col_prefix="", offset=1),
            a11y.columns("Parameters", self.params_src, [("row", "matrix", None), ("shape", "shape", None),
                                                         ("per_head_text", "per head", None),
                                                         ("total_text", "total", None)]),
        ], width=1200)
        live = CustomJS(args=models, code=custom_js_code("multi_head.js", "MultiHeadLive.on_change(a);", list(models)))
        self.a11y_toggle.js_on_change("active", CustomJS(
            args=models, code=custom_js_code("multi_head.js", "AEA11y.on_table_toggle(a);", list(models))))
        self.d_w.js_on_change("value", live)
        self.h_w.js_on_change("active", live)
        self.n_w.js_on_change("value", live)

        # Python follows the widgets (the slider when it is let go); multi_head.js marks the
        # settings' source "busy" during a run of changes, and Python folds them in once it goes.
        for model, attr in [(self.d_w, "value"), (self.h_w, "active"), (self.n_w, "value_throttled"),
                            (self.setting_src, "tags")]:
            model.on_change(attr, partial(self._from_browser))
        self.screen_src.on_change("data", self._on_screen)

        self.state.param.watch(lambda *_: self._render(), ["message"])
        self.js_models = models  # page.js applies a link's settings with MultiHeadLive.apply_url (exported page)
        self._layout = pn.Column(
            pn.Row(
                pn.Column(
                    pn.Row(bokeh_pane(self.d_w), bokeh_pane(heads_label), bokeh_pane(self.h_w)),
                    bokeh_pane(self.n_w),
                    bokeh_pane(self.message_div),
                    bokeh_pane(self.summary_div),
                    pn.pane.HTML("<div class='ae-mh-formulas'>" + formula_html(FORMULA_1, FORMULA_1_LABEL)
                                 + formula_html(FORMULA_WIDTHS, FORMULA_WIDTHS_LABEL) + "</div>"
                                 + formula_html(FORMULA_2, FORMULA_2_LABEL),
                                 stylesheets=[MATH_CSS, FORMULA_CSS], margin=(0, 10)),
                    width=560,
                ),
                pn.Column(bokeh_pane(self.params_table), margin=(10, 5, 5, 10)),
            ),
            bokeh_pane(heads_head),
            pn.Row(bokeh_pane(self.div_table), bokeh_pane(hf)),
            bokeh_pane(grid),
            bokeh_pane(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state --------------------------------------------------------------------
    def _from_browser(self, attr, old, new) -> None:
        """Fold the widgets into the state; a refused pair puts the widgets back and says why."""
        if getattr(self, "_rendering", False):
            return  # our own echo
        if "busy" in (self.setting_src.tags or []):
            if attr != "tags":
                self._page_ahead = True  # the page shows mirror.js's numbers for a step Python has not seen
            return  # a run of changes the browser leads, folded in when it ends
        try:
            d_model = int(self.d_w.value)
            h = H_CHOICES[int(self.h_w.active)]
            n = int(round(float(self.n_w.value)))  # synced at every move; Python acts on value_throttled
            if d_model not in D_CHOICES or not N_MIN <= n <= N_MAX:
                raise ValueError("out of range")
        except (TypeError, ValueError, IndexError, OverflowError):  # OverflowError: n = ±Infinity
            self._render(force=True)
            return
        problem = split_problem(d_model, h)
        if problem:
            self.state.message = problem
            self._render(force=True)
            return
        self.state.message = ""
        before = (self.state.d_model, self.state.h, self.state.n)
        self.state.param.update(d_model=d_model, h=h, n=n)  # a change renders through the state's watcher
        if (d_model, h, n) == before and (attr != "tags" or self._page_ahead):
            # Unchanged: still answer, putting the widgets back. A run's end with no step after
            # Python's last answer (one click) leaves Python's own numbers on the page.
            self._render()

    def _on_screen(self, attr, old, new) -> None:
        """The browser's room on a phone: a whole number of pixels, anything else means none."""
        try:
            room = int(new["room"][0])
        except (KeyError, IndexError, TypeError, ValueError, OverflowError):
            room = 0
        room = room if 0 < room <= 10_000 else 0
        if room != self.room:
            self.room = room
            self._render()

    # --- state -> view -----------------------------------------------------------------------
    _page_ahead = False

    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        self._page_ahead = False
        s = self.state
        if split_problem(s.d_model, s.h):
            return  # the state's watcher is putting the pair back
        n, w, h = s.n, s.width, s.h
        X, Wq, Wk, Wv, Wo = s.inputs()
        output, weights, concat = ac.multi_head_attention(X, Wq, Wk, Wv, Wo, h)  # (n, w), (h, n, n), (n, w)
        raw = ac.head_scores(X, Wq, Wk, h)  # (h, n, n)
        Vh = ac.split_heads(X @ Wv, h)  # (h, n, w/h)
        cells, titles, ticks = head_data(weights, raw, w // h, self.room)
        cm, cl, wm, wl, om = matrix_marks(n, w, h)
        x0, x1, y0, y1 = head_ranges(h, self.room)
        self._rendering = True
        try:
            push(self.head_src, cells, force)
            push(self.head_titles, titles, force)
            push(self.head_ticks, ticks, force)
            push(self.concat_src, concat_data(concat, weights, Vh), force)
            push(self.w_o_src, w_o_data(Wo, w // h), force)
            push(self.out_src, output_data(output, concat, Wo), force)
            push(self.concat_marks, cm, force)
            push(self.concat_lines, cl, force)
            push(self.w_o_marks, wm, force)
            push(self.w_o_lines, wl, force)
            push(self.out_marks, om, force)
            push(self.params_src, params_data(s.d_model, h), force)
            push(self.div_src, divisors_data(s.d_model, h), force)
            set_if_changed(self.params_table, "text", params_table_html(self.params_src.data))
            set_if_changed(self.div_table, "text", divisors_table_html(self.div_src.data))
            push(self.setting_src, {"d_model": [s.d_model], "h": [h], "n": [n], "width": [w]}, force)
            for rng, (a, b) in [(self.head_x, (x0, x1)), (self.head_y, (y0, y1)), (self.cols_x, (-1.5, w - 0.5)),
                                (self.concat_fig.x_range, (-1.5, w - 0.5)), (self.w_o_y, (-(w - 0.5), 1.5))]:
                set_if_changed(rng, "start", a)
                set_if_changed(rng, "end", b)
            set_if_changed(self.head_fig, "frame_width", round((x1 - x0) * CELL_HEAD))
            set_if_changed(self.head_fig, "frame_height", round((y1 - y0) * CELL_HEAD))
            for f, hh in [(self.concat_fig, N_MAX + 3), (self.w_o_fig, w + 2), (self.out_fig, N_MAX + 3)]:
                set_if_changed(f, "frame_width", round((w + 1) * CELL))
                set_if_changed(f, "frame_height", round(hh * CELL))
            for key, values in [("concat", concat), ("w_o", Wo), ("output", output)]:
                m = signed_limit(values)
                set_if_changed(self.signed_maps[key], "low", -m)
                set_if_changed(self.signed_maps[key], "high", m)
            set_if_changed(self.d_w, "value", str(s.d_model))
            set_if_changed(self.h_w, "active", H_CHOICES.index(h))
            set_if_changed(self.n_w, "value", n)
            set_if_changed(self.summary_div, "text", summary_html(s.d_model, h, n))
            msg = f"<div class='ae-mh-message' role='alert'>{s.message}</div>" if s.message else ""
            set_if_changed(self.message_div, "text", msg)
        finally:
            self._rendering = False

    def __panel__(self):
        return self._layout


MultiHeadPlate.lead = """
One head gives each token one row of weights. **Multi-head attention** cuts the width d_model
into h slices and runs one attention in each, with its own maps and its own divisor √(d_model/h);
the h results are joined side by side and mixed by W_O. Pick the number of heads.
"""

MultiHeadPlate.explanation = """
**Why heads.** A single row of weights can follow only one notion of "relevant" at a time. With h
heads each token gets h rows, one per head, and each head can weigh the tokens differently (the
maps above differ from head to head although they read the same tokens).

**Widths.** Head i has its own query, key and value maps, each d_model × d_k with
d_k = d_v = d_model / h. Here they are the column slices i of three full d_model × d_model maps, so
the h heads hold 3·d_model² numbers between them, exactly what one head of full width holds:
splitting is free. Only the output map W_O, d_model × d_model, adds d_model². In the paper's
setting, d_model = 512 and h = 8, each map of a head is 512 × 64 = 32,768 numbers, the 24 maps hold
786,432 = 3·512², W_O holds 262,144 and the layer 1,048,576 in all.

**Divisors.** Each head compares vectors of its own width d_k, so it divides its scores by √d_k,
not by √d_model: √64 = 8 at 512 with 8 heads (not √512 ≈ 22.6); here √4 = 2 with d_model 8 and
2 heads, and √2 ≈ 1.414 with 4 heads.

**The recipe.** rng = numpy.random.default_rng(0); W_Q, W_K, W_V, W_O = rng.normal(size=(4, d, d)) / √d;
X = rng.normal(size=(n, d)). With h = 1 the plate is plain single-head attention followed by W_O.
d_model = 512 changes the counter and the divisors; the heat maps then stay at d_model = 16.
"""
