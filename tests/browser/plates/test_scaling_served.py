"""The "Why divide by √d_k" plate in a real Chromium: served by `python -m app serve`, and as the
exported offline file with every network request blocked.

The page's numbers are read from its named Bokeh models and compared with attention_core: the
seed numbers on first load, then one real click (the scaling box) and one real mouse drag (along
the flat-line chart's width axis), checked during the drag and after it, and on the served page
again once Python has answered everything the page sent.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from app.plates.scaling.data import readout_html, std_text
from app.plates.scaling.state import histogram_tables, sample_stds
from helpers import moved, scroll_plot_into_view, to_page_xy, wait_synced

pytestmark = pytest.mark.browser
WAIT = 60_000  # ms: generous, the machine may be shared

READY = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length) return false;
  const d = Bokeh.documents[0];
  for (const n of ["histogram", "flat_current", "jacobian", "entropy_current", "d_k", "scaled", "flat_plot"])
    if (d.get_model_by_name(n) == null) return false;
  const v = Bokeh.index.find_one(d.get_model_by_name("flat_plot"));
  return v != null && v.frame != null && v.frame.bbox.width > 0 && d.get_model_by_name("histogram").data.count.length > 0;
}"""

READ = r"""(all) => {
  const d = Bokeh.documents[0], m = (n) => d.get_model_by_name(n);
  const data = (n) => { const s = m(n).data, o = {}; for (const k of Object.keys(s)) o[k] = Array.from(s[k]); return o; };
  const names = ["histogram", "density", "flat_current", "jacobian", "entropy_current", "rendered"].concat(all ?
    ["contrast", "contrast_jacobian", "flat_scaled", "flat_unscaled", "entropy", "std_table"] : []);
  const out = {};
  for (const n of names) out[n] = data(n);
  out.d_k = m("d_k").value; out.scaled = Array.from(m("scaled").active);
  out.readout = m("readout").text; out.std_label = m("std_label").text; out.jacobian_max = m("jacobian_max").text;
  const rv = Bokeh.index.find_one(m("readout"));
  out.readout_dom = rv ? (rv.shadow_el || rv.el).textContent : null;
  out.url = window.location.href;
  return out;
}"""


def read(page, everything: bool = False) -> dict:
    """The page's numbers: the current width's views (and with `everything`, the fixed curves too)."""
    return page.evaluate(READ, everything)


def open_page(page, url: str) -> dict:
    page.goto(url)
    page.wait_for_function(READY, timeout=WAIT)
    return read(page, everything=True)


def assert_matches_core(st: dict, d_k: int, scaled: bool, tol: float = 1e-9) -> None:
    """Every number of the current width on the page equals attention_core's."""
    assert 2 ** st["d_k"] == d_k and (st["scaled"] == [0]) == scaled, (st["d_k"], st["scaled"])
    w = ac.flat_line([d_k], [2, 1, 0], scaled=scaled)[0]
    fc = st["flat_current"]
    assert fc["d"] == [d_k] * 3
    np.testing.assert_allclose(fc["w"], w, rtol=0, atol=tol)
    jac = ac.softmax_jacobian(w)
    np.testing.assert_allclose(st["jacobian"]["value"], jac.ravel(), rtol=0, atol=tol)
    h = float(ac.entropy(w))
    assert abs(st["entropy_current"]["h"][0] - h) <= tol
    edges, counts = histogram_tables()[(d_k, scaled)]
    assert st["histogram"]["count"] == counts.tolist()
    np.testing.assert_allclose(st["histogram"]["left"], edges[:-1], rtol=0, atol=tol)
    np.testing.assert_allclose(st["histogram"]["right"], edges[1:], rtol=0, atol=tol)
    dens = st["density"]
    np.testing.assert_allclose(dens["pdf"], ac.normal_density(np.array(dens["x"]), 1.0 if scaled else d_k),
                               rtol=1e-12, atol=0)
    raw, sc = sample_stds()[d_k]
    root = math.sqrt(d_k)
    scores = [root * b / root if scaled else root * b for b in (2.0, 1.0, 0.0)]
    assert st["readout"] == readout_html(d_k, scaled, raw, sc, scores, w, float(np.abs(jac).max()), h)


