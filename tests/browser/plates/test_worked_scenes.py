"""The worked plate on a projector (issue 55, §3): what a lecturer saw with present=1 at 1280×720
and 1366×768, held in the present pages and the slide frame that show its scenes.

- The Example menu shows the whole of the example it names, for every example. A <select>'s
  shown text is not a DOM text node (tests/browser/text_boxes.js does not see it): it is measured
  here, the selected option's text at the select's computed font against the select's content
  width.
- Every control sits beside what it changes (the text boxes and the menu beside the table or
  what the page says of the guesses, the Step strip over its note and table, the length slider
  beside its curve), on the screen: the inputs were about 1,300 px below the table they change.
- The table's "e^scaled" column header sits on its column: its text ends where its cells' text
  ends, and each of its lines sits on a line of the header row (the superscript, which present
  mode sets at full size, floated between them).
"""

from __future__ import annotations

import pytest

from app.plates import registry
from app.plates.worked.presets import PRESETS
from test_scenes import ROOMS as SCENE_ROOMS
from test_scenes import SETTLED as SCENE_SETTLED
from test_scenes import check_scene

pytestmark = pytest.mark.browser

# (name, viewport, page settings)
PRESENT_ROOMS = [
    ("present-1280", (1280, 720), "present=1"),
    ("present-1366", (1366, 768), "present=1"),
    ("slide-960", (960, 540), "embed=1&present=1"),
]
SCENES = registry.plate_class("worked").scenes
# What each control changes: it sits beside one of these.
# (The example's numbers also decide what the page says of the guesses: who wins, the output.)
CHANGES = {
    **dict.fromkeys(("preset", "restore"),
                    ("worked_table_view", "output_view", "feedback", "query_text", "keys_text", "values_text")),
    **dict.fromkeys(("query_text", "keys_text", "values_text"), ("worked_table_view", "output_view", "feedback")),
    "scaled": ("worked_table_view", "output_view"),
    **dict.fromkeys(("stage", "step_back", "step_next"), ("stage_note", "worked_table_view", "output_view")),
    "length": ("sweep_plot", "keys_plot"),
    **dict.fromkeys(("guess_key", "guess_output"), ("feedback", "guess_error")),
}
# The page is laid out for its room: a scene's fit has settled; a present page without scenes has
# made room for its larger type; a frame without scenes has been fitted.
SETTLED = r"""() => {
  if (!window.AEPage || !window.Bokeh || !Bokeh.documents.length || !Bokeh.documents[0].is_idle) return false;
  const p = new URLSearchParams(location.search);
  if (window.AEScenes && AEScenes.current()) return !!(AEPage.fit_state && AEPage.fit_state.settled);
  if (p.get("embed") === "1") return !!(AEPage.fit_state && AEPage.fit_state.settled);
  return p.get("present") !== "1" || AEPage.present_fitted === true;
}"""
GO = "(i) => AEScenes.go(i)"
ON_SCENE = "(i) => AEScenes.current().index === i && AEPage.fit_state.settled"


def open_room(new_tab, exports, size, settings):
    w, h = size
    tab = new_tab(viewport={"width": w, "height": h})
    tab.page.goto((exports("on") / "worked.html").as_uri() + ("?" + settings if settings else ""))
    tab.page.wait_for_function(SETTLED, timeout=30_000)
    return tab


def each_view(page, want=None):
    """Go to each scene (`want`: the parts a scene must show to be visited) and yield its name; on a
    page that shows no scenes, yield None once: the page as it is."""
    if not page.evaluate("() => !!(window.AEScenes && AEScenes.current())"):
        yield None
        return
    for i, scene in enumerate(SCENES):
        if want and not set(want) & set(scene.parts):
            continue
        page.evaluate(GO, i)
        page.wait_for_function(ON_SCENE, arg=i, timeout=20_000)
        yield scene.name


# The boxes of the named models on screen: {name: [left, top, right, bottom]}.
BOXES = r"""(names) => {
  const out = {};
  for (const name of names) {
    const m = Bokeh.documents[0].get_model_by_name(name);
    const v = m && Bokeh.index.find_one(m);
    if (!m || m.visible === false || !v || !v.el.isConnected) continue;
    const r = v.el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) out[name] = [r.left, r.top, r.right, r.bottom];
  }
  return out;
}"""
# The Example menu: its selected option's text, that text's width at the select's own font, and
# the width the select has for it (its content box), with the select's box.
MENU_TEXT = r"""() => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("preset"));
  const sel = v.el.shadowRoot.querySelector("select");
  const cs = getComputedStyle(sel), opt = sel.options[sel.selectedIndex];
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = [cs.fontStyle, cs.fontVariant, cs.fontWeight, cs.fontSize, cs.fontFamily].join(" ");
  const r = sel.getBoundingClientRect();
  return {text: opt.text, text_px: ctx.measureText(opt.text).width, font: ctx.font,
          room_px: sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
          box: [r.left, r.top, r.right, r.bottom], view: [innerWidth, innerHeight]};
}"""
MENU_SHOWS = r"""(t) => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("preset"));
  const s = v.el.shadowRoot.querySelector("select"); return s.options[s.selectedIndex].text === t; }"""


