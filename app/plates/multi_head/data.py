"""What the multi-head plate shows, built from its state with attention_core: every named source's
data (`sources`), the Divs' texts (`texts`), the colour scales' limits, and the seeded matrices
the browser is handed (`recipes`). multi_head.js builds the same dicts and strings."""

from __future__ import annotations

import math

import numpy as np

import attention_core as ac
from app.plates.multi_head.layout import head_origin, heads_shown
from app.plates.multi_head.state import MAP_WIDTHS, N_MAX, PAPER, SEED, MultiHeadState, map_width
from app.shared import html_table
from app.shared.formatting import fix, paren


# --- text, written the same way by multi_head.js -------------------------------------------
def thousands(k: int) -> str:
    """786432 -> '786,432'."""
    return f"{int(k):,}"


def num(x: float) -> str:
    """A divisor as printed: whole numbers bare ('8'), others with three decimals ('1.414')."""
    return str(int(x)) if float(x).is_integer() else fix(x, 3)


def root_text(d_k: int) -> str:
    """'√4 = 2', '√2 = 1.414'."""
    return f"√{d_k} = {num(math.sqrt(d_k))}"


def sum_text(a, b) -> str:
    """'a1×b1 + a2×b2 + …', four products to a line, negative factors in brackets."""
    terms = [f"{paren(fix(x, 2))}×{paren(fix(y, 2))}" for x, y in zip(a, b)]
    lines = [" + ".join(terms[k:k + 4]) for k in range(0, len(terms), 4)]
    return "\n+ ".join(lines)


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
        text += f" The heat maps use {n} tokens at this width."
    return f"<div class='ae-mh-summary'>{text}</div>"


def message_html(message: str) -> str:
    """Why the last request was refused, as shown ('' when nothing was); multi_head.js's message_html."""
    return f"<div class='ae-mh-message' role='alert'>{message}</div>" if message else ""


# --- the sources' data (multi_head.js builds the same dicts) --------------------------------
def head_data(weights: np.ndarray, raw: np.ndarray, d_k: int, room: int = 0,
              slide: bool = False) -> tuple[dict, dict, dict]:
    """(head_weights, head_titles, head_ticks) for weights and raw scores (h, n, n); `room` as in
    layout.heads_per_row; on a `slide`, the first heads only (layout.heads_shown), their titles
    saying how many there are."""
    h, n, _ = weights.shape
    div = math.sqrt(d_k)
    shown = heads_shown(h, slide)
    of = f" of {h}" if shown < h else ""
    cells = {k: [] for k in ("head", "i", "j", "value", "text", "x", "y", "score", "scaled", "tip")}
    titles = {"x": [], "y": [], "text": []}
    ticks = {"x": [], "y": [], "text": []}
    for k in range(shown):
        ox, oy = head_origin(k, n, h, room, slide)
        titles["x"].append(ox + (n - 1) / 2)
        titles["y"].append(oy + 2)
        titles["text"].append(f"head {k + 1}{of} · ÷ {root_text(d_k)}")
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


# The counter and the divisors are plain HTML tables (app/shared/html_table.py); multi_head.js's
# params_table_html and divisors_table_html write the same strings.
PARAMS_COLUMNS = (("parameters", "row", "row"), ("shape", "shape", "num"), ("per head", "per_head_text", "num"),
                  ("heads", "heads_text", "num"), ("in all", "total_text", "num"), ("paper per head", "paper_per_head_text", "num"),
                  ("paper (512, h\u00a0=\u00a08)", "paper_total_text", "num"))
DIVISORS_COLUMNS = (("head", "row"), ("d_k", "num"), ("divisor √d_k", "num"))


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


# --- one state's numbers, sources and texts -------------------------------------------------
def numbers(state: MultiHeadState) -> dict[str, np.ndarray]:
    """attention_core's arrays for `state`, at the heat maps' width w: the recipe's Wo (w, w), the
    output and concat (n, w), the weights and raw scores (h, n, n), and V split by head (h, n, w/h)."""
    X, Wq, Wk, Wv, Wo = state.inputs()
    output, weights, concat = ac.multi_head_attention(X, Wq, Wk, Wv, Wo, state.h)  # (n, w), (h, n, n), (n, w)
    return {"Wo": Wo, "output": output, "weights": weights, "concat": concat,
            "raw": ac.head_scores(X, Wq, Wk, state.h),  # (h, n, n)
            "Vh": ac.split_heads(X @ Wv, state.h)}  # (h, n, w/h)


def sources(state: MultiHeadState, room: int = 0, nums: dict | None = None) -> dict[str, dict]:
    """Every named source's data for `state` (the head maps placed for a phone's `room`, 0 on a
    wide screen): what the page shows once Python has answered. `nums`: numbers(state), if known."""
    nums = numbers(state) if nums is None else nums
    n, w, h = state.n, state.width, state.h
    cells, titles, ticks = head_data(nums["weights"], nums["raw"], w // h, room, state.slide)
    cm, cl, wm, wl, om = matrix_marks(n, w, h)
    return {
        "head_weights": cells, "head_titles": titles, "head_ticks": ticks,
        "concat": concat_data(nums["concat"], nums["weights"], nums["Vh"]),
        "w_o": w_o_data(nums["Wo"], w // h),
        "mh_output": output_data(nums["output"], nums["concat"], nums["Wo"]),
        "concat_marks": cm, "concat_lines": cl, "w_o_marks": wm, "w_o_lines": wl, "output_marks": om,
        "params": params_data(state.d_model, h), "divisors": divisors_data(state.d_model, h),
        "setting": {"d_model": [state.d_model], "h": [h], "n": [n], "width": [w]},
    }


def colour_limits(state: MultiHeadState, nums: dict | None = None) -> dict[str, float]:
    """The half-width of each signed colour scale (concat, W_O, output) for `state`."""
    nums = numbers(state) if nums is None else nums
    return {"concat": signed_limit(nums["concat"]), "w_o": signed_limit(nums["Wo"]),
            "output": signed_limit(nums["output"])}


def texts(state: MultiHeadState) -> dict[str, str]:
    """Every named Div's text for `state` that changes with it."""
    return {"summary": summary_html(state.d_model, state.h, state.n), "message": message_html(state.message),
            "params_table": params_table_html(params_data(state.d_model, state.h)),
            "divisors_table": divisors_table_html(divisors_data(state.d_model, state.h))}
