"""later_positions (app/workarounds/js/later_positions.js): a glyph renderer's empty element is
placed once the page is still, not at every paint.

BokehJS 3.10 rewrites each renderer's position sheet from its glyph's bounds at every paint, and
a sheet that changed makes the next canvas text of that paint wait for a style recalculation.
On the exported lookup page, the tests turn the query (the angle slider's value, set as a drag
sets it) and watch every write that changes a glyph renderer's sheet: with the workaround none
comes during a paint, none while changes keep coming a frame apart, and once the page is still
every renderer is placed where its glyph is; the same page with `?workarounds=later_positions`
writes them during the paints, so the check can fail. The weights are attention_core's.
"""

from __future__ import annotations

import pytest

from helpers import NAMES, READY, read_weights
from workaround_pages import FRAMES, SWITCHED_OFF, open_exported, status

pytestmark = pytest.mark.browser

# Note every write that changes a glyph renderer's position sheet, and whether a figure was
# painting at the time (BokehJS writes them from RendererView.update_position during its paint).
WATCH_POSITIONS = r"""() => {
  const W = window.__ae_pos = {in_paint: 0, after: 0, painting: false};
  const glyphs = Array.from(Bokeh.index.query((v) => v.model.type === "GlyphRenderer"));
  const sheets = new Set(glyphs.map((v) => v.position));
  let p = Object.getPrototypeOf(glyphs[0].position);
  while (p && !Object.prototype.hasOwnProperty.call(p, "_update")) p = Object.getPrototypeOf(p);
  const update = p._update;
  p._update = function (css) {
    if (sheets.has(this) && this.el != null && this.el.textContent !== css) W.painting ? W.in_paint++ : W.after++;
    return update.apply(this, arguments);
  };
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure") continue;
    const v = Bokeh.index.find_one(m), paint = v.paint;
    v.paint = function () { W.painting = true; try { return paint.apply(this, arguments); } finally { W.painting = false; } };
  }
  return glyphs.length;
}"""
GLYPH_RENDERERS = "() => Array.from(Bokeh.index.query((v) => v.model.type === 'GlyphRenderer')).length"

# How many glyph renderers' elements are not where their glyph now is.
MISPLACED = r"""() => Array.from(Bokeh.index.query((v) => v.model.type === "GlyphRenderer" && v.bbox != null && v.bbox.is_valid))
  .filter((v) => !v.position.el.textContent.includes(`left:     ${v.bbox.left}px`) ||
                 !v.position.el.textContent.includes(`top:      ${v.bbox.top}px`)).length"""

SET_ANGLE = "(a) => { Bokeh.documents[0].get_model_by_name('angle').value = a; }"
# A run of changes one frame apart (a drag, a held key): the sheets written meanwhile.
RUN = r"""async (angles) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const before = window.__ae_pos.after + window.__ae_pos.in_paint;
  for (const a of angles) {
    Bokeh.documents[0].get_model_by_name('angle').value = a;
    await frame();
  }
  return window.__ae_pos.after + window.__ae_pos.in_paint - before;
}"""


def weights_for(angle: float) -> list[float]:
    from app.plates.lookup.state import LookupState

    return list(LookupState(angle=angle).steps().weight)


def open_lookup(new_tab, exported_file, off: str | None = None):
    tab, page = open_exported(new_tab, exported_file, READY, off, arg=list(NAMES), polling="raf")
    return tab, page, status(page, "later_positions")["later_positions"]


def test_glyph_renderers_are_placed_after_the_paint_not_during_it(new_tab, exported_file):
    """Turning the query moves glyphs: their renderers' sheets are rewritten after the figures
    have painted, never during a paint, and not at all while changes come a frame apart; once
    the page is still every renderer is placed where its glyph is, each written once."""
    tab, page, said = open_lookup(new_tab, exported_file)
    assert said == "on"
    assert page.evaluate(WATCH_POSITIONS) >= 8
    for angle in (10, 55, 100, 145):
        page.evaluate(SET_ANGLE, angle)
        page.evaluate(FRAMES)
        page.wait_for_function(f"() => ({MISPLACED})() === 0")
    moved = page.evaluate("() => window.__ae_pos")
    assert moved["in_paint"] == 0, moved
    assert moved["after"] >= 4, moved  # the query's glyphs did move, and were placed
    during = page.evaluate(RUN, [150, 155, 160, 165, 170, 175])
    assert during == 0, during
    page.wait_for_function(f"() => ({MISPLACED})() === 0")
    burst = page.evaluate("() => window.__ae_pos")["after"] - moved["after"]
    assert 1 <= burst <= page.evaluate(GLYPH_RENDERERS), burst
    assert page.evaluate("() => window.__ae_pos.in_paint") == 0
    assert read_weights(page) == pytest.approx(weights_for(175), abs=1e-9)
    tab.assert_offline()
    tab.assert_no_errors()


def test_without_it_the_sheets_are_written_during_the_paints(new_tab, exported_file):
    """The same page with later_positions switched off: the sheets are written inside the paints,
    at each change of a run, so the test above can fail; the renderers end placed as well."""
    tab, page, said = open_lookup(new_tab, exported_file, "later_positions")
    assert said == SWITCHED_OFF
    assert page.evaluate(WATCH_POSITIONS) >= 8
    during = page.evaluate(RUN, [150, 155, 160, 165, 170, 175])
    w = page.evaluate("() => window.__ae_pos")
    assert during >= 6 and w["in_paint"] == during and w["after"] == 0, w
    page.evaluate(FRAMES)
    assert page.evaluate(MISPLACED) == 0
    assert read_weights(page) == pytest.approx(weights_for(175), abs=1e-9)
    tab.assert_offline()
    tab.assert_no_errors()
