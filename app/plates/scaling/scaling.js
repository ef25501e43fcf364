// scaling.js: the "Why divide by √d_k" plate's live path. The width slider, the scaling box and
// a drag or click on the flat-line or entropy chart recompute every view here with
// AttentionMirror (flat_line, softmax_jacobian, entropy, normal_density) and write the sources
// in place, so the page follows the hand and works in an exported file with no server. The
// histogram is not recomputed: its counts come from NumPy's generator, which the browser cannot
// reproduce, so Python ships every width's bins in the "histogram_table" source and this file
// picks the rows. At the end of a gesture or a run of changes the page sends the two widgets
// (AESync.commit) and Python recomputes all of it with attention_core (the authority).
// `a` holds the plate's Bokeh models by name (see view.py), a.sync and a.link.
var ScalingLive = (typeof globalThis !== "undefined" && globalThis.ScalingLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var BASE = [2, 1, 0], N_SAMPLES = 10000, DENSITY_POINTS = 161, MAX_EXP = 10;
  var drags = {};  // plot id -> true while a pan is in progress

  // --- how numbers are written (app/shared/formatting.py's fix and sci; formatting.py's short,
  // weight_text and trim) ----------------------------------------------------------------------
  var fix = AEPage.fix, sci = AEPage.sci;
  function short(x) {
    if (x === 0) return "0";
    if (Math.abs(x) < 0.0005) return sci(x);
    return fix(x, 3);
  }
  function weight_text(w) {
    if (w > 0.9995) return 1 - w >= 0.000005 ? fix(w, 5) : "1 − " + sci(1 - w);
    return short(w);
  }
  function trim(x) { return fix(x, 2, { trim: true }); }

  var quiet = AESync.quiet, quiet_text = AESync.text;
  function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }

  function settings(a) {
    var e = clamp(Math.round(Number(a.dk.value)), 0, MAX_EXP);
    if (!Number.isFinite(e)) e = Math.round(Math.log2(a.link.fields.d_k.default));
    return { exp: e, d_k: Math.pow(2, e), scaled: a.scaled.active.indexOf(0) >= 0 };
  }

  // (text_align, x_offset) keeping a marker's label inside the plot (data.py's label_side).
  function label_side(d_k, left_below) { return d_k < left_below ? ["left", 8.0] : ["right", -8.0]; }

  // The flat-line chart's label of the three weights, in the band no curve enters (data.py's
  // flat_label).
  var FLAT_LABEL_SIDE = 32;
  function flat_label(d_k, w) {
    var side = label_side(d_k, FLAT_LABEL_SIDE);
    var text = w.map(function (x, j) { return "α" + (j + 1) + " = " + weight_text(x); }).join("\n");
    return { text: text, x: d_k, text_align: side[0], x_offset: side[1] };
  }

  function std_text(d_k, std, scaled) {
    return "std " + fix(std, 2) + (scaled ? "" : "   (√" + d_k + " = " + trim(Math.sqrt(d_k)) + ")");
  }

  function readout_html(d_k, scaled, std_raw, std_scaled, scores, w, largest, h) {
    var raw_part = "raw " + fix(std_raw, 2), scaled_part = "÷√" + d_k + ": " + fix(std_scaled, 2);
    if (scaled) scaled_part = "<b>" + scaled_part + "</b>"; else raw_part = "<b>" + raw_part + "</b>";
    return "<div class='ae-readout'>" +
      "<span class='ae-big'>d_k = " + d_k + " · std of 10,000 scores: " + raw_part + " · " + scaled_part + "</span>" +
      "<span class='ae-sub'>three items, scores [" + scores.map(trim).join(", ") + "] → weights " +
      w.map(weight_text).join(", ") + " · largest Jacobian entry " + short(largest) +
      " · entropy " + fix(h, 3) + " of log 3 = " + fix(Math.log(3), 3) + "</span></div>";
  }

  // Every view of the plate from the widgets, in place.
  var computing = false;
  function recompute(a) {
    computing = true;
    try { return compute(a); } finally { computing = false; }
  }
  function shown_key(st) { return st.exp + (st.scaled ? "s" : "r"); }
  function compute(a) {
    var st = settings(a), d = st.d_k, flag = st.scaled ? 1 : 0;
    a.hist.__ae_shown = shown_key(st);  // on a model: each callback has its own `a`
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);

    // (a) the histogram: this width's precomputed bins, and the normal curve over them.
    var t = a.table.data, hd = a.hist.data, k = 0;
    for (var r = 0; r < t.d.length; r++) {
      if (t.d[r] === d && t.scaled[r] === flag) {
        hd.left[k] = t.left[r]; hd.right[k] = t.right[r]; hd.count[k] = t.count[r]; k++;
      }
    }
    a.hist.change.emit();
    var lo = hd.left[0], hi = hd.right[k - 1], width = hd.right[0] - hd.left[0];
    var variance = st.scaled ? 1.0 : d, dd = a.density.data, step = (hi - lo) / (DENSITY_POINTS - 1);
    var top = 0;
    for (var j = 0; j < DENSITY_POINTS; j++) {
      var x = j === DENSITY_POINTS - 1 ? hi : j * step + lo;
      var pdf = M.normal_density(x, variance);
      dd.x[j] = x; dd.pdf[j] = pdf; dd.y[j] = N_SAMPLES * width * pdf;
      if (dd.y[j] > top) top = dd.y[j];
    }
    a.density.change.emit();
    for (var c = 0; c < k; c++) if (hd.count[c] > top) top = hd.count[c];
    quiet(a.hist_plot.x_range, { start: lo, end: hi });
    quiet(a.hist_plot.y_range, { end: top * 1.18 });
    quiet(a.hist_xaxis, { axis_label: st.scaled ? "q·k / √" + d : "q·k" });
    var sd = a.stds.data, si = Array.from(sd.d).indexOf(d);
    var std_raw = sd.unscaled[si], std_scaled = sd.scaled[si];
    quiet(a.std_label, { text: std_text(d, st.scaled ? std_scaled : std_raw, st.scaled) });

    // (b) the flat line: this width's three weights on the curves.
    var w = M.flat_line([d], BASE, st.scaled)[0];
    var fc = a.flat_current.data;
    for (var i = 0; i < 3; i++) {
      fc.d[i] = d; fc.w[i] = w[i]; fc.label[i] = weight_text(w[i]);
    }
    a.flat_current.change.emit();
    quiet(a.flat_label, flat_label(d, w));
    quiet(a.flat_span, { location: d });
    quiet(a.ent_span, { location: d });

    // (c) the Jacobian of those weights and their entropy.
    var J = M.softmax_jacobian(w), jd = a.jac.data, largest = 0;
    for (i = 0; i < 3; i++) {
      for (j = 0; j < 3; j++) {
        var n = 3 * i + j;
        jd.value[n] = J[i][j]; jd.label[n] = short(J[i][j]);
        if (Math.abs(J[i][j]) > largest) largest = Math.abs(J[i][j]);
      }
    }
    a.jac.change.emit();
    quiet(a.jac_max, { text: "largest entry " + short(largest) });
    var h = M.entropy(w), ec = a.ent_current.data;
    var side = label_side(d, 256);
    ec.d[0] = d; ec.h[0] = h; ec.label[0] = "H = " + fix(h, 3); ec.align[0] = side[0]; ec.dx[0] = side[1];
    a.ent_current.change.emit();

    var root = Math.sqrt(d);
    var scores = BASE.map(function (b) { var raw = root * b; return st.scaled ? raw / root : raw; });
    quiet_text(a.readout, readout_html(d, st.scaled, std_raw, std_scaled, scores, w, largest, h));
    return { d_k: d, scaled: st.scaled, weights: w, jacobian: J, entropy: h };
  }

  // What the plate syncs: the two widgets (a drag or a tap sets the slider, quietly).
  function sends(a) {
    return [[a.dk, { value: a.dk.value }], [a.scaled, { active: Array.from(a.scaled.active) }]];
  }

  // --- widget changes: live at once, sent to Python once they are still ------------------
  // A run of changes (the slider dragged, a key held down) is led by the page: a.sync carries
  // "busy" and Python waits, then reads the widgets once, AESync.STILL_MS after the last change.
  function on_widget(a) {
    guard(a);
    // BokehJS runs this callback a moment after the change, also for the values this file set
    // itself: a drag or tap sets the slider quietly, and a commit sends the widgets again. The
    // views already show those settings: nothing to paint, and nothing new to send (without
    // this check every commit would start a new run and commit again, forever).
    if (a.hist.__ae_shown === shown_key(settings(a))) return;
    recompute(a);
    if (Object.keys(drags).length > 0) return;  // a pan leads; it commits when it ends
    AESync.until_still(a, function () { return sends(a); });
  }

  // Python pushes "rendered" (the state its numbers are for) before its labels and numbers, each
  // a change of its own. Whenever one of them lands and "rendered" is not what the widgets show
  // now, the answer is late (the page has moved on since): recompute from the widgets at once,
  // in the same task, so a stale number is never painted. The page's own changes (made while
  // `computing`) are not Python's and are left alone. (AESync.guard_late looks once the whole
  // message has been applied, and cannot tell the page's own changes from Python's: "rendered"
  // differs from the widgets all through a run the page leads.)
  function guard(a) {
    if (!a.rendered || a.rendered.__ae_guarded || typeof a.rendered.connect !== "function") return;
    a.rendered.__ae_guarded = true;
    var check = function () { if (!computing && is_stale(a)) recompute(a); };
    [a.rendered, a.hist, a.density, a.flat_current, a.jac, a.ent_current, a.hist_plot.x_range, a.hist_plot.y_range,
     a.hist_xaxis, a.std_label, a.jac_max, a.flat_label, a.flat_span, a.ent_span, a.readout].forEach(function (m) {
      a.rendered.connect(m.change, check);
    });
  }
  function is_stale(a) {
    var st = settings(a), r = a.rendered.data;
    return Number(r.d_k[0]) !== st.d_k || (Number(r.scaled[0]) === 1) !== st.scaled;
  }

  // --- a drag or click on the flat-line or entropy chart sets the width -------------------
  // d_k snaps to a power of two, so most moves of a drag land on the width already shown: such
  // a move (only_if_new) changes nothing and repaints nothing. A press or a tap always recomputes,
  // in case Python's answer left the views behind the widgets.
  function set_width_from_x(a, x, only_if_new) {
    var e = x > 0 ? clamp(Math.round(Math.log2(x)), 0, MAX_EXP) : 0;
    if (Number(a.dk.value) !== e) quiet(a.dk, { value: e });
    else if (only_if_new) return;
    recompute(a);
  }

  function on_pan_start(a, ev, plot) {
    guard(a);
    drags[plot.id] = true;
    AESync.lead(a);  // Python lets the page lead until the gesture ends
    set_width_from_x(a, ev.x);
  }

  function on_pan(a, ev, plot) {
    if (!drags[plot.id]) return;
    AESync.lead(a);  // still leading (a run of the slider's that ended meanwhile has committed)
    set_width_from_x(a, ev.x, true);
  }

  function on_pan_end(a, ev, plot) {
    if (!drags[plot.id]) return;
    delete drags[plot.id];
    AESync.commit(a, sends(a));
  }

  function on_tap(a, ev, plot) {
    if (Object.keys(drags).length > 0) return;
    guard(a);
    AESync.lead(a);
    set_width_from_x(a, ev.x);
    AESync.commit(a, sends(a));
  }

  function on_reset(a) {  // each widget's change runs on_widget
    var f = a.link.fields;
    a.dk.value = Math.round(Math.log2(f.d_k.default));
    a.scaled.active = f.scaled.default ? [0] : [];
  }

  // --- the link (app/runtime/link.js) ------------------------------------------------------
  // The state's values, how an exported page (no Python) sets them, and d_k's own reading:
  // ScalingState.parse_url_value's, any number snapped to the nearest power of two in 1..1024,
  // with its notice when the number was not one.
  function nearest_width(x) {  // state.py's nearest_width
    x = clamp(x, 1, Math.pow(2, MAX_EXP));
    return Math.pow(2, Math.floor(Math.log2(x) + 0.5));
  }
  function url_values(a) {
    var st = settings(a);
    return { d_k: st.d_k, scaled: st.scaled };
  }
  var url_format = { d_k: function (d) { return String(d); } };
  var url_parse = {
    d_k: function (text, note) {
      if (!AELink.NUMBER.test(text)) throw new Error("not a number");
      var x = Number(text);
      if (!Number.isFinite(x)) throw new Error("not a finite number");
      var d = nearest_width(x);
      if (Math.abs(x - d) > 1e-9) note("'d_k' set to " + d + ", the nearest allowed value");
      return d;
    },
  };
  function url_apply(a, v) {
    if (v.d_k !== undefined) a.dk.value = Math.round(Math.log2(v.d_k));
    if (v.scaled !== undefined) a.scaled.active = v.scaled ? [0] : [];
    recompute(a);
  }

  // --- keyboard and screen readers (the shared parts are in a11y.js) -----------------------
  // The width marker of each chart that sets d_k by drag or tap gets a focusable handle: the
  // arrow keys double or halve d_k (Shift: three doublings), through the drag's own path.
  function kb_target(a, plot) {
    var st = settings(a), yr = plot.y_range;
    return [{ id: "width", x: st.d_k, y: (yr.start + yr.end) / 2,
              label: "width d_k = " + st.d_k + " on the chart '" + plot.title.text + "'. Arrow keys double or halve it; Shift: eight times." }];
  }
  function on_key(a, plot, ev) {
    var st = AEA11y.arrow(ev, 1, 3);
    if (!st) return false;
    var e = clamp(settings(a).exp + st.dx + st.dy, 0, MAX_EXP), x = Math.pow(2, e);
    AEA11y.key_gesture(plot.id, function () { on_pan_start(a, { x: x }, plot); },
                       function () { on_pan_end(a, {}, plot); });
    on_pan(a, { x: x }, plot);
    return true;
  }
  function speak_text(a) { return AEA11y.text_of(a.readout.text); }
  function on_ready(a) {
    if (typeof document === "undefined") return;
    [a.flat_plot, a.ent_plot].forEach(function (plot) {
      if (!plot) return;
      AEA11y.handles(plot, { targets: function () { return kb_target(a, plot); },
                             on_key: function (id, ev) { return on_key(a, plot, ev); } });
    });
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    fix: fix, sci: sci, short: short, weight_text: weight_text, trim: trim, label_side: label_side,
    flat_label: flat_label, std_text: std_text, readout_html: readout_html, settings: settings,
    recompute: recompute, sends: sends, on_widget: on_widget,
    is_stale: is_stale, on_pan_start: on_pan_start, on_pan: on_pan, on_pan_end: on_pan_end, on_tap: on_tap,
    on_reset: on_reset, nearest_width: nearest_width, on_ready: on_ready, speak_text: speak_text,
    url_values: url_values, url_apply: url_apply, url_parse: url_parse, url_format: url_format,
  };
  if (typeof globalThis !== "undefined") globalThis.ScalingLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = ScalingLive;
