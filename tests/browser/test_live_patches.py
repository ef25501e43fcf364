"""The live path's ways round BokehJS's repeated work, held to what they promise.

They lean on BokehJS internals and are guarded (a BokehJS that changed shape is left alone), so
without a test a new Bokeh could silently undo them:
- AELive.coalesce_updates (live.js): one change of n on the masking page recomputes each glyph
  renderer once, not four or five times;
- AEPage.one_layout (page.js), used by multi_head.js: a new n resizes four figures and the page
  is laid out once, not four times.
Either way the numbers on screen are still attention_core's.
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


def open_exported(new_tab, export_plate, slug: str, ready: str):
    """The plate's exported file in a tab with the network cut off, once `ready` holds."""
    tab = new_tab()
    tab.block_network()
    tab.page.goto(export_plate(slug).as_uri())
    tab.page.wait_for_function(ready, timeout=60_000)
    return tab, tab.page


def test_one_change_of_n_recomputes_each_renderer_once(new_tab, export_plate):
    from app.plates.masking import MaskingState

    tab, page = open_exported(new_tab, export_plate, "masking", READY)
    renderers = page.evaluate(COUNT)
    assert renderers >= 10, renderers
    # page.js patched the class every glyph renderer's view shares (a flag on its prototype), and
    # the style sheets' class (AELive.quiet_styles).
    assert page.evaluate("""() => Array.from(Bokeh.index.query((v) => v.glyph != null && v.update_data != null))
        .every((r) => r.__ae_coalesced === true && r.position.__ae_quiet === true)""") is True

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


# Count the whole-page layouts: compute_layout on every layout root.
COUNT_LAYOUTS = r"""() => {
  window.__ae_layouts = 0;
  const roots = Array.from(Bokeh.index.query((v) => v.is_layout_root === true && typeof v.compute_layout === "function"));
  for (const v of roots) {
    const own = v.compute_layout;
    v.compute_layout = function () { window.__ae_layouts += 1; return own.apply(this, arguments); };
  }
  return roots.length;
}"""


def test_one_change_of_n_lays_the_multi_head_page_out_once(new_tab, export_plate):
    """A new n resizes four figures; AEPage.one_layout makes that one layout, not one per figure."""
    from test_multi_head_browser import READY as MH_READY
    from test_multi_head_browser import assert_matches_core as mh_matches_core
    from test_multi_head_browser import read as mh_read

    tab, page = open_exported(new_tab, export_plate, "multi-head", MH_READY)
    st = mh_read(page)
    d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
    sizes = page.evaluate("""() => ['head_maps', 'concat_map', 'w_o_map', 'output_map'].map((k) => {
        const m = Bokeh.documents[0].get_model_by_name(k); return [m.frame_width, m.frame_height]; })""")
    assert page.evaluate(COUNT_LAYOUTS) >= 1
    page.evaluate("(n) => { Bokeh.documents[0].get_model_by_name('n').value = n; }", n + 1)
    page.wait_for_function("""(n) => Bokeh.documents[0].get_model_by_name('setting').data.n[0] === n &&
        new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))""", arg=n + 1)
    after = page.evaluate("""() => ['head_maps', 'concat_map', 'w_o_map', 'output_map'].map((k) => {
        const m = Bokeh.documents[0].get_model_by_name(k); return [m.frame_width, m.frame_height]; })""")
    assert sum(a != b for a, b in zip(sizes, after)) >= 3, (sizes, after)  # the figures did change size
    assert page.evaluate("() => window.__ae_layouts") == 1
    mh_matches_core(mh_read(page), d_model, h, n + 1)
    tab.assert_offline()
    tab.assert_no_errors()


# Count the text measurements (TextBox.size, on the class every label shares) and the labels.
COUNT_MEASURES = r"""() => {
  const texts = [];
  for (const m of Bokeh.documents[0].all_models) {
    const v = Bokeh.index.find_one(m);
    if (!v || !v.renderer_views) continue;
    for (const r of v.renderer_views.values()) if (r.glyph && r.glyph.model.type === "Text") texts.push(r);
  }
  const label = texts.map((r) => (r.glyph.labels || []).find((l) => l != null)).find((l) => l != null);
  let proto = Object.getPrototypeOf(label);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, "size")) proto = Object.getPrototypeOf(proto);
  const size = proto.size;
  window.__ae_measures = 0;
  proto.size = function () { window.__ae_measures += 1; return size.apply(this, arguments); };
  window.__ae_texts = texts;
  return texts.length;
}"""

LABELS_NOW = r"""() => window.__ae_texts.reduce((n, r) => n + r.glyph.labels.filter((l) => l != null).length, 0)"""


def test_a_text_glyphs_unseen_copies_do_not_measure_its_labels(new_tab, export_plate):
    """After a change of n each label is measured once for the glyph, not again in its four
    never-drawn copies (AELive.lazy_text_copies); the numbers drawn are still attention_core's."""
    from app.plates.masking import MaskingState

    tab, page = open_exported(new_tab, export_plate, "masking", READY)
    assert page.evaluate(COUNT_MEASURES) >= 5
    assert page.evaluate("() => window.__ae_texts.every((r) => r.glyph.__ae_lazy === true)") is True  # set by page.js
    page.evaluate("() => { Bokeh.documents[0].get_model_by_name('n').value = 7; }")
    page.wait_for_function(SETTLED, arg=7, timeout=30_000)
    measures, labels = page.evaluate("() => window.__ae_measures"), page.evaluate(LABELS_NOW)
    assert labels >= 5 * 49
    # Each label: once in after_visuals, and what painting it takes (the copies would add 4).
    assert measures <= 3 * labels, (measures, labels)
    stale = page.evaluate("""() => window.__ae_texts.map((r) => [r.glyph.__ae_stale === true,
        [r.selection_glyph, r.nonselection_glyph, r.muted_glyph, r.decimated_glyph].every((g) => g.__ae_stale === true)])""")
    assert all(s == [False, True] for s in stale), stale
    assert_matches_core(read(page), MaskingState(n=7))
    tab.assert_offline()
    tab.assert_no_errors()
