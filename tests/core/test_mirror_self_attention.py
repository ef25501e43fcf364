"""mirror.js's self-attention functions against attention_core, in node, on seeded random cases.

matmul, sinusoidal_positions, self_attention, cross_attention and permutation_check are run on
1,200 seeded random cases (random n, M, widths, perms, positions on or off, some with masks),
and the plate's glue (app/plates/self_attention/self_attention.js: compute + frame_data) on ~190
of the 984 states the plate can show (every n, positions and cross with shuffles 0, 1 and 40,
plus a seeded sample): every number to 1e-12 and every text written on the page identical to
app/plates/self_attention/data.py's. The glue's half of the protocol too: the address it writes
(link.js with url_values) is the state's to_url(), and a run of widget changes marks a.sync
"busy" and ends in one commit of the four widgets.
"""

from __future__ import annotations


import numpy as np
import pytest

import attention_core as ac
from app.shared.state import link_args
from node_mirror import MIRROR, library_file, run_driver

N_CASES = 1200
TOL = 1e-12


RUNNER = r"""
const M = require(process.argv[1]);
const S = require(process.argv[2]);  // the page's script: the runtime (AELink, AESync, AEPage) and the glue
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const plate = input.plate;
function run(c) {
  try {
    switch (c.fn) {
      case "matmul": return {ok: M.matmul(c.A, c.B)};
      case "sinusoidal_positions": return {ok: M.sinusoidal_positions(c.n, c.d, c.base)};
      case "self_attention": return {ok: M.self_attention(c.X, c.Wq, c.Wk, c.Wv, c.mask)};
      case "cross_attention": return {ok: M.cross_attention(c.X, c.Y, c.Wq, c.Wk, c.Wv, c.mask)};
      case "permutation_check": return {ok: M.permutation_check(c.X, c.Wq, c.Wk, c.Wv, c.perm, c.positions, c.Y)};
      case "frame_data": return {ok: S.frame_data(plate, S.compute(plate, c.state))};
    }
    return {error: "unknown fn " + c.fn};
  } catch (e) { return {error: String(e.message || e)}; }
}
process.stdout.write(JSON.stringify(input.cases.map(run)));
"""


def run_node(cases: list[dict], plate: dict | None = None) -> list[dict]:
    return run_driver(RUNNER, {"cases": cases, "plate": plate}, scripts=(MIRROR, library_file("self_attention.js")),
                      expect=len(cases))


def make_cases(seed: int = 20260) -> list[dict]:
    rng = np.random.default_rng(seed)
    kinds = ["matmul", "sinusoidal_positions", "self_attention", "cross_attention", "permutation_check"]
    cases = []
    for k in range(N_CASES):
        fn = kinds[k % len(kinds)]
        n, m, dm, dk, dv = (int(v) for v in rng.integers(1, 9, size=5))
        spread = float(rng.choice([0.5, 1.0, 2.0]))
        X = (rng.normal(size=(n, dm)) * spread).tolist()
        Wq, Wk, Wv = (rng.normal(size=(dm, dk)).tolist(), rng.normal(size=(dm, dk)).tolist(),
                      rng.normal(size=(dm, dv)).tolist())
        if fn == "matmul":
            cases.append({"fn": fn, "A": rng.normal(size=(n, dm)).tolist(), "B": rng.normal(size=(dm, m)).tolist()})
        elif fn == "sinusoidal_positions":
            cases.append({"fn": fn, "n": int(rng.integers(0, 40)), "d": int(rng.integers(1, 17)),
                          "base": None if k % 3 else float(rng.choice([100.0, 10000.0, 12.5]))})
        elif fn == "self_attention":
            mask = (rng.random((n, n)) < 0.7).tolist() if k % 4 == 0 else None
            cases.append({"fn": fn, "X": X, "Wq": Wq, "Wk": Wk, "Wv": Wv, "mask": mask})
        elif fn == "cross_attention":
            Y = rng.normal(size=(m, dm)).tolist()
            mask = (rng.random((n, m)) < 0.7).tolist() if k % 4 == 0 else None
            cases.append({"fn": fn, "X": X, "Y": Y, "Wq": Wq, "Wk": Wk, "Wv": Wv, "mask": mask})
        else:
            cross = bool(k % 2)
            cases.append({"fn": fn, "X": X, "Wq": Wq, "Wk": Wk, "Wv": Wv, "perm": rng.permutation(n).tolist(),
                          "positions": bool(rng.integers(0, 2)), "Y": rng.normal(size=(m, dm)).tolist() if cross else None})
    return cases


