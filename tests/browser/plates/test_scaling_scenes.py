"""The scaling plate's defects seen on a projector (issue 55, §3), held in every size it shows:
the plain page, and the present page and the slide frame that show its scenes.

- "Var(q_c k_c)": k's subscript c is a real subscript (an <msub>) and is drawn lowered below
  k's baseline, as q's is; so are the formulas' other subscripts.
- The flat-line chart's labels (the weights at the chosen width) never sit on a line: every text
  the chart draws in its frame is clear of its six curves and of the dotted line at the width,
  at every width, raw and divided by √d_k. Read from the figure's own SVG drawing (Bokeh's
  export, as tests/browser/text_boxes.js reads a figure's text).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from app.plates import registry
from app.plates.scaling.data import ITEM_COLORS
from app.plates.scaling.formulas import ENTROPY, JACOBIAN, VARIANCE
from app.shared.theme import PALETTE
from test_scenes import ROOMS as SCENE_ROOMS
from test_scenes import SETTLED as SCENE_SETTLED
from test_scenes import check_scene

pytestmark = pytest.mark.browser

# (name, viewport, page settings): the plain page, the scene on a present page, a slide frame.
ROOMS = [
    ("page-1280", (1280, 720), ""),
    ("present-1280", (1280, 720), "present=1"),
    ("slide-960", (960, 540), "embed=1&present=1"),
]
# Letters that reach below the baseline (and the ∑, which hangs on the math axis): a base made of
# others ends at its baseline.
DESCENDERS = set("gjpqyβγζημξρφχψ∑")
LOWERED_EM = 0.18  # a script's foot this far below its base's baseline, in the base's font size
SETTLED = ("() => window.AEPage && (!window.AEScenes || !AEScenes.current()"
           " || (AEPage.fit_state && AEPage.fit_state.settled))")


def open_room(new_tab, exports, room, scene: str | None = None):
    _, (w, h), settings = room
    tab = new_tab(viewport={"width": w, "height": h})
    query = "&".join(x for x in (settings, f"scene={scene}" if scene and settings else "") if x)
    tab.page.goto((exports("on") / "scaling.html").as_uri() + ("?" + query if query else ""))
    tab.page.wait_for_function("() => window.Bokeh && Bokeh.documents.length"
                               " && Bokeh.documents[0].get_model_by_name('flat_plot')", timeout=30_000)
    tab.page.wait_for_function(SETTLED, timeout=30_000)
    return tab


# --- Var(q_c k_c) -----------------------------------------------------------------------------
def msubs(mathml: str) -> list[tuple[str, str]]:
    """(base, script) text of every <msub> of a formula's MathML."""
    root = ET.fromstring(f"<math>{mathml}</math>")
    return [("".join(m[0].itertext()), "".join(m[1].itertext())) for m in root.iter("msub")]


def test_the_variance_formula_writes_each_subscript_as_an_msub():
    subs = msubs(VARIANCE)
    assert ("q", "c") in subs and ("k", "c") in subs, subs
    # No script written inline as a letter of its own after its base ("k" then "c" in one row).
    root = ET.fromstring(f"<math>{VARIANCE}</math>")
    for row in root.iter("mrow"):
        kids = list(row)
        for a, b in zip(kids, kids[1:]):
            assert not (a.tag == "mi" and a.text == "k" and b.tag == "mi" and b.text == "c"), "k c set inline"
    assert msubs(JACOBIAN) and msubs(ENTROPY)


# Every <msub> in the plate's formulas that is on screen: its base's and script's boxes (MathML
# token boxes are the glyphs' ink) and its font size.
SUBSCRIPTS = r"""() => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.tagName.toLowerCase() !== "msub") continue;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const b = el.children[0].getBoundingClientRect(), s = el.children[1].getBoundingClientRect();
      out.push({base: el.children[0].textContent.trim(), script: el.children[1].textContent.trim(),
                px: parseFloat(getComputedStyle(el).fontSize), base_bottom: b.bottom, script_bottom: s.bottom,
                font: getComputedStyle(el).fontFamily});
    }
  };
  walk(document);
  return out;
}"""


