"""Keyboard and screen readers on every plate, served, with real key presses (app/runtime/a11y.js).

Each plate's served functional test (tests/browser/plates/) opens its page once and runs its
numbers, its gesture and these keys on it: per plate, Tab reaches every control and every point
handle; the focused handle shows its ring; arrow keys (Shift: further) move a point, or Space
flips a mask cell, and the numbers that follow are attention_core's; the polite live region then
says the new weights; every plot has a text alternative; the table toggle, pressed from the
keyboard, shows tables holding the page's numbers.
"""

from __future__ import annotations

import re

import numpy as np
import attention_core as ac
from helpers import (READ_STATE, core_state, assert_matches_core as lookup_matches_core, focus_ring, handle,
                     tab_walk, wait_synced)

WAIT = 60_000  # ms: the machine may be shared

IDLE = r"""(names) => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length || !Bokeh.documents[0].is_idle) return false;
  const d = Bokeh.documents[0];
  for (const n of names) {
    const m = d.get_model_by_name(n), v = m && Bokeh.index.find_one(m);
    if (!v || !v.frame || !(v.frame.bbox.width > 0)) return false;
  }
  return document.querySelectorAll("*").length > 0 && window.__ae_loaded !== undefined;
}"""

# Every visible figure's canvas: its role and label (a11y.js describe).
ALTS = r"""() => Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure" || m.constructor.name === "Figure")
  .filter((m) => m.visible).map((m) => {
    const v = Bokeh.index.find_one(m), el = v && v.canvas_view && v.canvas_view.el;
    return {name: m.name, role: el && el.getAttribute("role"), label: el && el.getAttribute("aria-label")};
  })"""

# The table view's tables as lists of rows of cell texts (thead and tbody), by caption.
TABLES = r"""() => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("ae-tables"));
  const out = {};
  for (const t of (v.shadow_el || v.el).querySelectorAll("table"))
    out[t.caption.textContent] = Array.from(t.rows, (r) => Array.from(r.cells, (c) => c.textContent));
  return out;
}"""


def keys_ready(page, plots: list[str]) -> None:
    """The page's keyboard handles are there (a11y.js has run) and it agrees with Python."""
    page.wait_for_function(IDLE, arg=plots, timeout=WAIT, polling=200)
    wait_synced(page, timeout=WAIT)


def check_tab_reaches_everything(page) -> None:
    names, reached = tab_walk(page)
    missed = [n for i, n in enumerate(names) if i not in reached]
    assert not missed, f"Tab never reached: {missed}"


def check_alts(page, want_names: set[str]) -> None:
    alts = {a["name"]: a for a in page.evaluate(ALTS)}
    assert want_names <= set(alts), (want_names, set(alts))
    for a in alts.values():
        assert a["role"] == "img" and a["label"] and len(a["label"]) > 30, a


def toggle_tables(page) -> dict:
    """Reach the table toggle with the keyboard (focus it, press Space) and read the tables."""
    page.get_by_role("button", name="Show the numbers as tables").focus()
    page.keyboard.press("Space")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('ae-tables').visible "
                           "&& Bokeh.documents[0].get_model_by_name('ae-tables').text.includes('<table>')")
    return page.evaluate(TABLES)


def num(text: str) -> float:
    return float(text.replace("−", "-").replace("∞", "inf"))


def press(page, keys: list[str]) -> None:
    for k in keys:
        page.keyboard.press(k)


# --------------------------------------------------------------------------- lookup
def lookup_keys(tab) -> None:
    """On the served lookup page as loaded (the seed's keys)."""
    page = tab.page
    keys_ready(page, ["vectors", "bars"])
    check_tab_reaches_everything(page)
    check_alts(page, {"vectors", "bars", "scale"})

    st0 = page.evaluate(READ_STATE)
    x0, y0 = st0["query"]["x"][0], st0["query"]["y"][0]
    sent = wait_synced(page)["sent"]
    handle(page, "vectors", "query").focus()
    assert focus_ring(page) == "solid 3px"
    press(page, ["ArrowRight", "ArrowRight", "ArrowRight", "Shift+ArrowUp"])
    wait_synced(page, sent_before=sent, timeout=WAIT)
    st = page.evaluate(READ_STATE)
    x, y = st["query"]["x"][0], st["query"]["y"][0]
    assert abs(x - (x0 + 0.3)) < 1e-6 and abs(y - (y0 + 0.5)) < 1e-6, (x0, y0, x, y)
    want = core_state()
    want.set_query_xy(x, y)
    lookup_matches_core(st, want, check_query=False)

    # A key: k2 one step down (0.1); the page's numbers are the core's for the moved keys.
    sent = wait_synced(page)["sent"]
    handle(page, "vectors", 1).focus()
    press(page, ["ArrowDown"])
    wait_synced(page, sent_before=sent, timeout=WAIT)
    st2 = page.evaluate(READ_STATE)
    keys = np.column_stack([st["keys"]["x"], st["keys"]["y"]])  # (5, 2)
    keys[1, 1] -= 0.1
    np.testing.assert_allclose(np.column_stack([st2["keys"]["x"], st2["keys"]["y"]]), keys, atol=1e-12)
    want = core_state(keys=keys)
    want.set_query_xy(x, y)
    lookup_matches_core(st2, want, check_query=False)

    # The live region says those weights, once the keys have been still a moment.
    from app.shared.formatting import fix, pct
    said = "Weights " + ", ".join(f"k{j + 1} {pct(w)}" for j, w in enumerate(want.steps().weight)) + \
        f". Output {fix(float(want.steps().output), 2)}."
    page.wait_for_function("(t) => { const e = document.querySelector('.ae-live'); return e && e.textContent === t; }",
                           arg=said, timeout=WAIT)

    tables = toggle_tables(page)
    rows = tables["Weights"][1:]
    for j, row in enumerate(rows):
        assert row[0] == f"k{j + 1}" and abs(num(row[4]) - want.steps().weight[j]) <= 5e-5, row
    tab.assert_no_errors()


