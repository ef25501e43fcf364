"""The learn plate's view: the loss and the gradient norm over the steps, the attention weights
beside the target, W_Q, W_K and W_Q W_Kᵀ as heat maps, with Train / Pause, One step, Reset, the
stories and the run's settings."""

from __future__ import annotations

import panel as pn
from bokeh.events import ButtonClick
from bokeh.layouts import column as bk_column
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    CustomJSTickFormatter,
    Div,
    FixedTicker,
    InlineStyleSheet,
    LinearColorMapper,
    LogTicker,
    RadioButtonGroup,
    Range1d,
    Select,
    Spinner,
)
from bokeh.plotting import figure

from app.plates.learn.data import FLOOR, init_normals, limits, live_sources, numbers, sources, texts
from app.plates.learn.scenes import SCENES, STILL
from app.plates.learn.state import (
    D_K_CHOICES,
    D_MODEL,
    INIT_BOUNDS,
    LR_BOUNDS,
    MAX_STEP,
    OPTIMIZER_LABELS,
    OPTIMIZERS,
    PRESET_LABELS,
    PRESETS,
    SEEDS,
    T,
    TIE_LABELS,
    TIES,
    LearnState,
    number_in,
)
from app.shared import a11y
from app.shared.colours import WHITE, ramp
from app.shared.heatmap import cells, heatmap_figure
from app.shared.scenes import with_titles
from app.shared.state import whole_number
from app.shared.text import plate_text
from app.shared.theme import OKABE_ITO_MORE, PALETTE, style_figure
from app.shared.viewer import PlateViewer, live_layer, set_if_changed

TEXT = plate_text(__package__)
WEIGHT_PALETTE = ramp(WHITE, PALETTE["weights"], 128)  # white -> orange
SIGNED_PALETTE = ramp(OKABE_ITO_MORE["sky"], WHITE, 64)[:-1] + ramp(WHITE, PALETTE["output"], 64)  # sky, white, purple
SPEEDS = [30, 60, 250]  # steps per second while training (the page's own pace; not part of the state)
DEFAULT_SPEED = 1
# The sources Python recomputes at every answer (the page draws its own meanwhile).
LIVE = ("train_loss", "grad_norm", "learned_weights", "w_q", "w_k", "qk", "readout", "train_state")  # train_state last
HEAT = 150  # px: a heat map's frame (a row of the four charts fits 1024 px)
LOG_TICK_JS = ("const e = Math.round(Math.log10(tick));"
               " return e >= -2 && e <= 3 ? tick.toFixed(Math.max(0, -e)) : '1e' + e;")  # ticks are powers of ten

CSS = """
.ae-learn-readout { display: flex; flex-direction: column; gap: 2px; font-family: system-ui, sans-serif; }
.ae-big { font-size: 18px; font-weight: 600; color: #1f2328; }
.ae-sub { color: #57606a; font-size: 14px; }
.ae-story { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2328; background: #f6f8fa;
  border-left: 4px solid #E69F00; padding: 4px 8px; }
.ae-learn-message { font-family: system-ui, sans-serif; font-size: 14px; color: #6e4b00; background: #fff8e5;
  border: 1px solid #e6c46a; border-radius: 4px; padding: 2px 6px; }
.ae-learn-label { font-family: system-ui, sans-serif; font-size: 13px; color: #57606a; }
"""


def _css() -> list:
    return [InlineStyleSheet(css=CSS)]


def _label(name: str, text: str, width: int, top: int = 8) -> Div:
    """A control's label, named so that a scene that leaves out its control leaves it out too."""
    return Div(name=name, text=f"<span class='ae-learn-label'>{text}</span>", width=width, margin=(top, 4, 0, 10),
               stylesheets=_css())


def _heat(name: str, title: str, cols: int, rows: int, width: int = HEAT):
    # A square map keeps its square cells when a slide's fit sizes it (app/runtime/page.js).
    f = heatmap_figure(name, Range1d(-0.5, cols - 0.5), Range1d(rows - 0.5, -0.5), title, frame_width=width,
                       frame_height=HEAT, min_border_left=10, min_border_right=10,
                       tags=["ae-keep-shape"] if cols == rows else [])
    f.axis.minor_tick_line_color = None  # the cells are the scale
    return f