def menu_shows_the_whole_example_it_names(page, name: str) -> list[str]:
    """Each example chosen in turn in every view that shows the Example menu: the menu shows the
    whole of its name, on the screen."""
    problems, seen = [], 0
    for scene in each_view(page, want=("preset",)):
        for key, preset in PRESETS.items():
            page.evaluate("(k) => { Bokeh.documents[0].get_model_by_name('preset').value = k; }", key)
            page.wait_for_function(MENU_SHOWS, arg=preset["label"])
            if scene is not None:
                page.wait_for_function("() => AEPage.fit_state.settled", timeout=20_000)
            m = page.evaluate(MENU_TEXT)
            seen += 1
            where = f"{name}, scene {scene!r}, '{m['text']}'"
            if m["text_px"] > m["room_px"] + 0.5:
                problems.append(f"{where}: the text takes {m['text_px']:.0f} px, "
                                f"the menu has {m['room_px']:.0f} ({m['font']})")
            left, top, right, bottom = m["box"]
            if left < 0 or top < 0 or right > m["view"][0] + 0.5 or bottom > m["view"][1] + 0.5:
                problems.append(f"{where}: the menu at {[round(x) for x in m['box']]} is off the screen {m['view']}")
    return problems if seen else [f"{name}: no view shows the Example menu"]


def gap(a, b) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return max(dx, dy)


def every_control_sits_beside_what_it_changes(page, name: str, size: tuple[int, int]) -> list[str]:
    """In every view: each control on screen sits beside one of the parts it changes, and both on
    the screen."""
    w, h = size
    near = 0.2 * h  # a control's box within this of what it changes: beside it, or just above
    problems, pairs = [], 0
    names = sorted(set(CHANGES) | {t for ts in CHANGES.values() for t in ts})
    for scene in each_view(page):
        boxes = page.evaluate(BOXES, names)
        for control, targets in CHANGES.items():
            if control not in boxes:
                continue
            where = f"{name}, scene {scene!r}: '{control}'"
            shown = [t for t in targets if t in boxes]
            if not shown:
                problems.append(f"{where} is shown without what it changes ({', '.join(targets)})")
                continue
            pairs += 1
            best = min(shown, key=lambda t: gap(boxes[control], boxes[t]))
            d = gap(boxes[control], boxes[best])
            if d > near:
                problems.append(f"{where} is {d:.0f} px from '{best}' (at most {near:.0f}): "
                                f"{[round(x) for x in boxes[control]]} and {[round(x) for x in boxes[best]]}")
            for part in (control, best):
                left, top, right, bottom = boxes[part]
                if left < -0.5 or top < -0.5 or right > w + 0.5 or bottom > h + 0.5:
                    problems.append(f"{where}: '{part}' at {[round(x) for x in boxes[part]]} "
                                    f"is off the {w}×{h} screen")
    return sorted(set(problems)) if pairs else [f"{name}: no control on screen"]


# The worked table's header row: for each header, its text's lines (one box per line, through
# its text nodes) and the boxes of its column's cell texts, with the column's alignment.
TABLE_HEAD = r"""() => {
  let table = null;
  const walk = (root) => { for (const el of root.querySelectorAll("*")) {
    if (el.shadowRoot) walk(el.shadowRoot);
    if (el.classList && el.classList.contains("wk-table")) table = el; } };
  walk(document);
  const lines = (el) => {
    const out = [], w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      if (!n.textContent.trim()) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      for (const b of r.getClientRects()) if (b.width > 0) out.push([b.left, b.top, b.right, b.bottom]);
    }
    return out;
  };
  const rows = [...table.querySelectorAll("tbody tr")];
  return [...table.querySelectorAll("thead th")].map((th, i) => ({
    head: th.textContent, lines: lines(th), align: getComputedStyle(th).textAlign, two_lines: !!th.querySelector("br"),
    cells: rows.map((r) => r.children[i]).filter((c) => c && c.textContent.trim()).map((c) => lines(c)).flat()}));
}"""
def headers_sit_on_their_columns(page, name: str) -> list[str]:
    """The table's headers: the "e^scaled" header is there, and every header's text ends where its
    cells' text ends and sits on a line of the header row."""
    heads = page.evaluate(TABLE_HEAD)
    if not any("scaled" in h["head"] and h["head"].startswith("e") for h in heads):
        return [f"{name}: no e^scaled header among {[h['head'] for h in heads]}"]
    # The header row's lines: where the lines of the headers written on two lines end.
    bottoms = sorted({round(b[3], 1) for h in heads if h["two_lines"] for b in h["lines"]})
    if len(bottoms) < 2:
        return [f"{name}: the header row has fewer than two lines: {heads}"]
    problems = []
    for h in heads:
        ends = [b[2] for b in h["lines"]] if h["align"] == "right" else [b[0] for b in h["lines"]]
        cell_ends = [b[2] for b in h["cells"]] if h["align"] == "right" else [b[0] for b in h["cells"]]
        edge = max(ends) if h["align"] == "right" else min(ends)
        if cell_ends and abs(edge - (max(cell_ends) if h["align"] == "right" else min(cell_ends))) > 1.5:
            problems.append(f"{name}: '{h['head']}' ends at {edge:.1f}, its cells at {cell_ends}")
        off = [round(b[3], 1) for b in h["lines"] if min(abs(b[3] - y) for y in bottoms) > 1.5]
        if off:
            problems.append(f"{name}: '{h['head']}' has text on no line of the header row: bottoms {off}, "
                            f"the lines' {bottoms}")
    return problems


