"""app/shared/html_table.py: the visible tables' HTML, and page.js's AEPage.table_html writing the same."""

from __future__ import annotations

from app.runtime.scripts import js_file

import json
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from app.shared.html_table import KINDS, table_html
from node_mirror import node_path  # tests/core (on the path: tests/conftest.py)

pytestmark = pytest.mark.node

PAGE_JS = js_file("page.js")

NODE = r"""
const T = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => {
  try { return {ok: T.table_html(c.label, c.columns, c.rows)}; } catch (e) { return {error: String(e.message)}; }
})));
"""

# Cells a plate writes (minus signs, −∞, ✓, ×, √) and ones that must be escaped.
WORDS = ["0.665", "−∞", "−0.38", "✓", "✗", "3 × 8 × 8", "√4 = 2", "1,048,576 = 4·512²", "", "k1",
         "<b>", "a & b", "it's", 'say "hi"', "1 < 2 > 0", "&amp;", "Σ weights"]


def cases(count: int) -> list[dict]:
    rng = np.random.default_rng(5)
    out = []
    for _ in range(count):
        kinds = [KINDS[int(rng.integers(3))] for _ in range(int(rng.integers(1, 6)))]
        columns = [[WORDS[int(rng.integers(len(WORDS)))], k] for k in kinds]
        rows = [[WORDS[int(rng.integers(len(WORDS)))] for _ in kinds] for _ in range(int(rng.integers(0, 5)))]
        out.append({"label": WORDS[int(rng.integers(len(WORDS)))], "columns": columns, "rows": rows})
    return out


def test_page_js_writes_the_same_table_as_python():
    """Same arguments, same string, character for character, in 300 random tables."""
    node = node_path()
    cs = cases(300)
    proc = subprocess.run([node, "-e", NODE, str(PAGE_JS)], input=json.dumps(cs), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert len(got) == len(cs)
    for c, js in zip(cs, got):
        assert js == {"ok": table_html(c["label"], [tuple(x) for x in c["columns"]], c["rows"])}, c


def test_both_refuse_a_bad_kind_or_a_short_row_with_a_clear_message():
    node = node_path()
    bad = [{"label": "t", "columns": [["a", "num"], ["b", "bold"]], "rows": []},
           {"label": "t", "columns": [["a", "num"], ["b", "text"]], "rows": [["1"]]}]
    with pytest.raises(ValueError, match="kind is one of .* got 'bold'"):
        table_html("t", [("a", "num"), ("b", "bold")], [])
    with pytest.raises(ValueError, match="a row has 1 cells for 2 columns"):
        table_html("t", [("a", "num"), ("b", "text")], [["1"]])
    proc = subprocess.run([node, "-e", NODE, str(PAGE_JS)], input=json.dumps(bad), capture_output=True, text=True,
                          timeout=60)
    got = json.loads(proc.stdout)
    assert "got bold" in got[0]["error"] and "a row has 1 cells for 2 columns" in got[1]["error"]


class Cells(HTMLParser):
    """The table as a screen reader walks it: (tag, scope, class, text) for every cell."""

    def __init__(self):
        super().__init__()
        self.cells, self.open, self.label = [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.label = a.get("aria-label")
        if tag in ("th", "td"):
            self.open = [tag, a.get("scope"), a.get("class"), ""]

    def handle_data(self, data):
        if self.open is not None:
            self.open[3] += data

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.open is not None:
            self.cells.append(tuple(self.open))
            self.open = None


def test_the_table_reads_as_headers_and_cells_with_the_text_unchanged():
    html = table_html("Parameters <per head>", [("matrix", "row"), ("shape", "num"), ("note", "text")],
                      [["W_Q", "8 × 4", "a & b"], ["W_O", "8 × 8", "<i>not markup</i>"]])
    # The box around it scrolls on a narrow screen; the keyboard can reach it, and it is named.
    assert html.startswith("<div class='ae-wt-box' tabindex='0' role='region' aria-label='Parameters &lt;per head&gt;'>")
    p = Cells()
    p.feed(html)
    assert p.label == "Parameters <per head>"
    assert p.cells == [
        ("th", "col", "ae-tx", "matrix"), ("th", "col", None, "shape"), ("th", "col", "ae-tx", "note"),
        ("th", "row", None, "W_Q"), ("td", None, None, "8 × 4"), ("td", None, "ae-tx", "a & b"),
        ("th", "row", None, "W_O"), ("td", None, None, "8 × 8"), ("td", None, "ae-tx", "<i>not markup</i>"),
    ]
