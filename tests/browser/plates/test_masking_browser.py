"""The masking plate in a real Chromium: served by `python -m app serve`, and exported to one file
opened from disk with the network cut off.

A real mouse click on the mask flips a cell. masking.js (with mirror.js) recomputes every number
in the browser at once; on a served page Python then recomputes with attention_core and pushes
its numbers. Both are compared with attention_core (through data.py's view_data, which the
node parity test ties to masking.js) to 1e-9, and every text on screen exactly.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from helpers import COUNT_DRAWS, scroll_plot_into_view, wait_synced, ws_count

pytestmark = pytest.mark.browser

SOURCES = ("mask", "scores", "weights", "row_sums", "output", "contrast_weights", "contrast_row_sums",
           "contrast_output", "norms", "checks")

READY = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length) return false;
  const d = Bokeh.documents[0], m = d.get_model_by_name("mask_plot"), w = d.get_model_by_name("weights");
  if (m == null || w == null || w.data.text == null || w.data.text.length === 0) return false;
  const v = Bokeh.index.find_one(m);
  return v != null && v.canvas_view != null && v.frame != null && v.frame.bbox.width > 0;
}"""

READ = r"""(names) => {
  const d = Bokeh.documents[0], m = (n) => d.get_model_by_name(n);
  const enc = (x) => x === -Infinity ? "-inf" : (typeof x === "number" && Number.isNaN(x)) ? "NaN" : x;
  const out = {};
  for (const n of names) {
    const s = m(n).data, cols = {};
    for (const k of Object.keys(s)) cols[k] = Array.from(s[k]).map(enc);
    out[n] = cols;
  }
  out._notes = m("notes").text;
  out._kind = m("kind").active;
  out._tags = Array.from(m("sync").tags);  // the busy mark (AESync)
  out._visible = {weights: m("weights_plot").visible, contrast: m("contrast_weights_plot").visible};
  out._url = window.location.href;
  const nv = Bokeh.index.find_one(m("notes"));
  out._notes_dom = nv ? (nv.shadow_el || nv.el).textContent : null;
  out._tables = {};  // the two tables' body cells as the page shows them
  for (const t of ["checks_table", "demo_table"]) {
    const tv = Bokeh.index.find_one(m(t));
    out._tables[t] = tv ? Array.from((tv.shadow_el || tv.el).querySelectorAll("tbody tr"))
      .map((r) => Array.from(r.cells).map((c) => c.textContent)) : null;
  }
  return out;
}"""

# Records the 'weights' source at its first change after this runs, with how many server
# patches had arrived by then (0 on a page computing for itself).
WATCH_FIRST_CHANGE = r"""() => {
  const src = Bokeh.documents[0].get_model_by_name("weights");
  const p0 = window.__ae_ws ? window.__ae_ws.patches_in : 0;
  window.__ae_first = null;
  const note = () => {
    if (window.__ae_first !== null) return;
    window.__ae_first = {patches: (window.__ae_ws ? window.__ae_ws.patches_in : 0) - p0, value: Array.from(src.data.value)};
  };
  src.change.connect(note);
  src.properties.data.change.connect(note);
}"""

CELL = r"""([plot, fx, fy]) => {
  const m = Bokeh.documents[0].get_model_by_name(plot), v = Bokeh.index.find_one(m);
  const r = v.canvas_view.events_el.getBoundingClientRect();
  return [r.left + v.frame.x_scale.compute(m.x_range.synthetic(fx)), r.top + v.frame.y_scale.compute(m.y_range.synthetic(fy))];
}"""


def within_last_digit(actual: float, printed: str) -> bool:
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return abs(Decimal(float(actual)) - Decimal(printed)) <= Decimal(1).scaleb(-decimals)


def read(page) -> dict:
    return page.evaluate(READ, list(SOURCES))


def open_plate(page, url: str) -> dict:
    page.goto(url)
    page.wait_for_function(READY, timeout=60_000)
    return read(page)


def tap_cell(page, i: int, j: int) -> None:
    """A real mouse click on cell (q_{i+1}, k_{j+1}) of the mask."""
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('mask_plot'))"
                  ".canvas_view.events_el.scrollIntoView({block: 'center'})")
    x, y = page.evaluate(CELL, ["mask_plot", f"k{j + 1}", f"q{i + 1}"])
    page.mouse.click(x, y)


