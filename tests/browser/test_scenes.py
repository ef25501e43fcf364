"""Every scene of every plate reads from the back of a hall (issue 55, 1 and 2).

Each plate of the registry is opened, exported (no server), and steps through its scenes in the
page (AEScenes.go) in each room; after each scene's fit:
- nothing scrolls;
- no text is under the room's smallest size, read from the page (the DOM's text, through Bokeh's
  shadow roots) and from the figures (every <text> of Bokeh's own SVG drawing of each figure,
  and the figures' models' font sizes);
- the scene's main numbers are at the main size or more (a main figure's text in its frame, a
  main Div's text);
- no two texts overlap, and no figure's text is cut off by its figure or its frame;
- every part the scene names is on screen, and no other part of the plate is;
- no slider's handle (as large as the type) reaches up into its title.
The rooms: a 960×540 slide frame in present mode, the same page resized to 1280×720 while open
(back through the scenes), and a present page at 1280×720 (with its scene bar), resized to
1920×1080 at the end: the same scene, every text 1.5 times as large. In the present room the
first scene is also audited by axe-core with the rules presentation mode can change
(tests/browser/test_axe.py's PRESENT), in the same load. An embedded frame without
present mode (type 14 px or more) is held by tests/browser/test_embed_fit.py. Then a present page
steps through its scenes with the presenter's keys, and the state carries over.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.plates import registry
from app.shared import scenes as rules
from helpers import angle_slider_handle, assert_matches_core, core_state, read_state
from test_axe import PRESENT, READY as AXE_READY, axe_source, violations  # noqa: F401 (axe_source: the fixture)

pytestmark = pytest.mark.browser

TEXT_BOXES = (Path(__file__).parent / "text_boxes.js").read_text(encoding="utf-8")
# A room: (name, width, height, smallest text, main numbers) in CSS pixels; a page is opened with
# its settings in its first room and resized into the next.
SLIDE_960 = ("slide-960", 960, 540, rules.MIN_PX, rules.MAIN_PX)
SLIDE_1280 = ("slide-1280", 1280, 720, rules.MIN_PX * 720 / 540, rules.MAIN_PX * 720 / 540)
PRESENT_1280 = ("present-1280", 1280, 720, rules.MIN_PX * 720 / 540, rules.MAIN_PX * 720 / 540)
PAGES = {"slide": ("embed=1&present=1", [SLIDE_960, SLIDE_1280]), "present": ("present=1", [PRESENT_1280])}
# The same rooms with the settings a page is opened with, for the plates' own scene tests
# (tests/browser/plates/test_*_scenes.py), and a 960×540 frame without present mode.
ROOMS = [
    (SLIDE_960[0], *SLIDE_960[1:3], "embed=1&present=1", *SLIDE_960[3:]),
    (SLIDE_1280[0], *SLIDE_1280[1:3], "embed=1&present=1", *SLIDE_1280[3:]),
    (PRESENT_1280[0], *PRESENT_1280[1:3], "present=1", *PRESENT_1280[3:]),
    ("frame-960", 960, 540, "embed=1", rules.PLAIN_MIN_PX, None),
]
TOL = 0.5  # px: rounding of sizes and boxes
# The font sizes of every shown figure's text, from its models (a title, axes, legends, labels,
# text glyphs), with the figure's name: [[figure, what, px]].
MODEL_FONTS = r"""() => {
  const out = [];
  const px = (v) => { const s = v && typeof v === "object" ? v.value : v; const m = /^([\d.]+)(px|pt)$/.exec(String(s || ""));
                      return m ? parseFloat(m[1]) * (m[2] === "pt" ? 4 / 3 : 1) : null; };
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure" || !m.visible) continue;
    const v = Bokeh.index.find_one(m);
    if (!v || !v.el.isConnected || v.el.getBoundingClientRect().width < 1) continue;
    if (m.title && m.title.text) out.push([m.name, "title", px(m.title.text_font_size)]);
    for (const side of ["below", "above", "left", "right"]) for (const a of m[side]) {
      if (!a.visible) continue;
      if ("major_label_text_font_size" in a.properties) out.push([m.name, "axis numbers", px(a.major_label_text_font_size)]);
      if (a.axis_label) out.push([m.name, "axis name", px(a.axis_label_text_font_size)]);
    }
    for (const a of [].concat(m.center, m.below, m.above)) {
      if (!a || a.visible === false) continue;
      if (a.type === "Legend" && a.items.length) out.push([m.name, "legend", px(a.label_text_font_size)]);
      if (a.type === "LabelSet" || a.type === "Label") out.push([m.name, a.type, px(a.text_font_size)]);
    }
    for (const r of m.renderers) if (r.visible && r.glyph && "text_font_size" in r.glyph.properties) out.push([m.name, "text", px(r.glyph.text_font_size)]);
  }
  return out.filter((x) => x[2] != null);
}"""
# Which of the plate's parts are on screen: {name: shown}.
PARTS_SHOWN = r"""(names) => {
  const out = {};
  for (const name of names) {
    const ms = Bokeh.documents[0].all_models.filter ? [] : [];
    let shown = false;
    for (const m of Bokeh.documents[0].all_models) {
      if (m.name !== name) continue;
      const v = Bokeh.index.find_one(m);
      const r = v && v.el && v.el.isConnected ? v.el.getBoundingClientRect() : null;
      if (m.visible !== false && r && r.width > 0 && r.height > 0) shown = true;
    }
    out[name] = shown;
  }
  return out;
}"""
SETTLED = "(i) => window.AEScenes && AEScenes.current() && AEScenes.current().index === i && AEPage.fit_state && AEPage.fit_state.settled"
# The same, once the fit is for a frame of w × h (a resized page fits again).
SETTLED_AT = ("([i, w, h]) => window.AEScenes && AEScenes.current() && AEScenes.current().index === i && "
              "AEPage.fit_state && AEPage.fit_state.settled && AEPage.fit_state.size && "
              "AEPage.fit_state.size[0] === w && AEPage.fit_state.size[1] === h")


# Each slider whose handle (sized to the scene's type) reaches up into its title's line: [name,
# the title's bottom, the handle's top].
HANDLES_ON_TITLES = r"""() => {
  const out = [];
  for (const m of Bokeh.documents[0].all_models) {
    if (!/Slider$/.test(m.type) || m.visible === false) continue;
    const v = Bokeh.index.find_one(m), root = v && v.el && v.el.shadowRoot;
    const t = root && root.querySelector(".bk-slider-title");
    if (!t || !(t.getBoundingClientRect().width > 0)) continue;
    const tb = t.getBoundingClientRect();
    for (const h of root.querySelectorAll(".noUi-handle")) {
      const hb = h.getBoundingClientRect();
      if (hb.width > 0 && hb.top < tb.bottom - 1) out.push([m.name, Math.round(tb.bottom), Math.round(hb.top)]);
    }
  }
  return out;
}"""


def overlaps(texts: list[dict]) -> list[str]:
    out = []
    for a_i, a in enumerate(texts):
        for b in texts[a_i + 1:]:
            if a["id"] == b["id"]:
                continue
            (l1, t1, r1, b1), (l2, t2, r2, b2) = a["box"], b["box"]
            w, h = min(r1, r2) - max(l1, l2), min(b1, b2) - max(t1, t2)
            if w > 1.5 and h > 1.5:  # more than rounding
                out.append(f"'{a['text'][:30]}' ({a['where']}) and '{b['text'][:30]}' ({b['where']}) by {w:.0f}×{h:.0f} px")
    return out


def cut(texts: list[dict], width: int, height: int) -> list[str]:
    out = []
    for t in texts:
        left, top, right, bottom = t["box"]
        clip = t["clip"] or [0, 0, width, height]
        # A text's box is its line's (the font's ascent to descent), which passes the letters' ink by
        # up to about a sixth of the size above and below; across, a pixel or two.
        down = max(2.0, 0.16 * t["px"])
        if left < clip[0] - 2 or top < clip[1] - down or right > clip[2] + 2 or bottom > clip[3] + down:
            out.append(f"'{t['text'][:30]}' ({t['where']}) at {t['box']} outside {clip}")
    return out


def check_scene(page, slug: str, scene, room) -> list[str]:
    name, width, height, min_px, main_px = *room[:3], *room[-2:]  # a room of PAGES or of ROOMS
    problems = []
    where = f"{slug} scene '{scene.name}' in {name}"
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    if scroll[0] > width or scroll[1] > height:
        problems.append(f"{where}: the page scrolls ({scroll[0]}×{scroll[1]} in {width}×{height})")
    found = page.evaluate(TEXT_BOXES)
    texts = found["texts"]
    small = sorted({(round(t["px"], 1), t["text"][:30], t["where"]) for t in texts if t["px"] < min_px - TOL})
    if small:
        problems.append(f"{where}: text under {min_px:.1f} px: {small[:6]}")
    fonts = page.evaluate(MODEL_FONTS)
    small_models = [f for f in fonts if f[2] < min_px - TOL]
    if small_models:
        problems.append(f"{where}: figure models with type under {min_px:.1f} px: {small_models[:6]}")
    if main_px is not None:
        for part in scene.main:
            mine = [t for t in texts if t.get("part") == part and (t["kind"] == "dom" or t.get("in_frame"))]
            if not mine:
                problems.append(f"{where}: main part '{part}' shows no text")
            low = sorted({(round(t["px"], 1), t["text"][:20]) for t in mine if t["px"] < main_px - TOL})
            if low:
                problems.append(f"{where}: main numbers of '{part}' under {main_px:.1f} px: {low[:6]}")
    over = overlaps(texts)
    if over:
        problems.append(f"{where}: texts overlap: {over[:6]}")
    cuts = cut(texts, width, height)
    if cuts:
        problems.append(f"{where}: text cut off: {cuts[:6]}")
    shown = page.evaluate(PARTS_SHOWN, list(scene.parts))
    missing = [p for p, on in shown.items() if not on]
    if missing:
        problems.append(f"{where}: parts not on screen: {missing}")
    handles = page.evaluate(HANDLES_ON_TITLES)
    if handles:
        problems.append(f"{where}: slider handles over their titles [name, title's bottom, handle's top]: {handles}")
    return problems


PLATES = [s for s in registry.slugs()]


def largest_sizes(page) -> dict[str, float]:
    """Each text the page shows, at the largest size it is drawn (a text may be drawn twice)."""
    sizes: dict[str, float] = {}
    for t in page.evaluate(TEXT_BOXES)["texts"]:
        sizes[t["text"]] = max(sizes.get(t["text"], 0.0), t["px"])
    return sizes


def same_scene_larger(small: dict, large: dict, factor: float) -> list[str]:
    """What differs between a scene's texts at two sizes of its frame, beyond the type's factor."""
    if set(small) != set(large):
        return [f"texts only in the smaller frame {sorted(set(small) - set(large))[:5]}, "
                f"only in the larger {sorted(set(large) - set(small))[:5]}"]
    off = [(t, small[t], large[t]) for t in small if abs(large[t] / small[t] - factor) > 0.08]
    return [f"texts not {factor} times as large: {off[:5]}"] if off else []


@pytest.mark.parametrize("kind", list(PAGES))
@pytest.mark.parametrize("slug", PLATES)
def test_every_scene_reads_in_the_room(new_tab, exports, slug, kind, request):
    scenes = registry.plate_class(slug).scenes
    assert len(scenes) >= 2, f"{slug} declares {len(scenes)} scene(s); a plate has two or more"
    settings, rooms = PAGES[kind]
    no_axe = ""
    tab = new_tab(viewport={"width": rooms[0][1], "height": rooms[0][2]})
    page = tab.page
    page.goto((exports("on") / f"{slug}.html").as_uri() + "?" + settings)
    problems, order = [], list(range(len(scenes)))
    for r, room in enumerate(rooms):
        if r:  # the page resized while open: the scene on screen is fitted again, then the others
            page.set_viewport_size({"width": room[1], "height": room[2]})
            order = order[::-1]
        for k, i in enumerate(order):
            if k or r == 0 and i:
                page.evaluate("(i) => AEScenes.go(i)", i)
            page.wait_for_function(SETTLED_AT, arg=[i, room[1], room[2]], timeout=20_000)
            problems += check_scene(page, slug, scenes[i], room)
            if kind == "present" and k == 0:  # the accessibility audit of presentation mode
                try:
                    axe = request.getfixturevalue("axe_source")
                except pytest.skip.Exception as exc:  # no axe-core (no npm): the scenes are still checked
                    no_axe = str(exc)
                else:
                    page.wait_for_function(AXE_READY, timeout=20_000)  # as test_axe.py audits a page
                    problems += [f"{slug} ?present=1, axe: {v}" for v in violations(page, axe, PRESENT)]
    if kind == "present":  # a larger present page: the same scene, larger
        i, before = order[-1], largest_sizes(page)
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.wait_for_function(SETTLED_AT, arg=[i, 1920, 1080], timeout=20_000)
        problems += [f"{slug} scene '{scenes[i].name}' at 1920×1080: {p}"
                     for p in same_scene_larger(before, largest_sizes(page), 1.5)]
    tab.assert_no_errors()
    assert not problems, "\n".join(problems)
    if no_axe:
        pytest.skip(f"the scenes read in the room; the axe audit of ?present=1 could not run: {no_axe}")


# Takes the focus out of whatever has it, through the shadow roots it sits in.
BLUR = """() => { let a = document.activeElement; const chain = [];
  while (a) { chain.push(a); a = a.shadowRoot ? a.shadowRoot.activeElement : null; }
  chain.reverse().forEach((e) => e.blur()); }"""


def scene_now(page) -> dict:
    return page.evaluate("() => AEScenes.current()")


def test_present_page_steps_through_the_scenes_with_the_presenters_keys(new_tab, exports):
    """PageDown / PageUp (a clicker), the arrow keys, Home and End step through the scenes when no
    control has the focus; a focused slider keeps its arrow keys; the bar's buttons step too; the
    address follows the scene; what the student set in one scene is the state of the next."""
    scenes = registry.plate_class("lookup").scenes
    tab = new_tab(viewport={"width": 1280, "height": 720})
    page = tab.page
    page.goto((exports("on") / "lookup.html").as_uri() + "?present=1")
    page.wait_for_function(SETTLED, arg=0, timeout=20_000)
    handle = angle_slider_handle(page)
    handle.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")  # the slider's own key, not the presenter's
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('angle').value === 45")
    assert scene_now(page)["index"] == 0
    page.evaluate(BLUR)  # the presenter's keys are the page's again
    page.keyboard.press("PageDown")
    page.wait_for_function(SETTLED, arg=1, timeout=20_000)
    page.wait_for_function(f"() => new URLSearchParams(window.location.search).get('scene') === '{scenes[1].name}'")
    st = read_state(page)
    assert st["angle"] == 45
    assert_matches_core(st, core_state(angle=45.0))
    for key, want in (("ArrowRight", 2), ("ArrowDown", 3), ("PageUp", 2), ("End", len(scenes) - 1),
                      ("PageDown", len(scenes) - 1), ("Home", 0), ("ArrowLeft", 0)):
        page.keyboard.press(key)
        page.wait_for_function(SETTLED, arg=want, timeout=20_000)
    page.get_by_role("button", name="Next scene").click()
    page.wait_for_function(SETTLED, arg=1, timeout=20_000)
    page.get_by_role("button", name="Previous scene").click()
    page.wait_for_function(SETTLED, arg=0, timeout=20_000)
    page.wait_for_function(f"() => new URLSearchParams(window.location.search).get('scene') === '{scenes[0].name}'")
    tab.assert_no_errors()


def test_embedded_frame_leaves_the_keys_to_the_deck(new_tab, exports):
    """In an embedded scene PageDown is not the page's: the scene stays, the key goes to the deck."""
    tab = new_tab(viewport={"width": 960, "height": 540})
    page = tab.page
    page.goto((exports("on") / "lookup.html").as_uri() + "?present=1&embed=1&scene=output")
    page.wait_for_function(SETTLED, arg=1, timeout=20_000)
    page.keyboard.press("PageDown")
    page.keyboard.press("ArrowRight")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert scene_now(page)["name"] == "output"
    tab.assert_no_errors()


def test_copy_embed_code_gives_the_scene_on_screen_in_present_mode(new_tab, exports):
    tab = new_tab(viewport={"width": 1280, "height": 720})
    tab.page.add_init_script("navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));")
    page = tab.page
    page.goto((exports("on") / "lookup.html").as_uri() + "?present=1&scene=width&angle=90")
    page.wait_for_function(SETTLED, arg=3, timeout=20_000)
    page.get_by_role("button", name="Copy embed code").click()
    field = page.get_by_role("textbox", name="Embed code for this state (copy it)")
    code = field.input_value()
    assert 'width="960" height="540"' in code, code
    for part in ("embed=1", "present=1", "scene=width", "angle=90"):
        assert part in code, (part, code)
    tab.assert_no_errors()
