"""app.workarounds.served_bokeh_only: served pages load BokehJS alone, as exported pages do.

Every route's page, swapped, is the same page: the same tree of layouts (each Panel Column now a
Bokeh Column with the same Bokeh properties, each HTML pane a Div holding the same HTML,
unescaped), around the very same Bokeh models. A session's document, built as the server builds
it, holds no Panel model and nothing pointing at one. A Panel model without a twin stays, and its
page keeps Panel's scripts. The real server's pages carry no script of Panel's.
"""

from __future__ import annotations

import html
import urllib.request

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import Column, Div

import tiers  # tests/tiers.py (on the path: tests/conftest.py)
from app.plates import registry
from app.delivery.server import fill_document
from app.workarounds.served_bokeh_only import bokeh_layout_tree, bokeh_layouts, serve_without_panel_js

SLUGS = registry.slugs()
PANEL_SCRIPTS = ("panel.min.js", "es-module-shims", "esms-options", "panel.js resource registry")


def _children(model) -> list:
    """A layout's children, GridBox's (child, row, col) included; [] for anything else."""
    kids = getattr(model, "children", None) if "children" in model.properties() else None
    return [k[0] if isinstance(k, tuple) else k for k in (kids or [])]


def outline(model):
    """The page's tree as Bokeh sees it: a Panel Column as the Column and a Panel HTML pane as the
    Div they become (with their Bokeh properties' values), any other model by identity."""
    kind = model.__qualified_model__
    if kind in ("panel.models.layout.Column", "Column"):
        props = {k: v for k, v in model.properties_with_values(include_defaults=False).items()
                 if k in Column.properties() and k not in ("children", "id")}
        return ("Column", tuple(sorted((k, repr(v)) for k, v in props.items())),
                tuple(outline(c) for c in _children(model)))
    if kind in ("panel.models.markup.HTML", "Div"):
        props = {k: v for k, v in model.properties_with_values(include_defaults=False).items()
                 if k in Div.properties() and k != "id"}
        if kind != "Div":
            props["text"] = html.unescape(props.get("text", ""))
        return ("Div", tuple(sorted((k, repr(v)) for k, v in props.items())))
    kids = _children(model)
    return (model.id, tuple(outline(c) for c in kids)) if kids else model.id


def build(slug, args, monkeypatch, swap: bool) -> Document:
    """The session's document as the server builds it, with the workaround on (`swap`) or switched off."""
    monkeypatch.setenv("AE_WORKAROUNDS", "on" if swap else "served_bokeh_only")
    monkeypatch.setattr(pn.config, "browser_info", False)  # as app.delivery.server.serve sets it
    from panel.io.state import set_curdoc

    doc = Document()
    with set_curdoc(doc):
        fill_document(doc, slug, args)
    return doc


def panel_models(doc) -> list:
    return [m for m in doc.models if m.__qualified_model__.startswith("panel.")]


def points_at_panel(doc) -> list:
    """(model, property) pairs of `doc` whose value holds a Panel model."""
    out = []
    for m in doc.models:
        for name in m.properties_with_refs():
            refs = [getattr(m, name)]
            while refs:
                v = refs.pop()
                if isinstance(v, (list, tuple)):
                    refs.extend(v)
                elif isinstance(v, dict):
                    refs.extend(v.values())
                elif getattr(v, "__qualified_model__", "").startswith("panel."):
                    out.append((m, name))
    return out


@pytest.mark.parametrize("args", [{}, {"theme": "dark", "n": "999"}], ids=["plain", "odd-link"])
@pytest.mark.parametrize("slug", tiers.pages(SLUGS))
def test_a_swapped_page_is_the_same_page_in_bokeh_models_only(slug, args, monkeypatch):
    from bokeh.model.util import collect_models

    doc = build(slug, args, monkeypatch, swap=False)
    (root,) = doc.roots
    before = outline(root)
    kept = {m.id for m in doc.models} - {m.id for m in panel_models(doc)}
    assert panel_models(doc), "the page was built with Panel's models: there is something to swap"

    new = bokeh_layout_tree(root)
    after = collect_models(new)
    assert [m for m in after if m.__qualified_model__.startswith("panel.")] == []
    assert outline(new) == before
    assert kept <= {m.id for m in after}  # every Bokeh model of the page is still there


