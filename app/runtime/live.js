/* AELive: what the plates' live paths share (loaded once per page with mirror.js and page.js):
 * setting a Div's text in the browser only, running an update at most every few frames, leading
 * a run of widget changes ("busy" until still) and not drawing a late answer of Python's.
 */
var AELive = (typeof globalThis !== "undefined" && globalThis.AELive) || (function () {
  "use strict";

  // Set a Div's text in this browser only (sync: false). BokehJS lays the page out again after
  // each text change; the div_text workaround (app/workarounds/js/div_text.js) avoids that.
  function text(model, html) {
    if (model.text === html) return;
    var w = typeof AEWorkarounds !== "undefined" ? AEWorkarounds.wrapper("div_text") : null;
    if (w) w(model, html); else model.setv({ text: html }, { sync: false });
  }

  // Whether two values are the same (floats within `tol`, relative; arrays element by element).
  function same_value(a, b, tol) {
    if (a === b || (a !== a && b !== b)) return true;  // NaN is NaN here
    if (typeof a === "number" && typeof b === "number")
      return tol > 0 && isFinite(a) && isFinite(b) && Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
    if (a == null || b == null || typeof a !== "object" || typeof b !== "object") return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) || typeof a.length !== "number" || a.length !== b.length)
      return false;  // only arrays and typed arrays of one kind are compared
    if ((a.shape != null || b.shape != null) && (String(a.shape) !== String(b.shape) || a.dtype !== b.dtype)) return false;
    for (var i = 0; i < a.length; i++) if (!same_value(a[i], b[i], tol)) return false;
    return true;
  }
  function columns_of(data) {
    if (data instanceof Map) return data;
    var m = new Map();
    if (data != null && typeof data === "object") Object.keys(data).forEach(function (k) { m.set(k, data[k]); });
    return m;
  }
  // Whether two sources' data have the same columns with the same values (floats within tol).
  function same_data(a, b, tol) {
    var x = columns_of(a), y = columns_of(b);
    if (x.size !== y.size) return false;
    for (var [k, v] of x) if (!y.has(k) || !same_value(v, y.get(k), tol || 0)) return false;
    return true;
  }

  // While widgets change, `plot` carries "busy" and Python waits; `ms` after the last change the
  // mark goes and Python folds the widgets in once (scaling.js, masking.js).
  var still_timers = {};
  function busy_until_still(plot, ms) {
    if (plot.tags.indexOf("busy") < 0) plot.tags = ["busy"];
    clearTimeout(still_timers[plot.id]);
    still_timers[plot.id] = setTimeout(function () { delete still_timers[plot.id]; plot.tags = []; }, ms);
  }

  // A late answer of Python's (to an earlier step of a slider, landing after a later one: a held
  // arrow key repeats every ~30 ms) is never drawn. Whenever one of `models` changes, `stale()` is
  // asked once the whole message has been applied (a microtask, before the next frame), and
  // `redraw()` recomputes from the widgets if the page now shows another step than they do.
  // Installed once per `owner` model (the plates' glue: masking.js, self_attention.js).
  function guard_late(owner, models, stale, redraw) {
    if (owner == null || owner.__ae_guarded || typeof owner.connect !== "function") return;
    owner.__ae_guarded = true;
    var pending = false;
    var check = function () {
      if (pending) return;
      pending = true;
      Promise.resolve().then(function () { pending = false; if (stale()) redraw(); });
    };
    models.forEach(function (m) { owner.connect(m.change, check); });
  }

  // Run fn at most once every `ms` for `key`; a call during the wait is kept and runs when it
  // ends (the last one wins), so the final state is always shown.
  var throttled = {};
  function throttle(key, ms, fn) {
    var t = throttled[key];
    if (!t) t = throttled[key] = { timer: null, last: -Infinity, fn: null };
    t.fn = fn;
    if (t.timer !== null) return;
    var now = (typeof performance !== "undefined" ? performance : Date).now();
    var wait = Math.max(0, t.last + ms - now);
    t.timer = setTimeout(function () {
      t.timer = null;
      t.last = (typeof performance !== "undefined" ? performance : Date).now();
      var f = t.fn;
      t.fn = null;
      if (f) f();
    }, wait);
  }

  return {
    text: text, throttle: throttle, same_data: same_data, same_value: same_value, guard_late: guard_late,
    busy_until_still: busy_until_still,
  };
})();
if (typeof globalThis !== "undefined") globalThis.AELive = AELive;
if (typeof module !== "undefined" && module.exports) module.exports = AELive;