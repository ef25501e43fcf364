"""app.workarounds.cached_bundles: the scripts and stylesheets a served page loads, kept per kind of
page, are the ones Panel's bundle_resources gives for it (every plate and the index); a page with
other kinds of model or its own configuration gets its own; roots that are not a document's own
go to Panel's function."""

from __future__ import annotations

import re

import pytest
from bokeh.document import Document
from bokeh.models import ColumnDataSource, DataTable, Div, TableColumn
from panel.config import config as pn_config
from panel.io import resources as pr
from panel.io import server as ps
from panel.io.state import set_curdoc

from app.delivery.page import index_page, plate_page
import tiers  # tests/tiers.py (on the path: tests/conftest.py)
from app.plates import registry
from app.workarounds.cached_bundles import _document_of, cached_bundles


@pytest.fixture(scope="module", autouse=True)
def installed():
    assert cached_bundles()  # Panel 1.10 calls bundle_resources where app.workarounds.cached_bundles reads it
    assert cached_bundles()  # a second call changes nothing


def served_doc(slug: str | None) -> Document:
    doc = Document()
    with set_curdoc(doc):
        page = index_page(args={}) if slug is None else plate_page(slug, {})
        page.server_doc(doc, location=False)
    return doc


def page_tags(bundle) -> str:
    """What a bundle writes into a served page (Panel's template, no root): its scripts and stylesheets."""
    from bokeh.embed.elements import html_page_for_render_items
    from bokeh.embed.util import RenderItem

    item = RenderItem(token="t", roots={}, use_for_title=False)
    html = html_page_for_render_items(bundle, {}, [item], "t", template=ps.BASE_TEMPLATE, template_variables={})
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", html)  # a new one per page


def served_resources():
    from bokeh.resources import Resources as BkResources
    from bokeh.server.views.static_handler import StaticHandler

    # as DocHandler asks for them (BokehTornado.resources(), in Panel's Resources)
    return pr.Resources.from_bokeh(BkResources(mode="server", root_url="/", path_versioner=StaticHandler.append_version))


@pytest.fixture
def bundles():
    """The bundles kept so far, emptied before and after the test."""
    kept = ps.bundle_resources._ae_bundles
    kept.clear()
    yield kept
    kept.clear()


@pytest.mark.parametrize("slug", tiers.pages(registry.slugs(), index_id="None"))
def test_a_pages_scripts_and_stylesheets_are_panels_and_worked_out_once_per_kind_of_page(slug, bundles):
    own = ps.bundle_resources._ae_original
    first, second = served_doc(slug), served_doc(slug)
    with set_curdoc(first):
        got = ps.bundle_resources(first.roots, served_resources())
        assert page_tags(got) == page_tags(own(first.roots, served_resources()))
    assert "static/js/bokeh.min.js" in page_tags(got)
    with set_curdoc(second):
        again = ps.bundle_resources(second.roots, served_resources())
        assert page_tags(own(second.roots, served_resources())) == page_tags(got)
    assert again is got and len(bundles) == 1  # the second visitor's page is answered from the first's


def test_a_page_with_other_kinds_of_model_or_its_own_configuration_gets_its_own_bundle(bundles):
    own = ps.bundle_resources._ae_original
    plain, with_table, styled = served_doc("lookup"), served_doc("lookup"), served_doc("lookup")
    with_table.add_root(DataTable(source=ColumnDataSource({"a": [1]}), columns=[TableColumn(field="a")]))
    with set_curdoc(plain):
        base = page_tags(ps.bundle_resources(plain.roots, served_resources()))
    with set_curdoc(with_table):
        tables = page_tags(ps.bundle_resources(with_table.roots, served_resources()))
        assert tables == page_tags(own(with_table.roots, served_resources()))
    assert "bokeh-tables" in tables and "bokeh-tables" not in base
    with set_curdoc(styled):
        pn_config.js_files = {"extra": "https://example.org/extra.js"}  # this session's own setting
        mine = page_tags(ps.bundle_resources(styled.roots, served_resources()))
        assert mine == page_tags(own(styled.roots, served_resources()))
    assert "https://example.org/extra.js" in mine and "example.org" not in base
    assert len(bundles) == 3
    # Roots that are not all of a document's go to Panel's function, and nothing is kept for them.
    with set_curdoc(plain):
        assert "bokeh.min.js" in page_tags(ps.bundle_resources([Div(text="x")], served_resources()))
        assert "bokeh.min.js" in page_tags(ps.bundle_resources(plain.roots[:0], served_resources()))
    assert len(bundles) == 3


def test_only_all_of_a_documents_own_roots_are_its():
    doc = served_doc(None)
    extra = Div(text="a second root")
    doc.add_root(extra)
    assert _document_of(doc.roots) is doc and _document_of(list(reversed(doc.roots))) is doc
    assert _document_of(doc.roots[:1]) is None and _document_of([]) is None and _document_of(None) is None
    assert _document_of([Div(text="in no document")]) is None
