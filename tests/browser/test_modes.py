"""?theme=dark and ?present=1 on every plate, exported (from disk) and served.

The modes are applied in the browser by page.js, so both kinds of page get them. Checked here:
the page's colours (CSS custom properties reaching the shadow DOM of the Bokeh Divs), the Bokeh
figures' own colours and type sizes, and that a drag still gives attention_core's numbers.
"""

from __future__ import annotations

import math

import pytest

from app.plates import registry
from app.shared.theme import PRESENT_MIN_PX, PRESENT_ROOT_PX, THEMES
from helpers import assert_matches_core, core_from_query, drag, query_xy, read_state, to_page_xy, wait_ready, wait_synced

pytestmark = pytest.mark.browser

DOC_READY = ("() => window.Bokeh && Bokeh.documents.length > 0 && document.readyState === 'complete' && "
             "Bokeh.documents[0].roots().every(r => Bokeh.index.find_one(r) != null) && "
             "document.documentElement.classList.length >= 0 && Bokeh.documents[0].is_idle !== false")

# What the page looks like, read from the DOM and the Bokeh models.
PROBE = r"""() => {
  const d = Bokeh.documents[0], html = document.documentElement;
  const rgb = (c) => { const m = /rgba?\((\d+), (\d+), (\d+)/.exec(c); return m ? [+m[1], +m[2], +m[3]] : null; };
  const plain = (v) => (v && typeof v === "object" && "value" in v) ? v.value : v;
  const px = (s) => { const m = /^([\d.]+)(px|pt)$/.exec(String(plain(s))); return m ? +m[1] * (m[2] === "pt" ? 4 / 3 : 1) : null; };
  const plots = [], axes = [];
  const ctx = document.createElement("canvas").getContext("2d");
  const width = (text, size, font, style) => { ctx.font = `${style && style !== "normal" ? style + " " : ""}${size}px ${font}`; return ctx.measureText(text).width; };
  for (const m of d.all_models) {
    if (m.renderers && "border_fill_color" in m && m.title) {
      // A title is at least 15 px, or as large as its frame's width allows (page.js fits it).
      const t = m.title, text = plain(t.text) || "", fw = Bokeh.index.find_one(m).frame.bbox.width;
      const tf = plain(t.text_font) || "sans-serif", ts = plain(t.text_font_style);
      plots.push({border: plain(m.border_fill_color), title_color: plain(t.text_color), title_px: px(t.text_font_size), title: text,
                  title_w: text ? width(text, px(t.text_font_size), tf, ts) : 0, title_w_min: text ? width(text, 15, tf, ts) : 0, frame_w: fw});
    }
    if (!(m.renderers && "border_fill_color" in m)) continue;
    const f = Bokeh.index.find_one(m).frame.bbox;
    for (const side of ["below", "above", "left", "right"]) for (const a of m[side] || []) {
      if (!("major_label_text_font_size" in a) || a.visible === false) continue;
      // How wide the axis name is at its size and at the presentation minimum, and the room it has.
      const font = plain(a.axis_label_text_font), style = plain(a.axis_label_text_font_style), label = a.axis_label || "";
      axes.push({color: plain(a.major_label_text_color), px: px(a.major_label_text_font_size), label_px: px(a.axis_label_text_font_size),
                 label, room: side === "below" || side === "above" ? f.width : f.height,
                 label_w: label ? width(label, px(a.axis_label_text_font_size), font, style) : 0,
                 label_w_min: label ? width(label, PRESENT_MIN_PX, font, style) : 0});
    }
  }
  // The explanation's first paragraph: colour and size as rendered inside its shadow root.
  const ex = d.get_model_by_name("ae-explanation"), v = ex && Bokeh.index.find_one(ex);
  const p = v && (v.shadow_el || v.el).querySelector("p");
  const cs = p && getComputedStyle(p);
  // Disabled buttons (worked's Back at stage 0): their colours and opacity, read in the shadow roots.
  const disabled = [], primary = [];
  const look = (el) => {
    const c = getComputedStyle(el);
    return {text: el.textContent.trim(), color: rgb(c.color), bg: rgb(c.backgroundColor), opacity: +c.opacity};
  };
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      const shown = el.matches(".bk-btn") && el.getBoundingClientRect().width > 0;
      if (shown && el.matches("[disabled]")) disabled.push(look(el));
      if (shown && el.matches(".bk-btn-primary:not([disabled])")) primary.push(look(el));
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return {disabled, primary, sw: html.scrollWidth, cw: html.clientWidth, classes: Array.from(html.classList), paper_var: getComputedStyle(html).getPropertyValue("--ae-paper").trim(),
          body_bg: rgb(getComputedStyle(document.body).backgroundColor),
          prose_color: cs ? rgb(cs.color) : null, prose_px: cs ? parseFloat(cs.fontSize) : null, plots, axes};
}"""