# --------------------------------------------------------------------------- worked
def worked_keys(tab) -> None:
    """On the served worked page at ?preset=four-tokens&step=5, as loaded."""
    from plates.test_worked_served import READ, assert_matches_core

    page = tab.page
    keys_ready(page, ["keys_plot", "values_plot"])
    check_tab_reaches_everything(page)
    check_alts(page, {"keys_plot", "values_plot", "sweep_plot"})

    st0 = page.evaluate(READ)
    k0 = st0["keys"]["vec"][0]
    sent = wait_synced(page)["sent"]
    handle(page, "keys_plot", 0).focus()
    assert focus_ring(page) == "solid 3px"
    press(page, ["ArrowRight", "ArrowRight", "ArrowUp"])
    wait_synced(page, sent_before=sent, timeout=WAIT)
    st = page.evaluate(READ)
    np.testing.assert_allclose(st["keys"]["vec"][0], [k0[0] + 0.2, k0[1] + 0.1], atol=1e-9)
    steps = assert_matches_core(st)

    # A value, further: Shift moves it by 0.5.
    v0 = st["values"]["vec"][1]
    sent = wait_synced(page)["sent"]
    handle(page, "values_plot", 1).focus()
    press(page, ["Shift+ArrowLeft"])
    wait_synced(page, sent_before=sent, timeout=WAIT)
    st = page.evaluate(READ)
    np.testing.assert_allclose(st["values"]["vec"][1], [v0[0] - 0.5, v0[1]], atol=1e-9)
    steps = assert_matches_core(st)

    said = page.wait_for_function("() => { const e = document.querySelector('.ae-live'); "
                                  "return e && e.textContent.startsWith('Weights') && e.textContent; }",
                                  timeout=WAIT).json_value()
    pcts = [float(p) for p in re.findall(r" ([0-9.]+)%", said)]
    np.testing.assert_allclose(pcts, 100 * steps.weight, atol=0.051)
    tables = toggle_tables(page)
    got = [num(r[5]) for r in tables["Scores and weights"][1:]]
    np.testing.assert_allclose(got, steps.weight, atol=5e-5)
    tab.assert_no_errors()


# --------------------------------------------------------------------------- scaling
def scaling_keys(tab) -> None:
    """On the served scaling page as loaded (d_k = 64, raw)."""
    from plates.test_scaling_served import READ, assert_matches_core

    page = tab.page
    keys_ready(page, ["flat_plot", "entropy_plot"])
    check_tab_reaches_everything(page)
    check_alts(page, {"histogram_plot", "flat_plot", "jacobian_plot", "entropy_plot", "contrast_plot"})

    # The d_k slider moves log2 d_k; a screen reader hears the width it shows (issue 43: "6.00").
    dk_said = ("() => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('d_k'));"
               " return (v.shadow_el || v.el).querySelector('.noUi-handle').getAttribute('aria-valuetext'); }")
    page.wait_for_function(f"() => ({dk_said})() === '64'")
    sent = wait_synced(page)["sent"]
    handle(page, "flat_plot", "width").focus()
    assert focus_ring(page) == "solid 3px"
    press(page, ["ArrowLeft"])  # 64 -> 32
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('d_k').value === 5")
    assert_matches_core(page.evaluate(READ, False), 32, False)
    press(page, ["Shift+ArrowRight"])  # 32 -> 256
    wait_synced(page, sent_before=sent, timeout=WAIT)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('rendered').data.d_k[0] === 256", timeout=WAIT)
    assert_matches_core(page.evaluate(READ, False), 256, False)

    sent = wait_synced(page)["sent"]
    handle(page, "entropy_plot", "width").focus()
    press(page, ["ArrowDown"])  # 256 -> 128
    wait_synced(page, sent_before=sent, timeout=WAIT)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('rendered').data.d_k[0] === 128", timeout=WAIT)
    st = page.evaluate(READ, False)
    assert_matches_core(st, 128, False)
    page.wait_for_function("() => { const e = document.querySelector('.ae-live'); return e && e.textContent.startsWith('d_k = 128 '); }",
                           timeout=WAIT)
    page.wait_for_function(f"() => ({dk_said})() === '128'")
    tables = toggle_tables(page)
    w = ac.flat_line([128], [2, 1, 0], scaled=False)[0]
    got = [num(r[2]) for r in tables["Weights at the chosen width"][1:]]
    np.testing.assert_allclose(got, w, atol=5e-7)
    tab.assert_no_errors()


