"""The self-attention plate in a real Chromium: served by `python -m app serve`, and exported to
one HTML file opened from disk with every network request blocked.

A click recomputes everything in the browser (self_attention.js with mirror.js); on a served
page Python then recomputes with attention_core and replaces the sources. A listener on the
"perm_check" source records a snapshot of every named source each time it changes, so the test
sees both versions: the browser's ("by": "mirror.js") and Python's ("by": "attention_core").
Both must equal attention_core's numbers to 1e-9, and every text must be Python's exactly.
"""

from __future__ import annotations


import numpy as np
import pytest

from helpers import wait_synced

pytestmark = pytest.mark.browser

SLUG = "self-attention"
SOURCES = ("tokens", "scores", "weights", "row_sums", "output", "original_output", "output_diff", "perm_check")
TOL = 1e-9

READY = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length) return false;
  const d = Bokeh.documents[0], m = d.get_model_by_name("weights_map");
  if (m == null || d.get_model_by_name("perm_check") == null) return false;
  const v = Bokeh.index.find_one(m);
  return v != null && v.frame != null && v.frame.bbox.width > 0 && d.get_model_by_name("weights").data.value.length > 0;
}"""

READ = r"""(names) => {
  const d = Bokeh.documents[0], m = (n) => d.get_model_by_name(n), out = {};
  for (const n of names) { const s = m(n).data, o = {}; for (const k of Object.keys(s)) o[k] = Array.from(s[k]); out[n] = o; }
  out.widgets = {n: m("n").value, shuffle: m("shuffle").value, positions: Array.from(m("positions").active),
                 cross: Array.from(m("cross").active), message: m("message").text, check: m("check_readout").text,
                 order: m("order").text};
  out.worked = {weight: Array.from(m("worked_example").data.weight), output: Array.from(m("worked_output").data.value)};
  out.url = window.location.href;
  return out;
}"""

# Record every named source whenever "perm_check" changes (the browser and Python both write it last).
WATCH = r"""(names) => {
  const d = Bokeh.documents[0];
  window.__sa_snaps = [];
  d.get_model_by_name("perm_check").change.connect(() => {
    const snap = {};
    for (const n of names) { const s = d.get_model_by_name(n).data, o = {}; for (const k of Object.keys(s)) o[k] = Array.from(s[k]); snap[n] = o; }
    window.__sa_snaps.push(snap);
  });
  return true;
}"""


def open_plate(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(READY, timeout=60_000)


def read(page) -> dict:
    return page.evaluate(READ, list(SOURCES))


def watch(page) -> None:
    page.evaluate(WATCH, list(SOURCES))


def snaps(page) -> list[dict]:
    return page.evaluate("() => window.__sa_snaps")


def assert_matches_core(data: dict, n=5, shuffle=1, positions=False, cross=False, by=None) -> None:
    """Every named source equals attention_core's frame for this state: numbers to 1e-9, texts exactly."""
    from app.plates.self_attention.data import frame_data
    from app.plates.self_attention.state import compute

    fd = frame_data(compute(n, shuffle, positions, cross))
    for name in SOURCES:
        want, got = fd["sources"][name], data[name]
        assert set(got) == set(want), (name, sorted(got), sorted(want))
        for col, values in want.items():
            if col == "by":
                if by is not None:
                    assert got[col] == [by], (name, got[col])
                continue
            assert len(got[col]) == len(values), (name, col, len(got[col]), len(values))
            if values and isinstance(values[0], float):
                err = float(np.max(np.abs(np.asarray(got[col], dtype=float) - np.asarray(values))))
                assert err <= TOL, (name, col, err)
            else:
                assert got[col] == values, (name, col, got[col][:3], values[:3])
    if "widgets" in data:
        w = data["widgets"]
        assert (w["n"], w["shuffle"], w["positions"] == [0], w["cross"] == [0]) == (n, shuffle, positions, cross)
        assert w["check"] == fd["check"] and w["order"] == fd["order"]


