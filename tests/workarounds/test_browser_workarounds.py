"""The browser-side workarounds (app/workarounds/js/), held to what they promise on exported pages.

page.js installs them at document ready; a page opened with `?workarounds=<name>` is the same
page with that one left to BokehJS, which is what "as BokehJS does it" means below.
- every one is on (AEWorkarounds.status(), or a wrapper for those the runtime calls), and the
  address switches one off alone;
- coalesce_updates: one change of n on the masking page recomputes each glyph renderer once;
  without it, some several times;
- one_layout (through AEPage.one_layout, from multi_head.js): a new n or d_model lays out only
  the resized figures, in the next frame, each drawn once, and they end where a layout of the
  whole page puts them;
- lazy_copies: after a change of n a renderer's copies of its glyph (selection, nonselection,
  muted, decimated) wait, so a Text glyph's labels are measured for the glyph alone; once cells
  are selected the copies that draw them catch up, and every figure is BokehJS's pixels;
- quick_text: the Text glyphs' one-line labels are drawn without BokehJS's TextBox, to
  BokehJS's pixels; a glyph with a background goes BokehJS's way, to the same pixels;
- raw_moves: a drag's move is handed to BokehJS's gesture when it arrives (pointerrawupdate),
  once per move and at most twice a frame; without the event every move goes at its frame.
Either way the numbers on screen are still attention_core's.
"""

from __future__ import annotations

import pytest

from helpers import COUNT_DRAWS
from helpers import NAMES as LOOKUP_NAMES
from helpers import READY as LOOKUP_READY
from helpers import assert_matches_core as assert_lookup_matches_core
from plates.test_masking_browser import READY, assert_matches_core, read
from workaround_pages import FRAMES, SWITCHED_OFF, open_exported, status

from app.plates.masking import MaskingState
from app.workarounds import JS

pytestmark = pytest.mark.browser

WRAPPED = ("div_text", "one_layout")  # called by the runtime through AEWorkarounds.wrapper
INSTALLED = tuple(n for n in JS if n not in WRAPPED)  # installed on BokehJS at document ready

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

SET_N = r"""(n) => { Bokeh.documents[0].get_model_by_name('n').value = n; }"""
SETTLED = r"""(n) => {
  const d = Bokeh.documents[0];
  if (d.get_model_by_name("weights").data.value.length !== n * n) return false;
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
}"""
WRAPPERS = "(names) => names.map((n) => AEWorkarounds.wrapper(n) !== null)"


def test_one_change_of_n_recomputes_each_renderer_once(new_tab, export_plate):
    """Every workaround is on on the exported masking page, and `?workarounds=coalesce_updates`
    switches that one off alone. With it, a change of n recomputes every renderer whose data
    changed once (set_visuals once, inside set_data, not again for the view's new `masked`
    indices); without it the same change recomputes some of them several times."""
    path, counts = export_plate("masking"), {}
    for off in (None, "coalesce_updates"):
        tab, page = open_exported(new_tab, path, READY, off)
        assert status(page, *INSTALLED) == {n: SWITCHED_OFF if n == off else "on" for n in INSTALLED}
        assert page.evaluate(WRAPPERS, list(WRAPPED)) == [True] * len(WRAPPED)
        assert page.evaluate(COUNT) >= 10
        page.evaluate(SET_N, 6)
        page.wait_for_function(SETTLED, arg=6, timeout=30_000)
        counts[off] = [c for c in page.evaluate("() => window.__ae_counts") if c["set_data"]]
        assert_matches_core(read(page), MaskingState(n=6))
        tab.assert_offline()
        tab.assert_no_errors()
    moved, plain = counts[None], counts["coalesce_updates"]
    assert len(moved) >= 10 and len([c for c in moved if c["glyph"] == "Text"]) >= 5, moved  # maps and numbers
    assert all(c["set_data"] == 1 and c["set_visuals"] == 1 for c in moved), moved
    assert sorted((c["glyph"], c["src"]) for c in plain) == sorted((c["glyph"], c["src"]) for c in moved)
    assert max(c["set_data"] for c in plain) >= 2, plain  # what the patch is for: BokehJS recomputes again


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
FRAME_SIZES = """(ks) => ks.map((k) => {
    const m = Bokeh.documents[0].get_model_by_name(k); return [m.frame_width, m.frame_height]; })"""


