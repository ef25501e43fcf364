"""The self-attention plate's state (n, the shuffle, positions, cross-attention), the seed's numbers
it draws from, and every number it shows for one state (`compute`, with attention_core)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import param

import attention_core as ac
from app.shared.state import PlateState

# --- the numbers (the seed's recipe, extended deterministically) ---------------------------
D = 4  # width of every token, query, key and value
N_MIN, N_MAX = 3, 8
MAX_SHUFFLE = 40
SEED_PERM = (3, 0, 4, 1, 2)
LETTERS = "ABCDEFGH"  # names of X's tokens in their original order
Y_LETTERS = "abcdefghij"  # names of Y's tokens (cross-attention)


def seed_recipe() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """attention.py's X (5, 4) and maps Wq, Wk, Wv (4, 4), drawn exactly as the seed draws them."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 4))  # (5, 4)
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))  # (4, 4) each
    return X, Wq, Wk, Wv


X_SEED, WQ, WK, WV = seed_recipe()
X_ALL = np.vstack([X_SEED, np.random.default_rng(1).normal(size=(N_MAX, D))[5:]])  # (8, 4)
Y_ALL = np.random.default_rng(2).normal(size=(N_MAX + 2, D))  # (10, 4)


def seeded_perm(n: int, k: int) -> tuple[int, ...]:
    """Shuffle #k of n tokens: 0 = original order, 1 = the seed's perm when n = 5, else a seeded draw."""
    if k == 0:
        return tuple(range(n))
    if k == 1 and n == len(SEED_PERM):
        return SEED_PERM
    rng = np.random.default_rng([n, k])
    while True:
        p = rng.permutation(n)  # (n,)
        if np.any(p != np.arange(n)):
            return tuple(int(v) for v in p)


PERMS = {n: [seeded_perm(n, k) for k in range(MAX_SHUFFLE + 1)] for n in range(N_MIN, N_MAX + 1)}


# --- the state -----------------------------------------------------------------------------
class SelfAttentionState(PlateState):
    """Everything that defines what the self-attention plate shows; it round-trips through the URL."""

    n = param.Integer(5, bounds=(N_MIN, N_MAX), doc="Number of tokens (rows of X).")
    shuffle = param.Integer(1, bounds=(0, MAX_SHUFFLE),
                            doc="Which seeded order of the tokens: 0 = original, 1 = the seed's perm [3, 0, 4, 1, 2].")
    positions = param.Boolean(False, doc="Add sinusoidal position features to the token at each position (X + PE).")
    cross = param.Boolean(False, doc="Cross-attention: keys and values from a second sequence Y with M = n + 2 rows.")

    url_fields = ("n", "shuffle", "positions", "cross")

    @property
    def perm(self) -> tuple[int, ...]:
        return PERMS[self.n][self.shuffle]

    def frame(self) -> Frame:
        return compute(self.n, self.shuffle, self.positions, self.cross)


# --- every number of one state -------------------------------------------------------------
@dataclass(frozen=True)
class Frame:
    """Every number the plate shows for one state, from attention_core."""

    n: int
    perm: tuple[int, ...]
    positions: bool
    cross: bool
    X: np.ndarray  # (n, 4) tokens in their original order
    pe: np.ndarray  # (n, 4) position features (zeros when off)
    inputs: np.ndarray  # (n, 4) X[perm] + pe: the sequence fed in
    keys_in: np.ndarray  # (M, 4) the sequence the keys and values come from
    raw: np.ndarray  # (n, M) q_i · k_j
    scaled: np.ndarray  # (n, M) q_i · k_j / √d_k
    exp: np.ndarray  # (n, M) exp(scaled), unshifted (the textbook form shown on hover)
    weights: np.ndarray  # (n, M)
    V: np.ndarray  # (M, 4)
    output: np.ndarray  # (n, 4) attention of the sequence as fed in
    original: np.ndarray  # (n, 4) attention of the tokens in their original order (+ pe)
    diff: np.ndarray  # (n, 4) |original[perm] - output|
    equal: bool
    max_diff: float

    @property
    def M(self) -> int:
        return self.keys_in.shape[0]


def compute(n: int, shuffle: int, positions: bool, cross: bool) -> Frame:
    """attention_core's numbers for one state (self_attention.js: compute)."""
    perm = PERMS[n][shuffle]
    p = list(perm)
    X = X_ALL[:n]  # (n, 4)
    pe = ac.sinusoidal_positions(n, D) if positions else np.zeros((n, D))  # (n, 4)
    inputs = X[p] + pe  # (n, 4)
    if cross:
        m = n + 2
        Y = Y_ALL[:m] + (ac.sinusoidal_positions(m, D) if positions else 0.0)  # (M, 4)
        output, weights = ac.cross_attention(inputs, Y, WQ, WK, WV)  # (n, 4), (n, M)
        original = ac.cross_attention(X + pe, Y, WQ, WK, WV)[0]  # (n, 4)
        equal, max_diff = ac.permutation_check(X, WQ, WK, WV, perm, positions=positions, Y=Y_ALL[:m])
        keys_in = Y  # (M, 4)
    else:
        output, weights = ac.self_attention(inputs, WQ, WK, WV)  # (n, 4), (n, n)
        original = ac.self_attention(X + pe, WQ, WK, WV)[0]  # (n, 4)
        equal, max_diff = ac.permutation_check(X, WQ, WK, WV, perm, positions=positions)
        keys_in = inputs  # (n, 4)
    raw = ac.scores(inputs @ WQ, keys_in @ WK)  # (n, M)
    scaled = raw * ac.default_scale(D)  # (n, M)
    return Frame(n, perm, positions, cross, X, pe, inputs, keys_in, raw, scaled, np.exp(scaled), weights,
                 keys_in @ WV, output, original, np.abs(original[p] - output), equal, max_diff)
