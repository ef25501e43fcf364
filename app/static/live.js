/* AELive: shared helpers for the live path (loaded once per page with mirror.js and page.js).
 *
 * Why: BokehJS answers any change of a Div's text by re-rendering the Div and then re-running
 * the layout of the whole document (MarkupView -> LayoutDOMView.rerender -> compute_layout of
 * the root: every plot measures its axes and labels again). On the lookup plate that was ~65 %
 * of the JavaScript per pointer move. During a gesture only the words change, so AELive.text
 * sets the model (the model always holds the text, for Python and the tests) and writes the new
 * HTML into the Div's own element without that relayout. Once the page has been still for
 * SETTLE_MS, each Div touched this way is re-rendered once the ordinary way, so a text that
 * changed height still gets its layout.
 */
var AELive = (typeof globalThis !== "undefined" && globalThis.AELive) || (function () {
  "use strict";
  var SETTLE_MS = 1000;  // a pause this long ends a gesture (a drag, a run of key presses)
  var light = false;      // true while AELive.text sets a model: its Div view skips the relayout
  var touched = [];       // views written without a relayout since the page was last still
  var timer = null;

  function view_of(model) {
    try { return (typeof Bokeh !== "undefined" && Bokeh.index) ? Bokeh.index.find_one(model) : null; }
    catch (e) { return null; }
  }

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
    if (model.text === html) return;
    var v = view_of(model);
    if (v == null || typeof v.rerender !== "function") { model.setv({ text: html }, { sync: false }); return; }
    patch(v);
    light = true;
    try { model.setv({ text: html }, { sync: false }); } finally { light = false; }
    if (touched.length) { clearTimeout(timer); timer = setTimeout(settle, SETTLE_MS); }
  }

  return { text: text, settle: settle };
})();
if (typeof globalThis !== "undefined") globalThis.AELive = AELive;
if (typeof module !== "undefined" && module.exports) module.exports = AELive;
