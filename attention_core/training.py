"""A head that learns: one attention head trained by gradient descent on a toy task.

The task. T tokens, each a one-hot row of X (T, d_model) (so d_model >= T), and every token
must attend to the NEXT one: token i to token (i + 1) mod T, a cyclic shift. The relation is
asymmetric (1 attends to 2, but 2 does not attend to 1), which is the point: with one-hot
tokens the scaled score matrix is S = scale · (W_Q W_Kᵀ)[:T, :T], and only separate query and
key maps can make it asymmetric.

The values are fixed, V = X (no value map is learned), and the target output is
Y = A_target X, i.e. Y[i] = X[(i + 1) mod T]. With one-hot values the head's output row i IS
its attention row i, so the loss

    L = (1/T) Σ_i ‖output_i − Y_i‖² = (1/T) Σ_i ‖a_i − e_{(i+1) mod T}‖²

is the mean squared distance between the attention pattern and the target pattern (0 when
every row puts all its mass on its target, 2 at worst). A learned value map is left out on
purpose: with one, any invertible attention pattern could be undone by the values
(V = A⁻¹Y), so a head that looks at itself (the diagonal) plus a value map that shifts the
tokens would reach zero loss without ever learning where to look.

Ties. `tie="none"`: separate W_Q and W_K (d_model, d_k). `tie="shared"`: one matrix W_QK serves
as both (its gradient is the sum of the two roles'). `tie="identity"`: Q = K = X, no score
parameters at all (needs d_k = d_model). Tied maps give a symmetric score matrix, and a
symmetric S cannot hold the shift: for every row i to prefer i + 1 to i − 1 would need
S_{i,i+1} > S_{i,i−1} = S_{i−1,i} all the way round the cycle: S_01 < S_12 < … < S_{T−1,0} <
S_01. So some row keeps at most half its mass on its target, which alone keeps L >= 1/(2T) (T >= 3; at T = 2
the shift is a swap, a symmetric relation, hence T >= 3 here). Numerically no symmetric 6 × 6
score matrix gets below L = 1/4 (Adam on a free symmetric S from 30 random starts: every row but
one on its target, that one split between its predecessor and itself); a shared map's S is also
positive semi-definite, and its runs stay above about 0.31. Since S_ij <= √(S_ii S_jj) for such
an S, the diagonal (a token with itself) tends to win each row (seed 004's claim): at a shared
map's random start it does in 94 % of rows.

Optimisers: plain gradient descent ("gd") and Adam ("adam": betas 0.9 and 0.999, eps 1e-8,
with bias correction). Weights start as Normal(0, init_scale² / d_model), seeded by
`np.random.default_rng(seed)`; a large init_scale makes the scores large, the softmax
saturates (one weight near 1 per row) and the gradients vanish.

Every function is pure: a state goes in, a new state comes out, nothing is mutated (the
state's arrays are read-only).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array, safe_norm
from .attention import attention
from .backward import _grads_from_weights

TIES = ("none", "shared", "identity")
OPTIMIZERS = ("gd", "adam")
BETA1, BETA2, ADAM_EPS = 0.9, 0.999, 1e-8
MAX_T = 64  # a plate shows a T × T pattern: beyond this it is no longer a picture
MAX_WIDTH = 256
MAX_STEPS = 100_000
PARAM_NAMES = {"none": ("W_Q", "W_K"), "shared": ("W_QK",), "identity": ()}


def _whole(value, name: str, low: int, high: int) -> int:
    """`value` as an int in [low, high]; ValueError naming it otherwise (bools and fractions refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if not isinstance(value, numbers.Integral):
        if not (math.isfinite(value) and float(value).is_integer()):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


def _positive(value, name: str) -> float:
    """`value` as a finite float > 0; ValueError naming it otherwise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number above 0, got {value}")
    return value


@dataclass(frozen=True)
class TrainSettings:
    """Everything that decides a training run: the task's size, the head, the optimiser, the seed.

    T >= 3 tokens (one-hot, so d_model >= T), query/key width d_k, `scaled` divides the scores by
    √d_k, `tie` in TIES, `optimizer` in OPTIMIZERS with learning rate `lr`, weights drawn with
    standard deviation init_scale / √d_model from default_rng(seed).
    """

    T: int = 6
    d_model: int = 8
    d_k: int = 8
    seed: int = 0
    lr: float = 0.05
    optimizer: str = "adam"
    scaled: bool = True
    tie: str = "none"
    init_scale: float = 1.0

    def __post_init__(self):
        set_ = object.__setattr__  # frozen: the checked values replace the given ones
        set_(self, "T", _whole(self.T, "T", 3, MAX_T))
        set_(self, "d_model", _whole(self.d_model, "d_model", 1, MAX_WIDTH))
        set_(self, "d_k", _whole(self.d_k, "d_k", 1, MAX_WIDTH))
        set_(self, "seed", _whole(self.seed, "seed", 0, 2**63 - 1))
        set_(self, "lr", _positive(self.lr, "lr"))
        set_(self, "init_scale", _positive(self.init_scale, "init_scale"))
        if self.d_model < self.T:
            raise ValueError(f"one-hot tokens need d_model >= T, got d_model = {self.d_model} and T = {self.T}")
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {OPTIMIZERS}, got {self.optimizer!r}")
        if self.tie not in TIES:
            raise ValueError(f"tie must be one of {TIES}, got {self.tie!r}")
        if self.tie == "identity" and self.d_k != self.d_model:
            raise ValueError(f"tie='identity' uses Q = K = X, so d_k must equal d_model = {self.d_model}, got {self.d_k}")
        if not isinstance(self.scaled, (bool, np.bool_)):
            raise ValueError(f"scaled must be True or False, got {self.scaled!r}")
        set_(self, "scaled", bool(self.scaled))

    @property
    def scale(self) -> float:
        """What the scores are multiplied by: 1/√d_k when `scaled`, else 1."""
        return 1.0 / math.sqrt(self.d_k) if self.scaled else 1.0


@dataclass(frozen=True, eq=False)
class TrainState:
    """The head's parameters and the optimiser's memory after `step` steps.

    `params`, `m` and `v` map PARAM_NAMES[tie] to read-only (d_model, d_k) arrays; m and v are
    Adam's first and second moments (zeros, and unused, for plain gradient descent). Each state
    has dicts and arrays of its own, so changing one state can never change another.
    """

    params: dict
    m: dict
    v: dict
    step: int


@dataclass(frozen=True, eq=False)
class HeadReadout:
    """What the plate shows about a head at one state."""

    loss: float
    output: np.ndarray  # (T, d_model) the head's output, = weights padded with zeros (one-hot values)
    weights: np.ndarray  # (T, T) attention weights
    scores: np.ndarray  # (T, T) scaled scores, what the softmax sees
    target: np.ndarray  # (T, T) the target pattern: 1 at (i, (i + 1) mod T)
    target_mass: np.ndarray  # (T,) each row's weight on its target key
    qk: np.ndarray  # (d_model, d_model) W_Q W_Kᵀ, the bilinear form the scores read (unscaled)
    grad_norm: float  # ‖∂L/∂(score parameters)‖, Frobenius over all of them; 0 for tie="identity"
    asymmetry: float  # max |S − Sᵀ| over the scaled scores: 0 means the head cannot tell i→j from j→i
    step: int


@dataclass(frozen=True, eq=False)
class TrainHistory:
    """One entry per state of a run, from the start (index 0) to after the last step."""

    loss: np.ndarray  # (steps + 1,)
    grad_norm: np.ndarray  # (steps + 1,)
    min_target_mass: np.ndarray  # (steps + 1,) the worst row's weight on its target
    asymmetry: np.ndarray  # (steps + 1,) max |S − Sᵀ|


def _frozen(arrays: dict) -> dict:
    """Read-only copies of `arrays`, so no caller can change a state's numbers in place."""
    out = {}
    for name, a in arrays.items():
        a = np.array(a, dtype=np.float64)  # (d_model, d_k)
        a.flags.writeable = False
        out[name] = a
    return out


def one_hot_tokens(T: int, d_model: int) -> np.ndarray:
    """The task's tokens: token i is the i-th standard basis vector, (T, d_model)."""
    T = _whole(T, "T", 1, MAX_T)
    d_model = _whole(d_model, "d_model", 1, MAX_WIDTH)
    if d_model < T:
        raise ValueError(f"one-hot tokens need d_model >= T, got d_model = {d_model} and T = {T}")
    return np.eye(T, d_model)  # (T, d_model)


def target_weights(T: int) -> np.ndarray:
    """The target attention pattern: row i puts all its weight on key (i + 1) mod T, (T, T)."""
    T = _whole(T, "T", 1, MAX_T)
    return np.roll(np.eye(T), 1, axis=1)  # (T, T)


def _check_settings(settings) -> None:
    """ValueError unless `settings` is a TrainSettings (whose own checks have then run)."""
    if not isinstance(settings, TrainSettings):
        raise ValueError(f"settings must be a TrainSettings, got {type(settings).__name__}")


def init_state(settings: TrainSettings) -> TrainState:
    """The starting state: weights ~ Normal(0, init_scale² / d_model) from default_rng(seed), moments 0."""
    _check_settings(settings)
    rng = np.random.default_rng(settings.seed)  # (generator) seeded
    std = settings.init_scale / math.sqrt(settings.d_model)
    shape = (settings.d_model, settings.d_k)
    params = {name: rng.normal(0.0, std, size=shape) for name in PARAM_NAMES[settings.tie]}  # (d_model, d_k) each
    zeros = {name: np.zeros(shape) for name in params}  # (d_model, d_k) each
    return TrainState(params=_frozen(params), m=_frozen(zeros), v=_frozen(zeros), step=0)


def _check_params(settings: TrainSettings, params) -> dict:
    """`params` as float arrays with the names and shapes the tie needs; ValueError otherwise."""
    want = PARAM_NAMES[settings.tie]
    if not isinstance(params, Mapping):
        raise ValueError(f"parameters must be a mapping of names to arrays, got {type(params).__name__}")
    if sorted(map(str, params)) != sorted(want) or not all(isinstance(k, str) for k in params):
        raise ValueError(f"tie={settings.tie!r} needs parameters {list(want)}, got {sorted(map(repr, params))}")
    shape = (settings.d_model, settings.d_k)
    out = {}
    for name in want:
        a = as_float_array(params[name], name, 2)  # (d_model, d_k)
        if a.shape != shape:
            raise ValueError(f"{name} must have shape (d_model, d_k) = {shape}, got {a.shape}")
        out[name] = a
    return out


def _score_maps(settings: TrainSettings, params: dict) -> tuple[np.ndarray, np.ndarray]:
    """(W_Q, W_K) for the tie: the two maps, one map twice, or the identity twice."""
    if settings.tie == "none":
        return params["W_Q"], params["W_K"]
    if settings.tie == "shared":
        return params["W_QK"], params["W_QK"]
    eye = np.eye(settings.d_model)  # (d_model, d_model) Q = K = X
    return eye, eye


@functools.lru_cache(maxsize=8)
def _task(T: int, d_model: int) -> tuple[np.ndarray, np.ndarray]:
    """(X, Y) of the task, read-only: the same at every step of a run, so made once."""
    X = one_hot_tokens(T, d_model)  # (T, d_model)
    Y = target_weights(T) @ X  # (T, d_model) Y[i] = X[(i + 1) mod T]
    X.flags.writeable = Y.flags.writeable = False
    return X, Y


def _forward(settings: TrainSettings, params: dict):
    """The head on the task: (X, Q, K, output, weights, Y)."""
    X, Y = _task(settings.T, settings.d_model)  # (T, d_model) each
    W_Q, W_K = _score_maps(settings, params)
    Q = X @ W_Q  # (T, d_k)
    K = X @ W_K  # (T, d_k)
    output, weights = attention(Q, K, X, scale=settings.scale)  # (T, d_model), (T, T)
    return X, Q, K, output, weights, Y


def _loss_grads_forward(settings: TrainSettings, params: dict):
    """(loss, grads, forward) for checked `params`: one forward pass and one backward pass."""
    fwd = _forward(settings, params)
    X, Q, K, output, weights, Y = fwd
    err = output - Y  # (T, d_model)
    T = settings.T
    loss = float(np.sum(err * err) / T)
    d_output = 2.0 * err / T  # (T, d_model)
    # attention_grads' numbers from the forward pass's weights: it would run attention again on the
    # same Q, K and X (a third of a training step).
    dQ, dK, _ = _grads_from_weights(weights, Q, K, X, d_output, settings.scale)  # (T, d_k), (T, d_k), (T, d_model)
    dW_Q = X.T @ dQ  # (d_model, d_k)
    dW_K = X.T @ dK  # (d_model, d_k)
    if settings.tie == "none":
        grads = {"W_Q": dW_Q, "W_K": dW_K}
    elif settings.tie == "shared":
        grads = {"W_QK": dW_Q + dW_K}
    else:
        grads = {}
    return loss, grads, fwd


def loss_and_grads(settings: TrainSettings, params) -> tuple[float, dict]:
    """The loss (1/T) Σ_i ‖output_i − Y_i‖² and its gradient for each parameter of the tie.

    The output's gradient goes back through `attention_grads` to Q and K, then through
    Q = X W_Q and K = X W_K to the maps (dW = Xᵀ dQ); a shared map collects both.
    """
    _check_settings(settings)
    params = _check_params(settings, params)
    loss, grads, _ = _loss_grads_forward(settings, params)
    return loss, grads


def _grad_norm(grads: dict) -> float:
    """Frobenius norm over all the score parameters' gradients together (0 when there are none)."""
    if not grads:
        return 0.0
    flat = np.concatenate([g.ravel() for g in grads.values()])  # (n_params,)
    return float(safe_norm(flat))  # squares of huge gradients would overflow


def _adam(w, g, m, v, t: int, lr: float):
    """One Adam update of one array at step t (1-based): (new w, new m, new v)."""
    m = BETA1 * m + (1.0 - BETA1) * g  # (d_model, d_k)
    v = BETA2 * v + (1.0 - BETA2) * (g * g)  # (d_model, d_k)
    m_hat = m / (1.0 - BETA1 ** t)  # (d_model, d_k) bias correction: m and v start at 0
    v_hat = v / (1.0 - BETA2 ** t)  # (d_model, d_k)
    w = w - lr * m_hat / (np.sqrt(v_hat) + ADAM_EPS)  # (d_model, d_k)
    return w, m, v


def _checked_state(settings: TrainSettings, state: TrainState) -> tuple[dict, dict, dict]:
    """(params, m, v) of `state` as float arrays, once they fit `settings`; ValueError otherwise."""
    _check_settings(settings)
    if not isinstance(state, TrainState):
        raise ValueError(f"state must be a TrainState, got {type(state).__name__}")
    _whole(state.step, "step", 0, 2**63 - 1)
    return (_check_params(settings, state.params), _check_params(settings, state.m),
            _check_params(settings, state.v))


def train_step(settings: TrainSettings, state: TrainState) -> TrainState:
    """One optimiser step from `state`: a new state; `state` itself is left as it was."""
    params, m, v = _checked_state(settings, state)
    _, grads, _ = _loss_grads_forward(settings, params)
    return _updated(settings, state.step + 1, params, m, v, grads)


def _updated(settings: TrainSettings, t: int, params: dict, m: dict, v: dict, grads: dict) -> TrainState:
    """The state after step t (1-based) applies `grads` to checked (params, m, v)."""
    new_params, new_m, new_v = {}, {}, {}
    with np.errstate(over="ignore", invalid="ignore"):
        for name, g in grads.items():
            if settings.optimizer == "gd":
                new_params[name], new_m[name], new_v[name] = params[name] - settings.lr * g, m[name], v[name]
            else:
                new_params[name], new_m[name], new_v[name] = _adam(params[name], g, m[name], v[name], t, settings.lr)
    for name, w in new_params.items():
        if not (np.all(np.isfinite(w)) and np.all(np.isfinite(new_v[name]))):
            raise ValueError(f"step {t} overflows float64 in {name} (lr {settings.lr}); use a smaller learning rate")
    return TrainState(params=_frozen(new_params), m=_frozen(new_m), v=_frozen(new_v), step=t)


def head_readout(settings: TrainSettings, state: TrainState) -> HeadReadout:
    """Everything the plate draws for `state`: the loss, the pattern against the target, W_Q W_Kᵀ,
    the score maps' gradient norm and how far the scores are from symmetric."""
    params, _, _ = _checked_state(settings, state)
    return _readout_and_grads(settings, params, state.step)[0]


def _readout_and_grads(settings: TrainSettings, params: dict, step: int) -> tuple[HeadReadout, dict]:
    """(the readout, the gradients) of checked `params`: `train` steps on the same gradients it reads out."""
    loss, grads, (_, Q, K, output, weights, _) = _loss_grads_forward(settings, params)
    S = (Q @ K.T) * settings.scale  # (T, T)
    W_Q, W_K = _score_maps(settings, params)
    with np.errstate(over="ignore", invalid="ignore"):
        qk = W_Q @ W_K.T  # (d_model, d_model) rows beyond T never meet a token, so attention did not check them
    if not np.all(np.isfinite(qk)):
        raise ValueError(f"W_Q W_Kᵀ overflows float64 (shape {qk.shape}); use smaller weights")
    target = target_weights(settings.T)  # (T, T)
    readout = HeadReadout(
        loss=loss,
        output=output,
        weights=weights,
        scores=S,
        target=target,
        target_mass=np.sum(weights * target, axis=1),  # (T,)
        qk=qk,
        grad_norm=_grad_norm(grads),
        asymmetry=float(np.max(np.abs(S - S.T))),
        step=step,
    )
    return readout, grads


# A softmax row whose largest weight is at least this is one-hot as far as learning goes: every
# entry of its Jacobian α_i(δ_ij − α_j) is at most 1 − SATURATED = 0.001, so the scores' gradient
# that passes through it shrinks at least a thousandfold (measured: 5e-8 down to 1e-47 here).
SATURATED = 0.999


def stalled(readout: HeadReadout) -> bool:
    """Whether the run has stalled in a saturated softmax: every row puts SATURATED or more of its
    weight on one key, and some row on a key that is not its target. The gradient that reaches
    the maps has then all but vanished while the loss is far from 0, so no step moves the head:
    what a large initial scale starts in, and a large learning rate throws the scores into. (A
    head whose one-hot rows are on their targets has learned; a tied map at its floor is stuck
    with rows that are not saturated, for another reason.)"""
    if not isinstance(readout, HeadReadout):
        raise ValueError(f"stalled() needs a HeadReadout, got {type(readout).__name__}")
    w = readout.weights  # (T, T)
    return bool(np.all(w.max(axis=1) >= SATURATED) and np.any(readout.target_mass < 0.5))


def train(settings: TrainSettings, steps: int, state: TrainState | None = None):
    """`steps` steps from `state` (init_state(settings) if None): (final state, TrainHistory)."""
    steps = _whole(steps, "steps", 0, MAX_STEPS)
    state = init_state(settings) if state is None else state
    params, m, v = _checked_state(settings, state)
    rows = []
    for k in range(steps + 1):
        r, grads = _readout_and_grads(settings, params, state.step)  # one forward and backward serve both
        rows.append((r.loss, r.grad_norm, float(np.min(r.target_mass)), r.asymmetry))
        if k < steps:
            state = _updated(settings, state.step + 1, params, m, v, grads)
            params, m, v = state.params, state.m, state.v  # _updated made and checked them
    cols = np.array(rows, dtype=np.float64).reshape(steps + 1, 4)  # (steps + 1, 4)
    history = TrainHistory(loss=cols[:, 0], grad_norm=cols[:, 1], min_target_mass=cols[:, 2], asymmetry=cols[:, 3])
    return state, history