# The present rooms' checks share one page per room (a load costs as much as some ten changes of
# scene): first what the page shows as it opens, every control beside what it changes; the
# table's headers in the Step scene, where the table is (not in the 1366×768 room, which scales
# the 1280×720 one's type); then every example through the menu, which changes the state.
HEADERS_IN = ("present-1280", "slide-960")


@pytest.mark.parametrize("room", PRESENT_ROOMS, ids=[r[0] for r in PRESENT_ROOMS])
def test_in_a_present_room_the_controls_the_headers_and_the_menu_read(new_tab, exports, room):
    name, size, settings = room
    tab = open_room(new_tab, exports, size, settings)
    page = tab.page
    problems = every_control_sits_beside_what_it_changes(page, name, size)
    if name in HEADERS_IN:
        steps = [s.name for s in SCENES].index("steps")
        page.evaluate(GO, steps)
        page.wait_for_function(ON_SCENE, arg=steps, timeout=20_000)
        problems += headers_sit_on_their_columns(page, name)
    problems += menu_shows_the_whole_example_it_names(page, name)
    assert not problems, "\n".join(problems)
    tab.assert_no_errors()


def test_the_tables_headers_sit_on_their_columns_on_the_page(new_tab, exports):
    """The plain page at 1280×720 (the present rooms' headers: the test above)."""
    tab = open_room(new_tab, exports, (1280, 720), "")
    problems = headers_sit_on_their_columns(tab.page, "page-1280")
    assert not problems, "\n".join(problems)
    tab.assert_no_errors()


# Every scene read as tests/browser/test_scenes.py reads a plate's first view, for every example
# with all its numbers shown (stage 5): four keys with vectors for values make the widest table
# and the longest notes. The first example from the link; the others chosen in the open page
# (the menu's value, then stage 5), on the last scene, and every scene visited again from the
# first, so each is fitted anew with the example it is read with.
# The two smallest rooms, a slide's and a plain frame's: the larger ones scale the same type with
# the frame, and tests/browser/test_scenes.py reads every scene in them.
SMALL_ROOMS = [r for r in SCENE_ROOMS if r[0] in ("slide-960", "frame-960")]
# An example chosen as the menu chooses it: its numbers, nothing revealed (worked.js's
# load_preset); then its last stage, as the stage buttons show it.
CHOOSE = "(k) => { Bokeh.documents[0].get_model_by_name('preset').value = k; }"
LOADED = """(k) => { const d = Bokeh.documents[0];
  return d.get_model_by_name('preset').value === k && d.get_model_by_name('stage').active === null; }"""
LAST_STAGE = "() => { Bokeh.documents[0].get_model_by_name('stage').active = 4; }"
AT_LAST_STAGE_OF = """(k) => { const d = Bokeh.documents[0];
  return d.get_model_by_name('preset').value === k && d.get_model_by_name('stage').active === 4; }"""


@pytest.mark.parametrize("room", SMALL_ROOMS, ids=[r[0] for r in SMALL_ROOMS])
def test_every_scene_reads_with_every_example_at_its_last_stage(new_tab, exports, room):
    name, width, height, settings, _, _ = room
    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    problems = []
    first, *others = PRESETS
    page.goto((exports("on") / "worked.html").as_uri() + f"?{settings}&preset={first}&step=5")
    for k, key in enumerate(PRESETS):
        if k:
            page.evaluate(CHOOSE, key)
            page.wait_for_function(LOADED, arg=key)
            page.evaluate(LAST_STAGE)
            page.wait_for_function(AT_LAST_STAGE_OF, arg=key)
        for i, scene in enumerate(SCENES):
            if i or k:
                page.evaluate(GO, i)
            page.wait_for_function(SCENE_SETTLED, arg=i, timeout=20_000)
            problems += [f"{key}: {p}" for p in check_scene(page, "worked", scene, room)]
    assert page.evaluate(AT_LAST_STAGE_OF, first) is False  # the menu did change the example
    assert not problems, "\n".join(problems)
    tab.assert_no_errors()
