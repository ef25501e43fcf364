// axes_once.js: an axis's extents computed once per repaint of its figure, not two or three times.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=axes_once).
//
// Replaces: AxisView's `extents` getter (models/axes/axis), and wraps PlotView.repaint and
//   _actual_paint (models/plots/plot_canvas) to know when a repaint starts and ends.
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: self-attention exported, n slider key -> update 28.1 -> 24.2 ms (-14 %; p95 50.6 -> 40.6 ms).
//   Off and on in turn, benchmarks/workarounds.py (4 rounds, 320 presses), at load average 3.6-6.9
//   on 2 cores. On the lookup drag it buys nothing (-0.8 ms): there axes_on_change spares the reads.
// Upstream report: "AxisView.extents builds and measures every tick label at each read; one repaint
//   reads it to see whether the panel resized, again to draw, and a categorical axis once more for
//   its separators. Caching it for the duration of a paint, keyed on the ranges, would measure each
//   axis once."
(function (W) {
  "use strict";
  var bokeh_class = W.bokeh_class;
  // An axis's size and its drawing both start from its extents (the ticks' length, the box of
  // every tick label, the axis label's), which BokehJS 3.10 computes afresh at each read: on a
  // figure's repaint once to see whether a side panel changed size (repaint ->
  // _invalidate_layout_if_needed -> get_size), once more to draw the axis, and a categorical
  // axis a third time for its group separators, each time building and measuring every label.
  // On the self-attention page a change of n read them 3 times for each of 12 axes. Nothing
  // they are made from changes during one repaint except the ranges (a data range is updated at
  // the start of the paint), so while a figure repaints, an axis's extents are computed once and
  // reused for the same ranges (start, end, factors). Outside a repaint every read computes.
  // Patched once per page, on the classes of every plot's and every axis's view.
  function axes_measured_once(plot, axis) {  // plot: PlotView's class, axis: AxisView's class
    if (!plot || !axis) return false;
    if (axis.__ae_once) return true;
    var own = Object.getOwnPropertyDescriptor(axis, "extents");
    if (!own || typeof own.get !== "function" || typeof plot.repaint !== "function" ||
        typeof plot._actual_paint !== "function") return false;
    var pass = 0, depth = 0;  // pass changes as a repaint starts and ends: no value outlives one
    ["repaint", "_actual_paint"].forEach(function (name) {
      var f = plot[name];
      plot[name] = function () {
        if (depth++ === 0) pass += 1;
        try { return f.apply(this, arguments); } finally { if (--depth === 0) pass += 1; }
      };
    });
    function ranges_of(view) {
      var r = view.ranges, k = [];
      for (var i = 0; i < r.length; i++) k.push(r[i].start, r[i].end, r[i].factors);
      return k;
    }
    function same(a, b) {
      if (a == null || a.length !== b.length) return false;
      for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    }
    Object.defineProperty(axis, "extents", {
      configurable: true,
      get: function () {
        if (depth === 0) return own.get.call(this);
        var key = ranges_of(this);
        if (this.__ae_extents_pass === pass && same(this.__ae_extents_key, key)) return this.__ae_extents;
        var e = own.get.call(this);
        this.__ae_extents = e;
        this.__ae_extents_pass = pass;
        this.__ae_extents_key = key;
        return e;
      },
    });
    axis.__ae_own_extents = own.get;  // BokehJS's computation, kept for the tests' comparison
    axis.__ae_once = true;
    return true;
  }
  function axes_once(doc) {
    return doc != null && axes_measured_once(bokeh_class("models/plots/plot_canvas", "PlotView"),
                                             bokeh_class("models/axes/axis", "AxisView"));
  }

  W.define("axes_once", {
    bokeh: ["3.10", "3.11"],
    install: axes_once,
  });
})(AEWorkarounds);
