"""Plate 4, all tokens at once (self-attention; after "Attention: queries, keys, values", attention.py).

What it teaches: in self-attention every token makes its own query, key and value with three
maps (Q = X Wq, K = X Wk, V = X Wv), and all the tokens take their turn in one line of matrix
algebra, softmax(QKᵀ/√d_k) V. The plate shows the n × n table of scaled scores, the row-wise
softmax weights (each row sums to 1) and the output rows as heat maps with the numbers in the
cells; hovering a cell shows its arithmetic. Shuffling the tokens only shuffles the outputs
(permutation equivariance, the seed's `np.allclose(...)` check prints True); adding sinusoidal
position features to the tokens breaks that, and the check turns False with the difference
shown. A switch turns it into cross-attention: queries from X (N rows), keys and values from a
second sequence Y (M = N + 2 rows), and the tables become N × M.

Open it: `attention-explorable serve` then http://localhost:5006/self-attention, or
`attention-explorable export OUTDIR --plate self-attention` for one offline HTML file, or in
Jupyter `from app.plates.self_attention import SelfAttentionPlate; SelfAttentionPlate()`.

The numbers. The seed's recipe gives X and the three maps: rng = numpy.random.default_rng(0);
X = rng.normal(size=(5, 4)); Wq, Wk, Wv = rng.normal(size=(3, 4, 4)). For n ≠ 5 the plate keeps
those five rows and maps and takes rows 5..7 from numpy.random.default_rng(1).normal(size=(8, 4))
(n < 5 uses the first n rows). Y is numpy.random.default_rng(2).normal(size=(10, 4)), first M rows.
Shuffle #0 is the original order, #1 the seed's perm [3, 0, 4, 1, 2] (for n = 5; for other n a
seeded permutation), #k the first non-identity draw of numpy.random.default_rng([n, k]).permutation(n).
Python computes these once and hands them to the browser as data.

Named models (tests and outside checks read them with Bokeh.documents[0].get_model_by_name):
sources "tokens" (i, c, value, text: the input rows fed in, X[perm] (+ PE)), "scores" (i, j,
value, text), "weights" (i, j, value, text), "row_sums" (i, sum), "output" (i, c, value, text),
"original_output" (i, c, value, text: the output of the original order), "output_diff" (i, c,
value, text: |self_attention(X)[perm] − self_attention(X[perm])|), "perm_check" (equal,
max_diff, label, left, right, by), "worked_example" (j, weight) and "worked_output" (c,
value); widgets "n", "shuffle", "shuffle_button", "original_button", "positions", "cross"; Divs
"order", "check_readout", "message"; figures "tokens_map", "scores_map", "weights_map",
"output_map", "original_map", "diff_map", "worked_map". Every cell's "label" is the number
written in it.

Every change (n, shuffle, positions, cross) is recomputed in the browser by
app/static/self_attention.js with AttentionMirror, so the page works in an exported file; on a
served page Python recomputes the same numbers with attention_core (the authority; the
"perm_check" source's `by` column says which computed what is shown) and keeps the URL in step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
import panel as pn
import param
from bokeh.events import ButtonClick
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    CustomJS,
    Div,
    FactorRange,
    HoverTool,
    InlineStyleSheet,
    LinearColorMapper,
    Slider,
    Spinner,
)
from bokeh.layouts import column as bk_column
from bokeh.plotting import figure

import attention_core as ac

from app.shared.formatting import fix
from app.shared import a11y
from app.shared.panes import bokeh_pane
from app.runtime.scripts import custom_js_code
from app.shared.mathml import ATTENTION, formula_html
from app.shared.state import PlateState
from app.shared.theme import PALETTE, style_figure
from app.shared.viewer import PlateViewer, push, set_if_changed

# --- the numbers (the seed's recipe, extended deterministically) ---------------------------
D = 4  # width of every token, query, key and value
N_MIN, N_MAX = 3, 8
MAX_SHUFFLE = 40
SEED_PERM = (3, 0, 4, 1, 2)
LETTERS = "ABCDEFGH"  # names of X's tokens in their original order
Y_LETTERS = "abcdefghij"  # names of Y's tokens (cross-attention)
ENTRIES = [str(c) for c in range(D)]
SUM_FACTOR = "Σ"


def seed_recipe() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """attention.py's X (5, 4) and maps Wq, Wk, Wv (4, 4), drawn exactly as the seed draws them."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 4))  # (5, 4)
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))  # (4, 4) each
    return X, Wq, Wk, Wv


