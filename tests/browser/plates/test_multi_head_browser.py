"""The multi-head plate (/multi-head) in a real Chromium: served, then as an exported file with
the network blocked. A real click on the heads buttons (and a real choice in the d_model menu)
changes every number; the browser computes them at once with mirror.js, Python then sends
attention_core's, and both are checked against attention_core to 1e-9.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import attention_core as ac
from helpers import PHONE_FITTED, scroll_plot_into_view, to_page_xy, wait_synced, ws_count

pytestmark = pytest.mark.browser

READY = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length) return false;
  const d = Bokeh.documents[0], s = d.get_model_by_name("head_weights"), f = d.get_model_by_name("head_maps");
  if (!s || !f || s.data.value.length === 0) return false;
  const v = Bokeh.index.find_one(f);
  return v != null && v.frame != null && v.frame.bbox.width > 0;
}"""

READ = r"""() => {
  const d = Bokeh.documents[0], m = (n) => d.get_model_by_name(n);
  const data = (n) => { const s = m(n).data, o = {}; for (const k of Object.keys(s)) o[k] = Array.from(s[k]); return o; };
  return {
    head: data("head_weights"), concat: data("concat"), w_o: data("w_o"), out: data("mh_output"),
    params: data("params"), divisors: data("divisors"), setting: data("setting"),
    d_model: m("d_model").value, h: m("h").active, n: m("n").value,
    message: m("message").text, summary: m("summary").text, url: window.location.href,
    tables: Object.fromEntries(["params_table", "divisors_table"].map((t) => {  // body cells as shown
      const v = Bokeh.index.find_one(m(t));
      return [t, v ? Array.from((v.shadow_el || v.el).querySelectorAll("tbody tr"))
        .map((r) => Array.from(r.cells).map((c) => c.textContent)) : null];
    })),
  };
}"""

TAG = r"""(names) => { for (const n of names) {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n)); v.el.setAttribute("data-ae-name", n); } }"""


def core(d_model, h, n):
    w = d_model if d_model <= 16 else 16
    X, Wq, Wk, Wv, Wo = ac.multi_head_recipe(n, w, 0)
    out, weights, concat = ac.multi_head_attention(X, Wq, Wk, Wv, Wo, h)
    return w, out, weights, concat, Wo


def read(page) -> dict:
    return page.evaluate(READ)


def assert_matches_core(st: dict, d_model: int, h: int, n: int, tol: float = 1e-9) -> None:
    """Every number the page holds equals attention_core's for (d_model, h, n)."""
    assert st["setting"]["d_model"] == [d_model] and st["setting"]["h"] == [h] and st["setting"]["n"] == [n], st["setting"]
    w, out, weights, concat, Wo = core(d_model, h, n)
    hd = st["head"]
    assert len(hd["value"]) == h * n * n
    got = np.zeros((h, n, n))
    got[hd["head"], hd["i"], hd["j"]] = hd["value"]
    assert np.max(np.abs(got - weights)) <= tol
    assert np.max(np.abs(got.sum(axis=-1) - 1.0)) <= 1e-12  # every head's rows sum to 1
    for key, want, rows in (("concat", concat, "i"), ("out", out, "i"), ("w_o", Wo, "r")):
        src = st[key]
        m = np.zeros(want.shape)
        m[src[rows], src["c"]] = src["value"]
        assert len(src["value"]) == want.size and np.max(np.abs(m - want)) <= tol, key
    p = ac.param_counts(d_model, h)
    assert st["params"]["total"] == [p["query_total"], p["key_total"], p["value_total"], p["qkv_total"],
                                     p["full_width_head"], p["w_o"], p["total"]]
    assert st["params"]["paper_total"] == [262144, 262144, 262144, 786432, 786432, 262144, 1048576]
    assert st["params"]["paper_per_head"][:3] == [32768] * 3
    assert st["divisors"]["divisor"] == [pytest.approx(ac.head_divisor(d_model, h), abs=1e-12)] * h
    # The tables as the page shows them: the counts and divisors above, written by data.py's rules.
    from app.plates.multi_head.data import PARAMS_COLUMNS, divisors_data, params_data

    want = params_data(d_model, h)
    assert st["tables"]["params_table"] == [[want[f][j] for _, f, _ in PARAMS_COLUMNS] for j in range(7)]
    want = divisors_data(d_model, h)
    assert st["tables"]["divisors_table"] == [[lb, str(d), t] for lb, d, t in zip(want["label"], want["d_k"], want["text"])]
    assert st["d_model"] == str(d_model) and st["h"] == [1, 2, 4, 8].index(h) and st["n"] == n


