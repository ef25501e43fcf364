// multi_head.js: the multi-head plate's live path. A change of d_model, h or n is computed here
// with AttentionMirror (multi_head_attention, split_heads, head_scores, param_counts) on the
// seeded matrices the page carries (`a.recipes`, attention_core.multi_head_recipe at widths 4, 8
// and 16), and written into the plate's sources, so the page follows every change with no
// server; a served page then gets attention_core's numbers from Python (the authority): a run
// of changes ends in one commit (AESync.until_still). The text and layout functions build exactly
// what data.py and layout.py build. Needs mirror.js loaded first. `a` holds the plate's Bokeh
// models by name (see view.py), a.sync (the busy mark) and a.link (the state's url_spec).
var MultiHeadLive = (typeof globalThis !== "undefined" && globalThis.MultiHeadLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var H_CHOICES = [1, 2, 4, 8], D_CHOICES = [4, 8, 16, 512], MAP_WIDTHS = [4, 8, 16], MAX_MAP_WIDTH = 16;
  var N_MIN = 2, N_MAX = 8, HEADS_PER_ROW = 3, SLIDE_HEADS = 2, CELL_HEAD = 28, CELL = 32, PAPER = [512, 8];
  var reverting = false;
  // The sources recompute writes, the settings' last (`a` names them as view.py does).
  var SOURCES = ["head", "head_titles", "head_ticks", "concat", "w_o", "out", "concat_marks", "concat_lines",
    "w_o_marks", "w_o_lines", "out_marks", "params", "divisors", "setting"];

  // --- text (app/shared/formatting.py and data.py write the same) -------------------------------
  var fix = AEPage.fix, paren = AEPage.paren;
  function thousands(k) { return String(Math.trunc(k)).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function num(x) { return Number.isInteger(x) ? String(x) : fix(x, 3); }
  function root_text(d_k) { return "√" + d_k + " = " + num(Math.sqrt(d_k)); }
  function sum_text(a, b) {
    var terms = a.map(function (x, k) { return paren(fix(x, 2)) + "×" + paren(fix(b[k], 2)); }), lines = [];
    for (var k = 0; k < terms.length; k += 4) lines.push(terms.slice(k, k + 4).join(" + "));
    return lines.join("\n+ ");
  }
  function map_width(d_model) { return MAP_WIDTHS.indexOf(d_model) >= 0 ? d_model : MAX_MAP_WIDTH; }
  function split_problem(d_model, h) {
    if (d_model % h === 0) return "";
    var fits = H_CHOICES.filter(function (k) { return d_model % k === 0; }).map(String);
    var ok = fits.length > 1 ? fits.slice(0, -1).join(", ") + " or " + fits[fits.length - 1] : fits[0];
    return h + " heads cannot share d_model = " + d_model + ": each head would be " + String(Number((d_model / h).toPrecision(6))) +
      " wide. With d_model = " + d_model + " choose " + ok + " heads.";
  }
  function message_html(problem) { return problem ? "<div class='ae-mh-message' role='alert'>" + problem + "</div>" : ""; }
  function summary_html(d_model, h, n) {
    var d_k = d_model / h, w = map_width(d_model);
    var text = "<b>d_model = " + d_model + ", h = " + h + "</b>: each head works at d_k = d_v = " + d_model + " / " + h +
      " = " + d_k + " and divides its scores by " + root_text(d_k) + ".";
    if (w !== d_model) {
      text += " <b>The heat maps stay at d_model = " + w + "</b> (d_k = " + (w / h) + ", divisor " + root_text(w / h) +
        "): at " + d_model + ", W_O alone would be " + thousands(d_model * d_model) + " cells. The counter and the " +
        "divisors show d_model = " + d_model + ".";
    } else {
      text += " The heat maps use " + n + " tokens at this width.";
    }
    return "<div class='ae-mh-summary'>" + text + "</div>";
  }

  // --- layout -------------------------------------------------------------------------------------
  // `room`: the pixels a figure has across a phone (0 on a wide screen): fewer maps to a row. The
  // figure keeps the room of N_MAX tokens' maps whatever n is, so that a new n resizes nothing.
  function head_maps_px(cols) { return Math.round(((cols - 1) * (N_MAX + 2) + N_MAX + 1) * CELL_HEAD) + 12; }
  function heads_per_row(room) {
    var cols = HEADS_PER_ROW;
    while (room && cols > 1 && head_maps_px(cols) > room) cols -= 1;
    return cols;
  }
  // A slide (layout.py's heads_shown): at most SLIDE_HEADS maps, in one row, in the room of two
  // maps of n tokens whatever h is.
  function heads_shown(h, slide) { return slide ? Math.min(h, SLIDE_HEADS) : h; }
  function head_origin(k, n, h, room, slide) {
    var pitch = Math.max(n, 4) + 2;
    if (slide) return [h === 1 ? pitch / 2 : k * pitch, 0];
    var cols = Math.min(h, heads_per_row(room));
    return [(k % cols) * pitch, -Math.floor(k / cols) * (n + 3)];
  }
  function head_ranges(h, room, n, slide) {
    if (slide) return [-1.5, 2 * (Math.max(n, 4) + 2) - 2.5, -(n - 1) - 0.5, 2.6];
    var cols = Math.min(h, heads_per_row(room)), rows = Math.ceil(h / cols);
    return [-1.5, (cols - 1) * (N_MAX + 2) + N_MAX - 0.5, -((rows - 1) * (N_MAX + 3) + N_MAX - 1) - 0.5, 2.6];
  }
  function rows_y(n, slide) { return slide ? [-(n - 0.5), 2.5] : [-(N_MAX - 0.5), 2.5]; }
  // The page shows scenes (app/runtime/scenes.js starts them on the same test; state.py's apply_url).
  function slide_mode() {
    if (typeof AELink === "undefined" || typeof window === "undefined") return false;
    var p = AELink.params();
    return p.get("present") === "1" || p.get("embed") === "1";
  }
  function cols(names) { var o = {}; names.forEach(function (k) { o[k] = []; }); return o; }

  // --- the sources' data (data.py's head_data, concat_data, ... in the same order) --------------
  function head_data(weights, raw, d_k, room, slide) {
    var h = weights.length, n = weights[0].length, div = Math.sqrt(d_k), shown = heads_shown(h, slide);
    var of = shown < h ? " of " + h : "";
    var cells = cols(["head", "i", "j", "value", "text", "x", "y", "score", "scaled", "tip"]);
    var titles = cols(["x", "y", "text"]), ticks = cols(["x", "y", "text"]);
    for (var k = 0; k < shown; k++) {
      var o = head_origin(k, n, h, room, slide), ox = o[0], oy = o[1];
      titles.x.push(ox + (n - 1) / 2); titles.y.push(oy + 2); titles.text.push("head " + (k + 1) + of + " · ÷ " + root_text(d_k));
      for (var t = 0; t < n; t++) {
        ticks.x.push(ox - 1, ox + t); ticks.y.push(oy - t, oy + 1); ticks.text.push("t" + (t + 1), "t" + (t + 1));
      }
      for (var i = 0; i < n; i++) {
        for (var j = 0; j < n; j++) {
          var w = weights[k][i][j], s = raw[k][i][j];
          cells.head.push(k); cells.i.push(i); cells.j.push(j); cells.value.push(w); cells.text.push(fix(w, 2));
          cells.x.push(ox + j); cells.y.push(oy - i); cells.score.push(s); cells.scaled.push(s / div);
          cells.tip.push("head " + (k + 1) + ": t" + (i + 1) + " reads t" + (j + 1) + "\nq·k = " + fix(s, 3) + "\n÷ " +
            root_text(d_k) + " → " + fix(s / div, 3) + "\nsoftmax along row t" + (i + 1) + " → " + fix(w, 3));
        }
      }
    }
    return [cells, titles, ticks];
  }

  function column(A, c) { return A.map(function (row) { return row[c]; }); }

  function concat_data(concat, weights, Vh) {
    var n = concat.length, width = concat[0].length, d_v = Vh[0][0].length;
    var out = cols(["i", "c", "value", "text", "x", "y", "head", "tip"]);
    for (var i = 0; i < n; i++) {
      for (var c = 0; c < width; c++) {
        var k = Math.floor(c / d_v), cc = c % d_v, v = concat[i][c];
        out.i.push(i); out.c.push(c); out.value.push(v); out.text.push(fix(v, 2)); out.x.push(c); out.y.push(-i);
        out.head.push(k);
        out.tip.push("concat[t" + (i + 1) + ", " + (c + 1) + "] = head " + (k + 1) + "'s output, its column " + (cc + 1) +
          "\n= Σ weight × value over t1..t" + n + ":\n" + sum_text(weights[k][i], column(Vh[k], cc)) + "\n= " + fix(v, 3));
      }
    }
    return out;
  }

  function w_o_data(Wo, d_v) {
    var out = cols(["r", "c", "value", "text", "x", "y", "tip"]);
    for (var r = 0; r < Wo.length; r++) {
      var k = Math.floor(r / d_v), rr = r % d_v;
      for (var c = 0; c < Wo[r].length; c++) {
        var v = Wo[r][c];
        out.r.push(r); out.c.push(c); out.value.push(v); out.text.push(fix(v, 2)); out.x.push(c); out.y.push(-r);
        out.tip.push("W_O[" + (r + 1) + ", " + (c + 1) + "] = " + fix(v, 3) + "\nrow " + (r + 1) + " multiplies head " +
          (k + 1) + "'s column " + (rr + 1) + " of concat");
      }
    }
    return out;
  }

  function output_data(output, concat, Wo) {
    var out = cols(["i", "c", "value", "text", "x", "y", "tip"]);
    for (var i = 0; i < output.length; i++) {
      for (var c = 0; c < output[i].length; c++) {
        var v = output[i][c];
        out.i.push(i); out.c.push(c); out.value.push(v); out.text.push(fix(v, 2)); out.x.push(c); out.y.push(-i);
        out.tip.push("output[t" + (i + 1) + ", " + (c + 1) + "] = concat row t" + (i + 1) + " · W_O column " + (c + 1) +
          "\n= " + sum_text(concat[i], column(Wo, c)) + "\n= " + fix(v, 3));
      }
    }
    return out;
  }

  function matrix_marks(n, width, h) {
    var d_v = width / h, cm = cols(["x", "y", "text"]), om = cols(["x", "y", "text"]), wm = cols(["x", "y", "text"]);
    var i, c, k;
    for (i = 0; i < n; i++) [cm, om].forEach(function (m) { m.x.push(-1); m.y.push(-i); m.text.push("t" + (i + 1)); });
    for (c = 0; c < width; c++) {
      [cm, om, wm].forEach(function (m) { m.x.push(c); m.y.push(1); m.text.push(String(c + 1)); });
      wm.x.push(-1); wm.y.push(-c); wm.text.push(String(c + 1));
    }
    for (k = 0; k < h; k++) {
      cm.x.push(k * d_v + (d_v - 1) / 2); cm.y.push(2); cm.text.push(d_v >= 2 ? "head " + (k + 1) : "h" + (k + 1));
    }
    var cl = cols(["x0", "y0", "x1", "y1"]), wl = cols(["x0", "y0", "x1", "y1"]);
    for (k = 1; k < h; k++) {
      cl.x0.push(k * d_v - 0.5); cl.x1.push(k * d_v - 0.5); cl.y0.push(-(n - 0.5)); cl.y1.push(2.5);
      wl.x0.push(-1.5); wl.x1.push(width - 0.5); wl.y0.push(-(k * d_v - 0.5)); wl.y1.push(-(k * d_v - 0.5));
    }
    return [cm, cl, wm, wl, om];
  }

  var PARAM_ROWS = ["W_Q, one head", "W_K, one head", "W_V, one head", "W_Q, W_K, W_V, all heads",
    "one head of full width", "W_O", "all, with W_O"];

  function param_rows(d, hh) {
    var p = M.param_counts(d, hh), dk = p.d_k, dv = p.d_v;
    return [
      [d + " × " + dk, p.query_per_head, hh, p.query_total, ""],
      [d + " × " + dk, p.key_per_head, hh, p.key_total, ""],
      [d + " × " + dv, p.value_per_head, hh, p.value_total, ""],
      ["3 × " + d + " × " + dk, p.per_head, hh, p.qkv_total, " = 3·" + d + "²"],
      ["3 × " + d + " × " + d, p.full_width_head, 1, p.full_width_head, " = 3·" + d + "²"],
      [(hh * dv) + " × " + d, 0, 0, p.w_o, " = " + d + "²"],
      ["", 0, 0, p.total, " = 4·" + d + "²"],
    ];
  }

  function params_data(d_model, h) {
    var out = cols(["row", "shape", "per_head", "per_head_text", "heads", "heads_text", "total", "total_text", "paper_shape",
      "paper_per_head", "paper_per_head_text", "paper_total", "paper_total_text"]);
    var here = param_rows(d_model, h), paper = param_rows(PAPER[0], PAPER[1]);
    PARAM_ROWS.forEach(function (name, r) {
      var a = here[r], p = paper[r];
      out.row.push(name); out.shape.push(a[0]); out.per_head.push(a[1]);
      out.per_head_text.push(a[2] ? thousands(a[1]) : "—"); out.heads.push(a[2]); out.total.push(a[3]);
      out.heads_text.push(a[2] ? "× " + a[2] : "");
      out.total_text.push(thousands(a[3]) + a[4]);
      out.paper_shape.push(p[0]); out.paper_per_head.push(p[1]); out.paper_per_head_text.push(p[1] ? thousands(p[1]) : "—");
      out.paper_total.push(p[3]); out.paper_total_text.push(thousands(p[3]) + p[4]);
    });
    return out;
  }

  function divisors_data(d_model, h) {
    var d_k = M.head_width(d_model, h), div = M.head_divisor(d_model, h), out = cols(["head", "label", "d_k", "divisor", "text"]);
    for (var k = 0; k < h; k++) {
      out.head.push(k); out.label.push("head " + (k + 1)); out.d_k.push(d_k); out.divisor.push(div); out.text.push(root_text(d_k));
    }
    return out;
  }

  function signed_limit(A) {
    var m = 0;
    A.forEach(function (row) { row.forEach(function (v) { m = Math.max(m, Math.abs(v)); }); });
    return m > 0 ? m : 1;
  }

  // The counter and the divisors as tables (data.py's params_table_html and divisors_table_html,
  // through page.js's table_html).
  var PARAMS_COLUMNS = [["parameters", "row", "row"], ["shape", "shape", "num"], ["per head", "per_head_text", "num"],
    ["heads", "heads_text", "num"], ["in all", "total_text", "num"], ["paper per head", "paper_per_head_text", "num"],
    ["paper (512, h\u00a0=\u00a08)", "paper_total_text", "num"]];
  var DIVISORS_COLUMNS = [["head", "row"], ["d_k", "num"], ["divisor \u221ad_k", "num"]];
  function params_table_html(p) {
    var rows = p.row.map(function (_, j) { return PARAMS_COLUMNS.map(function (c) { return p[c[1]][j]; }); });
    return AEPage.table_html("Parameter counts, this setting and the paper's",
                             PARAMS_COLUMNS.map(function (c) { return [c[0], c[2]]; }), rows);
  }
  function divisors_table_html(d) {
    var rows = d.label.map(function (label, k) { return [label, String(Math.round(d.d_k[k])), d.text[k]]; });
    return AEPage.table_html("Each head's width and divisor", DIVISORS_COLUMNS, rows);
  }

  // Everything the plate shows for (d_model, h, n), computed with the mirror on the page's recipe.
  function compute(recipes, d_model, h, n, room, slide) {
    var w = map_width(d_model), r = recipes[String(w)];
    var X = r.X.slice(0, n);
    var res = M.multi_head_attention(X, r.Wq, r.Wk, r.Wv, r.Wo, h);
    var raw = M.head_scores(X, r.Wq, r.Wk, h);
    var Vh = M.split_heads(X.map(function (x) {  // (n, w) X @ Wv, as the core's split of X @ Wv
      return r.Wv[0].map(function (_, c) { var s = 0; for (var t = 0; t < x.length; t++) s += x[t] * r.Wv[t][c]; return s; });
    }), h);
    var hd = head_data(res.weights, raw, w / h, room || 0, !!slide), mm = matrix_marks(n, w, h);
    return {
      width: w, output: res.output, weights: res.weights, concat: res.concat, Wo: r.Wo,
      head: hd[0], head_titles: hd[1], head_ticks: hd[2], concat_data: concat_data(res.concat, res.weights, Vh),
      w_o: w_o_data(r.Wo, w / h), out: output_data(res.output, res.concat, r.Wo),
      concat_marks: mm[0], concat_lines: mm[1], w_o_marks: mm[2], w_o_lines: mm[3], out_marks: mm[4],
      params: params_data(d_model, h), divisors: divisors_data(d_model, h), ranges: head_ranges(h, room || 0, n, !!slide),
      rows_y: rows_y(n, !!slide),
    };
  }

  // Set model properties in this browser only; Python follows the widgets and answers.
  var quiet = AESync.quiet, quiet_text = AESync.text;

  function settings(a) {
    return { d_model: Number(a.d_model.value), h: H_CHOICES[a.h.active], n: Math.round(Number(a.n.value)) };
  }

  function room_of(a) { return a.screen && a.screen.data.room ? Number(a.screen.data.room[0]) || 0 : 0; }
  // A new h or d_model resizes up to four figures (their frames follow the cells; a new n resizes
  // none: they keep N_MAX tokens' room); BokehJS lays the whole page out again for each one,
  // synchronously. One layout for the lot, in the next frame, once the
  // renderers have their new glyphs (AEPage.one_layout; with no document, as in node, at once).
  function recompute(a, st) {
    var r = null, doc = a.head.document;
    var figures = [a.head_fig, a.concat_fig, a.w_o_fig, a.out_fig].filter(Boolean);
    if (typeof AEPage !== "undefined" && AEPage.one_layout && doc) AEPage.one_layout(doc, function () { r = recompute_all(a, st); }, true, figures);
    else r = recompute_all(a, st);
    return r;
  }
  function recompute_all(a, st) {
    var r = compute(a.recipes, st.d_model, st.h, st.n, room_of(a), slide_mode()), w = r.width, n = st.n;
    var data = { head: r.head, head_titles: r.head_titles, head_ticks: r.head_ticks, concat: r.concat_data,
      w_o: r.w_o, out: r.out, concat_marks: r.concat_marks, concat_lines: r.concat_lines, w_o_marks: r.w_o_marks,
      w_o_lines: r.w_o_lines, out_marks: r.out_marks, params: r.params, divisors: r.divisors,
      setting: { d_model: [st.d_model], h: [st.h], n: [n], width: [w] } };
    var pairs = SOURCES.map(function (k) { return [a[k], data[k]]; });
    pairs.forEach(function (p) { quiet(p[0], { data: p[1] }); });
    a.setting.__ae_own = { key: settings_key(st), pairs: pairs };  // what guard() holds the page to
    var g = r.ranges;
    quiet(a.head_x, { start: g[0], end: g[1] }); quiet(a.head_y, { start: g[2], end: g[3] });
    quiet(a.cols_x, { start: -1.5, end: w - 0.5 }); quiet(a.concat_x, { start: -1.5, end: w - 0.5 });
    quiet(a.w_o_y, { start: -(w - 0.5), end: 1.5 });
    var ry = r.rows_y, rows = ry[1] - ry[0] + 1;
    if (a.rows_y) quiet(a.rows_y, { start: ry[0], end: ry[1] });
    // Once a slide's scenes have started, the figures' sizes are the fit's (page.js fits the sizes
    // it found then): a slide's sizes do not follow h (layout.py's head_ranges), and n and d_model
    // have no control in a scene, so there is nothing to resize.
    if (!(slide_mode() && typeof AEScenes !== "undefined" && AEScenes.current())) {
      quiet(a.head_fig, { frame_width: Math.round((g[1] - g[0]) * CELL_HEAD), frame_height: Math.round((g[3] - g[2]) * CELL_HEAD) });
      [[a.concat_fig, rows], [a.w_o_fig, w + 2], [a.out_fig, rows]].forEach(function (p) {
        quiet(p[0], { frame_width: Math.round((w + 1) * CELL), frame_height: Math.round(p[1] * CELL) });
      });
    }
    [[a.concat_map, r.concat], [a.w_o_map, r.Wo], [a.out_map, r.output]].forEach(function (p) {
      var m = signed_limit(p[1]);
      quiet(p[0], { low: -m, high: m });
    });
    quiet_text(a.summary, summary_html(st.d_model, st.h, n));
    if (a.params_table) quiet_text(a.params_table, params_table_html(r.params));
    if (a.divisors_table) quiet_text(a.divisors_table, divisors_table_html(r.divisors));
    return r;
  }

  // A widget changed: refuse a pair where h does not divide d_model (put the widgets back and say
  // why; Python, sent the refused widget, does the same), otherwise recompute everything.
  function on_change(a) {
    if (reverting) return;
    var st = settings(a), cur = a.setting.data;
    if (D_CHOICES.indexOf(st.d_model) < 0 || H_CHOICES.indexOf(st.h) < 0 || !(st.n >= N_MIN && st.n <= N_MAX)) return;
    var problem = split_problem(st.d_model, st.h);
    if (problem) {
      reverting = true;
      try {
        quiet(a.d_model, { value: String(cur.d_model[0]) });
        quiet(a.h, { active: H_CHOICES.indexOf(cur.h[0]) });
      } finally { reverting = false; }
      quiet(a.message, { text: message_html(problem) });
      return;
    }
    // BokehJS runs this callback for the values a commit itself sends, and for Python's answer:
    // the page already shows those settings, so there is nothing to do (without this check every
    // commit would start a new run and commit again, forever).
    if (st.d_model === cur.d_model[0] && st.h === cur.h[0] && st.n === cur.n[0]) return;
    guard(a);
    recompute(a, st);
    quiet(a.message, { text: "" });
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);
    AESync.until_still(a, function () { return sends(a); });
  }

  // A run of changes (a held arrow key on n repeats every ~30 ms) is led by the browser: a.sync
  // carries "busy" and Python waits, then reads the widgets once, AESync.STILL_MS after the last
  // change (as masking.js and self_attention.js do), instead of recomputing and resending every
  // source at each step. What the plate syncs: the three widgets (Python reads n's value when
  // the run ends, as it does when the slider is let go).
  function sends(a) {
    return [[a.d_model, { value: a.d_model.value }], [a.h, { active: a.h.active }], [a.n, { value: a.n.value }]];
  }

  // The first change of a run reaches Python before "busy" does, so Python answers it, and that
  // answer can land after a later step (AESync.guard_late). The page keeps the sources it computed
  // for the widgets' settings; a message that leaves other numbers in one of them while the
  // widgets hold those settings is an earlier answer, and the page recomputes. Each source is
  // checked, as Python's answer comes in several messages (one per source) and a frame may be
  // painted between two of them. Python's answer to these settings agrees to 1e-12 and is kept.
  function settings_key(st) { return [st.d_model, st.h, st.n].join("|"); }
  function guard(a) {
    AESync.guard_late(a.setting, SOURCES.map(function (k) { return a[k]; }), function () {
      var o = a.setting.__ae_own, st = settings(a);
      if (reverting || o == null || split_problem(st.d_model, st.h) || o.key !== settings_key(st)) return false;
      return o.pairs.some(function (p) { return !AESync.same_data(p[1], p[0].data, 1e-9); });
    }, function () { recompute(a, settings(a)); });
  }

  // The link (app/runtime/link.js): the state's values (the step the page shows), and how an
  // exported page (no Python) sets them. link.js has read and checked each field by
  // MultiHeadState's rules; a d_model / h pair where h does not divide d_model is refused here,
  // as MultiHeadState.apply_url refuses it, and n is kept.
  function url_values(a) {
    var cur = a.setting.data;
    return { d_model: cur.d_model[0], h: cur.h[0], n: cur.n[0] };
  }
  function url_apply(a, v) {
    var notices = [], cur = a.setting.data;
    var st = { d_model: v.d_model !== undefined ? v.d_model : cur.d_model[0], h: v.h !== undefined ? v.h : cur.h[0],
               n: v.n !== undefined ? v.n : cur.n[0] };
    var problem = split_problem(st.d_model, st.h);
    if (problem) {
      notices.push("ignored the combination: " + problem.replace(/\.+$/, ""));
      st.d_model = cur.d_model[0]; st.h = cur.h[0];
    }
    reverting = true;
    try {
      quiet(a.d_model, { value: String(st.d_model) });
      quiet(a.h, { active: H_CHOICES.indexOf(st.h) });
      quiet(a.n, { value: st.n });
    } finally { reverting = false; }
    recompute(a, st);
    return notices;
  }

  // Screen readers: text alternatives, the table view and a polite, throttled summary (a11y.js).
  function speak_text(a) { return AEA11y.text_of(a.summary.text); }
  function on_ready(a) {
    if (typeof document === "undefined") return;
    // On a phone the head maps go fewer to a row: tell Python (which places them too) the room.
    var room = AEA11y.room();
    function use_room(room) {
      if (!a.screen || room_of(a) === room) return;
      a.screen.data = { room: [room] };
      recompute(a, settings(a));
    }
    if (room) use_room(room);
    AEA11y.on_room(use_room);  // a resized window: as a fresh load at that size would
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    on_ready: on_ready, speak_text: speak_text, url_values: url_values, url_apply: url_apply, sends: sends,
    fix: fix, thousands: thousands, num: num, root_text: root_text, sum_text: sum_text, map_width: map_width,
    split_problem: split_problem, message_html: message_html, summary_html: summary_html, heads_per_row: heads_per_row, head_maps_px: head_maps_px, head_origin: head_origin,
    head_ranges: head_ranges, heads_shown: heads_shown, rows_y: rows_y, head_data: head_data, concat_data: concat_data, w_o_data: w_o_data,
    output_data: output_data, matrix_marks: matrix_marks, params_data: params_data, divisors_data: divisors_data,
    params_table_html: params_table_html, divisors_table_html: divisors_table_html,
    signed_limit: signed_limit, compute: compute, recompute: recompute, on_change: on_change, settings: settings,
  };
  if (typeof globalThis !== "undefined") globalThis.MultiHeadLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = MultiHeadLive;