def core_result(c: dict):
    fn = c["fn"]
    if fn == "matmul":
        return np.asarray(c["A"]) @ np.asarray(c["B"])
    if fn == "sinusoidal_positions":
        return ac.sinusoidal_positions(c["n"], c["d"], *([] if c["base"] is None else [c["base"]]))
    if fn == "self_attention":
        mask = None if c["mask"] is None else np.asarray(c["mask"], dtype=bool)
        return ac.self_attention(c["X"], c["Wq"], c["Wk"], c["Wv"], mask=mask)
    if fn == "cross_attention":
        mask = None if c["mask"] is None else np.asarray(c["mask"], dtype=bool)
        return ac.cross_attention(c["X"], c["Y"], c["Wq"], c["Wk"], c["Wv"], mask=mask)
    return ac.permutation_check(c["X"], c["Wq"], c["Wk"], c["Wv"], c["perm"], positions=c["positions"], Y=c["Y"])


@pytest.mark.node
def test_mirror_matches_core_on_random_cases():
    cases = make_cases()
    results = run_node(cases)
    counts: dict[str, int] = {}
    worst = 0.0
    for c, r in zip(cases, results):
        assert "error" not in r, (c["fn"], r)
        want, got = core_result(c), r["ok"]
        fn = c["fn"]
        counts[fn] = counts.get(fn, 0) + 1
        if fn in ("matmul", "sinusoidal_positions"):
            g = np.asarray(got, dtype=float).reshape(np.shape(want))
            err = float(np.max(np.abs(g - want), initial=0.0))
        elif fn in ("self_attention", "cross_attention"):
            out, w = want
            err = max(float(np.max(np.abs(np.asarray(got["output"]) - out))),
                      float(np.max(np.abs(np.asarray(got["weights"]) - w))))
            assert not any(map(np.isnan, np.asarray(got["weights"]).ravel()))
        else:
            equal, diff = want
            assert got["equal"] is equal, (c, got, want)
            err = abs(got["max_diff"] - diff)
        worst = max(worst, err)
        assert err <= TOL, (fn, err)
    assert sum(counts.values()) >= 1000 and all(v >= 200 for v in counts.values()), counts
    assert worst <= TOL


