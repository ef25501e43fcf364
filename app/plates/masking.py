"""Plate 5, masking: edit the scores, never the weights (after seed 004, "Masking: editing scores, never weights").

What it teaches: a mask decides which keys each query may use, and it belongs on the scores.
A blocked pair's scaled score becomes −∞, exp(−∞) = 0, and the softmax shares each row among
the keys that survive, so every row still sums to 1. Zeroing the weights after the softmax
instead (the contrast view) leaves rows summing to less than 1 and shrinks the outputs. A row
with no allowed key (seed 000's edge case, where a bare softmax would divide 0 by 0) gets zero
weights and a zero output, never NaN.

The tokens follow seed 003's attention.py: rng = default_rng(0), X = rng.normal(size=(n, 4)),
Wq, Wk, Wv = rng.normal(size=(3, 4, 4)), Q = X @ Wq and so on, so n = 5 is that file's sequence.

Open it: `attention-explorable serve` then http://localhost:5006/masking, or
`attention-explorable export OUTDIR --plate masking` for one offline HTML file, or in Jupyter
`from app.plates.masking import MaskingPlate; MaskingPlate(kind="padding", p=2)`.

Tap a cell of the mask to flip it (mouse or touch); choose none, causal, padding or a sliding
window; toggle the contrast. app/static/masking.js recomputes everything in the browser with
mirror.js at once, and this module recomputes with attention_core when the gesture ends (the
authority) and pushes what differs.

Named models (Bokeh.documents[0].get_model_by_name(NAME)):
  sources  "mask" (i, j, allowed, text), "scores" (i, j, value, text; value -inf where blocked),
           "weights" (i, j, value, text), "row_sums" (i, sum, text), "output" (i, c, value, text),
           "contrast_weights", "contrast_row_sums", "contrast_output" (same columns), "norms"
           (i, before, after), "checks" (check, ok, detail)
  plots    "mask_plot", "scores_plot", "weights_plot", "contrast_weights_plot", "output_plot",
           "contrast_output_plot", "norms_plot"
  widgets  "n", "kind", "p", "w", "causal_window", "contrast", "reset"; divs "notes", "checks_table"
           (the checks' table), "demo_table" (seed 000's three items, masked before and zeroed after)
"""

from __future__ import annotations

from functools import partial

import numpy as np
import panel as pn
import param
from bokeh.events import ButtonClick, DoubleTap, Tap
from bokeh.layouts import column as bk_column
from bokeh.layouts import row as bk_row
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    CustomJS,
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

import attention_core as ac

from app.shared.formatting import fix
from app.shared import a11y
from app.shared import html_table
from app.shared.panes import bokeh_pane
from app.runtime.scripts import custom_js_code
from app.shared.mathml import formula
from app.shared.state import PlateState
from app.shared.theme import PALETTE, style_figure
from app.shared.viewer import PlateViewer, push, set_if_changed

N_MIN, N_MAX, N_DEFAULT = 3, 8, 5
D_MODEL = 4
KINDS = ["none", "causal", "padding", "window", "custom"]
KIND_LABELS = ["none", "causal", "padding", "window", "custom"]
VIEW_LABELS = ["Mask the scores (before softmax)", "Zero the weights (after softmax)"]
BORDER_BOTTOM = 30  # px under every heat map: the norms plot keeps its legend there
TOL = 1e-12  # how close a row sum must be to 1 (or 0) for the page's check


