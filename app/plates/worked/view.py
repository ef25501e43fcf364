"""The worked plate's view: the controls, the table revealed stage by stage, the guesses, and the
keys, values and length pictures; the page's changes read back into the state (read_page)."""

from __future__ import annotations

from functools import partial

import numpy as np
import panel as pn
import param
from bokeh.events import ButtonClick, Pan, PanEnd, PanStart
from bokeh.layouts import column as bk_column
from bokeh.layouts import row as bk_row
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    Div,
    InlineStyleSheet,
    LabelSet,
    RadioButtonGroup,
    Range1d,
    Select,
    Slider,
    Span,
    TextAreaInput,
    TextInput,
)
from bokeh.plotting import figure

from app.plates.worked.data import CSS, INVALID_CSS, error_html, length_slider, preset_options, sources, texts
from app.plates.worked.inputs import MAX_TEXT, read_inputs, rows_text, vector_text
from app.plates.worked.panels import ranges
from app.plates.worked.presets import PRESETS, key_names, presets_js
from app.plates.worked.scenes import SCENES
from app.plates.worked.state import (
    ARRAYS, BASE_SLIDER_END, MIN_SLIDER, STAGES, WorkedState, check_arrays, stretched,
)
from app.shared import a11y
from app.shared.scenes import with_titles
from app.shared.text import plate_text
from app.shared.theme import PALETTE, style_figure
from app.shared.vectors import draw_query_and_keys
from app.shared.viewer import PlateViewer, as_the_browser_left_it, live_layer, push, set_if_changed

TEXT = plate_text(__package__)
NO_ERRORS = dict.fromkeys(ARRAYS, "")


def set_each(model, **props) -> None:
    """set_if_changed for each of `props`."""
    for name, value in props.items():
        set_if_changed(model, name, value)