def assert_matches_core(got: dict, state, tol: float = 1e-9) -> None:
    """Every number on the page equals attention_core's for `state` (MaskingState) to `tol`, every text exactly."""
    from app.plates.masking.data import view_data

    want = view_data(state)
    st = state.steps()
    for name in SOURCES:
        for col, values in want[name].items():
            have = got[name][col]
            assert len(have) == len(values), (name, col, len(have), len(values))
            for k, (x, y) in enumerate(zip(have, values)):
                assert x != "NaN", (name, col, k)
                if isinstance(y, float):
                    x = -np.inf if x == "-inf" else x
                    assert x == y or abs(x - y) <= tol, (name, col, k, x, y)
                else:
                    assert x == y, (name, col, k, x, y)
    n = state.n
    w = np.array(got["weights"]["value"], dtype=float).reshape(n, n)
    np.testing.assert_allclose(w, st.weights, rtol=0, atol=tol)
    np.testing.assert_allclose(np.array(got["output"]["value"], dtype=float).reshape(n, -1), st.output, rtol=0, atol=tol)
    assert got["_notes"] == want["_notes"]
    c = want["checks"]
    assert got["checks"]["ok"] == c["ok"], got["checks"]
    # Masking before the softmax fails no check (a check with nothing to check is None, not passed);
    # zeroing after it fails the row sums it breaks (tests/app/plates/test_masking_checks.py reads
    # every line against the cells).
    assert False not in c["ok"] if not state.contrast else c["ok"][0] == bool(np.all(state.mask().all(axis=1))), c
    assert got["_tables"]["checks_table"] == [list(r) for r in zip(c["mark"], c["check"], c["detail"])]