PROBE = PROBE.replace("PRESENT_MIN_PX", str(PRESENT_MIN_PX))


# Issue 43, 2: in presentation mode no text is under PRESENT_MIN_PX, outside a figure or in it.
# Read from the page: every shown element with text of its own (in the Bokeh views' shadow roots
# too: legends, tables, formulas and their scripts), its computed font size. Read from the
# figures' Bokeh models (what the canvas draws): each shown figure's title, axis ticks and names,
# legend labels and title, Label and LabelSet annotations and the text glyphs of its renderers
# (heat-map cell numbers, bar labels), in px, once page.js has fitted them (present_fitted).
SMALL_TEXT = r"""(min) => {
  const px = (s) => { const v = (s && typeof s === "object" && "value" in s) ? s.value : s;
                      const m = /^([\d.]+)(px|pt)$/.exec(String(v)); return m ? +m[1] * (m[2] === "pt" ? 4 / 3 : 1) : null; };
  const page = [], models = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (!Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim())) continue;
      const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
      if (r.width <= 0 || r.height <= 0 || cs.visibility === "hidden") continue;
      if (parseFloat(cs.fontSize) < min - 0.05) page.push([el.tagName.toLowerCase(), el.textContent.trim().slice(0, 24), parseFloat(cs.fontSize)]);
    }
  };
  walk(document);
  const check = (fig, what, v) => { const x = px(v); if (x != null && x < min - 0.05) models.push([fig, what, x]); };
  for (const f of Bokeh.documents[0].all_models) {
    if (f.type !== "Figure" || f.visible === false) continue;
    const v = Bokeh.index.find_one(f);
    if (!v || !v.el || !(v.el.getBoundingClientRect().width > 0)) continue;
    if (f.title && f.title.text) check(f.name, "title", f.title.text_font_size);
    for (const a of [].concat(f.below, f.above, f.left, f.right)) {
      if (!a || a.visible === false || !("major_label_text_font_size" in a)) continue;
      check(f.name, a.type + " ticks", a.major_label_text_font_size);
      if (a.axis_label) check(f.name, a.type + " name", a.axis_label_text_font_size);
    }
    for (const c of [].concat(f.center, f.below, f.above, f.left, f.right)) {
      if (!c || c.visible === false) continue;
      if (c.type === "Legend" && c.items.length) {
        check(f.name, "legend", c.label_text_font_size);
        if (c.title) check(f.name, "legend title", c.title_text_font_size);
      }
      if (/^(Label|LabelSet)$/.test(c.type)) check(f.name, c.type, c.text_font_size);
    }
    for (const r of f.renderers) if (r.visible !== false && r.glyph && "text_font_size" in r.glyph) check(f.name, r.glyph.type, r.glyph.text_font_size);
  }
  return {page, models};
}"""
# Text boxes whose words or table pass their right edge in the large type (a table would scroll in
# its box, its last columns out of sight): [name, box's right, content's right].
CUT_TEXT = r"""() => {
  const out = [];
  for (const m of Bokeh.documents[0].all_models) {
    if (!("text" in m) || m.visible === false) continue;
    const v = Bokeh.index.find_one(m), root = v && v.el && v.el.shadowRoot;
    if (!root) continue;
    const box = v.el.getBoundingClientRect();
    if (!(box.width > 0)) continue;
    let right = box.right;
    for (const el of root.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width > 0) right = Math.max(right, el.tagName === "TABLE" ? r.left + el.scrollWidth : r.right);
    }
    if (right > box.right + 1) out.push([m.name || m.type, Math.round(box.right), Math.round(right)]);
  }
  return out;
}"""
# The worked plate's first screen in presentation mode: its Step button and its table.
FIRST_SCREEN = r"""() => {
  const d = Bokeh.documents[0], box = (n) => Bokeh.index.find_one(d.get_model_by_name(n)).el.getBoundingClientRect();
  const t = Bokeh.index.find_one(d.get_model_by_name("worked_table_view"));
  const table = (t.shadow_el || t.el).querySelector("table").getBoundingClientRect();
  return {step: box("step_next").bottom, table: table.bottom, h: window.innerHeight};
}"""


