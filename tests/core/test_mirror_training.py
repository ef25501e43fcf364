"""mirror.js's backward pass and training step against attention_core's, in node.

- attention_grads on 1,200 seeded random 2-D cases (masks with fully masked rows, scale None,
  1 or a float) agrees to 1e-12: the two sides add the same products in different orders
  (BLAS against plain loops): measured at most 7e-15 apart, on entries up to 11;
- from one seed, 200 steps of train_step in node and 200 in NumPy end with the same parameters
  to 1e-9 relative (measured: at most 3.3e-15), for every tie and both optimisers: the page
  receives its start state from Python (no RNG in JS) and then trains on its own;
- head_readout agrees field by field after those steps, and bad input is refused.
"""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from attention_core.training import PARAM_NAMES, TIES
from node_mirror import run_driver

pytestmark = pytest.mark.node

N_CASES = 1200
GRAD_TOL = 1e-12  # rtol and atol
TRAIN_RTOL = 1e-9
STEPS = 200

GRADS_DRIVER = r"""
const M = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => {
  try { return M.attention_grads(c.Q, c.K, c.V, c.dO, c.mask, c.scale); }
  catch (e) { return { error: String(e.message || e) }; }
})));
"""

TRAIN_DRIVER = r"""
const M = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => {
  try {
    const before = JSON.stringify(c.state);
    let state = c.state;
    for (let k = 0; k < c.steps; k++) state = M.train_step(c.settings, state);
    return { state: state, readout: M.head_readout(c.settings, state), untouched: JSON.stringify(c.state) === before };
  } catch (e) { return { error: String(e.stack || e) }; }
})));
"""


def grad_cases(seed: int = 20240612, count: int = N_CASES) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(count):
        N, M = int(rng.integers(1, 8)), int(rng.integers(1, 8))
        d_k, d_v = int(rng.integers(1, 6)), int(rng.integers(1, 5))
        size = float(rng.choice([0.3, 1.0, 3.0]))
        mask = None if k % 4 == 0 else rng.random((N, M)) < rng.uniform(0.3, 1.0)  # (N, M)
        if mask is not None and k % 5 == 1:
            mask[rng.integers(N)] = False  # a row with nothing allowed
        cases.append({"Q": (rng.normal(size=(N, d_k)) * size).tolist(), "K": (rng.normal(size=(M, d_k)) * size).tolist(),
                      "V": rng.normal(size=(M, d_v)).tolist(), "dO": rng.normal(size=(N, d_v)).tolist(),
                      "mask": None if mask is None else mask.tolist(),
                      "scale": [None, 1.0, float(rng.uniform(0.1, 2.0))][k % 3]})
    return cases


def test_attention_grads_agree_with_numpy():
    cases = grad_cases()
    got = run_driver(GRADS_DRIVER, cases, expect=len(cases))
    empty_rows = 0
    for k, (c, g) in enumerate(zip(cases, got)):
        assert "error" not in g, (k, g)
        want = ac.attention_grads(c["Q"], c["K"], c["V"], c["dO"], mask=c["mask"], scale=c["scale"])
        for name, w in zip(("dQ", "dK", "dV"), want):
            np.testing.assert_allclose(np.array(g[name], dtype=float).reshape(w.shape), w, rtol=GRAD_TOL, atol=GRAD_TOL,
                                       err_msg=f"case {k} {name}")
        if c["mask"] is not None:
            empty = ~np.array(c["mask"]).any(axis=1)  # (N,)
            empty_rows += int(empty.sum())
            assert all(v == 0 for i in np.nonzero(empty)[0] for v in g["dQ"][i]), k  # exactly zero, as in NumPy
    assert len(cases) >= 1000 and empty_rows >= 200


def train_settings() -> list[ac.TrainSettings]:
    out = []
    for tie in TIES:
        for optimizer, lr in (("adam", 0.05), ("gd", 1.0)):
            out.append(ac.TrainSettings(tie=tie, optimizer=optimizer, lr=lr, seed=7))
            d_k = 8 if tie == "identity" else 3
            out.append(ac.TrainSettings(tie=tie, optimizer=optimizer, lr=lr / 2, seed=8, T=5, d_model=8, d_k=d_k,
                                        scaled=False, init_scale=2.0))
    return out


def as_json_state(state: ac.TrainState) -> dict:
    return {"params": {k: a.tolist() for k, a in state.params.items()}, "m": {k: a.tolist() for k, a in state.m.items()},
            "v": {k: a.tolist() for k, a in state.v.items()}, "step": state.step}


def js_settings(s: ac.TrainSettings) -> dict:
    return {"T": s.T, "d_model": s.d_model, "d_k": s.d_k, "lr": s.lr, "optimizer": s.optimizer, "scaled": s.scaled,
            "tie": s.tie}


def assert_close(have, want, what, atol=0.0):
    """Entries within TRAIN_RTOL of the largest entry (plus atol)."""
    have = np.array(have, dtype=float).reshape(np.shape(want))
    scale = float(np.max(np.abs(want), initial=0.0))
    assert np.max(np.abs(have - want), initial=0.0) <= TRAIN_RTOL * scale + atol, what


