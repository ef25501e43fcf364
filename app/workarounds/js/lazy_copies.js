// lazy_copies.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A renderer keeps its glyph's copies (selection, nonselection, muted, decimated; hover when
  // set) up to date with the glyph: at each change of data each copy compares every property
  // with the glyph's and redefines it (set_data, set_visuals), and at each paint of the figure
  // each maps its coordinates again (map_data), whether or not its renderer changed. A copy is
  // drawn only when something is selected, hovered with a hover glyph, muted or decimated, which
  // no plate does; so until a renderer first needs its copies, their updates are skipped. At
  // that paint they are brought up to date (data, then visuals; the paint itself maps them) and
  // from then on follow the glyph as in BokehJS. Patched once per page, on the classes every
  // glyph renderer's view and every glyph view share.
  function copies_of(r) {
    return [r.selection_glyph, r.nonselection_glyph, r.hover_glyph, r.muted_glyph, r.decimated_glyph]
      .filter(function (g) { return g != null && g !== r.glyph; });
  }
  function waiting_copy(g) {  // a copy whose renderer has not yet needed its copies
    var r = g.parent;
    return r != null && r.glyph != null && r.glyph !== g && r.__ae_copies_live !== true;
  }
  function needs_copies(r) {  // the tests GlyphRendererView._paint makes before it draws a copy
    var m = r.model, src = m.data_source, pm = r.plot_model, doc = m.document;
    if (m.muted) return true;
    if (src.selected != null && !src.selected.is_empty()) return true;
    if (r.hover_glyph != null && src.inspected != null && !src.inspected.is_empty()) return true;
    var n = r.all_indices != null ? r.all_indices.count : 0;
    return doc != null && doc.interactive_duration() > 0 && pm != null && pm.lod_threshold != null &&
      n > pm.lod_threshold;
  }
  function lazy_copies(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.glyph != null && v.selection_glyph != null && typeof v.map_data === "function" &&
        typeof v._paint === "function" && typeof v.glyph.set_visuals === "function";
    });
    return r != null && copies_wait(owner_of(r, "_paint"), owner_of(r.glyph, "set_base"));
  }
  // rp: the glyph renderer view's class; gp: the glyph view's.
  function copies_wait(rp, gp) {
    if (!rp || !gp || !Object.prototype.hasOwnProperty.call(rp, "_paint") ||
        !["set_data", "set_visuals", "map_data"].every(function (k) { return Object.prototype.hasOwnProperty.call(gp, k); }))
      return false;
    if (rp.__ae_lazy_copies) return true;
    var set_data = gp.set_data, set_visuals = gp.set_visuals, map_data = gp.map_data, paint = rp._paint;
    gp.set_data = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return Promise.resolve(); }
      return set_data.apply(this, arguments);
    };
    gp.set_visuals = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return; }
      return set_visuals.apply(this, arguments);
    };
    gp.map_data = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return; }
      return map_data.apply(this, arguments);
    };
    rp._paint = function () {
      if (this.__ae_copies_live !== true && needs_copies(this)) {
        this.__ae_copies_live = true;
        var source = this.model.data_source, all = this.all_indices;
        copies_of(this).forEach(function (g) {
          if (g.__ae_waiting !== true) return;
          g.__ae_waiting = false;
          g.set_data(source, all);  // its attributes are set at once; what it awaits is not drawn here
          g.set_visuals(source, all);
          g.after_visuals();
        });
      }
      return paint.apply(this, arguments);
    };
    rp.__ae_lazy_copies = true;
    rp.__ae_own = {_paint: paint};  // BokehJS's own methods, for the tests to compare with
    gp.__ae_own = {set_data: set_data, set_visuals: set_visuals, map_data: map_data};
    return true;
  }

  W.define("lazy_copies", {
    bokeh: ["3.10", "3.11"],
    early: function () { return copies_wait(bokeh_class("models/renderers/glyph_renderer", "GlyphRendererView"), bokeh_class("models/glyphs/glyph", "GlyphView")); },
    install: lazy_copies,
  });
})(AEWorkarounds);
