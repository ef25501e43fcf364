"""The learn plate's state ("A head that learns", /learn) without a server: its fields and bounds,
its links (hostile ones refused or clamped, with a notice), the head it describes against
attention_core's TrainSettings, and the stories: their settings, the words learn.js carries for
them, and what each one shows when it is trained (the numbers its words promise)."""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from app.plates.learn.state import (
    D_K_CHOICES,
    MAX_STEP,
    PRESET_LABELS,
    PRESETS,
    SEEDS,
    STORIES,
    LearnState,
    number_in,
    preset_values,
    story_of,
)
from app.shared.state import whole_number

from node_mirror import library_file, run_driver  # tests/core (on the path: tests/conftest.py)


def test_defaults_are_the_cores_and_the_link_is_clean():
    s = LearnState()
    assert s.to_url() == {}
    assert s.settings() == ac.TrainSettings()  # T 6, d_model 8, d_k 8, seed 0, lr 0.05, Adam, ÷√d_k, two maps, scale 1
    assert (s.step, s.story()) == (0, "two-maps")


@pytest.mark.parametrize("args", [
    {"step": "300"},
    {"step": "2000", "lr": "1.5", "optimizer": "gd", "d_k": "64", "scaled": "0", "tie": "shared",
     "init_scale": "30", "seed": "15"},
    {"tie": "identity", "d_k": "2", "lr": "0.0001", "init_scale": "0.01"},
])
def test_a_link_round_trips(args):
    s = LearnState()
    assert s.apply_url(args) == []
    assert s.to_url() == args
    again = LearnState()
    again.apply_url(s.to_url())
    assert {k: getattr(again, k) for k in s.url_fields} == {k: getattr(s, k) for k in s.url_fields}


def test_out_of_range_is_clamped_with_a_notice():
    s = LearnState()
    notices = s.apply_url({"step": "99999", "lr": "0", "init_scale": "1e9", "seed": "99"})
    assert (s.step, s.lr, s.init_scale, s.seed) == (MAX_STEP, 0.0001, 50.0, SEEDS - 1)
    assert notices == ["'step' set to 2000, the nearest allowed value", "'lr' set to 0.0001, the nearest allowed value",
                       "'init_scale' set to 50, the nearest allowed value", "'seed' set to 15, the nearest allowed value"]
    s.apply_url({"step": "-5", "lr": "-1e300"})
    assert (s.step, s.lr) == (0, 0.0001)


@pytest.mark.parametrize("name, text", [
    ("step", "nan"), ("step", "1e400"), ("step", "0x10"), ("step", "1_000"), ("step", "<script>alert(1)</script>"),
    ("lr", "inf"), ("lr", ""), ("lr", "-Infinity"), ("d_k", "3"), ("d_k", "1e9"), ("tie", "banana"), ("tie", "NONE"),
    ("optimizer", "sgd"), ("scaled", "maybe"), ("seed", "١٢"), ("init_scale", "１２"),
])
def test_a_value_that_cannot_be_read_is_ignored_with_a_notice(name, text):
    s = LearnState()
    notices = s.apply_url({name: text})
    assert len(notices) == 1 and notices[0].startswith(f"ignored '{name}="), notices
    assert s.to_url() == {}


def test_a_long_value_and_unknown_keys_are_ignored():
    s = LearnState()
    notices = s.apply_url({"step": "9" * 10**6, "zzz": "1", "__proto__": "1", "theme": "dark"})
    assert notices == ["ignored 'step': value too long", "ignored unknown setting 'zzz'",
                       "ignored unknown setting '__proto__'"]
    assert s.to_url() == {}


def test_the_params_refuse_what_their_bounds_refuse():
    s = LearnState()
    for name, value in (("step", MAX_STEP + 1), ("step", -1), ("lr", 0.0), ("lr", 6.0), ("seed", SEEDS),
                        ("init_scale", 0.0), ("d_k", 3), ("tie", "both"), ("optimizer", "sgd")):
        with pytest.raises(ValueError):
            setattr(s, name, value)
    assert s.to_url() == {}


def test_q_equals_k_equals_x_uses_the_model_width_whatever_d_k_says():
    s = LearnState(tie="identity", d_k=64)
    assert s.width == 8 and s.settings().d_k == 8 and s.settings().scale == 1 / np.sqrt(8)
    assert s.to_url() == {"tie": "identity", "d_k": "64"}  # the link keeps d_k for when the maps come back
    for d_k in D_K_CHOICES:
        assert LearnState(d_k=d_k).settings().d_k == d_k


