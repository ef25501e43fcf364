// quiet_slider_echo.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
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

  W.define("quiet_slider_echo", {
    bokeh: ["3.10", "3.11"],
    install: quiet_slider_echo,
  });
})(AEWorkarounds);
