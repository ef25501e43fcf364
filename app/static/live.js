/* AELive: shared helpers for the live path (loaded once per page with mirror.js and page.js).
 *
 * Why: BokehJS answers any change of a Div's text by re-rendering the Div and then re-running
 * the layout of the whole document (MarkupView -> LayoutDOMView.rerender -> compute_layout of
 * the root: every plot measures its axes and labels again). On the lookup plate that was ~65 %
 * of the JavaScript per pointer move. During a gesture only the words change, so AELive.text
 * sets the model (the model always holds the text, for Python and the tests) and writes the new
 * HTML into the Div's own element without that relayout. Once the page has been still for
 * SETTLE_MS, each Div touched this way is re-rendered once the ordinary way, so a text that
 * changed height still gets its layout.
 *
 * Two more costs of BokehJS 3.10 that every plate pays at each move (found with
 * benchmarks/profile_live.py): each paint rewrites the <style> of every renderer's element with
 * the same text (about 40 style sheets re-parsed per move on the lookup plate, then a style
 * recalculation each time a visual reads a CSS value): AELive.quiet_styles skips a rewrite that
 * changes nothing. And DOM views that repeat the plots' numbers (the lookup's table) need not
 * follow every move: AELive.throttle runs such an update at most every few frames, always ending with the
 * latest numbers. AELive.local_layout keeps a fixed-size figure's relayout inside the figure,
 * AELive.axes_on_change measures a figure's axes only after something they are drawn from changed,
 * AELive.coalesce_updates makes the several recomputations of a renderer that one change starts one;
 * AELive.quick_text draws a Text glyph's one-line labels with one fillText each, the canvas state set
 * once per glyph, AELive.lazy_text_copies leaves a Text glyph's never-drawn copies unmeasured until drawn,
 * AELive.lazy_copies leaves every renderer's copies of its glyph alone until one is drawn,
 * AELive.quick_marker_masks finds a scatter's markers near the frame without building models,
 * AELive.raw_moves hands a drag's move to BokehJS when it arrives rather than at the next frame,
 * AELive.quiet_slider_echo spares a slider the rebuild of its handle when only its value changed,
 * AELive.later_positions places the glyph renderers' empty elements once the page is still, not at each paint,
 * AELive.unset_css_values answers the visuals' questions about `--bk-` CSS properties, which no
 * sheet of these pages sets, without a style recalculation each, and AELive.quiet_equal_data
 * keeps Python's answer to a change the page has already drawn from drawing it again.
 * AELive.index_when_asked builds a glyph's spatial index when something first asks for it (a hover, a
 * data range, a mask), not at every change of its data, and skips a figure's data-range bounds
 * when it has no data range.
 * AELive.axes_once measures an axis's labels once per repaint of its figure, not two or three times.
 * AELive.paints_next_frame paints a figure at the next animation frame, not a frame later when its
 * last paint was less than 1000/60 ms before (BokehJS's own throttle).
 * AELive.sends_later sends a served page's changes to Python in one message once the frame that
 * shows them is painted, not one message per change before it.
 * AELive.quiet_tooltips leaves a hover's tooltip alone while the pointer stays in one cell, and
 * places it without taking it out of the page and putting it back when the pointer reaches another.
 * AELive.hidden_figures_wait lets a figure that is not shown skip its renderers' updates and its
 * layout until it is shown.
 * AELive.early puts the patches that lighten a document's first build on BokehJS's classes
 * before the page's document is built.
 */