@pytest.mark.node
def test_mirror_permutation_check_finds_broken_equivariance():
    """Not all True: with positions the seed's case is False in both, with the same difference."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 4))
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))
    case = {"fn": "permutation_check", "X": X.tolist(), "Wq": Wq.tolist(), "Wk": Wk.tolist(), "Wv": Wv.tolist(),
            "perm": [3, 0, 4, 1, 2], "positions": True, "Y": None}
    (r,) = run_node([case])
    equal, diff = ac.permutation_check(X, Wq, Wk, Wv, [3, 0, 4, 1, 2], positions=True)
    assert r["ok"]["equal"] is False and equal is False
    assert abs(r["ok"]["max_diff"] - diff) <= TOL and abs(diff - 2.366) <= 0.001


@pytest.mark.node
def test_mirror_refuses_what_the_core_refuses():
    X = [[1.0, 2.0], [3.0, 4.0]]
    W = [[1.0, 0.0], [0.0, 1.0]]
    cases = [
        {"fn": "permutation_check", "X": X, "Wq": W, "Wk": W, "Wv": W, "perm": [0, 0], "positions": False, "Y": None},
        {"fn": "permutation_check", "X": X, "Wq": W, "Wk": W, "Wv": W, "perm": [0], "positions": False, "Y": None},
        {"fn": "sinusoidal_positions", "n": -1, "d": 4, "base": None},
        {"fn": "sinusoidal_positions", "n": 3, "d": 0, "base": None},
        {"fn": "matmul", "A": [[1.0, 2.0, 3.0]], "B": W},
        {"fn": "cross_attention", "X": X, "Y": [], "Wq": W, "Wk": W, "Wv": W, "mask": None},
    ]
    for c, r in zip(cases, run_node(cases)):
        assert "error" in r, (c, r)


def plate_data() -> dict:
    from app.plates.self_attention.state import (
        D, LETTERS, MAX_SHUFFLE, N_MAX, N_MIN, PERMS, WK, WQ, WV, X_ALL, Y_ALL, Y_LETTERS,
    )

    return {"X": X_ALL.tolist(), "Y": Y_ALL.tolist(), "Wq": WQ.tolist(), "Wk": WK.tolist(), "Wv": WV.tolist(),
            "perms": {str(n): [list(p) for p in ps] for n, ps in PERMS.items()}, "letters": LETTERS,
            "y_letters": Y_LETTERS, "d": D, "n_min": N_MIN, "n_max": N_MAX, "max_shuffle": MAX_SHUFFLE}


def test_plate_data_is_what_the_glue_is_handed():
    from app.plates.self_attention.data import glue_data

    assert glue_data() == plate_data()


@pytest.mark.node
def test_plate_glue_matches_python_on_every_state():
    from app.plates.self_attention.data import frame_data
    from app.plates.self_attention.state import MAX_SHUFFLE, N_MAX, N_MIN, compute

    every = [{"n": n, "shuffle": k, "positions": p, "cross": c} for n in range(N_MIN, N_MAX + 1)
             for k in range(MAX_SHUFFLE + 1) for p in (False, True) for c in (False, True)]
    assert len(every) == 984
    # Every n, positions and cross with shuffles 0, 1 and MAX, plus a seeded sample of the rest.
    rng = np.random.default_rng(4)
    states = [s for s in every if s["shuffle"] in (0, 1, MAX_SHUFFLE)]
    states += [every[i] for i in rng.choice(len(every), size=120, replace=False) if every[i] not in states]
    results = run_node([{"fn": "frame_data", "state": s} for s in states], plate_data())
    for s, r in zip(states, results):
        assert "error" not in r, (s, r)
        js, py = r["ok"], frame_data(compute(**s))
        assert js["factors"] == py["factors"], s
        assert js["order"] == py["order"] and js["check"] == py["check"], s
        assert js["sources"].keys() == py["sources"].keys()
        for name, src in py["sources"].items():
            jsrc = js["sources"][name]
            assert jsrc.keys() == src.keys(), (name, jsrc.keys(), src.keys())
            for col, values in src.items():
                if col == "by":
                    assert jsrc[col] == ["mirror.js"] and values == ["attention_core"]
                    continue
                assert len(jsrc[col]) == len(values), (s, name, col)
                if values and isinstance(values[0], float):
                    err = float(np.max(np.abs(np.asarray(jsrc[col], dtype=float) - np.asarray(values))))
                    assert err <= TOL, (s, name, col, err)
                else:
                    assert jsrc[col] == values, (s, name, col)


# --------------------------------------------------------------------------- the glue's link and sync

GLUE = r"""
const S = require(process.argv[1]);  // the page's script: the runtime (AELink, AESync, AEPage) and the glue
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const SOURCES = ["tokens", "scores", "weights", "row_sums", "output", "original_output", "output_diff", "perm_check"];
let uid = 0;
function model(props) {  // a stand-in for a Bokeh model: setv records what a page would send (not sync: false)
  const m = { id: "m" + (++uid), sent: [], setv(p, opts) {
    Object.assign(this, p);
    if (!(opts && opts.sync === false)) this.sent.push(JSON.parse(JSON.stringify(p)));
  } };
  m.change = { emit() {} };
  return Object.assign(m, props);
}
function make_a(st) {  // a page showing `st` (the defaults when st is null), as Python built it
  const d = st || {};
  const f = input.link.fields, v = (k) => (k in d ? d[k] : f[k].default);
  const a = { data: input.plate, link: input.link, sync: model({ tags: [] }), n: model({ value: v("n") }),
              shuffle: model({ value: v("shuffle") }), positions: model({ active: v("positions") ? [0] : [] }),
              cross: model({ active: v("cross") ? [0] : [] }), order: model({ text: "" }), check: model({ text: "" }),
              message: model({ text: "" }) };
  SOURCES.forEach((k) => { a[k] = model({ data: {} }); });
  ["rows", "keys", "keys_sum", "original", "entries"].forEach((k) => { a["range_" + k] = model({ factors: [] }); });
  return a;
}
function widgets(a) {
  return { n: a.n.value, shuffle: a.shuffle.value, positions: a.positions.active.indexOf(0) >= 0,
           cross: a.cross.active.indexOf(0) >= 0, message: a.message.text, by: (a.perm_check.data.by || [null])[0] };
}
function url(a) { return AELink.fields(a.link, S.url_values(a), S.url_format); }

