// page.js: what every page does once its document is ready, served or exported.
// - ?embed=1 hides the page chrome, so the plate alone fills its frame (it scrolls in a smaller
//   one: scaling it with CSS would put Bokeh's pointer coordinates off by the scale);
// - ?hide=a,b hides the named controls (a lesson can fix some settings);
// - ?theme=dark and ?present=1 (large type for a projector) restyle the page and its Bokeh models
//   in the browser, from the values app/shared/theme.py passes in `opts.theme`;
// - in an exported page (no Python), the plate's own glue applies its URL fields
//   (the served page already did that in Python) and its notices are shown.
var AEPage = (typeof globalThis !== "undefined" && globalThis.AEPage) || (function () {
  "use strict";
  var CHROME = ["ae-header", "ae-lead", "ae-explanation"];

  function hide_models(doc, names) {
    names.forEach(function (name) {
      var models = doc.all_models ? Array.from(doc.all_models).filter(function (m) { return m.name === name; }) : [];
      models.forEach(function (m) { if ("visible" in m) m.setv({ visible: false }, { sync: false }); });
    });
  }

  // Whether the link fixes a control for a lesson (?hide= names it): a gesture then keeps its value.
  // A control a scene leaves out is not fixed: a drag still moves it.
  function fixed(model) {
    var names = (AELink.params().get("hide") || "").split(",").map(function (s) { return s.trim(); });
    return !!(model && model.name) && names.indexOf(model.name) >= 0;
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
      var el = AEBokehView.events_el(m);
      if (el) el.style.touchAction = "none";
    });
  }

  // "Copy link": the address of the state on screen, to the clipboard; where the clipboard is
  // refused (an iframe without permission, an old browser) the link is shown selected instead.
  // "Copy embed code": an <iframe> of that state with ?embed=1 (the plate alone), for a course
  // page or a slide. One listener on the header's shadow root, which outlives re-renders.
  function wire_copy_link(doc) {
    var root = AEBokehView.root(doc.get_model_by_name("ae-header"));
    if (!root || root.__ae_copy) return;
    root.__ae_copy = true;
    root.addEventListener("click", function (ev) {
      var btn = ev.target && ev.target.closest ? ev.target.closest(".ae-copy") : null;
      if (btn) copy_link(root, btn.classList.contains("ae-embed"));
    });
  }
  // A frame that reads on a projector: the scene on screen (on the plate's page, its first), in
  // present mode, 16:9.
  function embed_code(href, title) {
    var url = new URL(href);
    url.searchParams.set("embed", "1");
    var scene = typeof AEScenes !== "undefined" ? AEScenes.on_screen() : null;
    if (scene) { url.searchParams.set("present", "1"); url.searchParams.set("scene", scene); }
    return "<iframe src=\"" + html_escape(url.href) + "\" title=\"" + html_escape(title) +
      "\" width=\"960\" height=\"540\" style=\"border: 0; max-width: 100%\" loading=\"lazy\"></iframe>";
  }
  function copy_link(root, embed) {
    AELink.flush();
    var h1 = root.querySelector("h1");
    var link = embed ? embed_code(window.location.href, h1 ? h1.textContent : document.title) : window.location.href;
    var out = root.querySelector(".ae-copied");
    function shown(text) { if (out) out.textContent = text; }
    function by_hand() {
      if (!out) return;
      out.textContent = "";
      var field = document.createElement("input");
      field.type = "text"; field.readOnly = true; field.value = link; field.className = "ae-link-field";
      field.setAttribute("aria-label", embed ? "Embed code for this state (copy it)" : "Link to this state (copy it)");
      out.appendChild(field);
      field.focus(); field.select();
    }
    try {
      navigator.clipboard.writeText(link).then(function () { shown(embed ? "Embed code copied" : "Link copied"); }, by_hand);
    } catch (err) { by_hand(); }
  }

  // --- modes: ?theme=dark, ?present=1 --------------------------------------------------------
  var HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

  function hex6(c) {
    c = String(c).trim().toLowerCase();
    if (!HEX.test(c)) return c;
    return c.length === 4 ? "#" + c[1] + c[1] + c[2] + c[2] + c[3] + c[3] : c;
  }

  function hls(hex) {
    var r = parseInt(hex.slice(1, 3), 16) / 255, g = parseInt(hex.slice(3, 5), 16) / 255, b = parseInt(hex.slice(5, 7), 16) / 255;
    var mx = Math.max(r, g, b), mn = Math.min(r, g, b), l = (mx + mn) / 2, h = 0, s = 0, d = mx - mn;
    if (d > 0) {
      s = l > 0.5 ? d / (2 - mx - mn) : d / (mx + mn);
      h = mx === r ? (g - b) / d + (g < b ? 6 : 0) : mx === g ? (b - r) / d + 2 : (r - g) / d + 4;
      h /= 6;
    }
    return [h, l, s];
  }

  function from_hls(h, l, s) {
    function f(p, q, t) {
      if (t < 0) t += 1; if (t > 1) t -= 1;
      if (t < 1 / 6) return p + (q - p) * 6 * t;
      if (t < 1 / 2) return q;
      if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
      return p;
    }
    var r, g, b;
    if (s === 0) { r = g = b = l; } else {
      var q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
      r = f(p, q, h + 1 / 3); g = f(p, q, h); b = f(p, q, h - 1 / 3);
    }
    return "#" + [r, g, b].map(function (x) { return ("0" + Math.round(x * 255).toString(16)).slice(-2); }).join("");
  }

  // A light page's colour in dark mode: the theme's partner if it names one (page colours and
  // the Okabe-Ito roles), else papers and inks swap lightness and mid tones (data) stay.
  // app/shared/theme.py's dark_partner is the same rule (tests check the pairs it gives).
  function to_dark(colour, map) {
    var c = hex6(colour);
    if (Object.prototype.hasOwnProperty.call(map, c)) return map[c];
    if (!HEX.test(c)) return colour;
    var t = hls(c), l = t[1];
    if (l > 0.85 || l < 0.45) return from_hls(t[0], (1 - l) * 0.9 + 0.05, t[2]);
    return colour;
  }

  function css_to_dark(css, map) {
    return css.replace(/#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|\b(white|black)\b(?=\s*[;}!])/g, function (m) { return to_dark(m, map); });
  }

  function bigger_px(px, T) { return Math.round(Math.max(px * T.present_scale, T.present_min_px)); }

  function css_to_present(css, T) {
    return css.replace(/font-size\s*:\s*([\d.]+)(px|pt)/g, function (m, v, unit) {
      var px = parseFloat(v) * (unit === "pt" ? 4 / 3 : 1);
      return "font-size: " + bigger_px(px, T) + "px";
    });
  }

  // Axis numbers and names take the full growth; titles, legends and labels drawn in the plot
  // grow less, because a figure keeps its size and they must still fit in it.
  function font_to_present(size, T, full) {
    var m = /^([\d.]+)(px|pt)$/.exec(String(size).trim());
    if (!m) return null;
    var px = parseFloat(m[1]) * (m[2] === "pt" ? 4 / 3 : 1);
    if (full) return bigger_px(px, T) + "px";
    return Math.round(Math.max(px * T.present_soft_scale, T.present_soft_min_px)) + "px";
  }

  // A property's value, whether a plain value or a {value: ...} spec; null for a field/expr.
  function plain(v) {
    if (v == null) return null;
    if (typeof v === "string") return v;
    if (typeof v === "object" && typeof v.value === "string" && v.field == null && v.expr == null) return v.value;
    return null;
  }

  function rewrap(old, value) {
    return (old != null && typeof old === "object") ? Object.assign({}, old, { value: value }) : value;
  }

  // Plots whose colours come from data (heat maps: a glyph filled from a column or a colour
  // mapper) keep their frame as it is, a light card: the numbers written on the cells were
  // chosen to read against those cells. Their axes, titles and borders follow the theme.
  function data_coloured_parts(doc) {
    var keep = new Set();
    Array.from(doc.all_models || []).forEach(function (m) {
      if (!m.renderers || !("background_fill_color" in m)) return;  // a plot
      var heat = m.renderers.some(function (r) {
        var fc = r.glyph && r.glyph.fill_color;
        return fc != null && typeof fc === "object" && (fc.field != null || fc.transform != null);
      });
      if (!heat) return;
      keep.add(m.id + ":background_fill_color");
      m.renderers.forEach(function (r) {
        [r, r.glyph, r.selection_glyph, r.nonselection_glyph, r.hover_glyph, r.muted_glyph].forEach(function (g) {
          if (g) keep.add(g.id);
        });
      });
      (m.center || []).forEach(function (a) { keep.add(a.id); });
    });
    return keep;
  }

  function restyle_model(m, dark, present, T, keep) {
    var props = m.properties || {};
    var changes = {};
    Object.keys(props).forEach(function (name) {
      var v;
      try { v = m[name]; } catch (e) { return; }
      if (dark && /(^|_)color$/.test(name) && !keep.has(m.id) && !keep.has(m.id + ":" + name)) {
        var c = plain(v);
        if (c != null) {
          var d = to_dark(c, T.dark_map);
          if (d !== c) changes[name] = rewrap(v, d);
        }
      }
      if (present && /font_size$/.test(name)) {
        var s = plain(v);
        var b = s != null ? font_to_present(s, T, /^(major_label|axis_label)_/.test(name)) : null;
        if (b != null && b !== s) changes[name] = rewrap(v, b);
      }
    });
    if (present && /(^|\.)(Slider|RangeSlider|RadioButtonGroup|CheckboxGroup|RadioGroup|CheckboxButtonGroup|Button|Toggle|Select|TextInput|TextAreaInput|Spinner|NumericInput)$/.test(m.type || "")) {
      // Widgets have fixed widths made for 12-13 px type: they grow with it.
      var k = T.present_min_px / 12;
      if (typeof m.width === "number") changes.width = Math.round(m.width * k);
      if (/TextAreaInput$/.test(m.type) && typeof m.height === "number") changes.height = Math.round(m.height * k);
    }
    // A Div of fixed height holds text that is now larger: it grows too (its width stays, the text wraps).
    if (present && /(^|\.)Div$/.test(m.type || "") && typeof m.height === "number" && m.visible !== false)
      changes.height = Math.round(m.height * T.present_scale);
    if (Object.keys(changes).length) m.setv(changes, { sync: false });
  }

  function restyle_sheets(m, dark, present, T, sized) {
    if (!Array.isArray(m.stylesheets)) return;
    var sheets = m.stylesheets.map(function (ss) {
      var css = typeof ss === "string" ? ss : (ss && typeof ss.css === "string" ? ss.css : null);
      if (css == null) return ss;
      if (dark) css = css_to_dark(css, T.dark_map);
      if (sized) css = css_to_present(css, T);
      return css;
    });
    if (dark) sheets.push(T.dark_css);
    if (present) sheets.push(T.present_css);
    if (sized && /(^|\.)Row$/.test(m.type || "") && T.present_row_css) sheets.push(T.present_row_css);
    m.setv({ stylesheets: sheets }, { sync: false });
  }

  // A figure keeps its size in presentation mode, so a title, legend or axis label that has grown
  // past its figure is brought back to the size that fits (never below its light-mode size).
  var measure_ctx = null;
  function text_px_width(text, px, font, style) {
    measure_ctx = measure_ctx || document.createElement("canvas").getContext("2d");
    measure_ctx.font = (style && style !== "normal" ? style + " " : "") + px + "px " + (font || "sans-serif");
    return measure_ctx.measureText(String(text)).width;
  }
  function px_of(v) {
    var m = /^([\d.]+)(px|pt)$/.exec(String(plain(v) || "").trim());
    return m ? parseFloat(m[1]) * (m[2] === "pt" ? 4 / 3 : 1) : null;
  }
  // Never below the presentation minimum either: returns the pixels the text still lacks at the
  // size it is given (its figure then grows by them).
  function fit_text(m, prop, text, avail, font, style, light, extra, min_px) {
    var px = px_of(m[prop]), lo = Math.max(px_of(light) || 0, min_px || 0);
    if (px == null || !text || !(avail > 0)) return 0;
    var need = text_px_width(text, px, font, style) + (extra || 0);
    if (need <= avail) return 0;
    var fitted = Math.min(px, Math.max(lo, Math.floor(px * avail / need)));
    if (fitted < px) m.setv({ [prop]: rewrap(m[prop], fitted + "px") }, { sync: false });
    return Math.max(0, Math.ceil(text_px_width(text, fitted, font, style) + (extra || 0) - avail));
  }
  // A figure `by` pixels wider (dw) or taller (dh) in its frame, or in its whole box.
  function grow_by(plot, dw, dh) {
    var ch = {};
    if (dw > 0) { if (typeof plot.frame_width === "number") ch.frame_width = plot.frame_width + dw; else if (typeof plot.width === "number") ch.width = plot.width + dw; }
    if (dh > 0) { if (typeof plot.frame_height === "number") ch.frame_height = plot.frame_height + dh; else if (typeof plot.height === "number") ch.height = plot.height + dh; }
    if (Object.keys(ch).length) { plot.__ae_growing = true; plot.setv(ch, { sync: false }); plot.__ae_growing = false; }
  }
  function fit_figure_text(doc, light, min_px, embed) {
    if (typeof Bokeh === "undefined" || !Bokeh.index) return;
    // Embedded, the page is fitted to its frame as a whole (fit_to_frame) and its type shrinks with it.
    if (embed) min_px = 0;
    Array.from(doc.all_models || []).forEach(function (plot) {
      if (!plot.renderers || !("border_fill_color" in plot)) return;
      var fr = AEBokehView.frame_box(plot);
      if (!fr) return;
      var fw = fr.width, fh = fr.height, dw = 0, dh = 0;
      if (!(fw > 0)) return;  // not shown
      var t = plot.title;
      if (t && typeof t === "object" && t.text) dw = Math.max(dw, fit_text(t, "text_font_size", t.text, fw - 4, plain(t.text_font), plain(t.text_font_style), light[t.id + ":text_font_size"], 0, min_px));
      ["below", "above", "left", "right"].forEach(function (side) {
        (plot[side] || []).forEach(function (a) {
          if (!("axis_label_text_font_size" in a) || !a.axis_label) return;
          var across = side === "below" || side === "above", avail = across ? fw : fh;
          var lack = fit_text(a, "axis_label_text_font_size", a.axis_label, avail, plain(a.axis_label_text_font), plain(a.axis_label_text_font_style), light[a.id + ":axis_label_text_font_size"], 0, min_px);
          if (across) dw = Math.max(dw, lack); else dh = Math.max(dh, lack);
        });
      });
      // Legends in the frame or under it are laid out along the frame's width.
      (plot.center || []).concat(plot.below || [], plot.above || []).forEach(function (lg) {
        if (!("label_text_font_size" in lg) || !Array.isArray(lg.items) || !lg.items.length) return;
        var labels = lg.items.map(function (it) { return plain(it.label) || ""; });
        var horizontal = lg.orientation === "horizontal";
        var per = (lg.glyph_width || 20) + (lg.label_standoff || 5);
        var text = horizontal ? labels.join("") : labels.reduce(function (a, b) { return b.length > a.length ? b : a; }, "");
        var extra = (horizontal ? labels.length * per + (labels.length - 1) * (lg.spacing || 3) : per) + 2 * (lg.padding || 10) + 2 * (lg.margin || 10);
        dw = Math.max(dw, fit_text(lg, "label_text_font_size", text, fw, plain(lg.label_text_font), plain(lg.label_text_font_style), light[lg.id + ":label_text_font_size"], extra, min_px));
      });
      if (min_px) grow_by(plot, dw, dh);
    });
  }

  // Figures that write text among their data (a heat map's cell numbers, a bar's label): in
  // presentation mode the text reaches the minimum size, and the figure grows with it (so the
  // numbers still fit in their cells and the labels beside their bars), no wider than the page.
  // A plate that resizes a figure later (multi-head's h) gets it grown again.
  var PRESENT_MAX_FIGURE_PX = 1200;
  function grow_text_figures(doc, light) {
    Array.from(doc.all_models || []).forEach(function (plot) {
      if (!plot.renderers || !("border_fill_color" in plot)) return;
      var g = 1;
      plot.renderers.map(function (r) { return r.glyph; }).concat(plot.center || []).forEach(function (gl) {
        var was = gl && px_of(light[gl.id + ":text_font_size"]), now = gl && px_of(gl.text_font_size);
        if (was && now) g = Math.max(g, now / was);
      });
      if (!(g > 1.01)) return;
      var base = null, timer = null;
      var grow = function () {
        var ch = {}, wide = "frame_width" in base ? base.frame_width + 80 : base.width;
        var f = wide > 0 ? Math.min(g, Math.max(1, PRESENT_MAX_FIGURE_PX / wide)) : g;
        Object.keys(base).forEach(function (k) { ch[k] = Math.round(base[k] * f); });
        base = null;
        plot.__ae_growing = true; plot.setv(ch, { sync: false }); plot.__ae_growing = false;
      };
      // The sizes the plate gave, read once for all the properties it set together.
      var read = function () {
        base = {};
        ["frame_width", "frame_height", "width", "height"].forEach(function (k) { if (typeof plot[k] === "number") base[k] = plot[k]; });
      };
      read();
      grow();
      var again = function () {
        if (plot.__ae_growing || base) return;
        read();
        clearTimeout(timer);
        timer = setTimeout(grow, 0);
      };
      ["frame_width", "frame_height"].forEach(function (k) { if (plot.properties[k]) plot.properties[k].change.connect(again); });
    });
  }

  // In presentation mode a row's tagged child ("ae-present-first", the worked plate's steps and
  // table) comes first, so that what the plate is about is on the first screen of a projector.
  function present_first(doc) {
    Array.from(doc.all_models || []).forEach(function (m) {
      if (!Array.isArray(m.children) || !/Row$/.test(m.type || "")) return;
      var first = m.children.filter(function (c) { return c && Array.isArray(c.tags) && c.tags.indexOf("ae-present-first") >= 0; });
      if (!first.length || m.children[0] === first[0]) return;
      m.setv({ children: first.concat(m.children.filter(function (c) { return first.indexOf(c) < 0; })) }, { sync: false });
    });
  }

  // `scene`: the page shows scenes (AEScenes), which set the type and sizes themselves; present
  // mode then only adds its widget styles.
  function apply_modes(doc, p, T, scene) {
    var dark = p.get("theme") === "dark", present = p.get("present") === "1";
    var html = document.documentElement;
    html.classList.toggle("ae-dark", dark);
    html.classList.toggle("ae-present", present);
    if ((!dark && !present) || !T) return;
    var sized = present && !scene;
    var keep = data_coloured_parts(doc);
    var light = {};
    // A model's new stylesheets are applied by its view as they are set (BokehJS's
    // StyledElementView follows the property).
    one_layout(doc, function () {
      Array.from(doc.all_models || []).forEach(function (m) {
        if (m.type === "InlineStyleSheet" || /^ae-lib-/.test(m.name || "")) return;
        ["text_font_size", "axis_label_text_font_size", "label_text_font_size"].forEach(function (k) {
          if (k in m) light[m.id + ":" + k] = m[k];
        });
        restyle_model(m, dark, sized, T, keep);
        restyle_sheets(m, dark, present, T, sized);
      });
      // Embedded, the page is fitted to its frame as a whole: growing figures would only shrink it.
      if (sized && p.get("embed") !== "1") { grow_text_figures(doc, light); present_first(doc); }
    });
    if (typeof Bokeh === "undefined" || !Bokeh.index) return;
    // The figures' boxes are known once Bokeh has laid the page out again, the text in their
    // frames once the fitted titles and legends are laid out too. An embedded page's fit makes
    // the room for that text itself, at the factors it ends with (fit_to_frame).
    if (sized && typeof requestAnimationFrame === "function") frames(2, function () {
      var embed = p.get("embed") === "1", fitted = embed && p.get("fit") !== "0";
      fit_figure_text(doc, light, T.present_min_px, embed);
      if (!embed) widen_text_boxes(doc);
      frames(fitted ? 0 : 2, function () {
        if (!fitted) room_for_text(doc);
        api.present_fitted = true;  // tests wait for it
      });
    });
  }

  // Text that a figure draws in its frame (a LabelSet's or a Label's words, a legend) is clipped
  // at the frame's edge. Present mode's larger type can pass the top of a short figure (the
  // scaling plate's "Jacobian max" over its bars), and a legend at the bottom of the frame come
  // up over the markers (the lookup's output strip): the figure is made as much larger as its
  // text lacks. As the frame grows by d, a label at a data point moves by its share f of the
  // frame (f·d), one placed in screen units (from the frame's bottom) by all of d, a legend at the
  // bottom by d and one at the top not at all. [dw, dh], at most the frame's size again each;
  // null when nothing lacks.
  function text_lack(plot) {
    var fr = plot.visible === false ? null : AEBokehView.frame_box(plot);
    if (!fr || !(fr.height > 0) || !(fr.width > 0)) return null;
    var dw = 0, dh = 0;
    // A box that moves by fx·d across and fy·d down as the frame grows by d.
    function room(b, fx, fy) {
      if (b.top < fr.top - 0.5 && fy > 0.05) dh = Math.max(dh, (fr.top - b.top) / fy);
      if (b.bottom > fr.bottom + 0.5 && fy < 0.95) dh = Math.max(dh, (b.bottom - fr.bottom) / (1 - fy));
      if (b.left < fr.left - 0.5 && fx > 0.05) dw = Math.max(dw, (fr.left - b.left) / fx);
      if (b.right > fr.right + 0.5 && fx < 0.95) dw = Math.max(dw, (b.right - fr.right) / (1 - fx));
    }
    var fx = function (sx) { return Math.min(1, Math.max(0, (sx - fr.left) / fr.width)); };
    var fy = function (sy) { return Math.min(1, Math.max(0, (sy - fr.top) / fr.height)); };
    var markers = [];
    plot.renderers.forEach(function (r) {
      var marks = r.visible !== false && r.glyph && r.glyph.type === "Scatter" ? AEBokehView.scatter_marks(r) : null;
      (marks || []).forEach(function (k) {
        var x = k.x, y = k.y, h = k.size / 2;
        if (x >= fr.left && x <= fr.right && y >= fr.top && y <= fr.bottom) markers.push({ left: x - h, right: x + h, top: y - h, bottom: y + h, f: fy(y) });
      });
    });
    (plot.center || []).forEach(function (a) {
      if (!a || a.visible === false) return;
      if (a.type === "LabelSet" && a.x_units === "data" && a.y_units === "data") {
        (AEBokehView.label_set_boxes(a) || []).forEach(function (l) { room(l.box, fx(l.x), fy(l.y)); });
      } else if (a.type === "Label" && a.x_units !== "canvas" && a.y_units !== "canvas") {
        var q = AEBokehView.text_rect(a);
        if (q) room({ left: q.left, top: q.top, right: q.left + q.width, bottom: q.top + q.height },
                    a.x_units === "screen" ? 0 : fx(q.x - (a.x_offset || 0)), a.y_units === "screen" ? 1 : fy(q.y + (a.y_offset || 0)));
      } else if (a.type === "Legend" && a.items.length && typeof a.location === "string") {
        var lb = AEBokehView.box(a), at_bottom = /^bottom/.test(a.location);
        if (!lb || (!at_bottom && !/^top/.test(a.location))) return;
        markers.forEach(function (m) {
          if (!(m.left < lb.right && lb.left < m.right && m.top < lb.bottom && lb.top < m.bottom)) return;
          if (at_bottom && m.f < 0.95) dh = Math.max(dh, (m.bottom - lb.top) / (1 - m.f));
          if (!at_bottom && m.f > 0.05) dh = Math.max(dh, (lb.bottom - m.top) / m.f);
        });
      }
    });
    // A title above or below the frame, cut at the figure's edge (its type's width does not shrink
    // quite in proportion): the figure widens by what lacks, on both sides for a centred one.
    var t = plot.title;
    var tr = t && typeof t === "object" && t.visible !== false && /^(above|below)$/.test(plot.title_location) ? AEBokehView.text_rect(t) : null;
    var pb = tr && AEBokehView.box(plot);
    if (tr && pb) {
      var over_l = -tr.left, over_r = tr.left + tr.width - pb.width;
      var lack = t.align === "center" ? 2 * Math.max(over_l, over_r) : t.align === "right" ? over_l : over_r;
      if (lack > 0.5) dw = Math.max(dw, lack);
    }
    return dw > 0 || dh > 0 ? [Math.min(dw, fr.width), Math.min(dh, fr.height)] : null;
  }
  function room_for_text(doc) {
    if (typeof Bokeh === "undefined" || !Bokeh.index) return;
    Array.from(doc.all_models || []).forEach(function (plot) {
      if (!plot.renderers || !("border_fill_color" in plot)) return;
      var lack = text_lack(plot);
      if (lack) grow_by(plot, lack[0] > 0 ? Math.ceil(lack[0]) + 1 : 0, lack[1] > 0 ? Math.ceil(lack[1]) + 1 : 0);
    });
  }

  // A text box of fixed width whose words or table outgrew it in the large type (a table would
  // scroll inside its box, its last columns out of sight) is widened to hold them, no wider than
  // the page.
  function widen_text_boxes(doc) {
    if (typeof Bokeh === "undefined" || !Bokeh.index) return;
    var room = document.documentElement.clientWidth - 24;
    Array.from(doc.all_models || []).forEach(function (m) {
      if (!("text" in m) || typeof m.width !== "number" || m.visible === false) return;
      var v = Bokeh.index.find_one(m), root = v && v.el && v.el.shadowRoot;
      if (!root) return;
      var box = v.el.getBoundingClientRect(), right = box.right;
      if (!(box.width > 0)) return;
      root.querySelectorAll("*").forEach(function (el) {
        var r = el.getBoundingClientRect();
        if (r.width > 0) right = Math.max(right, el.tagName === "TABLE" ? r.left + el.scrollWidth : r.right);
      });
      if (right > box.right + 1) m.setv({ width: Math.min(Math.max(room, m.width), Math.ceil(m.width + right - box.right + 2)) }, { sync: false });
    });
  }

  // --- ?embed=1: fit the plate to its frame ---------------------------------------------------
  // A CSS transform or zoom would put Bokeh's pointer coordinates off (and Bokeh measures the
  // zoomed boxes, shrinking its canvases), so the layout itself is resized: every fixed size
  // (figures, widgets, tables, Divs, margins) and every type size is multiplied by one factor k,
  // from the values the page had at load; Bokeh then lays out and maps the pointer as usual.
  var SIZE_PROPS = ["width", "height", "frame_width", "frame_height", "min_width", "min_height", "max_width",
                    "max_height", "min_border", "min_border_left", "min_border_right", "min_border_top", "min_border_bottom",
                    // a legend's boxes, or its items outgrow a scaled-down figure and are cut off
                    "glyph_width", "glyph_height", "label_standoff", "label_width", "label_height", "spacing", "padding"];

  // The gaps an axis or a title keeps from its frame (tick lengths, standoffs), and a Label's
  // place when it is given in screen pixels: kept at full size while the frame and the type
  // shrank, they took the frame's height from the text drawn in it (issue 43, 3: the lookup's
  // output strip) or left the label outside its frame (the scaling plate's std label).
  var GAP_PROPS = ["major_tick_in", "major_tick_out", "minor_tick_in", "minor_tick_out", "major_label_standoff",
                   "axis_label_standoff", "standoff", "offset"];
  function gap_prop(m, name) {
    if (GAP_PROPS.indexOf(name) >= 0) return /Axis$|^Title$/.test(m.type || "");
    return m.type === "Label" && ((name === "x" && m.x_units === "screen") || (name === "y" && m.y_units === "screen"));
  }

  function scaled_font(v, k) {
    var s = plain(v);
    var m = s != null && /^([\d.]+)(px|pt)$/.exec(String(s).trim());
    if (!m) return null;
    var px = parseFloat(m[1]) * (m[2] === "pt" ? 4 / 3 : 1);
    return rewrap(v, (Math.round(px * k * 10) / 10) + "px");
  }

  // A plain number, or a {value: number} spec; null otherwise (a field, an expression).
  function num(v) {
    if (typeof v === "number") return v;
    if (v != null && typeof v === "object" && typeof v.value === "number" && v.field == null && v.expr == null) return v.value;
    return null;
  }

  function fit_models(doc) {
    var out = [];
    Array.from(doc.all_models || []).forEach(function (m) {
      if (m.type === "InlineStyleSheet" || /^ae-lib-/.test(m.name || "")) return;
      var props = m.properties || {}, orig = {};
      Object.keys(props).forEach(function (name) {
        var v;
        try { v = m[name]; } catch (e) { return; }
        if (SIZE_PROPS.indexOf(name) >= 0 && typeof v === "number") orig[name] = v;
        else if (typeof v === "number" && gap_prop(m, name)) orig[name] = v;
        else if (name === "margin" && v != null && (typeof v === "number" || Array.isArray(v))) orig[name] = v;
        else if (/font_size$/.test(name) && scaled_font(v, 1) != null) orig[name] = v;
        else if (/^(size|line_width|x_offset|y_offset)$/.test(name) && num(v) != null) orig[name] = v;
        else if (name === "stylesheets" && Array.isArray(v) && v.some(function (ss) { return typeof ss === "string" || (ss && typeof ss.css === "string"); })) orig[name] = v;
      });
      if (Object.keys(orig).length) out.push({ model: m, orig: orig });
    });
    return out;
  }

  // A stylesheet's type sizes in px become multiples of --ae-fit, a custom property of <html>
  // that reaches into every shadow root: the sheets are replaced once, and each later factor is
  // one property on <html> instead of new sheets (and a re-render) for every Div.
  // A scene's type (AEScenes) also sets --ae-min-font: no text below it.
  function css_fitted(css) {
    return css.replace(/font-size\s*:\s*([\d.]+)(px|pt|rem)/g, function (m, v, unit) {
      var size = unit === "rem" ? v + "rem" : (Math.round(parseFloat(v) * (unit === "pt" ? 4 / 3 : 1) * 10) / 10) + "px";
      return "font-size: max(var(--ae-min-font, 0px), calc(" + size + " * var(--ae-fit, 1)))";
    });
  }

  // Equal sizes: numbers, margins (arrays) and {value: ...} specs.
  function same(a, b) {
    if (Array.isArray(a) || Array.isArray(b)) {
      return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every(function (x, i) { return x === b[i]; });
    }
    if (a != null && b != null && typeof a === "object" && typeof b === "object") return a.value === b.value && a.field == null && b.field == null;
    return a === b;
  }

  // Sizes across take kx, sizes down ky; glyphs, margins, legends, an axis's or title's gaps and
  // a Label's place in screen pixels k = min(kx, ky), and type k * kt (kt < 1 when a text box's
  // words would pass its edge at k). As k <= ky, a figure's frame then shrinks no more than its
  // text, so text that fitted in the frame at full size still fits, up to rounding (that, and
  // text that did not fit, room_in_frames makes room for).
  var TYPE_SPREAD = 1.2;
  var ACROSS = ["width", "frame_width", "min_width", "max_width", "min_border_left", "min_border_right"];
  var DOWN = ["height", "frame_height", "min_height", "max_height", "min_border_top", "min_border_bottom"];
  // With `type` (a scene's: {min_px, main_px, main: the models of its main numbers}) the type no
  // longer follows the boxes: every size is the page's own times min_px / 12 (its 12 px becomes
  // min_px), between min_px and TYPE_SPREAD times it (a slide's type is even: its titles need not
  // shout), and main_px or more for the main numbers.
  // A scene's marks (markers, lines, offsets, ticks) grow with its frame as its type does (`unit`).
  function scale_layout(items, kx, ky, kt, base_font_px, type) {
    var k = Math.min(kx, ky), kf = type ? type.min_px / 12 : k * kt;
    var kg = type ? k * (type.unit || 1) : k;
    items.forEach(function (it) {
      var ch = {}, legend = /Legend/.test(it.model.type || "");
      var kxi = it.keep_shape ? k : kx, kyi = it.keep_shape ? k : ky;
      Object.keys(it.orig).forEach(function (name) {
        var v = it.orig[name];
        if (name === "margin") ch[name] = typeof v === "number" ? Math.round(v * k) : v.map(function (x) { return Math.round(x * k); });
        else if (name === "stylesheets") {
          if (it.sheets_fitted) return;
          it.sheets_fitted = true;
          ch[name] = v.map(function (ss) {
            var css = typeof ss === "string" ? ss : (ss && typeof ss.css === "string" ? ss.css : null);
            return css == null ? ss : css_fitted(css);
          });
        } else if (/font_size$/.test(name)) {
          ch[name] = scaled_font(v, kf);
          if (type) {
            // A figure's title at the smallest size: the slide's own title names the scene, and a
            // wider title would run into the next figure's.
            var px = px_of(ch[name]), main = type.main.has(it.model), spread = it.model.type === "Title" ? 1 : TYPE_SPREAD;
            px = main ? Math.max(px, type.main_px) : Math.min(Math.max(px, type.min_px), type.min_px * spread);
            ch[name] = rewrap(v, (Math.round(px * 10) / 10) + "px");
          }
        }
        else if (/^(size|line_width|x_offset|y_offset)$/.test(name)) ch[name] = rewrap(v, num(v) * kg);
        else if (gap_prop(it.model, name)) ch[name] = name === "x" || name === "y" ? v * kg : Math.round(v * kg);
        else {
          var f = legend ? k : ACROSS.indexOf(name) >= 0 ? kxi : DOWN.indexOf(name) >= 0 ? kyi : k;
          ch[name] = Math.max(1, Math.round(v * f));
        }
      });
      (it.reset || []).forEach(function (name) { ch[name] = null; });
      it.reset = null;
      // Unchanged values are left out: any change re-renders a Div or a table.
      Object.keys(ch).forEach(function (name) { if (name !== "stylesheets" && same(ch[name], it.model[name])) delete ch[name]; });
      if (Object.keys(ch).length) it.model.setv(ch, { sync: false });
    });
    var root = document.documentElement.style, base = base_font_px * kf;
    if (type) base = Math.max(base, type.min_px);
    root.setProperty("--bokeh-font-size", (Math.round(base * 10) / 10) + "px");
    root.setProperty("--ae-fit", String(Math.round(kf * 1000) / 1000));
    if (type) { root.setProperty("--ae-min-font", (Math.round(type.min_px * 10) / 10) + "px"); root.setProperty("--ae-main-font", (Math.round(type.main_px * 10) / 10) + "px"); }
  }

  // Run `fn`, which resizes or restyles many models. BokehJS lays the page out again after each
  // one; the one_layout workaround (app/workarounds/js/one_layout.js) makes it one layout.
  function one_layout(doc, fn, next_frame, local) {
    var w = typeof AEWorkarounds !== "undefined" ? AEWorkarounds.wrapper("one_layout") : null;
    if (w) return w(doc, fn, next_frame, local);
    fn();
  }

  function frames(n, fn) { if (n <= 0) fn(); else requestAnimationFrame(function () { frames(n - 1, fn); }); }

  // Measure the page, choose new factors, repeat until it fits (Bokeh lays out asynchronously,
  // and type and boxes do not shrink in proportion, so a few rounds are needed). The plate fills
  // its frame: a plate taller than the frame's shape is widened (sizes across take kx, larger than
  // the type's k) and a wider one is lengthened (ky), so a slide's 16:9 frame is covered, not a
  // column in the middle of it. STRETCH bounds how far its figures are drawn out of shape.
  // A scene (AEScenes) fits the same way with its type fixed: `opts.type(w, h)` gives the type for
  // the frame ({min_px, main_px}), `opts.main()` the models of the scene's main numbers; only the
  // boxes follow the frame, and a text box whose words pass its edge is widened instead of its type
  // made smaller. A figure tagged "ae-keep-shape" (a plane whose angles mean something) keeps its
  // shape. Returns {refit(), state}: refit() after a scene showed other parts. `opts.done(fits)`,
  // if given, is told how each fit ended; returning true, it has changed the page and fits again.
  var STRETCH = 2.2;
  function fit_to_frame(doc, opts) {
    var html = document.documentElement;
    var base_font = parseFloat(getComputedStyle(html).getPropertyValue("--bokeh-font-size")) || 12;
    var items = fit_models(doc), kx = 1, ky = 1, kt = 1, rounds = 0, t0 = 0, gen = 0, best = null;
    var locked = typeof opts.type === "function", type = null;
    items.forEach(function (it) {
      it.keep_shape = Array.isArray(it.model.tags) && it.model.tags.indexOf("ae-keep-shape") >= 0;
      it.base = Object.assign({}, it.orig);
    });
    // A scene's own sizes for its parts (`opts.sizes(w, h)`: {model id: {prop: px}}) replace the
    // page's before the fit; a size a scene set that the next does not is given back.
    function design() {
      if (!opts.sizes) return;
      var want_all = opts.sizes(html.clientWidth, html.clientHeight);
      items.forEach(function (it) {
        var want = want_all[it.model.id] || {};
        (it.designed || []).forEach(function (k) { if (!(k in want) && !(k in it.base)) (it.reset = it.reset || []).push(k); });
        it.orig = Object.assign({}, it.base, want);
        it.designed = Object.keys(want);
      });
    }
    function type_now() {
      if (!locked) return null;
      var t = opts.type(html.clientWidth, html.clientHeight);
      return { min_px: t.min_px, main_px: t.main_px, unit: t.unit, main: opts.main ? opts.main() : new Set() };
    }
    var state = { k: 1, kx: 1, ky: 1, fitted: false, settled: false };  // settled: this fit is over, fitted or not
    api.fit_state = state;
    // How far the plate reaches: the union of its fixed-size parts' boxes (the page's root is
    // as wide as the frame, so the document's scroll size alone says nothing when it is smaller).
    function extent() {
      var r = 0, b = 0;
      if (typeof Bokeh === "undefined" || !Bokeh.index) return [html.scrollWidth, html.scrollHeight];
      items.forEach(function (it) {
        if (!("width" in it.orig || "height" in it.orig || "frame_width" in it.orig)) return;  // stretches with the frame
        var v = Bokeh.index.find_one(it.model);
        if (!v || !v.el || !v.el.isConnected) return;
        var box = v.el.getBoundingClientRect();
        if (box.width <= 0 || box.height <= 0) return;
        r = Math.max(r, box.right + window.scrollX);
        b = Math.max(b, box.bottom + window.scrollY);
      });
      return [Math.max(r + 4, 1), Math.max(b + 4, 1)];
    }
    // How far the widest text box's words pass its edge (1 when none does: a table in present
    // mode's large type may be wider than its box, which would then scroll).
    function text_overflow() {
      var worst = 1;
      if (typeof Bokeh === "undefined" || !Bokeh.index) return worst;
      items.forEach(function (it) {
        if (!("text" in it.model) || it.model.visible === false) return;
        var v = Bokeh.index.find_one(it.model), root = v && v.el && v.el.shadowRoot;
        if (!root) return;
        var box = v.el.getBoundingClientRect(), right = box.right;
        if (!(box.width > 0)) return;
        root.querySelectorAll("table").forEach(function (el) { right = Math.max(right, el.getBoundingClientRect().right); });
        var over = (right - box.left) / box.width;
        worst = Math.max(worst, over);
        // A scene's type stays: the box grows to hold its words.
        if (locked && over > 1.005 && typeof it.orig.width === "number") it.orig.width = Math.ceil(it.orig.width * over) + 2;
      });
      return locked ? 1 : worst;
    }
    // Text a figure draws in its frame that the frame, at these factors, cuts off (text_lack): the
    // figure's size before the fit grows by what lacks over its factor. Measured once the factors
    // have settled, as the room a label needs grows as the factors shrink (by its share of the frame).
    function room_in_frames() {
      var grew = false;
      items.forEach(function (it) {
        var m = it.model;
        if (!m.renderers || !("border_fill_color" in m)) return;
        var lack = text_lack(m);
        if (!lack) return;
        [["frame_width", "width", lack[0], kx], ["frame_height", "height", lack[1], ky]].forEach(function (d) {
          var name = d[0] in it.orig ? d[0] : d[1] in it.orig ? d[1] : null;
          if (name && d[2] > 0) { it.orig[name] += Math.ceil(d[2] / d[3]) + 1; grew = true; }
        });
      });
      return grew;
    }
    function clamp(x) { return Math.max(0.1, Math.min(3, x)); }  // multi-head needs about 0.14 in a 480×320 frame
    function measure(g) {
      if (g !== gen) return;  // a resize started a new fit
      var cw = html.clientWidth, ch = html.clientHeight, e = extent();
      var over = text_overflow();
      var fits = html.scrollWidth <= cw && html.scrollHeight <= ch && e[0] <= cw && e[1] <= ch && over <= 1.005;
      var w = Math.max(e[0], html.scrollWidth > cw ? html.scrollWidth : 0), h = Math.max(e[1], html.scrollHeight > ch ? html.scrollHeight : 0);
      // a little room for rounding; each factor fills its own direction, within STRETCH of the other
      var nx = clamp(kx * (cw / w) * 0.985), ny = clamp(ky * (ch / h) * 0.985);
      var lo = Math.min(nx, ny);
      nx = Math.min(nx, lo * STRETCH); ny = Math.min(ny, lo * STRETCH);
      state.rounds = rounds;
      state.size = [cw, ch];
      if (fits && (!best || kx * ky > best[0] * best[1])) best = [kx, ky, kt];
      var nt = over > 1.005 ? Math.max(0.5, kt / over * 0.99) : kt;
      // A row that wraps at one size and not at the next can keep the factors from settling:
      // after a few rounds the largest fit seen is taken, or, if none fitted, a smaller one.
      if (fits && ((Math.abs(nx - kx) < 0.03 * kx && Math.abs(ny - ky) < 0.03 * ky) || rounds >= 6)) {
        // It fits. Text that a figure draws in its frame and the frame cuts off at these factors:
        // the figure grows, and the plate is laid out again at them and fitted again.
        if (rounds >= 16 || !room_in_frames()) return done(true);
        best = null; nx = kx; ny = ky; nt = kt;
      } else if (rounds >= 6) {
        // A scene whose boxes cannot make room for its type gives up sooner: it shows less instead.
        if (rounds >= (locked ? 8 : 16)) return done(false);
        if (best) { nx = best[0]; ny = best[1]; nt = best[2]; best = null; } else { nx = kx * 0.96; ny = ky * 0.96; }
      }
      rounds += 1;
      kx = nx; ky = ny; kt = nt;
      type = type_now();
      one_layout(doc, function () { scale_layout(items, kx, ky, kt, base_font, type); });
      settle(g);
    }
    function done(fits) {
      state.k = Math.min(kx, ky); state.kx = kx; state.ky = ky; state.kt = kt; state.fitted = fits;
      state.ms = Math.round(performance.now() - t0);  // how long the fit took (benchmarks read it)
      // `opts.done(fits)` may show less and fit again (a scene too large for its frame): then this
      // fit is not over.
      if (opts.done && opts.done(fits)) return;
      state.settled = true;
    }
    // Every step waits on animation frames, not timers: a fit is over in as few frames as its
    // rounds need, and a hidden frame (whose animation frames are paused) does no work.
    function whenIdle(fn) { if (doc.is_idle === false) requestAnimationFrame(function () { whenIdle(fn); }); else fn(); }
    // Two frames: the first comes before the ResizeObservers that Bokeh's views react to, the
    // second after them; then the boxes are final and can be measured.
    function settle(g) { frames(2, function () { whenIdle(function () { measure(g); }); }); }
    function start() {
      gen += 1; rounds = 0; best = null; kt = 1; state.fitted = false; state.settled = false; t0 = performance.now();
      if (locked) {  // the scene's type and sizes first: the boxes are measured with them
        kx = ky = 1;
        design();
        type = type_now();
        one_layout(doc, function () { scale_layout(items, kx, ky, kt, base_font, type); });
      }
      settle(gen);
    }
    // A window fires at most one resize a frame. While it goes on being resized each one starts a
    // new fit, and the measures of the older ones, two frames on, find a newer gen and stop: no
    // layout is done until the size has held for two frames.
    window.addEventListener("resize", start);
    start();
    return { refit: start, state: state };
  }

  // ?embed=1 in a frame: the navigation keys that no control of the plate took go to the page
  // around it as a message {type: "ae-key", key}, so a slide deck still moves on after a click
  // inside the plate (examples/reveal-deck). A focused control (a slider, a point's handle, a
  // field) keeps its keys: it prevents their default, or it is one that uses them natively. The
  // key keeps its default too (a page that ignores the message still scrolls, as before).
  var NAV_KEYS = ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "];
  var KEEPS_KEYS = "input, select, textarea, button, a[href], [contenteditable], [role=slider], [role=spinbutton], " +
    "[role=radio], [role=listbox], [role=combobox], [role=tab], [role=region]";
  function forward_keys() {
    if (window.parent === window || window.__ae_keys) return;
    window.__ae_keys = true;
    window.addEventListener("keydown", function (ev) {
      if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || NAV_KEYS.indexOf(ev.key) < 0) return;
      var t = ev.composedPath ? ev.composedPath()[0] : ev.target;
      if (t && t.closest && t.closest(KEEPS_KEYS)) return;
      window.parent.postMessage({ type: "ae-key", key: ev.key, shiftKey: ev.shiftKey }, "*");
    });
  }

  function init(doc, opts, apply_url) {
    // The workarounds of BokehJS (app/workarounds/js/), unless the server or export left them out.
    if (typeof AEWorkarounds !== "undefined") AEWorkarounds.install(doc, opts.workarounds_off);
    claim_touch(doc);
    wire_copy_link(doc);
    if (typeof AEScenes !== "undefined") AEScenes.wire_links(doc);
    var p = AELink.params();
    var html = document.documentElement;
    var scenes = typeof AEScenes !== "undefined" && (opts.scenes || []).length > 0 &&
      (p.get("present") === "1" || p.get("embed") === "1") && p.get("fit") !== "0";  // as AEScenes.start
    apply_modes(doc, p, opts.theme, scenes);
    var hide = (p.get("hide") || "").split(",").map(function (s) { return s.trim(); }).filter(Boolean).slice(0, 50);
    if (p.get("embed") === "1") {
      html.classList.add("ae-embed");
      hide = hide.concat(CHROME).concat(["ae-notices"]);
    }
    hide_models(doc, hide);
    if (!opts.served) {  // a served page shows Python's notices; an exported one words the same here
      var notices = [];
      if (apply_url) {
        try { notices = apply_url(p) || []; } catch (err) { notices = ["could not read the link: " + err.message]; }
      }
      notices = notices.concat(AELink.page_notices(p, opts.hideable, opts.scenes ? opts.scenes.map(function (s) { return s.name; }) : undefined));
      // Shown once the plate has painted what the link changed: the notice's relayout in the
      // same task as a shrinking n made BokehJS 3.10 paint a heat map with its old colour arrays
      // (a RangeError from a DataView, found by the hostile-link run on the exported masking page).
      if (p.get("embed") !== "1") after_paint(function () { show_notices(doc, notices); });
    }
    if (p.get("still") === "1" && typeof AEScenes !== "undefined") AEScenes.still(doc, opts.still);
    var shown = typeof AEScenes !== "undefined" && typeof requestAnimationFrame === "function" && AEScenes.start(doc, opts, p);
    if (!shown && p.get("embed") === "1" && p.get("fit") !== "0" && typeof requestAnimationFrame === "function") fit_to_frame(doc, opts);
    if (p.get("embed") === "1") forward_keys();
  }

  // A small visible table as plain HTML (app/shared/html_table.py's table_html writes the same string):
  // columns are [title, kind], kind "row" (the row's header), "num" or "text"; rows hold the
  // cells already formatted by the plate.
  var TABLE_KINDS = ["row", "num", "text"];
  function html_escape(t) {  // as Python's html.escape
    return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }
  function table_html(label, columns, rows) {
    columns.forEach(function (c) {
      if (TABLE_KINDS.indexOf(c[1]) < 0) throw new Error("a column's kind is row, num or text, got " + c[1]);
    });
    var cls = function (kind, header) { return kind === "text" || (header && kind === "row") ? " class='ae-tx'" : ""; };
    var head = columns.map(function (c) { return "<th scope='col'" + cls(c[1], true) + ">" + html_escape(c[0]) + "</th>"; }).join("");
    var body = rows.map(function (row) {
      if (row.length !== columns.length) throw new Error("a row has " + row.length + " cells for " + columns.length + " columns");
      return "<tr>" + row.map(function (v, i) {
        var kind = columns[i][1], text = html_escape(v);
        return kind === "row" ? "<th scope='row'>" + text + "</th>" : "<td" + cls(kind) + ">" + text + "</td>";
      }).join("") + "</tr>";
    }).join("");
    return "<div class='ae-wt-box' tabindex='0' role='region' aria-label='" + html_escape(label) + "'>" +
      "<table class='ae-wt' aria-label='" + html_escape(label) + "'>" +
      "<thead><tr>" + head + "</tr></thead><tbody>" + body + "</tbody></table></div>";
  }

  // --- numbers, written as app/shared/formatting.py writes them: every plate's glue uses these, so
  // a number the page writes at once is the very text Python's answer writes a moment later.
  // fix: toFixed, never "-0.00". opts.significant: read x to that many significant digits first
  // (the worked plate's 12: typed numbers, whose last bit NumPy and the browser may round apart),
  // then round half away from zero in decimal (string arithmetic, so no float rounding creeps back
  // in); opts.trim: drop trailing zeros and a bare point (2.000 -> "2").
  function fix(x, d, opts) {
    var s;
    if (opts && opts.significant) s = fix_significant(Number(x), d, opts.significant);
    else { s = x.toFixed(d); if (s === "-" + (0).toFixed(d)) s = (0).toFixed(d); }
    if (opts && opts.trim) {
      if (s.indexOf(".") >= 0) s = s.replace(/0+$/, "").replace(/\.$/, "");
      if (s === "-0" || s === "") s = "0";
    }
    return s;
  }
  function fix_significant(x, d, significant) {
    var parts = Math.abs(x).toExponential(significant - 1).split("e");  // "d.ddd...", "+N"
    var mant = parts[0].replace(".", ""), keep = Number(parts[1]) + 1 + d;  // mantissa digits to keep
    var n;  // round(|x| * 10^d) as a digit string
    if (keep < 0) n = "0";
    else if (keep >= mant.length) n = mant + "0".repeat(keep - mant.length);
    else {
      n = keep === 0 ? "0" : mant.slice(0, keep);
      if (mant.charAt(keep) >= "5") {  // add one, carrying
        var ds = n.split(""), i = ds.length - 1;
        while (i >= 0 && ds[i] === "9") { ds[i] = "0"; i--; }
        if (i < 0) ds.unshift("1"); else ds[i] = String(Number(ds[i]) + 1);
        n = ds.join("");
      }
    }
    n = n.replace(/^0+(?=\d)/, "");
    if (n.length <= d) n = "0".repeat(d - n.length + 1) + n;
    var s = d > 0 ? n.slice(0, n.length - d) + "." + n.slice(n.length - d) : n;
    return (x < 0 && /[1-9]/.test(n)) ? "-" + s : s;
  }
  // toExponential(d, one decimal by default); plus === false drops the exponent's "+" ("2.4e0").
  function sci(x, d, plus) {
    var s = Number(x).toExponential(d == null ? 1 : d);
    return plus === false ? s.replace("e+", "e") : s;
  }
  function pct(w) { return fix(100 * w, 1) + "%"; }  // 0.5508 -> "55.1%"
  function paren(s) { return s.charAt(0) === "-" ? "(" + s + ")" : s; }  // a negative factor in a sum

  function after_paint(fn) {
    if (typeof requestAnimationFrame !== "function") return fn();
    requestAnimationFrame(function () { requestAnimationFrame(function () { fn(); }); });
  }

  var api = {};
  Object.assign(api, { KEEPS_KEYS: KEEPS_KEYS, fit: fit_to_frame, fixed: fixed, init: init, copy_link: copy_link, apply_modes: apply_modes, to_dark: to_dark, claim_touch: claim_touch,
    hide_models: hide_models, one_layout: one_layout, table_html: table_html, html_escape: html_escape,
    fix: fix, sci: sci, pct: pct, paren: paren });
  if (typeof globalThis !== "undefined") globalThis.AEPage = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AEPage;
