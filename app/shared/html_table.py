"""Small visible tables written as plain HTML, the same string in Python and in the browser.

A plate's table of a few rows (the lookup's scores, the masking plate's checks and its
three-item demo, the multi-head plate's parameters and divisors) is a Div holding the string
`table_html` returns; page.js's `AEPage.table_html` returns the same string from the same
arguments, so the live path rewrites the Div without asking Python. Bokeh's DataTable did this
job before: its SlickGrid took 7-8 ms to redraw five rows, and its bundle (bokeh-tables, 0.5 MB
of JavaScript) was parsed at every page load for these tables alone (benchmarks/README.md,
"Where the time goes").

The caller formats the cells (each plate writes its numbers its own way); this module only
writes the table around them. A column's kind is "row" (the row's header cell, read out by a
screen reader with every cell of that row), "num" (right-aligned figures) or "text".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

KINDS = ("row", "num", "text")

TABLE_CSS = """
.ae-wt { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13.5px; width: 100%;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif; color: #1f2328; }
.ae-wt th, .ae-wt td { border-bottom: 1px solid #d8dee4; padding: 3px 6px; text-align: right; white-space: nowrap; }
.ae-wt thead th { font-weight: 600; color: #57606a; border-bottom: 2px solid #57606a; vertical-align: bottom;
  white-space: normal; }
.ae-wt tbody th, .ae-wt thead th.ae-tx { text-align: left; }
.ae-wt tbody th { font-weight: 600; }
.ae-wt td.ae-tx { text-align: left; white-space: normal; }
.ae-wt-box { max-width: 100%; overflow-x: auto; }  /* a phone scrolls the table, not the page */
.ae-wt-box:focus-visible { outline: 2px solid #0072B2; outline-offset: 2px; }
.bk-clearfix { max-width: 100%; }  /* BokehJS's Div wraps its text in an inline-block that grows with it */
@media (max-width: 480px) {
  .ae-wt { font-size: 12.5px; }
  .ae-wt th, .ae-wt td { padding: 3px 3px; }
}
"""


def table_html(label: str, columns: Sequence[tuple[str, str]], rows: Iterable[Sequence[str]]) -> str:
    """A table named `label` (for screen readers) with `columns` as (title, kind) and `rows` of
    already formatted cells; page.js's AEPage.table_html writes the same string."""
    bad = [kind for _, kind in columns if kind not in KINDS]
    if bad:
        raise ValueError(f"a column's kind is one of {KINDS}, got {bad[0]!r}")
    head = "".join(f"<th scope='col'{_cls(kind, header=True)}>{escape(title)}</th>" for title, kind in columns)
    body = []
    for row in rows:
        if len(row) != len(columns):
            raise ValueError(f"a row has {len(row)} cells for {len(columns)} columns: {list(row)!r}")
        body.append("<tr>" + "".join(_cell(str(v), kind) for v, (_, kind) in zip(row, columns)) + "</tr>")
    # The box scrolls when the table is wider than the screen (a phone, large type): focusable and
    # named, so the keyboard can scroll it too (axe: scrollable-region-focusable).
    return (f"<div class='ae-wt-box' tabindex='0' role='region' aria-label='{escape(label)}'>"
            f"<table class='ae-wt' aria-label='{escape(label)}'>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


def _cls(kind: str, header: bool = False) -> str:
    """Text is set left, figures right; a column's header sits like its cells, and the row
    headers' column is read from the left (page.js's table_html does the same)."""
    return " class='ae-tx'" if kind == "text" or (header and kind == "row") else ""


def _cell(text: str, kind: str) -> str:
    if kind == "row":
        return f"<th scope='row'>{escape(text)}</th>"
    return f"<td{_cls(kind)}>{escape(text)}</td>"
