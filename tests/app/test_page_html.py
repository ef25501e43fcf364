"""app.page_html: a served page's stylesheets and bundles, found from doc.models, are the ones
Panel finds by walking the document (every plate and the index), and roots that are not a
document's own go to Panel's functions."""

from __future__ import annotations

import pytest
from bokeh.document import Document
from bokeh.models import Column, ColumnDataSource, DataTable, Div, ImportedStyleSheet, TableColumn
from panel.io import resources as pr
from panel.io import server as ps
from panel.io.state import set_curdoc

from app import registry
from app.page import index_page, plate_page
from app.page_html import patch_document_css, quick_page_html

DIST = "static/extensions/panel/"


@pytest.fixture(scope="module", autouse=True)
def quick():
    assert quick_page_html()  # Panel 1.10 has both functions where app.page_html reads them
    assert quick_page_html()  # a second call changes nothing


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
    """app.spare_pages' call, before a spare's reply: one call for all roots, from doc.models."""
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
