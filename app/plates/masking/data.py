"""What the masking plate shows, built from its state with attention_core: every named source's data
(sources), the Divs' texts (texts), and the factor ranges and font that follow n. masking.js's
view_data, notes_html and checks_table_html write the same, word for word (the node parity test)."""

from __future__ import annotations

import numpy as np

import attention_core as ac
from app.plates.masking.cells import (
    ALLOWED_FILL, DIVERGE_NEG, DIVERGE_POS, EMPTY_FILL, MASKED_FILL, NEG_INF, OUT_NEG, OUT_POS, ink_for, shade,
    signed, signed_shade,
)
from app.plates.masking.demo import demo_data, demo_table_html
from app.plates.masking.state import MaskingState
from app.shared import html_table
from app.shared.formatting import MINUS, fix
from app.shared.theme import PALETTE

TOL = 1e-12  # how close a row sum must be to 1 (or 0) for the page's check
# The scores panel's title: the mask added before the softmax, or (zeroing after it) not at all.
SCORES_TITLES = {False: "Scores S/√d_k + M", True: "Scores S/√d_k (no M)"}
# The named sources, in the order the view pushes them.
SOURCES = ("mask", "scores", "weights", "row_sums", "output", "contrast_weights", "contrast_row_sums",
           "contrast_output", "norms", "checks")


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
        if state.contrast:  # the softmax sees every score; the mask comes after it, on the weights
            fill = signed_shade(s, top_s, DIVERGE_NEG, DIVERGE_POS)
            score_rows.append({**base(i, j), "value": s, "text": signed(s, 2), "fill": fill, "ink": ink_for(fill),
                               "tip": f"{pair}: q·k / √4 = {signed(s, 3)}<br>the softmax sees {signed(s, 3)}" + (
                                   "" if ok else "; the mask zeroes its weight after")})
        else:
            fill = signed_shade(s, top_s, DIVERGE_NEG, DIVERGE_POS) if ok else MASKED_FILL
            score_rows.append({**base(i, j), "value": float(st.shown[i, j]), "text": signed(s, 2) if ok else NEG_INF,
                               "fill": fill, "ink": ink_for(fill),
                               "tip": f"{pair}: q·k / √4 = {signed(s, 3)}<br>" + (
                                   f"+ M = 0 → the softmax sees {signed(s, 3)}" if ok else
                                   f"+ M = {NEG_INF} → the softmax sees {NEG_INF}, and exp({NEG_INF}) = 0")})
        wv = float(st.weights[i, j])
        if ok:
            fill = shade(PALETTE["weights"], wv)
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
        fill = shade(PALETTE["weights"], cv) if ok else EMPTY_FILL
        cw_rows.append({**base(i, j), "value": cv, "text": fix(cv, 2) if ok else "0", "fill": fill,
                        "ink": ink_for(fill),
                        "tip": f"{pair}: softmax over all {n} keys = {fix(fv, 4)}<br>× mask {1 if ok else 0} = "
                               f"{fix(cv, 4)} (the row is not renormalised)"})

    def sums(values, empty):
        rows = []
        for i in range(n):
            v = float(values[i])
            fill = EMPTY_FILL if empty[i] else shade(PALETTE["weights"], v)
            rows.append({"i": i, "x": "Σ", "y": qname(i), "sum": v, "text": "0" if v == 0 else fix(v, 3),
                         "fill": fill, "ink": ink_for(fill),
                         "tip": f"Σ of row {i + 1} = {fix(v, 6)}"})
        return table(rows)

    def outputs(values, label):
        rows = []
        for i in range(n):
            for c in range(V.shape[1]):
                v = float(values[i, c])
                fill = signed_shade(v, top_o, OUT_NEG, OUT_POS)
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
    data["_scores_title"] = SCORES_TITLES[bool(state.contrast)]
    data["_notes"] = notes_html(state.kind, n, state.p, state.w, state.causal_window,
                                [i for i in range(n) if empty[i]], state.contrast)
    return data


# A check passed (✓), failed (✗), or had nothing to check (–): a check of the rows with one
# allowed key, when no row has one, is not passed, and says so.
MARKS = {True: "✓", False: "✗", None: "–"}
NOTHING = "nothing to check: "


