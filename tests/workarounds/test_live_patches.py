"""The live path's ways round BokehJS's repeated work, held to what they promise.

They lean on BokehJS internals and are guarded (a BokehJS that changed shape is left alone), so
without a test a new Bokeh could silently undo them:
- AELive.coalesce_updates (live.js): one change of n on the masking page recomputes each glyph
  renderer once, not four or five times;
- AEPage.one_layout (page.js), used by multi_head.js: a new n or h resizes three or four figures,
  and in the next frame just those are laid out, each drawn once, with no layout of the whole
  page, and they end where a layout of the whole page puts them;
- AELive.axes_on_change: a change that moves no range or axis measures no axis, and one that
  widens an axis's labels still lays its figure out again;
- AELive.index_when_asked: after a change of n no glyph builds its spatial index; a hover builds
  the hovered figure's, which finds the cells BokehJS's own index finds, and shows the new cell;
- AELive.axes_once: a change of n on the self-attention page measures each axis once per repaint
  of its figure (BokehJS 3.10 measured it two or three times), and the figures are laid out and
  drawn to the boxes and pixels BokehJS gives them measuring every time;
- AELive.quick_marker_masks: a scatter's mask builds no Range1d and keeps the markers BokehJS's
  own arithmetic keeps;
- AELive.quiet_slider_echo: a step made on a slider's handle does not rebuild the handle, a
  value set from elsewhere moves it without rebuilding it, and a new range still rebuilds it;
- AELive.later_positions: the glyph renderers' position sheets are written after a paint, not
  during it, not at all during a run of changes, and end where the glyphs are;
- AELive.raw_moves: a drag's move is handed to BokehJS's gesture when it arrives
  (pointerrawupdate), whether the class was patched early or page.js patched the figures, once
  per move and at most twice a frame; without the event every move goes at its frame as before;
- AELive.unset_css_values: a change of n on the multi-head page asks the browser for no `--bk-`
  CSS value and draws the pixels BokehJS draws when it asks; a page that sets one keeps asking;
- AELive.lazy_copies: a renderer's copies of its glyph (selected, unselected, muted, decimated
  looks) are not recomputed while nothing draws them, and once something is selected they are
  caught up and drawn as BokehJS draws them;
- AELive.hidden_figures_wait: a hidden figure's renderers and layout wait while it is hidden,
  and once shown it draws what a page opened in that state draws;
- AELive.quick_text: every one-line label of a Text glyph is drawn without BokehJS's TextBox,
  to the pixels BokehJS draws; a glyph with a background goes BokehJS's way, to the same pixels;
- AELive.early (exported pages): those patches are on BokehJS's classes before the document is
  built, so its first build brings no copy up to date and asks no `--bk-` question, and draws
  the pixels of the same page with them put on later;
- AELive.sends_later (served): a key's changes go to Python in one message after the frame that
  shows them starts, not in a message each inside the key's task, and Python still takes them;
- AELive.quiet_equal_data (served): Python's answer to a change the page has already drawn
  recomputes no glyph when it is equal or differs only in the floats' last bits (a source, a
  range's ends) or re-sends a glyph's font size unchanged, and the page then holds Python's
  numbers exactly.
Either way the numbers on screen are still attention_core's.
"""

from __future__ import annotations

import pytest

from helpers import COUNT_DRAWS
from helpers import assert_matches_core as assert_lookup_matches_core
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
      const c = {glyph: r.glyph.model.type, src: r.model.data_source.name, set_data: 0, set_visuals: 0};
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


# Every layout view's box and every figure's frame, by model id.
BOXES = r"""() => {
  const out = {};
  for (const v of Bokeh.index.query((v) => typeof v.compute_layout === "function")) {
    const b = v.bbox, f = v.frame && v.frame.bbox;
    out[v.model.id] = [b.left, b.top, b.width, b.height].concat(f ? [f.left, f.top, f.width, f.height] : []);
  }
  return out;
}"""

# The whole page laid out again, as BokehJS does it (every root's invalidate_layout), then two frames.
FULL_LAYOUT = r"""() => {
  for (const v of Bokeh.index.query((v) => v.is_layout_root === true)) v.invalidate_layout();
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
}"""

FIGURES = ['head_maps', 'concat_map', 'w_o_map', 'output_map']


@pytest.mark.parametrize("change", ["n", "d_model"])
def test_a_change_of_n_or_width_lays_out_only_the_resized_figures(new_tab, export_plate, change):
    """A new d_model resizes three figures of four; AEPage.one_layout lays out just those, in the
    next frame, without a layout of the whole page, and draws each resized one once. A new n
    resizes none (the figures keep N_MAX tokens' room), so nothing on the page moves, and the three
    figures whose numbers changed are drawn once each (W_O, which n leaves as it is, not at all). A
    whole-page layout afterwards then moves no box and changes no pixel: the figures' own layout
    put everything where BokehJS would."""
    from test_multi_head_browser import READY as MH_READY
    from test_multi_head_browser import TAG as MH_TAG
    from test_multi_head_browser import assert_matches_core as mh_matches_core
    from test_multi_head_browser import read as mh_read

    tab, page = open_exported(new_tab, export_plate, "multi-head", MH_READY)
    page.set_viewport_size({"width": 1280, "height": 2000})
    st = mh_read(page)
    d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
    sizes = page.evaluate("""(ks) => ks.map((k) => {
        const m = Bokeh.documents[0].get_model_by_name(k); return [m.frame_width, m.frame_height]; })""", FIGURES)
    assert page.evaluate(COUNT_LAYOUTS) >= 1
    boxes_before, height_before = page.evaluate(BOXES), page.evaluate("() => document.body.scrollHeight")
    page.evaluate(COUNT_DRAWS, FIGURES)
    if change == "n":
        handle = page.locator(".noUi-handle").first
        handle.focus()
        page.keyboard.press("ArrowRight")  # a real key on the n slider
        n += 1
        handle.evaluate("(e) => e.blur()")  # no focus ring in the pictures below
    else:
        page.evaluate(MH_TAG, ["d_model"])
        d_model = 16 if d_model != 16 else 8
        page.locator("[data-ae-name=d_model] select").select_option(str(d_model))
        page.locator("[data-ae-name=d_model] select").evaluate("(e) => e.blur()")
    page.wait_for_function("""([d, h, n]) => { const s = Bokeh.documents[0].get_model_by_name('setting').data;
        return s.d_model[0] === d && s.n[0] === n && s.h[0] === h &&
          new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))); }""", arg=[d_model, h, n])
    after = page.evaluate("""(ks) => ks.map((k) => {
        const m = Bokeh.documents[0].get_model_by_name(k); return [m.frame_width, m.frame_height]; })""", FIGURES)
    resized = [k for k, a, b in zip(FIGURES, sizes, after) if a != b]
    assert page.evaluate("() => window.__ae_layouts") == 0  # no whole-page layout, not even from a ResizeObserver
    draws = page.evaluate("() => window.__ae_draws")
    if change == "n":
        assert resized == [], (sizes, after)
        assert page.evaluate(BOXES) == boxes_before  # nothing moved
        assert page.evaluate("() => document.body.scrollHeight") == height_before
        assert draws == {"head_maps": 1, "concat_map": 1, "w_o_map": 0, "output_map": 1}, draws
    else:
        assert len(resized) >= 3, (sizes, after)  # the figures did change size
        assert all(draws[k] == 1 for k in resized) and max(draws.values()) == 1, draws
    mh_matches_core(mh_read(page), d_model, h, n)
    boxes, picture = page.evaluate(BOXES), page.screenshot(full_page=True)
    page.evaluate(FULL_LAYOUT)
    assert page.evaluate("() => window.__ae_layouts") >= 1
    assert page.evaluate(BOXES) == boxes
    assert page.screenshot(full_page=True) == picture
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


# Count every axis's "has your size changed?" (SideLayout.has_size_changed, wrapped on the class
# every side panel's layout shares), and list the axes whose box no longer fits what they show.
WATCH_AXES = r"""() => {
  const figs = [];
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure") continue;
    const v = Bokeh.index.find_one(m);
    if (v) figs.push(v);
  }
  const layout = figs.flatMap((v) => v.model.side_panels.map((p) => v.renderer_views.get(p).layout))[0];
  let proto = Object.getPrototypeOf(layout);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, "has_size_changed")) proto = Object.getPrototypeOf(proto);
  const asked = proto.has_size_changed;
  window.__ae_axes = {figs, asked, n: 0};
  proto.has_size_changed = function () { window.__ae_axes.n += 1; return asked.apply(this, arguments); };
  return figs.filter((v) => v.__ae_axes === true).length;
}"""

