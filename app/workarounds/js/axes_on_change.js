// axes_on_change.js: a figure's axes measured again only when something they are drawn from changed.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=axes_on_change).
//
// Replaces: PlotView._invalidate_layout_if_needed (models/plots/plot_canvas), per figure view.
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: lookup exported, drag move -> update 17.3 -> 14.2 ms (-18 %; p95 29.6 -> 25.0 ms). Off and on
//   in turn, benchmarks/workarounds.py (4 rounds, 400 moves), at load average 3.6-6.9 on 2 cores; a
//   move's canvas measureText calls 51 -> 19 and getComputedStyle calls 10 -> 1.4 (dd622dc's counts).
// Upstream report: "Before each paint PlotView asks every side panel whether its size changed, and
//   an axis answers by building and measuring all its tick labels again, although nothing it is
//   drawn from changed (a glyph's data moved): marking the figure when its ranges, axes, tickers,
//   formatters or fonts change, and asking only then, would take that off every data-only paint."
(function (W) {
  "use strict";
  var figure_views = W.figure_views;
  // Before each paint BokehJS 3.10 asks every axis of the figure whether its size changed
  // (PlotView._invalidate_layout_if_needed -> SideLayout.has_size_changed), and to answer it
  // measures every tick label again: a drag of the lookup's query, which moves data only, paid it
  // on every figure at every move. An axis can only change size when something it is drawn from
  // changes: the figure (its size, its list of axes), a range (new ticks, new factors), or the
  // axis and what it refers to (ticker, formatter, label, fonts). Their change signals now mark
  // the figure; an unmarked figure skips the question, a marked one asks it as before, and a
  // layout BokehJS has asked for itself (_needs_layout) always goes through. Installed over
  // local_layout's wrapper, and under hidden_figures_wait's.
  function values_of(x) {
    if (x == null) return [];
    if (typeof x.values === "function" && !Array.isArray(x)) return Array.from(x.values());
    return Object.keys(x).map(function (k) { return x[k]; });
  }
  function axes_on_change(doc) {
    var patched = 0;
    figure_views(doc).forEach(function (mv) {
      var m = mv[0], v = mv[1];
      if (v.__ae_axes || typeof v._invalidate_layout_if_needed !== "function" || typeof v.connect !== "function" ||
          !Array.isArray(m.side_panels) || typeof m.references !== "function") return;
      var from = [m, m.x_range, m.y_range].concat(values_of(m.extra_x_ranges), values_of(m.extra_y_ranges));
      m.side_panels.forEach(function (p) { from.push(p); from = from.concat(Array.from(p.references())); });
      v.__ae_axes = true;
      v.__ae_axes_changed = true;
      var mark = function () { v.__ae_axes_changed = true; };
      from.forEach(function (x) {
        if (x == null) return;
        if (x !== m) { if (x.change != null) v.connect(x.change, mark); return; }
        // The figure's own properties one by one: its tags, like its name, move no axis.
        Object.keys(x.properties || {}).forEach(function (k) {
          var prop = x.properties[k];
          if (k !== "tags" && k !== "name" && prop != null && prop.change != null) v.connect(prop.change, mark);
        });
      });
      var inner = v._invalidate_layout_if_needed;
      v._invalidate_layout_if_needed = function () {
        if (!this._needs_layout && !this.__ae_axes_changed) return;
        this.__ae_axes_changed = false;
        return inner.apply(this, arguments);
      };
      patched += 1;
    });
    return patched;
  }

  W.define("axes_on_change", {
    bokeh: ["3.10", "3.11"],
    install: axes_on_change,
  });
})(AEWorkarounds);