def recipe(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seed 003's self-attention recipe for n tokens: Q, K, V of shape (n, 4)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, D_MODEL))  # (n, 4)
    Wq, Wk, Wv = rng.normal(size=(3, D_MODEL, D_MODEL))  # 3 x (4, 4)
    return X @ Wq, X @ Wk, X @ Wv  # (n, 4) each


RECIPES = {n: recipe(n) for n in range(N_MIN, N_MAX + 1)}


def fit_cells(cells, n: int) -> np.ndarray:
    """A square 0/1 mask resized to (n, n): the overlap is kept, new cells follow the causal rule.

    masking.js's fit_cells does the same, so a custom mask survives a change of n identically.
    """
    out = ac.causal_mask(n)  # (n, n)
    c = np.asarray(cells, dtype=bool)  # (m, m)
    k = min(n, c.shape[0])
    out[:k, :k] = c[:k, :k]
    return out


def cells_text(cells) -> str:
    """'10000.11000...': one row of 0/1 digits per query, rows separated by '.'."""
    return ".".join("".join("1" if v else "0" for v in row) for row in np.asarray(cells, dtype=bool))


def parse_cells(text: str) -> np.ndarray:
    rows = text.strip().split(".")
    if not (1 <= len(rows) <= N_MAX) or any(len(r) != len(rows) or set(r) - {"0", "1"} for r in rows):
        raise ValueError(f"expected up to {N_MAX} rows of as many 0/1 digits, separated by '.'")
    return np.array([[ch == "1" for ch in r] for r in rows], dtype=bool)  # (m, m)


class MaskingState(PlateState):
    """Everything that defines what the masking plate shows; it round-trips through the URL."""

    n = param.Integer(N_DEFAULT, bounds=(N_MIN, N_MAX), doc="Number of tokens (queries and keys).")
    kind = param.Selector(default="causal", objects=KINDS, doc="Which mask: none, causal (j ≤ i), padding, "
                          "a sliding window, or custom cells you tap.")
    p = param.Integer(2, bounds=(0, N_MAX), doc="Padding: how many of the last keys are blocked (at most n).")
    w = param.Integer(2, bounds=(1, N_MAX), doc="Sliding window width (at most n).")
    causal_window = param.Boolean(True, doc="Window looks back only (i − w < j ≤ i); off: |i − j| < w.")
    contrast = param.Boolean(False, doc="Show the weights zeroed after the softmax instead (the wrong order).")
    cells = param.Array(None, allow_None=True, doc="The custom mask, (n, n) booleans, True = may attend.")

    url_fields = ("n", "kind", "p", "w", "causal_window", "contrast", "cells")

    def __init__(self, **params):
        super().__init__(**params)
        self._fit()

    @param.depends("n", "p", "w", "cells", watch=True)
    def _fit(self) -> None:
        """Keep p ≤ n, w ≤ n and the custom cells at (n, n)."""
        updates = {}
        if self.p > self.n:
            updates["p"] = self.n
        if self.w > self.n:
            updates["w"] = self.n
        if self.cells is not None:
            c = np.asarray(self.cells)
            if c.dtype != bool or c.shape != (self.n, self.n):
                updates["cells"] = fit_cells(c, self.n)
        if updates:
            self.param.update(updates)

    # --- derived numbers -----------------------------------------------------------------
    def mask(self) -> np.ndarray:
        """The boolean mask shown, (n, n), True = may attend."""
        n = self.n
        if self.kind == "none":
            return np.ones((n, n), dtype=bool)
        if self.kind == "causal":
            return ac.causal_mask(n)
        if self.kind == "padding":
            return ac.padding_mask(n, n, min(self.p, n))
        if self.kind == "window":
            return ac.window_mask(n, min(self.w, n), causal=self.causal_window)
        return fit_cells(self.cells, n) if self.cells is not None else ac.causal_mask(n)

    def qkv(self):
        return RECIPES[self.n]

    def steps(self) -> ac.MaskingSteps:
        Q, K, V = self.qkv()
        return ac.masking_steps(Q, K, V, self.mask())

    def flip(self, i: int, j: int) -> None:
        """Flip cell (i, j) of the mask on screen; the plate becomes custom."""
        m = self.mask()
        if not (0 <= i < self.n and 0 <= j < self.n):
            raise ValueError(f"cell ({i}, {j}) is outside the {self.n} x {self.n} mask")
        m[i, j] = not m[i, j]
        self.param.update(kind="custom", cells=m)

    # --- URL -----------------------------------------------------------------------------
    def url_value(self, name: str) -> str:
        if name == "cells":
            return cells_text(self.mask()) if self.kind == "custom" else ""
        return super().url_value(name)

    def parse_url_value(self, name: str, text: str):
        if name == "cells":
            return parse_cells(text)
        return super().parse_url_value(name, text)

    def apply_url(self, args) -> list[str]:
        """As PlateState.apply_url, and a notice when p or w had to come down to n."""
        notices = super().apply_url(args)
        for name in ("p", "w"):
            text = args.get(name)
            if text is None or any(note.startswith(f"ignored '{name}") for note in notices):
                continue
            try:
                asked = float(text)
            except ValueError:
                continue
            if asked != getattr(self, name):
                notices = [note for note in notices if not note.startswith(f"'{name}' set to")]
                low = 0 if name == "p" else 1
                notices.append(f"'{name}' set to {getattr(self, name)}, the nearest allowed value "
                               f"({low}..n, n = {self.n})")
        return notices

    def _default_url_value(self, name: str) -> str:
        if name == "cells":
            return ""  # a custom mask always goes in the link
        return super()._default_url_value(name)

    def _was_clamped(self, name, text, value) -> bool:
        if name == "cells":
            return False
        return super()._was_clamped(name, text, value)


# --- how cells look (masking.js writes the same) ------------------------------------------
MASKED_FILL = "#6e7781"
EMPTY_FILL = "#eaeef2"
ALLOWED_FILL = "#eef5fb"
DIVERGE_NEG, DIVERGE_POS = "#0072B2", PALETTE["query"]
OUT_NEG, OUT_POS = "#56B4E9", PALETTE["output"]
MINUS = "\u2212"
NEG_INF = MINUS + "∞"


def signed(x: float, digits: int) -> str:
    """fix() with a true minus sign."""
    return fix(x, digits).replace("-", MINUS)


def mix(hex_color: str, t: float) -> str:
    """White blended toward `hex_color` by t in [0, 1] (0.85 at most, so text stays readable)."""
    t = min(1.0, max(0.0, t)) * 0.85
    rgb = [int(hex_color[k:k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{int(255 + (c - 255) * t + 0.5):02x}" for c in rgb)


def ink_for(fill: str) -> str:
    r, g, b = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else PALETTE["ink"]


def diverging(x: float, top: float, neg: str, pos: str) -> str:
    t = x / top if top > 0 else 0.0
    return mix(pos, t) if t >= 0 else mix(neg, -t)


def qname(i: int) -> str:
    return f"q{i + 1}"


def kname(j: int) -> str:
    return f"k{j + 1}"


def rows_list(idx) -> str:
    names = [str(i + 1) for i in idx]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def rule_text(kind: str, n: int, p: int, w: int, causal: bool) -> str:
    if kind == "none":
        return "No mask: every query may attend to every key."
    if kind == "causal":
        return "Causal: q<sub>i</sub> may attend to k<sub>j</sub> when j ≤ i, never to a later token."
    if kind == "padding":
        p = min(p, n)
        return f"Padding: the last {p} of the {n} keys are padding, blocked for every query."
    if kind == "window":
        w = min(w, n)
        if causal:
            return (f"Causal window, width {w}: q<sub>i</sub> may attend to k<sub>j</sub> "
                    f"when i {MINUS} {w} &lt; j ≤ i "
                    f"(itself and the {w - 1} before it).")
        return (f"Symmetric window, width {w}: q<sub>i</sub> may attend to k<sub>j</sub> when |i {MINUS} j| &lt; {w} "
                f"({w - 1} on each side, and itself).")
    return "Custom: the cells you tapped. Tap a cell to flip it."


def notes_html(kind: str, n: int, p: int, w: int, causal: bool, empty: list[int], contrast: bool) -> str:
    """The text under the heat maps; masking.js's notes_html writes the same."""
    parts = ["<p class='ae-rule'>" + rule_text(kind, n, p, w, causal) + "</p>"]
    if empty:
        if len(empty) == 1:
            lead = f"Row {empty[0] + 1} may attend to nothing: its weights are all 0 and its output is 0, not NaN."
        else:
            lead = (f"Rows {rows_list(empty)} may attend to nothing: their weights are all 0 and their outputs "
                    "are 0, not NaN.")
        parts.append("<p class='ae-empty' role='status'><b>" + lead + "</b> Every score in such a row is "
                     + NEG_INF + ", so a bare softmax would divide 0 by 0; attention_core returns zeros instead.</p>")
    if contrast:
        parts.append("<p class='ae-contrast'>Zeroed after the softmax, a row that blocks anything keeps only part of "
                     "its weight, so it sums to less than 1 and its output shrinks (the bars on the right).</p>")
    return "<div class='ae-notes'>" + "".join(parts) + "</div>"


NOTES_CSS = """
.ae-notes { font-family: system-ui, sans-serif; font-size: 14px; line-height: 1.4; color: #1f2328; }
.ae-notes p { margin: 0.2em 0; }
.ae-notes .ae-empty { color: #6e4b00; background: #fff8e5; border: 1px solid #e6c46a; border-radius: 4px;
  padding: 0.2em 0.5em; }
.ae-notes .ae-contrast { color: #57606a; }
"""


def font_for(n: int) -> str:
    return "11pt" if n <= 4 else "10pt" if n <= 5 else "9pt" if n <= 6 else "8pt" if n <= 7 else "7.5pt"


def view_data(state: MaskingState, st: ac.MaskingSteps | None = None) -> dict:
    """Every source's data and every text for `state`, computed with attention_core."""
    st = st if st is not None else state.steps()
    n = state.n
    mask = state.mask()  # (n, n)
    Q, K, V = state.qkv()
    cells = [(i, j) for i in range(n) for j in range(n)]
    top_s = float(np.max(np.abs(st.scaled))) if st.scaled.size else 0.0
    top_o = float(max(np.max(np.abs(st.output)), np.max(np.abs(st.contrast_output))))

    def base(i, j):
        return {"i": i, "j": j, "x": kname(j), "y": qname(i)}

    def table(rows):
        keys = rows[0].keys()
        return {k: [r[k] for r in rows] for k in keys}

    mask_rows, score_rows, weight_rows, cw_rows = [], [], [], []
    for i, j in cells:
        ok = bool(mask[i, j])
        pair = f"{qname(i)} → {kname(j)}"
        fill = ALLOWED_FILL if ok else MASKED_FILL
        mask_rows.append({**base(i, j), "allowed": ok, "text": "0" if ok else NEG_INF, "fill": fill,
                          "ink": ink_for(fill),
                          "tip": f"{pair}: " + ("allowed, M = 0<br>tap to block it" if ok else
                                                f"blocked, M = {NEG_INF}<br>tap to allow it")})
        s = float(st.scaled[i, j])
        fill = diverging(s, top_s, DIVERGE_NEG, DIVERGE_POS) if ok else MASKED_FILL
        score_rows.append({**base(i, j), "value": float(st.shown[i, j]), "text": signed(s, 2) if ok else NEG_INF,
                           "fill": fill, "ink": ink_for(fill),
                           "tip": f"{pair}: q·k / √4 = {signed(s, 3)}<br>" + (
                               f"+ M = 0 → the softmax sees {signed(s, 3)}" if ok else
                               f"+ M = {NEG_INF} → the softmax sees {NEG_INF}, and exp({NEG_INF}) = 0")})
        wv = float(st.weights[i, j])
        if ok:
            fill = mix(PALETTE["weights"], wv)
            tip = (f"{pair}: exp({signed(s, 3)} {MINUS} row max) = {fix(float(st.exp[i, j]), 4)}<br>"
                   f"÷ row total {fix(float(st.exp_total[i]), 4)} = weight {fix(wv, 4)}")
            text = fix(wv, 2)
        else:
            fill = EMPTY_FILL
            tip = f"{pair}: blocked, score {NEG_INF}, exp({NEG_INF}) = 0<br>weight exactly 0"
            text = "0"
        if st.empty_rows[i]:
            tip = f"{pair}: row {i + 1} may attend to nothing<br>weight 0, not 0/0"
        weight_rows.append({**base(i, j), "value": wv, "text": text, "fill": fill, "ink": ink_for(fill), "tip": tip})
        cv, fv = float(st.contrast_weights[i, j]), float(st.full[i, j])
        fill = mix(PALETTE["weights"], cv) if ok else EMPTY_FILL
        cw_rows.append({**base(i, j), "value": cv, "text": fix(cv, 2) if ok else "0", "fill": fill,
                        "ink": ink_for(fill),
                        "tip": f"{pair}: softmax over all {n} keys = {fix(fv, 4)}<br>× mask {1 if ok else 0} = "
                               f"{fix(cv, 4)} (the row is not renormalised)"})

    def sums(values, empty):
        rows = []
        for i in range(n):
            v = float(values[i])
            fill = EMPTY_FILL if empty[i] else mix(PALETTE["weights"], v)
            rows.append({"i": i, "x": "Σ", "y": qname(i), "sum": v, "text": "0" if v == 0 else fix(v, 3),
                         "fill": fill, "ink": ink_for(fill),
                         "tip": f"Σ of row {i + 1} = {fix(v, 6)}"})
        return table(rows)

    def outputs(values, label):
        rows = []
        for i in range(n):
            for c in range(V.shape[1]):
                v = float(values[i, c])
                fill = diverging(v, top_o, OUT_NEG, OUT_POS)
                rows.append({"i": i, "c": c, "x": str(c + 1), "y": qname(i), "value": v,
                             "text": "0" if v == 0 else signed(v, 2),
                             "fill": fill, "ink": ink_for(fill),
                             "tip": f"o{i + 1}[{c + 1}] = Σ_j w_{i + 1}j · v_j[{c + 1}] = {signed(v, 4)}<br>{label}"})
        return table(rows)

    empty = [bool(e) for e in st.empty_rows]
    data = {
        "mask": table(mask_rows),
        "scores": table(score_rows),
        "weights": table(weight_rows),
        "row_sums": sums(st.row_sums, empty),
        "output": outputs(st.output, "weights renormalised"),
        "contrast_weights": table(cw_rows),
        "contrast_row_sums": sums(st.contrast_row_sums, [False] * n),
        "contrast_output": outputs(st.contrast_output, "weights zeroed after the softmax"),
        "norms": {"i": list(range(n)), "y": [qname(i) for i in range(n)], "before": st.norms.tolist(),
                  "after": st.contrast_norms.tolist(), "before_text": [fix(float(v), 2) for v in st.norms],
                  "after_text": [fix(float(v), 2) for v in st.contrast_norms]},
        "checks": checks_data(state, st, mask),
    }
    top_norm = float(max(np.max(st.norms), np.max(st.contrast_norms), 0.0))
    data["_norm_end"] = max(1.0, top_norm * 1.45)
    data["_notes"] = notes_html(state.kind, n, state.p, state.w, state.causal_window,
                                [i for i in range(n) if empty[i]], state.contrast)
    return data


def checks_data(state: MaskingState, st: ac.MaskingSteps, mask: np.ndarray) -> dict:
    """The pins recomputed for the current mask; masking.js's checks_data writes the same."""
    n = state.n
    Q, K, V = state.qkv()
    target = np.where(st.empty_rows, 0.0, 1.0)  # (n,)
    sums_ok = bool(np.all(np.abs(st.row_sums - target) <= TOL))
    n_empty = int(st.empty_rows.sum())
    sums_detail = f"{n - n_empty} of {n} rows sum to 1" + (f", {n_empty} to 0" if n_empty else "")
    blocked = ~mask  # (n, n)
    n_blocked = int(blocked.sum())
    zero_ok = bool(np.all(st.weights[blocked] == 0.0))
    zero_detail = f"{n_blocked} blocked, all exactly 0" if n_blocked else "nothing is blocked"
    causal_w = float(ac.attention(Q, K, V, mask=ac.causal_mask(n))[1][0, 0])
    causal_ok = causal_w == 1.0
    shrink_rows = blocked.any(axis=1)  # (n,)
    cs = st.contrast_row_sums  # (n,)
    shrink_ok = bool(np.all(cs[shrink_rows] < 1.0)) and bool(np.all(np.abs(cs[~shrink_rows] - 1.0) <= TOL))
    if shrink_rows.any():
        lo, hi = float(cs[shrink_rows].min()), float(cs[shrink_rows].max())
        shrink_detail = f"{int(shrink_rows.sum())} rows: sums {fix(lo, 3)} … {fix(hi, 3)}"
    else:
        shrink_detail = "nothing blocked: both orders agree"
    out_loop, w_loop = ac.attention_loop(Q, K, V, mask)
    diff = max(float(np.max(np.abs(out_loop - st.output))), float(np.max(np.abs(w_loop - st.weights))))
    loop_ok = diff <= TOL
    finite_ok = all(bool(np.all(np.isfinite(a)))
                    for a in (st.weights, st.output, st.contrast_weights, st.contrast_output))
    rows = [
        ("Each row of weights sums to 1 (0 if nothing allowed)", sums_ok, sums_detail),
        ("Blocked pairs get weight exactly 0", zero_ok, zero_detail),
        ("Causal mask: q1's weight on k1 is exactly 1", causal_ok, "its one key takes it all"),
        ("Zeroed after softmax: a row that blocks sums below 1", shrink_ok, shrink_detail),
        ("attention(Q, K, V, mask) equals a plain loop", loop_ok, "differences < 1e-12" if loop_ok
         else "they disagree"),
        ("No NaN anywhere", finite_ok, "all weights and outputs finite"),
    ]
    return {"check": [r[0] for r in rows], "ok": [r[1] for r in rows], "mark": ["✓" if r[1] else "✗" for r in rows],
            "detail": [r[2] for r in rows]}


# --- seed 000's three items with the third one masked: seed 004's statement, numerically ---
DEMO_SCORES = np.array([2.0, 1.0, 0.0])  # (3,)
DEMO_VALUES = np.array([1.0, 2.0, 3.0])  # (3,)
DEMO_MASK = np.array([True, True, False])  # (3,)


def demo_numbers() -> dict:
    """Plain softmax, masked before the softmax and zeroed after it, for scores 2, 1, 0."""
    V = DEMO_VALUES[:, None]  # (3, 1)
    S = DEMO_SCORES[None, :]  # (1, 3)
    m = DEMO_MASK[None, :]  # (1, 3)
    plain = ac.softmax(DEMO_SCORES)  # (3,)
    shown = ac.masked_scores(S, m)[0]  # (3,)
    exp_masked = np.exp(shown)  # (3,) exp(-inf) = 0
    before = ac.softmax(S, mask=m)[0]  # (3,)
    after, out_after = ac.zero_after_softmax(S, m, V)  # (1, 3), (1, 1)
    return {
        "plain": plain, "shown": shown, "exp_masked": exp_masked, "before": before, "after": after[0],
        "out_plain": float(plain @ DEMO_VALUES), "out_before": float(before @ DEMO_VALUES),
        "out_after": float(out_after[0, 0]),
    }


def demo_data() -> dict:
    d = demo_numbers()
    items = [f"item {k + 1}" for k in range(3)]
    rows = {
        "item": items + ["Σ weights", "output"],
        "score": [fix(s, 0) for s in DEMO_SCORES] + ["", ""],
        "value": [fix(v, 0) for v in DEMO_VALUES] + ["", ""],
        "plain": d["plain"].tolist() + [float(d["plain"].sum()), d["out_plain"]],
        "masked_score": [fix(s, 0) if np.isfinite(s) else NEG_INF for s in d["shown"]] + ["", ""],
        "exp_masked": d["exp_masked"].tolist() + [float(d["exp_masked"].sum()), 0.0],
        "before": d["before"].tolist() + [float(d["before"].sum()), d["out_before"]],
        "after": d["after"].tolist() + [float(d["after"].sum()), d["out_after"]],
    }
    def show(x: float) -> str:
        return "0" if x == 0 else fix(x, 3)  # exactly 0 is written as 0

    texts = {
        "plain_text": [show(x) for x in rows["plain"]],
        "exp_text": [show(x) for x in rows["exp_masked"][:4]] + [""],
        "before_text": [show(x) for x in rows["before"]],
        "after_text": [show(x) for x in rows["after"]],
    }
    return {**rows, **texts}


# The two tables are plain HTML (app/html_table.py); masking.js's checks_table_html writes the
# checks' table again at every change, the demo's never changes.
# The checks are sentences: plain type, wrapped.
CHECKS_CSS = ".ae-wt tbody th { font-weight: 400; white-space: normal; }"
CHECKS_COLUMNS = (("ok", "text"), ("Pinned on this page (recomputed at every change)", "row"), ("now", "text"))
DEMO_COLUMNS = (("item", "item", "row"), ("score", "score", "num"), ("value", "value", "num"),
                ("no mask", "plain_text", "num"), ("score\u00a0+\u00a0M", "masked_score", "num"),
                ("exp", "exp_text", "num"), ("mask scores", "before_text", "num"), ("zero after", "after_text", "num"))


def checks_table_html(checks: dict) -> str:
    """The pins as a table; masking.js's checks_table_html writes the same."""
    rows = [[m, c, d] for m, c, d in zip(checks["mark"], checks["check"], checks["detail"])]
    return html_table.table_html("Checks recomputed at every change", CHECKS_COLUMNS, rows)


def demo_table_html(demo: dict) -> str:
    """Seed 000's three items, masked before and zeroed after the softmax."""
    rows = [[demo[f][j] for _, f, _ in DEMO_COLUMNS] for j in range(len(demo["item"]))]
    return html_table.table_html("The rule in three numbers", [(t, k) for t, _, k in DEMO_COLUMNS], rows)


class MaskingPlate(PlateViewer):
    """The masking plate: a mask you tap, the −∞ scores, renormalised weights, outputs and the contrast."""

    state_class = MaskingState
    slug = "masking"
    glue, live = "masking.js", "MaskingLive"  # the browser half (app/static/masking.js)
    title = "Masking: edit the scores, never the weights"
    summary = "Block pairs before the softmax and every row still sums to 1; zero them after and the output shrinks."

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        n = s.n
        empty_cells = {k: [] for k in ("i", "j", "x", "y", "value", "text", "fill", "ink", "tip")}
        self.mask_src = ColumnDataSource({**{k: [] for k in ("i", "j", "x", "y", "text", "fill", "ink", "tip")},
                                          "allowed": []}, name="mask")
        self.scores_src = ColumnDataSource(dict(empty_cells), name="scores")
        self.weights_src = ColumnDataSource(dict(empty_cells), name="weights")
        self.cw_src = ColumnDataSource(dict(empty_cells), name="contrast_weights")
        sum_cols = {k: [] for k in ("i", "x", "y", "sum", "text", "fill", "ink", "tip")}
        self.sums_src = ColumnDataSource(dict(sum_cols), name="row_sums")
        self.csums_src = ColumnDataSource(dict(sum_cols), name="contrast_row_sums")
        out_cols = {k: [] for k in ("i", "c", "x", "y", "value", "text", "fill", "ink", "tip")}
        self.output_src = ColumnDataSource(dict(out_cols), name="output")
        self.co_src = ColumnDataSource(dict(out_cols), name="contrast_output")
        self.norms_src = ColumnDataSource({k: [] for k in ("i", "y", "before", "after", "before_text", "after_text")},
                                          name="norms")
        self.checks_src = ColumnDataSource({"check": [], "ok": [], "mark": [], "detail": []}, name="checks")

        qs = [qname(i) for i in range(n)]
        ks = [kname(j) for j in range(n)]
        self.y_range = FactorRange(*reversed(qs), name="rows")
        self.x_keys = FactorRange(*ks, name="keys_range")
        self.x_sum = FactorRange(*ks, "Σ", name="keys_sum_range")
        self.x_out = FactorRange(*[str(c + 1) for c in range(D_MODEL)], name="out_range")
        self.norm_x = Range1d(0, 1, name="norm_range")

        self.texts = []
        H = 290

        def heat(name, title, width, x_range, source, sums=None, hover=True):
            f = figure(name=name, title=title, width=width, height=H, x_range=x_range, y_range=self.y_range,
                       tools="", toolbar_location=None, x_axis_location="above", min_border_left=34,
                       min_border_right=6, min_border_bottom=BORDER_BOTTOM)
            style_figure(f)
            f.title.text_font_size = "11pt"
            f.grid.visible = False
            f.axis.axis_line_color = None
            f.axis.major_tick_line_color = None
            r = f.rect("x", "y", 0.96, 0.96, source=source, fill_color="fill", line_color=None)
            t = f.text("x", "y", text="text", source=source, text_color="ink", text_align="center",
                       text_baseline="middle", text_font_size=font_for(n))
            self.texts.append(t.glyph)
            rs = []
            if sums is not None:
                rs.append(f.rect("x", "y", 0.96, 0.96, source=sums, fill_color="fill", line_color=PALETTE["ink"],
                                 line_width=1.2))
                t2 = f.text("x", "y", text="text", source=sums, text_color="ink", text_align="center",
                            text_baseline="middle", text_font_size=font_for(n), text_font_style="bold")
                self.texts.append(t2.glyph)
            if hover:
                f.add_tools(HoverTool(renderers=[r, *rs], tooltips="<div style='max-width:300px'>@tip{safe}</div>"))
            return f

        self.mask_plot = heat("mask_plot", "Mask M · tap to flip", 236, self.x_keys, self.mask_src)
        self.scores_plot = heat("scores_plot", "Scores S/√d_k + M", 286, self.x_keys, self.scores_src)
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
        self.notes = Div(name="notes", text="", width=640, stylesheets=[InlineStyleSheet(css=NOTES_CSS)])
        self.checks_table = Div(name="checks_table", text=checks_table_html(self.checks_src.data), width=640,
                                stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS + CHECKS_CSS)])
        self.demo_table = Div(name="demo_table", text=demo_table_html(demo_data()), width=600,
                              stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS)])
        dn = demo_numbers()
        demo_intro = pn.pane.HTML(
            "<div class='ae-notes'><p><b>The rule in three numbers</b> (seed 000's scores 2, 1, 0 with values "
            f"1, 2, 3; item 3 blocked). exp({NEG_INF}) = 0 removes item 3, and the survivors share the "
            f"whole weight: {fix(dn['before'][0], 3)} + {fix(dn['before'][1], 3)} = {fix(dn['before'].sum(), 0)}. "
            f"Zeroing item 3 after the softmax keeps {fix(dn['after'][0], 3)} + {fix(dn['after'][1], 3)} = "
            f"{fix(dn['after'].sum(), 3)}, and the output falls from {fix(dn['out_before'], 3)} to "
            f"{fix(dn['out_after'], 3)}.</p></div>",
            width=600, stylesheets=[NOTES_CSS], margin=(0, 10))

        recipes = {str(k): {"Q": v[0].tolist(), "K": v[1].tolist(), "V": v[2].tolist()} for k, v in RECIPES.items()}
        defaults = {name: MaskingState.param[name].default for name in ("n", "kind", "p", "w", "causal_window",
                                                                         "contrast")}
        models = {
            "recipes": recipes, "defaults": defaults, "kinds": KINDS,
            "mask": self.mask_src, "scores": self.scores_src, "weights": self.weights_src,
            "row_sums": self.sums_src, "output": self.output_src, "cweights": self.cw_src,
            "crow_sums": self.csums_src, "coutput": self.co_src, "norms": self.norms_src,
            "checks": self.checks_src, "checks_table": self.checks_table, "y_range": self.y_range,
            "x_keys": self.x_keys, "x_sum": self.x_sum,
            "norm_x": self.norm_x, "texts": self.texts, "plot": self.mask_plot,
            "weights_plot": self.weights_plot, "cweights_plot": self.cw_plot, "output_plot": self.output_plot,
            "coutput_plot": self.co_plot, "n": self.n_w, "kind": self.kind_w, "p": self.p_w, "w": self.w_w,
            "causal_window": self.causal_w, "contrast": self.contrast_w, "notes": self.notes,
        }

        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (self.mask_plot, "Grid of the mask M, queries q1 to qn down, keys k1 to kn across: each cell is 0 "
                             "(may attend) or −∞ (blocked). Tab to it and press Space to flip a cell.", True),
            (self.scores_plot, "Heatmap of the scores S/√d_k + M; blocked cells are −∞."),
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
        self.js_models = models  # page.js reads a link with MaskingLive.apply_url in an exported page

        def js(call: str) -> CustomJS:
            return CustomJS(args=models, code=custom_js_code("masking.js", call, list(models)))

        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))

        # Bokeh reports the second of two taps within 300 ms as a DoubleTap and not as a Tap;
        # each is a flip, or quick taps on two cells would lose the second.
        on_tap = js("MaskingLive.on_tap(a, cb_obj);")
        self.mask_plot.js_on_event(Tap, on_tap)
        self.mask_plot.js_on_event(DoubleTap, on_tap)
        recompute = js("MaskingLive.on_widget(a);")
        for wdg, attr in [(self.n_w, "value"), (self.kind_w, "active"), (self.p_w, "value"), (self.w_w, "value"),
                          (self.causal_w, "active"), (self.contrast_w, "active")]:
            wdg.js_on_change(attr, recompute)
        self.reset_w.js_on_event(ButtonClick, js("MaskingLive.on_reset(a);"))

        for model, attr, via in [(self.n_w, "value", "widgets"), (self.kind_w, "active", "widgets"),
                                 (self.p_w, "value", "widgets"), (self.w_w, "value", "widgets"),
                                 (self.causal_w, "active", "widgets"), (self.contrast_w, "active", "widgets"),
                                 (self.mask_src, "data", "tap"), (self.checks_src, "tags", "tap")]:
            model.on_change(attr, partial(self._from_browser, via))

        controls = bk_row(self.kind_w, self.n_w, self.p_w, self.w_w, self.causal_w)
        controls2 = bk_row(self.contrast_w, self.reset_w)
        maps = bk_row(self.mask_plot, self.scores_plot, self.weights_plot, self.cw_plot, self.output_plot,
                      self.co_plot, self.norms_plot)
        self._layout = pn.Column(
            bokeh_pane(bk_column(controls, maps)),
            pn.Row(
                pn.Column(bokeh_pane(controls2), bokeh_pane(self.notes), bokeh_pane(self.checks_table)),
                pn.Column(
                    formula("<mrow><msub><mrow><mi>S</mi><mo>′</mo></mrow><mi>ij</mi></msub><mo>=</mo><mfrac><mrow>"
                            "<msub><mi>q</mi><mi>i</mi></msub><mo>·</mo><msub><mi>k</mi><mi>j</mi></msub></mrow>"
                            "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></mfrac><mo>+</mo><msub><mi>M</mi>"
                            "<mi>ij</mi></msub><mo>,</mo><mspace width='1em'/><msub><mi>M</mi><mi>ij</mi></msub>"
                            "<mo>=</mo><mrow><mo>{</mo><mtable><mtr><mtd><mn>0</mn></mtd><mtd><mtext>&#xa0;may attend"
                            "</mtext></mtd></mtr><mtr><mtd><mo>−</mo><mi>∞</mi></mtd><mtd><mtext>&#xa0;blocked"
                            "</mtext></mtd></mtr></mtable></mrow></mrow>",
                            "S prime i j equals q i dot k j over root d k, plus M i j, where M i j is 0 if query i "
                            "may attend to key j and minus infinity if blocked", margin=(0, 10)),
                    demo_intro, bokeh_pane(self.demo_table),
                ),
            ),
            bokeh_pane(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state ----------------------------------------------------------------
    def _from_browser(self, via: str, attr, old, new) -> None:
        """Fold what the browser sent into the state, which clamps and validates it."""
        if getattr(self, "_rendering", False) or "busy" in (self.checks_src.tags or []):
            return  # our own echo, or a gesture in progress (the browser leads until it ends)
        s = self.state
        try:
            n = int(self.n_w.value)
            if not N_MIN <= n <= N_MAX:
                raise ValueError(f"n = {n} is outside {N_MIN}..{N_MAX}")
            kind = KINDS[int(self.kind_w.active)]
            p = int(np.clip(int(self.p_w.value), 0, n))
            w = int(np.clip(int(self.w_w.value), 1, n))
            cells = s.cells
            if kind == "custom":
                if via == "tap":
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
        except (KeyError, IndexError, TypeError, ValueError, OverflowError):  # OverflowError: ±Infinity
            self._render(force=True)  # put the browser back to the last good state
            return
        s.param.update(n=n, kind=kind, p=p, w=w, causal_window=0 in (self.causal_w.active or []),
                       contrast=int(self.contrast_w.active or 0) == 1, cells=cells)
        self._render()

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        n = s.n
        d = view_data(s)
        self._rendering = True
        try:
            qs = [qname(i) for i in range(n)]
            ks = [kname(j) for j in range(n)]
            set_if_changed(self.y_range, "factors", list(reversed(qs)))
            set_if_changed(self.x_keys, "factors", ks)
            set_if_changed(self.x_sum, "factors", ks + ["Σ"])
            set_if_changed(self.norm_x, "end", d["_norm_end"], tol=1e-12)
            for src, key in [(self.mask_src, "mask"), (self.scores_src, "scores"), (self.weights_src, "weights"),
                             (self.sums_src, "row_sums"), (self.output_src, "output"),
                             (self.cw_src, "contrast_weights"),
                             (self.csums_src, "contrast_row_sums"), (self.co_src, "contrast_output"),
                             (self.norms_src, "norms"), (self.checks_src, "checks")]:
                push(src, d[key], force)
            set_if_changed(self.checks_table, "text", checks_table_html(d["checks"]))
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
            set_if_changed(self.notes, "text", d["_notes"])
        finally:
            self._rendering = False

    def __panel__(self):
        return self._layout


MaskingPlate.explanation = """
A mask says which keys each query may use: a decoder must not read later tokens (causal), padding
keys carry nothing (padding), a long sequence may look only nearby (sliding window). The mask
belongs on the **scores**. A blocked pair's score becomes −∞, exp(−∞) = 0, and the softmax shares the row
among the keys that remain, so every row of weights still sums to 1. Tap cells of the mask to block or
allow pairs, and switch to *Zero the weights* to see the other order: rows then sum to less than 1 and
the outputs shrink. The five tokens are seed 003's (`default_rng(0)`, four numbers each).
"""