def open_plate(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(READY, timeout=45_000)
    page.evaluate(TAG, ["h", "d_model"])


def click_heads(page, h: int) -> None:
    page.locator("[data-ae-name=h] button", has_text=str(h)).first.click()
    page.wait_for_function("(h) => Bokeh.documents[0].get_model_by_name('setting').data.h[0] === h", arg=h)


def choose_width(page, d_model: int) -> None:
    page.locator("[data-ae-name=d_model] select").select_option(index=[4, 8, 16, 512].index(d_model))


def check_hover(page) -> None:
    """Hovering a weight cell shows its arithmetic."""
    x, y = to_page_xy(page, "head_maps", 0, 0)
    page.mouse.move(x - 3, y - 3)
    page.mouse.move(x, y)
    tip = page.locator(".bk-tooltip-content", has_text="q·k =").first
    tip.wait_for(state="visible", timeout=10_000)
    assert "head 1: t1 reads t1" in tip.inner_text()


def test_served_keys_and_clicks_change_every_number_live_then_python_agrees(tab, served_url):
    """One load: the keyboard (keys.multi_head_keys: Tab, the text alternatives, each head's
    table), then the seed's numbers, a hover, and real clicks, live and then Python's."""
    from keys import multi_head_keys

    page = tab.page
    open_plate(page, f"{served_url}/multi-head")
    wait_synced(page)
    multi_head_keys(tab)
    st = read(page)
    assert_matches_core(st, 8, 2, 5)
    assert st["divisors"]["divisor"] == [2.0, 2.0]  # d_model 8, 2 heads: √4 = 2
    scroll_plot_into_view(page, "head_maps")  # the table view, opened from the keyboard, may have scrolled it away
    check_hover(page)

    # A real click on "4": the browser recomputes at once (mirror.js) ...
    sent = ws_count(page)
    click_heads(page, 4)
    st = read(page)
    assert_matches_core(st, 8, 4, 5)
    assert all(abs(d - 1.414) <= 0.001 for d in st["divisors"]["divisor"])  # √2
    # ... and once the server has answered, the numbers are Python's, still attention_core's.
    wait_synced(page, sent)
    assert_matches_core(read(page), 8, 4, 5)
    page.wait_for_function("() => window.location.search.indexOf('h=4') >= 0")

    # The paper's setting: 8 heads, then d_model 512 from the menu (the maps stay at 16).
    sent = ws_count(page)
    click_heads(page, 8)
    choose_width(page, 512)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('setting').data.d_model[0] === 512")
    wait_synced(page, sent)
    st = read(page)
    assert_matches_core(st, 512, 8, 5)
    assert st["divisors"]["divisor"] == [8.0] * 8 and st["setting"]["width"] == [16]
    assert st["params"]["total"][3] == 786432 and st["params"]["per_head"][0] == 32768
    assert "The heat maps stay at d_model = 16" in st["summary"]

    # 8 heads cannot share d_model 4: refused with a message, nothing else changes.
    sent = ws_count(page)
    choose_width(page, 4)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('message').text.indexOf('cannot share') >= 0")
    wait_synced(page, sent)
    st = read(page)
    assert "8 heads cannot share d_model = 4" in st["message"]
    assert_matches_core(st, 512, 8, 5)
    tab.assert_no_errors()


# Every source a late answer of Python's replaces (the settings' source too: it names the step).
MH_SOURCES = ("head_weights", "head_titles", "head_ticks", "concat", "w_o", "mh_output", "concat_marks",
              "concat_lines", "w_o_marks", "w_o_lines", "output_marks", "setting")


@pytest.mark.on_only
def test_served_a_held_arrow_key_never_draws_a_step_back(tab, served_url):
    """Key presses 15 ms apart on the served n slider (a held key repeats every ~30 ms): Python
    waits for the run to end (the plate's sync source is "busy") and folds it in once, an answer to
    an earlier step that lands after a later one (replayed here) is never drawn, and the page ends
    on attention_core's numbers."""
    from app.plates.multi_head.state import N_MAX, N_MIN

    from helpers import hold_arrow_key

    page = tab.page
    open_plate(page, f"{served_url}/multi-head")
    wait_synced(page)
    n_of_heads = "Math.max(...Array.from(d.get_model_by_name('head_weights').data.i)) + 1"
    hold_arrow_key(page, MH_SOURCES, N_MIN, N_MAX, drawn_n=n_of_heads)
    assert_matches_core(read(page), 8, 2, N_MAX)
    tab.assert_no_errors()


@pytest.fixture
def exported(export_plate):
    return export_plate("multi-head")


def test_exported_file_works_offline_and_reads_its_link(new_tab, exported):
    tab = new_tab()
    tab.block_network()
    page = tab.page
    # The link asks for 8 heads at width 4 (refused) and 99 tokens (clamped to 8); with no
    # Python, link.js and multi_head.js apply it by MultiHeadState.apply_url's rules.
    open_plate(page, exported.as_uri() + "?d_model=4&h=8&n=99")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('setting').data.n[0] === 8")
    assert_matches_core(read(page), 8, 2, 8)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('ae-notices').text.includes('Link settings')")
    notice = page.evaluate("() => Bokeh.documents[0].get_model_by_name('ae-notices').text")
    assert "ignored the combination: 8 heads cannot share d_model = 4" in notice
    assert "set to 8, the nearest allowed value" in notice and "heads.." not in notice
    # A real click recomputes everything in the page.
    click_heads(page, 4)
    assert_matches_core(read(page), 8, 4, 8)
    click_heads(page, 1)  # one head: single-head attention followed by W_O, divided by √8
    st = read(page)
    assert_matches_core(st, 8, 1, 8)
    assert st["divisors"]["divisor"] == [pytest.approx(math.sqrt(8), abs=1e-12)]
    X, Wq, Wk, Wv, Wo = ac.multi_head_recipe(8, 8, 0)
    single = ac.attention(X @ Wq, X @ Wk, X @ Wv)[0] @ Wo  # (8, 8)
    page_out = np.zeros((8, 8))
    page_out[st["out"]["i"], st["out"]["c"]] = st["out"]["value"]
    assert np.max(np.abs(page_out - single)) <= 1e-12
    check_hover(page)
    tab.assert_offline()
    tab.assert_no_errors()


FITS = r"""() => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("params_table"));
  const box = (v.shadow_el || v.el).querySelector(".ae-wt-box");
  return {scroll: box.scrollWidth, client: box.clientWidth, right: box.getBoundingClientRect().right};
}"""


@pytest.mark.on_only
@pytest.mark.parametrize("query", ["", "?d_model=512&h=8"])
def test_the_counter_fits_beside_the_controls_on_a_1280_px_screen(new_tab, exported, query):
    """Every column of the parameter counter is in sight at 1280 px, with the paper's widest
    counts too: the table does not scroll inside its box."""
    tab = new_tab(viewport={"width": 1280, "height": 720})
    tab.page.goto(exported.as_uri() + query)
    tab.page.wait_for_function(READY, timeout=45_000)
    st = tab.page.evaluate(FITS)
    assert st["scroll"] <= st["client"] + 1 and st["right"] <= 1280, st
    tab.assert_no_errors()


# --- issue 55, 3: the heads' label, the counter's cells, the counter on a phone ----------------
# The "heads h" label's box and its text's lines, and the h buttons' box (found by its words:
# the label is the Div that says "heads h").
HEADS_LABEL = r"""() => {
  const out = {label: null, lines: 0, buttons: null};
  const r = (b) => ({left: b.left, top: b.top, right: b.right, bottom: b.bottom});
  const walk = (node) => {
    for (const n of node.childNodes) {
      if (n.nodeType === Node.TEXT_NODE && n.textContent.trim() === "heads h") {
        const range = document.createRange();
        range.selectNodeContents(n);
        const rects = Array.from(range.getClientRects()).filter((q) => q.width > 0);
        out.label = r(range.getBoundingClientRect());
        out.lines = new Set(rects.map((q) => Math.round(q.top))).size;
      } else if (n.nodeType === Node.ELEMENT_NODE) {
        if (n.shadowRoot) walk(n.shadowRoot);
        walk(n);
      }
    }
  };
  walk(document.body);
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("h"));
  out.buttons = r(v.el.getBoundingClientRect());
  return out;
}"""


@pytest.mark.on_only
@pytest.mark.parametrize("size", [(1280, 720, ""), (390, 844, ""), (1280, 720, "?present=1")],
                         ids=["1280", "phone", "present"])
def test_the_heads_label_sits_with_its_buttons(new_tab, exported, size):
    """Issue 55, 3: "heads h" sat right of the d_model menu (on two lines in present mode), away
    from the buttons it names. It sits over them, on one line, as the menu's and the slider's
    titles sit over theirs (in a present page's first scene too)."""
    tab = new_tab(viewport={"width": size[0], "height": size[1]})
    tab.page.goto(exported.as_uri() + size[2])
    tab.page.wait_for_function(READY, timeout=45_000)
    if size[2]:
        tab.page.wait_for_function("() => AEPage.fit_state && AEPage.fit_state.settled", timeout=20_000)
    st = tab.page.evaluate(HEADS_LABEL)
    label, buttons = st["label"], st["buttons"]
    assert label is not None, "no 'heads h' label on the page"
    assert st["lines"] == 1, st
    assert buttons["left"] - 2 <= label["left"] < buttons["right"], st  # over the buttons, from their left
    assert 0 <= buttons["top"] - label["bottom"] <= label["bottom"] - label["top"], st  # just above them
    tab.assert_no_errors()


# Every body cell of the counter that is not a row's name, with the lines its text takes.
CELL_LINES = r"""() => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("params_table"));
  return Array.from(v.el.shadowRoot.querySelectorAll("tbody td")).map((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    const tops = new Set(Array.from(range.getClientRects()).filter((q) => q.width > 0).map((q) => Math.round(q.top)));
    return [td.textContent, tops.size];
  });
}"""


@pytest.mark.on_only
@pytest.mark.parametrize("query", ["", "?d_model=512&h=8"])
def test_no_count_of_the_counter_wraps(new_tab, exported, query):
    """Issue 55, 3: the "in all" column wrapped "192 = 3·8²" onto three lines. A count is one line
    (its row's name may wrap)."""
    tab = new_tab(viewport={"width": 1280, "height": 720})
    tab.page.goto(exported.as_uri() + query)
    tab.page.wait_for_function(READY, timeout=45_000)
    cells = tab.page.evaluate(CELL_LINES)
    assert len(cells) == 7 * 6, cells
    wrapped = [c for c in cells if c[0] and c[1] != 1]  # W_O's and the sum's "heads" cells are empty
    assert not wrapped, wrapped
    tab.assert_no_errors()


# The counter's scrolling box: its sizes, where it is, and its name and focus for a keyboard.
SCROLL_BOX = r"""() => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("params_table"));
  const box = v.el.shadowRoot.querySelector(".ae-wt-box"), b = box.getBoundingClientRect();
  return {scroll: box.scrollWidth, client: box.clientWidth, left: box.scrollLeft, tabindex: box.getAttribute("tabindex"),
          role: box.getAttribute("role"), label: box.getAttribute("aria-label"),
          box: [b.left, b.top, b.right, b.bottom]};
}"""


def white_share(png: bytes, x0: int, x1: int, y0: int, y1: int) -> float:
    """The share of the pixels in columns x0..x1-1 and rows y0..y1-1 of a screenshot that are white."""
    import io

    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)[y0:y1, x0:x1]  # (rows, cols, 3)
    return float(np.mean(np.all(img >= 250, axis=-1)))