STALE_AXES = r"""() => window.__ae_axes.figs.flatMap((v) => v.model.side_panels.map((p) => {
  const l = v.renderer_views.get(p).layout;
  if (l.bbox.width === 0 && l.bbox.height === 0) return null;  // a figure not on show
  return window.__ae_axes.asked.call(l) ? `${v.model.name}: ${p.type} ${l.bbox.width}x${l.bbox.height}` : null;
})).filter((x) => x != null)"""

AXIS_WIDTH = "(name) => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name)); " \
             "return v.model.left.map((p) => v.renderer_views.get(p).layout.bbox.width); }"

FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


def test_a_slider_that_moves_only_data_does_not_measure_the_axes(new_tab, export_plate):
    """AELive.axes_on_change: turning the lookup's query changes bars, arrows and labels but no
    range or axis, so no axis is asked for its size; the weights are still attention_core's."""
    from app.plates.lookup.state import LookupState

    from helpers import NAMES
    from helpers import READY as LOOKUP_READY

    tab = new_tab()
    tab.block_network()
    page = tab.page
    page.goto(export_plate("lookup").as_uri())
    page.wait_for_function(LOOKUP_READY, arg=list(NAMES), timeout=60_000, polling="raf")
    assert page.evaluate(WATCH_AXES) == 3  # every figure of the page is patched (by page.js)
    page.evaluate(FRAMES)
    page.evaluate("() => { window.__ae_axes.n = 0; }")
    seen = []
    for angle in (10, 55, 100, 145, 190, 235):
        page.evaluate("(a) => { Bokeh.documents[0].get_model_by_name('angle').value = a; }", angle)
        page.wait_for_function("(a) => Bokeh.documents[0].get_model_by_name('query').data.x.length > 0 && "
                               "Bokeh.documents[0].get_model_by_name('angle').value === a", arg=angle)
        page.evaluate(FRAMES)
        seen.append(page.evaluate("() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.weight)"))
    assert page.evaluate("() => window.__ae_axes.n") == 0
    assert page.evaluate(STALE_AXES) == []
    for angle, weights in zip((10, 55, 100, 145, 190, 235), seen):
        expected = LookupState(angle=angle).steps().weight
        assert weights == pytest.approx(list(expected), abs=1e-9), angle
    tab.assert_offline()
    tab.assert_no_errors()


def test_an_axis_whose_labels_widen_is_laid_out_again(new_tab, export_plate):
    """The other half of AELive.axes_on_change: a new range (d_k from 1,024 to 1 on the scaling
    plate) widens the histogram's count axis, and the figure is laid out for it: no axis on show
    is left with a box that no longer fits its labels."""
    from test_scaling_served import READY as SCALING_READY

    tab, page = open_exported(new_tab, export_plate, "scaling", SCALING_READY)
    assert page.evaluate(WATCH_AXES) >= 4
    page.evaluate("() => { Bokeh.documents[0].get_model_by_name('d_k').value = 10; }")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('histogram').data.count.length > 0")
    page.evaluate(FRAMES)
    before = page.evaluate(AXIS_WIDTH, "histogram_plot")
    page.evaluate("() => { window.__ae_axes.n = 0; }")
    for step in (0, 5, 1, 10, 0):
        page.evaluate("(s) => { Bokeh.documents[0].get_model_by_name('d_k').value = s; }", step)
        page.evaluate(FRAMES)
        assert page.evaluate(STALE_AXES) == [], step
    assert page.evaluate("() => window.__ae_axes.n") > 0
    after = page.evaluate(AXIS_WIDTH, "histogram_plot")
    assert after != before, (before, after)  # the case this test is about did happen
    tab.assert_offline()
    tab.assert_no_errors()


# Count Range1d.widen calls on every figure's frame targets (BokehJS's own scatter masks widen
# them, each call building a new Range1d model), and compare each scatter's mask with the one
# BokehJS's arithmetic gives (widen, map to data space, then the spatial-index query).
WATCH_WIDEN = r"""() => {
  window.__ae_widen = {n: 0};
  let figures = 0;
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure") continue;
    const f = Bokeh.index.find_one(m).frame;
    for (const r of [f.x_target, f.y_target]) {
      const widen = r.widen;
      r.widen = function () { window.__ae_widen.n += 1; return widen.apply(this, arguments); };
    }
    figures += 1;
  }
  return figures;
}"""

MASKS = r"""() => {
  const out = [];
  Bokeh.index.query((v) => v.glyph != null && v.glyph.model.type === "Scatter").forEach((rv) => {
    const g = rv.glyph, f = rv.plot_view.frame;
    const widen = (r, by) => Object.getPrototypeOf(r).widen.call(r, by);  // the model's own, uncounted
    const h = widen(f.x_target, g.max_size).map((x) => rv.xscale.invert(x));
    const v = widen(f.y_target, g.max_size).map((y) => rv.yscale.invert(y));
    const ref = Array.from(g.index.indices({x0: h.start, x1: h.end, y0: v.start, y1: v.end}).ones());
    out.push({level: rv.model.level, got: Array.from(g.mask_data().ones()), ref});
  });
  return out;
}"""


def test_a_scatters_mask_builds_no_models_and_keeps_the_same_markers(new_tab, export_plate):
    """AELive.quick_marker_masks: turning the lookup's query builds no Range1d for the scatters'
    masks (BokehJS builds four per scatter, twice per change), and each scatter still keeps
    exactly the markers BokehJS's own arithmetic keeps; the weights are still attention_core's."""
    from app.plates.lookup.state import LookupState

    from helpers import NAMES
    from helpers import READY as LOOKUP_READY

    tab = new_tab()
    tab.block_network()
    page = tab.page
    page.goto(export_plate("lookup").as_uri())
    page.wait_for_function(LOOKUP_READY, arg=list(NAMES), timeout=60_000, polling="raf")
    assert page.evaluate(WATCH_WIDEN) == 3
    page.evaluate(FRAMES)
    page.evaluate("() => { window.__ae_widen.n = 0; }")
    angles = (10, 55, 100, 145, 190, 235)
    for angle in angles:
        page.evaluate("(a) => { Bokeh.documents[0].get_model_by_name('angle').value = a; }", angle)
        page.wait_for_function("(a) => Bokeh.documents[0].get_model_by_name('angle').value === a", arg=angle)
        page.evaluate(FRAMES)
        assert page.evaluate("() => window.__ae_widen.n") == 0, angle
        masks = page.evaluate(MASKS)
        assert len(masks) == 8 and {m["level"] for m in masks} == {"glyph", "overlay"}
        assert [m["got"] for m in masks] == [m["ref"] for m in masks], angle
        assert any(m["got"] for m in masks)  # markers are kept, not just none on both sides
        weights = page.evaluate("() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.weight)")
        assert weights == pytest.approx(list(LookupState(angle=angle).steps().weight), abs=1e-9), angle
    tab.assert_offline()
    tab.assert_no_errors()


# Count noUiSlider.updateOptions calls on the angle slider's view (BokehJS hands the slider's whole
# configuration back to noUiSlider there, rebuilding the handle's tooltip).
WATCH_SLIDER = r"""(name) => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name));
  const ui = v._noUiSlider, update = ui.updateOptions;
  window.__ae_slider = {n: 0};
  ui.updateOptions = function () { window.__ae_slider.n += 1; return update.apply(this, arguments); };
  v.slider_el.querySelector(".noUi-handle").focus();
  return v.model.value;
}"""
HANDLE = "(name) => Number(Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name))._noUiSlider.get(true))"
# What the handle tells a screen reader, its tooltip and the value beside the slider's title.
HANDLE_TEXT = r"""(name) => {
  const el = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name)).shadow_el;
  const tip = el.querySelector(".noUi-tooltip"), shown = el.querySelector(".bk-slider-value");
  return [el.querySelector(".noUi-handle").getAttribute("aria-valuenow"), tip && tip.textContent, shown && shown.textContent];
}"""


