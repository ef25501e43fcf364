"""app.workarounds.quick_properties: Bokeh's serialiser, given a model's set properties without reading every
default, sends the same document as with Bokeh's own method (every served page, themed or not),
and a property with no value still raises as in Bokeh."""

from __future__ import annotations

import json

import pytest
from bokeh.core.has_props import HasProps
from bokeh.core.properties import Int, List, Override, Required, String
from bokeh.core.property.descriptors import UnsetValueError
from bokeh.core.property.singletons import Undefined
from bokeh.document import Document
from bokeh.models import ColumnDataSource, Div, Plot, Range1d
from bokeh.themes import Theme
from panel.io.state import set_curdoc

import tiers  # tests/tiers.py (on the path: tests/conftest.py)
from app.plates import registry
from app.workarounds.quick_properties import quick_properties
from app.delivery.server import fill_document

OWN = HasProps.query_properties_with_values


@pytest.fixture
def quick():
    """Install the shortcut for one test, and put Bokeh's own method back after it."""
    assert quick_properties()
    assert quick_properties()  # a second call changes nothing
    installed = HasProps.query_properties_with_values
    assert installed is not OWN and installed._ae_original is OWN
    yield installed
    HasProps.query_properties_with_values = OWN


def page(slug) -> Document:
    doc = Document()
    with set_curdoc(doc):
        fill_document(doc, slug, {})
    return doc


def as_json(doc, method) -> str:
    """The document as Bokeh's PULL-DOC-REPLY carries it, serialised with `method`."""
    HasProps.query_properties_with_values = method
    try:
        return json.dumps(doc.to_json(deferred=False), sort_keys=True, default=repr)
    finally:
        HasProps.query_properties_with_values = OWN


@pytest.mark.parametrize("slug", tiers.pages(registry.slugs(), index_id="None"))
def test_every_served_page_is_sent_as_bokeh_sends_it(slug, quick):
    # Each order once: serialising with Bokeh's method first materialises defaults that the
    # shortcut leaves alone, and the other way round.
    doc = page(slug)
    assert as_json(doc, quick) == as_json(doc, OWN)
    doc = page(slug)
    assert as_json(doc, OWN) == as_json(doc, quick)


@pytest.mark.parametrize("slug", [None, "masking"])
def test_each_model_gives_the_same_properties(slug, quick):
    doc = page(slug)
    for m in doc.models:
        fast = quick(m, lambda p: p.serialized, include_defaults=False)
        own = OWN(m, lambda p: p.serialized, include_defaults=False)
        assert list(fast) == list(own), m  # the same keys in the same order
        assert json.dumps(fast, sort_keys=True, default=repr) == json.dumps(own, sort_keys=True, default=repr)


def test_a_themed_document_is_sent_as_bokeh_sends_it(quick):
    theme = Theme(json={"attrs": {"Div": {"text": "from the theme", "margin": 7}, "Plot": {"width": 321}}})
    doc = Document(theme=theme)
    doc.add_root(Div(width=40))
    doc.add_root(Plot(x_range=Range1d(0, 1), y_range=Range1d(0, 1)))
    doc.add_root(ColumnDataSource(data={"x": [1, 2]}))
    div = doc.roots[0]
    assert quick(div, lambda p: p.serialized, include_defaults=False)["text"] == "from the theme"
    assert as_json(doc, quick) == as_json(doc, OWN)


class _Holder(HasProps):
    """Not a Model (nothing is registered with BokehJS): a required property and some defaults."""

    needed = Required(Int)
    named = String("x")
    items = List(Int)


class _Unnamed(_Holder):
    """A subclass whose override takes a default away (the shortcut reads the class's overrides)."""

    named = Override(default=Undefined)


@pytest.mark.parametrize("include_undefined", [False, True])
def test_a_property_without_a_value_raises_as_in_bokeh(include_undefined, quick):
    def ask(method, obj):
        try:
            return method(obj, lambda p: p.serialized, include_defaults=False, include_undefined=include_undefined)
        except UnsetValueError as e:
            return type(e)

    h = _Holder()
    got = ask(quick, h)
    assert got == ask(OWN, h)
    if include_undefined:
        assert got == {"needed": Undefined}
    else:
        assert got is UnsetValueError
    h.needed = 3
    h.items.append(4)  # a materialised container default, changed in place: sent
    assert ask(quick, h) == ask(OWN, h) == {"needed": 3, "items": [4]}
    u = _Unnamed(needed=1)  # `named` has a default in _Holder, none in _Unnamed
    assert ask(quick, u) == ask(OWN, u) == ({"needed": 1, "named": Undefined} if include_undefined else UnsetValueError)


def test_defaults_are_still_asked_for_in_full(quick):
    h = _Holder(needed=1)
    assert quick(h, lambda p: p.serialized) == OWN(h, lambda p: p.serialized) == {"needed": 1, "named": "x", "items": []}

