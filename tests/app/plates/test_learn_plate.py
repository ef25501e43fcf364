"""The learn plate ("A head that learns", /learn) without a server: every source against
attention_core's train and head_readout at a few steps, the replay's cache against a fresh
run, the sync (Python replays what the page says, and refuses what it cannot read), and
learn.js run in node: the start it builds from the seeds' draws, the sources and texts it
draws at a step, and what it sends."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import panel as pn
import pytest
from bokeh.document import Document

import attention_core as ac
from app.delivery.page import plate_page
from app.plates.learn import data
from app.plates.learn.data import init_normals, replay, sources, texts
from app.plates.learn.state import MAX_STEP, OPTIMIZERS, TIES, LearnState, preset_values
from app.plates.learn.view import LIVE, LearnPlate

from node_mirror import GLUE_PRELUDE, library_file, node_path  # tests/core (on the path: tests/conftest.py)

SCRIPT = library_file("learn.js")  # what a page loads: the runtime and learn.js
REQUIRED = {"train_loss": ("step", "loss"), "learned_weights": ("i", "j", "weight"),
            "target_weights": ("i", "j", "weight"), "grad_norm": ("step", "value")}
CASES = [  # (settings, step): every tie, both optimisers, both scalings, the widest and narrowest heads
    ({}, 0), ({}, 37), ({}, 300), (preset_values("one-map"), 250), (preset_values("saturated"), 120),
    (preset_values("dk64-raw"), 20), (preset_values("dk64-scaled"), 90),
    ({"tie": "identity", "d_k": 64, "scaled": False}, 15), ({"optimizer": "gd", "lr": 1.0, "seed": 9, "d_k": 1}, 400),
    ({"tie": "shared", "init_scale": 0.01, "seed": 15, "d_k": 16, "lr": 0.3}, 160),
    ({"lr": 5.0}, 60), ({**preset_values("saturated"), "optimizer": "adam"}, 130),  # stalled: no story tells why
]


def render(obj):
    doc = Document()
    root = pn.panel(obj).get_root(doc)
    doc.add_root(root)
    return root


def state_of(settings: dict, step: int) -> LearnState:
    values = {k: v for k, v in settings.items() if k != "step"}
    return LearnState(**values, step=step)


def assert_sources_are_the_cores(plate_sources: dict, s: LearnState):
    """The named sources against attention_core: train(settings, step) for the history (to the
    bit: the same arithmetic), head_readout for the weights and the maps."""
    settings = s.settings()
    state, hist = ac.train(settings, s.step)
    r = ac.head_readout(settings, state)
    tl, gn = plate_sources["train_loss"], plate_sources["grad_norm"]
    assert tl["step"] == gn["step"] == list(range(s.step + 1))
    assert tl["loss"] == hist.loss.tolist() and gn["value"] == hist.grad_norm.tolist()
    lw = plate_sources["learned_weights"]
    w = np.zeros((6, 6))
    w[lw["i"], lw["j"]] = lw["weight"]
    np.testing.assert_array_equal(w, r.weights)
    tw = plate_sources["target_weights"]
    t = np.zeros((6, 6))
    t[tw["i"], tw["j"]] = tw["weight"]
    np.testing.assert_array_equal(t, ac.target_weights(6))
    qk = plate_sources["qk"]
    np.testing.assert_array_equal(np.array(qk["value"]).reshape(8, 8), r.qk)
    maps = {"none": ("W_Q", "W_K"), "shared": ("W_QK", "W_QK"), "identity": (None, None)}[s.tie]
    for src, name in zip(("w_q", "w_k"), maps):
        want = np.eye(8) if name is None else state.params[name]
        np.testing.assert_array_equal(np.array(plate_sources[src]["value"]).reshape(want.shape), want)
    ro = plate_sources["readout"]
    assert ro == {"step": [s.step], "loss": [r.loss], "grad_norm": [r.grad_norm], "asymmetry": [r.asymmetry],
                  "min_target_mass": [float(np.min(r.target_mass))]}


# --------------------------------------------------------------------------- Python's numbers
def test_builds_with_the_named_sources_outside_checks_read():
    plate = LearnPlate()
    root = render(plate)
    for name, columns in REQUIRED.items():
        model = root.document.select_one({"name": name})
        assert model is not None and set(columns) <= set(model.data), name
    assert len(plate.srcs["train_loss"].data["step"]) == 1  # step 0: the start's loss


@pytest.mark.parametrize("settings, step", CASES)
def test_every_source_is_attention_cores_at_a_step(settings, step):
    s = state_of(settings, step)
    assert_sources_are_the_cores(sources(s), s)


def test_the_plate_follows_its_state_and_pushes_data_pys_numbers():
    plate = LearnPlate()
    render(plate)
    for settings, step in CASES[:6]:
        plate.state.param.update(**{k: v for k, v in settings.items() if k != "step"}, step=step)
        have = {name: dict(src.data) for name, src in plate.srcs.items()}
        assert_sources_are_the_cores(have, plate.state)
        want = sources(plate.state)
        for name in LIVE:
            assert have[name] == want[name], name
        words = texts(plate.state)
        assert (plate.readout_div.text, plate.story_div.text, plate.message_div.text) == (
            words["readout_div"], words["story"], words["message"])
    assert plate.wq_x.end == 64 - 0.5  # dk64-raw: the maps are 64 wide


def test_a_stalled_run_says_why():
    """Issue 54, 5: /learn?lr=1e6 (clamped to 5) froze at loss 1.000 and gradient norm 1.8e-47
    while the page said "Press Train, or pick a story above". A run that attention_core calls
    stalled says why, in a student's words; a run that learned, or one a story tells, does not."""
    page = plate_page("learn", {"lr": "1e6", "step": "300"})
    assert page.plate.state.lr == 5.0
    story = page.plate.story_div.text
    assert "Training has stalled" in story and "saturated" in story and "vanished" in story, story
    assert "gradient norm 1.8e-47" in page.plate.readout_div.text and "the gradient norm above" in story
    assert "Press <b>Train</b>" not in story
    assert "lower it, and the run replays" in story  # what to do about it
    for settings, step in (({}, 300), ({"lr": 1.0}, 300), ({"tie": "identity"}, 10)):
        assert "stalled" not in texts(state_of(settings, step))["story"], settings
    told = texts(state_of(preset_values("saturated"), 100))["story"]  # its story says it already
    assert told.startswith("<div class='ae-story'><b>Start saturated") and "stalled" not in told


