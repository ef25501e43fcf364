"""AELive.quiet_tooltips (live.js): a hover's tooltip over a heat map, held to what it promises.

BokehJS 3.10 redid all of a tooltip at every pointer move: its element appended to the body again
(which takes a shown popover out of the top layer), showPopover, and three reads of the page's
layout to place it. With the patch a move within one cell changes nothing after the hover tool's
own work, and a move to another cell places the tooltip without taking it out and putting it back.
The test moves a real mouse over the exported masking page's mask and check that the tooltip
says what the hovered cell's `tip` says, stands where BokehJS's own placing puts it, is never
taken out of the page while shown, and still goes and comes back as the pointer leaves and
returns; with BokehJS's own methods put back the same moves take it out and show it again, so
the counts can fail.
"""

from __future__ import annotations

import pytest

from helpers import TWO_FRAMES
from test_masking_browser import CELL, READY, assert_matches_core, read

from app.plates.masking import MaskingState

pytestmark = pytest.mark.browser

# Counts, in the page, what the tooltip's element goes through: showPopover calls, the body's
# children added or removed that are popovers, and the view's placings.
WATCH = r"""() => {
  const T = Bokeh.require('models/ui/tooltip'), V = T.TooltipView.prototype;
  const c = window.__ae_tips = {shown: 0, body: 0, placed: 0};
  const show = HTMLElement.prototype.showPopover;
  HTMLElement.prototype.showPopover = function () { c.shown++; return show.apply(this, arguments); };
  V.__ae_placing = V._reposition;  // what the page places tooltips with (OWN swaps it)
  V._reposition = function () { c.placed++; return V.__ae_placing.apply(this, arguments); };
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of [...r.addedNodes, ...r.removedNodes])
        if (n.nodeType === 1 && n.hasAttribute('popover')) c.body++;
  }).observe(document.body, {childList: true});
  return [typeof T.Tooltip.prototype.__ae_own, typeof V.__ae_own];
}"""
COUNTS = "() => ({...window.__ae_tips})"
# The tooltips in the top layer (at most one): each one's text (a <br> as a space) and box.
SHOWN = r"""() => {
  const open = Array.from(document.querySelectorAll('[popover]')).filter((e) => e.matches(':popover-open'));
  return open.map((e) => {
    const c = e.shadowRoot.querySelector('.bk-tooltip-content'), r = e.getBoundingClientRect();
    return {text: c.innerText.replace(/\s+/g, ' ').trim(), box: [r.left, r.top, r.width, r.height]};
  });
}"""
# What cell (k_{j+1}, q_{i+1}) of the mask says in its tooltip, as text.
TIP = r"""([x, y]) => {
  const d = Bokeh.documents[0].get_model_by_name('mask').data;
  const k = Array.from(d.x).findIndex((v, i) => v === x && d.y[i] === y);
  const e = document.createElement('div');
  e.innerHTML = d.tip[k].replace(/<br>/g, ' ');
  return e.textContent.replace(/\s+/g, ' ').trim();
}"""
OWN = r"""(own) => {
  const T = Bokeh.require('models/ui/tooltip'), M = T.Tooltip.prototype, V = T.TooltipView.prototype;
  if (!window.__ae_ours) window.__ae_ours = [M.show, V.__ae_placing];
  M.show = own ? M.__ae_own : window.__ae_ours[0];
  V.__ae_placing = own ? V.__ae_own : window.__ae_ours[1];
}"""


def test_a_tooltip_stays_in_place_within_a_cell_and_moves_to_the_next_as_bokeh_places_it(new_tab, export_plate):
    tab = new_tab()
    tab.block_network()
    page = tab.page
    page.goto(export_plate("masking").as_uri())
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate(WATCH) == ["function", "function"]  # the patch is on BokehJS's classes
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('mask_plot'))"
                  ".canvas_view.events_el.scrollIntoView({block: 'center'})")

    def cell(i, j):
        return page.evaluate(CELL, ["mask_plot", f"k{j + 1}", f"q{i + 1}"])

    def tip(i, j):
        return page.evaluate(TIP, [f"k{j + 1}", f"q{i + 1}"])

    def shown():
        s = page.evaluate(SHOWN)
        assert len(s) <= 1, s
        return s[0] if s else None

    def hover(x, y):
        page.mouse.move(x, y)
        page.wait_for_function(TWO_FRAMES)

    (x1, y1), (x2, y2) = cell(0, 0), cell(2, 1)
    hover(x1, y1)
    first = shown()
    assert first is not None and first["text"] == tip(0, 0), (first, tip(0, 0))
    before = page.evaluate(COUNTS)

    # Within the cell: the same tooltip at the same place, not taken out, not placed again.
    for dx, dy in [(3, 2), (-4, 3), (2, -4)]:
        hover(x1 + dx, y1 + dy)
        assert shown() == first
    assert page.evaluate(COUNTS) == before

    # To another cell: that cell's text, placed elsewhere, still in the top layer throughout.
    hover(x2, y2)
    second = shown()
    assert second is not None and second["text"] == tip(2, 1) != first["text"]
    assert second["box"][:2] != first["box"][:2]
    after = page.evaluate(COUNTS)
    assert after["shown"] == before["shown"] and after["body"] == before["body"], (before, after)
    assert after["placed"] > before["placed"]

    # BokehJS's own methods, the same moves: the same text at the same box, but the element is
    # taken out and shown again at every move.
    page.evaluate(OWN, True)
    hover(x1, y1)
    hover(x1 + 3, y1 + 2)
    own_before = page.evaluate(COUNTS)
    hover(x2, y2)
    assert shown() == second
    own_after = page.evaluate(COUNTS)
    assert own_after["shown"] > own_before["shown"] and own_after["body"] > own_before["body"], (own_before, own_after)
    hover(x1, y1)
    assert shown() == first

    # Ours again: leaving the figure hides the tooltip; coming back shows it once more.
    page.evaluate(OWN, False)
    hover(x1, y1)
    hover(5, 5)
    assert shown() is None
    back = page.evaluate(COUNTS)
    hover(x2, y2)
    assert shown() == second
    assert page.evaluate(COUNTS)["shown"] == back["shown"] + 1

    assert_matches_core(read(page), MaskingState())
    tab.assert_offline()
    tab.assert_no_errors()