def assert_pins(got: dict, state) -> None:
    """The pins, read off the page: rows sum to 1 (0 when empty), blocked weights exactly 0, the contrast < 1."""
    import attention_core as ac

    n = state.n
    mask = np.array(got["mask"]["allowed"], dtype=bool).reshape(n, n)
    assert np.array_equal(mask, state.mask())
    w = np.array(got["weights"]["value"], dtype=float).reshape(n, n)
    empty = ~mask.any(axis=1)
    np.testing.assert_allclose(w.sum(axis=1), np.where(empty, 0.0, 1.0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["row_sums"]["sum"], np.where(empty, 0.0, 1.0), rtol=0, atol=1e-12)
    assert np.all(w[~mask] == 0.0)
    cs = np.array(got["contrast_row_sums"]["sum"], dtype=float)
    blocks = (~mask).any(axis=1)
    assert np.all(cs[blocks] < 1.0)
    Q, K, V = state.qkv()
    lo, lw = ac.attention_loop(Q, K, V, mask)
    np.testing.assert_allclose(w, lw, rtol=0, atol=1e-9)


def assert_seed_numbers(got: dict) -> None:
    """Seed 000's printed weights and output in the demo table as the page shows it, and seed 004's
    statement next to them; every cell is attention_core's number written to 3 decimals."""
    from app.shared.formatting import fix
    from app.plates.masking.demo import demo_numbers

    rows = got["_tables"]["demo_table"]
    assert [r[0] for r in rows] == ["item 1", "item 2", "item 3", "Σ weights", "output"]
    cols = {name: [r[k] for r in rows] for k, name in enumerate(
        ["item", "score", "value", "plain", "masked_score", "exp", "before", "after"])}
    d = demo_numbers()
    core = [*d["plain"].tolist(), d["out_plain"]]
    for x, shown, printed in zip(core, cols["plain"][:3] + cols["plain"][4:], ["0.665", "0.245", "0.090", "1.425"]):
        assert within_last_digit(x, printed) and shown == printed, (x, shown, printed)
    assert cols["masked_score"][2] == "−∞" and cols["exp"][2] == "0"  # exp(−∞) = 0
    assert cols["before"] == ["0.731", "0.269", "0", "1.000", "1.269"]  # the survivors renormalise
    assert cols["after"] == ["0.665", "0.245", "0", "0.910", "1.155"]  # zeroed after: the sum falls below 1
    for name in ("plain", "before", "after"):
        core = [*d[name].tolist(), float(d[name].sum()), d["out_" + name]]
        assert cols[name] == ["0" if x == 0 else fix(x, 3) for x in core], name


def check_tap_empties_row_one(page, before: dict):
    """Tap (q1, k1) of the causal mask: q1 had only k1, so row 1 may now attend to nothing."""
    from app.plates.masking.state import MaskingState

    page.evaluate(WATCH_FIRST_CHANGE)
    tap_cell(page, 0, 0)
    first = page.evaluate("() => window.__ae_first")
    live = read(page)
    # The browser computed the new weights itself, before any message came back from a server.
    assert first is not None and first["patches"] == 0, first
    assert first["value"][:5] == [0.0] * 5, first
    want = MaskingState()
    want.flip(0, 0)
    assert live["_kind"] == 4
    page.wait_for_function(RUN_ENDED, timeout=30_000)  # taps in a row are a run: it ends once they are still
    assert live["weights"]["value"] != before["weights"]["value"]
    assert_matches_core(live, want)
    assert_pins(live, want)
    assert live["weights"]["value"][:5] == [0.0] * 5 and live["output"]["value"][:4] == [0.0] * 4
    assert "Row 1 may attend to nothing: its weights are all 0 and its output is 0, not NaN." in live["_notes_dom"]
    return live, want


# --------------------------------------------------------------------------- served


def test_served_plate_a_tap_and_keys_are_live_then_python_agrees(tab, served_url):
    """One load: the seed's numbers; a real tap that empties row 1, live and then Python's; the
    contrast (zeroing after the softmax) on and off again; then the keyboard (keys.masking_keys:
    Tab, two cells flipped with Space and Enter, the live region, the tables)."""
    from app.plates.masking.state import MaskingState
    from keys import masking_keys

    page = tab.page
    st0 = open_plate(page, f"{served_url}/masking")
    wait_synced(page)
    assert_matches_core(st0, MaskingState())
    assert_pins(st0, MaskingState())
    assert_seed_numbers(st0)
    assert st0["weights"]["value"][0] == 1.0  # causal row 0 on key 0: exactly 1
    assert "may attend to nothing" not in st0["_notes"]

    sent = ws_count(page)
    page.evaluate("() => { window.__ae_w0 = Bokeh.documents[0].get_model_by_name('weights').data; }")
    live, want = check_tap_empties_row_one(page, st0)

    wait_synced(page, sent)  # Python folded the tap in and pushed attention_core's numbers
    assert page.evaluate("() => window.__ae_ws.patches_in") > 0
    after = read(page)
    assert_matches_core(after, want)
    assert_pins(after, want)
    page.wait_for_function("() => window.location.search.includes('cells=00000.11000.11100.11110.11111')")

    # The contrast: a real click on the toggle; rows that block something now sum to less than 1.
    sent = ws_count(page)
    page.get_by_text("Zero the weights (after softmax)").click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('contrast_weights_plot').visible")
    want.contrast = True
    contrast = read(page)
    assert contrast["_visible"] == {"weights": False, "contrast": True}
    assert_matches_core(contrast, want)
    cs = contrast["contrast_row_sums"]["sum"]
    assert cs[0] == 0.0 and all(x < 1 for x in cs[1:4]) and abs(cs[4] - 1) <= 1e-12
    wait_synced(page, sent)
    assert_matches_core(read(page), want)

    # And back: the masked scores' softmax is shown, Python's once it has answered.
    sent = ws_count(page)
    page.get_by_text("Mask the scores (before softmax)").click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('weights_plot').visible")
    want.contrast = False
    wait_synced(page, sent)
    back = read(page)
    assert back["_visible"] == {"weights": True, "contrast": False}
    assert_matches_core(back, want)

    masking_keys(tab, want)


@pytest.mark.on_only
def test_served_a_held_arrow_key_never_draws_a_step_back(tab, served_url):
    """Key presses 15 ms apart (a held key repeats every ~30 ms) on the served n slider: Python
    waits for the run to end (a.sync is "busy") and folds it in once, and an answer
    to an earlier step that still lands after a later one (replayed here) is never drawn; the
    page then holds attention_core's numbers."""
    from app.plates.masking.state import N_MAX, N_MIN, MaskingState

    from helpers import hold_arrow_key

    page = tab.page
    open_plate(page, f"{served_url}/masking")
    wait_synced(page)
    hold_arrow_key(page, SOURCES, N_MIN, N_MAX)
    assert_matches_core(read(page), MaskingState(n=N_MAX), tol=0.0)
    tab.assert_no_errors()


# Issue 54, 5: with no mask, ✓ stood beside "A row with one allowed key ..." with no such row.
NOTHING_TO_CHECK = ["–", "A row with one allowed key gives it weight exactly 1",
                    "nothing to check: no row has exactly one allowed key"]


@pytest.mark.on_only
def test_served_a_check_with_nothing_to_check_says_so(tab, served_url):
    from app.plates.masking.state import MaskingState

    st = open_plate(tab.page, f"{served_url}/masking?kind=none")
    assert NOTHING_TO_CHECK in st["_tables"]["checks_table"], st["_tables"]["checks_table"]
    assert_matches_core(st, MaskingState(kind="none"))
    tab.assert_no_errors()


# --------------------------------------------------------------------------- exported


@pytest.fixture
def masking_html(export_plate) -> Path:
    return export_plate("masking")


def test_exported_file_works_offline(new_tab, masking_html):
    from app.plates.masking.state import MaskingState

    tab = new_tab()
    tab.block_network()
    page = tab.page
    st0 = open_plate(page, masking_html.as_uri())
    assert_matches_core(st0, MaskingState())
    assert_seed_numbers(st0)

    live, want = check_tap_empties_row_one(page, st0)
    tap_cell(page, 0, 0)  # and back: the causal mask again, now as custom cells
    back = read(page)
    assert_matches_core(back, MaskingState(kind="custom", cells=np.tril(np.ones((5, 5), dtype=bool))))

    # A widget: padding everything leaves every row empty, all zeros, never NaN.
    page.get_by_text("padding", exact=True).click()
    page.evaluate("() => { const p = Bokeh.documents[0].get_model_by_name('p'); p.end = 5; p.value = 5; }")
    allpad = read(page)
    assert_matches_core(allpad, MaskingState(kind="padding", p=5))
    assert "Rows 1, 2, 3, 4 and 5 may attend to nothing" in allpad["_notes_dom"]

    page.get_by_role("button", name="Reset").click()  # back to the defaults, computed in the page
    assert_matches_core(read(page), MaskingState())

    tab.assert_offline()
    tab.assert_no_errors()


@pytest.mark.on_only
def test_exported_a_check_with_nothing_to_check_says_so(new_tab, masking_html):
    from app.plates.masking.state import MaskingState

    tab = new_tab()
    tab.block_network()
    page = tab.page
    open_plate(page, masking_html.as_uri())
    page.get_by_text("none", exact=True).click()  # computed in the page
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('mask').data.allowed.every((v) => v)")
    st = read(page)
    assert NOTHING_TO_CHECK in st["_tables"]["checks_table"], st["_tables"]["checks_table"]
    assert_matches_core(st, MaskingState(kind="none"))
    tab.assert_offline()
    tab.assert_no_errors()


# No model marked "busy" any more (the run of changes has ended), then two frames.
RUN_ENDED = r"""() => {
  for (const m of Bokeh.documents[0].all_models) if (Array.isArray(m.tags) && m.tags.includes("busy")) return false;
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
}"""


@pytest.mark.on_only
def test_a_step_of_n_draws_each_figure_once_and_its_end_draws_none(new_tab, masking_html):
    """A step of the n slider marks the page busy while a run of steps may follow; when the mark
    goes (150 ms later) no figure is drawn again: the mark sits on a source no glyph draws."""
    from app.plates.masking.state import MaskingState

    tab = new_tab()
    tab.block_network()
    page = tab.page
    open_plate(page, masking_html.as_uri())
    assert page.evaluate(COUNT_DRAWS, None) == 5  # mask, scores, weights, output, norms
    # The glue's callback runs a moment after the change (BokehJS calls CustomJS asynchronously),
    # and on a loaded machine a second evaluate can come after the whole 150 ms run: watch from
    # within the page (a zero timeout is due before the run's 150 ms one).
    seen = page.evaluate("""async () => {
      const d = Bokeh.documents[0], sync = d.get_model_by_name('sync'), until = performance.now() + 5000;
      d.get_model_by_name('n').value = 6;
      while (sync.tags.indexOf('busy') < 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 0));
      return Array.from(sync.tags);
    }""")
    assert seen == ["busy"], seen
    page.wait_for_function(RUN_ENDED, timeout=30_000)
    draws = page.evaluate("() => window.__ae_draws")
    assert draws == dict.fromkeys(draws, 1) and "mask_plot" in draws, draws
    assert_matches_core(read(page), MaskingState(n=6))
    tab.assert_offline()
    tab.assert_no_errors()


@pytest.mark.on_only
def test_quick_taps_each_flip_a_cell(new_tab, masking_html):
    """Taps closer than 300 ms reach Bokeh as a Tap then a DoubleTap; each must flip its cell.

    Two quick clicks on two cells flip both; a double click on a cell flips it twice.
    """
    from app.plates.masking.state import MaskingState

    tab = new_tab()
    tab.block_network()
    page = tab.page
    open_plate(page, masking_html.as_uri())
    scroll_plot_into_view(page, "mask_plot")
    a = page.evaluate(CELL, ["mask_plot", "k2", "q1"])  # blocked under the causal mask
    b = page.evaluate(CELL, ["mask_plot", "k1", "q3"])  # allowed
    page.mouse.click(*a)
    page.mouse.click(*b)
    want = MaskingState(kind="custom", cells=np.tril(np.ones((5, 5), dtype=bool)))
    want.cells[0, 1] = True
    want.cells[2, 0] = False
    assert_matches_core(read(page), want)
    assert_pins(read(page), want)

    page.mouse.dblclick(*a)  # two more flips of the same cell: allowed again, as it was
    assert_matches_core(read(page), want)
    tab.assert_offline()
    tab.assert_no_errors()
