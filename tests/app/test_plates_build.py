"""Every registered plate builds without a server, and its Bokeh document holds the models its
live path and browser tests rely on (the "contract" models, found by name).

Nothing here starts a server: each plate, its whole page and the index are turned into a Bokeh
model tree with `pn.panel(obj).get_root()`, exactly what a session or an export would do.
"""

from __future__ import annotations

import html
import importlib

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import ColumnDataSource

from app.plates import registry
from app.delivery.page import index_page, plate_page

# slug -> {model name: (model type, {column: rows} or None)}. A plate without an entry is held to
# the generic contract only (it renders, its named sources are unique and rectangular).
CONTRACTS: dict[str, dict[str, tuple[type, dict[str, int] | None]]] = {
    "lookup": {
        "query": (ColumnDataSource, {"x": 1, "y": 1}),
        "keys": (ColumnDataSource, {"x": 5, "y": 5}),
        "weights": (ColumnDataSource, {"weight": 5}),
        "output": (ColumnDataSource, {"value": 1}),
    },
}

SLUGS = registry.slugs()


def render(obj):
    """`obj` as a Bokeh model tree, added to a fresh Document as a session or an export would."""
    doc = Document()
    root = pn.panel(obj).get_root(doc)
    doc.add_root(root)
    return root


def page_text(root) -> str:
    """The HTML of every text-bearing model, as the browser will render it.

    A Bokeh Div's text is HTML as is; Panel's own HTML model carries its HTML escaped once
    (its view unescapes it), so that is undone here.
    """
    parts = []
    for m in root.references():
        text = getattr(m, "text", None)
        if not isinstance(text, str):
            continue
        parts.append(html.unescape(text) if type(m).__module__.startswith("panel.") else text)
    return " ".join(parts)


def _find(root, name: str):
    """The one model called `name` in the document (select_one, cross-checked by walking references)."""
    by_walk = [m for m in root.references() if getattr(m, "name", None) == name]
    assert len(by_walk) == 1, f"expected exactly one model named {name!r}, found {len(by_walk)}"
    assert root.select_one({"name": name}) is by_walk[0]
    assert root.document.select_one({"name": name}) is by_walk[0]
    return by_walk[0]


def _check_generic(root) -> None:
    """Named models are unique (the browser finds them with get_model_by_name) and sources rectangular."""
    models = root.references()
    names = [m.name for m in models if getattr(m, "name", None)]
    dupes = sorted({n for n in names if names.count(n) > 1})
    assert not dupes, f"several models share the names {dupes}"
    sources = [m for m in models if isinstance(m, ColumnDataSource)]
    assert any(m.name for m in sources), "the plate has no named ColumnDataSource"
    for m in sources:
        lengths = {len(v) for v in m.data.values()}
        assert len(lengths) <= 1, f"source {m.name!r} has columns of different lengths: {lengths}"


def _check_contract(root, slug: str) -> None:
    assert root.document is not None
    _check_generic(root)
    for name, (kind, columns) in CONTRACTS.get(slug, {}).items():
        model = _find(root, name)
        assert isinstance(model, kind), f"{name!r} is a {type(model).__name__}, expected {kind.__name__}"
        assert model.document is root.document, f"{name!r} is not in the page's document"
        if columns:
            for column, rows in columns.items():
                assert column in model.data, f"{name!r} lacks column {column!r}; has {sorted(model.data)}"
                assert len(model.data[column]) == rows, f"{name!r}.{column} has {len(model.data[column])} rows, expected {rows}"


@pytest.mark.parametrize("slug", SLUGS)
def test_plate_view_builds_with_contract_models(slug):
    plate = registry.plate_class(slug)()
    view = plate.__panel__()
    assert view is not None
    root = render(plate)
    _check_contract(root, slug)


@pytest.fixture(scope="module")
def odd_link_page():
    """slug -> (its served page from a link with a hostile setting, the page's model tree), built
    once per module: the tests that read it change nothing in it."""
    built = {}

    def page_of(slug):
        if slug not in built:
            page = plate_page(slug, {"<b>bad</b>": "1"})
            built[slug] = page, render(page)
        return built[slug]

    return page_of


@pytest.mark.parametrize("slug", SLUGS)
def test_plate_page_builds_with_contract_models(slug, odd_link_page):
    # a served page with a hostile link setting: its notice must show, escaped (the static
    # variant differs only in its links; tests/app/test_export.py builds it for the lookup plate)
    page, root = odd_link_page(slug)
    assert page.plate.slug == slug
    _check_contract(root, slug)
    # the header names the plate and links back to the index
    cls = registry.plate_class(slug)
    texts = page_text(root)
    assert html.escape(cls.title) in texts
    assert "href='/'" in texts
    assert "ae-notice" in texts
    assert "&lt;b&gt;bad&lt;/b&gt;" in texts
    assert "<b>bad</b>" not in texts


