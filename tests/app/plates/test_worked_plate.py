"""The worked-example plate (app/plates/worked/): its state and presets, the URL round trip and
what a hostile link can do, typed numbers (good and bad), the plate following its state both ways,
and the browser half (worked.js, with the runtime a page loads) writing exactly what Python writes.

The browser is simulated by setting the Bokeh models' properties from Python: Bokeh runs the
Python `on_change` callbacks for those sets too, as a served session does when a browser's change
arrives. worked.js runs in node on stand-in models and is compared with the plate built here.
"""

from __future__ import annotations

import json
import math
import re
import subprocess

import numpy as np
import panel as pn
import pytest
from bokeh.document import Document

import attention_core as ac
from app.delivery.page import plate_page
from app.plates.worked.data import INVALID_CSS, preset_options
from app.plates.worked.formatting import entry, exp_text, expo, fixed, short
from app.plates.worked.inputs import MAX_TEXT, InputError, parse_rows, parse_vector, read_inputs, rows_text
from app.plates.worked.presets import PRESETS, presets_js
from app.plates.worked.state import WorkedState
from app.plates.worked.view import WorkedPlate
from app.shared.state import link_args
from app.shared.theme import THEMES, dark_partner

from node_mirror import library_file, node_path  # tests/core (on the path: tests/conftest.py)

SCRIPT = library_file("worked.js")  # what a page loads: the runtime (AELink, AESync, AEPage) and worked.js


def build(**kw) -> WorkedPlate:
    """A plate whose Bokeh models live in a document, as in a session."""
    plate = WorkedPlate(**kw)
    doc = Document()
    doc.add_root(pn.panel(plate).get_root(doc))
    return plate


def core_steps(q, K, V, scaled):
    V = np.asarray(V, dtype=float)
    scale = ac.default_scale(len(q)) if scaled else 1.0
    return ac.lookup_steps(q, K, V[:, 0] if V.shape[1] == 1 else V, scale=scale, shift=False)


# --------------------------------------------------------------------------- state and presets
def test_defaults_are_the_course_texts_three_items():
    s = WorkedState()
    assert s.preset == "three-items" and s.step == 0 and s.scaled is False
    assert s.query.tolist() == [1.0] and s.keys.tolist() == [[2.0], [1.0], [0.0]] and s.values.tolist() == [[1.0], [2.0], [3.0]]
    st = s.steps()
    assert [f"{w:.3f}" for w in st.weight] == ["0.665", "0.245", "0.090"]
    assert f"{st.output:.3f}" == "1.425" and f"{st.exp_total:.3f}" == "11.107"
    assert s.to_url() == {}


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_loads_its_numbers_and_resets_the_turn(name):
    s = WorkedState(preset="four-tokens" if name != "four-tokens" else "one-token", step=5)
    s.guess_key, s.guess_output = "k1", "2"
    s.preset = name
    p = PRESETS[name]
    assert s.query.tolist() == p["query"][0] and s.keys.tolist() == p["keys"] and s.values.tolist() == p["values"]
    assert s.scaled is p["scaled"] and s.step == 0 and s.guess_key == "" and s.guess_output == ""
    assert s.is_preset()
    assert s.names == p["names"]


@pytest.mark.parametrize("name, weights, output", [
    ("three-items", ["0.665", "0.245", "0.090"], "1.425"),
    ("stop-and-try", ["0.665", "0.245", "0.090"], "1.425"),
    ("one-token", ["0.140", "0.284", "0.576"], "[4.28, 5.72]"),
    ("four-keys", ["0.053", "0.053", "0.889", "0.006"], "[0.059, 0.059, 0.895]"),
])
def test_presets_show_the_seed_numbers(name, weights, output):
    plate = build(preset=name, step=5)
    assert [fixed(w, 3) for w in plate.table_src.data["weight"]] == weights
    assert f"output = {output}" in plate.output_div.text
    for w in weights:
        assert f"<td>{w}</td>" in plate.table_div.text


def test_seed_exponentials_are_printed_as_the_seeds_print_them():
    plate = build(step=3)
    html = plate.table_div.text
    for text in ("7.389", "2.718", "<td class='wk-now'>1</td>", "Σ 11.107"):
        assert text in html, text
    plate.state.preset = "four-keys"
    plate.state.step = 3
    html = plate.table_div.text
    for text in ("4.113", "69.591", "0.493", "Σ 78.311"):  # the seed: 4.113, 69.59, 0.493, 78.31
        assert text in html, text
    assert "1.414" in html and "4.243" in html and "-0.707" in html


def test_hidden_stages_show_question_marks_not_numbers():
    plate = build(preset="four-keys")
    html = plate.table_div.text
    assert html.count(">?</td>") == 4 * 5 + 3  # five hidden stages per key, three in the totals row
    for hidden in ("1.414", "4.113", "0.053", "0.889", "0.059", "78.31"):
        assert hidden not in html
    assert "output = <span class='wk-hidden'>?</span>" in plate.output_div.text
    assert plate.point_src.data["x"] == [] and plate.pulls_src.data["x0"] == []
    for step, shown in ((1, "2</td>"), (2, "1.414"), (3, "69.591"), (4, "0.889"), (5, "0.895")):
        plate.state.step = step
        assert shown in plate.table_div.text
        assert plate.table_div.text.count(">?</td>") == 4 * (5 - step) + (3 if step < 3 else 5 - step)


def test_state_refuses_arrays_that_do_not_fit():
    with pytest.raises(ValueError, match="shape|need"):
        WorkedState(query=[1.0, 2.0], keys=[[1.0], [2.0]], values=[1.0, 2.0])
    with pytest.raises(ValueError, match="within"):
        WorkedState(query=[11.0], keys=[[1.0]], values=[1.0])
    s = WorkedState()
    with pytest.raises(ValueError):
        s.set_inputs([1.0], [[1.0], [2.0]], [[1.0]])
    assert s.query.tolist() == [1.0]


def test_set_length_stretches_the_query_along_its_direction():
    s = WorkedState(preset="one-token")
    s.set_length(5.0)
    assert float(np.linalg.norm(s.query)) == pytest.approx(5.0, rel=1e-12)
    np.testing.assert_allclose(s.query / np.linalg.norm(s.query), np.array([1.0, 2.0]) / math.sqrt(5), rtol=1e-12)
    s.set_length(1e9)  # clamped so that every entry stays within ±10
    assert np.max(np.abs(s.query)) <= 10.0 + 1e-12
    z = WorkedState(query=[0.0, 0.0], keys=[[1.0, 0.0]], values=[1.0])
    z.set_length(3.0)
    assert z.query.tolist() == [0.0, 0.0]
    # The slider says why it is off, instead of showing its start (issue 43: "Query length 0.100").
    from app.plates.worked.data import length_slider

    off = length_slider(z)
    assert off["disabled"] and not off["show_value"] and off["title"] == "Query length |q| = 0: no direction to stretch"
    assert length_slider(s)["title"] == "Query length |q|" and length_slider(s)["show_value"]