const later = [];
const out = input.cases.map((c) => {
  if (c.kind === "url") {  // the address the page writes for a state, then with a box emptied
    const a = make_a(c.state);
    S.recompute(a);
    const shown = url(a);
    a.shuffle.setv({ value: null }, { sync: false });
    S.recompute(a);
    return { url: shown, url_after_error: url(a), message: a.message.text };
  }
  if (c.kind === "apply") {  // an exported page reading its link: link.js with the glue, on fresh defaults
    const a = make_a(null);
    const notices = AELink.apply_plate(a, new URLSearchParams(c.pairs), S);
    return { notices: notices, widgets: widgets(a) };
  }
  // "run": a held arrow key on n (each step then the widget's callback), the commit, and its echo
  const a = make_a(null), r = { busy: [] };
  c.steps.forEach((n) => { a.n.setv({ value: n }); S.on_widget(a); r.busy.push(a.sync.tags.slice()); });
  r.sent_during = a.n.sent.length;
  r.widgets_during = widgets(a);
  later.push(new Promise((done) => setTimeout(() => {
    r.after = a.sync.tags.slice();
    r.commits = { n: a.n.sent.slice(c.steps.length), shuffle: a.shuffle.sent, positions: a.positions.sent,
                  cross: a.cross.sent };
    r.echo = S.on_widget(a);  // BokehJS runs the callback again for the values the commit sent
    r.echo_busy = a.sync.tags.slice();
    setTimeout(() => { r.sent_after_echo = a.n.sent.length; done(); }, 2 * AESync.STILL_MS + 50);
  }, 2 * AESync.STILL_MS + 50)));
  return r;
});
Promise.all(later).then(() => process.stdout.write(JSON.stringify(out)));
"""


def run_glue(cases: list[dict]) -> list[dict]:
    from app.plates.self_attention.state import SelfAttentionState

    return run_driver(GLUE, {"cases": cases, "plate": plate_data(), "link": SelfAttentionState().url_spec()},
                      scripts=(library_file("self_attention.js"),), expect=len(cases))


@pytest.mark.node
def test_the_address_the_glue_writes_is_to_url():
    """link.js writes what the glue's url_values say: SelfAttentionState.to_url() for every state
    shown, and with a box emptied (a refused value), still the state the page shows."""
    from app.plates.self_attention.state import MAX_SHUFFLE, N_MAX, N_MIN, SelfAttentionState

    rng = np.random.default_rng(5)
    states = [{"n": int(rng.integers(N_MIN, N_MAX + 1)), "shuffle": int(rng.integers(0, MAX_SHUFFLE + 1)),
               "positions": bool(rng.integers(0, 2)), "cross": bool(rng.integers(0, 2))} for _ in range(60)]
    states.append({"n": 5, "shuffle": 1, "positions": False, "cross": False})  # the defaults: a clean address
    for s, got in zip(states, run_glue([{"kind": "url", "state": s} for s in states])):
        want = SelfAttentionState(**s).to_url()
        assert got["url"] == want and got["url_after_error"] == want, (s, got)
        assert "Shuffle #" in got["message"]
    assert got["url"] == {}


LINK_VALUES = ["0", "1", "2", "3", "5", "8", "9", "40", "41", "-1", "2.5", "3.5", "7.49", "1e1", "1e309", "-0",
               " 4 ", "04", "+6", "", "nan", "NaN", "inf", "-Infinity", "0x10", "1_000", "٣", "５", "abc", "true",
               "no", "ON", "<script>alert(1)</script>", "é😀", "a\u200bb", "x" * 201, "9" * 40]


@pytest.mark.node
def test_an_exported_page_applies_a_link_as_a_served_one_reads_it():
    """AELink.apply_plate with the glue (an exported page, no Python) ends on the widgets, and says
    the notices, that SelfAttentionState.apply_url gives a served page, word for word."""
    from app.plates.self_attention.state import SelfAttentionState

    rng = np.random.default_rng(14)
    names = list(SelfAttentionState.url_fields) + ["zzz", "embed", "theme", "N", "<b>"]
    links = [[[names[int(rng.integers(len(names)))], LINK_VALUES[int(rng.integers(len(LINK_VALUES)))]]
              for _ in range(int(rng.integers(1, 6)))] for _ in range(400)]
    noticed = 0
    for pairs, got in zip(links, run_glue([{"kind": "apply", "pairs": p} for p in links])):
        state = SelfAttentionState()
        notices = state.apply_url(link_args(pairs))  # as app.delivery.page.session_args gives it
        assert got["notices"] == notices, pairs
        noticed += bool(notices)
        w = got["widgets"]
        assert (w["n"], w["shuffle"], w["positions"], w["cross"]) == (state.n, state.shuffle, state.positions,
                                                                      state.cross), pairs
        assert w["by"] in (None, "mirror.js") and w["message"] == "", (pairs, w)
        if w["by"] is None:  # nothing the link said was taken: the page keeps the numbers Python wrote
            assert state.to_url() == {}, pairs
    assert noticed > len(links) // 2


@pytest.mark.node
def test_a_held_key_is_one_run_on_the_sync_mark_and_one_commit():
    """A held arrow key on n: a.sync carries "busy" from the first step, nothing is sent while it
    lasts, then one commit sends the four widgets and takes the mark off; BokehJS running the
    callback again for the committed values starts no new run."""
    (r,) = run_glue([{"kind": "run", "steps": [6, 7, 8, 7]}])
    assert r["busy"] == [["busy"]] * 4 and r["sent_during"] == 4  # the widget's own changes (real sets)
    assert r["widgets_during"]["n"] == 7 and r["widgets_during"]["by"] == "mirror.js"
    assert r["after"] == []
    assert r["commits"] == {"n": [{"value": 7}], "shuffle": [{"value": 1}], "positions": [{"active": []}],
                            "cross": [{"active": []}]}
    assert r["echo"] is None and r["echo_busy"] == [] and r["sent_after_echo"] == 5