@pytest.mark.on_only
def test_on_a_phone_the_counter_shows_that_it_scrolls_and_a_keyboard_scrolls_it(new_tab, exported):
    """Issue 55, 3: on a phone the counter scrolled sideways with no sign that it does. Its cut
    edge is shaded while more of the table lies beyond it (and plain once the table's end is in
    sight), and the box is a named region the keyboard can focus and scroll."""
    tab = new_tab(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = tab.page
    page.goto(exported.as_uri())
    page.wait_for_function(READY, timeout=45_000)
    # The phone's fit narrows the box (a new element): the keys go to the one it leaves.
    page.wait_for_function(PHONE_FITTED, timeout=45_000)
    page.evaluate("() => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('params_table'));"
                  " v.el.scrollIntoView({block: 'center'}); }")
    st = page.evaluate(SCROLL_BOX)
    assert st["scroll"] > st["client"] + 20, st  # it does scroll on a phone
    assert st["tabindex"] == "0" and st["role"] == "region" and st["label"], st
    left, top, right, bottom = (round(x) for x in st["box"])
    edge = white_share(page.screenshot(), right - 4, right - 1, top + 2, bottom - 2)
    assert edge < 0.05, f"the cut edge is plain white in {edge:.0%} of its pixels: no sign that the table goes on"
    # The keyboard scrolls it: focus the box (as Tab does), then the arrow key.
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('params_table'))"
                  ".el.shadowRoot.querySelector('.ae-wt-box').focus()")
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('params_table'))"
                           ".el.shadowRoot.querySelector('.ae-wt-box').scrollLeft > 0")
    page.keyboard.press("End")
    page.wait_for_function("""() => { const b = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('params_table'))
                              .el.shadowRoot.querySelector('.ae-wt-box'); return b.scrollLeft + b.clientWidth >= b.scrollWidth - 1; }""")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    end = white_share(page.screenshot(), right - 2, right - 1, top + 2, bottom - 2)
    assert end > 0.5, f"at the table's end its edge is still shaded ({end:.0%} white): the sign says nothing"
    tab.assert_no_errors()
