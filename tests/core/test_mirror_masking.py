"""mirror.js's masking functions against attention_core's, in node, on seeded random cases, and the
plate's glue (app/plates/masking/masking.js) against the plate's Python.

causal_mask, padding_mask and window_mask must agree exactly; masked_scores exactly (the same
-inf cells, the same finite values); zero_after_softmax, attention_loop and masking_steps to
1e-12 (the two sides add in different orders). Masks are random, with some rows fully masked.
The glue writes exactly what data.py writes (every source, the notes, the checks' table) and the
address MaskingState.to_url() would; its half of the protocol marks a.sync "busy" for a tap and
for a run of widget changes, each ending in one commit; and an exported page reads hostile links
(through link.js's apply_plate) into the state, the page and the notices a served page gets.
"""

from __future__ import annotations


import numpy as np
import pytest

import attention_core as ac
from node_mirror import library_file, run_driver

pytestmark = pytest.mark.node

N_CASES = 1200
ATOL = 1e-12

DRIVER = r"""
const M = require(process.argv[1]);
const enc = (x) => Array.isArray(x) ? x.map(enc)
  : (x !== null && typeof x === "object") ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, enc(v)]))
  : (x === -Infinity ? "-inf" : x === Infinity ? "inf" : x);
let text = "";
process.stdin.on("data", (d) => { text += d; });
process.stdin.on("end", () => {
  const cases = JSON.parse(text), out = [];
  for (const c of cases) {
    try {
      if (c.kind === "masks") {
        out.push({ causal: M.causal_mask(c.n, c.m), causal_square: M.causal_mask(c.n),
                   padding: M.padding_mask(c.n, c.m, c.p), window: M.window_mask(c.n, c.w, c.causal) });
      } else {
        const S = M.scores(c.Q, c.K).map((r) => r.map((v) => v * (c.scale == null ? M.default_scale(c.Q[0].length) : c.scale)));
        const z = M.zero_after_softmax(S, c.mask, c.V);
        const loop = M.attention_loop(c.Q, c.K, c.V, c.mask, c.scale);
        const st = M.masking_steps(c.Q, c.K, c.V, c.mask, c.scale);
        out.push(enc({ masked: M.masked_scores(S, c.mask), zw: z.weights, zo: z.output, lw: loop.weights,
                       lo: loop.output, steps: st }));
      }
    } catch (e) { out.push({ error: String(e.message || e) }); }
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def run_node(cases: list[dict]) -> list[dict]:
    return run_driver(DRIVER, cases, expect=len(cases))


def dec(x):
    """JSON from the driver back to floats: "-inf" / "inf" strings become ±inf; a NaN (null) stays NaN and fails."""
    if isinstance(x, list):
        return np.array([dec(v) for v in x], dtype=np.float64) if x and isinstance(x[0], list) else np.array(
            [-np.inf if v == "-inf" else np.inf if v == "inf" else np.nan if v is None else v for v in x], dtype=np.float64)
    return np.float64(x)


def attention_cases(seed: int = 20240605, count: int = N_CASES) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(count):
        N, M = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        d_k, d_v = int(rng.integers(1, 7)), int(rng.integers(1, 6))
        size = float(rng.choice([0.1, 1.0, 3.0, 10.0]))
        Q = rng.normal(size=(N, d_k)) * size  # (N, d_k)
        K = rng.normal(size=(M, d_k)) * size  # (M, d_k)
        V = rng.normal(size=(M, d_v))  # (M, d_v)
        mask = rng.random((N, M)) < rng.uniform(0.2, 1.0)  # (N, M)
        if k % 5 == 0:
            mask[rng.integers(N)] = False  # a row with nothing allowed
        scale = [None, 1.0, float(rng.uniform(0.05, 2.0))][k % 3]
        cases.append({"kind": "attention", "Q": Q.tolist(), "K": K.tolist(), "V": V.tolist(),
                      "mask": mask.tolist(), "scale": scale})
    return cases


def mask_cases(seed: int = 7, count: int = 400) -> list[dict]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n, m = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        out.append({"kind": "masks", "n": n, "m": m, "p": int(rng.integers(0, m + 1)), "w": int(rng.integers(1, 12)),
                    "causal": bool(rng.integers(2))})
    return out


def test_the_mask_builders_agree_exactly():
    cases = mask_cases()
    got = run_node(cases)
    assert len(got) == len(cases)
    for c, g in zip(cases, got):
        assert "error" not in g, (c, g)
        assert np.array_equal(np.array(g["causal"], dtype=bool), ac.causal_mask(c["n"], c["m"])), c
        assert np.array_equal(np.array(g["causal_square"], dtype=bool), ac.causal_mask(c["n"])), c
        assert np.array_equal(np.array(g["padding"], dtype=bool), ac.padding_mask(c["n"], c["m"], c["p"])), c
        assert np.array_equal(np.array(g["window"], dtype=bool), ac.window_mask(c["n"], c["w"], c["causal"])), c


@pytest.fixture(scope="module")
def attention_results():
    cases = attention_cases()
    got = run_node(cases)
    assert len(got) == len(cases) >= 1000
    return cases, got


def test_masked_scores_zero_after_softmax_and_the_loop_agree(attention_results):
    cases, got = attention_results
    for k, (c, g) in enumerate(zip(cases, got)):
        assert "error" not in g, (k, g)
        Q, K, V = (np.array(c[x], dtype=float) for x in ("Q", "K", "V"))
        mask = np.array(c["mask"], dtype=bool)
        scale = ac.default_scale(Q.shape[1]) if c["scale"] is None else c["scale"]
        S = ac.scores(Q, K) * scale  # (N, M)
        want = ac.masked_scores(S, mask)  # (N, M)
        have = dec(g["masked"])
        assert np.array_equal(np.isinf(have), np.isinf(want)), k
        assert np.allclose(have[mask], want[mask], rtol=0, atol=ATOL), k
        zw, zo = ac.zero_after_softmax(S, mask, V)
        assert np.allclose(dec(g["zw"]), zw, rtol=0, atol=ATOL), k
        assert np.allclose(dec(g["zo"]).reshape(zo.shape), zo, rtol=1e-12, atol=ATOL), k
        lo, lw = ac.attention_loop(Q, K, V, mask, c["scale"])
        assert np.allclose(dec(g["lw"]), lw, rtol=0, atol=ATOL), k
        assert np.allclose(dec(g["lo"]).reshape(lo.shape), lo, rtol=1e-12, atol=ATOL), k


def test_masking_steps_agree(attention_results):
    cases, got = attention_results
    empty_rows_seen = 0
    for k, (c, g) in enumerate(zip(cases, got)):
        Q, K, V = (np.array(c[x], dtype=float) for x in ("Q", "K", "V"))
        mask = np.array(c["mask"], dtype=bool)
        st = ac.masking_steps(Q, K, V, mask, c["scale"])
        js = g["steps"]
        for name in ("scaled", "exp", "exp_total", "weights", "row_sums", "output", "full", "contrast_weights",
                     "contrast_row_sums", "contrast_output", "norms", "contrast_norms"):
            want = getattr(st, name)
            have = dec(js[name]).reshape(want.shape)
            assert np.allclose(have, want, rtol=1e-12, atol=ATOL), (k, name, have, want)
        shown = dec(js["shown"])
        assert np.array_equal(shown == -np.inf, st.shown == -np.inf), k
        assert np.array_equal(np.array(js["empty_rows"], dtype=bool), st.empty_rows), k
        assert js["scale"] == pytest.approx(st.scale, rel=1e-15)
        empty_rows_seen += int(st.empty_rows.sum())
        # The numbers the plate pins hold on both sides.
        assert np.all(np.array(js["weights"], dtype=float)[~mask] == 0.0), k
    assert empty_rows_seen >= N_CASES // 5  # fully masked rows were exercised


def test_the_mirror_refuses_bad_mask_arguments():
    script = r"""