# --------------------------------------------------------------------------- masking
def masking_keys(tab, want) -> None:
    """On the served masking page in state `want` (a MaskingState, the softmax's weights shown):
    the cell cursor starts at (q1, k1); Space flips (q1, k2) and Enter (q3, k2)."""
    from plates.test_masking_browser import assert_matches_core, read

    page = tab.page
    keys_ready(page, ["mask_plot", "weights_plot"])
    check_tab_reaches_everything(page)
    check_alts(page, {"mask_plot", "scores_plot", "weights_plot", "output_plot", "norms_plot"})

    def label(i: int, j: int) -> str:
        return f"mask cell q{i + 1} → k{j + 1}: {'allowed' if want.mask()[i, j] else 'blocked'}"

    sent = wait_synced(page)["sent"]
    cell = handle(page, "mask_plot", "cell")
    cell.focus()
    assert focus_ring(page) == "solid 3px"
    assert cell.get_attribute("aria-label").startswith(label(0, 0))
    press(page, ["ArrowRight", "Space"])  # flips (q1, k2)
    wait_synced(page, sent_before=sent, timeout=WAIT)
    want.flip(0, 1)
    assert_matches_core(read(page), want)
    assert cell.get_attribute("aria-label").startswith(label(0, 1))

    sent = wait_synced(page)["sent"]
    press(page, ["ArrowDown", "ArrowDown", "Enter"])  # flips (q3, k2)
    wait_synced(page, sent_before=sent, timeout=WAIT)
    want.flip(2, 1)
    got = read(page)
    assert_matches_core(got, want)
    w3 = want.steps().weights[2]
    said = "Weights of row q3: " + ", ".join(f"k{j + 1} {w:.2f}" for j, w in enumerate(w3)) + "."
    page.wait_for_function("(t) => { const e = document.querySelector('.ae-live'); return e && e.textContent.endsWith(t); }",
                           arg=said, timeout=WAIT)
    tables = toggle_tables(page)
    weights = np.array([[num(c) for c in r[1:]] for r in tables["Weights"][1:]])
    np.testing.assert_allclose(weights, want.steps().weights, atol=5e-5)
    tab.assert_no_errors()


# --------------------------------------------------------------------------- self-attention, multi-head
def self_attention_keys(tab, s) -> None:
    """On the served self-attention page in state `s` (a SelfAttentionState)."""
    from app.plates.self_attention.state import compute

    page = tab.page
    keys_ready(page, ["weights_map"])
    check_tab_reaches_everything(page)
    check_alts(page, {"tokens_map", "scores_map", "weights_map", "output_map", "original_map", "diff_map"})
    tables = toggle_tables(page)
    weights = np.array([[num(c) for c in r[1:]] for r in tables["Weights"][1:]])
    np.testing.assert_allclose(weights, compute(s.n, s.shuffle, s.positions, s.cross).weights, atol=5e-5)

    # A control from the keyboard: the shuffle button (the next order); the live region then
    # reports the check anew.
    page.evaluate("() => { const e = document.querySelector('.ae-live'); if (e) e.textContent = ''; }")  # made at its first words
    page.get_by_role("button", name="Shuffle the tokens").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(k) => new URLSearchParams(location.search).get('shuffle') === k", arg=str(s.shuffle + 1),
                           timeout=WAIT)
    page.wait_for_function("() => { const e = document.querySelector('.ae-live'); return e && e.textContent.includes('allclose'); }",
                           timeout=WAIT)
    tab.assert_no_errors()


def multi_head_keys(tab) -> None:
    """On the served multi-head page as loaded (d_model 8, two heads, five tokens)."""
    page = tab.page
    keys_ready(page, ["head_maps"])
    check_tab_reaches_everything(page)
    check_alts(page, {"head_maps", "concat_map", "w_o_map", "output_map"})
    tables = toggle_tables(page)
    heads = [k for k in tables if k.startswith("Weights, head ")]
    assert heads == ["Weights, head 1", "Weights, head 2"], list(tables)
    src = page.evaluate("() => { const d = Bokeh.documents[0].get_model_by_name('head_weights').data;"
                        " return {head: Array.from(d.head), i: Array.from(d.i), j: Array.from(d.j), value: Array.from(d.value)}; }")
    from app.plates.multi_head.state import MultiHeadState
    from plates.test_multi_head_browser import core

    st = MultiHeadState()
    weights = core(st.d_model, st.h, st.n)[2]  # (h, n, n)
    for h, caption in enumerate(heads):
        got = np.array([[num(c) for c in r[1:]] for r in tables[caption][1:]])
        want = weights[h]
        np.testing.assert_allclose(got, want, atol=5e-4)
        cells = [(i, j, v) for hh, i, j, v in zip(src["head"], src["i"], src["j"], src["value"]) if hh == h]
        for i, j, v in cells:
            assert abs(v - want[i, j]) <= 1e-9
    tab.assert_no_errors()
