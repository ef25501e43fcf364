"""mirror.js's masking functions against attention_core's, in node, on seeded random cases.

causal_mask, padding_mask and window_mask must agree exactly; masked_scores exactly (the same
-inf cells, the same finite values); zero_after_softmax, attention_loop and masking_steps to
1e-12 (the two sides add in different orders). Masks are random, with some rows fully masked.
"""

from __future__ import annotations


import numpy as np
import pytest

import attention_core as ac
from node_mirror import run_driver

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
