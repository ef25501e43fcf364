"""Seed 000's three items with the third one masked: seed 004's statement, numerically (the table
beside the formula). It never changes."""

from __future__ import annotations

import numpy as np

import attention_core as ac
from app.plates.masking.cells import NEG_INF
from app.shared import html_table
from app.shared.formatting import fix

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


# The table is plain HTML (app/shared/html_table.py): (title, column of demo_data, kind).
DEMO_COLUMNS = (("item", "item", "row"), ("score", "score", "num"), ("value", "value", "num"),
                ("no mask", "plain_text", "num"), ("score\u00a0+\u00a0M", "masked_score", "num"),
                ("exp", "exp_text", "num"), ("mask scores", "before_text", "num"), ("zero after", "after_text", "num"))


def demo_table_html(demo: dict) -> str:
    """Seed 000's three items, masked before and zeroed after the softmax."""
    rows = [[demo[f][j] for _, f, _ in DEMO_COLUMNS] for j in range(len(demo["item"]))]
    return html_table.table_html("The rule in three numbers", [(t, k) for t, _, k in DEMO_COLUMNS], rows)



def demo_intro_html() -> str:
    """The words above the table: the rule in three numbers."""
    dn = demo_numbers()
    return (
        "<div class='ae-notes'><p><b>The rule in three numbers</b> (seed 000's scores 2, 1, 0 with values "
        f"1, 2, 3; item 3 blocked). exp({NEG_INF}) = 0 removes item 3, and the survivors share the "
        f"whole weight: {fix(dn['before'][0], 3)} + {fix(dn['before'][1], 3)} = {fix(dn['before'].sum(), 0)}. "
        f"Zeroing item 3 after the softmax keeps {fix(dn['after'][0], 3)} + {fix(dn['after'][1], 3)} = "
        f"{fix(dn['after'].sum(), 3)}, and the output falls from {fix(dn['out_before'], 3)} to "
        f"{fix(dn['out_after'], 3)}.</p></div>"
    )