X_SEED, WQ, WK, WV = seed_recipe()
X_ALL = np.vstack([X_SEED, np.random.default_rng(1).normal(size=(N_MAX, D))[5:]])  # (8, 4)
Y_ALL = np.random.default_rng(2).normal(size=(N_MAX + 2, D))  # (10, 4)


def seeded_perm(n: int, k: int) -> tuple[int, ...]:
    """Shuffle #k of n tokens: 0 = original order, 1 = the seed's perm when n = 5, else a seeded draw."""
    if k == 0:
        return tuple(range(n))
    if k == 1 and n == len(SEED_PERM):
        return SEED_PERM
    rng = np.random.default_rng([n, k])
    while True:
        p = rng.permutation(n)  # (n,)
        if np.any(p != np.arange(n)):
            return tuple(int(v) for v in p)


PERMS = {n: [seeded_perm(n, k) for k in range(MAX_SHUFFLE + 1)] for n in range(N_MIN, N_MAX + 1)}

# Fixed colour ranges, so colours stay comparable as the controls change (values beyond the
# range take the end colour); they cover every state the plate can show.
RANGES = {"tokens": 3.0, "scores": 6.0, "output": 4.0, "diff": 2.0}


# --- the state -----------------------------------------------------------------------------
class SelfAttentionState(PlateState):
    """Everything that defines what the self-attention plate shows; it round-trips through the URL."""

    n = param.Integer(5, bounds=(N_MIN, N_MAX), doc="Number of tokens (rows of X).")
    shuffle = param.Integer(1, bounds=(0, MAX_SHUFFLE),
                            doc="Which seeded order of the tokens: 0 = original, 1 = the seed's perm [3, 0, 4, 1, 2].")
    positions = param.Boolean(False, doc="Add sinusoidal position features to the token at each position (X + PE).")
    cross = param.Boolean(False, doc="Cross-attention: keys and values from a second sequence Y with M = n + 2 rows.")

    url_fields = ("n", "shuffle", "positions", "cross")

    @property
    def perm(self) -> tuple[int, ...]:
        return PERMS[self.n][self.shuffle]

    def frame(self) -> Frame:
        return compute(self.n, self.shuffle, self.positions, self.cross)


@dataclass(frozen=True)
class Frame:
    """Every number the plate shows for one state, from attention_core."""

    n: int
    perm: tuple[int, ...]
    positions: bool
    cross: bool
    X: np.ndarray  # (n, 4) tokens in their original order
    pe: np.ndarray  # (n, 4) position features (zeros when off)
    inputs: np.ndarray  # (n, 4) X[perm] + pe: the sequence fed in
    keys_in: np.ndarray  # (M, 4) the sequence the keys and values come from
    raw: np.ndarray  # (n, M) q_i · k_j
    scaled: np.ndarray  # (n, M) q_i · k_j / √d_k
    exp: np.ndarray  # (n, M) exp(scaled), unshifted (the textbook form shown on hover)
    weights: np.ndarray  # (n, M)
    V: np.ndarray  # (M, 4)
    output: np.ndarray  # (n, 4) attention of the sequence as fed in
    original: np.ndarray  # (n, 4) attention of the tokens in their original order (+ pe)
    diff: np.ndarray  # (n, 4) |original[perm] - output|
    equal: bool
    max_diff: float

    @property
    def M(self) -> int:
        return self.keys_in.shape[0]


