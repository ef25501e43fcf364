// hidden_figures_wait.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A figure that is not shown (the masking plate's contrast pair, the worked plate's 2-D
  // pictures at other widths) still followed every change in BokehJS 3.10: its renderers
  // recomputed their glyphs (measuring every label of a Text glyph), and since its axes had never
  // been laid out (a box of 0 x 0) each paint found them resized and laid the figure out again:
  // ~2 ms per step of n on masking. Now, while a figure's own `visible` is false, its renderers'
  // updates and its layout wait; when it is shown, its painting is held until the renderers that
  // missed a change have caught up, so its first frame draws the current data. Figures are
  // registered one by one (those of the document when this runs); the updates wait on the class
  // every glyph renderer's view shares, only for a registered figure's renderers.
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