def assert_seed_numbers(st: dict) -> None:
    """The seeds' prints, read from the page's models and text (default: d_k = 64, raw)."""
    assert "raw 8.08" in st["readout_dom"] and "÷√64: 1.01" in st["readout_dom"], st["readout_dom"]
    std = st["std_table"]
    i = std["d"].index(64)
    assert abs(std["unscaled"][i] - 8.08) <= 0.01 and abs(std["scaled"][i] - 1.01) <= 0.01
    assert st["std_label"].startswith("std 8.08")
    c = st["contrast"]
    assert c["label"] == ["0.99966", "0.00034", "0.0000001", "0.665", "0.245", "0.090"]
    for got, printed in zip(c["weight"], [0.99966, 0.00034, 0.0000001, 0.665, 0.245, 0.090]):
        unit = 1e-7 if printed < 1e-6 else 1e-5 if printed > 0.99 or printed < 0.001 else 1e-3
        assert abs(got - printed) <= unit, (got, printed)
    assert abs(st["contrast_jacobian"]["largest"][1] - 0.223) <= 0.001  # α_0(1 − α_0) for [1, 0, −1]
    fs, fu = st["flat_scaled"], st["flat_unscaled"]
    for e in range(11):  # flat at every power of two
        k = fs["d"].index(2.0 ** e)
        for col, printed in zip(("w0", "w1", "w2"), (0.665, 0.245, 0.090)):
            assert abs(fs[col][k] - printed) <= 0.001, (e, col, fs[col][k])
    assert fu["w0"][-1] > 0.99 and abs(fu["w0"][-1] - 0.99999999999999) <= 1e-14
    ent = st["entropy"]
    assert all(abs(x - math.log(3)) < 1e-15 for x in ent["log_m"])


def checkbox(page):
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('scaled'))"
                  ".el.setAttribute('data-ae-name', 'scaled')")
    return page.locator("[data-ae-name=scaled] input[type=checkbox]")


