"""quiet_tooltips (app/workarounds/js/quiet_tooltips.js): a hover's tooltip over a heat map, held
to what it promises.

BokehJS 3.10 redid all of a tooltip at every pointer move: its element appended to the body again
(which takes a shown popover out of the top layer), showPopover, and three reads of the page's
layout to place it. With the workaround a move within one cell changes nothing after the hover
tool's own work, and a move to another cell places the tooltip without taking it out and putting
it back. The test moves a real mouse over the exported masking page's mask and checks that the
tooltip says what the hovered cell's `tip` says, stands where BokehJS places it (the same page
opened with `?workarounds=quiet_tooltips`), is never taken out of the page while shown, and
still goes and comes back as the pointer leaves and returns; on the page without it the same
moves take it out and show it again, so the counts can fail.
"""

from __future__ import annotations

import pytest

from helpers import TWO_FRAMES
from plates.test_masking_browser import CELL, READY, assert_matches_core, read
from workaround_pages import SWITCHED_OFF, open_exported, status

from app.plates.masking import MaskingState

pytestmark = pytest.mark.browser

# Counts, in the page, what the tooltip's element goes through: showPopover calls, the body's
# children added or removed that are popovers, and the view's placings.
WATCH = r"""() => {
  const V = Bokeh.require('models/ui/tooltip').TooltipView.prototype, place = V._reposition;
  const c = window.__ae_tips = {shown: 0, body: 0, placed: 0};
  const show = HTMLElement.prototype.showPopover;
  HTMLElement.prototype.showPopover = function () { c.shown++; return show.apply(this, arguments); };
  V._reposition = function () { c.placed++; return place.apply(this, arguments); };
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of [...r.addedNodes, ...r.removedNodes])
        if (n.nodeType === 1 && n.hasAttribute('popover')) c.body++;
  }).observe(document.body, {childList: true});
  Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('mask_plot')).canvas_view.events_el
    .scrollIntoView({block: 'center'});
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


class Mask:
    """The exported masking page's mask, hovered with a real mouse."""

    def __init__(self, new_tab, path, off=None):
        self.tab, self.page = open_exported(new_tab, path, READY, off)
        self.said = status(self.page, "quiet_tooltips")["quiet_tooltips"]
        self.page.evaluate(WATCH)

    def cell(self, i, j):
        return tuple(self.page.evaluate(CELL, ["mask_plot", f"k{j + 1}", f"q{i + 1}"]))

    def tip(self, i, j):
        return self.page.evaluate(TIP, [f"k{j + 1}", f"q{i + 1}"])

    def hover(self, x, y):
        self.page.mouse.move(x, y)
        self.page.wait_for_function(TWO_FRAMES)

    def shown(self):
        s = self.page.evaluate(SHOWN)
        assert len(s) <= 1, s
        return s[0] if s else None

    def counts(self):
        return self.page.evaluate(COUNTS)


def test_a_tooltip_stays_in_place_within_a_cell_and_moves_to_the_next_as_bokeh_places_it(new_tab, export_plate):
    path = export_plate("masking")
    ours = Mask(new_tab, path)
    assert ours.said == "on"
    (x1, y1), (x2, y2) = ours.cell(0, 0), ours.cell(2, 1)
    ours.hover(x1, y1)
    first = ours.shown()
    assert first is not None and first["text"] == ours.tip(0, 0), (first, ours.tip(0, 0))
    before = ours.counts()

    # Within the cell: the same tooltip at the same place, not taken out, not placed again.
    for dx, dy in [(3, 2), (-4, 3), (2, -4)]:
        ours.hover(x1 + dx, y1 + dy)
        assert ours.shown() == first
    assert ours.counts() == before

    # To another cell: that cell's text, placed elsewhere, still in the top layer throughout.
    ours.hover(x2, y2)
    second = ours.shown()
    assert second is not None and second["text"] == ours.tip(2, 1) != first["text"]
    assert second["box"][:2] != first["box"][:2]
    after = ours.counts()
    assert after["shown"] == before["shown"] and after["body"] == before["body"], (before, after)
    assert after["placed"] > before["placed"]

    # Leaving the figure hides the tooltip; coming back shows it once more.
    ours.hover(5, 5)
    assert ours.shown() is None
    back = ours.counts()
    ours.hover(x2, y2)
    assert ours.shown() == second
    assert ours.counts()["shown"] == back["shown"] + 1
    assert_matches_core(read(ours.page), MaskingState())

    # BokehJS's own (the workaround switched off), the same moves: the same texts at the same
    # boxes, but the element is taken out and shown again at every move to another cell.
    own = Mask(new_tab, path, "quiet_tooltips")
    assert own.said == SWITCHED_OFF
    assert (own.cell(0, 0), own.cell(2, 1)) == ((x1, y1), (x2, y2))
    own.hover(x1, y1)
    own.hover(x1 + 3, y1 + 2)
    assert own.shown() == first
    own_before = own.counts()
    own.hover(x2, y2)
    assert own.shown() == second
    own_after = own.counts()
    assert own_after["shown"] > own_before["shown"] and own_after["body"] > own_before["body"], (own_before, own_after)
    for m in (ours, own):
        m.tab.assert_offline()
        m.tab.assert_no_errors()
