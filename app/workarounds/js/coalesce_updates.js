// coalesce_updates.js: the recomputations of a renderer that one change starts, made one.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=coalesce_updates).
//
// Replaces: GlyphRendererView.update_data, _update_masked_indices and set_visuals
//   (models/renderers/glyph_renderer).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, n slider key -> update 24.2 -> 16.8 ms (-31 %); self-attention 22.1 ->
//   16.4 ms (-26 %). Off and on in turn, benchmarks/workarounds.py.
// Upstream report: "A change of a source's data, its view's indices and a factor range in one task
//   makes GlyphRendererView recompute its glyphs three or four times, and set_data repeats
//   set_visuals through _update_masked_indices; coalescing full updates in a microtask does it
//   once."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A renderer recomputes its glyphs (set_data, then set_visuals, which for a Text glyph measures
  // every label five times over: the glyph and its selection, nonselection, muted and decimated
  // copies) on each of several signals that one change of n sends in turn: its source's data, its
  // view's new indices, and each factor range's new factors. The plates set all of these in one
  // synchronous run, so BokehJS 3.10 computed each renderer three or four times over, and then once
  // more because set_data's own update of the view's `masked` indices starts set_visuals again
  // with the same inputs. Here the updates asked for in one run become one, in a microtask (before
  // the next frame is painted), and the repeat from `masked` is skipped. A partial update (a
  // patch, with indices) goes through at once as before. Patched once per page, on the class that
  // every glyph renderer's view shares.
  function coalesce_updates(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.glyph != null && typeof v.update_data === "function" && typeof v.set_visuals === "function" &&
        typeof v._update_masked_indices === "function";
    });
    if (r == null) return false;
    var proto = owner_of(r, "update_data");
    if (!proto || !Object.prototype.hasOwnProperty.call(proto, "_update_masked_indices") ||
        !Object.prototype.hasOwnProperty.call(proto, "set_visuals")) return false;
    if (proto.__ae_coalesced) return true;
    var update_data = proto.update_data, update_masked = proto._update_masked_indices,
      set_visuals = proto.set_visuals;
    proto.update_data = function (indices) {
      if (indices != null) return update_data.call(this, indices);
      if (this.__ae_pending) return this.__ae_pending;
      var self = this;
      this.__ae_pending = Promise.resolve().then(function () {
        self.__ae_pending = null;
        return update_data.call(self);
      });
      return this.__ae_pending;
    };
    proto._update_masked_indices = function () {
      this.__ae_masking = true;
      try { return update_masked.apply(this, arguments); } finally { this.__ae_masking = false; }
    };
    proto.set_visuals = function () {
      if (this.__ae_masking) return Promise.resolve();  // set_data has just run it
      return set_visuals.apply(this, arguments);
    };
    proto.__ae_coalesced = true;
    return true;
  }

  W.define("coalesce_updates", {
    bokeh: ["3.10", "3.11"],
    install: coalesce_updates,
  });
})(AEWorkarounds);
