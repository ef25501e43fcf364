"""What the scaling plate shows, built from its state with attention_core: every named source's
data, the histogram's ranges and labels, and the Divs' texts (scaling.js computes the same in
the browser, except the histogram's bins, which it picks from "histogram_table")."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

import attention_core as ac
from app.plates.scaling.formatting import short, trim, weight_text
from app.plates.scaling.formulas import formulas_html
from app.plates.scaling.state import BASE, BINS, N_SAMPLES, WIDTHS, ScalingState, histogram_tables, sample_stds
from app.shared.formatting import fix, true_minus

CURVE_WIDTHS = [2.0 ** (k / 10) for k in range(101)]  # 1 .. 1024; k = 10 e gives 2^e exactly
DENSITY_POINTS = 161
ITEM_COLORS = ["#E69F00", "#56B4E9", "#57606a"]  # item 1 (score 2) in the weights' orange
ITEMS = ["1", "2", "3"]
CONTRAST = [  # (scores, decimals as seed 003 prints the weights)
    ([8.0, 0.0, -8.0], [5, 5, 7]),
    ([1.0, 0.0, -1.0], [3, 3, 3]),
]
NOTE_Y = 1.3  # height of the contrast plot's Jacobian notes
# The named sources that follow the state; the others are the same for every state.
LIVE = ("histogram", "density", "flat_current", "jacobian", "entropy_current", "rendered")


# --- the sources that never change -----------------------------------------------------------
def histogram_table_data() -> dict:
    cols = {"d": [], "scaled": [], "left": [], "right": [], "count": []}
    for (d, scaled), (edges, counts) in histogram_tables().items():
        cols["d"] += [d] * BINS
        cols["scaled"] += [int(scaled)] * BINS
        cols["left"] += edges[:-1].tolist()
        cols["right"] += edges[1:].tolist()
        cols["count"] += counts.tolist()
    return cols


def std_table_data() -> dict:
    stds = sample_stds()
    return {"d": list(WIDTHS), "unscaled": [stds[d][0] for d in WIDTHS], "scaled": [stds[d][1] for d in WIDTHS]}


def flat_data(scaled: bool) -> dict:
    w = ac.flat_line(CURVE_WIDTHS, BASE, scaled=scaled)  # (101, 3)
    return {"d": list(CURVE_WIDTHS), "w0": w[:, 0].tolist(), "w1": w[:, 1].tolist(), "w2": w[:, 2].tolist()}


def entropy_data() -> dict:
    hs = ac.entropy(ac.flat_line(CURVE_WIDTHS, BASE, scaled=True))  # (101,)
    hu = ac.entropy(ac.flat_line(CURVE_WIDTHS, BASE, scaled=False))  # (101,)
    return {"d": list(CURVE_WIDTHS), "scaled": hs.tolist(), "unscaled": hu.tolist(),
            "log_m": [math.log(len(BASE))] * len(CURVE_WIDTHS)}


def case_name(scores) -> str:
    return "softmax([" + ", ".join(true_minus(f"{s:g}") for s in scores) + "])"


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


@cache
def _fixed() -> dict[str, dict]:
    return {"histogram_table": histogram_table_data(), "std_table": std_table_data(),
            "flat_scaled": flat_data(True), "flat_unscaled": flat_data(False), "entropy": entropy_data(),
            "contrast": contrast_data(), "contrast_jacobian": contrast_jacobian_data()}


def fixed_sources() -> dict[str, dict]:
    """The sources that are the same for every state (computed once; each call gets its own lists)."""
    return {name: {col: list(values) for col, values in data.items()} for name, data in _fixed().items()}


# --- the sources that follow the state -------------------------------------------------------
def density_data(edges: np.ndarray, variance: float) -> dict:
    """The N(0, variance) curve over the histogram's range, scaled to samples per bin."""
    x = np.linspace(edges[0], edges[-1], DENSITY_POINTS)  # (161,)
    pdf = ac.normal_density(x, variance)  # (161,)
    width = float(edges[1] - edges[0])
    return {"x": x.tolist(), "pdf": pdf.tolist(), "y": (N_SAMPLES * width * pdf).tolist()}


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
    return {"d": [float(d_k)] * 3, "w": [float(x) for x in w], "label": [weight_text(float(x)) for x in w],
            "color": list(ITEM_COLORS)}


