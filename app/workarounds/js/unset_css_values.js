// unset_css_values.js: the visuals' `--bk-` CSS questions answered "" when no CSS of the page sets one.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=unset_css_values).
//
// Replaces: VisualProperties._get_css_value (core/visuals/visual).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: lookup exported, drag move -> update 15.2 -> 12.2 ms (-20 %; p95 28.2 -> 21.3 ms). Off and on
//   in turn, benchmarks/workarounds.py (3 rounds, 180 moves), at load average 4.4-6.6 on 2 cores;
//   a move's getComputedStyle calls 3.3 -> 1.4 (111 with neither it nor axes_on_change).
// Upstream report: "Each visual asks getComputedStyle for its `--bk-` custom properties at every
//   paint, and any DOM write before that makes the browser recompute styles to answer; a page or
//   document-level switch saying no such property is set (or caching the answer until a style
//   sheet changes) would spare every paint those questions."
(function (W) {
  "use strict";
  var first_view = W.first_view, owner_of = W.owner_of;
  // Each visual of BokehJS 3.10 (a glyph's line and fill, an axis's labels, a grid's lines) asks
  // the browser at each paint whether CSS sets it (`--bk-line-color` and the like:
  // VisualProperties._get_css_value, getComputedStyle on the renderer's element), and keeps the
  // answer only until the end of that task. Any write to the page before the question (a figure
  // resized, a text changed) makes the browser recompute styles to answer it. No CSS of these
  // pages sets a `--bk-` property (Bokeh's and Panel's own sheets do not), so the answer is
  // always "" and is given without asking. A document whose models carry such a property in
  // their styles or inline sheets, or a page whose <style> sheets name one, is left as it is.
  var BK_CSS = /--bk-/;
  function sets_bk_css(doc) {
    var found = false;
    var look = function (x) {
      if (found || x == null) return;
      if (typeof x === "string") { if (BK_CSS.test(x)) found = true; return; }
      if (Array.isArray(x)) { x.forEach(look); return; }
      if (typeof x.css === "string") { look(x.css); return; }
      if (x instanceof Map) { x.forEach(function (v, k) { look(k); look(v); }); return; }
      if (typeof x === "object" && x.properties == null) Object.keys(x).forEach(function (k) { look(k); look(x[k]); });
    };
    Array.from(doc.all_models || []).forEach(function (m) {
      if (found) return;
      look(m.stylesheets);
      look(m.styles);  // a dict of CSS; a Styles model (skipped by look) has no custom properties
    });
    if (!found && typeof document !== "undefined") Array.from(document.querySelectorAll("style")).forEach(function (s) {
      look(s.textContent);
    });
    return found;
  }
  function unset_css_values(doc) {
    if (!doc) return false;
    if (sets_bk_css(doc)) return "the page's CSS sets a --bk- property";
    var holder = null;
    first_view(function (v) {
      if (v.visuals == null || typeof v.visuals[Symbol.iterator] !== "function") return false;
      for (var vis of v.visuals) if (vis && typeof vis._get_css_value === "function") { holder = vis; return true; }
      return false;
    });
    var proto = owner_of(holder, "_get_css_value");
    if (!proto || typeof proto._get_css_value !== "function") return false;
    if (proto.__ae_unset) return true;
    proto.__ae_asked = proto._get_css_value;  // BokehJS's own, kept for the tests' comparison
    proto._get_css_value = function () { return ""; };
    proto.__ae_unset = true;
    return true;
  }

  W.define("unset_css_values", {
    bokeh: ["3.10", "3.11"],
    install: unset_css_values,
  });
})(AEWorkarounds);