# --------------------------------------------------------------------------- URL
def test_url_round_trip_on_seeded_random_states():
    rng = np.random.default_rng(7)
    for i in range(60):
        name = list(PRESETS)[i % len(PRESETS)]
        s = WorkedState(preset=name)
        d_k, m, d_v = int(rng.integers(1, 5)), int(rng.integers(1, 7)), int(rng.integers(1, 5))
        if i % 3:
            s.set_inputs(np.round(rng.uniform(-10, 10, d_k), 3), np.round(rng.uniform(-10, 10, (m, d_k)), 2),
                         np.round(rng.uniform(-10, 10, (m, d_v)), 1))
        s.param.update(scaled=bool(rng.integers(0, 2)), step=int(rng.integers(0, 6)))
        url = s.to_url()
        t = WorkedState()
        assert t.apply_url(url) == [], url
        assert (t.preset, t.scaled, t.step) == (s.preset, s.scaled, s.step)
        for f in ("query", "keys", "values"):
            np.testing.assert_allclose(getattr(t, f), getattr(s, f), rtol=1e-5, atol=1e-9)


def test_url_leaves_out_what_the_preset_already_says():
    s = WorkedState(preset="four-keys")
    assert s.to_url() == {"preset": "four-keys"}
    s.scaled = False
    s.step = 4
    assert s.to_url() == {"preset": "four-keys", "scaled": "0", "step": "4"}
    s.set_inputs([2.0, 1.5], s.keys, s.values)
    assert s.to_url()["query"] == "2,1.5" and "keys" not in s.to_url()


@pytest.mark.parametrize("args, expect, notice", [
    ({"step": "9"}, {"step": 5}, "'step' set to 5"),
    ({"step": "-3"}, {"step": 0}, "'step' set to 0"),
    ({"step": "2.5"}, {"step": 2}, "'step' set to 2"),
    ({"step": "nan"}, {"step": 0}, "ignored 'step=nan'"),
    ({"preset": "nosuch"}, {"preset": "three-items"}, "ignored 'preset=nosuch': expected one of"),
    ({"scaled": "maybe"}, {"scaled": False}, "ignored 'scaled=maybe': expected 0 or 1"),
    ({"preset": "one-token", "query": "30,-40"}, {"query": [10.0, -10.0]}, "'query' entries set to within ±10"),
    ({"preset": "one-token", "query": "1,x"}, {"query": [1.0, 2.0]}, "ignored 'query=1,x': the query: 'x' is not a number"),
    ({"preset": "one-token", "keys": "1,0;0,1"}, {"keys": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]},
     "ignored 'keys': the query, keys and values do not fit together (query (2,), keys (2, 2), values (3, 2))"),
    ({"query": ",".join(["1"] * 17)}, {"query": [1.0]}, "has 17 numbers; at most 16"),
    ({"keys": "1,2;3"}, {"keys": [[2.0], [1.0], [0.0]]}, "line 2 has 1 number but line 1 has 2"),
    ({"keys": ";".join(["1"] * 7)}, {"keys": [[2.0], [1.0], [0.0]]}, "7 keys; at most 6 here"),
    ({"values": "1" * 201}, {"values": [[1.0], [2.0], [3.0]]}, "ignored 'values': value too long"),
    ({"bogus": "1"}, {}, "ignored unknown setting 'bogus'"),
])
def test_hostile_links_are_clamped_or_ignored(args, expect, notice):
    s = WorkedState()
    notices = s.apply_url(args)
    assert any(notice in n for n in notices), notices
    for name, value in expect.items():
        got = getattr(s, name)
        assert (np.asarray(got).tolist() if isinstance(got, np.ndarray) else got) == value, (name, got)
    s.steps()  # still a valid turn


def test_link_applies_preset_then_edits_then_step():
    s = WorkedState()
    notices = s.apply_url({"step": "3", "values": "1,0;0,1;2,2", "preset": "one-token", "scaled": "0"})
    assert notices == []
    assert (s.preset, s.step, s.scaled) == ("one-token", 3, False)
    assert s.values.tolist() == [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]] and s.query.tolist() == [1.0, 2.0]


def test_served_page_applies_the_link():
    page = plate_page("worked", {"preset": "four-keys", "step": "5"})
    st = page.plate.state
    assert (st.preset, st.step) == ("four-keys", 5)


EDITED = "(numbers edited) "


def menu_label(plate: WorkedPlate) -> str:
    """What the Example menu shows for the chosen preset."""
    return dict(plate.preset_w.options)[plate.preset_w.value]


@pytest.mark.node  # the drag is replayed by the page's own script (on_the_page)
def test_the_example_menu_says_when_the_numbers_are_not_the_presets_however_they_came():
    """Issue 54, 5: a link whose keys differ from the preset's named the preset in the Example menu
    while the table showed scores 6, −3, 1.5; only typing on the page added "(numbers edited)"."""
    label = PRESETS["three-items"]["label"]
    page = plate_page("worked", {"step": "2", "query": "3", "keys": "2;-1;0.5"})  # a served page's link
    plate = page.plate
    assert plate.table_src.data["score"] == [6.0, -3.0, 1.5]
    assert menu_label(plate) == EDITED + label
    assert [lbl for k, lbl in plate.preset_w.options if k != "three-items"] == [
        p["label"] for k, p in PRESETS.items() if k != "three-items"]  # only the chosen entry says so
    plate.preset_w.value = "one-token"  # a preset chosen: its own numbers, its plain name
    assert menu_label(plate) == PRESETS["one-token"]["label"]
    plate.query_w.value_input = "2, -1"  # typed
    assert menu_label(plate) == EDITED + PRESETS["one-token"]["label"]
    plate.query_w.value_input = "1, 2"  # typed back to the preset's own
    assert menu_label(plate) == PRESETS["one-token"]["label"]
    nb = build()  # a notebook: Python's state set directly
    nb.state.keys = np.array([[2.0], [-1.0], [0.5]])
    assert menu_label(nb) == EDITED + label
    nb.state.load_preset()
    assert menu_label(nb) == label
    dragged = build(preset="four-tokens")  # a drag on the page, then Restore
    on_the_page(dragged, drag("keys", (1.5, 1.0), (-1.0, 2.0)))
    assert menu_label(dragged) == EDITED + PRESETS["four-tokens"]["label"]
    on_the_page(dragged, [["on_preset", True]])
    assert menu_label(dragged) == PRESETS["four-tokens"]["label"]


