"""attention() against independent oracles.

1. A naive pure-Python implementation (explicit loops over batch, N and M; math.exp with the
   row maximum subtracted; masked entries weight 0; a fully masked row gives zero weights and
   a zero output), compared on 1,200 seeded random cases with broadcasting batch dimensions,
   N != M, d_v != d_k, random boolean masks (some rows fully masked) and scale None / 1.0 /
   a random float.
2. torch.nn.functional.scaled_dot_product_attention in float64 (skipped without torch).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pytest

from attention_core import attention

RTOL = 1e-9
ATOL = 1e-12
N_CASES = 1200
N_CHUNKS = 4


# --------------------------------------------------------------------------- the naive oracle


def _broadcast_batch(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """Batch-shape broadcasting, written out (no NumPy)."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for axis in range(ndim):
        sizes = {s[len(s) - ndim + axis] for s in shapes if len(s) - ndim + axis >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            raise ValueError(f"batch shapes {shapes} do not broadcast")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _pick(nested, shape: tuple[int, ...], index: tuple[int, ...]):
    """Element of a nested list of batch shape `shape` at broadcast batch `index`."""
    offset = len(index) - len(shape)
    for axis, size in enumerate(shape):
        nested = nested[index[offset + axis] if size > 1 else 0]
    return nested


def naive_attention(Q, K, V, mask=None, scale=None):
    """Scaled dot-product attention with explicit loops and the math module only.

    Arguments are NumPy arrays (only their shapes and .tolist() are used). Returns nested
    lists: output of batch shape broadcast(Q, K, V) and weights of batch shape
    broadcast(Q, K) (the mask must broadcast to the weights' shape).
    """
    qb, kb, vb = Q.shape[:-2], K.shape[:-2], V.shape[:-2]
    N, d_k = Q.shape[-2], Q.shape[-1]
    M, d_v = K.shape[-2], V.shape[-1]
    assert K.shape[-1] == d_k and V.shape[-2] == M
    s = 1.0 / math.sqrt(d_k) if scale is None else float(scale)
    wb = _broadcast_batch(qb, kb)
    ob = _broadcast_batch(wb, vb)
    q, k, v = Q.tolist(), K.tolist(), V.tolist()
    if mask is not None:
        mb = mask.shape[:-2]
        mN, mM = mask.shape[-2], mask.shape[-1]
        m = mask.tolist()

    weights = {}
    for b in itertools.product(*(range(n) for n in wb)):
        qs, ks = _pick(q, qb, b), _pick(k, kb, b)
        rows = []
        for i in range(N):
            raw = []
            for j in range(M):
                dot = 0.0
                for c in range(d_k):
                    dot += qs[i][c] * ks[j][c]
                raw.append(s * dot)
            if mask is None:
                allowed = [True] * M
            else:
                mrow = _pick(m, mb, b)[i if mN > 1 else 0]
                allowed = [bool(mrow[j if mM > 1 else 0]) for j in range(M)]
            if not any(allowed):
                rows.append([0.0] * M)
                continue
            top = max(raw[j] for j in range(M) if allowed[j])
            e = [math.exp(raw[j] - top) if allowed[j] else 0.0 for j in range(M)]
            total = sum(e)
            rows.append([e[j] / total for j in range(M)])
        weights[b] = rows

    outputs = {}
    for b in itertools.product(*(range(n) for n in ob)):
        w = weights[tuple(b[len(b) - len(wb) + a] if wb[a] > 1 else 0 for a in range(len(wb)))]
        vs = _pick(v, vb, b)
        rows = []
        for i in range(N):
            row = []
            for c in range(d_v):
                acc = 0.0
                for j in range(M):
                    acc += w[i][j] * vs[j][c]
                row.append(acc)
            rows.append(row)
        outputs[b] = rows

    def nest(table, shape):
        if not shape:
            return table[()]
        return [nest({key[1:]: val for key, val in table.items() if key[0] == n}, shape[1:]) for n in range(shape[0])]

    return nest(outputs, ob), nest(weights, wb)


# --------------------------------------------------------------------------- random cases


@dataclass
class Case:
    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    mask: np.ndarray | None
    scale: float | None
    tags: frozenset[str]

    def describe(self) -> str:
        m = None if self.mask is None else self.mask.shape
        return f"Q{self.Q.shape} K{self.K.shape} V{self.V.shape} mask{m} scale={self.scale}"


def _operand_batch(rng, target: tuple[int, ...]) -> tuple[int, ...]:
    """A batch shape that broadcasts to `target`: a suffix of it, some sizes replaced by 1."""
    keep = int(rng.integers(0, len(target) + 1))
    suffix = target[len(target) - keep:]
    return tuple(1 if rng.random() < 0.3 else n for n in suffix)


def make_case(rng) -> Case:
    tags = set()
    L = int(rng.integers(0, 3))  # 0, 1 or 2 leading batch dims
    target = tuple(int(n) for n in rng.integers(1, 4, size=L))
    qb, kb, vb = (_operand_batch(rng, target) for _ in range(3))
    N = int(rng.integers(1, 6))
    M = int(rng.integers(1, 7))
    while M == N:
        M = int(rng.integers(1, 7))
    d_k = int(rng.integers(1, 6))
    d_v = int(rng.integers(1, 6))
    while d_v == d_k:
        d_v = int(rng.integers(1, 6))
    magnitude = float(rng.choice([0.1, 1.0, 3.0]))
    Q = rng.normal(scale=magnitude, size=qb + (N, d_k))
    K = rng.normal(scale=magnitude, size=kb + (M, d_k))
    V = rng.normal(size=vb + (M, d_v))

    kind = rng.choice(["none", "1.0", "float"])
    scale = None if kind == "none" else 1.0 if kind == "1.0" else float(rng.uniform(-3.0, 3.0))
    tags.add(f"scale:{kind}")

    wb = _broadcast_batch(qb, kb)
    mask_kind = rng.choice(["none", "full", "NM", "keys"])
    if mask_kind == "none":
        mask = None
    elif mask_kind == "full":
        mask = rng.random(size=wb + (N, M)) < 0.6
    elif mask_kind == "NM":
        mask = rng.random(size=(N, M)) < 0.6
    else:  # key padding: one row of the mask shared by every query
        mask = rng.random(size=(1, M)) < 0.7
    if mask is not None:
        tags.add(f"mask:{mask_kind}")
        if rng.random() < 0.4:  # blank out some rows entirely
            rows = mask.reshape(-1, mask.shape[-2], M)
            rows[int(rng.integers(0, rows.shape[0])), int(rng.integers(0, rows.shape[1])), :] = False
        if (~mask.any(axis=-1)).any():
            tags.add("fully-masked-row")
    if len(set(map(len, (qb, kb, vb)))) > 1 or len({qb, kb, vb}) > 1:
        tags.add("batch-broadcast")
    if qb != kb and qb and kb:
        tags.add("qk-batches-differ")
    if L == 0:
        tags.add("no-batch")
    if len(_broadcast_batch(wb, vb)) > len(wb) or _broadcast_batch(wb, vb) != wb:
        tags.add("v-extends-batch")
    return Case(Q, K, V, mask, scale, frozenset(tags))


def all_cases() -> list[Case]:
    rng = np.random.default_rng(20240531)
    return [make_case(rng) for _ in range(N_CASES)]


CASES = all_cases()


def test_generator_covers_the_interesting_cases():
    counts = Counter(tag for case in CASES for tag in case.tags)
    for tag in [
        "scale:none",
        "scale:1.0",
        "scale:float",
        "mask:full",
        "mask:NM",
        "mask:keys",
        "fully-masked-row",
        "batch-broadcast",
        "qk-batches-differ",
        "no-batch",
        "v-extends-batch",
    ]:
        assert counts[tag] >= 30, (tag, counts)
    assert sum(c.mask is None for c in CASES) >= 100
    assert all(c.Q.shape[-2] != c.K.shape[-2] for c in CASES)
    assert all(c.V.shape[-1] != c.K.shape[-1] for c in CASES)
    # The example the brief names: Q batch (2, 1) against K batch (3,).
    assert any(c.Q.shape[:-2] == (2, 1) and c.K.shape[:-2] == (3,) for c in CASES)


# --------------------------------------------------------------------------- the oracle itself


def test_oracle_reproduces_seed_003():
    out, w = naive_attention(np.array([[1.0, 2.0]]), np.array([[1.0, 0], [0, 1], [1, 1]]), np.array([[10.0, 0], [0, 10], [5, 5]]))
    np.testing.assert_allclose(w, [[0.140029245, 0.2839954097, 0.5759753452]], rtol=1e-9)
    np.testing.assert_allclose(out, [[4.2801691765, 5.7198308235]], rtol=1e-9)


def test_oracle_masks_and_broadcasts_by_hand():
    Q = np.zeros((2, 1, 1, 1))  # batch (2, 1): every score is 0, so weights are uniform
    K = np.zeros((3, 2, 1))  # batch (3,)
    V = np.arange(12, dtype=float).reshape(3, 2, 2)
    mask = np.array([[True, False]])
    out, w = naive_attention(Q, K, V)
    assert np.shape(out) == (2, 3, 1, 2) and np.shape(w) == (2, 3, 1, 2)
    np.testing.assert_allclose(np.asarray(w), 0.5)
    np.testing.assert_allclose(np.asarray(out)[1, 2, 0], [9.0, 10.0])
    out, w = naive_attention(Q, K, V, mask=mask)
    np.testing.assert_array_equal(np.asarray(w)[..., 0, :], np.broadcast_to([1.0, 0.0], (2, 3, 2)))
    out, w = naive_attention(Q, K, V, mask=np.zeros((1, 2), bool))
    assert np.all(np.asarray(w) == 0) and np.all(np.asarray(out) == 0)


# --------------------------------------------------------------------------- the comparison


@pytest.mark.parametrize("chunk", range(N_CHUNKS))
def test_attention_matches_naive_oracle(chunk):
    size = N_CASES // N_CHUNKS
    for n, case in enumerate(CASES[chunk * size:(chunk + 1) * size], start=chunk * size):
        out, w = attention(case.Q, case.K, case.V, mask=case.mask, scale=case.scale)
        ref_out, ref_w = naive_attention(case.Q, case.K, case.V, mask=case.mask, scale=case.scale)
        ref_out, ref_w = np.asarray(ref_out), np.asarray(ref_w)
        where = f"case {n}: {case.describe()}"
        assert out.shape == ref_out.shape, where
        assert w.shape == ref_w.shape, where
        np.testing.assert_allclose(w, ref_w, rtol=RTOL, atol=ATOL, err_msg=where)
        np.testing.assert_allclose(out, ref_out, rtol=RTOL, atol=ATOL, err_msg=where)
        if case.mask is not None:
            allowed = np.broadcast_to(case.mask, w.shape)
            assert np.all(w[~allowed] == 0.0), where  # exactly zero, not merely small
            empty = ~allowed.any(axis=-1)  # (..., N) fully masked rows
            assert np.all(w[empty] == 0.0), where
            np.testing.assert_allclose(w.sum(-1)[~empty], 1.0, rtol=0, atol=1e-12, err_msg=where)
            out_empty = np.broadcast_to(empty, out.shape[:-1])
            assert np.all(out[out_empty] == 0.0), where
        else:
            np.testing.assert_allclose(w.sum(-1), 1.0, rtol=0, atol=1e-12, err_msg=where)


# --------------------------------------------------------------------------- PyTorch


def test_attention_matches_torch_sdpa():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    compared_rows = 0
    for n, case in enumerate(CASES[:400]):
        out, w = attention(case.Q, case.K, case.V, mask=case.mask, scale=case.scale)
        ob = out.shape[:-2]
        N, M = w.shape[-2:]
        # Expand every operand to the output's batch and flatten it: (B, ., .).
        q = np.broadcast_to(case.Q, ob + case.Q.shape[-2:]).reshape((-1,) + case.Q.shape[-2:])
        k = np.broadcast_to(case.K, ob + case.K.shape[-2:]).reshape((-1,) + case.K.shape[-2:])
        v = np.broadcast_to(case.V, ob + case.V.shape[-2:]).reshape((-1,) + case.V.shape[-2:])
        kwargs = {} if case.scale is None else {"scale": case.scale}
        if case.mask is not None:
            m = np.broadcast_to(np.broadcast_to(case.mask, w.shape), ob + (N, M)).reshape(-1, N, M)
            kwargs["attn_mask"] = torch.from_numpy(np.array(m))  # bool, True = attend
            keep = m.any(axis=-1)  # (B, N) torch gives NaN for fully masked rows: skip them
        else:
            keep = np.ones(q.shape[:2], dtype=bool)
        ref = F.scaled_dot_product_attention(
            torch.from_numpy(np.array(q)),
            torch.from_numpy(np.array(k)),
            torch.from_numpy(np.array(v)),
            **kwargs,
        ).numpy()
        mine = out.reshape(ref.shape)
        np.testing.assert_allclose(
            mine[keep], ref[keep], rtol=1e-9, atol=1e-12, err_msg=f"case {n}: {case.describe()}"
        )
        compared_rows += int(keep.sum())
    assert compared_rows > 1000
