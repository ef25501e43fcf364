"""The multi-head plate ("Heads share the width", /multi-head) without a server: its state and
URL, the plate following the state, every number against attention_core, the seed numbers on
the page, and multi_head.js (run in node) building exactly the sources Python builds.
"""

from __future__ import annotations

import json
import math
import subprocess

import numpy as np
import panel as pn
import pytest
from bokeh.document import Document

import attention_core as ac
from app.delivery.page import plate_page
from app.plates.multi_head.data import recipes, sources, summary_html, texts
from app.plates.multi_head.state import D_CHOICES, H_CHOICES, MultiHeadState, split_problem
from app.plates.multi_head.view import SOURCE_ATTRS, MultiHeadPlate
from app.shared.state import link_args

from node_mirror import GLUE_PRELUDE, library_file, node_path  # tests/core (on the path: tests/conftest.py)

SCRIPT = library_file("multi_head.js")  # what a page loads: the runtime (AELink, AESync, AEPage) and multi_head.js
NAMES = ("head_weights", "concat", "w_o", "mh_output", "params", "divisors", "setting", "d_model", "h", "n",
         "message", "summary", "head_maps", "concat_map", "w_o_map", "output_map")
SOURCES = {  # plate attribute -> the key multi_head.js's compute() returns it under
    "head_src": "head", "head_titles": "head_titles", "head_ticks": "head_ticks", "concat_src": "concat_data",
    "w_o_src": "w_o", "out_src": "out", "concat_marks": "concat_marks", "concat_lines": "concat_lines",
    "w_o_marks": "w_o_marks", "w_o_lines": "w_o_lines", "out_marks": "out_marks", "params_src": "params",
    "div_src": "divisors",
}


def render(obj):
    doc = Document()
    root = pn.panel(obj).get_root(doc)
    doc.add_root(root)
    return root


def core(d_model=8, h=2, n=5):
    """attention_core's numbers for a setting, at the heat maps' width (16 for d_model 512)."""
    w = d_model if d_model <= 16 else 16
    X, Wq, Wk, Wv, Wo = ac.multi_head_recipe(n, w, 0)
    out, weights, concat = ac.multi_head_attention(X, Wq, Wk, Wv, Wo, h)
    return {"output": out, "weights": weights, "concat": concat, "Wo": Wo, "width": w,
            "scores": ac.head_scores(X, Wq, Wk, h)}


def assert_plate_matches_core(plate, tol=1e-12):
    s = plate.state
    c = core(s.d_model, s.h, s.n)
    hw = plate.head_src.data
    w = np.zeros((s.h, s.n, s.n))
    w[hw["head"], hw["i"], hw["j"]] = hw["value"]
    np.testing.assert_allclose(w, c["weights"], rtol=0, atol=tol)
    assert len(hw["value"]) == s.h * s.n * s.n
    np.testing.assert_allclose(np.asarray(hw["score"]), c["scores"][hw["head"], hw["i"], hw["j"]], rtol=0, atol=tol)
    for src, key in ((plate.concat_src, "concat"), (plate.out_src, "output")):
        m = np.zeros((s.n, c["width"]))
        m[src.data["i"], src.data["c"]] = src.data["value"]
        np.testing.assert_allclose(m, c[key], rtol=0, atol=tol)
    wo = np.zeros((c["width"], c["width"]))
    wo[plate.w_o_src.data["r"], plate.w_o_src.data["c"]] = plate.w_o_src.data["value"]
    np.testing.assert_array_equal(wo, c["Wo"])
    p = ac.param_counts(s.d_model, s.h)
    assert plate.params_src.data["total"] == [p["query_total"], p["key_total"], p["value_total"], p["qkv_total"],
                                              p["full_width_head"], p["w_o"], p["total"]]
    assert plate.div_src.data["divisor"] == [ac.head_divisor(s.d_model, s.h)] * s.h
    assert plate.setting_src.data == {"d_model": [s.d_model], "h": [s.h], "n": [s.n], "width": [c["width"]]}


