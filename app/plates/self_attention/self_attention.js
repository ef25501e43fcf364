// self_attention.js: the "All tokens at once" plate's live path. Every widget change (n, the
// shuffle, positions, cross-attention) is recomputed here with AttentionMirror (mirror.js) and
// written into the plate's sources and axes, so the page follows at once and works in an
// exported file; on a served page a run of changes ends in one commit (AESync.until_still) and
// Python recomputes the same numbers with attention_core and replaces them (the authority).
// frame_data() writes exactly what data.py's frame_data() writes. `a` holds the plate's models
// by name (see view.py), a.sync and a.link.
var SelfAttentionLive = (typeof globalThis !== "undefined" && globalThis.SelfAttentionLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var SUM_FACTOR = "\u03a3";

  var fix = AEPage.fix, sci = AEPage.sci, paren = AEPage.paren;  // app/shared/formatting.py's, as data.py uses them
  var TINY = 1e-12;  // differences below this are float rounding, which NumPy and the browser round differently
  function show_diff(x) { return x < TINY ? "< 1e-12" : (x >= 0.001 ? fix(x, 3) : sci(x, 1, false)); }
  function diff_clause(x) { return x < TINY ? "< 1e-12 (float rounding only)" : "= " + show_diff(x); }
  function show_exp(x) { return x < 1e5 ? fix(x, 3) : sci(x, 3, false); }
  function zeros(n, d) { var out = []; for (var i = 0; i < n; i++) out.push(new Array(d).fill(0)); return out; }
  function plus(A, B) { return A.map(function (r, i) { return r.map(function (v, c) { return v + B[i][c]; }); }); }
  function range(n) { var out = []; for (var i = 0; i < n; i++) out.push(i); return out; }

  // The settings the widgets hold, or {error: message} when one cannot be read.
  function settings(a) {
    var D = a.data;
    var n = a.n.value, k = a.shuffle.value;
    if (n == null || !Number.isFinite(Number(n)) || Number(n) !== Math.round(Number(n)) || n < D.n_min || n > D.n_max) {
      return { error: settings_error("Tokens n", D.n_min, D.n_max) };
    }
    if (k == null || !Number.isFinite(Number(k)) || Number(k) !== Math.round(Number(k)) || k < 0 || k > D.max_shuffle) {
      return { error: settings_error("Shuffle #", 0, D.max_shuffle) };
    }
    return { n: Number(n), shuffle: Number(k), positions: a.positions.active.indexOf(0) >= 0,
             cross: a.cross.active.indexOf(0) >= 0 };
  }

  // Every number of one state, as state.py's compute().
  function compute(D, st) {
    var n = st.n, d = D.d, perm = D.perms[String(n)][st.shuffle];
    var X = D.X.slice(0, n);
    var pe = st.positions ? M.sinusoidal_positions(n, d) : zeros(n, d);
    var inputs = plus(perm.map(function (t) { return X[t]; }), pe);
    var res, original, chk, keys_in;
    if (st.cross) {
      var m = n + 2, Y0 = D.Y.slice(0, m);
      var Y = st.positions ? plus(Y0, M.sinusoidal_positions(m, d)) : Y0;
      res = M.cross_attention(inputs, Y, D.Wq, D.Wk, D.Wv);
      original = M.cross_attention(plus(X, pe), Y, D.Wq, D.Wk, D.Wv).output;
      chk = M.permutation_check(X, D.Wq, D.Wk, D.Wv, perm, st.positions, Y0);
      keys_in = Y;
    } else {
      res = M.self_attention(inputs, D.Wq, D.Wk, D.Wv);
      original = M.self_attention(plus(X, pe), D.Wq, D.Wk, D.Wv).output;
      chk = M.permutation_check(X, D.Wq, D.Wk, D.Wv, perm, st.positions);
      keys_in = inputs;
    }
    var raw = M.scores(M.matmul(inputs, D.Wq), M.matmul(keys_in, D.Wk));
    var s = M.default_scale(d);
    var scaled = raw.map(function (r) { return r.map(function (v) { return v * s; }); });
    var output = res.output;
    return {
      n: n, perm: perm, positions: st.positions, cross: st.cross, X: X, pe: pe, inputs: inputs, keys_in: keys_in,
      M: keys_in.length, raw: raw, scaled: scaled,
      exp: scaled.map(function (r) { return r.map(Math.exp); }),
      weights: res.weights, V: M.matmul(keys_in, D.Wv), output: output, original: original,
      diff: output.map(function (r, i) { return r.map(function (v, c) { return Math.abs(original[perm[i]][c] - v); }); }),
      equal: chk.equal, max_diff: chk.max_diff,
    };
  }

  function check_expression(positions, cross) {
    var fn = cross ? "cross_attention" : "self_attention", y = cross ? ", Y" : "";
    if (positions) return [fn + "(X + PE" + y + ")[perm]", fn + "(X[perm] + PE" + y + ")"];
    return [fn + "(X" + y + ")[perm]", fn + "(X[perm]" + y + ")"];
  }

  function check_html(equal, max_diff, positions, cross, reordered) {  // data.py's check_html
    var lr = check_expression(positions, cross);
    var note = reordered === false
      ? "nothing to check: the tokens are in their original order, so both sides are the same; shuffle them"
      : equal ? "reordering the tokens only reorders the outputs"
      : "the positions make the outputs depend on where each token sits";
    return "<div class='ae-readout'><span class='ae-big'>np.allclose \u2192 " + (equal ? "True" : "False") +
      "</span><span class='ae-sub'>max |" + lr[0] + " \u2212 " + lr[1] + "| " + diff_clause(max_diff) + "</span>" +
      "<span class='ae-sub'>" + note + "</span></div>";
  }

  function order_html(D, n, perm) {
    var order = perm.map(function (t) { return D.letters.charAt(t); }).join(" ");
    var identity = perm.every(function (t, i) { return t === i; });
    return "<div class='ae-order'>order fed in: <b>" + order + "</b>" + (identity ? " (the original order)" : "") +
      " \u00b7 perm = [" + perm.join(", ") + "]</div>";
  }

  function cells(keys) { var o = {}; keys.forEach(function (k) { o[k] = []; }); return o; }
  function add_row(src, values) { Object.keys(src).forEach(function (k, idx) { src[k].push(values[idx]); }); }

  // Every source's data and axis factors for one frame (the Python frame_data, line for line).
  function frame_data(D, f) {
    var n = f.n, Mk = f.M, d = D.d, L = D.letters, YL = D.y_letters, i, j, c;
    var rows = f.perm.map(function (t, i) { return i + " " + L.charAt(t); });
    var keys = f.cross ? range(Mk).map(function (j) { return j + " " + YL.charAt(j); }) : rows;
    var orig = range(n).map(function (i) { return i + " " + L.charAt(i); });
    var entries = range(d).map(String);
    var CELL = ["i", "c", "x", "y", "value", "label", "text"], PAIR = ["i", "j", "x", "y", "value", "label", "text"];
    var tok = cells(CELL);
    for (i = 0; i < n; i++) {
      var name = L.charAt(f.perm[i]);
      for (c = 0; c < d; c++) {
        var x = f.X[f.perm[i]][c], pe = f.pe[i][c], v = f.inputs[i][c];
        var text = "token " + name + " at position " + i + ", entry " + c + ": x = " + fix(x, 3);
        if (f.positions) text += " + PE[" + i + "," + c + "] " + paren(fix(pe, 3)) + " = " + fix(v, 3);
        add_row(tok, [i, c, entries[c], rows[i], v, fix(v, 2), text]);
      }
    }
    var sc = cells(PAIR), we = cells(PAIR);
    var key_token = f.cross ? range(Mk).map(function (j) { return YL.charAt(j); }) : f.perm.map(function (t) { return L.charAt(t); });
    var sqrt_dk = Math.sqrt(d);
    for (i = 0; i < n; i++) {
      var total = f.exp[i].reduce(function (p, q) { return p + q; }, 0);
      for (j = 0; j < Mk; j++) {
        var raw = f.raw[i][j], s = f.scaled[i][j], w = f.weights[i][j];
        var st = "q" + i + " \u00b7 k" + j + " / \u221a" + d + " = " + fix(raw, 3) + " / " + fix(sqrt_dk, 0) + " = " + fix(s, 3) +
          " (query of " + L.charAt(f.perm[i]) + ", key of " + key_token[j] + ")";
        var wt = "w" + i + "," + j + " = exp(" + fix(s, 3) + ") / \u03a3_m exp(s" + i + ",m) = " + show_exp(f.exp[i][j]) +
          " / " + show_exp(total) + " = " + fix(w, 3);
        add_row(sc, [i, j, keys[j], rows[i], s, fix(s, 2), st]);
        add_row(we, [i, j, keys[j], rows[i], w, fix(w, 2), wt]);
      }
    }
    var sums = f.weights.map(function (r) { return r.reduce(function (p, q) { return p + q; }, 0); });
    var out = cells(CELL), org = cells(CELL), dif = cells(CELL);
    for (i = 0; i < n; i++) {
      for (c = 0; c < d; c++) {
        var o = f.output[i][c], terms = [];
        for (j = 0; j < Mk; j++) terms.push(fix(f.weights[i][j], 3) + "\u00d7" + paren(fix(f.V[j][c], 3)));
        var ot = "o" + i + "," + c + " = \u03a3_j w" + i + ",j v_j," + c + " = " + terms.join(" + ") + " = " + fix(o, 3);
        var g = f.original[i][c];
        var gt = "token " + L.charAt(i) + " in the original order, entry " + c + ": o" + i + "," + c + " = " + fix(g, 3);
        var dd = f.diff[i][c], before = f.original[f.perm[i]][c];
        var dt = "|row " + f.perm[i] + " of the original order's output \u2212 row " + i + " of this output|, entry " + c +
          ": |" + fix(before, 3) + " \u2212 " + fix(o, 3) + "| = " + show_diff(dd);
        add_row(out, [i, c, entries[c], rows[i], o, fix(o, 2), ot]);
        add_row(org, [i, c, entries[c], orig[i], g, fix(g, 2), gt]);
        add_row(dif, [i, c, entries[c], rows[i], dd, fix(dd, 2), dt]);
      }
    }
    var lr = check_expression(f.positions, f.cross);
    return {
      sources: {
        tokens: tok, scores: sc, weights: we,
        row_sums: { i: range(n), sum: sums, x: rows.map(function () { return SUM_FACTOR; }), y: rows,
                    label: sums.map(function (v) { return fix(v, 2); }) },
        output: out, original_output: org, output_diff: dif,
        perm_check: { equal: [f.equal], max_diff: [f.max_diff], label: [f.equal ? "True" : "False"],
                      left: [lr[0]], right: [lr[1]], by: ["mirror.js"] },
      },
      factors: { rows: rows.slice().reverse(), keys: keys, keys_sum: keys.concat([SUM_FACTOR]), original: orig.slice().reverse() },
      order: order_html(D, n, f.perm),
      check: check_html(f.equal, f.max_diff, f.positions, f.cross, !f.perm.every(function (t, i) { return t === i; })),
    };
  }

  var quiet = AESync.quiet, quiet_text = AESync.text;

  var SOURCES = ["tokens", "scores", "weights", "row_sums", "output", "original_output", "output_diff", "perm_check"];

  // A run of changes (a held arrow key repeats every ~30 ms, so does Enter held on Shuffle) is led
  // by the browser: a.sync carries "busy" and Python waits, then reads the widgets once, when
  // they have been still for AESync.STILL_MS, instead of recomputing and resending every source
  // at each step. What the plate syncs: the four widgets.
  function sends(a) {
    return [[a.n, { value: a.n.value }], [a.shuffle, { value: a.shuffle.value }],
            [a.positions, { active: Array.from(a.positions.active) }], [a.cross, { active: Array.from(a.cross.active) }]];
  }
  function on_widget(a) {
    // BokehJS runs this callback for the values a commit itself sends, and for Python's answer
    // to them: the page already shows those settings, so there is nothing to do (without this
    // check every commit would start a new run and commit again, forever).
    if (shown_key(a) === settings_key(settings(a))) return null;
    var fd = recompute(a);
    AESync.until_still(a, function () { return sends(a); });
    return fd;
  }

  // A late answer of Python's (to an earlier run, landing after a later step) is not drawn
  // (AESync.guard_late). The page keeps the tokens and weights it computed for the widgets'
  // settings; a message that leaves other numbers there while the settings are the same (beyond
  // 1e-9: Python's answer to these settings agrees to 1e-12 and is kept) is an earlier answer,
  // and the page recomputes.
  function settings_key(st) {
    return st.error ? "error|" + st.error : [st.n, st.shuffle, st.positions, st.cross].join("|");
  }
  function shown_key(a) { var own = a.range_rows.__ae_own; return own ? own.key : null; }
  // The columns may be typed arrays (Python's) or arrays (the page's).
  function near(want, got) { return got != null && AESync.same_value(want, Array.from(got), 1e-9); }
  function guard(a) {
    AESync.guard_late(a.range_rows, [a.range_rows, a.weights, a.scores, a.tokens], function () {
      var own = a.range_rows.__ae_own, st = settings(a);
      if (own == null || st.error || own.key !== settings_key(st)) return false;
      return !near(own.tokens, a.tokens.data.value) || !near(own.weights, a.weights.data.value);
    }, function () { recompute(a); });
  }

  function recompute(a) {
    guard(a);
    var st = settings(a);
    if (st.error) {
      quiet(a.message, { text: st.error });
      var own = a.range_rows.__ae_own;  // the page keeps what it shows
      a.range_rows.__ae_own = { key: settings_key(st), st: own ? own.st : null, tokens: own ? own.tokens : null,
                                weights: own ? own.weights : null };
      return null;
    }
    if (a.message.text !== "") quiet(a.message, { text: "" });
    var fd = frame_data(a.data, compute(a.data, st));
    a.range_rows.__ae_own = { key: settings_key(st), st: st, tokens: Array.from(fd.sources.tokens.value),
                              weights: Array.from(fd.sources.weights.value) };
    Object.keys(fd.factors).forEach(function (k) { quiet(a["range_" + k], { factors: fd.factors[k] }); });
    SOURCES.forEach(function (k) { quiet(a[k], { data: fd.sources[k] }); });
    quiet_text(a.order, fd.order);
    quiet_text(a.check, fd.check);
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);
    return fd;
  }

  // The link (app/runtime/link.js): the state's values (those the page shows: a box emptied or
  // out of range leaves the last good ones there), and how an exported page (no Python) sets them.
  function url_values(a) {
    var st = settings(a);
    if (st.error) { var own = a.range_rows.__ae_own; st = own && own.st; }
    return st ? { n: st.n, shuffle: st.shuffle, positions: st.positions, cross: st.cross } : {};
  }
  function url_apply(a, v) {
    if (v.n !== undefined) a.n.value = v.n;
    if (v.shuffle !== undefined) a.shuffle.value = v.shuffle;
    if (v.positions !== undefined) a.positions.active = v.positions ? [0] : [];
    if (v.cross !== undefined) a.cross.active = v.cross ? [0] : [];
    if (Object.keys(v).length) recompute(a);  // otherwise the page keeps the numbers Python wrote into it
  }

  function on_shuffle(a) {
    var k = Number(a.shuffle.value);
    if (!(Number.isInteger(k) && k >= 0)) k = 0;
    a.shuffle.value = (k % a.data.max_shuffle) + 1;  // the js_on_change callback recomputes
  }

  function on_original(a) {
    if (a.shuffle.value === 0) return;
    a.shuffle.value = 0;
  }

  // Screen readers: text alternatives, the table view and a polite, throttled summary (a11y.js).
  function speak_text(a) { return AEA11y.text_of(a.check.text); }
  // Bokeh's Spinner leaves its value alone when the number typed is out of its range (99999, -5):
  // the box would show it beside a plate drawn for another value, with no word. When a box's
  // text is not the value it holds, the page says so (settings' own words) and keeps what it shows.
  var BOXES = [["n", function (D) { return settings_error("Tokens n", D.n_min, D.n_max); }],
               ["shuffle", function (D) { return settings_error("Shuffle #", 0, D.max_shuffle); }]];
  function settings_error(label, lo, hi) {
    return label + ": type a whole number from " + lo + " to " + hi + "; the plate keeps what it shows.";
  }
  function box_of(model) { return AEBokehView.root(model); }
  function check_boxes(a) {
    var wrong = null;
    BOXES.forEach(function (b) {
      var root = box_of(a[b[0]]), input = root && root.querySelector("input");
      if (!input || wrong) return;
      var text = input.value.trim(), value = a[b[0]].value;
      if (text !== "" && (value == null || Number(text) !== Number(value))) wrong = b[1](a.data);
    });
    if (wrong) quiet(a.message, { text: wrong });
    else if (!settings(a).error && a.message.text !== "") quiet(a.message, { text: "" });
  }
  function on_ready(a) {
    if (typeof document === "undefined") return;
    BOXES.forEach(function (b) {
      var root = box_of(a[b[0]]);  // the view's shadow root outlives a re-render of the input
      if (!root || root.__ae_checked) return;
      root.__ae_checked = true;
      ["change", "focusout"].forEach(function (type) {
        root.addEventListener(type, function () { setTimeout(function () { check_boxes(a); }, 0); });
      });
      root.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter") setTimeout(function () { check_boxes(a); }, 0);
      });
    });
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    on_ready: on_ready, speak_text: speak_text,
    fix: fix, show_diff: show_diff, show_exp: show_exp, settings: settings, compute: compute,
    frame_data: frame_data, check_html: check_html, order_html: order_html, recompute: recompute, on_widget: on_widget,
    on_shuffle: on_shuffle, on_original: on_original, sends: sends, url_values: url_values, url_apply: url_apply,
  };
  if (typeof globalThis !== "undefined") globalThis.SelfAttentionLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = SelfAttentionLive;