@pytest.fixture(scope="module")
def trained():
    settings = train_settings()
    cases = []
    for s in settings:
        start = as_json_state(ac.init_state(s))
        cases.append({"settings": js_settings(s), "state": start, "steps": STEPS})
    got = run_driver(TRAIN_DRIVER, cases, expect=len(cases))
    return settings, [numpy_run(s) for s in settings], got


def numpy_run(s: ac.TrainSettings) -> ac.TrainState:
    """STEPS steps of the core's train_step (train() would add a readout per step)."""
    state = ac.init_state(s)
    for _ in range(STEPS):
        state = ac.train_step(s, state)
    return state


def test_200_steps_in_node_end_where_numpy_ends(trained):
    settings, py, got = trained
    for s, state, g in zip(settings, py, got):
        assert "error" not in g, (s, g)
        js = g["state"]
        assert js["step"] == state.step == STEPS
        assert sorted(js["params"]) == sorted(PARAM_NAMES[s.tie])
        for name, want in state.params.items():
            assert_close(js["params"][name], want, (s, name))
        # Where a tied run has settled at its floor the gradients, and so Adam's first moment, are
        # ~0 and their entries partly rounding noise (shared, Adam: m's largest entry is 1.3e-7 at
        # step 200, 1.6e-3 after step 1): the moments get an absolute floor of 1e-15 besides the
        # relative bound (measured: at most 5e-18 apart).
        for part in ("m", "v"):
            for name, want in getattr(state, part).items():
                assert_close(js[part][name], want, (s, part, name), atol=1e-15)
        if s.tie != "identity":  # the run moved: the agreement is not just two copies of the start
            start = ac.init_state(s).params[PARAM_NAMES[s.tie][0]]
            assert np.max(np.abs(state.params[PARAM_NAMES[s.tie][0]] - start)) > 0.1


def test_the_readouts_agree_after_training(trained):
    settings, py, got = trained
    learned = 0
    for s, state, g in zip(settings, py, got):
        want, have = ac.head_readout(s, state), g["readout"]
        for name in ("output", "weights", "scores", "target", "target_mass", "qk"):
            assert_close(have[name], getattr(want, name), (s, name))
        for name in ("loss", "grad_norm"):
            assert abs(have[name] - getattr(want, name)) <= TRAIN_RTOL * max(abs(getattr(want, name)), 1e-12), (s, name)
        assert have["asymmetry"] <= 1e-12 if s.tie != "none" else have["asymmetry"] > 1.0
        assert have["step"] == STEPS
        learned += min(want.target_mass) >= 0.95
    assert learned >= 2  # the separate heads learned the shift on both sides


def test_node_leaves_the_input_state_alone(trained):
    _, _, got = trained
    assert all(g["untouched"] for g in got)


def test_the_mirror_refuses_bad_training_input():
    script = r"""
const M = require(process.argv[1]);
const s = { T: 6, d_model: 8, d_k: 8, lr: 0.05, optimizer: "adam", scaled: true, tie: "none" };
const W = Array.from({ length: 8 }, () => new Array(8).fill(0.1));
const state = { params: { W_Q: W, W_K: W }, m: { W_Q: W, W_K: W }, v: { W_Q: W, W_K: W }, step: 0 };
const msgs = [];
for (const f of [() => M.train_step({ ...s, tie: "shared" }, state), () => M.train_step({ ...s, T: 9 }, state),
                 () => M.train_step({ ...s, optimizer: "sgd" }, state), () => M.train_step({ ...s, d_k: 4 }, state),
                 () => M.attention_grads([[1, 2]], [[1, 0], [0, 1]], [[1], [2]], [[1, 2]], null, null),
                 () => M.train_step({ ...s, lr: -1 }, state)]) {
  try { f(); msgs.push(null); } catch (e) { msgs.push(String(e.message)); }
}
process.stdout.write(JSON.stringify(msgs));
"""
    msgs = run_driver(script)
    assert all(m is not None for m in msgs), msgs
    assert "W_QK" in msgs[0] and "d_model >= T" in msgs[1] and "sgd" in msgs[2]
    assert "(8, 4)" in msgs[3] and "d_output" in msgs[4] and "(1, 1)" in msgs[4] and "lr" in msgs[5]


STALLED_DRIVER = r"""
const M = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => M.stalled(M.head_readout(c.settings, c.state)))));
"""


def test_the_mirror_says_a_run_has_stalled_when_the_core_does():
    """stalled(): the same rule (SATURATED, a row off its target) on the states NumPy reached."""
    runs = [(dict(lr=5.0), 0), (dict(lr=5.0), 60), (dict(init_scale=50.0), 0), (dict(lr=1.0), 300), ({}, 300),
            (dict(tie="shared"), 300), (dict(tie="identity"), 5), (dict(d_k=64, init_scale=3.0, scaled=False), 1000)]
    cases, want = [], []
    for kw, steps in runs:
        s = ac.TrainSettings(**kw)
        state = ac.train(s, steps)[0]
        cases.append({"settings": js_settings(s), "state": as_json_state(state)})
        want.append(ac.stalled(ac.head_readout(s, state)))
    assert run_driver(STALLED_DRIVER, cases, expect=len(cases)) == want
    assert 0 < sum(want) < len(want)  # both answers were met