def drag_along_widths(page, d_from: float, d_to: float, steps: int = 16) -> list[dict]:
    """A real mouse drag on the flat-line chart from width d_from to d_to; the page read at every move."""
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('flat_plot'))"
                  ".canvas_view.events_el.scrollIntoView({block: 'center'})")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    x0, y0 = to_page_xy(page, "flat_plot", d_from, 0.45)
    x1, y1 = to_page_xy(page, "flat_plot", d_to, 0.45)
    page.mouse.move(x0, y0)
    assert to_page_xy(page, "flat_plot", d_from, 0.45) == (x0, y0), "the chart moved under the pointer"
    page.mouse.down()
    readings = []
    for i in range(1, steps + 1):
        t = i / steps
        moved(page, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
        readings.append(read(page))
    page.mouse.up()
    return readings


def click_then_drag(page, served: bool) -> dict:
    """Tick the scaling box (at the width the page shows, raw), then drag the width from 64 to
    1024; check each step against the core."""
    before = read(page)
    d_k = 2 ** before["d_k"]
    checkbox(page).click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('flat_current').data.w[0] < 0.7", timeout=WAIT)
    st = read(page)
    assert_matches_core(st, d_k, True)
    assert st["histogram"]["left"] != before["histogram"]["left"]
    assert st["std_label"] == std_text(d_k, sample_stds()[d_k][1], True)  # "std 1.01" at 64
    if served:  # let Python's answer to the click land before the drag starts
        page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('rendered').data.scaled[0] === 1", timeout=WAIT)
        wait_synced(page, timeout=WAIT)
        assert_matches_core(read(page), d_k, True)

    readings = drag_along_widths(page, 64, 1024)
    widths = []
    for r in readings:  # live during the drag: every reading is the core's for the width it shows
        d_k = 2 ** r["d_k"]
        widths.append(d_k)
        assert_matches_core(r, d_k, True)
    assert {128, 256, 512, 1024} <= set(widths), widths  # the numbers moved with the pointer
    return read(page)


def test_served_page_seed_numbers_keys_click_and_drag(tab, served_url, server):
    """One load: the seed's numbers; the keyboard (keys.scaling_keys: Tab, the width moved from
    the two charts' handles, 64 to 128 in three steps, the live region, the tables); then a real
    click on the scaling box and a drag of the width, live, then Python's numbers."""
    from keys import scaling_keys

    page = tab.page
    st = open_page(page, f"{served_url}/scaling")
    wait_synced(page, timeout=WAIT)
    assert_seed_numbers(st)
    assert_matches_core(st, 64, False)
    assert "d_k=" not in st["url"]

    scaling_keys(tab)

    sent = wait_synced(page, timeout=WAIT)["sent"]
    click_then_drag(page, served=True)
    tallies = wait_synced(page, sent_before=sent, timeout=WAIT)
    assert tallies["errors"] == []
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('rendered').data.d_k[0] === 1024", timeout=WAIT)
    st = read(page)  # Python has folded the gesture in and answered with attention_core's numbers
    assert st["rendered"] == {"d_k": [1024], "scaled": [1]}
    assert_matches_core(st, 1024, True)
    assert "0.665, 0.245, 0.090" in st["readout_dom"]
    page.wait_for_function("() => location.search.includes('d_k=1024') && location.search.includes('scaled=1')", timeout=WAIT)

    # Back to raw: the leading weight at 1024 is 1 − 1.3e-14, and the Jacobian has died.
    checkbox(page).click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('rendered').data.scaled[0] === 0", timeout=WAIT)
    wait_synced(page, timeout=WAIT)
    st = read(page)
    assert_matches_core(st, 1024, False)
    assert st["flat_current"]["label"][0] == "1 − 1.3e-14" and st["jacobian_max"] == "largest entry 1.3e-14"
    tab.assert_no_errors()


@pytest.mark.on_only
def test_served_bad_url_then_quick_changes_never_leave_stale_numbers(tab, served_url, server):
    page = tab.page
    st = open_page(page, f"{served_url}/scaling?d_k=100&scaled=banana")
    notice = page.get_by_text("Link settings")
    notice.wait_for(state="visible")
    text = notice.inner_text()
    assert "'d_k' set to 128" in text and "scaled" in text, text  # said, and snapped to a power of two
    assert_matches_core(st, 128, False)

    sent = wait_synced(page, timeout=WAIT)["sent"]
    # Record what every animation frame shows: the slider against the numbers drawn.
    page.evaluate("""() => { window.__ae_frames = []; const d = Bokeh.documents[0];
        const tick = () => { const w = d.get_model_by_name('flat_current').data;
          __ae_frames.push([d.get_model_by_name('d_k').value, d.get_model_by_name('scaled').active.length, w.d[0], w.w[0]]);
          if (window.__ae_frames.length < 2000) requestAnimationFrame(tick); };
        requestAnimationFrame(tick); }""")
    # Five quick width changes and a toggle in one task, as a held key sends them.
    page.evaluate("""() => { const d = Bokeh.documents[0], s = d.get_model_by_name('d_k');
        for (const e of [7, 8, 3, 9, 2]) s.value = e; d.get_model_by_name('scaled').active = [0]; }""")
    wait_synced(page, sent_before=sent, timeout=WAIT)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('rendered').data.d_k[0] === 4", timeout=WAIT)
    st = read(page)
    assert_matches_core(st, 4, True)
    frames = page.evaluate("() => __ae_frames")
    for exp, scaled, d, w0 in frames:
        assert d == 2 ** exp, (exp, d)
        assert abs(w0 - ac.flat_line([d], [2, 1, 0], scaled=bool(scaled))[0][0]) < 1e-12
    tab.assert_no_errors()


@pytest.mark.on_only
def test_served_answer_to_a_change_of_width(tab, served_url, server):
    """Python's answer to a change of width (every view of the plate, a dozen and more model
    changes) lands before the server acknowledges the page's last message, and its numbers are
    attention_core's."""
    page = tab.page
    st = open_page(page, f"{served_url}/scaling")
    scaled = st["scaled"] == [0]
    sent = wait_synced(page, timeout=WAIT)["sent"]
    page.evaluate("() => { Bokeh.documents[0].get_model_by_name('d_k').value = 9; }")
    wait_synced(page, sent_before=sent, timeout=WAIT)
    st = read(page)
    assert st["rendered"]["d_k"] == [512]  # Python's answer is in
    assert_matches_core(st, 512, scaled)
    tab.assert_no_errors()


@pytest.fixture
def exported(export_plate) -> Path:
    return export_plate("scaling")


def test_exported_file_offline(new_tab, exported):
    tab = new_tab()
    tab.block_network()
    page = tab.page
    st = open_page(page, exported.as_uri())
    assert_seed_numbers(st)
    assert_matches_core(st, 64, False)
    st = click_then_drag(page, served=False)
    assert_matches_core(st, 1024, True)
    assert "0.665, 0.245, 0.090" in st["readout_dom"]
    tab.assert_offline()
    tab.assert_no_errors()

    # A link's settings work without Python too: read by link.js with scaling.js's url_parse, same notices.
    link = new_tab()
    link.block_network()
    st = open_page(link.page, exported.as_uri() + "?d_k=100&scaled=1&zzz=1")
    notice = link.page.get_by_text("Link settings")
    notice.wait_for(state="visible", timeout=WAIT)
    text = notice.inner_text()
    assert "'d_k' set to 128, the nearest allowed value" in text and "ignored unknown setting 'zzz'" in text, text
    link.page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('flat_current').data.d[0] === 128",
                                timeout=WAIT)
    assert_matches_core(read(link.page), 128, True)
    link.assert_offline()
    link.assert_no_errors()