@pytest.mark.parametrize("args", [{}, {"theme": "dark", "n": "999"}], ids=["plain", "odd-link"])
@pytest.mark.parametrize("slug", tiers.pages(SLUGS))
def test_the_server_builds_every_session_without_panel_models(slug, args, monkeypatch):
    doc = build(slug, args, monkeypatch, swap=True)
    assert panel_models(doc) == []
    assert points_at_panel(doc) == []  # a CustomJS's args, a layout's children
    names = {m.name for m in doc.models if m.name}
    assert "ae-notices" in names and "ae-header" in names  # page.js finds the page's parts by name
    assert doc.callbacks.js_event_callbacks.get("document_ready")


@pytest.mark.every_page
def test_the_check_pages_hold_every_kind_of_model(monkeypatch):
    """make check holds the workarounds to Bokeh's and Panel's own way on tests/tiers.py's
    CHECK_PAGES only: together their documents, built either way, must hold every kind of model
    that any page's does."""
    kinds: dict = {}
    for slug in (None, *SLUGS):
        for swap in (False, True):
            kinds.setdefault(slug, set()).update(m.__qualified_model__ for m in build(slug, {}, monkeypatch, swap).models)
    every = set().union(*kinds.values())
    assert set(tiers.CHECK_PAGES) <= set(kinds)
    assert set().union(*(kinds[s] for s in tiers.CHECK_PAGES)) == every, sorted(every - set().union(
        *(kinds[s] for s in tiers.CHECK_PAGES)))


def test_a_grid_cell_is_swapped_and_a_panel_model_without_a_bokeh_twin_stays():
    from bokeh.model.util import collect_models
    from bokeh.models import GridBox

    card = pn.Card(pn.pane.HTML("<i>y</i>"))
    grid = GridBox(children=[(pn.pane.HTML("a &amp; b").get_root(), 0, 1)])
    root = pn.Column(pn.pane.HTML("<b>x</b>"), card, grid).get_root()
    new = bokeh_layout_tree(root)
    kinds = sorted(m.__qualified_model__ for m in collect_models(new))
    assert "panel.models.layout.Card" in kinds and "panel.models.markup.HTML" not in kinds
    assert new.children[0].text == "<b>x</b>" and new.children[1] is root.children[1]
    (cell, r, c), = new.children[2].children
    assert type(cell) is Div and cell.text == "a &amp; b" and (r, c) == (0, 1)


def test_a_page_joins_its_document_without_panels_walk_of_every_model(monkeypatch):
    """Panel's add_to_doc takes each model of the page out of any earlier document, a walk of the
    whole page; a page built for its session needs none of it."""
    from panel.io import model as pm

    walks = []
    own = pm.remove_root
    monkeypatch.setattr(pm, "remove_root", lambda obj, *a, **kw: walks.append(obj) or own(obj, *a, **kw))
    doc = build("masking", {}, monkeypatch, swap=True)
    assert walks == [] and len(doc.roots) == 1 and len(doc.models) > 300
    build("masking", {}, monkeypatch, swap=False)  # Panel's own way (AE_WORKAROUNDS=served_bokeh_only) walks it
    assert len(walks) == 1


def test_a_page_holding_another_documents_model_is_refused_or_moved_as_before():
    """A model of another document inside a new page (a model shared between sessions) makes
    Bokeh refuse the page; a page root that is itself in a document goes through Panel's
    add_to_doc, which moves it."""
    shared = Div(text="in another document")
    Document().add_root(Column(shared))
    with bokeh_layouts(), pytest.raises(RuntimeError, match="single document"):
        pn.Column(pn.pane.HTML("x"), pn.pane.Bokeh(Column(shared))).server_doc(Document(), location=False)
    moved = Column(Div(text="a root of another document"))
    first, second = Document(), Document()
    first.add_root(moved)
    from panel import viewable

    with bokeh_layouts():
        viewable.add_to_doc(moved, second)
    assert moved.document is second and first.roots == [] and second.roots == [moved]