# --------------------------------------------------------------------------- state and URL
class TestState:
    def test_defaults_and_clean_url(self):
        s = MultiHeadState()
        assert (s.d_model, s.h, s.n) == (8, 2, 5)
        assert s.to_url() == {}
        assert s.d_k == 4 and s.width == 8

    @pytest.mark.parametrize("d_model,h,n", [(4, 4, 2), (16, 8, 8), (512, 8, 3), (8, 1, 6)])
    def test_url_round_trip(self, d_model, h, n):
        s = MultiHeadState(d_model=d_model, h=h, n=n)
        url = s.to_url()
        t = MultiHeadState()
        assert t.apply_url(url) == []
        assert (t.d_model, t.h, t.n) == (d_model, h, n)

    def test_clamping_and_bad_values(self):
        s = MultiHeadState()
        notices = s.apply_url({"n": "99"})
        assert s.n == 8 and notices == ["'n' set to 8, the nearest allowed value"]
        notices = s.apply_url({"n": "1"})
        assert s.n == 2 and "'n' set to 2" in notices[0]
        for bad in ("abc", "nan", "inf", "0x10", ""):
            before = (s.d_model, s.h, s.n)
            notices = s.apply_url({"n": bad})
            assert (s.d_model, s.h, s.n) == before and len(notices) == 1 and "ignored 'n=" in notices[0]
        notices = s.apply_url({"d_model": "7", "h": "3"})
        assert notices == ["ignored 'd_model=7': expected one of 4, 8, 16, 512",
                           "ignored 'h=3': expected one of 1, 2, 4, 8"]
        assert s.apply_url({"zzz": "1"}) == ["ignored unknown setting 'zzz'"]

    def test_a_pair_where_h_does_not_divide_is_refused_and_nothing_else_changes(self):
        s = MultiHeadState(d_model=16, h=2, n=4)
        notices = s.apply_url({"d_model": "4", "h": "8", "n": "6"})
        assert (s.d_model, s.h) == (16, 2) and s.n == 6
        assert notices == ["ignored the combination: 8 heads cannot share d_model = 4: each head would be 0.5 "
                           "wide. With d_model = 4 choose 1, 2 or 4 heads"]
        s = MultiHeadState(h=8)
        s.apply_url({"d_model": "4"})
        assert (s.d_model, s.h) == (8, 8)
        with pytest.raises(ValueError, match="8 heads cannot share d_model = 4"):
            MultiHeadState(d_model=4, h=8)

    def test_every_allowed_pair_divides(self):
        for d in D_CHOICES:
            for h in H_CHOICES:
                assert (split_problem(d, h) == "") == (d % h == 0)


