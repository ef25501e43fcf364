// index_when_asked.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // Each glyph view builds a spatial index of its data at every change of the data
  // (GlyphView.set_data -> index_data: every element's box, then a Hilbert sort), so that a hover,
  // a tap, a data range's bounds or a scatter's mask can find elements by position. And at every
  // paint after a change, each figure's RangeManager asks every renderer for its bounds (from
  // that index) for its data ranges, even when the figure has none (all our heat maps have
  // fixed or factor ranges): the bounds are then read by nothing. So a change of n built 11 to 14
  // indices for nothing (0.5-0.7 ms per step). Now a glyph's index is built when it is first asked
  // for (the `index` getter), from the data the glyph then holds, which is the data BokehJS would
  // have indexed (set_data always ends by indexing what it has just set), and a frame with no
  // DataRange1d among its ranges skips the bounds (the rest of that step acts on DataRange1ds
  // only). Patched once per page, on the classes every glyph's view and every figure's range
  // manager share.
  function index_on_demand(proto, ranges, DataRange1d) {  // GlyphView's and RangeManager's classes
    if (!proto || !ranges || typeof DataRange1d !== "function") return false;
    if (proto.__ae_index_later) return true;
    var own = Object.getOwnPropertyDescriptor(proto, "index");
    var build = proto.index_data, update = ranges._update_dataranges;
    if (!own || typeof own.get !== "function" || typeof build !== "function" || typeof update !== "function") return false;
    proto.index_data = function () { this.__ae_unindexed = true; };
    Object.defineProperty(proto, "index", {
      configurable: true,
      get: function () {
        if (this.__ae_unindexed) { this.__ae_unindexed = false; build.call(this); }
        return own.get.call(this);
      },
    });
    function has_data_range(frame) {
      var all = [frame.x_ranges, frame.y_ranges];
      for (var k = 0; k < all.length; k++) {
        if (all[k] == null || typeof all[k].values !== "function") return true;  // another shape: BokehJS's way
        for (var r of all[k].values()) if (r instanceof DataRange1d) return true;
      }
      return false;
    }
    ranges._update_dataranges = function (frame) {
      if (frame != null && !has_data_range(frame)) return;
      return update.apply(this, arguments);
    };
    proto.__ae_own_index = { index_data: build, index: own.get, _update_dataranges: update };  // BokehJS's own, for the tests
    proto.__ae_index_later = true;
    return true;
  }
  function index_classes() {
    var DR = null;
    try { DR = Bokeh.require("models/ranges/data_range1d").DataRange1d; } catch (e) { DR = null; }
    return [bokeh_class("models/glyphs/glyph", "GlyphView"), bokeh_class("models/plots/range_manager", "RangeManager"), DR];
  }
  function index_when_asked(doc) {
    return doc != null && index_on_demand.apply(null, index_classes());
  }

  W.define("index_when_asked", {
    bokeh: ["3.10", "3.11"],
    early: function () { return index_on_demand.apply(null, index_classes()); },
    install: index_when_asked,
  });
})(AEWorkarounds);
