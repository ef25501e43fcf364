"""AELive's patches of BokehJS internals (app/static/live.js), held to what they promise.

They are guarded (a BokehJS that changed shape is left alone), so without a test a new Bokeh
could silently undo them. AELive.coalesce_updates: one change of n on the masking page starts
one recomputation per glyph renderer, not three or four, and the numbers on screen are still
attention_core's.
"""

from __future__ import annotations

import pytest

from test_masking_browser import READY, assert_matches_core, read

pytestmark = pytest.mark.browser

# Count, per glyph renderer view, how often it recomputes its glyphs and visuals.
COUNT = r"""() => {
  const counts = [];
  for (const m of Bokeh.documents[0].all_models) {
    const v = Bokeh.index.find_one(m);
    if (!v || !v.renderer_views) continue;
    for (const r of v.renderer_views.values()) {
      if (!r.glyph || typeof r.set_data !== "function") continue;
      const c = {glyph: r.glyph.model.type, set_data: 0, set_visuals: 0};
      counts.push(c);
      // The glyph's own methods: what runs when the renderer really recomputes.
      const g = r.glyph, sd = g.set_data, sv = g.set_visuals;
      g.set_data = function () { c.set_data += 1; return sd.apply(this, arguments); };
      g.set_visuals = function () { c.set_visuals += 1; return sv.apply(this, arguments); };
    }
  }
  window.__ae_counts = counts;
  return counts.length;
}"""

SETTLED = r"""(n) => {
  const d = Bokeh.documents[0];
  if (d.get_model_by_name("weights").data.value.length !== n * n) return false;
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
}"""


def test_one_change_of_n_recomputes_each_renderer_once(new_tab, export_plate):
    from app.plates.masking import MaskingState

    tab = new_tab()
    tab.block_network()
    page = tab.page
    page.goto(export_plate("masking").as_uri())
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("() => AELive.coalesce_updates(Bokeh.documents[0])") is True  # patched (again: a no-op)
    renderers = page.evaluate(COUNT)
    assert renderers >= 10, renderers

    page.evaluate("() => { Bokeh.documents[0].get_model_by_name('n').value = 6; }")
    page.wait_for_function(SETTLED, arg=6, timeout=30_000)
    counts = page.evaluate("() => window.__ae_counts")
    moved = [c for c in counts if c["set_data"]]
    texts = [c for c in moved if c["glyph"] == "Text"]
    assert len(moved) >= 10 and len(texts) >= 5, counts  # the maps and their printed numbers all changed
    assert all(c["set_data"] == 1 for c in moved), counts
    # set_visuals: once inside set_data, and not again for the view's new `masked` indices.
    assert all(c["set_visuals"] == 1 for c in moved), counts
    assert_matches_core(read(page), MaskingState(n=6))
    tab.assert_offline()
    tab.assert_no_errors()
