"""app/runtime/mirror.js and app/plates/lookup/lookup.js give attention_core's numbers.

mirror.js is the browser's copy of the core's arithmetic, and lookup.js turns it into what the
soft-lookup plate shows while a gesture is in progress. Both are run here in node on cases
generated in Python with a seeded NumPy generator, all in one node process (the cases go in as
JSON on stdin, the results come back as JSON on stdout), and compared with attention_core and
with app.plates.lookup: numbers to rtol 1e-12 / atol 1e-13 (1e-12 for the plate), strings
exactly. Without node these tests skip with a visible reason, except under CI=true, where they
fail.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import attention_core as ac
from node_mirror import MIRROR, library_file, node_path, run_driver

pytestmark = pytest.mark.node

LOOKUP = library_file("lookup.js")
RTOL, ATOL = 1e-12, 1e-13

DRIVER = r"""
"use strict";
const fs = require("fs");
const [mirrorPath, lookupPath] = process.argv.slice(1);  // node -e CODE MIRROR LOOKUP
const M = require(mirrorPath);   // sets globalThis.AttentionMirror, which lookup.js needs
const L = require(lookupPath);  // the page's script: the runtime (AELink, AESync, AEPage) and lookup.js
const dec = (k, v) => (v === "inf" ? Infinity : v === "-inf" ? -Infinity : v === "nan" ? NaN : v);
const enc = (k, v) => (typeof v === "number" && !Number.isFinite(v) ? (Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf") : v);

let uid = 0;
function model(props) {  // a stand-in for a Bokeh model: .data/.value/.active, change.emit(), setv()
  const m = { id: "p" + (++uid), emitted: 0, setv(p, opts) { Object.assign(this, p); this.setv_opts = opts; } };
  m.change = { emit() { m.emitted += 1; } };
  return Object.assign(m, props);
}

function make_a(c) {
  return {
    link: c.link,
    sync: model({ tags: [] }),
    query: model({ data: { x: c.query_x.slice(), y: c.query_y.slice() } }),
    keys: model({ data: { x: c.keys.x.slice(), y: c.keys.y.slice(), value: c.keys.value.slice(), name: c.keys.name.slice() } }),
    weights: model({ data: { key: ["k1", "k2", "k3", "k4", "k5"], value: c.keys.value.slice(), weight: [0, 0, 0, 0, 0],
                             pct: ["", "", "", "", ""], score: [0, 0, 0, 0, 0], scaled: [0, 0, 0, 0, 0], weighted: [0, 0, 0, 0, 0] } }),
    output: model({ data: { value: [0], label: [""] } }),
    refs: model({ data: { x: [0], label: [""] } }),
    plot: model({ tags: [] }),
    angle: model({ value: c.angle }),
    length: model({ value: c.length }),
    dk: model({ value: c.dk, options: ["2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"] }),
    scaled: model({ active: c.active.slice() }),
    readout: model({ text: "" }),
    table: model({ text: "" }),
  };
}

function live(c) {
  const a = make_a(c);
  if (c.via === "sliders") L.on_angle_or_length(a); else L.recompute(a);
  const s = L.steps(a);
  return {
    query: a.query.data, weights: a.weights.data, output: a.output.data, refs: a.refs.data,
    readout: a.readout.text, readout_quiet: a.readout.setv_opts, __a: a,  // the table is read once its throttle has run
    emitted: [a.weights.emitted, a.output.emitted, a.refs.emitted],
    steps: { weight: s.weight, output: s.output, winner: s.winner, scale: s.scale },
    url: AELink.fields(a.link, L.url_values(a), L.url_format),
  };
}

function apply_url(c) {  // an exported page reading its link: link.js with lookup.js, on fresh defaults
  const a = make_a(c);
  // The link's text arrives as one JSON string: the reviver above would turn a value "nan" into NaN.
  const notices = AELink.apply_plate(a, new URLSearchParams(JSON.parse(c.pairs_json)), L);
  return { notices: notices, angle: a.angle.value, length: a.length.value, dk: a.dk.value, active: a.scaled.active,
           keys_x: a.keys.data.x, keys_y: a.keys.data.y, query: a.query.data, weight: a.weights.data.weight };
}

function run(c) {
  switch (c.kind) {
    case "softmax": return M.softmax(c.x, c.mask);
    case "attention": return M.attention(c.Q, c.K, c.V, c.mask, c.scale);
    case "lookup_steps": return M.lookup_steps(c.q, c.K, c.V, c.scale, c.shift);
    case "cartesian": return M.cartesian(c.angle, c.length);
    case "polar": return M.polar(c.x, c.y);
    case "live": return live(c);
    case "apply_url": return apply_url(c);
    case "format": return { fix: c.fix.map(([x, d]) => L.fix(x, d)), pct: c.pct.map(L.pct) };
    default: throw new Error("unknown kind " + c.kind);
  }
}

const cases = JSON.parse(fs.readFileSync(0, "utf8"), dec);
const out = cases.map((c) => { try { return run(c); } catch (e) { return { error: String((e && e.stack) || e) }; } });
setTimeout(() => {  // the table under the bars is written at most every few frames (AESync.throttle)
  out.forEach((r) => { if (r && r.__a) { r.table = r.__a.table.text; r.table_quiet = r.__a.table.setv_opts; delete r.__a; } });
  process.stdout.write(JSON.stringify(out, enc));
}, 300);
"""


def _enc(x):
    """JSON-ready copy of x, with ±inf / nan as strings (JSON has no such numbers)."""
    if isinstance(x, np.ndarray):
        return _enc(x.tolist())
    if isinstance(x, (list, tuple)):
        return [_enc(v) for v in x]
    if isinstance(x, dict):
        return {k: _enc(v) for k, v in x.items()}
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    return x


def _dec(x):
    if isinstance(x, list):
        return [_dec(v) for v in x]
    if isinstance(x, dict):
        return {k: _dec(v) for k, v in x.items()}
    if x == "inf":
        return math.inf
    if x == "-inf":
        return -math.inf
    if x == "nan":
        return math.nan
    return x


def run_node(cases: list[dict]) -> list:
    return _dec(run_driver(DRIVER, _enc(cases), scripts=(MIRROR, LOOKUP), expect=len(cases)))


def close(actual, expected, what: str, rtol: float = RTOL, atol: float = ATOL) -> None:
    actual = np.asarray(actual, dtype=float)
    expected = np.asarray(expected, dtype=float)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


# --------------------------------------------------------------------------- mirror.js vs attention_core


def _mirror_cases(rng) -> list[dict]:
    cases: list[dict] = []
    # softmax: one row each, with masks, fully masked rows, -inf and +inf entries, big and tiny scales
    for i in range(420):
        m = int(rng.integers(1, 13))
        x = rng.normal(0, 1, m) * rng.choice([1e-3, 1.0, 10.0, 300.0])
        kind = i % 7
        mask = None
        if kind in (1, 2, 3):
            mask = rng.random(m) < 0.6
        if kind == 2:
            mask[:] = False  # nothing may take part
        if kind in (3, 4):
            x[rng.random(m) < 0.4] = -np.inf
        if kind == 5:
            x[:] = -np.inf
        if kind == 6:
            x[rng.integers(0, m)] = np.inf
            if rng.random() < 0.5:
                x[rng.integers(0, m)] = np.inf
        cases.append({"kind": "softmax", "x": x, "mask": mask})
    # attention: N != M, d_v != d_k, masks (with empty rows), scale None / 1.0 / random
    for i in range(320):
        n, m, d_k, d_v = (int(v) for v in rng.integers(1, 7, size=4))
        if i % 2 == 0:
            while m == n:
                m = int(rng.integers(1, 7))
            while d_v == d_k:
                d_v = int(rng.integers(1, 7))
        amp = rng.choice([0.3, 1.0, 3.0])
        Q, K, V = (rng.normal(0, amp, s) for s in ((n, d_k), (m, d_k), (m, d_v)))
        scale = [None, 1.0, float(rng.uniform(-2, 2)), 0.0][i % 4 if i % 13 else 3]
        mask = None
        if i % 3 == 1:
            mask = rng.random((n, m)) < 0.6
            mask[rng.integers(0, n)] = False  # one row attends to nothing
        cases.append({"kind": "attention", "Q": Q, "K": K, "V": V, "mask": mask, "scale": scale})
    # lookup_steps: scalar and vector values, scale None / 1.0 / random, shifted or textbook exp
    for i in range(320):
        m, d_k = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        q, K = rng.normal(0, 1.5, d_k), rng.normal(0, 1.5, (m, d_k))
        V = rng.normal(0, 10, m) if i % 2 else rng.normal(0, 10, (m, int(rng.integers(1, 5))))
        scale = [None, 1.0, float(rng.uniform(0.05, 2))][i % 3]
        cases.append({"kind": "lookup_steps", "q": q, "K": K, "V": V, "scale": scale, "shift": bool(i % 4 < 2)})
    for _ in range(120):
        cases.append({"kind": "cartesian", "angle": float(rng.uniform(-720, 720)), "length": float(rng.uniform(0, 10))})
    edges = [(0.0, 0.0), (1.0, -0.0), (1.0, -1e-16), (1.0, -1e-300), (-1.0, 0.0), (-1.0, -0.0), (0.0, -0.0),
             (-0.0, -0.0), (0.0, 1.0), (0.0, -1.0), (-5.0, -5.0), (1e-300, 1e-300), (3.0, -4.0)]
    for x, y in edges:
        cases.append({"kind": "polar", "x": x, "y": y})
    for _ in range(120):
        x, y = rng.normal(0, 3, 2)
        cases.append({"kind": "polar", "x": float(x), "y": float(y)})
    return cases


def _expected(c: dict):
    if c["kind"] == "softmax":
        return ac.softmax(c["x"], mask=c["mask"])
    if c["kind"] == "attention":
        return ac.attention(c["Q"], c["K"], c["V"], mask=c["mask"], scale=c["scale"])
    if c["kind"] == "lookup_steps":
        return ac.lookup_steps(c["q"], c["K"], c["V"], scale=c["scale"], shift=c["shift"])
    if c["kind"] == "cartesian":
        return ac.cartesian(c["angle"], c["length"])
    if c["kind"] == "polar":
        return ac.polar(np.array([c["x"], c["y"]]))
    raise AssertionError(c["kind"])


@pytest.fixture(scope="module")
def mirror_run():
    cases = _mirror_cases(np.random.default_rng(20240601))
    assert len(cases) >= 1000
    return cases, run_node(cases)


def test_mirror_matches_core(mirror_run):
    cases, results = mirror_run
    counts: dict[str, int] = {}
    for i, (c, got) in enumerate(zip(cases, results)):
        what = f"case {i} ({c['kind']})"
        assert not (isinstance(got, dict) and "error" in got), f"{what} raised in node: {got.get('error')}"
        exp = _expected(c)
        counts[c["kind"]] = counts.get(c["kind"], 0) + 1
        if c["kind"] in ("softmax", "cartesian"):
            close(got, exp, what)
        elif c["kind"] == "attention":
            out, w = exp
            close(got["weights"], w, what + " weights")
            close(got["output"], out, what + " output")
        elif c["kind"] == "polar":
            angle, length = exp
            close(got, [float(angle), float(length)], what)
            assert 0.0 <= got[0] < 360.0, f"{what}: angle {got[0]} outside [0, 360)"
        elif c["kind"] == "lookup_steps":
            for field in ("score", "scaled", "exp", "weight", "weighted", "output"):
                close(got[field], getattr(exp, field), f"{what} {field}")
            close(got["exp_total"], exp.exp_total, what + " exp_total")
            assert got["scale"] == pytest.approx(exp.scale, rel=RTOL, abs=ATOL), what
            assert got["winner"] == exp.winner, what
    assert counts["softmax"] >= 400 and counts["attention"] >= 300 and counts["lookup_steps"] >= 300, counts


def test_mirror_softmax_edge_rows(mirror_run):
    """The special rows came through as such: empty rows are zeros, +inf entries share the mass."""
    cases, results = mirror_run
    seen_empty = seen_posinf = 0
    for c, got in zip(cases, results):
        if c["kind"] != "softmax":
            continue
        x = np.asarray(c["x"])
        allowed = (np.ones(x.shape, bool) if c["mask"] is None else np.asarray(c["mask"])) & (x != -np.inf)
        if not allowed.any():
            seen_empty += 1
            assert got == [0.0] * len(x)
        elif np.any(allowed & (x == np.inf)):
            seen_posinf += 1
            k = int(np.sum(allowed & (x == np.inf)))
            assert set(got) <= {0.0, 1.0 / k} and got.count(1.0 / k) == k, got
        else:
            assert math.isclose(sum(got), 1.0, abs_tol=1e-12)
    assert seen_empty >= 50 and seen_posinf >= 20, (seen_empty, seen_posinf)


def test_mirror_refuses_what_core_refuses():
    script = (
        "const M = require(process.argv[1]); const out = [];"
        "for (const f of [() => M.softmax([1, NaN]), () => M.attention([[1]], [], [], null, null),"
        "                 () => M.lookup_steps([1, NaN], [[1, 2]], [1]), () => M.default_scale(0)]) {"
        "  try { f(); out.push('no error'); } catch (e) { out.push('error'); } }"
        "process.stdout.write(JSON.stringify(out));"
    )
    assert run_driver(script) == ["error"] * 4
    for bad in (lambda: ac.softmax([1.0, math.nan]), lambda: ac.attention([[1.0]], np.zeros((0, 1)), np.zeros((0, 1))),
                lambda: ac.lookup_steps([1.0, math.nan], [[1.0, 2.0]], [1.0]), lambda: ac.default_scale(0)):
        with pytest.raises(ValueError):
            bad()


# --------------------------------------------------------------------------- lookup.js vs the plate


def _live_cases(rng, plate) -> tuple[list[dict], list[dict]]:
    from app.shared.formatting import fix, pct
    from app.plates.lookup.data import readout_html
    from app.plates.lookup.state import DEFAULT_KEYS, DK_CHOICES, VALUES, LookupState

    link = LookupState().url_spec()
    cases, expected = [], []
    for i in range(240):
        kind = i % 6
        if kind == 0:
            keys = DEFAULT_KEYS.copy()
        elif kind == 1:
            keys = DEFAULT_KEYS.copy()
            keys[rng.integers(0, 5)] = rng.uniform(-5, 5, 2)
        elif kind == 2:  # exact ties: two keys on the same spot
            keys = rng.uniform(-5, 5, (5, 2))
            j, k = rng.choice(5, size=2, replace=False)
            keys[k] = keys[j]
        else:
            keys = rng.uniform(-5, 5, (5, 2))
        state = {"angle": float(rng.uniform(0, 360)), "length": float(rng.uniform(0.1, 5)),
                 "d_k": int(rng.choice(DK_CHOICES)), "scaled": bool(rng.integers(0, 2)), "keys": keys}
        if i % 40 == 5:  # saturated: the longest query at the widest unscaled width
            state.update(length=5.0, d_k=1024, scaled=False)
        plate.state.param.update(**state)
        s = plate.state
        st = s.steps()
        out = float(st.output)
        hard = float(VALUES[st.winner])
        exp = {
            "query": s.query, "weight": st.weight, "score": st.score, "scaled": st.scaled, "weighted": st.weighted,
            "pct": [pct(w) for w in st.weight], "output": out, "label": "output " + fix(out, 2),
            "hard": hard, "hard_label": "hard lookup " + fix(hard, 0), "readout": readout_html(out, hard, st.winner),
            "winner": st.winner, "scale": st.scale, "url": s.to_url(), "table": plate.table.text,
        }
        # the plate itself shows these numbers (the authority the browser is held to)
        np.testing.assert_allclose(plate.weights_src.data["weight"], st.weight, rtol=0, atol=1e-12)
        assert plate.weights_src.data["pct"] == exp["pct"]
        assert plate.output_src.data["label"] == [exp["label"]]
        assert plate.readout.text == exp["readout"]
        assert plate.table.text.count("<tr>") == 6 and fix(float(st.weight[0]), 4) in plate.table.text
        via = "sliders" if i % 2 else "recompute"
        q = plate.query_src.data
        cases.append({
            "kind": "live", "via": via, "link": link,
            # with the sliders, the query starts stale: lookup.js must place it from angle and length
            "query_x": [0.1] if via == "sliders" else list(q["x"]), "query_y": [0.0] if via == "sliders" else list(q["y"]),
            "keys": {k: list(v) for k, v in plate.keys_src.data.items()},
            "angle": plate.angle_w.value, "length": plate.length_w.value, "dk": plate.dk_w.value,
            "active": list(plate.scaled_w.active),
        })
        expected.append(exp)
    return cases, expected


@pytest.fixture(scope="module")
def live_run():
    from app.plates.lookup.view import LookupPlate

    node_path()
    plate = LookupPlate()
    cases, expected = _live_cases(np.random.default_rng(4242), plate)
    return cases, expected, run_node(cases)


def test_lookup_js_matches_the_plate(live_run):
    cases, expected, results = live_run
    assert len(cases) >= 200
    for i, (c, exp, got) in enumerate(zip(cases, expected, results)):
        what = f"live case {i} (via {c['via']}, d_k {c['dk']}, scaled {c['active']})"
        assert "error" not in got, f"{what} raised in node: {got['error']}"
        close([got["query"]["x"][0], got["query"]["y"][0]], exp["query"], what + " query", rtol=0, atol=1e-12)
        w = got["weights"]
        for field in ("weight", "score", "scaled", "weighted"):
            close(w[field], exp[field], f"{what} {field}", rtol=1e-12, atol=1e-12)
        close(got["output"]["value"], [exp["output"]], what + " output", rtol=0, atol=1e-12)
        close(got["steps"]["weight"], exp["weight"], what + " steps().weight", rtol=0, atol=1e-12)
        assert got["steps"]["scale"] == pytest.approx(exp["scale"], rel=1e-15), what
        assert got["steps"]["winner"] == exp["winner"], f"{what}: winner k{got['steps']['winner'] + 1} vs k{exp['winner'] + 1}"
        # strings exactly
        assert w["pct"] == exp["pct"], what
        assert got["output"]["label"] == [exp["label"]], what
        assert got["refs"]["x"] == [exp["hard"]] and got["refs"]["label"] == [exp["hard_label"]], what
        assert got["readout"] == exp["readout"], what
        assert got["readout_quiet"] == {"sync": False}, "the live path must not send the readout to Python"
        assert got["table"] == exp["table"], what
        assert got["table_quiet"] == {"sync": False}, "the live path must not send the table to Python"
        assert got["emitted"] == [1, 1, 1], what


def test_lookup_js_url_fields_match_to_url(live_run):
    """lookup.js writes the address bar with the names and values LookupState.to_url() would."""
    from app.plates.lookup.state import LookupState

    cases, expected, results = live_run
    for i, (c, exp, got) in enumerate(zip(cases, expected, results)):
        if c["via"] != "recompute":
            continue  # with the sliders the query is re-placed, so its last digits may move
        js, py = got["url"], exp["url"]
        assert set(js) == set(py), f"case {i}: lookup.js writes {sorted(js)}, to_url() {sorted(py)}"
        a, b = LookupState(), LookupState()
        assert a.apply_url(js) == [] and b.apply_url(py) == [], i
        assert (a.d_k, a.scaled) == (b.d_k, b.scaled)
        assert math.isclose(a.angle, b.angle, rel_tol=1e-12) and math.isclose(a.length, b.length, rel_tol=1e-12), i
        np.testing.assert_allclose(a.keys, b.keys, rtol=1e-12, atol=0, err_msg=f"case {i}")


# --------------------------------------------------------------------------- number formatting


def test_formatting_matches_lookup_js_on_ordinary_values():
    from app.shared.formatting import fix, pct

    rng = np.random.default_rng(99)
    xs = np.concatenate([rng.uniform(-60, 60, 300), rng.uniform(-1e-3, 1e-3, 50), [0.0, -0.0, 1e-9, -1e-9, 16.837795]])
    ws = np.concatenate([rng.random(300), [0.0, 1.0, 0.5508183329784272, 1e-9, 0.99996]])
    cases = [{"kind": "format", "fix": [[float(x), int(d)] for x in xs for d in (0, 1, 2)], "pct": ws}]
    got = run_node(cases)[0]
    assert "error" not in got, got
    assert got["fix"] == [fix(float(x), d) for x in xs for d in (0, 1, 2)]
    assert got["pct"] == [pct(float(w)) for w in ws]


def test_formatting_matches_lookup_js_on_exact_ties():
    """Exact binary ties: toFixed rounds them away from zero (Python's format would round to even)."""
    from app.shared.formatting import fix, pct

    ties = [[0.125, 2], [16.125, 2], [2.5, 0], [-0.5, 0], [0.25, 1], [30.375, 2]]
    got = run_node([{"kind": "format", "fix": ties, "pct": [0.1225, 0.0025]}])[0]
    assert got["fix"] == [fix(x, d) for x, d in ties]
    assert got["pct"] == [pct(w) for w in (0.1225, 0.0025)]


# --------------------------------------------------------------------------- reading a link without Python


def _default_a_inputs() -> dict:
    from app.plates.lookup.data import keys_data
    from app.plates.lookup.state import DEFAULT_KEYS, LookupState

    s = LookupState()
    q = s.query
    return {"link": s.url_spec(), "query_x": [float(q[0])], "query_y": [float(q[1])], "keys": keys_data(s.keys),
            "angle": 40.0, "length": 1.5, "dk": "2", "active": []}


def _notice_kind(n: str) -> str:
    if "unknown setting" in n:
        return "unknown"
    if "too long" in n:
        return "too long"
    if "nearest allowed value" in n:
        return "clamped"
    return "ignored"


def _link_pairs(rng) -> list[tuple[str, str]]:
    """1-4 settings with distinct names, from pools of good, out-of-range and unreadable values."""
    def number() -> str:
        x = float(rng.uniform(-600, 900))
        return str(rng.choice([f"{x:.{int(rng.integers(0, 8))}f}", f"{x:e}", f"{x:.3E}", str(int(x)), f" {x:.2f} ",
                               f"\t{x:.1f}\n", f"+{abs(x):.4f}", f".{int(abs(x))}", f"{int(abs(x))}."]))

    def key_text() -> str:
        n = int(rng.choice([5, 5, 5, 4, 6]))
        pts = [f"{float(rng.uniform(-8, 8)):.{int(rng.integers(0, 6))}f},{float(rng.uniform(-8, 8)):.3g}" for _ in range(n)]
        if rng.random() < 0.2:
            pts[int(rng.integers(0, n))] = str(rng.choice(["nan,1", "1", "1,2,3", ",", "inf,0", "1e400,0", " 1 , 2 ", "0x1,2"]))
        return ";".join(pts)

    junk = ["", " ", "nan", "NaN", "inf", "-inf", "Infinity", "1e400", "-1e400", "1e-400", "1_000", "0x10", "--1", "1e",
            "e5", "1.2.3", "banana", "<script>alert(1)</script>", "π", "1" * 201, ("1,1;" * 60)[:-1], "-0", "0", "360",
            "400", "5.0000001", "0.0999",
            "\u202e1", "a\u200bb", "\U0001f600" * 30]  # shown in notices: format characters as '?', cut by code points
    values = {
        "angle": lambda: number() if rng.random() < 0.6 else str(rng.choice(junk)),
        "length": lambda: number() if rng.random() < 0.3 else str(rng.choice(junk + ["0.1", "5", "2.5", "0.05", "7"])),
        "d_k": lambda: str(rng.choice(["2", "8", "1024", " 64 ", "3", "08", "8.0", "", "2048", "-2", "banana"])),
        "scaled": lambda: str(rng.choice(["1", "0", "true", "FALSE", " yes ", "on", "off", "No", "2", "", "y"])),
        "keys": lambda: key_text() if rng.random() < 0.8 else str(rng.choice(junk)),
    }
    names = list(values) + ["embed", "theme", "hide", "present", "plate", "foo", "Angle", "", "d-k", "keys[]"]
    chosen = rng.choice(names, size=int(rng.integers(1, 5)), replace=False)
    return [(str(n), values[n]() if n in values else str(rng.choice(["1", "dark", "x"]))) for n in chosen]


@pytest.fixture(scope="module")
def link_run():
    node_path()
    rng = np.random.default_rng(777)
    base = _default_a_inputs()
    cases = [{"kind": "apply_url", **base, "pairs": _link_pairs(rng)} for _ in range(400)]
    for c in cases:
        c["pairs_json"] = json.dumps(c["pairs"])
    return cases, run_node(cases)


def test_lookup_js_reads_a_link_as_python_does(link_run):
    """An exported page reads its link with lookup.js's apply_url; a served one with LookupState.apply_url."""
    from app.plates.lookup.state import LookupState

    cases, results = link_run
    kinds = set()
    for i, (c, got) in enumerate(zip(cases, results)):
        what = f"link case {i}: {c['pairs']!r}"
        assert "error" not in got, f"{what} raised in node: {got['error']}"
        s = LookupState()
        notices = s.apply_url(dict(c["pairs"]))
        assert got["notices"] == notices, f"{what}\n  lookup.js: {got['notices']}\n  Python:    {notices}"  # word for word
        kinds.update(_notice_kind(n) for n in notices)
        assert (got["angle"], got["length"]) == (s.angle, s.length), what
        assert int(got["dk"]) == s.d_k and (0 in got["active"]) == s.scaled, what
        np.testing.assert_array_equal(np.column_stack([got["keys_x"], got["keys_y"]]), s.keys, err_msg=what)
        close([got["query"]["x"][0], got["query"]["y"][0]], s.query, what + " query", rtol=0, atol=1e-12)
        close(got["weight"], s.steps().weight, what + " weights", rtol=0, atol=1e-12)
    assert kinds == {"unknown", "too long", "clamped", "ignored"}, kinds


UNICODE_DIGITS = {
    "arabic-indic-digits": [("angle", "\u0664\u0660")],  # ٤٠
    "fullwidth-digit": [("length", "\uff14")],  # fullwidth ４
    "digit-in-keys": [("keys", "\u0661,0;0,2;1,1;2,2;3,3")],  # ١ in a key
}
UNICODE_SPACES = {
    "bom": [("angle", "40\ufeff")],  # a trailing byte-order mark
    "nbsp": [("angle", "40\u00a0")],  # a trailing no-break space (%C2%A0 in a link)
    "ideographic-space": [("length", "\u30002")],
    "nbsp-in-keys": [("keys", "1\u00a0,0;0,2;1,1;2,2;3,3")],
}


def _same_reading(pairs):
    from app.plates.lookup.state import LookupState

    got = run_node([{"kind": "apply_url", **_default_a_inputs(), "pairs_json": json.dumps(pairs)}])[0]
    s = LookupState()
    notices = s.apply_url(dict(pairs))
    assert len(got["notices"]) == len(notices), (got["notices"], notices)
    assert (got["angle"], got["length"]) == (s.angle, s.length)
    np.testing.assert_array_equal(np.column_stack([got["keys_x"], got["keys_y"]]), s.keys)


@pytest.mark.parametrize("pairs", UNICODE_DIGITS.values(), ids=UNICODE_DIGITS.keys())
def test_lookup_js_reads_unicode_digits_as_python_does(pairs):
    """Only ASCII digits make a number, served and exported alike."""
    _same_reading(pairs)


@pytest.mark.parametrize("pairs", UNICODE_SPACES.values(), ids=UNICODE_SPACES.keys())
def test_lookup_js_reads_unicode_spaces_as_python_does(pairs):
    """Only ASCII whitespace may pad a number (U+00A0, U+3000, U+FEFF refuse it), both sides."""
    _same_reading(pairs)


def test_repeated_setting_means_the_same_served_and_exported():
    """?angle=10&angle=20: the first value counts, served (session_args) and exported (apply_url)
    alike, and both say so (issue 54, 5: it was taken silently)."""
    from app.plates.lookup.state import LookupState
    from app.shared.state import link_args

    pairs = [["angle", "10"], ["angle", "20"]]
    got = run_node([{"kind": "apply_url", **_default_a_inputs(), "pairs_json": json.dumps(pairs)}])[0]
    served = LookupState()
    notices = served.apply_url(link_args(pairs))  # what session_args() hands the served page for ?angle=10&angle=20
    assert got["angle"] == served.angle == 10.0
    assert got["notices"] == notices == ["'angle' given 2 times: only the first, '10', is read"]
