// sync.js (AESync): the page leads, Python follows. The browser half of the protocol that
// app/shared/viewer.py (PlateViewer) holds on the Python side, written once for every plate:
//
//   - the page computes each change itself (the plate's glue, with mirror.js) and shows it at once,
//     in this browser only (quiet);
//   - while a gesture or a run of changes lasts, the plate's `sync` source (a.sync, which no
//     figure draws) carries "busy", and Python leaves what the page sends alone: lead(a);
//   - at the end, the page sends what the plate syncs and takes the mark off: commit(a, sends);
//     Python reads the page once, its state validates it, and attention_core's numbers replace
//     the page's where they differ. A run of widget changes ends once the widgets have been still
//     for STILL_MS: until_still(a, sends).
// A plate's glue says what it syncs (the [model, props] pairs it passes to commit), not how.
var AESync = (typeof globalThis !== "undefined" && globalThis.AESync) || (function () {
  "use strict";
  var STILL_MS = 150;  // a pause this long ends a run of widget changes

  // Set model properties in this browser only: the live path never talks to the server by itself.
  function quiet(model, props) { model.setv(props, { sync: false }); }
  // Set them and send them even when this browser already holds the same values (the live path
  // changed them quietly): this is how a finished gesture reaches Python.
  function send(model, props) { model.setv(props, { check_eq: false }); }
  // A source whose columns the live path rewrote in place, shown (in this browser only). Emitting
  // its `change` alone redraws its glyphs, but what BokehJS computes from the columns and keeps
  // (an expression's result: a label's place beyond its arrow) is worked out again only when the
  // data itself is set, so it is set again, the same columns.
  function rewritten(source) { source.setv({ data: source.data }, { sync: false, check_eq: false }); }

  function busy(a) { return a.sync.tags.indexOf("busy") >= 0; }
  // A gesture starts: Python waits for its end.
  // A gesture leads until its own commit: a run of widget changes that ends while it lasts (its
  // timer below) sends what it changed but leaves the mark on.
  // mark(a) alone is "busy" without a gesture (a run of widget changes that has just begun): the
  // run's own timer then commits.
  var gestures = {};
  function mark(a) { if (!busy(a)) a.sync.tags = ["busy"]; }
  function lead(a) { gestures[a.sync.id] = true; mark(a); }
  // It ends: what the plate syncs goes to Python ([[model, props], ...]), then the mark goes.
  function commit(a, sends) {
    clearTimeout(still_timers[a.sync.id]);
    delete still_timers[a.sync.id];
    delete gestures[a.sync.id];
    (sends || []).forEach(function (s) { send(s[0], s[1]); });
    a.sync.tags = [];
    changed();
  }
  // The student's change has been made: said on the page ("ae-changed" on window) for whoever
  // listens: app/runtime/scorm.js, in an LMS package, counts the plate as done; nothing listens
  // elsewhere. commit() says it for every plate; a change that commits only later (learn's Train,
  // at Pause) says it when it starts.
  function changed() {
    if (typeof window !== "undefined" && typeof window.dispatchEvent === "function" && typeof CustomEvent === "function")
      window.dispatchEvent(new CustomEvent("ae-changed"));
  }
  // A run of changes (a slider dragged, a key held down, clicks in a row): "busy" until the page
  // has been still for STILL_MS, then one commit. `sends` is a function: what to send at the end.
  var still_timers = {};
  function until_still(a, sends) {
    mark(a);
    clearTimeout(still_timers[a.sync.id]);
    still_timers[a.sync.id] = setTimeout(function () {
      delete still_timers[a.sync.id];
      if (!gestures[a.sync.id]) { commit(a, sends ? sends() : []); return; }
      (sends ? sends() : []).forEach(function (s) { send(s[0], s[1]); });  // the gesture's commit ends the lead
    }, STILL_MS);
  }

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
  // Whether two sources' data have the same columns with the same values (floats within tol). A
  // column is compared by its values, whatever kind of array holds them: Python's columns arrive
  // as typed arrays, the page's own are plain arrays.
  function as_array(col) { return col != null && typeof col === "object" && typeof col.length === "number" ? Array.from(col) : col; }
  function same_data(a, b, tol) {
    var x = columns_of(a), y = columns_of(b);
    if (x.size !== y.size) return false;
    for (var [k, v] of x) if (!y.has(k) || !same_value(as_array(v), as_array(y.get(k)), tol || 0)) return false;
    return true;
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
    STILL_MS: STILL_MS, quiet: quiet, send: send, rewritten: rewritten, busy: busy, mark: mark, lead: lead, commit: commit, until_still: until_still,
    changed: changed,
    text: text, throttle: throttle, same_data: same_data, same_value: same_value, guard_late: guard_late,
  };
})();
if (typeof globalThis !== "undefined") globalThis.AESync = AESync;
if (typeof module !== "undefined" && module.exports) module.exports = AESync;
