// one_layout.js: many models resized or restyled in one layout of the page, not one each.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=one_layout).
//
// Replaces: LayoutDOMView.invalidate_layout and compute_layout of the layout roots, shadowed for
//   the duration of one change.
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: multi-head embedded at 960x540, fitting the plate to its frame 1956 -> 282 ms (-86 %). Off
//   and on in turn, benchmarks/workarounds.py.
// Upstream report: "Changing the size of many layout models lays the whole page out once per model
//   (synchronously, reading the DOM each time); a way to batch property changes into one layout (a
//   hold/unhold on the document's layout) would make a resize of a hundred models cost one layout."
(function (W) {
  "use strict";
  // Bokeh lays the whole page out again, synchronously, whenever one layout model's size, margin
  // or stylesheets change (LayoutDOMView.invalidate_layout climbs to the layout root, which runs
  // update_layout and compute_layout, reading the DOM each time), and a Div or a table that
  // re-renders asks its root for compute_layout too. Resizing a hundred models one by one cost a
  // hundred layouts: seconds per fitting round on a busy machine. While `fn` runs, each layout
  // root only notes that it is invalid; afterwards it lays out once.
  // The roots are found in one walk of the view tree (Bokeh.index.find_one walks all of it for
  // each model: ~70 ms per call here on the multi-head page).
  function layout_roots(doc) {
    if (typeof Bokeh === "undefined" || !Bokeh.index || typeof Bokeh.index.query !== "function") return [];
    var models = doc.all_models;
    return Array.from(Bokeh.index.query(function (v) {
      return v.is_layout_root === true && typeof v.invalidate_layout === "function" &&
        (models == null || typeof models.has !== "function" || models.has(v.model));
    }));
  }
  // With `next_frame`, the one layout waits for the next animation frame, and the roots go on
  // only noting until then. A change that sets new data on glyph renderers wants this: BokehJS
  // recomputes a renderer's glyphs in promises (GlyphRendererView.update_data awaits each step),
  // after the change's own code has returned, so a layout run at once paints every resized figure
  // with its old glyphs, and the renderers' updates paint the figures again before the frame (on
  // the multi-head page, three of four figures were drawn twice for each change of n). In the
  // frame, the layout runs before the repaints that the change asked for, draws each figure once
  // with its new glyphs, and leaves those repaints nothing to draw.
  //
  // `local`: figures that `fn` may resize and that can be laid out alone. A root's layout
  // restyles, measures and lays out every view of the page and repaints every figure (on the
  // multi-head page, a change of n resizes three figures of four and laid out ~100 views for
  // them). When nothing but these figures asked for a layout, each is laid out by itself instead
  // (lay_out_alone); the page around them flows by CSS, which is how BokehJS 3 places its views.
  var held = null;  // the document whose roots (and local figures) wait for the next frame
  function one_layout(doc, fn, next_frame, local) {
    if (held != null && held.doc === doc) { note_local(held, local); fn(); return; }
    var roots = layout_roots(doc), dirty = [];
    var run = { doc: doc, shadows: [], dirty: dirty, alone: [] };
    roots.forEach(function (v) {
      shadow(run, v, ["invalidate_layout", "compute_layout"], function () { if (dirty.indexOf(v) < 0) dirty.push(v); });
    });
    note_local(run, local);
    var release = function () {
      run.shadows.forEach(function (s) { if (s.kept) s.view[s.name] = s.kept; else delete s.view[s.name]; });
      if (dirty.length) dirty.forEach(function (v) { if (!v.is_destroyed) v.invalidate_layout(); });
      else lay_out_alone(run.alone);
    };
    if (!next_frame || typeof requestAnimationFrame !== "function") {
      try { fn(); } finally { release(); }
      return;
    }
    // Asked for before `fn` runs, so that this frame callback comes before the figures' repaints
    // that `fn` asks for (a frame runs its callbacks in the order they were asked for).
    var frame = requestAnimationFrame(function () { held = null; release(); });
    held = run;
    try { fn(); } catch (e) { cancelAnimationFrame(frame); held = null; release(); throw e; }
  }
  // Own properties shadow a view's methods until release puts them back.
  function shadow(run, v, names, fn) {
    names.forEach(function (name) {
      run.shadows.push({ view: v, name: name, kept: Object.prototype.hasOwnProperty.call(v, name) ? v[name] : null });
      v[name] = fn;
    });
  }
  function note_local(run, models) {
    views_of(models || []).forEach(function (v) {
      if (run.shadows.some(function (s) { return s.view === v; })) return;
      shadow(run, v, ["invalidate_layout"], function () { if (run.alone.indexOf(v) < 0) run.alone.push(v); });
    });
  }
  // A model's view, looked up once (Bokeh.index.find_one walks the whole view tree per call).
  var view_cache = typeof WeakMap === "function" ? new WeakMap() : null;
  function views_of(models) {
    if (!view_cache || typeof Bokeh === "undefined" || !Bokeh.index || typeof Bokeh.index.query !== "function") return [];
    var fresh = function (m) { var v = view_cache.get(m); return v && !v.is_destroyed && v.model === m ? v : null; };
    var missing = models.filter(function (m) { return !fresh(m); });
    if (missing.length) {
      Array.from(Bokeh.index.query(function (v) { return missing.indexOf(v.model) >= 0; })).forEach(function (v) {
        if (!v.is_destroyed) view_cache.set(v.model, v);
      });
    }
    return models.map(fresh).filter(Boolean);
  }
  // A root's compute_layout, for these figures only: their own styles and panels, their boxes and
  // their ancestors' boxes (so that the ancestors' ResizeObservers find nothing changed and do
  // not lay the whole page out after all), then their layout, which repaints them. Every
  // figure's styles are written before the first box is read: one reflow of the page for all.
  var LAYOUT_STEPS = ["update_layout", "measure_layout", "update_bbox", "_compute_layout", "after_layout"];
  function lay_out_alone(views) {
    views = views.filter(function (v) { return !v.is_destroyed; });
    var plain = views.some(function (v) { return LAYOUT_STEPS.some(function (k) { return typeof v[k] !== "function"; }); });
    if (plain) { views.forEach(function (v) { v.invalidate_layout(); }); return; }  // another BokehJS: its own way
    views.forEach(function (v) { v.update_layout(); });
    views.forEach(function (v) { v.measure_layout(); });
    views.forEach(function (v) {
      v.update_bbox();
      for (var p = v.parent; p != null; p = p.parent) if (typeof p._update_bbox === "function") p._update_bbox();
    });
    views.forEach(function (v) { v._compute_layout(); v.after_layout(); });
  }

  W.define("one_layout", { bokeh: ["3.10", "3.11"], wrap: one_layout });
})(AEWorkarounds);
