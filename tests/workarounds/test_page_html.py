"""app.workarounds.page_html: a served page's stylesheets and bundles, found from doc.models, are the ones
Panel finds by walking the document (every plate and the index), and roots that are not a
document's own go to Panel's functions; the scripts and stylesheets a page loads, kept per kind
of page, are the ones Panel's bundle_resources gives for it."""

from __future__ import annotations

import re

import pytest
from bokeh.document import Document
from bokeh.models import Column, ColumnDataSource, DataTable, Div, ImportedStyleSheet, TableColumn
from panel.io import resources as pr
from panel.io import server as ps
from panel.config import config as pn_config
from panel.io.state import set_curdoc

from app.plates import registry
from app.delivery.page import index_page, plate_page
from app.workarounds.cached_bundles import cached_bundles
from app.workarounds.page_html import patch_document_css, quick_page_html

DIST = "static/extensions/panel/"


@pytest.fixture(scope="module", autouse=True)
def quick():
    assert quick_page_html()  # Panel 1.10 has both functions where app.workarounds.page_html reads them
    assert quick_page_html()  # a second call changes nothing
    assert cached_bundles()  # Panel 1.10 calls bundle_resources where app.workarounds.page_html reads it
    assert cached_bundles()


def served_doc(slug: str | None) -> Document:
    doc = Document()
    with set_curdoc(doc):
        page = index_page(args={}) if slug is None else plate_page(slug, {})
        page.server_doc(doc, location=False)
    return doc


def sheet_urls(doc: Document) -> list[str]:
    return sorted(m.url for m in doc.models if isinstance(m, ImportedStyleSheet))


@pytest.mark.parametrize("slug", [None, *registry.slugs()])
def test_the_stylesheets_are_patched_as_panel_patches_them(slug):
    panels, ours = served_doc(slug), served_doc(slug)
    before = sheet_urls(ours)
    assert before == sheet_urls(panels)
    with set_curdoc(panels):
        for root in panels.roots:
            ps.patch_model_css._ae_original(root, dist_url=DIST)
    with set_curdoc(ours):
        for root in ours.roots:
            ps.patch_model_css(root, dist_url=DIST)
    assert sheet_urls(ours) == sheet_urls(panels)
    assert sheet_urls(ours) != before  # there was something to patch


@pytest.mark.parametrize("slug", [None, "masking"])
def test_a_whole_document_is_patched_as_panel_patches_each_root(slug):
    """app.workarounds.spare_pages' call, before a spare's reply: one call for all roots, from doc.models."""
    panels, ours = served_doc(slug), served_doc(slug)
    ours.add_root(Div(text="a second root", stylesheets=[ImportedStyleSheet(url=sheet_urls(ours)[0])]))
    panels.add_root(Div(text="a second root", stylesheets=[ImportedStyleSheet(url=sheet_urls(panels)[0])]))
    before = sheet_urls(ours)
    with set_curdoc(panels):
        for root in panels.roots:
            ps.patch_model_css._ae_original(root, dist_url=DIST)
    with set_curdoc(ours):
        patch_document_css(ours, DIST)
    assert sheet_urls(ours) == sheet_urls(panels) != before


@pytest.mark.parametrize("slug", [None, *registry.slugs()])
def test_the_tables_bundle_is_asked_for_as_panel_asks(slug):
    doc = served_doc(slug)
    assert pr._panel_use_tables(doc.roots) == pr._panel_use_tables._ae_original(doc.roots)
    # A table anywhere in the document (here inside a root): both say so.
    table = DataTable(source=ColumnDataSource({"a": [1]}), columns=[TableColumn(field="a")])
    doc.add_root(Column(Div(text="x"), table))
    assert pr._panel_use_tables(doc.roots) is True
    assert pr._panel_use_tables._ae_original(doc.roots) is True
    # Not all of the document's roots, or roots with no document: Panel's own walk.
    assert pr._panel_use_tables([table]) is True
    assert pr._panel_use_tables([Div(text="x")]) is False


def test_a_stylesheet_of_a_root_outside_a_document_is_patched_by_panel():
    sheet = ImportedStyleSheet(url="https://cdn.holoviz.org/panel/1.10.0/dist/css/loading.css")
    root = Div(text="x", stylesheets=[sheet])
    want = ImportedStyleSheet(url=sheet.url)
    ps.patch_model_css._ae_original(Div(text="x", stylesheets=[want]), dist_url=DIST)
    ps.patch_model_css(root, dist_url=DIST)
    assert sheet.url == want.url != "https://cdn.holoviz.org/panel/1.10.0/dist/css/loading.css"


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


@pytest.mark.parametrize("slug", [None, *registry.slugs()])
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
    assert len(bundles) == 3
