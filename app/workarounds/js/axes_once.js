// axes_once.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
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
  function plot_class() { return bokeh_class("models/plots/plot_canvas", "PlotView"); }
  function axes_classes() {
    return [plot_class(), bokeh_class("models/axes/axis", "AxisView")];
  }
  function axes_once(doc) {
    return doc != null && axes_measured_once.apply(null, axes_classes());
  }

  W.define("axes_once", {
    bokeh: ["3.10", "3.11"],
    early: function () { return axes_measured_once.apply(null, axes_classes()); },
    install: axes_once,
  });
})(AEWorkarounds);
