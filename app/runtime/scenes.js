// scenes.js (AEScenes): a plate shown one scene at a time, for a lecture (app/shared/scenes.py
// says what a scene is). With ?present=1 or ?embed=1 the page shows the scene the link names
// (?scene=, else the first): the plate's other parts are hidden, the type is set for the frame
// (no text under min_px at a 960×540 slide, the scene's main numbers at main_px, both growing with
// the frame), and the scene's figures and controls are sized to fill the frame (AEPage.fit). A
// present page also gets a bar with the scene's title and buttons, and the presenter's keys
// (PageDown / PageUp, the arrow keys, Home / End) step through the scenes when no control has the
// focus; an embedded frame leaves its keys to the deck around it (AEPage's forward_keys). The
// plate's state is the same in every scene: a scene only chooses what is shown.
var AEScenes = (typeof globalThis !== "undefined" && globalThis.AEScenes) || (function () {
  "use strict";
  var S = null;  // this page's scenes while it shows them (one plate per page)
  var NAMES = [];  // the plate's scenes' names, on every page of it
  var STILL_HIDDEN = [];  // the controls a still picture leaves out (still())

  function named_parts(doc) {  // laid-out models with a name: figures, widgets, Divs, layouts
    var out = {};
    Array.from(doc.all_models || []).forEach(function (m) {
      if (!m.name || /^ae-lib-/.test(m.name) || !m.properties || !("sizing_mode" in m.properties)) return;
      (out[m.name] = out[m.name] || []).push(m);
    });
    return out;
  }
  function kids(m) {
    var out = [];
    if (Array.isArray(m.children)) m.children.forEach(function (c) { out.push(Array.isArray(c) ? c[0] : c); });
    if (m.child && typeof m.child === "object") out.push(m.child);
    return out.filter(function (c) { return c && c.properties && "visible" in c.properties; });
  }
  // Every laid-out model under the page's roots, children before their parents.
  function layout_order(doc) {
    var out = [], seen = new Set();
    function walk(m) {
      if (seen.has(m)) return;
      seen.add(m);
      kids(m).forEach(walk);
      out.push(m);
    }
    (doc.roots ? doc.roots() : []).forEach(walk);
    return out;
  }

  // A scene hides a model by setting `visible`, and remembers the plate's own value, which it
  // gives back when a later scene shows the model again. A plate that sets a hidden part's
  // `visible` meanwhile (an error message appearing, masking.js's contrast switch choosing which
  // figure of a pair is shown) is noted and the part stays hidden until its scene comes. The note
  // is taken in setv, not from the property's change signal: hiding a part the scene already hides
  // changes nothing, no signal comes, and the scene would show the part again with its partner.
  function conceal(m) {
    if (S.own.has(m)) return;
    S.own.set(m, m.visible);
    if (m.visible) { S.setting = true; m.setv({ visible: false }, { sync: false }); S.setting = false; }
    watch(m);
  }
  // Every change reaches a model through setv: its property setters, a served page's patches.
  function watch(m) {
    if (m.__ae_scene_watch || !m.properties.visible) return;
    m.__ae_scene_watch = true;
    var setv = m.setv;
    m.setv = function (attrs, opts) {
      var noted = !!S && !S.setting && S.own.has(m) && !!attrs && "visible" in attrs;
      if (noted) S.own.set(m, !!attrs.visible);  // the plate's own value: kept for later
      var out = setv.call(m, attrs, opts);
      if (noted && m.visible) { S.setting = true; setv.call(m, { visible: false }, { sync: false }); S.setting = false; }
      return out;
    };
  }
  function reveal(m) {
    if (!S.own.has(m)) return;
    var was = S.own.get(m);
    S.own.delete(m);
    if (was && !m.visible) { S.setting = true; m.setv({ visible: true }, { sync: false }); S.setting = false; }
  }

  function show(i) {
    var scene = S.list[i], parts = named_parts(S.doc), keep = new Set();
    if (i !== S.i) S.dropped = [];
    S.i = i;
    // A part and everything inside it is shown; so are the page parts the mode keeps.
    function keep_all(m) { if (keep.has(m)) return; keep.add(m); kids(m).forEach(keep_all); }
    scene.parts.filter(function (p) { return S.dropped.indexOf(p) < 0; }).concat(S.keep)
      .forEach(function (name) { (parts[name] || []).forEach(keep_all); });
    var order = layout_order(S.doc);
    order.forEach(function (m) {
      if (!S.parts.has(m.name) || S.user_hidden.indexOf(m.name) >= 0) return;
      if (keep.has(m)) reveal(m); else conceal(m);
    });
    // A layout whose every child is hidden takes no room either (its margins and gaps would).
    order.forEach(function (m) {
      var ks = kids(m);
      if (!ks.length || S.parts.has(m.name)) return;
      var any = ks.some(function (c) { return c.visible !== false; });
      if (any) reveal(m); else conceal(m);
    });
    S.main = main_models(scene);
    mark_main_divs();
    bar();
    if (S.fit) S.fit.refit(S.main);
  }

  // The models whose text carries the scene's main numbers: a main figure's labels and text
  // glyphs (not its axes and title), a main Div's text.
  function main_models(scene) {
    var parts = named_parts(S.doc), out = new Set();
    scene.main.forEach(function (name) {
      (parts[name] || []).forEach(function (m) {
        if (Array.isArray(m.renderers)) {
          m.renderers.forEach(function (r) { if (r.glyph && "text_font_size" in r.glyph.properties) out.add(r.glyph); });
          (m.center || []).forEach(function (a) { if (/^(LabelSet|Label)$/.test(a.type)) out.add(a); });
        } else out.add(m);
      });
    });
    return out;
  }

  // A main Div's text (a readout, a table of the numbers) is all at the main size: its sheet raises
  // the floor the fitted sheets keep (page.js's css_fitted).
  var MAIN_CSS = ":host { --ae-min-font: var(--ae-main-font); }";
  function mark_main_divs() {
    Array.from(S.doc.all_models || []).forEach(function (m) {
      if (!("text" in (m.properties || {})) || !Array.isArray(m.stylesheets)) return;
      var has = m.stylesheets.indexOf(MAIN_CSS) >= 0, want = S.main.has(m);
      if (has === want) return;
      var sheets = want ? m.stylesheets.concat([MAIN_CSS]) : m.stylesheets.filter(function (x) { return x !== MAIN_CSS; });
      m.setv({ stylesheets: sheets }, { sync: false });
    });
  }

  // --- the present page's bar: where the lecture is, and buttons for a mouse ------------------
  function esc(t) { return AEPage.html_escape(t); }
  function bar() {
    if (!S.present || S.embed || !S.bar) return;
    var scene = S.list[S.i], n = S.list.length;
    // The scene's title first and largest; the plate's name, which may be long, last.
    var html = "<nav class='ae-scene-bar' aria-label='scenes'>" +
      "<h1 class='ae-scene-title'>" + esc(scene.title) + "</h1>" +
      "<span class='ae-scene-count'>" + (S.i + 1) + " / " + n + "</span>" +
      "<button type='button' class='ae-scene-go' data-go='-1' aria-label='Previous scene'" + (S.i === 0 ? " disabled" : "") + ">◀</button>" +
      "<button type='button' class='ae-scene-go' data-go='1' aria-label='Next scene'" + (S.i === n - 1 ? " disabled" : "") + ">▶</button>" +
      "<button type='button' class='ae-copy ae-embed'>Copy embed code</button><span class='ae-copied' role='status'></span>" +
      "<span class='ae-scene-plate'>" + esc(S.title) + "</span>" +
      "</nav>";
    S.bar.setv({ text: html, visible: true }, { sync: false });
  }
  function wire_bar() {
    var v = S.bar && typeof Bokeh !== "undefined" && Bokeh.index ? Bokeh.index.find_one(S.bar) : null;
    var root = v && v.el && v.el.shadowRoot;
    if (!root || root.__ae_scenes) return;
    root.__ae_scenes = true;
    root.addEventListener("click", function (ev) {
      var b = ev.target && ev.target.closest ? ev.target.closest(".ae-scene-go, .ae-copy") : null;
      if (!b) return;
      if (b.classList.contains("ae-copy")) AEPage.copy_link(root, true);
      else go(S.i + Number(b.getAttribute("data-go")));
    });
  }

  function go(i) {
    if (!S || i < 0 || i >= S.list.length || i === S.i) return;
    show(i);
    AELink.write(["scene"], function () { return { scene: S.list[S.i].name }; }, "scene");
    if (typeof AEA11y !== "undefined") AEA11y.speak("Scene " + (i + 1) + " of " + S.list.length + ": " + S.list[i].title, 0);
  }

  // The presenter's keys: a clicker sends PageDown / PageUp (some send the arrow keys). A control
  // with the focus keeps its keys (a slider's arrows, a point's handle): AEPage.KEEPS_KEYS.
  var NEXT = ["PageDown", "ArrowRight", "ArrowDown", " "], PREV = ["PageUp", "ArrowLeft", "ArrowUp"];
  function on_key(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.composedPath ? ev.composedPath()[0] : ev.target;
    if (t && t.closest && t.closest(AEPage.KEEPS_KEYS)) return;
    var i = NEXT.indexOf(ev.key) >= 0 ? S.i + 1 : PREV.indexOf(ev.key) >= 0 ? S.i - 1
      : ev.key === "Home" ? 0 : ev.key === "End" ? S.list.length - 1 : null;
    if (i === null) return;
    ev.preventDefault();
    go(Math.max(0, Math.min(S.list.length - 1, i)));
  }

  // A frame too small for the whole scene at its type (a 480×320 box on a course page) shows less,
  // never smaller: the scene's parts go one by one, the last listed first, its main numbers last,
  // until what is left fits; one part always stays. A new frame size starts from the whole scene.
  function droppable(scene) {
    var rest = scene.parts.filter(function (p) { return S.dropped.indexOf(p) < 0; });
    if (rest.length < 2) return null;
    var plain = rest.filter(function (p) { return scene.main.indexOf(p) < 0; });
    return (plain.length ? plain : rest).slice(-1)[0];
  }
  function less(fits) {
    if (fits) return false;
    var scene = S.list[S.i], part = droppable(scene), parts = named_parts(S.doc);
    if (!part) return false;
    S.dropped.push(part);
    (parts[part] || []).forEach(conceal);
    S.main = main_models(scene);
    S.fit.refit();
    return true;
  }

  // The scene's parts at their share of the frame (the scene's `sizes`), in pixels by model id. A
  // figure's share holds its axes and title too; one that keeps its shape gets a frame of its own
  // proportions, its axes' room estimated from the type (the fit corrects the estimate).
  var GAP = 24;  // room between two parts (their margins, and air between a title and the next)
  function sizes(w, h, type) {
    var scene = S.list[S.i], parts = named_parts(S.doc), out = {};
    if (!S.size || S.size[0] !== w || S.size[1] !== h) {  // a new frame: the whole scene again
      S.size = [w, h];
      S.dropped.forEach(function (p) { (parts[p] || []).forEach(reveal); });
      S.dropped = [];
    }
    var bar_el = S.bar && S.bar.visible && Bokeh.index.find_one(S.bar);
    var top = bar_el && bar_el.el ? bar_el.el.getBoundingClientRect().height : 0;
    var W = w - GAP, H = h - top - GAP;
    Object.keys(scene.sizes || {}).forEach(function (name) {
      var share = scene.sizes[name];
      (parts[name] || []).forEach(function (m) {
        var want = {}, sw = share[0] != null ? share[0] * W - GAP : null, sh = share[1] != null ? share[1] * H - GAP : null;
        var square = Array.isArray(m.tags) && m.tags.indexOf("ae-keep-shape") >= 0;
        if (square && Array.isArray(m.renderers)) {
          // Its frame's own proportions (two heads side by side are twice as wide as tall).
          var aspect = typeof m.frame_width === "number" && m.frame_height > 0 ? m.frame_width / m.frame_height : 1;
          var fw = sw != null ? sw - 3.5 * type.min_px - 16 : Infinity, fh = sh != null ? sh - 5 * type.min_px - 24 : Infinity;
          var tall = Math.min(fh, fw / aspect);
          if (isFinite(tall)) {
            want.frame_height = Math.max(80, Math.round(tall));
            want.frame_width = Math.max(80, Math.round(tall * aspect));
          }
        } else {
          if (sw != null) want.width = Math.max(40, Math.round(sw));
          if (sh != null) want.height = Math.max(40, Math.round(sh));
        }
        out[m.id] = want;
      });
    });
    return out;
  }

  // The type for a frame of w × h: a 960×540 slide's rules, scaled with the frame (its height, or
  // its width when the frame is narrower than 16:9). Never below the plain page's sizes.
  function type_for(w, h, opts) {
    var u = Math.min(h / opts.slide[1], w / opts.slide[0]);
    var min = S.present ? opts.min_px : opts.plain_min_px;
    var min_px = Math.max(min * Math.max(u, 0), opts.plain_min_px);
    return { min_px: min_px, main_px: Math.max(opts.main_px * u, opts.main_px * opts.plain_min_px / opts.min_px),
             unit: min_px / opts.min_px };
  }

  // `opts.scenes`: the plate's scenes (scenes.py's spec); `opts.scene_type`: its type rules;
  // `p`: the link's parameters. Returns whether the page shows scenes.
  function start(doc, opts, p) {
    var list = opts.scenes || [], present = p.get("present") === "1", embed = p.get("embed") === "1";
    NAMES = list.map(function (s) { return s.name; });
    // ?fit=0 keeps the page at its own size, all of it (the figure command's --figures): a scene
    // is a fit to the frame.
    if (!list.length || !(present || embed) || p.get("fit") === "0") return false;
    var want = p.get("scene"), i = 0;
    list.forEach(function (s, k) { if (s.name === want) i = k; });
    S = { doc: doc, list: list, i: -1, present: present, embed: embed, own: new Map(), setting: false, dropped: [], size: null,
          title: opts.title || "", bar: doc.get_model_by_name("ae-scene-bar"),
          keep: present && !embed ? ["ae-scene-bar", "ae-notices"] : [],
          user_hidden: (p.get("hide") || "").split(",").map(function (s) { return s.trim(); }).filter(Boolean).concat(STILL_HIDDEN),
          main: new Set(), fit: null,
          parts: new Set(opts.hideable || []) };  // the plate's parts and the page's (Python's hideable_names)
    document.documentElement.classList.add("ae-scene");
    add_scene_sheet(doc, opts.theme && opts.theme.scene_css);
    show(i);
    wire_bar();
    if (present && !embed) window.addEventListener("keydown", on_key);
    var rules = opts.scene_type;
    S.fit = AEPage.fit(doc, { type: function (w, h) { return type_for(w, h, rules); }, main: function () { return S.main; },
                              sizes: function (w, h) { return sizes(w, h, type_for(w, h, rules)); }, done: less });
    refit_when_it_grows();
    return true;
  }

  // Every model with its own sheets (Divs, widgets) gets the scene's: a formula's scripts and a
  // table's small print at the scene's smallest type too, with or without present mode.
  function add_scene_sheet(doc, css) {
    if (!css) return;
    Array.from(doc.all_models || []).forEach(function (m) {
      if (!Array.isArray(m.stylesheets) || !("visible" in (m.properties || {})) || /^ae-lib-/.test(m.name || "")) return;
      m.setv({ stylesheets: m.stylesheets.concat([css]) }, { sync: false });
    });
  }

  // What a scene shows can grow after its fit (a tap that empties a row adds a line of notes):
  // when the page then scrolls, the scene is fitted again.
  function refit_when_it_grows() {
    if (typeof ResizeObserver === "undefined") return;
    var html = document.documentElement, timer = null;
    new ResizeObserver(function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var st = S.fit && S.fit.state;
        if (!st || !st.settled) return;  // a fit is under way: it measures for itself
        if (html.scrollHeight > html.clientHeight + 1 || html.scrollWidth > html.clientWidth + 1) S.fit.refit();
      }, 100);
    }).observe(document.body);
  }

  // On the plate's page, a scene's link opens it in present mode with the state on screen.
  function wire_links(doc) {
    var m = doc.get_model_by_name("ae-header");
    var v = m && typeof Bokeh !== "undefined" && Bokeh.index ? Bokeh.index.find_one(m) : null;
    var root = v && v.el && v.el.shadowRoot;
    if (!root || root.__ae_scene_links) return;
    root.__ae_scene_links = true;
    root.addEventListener("click", function (ev) {
      var a = ev.target && ev.target.closest ? ev.target.closest("a.ae-scene-link") : null;
      if (!a) return;
      AELink.flush();
      var url = new URL(window.location.href);
      url.searchParams.delete("embed");
      url.searchParams.set("present", "1");
      url.searchParams.set("scene", a.getAttribute("data-scene"));
      a.setAttribute("href", url.href);  // followed as usual (a new tab keeps working too)
    });
  }

  // ?still=1, a picture for a slide or a handout (`attention-explorable figure`): nothing in it can
  // be operated, so its controls go, and the words that ask a hand to act (a figure's "Drag the
  // query…", "tap to flip") give way to the plate's still words (`still`: {part's name: words for a
  // figure's title, an axis's label or a Div's text; null hides the part}).
  var CONTROL = /(^|\.)(Slider|RangeSlider|RadioButtonGroup|CheckboxGroup|RadioGroup|CheckboxButtonGroup|Button|Toggle|Select|TextInput|TextAreaInput|Spinner|NumericInput|MultiChoice|MultiSelect)$/;
  function still(doc, words) {
    Array.from(doc.all_models || []).forEach(function (m) {
      if (!CONTROL.test(m.type || "") || !("visible" in m.properties)) return;
      if (m.name) STILL_HIDDEN.push(m.name);
      m.setv({ visible: false }, { sync: false });
    });
    Object.keys(words || {}).forEach(function (name) {
      var m = doc.get_model_by_name(name), w = words[name];
      if (!m) return;
      if (w === null) { STILL_HIDDEN.push(name); m.setv({ visible: false }, { sync: false }); }
      else if (m.title && typeof m.title === "object" && "text" in m.title.properties) m.title.setv({ text: w }, { sync: false });
      else if ("axis_label" in m.properties) m.setv({ axis_label: w }, { sync: false });
      else if ("text" in m.properties) m.setv({ text: w }, { sync: false });
    });
  }

  // The scene a frame copied from this page shows: the one on screen, else the plate's first.
  function on_screen() { return S ? S.list[S.i].name : (NAMES[0] || null); }

  function current() { return S ? { name: S.list[S.i].name, index: S.i, count: S.list.length } : null; }

  var api = { start: start, go: go, current: current, on_screen: on_screen, wire_links: wire_links, still: still };
  if (typeof globalThis !== "undefined") globalThis.AEScenes = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AEScenes;