# The flat-line chart's weights at the chosen width are written in one label, one line a weight,
# in the band of the chart that no curve enters: between the flat lines of the second and the
# first weight (0.245 and 0.665, softmax([2, 1, 0])), which the raw curves leave from d = 1 on,
# the first upwards and the others downwards. At their markers two of them would sit on each
# other and on the curves that pass there (issue 55).
FLAT_BAND = tuple(float(x) for x in ac.softmax(np.array(BASE, dtype=float))[1::-1])  # (0.245, 0.665)
FLAT_LABEL_Y = sum(FLAT_BAND) / 2
FLAT_LABEL_SIDE = 32  # widths below it: the label to the right of the width's line, else to its left


def flat_label(d_k: int, w) -> dict:
    """The label of the flat-line chart's three weights at `d_k`: its text and where it sits."""
    align, dx = label_side(d_k, FLAT_LABEL_SIDE)
    text = "\n".join(f"α{j + 1} = {weight_text(float(x))}" for j, x in enumerate(w))
    return {"text": text, "x": float(d_k), "text_align": align, "x_offset": dx}


def entropy_current_data(d_k: int, h: float) -> dict:
    align, dx = label_side(d_k, 256)
    return {"d": [float(d_k)], "h": [h], "label": [f"H = {fix(h, 3)}"], "align": [align], "dx": [dx]}


def live_sources(state: ScalingState) -> dict[str, dict]:
    """The sources that follow the state. "rendered" names the state they are for: Python pushes
    it before the numbers, so the page can tell a late answer (scaling.js's guard)."""
    edges, counts = state.histogram()
    w = state.weights()  # (3,)
    return {
        "histogram": {"left": edges[:-1].tolist(), "right": edges[1:].tolist(), "count": counts.tolist()},
        "density": density_data(edges, 1.0 if state.scaled else float(state.d_k)),
        "flat_current": flat_current_data(state.d_k, w),
        "jacobian": jacobian_data(ac.softmax_jacobian(w)),
        "entropy_current": entropy_current_data(state.d_k, float(ac.entropy(w))),
        "rendered": {"d_k": [state.d_k], "scaled": [int(state.scaled)]},
    }


def sources(state: ScalingState) -> dict[str, dict]:
    """Every named source's data for `state`: what the page shows once Python has answered."""
    return {**fixed_sources(), **live_sources(state)}


# --- the histogram's ranges, the labels and the texts ---------------------------------------
def std_text(d_k: int, std: float, scaled: bool) -> str:
    return f"std {fix(std, 2)}" + ("" if scaled else f"   (√{d_k} = {trim(math.sqrt(d_k))})")


def annotations(state: ScalingState, live: dict | None = None) -> dict:
    """The histogram's x range and top, its axis label, the std and Jacobian labels, the flat-line
    chart's label of the weights and the width marked on the two charts (`live`:
    live_sources(state), if already at hand)."""
    live = live or live_sources(state)
    hist, dens = live["histogram"], live["density"]
    std_raw, std_scaled = state.std()
    largest = max(abs(v) for v in live["jacobian"]["value"])
    return {
        "x_range": (float(hist["left"][0]), float(hist["right"][-1])),
        "y_end": max(float(max(hist["count"])), max(dens["y"])) * 1.18,
        "axis_label": f"q·k / √{state.d_k}" if state.scaled else "q·k",
        "std_label": std_text(state.d_k, std_scaled if state.scaled else std_raw, state.scaled),
        "jacobian_max": f"largest entry {short(largest)}",
        "flat_label": flat_label(state.d_k, live["flat_current"]["w"]),
        "span": float(state.d_k),
    }


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


def texts(state: ScalingState) -> dict[str, str]:
    """Every named Div's text for `state`."""
    std_raw, std_scaled = state.std()
    w = state.weights()  # (3,)
    largest = float(np.max(np.abs(ac.softmax_jacobian(w))))
    return {"readout": readout_html(state.d_k, state.scaled, std_raw, std_scaled, state.scores, w, largest,
                                    float(ac.entropy(w))),
            **formulas_html()}
