// worked.js: the worked-example plate's live path. Typed numbers, presets, the Step/Back
// buttons, the guesses, the length slider and drags in the two 2D panels are computed here with
// AttentionMirror (mirror.js) and written into the plate's models in place (AESync.quiet), so the
// page follows every keystroke and pointer move, also in an exported file with no server. When a
// gesture or a run of changes ends, the page sends what it changed (AESync.commit) and Python
// (view.py) recomputes the same numbers with attention_core and writes the same text (the
// authority). `a` holds the plate's Bokeh models by name (see view.py), a.sync and a.link.
var WorkedLive = (typeof globalThis !== "undefined" && globalThis.WorkedLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var LIMITS = { max_entry: 10, max_keys: 6, max_dk: 16, max_dv: 16, max_text: 20000, stages: 5, sweep_points: 61,
                 min_slider: 0.1, base_slider_end: 8, snap: 0.05, hit_px: 22, margin: 0.5 };
  var drags = {};     // plot id -> {target: "query" | index, which: "keys" | "values"}
  // Bokeh runs CustomJS callbacks asynchronously, so a widget this file set quietly (or Python set
  // to what the page already shows) calls back later. What this file last wrote or drew is kept
  // here, per plate, and a callback that only sees that does nothing. `dirty`: the groups of
  // models the reader changed since the last commit (see SENDS).
  var seen = {};  // preset widget id -> {preset: name loaded, drawn: settings drawn, texts: texts handled, dirty: {}}
  function memo(a) {
    // The page arrives showing its preset (Python drew it): a commit that sends the preset
    // again must not read as a new choice, which would reset the stage and the guesses.
    return seen[a.preset.id] || (seen[a.preset.id] = { preset: a.preset.value, drawn: null, texts: null, dirty: {} });
  }

  // --- formatting (formatting.py's fixed, short, expo, exp_text, entry, vec_text, on
  // app/shared/formatting.py's fix and sci: AEPage's)
  var SIGNIFICANT = 12;  // formatting.py's: typed numbers, read to 12 significant digits first
  function fixed(x, d) { return AEPage.fix(x, d, { significant: SIGNIFICANT }); }
  function short(x) { return AEPage.fix(x, 3, { significant: SIGNIFICANT, trim: true }); }
  function expo(x) { return AEPage.sci(x, 2); }
  function exp_text(x) { return (x >= 1e6 || (x > 0 && x < 0.0005)) ? expo(x) : short(x); }
  function entry(x) { return AEPage.fix(x, 6, { significant: SIGNIFICANT, trim: true }); }
  function as_list(v) { return Array.isArray(v) || ArrayBuffer.isView(v) ? Array.from(v) : [v]; }
  function vec_text(v, f) {
    f = f || short;
    var l = as_list(v);
    return l.length === 1 ? f(l[0]) : "[" + l.map(function (x) { return f(x); }).join(", ") + "]";
  }
  var esc = AEPage.html_escape;  // Python's html.escape
  function shorten(text, n) { return AELink.short_text(text, n); }  // app/shared/state.py's _short

  // --- parsing typed numbers (inputs.py's parse_vector, parse_rows, read_inputs)
  // A part SPLIT leaves holds no space, so a link's number pattern (AELink.NUMBER) reads it.
  var NUMBER = AELink.NUMBER;
  var SPLIT = /\s*,\s*|\s+/;
  var ROWS = /[\r\n;]/;

  function InputError(msg) { this.message = msg; }

  function count(k) { return k + " number" + (k === 1 ? "" : "s"); }  // inputs.py's count
  function parse_vector(text, what, limit, max_len) {
    if (limit === undefined) limit = LIMITS.max_entry;
    if (max_len === undefined) max_len = LIMITS.max_dk;
    var t = String(text).trim();
    if (t.length >= 2 && "([".indexOf(t.charAt(0)) >= 0 && ")]".indexOf(t.charAt(t.length - 1)) >= 0) {
      t = t.slice(1, -1).trim();
    }
    if (!t) throw new InputError(what + " is empty: type numbers separated by commas, e.g. 1, 2");
    var parts = t.split(SPLIT), out = [];
    for (var i = 0; i < parts.length; i++) {
      var p = parts[i];
      if (p === "") throw new InputError(what + ": a number is missing (two commas in a row, or one at an end)");
      if (!NUMBER.test(p)) throw new InputError(what + ": '" + shorten(p, 12) + "' is not a number");
      var x = Number(p);
      if (limit !== null && !(-limit <= x && x <= limit)) {
        throw new InputError(what + ": " + shorten(p, 12) + " is outside the range \u221210 to 10");
      }
      out.push(x);
    }
    if (out.length > max_len) throw new InputError(what + " has " + count(out.length) + "; at most " + max_len + " here");
    return out;
  }

  function parse_rows(text, kind, limit) {
    var lines = String(text).split(ROWS).filter(function (l) { return l.trim() !== ""; });
    var one = kind === "keys" ? "key" : "value";
    if (!lines.length) throw new InputError("no " + kind + ": type one " + one + " per line, e.g. 1, 0");
    if (lines.length > LIMITS.max_keys) throw new InputError(lines.length + " " + kind + "; at most " + LIMITS.max_keys + " here");
    var rows = lines.map(function (l, i) {
      return parse_vector(l, "line " + (i + 1), limit, kind === "keys" ? LIMITS.max_dk : LIMITS.max_dv);
    });
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].length !== rows[0].length) {
        throw new InputError("line " + (i + 1) + " has " + count(rows[i].length) + " but line 1 has " +
          rows[0].length + ": every " + one + " needs the same count");
      }
    }
    return rows;
  }

  function vector_text(v) { return as_list(v).map(entry).join(", "); }
  function rows_text(a) { return a.map(vector_text).join("\n"); }

  // A box filled to its limit may have cut a paste: said so, never counted (inputs.py's too_long).
  function too_long(field) {
    var fits = field === "query" ? "a query has at most " + LIMITS.max_dk + " numbers" : "at most " + LIMITS.max_keys + " " + field + " fit here";
    return "too long: this box holds at most " + LIMITS.max_text + " characters and cut off the rest; " + fits;
  }

  // texts, good: {query, keys, values}; good.query is [[...]] like the parsed query. -> {arrays, errors}
  function read_inputs(texts, good, edited) {
    var errors = {}, out = {}, any = false;
    var parsers = {
      query: function (t) { return [parse_vector(t, "the query")]; },
      keys: function (t) { return parse_rows(t, "keys"); },
      values: function (t) { return parse_rows(t, "values"); },
    };
    ["query", "keys", "values"].forEach(function (f) {
      var g = good[f];
      if (g != null && texts[f] === (f === "query" ? vector_text(g[0]) : rows_text(g))) { out[f] = g; return; }
      if (texts[f].length >= LIMITS.max_text) { errors[f] = too_long(f); any = true; return; }
      try { out[f] = parsers[f](texts[f]); } catch (err) {
        if (!(err instanceof InputError)) throw err;
        errors[f] = err.message; any = true;
      }
    });
    if (any) return { arrays: null, errors: errors };
    var d_q = out.query[0].length, d_k = out.keys[0].length;
    if (d_q !== d_k) {
      errors[edited === "query" || edited === "keys" ? edited : "keys"] = "the query has " + d_q + " number" +
        (d_q !== 1 ? "s" : "") + " but each key has " + d_k + ": a query and its keys need the same length d_k";
      return { arrays: null, errors: errors };
    }
    var m_k = out.keys.length, m_v = out.values.length;
    if (m_k !== m_v) {
      errors[edited === "keys" || edited === "values" ? edited : "values"] = m_k + " keys but " + m_v +
        " values: every key needs one value";
      return { arrays: null, errors: errors };
    }
    return { arrays: out, errors: errors };
  }

  function key_names(presets, preset, m) {
    var names = presets[preset].names;
    if (names.length === m) return names.slice();
    var out = [];
    for (var j = 0; j < m; j++) out.push("k" + (j + 1));
    return out;
  }

  // --- the views (data.py's table_html, output_html, stage_note, feedback_html, ...)
  function table_html(st, names, K, V, step, scaled, d_k) {
    function cell(shown, text, stage, cls) {
      var c = (cls ? [cls] : []).concat(step === stage ? ["wk-now"] : []).concat(shown ? [] : ["wk-hidden"]);
      var attr = c.length ? " class='" + c.join(" ") + "'" : "";
      return "<td" + attr + ">" + (shown ? text : "?") + "</td>";
    }
    var scale_head = scaled ? "\u00f7 \u221a" + d_k : "(off)";
    var head = "<thead><tr><th class='wk-key'>key</th><th class='wk-key'>k</th><th>score<br>q\u00b7k</th>" +
      "<th>scaled<br>" + scale_head + "</th><th>e to the<br>scaled</th><th>weight</th><th>value</th>" +
      "<th>weight<br>\u00d7 value</th></tr></thead>";
    var d_v = Array.isArray(st.output) ? st.output.length : 1;
    var rows = [];
    for (var j = 0; j < names.length; j++) {
      var v = d_v === 1 ? V[j][0] : V[j];
      rows.push("<tr><th class='wk-key'>" + esc(names[j]) + "</th><td class='wk-vec'>" + vec_text(K[j]) + "</td>" +
        cell(step >= 1, short(st.score[j]), 1) + cell(step >= 2, short(st.scaled[j]), 2) +
        cell(step >= 3, exp_text(st.exp[j]), 3) + cell(step >= 4, fixed(st.weight[j], 3), 4) +
        "<td class='wk-val'>" + vec_text(v) + "</td>" + cell(step >= 5, vec_text(st.weighted[j]), 5) + "</tr>");
    }
    var total = 0;
    for (j = 0; j < st.weight.length; j++) total += st.weight[j];
    rows.push("<tr class='wk-total'><th class='wk-key'>total</th><td></td><td></td><td></td>" +
      cell(step >= 3, "\u03a3 " + exp_text(st.exp_total), 3) + cell(step >= 4, "\u03a3 " + fixed(total, 3), 4) +
      "<td></td>" + cell(step >= 5, "output " + vec_text(st.output), 5) + "</tr>");
    return "<table class='wk-table'>" + head + "<tbody>" + rows.join("") + "</tbody></table>";
  }

  function output_html(st, step) {
    var text = step >= 5 ? vec_text(st.output) : "<span class='wk-hidden'>?</span>";
    return "<div class='wk-out'>output = " + text + "</div>";
  }

  function score_sum(q, k) {
    return q.map(function (x, i) { return AEPage.paren(short(x)) + "\u00d7" + AEPage.paren(short(k[i])); }).join(" + ");
  }

  function stage_note(st, q, K, names, step, scaled, d_k, d_v) {
    var n = esc(names[0]), body;
    if (step === 0) {
      body = "Nothing is computed yet. Guess which key will win and what the output will be, " +
        "then press <b>Step</b>.";
    } else if (step === 1) {
      body = "<b>1 \u00b7 Score.</b> Multiply the query and each key entry by entry and add: " +
        "q\u00b7" + n + " = " + score_sum(q, K[0]) + " = " + short(st.score[0]) + ".";
    } else if (step === 2) {
      var root = short(Math.sqrt(d_k));
      if (scaled) {
        body = "<b>2 \u00b7 Scale.</b> Divide every score by \u221ad_k = \u221a" + d_k + " \u2248 " + root + ": " +
          short(st.score[0]) + " \u2192 " + short(st.scaled[0]) + ".";
      } else {
        body = "<b>2 \u00b7 Scale.</b> Scaling is off, so the scores go into the softmax unchanged " +
          "(tick \u00f7\u221ad_k to divide them by \u221a" + d_k + " \u2248 " + root + ").";
      }
    } else if (step === 3) {
      body = "<b>3 \u00b7 Exponentiate.</b> Raise e to each scaled score: every entry turns positive and " +
        "the gaps grow. e<sup>" + short(st.scaled[0]) + "</sup> = " + exp_text(st.exp[0]) +
        "; the exponentials add up to " + exp_text(st.exp_total) + ".";
    } else if (step === 4) {
      body = "<b>4 \u00b7 Normalise.</b> Divide each exponential by their sum, so the weights add to 1: " +
        exp_text(st.exp[0]) + " / " + exp_text(st.exp_total) + " = " + fixed(st.weight[0], 3) + ".";
    } else {
      body = "<b>5 \u00b7 Weighted sum.</b> Multiply each value by its weight and add the rows: " +
        "the output is " + vec_text(st.output) + ".";
      if (d_v === 2) body += " It lies inside the values' convex hull (shaded): weights \u2265 0 that add to 1 cannot leave it.";
    }
    return "<div class='wk-note'>" + body + "</div>";
  }

  function guess_vector(text, d_v) {  // -> [numbers or null, error]
    if (!String(text).trim()) return [null, ""];
    var g;
    try { g = parse_vector(text, "your output", LIMITS.max_entry, LIMITS.max_dv); } catch (err) {
      if (!(err instanceof InputError)) throw err;
      return [null, err.message];
    }
    if (g.length !== d_v) {
      var ex = [];
      for (var i = 0; i < d_v; i++) ex.push("0.5");
      return [null, "the output has " + d_v + " number" + (d_v !== 1 ? "s" : "") + "; type " + d_v + ", e.g. " + ex.join(", ")];
    }
    return [g, ""];
  }

  function feedback_html(st, names, step, guess_key, guess_output, d_v, note) {
    if (step < 4) {
      return "<div class='wk-fb'>Guess before the weights appear (stage 4): the page then tells you " +
        "how close you were.</div>";
    }
    var w = Array.from(st.weight), top = Math.max.apply(null, w), winners = [];
    w.forEach(function (x, j) { if (x >= top - 1e-12) winners.push(j); });
    var win_names = winners.map(function (j) { return esc(names[j]); }).join(" and ");
    var lead = win_names + " " + (winners.length > 1 ? "tie" : "wins") + " with weight " + fixed(top, 3);
    var key_line, out_line;
    var j = names.indexOf(guess_key);
    if (guess_key !== "" && j >= 0) {
      if (winners.indexOf(j) >= 0) {
        var tied = winners.length > 1 ? " (" + win_names + " tie)" : "";
        key_line = "<span class='wk-right'>You picked " + esc(guess_key) + ": right.</span>" + tied +
          " It takes " + fixed(w[j], 3) + " of the weight.";
      } else {
        key_line = "<span class='wk-off'>You picked " + esc(guess_key) + ": not this time.</span> " +
          lead + "; " + esc(guess_key) + " gets " + fixed(w[j], 3) + ".";
      }
    } else {
      key_line = "You did not pick a key. " + lead + ".";
    }
    if (step < 5) {
      out_line = "Step once more to check your output.";
    } else {
      var g = guess_vector(guess_output, d_v)[0];
      if (g === null) {
        out_line = "No output guess to check; the output is " + vec_text(st.output) + ".";
      } else {
        var dist = M.prediction_error(d_v === 1 ? g[0] : g, st.output);
        out_line = "Your output " + vec_text(g) + " is " + fixed(dist, 3) + " from " + vec_text(st.output) + ".";
      }
    }
    var seed = note && step >= 5 ? "<div class='wk-seed'>" + esc(note) + "</div>" : "";
    return "<div class='wk-fb'>" + key_line + "<br>" + out_line + "</div>" + seed;
  }

  function error_html(msg) { return msg ? "<div class='wk-err' role='alert'>" + esc(msg) + "</div>" : ""; }

  function panel_note(d_k, d_v) {
    if (d_k === 2 && d_v === 2) return "";
    var missing = [];
    if (d_k !== 2) missing.push("keys with 2 numbers to draw the keys (these have " + d_k + ")");
    if (d_v !== 2) missing.push("values with 2 numbers to draw the values and their hull (these have " + d_v + ")");
    return "<div class='wk-seed'>The pictures need " + missing.join(" and ") + ".</div>";
  }

  function sweep_note(norm, top, step) {
    if (norm === 0) return "<div class='wk-seed'>A zero query has no direction: every key gets the same weight.</div>";
    var mine = step >= 4 ? "largest weight " + fixed(top, 3) : "its weight shows at stage 4";
    return "<div class='wk-seed'>This query: |q| = " + short(norm) + ", " + mine +
      ". Stretch it and the curve climbs toward 1.</div>";
  }

  // --- the 2D panels' views (panels.py's panel_range, fits, choose_range; state.py's slider_end)
  function panel_range(points, pad) {
    var lo = [0, 0], hi = [0, 0];
    points.forEach(function (p) {
      for (var c = 0; c < 2; c++) { lo[c] = Math.min(lo[c], p[c]); hi[c] = Math.max(hi[c], p[c]); }
    });
    lo = [lo[0] - pad, lo[1] - pad]; hi = [hi[0] + pad, hi[1] + pad];
    var span = Math.max(hi[0] - lo[0], hi[1] - lo[1]);
    var cx = (lo[0] + hi[0]) / 2, cy = (lo[1] + hi[1]) / 2;
    return [cx - span / 2, cx + span / 2, cy - span / 2, cy + span / 2];
  }
  function fits(points, r, margin) {
    if (margin === undefined) margin = LIMITS.margin;
    return points.every(function (p) {
      return p[0] >= r[0] + margin && p[0] <= r[1] - margin && p[1] >= r[2] + margin && p[1] <= r[3] - margin;
    });
  }
  function choose_range(preset_points, points, pad) {
    var r = panel_range(preset_points, pad);
    return fits(points, r) ? r : panel_range(points, pad);
  }
  function norm_of(q) { return Math.sqrt(q.reduce(function (t, x) { return t + x * x; }, 0)); }
  function slider_end(q) {
    var n = norm_of(q);
    if (n === 0) return LIMITS.base_slider_end;
    var top = Math.max.apply(null, q.map(Math.abs));
    return Math.min(Math.max(LIMITS.base_slider_end, n), LIMITS.max_entry * n / top);
  }


  // --- reading and writing the models --------------------------------------------------------
  var quiet = AESync.quiet, quiet_text = AESync.text;
  function rows_of(col) { return Array.from(col).map(function (v) { return as_list(v); }); }

  function good(a) {  // the last good numbers: {query: [[...]], keys: [[...]], values: [[...]]}
    return { query: [as_list(a.query.data.vec[0])], keys: rows_of(a.keys.data.vec), values: rows_of(a.values.data.vec) };
  }
  function step_of(a) { return a.stage.active == null ? 0 : Number(a.stage.active) + 1; }
  function is_scaled(a) { return a.scaled.active.indexOf(0) >= 0; }
  function xy(v) { return [v[0], v.length > 1 ? v[1] : 0]; }
  function texts_of(a) {
    return { query: a.query_text.value_input || "", keys: a.keys_text.value_input || "", values: a.values_text.value_input || "" };
  }
  function same(x, y) { return JSON.stringify(x) === JSON.stringify(y); }

  function write_inputs(a, q, K, V) {
    var names = key_names(a.presets, a.preset.value, K.length);
    quiet(a.query, { data: { x: [xy(q)[0]], y: [xy(q)[1]], vec: [q.slice()] } });
    quiet(a.keys, { data: { x: K.map(function (k) { return xy(k)[0]; }), y: K.map(function (k) { return xy(k)[1]; }),
                            vec: K.map(function (k) { return k.slice(); }), name: names } });
    quiet(a.values, { data: { x: V.map(function (v) { return xy(v)[0]; }), y: V.map(function (v) { return xy(v)[1]; }),
                              vec: V.map(function (v) { return v.slice(); }), name: names } });
  }
  function write_texts(a, q, K, V) {
    quiet(a.query_text, { value: vector_text(q), value_input: vector_text(q) });
    quiet(a.keys_text, { value: rows_text(K), value_input: rows_text(K) });
    quiet(a.values_text, { value: rows_text(V), value_input: rows_text(V) });
    memo(a).texts = texts_of(a);
  }
  function write_errors(a, errors) {
    quiet(a.query_error, { text: error_html(errors.query || ""), visible: !!errors.query });
    quiet(a.keys_error, { text: error_html(errors.keys || ""), visible: !!errors.keys });
    quiet(a.values_error, { text: error_html(errors.values || ""), visible: !!errors.values });
    // The box that cannot be read is marked (data.py's INVALID_CSS; mark_invalid tells screen readers).
    [["query", a.query_text], ["keys", a.keys_text], ["values", a.values_text]].forEach(function (p) {
      var want = errors[p[0]] ? ["wk-invalid"] : [];
      if (String(p[1].css_classes || []) !== String(want)) quiet(p[1], { css_classes: want });
    });
    // The table and the output are the last good ones while a box cannot be read (view.py does the same).
    var stale = !!(errors.query || errors.keys || errors.values);
    [[a.table_view, ["wk-stale", "wk-said"]], [a.output_view, ["wk-stale"]]].forEach(function (p) {
      var want = stale ? p[1] : [];
      if (p[0] && String(p[0].css_classes) !== String(want)) quiet(p[0], { css_classes: want });
    });
  }

  function steps_for(q, K, V, scaled) {
    var d_v = V[0].length;
    var scale = scaled ? M.default_scale(q.length) : 1.0;
    return M.lookup_steps(q, K, d_v === 1 ? V.map(function (v) { return v[0]; }) : V, scale, false);
  }

  function dragging() { return Object.keys(drags).length > 0; }

  function set_range(plot, r) {
    quiet(plot.x_range, { start: r[0], end: r[1] });
    quiet(plot.y_range, { start: r[2], end: r[3] });
  }
  // The settings the page shows (a callback that finds them as recompute drew them does nothing).
  function settings_of(a) {
    return JSON.stringify([a.preset.value, step_of(a), is_scaled(a), a.guess_key.value, String(a.guess_output.value_input || "")]);
  }

  // Recompute every number of the plate from the good numbers and the widgets, in place.
  function recompute(a) {
    var g = good(a), q = g.query[0], K = g.keys, V = g.values;
    var d_k = q.length, d_v = V[0].length, m = K.length, step = step_of(a), scaled = is_scaled(a);
    var names = key_names(a.presets, a.preset.value, m);
    var st = steps_for(q, K, V, scaled);
    var out = as_list(st.output);

    var table = { key: names, k: K.map(function (k) { return k.slice(); }), score: st.score.slice(),
                  scaled: st.scaled.slice(), exp: st.exp.slice(), weight: st.weight.slice() };
    table.value = d_v === 1 ? V.map(function (v) { return v[0]; }) : V.map(function (v) { return v.slice(); });
    table.weighted = d_v === 1 ? st.weighted.slice() : st.weighted.map(function (r) { return r.slice(); });
    for (var i = 0; i < d_v; i++) {
      table["value_" + i] = V.map(function (v) { return v[i]; });
      table["weighted_" + i] = st.weighted.map(function (r) { return d_v === 1 ? r : r[i]; });
    }
    quiet(a.table, { data: table });
    var od = {};
    if (d_v === 1) od.value = [out[0]]; else out.forEach(function (x, c) { od["value_" + c] = [x]; });
    od.exp_total = [st.exp_total];
    od.weight_total = [st.weight.reduce(function (t, x) { return t + x; }, 0)];
    quiet(a.output, { data: od });

    var hull = d_v === 2 ? M.convex_hull(V) : [];
    quiet(a.hull, { data: { x: hull.map(function (p) { return p[0]; }), y: hull.map(function (p) { return p[1]; }) } });
    if (d_v === 2 && step >= 5) {
      quiet(a.point, { data: { x: [out[0]], y: [out[1]] } });
      quiet(a.pulls, { data: { x0: V.map(function () { return out[0]; }), y0: V.map(function () { return out[1]; }),
                               x1: V.map(function (v) { return v[0]; }), y1: V.map(function (v) { return v[1]; }),
                               w: st.weight.map(function (w) { return 1 + 7 * w; }) } });
    } else {
      quiet(a.point, { data: { x: [], y: [] } });
      quiet(a.pulls, { data: { x0: [], y0: [], x1: [], y1: [], w: [] } });
    }

    var p = a.presets[a.preset.value];
    if (!dragging()) {
      if (d_k === 2) {
        var pts = K.concat([q]);
        var ppts = p.keys[0].length === 2 ? p.keys.concat([p.query[0]]) : pts;
        set_range(a.keys_plot, choose_range(ppts, pts, 1.0));
      }
      if (d_v === 2) set_range(a.values_plot, choose_range(p.values[0].length === 2 ? p.values : V, V, 1.5));
    }
    quiet(a.keys_plot, { visible: d_k === 2 });
    quiet(a.values_plot, { visible: d_v === 2 });
    quiet_text(a.panel_note, panel_note(d_k, d_v));

    var n = norm_of(q), end = slider_end(q), top = Math.max.apply(null, st.weight);
    quiet(a.length, { end: end });
    quiet(a.length, { value: Math.max(LIMITS.min_slider, n), disabled: n === 0, show_value: n !== 0,
                      title: n === 0 ? "Query length |q| = 0: no direction to stretch" : "Query length |q|" });  // data.py's LENGTH_TITLES
    quiet(a.sweep_plot.x_range, { end: end });
    if (n > 0) {
      var F = LIMITS.sweep_points, lengths = [];
      for (i = 0; i < F; i++) lengths.push(end * i / (F - 1));
      lengths[F - 1] = end;
      var W = M.length_sweep(q, K, lengths, scaled ? M.default_scale(d_k) : 1.0);
      quiet(a.sweep, { data: { length: lengths, top: W.map(function (r) { return Math.max.apply(null, r); }),
                               uniform: lengths.map(function () { return 1 / m; }) } });
      quiet(a.now, { data: step >= 4 ? { length: [n], top: [top] } : { length: [], top: [] } });
    } else {
      quiet(a.sweep, { data: { length: [], top: [], uniform: [] } });
      quiet(a.now, { data: { length: [], top: [] } });
    }
    quiet_text(a.sweep_note, sweep_note(n, top, step));

    quiet(a.back, { disabled: step === 0 });
    quiet(a.next, { disabled: step === LIMITS.stages });
    quiet_text(a.note, stage_note(st, q, K, names, step, scaled, d_k, d_v));
    quiet_text(a.table_view, table_html(st, names, K, V, step, scaled, d_k));
    quiet_text(a.output_view, output_html(st, step));
    var gk = a.guess_key.value;
    quiet(a.guess_key, { options: [["", "(pick a key)"]].concat(names.map(function (nm) { return [nm, nm]; })),
                         value: names.indexOf(gk) >= 0 ? gk : "" });
    quiet(a.guess_key, { disabled: step >= 4 });
    quiet(a.guess_output, { disabled: step >= 4 });
    var guess = String(a.guess_output.value_input || "");
    var guess_msg = guess_vector(guess, d_v)[1];
    quiet_text(a.guess_error, error_html(guess_msg));
    var preset_own = same([[q], K, V], [p.query, p.keys, p.values]);
    if (a.preset.options) {  // (node's stand-in models have none)
      var options = preset_options(a.preset.options, a.preset.value, preset_own);
      if (JSON.stringify(options) !== JSON.stringify(a.preset.options)) quiet(a.preset, { options: options });
    }
    quiet_text(a.feedback, feedback_html(st, names, step, a.guess_key.value, guess, d_v, preset_own ? p.note : ""));
    memo(a).drawn = settings_of(a);
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);
    return st;
  }

  // The Example menu names the preset while the page shows its numbers; once they differ from
  // its own the chosen entry says so, first (data.py's preset_options).
  var EDITED = "(numbers edited) ";
  function preset_options(options, chosen, own) {
    return Array.from(options).map(function (o) {
      var v = Array.isArray(o) ? o[0] : o, label = String(Array.isArray(o) ? o[1] : o);
      if (label.indexOf(EDITED) === 0) label = label.slice(EDITED.length);
      return [v, v === chosen && !own ? EDITED + label : label];
    });
  }

  // --- what the page sends Python ------------------------------------------------------------
  // The models the plate syncs, in groups. A gesture or a run of changes marks the groups it
  // changed (touch), and its commit sends those groups as the page shows them then, all of them:
  // Python reads a model only when it changed (view.py's read_page), so whatever the page wrote
  // quietly since the reader's change (a drag rewrites the text boxes, a preset every widget)
  // goes with it.
  function copy(data) {
    var out = {};
    Object.keys(data).forEach(function (k) { out[k] = Array.from(data[k]); });
    return out;
  }
  var SENDS = {
    settings: function (a) {
      return [[a.preset, { value: a.preset.value }], [a.scaled, { active: Array.from(a.scaled.active) }],
              [a.stage, { active: a.stage.active }], [a.guess_key, { value: a.guess_key.value }],
              [a.guess_output, { value: a.guess_output.value, value_input: a.guess_output.value_input }]];
    },
    texts: function (a) {
      return [a.query_text, a.keys_text, a.values_text].map(function (w) {
        return [w, { value: w.value, value_input: w.value_input }];
      });
    },
    length: function (a) { return [[a.length, { value: a.length.value }]]; },
    numbers: function (a) { return [a.query, a.keys, a.values].map(function (s) { return [s, { data: copy(s.data) }]; }); },
  };
  function touch(a, groups) { groups.forEach(function (g) { memo(a).dirty[g] = true; }); }
  function sends(a) {
    var dirty = memo(a).dirty, out = [];
    memo(a).dirty = {};
    Object.keys(SENDS).forEach(function (g) { if (dirty[g]) out = out.concat(SENDS[g](a)); });
    return out;
  }
  // A run of changes (keystrokes, clicks, slider steps): Python reads the page once it is still.
  // During a drag the drag's own commit sends them.
  function run(a, groups) {
    touch(a, groups);
    if (!dragging()) AESync.until_still(a, function () { return sends(a); });
  }

  // --- links (app/runtime/link.js reads and writes the address) ------------------------------
  // The state's values by URL field, as WorkedState.to_url leaves them out: the scaling and the
  // numbers only where they differ from the chosen preset's (these fields have no default).
  function url_values(a) {
    var g = good(a), p = a.presets[a.preset.value], out = { preset: a.preset.value, step: step_of(a) };
    if (is_scaled(a) !== p.scaled) out.scaled = is_scaled(a);
    if (!same(g.query, p.query)) out.query = g.query[0];
    if (!same(g.keys, p.keys)) out.keys = g.keys;
    if (!same(g.values, p.values)) out.values = g.values;
    return out;
  }
  function g6(x) { return AELink.g6(x); }
  function url_vec(v) { return v.map(g6).join(","); }
  function url_rows(rows) { return rows.map(url_vec).join(";"); }
  var url_format = {
    scaled: function (v) { return v == null ? "" : (v ? "1" : "0"); },
    query: function (v) { return v == null ? "" : url_vec(v); },
    keys: function (v) { return v == null ? "" : url_rows(v); },
    values: function (v) { return v == null ? "" : url_rows(v); },
  };
  // WorkedState.parse_url_value's rules and words: the numbers as typed (no range), then moved
  // within ±10 with a notice.
  function url_numbers(name) {
    return function (text, note) {
      var raw;
      try { raw = name === "query" ? parse_vector(text, "the query", null) : parse_rows(text, name, null); } catch (err) {
        throw new Error(err.message);
      }
      var e = LIMITS.max_entry, clipped = false;
      function clip(x) { var c = Math.min(e, Math.max(-e, x)); if (c !== x) clipped = true; return c; }
      var val = name === "query" ? raw.map(clip) : raw.map(function (r) { return r.map(clip); });
      if (clipped) note("'" + name + "' entries set to within \u00b1" + e + ", the nearest allowed values");
      return val;
    };
  }
  var url_parse = {
    scaled: function (text) {  // PlateState.parse_url_value's booleans
      var t = text.trim().toLowerCase();
      if (["1", "true", "yes", "on"].indexOf(t) >= 0) return true;
      if (["0", "false", "no", "off"].indexOf(t) >= 0) return false;
      throw new Error("expected 0 or 1");
    },
    query: url_numbers("query"), keys: url_numbers("keys"), values: url_numbers("values"),
  };
  function shape_text(dims) { return "(" + dims.join(", ") + (dims.length === 1 ? "," : "") + ")"; }
  // An exported page's link (no Python), in WorkedState.apply_url's order: the preset (it loads
  // its numbers), the scaling, the numbers (ignored together when they do not fit), the stage.
  function url_apply(a, v) {
    var notices = [];
    if (v.preset !== undefined) quiet(a.preset, { value: v.preset });
    load_preset(a);
    if (v.scaled !== undefined) quiet(a.scaled, { active: v.scaled ? [0] : [] });
    var order = ["query", "keys", "values"].filter(function (k) { return v[k] !== undefined; });
    if (order.length) {
      var g = good(a);
      var q = v.query || g.query[0], K = v.keys || g.keys, V = v.values || g.values;
      var ok = K.every(function (k) { return k.length === q.length; }) && K.length === V.length;
      if (ok) {
        write_inputs(a, q, K, V);
        write_texts(a, q, K, V);
      } else {
        notices.push("ignored " + order.map(function (k) { return "'" + k + "'"; }).join(", ") +
          ": the query, keys and values do not fit together (query " + shape_text([q.length]) + ", keys " +
          shape_text([K.length, K[0].length]) + ", values " + shape_text([V.length, V[0].length]) + ")");
      }
    }
    if (v.step !== undefined) quiet(a.stage, { active: v.step === 0 ? null : v.step - 1 });
    recompute(a);
    return notices;
  }

  // --- events ----------------------------------------------------------------------------------
  function on_text(a, field) {
    if (dragging()) return;  // a drag rewrites the boxes itself
    var texts = texts_of(a);
    if (same(texts, memo(a).texts)) return;  // this file's own write, or Python's copy of it
    memo(a).texts = texts;
    var res = read_inputs(texts, good(a), field);
    write_errors(a, res.errors);
    if (res.arrays !== null) {  // otherwise the last good state stays on screen
      write_inputs(a, res.arrays.query[0], res.arrays.keys, res.arrays.values);
      recompute(a);
    }
    run(a, ["texts"]);
  }

  function on_preset(a, restore) {
    if (!restore && a.preset.value === memo(a).preset) return;  // our own write calling back
    if (!a.presets[a.preset.value]) return;
    load_preset(a);
    recompute(a);
    run(a, ["settings", "texts", "length", "numbers"]);  // the whole page is the preset's now
  }

  // The chosen preset's numbers and scaling, nothing revealed, no guesses (WorkedState.load_preset).
  function load_preset(a) {
    var p = a.presets[a.preset.value];
    if (!p) return;
    memo(a).preset = a.preset.value;
    quiet(a.scaled, { active: p.scaled ? [0] : [] });
    quiet(a.stage, { active: null });
    quiet(a.guess_key, { value: "" });
    quiet(a.guess_output, { value: "", value_input: "" });
    write_inputs(a, p.query[0].slice(), p.keys.map(function (k) { return k.slice(); }),
                 p.values.map(function (v) { return v.slice(); }));
    write_texts(a, p.query[0], p.keys, p.values);
    write_errors(a, {});
  }

  // The scaling, the stage and the guesses.
  function on_setting(a) {
    if (settings_of(a) === memo(a).drawn) return;  // as drawn: our own write, or Python agreeing
    recompute(a);
    run(a, ["settings"]);
  }

  function on_step(a, delta) {
    var next = Math.min(LIMITS.stages, Math.max(0, step_of(a) + delta));
    a.stage.active = next === 0 ? null : next - 1;  // the reader's change (Bokeh sends it)
    on_setting(a);
  }

  function on_length(a) {
    if (dragging()) return;
    var g = good(a), q = g.query[0], n = norm_of(q), value = Number(a.length.value);
    // The slider shows the query's length (at least its start): only another value stretches it.
    if (n === 0 || Math.abs(value - Math.max(LIMITS.min_slider, n)) <= 1e-12 * Math.max(1, Math.abs(value))) return;
    var L = Math.min(Math.max(value, LIMITS.min_slider), slider_end(q));
    var q2 = q.map(function (x) { return Math.min(LIMITS.max_entry, Math.max(-LIMITS.max_entry, x / n * L)); });
    write_inputs(a, q2, g.keys, g.values);
    write_texts(a, q2, g.keys, g.values);
    write_errors(a, {});
    recompute(a);
    // The texts and numbers it rewrote go too: Python's copies then match the page's, and its
    // answer to one run of steps holds none of them. Such an answer can land after the next
    // steps (a slow machine splits a burst in runs); an old query text in it would be read as the
    // reader's typing and undo them.
    run(a, ["length", "texts", "numbers"]);
  }

  function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }
  function snap(v) { return Math.round(v / LIMITS.snap) * LIMITS.snap; }

  function on_pan_start(a, ev, which) {
    var plot = which === "keys" ? a.keys_plot : a.values_plot;
    if (!plot.visible) return;
    var px = (plot.x_range.end - plot.x_range.start) / Math.max(1, plot.inner_width);  // data units per pixel
    var py = (plot.y_range.end - plot.y_range.start) / Math.max(1, plot.inner_height);
    function dist(x, y) { return Math.hypot((x - ev.x) / px, (y - ev.y) / py); }
    var src = which === "keys" ? a.keys : a.values, d = src.data, best = null, best_d = LIMITS.hit_px;
    for (var j = 0; j < d.x.length; j++) {
      var dj = dist(d.x[j], d.y[j]);
      if (dj < best_d) { best = j; best_d = dj; }
    }
    if (which === "keys") {  // the query is drawn on top, so it wins a near tie
      var dq = dist(a.query.data.x[0], a.query.data.y[0]);
      if (dq < LIMITS.hit_px && dq <= best_d + 4) best = "query";
    }
    if (best === null) return;
    drags[plot.id] = { target: best, which: which };
    AESync.lead(a);  // Python lets the browser lead until the gesture ends
  }

  function on_pan(a, ev, which) {
    var plot = which === "keys" ? a.keys_plot : a.values_plot, d = drags[plot.id];
    if (!d) return;
    var xr = plot.x_range, yr = plot.y_range, m = LIMITS.margin, e = LIMITS.max_entry;
    var x = clamp(snap(clamp(ev.x, xr.start + m, xr.end - m)), -e, e);
    var y = clamp(snap(clamp(ev.y, yr.start + m, yr.end - m)), -e, e);
    x = Number(x.toFixed(2)); y = Number(y.toFixed(2));  // 1.35, not 1.3500000000000001
    var g = good(a), q = g.query[0], K = g.keys, V = g.values;
    if (d.target === "query") {
      // A length a link hides (?hide=length) is fixed for the lesson: the drag turns the query.
      var r = Math.hypot(x, y), keep = norm_of(q);
      q = AEPage.fixed(a.length) && r > 0 && q.length === 2 ? [x / r * keep, y / r * keep] : [x, y];
    }
    else if (which === "keys") K[d.target] = [x, y];
    else V[d.target] = [x, y];
    write_inputs(a, q, K, V);
    write_texts(a, q, K, V);
    write_errors(a, {});
    recompute(a);
  }

  function on_pan_end(a, ev, which) {
    var plot = which === "keys" ? a.keys_plot : a.values_plot;
    if (!drags[plot.id]) return;
    // The browser's numbers, with whatever else the reader changed since the last commit, in one
    // batch that Python reads when "busy" goes off.
    touch(a, ["numbers"]);
    AESync.commit(a, sends(a));
    delete drags[plot.id];
    recompute(a);  // the panels' views may fit the new points now
  }

  // --- keyboard and screen readers (the shared parts are in a11y.js) -----------------------
  // Each point of the two panels gets a focusable handle; the arrow keys move it by 0.1 (Shift:
  // 0.5) through the drag's own path, and key presses in a row end in one commit.
  function kb_targets(a, which) {
    var src = which === "keys" ? a.keys : a.values, d = src.data, out = [];
    var noun = which === "keys" ? "key" : "value";
    if (which === "keys" && a.query.data.x.length) {
      out.push({ id: "query", x: a.query.data.x[0], y: a.query.data.y[0],
                 label: "query q at " + short(a.query.data.x[0]) + ", " + short(a.query.data.y[0]) });
    }
    for (var j = 0; j < d.x.length; j++) {
      out.push({ id: j, x: d.x[j], y: d.y[j], label: noun + " " + (d.name ? d.name[j] : j + 1) + " at " + short(d.x[j]) + ", " + short(d.y[j]) });
    }
    out.forEach(function (t) { t.label += ". Arrow keys move it; Shift moves it further."; });
    return out;
  }

  function on_key(a, which, id, ev) {
    var st = AEA11y.arrow(ev, 0.1, 0.5), plot = which === "keys" ? a.keys_plot : a.values_plot;
    if (!st || !plot.visible) return false;
    var target = id === "query" ? "query" : Number(id);
    var d = drags[plot.id];
    if (d && d.target !== target) AEA11y.finish(plot.id);  // another point's keys: commit them first
    if (drags[plot.id] && drags[plot.id].target !== target) on_pan_end(a, {}, which);
    AEA11y.key_gesture(plot.id, function () {}, function () { on_pan_end(a, {}, which); });
    if (!drags[plot.id]) { drags[plot.id] = { target: target, which: which }; AESync.lead(a); }
    var src = target === "query" ? a.query : (which === "keys" ? a.keys : a.values), j = target === "query" ? 0 : target;
    on_pan(a, { x: src.data.x[j] + st.dx, y: src.data.y[j] + st.dy }, which);
    return true;
  }

  function speak_text(a) {
    var t = a.table.data, o = a.output.data;
    if (!t.weight || !t.weight.length) return "";
    var parts = Array.from(t.weight).map(function (w, j) { return t.key[j] + " " + AEPage.fix(100 * w, 1, { significant: SIGNIFICANT, trim: true }) + "%"; });
    var out = o.value !== undefined ? short(o.value[0]) : "[" + Object.keys(o).filter(function (k) { return /^value_/.test(k); })
      .sort().map(function (k) { return short(o[k][0]); }).join(", ") + "]";
    return "Weights " + parts.join(", ") + ". Output " + out + ".";
  }

  // A marked box says so to a screen reader too (aria-invalid on its input element), whoever
  // marked it (this file, or Python's answer on a served page): after every change of the widget,
  // since a re-render makes a new element.
  function mark_invalid(w) {
    function apply() {
      var root = AEBokehView.root(w), el = root && root.querySelector("input, textarea");
      if (!el) return;
      var invalid = Array.from(w.css_classes || []).indexOf("wk-invalid") >= 0;
      if ((el.getAttribute("aria-invalid") === "true") !== invalid) el.setAttribute("aria-invalid", invalid ? "true" : "false");
    }
    apply();
    w.change.connect(function () { setTimeout(apply, 0); });
  }

  function on_ready(a) {
    if (typeof document === "undefined") return;
    if (typeof Bokeh !== "undefined" && Bokeh.index) [a.query_text, a.keys_text, a.values_text].forEach(mark_invalid);
    ["keys", "values"].forEach(function (which) {
      AEA11y.handles(which === "keys" ? a.keys_plot : a.values_plot, {
        targets: function () { return kb_targets(a, which); },
        on_key: function (id, ev) { return on_key(a, which, id, ev); },
      });
    });
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    LIMITS: LIMITS, fixed: fixed, short: short, expo: expo, exp_text: exp_text, entry: entry,
    vec_text: vec_text, esc: esc, parse_vector: parse_vector, parse_rows: parse_rows, vector_text: vector_text, too_long: too_long,
    rows_text: rows_text, read_inputs: read_inputs, key_names: key_names, table_html: table_html,
    output_html: output_html, score_sum: score_sum, stage_note: stage_note, guess_vector: guess_vector,
    feedback_html: feedback_html, error_html: error_html, panel_note: panel_note, sweep_note: sweep_note,
    panel_range: panel_range, fits: fits, choose_range: choose_range, slider_end: slider_end,
    steps_for: steps_for, recompute: recompute, load_preset: load_preset, preset_options: preset_options,
    url_values: url_values, url_apply: url_apply, url_parse: url_parse, url_format: url_format,
    on_text: on_text, on_preset: on_preset, on_setting: on_setting, on_step: on_step,
    on_length: on_length, on_pan_start: on_pan_start, on_pan: on_pan, on_pan_end: on_pan_end,
    on_ready: on_ready, speak_text: speak_text,
  };
  if (typeof globalThis !== "undefined") globalThis.WorkedLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = WorkedLive;
