// a11y.js: what every plate shares for keyboard and screen-reader users.
// - handles(plot, opts): a focusable button over each point of a plot that a pointer drags or
//   taps (Tab reaches it, the glue's on_key moves it), with a visible focus ring;
// - speak(text): one polite live region per page, updated at most about once a second;
// - describe(plot, text): the plot's text alternative (role="img" and a label on its canvas);
// - tables(a): the table view of every chart's current numbers, shown by the plate's toggle;
// - arrow(ev): what an arrow key asks for (Shift: a larger step).
// Loaded with mirror.js and page.js into every page (app/runtime/scripts.py).
var AEA11y = (typeof globalThis !== "undefined" && globalThis.AEA11y) || (function () {
  "use strict";
  var CSS = ".ae-kb{position:absolute;left:0;top:0;width:0;height:0;pointer-events:none;z-index:5}" +
    ".ae-kb button{position:absolute;width:30px;height:30px;margin:-15px 0 0 -15px;border-radius:50%;" +
    "border:0;padding:0;background:transparent;pointer-events:none;cursor:default}" +
    ".ae-kb button.ae-cell{border-radius:3px}" +
    ".ae-kb button:focus-visible,.ae-kb button:focus{outline:3px solid #1f2328;outline-offset:2px;" +
    "box-shadow:0 0 0 6px #fff}";
  var SR = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;margin:-1px;padding:0;border:0";
  var layers = {};  // plot id -> {layer, style, buttons, opts}

  function view_of(model) {
    return (typeof Bokeh !== "undefined" && Bokeh.index) ? Bokeh.index.find_one(model) : null;
  }

  // --- focusable handles over a plot's points ------------------------------------------------
  // opts.targets() -> [{id, x, y, label, cell}] in data coordinates; opts.on_key(id, ev) handles
  // a key (returns true when it used it). Handles are rebuilt when the number of targets changes.
  function handles(plot, opts) {
    if (typeof document === "undefined") return;
    var k = layers[plot.id];
    if (!k) {
      var style = document.createElement("style");
      style.textContent = CSS;
      var layer = document.createElement("div");
      layer.className = "ae-kb";
      k = layers[plot.id] = { layer: layer, style: style, buttons: [], opts: opts };
    }
    k.opts = opts;
    place(plot);
  }

  // On a touch screen a plot that a finger drags would otherwise keep every touch (page.js's
  // claim_touch: touch-action none), so a page full of plots could hardly be scrolled. A plot
  // with points to drag keeps only the touches that start on a point; a swipe that starts on its
  // background scrolls the page. (Plots of cells to tap, or that a drag anywhere sets, keep all.)
  var TOUCH_PX = 28;  // how far from a point's centre a finger still lands on it
  function touch_points_only(plot, targets) {
    var el = AEBokehView.events_el(plot);
    if (!el || el.__ae_touch || typeof el.addEventListener !== "function") return;
    if (!targets.some(function (t) { return !t.cell; })) return;
    el.__ae_touch = true;
    el.style.touchAction = "manipulation";
    var hold = false;
    el.addEventListener("touchstart", function (ev) {
      hold = ev.touches.length === 1 && on_a_point(plot, ev.touches[0].clientX, ev.touches[0].clientY);
    }, { passive: true });
    // Cancelling the first move keeps the browser from scrolling: the finger drags the point.
    el.addEventListener("touchmove", function (ev) { if (hold && ev.cancelable) ev.preventDefault(); }, { passive: false });
  }
  function on_a_point(plot, client_x, client_y) {
    var k = layers[plot.id], el = AEBokehView.events_el(plot), to = AEBokehView.scales(plot);
    if (!k || !el || !to) return false;
    var r = el.getBoundingClientRect();
    var x = client_x - r.left, y = client_y - r.top;
    return k.opts.targets().some(function (t) {
      return !t.cell && Math.hypot(to.x(t.x) - x, to.y(t.y) - y) <= TOUCH_PX;
    });
  }

  function make_button(plot, k, id) {
    var el = document.createElement("button");
    el.type = "button";
    el.className = "ae-handle";
    el.dataset.target = String(id);
    el.addEventListener("keydown", function (ev) {
      if (k.opts.on_key(el.dataset.target === String(id) ? id : el.dataset.target, ev)) {
        ev.preventDefault();
        place(plot);
      }
    });
    el.addEventListener("focus", function () { place(plot); });
    return el;
  }

  function place(plot) {
    var k = layers[plot.id];
    if (!k) return;
    var to = AEBokehView.scales(plot), root = to && AEBokehView.root(plot);
    if (!root) return;
    if (!k.layer.isConnected) root.append(k.style, k.layer);
    var targets = k.opts.targets();
    while (k.buttons.length > targets.length) k.buttons.pop().remove();
    while (k.buttons.length < targets.length) {
      var b = make_button(plot, k, targets[k.buttons.length].id);
      k.layer.append(b);
      k.buttons.push(b);
    }
    var hidden = !plot.visible;
    targets.forEach(function (t, i) {
      var el = k.buttons[i];
      el.dataset.target = String(t.id);
      el.classList.toggle("ae-cell", !!t.cell);
      var px = to.x(t.x), py = to.y(t.y);
      el.style.left = (Number.isFinite(px) ? px : 0) + "px";
      el.style.top = (Number.isFinite(py) ? py : 0) + "px";
      if (t.size) { el.style.width = el.style.height = t.size + "px"; el.style.margin = (-t.size / 2) + "px 0 0 " + (-t.size / 2) + "px"; }
      el.setAttribute("aria-label", t.label);
      el.tabIndex = hidden ? -1 : 0;
    });
    touch_points_only(plot, targets);
  }

  // An arrow key as a step: {dx, dy} (Shift: `big` instead of `small`), or null for other keys.
  function arrow(ev, small, big) {
    var s = ev.shiftKey ? big : small;
    if (ev.key === "ArrowLeft") return { dx: -s, dy: 0 };
    if (ev.key === "ArrowRight") return { dx: s, dy: 0 };
    if (ev.key === "ArrowUp") return { dx: 0, dy: s };
    if (ev.key === "ArrowDown") return { dx: 0, dy: -s };
    return null;
  }

  // Key presses in a row form one gesture, like a drag: start() before the first, end() once the
  // keys have been still for `idle_ms` (the glue's commit to Python).
  var gestures = {};
  function key_gesture(key, start, end, idle_ms) {
    var g = gestures[key];
    if (!g) { g = gestures[key] = { end: end }; start(); }
    clearTimeout(g.timer);
    g.timer = setTimeout(function () { finish(key); }, idle_ms || 400);
  }
  function finish(key) {
    var g = gestures[key];
    if (!g) return;
    clearTimeout(g.timer);
    delete gestures[key];
    g.end();
  }

  // --- the live region -----------------------------------------------------------------------
  var live = null, live_timer = null;
  function speak(text, delay_ms) {
    if (typeof document === "undefined") return;
    if (!live || !live.isConnected) {
      live = document.createElement("div");
      live.className = "ae-live";
      live.setAttribute("role", "status");
      live.setAttribute("aria-live", "polite");
      live.style.cssText = SR;
      document.body.append(live);
    }
    clearTimeout(live_timer);
    live_timer = setTimeout(function () { live.textContent = text; }, delay_ms === undefined ? 800 : delay_ms);
  }

  // --- text alternatives ---------------------------------------------------------------------
  function describe(plot, text) {
    var canvas = AEBokehView.canvas_el(plot);
    if (!canvas) return;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", text);
  }

  // --- the table view ------------------------------------------------------------------------
  // a.a11y.tables: [{title, source, columns: [[field, header, digits]]}] or a matrix
  // {title, source, row, col, value, digits}; a.a11y.figures: [{plot, alt}].
  function esc(t) { return String(t).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }
  function cell(v, digits) {
    if (typeof v === "number" || (v !== null && typeof v === "object" && typeof v.valueOf() === "number")) {
      v = Number(v);
      if (!Number.isFinite(v)) return v > 0 ? "∞" : v < 0 ? "−∞" : "";
      if (digits === null || digits === undefined) return String(v);
      var s = v.toFixed(digits);
      return s === "-" + (0).toFixed(digits) ? (0).toFixed(digits) : s.replace("-", "−");
    }
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (Array.isArray(v) || ArrayBuffer.isView(v)) return "[" + Array.from(v).map(function (x) { return cell(x, digits); }).join(", ") + "]";
    return v === null || v === undefined ? "" : String(v);
  }
  function label(v, prefix, offset) {
    return prefix === undefined || prefix === null ? String(v) : prefix + (Number(v) + (offset || 0));
  }
  function matrix_html(spec, title, keep) {
    var d = spec.source.data, rows = [], cols = [], at = {};
    var R = d[spec.row] || [], C = d[spec.col] || [], V = d[spec.value] || [];
    for (var i = 0; i < R.length; i++) {
      if (!keep(i)) continue;
      if (rows.indexOf(R[i]) < 0) rows.push(R[i]);
      if (cols.indexOf(C[i]) < 0) cols.push(C[i]);
      at[R[i] + "\u0000" + C[i]] = V[i];
    }
    if (spec.reverse_rows) rows.reverse();
    var h = "<table><caption>" + esc(title) + "</caption><thead><tr><td></td>" + cols.map(function (c) {
      return "<th scope='col'>" + esc(label(c, spec.col_prefix, spec.offset)) + "</th>";
    }).join("") + "</tr></thead><tbody>";
    rows.forEach(function (r) {
      h += "<tr><th scope='row'>" + esc(label(r, spec.row_prefix, spec.offset)) + "</th>" + cols.map(function (c) {
        return "<td>" + esc(cell(at[r + "\u0000" + c], spec.digits)) + "</td>";
      }).join("") + "</tr>";
    });
    return h + "</tbody></table>";
  }
  function table_html(spec) {
    var d = spec.source.data;
    if (spec.row) {  // a matrix stored one cell per row of the source (one table per group)
      if (!spec.group) return matrix_html(spec, spec.title, function () { return true; });
      var groups = [];
      Array.from(d[spec.group] || []).forEach(function (g) { if (groups.indexOf(g) < 0) groups.push(g); });
      return groups.map(function (g) {
        return matrix_html(spec, spec.title + ", " + label(g, spec.group_prefix, spec.offset),
                           function (i) { return d[spec.group][i] === g; });
      }).join("");
    }
    var n = 0, h = "<table><caption>" + esc(spec.title) + "</caption>";
    spec.columns.forEach(function (c) { n = Math.max(n, (d[c[0]] || []).length); });
    h += "<thead><tr>" + spec.columns.map(function (c) { return "<th scope='col'>" + esc(c[1]) + "</th>"; }).join("") + "</tr></thead><tbody>";
    for (var j = 0; j < n; j++) {
      h += "<tr>" + spec.columns.map(function (c, ci) {
        var v = (d[c[0]] || [])[j], tag = ci === 0 ? "th" : "td";
        return "<" + tag + (ci === 0 ? " scope='row'" : "") + ">" + esc(cell(v, c[2])) + "</" + tag + ">";
      }).join("") + "</tr>";
    }
    return h + "</tbody></table>";
  }
  function tables_html(a) {
    return "<div class='ae-tables'>" + a.a11y.tables.map(table_html).join("") + "</div>";
  }
  var table_timer = {};
  function refresh_tables(a) {
    if (!a.ae_tables || !a.ae_tables.visible) return;
    clearTimeout(table_timer[a.ae_tables.id]);
    table_timer[a.ae_tables.id] = setTimeout(function () {
      a.ae_tables.setv({ text: tables_html(a) }, { sync: false });
    }, 100);
  }
  function on_table_toggle(a) {
    var on = !!a.ae_table_toggle.active;
    a.ae_table_toggle.setv({ label: on ? "Hide the tables" : "Show the numbers as tables" }, { sync: false });
    a.ae_tables.setv({ visible: on, text: on ? tables_html(a) : "" }, { sync: false });
  }

  function set_label(el, label) { if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label); }

  // Names Bokeh's widgets lack (found by axe-core): a slider's handle is named by the slider's
  // title, and a spinner's arrows say what they do.
  function name_widgets(doc) {
    Array.from((doc && doc.all_models) || []).forEach(function (m) {
      var fix = null;
      if (m.type === "Slider" || m.type === "RangeSlider") {
        // noUiSlider announces a value with two decimals, whatever the slider shows ("6.00" for
        // scaling's d_k = 64, a slider of log2 d_k): a one-handle slider says what it shows.
        fix = function (root) {
          var shown = m.type === "Slider" ? root.querySelector(".bk-slider-value") : null;
          root.querySelectorAll(".noUi-handle").forEach(function (h) {
            set_label(h, m.title || m.name || "slider");
            if (shown && shown.textContent && h.getAttribute("aria-valuetext") !== shown.textContent)
              h.setAttribute("aria-valuetext", shown.textContent);
          });
        };
      } else if (m.type === "Spinner") {
        fix = function (root) {
          var t = m.title || m.name || "value";
          root.querySelectorAll(".bk-spin-btn-up").forEach(function (b) { set_label(b, "increase " + t); });
          root.querySelectorAll(".bk-spin-btn-down").forEach(function (b) { set_label(b, "decrease " + t); });
        };
      }
      if (!fix) return;
      // Run after every change of the widget (a re-render makes new handles without names), so
      // at every slider step: its view is remembered while it lives (Bokeh.index.find_one walks
      // every view of the page, ~1 ms a step on the lookup plate), and a name already right is
      // not written again.
      var seen = null;
      var apply = function () {
        if (seen == null || seen.is_destroyed === true || seen.model !== m) seen = view_of(m);
        var root = seen && seen.el && (seen.el.shadowRoot || seen.el);
        if (root) fix(root);
      };
      apply();
      if (!m.__ae_named) { m.__ae_named = true; m.change.connect(function () { setTimeout(apply, 0); }); }
    });
  }

  // --- fitting the screen: phones, projectors, a resized window -----------------------------
  // Without a viewport tag a phone lays the page out 980 px wide and shrinks it: tiny text and
  // tiny targets. With one, the page is as wide as the phone, and what is wider than that is
  // made to fit: rows wrap, and a figure, widget or text wider than the space left shrinks to it
  // (a figure keeps its proportions). A wider screen that the plate still overflows (a 1024 px
  // projector) gets the same treatment; one the plate fits is left alone. Every value changed is
  // remembered, so a resized window is put back as loaded and fitted again, as a fresh load at
  // that size would be.
  var NARROW_PX = 720;
  function ensure_viewport() {
    if (typeof document === "undefined" || document.querySelector("meta[name=viewport]")) return;
    var meta = document.createElement("meta");
    meta.name = "viewport";
    meta.content = "width=device-width, initial-scale=1";
    document.head.append(meta);
  }
  ensure_viewport();

  function embedded() {
    // An embedded plate is fitted to its frame as a whole by page.js (?embed=1), and a scene
    // (?present=1, app/runtime/scenes.js) by its own fit; stacking rows for a narrow frame as well
    // made it taller than any scale could fit (multi-head at 480x320).
    return /[?&]embed=1(&|$)/.test(window.location.search || "") ||
      (typeof AEScenes !== "undefined" && AEScenes.current() !== null);
  }
  function screen_width() {
    return Math.min(document.documentElement.clientWidth, (window.screen && window.screen.width) || Infinity);
  }
  // The device's width when it is narrow (0 on wide screens): once something overflows, a phone
  // widens the layout viewport to it, so the screen's width counts too.
  function narrow_width() {
    if (typeof document === "undefined" || typeof window === "undefined" || embedded()) return 0;
    var W = screen_width();
    return W > 0 && W <= NARROW_PX ? W : 0;
  }
  // The width to fit the page to: a narrow screen's, or a wider one's that the page overflows.
  function fit_width() {
    if (typeof document === "undefined" || typeof window === "undefined" || embedded()) return 0;
    var W = narrow_width();
    if (W) return W;
    var root = document.scrollingElement || document.documentElement;
    W = screen_width();
    return W > 0 && root.scrollWidth > W + 1 ? W : 0;
  }
  // The room a figure has across a narrow screen (the page's 8 px margin and fit_narrow's 4 px
  // at the edge taken off), or 0 on a wide one: a plate may lay out fewer maps to a row instead of
  // shrinking them.
  function room() {
    var W = narrow_width();
    return W ? Math.floor(W - 12) : 0;
  }

  // Changes made to fit, with the values they replaced: put back before fitting to a new size.
  // A value the plate has changed since (a figure resized for more heads) is the plate's, and kept.
  function fit_set(doc, m, props) {
    var rec = doc.__ae_fitted || (doc.__ae_fitted = new Map());
    var r = rec.get(m) || {};
    Object.keys(props).forEach(function (k) { if (!(k in r)) r[k] = { was: m[k] }; r[k].now = props[k]; });
    rec.set(m, r);
    m.setv(props, { sync: false });
  }
  function same_value(a, b) {
    if (a === b) return true;
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every(function (x, i) { return same_value(x, b[i]); });
    if (a && b && typeof a === "object" && typeof b === "object" && Object.getPrototypeOf(a) === Object.prototype) {
      var ka = Object.keys(a), kb = Object.keys(b);
      return ka.length === kb.length && ka.every(function (k) { return a[k] === b[k]; });
    }
    return false;
  }
  function unfit(doc) {
    var rec = doc.__ae_fitted;
    doc.__ae_fitted = new Map();
    doc.__ae_fit_W = 0;  // until the page is measured at its new size
    if (!rec) return;
    rec.forEach(function (r, m) {
      var back = {};
      Object.keys(r).forEach(function (k) {
        if (k === "el_width") { if (r[k].el) r[k].el.style.width = r[k].was; return; }
        if (same_value(m[k], r[k].now)) back[k] = r[k].was;
      });
      if (Object.keys(back).length) m.setv(back, { sync: false });
      if ("styles" in back) {
        // BokehJS writes a model's styles onto its element and leaves a key that is gone in place.
        var sv = view_of(m), gone = Object.keys(r.styles.now || {}).filter(function (k) { return !(k in (r.styles.was || {})); });
        if (sv && sv.el) gone.forEach(function (k) { sv.el.style.removeProperty(k); });
      }
      if ("orientation" in back) { var v = view_of(m); if (v && typeof v.rerender === "function") v.rerender(); }
    });
  }

  var room_listeners = [];
  // fn(room) after a resize changed the room (a plate that lays out its own rows, multi-head).
  function on_room(fn) { room_listeners.push(fn); }

  // fn() once Bokeh has laid the page out (it lays out asynchronously), unless a resize has
  // started a newer fit meanwhile.
  function when_laid_out(doc, fn) {
    var g = doc.__ae_fit_gen || 0;
    (function settled() {
      if (g !== (doc.__ae_fit_gen || 0)) return;
      if (doc.is_idle === false) return setTimeout(settled, 30);
      requestAnimationFrame(function () { requestAnimationFrame(function () { setTimeout(function () {
        if (g === (doc.__ae_fit_gen || 0)) fn();
      }, 100); }); });
    })();
  }

  function refit_on_resize(doc) {
    if (doc.__ae_resize || typeof window === "undefined") return;
    doc.__ae_resize = true;
    var timer = null, last = [window.innerWidth, room()];
    window.addEventListener("resize", function () {
      clearTimeout(timer);
      if (window.innerWidth !== last[0]) doc.__ae_resizing = true;  // a new fit is coming
      timer = setTimeout(function () {
        doc.__ae_resizing = false;
        if (window.innerWidth === last[0]) return;  // a phone's toolbar changed the height only
        var r = room(), room_changed = r !== last[1];
        last = [window.innerWidth, r];
        doc.__ae_fit_gen = (doc.__ae_fit_gen || 0) + 1;
        doc.__ae_fit_done = -1;
        unfit(doc);
        if (room_changed) room_listeners.forEach(function (fn) { fn(r); });
        when_laid_out(doc, function () { fit_narrow(doc, 0); });
      }, 200);
    });
  }

  function fit_narrow(doc, pass, W) {
    if (typeof document === "undefined" || !doc) return;
    refit_on_resize(doc);
    pass = pass || 0;
    var gen = doc.__ae_fit_gen || 0;
    if (pass === 0 && !narrow_width() && !doc.__ae_fit_measured) {
      // A wide screen is fitted only if the page overflows it, which is known once the page is
      // laid out: measured earlier, a passing overflow would wrap a layout that fits.
      doc.__ae_fit_measured = true;
      doc.__ae_fit_done = -1;
      when_laid_out(doc, function () { fit_narrow(doc, 0); });
      return;
    }
    if (pass === 0) { W = fit_width(); doc.__ae_fit_W = W; doc.__ae_fit_done = -1; }
    else W = doc.__ae_fit_W;
    if (!W) { doc.__ae_fit_done = gen; return; }
    var changed = false;
    if (!doc.__ae_refit) {
      // A plate that resizes a figure after a change (more heads, a wider model) is fitted again.
      doc.__ae_refit = true;
      Array.from(doc.all_models || []).forEach(function (m) {
        if (m.type !== "Figure") return;
        m.properties.frame_width.change.connect(function () {
          if (!doc.__ae_fit_W) return;
          clearTimeout(doc.__ae_refit_timer);
          doc.__ae_refit_timer = setTimeout(function () { if (doc.__ae_fit_W) fit_narrow(doc, 1); }, 150);
        });
      });
    }
    Array.from(doc.all_models || []).forEach(function (m) {
      if (m.type === "GridBox" && m.children.some(function (c) { return c[2] > 0; })) {
        // A grid wider than the screen becomes one column, column by column (what reads side by
        // side on a wide screen reads top to bottom).
        var right = 0;  // the grid's own box may be narrower than its children
        m.children.forEach(function (c) {
          var cv = view_of(c[0]), cr = cv && cv.el && cv.el.getBoundingClientRect();
          if (cr && cr.width > 0) right = Math.max(right, cr.right);
        });
        if (right > W - 4) {
          var kids = m.children.slice().sort(function (p, q) { return p[2] - q[2] || p[1] - q[1]; });
          fit_set(doc, m, { children: kids.map(function (c, i) { return [c[0], i, 0]; }) });
          changed = true;
        }
        return;
      }
      if (/Row$/.test(m.type) && m.styles !== undefined && !(m.styles && m.styles["flex-wrap"])) {
        var st = Object.assign({}, m.styles || {});
        st["flex-wrap"] = "wrap";
        fit_set(doc, m, { styles: st });
        changed = true;
      }
      if (m.type === "Figure" && m.frame_width && !(m.styles && m.styles["flex-grow"] === "0")) {
        // A figure alone on a wrapped row's line would grow to the line and stretch its frame.
        fit_set(doc, m, { styles: Object.assign({}, m.styles || {}, { "flex-grow": "0" }) });
        changed = true;
      }
      var v = view_of(m);
      if (m.type === "Div" && m.height && v && v.el && v.el.scrollHeight > m.height + 2) {
        // A text box of fixed height whose words take more lines on a narrow screen: let it grow.
        fit_set(doc, m, { height: null, min_height: m.height });
        changed = true;
      }
      if (!v || !v.el || !("width" in m.properties) || /GlyphRenderer|Axis|Grid|Title|Legend/.test(m.type)) return;
      var r = v.el.getBoundingClientRect();
      if (/ButtonGroup$/.test(m.type) && m.orientation === "horizontal") {
        // A row of buttons may overflow its own box: stack it when its buttons still pass the
        // edge once the rows have wrapped (pass 0 wraps them).
        if (pass === 0) return;
        var right = r.right;
        (v.el.shadowRoot || v.el).querySelectorAll(".bk-btn").forEach(function (b) { right = Math.max(right, b.getBoundingClientRect().right); });
        if (right > W - 4) {
          fit_set(doc, m, { orientation: "vertical", width: null });
          // Bokeh builds the group's buttons with its orientation once: build them again.
          if (typeof v.rerender === "function") v.rerender();
          changed = true;
        }
        return;
      }
      if (!(r.width > 0) || r.right <= W - 4) return;
      // Rows wrap first (pass 0); after that only what starts a line and still passes the edge
      // shrinks: anything further right moves to the next line when its row wraps.
      if (pass === 0 || r.left > 48) return;
      var avail = Math.floor(W - 8 - Math.max(0, r.left));
      if (avail < 120) return;
      var k = avail / r.width;
      if (m.type === "Figure") {
        var props = {};
        if (m.frame_width) { props.frame_width = Math.floor(m.frame_width * k); if (m.frame_height) props.frame_height = Math.floor(m.frame_height * k); }
        else { props.width = Math.floor(r.width * k); if (m.height) props.height = Math.floor(m.height * k); }
        fit_set(doc, m, props);
      } else {
        var wp = { width: avail };
        if ("min_width" in m.properties && m.min_width > avail) wp.min_width = avail;
        fit_set(doc, m, wp);
        // Panel's panes also fix their width in CSS on the element itself.
        if (v.el.style && v.el.style.width) {
          var rec = doc.__ae_fitted.get(m);
          if (!("el_width" in rec)) rec.el_width = { was: v.el.style.width, el: v.el };
          v.el.style.width = avail + "px";
        }
      }
      changed = true;
    });
    // A change moves what follows: measure again once the layout has settled.
    if ((changed || pass === 0) && pass < 4) setTimeout(function () {
      if ((doc.__ae_fit_gen || 0) === gen) fit_narrow(doc, pass + 1);
    }, 150);
    else doc.__ae_fit_done = gen;
  }
  // How far fitting has got (tests and benchmarks wait on it): gen counts the resizes that
  // started a new fit, and done is the last gen whose fit is finished (-1 while one runs).
  function fit_state(doc) {
    var done = doc.__ae_fit_done == null || doc.__ae_resizing ? -1 : doc.__ae_fit_done;
    return { gen: doc.__ae_fit_gen || 0, done: done, width: doc.__ae_fit_W || 0 };
  }

  // The page's one main landmark (axe: landmark-one-main, region): Bokeh renders the page as one
  // root layout, which holds the header, the plate and its explanation.
  function mark_main(doc) {
    if (typeof document === "undefined" || !doc || document.querySelector("main, [role=main]")) return;
    var root = doc.roots()[0], v = root && view_of(root);
    if (v && v.el) v.el.setAttribute("role", "main");
  }

  // Once per page: text alternatives on the figures, tables that follow their sources.
  function init(a, summary) {
    if (!a.a11y || a.a11y.__ae_ready) return;
    a.a11y.__ae_ready = true;
    mark_main(a.ae_tables && a.ae_tables.document);
    name_widgets(a.ae_tables && a.ae_tables.document);
    fit_narrow(a.ae_tables && a.ae_tables.document);
    var figs = a.a11y.figures || [];
    function alt_all() {
      var extra = summary ? summary() : "";
      figs.forEach(function (f) { describe(f.plot, f.alt + (f.main && extra ? " Now: " + extra : "")); });
    }
    alt_all();
    var timer = null;
    (a.a11y.tables || []).forEach(function (t) {
      t.source.change.connect(function () {
        refresh_tables(a);
        clearTimeout(timer);
        timer = setTimeout(function () {
          alt_all();
          if (summary) speak(summary(), 0);
        }, 800);
      });
    });
    // Bokeh may rebuild a view (a layout change): put the labels back on the new canvas.
    figs.forEach(function (f) { f.plot.change.connect(function () { setTimeout(alt_all, 0); }); });
  }

  // The words of a Div's HTML (a readout), for the live region.
  function text_of(html) {
    if (typeof document === "undefined") return "";
    var div = document.createElement("div");
    div.innerHTML = String(html).replace(/></g, "> <");  // spans and blocks read as words
    return div.textContent.replace(/\s+/g, " ").trim();
  }

  var api = {
    text_of: text_of, fit_narrow: fit_narrow, fit_state: fit_state, on_a_point: on_a_point, room: room, on_room: on_room, handles: handles, place: place, arrow: arrow, key_gesture: key_gesture, finish: finish, speak: speak,
    describe: describe, table_html: table_html, cell: cell, init: init, on_table_toggle: on_table_toggle,
    refresh_tables: refresh_tables,
  };
  if (typeof globalThis !== "undefined") globalThis.AEA11y = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AEA11y;
