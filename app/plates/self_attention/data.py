"""What the self-attention plate shows, built from its state with attention_core: every named
source's data, the axes' factors and the Divs' texts (self_attention.js writes the same in the
browser: frame_data, line for line), the seed's one-token example, and the data the glue is
handed."""

from __future__ import annotations

import math

import numpy as np

import attention_core as ac
from app.plates.self_attention.state import (
    D, LETTERS, MAX_SHUFFLE, N_MAX, N_MIN, PERMS, WK, WQ, WV, X_ALL, Y_ALL, Y_LETTERS, Frame, SelfAttentionState,
)
from app.shared.formatting import fix, paren, sci

ENTRIES = [str(c) for c in range(D)]
SUM_FACTOR = "Σ"
# The named sources that follow the state (the worked example's two do not).
SOURCES = ("tokens", "scores", "weights", "row_sums", "output", "original_output", "output_diff", "perm_check")


# --- how the numbers are written (self_attention.js writes them the same way) ---------------
TINY = 1e-12  # differences below this are float rounding, which NumPy and the browser round differently


def show_diff(x: float) -> str:
    """A difference: three decimals, scientific notation below 0.001, and "< 1e-12" for rounding noise."""
    if x < TINY:
        return "< 1e-12"
    return fix(x, 3) if x >= 0.001 else sci(x, 1, plus=False)


def show_exp(x: float) -> str:
    """An exponential on hover: three decimals, or scientific notation from 100000 up."""
    return fix(x, 3) if x < 1e5 else sci(x, 3, plus=False)


def diff_clause(x: float) -> str:
    """'= 2.366', or '< 1e-12 (float rounding only)' when the difference is rounding noise."""
    return "< 1e-12 (float rounding only)" if x < TINY else "= " + show_diff(x)


# --- names and texts -------------------------------------------------------------------------
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


def check_html(equal: bool, max_diff: float, positions: bool, cross: bool, reordered: bool = True) -> str:
    """The check's readout; in the original order (`reordered` False) both sides are the same
    array, and it says there was nothing to check instead of what a reordering shows."""
    left, right = check_expression(positions, cross)
    verdict = "True" if equal else "False"
    if not reordered:
        note = "nothing to check: the tokens are in their original order, so both sides are the same; shuffle them"
    else:
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


# --- one frame, as the page shows it -----------------------------------------------------------
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
        "check": check_html(f.equal, f.max_diff, f.positions, f.cross, list(f.perm) != list(range(n))),
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


def worked_sources() -> dict[str, dict]:
    """The worked example's two sources (the same for every state)."""
    w, out = worked_example()
    return {
        "worked_example": {"j": [0, 1, 2], "weight": w.tolist(), "label": [fix(float(v), 3) for v in w],
                           "x": ["w0", "w1", "w2"], "y": ["q"] * 3},
        "worked_output": {"c": [0, 1], "value": out.tolist(), "label": [fix(float(v), 2) for v in out],
                          "x": ["o0", "o1"], "y": ["q"] * 2},
    }


# --- what the page shows for a state -------------------------------------------------------------
def shown(state: SelfAttentionState) -> dict:
    """Everything the page shows for `state`, computed once: "sources" (every named source's data),
    "factors" (the heat maps' categorical axes by range name) and "texts" (the Divs' by name)."""
    fd = frame_data(state.frame())
    return {"sources": {**fd["sources"], **worked_sources()}, "factors": fd["factors"],
            "texts": {"order": fd["order"], "check_readout": fd["check"]}}


def sources(state: SelfAttentionState) -> dict[str, dict]:
    """Every named source's data for `state`: what the page shows once Python has answered."""
    return shown(state)["sources"]


def texts(state: SelfAttentionState) -> dict[str, str]:
    """Every Div's text that follows the state, by the Div's name (the view's "message" says why
    the page refused a value; it is not the state's)."""
    return shown(state)["texts"]


def glue_data() -> dict:
    """What self_attention.js is handed to compute every state itself: the seed's matrices, the
    seeded permutations and the bounds."""
    return {
        "X": X_ALL.tolist(), "Y": Y_ALL.tolist(), "Wq": WQ.tolist(), "Wk": WK.tolist(), "Wv": WV.tolist(),
        "perms": {str(n): [list(p) for p in ps] for n, ps in PERMS.items()},
        "letters": LETTERS, "y_letters": Y_LETTERS, "d": D, "n_min": N_MIN, "n_max": N_MAX,
        "max_shuffle": MAX_SHUFFLE,
    }