class WorkedPlate(PlateViewer):
    """One query's turn as a table revealed stage by stage, with guesses, presets and 2D pictures."""

    state_class = WorkedState
    glue, live = "worked.js", "WorkedLive"  # the browser half (worked.js, beside this file)
    slug = "worked"
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes = with_titles(SCENES, TEXT.scenes, __package__)

    def __init__(self, **params):
        super().__init__(**params)
        # The guesses are not URL fields, so the base class does not watch them.
        self.state.param.watch(self._on_guesses, ["guess_key", "guess_output"])

    # --- the view ------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        self._shown = None  # the arrays last written into the text boxes
        self._errors = dict(NO_ERRORS)  # the message under each text box (what was typed there)
        self._left_by_page = False  # the page has reset the stage, scaling and guesses itself
        self._guesses_shown = None
        div = partial(Div, disable_math=True, stylesheets=[InlineStyleSheet(css=CSS)])

        # Sources (data filled in by _render).
        self.table_src = ColumnDataSource({}, name="worked_table")
        self.output_src = ColumnDataSource({}, name="worked_output")
        self.query_src = ColumnDataSource({"x": [], "y": [], "vec": []}, name="query")
        self.keys_src = ColumnDataSource({"x": [], "y": [], "vec": [], "name": []}, name="keys")
        self.values_src = ColumnDataSource({"x": [], "y": [], "vec": [], "name": []}, name="values")
        self.hull_src = ColumnDataSource({"x": [], "y": []}, name="hull")
        self.point_src = ColumnDataSource({"x": [], "y": []}, name="output_point")
        self.pulls_src = ColumnDataSource({"x0": [], "y0": [], "x1": [], "y1": [], "w": []}, name="pulls")
        self.sweep_src = ColumnDataSource({"length": [], "top": [], "uniform": []}, name="sweep")
        self.now_src = ColumnDataSource({"length": [], "top": []}, name="sweep_now")

        # Controls.
        self.preset_w = Select(name="preset", title="Example", value=s.preset, width=300,
                               options=[(k, p["label"]) for k, p in PRESETS.items()])
        self.restore_w = Button(name="restore", label="Restore its numbers", width=130)
        self.scaled_w = CheckboxGroup(name="scaled", labels=["scale the scores ÷√d_k"], active=[], width=160,
                                      margin=(12, 5, 5, 10))
        # A box that cannot be read is marked (INVALID_CSS); each holds MAX_TEXT characters.
        box = dict(max_length=MAX_TEXT, stylesheets=[InlineStyleSheet(css=INVALID_CSS)])
        self.query_w = TextInput(name="query_text", title="Query q (numbers separated by commas)", width=300, **box)
        self.query_err = div(name="query_error", text="", width=300, visible=False,
                             margin=(0, 5, 4, 5))
        self.keys_w = TextAreaInput(name="keys_text", title="Keys, one per line", rows=4, width=300, **box)
        self.keys_err = div(name="keys_error", text="", width=300, visible=False,
                             margin=(0, 5, 4, 5))
        self.values_w = TextAreaInput(name="values_text", title="Values, one per line (a number or a vector)",
                                      rows=4, width=300, **box)
        self.values_err = div(name="values_error", text="", width=300, visible=False,
                             margin=(0, 5, 4, 5))
        self.length_w = Slider(name="length", title="Query length |q|", start=MIN_SLIDER, end=BASE_SLIDER_END,
                               step=0.01, value=1.0, format="0[.]000", width=300)

        self.back_w = Button(name="step_back", label="◀ Back", width=80)
        self.stage_w = RadioButtonGroup(name="stage", labels=[f"{i + 1} {n}" for i, n in enumerate(STAGES)],
                                        active=None, width=560)
        self.next_w = Button(name="step_next", label="Step ▶", width=80, button_type="primary",
                             stylesheets=[a11y.primary_button_style()])
        # Fixed heights: nothing above the pictures may change height while a drag is under way.
        # Two lines tall, so that the layout holds still as the notes change (a phone, where a note
        # takes four lines, frees the height: a11y.js fit_narrow).
        self.note_div = div(name="stage_note", text="", width=880, height=46)
        self.table_div = Div(name="worked_table_view", text="", width=620, height=262, disable_math=True,
                             stylesheets=[InlineStyleSheet(css=CSS + ":host { overflow: auto; }")])
        self.output_div = div(name="output_view", text="", width=620, height=40)
        self.guess_key_w = Select(name="guess_key", title="Your guess: which key wins?", value="", options=[""],
                                  width=265)
        self.guess_out_w = TextInput(name="guess_output", title="Your guess: the output", value="", width=265)
        self.guess_err = div(name="guess_error", text="", width=265, height=34, margin=(0, 5, 0, 5))
        self.feedback_div = Div(name="feedback", text="", width=265, height=200, disable_math=True,
                                stylesheets=[InlineStyleSheet(css=CSS + ":host { overflow-y: auto; }")])

        # The pictures.
        def panel(name: str, title: str):
            f = figure(name=name, frame_width=240, frame_height=240, x_range=Range1d(-3, 3), y_range=Range1d(-3, 3),
                       tools="", toolbar_location=None, title=title, min_border_right=12)
            style_figure(f)
            f.title.text_font_size = "11pt"
            f.add_layout(Span(location=0, dimension="width", line_color=PALETTE["grid"], line_width=1))
            f.add_layout(Span(location=0, dimension="height", line_color=PALETTE["grid"], line_width=1))
            return f

        kp = panel("keys_plot", "Keys ● and the query ◆ (drag)")
        draw_query_and_keys(kp, self.keys_src, self.query_src, size=0.85)

        vp = panel("values_plot", "Values ●, hull, output ◆")
        vp.patch("x", "y", source=self.hull_src, fill_color=PALETTE["values"], fill_alpha=0.12,
                 line_color=PALETTE["values"], line_dash="dashed", line_width=1.5)
        vp.segment("x0", "y0", "x1", "y1", source=self.pulls_src, line_color=PALETTE["weights"], line_width="w",
                   line_alpha=0.8)
        vp.scatter("x", "y", source=self.values_src, size=13, marker="circle", fill_color=PALETTE["values"],
                   line_color="white", line_width=2)
        vp.add_layout(LabelSet(x="x", y="y", text="name", source=self.values_src, x_offset=7, y_offset=4,
                               text_font_size="11pt", text_color="#00795a", text_font_style="bold"))
        vp.scatter("x", "y", source=self.point_src, size=19, marker="diamond", fill_color=PALETTE["output"],
                   line_color=PALETTE["ink"], line_width=1.5)
        self.keys_plot, self.values_plot = kp, vp

        # Its outer size (a 220×240 frame with its axes and title), which a scene can set (scenes.py).
        sp = figure(name="sweep_plot", width=282, height=314, x_range=Range1d(0, BASE_SLIDER_END),
                    y_range=Range1d(0, 1.05), tools="", toolbar_location=None, title="Longer query, sharper pick")
        style_figure(sp)
        sp.title.text_font_size = "11pt"
        sp.xaxis.axis_label = "query length |q|"
        sp.yaxis.axis_label = "largest weight"
        # The legend names stand-ins off the plot, drawn as the live renderers are: a legend follows
        # its renderers' sources, and entries on the live ones would repaint the plot's primary
        # canvas (axes included) at every step of the length (see live_layer).
        even = dict(line_color=PALETTE["muted"], line_dash="dashed", line_width=1.5)
        largest = dict(line_color=PALETTE["weights"], line_width=3)
        now = dict(size=15, marker="diamond", fill_color=PALETTE["query"], line_color="white", line_width=2)
        sp.line([-2e6, -1e6], [0, 0], legend_label="even split 1/M", **even)
        sp.line([-2e6, -1e6], [0, 0], legend_label="largest weight", **largest)
        sp.scatter([-1e6], [0], legend_label="this query", **now)
        sp.line("length", "uniform", source=self.sweep_src, **even)
        sp.line("length", "top", source=self.sweep_src, **largest)
        sp.scatter("length", "top", source=self.now_src, **now)
        sp.legend.location = "center_right"
        sp.legend.label_text_font_size = "9pt"
        sp.legend.background_fill_alpha = 0.85
        sp.legend.padding = 4
        sp.legend.spacing = 0
        self.sweep_plot = sp
        live_layer(kp, self.query_src, self.keys_src)
        live_layer(vp, self.values_src, self.hull_src, self.point_src, self.pulls_src)
        live_layer(sp, self.sweep_src, self.now_src)
        self.panel_note = div(name="panel_note", text="", width=290)
        self.sweep_note = div(name="sweep_note", text="", width=290)

        models = {
            "presets": presets_js(), "table": self.table_src, "output": self.output_src, "query": self.query_src,
            "keys": self.keys_src, "values": self.values_src, "hull": self.hull_src, "point": self.point_src,
            "pulls": self.pulls_src, "sweep": self.sweep_src, "now": self.now_src, "preset": self.preset_w,
            "scaled": self.scaled_w, "query_text": self.query_w, "keys_text": self.keys_w,
            "values_text": self.values_w, "query_error": self.query_err, "keys_error": self.keys_err,
            "values_error": self.values_err, "length": self.length_w, "stage": self.stage_w, "back": self.back_w,
            "next": self.next_w, "note": self.note_div, "table_view": self.table_div, "output_view": self.output_div,
            "guess_key": self.guess_key_w, "guess_output": self.guess_out_w, "guess_error": self.guess_err,
            "feedback": self.feedback_div, "keys_plot": kp, "values_plot": vp, "sweep_plot": sp,
            "panel_note": self.panel_note, "sweep_note": self.sweep_note,
        }

        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (kp, "The keys (blue circles) and the query q (vermillion diamond) as points in the plane, shown when "
                 "they have two entries.", True),
            (vp, "The values (green circles) in the plane with their convex hull; at the last step the output "
                 "(purple diamond) sits inside it, pulled toward each value by its weight."),
            (sp, "Line chart: the largest weight against the query's length, rising from an even split 1/M toward "
                 "1; a diamond marks this query."),
        ], [
            a11y.columns("Scores and weights", self.table_src, [
                ("key", "key", None), ("k", "key vector", 3), ("score", "q·k", 3), ("scaled", "into softmax", 3),
                ("exp", "exp", 3), ("weight", "weight", 4), ("value", "value", 3), ("weighted", "weight × value", 3)]),
            a11y.columns("Output", self.output_src, [("value", "output", 4), ("exp_total", "sum of exp", 3),
                                                     ("weight_total", "sum of weights", 4)]),
            a11y.columns("Query", self.query_src, [("vec", "q", 3)]),
            a11y.columns("Largest weight against the query's length", self.now_src,
                         [("length", "this query's length", 3), ("top", "its largest weight", 4)]),
        ], width=880)
        self.js_models = models

        js = self.js
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))
        self.preset_w.js_on_change("value", js("WorkedLive.on_preset(a);"))
        self.restore_w.js_on_event(ButtonClick, js("WorkedLive.on_preset(a, true);"))
        on_setting = js("WorkedLive.on_setting(a);")
        for w, attr in ((self.scaled_w, "active"), (self.stage_w, "active"), (self.guess_key_w, "value"),
                        (self.guess_out_w, "value_input")):
            w.js_on_change(attr, on_setting)
        for f, w in (("query", self.query_w), ("keys", self.keys_w), ("values", self.values_w)):
            w.js_on_change("value_input", js(f"WorkedLive.on_text(a, '{f}');"))
        self.length_w.js_on_change("value", js("WorkedLive.on_length(a);"))
        self.back_w.js_on_event(ButtonClick, js("WorkedLive.on_step(a, -1);"))
        self.next_w.js_on_event(ButtonClick, js("WorkedLive.on_step(a, 1);"))
        for plot, which in ((kp, "keys"), (vp, "values")):
            plot.js_on_event(PanStart, js(f"WorkedLive.on_pan_start(a, cb_obj, '{which}');"))
            plot.js_on_event(Pan, js(f"WorkedLive.on_pan(a, cb_obj, '{which}');"))
            plot.js_on_event(PanEnd, js(f"WorkedLive.on_pan_end(a, cb_obj, '{which}');"))

        # Each text box with its message, under one name: a scene that shows the box shows the
        # message when there is one (scenes.py).
        boxes = [bk_column(w, err, name=name) for w, err, name in (
            (self.query_w, self.query_err, "query_box"), (self.keys_w, self.keys_err, "keys_box"),
            (self.values_w, self.values_err, "values_box"))]
        controls = bk_column(self.preset_w, bk_row(self.restore_w, self.scaled_w), *boxes, self.length_w)
        guesses = bk_column(self.guess_key_w, self.guess_out_w, self.guess_err, self.feedback_div, width=280)
        main = bk_column(
            bk_row(self.back_w, self.stage_w, self.next_w), self.note_div,
            bk_row(bk_column(self.output_div, self.table_div), guesses),
            bk_row(bk_column(kp, self.panel_note), vp, bk_column(sp, self.sweep_note)),
            tags=["ae-present-first"],  # before the inputs in presentation mode (page.js present_first)
        )
        self._layout = pn.Column(pn.Row(pn.pane.Bokeh(controls), pn.pane.Bokeh(main)),
                                 pn.pane.Bokeh(bk_column(self.a11y_toggle, self.a11y_view)))
        self.sources_by_name = {src.name: src for src in (
            self.table_src, self.output_src, self.query_src, self.keys_src, self.values_src, self.hull_src,
            self.point_src, self.pulls_src, self.sweep_src, self.now_src)}
        self.divs_by_name = {d.name: d for d in (self.note_div, self.table_div, self.output_div, self.feedback_div,
                                                 self.guess_err, self.panel_note, self.sweep_note)}

    # --- browser -> state ----------------------------------------------------------------
    def synced(self) -> list[tuple]:
        return [(self.preset_w, "value"), (self.scaled_w, "active"), (self.stage_w, "active"),
                (self.guess_key_w, "value"), (self.guess_out_w, "value_input"), (self.length_w, "value"),
                (self.query_w, "value_input"), (self.keys_w, "value_input"), (self.values_w, "value_input"),
                (self.query_src, "data"), (self.keys_src, "data"), (self.values_src, "data")]

    def followed(self) -> list[tuple]:
        # worked.js follows every widget's change with a run of its own (marked busy, then one
        # commit): a new preset it loads itself, a length step stretches the query, a keystroke is
        # read. Python's answer to the change alone (when the mark reaches it late, on a busy
        # server) would land after what the reader did next and undo it: a Step after the preset,
        # the next length steps (whose query text it would write back as if typed).
        return [(w, attr) for w, attr in self.synced() if not isinstance(w, ColumnDataSource)]

    def read_page(self, changed: set) -> dict:
        """The state from what the page sent; only the models in `changed` are read (the others
        may hold what this Python side last wrote while the page has moved on quietly).

        A new preset brings its own numbers, scaling, stage and guesses; what the page changed
        with it (worked.js sends the whole page when it loads a preset, and whatever the reader
        did next) comes on top. The numbers come from the dragged points if they moved, else
        from the text boxes, and the length slider then stretches them. A typed entry that cannot
        be read leaves the numbers as they were and its message under its box.
        """
        s = self.state
        values: dict = {}
        preset = s.preset
        if (self.preset_w, "value") in changed:
            preset = self.preset_w.value
            if preset not in PRESETS:
                raise ValueError(f"no preset {preset!r}")
            values = s.preset_values(preset)
            self._shown, self._errors = None, dict(NO_ERRORS)
        q, K, V = (values[k] for k in ARRAYS) if values else s.arrays

        if {(src, "data") for src in (self.query_src, self.keys_src, self.values_src)} & changed:
            q, K, V = check_arrays(self.query_src.data["vec"][0], [list(v) for v in self.keys_src.data["vec"]],
                                   [list(v) for v in self.values_src.data["vec"]])
        boxes = {"query": self.query_w, "keys": self.keys_w, "values": self.values_w}
        edited = [f for f, w in boxes.items() if (w, "value_input") in changed]
        if edited:
            typed = {f: str(w.value_input or "") for f, w in boxes.items()}
            arrays, errors = read_inputs(typed, {"query": q[None, :], "keys": K, "values": V}, edited[-1])
            self._errors = {f: errors.get(f, "") for f in ARRAYS}
            if arrays is not None:
                q, K, V = check_arrays(arrays["query"][0], arrays["keys"], arrays["values"])
        if (self.length_w, "value") in changed:
            length = float(self.length_w.value)
            # The slider shows the query's length (at least its start): only another value stretches it.
            if abs(length - max(MIN_SLIDER, float(np.linalg.norm(q)))) > 1e-12 * max(1.0, abs(length)):
                q = stretched(q, length)  # (d_k,)
        values.update(query=q, keys=K, values=V)

        if (self.scaled_w, "active") in changed:
            values["scaled"] = 0 in (self.scaled_w.active or [])
        if (self.stage_w, "active") in changed:
            a = self.stage_w.active
            step = 0 if a is None else int(a) + 1
            if not 0 <= step <= len(STAGES):
                raise ValueError(f"no stage {a!r}")
            values["step"] = step
        if {(self.guess_key_w, "value"), (self.guess_out_w, "value_input")} & changed:
            g = self.guess_key_w.value
            values["guess_key"] = g if g in key_names(preset, K.shape[0]) else ""
            values["guess_output"] = str(self.guess_out_w.value_input or "")[:200]
        if preset != s.preset:
            # Chosen without its watcher, which would load the preset's numbers over what the page
            # changed after choosing it: those numbers are in `values` already, with the changes.
            with param.parameterized.discard_events(s):
                s.preset = preset
        self._left_by_page = (self.preset_w, "value") in changed
        return values

    def _on_guesses(self, *_events) -> None:
        if self._guesses_shown != (self.state.guess_key, self.state.guess_output):
            self.render()

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        q, K, V = s.arrays
        names = s.names
        step = int(s.step)

        # The text boxes follow the state when the numbers changed from elsewhere (a preset, a
        # link, a drag, the slider); a box whose text already reads as the state is left alone.
        shown = (q.tolist(), K.tolist(), V.tolist())
        if force or shown != self._shown:
            good = {"query": q[None, :], "keys": K, "values": V}
            written = {"query": vector_text(q), "keys": rows_text(K), "values": rows_text(V)}
            for f, w in (("query", self.query_w), ("keys", self.keys_w), ("values", self.values_w)):
                current, _ = read_inputs({**written, f: w.value_input or ""}, good, f)
                same = current is not None and np.array_equal(current[f], good[f])
                if force or not same:
                    w.value = written[f]
                    w.value_input = written[f]
                    self._errors[f] = ""
            self._shown = shown
        for f, d, w in (("query", self.query_err, self.query_w), ("keys", self.keys_err, self.keys_w),
                        ("values", self.values_err, self.values_w)):
            set_if_changed(d, "text", error_html(self._errors[f]))
            set_if_changed(d, "visible", bool(self._errors[f]))
            set_if_changed(w, "css_classes", ["wk-invalid"] if self._errors[f] else [])
        stale = any(self._errors.values())
        set_if_changed(self.table_div, "css_classes", ["wk-stale", "wk-said"] if stale else [])
        set_if_changed(self.output_div, "css_classes", ["wk-stale"] if stale else [])

        for name, data in sources(s).items():
            push(self.sources_by_name[name], data, force)
        for name, (x0, x1, y0, y1) in ranges(s).items():
            plot = getattr(self, name)
            for rng, lo, hi in ((plot.x_range, x0, x1), (plot.y_range, y0, y1)):
                set_if_changed(rng, "start", lo, tol=1e-12)
                set_if_changed(rng, "end", hi, tol=1e-12)
        set_if_changed(self.keys_plot, "visible", q.size == 2)
        set_if_changed(self.values_plot, "visible", V.shape[1] == 2)

        slider = length_slider(s)
        set_if_changed(self.length_w, "end", slider["end"], tol=1e-12)
        set_if_changed(self.length_w, "value", slider["value"], tol=1e-12)
        set_if_changed(self.length_w, "disabled", slider["disabled"])
        set_if_changed(self.length_w, "title", slider["title"])
        set_if_changed(self.length_w, "show_value", slider["show_value"])
        set_if_changed(self.sweep_plot.x_range, "end", slider["end"], tol=1e-12)

        # The stages, the table and the guesses. After a new preset chosen on the page, the page
        # has already reset the stage, scaling and guesses itself: Python's copies follow without
        # sending them back, which would undo a Step pressed before this answer arrived.
        put = as_the_browser_left_it if self._left_by_page else set_each
        self._left_by_page = False
        set_if_changed(self.preset_w, "value", s.preset)
        set_if_changed(self.preset_w, "options", preset_options(s))
        put(self.scaled_w, active=[0] if s.scaled else [])
        put(self.stage_w, active=None if step == 0 else step - 1)
        set_if_changed(self.back_w, "disabled", step == 0)
        set_if_changed(self.next_w, "disabled", step == len(STAGES))
        for name, text in texts(s).items():
            set_if_changed(self.divs_by_name[name], "text", text)
        set_if_changed(self.guess_key_w, "options", [("", "(pick a key)")] + [(n, n) for n in names])
        put(self.guess_key_w, value=s.guess_key if s.guess_key in names else "")
        if (self.guess_out_w.value_input or "") != s.guess_output:
            put(self.guess_out_w, value=s.guess_output, value_input=s.guess_output)
        set_if_changed(self.guess_key_w, "disabled", step >= 4)
        set_if_changed(self.guess_out_w, "disabled", step >= 4)
        self._guesses_shown = (s.guess_key, s.guess_output)

    def __panel__(self):
        return self._layout
