// bokeh_view.js (AEBokehView): every read of a BokehJS view's state that BokehJS's public API does
// not offer, in one place. The runtime (page.js, a11y.js) and the plates' glue ask here; no other
// file of the product reads these (tests/codebase/test_bokeh_private_reads.py checks it).
//
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11), its views'
//   fields and classes named with each function below.
// Outside that range nothing here reads a view's internals: each function gives its fallback
//   (null), the page says so once in the console, and the page works without what it gave:
//   - events_el: a finger on a draggable plot scrolls the page instead of dragging its point
//     (a mouse, the keyboard and the sliders still work);
//   - canvas_el: a plot's canvas has no role="img" nor text alternative (the table view still has
//     the numbers);
//   - scales, frame_box: no keyboard handles over a plot's points (its sliders still move them),
//     and present mode does not widen a figure for its text (large labels may be cut at its edge);
//   - the marks and text boxes: present mode does not make room for a figure's labels.
// The public API is used where there is one: a view's element (`view.el`, and the shadow root
// that BokehJS opens on it, `view.el.shadowRoot`) and its model's properties. Plot's public
// inner_width and inner_height give the frame's size rounded and not its place, so the frame's
// box is read here.
// Not a workaround (app/workarounds/): nothing here changes BokehJS; it only reads.
var AEBokehView = (typeof globalThis !== "undefined" && globalThis.AEBokehView) || (function () {
  "use strict";
  var RANGE = ["3.10", "3.11"];
  var in_range = null;  // known once BokehJS is loaded

  function version_tuple(v) { return String(v).split(/[.-]/).slice(0, 3).map(function (x) { return parseInt(x, 10) || 0; }); }
  function before(a, b) {
    for (var i = 0; i < 3; i++) { if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0); }
    return false;
  }
  // Whether BokehJS is loaded and in the range these reads were made against (said once if not).
  function readable() {
    if (in_range !== null) return in_range;
    if (typeof Bokeh === "undefined" || !Bokeh.version || !Bokeh.index) return false;
    var v = version_tuple(Bokeh.version);
    in_range = !before(v, version_tuple(RANGE[0])) && before(v, version_tuple(RANGE[1]));
    if (!in_range && typeof console !== "undefined") {
      console.info("attention-explorable: app/runtime/bokeh_view.js was read against BokehJS " + RANGE[0] + " to " +
                   RANGE[1] + ", this is " + Bokeh.version + ": touch drags, keyboard handles, the canvases' " +
                   "text alternatives and present mode's room for text are off");
    }
    return in_range;
  }

  // A model's view (public: Bokeh.index), or null.
  function view(model) {
    return model != null && typeof Bokeh !== "undefined" && Bokeh.index ? Bokeh.index.find_one(model) : null;
  }
  // A model's view that the reads below may look into, or null.
  function inner(model) { return readable() ? view(model) : null; }

  // Where a view's own elements live (public: the open shadow root BokehJS gives its element), or
  // the element itself for a view without one; null without a view.
  function root(model) {
    var v = view(model);
    return v && v.el ? v.el.shadowRoot || v.el : null;
  }

  // The element of a plot's canvas that takes the pointer (CanvasView.events_el): where its
  // touch-action is set and its pointer coordinates start.
  function events_el(plot) {
    var v = inner(plot);
    return (v && v.canvas_view && v.canvas_view.events_el) || null;
  }
  // The host element of a plot's canvas (CanvasView.el), which names the picture for screen readers.
  function canvas_el(plot) {
    var v = inner(plot);
    return (v && v.canvas_view && v.canvas_view.el) || null;
  }

  // Data coordinates to the plot's canvas pixels, {x(d), y(d)}, through the frame's scales
  // (PlotView.frame.x_scale and y_scale, which BokehJS makes from the plot's ranges and its
  // frame's place once laid out); null before the frame exists.
  function scales(plot) {
    var v = inner(plot), fr = v && v.frame;
    if (!fr || !fr.x_scale || !fr.y_scale) return null;
    var sx = fr.x_scale, sy = fr.y_scale;
    return { x: function (d) { return sx.compute(d); }, y: function (d) { return sy.compute(d); } };
  }

  function plain_box(b) {
    return b ? { left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width, height: b.height } : null;
  }
  // The plot's frame (the data area) in canvas pixels (PlotView.frame.bbox), or null.
  function frame_box(plot) {
    var v = inner(plot);
    return v && v.frame && v.frame.bbox ? plain_box(v.frame.bbox) : null;
  }
  // A laid-out model's box in its canvas's pixels (a plot's whole box, a legend's): the view's
  // bbox, or null.
  function box(model) {
    var v = inner(model);
    return v && v.bbox ? plain_box(v.bbox) : null;
  }

  // A Scatter renderer's markers as drawn: [{x, y, size}] in canvas pixels (its glyph view's
  // mapped sx, sy and size), or null.
  function scatter_marks(renderer) {
    var rv = inner(renderer), gv = rv && rv.glyph;
    if (!gv || !gv.sx || !gv.sy || !gv.size || typeof gv.size.get !== "function") return null;
    var out = [];
    for (var i = 0; i < gv.sx.length; i++) out.push({ x: gv.sx[i], y: gv.sy[i], size: gv.size.get(i) });
    return out;
  }

  // Each drawn label of a LabelSet in data units: [{box, x, y}], its text's box as LabelSetView
  // paints it (a core/graphics TextBox at the view's mapped sx, sy with the label's offsets,
  // angle and text visuals) and its anchor (x, y) in canvas pixels; null when BokehJS has none.
  var text_box_class = null;
  function label_set_boxes(label_set) {
    var av = inner(label_set);
    if (!av || !av.sx || !av.sy || !av.text || !av.visuals) return null;
    if (text_box_class === null) {
      try { text_box_class = Bokeh.require("core/graphics").TextBox || false; } catch (e) { text_box_class = false; }
    }
    if (!text_box_class) return null;
    var out = [];
    for (var i = 0; i < av.sx.length; i++) {
      var words = av.text.get(i);
      if (words == null || words === "" || !isFinite(av.sx[i] + av.sy[i])) continue;
      var g = new text_box_class({ text: String(words) });
      g.angle = av.angle.get(i);
      g.position = { sx: av.sx[i] + av.x_offset.get(i), sy: av.sy[i] - av.y_offset.get(i) };
      g.visuals = av.visuals.text.values(i);
      out.push({ box: plain_box(g.bbox()), x: av.sx[i], y: av.sy[i] });
    }
    return out;
  }

  // A shown Label's or Title's text box in canvas pixels and its anchor point: {left, top, width,
  // height, x, y} (TextAnnotationView._rect, set when it was last laid out), or null when it is
  // not displayed.
  function text_rect(annotation) {
    var av = inner(annotation), q = av && av._rect;
    if (!q || !av.displayed) return null;
    return { left: q.sx - q.anchor.x * q.width, top: q.sy - q.anchor.y * q.height, width: q.width, height: q.height,
             x: q.sx, y: q.sy };
  }

  var api = {
    view: view, root: root, events_el: events_el, canvas_el: canvas_el, scales: scales, frame_box: frame_box,
    box: box, scatter_marks: scatter_marks, label_set_boxes: label_set_boxes, text_rect: text_rect,
    range: function () { return RANGE.slice(); },
  };
  if (typeof globalThis !== "undefined") globalThis.AEBokehView = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AEBokehView;
