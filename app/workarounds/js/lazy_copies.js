// lazy_copies.js: a renderer's unseen copies of its glyph (selection, nonselection, hover, muted, decimated) left alone until one is drawn.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=lazy_copies).
//
// Replaces: GlyphRendererView._paint and set_visuals, GlyphView.set_data and map_data
//   (models/renderers/glyph_renderer, models/glyphs/glyph).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, n slider key -> update 22.4 -> 17.7 ms (-21 %). Off and on in turn,
//   benchmarks/workarounds.py.
// Upstream report: "GlyphRendererView keeps five copies of its glyph up to date (data, visuals,
//   mapping; a Text copy measures every label) although they are drawn only when something is
//   selected, hovered, muted or decimated; updating them when first needed would save a fifth of a
//   heat map's update."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A renderer keeps its glyph's copies (selection, nonselection, muted, decimated; hover when
  // set) up to date with the glyph: at each change of data each copy compares every property with
  // the glyph's and redefines it (set_data, set_visuals; a Text copy then measures every label in
  // after_visuals), and at each paint of the figure each maps its coordinates again (map_data),
  // whether or not its renderer changed. A copy is drawn only when something is selected, hovered
  // with a hover glyph, muted or decimated, which no plate does; so until a renderer first needs
  // its copies, their updates are skipped: the renderer's set_visuals does the glyph's part only,
  // and a copy's set_data and map_data wait. At that paint they are brought up to date (data,
  // visuals, after_visuals; the paint itself maps them) and from then on follow the glyph as in
  // BokehJS. Patched once per page, on the classes every glyph renderer's view and every glyph
  // view share.
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
      return v.glyph != null && v.selection_glyph != null && typeof v.set_visuals === "function" &&
        typeof v._paint === "function" && typeof v.glyph.set_data === "function";
    });
    return r != null && copies_wait(owner_of(r, "_paint"), owner_of(r.glyph, "set_base"));
  }
  // rp: the glyph renderer view's class; gp: the glyph view's.
  function copies_wait(rp, gp) {
    if (!rp || !gp || !["_paint", "set_visuals"].every(function (k) { return Object.prototype.hasOwnProperty.call(rp, k); }) ||
        !["set_data", "map_data"].every(function (k) { return Object.prototype.hasOwnProperty.call(gp, k); }))
      return false;
    if (rp.__ae_lazy_copies) return true;
    var set_data = gp.set_data, map_data = gp.map_data, paint = rp._paint, set_visuals = rp.set_visuals;
    gp.set_data = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return Promise.resolve(); }
      return set_data.apply(this, arguments);
    };
    gp.map_data = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return; }
      return map_data.apply(this, arguments);
    };
    rp.set_visuals = async function () {
      if (this.__ae_copies_live === true) return set_visuals.apply(this, arguments);
      this.glyph.set_visuals(this.model.data_source, this.all_indices);
      this.glyph.after_visuals();
      await this.glyph.after_lazy_visuals();
      copies_of(this).forEach(function (g) { g.__ae_waiting = true; });
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
    return true;
  }

  W.define("lazy_copies", {
    bokeh: ["3.10", "3.11"],
    install: lazy_copies,
  });
})(AEWorkarounds);
