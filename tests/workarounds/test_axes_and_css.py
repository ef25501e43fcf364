"""axes_on_change, axes_once and unset_css_values (app/workarounds/js/), held to what they promise
on exported pages; `?workarounds=<names>` is the same page left to BokehJS.

- axes_on_change: turning the lookup's query moves data only, so no axis is asked whether its
  size changed (BokehJS 3.10 asks every axis before every paint, measuring all its tick labels);
  a new range that widens an axis's labels (d_k on the scaling plate) still lays it out again.
- axes_once: a change of n on the self-attention page measures each axis once per repaint of its
  figure, where BokehJS measures it for the size check, the drawing and the group separators.
- unset_css_values: no CSS of these pages sets a `--bk-` property, so no visual asks the browser
  for one; a page whose CSS sets one keeps BokehJS's question.
In each case the figures' pixels and the axes' boxes are the ones BokehJS gives with the
workaround off, and the numbers are attention_core's.
"""

from __future__ import annotations

import pytest

from helpers import NAMES as LOOKUP_NAMES
from helpers import READY as LOOKUP_READY
from workaround_pages import FRAMES, SWITCHED_OFF, open_exported, status

pytestmark = pytest.mark.browser

THREE = ("axes_on_change", "axes_once", "unset_css_values")

# Count the axes' size questions (SideLayout.has_size_changed, on the class every axis layout
# shares) and the `--bk-` CSS values asked of the browser.
WATCH = r"""() => {
  const figs = Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure")
    .map((m) => Bokeh.index.find_one(m)).filter((v) => v != null);
  const layout = figs.flatMap((v) => v.model.side_panels.map((p) => v.renderer_views.get(p).layout))[0];
  let proto = Object.getPrototypeOf(layout);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, "has_size_changed")) proto = Object.getPrototypeOf(proto);
  const asked = proto.has_size_changed;
  const w = window.__ae_w = {figs, asked, sizes: 0, bk: 0};
  proto.has_size_changed = function () { w.sizes += 1; return asked.apply(this, arguments); };
  const own = CSSStyleDeclaration.prototype.getPropertyValue;
  CSSStyleDeclaration.prototype.getPropertyValue = function (name) {
    if (String(name).startsWith("--bk-")) w.bk += 1;
    return own.apply(this, arguments);
  };
  return figs.length;
}"""
RESET = "() => { window.__ae_w.sizes = 0; window.__ae_w.bk = 0; }"
COUNTED = "() => ({sizes: window.__ae_w.sizes, bk: window.__ae_w.bk})"

# Axes on show whose box no longer fits their labels (asking BokehJS's own question, uncounted).
STALE_AXES = r"""() => window.__ae_w.figs.flatMap((v) => v.model.side_panels.map((p) => {
  const l = v.renderer_views.get(p).layout;
  if (l.bbox.width === 0 && l.bbox.height === 0) return null;  // a figure not on show
  return window.__ae_w.asked.call(l) ? `${v.model.name}: ${p.type} ${l.bbox.width}x${l.bbox.height}` : null;
})).filter((x) => x != null)"""

# Every figure's drawn pixels, by name (each one's primary and overlay layers).
ALL_PIXELS = r"""() => Object.fromEntries(Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure").map((m) => {
  const cv = Bokeh.index.find_one(m).canvas_view;
  return [m.name, [cv.primary.canvas.toDataURL(), cv.overlays.canvas.toDataURL()].join("|")];
}))"""

SET = "([name, v]) => { Bokeh.documents[0].get_model_by_name(name).value = v; }"


def lookup_weights(angle: float) -> list[float]:
    from app.plates.lookup.state import LookupState

    return list(LookupState(angle=angle).steps().weight)


def test_turning_the_query_measures_no_axis_asks_no_css_and_draws_bokehs_pixels(new_tab, exported_file):
    """The lookup's query turned six times: with the workarounds no axis is asked for its size and
    no `--bk-` value is asked; left to BokehJS, both are asked at every change. Both pages end
    with the same pixels in every figure, no axis stale, and attention_core's weights."""
    pages = {}
    for off in (None, ",".join(THREE)):
        tab, page = open_exported(new_tab, exported_file, LOOKUP_READY, off, arg=list(LOOKUP_NAMES), polling="raf")
        said = status(page, *THREE)
        assert set(said.values()) == ({"on"} if off is None else {SWITCHED_OFF}), said
        assert page.evaluate(WATCH) == 3
        page.evaluate(FRAMES)
        page.evaluate(RESET)
        for angle in (10, 55, 100, 145, 190, 235):
            page.evaluate(SET, ["angle", angle])
            page.evaluate(FRAMES)
            assert page.evaluate("() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.weight)") == \
                pytest.approx(lookup_weights(angle), abs=1e-9), angle
        assert page.evaluate(STALE_AXES) == []
        pages[off is None] = (tab, page, page.evaluate(COUNTED))
    on, off = pages[True][2], pages[False][2]
    assert on == {"sizes": 0, "bk": 0}, on
    assert off["sizes"] >= 6 * 3 and off["bk"] >= 6, off  # the work the workarounds spare
    assert pages[True][1].evaluate(ALL_PIXELS) == pages[False][1].evaluate(ALL_PIXELS)
    for tab, _, _ in pages.values():
        tab.assert_offline()
        tab.assert_no_errors()


