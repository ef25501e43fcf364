"""attention_grads against three independent references, and its boundary checks.

- central finite differences of Σ d_output ∘ attention(...)[0] on 1,200 seeded random cases
  (batch dimensions, broadcasting, masks with fully masked rows, scale None or a float);
- a loop oracle written here (explicit i, j loops in Python floats) on 300 2-D cases;
- PyTorch autograd in float64 (skipped when torch is not installed);
- shapes that do not fit raise ValueError naming them; a fully masked row passes exactly zero.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import attention_core as ac

N_FD_CASES = 1200
N_LOOP_CASES = 300
H = 1e-5  # the finite-difference step
# Tolerance for central differences with step H on entries of size <= ~3: the truncation error
# is H²/6 · |f'''|, and f''' (three derivatives of softmax(scale·QKᵀ)V·dO) stays below ~1e3 for
# these sizes, so <= ~2e-8; the rounding error is ~eps·|f|/H <= 2.2e-16 · 1e2 / 1e-5 ≈ 2e-9.
# The worst difference measured over these cases is 2.8e-9. 1e-6 (absolute, plus 1e-6 relative)
# is 350x above that and far below the error of a wrong formula (a missing scale, a transposed
# matrix or a dropped softmax term changes entries by O(0.1));
# test_the_finite_difference_check_is_sharp holds it to that.
FD_ATOL = 1e-6
FD_RTOL = 1e-6


def random_case(rng: np.random.Generator, k: int) -> dict:
    """One case: batch shapes that broadcast, entry sizes, a mask (some rows fully masked), a scale."""
    N, M = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    d_k, d_v = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    batch = [(), (2,), (3, 2), (2, 1, 2)][k % 4]
    # Each input takes the full batch shape, a trailing part of it, or size-1 axes (broadcast).
    def own(b):
        choice = int(rng.integers(3))
        if choice == 0 or not b:
            return b
        if choice == 1:
            return b[int(rng.integers(1, len(b) + 1)):]
        return tuple(n if rng.random() < 0.5 else 1 for n in b)
    size = float(rng.choice([0.3, 1.0, 2.0]))
    Q = rng.normal(size=(*own(batch), N, d_k)) * size  # (..., N, d_k)
    K = rng.normal(size=(*own(batch), M, d_k)) * size  # (..., M, d_k)
    V = rng.normal(size=(*own(batch), M, d_v))  # (..., M, d_v)
    out_batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    mask = None
    if k % 3:
        # attention asks the mask to broadcast to the scores' shape, whose batch is Q's and K's.
        score_batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2])
        mask = rng.random((*score_batch, N, M)) < rng.uniform(0.3, 1.0)  # (..., N, M)
        if k % 5 == 0:
            mask[..., int(rng.integers(N)), :] = False  # a row with nothing allowed
        if k % 7 == 0:
            mask = mask.reshape(-1, N, M)[0]  # (N, M) one mask for every batch entry
    scale = [None, 1.0, float(rng.uniform(0.2, 1.5))][int(rng.integers(3))]
    dO = rng.normal(size=(*out_batch, N, d_v))  # (..., N, d_v)
    return {"Q": Q, "K": K, "V": V, "mask": mask, "scale": scale, "dO": dO}


def cases(seed: int, count: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [random_case(rng, k) for k in range(count)]


def objective(c: dict, **replaced) -> np.ndarray:
    """Σ dO ∘ output for a stack of inputs: a replaced input carries a leading axis P (one
    perturbation each) in front of the full batch rank, the others broadcast; returns (P,)."""
    args = {name: replaced.get(name, c[name]) for name in ("Q", "K", "V")}
    out, _ = ac.attention(args["Q"], args["K"], args["V"], mask=c["mask"], scale=c["scale"])  # (P, ..., N, d_v)
    prod = out * c["dO"]  # (P, ..., N, d_v)
    return prod.reshape(prod.shape[0], -1).sum(axis=1)  # (P,)


def finite_differences(c: dict) -> dict:
    """Central differences for every entry of Q, K and V at once (each perturbation is a batch entry)."""
    grads = {}
    for name in ("Q", "K", "V"):
        x = c[name]
        rank = c["dO"].ndim - x.ndim  # batch axes x lacks; P goes in front of all of them
        basis = np.eye(x.size).reshape(x.size, *([1] * rank), *x.shape)  # (P, 1.., *x.shape) one bump per entry
        plus = objective(c, **{name: x + H * basis})  # (P,)
        minus = objective(c, **{name: x - H * basis})  # (P,)
        grads[name] = ((plus - minus) / (2 * H)).reshape(x.shape)
    return grads


@pytest.fixture(scope="module")
def fd_results():
    out = []
    for c in cases(20240611, N_FD_CASES):
        got = ac.attention_grads(c["Q"], c["K"], c["V"], c["dO"], mask=c["mask"], scale=c["scale"])
        out.append((c, dict(zip("QKV", got)), finite_differences(c)))
    return out


def test_attention_grads_match_finite_differences(fd_results):
    empty_rows = broadcast = 0
    for k, (c, got, want) in enumerate(fd_results):
        for name in "QKV":
            assert got[name].shape == c[name].shape, (k, name)
            np.testing.assert_allclose(got[name], want[name], rtol=FD_RTOL, atol=FD_ATOL, err_msg=f"case {k} d{name}")
        if c["mask"] is not None:
            empty_rows += int((~np.asarray(c["mask"]).any(axis=-1)).sum())
        broadcast += len({c[n].shape[:-2] for n in "QKV"}) > 1
    assert len(fd_results) >= 1000
    assert empty_rows >= 50 and broadcast >= 200  # the hard cases were drawn, not just plain ones


def test_the_finite_difference_check_is_sharp(fd_results):
    """The tolerance rejects a plausible wrong gradient: dQ without the scale factor."""
    tried = caught = 0
    for c, got, want in fd_results:
        s = ac.default_scale(c["Q"].shape[-1]) if c["scale"] is None else c["scale"]
        if abs(s - 1.0) < 0.05 or np.max(np.abs(want["Q"])) < 1e-3:
            continue  # the wrong formula is (nearly) right here
        tried += 1
        wrong = got["Q"] / s  # (..., N, d_k)
        caught += not np.allclose(wrong, want["Q"], rtol=FD_RTOL, atol=FD_ATOL)
    assert tried >= 300 and caught == tried


# --------------------------------------------------------------------------- a loop oracle
def loop_grads(Q, K, V, dO, mask, scale):
    """The backward pass with explicit loops over i and j in Python floats: A_ij = softmax over the
    allowed j of s·q_i·k_j; ∂L/∂A_ij = dO_i · v_j; ∂L/∂S_ij = Σ_l ∂L/∂A_il · A_il (δ_lj − A_ij)."""
    N, d_k = len(Q), len(Q[0])
    M, d_v = len(K), len(V[0])
    s = 1.0 / math.sqrt(d_k) if scale is None else scale
    dQ = [[0.0] * d_k for _ in range(N)]
    dK = [[0.0] * d_k for _ in range(M)]
    dV = [[0.0] * d_v for _ in range(M)]
    for i in range(N):
        allowed = [j for j in range(M) if mask is None or mask[i][j]]
        if not allowed:
            continue
        raw = {j: s * sum(Q[i][c] * K[j][c] for c in range(d_k)) for j in allowed}
        top = max(raw.values())
        e = {j: math.exp(raw[j] - top) for j in allowed}
        total = sum(e.values())
        a = {j: e[j] / total for j in allowed}
        dA = {j: sum(dO[i][c] * V[j][c] for c in range(d_v)) for j in allowed}
        for j in allowed:
            for c in range(d_v):
                dV[j][c] += a[j] * dO[i][c]
            # the softmax Jacobian's column j: ∂A_il/∂S_ij = A_il (δ_lj − A_ij)
            dS = sum(dA[l] * a[l] * ((1.0 if l == j else 0.0) - a[j]) for l in allowed) * s
            for c in range(d_k):
                dQ[i][c] += dS * K[j][c]
                dK[j][c] += dS * Q[i][c]
    return np.array(dQ), np.array(dK), np.array(dV)


def test_attention_grads_match_a_loop_oracle():
    rng = np.random.default_rng(7)
    empty = 0
    for k in range(N_LOOP_CASES):
        N, M, d_k, d_v = (int(x) for x in rng.integers(1, 6, size=4))
        Q = rng.normal(size=(N, d_k)) * 2  # (N, d_k)
        K = rng.normal(size=(M, d_k)) * 2  # (M, d_k)
        V = rng.normal(size=(M, d_v))  # (M, d_v)
        dO = rng.normal(size=(N, d_v))  # (N, d_v)
        mask = None if k % 4 == 0 else rng.random((N, M)) < 0.6
        if mask is not None and k % 5 == 0:
            mask[0] = False
        scale = None if k % 2 else float(rng.uniform(0.1, 2.0))
        got = ac.attention_grads(Q, K, V, dO, mask=mask, scale=scale)
        want = loop_grads(Q.tolist(), K.tolist(), V.tolist(), dO.tolist(),
                          None if mask is None else mask.tolist(), scale)
        for g, w, name in zip(got, want, ("dQ", "dK", "dV")):
            np.testing.assert_allclose(g, w.reshape(g.shape), rtol=1e-12, atol=1e-12, err_msg=f"case {k} {name}")
        empty += mask is not None and int((~mask.any(axis=1)).sum())
    assert empty >= 20


# --------------------------------------------------------------------------- PyTorch autograd
def test_attention_grads_match_torch_autograd():
    torch = pytest.importorskip("torch")
    for k, c in enumerate(cases(99, 200)):
        t = {n: torch.tensor(c[n], dtype=torch.float64, requires_grad=True) for n in "QKV"}
        d_k = c["Q"].shape[-1]
        s = 1.0 / math.sqrt(d_k) if c["scale"] is None else c["scale"]
        S = t["Q"] @ t["K"].transpose(-1, -2) * s
        allowed = torch.ones(S.shape, dtype=torch.bool) if c["mask"] is None else \
            torch.tensor(np.broadcast_to(c["mask"], S.shape).copy())
        # torch.softmax gives NaN on a row with nothing allowed; this form gives zeros, as attention does.
        any_allowed = allowed.any(dim=-1, keepdim=True)
        top = torch.where(allowed, S, torch.tensor(-math.inf, dtype=torch.float64)).amax(dim=-1, keepdim=True)
        top = torch.where(any_allowed, top, torch.zeros_like(top)).detach()
        e = torch.where(allowed, torch.exp(S - top), torch.zeros_like(S))
        total = e.sum(dim=-1, keepdim=True)
        A = e / torch.where(total > 0, total, torch.ones_like(total))
        out = A @ t["V"]
        (out * torch.tensor(c["dO"], dtype=torch.float64)).sum().backward()
        got = ac.attention_grads(c["Q"], c["K"], c["V"], c["dO"], mask=c["mask"], scale=c["scale"])
        for g, n in zip(got, "QKV"):
            np.testing.assert_allclose(g, t[n].grad.numpy(), rtol=1e-10, atol=1e-12, err_msg=f"case {k} d{n}")


# --------------------------------------------------------------------------- a fully masked row
def test_a_fully_masked_row_passes_exactly_zero_gradient():
    rng = np.random.default_rng(3)
    Q, K, V = rng.normal(size=(4, 3)), rng.normal(size=(5, 3)), rng.normal(size=(5, 2))  # (4, 3), (5, 3), (5, 2)
    dO = rng.normal(size=(4, 2))  # (4, 2)
    mask = rng.random((4, 5)) < 0.7  # (4, 5)
    mask[1] = False
    mask[0, :2] = True  # row 0 keeps two keys
    dQ, dK, dV = ac.attention_grads(Q, K, V, dO, mask=mask)
    assert np.all(dQ[1] == 0.0)
    # Row 1 contributes nothing: changing its query or its upstream gradient changes no gradient.
    Q2, dO2 = Q.copy(), dO.copy()
    Q2[1] = rng.normal(size=3) * 10
    dO2[1] = rng.normal(size=2) * 10
    dQ2, dK2, dV2 = ac.attention_grads(Q2, K, V, dO2, mask=mask)
    assert np.array_equal(dK2, dK) and np.array_equal(dV2, dV)
    assert np.array_equal(np.delete(dQ2, 1, axis=0), np.delete(dQ, 1, axis=0))
    # ...while with two keys allowed (one alone would get weight 1 whatever its score) it reaches both.
    mask[1, :2] = True
    _, dK3, dV3 = ac.attention_grads(Q2, K, V, dO2, mask=mask)
    assert not np.allclose(dK3, dK2) and not np.allclose(dV3, dV2)


def test_blocked_pairs_pass_no_gradient_to_their_keys():
    rng = np.random.default_rng(4)
    Q, K, V = rng.normal(size=(3, 2)), rng.normal(size=(4, 2)), rng.normal(size=(4, 2))  # (3, 2), (4, 2), (4, 2)
    mask = np.ones((3, 4), dtype=bool)  # (3, 4)
    mask[:, 2] = False  # no query may see key 2
    dQ, dK, dV = ac.attention_grads(Q, K, V, rng.normal(size=(3, 2)), mask=mask)
    assert np.all(dK[2] == 0.0) and np.all(dV[2] == 0.0)
    assert np.all(dK[[0, 1, 3]] != 0.0)


# --------------------------------------------------------------------------- boundary checks
@pytest.mark.parametrize("Q, K, V, dO, words", [
    (np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 2)), np.ones((2, 2)), ["(2, 3)", "(2, 4)", "d_k"]),
    (np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 2)), np.ones((2, 2)), ["(4, 3)", "(5, 2)"]),
    (np.ones((2, 2, 3)), np.ones((3, 4, 3)), np.ones((3, 4, 2)), np.ones((3, 2, 2)), ["(2, 2, 3)", "(3, 4, 3)", "broadcast"]),
    (np.ones(3), np.ones((4, 3)), np.ones((4, 2)), np.ones((1, 2)), ["Q", "(3,)"]),
    (np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), np.ones((2, 3)), ["d_output", "(2, 2)", "(2, 3)"]),
    (np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), np.ones((3, 2, 2)), ["d_output", "(2, 2)", "(3, 2, 2)"]),
    (np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), np.ones(2), ["d_output", "(2,)"]),
    (np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), np.full((2, 2), np.nan), ["d_output", "non-finite"]),
])
def test_bad_shapes_raise_value_errors_naming_them(Q, K, V, dO, words):
    with pytest.raises(ValueError) as err:
        ac.attention_grads(Q, K, V, dO)
    for w in words:
        assert w in str(err.value), (w, str(err.value))


def test_a_bad_mask_or_scale_is_refused_as_attention_refuses_it():
    Q, K, V, dO = np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), np.ones((2, 2))  # (2, 3), (4, 3), (4, 2), (2, 2)
    for kwargs, words in (({"mask": np.ones((3, 4), dtype=bool)}, ["(3, 4)", "(2, 4)"]),
                          ({"mask": np.full((2, 4), 0.5)}, ["boolean"]),
                          ({"scale": "big"}, ["scale"]), ({"scale": math.inf}, ["finite"])):
        with pytest.raises(ValueError) as err:
            ac.attention_grads(Q, K, V, dO, **kwargs)
        for w in words:
            assert w in str(err.value), (kwargs, str(err.value))
        with pytest.raises(ValueError):
            ac.attention(Q, K, V, **kwargs)


def test_broadcast_inputs_get_gradients_of_their_own_shape_summed_over_the_batch():
    """A K shared by a batch of 3 queries gets the sum of the 3 separate gradients."""
    rng = np.random.default_rng(5)
    Q = rng.normal(size=(3, 2, 4))  # (3, N, d_k)
    K = rng.normal(size=(5, 4))  # (M, d_k)
    V = rng.normal(size=(1, 5, 2))  # (1, M, d_v)
    dO = rng.normal(size=(3, 2, 2))  # (3, N, d_v)
    dQ, dK, dV = ac.attention_grads(Q, K, V, dO)
    assert dQ.shape == Q.shape and dK.shape == K.shape and dV.shape == V.shape
    parts = [ac.attention_grads(Q[b], K, V[0], dO[b]) for b in range(3)]
    np.testing.assert_allclose(dK, sum(p[1] for p in parts), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(dV[0], sum(p[2] for p in parts), rtol=1e-13, atol=1e-14)
    for b in range(3):
        np.testing.assert_allclose(dQ[b], parts[b][0], rtol=1e-13, atol=1e-14)
