// local_layout.js: a fixed-size figure whose axes change size laid out alone, not the whole document from its root.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=local_layout).
//
// Replaces: PlotView._invalidate_layout_if_needed (models/plots/plot_canvas), per figure view.
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, n slider key -> update 23.7 -> 20.5 ms (-14 %). Off and on in turn,
//   benchmarks/workarounds.py.
// Upstream report: "A figure of fixed width and height whose axes change size triggers
//   compute_layout of the whole document (~60 ms on a page of a dozen figures); its outer box cannot
//   change, so laying out the figure alone suffices."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A figure whose axes change size (new factors when n changes, longer tick labels) lays itself
  // out again at its next paint, and BokehJS 3.10 does that by laying out the whole document from
  // its root (PlotView._invalidate_layout_if_needed -> compute_layout, which climbs to the root:
  // about 60 ms on the masking page, twice per step of n). A figure of fixed width and height
  // keeps its outer box whatever its axes do (its frame gives way), so nothing around it can
  // move: for those the layout stays inside the figure. A figure sized by its frame or stretched
  // by its container is left as it is: its outer box may change, and the page must follow.
  function fixed_box(m) {
    return typeof m.width === "number" && typeof m.height === "number" && m.frame_width == null &&
      m.frame_height == null && (m.sizing_mode == null || m.sizing_mode === "fixed") &&
      ["auto", "fixed"].indexOf(m.width_policy || "auto") >= 0 && ["auto", "fixed"].indexOf(m.height_policy || "auto") >= 0;
  }
  function local_layout(doc) {
    var patched = 0;
    figure_views(doc).forEach(function (mv) {
      var v = mv[1];
      if (v.__ae_local || typeof v._invalidate_layout_if_needed !== "function" ||
          typeof v.measure_layout !== "function" || typeof v._compute_layout !== "function") return;
      v.__ae_local = true;
      var own = v._invalidate_layout_if_needed;
      v._invalidate_layout_if_needed = function () {
        if (!fixed_box(this.model) || !this.is_managed) return own.apply(this, arguments);
        var view = this;
        this.compute_layout = function () {
          view.measure_layout();
          view.update_bbox();
          view._compute_layout();
          view.after_layout();
          view._layout_computed = true;
        };
        try { return own.apply(this, arguments); } finally { delete this.compute_layout; }
      };
      patched += 1;
    });
    return patched;
  }

  W.define("local_layout", {
    bokeh: ["3.10", "3.11"],
    install: local_layout,
  });
})(AEWorkarounds);
