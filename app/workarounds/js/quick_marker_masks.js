// quick_marker_masks.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // Before drawing a scatter, BokehJS 3.10 keeps only the markers near the visible frame
  // (MarkerView._mask_data: the frame widened by the largest marker, mapped to data space, then a
  // spatial-index query). Widening and mapping go through Range1d.widen and .map, which build a
  // new Range1d model each (a full HasProps with its properties): four models, 0.2-0.6 ms per
  // renderer, twice per change (in set_data and again at paint); over the lookup's eight
  // scatters the main thread's work per slider step fell ~2.7 ms without them. The same
  // arithmetic on plain numbers gives the same four bounds and so the same markers. Patched once
  // per page, on the marker glyph view's class.
  function widened(range, by) {  // Range1d.widen's start and end, without the model
    return range.start > range.end ? [range.start + by, range.end - by] : [range.start - by, range.end + by];
  }
  function quick_marker_masks(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.glyph != null && v.glyph.model != null && v.glyph.model.type === "Scatter" &&
        typeof v.glyph._mask_data === "function";
    });
    if (r == null) return false;
    var proto = owner_of(r.glyph, "_mask_data");
    if (!proto) return false;
    if (proto.__ae_quick) return true;
    var mask = proto._mask_data;
    proto._mask_data = function () {
      var rv = this.renderer, frame = rv && rv.plot_view && rv.plot_view.frame;
      var xt = frame && frame.x_target, yt = frame && frame.y_target, by = this.max_size, index = this.index;
      if (xt == null || yt == null || typeof by !== "number" || index == null || typeof index.indices !== "function" ||
          typeof xt.start !== "number" || typeof yt.start !== "number" || typeof rv.xscale.invert !== "function" ||
          typeof rv.yscale.invert !== "function") return mask.apply(this, arguments);
      var h = widened(xt, by), v = widened(yt, by);
      return index.indices({
        x0: rv.xscale.invert(h[0]), x1: rv.xscale.invert(h[1]),
        y0: rv.yscale.invert(v[0]), y1: rv.yscale.invert(v[1]),
      });
    };
    proto.__ae_quick = true;
    return true;
  }

  W.define("quick_marker_masks", {
    bokeh: ["3.10", "3.11"],
    install: quick_marker_masks,
  });
})(AEWorkarounds);