def test_a_slider_step_made_by_its_handle_does_not_rebuild_the_handle(new_tab, export_plate):
    """AELive.quiet_slider_echo: four key presses on the lookup's angle handle change the angle
    four times and never hand the configuration back to noUiSlider; an angle set from outside
    the handle (as a drag of the query, Python or a link does) moves the handle, its tooltip and
    its aria value without rebuilding it either; a new range still goes through noUiSlider's
    updateOptions. The weights are attention_core's."""
    from app.plates.lookup.state import LookupState

    from helpers import NAMES
    from helpers import READY as LOOKUP_READY

    tab = new_tab()
    tab.block_network()
    page = tab.page
    page.goto(export_plate("lookup").as_uri())
    page.wait_for_function(LOOKUP_READY, arg=list(NAMES), timeout=60_000, polling="raf")
    start = page.evaluate(WATCH_SLIDER, "angle")
    for i in range(1, 5):
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(a) => Bokeh.documents[0].get_model_by_name('angle').value === a", arg=start + i)
        assert page.evaluate(HANDLE, "angle") == start + i
    assert page.evaluate("() => window.__ae_slider.n") == 0
    page.evaluate("() => { Bokeh.documents[0].get_model_by_name('angle').value = 200; }")
    page.evaluate(FRAMES)
    assert page.evaluate("() => window.__ae_slider.n") == 0
    assert page.evaluate(HANDLE, "angle") == 200
    assert page.evaluate(HANDLE_TEXT, "angle") == ["200.0", "200", "200"]
    # ... and it jumps there with the hand: no 0.3 s glide (noUiSlider's "tap" state) behind it.
    assert page.evaluate("(n) => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n)).slider_el"
                         ".classList.contains('noUi-state-tap')", "angle") is False
    page.evaluate("() => { Bokeh.documents[0].get_model_by_name('angle').end = 300; }")
    page.evaluate(FRAMES)
    assert page.evaluate("() => window.__ae_slider.n") == 1
    assert page.evaluate("(n) => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n))"
                         "._noUiSlider.options.range.max", "angle") == 300
    assert page.evaluate(HANDLE, "angle") == pytest.approx(200, abs=1e-9)  # noUiSlider's float arithmetic
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('query').data.x.length > 0")
    page.evaluate(FRAMES)
    weights = page.evaluate("() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.weight)")
    assert weights == pytest.approx(list(LookupState(angle=200).steps().weight), abs=1e-9)
    tab.assert_offline()
    tab.assert_no_errors()


# Note every write of a glyph renderer's position sheet that changes it, and whether a figure was
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

WATCH_COUNT = "() => Array.from(Bokeh.index.query((v) => v.model.type === 'GlyphRenderer')).length"

# Every glyph renderer's element is placed where its glyph now is.
PLACED = r"""() => Array.from(Bokeh.index.query((v) => v.model.type === "GlyphRenderer" && v.bbox != null && v.bbox.is_valid))
  .filter((v) => !v.position.el.textContent.includes(`left:     ${v.bbox.left}px`) ||
                 !v.position.el.textContent.includes(`top:      ${v.bbox.top}px`)).length"""


def test_glyph_renderers_are_placed_after_the_paint_not_during_it(new_tab, export_plate):
    """AELive.later_positions: turning the lookup's query moves glyphs, and their renderers'
    position sheets are rewritten after the figures have painted, never during a paint (where
    each rewrite made the next label's font wait for a style recalculation), and not at all
    while changes keep coming (each write cost a frame of its own); once the page is still every
    renderer is placed where its glyph is. The weights are attention_core's."""
    from app.plates.lookup.state import LookupState

    from helpers import NAMES
    from helpers import READY as LOOKUP_READY

    tab = new_tab()
    tab.block_network()
    page = tab.page
    page.goto(export_plate("lookup").as_uri())
    page.wait_for_function(LOOKUP_READY, arg=list(NAMES), timeout=60_000, polling="raf")
    assert page.evaluate(WATCH_POSITIONS) >= 8
    for angle in (10, 55, 100, 145):
        page.evaluate("(a) => { Bokeh.documents[0].get_model_by_name('angle').value = a; }", angle)
        page.wait_for_function("(a) => Bokeh.documents[0].get_model_by_name('angle').value === a", arg=angle)
        page.evaluate(FRAMES)
        page.wait_for_function("() => (" + PLACED + ")() === 0")
    moved = page.evaluate("() => window.__ae_pos")
    assert moved["in_paint"] == 0, moved
    assert moved["after"] >= 4, moved  # the query's glyphs did move and were placed
    # A run of changes, one a frame (a drag, a held key): no sheet is written until the page is
    # still, then each moved renderer's once.
    during = page.evaluate(r"""async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      const before = window.__ae_pos.after;
      for (const a of [150, 155, 160, 165, 170]) {
        Bokeh.documents[0].get_model_by_name('angle').value = a;
        await frame(); await frame();
      }
      return window.__ae_pos.after - before;
    }""")
    assert during == 0, during
    page.wait_for_function("() => (" + PLACED + ")() === 0")
    burst = page.evaluate("() => window.__ae_pos")["after"] - moved["after"]
    assert 1 <= burst <= page.evaluate(WATCH_COUNT), burst
    weights = page.evaluate("() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.weight)")
    assert weights == pytest.approx(list(LookupState(angle=170).steps().weight), abs=1e-9)
    tab.assert_offline()
    tab.assert_no_errors()


# Count the CSS values the visuals ask the browser for (`--bk-line-color` and the like).
COUNT_BK_READS = r"""() => {
  window.__ae_bk_reads = 0;
  const own = CSSStyleDeclaration.prototype.getPropertyValue;
  CSSStyleDeclaration.prototype.getPropertyValue = function (name) {
    if (String(name).startsWith("--bk-")) window.__ae_bk_reads += 1;
    return own.apply(this, arguments);
  };
}"""

# The four multi-head figures' drawn pixels (each one's primary and overlay layers).
PIXELS = r"""() => ['head_maps', 'concat_map', 'w_o_map', 'output_map'].map((k) => {
  const cv = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(k)).canvas_view;
  return [cv.primary.canvas.toDataURL(), cv.overlays.canvas.toDataURL()].join("|");
})"""

SET_N = r"""(n) => { Bokeh.documents[0].get_model_by_name('n').value = n; }"""
N_SHOWN = r"""(n) => Bokeh.documents[0].get_model_by_name('setting').data.n[0] === n &&
  new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"""


def test_a_change_of_n_asks_no_css_value_and_draws_the_same_pixels(new_tab, export_plate):
    """AELive.unset_css_values: no CSS of the page sets a `--bk-` property, so a change of n on the
    multi-head page asks the browser for none (each question made it recompute styles), and the
    figures' pixels are the ones BokehJS draws when it does ask."""
    from test_multi_head_browser import READY as MH_READY
    from test_multi_head_browser import assert_matches_core as mh_matches_core
    from test_multi_head_browser import read as mh_read

    tab, page = open_exported(new_tab, export_plate, "multi-head", MH_READY)
    st = mh_read(page)
    d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
    assert page.evaluate("() => AELive.sets_bk_css(Bokeh.documents[0])") is False
    page.evaluate(COUNT_BK_READS)
    page.evaluate(SET_N, n + 1)
    page.wait_for_function(N_SHOWN, arg=n + 1)
    assert page.evaluate("() => window.__ae_bk_reads") == 0
    quiet = page.evaluate(PIXELS)
    mh_matches_core(mh_read(page), d_model, h, n + 1)

    # BokehJS's own question put back: the same n drawn again asks, and draws the same pixels.
    page.evaluate(SET_N, n)
    page.wait_for_function(N_SHOWN, arg=n)
    assert page.evaluate("""() => { const P = Bokeh.require('core/visuals/visual').VisualProperties.prototype;
        if (!P.__ae_unset) return false; P._get_css_value = P.__ae_asked; return true; }""") is True
    page.evaluate(SET_N, n + 1)
    page.wait_for_function(N_SHOWN, arg=n + 1)
    assert page.evaluate("() => window.__ae_bk_reads") > 50
    assert page.evaluate(PIXELS) == quiet
    tab.assert_offline()
    tab.assert_no_errors()


