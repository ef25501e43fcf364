"""What the worked plate shows, built from its state with attention_core: every named source's
data (`sources`) and every Div's text (`texts`: the table, the notes, the feedback on the guesses),
which worked.js writes the same way in the browser."""

from __future__ import annotations

import math
from html import escape

import numpy as np

import attention_core as ac
from app.plates.worked.formatting import exp_text, fixed, short, vec_text
from app.plates.worked.inputs import guess_vector
from app.plates.worked.panels import xy
from app.plates.worked.presets import PRESETS
from app.plates.worked.state import MIN_SLIDER, WorkedState, slider_end
from app.shared.formatting import paren

SWEEP_POINTS = 61

CSS = """
:host { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif; color: #1f2328; }
.wk-table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13.5px; width: 100%; }
.wk-table th, .wk-table td { border-bottom: 1px solid #d8dee4; padding: 3px 6px; text-align: right; white-space: nowrap; }
.wk-table thead th { font-weight: 600; color: #57606a; border-bottom: 2px solid #57606a; vertical-align: bottom; line-height: 1.2; }
.wk-table th.wk-key { text-align: left; color: #0072B2; }
.wk-table td.wk-vec { text-align: left; color: #0072B2; }
.wk-table td.wk-val { color: #00795a; }
.wk-table .wk-now { background: #fff3d6; }
.wk-table td.wk-hidden { color: #8c959f; }
.wk-table tr.wk-total th, .wk-table tr.wk-total td { font-weight: 700; border-bottom: none; border-top: 2px solid #57606a; }
.wk-out { font-size: 20px; font-weight: 700; padding: 2px 0; }
.wk-out .wk-hidden { color: #8c959f; }
.wk-note { font-size: 14px; line-height: 1.45; }
.wk-fb { font-size: 14px; line-height: 1.45; }
.wk-right { color: #1a7f37; font-weight: 600; }
.wk-off { color: #9a3412; font-weight: 600; }
.wk-err { color: #b3261e; font-size: 13px; }
.wk-seed { color: #57606a; font-size: 12.5px; line-height: 1.35; margin-top: 4px; }
/* While a text box holds what cannot be read, the table and the output are the last good ones:
   dimmed, and said so (view.py and worked.js add the class). */
:host(.wk-stale) .bk-clearfix { opacity: 0.4; }
:host(.wk-said)::before { content: "The last numbers that could be read: fix the box marked in red.";
  display: block; color: #b3261e; font-size: 13px; }
@media (max-width: 480px) {  /* a phone: the eight columns in its width */
  .wk-table { font-size: 12.5px; }
  .wk-table th, .wk-table td { padding: 3px 3px; }
}
"""

# The text box that cannot be read (view.py and worked.js add the class): a red border, which
# page.js turns into its dark partner in dark mode; both stand 3:1 against the page and the box.
INVALID_CSS = """
:host(.wk-invalid) .bk-input, :host(.wk-invalid) .bk-input:focus { border-color: #b3261e; box-shadow: 0 0 0 1px #b3261e; }
"""


