// raw_moves.js: a drag's pointer move handed to BokehJS when it arrives (pointerrawupdate), not at the next frame.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=raw_moves).
//
// Replaces: UIGestures._pointer_move, connect_signals, disconnect_signals (core/ui_gestures).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: scaling exported, a drag at a hand's pace -> shown 27.6 -> 18.2 ms (-34 %). Off and on in
//   turn, benchmarks/workarounds.py.
// Upstream report: "Chromium aligns pointermove to animation frames, so a pan's work runs inside
//   the frame that paints it; handling the move's pointerrawupdate during a pan (once per frame,
//   never twice) leaves that frame only its paint."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
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
  // For a page whose figures were built before the class was patched (their
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

  W.define("raw_moves", {
    bokeh: ["3.10", "3.11"],
    install: raw_moves,
  });
})(AEWorkarounds);