# --------------------------------------------------------------------------- the plate
class TestPlate:
    def test_builds_without_a_server_with_named_models(self):
        plate = MultiHeadPlate()
        root = render(plate)
        for name in NAMES:
            found = [m for m in root.references() if getattr(m, "name", None) == name]
            assert len(found) == 1, (name, len(found))
        assert_plate_matches_core(plate)

    def test_plate_follows_the_state(self):
        plate = MultiHeadPlate()
        for d_model, h, n in [(8, 4, 5), (16, 8, 8), (4, 1, 2), (512, 8, 5), (512, 1, 3), (8, 2, 5)]:
            plate.state.param.update(d_model=d_model, h=h, n=n)
            assert_plate_matches_core(plate)
            assert plate.summary_div.text == summary_html(d_model, h, n)
            assert plate.h_w.active == H_CHOICES.index(h) and plate.d_w.value == str(d_model) and plate.n_w.value == n
        plate.h = 4  # the notebook way
        assert plate.state.h == 4 and len(plate.head_src.data["value"]) == 4 * 25

    def test_rows_sum_to_one_and_divisors(self):
        plate = MultiHeadPlate()
        for h, div in ((2, 2.0), (4, math.sqrt(2)), (8, 1.0), (1, math.sqrt(8))):
            plate.h = h
            hw = plate.head_src.data
            sums = np.zeros((h, 5))
            np.add.at(sums, (hw["head"], hw["i"]), hw["value"])
            np.testing.assert_allclose(sums, 1.0, rtol=0, atol=1e-12)
            assert plate.div_src.data["divisor"] == [div] * h
            np.testing.assert_allclose(hw["scaled"], np.asarray(hw["score"]) / div, rtol=0, atol=1e-12)
        plate.h = 4
        assert plate.div_src.data["text"] == ["√2 = 1.414"] * 4
        plate.h = 2
        assert plate.div_src.data["text"] == ["√4 = 2"] * 2

    def test_one_head_on_the_page_is_single_head_attention(self):
        plate = MultiHeadPlate(h=1)
        X, Wq, Wk, Wv, Wo = ac.multi_head_recipe(5, 8, 0)
        single, weights = ac.attention(X @ Wq, X @ Wk, X @ Wv)
        out = np.zeros((5, 8))
        out[plate.out_src.data["i"], plate.out_src.data["c"]] = plate.out_src.data["value"]
        np.testing.assert_allclose(out, single @ Wo, rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.reshape(plate.head_src.data["value"], (5, 5)), weights, rtol=0, atol=1e-12)
        assert plate.div_src.data["divisor"] == [math.sqrt(8)]

    def test_the_paper_setting_on_the_page(self):
        plate = MultiHeadPlate(d_model=512, h=8)
        p = plate.params_src.data
        assert p["paper_per_head"][:3] == [32768] * 3 and p["per_head"][:3] == [32768] * 3
        assert p["paper_total"] == [262144, 262144, 262144, 786432, 786432, 262144, 1048576]
        assert p["total"] == p["paper_total"]
        assert p["paper_total_text"][3] == "786,432 = 3·512²" and p["paper_total_text"][5] == "262,144 = 512²"
        assert p["paper_total_text"][6] == "1,048,576 = 4·512²" and p["paper_per_head_text"][0] == "32,768"
        assert plate.div_src.data["divisor"] == [8.0] * 8 and plate.div_src.data["text"] == ["√64 = 8"] * 8
        assert plate.setting_src.data["width"] == [16]
        assert "The heat maps stay at d_model = 16" in plate.summary_div.text

    def test_widgets_from_the_browser(self):
        plate = MultiHeadPlate()
        render(plate)
        plate.h_w.active = 3  # h = 8: the widget's on_change folds it into the state
        assert plate.state.h == 8
        assert_plate_matches_core(plate)
        plate.d_w.value = "4"  # 8 heads cannot share width 4: refused, widgets put back, message shown
        assert (plate.state.d_model, plate.state.h) == (8, 8)
        assert plate.d_w.value == "8"
        assert "8 heads cannot share d_model = 4" in plate.message_div.text
        assert_plate_matches_core(plate)
        plate.h_w.active = 2  # a valid change clears the message
        assert plate.state.h == 4 and plate.message_div.text == ""
        plate.n_w.value = 7  # the slider syncs its value while it moves; Python acts when it is let go
        assert plate.state.n == 5
        plate.n_w.trigger("value_throttled", 5, 7)
        assert plate.state.n == 7
        assert_plate_matches_core(plate)

    def test_a_run_the_browser_leads_is_folded_in_once_when_it_ends(self):
        """What multi_head.js sends during a held key: the plate's sync source goes "busy", n
        steps, "busy" goes. Python answers nothing until the mark goes, then folds the last step in."""
        plate = MultiHeadPlate()
        render(plate)
        sent = []
        plate.head_src.on_change("data", lambda attr, old, new: sent.append("head"))
        plate.sync.tags = ["busy"]
        for n in (6, 7, 8):
            plate.n_w.value = n
            plate.n_w.trigger("value_throttled", n - 1, n)
        plate.h_w.active = 2
        assert (plate.state.n, plate.state.h) == (5, 2) and sent == []  # still busy: nothing folded
        plate.sync.tags = []
        assert (plate.state.n, plate.state.h) == (8, 4) and sent == ["head"]
        assert_plate_matches_core(plate)

    def test_one_click_is_answered_once(self):
        """One click (no run): Python answers the change, which reaches it before "busy" does; the
        run's end then finds nothing new and sends nothing. A step taken while busy is folded in.

        (The plate used to skip its render at such a run's end; PlateViewer now always answers a
        fold, and push() leaves out what did not change: so nothing reaches the page.)"""
        plate = MultiHeadPlate()
        render(plate)
        sent = []
        for src in (getattr(plate, attr) for attr in SOURCE_ATTRS):
            src.on_change("data", lambda attr, old, new, src=src: sent.append(src.name))
        for model, attr in ((plate.d_w, "value"), (plate.h_w, "active"), (plate.n_w, "value"),
                            (plate.summary_div, "text"), (plate.message_div, "text")):
            model.on_change(attr, lambda a, old, new, model=model: sent.append(model.name))
        plate.h_w.active = 2
        assert plate.state.h == 4 and "head_weights" in sent and "setting" in sent
        sent.clear()
        plate.sync.tags = ["busy"]
        plate.sync.tags = []
        assert sent == []  # the run's end: nothing new, nothing sent
        plate.sync.tags = ["busy"]
        plate.h_w.active = 1  # taken while busy: the page drew mirror.js's numbers for h = 2 ...
        plate.h_w.active = 2  # ... and then for h = 4 again, the state Python last answered
        assert sent == ["h", "h"]  # the page's own two steps, nothing from Python while busy
        sent.clear()
        plate.sync.tags = []
        assert plate.state.h == 4 and sent == []  # Python's copy already shows h = 4
        assert_plate_matches_core(plate)

    def test_the_page_holds_what_data_py_builds(self):
        """Every named source and Div the view pushes is data.py's sources() and texts()."""
        plate = MultiHeadPlate()
        for d_model, h, n in [(8, 2, 5), (16, 8, 8), (512, 4, 3), (4, 1, 2)]:
            plate.state.param.update(d_model=d_model, h=h, n=n)
            want = sources(plate.state)
            for attr, name in SOURCE_ATTRS.items():
                assert dict(getattr(plate, attr).data) == want[name], (d_model, h, n, name)
            words = texts(plate.state)
            assert (plate.summary_div.text, plate.message_div.text, plate.params_table.text, plate.div_table.text) == (
                words["summary"], words["message"], words["params_table"], words["divisors_table"])
        plate.state.param.update(d_model=8, h=8)
        plate.d_w.value = "4"  # refused (8 heads): the message is data.py's too
        assert plate.message_div.text == texts(plate.state)["message"] != ""

    def test_page_pins_the_seed_numbers(self):
        page = plate_page("multi-head")
        root = render(page)
        params = root.select_one({"name": "params"}).data
        assert params["paper_total"][3] == 786432 == 3 * 512 ** 2
        assert params["paper_total"][5] == 262144 and params["paper_per_head"][0] == 32768
        div = root.select_one({"name": "divisors"}).data
        assert div["divisor"] == [2.0, 2.0]  # d_model 8, 2 heads: √4 = 2
        # ... and the tables on the page write them so.
        shown = root.select_one({"name": "params_table"}).text
        assert ("<th scope='row'>W_Q, W_K, W_V, all heads</th><td>3 × 8 × 4</td><td>96</td><td>× 2</td>"
                "<td>192 = 3·8²</td><td>98,304</td><td>786,432 = 3·512²</td></tr>") in shown
        assert "<td>1,048,576 = 4·512²</td>" in shown
        shown = root.select_one({"name": "divisors_table"}).text
        assert shown.count("<td>4</td><td>√4 = 2</td>") == 2 and "head 2" in shown and "head 3" not in shown
        div = plate_page("multi-head", {"h": "4"}).plate.div_src.data
        assert all(abs(d - 1.414) <= 0.001 for d in div["divisor"]) and len(div["divisor"]) == 4
        div = plate_page("multi-head", {"d_model": "512", "h": "8"}).plate.div_src.data
        assert div["divisor"] == [8.0] * 8