def _history_figure(name: str, title: str, y_label: str):
    f = figure(name=name, width=270, height=HEAT + 78, y_axis_type="log", x_range=Range1d(0, 10),
               y_range=Range1d(0.01, 1.0),
               tools="", toolbar_location=None, title=title)
    style_figure(f)
    f.yaxis.ticker = LogTicker(mantissas=[1], desired_num_ticks=4)  # powers of ten: the range is whole decades
    # Written out ("0.01", "1", "1e-8", as the readout writes them): a power's superscript is set
    # smaller than the type, and a slide's type is the least that reads from the back of a hall.
    f.yaxis.formatter = CustomJSTickFormatter(code=LOG_TICK_JS)
    f.xaxis.axis_label = "step"
    f.yaxis.axis_label = y_label
    return f


class LearnPlate(PlateViewer):
    """A head that learns: one attention head trained in the browser, replayed by attention_core."""

    state_class = LearnState
    glue, live = "learn.js", "LearnLive"  # the browser half (learn.js, beside this file)
    slug = "learn"
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes, still = with_titles(SCENES, TEXT.scenes, __package__), STILL

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        data = sources(s)
        data["init_normals"] = init_normals()  # NumPy arrays: sent as binary, 8 bytes a number
        self.srcs = {name: ColumnDataSource(values, name=name) for name, values in data.items()}
        src = self.srcs

        # Controls: the run, its pace, the stories, the settings.
        self.train_w = Button(name="train", label="Train", button_type="primary", width=90,
                              stylesheets=[a11y.primary_button_style()])
        self.one_step_w = Button(name="one_step", label="One step", width=90)
        self.reset_w = Button(name="reset", label="Reset", width=80)
        self.speed_w = RadioButtonGroup(name="speed", labels=[f"{k}/s" for k in SPEEDS], active=DEFAULT_SPEED,
                                        width=190)
        self.story_ws = {name: Button(name="story_" + name.replace("-", "_"), label=PRESET_LABELS[name],
                                      margin=(5, 3, 5, 3)) for name in PRESETS}
        self.lr_w = Spinner(name="lr", title="Learning rate", low=LR_BOUNDS[0], high=LR_BOUNDS[1], step=0.01,
                            mode="float", value=s.lr, width=120)
        self.optimizer_w = RadioButtonGroup(name="optimizer", labels=OPTIMIZER_LABELS,
                                            active=OPTIMIZERS.index(s.optimizer), width=220, margin=(24, 10, 5, 10))
        self.dk_w = Select(name="d_k", title="Head width d_k", value=str(s.d_k),
                           options=[str(d) for d in D_K_CHOICES], width=110, disabled=s.tie == "identity")
        self.scaled_w = CheckboxGroup(name="scaled", labels=["Divide scores by √d_k"], active=[0] if s.scaled else [],
                                      width=180, margin=(28, 5, 5, 10))
        self.tie_w = RadioButtonGroup(name="tie", labels=TIE_LABELS, active=TIES.index(s.tie), width=290,
                                      margin=(24, 10, 5, 10))
        self.init_w = Spinner(name="init_scale", title="Initial scale", low=INIT_BOUNDS[0], high=INIT_BOUNDS[1],
                              step=0.5, mode="float", value=s.init_scale, width=110)
        self.seed_w = Spinner(name="seed", title=f"Seed (0–{SEEDS - 1})", low=0, high=SEEDS - 1, step=1, mode="int",
                              value=s.seed, width=100)
        self.readout_div = Div(name="readout_div", text="", width=990, stylesheets=_css())
        self.story_div = Div(name="story", text="", width=990, stylesheets=_css())
        self.message_div = Div(name="message", text="", width=990, stylesheets=_css())

        # The run over the steps: the loss and the gradient norm, on log scales.
        self.loss_plot = _history_figure("loss_plot", "Loss (log scale)", "loss")
        self.loss_plot.line("step", "y", source=src["train_loss"], line_color=PALETTE["query"], line_width=2.5)
        self.loss_plot.scatter("step", "loss", source=src["readout"], size=8, fill_color=PALETTE["query"],
                               line_color=PALETTE["ink"])  # the step now
        self.grad_plot = _history_figure("grad_plot", "Gradient norm (log)", "‖∂L/∂(W_Q, W_K)‖")
        for f in (self.loss_plot, self.grad_plot):
            f.title.text_font_size = "11pt"
        self.grad_plot.line("step", "y", source=src["grad_norm"], line_color=PALETTE["keys"], line_width=2.5)
        self.grad_plot.scatter("step", "grad_norm", source=src["readout"], size=8, fill_color=PALETTE["keys"],
                               line_color=PALETTE["ink"])  # the step now (none for a gradient of 0)
        for f, name in ((self.loss_plot, "train_loss"), (self.grad_plot, "grad_norm")):
            live_layer(f, src[name], src["readout"])  # a step redraws the curves; the axes move only at 10, 20, 50...

        # The attention weights now, beside the target pattern.
        wmap = LinearColorMapper(palette=WEIGHT_PALETTE, low=0.0, high=1.0)
        tip = "t@{i}{0} reads t@{j}{0}: weight @weight{0.0000}"
        self.weights_plot = _heat("weights_plot", "Weights now", T, T)
        cells(self.weights_plot, src["learned_weights"], {"field": "weight", "transform": wmap}, x="j", y="i",
              line_color="white", tooltip=tip, font_size="7.5pt")
        self.target_plot = _heat("target_plot", "Target", T, T)
        cells(self.target_plot, src["target_weights"], {"field": "weight", "transform": wmap}, x="j", y="i",
              line_color="white", font_size="7.5pt")
        for f in (self.weights_plot, self.target_plot):
            f.xaxis.axis_label = "key token j"
            f.yaxis.axis_label = "query token i"
            for axis in (f.xaxis, f.yaxis):
                axis.ticker = FixedTicker(ticks=list(range(T)))
                axis.major_label_overrides = {k: f"t{k + 1}" for k in range(T)}

        # The maps and their product, on signed colour scales (the maps share theirs).
        w = s.width
        self.maps_mapper = LinearColorMapper(palette=SIGNED_PALETTE, low=-1.0, high=1.0)
        self.qk_mapper = LinearColorMapper(palette=SIGNED_PALETTE, low=-1.0, high=1.0)
        self.wq_plot = _heat("wq_plot", "W_Q (8 × d_k)", w, D_MODEL)
        self.wk_plot = _heat("wk_plot", "W_K (8 × d_k)", w, D_MODEL)
        self.qk_plot = _heat("qk_plot", "W_Q W_Kᵀ (8 × 8)", D_MODEL, D_MODEL)
        for f, name, mapper in ((self.wq_plot, "w_q", self.maps_mapper), (self.wk_plot, "w_k", self.maps_mapper),
                                (self.qk_plot, "qk", self.qk_mapper)):
            label = {"w_q": "W_Q", "w_k": "W_K", "qk": "W_Q W_Kᵀ"}[name]
            cells(f, src[name], {"field": "value", "transform": mapper}, x="c", y="r", text=None,
                  tooltip=f"{label}[@r, @c] = @value{{0.000}}", size=0.96 if name == "qk" else 1.0)
            f.yaxis.axis_label = "model dimension"
            f.yaxis.ticker = FixedTicker(ticks=list(range(D_MODEL)))
            f.xaxis.axis_label = "model dimension" if name == "qk" else "head dimension"
        self.qk_plot.xaxis.ticker = FixedTicker(ticks=list(range(D_MODEL)))
        self.wq_x, self.wk_x = self.wq_plot.x_range, self.wk_plot.x_range
        for f, name in ((self.weights_plot, "learned_weights"), (self.wq_plot, "w_q"), (self.wk_plot, "w_k"),
                        (self.qk_plot, "qk")):
            live_layer(f, src[name])  # each frame repaints the cells, not the axes

        models = {
            "loss": src["train_loss"], "grad": src["grad_norm"], "weights": src["learned_weights"],
            "target": src["target_weights"], "w_q": src["w_q"], "w_k": src["w_k"], "qk": src["qk"],
            "readout": src["readout"], "rendered": src["rendered"], "run": src["run"], "normals": src["init_normals"],
            "train_state": src["train_state"],
            "maps_mapper": self.maps_mapper, "qk_mapper": self.qk_mapper, "wq_x": self.wq_x, "wk_x": self.wk_x,
            "loss_y": self.loss_plot.y_range, "grad_y": self.grad_plot.y_range,
            "loss_x": self.loss_plot.x_range, "grad_x": self.grad_plot.x_range,
            "train": self.train_w, "one_step": self.one_step_w, "reset": self.reset_w, "speed": self.speed_w,
            "lr": self.lr_w, "optimizer": self.optimizer_w, "d_k": self.dk_w, "scaled": self.scaled_w,
            "tie": self.tie_w, "init_scale": self.init_w, "seed": self.seed_w,
            "readout_div": self.readout_div, "story": self.story_div, "message": self.message_div,
            "limits": {"max_step": MAX_STEP, "lr": list(LR_BOUNDS), "init_scale": list(INIT_BOUNDS), "seeds": SEEDS,
                       "speeds": SPEEDS, "floor": FLOOR},
        }
        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (self.loss_plot, "Line chart of the loss against the training step, on a log scale: it falls toward 0 "
                             "when the head learns the shift, and stops high when it cannot.", True),
            (self.grad_plot, "Line chart of the gradient norm of the query and key maps against the step, on a "
                             "log scale: a saturated softmax shows as a gradient near zero; a gradient of exactly 0 "
                             "is drawn at the bottom, 10⁻¹²."),
            (self.weights_plot, "Heatmap of the attention weights now, 6 × 6: row i is the weights token i gives "
                                "each token."),
            (self.target_plot, "Heatmap of the target pattern: token i puts all its weight on token i + 1, the last "
                               "on the first."),
            (self.wq_plot, "Heatmap of the query map W_Q, d_model rows by d_k columns."),
            (self.wk_plot, "Heatmap of the key map W_K, d_model rows by d_k columns."),
            (self.qk_plot, "Heatmap of W_Q W_K transposed, d_model × d_model: its top-left 6 × 6 block, scaled, is "
                           "the score matrix; it is symmetric when the maps are tied."),
        ], [
            a11y.columns("The run now", src["readout"], [("step", "step", None), ("loss", "loss", 6),
                                                        ("grad_norm", "gradient norm", 8),
                                                        ("asymmetry", "max |S − Sᵀ|", 6),
                                                        ("min_target_mass", "worst row on its target", 4)]),
            a11y.matrix("Attention weights", src["learned_weights"], row="i", col="j", value="weight", digits=4,
                        row_prefix="t", col_prefix="t", offset=1),
            a11y.matrix("Target", src["target_weights"], row="i", col="j", value="weight", digits=0,
                        row_prefix="t", col_prefix="t", offset=1),
            a11y.matrix("W_Q W_Kᵀ", src["qk"], row="r", col="c", value="value", digits=3, row_prefix="",
                        col_prefix="", offset=1),
        ], width=990)
        self.js_models = models

        js = self.js
        self.train_w.js_on_event(ButtonClick, js("LearnLive.on_train(a);"))
        self.one_step_w.js_on_event(ButtonClick, js("LearnLive.on_one_step(a);"))
        self.reset_w.js_on_event(ButtonClick, js("LearnLive.on_reset(a);"))
        for name, b in self.story_ws.items():
            b.js_on_event(ButtonClick, js(f"LearnLive.on_story(a, {name!r});"))
        on_widget = js("LearnLive.on_widget(a);")
        for wdg, attr in ((self.lr_w, "value"), (self.optimizer_w, "active"), (self.dk_w, "value"),
                          (self.scaled_w, "active"), (self.tie_w, "active"), (self.init_w, "value"),
                          (self.seed_w, "value")):
            wdg.js_on_change(attr, on_widget)
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))
        self.state.param.watch(lambda *_: self.render(), ["message"])

        bk = pn.pane.Bokeh
        self._layout = pn.Column(
            pn.Row(bk(self.train_w), bk(self.one_step_w), bk(self.reset_w), bk(_label("speed_label", "speed", 64, 14)),
                   bk(self.speed_w)),
            pn.Row(bk(_label("stories_label", "Stories:", 70, 12)), *[bk(b) for b in self.story_ws.values()]),
            pn.Row(bk(self.lr_w), bk(self.optimizer_w), bk(self.init_w), bk(self.seed_w)),
            pn.Row(bk(self.dk_w), bk(self.scaled_w), bk(self.tie_w)),
            bk(self.message_div),
            bk(self.readout_div),
            bk(self.story_div),
            pn.Row(bk(self.weights_plot), bk(self.target_plot), bk(self.loss_plot), bk(self.grad_plot)),
            pn.Row(bk(self.wq_plot), bk(self.wk_plot), bk(self.qk_plot)),
            bk(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state ----------------------------------------------------------------
    # The page trains by itself; when it stops (Pause, One step, Reset, a story, a setting) it
    # sends the settings and its step, and Python replays the run to that step.
    def synced(self) -> list[tuple]:
        return [(self.lr_w, "value"), (self.optimizer_w, "active"), (self.dk_w, "value"), (self.scaled_w, "active"),
                (self.tie_w, "active"), (self.init_w, "value"), (self.seed_w, "value"), (self.srcs["run"], "data")]

    def read_page(self, changed: set) -> dict:
        lr = number_in(self.lr_w.value, "Learning rate", *LR_BOUNDS)
        init = number_in(self.init_w.value, "Initial scale", *INIT_BOUNDS)
        seed = whole_number(self.seed_w.value, "Seed", 0, SEEDS - 1)
        steps = self.srcs["run"].data.get("step")
        step = whole_number(steps[0] if steps is not None and len(steps) == 1 else None, "Step", 0, MAX_STEP)
        d_k = int(str(self.dk_w.value))
        if d_k not in D_K_CHOICES:
            raise ValueError(f"Head width d_k: choose one of {', '.join(map(str, D_K_CHOICES))}.")
        return {"lr": lr, "init_scale": init, "seed": seed, "step": step, "d_k": d_k,
                "optimizer": OPTIMIZERS[_choice(self.optimizer_w.active, len(OPTIMIZERS))],
                "tie": TIES[_choice(self.tie_w.active, len(TIES))],
                "scaled": 0 in (self.scaled_w.active or []), "message": ""}

    def refused(self, exc: Exception) -> None:
        """Say why, and put the page back to the last good state."""
        self.state.message = str(exc)
        super().refused(exc)

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Replay the run with attention_core and send all of it: the page has drawn its own numbers
        since Python's last answer, so every live source is sent even when it equals Python's copy.
        The widgets first, then the state the numbers are for ("rendered"), then the numbers, the
        optimiser's state last: when it lands, the page takes Python's run as its own (learn.js)."""
        s = self.state
        nums = numbers(s)
        live = live_sources(s, nums)
        words = texts(s, nums)
        set_if_changed(self.lr_w, "value", s.lr)
        set_if_changed(self.optimizer_w, "active", OPTIMIZERS.index(s.optimizer))
        set_if_changed(self.dk_w, "value", str(s.d_k))
        set_if_changed(self.dk_w, "disabled", s.tie == "identity")
        set_if_changed(self.scaled_w, "active", [0] if s.scaled else [])
        set_if_changed(self.tie_w, "active", TIES.index(s.tie))
        set_if_changed(self.init_w, "value", s.init_scale)
        set_if_changed(self.seed_w, "value", s.seed)
        resend(self.srcs["run"], live["run"])
        resend(self.srcs["rendered"], live["rendered"])
        set_if_changed(self.wq_x, "end", s.width - 0.5)
        set_if_changed(self.wk_x, "end", s.width - 0.5)
        lim = limits(nums)
        for mapper, key in ((self.maps_mapper, "maps"), (self.qk_mapper, "qk")):
            set_if_changed(mapper, "low", -lim[key])
            set_if_changed(mapper, "high", lim[key])
        for plot, key in ((self.loss_plot, "loss"), (self.grad_plot, "grad")):
            set_if_changed(plot.y_range, "start", lim[key][0])
            set_if_changed(plot.y_range, "end", lim[key][1])
            set_if_changed(plot.x_range, "end", lim["steps"])
        for name in LIVE:
            resend(self.srcs[name], live[name])
        set_if_changed(self.readout_div, "text", words["readout_div"])
        set_if_changed(self.story_div, "text", words["story"])
        set_if_changed(self.message_div, "text", words["message"])

    def __panel__(self):
        return self._layout


def _choice(active, n: int) -> int:
    """A button group's index, refused unless it is one of its n buttons."""
    if isinstance(active, bool) or not isinstance(active, int) or not 0 <= active < n:
        raise ValueError("choose one of the buttons")
    return active


def resend(source: ColumnDataSource, data: dict) -> None:
    """Set the data, and send it even when it equals Python's copy (the page may show its own)."""
    if source.data == data:
        source.trigger("data", source.data, source.data)
    else:
        source.data = data
