// axes_on_change.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // Before each paint BokehJS 3.10 asks every axis of the figure whether its size changed
  // (PlotView._invalidate_layout_if_needed -> SideLayout.has_size_changed), and to answer it
  // measures every tick label again: about 1.3 ms per figure per paint, a sixth of a slider press
  // on the lookup plate. An axis can only change size when something it is drawn from changes:
  // the figure (its size, its list of axes), a range (new ticks, new factors), or the axis and
  // what it refers to (ticker, formatter, label, fonts). Their change signals now mark the figure;
  // an unmarked figure skips the question, a marked one asks it as before, and a layout BokehJS
  // has asked for itself (_needs_layout) always goes through. Installed over local_layout's wrapper.
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
        // The figure's own properties one by one: its tags change at every gesture (the live
        // path's "busy"), and they, like its name, move no axis.
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
