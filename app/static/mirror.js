// mirror.js: the browser's copy of attention_core's arithmetic, for the live path.
// Same names and the same order of operations as the NumPy core, so both give the same
// numbers to ~1e-15; attention_core stays the authority (tests/core/test_mirror_parity.py
// and the browser tests hold this file to it). Plain ES2017, no framework, no DOM.
// Loaded into Bokeh CustomJS callbacks (served and exported pages) and into node for tests.
var AttentionMirror = (typeof globalThis !== "undefined" && globalThis.AttentionMirror) || (function () {
  "use strict";

  function check_finite(values, name) {
    for (var i = 0; i < values.length; i++) {
      if (!Number.isFinite(values[i])) {
        throw new Error(name + " has a non-finite entry at " + i + ": " + values[i]);
      }
    }
  }

  function dot(a, b) {  // (d,), (d,) -> ()
    if (a.length !== b.length) throw new Error("dot needs equal lengths, got " + a.length + " and " + b.length);
    var s = 0;
    for (var i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }

  // softmax(x, mask): one row. Stable (max subtracted); masked entries and -Infinity get 0;
  // a row where nothing may take part gets all zeros, never NaN.
  function softmax(x, mask) {  // (M,) -> (M,)
    var M = x.length, top = -Infinity, i;
    var allowed = new Array(M);
    for (i = 0; i < M; i++) {
      if (Number.isNaN(x[i])) throw new Error("softmax input contains NaN at " + i);
      allowed[i] = (mask == null || mask[i]) && x[i] !== -Infinity;
      if (allowed[i] && x[i] > top) top = x[i];
    }
    var out = new Array(M).fill(0);
    if (top === -Infinity) return out;  // nothing may take part
    var total = 0;
    if (top === Infinity) {  // +inf entries share the mass
      for (i = 0; i < M; i++) { out[i] = allowed[i] && x[i] === Infinity ? 1 : 0; total += out[i]; }
    } else {
      for (i = 0; i < M; i++) { out[i] = allowed[i] ? Math.exp(x[i] - top) : 0; total += out[i]; }
    }
    for (i = 0; i < M; i++) out[i] = out[i] / total;
    return out;
  }

  function default_scale(d_k) {
    if (!(d_k >= 1)) throw new Error("d_k must be at least 1, got " + d_k);
    return 1 / Math.sqrt(d_k);
  }

  function scores(Q, K) {  // (N, d_k), (M, d_k) -> (N, M)
    return Q.map(function (q) { return K.map(function (k) { return dot(q, k); }); });
  }

  // attention(Q, K, V, mask, scale) -> {output (N, d_v), weights (N, M)}; scale null = 1/sqrt(d_k).
  function attention(Q, K, V, mask, scale) {
    if (K.length === 0) throw new Error("attention needs at least one key (M = 0)");
    if (K.length !== V.length) throw new Error("keys and values must have the same M: " + K.length + " vs " + V.length);
    var d_k = Q[0].length;
    var s = scale == null ? default_scale(d_k) : scale;
    var S = scores(Q, K);  // (N, M)
    var weights = S.map(function (row, n) {  // (N, M)
      return softmax(row.map(function (v) { return v * s; }), mask == null ? null : mask[n]);
    });
    var d_v = V[0].length;
    var output = weights.map(function (w) {  // (N, d_v)
      var o = new Array(d_v).fill(0);
      for (var j = 0; j < w.length; j++) for (var c = 0; c < d_v; c++) o[c] += w[j] * V[j][c];
      return o;
    });
    return { output: output, weights: weights };
  }

  function cartesian(angle_deg, length) {  // (), () -> (2,)
    var a = angle_deg * Math.PI / 180;
    return [length * Math.cos(a), length * Math.sin(a)];
  }

  function polar(x, y) {  // (), () -> [angle in [0, 360), length]
    var angle = Math.atan2(y, x) * 180 / Math.PI;
    angle = ((angle % 360) + 360) % 360;
    return [angle, Math.hypot(x, y)];
  }

  // lookup_steps(q, K, V, scale): one query's turn; V is (M,) numbers or (M, d_v) vectors.
  function lookup_steps(q, K, V, scale, shift) {
    check_finite(q, "q");
    var vector_values = Array.isArray(V[0]);
    var V2 = vector_values ? V : V.map(function (v) { return [v]; });  // (M, d_v)
    var s = scale == null ? default_scale(q.length) : scale;
    var raw = scores([q], K)[0];  // (M,)
    var res = attention([q], K, V2, null, s);
    var scaled = raw.map(function (v) { return v * s; });  // (M,)
    var top = Math.max.apply(null, scaled);
    var e = scaled.map(function (v) { return shift === false ? Math.exp(v) : Math.exp(v - top); });  // (M,)
    var w = res.weights[0];  // (M,)
    var weighted = V2.map(function (v, j) { return v.map(function (c) { return w[j] * c; }); });  // (M, d_v)
    var output = res.output[0];  // (d_v,)
    var winner = 0;
    for (var j = 1; j < w.length; j++) if (w[j] > w[winner]) winner = j;
    return {
      score: raw, scaled: scaled, exp: e, exp_total: e.reduce(function (a, b) { return a + b; }, 0),
      weight: w,
      weighted: vector_values ? weighted : weighted.map(function (r) { return r[0]; }),
      output: vector_values ? output : output[0],
      scale: s, winner: winner,
    };
  }

  var api = {
    softmax: softmax, attention: attention, scores: scores, default_scale: default_scale,
    cartesian: cartesian, polar: polar, lookup_steps: lookup_steps, dot: dot,
  };
  // mirror: worked
  // mirror: scaling
  // mirror: self-attention
  // mirror: masking
  // mirror: multi-head
  if (typeof globalThis !== "undefined") globalThis.AttentionMirror = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AttentionMirror;
