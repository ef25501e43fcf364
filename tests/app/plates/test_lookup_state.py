"""The soft-lookup plate's state: its URL round trip, what a hostile link can do to it, and how
the plate's Bokeh models follow it both ways (notebook -> view, browser -> state).

The browser is simulated by setting the Bokeh models' properties from Python: Bokeh runs the
Python `on_change` callbacks for those sets too, which is what a served session does when a
browser's change arrives.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attention_core as ac
from app.shared.viewer import same_data
from app.plates.lookup.data import keys_data
from app.plates.lookup.state import VALUES
from app.plates.lookup.state import DEFAULT_KEYS, DK_CHOICES, MAX_COORD, MAX_LENGTH, MIN_LENGTH, LookupState
from app.plates.lookup.view import LookupPlate
from app.shared.state import MAX_URL_VALUE, PAGE_PARAMS
from app.shared.state import link_args

FIELDS = LookupState.url_fields
DEFAULTS = {"angle": 40.0, "length": 1.5, "d_k": 2, "scaled": False}


def assert_valid(s: LookupState) -> None:
    """Everything a plate needs to draw: in bounds, finite, and a lookup that sums to 1."""
    assert isinstance(s.angle, float) and math.isfinite(s.angle) and 0.0 <= s.angle <= 360.0, s.angle
    assert isinstance(s.length, float) and math.isfinite(s.length) and MIN_LENGTH <= s.length <= MAX_LENGTH, s.length
    assert s.d_k in DK_CHOICES and type(s.d_k) is int, s.d_k
    assert s.scaled in (True, False) and isinstance(s.scaled, bool), s.scaled
    keys = np.asarray(s.keys)
    assert keys.shape == (5, 2) and keys.dtype == np.float64, (keys.shape, keys.dtype)
    assert np.all(np.isfinite(keys)) and np.all(np.abs(keys) <= MAX_COORD), keys
    stp = s.steps()
    assert np.all(np.isfinite(stp.weight)) and np.all(stp.weight >= 0), stp.weight
    assert math.isclose(float(stp.weight.sum()), 1.0, abs_tol=1e-12), stp.weight.sum()
    assert math.isfinite(float(stp.output)) and 10.0 - 1e-9 <= float(stp.output) <= 50.0 + 1e-9, stp.output


def assert_default(s: LookupState) -> None:
    for name, value in DEFAULTS.items():
        assert getattr(s, name) == value, (name, getattr(s, name))
    np.testing.assert_array_equal(s.keys, DEFAULT_KEYS)


def assert_close_state(a: LookupState, b: LookupState, rel: float = 1e-5) -> None:
    """Same state, floats to `rel` (6 significant digits in the URL) and an absolute floor for zeros."""
    assert math.isclose(a.angle, b.angle, rel_tol=rel, abs_tol=1e-9), (a.angle, b.angle)
    assert math.isclose(a.length, b.length, rel_tol=rel, abs_tol=1e-9), (a.length, b.length)
    assert a.d_k == b.d_k and a.scaled == b.scaled
    np.testing.assert_allclose(b.keys, a.keys, rtol=rel, atol=1e-9)


# --------------------------------------------------------------------------- URL round trip


def test_default_state_has_empty_url():
    assert LookupState().to_url() == {}
    s = LookupState(angle=90.0, d_k=64, scaled=True)
    s.reset()
    assert s.to_url() == {}
    assert_default(s)


def _moved_keys(rng) -> np.ndarray:
    keys = DEFAULT_KEYS.copy()
    keys[rng.integers(0, 5)] = rng.uniform(-MAX_COORD, MAX_COORD, size=2)
    return keys


@pytest.mark.parametrize("seed", range(12))
def test_url_round_trip(seed):
    rng = np.random.default_rng(seed)
    s = LookupState(
        angle=float(rng.uniform(0, 360)), length=float(rng.uniform(MIN_LENGTH, MAX_LENGTH)),
        d_k=int(rng.choice(DK_CHOICES)), scaled=bool(rng.integers(0, 2)),
        keys=_moved_keys(rng) if seed % 2 else rng.uniform(-MAX_COORD, MAX_COORD, size=(5, 2)),
    )
    url = s.to_url()
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in url.items())
    assert all(len(v) <= MAX_URL_VALUE for v in url.values())
    t = LookupState()
    assert t.apply_url(url) == []
    assert_close_state(s, t)
    assert t.to_url() == url  # the written form is a fixed point


def test_url_round_trip_moved_key_only():
    s = LookupState()
    s.keys = np.vstack([DEFAULT_KEYS[:2], [[1.23456789, -4.98765432]], DEFAULT_KEYS[3:]])
    url = s.to_url()
    assert set(url) == {"keys"}
    t = LookupState()
    assert t.apply_url(url) == []
    assert_close_state(s, t)


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(
    angle=st.floats(0, 360), length=st.floats(MIN_LENGTH, MAX_LENGTH), d_k=st.sampled_from(DK_CHOICES),
    scaled=st.booleans(), keys=st.lists(st.floats(-MAX_COORD, MAX_COORD), min_size=10, max_size=10),
)
def test_url_round_trip_property(angle, length, d_k, scaled, keys):
    s = LookupState(angle=angle, length=length, d_k=d_k, scaled=scaled, keys=np.array(keys).reshape(5, 2))
    t = LookupState()
    assert t.apply_url(s.to_url()) == []
    assert_close_state(s, t)
    assert_valid(t)


# --------------------------------------------------------------------------- forgiving reads


def test_clamps_out_of_range_with_notice():
    """The length is clamped, with a notice; the angle is a direction, so -5 is 355 and 400 is 40
    (issue 43: -30 was clamped to 0), and the page says so (issue 54: 9999 became 279 unsaid)."""
    s = LookupState()
    notices = s.apply_url({"length": "1e9", "angle": "-5"})
    assert s.length == MAX_LENGTH == 5.0
    assert s.angle == 355.0
    assert notices == ["'length' set to 5, the nearest allowed value",
                       "'angle' set to 355°, the same direction as -5°"], notices
    s = LookupState()
    notices = s.apply_url({"length": "0", "angle": "400"})
    assert (s.length, s.angle) == (MIN_LENGTH, 40.0) and len(notices) == 2
    assert_valid(s)
    s = LookupState()
    assert s.apply_url({"angle": "9999"}) == ["'angle' set to 279°, the same direction as 9999°"] and s.angle == 279.0
    assert s.apply_url({"angle": "360.5"}) == ["'angle' set to 0.5°, the same direction as 360.5°"]
    assert s.apply_url({"angle": "360"}) == [] and s.angle == 360.0  # in range: as given


def test_a_setting_given_twice_is_read_once_and_said_to_be():
    """Issue 54, 5: angle=90&angle=10 took the first without a word (app.delivery.page.session_args
    kept only the first value)."""
    s = LookupState()
    assert s.apply_url(link_args([("angle", "90"), ("angle", "10")])) == [
        "'angle' given 2 times: only the first, '90', is read"]
    assert s.angle == 90.0


def test_in_range_values_give_no_notice():
    s = LookupState()
    assert s.apply_url({"angle": "12.5", "length": "3", "d_k": "512", "scaled": "1"}) == []
    assert (s.angle, s.length, s.d_k, s.scaled) == (12.5, 3.0, 512, True)
    assert s.apply_url({"scaled": "0", "embed": "1", "theme": "dark", "hide": "x"}) == []
    assert s.scaled is False


GARBAGE = [
    "banana", "nan", "NaN", "inf", "-inf", "Infinity", "1e400", "", " ", "1,2", "0x10", "None", "[]", "{}",
    "x" * 10**6, "9" * 10**6, "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>",
    "π", "四十", "😀", "\u202e40", "\x00", "40\x00", "1;2;3;4;5", "1,2;3,4;5,6;7,8", "1,2;3,4;5,6;7,8;9",
    "nan,0;0,0;0,0;0,0;0,0", "inf,1;1,1;1,1;1,1;1,1", "1,2,3;4,5;6,7;8,9;0,1",
]
# values that are numbers, but not ones this field can take
FIELD_GARBAGE = {"d_k": ["3", "3.0", "2.0", "-2", "1e3", "0"], "scaled": ["2", "-1", "true2", "yes please"],
                 "keys": ["1,2", "1,2;3,4;5,6;7,8;9,10;11,12", "1;2;3;4;5"]}
GARBAGE_CASES = [(n, t) for n in FIELDS for t in GARBAGE] + [(n, t) for n, ts in FIELD_GARBAGE.items() for t in ts]


@pytest.mark.parametrize(
    "name, text", GARBAGE_CASES, ids=[f"{n}={t[:12]!r}" + (f"..{len(t)}" if len(t) > 12 else "") for n, t in GARBAGE_CASES])
def test_garbage_is_ignored_with_notice(name, text):
    s = LookupState()
    notices = s.apply_url({name: text})
    assert_valid(s)
    assert_default(s)
    assert len(notices) == 1, notices
    assert name in notices[0]
    assert len(notices[0]) < 200, "a notice quotes at most a short piece of the value"
    assert "<script>" not in notices[0] or text == "<script>alert(1)</script>"  # quoted as text; page escapes


def test_garbage_leaves_previous_good_value():
    s = LookupState()
    s.apply_url({"angle": "100", "d_k": "64"})
    notices = s.apply_url({"angle": "nan", "d_k": "63", "length": "inf", "keys": "banana", "scaled": "maybe"})
    assert len(notices) == 5
    assert (s.angle, s.d_k, s.length, s.scaled) == (100.0, 64, 1.5, False)
    np.testing.assert_array_equal(s.keys, DEFAULT_KEYS)


@pytest.mark.parametrize("name", ["foo", "Angle", "angle ", "keys[]", "<script>", "😀", "x" * 10**5, ""])
def test_unknown_names_ignored_with_notice(name):
    s = LookupState()
    notices = s.apply_url({name: "1"})
    assert len(notices) == 1 and "unknown" in notices[0], notices
    assert len(notices[0]) < 100
    assert_default(s)


def test_keys_from_url_are_clamped():
    s = LookupState()
    s.apply_url({"keys": "100,0;0,-1e300;1,1;2,2;3,3"})
    np.testing.assert_array_equal(s.keys[:2], [[5.0, 0.0], [0.0, -5.0]])
    assert_valid(s)


def test_clamped_keys_give_a_notice():
    s = LookupState()
    notices = s.apply_url({"keys": "100,0;0,-1e300;1,1;2,2;3,3"})
    assert len(notices) == 1 and "keys" in notices[0], notices
    assert LookupState().apply_url({"keys": "5,0;0,-5;1,1;2,2;3,3"}) == []  # on the edge: not clamped


LONG = ["1" * (MAX_URL_VALUE - 1), "1" * MAX_URL_VALUE, "1" * (MAX_URL_VALUE + 1), ("1,1;" * 60)[:-1]]
_special = GARBAGE[:4] + GARBAGE[6:] + LONG + ["1", "0", "true", "off", "1024", "3", "2.0", "-0", "1e-320"]
def _keys_text(seed: int) -> str:
    """Five 'x,y' points from one drawn integer (cheap to generate), about a fifth out of range."""
    v = np.random.default_rng(seed).uniform(-6.5, 6.5, 10).round(int(seed % 7))
    return ";".join(f"{v[i]:g},{v[i + 1]:g}" for i in range(0, 10, 2))


url_value = st.one_of(
    st.text(max_size=8),  # any unicode
    st.text(alphabet="0123456789.-+eE,; naif", max_size=12),  # number-ish
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(_special),
    st.integers(0, 2**32 - 1).map(_keys_text),
)
url_name = st.one_of(st.sampled_from(FIELDS + ("embed", "theme", "hide", "foo", "", "ángle")), st.text(max_size=4))
url_args = st.dictionaries(url_name, url_value, max_size=4)


# 220 examples of 10 distinct dicts each: 2,200 links (batched, since hypothesis's cost is per example)
link_batches = st.lists(url_args, min_size=10, max_size=10, unique_by=lambda d: tuple(sorted(d.items())))


@settings(max_examples=220, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(batch=link_batches)
def test_no_link_can_break_the_state(batch):
    seq = LookupState()  # one state taking link after link, as a long-lived notebook plate might
    for args in batch:
        s = LookupState()
        notices = s.apply_url(args)
        assert isinstance(notices, list) and all(isinstance(n, str) for n in notices)
        assert len(notices) <= len(args)
        seq.apply_url(args)
        if not any(name in FIELDS for name in args):
            assert len(notices) == sum(name not in PAGE_PARAMS for name in args)
            continue  # only unknown names and page settings: nothing to set
        assert_valid(s)
        # what the state writes, it reads back
        url = s.to_url()
        if url:
            t = LookupState()
            assert t.apply_url(url) == []
            assert_close_state(s, t)
    assert_valid(seq)


# --------------------------------------------------------------------------- the plate follows its state


def assert_view_matches_state(plate: LookupPlate) -> None:
    s = plate.state
    stp = s.steps()
    np.testing.assert_allclose(plate.weights_src.data["weight"], stp.weight, rtol=0, atol=1e-12)
    np.testing.assert_allclose(plate.output_src.data["value"], [float(stp.output)], rtol=0, atol=1e-12)
    np.testing.assert_allclose([plate.query_src.data["x"][0], plate.query_src.data["y"][0]], s.query, atol=1e-12)
    assert same_data(plate.keys_src.data, keys_data(s.keys))
    assert math.isclose(plate.angle_w.value, s.angle, abs_tol=1e-9)
    assert math.isclose(plate.length_w.value, s.length, abs_tol=1e-9)
    assert plate.dk_w.value == str(s.d_k)
    assert plate.scaled_w.active == ([0] if s.scaled else [])


@pytest.fixture
def plate():
    return LookupPlate()


def test_notebook_setting_moves_the_view(plate):
    assert_view_matches_state(plate)
    plate.angle = 90
    assert plate.state.angle == 90
    ref = ac.lookup_steps(ac.cartesian(90.0, 1.5), DEFAULT_KEYS, VALUES, scale=1.0).weight
    np.testing.assert_allclose(plate.weights_src.data["weight"], ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(plate.weights_src.data["weight"], plate.state.steps().weight, rtol=0, atol=1e-12)
    assert_view_matches_state(plate)
    plate.d_k, plate.scaled, plate.length = 128, True, 4.0
    assert_view_matches_state(plate)
    plate.state.reset()
    assert plate.state.to_url() == {}
    assert_default(plate.state)
    assert_view_matches_state(plate)
    assert plate.angle_w.value == 40.0


def test_constructor_takes_url_fields():
    p = LookupPlate(angle=200.0, d_k=8)
    assert (p.state.angle, p.state.d_k) == (200.0, 8)
    assert_view_matches_state(p)


def test_widgets_drive_the_state(plate):
    plate.angle_w.value = 70
    assert plate.state.angle == 70.0
    assert_view_matches_state(plate)
    plate.length_w.value = 3.0
    assert plate.state.length == 3.0
    plate.dk_w.value = "64"
    assert plate.state.d_k == 64
    plate.scaled_w.active = [0]
    assert plate.state.scaled is True
    assert_view_matches_state(plate)
    plate.length_w.value = 99.0  # the browser is not trusted to respect the slider's end
    assert plate.state.length == MAX_LENGTH
    assert_view_matches_state(plate)


def test_widgets_drive_the_state_inside_a_document(plate):
    import panel as pn
    from bokeh.document import Document

    doc = Document()
    doc.add_root(pn.panel(plate).get_root(doc))
    plate.angle_w.value = 250
    assert plate.state.angle == 250.0
    assert_view_matches_state(plate)


def _moved(data: dict, j: int, x: float, y: float) -> dict:
    new = {k: list(v) for k, v in data.items()}
    new["x"][j], new["y"][j] = x, y
    return new


def test_gesture_is_folded_in_when_it_ends(plate):
    before = plate.state.keys.copy()
    plate.sync.tags = ["busy"]
    plate.keys_src.data = _moved(plate.keys_src.data, 2, 1.25, -3.5)
    np.testing.assert_array_equal(plate.state.keys, before)  # the browser leads until the gesture ends
    plate.sync.tags = []
    np.testing.assert_array_equal(plate.state.keys[2], [1.25, -3.5])
    np.testing.assert_array_equal(np.delete(plate.state.keys, 2, axis=0), np.delete(before, 2, axis=0))
    assert_view_matches_state(plate)


def test_query_drag_is_folded_in_when_it_ends(plate):
    plate.sync.tags = ["busy"]
    plate.query_src.data = {"x": [0.0], "y": [3.0]}
    assert plate.state.angle == 40.0
    plate.sync.tags = []
    assert math.isclose(plate.state.angle, 90.0, abs_tol=1e-12) and math.isclose(plate.state.length, 3.0)
    assert_view_matches_state(plate)
    plate.sync.tags = ["busy"]
    plate.query_src.data = {"x": [-30.0], "y": [0.0]}  # dragged past the end: clamped
    plate.sync.tags = []
    assert math.isclose(plate.state.angle, 180.0) and plate.state.length == MAX_LENGTH
    plate.sync.tags = ["busy"]
    plate.query_src.data = {"x": [0.0], "y": [0.0]}  # onto the origin: shortest query, angle 0
    plate.sync.tags = []
    assert plate.state.length == MIN_LENGTH and plate.state.angle == 0.0
    assert_view_matches_state(plate)


def _bad_browser_sends(plate):
    n = float("nan")
    good = dict(plate.keys_src.data)
    yield "keys NaN", lambda: setattr(plate.keys_src, "data", _moved(good, 3, n, 1.0))
    yield "keys inf", lambda: setattr(plate.keys_src, "data", _moved(good, 0, float("inf"), 1.0))
    yield "keys 4 rows", lambda: setattr(plate.keys_src, "data", {k: list(v)[:4] for k, v in good.items()})
    yield "keys 6 rows", lambda: setattr(plate.keys_src, "data", {k: list(v) + [v[0]] for k, v in good.items()})
    yield "keys no y", lambda: setattr(plate.keys_src, "data", {"x": list(good["x"])})
    yield "keys text", lambda: setattr(plate.keys_src, "data", _moved(good, 1, "a", "b"))
    yield "keys None", lambda: setattr(plate.keys_src, "data", _moved(good, 1, None, 1.0))
    yield "dk 3", lambda: setattr(plate.dk_w, "value", "3")
    yield "dk banana", lambda: setattr(plate.dk_w, "value", "banana")
    yield "dk empty", lambda: setattr(plate.dk_w, "value", "")
    yield "angle NaN", lambda: setattr(plate.angle_w, "value", n)
    yield "length inf", lambda: setattr(plate.length_w, "value", float("inf"))
    yield "query NaN", lambda: (setattr(plate.plot, "tags", ["busy"]),
                                setattr(plate.query_src, "data", {"x": [n], "y": [1.0]}),
                                setattr(plate.plot, "tags", []))
    yield "query empty", lambda: (setattr(plate.plot, "tags", ["busy"]),
                                  setattr(plate.query_src, "data", {"x": [], "y": []}),
                                  setattr(plate.plot, "tags", []))


BAD = [name for name, _ in _bad_browser_sends(LookupPlate())]


@pytest.mark.parametrize("which", BAD)
def test_bad_browser_data_is_refused(which):
    plate = LookupPlate(angle=123.0, d_k=16, scaled=True)
    plate.keys_src.data = _moved(plate.keys_src.data, 4, 2.5, 2.5)  # a good change first
    good = plate.state.param.values()
    good_keys = plate.state.keys.copy()
    np.testing.assert_array_equal(good_keys[4], [2.5, 2.5])
    send = dict(_bad_browser_sends(plate))[which]
    send()  # no exception may escape
    s = plate.state
    assert (s.angle, s.length, s.d_k, s.scaled) == (good["angle"], good["length"], good["d_k"], good["scaled"])
    np.testing.assert_array_equal(s.keys, good_keys)
    assert_valid(s)
    assert_view_matches_state(plate)  # the sources and widgets are put back