def table_html(st, names, K, V, step: int, scaled: bool, d_k: int) -> str:
    """The step-by-step table; hidden stages show '?'. worked.js's table_html writes the same.

    Every header is words on the header row's lines: e^scaled written with a superscript floated
    between them (present mode sets a superscript at full size), off its column (issue 55)."""
    def cell(shown: bool, text: str, stage: int, cls: str = "") -> str:
        c = ([cls] if cls else []) + (["wk-now"] if step == stage else []) + ([] if shown else ["wk-hidden"])
        attr = f" class='{' '.join(c)}'" if c else ""
        return f"<td{attr}>{text if shown else '?'}</td>"

    scale_head = f"÷ √{d_k}" if scaled else "(off)"
    head = ("<thead><tr><th class='wk-key'>key</th><th class='wk-key'>k</th><th>score<br>q·k</th>"
            f"<th>scaled<br>{scale_head}</th><th>e to the<br>scaled</th><th>weight</th><th>value</th>"
            "<th>weight<br>× value</th></tr></thead>")
    rows = []
    d_v = 1 if np.ndim(st.output) == 0 else len(st.output)
    for j, name in enumerate(names):
        v = V[j][0] if d_v == 1 else V[j]
        w = st.weighted[j]
        rows.append(
            f"<tr><th class='wk-key'>{escape(name)}</th><td class='wk-vec'>{vec_text(K[j])}</td>"
            + cell(step >= 1, short(st.score[j]), 1) + cell(step >= 2, short(st.scaled[j]), 2)
            + cell(step >= 3, exp_text(st.exp[j]), 3) + cell(step >= 4, fixed(st.weight[j], 3), 4)
            + f"<td class='wk-val'>{vec_text(v)}</td>" + cell(step >= 5, vec_text(w), 5) + "</tr>")
    total = float(np.sum(st.weight))
    rows.append(
        "<tr class='wk-total'><th class='wk-key'>total</th><td></td><td></td><td></td>"
        + cell(step >= 3, "Σ " + exp_text(st.exp_total), 3) + cell(step >= 4, "Σ " + fixed(total, 3), 4)
        + "<td></td>" + cell(step >= 5, "output " + vec_text(st.output), 5) + "</tr>")
    return f"<table class='wk-table'>{head}<tbody>{''.join(rows)}</tbody></table>"


def output_html(st, step: int) -> str:
    shown = step >= 5
    text = vec_text(st.output) if shown else "<span class='wk-hidden'>?</span>"
    return f"<div class='wk-out'>output = {text}</div>"


def score_sum(q, k) -> str:
    """'1×1 + 2×0' for q = [1, 2], k = [1, 0] (negative numbers in brackets)."""
    return " + ".join(f"{paren(short(a))}×{paren(short(c))}" for a, c in zip(q, k))


def stage_note(st, q, K, names, step: int, scaled: bool, d_k: int, d_v: int) -> str:
    """One sentence about the stage just revealed, with the first key's numbers."""
    n = escape(names[0])
    if step == 0:
        body = ("Nothing is computed yet. Guess which key will win and what the output will be, "
                "then press <b>Step</b>.")
    elif step == 1:
        body = (f"<b>1 · Score.</b> Multiply the query and each key entry by entry and add: "
                f"q·{n} = {score_sum(q, K[0])} = {short(st.score[0])}.")
    elif step == 2:
        root = short(math.sqrt(d_k))
        if scaled:
            body = (f"<b>2 · Scale.</b> Divide every score by √d_k = √{d_k} ≈ {root}: "
                    f"{short(st.score[0])} → {short(st.scaled[0])}.")
        else:
            body = ("<b>2 · Scale.</b> Scaling is off, so the scores go into the softmax unchanged "
                    f"(tick ÷√d_k to divide them by √{d_k} ≈ {root}).")
    elif step == 3:
        body = (f"<b>3 · Exponentiate.</b> Raise e to each scaled score: every entry turns positive and "
                f"the gaps grow. e<sup>{short(st.scaled[0])}</sup> = {exp_text(st.exp[0])}; "
                f"the exponentials add up to {exp_text(st.exp_total)}.")
    elif step == 4:
        body = (f"<b>4 · Normalise.</b> Divide each exponential by their sum, so the weights add to 1: "
                f"{exp_text(st.exp[0])} / {exp_text(st.exp_total)} = {fixed(st.weight[0], 3)}.")
    else:
        body = (f"<b>5 · Weighted sum.</b> Multiply each value by its weight and add the rows: "
                f"the output is {vec_text(st.output)}.")
        if d_v == 2:
            body += " It lies inside the values' convex hull (shaded): weights ≥ 0 that add to 1 cannot leave it."
    return f"<div class='wk-note'>{body}</div>"



