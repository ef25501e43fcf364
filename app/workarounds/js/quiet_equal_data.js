// quiet_equal_data.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A served page computes each change itself (the plates' glue, with mirror.js), and Python, the
  // authority, answers with its own numbers. BokehJS applies a source's data from the server with
  // its equality test turned off (Document._apply_json_patch, ColumnDataChanged: check_eq false),
  // so an answer equal to what the page holds recomputes the source's glyphs (measuring every
  // label of a Text glyph) and repaints the figure: on the multi-head page a change of n sent back
  // ten sources, six of them equal in every value and three whose floats differed from the page's
  // in the last bits only (a sum done in another order), with every text the same.
  // - An equal answer is dropped.
  // - A near one (every string and integer the same, every float within CLOSE of the page's,
  //   relative) is stored without the redraw (setv silent): the source holds Python's numbers for
  //   anything that reads them later, and what is drawn from them could not differ by a pixel.
  // - Any other answer is applied as before.
  // The same holds for a colour scale's or a range's ends (near: stored silently) and for a
  // glyph's spec that Python sends again unchanged (dropped), below.
  var CLOSE = 1e-12;
  function first_model(doc, type) {
    return Array.from(doc.all_models || []).find(function (m) { return m.type === type && typeof m.setv === "function"; });
  }
  function quiet_equal_data(doc) {
    if (!doc) return false;
    var src = first_model(doc, "ColumnDataSource"), proto = src && src.properties.data ? Object.getPrototypeOf(src) : null;
    if (!proto) return false;
    if (!Object.prototype.hasOwnProperty.call(proto, "__ae_quiet_data")) {
      var setv = proto.setv;
      proto.setv = function (attrs, options) {
        if (options != null && options.check_eq === false && options.sync === false && attrs != null &&
            Object.keys(attrs).length === 1 && "data" in attrs) {
          if (same_data(this.data, attrs.data, 0)) return;
          if (same_data(this.data, attrs.data, CLOSE)) return setv.call(this, attrs, { silent: true });
        }
        return setv.apply(this, arguments);
      };
      proto.__ae_quiet_data = true;
    }
    // A colour scale's ends and a range's ends: the same test for numbers.
    quiet_near_ends(first_model(doc, "LinearColorMapper"), ["low", "high"]);
    quiet_near_ends(first_model(doc, "Range1d"), ["start", "end"]);
    // A spec set to what the glyph already has. BokehJS compares specs as plain objects, and a
    // spec decoded from Python's message has `transform` and `units` keys (undefined) that the
    // page's does not, so the same font size counted as a change: on masking, eight Text glyphs
    // measured every label and repainted again at each answer.
    var gp = bokeh_class("models/glyphs/glyph", "Glyph");  // the class every glyph model shares
    if (gp && typeof gp.setv === "function" && !Object.prototype.hasOwnProperty.call(gp, "__ae_quiet_data")) {
      var glyph_setv = gp.setv;
      gp.setv = function (attrs, options) {
        if (options == null || options.sync !== false || attrs == null) return glyph_setv.apply(this, arguments);
        var self = this, left = {}, dropped = 0;
        Object.keys(attrs).forEach(function (k) {
          if (same_spec(self[k], attrs[k])) dropped += 1;
          else left[k] = attrs[k];
        });
        if (dropped === 0) return glyph_setv.apply(this, arguments);
        if (Object.keys(left).length === 0) return;
        return glyph_setv.call(this, left, options);
      };
      gp.__ae_quiet_data = true;
    }
    return true;
  }
  var SPEC_KEYS = ["value", "field", "expr", "transform", "units"];
  function same_spec(a, b) {  // two {value|field|expr, transform, units} specs, a missing key as undefined
    var plain = function (x) { return x != null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype; };
    if (!plain(a) || !plain(b)) return false;
    var only = function (x) { return Object.keys(x).every(function (k) { return SPEC_KEYS.indexOf(k) >= 0; }); };
    return only(a) && only(b) && ("value" in a || "field" in a || "expr" in a) &&
      SPEC_KEYS.every(function (k) { return a[k] === b[k]; });
  }
  // Ends set to within CLOSE of what the model has are stored without a change signal (nothing
  // drawn from them could move by a pixel).
  function quiet_near_ends(model, ends) {
    var proto = model ? Object.getPrototypeOf(model) : null;
    if (!proto || Object.prototype.hasOwnProperty.call(proto, "__ae_quiet_data")) return;
    var own = proto.setv;
    proto.setv = function (attrs, options) {
      var self = this, keys = attrs != null ? Object.keys(attrs) : [];
      if (options != null && options.sync === false && !options.silent && keys.length > 0 && keys.every(function (k) {
        return ends.indexOf(k) >= 0 && typeof attrs[k] === "number" && typeof self[k] === "number" &&
          same_value(self[k], attrs[k], CLOSE);
      })) return own.call(this, attrs, { silent: true });
      return own.apply(this, arguments);
    };
    proto.__ae_quiet_data = true;
  }

  function same_data(a, b, tol) { return AESync.same_data(a, b, tol); }
  function same_value(a, b, tol) { return AESync.same_value(a, b, tol); }
  W.define("quiet_equal_data", {
    bokeh: ["3.10", "3.11"],
    install: quiet_equal_data,
  });
})(AEWorkarounds);