@pytest.mark.parametrize("change", ["n", "d_model"])
def test_a_change_of_n_or_width_lays_out_only_the_resized_figures(new_tab, export_plate, change):
    """A new d_model resizes three figures of four; one_layout lays out just those, in the next
    frame, without a layout of the whole page, and draws each resized one once. A new n resizes
    none (the figures keep N_MAX tokens' room), so nothing on the page moves, and the three
    figures whose numbers changed are drawn once each (W_O, which n leaves as it is, not at all).
    A whole-page layout afterwards then moves no box and changes no pixel: the figures' own
    layout put everything where BokehJS would."""
    from plates.test_multi_head_browser import READY as MH_READY
    from plates.test_multi_head_browser import TAG as MH_TAG
    from plates.test_multi_head_browser import assert_matches_core as mh_matches_core
    from plates.test_multi_head_browser import read as mh_read

    tab, page = open_exported(new_tab, export_plate("multi-head"), MH_READY)
    status(page, *INSTALLED)  # page.js has run its init
    assert page.evaluate(WRAPPERS, ["one_layout"]) == [True]
    page.set_viewport_size({"width": 1280, "height": 2000})
    st = mh_read(page)
    d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0]
    sizes = page.evaluate(FRAME_SIZES, FIGURES)
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
    after = page.evaluate(FRAME_SIZES, FIGURES)
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
    # The slider's handle and bar ease to the new step (a CSS transition): picture them at rest.
    page.wait_for_function("() => document.getAnimations().length === 0")
    boxes, picture = page.evaluate(BOXES), page.screenshot(full_page=True)
    page.evaluate(FULL_LAYOUT)
    assert page.evaluate("() => window.__ae_layouts") >= 1
    assert page.evaluate(BOXES) == boxes
    again = page.screenshot(full_page=True)
    # Chromium's raster may shade an anti-aliased edge one level apart between two paints of the
    # same layout (seen on the slider track's rounded end, 1 run in 8): a moved box changes
    # whole shapes, far more than two levels.
    moved = picture_change(picture, again, levels=2)
    if moved:
        import pathlib
        import tempfile
        out = pathlib.Path(tempfile.mkdtemp(prefix="ae-layout-"))
        (out / "before.png").write_bytes(picture)
        (out / "after.png").write_bytes(again)
        pytest.fail(f"a whole-page layout changed the picture ({moved}): {out}/before.png, after.png")
    tab.assert_offline()
    tab.assert_no_errors()


def picture_change(png_a: bytes, png_b: bytes, levels: int) -> str:
    """'' when the two pictures have one size and no channel differs by more than `levels`;
    else what differs (sizes, or the box of the pixels beyond it)."""
    import io

    import numpy as np
    from PIL import Image

    a = np.asarray(Image.open(io.BytesIO(png_a)).convert("RGB"), dtype=int)  # (H, W, 3)
    b = np.asarray(Image.open(io.BytesIO(png_b)).convert("RGB"), dtype=int)  # (H', W', 3)
    if a.shape != b.shape:
        return f"size {a.shape[:2]} then {b.shape[:2]}"
    far = np.abs(a - b).max(axis=2) > levels  # (H, W)
    if not far.any():
        return ""
    ys, xs = np.nonzero(far)
    return f"{far.sum()} pixels in x {xs.min()}–{xs.max()}, y {ys.min()}–{ys.max()}"


# Every figure's drawn pixels, by name (each one's primary and overlay layers).
ALL_PIXELS = r"""() => Object.fromEntries(Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure").map((m) => {
  const cv = Bokeh.index.find_one(m).canvas_view;
  return [m.name, [cv.primary.canvas.toDataURL(), cv.overlays.canvas.toDataURL()].join("|")];
}))"""

# Count the text measurements (TextBox.size, on the class every label shares) into
# window.__ae_measures, and keep the Text glyphs' renderers; returns how many there are.
COUNT_MEASURES = r"""() => {
  const texts = Array.from(Bokeh.index.query((v) => v.glyph != null && v.glyph.model.type === "Text"));
  const label = texts.map((r) => (r.glyph.labels || []).find((l) => l != null)).find((l) => l != null);
  let proto = Object.getPrototypeOf(label);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, "size")) proto = Object.getPrototypeOf(proto);
  const size = proto.size;
  window.__ae_measures = 0;
  proto.size = function () { window.__ae_measures += 1; return size.apply(this, arguments); };
  window.__ae_texts = texts;
  return texts.length;
}"""
# The labels of the figures on screen: a hidden figure's renderers wait (hidden_figures_wait), with
# their copies, whether lazy_copies is on or off.
LABELS_NOW = r"""() => window.__ae_texts.filter((r) => r.parent && r.parent.model.visible !== false)
  .reduce((n, r) => n + r.glyph.labels.filter((l) => l != null).length, 0)"""

# Per renderer: are its copies caught up, are any of them waiting?
COPIES = r"""() => Array.from(Bokeh.index.query((v) => v.glyph != null && v.selection_glyph != null)).map((r) => ({
  src: r.model.data_source.name, live: r.__ae_copies_live === true,
  waiting: [r.selection_glyph, r.nonselection_glyph, r.muted_glyph, r.decimated_glyph].some((g) => g.__ae_waiting === true),
}))"""

