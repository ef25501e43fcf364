"""The scaling plate's defects seen on a projector (issue 55, §3), held in every size it shows:
the plain page, and the present page and the slide frame that show its scenes.

- "Var(q_c k_c)": k's subscript c is a real subscript (an <msub>) and is drawn lowered below
  k's baseline, as q's is; so are the formulas' other subscripts.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from app.plates.scaling.formulas import ENTROPY, JACOBIAN, VARIANCE

pytestmark = pytest.mark.browser

# (name, viewport, page settings): the plain page, the scene on a present page, a slide frame.
ROOMS = [
    ("page-1280", (1280, 720), ""),
    ("present-1280", (1280, 720), "present=1"),
    ("slide-960", (960, 540), "embed=1&present=1"),
]
# Letters that reach below the baseline: a base made of others ends at its baseline.
DESCENDERS = set("gjpqyβγζημξρφχψ")
LOWERED_EM = 0.18  # a script's foot this far below its base's baseline, in the base's font size
SETTLED = "() => window.AEPage && (!window.AEScenes || !AEScenes.current() || (AEPage.fit_state && AEPage.fit_state.settled))"


def open_room(new_tab, exports, room, scene: str | None = None):
    _, (w, h), settings = room
    tab = new_tab(viewport={"width": w, "height": h})
    query = "&".join(x for x in (settings, f"scene={scene}" if scene and settings else "") if x)
    tab.page.goto((exports("on") / "scaling.html").as_uri() + ("?" + query if query else ""))
    tab.page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && Bokeh.documents[0].get_model_by_name('flat_plot')",
                               timeout=30_000)
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
