"""The "Why divide by √d_k" plate (app/plates/scaling/): its state and URL, the view following
the state, Python folding in what the browser sends, the precomputed histogram table, and the
live path (scaling.js, with the runtime a page loads) run in node against the plate's own Python
render: its numbers, its link (link.js with url_parse) and its half of the sync protocol.
"""

from __future__ import annotations

import json
import math
import subprocess

import numpy as np
import panel as pn
import pytest
from bokeh.document import Document
from bokeh.model.util import collect_models

import attention_core as ac
from app.delivery.page import plate_page
from app.plates.scaling.data import (
    CURVE_WIDTHS, FLAT_BAND, FLAT_LABEL_Y, label_side, readout_html, sources, std_text, texts,
)
from app.plates.scaling.formatting import short, trim, weight_text
from app.plates.scaling.formulas import FORMULAS
from app.plates.scaling.state import BINS, WIDTHS, ScalingState, histogram_tables, sample_stds
from app.plates.scaling.view import ScalingPlate
from app.shared.formatting import fix, sci
from app.shared.state import link_args

from node_mirror import library_file, node_path  # tests/core (on the path: tests/conftest.py)

SCRIPT = library_file("scaling.js")  # what a page loads: the runtime (AELink, AESync, AEPage) and scaling.js
SOURCE_NAMES = ["histogram", "density", "histogram_table", "std_table", "flat_scaled", "flat_unscaled",
                "flat_current", "jacobian", "entropy", "entropy_current", "contrast", "contrast_jacobian"]
MODEL_NAMES = SOURCE_NAMES + ["d_k", "scaled", "reset", "readout", "std_label", "jacobian_max", "histogram_plot",
                              "flat_plot", "jacobian_plot", "entropy_plot", "contrast_plot", "flat_span",
                              "entropy_span", "flat_label"]


@pytest.fixture(scope="module")
def plate():
    return ScalingPlate()


# --------------------------------------------------------------------------- state and URL
def test_state_defaults_and_clean_url():
    s = ScalingState()
    assert (s.d_k, s.scaled) == (64, False)
    assert s.to_url() == {}


@pytest.mark.parametrize(("args", "want"), [
    ({"d_k": "256", "scaled": "1"}, {"d_k": "256", "scaled": "1"}),
    ({"d_k": "1"}, {"d_k": "1"}),
    ({"d_k": "1024", "scaled": "0"}, {"d_k": "1024"}),
    ({"d_k": "64", "scaled": "true"}, {"scaled": "1"}),
])
def test_url_round_trip(args, want):
    s = ScalingState()
    assert s.apply_url(args) == []
    assert s.to_url() == want
    t = ScalingState()
    t.apply_url(s.to_url())
    assert (t.d_k, t.scaled) == (s.d_k, s.scaled)


@pytest.mark.parametrize(("text", "d_k"), [
    ("100", 128), ("5000", 1024), ("0", 1), ("-3", 1), ("3", 4), ("1e9", 1024), ("90.5", 64), ("64.0", 64),
])
def test_url_width_snaps_to_the_nearest_power_of_two(text, d_k):
    s = ScalingState()
    notices = s.apply_url({"d_k": text})
    assert s.d_k == d_k
    if float(text) != d_k:
        assert notices == [f"'d_k' set to {d_k}, the nearest allowed value"]
    else:
        assert notices == []


@pytest.mark.parametrize(("args", "fragment"), [
    ({"d_k": "abc"}, "ignored 'd_k=abc': not a number"), ({"d_k": "nan"}, "not a number"),
    ({"d_k": "inf"}, "not a number"), ({"d_k": "1e999"}, "not a finite number"), ({"d_k": "0x10"}, "not a number"),
    ({"d_k": "\uff16\uff14"}, "not a number"), ({"scaled": "maybe"}, "expected 0 or 1"),
    ({"d_k": "9" * 300}, "value too long"), ({"width": "8"}, "ignored unknown setting 'width'"),
])
def test_bad_url_values_change_nothing_and_say_why(args, fragment):
    s = ScalingState(d_k=16, scaled=True)
    notices = s.apply_url(args)
    assert (s.d_k, s.scaled) == (16, True)
    assert len(notices) == 1 and fragment in notices[0], notices


