// quiet_tooltips.js: a hover's tooltip left alone while the pointer stays in one cell, and placed without leaving the top layer.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=quiet_tooltips).
//
// Replaces: Tooltip.show and TooltipView._reposition (models/ui/tooltip).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: masking exported, tap on a mask cell -> update 29.2 -> 24.1 ms (-18 %). Off and on in
//   turn, benchmarks/workarounds.py.
// Upstream report: "HoverTool re-shows its Tooltip at every pointer move even when its content and
//   position are unchanged, re-appending the popover to the body (leaving and re-entering the top
//   layer) and reading layout three times."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
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

  W.define("quiet_tooltips", {
    bokeh: ["3.10", "3.11"],
    install: quiet_tooltips,
  });
})(AEWorkarounds);