@pytest.mark.on_only
def test_exported_quick_taps_each_set_the_width(new_tab, exported):
    """A second tap within 300 ms reaches Bokeh as a DoubleTap, not a Tap: it must still count."""
    tab = new_tab()
    tab.block_network()
    page = tab.page
    open_page(page, exported.as_uri())
    scroll_plot_into_view(page, "flat_plot")
    at_256, at_16 = to_page_xy(page, "flat_plot", 256, 0.45), to_page_xy(page, "flat_plot", 16, 0.45)
    page.mouse.click(*at_256)
    page.mouse.click(*at_16)
    assert_matches_core(read(page), 16, False)
    page.mouse.dblclick(*at_256)
    assert_matches_core(read(page), 256, False)
    tab.assert_offline()
    tab.assert_no_errors()


@pytest.mark.on_only
def test_exported_drag_recomputes_only_when_the_width_changes(new_tab, exported):
    """d_k snaps to powers of two: a drag move that stays on the width shown changes no source,
    so nothing repaints; each new width recomputes once, and every reading matches the core."""
    tab = new_tab()
    tab.block_network()
    page = tab.page
    open_page(page, exported.as_uri())
    page.evaluate("() => { window.__hist_changes = 0; Bokeh.documents[0].get_model_by_name('histogram')"
                  ".change.connect(() => { window.__hist_changes += 1; }); }")
    readings = drag_along_widths(page, 64, 1024, steps=24)
    widths = [2 ** r["d_k"] for r in readings]
    for r, d_k in zip(readings, widths):
        assert_matches_core(r, d_k, False)
    new_widths = 1 + sum(1 for a, b in zip(widths, widths[1:]) if a != b)  # the press, then each change
    assert set(widths) == {64, 128, 256, 512, 1024}, widths
    changes = page.evaluate("() => window.__hist_changes")
    assert changes <= new_widths + 1, (changes, widths)  # 25 (one per move) before moves were skipped
    tab.assert_offline()
    tab.assert_no_errors()