def click_named(page, name: str) -> None:
    """A real mouse click in the middle of the named Bokeh widget's button or first checkbox."""
    box = page.evaluate(
        """(n) => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n));
                    const root = v.shadow_el || v.el;
                    const el = root.querySelector("button, input[type=checkbox]") || v.el;
                    el.scrollIntoView({block: "center"});
                    const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }""", name)
    page.mouse.click(box[0], box[1])


def assert_pins(data: dict) -> None:
    """The seed's numbers on the page: True, rows summing to 1, and the one-token turn."""
    pc = data["perm_check"]
    assert pc["equal"] == [True] and pc["label"] == ["True"] and pc["max_diff"][0] < 1e-12
    assert all(abs(s - 1.0) <= 1e-12 for s in data["row_sums"]["sum"]) and data["row_sums"]["label"] == ["1.00"] * 5
    assert len(data["weights"]["value"]) == 25
    for got, printed in zip(data["worked"]["weight"], (0.14, 0.284, 0.576)):
        assert abs(got - printed) <= 0.001
    for got, printed in zip(data["worked"]["output"], (4.28, 5.72)):
        assert abs(got - printed) <= 0.01
    assert "np.allclose → True" in data["widgets"]["check"]


# --------------------------------------------------------------------------- served


@pytest.fixture(autouse=False)
def server_log_clean(server):
    start = len(server.log())
    yield
    new = server.log()[start:]
    assert "Traceback" not in new and "ERROR" not in new, f"server log during the test:\n{new}"


def test_served_clicks_and_keys_recompute_live_then_python_agrees(tab, served_url, server_log_clean):
    """One load: the seed's numbers; positions and a shuffle, real clicks, live and then Python's;
    then the keyboard (keys.self_attention_keys: Tab, the text alternatives, the tables, the
    shuffle button pressed from the keyboard)."""
    from app.plates.self_attention.state import SelfAttentionState
    from keys import self_attention_keys

    page = tab.page
    open_plate(page, f"{served_url}/{SLUG}")
    wait_synced(page)
    data = read(page)
    assert_pins(data)
    assert_matches_core(data, by="attention_core")

    # Positions on: the check turns False with the pinned difference.
    watch(page)
    sent = wait_synced(page)["sent"]
    click_named(page, "positions")
    wait_synced(page, sent)
    page.wait_for_function("() => window.__sa_snaps.some((s) => s.perm_check.by[0] === 'attention_core')")
    history = snaps(page)
    assert history[0]["perm_check"]["by"] == ["mirror.js"]  # the browser answered the click itself
    for snap in history:
        assert_matches_core(snap, positions=True)
    data = read(page)
    assert_matches_core(data, positions=True, by="attention_core")
    assert data["perm_check"]["equal"] == [False] and abs(data["perm_check"]["max_diff"][0] - 2.366) <= 0.001
    assert "np.allclose → False" in data["widgets"]["check"] and "= 2.366" in data["widgets"]["check"]

    # Shuffle: the next seeded order, live in the browser, then from Python.
    watch(page)
    sent = wait_synced(page)["sent"]
    click_named(page, "shuffle_button")
    wait_synced(page, sent)
    page.wait_for_function("() => window.__sa_snaps.some((s) => s.perm_check.by[0] === 'attention_core')")
    history = snaps(page)
    assert history[0]["perm_check"]["by"] == ["mirror.js"]
    for snap in history:
        assert_matches_core(snap, shuffle=2, positions=True)
    assert_matches_core(read(page), shuffle=2, positions=True, by="attention_core")
    page.wait_for_function("() => window.location.search.includes('shuffle=2')")
    assert "positions=1" in page.evaluate("() => window.location.search")

    self_attention_keys(tab, SelfAttentionState(shuffle=2, positions=True))


