"""attention_core.multi_head: split/merge, multi-head attention, the parameter counts and the
divisors, with the seed numbers (000: parameter counts of the maps and heads, the divisor
follows the head width; 003: d_k = d/h, concatenate, W_O; 512 numbers and 8 heads of 64).

Printed numbers are checked within one unit of their last printed digit.
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest

import attention_core as ac
from attention_core import (
    attention,
    head_divisor,
    head_scores,
    head_width,
    merge_heads,
    multi_head_attention,
    multi_head_recipe,
    param_counts,
    split_heads,
)


def within_last_digit(actual, printed: str) -> bool:
    """|actual - printed| <= one unit of the printed string's last digit (exact, no slack)."""
    text = printed.replace(",", "")
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return abs(Decimal(float(actual)) - Decimal(text)) <= Decimal(1).scaleb(-decimals)


def random_case(rng, n=None, d=None, h=None):
    h = h or int(rng.choice([1, 2, 4, 8]))
    d = d or h * int(rng.integers(1, 5))
    n = n or int(rng.integers(1, 8))
    X = rng.normal(size=(n, d))  # (n, d)
    Wq, Wk, Wv, Wo = rng.normal(size=(4, d, d)) / math.sqrt(d)  # (d, d) each
    return X, Wq, Wk, Wv, Wo, h


# --------------------------------------------------------------------------- seed numbers
class TestSeedNumbers:
    def test_paper_parameter_counts(self):
        p = param_counts(512, 8)
        assert p["d_k"] == p["d_v"] == 64  # 003: 512 numbers, 8 heads with keys of 64
        for key in ("query_per_head", "key_per_head", "value_per_head"):
            assert within_last_digit(p[key], "32,768")  # 512 × 64 per map per head
        assert within_last_digit(p["qkv_total"], "786,432")  # 3 maps × 8 heads
        assert p["qkv_total"] == 3 * 512 ** 2
        assert within_last_digit(p["w_o"], "262,144")
        assert within_last_digit(p["total"], "1,048,576")
        # 000: h heads hold as many as one full-width head, plus W_O.
        assert p["full_width_head"] == p["qkv_total"] == param_counts(512, 1)["qkv_total"]

    def test_divisor_follows_the_head_width(self):
        assert within_last_digit(head_divisor(512, 8), "8")  # 000: eight heads at width 64 -> √64 = 8
        assert head_divisor(512, 8) == 8.0
        assert param_counts(512, 8)["divisor"] == 8.0
        assert head_divisor(8, 2) == 2.0
        assert within_last_digit(head_divisor(8, 4), "1.414")
        assert head_divisor(512, 1) == pytest.approx(math.sqrt(512))  # one full-width head: √512, not 8

    @pytest.mark.parametrize("d_model", [4, 8, 16, 512])
    def test_heads_hold_three_d_model_squared(self, d_model):
        for h in (1, 2, 4, 8):
            if d_model % h:
                continue
            p = param_counts(d_model, h)
            assert p["qkv_total"] == 3 * d_model ** 2
            assert p["w_o"] == d_model ** 2
            assert p["total"] == 4 * d_model ** 2
            assert p["per_head"] * h == p["qkv_total"]