var AELive = (typeof globalThis !== "undefined" && globalThis.AELive) || (function () {
  "use strict";
  var SETTLE_MS = 1000;  // a pause this long ends a gesture (a drag, a run of key presses)
  var light = false;      // true while AELive.text sets a model: its Div view skips the relayout
  var touched = [];       // views written without a relayout since the page was last still
  var timer = null;

  // Bokeh.index.find_one walks every view of the page (0.2-0.4 ms a call here); a Div's view
  // lives as long as the page unless its parent is rebuilt, so it is remembered until destroyed.
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

  // Teach one Div view to take a text change without the relayout while `light` is on.
  function patch(view) {
    if (view.__ae_light) return;
    var full = view.rerender;
    view.__ae_light = true;
    view.__ae_full_rerender = full;
    view.rerender = function () {
      var math = !this.model.disable_math && typeof this.contains_tex_string === "function" &&
        this.contains_tex_string(this.model.text);
      if (!light || math || this.markup_el == null) return full.apply(this, arguments);
      this.markup_el.innerHTML = this.model.text;
      if (touched.indexOf(this) < 0) touched.push(this);
    };
  }

  function settle() {
    timer = null;
    var views = touched;
    touched = [];
    views.forEach(function (v) { v.__ae_full_rerender.call(v); });
  }

  // Set a Div's text in this browser only (sync: false), without Bokeh's relayout.
  function text(model, html) {
    if (model.text === html) return;
    var v = view_of(model);
    if (v == null || typeof v.rerender !== "function") { model.setv({ text: html }, { sync: false }); return; }
    patch(v);
    light = true;
    try { model.setv({ text: html }, { sync: false }); } finally { light = false; }
    if (touched.length) { clearTimeout(timer); timer = setTimeout(settle, SETTLE_MS); }
  }

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

  // A figure whose axes change size (new factors when n changes, longer tick labels) lays itself
  // out again at its next paint, and BokehJS 3.10 does that by laying out the whole document from
  // its root (PlotView._invalidate_layout_if_needed -> compute_layout, which climbs to the root:
  // about 60 ms on the masking page, twice per step of n). A figure of fixed width and height
  // keeps its outer box whatever its axes do (its frame gives way), so nothing around it can
  // move: for those the layout stays inside the figure. A figure sized by its frame or stretched
  // by its container is left as it is: its outer box may change, and the page must follow.
  function fixed_box(m) {
    return typeof m.width === "number" && typeof m.height === "number" && m.frame_width == null &&
      m.frame_height == null && (m.sizing_mode == null || m.sizing_mode === "fixed") &&
      ["auto", "fixed"].indexOf(m.width_policy || "auto") >= 0 && ["auto", "fixed"].indexOf(m.height_policy || "auto") >= 0;
  }
  // Each figure of the document with its view: [model, view] (local_layout and axes_on_change
  // patch the views one by one).
  function figure_views(doc) {
    if (typeof Bokeh === "undefined" || !Bokeh.index || !doc) return [];
    return Array.from(doc.all_models || []).filter(function (m) { return m.type === "Figure"; })
      .map(function (m) { return [m, view_of(m)]; }).filter(function (mv) { return mv[1] != null; });
  }
  function local_layout(doc) {
    var patched = 0;
    figure_views(doc).forEach(function (mv) {
      var v = mv[1];
      if (v.__ae_local || typeof v._invalidate_layout_if_needed !== "function" ||
          typeof v.measure_layout !== "function" || typeof v._compute_layout !== "function") return;
      v.__ae_local = true;
      var own = v._invalidate_layout_if_needed;
      v._invalidate_layout_if_needed = function () {
        if (!fixed_box(this.model) || !this.is_managed) return own.apply(this, arguments);
        var view = this;
        this.compute_layout = function () {
          view.measure_layout();
          view.update_bbox();
          view._compute_layout();
          view.after_layout();
          view._layout_computed = true;
        };
        try { return own.apply(this, arguments); } finally { delete this.compute_layout; }
      };
      patched += 1;
    });
    return patched;
  }

  // Before each paint BokehJS 3.10 asks every axis of the figure whether its size changed
  // (PlotView._invalidate_layout_if_needed -> SideLayout.has_size_changed), and to answer it
  // measures every tick label again: about 1.3 ms per figure per paint, a sixth of a slider press
  // on the lookup plate. An axis can only change size when something it is drawn from changes:
  // the figure (its size, its list of axes), a range (new ticks, new factors), or the axis and
  // what it refers to (ticker, formatter, label, fonts). Their change signals now mark the figure;
  // an unmarked figure skips the question, a marked one asks it as before, and a layout BokehJS
  // has asked for itself (_needs_layout) always goes through. Installed over local_layout's wrapper.
  function values_of(x) {
    if (x == null) return [];
    if (typeof x.values === "function" && !Array.isArray(x)) return Array.from(x.values());
    return Object.keys(x).map(function (k) { return x[k]; });
  }
  function axes_on_change(doc) {
    var patched = 0;
    figure_views(doc).forEach(function (mv) {
      var m = mv[0], v = mv[1];
      if (v.__ae_axes || typeof v._invalidate_layout_if_needed !== "function" || typeof v.connect !== "function" ||
          !Array.isArray(m.side_panels) || typeof m.references !== "function") return;
      var from = [m, m.x_range, m.y_range].concat(values_of(m.extra_x_ranges), values_of(m.extra_y_ranges));
      m.side_panels.forEach(function (p) { from.push(p); from = from.concat(Array.from(p.references())); });
      v.__ae_axes = true;
      v.__ae_axes_changed = true;
      var mark = function () { v.__ae_axes_changed = true; };
      from.forEach(function (x) {
        if (x == null) return;
        if (x !== m) { if (x.change != null) v.connect(x.change, mark); return; }
        // The figure's own properties one by one: its tags change at every gesture (the live
        // path's "busy"), and they, like its name, move no axis.
        Object.keys(x.properties || {}).forEach(function (k) {
          var prop = x.properties[k];
          if (k !== "tags" && k !== "name" && prop != null && prop.change != null) v.connect(prop.change, mark);
        });
      });
      var inner = v._invalidate_layout_if_needed;
      v._invalidate_layout_if_needed = function () {
        if (!this._needs_layout && !this.__ae_axes_changed) return;
        this.__ae_axes_changed = false;
        return inner.apply(this, arguments);
      };
      patched += 1;
    });
    return patched;
  }

  // A renderer recomputes its glyphs (set_data, then set_visuals, which for a Text glyph measures
  // every label five times over: the glyph and its selection, nonselection, muted and decimated
  // copies) on each of several signals that one change of n sends in turn: its source's data, its
  // view's new indices, and each factor range's new factors. The plates set all of these in one
  // synchronous run, so BokehJS 3.10 computed each renderer three or four times over, and then once
  // more because set_data's own update of the view's `masked` indices starts set_visuals again
  // with the same inputs. Here the updates asked for in one run become one, in a microtask (before
  // the next frame is painted), and the repeat from `masked` is skipped. A partial update (a
  // patch, with indices) goes through at once as before. Patched once per page, on the class that
  // every glyph renderer's view shares.
  function coalesce_updates(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.glyph != null && typeof v.update_data === "function" && typeof v.set_visuals === "function" &&
        typeof v._update_masked_indices === "function";
    });
    if (r == null) return false;
    var proto = owner_of(r, "update_data");
    if (!proto || !Object.prototype.hasOwnProperty.call(proto, "_update_masked_indices") ||
        !Object.prototype.hasOwnProperty.call(proto, "set_visuals")) return false;
    if (proto.__ae_coalesced) return true;
    var update_data = proto.update_data, update_masked = proto._update_masked_indices,
      set_visuals = proto.set_visuals;
    proto.update_data = function (indices) {
      if (indices != null) return update_data.call(this, indices);
      if (this.__ae_pending) return this.__ae_pending;
      var self = this;
      this.__ae_pending = Promise.resolve().then(function () {
        self.__ae_pending = null;
        return update_data.call(self);
      });
      return this.__ae_pending;
    };
    proto._update_masked_indices = function () {
      this.__ae_masking = true;
      try { return update_masked.apply(this, arguments); } finally { this.__ae_masking = false; }
    };
    proto.set_visuals = function () {
      if (this.__ae_masking) return Promise.resolve();  // set_data has just run it
      return set_visuals.apply(this, arguments);
    };
    proto.__ae_coalesced = true;
    return true;
  }

  // A renderer keeps up to five copies of its glyph (selection, nonselection, hover, muted
  // and decimated looks) and recomputes each with the glyph; a Text glyph's copy measures every one of
  // its labels again (after_visuals), although the plates never select, mute or decimate, so no
  // copy is drawn. A copy now measures its labels when it is first drawn after a change, if ever;
  // the renderer's own glyph measures at once, as before. Patched once per page, on the Text
  // glyph view's class.
  function lazy_text_copies(doc) {
    if (!doc) return false;
    var r = first_view(function (v) { return v.glyph != null && v.glyph.model != null && v.glyph.model.type === "Text"; });
    return r != null && text_copies_wait(owner_of(r.glyph, "after_visuals"));
  }
  function text_copies_wait(proto) {  // proto: the Text glyph view's class
    if (!proto || !Object.prototype.hasOwnProperty.call(proto, "after_visuals") ||
        !Object.prototype.hasOwnProperty.call(proto, "_paint")) return false;
    if (proto.__ae_lazy) return true;
    var after_visuals = proto.after_visuals, paint = proto._paint;
    proto.after_visuals = function () {
      var r = this.parent;
      if (r != null && r.glyph != null && r.glyph !== this) { this.__ae_stale = true; return; }
      this.__ae_stale = false;
      return after_visuals.apply(this, arguments);
    };
    proto._paint = function () {
      if (this.__ae_stale) { this.__ae_stale = false; after_visuals.call(this); }
      return paint.apply(this, arguments);
    };
    proto.__ae_lazy = true;
    return true;
  }

  // BokehJS 3.10 draws a Text glyph's labels one by one through a TextBox (TextView._paint ->
  // TextBox.paint), and for each one saves and restores the canvas state, measures the label's
  // width again (measureText), scans its characters to choose a height metric, and strokes an
  // outline that is transparent: about a third of the paint of a heat map with its numbers on
  // it. A label of one line, unrotated and unsized, is drawn by one fillText at (0, ascent) in
  // the transform the glyph has set up for it; that same call, with the same font, colour and
  // transform, is now made directly, the canvas state set once per glyph and a font or colour only
  // when it changes. A glyph with a background, hatch or border is drawn as BokehJS draws it; so
  // is any other label (several lines, an angle, a size) and a visible outline. Patched once per
  // page, on the Text glyph view's class.
  var CLEAR_INK = / \/ 0\)$/;  // color2css of a transparent colour, "rgb(0 0 0 / 0)"
  function plain_label(label) {
    var p = label.position;
    return p != null && p.sx === 0 && p.sy === 0 && p.x_anchor === "left" && p.y_anchor === "top" &&
      (label.angle == null || label.angle === 0) && label.width == null && label.height == null &&
      (label.align == null || label.align === "auto") && typeof label.text === "string" &&
      label.text !== "" && label.text.indexOf("\n") < 0;
  }
  function quick_text(doc) {
    if (!doc) return false;
    var r = first_view(function (v) { return v.glyph != null && v.glyph.model != null && v.glyph.model.type === "Text"; });
    return r != null && text_paint_quickly(owner_of(r.glyph, "_paint"));
  }
  function text_paint_quickly(proto) {  // proto: the Text glyph view's class
    if (!proto || !Object.prototype.hasOwnProperty.call(proto, "_paint")) return false;
    if (proto.__ae_quick_text) return true;
    var metrics = null;
    try { metrics = Bokeh.require("core/util/text").font_metrics; } catch (e) { metrics = null; }
    if (typeof metrics !== "function") return false;
    var own = proto._paint;
    proto.__ae_own_text_paint = own;  // BokehJS's drawing, kept for the tests' comparison
    function ascent(label) {  // TextBox._text_line's ascent for a label of one line
      var m = label.text_height_metric;
      if (m == null) {
        if (label.__ae_metric === undefined) label.__ae_metric = label.infer_text_height();  // a label's text is fixed
        m = label.__ae_metric;
      }
      var fm = metrics(label.font);
      return m === "x" || m === "x_descent" ? fm.x_height : m === "cap" || m === "cap_descent" ? fm.cap_height : fm.ascent;
    }
    proto._paint = function (ctx, indices, data) {
      var v = this.visuals, labels = this.labels, anchor = this.anchor_;
      if (this.__ae_stale || v == null || v.text == null || labels == null || anchor == null || this.padding == null ||
          v.background_fill == null || v.background_hatch == null || v.border_line == null ||
          v.background_fill.doit || v.background_hatch.doit || v.border_line.doit ||
          ctx.globalCompositeOperation !== "source-over") return own.apply(this, arguments);
      // As BokehJS reads them ({...this, ...data}): `data`'s own, else the view's; the five read
      // here, not a copy of the whole view at every paint.
      var self = this, d = data != null ? data : {};
      var pick = function (k) { return Object.prototype.hasOwnProperty.call(d, k) ? d[k] : self[k]; };
      var sx = pick("sx"), sy = pick("sy"), x_offset = pick("x_offset"), y_offset = pick("y_offset"), angle = pick("angle");
      var text = v.text, swidth = this.swidth, sheight = this.sheight, pad = this.padding;
      var font = null, fill = null;
      ctx.save();
      ctx.textAlign = "left";
      ctx.textBaseline = "alphabetic";
      try {
        for (var i of indices) {
          var sx_i = sx[i] + x_offset.get(i), sy_i = sy[i] + y_offset.get(i), angle_i = angle.get(i), label = labels[i];
          if (!isFinite(sx_i + sy_i + angle_i) || label == null) continue;
          var a = anchor.get(i), dx_i = a.x * swidth[i], dy_i = a.y * sheight[i];
          // The transform is built and undone step by step, as BokehJS does, to the same bits.
          ctx.translate(sx_i, sy_i);
          ctx.rotate(angle_i);
          ctx.translate(-dx_i, -dy_i);
          if (text.v_doit(i)) {
            ctx.translate(pad.left, pad.top);
            label.visuals = text.values(i);
            if (plain_label(label)) {
              var y = ascent(label);
              if (label.font !== font) ctx.font = font = label.font;
              if (label.color !== fill) ctx.fillStyle = fill = label.color;
              ctx.fillText(label.text, 0, y);
              if (!CLEAR_INK.test(label.outline_color)) {
                ctx.strokeStyle = label.outline_color;
                ctx.lineWidth = label.outline_width;
                ctx.strokeText(label.text, 0, y);
              }
            } else {
              label.paint(ctx);  // saves and restores the state set here
            }
            ctx.translate(-pad.left, -pad.top);
          }
          ctx.translate(dx_i, dy_i);
          ctx.rotate(-angle_i);
          ctx.translate(-sx_i, -sy_i);
        }
      } finally {
        ctx.restore();
      }
    };
    proto.__ae_quick_text = true;
    return true;
  }

  // A figure that is not shown (the masking plate's contrast pair, the worked plate's 2-D
  // pictures at other widths) still followed every change in BokehJS 3.10: its renderers
  // recomputed their glyphs (measuring every label of a Text glyph), and since its axes had never
  // been laid out (a box of 0 x 0) each paint found them resized and laid the figure out again:
  // ~2 ms per step of n on masking. Now, while a figure's own `visible` is false, its renderers'
  // updates and its layout wait; when it is shown, its painting is held until the renderers that
  // missed a change have caught up, so its first frame draws the current data. Figures are
  // registered one by one (those of the document when this runs); the updates wait on the class
  // every glyph renderer's view shares, only for a registered figure's renderers.
  function hidden_figures_wait(doc) {
    var r = first_view(function (v) { return v.glyph != null && typeof v.update_data === "function"; });
    var proto = r == null ? null : owner_of(r, "update_data");
    if (!proto) return 0;
    if (!proto.__ae_hidden_wait) {
      var update_data = proto.update_data;
      proto.update_data = function () {
        var pv = this.plot_view;
        if (pv != null && pv.__ae_hidden_wait === true && pv.model.visible === false) {
          this.__ae_hidden_stale = true;
          return Promise.resolve();
        }
        return update_data.apply(this, arguments);
      };
      proto.__ae_hidden_wait = true;
    }
    var patched = 0;
    figure_views(doc).forEach(function (mv) {
      var m = mv[0], v = mv[1];
      if (v.__ae_hidden_wait || typeof v._invalidate_layout_if_needed !== "function" || typeof v.pause !== "function" ||
          typeof v.unpause !== "function" || !v.renderer_views || m.properties == null || m.properties.visible == null)
        return;
      v.__ae_hidden_wait = true;
      var layout = v._invalidate_layout_if_needed;
      v._invalidate_layout_if_needed = function () {
        if (this.model.visible === false) return;  // its axes are measured once it is shown
        return layout.apply(this, arguments);
      };
      v.connect(m.properties.visible.change, function () {
        if (m.visible === false) return;
        var stale = Array.from(v.renderer_views.values()).filter(function (rv) { return rv.__ae_hidden_stale === true; });
        if (!stale.length) return;
        v.pause();
        Promise.all(stale.map(function (rv) { rv.__ae_hidden_stale = false; return rv.update_data(); }))
          .catch(function () {}).then(function () { v.unpause(); });
      });
      patched += 1;
    });
    return patched;
  }

  // A renderer keeps its glyph's copies (selection, nonselection, muted, decimated; hover when
  // set) up to date with the glyph: at each change of data each copy compares every property
  // with the glyph's and redefines it (set_data, set_visuals), and at each paint of the figure
  // each maps its coordinates again (map_data), whether or not its renderer changed. A copy is
  // drawn only when something is selected, hovered with a hover glyph, muted or decimated, which
  // no plate does; so until a renderer first needs its copies, their updates are skipped. At
  // that paint they are brought up to date (data, then visuals; the paint itself maps them) and
  // from then on follow the glyph as in BokehJS. Patched once per page, on the classes every
  // glyph renderer's view and every glyph view share.
  function copies_of(r) {
    return [r.selection_glyph, r.nonselection_glyph, r.hover_glyph, r.muted_glyph, r.decimated_glyph]
      .filter(function (g) { return g != null && g !== r.glyph; });
  }
  function waiting_copy(g) {  // a copy whose renderer has not yet needed its copies
    var r = g.parent;
    return r != null && r.glyph != null && r.glyph !== g && r.__ae_copies_live !== true;
  }
  function needs_copies(r) {  // the tests GlyphRendererView._paint makes before it draws a copy
    var m = r.model, src = m.data_source, pm = r.plot_model, doc = m.document;
    if (m.muted) return true;
    if (src.selected != null && !src.selected.is_empty()) return true;
    if (r.hover_glyph != null && src.inspected != null && !src.inspected.is_empty()) return true;
    var n = r.all_indices != null ? r.all_indices.count : 0;
    return doc != null && doc.interactive_duration() > 0 && pm != null && pm.lod_threshold != null &&
      n > pm.lod_threshold;
  }
  function lazy_copies(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.glyph != null && v.selection_glyph != null && typeof v.map_data === "function" &&
        typeof v._paint === "function" && typeof v.glyph.set_visuals === "function";
    });
    return r != null && copies_wait(owner_of(r, "_paint"), owner_of(r.glyph, "set_base"));
  }
  // rp: the glyph renderer view's class; gp: the glyph view's.
  function copies_wait(rp, gp) {
    if (!rp || !gp || !Object.prototype.hasOwnProperty.call(rp, "_paint") ||
        !["set_data", "set_visuals", "map_data"].every(function (k) { return Object.prototype.hasOwnProperty.call(gp, k); }))
      return false;
    if (rp.__ae_lazy_copies) return true;
    var set_data = gp.set_data, set_visuals = gp.set_visuals, map_data = gp.map_data, paint = rp._paint;
    gp.set_data = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return Promise.resolve(); }
      return set_data.apply(this, arguments);
    };
    gp.set_visuals = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return; }
      return set_visuals.apply(this, arguments);
    };
    gp.map_data = function () {
      if (waiting_copy(this)) { this.__ae_waiting = true; return; }
      return map_data.apply(this, arguments);
    };
    rp._paint = function () {
      if (this.__ae_copies_live !== true && needs_copies(this)) {
        this.__ae_copies_live = true;
        var source = this.model.data_source, all = this.all_indices;
        copies_of(this).forEach(function (g) {
          if (g.__ae_waiting !== true) return;
          g.__ae_waiting = false;
          g.set_data(source, all);  // its attributes are set at once; what it awaits is not drawn here
          g.set_visuals(source, all);
          g.after_visuals();
        });
      }
      return paint.apply(this, arguments);
    };
    rp.__ae_lazy_copies = true;
    rp.__ae_own = {_paint: paint};  // BokehJS's own methods, for the tests to compare with
    gp.__ae_own = {set_data: set_data, set_visuals: set_visuals, map_data: map_data};
    return true;
  }

  // Before drawing a scatter, BokehJS 3.10 keeps only the markers near the visible frame
  // (MarkerView._mask_data: the frame widened by the largest marker, mapped to data space, then a
  // spatial-index query). Widening and mapping go through Range1d.widen and .map, which build a
  // new Range1d model each (a full HasProps with its properties): four models, 0.2-0.6 ms per
  // renderer, twice per change (in set_data and again at paint); over the lookup's eight
  // scatters the main thread's work per slider step fell ~2.7 ms without them. The same
  // arithmetic on plain numbers gives the same four bounds and so the same markers. Patched once
  // per page, on the marker glyph view's class.
  function widened(range, by) {  // Range1d.widen's start and end, without the model
    return range.start > range.end ? [range.start + by, range.end - by] : [range.start - by, range.end + by];
  }
  function quick_marker_masks(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.glyph != null && v.glyph.model != null && v.glyph.model.type === "Scatter" &&
        typeof v.glyph._mask_data === "function";
    });
    if (r == null) return false;
    var proto = owner_of(r.glyph, "_mask_data");
    if (!proto) return false;
    if (proto.__ae_quick) return true;
    var mask = proto._mask_data;
    proto._mask_data = function () {
      var rv = this.renderer, frame = rv && rv.plot_view && rv.plot_view.frame;
      var xt = frame && frame.x_target, yt = frame && frame.y_target, by = this.max_size, index = this.index;
      if (xt == null || yt == null || typeof by !== "number" || index == null || typeof index.indices !== "function" ||
          typeof xt.start !== "number" || typeof yt.start !== "number" || typeof rv.xscale.invert !== "function" ||
          typeof rv.yscale.invert !== "function") return mask.apply(this, arguments);
      var h = widened(xt, by), v = widened(yt, by);
      return index.indices({
        x0: rv.xscale.invert(h[0]), x1: rv.xscale.invert(h[1]),
        y0: rv.yscale.invert(v[0]), y1: rv.yscale.invert(v[1]),
      });
    };
    proto.__ae_quick = true;
    return true;
  }

  // Chromium hands a pointer move to the page only at the start of the next frame (rAF-aligned
  // input), so a drag move's work (BokehJS's pan gesture, the plate's recompute: 2-6 ms) ran
  // inside the frame that paints it, after the wait for that frame. The same move also comes
  // as `pointerrawupdate` the moment it arrives. During a pan, the first such move of a frame
  // goes into BokehJS's gesture at once (the same UIGestures._pointer_move, so the same Pan
  // events), and the frame is left only its paint. The frame's own pointermove is then dropped
  // when it is the same point, or goes the usual way when the pointer got further since (a
  // fast mouse's moves coalesced into it): at most two moves a frame are handled, never one
  // twice. Hover, the press and a pan's start (BokehJS's 5 px threshold) stay on the aligned
  // path. A browser without the event (Firefox, Safari, a page not in a secure context: plain
  // http other than localhost) is left as it was.
  var RAW = "pointerrawupdate";
  function same_point(a, b) {
    return a.pointerId === b.pointerId && a.clientX === b.clientX && a.clientY === b.clientY && a.buttons === b.buttons;
  }
  function raw_listen(g) {  // g: a UIGestures, connected
    if (g.__ae_on_raw || !g.hit_area || typeof g.hit_area.addEventListener !== "function") return;
    g.__ae_on_raw = function (ev) {
      if (g.__ae_early != null || g.phase !== "panning" || !g.pointers || !g.pointers.has(ev.pointerId)) return;
      g.__ae_early = ev;  // until this frame's pointermove
      g._pointer_move(ev);
    };
    g.hit_area.addEventListener(RAW, g.__ae_on_raw);
  }
  function moves_on_arrival(proto) {  // proto: BokehJS's UIGestures class
    if (!proto || typeof window === "undefined" || !("on" + RAW in window)) return false;
    if (proto.__ae_raw) return true;
    if (["_pointer_move", "connect_signals", "disconnect_signals"].some(function (k) { return typeof proto[k] !== "function"; })) return false;
    var own = proto._pointer_move, connect = proto.connect_signals, disconnect = proto.disconnect_signals;
    proto._pointer_move = function (ev) {
      if (ev.type === "pointermove") {
        var early = this.__ae_early;
        this.__ae_early = null;
        if (early != null && same_point(early, ev)) return;  // handled when it arrived
      }
      return own.call(this, ev);
    };
    proto.connect_signals = function () { connect.apply(this, arguments); raw_listen(this); };
    proto.disconnect_signals = function () {
      disconnect.apply(this, arguments);
      if (this.__ae_on_raw && this.hit_area) this.hit_area.removeEventListener(RAW, this.__ae_on_raw);
      this.__ae_on_raw = null;
      this.__ae_early = null;
    };
    proto.__ae_raw = true;
    return true;
  }
  // For a page whose figures were built before AELive.early could patch the class (their
  // gestures hold BokehJS's own _pointer_move, bound when they were made): listen to them again.
  function raw_moves(doc) {
    var done = 0;
    figure_views(doc).forEach(function (mv) {
      var bus = mv[1].canvas_view && mv[1].canvas_view.ui_event_bus, g = bus && bus.ui_gestures;
      if (!g || g.__ae_on_raw || !g.hit_area || typeof g._pointer_move !== "function") return;
      var proto = owner_of(g, "connect_signals");
      if (!moves_on_arrival(proto)) return;
      g.hit_area.removeEventListener("pointermove", g._pointer_move);
      g._pointer_move = proto._pointer_move.bind(g);
      g.hit_area.addEventListener("pointermove", g._pointer_move);
      g.__ae_rebound = true;
      raw_listen(g);
      done += 1;
    });
    return done;
  }

  // A BokehJS 3.10 slider answers every change of its value by handing its whole configuration
  // back to noUiSlider (AbstractSliderView._update_slider -> updateOptions), which rebuilds the
  // handle's tooltip, re-validates the options and moves the handle again, even when the change
  // came from noUiSlider itself (a key or a drag on the handle): ~0.5 ms and a style
  // recalculation per step. When noUiSlider already holds exactly the range, step and values that
  // would be handed over, there is nothing to update and the call is skipped. A value set from
  // elsewhere (a drag on a plot sets the angle and length sliders at every move; Python; a link)
  // with the range and step unchanged only moves the handle (noUiSlider's own set(), which also
  // writes the tooltip); any other change goes through as before. Patched once per page, on the
  // class every slider view shares.
  function same_numbers(a, b) {
    a = [].concat(a); b = [].concat(b);
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (Number(a[i]) !== Number(b[i])) return false;
    return true;
  }
  // noUiSlider's set() marks the slider "tapped" for 0.3 s, and its CSS then glides the handle
  // there: behind a dragged query, or a slider moved by Python, the handle would trail. The mark
  // is taken off again at once (unless a tap of the user's had put it there), so the handle jumps
  // to the value as updateOptions() had it do.
  var TAPPED = "noUi-state-tap";
  function set_at_once(ui, values) {
    var el = ui.target, tapped = el != null && el.classList != null && el.classList.contains(TAPPED);
    ui.set(values, true);
    if (el != null && el.classList != null && !tapped) el.classList.remove(TAPPED);
  }
  function quiet_slider_echo(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return typeof v._update_slider === "function" && typeof v._calc_to === "function" && v._noUiSlider != null &&
        typeof v._noUiSlider.get === "function" && v._noUiSlider.options != null;
    });
    if (r == null) return false;
    var proto = owner_of(r, "_update_slider");
    if (!proto) return false;
    if (proto.__ae_echo) return true;
    var update = proto._update_slider;
    proto._update_slider = function () {
      var ui = this._noUiSlider, o = ui && ui.options;
      if (o != null && o.range != null && typeof ui.get === "function") {
        var to = this._calc_to();
        if (to.range != null && o.range.min === to.range.min && o.range.max === to.range.max && o.step === to.step) {
          if (same_numbers(ui.get(true), to.start)) return;
          // Numbers only: a categorical slider's values go through its format, which may be new.
          if (to.format === undefined && typeof ui.set === "function") { set_at_once(ui, to.start); return; }
        }
      }
      return update.apply(this, arguments);
    };
    proto.__ae_echo = true;
    return true;
  }

  // Each glyph renderer has an empty element over the plot, placed by a style sheet of its own
  // that BokehJS 3.10 rewrites at paint (RendererView.update_position) from the glyph's bounds.
  // When the data moved, the sheet changes, and the next canvas text a label draws in the same
  // paint (its ctx.font) makes the browser recalculate styles first: one recalculation per label
  // set after each moved glyph, ~0.5 ms each, three or four per lookup step. A glyph renderer's
  // element shows nothing and takes no pointer events, so its sheet is written once the page has
  // been still for STILL_MS (no paint moved a glyph since), one write per renderer. Written a
  // task after each paint instead, it still cost a frame of its own after every drag move or
  // key press (style, layout, paint and commit, ~3 ms here), and that frame took the frame clock's
  // next slot, so the next move's paint waited a slot longer. Its box lags the glyphs until
  // then, unseen.
  var STILL_MS = 150;
  function later_positions(doc) {
    if (!doc) return false;
    var r = first_view(function (v) {
      return v.model != null && v.model.type === "GlyphRenderer" && typeof v.update_position === "function";
    });
    if (r == null) return false;
    var proto = owner_of(r, "update_position");
    if (!proto) return false;
    if (proto.__ae_later) return true;
    var update = proto.update_position, waiting = new Set(), timer = null, last = 0;
    var clock = typeof performance !== "undefined" ? performance : Date;
    function flush() {
      var wait = last + STILL_MS - clock.now();
      if (wait > 0) { timer = setTimeout(flush, wait); return; }  // moved again since: still not still
      timer = null;
      var views = Array.from(waiting);
      waiting.clear();
      views.forEach(function (v) { if (v.is_destroyed !== true) update.call(v); });
    }
    proto.update_position = function () {
      if (this.model == null || this.model.type !== "GlyphRenderer") return update.apply(this, arguments);
      waiting.add(this);
      last = clock.now();
      if (timer === null) timer = setTimeout(flush, STILL_MS);
    };
    proto.__ae_later = true;
    return true;
  }

  // Each glyph view builds a spatial index of its data at every change of the data
  // (GlyphView.set_data -> index_data: every element's box, then a Hilbert sort), so that a hover,
  // a tap, a data range's bounds or a scatter's mask can find elements by position. And at every
  // paint after a change, each figure's RangeManager asks every renderer for its bounds (from
  // that index) for its data ranges, even when the figure has none (all our heat maps have
  // fixed or factor ranges): the bounds are then read by nothing. So a change of n built 11 to 14
  // indices for nothing (0.5-0.7 ms per step). Now a glyph's index is built when it is first asked
  // for (the `index` getter), from the data the glyph then holds, which is the data BokehJS would
  // have indexed (set_data always ends by indexing what it has just set), and a frame with no
  // DataRange1d among its ranges skips the bounds (the rest of that step acts on DataRange1ds
  // only). Patched once per page, on the classes every glyph's view and every figure's range
  // manager share.
  function index_on_demand(proto, ranges, DataRange1d) {  // GlyphView's and RangeManager's classes
    if (!proto || !ranges || typeof DataRange1d !== "function") return false;
    if (proto.__ae_index_later) return true;
    var own = Object.getOwnPropertyDescriptor(proto, "index");
    var build = proto.index_data, update = ranges._update_dataranges;
    if (!own || typeof own.get !== "function" || typeof build !== "function" || typeof update !== "function") return false;
    proto.index_data = function () { this.__ae_unindexed = true; };
    Object.defineProperty(proto, "index", {
      configurable: true,
      get: function () {
        if (this.__ae_unindexed) { this.__ae_unindexed = false; build.call(this); }
        return own.get.call(this);
      },
    });
    function has_data_range(frame) {
      var all = [frame.x_ranges, frame.y_ranges];
      for (var k = 0; k < all.length; k++) {
        if (all[k] == null || typeof all[k].values !== "function") return true;  // another shape: BokehJS's way
        for (var r of all[k].values()) if (r instanceof DataRange1d) return true;
      }
      return false;
    }
    ranges._update_dataranges = function (frame) {
      if (frame != null && !has_data_range(frame)) return;
      return update.apply(this, arguments);
    };
    proto.__ae_own_index = { index_data: build, index: own.get, _update_dataranges: update };  // BokehJS's own, for the tests
    proto.__ae_index_later = true;
    return true;
  }
  function index_classes() {
    var DR = null;
    try { DR = Bokeh.require("models/ranges/data_range1d").DataRange1d; } catch (e) { DR = null; }
    return [bokeh_class("models/glyphs/glyph", "GlyphView"), bokeh_class("models/plots/range_manager", "RangeManager"), DR];
  }
  function index_when_asked(doc) {
    return doc != null && index_on_demand.apply(null, index_classes());
  }

  // A served page tells Python of every change the reader makes (a slider key sets `value` and
  // `value_throttled`, and the first key of a run marks a model "busy"). BokehJS 3.10's
  // ClientSession sends each change as it happens, inside the task that made it and so before the
  // frame that shows it: it builds a patch (a map of a reference for every model of the document,
  // then the serialised event) and writes it to the WebSocket, two or three times per key. Now
  // a session collects the changes and sends them, in the order made, as one PATCH-DOC once the
  // frame that shows them has been painted (a task after the frame; at the latest after
  // SEND_WAIT_MS, for a page whose frames do not run, as a hidden tab's), and at once before
  // BokehJS asks the server for a round trip or the page goes. The patch is BokehJS's own (its
  // `_document_changed` with the changes as one batch). Patched once per page, on the class every
  // session shares, before the page's session exists (`early`).
  var SEND_WAIT_MS = 100;
  var unsent = typeof Set !== "undefined" ? new Set() : null;  // sessions holding changes not yet sent
  function sends_after_paint(proto) {  // proto: ClientSession's class
    if (!proto || typeof proto._document_changed !== "function" || typeof proto.request_server_info !== "function")
      return false;
    if (proto.__ae_sends_later) return true;
    var Batch = null;
    try { Batch = Bokeh.require("document/events").DocumentEventBatch; } catch (e) { Batch = null; }
    if (typeof Batch !== "function") return false;
    var own = proto._document_changed, ask = proto.request_server_info;
    proto._document_changed = function (event) {
      var events = event instanceof Batch ? (event.sync ? event.events : []) : [event];
      events = events.filter(function (e) { return e.sync; });  // what BokehJS would send
      if (events.length === 0) return;
      var self = this;
      if (this.__ae_unsent == null) {
        this.__ae_unsent = [];
        if (unsent) unsent.add(this);
        var flush = function () { self.__ae_send(); };
        this.__ae_send_timer = setTimeout(flush, SEND_WAIT_MS);
        if (typeof requestAnimationFrame === "function") requestAnimationFrame(function () { setTimeout(flush, 0); });
        if (!this.__ae_pagehide && typeof addEventListener === "function") {
          this.__ae_pagehide = true;
          addEventListener("pagehide", flush);
        }
      }
      Array.prototype.push.apply(this.__ae_unsent, events);
    };
    proto.__ae_send = function () {
      var events = this.__ae_unsent;
      if (events == null) return;
      this.__ae_unsent = null;
      if (unsent) unsent.delete(this);
      clearTimeout(this.__ae_send_timer);
      own.call(this, new Batch(this.document, events));
    };
    proto.request_server_info = function () {  // force_roundtrip's promise: every change sent before it
      this.__ae_send();
      return ask.apply(this, arguments);
    };
    proto.__ae_own_session = { _document_changed: own, request_server_info: ask };  // BokehJS's own, for the tests
    proto.__ae_sends_later = true;
    return true;
  }
  function sends_later(doc) {
    return doc != null && sends_after_paint(bokeh_class("client/session", "ClientSession"));
  }
  function unsent_changes() {  // how many sessions hold changes not yet sent (the tests wait for 0)
    return unsent ? unsent.size : 0;
  }

  // An axis's size and its drawing both start from its extents (the ticks' length, the box of
  // every tick label, the axis label's), which BokehJS 3.10 computes afresh at each read: on a
  // figure's repaint once to see whether a side panel changed size (repaint ->
  // _invalidate_layout_if_needed -> get_size), once more to draw the axis, and a categorical
  // axis a third time for its group separators, each time building and measuring every label.
  // On the self-attention page a change of n read them 3 times for each of 12 axes. Nothing
  // they are made from changes during one repaint except the ranges (a data range is updated at
  // the start of the paint), so while a figure repaints, an axis's extents are computed once and
  // reused for the same ranges (start, end, factors). Outside a repaint every read computes.
  // Patched once per page, on the classes of every plot's and every axis's view.
  function axes_measured_once(plot, axis) {  // plot: PlotView's class, axis: AxisView's class
    if (!plot || !axis) return false;
    if (axis.__ae_once) return true;
    var own = Object.getOwnPropertyDescriptor(axis, "extents");
    if (!own || typeof own.get !== "function" || typeof plot.repaint !== "function" ||
        typeof plot._actual_paint !== "function") return false;
    var pass = 0, depth = 0;  // pass changes as a repaint starts and ends: no value outlives one
    ["repaint", "_actual_paint"].forEach(function (name) {
      var f = plot[name];
      plot[name] = function () {
        if (depth++ === 0) pass += 1;
        try { return f.apply(this, arguments); } finally { if (--depth === 0) pass += 1; }
      };
    });
    function ranges_of(view) {
      var r = view.ranges, k = [];
      for (var i = 0; i < r.length; i++) k.push(r[i].start, r[i].end, r[i].factors);
      return k;
    }
    function same(a, b) {
      if (a == null || a.length !== b.length) return false;
      for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    }
    Object.defineProperty(axis, "extents", {
      configurable: true,
      get: function () {
        if (depth === 0) return own.get.call(this);
        var key = ranges_of(this);
        if (this.__ae_extents_pass === pass && same(this.__ae_extents_key, key)) return this.__ae_extents;
        var e = own.get.call(this);
        this.__ae_extents = e;
        this.__ae_extents_pass = pass;
        this.__ae_extents_key = key;
        return e;
      },
    });
    axis.__ae_own_extents = own.get;  // BokehJS's computation, kept for the tests' comparison
    axis.__ae_once = true;
    return true;
  }
  function plot_class() { return bokeh_class("models/plots/plot_canvas", "PlotView"); }
  function axes_classes() {
    return [plot_class(), bokeh_class("models/axes/axis", "AxisView")];
  }
  function axes_once(doc) {
    return doc != null && axes_measured_once.apply(null, axes_classes());
  }

  // BokehJS 3.10 sends every paint of a figure through a 60 Hz throttle of its own
  // (PlotView.throttled_paint, core/util/throttle): a paint asked for less than 1000/60 ms, by
  // Date.now(), after the figure's last one first waits on a timer for the rest of that time and
  // only then asks for an animation frame. Frames already come at most once per display refresh,
  // and the timer ends no sooner than the next frame begins, so such a paint waits a frame more
  // than it needs: dragging the lookup's query at a hand's pace (a move every 1/60 s), its bars
  // were painted at 68 of 120 moves and showed a move 21.1 ms after it (median; 8.0 ms with
  // this). A figure's paint is now asked for at the next animation frame directly; asked for
  // again before that frame, it is still one paint, and the view's readiness waits for it as
  // before. Patched once per page, on the class of every plot's view.
  function paints_at_next_frame(proto) {  // proto: PlotView's class
    if (!proto || typeof proto.schedule_paint !== "function" || typeof proto.repaint !== "function" ||
        typeof proto._await_ready !== "function" || typeof requestAnimationFrame !== "function") return false;
    if (proto.__ae_next_frame) return true;
    var own = proto.schedule_paint;
    proto.schedule_paint = function () {
      if (this.is_paused) return;
      var view = this, p = view.__ae_paint || (view.__ae_paint = { frame: null, waiting: [] });
      var done = new Promise(function (resolve, reject) { p.waiting.push([resolve, reject]); });
      if (p.frame == null) p.frame = requestAnimationFrame(function () {
        var waiting = p.waiting;
        p.frame = null;
        p.waiting = [];
        try {
          if (!view.is_destroyed) view.repaint();
        } catch (e) {  // as BokehJS's throttle does: the paint's error rejects the view's readiness
          waiting.forEach(function (w) { w[1](e); });
          return;
        }
        waiting.forEach(function (w) { w[0](); });
      });
      this._await_ready(done);
    };
    proto.__ae_own_schedule = own;  // BokehJS's own, for the tests
    proto.__ae_next_frame = true;
    return true;
  }
  function paints_next_frame(doc) {
    return doc != null && paints_at_next_frame(plot_class());
  }

  // A hover tool shows a cell's arithmetic in BokehJS's Tooltip, and BokehJS 3.10 did all of it
  // again at every pointer move over the figure (HoverTool._update -> Tooltip.show, its equality
  // test off): the tooltip's element appended to the body anew, which takes a shown popover out of
  // the top layer, showPopover to put it back, and the page's layout read three times to place it.
  // Measured over the masking page's mask, 6.5-9.1 ms a move, all of it inside the move's task (and
  // a tap's, as a tap comes with the move that brought the pointer there). Now a move that leaves
  // the tooltip saying the same at the same point (the same cell: the tool snaps to the cell's
  // centre, and has already put equal nodes in) stops there, and a move to another cell places the
  // tooltip without taking it out of the body and the top layer when it is shown and last in the
  // body, as BokehJS would leave it; anything else goes BokehJS's way. Patched once per page, on
  // the classes of every Tooltip and its view.
  function tooltips_in_place(model, view) {  // model: Tooltip's class, view: TooltipView's class
    if (!model || !view || typeof model.show !== "function" || typeof view._reposition !== "function") return false;
    if (model.__ae_in_place) return true;
    var show = model.show, place = view._reposition;
    model.show = function (at) {
      var c = this.content, html = c != null && typeof c.innerHTML === "string" ? c.innerHTML : null;
      var p = this.position;
      if (html !== null && this.visible && Array.isArray(p) && at != null && p[0] === at.x && p[1] === at.y &&
          this.__ae_shown_html === html) return;
      this.__ae_shown_html = html;
      return show.apply(this, arguments);
    };
    view._reposition = function () {
      var el = this.el, target = document.body.shadowRoot || document.body;
      var shown = this._has_rendered && this.model.position != null && this.model.visible && el != null &&
        el.parentNode === target && el.nextSibling == null && typeof el.matches === "function" &&
        typeof el.showPopover === "function" && el.matches(":popover-open");
      if (!shown) return place.apply(this, arguments);
      // BokehJS's own placing, with the two calls that would take the element out and put it back
      // made no-ops for this one call (own properties, deleted after)
      target.append = function () {};
      el.showPopover = function () {};
      try { return place.apply(this, arguments); } finally { delete target.append; delete el.showPopover; }
    };
    model.__ae_own = show;  // BokehJS's own, for the tests
    view.__ae_own = place;
    model.__ae_in_place = true;
    return true;
  }
  function tooltip_classes() {
    return [bokeh_class("models/ui/tooltip", "Tooltip"), bokeh_class("models/ui/tooltip", "TooltipView")];
  }
  function quiet_tooltips(doc) {
    return doc != null && tooltips_in_place.apply(null, tooltip_classes());
  }

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

  // A page runs this between BokehJS and the embed of its document (exported: app/bokeh_only.py;
  // served: among BokehJS's inline scripts, app/jsassets.run_live_js_early), so that the patches
  // lightening a document's first build are on BokehJS's classes before it is built. Installed
  // only once the document was ready (AEPage.init), they came too late for it: each glyph
  // renderer had brought its four copies up to date, each Text copy had measured its labels, and
  // the first paint had asked every `--bk-` question (1070 on masking; its exported cold load was
  // 30 ms longer). The `--bk-` answer is given early only if no document on the page declares
  // such a property (an exported page's JSON; a served document arrives later) and no page sheet
  // mentions one; unset_css_values checks the built document again. Returns the patches installed.
  var DECLARES_BK = /--bk-[\w-]+['"]?\s*:/;  // a declaration or a styles key, as tests/codebase looks for
  function bokeh_class(path, name) {
    try {
      var m = Bokeh.require(path);
      return m != null && typeof m[name] === "function" ? m[name].prototype : null;
    } catch (e) { return null; }
  }
  function early() {
    if (typeof Bokeh === "undefined" || typeof Bokeh.require !== "function" || typeof document === "undefined") return [];
    var done = [];
    if (copies_wait(bokeh_class("models/renderers/glyph_renderer", "GlyphRendererView"),
                    bokeh_class("models/glyphs/glyph", "GlyphView"))) done.push("lazy_copies");
    if (text_paint_quickly(bokeh_class("models/glyphs/text", "TextView"))) done.push("quick_text");
    if (text_copies_wait(bokeh_class("models/glyphs/text", "TextView"))) done.push("lazy_text_copies");
    if (moves_on_arrival(bokeh_class("core/ui_gestures", "UIGestures"))) done.push("raw_moves");
    if (axes_measured_once.apply(null, axes_classes())) done.push("axes_once");
    if (paints_at_next_frame(plot_class())) done.push("paints_next_frame");
    if (index_on_demand.apply(null, index_classes())) done.push("index_when_asked");
    if (sends_after_paint(bokeh_class("client/session", "ClientSession"))) done.push("sends_later");
    if (tooltips_in_place.apply(null, tooltip_classes())) done.push("quiet_tooltips");
    var declared = Array.from(document.querySelectorAll('script[type="application/json"]')).some(function (e) {
      return DECLARES_BK.test(e.textContent);
    }) || Array.from(document.querySelectorAll("style")).some(function (e) { return BK_CSS.test(e.textContent); });
    if (!declared && css_unset(bokeh_class("core/visuals/visual", "VisualProperties"))) done.push("unset_css_values");
    return done;
  }

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
  function same_value(a, b, tol) {
    if (a === b || (a !== a && b !== b)) return true;  // NaN is NaN here
    if (typeof a === "number" && typeof b === "number")
      return tol > 0 && isFinite(a) && isFinite(b) && Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
    if (a == null || b == null || typeof a !== "object" || typeof b !== "object") return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) || typeof a.length !== "number" || a.length !== b.length)
      return false;  // only arrays and typed arrays of one kind are compared
    if ((a.shape != null || b.shape != null) && (String(a.shape) !== String(b.shape) || a.dtype !== b.dtype)) return false;
    for (var i = 0; i < a.length; i++) if (!same_value(a[i], b[i], tol)) return false;
    return true;
  }
  function columns_of(data) {
    if (data instanceof Map) return data;
    var m = new Map();
    if (data != null && typeof data === "object") Object.keys(data).forEach(function (k) { m.set(k, data[k]); });
    return m;
  }
  // Whether two sources' data have the same columns with the same values (floats within tol).
  function same_data(a, b, tol) {
    var x = columns_of(a), y = columns_of(b);
    if (x.size !== y.size) return false;
    for (var [k, v] of x) if (!y.has(k) || !same_value(v, y.get(k), tol || 0)) return false;
    return true;
  }
  // The same for a colour scale's ends (a LinearColorMapper's low and high, the largest |value|
  // of a map, found by both sides): within CLOSE of the page's, they are stored without
  // recomputing the colours of every glyph that uses the scale.
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

  // While widgets change, `plot` carries "busy" and Python waits; `ms` after the last change the
  // mark goes and Python folds the widgets in once (scaling.js, masking.js).
  var still_timers = {};
  function busy_until_still(plot, ms) {
    if (plot.tags.indexOf("busy") < 0) plot.tags = ["busy"];
    clearTimeout(still_timers[plot.id]);
    still_timers[plot.id] = setTimeout(function () { delete still_timers[plot.id]; plot.tags = []; }, ms);
  }

  // A late answer of Python's (to an earlier step of a slider, landing after a later one: a held
  // arrow key repeats every ~30 ms) is never drawn. Whenever one of `models` changes, `stale()` is
  // asked once the whole message has been applied (a microtask, before the next frame), and
  // `redraw()` recomputes from the widgets if the page now shows another step than they do.
  // Installed once per `owner` model (the plates' glue: masking.js, self_attention.js).
  function guard_late(owner, models, stale, redraw) {
    if (owner == null || owner.__ae_guarded || typeof owner.connect !== "function") return;
    owner.__ae_guarded = true;
    var pending = false;
    var check = function () {
      if (pending) return;
      pending = true;
      Promise.resolve().then(function () { pending = false; if (stale()) redraw(); });
    };
    models.forEach(function (m) { owner.connect(m.change, check); });
  }

  // Run fn at most once every `ms` for `key`; a call during the wait is kept and runs when it
  // ends (the last one wins), so the final state is always shown.
  var throttled = {};
  function throttle(key, ms, fn) {
    var t = throttled[key];
    if (!t) t = throttled[key] = { timer: null, last: -Infinity, fn: null };
    t.fn = fn;
    if (t.timer !== null) return;
    var now = (typeof performance !== "undefined" ? performance : Date).now();
    var wait = Math.max(0, t.last + ms - now);
    t.timer = setTimeout(function () {
      t.timer = null;
      t.last = (typeof performance !== "undefined" ? performance : Date).now();
      var f = t.fn;
      t.fn = null;
      if (f) f();
    }, wait);
  }

  return {
    text: text, settle: settle, quiet_styles: quiet_styles, local_layout: local_layout, throttle: throttle,
    coalesce_updates: coalesce_updates, quick_text: quick_text, lazy_text_copies: lazy_text_copies, lazy_copies: lazy_copies, axes_on_change: axes_on_change,
    quick_marker_masks: quick_marker_masks, raw_moves: raw_moves, quiet_slider_echo: quiet_slider_echo, later_positions: later_positions, axes_once: axes_once,
    paints_next_frame: paints_next_frame, index_when_asked: index_when_asked, sends_later: sends_later, unsent_changes: unsent_changes, quiet_tooltips: quiet_tooltips,
    unset_css_values: unset_css_values, sets_bk_css: sets_bk_css, hidden_figures_wait: hidden_figures_wait, early: early, quiet_equal_data: quiet_equal_data,
    same_data: same_data, same_value: same_value, guard_late: guard_late, busy_until_still: busy_until_still,
  };
})();
if (typeof globalThis !== "undefined") globalThis.AELive = AELive;
if (typeof module !== "undefined" && module.exports) module.exports = AELive;