const M = require(process.argv[1]);
const msgs = [];
for (const f of [() => M.causal_mask(0), () => M.padding_mask(3, 3, 4), () => M.window_mask(3, 0, true),
                 () => M.causal_mask(2.5), () => M.zero_after_softmax([[1, 2]], [[true, true]], [[1]])]) {
  try { f(); msgs.push(null); } catch (e) { msgs.push(String(e.message)); }
}
process.stdout.write(JSON.stringify(msgs));
"""
    msgs = run_driver(script)
    assert all(m is not None for m in msgs), msgs
    assert "n must be a whole number >= 1" in msgs[0]
    assert "cannot pad 4 of only 3 keys" in msgs[1]
    assert "w must be" in msgs[2] and "n must be" in msgs[3]
    assert "one row per key" in msgs[4]


# --------------------------------------------------------------------------- the plate's glue
GLUE = r"""
const L = require(process.argv[1]);  // the page's script: the runtime (AELink, AESync, AEPage, mirror.js) and masking.js
const M = globalThis.AttentionMirror;
const enc = (x) => Array.isArray(x) ? x.map(enc) : (x === -Infinity ? "-inf" : x);
let uid = 0;
function model(props) {  // a stand-in for a Bokeh model: setv (with its options recorded), change.emit()
  const m = { id: "m" + (++uid), sets: [], setv(p, opts) { Object.assign(this, p); this.sets.push([Object.keys(p), opts || {}]); } };
  m.change = { emit() {} };
  return Object.assign(m, props);
}
function copy(d) { return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v.slice()])); }
function make_a(c) {  // the page as Python built it for the state c.py (its sources, widgets and ranges)
  const d = c.py, n = c.st.n, names = {};
  const a = { link: c.link, sync: model({ tags: [] }), recipes: c.recipes, kinds: c.kinds,
              n: model({ value: n }), kind: model({ active: c.kinds.indexOf(c.st.kind) }),
              p: model({ value: c.st.p, end: n }), w: model({ value: c.st.w, end: n }),
              causal_window: model({ active: c.st.causal ? [0] : [] }), contrast: model({ active: c.st.contrast ? 1 : 0 }),
              y_range: model({ factors: c.factors.rows }), x_keys: model({ factors: c.factors.keys_range }),
              x_sum: model({ factors: c.factors.keys_sum_range }), norm_x: model({ end: d._norm_end }),
              texts: [model({ text_font_size: { value: "10pt" } })], notes: model({ text: d._notes }),
              checks_table: model({ text: "" }), plot: model({}), weights_plot: model({ visible: true }),
              cweights_plot: model({ visible: false }), output_plot: model({ visible: true }),
              coutput_plot: model({ visible: false }) };
  for (const [k, src] of [["mask", "mask"], ["scores", "scores"], ["weights", "weights"], ["row_sums", "row_sums"],
                          ["output", "output"], ["cweights", "contrast_weights"], ["crow_sums", "contrast_row_sums"],
                          ["coutput", "contrast_output"], ["norms", "norms"], ["checks", "checks"]])
    a[k] = model({ data: copy(d[src]) });
  return a;
}
function page(a) {  // what the page holds: its settings, its mask, the link it writes
  return { values: L.url_values(a), allowed: Array.from(a.mask.data.allowed), n_rows: a.y_range.factors.length,
           weights: Array.from(a.weights.data.value), url: AELink.fields(a.link, L.url_values(a), L.url_format) };
}
function run(c) {
  if (c.kind === "view") {
    const s = M.masking_steps(c.rec.Q, c.rec.K, c.rec.V, c.mask, null);
    const d = L.view_data(c.st, s, c.mask, c.rec), dd = {};
    for (const k of Object.keys(d)) {
      if (k.startsWith("_")) { dd[k] = d[k]; continue; }
      dd[k] = {};
      for (const col of Object.keys(d[k])) dd[k][col] = enc(d[k][col]);
    }
    const a = make_a(c);
    a.mask.data.allowed = [].concat(...c.mask);
    return { view: dd, url: page(a).url, fit: L.fit_cells(c.mask, c.fit_to), checks_table: L.checks_table_html(d.checks) };
  }
  if (c.kind === "link") {  // an exported page reading its link (page.js: AELink.apply_plate with the glue)
    const a = make_a(c);
    const notices = AELink.apply_plate(a, new URLSearchParams(c.pairs), L);
    return { notices: notices, page: page(a) };
  }
  if (c.kind === "tap") {  // a tap on cell (i, j): busy while the taps go on, then one commit of the mask
    const a = make_a(c), n = c.st.n;
    L.on_tap(a, { x: c.j + 0.5, y: n - 1 - c.i + 0.5 });
    const sent = () => a.mask.sets.filter((s) => s[1].check_eq === false).length;
    const during = { tags: a.sync.tags.slice(), sent: sent() };
    return new Promise((resolve) => setTimeout(() => {
      resolve({ during: during, tags: a.sync.tags, sent: sent(), page: page(a), kind: a.kind.active });
    }, AESync.STILL_MS + 100));
  }
  if (c.kind === "widgets") {  // a run of widget changes: busy at once, one commit once they are still
    const a = make_a(c);
    const seen = [];
    for (const [name, prop, value] of c.steps) { a[name][prop] = value; L.on_widget(a); seen.push(a.sync.tags.slice()); }
    return new Promise((resolve) => setTimeout(() => {
      const sent = ["n", "kind", "p", "w", "causal_window", "contrast"].filter((k) => a[k].sets.some((s) => s[1].check_eq === false));
      resolve({ during: seen, after: a.sync.tags, sent: sent, page: page(a) });
    }, AESync.STILL_MS + 100));
  }
  if (c.kind === "reset") {
    const a = make_a(c);
    L.on_reset(a);
    return { tags: a.sync.tags, page: page(a) };
  }
  throw new Error("unknown kind " + c.kind);
}
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
Promise.all(cases.map((c) => { try { return Promise.resolve(run(c)); } catch (e) { return { error: String(e.stack || e) }; } }))
  .then((out) => process.stdout.write(JSON.stringify(out)));
