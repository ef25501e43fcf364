"""What the soft-lookup plate shows, built from its state with attention_core: the sources' data,
the readout and the table (lookup.js writes the same texts in the browser)."""

from __future__ import annotations

import numpy as np

from app.plates.lookup.state import KEY_NAMES, VALUES, LookupState
from app.shared import html_table
from app.shared.formatting import fix, pct

READOUT_CSS = """
.ae-readout { display: flex; flex-direction: column; gap: 2px; font-family: system-ui, sans-serif; }
.ae-big { font-size: 22px; font-weight: 700; color: #1f2328; }
.ae-sub { color: #57606a; font-size: 14px; }
"""


def readout_html(output: float, hard: float, hard_key: int) -> str:
    """The output line under the plot; lookup.js's readout_html writes the same text."""
    return (
        "<div class='ae-readout'><span class='ae-big'>output = " + fix(output, 2)
        + "</span><span class='ae-sub'>hard lookup: " + fix(hard, 0) + f" (k{hard_key + 1})"
        + " · plain average: 30</span></div>"
    )


# The table under the bars (app/shared/html_table.py): rewritten a few times a second during a gesture by
# lookup.js's refresh_table. (title, column of the weights source, decimals): the bars' own numbers.
TABLE_LABEL = "Scores and weights of the five keys"
TABLE_COLUMNS = (("value", "value", 0), ("raw score", "score", 3), ("into softmax", "scaled", 3),
                 ("weight", "weight", 4), ("weight × value", "weighted", 3))


def table_html(weights: dict) -> str:
    """The scores and weights of the five keys as a table; lookup.js's table_html writes the same."""
    columns = [("key", "row")] + [(t, "num") for t, _, _ in TABLE_COLUMNS]
    rows = [[k] + [fix(float(weights[c][j]), d) for _, c, d in TABLE_COLUMNS] for j, k in enumerate(weights["key"])]
    return html_table.table_html(TABLE_LABEL, columns, rows)


def keys_data(keys: np.ndarray) -> dict:
    return {"x": keys[:, 0].tolist(), "y": keys[:, 1].tolist(), "value": VALUES.tolist(),
            "name": [f"{n} · {v:g}" for n, v in zip(KEY_NAMES, VALUES)]}


def sources(state: LookupState) -> dict[str, dict]:
    """Every named source's data for `state`: what the page shows once Python has answered."""
    st = state.steps()
    q = state.query  # (2,)
    hard = float(VALUES[st.winner])
    return {
        "query": {"x": [float(q[0])], "y": [float(q[1])]},
        "keys": keys_data(state.keys),
        "weights": {"key": KEY_NAMES, "value": VALUES.tolist(), "weight": st.weight.tolist(),
                    "pct": [pct(w) for w in st.weight], "score": st.score.tolist(),
                    "scaled": st.scaled.tolist(), "weighted": st.weighted.tolist()},
        "output": {"value": [float(st.output)], "label": [f"output {fix(float(st.output), 2)}"]},
        "hard_lookup": {"x": [hard], "label": [f"hard lookup {fix(hard, 0)}"]},
    }


def texts(state: LookupState) -> dict[str, str]:
    """Every named Div's text for `state`."""
    st = state.steps()
    data = sources(state)
    return {"readout": readout_html(float(st.output), float(VALUES[st.winner]), st.winner),
            "table": table_html(data["weights"])}