def test_overlapping_builds_in_threads_each_keep_their_own_choice():
    """Bokeh builds sessions' documents in worker threads, so builds overlap. Here build A's
    block ends while build B is inside its own (the order that once left a CI page with Panel's
    models), and a third build outside any block runs beside them: B still swaps, the third
    keeps Panel's models."""
    import threading

    a_inside, b_inside, a_left = threading.Event(), threading.Event(), threading.Event()
    kinds: dict[str, list[str]] = {}
    errors: list[BaseException] = []

    def page_kinds(doc) -> list[str]:
        return sorted({m.__qualified_model__ for m in doc.models})

    def build_a():
        with bokeh_layouts():
            a_inside.set()
            b_inside.wait(10)
        a_left.set()

    def build_b():
        a_inside.wait(10)
        with bokeh_layouts():
            b_inside.set()
            a_left.wait(10)
            doc = Document()
            pn.Column(pn.pane.HTML("<b>B</b>")).server_doc(doc, location=False)
        kinds["b"] = page_kinds(doc)

    def build_outside():
        a_left.wait(10)
        doc = Document()
        pn.Column(pn.pane.HTML("<b>C</b>")).server_doc(doc, location=False)
        kinds["outside"] = page_kinds(doc)

    def run(fn):
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(f,)) for f in (build_a, build_b, build_outside)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert not errors, errors
    assert a_left.is_set() and set(kinds) == {"b", "outside"}, kinds
    assert not [k for k in kinds["b"] if k.startswith("panel.")], kinds["b"]
    assert {"panel.models.layout.Column", "panel.models.markup.HTML"} <= set(kinds["outside"]), kinds["outside"]


class _Session:
    def __init__(self, doc):
        self.document = doc


PAGE = ('<script type="esms-options">{"shimMode": true}</script>'
        '<script src="static/extensions/panel/bundled/reactiveesm/es-module-shims@^1.10.0/dist/es-module-shims.min.js">'
        '</script><script src="static/js/bokeh.min.js?v=1"></script>'
        '<script src="static/extensions/panel/panel.min.js?v=2"></script><script>Bokeh.set_log_level("info");</script>')


def test_the_page_drops_panels_scripts_only_when_the_document_holds_no_panel_model(monkeypatch):
    from panel.io import server as ps

    monkeypatch.setattr(ps, "server_html_page_for_session", lambda session, *a, **kw: PAGE)
    assert serve_without_panel_js()
    bokeh_doc, panel_doc = Document(), Document()
    bokeh_doc.add_root(Div(text="x"))
    panel_doc.add_root(pn.Column("x").get_root())
    out = ps.server_html_page_for_session(_Session(bokeh_doc), None, "t")
    assert out == ('<script src="static/js/bokeh.min.js?v=1"></script>'
                   '<script>Bokeh.set_log_level("info");</script>')
    assert ps.server_html_page_for_session(_Session(panel_doc), None, "t") == PAGE


@pytest.fixture(scope="module")
def served(app_server):
    return app_server


@pytest.mark.parametrize("route", ["/", *(f"/{s}" for s in SLUGS), "/worked?preset=four-tokens&theme=dark"])
def test_every_served_page_loads_bokehjs_without_panels_scripts(served, route):
    with urllib.request.urlopen(f"http://127.0.0.1:{served.port}{route}", timeout=60) as r:
        page = r.read().decode("utf-8")
    assert "static/js/bokeh.min.js" in page and "static/js/bokeh-widgets.min.js" in page
    for script in PANEL_SCRIPTS:
        assert script not in page, script
    assert served.errors_in_log() == []
    assert "keeps Panel's JavaScript" not in served.log.read_text()