SELECT = r"""(ix) => { Bokeh.documents[0].get_model_by_name('weights').selected.indices = ix; }"""


def test_a_renderers_unseen_copies_wait_until_something_is_selected(new_tab, export_plate):
    """lazy_copies, beside the same page with it switched off: after a change of n no renderer's
    copies of its glyph are recomputed (nothing draws them), so each Text label is measured for
    the glyph and its paint only (BokehJS measures it again in each of the four copies), and the
    figures are BokehJS's pixels; once cells are selected, the copies of the renderers that draw
    them are caught up and the selection is drawn as BokehJS draws it, before and after the next
    change of n."""
    path = export_plate("masking")
    (lazy_tab, lazy), (own_tab, own) = tabs = [open_exported(new_tab, path, READY, off) for off in (None, "lazy_copies")]
    assert status(lazy, "lazy_copies") == {"lazy_copies": "on"}
    assert status(own, "lazy_copies") == {"lazy_copies": SWITCHED_OFF}
    seen = lambda: [p.evaluate(ALL_PIXELS) for p in (lazy, own)]  # noqa: E731
    first = seen()
    assert first[0] == first[1]

    measures = []
    for page in (lazy, own):
        assert page.evaluate(COUNT_MEASURES) >= 5
        page.evaluate(SET_N, 7)
        page.wait_for_function(SETTLED, arg=7, timeout=30_000)
        measures.append([page.evaluate("() => window.__ae_measures"), page.evaluate(LABELS_NOW)])
    (lazy_measures, labels), (own_measures, own_labels) = measures
    assert labels == own_labels and labels >= 4 * 49, measures  # four 7 × 7 maps on screen
    # Each label: once in the glyph's after_visuals, and what painting it takes; BokehJS's copies add 4.
    assert lazy_measures <= 3 * labels, measures
    assert own_measures >= lazy_measures + 4 * labels, measures
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
        page.evaluate(FRAMES)
    live = {c["src"]: c["live"] for c in lazy.evaluate(COPIES)}
    assert live["weights"] is True and live["scores"] is False, live
    selected = seen()
    assert selected[0]["weights_plot"] != after_n[0]["weights_plot"]
    assert selected[0] == selected[1]

    # With the selection held, the caught-up copies follow the next change of n.
    for page in (lazy, own):
        page.evaluate(SET_N, 5)
        page.wait_for_function(SETTLED, arg=5, timeout=30_000)
        page.evaluate(FRAMES)
    again = seen()
    assert again[0] == again[1]
    assert again[0]["weights_plot"] != after_n[0]["weights_plot"]
    assert_matches_core(read(lazy), MaskingState(n=5))
    for tab, _ in tabs:
        tab.assert_offline()
        tab.assert_no_errors()


# Count the labels of Text glyphs that are drawn through a TextBox (an axis's labels are
# TextBoxes too, and are not counted), under the Text glyph's drawing the page has now.
COUNT_TEXTBOX_PAINTS = r"""() => {
  const P = Bokeh.require('models/glyphs/text').TextView.prototype, paint = P._paint;
  const T = Bokeh.require('core/graphics').TextBox.prototype, own = T.paint;
  let depth = 0;
  P._paint = function () { depth += 1; try { return paint.apply(this, arguments); } finally { depth -= 1; } };
  window.__ae_textbox_paints = 0;
  T.paint = function () { if (depth > 0) window.__ae_textbox_paints += 1; return own.apply(this, arguments); };
}"""
# Repaint every figure in full and wait until it is on screen; the labels drawn meanwhile.
REPAINT_ALL = r"""async () => {
  window.__ae_textbox_paints = 0;
  for (const m of Bokeh.documents[0].all_models) if (m.type === "Figure") Bokeh.index.find_one(m).request_paint();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
  return window.__ae_textbox_paints;
}"""
# Labels of the Text glyphs on shown figures: {source name and renderer id: count}.
LABELS = r"""() => Object.fromEntries(Array.from(Bokeh.index.query((v) => v.glyph != null && v.glyph.model.type === 'Text' &&
    v.model.visible && v.plot_view.model.visible))
  .map((r) => [r.model.data_source.name + ':' + r.model.id, r.glyph.labels.filter((l) => l != null).length]))"""
SET_BACKGROUND = r"""([key, color]) => { const r = Array.from(Bokeh.index.query((v) => v.glyph != null &&
  v.glyph.model.type === 'Text' && v.model.data_source.name + ':' + v.model.id === key))[0];
  r.glyph.model.background_fill_color = color; }"""
N_SHOWN = r"""(n) => Bokeh.documents[0].get_model_by_name('setting').data.n[0] === n &&
  new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"""