def feedback_html(st, names, step: int, guess_key: str, guess_output: str, d_v: int, note: str) -> str:
    """What the page says about the reader's guesses once the weights (and the output) are shown."""
    if step < 4:
        return ("<div class='wk-fb'>Guess before the weights appear (stage 4): the page then tells you "
                "how close you were.</div>")
    w = [float(x) for x in st.weight]
    top = max(w)
    winners = [j for j, x in enumerate(w) if x >= top - 1e-12]
    win_names = " and ".join(escape(names[j]) for j in winners)
    lead = f"{win_names} {'tie' if len(winners) > 1 else 'wins'} with weight {fixed(top, 3)}"
    if guess_key in names:
        j = names.index(guess_key)
        if j in winners:
            tied = f" ({win_names} tie)" if len(winners) > 1 else ""
            key_line = f"<span class='wk-right'>You picked {escape(guess_key)}: right.</span>{tied} It takes {fixed(w[j], 3)} of the weight."
        else:
            key_line = (f"<span class='wk-off'>You picked {escape(guess_key)}: not this time.</span> "
                        f"{lead}; {escape(guess_key)} gets {fixed(w[j], 3)}.")
    else:
        key_line = f"You did not pick a key. {lead}."
    if step < 5:
        out_line = "Step once more to check your output."
    else:
        g, _ = guess_vector(guess_output, d_v)
        if g is None:
            out_line = f"No output guess to check; the output is {vec_text(st.output)}."
        else:
            dist = ac.prediction_error(g[0] if d_v == 1 else g, st.output)
            out_line = f"Your output {vec_text(g)} is {fixed(dist, 3)} from {vec_text(st.output)}."
    seed = f"<div class='wk-seed'>{escape(note)}</div>" if note and step >= 5 else ""
    return f"<div class='wk-fb'>{key_line}<br>{out_line}</div>{seed}"


def error_html(msg: str) -> str:
    return f"<div class='wk-err' role='alert'>{escape(msg)}</div>" if msg else ""


def panel_note(d_k: int, d_v: int) -> str:
    if d_k == 2 and d_v == 2:
        return ""
    missing = []
    if d_k != 2:
        missing.append(f"keys with 2 numbers to draw the keys (these have {d_k})")
    if d_v != 2:
        missing.append(f"values with 2 numbers to draw the values and their hull (these have {d_v})")
    return "<div class='wk-seed'>The pictures need " + " and ".join(missing) + ".</div>"


def sweep_note(norm: float, top: float, step: int) -> str:
    """Under the length curve; this query's own weight waits for stage 4 like the table's."""
    if norm == 0:
        return "<div class='wk-seed'>A zero query has no direction: every key gets the same weight.</div>"
    mine = f"largest weight {fixed(top, 3)}" if step >= 4 else "its weight shows at stage 4"
    return (f"<div class='wk-seed'>This query: |q| = {short(norm)}, {mine}. "
            "Stretch it and the curve climbs toward 1.</div>")



