"""The multi-head plate's view: every head's weight map, concat × W_O = output, the parameter
counter and each head's divisor, with the controls d_model, h and n."""

from __future__ import annotations

import panel as pn
from bokeh.layouts import column as bk_column
from bokeh.models import (
    ColumnDataSource,
    Div,
    GridBox,
    InlineStyleSheet,
    LinearColorMapper,
    RadioButtonGroup,
    Range1d,
    Select,
    Slider,
)

from app.plates.multi_head.data import (
    colour_limits, divisors_table_html, numbers, params_table_html, recipes, sources, texts,
)
from app.plates.multi_head.fixed_html import (
    CSS,
    FORMULA_1,
    FORMULA_1_LABEL,
    FORMULA_2,
    FORMULA_2_LABEL,
    FORMULA_CSS,
    FORMULA_WIDTHS,
    FORMULA_WIDTHS_LABEL,
    HEADS_HEAD,
    PARAMS_CSS,
    READING,
)
from app.plates.multi_head.layout import frames
from app.plates.multi_head.scenes import SCENES, STILL
from app.plates.multi_head.state import (
    D_CHOICES, H_CHOICES, MAP_WIDTHS, N_MAX, N_MIN, MultiHeadState, SplitRefused, split_problem,
)
from app.shared import a11y, html_table
from app.shared.colours import WHITE, ramp
from app.shared.heatmap import cells, heatmap_figure
from app.shared.mathml import CSS as MATH_CSS
from app.shared.mathml import formula_html
from app.shared.scenes import with_titles
from app.shared.text import plate_text
from app.shared.theme import OKABE_ITO_MORE, PALETTE
from app.shared.viewer import PlateViewer, push, set_if_changed

TEXT = plate_text(__package__)
MUTED = PALETTE["muted"]
WEIGHT_PALETTE = ramp(WHITE, PALETTE["weights"], 128)  # white -> orange
SIGNED_PALETTE = ramp(OKABE_ITO_MORE["sky"], WHITE, 64)[:-1] + ramp(WHITE, PALETTE["output"], 64)  # sky, white, purple
# The named sources the view pushes, by attribute (data.sources's names).
SOURCE_ATTRS = {"head_src": "head_weights", "head_titles": "head_titles", "head_ticks": "head_ticks",
                "concat_src": "concat", "w_o_src": "w_o", "out_src": "mh_output", "concat_marks": "concat_marks",
                "concat_lines": "concat_lines", "w_o_marks": "w_o_marks", "w_o_lines": "w_o_lines",
                "out_marks": "output_marks", "params_src": "params", "div_src": "divisors", "setting_src": "setting"}


def _heat(name: str, title: str | None, x_range, y_range, frame_w: int, frame_h: int, tags=()):
    """A heat map with no axes: its cells are placed in plain coordinates, their labels among them."""
    return heatmap_figure(name, x_range, y_range, title, axes=False, frame_width=frame_w, frame_height=frame_h,
                          min_border_left=6, min_border_right=6, min_border_top=4, min_border_bottom=6,
                          tags=list(tags))


