// div_text.js: a Div's words changed by the live path without BokehJS's relayout of the page.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=div_text).
//
// Replaces: MarkupView.rerender, per Div view (models/widgets/markup).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, n slider key -> update 23.8 -> 17.7 ms (-26 %); lookup drag 13.4 -> 9.8
//   ms. Off and on in turn, benchmarks/workarounds.py.
// Upstream report: "A Div whose text changes re-renders and asks its root for compute_layout of
//   the whole document; a text-only change could update the element and lay out later, once."
(function (W) {
  "use strict";
  // BokehJS answers any change of a Div's text by re-rendering the Div and then re-running the
  // layout of the whole document (MarkupView -> LayoutDOMView.rerender -> compute_layout of the
  // root: every plot measures its axes and labels again). During a gesture only the words change,
  // so the runtime's quiet_text sets the model (the model always holds the text, for Python and the
  // tests) and this writes the new HTML into the Div's own element without that relayout. Once the
  // page has been still for SETTLE_MS, each Div touched this way is re-rendered once the ordinary
  // way, so a text that changed height still gets its layout.
  var SETTLE_MS = 1000;  // a pause this long ends a gesture (a drag, a run of key presses)
  var light = false;      // true while text() sets a model: its Div view skips the relayout
  var touched = [];       // views written without a relayout since the page was last still
  var timer = null;

  // Teach one Div view to take a text change without the relayout while `light` is on.
  function patch(view) {
    if (view.__ae_light) return;
    var full = view.rerender;
    view.__ae_light = true;
    view.__ae_full_rerender = full;
    view.rerender = function () {
      var math = !this.model.disable_math && typeof this.contains_tex_string === "function" &&
        this.contains_tex_string(this.model.text);
      if (!light || math || this.markup_el == null) return full.apply(this, arguments);
      this.markup_el.innerHTML = this.model.text;
      if (touched.indexOf(this) < 0) touched.push(this);
    };
  }

  function settle() {
    timer = null;
    var views = touched;
    touched = [];
    views.forEach(function (v) { v.__ae_full_rerender.call(v); });
  }

  // Set a Div's text in this browser only (sync: false), without Bokeh's relayout.
  function text(model, html) {
    var v = W.view_of(model);
    if (v == null || typeof v.rerender !== "function") { model.setv({ text: html }, { sync: false }); return; }
    patch(v);
    light = true;
    try { model.setv({ text: html }, { sync: false }); } finally { light = false; }
    if (touched.length) { clearTimeout(timer); timer = setTimeout(settle, SETTLE_MS); }
  }

  W.define("div_text", { bokeh: ["3.10", "3.11"], wrap: text });
})(AEWorkarounds);