def test_page_applies_url_and_shows_notices():
    page = plate_page("scaling", {"d_k": "100", "scaled": "1"})
    assert (page.plate.d_k, page.plate.scaled) == (128, True)
    assert page.plate.dk_w.value == 7


def test_derived_numbers_are_attention_core():
    s = ScalingState(d_k=256, scaled=False)
    np.testing.assert_array_equal(s.weights(), ac.flat_line([256], [2, 1, 0], scaled=False)[0])
    np.testing.assert_array_equal(s.jacobian(), ac.softmax_jacobian(s.weights()))
    assert s.entropy() == float(ac.entropy(s.weights()))
    np.testing.assert_array_equal(s.scores, [32.0, 16.0, 0.0])
    s.scaled = True
    np.testing.assert_allclose(s.scores, [2.0, 1.0, 0.0], rtol=0, atol=1e-15)


# --------------------------------------------------------------------------- precomputed histograms
def test_histogram_table_is_the_core_for_every_width():
    tables = histogram_tables()
    stds = sample_stds()
    assert sorted(tables) == sorted((d, f) for d in WIDTHS for f in (False, True))
    for d in WIDTHS:
        s = ac.dot_product_samples(d, 10_000, 0)
        for scaled in (False, True):
            edges, counts = tables[(d, scaled)]
            want_e, want_c = ac.score_histogram(s / math.sqrt(d) if scaled else s, BINS)
            assert np.array_equal(edges, want_e) and np.array_equal(counts, want_c)
            assert counts.sum() == 10_000
        assert stds[d] == (float(s.std()), float((s / math.sqrt(d)).std()))
    assert (round(stds[64][0], 2), round(stds[64][1], 2)) == (8.08, 1.01)


# --------------------------------------------------------------------------- the view
def render_root(obj):
    doc = Document()
    root = pn.panel(obj).get_root(doc)
    doc.add_root(root)
    return root


def test_builds_without_a_server_with_every_named_model():
    root = render_root(ScalingPlate())
    for name in MODEL_NAMES:
        found = [m for m in root.references() if getattr(m, "name", None) == name]
        assert len(found) == 1, name
    table = root.select_one({"name": "histogram_table"}).data
    assert len(table["count"]) == len(WIDTHS) * 2 * BINS
    assert len(root.select_one({"name": "flat_scaled"}).data["d"]) == len(CURVE_WIDTHS)


def assert_view_is_core(p: ScalingPlate) -> None:
    s = p.state
    edges, counts = histogram_tables()[(s.d_k, s.scaled)]
    assert p.hist_src.data["count"] == counts.tolist()
    assert p.hist_src.data["left"] == edges[:-1].tolist() and p.hist_src.data["right"] == edges[1:].tolist()
    var = 1.0 if s.scaled else float(s.d_k)
    np.testing.assert_array_equal(p.density_src.data["pdf"], ac.normal_density(np.array(p.density_src.data["x"]), var))
    w = ac.flat_line([s.d_k], [2, 1, 0], scaled=s.scaled)[0]
    assert p.flat_cur_src.data["w"] == w.tolist()
    assert p.flat_cur_src.data["d"] == [float(s.d_k)] * 3
    jac = ac.softmax_jacobian(w)
    assert p.jac_src.data["value"] == jac.ravel().tolist()
    assert p.ent_cur_src.data["h"] == [float(ac.entropy(w))]
    assert p.flat_span.location == s.d_k and p.ent_span.location == s.d_k
    assert p.flat_label.text == "\n".join(f"α{j + 1} = {weight_text(x)}" for j, x in enumerate(w.tolist()))
    assert p.flat_label.x == s.d_k
    assert p.dk_w.value == int(math.log2(s.d_k))
    assert p.scaled_w.active == ([0] if s.scaled else [])
    raw, scaled = sample_stds()[s.d_k]
    assert p.std_label.text == std_text(s.d_k, scaled if s.scaled else raw, s.scaled)
    assert p.readout.text == readout_html(s.d_k, s.scaled, raw, scaled, s.scores, w, float(np.abs(jac).max()),
                                          float(ac.entropy(w)))
    assert p.hist_plot.x_range.start == edges[0] and p.hist_plot.x_range.end == edges[-1]


