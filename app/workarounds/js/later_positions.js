// later_positions.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // Each glyph renderer has an empty element over the plot, placed by a style sheet of its own
  // that BokehJS 3.10 rewrites at paint (RendererView.update_position) from the glyph's bounds.
  // When the data moved, the sheet changes, and the next canvas text a label draws in the same
  // paint (its ctx.font) makes the browser recalculate styles first: one recalculation per label
  // set after each moved glyph, ~0.5 ms each, three or four per lookup step. A glyph renderer's
  // element shows nothing and takes no pointer events, so its sheet is written once the page has
  // been still for STILL_MS (no paint moved a glyph since), one write per renderer. Written a
  // task after each paint instead, it still cost a frame of its own after every drag move or
  // key press (style, layout, paint and commit, ~3 ms here), and that frame took the frame clock's
  // next slot, so the next move's paint waited a slot longer. Its box lags the glyphs until
  // then, unseen.
  var STILL_MS = 150;
  function later_positions(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.model != null && v.model.type === "GlyphRenderer" && typeof v.update_position === "function";
    });
    if (r == null) return false;
    var proto = owner_of(r, "update_position");
    if (!proto) return false;
    if (proto.__ae_later) return true;
    var update = proto.update_position, waiting = new Set(), timer = null, last = 0;
    var clock = typeof performance !== "undefined" ? performance : Date;
    function flush() {
      var wait = last + STILL_MS - clock.now();
      if (wait > 0) { timer = setTimeout(flush, wait); return; }  // moved again since: still not still
      timer = null;
      var views = Array.from(waiting);
      waiting.clear();
      views.forEach(function (v) { if (v.is_destroyed !== true) update.call(v); });
    }
    proto.update_position = function () {
      if (this.model == null || this.model.type !== "GlyphRenderer") return update.apply(this, arguments);
      waiting.add(this);
      last = clock.now();
      if (timer === null) timer = setTimeout(flush, STILL_MS);
    };
    proto.__ae_later = true;
    return true;
  }

  W.define("later_positions", {
    bokeh: ["3.10", "3.11"],
    install: later_positions,
  });
})(AEWorkarounds);