"""


def glue_case(kind: str, state=None, **more) -> dict:
    """A case for the GLUE driver: the page Python builds for `state` (the defaults if None)."""
    from app.plates.masking.data import factors, view_data
    from app.plates.masking.state import KINDS, RECIPES, MaskingState

    s = state if state is not None else MaskingState()
    py = view_data(s)
    py = {k: ({c: ["-inf" if v == -np.inf else v for v in col] for c, col in d.items()} if isinstance(d, dict) else d)
          for k, d in py.items()}
    py["scores"]["value"] = [0.0 if v == "-inf" else v for v in py["scores"]["value"]]  # JSON has no -inf
    return {"kind": kind, "link": s.url_spec(), "kinds": KINDS, "factors": factors(s.n), "py": py,
            "recipes": {str(k): {"Q": v[0].tolist(), "K": v[1].tolist(), "V": v[2].tolist()} for k, v in RECIPES.items()},
            "st": {"n": s.n, "kind": s.kind, "p": min(s.p, s.n), "w": min(s.w, s.n), "causal": s.causal_window,
                   "contrast": s.contrast}, **more}


def run_glue(cases: list[dict]) -> list[dict]:
    got = run_driver(GLUE, cases, scripts=(library_file("masking.js"),), expect=len(cases))
    for c, g in zip(cases, got):
        assert "error" not in g, (c["kind"], g["error"])
    return got


def parity_states():
    from app.plates.masking.state import N_MAX, MaskingState

    rng = np.random.default_rng(11)
    states = [MaskingState(), MaskingState(contrast=True), MaskingState(kind="none", n=3),
              MaskingState(kind="padding", p=5), MaskingState(kind="padding", p=1, n=8, contrast=True),
              MaskingState(kind="window", w=3, causal_window=False, n=6)]
    for k in range(14):
        n = int(rng.integers(3, N_MAX + 1))
        cells = rng.random((n, n)) < 0.5
        if k % 3 == 0:
            cells[rng.integers(n)] = False
        states.append(MaskingState(kind="custom", n=n, cells=cells, contrast=bool(k % 2)))
    return states


def test_masking_js_writes_exactly_what_python_writes():
    from app.plates.masking.data import SOURCES, checks_table_html, view_data
    from app.plates.masking.state import fit_cells

    states = parity_states()
    cases = []
    for k, s in enumerate(states):
        Q, K, V = s.qkv()
        cases.append(glue_case("view", s, rec={"Q": Q.tolist(), "K": K.tolist(), "V": V.tolist()},
                               mask=s.mask().tolist(), fit_to=3 + k % 6))
    results = run_glue(cases)
    for s, case, res in zip(states, cases, results):
        want = view_data(s)
        got = res["view"]
        for name in SOURCES:
            assert set(got[name]) == set(want[name]), name
            for col, values in want[name].items():
                have = got[name][col]
                assert len(have) == len(values), (name, col)
                for x, y in zip(have, values):
                    if isinstance(y, float):
                        x = float("-inf") if x == "-inf" else x
                        assert x == y or abs(x - y) <= 1e-12, (name, col, x, y)
                    else:
                        assert x == y, (s.to_url(), name, col, x, y)
        assert got["_notes"] == want["_notes"]
        assert got["_scores_title"] == want["_scores_title"]
        assert res["checks_table"] == checks_table_html(want["checks"])
        assert abs(got["_norm_end"] - want["_norm_end"]) <= 1e-12
        assert res["url"] == s.to_url(), (res["url"], s.to_url())  # link.js with url_values and url_format
        assert res["fit"] == fit_cells(np.array(case["mask"]), case["fit_to"]).tolist()


def test_taps_mark_the_page_busy_and_end_in_one_commit_of_the_mask_once_still():
    """masking.js's half of the protocol for a tap: the page shows the flipped cell at once and a.sync
    is "busy" while taps may follow (taps in a row are a run, as a held key is); once they have been
    still (AESync.STILL_MS) one commit sends the mask and the mark goes."""
    from app.plates.masking.state import MaskingState

    base = MaskingState(kind="padding", p=1)
    got = run_glue([glue_case("tap", base, i=0, j=0), glue_case("tap", MaskingState(), i=2, j=4)])
    for (i, j), state0, g in zip([(0, 0), (2, 4)], [base, MaskingState()], got):
        want = MaskingState(**{k: getattr(state0, k) for k in ("n", "kind", "p", "w")})
        want.flip(i, j)
        assert g["during"] == {"tags": ["busy"], "sent": 0}, g["during"]
        assert g["tags"] == [] and g["sent"] == 1 and g["kind"] == 4, g
        assert g["page"]["allowed"] == want.mask().ravel().tolist()
        assert g["page"]["url"] == want.to_url()
        np.testing.assert_allclose(g["page"]["weights"], want.steps().weights.ravel(), rtol=0, atol=1e-12)


def test_a_run_of_widget_changes_is_busy_until_still_then_commits_the_widgets():
    """A held arrow key on n (steps in a row): a.sync is "busy" from the first step; once the widgets
    are still (AESync.STILL_MS) one commit sends them as the page holds them, and the mark goes."""
    from app.plates.masking.state import MaskingState

    steps = [["n", "value", 6], ["n", "value", 7], ["n", "value", 8], ["kind", "active", 2]]
    g = run_glue([glue_case("widgets", MaskingState(), steps=steps)])[0]
    assert g["during"] == [["busy"]] * 4 and g["after"] == [], g
    assert g["sent"] == ["n", "kind", "p", "w", "causal_window", "contrast"]
    want = MaskingState(n=8, kind="padding")
    assert g["page"]["n_rows"] == 8 and g["page"]["url"] == want.to_url()
    assert g["page"]["allowed"] == want.mask().ravel().tolist()


def test_reset_puts_the_defaults_back_from_the_link_spec():
    """The reset button takes the defaults from a.link (the state's url_spec), not a copy of its own."""
    from app.plates.masking.state import MaskingState

    g = run_glue([glue_case("reset", MaskingState(kind="window", n=7, w=4, contrast=True))])[0]
    assert g["tags"] == [] and g["page"]["url"] == {}
    assert g["page"]["allowed"] == MaskingState().mask().ravel().tolist()


def test_exported_link_reading_matches_served():
    """An exported page reads its link with link.js and masking.js (AELink.apply_plate), a served
    one with MaskingState.apply_url: the same notices, word for word, and the same page: its
    settings, the mask it shows and the link it writes back. (Before the one link owner, this
    compared masking.js's own read_link's values with the state's; the page is what they became.)"""
    from test_mirror_links import N_LINKS, links, served_reading

    from app.plates.masking.state import MaskingState

    cases = links(MaskingState, 11)
    base = glue_case("link")
    got = run_glue([{**base, "pairs": pairs} for pairs in cases])
    noticed = 0
    for pairs, js in zip(cases, got):
        state, notices = served_reading(MaskingState, pairs)
        assert js["notices"] == notices, pairs
        noticed += bool(notices)
        values = js["page"]["values"]
        for name in ("n", "kind", "p", "w", "causal_window", "contrast"):
            assert values[name] == getattr(state, name), (name, pairs)
        want_cells = state.mask().tolist() if state.kind == "custom" else None
        assert values["cells"] == want_cells, pairs
        assert js["page"]["allowed"] == state.mask().ravel().tolist(), pairs
        assert js["page"]["url"] == state.to_url(), pairs
    assert noticed > N_LINKS // 2  # the links were hostile enough to need notices