def test_a_document_that_sets_a_bk_property_is_left_to_ask(new_tab, export_plate):
    """AELive.sets_bk_css finds a `--bk-` property in a model's inline sheet, in its styles and in
    a page <style>: a page with one keeps BokehJS's question (unset_css_values declines, and gives
    BokehJS back the question AELive.early had answered)."""
    tab, page = open_exported(new_tab, export_plate, "masking", READY)
    found = page.evaluate(r"""() => {
      const doc = Bokeh.documents[0], fig = Array.from(doc.all_models).find((m) => m.type === 'Figure');
      const out = [AELive.sets_bk_css(doc)];
      const sheets = fig.stylesheets;
      fig.stylesheets = [...sheets, ':host { --bk-grid-line-color: red; }'];
      out.push(AELive.sets_bk_css(doc));
      fig.stylesheets = sheets;
      const styles = fig.styles;
      fig.styles = {'--bk-line-color': 'red'};
      out.push(AELive.sets_bk_css(doc));
      fig.styles = styles;
      const s = document.createElement('style');
      s.textContent = ':root { --bk-text-color: red; }';
      document.head.appendChild(s);
      const P = Bokeh.require('core/visuals/visual').VisualProperties.prototype;
      out.push(P.__ae_unset === true);  // answered "" since before the document was built (AELive.early)
      out.push(AELive.sets_bk_css(doc), AELive.unset_css_values(doc));
      out.push(P.__ae_unset === false && P._get_css_value === P.__ae_asked);  // BokehJS asks again
      s.remove();
      out.push(AELive.sets_bk_css(doc));
      return out;
    }""")
    assert found == [False, True, True, True, True, False, True, False]
    tab.assert_offline()
    tab.assert_no_errors()


def test_pythons_equal_answer_redraws_nothing_and_its_numbers_are_kept(tab, served_url):
    """AELive.quiet_equal_data, served: a real arrow key on the multi-head n slider; the page
    computes the new n itself, then Python answers with every source. An answer equal to what the
    page holds, or one whose floats differ from it only in the last bits, recomputes no glyph
    (each renderer recomputed once, for the page's own change), and the sources then hold
    Python's numbers exactly: attention_core's, with no tolerance."""
    from test_multi_head_browser import READY as MH_READY
    from test_multi_head_browser import assert_matches_core as mh_matches_core
    from test_multi_head_browser import read as mh_read

    from helpers import wait_synced, ws_count

    page = tab.page
    page.goto(f"{served_url}/multi-head")
    page.wait_for_function(MH_READY, timeout=45_000)
    wait_synced(page)
    st = mh_read(page)
    d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
    assert n < 8
    assert page.evaluate(COUNT) >= 10
    sent = ws_count(page)
    page.locator(".noUi-handle").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(N_SHOWN, arg=n + 1)
    wait_synced(page, sent)
    page.wait_for_function(N_SHOWN, arg=n + 1)  # two more frames after the answer
    counts = page.evaluate("() => window.__ae_counts")
    moved = [c for c in counts if c["set_data"]]
    assert len(moved) >= 8, counts  # the maps, their numbers and marks all changed
    assert all(c["set_data"] == 1 for c in moved), counts
    mh_matches_core(mh_read(page), d_model, h, n + 1, tol=0.0)
    # The colour scales' ends too: Python's largest |value| of each map, exactly.
    from app.plates.multi_head import signed_limit
    from test_multi_head_browser import core

    _, out, _, concat, _ = core(d_model, h, n + 1)
    ends = page.evaluate("""() => Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === 'LinearColorMapper')
        .map((m) => [m.low, m.high])""")
    for want in (signed_limit(concat), signed_limit(out)):
        assert [-want, want] in ends, (want, ends)
    tab.assert_no_errors()


# Every message the page writes to the server, with how many frames had started since the last
# keydown when it went (0: inside the key's own task, before the frame that shows the change).
RECORD_SENDS = r"""() => {
  const R = window.__ae_sends = {sends: [], frames: 0};
  addEventListener("keydown", () => {
    R.frames = 0;
    const tick = () => { R.frames += 1; if (R.frames < 30) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  }, true);
  const W = WebSocket.prototype, send = W.send;
  W.send = function (data) {
    if (typeof data === "string" && data.startsWith('{"events"')) {
      const events = JSON.parse(data).events.map((e) => [e.attr, e.new]);
      R.sends.push({frames: R.frames, events: events, shown: Bokeh.documents[0].get_model_by_name('setting').data.n[0]});
    }
    return send.call(this, data);
  };
}"""
BOKEHS_OWN_SENDS = r"""() => {
  const P = Bokeh.require('client/session').ClientSession.prototype;
  if (P.__ae_sends_later !== true) return false;
  Object.assign(P, P.__ae_own_session);
  return true;
}"""


def test_a_served_pages_changes_go_to_python_after_the_frame_that_shows_them(tab, served_url):
    """AELive.sends_later: a real arrow key on the served multi-head page's n slider changes the
    slider's value and value_throttled and marks the plot "busy"; the three go to Python in one
    message, in that order, once the frame showing the new n has started (BokehJS 3.10 sent three
    messages inside the key's task: checked below with its method put back). Python takes the change (it answers with the sources
    of the new n), and the numbers are then attention_core's, exactly."""
    from test_multi_head_browser import READY as MH_READY
    from test_multi_head_browser import assert_matches_core as mh_matches_core
    from test_multi_head_browser import read as mh_read

    from helpers import wait_synced, ws_count

    page = tab.page
    page.goto(f"{served_url}/multi-head")
    page.wait_for_function(MH_READY, timeout=45_000)
    wait_synced(page)
    assert page.evaluate("() => Bokeh.require('client/session').ClientSession.prototype.__ae_sends_later") is True
    st = mh_read(page)
    d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
    assert n + 2 <= 8, n
    page.evaluate(RECORD_SENDS)
    handle = page.locator(".noUi-handle").first
    handle.focus()

    def press(want):
        sent = ws_count(page)
        changes = page.evaluate("() => window.__ae_ws.changes_in.length")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(N_SHOWN, arg=want)
        wait_synced(page, sent)
        answered = page.evaluate("(k) => window.__ae_ws.changes_in.slice(k)", changes)
        return page.evaluate("() => window.__ae_sends.sends.splice(0)"), answered

    # The key's changes: the slider's value and value_throttled, and the plot marked "busy" until
    # the keys stop (busy_until_still; its end goes later, once the page is still).
    key = [["value", n + 1], ["value_throttled", n + 1], ["tags", ["busy"]]]
    sends, answered = press(n + 1)
    assert sends[0]["events"] == key and sends[0]["shown"] == n + 1, sends  # one message
    assert all(s["frames"] >= 1 for s in sends), sends  # each after the frame that shows n + 1 had started
    assert any(c.endswith(".data") for c in answered), answered  # Python took n + 1 and sent its sources
    mh_matches_core(mh_read(page), d_model, h, n + 1, tol=0.0)

    # BokehJS's own way, for comparison: a message per change, each inside the key's task.
    assert page.evaluate(BOKEHS_OWN_SENDS) is True
    sends, answered = press(n + 2)
    key = [["value", n + 2], ["value_throttled", n + 2], ["tags", ["busy"]]]
    assert [(s["frames"], s["events"]) for s in sends[:3]] == [(0, [change]) for change in key], sends
    assert any(c.endswith(".data") for c in answered), answered
    mh_matches_core(mh_read(page), d_model, h, n + 2, tol=0.0)
    tab.assert_no_errors()


def test_equal_and_near_data_are_told_apart(new_tab, export_plate):
    """AELive.same_data: the same columns with the same values and the same kind of array;
    floats within the tolerance only when one is given; strings and the set of columns exactly."""
    tab, page = open_exported(new_tab, export_plate, "masking", READY)
    got = page.evaluate(r"""() => {
      const s = AELive.same_data, near = 1e-12;
      return [
        s({a: [1, 2], t: ["x"]}, {a: [1, 2], t: ["x"]}, 0),
        s({a: [NaN]}, {a: [NaN]}, 0),
        s({a: [1, 2]}, {a: new Float64Array([1, 2])}, 0),
        s({a: [1, 2]}, {a: [1, 2 + 4e-16]}, 0),
        s({a: [1, 2]}, {a: [1, 2 + 4e-16]}, near),
        s({a: [1, 2]}, {a: [1, 2.001]}, near),
        s({t: ["x"]}, {t: ["y"]}, near),
        s({a: [1]}, {a: [1], b: [2]}, near),
        s({a: [[1, 2], [3]]}, {a: [[1, 2], [3]]}, 0),
      ];
    }""")
    assert got == [True, True, False, False, True, False, False, False, True]
    tab.assert_no_errors()


# Every figure's drawn pixels, by name (each one's primary and overlay layers).
ALL_PIXELS = r"""() => Object.fromEntries(Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure").map((m) => {
  const cv = Bokeh.index.find_one(m).canvas_view;
  return [m.name, [cv.primary.canvas.toDataURL(), cv.overlays.canvas.toDataURL()].join("|")];
}))"""