def test_the_gradient_chart_says_what_its_axes_show():
    """Issue 54, 5: the x axis read "step · 0 at 1e-12"."""
    plate = LearnPlate()
    assert plate.grad_plot.xaxis[0].axis_label == "step" == plate.loss_plot.xaxis[0].axis_label
    assert "gradient" in plate.grad_plot.yaxis[0].axis_label.lower() or "∂L" in plate.grad_plot.yaxis[0].axis_label
    assert "10⁻¹²" in plate.explanation  # where a gradient of exactly 0 is drawn, said in words


def test_the_replay_cache_gives_a_fresh_runs_numbers():
    """A page that pauses at 300 and then at 600 costs 300 new steps; going back uses a checkpoint.
    Either way the numbers are those of one train(settings, n) from the seed, to the bit."""
    data._runs.clear()
    s = LearnState(optimizer="gd", lr=0.7, seed=3)
    for n in (300, 600, 250, 0, 601):
        state, loss, grad, note = replay(s.settings(), n)
        fresh, hist = ac.train(s.settings(), n)
        assert state.step == n and note == ""
        assert loss.tolist() == hist.loss.tolist() and grad.tolist() == hist.grad_norm.tolist()
        for name in fresh.params:
            np.testing.assert_array_equal(state.params[name], fresh.params[name])
            np.testing.assert_array_equal(state.v[name], fresh.v[name])
    assert max(data._runs[s.settings()].checkpoints) == 601
    for k in range(data.CACHED_RUNS + 3):  # the cache keeps the runs used last
        replay(LearnState(seed=k % 16, lr=0.01 * (k + 1)).settings(), 2)
    assert len(data._runs) == data.CACHED_RUNS and s.settings() not in data._runs


