"""What the learn plate shows, from its state with attention_core: the run replayed from its seed
(`replay`: attention_core.train, kept in a small cache so that a page that pauses at step 300,
then at 600, costs 300 steps the second time), every named source's data (`sources`) and the
Divs' texts (`texts`). learn.js builds the same dicts and strings in the browser."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache

import numpy as np

import attention_core as ac
from app.plates.learn.state import D_MODEL, MAX_STEP, PRESET_LABELS, SEEDS, STORIES, T, LearnState
from app.shared.formatting import MINUS, fix, sci

FLOOR = 1e-12  # the log-scale charts draw a value below this (a gradient of exactly 0) at this height
CHECKPOINT = 100  # the cache keeps the state every this many steps
CACHED_RUNS = 16
MAX_WIDTH = 64  # the widest d_k: each seed's draws cover two D_MODEL × MAX_WIDTH maps


# --- the run ---------------------------------------------------------------------------------
@dataclass
class Run:
    """One setting's run as far as it has been replayed: loss and gradient norm at steps 0..n,
    the state at every CHECKPOINT-th step and at n, and the step it could not pass (if any)."""

    loss: list = field(default_factory=list)
    grad: list = field(default_factory=list)
    checkpoints: dict = field(default_factory=dict)
    stopped: str = ""  # why the run cannot go past its last step ('' while it can)

    @property
    def last(self) -> int:
        return len(self.loss) - 1


_runs: OrderedDict = OrderedDict()  # TrainSettings -> Run, least recently used first


def _extend(settings: ac.TrainSettings, run: Run, step: int) -> None:
    """Replay `run` up to `step` with attention_core.train, CHECKPOINT steps at a time."""
    while run.last < step and not run.stopped:
        start = run.checkpoints[run.last]
        n = min(CHECKPOINT - run.last % CHECKPOINT, step - run.last)
        try:
            state, history = ac.train(settings, n, state=start)
        except ValueError:  # a step overflows float64: replay one step at a time to the last good one
            n, state, history = _to_the_edge(settings, run, start)
            if n == 0:
                return
        run.loss += history.loss[1:].tolist()
        run.grad += history.grad_norm[1:].tolist()
        run.checkpoints[run.last] = state


def _to_the_edge(settings, run: Run, start):
    """The steps from `start` that still work (the run stops there, and says why)."""
    state, n = start, 0
    while True:
        try:
            nxt = ac.train_step(settings, state)
            ac.head_readout(settings, nxt)
        except ValueError:
            run.stopped = f"step {start.step + n + 1} overflows float64: the run stops at step {start.step + n}"
            break
        state, n = nxt, n + 1
    if n == 0:
        return 0, start, None
    state, history = ac.train(settings, n, state=start)
    return n, state, history


def replay(settings: ac.TrainSettings, step: int):
    """(state, loss (n+1,), grad_norm (n+1,), note) after n = min(step, the last step that works)
    steps of `settings`' run from its seed: attention_core.train's numbers."""
    run = _runs.pop(settings, None)
    if run is None:
        start = ac.init_state(settings)
        r = ac.head_readout(settings, start)
        run = Run(loss=[r.loss], grad=[r.grad_norm], checkpoints={0: start})
    _runs[settings] = run
    while len(_runs) > CACHED_RUNS:
        _runs.popitem(last=False)
    _extend(settings, run, step)
    n = min(step, run.last)
    base = max(k for k in run.checkpoints if k <= n)
    state = run.checkpoints[base]
    for _ in range(n - base):
        state = ac.train_step(settings, state)
    note = run.stopped if n < step else ""
    return state, np.array(run.loss[: n + 1]), np.array(run.grad[: n + 1]), note


# --- numbers as written (learn.js's short and pct) -------------------------------------------
def short(x: float) -> str:
    """0, 0.783, 12.321, 2000.000; 4.9e-8 below 0.01; negative with a true minus."""
    x = float(x)
    if x == 0:
        return "0"
    s = fix(x, 3) if abs(x) >= 0.01 else sci(x, 1)
    return MINUS + s[1:] if s.startswith("-") else s


def cell_text(w: float) -> str:
    """A weight on its cell: two decimals."""
    return fix(w, 2)


# --- the sources ---------------------------------------------------------------------------
@cache
def init_normals() -> dict:
    """Each seed's first 2·D_MODEL·MAX_WIDTH standard normal draws (default_rng(seed)), column
    "s<seed>": attention_core's init_state draws its maps from this stream, W_Q then W_K, each
    D_MODEL × d_k row by row, times init_scale / √d_model. learn.js builds the start from it."""
    return {f"s{k}": np.random.default_rng(k).standard_normal(2 * D_MODEL * MAX_WIDTH) for k in range(SEEDS)}


def matrix_data(m: np.ndarray) -> dict:
    """A matrix's cells row by row: r, c, value."""
    rows, cols = m.shape
    return {"r": [r for r in range(rows) for _ in range(cols)], "c": [c for _ in range(rows) for c in range(cols)],
            "value": [float(v) for v in m.ravel()]}