def test_an_axis_whose_labels_change_is_laid_out_again(new_tab, export_plate):
    """axes_on_change's other half: d_k on the scaling plate gives the histogram a new count range,
    whose labels change the axis's width; each time the figure is laid out for it (no axis on show
    has a box that no longer fits its labels), to the boxes and pixels BokehJS gives."""
    from plates.test_scaling_served import READY as SCALING_READY

    pages = []
    for off in (None, "axes_on_change"):
        tab, page = open_exported(new_tab, export_plate("scaling"), SCALING_READY, off)
        assert status(page, "axes_on_change")["axes_on_change"] == ("on" if off is None else SWITCHED_OFF)
        assert page.evaluate(WATCH) >= 4
        page.evaluate(SET, ["d_k", 10])
        page.evaluate(FRAMES)
        widths = []
        for step in (0, 5, 1, 10, 0):
            page.evaluate(SET, ["d_k", step])
            page.evaluate(FRAMES)
            assert page.evaluate(STALE_AXES) == [], step
            widths.append(page.evaluate(
                "() => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('histogram_plot'));"
                " return v.model.left.map((p) => v.renderer_views.get(p).layout.bbox.width); }"))
        assert len({str(w) for w in widths}) > 1, widths  # the case this test is about did happen
        pages.append((tab, page, widths))
    assert pages[0][2] == pages[1][2]
    assert pages[0][1].evaluate(ALL_PIXELS) == pages[1][1].evaluate(ALL_PIXELS)
    for tab, _, _ in pages:
        tab.assert_offline()
        tab.assert_no_errors()


AXIS_VIEWS = 'Array.from(Bokeh.index.query((v) => typeof v._tick_label_extents === "function" && v.plot_view != null))'
# Per axis: how often its labels were measured, and how often its figure repainted.
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
N_SETTLED = r"""(n) => {
  if (Bokeh.documents[0].get_model_by_name("weights").data.value.length !== n * n) return false;
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
}"""


def test_an_axis_is_measured_once_per_repaint_and_placed_and_drawn_as_bokeh_does(new_tab, export_plate):
    """axes_once: a change of n on the self-attention page resizes every heat map's categorical
    axes; each axis's labels are measured at most once per repaint of its figure, where BokehJS
    alone measures them at least twice. The axes' boxes and extents and every figure's pixels are
    BokehJS's, and the numbers are attention_core's."""
    from plates.test_self_attention_served import READY as SA_READY
    from plates.test_self_attention_served import assert_matches_core, read

    path = export_plate("self-attention")
    (once_tab, once), (own_tab, own) = (open_exported(new_tab, path, SA_READY, off) for off in (None, "axes_once"))
    assert status(once, "axes_once")["axes_once"] == "on"
    assert status(own, "axes_once")["axes_once"] == SWITCHED_OFF
    n = once.evaluate("() => Bokeh.documents[0].get_model_by_name('n').value")
    for page in (once, own):
        assert page.evaluate(COUNT_AXES) >= 12  # two axes on each of the six heat maps
    for step in (n + 1, n + 2, n + 1):
        for page in (once, own):
            page.evaluate(AXES_RESET)
            page.evaluate(SET, ["n", step])
            page.wait_for_function(N_SETTLED, arg=step)
        counted = {k: p.evaluate(AXES_COUNTED) for k, p in (("once", once), ("own", own))}
        shown = [c for c in counted["once"] if c["repaints"] > 0]
        assert len(shown) >= 12, counted["once"]
        assert all(c["measured"] <= c["repaints"] for c in counted["once"]), counted["once"]
        assert sum(c["measured"] for c in counted["own"]) >= \
            2 * sum(c["repaints"] for c in counted["own"] if c["measured"]), counted["own"]
        assert once.evaluate(AXIS_BOXES) == own.evaluate(AXIS_BOXES), step
        assert once.evaluate(ALL_PIXELS) == own.evaluate(ALL_PIXELS), step
        assert_matches_core(read(once), n=step)
    for tab in (once_tab, own_tab):
        tab.assert_offline()
        tab.assert_no_errors()


# A page <style> that sets a `--bk-` property, put in before BokehJS builds the document.
BK_STYLE = r"""document.addEventListener("DOMContentLoaded", () => {
  const s = document.createElement("style");
  s.textContent = ":root { --bk-text-color: #123456; }";
  document.head.appendChild(s);
});"""


def test_a_page_whose_css_sets_a_bk_property_keeps_bokehs_question(new_tab, exported_file):
    """unset_css_values declines on a page whose CSS sets a `--bk-` property, says why, and
    BokehJS keeps asking for it when it draws (here the axes, measured at each change with
    axes_on_change off)."""
    tab, page = open_exported(new_tab, exported_file, LOOKUP_READY, "axes_on_change", init_script=BK_STYLE,
                              arg=list(LOOKUP_NAMES), polling="raf")
    assert status(page, "unset_css_values")["unset_css_values"] == "off: the page's CSS sets a --bk- property"
    page.evaluate(WATCH)
    page.evaluate(SET, ["angle", 100])
    page.evaluate(FRAMES)
    assert page.evaluate(COUNTED)["bk"] > 0
    tab.assert_offline()
    tab.assert_no_errors()
