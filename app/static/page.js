// page.js: what every page does once its document is ready, served or exported.
// - ?embed=1 hides the page chrome, so the plate alone fills its frame (it scrolls in a smaller
//   one: scaling it with CSS would put Bokeh's pointer coordinates off by the scale);
// - ?hide=a,b hides the named controls (a lesson can fix some settings);
// - in an exported page (no Python), the plate's own glue applies its URL fields
//   (the served page already did that in Python) and its notices are shown.
var AEPage = (typeof globalThis !== "undefined" && globalThis.AEPage) || (function () {
  "use strict";
  var CHROME = ["ae-header", "ae-lead", "ae-explanation"];

  function params() {
    try { return new URLSearchParams(window.location.search); } catch (e) { return new URLSearchParams(""); }
  }

  function hide_models(doc, names) {
    names.forEach(function (name) {
      var models = doc.all_models ? Array.from(doc.all_models).filter(function (m) { return m.name === name; }) : [];
      models.forEach(function (m) { if ("visible" in m) m.setv({ visible: false }, { sync: false }); });
    });
  }

  function show_notices(doc, notices) {
    if (!notices.length) return;
    var div = doc.get_model_by_name("ae-notices");
    if (!div) return;
    var esc = function (t) { return String(t).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
    div.setv({ text: "<div class='ae-notice' role='status'>Link settings: " + notices.map(esc).join("; ") + ".</div>",
               visible: true }, { sync: false });
  }

  // A plot the page drags on must own its touches: without an active pan tool Bokeh leaves the
  // canvas at touch-action: auto, and the browser takes a finger's drag for a scroll.
  function claim_touch(doc) {
    Array.from(doc.all_models || []).forEach(function (m) {
      var cbs = m.js_event_callbacks;
      var has_pan = cbs && (typeof cbs.has === "function" ? cbs.has("pan") : cbs.pan !== undefined);
      if (!has_pan) return;
      var view = (typeof Bokeh !== "undefined" && Bokeh.index) ? Bokeh.index.find_one(m) : null;
      var el = view && view.canvas_view && view.canvas_view.events_el;
      if (el) el.style.touchAction = "none";
    });
  }

  // The address bar follows the plate: `names` are the plate's URL fields, `fields()` returns
  // those that differ from their defaults. replaceState (the history does not fill up), at most
  // every 250 ms; an iframe's srcdoc or a sandbox may refuse, and the plate works without it.
  var url_timer = null;
  function write_url(names, fields) {
    if (typeof window === "undefined" || !window.history) return;
    clearTimeout(url_timer);
    url_timer = setTimeout(function () {
      try {
        var params = new URLSearchParams(window.location.search);
        names.forEach(function (k) { params.delete(k); });
        var f = fields();
        Object.keys(f).forEach(function (k) { params.set(k, f[k]); });
        var qs = params.toString();
        window.history.replaceState(window.history.state, "", window.location.pathname + (qs ? "?" + qs : "") + window.location.hash);
      } catch (err) { /* refused: see above */ }
    }, 250);
  }

  function init(doc, opts, apply_url) {
    claim_touch(doc);
    var p = params();
    var html = document.documentElement;
    var hide = (p.get("hide") || "").split(",").map(function (s) { return s.trim(); }).filter(Boolean).slice(0, 50);
    if (p.get("embed") === "1") {
      html.classList.add("ae-embed");
      hide = hide.concat(CHROME).concat(["ae-notices"]);
    }
    hide_models(doc, hide);
    if (!opts.served && apply_url) {
      var notices = [];
      try { notices = apply_url(p) || []; } catch (err) { notices = ["could not read the link: " + err.message]; }
      if (p.get("embed") !== "1") show_notices(doc, notices);
    }
  }

  var api = { init: init, claim_touch: claim_touch, write_url: write_url, params: params, hide_models: hide_models };
  if (typeof globalThis !== "undefined") globalThis.AEPage = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AEPage;