def test_default_view_shows_the_seed_numbers(plate):
    plate.state.reset()
    assert_view_is_core(plate)
    assert "raw 8.08" in plate.readout.text and "÷√64: 1.01" in plate.readout.text
    assert plate.std_label.text.startswith("std 8.08")
    assert plate.contrast_src.data["label"] == ["0.99966", "0.00034", "0.0000001", "0.665", "0.245", "0.090"]
    assert plate.flat_label.text == "α1 = 0.99966\nα2 = 3.4e-4\nα3 = 1.1e-7"
    flat = plate.flat_s_src.data
    for k in range(0, 101, 10):  # every power of two sits on the curve's grid
        assert flat["d"][k] == 2 ** (k // 10)
        assert [fmt3(flat[c][k]) for c in ("w0", "w1", "w2")] == ["0.665", "0.245", "0.090"]
    assert plate.flat_u_src.data["w0"][-1] > 0.99
    assert plate.jac_max.text == "largest entry 3.4e-4"


def fmt3(x: float) -> str:
    return f"{x:.3f}"


@pytest.mark.parametrize(("d_k", "scaled"), [(1, False), (2, True), (256, False), (1024, True), (1024, False)])
def test_view_follows_the_state(plate, d_k, scaled):
    plate.d_k = d_k
    plate.scaled = scaled
    assert_view_is_core(plate)
    plate.state.reset()
    assert_view_is_core(plate)


# --------------------------------------------------------------------------- browser -> Python
def browser_sends(p: ScalingPlate, **widgets) -> None:
    """What scaling.js sends at the end of a gesture: the plate's sync mark goes "busy", the
    widgets change, "busy" goes (a drag on either chart, a tap, a run of the slider's)."""
    p.sync.tags = ["busy"]
    if "exp" in widgets:
        p.dk_w.value = widgets["exp"]
    if "active" in widgets:
        p.scaled_w.active = widgets["active"]
    p.sync.tags = []


def test_python_folds_in_widget_changes_when_they_settle():
    p = ScalingPlate()
    p.sync.tags = ["busy"]
    p.dk_w.value = 5
    p.dk_w.value = 3
    p.scaled_w.active = [0]
    assert (p.state.d_k, p.state.scaled) == (64, False)  # still changing: the browser leads
    p.sync.tags = []
    assert (p.state.d_k, p.state.scaled) == (8, True)  # folded in once
    assert_view_is_core(p)
    browser_sends(p, exp=9, active=[])  # a drag on the entropy chart (one mark for the whole plate)
    assert (p.state.d_k, p.state.scaled) == (512, False)
    assert_view_is_core(p)


def test_python_answers_even_when_nothing_changed():
    p = ScalingPlate()
    p.rendered_src.data = {"d_k": [0], "scaled": [0]}  # mark it, to see the answer replace it
    browser_sends(p, exp=6)
    assert p.rendered_src.data == {"d_k": [64], "scaled": [0]}


@pytest.mark.parametrize("bad", [4.5, -1, 11, float("nan")])
def test_bad_widget_values_are_put_back(bad):
    p = ScalingPlate(d_k=16)
    browser_sends(p, exp=bad)
    assert p.state.d_k == 16
    assert p.dk_w.value == 4
    assert_view_is_core(p)


def test_the_page_is_data_py():
    """Every named source and Div of the view is what data.py says for the state."""
    p = ScalingPlate()
    for d_k, scaled in [(64, False), (1, True), (1024, False), (8, True)]:
        p.d_k, p.scaled = d_k, scaled
        named = {m.name: m for m in collect_models(*p.bokeh_models()) if getattr(m, "name", None)}
        for name, data in sources(p.state).items():
            assert dict(named[name].data) == data, (d_k, scaled, name)
        words = texts(p.state)
        assert p.readout.text == words["readout"] and all(getattr(p, n).text == words[n] for n in FORMULAS)


def test_notebook_attributes():
    p = ScalingPlate(d_k=32, scaled=True)
    assert (p.d_k, p.scaled) == (32, True)
    assert p.state.to_url() == {"d_k": "32", "scaled": "1"}


# --------------------------------------------------------------------------- the live path in node
NODE_MODELS = r"""
let uid = 0;
function model(props) {  // a stand-in for a Bokeh model: setv records what a page would send (not sync: false)
  const m = Object.assign({ id: "m" + (++uid), sent: [] }, props);
  m.setv = function (p, opts) {
    Object.assign(m, p);
    if (!(opts && opts.sync === false)) m.sent.push(JSON.parse(JSON.stringify(p)));
  };
  m.change = { emit: function () {} };
  m.connect = function () {};
  return m;
}
function make_a(models, link) {  // the page as Python built it: its models by name, a.sync and a.link
  const a = {};
  for (const k of Object.keys(models)) a[k] = model(JSON.parse(JSON.stringify(models[k])));
  a.hist_plot.x_range = model({});
  a.hist_plot.y_range = model({});
  a.sync = model({ tags: [] });
  a.sync.history = [];  // every value its tags took ("busy" marks and commits)
  let tags = [];
  Object.defineProperty(a.sync, "tags", { get() { return tags; }, set(v) { tags = v; a.sync.history.push(Array.from(v)); } });
  a.link = link;
  return a;
}
"""

JS_RUNNER = r"""
const L = require(process.argv[1]);  // the page's script: the runtime (AttentionMirror, AELink, AESync, AEPage) and scaling.js
let input = "";
process.stdin.on("data", (c) => { input += c; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const fmt = job.numbers.map((x) => [L.sci(x), L.short(x), L.weight_text(Math.abs(x) <= 1 ? Math.abs(x) : 0.5), L.trim(x), L.fix(x, 5), L.fix(x, 7)]);
  const sides = job.widths.map((d) => [L.label_side(d, 4), L.label_side(d, 256)]);
""" + NODE_MODELS + r"""
  const runs = job.runs.map((r) => {
    const a = make_a(job.models, job.link);
    a.dk.value = r.exp;
    a.scaled.active = r.scaled ? [0] : [];
    L.recompute(a);
    return {hist: a.hist.data, density: a.density.data, flat_current: a.flat_current.data, jac: a.jac.data,
            ent_current: a.ent_current.data, x_range: [a.hist_plot.x_range.start, a.hist_plot.x_range.end],
            y_end: a.hist_plot.y_range.end, axis_label: a.hist_xaxis.axis_label, std: a.std_label.text,
            jac_max: a.jac_max.text, flat_label: [a.flat_label.text, a.flat_label.x, a.flat_label.text_align, a.flat_label.x_offset],
            spans: [a.flat_span.location, a.ent_span.location], readout: a.readout.text,
            url: AELink.fields(a.link, L.url_values(a), L.url_format)};
  });
  process.stdout.write(JSON.stringify({fmt: fmt, sides: sides, runs: runs}));
});
"""


def run_node(runner: str, job: dict, timeout: float = 120):
    proc = subprocess.run([node_path(), "-e", runner, str(SCRIPT)], input=json.dumps(job), capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.node
def test_live_path_in_node_matches_the_python_render():
    rng = np.random.default_rng(31)
    numbers = np.concatenate([10.0 ** rng.uniform(-20, 3, 400) * rng.choice([-1, 1], 400),
                              rng.uniform(0, 1, 300), 1 - 10.0 ** rng.uniform(-16, -2, 200),
                              [0.0, 1.0, 0.9995, 0.99966, 0.0005, 0.00049, -0.0, 2.0, 16.0, 1.41421356, 1.1249742337806326e-07,
                               0.125, -0.5, 0.0625, 1e-9, -1e-9]])
    p = ScalingPlate()
    runs = [{"exp": e, "scaled": f} for e in range(11) for f in (False, True)]
    job = {"numbers": numbers.tolist(), "widths": WIDTHS, "models": node_models(p), "runs": runs,
           "link": p.state.url_spec()}
    out = run_node(JS_RUNNER, job)
    for x, got in zip(numbers.tolist(), out["fmt"]):
        wt = abs(x) if abs(x) <= 1 else 0.5
        assert got == [sci(x), short(x), weight_text(wt), trim(x), fix(x, 5), fix(x, 7)], x
    for d, got in zip(WIDTHS, out["sides"]):
        assert got == [list(label_side(d, 4)), list(label_side(d, 256))]
    for run, got in zip(runs, out["runs"]):
        p.d_k, p.scaled = 2 ** run["exp"], run["scaled"]
        for key, src in [("hist", p.hist_src), ("flat_current", p.flat_cur_src), ("jac", p.jac_src),
                         ("ent_current", p.ent_cur_src)]:
            for col, want in src.data.items():
                g = got[key][col]
                if want and isinstance(want[0], float):
                    np.testing.assert_allclose(g, want, rtol=0, atol=1e-12, err_msg=f"{run} {key}.{col}")
                else:
                    assert g == list(want), (run, key, col)
        for col in ("x", "pdf", "y"):
            np.testing.assert_allclose(got["density"][col], p.density_src.data[col], rtol=1e-13, atol=1e-300)
        assert got["x_range"] == [p.hist_plot.x_range.start, p.hist_plot.x_range.end]
        assert abs(got["y_end"] - p.hist_plot.y_range.end) < 1e-9
        assert got["axis_label"] == p.hist_xaxis.axis_label
        assert got["std"] == p.std_label.text
        assert got["jac_max"] == p.jac_max.text
        fl = p.flat_label
        assert got["flat_label"] == [fl.text, fl.x, fl.text_align, fl.x_offset], run
        assert got["spans"] == [p.flat_span.location, p.ent_span.location]
        assert got["readout"] == p.readout.text, run
        assert got["url"] == p.state.to_url(), run  # the address the page writes (link.js with url_values)


def node_models(p: ScalingPlate) -> dict:
    """The models scaling.js touches, as plain JSON (node stands in for BokehJS)."""
    def jsonable(v):
        return {k: (list(x) if isinstance(x, (list, tuple)) else x) for k, x in v.items()}
    sources = {"table": p.table_src, "stds": p.std_src, "hist": p.hist_src, "density": p.density_src,
               "flat_current": p.flat_cur_src, "jac": p.jac_src, "ent_current": p.ent_cur_src}
    out = {k: {"data": jsonable(s.data)} for k, s in sources.items()}
    for k in ("hist_plot", "hist_xaxis", "std_label", "flat_label", "flat_span", "ent_span", "jac_max", "readout"):
        out[k] = {}
    out["dk"] = {"value": p.dk_w.value}
    out["scaled"] = {"active": list(p.scaled_w.active)}
    out["flat_plot"] = {"tags": []}
    out["ent_plot"] = {"tags": []}
    out["rendered"] = {"data": {"d_k": [p.state.d_k], "scaled": [int(p.state.scaled)]}}
    return out


LINK_RUNNER = r"""
const L = require(process.argv[1]);  // the page's script: the runtime (AttentionMirror, AELink, AESync, AEPage) and scaling.js
let input = "";
process.stdin.on("data", (c) => { input += c; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
""" + NODE_MODELS + r"""
  const out = job.links.map((pairs) => {
    const a = make_a(job.models, job.link);
    const params = new URLSearchParams(pairs.map((kv) => encodeURIComponent(kv[0]) + "=" + encodeURIComponent(kv[1])).join("&"));
    const notices = AELink.apply_plate(a, params, L);
    return {notices: notices, d_k: Math.pow(2, a.dk.value), scaled: a.scaled.active.length > 0,
            w0: a.flat_current.data.w[0], readout: a.readout.text};
  });
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
});
"""

LINKS = [
    [("d_k", "256"), ("scaled", "1")], [("d_k", "100")], [("d_k", "5000")], [("d_k", "0")], [("d_k", "-3")],
    [("d_k", "abc")], [("d_k", "nan")], [("d_k", "inf")], [("d_k", "1e999")], [("d_k", "0x10")], [("d_k", "1_000")],
    [("d_k", " 64 ")], [("d_k", "\u00a064")], [("d_k", "\uff16\uff14")], [("d_k", "90.5")], [("d_k", "3")],
    [("d_k", ".5")], [("d_k", "1.4142135623730951")], [("scaled", "maybe")], [("scaled", " ON ")],
    [("zzz", "1"), ("embed", "1")], [("d_k", "9" * 300)], [("d_k", "8"), ("d_k", "16")], [("<b>", "x")],
    [("d_k", "2.0e2"), ("scaled", "no")], [], [("d\u00e9j\u00e0", "1")], [("d_k", "a\u200bb\u0007c")],
    [("d_k", "x" * 30)],
]


@pytest.mark.node
def test_exported_page_reads_a_link_as_python_does():
    """link.js with scaling.js's url_parse and url_apply (an exported page) against
    ScalingState.apply_url (a served page)."""
    job = {"links": LINKS, "models": node_models(ScalingPlate()), "link": ScalingState().url_spec()}
    out = run_node(LINK_RUNNER, job, timeout=60)
    p = ScalingPlate()
    for pairs, got in zip(LINKS, out):
        s = ScalingState()
        notices = s.apply_url(link_args(pairs))  # as a served page reads it (app.delivery.page.session_args)
        assert got["notices"] == notices, pairs
        assert (got["d_k"], got["scaled"]) == (s.d_k, s.scaled), pairs
        p.d_k, p.scaled = s.d_k, s.scaled
        assert got["w0"] == p.flat_cur_src.data["w"][0]
        assert got["readout"] == p.readout.text


# --------------------------------------------------------------------------- the glue's half of the sync
SYNC_RUNNER = r"""
const L = require(process.argv[1]);  // the page's script: the runtime (AttentionMirror, AELink, AESync, AEPage) and scaling.js
let input = "";
process.stdin.on("data", (c) => { input += c; });
process.stdin.on("end", async () => {
  const job = JSON.parse(input);
""" + NODE_MODELS + r"""
  const later = (ms) => new Promise((r) => setTimeout(r, ms));
  const still = () => later(AESync.STILL_MS + 100);
  const shot = (a) => ({ tags: Array.from(a.sync.tags), history: a.sync.history.splice(0), dk: a.dk.value,
                         dk_sent: a.dk.sent.splice(0), scaled_sent: a.scaled.sent.splice(0), d: a.flat_current.data.d[0] });
  const a = make_a(job.models, job.link);
  const out = {};
  // A run of the slider's (a held arrow key): the page leads, then sends the widgets once.
  for (const e of [7, 8, 9]) { a.dk.value = e; L.on_widget(a); }
  out.run_during = shot(a);
  await still();
  out.run_end = shot(a);
  L.on_widget(a);  // BokehJS calls back for the values the commit itself sent: no new run
  await still();
  out.echo = shot(a);
  // A tap on the flat-line chart at d = 16: the slider is set quietly, then sent with the mark's end.
  L.on_tap(a, { x: 16 }, a.flat_plot);
  out.tap = shot(a);
  L.on_widget(a);  // the slider's callback for the tap's own change
  await still();
  out.tap_echo = shot(a);
  // A drag on the entropy chart from 64 to 1024: busy all along, one send at its end.
  L.on_pan_start(a, { x: 64 }, a.ent_plot);
  for (const x of [100, 200, 400, 700, 1000]) { L.on_pan(a, { x: x }, a.ent_plot); L.on_widget(a); }
  await still();
  out.drag_during = shot(a);
  L.on_pan_end(a, {}, a.ent_plot);
  out.drag_end = shot(a);
  // The scaling box, then Reset: each a run that ends in one commit.
  a.scaled.active = [0]; L.on_widget(a);
  await still();
  out.box = shot(a);
  L.on_reset(a);
  L.on_widget(a);
  await still();
  out.reset = shot(a);
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
});
"""


@pytest.mark.node
def test_the_glue_leads_and_commits_once():
    """scaling.js's half of the protocol: a run of widget changes, a tap and a drag each mark the
    plate's a.sync "busy" while they last and end in one commit of the two widgets (the mark that
    was the flat-line and entropy charts' own tags before); the page's own echoes start no run."""
    p = ScalingPlate()
    out = run_node(SYNC_RUNNER, {"models": node_models(p), "link": p.state.url_spec()}, timeout=60)
    assert out["run_during"]["tags"] == ["busy"] and out["run_during"]["dk_sent"] == []
    assert out["run_during"]["d"] == 512  # the page shows the last step at once
    assert out["run_end"]["history"] == [[]] and out["run_end"]["tags"] == []
    assert out["run_end"]["dk_sent"] == [{"value": 9}] and out["run_end"]["scaled_sent"] == [{"active": []}]
    assert out["echo"]["history"] == [] and out["echo"]["dk_sent"] == []
    assert out["tap"]["history"] == [["busy"], []] and out["tap"]["dk"] == 4 and out["tap"]["d"] == 16
    assert out["tap"]["dk_sent"] == [{"value": 4}]  # the quiet set is not sent; the commit is
    assert out["tap_echo"]["history"] == [] and out["tap_echo"]["dk_sent"] == []
    assert out["drag_during"]["tags"] == ["busy"] and out["drag_during"]["dk_sent"] == []
    assert out["drag_during"]["history"] == [["busy"]] and out["drag_during"]["d"] == 1024
    assert out["drag_end"]["history"] == [[]] and out["drag_end"]["dk_sent"] == [{"value": 10}]
    assert out["box"]["history"] == [["busy"], []] and out["box"]["scaled_sent"] == [{"active": [0]}]
    assert out["reset"]["history"] == [["busy"], []] and out["reset"]["dk"] == 6 and out["reset"]["d"] == 64
    assert out["reset"]["dk_sent"] == [{"value": 6}] and out["reset"]["scaled_sent"] == [{"active": []}]


def test_the_flat_charts_label_band_is_clear_of_every_curve():
    """The band the weights' label sits in (data.FLAT_BAND) is entered by no curve of the chart,
    raw or divided by √d, anywhere on its width axis (issue 55: "1.1e-7" sat on the lines)."""
    p = ScalingPlate()
    lo, hi = FLAT_BAND
    assert hi - lo > 0.4
    for src in (p.flat_s_src, p.flat_u_src):  # the curves as drawn
        w = np.array([src.data["w0"], src.data["w1"], src.data["w2"]])  # (3, 101)
        assert w[0].min() >= hi - 1e-12 and w[1:].max() <= lo + 1e-12, (w[0].min(), w[1:].max())
    widths = np.geomspace(1, 1024, 2001)  # (2001,) between the drawn points too
    w = ac.flat_line(widths, [2, 1, 0], scaled=False)  # (2001, 3)
    assert w[:, 0].min() >= hi - 1e-12 and w[:, 1:].max() <= lo + 1e-12
    assert p.flat_label.y == FLAT_LABEL_Y == (lo + hi) / 2
