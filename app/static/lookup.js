// lookup.js: the soft-lookup plate's live path. Pointer moves and widget changes are computed
// here with AttentionMirror (mirror.js) and written into the plate's sources in place, so the
// bars and numbers follow the hand at every move; Python recomputes the same numbers with
// attention_core when a gesture ends and replaces the sources (the authority).
// Needs mirror.js loaded first. `a` holds the plate's Bokeh models by name (see lookup.py).
var LookupLive = (typeof globalThis !== "undefined" && globalThis.LookupLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var LIMITS = { min_length: 0.1, max_length: 5, max_coord: 5, hit_px: 24 };
  var drags = {};  // plot id -> {target: "query" | key index}

  function width_factor(d_k) { return Math.sqrt(d_k / 2); }
  function pct(w) { return (100 * w).toFixed(1) + "%"; }
  function fix(x, d) { var s = x.toFixed(d); return s === "-" + (0).toFixed(d) ? (0).toFixed(d) : s; }

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
    if (a.defaults) write_url(a, a.defaults);
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
  // second during a gesture and always after its last change (AELive.throttle): its cost stays
  // bounded however fast the hand moves. Rewritten at every move it measured level here (exported
  // slider 27.3 against 26.8 ms median), so the bound costs nothing.
  var TABLE_MS = 120;
  function refresh_table(a) {
    if (!a.table) return;
    var write = function () { quiet_text(a.table, table_html(a.weights.data)); };
    if (typeof AELive === "undefined") write(); else AELive.throttle("table:" + a.table.id, TABLE_MS, write);
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

  // Set model properties in this browser only: the live path never talks to the server.
  function quiet(model, props) { model.setv(props, { sync: false }); }
  // A Div's words, set without Bokeh's relayout of the page (live.js; plain setv in node).
  function quiet_text(model, html) { if (typeof AELive !== "undefined") AELive.text(model, html); else quiet(model, { text: html }); }
  // Set them and send them even when this browser already holds the same values (the live
  // path changed them quietly); this is how a finished gesture reaches Python.
  function send(model, props) { model.setv(props, { check_eq: false }); }

  function set_query_polar(a, angle, length) {
    var p = M.cartesian(angle, length), d = a.query.data;
    d.x[0] = p[0]; d.y[0] = p[1];
    a.query.change.emit();
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
    a.plot.tags = ["busy"];  // Python lets the browser lead until the gesture ends
  }

  function on_pan(a, ev) {
    var d = drags[a.plot.id];
    if (!d) return;
    if (d.target === "query") {
      var pol = M.polar(ev.x, ev.y);
      var length = clamp(pol[1], LIMITS.min_length, LIMITS.max_length);
      set_query_polar(a, pol[0], length);
      quiet(a.angle, { value: pol[0] });
      quiet(a.length, { value: length });
    } else {
      var kd = a.keys.data;
      kd.x[d.target] = clamp(ev.x, -LIMITS.max_coord, LIMITS.max_coord);
      kd.y[d.target] = clamp(ev.y, -LIMITS.max_coord, LIMITS.max_coord);
      a.keys.change.emit();
    }
    recompute(a);
  }

  // Send the browser's state to Python in one batch that Python folds in at the end ("busy" off).
  function commit(a) {
    var kd = a.keys.data;
    send(a.keys, { data: { x: Array.from(kd.x), y: Array.from(kd.y), value: Array.from(kd.value), name: Array.from(kd.name) } });
    send(a.query, { data: { x: [a.query.data.x[0]], y: [a.query.data.y[0]] } });
    send(a.angle, { value: a.angle.value });
    send(a.length, { value: a.length.value });
    a.plot.tags = [];
  }

  function on_pan_end(a, ev) {
    if (!drags[a.plot.id]) return;
    commit(a);
    delete drags[a.plot.id];
  }

  // A burst of widget changes (a slider dragged, keys held down) is led by the browser like a
  // drag: Python is told "busy" at its start and gets one commit when it has been idle a while,
  // so no answer computed for an older value can land on top of a newer one.
  var WIDGET_IDLE_MS = 300;
  function widget_burst(a) {
    var d = drags[a.plot.id];
    if (d && d.target !== "widgets") return;  // a drag or key move leads; it commits itself
    if (!d) { d = drags[a.plot.id] = { target: "widgets" }; a.plot.tags = ["busy"]; }
    clearTimeout(d.timer);
    d.timer = setTimeout(function () {
      if (drags[a.plot.id] !== d) return;  // a drag or a reset took over and commits itself
      commit(a);
      delete drags[a.plot.id];
    }, WIDGET_IDLE_MS);
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

  function on_reset(a, defaults) {
    drags[a.plot.id] = { target: "reset" };
    a.plot.tags = ["busy"];
    var kd = a.keys.data;
    for (var j = 0; j < kd.x.length; j++) { kd.x[j] = defaults.keys_x[j]; kd.y[j] = defaults.keys_y[j]; }
    a.keys.change.emit();
    a.dk.value = String(defaults.d_k);
    a.scaled.active = defaults.scaled ? [0] : [];
    quiet(a.angle, { value: defaults.angle });
    quiet(a.length, { value: defaults.length });
    set_query_polar(a, defaults.angle, defaults.length);
    recompute(a);
    commit(a);
    delete drags[a.plot.id];
  }

  // The address bar follows the plate (replaceState, so the history does not fill up); the
  // names and formats are LookupState.to_url()'s, and fields at their defaults are left out.
  function g6(x) { return String(Number(x.toPrecision(6))); }
  function url_fields(a, defaults) {
    var kd = a.keys.data, st = settings(a), out = {};
    var keys = kd.x.map(function (x, j) { return g6(x) + "," + g6(kd.y[j]); }).join(";");
    var dkeys = defaults.keys_x.map(function (x, j) { return g6(x) + "," + g6(defaults.keys_y[j]); }).join(";");
    if (g6(a.angle.value) !== g6(defaults.angle)) out.angle = g6(a.angle.value);
    if (g6(a.length.value) !== g6(defaults.length)) out.length = g6(a.length.value);
    if (st.d_k !== defaults.d_k) out.d_k = String(st.d_k);
    if (st.scaled !== defaults.scaled) out.scaled = st.scaled ? "1" : "0";
    if (keys !== dkeys) out.keys = keys;
    return out;
  }
  function write_url(a, defaults) {
    if (typeof AEPage === "undefined") return;  // node tests load the glue alone
    AEPage.write_url(["angle", "length", "d_k", "scaled", "keys"], function () { return url_fields(a, defaults); });
  }

  // Apply a link's settings in a page with no Python (an exported file); the rules are
  // LookupState.apply_url's: clamp what is out of range, ignore what cannot be read, and
  // return a notice for each.
  var NUMBER = /^[ \t\n\r\f\v]*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\f\v]*$/;  // app.state.NUMBER (ASCII only)
  var CHROME_PARAMS = ["embed", "theme", "hide", "present", "plate", "workarounds"];
  function short(t) { return AEPage.short_text(t, 24); }  // app.state._short
  function apply_url(a, params) {
    var notices = [], st = {}, seen = {};
    params.forEach(function (text, name) {
      if (seen[name]) return;  // a repeated setting: the first one counts, as on a served page
      seen[name] = true;
      if (["angle", "length", "d_k", "scaled", "keys"].indexOf(name) < 0) {
        if (CHROME_PARAMS.indexOf(name) < 0) notices.push("ignored unknown setting '" + short(name) + "'");
        return;
      }
      if (text.length > 200) { notices.push("ignored '" + name + "': value too long"); return; }
      if (name === "angle" || name === "length") {
        if (!NUMBER.test(text)) { notices.push("ignored '" + name + "=" + short(text) + "': not a number"); return; }
        if (!Number.isFinite(Number(text))) { notices.push("ignored '" + name + "=" + short(text) + "': not a finite number"); return; }
        var x = Number(text), lo = name === "angle" ? 0 : LIMITS.min_length, hi = name === "angle" ? 360 : LIMITS.max_length;
        var c = clamp(x, lo, hi);
        if (Math.abs(c - x) > 1e-9) notices.push("'" + name + "' set to " + g6(c) + ", the nearest allowed value");
        st[name] = c;
      } else if (name === "d_k") {
        var ok = a.dk.options.indexOf(text.trim()) >= 0;
        if (!ok) { notices.push("ignored 'd_k=" + short(text) + "': expected one of " + a.dk.options.join(", ")); return; }
        st.d_k = text.trim();
      } else if (name === "scaled") {
        var t = text.trim().toLowerCase();
        if (["1", "true", "yes", "on"].indexOf(t) >= 0) st.scaled = true;
        else if (["0", "false", "no", "off"].indexOf(t) >= 0) st.scaled = false;
        else notices.push("ignored 'scaled=" + short(text) + "': expected 0 or 1");
      } else if (name === "keys") {
        // LookupState.parse_url_value's checks, in its order and words: the count, each row's
        // shape, plain numbers, then finite values.
        var rows = text.split(";"), pts = [], moved = false, why = null;
        if (rows.length !== a.keys.data.x.length) why = "expected " + a.keys.data.x.length + " points 'x,y' separated by ';'";
        rows.forEach(function (r) {
          if (why) return;
          var xy = r.split(",");
          if (xy.length !== 2) { why = "each key is 'x,y'"; return; }
          if (!NUMBER.test(xy[0]) || !NUMBER.test(xy[1])) { why = "each key is 'x,y' with plain numbers"; return; }
          pts.push([Number(xy[0]), Number(xy[1])]);
        });
        if (!why && !pts.every(function (pt) { return Number.isFinite(pt[0]) && Number.isFinite(pt[1]); })) why = "not finite";
        if (why) { notices.push("ignored 'keys=" + short(text) + "': " + why); return; }
        pts = pts.map(function (pt) {
          if (Math.abs(pt[0]) > LIMITS.max_coord || Math.abs(pt[1]) > LIMITS.max_coord) moved = true;
          return [clamp(pt[0], -LIMITS.max_coord, LIMITS.max_coord), clamp(pt[1], -LIMITS.max_coord, LIMITS.max_coord)];
        });
        if (moved) notices.push("'keys' moved inside \u00b1" + LIMITS.max_coord + ", the nearest allowed positions");
        st.keys = pts;
      }
    });
    if (st.keys) {
      var kd = a.keys.data;
      st.keys.forEach(function (p, j) { kd.x[j] = p[0]; kd.y[j] = p[1]; });
      a.keys.change.emit();
    }
    if (st.d_k !== undefined) a.dk.value = st.d_k;
    if (st.scaled !== undefined) a.scaled.active = st.scaled ? [0] : [];
    if (st.angle !== undefined) a.angle.value = st.angle;
    if (st.length !== undefined) a.length.value = st.length;
    set_query_polar(a, a.angle.value, a.length.value);
    recompute(a);
    return notices;
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
    if (!drags[a.plot.id]) { drags[a.plot.id] = { target: target }; a.plot.tags = ["busy"]; }
    var x, y;
    if (target === "query") { x = a.query.data.x[0] + st.dx; y = a.query.data.y[0] + st.dy; }
    else { x = a.keys.data.x[target] + st.dx; y = a.keys.data.y[target] + st.dy; }
    on_pan(a, { x: x, y: y });
    return true;
  }

  function speak_text(a) {
    var w = a.weights.data.weight;
    var parts = Array.from(w).map(function (x, j) { return "k" + (j + 1) + " " + pct(x); });
    return "Weights " + parts.join(", ") + ". Output " + fix(a.output.data.value[0], 2) + ".";
  }

  function on_ready(a) {
    if (typeof document === "undefined") return;
    AEA11y.handles(a.plot, { targets: function () { return kb_targets(a); },
                             on_key: function (t, ev) { return on_key(a, t, ev); } });
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    on_ready: on_ready, speak_text: speak_text,
    apply_url: apply_url,
    LIMITS: LIMITS, width_factor: width_factor, pct: pct, fix: fix, steps: steps, recompute: recompute,
    readout_html: readout_html, table_html: table_html, on_pan_start: on_pan_start, on_pan: on_pan, on_pan_end: on_pan_end,
    on_angle_or_length: on_angle_or_length, on_setting: on_setting, on_reset: on_reset, url_fields: url_fields, write_url: write_url,
  };
  if (typeof globalThis !== "undefined") globalThis.LookupLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = LookupLive;
