// hidden_figures_wait.js: a hidden figure's glyphs and layout brought up to date when it is shown, not at every change.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=hidden_figures_wait).
//
// Replaces: GlyphRendererView.update_data (models/renderers/glyph_renderer), and
//   PlotView._invalidate_layout_if_needed per figure view (models/plots/plot_canvas).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, n slider key -> update 70.1 -> 47.8 ms (-32 %; p95 379 -> 212 ms). Off and
//   on in turn, benchmarks/workarounds.py, at load average 16.5 on 2 cores (times some three times
//   a quiet machine's); profile_live.py counts a step's canvas paints 9 -> 7 and layouts 3.5 -> 1.3.
// Upstream report: "A Plot with visible=False still recomputes its renderers' glyphs at every data
//   change (a Text glyph measures every label) and, its axes never laid out (0 x 0), finds them
//   resized and lays itself out at each paint. Deferring a hidden plot's glyph updates and layout
//   until it is shown would make a hidden figure cost nothing."
(function (W) {
  "use strict";
  var first_view = W.first_view, owner_of = W.owner_of, figure_views = W.figure_views;
  // A figure that is not shown (the masking plate's contrast pair, the worked plate's 2-D
  // pictures at other widths) still follows every change in BokehJS 3.10: its renderers recompute
  // their glyphs (measuring every label of a Text glyph), and since its axes have never been laid
  // out (a box of 0 x 0) each paint finds them resized and lays the figure out again: two paints
  // and two layouts more per step of n on masking. Now, while a figure's own `visible` is false,
  // its renderers' updates and its layout wait; when it is shown, its painting is held until the
  // renderers that missed a change have caught up, so its first frame draws the current data. The
  // sources always hold the data (the tests and Python read it there); only the drawing waits.
  // Figures are registered one by one (those of the document when this runs); the updates wait on
  // the class every glyph renderer's view shares, only for a registered figure's renderers.
  function hidden_figures_wait(doc) {
    var r = first_view(function (v) { return v.glyph != null && typeof v.update_data === "function"; });
    var proto = r == null ? null : owner_of(r, "update_data");
    if (!proto) return 0;
    if (!proto.__ae_hidden_wait) {
      var update_data = proto.update_data;
      proto.update_data = function () {
        var pv = this.plot_view;
        if (pv != null && pv.__ae_hidden_wait === true && pv.model.visible === false) {
          this.__ae_hidden_stale = true;
          return Promise.resolve();
        }
        return update_data.apply(this, arguments);
      };
      proto.__ae_hidden_wait = true;
    }
    var patched = 0;
    figure_views(doc).forEach(function (mv) {
      var m = mv[0], v = mv[1];
      if (v.__ae_hidden_wait || typeof v._invalidate_layout_if_needed !== "function" || typeof v.pause !== "function" ||
          typeof v.unpause !== "function" || !v.renderer_views || m.properties == null || m.properties.visible == null)
        return;
      v.__ae_hidden_wait = true;
      var layout = v._invalidate_layout_if_needed;
      v._invalidate_layout_if_needed = function () {
        if (this.model.visible === false) return;  // its axes are measured once it is shown
        return layout.apply(this, arguments);
      };
      v.connect(m.properties.visible.change, function () {
        if (m.visible === false) return;
        var stale = Array.from(v.renderer_views.values()).filter(function (rv) { return rv.__ae_hidden_stale === true; });
        if (!stale.length) return;
        v.pause();
        Promise.all(stale.map(function (rv) { rv.__ae_hidden_stale = false; return rv.update_data(); }))
          .catch(function () {}).then(function () { v.unpause(); });
      });
      patched += 1;
    });
    return patched;
  }

  W.define("hidden_figures_wait", {
    bokeh: ["3.10", "3.11"],
    install: hidden_figures_wait,
  });
})(AEWorkarounds);
