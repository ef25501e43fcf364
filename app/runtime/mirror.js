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
  // --- worked (attention_core/worked.py) ---
  function hull_cross(o, a, b) {  // z of (a - o) x (b - o)
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  }
  // convex_hull(points): (M, 2) -> (H, 2), counter-clockwise from the smallest x (then y),
  // no repeated first vertex, edge points and duplicates dropped (Andrew's monotone chain).
  function convex_hull(points) {
    if (!points.length) throw new Error("convex_hull needs at least one point");
    points.forEach(function (p, i) {
      if (p.length !== 2) throw new Error("convex_hull needs points of shape (M, 2); point " + i + " has " + p.length);
      check_finite(p, "point " + i);
    });
    var sorted = points.map(function (p) { return [p[0], p[1]]; });
    sorted.sort(function (a, b) { return a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0); });
    var pts = [];
    sorted.forEach(function (p) {
      var last = pts[pts.length - 1];
      if (!last || last[0] !== p[0] || last[1] !== p[1]) pts.push(p);
    });
    if (pts.length <= 2) return pts;
    var lower = [], upper = [], i;
    for (i = 0; i < pts.length; i++) {
      while (lower.length >= 2 && hull_cross(lower[lower.length - 2], lower[lower.length - 1], pts[i]) <= 0) lower.pop();
      lower.push(pts[i]);
    }
    for (i = pts.length - 1; i >= 0; i--) {
      while (upper.length >= 2 && hull_cross(upper[upper.length - 2], upper[upper.length - 1], pts[i]) <= 0) upper.pop();
      upper.push(pts[i]);
    }
    return lower.slice(0, -1).concat(upper.slice(0, -1));
  }

  // length_sweep(q, K, lengths, scale): (F, M) weights with the query stretched to each length.
  function length_sweep(q, K, lengths, scale) {
    check_finite(q, "q");
    var norm = Math.sqrt(dot(q, q));
    if (norm === 0) throw new Error("the query is zero: it has no direction to stretch");
    var s = scale == null ? default_scale(q.length) : scale;
    var per_length = K.map(function (k) { return dot(q, k) / norm * s; });  // (M,)
    return lengths.map(function (L) {  // (F, M)
      if (!(L >= 0)) throw new Error("lengths must be >= 0, got " + L);
      return softmax(per_length.map(function (v) { return L * v; }));
    });
  }

  // prediction_error(guess, output): Euclidean distance; numbers or equal-length arrays.
  function prediction_error(guess, output) {
    var g = Array.isArray(guess) ? guess : [guess], o = Array.isArray(output) ? output : [output];
    if (g.length !== o.length) throw new Error("the guess has " + g.length + " entries but the output has " + o.length);
    var t = 0;
    for (var i = 0; i < g.length; i++) { var d = g[i] - o[i]; t += d * d; }
    return Math.sqrt(t);
  }
  api.convex_hull = convex_hull;
  api.length_sweep = length_sweep;
  api.prediction_error = prediction_error;
  // --- scaling (attention_core/scaling.py) ---------------------------------------------------
  // One row of softmax weights: finite, non-negative, summing to 1 (or all 0, a masked row).
  function check_weights(a) {
    if (a.length === 0) throw new Error("weights need at least one entry");
    check_finite(a, "weights");
    var total = 0;
    for (var i = 0; i < a.length; i++) {
      if (a[i] < 0) throw new Error("weights have a negative entry at " + i + ": " + a[i]);
      total += a[i];
    }
    if (!(Math.abs(total - 1) <= 1e-9 || total === 0)) throw new Error("weights must sum to 1 (or be all 0), sum " + total);
  }

  // softmax_jacobian(a): d a_i / d s_j = a_i (delta_ij - a_j), (M,) -> (M, M).
  function softmax_jacobian(a) {
    check_weights(a);
    return a.map(function (ai, i) {
      return a.map(function (aj, j) { return ai * ((i === j ? 1 : 0) - aj); });
    });
  }

  // entropy(a): -sum a_j log a_j in nats, 0 log 0 = 0, (M,) -> ().
  function entropy(a) {
    check_weights(a);
    var s = 0;
    for (var j = 0; j < a.length; j++) s += a[j] * Math.log(a[j] > 0 ? a[j] : 1);
    return -s + 0;
  }

  // flat_line(widths, base, scaled): softmax of sqrt(d) * base (divided by sqrt(d) when scaled),
  // (W,), (M,) -> (W, M).
  function flat_line(widths, base, scaled) {
    if (base == null) base = [2, 1, 0];
    check_finite(widths, "widths");
    check_finite(base, "base_scores");
    return widths.map(function (d) {
      if (!(d >= 1)) throw new Error("every width must be at least 1, got " + d);
      var root = Math.sqrt(d);
      return softmax(base.map(function (b) { var raw = root * b; return scaled ? raw / root : raw; }));
    });
  }

  // normal_density(x, variance): the N(0, variance) density at x.
  function normal_density(x, variance) {
    if (!(variance > 0)) throw new Error("variance must be positive, got " + variance);
    return Math.exp(-0.5 * x * x / variance) / Math.sqrt(2 * Math.PI * variance);
  }

  api.softmax_jacobian = softmax_jacobian;
  api.entropy = entropy;
  api.flat_line = flat_line;
  api.normal_density = normal_density;
  // --- self-attention (attention_core/self_attention.py) ---
  function matmul(A, B) {  // (n, k), (k, m) -> (n, m)
    var k = B.length;
    return A.map(function (row, r) {
      if (row.length !== k) throw new Error("matmul: row " + r + " has " + row.length + " entries, B has " + k + " rows");
      var m = k ? B[0].length : 0, out = new Array(m).fill(0);
      for (var c = 0; c < m; c++) { var s = 0; for (var i = 0; i < k; i++) s += row[i] * B[i][c]; out[c] = s; }
      return out;
    });
  }

  // PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(same); positions from 0.
  function sinusoidal_positions(n, d, base) {  // -> (n, d)
    if (!(Number.isInteger(n) && n >= 0)) throw new Error("n must be an integer >= 0, got " + n);
    if (!(Number.isInteger(d) && d >= 1)) throw new Error("d must be an integer >= 1, got " + d);
    var b = base == null ? 10000 : base, out = [];
    for (var pos = 0; pos < n; pos++) {
      var row = new Array(d);
      for (var c = 0; c < d; c++) {
        var angle = pos / Math.pow(b, 2 * Math.floor(c / 2) / d);
        row[c] = c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
      }
      out.push(row);
    }
    return out;
  }

  function self_attention(X, Wq, Wk, Wv, mask) {  // X (n, d_model) -> {output (n, d_v), weights (n, n)}
    return attention(matmul(X, Wq), matmul(X, Wk), matmul(X, Wv), mask, null);
  }

  function cross_attention(X, Y, Wq, Wk, Wv, mask) {  // X (N, d_model), Y (M, d_model) -> N x M weights
    return attention(matmul(X, Wq), matmul(Y, Wk), matmul(Y, Wv), mask, null);
  }

  function add_matrices(A, B) { return A.map(function (r, i) { return r.map(function (v, c) { return v + B[i][c]; }); }); }

  // Is attention(X)[perm] np.allclose to attention(X[perm])? {equal, max_diff}; see the core's docstring.
  function permutation_check(X, Wq, Wk, Wv, perm, positions, Y) {
    var n = X.length, d = n ? X[0].length : 0;
    var seen = perm.slice().sort(function (p, q) { return p - q; });
    if (perm.length !== n || seen.some(function (v, i) { return v !== i; })) {
      throw new Error("perm must hold each of 0.." + (n - 1) + " exactly once, got [" + perm + "]");
    }
    var pe = positions ? sinusoidal_positions(n, d) : X.map(function (r) { return r.map(function () { return 0; }); });
    var Xp = perm.map(function (i) { return X[i]; });
    var run;
    if (Y == null) {
      run = function (Z) { return self_attention(Z, Wq, Wk, Wv).output; };
    } else {
      var Yp = positions ? add_matrices(Y, sinusoidal_positions(Y.length, Y[0].length)) : Y;
      run = function (Z) { return cross_attention(Z, Yp, Wq, Wk, Wv).output; };
    }
    var full = run(add_matrices(X, pe));
    var before = perm.map(function (i) { return full[i]; }), after = run(add_matrices(Xp, pe));
    var max_diff = 0, equal = true;
    for (var i = 0; i < before.length; i++) {
      for (var c = 0; c < before[i].length; c++) {
        var diff = Math.abs(before[i][c] - after[i][c]);
        if (diff > max_diff) max_diff = diff;
        if (!(diff <= 1e-8 + 1e-5 * Math.abs(after[i][c]))) equal = false;  // np.allclose(before, after)
      }
    }
    return { equal: equal, max_diff: max_diff };
  }

  api.matmul = matmul;
  api.sinusoidal_positions = sinusoidal_positions;
  api.self_attention = self_attention;
  api.cross_attention = cross_attention;
  api.permutation_check = permutation_check;
  // --- masking (attention_core/masking.py) ---------------------------------------------------
  // Masks are arrays of rows of booleans, (N, M), true where query i may attend to key j.
  function masking_whole(x, name, low) {
    if (!(Number.isInteger(x) && x >= low)) throw new Error(name + " must be a whole number >= " + low + ", got " + x);
    return x;
  }

  function masking_mask_from(n, m, allowed) {  // allowed(i, j) -> (n, m)
    var out = [];
    for (var i = 0; i < n; i++) {
      var row = new Array(m);
      for (var j = 0; j < m; j++) row[j] = allowed(i, j);
      out.push(row);
    }
    return out;
  }

  // causal_mask(n, m): j <= i; m defaults to n.
  function causal_mask(n, m) {
    masking_whole(n, "n", 1);
    m = m == null ? n : masking_whole(m, "m", 1);
    return masking_mask_from(n, m, function (i, j) { return j <= i; });
  }

  // padding_mask(n, m, p): the last p of m keys are blocked for every query.
  function padding_mask(n, m, p) {
    masking_whole(n, "n", 1); masking_whole(m, "m", 1); masking_whole(p, "p", 0);
    if (p > m) throw new Error("cannot pad " + p + " of only " + m + " keys: p must be between 0 and m = " + m);
    return masking_mask_from(n, m, function (i, j) { return j < m - p; });
  }

  // window_mask(n, w, causal): causal i - w < j <= i; otherwise |i - j| < w.
  function window_mask(n, w, causal) {
    masking_whole(n, "n", 1); masking_whole(w, "w", 1);
    if (causal == null || causal) return masking_mask_from(n, n, function (i, j) { return j <= i && j > i - w; });
    return masking_mask_from(n, n, function (i, j) { return Math.abs(i - j) < w; });
  }

  // masked_scores(S, mask): -Infinity where blocked, (N, M) -> (N, M).
  function masked_scores(S, mask) {
    return S.map(function (row, i) { return row.map(function (v, j) { return mask[i][j] ? v : -Infinity; }); });
  }

  function masking_weighted_sum(W, V) {  // (N, M), (M, d_v) -> (N, d_v)
    var d_v = V[0].length;
    return W.map(function (w) {
      var o = new Array(d_v).fill(0);
      for (var j = 0; j < w.length; j++) for (var c = 0; c < d_v; c++) o[c] += w[j] * V[j][c];
      return o;
    });
  }

  function masking_sum(a) { var s = 0; for (var i = 0; i < a.length; i++) s += a[i]; return s; }
  function masking_norm(a) { var s = 0; for (var i = 0; i < a.length; i++) s += a[i] * a[i]; return Math.sqrt(s); }

  // zero_after_softmax(S, mask, V): softmax over every key, then blocked weights set to 0 (no
  // renormalising) -> {weights (N, M), output (N, d_v)}.
  function zero_after_softmax(S, mask, V) {
    if (V.length !== S[0].length) throw new Error("V must have one row per key: " + V.length + " rows for M = " + S[0].length);
    var weights = S.map(function (row, i) {
      return softmax(row).map(function (w, j) { return mask[i][j] ? w : 0; });
    });
    return { weights: weights, output: masking_weighted_sum(weights, V) };
  }

  // attention_loop(Q, K, V, mask, scale): plain loops, the reference -> {output, weights}.
  function attention_loop(Q, K, V, mask, scale) {
    var N = Q.length, M = K.length, d_k = Q[0].length, d_v = V[0].length;
    var s = scale == null ? default_scale(d_k) : scale;
    var weights = [], output = [];
    for (var i = 0; i < N; i++) {
      var row = new Array(M).fill(0), out = new Array(d_v).fill(0), top = -Infinity, j, c;
      var raw = new Array(M);
      for (j = 0; j < M; j++) {
        var d = 0;
        for (c = 0; c < d_k; c++) d += Q[i][c] * K[j][c];
        raw[j] = d * s;
        if ((mask == null || mask[i][j]) && raw[j] > top) top = raw[j];
      }
      if (top !== -Infinity) {
        var total = 0;
        for (j = 0; j < M; j++) if (mask == null || mask[i][j]) { row[j] = Math.exp(raw[j] - top); total += row[j]; }
        for (j = 0; j < M; j++) row[j] = row[j] / total;
        for (c = 0; c < d_v; c++) for (j = 0; j < M; j++) out[c] += row[j] * V[j][c];
      }
      weights.push(row);
      output.push(out);
    }
    return { output: output, weights: weights };
  }

  // masking_steps(Q, K, V, mask, scale): the masking plate's numbers (see MaskingSteps).
  function masking_steps(Q, K, V, mask, scale) {
    var s = scale == null ? default_scale(Q[0].length) : scale;
    if (mask.length !== Q.length || mask[0].length !== K.length) {
      throw new Error("mask must have shape (N, M) = (" + Q.length + ", " + K.length + ")");
    }
    var res = attention(Q, K, V, mask, s);
    var scaled = scores(Q, K).map(function (row) { return row.map(function (v) { return v * s; }); });  // (N, M)
    var shown = masked_scores(scaled, mask);
    var empty = mask.map(function (row) { return row.indexOf(true) < 0; });
    var exp = shown.map(function (row, i) {
      if (empty[i]) return row.map(function () { return 0; });
      var top = -Infinity;
      for (var j = 0; j < row.length; j++) if (row[j] > top) top = row[j];
      return row.map(function (v) { return Math.exp(v - top); });  // exp(-Infinity) = 0
    });
    var contrast = zero_after_softmax(scaled, mask, V);
    return {
      scaled: scaled, shown: shown, exp: exp, exp_total: exp.map(masking_sum),
      weights: res.weights, row_sums: res.weights.map(masking_sum), output: res.output,
      full: scaled.map(function (row) { return softmax(row); }),
      contrast_weights: contrast.weights, contrast_row_sums: contrast.weights.map(masking_sum),
      contrast_output: contrast.output,
      norms: res.output.map(masking_norm), contrast_norms: contrast.output.map(masking_norm),
      empty_rows: empty, scale: s,
    };
  }

  api.causal_mask = causal_mask;
  api.padding_mask = padding_mask;
  api.window_mask = window_mask;
  api.masked_scores = masked_scores;
  api.zero_after_softmax = zero_after_softmax;
  api.attention_loop = attention_loop;
  api.masking_steps = masking_steps;
  // --- multi-head (attention_core/multi_head.py) ---
  function mh_count(v, name) {
    if (typeof v !== "number" || !Number.isInteger(v)) throw new Error(name + " must be a whole number, got " + v);
    if (v < 1) throw new Error(name + " must be at least 1, got " + v);
    return v;
  }
  function head_width(width, h, name) {  // (), () -> () width / h
    mh_count(width, name || "d_model"); mh_count(h, "h");
    if (width % h !== 0) {
      throw new Error(h + " heads do not divide " + (name || "d_model") + " = " + width + ": each head would be " +
        String(Number((width / h).toPrecision(6))) + " wide; pick h among the divisors of " + width);
    }
    return width / h;
  }
  function head_divisor(d_model, h) { return Math.sqrt(head_width(d_model, h)); }
  function mh_matmul(A, B) {  // (n, k), (k, m) -> (n, m)
    var k = B.length, m = k ? B[0].length : 0;
    return A.map(function (row) {
      if (row.length !== k) throw new Error("matmul needs " + k + " columns, got " + row.length);
      var out = new Array(m).fill(0);
      for (var t = 0; t < k; t++) { var a = row[t], b = B[t]; for (var c = 0; c < m; c++) out[c] += a * b[c]; }
      return out;
    });
  }
  // split_heads(X, h): (n, d) -> (h, n, d/h); head i takes columns i·d/h .. (i+1)·d/h - 1.
  function split_heads(X, h) {
    var d_h = head_width(X[0].length, h, "the last axis of X"), out = [];
    for (var i = 0; i < h; i++) out.push(X.map(function (row) { return row.slice(i * d_h, (i + 1) * d_h); }));
    return out;
  }
  // merge_heads(H): (h, n, d_h) -> (n, h·d_h), the heads side by side.
  function merge_heads(H) {
    return H[0].map(function (_, r) { return [].concat.apply([], H.map(function (head) { return head[r]; })); });
  }
  function head_scores(X, Wq, Wk, h) {  // (n, d), (d, h·d_k) x2 -> (h, n, n)
    var Qh = split_heads(mh_matmul(X, Wq), h), Kh = split_heads(mh_matmul(X, Wk), h);
    return Qh.map(function (Q, i) { return scores(Q, Kh[i]); });
  }
  // multi_head_attention(X, Wq, Wk, Wv, Wo, h) -> {output (n, d_out), weights (h, n, n), concat (n, h·d_v)}
  function multi_head_attention(X, Wq, Wk, Wv, Wo, h) {
    mh_count(h, "h");
    if (X.length === 0) throw new Error("X needs at least one token (row)");
    var Qh = split_heads(mh_matmul(X, Wq), h);  // (h, n, d_k)
    var Kh = split_heads(mh_matmul(X, Wk), h);  // (h, n, d_k)
    var Vh = split_heads(mh_matmul(X, Wv), h);  // (h, n, d_v)
    var heads = [], weights = [];
    for (var i = 0; i < h; i++) {
      var r = attention(Qh[i], Kh[i], Vh[i], null, null);  // scale 1/sqrt(d_k) of this head
      heads.push(r.output); weights.push(r.weights);
    }
    var concat = merge_heads(heads);  // (n, h·d_v)
    return { output: mh_matmul(concat, Wo), weights: weights, concat: concat };
  }
  // param_counts(d_model, h, d_v): the numbers the maps hold, per head and in all; keys as the core's.
  function param_counts(d_model, h, d_v) {
    var d_k = head_width(d_model, h);
    if (d_v == null) d_v = d_k; else mh_count(d_v, "d_v");
    var query = d_model * d_k, key = d_model * d_k, value = d_model * d_v, per_head = query + key + value;
    var qkv_total = h * per_head, w_o = h * d_v * d_model;
    return {
      d_model: d_model, h: h, d_k: d_k, d_v: d_v, query_per_head: query, key_per_head: key, value_per_head: value,
      per_head: per_head, query_total: h * query, key_total: h * key, value_total: h * value, qkv_total: qkv_total,
      full_width_head: d_model * (2 * h * d_k + h * d_v), w_o: w_o, total: qkv_total + w_o, divisor: Math.sqrt(d_k),
    };
  }
  api.head_width = head_width; api.head_divisor = head_divisor; api.split_heads = split_heads;
  api.merge_heads = merge_heads; api.head_scores = head_scores; api.multi_head_attention = multi_head_attention;
  api.param_counts = param_counts;
  // --- backward (attention_core/backward.py) -------------------------------------------------
  function train_transpose(A) {  // (n, m) -> (m, n)
    return A.length ? A[0].map(function (_, c) { return A.map(function (row) { return row[c]; }); }) : [];
  }

  // attention_grads(Q, K, V, d_output, mask, scale) -> {dQ (N, d_k), dK (M, d_k), dV (M, d_v)}:
  // the gradients of sum(d_output * attention(Q, K, V, mask, scale).output). Blocked pairs and
  // rows with nothing allowed have weight 0, so every term through them is 0.
  function attention_grads(Q, K, V, d_output, mask, scale) {
    var res = attention(Q, K, V, mask, scale);
    var A = res.weights;  // (N, M)
    var N = Q.length, M = K.length, d_k = K[0].length, d_v = V[0].length, i, j, c;
    if (d_output.length !== N || d_output.some(function (r) { return r.length !== d_v; })) {
      throw new Error("d_output must have the output's shape (" + N + ", " + d_v + "), got " + d_output.length +
        " rows of " + d_output.map(function (r) { return r.length; }).join("/"));
    }
    check_finite([].concat.apply([], d_output), "d_output");
    var s = scale == null ? default_scale(Q[0].length) : scale;
    var dV = [];  // (M, d_v) each value is blamed by the weight it got
    for (j = 0; j < M; j++) {
      dV.push(new Array(d_v).fill(0));
      for (c = 0; c < d_v; c++) { var t = 0; for (i = 0; i < N; i++) t += A[i][j] * d_output[i][c]; dV[j][c] = t; }
    }
    var dS = [];  // (N, M) the softmax's Jacobian row by row: A (dA - sum(dA A)), times the scale
    for (i = 0; i < N; i++) {
      var dA = new Array(M), row_dot = 0;  // (M,)
      for (j = 0; j < M; j++) { var u = 0; for (c = 0; c < d_v; c++) u += d_output[i][c] * V[j][c]; dA[j] = u; }
      for (j = 0; j < M; j++) row_dot += dA[j] * A[i][j];
      dS.push(dA.map(function (g, jj) { return A[i][jj] * (g - row_dot) * s; }));
    }
    return { dQ: matmul(dS, K), dK: matmul(train_transpose(dS), Q), dV: dV };
  }
  api.attention_grads = attention_grads;
  // --- training (attention_core/training.py): the page gets its start state from Python ---
  var TRAIN_TIES = { none: ["W_Q", "W_K"], shared: ["W_QK"], identity: [] };
  var TRAIN_BETA1 = 0.9, TRAIN_BETA2 = 0.999, TRAIN_EPS = 1e-8;

  function train_check(settings) {  // the settings the step uses; seed and init_scale stay in Python
    ["T", "d_model", "d_k"].forEach(function (k) {
      if (!Number.isInteger(settings[k]) || settings[k] < 1) throw new Error(k + " must be a whole number >= 1, got " + settings[k]);
    });
    if (settings.T < 3) throw new Error("T must be at least 3, got " + settings.T);
    if (settings.d_model < settings.T) throw new Error("one-hot tokens need d_model >= T, got d_model = " + settings.d_model + " and T = " + settings.T);
    if (!TRAIN_TIES.hasOwnProperty(settings.tie)) throw new Error("tie must be none, shared or identity, got " + settings.tie);
    if (settings.tie === "identity" && settings.d_k !== settings.d_model) throw new Error("tie 'identity' needs d_k = d_model = " + settings.d_model + ", got " + settings.d_k);
    if (settings.optimizer !== "gd" && settings.optimizer !== "adam") throw new Error("optimizer must be gd or adam, got " + settings.optimizer);
    if (!(Number.isFinite(settings.lr) && settings.lr > 0)) throw new Error("lr must be a finite number above 0, got " + settings.lr);
    if (typeof settings.scaled !== "boolean") throw new Error("scaled must be true or false, got " + settings.scaled);
  }

  function train_check_params(settings, params, what) {  // each (d_model, d_k)
    var names = TRAIN_TIES[settings.tie];
    var have = Object.keys(params).sort().join(", ");
    if (have !== names.slice().sort().join(", ")) throw new Error("tie " + settings.tie + " needs " + what + " [" + names.join(", ") + "], got [" + have + "]");
    names.forEach(function (n) {
      var W = params[n];
      if (W.length !== settings.d_model || W.some(function (r) { return r.length !== settings.d_k; })) {
        throw new Error(n + " must have shape (d_model, d_k) = (" + settings.d_model + ", " + settings.d_k + ")");
      }
      W.forEach(function (r) { check_finite(r, n); });
    });
  }

  function one_hot_tokens(T, d_model) {  // (T, d_model) token i is basis vector i
    var X = [];
    for (var i = 0; i < T; i++) { var r = new Array(d_model).fill(0); r[i] = 1; X.push(r); }
    return X;
  }

  function target_weights(T) {  // (T, T) row i on key (i + 1) mod T
    var A = [];
    for (var i = 0; i < T; i++) { var r = new Array(T).fill(0); r[(i + 1) % T] = 1; A.push(r); }
    return A;
  }

  function train_scale(settings) { return settings.scaled ? 1 / Math.sqrt(settings.d_k) : 1; }

  function train_score_maps(settings, params) {  // [W_Q, W_K], each (d_model, d_k)
    if (settings.tie === "none") return [params.W_Q, params.W_K];
    if (settings.tie === "shared") return [params.W_QK, params.W_QK];
    var I = one_hot_tokens(settings.d_model, settings.d_model);  // (d_model, d_model) Q = K = X
    return [I, I];
  }

  function train_forward(settings, params) {
    var X = one_hot_tokens(settings.T, settings.d_model);  // (T, d_model)
    var maps = train_score_maps(settings, params);
    var Q = matmul(X, maps[0]), K = matmul(X, maps[1]);  // (T, d_k) each
    var res = attention(Q, K, X, null, train_scale(settings));  // values V = X
    var Y = matmul(target_weights(settings.T), X);  // (T, d_model) Y[i] = X[(i + 1) mod T]
    return { X: X, Q: Q, K: K, output: res.output, weights: res.weights, Y: Y };
  }

  function train_add(A, B) { return A.map(function (r, i) { return r.map(function (v, c) { return v + B[i][c]; }); }); }

  // loss_and_grads(settings, params) -> {loss, grads}: L = (1/T) sum ||output_i - Y_i||^2 and
  // dL/dW for each parameter of the tie (dW = X^T dQ; a shared map collects both roles).
  function loss_and_grads(settings, params) {
    train_check(settings);
    train_check_params(settings, params, "parameters");
    var f = train_forward(settings, params), T = settings.T, loss = 0;
    var err = f.output.map(function (r, i) { return r.map(function (v, c) { return v - f.Y[i][c]; }); });  // (T, d_model)
    err.forEach(function (r) { r.forEach(function (e) { loss += e * e; }); });
    var d_output = err.map(function (r) { return r.map(function (e) { return 2 * e / T; }); });  // (T, d_model)
    var g = attention_grads(f.Q, f.K, f.X, d_output, null, train_scale(settings));
    var Xt = train_transpose(f.X);  // (d_model, T)
    var dW_Q = matmul(Xt, g.dQ), dW_K = matmul(Xt, g.dK);  // (d_model, d_k) each
    var grads = settings.tie === "none" ? { W_Q: dW_Q, W_K: dW_K }
      : settings.tie === "shared" ? { W_QK: train_add(dW_Q, dW_K) } : {};
    return { loss: loss / T, grads: grads };
  }

  // train_step(settings, state) -> a new state {params, m, v, step}; `state` is not changed.
  // Plain gradient descent, or Adam with bias correction (betas 0.9, 0.999, eps 1e-8).
  function train_step(settings, state) {
    train_check(settings);
    train_check_params(settings, state.m, "first moments");
    train_check_params(settings, state.v, "second moments");
    if (!(Number.isInteger(state.step) && state.step >= 0)) throw new Error("step must be a whole number >= 0, got " + state.step);
    var grads = loss_and_grads(settings, state.params).grads, t = state.step + 1, lr = settings.lr;
    var out = { params: {}, m: {}, v: {}, step: t };
    TRAIN_TIES[settings.tie].forEach(function (n) {
      var W = state.params[n], G = grads[n], M0 = state.m[n], V0 = state.v[n];
      if (settings.optimizer === "gd") {
        out.params[n] = W.map(function (r, i) { return r.map(function (w, c) { return w - lr * G[i][c]; }); });
        out.m[n] = M0.map(function (r) { return r.slice(); });
        out.v[n] = V0.map(function (r) { return r.slice(); });
        return;
      }
      var c1 = 1 - Math.pow(TRAIN_BETA1, t), c2 = 1 - Math.pow(TRAIN_BETA2, t);  // bias correction: m, v start at 0
      out.m[n] = M0.map(function (r, i) { return r.map(function (m, c) { return TRAIN_BETA1 * m + (1 - TRAIN_BETA1) * G[i][c]; }); });
      out.v[n] = V0.map(function (r, i) { return r.map(function (v, c) { return TRAIN_BETA2 * v + (1 - TRAIN_BETA2) * (G[i][c] * G[i][c]); }); });
      out.params[n] = W.map(function (r, i) {
        return r.map(function (w, c) { return w - lr * (out.m[n][i][c] / c1) / (Math.sqrt(out.v[n][i][c] / c2) + TRAIN_EPS); });
      });
    });
    return out;
  }

  // head_readout(settings, state): what the plate draws (the same fields as the core's HeadReadout).
  function head_readout(settings, state) {
    var lg = loss_and_grads(settings, state.params), f = train_forward(settings, state.params);
    var s = train_scale(settings), T = settings.T, maps = train_score_maps(settings, state.params);
    var S = scores(f.Q, f.K).map(function (r) { return r.map(function (v) { return v * s; }); });  // (T, T)
    var target = target_weights(T), asymmetry = 0, sq = 0;
    for (var i = 0; i < T; i++) for (var j = 0; j < T; j++) asymmetry = Math.max(asymmetry, Math.abs(S[i][j] - S[j][i]));
    Object.keys(lg.grads).forEach(function (n) { lg.grads[n].forEach(function (r) { r.forEach(function (g) { sq += g * g; }); }); });
    return {
      loss: lg.loss, output: f.output, weights: f.weights, scores: S, target: target,
      target_mass: f.weights.map(function (r, i) { return r[(i + 1) % T]; }),
      qk: matmul(maps[0], train_transpose(maps[1])), grad_norm: Math.sqrt(sq), asymmetry: asymmetry, step: state.step,
    };
  }
  // stalled(readout): every row one-hot (largest weight >= SATURATED), some on a wrong key (the core's stalled).
  var SATURATED = 0.999;
  function stalled(readout) {
    var w = readout.weights;
    return w.every(function (r) { return Math.max.apply(null, r) >= SATURATED; }) &&
      readout.target_mass.some(function (m) { return m < 0.5; });
  }
  api.one_hot_tokens = one_hot_tokens; api.target_weights = target_weights; api.loss_and_grads = loss_and_grads;
  api.train_step = train_step; api.head_readout = head_readout; api.stalled = stalled; api.SATURATED = SATURATED;
  if (typeof globalThis !== "undefined") globalThis.AttentionMirror = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AttentionMirror;