# BokehJS's own methods put back (AELive.lazy_copies keeps them), and every renderer's copies
# brought up to date the BokehJS way: the page then draws exactly as BokehJS 3.10 does.
BOKEHS_OWN = r"""async () => {
  const GR = Bokeh.require('models/renderers/glyph_renderer').GlyphRendererView.prototype;
  const G = Bokeh.require('models/glyphs/glyph').GlyphView.prototype;
  if (!GR.__ae_lazy_copies || !G.__ae_own || !GR.__ae_own) return false;
  Object.assign(G, G.__ae_own); Object.assign(GR, GR.__ae_own);
  const rs = Array.from(Bokeh.index.query((v) => v.glyph != null && v.selection_glyph != null));
  await Promise.all(rs.map((r) => r.update_data()));
  return rs.length;
}"""

# Per renderer: are its copies caught up, are any of them waiting?
COPIES = r"""() => Array.from(Bokeh.index.query((v) => v.glyph != null && v.selection_glyph != null)).map((r) => ({
  src: r.model.data_source.name, live: r.__ae_copies_live === true,
  waiting: [r.selection_glyph, r.nonselection_glyph, r.muted_glyph, r.decimated_glyph].some((g) => g.__ae_waiting === true),
}))"""

SELECT = r"""(ix) => { Bokeh.documents[0].get_model_by_name('weights').selected.indices = ix; }"""
FRAMES2 = r"""() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"""


def test_a_renderers_unseen_copies_wait_until_something_is_selected(new_tab, export_plate):
    """AELive.lazy_copies: after a change of n, no renderer's copies of its glyph are recomputed
    (nothing draws them) and the figures are the pixels BokehJS draws with every copy kept up to
    date; once cells are selected, the copies of the renderers that draw them are caught up and
    the selection is drawn as BokehJS draws it, before and after the next change of n."""
    from app.plates.masking import MaskingState

    tabs = [open_exported(new_tab, export_plate, "masking", READY) for _ in range(2)]
    (lazy_tab, lazy), (own_tab, own) = tabs
    assert own.evaluate(BOKEHS_OWN) >= 10
    seen = lambda: [p.evaluate(ALL_PIXELS) for p in (lazy, own)]  # noqa: E731
    first = seen()
    assert first[0] == first[1]

    for page in (lazy, own):
        page.evaluate("() => { Bokeh.documents[0].get_model_by_name('n').value = 7; }")
        page.wait_for_function(SETTLED, arg=7, timeout=30_000)
    copies = lazy.evaluate(COPIES)
    assert not any(c["live"] for c in copies), copies
    waiting = {c["src"] for c in copies if c["waiting"]}
    assert {"scores", "weights", "mask"} <= waiting, waiting  # the cells' renderers recomputed without them
    after_n = seen()
    assert after_n[0] == after_n[1]
    assert after_n[0] != first[0]  # the change of n was drawn
    assert_matches_core(read(lazy), MaskingState(n=7))

    # Cells selected: the unselected ones are drawn with the nonselection copy's fainter look.
    for page in (lazy, own):
        page.evaluate(SELECT, [0, 8, 16])
        page.evaluate(FRAMES2)
    live = {c["src"]: c["live"] for c in lazy.evaluate(COPIES)}
    assert live["weights"] is True and live["scores"] is False, live
    selected = seen()
    assert selected[0]["weights_plot"] != after_n[0]["weights_plot"]
    assert selected[0] == selected[1]

    # With the selection held, the caught-up copies follow the next change of n.
    for page in (lazy, own):
        page.evaluate("() => { Bokeh.documents[0].get_model_by_name('n').value = 5; }")
        page.wait_for_function(SETTLED, arg=5, timeout=30_000)
        page.evaluate(FRAMES2)
    again = seen()
    assert again[0] == again[1]
    assert again[0]["weights_plot"] != after_n[0]["weights_plot"]
    assert_matches_core(read(lazy), MaskingState(n=5))
    for tab in (lazy_tab, own_tab):
        tab.assert_offline()
        tab.assert_no_errors()


# From before any script of the page runs: the `--bk-` CSS values the page asks the browser for.
COUNT_BK_FROM_START = r"""
window.__ae_bk_reads = 0;
(() => {
  const own = CSSStyleDeclaration.prototype.getPropertyValue;
  CSSStyleDeclaration.prototype.getPropertyValue = function (name) {
    if (String(name).startsWith("--bk-")) window.__ae_bk_reads += 1;
    return own.apply(this, arguments);
  };
})();
"""

# [renderers, renderers any of whose copies has been given data] (GlyphView.set_data sets _data_size,
# null until then).
COPIES_GIVEN_DATA = r"""() => {
  const rs = Array.from(Bokeh.index.query((v) => v.glyph != null && v.selection_glyph != null));
  return [rs.length, rs.filter((r) => [r.selection_glyph, r.nonselection_glyph, r.muted_glyph, r.decimated_glyph]
    .some((g) => g._data_size != null)).length];
}"""


def test_an_exported_pages_first_build_skips_what_no_one_sees(new_tab, export_plate, tmp_path):
    """AELive.early: on the exported page, live.js's patches for the first build are in place
    before the document is built, so no renderer's copies are given data and no `--bk-` value is
    asked for; the same file with the early call taken out (the patches then come at
    document_ready) does both, and the two draw the same pixels."""
    from app.plates.masking import MaskingState

    path = export_plate("masking")
    text = path.read_text(encoding="utf-8")
    assert text.count("AELive.early();") == 1
    late = tmp_path / "masking-late.html"
    late.write_text(text.replace("AELive.early();", ""), encoding="utf-8")
    seen = {}
    for name, file in (("early", path), ("late", late)):
        tab = new_tab()
        tab.block_network()
        tab.page.add_init_script(COUNT_BK_FROM_START)
        tab.page.goto(file.as_uri())
        tab.page.wait_for_function(READY, timeout=60_000)
        tab.page.evaluate(FRAMES2)
        seen[name] = {"reads": tab.page.evaluate("() => window.__ae_bk_reads"),
                      "copies": tab.page.evaluate(COPIES_GIVEN_DATA), "pixels": tab.page.evaluate(ALL_PIXELS)}
        assert_matches_core(read(tab.page), MaskingState())
        tab.assert_offline()
        tab.assert_no_errors()
    renderers = seen["early"]["copies"][0]
    assert renderers >= 10
    assert seen["early"]["copies"] == [renderers, 0]
    assert seen["late"]["copies"] == [renderers, renderers]
    assert seen["early"]["reads"] == 0
    assert seen["late"]["reads"] > 50
    assert seen["early"]["pixels"] == seen["late"]["pixels"]


def test_a_served_pages_first_build_skips_what_no_one_sees(tab, served_url):
    """AELive.early on a served page: the server puts live.js and the early call among BokehJS's
    inline scripts (app/jsassets.run_live_js_early), so the document that arrives over the
    websocket is built with no copy given data and no `--bk-` value asked for, and shows
    attention_core's numbers."""
    from app.plates.masking import MaskingState

    page = tab.page
    page.add_init_script(COUNT_BK_FROM_START)
    page.goto(f"{served_url}/masking")
    page.wait_for_function(READY, timeout=45_000)
    page.evaluate(FRAMES2)
    renderers, given = page.evaluate(COPIES_GIVEN_DATA)
    assert renderers >= 10 and given == 0, (renderers, given)
    assert page.evaluate("() => window.__ae_bk_reads") == 0
    assert page.evaluate("() => document.documentElement.outerHTML.split('AELive.early();').length - 1") == 1
    assert_matches_core(read(page), MaskingState())
    tab.assert_no_errors()


