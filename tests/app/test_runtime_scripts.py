"""app.runtime.scripts: every CustomJS a plate makes with custom_js_code gets its glue's one shared library,
found by a walk of the values the models hold (app.workarounds.quick_references.existing_models) rather than
Bokeh's walk of every property's default."""

from __future__ import annotations

import pytest
from bokeh.model.util import collect_models
from bokeh.models import ColumnDataSource, CustomJS, Div, Plot, Slider

from app.plates import registry
from app.runtime.scripts import MARK, custom_js_code, share_library
from app.workarounds.quick_references import existing_models


def customjs(models) -> set[str]:
    return {m.id for m in models if isinstance(m, CustomJS)}


@pytest.mark.parametrize("slug", registry.slugs())
def test_the_walk_finds_every_callback_bokehs_walk_finds(slug):
    plate = registry.plate_class(slug)()
    roots = plate.bokeh_models()
    found = customjs(existing_models(roots))  # first: Bokeh's walk makes the defaults it reads
    assert found == customjs(collect_models(*roots)) and len(found) >= 1
    glued = [m for m in collect_models(*roots) if isinstance(m, CustomJS) and MARK.match(m.code)]
    assert glued and all(m.args["ae_lib"] is plate.js_libraries[MARK.match(m.code).group(1)] for m in glued)


def test_callbacks_are_found_wherever_a_value_holds_them():
    in_args = CustomJS(code=custom_js_code("page.js", "1;", []))
    on_default = CustomJS(code=custom_js_code("page.js", "2;", []))
    on_event = CustomJS(code=custom_js_code("lookup.js", "3;", ["inner"]), args={"inner": in_args})
    plot = Plot()
    plot.x_range.js_on_change("start", on_default)  # a default made when first read (DataRange1d)
    slider = Slider(start=0, end=1, value=0)
    slider.js_on_change("value", on_event)
    source = ColumnDataSource(data={"x": [1, 2]}, tags=[{"nested": [Div(text="x")]}, {Div(text="a key"): 1}])
    found = existing_models([plot, slider, source])
    assert customjs(found) == {in_args.id, on_default.id, on_event.id}
    assert sum(isinstance(m, Div) for m in found) == 2  # in a list in a dict, and a dict's key
    assert {m.id for m in found} == {m.id for m in collect_models(plot, slider, source)}
    libs = share_library([plot, slider, source])
    assert sorted(libs) == ["lookup.js", "page.js"]
    assert in_args.args["ae_lib"] is on_default.args["ae_lib"] is libs["page.js"]
    assert on_event.args["ae_lib"] is libs["lookup.js"] and on_event.args["inner"] is in_args