# --------------------------------------------------------------------------- split and merge
class TestSplitMerge:
    def test_shapes_and_slices(self):
        X = np.arange(24.0).reshape(3, 8)  # (3, 8)
        H = split_heads(X, 4)  # (4, 3, 2)
        assert H.shape == (4, 3, 2)
        for i in range(4):
            np.testing.assert_array_equal(H[i], X[:, 2 * i:2 * i + 2])
        np.testing.assert_array_equal(merge_heads(H), X)

    def test_round_trip_random_and_batched(self):
        rng = np.random.default_rng(11)
        for _ in range(200):
            h = int(rng.choice([1, 2, 3, 4, 8]))
            d = h * int(rng.integers(1, 6))
            batch = tuple(int(b) for b in rng.integers(1, 3, size=int(rng.integers(0, 3))))
            X = rng.normal(size=(*batch, int(rng.integers(1, 6)), d))  # (..., n, d)
            H = split_heads(X, h)  # (..., h, n, d/h)
            assert H.shape == (*batch, h, X.shape[-2], d // h)
            np.testing.assert_array_equal(merge_heads(H), X)

    def test_split_of_a_map_gives_each_heads_columns(self):
        rng = np.random.default_rng(2)
        W = rng.normal(size=(8, 8))  # (8, 8)
        X = rng.normal(size=(5, 8))  # (5, 8)
        Wh = split_heads(W, 4)  # (4, 8, 2): each head's d_model × d_k map
        assert Wh.shape == (4, 8, 2)
        # The heads' queries are X times each head's slice of the map.
        np.testing.assert_allclose(split_heads(X @ W, 4), X @ Wh, rtol=0, atol=1e-12)
        assert sum(w.size for w in Wh) == W.size

    def test_refusals(self):
        with pytest.raises(ValueError, match="3 heads do not divide"):
            split_heads(np.ones((2, 8)), 3)
        with pytest.raises(ValueError, match="h must be at least 1"):
            split_heads(np.ones((2, 8)), 0)
        with pytest.raises(ValueError, match="whole number"):
            split_heads(np.ones((2, 8)), 2.5)
        with pytest.raises(ValueError, match="whole number"):
            split_heads(np.ones((2, 8)), True)
        with pytest.raises(ValueError, match="at least 2 dimension"):
            split_heads(np.ones(8), 2)
        with pytest.raises(ValueError, match="non-finite"):
            split_heads(np.array([[1.0, np.nan]]), 1)
        with pytest.raises(ValueError, match="at least 3 dimension"):
            merge_heads(np.ones((2, 4)))


# --------------------------------------------------------------------------- multi-head attention
class TestMultiHeadAttention:
    def test_shapes_and_rows_sum_to_one(self):
        rng = np.random.default_rng(3)
        for _ in range(300):
            X, Wq, Wk, Wv, Wo, h = random_case(rng)
            out, w, concat = multi_head_attention(X, Wq, Wk, Wv, Wo, h)
            n, d = X.shape
            assert out.shape == (n, d) and w.shape == (h, n, n) and concat.shape == (n, d)
            np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
            assert np.all(w >= 0) and np.all(np.isfinite(out)) and np.all(np.isfinite(concat))

    def test_one_head_is_single_head_attention(self):
        rng = np.random.default_rng(4)
        for _ in range(300):
            X, Wq, Wk, Wv, Wo, _ = random_case(rng, h=1)
            out, w, concat = multi_head_attention(X, Wq, Wk, Wv, Wo, 1)
            single, sw = attention(X @ Wq, X @ Wk, X @ Wv)
            np.testing.assert_allclose(out, single @ Wo, rtol=0, atol=1e-12)
            np.testing.assert_allclose(w[0], sw, rtol=0, atol=1e-12)
            np.testing.assert_allclose(concat, single, rtol=0, atol=1e-12)

    def test_each_head_divides_by_the_root_of_its_width(self):
        rng = np.random.default_rng(5)
        for _ in range(300):
            X, Wq, Wk, Wv, Wo, h = random_case(rng)
            d_k = X.shape[1] // h
            out, w, concat = multi_head_attention(X, Wq, Wk, Wv, Wo, h)
            heads = []
            for i in range(h):
                cols = slice(i * d_k, (i + 1) * d_k)
                o, wi = attention(X @ Wq[:, cols], X @ Wk[:, cols], X @ Wv[:, cols], scale=1 / math.sqrt(d_k))
                np.testing.assert_allclose(w[i], wi, rtol=0, atol=1e-12)
                heads.append(o)
            np.testing.assert_allclose(concat, np.concatenate(heads, axis=1), rtol=0, atol=1e-12)
            np.testing.assert_allclose(out, concat @ Wo, rtol=0, atol=1e-12)

    def test_the_divisor_is_not_the_full_widths(self):
        rng = np.random.default_rng(6)
        X, Wq, Wk, Wv, Wo, _ = random_case(rng, n=5, d=8, h=4)
        _, w, _ = multi_head_attention(X, Wq, Wk, Wv, Wo, 4)
        _, wrong = attention(X @ Wq[:, :2], X @ Wk[:, :2], X @ Wv[:, :2], scale=1 / math.sqrt(8))
        assert np.max(np.abs(w[0] - wrong)) > 1e-3  # dividing by √8 instead of √2 would change the weights

    def test_head_scores_are_the_raw_dot_products(self):
        rng = np.random.default_rng(7)
        X, Wq, Wk, Wv, Wo, _ = random_case(rng, n=5, d=8, h=2)
        S = head_scores(X, Wq, Wk, 2)  # (2, 5, 5)
        _, w, _ = multi_head_attention(X, Wq, Wk, Wv, Wo, 2)
        np.testing.assert_allclose(ac.softmax(S / 2.0), w, rtol=0, atol=1e-12)  # √(8/2) = 2
        np.testing.assert_allclose(S[1], (X @ Wq[:, 4:]) @ (X @ Wk[:, 4:]).T, rtol=0, atol=1e-12)

    def test_value_width_may_differ(self):
        rng = np.random.default_rng(8)
        X = rng.normal(size=(4, 6))  # (4, 6)
        Wq, Wk = rng.normal(size=(2, 6, 6))  # (6, 6) each: d_k = 3 with 2 heads
        Wv = rng.normal(size=(6, 10))  # (6, 10): d_v = 5
        Wo = rng.normal(size=(10, 6))  # (10, 6)
        out, w, concat = multi_head_attention(X, Wq, Wk, Wv, Wo, 2)
        assert out.shape == (4, 6) and concat.shape == (4, 10) and w.shape == (2, 4, 4)
        p = param_counts(6, 2, d_v=5)
        assert p["value_per_head"] == 30 and p["w_o"] == 10 * 6 == Wo.size
        assert p["query_total"] == Wq.size and p["value_total"] == Wv.size

    def test_refusals_name_the_shapes(self):
        rng = np.random.default_rng(9)
        X, Wq, Wk, Wv, Wo, _ = random_case(rng, n=3, d=8, h=2)
        with pytest.raises(ValueError, match="3 heads do not divide the columns of Wq = 8"):
            multi_head_attention(X, Wq, Wk, Wv, Wo, 3)
        with pytest.raises(ValueError, match=r"Wq must have shape \(d_model, h·d_head\) = \(8, ...\)"):
            multi_head_attention(X, Wq[:4], Wk, Wv, Wo, 2)
        with pytest.raises(ValueError, match="Wq and Wk must have the same shape"):
            multi_head_attention(X, Wq, Wk[:, :4], Wv, Wo, 2)
        with pytest.raises(ValueError, match=r"Wo must have one row per concatenated column, shape \(8, d_out\)"):
            multi_head_attention(X, Wq, Wk, Wv, Wo[:4], 2)
        with pytest.raises(ValueError, match=r"X must have shape \(n, d_model\)"):
            multi_head_attention(X[None], Wq, Wk, Wv, Wo, 2)
        with pytest.raises(ValueError, match="at least one token"):
            multi_head_attention(X[:0], Wq, Wk, Wv, Wo, 2)
        with pytest.raises(ValueError, match="non-finite"):
            multi_head_attention(np.where(X > 0, np.inf, X), Wq, Wk, Wv, Wo, 2)
        with pytest.raises(ValueError, match="overflow"):
            multi_head_attention(X * 1e200, Wq * 1e200, Wk, Wv, Wo, 2)
        with pytest.raises(ValueError, match="overflow"):
            head_scores(X * 1e200, Wq * 1e200, Wk, 2)


# --------------------------------------------------------------------------- counts, widths, recipe
class TestCountsAndRecipe:
    def test_counts_equal_the_sizes_of_the_split_maps(self):
        rng = np.random.default_rng(10)
        for d in (4, 8, 16, 24):
            for h in (1, 2, 4, 8):
                if d % h:
                    with pytest.raises(ValueError, match=f"{h} heads do not divide d_model = {d}"):
                        param_counts(d, h)
                    continue
                W = rng.normal(size=(d, d))  # (d, d)
                per_head = split_heads(W, h)[0].size
                p = param_counts(d, h)
                assert p["query_per_head"] == p["key_per_head"] == p["value_per_head"] == per_head
                assert p["divisor"] == math.sqrt(d // h) == head_divisor(d, h)
                assert head_width(d, h) == p["d_k"]

    def test_count_refusals(self):
        for bad in (0, -8, 2.5, "8", None, True):
            with pytest.raises(ValueError):
                param_counts(bad, 2)
        with pytest.raises(ValueError, match="d_v must be at least 1"):
            param_counts(8, 2, d_v=0)
        assert param_counts(8.0, 2) == param_counts(8, 2)  # a whole float is a whole number

    def test_recipe_is_seeded_and_rows_do_not_depend_on_n(self):
        X8, Wq8, Wk8, Wv8, Wo8 = multi_head_recipe(8, 16)
        X5, Wq5, Wk5, Wv5, Wo5 = multi_head_recipe(5, 16)
        np.testing.assert_array_equal(X8[:5], X5)
        for a, b in ((Wq8, Wq5), (Wk8, Wk5), (Wv8, Wv5), (Wo8, Wo5)):
            np.testing.assert_array_equal(a, b)
        rng = np.random.default_rng(0)
        W = rng.normal(size=(4, 16, 16)) / 4.0  # (4, 16, 16)
        np.testing.assert_array_equal(Wq8, W[0])
        np.testing.assert_array_equal(X8, rng.normal(size=(8, 16)))
        with pytest.raises(ValueError, match="seed must be non-negative"):
            multi_head_recipe(5, 8, seed=-1)