def test_pythons_answer_with_the_same_font_and_a_near_range_redraws_nothing(tab, served_url):
    """AELive.quiet_equal_data, served masking: Python's answer to a step of n re-sends the Text
    glyphs' font size (which the page set already: a spec decoded from a message carries keys the
    page's does not, so BokehJS saw a change) and the norms' range end (NumPy's sum, which differs
    from the page's in the last bits). Neither recomputes a glyph again: each renderer is
    recomputed once, for the page's own change; the range then holds Python's end exactly and
    the fonts Python's size."""
    from app.plates.masking import MaskingState, font_for, view_data

    from helpers import wait_synced, ws_count

    page = tab.page
    page.goto(f"{served_url}/masking")
    page.wait_for_function(READY, timeout=45_000)
    wait_synced(page)
    n = page.evaluate("() => Bokeh.documents[0].get_model_by_name('n').value")
    assert font_for(n - 1) != font_for(n)  # the step changes the font, so the page sets it too
    assert page.evaluate(COUNT) >= 10
    page.evaluate("""() => { window.__ae_range_changes = 0;
        Bokeh.documents[0].get_model_by_name('norm_range').change.connect(() => { window.__ae_range_changes += 1; }); }""")
    sent = ws_count(page)
    page.locator("[data-ae-name='n'] .noUi-handle, .noUi-handle").first.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(SETTLED, arg=n - 1)
    wait_synced(page, sent)
    page.evaluate(FRAMES2)
    counts = page.evaluate("() => window.__ae_counts")
    texts = [c for c in counts if c["glyph"] == "Text" and c["src"] not in CONTRAST]
    assert len(texts) >= 6 and all(c["set_data"] == 1 for c in texts), counts
    assert all(c["set_data"] <= 1 for c in counts), counts
    assert all(c["set_data"] == 0 for c in counts if c["src"] in CONTRAST), counts  # hidden: they wait
    state = MaskingState(n=n - 1)
    end = page.evaluate("() => Bokeh.documents[0].get_model_by_name('norm_range').end")
    assert end == view_data(state)["_norm_end"]  # Python's, not the page's last bits
    assert page.evaluate("() => window.__ae_range_changes") <= 1
    fonts = page.evaluate("""() => Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === 'Text')
        .map((m) => m.text_font_size.value)""")
    assert fonts.count(font_for(n - 1)) >= 8, fonts
    assert_matches_core(read(page), state, tol=0.0)
    tab.assert_no_errors()


# The contrast pair's views: how often each laid itself out (its own _compute_layout).
COUNT_HIDDEN_LAYOUTS = r"""() => {
  window.__ae_hidden_layouts = {};
  for (const name of ["contrast_weights_plot", "contrast_output_plot"]) {
    const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name));
    const own = v._compute_layout;
    window.__ae_hidden_layouts[name] = 0;
    v._compute_layout = function () { window.__ae_hidden_layouts[name] += 1; return own.apply(this, arguments); };
  }
  return Object.keys(window.__ae_hidden_layouts).length;
}"""
CONTRAST = ("contrast_weights", "contrast_row_sums", "contrast_output")


def test_a_hidden_figure_waits_and_once_shown_draws_what_a_page_opened_so_draws(new_tab, export_plate):
    """AELive.hidden_figures_wait: on the masking page the contrast pair is hidden; a change of n
    recomputes none of its renderers and lays neither figure out, while every shown renderer
    recomputes once. Shown (a real click on the toggle), the pair draws the pixels of a page
    opened with that n and the contrast on, and every number is attention_core's."""
    from app.plates.masking import MaskingState

    tab, page = open_exported(new_tab, export_plate, "masking", READY)
    assert page.evaluate(COUNT) >= 10 and page.evaluate(COUNT_HIDDEN_LAYOUTS) == 2
    assert page.evaluate("() => Bokeh.documents[0].get_model_by_name('contrast_weights_plot').visible") is False
    page.evaluate("() => { Bokeh.documents[0].get_model_by_name('n').value = 7; }")
    page.wait_for_function(SETTLED, arg=7, timeout=30_000)
    page.evaluate(FRAMES2)
    counts = page.evaluate("() => window.__ae_counts")
    hidden = [c for c in counts if c["src"] in CONTRAST]
    shown = [c for c in counts if c["src"] in ("mask", "scores", "weights", "row_sums", "output")]
    assert len(hidden) == 6 and all(c["set_data"] == 0 for c in hidden), counts
    assert shown and all(c["set_data"] == 1 for c in shown), counts
    assert page.evaluate("() => window.__ae_hidden_layouts") == {"contrast_weights_plot": 0, "contrast_output_plot": 0}
    # The page's own data is current all along (only the drawing waited).
    assert_matches_core(read(page), MaskingState(n=7))

    page.get_by_text("Zero the weights (after softmax)").click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('contrast_weights_plot').visible")
    page.evaluate(FRAMES2)
    assert all(c["set_data"] == 1 for c in page.evaluate("() => window.__ae_counts") if c["src"] in CONTRAST)

    ref_tab = new_tab()
    ref_tab.block_network()
    ref_tab.page.goto(export_plate("masking").as_uri() + "?n=7&contrast=1")
    ref_tab.page.wait_for_function(READY, timeout=60_000)
    ref_tab.page.evaluate(FRAMES2)
    mine, ref = page.evaluate(ALL_PIXELS), ref_tab.page.evaluate(ALL_PIXELS)
    for name in ("contrast_weights_plot", "contrast_output_plot", "mask_plot", "scores_plot", "norms_plot"):
        assert mine[name] == ref[name], name
    want = MaskingState(n=7, contrast=True)
    assert_matches_core(read(page), want)
    for t in (tab, ref_tab):
        t.assert_offline()
        t.assert_no_errors()


# Count the labels of Text glyphs that BokehJS draws through a TextBox (an axis's labels are
# TextBoxes too, and are not counted); AELive.quick_text draws a plain one itself.
COUNT_TEXTBOX_PAINTS = r"""() => {
  const P = Bokeh.require('models/glyphs/text').TextView.prototype;
  const T = Bokeh.require('core/graphics').TextBox.prototype, own = T.paint;
  const inner = window.__ae_text_inner = {paint: P._paint};
  let depth = 0;
  P._paint = function () { depth += 1; try { return inner.paint.apply(this, arguments); } finally { depth -= 1; } };
  window.__ae_textbox_paints = 0;
  T.paint = function () { if (depth > 0) window.__ae_textbox_paints += 1; return own.apply(this, arguments); };
  return P.__ae_quick_text === true && typeof P.__ae_own_text_paint === 'function';
}"""
# Repaint every figure in full and wait until it is on screen; the labels drawn meanwhile.
REPAINT_ALL = r"""async () => {
  window.__ae_textbox_paints = 0;
  for (const m of Bokeh.documents[0].all_models) if (m.type === "Figure") Bokeh.index.find_one(m).request_paint();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
  return window.__ae_textbox_paints;
}"""
# Put BokehJS's own Text drawing back under the counter (AELive.quick_text keeps it).
TEXT_OWN = r"""() => { const P = Bokeh.require('models/glyphs/text').TextView.prototype;
  window.__ae_text_inner.paint = P.__ae_own_text_paint; return true; }"""
# Labels of the Text glyphs on shown figures: {source name and renderer id: count}.
LABELS = r"""() => Object.fromEntries(Array.from(Bokeh.index.query((v) => v.glyph != null && v.glyph.model.type === 'Text' &&
    v.model.visible && v.plot_view.model.visible))
  .map((r) => [r.model.data_source.name + ':' + r.model.id, r.glyph.labels.filter((l) => l != null).length]))"""


@pytest.mark.parametrize("slug", ["masking", "multi-head"])
def test_text_labels_drawn_directly_are_the_pixels_bokeh_draws(new_tab, export_plate, slug):
    """AELive.quick_text: after a change of n every label of the page's Text glyphs (the heat
    maps' numbers) is drawn without a TextBox, and the figures are the pixels BokehJS's own
    drawing gives. A Text glyph given a background is drawn BokehJS's way (a TextBox per label)
    and still to BokehJS's pixels; the numbers are attention_core's throughout."""
    from test_multi_head_browser import READY as MH_READY
    from test_multi_head_browser import assert_matches_core as mh_matches_core
    from test_multi_head_browser import read as mh_read

    from app.plates.masking import MaskingState

    tab, page = open_exported(new_tab, export_plate, slug, READY if slug == "masking" else MH_READY)
    assert page.evaluate(COUNT_TEXTBOX_PAINTS) is True
    if slug == "masking":
        page.evaluate("() => { Bokeh.documents[0].get_model_by_name('n').value = 7; }")
        page.wait_for_function(SETTLED, arg=7, timeout=30_000)
        check = lambda: assert_matches_core(read(page), MaskingState(n=7))  # noqa: E731
    else:
        st = mh_read(page)
        d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
        page.evaluate(SET_N, n + 1)
        page.wait_for_function(N_SHOWN, arg=n + 1)
        check = lambda: mh_matches_core(mh_read(page), d_model, h, n + 1)  # noqa: E731
    page.evaluate(FRAMES2)
    labels = page.evaluate(LABELS)
    assert sum(labels.values()) >= 50, labels
    assert page.evaluate("() => window.__ae_textbox_paints") == 0
    assert page.evaluate(REPAINT_ALL) == 0
    quick = page.evaluate(ALL_PIXELS)
    check()

    # One glyph with a background: its labels go through TextBox, the others still do not.
    boxed, count = next(iter(labels.items()))
    set_bg = r"""([key, color]) => { const r = Array.from(Bokeh.index.query((v) => v.glyph != null &&
      v.glyph.model.type === 'Text' && v.model.data_source.name + ':' + v.model.id === key))[0];
      r.glyph.model.background_fill_color = color; }"""
    page.evaluate(set_bg, [boxed, "#fff3c4"])
    page.evaluate(FRAMES2)
    assert page.evaluate(REPAINT_ALL) == count
    quick_boxed = page.evaluate(ALL_PIXELS)
    assert quick_boxed != quick

    # BokehJS's own drawing put back: the same pixels, each label through a TextBox.
    assert page.evaluate(TEXT_OWN) is True
    assert page.evaluate(REPAINT_ALL) == sum(labels.values())
    assert page.evaluate(ALL_PIXELS) == quick_boxed
    page.evaluate(set_bg, [boxed, None])
    page.evaluate(FRAMES2)
    page.evaluate(REPAINT_ALL)
    assert page.evaluate(ALL_PIXELS) == quick
    check()
    tab.assert_offline()
    tab.assert_no_errors()