@pytest.mark.on_only
@pytest.mark.parametrize("typed", ["", "99999", "-5"])
def test_served_typed_garbage_gets_a_message_and_changes_nothing(tab, served_url, server_log_clean, typed):
    """An empty box (the Spinner's value goes to None) and a number out of range (the Spinner
    keeps its value and shows the text: issue 43, 4.2) both get the message, and nothing else
    changes; a good number typed next is taken."""
    page = tab.page
    open_plate(page, f"{served_url}/{SLUG}?n=6&shuffle=4")
    wait_synced(page)
    before = read(page)
    assert_matches_core(before, n=6, shuffle=4, by="attention_core")
    box = page.evaluate("""() => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("shuffle"));
        const el = (v.shadow_el || v.el).querySelector("input"); el.scrollIntoView({block: "center"});
        const r = el.getBoundingClientRect(); return [r.left + 10, r.top + r.height / 2]; }""")
    sent = wait_synced(page)["sent"]
    page.mouse.click(*box)
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('message').text.includes('Shuffle #')")
    wait_synced(page, sent)
    after = read(page)
    assert "whole number from 0 to 40" in after["widgets"]["message"]
    for name in SOURCES:
        assert after[name] == before[name], name  # nothing else changed
    # A good number typed next is taken, and the message goes.
    page.keyboard.press("Control+A")
    page.keyboard.type("9")
    page.keyboard.press("Enter")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('message').text === ''")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('perm_check').data.by[0] === 'attention_core'"
                           " && Bokeh.documents[0].get_model_by_name('shuffle').value === 9")
    wait_synced(page)
    assert_matches_core(read(page), n=6, shuffle=9, by="attention_core")
    tab.assert_no_errors()


# --------------------------------------------------------------------------- exported, offline


@pytest.fixture
def exported_self_attention(export_plate):
    return export_plate(SLUG)


def test_exported_file_works_offline(new_tab, exported_self_attention):
    tab = new_tab()
    tab.block_network()
    page = tab.page
    open_plate(page, exported_self_attention.as_uri())
    data = read(page)
    assert_pins(data)
    assert_matches_core(data, by="attention_core")  # the numbers Python wrote into the file

    click_named(page, "shuffle_button")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('shuffle').value === 2")
    data = read(page)
    assert_matches_core(data, shuffle=2, by="mirror.js")

    click_named(page, "positions")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('perm_check').data.equal[0] === false")
    assert_matches_core(read(page), shuffle=2, positions=True, by="mirror.js")

    click_named(page, "original_button")  # identity: nothing is shuffled, so the check is True even with positions
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('shuffle').value === 0")
    assert_matches_core(read(page), shuffle=0, positions=True, by="mirror.js")

    click_named(page, "shuffle_button")  # back to the seed's perm: False with the pinned difference
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('shuffle').value === 1")
    data = read(page)
    assert_matches_core(data, shuffle=1, positions=True, by="mirror.js")
    assert abs(data["perm_check"]["max_diff"][0] - 2.366) <= 0.001

    click_named(page, "cross")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('weights').data.value.length === 35")
    assert_matches_core(read(page), shuffle=1, positions=True, cross=True, by="mirror.js")

    # n with the keyboard on the slider's handle: 5 -> 6, so the tables become 6 × 8.
    handle = page.evaluate("""() => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("n"));
        const h = (v.shadow_el || v.el).querySelector(".noUi-handle"); h.scrollIntoView({block: "center"});
        const r = h.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }""")
    page.mouse.click(*handle)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('weights').data.value.length === 48")
    assert_matches_core(read(page), n=6, shuffle=1, positions=True, cross=True, by="mirror.js")

    # Hovering a cell shows its arithmetic.
    xy = page.evaluate("""() => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name("weights_map"));
        v.canvas_view.events_el.scrollIntoView({block: "center"});
        const r = v.canvas_view.events_el.getBoundingClientRect();
        return [r.left + v.frame.x_scale.compute("1 b"), r.top + v.frame.y_scale.compute(v.model.y_range.factors.at(-1))]; }""")
    page.mouse.move(*xy)
    tip = page.get_by_text("w0,1 = exp(")
    tip.wait_for(timeout=10_000)
    assert "/ Σ_m exp(s0,m) =" in tip.inner_text()

    tab.assert_offline()
    tab.assert_no_errors()