def test_the_seeds_draws_are_init_states_weights():
    normals = init_normals()
    for seed, d_k, tie, scale in ((0, 8, "none", 1.0), (7, 64, "none", 30.0), (15, 1, "shared", 0.01)):
        settings = ac.TrainSettings(seed=seed, d_k=d_k, tie=tie, init_scale=scale)
        start = ac.init_state(settings)
        z = normals[f"s{seed}"]
        std = scale / np.sqrt(8)
        for k, name in enumerate(("W_Q", "W_K") if tie == "none" else ("W_QK",)):
            np.testing.assert_array_equal(start.params[name], std * z[k * 8 * d_k:(k + 1) * 8 * d_k].reshape(8, d_k))


# --------------------------------------------------------------------------- the sync
def page_sends(plate, step: int) -> None:
    """What learn.js sends at the end of a gesture that moved the step: the step, under a "busy" mark."""
    plate.sync.tags = ["busy"]
    plate.srcs["run"].data = {"step": [step]}
    plate.sync.tags = []


def test_python_replays_what_the_page_says_once_the_page_stops():
    plate = LearnPlate()
    render(plate)
    sent = []
    plate.srcs["train_loss"].on_change("data", lambda attr, old, new: sent.append(len(new["step"])))
    plate.sync.tags = ["busy"]  # training: the page leads, Python waits
    plate.srcs["run"].data = {"step": [120]}
    plate.lr_w.value = 0.1
    plate.optimizer_w.active = 1
    assert plate.state.step == 0 and sent == []
    plate.sync.tags = []  # Pause: the commit
    assert (plate.state.step, plate.state.lr, plate.state.optimizer) == (120, 0.1, "gd")
    assert sent == [121]
    assert_sources_are_the_cores({n: dict(s.data) for n, s in plate.srcs.items()}, plate.state)
    assert plate.srcs["rendered"].data["step"] == [120]
    plate.sync.tags = ["busy"]
    plate.sync.tags = []  # a commit with nothing new is answered anyway: the page shows its own numbers
    assert sent == [121, 121] and plate.state.step == 120


@pytest.mark.parametrize("change, words", [
    (("lr", None), "Learning rate: type a number from 0.0001 to 5; the plate keeps what it shows."),
    (("init_scale", None), "Initial scale: type a number from 0.01 to 50; the plate keeps what it shows."),
    (("seed", None), "Seed: type a whole number from 0 to 15; the plate keeps what it shows."),
    (("step", -1), "Step: -1 is not a whole number from 0 to 2000; the plate keeps what it shows."),
    (("step", 1e9), "Step: 1000000000.0 is not a whole number from 0 to 2000"),
    (("step", "abc"), "Step: type a whole number from 0 to 2000"),
    (("step", 2.5), "Step: 2.5 is not a whole number"),
    (("d_k", "3"), "Head width d_k: choose one of 1, 2, 4, 8, 16, 32, 64."),
    (("tie", 3), "choose one of the buttons"),
    (("optimizer", -1), "choose one of the buttons"),
])
def test_what_the_page_cannot_send_is_refused_with_a_message_and_nothing_else_changes(change, words, refusing):
    plate, start = refusing
    before = plate.state.to_url()
    # A refusal changes nothing, so every case meets the plate as the first one did (each case
    # ends by committing its way back): a refusal that left anything behind fails the next case.
    assert before == start and plate.message_div.text == ""
    loss = list(plate.srcs["train_loss"].data["loss"])
    name, value = change
    plate.sync.tags = ["busy"]
    if name == "step":
        plate.srcs["run"].data = {"step": [value]}
    elif name in ("tie", "optimizer"):
        (plate.tie_w if name == "tie" else plate.optimizer_w).active = value
    else:
        {"lr": plate.lr_w, "init_scale": plate.init_w, "seed": plate.seed_w, "d_k": plate.dk_w}[name].value = value
    plate.sync.tags = []
    assert plate.state.to_url() == before
    assert words in plate.message_div.text and "role='alert'" in plate.message_div.text
    assert list(plate.srcs["train_loss"].data["loss"]) == loss
    # the page is put back: the widgets and the step say the state again
    assert (plate.lr_w.value, plate.init_w.value, plate.seed_w.value, plate.dk_w.value) == (0.2, 1.0, 0, "8")
    assert (plate.tie_w.active, plate.optimizer_w.active, plate.srcs["run"].data["step"]) == (0, 0, [40])
    page_sends(plate, step=41)  # the next good commit clears the message
    assert plate.state.step == 41 and plate.message_div.text == ""
    page_sends(plate, step=40)
    assert plate.state.to_url() == start and list(plate.srcs["train_loss"].data["loss"]) == loss


