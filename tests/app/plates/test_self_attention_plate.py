"""The self-attention plate ("All tokens at once"): its state and URL, the data it hands the
browser, how its Bokeh models follow the state both ways, and that it builds without a server.

The browser is simulated by setting the widgets' properties from Python: Bokeh runs the Python
`on_change` callbacks for those sets, as a served session does when a browser's change arrives.
"""

from __future__ import annotations

import html
import math

import numpy as np
import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import ColumnDataSource, Div
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from app.delivery.page import plate_page
from app.plates.self_attention.data import frame_data, show_diff, worked_example
from app.plates.self_attention.state import (
    LETTERS,
    MAX_SHUFFLE,
    N_MAX,
    N_MIN,
    PERMS,
    SEED_PERM,
    WK,
    WQ,
    WV,
    X_ALL,
    X_SEED,
    Y_ALL,
    SelfAttentionState,
    seed_recipe,
)
from app.plates.self_attention.view import SelfAttentionPlate
from app.shared.formatting import fix, sci
from app.shared.state import MAX_URL_VALUE
from app.shared.viewer import same_data

DEFAULTS = {"n": 5, "shuffle": 1, "positions": False, "cross": False}
SOURCES = ("tokens", "scores", "weights", "row_sums", "output", "original_output", "output_diff", "perm_check")


def assert_valid(s: SelfAttentionState) -> None:
    assert type(s.n) is int and N_MIN <= s.n <= N_MAX, s.n
    assert type(s.shuffle) is int and 0 <= s.shuffle <= MAX_SHUFFLE, s.shuffle
    assert isinstance(s.positions, bool) and isinstance(s.cross, bool)
    f = s.frame()
    assert f.weights.shape == (s.n, s.n + 2 if s.cross else s.n)
    assert np.all(np.isfinite(f.weights)) and np.all(np.isfinite(f.output))
    np.testing.assert_allclose(f.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------- the numbers


def test_the_seed_recipe_and_its_extension():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 4))
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))
    for got, want in zip(seed_recipe(), (X, Wq, Wk, Wv)):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(X_ALL[:5], X)  # the seed's five rows are kept
    np.testing.assert_array_equal(X_ALL[5:], np.random.default_rng(1).normal(size=(8, 4))[5:])
    np.testing.assert_array_equal(Y_ALL, np.random.default_rng(2).normal(size=(10, 4)))
    assert X_ALL.shape == (8, 4) and (WQ is not None and WK.shape == WV.shape == (4, 4))
    np.testing.assert_array_equal(X_SEED, X)


def test_seeded_permutations():
    assert PERMS[5][1] == SEED_PERM == (3, 0, 4, 1, 2)
    for n, perms in PERMS.items():
        assert len(perms) == MAX_SHUFFLE + 1
        assert perms[0] == tuple(range(n))
        for k, p in enumerate(perms[1:], 1):
            assert sorted(p) == list(range(n)) and p != tuple(range(n)), (n, k, p)
            if not (n == 5 and k == 1):
                rng = np.random.default_rng([n, k])
                first = tuple(int(v) for v in rng.permutation(n))
                if first != tuple(range(n)):
                    assert p == first
        assert len(set(perms[1:])) > 1
    assert len(set(PERMS[8])) > 30  # shuffling keeps finding new orders


