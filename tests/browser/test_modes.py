"""?theme=dark and ?present=1 on every plate, exported (from disk) and served.

The modes are applied in the browser by page.js, so both kinds of page get them. Checked here:
the page's colours (CSS custom properties reaching the shadow DOM of the Bokeh Divs), the Bokeh
figures' own colours, and that a drag still gives attention_core's numbers. A plate's page with
?present=1 shows its scenes, whose type and layout tests/browser/test_scenes.py holds.
"""

from __future__ import annotations

import math

import pytest

from app.plates import registry
from app.shared.theme import PRESENT_MIN_PX, THEMES
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
          body_bg: rgb(getComputedStyle(document.body).backgroundColor), plots, axes};
}"""

PROBE = PROBE.replace("PRESENT_MIN_PX", str(PRESENT_MIN_PX))


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
    assert st["plots"], f"{where}: no figure found"
    for plot in st["plots"]:
        assert plot["border"] == dark["paper"], (where, plot)
        if plot["title_color"] and plot["title_color"].startswith("#"):
            assert contrast(rgb(plot["title_color"]), rgb(dark["paper"])) >= 3.0, (where, plot)  # large text
    for axis in st["axes"]:
        c = axis["color"]
        if c and c.startswith("#"):
            assert contrast(rgb(c), rgb(dark["paper"])) >= 4.5, (where, axis)


def open_page(page, url: str) -> dict:
    page.goto(url)
    page.wait_for_function(DOC_READY, timeout=60_000)
    page.wait_for_function("() => document.documentElement.classList.contains('ae-dark') || "
                           "!/theme=dark/.test(location.search)", timeout=30_000)
    page.wait_for_function("() => !/present=1/.test(location.search) || (window.AEScenes && AEScenes.current() && "
                           "AEPage.fit_state && AEPage.fit_state.settled)", timeout=30_000)
    return page.evaluate(PROBE)


def test_every_exported_plate_in_dark_presentation_mode(new_tab, exported_site):
    """Every plate at 1280×720 with ?theme=dark&present=1, its first scene: the dark colours on the
    page and in its figures, and no sideways scrolling."""
    tab = new_tab(viewport={"width": 1280, "height": 720})
    for slug in registry.slugs():
        st = open_page(tab.page, (exported_site / f"{slug}.html").as_uri() + "?theme=dark&present=1")
        assert_dark_and_present(st, slug)
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
    st = open_page(page, f"{served_url}/lookup?{query}")
    wait_ready(page)
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
