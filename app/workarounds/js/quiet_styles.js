// quiet_styles.js: a renderer's style sheet rewritten only when its text changes.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=quiet_styles).
//
// Replaces: InlineStyleSheet._update (core/dom), reached through RendererView.update_position.
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, n slider key -> update 25.2 -> 18.1 ms (-28 %; p95 53.0 -> 38.5 ms). Off
//   and on in turn, benchmarks/workarounds.py.
// Upstream report: "RendererView.update_position sets each renderer's <style> text at every paint
//   even when unchanged; the browser re-parses every sheet and recalculates styles. Skipping an
//   equal write removes that."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // BokehJS's InlineStyleSheet sets its <style> element's text on every paint even when it is the
  // same (RendererView.update_position): the browser re-parses the sheet and recomputes styles.
  // Setting a text equal to the one there is a no-op in meaning, so it is skipped. Patched once per
  // page, on the class shared by every view (reached through any renderer view's sheet).
  function quiet_styles(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      var sheet = v.position;
      return v.renderer_views == null && sheet != null && sheet.el != null && typeof sheet._update === "function";
    });
    if (r == null) return false;
    var proto = owner_of(r.position, "_update");
    if (!proto || typeof proto._update !== "function") return false;
    if (proto.__ae_quiet) return true;
    var update = proto._update;
    proto._update = function (css) {
      if (this.el != null && this.el.textContent === css) return;
      update.call(this, css);
    };
    proto.__ae_quiet = true;
    return true;
  }

  W.define("quiet_styles", {
    bokeh: ["3.10", "3.11"],
    install: quiet_styles,
  });
})(AEWorkarounds);