def checks_data(state: MaskingState, st: ac.MaskingSteps, mask: np.ndarray) -> dict:
    """The pins recomputed for the current mask, about the weights the page shows (zeroed after
    the softmax in that mode): a ✓ never stands beside a cell that contradicts it, nor beside a
    check with nothing to check (its "ok" is None). masking.js's checks_data writes the same."""
    n = state.n
    Q, K, V = state.qkv()
    contrast = bool(state.contrast)
    shown_w = st.contrast_weights if contrast else st.weights  # (n, n)
    shown_sums = st.contrast_row_sums if contrast else st.row_sums  # (n,)
    empty = np.zeros(n, dtype=bool) if contrast else st.empty_rows  # (n,)
    target = np.where(empty, 0.0, 1.0)  # (n,)
    sums_ok = bool(np.all(np.abs(shown_sums - target) <= TOL))
    n_one = int(np.sum(np.abs(shown_sums - 1.0) <= TOL))
    n_empty = int(empty.sum())
    if contrast:
        sums_detail = f"{n_one} of {n} rows sum to 1" + ("" if sums_ok else ": zeroed after the softmax, the rest fall short")
    else:
        sums_detail = f"{n - n_empty} of {n} rows sum to 1" + (f", {n_empty} to 0" if n_empty else "")
    blocked = ~mask  # (n, n)
    n_blocked = int(blocked.sum())
    zero_ok = bool(np.all(shown_w[blocked] == 0.0)) if n_blocked else None
    zero_detail = f"{n_blocked} blocked, all exactly 0" if n_blocked else NOTHING + "nothing is blocked"
    single = [i for i in range(n) if int(mask[i].sum()) == 1]  # rows with one allowed key
    single_ok = all(float(shown_w[i][mask[i]][0]) == 1.0 for i in single) if single else None
    if not single:
        single_detail = NOTHING + "no row has exactly one allowed key"
    elif single_ok:
        single_detail = ", ".join(qname(i) for i in single) + ": weight exactly 1 on the one key"
    else:
        i = next(i for i in single if float(shown_w[i][mask[i]][0]) != 1.0)
        single_detail = f"{qname(i)}'s one key gets {fix(float(shown_w[i][mask[i]][0]), 3)}, not 1"
    shrink_rows = blocked.any(axis=1)  # (n,)
    cs = st.contrast_row_sums  # (n,)
    if shrink_rows.any():
        shrink_ok = bool(np.all(cs[shrink_rows] < 1.0)) and bool(np.all(np.abs(cs[~shrink_rows] - 1.0) <= TOL))
        lo, hi = float(cs[shrink_rows].min()), float(cs[shrink_rows].max())
        shrink_detail = f"{int(shrink_rows.sum())} rows: sums {fix(lo, 3)} … {fix(hi, 3)}"
    else:
        shrink_ok, shrink_detail = None, NOTHING + "no row blocks a key"
    out_loop, w_loop = ac.attention_loop(Q, K, V, mask)
    diff = max(float(np.max(np.abs(out_loop - st.output))), float(np.max(np.abs(w_loop - st.weights))))
    loop_ok = diff <= TOL
    finite_ok = all(bool(np.all(np.isfinite(a)))
                    for a in (st.weights, st.output, st.contrast_weights, st.contrast_output))
    rows = [
        ("Each row of weights sums to 1 (0 if nothing allowed)", sums_ok, sums_detail),
        ("Blocked pairs get weight exactly 0", zero_ok, zero_detail),
        ("A row with one allowed key gives it weight exactly 1", single_ok, single_detail),
        ("Zeroed after softmax: a row that blocks sums below 1", shrink_ok, shrink_detail),
        ("attention(Q, K, V, mask) equals a plain loop", loop_ok, "differences < 1e-12" if loop_ok
         else "they disagree"),
        ("No NaN anywhere", finite_ok, "all weights and outputs finite"),
    ]
    return {"check": [r[0] for r in rows], "ok": [r[1] for r in rows], "mark": [MARKS[r[1]] for r in rows],
            "detail": [r[2] for r in rows]}


# The checks' table is plain HTML (app/shared/html_table.py), written again by masking.js's
# checks_table_html at every change. The checks are sentences: plain type, wrapped (CHECKS_CSS).
CHECKS_COLUMNS = (("ok", "text"), ("Pinned on this page (recomputed at every change)", "row"), ("now", "text"))


def checks_table_html(checks: dict) -> str:
    """The pins as a table; masking.js's checks_table_html writes the same."""
    rows = [[m, c, d] for m, c, d in zip(checks["mark"], checks["check"], checks["detail"])]
    return html_table.table_html("Checks recomputed at every change", CHECKS_COLUMNS, rows)



def sources(state: MaskingState) -> dict[str, dict]:
    """Every named source's data for `state`: what the page shows once Python has answered."""
    d = view_data(state)
    return {name: d[name] for name in SOURCES}


def texts(state: MaskingState, d: dict | None = None) -> dict[str, str]:
    """Every named Div's text for `state` (`d`: its view_data, if already computed)."""
    d = d if d is not None else view_data(state)
    return {"notes": d["_notes"], "checks_table": checks_table_html(d["checks"]),
            "demo_table": demo_table_html(demo_data())}


def factors(n: int) -> dict[str, list[str]]:
    """The factor ranges' factors for n tokens: the rows (q1 on top), the keys, the keys and Σ."""
    qs = [qname(i) for i in range(n)]
    ks = [kname(j) for j in range(n)]
    return {"rows": list(reversed(qs)), "keys_range": ks, "keys_sum_range": [*ks, "Σ"]}