def pattern_data(w: np.ndarray) -> dict:
    """A T × T attention pattern row by row: i (the token that reads), j (the token read), weight, text."""
    d = matrix_data(w)
    return {"i": d["r"], "j": d["c"], "weight": d["value"], "text": [cell_text(v) for v in d["value"]]}


def maps(settings: ac.TrainSettings, state: ac.TrainState) -> tuple[np.ndarray, np.ndarray]:
    """(W_Q, W_K) as the head uses them: the two maps, one map twice, or the identity twice."""
    p = state.params
    if settings.tie == "none":
        return p["W_Q"], p["W_K"]
    if settings.tie == "shared":
        return p["W_QK"], p["W_QK"]
    eye = np.eye(D_MODEL)  # (d_model, d_model) Q = K = X
    return eye, eye


def numbers(state: LearnState) -> dict:
    """The run at the state's step: attention_core's readout, maps and history."""
    settings = state.settings()
    st, loss, grad, note = replay(settings, state.step)
    r = ac.head_readout(settings, st)
    W_Q, W_K = maps(settings, st)
    return {"settings": settings, "readout": r, "W_Q": W_Q, "W_K": W_K, "loss": loss, "grad": grad,
            "step": st.step, "note": note, "state": st}


def state_data(state: ac.TrainState) -> dict:
    """The optimiser's state, every map's cells in turn (W_Q then W_K, or W_QK; none for Q = K = X):
    name, r, c, param, m, v. A served page takes it from Python's answer and trains on from it."""
    out = {"name": [], "r": [], "c": [], "param": [], "m": [], "v": []}
    for name in ac.training.PARAM_NAMES[_tie_of(state)]:
        cells = matrix_data(state.params[name])
        out["name"] += [name] * len(cells["r"])
        out["r"] += cells["r"]
        out["c"] += cells["c"]
        out["param"] += cells["value"]
        out["m"] += [float(v) for v in state.m[name].ravel()]
        out["v"] += [float(v) for v in state.v[name].ravel()]
    return out


def _tie_of(state: ac.TrainState) -> str:
    names = tuple(sorted(state.params))
    return {("W_K", "W_Q"): "none", ("W_QK",): "shared", (): "identity"}[names]


def rendered_data(state: LearnState) -> dict:
    """The state the page's numbers are for (learn.js compares it with its own run)."""
    return {"step": [state.step], "lr": [state.lr], "optimizer": [state.optimizer], "d_k": [state.d_k],
            "scaled": [state.scaled], "tie": [state.tie], "init_scale": [state.init_scale], "seed": [state.seed]}


def history_data(values: np.ndarray, name: str) -> dict:
    return {"step": list(range(len(values))), name: [float(v) for v in values],
            "y": [max(float(v), FLOOR) for v in values]}


def live_sources(state: LearnState, nums: dict | None = None) -> dict[str, dict]:
    """The sources that follow the state."""
    nums = numbers(state) if nums is None else nums
    r = nums["readout"]
    return {
        "rendered": rendered_data(state),
        "run": {"step": [state.step]},
        "train_loss": history_data(nums["loss"], "loss"),
        "grad_norm": history_data(nums["grad"], "value"),
        "learned_weights": pattern_data(r.weights),
        "w_q": matrix_data(nums["W_Q"]),
        "w_k": matrix_data(nums["W_K"]),
        "qk": matrix_data(r.qk),
        "readout": {"step": [nums["step"]], "loss": [r.loss], "grad_norm": [r.grad_norm], "asymmetry": [r.asymmetry],
                    "min_target_mass": [float(np.min(r.target_mass))]},
        "train_state": state_data(nums["state"]),
    }


def sources(state: LearnState) -> dict[str, dict]:
    """Every named source's data for `state`: what the page shows once Python has answered."""
    return {**live_sources(state), "target_weights": pattern_data(ac.target_weights(T)),
            "init_normals": {k: v.tolist() for k, v in init_normals().items()}}