def test_typed_numbers_are_read_to_six_digits_or_refused_with_words():
    assert number_in(0.060000000000000005, "Learning rate", 0.0001, 5.0) == 0.06
    assert number_in(5, "Learning rate", 0.0001, 5.0) == 5.0
    for bad in (None, True, "x", float("nan"), float("inf"), 0.0, 5.5):
        with pytest.raises(ValueError, match=r"^Learning rate: type a number from 0.0001 to 5; the plate keeps what it shows\.$"):
            number_in(bad, "Learning rate", 0.0001, 5.0)
    with pytest.raises(ValueError, match="Seed: type a whole number from 0 to 15"):
        whole_number(None, "Seed", 0, 15)


# --------------------------------------------------------------------------- the stories
def test_every_story_is_its_settings_from_step_0_and_names_itself():
    for name, changes in PRESETS.items():
        s = LearnState(step=700, lr=0.3)
        s.apply_preset(name)
        assert s.step == 0 and s.story() == name
        for k, v in changes.items():
            assert getattr(s, k) == v
        assert s.to_url() == {k: LearnState(**preset_values(name)).url_value(k) for k in s.to_url()}
        s.seed = 1
        assert s.story() == ""  # another seed tells another story
    with pytest.raises(ValueError, match="unknown story 'nope'"):
        LearnState().apply_preset("nope")
    assert story_of({**{k: LearnState.param[k].default for k in LearnState.SETTINGS}, "tie": "shared"}) == "one-map"


def story_run(name: str, steps: int):
    s = LearnState(**preset_values(name))
    return ac.train(s.settings(), steps)


def test_one_map_stays_symmetric_and_stops_near_078():
    state, h = story_run("one-map", 300)
    assert np.all(h.asymmetry == 0.0)
    assert 0.78 < h.loss[-1] < 0.79 and abs(h.loss[-1] - h.loss[-50]) < 1e-6  # it has stopped
    assert np.min(h.min_target_mass) < 0.5


def test_two_maps_learn_the_shift_and_the_asymmetry():
    state, h = story_run("two-maps", 100)
    assert h.loss[0] > 0.8 and h.loss[100] < 1e-3
    r = ac.head_readout(LearnState().settings(), state)
    assert r.asymmetry > 5 and np.min(r.target_mass) > 0.99
    w0 = ac.head_readout(LearnState().settings(), ac.init_state(LearnState().settings())).weights
    assert np.max(np.abs(w0 - 1 / 6)) < 0.15  # near-uniform at the start


def test_a_saturated_start_has_a_dead_gradient_and_does_not_move():
    state, h = story_run("saturated", 300)
    assert h.grad_norm[0] < 1e-7 and np.all(h.grad_norm < 1e-7)
    assert np.all(np.abs(h.loss - 4 / 3) < 1e-6)  # 1.333 all along: STORIES says so


def test_at_d_k_64_the_division_decides():
    _, scaled = story_run("dk64-scaled", 100)
    _, raw = story_run("dk64-raw", 900)
    assert scaled.loss[50] < 1e-3 and scaled.min_target_mass[100] > 0.99
    assert np.all(np.abs(raw.loss[100:760] - 0.222) < 0.005) and raw.min_target_mass[300] < 0.01
    assert 760 < np.argmax(raw.loss[100:] > 0.3) + 100 < 800 and abs(raw.loss[-1] - 1 / 3) < 1e-6
    assert raw.loss[0] > scaled.loss[0]  # larger scores, rows nearer one-hot from the start


@pytest.mark.node
def test_learn_js_tells_the_same_stories():
    got = run_driver(r"""
const L = require(process.argv[1]);
process.stdout.write(JSON.stringify({presets: L.PRESETS, labels: L.PRESET_LABELS, stories: L.STORIES, defaults: L.DEFAULTS}));
""", None, scripts=(library_file("learn.js"),))
    assert got["presets"] == PRESETS and got["labels"] == PRESET_LABELS and got["stories"] == STORIES
    assert got["defaults"] == {k: LearnState.param[k].default for k in LearnState.SETTINGS}
