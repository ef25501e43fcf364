"""app.workarounds.quick_references: the models a model refers to, found from the values it holds, are the ones
Bokeh's walk finds, on every served page (a document built with the shortcut in place holds the
same models), with a theme, and after properties are set again."""

from __future__ import annotations

import pytest
from bokeh.document import Document
from bokeh.model import Model
from bokeh.model.util import collect_models
from bokeh.models import ColumnDataSource, CustomJS, Div, Plot, Range1d, Title
from bokeh.themes import Theme
from panel.io.state import set_curdoc

import tiers  # tests/tiers.py (on the path: tests/conftest.py)
from app.plates import registry
from app.workarounds.quick_references import existing_models, quick_references
from app.delivery.server import fill_document

OWN = Model.references


@pytest.fixture
def quick():
    """Install the shortcut for one test, and put Bokeh's own method back after it."""
    assert quick_references()
    assert quick_references()  # a second call changes nothing
    assert Model.references is not OWN and Model.references._ae_original is OWN
    yield
    Model.references = OWN


def ids(models) -> set[str]:
    return {m.id for m in models}


@pytest.mark.parametrize("slug", tiers.pages(registry.slugs(), index_id="None"))
def test_a_page_built_with_the_shortcut_holds_the_models_bokeh_finds(slug, quick):
    doc = Document()
    with set_curdoc(doc):
        fill_document(doc, slug, {})
    found = ids(doc.models)
    assert found == ids(collect_models(*doc.roots)) == ids(existing_models(doc.roots))
    assert len(found) > (10 if slug is None else 150)
    assert all(m.document is doc for m in doc.models)


def test_a_theme_and_values_set_again_are_read_as_bokeh_reads_them(quick):
    made_title = Plot().title  # the default Title each Plot makes when it is built
    plot = Plot()
    plot.x_range = Range1d(0, 1)  # replaces the DataRange1d made at build
    doc = Document(theme=Theme(json={"attrs": {"Plot": {"title": None}, "Div": {"tags": ["t"]}}}))
    doc.add_root(plot)
    doc.add_root(Div(text="x", tags=[{"k": ColumnDataSource()}]))
    assert isinstance(made_title, Title) and plot.title is None  # the theme's value hides the one made
    assert ids(doc.models) == ids(collect_models(*doc.roots))
    assert not any(isinstance(m, Title) for m in doc.models)
    cb = CustomJS(code="", args={"d": Div(text="in args")})
    plot.js_on_event("tap", cb)  # a ref set after the page joined: the document recomputes
    assert ids(doc.models) == ids(collect_models(*doc.roots)) and cb.id in ids(doc.models)