def compute(n: int, shuffle: int, positions: bool, cross: bool) -> Frame:
    """attention_core's numbers for one state."""
    perm = PERMS[n][shuffle]
    p = list(perm)
    X = X_ALL[:n]  # (n, 4)
    pe = ac.sinusoidal_positions(n, D) if positions else np.zeros((n, D))  # (n, 4)
    inputs = X[p] + pe  # (n, 4)
    if cross:
        m = n + 2
        Y = Y_ALL[:m] + (ac.sinusoidal_positions(m, D) if positions else 0.0)  # (M, 4)
        output, weights = ac.cross_attention(inputs, Y, WQ, WK, WV)  # (n, 4), (n, M)
        original = ac.cross_attention(X + pe, Y, WQ, WK, WV)[0]  # (n, 4)
        equal, max_diff = ac.permutation_check(X, WQ, WK, WV, perm, positions=positions, Y=Y_ALL[:m])
        keys_in = Y  # (M, 4)
    else:
        output, weights = ac.self_attention(inputs, WQ, WK, WV)  # (n, 4), (n, n)
        original = ac.self_attention(X + pe, WQ, WK, WV)[0]  # (n, 4)
        equal, max_diff = ac.permutation_check(X, WQ, WK, WV, perm, positions=positions)
        keys_in = inputs  # (n, 4)
    raw = ac.scores(inputs @ WQ, keys_in @ WK)  # (n, M)
    scaled = raw * ac.default_scale(D)  # (n, M)
    return Frame(n, perm, positions, cross, X, pe, inputs, keys_in, raw, scaled, np.exp(scaled), weights,
                 keys_in @ WV, output, original, np.abs(original[p] - output), equal, max_diff)


# --- how the numbers are written (self_attention.js writes them the same way) ---------------
def sci(x: float, digits: int = 1) -> str:
    """x in scientific notation as JavaScript's toExponential writes it, with no '+': 4.4e-16, 2.4e0."""
    mant, exp = f"{x:.{digits}e}".split("e")
    return f"{mant}e{int(exp)}"


TINY = 1e-12  # differences below this are float rounding, which NumPy and the browser round differently


def show_diff(x: float) -> str:
    """A difference: three decimals, scientific notation below 0.001, and "< 1e-12" for rounding noise."""
    if x < TINY:
        return "< 1e-12"
    return fix(x, 3) if x >= 0.001 else sci(x, 1)


def show_exp(x: float) -> str:
    """An exponential on hover: three decimals, or scientific notation from 100000 up."""
    return fix(x, 3) if x < 1e5 else sci(x, 3)


def diff_clause(x: float) -> str:
    """'= 2.366', or '< 1e-12 (float rounding only)' when the difference is rounding noise."""
    return "< 1e-12 (float rounding only)" if x < TINY else "= " + show_diff(x)


def paren(s: str) -> str:
    return f"({s})" if s.startswith("-") else s


def row_names(f: Frame) -> list[str]:
    return [f"{i} {LETTERS[t]}" for i, t in enumerate(f.perm)]


def key_names(f: Frame) -> list[str]:
    return [f"{j} {Y_LETTERS[j]}" for j in range(f.M)] if f.cross else row_names(f)


def original_names(n: int) -> list[str]:
    return [f"{i} {LETTERS[i]}" for i in range(n)]


def check_expression(positions: bool, cross: bool) -> tuple[str, str]:
    """The two sides the check compares, as text."""
    fn = "cross_attention" if cross else "self_attention"
    y = ", Y" if cross else ""
    if positions:
        return f"{fn}(X + PE{y})[perm]", f"{fn}(X[perm] + PE{y})"
    return f"{fn}(X{y})[perm]", f"{fn}(X[perm]{y})"


def check_html(equal: bool, max_diff: float, positions: bool, cross: bool) -> str:
    left, right = check_expression(positions, cross)
    verdict = "True" if equal else "False"
    note = ("reordering the tokens only reorders the outputs" if equal else
            "the positions make the outputs depend on where each token sits")
    return (
        "<div class='ae-readout'><span class='ae-big'>np.allclose → " + verdict + "</span>"
        "<span class='ae-sub'>max |" + left + " − " + right + "| " + diff_clause(max_diff) + "</span>"
        "<span class='ae-sub'>" + note + "</span></div>"
    )