# A drag's moves on the lookup page, recorded: when each input arrived (pointerrawupdate), when
# the frame dispatched it (pointermove), when the query changed, and how often BokehJS's gesture
# passed a pan on (the figure's UIEventBus.on_pan) in each frame.
RECORD_MOVES = r"""() => {
  const d = Bokeh.documents[0], v = Bokeh.index.find_one(d.get_model_by_name("vectors"));
  const bus = v.canvas_view.ui_event_bus, rec = {raw: {}, move: {}, changes: [], pans: [], frame: 0, last_ts: null, pointer_id: null};
  window.__rm = rec;
  window.addEventListener("pointerrawupdate", (e) => {
    rec.raw[e.timeStamp] = performance.now(); rec.last_ts = e.timeStamp; rec.pointer_id = e.pointerId;
  }, {capture: true});
  window.addEventListener("pointermove", (e) => { rec.move[e.timeStamp] = performance.now(); rec.last_ts = e.timeStamp; }, {capture: true});
  const tick = () => { rec.frame += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  d.get_model_by_name("query").change.connect(() => rec.changes.push([rec.last_ts, performance.now()]));
  const on_pan = bus.on_pan;
  bus.on_pan = function (ev) { rec.pans.push(rec.frame); return on_pan.apply(this, arguments); };
  return "onpointerrawupdate" in window;
}"""

# What makes `"onpointerrawupdate" in window` false, as in a browser without the event.
NO_RAW_EVENT = r"""(() => {
  for (let p = window; p; p = Object.getPrototypeOf(p))
    if (Object.prototype.hasOwnProperty.call(p, "onpointerrawupdate")) delete p.onpointerrawupdate;
})();"""


def press_on_the_query(new_tab, file, raw: bool = True):
    """The exported lookup page (`file`), offline, its moves recorded (RECORD_MOVES; without the
    raw event with `raw` False), the mouse pressed on the query. Returns the tab and the press's
    position."""
    from helpers import read_state, to_page_xy, wait_ready

    tab = new_tab()
    tab.block_network()
    if not raw:
        tab.page.add_init_script(NO_RAW_EVENT)
    page = tab.page
    page.goto(file.as_uri())
    wait_ready(page)
    assert page.evaluate(RECORD_MOVES) is raw
    st = read_state(page)
    x0, y0 = to_page_xy(page, "vectors", st["query"]["x"][0], st["query"]["y"][0])
    page.mouse.move(x0, y0)
    page.mouse.down()
    return tab, x0, y0


def assert_query_released_at(page, x: float, y: float) -> None:
    """Release the mouse; the query is at page position (x, y) and every number is attention_core's."""
    from helpers import core_from_query, read_state, to_page_xy

    page.mouse.up()
    st = read_state(page)
    qx, qy = st["query"]["x"][0], st["query"]["y"][0]
    px, py = to_page_xy(page, "vectors", qx, qy)
    assert abs(px - x) < 1.0 and abs(py - y) < 1.0, (px, py, x, y)
    assert_lookup_matches_core(st, core_from_query(qx, qy))


@pytest.mark.parametrize("kind", ["early", "late", "no-raw-event"])
def test_a_drag_move_is_handled_when_it_arrives_and_only_once(new_tab, exported_file, tmp_path, kind):
    """AELive.raw_moves: during a pan, each move is handed to BokehJS's gesture when it arrives
    (pointerrawupdate), so the query has changed before the frame dispatches the same move as
    pointermove; that pointermove is then dropped (one pan per move, not two). So on the exported
    page (the class patched by AELive.early before the figures are built) and on the same file
    without the early call (page.js's init patches the figures already built). A browser without
    the event handles every move at its frame, as before. Either way the numbers at the end are
    attention_core's for where the query was dragged."""
    raw, file = kind != "no-raw-event", exported_file
    if kind == "late":
        text = exported_file.read_text(encoding="utf-8")
        assert text.count("AELive.early();") == 1
        file = tmp_path / "lookup-late.html"
        file.write_text(text.replace("AELive.early();", ""), encoding="utf-8")
    tab, x0, y0 = press_on_the_query(new_tab, file, raw)
    page = tab.page
    # Which path put it on the plot's gestures: the class's connect_signals (early) or page.js.
    rebound = page.evaluate("""() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("vectors"))
      .canvas_view.ui_event_bus.ui_gestures.__ae_rebound === true""")
    assert rebound is (kind == "late"), rebound
    moves = 24
    for i in range(1, moves + 1):
        page.mouse.move(x0 - 5 * i, y0 + 4 * i)
        # i moves of the drag and the one to where the press is; i changes of the query.
        page.wait_for_function("(n) => Object.keys(window.__rm.move).length > n && window.__rm.changes.length >= n", arg=i)
    rec = page.evaluate("() => window.__rm")
    assert len(rec["pans"]) == moves, rec["pans"]  # every move passed on once
    assert len(rec["changes"]) == moves
    # Where each change came from: before (raw) or after (aligned) the frame dispatched its move.
    early = page.evaluate("() => window.__rm.changes.filter(([ts, t]) => t < window.__rm.move[ts]).length")
    if raw:
        # The first move starts the pan at its frame (BokehJS's 5 px threshold); the rest arrive early.
        assert early >= moves - 1, (early, rec["changes"][:5])
    else:
        assert early == 0, early
    assert_query_released_at(page, x0 - 5 * moves, y0 + 4 * moves)
    tab.assert_no_errors()
    tab.assert_offline()


def test_moves_faster_than_the_frames_are_handed_on_at_most_twice_a_frame(new_tab, exported_file):
    """AELive.raw_moves with a pointer faster than the frames (a 1000 Hz mouse): of the moves
    that arrive as pointerrawupdate before a frame, only the first is handed to BokehJS at once;
    the frame's pointermove, which carries the point the pointer got to, goes on too when that
    point is new, and is dropped when it is the one already handed on. The query ends where the
    pointer did, at attention_core's numbers. (CDP's mouse moves each wait for their frame, so
    the burst is dispatched in the page, after a real press and a real first move.)"""
    tab, x0, y0 = press_on_the_query(new_tab, exported_file)
    page = tab.page
    page.mouse.move(x0 - 10, y0)  # the pan starts
    page.wait_for_function("() => window.__rm.pans.length >= 1 && window.__rm.pointer_id !== null")
    handed_on = page.evaluate(r"""([x, y]) => {
      const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("vectors")), el = v.canvas_view.events_el;
      const at = (type, cx, cy) => el.dispatchEvent(new PointerEvent(type, {pointerId: window.__rm.pointer_id,
        isPrimary: true, pointerType: "mouse", buttons: 1, clientX: cx, clientY: cy, bubbles: true, composed: true}));
      const pans = () => window.__rm.pans.length, out = [], start = pans();
      for (let i = 1; i <= 6; i++) at("pointerrawupdate", x - 3 * i, y - 2 * i);
      out.push(pans() - start);                  // six arrive before the frame: the first goes on
      at("pointermove", x - 18, y - 12);         // the frame's move, where the sixth was: new
      out.push(pans() - start);
      at("pointerrawupdate", x - 21, y - 14);    // the next frame's first arrival
      at("pointermove", x - 21, y - 14);         // and its frame's move, the same point: dropped
      out.push(pans() - start);
      return out;
    }""", [x0 - 10, y0])
    assert handed_on == [1, 2, 3], handed_on
    assert_query_released_at(page, x0 - 31, y0 - 14)
    tab.assert_no_errors()