@pytest.fixture(scope="module")
def refusing():
    """(one rendered plate at step 40, its link) for every refusal case: a plate and its page
    cost a third of a second to build, more than the case itself."""
    plate = LearnPlate(step=40, lr=0.2)
    render(plate)
    return plate, plate.state.to_url()


def test_identity_disables_the_width_and_the_maps_are_the_identity():
    plate = LearnPlate()
    render(plate)
    plate.tie_w.active = TIES.index("identity")
    assert plate.state.tie == "identity" and plate.dk_w.disabled
    assert plate.srcs["w_q"].data["value"] == np.eye(8).ravel().tolist()
    assert "Q = K = X: no weights to learn" in plate.readout_div.text
    plate.tie_w.active = 0
    assert not plate.dk_w.disabled


# --------------------------------------------------------------------------- learn.js in node
GLUE_RUNNER = GLUE_PRELUDE + r"""
process.stdin.on("end", () => {
  const job = JSON.parse(input), out = [], later = [];
  function make_a(c) {
    const a = new Proxy({}, {get(t, k) { if (!(k in t)) t[k] = fake({data: {}}); return t[k]; }});
    a.limits = job.limits; a.link = job.link; a.normals = {data: job.normals};
    a.sync = fake({tags: []}); a.rendered = fake({data: {}}); a.message = fake({text: ""});
    const v = Object.assign({}, job.defaults, c.settings);
    a.lr = fake({value: v.lr}); a.init_scale = fake({value: v.init_scale}); a.seed = fake({value: v.seed});
    a.d_k = fake({value: String(v.d_k), disabled: false}); a.scaled = fake({active: v.scaled ? [0] : []});
    a.tie = fake({active: ["none", "shared", "identity"].indexOf(v.tie)});
    a.optimizer = fake({active: ["adam", "gd"].indexOf(v.optimizer)});
    a.run = fake({data: {step: [c.step]}}); a.speed = fake({active: 1});
    a.wq_x = fake({end: 7.5}); a.wk_x = fake({end: 7.5}); a.readout_div = fake({text: ""}); a.story = fake({text: ""});
    return a;
  }
  const sources = ["loss", "grad", "weights", "w_q", "w_k", "qk", "readout", "train_state"];
  for (const c of job.cases) {
    const a = make_a(c);
    if (c.kind === "frame") {
      const run = L.ensure(a);
      const fd = L.frame_data(a, run);
      out.push({sources: fd.sources, readout_div: fd.readout_div, story: fd.story, maps_limit: fd.maps_limit,
                qk_limit: fd.qk_limit, loss_range: fd.loss_range, grad_range: fd.grad_range, steps_end: fd.steps_end,
                url: AELink.fields(a.link, L.url_values(a), {})});
    } else if (c.kind === "start") {
      out.push(L.start_state(a, Object.assign(L.settings(a))));
    } else {  // a gesture: "one_step", "reset", or a widget changed to c.to
      L.ensure(a);
      if (c.kind === "widget") { Object.keys(c.to).forEach((k) => { a[k].value = c.to[k]; a[k].sent = []; }); }
      if (c.kind === "one_step") L.on_one_step(a);
      else if (c.kind === "reset") L.on_reset(a);
      else L.on_widget(a);
      const res = {busy: a.sync.tags.slice(), step: a.run.data.step.slice(), message: a.message.text,
                   lr: a.lr.value, seed: a.seed.value, readout: a.readout.data,
                   drawn: sources.filter((k) => a[k].sent.length === 0 && a[k].data && Object.keys(a[k].data).length > 0)};
      const committed = () => ({lr: a.lr.sent.slice(), run: a.run.sent.slice(), seed: a.seed.sent.slice(),
                                tie: a.tie.sent.slice(), d_k: a.d_k.sent.slice()});
      res.at_once = committed();
      later.push(() => { res.after = a.sync.tags.slice(); res.committed = committed(); });
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
    plate = LearnPlate()
    job = {"cases": cases, "limits": plate.js_models["limits"], "link": plate.state.url_spec(),
           "normals": {k: v.tolist() for k, v in init_normals().items()},
           "defaults": {k: LearnState.param[k].default for k in LearnState.SETTINGS}}
    proc = subprocess.run([node_path(), "-e", GLUE_RUNNER, str(SCRIPT)], input=json.dumps(job),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


JS_NAMES = {"loss": "train_loss", "grad": "grad_norm", "weights": "learned_weights", "w_q": "w_q", "w_k": "w_k",
            "qk": "qk", "readout": "readout", "train_state": "train_state"}


def close(a, b, rtol=1e-9) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return abs(float(a) - float(b)) <= rtol * max(1.0, abs(float(a)), abs(float(b)))


@pytest.mark.node
def test_the_glue_draws_what_python_draws_at_a_step():
    """learn.js trains from the seed's draws to the step and draws every source and text as data.py
    does: numbers to 1e-9 relative (measured: ~1e-15, 1e-11 at step 20 of the saturated dk64-raw run),
    texts to the character."""
    got = run_glue([{"kind": "frame", "settings": {k: v for k, v in st.items() if k != "step"}, "step": n}
                    for st, n in CASES])
    worst = 0.0
    for (settings, n), res in zip(CASES, got):
        case_worst = 0.0
        s = state_of(settings, n)
        want, words = sources(s), texts(s)
        for js_name, name in JS_NAMES.items():
            have = res["sources"][js_name]
            assert sorted(have) == sorted(want[name]), (settings, n, name)
            for col, values in want[name].items():
                assert len(have[col]) == len(values), (settings, n, name, col)
                for x, y in zip(values, have[col]):
                    assert close(x, y), (settings, n, name, col, x, y)
                    if not isinstance(x, str):
                        case_worst = max(case_worst, abs(float(x) - float(y)) / max(1.0, abs(float(x))))
        worst = max(worst, case_worst)
        assert res["readout_div"] == words["readout_div"] and res["story"] == words["story"]
        assert res["url"] == s.to_url()
        lim = data.limits(data.numbers(s))
        assert close(res["maps_limit"], lim["maps"]) and close(res["qk_limit"], lim["qk"])
        assert res["loss_range"] == list(lim["loss"]) and res["grad_range"] == list(lim["grad"])
        assert res["steps_end"] == lim["steps"] >= n
    assert any("Training has stalled" in res["story"] for res in got)  # the stalled runs' words were compared
    print(f"learn.js against attention_core, worst relative difference {worst:.2g}")


def first_parting(py, js, tol=1e-9):
    """The first step where two histories differ by more than tol (relative, floor 1), or None."""
    py, js = np.asarray(py, float), np.asarray(js, float)
    far = np.abs(py - js) > tol * np.maximum(1.0, np.maximum(np.abs(py), np.abs(js)))
    return int(np.argmax(far)) if far.any() else None


CHAOTIC = [  # (settings, steps): runs whose map from one step to the next magnifies any difference
    (preset_values("dk64-raw"), 300),  # a saturated start under Adam
    ({"optimizer": "gd", "lr": 2.5, "seed": 9, "d_k": 1}, 600),  # gradient descent with a large rate
]


@pytest.mark.node
def test_a_chaotic_run_in_the_page_parts_from_numpys_after_a_while():
    """Why a served page takes Python's run as its own when Python answers (learn.js's adopt).

    The page and NumPy add the same products in different orders (BLAS's kernels against plain
    loops, agreeing to the last bit about half the time) and NumPy's exp and the browser's differ in
    the last bit now and then: every step starts ~1e-16 apart. A steady run keeps that
    (test above: ~1e-15 after hundreds of steps), but a run whose steps magnify differences (a
    saturated softmax under Adam, gradient descent at a large rate) doubles it every few steps,
    like any two correct implementations would, and after tens or hundreds of steps the two
    histories part by more than 1e-9. Both still tell the same story; only the details differ.
    Here: each chaotic run agrees to 1e-9 for its first 20 steps, parts later, and ends the same
    way in NumPy and in the page."""
    got = run_glue([{"kind": "frame", "settings": {k: v for k, v in st.items() if k != "step"}, "step": n}
                    for st, n in CHAOTIC])
    for (settings, n), res in zip(CHAOTIC, got):
        s = state_of(settings, n)
        want = sources(s)
        py, js = want["train_loss"]["loss"], res["sources"]["loss"]["loss"]
        parted = first_parting(py, js)
        grad_parted = first_parting(want["grad_norm"]["value"], res["sources"]["grad"]["value"])
        print(f"{settings}: loss parts at step {parted}, gradient norm at {grad_parted}; final loss "
              f"NumPy {py[-1]:.6g}, page {js[-1]:.6g}")
        assert parted is None or parted > 20
        assert grad_parted is None or grad_parted > 20
        assert abs(py[-1] - js[-1]) < 0.05  # the same story: stuck, or learned
        mass_py = want["readout"]["min_target_mass"][0]
        mass_js = res["sources"]["readout"]["min_target_mass"][0]
        assert (mass_py > 0.5) == (mass_js > 0.5)


@pytest.mark.node
def test_the_glue_builds_init_states_weights_from_the_draws():
    cases = [{"kind": "start", "settings": {"seed": seed, "d_k": d_k, "tie": tie, "init_scale": scale}, "step": 0}
             for seed, d_k, tie, scale in ((0, 8, "none", 1.0), (7, 64, "none", 30.0), (15, 1, "shared", 0.01),
                                           (3, 16, "identity", 2.0), (11, 2, "none", 49.5))]
    for c, got in zip(cases, run_glue(cases)):
        v = c["settings"]
        settings = LearnState(**v).settings()
        start = ac.init_state(settings)
        assert sorted(got["params"]) == sorted(start.params) and got["step"] == 0
        for name, want in start.params.items():
            assert np.array_equal(np.array(got["params"][name]), want), (v, name)  # to the bit
            assert np.all(np.array(got["m"][name]) == 0) and np.all(np.array(got["v"][name]) == 0)


@pytest.mark.node
def test_the_glue_commits_the_settings_and_the_step_when_a_gesture_ends():
    one, reset, widget, bad, echo = run_glue([
        {"kind": "one_step", "settings": {}, "step": 5},
        {"kind": "reset", "settings": {"lr": 0.2}, "step": 30},
        {"kind": "widget", "settings": {}, "step": 12, "to": {"lr": 0.060000000000000005}},
        {"kind": "widget", "settings": {}, "step": 12, "to": {"lr": None}},
        {"kind": "widget", "settings": {}, "step": 12, "to": {}},
    ])
    # One step: a gesture of its own, committed at once (the widgets and the step go to Python).
    assert one["step"] == [6] and one["busy"] == [] and one["readout"]["step"] == [6]
    assert one["at_once"]["run"] == ["data"] and one["at_once"]["lr"] == ["value"] and one["at_once"]["tie"] == ["active"]
    assert set(one["drawn"]) == set(JS_NAMES)  # the page drew every source itself, quietly (its state too)
    assert reset["step"] == [0] and reset["readout"]["step"] == [0] and reset["at_once"]["run"] == ["data"]
    # A setting: the same step of the new run at once, marked busy, committed once still (to six digits).
    assert widget["busy"] == ["busy"] and widget["at_once"]["lr"] == [] and widget["step"] == [12]
    assert widget["lr"] == 0.06 and widget["after"] == [] and widget["committed"]["lr"] == ["value"]
    assert widget["committed"]["run"] == ["data"] and widget["readout"]["step"] == [12]
    # An emptied box: the words, the last good value back in the box (sent), nothing else.
    assert bad["message"] == ("<div class='ae-learn-message' role='alert'>Learning rate: type a number from 0.0001 to 5; "
                              "the plate keeps what it shows.</div>")
    assert bad["lr"] == 0.05 and bad["at_once"]["lr"] == ["value"] and bad["busy"] == [] and bad["committed"]["run"] == []
    # Nothing new (this file's own quiet change, or Python's answer): nothing drawn, nothing sent.
    assert echo["busy"] == [] and echo["committed"] == {"lr": [], "run": [], "seed": [], "tie": [], "d_k": []}


def test_max_step_is_the_links_cap():
    assert LearnState.param["step"].bounds == (0, MAX_STEP) and OPTIMIZERS == ["adam", "gd"]