# --------------------------------------------------------------------------- the plate follows its state
def test_plate_builds_without_a_server_and_names_its_models():
    plate = build()
    root = plate.__panel__().get_root(Document())
    names = {m.name for m in root.references() if m.name}
    for n in ("worked_table", "worked_output", "query", "keys", "values", "hull", "worked_table_view",
              "output_view", "stage", "step_next", "step_back", "preset", "query_text", "keys_text", "values_text",
              "guess_key", "guess_output", "feedback", "keys_plot", "values_plot", "sweep_plot", "length"):
        assert n in names, n
    t = plate.table_src.data
    assert len(t["key"]) == 3 and {"key", "score", "scaled", "exp", "weight", "weighted"} <= set(t)
    assert set(plate.output_src.data) >= {"value"} and len(plate.output_src.data["value"]) == 1


@pytest.mark.parametrize("name", list(PRESETS))
def test_plate_numbers_equal_attention_core(name):
    plate = build(preset=name, step=5)
    s = plate.state
    q, K, V = s.arrays
    st = core_steps(q, K, V, s.scaled)
    t = plate.table_src.data
    for col in ("score", "scaled", "exp", "weight"):
        np.testing.assert_allclose(t[col], getattr(st, col), rtol=1e-15, atol=0)
    np.testing.assert_allclose(np.asarray(t["weighted"], dtype=float), st.weighted, rtol=1e-15, atol=0)
    out = np.atleast_1d(st.output)
    if out.size == 1:
        assert plate.output_src.data["value"] == [float(out[0])]
    else:
        assert [plate.output_src.data[f"value_{i}"][0] for i in range(out.size)] == out.tolist()
    assert plate.output_src.data["exp_total"] == [st.exp_total]
    if V.shape[1] == 2:
        hull = ac.convex_hull(V)
        assert plate.hull_src.data == {"x": hull[:, 0].tolist(), "y": hull[:, 1].tolist()}
        assert plate.point_src.data == {"x": [out[0]], "y": [out[1]]}
        assert plate.values_plot.visible
    else:
        assert plate.hull_src.data["x"] == [] and not plate.values_plot.visible
    assert plate.keys_plot.visible == (q.size == 2)
    W_ = ac.length_sweep(q, K, plate.sweep_src.data["length"], scale=s.scale)
    np.testing.assert_allclose(plate.sweep_src.data["top"], W_.max(axis=1), rtol=1e-15)


def test_stage_buttons_and_radio_follow_the_state_both_ways():
    plate = build()
    plate.stage_w.active = 2  # the browser picks stage 3
    assert plate.state.step == 3
    assert plate.back_w.disabled is False and plate.next_w.disabled is False
    plate.state.step = 5
    assert plate.stage_w.active == 4 and plate.next_w.disabled is True
    plate.stage_w.active = None
    assert plate.state.step == 0 and plate.back_w.disabled is True


def test_typed_numbers_good_and_bad():
    plate = build(preset="one-token", step=5)
    before = dict(plate.table_src.data)
    plate.query_w.value_input = "1, x"
    assert "&#x27;x&#x27; is not a number" in plate.query_err.text and plate.query_err.visible
    assert plate.state.query.tolist() == [1.0, 2.0] and plate.table_src.data == before  # nothing else changed
    for bad, msg in (("", "is empty"), ("1, 2, 3", "the query has 3 numbers but each key has 2"), ("nan, 1", "not a number"),
                     ("inf, 1", "not a number"), ("1e999, 1", "outside the range"), ("1,,2", "a number is missing"),
                     ("11, 0", "outside the range −10 to 10")):
        plate.query_w.value_input = bad
        assert msg in plate.query_err.text, (bad, plate.query_err.text)
        assert plate.state.query.tolist() == [1.0, 2.0]
    plate.query_w.value_input = "(2, 0.5)"
    assert plate.query_err.text == "" and not plate.query_err.visible
    assert plate.state.query.tolist() == [2.0, 0.5]
    np.testing.assert_allclose(plate.table_src.data["score"], [2.0, 0.5, 2.5])
    plate.keys_w.value_input = "1, 0\n0, 1"
    assert "2 keys but 3 values" in plate.keys_err.text
    plate.values_w.value_input = "1\n2"  # now they fit: two keys, two scalar values
    assert plate.keys_err.text == "" and plate.values_err.text == ""
    assert plate.state.keys.shape == (2, 2) and plate.state.values.tolist() == [[1.0], [2.0]]
    assert not plate.values_plot.visible and plate.keys_plot.visible
    # Changing d_k takes two boxes: the first waits, with a message, for the second.
    plate.query_w.value_input = "1, 2, 3"
    assert "the query has 3 numbers but each key has 2" in plate.query_err.text
    plate.keys_w.value_input = "1, 0, 0; 0, 1, 0"
    assert plate.query_err.text == "" and plate.state.query.tolist() == [1.0, 2.0, 3.0]
    assert not plate.keys_plot.visible and "keys with 2 numbers" in plate.panel_note.text


def marked(plate: WorkedPlate) -> list[bool]:
    """Which of the query, keys and values boxes are marked as the one to fix."""
    return ["wk-invalid" in (w.css_classes or []) for w in (plate.query_w, plate.keys_w, plate.values_w)]