class MultiHeadPlate(PlateViewer):
    """Multi-head attention: every head's weights, the concatenation, W_O, the output and the counter."""

    state_class = MultiHeadState
    glue, live = "multi_head.js", "MultiHeadLive"  # the browser half (multi_head.js, beside this file)
    slug = "multi-head"
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes, still = with_titles(SCENES, TEXT.scenes, __package__), STILL

    # --- the view --------------------------------------------------------------------------
    def _build(self) -> None:
        s = self.state
        w = s.width
        # The browser's room for a figure on a phone (0: a wide screen), sent once by the glue: the
        # head maps go fewer to a row there, and Python must place them as the browser does.
        self.room = 0
        self.screen_src = ColumnDataSource({"room": [0]}, name="screen")
        data = sources(s, self.room)
        for attr, name in SOURCE_ATTRS.items():
            setattr(self, attr, ColumnDataSource(data[name], name=name))

        tip = "<div style='white-space: pre-line; font: 12px/1.35 ui-monospace, monospace; max-width: 420px'>@tip</div>"
        place = frames(s, self.room)

        # The heads' weight maps, all in one figure, up to three to a row.
        self.head_x, self.head_y = Range1d(*place["ranges"]["head_x"]), Range1d(*place["ranges"]["head_y"])
        # Its cells stay square when a slide's fit resizes it (app/runtime/page.js); the product's
        # may widen, as their signed numbers are wider than the weights.
        hf = _heat("head_maps", None, self.head_x, self.head_y, *place["frames"]["head_fig"], tags=["ae-keep-shape"])
        wmap = LinearColorMapper(palette=WEIGHT_PALETTE, low=0.0, high=1.0)
        cells(hf, self.head_src, {"field": "value", "transform": wmap}, font_size="8pt", line_color="white",
              tooltip=tip)
        hf.text("x", "y", text="text", source=self.head_titles, text_align="center", text_baseline="middle",
                text_font_size="9pt", text_font_style="bold", text_color=PALETTE["weights"])
        hf.text("x", "y", text="text", source=self.head_ticks, text_align="center", text_baseline="middle",
                text_font_size="8pt", text_color=MUTED)
        self.head_fig = hf

        # concat @ W_O = output, laid out so output[i, c] sits where concat's row i meets W_O's column c.
        self.cols_x = Range1d(-1.5, w - 0.5)
        self.rows_y = Range1d(*place["ranges"]["rows_y"])
        self.w_o_y = Range1d(-(w - 0.5), 1.5)
        (fw, fh), fwo = place["frames"]["concat_fig"], place["frames"]["w_o_fig"][1]
        self.signed_maps = {}
        figs = {}
        for key, name, title, source, marks, xr, yr, hh in [
            ("concat", "concat_map", "concat", self.concat_src, self.concat_marks, Range1d(-1.5, w - 0.5),
             self.rows_y, fh),
            ("w_o", "w_o_map", "× W_O", self.w_o_src, self.w_o_marks, self.cols_x, self.w_o_y, fwo),
            ("output", "output_map", "= output", self.out_src, self.out_marks, self.cols_x, self.rows_y, fh),
        ]:
            f = _heat(name, title, xr, yr, fw, hh)
            mapper = LinearColorMapper(palette=SIGNED_PALETTE, low=-1.0, high=1.0)
            cells(f, source, {"field": "value", "transform": mapper}, font_size="8pt", line_color="white",
                  tooltip=tip)
            f.text("x", "y", text="text", source=marks, text_align="center", text_baseline="middle",
                   text_font_size="8pt", text_color=MUTED)
            self.signed_maps[key] = mapper
            figs[key] = f
        figs["concat"].segment("x0", "y0", "x1", "y1", source=self.concat_lines, line_color=PALETTE["ink"], line_width=2)
        figs["w_o"].segment("x0", "y0", "x1", "y1", source=self.w_o_lines, line_color=PALETTE["ink"], line_width=2)
        figs["concat"].title.text_color = PALETTE["values"]
        figs["output"].title.text_color = PALETTE["output"]
        self.concat_fig, self.w_o_fig, self.out_fig = figs["concat"], figs["w_o"], figs["output"]
        self.concat_x = self.concat_fig.x_range
        self.reading_div = Div(name="reading", text=READING, width=300, stylesheets=[InlineStyleSheet(css=CSS)],
                               margin=(10, 16, 5, 10))
        grid = GridBox(children=[(self.reading_div, 0, 0), (self.w_o_fig, 0, 1), (self.concat_fig, 1, 0),
                                 (self.out_fig, 1, 1)], spacing=4)
        heads_head = Div(name="heads_note", text=HEADS_HEAD, width=560, stylesheets=[InlineStyleSheet(css=CSS)])
        # Named, as every part a scene may leave out (app/shared/scenes.py): the layer's formula.
        self.formulas = Div(name="formulas", width=550, margin=(0, 10),
                            text="<div class='ae-mh-formulas'>" + formula_html(FORMULA_1, FORMULA_1_LABEL)
                                 + formula_html(FORMULA_WIDTHS, FORMULA_WIDTHS_LABEL) + "</div>"
                                 + formula_html(FORMULA_2, FORMULA_2_LABEL),
                            stylesheets=[InlineStyleSheet(css=MATH_CSS), InlineStyleSheet(css=FORMULA_CSS)])

        # Controls, messages, the counter and the divisors.
        self.d_w = Select(name="d_model", title="d_model (model width)", value=str(s.d_model),
                          options=[(str(d), f"{d}" + (" (the paper's; counter only)" if d not in MAP_WIDTHS else ""))
                                   for d in D_CHOICES], width=230)
        self.h_w = RadioButtonGroup(name="h", labels=[str(k) for k in H_CHOICES], active=H_CHOICES.index(s.h),
                                    width=200, margin=(4, 10, 5, 10))
        self.n_w = Slider(name="n", title="tokens n", start=N_MIN, end=N_MAX, step=1, value=s.n, width=200)
        # The buttons' title, over them as the menu's is over the menu (a Div beside them wrapped
        # and drifted away from them, right of the menu: issue 55, 3).
        self.h_label = Div(name="h_label", text="heads h", width=200, margin=(5, 10, 0, 10))
        self.summary_div = Div(name="summary", text="", width=560, stylesheets=[InlineStyleSheet(css=CSS)])
        self.message_div = Div(name="message", text="", width=560, stylesheets=[InlineStyleSheet(css=CSS)])
        self.params_table = Div(name="params_table", text=params_table_html(self.params_src.data), width=660,
                                stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS + PARAMS_CSS)])
        # Last under the maps, which a new h resizes anyway: as tall as its rows (eight heads' room left a gap).
        self.div_table = Div(name="divisors_table", text=divisors_table_html(self.div_src.data), width=250,
                             stylesheets=[InlineStyleSheet(css=html_table.TABLE_CSS)])

        models = {"head": self.head_src, "head_titles": self.head_titles, "head_ticks": self.head_ticks,
                  "concat": self.concat_src, "w_o": self.w_o_src, "out": self.out_src,
                  "concat_marks": self.concat_marks, "concat_lines": self.concat_lines, "w_o_marks": self.w_o_marks,
                  "w_o_lines": self.w_o_lines, "out_marks": self.out_marks, "params": self.params_src,
                  "divisors": self.div_src, "params_table": self.params_table, "divisors_table": self.div_table,
                  "setting": self.setting_src, "screen": self.screen_src, "head_fig": hf, "concat_fig": self.concat_fig,
                  "w_o_fig": self.w_o_fig, "out_fig": self.out_fig, "head_x": self.head_x, "head_y": self.head_y,
                  "cols_x": self.cols_x, "concat_x": self.concat_x, "w_o_y": self.w_o_y, "rows_y": self.rows_y,
                  "concat_map": self.signed_maps["concat"], "w_o_map": self.signed_maps["w_o"],
                  "out_map": self.signed_maps["output"], "d_model": self.d_w, "h": self.h_w, "n": self.n_w,
                  "summary": self.summary_div, "message": self.message_div, "recipes": recipes()}
        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (hf, "One heatmap of attention weights per head: rows are the tokens that read, columns the tokens "
                 "read; each head divides its scores by its own √d_k.", True),
            (self.concat_fig, "Heatmap of the heads' outputs joined side by side (concat), one row per token."),
            (self.w_o_fig, "Heatmap of the mixing matrix W_O."),
            (self.out_fig, "Heatmap of the output, concat times W_O, one row per token."),
        ], [
            a11y.matrix("Weights", self.head_src, row="i", col="j", value="value", digits=3, group="head",
                        group_prefix="head ", row_prefix="t", col_prefix="t", offset=1),
            a11y.columns("Divisor of each head", self.div_src, [("label", "head", None), ("d_k", "d_k", None),
                                                                ("divisor", "√d_k", 4)]),
            a11y.matrix("concat", self.concat_src, row="i", col="c", value="value", digits=3, row_prefix="t",
                        col_prefix="", offset=1),
            a11y.matrix("W_O", self.w_o_src, row="r", col="c", value="value", digits=3, row_prefix="",
                        col_prefix="", offset=1),
            a11y.matrix("Output", self.out_src, row="i", col="c", value="value", digits=3, row_prefix="t",
                        col_prefix="", offset=1),
            a11y.columns("Parameters", self.params_src, [("row", "matrix", None), ("shape", "shape", None),
                                                         ("per_head_text", "per head", None),
                                                         ("total_text", "total", None)]),
        ], width=1200)
        self.js_models = models

        js = self.js
        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))
        live = js("MultiHeadLive.on_change(a);")
        self.d_w.js_on_change("value", live)
        self.h_w.js_on_change("active", live)
        self.n_w.js_on_change("value", live)

        # Not the state: the browser's room on a phone (multi_head.js's on_ready sends it once).
        self.screen_src.on_change("data", self._on_screen)
        self.state.param.watch(lambda *_: self.render(), ["message", "slide"])
        self._layout = pn.Column(
            pn.Row(
                # As wide as what it shows (560 px on the page): a scene that shows only the h
                # buttons of it leaves the rest of the slide to its other parts.
                pn.Column(
                    pn.Row(pn.pane.Bokeh(self.d_w), pn.pane.Bokeh(bk_column(self.h_label, self.h_w, spacing=0))),
                    pn.pane.Bokeh(self.n_w),
                    pn.pane.Bokeh(self.message_div),
                    pn.pane.Bokeh(self.summary_div),
                    pn.pane.Bokeh(self.formulas),
                ),
                pn.Column(pn.pane.Bokeh(self.params_table), margin=(10, 5, 5, 10)),
            ),
            # The heads beside the product (stacked, they left half a 1280-px page empty and the page
            # 2,000 px tall); a row too wide for the screen (eight heads' maps) puts the product below.
            pn.Row(
                pn.Column(pn.pane.Bokeh(heads_head), pn.pane.Bokeh(hf), pn.pane.Bokeh(self.div_table)),
                pn.pane.Bokeh(grid),
                styles={"flex-wrap": "wrap"},
            ),
            pn.pane.Bokeh(bk_column(self.a11y_toggle, self.a11y_view)),
        )

    # --- browser -> state --------------------------------------------------------------------
    def synced(self) -> list[tuple]:
        # The slider counts when it is let go (value_throttled); its value is read then.
        return [(self.d_w, "value"), (self.h_w, "active"), (self.n_w, "value_throttled")]

    def read_page(self, changed: set) -> dict:
        d_model = int(self.d_w.value)
        h = H_CHOICES[int(self.h_w.active)]
        n = int(round(float(self.n_w.value)))  # synced at every move; Python acts on value_throttled
        if d_model not in D_CHOICES or not N_MIN <= n <= N_MAX:
            raise ValueError("out of range")
        problem = split_problem(d_model, h)
        if problem:
            raise SplitRefused(problem)
        return {"d_model": d_model, "h": h, "n": n, "message": ""}

    def refused(self, exc: Exception) -> None:
        """A pair where h does not divide d_model says why; any refusal puts the widgets back."""
        if isinstance(exc, SplitRefused):
            self.state.message = str(exc)
        super().refused(exc)

    def _on_screen(self, attr, old, new) -> None:
        """The browser's room on a phone: a whole number of pixels, anything else means none."""
        try:
            room = int(new["room"][0])
        except (KeyError, IndexError, TypeError, ValueError, OverflowError):
            room = 0
        room = room if 0 < room <= 10_000 else 0
        if room != self.room:
            self.room = room
            self.render()

    # --- state -> view -----------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        if split_problem(s.d_model, s.h):
            return  # the state's watcher is putting the pair back
        nums = numbers(s)
        data = sources(s, self.room, nums)
        words = texts(s)
        for attr, name in SOURCE_ATTRS.items():  # the settings' source last: it names the step shown
            push(getattr(self, attr), data[name], force)
            if name == "divisors":
                set_if_changed(self.params_table, "text", words["params_table"])
                set_if_changed(self.div_table, "text", words["divisors_table"])
        place = frames(s, self.room)
        for attr, (start, end) in place["ranges"].items():
            set_if_changed(getattr(self, attr), "start", start)
            set_if_changed(getattr(self, attr), "end", end)
        for attr, (fw, fh) in place["frames"].items():
            set_if_changed(getattr(self, attr), "frame_width", fw)
            set_if_changed(getattr(self, attr), "frame_height", fh)
        for key, m in colour_limits(s, nums).items():
            set_if_changed(self.signed_maps[key], "low", -m)
            set_if_changed(self.signed_maps[key], "high", m)
        set_if_changed(self.d_w, "value", str(s.d_model))
        set_if_changed(self.h_w, "active", H_CHOICES.index(s.h))
        set_if_changed(self.n_w, "value", s.n)
        set_if_changed(self.summary_div, "text", words["summary"])
        set_if_changed(self.message_div, "text", words["message"])

    def __panel__(self):
        return self._layout
