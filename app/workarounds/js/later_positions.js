// later_positions.js: a glyph renderer's empty element placed once the page is still, not at every paint.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=later_positions).
//
// Replaces: RendererView.update_position (models/renderers/renderer), for glyph renderers.
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: lookup exported, drag move -> update 33.1 -> 24.2 ms (-27 %; p95 175 -> 114 ms); self-attention
//   exported, n slider key 107 -> 65.3 ms (-39 %); masking 120 -> 74.0 ms (-38 %). Off and on in
//   turn, benchmarks/workarounds.py, at load average 16.5 on 2 cores (times some three times a quiet
//   machine's); profile_live.py counts a lookup move's style recalculations 4.7 -> 1.5.
// Upstream report: "RendererView.paint rewrites each renderer's position <style> from its glyph's
//   bounds before drawing; when the data moved, the next canvas text drawn in that paint (ctx.font)
//   waits for a style recalculation, one per renderer moved (three to seven per change here). A
//   GlyphRenderer's element shows nothing and takes no pointer events: placing it after the paint,
//   or only when something reads it, removes those recalculations."
(function (W) {
  "use strict";
  var first_view = W.first_view, owner_of = W.owner_of;
  // Each glyph renderer has an empty element over the plot, placed by a style sheet of its own
  // that BokehJS 3.10 rewrites at every paint (RendererView.update_position) from the glyph's
  // bounds. When the data moved the sheet changes (quiet_styles skips the equal writes), and the
  // next canvas text of the same paint (a label's ctx.font, an axis's tick labels) makes the
  // browser recalculate styles first: one recalculation per renderer moved, 0.3-0.8 ms each. The
  // element shows nothing and takes no pointer events, so its sheet is written once the page has
  // been still for STILL_MS (no paint since has moved a glyph), one write per renderer. Written a
  // task after each paint instead, it still cost a frame of its own after every drag move or key
  // press (style, layout, paint and commit), and that frame took the frame clock's next slot, so
  // the next move's paint waited a slot longer. Its box lags the glyphs until then, unseen.
  // Patched once per page, on the class every renderer's view shares; other renderers (axes,
  // annotations, whose elements hold what they show) are placed at paint as before.
  var STILL_MS = 150;
  function positions_later(proto) {  // proto: RendererView's class
    if (!proto || typeof proto.update_position !== "function") return false;
    if (proto.__ae_later) return true;
    var update = proto.update_position, waiting = new Set(), timer = null, last = 0;
    var clock = typeof performance !== "undefined" ? performance : Date;
    function flush() {
      var wait = last + STILL_MS - clock.now();
      if (wait > 0) { timer = setTimeout(flush, wait); return; }  // painted again since: not still yet
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
    proto.__ae_own_update_position = update;  // BokehJS's own, for the tests
    proto.__ae_later = true;
    return true;
  }
  function later_positions(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.model != null && v.model.type === "GlyphRenderer" && typeof v.update_position === "function";
    });
    return r != null && positions_later(owner_of(r, "update_position"));
  }

  W.define("later_positions", {
    bokeh: ["3.10", "3.11"],
    install: later_positions,
  });
})(AEWorkarounds);
