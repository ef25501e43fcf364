// paints_next_frame.js: a figure's paint asked for at the next animation frame, not a frame later through BokehJS's own 60 Hz throttle.
// A workaround of BokehJS (app/workarounds/js/registry.js; off with ?workarounds=paints_next_frame).
//
// Replaces: PlotView.schedule_paint (models/plots/plot_canvas).
// Read against: BokehJS 3.10 (Bokeh.version from 3.10 up to, not including, 3.11).
// Buys: lookup exported, a drag at a hand's pace (a move every 1/60 s) -> shown 25.4 -> 11.0 ms
//   (-57 %). Off and on in turn, benchmarks/workarounds.py.
// Upstream report: "PlotView.throttled_paint waits on a timer when the last paint was less than
//   1000/60 ms ago, then asks for a frame: at 60 Hz input every other move is shown a frame late.
//   requestAnimationFrame already limits paints to the display's rate."
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
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

  function plot_class() { return bokeh_class("models/plots/plot_canvas", "PlotView"); }
  W.define("paints_next_frame", {
    bokeh: ["3.10", "3.11"],
    install: paints_next_frame,
  });
})(AEWorkarounds);
