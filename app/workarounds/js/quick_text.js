// quick_text.js: a Text glyph's one-line labels drawn with one fillText each, the canvas state set once per glyph.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=quick_text).
//
// Replaces: TextView._paint (models/glyphs/text).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, n slider key -> update 22.6 -> 18.6 ms (-17 %). Off and on in turn,
//   benchmarks/workarounds.py.
// Upstream report: "TextView._paint saves and restores the canvas, re-measures and strokes a
//   transparent outline for every label; for plain one-line labels a direct fillText in the same
//   transform draws the same pixels for a third of a heat map's paint."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // BokehJS 3.10 draws a Text glyph's labels one by one through a TextBox (TextView._paint ->
  // TextBox.paint), and for each one saves and restores the canvas state, measures the label's
  // width again (measureText), scans its characters to choose a height metric, and strokes an
  // outline that is transparent: about a third of the paint of a heat map with its numbers on
  // it. A label of one line, unrotated and unsized, is drawn by one fillText at (0, ascent) in
  // the transform the glyph has set up for it; that same call, with the same font, colour and
  // transform, is now made directly, the canvas state set once per glyph and a font or colour only
  // when it changes. A glyph with a background, hatch or border is drawn as BokehJS draws it; so
  // is any other label (several lines, an angle, a size) and a visible outline. Patched once per
  // page, on the Text glyph view's class.
  var CLEAR_INK = / \/ 0\)$/;  // color2css of a transparent colour, "rgb(0 0 0 / 0)"
  function plain_label(label) {
    var p = label.position;
    return p != null && p.sx === 0 && p.sy === 0 && p.x_anchor === "left" && p.y_anchor === "top" &&
      (label.angle == null || label.angle === 0) && label.width == null && label.height == null &&
      (label.align == null || label.align === "auto") && typeof label.text === "string" &&
      label.text !== "" && label.text.indexOf("\n") < 0;
  }
  function quick_text(doc) {
    if (!doc) return false;
    var r = first_view(function (v) { return v.glyph != null && v.glyph.model != null && v.glyph.model.type === "Text"; });
    return r != null && text_paint_quickly(owner_of(r.glyph, "_paint"));
  }
  function text_paint_quickly(proto) {  // proto: the Text glyph view's class
    if (!proto || !Object.prototype.hasOwnProperty.call(proto, "_paint")) return false;
    if (proto.__ae_quick_text) return true;
    var metrics = null;
    try { metrics = Bokeh.require("core/util/text").font_metrics; } catch (e) { metrics = null; }
    if (typeof metrics !== "function") return false;
    var own = proto._paint;
    proto.__ae_own_text_paint = own;  // BokehJS's drawing, kept for the tests' comparison
    function ascent(label) {  // TextBox._text_line's ascent for a label of one line
      var m = label.text_height_metric;
      if (m == null) {
        if (label.__ae_metric === undefined) label.__ae_metric = label.infer_text_height();  // a label's text is fixed
        m = label.__ae_metric;
      }
      var fm = metrics(label.font);
      return m === "x" || m === "x_descent" ? fm.x_height : m === "cap" || m === "cap_descent" ? fm.cap_height : fm.ascent;
    }
    proto._paint = function (ctx, indices, data) {
      var v = this.visuals, labels = this.labels, anchor = this.anchor_;
      if (v == null || v.text == null || labels == null || anchor == null || this.padding == null ||
          v.background_fill == null || v.background_hatch == null || v.border_line == null ||
          v.background_fill.doit || v.background_hatch.doit || v.border_line.doit ||
          ctx.globalCompositeOperation !== "source-over") return own.apply(this, arguments);
      // As BokehJS reads them ({...this, ...data}): `data`'s own, else the view's; the five read
      // here, not a copy of the whole view at every paint.
      var self = this, d = data != null ? data : {};
      var pick = function (k) { return Object.prototype.hasOwnProperty.call(d, k) ? d[k] : self[k]; };
      var sx = pick("sx"), sy = pick("sy"), x_offset = pick("x_offset"), y_offset = pick("y_offset"), angle = pick("angle");
      var text = v.text, swidth = this.swidth, sheight = this.sheight, pad = this.padding;
      var font = null, fill = null;
      ctx.save();
      ctx.textAlign = "left";
      ctx.textBaseline = "alphabetic";
      try {
        for (var i of indices) {
          var sx_i = sx[i] + x_offset.get(i), sy_i = sy[i] + y_offset.get(i), angle_i = angle.get(i), label = labels[i];
          if (!isFinite(sx_i + sy_i + angle_i) || label == null) continue;
          var a = anchor.get(i), dx_i = a.x * swidth[i], dy_i = a.y * sheight[i];
          // The transform is built and undone step by step, as BokehJS does, to the same bits.
          ctx.translate(sx_i, sy_i);
          ctx.rotate(angle_i);
          ctx.translate(-dx_i, -dy_i);
          if (text.v_doit(i)) {
            ctx.translate(pad.left, pad.top);
            label.visuals = text.values(i);
            if (plain_label(label)) {
              var y = ascent(label);
              if (label.font !== font) ctx.font = font = label.font;
              if (label.color !== fill) ctx.fillStyle = fill = label.color;
              ctx.fillText(label.text, 0, y);
              if (!CLEAR_INK.test(label.outline_color)) {
                ctx.strokeStyle = label.outline_color;
                ctx.lineWidth = label.outline_width;
                ctx.strokeText(label.text, 0, y);
              }
            } else {
              label.paint(ctx);  // saves and restores the state set here
            }
            ctx.translate(-pad.left, -pad.top);
          }
          ctx.translate(dx_i, dy_i);
          ctx.rotate(-angle_i);
          ctx.translate(-sx_i, -sy_i);
        }
      } finally {
        ctx.restore();
      }
    };
    proto.__ae_quick_text = true;
    return true;
  }

  W.define("quick_text", {
    bokeh: ["3.10", "3.11"],
    install: quick_text,
  });
})(AEWorkarounds);