def test_default_frame_pins_the_seed():
    f = SelfAttentionState().frame()
    assert f.perm == SEED_PERM and f.equal is True and f.max_diff < 1e-12
    assert f.weights.shape == (5, 5)
    np.testing.assert_allclose(f.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    X, Wq, Wk, Wv = seed_recipe()
    out, w = ac.self_attention(X[list(SEED_PERM)], Wq, Wk, Wv)
    np.testing.assert_array_equal(f.output, out)
    np.testing.assert_array_equal(f.weights, w)
    np.testing.assert_array_equal(f.original, ac.self_attention(X, Wq, Wk, Wv)[0])
    fd = frame_data(f)
    assert fd["sources"]["row_sums"]["label"] == ["1.00"] * 5
    assert fd["sources"]["perm_check"]["label"] == ["True"]
    assert "np.allclose → True" in fd["check"] and "< 1e-12" in fd["check"]
    assert "D A E B C" in fd["order"]


def test_positions_turn_the_check_false_with_the_pinned_difference():
    f = SelfAttentionState(positions=True).frame()
    assert f.equal is False
    assert abs(f.max_diff - 2.366) <= 0.001, f.max_diff
    fd = frame_data(f)
    assert fd["sources"]["perm_check"]["label"] == ["False"]
    assert "np.allclose → False" in fd["check"] and "= 2.366" in fd["check"]
    assert "X + PE" in fd["check"]
    assert max(fd["sources"]["output_diff"]["value"]) == f.max_diff


@pytest.mark.parametrize("positions", [False, True])
@pytest.mark.parametrize("cross", [False, True])
def test_the_original_order_has_nothing_to_check(positions, cross):
    """Issue 54, 5 (a check with nothing to check): in the original order (shuffle 0) both sides
    are the same array, and the page said "np.allclose → True" and "reordering the tokens only
    reorders the outputs", with the positions on too. np.allclose's answer stays as it is; the
    words say there was nothing to check."""
    fd = frame_data(SelfAttentionState(shuffle=0, positions=positions, cross=cross).frame())
    assert "np.allclose → True" in fd["check"]
    assert "nothing to check: the tokens are in their original order" in fd["check"], fd["check"]
    assert "reorders the outputs" not in fd["check"] and "depend on where" not in fd["check"]
    shuffled = frame_data(SelfAttentionState(shuffle=1, positions=positions, cross=cross).frame())["check"]
    assert "nothing to check" not in shuffled


def test_worked_example_pins_the_seed_print():
    w, out = worked_example()
    assert [fix(float(v), 3) for v in w] == ["0.140", "0.284", "0.576"]
    assert [fix(float(v), 2) for v in out] == ["4.28", "5.72"]
    ref_out, ref_w = ac.attention([[1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                                  [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
    np.testing.assert_allclose(w, ref_w[0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(out, ref_out[0], rtol=0, atol=1e-14)


def test_cross_attention_frame_is_n_by_m():
    f = SelfAttentionState(n=4, cross=True, shuffle=3).frame()
    assert f.weights.shape == (4, 6) and f.raw.shape == (4, 6) and f.output.shape == (4, 4)
    out, w = ac.cross_attention(X_ALL[:4][list(f.perm)], Y_ALL[:6], WQ, WK, WV)
    np.testing.assert_array_equal(f.weights, w)
    np.testing.assert_array_equal(f.output, out)
    fd = frame_data(f)
    assert len(fd["sources"]["weights"]["value"]) == 24 and len(fd["sources"]["scores"]["value"]) == 24
    assert fd["factors"]["keys"] == [f"{j} {'abcdef'[j]}" for j in range(6)]
    assert fd["factors"]["keys_sum"][-1] == "Σ"
    assert f.equal is True
    assert not SelfAttentionState(n=4, cross=True, shuffle=3, positions=True).frame().equal


def test_hover_texts_show_the_arithmetic():
    f = SelfAttentionState().frame()
    fd = frame_data(f)
    sc, we, out = fd["sources"]["scores"], fd["sources"]["weights"], fd["sources"]["output"]
    # scores: q_i · k_j / √4 = raw / 2 = scaled
    k = 2 * 5 + 4
    raw = float(f.raw[2, 4])
    assert sc["text"][k].startswith(f"q2 · k4 / √4 = {fix(raw, 3)} / 2 = {fix(raw / 2, 3)}")
    assert sc["value"][k] == raw / 2 and sc["label"][k] == fix(raw / 2, 2)
    # weights: exp(s) / Σ
    total = float(np.exp(f.scaled[2]).sum())
    assert we["text"][k] == (f"w2,4 = exp({fix(raw / 2, 3)}) / Σ_m exp(s2,m) = {fix(math.exp(raw / 2), 3)}"
                             f" / {fix(total, 3)} = {fix(float(f.weights[2, 4]), 3)}")
    # output: Σ_j w_ij v_jc with every term
    V = f.inputs @ WV
    terms = " + ".join(f"{fix(float(f.weights[1, j]), 3)}×" + (f"({fix(float(V[j, 3]), 3)})" if V[j, 3] < 0 else
                                                               fix(float(V[j, 3]), 3)) for j in range(5))
    assert out["text"][1 * 4 + 3] == f"o1,3 = Σ_j w1,j v_j,3 = {terms} = {fix(float(f.output[1, 3]), 3)}"
    assert fd["sources"]["tokens"]["text"][0] == f"token D at position 0, entry 0: x = {fix(float(X_ALL[3, 0]), 3)}"
    g = frame_data(SelfAttentionState(positions=True).frame())
    assert "+ PE[1,0] 0.841 =" in g["sources"]["tokens"]["text"][4]


def test_number_writers():
    assert sci(4.4e-16, plus=False) == "4.4e-16" and sci(2.4, plus=False) == "2.4e0"
    assert sci(123456.0, 3, plus=False) == "1.235e5"
    assert show_diff(0.0) == "< 1e-12" and show_diff(4e-16) == "< 1e-12"
    assert show_diff(2.36553) == "2.366" and show_diff(5e-5) == "5.0e-5"


# --------------------------------------------------------------------------- URL


def test_default_state_has_empty_url():
    assert SelfAttentionState().to_url() == {}
    s = SelfAttentionState(n=7, shuffle=9, positions=True, cross=True)
    assert s.to_url() == {"n": "7", "shuffle": "9", "positions": "1", "cross": "1"}
    s.reset()
    assert s.to_url() == {} and all(getattr(s, k) == v for k, v in DEFAULTS.items())


@settings(max_examples=200, derandomize=True, deadline=None)
@given(n=st.integers(N_MIN, N_MAX), shuffle=st.integers(0, MAX_SHUFFLE), positions=st.booleans(), cross=st.booleans())
def test_url_round_trip(n, shuffle, positions, cross):
    s = SelfAttentionState(n=n, shuffle=shuffle, positions=positions, cross=cross)
    url = s.to_url()
    assert all(isinstance(v, str) and len(v) <= MAX_URL_VALUE for v in url.values())
    t = SelfAttentionState()
    assert t.apply_url(url) == []
    assert (t.n, t.shuffle, t.positions, t.cross) == (n, shuffle, positions, cross)
    assert t.to_url() == url


@pytest.mark.parametrize("args, want, notice", [
    ({"n": "99"}, {"n": 8}, "'n' set to 8"),
    ({"n": "1"}, {"n": 3}, "'n' set to 3"),
    ({"n": "6.6"}, {"n": 7}, "'n' set to 7"),
    ({"shuffle": "-4"}, {"shuffle": 0}, "'shuffle' set to 0"),
    ({"shuffle": "1e9"}, {"shuffle": MAX_SHUFFLE}, f"'shuffle' set to {MAX_SHUFFLE}"),
])
def test_out_of_range_is_clamped_with_a_notice(args, want, notice):
    s = SelfAttentionState()
    notices = s.apply_url(args)
    assert len(notices) == 1 and notice in notices[0], notices
    for k, v in want.items():
        assert getattr(s, k) == v
    assert_valid(s)


@pytest.mark.parametrize("name, text", [
    ("n", "five"), ("n", "nan"), ("n", "inf"), ("n", ""), ("shuffle", "x"), ("shuffle", "NaN"),
    ("positions", "maybe"), ("cross", "2"), ("positions", ""), ("n", "9" * 300),
])
def test_garbage_is_ignored_with_a_notice(name, text):
    s = SelfAttentionState(n=6, shuffle=3, positions=True)
    before = s.param.values()
    notices = s.apply_url({name: text})
    assert len(notices) == 1 and name in notices[0], notices
    assert s.param.values() == before
    assert_valid(s)


def test_unknown_names_are_ignored_with_a_notice():
    s = SelfAttentionState()
    assert s.apply_url({"perm": "3,0,4,1,2"}) == ["ignored unknown setting 'perm'"]
    assert s.to_url() == {}


@settings(max_examples=150, derandomize=True, deadline=None)
@given(args=st.dictionaries(st.sampled_from(["n", "shuffle", "positions", "cross", "junk"]),
                            st.one_of(st.text(max_size=8), st.integers(-100, 100).map(str),
                                      st.floats(allow_nan=True, allow_infinity=True).map(str)), max_size=4))
def test_no_link_can_break_the_state(args):
    s = SelfAttentionState()
    s.apply_url(args)
    assert_valid(s)


# --------------------------------------------------------------------------- the plate follows its state


def assert_view_matches_state(plate: SelfAttentionPlate) -> None:
    s = plate.state
    fd = frame_data(s.frame())
    for name in SOURCES:
        assert same_data(plate.sources[name].data, fd["sources"][name]), name
    for name, factors in fd["factors"].items():
        assert list(plate.ranges[name].factors) == factors, name
    assert plate.n_w.value == s.n and plate.shuffle_w.value == s.shuffle
    assert plate.positions_w.active == ([0] if s.positions else [])
    assert plate.cross_w.active == ([0] if s.cross else [])
    assert plate.order_div.text == fd["order"] and plate.check_div.text == fd["check"]
    assert plate.sources["perm_check"].data["by"] == ["attention_core"]


@pytest.fixture
def plate():
    return SelfAttentionPlate()


def test_notebook_setting_moves_the_view(plate):
    assert_view_matches_state(plate)
    plate.n = 7
    assert plate.state.n == 7 and len(plate.sources["weights"].data["value"]) == 49
    assert_view_matches_state(plate)
    plate.positions, plate.cross, plate.shuffle = True, True, 12
    assert len(plate.sources["weights"].data["value"]) == 7 * 9
    assert_view_matches_state(plate)
    plate.state.reset()
    assert plate.state.to_url() == {}
    assert_view_matches_state(plate)


def test_constructor_takes_url_fields():
    p = SelfAttentionPlate(n=3, shuffle=0, cross=True)
    assert (p.state.n, p.state.shuffle, p.state.cross) == (3, 0, True)
    assert_view_matches_state(p)


def test_widgets_drive_the_state(plate):
    plate.shuffle_w.value = 2
    assert plate.state.shuffle == 2
    assert_view_matches_state(plate)
    plate.n_w.value = 8
    assert plate.state.n == 8
    plate.positions_w.active = [0]
    assert plate.state.positions is True
    assert plate.sources["perm_check"].data["equal"] == [False]
    plate.cross_w.active = [0]
    assert plate.state.cross is True
    assert_view_matches_state(plate)
    plate.shuffle_w.value = 0
    assert plate.sources["perm_check"].data["equal"] == [True]  # nothing shuffled
    assert_view_matches_state(plate)
    assert plate.message_div.text == ""


def test_every_browser_change_resends_every_source(plate):
    """The browser replaced all of them with mirror.js's numbers; Python sends attention_core's back,
    even where they equal its last copy to 1e-12 (a shuffle leaves the check's numbers alike)."""
    sent = []
    for name in SOURCES:
        plate.sources[name].on_change("data", lambda attr, old, new, name=name: sent.append(name))
    plate.shuffle_w.value = 12
    assert sorted(sent) == sorted(SOURCES)
    sent.clear()
    plate.cross_w.active = [0]
    assert sorted(sent) == sorted(SOURCES)
    sent.clear()
    plate.shuffle = 13  # a notebook change: only what differs is sent
    assert "original_output" not in sent and "scores" in sent


def test_a_run_the_browser_leads_is_folded_in_once_when_it_ends(plate):
    """What self_attention.js sends during a held key: the plate's sync mark goes "busy", n steps,
    "busy" goes. Python answers nothing until the mark goes, then folds the last step in and resends
    every source once."""
    sent = []
    for name in SOURCES:
        plate.sources[name].on_change("data", lambda attr, old, new, name=name: sent.append(name))
    busy = plate.sync
    busy.tags = ["busy"]
    for n in (6, 7, 8):
        plate.n_w.value = n
    plate.shuffle_w.value = 3
    assert (plate.state.n, plate.state.shuffle) == (5, 1) and sent == []  # still busy: nothing folded
    busy.tags = []
    assert (plate.state.n, plate.state.shuffle) == (8, 3)
    assert sorted(sent) == sorted(SOURCES)
    assert_view_matches_state(plate)


def test_one_click_is_answered_once(plate):
    """One click (no run): Python answers the change, which reaches it before "busy" does; the run's
    end then finds nothing new and sends nothing. A step the page took while busy is resent."""
    sent = []
    for name in SOURCES:
        plate.sources[name].on_change("data", lambda attr, old, new, name=name: sent.append(name))
    busy = plate.sync
    plate.positions_w.active = [0]
    assert plate.state.positions and sorted(sent) == sorted(SOURCES)
    sent.clear()
    busy.tags = ["busy"]
    busy.tags = []
    assert sent == []
    busy.tags = ["busy"]
    plate.n_w.value = 6  # taken while busy: the page drew mirror.js's numbers for n = 6 ...
    plate.n_w.value = 5  # ... and then for n = 5 again, the state Python last answered
    busy.tags = []
    assert plate.state.n == 5 and sorted(sent) == sorted(SOURCES)  # attention_core's numbers resent


def test_widgets_drive_the_state_inside_a_document(plate):
    doc = Document()
    doc.add_root(pn.panel(plate).get_root(doc))
    plate.n_w.value = 4
    assert plate.state.n == 4
    assert_view_matches_state(plate)


@pytest.mark.parametrize("widget, value", [
    ("shuffle_w", None), ("shuffle_w", 2.5), ("shuffle_w", 999), ("shuffle_w", -1), ("shuffle_w", float("nan")),
    ("n_w", 2), ("n_w", 99), ("n_w", 4.5), ("n_w", float("inf")),
])
def test_bad_widget_values_get_a_message_and_change_nothing(widget, value, refusing):
    plate, start = refusing
    good = plate.state.param.values()
    # Nothing may change, so every case meets the plate as the first one did (each case ends by
    # setting its way back): a refusal that left anything behind fails the next case.
    assert good == start and plate.message_div.text == ""
    setattr(getattr(plate, widget), "value", value)  # no exception may escape
    assert plate.state.param.values() == good
    msg = plate.message_div.text
    assert ("Shuffle #" if widget == "shuffle_w" else "Tokens n") in msg and "whole number" in msg
    fd = frame_data(plate.state.frame())
    for name in SOURCES:
        assert same_data(plate.sources[name].data, fd["sources"][name]), name
    if value is not None:
        assert_view_matches_state(plate)  # the widget is put back
    else:
        assert plate.shuffle_w.value is None  # an emptied box stays empty; the plate keeps its numbers
    plate.shuffle_w.value = 7  # the next good value clears the message
    assert plate.state.shuffle == 7 and plate.message_div.text == ""
    assert_view_matches_state(plate)
    plate.shuffle_w.value = 4
    assert plate.state.param.values() == start
    assert_view_matches_state(plate)


@pytest.fixture(scope="module")
def refusing():
    """(one plate, its state's values) for every bad-value case: building a plate costs more than
    the case itself."""
    plate = SelfAttentionPlate(n=6, shuffle=4, positions=True)
    return plate, plate.state.param.values()


# --------------------------------------------------------------------------- builds without a server


def _render(obj):
    doc = Document()
    root = pn.panel(obj).get_root(doc)
    doc.add_root(root)
    return root


@pytest.mark.parametrize("static", [False, True], ids=["served", "static"])
def test_page_builds_with_its_named_models(static):
    page = plate_page("self-attention", {"n": "6", "positions": "1"}, static=static)
    assert page.plate.state.n == 6 and page.plate.state.positions
    root = _render(page)
    for name in SOURCES + ("worked_example", "worked_output"):
        model = root.document.select_one({"name": name})
        assert isinstance(model, ColumnDataSource), name
        assert len({len(v) for v in model.data.values()}) == 1, name
    for name in ("n", "shuffle", "shuffle_button", "original_button", "positions", "cross", "order", "check_readout",
                 "message", "tokens_map", "scores_map", "weights_map", "output_map", "original_map", "diff_map"):
        assert root.document.select_one({"name": name}) is not None, name
    assert isinstance(root.document.select_one({"name": "check_readout"}), Div)
    from bokeh.core.validation.check import check_integrity

    issues = check_integrity(list(root.references()))
    assert issues.error == [], issues.error  # e.g. a glyph naming a column its source lacks
    w = root.document.select_one({"name": "weights"})
    assert len(w.data["value"]) == 36 and set(w.data) >= {"i", "j", "value", "text"}
    assert set(root.document.select_one({"name": "output"}).data) >= {"i", "c", "value", "text"}
    assert set(root.document.select_one({"name": "row_sums"}).data) >= {"i", "sum"}
    assert set(root.document.select_one({"name": "perm_check"}).data) >= {"equal", "max_diff"}
    worked = root.document.select_one({"name": "worked_example"})
    assert [fix(v, 3) for v in worked.data["weight"]] == ["0.140", "0.284", "0.576"]
    assert [fix(v, 2) for v in root.document.select_one({"name": "worked_output"}).data["value"]] == ["4.28", "5.72"]


def test_page_notices_for_bad_links():
    page = plate_page("self-attention", {"n": "banana", "shuffle": "500"})
    assert page.plate.state.n == 5 and page.plate.state.shuffle == MAX_SHUFFLE
    root = _render(page)
    text = html.unescape(" ".join(str(getattr(m, "text", "") or "") for m in root.references()))
    assert "ignored 'n=banana'" in text
    assert f"'shuffle' set to {MAX_SHUFFLE}" in text


def test_browser_data_matches_python():
    """What the glue receives: the same matrices and permutations Python uses."""
    plate = SelfAttentionPlate()
    cb = plate.n_w.js_property_callbacks["change:value"][0]
    data = cb.args["data"]
    np.testing.assert_array_equal(np.array(data["X"]), X_ALL)
    np.testing.assert_array_equal(np.array(data["Y"]), Y_ALL)
    np.testing.assert_array_equal(np.array(data["Wq"]), WQ)
    assert data["perms"]["5"][1] == list(SEED_PERM)
    assert data["letters"] == LETTERS
    # The defaults the address leaves out come with the state's url_spec (a.link), for link.js.
    assert {k: f["default"] for k, f in cb.args["link"]["fields"].items()} == DEFAULTS
    assert "SelfAttentionLive.on_widget(a);" in cb.code