@pytest.mark.on_only
def test_served_a_held_arrow_key_never_draws_a_step_back(tab, served_url):
    """Key presses 15 ms apart on the served n slider (a held key repeats every ~30 ms): an answer
    of Python's to an earlier step that lands after a later one (replayed here, and met in the
    run) is never drawn (the page recomputes from the slider first), and the page ends on
    attention_core's numbers."""
    from app.plates.self_attention.state import N_MAX, N_MIN

    from helpers import hold_arrow_key

    page = tab.page
    open_plate(page, f"{served_url}/self-attention")
    wait_synced(page)
    hold_arrow_key(page, SOURCES, N_MIN, N_MAX)
    assert_matches_core(read(page), n=N_MAX, by="attention_core")
    tab.assert_no_errors()


# At every animation frame: the shuffle the widget holds and the tokens drawn (when either changed).
WATCH_SHUFFLES = r"""() => {
  const d = Bokeh.documents[0], t = d.get_model_by_name('tokens'), s = d.get_model_by_name('shuffle');
  window.__sa_frames = [];
  const tick = () => {
    const f = [s.value, Array.from(t.data.value)], l = window.__sa_frames[window.__sa_frames.length - 1];
    if (!l || l[0] !== f[0] || JSON.stringify(l[1]) !== JSON.stringify(f[1])) window.__sa_frames.push(f);
    window.__sa_raf = requestAnimationFrame(tick);
  };
  tick();
}"""

FOCUS_SHUFFLE = r"""() => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('shuffle_button'));
  const b = (v.shadow_el || v.el).querySelector('button'); b.focus();
  return (v.shadow_el || v.el).activeElement === b || document.activeElement === v.el || b.matches(':focus');
}"""


@pytest.mark.on_only
def test_served_enter_held_on_shuffle_never_draws_an_earlier_shuffle(tab, served_url):
    """Enter held on the Shuffle button (presses 15 ms apart; a held key repeats every ~30 ms):
    Python answers each press, and its answer to one press that lands after the next (replayed
    here, and met in the run) is never drawn. Every frame shows the tokens of the shuffle the
    widget holds, and the page ends on attention_core's numbers."""
    from app.plates.self_attention.data import frame_data
    from app.plates.self_attention.state import MAX_SHUFFLE, compute

    from helpers import REPLAY_STATE, SAVE_STATE, TWO_FRAMES, ws_count

    page = tab.page
    open_plate(page, f"{served_url}/{SLUG}")
    wait_synced(page)
    assert page.evaluate(FOCUS_SHUFFLE)
    step = lambda k: k % MAX_SHUFFLE + 1  # noqa: E731 - on_shuffle's next shuffle
    k = page.evaluate("() => Bokeh.documents[0].get_model_by_name('shuffle').value")
    shown = [step(step(k))]  # the widget's shuffle when the frames start being watched
    for _ in range(6):
        shown.append(step(shown[-1]))
    sent = ws_count(page)
    page.keyboard.press("Enter")
    wait_synced(page, sent)
    assert page.evaluate(SAVE_STATE, list(SOURCES)) >= 8  # Python's numbers for step(k)
    sent = ws_count(page)
    page.keyboard.press("Enter")
    wait_synced(page, sent)
    page.evaluate(WATCH_SHUFFLES)
    page.evaluate(REPLAY_STATE)  # step(k)'s answer, landing late
    page.evaluate(TWO_FRAMES)
    sent = ws_count(page)
    for _ in range(6):
        page.keyboard.press("Enter")
        page.wait_for_timeout(15)
    wait_synced(page, sent)
    page.evaluate(TWO_FRAMES)
    frames = page.evaluate("() => { cancelAnimationFrame(window.__sa_raf); return window.__sa_frames; }")
    assert [f[0] for f in frames][0] == shown[0] and frames[-1][0] == shown[-1], [f[0] for f in frames]
    for held, tokens in frames:
        want = frame_data(compute(5, held, False, False))["sources"]["tokens"]["value"]
        err = float(np.max(np.abs(np.asarray(tokens) - np.asarray(want)))) if len(tokens) == len(want) else np.inf
        assert err <= TOL, (held, err, [f[0] for f in frames])
    assert_matches_core(read(page), n=5, shuffle=shown[-1], by="attention_core")
    tab.assert_no_errors()