@pytest.mark.parametrize("slug", ["masking", "multi-head"])
def test_text_labels_drawn_directly_are_the_pixels_bokeh_draws(new_tab, export_plate, slug):
    """quick_text, beside the same page with it switched off: after a change of n every label of
    the page's Text glyphs (the heat maps' numbers) is drawn without a TextBox, and the figures
    are the pixels of BokehJS's own drawing, which draws each label through one. A Text glyph
    given a background is drawn BokehJS's way (a TextBox per label), still to BokehJS's pixels;
    the numbers are attention_core's throughout."""
    from plates.test_multi_head_browser import READY as MH_READY
    from plates.test_multi_head_browser import assert_matches_core as mh_matches_core
    from plates.test_multi_head_browser import read as mh_read

    path = export_plate(slug)
    (quick_tab, quick), (own_tab, own) = tabs = [
        open_exported(new_tab, path, READY if slug == "masking" else MH_READY, off) for off in (None, "quick_text")]
    assert status(quick, "quick_text") == {"quick_text": "on"}
    assert status(own, "quick_text") == {"quick_text": SWITCHED_OFF}
    if slug == "masking":
        n = 7
        check = lambda page: assert_matches_core(read(page), MaskingState(n=n))  # noqa: E731
        shown = SETTLED
    else:
        st = mh_read(quick)
        d_model, h, n = st["setting"]["d_model"][0], st["setting"]["h"][0], st["setting"]["n"][0] + 1
        check = lambda page: mh_matches_core(mh_read(page), d_model, h, n)  # noqa: E731
        shown = N_SHOWN
    for page in (quick, own):
        page.evaluate(COUNT_TEXTBOX_PAINTS)
        page.evaluate(SET_N, n)
        page.wait_for_function(shown, arg=n, timeout=30_000)
        page.evaluate(FRAMES)
        check(page)
    labels = quick.evaluate(LABELS)
    total = sum(labels.values())
    assert total >= 50 and own.evaluate(LABELS) == labels, labels
    assert quick.evaluate("() => window.__ae_textbox_paints") == 0
    assert [p.evaluate(REPAINT_ALL) for p in (quick, own)] == [0, total]
    plain = quick.evaluate(ALL_PIXELS)
    assert own.evaluate(ALL_PIXELS) == plain

    # One glyph with a background: its labels go through TextBox, the others still do not.
    boxed, count = next(iter(labels.items()))
    for page in (quick, own):
        page.evaluate(SET_BACKGROUND, [boxed, "#fff3c4"])
        page.evaluate(FRAMES)
    assert [p.evaluate(REPAINT_ALL) for p in (quick, own)] == [count, total]
    with_background = quick.evaluate(ALL_PIXELS)
    assert with_background != plain
    assert own.evaluate(ALL_PIXELS) == with_background
    for tab, page in tabs:
        check(page)
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

# Whether the lookup's vectors figure's gestures were given the raw listener by page.js's install.
REBOUND = """() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("vectors"))
  .canvas_view.ui_event_bus.ui_gestures.__ae_rebound === true"""


def press_on_the_query(new_tab, file, raw: bool = True):
    """The exported lookup page (`file`), offline, raw_moves's status checked, its moves recorded
    (RECORD_MOVES; without the raw event with `raw` False), the mouse pressed on the query.
    Returns the tab and the press's position."""
    from helpers import read_state, to_page_xy

    tab, page = open_exported(new_tab, file, LOOKUP_READY, init_script=None if raw else NO_RAW_EVENT,
                              arg=list(LOOKUP_NAMES), polling="raf")
    said = status(page, "raw_moves")["raw_moves"]
    if raw:
        assert said == "on" and page.evaluate(REBOUND) is True
    else:  # nothing to listen to: left as it was
        assert said.startswith("off") and page.evaluate(REBOUND) is False, said
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


@pytest.mark.parametrize("raw", [True, False], ids=["raw-event", "no-raw-event"])
def test_a_drag_move_is_handled_when_it_arrives_and_only_once(new_tab, exported_file, raw):
    """raw_moves: during a pan, each move is handed to BokehJS's gesture when it arrives
    (pointerrawupdate), so the query has changed before the frame dispatches the same move as
    pointermove; that pointermove is then dropped (one pan per move, not two). A browser without
    the event handles every move at its frame, as before. Either way the numbers at the end are
    attention_core's for where the query was dragged."""
    tab, x0, y0 = press_on_the_query(new_tab, exported_file, raw)
    page = tab.page
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
    """raw_moves with a pointer faster than the frames (a 1000 Hz mouse): of the moves that
    arrive as pointerrawupdate before a frame, only the first is handed to BokehJS at once; the
    frame's pointermove, which carries the point the pointer got to, goes on too when that point
    is new, and is dropped when it is the one already handed on. The query ends where the pointer
    did, at attention_core's numbers. (CDP's mouse moves each wait for their frame, so the burst
    is dispatched in the page, after a real press and a real first move.)"""
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