def order_html(n: int, perm: tuple[int, ...]) -> str:
    order = " ".join(LETTERS[t] for t in perm)
    note = " (the original order)" if list(perm) == list(range(n)) else ""
    return ("<div class='ae-order'>order fed in: <b>" + order + "</b>" + note +
            " · perm = [" + ", ".join(str(t) for t in perm) + "]</div>")


def frame_data(f: Frame) -> dict:
    """Every source's data and every axis's factors for one frame (self_attention.js: frame_data)."""
    n, M = f.n, f.M
    rows, keys, orig = row_names(f), key_names(f), original_names(n)
    tok = {k: [] for k in ("i", "c", "x", "y", "value", "label", "text")}
    for i in range(n):
        name = LETTERS[f.perm[i]]
        for c in range(D):
            x, pe, v = float(f.X[f.perm[i], c]), float(f.pe[i, c]), float(f.inputs[i, c])
            text = f"token {name} at position {i}, entry {c}: x = {fix(x, 3)}"
            if f.positions:
                text += f" + PE[{i},{c}] {paren(fix(pe, 3))} = {fix(v, 3)}"
            for k, val in zip(tok, (i, c, ENTRIES[c], rows[i], v, fix(v, 2), text)):
                tok[k].append(val)
    sc = {k: [] for k in ("i", "j", "x", "y", "value", "label", "text")}
    we = {k: [] for k in ("i", "j", "x", "y", "value", "label", "text")}
    key_token = [Y_LETTERS[j] for j in range(M)] if f.cross else [LETTERS[t] for t in f.perm]
    sqrt_dk = math.sqrt(D)
    for i in range(n):
        total = float(f.exp[i].sum())
        for j in range(M):
            raw, s, w = float(f.raw[i, j]), float(f.scaled[i, j]), float(f.weights[i, j])
            st = (f"q{i} · k{j} / √{D} = {fix(raw, 3)} / {fix(sqrt_dk, 0)} = {fix(s, 3)}"
                  f" (query of {LETTERS[f.perm[i]]}, key of {key_token[j]})")
            wt = (f"w{i},{j} = exp({fix(s, 3)}) / Σ_m exp(s{i},m) = {show_exp(float(f.exp[i, j]))}"
                  f" / {show_exp(total)} = {fix(w, 3)}")
            for src, val, text in ((sc, s, st), (we, w, wt)):
                for k, v in zip(src, (i, j, keys[j], rows[i], val, fix(val, 2), text)):
                    src[k].append(v)
    sums = [float(v) for v in f.weights.sum(axis=1)]
    out = {k: [] for k in ("i", "c", "x", "y", "value", "label", "text")}
    org = {k: [] for k in ("i", "c", "x", "y", "value", "label", "text")}
    dif = {k: [] for k in ("i", "c", "x", "y", "value", "label", "text")}
    p = list(f.perm)
    for i in range(n):
        for c in range(D):
            o = float(f.output[i, c])
            terms = " + ".join(f"{fix(float(f.weights[i, j]), 3)}×{paren(fix(float(f.V[j, c]), 3))}" for j in range(M))
            ot = f"o{i},{c} = Σ_j w{i},j v_j,{c} = {terms} = {fix(o, 3)}"
            g = float(f.original[i, c])
            gt = f"token {LETTERS[i]} in the original order, entry {c}: o{i},{c} = {fix(g, 3)}"
            d, before = float(f.diff[i, c]), float(f.original[p[i], c])
            dt = (f"|row {p[i]} of the original order's output − row {i} of this output|, entry {c}:"
                  f" |{fix(before, 3)} − {fix(o, 3)}| = {show_diff(d)}")
            for src, v, text, y in ((out, o, ot, rows[i]), (org, g, gt, orig[i]), (dif, d, dt, rows[i])):
                for k, val in zip(src, (i, c, ENTRIES[c], y, v, fix(v, 2), text)):
                    src[k].append(val)
    left, right = check_expression(f.positions, f.cross)
    return {
        "sources": {
            "tokens": tok, "scores": sc, "weights": we,
            "row_sums": {"i": list(range(n)), "sum": sums, "x": [SUM_FACTOR] * n, "y": rows,
                         "label": [fix(s, 2) for s in sums]},
            "output": out, "original_output": org, "output_diff": dif,
            "perm_check": {"equal": [f.equal], "max_diff": [f.max_diff], "label": ["True" if f.equal else "False"],
                           "left": [left], "right": [right], "by": ["attention_core"]},
        },
        "factors": {"rows": list(reversed(rows)), "keys": keys, "keys_sum": [*keys, SUM_FACTOR],
                    "original": list(reversed(orig))},
        "order": order_html(n, f.perm),
        "check": check_html(f.equal, f.max_diff, f.positions, f.cross),
    }