@pytest.mark.parametrize("room", ROOMS, ids=[r[0] for r in ROOMS])
def test_subscripts_are_drawn_below_their_base(new_tab, exports, room):
    tab = open_room(new_tab, exports, room, scene="spread")
    subs = tab.page.evaluate(SUBSCRIPTS)
    assert any(s["base"] == "k" and s["script"] == "c" for s in subs), f"k_c is not on screen in {room[0]}: {subs}"
    flat = []
    for s in subs:
        if DESCENDERS & set(s["base"]):
            continue  # its box reaches below the baseline: the baseline is not its bottom
        drop = (s["script_bottom"] - s["base_bottom"]) / s["px"]
        if drop < LOWERED_EM:
            flat.append(f"{s['base']}_{s['script']}: its script's foot {drop:.2f} em below the base's baseline "
                        f"({s['px']:.1f} px, {s['font']})")
    assert not flat, f"{room[0]}: subscripts set almost inline (want {LOWERED_EM} em or more): {flat}"
    tab.assert_no_errors()


# --- the flat-line chart's labels ----------------------------------------------------------
# The figure drawn by Bokeh's SVG export, laid over the figure: every <text> with its box, and
# every stroked path (a line) as points along it, in the page's pixels, with its stroke colour.
# Sent as one JSON string: some 14,000 points as Playwright's own values took 1.8 s a call, as
# JSON 0.1 s.
FIGURE_DRAWING = r"""(name) => JSON.stringify((() => {
  const m = Bokeh.documents[0].get_model_by_name(name), v = Bokeh.index.find_one(m);
  const fb = v.el.getBoundingClientRect();
  const svg_text = v.export("svg").ctx.get_serialized_svg(true);
  const svg = document.importNode(new DOMParser().parseFromString(svg_text, "image/svg+xml").documentElement, true);
  svg.style.cssText = `position:absolute;left:${fb.left + window.scrollX}px;top:${fb.top + window.scrollY}px;` +
    "overflow:visible;visibility:hidden";
  document.body.appendChild(svg);
  const texts = [], lines = [], seen = new Set();
  for (const t of svg.querySelectorAll("text")) {
    const r = t.getBoundingClientRect(), box = [r.left, r.top, r.right, r.bottom].map(Math.round);
    const key = t.textContent.trim() + "@" + box.join(",");  // drawn on both canvases (the overlay repeats it)
    if (t.textContent.trim() && !seen.has(key)) { seen.add(key); texts.push({text: t.textContent.trim(), box}); }
  }
  for (const p of svg.querySelectorAll("path")) {
    const stroke = (p.getAttribute("stroke") || "none").toLowerCase();
    if (stroke === "none" || !p.getAttribute("d")) continue;
    const n = p.getTotalLength(), ctm = p.getScreenCTM(), pts = [];
    for (let s = 0; s <= n; s += 1) {
      const q = p.getPointAtLength(s);
      pts.push([ctm.a * q.x + ctm.c * q.y + ctm.e, ctm.b * q.x + ctm.d * q.y + ctm.f]);
    }
    const xs = pts.map((q) => q[0]), ys = pts.map((q) => q[1]);
    lines.push({stroke, pts, span: Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys))});
  }
  svg.remove();
  const f = v.frame.bbox;
  return {texts, lines, frame: [fb.left + f.left, fb.top + f.top, fb.left + f.right, fb.top + f.bottom]};
})())"""
SET_WIDTH = """([e, scaled]) => { const d = Bokeh.documents[0];
  d.get_model_by_name("d_k").value = e; d.get_model_by_name("scaled").active = scaled ? [0] : []; }"""
SHOWN = """([d, scaled]) => { const d2 = Bokeh.documents[0], fc = d2.get_model_by_name("flat_current").data;
  return fc.d[0] === d && (d2.get_model_by_name("scaled").active.length > 0) === scaled; }"""
# The chart's lines: its six curves (the items' colours) and the width's dotted line (ink).
CURVES = {c.lower() for c in ITEM_COLORS}


