// link.js (AELink): the page's address, the one place the browser reads and writes it. The rules
// are PlateState's (app/shared/state.py): a link's setting out of range is clamped (an angle
// wrapped), one that cannot be read is ignored, an unknown one is ignored, one given twice is
// read once (the first), each with a notice; the address follows
// the plate, with the settings at their defaults left out. A plate's glue says what its state is
// (values) and how to apply it; `spec` is its state's url_spec(), handed to the glue by Python.
var AELink = (typeof globalThis !== "undefined" && globalThis.AELink) || (function () {
  "use strict";

  function params() {
    try { return new URLSearchParams(window.location.search); } catch (e) { return new URLSearchParams(""); }
  }

  // The address bar follows the plate: `names` are the plate's URL fields, `fields()` returns
  // those that differ from their defaults. replaceState (the history does not fill up), at most
  // every 250 ms; an iframe's srcdoc or a sandbox may refuse, and the plate works without it.
  // Each writer (`who`: the plate, the scene) has its own pending write; one flush writes them all.
  var url_timer = null, url_pending = {};
  function write_url(names, fields, who) {
    if (typeof window === "undefined" || !window.history) return;
    url_pending[who || "plate"] = function () {
      try {
        var params = new URLSearchParams(window.location.search);
        names.forEach(function (k) { params.delete(k); });
        var f = fields();
        Object.keys(f).forEach(function (k) { params.set(k, f[k]); });
        var qs = params.toString();
        window.history.replaceState(window.history.state, "", window.location.pathname + (qs ? "?" + qs : "") + window.location.hash);
      } catch (err) { /* refused: see above */ }
    };
    clearTimeout(url_timer);
    url_timer = setTimeout(flush_url, 250);
  }
  function flush_url() {
    clearTimeout(url_timer);
    var writes = url_pending;
    url_pending = {};
    Object.keys(writes).forEach(function (who) { writes[who](); });
  }

  // --- reading a link without Python (an exported page) -------------------------------------
  // PlateState.apply_url's rules (app/shared/state.py), for exported pages: `spec` is the state's
  // url_spec(); a field of type "custom" is parsed by custom[name](text), which returns the
  // value or throws an Error whose message is the reason. The first of repeated settings
  // counts, as on a served page, and a notice says so. Returns {values, notices}; the glue
  // applies the values.
  var NUMBER = /^[ \t\n\r\f\v]*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\f\v]*$/;  // app.shared.state.NUMBER
  var NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

  function short_text(text, n) {  // app.shared.state._short
    n = n || 24;
    var chars = Array.from(String(text)).map(function (ch) { return ch !== " " && NOT_PRINTABLE.test(ch) ? "?" : ch; });
    return chars.length <= n ? chars.join("") : chars.slice(0, n - 1).join("") + "\u2026";
  }
  function round_half_even(x) { return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x); }
  function g6(x) { return String(Number(Number(x).toPrecision(6))); }
  // app.shared.formatting.fix(x, 2, trim=True) for an angle in [0, 360): toFixed, trailing zeros off.
  function fix2(x) {
    var s = Number(x).toFixed(2).replace(/\.?0+$/, "");
    return s === "-0" ? "0" : s;
  }
  // app.shared.state.repeated_notice and wrap_notice.
  function repeated_notice(name, texts) {
    return "'" + short_text(name) + "' given " + texts.length + " times: only the first, '" + short_text(texts[0]) + "', is read";
  }
  function wrap_notice(name, text, value) {
    return "'" + name + "' set to " + fix2(value) + "\u00b0, the same direction as " + short_text(text.trim()) + "\u00b0";
  }

  function parse_field(f, text) {
    if (f.type === "bool") {
      var t = text.trim().toLowerCase();
      if (["1", "true", "yes", "on"].indexOf(t) >= 0) return true;
      if (["0", "false", "no", "off"].indexOf(t) >= 0) return false;
      throw new Error("expected 0 or 1");
    }
    if (f.type === "select") {
      for (var i = 0; i < f.objects.length; i++) if (String(f.objects[i]) === text.trim()) return f.objects[i];
      throw new Error("expected one of " + f.objects.map(String).join(", "));
    }
    if (!NUMBER.test(text)) throw new Error("not a number");
    var x = Number(text);
    if (!Number.isFinite(x)) throw new Error("not a finite number");
    var lo = f.bounds ? f.bounds[0] : null, hi = f.bounds ? f.bounds[1] : null;
    if (f.wrap && lo !== null && hi !== null && !(lo <= x && x <= hi)) return wrapped(x, lo, hi);
    if (lo !== null && x < lo) x = lo;
    if (hi !== null && x > hi) x = hi;
    return f.type === "integer" ? round_half_even(x) : x;
  }

  // A field whose range is a circle (an angle): a value outside it is the same direction, wrapped
  // into it (-30 -> 330). app.shared.state.wrapped does the same operations.
  function wrapped(x, lo, hi) {
    var span = hi - lo, r = (x - lo) % span;
    if (r < 0) r += span;
    if (r >= span) r -= span;
    return lo + r;
  }

  function read_link(params, spec, custom) {
    var values = {}, notices = [], seen = {};
    params.forEach(function (text, name) {
      if (seen[name]) return;
      seen[name] = true;
      var f = spec.fields[name];
      if (!f) {
        if (spec.page_params.indexOf(name) < 0) notices.push("ignored unknown setting '" + short_text(name) + "'");
        return;
      }
      var texts = params.getAll(name);
      if (texts.length > 1) notices.push(repeated_notice(name, texts));
      if (Array.from(text).length > spec.max_value) { notices.push("ignored '" + name + "': value too long"); return; }
      var value, later = [];
      try {  // a custom field's parser may add a notice of its own (a value moved into range)
        value = f.type === "custom" ? custom[name](text, function (n) { later.push(n); }) : parse_field(f, text);
      } catch (err) {
        notices.push("ignored '" + name + "=" + short_text(text) + "': " + err.message);
        return;
      }
      Array.prototype.push.apply(notices, later);
      if ((f.type === "integer" || f.type === "number") && !f.wrap && Math.abs(Number(text) - value) > 1e-9) {
        notices.push("'" + name + "' set to " + (f.type === "integer" ? String(value) : g6(value)) + ", the nearest allowed value");
      } else if (f.wrap && Number(text) !== value) {
        notices.push(wrap_notice(name, text, value));
      }
      values[name] = value;
    });
    return {values: values, notices: notices};
  }

  // app.shared.state.page_param_notices: a page setting with a value this page will not act on.
  var PAGE_CHOICES = { embed: ["0", "1"], present: ["0", "1"], still: ["0", "1"], theme: ["light", "dark"] };
  var PAGE_PARAMS = ["embed", "theme", "hide", "present", "scene", "still", "plate", "workarounds"];  // app.shared.state.PAGE_PARAMS
  var CONTROL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,39}$/;
  // `hideable`: the names ?hide= can use on this page (app.delivery.page.hideable_names), if known;
  // `scenes`: the names ?scene= can use (the plate's scenes), if known.
  function page_notices(params, hideable, scenes) {
    var notices = [], seen = {};
    params.forEach(function (text, name) {
      if (seen[name]) return;
      seen[name] = true;
      var texts = params.getAll(name);
      if (PAGE_PARAMS.indexOf(name) >= 0 && texts.length > 1) notices.push(repeated_notice(name, texts));
      if (PAGE_CHOICES[name] && PAGE_CHOICES[name].indexOf(text) < 0) {
        notices.push("ignored '" + name + "=" + short_text(text) + "': expected " + PAGE_CHOICES[name].join(" or "));
      } else if (name === "scene" && scenes && scenes.indexOf(text) < 0) {
        notices.push("ignored 'scene=" + short_text(text) + "': this page's scenes are " + (scenes.join(", ") || "none"));
      } else if (name === "hide") {
        var names = text.split(",").map(function (n) { return n.replace(/^[ \t]+|[ \t]+$/g, ""); });
        var bad = names.filter(function (n) { return n && !CONTROL_NAME.test(n); });
        var unknown = names.filter(function (n) { return n && hideable && hideable.indexOf(n) < 0; });
        if (bad.length) notices.push("ignored 'hide=" + short_text(bad[0]) + "': not a control's name");
        else if (unknown.length) notices.push("ignored 'hide=" + short_text(unknown[0]) + "': no control of that name on this page");
      }
    });
    return notices;
  }

  // --- writing: the plate's state as the address's settings ---------------------------------
  // A field's value as its link text, as PlateState.url_value writes it (numbers to 6 significant
  // digits); a custom field by the plate's own `format[name]`.
  function field_text(f, v, name, format) {
    if (f.type === "custom") return format[name](v);
    if (f.type === "bool") return v ? "1" : "0";
    if (f.type === "number") return g6(v);
    return String(v);
  }
  // The settings that differ from their defaults, {name: text}.
  function fields(spec, values, format) {
    var out = {};
    Object.keys(spec.fields).forEach(function (name) {
      var f = spec.fields[name];
      if (!(name in values)) return;
      var text = field_text(f, values[name], name, format || {});
      if (text !== field_text(f, f.default, name, format || {})) out[name] = text;
    });
    return out;
  }
  // The address follows `values()` (the plate's state now).
  function follow(spec, values, format) {
    write_url(Object.keys(spec.fields), function () { return fields(spec, values(), format); });
  }

  // --- a plate's glue ------------------------------------------------------------------------
  // A glue object says what its state is and how to set it: url_values(a) -> {name: value},
  // url_apply(a, values) (an exported page: no Python) -> extra notices or nothing, and for its
  // custom fields url_parse[name](text, note) and url_format[name](value). `a.link` is the spec.
  function follow_plate(a, glue) {
    follow(a.link, function () { return glue.url_values(a); }, glue.url_format);
  }
  function apply_plate(a, params, glue) {
    var r = read_link(params, a.link, glue.url_parse || {});
    var more = glue.url_apply(a, r.values) || [];
    return r.notices.concat(more);
  }

  var api = {
    params: params, write: write_url, flush: flush_url, follow: follow, fields: fields, read: read_link,
    follow_plate: follow_plate, apply_plate: apply_plate,
    page_notices: page_notices, short_text: short_text, g6: g6, NUMBER: NUMBER,
  };
  if (typeof globalThis !== "undefined") globalThis.AELink = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AELink;