# --- the seed's one-token example, as self-attention-style matrices --------------------------
# One query token [1, 2 | 0, 0] against three tokens whose first two entries are the key and last
# two the value; Wk and Wq pick the first two entries, Wv the last two, so d_k = 2.
WORKED_X = np.array([[1.0, 2.0, 0.0, 0.0]])  # (1, 4)
WORKED_Y = np.array([[1.0, 0.0, 10.0, 0.0], [0.0, 1.0, 0.0, 10.0], [1.0, 1.0, 5.0, 5.0]])  # (3, 4)
PICK_KEY = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]])  # (4, 2)
PICK_VALUE = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])  # (4, 2)


def worked_example() -> tuple[np.ndarray, np.ndarray]:
    """(weights (3,), output (2,)) of the seed's q = [1, 2] turn, via cross_attention."""
    out, w = ac.cross_attention(WORKED_X, WORKED_Y, PICK_KEY, PICK_KEY, PICK_VALUE)  # (1, 2), (1, 3)
    return w[0], out[0]


def worked_html(w: np.ndarray, out: np.ndarray) -> str:
    return (
        "<div class='ae-worked'><b>One row of it.</b> The seed's single turn (q = [1, 2]; keys [1, 0], [0, 1], "
        "[1, 1]; values [10, 0], [0, 10], [5, 5]) is a 1 × 3 attention: written as "
        "cross_attention([[1, 2, 0, 0]], Y, Wq, Wk, Wv) with Wq, Wk picking the first two entries and Wv the "
        "last two, its weights are <b>[" + ", ".join(fix(float(v), 3) for v in w) + "]</b> and its output <b>["
        + ", ".join(fix(float(v), 2) for v in out) + "]</b>.</div>"
    )


# --- the view ------------------------------------------------------------------------------
CSS = """
.ae-readout { display: flex; flex-direction: column; gap: 2px; font-family: system-ui, sans-serif; }
.ae-big { font-size: 20px; font-weight: 700; color: #1f2328; }
.ae-sub { color: #57606a; font-size: 13px; }
.ae-order { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2328; padding-top: 4px; }
.ae-worked { font-family: system-ui, sans-serif; font-size: 13px; color: #1f2328; line-height: 1.4; }
.ae-message { font-family: system-ui, sans-serif; font-size: 13px; color: #6e4b00; }
.ae-message:not(:empty) { background: #fff8e5; border: 1px solid #e6c46a; border-radius: 4px; padding: 2px 6px; }
"""
TOOLTIP = "<div style='max-width:360px;white-space:normal;font-size:12px;line-height:1.35'>@text</div>"


def _blend(hex_color: str, t: float) -> str:
    """`hex_color` mixed with white: t = 0 white, t = 1 the colour."""
    r, g, b = (int(hex_color[k:k + 2], 16) for k in (1, 3, 5))
    return "#%02x%02x%02x" % tuple(round(255 + (v - 255) * t) for v in (r, g, b))


def diverging(neg: str, pos: str, steps: int = 128, strength: float = 0.8) -> list[str]:
    """neg ... white ... pos; the ends stop at `strength` so black numbers stay readable on them."""
    half = [_blend(neg, strength * (1 - k / steps)) for k in range(steps)]
    return half + [_blend(pos, strength * k / steps) for k in range(1, steps + 1)]


def sequential(color: str, steps: int = 128, strength: float = 0.85) -> list[str]:
    return [_blend(color, strength * k / (steps - 1)) for k in range(steps)]


