// unset_css_values.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // Each visual of BokehJS 3.10 (a glyph's line and fill, an axis's labels, a grid's lines) asks
  // the browser at each paint whether CSS sets it (`--bk-line-color` and the like:
  // VisualProperties._get_css_value, getComputedStyle on the renderer's element), and keeps the
  // answer only until the end of that task. Any write to the page before the question (a figure
  // resized, a text changed) makes the browser recompute styles to answer it: on the multi-head
  // page a change of n spent about a third of its time there. No CSS of these pages sets a `--bk-`
  // property (Bokeh's and Panel's own sheets do not; tests/codebase holds ours to it), so the
  // answer is always "" and is given without asking. A document whose models carry such a
  // property in their styles or inline sheets, or a page sheet that does, is left as it is.
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
    var holder = null;
    first_view(function (v) {
      if (v.visuals == null || typeof v.visuals[Symbol.iterator] !== "function") return false;
      for (var vis of v.visuals) if (vis && typeof vis._get_css_value === "function") { holder = vis; return true; }
      return false;
    });
    var proto = owner_of(holder, "_get_css_value");
    if (sets_bk_css(doc)) {
      // Answered "" since before the document was built (AELive.early): BokehJS asks again, and
      // the figures are drawn again with its answers.
      if (proto && proto.__ae_unset) {
        proto._get_css_value = proto.__ae_asked;
        proto.__ae_unset = false;
        Array.from(Bokeh.index.query(function (v) { return typeof v.request_paint === "function" && v.canvas_view != null; }))
          .forEach(function (v) { v.request_paint(); });
      }
      return false;
    }
    return css_unset(proto);
  }
  function css_unset(proto) {  // proto: the class of every visual (VisualProperties)
    if (!proto || typeof proto._get_css_value !== "function") return false;
    if (proto.__ae_unset) return true;
    proto.__ae_asked = proto._get_css_value;  // BokehJS's own, kept for the tests' comparison
    proto._get_css_value = function () { return ""; };
    proto.__ae_unset = true;
    return true;
  }
  var DECLARES_BK = /--bk-[\w-]+['"]?\s*:/;  // a declaration or a styles key, as tests/codebase looks for
  // Given before the document is built (W.install_early) only if no document on the page declares
  // such a property (an exported page's JSON; a served document arrives later) and no page sheet
  // mentions one; install() checks the built document again.
  function early_unset() {
    if (typeof document === "undefined") return false;
    var declared = Array.from(document.querySelectorAll('script[type="application/json"]')).some(function (e) {
      return DECLARES_BK.test(e.textContent);
    }) || Array.from(document.querySelectorAll("style")).some(function (e) { return BK_CSS.test(e.textContent); });
    return !declared && css_unset(bokeh_class("core/visuals/visual", "VisualProperties"));
  }
  W.define("unset_css_values", {
    bokeh: ["3.10", "3.11"],
    early: early_unset,
    install: unset_css_values,
  });
})(AEWorkarounds);
