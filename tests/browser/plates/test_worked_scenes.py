"""The worked plate on a projector (issue 55, §3): what a lecturer saw with present=1 at 1280×720
and 1366×768, held in the present pages and the slide frame that show its scenes.

- The table's "e^scaled" column header sits on its column: its text ends where its cells' text
  ends, and each of its lines sits on a line of the header row (the superscript, which present
  mode sets at full size, floated between them).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# The page is laid out for its room: a scene's fit has settled; a present page without scenes has
# made room for its larger type; a frame without scenes has been fitted.
SETTLED = r"""() => {
  if (!window.AEPage || !window.Bokeh || !Bokeh.documents.length || !Bokeh.documents[0].is_idle) return false;
  const p = new URLSearchParams(location.search);
  if (window.AEScenes && AEScenes.current()) return !!(AEPage.fit_state && AEPage.fit_state.settled);
  if (p.get("embed") === "1") return !!(AEPage.fit_state && AEPage.fit_state.settled);
  return p.get("present") !== "1" || AEPage.present_fitted === true;
}"""


def open_room(new_tab, exports, size, settings):
    w, h = size
    tab = new_tab(viewport={"width": w, "height": h})
    tab.page.goto((exports("on") / "worked.html").as_uri() + ("?" + settings if settings else ""))
    tab.page.wait_for_function(SETTLED, timeout=30_000)
    return tab


# The worked table's header row: for each header, its text's lines (one box per line, through
# its text nodes) and the boxes of its column's cell texts, with the column's alignment.
TABLE_HEAD = r"""() => {
  let table = null;
  const walk = (root) => { for (const el of root.querySelectorAll("*")) {
    if (el.shadowRoot) walk(el.shadowRoot);
    if (el.classList && el.classList.contains("wk-table")) table = el; } };
  walk(document);
  const lines = (el) => {
    const out = [], w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      if (!n.textContent.trim()) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      for (const b of r.getClientRects()) if (b.width > 0) out.push([b.left, b.top, b.right, b.bottom]);
    }
    return out;
  };
  const rows = [...table.querySelectorAll("tbody tr")];
  return [...table.querySelectorAll("thead th")].map((th, i) => ({
    head: th.textContent, lines: lines(th), align: getComputedStyle(th).textAlign, two_lines: !!th.querySelector("br"),
    cells: rows.map((r) => r.children[i]).filter((c) => c && c.textContent.trim()).map((c) => lines(c)).flat()}));
}"""
HEAD_ROOMS = [("page-1280", (1280, 720), ""), ("present-1280", (1280, 720), "present=1&scene=steps"),
              ("slide-960", (960, 540), "embed=1&present=1&scene=steps")]


@pytest.mark.parametrize("room", HEAD_ROOMS, ids=[r[0] for r in HEAD_ROOMS])
def test_the_tables_headers_sit_on_their_columns(new_tab, exports, room):
    name, size, settings = room
    tab = open_room(new_tab, exports, size, settings)
    heads = tab.page.evaluate(TABLE_HEAD)
    assert any("scaled" in h["head"] and h["head"].startswith("e") for h in heads), [h["head"] for h in heads]
    # The header row's lines: where the lines of the headers written on two lines end.
    bottoms = sorted({round(b[3], 1) for h in heads if h["two_lines"] for b in h["lines"]})
    assert len(bottoms) >= 2, heads
    problems = []
    for h in heads:
        ends = [b[2] for b in h["lines"]] if h["align"] == "right" else [b[0] for b in h["lines"]]
        cell_ends = [b[2] for b in h["cells"]] if h["align"] == "right" else [b[0] for b in h["cells"]]
        edge = max(ends) if h["align"] == "right" else min(ends)
        if cell_ends and abs(edge - (max(cell_ends) if h["align"] == "right" else min(cell_ends))) > 1.5:
            problems.append(f"'{h['head']}' ends at {edge:.1f}, its cells at {cell_ends}")
        off = [round(b[3], 1) for b in h["lines"] if min(abs(b[3] - y) for y in bottoms) > 1.5]
        if off:
            problems.append(f"'{h['head']}' has text on no line of the header row: bottoms {off}, the lines' {bottoms}")
    assert not problems, f"{name}: " + "\n".join(problems)
    tab.assert_no_errors()