# --------------------------------------------------------------------------- from the state
def sources(state: WorkedState) -> dict[str, dict]:
    """Every named source's data for `state`: what the page shows once Python has answered."""
    q, K, V = state.arrays
    st = state.steps()
    names = state.names
    d_v, m = V.shape[1], K.shape[0]
    step = int(state.step)
    table = {"key": names, "k": K.tolist(), "score": st.score.tolist(), "scaled": st.scaled.tolist(),
             "exp": st.exp.tolist(), "weight": st.weight.tolist()}
    table["value"] = V[:, 0].tolist() if d_v == 1 else V.tolist()
    table["weighted"] = np.asarray(st.weighted).tolist()
    Vw = np.asarray(st.weighted).reshape(m, d_v)  # (M, d_v)
    for i in range(d_v):
        table[f"value_{i}"] = V[:, i].tolist()
        table[f"weighted_{i}"] = Vw[:, i].tolist()
    out = np.atleast_1d(st.output)  # (d_v,)
    output = {"value": [float(out[0])]} if d_v == 1 else {f"value_{i}": [float(x)] for i, x in enumerate(out)}
    output.update(exp_total=[float(st.exp_total)], weight_total=[float(np.sum(st.weight))])

    qx, qy = xy(q)
    hull = state.hull()  # (H, 2)
    data = {
        "worked_table": table, "worked_output": output,
        "query": {"x": [qx], "y": [qy], "vec": [q.tolist()]},
        "keys": {"x": [xy(k)[0] for k in K], "y": [xy(k)[1] for k in K], "vec": K.tolist(), "name": names},
        "values": {"x": [xy(v)[0] for v in V], "y": [xy(v)[1] for v in V], "vec": V.tolist(), "name": names},
        "hull": {"x": hull[:, 0].tolist(), "y": hull[:, 1].tolist()},
    }
    if d_v == 2 and step >= 5:
        data["output_point"] = {"x": [float(out[0])], "y": [float(out[1])]}
        data["pulls"] = {"x0": [float(out[0])] * m, "y0": [float(out[1])] * m, "x1": V[:, 0].tolist(),
                         "y1": V[:, 1].tolist(), "w": [float(1 + 7 * w) for w in st.weight]}
    else:
        data["output_point"] = {"x": [], "y": []}
        data["pulls"] = {"x0": [], "y0": [], "x1": [], "y1": [], "w": []}

    # The length of the query: the curve of the largest weight as it grows, and this query on it.
    norm = float(np.sqrt(np.sum(q * q)))
    if norm > 0:
        lengths = np.linspace(0.0, slider_end(q), SWEEP_POINTS)  # (F,)
        top = ac.length_sweep(q, K, lengths, scale=state.scale).max(axis=1)  # (F,)
        data["sweep"] = {"length": lengths.tolist(), "top": top.tolist(), "uniform": [1.0 / m] * SWEEP_POINTS}
        data["sweep_now"] = ({"length": [norm], "top": [float(np.max(st.weight))]} if step >= 4
                             else {"length": [], "top": []})
    else:
        data["sweep"] = {"length": [], "top": [], "uniform": []}
        data["sweep_now"] = {"length": [], "top": []}
    return data


def texts(state: WorkedState) -> dict[str, str]:
    """Every named Div's text for `state` (the messages under the text boxes depend on what was
    typed there, not on the state: the view writes them)."""
    q, K, V = state.arrays
    st = state.steps()
    names = state.names
    d_k, d_v = q.size, V.shape[1]
    step = int(state.step)
    note = PRESETS[state.preset]["note"] if state.is_preset() else ""
    return {
        "stage_note": stage_note(st, q, K, names, step, state.scaled, d_k, d_v),
        "worked_table_view": table_html(st, names, K, V, step, state.scaled, d_k),
        "output_view": output_html(st, step),
        "feedback": feedback_html(st, names, step, state.guess_key, state.guess_output, d_v, note),
        "guess_error": error_html(guess_vector(state.guess_output, d_v)[1]),
        "panel_note": panel_note(d_k, d_v),
        "sweep_note": sweep_note(float(np.sqrt(np.sum(q * q))), float(np.max(st.weight)), step),
    }


def length_slider(state: WorkedState) -> dict:
    """The query-length slider: its end (the longest stretch with every entry within ±10), its
    value (the query's length, at least the slider's start) and whether it is off (a zero query,
    which has no direction to stretch: the title says so, rather than show the start, 0.100)."""
    q = state.arrays[0]  # (d_k,)
    norm = float(np.sqrt(np.sum(q * q)))
    return {"end": slider_end(q), "value": max(MIN_SLIDER, norm), "disabled": norm == 0,
            "title": LENGTH_TITLES[norm == 0], "show_value": norm != 0}


# The Example menu names the chosen preset while the page shows its numbers; once they differ
# from its own, however they came (a link, typing, a drag, Python's state in a notebook), the
# entry says so ("Restore its numbers" brings them back), first: the menu is narrower than the
# longer labels, and the end of a label is cut off. worked.js's preset_options writes the same.
EDITED = "(numbers edited) "


def preset_options(state: WorkedState) -> list[tuple[str, str]]:
    """The Example menu's (value, label) pairs for `state`."""
    own = state.is_preset()
    return [(k, ("" if own or k != state.preset else EDITED) + p["label"]) for k, p in PRESETS.items()]


# The length slider's title; worked.js writes the same.
LENGTH_TITLES = {False: "Query length |q|", True: "Query length |q| = 0: no direction to stretch"}