# Per axis view: how often its extents are computed (each computation measures its tick labels
# once, through _tick_label_extents) and how often its figure repaints.
AXIS_VIEWS = 'Array.from(Bokeh.index.query((v) => typeof v._tick_label_extents === "function" && v.plot_view != null))'
COUNT_AXES = r"""() => {
  const axes = """ + AXIS_VIEWS + """;
  const plots = new Set(axes.map((a) => a.plot_view));
  window.__ae_ax = {axes: axes.map((a) => ({a, n: 0})), plots: Array.from(plots).map((p) => ({p, n: 0}))};
  for (const c of window.__ae_ax.axes) {
    const f = c.a._tick_label_extents;
    c.a._tick_label_extents = function () { c.n += 1; return f.apply(this, arguments); };
  }
  for (const c of window.__ae_ax.plots) {
    const f = c.p._actual_paint;
    c.p._actual_paint = function () { c.n += 1; return f.apply(this, arguments); };
  }
  return axes.length;
}"""
AXES_COUNTED = r"""() => window.__ae_ax.axes.map((c) => ({
  axis: `${c.a.plot_view.model.name} ${c.a.model.type}`, measured: c.n,
  repaints: window.__ae_ax.plots.find((p) => p.p === c.a.plot_view).n}))"""
AXES_RESET = "() => { window.__ae_ax.axes.forEach((c) => { c.n = 0; }); window.__ae_ax.plots.forEach((c) => { c.n = 0; }); }"
AXIS_BOXES = "() => " + AXIS_VIEWS + r"""
  .map((a) => `${a.plot_view.model.name} ${a.model.type} ${JSON.stringify(a.layout.bbox)} ${JSON.stringify(a.extents)}`).sort()"""
# BokehJS's own extents put back: every read computes them.
AXES_OWN = r"""() => { const A = Bokeh.require('models/axes/axis').AxisView.prototype;
  if (!A.__ae_once) return false;
  Object.defineProperty(A, 'extents', {configurable: true, get: A.__ae_own_extents}); return true; }"""


def test_an_axis_is_measured_once_per_repaint_and_placed_and_drawn_as_bokeh_does(new_tab, export_plate):
    """AELive.axes_once: a change of n on the self-attention page resizes every heat map's
    categorical axes; each axis's labels are measured once per repaint of its figure, where
    BokehJS 3.10 measures them for the size check, for the drawing and for the group separators.
    The axes' boxes and extents and every figure's pixels are the ones BokehJS gives when it
    measures at every read, and the numbers are attention_core's."""
    from test_self_attention_served import READY as SA_READY
    from test_self_attention_served import assert_matches_core as sa_matches_core
    from test_self_attention_served import read as sa_read

    tabs = [open_exported(new_tab, export_plate, "self-attention", SA_READY) for _ in range(2)]
    (once_tab, once), (own_tab, own) = tabs
    assert own.evaluate(AXES_OWN) is True
    n = once.evaluate("() => Bokeh.documents[0].get_model_by_name('n').value")
    for page in (once, own):
        assert page.evaluate(COUNT_AXES) >= 12  # two axes on each of the six heat maps
    for step in (n + 1, n + 2, n + 1):
        for page in (once, own):
            page.evaluate(AXES_RESET)
            page.evaluate(SET_N, step)
            page.wait_for_function(SETTLED, arg=step)
        counted = {k: p.evaluate(AXES_COUNTED) for k, p in (("once", once), ("own", own))}
        shown = [c for c in counted["once"] if c["repaints"] > 0]
        assert len(shown) >= 12, counted["once"]
        assert all(c["measured"] <= c["repaints"] for c in counted["once"]), counted["once"]
        # The case the patch is about: BokehJS alone measures more often than it repaints.
        assert sum(c["measured"] for c in counted["own"]) >= 2 * sum(c["repaints"] for c in counted["own"] if c["measured"]), \
            counted["own"]
        assert once.evaluate(AXIS_BOXES) == own.evaluate(AXIS_BOXES), step
        assert once.evaluate(ALL_PIXELS) == own.evaluate(ALL_PIXELS), step
        sa_matches_core(sa_read(once), n=step)
    for tab, _ in tabs:
        tab.assert_offline()
        tab.assert_no_errors()


# Per glyph view of a named figure: waiting for its index? And what its index finds over the whole
# frame, with it built the way it is now and then again by BokehJS's own index_data.
INDEX_STATE = r"""(name) => Array.from(Bokeh.index.query((v) => v.glyph != null && v.plot_view != null &&
  v.plot_view.model.name === name)).map((r) => r.glyph.__ae_unindexed === true)"""
SET_N_THEN_INDEX_STATE = r"""([n, name]) => new Promise((done) => {
  const d = Bokeh.documents[0];
  d.get_model_by_name('n').value = n;
  requestAnimationFrame(() => requestAnimationFrame(() => done([d.get_model_by_name('setting').data.n[0] === n,
    (""" + INDEX_STATE + """)(name)])));
})"""
INDEX_FINDS = r"""(name) => Array.from(Bokeh.index.query((v) => v.glyph != null && v.plot_view != null &&
  v.plot_view.model.name === name && v.glyph.__ae_unindexed !== true)).map((r) => {
  const G = Bokeh.require('models/glyphs/glyph').GlyphView.prototype;
  const all = {x0: -Infinity, x1: Infinity, y0: -Infinity, y1: Infinity};
  const [xs, ys] = [r.xscale, r.yscale], f = r.plot_view.frame.bbox;
  const box = {x0: xs.invert(f.left), x1: xs.invert(f.right), y0: ys.invert(f.bottom), y1: ys.invert(f.top)};
  const seen = (i) => [Array.from(i.indices(all)).length, Array.from(i.indices(box)).join(","), JSON.stringify(i.bbox)];
  const now = seen(r.glyph.index);
  G.__ae_own_index.index_data.call(r.glyph);
  return [r.model.data_source.name, JSON.stringify(now) === JSON.stringify(seen(r.glyph.index)), now[0]];
})"""


def test_a_glyphs_index_is_built_when_first_asked_and_finds_what_bokehs_finds(new_tab, export_plate):
    """AELive.index_when_asked: a change of n on the multi-head page sets new data on every
    renderer and builds no spatial index; hovering the new last cell of head 1 builds the head
    maps' indices, the tooltip names that cell, and each index finds over the frame what BokehJS's
    own index_data finds for the same data. The numbers are attention_core's."""
    from test_multi_head_browser import READY as MH_READY
    from test_multi_head_browser import assert_matches_core as mh_matches_core
    from test_multi_head_browser import read as mh_read

    from helpers import to_page_xy

    tab, page = open_exported(new_tab, export_plate, "multi-head", MH_READY)
    assert page.evaluate("() => Bokeh.require('models/glyphs/glyph').GlyphView.prototype.__ae_index_later") is True
    st = mh_read(page)
    d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
    # Read in the page two frames after the change, once the figures have painted it (the
    # renderers' boxes, which read the index, are placed only once the page is still).
    shown, waiting = page.evaluate(SET_N_THEN_INDEX_STATE, [n + 1, "head_maps"])
    assert shown is True
    assert len(waiting) >= 2 and all(waiting), waiting  # new data everywhere, no index built for it
    cells = mh_read(page)["head"]
    last = next(k for k in range(len(cells["i"])) if (cells["head"][k], cells["i"][k], cells["j"][k]) == (0, n, n))
    x, y = to_page_xy(page, "head_maps", cells["x"][last], cells["y"][last])
    page.mouse.move(x - 4, y - 4)
    page.mouse.move(x, y)
    tip = page.locator(".bk-tooltip-content", has_text="q·k =").first
    tip.wait_for(state="visible", timeout=10_000)
    assert f"head 1: t{n + 1} reads t{n + 1}" in tip.inner_text()
    assert not all(page.evaluate(INDEX_STATE, "head_maps"))  # the hovered renderer's index is built now
    finds = page.evaluate(INDEX_FINDS, "head_maps")
    assert finds and all(same for _, same, _ in finds), finds
    assert any(name == "head_weights" and count == h * (n + 1) ** 2 for name, _, count in finds), finds
    mh_matches_core(mh_read(page), d_model, h, n + 1)
    tab.assert_offline()
    tab.assert_no_errors()