def rgb(hex_colour: str) -> list[int]:
    return [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]


def contrast(a: list[int], b: list[int]) -> float:
    def lum(c):
        lin = [x / 255 / 12.92 if x / 255 <= 0.04045 else ((x / 255 + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def over(c: list[int], alpha: float, behind: list[int]) -> list[int]:
    """Colour c drawn at opacity alpha over the colour behind it."""
    return [round(alpha * x + (1 - alpha) * y) for x, y in zip(c, behind)]


def assert_dark_and_present(st: dict, where: str) -> None:
    dark = THEMES["dark"]
    # A disabled button stays a dark button with readable grey text (it was a light grey block
    # with light text, 1.3:1), as seen through its opacity over the page.
    paper = rgb(dark["paper"])
    for b in st["disabled"]:
        fg, bg = over(b["color"], b["opacity"], paper), over(b["bg"], b["opacity"], paper)
        assert contrast(bg, paper) < 1.5, (where, b)
        assert contrast(fg, bg) >= 3.0, (where, b, round(contrast(fg, bg), 2))
    # The call to action (worked's Step) keeps its own colour, not the plain buttons' surface.
    for b in st["primary"]:
        assert b["bg"] != rgb(dark["surface"]) and contrast(b["color"], b["bg"]) >= 4.5, (where, b)
    assert {"ae-dark", "ae-present"} <= set(st["classes"]), (where, st["classes"])
    assert st["paper_var"] == dark["paper"], where
    assert st["body_bg"] == rgb(dark["paper"]), (where, st["body_bg"])
    # Prose: the dark ink, AA on the dark paper, at the presentation size.
    assert st["prose_color"] == rgb(dark["ink"]), (where, st["prose_color"])
    assert contrast(st["prose_color"], st["body_bg"]) >= 4.5
    assert st["prose_px"] >= PRESENT_ROOT_PX - 0.5, (where, st["prose_px"])
    assert st["plots"], f"{where}: no figure found"
    for plot in st["plots"]:
        assert plot["border"] == dark["paper"], (where, plot)
        if not plot["frame_w"]:
            continue  # a figure this stage does not show
        assert plot["title_px"] is None or plot["title_px"] >= 15 or plot["title_w_min"] > plot["frame_w"] - 4, (where, plot)
        if plot["title_color"] and plot["title_color"].startswith("#"):
            assert contrast(rgb(plot["title_color"]), rgb(dark["paper"])) >= 3.0, (where, plot)  # large text
    for axis in st["axes"]:
        assert axis["px"] is None or axis["px"] >= PRESENT_MIN_PX - 0.5, (where, axis)
        # An axis name is at the presentation minimum, or as large as its figure allows: never clipped.
        assert axis["label_w"] <= axis["room"] + 1, (where, axis)
        assert axis["label_px"] is None or axis["label_px"] >= PRESENT_MIN_PX - 0.5 or axis["label_w_min"] > axis["room"], (where, axis)
        c = axis["color"]
        if c and c.startswith("#"):
            assert contrast(rgb(c), rgb(dark["paper"])) >= 4.5, (where, axis)


def open_page(page, url: str) -> dict:
    page.goto(url)
    page.wait_for_function(DOC_READY, timeout=60_000)
    page.wait_for_function("() => document.documentElement.classList.contains('ae-dark') || "
                           "!/theme=dark/.test(location.search)", timeout=30_000)
    page.wait_for_function("() => AEPage.present_fitted === true || !/present=1/.test(location.search)", timeout=30_000)
    return page.evaluate(PROBE)


def test_every_exported_plate_in_dark_presentation_mode(new_tab, exported_site):
    """Every plate at 1280×720 with ?theme=dark&present=1: colours, type sizes (no text under
    PRESENT_MIN_PX, read from the page and from the figures' models: SMALL_TEXT), no sideways
    scrolling, and the worked plate's Step button and table on the first screen."""
    tab = new_tab(viewport={"width": 1280, "height": 720})
    for slug in registry.slugs():
        st = open_page(tab.page, (exported_site / f"{slug}.html").as_uri() + "?theme=dark&present=1")
        assert_dark_and_present(st, slug)
        small = tab.page.evaluate(SMALL_TEXT, PRESENT_MIN_PX)
        assert not small["page"], f"{slug}: text under {PRESENT_MIN_PX} px on the page in presentation mode: {small['page'][:8]}"
        assert not small["models"], f"{slug}: text under {PRESENT_MIN_PX} px in its figures in presentation mode: {small['models'][:8]}"
        cut = tab.page.evaluate(CUT_TEXT)
        assert not cut, f"{slug}: text passing the edge of its box in presentation mode: {cut}"
        if slug == "worked":  # at stage 0 its Back button is disabled: the check above saw it
            assert any("Back" in b["text"] for b in st["disabled"]), st["disabled"]
            assert any("Step" in b["text"] for b in st["primary"]), st["primary"]
            # What the plate is about is on a 1280×720 projector's first screen: Step and the table.
            first = tab.page.evaluate(FIRST_SCREEN)
            assert first["step"] <= first["h"] and first["table"] <= first["h"], first
        # On the 1280×720 projector the page is no wider than the screen (rows wrap instead).
        assert st["sw"] <= st["cw"] == 1280, f"{slug} scrolls sideways in presentation mode: {st['sw']} > {st['cw']}"
    # Without the settings nothing changes: the light page as before.
    st = open_page(tab.page, (exported_site / "lookup.html").as_uri())
    assert "ae-dark" not in st["classes"] and "ae-present" not in st["classes"]
    assert st["body_bg"] == rgb(THEMES["light"]["paper"])
    assert all(p["border"] == "#ffffff" for p in st["plots"]), st["plots"]
    assert all(a["px"] is None or a["px"] < PRESENT_MIN_PX for a in st["axes"]), st["axes"]
    tab.assert_no_errors()


def test_served_lookup_modes_keep_every_number(new_tab, served_url):
    query = "theme=dark&present=1"
    tab = new_tab(viewport={"width": 1280, "height": 720})
    page = tab.page
    page.goto(f"{served_url}/lookup?{query}")
    wait_ready(page)
    st = page.evaluate(PROBE)
    assert_dark_and_present(st, "served lookup")
    # A real drag of the query: the numbers are attention_core's, as in the light page.
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('vectors'))"
                  ".canvas_view.events_el.scrollIntoView({block: 'center'})")
    drag(page, to_page_xy(page, "vectors", *query_xy(page)), to_page_xy(page, "vectors", -2.0, 2.0), steps=12)
    wait_synced(page)
    s = read_state(page)
    x, y = s["query"]["x"][0], s["query"]["y"][0]
    assert math.hypot(x + 2.0, y - 2.0) < 0.05, (x, y)
    assert_matches_core(s, core_from_query(x, y))
    assert "theme=dark" in s["url"] and "present=1" in s["url"]  # the address keeps the modes
    tab.assert_no_errors()


# The index: its cards' text, colour and size as rendered inside the 'ae-index' Div's shadow root.
INDEX_PROBE = r"""() => {
  const html = document.documentElement, d = Bokeh.documents[0];
  const v = Bokeh.index.find_one(d.get_model_by_name("ae-index"));
  const h2 = v && (v.shadow_el || v.el).querySelector(".ae-card h2");
  const rgb = (c) => { const m = /rgba?\((\d+), (\d+), (\d+)/.exec(c); return m ? [+m[1], +m[2], +m[3]] : null; };
  const cs = h2 && getComputedStyle(h2);
  return {classes: Array.from(html.classList), sw: html.scrollWidth, cw: html.clientWidth,
          body_bg: rgb(getComputedStyle(document.body).backgroundColor),
          card_color: cs ? rgb(cs.color) : null, card_px: cs ? parseFloat(cs.fontSize) : null};
}"""


def assert_index_modes(page, url: str, where: str) -> None:
    page.goto(url)
    page.wait_for_function(DOC_READY, timeout=60_000)
    plain = page.evaluate(INDEX_PROBE)  # the light index first: the settings below must change it
    page.goto(url + "?theme=dark&present=1")
    page.wait_for_function(DOC_READY, timeout=60_000)
    page.wait_for_function("() => document.documentElement.classList.contains('ae-present')", timeout=30_000)
    st = page.evaluate(INDEX_PROBE)
    dark = THEMES["dark"]
    assert {"ae-dark", "ae-present"} <= set(st["classes"]), (where, st)
    assert st["body_bg"] == rgb(dark["paper"]) != plain["body_bg"], (where, st, plain)
    assert st["card_color"] == rgb(dark["ink"]), (where, st)
    assert st["card_px"] >= 1.4 * plain["card_px"], (where, st["card_px"], plain["card_px"])  # 24 px root, not 16
    assert st["sw"] <= st["cw"] == 1280, (where, st)


def test_index_modes_exported_and_served(new_tab, exported_site, served_url):
    tab = new_tab(viewport={"width": 1280, "height": 720})
    assert_index_modes(tab.page, (exported_site / "index.html").as_uri(), "exported index")
    assert_index_modes(tab.page, f"{served_url}/", "served index")
    tab.assert_no_errors()


# ?hide= names controls to leave off the page (a lesson fixes some settings); a name the page does
# not have is reported, in the same words served and exported, and hides nothing else.
HIDDEN = r"""() => {
  const d = Bokeh.documents[0], m = (n) => d.get_model_by_name(n), box = (n) => Bokeh.index.find_one(m(n)).el.getBoundingClientRect();
  const notices = Bokeh.index.find_one(m("ae-notices"));
  return {reset: m("reset").visible, reset_h: box("reset").height, angle: m("angle").visible, angle_h: box("angle").height,
          notice: notices && m("ae-notices").visible ? (notices.shadow_el || notices.el).querySelector(".ae-notice").textContent : ""};
}"""


def test_hide_leaves_out_the_named_controls_and_reports_unknown_names(new_tab, exported_site, served_url):
    tab = new_tab(viewport={"width": 1280, "height": 720})
    page = tab.page
    want = "Link settings: ignored 'hide=angel': no control of that name on this page."
    for url in (f"{served_url}/lookup?hide=reset,angel", (exported_site / "lookup.html").as_uri() + "?hide=reset,angel"):
        page.goto(url)
        wait_ready(page)
        page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('ae-notices').visible", timeout=30_000)
        st = page.evaluate(HIDDEN)
        assert st["reset"] is False and st["reset_h"] == 0, (url, st)
        assert st["angle"] is True and st["angle_h"] > 0, (url, st)  # 'angel' hid nothing
        assert st["notice"] == want, (url, st)
    tab.assert_no_errors()


INDEX_NOTICE = r"""() => {
  const d = Bokeh.documents[0], n = d.get_model_by_name("ae-notices"), v = n && Bokeh.index.find_one(n);
  const el = v && n.visible ? (v.shadow_el || v.el).querySelector(".ae-notice") : null;
  return {notice: el ? el.textContent : "", index: d.get_model_by_name("ae-index").visible};
}"""


def test_the_index_reports_a_setting_it_cannot_use(new_tab, exported_site, served_url):
    """The index reads the page settings as a plate does, and says so when it cannot use one."""
    tab = new_tab(viewport={"width": 1280, "height": 720})
    page = tab.page
    want = "Link settings: ignored 'theme=blue': expected light or dark; ignored 'hide=lookup': no control of that name on this page."
    for url in ((exported_site / "index.html").as_uri(), f"{served_url}/"):
        page.goto(url + "?theme=blue&hide=lookup")
        page.wait_for_function(DOC_READY, timeout=60_000)
        page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('ae-notices').visible", timeout=30_000)
        assert page.evaluate(INDEX_NOTICE) == {"notice": want, "index": True}, url
        page.goto(url + "?theme=dark")  # a setting it can use: no notice
        page.wait_for_function(DOC_READY, timeout=60_000)
        page.wait_for_function("() => document.documentElement.classList.contains('ae-dark')", timeout=30_000)
        assert page.evaluate(INDEX_NOTICE)["notice"] == "", url
    tab.assert_no_errors()
