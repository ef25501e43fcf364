// lookup.js: the soft-lookup plate's live path. Pointer moves and widget changes are computed
// here with AttentionMirror (mirror.js) and written into the plate's sources in place, so the
// bars and numbers follow the hand at every move; at a gesture's end the page sends what the
// plate syncs (AESync.commit) and Python recomputes the same numbers with attention_core (the
// authority). `a` holds the plate's Bokeh models by name (see view.py), a.sync and a.link.
var LookupLive = (typeof globalThis !== "undefined" && globalThis.LookupLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var LIMITS = { min_length: 0.1, max_length: 5, max_coord: 5, hit_px: 24, keys: 5 };
  var drags = {};  // plot id -> {target: "query" | key index}

  function width_factor(d_k) { return Math.sqrt(d_k / 2); }
  var fix = AEPage.fix, pct = AEPage.pct;  // app/shared/formatting.py's, as data.py writes them

  function settings(a) {
    var d_k = Number(a.dk.value);
    var scaled = a.scaled.active.indexOf(0) >= 0;
    return { d_k: d_k, scaled: scaled, scale: scaled ? M.default_scale(d_k) : 1.0 };
  }

  function steps(a) {
    var kd = a.keys.data, st = settings(a), f = width_factor(st.d_k);
    var q = [a.query.data.x[0] * f, a.query.data.y[0] * f];  // the query as seen at width d_k
    var K = kd.x.map(function (x, j) { return [x, kd.y[j]]; });
    return M.lookup_steps(q, K, Array.from(kd.value), st.scale);
  }

  function readout_html(out, hard, hard_key) {
    return "<div class='ae-readout'><span class='ae-big'>output = " + fix(out, 2) +
      "</span><span class='ae-sub'>hard lookup: " + fix(hard, 0) + " (k" + (hard_key + 1) +
      ") · plain average: 30</span></div>";
  }

  // Recompute every number of the plate from the sources and widgets, in place.
  function recompute(a) {
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);
    var s = steps(a), w = a.weights.data, kd = a.keys.data;
    for (var j = 0; j < s.weight.length; j++) {
      w.weight[j] = s.weight[j];
      w.pct[j] = pct(s.weight[j]);
      w.score[j] = s.score[j];
      w.scaled[j] = s.scaled[j];
      w.weighted[j] = s.weighted[j];
    }
    a.weights.change.emit();
    var o = a.output.data;
    o.value[0] = s.output;
    o.label[0] = "output " + fix(s.output, 2);
    a.output.change.emit();
    var r = a.refs.data, hard = kd.value[s.winner];
    r.x[0] = hard;
    r.label[0] = "hard lookup " + fix(hard, 0);
    a.refs.change.emit();
    quiet_text(a.readout, readout_html(s.output, hard, s.winner));
    refresh_table(a);
    return s;
  }

  // The table under the bars (lookup.py's table_html): the same numbers, rewritten a few times a
  // second during a gesture and always after its last change (AESync.throttle): its cost stays
  // bounded however fast the hand moves. Rewritten at every move it measured level here (exported
  // slider 27.3 against 26.8 ms median), so the bound costs nothing.
  var TABLE_MS = 120;
  function refresh_table(a) {
    if (!a.table) return;
    var write = function () { quiet_text(a.table, table_html(a.weights.data)); };
    AESync.throttle("table:" + a.table.id, TABLE_MS, write);
  }
  var TABLE_LABEL = "Scores and weights of the five keys";
  var TABLE_COLUMNS = [["value", "value", 0], ["raw score", "score", 3], ["into softmax", "scaled", 3],
                       ["weight", "weight", 4], ["weight \u00d7 value", "weighted", 3]];
  function table_html(w) {  // lookup.py's table_html, through page.js's (node tests load page.js too)
    var columns = [["key", "row"]].concat(TABLE_COLUMNS.map(function (c) { return [c[0], "num"]; }));
    var rows = Array.from(w.key).map(function (k, j) {
      return [k].concat(TABLE_COLUMNS.map(function (c) { return fix(Number(w[c[1]][j]), c[2]); }));
    });
    return AEPage.table_html(TABLE_LABEL, columns, rows);
  }

  var quiet = AESync.quiet, quiet_text = AESync.text;

  function set_query_polar(a, angle, length) {
    var p = M.cartesian(angle, length), d = a.query.data;
    d.x[0] = p[0]; d.y[0] = p[1];
    AESync.rewritten(a.query);
  }

  function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }

  function on_pan_start(a, ev) {
    var px = (a.plot.x_range.end - a.plot.x_range.start) / Math.max(1, a.plot.inner_width);  // data units per pixel
    var py = (a.plot.y_range.end - a.plot.y_range.start) / Math.max(1, a.plot.inner_height);
    function dist(x, y) { return Math.hypot((x - ev.x) / px, (y - ev.y) / py); }
    var best = null, best_d = LIMITS.hit_px;
    var kd = a.keys.data;
    for (var j = 0; j < kd.x.length; j++) {
      var dk = dist(kd.x[j], kd.y[j]);
      if (dk < best_d) { best = j; best_d = dk; }
    }
    // The query is drawn on top, so it wins a near tie.
    var dq = dist(a.query.data.x[0], a.query.data.y[0]);
    if (dq < LIMITS.hit_px && dq <= best_d + 4) best = "query";
    if (best === null) return;
    drags[a.plot.id] = { target: best };
    AESync.lead(a);  // Python lets the browser lead until the gesture ends
  }

  function on_pan(a, ev) {
    var d = drags[a.plot.id];
    if (!d) return;
    if (d.target === "query") {
      // A control a link hides (?hide=length) is a setting the lesson fixed: the drag keeps it
      // and moves only the other one.
      var pol = M.polar(ev.x, ev.y);
      var angle = AEPage.fixed(a.angle) ? Number(a.angle.value) : pol[0];
      var length = AEPage.fixed(a.length) ? Number(a.length.value) : clamp(pol[1], LIMITS.min_length, LIMITS.max_length);
      set_query_polar(a, angle, length);
      quiet(a.angle, { value: angle });
      quiet(a.length, { value: length });
    } else {
      // A pointer lands on a 0.01 grid (a pixel is about 0.02 here): a key dropped on the origin
      // is at 0, 0 in the link, not 8.28967e-16. The arrow keys' steps (ev.exact) are kept as they are.
      var kd = a.keys.data, grid = function (v) { return ev.exact ? v : Number(v.toFixed(2)) || 0; };
      kd.x[d.target] = grid(clamp(ev.x, -LIMITS.max_coord, LIMITS.max_coord));
      kd.y[d.target] = grid(clamp(ev.y, -LIMITS.max_coord, LIMITS.max_coord));
      AESync.rewritten(a.keys);
    }
    recompute(a);
  }

  // What the plate syncs: the keys, the query and its sliders (the widgets d_k and scaled are
  // sent as they change).
  function sends(a) {
    var kd = a.keys.data;
    return [[a.keys, { data: { x: Array.from(kd.x), y: Array.from(kd.y), value: Array.from(kd.value), name: Array.from(kd.name) } }],
            [a.query, { data: { x: [a.query.data.x[0]], y: [a.query.data.y[0]] } }],
            [a.angle, { value: a.angle.value }], [a.length, { value: a.length.value }]];
  }
  function commit(a) { AESync.commit(a, sends(a)); }

  function on_pan_end(a, ev) {
    if (!drags[a.plot.id]) return;
    commit(a);
    delete drags[a.plot.id];
  }

  // A burst of widget changes (a slider dragged, keys held down) is led by the browser like a
  // drag: "busy" until the widgets are still, then one commit, so no answer computed for an
  // older value can land on top of a newer one.
  function widget_burst(a) {
    var d = drags[a.plot.id];
    if (d && d.target !== "widgets") return;  // a drag or key move leads; it commits itself
    if (!d) drags[a.plot.id] = { target: "widgets" };
    AESync.until_still(a, function () {
      if (drags[a.plot.id] && drags[a.plot.id].target === "widgets") delete drags[a.plot.id];
      return sends(a);
    });
  }

  function sliders_match_query(a) {
    var pol = M.polar(a.query.data.x[0], a.query.data.y[0]);
    var da = Math.abs(pol[0] - a.angle.value);
    return Math.min(da, Math.abs(da - 360)) < 1e-9 && Math.abs(pol[1] - a.length.value) < 1e-9;
  }

  function on_angle_or_length(a) {
    var d = drags[a.plot.id];
    if (d && d.target !== "widgets") return;  // the drag already placed the query
    // BokehJS runs this callback asynchronously: after a commit it arrives with the values the
    // commit itself sent. Those already match the query, so there is nothing to do; without
    // this check every commit would start a new burst and commit again, forever.
    if (!d && sliders_match_query(a)) return;
    set_query_polar(a, a.angle.value, a.length.value);
    recompute(a);
    widget_burst(a);
  }

  function on_setting(a) {
    recompute(a);
    widget_burst(a);
  }

  function on_reset(a) {
    var f = a.link.fields;
    drags[a.plot.id] = { target: "reset" };
    AESync.lead(a);
    var kd = a.keys.data;
    for (var j = 0; j < kd.x.length; j++) { kd.x[j] = f.keys.default[j][0]; kd.y[j] = f.keys.default[j][1]; }
    AESync.rewritten(a.keys);
    a.dk.value = String(f.d_k.default);
    a.scaled.active = f.scaled.default ? [0] : [];
    quiet(a.angle, { value: f.angle.default });
    quiet(a.length, { value: f.length.default });
    set_query_polar(a, f.angle.default, f.length.default);
    recompute(a);
    commit(a);
    delete drags[a.plot.id];
  }

  // The link (app/runtime/link.js): the state's values, how to set them in an exported page (no
  // Python), and the keys' own format "x,y;x,y;..." with LookupState's checks, in its order and
  // words: the count, each row's shape, plain numbers, finite values, then the clamp.
  function g6(x) { return AELink.g6(x); }
  function url_values(a) {
    var kd = a.keys.data, st = settings(a);
    return { angle: a.angle.value, length: a.length.value, d_k: st.d_k, scaled: st.scaled,
             keys: kd.x.map(function (x, j) { return [x, kd.y[j]]; }) };
  }
  var url_format = { keys: function (pts) { return pts.map(function (p) { return g6(p[0]) + "," + g6(p[1]); }).join(";"); } };
  var url_parse = {
    keys: function (text, note) {
      var rows = text.split(";"), pts = [], n = LIMITS.keys;
      if (rows.length !== n) throw new Error("expected " + n + " points 'x,y' separated by ';'");
      rows.forEach(function (r) {
        var xy = r.split(",");
        if (xy.length !== 2) throw new Error("each key is 'x,y'");
        if (!AELink.NUMBER.test(xy[0]) || !AELink.NUMBER.test(xy[1])) throw new Error("each key is 'x,y' with plain numbers");
        pts.push([Number(xy[0]), Number(xy[1])]);
      });
      if (!pts.every(function (p) { return Number.isFinite(p[0]) && Number.isFinite(p[1]); })) throw new Error("not finite");
      var m = LIMITS.max_coord, moved = false;
      pts = pts.map(function (p) {
        if (Math.abs(p[0]) > m || Math.abs(p[1]) > m) moved = true;
        return [clamp(p[0], -m, m), clamp(p[1], -m, m)];
      });
      if (moved) note("'keys' moved inside \u00b1" + m + ", the nearest allowed positions");
      return pts;
    },
  };
  function url_apply(a, v) {
    if (v.keys) {
      var kd = a.keys.data;
      v.keys.forEach(function (p, j) { kd.x[j] = p[0]; kd.y[j] = p[1]; });
      AESync.rewritten(a.keys);
    }
    if (v.d_k !== undefined) a.dk.value = String(v.d_k);
    if (v.scaled !== undefined) a.scaled.active = v.scaled ? [0] : [];
    if (v.angle !== undefined) a.angle.value = v.angle;
    if (v.length !== undefined) a.length.value = v.length;
    set_query_polar(a, a.angle.value, a.length.value);
    recompute(a);
  }

  // Keyboard: each point gets a focusable handle over the plot (AEA11y.handles; Tab reaches
  // it); the arrow keys move it by 0.1 (Shift: 0.5), through the same path as a drag, and key
  // presses in a row end in one commit. The live region (AEA11y.speak) says the new weights.
  function describe(a, target) {
    var kd = a.keys.data;
    if (target === "query") {
      var pol = M.polar(a.query.data.x[0], a.query.data.y[0]);
      return "query, angle " + fix(pol[0], 0) + " degrees, length " + fix(pol[1], 2);
    }
    return "key k" + (target + 1) + " (value " + kd.value[target] + ") at " + fix(kd.x[target], 1) + ", " + fix(kd.y[target], 1);
  }

  function kb_targets(a) {
    var kd = a.keys.data, out = [{ id: "query", x: a.query.data.x[0], y: a.query.data.y[0] }];
    for (var j = 0; j < kd.x.length; j++) out.push({ id: j, x: kd.x[j], y: kd.y[j] });
    out.forEach(function (t) { t.label = describe(a, t.id) + ". Arrow keys move it; Shift moves it further."; });
    return out;
  }

  function on_key(a, target, ev) {
    var st = AEA11y.arrow(ev, 0.1, 0.5);
    if (!st) return false;
    target = target === "query" ? "query" : Number(target);
    var d = drags[a.plot.id];
    if (d && d.target !== target) AEA11y.finish(a.plot.id);  // another point's keys: commit them first
    d = drags[a.plot.id];
    if (d && d.target !== target) { on_pan_end(a, {}); }  // a pointer drag was in progress
    AEA11y.key_gesture(a.plot.id, function () {}, function () { on_pan_end(a, {}); });
    if (!drags[a.plot.id]) { drags[a.plot.id] = { target: target }; AESync.lead(a); }
    var x, y;
    if (target === "query") { x = a.query.data.x[0] + st.dx; y = a.query.data.y[0] + st.dy; }
    else { x = a.keys.data.x[target] + st.dx; y = a.keys.data.y[target] + st.dy; }
    on_pan(a, { x: x, y: y, exact: true });
    return true;
  }

  function speak_text(a) {
    var w = a.weights.data.weight;
    var parts = Array.from(w).map(function (x, j) { return "k" + (j + 1) + " " + pct(x); });
    return "Weights " + parts.join(", ") + ". Output " + fix(a.output.data.value[0], 2) + ".";
  }

  // The first change of a slider run reaches Python before "busy" does, so Python answers it,
  // and on a loaded machine that answer can land during the run, after later steps: it would put
  // the query back at an earlier angle, and the run's commit would then send that query to
  // Python (AESync.guard_late). While no pointer or key drag leads, the page's query is the
  // sliders' and its weights are the mirror's for that query; a message that leaves either
  // otherwise is an earlier answer, and the page draws the sliders' step again. Python's answer to
  // the sliders the page shows agrees to 1e-9 and is kept.
  function stale(a) {
    var d = drags[a.plot.id];
    if (d && d.target !== "widgets") return false;
    if (!sliders_match_query(a)) return true;
    var w = steps(a).weight, shown = a.weights.data.weight;
    for (var j = 0; j < w.length; j++) if (!(Math.abs(Number(shown[j]) - w[j]) <= 1e-9)) return true;
    return false;
  }
  function guard(a) {
    AESync.guard_late(a.query, [a.query, a.weights], function () { return stale(a); }, function () {
      if (!sliders_match_query(a)) set_query_polar(a, a.angle.value, a.length.value);
      recompute(a);
    });
  }

  function on_ready(a) {
    if (typeof document === "undefined") return;
    guard(a);
    AEA11y.handles(a.plot, { targets: function () { return kb_targets(a); },
                             on_key: function (t, ev) { return on_key(a, t, ev); } });
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    on_ready: on_ready, speak_text: speak_text,
    url_values: url_values, url_apply: url_apply, url_parse: url_parse, url_format: url_format,
    LIMITS: LIMITS, width_factor: width_factor, pct: pct, fix: fix, steps: steps, recompute: recompute,
    readout_html: readout_html, table_html: table_html, on_pan_start: on_pan_start, on_pan: on_pan, on_pan_end: on_pan_end,
    on_angle_or_length: on_angle_or_length, on_setting: on_setting, on_reset: on_reset,
  };
  if (typeof globalThis !== "undefined") globalThis.LookupLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = LookupLive;
