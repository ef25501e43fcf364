// masking.js: the masking plate's live path. A tap on the mask or a change of any widget is
// computed here with AttentionMirror (mirror.js) and written into the plate's sources at once,
// in the browser (also in an exported file, with no server); at a gesture's end the page sends
// what the plate syncs (AESync.commit) and Python recomputes the same numbers with attention_core
// (the authority). `a` holds the plate's Bokeh models by name (see view.py), a.sync and a.link;
// every text and colour here is written exactly as data.py's view_data writes it.
var MaskingLive = (typeof globalThis !== "undefined" && globalThis.MaskingLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var MINUS = "\u2212", NEG_INF = MINUS + "\u221e", ARROW = "\u2192";
  var PAL = { query: "#D55E00", weights: "#E69F00", output: "#CC79A7", ink: "#1f2328" };
  var MASKED_FILL = "#6e7781", EMPTY_FILL = "#eaeef2", ALLOWED_FILL = "#eef5fb";
  var DIVERGE_NEG = "#0072B2", DIVERGE_POS = PAL.query, OUT_NEG = "#56B4E9", OUT_POS = PAL.output;
  var TOL = 1e-12;
  var updating = false;  // true while this file sets widgets itself (their callbacks then do nothing)

  var fix = AEPage.fix;  // app/shared/formatting.py's
  var STRENGTH = 0.85;  // cells.py's: the most a fill moves toward its colour
  function signed(x, d) { return fix(x, d).replace("-", MINUS); }

  // cells.py's shade: app/shared/colours.py's mix from white, halves rounded up as here.
  function shade(hex, t) {
    t = Math.min(1, Math.max(0, t)) * STRENGTH;
    var out = "#";
    [1, 3, 5].forEach(function (k) {
      var c = parseInt(hex.substr(k, 2), 16), v = Math.floor(255 + (c - 255) * t + 0.5);
      out += (v < 16 ? "0" : "") + v.toString(16);
    });
    return out;
  }
  function ink_for(fill) {
    var r = parseInt(fill.substr(1, 2), 16), g = parseInt(fill.substr(3, 2), 16), b = parseInt(fill.substr(5, 2), 16);
    return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? "#ffffff" : PAL.ink;
  }
  function signed_shade(x, top, neg, pos) {
    var t = top > 0 ? x / top : 0;
    return t >= 0 ? shade(pos, t) : shade(neg, -t);
  }
  function qname(i) { return "q" + (i + 1); }
  function kname(j) { return "k" + (j + 1); }
  function font_for(n) { return n <= 4 ? "11pt" : n <= 5 ? "10pt" : n <= 6 ? "9pt" : n <= 7 ? "8pt" : "7.5pt"; }
  function rows_list(idx) {
    var names = idx.map(function (i) { return String(i + 1); });
    return names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  function settings(a) {
    var n = Math.round(a.n.value);
    return {
      n: n, kind: a.kinds[a.kind.active],
      p: Math.min(Math.max(0, Math.round(a.p.value)), n), w: Math.min(Math.max(1, Math.round(a.w.value)), n),
      causal: a.causal_window.active.indexOf(0) >= 0, contrast: a.contrast.active === 1,
    };
  }

  // fit_cells(cells, n): the overlap kept, new cells causal (state.py's fit_cells).
  function fit_cells(cells, n) {
    var out = M.causal_mask(n), k = Math.min(n, cells.length);
    for (var i = 0; i < k; i++) for (var j = 0; j < k; j++) out[i][j] = cells[i][j];
    return out;
  }

  function mask_on_screen(a) {  // the mask source's cells as rows
    var al = a.mask.data.allowed, m = Math.round(Math.sqrt(al.length)), rows = [];
    for (var i = 0; i < m; i++) { var r = []; for (var j = 0; j < m; j++) r.push(!!al[i * m + j]); rows.push(r); }
    return rows;
  }

  function current_mask(a, st) {
    var n = st.n;
    if (st.kind === "none") return M.causal_mask(n).map(function (r) { return r.map(function () { return true; }); });
    if (st.kind === "causal") return M.causal_mask(n);
    if (st.kind === "padding") return M.padding_mask(n, n, st.p);
    if (st.kind === "window") return M.window_mask(n, st.w, st.causal);
    return fit_cells(mask_on_screen(a), n);
  }

  function rule_text(st) {
    var n = st.n, p = st.p, w = st.w;
    if (st.kind === "none") return "No mask: every query may attend to every key.";
    if (st.kind === "causal") return "Causal: q<sub>i</sub> may attend to k<sub>j</sub> when j \u2264 i, never to a later token.";
    if (st.kind === "padding") return "Padding: the last " + p + " of the " + n + " keys are padding, blocked for every query.";
    if (st.kind === "window") {
      if (st.causal) {
        return "Causal window, width " + w + ": q<sub>i</sub> may attend to k<sub>j</sub> when i " + MINUS + " " + w +
          " &lt; j \u2264 i (itself and the " + (w - 1) + " before it).";
      }
      return "Symmetric window, width " + w + ": q<sub>i</sub> may attend to k<sub>j</sub> when |i " + MINUS + " j| &lt; " +
        w + " (" + (w - 1) + " on each side, and itself).";
    }
    return "Custom: the cells you tapped. Tap a cell to flip it.";
  }

  function notes_html(st, empty) {
    var parts = ["<p class='ae-rule'>" + rule_text(st) + "</p>"];
    if (empty.length) {
      var lead = empty.length === 1
        ? "Row " + (empty[0] + 1) + " may attend to nothing: its weights are all 0 and its output is 0, not NaN."
        : "Rows " + rows_list(empty) + " may attend to nothing: their weights are all 0 and their outputs are 0, not NaN.";
      parts.push("<p class='ae-empty' role='status'><b>" + lead + "</b> Every score in such a row is " + NEG_INF +
        ", so a bare softmax would divide 0 by 0; attention_core returns zeros instead.</p>");
    }
    if (st.contrast) {
      parts.push("<p class='ae-contrast'>Zeroed after the softmax, a row that blocks anything keeps only part of " +
        "its weight, so it sums to less than 1 and its output shrinks (the bars on the right).</p>");
    }
    return "<div class='ae-notes'>" + parts.join("") + "</div>";
  }

  function max_abs(rows) {
    var m = 0;
    rows.forEach(function (r) { r.forEach(function (v) { if (Math.abs(v) > m) m = Math.abs(v); }); });
    return m;
  }

  // About the weights the page shows (zeroed after the softmax in that mode): a check mark never
  // stands beside a cell that contradicts it (data.py's checks_data, in the same words).
  var SCORES_TITLES = ["Scores S/\u221ad_k + M", "Scores S/\u221ad_k (no M)"];
  var NOTHING = "nothing to check: ";  // a check with nothing to check: "ok" null, marked \u2013 (data.py's MARKS)
  function checks_data(st, s, mask, rec) {
    var n = st.n, i, j, contrast = !!st.contrast;
    var shown_w = contrast ? s.contrast_weights : s.weights, shown_sums = contrast ? s.contrast_row_sums : s.row_sums;
    var sums_ok = true, n_one = 0, n_empty = 0, n_blocked = 0, zero_ok = true, shrink_ok = true, lo = Infinity, hi = -Infinity, n_shrink = 0;
    var single = [];
    for (i = 0; i < n; i++) {
      var empty = !contrast && s.empty_rows[i];
      if (empty) n_empty += 1;
      if (!(Math.abs(shown_sums[i] - (empty ? 0 : 1)) <= TOL)) sums_ok = false;
      if (Math.abs(shown_sums[i] - 1) <= TOL) n_one += 1;
      var blocks = false, allowed = [];
      for (j = 0; j < n; j++) {
        if (!mask[i][j]) { n_blocked += 1; blocks = true; if (shown_w[i][j] !== 0) zero_ok = false; }
        else allowed.push(j);
      }
      if (allowed.length === 1) single.push([i, shown_w[i][allowed[0]]]);
      var cs = s.contrast_row_sums[i];
      if (blocks) {
        n_shrink += 1; lo = Math.min(lo, cs); hi = Math.max(hi, cs);
        if (!(cs < 1)) shrink_ok = false;
      } else if (!(Math.abs(cs - 1) <= TOL)) shrink_ok = false;
    }
    var sums_detail = contrast
      ? n_one + " of " + n + " rows sum to 1" + (sums_ok ? "" : ": zeroed after the softmax, the rest fall short")
      : (n - n_empty) + " of " + n + " rows sum to 1" + (n_empty ? ", " + n_empty + " to 0" : "");
    var single_ok = single.length ? single.every(function (p) { return p[1] === 1; }) : null, single_detail;
    if (!single.length) single_detail = NOTHING + "no row has exactly one allowed key";
    else if (single_ok) single_detail = single.map(function (p) { return qname(p[0]); }).join(", ") + ": weight exactly 1 on the one key";
    else {
      var bad = single.filter(function (p) { return p[1] !== 1; })[0];
      single_detail = qname(bad[0]) + "'s one key gets " + fix(bad[1], 3) + ", not 1";
    }
    var loop = M.attention_loop(rec.Q, rec.K, rec.V, mask, null), diff = 0;
    for (i = 0; i < n; i++) {
      for (j = 0; j < n; j++) diff = Math.max(diff, Math.abs(loop.weights[i][j] - s.weights[i][j]));
      for (j = 0; j < s.output[i].length; j++) diff = Math.max(diff, Math.abs(loop.output[i][j] - s.output[i][j]));
    }
    var loop_ok = diff <= TOL;
    var finite_ok = [s.weights, s.output, s.contrast_weights, s.contrast_output].every(function (A) {
      return A.every(function (r) { return r.every(function (v) { return Number.isFinite(v); }); });
    });
    var rows = [
      ["Each row of weights sums to 1 (0 if nothing allowed)", sums_ok, sums_detail],
      ["Blocked pairs get weight exactly 0", n_blocked ? zero_ok : null,
        n_blocked ? n_blocked + " blocked, all exactly 0" : NOTHING + "nothing is blocked"],
      ["A row with one allowed key gives it weight exactly 1", single_ok, single_detail],
      ["Zeroed after softmax: a row that blocks sums below 1", n_shrink ? shrink_ok : null,
        n_shrink ? n_shrink + " rows: sums " + fix(lo, 3) + " \u2026 " + fix(hi, 3) : NOTHING + "no row blocks a key"],
      ["attention(Q, K, V, mask) equals a plain loop", loop_ok, loop_ok ? "differences < 1e-12" : "they disagree"],
      ["No NaN anywhere", finite_ok, "all weights and outputs finite"],
    ];
    return {
      check: rows.map(function (r) { return r[0]; }), ok: rows.map(function (r) { return r[1]; }),
      mark: rows.map(function (r) { return r[1] === null ? "\u2013" : (r[1] ? "\u2713" : "\u2717"); }),
      detail: rows.map(function (r) { return r[2]; }),
    };
  }

  // Every source's data for the current settings (data.py's view_data, in the same words).
  function view_data(st, s, mask, rec) {
    var n = st.n, d_v = rec.V[0].length, i, j;
    var top_s = max_abs(s.scaled), top_o = Math.max(max_abs(s.output), max_abs(s.contrast_output));
    function table(rows) {
      var out = {};
      Object.keys(rows[0]).forEach(function (k) { out[k] = rows.map(function (r) { return r[k]; }); });
      return out;
    }
    var mask_rows = [], score_rows = [], weight_rows = [], cw_rows = [];
    for (i = 0; i < n; i++) {
      for (j = 0; j < n; j++) {
        var ok = mask[i][j], pair = qname(i) + " " + ARROW + " " + kname(j);
        var base = function () { return { i: i, j: j, x: kname(j), y: qname(i) }; };
        var fill = ok ? ALLOWED_FILL : MASKED_FILL, r = base();
        r.allowed = ok; r.text = ok ? "0" : NEG_INF; r.fill = fill; r.ink = ink_for(fill);
        r.tip = pair + ": " + (ok ? "allowed, M = 0<br>tap to block it" : "blocked, M = " + NEG_INF + "<br>tap to allow it");
        mask_rows.push(r);
        var sc = s.scaled[i][j];
        r = base();
        if (st.contrast) {  // the softmax sees every score; the mask comes after it, on the weights
          fill = signed_shade(sc, top_s, DIVERGE_NEG, DIVERGE_POS);
          r.value = sc; r.text = signed(sc, 2); r.fill = fill; r.ink = ink_for(fill);
          r.tip = pair + ": q\u00b7k / \u221a4 = " + signed(sc, 3) + "<br>the softmax sees " + signed(sc, 3) +
            (ok ? "" : "; the mask zeroes its weight after");
        } else {
          fill = ok ? signed_shade(sc, top_s, DIVERGE_NEG, DIVERGE_POS) : MASKED_FILL;
          r.value = s.shown[i][j]; r.text = ok ? signed(sc, 2) : NEG_INF; r.fill = fill; r.ink = ink_for(fill);
          r.tip = pair + ": q\u00b7k / \u221a4 = " + signed(sc, 3) + "<br>" + (ok
            ? "+ M = 0 " + ARROW + " the softmax sees " + signed(sc, 3)
            : "+ M = " + NEG_INF + " " + ARROW + " the softmax sees " + NEG_INF + ", and exp(" + NEG_INF + ") = 0");
        }
        score_rows.push(r);
        var wv = s.weights[i][j], tip, text;
        if (ok) {
          fill = shade(PAL.weights, wv);
          tip = pair + ": exp(" + signed(sc, 3) + " " + MINUS + " row max) = " + fix(s.exp[i][j], 4) + "<br>\u00f7 row total " +
            fix(s.exp_total[i], 4) + " = weight " + fix(wv, 4);
          text = fix(wv, 2);
        } else {
          fill = EMPTY_FILL;
          tip = pair + ": blocked, score " + NEG_INF + ", exp(" + NEG_INF + ") = 0<br>weight exactly 0";
          text = "0";
        }
        if (s.empty_rows[i]) tip = pair + ": row " + (i + 1) + " may attend to nothing<br>weight 0, not 0/0";
        r = base();
        r.value = wv; r.text = text; r.fill = fill; r.ink = ink_for(fill); r.tip = tip;
        weight_rows.push(r);
        var cv = s.contrast_weights[i][j], fv = s.full[i][j];
        fill = ok ? shade(PAL.weights, cv) : EMPTY_FILL;
        r = base();
        r.value = cv; r.text = ok ? fix(cv, 2) : "0"; r.fill = fill; r.ink = ink_for(fill);
        r.tip = pair + ": softmax over all " + n + " keys = " + fix(fv, 4) + "<br>\u00d7 mask " + (ok ? 1 : 0) + " = " +
          fix(cv, 4) + " (the row is not renormalised)";
        cw_rows.push(r);
      }
    }
    function sums(values, empty) {
      var rows = [];
      for (var i = 0; i < n; i++) {
        var v = values[i], f = empty[i] ? EMPTY_FILL : shade(PAL.weights, v);
        rows.push({ i: i, x: "\u03a3", y: qname(i), sum: v, text: v === 0 ? "0" : fix(v, 3), fill: f, ink: ink_for(f),
                    tip: "\u03a3 of row " + (i + 1) + " = " + fix(v, 6) });
      }
      return table(rows);
    }
    function outputs(values, label) {
      var rows = [];
      for (var i = 0; i < n; i++) {
        for (var c = 0; c < d_v; c++) {
          var v = values[i][c], f = signed_shade(v, top_o, OUT_NEG, OUT_POS);
          rows.push({ i: i, c: c, x: String(c + 1), y: qname(i), value: v, text: v === 0 ? "0" : signed(v, 2), fill: f, ink: ink_for(f),
                      tip: "o" + (i + 1) + "[" + (c + 1) + "] = \u03a3_j w_" + (i + 1) + "j \u00b7 v_j[" + (c + 1) + "] = " +
                        signed(v, 4) + "<br>" + label });
        }
      }
      return table(rows);
    }
    var empty = s.empty_rows.slice(), none = empty.map(function () { return false; });
    var idx = [];
    for (i = 0; i < n; i++) if (empty[i]) idx.push(i);
    var top_norm = Math.max(Math.max.apply(null, s.norms), Math.max.apply(null, s.contrast_norms), 0);
    return {
      mask: table(mask_rows), scores: table(score_rows), weights: table(weight_rows),
      row_sums: sums(s.row_sums, empty), output: outputs(s.output, "weights renormalised"),
      contrast_weights: table(cw_rows), contrast_row_sums: sums(s.contrast_row_sums, none),
      contrast_output: outputs(s.contrast_output, "weights zeroed after the softmax"),
      norms: {
        i: s.norms.map(function (_, i) { return i; }), y: s.norms.map(function (_, i) { return qname(i); }),
        before: s.norms.slice(), after: s.contrast_norms.slice(),
        before_text: s.norms.map(function (v) { return fix(v, 2); }),
        after_text: s.contrast_norms.map(function (v) { return fix(v, 2); }),
      },
      checks: checks_data(st, s, mask, rec),
      _norm_end: Math.max(1, top_norm * 1.45),
      _notes: notes_html(st, idx),
      _scores_title: SCORES_TITLES[st.contrast ? 1 : 0],
    };
  }

  // The checks as a table (data.py's checks_table_html, through page.js's table_html).
  var CHECKS_COLUMNS = [["ok", "text"], ["Pinned on this page (recomputed at every change)", "row"], ["now", "text"]];
  function checks_table_html(c) {
    var rows = c.check.map(function (check, k) { return [c.mark[k], check, c.detail[k]]; });
    return AEPage.table_html("Checks recomputed at every change", CHECKS_COLUMNS, rows);
  }

  // Write `data` into `source`: in place when the columns keep their lengths, else a new dict.
  function fill_source(source, data) {
    var old = source.data, keys = Object.keys(data), same = true;
    for (var k = 0; k < keys.length && same; k++) {
      var col = old[keys[k]];
      same = col != null && col.length === data[keys[k]].length && !ArrayBuffer.isView(col);
    }
    if (same && Object.keys(old).length === keys.length) {
      keys.forEach(function (key) { var col = old[key], v = data[key]; for (var i = 0; i < v.length; i++) col[i] = v[i]; });
      source.change.emit();
    } else {
      quiet(source, { data: data });
    }
  }

  var quiet = AESync.quiet, quiet_text = AESync.text;
  function same_list(x, y) { return x.length === y.length && x.every(function (v, i) { return v === y[i]; }); }

  // Recompute every number of the plate from the widgets (and, for a custom mask, the mask source).
  function shown_key(st) { return [st.n, st.kind, st.p, st.w, st.causal, st.contrast].join("|"); }
  function recompute(a) {
    var st = settings(a), n = st.n;
    a.plot.__ae_shown = shown_key(st);
    var mask = current_mask(a, st), rec = a.recipes[String(n)];
    var s = M.masking_steps(rec.Q, rec.K, rec.V, mask, null);
    var d = view_data(st, s, mask, rec);
    var qs = [], ks = [];
    for (var i = 0; i < n; i++) { qs.push(qname(i)); ks.push(kname(i)); }
    var rq = qs.slice().reverse(), new_n = a.y_range.factors.length !== n;
    if (!same_list(a.y_range.factors, rq)) quiet(a.y_range, { factors: rq });
    if (!same_list(a.x_keys.factors, ks)) quiet(a.x_keys, { factors: ks });
    if (!same_list(a.x_sum.factors, ks.concat(["\u03a3"]))) quiet(a.x_sum, { factors: ks.concat(["\u03a3"]) });
    quiet(a.norm_x, { end: d._norm_end });
    [["mask", "mask"], ["scores", "scores"], ["weights", "weights"], ["row_sums", "row_sums"], ["output", "output"],
     ["cweights", "contrast_weights"], ["crow_sums", "contrast_row_sums"], ["coutput", "contrast_output"],
     ["norms", "norms"], ["checks", "checks"]].forEach(function (pair) { fill_source(a[pair[0]], d[pair[1]]); });
    if (a.checks_table) quiet_text(a.checks_table, checks_table_html(d.checks));
    // The cells' type follows n, and only n: a page that sized it for its frame (a scene, present
    // mode) keeps that size through a tap or a change of mask.
    if (new_n) a.texts.forEach(function (g) { if (g.text_font_size.value !== font_for(n)) quiet(g, { text_font_size: { value: font_for(n) } }); });
    updating = true;
    try {
      quiet(a.p, { end: n, value: st.p, disabled: st.kind !== "padding" });
      quiet(a.w, { end: n, value: st.w, disabled: st.kind !== "window" });
      quiet(a.causal_window, { disabled: st.kind !== "window" });
    } finally { updating = false; }
    quiet(a.weights_plot, { visible: !st.contrast });
    quiet(a.output_plot, { visible: !st.contrast });
    quiet(a.cweights_plot, { visible: st.contrast });
    quiet(a.coutput_plot, { visible: st.contrast });
    quiet_text(a.notes, d._notes);
    if (a.scores_title) quiet(a.scores_title, { text: d._scores_title });
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);
    return { settings: st, steps: s, mask: mask, data: d };
  }

  // What the plate syncs: the widgets as this page holds them (p and w follow n here, quietly),
  // and after a run that tapped the mask, the mask too (Python reads the cells from it). Sent, the
  // mask is drawn again: a run of widget changes alone leaves it out.
  function tap_sends(a) {
    var md = a.mask.data, copy = {};
    Object.keys(md).forEach(function (k) { copy[k] = Array.from(md[k]); });
    return [[a.mask, { data: copy }]];
  }
  function widget_sends(a) {
    return [[a.n, { value: a.n.value }], [a.kind, { active: a.kind.active }], [a.p, { value: a.p.value }],
            [a.w, { value: a.w.value }], [a.causal_window, { active: a.causal_window.active.slice() }],
            [a.contrast, { active: a.contrast.active }]];
  }
  function run_sends(a) {
    var tapped = a.mask.__ae_tapped === true;
    a.mask.__ae_tapped = false;
    return tapped ? widget_sends(a).concat(tap_sends(a)) : widget_sends(a);
  }

  // A run of widget changes (a held arrow key repeats every ~30 ms) is led by the browser: a.sync
  // carries "busy" and Python waits, then folds the widgets in once, when they have been still for
  // AESync.STILL_MS (the mark sits on a source no figure draws, so its end repaints nothing).
  // Answering every step instead, Python's answer to one step could land after the next and draw
  // the plate one step back for a frame.
  function on_widget(a) {
    if (updating) return;  // this file is setting the widgets itself
    guard(a);
    // A widget this file set (p and w follow n; a tap makes the plate custom; a commit sends the
    // widgets again) calls back after the page has already computed what it shows (BokehJS runs
    // the callback a moment later).
    if (a.plot.__ae_shown === shown_key(settings(a))) return;
    AESync.mark(a);  // before the work: the sooner Python knows, the fewer steps it answers
    recompute(a);
    AESync.until_still(a, function () { return run_sends(a); });
  }

  // The first step of a run reaches Python before "busy" does, so Python answers it, and on a
  // slow server that answer can land after a later step: an answer that leaves the maps at
  // another n than the slider's is not drawn (AESync.guard_late); Python's own numbers come when
  // it folds the run in. An answer may come in several messages (the rows' factors in one, each
  // source in another), so each of them is checked against n.
  function stale(a) {
    if (updating) return false;
    var n = Number(a.n.value), nn = n * n;
    return a.y_range.factors.length !== n || a.mask.data.allowed.length !== nn ||
      a.scores.data.value.length !== nn || a.weights.data.value.length !== nn;
  }
  function guard(a) {
    AESync.guard_late(a.y_range, [a.y_range, a.weights, a.scores, a.mask],
      function () { return stale(a); },
      function () { recompute(a); });
  }

  // A tap on the mask flips one cell; the plate becomes custom, starting from the mask on screen.
  // Bokeh reports the second of two quick taps as a DoubleTap: view.py sends both here.
  // Taps in a row are a run, as a held key is: Python reads the mask once they have been still for
  // AESync.STILL_MS. Folded at each tap instead, Python's answer to one tap landed after the next
  // and drew the mask one tap back until the next answer came (a repaint of every map and a
  // layout of the page per tap: the served page's click took half as long again as the file's).
  function on_tap(a, ev) {
    var n = a.y_range.factors.length;
    var j = Math.floor(ev.x), k = Math.floor(ev.y);
    if (!(j >= 0 && j < n && k >= 0 && k < n)) return;
    var i = n - 1 - k;  // rows are listed bottom-up: factors are [qn, ..., q1]
    var al = a.mask.data.allowed;
    if (al.length !== n * n) return;
    AESync.mark(a);  // Python lets the browser lead until the taps end
    a.mask.__ae_tapped = true;
    al[i * n + j] = !al[i * n + j];
    updating = true;
    try { a.kind.active = a.kinds.indexOf("custom"); } finally { updating = false; }
    recompute(a);
    AESync.until_still(a, function () { return run_sends(a); });  // then the mask goes to Python, once
  }

  function defaults(a) {  // the state's defaults, by URL field name (MaskingState's, in a.link)
    var out = {};
    Object.keys(a.link.fields).forEach(function (k) { out[k] = a.link.fields[k].default; });
    return out;
  }

  function on_reset(a) {
    var d = defaults(a);
    AESync.lead(a);
    updating = true;
    try {
      a.n.value = d.n;
      a.kind.active = a.kinds.indexOf(d.kind);
      a.p.end = d.n; a.w.end = d.n;
      a.p.value = d.p;
      a.w.value = d.w;
      a.causal_window.active = d.causal_window ? [0] : [];
      a.contrast.active = d.contrast ? 1 : 0;
    } finally { updating = false; }
    recompute(a);
    AESync.commit(a, widget_sends(a));
  }

  // The link (app/runtime/link.js): the state's values by URL field name, how to set them in an
  // exported page (no Python), and the fields MaskingState.url_spec calls custom: the cells
  // ("10000.11000..."), and p and w, whose notice names n, which the link may set after them.
  function url_values(a) {
    var st = settings(a);
    return { n: st.n, kind: st.kind, p: st.p, w: st.w, causal_window: st.causal, contrast: st.contrast,
             cells: st.kind === "custom" ? current_mask(a, st) : null };  // a custom mask always goes in the link
  }
  var url_format = {
    p: String, w: String,
    cells: function (rows) {
      return rows ? rows.map(function (r) { return r.map(function (v) { return v ? "1" : "0"; }).join(""); }).join(".") : "";
    },
  };
  function parse_cells(text) {  // state.py's parse_cells
    var rows = text.trim().split("."), n_max = 8;
    var bad = !(rows.length >= 1 && rows.length <= n_max) ||
      rows.some(function (r) { return r.length !== rows.length || /[^01]/.test(r); });
    if (bad) throw new Error("expected up to " + n_max + " rows of as many 0/1 digits, separated by '.'");
    return rows.map(function (r) { return r.split("").map(function (ch) { return ch === "1"; }); });
  }
  // p and w: a plain finite number (PlateState.parse_url_value's checks and words); url_apply
  // clamps it once n is known.
  function count(text) {
    if (!AELink.NUMBER.test(text)) throw new Error("not a number");
    var x = Number(text);
    if (!Number.isFinite(x)) throw new Error("not a finite number");
    return x;
  }
  var url_parse = { p: count, w: count, cells: parse_cells };
  function round_half_even(x) { return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x); }  // Python's round

  // MaskingState.apply_url's rules for what the link set (AELink.read has parsed and checked it):
  // p and w within their bounds and at most n, with a notice naming n whenever the number asked
  // for is not the one kept; the cells fitted to n, with a notice when they are not drawn as
  // given. Returns those notices.
  function url_apply(a, v) {
    if (!Object.keys(v).length) return [];  // nothing to set: the page keeps Python's numbers
    var now = settings(a), f = a.link.fields, notices = [];
    var n = v.n !== undefined ? v.n : now.n;
    var st = { n: n, kind: v.kind !== undefined ? v.kind : now.kind,
               causal: v.causal_window !== undefined ? v.causal_window : now.causal,
               contrast: v.contrast !== undefined ? v.contrast : now.contrast };
    ["p", "w"].forEach(function (name) {
      if (v[name] === undefined) { st[name] = Math.min(now[name], n); return; }
      var lo = f[name].bounds[0], hi = f[name].bounds[1], asked = v[name];
      st[name] = Math.min(round_half_even(Math.min(hi, Math.max(lo, asked))), n);
      if (asked !== st[name]) {
        notices.push("'" + name + "' set to " + st[name] + ", the nearest allowed value (" + lo + "..n, n = " + n + ")");
      }
    });
    if (v.cells) {
      var m = v.cells.length, x = " \u00d7 ";
      if (st.kind !== "custom") notices.push("'cells' not shown: only kind=custom draws them (kind is " + st.kind + ")");
      else if (m < n) notices.push("'cells' fitted to n = " + n + ": the " + m + x + m + " given fill the top left, the rest follow the causal rule");
      else if (m > n) notices.push("'cells' cut to n = " + n + ": the top left " + n + x + n + " of the " + m + x + m + " given");
    }
    updating = true;
    try {
      a.n.value = st.n;
      a.p.end = st.n; a.w.end = st.n;
      a.p.value = st.p;
      a.w.value = st.w;
      a.kind.active = a.kinds.indexOf(st.kind);
      a.causal_window.active = st.causal ? [0] : [];
      a.contrast.active = st.contrast ? 1 : 0;
      if (v.cells) a.mask.data.allowed = [].concat.apply([], fit_cells(v.cells, st.n));  // read by current_mask when custom
    } finally { updating = false; }
    recompute(a);
    return notices;
  }

  // --- keyboard and screen readers (the shared parts are in a11y.js) -----------------------
  // The mask is one tab stop: a focusable cursor that the arrow keys move from cell to cell,
  // and Space or Enter flips the cell under it (the same path as a tap).
  var cursor = {};  // mask plot id -> {i, j}
  function cur(a) {
    var n = a.y_range.factors.length, c = cursor[a.plot.id] || (cursor[a.plot.id] = { i: 0, j: 0 });
    c.i = Math.min(c.i, n - 1); c.j = Math.min(c.j, n - 1);
    return c;
  }
  function kb_targets(a) {
    var n = a.y_range.factors.length, c = cur(a), al = a.mask.data.allowed;
    var ok = al.length === n * n ? al[c.i * n + c.j] : true;
    return [{ id: "cell", x: c.j + 0.5, y: n - 1 - c.i + 0.5, cell: true, size: 34,
              label: "mask cell q" + (c.i + 1) + " → k" + (c.j + 1) + ": " + (ok ? "allowed" : "blocked") +
                     ". Arrow keys move between cells; Space flips it." }];
  }
  function on_key(a, ev) {
    var n = a.y_range.factors.length, c = cur(a);
    if (ev.key === " " || ev.key === "Enter") {
      on_tap(a, { x: c.j + 0.5, y: n - 1 - c.i + 0.5 });
      return true;
    }
    var st = AEA11y.arrow(ev, 1, n);
    if (!st) return false;
    c.j = clamp_int(c.j + st.dx, 0, n - 1);
    c.i = clamp_int(c.i - st.dy, 0, n - 1);
    return true;
  }
  function clamp_int(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }
  function speak_text(a) {
    var n = a.y_range.factors.length, c = cur(a), w = a.weights.data, al = a.mask.data.allowed, parts = [];
    for (var r = 0; r < w.i.length; r++) {
      if (Number(w.i[r]) === c.i) parts.push("k" + (Number(w.j[r]) + 1) + " " + fix(Number(w.value[r]), 2));
    }
    var allowed = Array.from(al).filter(Boolean).length;
    return "Mask allows " + allowed + " of " + n * n + " cells. Weights of row q" + (c.i + 1) + ": " + parts.join(", ") + ".";
  }
  function on_ready(a) {
    if (typeof document === "undefined") return;
    AEA11y.handles(a.plot, { targets: function () { return kb_targets(a); },
                             on_key: function (id, ev) { return on_key(a, ev); } });
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    url_values: url_values, url_apply: url_apply, url_parse: url_parse, url_format: url_format,
    fix: fix, signed: signed, shade: shade, ink_for: ink_for, fit_cells: fit_cells, settings: settings,
    current_mask: current_mask, view_data: view_data, checks_data: checks_data, checks_table_html: checks_table_html, notes_html: notes_html,
    recompute: recompute, on_widget: on_widget, on_tap: on_tap, on_reset: on_reset, on_ready: on_ready, speak_text: speak_text,
  };
  if (typeof globalThis !== "undefined") globalThis.MaskingLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = MaskingLive;