# --------------------------------------------------------------------------- multi_head.js in node
GLUE_RUNNER = GLUE_PRELUDE + r"""
process.stdin.on("end", () => {
  const job = JSON.parse(input), out = [], later = [];
  function make_a(start) {
    const a = new Proxy({}, {get(t, k) { if (!(k in t)) t[k] = fake({data: {}}); return t[k]; }});
    a.recipes = job.recipes;
    a.link = job.link;
    a.sync = fake({tags: []});
    a.setting = fake({data: {d_model: [start[0]], h: [start[1]], n: [start[2]], width: [0]}});
    a.message = fake({text: ""});
    return a;
  }
  for (const c of job.cases) {
    if (c.kind === "compute") {
      const r = L.compute(job.recipes, c.d_model, c.h, c.n, c.room || 0, !!c.slide);
      out.push({r: r, summary: L.summary_html(c.d_model, c.h, c.n), problem: L.split_problem(c.d_model, c.h),
                tables: [L.params_table_html(r.params), L.divisors_table_html(r.divisors)]});
    } else if (c.kind === "url") {  // an exported page reading its link: link.js with multi_head.js
      const a = make_a(c.start);
      const notices = AELink.apply_plate(a, new URLSearchParams(c.query), L);
      out.push({notices: notices, setting: a.setting.data, d_model: a.d_model.value, h: a.h.active, n: a.n.value,
                url: AELink.fields(a.link, L.url_values(a), L.url_format)});
    } else {  // "change": the widgets as a click or a key left them (BokehJS sends those itself), then the glue
      const a = make_a(c.start);
      a.d_model.value = String(c.to[0]); a.h.active = [1, 2, 4, 8].indexOf(c.to[1]); a.n.value = c.to[2];
      L.on_change(a);
      const res = {busy: a.sync.tags.slice(), setting: JSON.parse(JSON.stringify(a.setting.data)), message: a.message.text,
                   widgets: [a.d_model.value, a.h.active, a.n.value], sent: a.setting.sent.concat(a.head.sent)};
      later.push(() => {
        res.after = a.sync.tags.slice();
        res.committed = {d_model: a.d_model.sent, h: a.h.sent, n: a.n.sent};
      });
      out.push(res);
    }
  }
  setTimeout(() => {  // a run of changes ends AESync.STILL_MS after the last one
    later.forEach((f) => f());
    process.stdout.write(JSON.stringify(out));
  }, later.length ? AESync.STILL_MS + 100 : 0);
});
"""