def decades(values) -> tuple[float, float]:
    """A log axis's range for `values` (drawn at FLOOR or above): the whole powers of ten around them,
    two decades apart at least (one would get one tick), and a little room, so a nearly constant curve is drawn flat
    (learn.js's decades)."""
    ys = [max(float(v), FLOOR) for v in values]
    lo = math.floor(math.log10(min(ys)) + 1e-9)
    hi = math.ceil(math.log10(max(ys)) - 1e-9)
    # from text (the browser's 1e-5 is this one), with a margin so the end ticks are drawn
    return float(f"1e{lo}") / 1.4, float(f"1e{max(hi, lo + 2)}") * 1.4


def steps_shown(last: int) -> int:
    """The end of the curves' step axis: the least of 10, 20, 50, 100, 200, 500, ... that holds
    step `last`. It stays put for most steps, so a step redraws the curves and not their axes
    (learn.js's steps_shown)."""
    end = 10
    while end < last:
        end = end * 5 // 2 if str(end)[0] == "2" else end * 2
    return end


def limits(nums: dict) -> dict:
    """The half-width of the signed colour scales (the maps share one, W_Q W_Kᵀ has its own) and
    the curves' log ranges."""
    def half(*ms):
        m = max(float(np.max(np.abs(x))) for x in ms)
        return m if m > 0 else 1.0
    return {"maps": half(nums["W_Q"], nums["W_K"]), "qk": half(nums["readout"].qk),
            "loss": decades(nums["loss"]), "grad": decades(nums["grad"]), "steps": steps_shown(len(nums["loss"]) - 1)}


# --- the texts ------------------------------------------------------------------------------
def readout_html(step: int, loss: float, grad: float, asym: float, worst: float, tie: str, note: str) -> str:
    """The line above the charts; learn.js's readout_html writes the same."""
    if tie == "identity":
        sym = "Q = K = X: no weights to learn, and S = X Xᵀ is symmetric"
    elif asym == 0:
        sym = "max |S − Sᵀ| = 0: the scores are symmetric, so i → i+1 weighs what i+1 → i weighs"
    else:
        sym = f"max |S − Sᵀ| = {short(asym)}: the scores are not symmetric"
    last = " (the last step)" if step >= MAX_STEP else ""
    big = f"step {step}{last} · loss {short(loss)} · gradient norm {short(grad)}"
    sub = f"{sym} · the worst row puts {fix(100 * worst, 1)}% on its target"
    if note:
        sub += f" · {note}"
    return f"<div class='ae-learn-readout'><span class='ae-big'>{big}</span><span class='ae-sub'>{sub}</span></div>"


def story_html(name: str, stall: str = "") -> str:
    """The story these settings tell; without one, why the run stalled (`stall`: STALL) or what to
    do. learn.js's story_html writes the same."""
    if name:
        return f"<div class='ae-story'><b>{PRESET_LABELS[name]}.</b> {STORIES[name]}</div>"
    if stall:
        return f"<div class='ae-story'>{stall}</div>"
    return ("<div class='ae-story'>Press <b>Train</b>, or pick a story above. Every setting replays the run "
            "from its seed to the same step.</div>")


# Why a run that attention_core calls stalled (ac.stalled) no longer moves, for a student. It names
# no number (the readout above it shows the gradient norm), so it stays as it is while a stalled run
# trains on: the story's text is written at every frame, and a new text lays the page out again.
# learn.js's STALL says the same.
STALL = ("<b>Training has stalled: the softmax saturated.</b> Every row of the weights is one-hot (one "
         "weight near 1, the rest near 0), and some rows sit on the wrong token. A one-hot softmax hardly "
         "changes when its scores change, so the gradient that reaches W_Q and W_K has vanished (the "
         "gradient norm above) and no step moves them. Scores this large come from a large initial scale, "
         "or from a learning rate that throws them there in a few steps: lower it, and the run replays "
         "from its start.")


def message_html(message: str) -> str:
    return f"<div class='ae-learn-message' role='alert'>{message}</div>" if message else ""


def texts(state: LearnState, nums: dict | None = None) -> dict[str, str]:
    """Every named Div's text for `state`."""
    nums = numbers(state) if nums is None else nums
    r = nums["readout"]
    return {"readout_div": readout_html(nums["step"], r.loss, r.grad_norm, r.asymmetry, float(np.min(r.target_mass)),
                                        state.tie, nums["note"]),
            "story": story_html(state.story(), STALL if ac.stalled(r) else ""),
            "message": message_html(state.message)}
