"""?embed=1 fits each plate's first scene to its iframe, from 480×320 to 1920×1080, without
breaking drags.

A host page holds one iframe per plate at a given size (the exported site's pages, from disk),
resized through the sizes. Inside every frame nothing scrolls, the type is 14 px or more and grows
with the frame (a frame too small for the whole scene shows fewer of its parts, never smaller
ones: app/runtime/scenes.js); in the lookup plate's frame a real mouse drag at a middle and the
largest size puts the query under the pointer, with attention_core's numbers. In a slide's frame
(960×540, 1200×610, 1280×720) every plate covers at least 85 % of the frame (or spans 95 % of its
height or width: a scene whose figure keeps its shape is as large as the frame lets it be) and every part of it is
inside (COVERAGE says how), and no text of a figure is cut off by it (TEXT_CUT). Every scene in
present mode: tests/browser/test_scenes.py.
"""

from __future__ import annotations

import math

import pytest

from app.plates import registry
from app.shared.scenes import PLAIN_MIN_PX, SLIDE_HEIGHT, SLIDE_WIDTH
from app.shared.formatting import fix
from helpers import assert_matches_core, changed, core_from_query, drag, query_xy, read_state, to_page_xy, wait_ready
from test_site_deck import InFrame

pytestmark = pytest.mark.browser

