"""app.workarounds.quick_defaults: the answer kept for each property and class is Bokeh's, for every property of
every model class; and a page built and serialised with all three of the server's shortcuts on
Bokeh's property system (quick_defaults, quick_references, quick_properties) is the same
document, model for model, as one built without them."""

from __future__ import annotations

import json
import re

import pytest
from bokeh.core.has_props import HasProps
from bokeh.core.property.descriptors import PropertyDescriptor
from bokeh.document import Document
from bokeh.model import Model
from panel.io.state import set_curdoc

import tiers  # tests/tiers.py (on the path: tests/conftest.py)
from app.plates import registry
from app.workarounds.quick_defaults import quick_defaults
from app.workarounds.quick_properties import quick_properties
from app.workarounds.quick_references import quick_references
from app.delivery.server import fill_document

OWN = {
    (PropertyDescriptor, "has_unstable_default"): PropertyDescriptor.has_unstable_default,
    (Model, "references"): Model.references,
    (HasProps, "query_properties_with_values"): HasProps.query_properties_with_values,
}


def restore() -> None:
    for (cls, name), f in OWN.items():
        setattr(cls, name, f)


@pytest.fixture
def quick():
    assert quick_defaults()
    assert quick_defaults()  # a second call changes nothing
    yield PropertyDescriptor.has_unstable_default
    restore()


def test_every_property_of_every_model_class_gets_bokehs_answer(quick):
    own = OWN[(PropertyDescriptor, "has_unstable_default")]
    classes = sorted(set(Model.model_class_reverse_map.values()), key=lambda c: c.__qualified_model__)
    assert len(classes) > 300
    asked = unstable = 0
    for cls in classes:
        obj = cls.__new__(cls)  # the answer reads the class only (its overridden defaults)
        for name in cls.properties(_with_props=True):
            d = cls.lookup(name)
            want, got = answer(own, d, obj), answer(quick, d, obj)
            assert got is want and answer(quick, d, obj) is want, (cls, name)  # made, then kept
            asked += 1
            unstable += want is True
    assert asked > 10_000 and 0 < unstable < asked


def answer(method, d, obj):
    """The method's answer, or the class of what it raised (Bokeh's deprecated aliases have none)."""
    try:
        return method(d, obj)
    except Exception as e:  # noqa: BLE001 - compared with what Bokeh's own method raises
        return type(e)


def test_a_class_overriding_a_default_gets_its_own_answer(quick):
    from bokeh.core.properties import Int, Override

    class Base(HasProps):
        n = Int(3)

    class Made(Base):
        n = Override(default=lambda: 4)  # a factory: unstable in this class only

    d = Base.lookup("n")
    assert quick(d, Base()) is False and quick(d, Made()) is True and quick(d, Base()) is False


def normalised(doc) -> str:
    """The document's JSON with Bokeh's model ids and Panel's object names (Column00120) numbered in
    order of appearance: two builds differ only there."""
    text = json.dumps(doc.to_json(deferred=False), sort_keys=True, default=repr)
    names: dict[str, str] = {}
    return re.sub(r'\b(p\d+|[A-Z]\w*?\d{5})\b', lambda m: names.setdefault(m.group(1), f"ID{len(names)}"), text)


def page(slug) -> Document:
    doc = Document()
    with set_curdoc(doc):
        fill_document(doc, slug, {})
    return doc


@pytest.mark.parametrize("slug", tiers.pages(registry.slugs(), index_id="None"))
def test_a_page_with_all_the_shortcuts_is_the_same_document(slug):
    restore()
    plain = normalised(page(slug))
    try:
        assert quick_defaults() and quick_references() and quick_properties()
        fast = normalised(page(slug))
    finally:
        restore()
    assert fast == plain and len(fast) > 10_000