def hex_of(colour: str) -> str:
    colour = colour.strip().lower()
    if colour.startswith("rgb"):
        r, g, b = (int(float(x)) for x in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])
        return f"#{r:02x}{g:02x}{b:02x}"
    return colour


def labels_on_lines(drawing: dict, kinds: set[str]) -> list[str]:
    """Texts inside the frame that a line of `kinds` (stroke colours) passes through."""
    left, top, right, bottom = drawing["frame"]
    out = []
    for t in drawing["texts"]:
        l, tp, r, b = t["box"]
        if r < left or l > right or b < top or tp > bottom:
            continue  # an axis's or the legend's text, outside the frame
        for line in drawing["lines"]:
            if hex_of(line["stroke"]) not in kinds or line["span"] < 30:
                continue  # a marker's outline, not a line
            hits = [p for p in line["pts"] if l + 1 < p[0] < r - 1 and tp + 1 < p[1] < b - 1]
            if hits:
                out.append(f"'{t['text']}' at {[round(x) for x in t['box']]} on the {line['stroke']} line "
                           f"(at {[round(x) for x in hits[0]]})")
    return out


@pytest.mark.parametrize("room", [ROOMS[0], ROOMS[2]], ids=[ROOMS[0][0], ROOMS[2][0]])  # the page, the smallest slide
def test_the_flat_line_charts_labels_sit_on_no_line(new_tab, exports, room):
    tab = open_room(new_tab, exports, room, scene="flat")
    page = tab.page
    problems = []
    for e in range(11):
        for scaled in (False, True):
            page.evaluate(SET_WIDTH, [e, scaled])
            page.wait_for_function(SHOWN, arg=[2 ** e, scaled])
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            drawing = json.loads(page.evaluate(FIGURE_DRAWING, "flat_plot"))
            labels = [t["text"] for t in drawing["texts"]]
            assert any(x for x in labels), "the chart draws no text"
            hits = labels_on_lines(drawing, CURVES | {PALETTE["ink"].lower()})
            problems += [f"d_k = {2 ** e}, {'scaled' if scaled else 'raw'}: {h}" for h in hits]
    assert not problems, f"{room[0]}: " + "\n".join(problems[:12])
    tab.assert_no_errors()


# Every scene read as tests/browser/test_scenes.py reads a plate's first view, at the widths'
# ends and between, raw and divided (at d_k = 1024 raw the first weight reads "1 − 1.3e-14").
# The first from the link; the others set in the open page, as a lecturer sets them, each scene
# then fitted again (the page loads once: a load costs as much as some ten changes of scene).
STATES = [(1, False), (1, True), (8, False), (1024, False), (1024, True)]


# The two smallest rooms, a slide's and a plain frame's: the larger ones scale the same type with
# the frame, and tests/browser/test_scenes.py reads every scene in them.
SMALL_ROOMS = [r for r in SCENE_ROOMS if r[0] in ("slide-960", "frame-960")]


@pytest.mark.parametrize("room", SMALL_ROOMS, ids=[r[0] for r in SMALL_ROOMS])
def test_every_scene_reads_at_every_width(new_tab, exports, room):
    name, width, height, settings, _, _ = room
    scenes = registry.plate_class("scaling").scenes
    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    problems = []
    d_k, scaled = STATES[0]
    page.goto((exports("on") / "scaling.html").as_uri() + f"?{settings}&d_k={d_k}&scaled={int(scaled)}")
    for k, (d_k, scaled) in enumerate(STATES):
        if k:  # set on the last scene: going to the first fits it again, and so on to the last
            page.evaluate(SET_WIDTH, [d_k.bit_length() - 1, scaled])
            page.wait_for_function(SHOWN, arg=[d_k, scaled])
        for i, scene in enumerate(scenes):
            if i or k:
                page.evaluate("(i) => AEScenes.go(i)", i)
            page.wait_for_function(SCENE_SETTLED, arg=i, timeout=20_000)
            problems += [f"d_k = {d_k}, scaled = {scaled}: {p}" for p in check_scene(page, "scaling", scene, room)]
    assert not problems, "\n".join(problems)
    tab.assert_no_errors()