SIZES = [(480, 320), (1024, 768), (1920, 1080)]
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
# Every text a figure draws that its figure cuts off (issue 43, 3: with present=1 in a 960×540
# frame the lookup's "output 16.84" lost its top and its legend sat on the markers; the scaling
# plate's "Jacobian max" labels passed the top of their bar chart, and its std label, placed in
# screen pixels, was left above its shrunken frame). Each box is BokehJS's own: a LabelSet's text
# boxes (its TextBox, at the point plus the offsets, as LabelSetView paints them), a Label's or a
# title's laid-out rectangle, a legend's bbox. What is drawn in the frame (`center`) is clipped to
# the frame, so it lies inside the frame; a title or what sits in a side panel inside the figure's
# canvas. A legend in the frame covers none of the markers drawn in the frame (a scatter's points,
# each its size square). `n` counts the boxes measured, `in_frame` those drawn in a frame.
TEXT_CUT = r"""() => {
  const {TextBox} = Bokeh.require("core/graphics");
  const out = {n: 0, in_frame: 0, bad: []};
  const r = (b) => [b.left, b.top, b.right, b.bottom].map(x => Math.round(x * 10) / 10);
  const inside = (b, c) => b.left >= c.left - 0.5 && b.top >= c.top - 0.5 && b.right <= c.right + 0.5 && b.bottom <= c.bottom + 0.5;
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure" || !m.visible) continue;
    const v = Bokeh.index.find_one(m);
    if (!v || !v.el.isConnected || !(v.frame.bbox.width > 0)) continue;
    const fr = v.frame.bbox, canvas = {left: 0, top: 0, right: v.bbox.width, bottom: v.bbox.height};
    const boxes = [];  // [what, box, clip box, is a legend in the frame]
    const parts = [["title", m.title]].concat(...["center", "above", "below", "left", "right"].map(s => m[s].map(a => [s, a])));
    for (const [side, a] of parts) {
      if (!a || a.visible === false) continue;
      const av = Bokeh.index.find_one(a), clip = side === "center" ? fr : canvas;
      if (!av) continue;
      if (a.type === "LabelSet") {
        for (let i = 0; i < av.sx.length; i++) {
          const t = av.text.get(i);
          if (t == null || t === "" || !isFinite(av.sx[i] + av.sy[i])) continue;
          const g = new TextBox({text: `${t}`});
          g.angle = av.angle.get(i);
          g.position = {sx: av.sx[i] + av.x_offset.get(i), sy: av.sy[i] - av.y_offset.get(i)};
          g.visuals = av.visuals.text.values(i);
          boxes.push([`${m.name}: label '${t}'`, g.bbox(), clip, false]);
        }
      } else if ((a.type === "Label" || a.type === "Title") && av.displayed && av._rect) {
        const q = av._rect, left = q.sx - q.anchor.x * q.width, top = q.sy - q.anchor.y * q.height;
        boxes.push([`${m.name}: ${a.type.toLowerCase()} '${a.text}'`, {left, top, right: left + q.width, bottom: top + q.height}, clip, false]);
      } else if (a.type === "Legend" && a.items.length && av.bbox) {
        boxes.push([`${m.name}: legend`, av.bbox, clip, side === "center"]);
      }
    }
    for (const [what, b, clip, over_data] of boxes) {
      out.n += 1;
      if (clip === fr) out.in_frame += 1;
      if (!inside(b, clip)) out.bad.push([what, "cut", r(b), "in", r(clip)]);
      if (!over_data) continue;
      for (const rr of m.renderers) {
        if (!rr.visible || !rr.glyph || rr.glyph.type !== "Scatter") continue;
        const gv = Bokeh.index.find_one(rr)?.glyph;
        for (let i = 0; gv && i < gv.sx.length; i++) {
          const s = gv.size.get(i) / 2, x = gv.sx[i], y = gv.sy[i];
          if (!(x >= fr.left && x <= fr.right && y >= fr.top && y <= fr.bottom)) continue;  // a legend's stand-in
          if (meet(b, {left: x - s, right: x + s, top: y - s, bottom: y + s})) out.bad.push([what, "on a marker", r(b), "at", [x, y].map(Math.round)]);
        }
      }
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
# The smallest type the scene's fit set for this frame.
MIN_TYPE = "() => parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--ae-min-font'))"
# Issue 43, 3: a plate embedded in a slide fills its frame. The frames of a slide deck.
SLIDE_FRAMES = [(960, 540), (1200, 610), (1280, 720)]
SETTLED = ("([w, h]) => window.AEPage && AEPage.fit_state && AEPage.fit_state.settled === true && "
           "AEPage.fit_state.size && AEPage.fit_state.size[0] === w && AEPage.fit_state.size[1] === h")
# The plate's content boxes: every visible Bokeh view that is not a layout (Row, Column, GridBox,
# Tabs) nor part of a figure, i.e. figures, widgets and text boxes (Divs, tables, formulas), each
# its element's getBoundingClientRect() in the frame's viewport; and the text boxes whose own
# content (a table, a paragraph) passes their right edge.
COVERAGE = r"""() => {
  const W = document.documentElement.clientWidth, H = document.documentElement.clientHeight;
  const boxes = [], cut = [];
  for (const m of Bokeh.documents[0].all_models) {
    if (!("visible" in m) || m.visible === false || "children" in m || "tabs" in m) continue;
    if (/Spacer|Tooltip|Legend|Axis|Grid|Title|Renderer|Annotation|Label/.test(m.type)) continue;
    const v = Bokeh.index.find_one(m);
    if (!v || !v.el || !v.el.isConnected) continue;
    const r = v.el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) continue;
    boxes.push({name: m.name || m.type, l: r.left, t: r.top, r: r.right, b: r.bottom});
    // A text box's words and tables stay inside it (a table wider than its box would scroll in it).
    if (v.el.shadowRoot) for (const el of v.el.shadowRoot.querySelectorAll("table, p, span, div"))
      if (el.getBoundingClientRect().right > r.right + 1) { cut.push([m.name || m.type, Math.round(r.right), Math.round(el.getBoundingClientRect().right)]); break; }
  }
  const inside = (b) => b.l >= -1 && b.t >= -1 && b.r <= W + 1 && b.b <= H + 1;
  const l = Math.min(...boxes.map(b => b.l)), t = Math.min(...boxes.map(b => b.t));
  const r = Math.max(...boxes.map(b => b.r)), b = Math.max(...boxes.map(b => b.b));
  const h = document.documentElement;
  const sx = (Math.min(r, W) - Math.max(l, 0)) / W, sy = (Math.min(b, H) - Math.max(t, 0)) / H;
  return {cover: sx * sy, span: Math.max(sx, sy),
          outside: boxes.filter(b => !inside(b)).map(b => [b.name, Math.round(b.l), Math.round(b.t), Math.round(b.r), Math.round(b.b)]),
          cut, n: boxes.length, fitted: AEPage.fit_state.fitted, k: AEPage.fit_state.k,
          sw: h.scrollWidth, cw: h.clientWidth, sh: h.scrollHeight, ch: h.clientHeight};
}"""


# The figures on screen with a text TEXT_CUT measures (a title, a label, a legend): a small frame
# may show a scene's words alone, or a heat map whose only text is its cells'.
FIGURES_SHOWN = r"""() => Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure" && m.visible &&
  Bokeh.index.find_one(m) && Bokeh.index.find_one(m).el.getBoundingClientRect().width > 0 &&
  ((m.title && m.title.visible !== false && m.title.text) ||
   [].concat(m.center, m.below, m.above).some((a) => a && a.visible !== false && /^(LabelSet|Label|Legend)$/.test(a.type))))
  .map((m) => m.name)"""


def check_frame(frame, where: str, w: int, h: int) -> tuple[float, int]:
    """Once the plate in `frame` has fitted itself to w×h: it fitted, nothing scrolls, every
    content box lies inside the frame, every legend inside its figure and every text of a figure
    inside what clips it. Returns the coverage and how many texts drawn in a frame were measured."""
    frame.wait_for_function(SETTLED, arg=[w, h], timeout=60_000)
    m = frame.evaluate(COVERAGE)
    assert m["fitted"] and (m["cw"], m["ch"]) == (w, h), (where, m)
    assert m["sw"] <= m["cw"] and m["sh"] <= m["ch"], f"{where} scrolls: {m}"
    assert not m["outside"], f"{where}: parts outside the frame: {m['outside']}"
    assert not m["cut"], f"{where}: text passing the edge of its box: {m['cut']}"
    cut = frame.evaluate(LEGENDS_CUT)
    assert not cut, f"{where}: legends cut off by their figure: {cut}"
    text = frame.evaluate(TEXT_CUT)
    figures = frame.evaluate(FIGURES_SHOWN)
    assert text["n"] > 0 or not figures, f"{where}: no figure text measured among {figures}: {text}"
    assert not text["bad"], f"{where}: text cut off by its figure, or a legend on the data: {text['bad']}"
    return (m["cover"], m["span"]), text["in_frame"]


@pytest.mark.parametrize("slug", registry.slugs())
def test_plate_fits_its_frame(new_tab, exported_site, tmp_path, slug):
    """Each plate loaded once, its frame resized from the smallest size to the largest: it fits
    every one, and in a slide's frame (SLIDE_FRAMES) it covers at least 85 % of it, or spans 95 % of
    its height or its width (two heads' square maps cannot fill a 1200×610 frame).

    Coverage: the smallest rectangle that holds the union of the plate's visible content boxes
    (the getBoundingClientRect() of every visible Bokeh view that is a figure, a widget or a text
    box, not a layout nor a part of a figure), cut to the frame, as a share of the frame's area.
    A plate whose shape is not the frame's used to shrink to a column in its middle (28-44 % for
    multi-head). Fitting means: nothing scrolls, every content box lies inside the frame (1 px of
    rounding), a text box's tables and words inside the box, a legend inside its figure, and every
    text a figure draws inside what clips it (TEXT_CUT)."""
    sizes = sorted(set(SIZES_FOR[slug]) | set(SLIDE_FRAMES), key=lambda s: s[0] * s[1])
    w0, h0 = sizes[0]
    drag_sizes = (SIZES[1], SIZES[-1])  # the smallest frame shows the scene's main part alone
    host = tmp_path / "host.html"
    host.write_text(HOST.format(src=(exported_site / f"{slug}.html").as_uri() + "?embed=1", w=w0, h=h0), encoding="utf-8")
    tab = new_tab(viewport={"width": 1960, "height": 1120})
    page = tab.page
    page.goto(host.as_uri(), wait_until="load", timeout=120_000)  # "load" waits for the frame's page too
    frame = page.main_frame.child_frames[0]
    types, low = [], []
    for w, h in sizes:  # one load, then the frame is resized: page.js fits again
        page.evaluate("([w, h]) => { const f = document.getElementById('plate'); f.style.width = w + 'px'; "
                      "f.style.height = h + 'px'; }", [w, h])
        (cover, span), _ = check_frame(frame, f"{slug} in a {w}×{h} frame", w, h)
        if (w, h) in SLIDE_FRAMES and cover < 0.85 and span < 0.95:
            low.append((w, h, round(cover, 3), round(span, 3)))
        types.append(frame.evaluate(MIN_TYPE))
        if slug == "lookup" and (w, h) in drag_sizes:
            drag_and_check(page, frame, w, (-1.5, 2.0) if (w, h) == drag_sizes[0] else (2.5, -1.0))
    assert not low, f"{slug} covers less than 85 % of these slide frames, nor spans their height or width: {low}"
    # Resized, never shrunk below the plain page's type: 14 px at a 960×540 slide or smaller, and
    # growing with the frame as a slide does (its height, or its width when narrower than 16:9).
    want = [max(PLAIN_MIN_PX, PLAIN_MIN_PX * min(w / SLIDE_WIDTH, h / SLIDE_HEIGHT)) for w, h in sizes]
    assert all(abs(t - x) < 0.1 for t, x in zip(types, want)), (sizes, types, want)
    tab.assert_no_errors()