@pytest.mark.parametrize("args", [{}, {"<b>bad</b>": "1", "n": "999", "theme": "dark"}], ids=["plain", "odd-link"])
@pytest.mark.parametrize("slug", [None, *SLUGS])
def test_every_served_document_passes_bokehs_checks(slug, args, monkeypatch):
    """The server does not validate each session's document (app/delivery/server.py: Bokeh's
    perform_document_validation is off there, 34-74 ms per session); every page is checked
    here instead, as a session builds it (Bokeh's models in place of Panel's included), plain
    and from an odd link."""
    from bokeh.core.validation.check import check_integrity
    from panel.io.state import set_curdoc

    from app.delivery.server import fill_document

    monkeypatch.setattr(pn.config, "browser_info", False)  # as app.delivery.server.serve sets it
    doc = Document()
    with set_curdoc(doc):
        fill_document(doc, slug, args)
    assert len(doc.models) > 10  # the page is there to check
    if slug is not None:  # and the plate in it (every plate's page holds its "sync" source), however small
        assert doc.select_one({"name": "sync"}) is not None
    issues = check_integrity(list(doc.models))
    assert issues.error == [] and issues.warning == [], issues


@pytest.mark.parametrize("static", [False, True], ids=["served", "static"])
def test_index_page_lists_every_plate(static):
    root = render(index_page(static=static))
    texts = page_text(root)
    for slug in SLUGS:
        target = f"{slug}.html" if static else f"/{slug}"
        assert f"href='{target}'" in texts, f"the index does not link to plate '{slug}'"
        assert html.escape(registry.plate_class(slug).title) in texts


@pytest.mark.parametrize("slug", SLUGS)
def test_plate_module_docstring(slug):
    cls = registry.plate_class(slug)
    module = importlib.import_module(registry.package(slug))  # the plate's package says what it is
    doc = (module.__doc__ or "").strip()
    assert doc, f"{module.__name__} has no module docstring"
    low = doc.lower()
    assert slug in doc, f"{module.__name__}'s docstring does not mention its slug '{slug}'"
    assert cls.title.lower() in low, f"{module.__name__}'s docstring does not name the plate ({cls.title!r})"
    assert "teach" in low, f"{module.__name__}'s docstring does not say what the plate teaches"
    assert "serve" in low or "export" in low, f"{module.__name__}'s docstring does not say how to open the plate"


def test_lookup_contract_is_listed():
    assert "lookup" in SLUGS and set(CONTRACTS["lookup"]) == {"query", "keys", "weights", "output"}


def test_registry_is_consistent():
    assert SLUGS, "no plates registered"
    assert len(SLUGS) == len(set(SLUGS))
    for slug in SLUGS:
        cls = registry.plate_class(slug)
        assert cls.slug == slug
        assert cls.title and cls.summary and getattr(cls, "explanation", "")
    with pytest.raises(ValueError, match="unknown plate 'nosuch'"):
        registry.plate_class("nosuch")
    prev, nxt = registry.neighbours(SLUGS[0])
    assert prev is None
    prev, nxt = registry.neighbours(SLUGS[-1])
    assert nxt is None


@pytest.mark.parametrize("slug", SLUGS)
def test_hide_names_are_the_pages_own_and_an_unknown_one_is_reported(slug, odd_link_page):
    """?hide= can name exactly the page's hideable models (page.js checks a link against the same
    list in an exported page); a name that is not one of them earns a notice and hides nothing."""
    from app.delivery.page import hideable_names

    page, root = odd_link_page(slug)  # a notice for its odd setting adds no model that could be hidden
    names = hideable_names(page.plate)
    in_doc = {m.name for m in root.references() if m.name and "visible" in m.properties()}
    assert set(names) <= in_doc, set(names) - in_doc
    assert {"ae-header", "ae-explanation", "ae-table-toggle"} <= set(names)
    assert not any(n.startswith("ae-lib-") for n in names)
    first = names[-1]
    hidden = plate_page(slug, {"hide": f"{first},no_such_control"})
    assert hidden.notice_pane.object.visible
    assert "ignored &#x27;hide=no_such_control&#x27;: no control of that name on this page" in hidden.notice_pane.object.text
    assert plate_page(slug, {"hide": first}).notice_pane.object.visible is False


def test_the_index_has_a_notice_for_settings_it_cannot_use():
    page = index_page(args={"theme": "blue", "present": "1"})
    assert page.notice_pane.object.visible
    assert page.notice_pane.object.text == ("<div class='ae-notice' role='status'>Link settings: ignored "
                                            "&#x27;theme=blue&#x27;: expected light or dark.</div>")
    assert index_page(args={"theme": "dark"}).notice_pane.object.visible is False
    assert "ae-notices" in {m.name for m in render(index_page()).references()}
