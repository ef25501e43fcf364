"""?embed=1 fits each plate to its iframe, from 480×320 to 1920×1080, without breaking drags.

A host page holds one iframe per plate at a given size (the exported site's pages, from disk).
Inside every frame nothing scrolls; in the lookup plate's frame a real mouse drag at the
smallest and the largest size puts the query under the pointer, with attention_core's numbers.
"""

from __future__ import annotations

import math

import pytest

from app.plates import registry
from app.shared.formatting import fix
from helpers import assert_matches_core, changed, core_from_query, drag, query_xy, read_state, to_page_xy, wait_ready
from test_site_deck import InFrame

pytestmark = pytest.mark.browser

SIZES = [(480, 320), (1024, 768), (1920, 1080)]
FITTED = ("([w, h]) => window.AEPage && AEPage.fit_state && AEPage.fit_state.fitted === true && "
          "AEPage.fit_state.size && AEPage.fit_state.size[0] === w && AEPage.fit_state.size[1] === h")
SCROLL = r"""() => {
  const h = document.documentElement;
  return {sw: h.scrollWidth, cw: h.clientWidth, sh: h.scrollHeight, ch: h.clientHeight, k: AEPage.fit_state.k};
}"""
# Every legend whose box passes its figure's edge (issue 43, 3: the lookup's output legend was
# cut at "outp" in a 960×540 frame, its glyphs and gaps kept at full size as the type shrank).
LEGENDS_CUT = r"""() => {
  const out = [];
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure" || !m.visible) continue;
    const v = Bokeh.index.find_one(m);
    for (const lg of [].concat(m.center, m.below, m.above, m.left, m.right)) {
      if (!lg || lg.type !== "Legend" || !lg.visible) continue;
      const b = Bokeh.index.find_one(lg).bbox;
      if (b.left < -0.5 || b.top < -0.5 || b.right > v.bbox.width + 0.5 || b.bottom > v.bbox.height + 0.5)
        out.push([m.name, Math.round(b.left), Math.round(b.right), Math.round(v.bbox.width)]);
    }
  }
  return out;
}"""
HOST = ("<!doctype html><html><head><meta charset='utf-8'><title>host</title></head><body style='margin:0'>"
        "<iframe id='plate' title='plate' src='{src}' style='width:{w}px;height:{h}px;border:0;display:block'>"
        "</iframe></body></html>")


def drag_and_check(page, frame, width: int, target: tuple[float, float]) -> None:
    """A real mouse drag of the query inside the frame: it ends under the pointer, with the numbers
    (models and shown text) of attention_core."""
    view = InFrame(page, frame, "#plate")
    wait_ready(view)
    before = read_state(view)
    start = view.to_top(to_page_xy(view, "vectors", *query_xy(view)))
    end = view.to_top(to_page_xy(view, "vectors", *target))
    drag(view, start, end, steps=10)
    st = read_state(view)
    x, y = st["query"]["x"][0], st["query"]["y"][0]
    # Let go at `target`: allow two pixels, in data units (the plot spans 11.2 units).
    px = frame.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('vectors')).frame.bbox.width")
    assert math.hypot(x - target[0], y - target[1]) <= max(2 * 11.2 / px, 0.05), (width, px, x, y, target)
    assert changed(st["weights"]["weight"], before["weights"]["weight"])
    core = core_from_query(x, y)
    assert_matches_core(st, core)
    assert "output = " + fix(float(core.steps().output), 2) in st["readout_dom"]


# The draggable plates at every size; the others at the smallest, where scrolling would start
# (the whole set at three sizes costs minutes of browser time on a busy 2-core machine).
SIZES_FOR = {slug: SIZES if slug in ("lookup", "worked", "scaling") else SIZES[:1] for slug in registry.slugs()}


@pytest.mark.parametrize("slug", registry.slugs())
def test_plate_fits_its_frame(new_tab, exported_site, tmp_path, slug):
    sizes = SIZES_FOR[slug]
    w0, h0 = SIZES[0]
    host = tmp_path / "host.html"
    host.write_text(HOST.format(src=(exported_site / f"{slug}.html").as_uri() + "?embed=1", w=w0, h=h0), encoding="utf-8")
    tab = new_tab(viewport={"width": 1960, "height": 1120})
    page = tab.page
    page.goto(host.as_uri(), wait_until="load", timeout=120_000)  # "load" waits for the frame's page too
    frame = page.main_frame.child_frames[0]
    ks = []
    for w, h in sizes:  # one load, then the frame is resized: page.js fits again
        page.evaluate("([w, h]) => { const f = document.getElementById('plate'); f.style.width = w + 'px'; "
                      "f.style.height = h + 'px'; }", [w, h])
        frame.wait_for_function(FITTED, arg=[w, h], timeout=60_000)
        m = frame.evaluate(SCROLL)
        assert (m["cw"], m["ch"]) == (w, h), m
        assert m["sw"] <= m["cw"] and m["sh"] <= m["ch"], f"{slug} scrolls in a {w}×{h} frame: {m}"
        cut = frame.evaluate(LEGENDS_CUT)
        assert not cut, f"{slug}: legends cut off by their figure in a {w}×{h} frame: {cut}"
        ks.append(m["k"])
        if slug == "lookup" and (w, h) in (SIZES[0], SIZES[-1]):
            drag_and_check(page, frame, w, (-1.5, 2.0) if w == SIZES[0][0] else (2.5, -1.0))
    # Resized, not clipped: the small frame shrinks the plate, and each larger frame gives it more room.
    assert ks[0] < 0.8 and ks == sorted(ks) and len(set(ks)) == len(ks), ks
    if len(ks) == 3:
        assert ks[-1] > 1.1, ks  # these three plates grow in a 1920×1080 frame
    tab.assert_no_errors()
