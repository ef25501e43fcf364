// AEWorkarounds: the browser side of app/workarounds, one switch for every change this project
// makes to BokehJS's own classes and views. Each file of app/workarounds/js/ defines one with
// W.define(name, {bokeh: [from, to), install, wrap}):
//   install(doc)  patches BokehJS's classes or views once the page's document is ready (optional);
//                 it returns true when on, false when BokehJS lacks what it replaces, or why it declined;
//   wrap          a function the runtime calls instead of its plain one (W.wrapper(name)).
// A workaround applies only when Bokeh.version is in [from, to) and nothing switched it off:
// `?workarounds=off` or `?workarounds=a,b` in the page's address, or the names the server or the
// export passed on (AE_WORKAROUNDS, app/workarounds/__init__.py). Out of range, it stays off and
// says so once in the console. The page is correct with every one of them off.
var AEWorkarounds = (typeof globalThis !== "undefined" && globalThis.AEWorkarounds) || (function () {
  "use strict";
  var defs = [], by_name = {}, off_given = [], said = {}, status = {};

  function define(name, spec) {
    if (by_name[name]) return;  // defined once per page
    spec.name = name;
    defs.push(spec);
    by_name[name] = spec;
  }

  function version_tuple(v) { return String(v).split(/[.-]/).slice(0, 3).map(function (x) { return parseInt(x, 10) || 0; }); }
  function before(a, b) {
    for (var i = 0; i < 3; i++) { if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0); }
    return false;
  }
  function in_range(spec) {
    if (typeof Bokeh === "undefined" || !Bokeh.version) return false;
    var v = version_tuple(Bokeh.version), range = spec.bokeh || ["3.10", "3.11"];
    return !before(v, version_tuple(range[0])) && before(v, version_tuple(range[1]));
  }

  function from_address() {
    try {
      var text = new URLSearchParams(window.location.search).get("workarounds");
      return text == null ? [] : text.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
    } catch (e) { return []; }
  }
  // Names the server or the export turned off (AE_WORKAROUNDS), given before install.
  function configure(off) { off_given = (off || []).slice(); }
  function switched_off(name) {
    var off = from_address().concat(off_given);
    return off.indexOf("off") >= 0 || off.indexOf(name) >= 0;
  }
  function say_once(name, why) {
    status[name] = "off: " + why;
    if (said[name]) return;
    said[name] = true;
    if (typeof console !== "undefined") console.info("attention-explorable: workaround " + name + " is off: " + why);
  }
  function active(name) {
    var spec = by_name[name];
    if (!spec || switched_off(name)) { if (spec) status[name] = "off: switched off"; return false; }
    if (!in_range(spec)) {
      var r = spec.bokeh || ["3.10", "3.11"];
      say_once(name, "read against BokehJS " + r[0] + " to " + r[1] + ", this is " +
               (typeof Bokeh !== "undefined" ? Bokeh.version : "no BokehJS"));
      return false;
    }
    return true;
  }
  function run(spec, step, arg) {
    try {
      var done = spec[step](arg);
      if (typeof done === "string") status[spec.name] = "off: " + done;  // it declined, and says why
      else if (done) status[spec.name] = "on";
      else if (status[spec.name] !== "on") status[spec.name] = "off: BokehJS lacks what it replaces";
    } catch (e) {
      say_once(spec.name, "failed to install (" + e + ")");
    }
  }
  // Once the document is ready (AEPage.init).
  function install(doc, off) {
    if (off) configure(off);
    defs.forEach(function (spec) { if (spec.install && active(spec.name)) run(spec, "install", doc); });
  }
  // The function a workaround puts in place of the runtime's plain one, or null.
  function wrapper(name) {
    var spec = by_name[name];
    return spec && spec.wrap && active(name) ? spec.wrap : null;
  }

  // --- what the workarounds share: finding BokehJS's views and classes -------------------------
  // Bokeh.index.find_one walks every view of the page (0.2-0.4 ms a call); a model's view lives
  // as long as the page unless its parent is rebuilt, so it is remembered until destroyed.
  var views_by_model = typeof WeakMap !== "undefined" ? new WeakMap() : null;
  function view_of(model) {
    var v = views_by_model && views_by_model.get(model);
    if (v && v.is_destroyed !== true && v.model === model) return v;
    try { v = (typeof Bokeh !== "undefined" && Bokeh.index) ? Bokeh.index.find_one(model) : null; }
    catch (e) { return null; }
    if (v && views_by_model) views_by_model.set(model, v);
    return v;
  }
  // The first view of the page that `test` accepts, found in one walk of the view tree.
  function first_view(test) {
    if (typeof Bokeh === "undefined" || !Bokeh.index || typeof Bokeh.index.query_one !== "function") return null;
    try { return Bokeh.index.query_one(function (v) { try { return !!test(v); } catch (e) { return false; } }); }
    catch (e) { return null; }
  }
  // The prototype on `obj`'s chain that defines `name` itself (the class a patch must change so
  // that every view of that kind gets it), or null.
  function owner_of(obj, name) {
    var proto = obj == null ? null : Object.getPrototypeOf(obj);
    while (proto && !Object.prototype.hasOwnProperty.call(proto, name)) proto = Object.getPrototypeOf(proto);
    return proto || null;
  }
  // A BokehJS class's prototype by module path and name, or null.
  function bokeh_class(path, name) {
    try {
      var m = Bokeh.require(path);
      return m != null && typeof m[name] === "function" ? m[name].prototype : null;
    } catch (e) { return null; }
  }
  // Each figure of the document with its view: [model, view].
  function figure_views(doc) {
    if (typeof Bokeh === "undefined" || !Bokeh.index || !doc) return [];
    return Array.from(doc.all_models || []).filter(function (m) { return m.type === "Figure"; })
      .map(function (m) { return [m, view_of(m)]; }).filter(function (mv) { return mv[1] != null; });
  }

  var api = {
    define: define, configure: configure, active: active, install: install,
    wrapper: wrapper, status: function () { return Object.assign({}, status); },
    names: function () { return defs.map(function (d) { return d.name; }); },
    view_of: view_of, first_view: first_view, owner_of: owner_of, bokeh_class: bokeh_class, figure_views: figure_views,
  };
  if (typeof globalThis !== "undefined") globalThis.AEWorkarounds = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AEWorkarounds;