def test_the_box_that_cannot_be_read_is_marked_and_a_long_paste_is_reported_whole():
    """Issue 54, 5: the message said "fix the box marked in red" while every box stayed grey, and a
    paste of 300 keys was cut at 500 characters by the box itself (Bokeh's TextAreaInput default)
    and then reported as "250 keys; at most 6 here"."""
    plate = build()
    assert marked(plate) == [False, False, False]
    paste = "\n".join(["1"] * 300)
    for w in (plate.query_w, plate.keys_w, plate.values_w):
        assert w.max_length is None or w.max_length >= len(paste) + 1000, w.max_length  # nothing near is cut
    plate.keys_w.value_input = paste
    assert "300 keys; at most 6 here" in plate.keys_err.text and plate.keys_err.visible
    assert marked(plate) == [False, True, False]
    plate.keys_w.value_input = "2\n1\n0"
    assert marked(plate) == [False, False, False] and not plate.keys_err.visible
    plate.query_w.value_input = "1, 2"  # fits the query box but not the keys: marked where it was typed
    assert marked(plate) == [True, False, False] and "the query has 2 numbers" in plate.query_err.text
    plate.query_w.value_input = "1"
    # A paste the box could not hold whole (it keeps MAX_TEXT characters): said to be too long, not
    # counted as if it were all there.
    plate.values_w.value_input = "1;" * (MAX_TEXT // 2)
    assert marked(plate) == [False, False, True]
    assert f"too long: this box holds at most {MAX_TEXT} characters" in plate.values_err.text, plate.values_err.text
    plate.preset_w.value = "one-token"  # a preset puts good numbers in every box
    assert marked(plate) == [False, False, False]


def test_the_red_border_stands_out_in_light_and_dark():
    """The marked box's border against the page and the box's own fill, both themes (WCAG 2.1's 3:1
    for a control's boundary; page.js maps the light colour to its dark partner)."""
    from test_theme_contrast import contrast  # tests/app

    colours = set(re.findall(r"#[0-9a-fA-F]{6}", INVALID_CSS))
    assert colours, INVALID_CSS
    for c in colours:
        for theme, colour in (("light", c), ("dark", dark_partner(c))):
            for bg in ("paper", "surface"):
                assert contrast(colour, THEMES[theme][bg]) >= 3.0, (theme, colour, bg)


@pytest.mark.node
def test_a_preset_replaces_bad_text_and_clears_the_message():
    plate = build()
    plate.keys_w.value_input = "oops"
    assert plate.keys_err.visible
    plate.preset_w.value = "one-token"
    assert plate.state.preset == "one-token" and plate.keys_w.value_input == "1, 0\n0, 1\n1, 1"
    assert not plate.keys_err.visible and plate.keys_err.text == ""
    plate.keys_w.value_input = "oops"
    # Restore is the page's own (worked.js puts the preset's numbers back and sends them): it runs
    # in node on the page this plate shows, and Python gets what that page sends.
    page = on_the_page(plate, [["on_text", "keys"], ["on_preset", True]])
    assert page["state"]["texts"][1] == "1, 0\n0, 1\n1, 1" and page["state"]["errors_visible"][1] is False
    assert plate.keys_w.value_input == "1, 0\n0, 1\n1, 1" and not plate.keys_err.visible


def test_guesses_are_checked_after_the_reveal():
    plate = build()
    plate.guess_key_w.value = "k1"
    plate.guess_out_w.value_input = "1.2"
    assert plate.state.guess_key == "k1" and plate.state.guess_output == "1.2"
    assert "tells you how close" in plate.feedback_div.text
    plate.state.step = 4
    assert "You picked k1: right." in plate.feedback_div.text and "Step once more" in plate.feedback_div.text
    assert plate.guess_key_w.disabled and plate.guess_out_w.disabled
    plate.state.step = 5
    assert "Your output 1.2 is 0.225 from 1.425." in plate.feedback_div.text
    assert "0.665, 0.245 and 0.090" in plate.feedback_div.text  # the preset's note
    plate.state.guess_key = "k3"
    assert "You picked k3: not this time.</span> k1 wins with weight 0.665; k3 gets 0.090." in plate.feedback_div.text


def test_vector_guess_and_its_message():
    plate = build(preset="one-token")
    plate.guess_out_w.value_input = "4"
    assert "the output has 2 numbers; type 2, e.g. 0.5, 0.5" in plate.guess_err.text
    plate.guess_out_w.value_input = "4, 6"
    assert plate.guess_err.text == ""
    plate.state.step = 5
    assert "Your output [4, 6] is 0.396 from [4.28, 5.72]." in plate.feedback_div.text


def test_a_finished_drag_is_folded_in():
    plate = build(preset="four-tokens")
    plate.sync.tags = ["busy"]
    plate.query_src.data = {"x": [2.0], "y": [0.5], "vec": [[2.0, 0.5]], "name": []} | {"name": ["q"]}
    assert plate.state.query.tolist() == [1.5, 1.0]  # ignored while busy
    plate.sync.tags = []
    assert plate.state.query.tolist() == [2.0, 0.5]
    assert plate.query_w.value_input == "2, 0.5"
    st = core_steps([2.0, 0.5], PRESETS["four-tokens"]["keys"], PRESETS["four-tokens"]["values"], True)
    np.testing.assert_allclose(plate.table_src.data["weight"], st.weight, rtol=1e-15)


def test_a_bad_drag_message_is_refused_and_the_view_restored():
    plate = build(preset="four-tokens")
    plate.keys_src.data = {"x": [0.0], "y": [0.0], "vec": [[float("nan"), 0.0]], "name": ["A"]}
    assert plate.state.keys.tolist() == PRESETS["four-tokens"]["keys"]
    assert plate.keys_src.data["vec"] == PRESETS["four-tokens"]["keys"]


def drag(which: str, start, end) -> list:
    """A drag in a 2D panel as the page's pointer events call worked.js."""
    return [["on_pan_start", {"x": start[0], "y": start[1]}, which], ["on_pan", {"x": end[0], "y": end[1]}, which],
            ["on_pan_end", {}, which]]


GESTURES = {  # (preset, step, what the reader does on the page)
    "preset, then Step before Python answers": ("four-tokens", 5, [["set", "preset", {"value": "four-keys"}],
                                                                  ["on_preset"], ["on_step", 1]]),
    "Step, Step, Back": ("three-items", 0, [["on_step", 1], ["on_step", 1], ["on_step", -1]]),
    "scaling ticked": ("three-items", 3, [["set", "scaled", {"active": [0]}], ["on_setting"]]),
    "guesses": ("four-tokens", 0, [["set", "guess_key", {"value": "A"}], ["on_setting"],
                                   ["set", "guess_output", {"value_input": "1, 2"}], ["on_setting"]]),
    "a query typed": ("one-token", 5, [["set", "query_text", {"value_input": "2, -1"}], ["on_text", "query"]]),
    "a bad entry, then Step": ("one-token", 2, [["set", "query_text", {"value_input": "1, x"}], ["on_text", "query"],
                                                ["on_step", 1]]),
    "two boxes for a new d_k": ("one-token", 5, [["set", "query_text", {"value_input": "1, 2, 3"}], ["on_text", "query"],
                                                 ["set", "keys_text", {"value_input": "1, 0, 0; 0, 1, 0; 0, 0, 1"}],
                                                 ["on_text", "keys"]]),
    "the length slider": ("four-tokens", 5, [["set", "length", {"value": 4.0}], ["on_length"],
                                             ["set", "length", {"value": 4.5}], ["on_length"]]),
    "the slider, then typing": ("four-tokens", 5, [["set", "length", {"value": 4.0}], ["on_length"],
                                                   ["set", "keys_text", {"value_input": "2, 0.5\n-0.5, 2\n-1.5, -1\n1, 1"}],
                                                   ["on_text", "keys"]]),
    "typing, then the slider": ("four-tokens", 5, [["set", "query_text", {"value_input": "1, 3"}], ["on_text", "query"],
                                                   ["set", "length", {"value": 2.5}], ["on_length"]]),
    "a query dragged": ("four-tokens", 5, drag("keys", (1.5, 1.0), (2.5, -1.0))),
    "a value dragged": ("four-tokens", 5, drag("values", (1.0, 3.0), (-1.0, 2.0))),
    "the slider, then a drag": ("four-tokens", 5, [["set", "length", {"value": 3.0}], ["on_length"],
                                                   *drag("keys", (2.0, 0.5), (0.5, 0.5))]),
    "a drag, then Restore": ("four-tokens", 4, [*drag("keys", (1.5, 1.0), (-1.0, 2.0)), ["on_preset", True]]),
    "a preset, then typing": ("three-items", 3, [["set", "preset", {"value": "one-token"}], ["on_preset"],
                                                 ["set", "keys_text", {"value_input": "1, 0\n0, 1\n2, 2"}],
                                                 ["on_text", "keys"]]),
}


@pytest.mark.node
@pytest.mark.parametrize("name", list(GESTURES))
def test_python_holds_what_the_page_shows_after_each_gesture(name):
    """worked.js runs the gesture on the page a plate shows, Python gets what that page sends
    (its half of the sync protocol: the groups of models the reader changed, at each commit), and
    then holds the page's state: the preset, stage, scaling, numbers, guesses, typed text and the
    messages under the boxes, and the numbers of the table."""
    preset, step, calls = GESTURES[name]
    plate = build(preset=preset, step=step)
    before = page_case(plate)
    page = on_the_page(plate, calls)
    st, s = page["state"], plate.state
    if calls[-1][0] == "on_pan_end":  # the drag took hold of its point (a missed one would test nothing)
        assert st["vec"] != [[before["q"]], before["K"], before["V"]], st["vec"]
    assert (st["preset"], st["stage"], st["scaled"] == [0]) == (s.preset, None if s.step == 0 else s.step - 1, s.scaled)
    for got, want in zip(st["vec"], ([s.query.tolist()], s.keys.tolist(), s.values.tolist())):
        np.testing.assert_allclose(np.array(got, dtype=float), np.array(want, dtype=float), rtol=1e-6, atol=1e-9)
    assert st["texts"] == [plate.query_w.value_input, plate.keys_w.value_input, plate.values_w.value_input]
    assert st["errors"] == [plate.query_err.text, plate.keys_err.text, plate.values_err.text]
    assert st["errors_visible"] == [plate.query_err.visible, plate.keys_err.visible, plate.values_err.visible]
    assert st["marked"] == marked(plate) == [bool(e) for e in st["errors_visible"]]
    assert st["options"] and [tuple(o) for o in st["options"]] == [tuple(o) for o in plate.guess_key_w.options]
    assert [tuple(o) for o in st["preset_options"]] == [tuple(o) for o in plate.preset_w.options]
    np.testing.assert_allclose(st["table"]["weight"], plate.table_src.data["weight"], rtol=1e-6, atol=1e-9)
    assert st["feedback"] == plate.feedback_div.text and st["table_view"] == plate.table_div.text


def test_length_slider_stretches_the_query():
    plate = build(preset="four-tokens")
    plate.length_w.value = 4.0
    assert float(np.linalg.norm(plate.state.query)) == pytest.approx(4.0, rel=1e-12)
    assert plate.now_src.data["length"] == []  # this query's weight waits for stage 4
    plate.state.step = 4
    assert plate.now_src.data["length"][0] == pytest.approx(4.0, rel=1e-12)
    short, long_ = build(preset="four-tokens", step=5), plate
    assert max(long_.table_src.data["weight"]) > max(short.table_src.data["weight"])


def test_notebook_use():
    plate = WorkedPlate(preset="four-keys", step=5)
    assert plate.preset == "four-keys" and plate.step == 5
    plate.step = 2
    assert plate.state.step == 2


# --------------------------------------------------------------------------- worked.js writes what Python writes
DRIVER = r"""
"use strict";
const L = require(process.argv[1]);  // the runtime a page loads (AttentionMirror, AELink, AESync, AEPage), then worked.js
let uid = 0;
// Stand-in models. A change that is not quiet (AESync.quiet sets {sync: false}) is one a page would
// send to Python: while `log` is set, it is recorded as [model's name, property, value].
let log = null;
function model(props) {
  const m = Object.assign({ id: "m" + (++uid), quiet: false, name: null }, props);
  const proxy = new Proxy(m, { set(t, k, v) {
    t[k] = v;
    if (log && !t.quiet && t.name) log.push([t.name, k, JSON.parse(JSON.stringify(v === undefined ? null : v))]);
    return true;
  } });
  m.setv = (p, opts) => { m.quiet = !!(opts && opts.sync === false); Object.assign(proxy, p); m.quiet = false; };
  return proxy;
}
function rng() { return model({ start: 0, end: 1 }); }
function plate(c) {
  const a = { presets: c.presets, link: c.spec, sync: model({ tags: [] }) };
  for (const n of ["table", "output", "hull", "point", "pulls", "sweep", "now"]) a[n] = model({ data: {} });
  for (const n of ["query_error", "keys_error", "values_error", "note", "table_view", "output_view", "guess_error",
                   "feedback", "panel_note", "sweep_note"]) a[n] = model({ text: "", visible: !/^(query|keys|values)_error$/.test(n) });
  for (const n of ["keys_plot", "values_plot", "sweep_plot"]) a[n] = model({ x_range: rng(), y_range: rng(), visible: true, tags: [],
                                                                            inner_width: 240, inner_height: 240 });
  // The points where the page draws them (view.py's sources): a drag's hit test reads x and y.
  const at = (rows) => ({ x: rows.map((r) => r[0]), y: rows.map((r) => (r.length > 1 ? r[1] : 0)) });
  a.query = model({ data: { ...at([c.q]), vec: [c.q] } });
  a.keys = model({ data: { ...at(c.K), vec: c.K, name: [] } });
  a.values = model({ data: { ...at(c.V), vec: c.V, name: [] } });
  a.preset = model({ value: c.preset, options: c.preset_options || [] });
  a.scaled = model({ active: c.scaled ? [0] : [] });
  a.stage = model({ active: c.step === 0 ? null : c.step - 1 });
  a.length = model({ value: 1, start: 0.1, end: 8, disabled: false });
  a.guess_key = model({ value: c.guess_key, options: [], disabled: false });
  a.guess_output = model({ value: c.guess_output, value_input: c.guess_output, disabled: false });
  for (const n of ["query_text", "keys_text", "values_text"]) {
    const t = c.texts ? c.texts[n] : "";
    a[n] = model({ value: t, value_input: t });
  }
  a.back = model({ disabled: false }); a.next = model({ disabled: false });
  for (const [n, m] of Object.entries(a)) if (m && typeof m === "object" && m.id) m.name = n;
  return a;
}
function dump(a) {
  const d = {};
  for (const n of ["table", "output", "hull", "point", "pulls", "sweep", "now"]) d[n] = a[n].data;
  for (const n of ["note", "table_view", "output_view", "guess_error", "feedback", "panel_note", "sweep_note"]) d[n] = a[n].text;
  d.guess_error_visible = a.guess_error.visible;
  d.keys_range = [a.keys_plot.x_range.start, a.keys_plot.x_range.end, a.keys_plot.y_range.start, a.keys_plot.y_range.end];
  d.values_range = [a.values_plot.x_range.start, a.values_plot.x_range.end, a.values_plot.y_range.start, a.values_plot.y_range.end];
  d.keys_visible = a.keys_plot.visible; d.values_visible = a.values_plot.visible;
  d.length = [a.length.value, a.length.end, a.length.disabled, a.length.title, a.length.show_value]; d.sweep_end = a.sweep_plot.x_range.end;
  d.guess_disabled = [a.guess_key.disabled, a.guess_output.disabled]; d.buttons = [a.back.disabled, a.next.disabled];
  d.options = a.guess_key.options; d.preset = a.preset.value; d.preset_options = a.preset.options; d.scaled = a.scaled.active; d.stage = a.stage.active;
  d.vec = [a.query.data.vec, a.keys.data.vec, a.values.data.vec];
  d.texts = [a.query_text.value_input, a.keys_text.value_input, a.values_text.value_input];
  d.errors = [a.query_error.text, a.keys_error.text, a.values_error.text];
  d.errors_visible = [a.query_error.visible, a.keys_error.visible, a.values_error.visible];
  d.marked = [a.query_text, a.keys_text, a.values_text].map((w) => Array.from(w.css_classes || []).includes("wk-invalid"));
  return d;
}
let input = "";
process.stdin.on("data", (x) => { input += x; });
process.stdin.on("end", () => {
  const job = JSON.parse(input), out = {};
  out.render = job.render.map((c) => { const a = plate(c); L.recompute(a); return dump(a); });
  out.links = job.links.map((c) => {
    const a = plate(c);
    const notices = AELink.apply_plate(a, new URLSearchParams(c.query), L);
    return { notices, state: dump(a), url: AELink.fields(a.link, L.url_values(a), L.url_format) };
  });
  out.parse = job.parse.map((c) => {
    try {
      return { ok: c.kind === "query" ? L.parse_vector(c.text, "the query") : L.parse_rows(c.text, c.kind) };
    } catch (e) { return { error: e.message }; }
  });
  out.fmt = job.fmt.map((x) => [L.fixed(x, 3), L.short(x), L.exp_text(x), L.entry(x), L.expo(x)]);
  out.read = job.read.map((c) => L.read_inputs(c.texts, c.good, c.edited));
  // Gestures: `calls` run on a fresh plate, in order: ["set", model, props] is the reader's own
  // change (a page sends it), [name, ...arguments] calls the glue's function `name` with `a`.
  // Then, once the runs have ended: every change the page sent to Python, in order, and the page.
  out.gestures = [];
  (function next(i) {
    if (i === job.gestures.length) { process.stdout.write(JSON.stringify(out)); return; }
    const c = job.gestures[i], a = plate(c);
    L.recompute(a);
    log = [];
    for (const [f, ...args] of c.calls) {
      if (f === "set") a[args[0]].setv(args[1]);
      else L[f](a, ...args);
    }
    setTimeout(() => {
      out.gestures.push({ sent: log, busy: a.sync.tags.slice(), state: dump(a) });
      log = null;
      next(i + 1);
    }, AESync.STILL_MS + 50);
  })(0);
});
"""


def run_node(job: dict) -> dict:
    proc = subprocess.run([node_path(), "-e", DRIVER, str(SCRIPT)], input=json.dumps(job),
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


PRESETS_JS = presets_js()
LINK = WorkedState().url_spec()
PRESET_OPTIONS = [[k, p["label"]] for k, p in PRESETS.items()]  # the Example menu as a page first gets it


def page_case(plate: WorkedPlate) -> dict:
    """A node case for the page `plate` shows: its state and what its text boxes hold."""
    s = plate.state
    q, K, V = s.arrays
    return {"preset": s.preset, "q": q.tolist(), "K": K.tolist(), "V": V.tolist(), "scaled": s.scaled, "step": s.step,
            "guess_key": s.guess_key, "guess_output": s.guess_output, "presets": PRESETS_JS, "spec": LINK,
            "preset_options": [list(o) for o in plate.preset_w.options],
            "texts": {f"{f}_text": w.value_input for f, w in (("query", plate.query_w), ("keys", plate.keys_w),
                                                              ("values", plate.values_w))}}


def on_the_page(plate: WorkedPlate, calls: list) -> dict:
    """Run `calls` in worked.js on the page `plate` shows (see DRIVER's gestures), then give Python
    every change that page sent, in order, as a served session would."""
    job = {"render": [], "links": [], "parse": [], "fmt": [], "read": [], "gestures": [{**page_case(plate), "calls": calls}]}
    page = run_node(job)["gestures"][0]
    assert page["busy"] == [], "the page still leads after its runs ended"
    for name, prop, value in page["sent"]:
        setattr(plate.sync if name == "sync" else plate.js_models[name], prop, value)
    return page


def render_cases():
    rng = np.random.default_rng(11)
    cases = []
    for name, p in PRESETS.items():
        for step in range(6):
            for guess in (("", ""), (p["names"][0], "1.2"), (p["names"][-1], "0.5, 0.5")):
                cases.append({"preset": name, "q": p["query"][0], "K": p["keys"], "V": p["values"],
                              "scaled": p["scaled"] if step % 2 else not p["scaled"], "step": step,
                              "guess_key": guess[0], "guess_output": guess[1]})
    for i in range(60):
        d_k, m, d_v = int(rng.integers(1, 5)), int(rng.integers(1, 7)), int(rng.integers(1, 5))
        if i % 4 == 0:
            d_k = d_v = 2
        q = np.round(rng.uniform(-10, 10, d_k), int(rng.integers(0, 4)))
        if i % 17 == 0:
            q = np.zeros(d_k)
        cases.append({"preset": list(PRESETS)[i % 5], "q": q.tolist(),
                      "K": np.round(rng.uniform(-10, 10, (m, d_k)), 2).tolist(),
                      "V": np.round(rng.uniform(-10, 10, (m, d_v)), 2).tolist(), "scaled": bool(i % 2),
                      "step": int(rng.integers(0, 6)), "guess_key": "k1", "guess_output": "1, 2"[: 1 + 3 * (d_v > 1)]})
    for i in range(6):  # vectors of up to MAX_DK = MAX_DV = 16 numbers
        d = (5, 8, 16)[i % 3]
        cases.append({"preset": "three-items", "q": np.round(rng.uniform(-1, 1, d), 2).tolist(),
                      "K": np.round(rng.uniform(-1, 1, (3, d)), 2).tolist(), "V": np.round(rng.uniform(-1, 1, (3, d)), 2).tolist(),
                      "scaled": bool(i % 2), "step": 5, "guess_key": "", "guess_output": ""})
    return cases


LINKS = [
    {}, {"preset": "four-keys"}, {"preset": "four-keys", "step": "5"}, {"step": "9"}, {"step": "2.5"}, {"step": "-1"},
    {"step": "nan"}, {"step": "1e999"}, {"preset": "nosuch"}, {"scaled": "maybe"}, {"scaled": "1"},
    {"preset": "one-token", "query": "30,-40"}, {"preset": "one-token", "query": "1,x"},
    {"preset": "one-token", "keys": "1,0;0,1"}, {"query": "1,2,3,4,5"}, {"keys": ";".join(["1"] * 7)},
    {"values": "1" * 201}, {"bogus": "1", "embed": "1"}, {"preset": "one-token", "values": "1,0;0,1;2,2", "step": "3"},
    {"query": "2", "keys": "1;2", "values": "1;2"}, {"preset": "four-tokens", "query": "-1,2", "scaled": "0"},
    # several notices: in the link's order, the numbers that do not fit together last
    {"step": "9", "preset": "nosuch", "scaled": "maybe", "query": "1,x", "keys": "50;1;2", "values": "1" * 201, "zzz": "1"},
    {"query": "30,-40", "preset": "one-token", "step": "2.5", "keys": "1,0;0,1", "bogus": "1"},
    {"scaled": "1", "preset": "four-keys"}, {"preset": "four-keys", "scaled": "0", "values": "1;2;3;4"},
]


@pytest.fixture(scope="module")
def js():
    rng = np.random.default_rng(5)
    fmt = [0.0, -0.0, 1.0, 0.09, 0.0625, -0.0625, 1.0005, 2.5e-4, 4e-4, 5e-4, 999999.5, 1e6, 3.7e260, 1e-300, -1e-7,
           123.4565, 0.6652409557748218, 69.5914] + rng.uniform(-500, 500, 300).tolist() \
        + (10.0 ** rng.uniform(-12, 12, 300)).tolist()
    texts = ["1, 2", "(1, 0)", "[1 2]", " 1 ,2 ", "1,,2", "1,", "", "  ", "x", "1e5", "1e-5", "nan", "inf", "+.5", "-1.",
             "0x10", "1_0", "٣", "1, 2, 3, 4, 5", "10", "-10", "10.0001", "1e999", "1;2", "1\n2\n\n3", "1, 0\n0",
             "a" * 40, "1 2 3\n4 5 6\n7 8 9", "1;2;3;4;5;6;7", "(1, 2", "[]", "1 - 2"]
    parse = [{"text": t, "kind": k} for t in texts for k in ("query", "keys", "values")]
    good = {"query": [[1.0, 2.0]], "keys": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], "values": [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]}
    read = []
    for f in ("query", "keys", "values"):
        for t in ("1, 2, 3", "1, 0\n0, 1", "1", "x", "1,0;0,1;1,1", "1,2", "10, 0\n0, 10\n5, 5",
                  "\n".join(["1"] * 300), "1;" * (MAX_TEXT // 2), "😀" * (MAX_TEXT // 2), "1, " * (MAX_TEXT // 3 - 1)):
            texts3 = {"query": "1, 2", "keys": "1, 0\n0, 1\n1, 1", "values": "10, 0\n0, 10\n5, 5", f: t}
            read.append({"texts": texts3, "good": good, "edited": f})
    job = {"render": render_cases(), "fmt": fmt, "parse": parse, "read": read,
           "links": [{"query": "&".join(f"{k}={v}" for k, v in link.items()), "link": link, "preset": "three-items",
                      "q": [1.0], "K": [[2.0], [1.0], [0.0]], "V": [[1.0], [2.0], [3.0]], "scaled": False, "step": 0,
                      "guess_key": "", "guess_output": "", "presets": PRESETS_JS} for link in LINKS]}
    job["gestures"] = []  # (see test_the_page_and_python_agree_after_each_gesture)
    for c in job["render"] + job["links"]:
        c["presets"], c["spec"], c["preset_options"] = PRESETS_JS, LINK, PRESET_OPTIONS
    return job, run_node(job)


def python_dump(plate: WorkedPlate, c) -> WorkedPlate:
    """`plate` (built once: building is slow) set to the case's state, as a fresh plate would be."""
    s = plate.state
    if s.preset == c["preset"]:
        s.load_preset()
    else:
        s.preset = c["preset"]
    s.set_inputs(c["q"], c["K"], c["V"])
    s.param.update(scaled=c["scaled"], step=c["step"])
    s.param.update(guess_key=c["guess_key"] if c["guess_key"] in s.names else "", guess_output=c["guess_output"])
    return plate


def assert_data_equal(got: dict, want: dict, what: str) -> None:
    assert set(got) == set(want), (what, sorted(got), sorted(want))
    for k in want:
        a, b = got[k], want[k]
        if b and isinstance(b[0], str):
            assert a == b, (what, k)
        else:
            np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-12, atol=1e-13,
                                       err_msg=f"{what}.{k}")


@pytest.mark.node
def test_js_writes_what_python_writes(js):
    job, out = js
    assert len(job["render"]) >= 150
    plate = build()
    for c, d in zip(job["render"], out["render"]):
        p = python_dump(plate, c)
        where = f"{c['preset']} step {c['step']} q={c['q']}"
        for name, div in (("note", p.note_div), ("table_view", p.table_div), ("output_view", p.output_div),
                          ("guess_error", p.guess_err), ("feedback", p.feedback_div), ("panel_note", p.panel_note),
                          ("sweep_note", p.sweep_note)):
            assert d[name] == div.text, (where, name, d[name], div.text)
        for name, src in (("table", p.table_src), ("output", p.output_src), ("hull", p.hull_src), ("point", p.point_src),
                          ("pulls", p.pulls_src), ("sweep", p.sweep_src), ("now", p.now_src)):
            assert_data_equal(d[name], dict(src.data), f"{where} {name}")
        assert d["keys_visible"] == p.keys_plot.visible and d["values_visible"] == p.values_plot.visible
        if p.keys_plot.visible:
            np.testing.assert_allclose(d["keys_range"], [p.keys_plot.x_range.start, p.keys_plot.x_range.end,
                                                         p.keys_plot.y_range.start, p.keys_plot.y_range.end], rtol=1e-12)
        if p.values_plot.visible:
            np.testing.assert_allclose(d["values_range"], [p.values_plot.x_range.start, p.values_plot.x_range.end,
                                                           p.values_plot.y_range.start, p.values_plot.y_range.end], rtol=1e-12)
        assert d["length"][2] == p.length_w.disabled
        assert d["length"][3:] == [p.length_w.title, p.length_w.show_value]
        assert d["length"][0] == pytest.approx(p.length_w.value, rel=1e-12)
        assert d["length"][1] == pytest.approx(p.length_w.end, rel=1e-12) == pytest.approx(d["sweep_end"], rel=1e-12)
        assert d["guess_disabled"] == [p.guess_key_w.disabled, p.guess_out_w.disabled]
        assert d["buttons"] == [p.back_w.disabled, p.next_w.disabled]
        assert [tuple(o) for o in d["options"]] == [tuple(o) for o in p.guess_key_w.options]
        assert [tuple(o) for o in d["preset_options"]] == [tuple(o) for o in p.preset_w.options], where
    assert any(EDITED in label for d in out["render"] for _, label in d["preset_options"])  # both kinds were met


@pytest.mark.node
def test_js_applies_links_as_python_does(js):
    job, out = js
    for c, r in zip(job["links"], out["links"]):
        s = WorkedState()
        notices = s.apply_url(c["link"])
        assert r["notices"] == notices, (c["link"], r["notices"], notices)
        st = r["state"]
        assert st["preset"] == s.preset and (st["scaled"] == [0]) == s.scaled
        assert (0 if st["stage"] is None else st["stage"] + 1) == s.step
        assert st["vec"] == [[s.query.tolist()], s.keys.tolist(), s.values.tolist()]
        assert [tuple(o) for o in st["preset_options"]] == preset_options(s), c["link"]
        assert st["texts"][1] == rows_text(s.keys) if c["link"].get("keys") and "keys" in s.to_url() else True
        url = s.to_url()
        assert set(r["url"]) == set(url), (c["link"], r["url"], url)
        for k in url:  # the same numbers (JS and Python write 6 significant digits their own ways)
            assert r["url"][k] == url[k] or np.allclose(
                np.array(parse_rows(r["url"][k], "keys", limit=None), dtype=float),
                np.array(parse_rows(url[k], "keys", limit=None), dtype=float)), (k, r["url"][k], url[k])


@pytest.mark.node
def test_js_parses_and_formats_as_python_does(js):
    job, out = js
    for x, got in zip(job["fmt"], out["fmt"]):
        assert got == [fixed(x, 3), short(x), exp_text(x), entry(x), expo(x)], x
    for c, got in zip(job["parse"], out["parse"]):
        try:
            want = {"ok": parse_vector(c["text"], "the query") if c["kind"] == "query" else parse_rows(c["text"], c["kind"])}
        except InputError as exc:
            want = {"error": str(exc)}
        assert got == want, c
    for c, got in zip(job["read"], out["read"]):
        good = {k: np.array(v) for k, v in c["good"].items()}
        arrays, errors = read_inputs(c["texts"], good, c["edited"])
        assert got["errors"] == errors, c
        if arrays is None:
            assert got["arrays"] is None
        else:
            assert {k: np.asarray(v).tolist() for k, v in arrays.items()} == got["arrays"], c


# Seeded random links, several settings each (repeated and unknown names, hostile values): an
# exported page (link.js with worked.js) reads each as Python does, notices in the same order.
LINK_VALUES = ["0", "1", "2", "5", "9", "-1", "2.5", "3.5", "1e1", "1e309", " 4 ", "+3", "", "nan", "inf", "0x10",
               "٣", "true", "no", "ON", "maybe", "one-token", "four-keys", " four-tokens ", "Four-Keys", "<b>x</b>",
               "x" * 201, "1,2", "(1, 0)", "[2 1]", "30,-40", "1,,2", "1;2;3", "1,0;0,1;1,1", "2,0.5;-1,3",
               "10,0;0,10;5,5", "1;2", "1,2,3,4,5", ";".join(["1"] * 7), "1, 0\n0, 1", "\"><img src=x>"]
LINK_NAMES = [*WorkedState.url_fields, "zzz", "embed", "theme", "hide", "present", "plate", "<b>", "Step"]


def random_links(n: int, seed: int) -> list[list[list[str]]]:
    rng = np.random.default_rng(seed)
    return [[[LINK_NAMES[int(rng.integers(len(LINK_NAMES)))], LINK_VALUES[int(rng.integers(len(LINK_VALUES)))]]
             for _ in range(int(rng.integers(1, 7)))] for _ in range(n)]


@pytest.mark.node
def test_js_reads_random_links_as_python_does():
    from urllib.parse import urlencode

    pairs_list = random_links(600, 2)
    base = {"preset": "three-items", "q": [1.0], "K": [[2.0], [1.0], [0.0]], "V": [[1.0], [2.0], [3.0]], "scaled": False,
            "step": 0, "guess_key": "", "guess_output": "", "presets": PRESETS_JS, "spec": LINK}
    job = {"render": [], "parse": [], "fmt": [], "read": [], "gestures": [],
           "links": [{**base, "query": urlencode([tuple(p) for p in pairs])} for pairs in pairs_list]}
    out = run_node(job)["links"]
    noticed = 0
    for pairs, r in zip(pairs_list, out):
        s = WorkedState()
        notices = s.apply_url(link_args(pairs))  # the first of repeated settings counts, with a notice
        noticed += bool(notices)
        assert r["notices"] == notices, (pairs, r["notices"], notices)
        st = r["state"]
        assert (st["preset"], st["scaled"] == [0], 0 if st["stage"] is None else st["stage"] + 1) == \
            (s.preset, s.scaled, s.step), pairs
        assert st["vec"] == [[s.query.tolist()], s.keys.tolist(), s.values.tolist()], pairs
        assert set(r["url"]) == set(s.to_url()), (pairs, r["url"], s.to_url())
    assert noticed > len(pairs_list) // 2
