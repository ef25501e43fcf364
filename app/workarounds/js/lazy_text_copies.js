// lazy_text_copies.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A renderer keeps up to five copies of its glyph (selection, nonselection, hover, muted
  // and decimated looks) and recomputes each with the glyph; a Text glyph's copy measures every one of
  // its labels again (after_visuals), although the plates never select, mute or decimate, so no
  // copy is drawn. A copy now measures its labels when it is first drawn after a change, if ever;
  // the renderer's own glyph measures at once, as before. Patched once per page, on the Text
  // glyph view's class.
  function lazy_text_copies(doc) {
    if (!doc) return false;
    var r = first_view(function (v) { return v.glyph != null && v.glyph.model != null && v.glyph.model.type === "Text"; });
    return r != null && text_copies_wait(owner_of(r.glyph, "after_visuals"));
  }
  function text_copies_wait(proto) {  // proto: the Text glyph view's class
    if (!proto || !Object.prototype.hasOwnProperty.call(proto, "after_visuals") ||
        !Object.prototype.hasOwnProperty.call(proto, "_paint")) return false;
    if (proto.__ae_lazy) return true;
    var after_visuals = proto.after_visuals, paint = proto._paint;
    proto.after_visuals = function () {
      var r = this.parent;
      if (r != null && r.glyph != null && r.glyph !== this) { this.__ae_stale = true; return; }
      this.__ae_stale = false;
      return after_visuals.apply(this, arguments);
    };
    proto._paint = function () {
      if (this.__ae_stale) { this.__ae_stale = false; after_visuals.call(this); }
      return paint.apply(this, arguments);
    };
    proto.__ae_lazy = true;
    return true;
  }

  W.define("lazy_text_copies", {
    bokeh: ["3.10", "3.11"],
    early: function () { return text_copies_wait(bokeh_class("models/glyphs/text", "TextView")); },
    install: lazy_text_copies,
  });
})(AEWorkarounds);