class SelfAttentionPlate(PlateViewer):
    """All tokens at once: QKᵀ/√d_k, its row softmax and the output as heat maps; shuffle, positions, cross."""

    state_class = SelfAttentionState
    slug = "self-attention"
    glue, live = "self_attention.js", "SelfAttentionLive"  # the browser half (app/static/self_attention.js)
    title = "All tokens at once"
    summary = ("Self-attention as one matrix formula: every token's scores, weights and output, "
               "permutation equivariance, positions and cross-attention.")

    def _build(self) -> None:
        s = self.state
        self.sources = {name: ColumnDataSource({}, name=name) for name in (
            "tokens", "scores", "weights", "row_sums", "output", "original_output", "output_diff", "perm_check")}
        w, out = worked_example()
        self.worked_src = ColumnDataSource({"j": [0, 1, 2], "weight": w.tolist(), "label": [fix(float(v), 3) for v in w],
                                            "x": ["w0", "w1", "w2"], "y": ["q"] * 3}, name="worked_example")
        self.worked_out_src = ColumnDataSource({"c": [0, 1], "value": out.tolist(), "label": [fix(float(v), 2) for v in out],
                                                "x": ["o0", "o1"], "y": ["q"] * 2}, name="worked_output")

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
            "tokens": self._heatmap("tokens_map", "Tokens fed in", self.sources["tokens"], mappers["tokens"],
                                    r["entries"], r["rows"], 205, H, "entry", "position, token"),
            "scores": self._heatmap("scores_map", "Scores QKᵀ/√d_k", self.sources["scores"], mappers["scores"],
                                    r["keys"], r["rows"], 385, H, "key (position, token)", None),
            "weights": self._heatmap("weights_map", "Weights: softmax of each row", self.sources["weights"],
                                     mappers["weights"], r["keys_sum"], r["rows"], 420, H,
                                     "key (position, token) · Σ = row sum", None),
            "output": self._heatmap("output_map", "Output rows", self.sources["output"], mappers["output"],
                                    r["entries"], r["rows"], 200, H, "entry", None),
            "original": self._heatmap("original_map", "Original order", self.sources["original_output"],
                                      mappers["output"], r["entries"], r["original"], 235, 290, "entry",
                                      "position, token"),
            "diff": self._heatmap("diff_map", "|Difference|", self.sources["output_diff"], mappers["diff"],
                                  r["entries"], r["rows"], 215, 290, "entry", None),
        }
        # The seed's one-token turn as a 1 × 3 row of weights and its 1 × 2 output.
        wk = figure(name="worked_map", width=330, height=78, x_range=FactorRange("w0", "w1", "w2", "o0", "o1"),
                    y_range=FactorRange("q"), tools="", toolbar_location=None, x_axis_location="above",
                    min_border_left=30)
        style_figure(wk)
        wk.rect("x", "y", 0.95, 0.95, source=self.worked_src, line_color=None,
                fill_color={"field": "weight", "transform": mappers["weights"]})
        wk.rect("x", "y", 0.95, 0.95, source=self.worked_out_src, fill_color="white", line_color=PALETTE["output"],
                line_width=2)
        for src in (self.worked_src, self.worked_out_src):
            wk.text("x", "y", text="label", source=src, text_align="center", text_baseline="middle",
                    text_font_size="9pt", text_color=PALETTE["ink"])
        wk.grid.visible = False
        wk.axis.axis_line_color = None
        wk.axis.major_tick_line_color = None
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
        self.worked_div = Div(name="worked", text=worked_html(w, out), width=560, stylesheets=css)
        self.formula_div = Div(name="formula", width=560,
                               text=formula_html(ATTENTION, "Attention of Q, K, V equals softmax of Q K transpose "
                                                            "over root d k, times V"))

        data = {
            "X": X_ALL.tolist(), "Y": Y_ALL.tolist(), "Wq": WQ.tolist(), "Wk": WK.tolist(), "Wv": WV.tolist(),
            "perms": {str(n): [list(p) for p in ps] for n, ps in PERMS.items()},
            "letters": LETTERS, "y_letters": Y_LETTERS, "d": D, "n_min": N_MIN, "n_max": N_MAX,
            "max_shuffle": MAX_SHUFFLE,
            "defaults": {k: SelfAttentionState.param[k].default for k in SelfAttentionState.url_fields},
        }
        models = {"data": data, **self.sources, **{f"range_{k}": v for k, v in self.ranges.items()},
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
        self.js_models = models  # page.js reads a link with SelfAttentionLive.apply_url in an exported page

        def js(call: str) -> CustomJS:
            return CustomJS(args=models, code=custom_js_code("self_attention.js", call, list(models)))

        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))

        recompute = js("SelfAttentionLive.on_widget(a);")
        self.n_w.js_on_change("value", recompute)
        self.shuffle_w.js_on_change("value", recompute)
        self.positions_w.js_on_change("active", recompute)
        self.cross_w.js_on_change("active", recompute)
        self.shuffle_btn.js_on_event(ButtonClick, js("SelfAttentionLive.on_shuffle(a);"))
        self.original_btn.js_on_event(ButtonClick, js("SelfAttentionLive.on_original(a);"))

        # self_attention.js marks the check's source "busy" during a run of changes; Python folds
        # the widgets in once the mark goes.
        for model, attr in [(self.n_w, "value"), (self.shuffle_w, "value"), (self.positions_w, "active"),
                            (self.cross_w, "active"), (self.sources["perm_check"], "tags")]:
            model.on_change(attr, partial(self._from_browser, attr))

        f = self.figs
        self._layout = pn.Column(
            pn.Row(*(bokeh_pane(m) for m in (self.n_w, self.shuffle_btn, self.shuffle_w, self.original_btn,
                                                 self.positions_w, self.cross_w))),
            pn.Row(bokeh_pane(self.order_div), bokeh_pane(self.message_div)),
            pn.Row(*(bokeh_pane(f[k]) for k in ("tokens", "scores", "weights", "output"))),
            pn.Row(bokeh_pane(f["original"]), bokeh_pane(f["diff"]),
                   pn.Column(bokeh_pane(self.check_div), bokeh_pane(self.formula_div),
                             bokeh_pane(self.worked_div), bokeh_pane(wk))),
            bokeh_pane(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    @staticmethod
    def _heatmap(name, title, source, mapper, x_range, y_range, width, height, x_label, y_label):
        p = figure(name=name, width=width, height=height, x_range=x_range, y_range=y_range, tools="",
                   toolbar_location=None, title=title, x_axis_location="above")
        style_figure(p)
        p.title.text_font_size = "11pt"
        cells = p.rect("x", "y", 0.95, 0.95, source=source, fill_color={"field": "value", "transform": mapper},
                       line_color=None)
        p.text("x", "y", text="label", source=source, text_align="center", text_baseline="middle",
               text_font_size="9pt", text_color=PALETTE["ink"])
        p.add_tools(HoverTool(renderers=[cells], tooltips=TOOLTIP))
        p.grid.visible = False
        p.axis.axis_line_color = None
        p.axis.major_tick_line_color = None
        p.axis.major_label_text_font_size = "9pt"
        p.axis.axis_label_text_font_size = "9pt"
        p.xaxis.axis_label = x_label
        if y_label:
            p.yaxis.axis_label = y_label
        return p

    # --- browser -> state ----------------------------------------------------------------
    def _from_browser(self, which: str, attr, old, new) -> None:
        """Fold a widget change from the browser into the state; refuse bad input with a message."""
        if getattr(self, "_rendering", False):
            return  # our own echo
        if "busy" in (self.sources["perm_check"].tags or []):
            if which != "tags":
                self._page_ahead = True  # the page shows mirror.js's numbers for a step Python has not seen
            return  # a run of changes the browser leads, folded in when it ends
        try:
            n = _whole(self.n_w.value, "Tokens n", N_MIN, N_MAX)
            k = _whole(self.shuffle_w.value, "Shuffle #", 0, MAX_SHUFFLE)
        except ValueError as exc:
            set_if_changed(self.message_div, "text", str(exc))
            if self.n_w.value is not None and self.shuffle_w.value is not None:
                self._render(force=True)  # a value no real widget sends: put the widgets back
            return  # the plate keeps showing the last good state (an emptied box stays empty)
        set_if_changed(self.message_div, "text", "")
        # The browser has already replaced every source with mirror.js's numbers, so this render
        # resends all of them, even those equal to Python's last copy to 1e-12.
        self._from_page = True
        renders = self._renders
        try:
            self.state.param.update(n=n, shuffle=k, positions=0 in (self.positions_w.active or []),
                                    cross=0 in (self.cross_w.active or []))
        finally:
            self._from_page = False
        if self._renders == renders and (which != "tags" or self._page_ahead):
            # The state did not change, so its watcher did not render, but the page may hold
            # mirror.js's numbers. A run's end with no step after Python's last answer (one click)
            # leaves Python's own numbers on the page: nothing to send.
            self._render(force=True)

    # --- state -> view -------------------------------------------------------------------
    _from_page = False
    _page_ahead = False
    _renders = 0

    def _render(self, force: bool = False) -> None:
        s = self.state
        force = force or self._from_page
        self._renders += 1
        self._page_ahead = False
        fd = frame_data(s.frame())
        self._rendering = True
        try:
            # Widgets first: a widget change makes the browser recompute with mirror.js, and
            # attention_core's numbers, sent next, then land on top.
            set_if_changed(self.n_w, "value", s.n)
            set_if_changed(self.shuffle_w, "value", s.shuffle)
            set_if_changed(self.positions_w, "active", [0] if s.positions else [])
            set_if_changed(self.cross_w, "active", [0] if s.cross else [])
            for name, factors in fd["factors"].items():
                set_if_changed(self.ranges[name], "factors", factors)
            for name, d in fd["sources"].items():
                resend(self.sources[name], d, force)
            set_if_changed(self.order_div, "text", fd["order"])
            set_if_changed(self.check_div, "text", fd["check"])
        finally:
            self._rendering = False

    def __panel__(self):
        return self._layout


def resend(source: ColumnDataSource, data: dict, force: bool) -> None:
    """push() the data when it differs; with `force`, send it even when it equals Python's copy.

    Bokeh sends nothing for an assignment equal to the current value, but the browser may hold
    mirror.js's numbers by then; trigger() sends Python's current data regardless.
    """
    if not push(source, data) and force:
        source.trigger("data", source.data, source.data)


def _whole(value, label: str, lo: int, hi: int) -> int:
    """A widget's number as a whole number in [lo, hi]; ValueError with the message shown otherwise."""
    if value is None or isinstance(value, bool):
        raise ValueError(f"{label}: type a whole number from {lo} to {hi}; the plate keeps what it shows.")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{label}: type a whole number from {lo} to {hi}; the plate keeps what it shows.") from None
    if not math.isfinite(x) or x != round(x) or not lo <= x <= hi:
        raise ValueError(f"{label}: {value!r} is not a whole number from {lo} to {hi}; the plate keeps what it shows.")
    return int(x)


SelfAttentionPlate.explanation = """
In self-attention every token plays all three parts. Each row x of X makes a query q = x Wq, a key
k = x Wk and a value v = x Wv, with three learned 4 × 4 maps (here the seed's random ones). Stack
the rows and every token's turn happens at once: QKᵀ holds every query's dot product with every
key, dividing by √d_k = 2 keeps them moderate, a softmax along each row turns them into weights
that add up to 1, and multiplying by V gives each token its weighted blend of values. Hover any
cell to see its arithmetic.

**Shuffle the tokens.** Nothing in the formula knows where a token sits, so reordering the input
rows only reorders the output rows: token D gets the same output wherever it is (the seed's
check with perm = [3, 0, 4, 1, 2] prints True). **Add positions** and each token gets the
sinusoidal features of its place added in, PE[pos, 2i] = sin(pos / 10000^(2i/d)) and
PE[pos, 2i+1] = cos(pos / 10000^(2i/d)), so the same token in a new place carries different
numbers and the check turns False. **Cross-attention** takes the queries from X and the keys and
values from another sequence Y with M = n + 2 tokens: the tables become N × M, and the outputs
still follow the queries' order.
"""