def run_glue(cases):
    proc = subprocess.run([node_path(), "-e", GLUE_RUNNER, str(SCRIPT)],
                          input=json.dumps({"recipes": recipes(), "link": MultiHeadState().url_spec(), "cases": cases}),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def assert_same_data(py: dict, js: dict, where: str):
    assert sorted(py) == sorted(js), (where, sorted(py), sorted(js))
    for col, values in py.items():
        got = js[col]
        assert len(got) == len(values), (where, col)
        for a, b in zip(values, got):
            if isinstance(a, str):
                assert a == b, (where, col, a, b)
            else:
                assert abs(float(a) - float(b)) <= 1e-12 * (1 + abs(float(a))), (where, col, a, b)


@pytest.mark.node
def test_the_glue_builds_what_python_builds():
    settings = [(d, h, n) for d in D_CHOICES for h in H_CHOICES for n in (2, 5, 8) if d % h == 0]
    results = run_glue([{"kind": "compute", "d_model": d, "h": h, "n": n} for d, h, n in settings])
    plate = MultiHeadPlate()
    for (d, h, n), res in zip(settings, results):
        plate.state.param.update(d_model=d, h=h, n=n)
        for attr, key in SOURCES.items():
            assert_same_data(dict(getattr(plate, attr).data), res["r"][key], f"{(d, h, n)} {attr}")
        assert res["summary"] == summary_html(d, h, n)
        assert res["tables"] == [plate.params_table.text, plate.div_table.text], (d, h, n)
        assert res["r"]["ranges"] == [plate.head_x.start, plate.head_x.end, plate.head_y.start, plate.head_y.end]
    bad = run_glue([{"kind": "compute", "d_model": 4, "h": 4, "n": 5}])[0]
    assert bad["problem"] == split_problem(4, 4) == ""
    assert run_glue([{"kind": "compute", "d_model": 8, "h": 1, "n": 5}])[0]["problem"] == ""


@pytest.mark.node
def test_on_a_phone_the_glue_and_python_place_the_head_maps_alike_within_the_room():
    """The browser reports its room (AEA11y.room(): 378 px on a 390 px phone); both sides then put
    as many maps of N_MAX tokens to a row as fit it, so Python's answer moves nothing the browser
    drew, and a new n keeps the figure's size."""
    from app.plates.multi_head.layout import CELL_HEAD

    settings = [(8, h, n, room) for h in H_CHOICES for n in (2, 5, 8) for room in (600, 378, 250)]
    results = run_glue([{"kind": "compute", "d_model": d, "h": h, "n": n, "room": room} for d, h, n, room in settings])
    plate = MultiHeadPlate()
    rows_seen, frames = set(), {}
    for (d, h, n, room), res in zip(settings, results):
        plate.state.param.update(d_model=d, h=h, n=n)
        plate._on_screen("data", None, {"room": [room]})
        assert plate.room == room
        for attr in ("head_src", "head_titles", "head_ticks"):
            assert_same_data(dict(getattr(plate, attr).data), res["r"][SOURCES[attr]], f"{(h, n, room)} {attr}")
        assert res["r"]["ranges"] == [plate.head_x.start, plate.head_x.end, plate.head_y.start, plate.head_y.end]
        width = round((plate.head_x.end - plate.head_x.start) * CELL_HEAD) + 12  # frame and borders
        per_row = len({x for x, k in zip(plate.head_titles.data["x"], range(h))})
        assert width <= room or per_row == 1, (h, n, room, width)
        rows_seen.add((h, per_row))
        frames.setdefault((h, room), set()).add((plate.head_fig.frame_width, plate.head_fig.frame_height))
    assert (8, 2) in rows_seen and (8, 1) in rows_seen  # the room changes the layout
    assert all(len(f) == 1 for f in frames.values()), frames  # ... and n does not change the figure's size
    for bad in (["wide"], [-5], [float("inf")], [10**9], []):
        plate._on_screen("data", None, {"room": bad})
        assert plate.room == 0, bad
    assert plate.head_x.end == head_ranges_wide(plate)


@pytest.mark.node  # the glue runs in node
def test_on_a_slide_the_glue_and_python_draw_two_heads_in_one_frame_whatever_h():
    """A present page or an embedded frame (?present=1, ?embed=1: the link sets state.slide) shows
    scenes: there the head maps are the first two heads' (eight maps' numbers at a slide's type
    would fit no frame), titled "of h" when some are left out, in the room of two maps of n tokens
    whatever h is (a slide's figures are sized once, when the scenes start, and h is what a scene
    changes); concat's and the output's rows take n tokens' room. The glue places them alike."""
    from app.plates.multi_head.layout import CELL_HEAD

    settings = [(d, h, n) for d in (8, 16) for h in H_CHOICES for n in (2, 5, 8)]
    results = run_glue([{"kind": "compute", "d_model": d, "h": h, "n": n, "slide": True} for d, h, n in settings])
    plate = MultiHeadPlate()
    plate.state.apply_url({"present": "1"})
    assert plate.state.slide and MultiHeadState().slide is False
    sizes = {}
    for (d, h, n), res in zip(settings, results):
        plate.state.param.update(d_model=d, h=h, n=n)
        for attr, key in SOURCES.items():
            assert_same_data(dict(getattr(plate, attr).data), res["r"][key], f"{(d, h, n)} {attr}")
        assert res["r"]["ranges"] == [plate.head_x.start, plate.head_x.end, plate.head_y.start, plate.head_y.end]
        assert res["r"]["rows_y"] == [plate.rows_y.start, plate.rows_y.end] == [-(n - 0.5), 2.5]
        titles = plate.head_titles.data["text"]
        assert len(titles) == min(h, 2) and set(plate.head_src.data["head"]) == set(range(min(h, 2)))
        assert all(t.startswith(f"head {k + 1}{f' of {h}' if h > 2 else ''} · ÷ √") for k, t in enumerate(titles)), titles
        c = core(d, h, n)  # the heads drawn are attention_core's
        hw = plate.head_src.data
        np.testing.assert_allclose(hw["value"], c["weights"][hw["head"], hw["i"], hw["j"]], rtol=0, atol=1e-12)
        sizes.setdefault((d, n), set()).add((plate.head_fig.frame_width, plate.head_fig.frame_height,
                                             plate.concat_fig.frame_height))
        assert plate.concat_fig.frame_height == (n + 3) * 32
        assert round((plate.head_x.end - plate.head_x.start) * CELL_HEAD) == plate.head_fig.frame_width
    assert all(len(v) == 1 for v in sizes.values()), sizes  # h resizes nothing on a slide
    for args in ({"embed": "1"}, {"present": "1", "embed": "0"}):
        s = MultiHeadState()
        assert s.apply_url(args) == []  # a page setting: no notice
        assert s.slide
    for args in ({}, {"present": "0"}, {"present": "yes"}, {"embed": ""}):
        s = MultiHeadState(slide=True)
        s.apply_url(args)
        assert not s.slide, args


def head_ranges_wide(plate):
    from app.plates.multi_head.layout import head_ranges

    return head_ranges(plate.state.h)[1]


URLS = ["", "h=4", "d_model=16&h=8&n=8", "d_model=4&h=8", "d_model=4", "n=99", "n=1.5", "n=2.5", "n=abc", "n=inf",
        "d_model=7", "h=3&n=3", "zzz=1&embed=1", "d_model=512&h=8", "n=" + "9" * 300, "h=%204", "n=3&n=6&h=4&h=8"]


@pytest.mark.node
def test_apply_url_in_the_exported_page_follows_the_python_rules():
    from urllib.parse import parse_qsl

    starts = [(8, 2, 5), (16, 8, 4), (4, 4, 3)]
    cases = [{"kind": "url", "query": q, "start": st} for st in starts for q in URLS]
    results = run_glue(cases)
    for c, res in zip(cases, results):
        d, h, n = c["start"]
        s = MultiHeadState(d_model=d, h=h, n=n)
        # as app.delivery.page.session_args gives the link
        notices = s.apply_url(link_args(parse_qsl(c["query"], keep_blank_values=True)))
        assert res["notices"] == notices, (c, res["notices"], notices)
        assert res["setting"]["d_model"] == [s.d_model] and res["setting"]["h"] == [s.h] and res["setting"]["n"] == [s.n], (
            c, res["setting"], (s.d_model, s.h, s.n))
        assert (res["d_model"], res["h"], res["n"]) == (str(s.d_model), H_CHOICES.index(s.h), s.n)
        assert res["url"] == s.to_url(), (c, res["url"])  # and the address the page then writes is Python's


@pytest.mark.node
def test_the_glue_leads_a_run_and_commits_the_widgets_at_its_end():
    """multi_head.js's half of the sync protocol (it used to put its busy mark on the settings'
    source): a valid change marks a.sync "busy" and recomputes in the page only; once the widgets
    have been still for AESync.STILL_MS it sends the three widgets and takes the mark off. A
    refused pair marks nothing, puts the widgets back and says why; a change to the settings the
    page already shows (a commit's own echo, or Python's answer) does nothing."""
    from app.plates.multi_head.data import message_html

    cases = [{"kind": "change", "start": [8, 2, 5], "to": [8, 4, 5]},
             {"kind": "change", "start": [8, 8, 5], "to": [4, 8, 5]},
             {"kind": "change", "start": [8, 2, 5], "to": [8, 2, 5]}]
    ok, refused, echo = run_glue(cases)
    assert ok["busy"] == ["busy"] and ok["after"] == []
    assert ok["setting"] == {"d_model": [8], "h": [4], "n": [5], "width": [8]} and ok["message"] == ""
    assert ok["sent"] == []  # the page's own numbers stay in the page
    assert ok["committed"] == {"d_model": ["value"], "h": ["active"], "n": ["value"]}
    assert refused["busy"] == [] and refused["after"] == [] and refused["widgets"] == ["8", 3, 5]
    assert refused["message"] == message_html(split_problem(4, 8))
    assert refused["setting"]["d_model"] == [8] and refused["committed"] == {"d_model": [], "h": [], "n": []}
    assert echo["busy"] == [] and echo["after"] == [] and echo["committed"] == {"d_model": [], "h": [], "n": []}
